/* Fault injection: an allocator that refuses the k-th allocation (and, in a
 * second pass, every allocation from the k-th on), for every k up to the
 * number of allocations the call makes. Every call must return DG_E_NOMEM or
 * succeed with the same output as without faults, free everything it took
 * (counted per block, with sizes), and leave the caller's data untouched on
 * error. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define PRE 0x5A

static int interior_holds(const dg_grid *g, uint8_t v)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_grid_get(g, x, y) != v)
                return 0;
    return 1;
}

typedef struct gen_run {
    dg_status st;
    uint64_t grid, result, extra;
    int64_t calls;
} gen_run;

/* One generator call with the result and scratch memory on a faulty allocator. */
static gen_run run_faulty(const hard_ctx *ctx, const hard_gen *g, int variant, uint64_t seed,
                          int64_t fail_at, int fail_after, dg_status clean_st)
{
    gen_run o;
    memset(&o, 0, sizeof o);
    guarded_grid gg;
    if (!guard_make(&gg, g->width, g->height, 3))
        return o;
    dg_grid_fill(&gg.grid, PRE);
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    ha.fail_after = fail_after;
    dg_result r;
    dg_result_init(&r, &ha.hooks);
    dg_diag diag;
    o.st = g->run(ctx, variant, &gg.grid, seed, &r, &ha.hooks, &diag, &o.extra);
    o.grid = dg_grid_hash(&gg.grid);
    o.result = g->has_result ? hard_result_hash(&r) : 0;
    o.calls = ha.calls;
    CHECKF(guard_intact(&gg), "%s v%d k=%lld: wrote outside the grid", g->name, variant,
           (long long)fail_at);
    CHECKF(fail_at == 0 || o.st == clean_st || o.st == DG_E_NOMEM, "%s v%d k=%lld: status %s",
           g->name, variant, (long long)fail_at, dg_status_str(o.st));
    if (o.st == DG_E_NOMEM)
    {
        CHECKF(ha.failed > 0, "%s v%d k=%lld: DG_E_NOMEM with no failed allocation", g->name,
               variant, (long long)fail_at);
        CHECKF(g->base_first || interior_holds(&gg.grid, PRE),
               "%s v%d k=%lld: grid changed on DG_E_NOMEM", g->name, variant, (long long)fail_at);
    }
    dg_result_free(&r);
    CHECKF(hard_alloc_clean(&ha), "%s v%d k=%lld: %lld blocks (%lld bytes) leaked, %lld bad frees",
           g->name, variant, (long long)fail_at, (long long)ha.live, (long long)ha.live_bytes,
           (long long)ha.bad_frees);
    guard_free(&gg);
    return o;
}

TEST(faults_every_allocation_of_every_generator)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (const hard_gen *g = hard_gens; g->name && !test_failures(); g++)
        for (int v = 0; v < g->variants; v++)
            for (uint64_t seed = 1; seed <= 2; seed++)
            {
                gen_run clean = run_faulty(&ctx, g, v, seed, 0, 0, DG_OK);
                for (int64_t k = 1; k <= clean.calls && !test_failures(); k++)
                    for (int after = 0; after <= 1; after++)
                    {
                        gen_run f = run_faulty(&ctx, g, v, seed, k, after, clean.st);
                        CHECKF(f.st == DG_E_NOMEM ||
                                   (f.grid == clean.grid && f.result == clean.result &&
                                    f.extra == clean.extra),
                               "%s v%d seed %d: success despite fault %lld but other output",
                               g->name, v, (int)seed, (long long)k);
                    }
            }
    hard_ctx_close(&ctx);
}

/* ---- world and explorer ----------------------------------------------------------- */
TEST(faults_world_create)
{
    for (int v = 0; v < 4; v++)
    {
        dg_world_params p;
        dg_world_defaults(&p);
        p.room_size = 3 + 2 * v;
        hard_alloc clean;
        hard_alloc_init(&clean, 0);
        dg_world *w = NULL;
        CHECK(dg_world_create(&p, 5, &clean.hooks, &w, NULL) == DG_OK);
        dg_world_free(w);
        CHECK(clean.calls >= 1 && hard_alloc_clean(&clean));
        for (int64_t k = 1; k <= clean.calls; k++)
        {
            hard_alloc ha;
            hard_alloc_init(&ha, k);
            dg_world *fw = NULL;
            dg_diag diag;
            CHECK(dg_world_create(&p, 5, &ha.hooks, &fw, &diag) == DG_E_NOMEM);
            CHECK(fw == NULL && diag.status == DG_E_NOMEM);
            CHECK(hard_alloc_clean(&ha));
        }
    }
}

static dg_world_pos spiral(int64_t i)
{
    /* rooms in a square spiral around the origin, so the table keeps growing */
    int64_t r = 0;
    while ((2 * r + 1) * (2 * r + 1) <= i)
        r++;
    int64_t side = 2 * r, k = i - (2 * r - 1) * (2 * r - 1);
    dg_world_pos p = {r, -r};
    if (r == 0)
        return p;
    if (k < side)
        p.y = -r + 1 + k;
    else if (k < 2 * side)
        p.x = r - 1 - (k - side), p.y = r;
    else if (k < 3 * side)
        p.x = -r, p.y = r - 1 - (k - 2 * side);
    else
        p.x = -r + 1 + (k - 3 * side), p.y = -r;
    return p;
}

#define EXPLORE_ROOMS 300

static uint64_t explorer_digest(const dg_explorer *e)
{
    int64_t n = 0;
    if (dg_explorer_save(e, NULL, NULL, 0, &n) != DG_OK || n < 0)
        return 0;
    dg_world_pos *rooms = malloc((size_t)(n ? n : 1) * sizeof *rooms);
    uint64_t *states = malloc((size_t)(n ? n : 1) * sizeof *states);
    uint64_t h = (uint64_t)n;
    if (rooms && states && dg_explorer_save(e, rooms, states, n, &n) == DG_OK)
        for (int64_t i = 0; i < n; i++)
            h = dg_hash_combine(dg_hash_combine(h, (uint64_t)rooms[i].x),
                                dg_hash_combine((uint64_t)rooms[i].y, states[i]));
    free(rooms);
    free(states);
    return h;
}

/* Enters EXPLORE_ROOMS rooms with the k-th allocation refused; a refused
 * entry must leave the explorer as it was, and entering again must work. */
static uint64_t explore_with_fault(const dg_world *w, int64_t k, int64_t *calls)
{
    hard_alloc ha;
    hard_alloc_init(&ha, k);
    dg_explorer *e = NULL;
    dg_status st = dg_explorer_create(w, &ha.hooks, &e);
    if (st == DG_E_NOMEM)
    {
        CHECK(e == NULL);
        st = dg_explorer_create(w, &ha.hooks, &e);
    }
    CHECK(st == DG_OK);
    if (st != DG_OK)
        return 0;
    for (int64_t i = 0; i < EXPLORE_ROOMS; i++)
    {
        dg_world_pos p = spiral(i);
        uint64_t before = explorer_digest(e);
        dg_enter_result out;
        st = dg_explorer_enter(e, p.x, p.y, &out);
        if (st == DG_E_NOMEM)
        {
            CHECKF(explorer_digest(e) == before, "k=%lld: explorer changed on DG_E_NOMEM",
                   (long long)k);
            st = dg_explorer_enter(e, p.x, p.y, &out);
        }
        CHECK(st == DG_OK);
        CHECK(dg_explorer_set_state(e, p.x, p.y, (uint64_t)i * 7) == DG_OK);
    }
    uint64_t digest = explorer_digest(e);
    dg_explorer_free(e);
    CHECKF(hard_alloc_clean(&ha), "k=%lld: explorer leaked", (long long)k);
    if (calls)
        *calls = ha.calls;
    return digest;
}

TEST(faults_explorer_enter_and_restore)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    const dg_world *w = ctx.worlds[0];
    int64_t calls = 0;
    uint64_t clean = explore_with_fault(w, 0, &calls);
    CHECK(calls >= 2);
    for (int64_t k = 1; k <= calls && !test_failures(); k++)
        CHECKF(explore_with_fault(w, k, NULL) == clean, "k=%lld: other rooms after a fault",
               (long long)k);

    /* restore: a refused table leaves the explorer exactly as it was */
    dg_world_pos rooms[EXPLORE_ROOMS];
    uint64_t states[EXPLORE_ROOMS];
    for (int64_t i = 0; i < EXPLORE_ROOMS; i++)
    {
        rooms[i] = spiral(i + 1000);
        states[i] = (uint64_t)i;
    }
    hard_alloc ha;
    hard_alloc_init(&ha, 0);
    dg_explorer *e = NULL;
    CHECK(dg_explorer_create(w, &ha.hooks, &e) == DG_OK);
    if (e)
    {
        CHECK(dg_explorer_enter(e, 0, 0, NULL) == DG_OK);
        uint64_t before = explorer_digest(e);
        ha.fail_at = ha.calls + 1;
        dg_diag diag;
        CHECK(dg_explorer_restore(e, rooms, states, EXPLORE_ROOMS, &diag) == DG_E_NOMEM);
        CHECK(diag.status == DG_E_NOMEM && explorer_digest(e) == before);
        CHECK(dg_explorer_restore(e, rooms, states, EXPLORE_ROOMS, &diag) == DG_OK);
        CHECK(dg_explorer_count(e) == EXPLORE_ROOMS);
        dg_explorer_free(e);
    }
    CHECK(hard_alloc_clean(&ha));
    hard_ctx_close(&ctx);
}

TEST(faults_allocator_counts_and_refuses)
{
    /* the harness itself: refusals, counts and size checks */
    hard_alloc ha;
    hard_alloc_init(&ha, 2);
    void *a = ha.hooks.alloc(ha.hooks.user, 10);
    void *b = ha.hooks.alloc(ha.hooks.user, 10);
    CHECK(a != NULL && b == NULL && ha.failed == 1 && ha.live == 1);
    ha.hooks.free(ha.hooks.user, a, 9); /* wrong size: counted, not freed */
    CHECK(ha.bad_frees == 1 && !hard_alloc_clean(&ha));
    ha.hooks.free(ha.hooks.user, a, 10);
    CHECK(ha.live == 0 && ha.live_bytes == 0);
}

/* ---- analysis -------------------------------------------------------------------------- */
static uint64_t op_faulty(const hard_op *op, const dg_grid *map, uint64_t seed, int64_t fail_at,
                          uint8_t *out, int64_t *calls)
{
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    memset(out, 0xEE, HARD_OP_OUT(map));
    size_t used = 0;
    dg_status st = op->run(map, seed, &ha.hooks, out, &used);
    CHECKF(st != DG_E_NOMEM || ha.failed > 0, "%s: DG_E_NOMEM without a failure", op->name);
    if (fail_at > 0 && ha.failed > 0)
    {
        CHECKF(st == DG_E_NOMEM || st == DG_OK, "%s k=%lld: %s", op->name, (long long)fail_at,
               dg_status_str(st));
        int untouched = 1;
        for (size_t i = 0; i < HARD_OP_OUT(map) && untouched && st != DG_OK; i++)
            untouched = out[i] == 0xEE;
        CHECKF(untouched, "%s k=%lld: outputs written on DG_E_NOMEM", op->name, (long long)fail_at);
    }
    CHECKF(hard_alloc_clean(&ha), "%s k=%lld: leaked", op->name, (long long)fail_at);
    if (calls)
        *calls = ha.calls;
    return hard_op_hash(st, out, used);
}

TEST(faults_every_allocation_of_every_analysis_function)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    /* 150 x 140 so that a radius-200 field of view needs its deep-scan buffer */
    uint8_t *cells = malloc(150 * 140);
    dg_grid map;
    CHECK(cells && dg_grid_init(&map, cells, 150, 140, 0) == DG_OK);
    uint8_t *out = malloc(HARD_OP_OUT(&map));
    for (int kind = 0; kind < 3 && out && cells; kind++)
    {
        hard_sample_map(&ctx, kind, 3, &map);
        for (const hard_op *op = hard_ops; op->name; op++)
            for (uint64_t seed = 0; seed < 4; seed++)
            {
                int64_t calls = 0;
                uint64_t clean = op_faulty(op, &map, seed, 0, out, &calls);
                for (int64_t k = 1; k <= calls && !test_failures(); k++)
                {
                    uint64_t h = op_faulty(op, &map, seed, k, out, NULL);
                    CHECKF(h == clean || h == (uint64_t)(uint32_t)DG_E_NOMEM,
                           "%s seed %d: success despite fault %lld but other output", op->name,
                           (int)seed, (long long)k);
                }
            }
    }
    free(cells);
    free(out);
    hard_ctx_close(&ctx);
}
