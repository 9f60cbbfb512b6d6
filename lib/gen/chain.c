/* Room chain generator (docs/chain.md): rooms joined by straight corridors, each
 * corridor leaving a room in a direction that fits and never doubles back, with
 * optional overlap, branching and L-shaped loop corridors. */
#include "analysis/analysis.h"
#include "gen/gen.h"

#include <stdlib.h>

/* Independent PRNG streams, so that e.g. loops never move the chain's rooms. */
#define STREAM_LAYOUT 0x636861696E01ULL
#define STREAM_BRANCH 0x636861696E02ULL
#define STREAM_LOOP 0x636861696E03ULL
#define STREAM_SITE 0x636861696E04ULL /* first-room spots beside reserved cells */
#define STREAM_FILL 0x636861696E05ULL /* rooms in the rock the chain left bare */
#define STREAM_SHAPE 0x636861696E06ULL /* room shapes: they never move a room or a corridor */
#define BLOCK 0xFE /* a reserved cell or its ring while the map is built (not open_tile) */
#define SITE_SPOTS 256 /* first-room spots tried when reserved cells take the centre */
enum {
    BUCKET = 32,         /* side of a cell of the room index used to find loop partners */
    LOOP_PARTNERS = 3,   /* earlier rooms tried per loop */
    LOOP_DRAWS = 6,      /* door positions tried per partner */
    LOOP_LOOKS = 256,    /* index cells and rooms looked at per loop, at most */
    STEP_CANDIDATES = 5, /* steps drawn per attempt with overlap allowed (the first on rock wins) */
    BOX_TRIES = 4,       /* earlier rooms that try to step onto rock when the newest is boxed in */
    FILL_MAX = 24,       /* rooms added in bare rock, at most */
    FILL_PERMILLE = 40,  /* bare squares above this share of the board get a room */
    FILL_PARTNERS = 6,   /* nearest rooms tried for the corridor to a filling room */
    FILL_DRAWS = 6       /* steps drawn from a room toward a bare square */
};

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

static int opposite(int d) { return (d + 2) & 3; }
static int vertical(int d) { return d == DG_DIR_N || d == DG_DIR_S; }

typedef struct chain_room {
    dg_room room;
    int32_t enter; /* direction of the corridor that made it, -1 for the first room */
    int32_t next;  /* next room in the same index bucket, -1 at the end */
    int32_t met;   /* 1: another room or a corridor's leg lies in its rect (it keeps its shape) */
} chain_room;

typedef struct chain {
    dg_grid *g;
    const dg_chain_params *p;
    const dg_allocator *a;
    int32_t margin;          /* 1 with a border frame: content stays off the outer ring */
    int32_t max_w, max_h;    /* room maxima capped to the usable board */
    int32_t reach;           /* longest loop corridor */
    dg_rng layout, branch, loop, fill, shape;
    chain_room *rooms;       int32_t room_count, room_cap;
    dg_corridor *corridors;  int32_t corridor_count, corridor_cap;
    dg_door *doors;          int32_t door_count, door_cap;
    int32_t *bucket;         int32_t bw, bh; /* head room per index cell, or NULL */
    int32_t *partners;       int32_t partner_cap;
    int32_t requested, overlaps;
    int32_t join_floors;     /* corridor cells marked JOIN_FLOOR, still to become floor */
    int32_t loop_corridors;
    int64_t attempts, failures; /* reported saturated to int32 */
    const dgi_mask *reserved;   /* NULL: none */
    dg_rng site;
} chain;

/* One chain step: a corridor leaving room src through door0 and a room behind door1. */
typedef struct step {
    int dir;
    dg_point door0, start, end, door1;
    dg_rect room;
} step;

/* A loop corridor: door_a, start -> bend -> end, door_b. */
typedef struct route {
    dg_point door_a, start, bend, end, door_b;
} route;

/* ---- parameters ------------------------------------------------------------ */

void dg_chain_defaults(dg_chain_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_chain_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_range(dg_diag *diag, const char *what, int32_t lo, int32_t hi,
                             int32_t limit)
{
    if (lo < 1)
        return dgi_fail(diag, DG_E_INVALID, "chain: %s minimum is %d: must be >= 1", what, (int)lo);
    if (hi < lo)
        return dgi_fail(diag, DG_E_INVALID, "chain: %s range %d..%d is empty (min > max)", what,
                        (int)lo, (int)hi);
    if (hi > limit)
        return dgi_fail(diag, DG_E_TOO_LARGE, "chain: %s maximum is %d: must be <= %d", what,
                        (int)hi, (int)limit);
    return DG_OK;
}

static dg_status check_choice(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "chain: %s is %d: must be %d..%d", what, (int)v,
                        (int)lo, (int)hi);
    return DG_OK;
}

/* The room count: rooms_min..rooms_max, where rooms_min 0 is "by area", 6 to
 * 8 rooms per 1000 usable cells (inside the border), at least 2, capped at
 * rooms_max, and rooms_max at its limit DG_CHAIN_MAX_ROOMS (the default) is
 * no maximum given: with rooms_min alone the count is drawn from rooms_min to
 * the area's high end (never below rooms_min), not to the limit. */
static dg_status check_rooms(dg_diag *diag, const dg_chain_params *p)
{
    if (p->rooms_min < 0)
        return dgi_fail(diag, DG_E_INVALID, "chain: rooms minimum is %d: must be >= 0 (0 = by area)",
                        (int)p->rooms_min);
    if (p->rooms_min == 0 && p->rooms_max < 1)
        return dgi_fail(diag, DG_E_INVALID, "chain: rooms maximum is %d: must be >= 1",
                        (int)p->rooms_max);
    return check_range(diag, "rooms", p->rooms_min ? p->rooms_min : 1, p->rooms_max,
                       DG_CHAIN_MAX_ROOMS);
}

/* The fewest rooms a call must place: rooms_min, or by area two (a start and
 * an exit room) unless rooms_max allows only one. */
static int32_t rooms_needed(const dg_chain_params *p)
{
    return p->rooms_min ? p->rooms_min : DG_MIN(2, p->rooms_max);
}

/* How many rooms of the smallest size the usable board could hold without
 * overlap, walls not even counted (its area over theirs): rooms_min alone
 * above that is refused, since only overlapping rooms could reach it. */
static int64_t rooms_capacity(int32_t usable_w, int32_t usable_h, const dg_chain_params *p)
{
    return (int64_t)usable_w * usable_h / ((int64_t)p->room_min_w * p->room_min_h);
}

/* 1 if two rooms of the minimum size and a corridor of corridor_min fit in a
 * row across the usable board on some axis. */
static int two_rooms_fit(int32_t usable_w, int32_t usable_h, const dg_chain_params *p)
{
    int64_t span_w = 2 * (int64_t)p->room_min_w + p->corridor_min + 2; /* two doors */
    int64_t span_h = 2 * (int64_t)p->room_min_h + p->corridor_min + 2;
    return (usable_w >= span_w && usable_h >= p->room_min_h) ||
           (usable_h >= span_h && usable_w >= p->room_min_w);
}

static dg_status check_params(const dg_grid *g, const dg_chain_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "chain: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "chain params", diag)) != DG_OK)
        return st;
    if ((st = check_rooms(diag, p)) ||
        (st = check_range(diag, "room width", p->room_min_w, p->room_max_w, DG_GRID_MAX_DIM)) ||
        (st = check_range(diag, "room height", p->room_min_h, p->room_max_h, DG_GRID_MAX_DIM)) ||
        (st = check_range(diag, "corridor length", p->corridor_min, p->corridor_max,
                          DG_GRID_MAX_DIM)) ||
        (st = check_choice(diag, "overlap", p->overlap, 0, 1)) ||
        (st = check_choice(diag, "max_tries", p->max_tries, 1, 1000)) ||
        (st = check_choice(diag, "on_stuck", p->on_stuck, 0, 1)) ||
        (st = check_choice(diag, "branch_chance (permille)", p->branch_chance, 0, 1000)) ||
        (st = check_choice(diag, "loop_chance (permille)", p->loop_chance, 0, 1000)) ||
        (st = check_choice(diag, "start", p->start, 0, 1)) ||
        (st = check_choice(diag, "border", p->border, 0, 1)) ||
        (st = check_choice(diag, "shapes (permille)", p->shapes, 0, 1000)))
        return st;
    if (p->loop_reach != 0 && (p->loop_reach < p->corridor_min || p->loop_reach > 2 * DG_GRID_MAX_DIM))
        return dgi_fail(diag, DG_E_INVALID,
                        "chain: loop_reach is %d: must be 0 (auto) or corridor_min (%d)..%d",
                        (int)p->loop_reach, (int)p->corridor_min, 2 * DG_GRID_MAX_DIM);
    int32_t usable_w = g->width - 2 * p->border, usable_h = g->height - 2 * p->border;
    if (usable_w < p->room_min_w || usable_h < p->room_min_h)
        return dgi_fail(diag, DG_E_TOO_SMALL,
                        "chain: a %dx%d grid%s cannot hold the smallest room (%dx%d interior)",
                        (int)g->width, (int)g->height, p->border ? " with its border wall" : "",
                        (int)p->room_min_w, (int)p->room_min_h);
    if (p->rooms_max == DG_CHAIN_MAX_ROOMS && p->rooms_min > rooms_capacity(usable_w, usable_h, p))
        return dgi_fail(diag, DG_E_INVALID,
                        "chain: rooms_min %d does not fit a %dx%d grid%s: its area holds at most %lld "
                        "rooms of the smallest size (%dx%d) without overlap (give rooms_max too "
                        "to ask for that many overlapping rooms)",
                        (int)p->rooms_min, (int)g->width, (int)g->height,
                        p->border ? " with its border wall" : "",
                        (long long)rooms_capacity(usable_w, usable_h, p), (int)p->room_min_w,
                        (int)p->room_min_h);
    if (rooms_needed(p) >= 2 && !two_rooms_fit(usable_w, usable_h, p))
        return dgi_fail(diag, DG_E_NOSPACE,
                        "chain: a %dx%d grid%s cannot hold two rooms of %dx%d joined by a "
                        "%d-cell corridor (a chain needs at least two)",
                        (int)g->width, (int)g->height, p->border ? " with its border wall" : "",
                        (int)p->room_min_w, (int)p->room_min_h, (int)p->corridor_min);
    return DG_OK;
}

/* The room count to aim for (check_rooms says how the ends resolve). */
/* 1 when the room count follows the area (not both ends of the range given). */
static int by_area(const dg_chain_params *p)
{
    return !p->rooms_min || p->rooms_max == DG_CHAIN_MAX_ROOMS;
}

static int32_t draw_room_count(const dg_grid *g, const dg_chain_params *p, dg_rng *rng)
{
    if (!by_area(p))
        return dgi_rng_range(rng, p->rooms_min, p->rooms_max);
    int64_t usable = (int64_t)(g->width - 2 * p->border) * (g->height - 2 * p->border);
    int64_t lo = DG_MAX(2, usable * 6 / 1000), hi = DG_MAX(lo, usable * 8 / 1000);
    if (p->rooms_min) /* given alone: up to the area's high end, never below it */
        return dgi_rng_range(rng, p->rooms_min, (int32_t)DG_MAX(p->rooms_min, DG_MIN(hi, p->rooms_max)));
    return dgi_rng_range(rng, (int32_t)DG_MIN(lo, p->rooms_max), (int32_t)DG_MIN(hi, p->rooms_max));
}

/* ---- grid painting ------------------------------------------------------------ */

/* 1 for the passable tiles this generator writes (it writes no tile above 7). */
static int open_tile(uint8_t t)
{
    const unsigned mask = 1u << DG_TILE_FLOOR | 1u << DG_TILE_CORRIDOR | 1u << DG_TILE_DOOR;
    return (int)(mask >> (t & 7u) & 1u);
}

static int inside(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height;
}

static int open_at(const dg_grid *g, int32_t x, int32_t y)
{
    return inside(g, x, y) && open_tile(DG_CELL(g, x, y));
}

/* The rectangle covering the straight leg a..b. */
static dg_rect leg_rect(dg_point a, dg_point b)
{
    dg_rect r = {DG_MIN(a.x, b.x), DG_MIN(a.y, b.y), 0, 0};
    r.w = DG_MAX(a.x, b.x) - r.x + 1;
    r.h = DG_MAX(a.y, b.y) - r.y + 1;
    return r;
}

/* 1 if every cell of r (inside the grid) is untouched rock. Because every open
 * cell is surrounded by non-void cells, this also proves r touches nothing. */
/* Nonzero if any of the n cells from p is not rock (DG_TILE_VOID is 0): the
 * row ORed eight or four bytes at a time, the last word overlapping, so a
 * rectangle's rows take the same few branches whatever its width. */
static uint64_t row_any(const uint8_t *p, int32_t n)
{
    uint64_t w8, acc = 0;
    uint32_t w4, v4;
    if (n >= 8)
    {
        for (int32_t i = 0; i + 8 <= n; i += 8)
            memcpy(&w8, p + i, 8), acc |= w8;
        memcpy(&w8, p + n - 8, 8);
        return acc | w8;
    }
    if (n >= 4)
    {
        memcpy(&w4, p, 4);
        memcpy(&v4, p + n - 4, 4);
        return w4 | v4;
    }
    return n > 0 ? (uint64_t)(p[0] | p[n / 2] | p[n - 1]) : 0;
}

static int rect_is_void(const dg_grid *g, dg_rect r)
{
    for (int32_t y = r.y; y < r.y + r.h; y++)
        if (row_any(&DG_CELL(g, r.x, y), r.w))
            return 0;
    return 1;
}

static void fill_floor(dg_grid *g, dg_rect r)
{
    for (int32_t y = r.y; y < r.y + r.h; y++)
        memset(&DG_CELL(g, r.x, y), DG_TILE_FLOOR, (size_t)r.w);
}

/* Corridor cells: rock and walls become corridor, open cells stay as they are. */
static void carve_leg(dg_grid *g, dg_rect r)
{
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
        {
            uint8_t *c = &DG_CELL(g, x, y);
            if (*c == DG_TILE_VOID || *c == DG_TILE_WALL)
                *c = DG_TILE_CORRIDOR;
        }
}

/* Rock becomes wall along n cells of a row (a branch-free loop). */
static void wall_span(uint8_t *row, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        row[i] = row[i] == DG_TILE_VOID ? (uint8_t)DG_TILE_WALL : row[i];
}

/* Walls on the rock of the one-cell ring around r (clipped to the grid). */
static void wall_ring(dg_grid *g, dg_rect r)
{
    int32_t x0 = DG_MAX(r.x - 1, 0), x1 = DG_MIN(r.x + r.w, g->width - 1);
    if (r.y >= 1)
        wall_span(&DG_CELL(g, x0, r.y - 1), x1 - x0 + 1);
    if (r.y + r.h < g->height)
        wall_span(&DG_CELL(g, x0, r.y + r.h), x1 - x0 + 1);
    for (int32_t y = r.y; y < r.y + r.h; y++)
    {
        if (r.x >= 1 && DG_CELL(g, r.x - 1, y) == DG_TILE_VOID)
            DG_CELL(g, r.x - 1, y) = DG_TILE_WALL;
        if (r.x + r.w < g->width && DG_CELL(g, r.x + r.w, y) == DG_TILE_VOID)
            DG_CELL(g, r.x + r.w, y) = DG_TILE_WALL;
    }
}

/* The border: nothing open ever reaches the outer ring, so it is all wall. */
static void wall_frame(dg_grid *g)
{
    memset(&DG_CELL(g, 0, 0), DG_TILE_WALL, (size_t)g->width);
    memset(&DG_CELL(g, 0, g->height - 1), DG_TILE_WALL, (size_t)g->width);
    for (int32_t y = 1; y < g->height - 1; y++)
        DG_CELL(g, 0, y) = DG_CELL(g, g->width - 1, y) = DG_TILE_WALL;
}

/* 1 if r (clipped to the grid) holds no BLOCK cell. */
static int clear_of_block(const dg_grid *g, dg_rect r)
{
    int32_t x0 = DG_MAX(r.x, 0), y0 = DG_MAX(r.y, 0);
    int32_t x1 = DG_MIN(r.x + r.w, g->width), y1 = DG_MIN(r.y + r.h, g->height);
    for (int32_t y = y0; y < y1; y++)
        if (memchr(&DG_CELL(g, x0, y), BLOCK, (size_t)DG_MAX(x1 - x0, 0)))
            return 0;
    return 1;
}

static int cell_clear(const dg_grid *g, dg_point p)
{
    return !inside(g, p.x, p.y) || DG_CELL(g, p.x, p.y) != BLOCK;
}

/* Reserved cells and their ring become BLOCK, which nothing opens. */
static void block_reserved(chain *c)
{
    dg_grid *g = c->g;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dgi_mask_at(c->reserved, x, y))
                for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, g->height - 1); yy++)
                    memset(&DG_CELL(g, DG_MAX(x - 1, 0), yy), BLOCK,
                           (size_t)(DG_MIN(x + 1, g->width - 1) - DG_MAX(x - 1, 0) + 1));
}

/* The caller's reserved cells back; the ring is wall beside open cells, else rock. */
static void restore_reserved(chain *c, const uint8_t *backup)
{
    dg_grid *g = c->g;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t *t = &DG_CELL(g, x, y);
            if (dgi_mask_at(c->reserved, x, y))
                *t = backup[(size_t)y * (size_t)g->width + (size_t)x];
            else if (*t == BLOCK)
            {
                int open = 0;
                for (int d = 0; d < 8; d++)
                {
                    int32_t xx = x + dgi_dir_dx[d], yy = y + dgi_dir_dy[d];
                    open |= inside(g, xx, yy) && !dgi_mask_at(c->reserved, xx, yy) &&
                            open_tile(DG_CELL(g, xx, yy));
                }
                *t = open ? (uint8_t)DG_TILE_WALL : (uint8_t)DG_TILE_VOID;
            }
        }
}

/* ---- bookkeeping ------------------------------------------------------------- */

#define GROW(c, field, cap, need)                                                        \
    do {                                                                                 \
        void *arr_ = (c)->field;                                                         \
        dg_status st_ = dgi_grow((c)->a, &arr_, &(c)->cap, (need), sizeof *(c)->field); \
        (c)->field = arr_;                                                               \
        if (st_ != DG_OK)                                                                \
            return st_;                                                                  \
    } while (0)

/* Room for `rooms` more rooms and corridors, each with two doors. */
static dg_status reserve(chain *c, int32_t rooms)
{
    GROW(c, rooms, room_cap, c->room_count + rooms);
    GROW(c, corridors, corridor_cap, c->corridor_count + rooms);
    GROW(c, doors, door_cap, c->door_count + 2 * rooms);
    return DG_OK;
}

static void chain_free(chain *c)
{
    dgi_free(c->a, c->rooms, (size_t)c->room_cap * sizeof *c->rooms);
    dgi_free(c->a, c->corridors, (size_t)c->corridor_cap * sizeof *c->corridors);
    dgi_free(c->a, c->doors, (size_t)c->door_cap * sizeof *c->doors);
    dgi_free(c->a, c->bucket, (size_t)c->bw * (size_t)c->bh * sizeof *c->bucket);
    dgi_free(c->a, c->partners, (size_t)c->partner_cap * sizeof *c->partners);
}

/* A door where corridor cor meets room, unless the cell is already open. */
static void open_door(chain *c, dg_point p, int32_t room, int32_t cor)
{
    uint8_t *cell = &DG_CELL(c->g, p.x, p.y);
    if (open_tile(*cell))
        return;
    *cell = DG_TILE_DOOR;
    dg_door d = {p, {DG_REF_ROOM, room}, {DG_REF_CORRIDOR, cor}};
    c->doors[c->door_count++] = d;
}

static int32_t bucket_of(const chain *c, dg_rect r)
{
    return (r.y + r.h / 2) / BUCKET * c->bw + (r.x + r.w / 2) / BUCKET;
}

static void add_room(chain *c, dg_rect rect, int32_t kind, int32_t parent, int enter)
{
    chain_room *cr = &c->rooms[c->room_count];
    memset(cr, 0, sizeof *cr);
    cr->room.rect = rect;
    cr->room.kind = kind;
    cr->room.prefab = -1;
    cr->room.parent = parent;
    cr->room.cells = rect.w * rect.h;
    cr->enter = enter;
    cr->next = -1;
    c->room_count++;
}

/* Puts room i at the head of its index cell: the index holds the rooms in
 * order as the loops are drawn, newest first in each cell. */
static void index_room(chain *c, int32_t i)
{
    int32_t b = bucket_of(c, c->rooms[i].room.rect);
    c->rooms[i].next = c->bucket[b];
    c->bucket[b] = i;
}

static int32_t add_corridor(chain *c, dg_point start, dg_point bend, dg_point end, int32_t from,
                            int32_t to)
{
    dg_corridor *k = &c->corridors[c->corridor_count];
    k->start = start;
    k->bend = bend;
    k->end = end;
    k->length = abs(bend.x - start.x) + abs(bend.y - start.y) + abs(end.x - bend.x) +
                abs(end.y - bend.y) + 1;
    k->from.kind = k->to.kind = DG_REF_ROOM;
    k->from.index = from;
    k->to.index = to;
    return c->corridor_count++;
}

/* ---- the chain ------------------------------------------------------------------ */

/* Cells between side d of r and the usable edge of the board. */
static int32_t space_ahead(const chain *c, dg_rect r, int d)
{
    switch (d)
    {
    case DG_DIR_N: return r.y - c->margin;
    case DG_DIR_S: return c->g->height - c->margin - (r.y + r.h);
    case DG_DIR_W: return r.x - c->margin;
    default: return c->g->width - c->margin - (r.x + r.w);
    }
}

static int32_t along_min(const chain *c, int d)
{
    return vertical(d) ? c->p->room_min_h : c->p->room_min_w;
}

/* Directions out of room i where the shortest corridor and smallest room fit,
 * never back the way the room was entered. */
static int dirs_out(const chain *c, dg_rect r, int enter, int *dirs)
{
    int n = 0;
    for (int d = 0; d < 4; d++)
    {
        if (enter >= 0 && d == opposite(enter))
            continue;
        if (space_ahead(c, r, d) >= c->p->corridor_min + 2 + along_min(c, d))
            dirs[n++] = d;
    }
    return n;
}

static int feasible_dirs(const chain *c, int32_t i, int *dirs)
{
    return dirs_out(c, c->rooms[i].room.rect, c->rooms[i].enter, dirs);
}

/* 1 if room r and its wall ring keep off BLOCK. */
static int room_spot_clear(const chain *c, dg_rect r)
{
    dg_rect ring = {r.x - 1, r.y - 1, r.w + 2, r.h + 2};
    return clear_of_block(c->g, ring);
}

/* The first room beside reserved cells: random spots, the drawn size then the
 * smallest, each with at least one way out; 0 if none is clear. */
static int site_spot(chain *c, dg_rect *r)
{
    const dg_grid *g = c->g;
    int32_t m = c->margin;
    for (int k = 0; k < SITE_SPOTS; k++)
    {
        dg_rect t = *r;
        if (k >= SITE_SPOTS / 2)
            t.w = c->p->room_min_w, t.h = c->p->room_min_h;
        t.x = dgi_rng_range(&c->site, m, g->width - m - t.w);
        t.y = dgi_rng_range(&c->site, m, g->height - m - t.h);
        int dirs[4];
        if (room_spot_clear(c, t) && (c->requested < 2 || dirs_out(c, t, -1, dirs) > 0))
        {
            *r = t;
            return 1;
        }
    }
    return 0;
}

static int first_room(chain *c)
{
    const dg_grid *g = c->g;
    int32_t m = c->margin;
    int32_t w = dgi_rng_range(&c->layout, c->p->room_min_w, c->max_w);
    int32_t h = dgi_rng_range(&c->layout, c->p->room_min_h, c->max_h);
    int32_t jx = (g->width - 2 * m - w) / 8, jy = (g->height - 2 * m - h) / 8;
    int32_t x = (g->width - w) / 2 + dgi_rng_range(&c->layout, -jx, jx);
    int32_t y = (g->height - h) / 2 + dgi_rng_range(&c->layout, -jy, jy);
    dg_rect r = {DG_MAX(m, DG_MIN(x, g->width - m - w)), DG_MAX(m, DG_MIN(y, g->height - m - h)),
                 w, h};
    int dirs[4];
    if (c->requested >= 2 && dirs_out(c, r, -1, dirs) == 0)
    {
        /* a small board: the smallest room in the corner leaves the most room
         * east and south, where check_params proved a second room fits */
        dg_rect corner = {m, m, c->p->room_min_w, c->p->room_min_h};
        r = corner;
    }
    if (c->reserved && !room_spot_clear(c, r) && !site_spot(c, &r))
        return 0;
    fill_floor(c->g, r);
    wall_ring(c->g, r);
    add_room(c, r, DG_ROOM_NORMAL, -1, -1);
    return 1;
}

/* Draws a corridor out of side d of src and the room at its end, all within
 * their ranges and the board (d must be feasible). */
static void draw_step(chain *c, dg_rng *rng, dg_rect src, int d, step *s)
{
    int v = vertical(d);
    int32_t space = space_ahead(c, src, d);
    int32_t amin = along_min(c, d), amax = v ? c->max_h : c->max_w;
    int32_t pmin = v ? c->p->room_min_w : c->p->room_min_h, pmax = v ? c->max_w : c->max_h;
    int32_t len = dgi_rng_range(rng, c->p->corridor_min,
                               DG_MIN(c->p->corridor_max, space - 2 - amin));
    int32_t along = dgi_rng_range(rng, amin, DG_MIN(amax, space - 2 - len));
    int32_t perp = dgi_rng_range(rng, pmin, pmax);
    int32_t t = v ? dgi_rng_range(rng, src.x, src.x + src.w - 1)
                  : dgi_rng_range(rng, src.y, src.y + src.h - 1);
    s->dir = d;
    s->door0.x = d == DG_DIR_E ? src.x + src.w : d == DG_DIR_W ? src.x - 1 : t;
    s->door0.y = d == DG_DIR_S ? src.y + src.h : d == DG_DIR_N ? src.y - 1 : t;
    s->start.x = s->door0.x + DX[d];
    s->start.y = s->door0.y + DY[d];
    s->end.x = s->door0.x + len * DX[d];
    s->end.y = s->door0.y + len * DY[d];
    s->door1.x = s->end.x + DX[d];
    s->door1.y = s->end.y + DY[d];
    /* slide the room along the entry side so that door1 opens into it */
    int32_t extent = v ? c->g->width : c->g->height;
    int32_t lo = DG_MAX(c->margin, t - perp + 1), hi = DG_MIN(extent - c->margin - perp, t);
    int32_t slide = dgi_rng_range(rng, lo, hi);
    int32_t nx = s->door1.x + DX[d], ny = s->door1.y + DY[d]; /* first room cell */
    if (v)
    {
        dg_rect r = {slide, d == DG_DIR_S ? ny : ny - along + 1, perp, along};
        s->room = r;
    }
    else
    {
        dg_rect r = {d == DG_DIR_E ? nx : nx - along + 1, slide, along, perp};
        s->room = r;
    }
}

static void paint_step(chain *c, int32_t src, const step *s, int overlapped)
{
    dg_rect leg = leg_rect(s->start, s->end);
    int32_t room = c->room_count;
    int room_hit = overlapped && !rect_is_void(c->g, s->room);
    carve_leg(c->g, leg);
    fill_floor(c->g, s->room);
    int32_t cor = add_corridor(c, s->start, s->end, s->end, src, room);
    open_door(c, s->door0, src, cor);
    open_door(c, s->door1, room, cor);
    wall_ring(c->g, leg);
    wall_ring(c->g, s->room);
    add_room(c, s->room, room_hit ? DG_ROOM_JUNCTION : DG_ROOM_NORMAL, src, s->dir);
}

/* 1 if a step keeps off BLOCK: its corridor, its room and both doors. */
static int step_clear(const chain *c, const step *s)
{
    return !c->reserved || (clear_of_block(c->g, leg_rect(s->start, s->end)) &&
                            clear_of_block(c->g, s->room) && cell_clear(c->g, s->door0) &&
                            cell_clear(c->g, s->door1));
}

static int step_on_rock(const chain *c, const step *s)
{
    return rect_is_void(c->g, leg_rect(s->start, s->end)) && rect_is_void(c->g, s->room);
}

/* Overlap allowed: up to STEP_CANDIDATES steps are drawn and the first on
 * untouched rock is kept, else the first drawn, so the chain spreads into
 * free space before it cuts into itself. Returns 1 if *s overlaps. n > 0
 * (callers stop when no direction is feasible), so the inline draw serves. */
static int draw_on_rock(chain *c, int32_t src, const int *dirs, int n, step *s)
{
    int have = 0; /* (around reserved cells the first clear step, else 2: none) */
    for (int k = 0; k < STEP_CANDIDATES; k++)
    {
        step t;
        draw_step(c, &c->layout, c->rooms[src].room.rect, dirs[dgi_rng_below(&c->layout, (uint32_t)n)], &t);
        if (!have && step_clear(c, &t))
            *s = t, have = 1;
        if (step_on_rock(c, &t))
        {
            *s = t;
            return 0;
        }
    }
    return have ? 1 : 2;
}

/* The newest room is boxed in by earlier ones: up to BOX_TRIES random earlier
 * rooms (max_tries if fewer) try to step onto rock instead, so the chain
 * carries on in free space before it piles onto itself. 1 if one did. */
static int leave_box(chain *c)
{
    int32_t tries = DG_MIN(BOX_TRIES, c->p->max_tries);
    for (int32_t k = 0; k < tries; k++)
    {
        int32_t j = (int32_t)dg_rng_below(&c->branch, (uint32_t)c->room_count);
        int dirs[4], n = feasible_dirs(c, j, dirs);
        if (n == 0)
            continue;
        step s;
        c->attempts++;
        if (!draw_on_rock(c, j, dirs, n, &s))
        {
            paint_step(c, j, &s, 0);
            return 1;
        }
    }
    return 0;
}

/* Tries to grow a corridor and a room out of room src; *placed says if it did. */
static dg_status try_step(chain *c, int32_t src, int *placed)
{
    int dirs[4];
    int n = feasible_dirs(c, src, dirs);
    *placed = 0;
    if (n == 0)
        return DG_OK;
    dg_status st = reserve(c, 1);
    if (st != DG_OK)
        return st;
    if (c->p->overlap == DG_CHAIN_OVERLAP_ALLOW)
    {
        step s;
        int overlapped = draw_on_rock(c, src, dirs, n, &s);
        c->attempts++;
        if (overlapped == 2) /* every step drawn met reserved cells */
        {
            c->failures++;
            return DG_OK;
        }
        if (overlapped && c->p->on_stuck == DG_CHAIN_STUCK_BRANCH && leave_box(c))
        {
            *placed = 1;
            return DG_OK;
        }
        c->overlaps += overlapped;
        paint_step(c, src, &s, overlapped);
        *placed = 1;
        return DG_OK;
    }
    for (int32_t k = 0; k < c->p->max_tries; k++)
    {
        step s;
        draw_step(c, &c->layout, c->rooms[src].room.rect, dirs[dgi_rng_below(&c->layout, (uint32_t)n)], &s);
        c->attempts++;
        if (!step_on_rock(c, &s) || !step_clear(c, &s))
        {
            c->failures++;
            continue;
        }
        paint_step(c, src, &s, 0);
        *placed = 1;
        return DG_OK;
    }
    return DG_OK;
}

/* ---- loops ------------------------------------------------------------------------ */

static dg_rect transpose_rect(dg_rect r)
{
    dg_rect t = {r.y, r.x, r.h, r.w};
    return t;
}

static dg_point transpose_point(dg_point p)
{
    dg_point t = {p.y, p.x};
    return t;
}

static int transpose_dir(int d) { return 3 - d; } /* N<->W, E<->S */

/* Routes a corridor out of side sa (E or W) of room a into side sb of room b:
 * straight if sb faces sa, else an L that bends once toward b. Returns 0 if the
 * rooms do not allow it. rng NULL only checks. */
static int route_across(dg_rect a, dg_rect b, int sa, int sb, dg_rng *rng, route *out)
{
    int32_t ax = sa == DG_DIR_E ? a.x + a.w + 1 : a.x - 2; /* first corridor column */
    int32_t alo = a.y, ahi = a.y + a.h - 1;                /* rows of a door on a */
    int32_t blo, bhi, ya, xb, yb;
    if (sb == opposite(sa))
    {
        int32_t bx = sb == DG_DIR_W ? b.x - 2 : b.x + b.w + 1;
        if (sa == DG_DIR_E ? bx < ax : bx > ax)
            return 0;
        alo = DG_MAX(alo, b.y);
        ahi = DG_MIN(ahi, b.y + b.h - 1);
        if (alo > ahi)
            return 0;
        if (!rng)
            return 1;
        ya = yb = dgi_rng_range(rng, alo, ahi);
        xb = bx;
    }
    else if (vertical(sb))
    {
        yb = sb == DG_DIR_N ? b.y - 2 : b.y + b.h + 1; /* last corridor row */
        if (sb == DG_DIR_N)
            ahi = DG_MIN(ahi, yb);
        else
            alo = DG_MAX(alo, yb);
        blo = b.x;
        bhi = b.x + b.w - 1;
        if (sa == DG_DIR_E)
            blo = DG_MAX(blo, ax);
        else
            bhi = DG_MIN(bhi, ax);
        if (alo > ahi || blo > bhi)
            return 0;
        if (!rng)
            return 1;
        ya = dgi_rng_range(rng, alo, ahi);
        xb = dgi_rng_range(rng, blo, bhi);
    }
    else
        return 0;
    out->start.x = ax;
    out->start.y = ya;
    out->bend.x = xb;
    out->bend.y = ya;
    out->end.x = xb;
    out->end.y = yb;
    out->door_a.x = ax - DX[sa];
    out->door_a.y = ya;
    out->door_b.x = xb - DX[sb];
    out->door_b.y = yb - DY[sb];
    return 1;
}

/* route_across for any sides: vertical exits are solved in the transposed frame. */
static int plan_route(dg_rect a, dg_rect b, int sa, int sb, dg_rng *rng, route *out)
{
    if (!vertical(sa))
        return route_across(a, b, sa, sb, rng, out);
    route t;
    if (!route_across(transpose_rect(a), transpose_rect(b), transpose_dir(sa), transpose_dir(sb),
                      rng, &t))
        return 0;
    if (rng)
    {
        out->door_a = transpose_point(t.door_a);
        out->start = transpose_point(t.start);
        out->bend = transpose_point(t.bend);
        out->end = transpose_point(t.end);
        out->door_b = transpose_point(t.door_b);
    }
    return 1;
}

static int in_usable(const chain *c, dg_point p)
{
    return p.x >= c->margin && p.y >= c->margin && p.x < c->g->width - c->margin &&
           p.y < c->g->height - c->margin;
}

static int rects_touch(dg_rect a, dg_rect b) /* with their wall rings */
{
    return a.x - 1 <= b.x + b.w && b.x - 1 <= a.x + a.w && a.y - 1 <= b.y + b.h &&
           b.y - 1 <= a.y + a.h;
}

static int32_t gap(dg_rect a, dg_rect b) /* Manhattan distance between the rectangles */
{
    int32_t gx = DG_MAX(0, DG_MAX(b.x - (a.x + a.w), a.x - (b.x + b.w)));
    int32_t gy = DG_MAX(0, DG_MAX(b.y - (a.y + a.h), a.y - (b.y + b.h)));
    return gx + gy;
}

/* 1 if j is within two corridors of i in the chain (parent, grandparent,
 * sibling): a loop there would save no walking. */
static int chain_near(const chain *c, int32_t i, int32_t j)
{
    int32_t p = c->rooms[i].room.parent;
    return j == i || j == p || (p >= 0 && j == c->rooms[p].room.parent) ||
           c->rooms[j].room.parent == p;
}

/* Earlier rooms a loop corridor out of room i could reach, in index order
 * (index cells row by row, the newest room first in each). The scan stops
 * after LOOP_LOOKS index cells and rooms, so a board piled with overlapping
 * rooms costs a bounded amount per loop, not one look at every earlier room. */
static dg_status find_partners(chain *c, int32_t i, int32_t *count)
{
    dg_rect a = c->rooms[i].room.rect;
    int32_t rx = c->reach + 4 + c->max_w, ry = c->reach + 4 + c->max_h;
    int32_t bx0 = DG_MAX(0, a.x - rx) / BUCKET, bx1 = DG_MIN(c->bw - 1, (a.x + a.w + rx) / BUCKET);
    int32_t by0 = DG_MAX(0, a.y - ry) / BUCKET, by1 = DG_MIN(c->bh - 1, (a.y + a.h + ry) / BUCKET);
    int32_t looks = 0;
    *count = 0;
    for (int32_t by = by0; by <= by1 && looks < LOOP_LOOKS; by++)
        for (int32_t bx = bx0; bx <= bx1 && ++looks <= LOOP_LOOKS; bx++)
            for (int32_t j = c->bucket[by * c->bw + bx]; j >= 0 && ++looks <= LOOP_LOOKS;
                 j = c->rooms[j].next)
            {
                dg_rect b = c->rooms[j].room.rect;
                if (chain_near(c, i, j) || rects_touch(a, b) || gap(a, b) > c->reach + 4)
                    continue;
                GROW(c, partners, partner_cap, *count + 1);
                c->partners[(*count)++] = j;
            }
    return DG_OK;
}

/* Draws a loop corridor from room i to room j that fits the board, the length
 * range and the overlap policy; 0 if none was found. */
static int draw_loop(chain *c, int32_t i, int32_t j, route *r)
{
    dg_rect a = c->rooms[i].room.rect, b = c->rooms[j].room.rect;
    int sides[16] = {0}, n = 0;
    for (int s = 0; s < 16; s++)
        if (plan_route(a, b, s >> 2, s & 3, NULL, r))
            sides[n++] = s;
    for (int k = 0; n > 0 && k < LOOP_DRAWS; k++)
    {
        int s = sides[dg_rng_below(&c->loop, (uint32_t)n)];
        plan_route(a, b, s >> 2, s & 3, &c->loop, r);
        c->attempts++;
        int32_t len = abs(r->bend.x - r->start.x) + abs(r->bend.y - r->start.y) +
                      abs(r->end.x - r->bend.x) + abs(r->end.y - r->bend.y) + 1;
        int ok = len >= c->p->corridor_min && len <= c->reach && in_usable(c, r->start) &&
                 in_usable(c, r->end);
        if (ok && c->p->overlap == DG_CHAIN_OVERLAP_FORBID)
            ok = rect_is_void(c->g, leg_rect(r->start, r->bend)) &&
                 rect_is_void(c->g, leg_rect(r->bend, r->end));
        if (ok && c->reserved)
            ok = clear_of_block(c->g, leg_rect(r->start, r->bend)) &&
                 clear_of_block(c->g, leg_rect(r->bend, r->end)) && cell_clear(c->g, r->door_a) &&
                 cell_clear(c->g, r->door_b);
        if (ok)
            return 1;
        c->failures++;
    }
    return 0;
}

/* Joins room i to a nearby earlier room with a straight or L-shaped corridor. */
static dg_status try_loop(chain *c, int32_t i)
{
    int32_t count;
    dg_status st = find_partners(c, i, &count);
    if (st != DG_OK || count == 0)
        return st;
    if ((st = reserve(c, 1)) != DG_OK)
        return st;
    for (int k = 0; k < LOOP_PARTNERS; k++)
    {
        int32_t j = c->partners[dg_rng_below(&c->loop, (uint32_t)count)];
        route r;
        if (!draw_loop(c, i, j, &r))
            continue;
        dg_rect leg1 = leg_rect(r.start, r.bend), leg2 = leg_rect(r.bend, r.end);
        carve_leg(c->g, leg1);
        carve_leg(c->g, leg2);
        int32_t cor = add_corridor(c, r.start, r.bend, r.end, i, j);
        c->loop_corridors++;
        open_door(c, r.door_a, i, cor);
        open_door(c, r.door_b, j, cor);
        wall_ring(c->g, leg1);
        wall_ring(c->g, leg2);
        return DG_OK;
    }
    return DG_OK;
}

/* ---- filling bare rock -------------------------------------------------------------- */

/* The largest square of untouched rock inside the usable board, in blocks
 * of 2x2 cells (one pass, two rows of run lengths, a quarter of the cells'
 * work); its side in cells, 0 if none. */
static int32_t bare_square(const chain *c, uint16_t *rows, dg_rect *sq)
{
    const dg_grid *g = c->g;
    int32_t x0 = c->margin, y0 = x0; /* the margin is the same on both axes */
    int32_t bw = (g->width - 2 * c->margin) / 2, bh = (g->height - 2 * c->margin) / 2;
    uint16_t *prev = rows + 1, *cur = rows + bw + 2; /* [-1] of each row stays 0 */
    int32_t best = 0;
    memset(rows, 0, (size_t)(2 * bw + 2) * sizeof *rows);
    for (int32_t by = 0; by < bh; by++)
    {
        const uint8_t *r0 = &DG_CELL(g, x0, y0 + 2 * by), *r1 = &DG_CELL(g, x0, y0 + 2 * by + 1);
        for (int32_t bx = 0; bx < bw; bx++)
        {
            int empty = (r0[2 * bx] | r0[2 * bx + 1] | r1[2 * bx] | r1[2 * bx + 1]) == 0;
            uint16_t m = DG_MIN(cur[bx - 1], DG_MIN(prev[bx], prev[bx - 1]));
            cur[bx] = empty ? (uint16_t)(m + 1) : 0;
            if (cur[bx] > best)
            {
                best = cur[bx];
                sq->x = x0 + 2 * (bx - best + 1), sq->y = y0 + 2 * (by - best + 1);
            }
        }
        uint16_t *t = prev;
        prev = cur, cur = t;
    }
    sq->w = sq->h = 2 * best;
    return 2 * best;
}

/* The FILL_PARTNERS rooms nearest r (by the gap between them), nearest first. */
static int32_t nearest_rooms(const chain *c, dg_rect r, int32_t *out)
{
    int32_t n = 0, d[FILL_PARTNERS];
    for (int32_t j = 0; j < c->room_count; j++)
    {
        int32_t dj = gap(r, c->rooms[j].room.rect), k = n < FILL_PARTNERS ? n++ : FILL_PARTNERS;
        for (; k > 0 && d[k - 1] > dj; k--)
            if (k < FILL_PARTNERS)
                d[k] = d[k - 1], out[k] = out[k - 1];
        if (k < FILL_PARTNERS)
            d[k] = dj, out[k] = j;
    }
    return n;
}

/* Direction from room r toward square sq when sq lies wholly beyond one of
 * r's sides (the first such of E, S, W, N from a drawn start), -1 if none. */
static int dir_toward(dg_rect r, dg_rect sq, int first)
{
    for (int k = 0; k < 4; k++)
    {
        int d = (first + k) & 3;
        if ((d == DG_DIR_E && sq.x >= r.x + r.w) || (d == DG_DIR_W && sq.x + sq.w <= r.x) ||
            (d == DG_DIR_S && sq.y >= r.y + r.h) || (d == DG_DIR_N && sq.y + sq.h <= r.y))
            return d;
    }
    return -1;
}

static int rects_overlap(dg_rect a, dg_rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* A chain step from one of the rooms nearest bare square sq toward it, whose
 * room lands nearer the square (the next step goes on from there), all on
 * rock; 0 (nothing changed) if none did. */
static int fill_square(chain *c, dg_rect sq)
{
    int32_t near[FILL_PARTNERS], n = nearest_rooms(c, sq, near);
    for (int32_t k = 0; k < n; k++)
    {
        const chain_room *src = &c->rooms[near[k]];
        int d = dir_toward(src->room.rect, sq, (int)dg_rng_below(&c->fill, 4));
        if (d < 0 || (src->enter >= 0 && d == opposite(src->enter)) ||
            space_ahead(c, src->room.rect, d) < c->p->corridor_min + 2 + along_min(c, d))
            continue;
        for (int t = 0; t < FILL_DRAWS; t++)
        {
            step s;
            draw_step(c, &c->fill, src->room.rect, d, &s);
            c->attempts++;
            if (gap(s.room, sq) < gap(src->room.rect, sq) && step_on_rock(c, &s) && step_clear(c, &s))
            {
                paint_step(c, near[k], &s, 0);
                return 1;
            }
            c->failures++;
        }
    }
    return 0;
}

/* Rooms in the largest squares of rock the chain left bare (over
 * FILL_PERMILLE of the board), each joined to a room nearby, so that no
 * stretch of the board stays empty. */
static dg_status fill_bare(chain *c)
{
    const dg_grid *g = c->g;
    if (!by_area(c->p))
        return DG_OK; /* both ends given: exactly that many rooms */
    int64_t area = (int64_t)g->width * g->height;
    size_t bytes = (2 * (size_t)g->width + 2) * sizeof(uint16_t);
    uint16_t *rows = dgi_alloc(c->a, bytes);
    if (!rows)
        return DG_E_NOMEM;
    dg_status st = DG_OK;
    for (int k = 0; k < FILL_MAX && c->room_count < c->p->rooms_max; k++)
    {
        dg_rect sq = {0, 0, 0, 0};
        int32_t side = bare_square(c, rows, &sq);
        if ((int64_t)side * side * 1000 <= area * FILL_PERMILLE || (st = reserve(c, 1)) != DG_OK)
            break;
        if (!fill_square(c, sq))
            break;
    }
    dgi_free(c->a, rows, bytes);
    return st;
}

/* ---- driver ---------------------------------------------------------------------- */

static dg_status grow_chain(chain *c)
{
    const dg_chain_params *p = c->p;
    dg_status st;
    if (!first_room(c))
        return DG_OK; /* reserved cells leave no spot: too few rooms, DG_E_NOSPACE */
    int32_t last = 0;
    while (c->room_count < c->requested)
    {
        int32_t src = last;
        if (c->room_count >= 2 && dg_rng_chance(&c->branch, p->branch_chance))
            src = (int32_t)dg_rng_below(&c->branch, (uint32_t)(c->room_count - 1));
        int placed;
        st = try_step(c, src, &placed);
        for (int32_t k = 0; st == DG_OK && !placed && p->on_stuck == DG_CHAIN_STUCK_BRANCH &&
                            k < p->max_tries; k++)
            st = try_step(c, (int32_t)dg_rng_below(&c->branch, (uint32_t)c->room_count), &placed);
        if (st != DG_OK || !placed)
            return st;
        last = c->room_count - 1;
    }
    return DG_OK;
}

/* Loops come after the whole chain, so that they never change where its rooms
 * go; room i looks for partners among rooms 0..i, as if drawn right after it. */
static dg_status add_loops(chain *c)
{
    dg_status st = DG_OK;
    for (int32_t i = 0; i < c->room_count && st == DG_OK; i++)
    {
        index_room(c, i);
        if (i > 0 && c->p->loop_chance > 0 && dg_rng_chance(&c->loop, c->p->loop_chance))
            st = try_loop(c, i);
    }
    return st;
}

/* A door stays a door only between two opposite open cells and two closed ones;
 * later rooms and corridors may have opened its flanks or covered it. */
static int door_intact(const dg_grid *g, dg_point p)
{
    if (DG_CELL(g, p.x, p.y) != DG_TILE_DOOR)
        return 0;
    int n = open_at(g, p.x, p.y - 1), s = open_at(g, p.x, p.y + 1);
    int e = open_at(g, p.x + 1, p.y), w = open_at(g, p.x - 1, p.y);
    return (n && s && !e && !w) || (e && w && !n && !s);
}

static void settle_doors(chain *c)
{
    int32_t kept = 0;
    for (int32_t i = 0; i < c->door_count; i++)
    {
        dg_point p = c->doors[i].pos;
        if (door_intact(c->g, p))
            c->doors[kept++] = c->doors[i];
        else if (DG_CELL(c->g, p.x, p.y) == DG_TILE_DOOR)
            DG_CELL(c->g, p.x, p.y) = DG_TILE_FLOOR;
    }
    c->door_count = kept;
}

/* ---- joins: corridors that overlaps ran into rooms -------------------------------- */

/* A corridor cell about to become floor, kept apart from room floor until every
 * join is decided; open_tile sees it as open (its low bits are a corridor). */
#define JOIN_FLOOR ((uint8_t)(0x80u | DG_TILE_CORRIDOR))

static int rect_holds(dg_rect r, dg_point p)
{
    return p.x >= r.x && p.y >= r.y && p.x < r.x + r.w && p.y < r.y + r.h;
}

/* The newest room whose rect holds p (p is room floor, so there is one):
 * through the index near p, or through every room when the index span is larger. */
static int32_t room_holding(const chain *c, dg_point p)
{
    int32_t bx0 = DG_MAX(0, p.x - c->max_w) / BUCKET, bx1 = DG_MIN(c->bw - 1, (p.x + c->max_w) / BUCKET);
    int32_t by0 = DG_MAX(0, p.y - c->max_h) / BUCKET, by1 = DG_MIN(c->bh - 1, (p.y + c->max_h) / BUCKET);
    int32_t best = -1;
    if ((int64_t)(bx1 - bx0 + 1) * (by1 - by0 + 1) > c->room_count)
        for (int32_t j = c->room_count - 1; j >= 0 && best < 0; j--)
            best = rect_holds(c->rooms[j].room.rect, p) ? j : -1;
    else
        for (int32_t by = by0; by <= by1; by++)
            for (int32_t bx = bx0; bx <= bx1; bx++)
                for (int32_t j = c->bucket[by * c->bw + bx]; j >= 0; j = c->rooms[j].next)
                    if (j > best && rect_holds(c->rooms[j].room.rect, p))
                        best = j;
    return best;
}

/* A corridor cell touching room floor (a join) becomes a door when it is a
 * plain passage into the room: open on two opposite sides only, the far one
 * not already a door, off the outer ring. Any other join (a corridor along a
 * room's side, a crossing) becomes floor, widening the room. Returns the
 * floor side's direction for a door, -1 for floor, -2 if (x, y) is no join. */
static int join_kind(const dg_grid *g, int32_t x, int32_t y)
{
    int into = -2, open = 0;
    const uint8_t *c = &DG_CELL(g, x, y);
    ptrdiff_t s = g->stride;
    if (x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1 && c[-s] != DG_TILE_FLOOR &&
        c[1] != DG_TILE_FLOOR && c[s] != DG_TILE_FLOOR && c[-1] != DG_TILE_FLOOR)
        return -2; /* most corridor cells touch no floor: four reads, no bounds per side */
    for (int d = 0; d < 4 && into < 0; d++)
        if (inside(g, x + DX[d], y + DY[d]) && DG_CELL(g, x + DX[d], y + DY[d]) == DG_TILE_FLOOR)
            into = d;
    if (into == -2)
        return -2;
    for (int d = 0; d < 4; d++)
        open += open_at(g, x + DX[d], y + DY[d]);
    int32_t bx = x - DX[into], by = y - DY[into]; /* the cell behind, away from the room */
    int ring = x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1;
    if (open == 2 && open_at(g, bx, by) && DG_CELL(g, bx, by) != DG_TILE_DOOR && !ring)
        return into;
    return -1;
}

/* Mends the joins along one leg of corridor k. */
static dg_status mend_leg(chain *c, dg_point a, dg_point b, int32_t k)
{
    dg_rect r = leg_rect(a, b);
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
        {
            if (DG_CELL(c->g, x, y) != DG_TILE_CORRIDOR)
                continue;
            int into = join_kind(c->g, x, y);
            if (into == -2)
                continue;
            if (into == -1)
            {
                DG_CELL(c->g, x, y) = JOIN_FLOOR;
                c->join_floors++;
                continue;
            }
            GROW(c, doors, door_cap, c->door_count + 1);
            dg_point pos = {x, y}, room = {x + DX[into], y + DY[into]};
            DG_CELL(c->g, x, y) = DG_TILE_DOOR;
            dg_door d = {pos, {DG_REF_ROOM, room_holding(c, room)}, {DG_REF_CORRIDOR, k}};
            c->doors[c->door_count++] = d;
        }
    return DG_OK;
}

static void floor_joins(chain *c, dg_point a, dg_point b)
{
    dg_rect r = leg_rect(a, b);
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
            if (DG_CELL(c->g, x, y) == JOIN_FLOOR)
                DG_CELL(c->g, x, y) = DG_TILE_FLOOR;
}

/* Every corridor cell that touches room floor becomes a door or floor. Only
 * rooms write DG_TILE_FLOOR before this, so floor means inside a room's rect. */
static dg_status mend_joins(chain *c)
{
    dg_status st = DG_OK;
    if (c->overlaps == 0 && c->loop_corridors == 0)
        return DG_OK; /* steps on rock touch nothing but their own doors */
    for (int32_t k = 0; k < c->corridor_count && st == DG_OK; k++)
    {
        const dg_corridor *q = &c->corridors[k];
        st = mend_leg(c, q->start, q->bend, k);
        if (st == DG_OK)
            st = mend_leg(c, q->bend, q->end, k);
    }
    for (int32_t k = 0; k < c->corridor_count && c->join_floors > 0; k++)
    {
        floor_joins(c, c->corridors[k].start, c->corridors[k].bend);
        floor_joins(c, c->corridors[k].bend, c->corridors[k].end);
    }
    return st;
}

/* The last touches on the tiles: the border frame, doors where corridors
 * meet rooms, and doors that overlaps broke turned to floor. */
static dg_status finish_tiles(chain *c)
{
    if (c->p->border)
        wall_frame(c->g);
    dg_status st = mend_joins(c);
    settle_doors(c);
    return st;
}

/* Marks met every room (other than `self`) whose rect meets rect a, through
 * the index near a, or through every room when the index span is larger. */
static void mark_met(chain *c, dg_rect a, int32_t self)
{
    int32_t bx0 = DG_MAX(0, a.x - c->max_w) / BUCKET, bx1 = DG_MIN(c->bw - 1, (a.x + a.w + c->max_w) / BUCKET);
    int32_t by0 = DG_MAX(0, a.y - c->max_h) / BUCKET, by1 = DG_MIN(c->bh - 1, (a.y + a.h + c->max_h) / BUCKET);
    if ((int64_t)(bx1 - bx0 + 1) * (by1 - by0 + 1) > c->room_count)
    {
        for (int32_t j = 0; j < c->room_count; j++)
            c->rooms[j].met |= j != self && rects_overlap(a, c->rooms[j].room.rect);
        return;
    }
    for (int32_t by = by0; by <= by1; by++)
        for (int32_t bx = bx0; bx <= bx1; bx++)
            for (int32_t j = c->bucket[by * c->bw + bx]; j >= 0; j = c->rooms[j].next)
                c->rooms[j].met |= j != self && rects_overlap(a, c->rooms[j].room.rect);
}

/* With `shapes`, rooms drawn with a shape that no other room nor corridor meets take it
 * once every corridor and door is in (their own stream: shapes never move
 * a room or a corridor). */
static void shape_rooms(chain *c)
{
    if (c->p->shapes == 0)
        return;
    for (int32_t i = 0; i < c->room_count; i++)
        mark_met(c, c->rooms[i].room.rect, i);
    for (int32_t k = 0; k < c->corridor_count; k++)
    {
        const dg_corridor *q = &c->corridors[k];
        mark_met(c, leg_rect(q->start, q->bend), -1);
        mark_met(c, leg_rect(q->bend, q->end), -1);
    }
    for (int32_t i = 0; i < c->room_count; i++)
    {
        dg_room *r = &c->rooms[i].room;
        dgi_shape s;
        dgi_shape_pick(&s, r->rect.w, r->rect.h, (1u << DGI_SHAPE_KINDS) - 1, c->p->shapes, &c->shape);
        if (s.kind == DG_SHAPE_RECT || r->kind != DG_ROOM_NORMAL || c->rooms[i].met)
            continue;
        r->shape = s.kind;
        r->cells = dgi_reshape_room(c->g, r->rect, &s);
    }
}

static dg_status fill_result(const chain *c, dg_result *r)
{
    dg_status st = dgi_result_reserve(r, c->room_count, c->corridor_count, c->door_count, 0);
    if (st != DG_OK)
        return st;
    for (int32_t i = 0; i < c->room_count; i++)
        r->rooms[i] = c->rooms[i].room;
    for (int32_t i = 0; i < c->corridor_count; i++)
        r->corridors[i] = c->corridors[i];
    for (int32_t i = 0; i < c->door_count; i++)
        r->doors[i] = c->doors[i];
    r->room_count = c->room_count;
    r->corridor_count = c->corridor_count;
    r->door_count = c->door_count;
    int32_t start = c->p->start == DG_CHAIN_START_FIRST ? 0 : c->room_count / 2;
    dg_point none = {-1, -1};
    dg_metrics *m = &r->metrics;
    /* the map's tiles are passable exactly when open_tile says so */
    st = dgi_result_finish_at(r, c->g, none, start, &m->loops, c->a);
    r->start_room = start; /* its centre may also lie in an earlier, overlapped room */
    if (st == DG_OK)
        st = dgi_result_exit_in_room(r, c->g, c->a);
    m->attempts = (int32_t)DG_MIN(c->attempts, INT32_MAX);
    m->failures = (int32_t)DG_MIN(c->failures, INT32_MAX);
    m->requested = c->requested;
    m->placed = c->room_count;
    m->stopped_early = c->room_count < c->requested;
    m->overlaps = c->overlaps;
    return st;
}

dg_status dg_chain_generate(dg_grid *grid, const dg_chain_params *params, uint64_t seed,
                            dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_chain_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_chain_generate(dg_grid *grid, const dg_chain_params *params, uint64_t seed,
                             const dgi_mask *reserved, dg_result *result,
                             const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    chain c;
    memset(&c, 0, sizeof c);
    c.g = grid;
    c.p = params;
    c.a = allocator;
    c.reserved = reserved;
    c.margin = params->border;
    c.max_w = DG_MIN(params->room_max_w, grid->width - 2 * c.margin);
    c.max_h = DG_MIN(params->room_max_h, grid->height - 2 * c.margin);
    c.reach = params->loop_reach ? params->loop_reach : 2 * params->corridor_max;
    dgi_rng_seed(&c.layout, seed, STREAM_LAYOUT);
    dgi_rng_seed(&c.branch, seed, STREAM_BRANCH);
    dgi_rng_seed(&c.loop, seed, STREAM_LOOP);
    dgi_rng_seed(&c.site, seed, STREAM_SITE);
    dgi_rng_seed(&c.fill, seed, STREAM_FILL);
    dgi_rng_seed(&c.shape, seed, STREAM_SHAPE);
    /* the room index serves loops and the doors of finish_tiles */
    {
        c.bw = (grid->width + BUCKET - 1) / BUCKET;
        c.bh = (grid->height + BUCKET - 1) / BUCKET;
        c.bucket = dgi_alloc(allocator, (size_t)c.bw * (size_t)c.bh * sizeof *c.bucket);
        if (!c.bucket)
            return dgi_fail(diag, DG_E_NOMEM, "chain: out of memory");
        memset(c.bucket, 0xFF, (size_t)c.bw * (size_t)c.bh * sizeof *c.bucket); /* all -1 */
    }
    /* Most maps need no allocation after this, so the grid is rarely left half done. */
    c.requested = draw_room_count(grid, params, &c.layout);
    int64_t likely = 1 + (int64_t)grid->width * grid->height / 8;
    st = reserve(&c, (int32_t)DG_MIN(c.requested, likely));
    if (st != DG_OK)
    {
        chain_free(&c);
        return dgi_fail(diag, st, "chain: out of memory");
    }
    /* A copy of the caller's cells, taken before the first write, so that a
     * later DG_E_NOMEM (a map outgrowing the reservation, or filling result)
     * can put the grid back as it was. */
    size_t row = (size_t)grid->width, backup_size = row * (size_t)grid->height;
    uint8_t *backup = dgi_alloc(allocator, backup_size);
    if (!backup)
    {
        chain_free(&c);
        return dgi_fail(diag, DG_E_NOMEM, "chain: out of memory");
    }
    for (int32_t y = 0; y < grid->height; y++)
        memcpy(backup + (size_t)y * row, &DG_CELL(grid, 0, y), row);
    dg_grid_fill(grid, DG_TILE_VOID);
    if (reserved)
        block_reserved(&c);
    st = grow_chain(&c);
    int32_t placed = c.room_count;
    if (st == DG_OK && placed < rooms_needed(params))
        st = DG_E_NOSPACE; /* the result was not touched yet */
    if (st == DG_OK)
        st = fill_bare(&c);
    if (st == DG_OK)
        st = add_loops(&c);
    if (st == DG_OK)
    {
        st = finish_tiles(&c);
        shape_rooms(&c);
        if (reserved)
            restore_reserved(&c, backup);
        if (st == DG_OK && result)
        {
            dgi_result_reset(result);
            st = fill_result(&c, result);
            if (st != DG_OK)
                dgi_result_reset(result);
        }
    }
    chain_free(&c);
    if (st != DG_OK)
        for (int32_t y = 0; y < grid->height; y++)
            memcpy(&DG_CELL(grid, 0, y), backup + (size_t)y * row, row);
    dgi_free(allocator, backup, backup_size);
    if (st == DG_E_NOSPACE)
        return dgi_fail(diag, st, "chain: placed %d of the %d rooms needed on a %dx%d grid "
                        "(stuck: a larger grid, smaller rooms or overlap allowed would help)",
                        (int)placed, (int)rooms_needed(params), (int)grid->width,
                        (int)grid->height);
    if (st != DG_OK)
        return dgi_fail(diag, st, "chain: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}
