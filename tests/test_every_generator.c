/* What every generator must do, checked in one loop over the registry
 * (dg_generator_count / dg_generator_get / dg_generator_params) and the
 * hardening table (tests/hard.h), so a new generator is covered by one entry
 * in each: the same seed gives the same bytes; the stride changes nothing and
 * the padding is never written; on error the grid and the result are left
 * exactly as they were; every passable cell is reachable from the start (a
 * search of the tests' own, against dg_survey_map's figure); and bad input
 * derived from the parameter table (min - 1 and max + 1 of every parameter,
 * NULL grid, NULL params) is rejected with the documented status and a
 * message naming the parameter. Per-generator files keep only what is
 * specific to their generator. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define PRE 0x5A /* what a grid holds before a call */

/* The hard.h entry of registered generator i (a CHECK fails if it has none). */
static const hard_gen *entry_of(int32_t i, dg_generator_info *info)
{
    CHECK(dg_generator_get(i, info) == DG_OK);
    if (info->needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
        return NULL;
    const hard_gen *g = hard_find_gen(info->name);
    CHECKF(g != NULL, "generator %s has no entry in hard_gens[] (tests/hard.c)", info->name);
    return g;
}

TEST(every_generator_is_in_both_tables)
{
    dg_generator_info info;
    int32_t graph_only = 0;
    for (int32_t i = 0; i < dg_generator_count(); i++)
        graph_only += entry_of(i, &info) == NULL && info.needs_graph && !hard_find_gen(info.name);
    CHECK(dg_generator_count() == hard_gen_count() + graph_only);
    for (const hard_gen *g = hard_gens; g->name; g++)
        CHECKF(dg_generator_find(g->name) >= 0, "hard_gens[] names %s, which is not registered",
               g->name);
}

/* ---- determinism ------------------------------------------------------------------ */
TEST(every_generator_same_seed_same_bytes)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (const hard_gen *g = hard_gens; g->name && ctx.ready; g++)
        for (int v = 0; v < g->variants; v++)
            for (uint64_t seed = 1; seed <= 3; seed++)
            {
                uint64_t a = hard_run_hash(&ctx, g, v, g->width, g->height, seed);
                uint64_t b = hard_run_hash(&ctx, g, v, g->width, g->height, seed);
                CHECKF(a == b && a != 0, "%s v%d seed %d: two runs differ", g->name, v, (int)seed);
            }
    hard_ctx_close(&ctx);
}

/* ---- bad input from the parameter table --------------------------------------------- */
/* A guarded grid and a result a successful run filled, made once per generator. */
typedef struct bad_target {
    guarded_grid gg;
    dg_result result;
    uint64_t result_before;
} bad_target;

static int target_open(const hard_ctx *ctx, const hard_gen *g, bad_target *t)
{
    dg_result_init(&t->result, NULL);
    if (!guard_make(&t->gg, g->width, g->height, 3))
        return 0;
    uint64_t extra = 0;
    CHECK(g->run(ctx, 0, &t->gg.grid, 7, &t->result, NULL, NULL, &extra) == DG_OK);
    t->result_before = hard_result_hash(&t->result);
    return 1;
}

static void target_close(bad_target *t)
{
    dg_result_free(&t->result);
    guard_free(&t->gg);
}

typedef struct bad_call {
    dg_diag diag;
    dg_status st;
    int grid_ok, result_ok;
} bad_call;

/* Runs g with params on the target's grid (refilled with PRE, or broken as
 * told) and result; records whether either changed. */
enum { GOOD_GRID, NULL_GRID, NULL_CELLS, NO_ROWS, NARROW_STRIDE };
static void call_bad(const hard_ctx *ctx, const hard_gen *g, bad_target *t, const void *params,
                     int broken, bad_call *c)
{
    memset(c, 0, sizeof *c);
    dg_grid_fill(&t->gg.grid, PRE);
    dg_grid grid = t->gg.grid;
    grid.cells = broken == NULL_CELLS ? NULL : grid.cells;
    grid.height = broken == NO_ROWS ? 0 : grid.height;
    grid.stride = broken == NARROW_STRIDE ? grid.width - 1 : grid.stride;
    c->st = hard_gen_call(ctx, g->name, broken == NULL_GRID ? NULL : &grid, params, 1, &t->result,
                          NULL, &c->diag);
    c->grid_ok = guard_intact(&t->gg);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            c->grid_ok &= dg_grid_get(&t->gg.grid, x, y) == PRE;
    c->result_ok = hard_result_hash(&t->result) == t->result_before;
}

/* One value outside [min, max] of parameter d; 0 if not representable. */
static int out_of_range(const dg_param_desc *d, int above, int32_t *value)
{
    if (above ? d->max == INT32_MAX : d->min == INT32_MIN)
        return 0;
    *value = above ? d->max + 1 : d->min - 1;
    return 1;
}

/* What the header documents beside the common rule, kept short and explicit:
 * parameters only the registry reads (the generator's own function ignores
 * them), generators whose messages name the quantity in words instead of the
 * key, and generators that take params NULL as their defaults. */
static int registry_only(const char *gen, const char *key)
{
    return strcmp(gen, "prefab-mixed") == 0 && strcmp(key, "base") == 0;
}
static int words_not_keys(const char *gen)
{
    return strcmp(gen, "chain") == 0;
}
static int null_params_is_defaults(const char *gen)
{
    return strncmp(gen, "prefab-", 7) == 0 || strcmp(gen, "world") == 0;
}

/* The registry rejects the value too (dg_recipe_from_params), naming the key. */
static void check_recipe_rejects(const dg_generator_info *info, const dg_param_desc *d,
                                 const void *params, int32_t value)
{
    dg_recipe rc;
    memset(&rc, 0x33, sizeof rc);
    dg_recipe before = rc;
    dg_diag diag;
    memset(&diag, 0, sizeof diag);
    dg_status st = dg_recipe_from_params(&rc, info->name, params, (size_t)info->params_size, 1, 40,
                                         30, &diag);
    CHECKF(st == DG_E_INVALID && strstr(diag.message, d->name) &&
               memcmp(&rc, &before, sizeof rc) == 0,
           "recipe of %s %s = %d: %s \"%s\"", info->name, d->name, (int)value, dg_status_str(st),
           diag.message);
}

TEST(every_generator_rejects_each_parameter_out_of_range)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (int32_t i = 0; i < dg_generator_count() && ctx.ready; i++)
    {
        dg_generator_info info;
        const hard_gen *g = entry_of(i, &info);
        void *params = malloc((size_t)info.params_size);
        bad_target t;
        if (!g || !params || !target_open(&ctx, g, &t))
        {
            free(params);
            continue;
        }
        for (int32_t k = 0; k < info.param_count; k++)
        {
            const dg_param_desc *d = &info.params[k];
            for (int above = 0; above <= 1; above++)
            {
                int32_t value;
                if (!out_of_range(d, above, &value))
                    continue;
                CHECK(dg_params_defaults(info.name, params, (size_t)info.params_size) == DG_OK);
                memcpy((char *)params + d->offset, &value, sizeof value);
                check_recipe_rejects(&info, d, params, value);
                if (registry_only(info.name, d->name))
                    continue;
                bad_call c;
                call_bad(&ctx, g, &t, params, GOOD_GRID, &c);
                /* a size past its maximum may be DG_E_TOO_LARGE (chain's room counts and sizes) */
                CHECKF(c.st == DG_E_INVALID || (above && c.st == DG_E_TOO_LARGE),
                       "%s %s = %d: %s, want DG_E_INVALID", info.name, d->name, (int)value,
                       dg_status_str(c.st));
                CHECKF(c.diag.status == c.st && c.diag.message[0] &&
                           (words_not_keys(info.name) || strstr(c.diag.message, d->name)),
                       "%s %s = %d: message \"%s\" does not name the parameter", info.name,
                       d->name, (int)value, c.diag.message);
                CHECKF(c.grid_ok && c.result_ok, "%s %s = %d: grid %d result %d untouched",
                       info.name, d->name, (int)value, c.grid_ok, c.result_ok);
            }
        }
        {
            CHECK(dg_params_defaults(info.name, params, (size_t)info.params_size) == DG_OK);
            bad_call c;
            static const struct {
                int broken;
                dg_status want;
                const char *what;
            } grids[] = {{NULL_GRID, DG_E_NULL, "grid NULL"},
                         {NULL_CELLS, DG_E_NULL, "cells NULL"},
                         {NO_ROWS, DG_E_INVALID, "height 0"},
                         {NARROW_STRIDE, DG_E_INVALID, "stride < width"}};
            for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++)
            {
                call_bad(&ctx, g, &t, params, grids[k].broken, &c);
                CHECKF(c.st == grids[k].want && c.diag.status == c.st && c.diag.message[0] &&
                           c.grid_ok && c.result_ok,
                       "%s %s: %s \"%s\" grid %d result %d untouched", info.name, grids[k].what,
                       dg_status_str(c.st), c.diag.message, c.grid_ok, c.result_ok);
            }
            call_bad(&ctx, g, &t, NULL, GOOD_GRID, &c);
            if (null_params_is_defaults(info.name))
                CHECKF(c.st == DG_OK, "%s params NULL (defaults): %s", info.name,
                       dg_status_str(c.st));
            else
                CHECKF(c.st == DG_E_NULL && strstr(c.diag.message, "params") && c.grid_ok &&
                           c.result_ok,
                       "%s params NULL: %s \"%s\"", info.name, dg_status_str(c.st), c.diag.message);
        }
        target_close(&t);
        free(params);
    }
    hard_ctx_close(&ctx);
}

/* ---- stride independence, padding, untouched on error ------------------------------- */
typedef struct geometry {
    int32_t w, h, pad;
} geometry;

/* Sizes every generator meets: its typical one, odd ones, degenerate ones. */
static int geometries(const hard_gen *g, geometry *out)
{
    geometry list[] = {{g->width, g->height, 1}, {g->width + 3, g->height + 1, 7},
                       {1, 1, 5},                {2, 3, 0},
                       {5, 4, 3},                {64, 3, 1},
                       {3, 64, 2},               {17, 13, 11}};
    memcpy(out, list, sizeof list);
    return (int)(sizeof list / sizeof list[0]);
}

static int interior_holds(const dg_grid *g, uint8_t v)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_grid_get(g, x, y) != v)
                return 0;
    return 1;
}

typedef struct outcome {
    dg_status st;
    uint64_t grid, result, extra;
    int guard_ok;
    int untouched; /* interior unchanged (only meaningful on error) */
} outcome;

static outcome run_guarded(const hard_ctx *ctx, const hard_gen *g, int variant, geometry geo,
                           uint64_t seed)
{
    outcome o;
    memset(&o, 0, sizeof o);
    guarded_grid gg;
    if (!guard_make(&gg, geo.w, geo.h, geo.pad))
        return o;
    dg_grid_fill(&gg.grid, PRE);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_diag diag;
    o.st = g->run(ctx, variant, &gg.grid, seed, &r, NULL, &diag, &o.extra);
    o.guard_ok = guard_intact(&gg);
    o.untouched = interior_holds(&gg.grid, PRE);
    o.grid = dg_grid_hash(&gg.grid);
    o.result = g->has_result ? hard_result_hash(&r) : 0;
    dg_result_free(&r);
    guard_free(&gg);
    return o;
}

/* Guard memory (canaries before, after and in the stride padding, odd
 * strides): nothing outside the grid changes, on success and on every error
 * path; on success the output does not depend on the stride. */
TEST(every_generator_stays_inside_the_grid_whatever_the_stride)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (const hard_gen *g = hard_gens; g->name && !test_failures() && ctx.ready; g++)
    {
        geometry geos[16];
        int n = geometries(g, geos);
        for (int v = 0; v < g->variants; v++)
            for (int k = 0; k < n; k++)
                for (uint64_t seed = 1; seed <= 4; seed++)
                {
                    outcome a = run_guarded(&ctx, g, v, geos[k], seed);
                    geometry tight = geos[k];
                    tight.pad = 0;
                    outcome b = run_guarded(&ctx, g, v, tight, seed);
                    CHECKF(a.guard_ok && b.guard_ok, "%s v%d %dx%d pad %d seed %d: wrote outside",
                           g->name, v, geos[k].w, geos[k].h, geos[k].pad, (int)seed);
                    CHECKF(a.st == b.st && a.grid == b.grid && a.result == b.result &&
                               a.extra == b.extra,
                           "%s v%d %dx%d seed %d: output depends on the stride", g->name, v,
                           geos[k].w, geos[k].h, (int)seed);
                    CHECKF(a.st == DG_OK || (g->base_first ? a.st != HARD_E_CHANGED : a.untouched),
                           "%s v%d %dx%d seed %d: %s but grid changed", g->name, v, geos[k].w,
                           geos[k].h, (int)seed, dg_status_str(a.st));
                    CHECKF(a.st == HARD_E_CHANGED || hard_status_known(a.st),
                           "%s v%d: undocumented status %d", g->name, v, (int)a.st);
                }
    }
    hard_ctx_close(&ctx);
}

/* ---- reachability and the quality contract ------------------------------------------ */
/* Every generator at its defaults (through its recipe), at its typical size:
 * every passable cell is reached from the start by the tests' own search, the
 * exit is reached at dg_survey_map's route length, and the survey's figures
 * agree with the search. test_quality.c runs the full contract over 500 seeds
 * and four sizes per generator. */
#define REACH_SEEDS 8
TEST(every_generator_reaches_every_passable_cell_from_the_start)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (int32_t i = 0; i < dg_generator_count() && ctx.ready; i++)
    {
        dg_generator_info info;
        const hard_gen *g = entry_of(i, &info);
        if (!g)
            continue;
        int32_t w = g->width, h = g->height;
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        dg_grid grid;
        CHECK(cells && dg_grid_init(&grid, cells, w, h, 0) == DG_OK);
        for (uint64_t seed = 1; cells && seed <= REACH_SEEDS; seed++)
        {
            dg_recipe rc;
            dg_result r;
            dg_quality q;
            dg_result_init(&r, NULL);
            CHECK(dg_recipe_init(&rc, info.name, seed, w, h) == DG_OK);
            dg_status st = dg_recipe_generate(&rc, &grid, hard_gen_set(&ctx, info.name), &r, NULL,
                                              NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", info.name, (int)seed, dg_status_str(st));
            if (st == DG_OK)
            {
                int32_t reached = 0, open = grid_passable_count(&grid);
                int32_t *dist = grid_walk_from(&grid, r.start, &reached);
                CHECK(dist && dg_survey_map(&grid, &r, &q, NULL, NULL) == DG_OK);
                CHECKF(dg_tile_passable(dg_grid_get(&grid, r.start.x, r.start.y)) &&
                           reached == open,
                       "%s seed %d: the start reaches %d of %d passable cells", info.name,
                       (int)seed, (int)reached, (int)open);
                CHECKF(dist && q.unreachable == open - reached &&
                           q.route == dist[r.exit.y * w + r.exit.x] && q.route > 0,
                       "%s seed %d: survey unreachable %d route %d, search %d %d", info.name,
                       (int)seed, (int)q.unreachable, (int)q.route, (int)(open - reached),
                       dist ? (int)dist[r.exit.y * w + r.exit.x] : -2);
                CHECKF(q.border_open == 0 && q.void_open == 0 && q.start_in_room && q.exit_in_room &&
                           !q.start_is_exit && q.exit_rank_permille <= 100,
                       "%s seed %d: quality contract broken", info.name, (int)seed);
                free(dist);
            }
            dg_result_free(&r);
        }
        free(cells);
    }
    hard_ctx_close(&ctx);
}

/* ---- a result is an extra, not an input -------------------------------------------- */
/* The grid hash of registered generator `name` through its recipe, with or
 * without a result asked (0 on error). */
static uint64_t recipe_tiles(const hard_ctx *ctx, const char *name, int32_t w, int32_t h,
                             uint64_t seed, int with_result)
{
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_grid grid;
    dg_recipe rc;
    dg_result r;
    dg_result_init(&r, NULL);
    uint64_t hash = 0;
    if (cells && dg_grid_init(&grid, cells, w, h, 0) == DG_OK &&
        dg_recipe_init(&rc, name, seed, w, h) == DG_OK &&
        dg_recipe_generate(&rc, &grid, hard_gen_set(ctx, name), with_result ? &r : NULL, NULL,
                           NULL) == DG_OK)
        hash = dg_grid_hash(&grid);
    dg_result_free(&r);
    free(cells);
    return hash;
}

TEST(every_generator_tiles_do_not_depend_on_asking_for_a_result)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    for (int32_t i = 0; i < dg_generator_count() && ctx.ready; i++)
    {
        dg_generator_info info;
        const hard_gen *g = entry_of(i, &info);
        for (uint64_t seed = 1; g && seed <= 4; seed++)
        {
            uint64_t with = recipe_tiles(&ctx, info.name, g->width, g->height, seed, 1);
            uint64_t without = recipe_tiles(&ctx, info.name, g->width, g->height, seed, 0);
            CHECKF(with != 0 && with == without, "%s seed %d: tiles differ without a result",
                   info.name, (int)seed);
        }
    }
    hard_ctx_close(&ctx);
}

/* ---- a reused result ---------------------------------------------------------------- */
/* A result that held another map, with room labels from dg_roles, is filled
 * exactly as a fresh one: no count of the old map is left behind. */
TEST(every_generator_fills_a_reused_result_as_a_fresh_one)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t rule_count = 0;
    CHECK(dg_roles_builtin(rules, DG_ROLES_MAX, &rule_count) == DG_OK);
    for (const hard_gen *g = hard_gens; g->name && ctx.ready; g++)
    {
        if (!g->has_result)
            continue;
        uint8_t *cells = malloc((size_t)g->width * (size_t)g->height);
        dg_grid grid;
        CHECK(cells && dg_grid_init(&grid, cells, g->width, g->height, 0) == DG_OK);
        dg_result reused, fresh;
        dg_result_init(&reused, NULL);
        dg_result_init(&fresh, NULL);
        int ok = cells && g->run(&ctx, 0, &grid, 1, &reused, NULL, NULL, NULL) == DG_OK;
        if (ok)
            dg_roles(&grid, rules, rule_count, 1, &reused, NULL, NULL, NULL);
        ok = ok && g->run(&ctx, 0, &grid, 2, &reused, NULL, NULL, NULL) == DG_OK &&
             g->run(&ctx, 0, &grid, 2, &fresh, NULL, NULL, NULL) == DG_OK;
        CHECKF(ok && reused.label_count == fresh.label_count &&
                   reused.corridor_edge_count == fresh.corridor_edge_count &&
                   hard_result_hash(&reused) == hard_result_hash(&fresh),
               "%s: a reused result keeps %d labels of the last map (fresh: %d)", g->name,
               (int)reused.label_count, (int)fresh.label_count);
        dg_result_free(&reused);
        dg_result_free(&fresh);
        free(cells);
    }
    hard_ctx_close(&ctx);
}

/* ---- markers ------------------------------------------------------------------------ */
/* The prefab set each prefab generator is run with here (as the docs show them). */
static dg_prefab_set *marker_set(const char *gen)
{
    static const char *const files[][2] = {
        {"prefab-full", "examples/prefabs/shaft.txt"},   {"prefab-jigsaw", "examples/prefabs/forest.txt"},
        {"prefab-islands", "examples/prefabs/factory.txt"}, {"prefab-mixed", "examples/prefabs/vaults.txt"},
        {"world", "examples/prefabs/furnish.txt"},
    };
    dg_prefab_set *set = NULL;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i][0], gen) == 0)
            CHECK(dg_prefab_load(files[i][1], NULL, NULL, NULL, &set, NULL) == DG_OK);
    return set;
}

/* Markers a generator makes (furnishing, prefab glyphs, stairs) are not
 * spawns: size, cost and kind word are 0 and "", and number is 0 but for
 * keys and locks. (A field left unset would carry stack bytes into exports.) */
TEST(every_generator_markers_have_no_spawn_fields)
{
    for (int32_t i = 0; i < dg_generator_count(); i++)
    {
        dg_generator_info info;
        CHECK(dg_generator_get(i, &info) == DG_OK);
        if (info.needs_graph)
            continue;
        dg_prefab_set *set = marker_set(info.name);
        int32_t w = strcmp(info.name, "prefab-full") == 0 ? 56 : 80;
        int32_t h = strcmp(info.name, "prefab-full") == 0 ? 26 : 50;
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        for (uint64_t seed = 1; seed <= 4; seed++)
        {
            dg_recipe r;
            dg_grid g;
            dg_result res;
            dg_result_init(&res, NULL);
            CHECK(dg_recipe_init(&r, info.name, seed, w, h) == DG_OK);
            CHECK(cells && dg_grid_init(&g, cells, w, h, 0) == DG_OK);
            if (dg_recipe_generate(&r, &g, set, &res, NULL, NULL) == DG_OK)
                for (int32_t m = 0; m < res.marker_count; m++)
                {
                    const dg_marker *k = &res.markers[m];
                    int numbered = k->kind == DG_MARKER_KEY || k->kind == DG_MARKER_LOCK;
                    CHECKF((k->size == 0 || k->size == 1) && k->cost == 0 && k->type[0] == 0 &&
                               (numbered || k->number == 0),
                           "%s seed %d marker %d (%s): size %d cost %d number %d", info.name,
                           (int)seed, (int)m, k->name, (int)k->size, (int)k->cost, (int)k->number);
                }
            dg_result_free(&res);
        }
        free(cells);
        dg_prefab_set_free(set);
    }
}
