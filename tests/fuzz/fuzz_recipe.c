/* Fuzz target: the recipe parser and what a parsed recipe drives. The input is
 * recipe text ("attach seed=42 width=80 height=50 room_min_w=3 ..."; seeds in
 * tests/fuzz/corpus/recipe/). Whatever the bytes: parsing returns OK, or
 * DG_E_PARSE / DG_E_INVALID with a diagnostic on line 1 and a column inside
 * the input, leaving the recipe untouched; a parsed recipe prints and parses
 * back to the same recipe; printing into a short buffer writes nothing; a
 * recipe small enough is generated on a guarded grid (valid map, or an error
 * that leaves the grid untouched) and exported to JSON into an exact buffer.
 * A recipe naming a prefab set (prefabs=, prefabs_hash=) that is not the
 * sample set must be refused with DG_E_INVALID; it is then generated again
 * with the sample set recorded.
 * Any violation aborts with a message. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RECIPE_MAX_CELLS (160 * 160) /* larger recipes are parsed, not generated */

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_recipe: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static const dg_prefab_set *set_for(const hard_ctx *ctx, const char *generator)
{
    if (strcmp(generator, "prefab-full") == 0)
        return ctx->sets[HARD_SET_SHAFT];
    if (strcmp(generator, "prefab-jigsaw") == 0)
        return ctx->sets[HARD_SET_FOREST];
    if (strcmp(generator, "prefab-islands") == 0)
        return ctx->sets[HARD_SET_FACTORY];
    if (strcmp(generator, "prefab-mixed") == 0)
        return ctx->sets[HARD_SET_VAULTS];
    return ctx->sets[HARD_SET_FURNISH];
}

static void round_trip(const dg_recipe *r)
{
    size_t need = 0;
    if (dg_recipe_print(r, NULL, 0, &need) != DG_OK || need == 0)
        fail("print could not size the line", NULL);
    char *line = malloc(need + 1);
    if (!line)
        fail("out of memory in the harness", NULL);
    memset(line, 0x7F, need + 1);
    if (dg_recipe_print(r, line, need, NULL) != DG_E_BUFFER || line[0] != 0x7F)
        fail("print into a short buffer wrote", NULL);
    size_t written = 0;
    if (dg_recipe_print(r, line, need + 1, &written) != DG_OK || written != need || line[need])
        fail("print length inconsistent", NULL);
    dg_recipe back;
    dg_diag diag;
    dg_status st = dg_recipe_parse(line, need, &back, &diag);
    if (st != DG_OK)
        fail("printed recipe does not parse", diag.message);
    if (memcmp(&back, r, sizeof back) != 0)
        fail("recipe changed in a print/parse round trip", line);
    free(line);
}

static void export_json(const dg_grid *g, const dg_result *result, const dg_recipe *r)
{
    dg_export_options opt;
    dg_export_defaults(&opt);
    opt.recipe = r;
    size_t need = 0;
    if (dg_export_buffer(g, result, &opt, NULL, 0, &need, NULL) != DG_OK)
        fail("export could not size its output", NULL);
    char *out = malloc(need + 1); /* exact size: ASan catches a write past it */
    size_t written = 0;
    if (!out || dg_export_buffer(g, result, &opt, out, need + 1, &written, NULL) != DG_OK ||
        written != need || out[need] != '\0')
        fail("export length inconsistent", NULL);
    free(out);
}

static void generate(const hard_ctx *ctx, const dg_recipe *r)
{
    if ((int64_t)r->width * r->height > RECIPE_MAX_CELLS)
        return;
    guarded_grid gg;
    if (!guard_make(&gg, r->width, r->height, 3))
        fail("out of memory in the harness", NULL);
    dg_grid_fill(&gg.grid, 0x5A);
    hard_alloc ha;
    hard_alloc_init(&ha, 0);
    dg_result result;
    dg_result_init(&result, &ha.hooks);
    dg_diag diag;
    memset(&diag, 0, sizeof diag);
    dg_status st = dg_recipe_generate(r, &gg.grid, set_for(ctx, r->generator), &result,
                                      &ha.hooks, &diag);
    if (!guard_intact(&gg))
        fail("generation wrote outside the grid", r->generator);
    if (st == DG_OK)
    {
        int has_result = result.metrics.cells != 0;
        const char *why = hard_validate(&gg.grid, has_result ? &result : NULL);
        if (why)
            fail("invalid map", why);
        export_json(&gg.grid, &result, r);
    }
    else if (!hard_status_known(st) || diag.status != st)
        fail("generation error without a diagnostic", dg_status_str(st));
    dg_result_free(&result);
    if (!hard_alloc_clean(&ha))
        fail("generation leaked", r->generator);
    guard_free(&gg);
}

/* A recorded set other than the sample one is refused; then the sample set
 * is recorded so that the generators still run. */
static void check_recorded_set(const hard_ctx *ctx, dg_recipe *r)
{
    const dg_prefab_set *set = set_for(ctx, r->generator);
    if (!r->prefabs_hash || r->prefabs_hash == dg_prefab_set_hash(set))
        return;
    uint8_t cell = 0x5A;
    dg_grid g;
    dg_diag diag;
    if (dg_grid_init(&g, &cell, 1, 1, 0) != DG_OK)
        fail("harness grid", NULL);
    dg_recipe one = *r;
    one.width = one.height = 1;
    if (dg_recipe_generate(&one, &g, set, NULL, NULL, &diag) != DG_E_INVALID || cell != 0x5A)
        fail("another prefab set than the recorded one was not refused", r->generator);
    if (dg_recipe_set_prefabs(r, set, r->prefabs, NULL) != DG_OK)
        fail("could not record the sample set", r->prefabs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hard_ctx ctx;
    if (!ctx.ready && hard_ctx_open(&ctx) != DG_OK)
        fail("could not load the sample prefab sets (run from the source tree)", NULL);
    dg_recipe r, before;
    memset(&r, 0xAB, sizeof r);
    before = r;
    dg_diag diag;
    memset(&diag, 0, sizeof diag);
    dg_status st = dg_recipe_parse((const char *)data, size, &r, &diag);
    if (st != DG_OK)
    {
        if (st != DG_E_PARSE && st != DG_E_INVALID && st != DG_E_NULL)
            fail("unexpected status", dg_status_str(st));
        if (memcmp(&r, &before, sizeof r) != 0)
            fail("recipe changed on error", diag.message);
        if (diag.status != st || !diag.message[0] || !memchr(diag.message, 0, sizeof diag.message))
            fail("error without a diagnostic", NULL);
        if (st != DG_E_NULL && (diag.line != 1 || diag.column < 1 || (size_t)diag.column > size + 1))
            fail("diagnostic position outside the input", diag.message);
        return 0;
    }
    if (!memchr(r.generator, 0, sizeof r.generator) || dg_generator_find(r.generator) < 0)
        fail("parsed an unknown generator", NULL);
    round_trip(&r);
    check_recorded_set(&ctx, &r);
    generate(&ctx, &r);
    return 0;
}
