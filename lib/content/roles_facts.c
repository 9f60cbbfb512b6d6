/* The facts dg_roles judges rooms on (docs/content.md): which open cells each
 * room owns, its walking distance and rank from the start, whether it lies on
 * a shortest start-exit walk or behind a locked or secret door, its area and
 * its entrances. A few breadth-first searches and one pass over the rooms'
 * rects: O(cells + rect areas). */
#include "content/content.h"

/* The tiles a room can own: passable, neither a door nor a corridor. */
static void room_tiles(uint8_t *open)
{
    memcpy(open, dgi_passable_default, 256);
    open[DG_TILE_DOOR] = open[DG_TILE_DOOR_LOCKED] = open[DG_TILE_DOOR_SECRET] = 0;
    open[DG_TILE_CORRIDOR] = 0;
}

/* The rect of room r clipped to the grid (w <= 0 when it misses it). */
static dg_rect clip_rect(const dg_grid *g, dg_rect q)
{
    int32_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
    int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)g->width);
    int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)g->height);
    dg_rect c = {x0, y0, (int32_t)DG_MAX(x1 - x0, 0), (int32_t)DG_MAX(y1 - y0, 0)};
    if (c.h <= 0)
        c.w = 0;
    return c;
}

/* The cave room (DG_ROOM_CAVE: its rect only bounds it) that owns a
 * component of open cells with bounding box b: the smallest (then first)
 * whose rect holds b, else -1. */
static int32_t cave_for(const dg_result *r, dg_rect b)
{
    int32_t best = -1;
    int64_t best_area = 0;
    for (int32_t k = 0; k < r->room_count; k++)
    {
        dg_rect q = r->rooms[k].rect;
        int64_t area = (int64_t)q.w * q.h;
        if (r->rooms[k].kind == DG_ROOM_CAVE && b.x >= q.x && b.y >= q.y &&
            (int64_t)b.x + b.w <= (int64_t)q.x + q.w && (int64_t)b.y + b.h <= (int64_t)q.y + q.h &&
            (best < 0 || area < best_area))
            best = k, best_area = area;
    }
    return best;
}

/* The cave rooms whose rects meet a component's bounding box b, smallest
 * (then first) first, for the cells of a component no cave rect holds whole
 * (tunnels of floor join caves). */
#define NEAR_CAVES 16
typedef struct near_caves {
    int32_t count; /* -1: more than NEAR_CAVES, each cell scans every room */
    int32_t room[NEAR_CAVES];
} near_caves;

static void list_near_caves(const dg_result *r, dg_rect b, near_caves *nc)
{
    nc->count = 0;
    for (int32_t k = 0; k < r->room_count && nc->count >= 0; k++)
    {
        dg_rect q = r->rooms[k].rect;
        if (r->rooms[k].kind != DG_ROOM_CAVE || (int64_t)q.x + q.w <= b.x ||
            (int64_t)b.x + b.w <= q.x || (int64_t)q.y + q.h <= b.y || (int64_t)b.y + b.h <= q.y)
            continue;
        if (nc->count == NEAR_CAVES)
        {
            nc->count = -1;
            break;
        }
        int64_t area = (int64_t)q.w * q.h;
        int32_t i = nc->count++;
        for (; i > 0; i--) /* insertion: a later room of the same area stays after */
        {
            dg_rect p = r->rooms[nc->room[i - 1]].rect;
            if ((int64_t)p.w * p.h <= area)
                break;
            nc->room[i] = nc->room[i - 1];
        }
        nc->room[i] = k;
    }
}

/* The smallest (then first) cave rect that holds cell (x, y), else -1. */
static int32_t cave_for_cell(const dg_result *r, const near_caves *nc, int32_t x, int32_t y)
{
    dg_rect b = {x, y, 1, 1};
    if (nc->count < 0)
        return cave_for(r, b);
    for (int32_t i = 0; i < nc->count; i++)
    {
        dg_rect q = r->rooms[nc->room[i]].rect;
        if (x >= q.x && y >= q.y && (int64_t)x < (int64_t)q.x + q.w && (int64_t)y < (int64_t)q.y + q.h)
            return nc->room[i];
    }
    return -1;
}

/* stamp[c] for each cell c of box b: the first cave of nc (smallest, then
 * first) whose rect holds it, else -1, as cave_for_cell gives it: the rects
 * stamped largest first, so the smaller overwrite. nc->count >= 0. */
static void stamp_near_caves(const dg_result *r, const near_caves *nc, dg_rect b, int32_t w,
                             int32_t *stamp)
{
    for (int32_t y = b.y; y < b.y + b.h; y++)
        for (int32_t x = b.x; x < b.x + b.w; x++)
            stamp[y * w + x] = -1;
    for (int32_t i = nc->count - 1; i >= 0; i--)
    {
        dg_rect q = r->rooms[nc->room[i]].rect;
        int64_t x0 = DG_MAX(q.x, b.x), y0 = DG_MAX(q.y, b.y);
        int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)b.x + b.w);
        int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)b.y + b.h);
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++)
                stamp[y * w + x] = nc->room[i];
    }
}

/* The cells a cave may own (open, no plain room's), 1 in a byte mask with a
 * closed one-cell border around the grid (pw = width + 2), so the flood
 * below needs no bounds checks. */
static void cave_candidates(const dg_grid *g, const uint8_t *open, const int32_t *owner,
                            uint8_t *mask, int32_t pw)
{
    const int32_t w = g->width, h = g->height;
    memset(mask, 0, (size_t)pw);
    for (int32_t y = 0; y < h; y++)
    {
        uint8_t *row = mask + (size_t)(y + 1) * (size_t)pw;
        const uint8_t *tiles = &DG_CELL(g, 0, y);
        const int32_t *own = owner + (ptrdiff_t)y * w;
        row[0] = row[w + 1] = 0;
        for (int32_t x = 0; x < w; x++)
            row[x + 1] = (uint8_t)((own[x] == -1) & open[tiles[x]]);
    }
    memset(mask + (size_t)(h + 1) * (size_t)pw, 0, (size_t)pw);
}

/* The 4-connected component of mask cells holding packed cell p (DGI_PACK),
 * cleared in mask and listed in queue; *b gets its bounding box. No branch
 * depends on the map: each neighbour is written and kept if it was a mask
 * cell, so queue needs one entry more than the component. Returns its size. */
static int32_t flood_component(uint8_t *mask, int32_t pw, int32_t p, int32_t *queue, dg_rect *b)
{
    const int32_t up = 1 << 15; /* DGI_PACK's step of one row */
    int32_t head = 0, tail = 1, xa = DGI_PX(p), xb = xa, yb = DGI_PY(p);
    queue[0] = p;
    mask[(DGI_PY(p) + 1) * pw + DGI_PX(p) + 1] = 0;
    while (head < tail)
    {
        int32_t q = queue[head++], x = DGI_PX(q), y = DGI_PY(q);
        uint8_t *m = mask + (y + 1) * pw + x + 1;
        uint8_t n = m[-pw], e = m[1], s = m[pw], wv = m[-1];
        m[-pw] = m[1] = m[pw] = m[-1] = 0;
        xa = DG_MIN(xa, x), xb = DG_MAX(xb, x), yb = DG_MAX(yb, y);
        queue[tail] = q - up;
        tail += n;
        queue[tail] = q + 1;
        tail += e;
        queue[tail] = q + up;
        tail += s;
        queue[tail] = q - 1;
        tail += wv;
    }
    b->x = xa, b->y = DGI_PY(p), b->w = xb - xa + 1, b->h = yb - DGI_PY(p) + 1;
    return tail;
}

/* Open cells no plain room owns, 4-connected components of them, each to its
 * cave (cell by cell when no cave holds the whole component); a cell of no
 * room keeps a negative owner (-1, or -3 for an open cell no cave holds). The
 * queue holds packed cells (DGI_PACK) and has room for n + 1; mask has
 * (width + 2) * (height + 2) bytes; counts[room] grows by the cells given
 * to it. */
static void own_caves(const dg_grid *g, const dg_result *r, const uint8_t *open, int32_t *owner,
                      int32_t *queue, int32_t *stamp, uint8_t *mask, int32_t *counts)
{
    const int32_t w = g->width, h = g->height, pw = w + 2;
    cave_candidates(g, open, owner, mask, pw);
    for (int32_t y0 = 0; y0 < h; y0++)
    {
        const uint8_t *row = mask + (size_t)(y0 + 1) * (size_t)pw + 1, *next;
        /* mask cells are 0 or 1: memchr skips a row's cleared cells */
        for (int32_t x0 = 0; (next = memchr(row + x0, 1, (size_t)(w - x0))) != NULL; x0++)
        {
            x0 = (int32_t)(next - row);
            dg_rect b;
            int32_t tail = flood_component(mask, pw, DGI_PACK(x0, y0), queue, &b);
            int32_t k = cave_for(r, b);
            near_caves nc = {0, {0}};
            if (k < 0)
                list_near_caves(r, b, &nc);
            if (k < 0 && nc.count >= 0) /* each cell's cave read off the stamped rects */
                stamp_near_caves(r, &nc, b, w, stamp);
            for (int32_t i = 0; i < tail; i++)
            {
                int32_t x = DGI_PX(queue[i]), y = DGI_PY(queue[i]);
                int32_t own = k >= 0         ? k
                              : nc.count >= 0 ? stamp[y * w + x]
                                              : cave_for_cell(r, &nc, x, y);
                if (own >= 0)
                    counts[own]++;
                owner[y * w + x] = own < 0 ? -3 : own;
            }
        }
    }
}

/* owner[cell] = the room that owns the open cell, else negative: the first plain
 * room (in array order) whose rect holds it, else the cave its component
 * belongs to (own_caves, with its scratch mask). With caves, counts[room]
 * gets the cells each room owns (cells and first then list only the plain
 * rooms': group_cells lists them all). Returns 1 if there are caves. */
static int fill_owners(const dg_grid *g, const dg_result *r, int32_t *owner, int32_t *queue,
                       int32_t *stamp, uint8_t *mask, int32_t *cells, int32_t *first,
                       int32_t *counts)
{
    uint8_t open[256];
    room_tiles(open);
    const int32_t n = g->width * g->height;
    int caves = 0;
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        owner[i] = -1;
    for (int32_t k = 0; k < r->room_count; k++)
    {
        first[k] = m;
        if (r->rooms[k].kind == DG_ROOM_CAVE)
        {
            caves = 1;
            continue;
        }
        dg_rect q = clip_rect(g, r->rooms[k].rect);
        for (int32_t y = q.y; y < q.y + q.h; y++)
        {
            const uint8_t *t = &DG_CELL(g, q.x, y);
            int32_t *o = owner + (ptrdiff_t)y * g->width + q.x, packed = DGI_PACK(q.x, y);
            for (int32_t x = 0; x < q.w; x++)
                if (o[x] < 0 && open[t[x]])
                    o[x] = k, cells[m++] = packed + x;
        }
    }
    first[r->room_count] = m;
    if (!caves)
        return 0;
    for (int32_t k = 0; k < r->room_count; k++)
        counts[k] = first[k + 1] - first[k];
    own_caves(g, r, open, owner, queue, stamp, mask, counts);
    return caves;
}

/* The open cells of every room (packed, DGI_PACK), grouped by room:
 * cells[first[k] .. first[k + 1]). */
typedef struct room_cells {
    int32_t *cells, *first;
} room_cells;

static void group_cells(const int32_t *owner, int32_t w, int32_t n, int32_t rooms,
                        const int32_t *counts, room_cells *rc)
{
    rc->first[0] = 0;
    for (int32_t k = 0; k < rooms; k++)
        rc->first[k + 1] = rc->first[k] + counts[k];
    /* first[k] walks up to the old first[k + 1], once a run of a row's cells
     * of room k (a register, not a store and a load back per cell) */
    for (int32_t y = 0, i = 0; i < n; y++)
        for (int32_t x = 0; x < w;)
        {
            int32_t k = owner[i];
            if (k < 0)
            {
                x++, i++;
                continue;
            }
            int32_t at = rc->first[k];
            for (; x < w && owner[i] == k; x++, i++)
                rc->cells[at++] = DGI_PACK(x, y);
            rc->first[k] = at;
        }
    for (int32_t k = rooms; k > 0; k--)
        rc->first[k] = rc->first[k - 1];
    rc->first[0] = 0;
}

/* Sets `flag` on every reachable room none of whose cells is marked in seen. */
static void mark_unreached(const room_cells *rc, int32_t w, const uint8_t *seen,
                           dgi_room_facts *f, int32_t rooms, int32_t flag)
{
    for (int32_t k = 0; k < rooms; k++)
    {
        if (!(f[k].flags & DGI_RF_REACHABLE))
            continue;
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
static void gate_pass(const dg_grid *g, const dg_result *r, const room_cells *rc, uint8_t *seen,
                      int32_t *stack, dgi_room_facts *f, int lock, int secret, int32_t flag)
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
} room_scan;

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
        return (unsigned)((o[-w] != k) & (pass[t[-stride]] != 0)) |
               (unsigned)((o[1] != k) & (pass[t[1]] != 0)) << 1 |
               (unsigned)((o[w] != k) & (pass[t[stride]] != 0)) << 2 |
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

/* The count cells of room k (packed): the open cells outside the room
 * 4-next to them tagged found and listed, and read for the distance and the
 * route as scan_rim says (a cell before the room's nearest cell on a
 * shortest walk is such a cell, whatever the room's shape). */
static void scan_cells(room_scan *s, const int32_t *cells, int32_t count, dg_point start)
{
    const int32_t w = s->g->width, k = s->k;
    const int32_t *owner = s->owner, *ds = s->ds;
    const uint8_t *route = s->route;
    uint8_t *tag = s->tag;
    const int32_t cell_step[4] = {-w, 1, w, -1};
    int32_t best = s->best, n = s->n, on_route = s->on_route;
    for (int32_t i = 0; i < count; i++)
    {
        int32_t x = DGI_PX(cells[i]), y = DGI_PY(cells[i]), c = y * w + x;
        unsigned sides = opening_sides(s, x, y);
        for (int d = 0; sides; d++, sides >>= 1) /* most cells: none */
        {
            int32_t e = c + cell_step[d];
            if (!(sides & 1u))
                continue;
            if (ds[e] >= 0 && (best < 0 || ds[e] + 1 < best))
                best = ds[e] + 1;
            on_route |= route && route[c] && route[e];
            if (!tag[e])
            {
                tag[e] = 1;
                s->list[n++] = e;
            }
        }
    }
    if (owner[start.y * w + start.x] == k)
        best = 0, on_route = route && route[start.y * w + start.x];
    s->best = best, s->n = n, s->on_route = on_route;
}

/* count cells of one side of a rect room from (x, y), a step of `step`
 * cells apart: the open cell beyond each (out cells further, outside the
 * room) tagged found and listed, read for the distance and route as
 * scan_rim says; `beyond` 0 when the side lies on the grid's border. */
static void scan_side(room_scan *s, int32_t x, int32_t y, int32_t step, int32_t count,
                      int32_t out, ptrdiff_t tile_out, int beyond)
{
    if (!beyond)
        return;
    const int32_t *ds = s->ds, first = y * s->g->width + x, end = first + count * step;
    const uint8_t *t = &DG_CELL(s->g, x, y) + tile_out, *route = s->route;
    const ptrdiff_t tile_step = step == 1 ? 1 : s->g->stride;
    for (int32_t c = first; c != end; c += step, t += tile_step)
    {
        if (!dgi_passable_default[*t])
            continue;
        int32_t o = c + out, d = ds[o];
        if (d >= 0 && (s->best < 0 || d + 1 < s->best))
            s->best = d + 1;
        s->on_route |= route && route[c] && route[o];
        if (!s->tag[o])
        {
            s->tag[o] = 1;
            s->list[s->n++] = o;
        }
    }
}

/* A room whose cells are every cell of rect q: only the rect's rim meets
 * the outside, each rim cell through the cell beyond it on the side it
 * faces. With the start outside, a shortest walk to the room's nearest cell
 * comes from an opening, the cell before it, and any open cell beyond a rim
 * cell is at most one step nearer: the nearest distance is one more than the
 * nearest opening's. A shortest start-exit walk through the room enters it
 * the same way, so the room is on the route if and only if an opening and
 * the rim cell it meets are both marked. With the start inside: distance 0,
 * and on the route if the start is (every route cell's walk starts there). */
static void scan_rim(room_scan *s, dg_rect q, dg_point start)
{
    const int32_t w = s->g->width, x1 = q.x + q.w - 1, y1 = q.y + q.h - 1;
    const ptrdiff_t stride = s->g->stride;
    scan_side(s, q.x, q.y, 1, q.w, -w, -stride, q.y > 0);
    scan_side(s, q.x, y1, 1, q.w, w, stride, y1 < s->g->height - 1);
    scan_side(s, q.x, q.y, w, q.h, -1, -1, q.x > 0);
    scan_side(s, x1, q.y, w, q.h, 1, 1, x1 < w - 1);
    if (start.x >= q.x && start.x <= x1 && start.y >= q.y && start.y <= y1)
    {
        s->best = 0;
        s->on_route = s->route && s->route[start.y * w + start.x];
    }
}

/* 1 if the count cells (packed, in row order) are every cell of one
 * rectangle, into *q: the first and last cells are its corners, and each of
 * its rows starts and ends where it must (cells rise within a row, so the
 * row between holds each cell once). O(rows). */
static int cells_fill_rect(const int32_t *cells, int32_t count, dg_rect *q)
{
    if (count <= 0)
        return 0;
    int32_t x0 = DGI_PX(cells[0]), y0 = DGI_PY(cells[0]);
    int32_t x1 = DGI_PX(cells[count - 1]), y1 = DGI_PY(cells[count - 1]);
    if (x1 < x0 || (int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) != count)
        return 0;
    const int32_t bw = x1 - x0 + 1;
    for (int32_t y = y0, i = 0; y <= y1; y++, i += bw)
        if (cells[i] != DGI_PACK(x0, y) || cells[i + bw - 1] != DGI_PACK(x1, y))
            return 0;
    q->x = x0, q->y = y0, q->w = bw, q->h = y1 - y0 + 1;
    return 1;
}

/* Room k's facts read off its cells in one pass (only its rim when its
 * cells fill a rectangle): area, and its openings, open cells outside it
 * 4-next to one of its cells, which give its walking distance (of its
 * nearest reached cell; ds as dgi_walk_from gives it), reach and route (a
 * cell marked in route, NULL: not asked; scan_rim), and its entrances: the
 * distinct openings, grouped 8-connected. tag[c] is 1 for an
 * opening found, 2 for one already grouped, and back to 0 for each cell
 * listed when the room is done. list has room for twice the openings (the
 * list, then the flood's stack). */
static void measure_room(const dg_grid *g, const dg_result *r, const int32_t *owner, int32_t k,
                         const room_cells *rc, const int32_t *ds, const uint8_t *route,
                         uint8_t *tag, int32_t *list, dgi_room_facts *f)
{
    const int32_t w = g->width, h = g->height;
    const uint8_t found = 1, grouped = 2;
    room_scan s = {g, owner, ds, route, tag, list, k, 0, -1, 0};
    dg_rect q;
    int32_t area = rc->first[k + 1] - rc->first[k];
    if (cells_fill_rect(rc->cells + rc->first[k], area, &q))
    {
        dg_rect whole = clip_rect(g, r->rooms[k].rect);
        scan_rim(&s, q, r->start);
        if (q.x == whole.x && q.y == whole.y && q.w == whole.w && q.h == whole.h)
            f[k].flags |= DGI_RF_WHOLE;
    }
    else
        scan_cells(&s, rc->cells + rc->first[k], area, r->start);
    int32_t n = s.n, best = s.best;
    f[k].area = area;
    f[k].distance = best;
    if (best >= 0)
        f[k].flags |= DGI_RF_REACHABLE | (s.on_route ? DGI_RF_ROUTE : 0);
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
    for (int32_t i = m - 1, le = m; i >= 0; i--)
    {
        if (i < m - 1 && f[order[i]].distance != f[order[i + 1]].distance)
            le = i + 1;
        f[order[i]].rank = reachable > 1 ? (int32_t)((int64_t)(le - 1) * 1000 / (reachable - 1)) : 0;
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

/* The room that holds cell p: its owner, else `fallback` (the result's room). */
static int32_t holder(const dg_grid *g, const int32_t *owner, dg_point p, int32_t fallback,
                      int32_t rooms)
{
    if (p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height && owner[p.y * g->width + p.x] >= 0)
        return owner[p.y * g->width + p.x];
    return fallback >= 0 && fallback < rooms ? fallback : -1;
}

static void fill_holdings(const dg_grid *g, const dg_result *r, const int32_t *owner,
                          dgi_room_facts *f)
{
    int32_t s = holder(g, owner, r->start, r->start_room, r->room_count);
    int32_t e = holder(g, owner, r->exit, r->exit_room, r->room_count);
    if (s >= 0)
        f[s].flags |= DGI_RF_START;
    if (e >= 0)
        f[e].flags |= DGI_RF_EXIT;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        dg_point p = r->markers[i].pos;
        if (r->markers[i].kind == DG_MARKER_KEY && p.x >= 0 && p.y >= 0 && p.x < g->width &&
            p.y < g->height && owner[p.y * g->width + p.x] >= 0)
            f[owner[p.y * g->width + p.x]].flags |= DGI_RF_KEY;
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
static void fill_gates(const dg_grid *g, const dg_result *r, const room_cells *rc, uint8_t *seen,
                       int32_t *queue, dgi_room_facts *f, int32_t asked)
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
     * stack), the start's walk unless given, first cells and rank order;
     * route (then gate) marks and opening tags, which the caves' padded mask
     * uses first */
    const int planes = walk ? 4 : 5;
    uint64_t padded = (uint64_t)(w + 2) * (uint64_t)(g->height + 2);
    uint64_t marks = DG_MAX((uint64_t)n * 2, padded);
    uint64_t bytes = ((uint64_t)n * (uint64_t)planes + (uint64_t)rooms * 2 + 1) * sizeof(int32_t) + marks;
    if (bytes > (uint64_t)SIZE_MAX)
        return DG_E_NOMEM; /* a 32-bit build and a grid near the cell limit */
    size_t words = cells * (size_t)planes + (size_t)rooms * 2 + 1;
    int32_t *buf = dgi_alloc(a, (size_t)bytes);
    if (!buf)
        return DG_E_NOMEM;
    int32_t *owner = buf, *queue = buf + 2 * cells, *own_walk = buf + 4 * cells;
    room_cells rc = {buf + cells, buf + cells * (size_t)planes};
    int32_t *order = rc.first + rooms + 1;
    uint8_t *route = (uint8_t *)(buf + words), *tag = route + n;
    /* without caves the rect scan lists each room's cells in order already;
     * with caves group_cells lists them anew, so the caves' stamps may use
     * the cells plane till then */
    if (fill_owners(g, r, owner, queue, rc.cells, route, rc.cells, rc.first, order))
        group_cells(owner, w, n, rooms, order, &rc); /* order: the counts till the ranks */
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
    if (exit_in)
        mark_route(g, ds, r->exit, route, queue);
    for (int32_t k = 0; k < rooms; k++)
        measure_room(g, r, owner, k, &rc, ds, exit_in ? route : NULL, tag, queue, f);
    fill_holdings(g, r, owner, f);
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
