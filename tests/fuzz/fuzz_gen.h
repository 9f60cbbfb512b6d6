/* The body of every generator fuzz target: tests/fuzz/fuzz_NAME.c defines
 * FUZZ_GEN "NAME" and includes this file. One input = grid size, stride
 * padding, seed, an allocation to refuse, then the generator's parameters
 * (decoded by its hard_gens[] entry). Whatever the bytes, the call must return
 * a documented status or a valid map, never write outside the grid (canaries
 * around it and in the stride padding), leave the grid untouched on error, keep
 * its work within the documented bound, free everything, and give the same
 * bytes when run again. Any violation aborts with a message. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_GEN
#error "define FUZZ_GEN to a generator name from hard_gens[]"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_SIDE 128 /* keeps one execution in the millisecond range */
#define FUZZ_FILL 0x5A    /* what the grid holds before the call */

static void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_%s: %s%s%s\n", FUZZ_GEN, what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static int grid_holds(const dg_grid *g, uint8_t v)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_grid_get(g, x, y) != v)
                return 0;
    return 1;
}

typedef struct fuzz_run {
    dg_status status;
    uint64_t grid_hash;
    uint64_t result_hash;
} fuzz_run;

/* One call on a fresh guarded grid; checks everything but determinism. */
static fuzz_run fuzz_once(const hard_gen *gen, const hard_ctx *ctx, hard_input params,
                          int32_t w, int32_t h, int32_t pad, uint64_t seed, int64_t fail_at)
{
    guarded_grid gg;
    if (!guard_make(&gg, w, h, pad))
        fuzz_fail("out of memory in the harness", NULL);
    dg_grid_fill(&gg.grid, FUZZ_FILL);
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    dg_result result;
    dg_result_init(&result, &ha.hooks);
    dg_diag diag;
    memset(&diag, 0, sizeof diag);
    hard_fuzz_out out = {-1, NULL};
    fuzz_run run = {0, 0, 0};
    run.status = gen->run_fuzz(ctx, &params, &gg.grid, seed, &result, &ha.hooks, &diag, &out);
    if (!guard_intact(&gg))
        fuzz_fail("wrote outside the grid", dg_status_str(run.status));
    if (out.violation)
        fuzz_fail("invariant broken", out.violation);
    if (run.status == DG_OK)
    {
        const char *why = hard_validate(&gg.grid, gen->has_result ? &result : NULL);
        if (why)
            fuzz_fail("invalid output", why);
        if (out.work_bound >= 0 && result.metrics.attempts > out.work_bound)
            fuzz_fail("work bound exceeded", NULL);
        run.grid_hash = dg_grid_hash(&gg.grid);
        run.result_hash = hard_result_hash(&result);
    }
    else
    {
        if (!hard_status_known(run.status))
            fuzz_fail("undocumented status", NULL);
        if (run.status == HARD_E_CHANGED || (!gen->base_first && !grid_holds(&gg.grid, FUZZ_FILL)))
            fuzz_fail("grid changed on error", dg_status_str(run.status));
        if (run.status == DG_E_NOMEM && ha.failed == 0)
            fuzz_fail("DG_E_NOMEM without a failed allocation", NULL);
        if (run.status != DG_E_NOMEM && (diag.status != run.status || !diag.message[0]))
            fuzz_fail("error without a diagnostic", dg_status_str(run.status));
    }
    dg_result_free(&result);
    if (!hard_alloc_clean(&ha))
        fuzz_fail("leaked or mismatched free", dg_status_str(run.status));
    guard_free(&gg);
    return run;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hard_ctx ctx; /* immutable shared objects, built once per process */
    const hard_gen *gen = hard_find_gen(FUZZ_GEN);
    if (!gen)
        fuzz_fail("generator missing from hard_gens[]", NULL);
    if (!ctx.ready && hard_ctx_open(&ctx) != DG_OK)
        fuzz_fail("could not build the shared objects", NULL);
    hard_input in = {data, size, 0};
    int32_t w = 1 + (int32_t)(hard_u8(&in) % FUZZ_MAX_SIDE);
    int32_t h = 1 + (int32_t)(hard_u8(&in) % FUZZ_MAX_SIDE);
    int32_t pad = hard_u8(&in) % 8;
    uint64_t seed = hard_u64(&in);
    uint8_t f = hard_u8(&in);
    int64_t fail_at = f >= 224 ? 1 + (f - 224) : 0; /* now and then refuse an allocation */
    fuzz_run a = fuzz_once(gen, &ctx, in, w, h, pad, seed, fail_at);
    fuzz_run b = fuzz_once(gen, &ctx, in, w, h, (pad + 3) % 8, seed, fail_at);
    if (a.status != b.status || a.grid_hash != b.grid_hash || a.result_hash != b.result_hash)
        fuzz_fail("not deterministic (same input, other stride)", NULL);
    return 0;
}
