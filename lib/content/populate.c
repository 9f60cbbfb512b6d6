/* dg_populate: spawn-table entries placed room by room on a difficulty budget
 * that grows with depth (the caller's curve) and with the room's walking
 * distance from the start (docs/content.md). */
#include "content/content.h"
#include "content/spawn.h"

#define POPULATE_STREAM 0x706F70756CULL /* one random stream per room, from this */
#define FAILS_MAX 8                     /* failed picks that end a room */
#define RESERVE_MAX 128                 /* spawns reserved before the rooms, at most */

void dg_populate_defaults(dg_populate_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->depth = 1;
    params->curve_points = 2;
    params->curve_depth[0] = 1;
    params->curve_budget[0] = 1;
    params->curve_depth[1] = 31;
    params->curve_budget[1] = 16;
    params->distance_permille = 2000;
    params->cells_per_spawn = 8;
}

/* ---- checks ------------------------------------------------------------------ */

static dg_status check_curve(const dg_populate_params *p, dg_diag *diag)
{
    if (p->curve_points < 1 || p->curve_points > DG_POPULATE_CURVE_MAX)
        return dgi_fail(diag, DG_E_INVALID, "curve_points (%d) must be in 1..%d",
                        (int)p->curve_points, DG_POPULATE_CURVE_MAX);
    for (int32_t i = 0; i < p->curve_points; i++)
    {
        if (p->curve_budget[i] < 0 || p->curve_budget[i] > 1000000)
            return dgi_fail(diag, DG_E_INVALID, "curve_budget[%d] (%d) must be in 0..1000000",
                            (int)i, (int)p->curve_budget[i]);
        if (p->curve_depth[i] < 0 || p->curve_depth[i] > DG_SPAWN_DEPTH_MAX)
            return dgi_fail(diag, DG_E_INVALID, "curve_depth[%d] (%d) must be in 0..%d", (int)i,
                            (int)p->curve_depth[i], DG_SPAWN_DEPTH_MAX);
        if (i > 0 && p->curve_depth[i] <= p->curve_depth[i - 1])
            return dgi_fail(diag, DG_E_INVALID,
                            "curve_depth[%d] (%d) must be greater than curve_depth[%d] (%d)",
                            (int)i, (int)p->curve_depth[i], (int)(i - 1),
                            (int)p->curve_depth[i - 1]);
        if (i > 0 && p->curve_budget[i] < p->curve_budget[i - 1])
            return dgi_fail(diag, DG_E_INVALID,
                            "the budget curve decreases: curve_budget[%d] (%d) is below "
                            "curve_budget[%d] (%d)", (int)i, (int)p->curve_budget[i],
                            (int)(i - 1), (int)p->curve_budget[i - 1]);
    }
    return DG_OK;
}

static dg_status check_params(const dg_populate_params *p, dg_diag *diag)
{
    if (DGI_SPARE_CHECK(p->spare, "populate params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->depth < 0 || p->depth > DG_SPAWN_DEPTH_MAX)
        return dgi_fail(diag, DG_E_INVALID, "depth (%d) must be in 0..%d", (int)p->depth,
                        DG_SPAWN_DEPTH_MAX);
    if (p->distance_permille < 0 || p->distance_permille > 100000)
        return dgi_fail(diag, DG_E_INVALID, "distance_permille (%d) must be in 0..100000",
                        (int)p->distance_permille);
    if (p->cells_per_spawn < 1 || p->cells_per_spawn > 1000)
        return dgi_fail(diag, DG_E_INVALID, "cells_per_spawn (%d) must be in 1..1000",
                        (int)p->cells_per_spawn);
    if (p->view_radius < 0)
        return dgi_fail(diag, DG_E_INVALID, "view_radius (%d) must be >= 0", (int)p->view_radius);
    return check_curve(p, diag);
}

static const char *role_of(const dg_result *r, int32_t room)
{
    return r->labels && r->label_count == r->room_count ? r->labels[room].role : "";
}

enum { KIND_NAMES = 6 }; /* the room kinds' names, and "" for any other kind */
static const char *const kind_names[KIND_NAMES] = {"normal", "prefab",   "cave",
                                                   "start",  "junction", ""};

static int kind_index(int32_t kind)
{
    return kind >= 0 && kind < KIND_NAMES - 1 ? (int)kind : KIND_NAMES - 1;
}

static const char *kind_name(int32_t kind)
{
    return kind_names[kind_index(kind)];
}

/* 1 if the room's role is `word`; most rooms have none, and no call then. */
static int role_is(const dg_result *r, int32_t room, const char *word)
{
    const char *role = role_of(r, room);
    return role[0] == word[0] && strcmp(role, word) == 0;
}

static int is_boss_room(const dg_result *r, int32_t room)
{
    return role_is(r, room, "boss");
}

static int is_treasure_room(const dg_result *r, int32_t room)
{
    return role_is(r, room, "treasure");
}

/* A boss room needs an entry that lists "boss"; a treasure room an item
 * that may appear in it. */
static dg_status check_roles(const dg_spawn_table *t, const dg_result *r, dg_diag *diag)
{
    for (int32_t i = 0; i < r->room_count; i++)
    {
        int boss = is_boss_room(r, i), treasure = is_treasure_room(r, i);
        int found = !boss && !treasure;
        for (int32_t k = 0; k < t->count && !found; k++)
        {
            const dg_spawn_entry *e = &t->entries[k];
            found = boss ? (t->facts[k] & DGI_SPAWN_BOSS) != 0
                         : (t->facts[k] & DGI_SPAWN_ITEM) &&
                               dgi_spawn_fits_room(e, "treasure", kind_name(r->rooms[i].kind));
        }
        if (!found)
            return dgi_fail(diag, DG_E_INVALID,
                            "the spawn table has no entry for role '%s' (room %d): %s",
                            boss ? "boss" : "treasure", (int)i,
                            boss ? "add one whose rooms list 'boss'"
                                 : "add an item whose rooms allow 'treasure'");
    }
    return DG_OK;
}

static dg_status check_input(const dg_grid *g, const dg_spawn_table *t, const dg_populate_params *p,
                             const dg_result *r, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(g, diag);
    if (st != DG_OK)
        return st;
    if (!t)
        return dgi_fail(diag, DG_E_NULL, "populate: table is NULL");
    if (!r)
        return dgi_fail(diag, DG_E_NULL, "populate: result is NULL");
    if ((st = check_params(p, diag)) != DG_OK)
        return st;
    dg_point s = r->start;
    if (s.x < 0 || s.y < 0 || s.x >= g->width || s.y >= g->height)
        return dgi_fail(diag, DG_E_INVALID, "the result's start (%d, %d) is not a cell of the "
                        "%dx%d grid", (int)s.x, (int)s.y, (int)g->width, (int)g->height);
    const uint8_t *pass = p->passable ? p->passable : dgi_passable_default;
    if (!pass[DG_CELL(g, s.x, s.y)])
        return dgi_fail(diag, DG_E_INVALID, "the result's start (%d, %d) is not passable",
                        (int)s.x, (int)s.y);
    return check_roles(t, r, diag);
}

/* ---- the populating state ---------------------------------------------------- */

enum { /* what populate knows of an entry before the rooms (pop.flags): the
        * table's facts (spawn.h) and two of its own */
    ENTRY_AT_DEPTH = 1,             /* appears at params->depth */
    ENTRY_BOSS = DGI_SPAWN_BOSS,    /* lists "boss": placed once, first, in each boss room */
    ENTRY_ITEM = DGI_SPAWN_ITEM,    /* kind "item" */
    ENTRY_ANY = DGI_SPAWN_ANY,      /* fits every room (no room words, or "any") */
    ENTRY_ACTOR = DGI_SPAWN_ACTOR,  /* kind "monster" */
    ENTRY_PICKED = 32               /* cost 0 and picked in the room being filled */
};

typedef struct pop {
    const dg_grid *grid;
    const dg_spawn_table *table;
    const dg_populate_params *p;
    const dg_result *r;
    dgi_move w;
    size_t n;
    void *block;        /* one allocation for every per-cell array */
    size_t block_size;
    const int32_t *dist; /* walking distance from the start (n; the caller's or own) */
    int32_t *queue;     /* the search's queue (n); then a room's free cells */
    uint8_t *kept;      /* kept empty (n): in view of the start, or a marker's or
                         * spawn's cell; a footprint on free cells is out of
                         * view, so fits reads it as taken */
    uint8_t *free;      /* a room rect's free cells (rect_free_cells; n at most) */
    uint8_t *cols;      /* a rect row's column bits (width + 2) */
    uint8_t open[256];      /* per tile: 1 if passable */
    uint8_t unspawnable[256]; /* per tile: 1 unless a spawn may stand on it (dgi_spawn_tile) */
    int32_t *room_dist; /* per room, -1: unreached */
    const int32_t *known_dist; /* per room from the roles (NULL: none): room_dist's, or
                                * DGI_DIST_UNKNOWN where it is measured here */
    dg_rect *rects;     /* per room, its rect clipped to the grid (room_rect) */
    int32_t max_dist;
    int32_t base_budget; /* the curve at params->depth (curve_at) */
    uint8_t *flags;     /* per entry, ENTRY_* */
    uint8_t *kinds;     /* per entry: bit i if it lists kind_names[i] ... */
    uint8_t *kinds_known; /* ... once bit i here says it was looked up */
    int32_t *cost, *group_min; /* per entry, beside each other for the picks */
    int32_t *need;      /* per entry: cost * group_min, the least a group of it spends */
    int32_t *fit;       /* per entry: the entries that fit the room being filled */
    int32_t *pickable;  /* per entry: those of them a pick may choose now */
    const char *fit_role, *fit_kind; /* the role and kind q->fit was made for (NULL: none) */
    int fit_treasure;   /* ... and whether for a treasure room */
    int32_t fit_count;  /* entries in q->fit */
    dg_marker *out;
    int32_t out_count, out_cap;
    const dg_allocator *a;
    dg_populate_stats stats;
} pop;

static size_t cell_index(const pop *q, int32_t x, int32_t y)
{
    return (size_t)y * (size_t)q->w.width + (size_t)x;
}

/* The room's rect clipped to the grid. */
static dg_rect room_rect(const pop *q, int32_t room)
{
    dg_rect r = q->r->rooms[room].rect;
    int64_t x0 = DG_MAX(r.x, 0), y0 = DG_MAX(r.y, 0);
    int64_t x1 = DG_MIN((int64_t)r.x + r.w, q->w.width), y1 = DG_MIN((int64_t)r.y + r.h, q->w.height);
    dg_rect c = {(int32_t)x0, (int32_t)y0, (int32_t)DG_MAX(x1 - x0, 0), (int32_t)DG_MAX(y1 - y0, 0)};
    return c;
}

static int open_at(const pop *q, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < q->w.width && y < q->w.height && q->w.pass[DG_CELL(&q->w, x, y)];
}

/* The least walking distance over rows y0 .. y1 - 1 of the rect, every
 * cell (all) or the first and last of each; unreached and shut cells (< 0)
 * read as huge. */
static uint32_t rect_rows_nearest(const pop *q, dg_rect c, int32_t y0, int32_t y1, int all)
{
    uint32_t best = UINT32_MAX;
    for (int32_t y = y0; y < y1; y++)
    {
        const int32_t *d = q->dist + cell_index(q, c.x, y);
        if (!all)
            best = DG_MIN(best, DG_MIN((uint32_t)d[0], (uint32_t)d[c.w - 1]));
        else
            for (int32_t x = 0; x < c.w; x++)
                best = DG_MIN(best, (uint32_t)d[x]);
    }
    return best;
}

/* Walking distance of a room: its nearest reached cell. The walk takes unit
 * steps, so a walk from outside the rect reaches its border first: unless
 * the start is inside, the border's nearest cell is the rect's. */
static int32_t room_distance(const pop *q, dg_rect c)
{
    const dg_point s = q->r->start;
    int inside = s.x >= c.x && s.y >= c.y && s.x < c.x + c.w && s.y < c.y + c.h;
    uint32_t best;
    if (inside || c.w <= 2 || c.h <= 2) /* every cell on the border (or none) */
        best = rect_rows_nearest(q, c, c.y, c.y + c.h, 1);
    else
        best = DG_MIN(rect_rows_nearest(q, c, c.y, c.y + 1, 1),
                      DG_MIN(rect_rows_nearest(q, c, c.y + 1, c.y + c.h - 1, 0),
                             rect_rows_nearest(q, c, c.y + c.h - 1, c.y + c.h, 1)));
    return best > (uint32_t)INT32_MAX ? -1 : (int32_t)best;
}

/* Walking distance of each room, and the farthest. */
static void room_distances(pop *q)
{
    q->max_dist = 0;
    for (int32_t i = 0; i < q->r->room_count; i++)
    {
        q->rects[i] = room_rect(q, i);
        int known = q->known_dist && q->known_dist[i] != DGI_DIST_UNKNOWN;
        q->room_dist[i] = known ? q->known_dist[i] : room_distance(q, q->rects[i]);
        q->max_dist = DG_MAX(q->max_dist, q->room_dist[i]);
    }
}

/* Marks the start, the exit and every marker's footprint as taken. */
static void mark_taken(pop *q)
{
    const dg_point ends[2] = {q->r->start, q->r->exit};
    for (int k = 0; k < 2; k++)
        if (open_at(q, ends[k].x, ends[k].y) || (ends[k].x >= 0 && ends[k].y >= 0 &&
                                                ends[k].x < q->w.width && ends[k].y < q->w.height))
            q->kept[cell_index(q, ends[k].x, ends[k].y)] = 1;
    for (int32_t m = 0; m < q->r->marker_count; m++)
    {
        dg_point c = q->r->markers[m].pos;
        int32_t side = DG_MAX(q->r->markers[m].size, 1);
        for (int32_t dy = 0; dy < side; dy++)
            for (int32_t dx = 0; dx < side; dx++)
                if (c.x + dx >= 0 && c.y + dy >= 0 && c.x + dx < q->w.width && c.y + dy < q->w.height)
                    q->kept[cell_index(q, c.x + dx, c.y + dy)] = 1;
    }
}

/* Whether a cell may be a chokepoint: its open 4-neighbours fall into two or
 * more groups, two of them joined when the diagonal cell between them is
 * open. Every chokepoint (dg_chokepoints's articulation cell) is one, so a
 * spawn kept off these is off every chokepoint; the test reads the 8 cells
 * around, not the whole map. An open side is its own group unless the next
 * side clockwise and the diagonal between them are open too; two or more such
 * groups make a cut. Bit w of CUT is that answer for the 3x3 window
 * w = col(x - 1) | col(x) << 3 | col(x + 1) << 6, where col(x) = open above |
 * open here << 1 | open below << 2 (bits 0 NW, 1 W, 2 SW, 3 N, 5 S, 6 NE,
 * 7 E, 8 SE; cells off the grid are shut). The window slides along a row:
 * three cells read per step. */
static const uint64_t CUT[8] = {
    0x7F0C7F0C44004400ULL, 0x7F0C7F0C44004400ULL, 0xFFFFFFFFFFCCFFCCULL, 0x7FFF7FFF44CC44CCULL,
    0x7F0C7F0C44004400ULL, 0x7F0C7F0C44004400ULL, 0x7F0C7F0CFFCCFFCCULL, 0x040C040C44CC44CCULL};

/* The open cells of columns x0 .. x0 + count - 1 of rows up, mid and down
 * (NULL: off the grid) as col bits into cols; 0 off the grid. */
static void row_columns(const pop *q, const uint8_t *up, const uint8_t *mid, const uint8_t *down,
                        int32_t x0, int32_t count, uint8_t *cols)
{
    const uint8_t *u = up ? up : mid, *d = down ? down : mid; /* masked out when NULL */
    const unsigned um = up ? 1u : 0u, dm = down ? 4u : 0u;
    int32_t lo = x0 < 0 ? -x0 : 0, hi = DG_MIN(count, q->w.width - x0);
    for (int32_t j = 0; j < lo; j++)
        cols[j] = 0;
    for (int32_t j = DG_MAX(hi, 0); j < count; j++)
        cols[j] = 0;
    for (int32_t j = lo, x = x0 + lo; j < hi; j++, x++)
        cols[j] = (uint8_t)((q->open[u[x]] & um) | (unsigned)q->open[mid[x]] << 1 |
                            (((unsigned)q->open[d[x]] << 2) & dm));
}

/* The col bits of the row above those in cols: each column's moves up one
 * row (the row below drops out) and the row `up` (NULL: off the grid) comes
 * in; columns off the grid stay 0. */
static void row_columns_up(const pop *q, const uint8_t *up, int32_t x0, int32_t count,
                           uint8_t *cols)
{
    int32_t lo = x0 < 0 ? -x0 : 0, hi = DG_MIN(count, q->w.width - x0);
    if (!up)
        for (int32_t j = lo; j < hi; j++)
            cols[j] = (uint8_t)(((unsigned)cols[j] << 1) & 6u);
    else
        for (int32_t j = lo, x = x0 + lo; j < hi; j++, x++)
            cols[j] = (uint8_t)((((unsigned)cols[j] << 1) & 6u) | q->open[up[x]]);
}

/* The rect's free cells: 1 in q->free (rect.w per row), 0 for the others.
 * A cell is free unless it is kept (in the start's view or taken),
 * unreached, no spawn tile, or a possible chokepoint (may_cut, by the sliding
 * window of q->cols). No clearance is measured: a footprint's cells are read
 * when one larger than a cell is placed (fits), which few are, and a cell
 * that waits on its right neighbour's clearance waits on a store. The free
 * cells go, packed and row by row, to the end of q->queue (written backwards
 * as the rows are read from the bottom up); returns their number. */
static int32_t rect_free_cells(pop *q, dg_rect c)
{
    uint8_t *cols = q->cols;
    int32_t *cell = q->queue + q->n; /* the next free cell goes before this */
    for (int32_t y = c.h - 1; y >= 0; y--)
    {
        int32_t gy = c.y + y;
        const uint8_t *mid = &DG_CELL(&q->w, 0, gy);
        const uint8_t *up = gy > 0 ? mid - q->w.stride : NULL;
        const uint8_t *down = gy + 1 < q->w.height ? mid + q->w.stride : NULL;
        if (y == c.h - 1)
            row_columns(q, up, mid, down, c.x - 1, c.w + 2, cols);
        else
            row_columns_up(q, up, c.x - 1, c.w + 2, cols);
        const size_t base = cell_index(q, (int32_t)c.x, gy);
        const uint8_t *tile = mid + c.x, *kept = q->kept + base;
        const int32_t *dist = q->dist + base;
        uint8_t *row = q->free + (size_t)y * (size_t)c.w;
        for (int32_t x = c.w - 1; x >= 0; x--)
        {
            row[x] = 0;
            if (kept[x] | q->unspawnable[tile[x]] | ((uint32_t)dist[x] >> 31))
                continue;
            unsigned win = cols[x] | (unsigned)cols[x + 1] << 3 | (unsigned)cols[x + 2] << 6;
            if ((CUT[win >> 6] >> (win & 63)) & 1u)
                continue;
            row[x] = 1;
            *--cell = DGI_PACK(c.x + x, gy);
        }
    }
    return (int32_t)(q->queue + q->n - cell);
}

static int32_t curve_at(const dg_populate_params *p, int32_t depth)
{
    if (depth <= p->curve_depth[0])
        return p->curve_budget[0];
    for (int32_t i = 1; i < p->curve_points; i++)
        if (depth < p->curve_depth[i])
        {
            int64_t d0 = p->curve_depth[i - 1], b0 = p->curve_budget[i - 1];
            int64_t span = p->curve_depth[i] - d0, rise = p->curve_budget[i] - b0;
            return (int32_t)(b0 + (depth - d0) * rise / span);
        }
    return p->curve_budget[p->curve_points - 1];
}

static int32_t room_budget(const pop *q, int32_t room)
{
    int64_t base = q->base_budget;
    int64_t grow = q->max_dist > 0
                       ? (int64_t)q->p->distance_permille * q->room_dist[room] / q->max_dist
                       : 0;
    return (int32_t)DG_MIN(base * (1000 + grow) / 1000, INT32_MAX / 2);
}

/* ---- placing a group ----------------------------------------------------------- */

typedef struct room_state {
    int32_t room, budget, left, slots_left, count;
    int32_t least;     /* the least cost an entry may have (least_cost) */
    int32_t fit_count; /* entries in q->fit */
    int boss, treasure;
    dg_rect rect;
    const int32_t *cells; /* the room's free cells, packed, row by row (count) */
} room_state;

/* 1 if a size-`side` footprint fits at packed cell c of the room: inside
 * its rect, on its free cells, none taken by a spawn placed since. */
static int fits(const pop *q, const room_state *rs, int32_t c, int32_t side)
{
    int32_t x = DGI_PX(c), y = DGI_PY(c), bx = x - rs->rect.x, by = y - rs->rect.y;
    if (bx + side > rs->rect.w || by + side > rs->rect.h)
        return 0;
    for (int32_t dy = 0; dy < side; dy++)
    {
        const uint8_t *free = q->free + (size_t)(by + dy) * (size_t)rs->rect.w + (size_t)bx;
        const uint8_t *kept = q->kept + cell_index(q, x, y + dy);
        for (int32_t dx = 0; dx < side; dx++)
            if (!free[dx] || kept[dx])
                return 0;
    }
    return 1;
}

/* 1 if a size-`side` footprint fits at grid cell (x, y) of the room's rect. */
static int fits_at(const pop *q, const room_state *rs, int32_t x, int32_t y, int32_t side)
{
    return fits(q, rs, DGI_PACK(x, y), side);
}

/* The fitting cell nearest to packed cell `near` (Chebyshev distance), the
 * first in the room's list (row by row) among the nearest: rings of growing
 * radius inside the rect, each read row by row, so a group's next member
 * costs the few cells around its leader, not the whole room. -1 if none. */
static int32_t nearest_cell(const pop *q, const room_state *rs, int32_t side, int32_t near)
{
    const dg_rect r = rs->rect;
    const int32_t nx = DGI_PX(near), ny = DGI_PY(near), xe = r.x + r.w - 1, ye = r.y + r.h - 1;
    const int32_t reach = DG_MAX(DG_MAX(nx - r.x, xe - nx), DG_MAX(ny - r.y, ye - ny));
    for (int32_t d = 0; d <= reach; d++)
    {
        int32_t x0 = DG_MAX(nx - d, r.x), x1 = DG_MIN(nx + d, xe);
        for (int32_t y = DG_MAX(ny - d, r.y); y <= DG_MIN(ny + d, ye); y++)
        {
            if (y == ny - d || y == ny + d) /* a whole row of the ring */
            {
                for (int32_t x = x0; x <= x1; x++)
                    if (fits_at(q, rs, x, y, side))
                        return DGI_PACK(x, y);
                continue;
            }
            if (nx - d >= r.x && fits_at(q, rs, nx - d, y, side))
                return DGI_PACK(nx - d, y);
            if (nx + d <= xe && fits_at(q, rs, nx + d, y, side))
                return DGI_PACK(nx + d, y);
        }
    }
    return -1;
}

/* A fitting cell: the first from a random place in the room's list, or (near
 * >= 0) the nearest to the packed cell near; -1 if none fits. */
static int32_t find_cell(const pop *q, const room_state *rs, int32_t side, int32_t near,
                         dg_rng *rng)
{
    if (near >= 0)
        return nearest_cell(q, rs, side, near);
    const int32_t *cells = rs->cells;
    int32_t from = (int32_t)dgi_rng_below(rng, (uint32_t)rs->count);
    for (int32_t k = 0; k < rs->count; k++)
    {
        int32_t c = cells[from + k < rs->count ? from + k : from + k - rs->count];
        if (fits(q, rs, c, side))
            return c;
    }
    return -1;
}

static dg_status add_spawn(pop *q, const dg_spawn_entry *e, int32_t room, int32_t c, int32_t group)
{
    if (dgi_grow(q->a, (void **)&q->out, &q->out_cap, q->out_count + 1, sizeof *q->out) != DG_OK)
        return DG_E_NOMEM;
    dg_marker *m = &q->out[q->out_count++]; /* every field set below, no padding */
    m->pos.x = DGI_PX(c);
    m->pos.y = DGI_PY(c);
    uint8_t f = q->flags[e - q->table->entries];
    m->kind = f & ENTRY_ITEM ? DG_MARKER_ITEM : f & ENTRY_ACTOR ? DG_MARKER_ACTOR : DG_MARKER_SPAWN;
    m->room = room;
    memcpy(m->name, e->name, sizeof m->name);
    memcpy(m->type, e->kind, sizeof m->type);
    m->number = group;
    m->size = e->size;
    m->cost = e->cost;
    for (int32_t dy = 0; dy < e->size; dy++)
        for (int32_t dx = 0; dx < e->size; dx++)
            q->kept[cell_index(q, m->pos.x + dx, m->pos.y + dy)] = 1;
    return DG_OK;
}

/* Places up to `members` of entry e around one leader; *placed gets how many. */
static dg_status place_group(pop *q, const dg_spawn_entry *e, const room_state *rs,
                             int32_t members, dg_rng *rng, int32_t *placed)
{
    *placed = 0;
    int32_t leader = find_cell(q, rs, e->size, -1, rng);
    if (leader < 0)
        return DG_OK;
    int32_t group = q->stats.groups + 1;
    dg_status st = DG_OK;
    for (int32_t c = leader; st == DG_OK && c >= 0 && *placed < members;)
    {
        st = add_spawn(q, e, rs->room, c, group);
        if (st == DG_OK)
            ++*placed;
        c = *placed < members ? find_cell(q, rs, e->size, leader, rng) : -1;
    }
    q->stats.groups++;
    return st;
}

/* ---- one room ---------------------------------------------------------------- */

/* 1 if entry k lists the room kind kind_names[i], looked up once a call. */
static int lists_kind(pop *q, int32_t k, int i)
{
    if (!((q->kinds_known[k] >> i) & 1))
    {
        q->kinds_known[k] |= (uint8_t)(1u << i);
        q->kinds[k] |= (uint8_t)(dgi_spawn_lists(&q->table->entries[k], kind_names[i]) << i);
    }
    return (q->kinds[k] >> i) & 1;
}

/* The entries that may ever fill this room (depth, role and kind, items only
 * in a treasure room, bosses apart) into q->fit, in table order; kept for the
 * next room when its role, kind and treasure flag are the same. */
static void room_entries(pop *q, room_state *rs)
{
    const int kind_bit = kind_index(q->r->rooms[rs->room].kind);
    const char *role = role_of(q->r, rs->room), *kind = kind_names[kind_bit];
    if (q->fit_role && q->fit_kind == kind && q->fit_treasure == rs->treasure &&
        strcmp(q->fit_role, role) == 0)
    {
        rs->fit_count = q->fit_count;
        return;
    }
    rs->fit_count = 0;
    for (int32_t k = 0; k < q->table->count; k++)
    {
        uint8_t f = q->flags[k];
        if ((f & ENTRY_AT_DEPTH) && !(f & ENTRY_BOSS) && (!rs->treasure || (f & ENTRY_ITEM)) &&
            ((f & ENTRY_ANY) || lists_kind(q, k, kind_bit) ||
             (role[0] && dgi_spawn_lists(&q->table->entries[k], role)))) /* dgi_spawn_fits_room */
            q->fit[rs->fit_count++] = k;
    }
    q->fit_role = role;
    q->fit_kind = kind;
    q->fit_treasure = rs->treasure;
    q->fit_count = rs->fit_count;
}

/* 1 if entry k may be picked now to spend the room's budget; an entry of
 * cost 0 spends none, so it is picked at most once a room (one shopkeeper). */
static int may_fill(const pop *q, const room_state *rs, int32_t k)
{
    return q->need[k] <= rs->left && q->cost[k] >= rs->least && q->group_min[k] <= rs->slots_left &&
           !(q->flags[k] & ENTRY_PICKED);
}

/* A weighted pick among the entries listed in q->pickable[0 .. n) (weights
 * summing to total); -1 if total is 0 (no number drawn). */
static int32_t roll_pick(const pop *q, int32_t n, uint64_t total, dg_rng *rng)
{
    if (total == 0)
        return -1;
    uint64_t roll = dgi_rng_below(rng, (uint32_t)total); /* at most 4096 * 10^6 < 2^32 */
    for (int32_t i = 0; i < n; i++)
    {
        uint64_t weight = (uint64_t)q->table->entries[q->pickable[i]].weight;
        if (roll < weight)
            return q->pickable[i];
        roll -= weight;
    }
    return -1;
}

/* The room's next pick, among its entries that may_fill with rs->least set
 * first to the least cost an entry picked now may have: the budget left per
 * slot left, or the costliest entry that fits if that is less, so that a
 * room far from the start spends its budget on harder spawns rather than on
 * more of them. One pass lists the entries that fit with no least cost, a
 * second keeps those that cost enough. -1 if none. */
static int32_t pick_filler(const pop *q, room_state *rs, dg_rng *rng)
{
    rs->least = 0;
    int32_t n = 0, most = 0;
    for (int32_t i = 0; i < rs->fit_count; i++)
    {
        int32_t k = q->fit[i];
        if (may_fill(q, rs, k))
        {
            q->pickable[n++] = k;
            most = DG_MAX(most, q->cost[k]);
        }
    }
    rs->least = DG_MIN(rs->left / DG_MAX(rs->slots_left, 1), most);
    int32_t m = 0;
    uint64_t total = 0;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t k = q->pickable[i];
        if (q->cost[k] >= rs->least)
        {
            q->pickable[m++] = k;
            total += (uint64_t)q->table->entries[k].weight;
        }
    }
    return roll_pick(q, m, total, rng);
}

/* A weighted pick of a boss among the boss entries at this depth; -1 if none. */
static int32_t pick_boss(const pop *q, dg_rng *rng)
{
    int32_t n = 0;
    uint64_t total = 0;
    for (int32_t k = 0; k < q->table->count; k++)
        if ((q->flags[k] & (ENTRY_BOSS | ENTRY_AT_DEPTH)) == (ENTRY_BOSS | ENTRY_AT_DEPTH))
        {
            q->pickable[n++] = k;
            total += (uint64_t)q->table->entries[k].weight;
        }
    return roll_pick(q, n, total, rng);
}

/* Members of a group of e the room can still pay and hold. */
static int32_t group_size(const room_state *rs, const dg_spawn_entry *e, int boss, dg_rng *rng)
{
    int32_t hi = e->group_max;
    if (!boss && e->cost > 0)
        hi = (int32_t)DG_MIN(hi, rs->left / e->cost);
    hi = DG_MIN(hi, rs->slots_left);
    return dg_rng_range(rng, e->group_min, DG_MAX(hi, e->group_min));
}

static dg_status spend(pop *q, room_state *rs, int32_t k, int boss, dg_rng *rng, int32_t *placed)
{
    const dg_spawn_entry *e = &q->table->entries[k];
    int32_t members = group_size(rs, e, boss, rng);
    dg_status st = place_group(q, e, rs, members, rng, placed);
    rs->left = (int32_t)DG_MAX((int64_t)rs->left - (int64_t)e->cost * *placed, 0);
    rs->slots_left -= *placed;
    q->stats.spent += e->cost * *placed;
    q->stats.spawns += *placed;
    return st;
}

/* The room's free cells, packed, row by row, into rs->cells; their number. */
static int32_t room_cells(pop *q, room_state *rs)
{
    int32_t count = rect_free_cells(q, rs->rect);
    rs->cells = q->queue + q->n - count;
    return count;
}

static dg_status fill_room(pop *q, room_state *rs, dg_rng *rng)
{
    int32_t placed = 0;
    dg_status st = DG_OK;
    if (rs->boss)
    {
        /* a boss that does not fit makes way for another (q->fit lists
         * those tried, whose depth flag is set again afterwards) */
        int32_t tried = 0, k;
        while (st == DG_OK && placed == 0 && (k = pick_boss(q, rng)) >= 0)
        {
            st = spend(q, rs, k, 1, rng, &placed);
            q->flags[k] &= (uint8_t)~ENTRY_AT_DEPTH;
            q->fit[tried++] = k;
        }
        for (int32_t i = 0; i < tried; i++)
            q->flags[q->fit[i]] |= ENTRY_AT_DEPTH;
        q->fit_role = NULL; /* q->fit held the tries */
        if (placed == 0)
            q->stats.boss_missing++;
    }
    room_entries(q, rs);
    int picked = 0; /* an entry got ENTRY_PICKED */
    for (int32_t fails = 0; st == DG_OK && fails < FAILS_MAX && rs->slots_left > 0;)
    {
        int32_t k = pick_filler(q, rs, rng);
        if (k < 0)
            break;
        st = spend(q, rs, k, 0, rng, &placed);
        fails += placed == 0 || q->cost[k] == 0;
        if (q->cost[k] == 0)
        {
            q->flags[k] |= ENTRY_PICKED;
            picked = 1;
        }
    }
    for (int32_t i = 0; picked && i < rs->fit_count; i++)
        q->flags[q->fit[i]] &= (uint8_t)~ENTRY_PICKED;
    return st;
}

static dg_status populate_room(pop *q, int32_t room, uint64_t seed)
{
    room_state rs;
    memset(&rs, 0, sizeof rs);
    rs.room = room;
    if (room == q->r->start_room || role_is(q->r, room, "start"))
    {
        q->stats.skipped_start++;
        return DG_OK;
    }
    rs.rect = q->rects[room];
    rs.count = q->room_dist[room] < 0 ? 0 : room_cells(q, &rs);
    if (rs.count == 0)
    {
        q->stats.skipped_no_cell++;
        return DG_OK;
    }
    rs.boss = is_boss_room(q->r, room);
    rs.treasure = is_treasure_room(q->r, room);
    rs.budget = rs.left = room_budget(q, room);
    rs.slots_left = DG_MAX(rs.count / q->p->cells_per_spawn, 1);
    dg_rng rng;
    dgi_rng_seed(&rng, dgi_hash_combine(seed, (uint64_t)room), POPULATE_STREAM);
    int32_t before = q->stats.spawns;
    dg_status st = fill_room(q, &rs, &rng);
    if (q->stats.spawns == before)
        q->stats.skipped_no_entry++;
    else
    {
        q->stats.rooms_populated++;
        q->stats.budget += rs.budget;
    }
    return st;
}

/* ---- the call ---------------------------------------------------------------- */

static void entry_flags(pop *q)
{
    for (int32_t k = 0; k < q->table->count; k++)
    {
        const dg_spawn_entry *e = &q->table->entries[k];
        q->flags[k] = (uint8_t)((dgi_spawn_at_depth(e, q->p->depth) ? ENTRY_AT_DEPTH : 0) |
                                q->table->facts[k]);
        q->kinds[k] = q->kinds_known[k] = 0;
        q->cost[k] = e->cost;
        q->group_min[k] = e->group_min;
        q->need[k] = e->cost * e->group_min; /* <= DG_SPAWN_COST_MAX * DG_SPAWN_GROUP_MAX */
    }
}

/* The tile tables: open (passable) and unspawnable (not as dgi_spawn_tile:
 * passable, a room tile, not a door). */
static void tile_tables(pop *q)
{
    const uint8_t *room = q->p->room_tiles;
    for (int t = 0; t < 256; t++)
    {
        q->open[t] = q->w.pass[t] != 0;
        q->unspawnable[t] = (uint8_t)!(q->open[t] && (room ? room[t] != 0 : t == DG_TILE_FLOOR) &&
                                       t != DG_TILE_DOOR);
    }
}

/* Room for the spawns at once, rather than growing as they come: each room
 * holds about its free cells / cells_per_spawn (its cells bound those), up to
 * RESERVE_MAX so a map of large rooms with few spawns does not hold much
 * unused; more still grow the array. */
static dg_status reserve_spawns(pop *q, dg_diag *diag)
{
    int64_t most = 0;
    for (int32_t i = 0; i < q->r->room_count; i++)
        if (q->room_dist[i] >= 0)
            most += DG_MAX(q->r->rooms[i].cells / q->p->cells_per_spawn, 1);
    most = DG_MIN(most, RESERVE_MAX);
    if (most > 0 && dgi_grow(q->a, (void **)&q->out, &q->out_cap, (int32_t)most, sizeof *q->out) != DG_OK)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for the spawns");
    return DG_OK;
}

/* One block: dist (int32 per cell, unless the caller's walk gives it) and
 * queue (int32 per cell, unless the caller lends one), kept (a byte per
 * cell), free (a byte per cell) and cols, rooms' distances and rects, the
 * entries' flags and fit. */
static dg_status prepare(pop *q, const int32_t *walk, int32_t *queue, dg_diag *diag)
{
    size_t n = q->n = (size_t)q->w.width * (size_t)q->w.height;
    size_t rooms = (size_t)q->r->room_count, entries = (size_t)q->table->count;
    size_t planes = (size_t)(walk == NULL) + (size_t)(queue == NULL);
    q->block_size = n * (planes * sizeof(int32_t) + 2) + (size_t)q->w.width + 2 +
                    rooms * (sizeof(int32_t) + sizeof(dg_rect)) + entries * (5 * sizeof(int32_t) + 3);
    uint8_t *b = q->block = dgi_alloc(q->a, q->block_size);
    if (!b)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for dg_populate's scratch");
    int32_t *next = (int32_t *)(void *)b, *own = walk ? NULL : next;
    next += walk ? 0 : n;
    q->dist = walk ? walk : own;
    q->queue = queue ? queue : next;
    q->room_dist = next + (queue ? 0 : n);
    q->rects = (dg_rect *)(void *)(q->room_dist + rooms);
    q->fit = (int32_t *)(void *)(q->rects + rooms);
    q->pickable = q->fit + entries;
    q->cost = q->pickable + entries;
    q->group_min = q->cost + entries;
    q->need = q->group_min + entries;
    q->kept = (uint8_t *)(q->need + entries);
    q->free = q->kept + n;
    q->cols = q->free + n;
    q->flags = q->cols + q->w.width + 2;
    q->kinds = q->flags + entries;
    q->kinds_known = q->kinds + entries;
    if (q->p->view_radius > 0) /* else dg_fov writes every cell */
        memset(q->kept, 0, n);
    if (!walk)
        dgi_walk_from_walled(&q->w, q->r->start, own, q->queue);
    dg_status st = dg_fov(q->grid, NULL, q->r->start, q->p->view_radius, q->kept, n, q->a, diag);
    if (st != DG_OK)
        return st;
    tile_tables(q);
    mark_taken(q);
    room_distances(q);
    q->base_budget = curve_at(q->p, q->p->depth);
    entry_flags(q);
    return reserve_spawns(q, diag);
}

/* Appends the spawns; on failure the result keeps its markers. */
static dg_status commit(pop *q, dg_result *r, dg_diag *diag)
{
    if (dgi_result_reserve(r, r->room_count, r->corridor_count, r->door_count,
                           r->marker_count + q->out_count) != DG_OK)
        return dgi_fail(diag, DG_E_NOMEM, "cannot grow the result's markers");
    if (q->out_count > 0) /* reserved: one copy, as adding them one by one would */
        memcpy(r->markers + r->marker_count, q->out, (size_t)q->out_count * sizeof *q->out);
    r->marker_count += q->out_count;
    return DG_OK;
}

dg_status dg_populate(const dg_grid *grid, const dg_spawn_table *table,
                      const dg_populate_params *params, uint64_t seed, dg_result *result,
                      dg_populate_stats *stats, const dg_allocator *allocator, dg_diag *diag)
{
    return dgi_populate_run(grid, table, params, seed, result, stats, NULL, NULL, NULL, allocator,
                            diag);
}

dg_status dgi_populate_run(const dg_grid *grid, const dg_spawn_table *table,
                           const dg_populate_params *params, uint64_t seed, dg_result *result,
                           dg_populate_stats *stats, const int32_t *walk,
                           const int32_t *room_dist, int32_t *queue,
                           const dg_allocator *allocator, dg_diag *diag)
{
    dg_populate_params def;
    dg_populate_defaults(&def);
    pop q;
    memset(&q, 0, sizeof q);
    q.p = params ? params : &def;
    dg_status st = check_input(grid, table, q.p, result, diag);
    if (st != DG_OK)
        return st;
    q.grid = grid;
    q.table = table;
    q.r = result;
    q.a = allocator;
    q.known_dist = room_dist;
    dgi_move_basic(&q.w, grid, q.p->passable);
    st = prepare(&q, walk, queue, diag);
    for (int32_t i = 0; st == DG_OK && i < result->room_count; i++)
        if ((st = populate_room(&q, i, seed)) != DG_OK)
            dgi_fail(diag, st, "out of memory for the spawns");
    if (st == DG_OK)
        st = commit(&q, result, diag);
    if (st == DG_OK)
    {
        if (stats)
            *stats = q.stats;
        dgi_diag_ok(diag);
    }
    dgi_free(q.a, q.block, q.block_size);
    dgi_free(q.a, q.out, (size_t)q.out_cap * sizeof *q.out);
    return st;
}
