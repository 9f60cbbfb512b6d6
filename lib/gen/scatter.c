/* Scattered rooms (docs/scatter.md): rooms dropped at random free spots with a
 * rock gap between them, a minimum spanning tree over the candidate edges
 * (Kruskal with union-find) plus a share of the relative-neighbourhood edges
 * the tree left out, and the finishing. The candidates, the k nearest rooms
 * of each through a bucket grid, are found in scatter_edges.c; each edge's
 * straight, L-shaped or three-legged corridor, which never enters or runs
 * along another room, is routed in scatter_corridors.c (scatter_state.h). */
#include "analysis/analysis.h"
#include "gen/scatter_state.h"

#include <stdlib.h>

/* Independent PRNG streams: loops never move rooms or tree corridors. */
#define STREAM_PLACE 0x7363617401ULL
#define STREAM_ROUTE 0x7363617402ULL
#define STREAM_LOOP 0x7363617403ULL
#define STREAM_SHAPE 0x7363617404ULL
enum {
    FAIL_RUN = 16,       /* rooms in a row that find no spot end the placing */
    ROUTE_DRAWS = 3,     /* door positions drawn per corridor shape */
    RETRY_DRAWS = 12,    /* the same on the second pass, for edges the first could not route */
    WORK_PER_CELL = 16,  /* placement reads at most this many bitmap words per board cell */
    DENSITY_LO = 6,      /* rooms per 1000 cells inside the border, by area */
    DENSITY_HI = 8,
    LOOP_FLOOR = 160     /* loops per 1000 rooms the shortest candidates make up for */
};
#define BLOCK 0xFE /* scratch tile: a reserved cell, its ring, or rock cut off by them */

/* ---- parameters ------------------------------------------------------------ */

void dg_scatter_defaults(dg_scatter_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_scatter_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_span(dg_diag *diag, const char *lo_name, int32_t lo, const char *hi_name,
                            int32_t hi)
{
    if (lo < 1)
        return dgi_fail(diag, DG_E_INVALID, "scatter: %s is %d: must be >= 1", lo_name, (int)lo);
    if (hi < lo)
        return dgi_fail(diag, DG_E_INVALID, "scatter: %s %d is more than %s %d", lo_name, (int)lo,
                        hi_name, (int)hi);
    if (hi > DG_GRID_MAX_DIM)
        return dgi_fail(diag, DG_E_INVALID, "scatter: %s is %d: must be <= %d", hi_name, (int)hi,
                        DG_GRID_MAX_DIM);
    return DG_OK;
}

static dg_status check_value(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "scatter: %s is %d: must be %d..%d", what, (int)v,
                        (int)lo, (int)hi);
    return DG_OK;
}

/* The room count: rooms_min..rooms_max, where rooms_min 0 is "by area"
 * (DENSITY_LO..DENSITY_HI rooms per 1000 usable cells, at least 2), capped at
 * rooms_max, and rooms_max at its limit DG_SCATTER_MAX_ROOMS (the default) is
 * no maximum given: with rooms_min alone the count is drawn from rooms_min to
 * the area's high end (never below rooms_min), not to the limit. */
static dg_status check_rooms(dg_diag *diag, const dg_scatter_params *p)
{
    dg_status st = check_value(diag, "rooms_max", p->rooms_max, 1, DG_SCATTER_MAX_ROOMS);
    if (st == DG_OK)
        st = check_value(diag, "rooms_min (0 = by area)", p->rooms_min, 0, DG_SCATTER_MAX_ROOMS);
    if (st == DG_OK && p->rooms_min > p->rooms_max)
        return dgi_fail(diag, DG_E_INVALID, "scatter: rooms_min %d is more than rooms_max %d",
                        (int)p->rooms_min, (int)p->rooms_max);
    return st;
}

/* The fewest rooms a call must place: rooms_min, or by area two (a start and
 * an exit room) unless rooms_max allows only one. */
static int32_t rooms_needed(const dg_scatter_params *p)
{
    return p->rooms_min ? p->rooms_min : DG_MIN(2, p->rooms_max);
}

/* How many rooms of the smallest size, their walls and half the gap around
 * each, the grid's area could hold (walls may stand on the border ring): an
 * upper bound on what can be placed. rooms_min alone above it is refused. */
static int64_t rooms_capacity(const dg_grid *g, const dg_scatter_params *p)
{
    int64_t cell = ((int64_t)p->room_min_w + 2 + p->gap) * ((int64_t)p->room_min_h + 2 + p->gap);
    return ((int64_t)g->width + p->gap) * ((int64_t)g->height + p->gap) / cell;
}

/* A room leaves at least one free row and column of the usable board beside
 * its walls, so corridors can always pass it: interior <= usable - 2. */
static dg_status check_board(const dg_grid *g, const dg_scatter_params *p, dg_diag *diag)
{
    int64_t uw = (int64_t)g->width - 2 * p->border, uh = (int64_t)g->height - 2 * p->border;
    int64_t need_w = p->room_min_w + 2, need_h = p->room_min_h + 2;
    if (uw < need_w || uh < need_h)
        return dgi_fail(diag, DG_E_TOO_SMALL,
                        "scatter: a %dx%d grid cannot hold the smallest room (%dx%d interior) with "
                        "its walls and a free row and column; the smallest is %dx%d",
                        (int)g->width, (int)g->height, (int)p->room_min_w, (int)p->room_min_h,
                        (int)(need_w + 2 * p->border), (int)(need_h + 2 * p->border));
    if (p->rooms_max == DG_SCATTER_MAX_ROOMS && p->rooms_min > rooms_capacity(g, p))
        return dgi_fail(diag, DG_E_INVALID,
                        "scatter: rooms_min %d does not fit a %dx%d grid: its area holds at most "
                        "%lld rooms of the smallest size (%dx%d) with their walls and gap",
                        (int)p->rooms_min, (int)g->width, (int)g->height,
                        (long long)rooms_capacity(g, p), (int)p->room_min_w, (int)p->room_min_h);
    if (rooms_needed(p) < 2)
        return DG_OK;
    /* two rooms side by side or stacked, their walls and the gap between them */
    int64_t pair_w = 2 * (int64_t)p->room_min_w + p->gap + 2, pair_h = 2 * (int64_t)p->room_min_h + p->gap + 2;
    if ((uw >= pair_w && uh >= need_h) || (uh >= pair_h && uw >= need_w))
        return DG_OK;
    return dgi_fail(diag, DG_E_NOSPACE,
                    "scatter: a %dx%d grid cannot hold two rooms of %dx%d with a gap of %d (a map "
                    "needs two); the smallest are %dx%d and %dx%d",
                    (int)g->width, (int)g->height, (int)p->room_min_w, (int)p->room_min_h,
                    (int)p->gap, (int)(pair_w + 2 * p->border), (int)(need_h + 2 * p->border),
                    (int)(need_w + 2 * p->border), (int)(pair_h + 2 * p->border));
}

static dg_status check_params(const dg_grid *g, const dg_scatter_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "scatter: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "scatter params", diag)) != DG_OK)
        return st;
    if ((st = check_rooms(diag, p)) ||
        (st = check_span(diag, "room_min_w", p->room_min_w, "room_max_w", p->room_max_w)) ||
        (st = check_span(diag, "room_min_h", p->room_min_h, "room_max_h", p->room_max_h)) ||
        (st = check_value(diag, "gap", p->gap, 1, 32)) ||
        (st = check_value(diag, "max_tries", p->max_tries, 1, 1000)) ||
        (st = check_value(diag, "neighbours", p->neighbours, 1, 16)) ||
        (st = check_value(diag, "loop_permille", p->loop_permille, 0, 1000)) ||
        (st = check_value(diag, "border", p->border, 0, 1)) ||
        (st = check_value(diag, "shape_permille", p->shape_permille, 0, 1000)))
        return st;
    return check_board(g, p, diag);
}

/* ---- memory ------------------------------------------------------------------- */

static void scatter_free(scatter_ctx *s)
{
    dgi_free(s->a, s->occ, s->block);
    dgi_free(s->a, s->rooms, (size_t)s->room_cap * sizeof *s->rooms);
    dgi_free(s->a, s->cors, (size_t)s->cor_cap * sizeof *s->cors);
    dgi_free(s->a, s->doors, (size_t)s->door_cap * sizeof *s->doors);
    dgi_free(s->a, s->links, s->links_bytes);
    dgi_free(s->a, s->head, (size_t)s->bw_alloc * sizeof *s->head);
}

/* The per-room arrays in one block, sized once the rooms are placed: the
 * edge list of up to k per room (at least a room copy long: the bucket pass
 * borrows it), the candidate lists (at least 4 per room: the start search
 * borrows them), union-find, tree links, bucket keys, centres, and the
 * listing order and tree flags of the edges. */
static dg_status alloc_links(scatter_ctx *s, int32_t k)
{
    size_t n = (size_t)s->n, per = (size_t)k, rooms = (n * sizeof(dg_room) + 15) / 16;
    size_t nedges = DG_MAX(n * per, rooms), lists = n * (size_t)DG_MAX(k, 4) + 1;
    s->links_bytes =
        nedges * sizeof(scatter_edge) + (lists + 6 * n + n * per) * sizeof(int32_t) + n * per;
    s->links = dgi_alloc(s->a, s->links_bytes);
    if (!s->links)
        return DG_E_NOMEM;
    s->ks = k;
    s->edges = (scatter_edge *)(void *)s->links;
    s->knn = (int32_t *)(void *)(s->edges + nedges);
    s->uf = s->knn + lists;
    s->tree_a = s->uf + n;
    s->tree_b = s->tree_a + n;
    s->next = s->tree_b + n;
    s->cx = s->next + n;
    s->cy = s->cx + n;
    s->order = s->cy + n;
    s->tree = (uint8_t *)(s->order + n * per);
    return DG_OK;
}

/* A block for RETRY_K candidates per room, keeping the tree made so far. */
static dg_status widen_links(scatter_ctx *s)
{
    uint8_t *old = s->links;
    size_t old_bytes = s->links_bytes, n = (size_t)s->n;
    int32_t *uf = s->uf;
    dg_status st = alloc_links(s, SCATTER_RETRY_K);
    if (st != DG_OK)
    {
        s->links = old; /* freed by scatter_free */
        s->links_bytes = old_bytes;
        return st;
    }
    memcpy(s->uf, uf, 3 * n * sizeof *uf); /* uf, tree_a, tree_b */
    dgi_scatter_set_centres(s);
    dgi_free(s->a, old, old_bytes);
    return DG_OK;
}

/* ---- placing rooms ---------------------------------------------------------------- */

/* Mask of bits xa..xb (inclusive, 0..63) of a word. */
static uint64_t bits(int32_t xa, int32_t xb)
{
    return (~0ULL << xa) & (~0ULL >> (63 - xb));
}

/* 1 if any bit of columns xa..xb is set in a bitmap row. */
static inline int row_hits(const uint64_t *row, int32_t xa, int32_t xb)
{
    int32_t wa = xa >> 6, wb = xb >> 6;
    if (wa == wb)
        return (row[wa] & bits(xa & 63, xb & 63)) != 0;
    uint64_t any = row[wa] & bits(xa & 63, 63);
    for (int32_t i = wa + 1; i < wb; i++)
        any |= row[i];
    return (any | (row[wb] & bits(0, xb & 63))) != 0;
}

/* The index of the highest set bit of a word (w != 0). */
static int32_t highest_bit(uint64_t w)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(w);
#else
    int32_t i = 0;
    for (; w >>= 1;)
        i++;
    return i;
#endif
}

/* The last set bit of columns xa..xb of a bitmap row, -1 if none. */
static int32_t last_hit(const uint64_t *row, int32_t xa, int32_t xb)
{
    for (int32_t i = xb >> 6; i >= xa >> 6; i--)
    {
        uint64_t w = row[i] & bits(i == xa >> 6 ? xa & 63 : 0, i == xb >> 6 ? xb & 63 : 63);
        if (w)
            return i * 64 + highest_bit(w);
    }
    return -1;
}

static void row_set(uint64_t *row, int32_t xa, int32_t xb)
{
    int32_t wa = xa >> 6, wb = xb >> 6;
    if (wa == wb)
    {
        row[wa] |= bits(xa & 63, xb & 63);
        return;
    }
    row[wa] |= bits(xa & 63, 63);
    for (int32_t i = wa + 1; i < wb; i++)
        row[i] = ~0ULL;
    row[wb] |= bits(0, xb & 63);
}

/* 1 if r, its walls and `gap` cells of rock around them touch no room. The
 * middle row first: a spot that is taken is mostly taken there. */
static inline int spot_free(scatter_ctx *s, dg_rect r)
{
    int32_t m = 1 + s->p->gap;
    int32_t xa = DG_MAX(r.x - m, 0), xb = DG_MIN(r.x + r.w - 1 + m, s->w - 1);
    int32_t ya = DG_MAX(r.y - m, 0), yb = DG_MIN(r.y + r.h - 1 + m, s->h - 1);
    int32_t words = (xb >> 6) - (xa >> 6) + 1, mid = r.y + r.h / 2;
    s->work += words;
    if (row_hits(s->occ + (size_t)mid * (size_t)s->ow, xa, xb))
        return 0;
    for (int32_t y = ya; y <= yb; y++)
        if (y != mid)
        {
            s->work += words;
            if (row_hits(s->occ + (size_t)y * (size_t)s->ow, xa, xb))
                return 0;
        }
    return 1;
}

/* Walls on the rect's ring (clipped to the grid) and the shape's floor
 * inside; the cells the shape leaves out are wall while corridors are
 * routed (nothing may enter them), the ones no floor touches become rock at
 * the end (unwall_shapes). */
static void paint_room(scatter_ctx *s, dg_rect r, const dgi_shape *sh)
{
    int32_t xa = DG_MAX(r.x - 1, 0), xb = DG_MIN(r.x + r.w, s->w - 1);
    for (int32_t y = r.y - 1; y <= r.y + r.h; y++)
    {
        if (y < 0 || y >= s->h)
            continue;
        uint8_t *row = dgi_scatter_at(s, 0, y);
        row_set(s->occ + (size_t)y * (size_t)s->ow, xa, xb);
        memset(row + xa, DG_TILE_WALL, (size_t)xb - (size_t)xa + 1);
        if (y < r.y || y >= r.y + r.h)
            continue;
        int32_t lo = 0, hi = r.w;
        if (sh->kind == DG_SHAPE_PILLARS)
            for (int32_t x = 0; x < r.w; x++)
                row[r.x + x] = dgi_shape_has(sh, x, y - r.y) ? (uint8_t)DG_TILE_FLOOR : (uint8_t)DG_TILE_WALL;
        else
        {
            if (sh->kind != DG_SHAPE_RECT)
                dgi_shape_row(sh, y - r.y, &lo, &hi);
            memset(row + r.x + lo, DG_TILE_FLOOR, (size_t)(hi - lo));
        }
    }
}

/* Every kind of shape the helper offers. */
#define SHAPE_KINDS ((1u << DGI_SHAPE_KINDS) - 2u)

static dg_status add_room(scatter_ctx *s, dg_rect r)
{
    SCATTER_GROW(s, rooms, room_cap, s->n + 1);
    dg_room *q = &s->rooms[s->n++];
    dgi_shape sh;
    if (s->p->shape_permille > 0)
        dgi_shape_pick(&sh, r.w, r.h, SHAPE_KINDS, s->p->shape_permille, &s->shape);
    else
        dgi_shape_rect(&sh, r.w, r.h);
    memset(q, 0, sizeof *q);
    q->rect = r;
    q->kind = DG_ROOM_NORMAL;
    q->prefab = -1;
    q->parent = -1;
    q->shape = sh.kind;
    q->cells = sh.kind == DG_SHAPE_RECT ? r.w * r.h : dgi_shape_cells(&sh);
    paint_room(s, r, &sh);
    return DG_OK;
}

/* One room: a size, then up to max_tries positions; returns 1 if placed. */
static dg_status place_one(scatter_ctx *s, int *placed)
{
    const dg_scatter_params *p = s->p;
    int32_t rw = dgi_rng_range(&s->place, p->room_min_w, s->max_w);
    int32_t rh = dgi_rng_range(&s->place, p->room_min_h, s->max_h);
    int32_t b = p->border;
    *placed = 0;
    for (int32_t t = 0; t < p->max_tries && s->work < s->budget; t++)
    {
        dg_rect r = {dgi_rng_range(&s->place, b, s->w - b - rw), dgi_rng_range(&s->place, b, s->h - b - rh),
                     rw, rh};
        s->attempts++;
        if (spot_free(s, r))
        {
            *placed = 1;
            return add_room(s, r);
        }
        s->failures++;
        if (t & 1) /* shrink toward the minimum: smaller rooms fill the gaps left */
            rw = DG_MAX(p->room_min_w, rw - 1);
        else
            rh = DG_MAX(p->room_min_h, rh - 1);
    }
    return DG_OK;
}

/* Rooms by area leave holes where random draws kept missing: every second
 * row, left to right, each spot where the smallest room fits (room, walls
 * and gap) gets a room of a drawn size, shrunk toward the smallest as
 * place_one does, so no stretch of rock a room could use is left (a lattice
 * half a footprint apart missed spots a cell or two off it; every row costs
 * twice the work for the same space). Row-major: the order is fixed. band:
 * the rooms taken across a row's reach (an OR of bitmap rows), so a spot is
 * one row test, and a taken spot skips past the last room cell it met. */
static dg_status fill_holes(scatter_ctx *s)
{
    const dg_scatter_params *p = s->p;
    int32_t b = p->border, m = 1 + p->gap, fw = p->room_min_w, fh = p->room_min_h;
    uint64_t *band = dgi_alloc(s->a, (size_t)s->ow * sizeof *band);
    dg_status st = band ? DG_OK : DG_E_NOMEM;
    for (int32_t y = b; st == DG_OK && y <= s->h - b - fh && s->n < p->rooms_max; y += 2)
    {
        memset(band, 0, (size_t)s->ow * sizeof *band);
        for (int32_t r = DG_MAX(y - m, 0); r <= DG_MIN(y + fh - 1 + m, s->h - 1); r++)
            for (int32_t i = 0; i < s->ow; i++)
                band[i] |= s->occ[(size_t)r * (size_t)s->ow + (size_t)i];
        for (int32_t x = b; st == DG_OK && x <= s->w - b - fw && s->n < p->rooms_max;)
        {
            int32_t hit = last_hit(band, DG_MAX(x - m, 0), DG_MIN(x + fw - 1 + m, s->w - 1));
            if (hit >= 0)
            {
                x = hit + m + 1;
                continue;
            }
            dg_rect r = {x, y, fw, fh};
            int32_t rw = dgi_rng_range(&s->place, fw, s->max_w);
            int32_t rh = dgi_rng_range(&s->place, fh, s->max_h);
            rw = DG_MIN(rw, s->w - b - x); /* (DG_MIN evaluates its arguments twice) */
            rh = DG_MIN(rh, s->h - b - y);
            for (int32_t t = 0; rw > r.w || rh > r.h; t++)
            {
                dg_rect big = {x, y, rw, rh};
                if (spot_free(s, big))
                {
                    r = big;
                    break;
                }
                if (t & 1)
                    rw = DG_MAX(fw, rw - 1);
                else
                    rh = DG_MAX(fh, rh - 1);
            }
            st = add_room(s, r);
            row_set(band, DG_MAX(r.x - 1, 0), DG_MIN(r.x + r.w, s->w - 1)); /* its walls */
        }
    }
    dgi_free(s->a, band, band ? (size_t)s->ow * sizeof *band : 0);
    return st;
}

/* The room count to aim for (check_rooms says how the ends resolve). */
static int32_t draw_room_count(const scatter_ctx *s)
{
    const dg_scatter_params *p = s->p;
    dg_rng rng = s->place;
    if (p->rooms_min && p->rooms_max < DG_SCATTER_MAX_ROOMS)
        return dgi_rng_range(&rng, p->rooms_min, p->rooms_max);
    int64_t usable = (int64_t)(s->w - 2 * p->border) * (s->h - 2 * p->border);
    int64_t lo = DG_MAX(2, usable * DENSITY_LO / 1000), hi = DG_MAX(lo, usable * DENSITY_HI / 1000);
    if (p->rooms_min) /* given alone: up to the area's high end, never below it */
        return dgi_rng_range(&rng, p->rooms_min, (int32_t)DG_MAX(p->rooms_min, DG_MIN(hi, p->rooms_max)));
    return dgi_rng_range(&rng, (int32_t)DG_MIN(lo, p->rooms_max), (int32_t)DG_MIN(hi, p->rooms_max));
}

/* The smallest room at two opposite corners: the fallback when random
 * placing found fewer than two spots (check_board proved they fit). */
static dg_status place_corners(scatter_ctx *s)
{
    const dg_scatter_params *p = s->p;
    int32_t b = p->border, rw = p->room_min_w, rh = p->room_min_h;
    memset(s->occ, 0, s->block);
    s->n = 0;
    dg_rect first = {b, b, rw, rh}, second = {s->w - b - rw, s->h - b - rh, rw, rh};
    dg_status st = add_room(s, first);
    return st == DG_OK ? add_room(s, second) : st;
}

static dg_status place_rooms(scatter_ctx *s)
{
    const dg_scatter_params *p = s->p;
    s->requested = draw_room_count(s);
    (void)dg_rng_next(&s->place); /* the draw above used a copy */
    /* no more rooms than could ever fit: smallest footprints with their gap */
    int64_t foot = (int64_t)(p->room_min_w + 1 + p->gap) * (p->room_min_h + 1 + p->gap);
    int64_t fit = (int64_t)s->w * s->h / foot + 2;
    s->target = (int32_t)DG_MIN((int64_t)s->requested, fit);
    s->budget = WORK_PER_CELL * (int64_t)s->w * s->h + 65536;
    dg_status st = DG_OK;
    SCATTER_GROW(s, rooms, room_cap, DG_MAX(s->target, 2));
    /* each room asked for gets one chance of max_tries positions */
    for (int32_t i = 0, misses = 0; st == DG_OK && i < s->target && misses < FAIL_RUN &&
                                    s->work < s->budget; i++)
    {
        int placed;
        st = place_one(s, &placed);
        misses = placed ? 0 : misses + 1;
    }
    if (st == DG_OK && !p->rooms_min)
        st = fill_holes(s);
    if (st == DG_OK && s->n < 2 && rooms_needed(p) >= 2 && !s->reserved)
        st = place_corners(s);
    return st;
}

/* ---- reserved cells ---------------------------------------------------------------- */

/* 1 for a scratch cell a room or corridor may use before any is placed:
 * inside the corridor area and off the reserved cells and their ring. */
static int usable(const scatter_ctx *s, int32_t i)
{
    int32_t x = i % s->w, y = i / s->w;
    return x >= s->x0 && y >= s->y0 && x <= s->x1 && y <= s->y1 && s->map[i] != BLOCK;
}

/* Labels the 4-connected pieces of usable cells; returns the largest's label
 * (the first found among equals). label and queue have a cell each. */
static int32_t largest_piece(const scatter_ctx *s, int32_t *label, int32_t *queue)
{
    int32_t cells = s->w * s->h, pieces = 0, best = -1, best_size = 0;
    if (s->w <= 0)
        return -1;
    for (int32_t i = 0; i < cells; i++)
        label[i] = -1;
    for (int32_t i = 0; i < cells; i++)
    {
        if (label[i] >= 0 || !usable(s, i))
            continue;
        int32_t head = 0, tail = 0;
        label[i] = pieces;
        queue[tail++] = i;
        while (head < tail)
        {
            int32_t at = queue[head++];
            int32_t next[4] = {at - s->w, at + 1, at + s->w, at - 1};
            for (int d = 0; d < 4; d++)
                if (next[d] >= 0 && next[d] < cells && (d & 1 ? next[d] / s->w == at / s->w : 1) &&
                    label[next[d]] < 0 && usable(s, next[d]))
                {
                    label[next[d]] = pieces;
                    queue[tail++] = next[d];
                }
        }
        if (tail > best_size)
            best = pieces, best_size = tail;
        pieces++;
    }
    return best;
}

/* Before anything is placed: reserved cells and their ring are BLOCK in the
 * scratch map and taken in the room bitmap (rooms keep `gap` off them), and
 * so is every piece of the board they cut off from the largest one, so all
 * rooms can be joined. DG_E_NOSPACE when nothing is left. */
static dg_status block_reserved(scatter_ctx *s)
{
    for (int32_t y = 0; y < s->h; y++)
        for (int32_t x = 0; x < s->w; x++)
            if (dgi_mask_at(s->reserved, x, y))
                for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, s->h - 1); yy++)
                    memset(dgi_scatter_at(s, DG_MAX(x - 1, 0), yy), BLOCK,
                           (size_t)(DG_MIN(x + 1, s->w - 1) - DG_MAX(x - 1, 0) + 1));
    size_t cells = (size_t)s->w * (size_t)s->h;
    int32_t *label = dgi_alloc(s->a, 2 * cells * sizeof *label);
    if (!label)
        return DG_E_NOMEM;
    int32_t keep = largest_piece(s, label, label + cells);
    for (size_t i = 0; i < cells; i++)
    {
        int32_t x = (int32_t)(i % (size_t)s->w), y = (int32_t)(i / (size_t)s->w);
        if (label[i] != keep && usable(s, (int32_t)i))
            s->map[i] = BLOCK;
        if (s->map[i] == BLOCK)
            s->occ[(size_t)y * (size_t)s->ow + (size_t)(x >> 6)] |= 1ULL << (x & 63);
    }
    dgi_free(s->a, label, 2 * cells * sizeof *label);
    return keep < 0 ? DG_E_NOSPACE : DG_OK;
}

static int open_near(const scatter_ctx *s, int32_t x, int32_t y)
{
    for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, s->h - 1); yy++)
        for (int32_t xx = DG_MAX(x - 1, 0); xx <= DG_MIN(x + 1, s->w - 1); xx++)
            if (*dgi_scatter_at(s, xx, yy) != BLOCK &&
                dg_tile_passable(*dgi_scatter_at(s, xx, yy)))
                return 1;
    return 0;
}

/* The scratch tiles into the grid, reserved cells left as the caller drew
 * them; BLOCK becomes wall beside an open cell, rock elsewhere. */
static void copy_around(const scatter_ctx *s, dg_grid *grid)
{
    for (int32_t y = 0; y < s->h; y++)
        for (int32_t x = 0; x < s->w; x++)
        {
            uint8_t t = *dgi_scatter_at(s, x, y);
            if (dgi_mask_at(s->reserved, x, y))
                continue;
            if (t == BLOCK)
                t = open_near(s, x, y) ? (uint8_t)DG_TILE_WALL : (uint8_t)DG_TILE_VOID;
            DG_CELL(grid, x, y) = t;
        }
}

/* ---- the tree and the loops --------------------------------------------------------------- */

/* Kruskal over the candidates, in length order: an edge joining two parts
 * is routed, and kept if a route fits. */
static dg_status grow_tree(scatter_ctx *s, int draws)
{
    dg_status st = DG_OK;
    for (int32_t i = 0; i < s->ne && s->nt < s->n - 1 && st == DG_OK; i++)
    {
        int32_t ra = dgi_uf_find(s->uf, s->edges[i].a), rb = dgi_uf_find(s->uf, s->edges[i].b);
        scatter_route r;
        if (ra == rb ||
            !dgi_scatter_find_route(s, s->edges[i].a, s->edges[i].b, draws, &s->route, &r))
            continue;
        st = dgi_scatter_carve_route(s, s->edges[i].a, s->edges[i].b, &r);
        s->tree[i] = 1;
        s->uf[DG_MAX(ra, rb)] = DG_MIN(ra, rb); /* the lower index is the root: a fixed order */
        s->tree_a[s->nt] = s->edges[i].a;
        s->tree_b[s->nt++] = s->edges[i].b;
    }
    return st;
}

/* The tree as Kruskal would make it if every edge could be routed, then
 * routed sweeping over the map (memory stays near), the edges that fit no
 * route dropped; grow_tree then joins what they left apart. */
static dg_status first_tree(scatter_ctx *s)
{
    int32_t joined = 0;
    for (int32_t i = 0; i < s->ne && joined < s->n - 1; i++)
    {
        int32_t ra = dgi_uf_find(s->uf, s->edges[i].a), rb = dgi_uf_find(s->uf, s->edges[i].b);
        if (ra == rb)
            continue;
        s->uf[DG_MAX(ra, rb)] = DG_MIN(ra, rb);
        s->tree[i] = 1;
        joined++;
    }
    dg_status st = DG_OK;
    for (int32_t j = 0; j < s->ne && st == DG_OK; j++) /* in listing order: memory stays near */
    {
        int32_t i = s->order[j];
        const scatter_edge *e = &s->edges[i];
        scatter_route r;
        if (!s->tree[i])
            continue;
        if (!dgi_scatter_find_route(s, e->a, e->b, ROUTE_DRAWS, &s->route, &r))
        {
            s->tree[i] = 0;
            continue;
        }
        st = dgi_scatter_carve_route(s, e->a, e->b, &r);
        s->tree_a[s->nt] = e->a;
        s->tree_b[s->nt++] = e->b;
    }
    for (int32_t i = 0; i < s->n; i++)
        s->uf[i] = i;
    for (int32_t t = 0; t < s->nt; t++)
    {
        int32_t ra = dgi_uf_find(s->uf, s->tree_a[t]), rb = dgi_uf_find(s->uf, s->tree_b[t]);
        s->uf[DG_MAX(ra, rb)] = DG_MIN(ra, rb);
    }
    if (st == DG_OK && s->nt < s->n - 1)
        st = grow_tree(s, ROUTE_DRAWS);
    return st;
}

/* 1 if no candidate neighbour of a or b is nearer to both than they are to
 * each other (the relative neighbourhood graph, among the candidates). */
static int relative_neighbours(const scatter_ctx *s, const scatter_edge *e)
{
    int64_t d = dgi_scatter_edge_d(s, e);
    for (int side = 0; side < 2; side++)
    {
        int32_t from = side ? e->b : e->a;
        const int32_t *list = &s->knn[(size_t)from * (size_t)s->ks];
        for (int32_t t = 0; t < s->k && list[t] >= 0; t++)
        {
            int32_t c = list[t];
            if (c != e->a && c != e->b && dgi_scatter_dist2(s, e->a, c) < d &&
                dgi_scatter_dist2(s, e->b, c) < d)
                return 0;
        }
    }
    return 1;
}

/* Loops: candidate edges outside the tree that are relative neighbours, each
 * joined with chance loop_permille, in listing order; then, while the map
 * has fewer than LOOP_FLOOR loops per 1000 rooms (a small map may draw
 * none), the shortest of the others, so every map has a few short loops. */
static dg_status add_loops(scatter_ctx *s)
{
    dg_status st = DG_OK;
    for (int32_t j = 0; j < s->ne && st == DG_OK && s->p->loop_permille > 0; j++)
    {
        int32_t i = s->order[j];
        const scatter_edge *e = &s->edges[i];
        scatter_route r;
        if (s->tree[i] || !dg_rng_chance(&s->loop, s->p->loop_permille) || !relative_neighbours(s, e) ||
            !dgi_scatter_find_route(s, e->a, e->b, ROUTE_DRAWS, &s->loop, &r))
            continue;
        st = dgi_scatter_carve_route(s, e->a, e->b, &r);
        s->tree[i] = 2;
        s->loops++;
    }
    int32_t floor = s->p->loop_permille > 0 ? (int32_t)(((int64_t)s->n * LOOP_FLOOR + 999) / 1000) : 0;
    for (int32_t i = 0; i < s->ne && st == DG_OK && s->loops < floor; i++)
    {
        const scatter_edge *e = &s->edges[i];
        scatter_route r;
        if (s->tree[i] || !relative_neighbours(s, e) ||
            !dgi_scatter_find_route(s, e->a, e->b, ROUTE_DRAWS, &s->loop, &r))
            continue;
        st = dgi_scatter_carve_route(s, e->a, e->b, &r);
        s->loops++;
    }
    return st;
}

static int key_cmp(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The second pass, when some parts are still apart: more candidates per room
 * (the tree edges made so far flagged among them) and more door draws. */
static dg_status retry_tree(scatter_ctx *s)
{
    size_t n = (size_t)DG_MAX(s->nt, 1);
    int64_t *keys = dgi_alloc(s->a, n * sizeof *keys);
    if (!keys)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < s->nt; i++)
        keys[i] = (int64_t)s->tree_a[i] << 32 | s->tree_b[i];
    qsort(keys, (size_t)s->nt, sizeof *keys, key_cmp);
    dg_status st = widen_links(s);
    if (st != DG_OK)
    {
        dgi_free(s->a, keys, n * sizeof *keys);
        return st;
    }
    if ((st = dgi_scatter_build_edges(s, SCATTER_RETRY_K)) != DG_OK)
    {
        dgi_free(s->a, keys, n * sizeof *keys);
        return st;
    }
    for (int32_t i = 0; i < s->ne; i++)
    {
        int64_t key = (int64_t)s->edges[i].a << 32 | s->edges[i].b;
        s->tree[i] = s->nt > 0 && bsearch(&key, keys, (size_t)s->nt, sizeof *keys, key_cmp) != NULL;
    }
    dgi_free(s->a, keys, n * sizeof *keys);
    return grow_tree(s, RETRY_DRAWS);
}

/* ---- finishing -------------------------------------------------------------------------- */

/* Walls on the rock around a corridor leg (clipped to the grid). */
static void wall_leg(scatter_ctx *s, dg_point a, dg_point b)
{
    int32_t xa = DG_MAX(DG_MIN(a.x, b.x) - 1, 0), xb = DG_MIN(DG_MAX(a.x, b.x) + 1, s->w - 1);
    int32_t ya = DG_MAX(DG_MIN(a.y, b.y) - 1, 0), yb = DG_MIN(DG_MAX(a.y, b.y) + 1, s->h - 1);
    for (int32_t y = ya; y <= yb; y++)
    {
        uint8_t *row = dgi_scatter_at(s, 0, y);
        if (xb - xa < 3) /* a vertical leg's three cells: too few for a vector loop's set-up */
            for (int32_t x = xa; x <= xb; x++)
            {
                if (row[x] == DG_TILE_VOID)
                    row[x] = DG_TILE_WALL;
            }
        else
            for (int32_t x = xa; x <= xb; x++)
                row[x] = row[x] == DG_TILE_VOID ? (uint8_t)DG_TILE_WALL : row[x];
    }
}

/* The cells of shaped rooms that no open cell touches (8-way) become rock
 * (an open cell itself stays: only the walls left out are looked around). */
static void unwall_shapes(scatter_ctx *s)
{
    for (int32_t i = 0; i < s->n; i++)
    {
        dg_rect r = s->rooms[i].rect;
        if (s->rooms[i].shape == DG_SHAPE_RECT)
            continue;
        int inner = r.x > 0 && r.y > 0 && r.x + r.w < s->w && r.y + r.h < s->h;
        for (int32_t y = r.y; y < r.y + r.h; y++)
            for (int32_t x = r.x; x < r.x + r.w; x++)
            {
                if (dgi_passable_default[*dgi_scatter_at(s, x, y)])
                    continue;
                int open = 0;
                if (inner) /* the ring is on the board: three rows, no bounds to test */
                    for (int32_t ny = y - 1; ny <= y + 1 && !open; ny++)
                    {
                        const uint8_t *q = dgi_scatter_at(s, x - 1, ny);
                        open = dgi_passable_default[q[0]] | dgi_passable_default[q[1]] |
                               dgi_passable_default[q[2]];
                    }
                for (int32_t k = 0; !inner && k < 9 && !open; k++)
                {
                    int32_t nx = x + k % 3 - 1, ny = y + k / 3 - 1;
                    open = nx >= 0 && ny >= 0 && nx < s->w && ny < s->h &&
                           dgi_passable_default[*dgi_scatter_at(s, nx, ny)];
                }
                if (!open)
                    *dgi_scatter_at(s, x, y) = DG_TILE_VOID;
            }
    }
}

static void wall_corridors(scatter_ctx *s)
{
    for (int32_t i = 0; i < s->nc; i++)
    {
        wall_leg(s, s->cors[i].start, s->cors[i].bend);
        wall_leg(s, s->cors[i].bend, s->cors[i].end);
    }
}

/* The start room: the room farthest along the tree from room 0 (centre to
 * centre), so the start sits at one end of the map. Scratch: the candidate
 * lists, no longer needed. */
static int32_t start_room(scatter_ctx *s)
{
    int32_t n = s->n, *deg = s->knn, *adj = deg + n + 1, *stack = adj + 2 * s->nt;
    int64_t *dist = (int64_t *)(void *)s->edges;
    memset(deg, 0, (size_t)(n + 1) * sizeof *deg);
    memset(stack, 0, (size_t)n * sizeof *stack);
    for (int32_t i = 0; i < s->nt; i++)
    {
        deg[s->tree_a[i] + 1]++;
        deg[s->tree_b[i] + 1]++;
    }
    for (int32_t i = 0; i < n; i++)
        deg[i + 1] += deg[i];
    for (int32_t i = 0; i < s->nt; i++) /* stack as fill counters while building */
    {
        adj[deg[s->tree_a[i]] + stack[s->tree_a[i]]++] = s->tree_b[i];
        adj[deg[s->tree_b[i]] + stack[s->tree_b[i]]++] = s->tree_a[i];
    }
    for (int32_t i = 0; i < n; i++)
        dist[i] = -1;
    int32_t top = 0, best = 0;
    dist[0] = 0;
    stack[top++] = 0;
    while (top > 0)
    {
        int32_t u = stack[--top];
        int32_t du = dist[u], dbest = dist[best];
        if (du > dbest || (du == dbest && u < best))
            best = u;
        for (int32_t e = deg[u]; e < deg[u + 1]; e++)
        {
            int32_t v = adj[e];
            if (dist[v] >= 0)
                continue;
            const dg_rect *a = &s->rooms[u].rect, *b = &s->rooms[v].rect;
            dist[v] = dist[u] + llabs((2 * (int64_t)a->x + a->w) - (2 * (int64_t)b->x + b->w)) +
                      llabs((2 * (int64_t)a->y + a->h) - (2 * (int64_t)b->y + b->h));
            stack[top++] = v;
        }
    }
    return best;
}

/* Start, exit and metrics measured on the scratch tiles, into a result that
 * borrows the scratch lists (nothing of the caller's is touched yet). */
static dg_status measure(scatter_ctx *s, int32_t start, dg_result *t)
{
    dg_grid view = {s->map, s->w, s->h, s->w};
    memset(t, 0, sizeof *t);
    t->rooms = s->rooms;
    t->room_count = s->n;
    t->corridors = s->cors;
    t->corridor_count = s->nc;
    t->doors = s->doors;
    t->door_count = s->nd;
    t->start.x = t->start.y = t->exit.x = t->exit.y = -1;
    t->start_room = t->exit_room = -1;
    dg_point none = {-1, -1};
    dg_metrics *m = &t->metrics;
    dg_status st = dgi_result_finish_at(t, &view, none, start, &m->loops, s->a);
    if (st == DG_OK)
        st = dgi_result_exit_in_room(t, &view, s->a);
    m->attempts = (int32_t)DG_MIN(s->attempts, INT32_MAX);
    m->failures = (int32_t)DG_MIN(s->failures, INT32_MAX);
    m->requested = s->requested;
    m->placed = s->n;
    m->stopped_early = s->n < s->requested;
    return st;
}

static dg_status copy_result(const dg_result *t, dg_result *r)
{
    dg_status st = dgi_result_reserve(r, t->room_count, t->corridor_count, t->door_count, 0);
    if (st != DG_OK)
        return st;
    dgi_result_reset(r); /* a reused result keeps no labels or counts of its last map */
    if (t->room_count > 0) /* (an empty list may have no array) */
        memcpy(r->rooms, t->rooms, (size_t)t->room_count * sizeof *r->rooms);
    if (t->corridor_count > 0)
        memcpy(r->corridors, t->corridors, (size_t)t->corridor_count * sizeof *r->corridors);
    if (t->door_count > 0)
        memcpy(r->doors, t->doors, (size_t)t->door_count * sizeof *r->doors);
    r->room_count = t->room_count;
    r->corridor_count = t->corridor_count;
    r->door_count = t->door_count;
    r->start = t->start;
    r->exit = t->exit;
    r->start_room = t->start_room;
    r->exit_room = t->exit_room;
    r->metrics = t->metrics;
    return DG_OK;
}

/* Rooms, tree, loops and walls, all in scratch memory. */
static dg_status build(scatter_ctx *s)
{
    dg_status st = place_rooms(s);
    if (st != DG_OK)
        return st;
    if (s->n < rooms_needed(s->p))
        return DG_E_NOSPACE;
    if ((st = alloc_links(s, s->p->neighbours)) != DG_OK)
        return st;
    dgi_scatter_set_centres(s);
    if (s->n > SCATTER_BRUTE_ROOMS && (st = dgi_scatter_build_buckets(s)) != DG_OK)
        return st;
    for (int32_t i = 0; i < s->n; i++)
        s->uf[i] = i;
    if ((st = dgi_scatter_build_edges(s, s->p->neighbours)) != DG_OK)
        return st;
    /* room for a tree and the loops of a default map (about a fifth of the
     * rooms), two doors a corridor: growing doubles, so a spare third costs less */
    SCATTER_GROW(s, cors, cor_cap, s->n + s->n / 3 + 16);
    SCATTER_GROW(s, doors, door_cap, 2 * (s->n + s->n / 3) + 16);
    st = first_tree(s);
    if (st == DG_OK && s->nt < s->n - 1)
        st = retry_tree(s);
    if (st == DG_OK)
        st = add_loops(s);
    if (st == DG_OK)
    {
        wall_corridors(s);
        unwall_shapes(s);
    }
    return st;
}

dg_status dg_scatter_generate(dg_grid *grid, const dg_scatter_params *params, uint64_t seed,
                              dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_scatter_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_scatter_generate(dg_grid *grid, const dg_scatter_params *params, uint64_t seed,
                               const dgi_mask *reserved, dg_result *result,
                               const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    scatter_ctx s;
    memset(&s, 0, sizeof s);
    s.p = params;
    s.a = allocator;
    s.reserved = reserved;
    s.w = grid->width;
    s.h = grid->height;
    s.x0 = s.y0 = params->border;
    s.x1 = s.w - 1 - params->border;
    s.y1 = s.h - 1 - params->border;
    s.max_w = DG_MIN(params->room_max_w, s.w - 2 * params->border - 2);
    s.max_h = DG_MIN(params->room_max_h, s.h - 2 * params->border - 2);
    dgi_rng_seed(&s.place, seed, STREAM_PLACE);
    dgi_rng_seed(&s.route, seed, STREAM_ROUTE);
    dgi_rng_seed(&s.loop, seed, STREAM_LOOP);
    dgi_rng_seed(&s.shape, seed, STREAM_SHAPE);
    s.ow = (s.w + 63) >> 6;
    size_t occ_bytes = (size_t)s.ow * (size_t)s.h * sizeof *s.occ;
    s.block = occ_bytes + (size_t)s.w * (size_t)s.h;
    s.occ = dgi_calloc(allocator, s.block, 1);
    s.map = s.occ ? (uint8_t *)s.occ + occ_bytes : NULL;
    st = s.occ ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK && reserved)
        st = block_reserved(&s);
    if (st == DG_OK)
        st = build(&s);
    dg_result t;
    if (st == DG_OK && result)
        st = measure(&s, start_room(&s), &t);
    if (st == DG_OK && result)
        st = copy_result(&t, result);
    if (st == DG_OK && reserved)
        copy_around(&s, grid);
    else if (st == DG_OK)
        for (int32_t y = 0; y < s.h; y++)
            memcpy(&DG_CELL(grid, 0, y), dgi_scatter_at(&s, 0, y), (size_t)s.w);
    int32_t placed = s.n;
    scatter_free(&s);
    if (st == DG_E_NOSPACE)
        return dgi_fail(diag, st, "scatter: placed %d of the %d rooms needed on a %dx%d grid",
                        (int)placed, (int)rooms_needed(params), (int)grid->width,
                        (int)grid->height);
    if (st != DG_OK)
        return dgi_fail(diag, st, "scatter: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}
