/* What map analysis offers the folders above it: movement rules resolved
 * against a grid, breadth-first and Dijkstra searches, regions, scratch, and
 * finishing a generator's result (start, exit, metrics). Private. */
#ifndef DG_ANALYSIS_H
#define DG_ANALYSIS_H

#include "core/core.h"

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
 * the cycle count is edges - open + regions - squares. (finish.c, metrics.c) */
typedef struct dgi_cell_counts {
    int32_t open;            /* open cells */
    int32_t dead_ends;       /* open cells with exactly one open 4-neighbour */
    int64_t edges, squares;  /* open neighbour pairs; fully open 2x2 squares */
} dgi_cell_counts;
dg_status dgi_count_cells(const dg_grid *grid, const uint8_t *passable, dgi_cell_counts *out,
                          const dg_allocator *a);


/* layout.c, survey.c: dg_survey_map's view of a grid, a byte of DGI_V_* flags
 * per cell with DGI_VIEW_PAD closed cells all round, so the figures look up
 * to three cells away without bounds checks. */
#define DGI_VIEW_PAD 3
enum {
    DGI_V_OPEN = 1,       /* passable (dg_tile_passable) */
    DGI_V_CORRIDOR = 2,   /* DG_TILE_CORRIDOR */
    DGI_V_DOOR = 4,       /* DG_TILE_DOOR */
    DGI_V_ROOM = 8,       /* in some room's rect */
    DGI_V_PLAIN_ROOM = 16, /* in the rect of a room other than a cave (whose rect only bounds it) */
    DGI_V_VOID = 32        /* DG_TILE_VOID (the padding is not: the outer ring has its own figure) */
};
typedef struct dgi_view {
    uint8_t *cells;
    int32_t width, height, pitch;
} dgi_view;
#define DGI_VIEW(v, x, y) \
    ((v)->cells[(size_t)((y) + DGI_VIEW_PAD) * (size_t)(v)->pitch + (size_t)((x) + DGI_VIEW_PAD)])
/* Bytes a view of grid needs. */
size_t dgi_view_bytes(const dg_grid *grid);
/* Fills the view (in buf, dgi_view_bytes) of grid and the result's rooms. */
void dgi_view_fill(dgi_view *view, uint8_t *buf, const dg_grid *grid, const dg_result *result);
/* dg_survey_map's layout figures (rooms, rock, corridors) into q, whose loops
 * are already set, in one pass over the rows; columns holds 3 * width int32
 * of scratch. */
void dgi_survey_layout(const dgi_view *view, const dg_result *result, int32_t *columns,
                       dg_quality *q);

/* search.c: breadth-first distances over passable cells (4-way).
 * dist has width*height entries (row-major, no stride), -1 = unreachable.
 * queue has width*height entries. Returns the farthest reached cell index. */
int32_t dgi_bfs(const dg_grid *grid, int32_t start_index, int32_t *dist, int32_t *queue);
/* Labels 4-connected passable regions 0..n-1 (-1 elsewhere) and returns n;
 * label and queue have width*height entries. */
int32_t dgi_label_regions(const dg_grid *grid, int32_t *label, int32_t *queue);
/* Passable cells with exactly one passable 4-neighbour. */
int32_t dgi_count_dead_ends(const dg_grid *grid);


/* search.c, analyze.c, path.c, metrics.c, place.c: map analysis.
 * A movement rule (dg_move) resolved against one grid. Cells in queues and heaps are packed
 * as (y << 15) | x (sides are at most 32768) so no division is needed;
 * per-cell arrays are indexed y * width + x. */
typedef struct dgi_move {
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
    int32_t size;           /* footprint side (1: one cell); dgi_workspace_get folds a
                             * larger one into blocked (clearance.c) */
} dgi_move;
#define DGI_MASK(w, m, x, y) ((m)[(size_t)(y) * (size_t)(w)->mask_stride + (size_t)(x)])
/* Direction offsets: N, E, S, W, then NE, SE, SW, NW. */
extern const int8_t dgi_dir_dx[8], dgi_dir_dy[8];
/* dg_tile_passable as a table (a test keeps them equal). */
extern const uint8_t dgi_passable_default[256];
/* Validates grid and walk (NULL: defaults) and resolves them, overlay included. */
dg_status dgi_move_init(dgi_move *w, const dg_grid *grid, const dg_move *walk, dg_diag *diag);
/* DG_OK if overlay (NULL is fine) fits grid: known flags, flagged masks not NULL,
 * stride >= width, enough cells; *stride gets the resolved mask stride. */
dg_status dgi_overlay_check(const dg_grid *grid, const dg_overlay *overlay, int32_t *stride,
                            dg_diag *diag);
/* Library defaults with a 256-entry passable table (NULL: dg_tile_passable); no checks. */
void dgi_move_basic(dgi_move *w, const dg_grid *grid, const uint8_t *passable);
/* DG_OK if p is inside the grid and passable; else DG_E_INVALID naming `what`. */
dg_status dgi_move_check_cell(const dgi_move *w, dg_point p, const char *what, dg_diag *diag);
/* 1 if a step in direction d (0..neighbours-1) from (x, y) is allowed. */
int dgi_move_step_ok(const dgi_move *w, int32_t x, int32_t y, int d);
/* Multi-source breadth-first search over unit steps: dist (width*height) is
 * reset to -1 and filled up to max_distance (0: no limit). queue has
 * width*height entries; sources are inside the grid (repeats are fine). */
void dgi_bfs_move(const dgi_move *w, const dg_point *sources, int32_t source_count,
                  int32_t max_distance, int32_t *dist, int32_t *queue, dg_distance_info *info);
/* Walking distances (4-way, unit steps, no overlay: w->neighbours and
 * w->blocked are not read) from one cell inside the grid, as dgi_bfs_move
 * gives them, into dist (width*height): >= 0 where reached, negative
 * elsewhere. The walls are read once up front, so each visit is one test;
 * dg_populate and dg_roles walk from the start this way. queue has
 * width*height entries. Returns the cells reached. */
int32_t dgi_walk_from(const dgi_move *w, dg_point from, int32_t *dist, int32_t *queue);
/* dgi_walk_from's distances and count, faster where the grid's outer ring is
 * shut (most maps): the walk then needs no bounds checks. The queue's
 * contents afterwards differ (scratch either way). */
int32_t dgi_walk_from_walled(const dgi_move *w, dg_point from, int32_t *dist, int32_t *queue);

#define DGI_LANES(byte) (0x0101010101010101ULL * (byte))
/* Eight bytes from p in the machine's order (lane k is p[k] read back by memcpy). */
static inline uint64_t dgi_load8(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
/* dgi_passable_default of eight tiles at once: 1 in the byte lanes holding
 * FLOOR..STAIRS_DOWN (1..7) except WALL (3), or DOOR_LOCKED, DOOR_SECRET
 * (10, 11), else 0. The sums use each lane's low seven bits, so they never
 * carry into the next lane. (A test feeds every tile value through
 * dgi_result_finish to keep this equal to the table.) finish.c's mask and
 * search.c's walk read the tiles this way. */
static inline uint64_t dgi_passable_lanes(uint64_t tiles)
{
    uint64_t low = tiles & DGI_LANES(0x7F);
    uint64_t at_least_1 = low + DGI_LANES(0x7F), at_least_8 = low + DGI_LANES(0x78);
    uint64_t not_wall = (low ^ DGI_LANES(DG_TILE_WALL)) + DGI_LANES(0x7F);
    uint64_t not_10_11 =
        ((low ^ DGI_LANES(DG_TILE_DOOR_LOCKED)) & DGI_LANES(0x7E)) + DGI_LANES(0x7F);
    uint64_t doors = ~(not_10_11 | tiles);
    return ((at_least_1 & not_wall & ~(at_least_8 | tiles)) | doors) >> 7 & DGI_LANES(1);
}

/* Queues the open (1) neighbours of cell c of a bordered 0/1 mask m, pw wide
 * (north, east, south, west), at next[k] on and closes them; returns k past
 * them. No branch per neighbour: each is written, and kept only if it was
 * open; the four loads come before the stores, which the compiler could not
 * move across them (a byte store may alias anything). */
static inline int32_t dgi_queue_open(uint8_t *m, int32_t pw, int32_t c, int32_t *next, int32_t k)
{
    uint8_t n = m[c - pw], e = m[c + 1], so = m[c + pw], w = m[c - 1];
    m[c - pw] = m[c + 1] = m[c + pw] = m[c - 1] = 0;
    next[k] = c - pw;
    k += n;
    next[k] = c + 1;
    k += e;
    next[k] = c + pw;
    k += so;
    next[k] = c - 1;
    return k + w;
}

/* dgi_walk_from_walled with the dgi_move_basic walk over dgi_passable_default. */
int32_t dgi_walk_default(const dg_grid *grid, dg_point from, int32_t *dist, int32_t *queue);
/* Union-find labelling (see dg_regions); returns the region count. */
int32_t dgi_regions_move(const dgi_move *w, int32_t *labels, int32_t *sizes, int32_t sizes_cap,
                         int32_t *largest);
/* Passable cells with exactly one passable 4-neighbour. */
int32_t dgi_dead_ends_move(const dgi_move *w);
/* Articulation cells of the 4-connected passable graph: mark (width*height)
 * gets 1/0; disc, low, stack are width*height int32, it width*height bytes. */
int32_t dgi_articulation(const dgi_move *w, uint8_t *mark, int32_t *disc, int32_t *low,
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
 * DG_E_BUFFER if the workspace is smaller than the grid. A walker larger than
 * one cell gets its footprint folded into w's blocked mask (held by the
 * workspace): DG_E_NOMEM if that mask cannot be allocated. */
dg_status dgi_workspace_get(dg_path_workspace *workspace, dgi_move *w,
                            dg_path_workspace **use, dg_path_workspace **tmp, dg_diag *diag);
/* clearance.c: the clearance of every cell under w's tiles and blocked mask,
 * capped at cap, into out (width*height, row-major). */
void dgi_clearance_fill(const dgi_move *w, uint8_t *out, int32_t cap);
/* Makes fit (width*height bytes) the mask of cells where w's walker does not
 * fit (its overlay's blocked cells included) and points w's blocked mask at it. */
void dgi_move_fit(dgi_move *w, uint8_t *fit);
/* DG_E_TOO_LARGE if a distance up to max_distance (0: any) from sources whose
 * start costs are at most start_max could overflow int32. */
dg_status dgi_move_check_range(const dgi_move *w, int64_t start_max, int32_t max_distance,
                               dg_diag *diag);
/* The workspace's queue of at least width*height entries (for dgi_bfs_move). */
int32_t *dgi_workspace_queue(dg_path_workspace *ws);
/* The workspace's byte a cell (at least width*height): search scratch that is
 * dead between calls, so a caller may use it as its own (chase.c). */
uint8_t *dgi_workspace_bytes(dg_path_workspace *ws);
/* Multi-source Dijkstra into dist, as dg_dijkstra_map (start_costs NULL: all 0;
 * sources valid, costs >= 0 and the range already checked). */
void dgi_dijkstra_map(dg_path_workspace *ws, const dgi_move *w, const dg_point *sources,
                      const int32_t *start_costs, int32_t source_count, int32_t max_distance,
                      int32_t *dist, dg_distance_info *info);
/* place.c: 1 if (x, y) is a tile where stairs and spawns may stand
 * (dg_place, dg_populate): passable, a room tile (room_tiles, NULL:
 * DG_TILE_FLOOR), not a door. Both also keep them off chokepoints. */
int dgi_spawn_tile(const dgi_move *w, const uint8_t *room_tiles, int32_t x, int32_t y);
/* (end of map analysis) */

#endif
