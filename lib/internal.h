/* Private helpers shared by the library sources. Not installed. */
#ifndef DG_INTERNAL_H
#define DG_INTERNAL_H

#include "dungeon.h"

#include <stdarg.h>
#include <string.h>

/* mingw-w64 builds use its C99 printf family (__USE_MINGW_ANSI_STDIO), which
 * gcc checks as gnu_printf rather than msvcrt's printf. */
#if defined(__MINGW32__)
#define DGI_PRINTF_FORMAT gnu_printf
#else
#define DGI_PRINTF_FORMAT printf
#endif

#define DG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define DG_MAX(a, b) ((a) > (b) ? (a) : (b))
#define DG_CELL(g, x, y) ((g)->cells[(size_t)(y) * (size_t)(g)->stride + (size_t)(x)])

/* alloc.c: allocation through the optional hooks (NULL means malloc/free). */
void *dgi_alloc(const dg_allocator *a, size_t size);
void *dgi_calloc(const dg_allocator *a, size_t count, size_t size); /* zeroed, overflow-checked */
void dgi_free(const dg_allocator *a, void *ptr, size_t size);
/* Grows *array (element size elem) to hold at least need elements; doubles. */
dg_status dgi_grow(const dg_allocator *a, void **array, int32_t *capacity, int32_t need,
                   size_t elem);

/* status.c: fills an optional diagnostic and returns status. */
dg_status dgi_fail(dg_diag *diag, dg_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 3, 4)))
#endif
    ;
dg_status dgi_fail_at(dg_diag *diag, dg_status status, int32_t line, int32_t column,
                      const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 5, 6)))
#endif
    ;
void dgi_diag_ok(dg_diag *diag);

/* grid.c: validates a grid and fills diag with the reason. */
dg_status dgi_grid_validate(const dg_grid *grid, dg_diag *diag);

/* result.c: appending to a result; each returns DG_E_NOMEM on failure. */
void dgi_result_reset(dg_result *r);
dg_status dgi_result_add_room(dg_result *r, const dg_room *room);
dg_status dgi_result_add_corridor(dg_result *r, const dg_corridor *corridor);
dg_status dgi_result_add_door(dg_result *r, const dg_door *door);
dg_status dgi_result_add_marker(dg_result *r, const dg_marker *marker);
/* Makes room for at least the given list lengths (counts and contents kept),
 * so a generator can fail with DG_E_NOMEM before writing anything. (attach) */
dg_status dgi_result_reserve(dg_result *r, int32_t rooms, int32_t corridors, int32_t doors,
                             int32_t markers);
/* Index of the room whose interior contains p, or -1 (linear scan). */
int32_t dgi_result_room_at(const dg_result *r, dg_point p);
/* The same, else a room whose interior is a 4-neighbour of p (p is an alcove
 * in its wall), else -1. */
int32_t dgi_result_room_near(const dg_result *r, dg_point p);
/* Fills start/exit (start = centre of start_room or first passable cell if
 * start_room < 0; exit = farthest by 4-way walking), exit_room and the
 * grid-derived metrics (cells, floor, dead ends, regions). */
dg_status dgi_result_finish(dg_result *r, const dg_grid *grid, int32_t start_room,
                            const dg_allocator *a);
/* The same with the start at cell `start` when it is open (a start marker),
 * else as above; *loops (if not NULL) gets the cycle count dg_measure gives. */
dg_status dgi_result_finish_at(dg_result *r, const dg_grid *grid, dg_point start,
                               int32_t start_room, int32_t *loops, const dg_allocator *a);
/* After dgi_result_finish*: when the exit found lies outside every room (the
 * far side of a loop), moves it to a room cell farthest from the start by
 * walking. DG_E_NOMEM (two int32 per cell of scratch). */
dg_status dgi_result_exit_in_room(dg_result *r, const dg_grid *g, const dg_allocator *a);
/* One pass over a grid under a 256-entry passable table (NULL: the library's);
 * the cycle count is edges - open + regions - squares. (result.c, metrics.c) */
typedef struct dgi_cell_counts {
    int32_t open;            /* open cells */
    int32_t dead_ends;       /* open cells with exactly one open 4-neighbour */
    int64_t edges, squares;  /* open neighbour pairs; fully open 2x2 squares */
} dgi_cell_counts;
dg_status dgi_count_cells(const dg_grid *grid, const uint8_t *passable, dgi_cell_counts *out,
                          const dg_allocator *a);

/* rng.c: the PCG32 step and Lemire's unbiased bounded draw, inline for the
 * generators' hot loops (rng must not be NULL, bound must be > 0). The public
 * dg_rng_next and dg_rng_below are these, so the numbers are the same. (attach) */
#define DGI_PCG_MULT 6364136223846793005ULL
static inline uint32_t dgi_rng_next(dg_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * DGI_PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}
static inline uint32_t dgi_rng_below(dg_rng *rng, uint32_t bound)
{
    uint64_t m = (uint64_t)dgi_rng_next(rng) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound)
    {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold)
        {
            m = (uint64_t)dgi_rng_next(rng) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* rng.c's seeding and hashes, inline so that a constant stream folds: the
 * public dg_rng_seed, dg_hash64 and dg_hash_combine are these. */
static inline uint64_t dgi_hash64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
static inline uint64_t dgi_hash_combine(uint64_t a, uint64_t b)
{
    return dgi_hash64(dgi_hash64(a) ^ (b + 0x632BE59BD9B4E019ULL));
}
static inline void dgi_rng_seed(dg_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->inc = (dgi_hash64(stream ^ 0xD1B54A32D192ED03ULL) << 1) | 1u;
    (void)dgi_rng_next(rng);
    rng->state += dgi_hash64(seed);
    (void)dgi_rng_next(rng);
}

/* Set bits of a word, and the index of its lowest set bit (w != 0). */
static inline int32_t dgi_popcount64(uint64_t w)
{
#if defined(__POPCNT__)
    return __builtin_popcountll(w);
#else /* bit-parallel sums: a libgcc call without the instruction is slower */
    w -= (w >> 1) & 0x5555555555555555ULL;
    w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
    w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((w * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int32_t dgi_lowest_bit64(uint64_t w)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(w);
#else
    int32_t i = 0;
    for (; !(w & 1u); w >>= 1)
        i++;
    return i;
#endif
}

/* analyze_core.c: breadth-first distances over passable cells (4-way).
 * dist has width*height entries (row-major, no stride), -1 = unreachable.
 * queue has width*height entries. Returns the farthest reached cell index. */
int32_t dgi_bfs(const dg_grid *grid, int32_t start_index, int32_t *dist, int32_t *queue);
/* Union-find root of i in a parent array where a root is its own parent
 * (path halving keeps the trees flat). */
static inline int32_t dgi_uf_find(int32_t *parent, int32_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}
/* Labels 4-connected passable regions 0..n-1 (-1 elsewhere) and returns n;
 * label and queue have width*height entries. */
int32_t dgi_label_regions(const dg_grid *grid, int32_t *label, int32_t *queue);
/* Passable cells with exactly one passable 4-neighbour. */
int32_t dgi_count_dead_ends(const dg_grid *grid);

/* analyze_core.c, analyze.c, path.c, metrics.c, place.c: map analysis.
 * A walk rule resolved against one grid. Cells in queues and heaps are packed
 * as (y << 15) | x (sides are at most 32768) so no division is needed;
 * per-cell arrays are indexed y * width + x. */
#define DGI_PACK(x, y) (((y) << 15) | (x))
/* For hot loops specialised by constant arguments. */
#if defined(__GNUC__) || defined(__clang__)
#define DGI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DGI_ALWAYS_INLINE inline
#endif
#define DGI_PX(p) ((p) & 0x7FFF)
#define DGI_PY(p) ((p) >> 15)
typedef struct dgi_walk {
    const uint8_t *cells;
    int32_t width, height, stride;
    int32_t neighbours;     /* 4 or 8 */
    int32_t corner_cutting;
    int32_t straight, diagonal; /* step weights */
    int32_t unit;           /* every step costs 1: breadth-first search is exact */
    int32_t min_cost;       /* smallest tile cost among passable tiles */
    int64_t max_step;       /* largest step cost */
    const uint8_t *pass;    /* 256 entries, nonzero = passable */
    const uint16_t *cost;   /* 256 entries, or NULL for 1 */
    /* The walk's overlay resolved (NULL: that mask is absent). A blocked cell
     * is open only as a search end; extra is added to the tile cost. */
    const uint8_t *blocked, *extra;
    int32_t mask_stride;    /* entries per mask row */
} dgi_walk;
#define DGI_MASK(w, m, x, y) ((m)[(size_t)(y) * (size_t)(w)->mask_stride + (size_t)(x)])
/* Direction offsets: N, E, S, W, then NE, SE, SW, NW. */
extern const int8_t dgi_dir_dx[8], dgi_dir_dy[8];
/* dg_tile_passable as a table (a test keeps them equal). */
extern const uint8_t dgi_passable_default[256];
/* Validates grid and walk (NULL: defaults) and resolves them, overlay included. */
dg_status dgi_walk_init(dgi_walk *w, const dg_grid *grid, const dg_walk *walk, dg_diag *diag);
/* DG_OK if overlay (NULL is fine) fits grid: known flags, flagged masks not NULL,
 * stride >= width, enough cells; *stride gets the resolved mask stride. */
dg_status dgi_overlay_check(const dg_grid *grid, const dg_overlay *overlay, int32_t *stride,
                            dg_diag *diag);
/* Library defaults with a 256-entry passable table (NULL: dg_tile_passable); no checks. */
void dgi_walk_basic(dgi_walk *w, const dg_grid *grid, const uint8_t *passable);
/* DG_OK if p is inside the grid and passable; else DG_E_INVALID naming `what`. */
dg_status dgi_walk_check_cell(const dgi_walk *w, dg_point p, const char *what, dg_diag *diag);
/* 1 if a step in direction d (0..neighbours-1) from (x, y) is allowed. */
int dgi_walk_step_ok(const dgi_walk *w, int32_t x, int32_t y, int d);
/* Multi-source breadth-first search over unit steps: dist (width*height) is
 * reset to -1 and filled up to max_distance (0: no limit). queue has
 * width*height entries; sources are inside the grid (repeats are fine). */
void dgi_bfs_walk(const dgi_walk *w, const dg_point *sources, int32_t source_count,
                  int32_t max_distance, int32_t *dist, int32_t *queue, dg_distance_info *info);
/* Union-find labelling (see dg_regions); returns the region count. */
int32_t dgi_regions_walk(const dgi_walk *w, int32_t *labels, int32_t *sizes, int32_t sizes_cap,
                         int32_t *largest);
/* Passable cells with exactly one passable 4-neighbour. */
int32_t dgi_dead_ends_walk(const dgi_walk *w);
/* Articulation cells of the 4-connected passable graph: mark (width*height)
 * gets 1/0; disc, low, stack are width*height int32, it width*height bytes. */
int32_t dgi_articulation(const dgi_walk *w, uint8_t *mark, int32_t *disc, int32_t *low,
                         int32_t *stack, uint8_t *it);
/* Scratch for whole-map passes: three int32 and two byte arrays of
 * width*height (mark only if asked); DG_E_NOMEM leaves nothing allocated. */
typedef struct dgi_scratch {
    int32_t *a, *b, *c;
    uint8_t *it, *mark;
    size_t n;
} dgi_scratch;
dg_status dgi_scratch_get(dgi_scratch *s, const dg_grid *grid, int with_mark,
                          const dg_allocator *allocator, dg_diag *diag);
void dgi_scratch_free(dgi_scratch *s, const dg_allocator *allocator);
/* DG_OK if buf (`have` elements) holds width*height cells; else DG_E_NULL/DG_E_BUFFER. */
dg_status dgi_check_cells_buffer(const dg_grid *grid, const void *buf, size_t have,
                                 const char *what, dg_diag *diag);
/* path.c: *use = workspace, or a temporary one (*tmp, free it after) if NULL;
 * DG_E_BUFFER if the workspace is smaller than the grid. */
dg_status dgi_workspace_get(dg_path_workspace *workspace, const dgi_walk *w,
                            dg_path_workspace **use, dg_path_workspace **tmp, dg_diag *diag);
/* DG_E_TOO_LARGE if a distance up to max_distance (0: any) from sources whose
 * start costs are at most start_max could overflow int32. */
dg_status dgi_walk_check_range(const dgi_walk *w, int64_t start_max, int32_t max_distance,
                               dg_diag *diag);
/* The workspace's queue of at least width*height entries (for dgi_bfs_walk). */
int32_t *dgi_workspace_queue(dg_path_workspace *ws);
/* The workspace's byte a cell (at least width*height): search scratch that is
 * dead between calls, so a caller may use it as its own (chase.c). */
uint8_t *dgi_workspace_bytes(dg_path_workspace *ws);
/* Multi-source Dijkstra into dist, as dg_dijkstra_map (start_costs NULL: all 0;
 * sources valid, costs >= 0 and the range already checked). */
void dgi_dijkstra_map(dg_path_workspace *ws, const dgi_walk *w, const dg_point *sources,
                      const int32_t *start_costs, int32_t source_count, int32_t max_distance,
                      int32_t *dist, dg_distance_info *info);
/* (end of map analysis) */

/* world.c, world_render.c, explorer.c: the infinite world. */
typedef struct dgi_furnish_marker {
    int32_t x, y; /* interior offset */
    int32_t kind;
    char name[DG_NAME_MAX];
} dgi_furnish_marker;

struct dg_world {
    dg_allocator allocator;
    dg_world_params params;
    uint64_t key;                 /* mixes the seed into every room hash */
    int32_t size, period, mid;    /* interior size, size + 1, door offset size / 2 */
    uint32_t loop_below, fix_below, furnish_below; /* permilles as 16-bit roll thresholds */
    int32_t door_class[16];
    int32_t *difficulty;          /* the curve for distances 0..difficulty_len - 1 */
    int32_t difficulty_len;
    /* Furnishing atlas: slot = first_slot[prefab] + orientation * variants + variant. */
    int32_t prefab_count;
    int32_t *first_slot;          /* per prefab, -1 if not usable for this room size */
    int32_t slot_count;
    uint8_t *slot_ok;             /* 1 if the stamp keeps every door reachable */
    uint8_t *cells;               /* size * size interior tiles per slot */
    int32_t *marker_start;        /* slot_count + 1 offsets into markers */
    dgi_furnish_marker *markers;
    int32_t marker_total;
};

/* 1 if room (x, y) is in the world's range. */
int dgi_world_in_range(int64_t x, int64_t y);
/* DG_SIDE_* door mask of a room in range. */
int32_t dgi_world_doors(const dg_world *w, int64_t x, int64_t y);
/* Everything about a room in range whose door mask is known. */
void dgi_world_room_with(const dg_world *w, int64_t x, int64_t y, int32_t doors,
                         dg_world_room *room);
/* Door masks of the rooms [x0, x0 + cols) x [y0, y0 + rows), row-major, for
 * cols, rows <= DGI_WORLD_BLOCK: each room's hash is computed once. */
#define DGI_WORLD_BLOCK 32
void dgi_world_door_block(const dg_world *w, int64_t x0, int64_t y0, int32_t cols, int32_t rows,
                          uint8_t *doors);
/* Door masks that override the world's for rooms [rx0, rx0 + cols) x
 * [ry0, ry0 + rows), row-major; DGI_WORLD_LEFT_OUT: the room is not drawn
 * (rock; a full room keeps its two own walls) and has no markers. */
#define DGI_WORLD_LEFT_OUT 0x80
typedef struct dgi_world_override {
    int64_t rx0, ry0;
    int32_t cols, rows;
    const uint8_t *doors;
} dgi_world_override;
/* dg_world_render with door masks overridden (NULL: none). (world_render.c) */
dg_status dgi_world_render(const dg_world *world, int64_t tx, int64_t ty, dg_grid *grid,
                           const dgi_world_override *over, dg_world_marker *markers,
                           int32_t capacity, int32_t *marker_count, dg_diag *diag);
/* Floor division, for tile -> room. */
int64_t dgi_floor_div(int64_t a, int64_t b);
/* world_furnish.c: stamps and checks every furnishing slot at creation
 * (DG_E_INVALID if the set has none of the room's size) ... */
dg_status dgi_world_build_atlas(dg_world *w, dg_diag *diag);
/* ... and fills a room's prefab, orientation, variant, marker_count from its
 * hash and doors. */
void dgi_world_furnish(const dg_world *w, uint64_t room_hash, dg_world_room *room);

/* params.c, recipe.c, textout.c, export*.c: the generator registry and text output. */
/* Cells a generator must not write (dg_site.reserved): nonzero at
 * cells[y * stride + x]. A generator given one leaves those cells exactly as
 * they were, never counts them as rock it may carve or wall, and keeps its
 * open cells from touching them (not even diagonally). NULL: no reserved cells. */
typedef struct dgi_mask {
    const uint8_t *cells;
    int32_t stride;
} dgi_mask;
static inline int dgi_mask_at(const dgi_mask *m, int32_t x, int32_t y)
{
    return m && m->cells[(size_t)y * (size_t)m->stride + (size_t)x] != 0;
}
/* 1 if a reserved cell lies in the square (x-1..x+1, y-1..y+1) (cells
 * outside the grid are not reserved); an open cell may not be written here. */
int dgi_mask_near(const dgi_mask *m, const dg_grid *g, int32_t x, int32_t y);
/* Generators around reserved cells (NULL: none, as their public entry). */
dg_status dgi_cave_generate(dg_grid *grid, const dg_cave_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag); /* cave.c */
dg_status dgi_drunkard_generate(dg_grid *grid, const dg_drunkard_params *params, uint64_t seed,
                                const dgi_mask *reserved, dg_result *result,
                                const dg_allocator *allocator, dg_diag *diag); /* walk.c */
dg_status dgi_maze_generate(dg_grid *grid, const dg_maze_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag); /* maze.c */
/* Summed-area table of m over w x h ((w + 1) * (h + 1) entries), so that
 * dgi_mask_count gives the reserved cells in a rect (clipped) in O(1). (prefab_gen.c) */
void dgi_mask_sums(const dgi_mask *m, int32_t w, int32_t h, int32_t *sums);
int32_t dgi_mask_count(const int32_t *sums, int32_t w, int32_t h, dg_rect q);
/* The generators' entries with reserved cells (NULL: none, the public call). */
/* prefab-full: the prefab at the clear place nearest the centre, else DG_E_NOSPACE. (prefab_gen.c) */
dg_status dgi_prefab_full_generate(dg_grid *grid, const dg_prefab_set *set,
                                   const dg_prefab_full_params *params, uint64_t seed,
                                   const dgi_mask *reserved, dg_result *result,
                                   const dg_allocator *allocator, dg_diag *diag);
/* prefab-jigsaw: blocks touching reserved cells stay fill, walled off. (prefab_jigsaw.c) */
dg_status dgi_prefab_jigsaw_generate(dg_grid *grid, const dg_prefab_set *set,
                                     const dg_prefab_jigsaw_params *params, uint64_t seed,
                                     const dgi_mask *reserved, dg_result *result,
                                     const dg_allocator *allocator, dg_diag *diag);
/* prefab-islands: buildings keep off reserved cells, the ground walled from them. (prefab_islands.c) */
dg_status dgi_prefab_islands_generate(dg_grid *grid, const dg_prefab_set *set,
                                      const dg_prefab_islands_params *params, uint64_t seed,
                                      const dgi_mask *reserved, dg_result *result,
                                      const dg_allocator *allocator, dg_diag *diag);
/* world: the registry's window centred on room (0, 0); rooms and doors near
 * reserved cells are left out and the rest rejoined. (world_map.c) */
dg_status dgi_world_generate(dg_grid *grid, const dg_world_params *params, uint64_t seed,
                             const dg_prefab_set *prefabs, const dgi_mask *reserved,
                             dg_result *result, const dg_allocator *a, dg_diag *diag);
/* Generators around reserved cells (NULL: none, the public call's output). */
dg_status dgi_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                           const dgi_mask *reserved, dg_result *result,
                           const dg_allocator *allocator, dg_diag *diag); /* leaves beside them, searched joins */
dg_status dgi_scatter_generate(dg_grid *grid, const dg_scatter_params *params, uint64_t seed,
                               const dgi_mask *reserved, dg_result *result,
                               const dg_allocator *allocator, dg_diag *diag); /* rooms and routes off them */
dg_status dgi_chain_generate(dg_grid *grid, const dg_chain_params *params, uint64_t seed,
                             const dgi_mask *reserved, dg_result *result,
                             const dg_allocator *allocator, dg_diag *diag); /* steps and loops off them */
/* Generators run around reserved cells (NULL: none), as their dg_*_generate otherwise. */
/* attach.c: rooms and corridors grow around them; the first room moves off them. */
dg_status dgi_attach_generate(dg_grid *grid, const dg_attach_params *params, uint64_t seed,
                              const dgi_mask *reserved, dg_result *result,
                              const dg_allocator *allocator, dg_diag *diag);
/* prefab_mixed.c: vaults land neither on reserved cells nor next to them. */
dg_status dgi_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                    const dg_prefab_mixed_params *params, uint64_t seed,
                                    const dgi_mask *reserved, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag);

typedef dg_status (*dgi_gen_run)(dg_grid *grid, const void *params, uint64_t seed,
                                 const dg_prefab_set *prefabs, const dgi_mask *reserved,
                                 dg_result *result, const dg_allocator *a, dg_diag *diag);
typedef struct dgi_generator {
    const char *name;
    const char *summary;
    const dg_param_desc *params;
    int32_t param_count;
    size_t params_size;
    void (*defaults)(void *params);
    dgi_gen_run run;
    int32_t needs_prefabs;
} dgi_generator;
const dgi_generator *dgi_generator_lookup(const char *name);
/* values[] slots from here on hold the progression keys every recipe may
 * carry (locks, floors); parameter tables stay shorter. (recipe.c) */
#define DGI_RECIPE_EXTRA_FIRST 23
/* 1 and *locks filled if the recipe records lock settings, else 0. */
int dgi_recipe_locks(const dg_recipe *r, dg_lock_params *locks);
/* 1 and the floor settings if the recipe records a floor of a stacked dungeon, else 0. */
int dgi_recipe_floor(const dg_recipe *r, int32_t *floor, int32_t *floors, int32_t *stairs);
/* The recipe's generator alone on grid, with reserved cells (NULL: none):
 * no floor stairs, no locks. (recipe.c) */
dg_status dgi_recipe_run(const dg_recipe *recipe, dg_grid *grid, const dg_prefab_set *prefabs,
                         const dgi_mask *reserved, dg_result *result,
                         const dg_allocator *allocator, dg_diag *diag);
/* dg_anchor_place that neither carves nor passes reserved cells. (anchor.c) */
dg_status dgi_anchor_place(dg_grid *grid, dg_result *result, const dg_point *anchors,
                           int32_t count, const dgi_mask *reserved,
                           const dg_allocator *allocator, dg_diag *diag);
/* dg_anchor_place on a grid its caller drops on error (a floor's own copy), so
 * without a copy; the grid is framed: stride width + 2 inside a buffer with a
 * frame of DG_TILE_VOID around. With exit_set the caller places the exit. */
dg_status dgi_anchor_place_own(dg_grid *grid, dg_result *result, const dg_point *anchors,
                               int32_t count, int exit_set, const dg_allocator *allocator,
                               dg_diag *diag);
const dg_param_desc *dgi_param_lookup(const dgi_generator *g, const char *key, size_t key_len);
/* Parses value[0..len) for parameter p into *out; column (1-based, 0 = none) goes to diag. */
dg_status dgi_param_parse(const dg_param_desc *p, const char *value, size_t len, int32_t *out,
                          int32_t column, dg_diag *diag);
int dgi_parse_i64(const char *s, size_t len, int64_t *out);
dg_status dgi_params_check_size(const dgi_generator *g, const char *name, const void *params,
                                size_t params_size, dg_diag *diag);

/* A buffered text sink: through a dg_write_fn, into memory, or only counting. */
typedef struct dgi_out {
    dg_write_fn write; /* NULL: count only */
    void *user;
    size_t total;      /* bytes emitted so far */
    size_t len;        /* bytes waiting in buf */
    char buf[2048];
} dgi_out;
void dgi_out_init(dgi_out *o, dg_write_fn write, void *user);
void dgi_out_bytes(dgi_out *o, const char *s, size_t n);
void dgi_out_str(dgi_out *o, const char *s);
void dgi_out_char(dgi_out *o, char c);
void dgi_out_i64(dgi_out *o, int64_t v);
void dgi_out_u64(dgi_out *o, uint64_t v);
/* s (NUL-terminated) as a JSON string with quotes, or as XML attribute text;
 * invalid UTF-8 and control bytes are escaped or replaced so the output stays valid. */
void dgi_out_json_str(dgi_out *o, const char *s);
void dgi_out_xml_str(dgi_out *o, const char *s);
void dgi_out_flush(dgi_out *o);
/* n tile values as decimal numbers separated by commas (no trailing comma). */
void dgi_out_tiles(dgi_out *o, const uint8_t *cells, int32_t n);
/* Runs emit(ctx, o) once counting, then (if it fits) into out[0..out_size)
 * with a NUL; the two-call buffer convention of the public API. */
dg_status dgi_out_to_buffer(void (*emit)(const void *ctx, dgi_out *o), const void *ctx,
                            char *out, size_t out_size, size_t *written);
/* export_json.c, export_tiled.c: the writers behind dg_export (inputs already checked). */
void dgi_export_json(const dg_grid *g, const dg_result *r, const dg_export_options *opt,
                     dgi_out *o);
void dgi_export_tiled(const dg_grid *grid, const dg_result *result, const dg_export_options *o,
                      dgi_out *out);
/* The same for a stacked dungeon: a tile and an object layer per floor. */
void dgi_export_tiled_floors(const dg_grid *grids, const dg_result *results, int32_t floors,
                             const dg_export_options *o, dgi_out *out);
/* export_names.c: stable lower-case names of DG_ROOM_*, DG_MARKER_* and DG_REF_* ("other" if unknown). */
const char *dgi_room_kind_name(int32_t kind);
const char *dgi_marker_kind_name(int32_t kind);
/* The floor a stairs tile at p leads to, from a stairs marker named "floor N"
 * on it (dg_floor_generate), or -1. */
int32_t dgi_stairs_link(const dg_result *r, dg_point p, uint8_t tile);
const char *dgi_ref_kind_name(int32_t kind);
/* recipe.c: writes a valid recipe (a const dg_recipe *) as its text line. */
void dgi_recipe_emit(const void *recipe, dgi_out *o);

/* solve.c: the progression solver, shared with lock.c (which calls down into it). */
/* Lock or key number N (1..DG_LOCKS_MAX) of a marker named "<word> N", else 0. */
int32_t dgi_progress_number(const dg_marker *m, const char *word);
/* DG_OK if the result's start and exit are passable cells inside the grid. */
dg_status dgi_progress_check_ends(const dg_grid *g, const dg_result *r, dg_diag *diag);
/* dg_solve on checked input, on the tiles framed by dgi_frame_tiles, with
 * caller scratch: parent and queue of (width+2)*(height+2) int32, tag of as many bytes. */
void dgi_solve_run(const uint8_t *tile, int32_t width, int32_t height, const dg_result *r,
                   int32_t *parent, int32_t *queue, uint8_t *tag, dg_progress *p);
/* The grid's tiles into tile[] ((width+2)*(height+2)), framed by a ring of rock. */
void dgi_frame_tiles(const dg_grid *g, uint8_t *tile);

/* hardening (static analysis): under clang-tidy/scan-build, let the analyzer
 * see that dgi_fail and dgi_fail_at return the status they are given, so a
 * "return dgi_fail(...)" error path is not taken for a success. No effect on
 * real builds (the macro exists only while __clang_analyzer__ is defined;
 * status.c defines the functions as (dgi_fail) so the macro stays out). */
#ifdef __clang_analyzer__
#define dgi_fail(diag, status, ...) (dgi_fail(diag, status, __VA_ARGS__), (status))
#define dgi_fail_at(diag, status, line, column, ...) \
    (dgi_fail_at(diag, status, line, column, __VA_ARGS__), (status))
#endif

#endif
