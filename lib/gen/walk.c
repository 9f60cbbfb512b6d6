/* Drunkard's walk and tunnelers (docs/walk.md): walkers carve floor from the
 * centre of the grid until a floor target is reached. A walker that wanders
 * over carved floor too long starts again from a carved cell next to rock,
 * so the carved set stays connected and every step is paid for by new floor. */
#include "analysis/analysis.h"
#include "gen/gen.h"

/* Independent PRNG streams: the walk, and the rooms dropped along it. */
#define STREAM_WALK 0x77616C6B01ULL
#define STREAM_ROOM 0x77616C6B02ULL
enum {
    FORBIDDEN = 0xFF,  /* scratch tile: reserved or beside a reserved cell (never carved) */
    CUT = 0xFE,        /* scratch tile: floor being trimmed (still floor to the junction test) */
    STALE_LIMIT = 32,  /* steps over carved floor in a row before a walker starts again */
    RESTART_LOOKS = 8,    /* carved cells a restarting tunneler looks at for a clear start */
    RESTART_WINDOW = 256, /* newest frontier cells a restart mostly draws from */
    RESTART_FAR = 8,      /* one restart in this many draws from the whole frontier */
    ALONGSIDE = 4,        /* a tunnel keeps this many cells (three of rock) from a passage beside it */
    JOIN_REACH = 6,       /* a dead end digs on at most this far to reach other floor */
    DEAD_END_MAX = 12,    /* a dead-end passage longer than this goes back to rock */
    TIDY_ROUNDS = 8,      /* rounds of walking on after trimming, to win the floor back */
    TRIM_PASSES = 16,     /* trims in a row at most, each cutting what the last left too long */
    PAD = 8               /* bits of rock before cell 0 of a plane line (and at least as many after) */
};

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};
/* Set bits of a 4-bit direction mask, and its lowest set bit (0 for none). */
static const uint8_t DIR_COUNT[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
static const uint8_t LOWEST_DIR[16] = {0, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0};

typedef struct walker {
    int32_t x, y;
    int32_t dir;    /* DG_DIR_* of the last step */
    int32_t run;    /* tunneler: cells left in the current straight run */
    int32_t stale;  /* steps in a row that carved nothing */
    int32_t forced; /* 1: the next step goes `dir` (just restarted next to rock) */
} walker;

typedef struct drunk {
    const dg_walk_params *p;
    int mode, sym;             /* p->mode and p->symmetry, one load fewer on every step */
    const dg_allocator *a;
    const dgi_mask *reserved; /* NULL: no reserved cells */
    int32_t w, h;
    uint32_t deep_w, deep_h;   /* columns and rows at least two cells inside the edge */
    int32_t sx, sy;            /* where the walk starts (the centre without a mask) */
    uint8_t *cells;            /* w * h scratch tiles: VOID, FLOOR (then WALL) */
    size_t cell_count;
    /* The floor as bits (FLOOR and CUT cells), twice: by rows (line y holds
     * x at bit PAD + x) and by columns (line x holds y), so the cells beside
     * a step or around a cell are a shift away, whichever way the step goes. */
    uint64_t *rows, *cols;
    int32_t row_words, col_words; /* words per line */
    size_t plane_words;           /* both planes, one allocation */
    int nomem;                    /* the frontier could not grow: the walk fails */
    int32_t *frontier;         /* carved cells that may still touch rock (DGI_PACK(x, y)) */
    int32_t frontier_count;    /* from the front of the array */
    int32_t blocked_count;     /* tunnelers: frontier cells every step of which would run
                                * alongside floor, from the back of the same array */
    size_t frontier_cap;
    walker *walkers;
    dg_room *rooms;            int32_t room_count, room_cap;
    int64_t carved, target;    /* floor cells carved and aimed at */
    int64_t room_cells, room_budget; /* room cells written (images too) and their cap */
    int64_t steps, max_steps;
    int32_t min_x, min_y, max_x, max_y; /* bounding box of the floor, set after walking */
    /* trimming: tips of the passages cut in a pass, the cells the cuts
     * stopped at, and the tips the next pass looks at (a count of -1: the
     * list could not grow, and the next pass reads every dead end) */
    int32_t *cut_tips, *ends, *tips;
    int32_t cut_count, cut_cap, end_count, end_cap, tip_cap;
    dg_rng walk, room;
} drunk;

/* ---- parameters ------------------------------------------------------------ */

void dg_walk_defaults(dg_walk_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_walk_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_value(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "walk: %s is %d: must be %d..%d", what, (int)v,
                        (int)lo, (int)hi);
    return DG_OK;
}

static dg_status check_pair(dg_diag *diag, const char *lo_name, int32_t lo, const char *hi_name,
                            int32_t hi, int32_t limit_lo, int32_t limit_hi)
{
    dg_status st = check_value(diag, lo_name, lo, limit_lo, limit_hi);
    if (st == DG_OK)
        st = check_value(diag, hi_name, hi, limit_lo, limit_hi);
    if (st == DG_OK && lo > hi)
        return dgi_fail(diag, DG_E_INVALID, "walk: %s %d is above %s %d", lo_name, (int)lo,
                        hi_name, (int)hi);
    return st;
}

static dg_status check_params(const dg_grid *g, const dg_walk_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "walk: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "walk params", diag)) != DG_OK)
        return st;
    if ((st = check_value(diag, "mode", p->mode, 0, 1)) ||
        (st = check_value(diag, "target_floor (permille)", p->target_floor, 1, 1000)) ||
        (st = check_value(diag, "walkers", p->walkers, 1, DG_WALK_MAX_WALKERS)) ||
        (st = check_pair(diag, "step_min", p->step_min, "step_max", p->step_max, 1,
                         DG_WALK_MAX_STEP)) ||
        (st = check_value(diag, "turn_chance (permille)", p->turn_chance, 0, 1000)) ||
        (st = check_value(diag, "room_chance (permille)", p->room_chance, 0, 1000)) ||
        (st = check_pair(diag, "room_min", p->room_min, "room_max", p->room_max, 2,
                         DG_WALK_MAX_ROOM)) ||
        (st = check_value(diag, "symmetry", p->symmetry, 0, 3)) ||
        (st = check_value(diag, "max_steps", p->max_steps, 0, INT32_MAX)))
        return st;
    if ((int64_t)(g->width - 2) * (g->height - 2) < 2)
        return dgi_fail(diag, DG_E_NOSPACE,
                        "walk: a %dx%d grid has fewer than two cells inside its border ring "
                        "(the smallest grids are 4x3 and 3x4)",
                        (int)g->width, (int)g->height);
    return DG_OK;
}

/* ---- carving ---------------------------------------------------------------- */

static int inside_ring(const drunk *d, int32_t x, int32_t y)
{
    return x >= 1 && y >= 1 && x <= d->w - 2 && y <= d->h - 2;
}

/* A cell a walker may stand on: inside the ring and, with a mask, not forbidden. */
static int walkable(const drunk *d, int32_t x, int32_t y)
{
    return inside_ring(d, x, y) &&
           (!d->reserved || d->cells[(size_t)y * (size_t)d->w + (size_t)x] != FORBIDDEN);
}

/* ---- the floor planes ---------------------------------------------------------- */

static uint64_t *row_line(const drunk *d, int32_t y) { return d->rows + (size_t)y * (size_t)d->row_words; }
static uint64_t *col_line(const drunk *d, int32_t x) { return d->cols + (size_t)x * (size_t)d->col_words; }

/* The 64 bits of a line from bit pos on (a plane ends with a spare word). */
static DGI_ALWAYS_INLINE uint64_t bits_at(const uint64_t *line, int32_t pos)
{
    size_t i = (size_t)pos >> 6;
    unsigned off = (unsigned)pos & 63u;
    return line[i] >> off | (line[i + 1] << 1) << (63u - off);
}

/* Floor from cell c - r to c + r of a line, cell c at bit r. */
static DGI_ALWAYS_INLINE uint32_t line_window(const uint64_t *line, int32_t c, int32_t r)
{
    return (uint32_t)(bits_at(line, PAD + c - r) & ((2u << (2 * r)) - 1u));
}

static DGI_ALWAYS_INLINE void set_floor_bits(drunk *d, int32_t x, int32_t y)
{
    row_line(d, y)[(x + PAD) >> 6] |= 1ULL << ((x + PAD) & 63);
    col_line(d, x)[(y + PAD) >> 6] |= 1ULL << ((y + PAD) & 63);
}

static void clear_floor_bits(drunk *d, int32_t x, int32_t y)
{
    row_line(d, y)[(x + PAD) >> 6] &= ~(1ULL << ((x + PAD) & 63));
    col_line(d, x)[(y + PAD) >> 6] &= ~(1ULL << ((y + PAD) & 63));
}

/* The highest set bit of w (w != 0). */
static int32_t highest_bit64(uint64_t w)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(w);
#else
    int32_t i = 63;
    for (; !(w >> 63); w <<= 1)
        i--;
    return i;
#endif
}

/* Room for more frontier cells: the list starts near the floor target and
 * grows by half when carving outruns it (the blocked cells move to the new end). */
static int grow_frontier(drunk *d)
{
    size_t cap = d->frontier_cap + d->frontier_cap / 2 + 64;
    int32_t *fresh = dgi_alloc(d->a, cap * sizeof *fresh);
    if (!fresh)
        return 0;
    memcpy(fresh, d->frontier, (size_t)d->frontier_count * sizeof *fresh);
    memcpy(fresh + cap - (size_t)d->blocked_count,
           d->frontier + d->frontier_cap - (size_t)d->blocked_count,
           (size_t)d->blocked_count * sizeof *fresh);
    dgi_free(d->a, d->frontier, d->frontier_cap * sizeof *d->frontier);
    d->frontier = fresh;
    d->frontier_cap = cap;
    return 1;
}

static DGI_ALWAYS_INLINE void carve_one(drunk *d, int32_t x, int32_t y)
{
    size_t i = (size_t)y * (size_t)d->w + (size_t)x;
    if (d->cells[i] != DG_TILE_VOID)
        return;
    d->cells[i] = DG_TILE_FLOOR;
    set_floor_bits(d, x, y);
    d->carved++;
    if ((size_t)d->frontier_count + (size_t)d->blocked_count == d->frontier_cap && !grow_frontier(d))
    {
        d->nomem = 1;
        return;
    }
    d->frontier[d->frontier_count++] = DGI_PACK(x, y); /* each cell once */
}

/* Carves (x, y) and its mirror images (d->carved counts the new cells). The
 * images of a connected set are connected, and the centre cell touches its
 * own images, so symmetry keeps the floor in one piece. */
static DGI_ALWAYS_INLINE void carve(drunk *d, int32_t x, int32_t y)
{
    int sym = d->sym;
    carve_one(d, x, y);
    if (!sym)
        return;
    int32_t mx = d->w - 1 - x, my = d->h - 1 - y;
    if (sym & DG_WALK_SYM_X)
        carve_one(d, mx, y);
    if (sym & DG_WALK_SYM_Y)
        carve_one(d, x, my);
    if (sym == DG_WALK_SYM_XY)
        carve_one(d, mx, my);
}

static int floor_at(const drunk *d, int32_t x, int32_t y)
{
    return d->cells[(size_t)y * (size_t)d->w + (size_t)x] == DG_TILE_FLOOR;
}

/* 1 if (x, y) lies at least two cells inside the grid edge: its four
 * neighbours are inside the ring, so no bounds need checking. */
static DGI_ALWAYS_INLINE int deep_inside(const drunk *d, int32_t x, int32_t y)
{
    /* one unsigned compare a coordinate: below 2 wraps past any grid size */
    return (uint32_t)(x - 2) < d->deep_w && (uint32_t)(y - 2) < d->deep_h;
}

/* Directions whose next cell stays inside the ring, as a 4-bit mask. */
static DGI_ALWAYS_INLINE int open_dirs(const drunk *d, int32_t x, int32_t y)
{
    if (!d->reserved && deep_inside(d, x, y))
        return 15;
    int mask = 0;
    for (int k = 0; k < 4; k++)
        mask |= walkable(d, x + DX[k], y + DY[k]) << k;
    return mask;
}

/* Directions from (x, y) onto rock inside the ring. */
static DGI_ALWAYS_INLINE int rock_dirs(const drunk *d, int32_t x, int32_t y)
{
    if (deep_inside(d, x, y))
    {
        const uint8_t *c = d->cells + (size_t)y * (size_t)d->w + (size_t)x;
        ptrdiff_t w = d->w;
        return (c[-w] == DG_TILE_VOID) | (c[1] == DG_TILE_VOID) << 1 |
               (c[w] == DG_TILE_VOID) << 2 | (c[-1] == DG_TILE_VOID) << 3;
    }
    int mask = 0;
    for (int k = 0; k < 4; k++)
    {
        int32_t nx = x + DX[k], ny = y + DY[k];
        mask |= (inside_ring(d, nx, ny) &&
                 d->cells[(size_t)ny * (size_t)d->w + (size_t)nx] == DG_TILE_VOID) << k;
    }
    return mask;
}

/* A uniformly drawn set bit of mask (mask != 0). */
static int pick_dir(dg_rng *rng, int mask)
{
    /* NTH_DIR[mask] holds, two bits each, the directions of mask in order */
    static const uint8_t NTH_DIR[16] = {0x00, 0x00, 0x01, 0x04, 0x02, 0x08, 0x09, 0x24,
                                        0x03, 0x0C, 0x0D, 0x34, 0x0E, 0x38, 0x39, 0xE4};
    int k = (int)dgi_rng_below(rng, DIR_COUNT[mask]);
    return NTH_DIR[mask] >> (2 * k) & 3;
}

static DGI_ALWAYS_INLINE int runs_alongside(const drunk *d, int32_t x, int32_t y, int dir);

/* A tunneler's straight run; drunk walkers draw none, so the tunneler's
 * parameters never change a drunk map. */
static int32_t draw_run(drunk *d)
{
    if (d->mode != DG_WALK_TUNNELER)
        return 0;
    return dgi_rng_range(&d->walk, d->p->step_min, d->p->step_max);
}

/* 1 if a window across a step (its cell at bit ALONGSIDE) holds floor beside rock. */
static DGI_ALWAYS_INLINE int rock_beside_floor(uint32_t side)
{
    return !(side >> ALONGSIDE & 1u) && side != 0;
}

/* The directions in mask whose step from (x, y) a tunneler may take, one
 * test a direction written out (each folds to its own line's read). */
static int clear_dirs(const drunk *d, int32_t x, int32_t y, int mask)
{
    return (mask & 1 && !runs_alongside(d, x, y, DG_DIR_N)) |
           (mask & 2 && !runs_alongside(d, x, y, DG_DIR_E)) << 1 |
           (mask & 4 && !runs_alongside(d, x, y, DG_DIR_S)) << 2 |
           (mask & 8 && !runs_alongside(d, x, y, DG_DIR_W)) << 3;
}

/* An index into the frontier list: mostly among its newest RESTART_WINDOW
 * entries (cells carved lately, near the walkers and in cache), one time in
 * RESTART_FAR anywhere, so old frontier keeps growing too. */
static int32_t pick_frontier(drunk *d)
{
    uint32_t n = (uint32_t)d->frontier_count;
    if (n > RESTART_WINDOW && dgi_rng_below(&d->walk, RESTART_FAR) != 0)
        return (int32_t)(n - 1 - dgi_rng_below(&d->walk, RESTART_WINDOW));
    return (int32_t)dgi_rng_below(&d->walk, n);
}

/* Moves walker v to (x, y), facing one of the directions in mask. */
static void place_walker(drunk *d, walker *v, int32_t x, int32_t y, int mask)
{
    v->x = x, v->y = y;
    v->dir = pick_dir(&d->walk, mask);
    v->run = draw_run(d);
    v->stale = 0;
    v->forced = 1;
}

/* Moves walker v to a random carved cell next to rock, facing the rock, so its
 * next step carves. Cells found with no rock left around them leave the list
 * for good (each at most once: amortised O(1) per carved cell). A tunneler
 * looks at up to RESTART_LOOKS cells for one whose step would not run
 * alongside other floor, then takes any; a cell whose every step would
 * (floor only grows, so it stays so) moves to the blocked list at the far
 * end of the same array, drawn from only once the frontier is empty.
 * Returns 0 if no carved cell touches rock any more. */
static int restart(drunk *d, walker *v)
{
    int looks = d->mode == DG_WALK_TUNNELER ? RESTART_LOOKS : 0;
    while (d->frontier_count > 0)
    {
        int32_t k = pick_frontier(d);
        int32_t i = d->frontier[k], x = DGI_PX(i), y = DGI_PY(i);
        int rock = floor_at(d, x, y) ? rock_dirs(d, x, y) : 0, mask = rock;
        if (!mask || (looks > 0 && !(mask = clear_dirs(d, x, y, mask))))
        {
            d->frontier[k] = d->frontier[--d->frontier_count];
            if (rock)
                d->frontier[d->frontier_cap - 1 - (size_t)d->blocked_count++] = i;
            looks -= looks > 0;
            continue;
        }
        place_walker(d, v, x, y, mask);
        return 1;
    }
    while (d->blocked_count > 0)
    {
        size_t k = d->frontier_cap - 1 - dgi_rng_below(&d->walk, (uint32_t)d->blocked_count);
        int32_t i = d->frontier[k], x = DGI_PX(i), y = DGI_PY(i);
        int mask = floor_at(d, x, y) ? rock_dirs(d, x, y) : 0;
        if (mask)
        {
            place_walker(d, v, x, y, mask);
            return 1;
        }
        d->frontier[k] = d->frontier[d->frontier_cap - (size_t)d->blocked_count--];
    }
    return 0;
}

/* ---- rooms -------------------------------------------------------------------- */

static dg_status record_room(drunk *d, dg_rect r)
{
    for (int32_t i = d->room_count - 1; i >= 0 && i >= d->room_count - 3; i--)
        if (memcmp(&d->rooms[i].rect, &r, sizeof r) == 0)
            return DG_OK; /* a room that is its own mirror image */
    void *arr = d->rooms;
    dg_status st = dgi_grow(d->a, &arr, &d->room_cap, d->room_count + 1, sizeof *d->rooms);
    d->rooms = arr;
    if (st != DG_OK)
        return st;
    dg_room *q = &d->rooms[d->room_count++];
    memset(q, 0, sizeof *q);
    q->rect = r;
    q->kind = DG_ROOM_NORMAL;
    q->prefab = -1;
    q->parent = 0; /* the carved area, room 0 of the result */
    q->cells = r.w * r.h;
    return DG_OK;
}

/* 1 if no cell of r is forbidden (the forbidden set is symmetric, so the
 * images are clear too). */
static int room_clear(const drunk *d, dg_rect r)
{
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
            if (d->cells[(size_t)y * (size_t)d->w + (size_t)x] == FORBIDDEN)
                return 0;
    return 1;
}

/* A room holding (x, y), slid (never clipped below its size) to stay inside
 * the ring, with its mirror images; none where it would cover a forbidden cell. */
static dg_status drop_room(drunk *d, int32_t x, int32_t y)
{
    const dg_walk_params *p = d->p;
    dg_rect r;
    int32_t draw_w = dg_rng_range(&d->room, p->room_min, p->room_max);
    int32_t draw_h = dg_rng_range(&d->room, p->room_min, p->room_max);
    r.w = DG_MIN(draw_w, d->w - 2);
    r.h = DG_MIN(draw_h, d->h - 2);
    int32_t left = x - (int32_t)dgi_rng_below(&d->room, (uint32_t)r.w);
    int32_t top = y - (int32_t)dgi_rng_below(&d->room, (uint32_t)r.h);
    r.x = DG_MAX(1, DG_MIN(left, d->w - 1 - r.w));
    r.y = DG_MAX(1, DG_MIN(top, d->h - 1 - r.h));
    if (d->reserved && !room_clear(d, r))
        return DG_OK;
    for (int32_t yy = r.y; yy < r.y + r.h; yy++)
        for (int32_t xx = r.x; xx < r.x + r.w; xx++)
            carve(d, xx, yy);
    int sym = p->symmetry;
    dg_rect images[4] = {r, r, r, r};
    images[1].x = images[3].x = d->w - r.x - r.w;
    images[2].y = images[3].y = d->h - r.y - r.h;
    dg_status st = DG_OK;
    for (int k = 0; k < 4 && st == DG_OK; k++)
        if ((k & sym) == k) /* image k mirrors the axes of its bits */
        {
            st = record_room(d, images[k]);
            d->room_cells += (int64_t)r.w * r.h;
        }
    return st;
}

/* ---- walking ------------------------------------------------------------------ */

/* Drunk: any direction that stays inside the ring. */
static int drunk_dir(drunk *d, const walker *v)
{
    return pick_dir(&d->walk, open_dirs(d, v->x, v->y));
}

/* 1 if the step from (x, y) in dir would dig rock with floor up to ALONGSIDE
 * cells to its side: a tunnel running alongside another one, which would
 * leave a thin wall, a row of pillars or a band of parallel passages. */
static DGI_ALWAYS_INLINE int runs_alongside(const drunk *d, int32_t x, int32_t y, int dir)
{
    /* the cells beside the step lie across it: a column for east and west, a row otherwise */
    uint32_t side;
    switch (dir)
    {
    case DG_DIR_N: side = line_window(row_line(d, y - 1), x, ALONGSIDE); break;
    case DG_DIR_E: side = line_window(col_line(d, x + 1), y, ALONGSIDE); break;
    case DG_DIR_S: side = line_window(row_line(d, y + 1), x, ALONGSIDE); break;
    default: side = line_window(col_line(d, x - 1), y, ALONGSIDE); break;
    }
    return rock_beside_floor(side);
}

/* Tunneler: on along the run; at its end turn left or right (turn_chance) or
 * run on. Returns -1 when the tunnel ends: the ring ahead, or rock ahead that
 * lies beside floor (the tunnel would run alongside another). */
static int tunnel_dir(drunk *d, walker *v)
{
    int open = open_dirs(d, v->x, v->y), dir = v->dir;
    if (v->run <= 0)
    {
        int side = (1 << ((dir + 1) & 3) | 1 << ((dir + 3) & 3)) & open;
        if (side && dgi_rng_chance(&d->walk, d->p->turn_chance))
            dir = pick_dir(&d->walk, side);
        v->run = draw_run(d);
    }
    if (!(open >> dir & 1) || runs_alongside(d, v->x, v->y, dir))
        return -1;
    v->run--;
    return dir;
}

/* One step of walker v: choose, maybe drop a room at a turn, move, carve. */
static dg_status step(drunk *d, walker *v)
{
    int dir;
    if (v->forced)
    {
        dir = v->dir;
        v->forced = 0;
        v->run--;
    }
    else
        dir = d->mode == DG_WALK_DRUNK ? drunk_dir(d, v) : tunnel_dir(d, v);
    d->steps++;
    if (dir < 0) /* the tunnel ends: a step that carved nothing */
    {
        restart(d, v);
        return DG_OK;
    }
    int64_t before = d->carved;
    if (dir != v->dir && d->room_cells < d->room_budget && dgi_rng_chance(&d->room, d->p->room_chance))
    {
        dg_status st = drop_room(d, v->x, v->y);
        if (st != DG_OK)
            return st;
    }
    v->dir = dir;
    v->x += DX[dir];
    v->y += DY[dir];
    carve(d, v->x, v->y);
    v->stale = d->carved > before ? 0 : v->stale + 1;
    if (v->stale > STALE_LIMIT)
        restart(d, v);
    return DG_OK;
}

static dg_status walk_on(drunk *d);
static void shrink_bounds(drunk *d);

static dg_status walk_all(drunk *d)
{
    int32_t n = d->p->walkers, cx = d->sx, cy = d->sy;
    carve(d, cx, cy);
    for (int32_t i = 0; i < n; i++)
    {
        walker *v = &d->walkers[i];
        v->x = cx, v->y = cy;
        v->dir = (int32_t)dgi_rng_below(&d->walk, 4);
        v->run = draw_run(d);
        v->stale = v->forced = 0;
    }
    return walk_on(d);
}

/* Steps in turn until the target, the step bound, or no frontier is left. */
static dg_status walk_on(drunk *d)
{
    int32_t n = d->p->walkers;
    walker *walkers = d->walkers;
    const int64_t target = d->target, max_steps = d->max_steps; /* fixed while walking */
    /* the frontier empties only when reserved cells wall the floor in */
    while (d->carved < target && d->steps < max_steps &&
           d->frontier_count + d->blocked_count > 0 && !d->nomem)
        for (int32_t i = 0; i < n && d->carved < target && d->steps < max_steps; i++)
        {
            dg_status st = step(d, &walkers[i]);
            if (st != DG_OK)
                return st;
        }
    /* carving keeps no box (a cost on every cell): the floor's is read once here */
    d->min_x = 1, d->min_y = 1, d->max_x = d->w - 2, d->max_y = d->h - 2;
    shrink_bounds(d);
    return d->nomem ? DG_E_NOMEM : DG_OK;
}

/* ---- dead ends ---------------------------------------------------------------- */

/* Floor among the four neighbours of (x, y), a cell inside the ring, as a mask. */
static DGI_ALWAYS_INLINE int floor_dirs(const drunk *d, int32_t x, int32_t y)
{
    const uint8_t *c = d->cells + (size_t)y * (size_t)d->w + (size_t)x;
    size_t w = (size_t)d->w;
    return (c[-(ptrdiff_t)w] == DG_TILE_FLOOR) | (c[1] == DG_TILE_FLOOR) << 1 |
           (c[w] == DG_TILE_FLOOR) << 2 | (c[-1] == DG_TILE_FLOOR) << 3;
}

/* Rock cells to dig from (x, y) along dir before floor, 0 if no floor lies
 * within JOIN_REACH over walkable rock that no other passage runs beside. */
static int32_t gap_to_floor(const drunk *d, int32_t x, int32_t y, int dir)
{
    for (int32_t k = 1; k <= JOIN_REACH; k++)
    {
        int32_t cx = x + k * DX[dir], cy = y + k * DY[dir];
        if ((d->reserved || !deep_inside(d, cx, cy)) && !walkable(d, cx, cy))
            return 0;
        if (floor_at(d, cx, cy))
            return k - 1;
        if (runs_alongside(d, cx - DX[dir], cy - DY[dir], dir))
            return 0;
    }
    return 0;
}

/* Floor cells of word i of row y (y inside the ring) with exactly one floor
 * cell among their four neighbours, read off the row plane 64 at a time. */
static uint64_t dead_end_bits(const drunk *d, int32_t y, int32_t i)
{
    const uint64_t *row = row_line(d, y) + i;
    size_t words = (size_t)d->row_words;
    uint64_t up = row[-(ptrdiff_t)words], dn = row[words], mid = row[0];
    uint64_t west = mid << 1 | row[-1] >> 63, east = mid >> 1 | row[1] << 63;
    /* an odd count that is not three: no two of either pair */
    return mid & (up ^ dn ^ west ^ east) & ~((up & dn) | (west & east));
}

/* The dead end at (x, y), floor on side `around` only, digs on (ahead first,
 * then to a side) to the nearest floor within JOIN_REACH. */
static void join_dead_end(drunk *d, int32_t x, int32_t y, int around)
{
    int ahead = (LOWEST_DIR[around] + 2) & 3, best_dir = -1;
    int32_t best = JOIN_REACH;
    for (int turn = 0; turn < 3; turn++)
    {
        int dir = (ahead + (turn == 1 ? 1 : turn == 2 ? 3 : 0)) & 3;
        int32_t gap = gap_to_floor(d, x, y, dir);
        if (gap > 0 && gap < best)
            best = gap, best_dir = dir;
    }
    for (int32_t k = 1; best_dir >= 0 && k <= best; k++)
        carve(d, x + k * DX[best_dir], y + k * DY[best_dir]);
}

/* Each dead end of the tunnels, in row order, digs on to nearby floor: a loop
 * instead of a walk back. The dead ends of a word are read again after each
 * dig, as a dig may end or make the ones after it. */
static void join_dead_ends(drunk *d)
{
    for (int32_t y = d->min_y; y <= d->max_y; y++)
        for (int32_t i = 0; i < d->row_words; i++)
            for (uint64_t ends = dead_end_bits(d, y, i); ends;)
            {
                int32_t b = dgi_lowest_bit64(ends), x = i * 64 + b - PAD;
                int64_t before = d->carved;
                join_dead_end(d, x, y, floor_dirs(d, x, y));
                ends &= ends - 1;
                if (d->carved != before)
                    ends = dead_end_bits(d, y, i) & (~1ULL << b);
            }
}

/* 1 if (x, y) or one of its mirror images lies within one step of where the
 * walk began: trimming keeps the floor around the origin. */
static DGI_ALWAYS_INLINE int near_origin(const drunk *d, int32_t x, int32_t y)
{
    int sym = d->sym;
    if (!sym)
        return x >= d->sx - 1 && x <= d->sx + 1 && y >= d->sy - 1 && y <= d->sy + 1;
    for (int k = 0; k < 4; k++)
        if ((k & sym) == k)
        {
            int32_t ix = k & DG_WALK_SYM_X ? d->w - 1 - x : x, iy = k & DG_WALK_SYM_Y ? d->h - 1 - y : y;
            if (ix >= d->sx - 1 && ix <= d->sx + 1 && iy >= d->sy - 1 && iy <= d->sy + 1)
                return 1;
        }
    return 0;
}

/* 1 if a passage stops being a dead end at (x, y), a cell inside the ring:
 * a junction, a cell of a 2x2 block of floor (a room), or the origin. Cut
 * cells still count as floor (they are in the planes until the pass ends). */
static DGI_ALWAYS_INLINE int passage_ends(const drunk *d, int32_t x, int32_t y)
{
    uint32_t up = line_window(row_line(d, y - 1), x, 1), mid = line_window(row_line(d, y), x, 1);
    uint32_t dn = line_window(row_line(d, y + 1), x, 1);
    uint32_t n = up >> 1 & 1u, e = mid >> 2 & 1u, s = dn >> 1 & 1u, w = mid & 1u;
    if (n + e + s + w >= 3 || near_origin(d, x, y))
        return 1;
    return (n & e & up >> 2) | (e & s & dn >> 2) | (s & w & dn) | (w & n & up);
}

/* The cells of the dead end at (x, y) up to where its passage stops being
 * one, at most DEAD_END_MAX + 1 of them. */
static int32_t dead_end_length(const drunk *d, int32_t x, int32_t y)
{
    int32_t len = 0;
    int from = -1;
    while (len <= DEAD_END_MAX && !passage_ends(d, x, y))
    {
        int on = floor_dirs(d, x, y) & ~(from >= 0 ? 1 << from : 0);
        len++;
        if (!on)
            break;
        int dir = LOWEST_DIR[on];
        x += DX[dir], y += DY[dir], from = (dir + 2) & 3;
    }
    return len;
}

/* 1 if (x, y) has exactly one floor or cut cell among its four neighbours. */
static int plane_dead_end(const drunk *d, int32_t x, int32_t y)
{
    int32_t pos = x + PAD;
    return (int)(dead_end_bits(d, y, pos >> 6) >> (pos & 63) & 1u);
}

/* Pushes cell i onto a list; a list that cannot grow is marked full (-1). */
static void push_cell(drunk *d, int32_t **list, int32_t *count, int32_t *cap, int32_t i)
{
    if (*count < 0)
        return;
    void *arr = *list;
    if (dgi_grow(d->a, &arr, cap, *count + 1, sizeof **list) != DG_OK)
    {
        *count = -1;
        return;
    }
    *list = arr;
    (*list)[(*count)++] = i;
}

/* The dead end at (x, y), if longer than DEAD_END_MAX, goes back to rock up
 * to its junction: its cells become CUT, its tip goes on the cut list and
 * the cell it stopped at on the list of ends, where the next pass looks. */
static void cut_dead_end(drunk *d, int32_t x, int32_t y)
{
    if (!floor_at(d, x, y) || DIR_COUNT[floor_dirs(d, x, y)] != 1 || !plane_dead_end(d, x, y) ||
        dead_end_length(d, x, y) <= DEAD_END_MAX)
        return;
    int32_t cx = x, cy = y;
    while (!passage_ends(d, cx, cy) && DIR_COUNT[floor_dirs(d, cx, cy)] == 1)
    {
        int dir = LOWEST_DIR[floor_dirs(d, cx, cy)];
        d->cells[(size_t)cy * (size_t)d->w + (size_t)cx] = CUT;
        d->carved--;
        cx += DX[dir], cy += DY[dir];
    }
    push_cell(d, &d->cut_tips, &d->cut_count, &d->cut_cap, DGI_PACK(x, y));
    push_cell(d, &d->ends, &d->end_count, &d->end_cap, DGI_PACK(cx, cy));
}

/* Cut cells go back to rock, each cut passage followed from its tip (a cut
 * cell's only cut neighbours are its passage's: a third floor neighbour
 * would have made it a junction); every row of the floor's box is read
 * instead when the tip list could not grow. */
static void clear_cut(drunk *d)
{
    for (int32_t k = 0; k < d->cut_count; k++)
    {
        int32_t x = DGI_PX(d->cut_tips[k]), y = DGI_PY(d->cut_tips[k]);
        for (int more = 1; more;)
        {
            d->cells[(size_t)y * (size_t)d->w + (size_t)x] = DG_TILE_VOID;
            clear_floor_bits(d, x, y);
            more = 0;
            for (int dir = 0; dir < 4 && !more; dir++)
                if (d->cells[(size_t)(y + DY[dir]) * (size_t)d->w + (size_t)(x + DX[dir])] == CUT)
                    x += DX[dir], y += DY[dir], more = 1;
        }
    }
    for (int32_t y = d->min_y; d->cut_count < 0 && y <= d->max_y; y++)
        for (int32_t i = 0; i < d->row_words; i++)
            for (uint64_t bits = row_line(d, y)[i]; bits; bits &= bits - 1)
            {
                int32_t x = i * 64 + dgi_lowest_bit64(bits) - PAD;
                if (d->cells[(size_t)y * (size_t)d->w + (size_t)x] == CUT)
                {
                    d->cells[(size_t)y * (size_t)d->w + (size_t)x] = DG_TILE_VOID;
                    clear_floor_bits(d, x, y);
                }
            }
}

/* Every dead end, in row order, looked at by cut_dead_end. */
static void cut_all_dead_ends(drunk *d)
{
    for (int32_t y = d->min_y; y <= d->max_y; y++)
        for (int32_t i = 0; i < d->row_words; i++)
            for (uint64_t ends = dead_end_bits(d, y, i); ends; ends &= ends - 1)
                cut_dead_end(d, i * 64 + dgi_lowest_bit64(ends) - PAD, y);
}

/* The tip of the passage from (x, y) on in direction dir, if one lies within
 * DEAD_END_MAX + 1 cells before the passage ends; -1 if none. */
static int32_t tip_along(const drunk *d, int32_t x, int32_t y, int dir)
{
    for (int32_t k = 0; k <= DEAD_END_MAX; k++)
    {
        x += DX[dir], y += DY[dir];
        if (passage_ends(d, x, y))
            return -1;
        int on = floor_dirs(d, x, y) & ~(1 << ((dir + 2) & 3));
        if (!on)
            return DGI_PACK(x, y);
        dir = LOWEST_DIR[on];
    }
    return -1;
}

/* The dead ends the last pass may have made too long: a cut changes a
 * passage only where it stopped, at a junction that lost a branch, so only
 * the tips within reach of those cells are looked at (a tip farther off was
 * too long before, and cut). The same cuts as a pass over every dead end. */
static void cut_near_ends(drunk *d)
{
    int32_t tips = 0;
    for (int32_t k = 0; k < d->end_count && tips >= 0; k++)
    {
        int32_t x = DGI_PX(d->ends[k]), y = DGI_PY(d->ends[k]);
        if (!floor_at(d, x, y) || passage_ends(d, x, y))
            continue;
        int on = floor_dirs(d, x, y);
        if (DIR_COUNT[on] == 1) /* the junction is now a tip itself */
            push_cell(d, &d->tips, &tips, &d->tip_cap, d->ends[k]);
        for (int dir = 0; dir < 4 && DIR_COUNT[on] == 2; dir++)
        {
            int32_t tip = on >> dir & 1 ? tip_along(d, x, y, dir) : -1;
            if (tip >= 0)
                push_cell(d, &d->tips, &tips, &d->tip_cap, tip);
        }
    }
    d->end_count = 0;
    if (tips < 0)
    {
        cut_all_dead_ends(d);
        return;
    }
    for (int32_t k = 0; k < tips; k++)
        cut_dead_end(d, DGI_PX(d->tips[k]), DGI_PY(d->tips[k]));
}

/* Dead ends longer than DEAD_END_MAX go back to rock up to their junction,
 * a long walk back to nothing being worse than less floor, in passes while
 * a pass cuts something (a junction whose other branch was cut joins two
 * short dead ends into one that may be too long). Cut cells count as floor
 * until the pass ends, so the result does not hang on the scan order (and
 * stays symmetric). The first pass reads every dead end, the next ones only
 * those near where the last pass stopped cutting. */
static void trim_until_short(drunk *d)
{
    d->end_count = 0;
    for (int pass = 0; pass < TRIM_PASSES; pass++)
    {
        int64_t before = d->carved;
        int full = pass == 0 || d->end_count < 0;
        d->cut_count = 0;
        if (full)
        {
            d->end_count = 0;
            cut_all_dead_ends(d);
        }
        else
            cut_near_ends(d);
        clear_cut(d);
        if (d->carved == before)
            break;
    }
}

/* The floor's bounding box, read off the row plane in the rows it held. */
static void shrink_bounds(drunk *d)
{
    int32_t x0 = d->max_x, y0 = d->max_y, x1 = d->min_x, y1 = d->min_y;
    for (int32_t y = d->min_y; y <= d->max_y; y++)
    {
        const uint64_t *row = row_line(d, y);
        int32_t first = 0, last = d->row_words - 1;
        while (first <= last && !row[first])
            first++;
        if (first > last)
            continue;
        while (!row[last])
            last--;
        x0 = DG_MIN(x0, first * 64 + dgi_lowest_bit64(row[first]) - PAD);
        x1 = DG_MAX(x1, last * 64 + highest_bit64(row[last]) - PAD);
        y0 = DG_MIN(y0, y), y1 = DG_MAX(y1, y);
    }
    d->min_x = x0, d->min_y = y0, d->max_x = x1, d->max_y = y1;
}

/* Trimmed cells leave the frontier list, so a cell carved again is listed
 * once and the list keeps within its interior-sized array. */
static void drop_trimmed_frontier(drunk *d)
{
    int32_t kept = 0;
    for (int32_t k = 0; k < d->frontier_count; k++)
        if (floor_at(d, DGI_PX(d->frontier[k]), DGI_PY(d->frontier[k])))
            d->frontier[kept++] = d->frontier[k];
    d->frontier_count = kept;
    int32_t *blocked = d->frontier + d->frontier_cap - d->blocked_count;
    kept = 0;
    for (int32_t k = 0; k < d->blocked_count; k++)
        if (floor_at(d, DGI_PX(blocked[k]), DGI_PY(blocked[k])))
            blocked[kept++] = blocked[k];
    memmove(d->frontier + d->frontier_cap - kept, blocked, (size_t)kept * sizeof *blocked);
    d->blocked_count = kept;
}

/* Dead ends joined or trimmed, then the walkers start again from the
 * frontier to win back trimmed floor, for at most TIDY_ROUNDS rounds. */
static dg_status tidy_dead_ends(drunk *d)
{
    dg_status st = DG_OK;
    for (int round = 0; st == DG_OK; round++)
    {
        join_dead_ends(d);
        trim_until_short(d);
        if (round == TIDY_ROUNDS || d->carved >= d->target || d->steps >= d->max_steps)
            break;
        drop_trimmed_frontier(d);
        for (int32_t i = 0; i < d->p->walkers; i++)
            restart(d, &d->walkers[i]);
        st = walk_on(d);
    }
    shrink_bounds(d);
    return st;
}

/* ---- output ------------------------------------------------------------------- */

/* Floor in word i of rows y - 1 .. y + 1 (rows outside the grid hold none). */
static uint64_t floor_near_row(const drunk *d, int32_t y, int32_t i)
{
    uint64_t bits = row_line(d, y)[i];
    if (y > 0)
        bits |= row_line(d, y - 1)[i];
    if (y < d->h - 1)
        bits |= row_line(d, y + 1)[i];
    return bits;
}

/* Rock with floor among its eight neighbours becomes wall: per row of the
 * floor's box and its ring, the floor of three rows spread one cell to
 * each side, less the floor itself, 64 cells a word. */
static void add_walls(drunk *d)
{
    for (int32_t y = d->min_y - 1; y <= d->max_y + 1; y++)
    {
        uint8_t *out = d->cells + (size_t)y * (size_t)d->w;
        const uint64_t *row = row_line(d, y);
        uint64_t before = 0, here = floor_near_row(d, y, 0);
        for (int32_t i = 0; i < d->row_words; i++)
        {
            uint64_t after = i + 1 < d->row_words ? floor_near_row(d, y, i + 1) : 0;
            uint64_t near = here | here << 1 | before >> 63 | here >> 1 | after << 63;
            for (uint64_t wall = near & ~row[i]; wall; wall &= wall - 1)
                out[i * 64 + dgi_lowest_bit64(wall) - PAD] = DG_TILE_WALL;
            before = here, here = after;
        }
    }
}

/* The start: the centre of the dropped room farthest by walking from where
 * the walk began (the farthest floor cell when no room was dropped), so the
 * start sits at one end of the map and the exit, the cell farthest from it,
 * near the other. */
static dg_status far_start(const drunk *d, const dg_grid *view, dg_point *start)
{
    size_t n = d->cell_count;
    int32_t *dist = dgi_alloc(d->a, n * sizeof *dist), *queue = dgi_alloc(d->a, n * sizeof *queue);
    dg_status st = dist && queue ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        int32_t far = dgi_bfs(view, d->sy * d->w + d->sx, dist, queue), best = -1;
        start->x = far % d->w, start->y = far / d->w;
        for (int32_t i = 0; i < d->room_count; i++)
        {
            dg_point c = {d->rooms[i].rect.x + d->rooms[i].rect.w / 2,
                          d->rooms[i].rect.y + d->rooms[i].rect.h / 2};
            int32_t at = dist[c.y * d->w + c.x];
            if (at > best)
                best = at, *start = c;
        }
    }
    dgi_free(d->a, dist, dist ? n * sizeof *dist : 0);
    dgi_free(d->a, queue, queue ? n * sizeof *queue : 0);
    return st;
}

/* The result in a fresh dg_result (the caller's stays as it was until success). */
static dg_status fill_result(const drunk *d, dg_result *out)
{
    dg_status st = dgi_result_reserve(out, d->room_count + 1, 0, 0, 0);
    if (st != DG_OK)
        return st;
    dg_room *cave = &out->rooms[0];
    memset(cave, 0, sizeof *cave);
    cave->rect.x = d->min_x;
    cave->rect.y = d->min_y;
    cave->rect.w = d->max_x - d->min_x + 1;
    cave->rect.h = d->max_y - d->min_y + 1;
    cave->kind = DG_ROOM_CAVE;
    cave->prefab = -1;
    cave->parent = -1;
    cave->cells = (int32_t)d->carved;
    for (int32_t i = 0; i < d->room_count; i++)
        out->rooms[i + 1] = d->rooms[i];
    out->room_count = d->room_count + 1;
    dg_grid view = {d->cells, d->w, d->h, d->w};
    dg_point start;
    st = far_start(d, &view, &start);
    dg_metrics *m = &out->metrics;
    if (st == DG_OK)
        st = dgi_result_finish_at(out, &view, start, 0, &m->loops, d->a);
    m->attempts = (int32_t)DG_MIN(d->steps, INT32_MAX);
    m->requested = (int32_t)d->target;
    m->placed = (int32_t)d->carved;
    m->stopped_early = d->carved < d->target;
    return st;
}

static void drunk_free(drunk *d)
{
    dgi_free(d->a, d->cells, d->cell_count);
    dgi_free(d->a, d->frontier, d->frontier_cap * sizeof *d->frontier);
    dgi_free(d->a, d->rows, d->rows ? d->plane_words * sizeof *d->rows : 0);
    dgi_free(d->a, d->walkers, (size_t)d->p->walkers * sizeof *d->walkers);
    dgi_free(d->a, d->rooms, (size_t)d->room_cap * sizeof *d->rooms);
    dgi_free(d->a, d->cut_tips, (size_t)d->cut_cap * sizeof *d->cut_tips);
    dgi_free(d->a, d->ends, (size_t)d->end_cap * sizeof *d->ends);
    dgi_free(d->a, d->tips, (size_t)d->tip_cap * sizeof *d->tips);
}

/* The bound on steps: each walker's steps over carved floor come in runs of at
 * most STALE_LIMIT, each ended by a step that carves, so (STALE_LIMIT + 1) per
 * carved cell plus STALE_LIMIT per walker always reach the target. */
static int64_t auto_steps(int64_t interior, int32_t walkers)
{
    return (STALE_LIMIT + 1) * interior + (int64_t)STALE_LIMIT * walkers;
}

static dg_status setup(drunk *d, const dg_grid *g, const dg_walk_params *p, uint64_t seed,
                       const dg_allocator *a)
{
    memset(d, 0, sizeof *d);
    d->p = p;
    d->mode = p->mode;
    d->sym = p->symmetry;
    d->a = a;
    d->w = g->width;
    d->h = g->height;
    d->deep_w = (uint32_t)DG_MAX(d->w - 4, 0);
    d->deep_h = (uint32_t)DG_MAX(d->h - 4, 0);
    int64_t cells = (int64_t)g->width * g->height, interior = (int64_t)(d->w - 2) * (d->h - 2);
    d->target = DG_MIN(DG_MAX(2, cells * p->target_floor / 1000), interior);
    d->room_budget = d->target;
    d->max_steps = p->max_steps ? p->max_steps : auto_steps(interior, p->walkers);
    d->min_x = d->w, d->min_y = d->h, d->max_x = d->max_y = -1;
    d->sx = (d->w - 1) / 2, d->sy = (d->h - 1) / 2;
    dgi_rng_seed(&d->walk, seed, STREAM_WALK);
    dgi_rng_seed(&d->room, seed, STREAM_ROOM);
    d->cell_count = (size_t)cells;
    /* the frontier holds floor cells: room for the target, a quarter more
     * (joins overshoot it) and the last room with its images, more only if
     * carving outruns that */
    int64_t images = p->symmetry == DG_WALK_SYM_XY ? 4 : p->symmetry ? 2 : 1;
    int64_t room = (int64_t)p->room_max * p->room_max * images;
    d->frontier_cap = (size_t)DG_MIN(interior, d->target + d->target / 4 + room + 64);
    d->row_words = (d->w + 2 * PAD + 63) / 64;
    d->col_words = (d->h + 2 * PAD + 63) / 64;
    /* both planes and a spare word, which bits_at may read past the last line */
    d->plane_words = (size_t)d->h * (size_t)d->row_words + (size_t)d->w * (size_t)d->col_words + 1;
    d->cells = dgi_calloc(a, d->cell_count, 1);
    d->rows = dgi_calloc(a, d->plane_words, sizeof *d->rows);
    d->cols = d->rows ? d->rows + (size_t)d->h * (size_t)d->row_words : NULL;
    d->frontier = dgi_alloc(a, d->frontier_cap * sizeof *d->frontier);
    d->walkers = dgi_alloc(a, (size_t)p->walkers * sizeof *d->walkers);
    return d->cells && d->rows && d->frontier && d->walkers ? DG_OK : DG_E_NOMEM;
}

/* ---- reserved cells --------------------------------------------------------------- */

/* Marks (x, y) and its mirror images forbidden, so the forbidden set is as
 * symmetric as the walk and every image of a carved cell can be carved too. */
static void forbid(drunk *d, int32_t x, int32_t y)
{
    int32_t mx = d->w - 1 - x, my = d->h - 1 - y;
    int sym = d->sym;
    d->cells[(size_t)y * (size_t)d->w + (size_t)x] = FORBIDDEN;
    if (sym & DG_WALK_SYM_X)
        d->cells[(size_t)y * (size_t)d->w + (size_t)mx] = FORBIDDEN;
    if (sym & DG_WALK_SYM_Y)
        d->cells[(size_t)my * (size_t)d->w + (size_t)x] = FORBIDDEN;
    if (sym == DG_WALK_SYM_XY)
        d->cells[(size_t)my * (size_t)d->w + (size_t)mx] = FORBIDDEN;
}

/* The reserved cells and their ring are forbidden; returns the walkable
 * cells left inside the ring. */
static int64_t forbid_reserved(drunk *d)
{
    for (int32_t y = 0; y < d->h; y++)
        for (int32_t x = 0; x < d->w; x++)
            if (dgi_mask_at(d->reserved, x, y))
                for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, d->h - 1); yy++)
                    for (int32_t xx = DG_MAX(x - 1, 0); xx <= DG_MIN(x + 1, d->w - 1); xx++)
                        forbid(d, xx, yy);
    int64_t left = 0;
    for (int32_t y = 1; y < d->h - 1; y++)
        for (int32_t x = 1; x < d->w - 1; x++)
            left += d->cells[(size_t)y * (size_t)d->w + (size_t)x] != FORBIDDEN;
    return left;
}

/* The start: the walkable cell nearest the centre (ties in row order) with a
 * walkable neighbour, so the floor can hold two cells. 0 if there is none. */
static int pick_start(drunk *d)
{
    int64_t best = -1;
    int32_t cx = (d->w - 1) / 2, cy = (d->h - 1) / 2;
    for (int32_t y = 1; y < d->h - 1; y++)
        for (int32_t x = 1; x < d->w - 1; x++)
        {
            int64_t dist = (int64_t)(x > cx ? x - cx : cx - x) + (y > cy ? y - cy : cy - y);
            if (walkable(d, x, y) && open_dirs(d, x, y) && (best < 0 || dist < best))
                best = dist, d->sx = x, d->sy = y;
        }
    return best >= 0;
}

/* With symmetry and the centre forbidden, a mirror image may lie apart from
 * the start's floor: such floor goes back to rock, and its rooms with it. */
static dg_status keep_start_floor(drunk *d)
{
    dg_grid view = {d->cells, d->w, d->h, d->w};
    size_t n = d->cell_count;
    int32_t *dist = dgi_alloc(d->a, n * sizeof *dist), *queue = dgi_alloc(d->a, n * sizeof *queue);
    if (!dist || !queue)
    {
        dgi_free(d->a, dist, dist ? n * sizeof *dist : 0);
        dgi_free(d->a, queue, queue ? n * sizeof *queue : 0);
        return DG_E_NOMEM;
    }
    dgi_bfs(&view, d->sy * d->w + d->sx, dist, queue);
    for (size_t i = 0; i < n; i++)
        if (d->cells[i] == DG_TILE_FLOOR && dist[i] < 0)
        {
            d->cells[i] = DG_TILE_VOID, d->carved--;
            clear_floor_bits(d, (int32_t)(i % (size_t)d->w), (int32_t)(i / (size_t)d->w));
        }
    int32_t kept = 0;
    for (int32_t i = 0; i < d->room_count; i++)
        if (dist[d->rooms[i].rect.y * d->w + d->rooms[i].rect.x] >= 0)
            d->rooms[kept++] = d->rooms[i];
    d->room_count = kept;
    dgi_free(d->a, dist, n * sizeof *dist);
    dgi_free(d->a, queue, n * sizeof *queue);
    return DG_OK;
}

/* Forbidden cells go back to rock (the walls come next; reserved cells are
 * never copied out). */
static void unforbid(drunk *d)
{
    for (size_t i = 0; i < d->cell_count; i++)
        if (d->cells[i] == FORBIDDEN)
            d->cells[i] = DG_TILE_VOID;
}

static void copy_out(const drunk *d, dg_grid *g)
{
    for (int32_t y = 0; y < g->height; y++)
    {
        const uint8_t *from = d->cells + (size_t)y * (size_t)d->w;
        if (!d->reserved)
            memcpy(&DG_CELL(g, 0, y), from, (size_t)d->w);
        else
            for (int32_t x = 0; x < g->width; x++)
                if (!dgi_mask_at(d->reserved, x, y))
                    DG_CELL(g, x, y) = from[x];
    }
}

/* Forbidden cells, the start and the floor target around the reserved cells. */
static dg_status setup_reserved(drunk *d, dg_diag *diag)
{
    int64_t left = forbid_reserved(d);
    if (!pick_start(d))
        return dgi_fail(diag, DG_E_NOSPACE,
                        "walk: the reserved cells leave no two neighbouring cells to walk on "
                        "(a walker keeps two cells from them)");
    d->target = DG_MIN(d->target, left);
    return DG_OK;
}

dg_status dg_walk_generate(dg_grid *grid, const dg_walk_params *params, uint64_t seed,
                               dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_walk_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_walk_generate(dg_grid *grid, const dg_walk_params *params, uint64_t seed,
                                const dgi_mask *reserved, dg_result *result,
                                const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    drunk d;
    st = setup(&d, grid, params, seed, allocator);
    d.reserved = reserved;
    if (st == DG_OK && reserved && (st = setup_reserved(&d, diag)) != DG_OK)
    {
        drunk_free(&d);
        return st;
    }
    if (st == DG_OK)
        st = walk_all(&d);
    if (st == DG_OK && params->mode == DG_WALK_TUNNELER)
        st = tidy_dead_ends(&d);
    if (st == DG_OK && d.nomem)
        st = DG_E_NOMEM;
    if (st == DG_OK && reserved && params->symmetry != DG_WALK_SYM_NONE)
        st = keep_start_floor(&d);
    dg_result fresh;
    dg_result_init(&fresh, result && result->allocator.alloc ? &result->allocator : NULL);
    if (st == DG_OK)
    {
        if (reserved)
            unforbid(&d);
        add_walls(&d);
        if (result)
            st = fill_result(&d, &fresh);
    }
    if (st == DG_OK)
    {
        copy_out(&d, grid);
        if (result)
        {
            dg_result_free(result);
            *result = fresh;
        }
    }
    else
        dg_result_free(&fresh);
    drunk_free(&d);
    if (st != DG_OK)
        return dgi_fail(diag, st, "walk: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}
