/* The facts dg_roles judges rooms on (docs/content.md): its walking
 * distance and rank from the start, whether it lies on a shortest start-exit
 * walk or behind a locked or secret door, its area and its entrances, read
 * off the cells each room owns (roles_cells.c). A few breadth-first searches
 * and one scan of each room's cells, or of its rim where they fill its rect:
 * O(cells + rect areas). */
#include "content/content.h"

/* Sets `flag` on every reachable room none of whose cells is marked in seen. */
static void mark_unreached(const dgi_room_cells *rc, int32_t w, const uint8_t *seen,
                           dgi_room_facts *f, int32_t rooms, int32_t flag)
{
    for (int32_t k = 0; k < rooms; k++)
    {
        if (!(f[k].flags & DGI_RF_REACHABLE))
            continue;
        if (rc->fill[k].w > 0) /* a rect of open cells is reached whole or not at all */
        {
            if (!seen[rc->fill[k].y * w + rc->fill[k].x])
                f[k].flags |= flag;
            continue;
        }
        int32_t i = rc->first[k];
        while (i < rc->first[k + 1] && !seen[DGI_PY(rc->cells[i]) * w + DGI_PX(rc->cells[i])])
            i++;
        if (i == rc->first[k + 1])
            f[k].flags |= flag;
    }
}

/* seen[c] = 1 on the cells the start reaches over the tiles of pass: a flood
 * without distances (a stack of packed cells, DGI_PACK). */
static void flood_from(const dg_grid *g, const uint8_t *pass, dg_point p, uint8_t *seen,
                       int32_t *stack)
{
    const int32_t w = g->width, h = g->height;
    memset(seen, 0, (size_t)w * (size_t)h);
    int32_t top = 0;
    if (!pass[DG_CELL(g, p.x, p.y)])
        return;
    seen[p.y * w + p.x] = 1;
    stack[top++] = DGI_PACK(p.x, p.y);
    while (top > 0)
    {
        int32_t q = stack[--top], x = DGI_PX(q), y = DGI_PY(q), c = y * w + x;
        const uint8_t *t = &DG_CELL(g, x, y);
        if (y > 0 && !seen[c - w] && pass[t[-g->stride]])
            seen[c - w] = 1, stack[top++] = DGI_PACK(x, y - 1);
        if (x < w - 1 && !seen[c + 1] && pass[t[1]])
            seen[c + 1] = 1, stack[top++] = DGI_PACK(x + 1, y);
        if (y < h - 1 && !seen[c + w] && pass[t[g->stride]])
            seen[c + w] = 1, stack[top++] = DGI_PACK(x, y + 1);
        if (x > 0 && !seen[c - 1] && pass[t[-1]])
            seen[c - 1] = 1, stack[top++] = DGI_PACK(x - 1, y);
    }
}

/* Floods with some doors shut (locked, secret or both), marking the rooms cut off. */
static void gate_pass(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                      uint8_t *seen, int32_t *stack, dgi_room_facts *f, int lock, int secret,
                      int32_t flag)
{
    uint8_t pass[256];
    memcpy(pass, dgi_passable_default, sizeof pass);
    if (lock)
        pass[DG_TILE_DOOR_LOCKED] = 0;
    if (secret)
        pass[DG_TILE_DOOR_SECRET] = 0;
    flood_from(g, pass, r->start, seen, stack);
    mark_unreached(rc, g->width, seen, f, r->room_count, flag);
}

/* What measure_room gathers over a room's cells: the nearest reached cell's
 * distance, whether one is on the route, and the openings (tag and list). */
typedef struct room_scan {
    const dg_grid *g;
    const int32_t *owner, *ds;
    const uint8_t *route; /* NULL: not asked */
    uint8_t *tag;
    int32_t *list;
    int32_t k, n, best, on_route;
    int32_t runs, ring_prev; /* scan_rim's runs of openings */
} room_scan;

/* Bits 0 (up) and 2 (down) of opening_sides for a room-k cell off the
 * grid's top and bottom rows, o and t at its owner and tile. */
static unsigned sides_up_down(const int32_t *o, const uint8_t *t, int32_t w, ptrdiff_t stride,
                              int32_t k)
{
    const uint8_t *pass = dgi_passable_default;
    return (unsigned)((o[-w] != k) & (pass[t[-stride]] != 0)) |
           (unsigned)((o[w] != k) & (pass[t[stride]] != 0)) << 2;
}

/* Bit d (0 up, 1 right, 2 down, 3 left) set if the cell next to room cell
 * (x, y) on side d is an opening: on the grid, passable, not room k's. No
 * branch on the map off the grid's border, where most cells of a cave
 * room's ragged edge are: the mask is 0 for most cells. */
static unsigned opening_sides(const room_scan *s, int32_t x, int32_t y)
{
    const int32_t w = s->g->width, h = s->g->height, k = s->k, c = y * w + x;
    const int32_t *o = s->owner + c;
    const uint8_t *t = &DG_CELL(s->g, x, y), *pass = dgi_passable_default;
    const ptrdiff_t stride = s->g->stride;
    /* on the grid's border: x or y outside 1 .. size - 2 (one compare each) */
    if ((uint32_t)(x - 1) < (uint32_t)(w - 2) && (uint32_t)(y - 1) < (uint32_t)(h - 2))
        return sides_up_down(o, t, w, stride, k) |
               (unsigned)((o[1] != k) & (pass[t[1]] != 0)) << 1 |
               (unsigned)((o[-1] != k) & (pass[t[-1]] != 0)) << 3;
    unsigned sides = 0;
    if (y > 0 && o[-w] != k && pass[t[-stride]])
        sides |= 1;
    if (x < w - 1 && o[1] != k && pass[t[1]])
        sides |= 2;
    if (y < h - 1 && o[w] != k && pass[t[stride]])
        sides |= 4;
    if (x > 0 && o[-1] != k && pass[t[-1]])
        sides |= 8;
    return sides;
}

/* What scan_cells gathers, kept apart from the scan so that the tag stores
 * cannot alias it. */
typedef struct scan_sum {
    int32_t best, n, on_route;
} scan_sum;

/* The openings on the sides of room cell c (opening_sides' bits): tagged
 * found and listed, and read for the distance and the route. */
static void note_openings(const room_scan *s, scan_sum *sum, int32_t c, unsigned sides)
{
    const int32_t w = s->g->width, cell_step[4] = {-w, 1, w, -1};
    for (int d = 0; sides; d++, sides >>= 1)
    {
        int32_t e = c + cell_step[d];
        if (!(sides & 1u))
            continue;
        int32_t de = s->ds[e];
        if (de >= 0 && (sum->best < 0 || de + 1 < sum->best))
            sum->best = de + 1;
        sum->on_route |= s->route && s->route[c] && s->route[e];
        if (!s->tag[e])
        {
            s->tag[e] = 1;
            s->list[sum->n++] = e;
        }
    }
}

/* scan_cells' cells one by one, each its four sides. */
static void scan_each_cell(const room_scan *s, scan_sum *sum, const int32_t *cells,
                           int32_t count)
{
    /* in registers: a tag store may alias the scan's fields */
    const int32_t w = s->g->width, h = s->g->height, k = s->k, *owner = s->owner;
    const uint8_t *tiles = s->g->cells, *pass = dgi_passable_default;
    const ptrdiff_t stride = s->g->stride;
    for (int32_t i = 0; i < count; i++)
    {
        int32_t x = DGI_PX(cells[i]), y = DGI_PY(cells[i]), c = y * w + x;
        const int32_t *o = owner + c;
        const uint8_t *t = tiles + (ptrdiff_t)y * stride + x;
        unsigned sides;
        if ((uint32_t)(x - 1) < (uint32_t)(w - 2) && (uint32_t)(y - 1) < (uint32_t)(h - 2))
            sides = sides_up_down(o, t, w, stride, k) |
                    (unsigned)((o[1] != k) & (pass[t[1]] != 0)) << 1 |
                    (unsigned)((o[-1] != k) & (pass[t[-1]] != 0)) << 3;
        else
            sides = opening_sides(s, x, y);
        if (sides) /* most cells: none */
            note_openings(s, sum, c, sides);
    }
}

/* scan_cells' cells by a row's runs of them: each cell tests the cells
 * above and below it, the run's ends the cells beyond them (never the
 * room's: the list would hold them next); the openings listed in another
 * order, the same groups. Cells on the grid's top and bottom rows one by
 * one. */
static void scan_runs(const room_scan *s, scan_sum *sum, const int32_t *cells, int32_t count)
{
    /* in registers: a tag store may alias the scan's fields */
    const int32_t w = s->g->width, h = s->g->height, k = s->k, *owner = s->owner;
    const uint8_t *tiles = s->g->cells, *pass = dgi_passable_default;
    const ptrdiff_t stride = s->g->stride;
    for (int32_t i = 0, j; i < count; i = j)
    {
        int32_t x = DGI_PX(cells[i]), y = DGI_PY(cells[i]), c = y * w + x;
        if ((uint32_t)(y - 1) >= (uint32_t)(h - 2))
        {
            j = i + 1;
            scan_each_cell(s, sum, cells + i, 1);
            continue;
        }
        const int32_t *o = owner + c;
        const uint8_t *t = tiles + (ptrdiff_t)y * stride + x;
        j = i;
        do /* cells i .. j - 1: a run, one loop (one branch missed at its end) */
        {
            unsigned sides = sides_up_down(o + (j - i), t + (j - i), w, stride, k);
            if (sides)
                note_openings(s, sum, c + (j - i), sides);
        } while (++j < count && cells[j] == cells[i] + (j - i));
        const int32_t len = j - i;
        if (x > 0 && pass[t[-1]])
            note_openings(s, sum, c, 8u);
        if (x + len < w && pass[t[len]])
            note_openings(s, sum, c + len - 1, 2u);
    }
}

/* The count cells of room k (packed, rising): the open cells outside the
 * room 4-next to them tagged found and listed, and read for the distance
 * and the route as scan_rim says (a cell before the room's nearest cell on
 * a shortest walk is such a cell, whatever the room's shape); by a row's
 * runs of them unless by_cells. */
static void scan_cells(room_scan *s, const int32_t *cells, int32_t count, dg_point start,
                       int start_in, int by_cells)
{
    scan_sum sum = {s->best, s->n, s->on_route};
    if (by_cells)
        scan_each_cell(s, &sum, cells, count);
    else
        scan_runs(s, &sum, cells, count);
    if (start_in)
        sum.best = 0, sum.on_route = s->route && s->route[start.y * s->g->width + start.x];
    s->best = sum.best, s->n = sum.n, s->on_route = sum.on_route;
}

/* count cells of one side of a rect room from (x, y), a step of `step`
 * cells (tile_step tiles) apart, the ring around the room walked clockwise:
 * the open cell beyond each (out cells further, outside the room) counted
 * and read for the distance and route as scan_rim says, and a run of them
 * counted where one starts; `beyond` 0 when the side lies on the grid's
 * border. */
static void scan_side(room_scan *s, int32_t x, int32_t y, int32_t step, ptrdiff_t tile_step,
                      int32_t count, int32_t out, ptrdiff_t tile_out, int beyond)
{
    if (!beyond)
    {
        s->ring_prev = 0;
        return;
    }
    const int32_t *ds = s->ds, first = y * s->g->width + x, end = first + count * step;
    const uint8_t *t = &DG_CELL(s->g, x, y) + tile_out, *route = s->route;
    /* in registers: a byte read may alias the scan's fields */
    int32_t prev = s->ring_prev, runs = s->runs, best = s->best, n = s->n, on_route = s->on_route;
    for (int32_t c = first; c != end; c += step, t += tile_step)
    {
        int32_t open = dgi_passable_default[*t] != 0;
        runs += open & !prev;
        prev = open;
        if (!open)
            continue;
        int32_t o = c + out, d = ds[o];
        if (d >= 0 && (best < 0 || d + 1 < best))
            best = d + 1;
        on_route |= route && route[c] && route[o];
        n++;
    }
    s->best = best, s->n = n, s->on_route = on_route;
    s->ring_prev = prev, s->runs = runs;
}

/* A room whose cells are every cell of rect q: only the rect's rim meets
 * the outside, each rim cell through the cell beyond it on the side it
 * faces. With the start outside, a shortest walk to the room's nearest cell
 * comes from an opening, the cell before it, and any open cell beyond a rim
 * cell is at most one step nearer: the nearest distance is one more than the
 * nearest opening's. A shortest start-exit walk through the room enters it
 * the same way, so the room is on the route if and only if an opening and
 * the rim cell it meets are both marked. With the start inside: distance 0,
 * and on the route if the start is (every route cell's walk starts there).
 * Its openings, one beyond each rim cell, lie on a ring around the rect
 * where two are 8-next to each other only when next on the ring (the last
 * of a side and the first of the next meet at a corner): their groups are
 * the ring's runs, counted from the ring's last cell (beyond the top left
 * cell, to its left). Returns the groups. */
static int32_t scan_rim(room_scan *s, dg_rect q, dg_point start)
{
    const int32_t w = s->g->width, x1 = q.x + q.w - 1, y1 = q.y + q.h - 1;
    const ptrdiff_t stride = s->g->stride;
    s->ring_prev = q.x > 0 && dgi_passable_default[DG_CELL(s->g, q.x - 1, q.y)];
    scan_side(s, q.x, q.y, 1, 1, q.w, -w, -stride, q.y > 0);
    scan_side(s, x1, q.y, w, stride, q.h, 1, 1, x1 < w - 1);
    scan_side(s, x1, y1, -1, -1, q.w, w, stride, y1 < s->g->height - 1);
    scan_side(s, q.x, y1, -w, -stride, q.h, -1, -1, q.x > 0);
    if (start.x >= q.x && start.x <= x1 && start.y >= q.y && start.y <= y1)
    {
        s->best = 0;
        s->on_route = s->route && s->route[start.y * w + start.x];
    }
    return s->runs > 0 ? s->runs : s->n > 0; /* every ring cell open: one group */
}

/* The 8-connected groups of the n openings listed (tagged found), each
 * cell's tag back to 0 after. list has room for twice the openings (the
 * list, then the flood's stack). */
static int32_t group_openings(uint8_t *tag, int32_t *list, int32_t n, int32_t w, int32_t h)
{
    const uint8_t found = 1, grouped = 2;
    int32_t groups = 0;
    for (int32_t i = 0; i < n; i++)
    {
        if (tag[list[i]] != found)
            continue;
        groups++;
        int32_t top = 0, *stack = list + n; /* packed cells: one division a group */
        stack[top++] = DGI_PACK(list[i] % w, list[i] / w);
        tag[list[i]] = grouped;
        while (top > 0)
        {
            int32_t c = stack[--top], cx = DGI_PX(c), cy = DGI_PY(c);
            for (int32_t ny = DG_MAX(cy - 1, 0); ny <= DG_MIN(cy + 1, h - 1); ny++)
                for (int32_t nx = DG_MAX(cx - 1, 0); nx <= DG_MIN(cx + 1, w - 1); nx++)
                    if (tag[ny * w + nx] == found)
                    {
                        tag[ny * w + nx] = grouped;
                        stack[top++] = DGI_PACK(nx, ny);
                    }
        }
    }
    for (int32_t i = 0; i < n; i++)
        tag[list[i]] = 0;
    return groups;
}

/* Room k's facts read off its cells in one pass (only its rim when its
 * cells fill a rectangle): area, and its openings, open cells outside it
 * 4-next to one of its cells, which give its walking distance (of its
 * nearest reached cell; ds as dgi_walk_from gives it), reach and route (a
 * cell marked in route, NULL: not asked; scan_rim), and its entrances: the
 * distinct openings, grouped 8-connected. tag is 0 on every cell and so
 * left; list has room for twice the openings. start_room: the start's
 * owner. by_cells: every room read cell by cell (DGI_FACTS_BY_CELLS). */
static void measure_room(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                         int32_t k, int32_t start_room, const int32_t *ds, const uint8_t *route,
                         uint8_t *tag, int32_t *list, dgi_room_facts *f, int by_cells)
{
    const dg_rect q = rc->fill[k], whole = rc->clip[k];
    int32_t groups;
    room_scan s = {g, rc->owner, ds, route, tag, list, k, 0, -1, 0, 0, 0};
    if (q.w > 0 && q.x == whole.x && q.y == whole.y && q.w == whole.w && q.h == whole.h)
        f[k].flags |= DGI_RF_WHOLE;
    if (q.w > 0 && !by_cells)
        groups = scan_rim(&s, q, r->start);
    else /* with an owner map, or no cells */
    {
        /* less than half its rect (walk's caves): runs of a cell or two,
         * each a branch missed, which costs more than the tests saved */
        int sparse = (int64_t)rc->area[k] * 2 < (int64_t)whole.w * whole.h;
        scan_cells(&s, rc->cells + rc->first[k], rc->first[k + 1] - rc->first[k], r->start,
                   start_room == k, by_cells || sparse);
        groups = group_openings(tag, list, s.n, g->width, g->height);
    }
    f[k].area = rc->area[k];
    f[k].distance = s.best;
    if (s.best >= 0)
        f[k].flags |= DGI_RF_REACHABLE | (s.on_route ? DGI_RF_ROUTE : 0);
    f[k].entrances = groups;
}

/* Each reachable room's rank: the share of the other reachable rooms at most
 * as far, in permille (ties share the higher rank, so the farthest is 1000). */
static void fill_ranks(dgi_room_facts *f, int32_t rooms, int32_t reachable, int32_t *order)
{
    int32_t m = 0;
    for (int32_t k = 0; k < rooms; k++)
        if (f[k].flags & DGI_RF_REACHABLE)
            order[m++] = k;
    /* insertion sort by distance: rooms are few, and it is stable */
    for (int32_t i = 1; i < m; i++)
    {
        int32_t v = order[i], j = i;
        for (; j > 0 && f[order[j - 1]].distance > f[v].distance; j--)
            order[j] = order[j - 1];
        order[j] = v;
    }
    /* a 32-bit division where the product fits (the same quotient, cheaper) */
    const int narrow = (int64_t)m * 1000 <= INT32_MAX;
    for (int32_t i = m - 1, rank = 0; i >= 0; i--)
    {
        if (i == m - 1 || f[order[i]].distance != f[order[i + 1]].distance)
        {
            int32_t le = i == m - 1 ? m : i + 1;
            rank = reachable <= 1 ? 0
                   : narrow     ? (int32_t)((uint32_t)(le - 1) * 1000u / (uint32_t)(reachable - 1))
                                : (int32_t)((int64_t)(le - 1) * 1000 / (reachable - 1));
        }
        f[order[i]].rank = rank;
    }
}

/* mark[c] = 1 on every cell of some shortest walk from the start to the exit:
 * back from the exit over cells one step nearer the start (ds), so only the
 * cells of those walks are visited. */
static void mark_route(const dg_grid *g, const int32_t *ds, dg_point exit, uint8_t *mark,
                       int32_t *stack)
{
    const int32_t w = g->width, h = g->height;
    memset(mark, 0, (size_t)w * (size_t)h);
    int32_t e = exit.y * w + exit.x, top = 0;
    if (ds[e] < 0)
        return;
    mark[e] = 1;
    stack[top++] = DGI_PACK(exit.x, exit.y); /* packed cells: no division per cell */
    while (top > 0)
    {
        int32_t p = stack[--top], x = DGI_PX(p), y = DGI_PY(p), c = y * w + x;
        int32_t nearer = ds[c] - 1; /* -1 at the start: nothing is nearer */
        if (nearer < 0)
            continue;
        if (y > 0 && ds[c - w] == nearer && !mark[c - w])
            mark[c - w] = 1, stack[top++] = DGI_PACK(x, y - 1);
        if (x < w - 1 && ds[c + 1] == nearer && !mark[c + 1])
            mark[c + 1] = 1, stack[top++] = DGI_PACK(x + 1, y);
        if (y < h - 1 && ds[c + w] == nearer && !mark[c + w])
            mark[c + w] = 1, stack[top++] = DGI_PACK(x, y + 1);
        if (x > 0 && ds[c - 1] == nearer && !mark[c - 1])
            mark[c - 1] = 1, stack[top++] = DGI_PACK(x - 1, y);
    }
}

/* 1 if no cell of the grid's outer ring is passable: the walk reaches none,
 * so a route cell has its four neighbours on the grid. */
static int ring_shut(const dg_grid *g)
{
    const int32_t w = g->width, h = g->height;
    const uint8_t *pass = dgi_passable_default;
    unsigned open = 0;
    for (int32_t x = 0; x < w; x++)
        open |= pass[DG_CELL(g, x, 0)] | pass[DG_CELL(g, x, h - 1)];
    for (int32_t y = 1; y < h - 1; y++)
        open |= pass[DG_CELL(g, 0, y)] | pass[DG_CELL(g, w - 1, y)];
    return open == 0;
}

/* mark_route where the ring is shut (ring_shut): no bounds
 * tests, and plain cell indices on the stack. The same marks: a cell is
 * marked when some marked neighbour is one step farther, in any order. */
static void mark_route_walled(const dg_grid *g, const int32_t *ds, dg_point exit, uint8_t *mark,
                              int32_t *stack)
{
    const int32_t w = g->width;
    memset(mark, 0, (size_t)w * (size_t)g->height);
    int32_t e = exit.y * w + exit.x, top = 0;
    if (ds[e] < 0)
        return;
    mark[e] = 1;
    stack[top++] = e;
    while (top > 0)
    {
        int32_t c = stack[--top], nearer = ds[c] - 1; /* -1 at the start */
        if (nearer < 0)
            continue;
        if (ds[c - w] == nearer && !mark[c - w])
            mark[c - w] = 1, stack[top++] = c - w;
        if (ds[c + 1] == nearer && !mark[c + 1])
            mark[c + 1] = 1, stack[top++] = c + 1;
        if (ds[c + w] == nearer && !mark[c + w])
            mark[c + w] = 1, stack[top++] = c + w;
        if (ds[c - 1] == nearer && !mark[c - 1])
            mark[c - 1] = 1, stack[top++] = c - 1;
    }
}

/* The room that holds cell p: its owner, else `fallback` (the result's room). */
static int32_t holder(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc, dg_point p,
                      int32_t fallback)
{
    int32_t k = p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height
                    ? dgi_room_owner_at(g, r, rc, p)
                    : -1;
    if (k >= 0)
        return k;
    return fallback >= 0 && fallback < r->room_count ? fallback : -1;
}

static void fill_holdings(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                          dgi_room_facts *f)
{
    int32_t s = holder(g, r, rc, r->start, r->start_room);
    int32_t e = holder(g, r, rc, r->exit, r->exit_room);
    if (s >= 0)
        f[s].flags |= DGI_RF_START;
    if (e >= 0)
        f[e].flags |= DGI_RF_EXIT;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        dg_point p = r->markers[i].pos;
        int32_t k = r->markers[i].kind == DG_MARKER_KEY ? holder(g, r, rc, p, -1) : -1;
        if (k >= 0)
            f[k].flags |= DGI_RF_KEY;
    }
}

/* Locked and secret doors on the grid: bit 1 and bit 2. */
static int gates_present(const dg_grid *g)
{
    /* rows without a gap between them (most grids): one search of them all */
    const int whole = g->stride == g->width;
    const size_t span = whole ? (size_t)g->width * (size_t)g->height : (size_t)g->width;
    int found = 0;
    for (int32_t y = 0; y < (whole ? 1 : g->height) && found != 3; y++)
    {
        const uint8_t *row = &DG_CELL(g, 0, y);
        found |= (memchr(row, DG_TILE_DOOR_LOCKED, span) != NULL) |
                 (memchr(row, DG_TILE_DOOR_SECRET, span) != NULL) << 1;
    }
    return found;
}

/* Which rooms a locked or secret door cuts off from the start: only the
 * floods for gate kinds on the map whose flags (DGI_RF_LOCK, _SECRET, _SHUT)
 * are asked for. */
static void fill_gates(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                       uint8_t *seen, int32_t *queue, dgi_room_facts *f, int32_t asked)
{
    int gates = gates_present(g);
    if ((gates & 1) && (asked & (DGI_RF_LOCK | (gates == 1 ? DGI_RF_SHUT : 0))))
        gate_pass(g, r, rc, seen, queue, f, 1, 0, DGI_RF_LOCK);
    if ((gates & 2) && (asked & (DGI_RF_SECRET | (gates == 2 ? DGI_RF_SHUT : 0))))
        gate_pass(g, r, rc, seen, queue, f, 0, 1, DGI_RF_SECRET);
    if (gates == 3 && (asked & DGI_RF_SHUT))
        gate_pass(g, r, rc, seen, queue, f, 1, 1, DGI_RF_SHUT);
    else if (gates != 3)
        for (int32_t k = 0; k < r->room_count; k++)
            if (f[k].flags & (DGI_RF_LOCK | DGI_RF_SECRET))
                f[k].flags |= DGI_RF_SHUT;
}

dg_status dgi_room_facts_fill(const dg_grid *g, const dg_result *r, const int32_t *walk,
                              dgi_room_facts *f, int32_t asked, int32_t *reachable,
                              const dg_allocator *a)
{
    const int32_t w = g->width, n = w * g->height, rooms = r->room_count;
    const size_t cells = (size_t)w * (size_t)g->height; /* n, as a size */
    /* owner, cells, queue and one more (an opening list and its flood
     * stack), the start's walk unless given, first cells, rank order, areas,
     * filled and clipped rects; route (then gate) marks and opening tags, which the caves' padded mask
     * uses first */
    const int planes = walk ? 4 : 5;
    const uint64_t room_words = (uint64_t)rooms * 11 + 1; /* first, order, area, fill, clip */
    uint64_t padded = (uint64_t)(w + 2) * (uint64_t)(g->height + 2);
    uint64_t marks = DG_MAX((uint64_t)n * 2, padded);
    uint64_t bytes = ((uint64_t)n * (uint64_t)planes + room_words) * sizeof(int32_t) + marks;
    if (bytes > (uint64_t)SIZE_MAX)
        return DG_E_NOMEM; /* a 32-bit build and a grid near the cell limit */
    size_t words = cells * (size_t)planes + (size_t)room_words;
    int32_t *buf = dgi_alloc(a, (size_t)bytes);
    if (!buf)
        return DG_E_NOMEM;
    int32_t *owner = buf, *queue = buf + 2 * cells, *own_walk = buf + 4 * cells;
    dgi_room_cells rc = {buf + cells, buf + cells * (size_t)planes, NULL, NULL, NULL, NULL, {0}};
    int32_t *order = rc.first + rooms + 1;
    rc.area = order + rooms;
    rc.fill = (dg_rect *)(rc.area + rooms), rc.clip = rc.fill + rooms;
    uint8_t *route = (uint8_t *)(buf + words), *tag = route + n;
    const int by_cells = (asked & DGI_FACTS_BY_CELLS) != 0;
    /* the route and tag planes: the cells' marks first */
    dgi_room_cells_list(g, r, &rc, owner, queue, route, order, by_cells);
    memset(tag, 0, cells);
    for (int32_t k = 0; k < rooms; k++)
    {
        f[k].distance = f[k].rank = -1;
        f[k].area = f[k].entrances = f[k].flags = 0;
    }
    const int32_t *ds = walk;
    if (!ds)
    {
        dgi_walk_default(g, r->start, own_walk, queue); /* the caller checked the start */
        ds = own_walk;
    }
    int exit_in = r->exit.x >= 0 && r->exit.y >= 0 && r->exit.x < w && r->exit.y < g->height &&
                  (asked & DGI_RF_ROUTE);
    if (exit_in && !by_cells && ring_shut(g))
        mark_route_walled(g, ds, r->exit, route, queue);
    else if (exit_in) /* and the long way, which tests compare with */
        mark_route(g, ds, r->exit, route, queue);
    int32_t start_room = dgi_room_owner_at(g, r, &rc, r->start);
    for (int32_t k = 0; k < rooms; k++)
        measure_room(g, r, &rc, k, start_room, ds, exit_in ? route : NULL, tag, queue, f,
                     by_cells);
    fill_holdings(g, r, &rc, f);
    /* the gate floods overwrite the route marks (read above) */
    fill_gates(g, r, &rc, route, queue, f, asked);
    int32_t count = 0;
    for (int32_t k = 0; k < rooms; k++)
        count += (f[k].flags & DGI_RF_REACHABLE) != 0;
    fill_ranks(f, rooms, count, order);
    *reachable = count;
    dgi_free(a, buf, (size_t)bytes);
    return DG_OK;
}
