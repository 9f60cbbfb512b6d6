/* The generator registry: every generator's name, parameter table, defaults and
 * entry point, so tools, recipes and bindings need no per-generator code.
 *
 * The parameter tables themselves (keys, ranges, defaults, help) live in
 * lib/core/params.c, below every generator, so that each dg_X_defaults fills
 * its struct from the same rows this registry serves: a default is written
 * once. Adding a generator: a table there with one line per int32_t field of
 * its params struct (range = what its validation accepts), its _defaults
 * calling DGI_PARAMS_FILL on it, a two-line run wrapper, and one entry in
 * generators[] below. The dungeon tool, recipes, exports, --list-params, the
 * docs' parameter tables (docs/params.sh) and the Python binding pick it up
 * with no other edit; tests/test_recipe.c checks the table against the
 * generator and round-trips every value, tests/test_params_source.c checks the
 * header's "(default ...)" comments against it. */
#include "gen/gen.h"
#include "prefab/prefab.h"
#include "world/world.h"
#include "recipe/recipe.h"

#include <errno.h>
#include <stdlib.h>

#define SIZES(T) sizeof(T), offsetof(T, spare), (int32_t)(sizeof(((T *)0)->spare) / sizeof(int32_t))
#define TABLE(t) (t), (int32_t)(sizeof(t) / sizeof((t)[0]))

/* A table entry whose help says "[<= other]" must not exceed parameter other:
 * checked before the generator runs, so the message names both keys. */
static dg_status check_order(const dg_param_desc *t, int32_t n, const void *params, dg_diag *d)
{
    for (int32_t i = 0; i < n; i++)
    {
        const char *c = strstr(t[i].help, "[<= ");
        if (!c)
            continue;
        c += 4;
        const dg_param_desc *other = NULL;
        for (int32_t j = 0; j < n; j++)
            if (strncmp(t[j].name, c, strlen(t[j].name)) == 0 && c[strlen(t[j].name)] == ']')
                other = &t[j];
        if (!other)
            continue;
        int32_t lo, hi;
        memcpy(&lo, (const unsigned char *)params + t[i].offset, sizeof lo);
        memcpy(&hi, (const unsigned char *)params + other->offset, sizeof hi);
        if (lo > hi)
            return dgi_fail(d, DG_E_INVALID, "%s %d is more than %s %d", t[i].name, (int)lo,
                            other->name, (int)hi);
    }
    return DG_OK;
}
#define CHECK_ORDER(table, p, d) check_order((table), (int32_t)(sizeof(table) / sizeof((table)[0])), (p), (d))

/* ---- attach ---------------------------------------------------------------- */
static void attach_defaults(void *p) { dg_attach_defaults(p); }
static dg_status attach_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                            const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(dgi_attach_table, p, d);
    return st == DG_OK ? dgi_attach_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- chain ------------------------------------------------------------------------ */
static void chain_defaults(void *p) { dg_chain_defaults(p); }
static dg_status chain_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                           const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(dgi_chain_table, p, d);
    return st == DG_OK ? dgi_chain_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- prefab generators (need a prefab set; name and tag strings are not recipe keys) */
static void prefab_full_defaults(void *p) { dg_prefab_full_defaults(p); }
static dg_status prefab_full_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                                 const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_full_generate(g, s, p, seed, m, r, a, d);
}

static void prefab_jigsaw_defaults(void *p) { dg_prefab_jigsaw_defaults(p); }
static dg_status prefab_jigsaw_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                                   const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_jigsaw_generate(g, s, p, seed, m, r, a, d);
}

static void prefab_islands_defaults(void *p) { dg_prefab_islands_defaults(p); }
static dg_status prefab_islands_run(dg_grid *g, const void *p, uint64_t seed,
                                    const dg_prefab_set *s, const dgi_mask *m, dg_result *r,
                                    const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_islands_generate(g, s, p, seed, m, r, a, d);
}

static void prefab_mixed_defaults(void *p) { dg_prefab_mixed_defaults(p); }
/* The base map with its default parameters (same seed), then the vaults. */
static dg_status prefab_mixed_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                                  const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    static const char *const bases[] = {"attach", "chain", "cave", "bsp", "maze", "walk", "scatter"};
    union { /* room for the params of every base */
        dg_attach_params attach;
        dg_chain_params chain;
        dg_cave_params cave;
        dg_bsp_params bsp;
        dg_maze_params maze;
        dg_walk_params walk;
        dg_scatter_params scatter;
    } host;
    /* the host map is written first: what the generator would refuse must be
     * refused before it, so the grid stays untouched */
    const dg_prefab_mixed_params *mp = p;
    if (mp->mode != DG_PREFAB_FULL && mp->mode != DG_PREFAB_JIGSAW && mp->mode != DG_PREFAB_ISLAND &&
        mp->mode != DG_PREFAB_FURNISH)
        return dgi_fail(d, DG_E_INVALID, "mode: %d is not one of 1 (full), 2 (jigsaw), 4 (island), 8 (furnish)",
                        (int)mp->mode);
    if (mp->base < 0 || mp->base >= (int32_t)(sizeof bases / sizeof bases[0]))
        return dgi_fail(d, DG_E_INVALID, "base: %d is not a base generator (0..6)", (int)mp->base);
    const dgi_generator *base = dgi_generator_lookup(bases[mp->base]);
    base->defaults(&host);
    /* vaults go into the base's rooms, so the tiles are the same whether or
     * not the caller asks for a result */
    dg_result scratch;
    dg_result *rooms = r;
    if (!rooms)
    {
        dg_result_init(&scratch, a);
        rooms = &scratch;
    }
    dg_status st = base->run(g, &host, seed, NULL, m, rooms, a, d);
    if (st == DG_OK)
        st = dgi_prefab_mixed_generate(g, s, p, seed, m, rooms, a, d);
    if (!r)
        dg_result_free(&scratch);
    return st;
}

/* ---- world: a window centred on the start room ----------------------------------- */
static void world_defaults(void *p) { dg_world_defaults(p); }
static dg_status world_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                           const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_world_generate(g, p, seed, s, m, r, a, d);
}

/* ---- cave ------------------------------------------------------------------------- */
static void cave_defaults(void *p) { dg_cave_defaults(p); }
static dg_status cave_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    return dgi_cave_generate(g, p, seed, m, r, a, d);
}

/* ---- bsp ----------------------------------------------------------------------------- */
static void bsp_defaults(void *p) { dg_bsp_defaults(p); }
static dg_status bsp_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                         const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(dgi_bsp_table, p, d);
    return st == DG_OK ? dgi_bsp_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- maze ---------------------------------------------------------------------- */
static void maze_defaults(void *p) { dg_maze_defaults(p); }
static dg_status maze_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    return dgi_maze_generate(g, p, seed, m, r, a, d);
}

/* ---- walk: drunkard's walk and tunnelers (docs/walk.md) ------------------------------- */
static void walk_defaults(void *p) { dg_walk_defaults(p); }
static dg_status walk_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(dgi_walk_table, p, d);
    return st == DG_OK ? dgi_walk_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- scatter ------------------------------------------------------------------------ */
static void scatter_defaults(void *p) { dg_scatter_defaults(p); }
static dg_status scatter_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                             const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(dgi_scatter_table, p, d);
    return st == DG_OK ? dgi_scatter_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- graph: the caller's level graph, laid out exactly (docs/graph.md) -------------- */
/* The graph carries its own options (room distance, corridor width, ...); the
 * table's rows override them, -1 keeping the graph's. */
static void graph_defaults(void *p)
{
    memset(p, 0, sizeof(dgi_graph_params));
    DGI_PARAMS_FILL(dgi_graph_table, p);
}
/* Reached only through dgi_recipe_run, which passes the graph to dgi_graph_run. */
static dg_status graph_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                           const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)g, (void)p, (void)seed, (void)s, (void)m, (void)r, (void)a;
    return dgi_fail(d, DG_E_NULL, "generator 'graph' needs a level graph (dg_site.graph)");
}

dg_status dgi_graph_run(dg_grid *grid, const dg_graph *graph, const void *params, uint64_t seed,
                        const dgi_mask *reserved, dg_result *result, const dg_allocator *a,
                        dg_diag *diag)
{
    if (reserved) /* the layout search knows rock and rooms only */
        return dgi_fail(diag, DG_E_INVALID,
                        "generator 'graph' takes no reserved cells: lay the graph out on a "
                        "grid of its own and copy it into place");
    const dgi_graph_params *p = params;
    dg_graph with = *graph; /* a shallow copy, read only: the caller's graph stays as it is */
    if (p->room_distance >= 0)
        with.room_distance = p->room_distance;
    if (p->max_attempts >= 0)
        with.max_attempts = p->max_attempts;
    return dg_graph_generate(grid, &with, seed, result, a, diag);
}

/* ---- the registry: one line per generator ------------------------------------ */
static const dgi_generator generators[] = {
    {"attach", "rooms and corridors attached outward from a central room", TABLE(dgi_attach_table),
     SIZES(dg_attach_params), attach_defaults, attach_run, 0, 0},
    {"chain", "a chain of rooms joined by straight corridors that never double back",
     TABLE(dgi_chain_table), SIZES(dg_chain_params), chain_defaults, chain_run, 0, 0},
    {"prefab-full", "one hand-drawn prefab is the whole map (centred)", TABLE(dgi_prefab_full_table),
     SIZES(dg_prefab_full_params), prefab_full_defaults, prefab_full_run, 1, 0},
    {"prefab-jigsaw", "equal blocks, each a prefab flipped or rotated to fit",
     TABLE(dgi_prefab_jigsaw_table), SIZES(dg_prefab_jigsaw_params), prefab_jigsaw_defaults,
     prefab_jigsaw_run, 1, 0},
    {"prefab-islands", "prefab buildings dropped at free spots, by group counts",
     TABLE(dgi_prefab_islands_table), SIZES(dg_prefab_islands_params), prefab_islands_defaults,
     prefab_islands_run, 1, 0},
    {"prefab-mixed", "an attach map with prefab vaults stamped into its rooms",
     TABLE(dgi_prefab_mixed_table), SIZES(dg_prefab_mixed_params), prefab_mixed_defaults,
     prefab_mixed_run, 1, 0},
    {"world", "a window of the endless room lattice around the start room (0, 0)",
     TABLE(dgi_world_table), SIZES(dg_world_params), world_defaults, world_run, 0, 0},
    {"cave", "cellular-automaton caves, every region joined by tunnels", TABLE(dgi_cave_table),
     SIZES(dg_cave_params), cave_defaults, cave_run, 0, 0},
    {"bsp", "binary space partition: one room per leaf, siblings joined by corridors",
     TABLE(dgi_bsp_table), SIZES(dg_bsp_params), bsp_defaults, bsp_run, 0, 0},
    {"maze", "perfect or braided mazes, optionally around rooms", TABLE(dgi_maze_table),
     SIZES(dg_maze_params), maze_defaults, maze_run, 0, 0},
    {"walk", "drunkard's walk and tunnelers carving until a floor target", TABLE(dgi_walk_table),
     SIZES(dg_walk_params), walk_defaults, walk_run, 0, 0},
    {"scatter", "rooms scattered without overlap, joined by a spanning tree plus loops",
     TABLE(dgi_scatter_table), SIZES(dg_scatter_params), scatter_defaults, scatter_run, 0, 0},
    {"graph", "lays out a level graph exactly: its rooms, roles, doors, corridors and locks",
     TABLE(dgi_graph_table), SIZES(dgi_graph_params), graph_defaults, graph_run, 0, 1},
};
#define GEN_COUNT ((int32_t)(sizeof generators / sizeof generators[0]))

int32_t dg_generator_count(void)
{
    return GEN_COUNT;
}

int32_t dg_generator_find(const char *name)
{
    for (int32_t i = 0; name && i < GEN_COUNT; i++)
        if (strcmp(generators[i].name, name) == 0)
            return i;
    return -1;
}

const dgi_generator *dgi_generator_lookup(const char *name)
{
    int32_t i = dg_generator_find(name);
    return i < 0 ? NULL : &generators[i];
}

dg_status dg_generator_get(int32_t index, dg_generator_info *info)
{
    if (!info)
        return DG_E_NULL;
    if (index < 0 || index >= GEN_COUNT)
        return DG_E_INVALID;
    const dgi_generator *g = &generators[index];
    info->name = g->name;
    info->summary = g->summary;
    info->params = g->params;
    info->param_count = g->param_count;
    info->params_size = (int32_t)g->params_size;
    info->needs_prefabs = g->needs_prefabs;
    info->needs_graph = g->needs_graph;
    return DG_OK;
}

const dg_param_desc *dg_generator_params(const char *generator, int32_t *count)
{
    const dgi_generator *g = dgi_generator_lookup(generator);
    if (count)
        *count = g ? g->param_count : 0;
    return g ? g->params : NULL;
}

const dg_param_desc *dgi_param_lookup(const dgi_generator *g, const char *key, size_t key_len)
{
    for (int32_t i = 0; i < g->param_count; i++)
        if (strlen(g->params[i].name) == key_len && memcmp(g->params[i].name, key, key_len) == 0)
            return &g->params[i];
    return NULL;
}

/* Index of name among '|'-separated choices, or -1. */
static int32_t choice_index(const char *choices, const char *s, size_t len)
{
    int32_t index = 0;
    for (const char *c = choices; *c; index++)
    {
        size_t n = strcspn(c, "|");
        if (n == len && memcmp(c, s, len) == 0)
            return index;
        c += n + (c[n] == '|');
    }
    return -1;
}

/* Parses a decimal integer (optional sign) spanning all of s[0..len). */
int dgi_parse_i64(const char *s, size_t len, int64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!(buf[0] == '-' || buf[0] == '+' || (buf[0] >= '0' && buf[0] <= '9')))
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

dg_status dgi_param_parse(const dg_param_desc *p, const char *value, size_t len, int32_t *out,
                          int32_t column, dg_diag *diag)
{
    int64_t v;
    if (p->type == DG_PARAM_ENUM && p->choices && choice_index(p->choices, value, len) >= 0)
        v = choice_index(p->choices, value, len);
    else if (p->type == DG_PARAM_BOOL && len == 4 && memcmp(value, "true", 4) == 0)
        v = 1;
    else if (p->type == DG_PARAM_BOOL && len == 5 && memcmp(value, "false", 5) == 0)
        v = 0;
    else if (!dgi_parse_i64(value, len, &v))
    {
        if (p->type == DG_PARAM_ENUM)
            return dgi_fail_at(diag, DG_E_PARSE, column ? 1 : 0, column,
                               "%s: '%.*s' is not one of %s (or 0..%d)", p->name, (int)len,
                               value, p->choices, (int)p->max);
        return dgi_fail_at(diag, DG_E_PARSE, column ? 1 : 0, column,
                           "%s: '%.*s' is not a whole number", p->name, (int)len, value);
    }
    if (v < p->min || v > p->max)
        return dgi_fail_at(diag, DG_E_INVALID, column ? 1 : 0, column,
                           "%s: %lld is out of range %d..%d", p->name, (long long)v, (int)p->min,
                           (int)p->max);
    *out = (int32_t)v;
    return DG_OK;
}

dg_status dgi_params_check_size(const dgi_generator *g, const char *name, const void *params,
                                size_t params_size, dg_diag *diag)
{
    if (!g)
        return dgi_fail(diag, DG_E_INVALID, "unknown generator '%s'", name ? name : "(null)");
    if (!params)
        return dgi_fail(diag, DG_E_NULL, "params is NULL");
    if (params_size < g->params_size)
        return dgi_fail(diag, DG_E_BUFFER, "params_size %zu is smaller than %zu for '%s'",
                        params_size, g->params_size, g->name);
    return DG_OK;
}

dg_status dg_params_defaults(const char *generator, void *params, size_t params_size)
{
    const dgi_generator *g = dgi_generator_lookup(generator);
    dg_status st = dgi_params_check_size(g, generator, params, params_size, NULL);
    if (st == DG_OK)
        g->defaults(params);
    return st;
}

dg_status dg_params_set(const char *generator, void *params, size_t params_size,
                        const char *key, const char *value, dg_diag *diag)
{
    const dgi_generator *g = dgi_generator_lookup(generator);
    dg_status st = dgi_params_check_size(g, generator, params, params_size, diag);
    if (st != DG_OK)
        return st;
    if (!key || !value)
        return dgi_fail(diag, DG_E_NULL, "key or value is NULL");
    const dg_param_desc *p = dgi_param_lookup(g, key, strlen(key));
    if (!p)
        return dgi_fail(diag, DG_E_PARSE, "generator '%s' has no parameter '%s'", g->name, key);
    int32_t v;
    st = dgi_param_parse(p, value, strlen(value), &v, 0, diag);
    if (st == DG_OK)
        memcpy((unsigned char *)params + p->offset, &v, sizeof v);
    return st;
}
