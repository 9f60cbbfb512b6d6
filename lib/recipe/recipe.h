/* The generator registry (registry.c: names, parameter tables, dispatch)
 * and recipes (recipe.c), for levels (level.c, floor.c) and export. Private. */
#ifndef DG_RECIPE_H
#define DG_RECIPE_H

#include "core/textout.h"

typedef dg_status (*dgi_gen_run)(dg_grid *grid, const void *params, uint64_t seed,
                                 const dg_prefab_set *prefabs, const dgi_mask *reserved,
                                 dg_result *result, const dg_allocator *a, dg_diag *diag);
typedef struct dgi_generator {
    const char *name;
    const char *summary;
    const dg_param_desc *params;
    int32_t param_count;
    size_t params_size;
    size_t spare_offset; /* offsetof its spare[] (docs/abi.md) */
    int32_t spare_slots; /* the slots of that spare[] no field has taken */
    void (*defaults)(void *params);
    dgi_gen_run run;
    int32_t needs_prefabs;
    int32_t needs_graph; /* 1: runs through dgi_graph_run, with the caller's level graph */
} dgi_generator;
const dgi_generator *dgi_generator_lookup(const char *name);
/* values[] slots from here on hold the progression keys every recipe may
 * carry (locks, floors, depth); parameter tables stay shorter. (recipe.c) */
#define DGI_RECIPE_EXTRA_FIRST 22
/* 1 and *locks filled if the recipe records lock settings, else 0. */
int dgi_recipe_locks(const dg_recipe *r, dg_lock_params *locks);
/* 1 and the floor settings if the recipe records a floor of a stacked dungeon, else 0. */
int dgi_recipe_floor(const dg_recipe *r, int32_t *floor, int32_t *floors, int32_t *stairs);
/* 1 and *depth if the recipe records the depth content is placed for, else 0. */
int dgi_recipe_depth(const dg_recipe *r, int32_t *depth);
/* The recipe's generator alone on grid (already validated), with reserved cells (NULL: none)
 * and the level graph (NULL: none; generator 'graph' needs one): no floor stairs, no locks.
 * (recipe.c) */
dg_status dgi_recipe_run(const dg_recipe *recipe, dg_grid *grid, const dg_prefab_set *prefabs,
                         const dg_graph *graph, const dgi_mask *reserved, dg_result *result,
                         const dg_allocator *allocator, dg_diag *diag);
/* Generator 'graph' (registry.c): lays out graph, which dgi_recipe_run has checked,
 * with params (its table's struct) overriding the graph's options. */
dg_status dgi_graph_run(dg_grid *grid, const dg_graph *graph, const void *params, uint64_t seed,
                        const dgi_mask *reserved, dg_result *result, const dg_allocator *a,
                        dg_diag *diag);
const dg_param_desc *dgi_param_lookup(const dgi_generator *g, const char *key, size_t key_len);
/* Parses value[0..len) for parameter p into *out; column (1-based, 0 = none) goes to diag. */
dg_status dgi_param_parse(const dg_param_desc *p, const char *value, size_t len, int32_t *out,
                          int32_t column, dg_diag *diag);
int dgi_parse_i64(const char *s, size_t len, int64_t *out);
dg_status dgi_params_check_size(const dgi_generator *g, const char *name, const void *params,
                                size_t params_size, dg_diag *diag);

/* recipe.c: writes a valid recipe (a const dg_recipe *) as its text line. */
void dgi_recipe_emit(const void *recipe, dgi_out *o);


/* dg_floor_generate on a grid already validated (floor.c), for levels (level.c). */
dg_status dgi_floor_generate(const dg_recipe *recipe, int32_t floor, int32_t floors,
                             int32_t stairs, dg_grid *grid, const dg_prefab_set *prefabs,
                             dg_result *result, dg_floor_info *info,
                             const dg_allocator *allocator, dg_diag *diag);

#endif
