/* The parameter tables: for every registered generator, one row per int32_t
 * field of its public params struct with its key, help line, range, default
 * and (enumerations) value names. They are the one source of these facts:
 * each generator's dg_X_defaults fills its struct from its table
 * (dgi_params_fill), the registry (lib/recipe/registry.c) serves the same
 * tables to dg_generator_params, recipes, the dungeon tool and the bindings,
 * docs/params.sh writes the docs' parameter tables from them, and
 * tests/test_params_source.c checks the header's "(default ...)" comments
 * against them. Data only (params.c), so every folder may read them.
 *
 * A row's help may end in a condition beyond the range, in brackets; the
 * registry checks "[<= other]" before the generator runs. Fields a table does
 * not hold (pointers, counts of caller arrays, non-int32_t fields) are set by
 * the generator's _defaults function itself, which says so. Private. */
#ifndef DG_CORE_PARAMS_H
#define DG_CORE_PARAMS_H

#include "dungeon.h"

/* Rows per table. A definition in params.c with another number of rows does
 * not compile (the declared and the defined array types conflict). */
#define DGI_ATTACH_TABLE_LEN 19
#define DGI_CHAIN_TABLE_LEN 17
#define DGI_CAVE_TABLE_LEN 10
#define DGI_BSP_TABLE_LEN 14
#define DGI_MAZE_TABLE_LEN 15
#define DGI_WALK_TABLE_LEN 11
#define DGI_SCATTER_TABLE_LEN 12
#define DGI_PREFAB_FULL_TABLE_LEN 5
#define DGI_PREFAB_JIGSAW_TABLE_LEN 10
#define DGI_PREFAB_ISLANDS_TABLE_LEN 9
#define DGI_PREFAB_MIXED_TABLE_LEN 8
#define DGI_WORLD_TABLE_LEN 7
#define DGI_GRAPH_TABLE_LEN 2

/* Whole layouts a level-graph call tries before DG_E_NOSPACE: the default
 * (max_attempts 0) and the most a graph or the parameter below may ask for.
 * Here rather than in graph/graph.h so that the parameter table can name
 * them too. */
#define DGI_GRAPH_ATTEMPTS 256
#define DGI_GRAPH_ATTEMPTS_MAX 4096

/* Generator graph's parameters: overrides of the level graph's own options
 * (its dg_graph fields and `level` line), -1 = the graph's. Private: the
 * public entry point is dg_graph_generate, which takes the graph alone. */
typedef struct dgi_graph_params {
    int32_t room_distance; /* -1 or 0..4: replaces dg_graph.room_distance */
    int32_t max_attempts;  /* -1 or 0..DGI_GRAPH_ATTEMPTS_MAX: replaces dg_graph.max_attempts
                              (0 = DGI_GRAPH_ATTEMPTS) */
    int32_t spare[DG_SPARE_SLOTS - 1];
} dgi_graph_params;

extern const dg_param_desc dgi_attach_table[DGI_ATTACH_TABLE_LEN];
extern const dg_param_desc dgi_chain_table[DGI_CHAIN_TABLE_LEN];
extern const dg_param_desc dgi_cave_table[DGI_CAVE_TABLE_LEN];
extern const dg_param_desc dgi_bsp_table[DGI_BSP_TABLE_LEN];
extern const dg_param_desc dgi_maze_table[DGI_MAZE_TABLE_LEN];
extern const dg_param_desc dgi_walk_table[DGI_WALK_TABLE_LEN];
extern const dg_param_desc dgi_scatter_table[DGI_SCATTER_TABLE_LEN];
extern const dg_param_desc dgi_prefab_full_table[DGI_PREFAB_FULL_TABLE_LEN];
extern const dg_param_desc dgi_prefab_jigsaw_table[DGI_PREFAB_JIGSAW_TABLE_LEN];
extern const dg_param_desc dgi_prefab_islands_table[DGI_PREFAB_ISLANDS_TABLE_LEN];
extern const dg_param_desc dgi_prefab_mixed_table[DGI_PREFAB_MIXED_TABLE_LEN];
extern const dg_param_desc dgi_world_table[DGI_WORLD_TABLE_LEN];
extern const dg_param_desc dgi_graph_table[DGI_GRAPH_TABLE_LEN];

/* Writes every row's default into params (a struct of the table's generator). */
void dgi_params_fill(const dg_param_desc *table, int32_t count, void *params);
#define DGI_PARAMS_FILL(table, params) \
    dgi_params_fill((table), (int32_t)(sizeof(table) / sizeof((table)[0])), (params))

#endif
