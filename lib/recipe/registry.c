/* The generator registry: every generator's name, parameter table, defaults and
 * entry point, so tools, recipes and bindings need no per-generator code.
 *
 * Adding a generator: a table with one line per int32_t field of its params
 * struct (range = what its validation accepts, default = what its _defaults
 * fills), a two-line run wrapper, and one entry in generators[] below. The
 * dungeon tool, recipes, exports, --list-params and the Python binding pick it
 * up with no other edit; tests/test_recipe.c checks the table against the
 * generator and round-trips every value. Changing a parameter or a default
 * means changing its line here too. */
#include "gen/gen.h"
#include "prefab/prefab.h"
#include "world/world.h"
#include "recipe/recipe.h"

#include <errno.h>
#include <stdlib.h>

#define P_INT(T, f, lo, hi, d, help) {#f, help, NULL, DG_PARAM_INT, lo, hi, d, (int32_t)offsetof(T, f), 0}
#define P_BOOL(T, f, d, help) {#f, help, NULL, DG_PARAM_BOOL, 0, 1, d, (int32_t)offsetof(T, f), 0}
#define P_ENUM(T, f, choices, n, d, help) {#f, help, choices, DG_PARAM_ENUM, 0, (n) - 1, d, (int32_t)offsetof(T, f), 0}
#define SIZES(T) sizeof(T), offsetof(T, spare)
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
static const dg_param_desc attach_params[] = {
    P_INT(dg_attach_params, room_min_w, 1, DG_GRID_MAX_DIM, 3, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_attach_params, room_max_w, 1, DG_GRID_MAX_DIM, 9, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_attach_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_attach_params, room_max_h, 1, DG_GRID_MAX_DIM, 7, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_attach_params, corridor_min, 1, DG_GRID_MAX_DIM, 3, "corridor length in cells, minimum [<= corridor_max]"),
    P_INT(dg_attach_params, corridor_max, 1, DG_GRID_MAX_DIM, 8, "corridor length in cells, maximum [>= corridor_min]"),
    P_INT(dg_attach_params, max_features, 0, INT32_MAX, 0, "rooms + corridors budget (0 = width*height/16)"),
    P_INT(dg_attach_params, room_after_corridor, 0, 1000, 600, "permille chance of a room, not a corridor, after a corridor"),
    P_INT(dg_attach_params, target_floor, 0, 1000, 270, "stop once this permille of the map is passable (0 = grow until nothing fits)"),
    P_INT(dg_attach_params, max_attempts, 0, INT32_MAX, 0, "placement attempts in all (0 = 50 per budgeted feature)"),
    P_INT(dg_attach_params, max_failures, 0, INT32_MAX, 400, "stop after this many failed attempts in a row (0 = no limit)"),
    P_ENUM(dg_attach_params, growth, "uniform|newest|oldest", 3, DG_GROWTH_UNIFORM,
           "which features grow: any, recent (long) or early (bushy)"),
    P_INT(dg_attach_params, loop_min_gain, 0, (int32_t)DG_GRID_MAX_CELLS, 16,
          "open a wall where it shortens the walk by >= N steps (0 = no loops)"),
    P_INT(dg_attach_params, loop_max, 0, INT32_MAX, 8, "at most this many loop openings"),
    P_ENUM(dg_attach_params, dead_ends, "keep|prune|room", 3, DG_DEAD_ENDS_ROOM,
           "dead ends: keep, prune, or end them with a room"),
    P_ENUM(dg_attach_params, doors, "all|rooms|none", 3, DG_DOORS_ROOMS,
           "door tiles at every junction, at room junctions only, or none"),
    P_BOOL(dg_attach_params, dense, 0, "pack pieces wall to wall (0 = rock between pieces except at joins)"),
};
static void attach_defaults(void *p) { dg_attach_defaults(p); }
static dg_status attach_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                            const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(attach_params, p, d);
    return st == DG_OK ? dgi_attach_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- chain ------------------------------------------------------------------------ */
static const dg_param_desc chain_params[] = {
    P_INT(dg_chain_params, rooms_min, 0, DG_CHAIN_MAX_ROOMS, 0, "rooms asked for, minimum (0 = by area, up to rooms_max) [<= rooms_max]"),
    P_INT(dg_chain_params, rooms_max, 1, DG_CHAIN_MAX_ROOMS, DG_CHAIN_MAX_ROOMS, "rooms asked for, maximum [>= rooms_min]"),
    P_INT(dg_chain_params, room_min_w, 1, DG_GRID_MAX_DIM, 4, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_chain_params, room_max_w, 1, DG_GRID_MAX_DIM, 10, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_chain_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_chain_params, room_max_h, 1, DG_GRID_MAX_DIM, 6, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_chain_params, corridor_min, 1, DG_GRID_MAX_DIM, 3, "corridor cells between the doors, minimum [<= corridor_max]"),
    P_INT(dg_chain_params, corridor_max, 1, DG_GRID_MAX_DIM, 8, "corridor cells between the doors, maximum [>= corridor_min]"),
    P_ENUM(dg_chain_params, overlap, "allow|forbid", 2, DG_CHAIN_OVERLAP_ALLOW,
           "rooms and corridors may cut into earlier ones, or only land on rock"),
    P_INT(dg_chain_params, max_tries, 1, 1000, 20, "draws per room (forbid), rooms tried when stuck"),
    P_ENUM(dg_chain_params, on_stuck, "stop|branch", 2, DG_CHAIN_STUCK_BRANCH,
           "when no direction fits: stop, or continue from earlier rooms"),
    P_INT(dg_chain_params, branch_chance, 0, 1000, 0, "permille: a corridor leaves a random earlier room"),
    P_INT(dg_chain_params, loop_chance, 0, 1000, 0, "permille per room: an L corridor to a nearby earlier room"),
    P_INT(dg_chain_params, loop_reach, 0, 2 * DG_GRID_MAX_DIM, 0, "longest loop corridor (0 = 2 * corridor_max)"),
    P_ENUM(dg_chain_params, start, "middle|first", 2, DG_CHAIN_START_MIDDLE,
           "start room: halfway along the chain, or the first"),
    P_BOOL(dg_chain_params, border, 1, "a wall frame around the board"),
};
static void chain_defaults(void *p) { dg_chain_defaults(p); }
static dg_status chain_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                           const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(chain_params, p, d);
    return st == DG_OK ? dgi_chain_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- prefab generators (need a prefab set; name and tag strings are not recipe keys) */
static const dg_param_desc prefab_full_params[] = {
    P_INT(dg_prefab_full_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_BOOL(dg_prefab_full_params, keep, 0, "keep the grid's cells outside the prefab and under void"),
    P_INT(dg_prefab_full_params, fill, 0, 255, DG_TILE_VOID, "tile around the prefab and under void"),
    P_BOOL(dg_prefab_full_params, border, 1, "wall the open cells of the grid's outer ring"),
};
static void prefab_full_defaults(void *p) { dg_prefab_full_defaults(p); }
static dg_status prefab_full_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                                 const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_full_generate(g, s, p, seed, m, r, a, d);
}

static const dg_param_desc prefab_jigsaw_params[] = {
    P_INT(dg_prefab_jigsaw_params, block_w, 0, DG_PREFAB_MAX_SIDE, 0,
          "block width (0 = the first candidate's) [0 exactly when block_h is 0]"),
    P_INT(dg_prefab_jigsaw_params, block_h, 0, DG_PREFAB_MAX_SIDE, 0,
          "block height (0 = the first candidate's) [0 exactly when block_w is 0]"),
    P_INT(dg_prefab_jigsaw_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_BOOL(dg_prefab_jigsaw_params, unique, 0, "each prefab at most once per map"),
    P_ENUM(dg_prefab_jigsaw_params, seams, "match|open|any", 3, DG_SEAM_MATCH,
           "seams: equal edge signatures, a shared open cell, or anything"),
    P_BOOL(dg_prefab_jigsaw_params, connected, 1, "redo the map until every passable cell is connected"),
    P_INT(dg_prefab_jigsaw_params, max_tries, 1, 1000, 32, "maps tried from derived seeds"),
    P_INT(dg_prefab_jigsaw_params, fill, 0, 255, DG_TILE_VOID, "tile outside the whole blocks"),
    P_BOOL(dg_prefab_jigsaw_params, border, 1, "wall the open cells on the outer edge of the blocks"),
};
static void prefab_jigsaw_defaults(void *p) { dg_prefab_jigsaw_defaults(p); }
static dg_status prefab_jigsaw_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                                   const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_jigsaw_generate(g, s, p, seed, m, r, a, d);
}

static const dg_param_desc prefab_islands_params[] = {
    P_INT(dg_prefab_islands_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_INT(dg_prefab_islands_params, margin, -1, 64, -1, "free cells between buildings (-1 = the prefabs' own)"),
    P_INT(dg_prefab_islands_params, positions, 1, 10000, 30, "positions tried per building (4 anywhere, then among free ones)"),
    P_INT(dg_prefab_islands_params, max_failures, 1, 10000, 20, "buildings in a row without a place before a group stops"),
    P_BOOL(dg_prefab_islands_params, keep, 0, "keep the grid around the buildings (mixed) instead of filling it"),
    P_INT(dg_prefab_islands_params, fill, 0, 255, DG_TILE_FLOOR, "ground tile when not keeping"),
    P_BOOL(dg_prefab_islands_params, connected, 1, "redo the map until every passable cell is connected"),
    P_INT(dg_prefab_islands_params, max_tries, 1, 1000, 16, "maps tried from derived seeds"),
    P_BOOL(dg_prefab_islands_params, border, 1, "wall on the outer ring, buildings kept two cells inside (pure mode)"),
};
static void prefab_islands_defaults(void *p) { dg_prefab_islands_defaults(p); }
static dg_status prefab_islands_run(dg_grid *g, const void *p, uint64_t seed,
                                    const dg_prefab_set *s, const dgi_mask *m, dg_result *r,
                                    const dg_allocator *a, dg_diag *d)
{
    return dgi_prefab_islands_generate(g, s, p, seed, m, r, a, d);
}

static const dg_param_desc prefab_mixed_params[] = {
    P_INT(dg_prefab_mixed_params, mode, DG_PREFAB_FULL, DG_PREFAB_FURNISH, DG_PREFAB_ISLAND,
          "mode vaults must have [one of 1 full, 2 jigsaw, 4 island, 8 furnish]"),
    P_INT(dg_prefab_mixed_params, count, 0, 100000, 3, "vaults to place (fewer only if no more fit anywhere)"),
    P_INT(dg_prefab_mixed_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_INT(dg_prefab_mixed_params, positions, 1, 100000, 32, "random positions per vault before trying them all"),
    P_BOOL(dg_prefab_mixed_params, in_rooms, 1, "only inside the rooms of the attach map"),
    P_BOOL(dg_prefab_mixed_params, unique, 1, "each prefab at most once"),
    P_ENUM(dg_prefab_mixed_params, base, "attach|chain|cave|bsp|maze|walk|scatter", 7,
           DG_MIXED_BASE_ATTACH, "the map the vaults go into, made first with its defaults"),
};
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
    dg_status st = base->run(g, &host, seed, NULL, m, r, a, d);
    return st == DG_OK ? dgi_prefab_mixed_generate(g, s, p, seed, m, r, a, d) : st;
}

/* ---- world: a window centred on the start room ----------------------------------- */
static const dg_param_desc world_params[] = {
    P_INT(dg_world_params, room_size, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX, 9, "largest room interior side in tiles [odd; with prefabs: a furnish prefab of room_size + 2]"),
    P_INT(dg_world_params, room_min, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX, 3, "smallest room interior side [at most room_size; room_size = rooms fill their cells]"),
    P_BOOL(dg_world_params, border, 1, "closed window border, cut-off parts removed (0 = raw window for stitching)"),
    P_INT(dg_world_params, loop_permille, 0, 1000, 100, "permille chance that an edge outside the tree is a door"),
    P_INT(dg_world_params, dead_end_fix, 0, 1000, 0, "permille chance that a one-door room opens a second"),
    P_INT(dg_world_params, furnish_permille, 0, 1000, 400, "permille chance that a room is furnished (with --prefabs)"),
    P_INT(dg_world_params, variants, 1, DG_WORLD_VARIANTS_MAX, 8, "randomisations stamped per prefab and orientation"),
};
static void world_defaults(void *p) { dg_world_defaults(p); }
static dg_status world_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                           const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    return dgi_world_generate(g, p, seed, s, m, r, a, d);
}

/* ---- cave ------------------------------------------------------------------------- */
static const dg_param_desc cave_params[] = {
    P_INT(dg_cave_params, fill_permille, 0, 1000, 500, "permille chance that a cell starts as rock"),
    P_INT(dg_cave_params, birth, 0, 511, DG_CAVE_RULE_BIRTH,
          "bit n: an open cell with n rock neighbours turns to rock (480 = 5..8)"),
    P_INT(dg_cave_params, survival, 0, 511, DG_CAVE_RULE_SURVIVAL,
          "bit n: a rock cell with n rock neighbours stays rock (496 = 4..8)"),
    P_INT(dg_cave_params, iterations, 0, 100, 4, "automaton steps"),
    P_INT(dg_cave_params, smoothing, 0, 16, 1, "passes that shave one-cell bumps and notches"),
    P_INT(dg_cave_params, min_region, 1, (int32_t)DG_GRID_MAX_CELLS, 24,
          "open regions with fewer cells are filled (the largest is always kept)"),
    P_ENUM(dg_cave_params, connect, "tunnels|largest", 2, DG_CAVE_CONNECT_TUNNELS,
           "join every cave by tunnels, or keep only the largest"),
    P_INT(dg_cave_params, tunnel_width, 1, 3, 2, "tunnel width in cells"),
    P_INT(dg_cave_params, target_open_permille, 0, 1000, 0,
          "search fill_permille for about this permille of open cave (0 = off)"),
    P_BOOL(dg_cave_params, border, 1, "a closed rock ring around the grid"),
};
static void cave_defaults(void *p) { dg_cave_defaults(p); }
static dg_status cave_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    return dgi_cave_generate(g, p, seed, m, r, a, d);
}

/* ---- bsp ----------------------------------------------------------------------------- */
static const dg_param_desc bsp_params[] = {
    P_INT(dg_bsp_params, leaf_min_w, 1, DG_GRID_MAX_DIM, 10, "smallest leaf width, walls and margins included [>= room_min_w + 2 * margin + 2]"),
    P_INT(dg_bsp_params, leaf_min_h, 1, DG_GRID_MAX_DIM, 7, "smallest leaf height, walls and margins included [>= room_min_h + 2 * margin + 2]"),
    P_INT(dg_bsp_params, max_ratio, 100, 10000, 200, "percent: a cut leaves no part longer along it than this share of its breadth (where it can)"),
    P_INT(dg_bsp_params, max_depth, 0, 1000000, 0, "cuts along any branch (0 = no limit)"),
    P_INT(dg_bsp_params, max_leaves, 0, INT32_MAX, 0, "leaves (rooms) at most, cut breadth-first (0 = no limit)"),
    P_INT(dg_bsp_params, room_min_w, 1, DG_GRID_MAX_DIM, 3, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_bsp_params, room_max_w, 1, DG_GRID_MAX_DIM, 24, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_bsp_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_bsp_params, room_max_h, 1, DG_GRID_MAX_DIM, 16, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_bsp_params, room_fill, 0, 100, 50, "percent of its leaf's free space a room spans at least"),
    P_INT(dg_bsp_params, margin, 1, 1000, 1, "rock cells between a room's wall and its leaf's edge [leaf_min_w, leaf_min_h >= room + 2 * margin + 2]"),
    P_INT(dg_bsp_params, loop_chance, 0, 1000, 150, "permille per cut: a second corridor across it, for loops"),
    P_ENUM(dg_bsp_params, doors, "rooms|none", 2, DG_BSP_DOORS_ROOMS,
           "door tiles where corridors enter rooms, or open corridor"),
};
static void bsp_defaults(void *p) { dg_bsp_defaults(p); }
static dg_status bsp_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                         const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(bsp_params, p, d);
    return st == DG_OK ? dgi_bsp_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- maze ---------------------------------------------------------------------- */
static const dg_param_desc maze_params[] = {
    P_ENUM(dg_maze_params, layout, "rooms|perfect", 2, DG_MAZE_LAYOUT_ROOMS,
           "rooms and mazes (rooms, a maze around them, doors, dead ends pruned), or a perfect maze"),
    P_ENUM(dg_maze_params, algorithm, "growing_tree|division", 2, DG_MAZE_GROWING_TREE,
           "growing tree, or recursive division"),
    P_INT(dg_maze_params, newest, 0, 1000, 1000, "growing tree: permille of steps from the newest cell (1000 = backtracker, 0 = random cell)"),
    P_INT(dg_maze_params, straight, 0, 1000, 500, "growing tree: permille chance to carry straight on"),
    P_INT(dg_maze_params, braid, 0, 1000, 0, "permille of dead ends opened into a loop"),
    P_INT(dg_maze_params, corridor_width, 1, DG_MAZE_MAX_WIDTH, 1, "passage width in tiles (walls are one tile)"),
    P_INT(dg_maze_params, room_tries, 0, DG_MAZE_MAX_ROOM_TRIES, 0, "room placement tries (0 = one per 6 lattice cells)"),
    P_INT(dg_maze_params, room_min_w, 1, DG_GRID_MAX_DIM, 3, "room interior width in tiles, minimum [<= room_max_w]"),
    P_INT(dg_maze_params, room_max_w, 1, DG_GRID_MAX_DIM, 11, "room interior width in tiles, maximum [>= room_min_w]"),
    P_INT(dg_maze_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height in tiles, minimum [<= room_max_h]"),
    P_INT(dg_maze_params, room_max_h, 1, DG_GRID_MAX_DIM, 7, "room interior height in tiles, maximum [>= room_min_h]"),
    P_INT(dg_maze_params, extra_doors, 0, 1000, 25, "permille chance of a door at each join the spanning tree did not need"),
    P_INT(dg_maze_params, dead_ends, 0, 1000, 1000, "rooms layout: permille of dead ends pruned (0 = keep, 1000 = all)"),
    P_ENUM(dg_maze_params, start, "corner|centre", 2, DG_MAZE_START_CORNER,
           "perfect layout: start in the top-left cell or the middle one"),
};
static void maze_defaults(void *p) { dg_maze_defaults(p); }
static dg_status maze_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    return dgi_maze_generate(g, p, seed, m, r, a, d);
}

/* ---- walk: drunkard's walk and tunnelers (docs/walk.md) ------------------------------- */
static const dg_param_desc walk_params[] = {
    P_ENUM(dg_walk_params, mode, "drunk|tunneler", 2, DG_WALK_TUNNELER,
           "drunk: a random direction every step; tunneler: straight runs, then a turn"),
    P_INT(dg_walk_params, target_floor, 1, 1000, 300, "stop once this permille of the cells is floor"),
    P_INT(dg_walk_params, walkers, 1, DG_WALK_MAX_WALKERS, 3, "walkers taking steps in turn"),
    P_INT(dg_walk_params, step_min, 1, DG_WALK_MAX_STEP, 3, "tunneler: straight run in cells, minimum [<= step_max]"),
    P_INT(dg_walk_params, step_max, 1, DG_WALK_MAX_STEP, 9, "tunneler: straight run in cells, maximum [>= step_min]"),
    P_INT(dg_walk_params, turn_chance, 0, 1000, 500, "tunneler: permille chance to turn at the end of a run"),
    P_INT(dg_walk_params, room_chance, 0, 1000, 200, "permille chance to drop a room where a walker turns"),
    P_INT(dg_walk_params, room_min, 2, DG_WALK_MAX_ROOM, 3, "room side in cells, minimum [<= room_max]"),
    P_INT(dg_walk_params, room_max, 2, DG_WALK_MAX_ROOM, 7, "room side in cells, maximum [>= room_min]"),
    P_ENUM(dg_walk_params, symmetry, "none|x|y|xy", 4, DG_WALK_SYM_NONE,
           "mirror every carved cell: left-right (x), top-bottom (y) or both"),
    P_INT(dg_walk_params, max_steps, 0, INT32_MAX, 0, "walker steps in all (0 = the automatic bound, which always reaches the target)"),
};
static void walk_defaults(void *p) { dg_walk_defaults(p); }
static dg_status walk_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                          const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(walk_params, p, d);
    return st == DG_OK ? dgi_walk_generate(g, p, seed, m, r, a, d) : st;
}

/* ---- scatter ------------------------------------------------------------------------ */
static const dg_param_desc scatter_params[] = {
    P_INT(dg_scatter_params, rooms_min, 0, DG_SCATTER_MAX_ROOMS, 0, "rooms asked for, minimum (0 = by area, up to rooms_max) [<= rooms_max]"),
    P_INT(dg_scatter_params, rooms_max, 1, DG_SCATTER_MAX_ROOMS, DG_SCATTER_MAX_ROOMS, "rooms asked for, maximum [>= rooms_min]"),
    P_INT(dg_scatter_params, room_min_w, 1, DG_GRID_MAX_DIM, 4, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_scatter_params, room_max_w, 1, DG_GRID_MAX_DIM, 10, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_scatter_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_scatter_params, room_max_h, 1, DG_GRID_MAX_DIM, 6, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_scatter_params, gap, 1, 32, 2, "rock cells between two rooms' walls"),
    P_INT(dg_scatter_params, max_tries, 1, 1000, 30, "positions drawn per room before it is given up"),
    P_INT(dg_scatter_params, neighbours, 1, 16, 6, "candidate edges per room: its k nearest rooms"),
    P_INT(dg_scatter_params, loop_permille, 0, 1000, 250, "permille of the loop candidates (neighbourhood edges outside the tree) joined"),
    P_BOOL(dg_scatter_params, border, 1, "nothing open on the grid's outer ring"),
};
static void scatter_defaults(void *p) { dg_scatter_defaults(p); }
static dg_status scatter_run(dg_grid *g, const void *p, uint64_t seed, const dg_prefab_set *s,
                             const dgi_mask *m, dg_result *r, const dg_allocator *a, dg_diag *d)
{
    (void)s;
    dg_status st = CHECK_ORDER(scatter_params, p, d);
    return st == DG_OK ? dgi_scatter_generate(g, p, seed, m, r, a, d) : st;
}


/* ---- the registry: one line per generator ------------------------------------ */
static const dgi_generator generators[] = {
    {"attach", "rooms and corridors attached outward from a central room", TABLE(attach_params),
     SIZES(dg_attach_params), attach_defaults, attach_run, 0},
    {"chain", "a chain of rooms joined by straight corridors that never double back",
     TABLE(chain_params), SIZES(dg_chain_params), chain_defaults, chain_run, 0},
    {"prefab-full", "one hand-drawn prefab is the whole map (centred)", TABLE(prefab_full_params),
     SIZES(dg_prefab_full_params), prefab_full_defaults, prefab_full_run, 1},
    {"prefab-jigsaw", "equal blocks, each a prefab flipped or rotated to fit",
     TABLE(prefab_jigsaw_params), SIZES(dg_prefab_jigsaw_params), prefab_jigsaw_defaults,
     prefab_jigsaw_run, 1},
    {"prefab-islands", "prefab buildings dropped at free spots, by group counts",
     TABLE(prefab_islands_params), SIZES(dg_prefab_islands_params), prefab_islands_defaults,
     prefab_islands_run, 1},
    {"prefab-mixed", "an attach map with prefab vaults stamped into its rooms",
     TABLE(prefab_mixed_params), SIZES(dg_prefab_mixed_params), prefab_mixed_defaults,
     prefab_mixed_run, 1},
    {"world", "a window of the endless room lattice around the start room (0, 0)",
     TABLE(world_params), SIZES(dg_world_params), world_defaults, world_run, 0},
    {"cave", "cellular-automaton caves, every region joined by tunnels", TABLE(cave_params),
     SIZES(dg_cave_params), cave_defaults, cave_run, 0},
    {"bsp", "binary space partition: one room per leaf, siblings joined by corridors",
     TABLE(bsp_params), SIZES(dg_bsp_params), bsp_defaults, bsp_run, 0},
    {"maze", "perfect or braided mazes, optionally around rooms", TABLE(maze_params),
     SIZES(dg_maze_params), maze_defaults, maze_run, 0},
    {"walk", "drunkard's walk and tunnelers carving until a floor target", TABLE(walk_params),
     SIZES(dg_walk_params), walk_defaults, walk_run, 0},
    {"scatter", "rooms scattered without overlap, joined by a spanning tree plus loops",
     TABLE(scatter_params), SIZES(dg_scatter_params), scatter_defaults, scatter_run, 0},
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
    info->reserved = 0;
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
