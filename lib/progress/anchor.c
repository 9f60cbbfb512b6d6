/* Anchors: cells a generated map must open and join to its start, the first
 * of them becoming the start itself (stairs that line up between floors). An
 * anchor in rock gets a small room, and a corridor to the nearest open cell
 * of the start's region; an anchor already open stays as it is. */
#include "analysis/analysis.h"
#include "progress/progress.h"

#include <stdlib.h>

/* What a cell is to the joins: left to its tile (open: another region, else
 * closed), open in the start's region, open in the region being joined, rock
 * reached by the current corridor search. Regions only ever merge (no open
 * cell closes), so the start's region grows by each join and is never
 * relabelled, and the rest of the map needs no pass at all. */
enum { ZONE_TILE = 0, ZONE_MAIN = 2, ZONE_AREA = 4, ZONE_SEEN = 8 };

typedef struct anchor_ctx {
    dg_grid *g;      /* framed: stride width + 2, a closed frame around */
    const uint8_t *tiles; /* g's cells by framed index */
    dg_result *rooms; /* rooms made for anchors, added to the caller's result at the end */
    const dg_result *source; /* the generator's result (rooms already there), or NULL */
    const dgi_mask *reserved; /* cells never written nor touched by open cells, or NULL */
    uint8_t *zone;   /* ZONE_* by framed index */
    int32_t *from;   /* corridor search: the cell (packed) each cell was reached from */
    int32_t *queue;  /* cells packed as DGI_PACK(x, y) */
    int has_main;    /* 0 until the start's region is known */
    int32_t main_cells; /* cells in the start's region */
} anchor_ctx;

static const int32_t step_x[4] = {0, 1, 0, -1}, step_y[4] = {-1, 0, 1, 0};

static int is_rock(uint8_t t) { return t == DG_TILE_VOID || t == DG_TILE_WALL; }

static int inner(const dg_grid *g, int32_t x, int32_t y) /* not on the grid's edge */
{
    return x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1;
}

static int32_t cell(const anchor_ctx *c, int32_t x, int32_t y) { return y * c->g->width + x; }

/* Where a cell lies against room interior q: 0 inside, 1 on the ring's
 * sides, 2 on a ring corner, 3 outside. */
static int ring_place(dg_rect q, int32_t x, int32_t y)
{
    int out_x = x < q.x || x >= q.x + q.w, out_y = y < q.y || y >= q.y + q.h;
    int far = x < q.x - 1 || x > q.x + q.w || y < q.y - 1 || y > q.y + q.h;
    return far ? 3 : out_x && out_y ? 2 : out_x || out_y ? 1 : 0;
}

/* A corridor cell on the ring's side becomes a door; two side by side would
 * be a row of doors (a corridor running along the room), refused. */
static int side_doors_apart(const anchor_ctx *c, dg_rect q, int32_t x, int32_t y)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; d++)
        if (ring_place(q, x + dx[d], y + dy[d]) == 1 &&
            DG_CELL(c->g, x + dx[d], y + dy[d]) == DG_TILE_CORRIDOR)
            return 0;
    return 1;
}

/* A room interior q fits when it and its one-cell ring are inside the grid
 * and rock, so carving it merges with nothing; with `corridors`, corridor
 * cells may lie in it too (the room widens the corridor, which enters it
 * through doors on the ring's sides). */
static int room_fits(const anchor_ctx *c, dg_rect q, int corridors)
{
    if (q.x < 1 || q.y < 1 || q.x + q.w > c->g->width - 1 || q.y + q.h > c->g->height - 1)
        return 0;
    for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
        for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
        {
            uint8_t t = DG_CELL(c->g, x, y);
            int corridor = corridors && t == DG_TILE_CORRIDOR;
            if ((!is_rock(t) && !corridor) || dgi_mask_at(c->reserved, x, y))
                return 0;
            if (corridor && ring_place(q, x, y) == 1 && !side_doors_apart(c, q, x, y))
                return 0;
        }
    return 1;
}

/* The largest room up to 3x3 (2x2 when it widens a corridor) that holds p and
 * fits, p as central as it can be; the first in a fixed order, so the same map
 * gives the same room. */
static int pick_room(const anchor_ctx *c, dg_point p, int corridors, dg_rect *out)
{
    static const int32_t sizes[][2] = {{3, 3}, {3, 2}, {2, 3}, {2, 2}, {2, 1}, {1, 2}, {1, 1}};
    static const int32_t shifts[] = {1, 0, 2};
    const size_t count = corridors ? 4 : sizeof sizes / sizeof sizes[0];
    for (size_t s = 0; s < count; s++)
        for (int32_t i = 0; i < 3; i++)
            for (int32_t j = 0; j < 3; j++)
            {
                int32_t w = sizes[s][0], h = sizes[s][1], dx = shifts[i], dy = shifts[j];
                dg_rect q = {p.x - dx, p.y - dy, w, h};
                if (dx < w && dy < h && room_fits(c, q, corridors))
                {
                    *out = q;
                    return 1;
                }
            }
    return 0;
}

/* A cell's framed index, and its zone by coordinates or packed. */
static int32_t framed(const anchor_ctx *c, int32_t x, int32_t y)
{
    return (y + 1) * (c->g->width + 2) + x + 1;
}
static uint8_t *zone_at(const anchor_ctx *c, int32_t x, int32_t y) { return &c->zone[framed(c, x, y)]; }
static uint8_t *zone_of(const anchor_ctx *c, int32_t p) { return zone_at(c, DGI_PX(p), DGI_PY(p)); }

/* What the open 4-neighbours of (x, y) are: bit 1 the area being joined,
 * bit 2 the start's region, bit 4 anything else. */
static int touches(const anchor_ctx *c, int32_t x, int32_t y)
{
    static const int kind[16] = {[ZONE_MAIN] = 2, [ZONE_AREA] = 1};
    int kinds = 0;
    for (int d = 0; d < 4; d++)
    {
        int32_t i = framed(c, x + step_x[d], y + step_y[d]);
        kinds |= c->zone[i] ? kind[c->zone[i]] : dgi_passable_default[c->tiles[i]] ? 4 : 0;
    }
    return kinds;
}

/* Breadth-first through rock from the area's cells (queue[0..tail), in
 * row-major order) to a rock cell beside the start's region; returns that
 * cell (packed) or -1; *tail ends the cells it reached. A corridor never touches a
 * third area, and touches its own area only where it leaves it, so it merges
 * with nothing on its way. */
static int32_t search(anchor_ctx *c, int32_t *tail)
{
    for (int32_t head = 0; head < *tail; head++)
    {
        int32_t at = c->queue[head], x = DGI_PX(at), y = DGI_PY(at);
        int leaving = *zone_at(c, x, y) == ZONE_AREA;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + step_x[d], ny = y + step_y[d];
            if (!inner(c->g, nx, ny) || *zone_at(c, nx, ny) != ZONE_TILE ||
                !is_rock(DG_CELL(c->g, nx, ny)) || dgi_mask_near(c->reserved, c->g, nx, ny))
                continue;
            int kinds = touches(c, nx, ny);
            if ((kinds & 4) || ((kinds & 1) && !leaving))
                continue;
            *zone_at(c, nx, ny) = ZONE_SEEN;
            c->from[cell(c, nx, ny)] = at;
            if (kinds & 2)
                return DGI_PACK(nx, ny);
            c->queue[(*tail)++] = DGI_PACK(nx, ny);
        }
    }
    return -1;
}

static int touches_room_floor(const anchor_ctx *c, int32_t x, int32_t y)
{
    for (int d = 0; d < 4; d++)
        if (DG_CELL(c->g, x + step_x[d], y + step_y[d]) == DG_TILE_FLOOR)
            return 1;
    return 0;
}

/* The void around a cell the anchors opened becomes wall (never a reserved
 * cell), so no open cell faces void. */
static void wall_in(anchor_ctx *c, int32_t x0, int32_t y0)
{
    for (int32_t y = y0 - 1; y <= y0 + 1; y++)
        for (int32_t x = x0 - 1; x <= x0 + 1; x++)
            if (x >= 0 && y >= 0 && x < c->g->width && y < c->g->height &&
                DG_CELL(c->g, x, y) == DG_TILE_VOID && !dgi_mask_at(c->reserved, x, y))
                DG_CELL(c->g, x, y) = DG_TILE_WALL;
}

/* Carves the corridor the search found, back from its end to the area: a
 * door where it meets room floor at either end, corridor elsewhere, walled
 * in. Its cells join the start's region. */
static void carve_corridor(anchor_ctx *c, int32_t end)
{
    for (int32_t at = end; *zone_of(c, at) != ZONE_AREA;)
    {
        int32_t x = DGI_PX(at), y = DGI_PY(at), prev = c->from[cell(c, x, y)];
        int ends = at == end || *zone_of(c, prev) == ZONE_AREA;
        DG_CELL(c->g, x, y) = ends && touches_room_floor(c, x, y) ? DG_TILE_DOOR : DG_TILE_CORRIDOR;
        wall_in(c, x, y);
        *zone_at(c, x, y) = ZONE_MAIN;
        c->main_cells++;
        at = prev;
    }
}

/* 1 if framed cell i is open and in no known region (no branch: the floods
 * below run it on every cell they see). */
static int other_at(const uint8_t *zone, const uint8_t *tiles, int32_t i)
{
    return (zone[i] == ZONE_TILE) & dgi_passable_default[tiles[i]];
}

/* Breadth-first from queue[0..tail) (framed indices) through open cells of
 * other regions, which become `to`; returns the new tail, *met 1 if the fill
 * borders the start's region. The frame stops it at the edges, and no branch
 * depends on the map: every neighbour is written to the queue and kept only
 * if it was in another region (so the queue needs one entry more than it keeps). */
static int32_t fill(anchor_ctx *c, int32_t tail, uint8_t to, int *met)
{
    const int32_t pw = c->g->width + 2;
    const uint8_t *t = c->tiles;
    uint8_t *z = c->zone, bordering = 0;
    int32_t *q = c->queue;
    for (int32_t head = 0; head < tail; head++)
    {
        int32_t i = q[head];
        uint8_t on = (uint8_t)other_at(z, t, i - pw), oe = (uint8_t)other_at(z, t, i + 1);
        uint8_t os = (uint8_t)other_at(z, t, i + pw), ow = (uint8_t)other_at(z, t, i - 1);
        bordering |= z[i - pw] | z[i + 1] | z[i + pw] | z[i - 1];
        z[i - pw] = (uint8_t)(z[i - pw] + on * to); /* a cell in another region has zone 0 */
        z[i + 1] = (uint8_t)(z[i + 1] + oe * to);
        z[i + pw] = (uint8_t)(z[i + pw] + os * to);
        z[i - 1] = (uint8_t)(z[i - 1] + ow * to);
        q[tail] = i - pw;
        tail += on;
        q[tail] = i + 1;
        tail += oe;
        q[tail] = i + pw;
        tail += os;
        q[tail] = i - 1;
        tail += ow;
    }
    *met |= (bordering & ZONE_MAIN) != 0;
    return tail;
}

/* Marks the open run of row cells through framed index i and, for the rows
 * above and below, pushes the first cell of every open run beside it (each
 * cell is written to the stack and kept only if it starts a run, so the
 * stack needs one entry more than it keeps). */
static int32_t fill_span(uint8_t *z, const uint8_t *t, int32_t i, int32_t pw, int32_t *stack,
                         int32_t *top)
{
    int32_t left = i, right = i;
    while (other_at(z, t, left - 1))
        left--;
    while (other_at(z, t, right + 1))
        right++;
    memset(z + left, ZONE_MAIN, (size_t)(right - left) + 1);
    for (int32_t row = -pw; row <= pw; row += 2 * pw)
    {
        int32_t n = *top, in_run = 0;
        for (int32_t k = left + row; k <= right + row; k++)
        {
            int32_t open = other_at(z, t, k);
            stack[n] = k;
            n += open & !in_run;
            in_run = open;
        }
        *top = n;
    }
    return right - left + 1;
}

/* The start's region, from framed index `from`, by runs of row cells (the
 * cells only become main, so their order does not matter); returns its size.
 * Each cell is pushed at most once from the row above and once from the row
 * below, and no corridor search has run yet, so from[] and the queue after it
 * hold the stack. */
static int32_t fill_main(anchor_ctx *c, int32_t from)
{
    const int32_t pw = c->g->width + 2;
    int32_t *stack = c->from, top = 0, count = 0;
    stack[top++] = from;
    while (top > 0)
    {
        int32_t i = stack[--top];
        if (other_at(c->zone, c->tiles, i))
            count += fill_span(c->zone, c->tiles, i, pw, stack, &top);
    }
    return count;
}

/* No cell in a known region yet; then the start's region (when the map has
 * an open start) flooded from it. */
static void zones_init(anchor_ctx *c, dg_point start)
{
    memset(c->zone, ZONE_TILE, (size_t)(c->g->width + 2) * (size_t)(c->g->height + 2));
    if (start.x < 0)
        return;
    c->main_cells = fill_main(c, framed(c, start.x, start.y));
    c->has_main = 1;
}

#define ANCHOR_REACH 3 /* an anchor's room (up to 3x3, holding it) and its ring lie this close */

/* Which cells within reach of p are open (bit (dy + REACH) * SIDE + dx + REACH). */
#define REACH_SIDE (2 * ANCHOR_REACH + 1)
static uint64_t open_near(const anchor_ctx *c, dg_point p)
{
    uint64_t open = 0;
    for (int32_t dy = -ANCHOR_REACH; dy <= ANCHOR_REACH; dy++)
        for (int32_t dx = -ANCHOR_REACH; dx <= ANCHOR_REACH; dx++)
        {
            int32_t x = p.x + dx, y = p.y + dy;
            if (x >= 0 && y >= 0 && x < c->g->width && y < c->g->height &&
                dgi_passable_default[DG_CELL(c->g, x, y)])
                open |= 1ULL << ((dy + ANCHOR_REACH) * REACH_SIDE + dx + ANCHOR_REACH);
        }
    return open;
}

/* p's region after its opening, less the cells already in the start's region,
 * as ZONE_AREA cells in queue[0..return) (framed indices); *met 1 if it
 * touches that region. `before` is open_near before the opening: every cell
 * the opening made passable lies within reach of p, and any cell of another
 * region beside the start's region is one of them. */
static int32_t gather_area(anchor_ctx *c, dg_point p, uint64_t before, int *met)
{
    uint64_t opened = open_near(c, p) & ~before;
    int32_t tail = 0;
    *met = *zone_at(c, p.x, p.y) == ZONE_MAIN;
    for (int32_t dy = -ANCHOR_REACH; dy <= ANCHOR_REACH; dy++)
        for (int32_t dx = -ANCHOR_REACH; dx <= ANCHOR_REACH; dx++)
        {
            int32_t bit = (dy + ANCHOR_REACH) * REACH_SIDE + dx + ANCHOR_REACH;
            int32_t i = framed(c, p.x + dx, p.y + dy);
            if (((opened >> bit & 1) || (dx == 0 && dy == 0)) && other_at(c->zone, c->tiles, i))
            {
                c->zone[i] = ZONE_AREA;
                c->queue[tail++] = i;
            }
        }
    return fill(c, tail, ZONE_AREA, met);
}

static void set_zone(anchor_ctx *c, int32_t from, int32_t to, uint8_t zone)
{
    for (int32_t i = from; i < to; i++)
        *zone_of(c, c->queue[i]) = zone;
}

static int index_order(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The area's cells in row-major order, packed for the corridor search. */
static void area_in_order(anchor_ctx *c, int32_t area)
{
    const int32_t pw = c->g->width + 2;
    qsort(c->queue, (size_t)area, sizeof *c->queue, index_order);
    for (int32_t i = 0; i < area; i++)
        c->queue[i] = DGI_PACK(c->queue[i] % pw - 1, c->queue[i] / pw - 1);
}

/* Joins p's region to the start's: at once when they already meet (or when
 * the map has no start yet, p's region becoming it), else by a corridor. */
static int join_area(anchor_ctx *c, dg_point p, uint64_t before)
{
    int met;
    int32_t area = gather_area(c, p, before, &met);
    if (met || !c->has_main)
    {
        for (int32_t i = 0; i < area; i++)
            c->zone[c->queue[i]] = ZONE_MAIN;
        c->main_cells += area;
        c->has_main = 1;
        return 1;
    }
    area_in_order(c, area);
    int32_t seen = area, end = search(c, &seen);
    if (end < 0)
        return 0;
    carve_corridor(c, end);
    set_zone(c, 0, area, ZONE_MAIN);
    c->main_cells += area;
    for (int32_t i = area; i < seen; i++)
        if (*zone_of(c, c->queue[i]) == ZONE_SEEN)
            *zone_of(c, c->queue[i]) = ZONE_TILE;
    return 1;
}

/* A room (or one cell where no room fits) around an anchor in rock. */
static dg_status carve_room(anchor_ctx *c, dg_rect q)
{
    for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
        for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
        {
            uint8_t *t = &DG_CELL(c->g, x, y);
            int place = ring_place(q, x, y);
            if (place == 0)
                *t = DG_TILE_FLOOR;
            else if (*t == DG_TILE_CORRIDOR)
                *t = place == 1 ? DG_TILE_DOOR : *t;
            else
                *t = DG_TILE_WALL;
        }
    dg_room room = {q, DG_ROOM_NORMAL, -1, 0, -1, q.w * q.h, DG_SHAPE_RECT};
    return dgi_result_add_room(c->rooms, &room);
}

/* One open cell where no room fits (an alcove in a room's wall, say). */
static void open_cell(anchor_ctx *c, dg_point p)
{
    DG_CELL(c->g, p.x, p.y) = DG_TILE_FLOOR;
    wall_in(c, p.x, p.y);
}

/* A room around an anchor in rock (or widening the corridor it lies on or
 * beside); one open cell where no room fits. */
static dg_status open_anchor(anchor_ctx *c, dg_point p)
{
    dg_rect q;
    if (is_rock(DG_CELL(c->g, p.x, p.y)) && pick_room(c, p, 0, &q))
        return carve_room(c, q);
    if (pick_room(c, p, 1, &q))
        return carve_room(c, q);
    if (is_rock(DG_CELL(c->g, p.x, p.y)))
        open_cell(c, p);
    return DG_OK;
}

static dg_status join_anchor(anchor_ctx *c, dg_point p, dg_diag *diag)
{
    uint64_t before = open_near(c, p);
    uint8_t tile = DG_CELL(c->g, p.x, p.y);
    if (tile == DG_TILE_OBSTACLE || tile == DG_TILE_WATER) /* furniture or a pool gives way */
        DG_CELL(c->g, p.x, p.y) = DG_TILE_FLOOR;
    else if (!dg_tile_passable(tile) && !is_rock(tile))
        return dgi_fail(diag, DG_E_NOSPACE, "anchor (%d, %d) is on tile %d (%s), which stays",
                        (int)p.x, (int)p.y, (int)tile, dg_tile_name(tile));
    int in_room = dgi_result_room_at(c->rooms, p) >= 0 || (c->source && dgi_result_room_at(c->source, p) >= 0);
    if (is_rock(tile) || (tile == DG_TILE_CORRIDOR && !in_room))
    {
        dg_status st = open_anchor(c, p);
        if (st != DG_OK)
            return dgi_fail(diag, st, "out of memory for the anchor's room");
    }
    if (!join_area(c, p, before))
        return dgi_fail(diag, DG_E_NOSPACE,
                        "anchor (%d, %d) cannot be joined to the start: no way through rock",
                        (int)p.x, (int)p.y);
    return DG_OK;
}

static dg_status check_anchors(const dg_grid *g, const dg_point *anchors, int32_t count,
                               const dgi_mask *reserved, dg_diag *diag)
{
    if (count < 0 || count > DG_ANCHORS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "%d anchors: 0..%d are allowed", (int)count,
                        DG_ANCHORS_MAX);
    if (count > 0 && !anchors)
        return dgi_fail(diag, DG_E_NULL, "anchors is NULL");
    for (int32_t i = 0; i < count; i++)
        if (anchors[i].x < 0 || anchors[i].y < 0 || anchors[i].x >= g->width ||
            anchors[i].y >= g->height)
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is outside the %dx%d grid",
                            (int)i, (int)anchors[i].x, (int)anchors[i].y, (int)g->width,
                            (int)g->height);
    for (int32_t i = 0; i < count; i++)
        if (dgi_mask_at(reserved, anchors[i].x, anchors[i].y))
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is a reserved cell", (int)i,
                            (int)anchors[i].x, (int)anchors[i].y);
    for (int32_t i = 0; i < count && reserved; i++) /* an open anchor would touch it */
        if (dgi_mask_near(reserved, g, anchors[i].x, anchors[i].y))
            return dgi_fail(diag, DG_E_INVALID,
                            "anchor %d (%d, %d) touches a reserved cell: a wall must lie "
                            "between, so put it two cells away and open the cell between "
                            "yourself", (int)i, (int)anchors[i].x, (int)anchors[i].y);
    return DG_OK;
}

/* The generator's start when it is an open cell, else none. */
static dg_point open_start(const dg_grid *g, const dg_result *r)
{
    dg_point none = {-1, -1};
    if (!r || r->start.x < 0 || r->start.y < 0 || r->start.x >= g->width || r->start.y >= g->height)
        return none;
    return dg_tile_passable(DG_CELL(g, r->start.x, r->start.y)) ? r->start : none;
}

/* Joins every anchor in turn to the start's region (to the first anchor's
 * when the map has no open start). */
static dg_status join_all(anchor_ctx *c, dg_point start, const dg_point *anchors, int32_t count,
                          dg_diag *diag)
{
    zones_init(c, start);
    for (int32_t i = 0; i < count; i++)
    {
        dg_status st = join_anchor(c, anchors[i], diag);
        if (st != DG_OK)
            return st;
    }
    return DG_OK;
}

static void copy_cells(dg_grid *to, const dg_grid *from)
{
    for (int32_t y = 0; y < from->height; y++)
        memcpy(&DG_CELL(to, 0, y), &DG_CELL(from, 0, y), (size_t)from->width);
}

/* The metrics dgi_result_finish_at gives, from one count of the cells, when
 * every open cell lies in the start's region (the map is one region): no
 * walk from the start is needed when the caller places the exit. 0 if not. */
static int measure_joined(dg_result *r, const dg_grid *g, dg_point start, int32_t main_cells,
                          const dg_allocator *a, dg_status *st)
{
    dgi_cell_counts counts;
    *st = dgi_count_cells(g, NULL, &counts, a);
    if (*st != DG_OK || counts.open != main_cells)
        return *st != DG_OK;
    dg_metrics *m = &r->metrics;
    m->cells = g->width * g->height;
    m->floor_cells = counts.open;
    m->floor_permille = (int32_t)((int64_t)m->floor_cells * 1000 / (int64_t)m->cells);
    m->rooms = r->room_count;
    m->corridors = r->corridor_count;
    m->doors = r->door_count;
    m->dead_ends = counts.dead_ends;
    m->regions = 1;
    r->start = start;
    return 1;
}

/* The result after the anchors: the new rooms, the start on the first anchor,
 * the exit (unless exit_set: the caller places it) and metrics recomputed
 * from there; as it was on DG_E_NOMEM. */
static dg_status finish_result(dg_result *r, const dg_grid *g, const anchor_ctx *c,
                               dg_point start, int exit_set, const dg_allocator *a)
{
    dg_result before = *r;
    const dg_result *rooms = c->rooms;
    dg_status st = dgi_result_reserve(r, r->room_count + rooms->room_count, 0, 0, 0);
    for (int32_t i = 0; st == DG_OK && i < rooms->room_count; i++)
        st = dgi_result_add_room(r, &rooms->rooms[i]);
    r->exit_room = -1;
    if (st == DG_OK && !(exit_set && measure_joined(r, g, start, c->main_cells, a, &st)))
        st = dgi_result_finish_at(r, g, start, -1, NULL, a);
    if (st == DG_OK)
        r->start_room = dgi_result_room_near(r, start); /* an alcove belongs to its room */
    if (st == DG_OK && !exit_set)
        st = dgi_result_exit_in_room(r, g, a);
    if (st != DG_OK)
    {
        before.rooms = r->rooms; /* the arrays may have moved; their first entries are kept */
        memcpy(before.capacity_, r->capacity_, sizeof before.capacity_);
        *r = before;
    }
    return st;
}

/* Opens and joins the anchors on grid itself (framed: stride width + 2 in a
 * buffer with a frame of rock around), which is left half done on error; the
 * result changes only on success. */
static dg_status place_on(dg_grid *grid, dg_result *result, const dg_point *anchors,
                          int32_t count, const dgi_mask *reserved, int exit_set,
                          const dg_allocator *allocator, dg_diag *diag)
{
    const int32_t w = grid->width, h = grid->height;
    const size_t n = (size_t)w * (size_t)h, framed = (size_t)(w + 2) * (size_t)(h + 2);
    const size_t ints_size = (2 * n + 1) * sizeof(int32_t);
    uint8_t *zone = dgi_alloc(allocator, framed);
    int32_t *ints = dgi_alloc(allocator, ints_size);
    dg_result rooms;
    dg_result_init(&rooms, allocator);
    anchor_ctx c = {grid, grid->cells - (w + 2) - 1, &rooms, result, reserved, zone, ints, NULL, 0, 0};
    dg_status st = DG_OK;
    if (!zone || !ints)
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory for %d anchors", (int)count);
    if (st == DG_OK)
    {
        c.queue = ints + n;
        st = join_all(&c, open_start(grid, result), anchors, count, diag);
    }
    if (st == DG_OK && result &&
        finish_result(result, grid, &c, anchors[0], exit_set, allocator) != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory while measuring the map");
    dgi_free(allocator, zone, framed);
    dgi_free(allocator, ints, ints_size);
    dg_result_free(&rooms);
    return st;
}

dg_status dg_anchor_place(dg_grid *grid, const dg_point *anchors, int32_t count,
                          dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_anchor_place(grid, result, anchors, count, NULL, allocator, diag);
}

/* On a copy, so that grid changes only on success. */
dg_status dgi_anchor_place(dg_grid *grid, dg_result *result, const dg_point *anchors,
                           int32_t count, const dgi_mask *reserved,
                           const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_anchors(grid, anchors, count, reserved, diag);
    if (st != DG_OK || count == 0)
        return st;
    const int32_t pw = grid->width + 2;
    const size_t size = (size_t)pw * (size_t)(grid->height + 2);
    uint8_t *framed = dgi_calloc(allocator, size, 1);
    if (!framed)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for %d anchors", (int)count);
    dg_grid copy = {framed + pw + 1, grid->width, grid->height, pw};
    copy_cells(&copy, grid);
    st = place_on(&copy, result, anchors, count, reserved, 0, allocator, diag);
    if (st == DG_OK)
        copy_cells(grid, &copy);
    dgi_free(allocator, framed, size);
    return st;
}

dg_status dgi_anchor_place_own(dg_grid *grid, dg_result *result, const dg_point *anchors,
                               int32_t count, int exit_set, const dg_allocator *allocator,
                               dg_diag *diag)
{
    dg_status st = check_anchors(grid, anchors, count, NULL, diag);
    if (st != DG_OK || count == 0)
        return st;
    return place_on(grid, result, anchors, count, NULL, exit_set, allocator, diag);
}
