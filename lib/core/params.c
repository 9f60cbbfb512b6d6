/* The parameter tables (core/params.h): every generator's keys, ranges,
 * defaults and help, in one place. A default changes here and nowhere else;
 * the golden maps (tests/test_golden.c) pin what the defaults make. */
#include "core/core.h"

#include <stddef.h>

#define P_INT(T, f, lo, hi, d, help) {#f, help, NULL, DG_PARAM_INT, lo, hi, d, (int32_t)offsetof(T, f), 0}
#define P_BOOL(T, f, d, help) {#f, help, NULL, DG_PARAM_BOOL, 0, 1, d, (int32_t)offsetof(T, f), 0}
#define P_ENUM(T, f, choices, n, d, help) {#f, help, choices, DG_PARAM_ENUM, 0, (n) - 1, d, (int32_t)offsetof(T, f), 0}

void dgi_params_fill(const dg_param_desc *table, int32_t count, void *params)
{
    for (int32_t i = 0; i < count; i++)
        memcpy((unsigned char *)params + table[i].offset, &table[i].def, sizeof table[i].def);
}

/* ---- attach (lib/gen/attach.c) */
const dg_param_desc dgi_attach_table[] = {
    P_INT(dg_attach_params, room_min_w, 1, DG_GRID_MAX_DIM, 3, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_attach_params, room_max_w, 1, DG_GRID_MAX_DIM, 9, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_attach_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_attach_params, room_max_h, 1, DG_GRID_MAX_DIM, 7, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_attach_params, corridor_min, 1, DG_GRID_MAX_DIM, 3, "corridor length in cells, minimum [<= corridor_max]"),
    P_INT(dg_attach_params, corridor_max, 1, DG_GRID_MAX_DIM, 8, "corridor length in cells, maximum [>= corridor_min]"),
    P_INT(dg_attach_params, max_features, 0, INT32_MAX, 0, "rooms + corridors budget (0 = width*height/16)"),
    P_INT(dg_attach_params, room_after_corridor, 0, 1000, 700, "permille chance of a room, not a corridor, after a corridor"),
    P_INT(dg_attach_params, target_floor, 0, 1000, 270, "stop once this permille of the map is passable (0 = grow until nothing fits)"),
    P_INT(dg_attach_params, max_attempts, 0, INT32_MAX, 0, "placement attempts in all (0 = 50 per budgeted feature)"),
    P_INT(dg_attach_params, max_failures, 0, INT32_MAX, 400, "stop after this many failed attempts in a row (0 = no limit)"),
    P_ENUM(dg_attach_params, growth, "uniform|newest|oldest", 3, DG_GROWTH_UNIFORM,
           "which features grow: any, recent (long) or early (bushy)"),
    P_INT(dg_attach_params, loop_min_gain, 0, (int32_t)DG_GRID_MAX_CELLS, 16,
          "open a wall where it shortens the walk by >= N steps (0 = no loops)"),
    P_INT(dg_attach_params, loop_max, 0, INT32_MAX, 0, "at most this many loop openings (0 = one per 4 rooms)"),
    P_ENUM(dg_attach_params, dead_ends, "keep|prune|room", 3, DG_DEAD_ENDS_ROOM,
           "dead ends: keep, prune, or end them with a room"),
    P_ENUM(dg_attach_params, doors, "all|rooms|none", 3, DG_DOORS_ROOMS,
           "door tiles at every junction, at room junctions only, or none"),
    P_BOOL(dg_attach_params, dense, 0, "pack pieces wall to wall (0 = rock between pieces except at joins)"),
    P_INT(dg_attach_params, shape_share, 0, 1000, 1000, "permille of rooms drawn with a shape, where their doors allow it"),
    P_INT(dg_attach_params, shapes, 0, 127, 126, "shapes drawn from: bits 1 cross, 2 circle, 3 octagon, 4 chunky, 5 pillars, 6 cavern"),
};

/* ---- chain (lib/gen/chain.c) */
const dg_param_desc dgi_chain_table[] = {
    P_INT(dg_chain_params, rooms_min, 0, DG_CHAIN_MAX_ROOMS, 0, "rooms asked for, minimum (0 = by area, up to rooms_max) [<= rooms_max]"),
    P_INT(dg_chain_params, rooms_max, 1, DG_CHAIN_MAX_ROOMS, DG_CHAIN_MAX_ROOMS, "rooms asked for, maximum (1000000 = none given: by area, at least rooms_min) [>= rooms_min]"),
    P_INT(dg_chain_params, room_min_w, 1, DG_GRID_MAX_DIM, 4, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_chain_params, room_max_w, 1, DG_GRID_MAX_DIM, 10, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_chain_params, room_min_h, 1, DG_GRID_MAX_DIM, 3, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_chain_params, room_max_h, 1, DG_GRID_MAX_DIM, 6, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_chain_params, corridor_min, 1, DG_GRID_MAX_DIM, 2, "corridor cells between the doors, minimum [<= corridor_max]"),
    P_INT(dg_chain_params, corridor_max, 1, DG_GRID_MAX_DIM, 6, "corridor cells between the doors, maximum [>= corridor_min]"),
    P_ENUM(dg_chain_params, overlap, "allow|forbid", 2, DG_CHAIN_OVERLAP_ALLOW,
           "rooms and corridors may cut into earlier ones, or only land on rock"),
    P_INT(dg_chain_params, max_tries, 1, 1000, 20, "draws per room (forbid), rooms tried when stuck"),
    P_ENUM(dg_chain_params, on_stuck, "stop|branch", 2, DG_CHAIN_STUCK_BRANCH,
           "when no direction fits: stop, or continue from earlier rooms"),
    P_INT(dg_chain_params, branch_chance, 0, 1000, 0, "permille: a corridor leaves a random earlier room"),
    P_INT(dg_chain_params, loop_chance, 0, 1000, 350, "permille per room: an L corridor to a nearby earlier room"),
    P_INT(dg_chain_params, loop_reach, 0, 2 * DG_GRID_MAX_DIM, 0, "longest loop corridor (0 = 2 * corridor_max)"),
    P_ENUM(dg_chain_params, start, "middle|first", 2, DG_CHAIN_START_MIDDLE,
           "start room: halfway along the chain, or the first"),
    P_BOOL(dg_chain_params, border, 1, "a wall frame around the board"),
    P_INT(dg_chain_params, shapes, 0, 1000, 0, "permille of rooms drawn with a shape (cross, circle, octagon, chunky, pillars, cavern)"),
};

/* ---- cave (lib/gen/cave.c) */
const dg_param_desc dgi_cave_table[] = {
    P_INT(dg_cave_params, fill_permille, 0, 1000, 470, "permille chance that a cell starts as rock"),
    P_INT(dg_cave_params, birth, 0, 511, DG_CAVE_RULE_BIRTH,
          "bit n: an open cell with n rock neighbours turns to rock (480 = 5..8)"),
    P_INT(dg_cave_params, survival, 0, 511, DG_CAVE_RULE_SURVIVAL,
          "bit n: a rock cell with n rock neighbours stays rock (496 = 4..8)"),
    P_INT(dg_cave_params, iterations, 0, 100, 4, "automaton steps"),
    P_INT(dg_cave_params, smoothing, 0, 16, 1, "passes that shave one-cell bumps and notches"),
    P_INT(dg_cave_params, min_region, 1, (int32_t)DG_GRID_MAX_CELLS, 12,
          "open regions with fewer cells are filled (the largest is always kept)"),
    P_ENUM(dg_cave_params, connect, "tunnels|largest", 2, DG_CAVE_CONNECT_TUNNELS,
           "join every cave by tunnels, or keep only the largest"),
    P_INT(dg_cave_params, tunnel_width, 1, 3, 2, "tunnel width in cells"),
    P_INT(dg_cave_params, target_open_permille, 0, 1000, 0,
          "search fill_permille for about this permille of open cave (0 = off)"),
    P_BOOL(dg_cave_params, border, 1, "a closed rock ring around the grid"),
};

/* ---- bsp (lib/gen/bsp.c) */
const dg_param_desc dgi_bsp_table[] = {
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
    P_INT(dg_bsp_params, loop_chance, 0, 1000, 500, "permille per cut: a second corridor across it, for loops"),
    P_ENUM(dg_bsp_params, doors, "rooms|none", 2, DG_BSP_DOORS_ROOMS,
           "door tiles where corridors enter rooms, or open corridor"),
    P_INT(dg_bsp_params, shapes, 0, 1000, 0, "permille of rooms drawn with a shape (cross, circle, octagon, chunky, pillars, cavern)"),
};

/* ---- maze (lib/gen/maze.c) */
const dg_param_desc dgi_maze_table[] = {
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
    P_INT(dg_maze_params, extra_doors, 0, 1000, 100, "permille chance of a door at each join the spanning tree did not need"),
    P_INT(dg_maze_params, dead_ends, 0, 1000, 1000, "rooms layout: permille of dead ends pruned (0 = keep, 1000 = all)"),
    P_ENUM(dg_maze_params, start, "corner|centre", 2, DG_MAZE_START_CORNER,
           "perfect layout: start in the top-left cell or the middle one"),
    P_BOOL(dg_maze_params, room_grow, 1,
           "rooms layout: rooms grow into free cells beside them up to the largest size, loops go room to room"),
};

/* ---- walk (lib/gen/walk.c) */
const dg_param_desc dgi_walk_table[] = {
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

/* ---- scatter (lib/gen/scatter.c) */
const dg_param_desc dgi_scatter_table[] = {
    P_INT(dg_scatter_params, rooms_min, 0, DG_SCATTER_MAX_ROOMS, 0, "rooms asked for, minimum (0 = by area, up to rooms_max) [<= rooms_max]"),
    P_INT(dg_scatter_params, rooms_max, 1, DG_SCATTER_MAX_ROOMS, DG_SCATTER_MAX_ROOMS, "rooms asked for, maximum (1000000 = none given: by area, at least rooms_min) [>= rooms_min]"),
    P_INT(dg_scatter_params, room_min_w, 1, DG_GRID_MAX_DIM, 4, "room interior width, minimum [<= room_max_w]"),
    P_INT(dg_scatter_params, room_max_w, 1, DG_GRID_MAX_DIM, 10, "room interior width, maximum [>= room_min_w]"),
    P_INT(dg_scatter_params, room_min_h, 1, DG_GRID_MAX_DIM, 4, "room interior height, minimum [<= room_max_h]"),
    P_INT(dg_scatter_params, room_max_h, 1, DG_GRID_MAX_DIM, 7, "room interior height, maximum [>= room_min_h]"),
    P_INT(dg_scatter_params, gap, 1, 32, 2, "rock cells between two rooms' walls"),
    P_INT(dg_scatter_params, max_tries, 1, 1000, 30, "positions drawn per room before it is given up"),
    P_INT(dg_scatter_params, neighbours, 1, 16, 4, "candidate edges per room: its k nearest rooms"),
    P_INT(dg_scatter_params, loop_permille, 0, 1000, 250, "permille of the loop candidates (neighbourhood edges outside the tree) joined"),
    P_BOOL(dg_scatter_params, border, 1, "nothing open on the grid's outer ring"),
    P_INT(dg_scatter_params, shape_permille, 0, 1000, 1000, "permille of the rooms given a shape (cross, circle, octagon, chunky, pillars, cavern) where one fits"),
};

/* ---- prefab-full (lib/prefab/full.c; name and tag are not table rows) */
const dg_param_desc dgi_prefab_full_table[] = {
    P_INT(dg_prefab_full_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_BOOL(dg_prefab_full_params, keep, 0, "keep the grid's cells outside the prefab and under void"),
    P_INT(dg_prefab_full_params, fill, 0, 255, DG_TILE_VOID, "tile around the prefab and under void"),
    P_BOOL(dg_prefab_full_params, border, 1, "wall the open cells of the grid's outer ring"),
    P_INT(dg_prefab_full_params, cover, 0, 1000, 500, "least share of the grid the prefab covers, permille, when not keeping"),
};

/* ---- prefab-jigsaw (lib/prefab/jigsaw.c; tag is not a row) */
const dg_param_desc dgi_prefab_jigsaw_table[] = {
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
    P_INT(dg_prefab_jigsaw_params, actor_cells, 0, 1000000, 40, "at most one actor marker per this many passable cells (0 = all)"),
};

/* ---- prefab-islands (lib/prefab/islands.c; groups and group_count are not rows) */
const dg_param_desc dgi_prefab_islands_table[] = {
    P_INT(dg_prefab_islands_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_INT(dg_prefab_islands_params, margin, -1, 64, -1, "free cells between buildings (-1 = the prefabs' own)"),
    P_INT(dg_prefab_islands_params, positions, 1, 10000, 30, "positions tried per building (4 anywhere, then among free ones)"),
    P_INT(dg_prefab_islands_params, max_failures, 1, 10000, 20, "buildings in a row without a place before a group stops"),
    P_BOOL(dg_prefab_islands_params, keep, 0, "keep the grid around the buildings (mixed) instead of filling it"),
    P_INT(dg_prefab_islands_params, fill, 0, 255, DG_TILE_FLOOR, "ground tile when not keeping"),
    P_BOOL(dg_prefab_islands_params, connected, 1, "redo the map until every passable cell is connected"),
    P_INT(dg_prefab_islands_params, max_tries, 1, 1000, 16, "maps tried from derived seeds"),
    P_BOOL(dg_prefab_islands_params, border, 1, "wall on the outer ring, buildings kept three cells inside (two under 25 a side; pure mode)"),
};

/* ---- prefab-mixed (lib/prefab/mixed.c; tag is not a row) */
const dg_param_desc dgi_prefab_mixed_table[] = {
    P_INT(dg_prefab_mixed_params, mode, DG_PREFAB_FULL, DG_PREFAB_FURNISH, DG_PREFAB_ISLAND,
          "mode vaults must have [one of 1 full, 2 jigsaw, 4 island, 8 furnish]"),
    P_INT(dg_prefab_mixed_params, count, 0, 100000, 3, "vaults to place (fewer only if no more fit anywhere)"),
    P_INT(dg_prefab_mixed_params, orientations, 1, DG_ORIENT_MASK_ALL, DG_ORIENT_MASK_ALL,
          "allowed orientation bits (255 = all eight)"),
    P_INT(dg_prefab_mixed_params, positions, 1, 100000, 32, "random positions per vault before trying them all"),
    P_BOOL(dg_prefab_mixed_params, in_rooms, 1, "only inside the rooms of the attach map"),
    P_BOOL(dg_prefab_mixed_params, unique, 0, "each prefab at most once (0: repeats once every prefab was placed)"),
    P_ENUM(dg_prefab_mixed_params, base, "attach|chain|cave|bsp|maze|walk|scatter", 7,
           DG_MIXED_BASE_ATTACH, "the map the vaults go into, made first with its defaults"),
    P_INT(dg_prefab_mixed_params, floor_per_vault, 0, 1000000, 2000,
          "at least one vault per this many passable cells, when more than count (0 = count only)"),
};

/* ---- world (lib/world/world.c; furnishing and the difficulty curve are not rows) */
const dg_param_desc dgi_world_table[] = {
    P_INT(dg_world_params, room_size, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX, 9, "largest room interior side in tiles [odd; with prefabs: a furnish prefab of room_size + 2]"),
    P_INT(dg_world_params, room_min, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX, 3, "smallest room interior side [at most room_size; room_size = rooms fill their cells]"),
    P_BOOL(dg_world_params, border, 1, "closed window border, cut-off parts removed (0 = raw window for stitching)"),
    P_INT(dg_world_params, loop_permille, 0, 1000, 350, "permille chance that an edge outside the tree is a door"),
    P_INT(dg_world_params, dead_end_fix, 0, 1000, 500, "permille chance that a one-door room opens a second"),
    P_INT(dg_world_params, furnish_permille, 0, 1000, 400, "permille chance that a room is furnished (with --prefabs)"),
    P_INT(dg_world_params, variants, 1, DG_WORLD_VARIANTS_MAX, 8, "randomisations stamped per prefab and orientation"),
};

/* ---- graph (lib/recipe/registry.c; the level graph's own options are its level line) */
const dg_param_desc dgi_graph_table[] = {
    P_INT(dgi_graph_params, room_distance, -1, 4, -1,
          "minimum cells of rock between unconnected rooms (-1 = the graph's own level line)"),
    P_INT(dgi_graph_params, max_attempts, -1, DGI_GRAPH_ATTEMPTS_MAX, -1,
          "layouts tried before the graph is refused (-1 = the graph's own level line, 0 = "
          DGI_STR(DGI_GRAPH_ATTEMPTS) ")"),
};
