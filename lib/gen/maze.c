/* Maze generator (docs/maze.md): a lattice of corridor_width-wide cells with
 * one-tile walls, filled by a growing tree or by recursive division; braiding;
 * and the "rooms and mazes" layout (rooms first, the maze around them, a
 * spanning tree of doors plus a few extra, dead ends pruned). All the work is
 * on the lattice; tiles are painted once at the end, row by row. */
#include "analysis/analysis.h"
#include "gen/gen.h"

/* Independent PRNG streams, so that e.g. pruning never moves a room. */
#define STREAM_ROOMS 0x6D617A6501ULL
#define STREAM_MAZE 0x6D617A6502ULL
#define STREAM_JOIN 0x6D617A6503ULL
#define STREAM_BRAID 0x6D617A6504ULL
#define STREAM_PRUNE 0x6D617A6505ULL

enum { CLOSED = 0, MAZE = 1, ROOM = 2, FREE = 3 }; /* lattice cell classes; padding is CLOSED */
enum { N = 0, E = 1, S = 2, W = 3, NO_DIR = 4 };
#define PASS(d) (1u << (d))  /* open[] bit: a passage in direction d */
#define DOOR(d) (16u << (d)) /* open[] bit: that passage is a door */
enum {
    TRIES_PER_CELLS = 6, /* by area: one room try per this many lattice cells */
    CHECK_BUDGET = 4     /* room fit checks: at most this many cells per lattice cell (+1024) */
};

typedef struct mroom { int32_t x, y, w, h; } mroom; /* in lattice cells */
typedef struct mdoor { int32_t cell; int32_t dir; } mdoor; /* the passage cell -> dir */

typedef struct maze {
    const dg_maze_params *p;
    const dg_allocator *a;
    const dgi_mask *reserved; /* NULL: no reserved cells */
    uint8_t *base;            /* with reserved cells: the lattice's classes before rooms */
    int32_t cols, rows, lw;  /* lattice size; padded row length cols + 2 */
    int32_t cw, period;      /* cell width; cell + wall */
    int32_t ox, oy;          /* tile of the lattice's top-left wall corner */
    size_t n;                /* padded lattice cells */
    int32_t off[4];          /* index step per direction */
    uint8_t *cls, *open, *dir;
    int32_t *region, *stack, *parent;
    size_t stack_n, parent_n;
    mroom *rooms;  int32_t room_count, room_cap;
    mdoor *doors;  int32_t door_count, door_cap;
    int32_t *links; int32_t link_count, link_cap;
    int32_t regions;         /* rooms first, then maze components */
    int32_t kmin_w, kmax_w, kmin_h, kmax_h; /* room sizes in lattice cells */
    int32_t tries, attempts, failures, stopped;
    dg_rng rooms_rng, maze_rng, join_rng, braid_rng, prune_rng;
} maze;

/* ---- parameters ----------------------------------------------------------------- */

void dg_maze_defaults(dg_maze_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_maze_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_field(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "maze: %s is %d: must be %d..%d", what, (int)v,
                        (int)lo, (int)hi);
    return DG_OK;
}

static dg_status check_size(dg_diag *diag, const char *min_name, const char *max_name,
                            int32_t lo, int32_t hi)
{
    dg_status st;
    if ((st = check_field(diag, min_name, lo, 1, DG_GRID_MAX_DIM)) != DG_OK ||
        (st = check_field(diag, max_name, hi, 1, DG_GRID_MAX_DIM)) != DG_OK)
        return st;
    if (hi < lo)
        return dgi_fail(diag, DG_E_INVALID, "maze: %s %d > %s %d", min_name, (int)lo, max_name,
                        (int)hi);
    return DG_OK;
}

static dg_status check_fields(const dg_maze_params *p, dg_diag *diag)
{
    dg_status st;
    if ((st = check_field(diag, "layout", p->layout, 0, 1)) ||
        (st = check_field(diag, "algorithm", p->algorithm, 0, 1)) ||
        (st = check_field(diag, "newest (permille)", p->newest, 0, 1000)) ||
        (st = check_field(diag, "straight (permille)", p->straight, 0, 1000)) ||
        (st = check_field(diag, "braid (permille)", p->braid, 0, 1000)) ||
        (st = check_field(diag, "corridor_width", p->corridor_width, 1, DG_MAZE_MAX_WIDTH)) ||
        (st = check_field(diag, "room_tries", p->room_tries, 0, DG_MAZE_MAX_ROOM_TRIES)) ||
        (st = check_size(diag, "room_min_w", "room_max_w", p->room_min_w, p->room_max_w)) ||
        (st = check_size(diag, "room_min_h", "room_max_h", p->room_min_h, p->room_max_h)) ||
        (st = check_field(diag, "extra_doors (permille)", p->extra_doors, 0, 1000)) ||
        (st = check_field(diag, "dead_ends (permille)", p->dead_ends, 0, 1000)) ||
        (st = check_field(diag, "start", p->start, 0, 1)) ||
        (st = check_field(diag, "room_grow", p->room_grow, 0, 1)))
        return st;
    return DG_OK;
}

/* Lattice cells a room of `tiles` interior tiles needs: k cells give
 * k * period - 1 tiles; a minimum rounds up, a maximum down (never below the minimum). */
static int32_t cells_up(int32_t tiles, int32_t period) { return (int32_t)(((int64_t)tiles + period) / period); }
static int32_t cells_down(int32_t tiles, int32_t period) { return (int32_t)(((int64_t)tiles + 1) / period); }

/* 1 if two rooms of kw x kh cells fit a cols x rows lattice side by side or stacked. */
static int two_rooms_fit(int32_t cols, int32_t rows, int32_t kw, int32_t kh)
{
    return (cols >= 2 * (int64_t)kw && rows >= kh) || (rows >= 2 * (int64_t)kh && cols >= kw);
}

static dg_status check_params(const dg_grid *g, const dg_maze_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "maze: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "maze params", diag)) != DG_OK)
        return st;
    if ((st = check_fields(p, diag)) != DG_OK)
        return st;
    int32_t period = p->corridor_width + 1;
    int32_t cols = (g->width - 1) / period, rows = (g->height - 1) / period;
    if (p->layout == DG_MAZE_LAYOUT_PERFECT && (int64_t)cols * rows < 2)
        return dgi_fail(diag, DG_E_NOSPACE,
                        "maze: a %dx%d grid holds %dx%d lattice cells of width %d; a maze needs "
                        "two (smallest grid: %dx%d)", (int)g->width, (int)g->height, (int)cols,
                        (int)rows, (int)p->corridor_width, (int)(2 * period + 1), (int)(period + 1));
    if (p->layout == DG_MAZE_LAYOUT_ROOMS)
    {
        int32_t kw = cells_up(p->room_min_w, period), kh = cells_up(p->room_min_h, period);
        if (!two_rooms_fit(cols, rows, kw, kh))
            return dgi_fail(diag, DG_E_NOSPACE,
                            "maze: a %dx%d grid cannot hold two rooms of %dx%d tiles on the lattice "
                            "(smallest grid: %dx%d or %dx%d)", (int)g->width, (int)g->height,
                            (int)(kw * period - 1), (int)(kh * period - 1),
                            (int)(2 * kw * period + 1), (int)(kh * period + 1),
                            (int)(kw * period + 1), (int)(2 * kh * period + 1));
    }
    return DG_OK;
}

/* ---- scratch ---------------------------------------------------------------------- */

static void maze_free(maze *m)
{
    const dg_allocator *a = m->a;
    dgi_free(a, m->cls, m->n);
    dgi_free(a, m->base, m->base ? m->n : 0);
    dgi_free(a, m->open, m->n);
    dgi_free(a, m->dir, m->n);
    dgi_free(a, m->region, m->n * sizeof *m->region);
    dgi_free(a, m->stack, m->stack_n * sizeof *m->stack);
    dgi_free(a, m->parent, m->parent_n * sizeof *m->parent);
    dgi_free(a, m->rooms, (size_t)m->room_cap * sizeof *m->rooms);
    dgi_free(a, m->doors, (size_t)m->door_cap * sizeof *m->doors);
    dgi_free(a, m->links, (size_t)m->link_cap * sizeof *m->links);
}

static dg_status maze_alloc(maze *m)
{
    const dg_allocator *a = m->a;
    m->n = (size_t)m->lw * (size_t)(m->rows + 2);
    /* the division stack holds at most one rectangle per level, 4 ints each */
    m->stack_n = DG_MAX(m->n, 4 * ((size_t)m->cols + (size_t)m->rows + 4));
    m->cls = dgi_alloc(a, m->n);
    m->open = dgi_calloc(a, m->n, 1);
    m->dir = dgi_alloc(a, m->n);
    m->region = dgi_alloc(a, m->n * sizeof *m->region);
    m->stack = dgi_alloc(a, m->stack_n * sizeof *m->stack);
    if (!m->cls || !m->open || !m->dir || !m->region || !m->stack)
        return DG_E_NOMEM;
    return DG_OK;
}

#define GROW(m, field, cap, need)                                                        \
    do {                                                                                 \
        void *arr_ = (m)->field;                                                         \
        dg_status st_ = dgi_grow((m)->a, &arr_, &(m)->cap, (need), sizeof *(m)->field); \
        (m)->field = arr_;                                                               \
        if (st_ != DG_OK)                                                                \
            return st_;                                                                  \
    } while (0)

/* Lattice cell (x, y) (0-based) as a padded index. */
static int32_t at(const maze *m, int32_t x, int32_t y) { return (y + 1) * m->lw + x + 1; }

/* Padding is CLOSED, the lattice FREE (with reserved cells: as in base). */
static void clear_lattice(maze *m)
{
    memset(m->open, 0, m->n);
    m->room_count = 0;
    if (m->base)
    {
        memcpy(m->cls, m->base, m->n);
        return;
    }
    memset(m->cls, CLOSED, m->n);
    for (int32_t y = 0; y < m->rows; y++)
        memset(&m->cls[at(m, 0, y)], FREE, (size_t)m->cols);
}

/* ---- reserved cells ------------------------------------------------------------------ */

/* The lattice cells (0..2, into out) along one axis whose square (the cell
 * with its walls, period + 1 tiles) holds tile t: the cell t falls in, and
 * the one before when t lies on a wall line. */
static int32_t cells_of_tile(int32_t t, int32_t origin, int32_t period, int32_t count, int32_t out[2])
{
    int32_t k = 0, rel = t - origin;
    if (rel < 0 || rel > count * period)
        return 0;
    if (rel / period < count)
        out[k++] = rel / period;
    if (rel % period == 0 && rel > 0)
        out[k++] = rel / period - 1;
    return k;
}

/* A lattice cell is closed when a reserved tile lies in its square: every
 * tile it may open (block, passage, door, room post) has its 8 neighbours in
 * the squares of the open cells around it, so none touches a reserved tile. */
static void close_reserved(maze *m, const dg_grid *g)
{
    for (int32_t ty = 0; ty < g->height; ty++)
        for (int32_t tx = 0; tx < g->width; tx++)
        {
            int32_t xs[2], ys[2], nx, ny;
            if (!dgi_mask_at(m->reserved, tx, ty) ||
                !(nx = cells_of_tile(tx, m->ox, m->period, m->cols, xs)) ||
                !(ny = cells_of_tile(ty, m->oy, m->period, m->rows, ys)))
                continue;
            for (int32_t a = 0; a < ny; a++)
                for (int32_t b = 0; b < nx; b++)
                    m->base[at(m, xs[b], ys[a])] = CLOSED;
        }
}

/* Cells of the FREE component of start (4-way), labelled id in m->region. */
static int32_t label_free(maze *m, int32_t start, int32_t id)
{
    int32_t *q = m->stack, n = 0, size = 0;
    m->region[start] = id;
    q[n++] = start;
    while (n > 0)
    {
        int32_t c = q[--n];
        size++;
        for (int d = 0; d < 4; d++)
        {
            int32_t nb = c + m->off[d];
            if (m->base[nb] == FREE && m->region[nb] < 0)
                m->region[nb] = id, q[n++] = nb;
        }
    }
    return size;
}

/* Only the largest piece the reserved cells leave (the first of equals) is
 * used, so the maze and its rooms stay in one piece. Returns its cells. */
static int32_t keep_largest_piece(maze *m)
{
    int32_t pieces = 0, best = -1, best_size = 0;
    for (size_t i = 0; i < m->n; i++)
        m->region[i] = -1;
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t x = 0; x < m->cols; x++)
        {
            int32_t c = at(m, x, y);
            if (m->base[c] != FREE || m->region[c] >= 0)
                continue;
            int32_t size = label_free(m, c, pieces);
            if (size > best_size)
                best_size = size, best = pieces;
            pieces++;
        }
    for (size_t i = 0; i < m->n; i++)
        if (m->base[i] == FREE && m->region[i] != best)
            m->base[i] = CLOSED;
    return best_size;
}

/* The lattice around the reserved cells (m->base). DG_E_NOSPACE when fewer
 * than two cells are left. */
static dg_status lattice_reserved(maze *m, const dg_grid *g, dg_diag *diag)
{
    m->base = dgi_alloc(m->a, m->n);
    if (!m->base)
        return dgi_fail(diag, DG_E_NOMEM, "maze: out of memory");
    memset(m->base, CLOSED, m->n);
    for (int32_t y = 0; y < m->rows; y++)
        memset(&m->base[at(m, 0, y)], FREE, (size_t)m->cols);
    close_reserved(m, g);
    if (keep_largest_piece(m) < 2)
        return dgi_fail(diag, DG_E_NOSPACE,
                        "maze: the reserved cells leave fewer than two lattice cells in one piece "
                        "(a lattice cell and its walls keep one tile from them)");
    return DG_OK;
}

/* ---- rooms -------------------------------------------------------------------------- */

/* 1 if every cell of the room is FREE; corners and centre first, as most
 * misses hit one of them. *budget counts the cells looked at. */
static DGI_ALWAYS_INLINE int room_fits(const maze *m, mroom r, int64_t *budget)
{
    const uint8_t *c = m->cls;
    int32_t x1 = r.x + r.w - 1, y1 = r.y + r.h - 1;
    *budget -= 5;
    if (c[at(m, r.x, r.y)] != FREE || c[at(m, x1, r.y)] != FREE || c[at(m, r.x, y1)] != FREE ||
        c[at(m, x1, y1)] != FREE || c[at(m, r.x + r.w / 2, r.y + r.h / 2)] != FREE)
        return 0;
    for (int32_t y = r.y; y <= y1; y++)
    {
        const uint8_t *row = &c[at(m, r.x, y)];
        *budget -= r.w;
        for (int32_t x = 0; x < r.w; x++)
            if (row[x] != FREE)
                return 0;
    }
    return 1;
}

/* Marks room id's cells and opens the passages inside it, a row at a time
 * (the lattice arrays in locals: byte stores would reload them otherwise). */
static void mark_room(maze *m, int32_t id)
{
    mroom r = m->rooms[id];
    uint8_t *cls = m->cls, *open = m->open;
    int32_t *region = m->region;
    for (int32_t y = r.y; y < r.y + r.h; y++)
    {
        int32_t i = at(m, r.x, y), last = r.w - 1;
        unsigned inner = (y > r.y ? PASS(N) : 0) | (y < r.y + r.h - 1 ? PASS(S) : 0);
        for (int32_t x = 0; x <= last; x++)
        {
            cls[i + x] = ROOM;
            region[i + x] = id;
            open[i + x] = (uint8_t)(inner | PASS(E) | PASS(W));
        }
        open[i] &= (uint8_t)~PASS(W);
        open[i + last] &= (uint8_t)~PASS(E);
    }
}

static dg_status add_room(maze *m, mroom r)
{
    GROW(m, rooms, room_cap, m->room_count + 1);
    m->rooms[m->room_count++] = r;
    mark_room(m, m->room_count - 1);
    return DG_OK;
}

/* 1 if the strip of cells just outside room r on side d is FREE. */
static DGI_ALWAYS_INLINE int side_free(const maze *m, mroom r, int d)
{
    int32_t x0 = d == E ? r.x + r.w : d == W ? r.x - 1 : r.x;
    int32_t y0 = d == S ? r.y + r.h : d == N ? r.y - 1 : r.y;
    int32_t len = d == N || d == S ? r.w : r.h, step = d == N || d == S ? 1 : m->lw;
    const uint8_t *c = m->cls + at(m, x0, y0);
    for (int32_t k = 0; k < len; k++, c += step)
        if (*c != FREE)
            return 0;
    return 1;
}

/* Each room grows, a row or column at a time up to the largest size, into
 * free cells beside it: rooms close up to a wall between them, and the gaps
 * that would hold corridors squeezed between rooms are few. */
static void grow_rooms(maze *m)
{
    for (int32_t i = 0; i < m->room_count; i++)
    {
        mroom r = m->rooms[i];
        /* a side that cannot grow never can: its strip only gets longer
         * (a superset) and the classes do not change until the room is claimed */
        for (unsigned live = 15; live;)
            for (int d = 0; d < 4; d++)
            {
                int wide = d == E || d == W;
                if (!(live >> d & 1u))
                    continue;
                if ((wide ? r.w >= m->kmax_w : r.h >= m->kmax_h) || !side_free(m, r, d))
                {
                    live &= ~(1u << d);
                    continue;
                }
                r.x -= d == W, r.y -= d == N;
                r.w += wide, r.h += !wide;
            }
        if (memcmp(&r, &m->rooms[i], sizeof r) != 0)
        {
            m->rooms[i] = r;
            mark_room(m, i); /* the strips tested were outside r, so marking can wait */
        }
    }
}

/* The first place (scanning from the top left, or back from the bottom
 * right) where a room of the smallest size fits; 0 if none. */
static int first_fit(const maze *m, int backwards, mroom *r)
{
    int64_t budget = INT64_MAX;
    r->w = m->kmin_w, r->h = m->kmin_h;
    int32_t places_x = m->cols - r->w + 1, places = places_x * (m->rows - r->h + 1);
    for (int32_t k = 0; k < places; k++)
    {
        int32_t j = backwards ? places - 1 - k : k;
        r->x = j % places_x, r->y = j / places_x;
        if (room_fits(m, *r, &budget))
            return 1;
    }
    return 0;
}

/* Too few rooms around reserved cells: two of the smallest, one from each
 * end of the lattice, or DG_E_NOSPACE. */
static dg_status two_rooms_reserved(maze *m)
{
    mroom a, b;
    clear_lattice(m);
    if (!first_fit(m, 0, &a))
        return DG_E_NOSPACE;
    dg_status st = add_room(m, a);
    if (st != DG_OK)
        return st;
    return first_fit(m, 1, &b) ? add_room(m, b) : DG_E_NOSPACE;
}

static dg_status place_rooms(maze *m)
{
    int64_t budget = CHECK_BUDGET * (int64_t)m->cols * m->rows + 1024;
    dg_rng *rng = &m->rooms_rng;
    for (int32_t t = 0; t < m->tries; t++)
    {
        if (budget <= 0)
        {
            m->stopped = 1;
            break;
        }
        mroom r;
        r.w = dgi_rng_range(rng, m->kmin_w, m->kmax_w);
        r.h = dgi_rng_range(rng, m->kmin_h, m->kmax_h);
        r.x = (int32_t)dgi_rng_below(rng, (uint32_t)(m->cols - r.w + 1));
        r.y = (int32_t)dgi_rng_below(rng, (uint32_t)(m->rows - r.h + 1));
        m->attempts++;
        if (r.w > m->cols || r.h > m->rows || !room_fits(m, r, &budget))
        {
            m->failures++;
            continue;
        }
        dg_status st = add_room(m, r);
        if (st != DG_OK)
            return st;
    }
    if (m->room_count >= 2)
    {
        if (m->p->room_grow)
            grow_rooms(m);
        return DG_OK;
    }
    if (m->base)
        return two_rooms_reserved(m);
    /* Too few for a start and an exit (small boards): two of the smallest
     * rooms in opposite corners, which the size check proved fit. */
    clear_lattice(m);
    mroom a = {0, 0, m->kmin_w, m->kmin_h};
    mroom b = {m->cols - m->kmin_w, m->rows - m->kmin_h, m->kmin_w, m->kmin_h};
    dg_status st = add_room(m, a);
    return st != DG_OK ? st : add_room(m, b);
}

/* ---- growing tree ---------------------------------------------------------------------- */

/* Directions of the set bits of a 4-bit mask, in order; and their count. */
static const uint8_t NTH_DIR[16][4] = {
    {4, 4, 4, 4}, {0, 4, 4, 4}, {1, 4, 4, 4}, {0, 1, 4, 4}, {2, 4, 4, 4}, {0, 2, 4, 4},
    {1, 2, 4, 4}, {0, 1, 2, 4}, {3, 4, 4, 4}, {0, 3, 4, 4}, {1, 3, 4, 4}, {0, 1, 3, 4},
    {2, 3, 4, 4}, {0, 2, 3, 4}, {1, 2, 3, 4}, {0, 1, 2, 3}};
static const uint8_t BITS4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static int nth_dir(unsigned mask, uint32_t k) { return NTH_DIR[mask & 15u][k & 3u]; }

/* A permille as a threshold for a 16-bit roll (1000 -> 65536: always). */
static uint32_t roll16(int32_t permille) { return (uint32_t)permille * 65536u / 1000u; }

/* The FREE neighbours of lattice cell c (rows lw apart), as a 4-bit mask. */
static DGI_ALWAYS_INLINE unsigned free_dirs(const uint8_t *k, int32_t c, int32_t lw)
{
    return (unsigned)(k[c - lw] == FREE) | (unsigned)(k[c + 1] == FREE) << 1 |
           (unsigned)(k[c + lw] == FREE) << 2 | (unsigned)(k[c - 1] == FREE) << 3;
}

static void link_cells(maze *m, int32_t c, int d)
{
    m->open[c] |= (uint8_t)PASS(d);
    m->open[c + m->off[d]] |= (uint8_t)PASS((d + 2) & 3);
}

/* One tree over the FREE cells reachable from start, all labelled reg. A
 * step draws one 32-bit number: its high half decides whether to carry
 * straight on (a 16-bit roll), its low half which free side to take. */
static void grow_tree(maze *m, int32_t start, int32_t reg)
{
    const int32_t newest = m->p->newest;
    const uint32_t straight = roll16(m->p->straight);
    dg_rng *rng = &m->maze_rng;
    int32_t *stack = m->stack, *region = m->region, n = 0, lw = m->lw;
    uint8_t *cls = m->cls, *open = m->open, *dir = m->dir;
    const int32_t off[4] = {-lw, 1, lw, -1}; /* m->off, in locals: the byte stores would reload it */
    cls[start] = MAZE;
    region[start] = reg;
    dir[start] = NO_DIR;
    stack[n++] = start;
    while (n > 0)
    {
        int32_t k = n - 1;
        if (newest < 1000 && (newest == 0 || dgi_rng_below(rng, 1000) >= (uint32_t)newest))
            k = (int32_t)dgi_rng_below(rng, (uint32_t)n);
        int32_t c = stack[k];
        unsigned avail = free_dirs(cls, c, lw);
        if (!avail)
        {
            stack[k] = stack[--n]; /* the newest stays last unless it is the one removed */
            continue;
        }
        uint32_t roll = dgi_rng_next(rng);
        int d = dir[c];
        int keep = d != NO_DIR && (avail >> d & 1u) && (roll >> 16) < straight;
        d = keep ? d : nth_dir(avail, ((roll & 0xFFFFu) * BITS4[avail]) >> 16);
        int32_t next = c + off[d];
        open[c] |= (uint8_t)PASS(d);
        open[next] |= (uint8_t)PASS((d + 2) & 3);
        cls[next] = MAZE;
        region[next] = reg;
        dir[next] = (uint8_t)d;
        stack[n++] = next;
    }
}

static int32_t count_free(const maze *m)
{
    int32_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        n += m->cls[i] == FREE;
    return n;
}

/* The k-th FREE cell in lattice order. */
static int32_t nth_free(const maze *m, uint32_t k)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->cls[i] == FREE && k-- == 0)
            return (int32_t)i;
    return -1;
}

/* Every FREE cell joins a tree; each tree is one region (rooms may cut the
 * lattice into several). The perfect layout starts at a random cell. */
static void grow_forest(maze *m)
{
    if (m->room_count == 0 && m->base)
    {
        grow_tree(m, nth_free(m, dgi_rng_below(&m->maze_rng, (uint32_t)count_free(m))), m->regions++);
        return;
    }
    if (m->room_count == 0)
    {
        int32_t x = (int32_t)dgi_rng_below(&m->maze_rng, (uint32_t)m->cols);
        int32_t y = (int32_t)dgi_rng_below(&m->maze_rng, (uint32_t)m->rows);
        grow_tree(m, at(m, x, y), m->regions++);
        return;
    }
    /* in lattice order (the padding is CLOSED, so one scan of the array) */
    for (const uint8_t *c = m->cls, *end = m->cls + m->n; (c = memchr(c, FREE, (size_t)(end - c))); c++)
        grow_tree(m, (int32_t)(c - m->cls), m->regions++);
}

/* ---- recursive division ------------------------------------------------------------------- */

/* Every lattice cell open to its lattice neighbours. */
static void open_everything(maze *m)
{
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t x = 0; x < m->cols; x++)
            m->open[at(m, x, y)] = (uint8_t)((y > 0 ? PASS(N) : 0) | (x < m->cols - 1 ? PASS(E) : 0) |
                                             (y < m->rows - 1 ? PASS(S) : 0) | (x > 0 ? PASS(W) : 0));
}

static DGI_ALWAYS_INLINE void close_pass(maze *m, int32_t c, int d)
{
    m->open[c] &= (uint8_t)~(PASS(d) | DOOR(d));
    m->open[c + m->off[d]] &= (uint8_t)~(PASS((d + 2) & 3) | DOOR((d + 2) & 3));
}

/* Splits rectangles (x, y, w, h) with a wall that has one gap, depth first
 * with an explicit stack: each split leaves one rectangle waiting per level,
 * and every level is narrower or shorter, so cols + rows + 1 entries suffice. */
static void divide(maze *m)
{
    dg_rng *rng = &m->maze_rng;
    int32_t *s = m->stack, sp = 0;
    s[sp++] = 0, s[sp++] = 0, s[sp++] = m->cols, s[sp++] = m->rows;
    while (sp > 0)
    {
        int32_t h = s[--sp], w = s[--sp], y = s[--sp], x = s[--sp];
        if (w < 2 || h < 2)
            continue;
        int across = w < h ? 1 : w > h ? 0 : (int)dgi_rng_below(rng, 2); /* a wall across: splits rows */
        if (across)
        {
            int32_t k = 1 + (int32_t)dgi_rng_below(rng, (uint32_t)(h - 1));
            int32_t gap = x + (int32_t)dgi_rng_below(rng, (uint32_t)w);
            for (int32_t i = x; i < x + w; i++)
                if (i != gap)
                    close_pass(m, at(m, i, y + k - 1), S);
            s[sp++] = x, s[sp++] = y + k, s[sp++] = w, s[sp++] = h - k;
            s[sp++] = x, s[sp++] = y, s[sp++] = w, s[sp++] = k;
        }
        else
        {
            int32_t k = 1 + (int32_t)dgi_rng_below(rng, (uint32_t)(w - 1));
            int32_t gap = y + (int32_t)dgi_rng_below(rng, (uint32_t)h);
            for (int32_t j = y; j < y + h; j++)
                if (j != gap)
                    close_pass(m, at(m, x + k - 1, j), E);
            s[sp++] = x + k, s[sp++] = y, s[sp++] = w - k, s[sp++] = h;
            s[sp++] = x, s[sp++] = y, s[sp++] = k, s[sp++] = h;
        }
    }
}

/* Labels the maze component of start as reg (a flood over passages). */
static void label_component(maze *m, int32_t start, int32_t reg)
{
    int32_t *q = m->stack, n = 0;
    m->region[start] = reg;
    q[n++] = start;
    while (n > 0)
    {
        int32_t c = q[--n];
        for (int d = 0; d < 4; d++)
        {
            int32_t nb = c + m->off[d];
            if ((m->open[c] & PASS(d)) && m->region[nb] < 0)
            {
                m->region[nb] = reg;
                q[n++] = nb;
            }
        }
    }
}

/* Division over the whole lattice, then the rooms cut out of it: what is
 * left is a forest, each tree one region. */
static void divide_forest(maze *m)
{
    open_everything(m);
    divide(m);
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t x = 0; x < m->cols; x++)
        {
            int32_t c = at(m, x, y);
            if (m->cls[c] == CLOSED) /* kept clear of reserved cells */
                for (int d = 0; d < 4; d++)
                    close_pass(m, c, d);
            else if (m->cls[c] != ROOM)
            {
                m->cls[c] = MAZE;
                m->region[c] = -1;
                for (int d = 0; d < 4; d++)
                    if (m->cls[c + m->off[d]] == ROOM)
                        close_pass(m, c, d);
            }
        }
    for (int32_t i = 0; i < m->room_count; i++) /* a room's inside, which walls may have cut */
    {
        mroom r = m->rooms[i];
        for (int32_t y = r.y; y < r.y + r.h; y++)
            for (int32_t x = r.x; x < r.x + r.w; x++)
            {
                int32_t c = at(m, x, y);
                m->open[c] = (uint8_t)((y > r.y ? PASS(N) : 0) | (x < r.x + r.w - 1 ? PASS(E) : 0) |
                                       (y < r.y + r.h - 1 ? PASS(S) : 0) | (x > r.x ? PASS(W) : 0));
            }
    }
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t x = 0; x < m->cols; x++)
            if (m->cls[at(m, x, y)] == MAZE && m->region[at(m, x, y)] < 0)
                label_component(m, at(m, x, y), m->regions++);
}

/* ---- joins: a spanning tree of the regions, plus extra doors ------------------------------- */

/* Adds the wall c -> d (E or S of c, as c * 2 + (0: east, 1: south)) if it
 * lies between two regions. */
static DGI_ALWAYS_INLINE void add_link(maze *m, int32_t c, int d)
{
    int32_t nb = c + m->off[d];
    if (m->cls[c] != CLOSED && m->cls[nb] != CLOSED && m->region[nb] != m->region[c])
        m->links[m->link_count++] = c * 2 + (d == S);
}

/* 1 if room i's wall to the cell o outside it goes on its list: in the
 * first pass only walls to a room after it (a door straight into the next
 * room; each such wall looked at once), in the second only the walls to the
 * maze. Every wall between two regions is one of those (no FREE cell is left
 * once the maze is grown, and a maze region is never a room's). */
static DGI_ALWAYS_INLINE int side_link(const uint8_t *cls, const int32_t *region, int32_t i,
                                       int32_t o, int rooms_only)
{
    return rooms_only ? cls[o] == ROOM && region[o] > i : cls[o] == MAZE;
}

/* The walls around room i: its perimeter, a local list (the lattice is
 * read near the room only, so large maps stay in cache). The arrays sit in
 * locals, as each store to the list would reload them from m. */
static void room_links(maze *m, int32_t i, int rooms_only)
{
    mroom r = m->rooms[i];
    const uint8_t *cls = m->cls;
    const int32_t *region = m->region;
    int32_t *links = m->links, n = 0, lw = m->lw;
    for (int32_t x = r.x; x < r.x + r.w; x++)
    {
        int32_t top = at(m, x, r.y - 1), bottom = at(m, x, r.y + r.h - 1);
        if (side_link(cls, region, i, top, rooms_only))
            links[n++] = top * 2 + 1;
        if (side_link(cls, region, i, bottom + lw, rooms_only))
            links[n++] = bottom * 2 + 1;
    }
    for (int32_t y = r.y; y < r.y + r.h; y++)
    {
        int32_t left = at(m, r.x - 1, y), right = at(m, r.x + r.w - 1, y);
        if (side_link(cls, region, i, left, rooms_only))
            links[n++] = left * 2;
        if (side_link(cls, region, i, right + 1, rooms_only))
            links[n++] = right * 2;
    }
    m->link_count = n;
}

static int door_free(const maze *m, int32_t c, int d)
{
    int32_t nb = c + m->off[d], side = m->off[(d + 1) & 3];
    return (m->open[c] | m->open[nb] | (m->open[c + side] & DOOR(d)) |
            (m->open[c - side] & DOOR(d))) < 16;
}

static dg_status open_link(maze *m, int32_t c, int d)
{
    int32_t nb = c + m->off[d];
    link_cells(m, c, d);
    if (m->cls[c] != ROOM && m->cls[nb] != ROOM)
        return DG_OK; /* two maze components: a plain passage */
    m->open[c] |= (uint8_t)DOOR(d);
    m->open[nb] |= (uint8_t)DOOR((d + 2) & 3);
    GROW(m, doors, door_cap, m->door_count + 1);
    mdoor door = {c, d};
    m->doors[m->door_count++] = door;
    return DG_OK;
}

/* Kruskal, room by room: each room's walls, shuffled, in turn; a wall
 * between two regions not yet joined becomes a door, any other one, with the
 * extra_doors chance, too. Walls between two maze components (only division
 * leaves those) come last, in scan order. Every wall between regions is
 * looked at once, so every region ends up joined. */
enum { LOOPS_NONE = 0, LOOPS_ANY = 1, LOOPS_ROOM_TO_ROOM = 2 }; /* where extra doors may go */

static DGI_ALWAYS_INLINE dg_status join_link(maze *m, int32_t link, dg_rng *rng, int loops)
{
    int32_t c = link >> 1;
    int d = link & 1 ? S : E;
    int32_t ra = dgi_uf_find(m->parent, m->region[c]), rb = dgi_uf_find(m->parent, m->region[c + m->off[d]]);
    if (ra != rb)
    {
        m->parent[ra] = rb;
        return open_link(m, c, d);
    }
    /* a perfect maze (split by reserved cells) is joined without loops; grown
     * rooms loop room to room, as a loop through the maze would keep a
     * corridor squeezed between rooms that pruning would remove */
    if (loops != LOOPS_NONE &&
        (loops == LOOPS_ANY || (m->cls[c] == ROOM && m->cls[c + m->off[d]] == ROOM)) &&
        door_free(m, c, d) && dgi_rng_chance(rng, m->p->extra_doors))
        return open_link(m, c, d);
    return DG_OK;
}

static dg_status join_regions(maze *m)
{
    dg_status st = DG_OK;
    if (m->regions < 2)
        return DG_OK;
    int64_t most = 4; /* the longest perimeter, and the room for the last pass's walls */
    for (int32_t i = 0; i < m->room_count; i++)
        most = DG_MAX(most, 2 * ((int64_t)m->rooms[i].w + m->rooms[i].h));
    GROW(m, links, link_cap, (int32_t)most);
    m->parent_n = (size_t)m->regions;
    m->parent = dgi_alloc(m->a, m->parent_n * sizeof *m->parent);
    if (!m->parent)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < m->regions; i++)
        m->parent[i] = i;
    dg_rng *rng = &m->join_rng;
    int loops = m->p->layout != DG_MAZE_LAYOUT_ROOMS || m->p->extra_doors <= 0 ? LOOPS_NONE
              : m->p->room_grow ? LOOPS_ROOM_TO_ROOM : LOOPS_ANY;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t r = 0; r < m->room_count && st == DG_OK; r++)
        {
            room_links(m, r, pass == 0);
            for (int32_t i = m->link_count - 1; i > 0; i--)
            {
                int32_t j = (int32_t)dgi_rng_below(rng, (uint32_t)i + 1), t = m->links[i];
                m->links[i] = m->links[j];
                m->links[j] = t;
            }
            for (int32_t i = 0; i < m->link_count && st == DG_OK; i++)
                st = join_link(m, m->links[i], rng, loops);
        }
    if (m->p->algorithm != DG_MAZE_DIVISION)
        return st; /* grown trees are never next to each other */
    for (int32_t y = 0; y < m->rows && st == DG_OK; y++)
        for (int32_t x = 0; x < m->cols && st == DG_OK; x++)
        {
            int32_t c = at(m, x, y);
            for (int k = 0; k < 2 && st == DG_OK && m->cls[c] == MAZE; k++)
            {
                int d = k ? S : E;
                m->link_count = 0;
                if (m->cls[c + m->off[d]] == MAZE)
                    add_link(m, c, d);
                if (m->link_count)
                    st = join_link(m, m->links[0], rng, loops);
            }
        }
    return st;
}

/* ---- braid and prune --------------------------------------------------------------------- */

static int degree(const maze *m, int32_t c) { return BITS4[m->open[c] & 15u]; }

/* A share of the dead ends opened into a neighbouring maze cell, another dead
 * end when there is one (that removes two at once). */
static void braid(maze *m)
{
    dg_rng *rng = &m->braid_rng;
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t i = at(m, 0, y), end = i + m->cols; i < end; i++)
        {
            int32_t c = i;
            if (m->cls[c] != MAZE || degree(m, c) != 1 || !dgi_rng_chance(rng, m->p->braid))
                continue;
            unsigned any = 0, ends = 0;
            for (int d = 0; d < 4; d++)
            {
                int32_t nb = c + m->off[d];
                if (m->cls[nb] != MAZE || (m->open[c] & PASS(d)))
                    continue;
                any |= PASS(d);
                ends |= degree(m, nb) == 1 ? PASS(d) : 0u;
            }
            unsigned pick = ends ? ends : any;
            if (pick)
                link_cells(m, c, nth_dir(pick, dgi_rng_below(rng, BITS4[pick])));
        }
}

/* Prunes a share of the dead ends, each back to the first cell that still has
 * two ways on (a junction, a room, a corridor through). */
static void prune(maze *m)
{
    dg_rng *rng = &m->prune_rng;
    for (int32_t y = 0; y < m->rows; y++)
        for (int32_t i = at(m, 0, y), end = i + m->cols; i < end; i++)
        {
            int32_t c = i;
            if (m->cls[c] != MAZE || degree(m, c) > 1 || !dgi_rng_chance(rng, m->p->dead_ends))
                continue;
            while (m->cls[c] == MAZE && degree(m, c) <= 1)
            {
                m->cls[c] = CLOSED;
                if (degree(m, c) == 0)
                    break;
                int d = dgi_lowest_bit64(m->open[c] & 15u);
                close_pass(m, c, d);
                c += m->off[d];
            }
        }
}

/* Doors whose corridor was pruned are gone. */
static void settle_doors(maze *m)
{
    int32_t kept = 0;
    for (int32_t i = 0; i < m->door_count; i++)
        if (m->open[m->doors[i].cell] & DOOR(m->doors[i].dir))
            m->doors[kept++] = m->doors[i];
    m->door_count = kept;
}

/* ---- tiles ------------------------------------------------------------------------------- */

/* Tile of the wall segment between two cells by (door, passage, class a,
 * class b): a passage is floor inside a room, corridor elsewhere; a door's
 * segment is wall (its one door tile comes last); a closed one is wall next
 * to an open cell, rock between closed ones. */
static void edge_table(uint8_t lut[64])
{
    for (int i = 0; i < 64; i++)
    {
        int door = i >> 5 & 1, pass = i >> 4 & 1, a = i >> 2 & 3, b = i & 3;
        int open_a = a == MAZE || a == ROOM, open_b = b == MAZE || b == ROOM;
        lut[i] = door ? DG_TILE_WALL
               : pass ? (a == ROOM && b == ROOM ? DG_TILE_FLOOR : DG_TILE_CORRIDOR)
               : open_a || open_b ? DG_TILE_WALL : DG_TILE_VOID;
    }
}

/* The lut index of the wall segment from a cell (class ka, open bits oa)
 * towards d, to a cell of class kb. */
static DGI_ALWAYS_INLINE unsigned edge_index(unsigned oa, unsigned ka, unsigned kb, int d)
{
    return (oa >> d & 1u) << 4 | (oa >> (d + 4) & 1u) << 5 | ka << 2 | kb;
}

/* The wall line above lattice row j without its room posts (room_posts
 * paints those). With one-tile cells a post and the edge after it are one
 * lookup of two tiles (line, by edge_index and whether a cell left of the
 * post is open). The fields are read into locals and the cells before
 * carried along: the tile row is bytes, which may alias them all. */
static void paint_line(const maze *m, const uint8_t *lut, const uint8_t (*line)[2], int32_t j,
                       uint8_t *row)
{
    const uint8_t *up = m->cls + (size_t)j * (size_t)m->lw, *dn = up + m->lw;
    const uint8_t *oup = m->open + (size_t)j * (size_t)m->lw;
    const int32_t cols = m->cols, cw = m->cw;
    unsigned left = (up[0] | dn[0]) != 0; /* cells (i - 1, j - 1) and (i - 1, j): the padding */
    int32_t i = 1;
    if (cw == 1)
        for (; i <= cols; i++, row += 2)
        {
            unsigned kur = up[i], kdr = dn[i];
            memcpy(row, line[left << 6 | edge_index(oup[i], kur, kdr, S)], 2);
            left = (kur | kdr) != 0;
        }
    for (;; i++)
    {
        unsigned kur = up[i], kdr = dn[i];
        *row++ = line[left << 6 | (kur << 2 | kdr)][0];
        if (i > cols)
            break;
        memset(row, lut[edge_index(oup[i], kur, kdr, S)], (size_t)cw), row += cw;
        left = (kur | kdr) != 0;
    }
}

/* The posts inside each room are floor (its four cells around them are the
 * room, joined by plain passages: doors are only ever on a room's rim). */
static void room_posts(const maze *m, dg_grid *g)
{
    for (int32_t i = 0; i < m->room_count; i++)
    {
        mroom r = m->rooms[i];
        int32_t x = m->ox + 1 + r.x * m->period, w = r.w * m->period - 1;
        for (int32_t k = 1; k < r.h; k++)
            memset(&DG_CELL(g, x, m->oy + (r.y + k) * m->period), DG_TILE_FLOOR, (size_t)w);
    }
}

/* The first tile row of lattice row j: vertical edges and blocks; with
 * one-tile cells each edge and the block after it are one lookup of two
 * tiles (pair, by edge_index). */
static void paint_blocks(const maze *m, const uint8_t *lut, const uint8_t (*pair)[2], int32_t j,
                         uint8_t *row)
{
    const uint8_t *k = m->cls + (size_t)(j + 1) * (size_t)m->lw, *o = m->open + (size_t)(j + 1) * (size_t)m->lw;
    const int32_t cols = m->cols, cw = m->cw;
    unsigned kl = k[0], ol = o[0]; /* cell (i - 1, j) */
    int32_t i = 1;
    if (cw == 1)
        for (; i <= cols; i++, row += 2)
        {
            unsigned kr = k[i];
            memcpy(row, pair[edge_index(ol, kl, kr, E)], 2);
            kl = kr, ol = o[i];
        }
    for (;; i++)
    {
        unsigned kr = k[i];
        *row++ = lut[edge_index(ol, kl, kr, E)];
        if (i > cols)
            break;
        memset(row, pair[kr][1], (size_t)cw), row += cw; /* pair[kr]: an edge to a cell of class kr */
        kl = kr, ol = o[i];
    }
}

/* Tile of the door on wall c -> d: the middle of the wall segment. */
static dg_point door_tile(const maze *m, int32_t c, int d)
{
    int32_t x = c % m->lw - 1, y = c / m->lw - 1, mid = 1 + (m->cw - 1) / 2;
    dg_point p;
    if (d == E)
        p.x = m->ox + (x + 1) * m->period, p.y = m->oy + y * m->period + mid;
    else
        p.x = m->ox + x * m->period + mid, p.y = m->oy + (y + 1) * m->period;
    return p;
}

static void paint(const maze *m, dg_grid *g)
{
    static const uint8_t block[4] = {DG_TILE_VOID, DG_TILE_CORRIDOR, DG_TILE_FLOOR, DG_TILE_VOID};
    uint8_t lut[64], pair[64][2], line[128][2];
    edge_table(lut);
    for (int i = 0; i < 128; i++) /* i: open cell left of the post (bit 6), edge_index */
    {
        pair[i & 63][0] = lut[i & 63], pair[i & 63][1] = block[i & 3];
        line[i][0] = (i & 64) || (i & 15) ? DG_TILE_WALL : DG_TILE_VOID, line[i][1] = lut[i & 63];
    }
    int32_t ext_w = m->cols * m->period + 1, ext_h = m->rows * m->period + 1;
    for (int32_t y = 0; y < g->height; y++)
    {
        uint8_t *row = &DG_CELL(g, 0, y);
        if (y < m->oy || y >= m->oy + ext_h)
        {
            memset(row, DG_TILE_VOID, (size_t)g->width);
            continue;
        }
        memset(row, DG_TILE_VOID, (size_t)m->ox);
        memset(row + m->ox + ext_w, DG_TILE_VOID, (size_t)(g->width - m->ox - ext_w));
        int32_t j = (y - m->oy) / m->period, t = (y - m->oy) % m->period;
        if (t == 0)
            paint_line(m, lut, (const uint8_t (*)[2])line, j, row + m->ox);
        else if (t == 1)
            paint_blocks(m, lut, (const uint8_t (*)[2])pair, j, row + m->ox);
        else
            memcpy(row + m->ox, &DG_CELL(g, m->ox, y - 1), (size_t)ext_w);
    }
    room_posts(m, g);
    for (int32_t i = 0; i < m->door_count; i++)
    {
        dg_point p = door_tile(m, m->doors[i].cell, m->doors[i].dir);
        DG_CELL(g, p.x, p.y) = DG_TILE_DOOR;
    }
}

/* ---- result -------------------------------------------------------------------------------- */

static dg_rect room_rect(const maze *m, mroom r)
{
    dg_rect q = {m->ox + 1 + r.x * m->period, m->oy + 1 + r.y * m->period, r.w * m->period - 1,
                 r.h * m->period - 1};
    return q;
}

static dg_point rect_centre(dg_rect q)
{
    dg_point p = {q.x + q.w / 2, q.y + q.h / 2};
    return p;
}

/* The room holding the room cell farthest from p by walking (-1 if none is
 * reached), and that cell. dist and queue have width * height entries. */
static int32_t farthest_room(const dg_result *r, const dg_grid *g, dg_point p, int32_t *dist,
                             int32_t *queue, dg_point *cell)
{
    dgi_bfs(g, p.y * g->width + p.x, dist, queue);
    int32_t best = -1, room = -1;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                if (dist[y * g->width + x] > best)
                {
                    best = dist[y * g->width + x];
                    room = i;
                    cell->x = x;
                    cell->y = y;
                }
    }
    return room;
}

/* Rooms layout: the start is the centre of the room farthest from the first
 * room (one end of the map), the exit a room cell farthest from the start. */
static dg_status ends_in_rooms(const maze *m, dg_result *r, const dg_grid *g)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *dist = dgi_alloc(m->a, n * sizeof *dist), *queue = dgi_alloc(m->a, n * sizeof *queue);
    dg_status st = dist && queue ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dg_point cell;
        int32_t s = farthest_room(r, g, rect_centre(r->rooms[0].rect), dist, queue, &cell);
        s = s < 0 ? 0 : s;
        st = dgi_result_finish_at(r, g, rect_centre(r->rooms[s].rect), s, &r->metrics.loops, m->a);
        if (st == DG_OK && r->exit_room < 0)
        {
            r->exit_room = farthest_room(r, g, r->start, dist, queue, &cell);
            r->exit = cell;
        }
    }
    dgi_free(m->a, dist, n * sizeof *dist);
    dgi_free(m->a, queue, n * sizeof *queue);
    return st;
}

/* The maze cell nearest (*x, *y) (ties in lattice order), for a start that
 * reserved cells closed. */
static void nearest_maze_cell(const maze *m, int32_t *x, int32_t *y)
{
    int32_t best = -1, bx = *x, by = *y;
    for (int32_t j = 0; j < m->rows; j++)
        for (int32_t i = 0; i < m->cols; i++)
        {
            int32_t d = (i > *x ? i - *x : *x - i) + (j > *y ? j - *y : *y - j);
            if (m->cls[at(m, i, j)] == MAZE && (best < 0 || d < best))
                best = d, bx = i, by = j;
        }
    *x = bx, *y = by;
}

static dg_status fill_result(const maze *m, dg_result *r, const dg_grid *g)
{
    dg_status st = dgi_result_reserve(r, m->room_count, 0, m->door_count, 0);
    if (st != DG_OK)
        return st;
    for (int32_t i = 0; i < m->room_count; i++)
    {
        dg_room *q = &r->rooms[i];
        memset(q, 0, sizeof *q);
        q->rect = room_rect(m, m->rooms[i]);
        q->kind = DG_ROOM_NORMAL;
        q->prefab = -1;
        q->parent = -1;
        q->cells = q->rect.w * q->rect.h;
    }
    for (int32_t i = 0; i < m->door_count; i++)
    {
        int32_t c = m->doors[i].cell, nb = c + m->off[m->doors[i].dir];
        dg_door *d = &r->doors[i];
        d->pos = door_tile(m, c, m->doors[i].dir);
        int32_t room = m->cls[c] == ROOM ? c : nb, other = room == c ? nb : c;
        d->a.kind = DG_REF_ROOM;
        d->a.index = m->region[room];
        d->b.kind = m->cls[other] == ROOM ? DG_REF_ROOM : DG_REF_NONE;
        d->b.index = m->cls[other] == ROOM ? m->region[other] : -1;
    }
    r->room_count = m->room_count;
    r->door_count = m->door_count;
    dg_metrics *mt = &r->metrics;
    if (m->room_count > 0)
        st = ends_in_rooms(m, r, g);
    else
    {
        int32_t cx = m->p->start == DG_MAZE_START_CENTRE ? m->cols / 2 : 0;
        int32_t cy = m->p->start == DG_MAZE_START_CENTRE ? m->rows / 2 : 0;
        if (m->base)
            nearest_maze_cell(m, &cx, &cy);
        dg_point s = {m->ox + 1 + cx * m->period + (m->cw - 1) / 2,
                      m->oy + 1 + cy * m->period + (m->cw - 1) / 2};
        st = dgi_result_finish_at(r, g, s, -1, &mt->loops, m->a);
    }
    mt->requested = m->tries;
    mt->attempts = m->attempts;
    mt->failures = m->failures;
    mt->placed = m->room_count;
    mt->stopped_early = m->stopped;
    mt->overlaps = 0;
    return st;
}

/* Around reserved cells: painted on a copy, the result read there, then
 * every cell but the reserved ones copied out. */
static dg_status paint_reserved(const maze *m, dg_grid *grid, dg_result *result)
{
    size_t n = (size_t)grid->width * (size_t)grid->height;
    uint8_t *cells = dgi_alloc(m->a, n);
    if (!cells)
        return DG_E_NOMEM;
    dg_grid copy = {cells, grid->width, grid->height, grid->width};
    paint(m, &copy);
    dg_status st = DG_OK;
    if (result)
    {
        dgi_result_reset(result);
        st = fill_result(m, result, &copy);
        if (st != DG_OK)
            dgi_result_reset(result);
    }
    for (int32_t y = 0; st == DG_OK && y < grid->height; y++)
        for (int32_t x = 0; x < grid->width; x++)
            if (!dgi_mask_at(m->reserved, x, y))
                DG_CELL(grid, x, y) = cells[(size_t)y * (size_t)grid->width + (size_t)x];
    dgi_free(m->a, cells, n);
    return st;
}

/* ---- driver ------------------------------------------------------------------------------------ */

static void setup(maze *m, const dg_grid *g, const dg_maze_params *p, uint64_t seed)
{
    m->p = p;
    m->cw = p->corridor_width;
    m->period = m->cw + 1;
    m->cols = (g->width - 1) / m->period;
    m->rows = (g->height - 1) / m->period;
    m->lw = m->cols + 2;
    m->ox = (g->width - 1 - m->cols * m->period) / 2;
    m->oy = (g->height - 1 - m->rows * m->period) / 2;
    m->off[N] = -m->lw, m->off[E] = 1, m->off[S] = m->lw, m->off[W] = -1;
    m->kmin_w = cells_up(p->room_min_w, m->period);
    m->kmin_h = cells_up(p->room_min_h, m->period);
    m->kmax_w = DG_MIN(DG_MAX(m->kmin_w, cells_down(p->room_max_w, m->period)), m->cols);
    m->kmax_h = DG_MIN(DG_MAX(m->kmin_h, cells_down(p->room_max_h, m->period)), m->rows);
    int64_t by_area = DG_MAX(2, (int64_t)m->cols * m->rows / TRIES_PER_CELLS);
    m->tries = p->layout == DG_MAZE_LAYOUT_PERFECT ? 0
             : p->room_tries ? p->room_tries : (int32_t)DG_MIN(by_area, DG_MAZE_MAX_ROOM_TRIES);
    dgi_rng_seed(&m->rooms_rng, seed, STREAM_ROOMS);
    dgi_rng_seed(&m->maze_rng, seed, STREAM_MAZE);
    dgi_rng_seed(&m->join_rng, seed, STREAM_JOIN);
    dgi_rng_seed(&m->braid_rng, seed, STREAM_BRAID);
    dgi_rng_seed(&m->prune_rng, seed, STREAM_PRUNE);
}

/* Everything on the lattice: rooms, maze, joins, braid, pruning. */
static dg_status build(maze *m, const dg_grid *g, dg_diag *diag)
{
    dg_status st = maze_alloc(m);
    if (st != DG_OK)
        return st;
    if (m->reserved && (st = lattice_reserved(m, g, diag)) != DG_OK)
        return st;
    clear_lattice(m);
    if (m->p->layout == DG_MAZE_LAYOUT_ROOMS && (st = place_rooms(m)) == DG_E_NOSPACE)
        return dgi_fail(diag, st, "maze: the reserved cells leave no room for two rooms of %dx%d tiles",
                        (int)(m->kmin_w * m->period - 1), (int)(m->kmin_h * m->period - 1));
    if (st != DG_OK)
        return st;
    m->regions = m->room_count;
    if (m->p->algorithm == DG_MAZE_DIVISION)
        divide_forest(m);
    else
        grow_forest(m);
    if ((st = join_regions(m)) != DG_OK)
        return st;
    if (m->p->braid > 0)
        braid(m);
    if (m->room_count > 0 && m->p->dead_ends > 0)
        prune(m);
    settle_doors(m);
    return DG_OK;
}

dg_status dg_maze_generate(dg_grid *grid, const dg_maze_params *params, uint64_t seed,
                           dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_maze_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_maze_generate(dg_grid *grid, const dg_maze_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    maze m;
    memset(&m, 0, sizeof m);
    m.a = allocator;
    m.reserved = reserved;
    setup(&m, grid, params, seed);
    st = build(&m, grid, diag);
    if (reserved || (st != DG_OK && st != DG_E_NOMEM))
    {
        if (st == DG_OK)
            st = paint_reserved(&m, grid, result);
        maze_free(&m);
        if (st == DG_E_NOMEM)
            return dgi_fail(diag, st, "maze: out of memory");
        if (st == DG_OK)
            dgi_diag_ok(diag);
        return st;
    }
    uint8_t *backup = NULL;
    size_t row = (size_t)grid->width, backup_size = row * (size_t)grid->height;
    if (st == DG_OK && result)
    {
        /* filling result allocates after the grid is painted: keep a copy to undo */
        backup = dgi_alloc(allocator, backup_size);
        st = backup ? DG_OK : DG_E_NOMEM;
        for (int32_t y = 0; backup && y < grid->height; y++)
            memcpy(backup + (size_t)y * row, &DG_CELL(grid, 0, y), row);
    }
    if (st == DG_OK)
    {
        paint(&m, grid);
        if (result)
        {
            dgi_result_reset(result);
            st = fill_result(&m, result, grid);
            if (st != DG_OK)
            {
                dgi_result_reset(result);
                for (int32_t y = 0; y < grid->height; y++)
                    memcpy(&DG_CELL(grid, 0, y), backup + (size_t)y * row, row);
            }
        }
    }
    dgi_free(allocator, backup, backup ? backup_size : 0);
    maze_free(&m);
    if (st != DG_OK)
        return dgi_fail(diag, st, "maze: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}
