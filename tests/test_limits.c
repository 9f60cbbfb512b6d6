/* Bounded work, as a rule: every registered generator, with every parameter
 * at each end of the range its table accepts (the others at their defaults),
 * all at their minimum, all at their maximum, and the combinations that cost
 * the most, on a 200 x 200 grid. Each call must end with a documented status
 * and stay within a counted bound: placement attempts (metrics.attempts) and
 * scratch memory (peak bytes through the allocator hooks), both stated per
 * generator in docs/robustness.md. Nothing here reads a clock. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SIDE 200
#define MAX_CASES (4 * DG_RECIPE_MAX_PARAMS + 16)

/* One parameter set to try: (key, value) pairs over the defaults. */
typedef struct limit_case {
    const char *label;
    int count;
    const char *keys[DG_RECIPE_MAX_PARAMS];
    int32_t values[DG_RECIPE_MAX_PARAMS];
} limit_case;

/* The costliest combinations per generator, beside the table walk. */
static int worst_cases(const char *gen, limit_case *out)
{
    static const limit_case table[] = {
        {"attach: every budget open", 5, {"max_features", "max_attempts", "max_failures",
                                          "target_floor", "loop_max"},
         {INT32_MAX, INT32_MAX, 0, 0, INT32_MAX}},
        {"attach: tiny rooms, long loops", 6, {"room_min_w", "room_max_w", "room_min_h",
                                                "room_max_h", "loop_min_gain", "loop_max"},
         {1, 1, 1, 1, 1, INT32_MAX}},
        {"chain: most rooms, every loop", 4, {"rooms_min", "rooms_max", "loop_chance",
                                               "branch_chance"},
         {DG_CHAIN_MAX_ROOMS, DG_CHAIN_MAX_ROOMS, 1000, 1000}},
        {"chain: most rooms, forbid, most tries", 5, {"rooms_min", "rooms_max", "overlap",
                                                       "max_tries", "loop_chance"},
         {DG_CHAIN_MAX_ROOMS, DG_CHAIN_MAX_ROOMS, DG_CHAIN_OVERLAP_FORBID, 1000, 1000}},
        {"prefab-jigsaw: most tries", 3, {"max_tries", "connected", "unique"}, {1000, 1, 1}},
        {"prefab-islands: most positions and tries", 5, {"positions", "max_failures",
                                                          "max_tries", "margin", "connected"},
         {10000, 10000, 1000, 0, 1}},
        {"prefab-mixed: most vaults and positions", 3, {"count", "positions", "unique"},
         {100000, 100000, 0}},
        {"prefab-mixed: most vaults anywhere", 4, {"count", "positions", "unique", "in_rooms"},
         {100000, 100000, 0, 0}},
    };
    int n = 0;
    size_t len = strlen(gen);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strncmp(table[i].label, gen, len) == 0 && table[i].label[len] == ':')
            out[n++] = table[i];
    return n;
}

/* The index of the other end of a min/max pair ("room_min_w" for
 * "room_max_w"), or -1. */
static int32_t partner(const dg_param_desc *params, int32_t count, int32_t i)
{
    char name[64];
    snprintf(name, sizeof name, "%s", params[i].name);
    char *m = strstr(name, "_min");
    if (!m)
        m = strstr(name, "_max");
    if (!m)
        return -1;
    memcpy(m, m[2] == 'i' ? "_max" : "_min", 4);
    for (int32_t j = 0; j < count; j++)
        if (strcmp(params[j].name, name) == 0)
            return j;
    return -1;
}

/* The table walk: each end of each range (a min/max pair's partner moved along
 * where the pair would otherwise cross), then all minima, then all maxima. */
static int table_cases(const dg_param_desc *params, int32_t count, limit_case *out)
{
    int n = 0;
    for (int32_t i = 0; i < count; i++)
        for (int end = 0; end < 2; end++)
        {
            int32_t v = end ? params[i].max : params[i].min;
            limit_case c = {end ? "one parameter at its maximum" : "one parameter at its minimum",
                            1, {params[i].name}, {v}};
            int32_t j = partner(params, count, i);
            if (j >= 0)
            {
                c.keys[1] = params[j].name;
                c.values[1] = v;
                c.count = 2;
            }
            out[n++] = c;
        }
    for (int end = 0; end < 2; end++)
    {
        limit_case c;
        memset(&c, 0, sizeof c);
        c.label = end ? "every parameter at its maximum" : "every parameter at its minimum";
        for (int32_t i = 0; i < count && c.count < DG_RECIPE_MAX_PARAMS; i++)
        {
            c.keys[c.count] = params[i].name;
            c.values[c.count++] = end ? params[i].max : params[i].min;
        }
        out[n++] = c;
    }
    return n;
}

static dg_prefab_set *set_for(const hard_ctx *ctx, const char *gen)
{
    if (strcmp(gen, "prefab-full") == 0)
        return ctx->sets[HARD_SET_SHAFT];
    if (strcmp(gen, "prefab-jigsaw") == 0)
        return ctx->sets[HARD_SET_FOREST];
    if (strcmp(gen, "prefab-islands") == 0)
        return ctx->sets[HARD_SET_FACTORY];
    if (strcmp(gen, "world") == 0)
        return ctx->sets[HARD_SET_FURNISH];
    return ctx->sets[HARD_SET_VAULTS];
}

static int32_t value_of(const dg_recipe *r, const char *key)
{
    int32_t v = 0;
    dg_recipe_get(r, key, &v);
    return v;
}

/* The most placement attempts a call makes, as each generator documents it
 * (docs/robustness.md, "Bounded work"). */
static int64_t attempts_bound(const dg_recipe *r)
{
    int64_t cells = (int64_t)r->width * r->height;
    if (strcmp(r->generator, "attach") == 0) /* docs/attach.md */
    {
        int64_t budget = value_of(r, "max_features") ? value_of(r, "max_features") : cells / 16;
        return value_of(r, "max_attempts") ? value_of(r, "max_attempts") : 50 * budget;
    }
    if (strcmp(r->generator, "chain") == 0) /* docs/chain.md */
    {
        int64_t tries = value_of(r, "max_tries");
        int64_t t = value_of(r, "overlap") == DG_CHAIN_OVERLAP_FORBID ? tries : 1;
        return (int64_t)value_of(r, "rooms_max") * (t * (tries + 1) + 18);
    }
    if (strcmp(r->generator, "scatter") == 0) /* docs/scatter.md: max_tries per room asked for */
        return (int64_t)value_of(r, "rooms_max") * value_of(r, "max_tries");
    if (strcmp(r->generator, "prefab-jigsaw") == 0) /* docs/prefabs.md: maps tried */
        return value_of(r, "max_tries");
    if (strcmp(r->generator, "prefab-islands") == 0) /* docs/prefabs.md */
        return 32 * cells + 65536; /* the call's budget of work units */
    if (strcmp(r->generator, "prefab-mixed") == 0) /* docs/prefabs.md */
        return 16 * cells;
    if (strcmp(r->generator, "maze") == 0) /* docs/maze.md: room tries */
    {
        int64_t period = value_of(r, "corridor_width") + 1;
        int64_t lattice = (int64_t)((r->width - 1) / period) * ((r->height - 1) / period);
        int64_t by_area = lattice / 6 > 2 ? lattice / 6 : 2;
        return value_of(r, "room_tries") ? value_of(r, "room_tries") : by_area;
    }
    if (strcmp(r->generator, "walk") == 0) /* docs/walk.md: walker steps */
    {
        int64_t cap = value_of(r, "max_steps");
        return cap ? cap : 33 * (int64_t)(r->width - 2) * (r->height - 2) + 32 * (int64_t)value_of(r, "walkers");
    }
    return 1; /* prefab-full: one placement; world: none */
}

/* Scratch memory: a fixed number of bytes per cell, per chain room asked for,
 * and a fixed amount. */
static int64_t memory_bound(const dg_recipe *r)
{
    int64_t rooms = strcmp(r->generator, "chain") == 0 ? value_of(r, "rooms_max") : 0;
    return 64 * (int64_t)r->width * r->height + 320 * rooms + (8 << 20);
}

typedef struct limit_run {
    dg_status st;
    int64_t attempts, peak, allocs;
    const char *invalid;
    int clean;
} limit_run;

static limit_run run_case(const hard_ctx *ctx, const dg_recipe *recipe)
{
    limit_run out;
    memset(&out, 0, sizeof out);
    uint8_t *cells = calloc((size_t)SIDE * SIDE, 1);
    dg_grid grid;
    dg_grid_init(&grid, cells, SIDE, SIDE, 0);
    hard_alloc alloc;
    hard_alloc_init(&alloc, 0);
    dg_result result;
    dg_result_init(&result, &alloc.hooks);
    dg_diag diag;
    out.st = dg_recipe_generate(recipe, &grid, set_for(ctx, recipe->generator), &result,
                                &alloc.hooks, &diag);
    if (out.st == DG_OK)
        out.invalid = hard_validate(&grid, &result);
    out.attempts = result.metrics.attempts;
    dg_result_free(&result);
    out.peak = alloc.peak_bytes;
    out.allocs = alloc.calls;
    out.clean = hard_alloc_clean(&alloc);
    free(cells);
    return out;
}

static int make_recipe(const char *gen, const limit_case *c, dg_recipe *recipe)
{
    if (dg_recipe_init(recipe, gen, 1, SIDE, SIDE) != DG_OK)
        return 0;
    for (int k = 0; k < c->count; k++)
    {
        char text[16];
        snprintf(text, sizeof text, "%" PRId32, c->values[k]);
        dg_recipe_set(recipe, c->keys[k], text, NULL); /* out of range for this one: keep */
    }
    return 1;
}

static void check_generator(const hard_ctx *ctx, const dg_generator_info *info)
{
    static limit_case cases[MAX_CASES];
    int n = table_cases(info->params, info->param_count, cases);
    n += worst_cases(info->name, cases + n);
    for (int i = 0; i < n; i++)
    {
        dg_recipe recipe;
        CHECKF(make_recipe(info->name, &cases[i], &recipe), "%s: no recipe", info->name);
        limit_run run = run_case(ctx, &recipe);
        const char *what = cases[i].label[0] == 'o' ? cases[i].keys[0] : cases[i].label;
        CHECKF(hard_status_known(run.st), "%s %s: status %d", info->name, what, run.st);
        CHECKF(run.invalid == NULL, "%s %s: %s", info->name, what, run.invalid);
        CHECKF(run.clean, "%s %s: scratch not freed", info->name, what);
        CHECKF(run.attempts <= attempts_bound(&recipe), "%s %s (%s): %lld attempts > %lld",
               info->name, what, cases[i].label, (long long)run.attempts,
               (long long)attempts_bound(&recipe));
        CHECKF(run.peak <= memory_bound(&recipe), "%s %s (%s): %lld scratch bytes > %lld",
               info->name, what, cases[i].label, (long long)run.peak,
               (long long)memory_bound(&recipe));
        if (getenv("DG_LIMITS_VERBOSE"))
            fprintf(stderr, "%-15s %-28s %-40s st %3d attempts %10lld peak %10lld allocs %8lld\n",
                    info->name, what, cases[i].label, run.st, (long long)run.attempts,
                    (long long)run.peak, (long long)run.allocs);
    }
}

TEST(limits_every_generator_at_its_extremes)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    if (!ctx.ready)
        return;
    for (int32_t g = 0; g < dg_generator_count(); g++)
    {
        dg_generator_info info;
        CHECK(dg_generator_get(g, &info) == DG_OK);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        const char *only = getenv("DG_LIMITS_GEN"); /* to look at one generator */
        if (!only || strcmp(only, info.name) == 0)
            check_generator(&ctx, &info);
    }
    hard_ctx_close(&ctx);
}
