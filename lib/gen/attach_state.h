/* Private state of the feature attachment generator (attach*.c).
 *
 * Generation runs in a scratch copy of the map with a one-cell border of
 * ATT_EDGE around it, so neighbour reads never need bounds checks and the
 * caller's grid is written only once everything has succeeded. Features are
 * rectangles (rooms, and 1-wide straight corridors); every junction between
 * two features is a "door" cell on their shared wall, whatever tile the door
 * policy gives it. The doors form a graph whose shortest paths are the exact
 * walking distances (inside a rectangle, walking distance is Manhattan
 * distance), which is how the loop pass and the exit work without any
 * per-cell distance array. */
#ifndef DG_ATTACH_STATE_H
#define DG_ATTACH_STATE_H

#include "gen/gen.h"

#define ATT_EDGE 0xFF /* scratch border and reserved cells: not void, not wall, not passable */
#define ATT_MAX_STRAIGHT 38 /* cells of corridor in one straight line, junctions included */
#define ATT_WALK_CELLS 256 /* largest room the exit search walks cell by cell */
#define ATT_BLOCK_SHIFT 3 /* growth leans toward emptier 8x8 blocks of the map */

enum { ATT_ROOM = 0, ATT_CORRIDOR = 1 };

typedef struct att_feat {
    uint16_t x, y, w, h; /* interior rectangle (inside the map: below DG_GRID_MAX_DIM) */
    int32_t parent;      /* feature it was attached to, -1 for the first room */
    int32_t door;        /* door joining it to its parent, -1 for the first room */
    int32_t doors_head;  /* first door of its adjacency list */
    int32_t end_child;   /* corridors: feature attached at the far end, or -1 */
    union {                /* the exit search is over before the output is numbered */
        int32_t far_bound; /* exit search: bound of its cells' distance, -1 if settled */
        int32_t out;       /* index in the result's room or corridor list */
    };
    int32_t cells;       /* rooms: floor cells of its shape (set by the shape pass) */
    uint8_t kind;        /* ATT_ROOM / ATT_CORRIDOR */
    uint8_t shape;       /* rooms: DG_SHAPE_* */
    uint8_t dir;         /* corridors: DG_DIR_* pointing away from the parent door */
    uint8_t no_tips;     /* shaped rooms: the shape pass saw no floor cell with one way out */
} att_feat;

typedef struct att_door { /* 28 bytes: a map's cells all lie in 0..DG_GRID_MAX_DIM - 1 */
    uint16_t x, y;
    int32_t a, b;         /* the features it joins: a the older, b the newer */
    int32_t next_a;       /* next door in a's adjacency list, or -1 */
    int32_t next_b;       /* next door in b's adjacency list, or -1 */
    int32_t dist;         /* walking distance from the start (graph searches) */
    uint8_t tile;         /* DG_TILE_DOOR, DG_TILE_CORRIDOR or DG_TILE_FLOOR */
    uint8_t into_a, into_b; /* DG_DIR_* from the door to the interior cell of a, of b it touches */
} att_door;

/* A frontier entry: one wall of one feature where something may still attach. */
typedef struct att_site { /* 16 bytes: a map's walls all lie in 0..DG_GRID_MAX_DIM - 1 */
    int32_t feat;
    uint16_t x, y;   /* first cell of the wall (top or left end) */
    uint16_t len;    /* cells along the wall */
    uint8_t side;    /* DG_DIR_* the wall faces, seen from the feature */
    uint8_t kind;    /* kind of the feature (ATT_ROOM / ATT_CORRIDOR) */
    uint8_t tries;   /* attempts left before the wall is retired */
} att_site;

typedef struct att_heap_item { int32_t dist, door; } att_heap_item;

typedef struct att_ctx {
    const dg_attach_params *p;
    const dg_allocator *a;
    const dgi_mask *reserved; /* caller's cells, ATT_EDGE in the scratch map; NULL: none */
    int32_t w, h, stride;   /* map size; scratch stride = w + 2 */
    uint8_t *mem;           /* scratch map with its border, then the lists' first capacity */
    size_t mem_size;
    uint8_t *cell;          /* cell (0, 0) of the scratch map */
    ptrdiff_t step[4];      /* offset of the next cell in each direction DG_DIR_* */
    ptrdiff_t along[4];     /* offset along a wall facing each direction */
    uint8_t borrowed[3];    /* feats, doors, sites: still inside mem */
    att_feat *feats;   int32_t nfeat, cap_feat;
    int32_t live;           /* features not pruned: what the budget counts */
    att_door *doors;   int32_t ndoor, cap_door;
    att_site *sites;   int32_t site_head, site_end, cap_site; /* then the loop pass's candidates */
    att_heap_item *heap; int32_t nheap, cap_heap;
    int32_t *touched;  int32_t ntouched, cap_touched;
    int32_t room_max_w, room_max_h; /* ranges clamped to what the map can hold */
    int32_t budget;         /* feature budget (explicit or derived) */
    int32_t max_attempts;   /* attempt budget (explicit or derived) */
    int32_t target_cells;   /* floor cells that stop growth (INT32_MAX: no target) */
    int32_t floor;          /* passable cells so far */
    int32_t attempts, failures, consecutive, loops;
    int64_t loop_work;      /* search steps the loop pass may still take */
    int32_t stopped_early;
    int32_t out_rooms, out_corridors, out_doors; /* sizes of the result lists */
    int32_t start_x, start_y, start_feat; /* the start, and the room it lies in */
    dg_rng rng;             /* layout stream */
    uint32_t ahead[2];      /* uniform growth: the next two picks' random words */
    int32_t *fill;          /* not dense: floor (and reserved) cells per ATT_BLOCK-square block (in mem) */
    int32_t fill_w, fill_h; /* blocks across and down */
} att_ctx;

static inline uint8_t *att_at(const att_ctx *c, int32_t x, int32_t y)
{
    return c->cell + (ptrdiff_t)y * c->stride + x;
}

/* Rock or wall: may become (or stay) a wall. Reserved cells (ATT_EDGE) never are. */
static inline int att_solid(uint8_t v)
{
    return v == DG_TILE_VOID || v == DG_TILE_WALL;
}

static inline int att_passable(uint8_t v)
{
    enum { PASSABLE = 1u << DG_TILE_FLOOR | 1u << DG_TILE_CORRIDOR | 1u << DG_TILE_DOOR };
    return v < 8 && (PASSABLE >> v) & 1; /* one test for the three tiles */
}

static inline int32_t att_dx(int dir) { return dir == DG_DIR_E ? 1 : dir == DG_DIR_W ? -1 : 0; }
static inline int32_t att_dy(int dir) { return dir == DG_DIR_S ? 1 : dir == DG_DIR_N ? -1 : 0; }

/* Corridor cells in line from (x, y) on, dir by dir (a straight corridor's cells). */
static inline int32_t att_corridor_run(const att_ctx *c, int32_t x, int32_t y, int dir)
{
    int32_t n = 0;
    for (const uint8_t *p = att_at(c, x, y); *p == DG_TILE_CORRIDOR; p += c->step[dir])
        n++;
    return n;
}

/* Little-endian word of the 8 cells from p (byte i: p[i]), whatever the
 * machine's byte order, so bit positions name cells the same everywhere. */
static inline uint64_t att_cells_le(const uint8_t *p)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, sizeof v);
#else
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
#endif
    return v;
}

/* Bit i of the result: byte i of m is 0x80 (m has no other bits set). */
static inline uint64_t att_flags_to_bits(uint64_t m)
{
    return ((m >> 7) * 0x0102040810204080ull) >> 56;
}

/* Draws from the layout stream (same rules as dg_rng_below/range/chance). */
static inline int32_t att_below(att_ctx *c, int32_t n) /* n >= 1 */
{
    return n > 1 ? (int32_t)dgi_rng_below(&c->rng, (uint32_t)n) : 0;
}
static inline int32_t att_range(att_ctx *c, int32_t lo, int32_t hi)
{
    return hi <= lo ? lo : lo + (int32_t)dgi_rng_below(&c->rng, (uint32_t)(hi - lo + 1));
}
static inline int att_chance(att_ctx *c, int32_t permille)
{
    return permille >= 1000 || (permille > 0 && dgi_rng_below(&c->rng, 1000) < (uint32_t)permille);
}

/* Length of a corridor (its rectangle is 1 wide). */
static inline int32_t att_corridor_len(const att_feat *f) { return f->w * f->h; }

/* Every function of the attach generator shared between its files is dgi_att_*,
 * so no private name can clash with a caller's symbols. Calls point one way
 * only: attach.c uses the other files, attach_post.c uses attach_graph.c
 * and attach_doors.c, attach_graph.c uses attach_doors.c and attach_shape.c. */

/* attach_doors.c: the lists and the door graph, used by every other attach file. */
/* Grows array (with its capacity field) to hold need elements, as dgi_grow;
 * a list still inside the scratch block (*borrowed; NULL: never) moves into
 * an allocation of its own. st gets the status. */
dg_status dgi_att_grow(const att_ctx *c, void **array, int32_t *cap, int32_t need, size_t elem,
                       uint8_t *borrowed);
#define ATT_GROW(c, array, cap, need, borrowed, st)                                         \
    do {                                                                                    \
        (st) = DG_OK;                                                                       \
        if ((need) > (cap)) /* the call only when it must grow: searches push often */      \
        {                                                                                   \
            void *grown_ = (array);                                                         \
            (st) = dgi_att_grow((c), &grown_, &(cap), (need), sizeof *(array), (borrowed)); \
            (array) = grown_;                                                               \
        }                                                                                   \
    } while (0)
/* Opens (x, y) as the junction of features a (older) and b. -1: no memory. */
int32_t dgi_att_door_add(att_ctx *c, int32_t x, int32_t y, int32_t a, int32_t b);

/* attach_post.c: the passes after growth. */
dg_status dgi_att_loops(att_ctx *c, uint64_t seed);
int32_t dgi_att_dead_end_count(const att_ctx *c);

/* attach_shape.c: room shapes, once every door is known. */
void dgi_att_shapes(att_ctx *c, uint64_t seed);
/* Farthest floor cell of a room with a single entrance, walked cell by cell;
 * returns its walking distance from the start (its door's dist must be set). */
int32_t dgi_att_shaped_farthest(const att_ctx *c, int32_t fi, int32_t *fx, int32_t *fy);

/* attach_space.c: the space check of small maps (both sides at most ATT_SPACE_MAX_SIDE). */
#define ATT_SPACE_MAX_SIDE 128
/* 1 and its top left corner if a side x side square holds no room or
 * corridor cell (the first such square in row order), else 0. */
int dgi_att_empty_square(const att_ctx *c, int32_t side, int32_t *sx, int32_t *sy);

/* attach_graph.c: walking distances over the door graph. */
/* Walking distance from p (inside feature fa) to q (inside fb), or limit if it is
 * not below limit. -1 on out of memory, -2 once c->loop_work is spent. */
int32_t dgi_att_walk_distance(att_ctx *c, int32_t fa, int32_t px, int32_t py, int32_t fb,
                              int32_t qx, int32_t qy, int32_t limit);
/* Moves the start to the centre of a room at one end of a long walk. */
void dgi_att_pick_start(att_ctx *c);
/* Sets every door's dist from the start and finds the farthest room cell (the exit). */
dg_status dgi_att_exit(att_ctx *c, int32_t *ex, int32_t *ey, int32_t *efeat);

#endif
