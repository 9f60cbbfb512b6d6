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

/* 1 if no two caves' rects (clipped) share a cell. */
static int caves_apart(const dg_grid *g, const dg_result *r)
{
    for (int32_t i = 0; i < r->room_count; i++)
    {
        if (r->rooms[i].kind != DG_ROOM_CAVE)
            continue;
        dg_rect a = clip_rect(g, r->rooms[i].rect);
        for (int32_t j = i + 1; j < r->room_count && a.w > 0; j++)
        {
            dg_rect b = clip_rect(g, r->rooms[j].rect);
            if (r->rooms[j].kind == DG_ROOM_CAVE && b.w > 0 && a.x < b.x + b.w &&
                b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
                return 0;
        }
    }
    return 1;
}

/* Caves apart (caves_apart), the plain rooms' owners set: each open cell no
 * plain room owns goes to the one cave whose rect holds it, which is what
 * own_caves gives then (a component within one cave's rect is that cave's,
 * one spread over several has each cell read off the rect that holds it),
 * and every room's cells are listed by room, rows in order, as group_cells
 * lists them. One pass over the rects, no flood. */
static void own_caves_apart(const dg_grid *g, const dg_result *r, const uint8_t *open,
                            int32_t *owner, int32_t *cells, int32_t *first)
{
    int32_t m = 0;
    for (int32_t k = 0; k < r->room_count; k++)
    {
        first[k] = m;
        dg_rect q = clip_rect(g, r->rooms[k].rect);
        const int cave = r->rooms[k].kind == DG_ROOM_CAVE;
        for (int32_t y = q.y; y < q.y + q.h; y++)
        {
            const uint8_t *t = &DG_CELL(g, q.x, y);
            int32_t *o = owner + (ptrdiff_t)y * g->width + q.x, packed = DGI_PACK(q.x, y);
            if (cave)
            {
                for (int32_t x = 0; x < q.w; x++)
                    if (o[x] < 0 && open[t[x]])
                        o[x] = k, cells[m++] = packed + x;
            }
            else
            {
                for (int32_t x = 0; x < q.w; x++)
                    if (o[x] == k)
                        cells[m++] = packed + x;
            }
        }
    }
    first[r->room_count] = m;
}

/* owner[cell] = the room that owns the open cell, else negative: the first plain
 * room (in array order) whose rect holds it, else the cave its component
 * belongs to (own_caves, with its scratch mask). With caves, counts[room]
 * gets the cells each room owns (cells and first then list only the plain
 * rooms': group_cells lists them all). Returns 1 if there are caves and
 * group_cells is to list the cells (not when the caves lie apart: then
 * own_caves_apart lists them, unless `flood` asks for own_caves). */
static int fill_owners(const dg_grid *g, const dg_result *r, int32_t *owner, int32_t *queue,
                       int32_t *stamp, uint8_t *mask, int32_t *cells, int32_t *first,
                       int32_t *counts, int flood)
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
    if (!flood && caves_apart(g, r))
    {
        own_caves_apart(g, r, open, owner, cells, first);
        return 0;
    }
    for (int32_t k = 0; k < r->room_count; k++)
        counts[k] = first[k + 1] - first[k];
    own_caves(g, r, open, owner, queue, stamp, mask, counts);
    return caves;
}

/* The rooms' cells: the open cells of a room (packed, DGI_PACK) listed at
 * cells[first[k] .. first[k + 1]), and where they fill a rectangle that
 * rect in fill[k] (w 0 where they fill none); with an owner map every
 * room's are listed, without one (list_apart: every room's fill a rect or
 * are none) none are. owner: the owner map, NULL without one. */
typedef struct room_cells {
    int32_t *cells, *first, *area; /* area[k]: the open cells room k owns */
    dg_rect *fill, *clip;          /* clip[k]: room k's rect clipped to the grid */
    const int32_t *owner;
    uint8_t open[256]; /* room_tiles */
} room_cells;

/* 1 if some room is a cave (its cells are not its rect's). */
static int any_cave(const dg_result *r)
{
    for (int32_t k = 0; k < r->room_count; k++)
        if (r->rooms[k].kind == DG_ROOM_CAVE)
            return 1;
    return 0;
}

/* The first `len` (0..8) byte lanes of a word set, in the machine's order. */
static uint64_t first_lanes(int32_t len)
{
    static const uint8_t ramp[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    return dgi_load8(ramp + 8 - len);
}

/* Rect q claimed in `claimed` (a byte per cell, width wide, with 7 bytes
 * to spare after it) eight cells at a time: 0 if a cell was claimed
 * already (two rects meet), else 1. */
static int claim_rect(const dg_grid *g, dg_rect q, uint8_t *claimed)
{
    for (int32_t y = q.y; y < q.y + q.h; y++)
    {
        uint8_t *c = claimed + (size_t)y * (size_t)g->width + q.x;
        for (int32_t x = 0; x < q.w; x += 8)
        {
            uint64_t mask = first_lanes(DG_MIN(q.w - x, 8)), had = dgi_load8(c + x);
            if (had & mask)
                return 0;
            had |= mask;
            memcpy(c + x, &had, sizeof had);
        }
    }
    return 1;
}

/* 1 if row y of rect q is floor only, read eight tiles at a time where the
 * grid has eight bytes left (else 0: the caller reads it cell by cell). */
static int floor_row(const dg_grid *g, dg_rect q, int32_t y)
{
    const uint8_t *t = &DG_CELL(g, q.x, y);
    const uint8_t *end = &DG_CELL(g, 0, 0) + (size_t)g->stride * (size_t)(g->height - 1) + g->width;
    uint64_t differ = 0;
    for (int32_t x = 0; x < q.w; x += 8)
    {
        if (end - (t + x) < 8)
            return 0;
        differ |= (dgi_load8(t + x) ^ DGI_LANES(DG_TILE_FLOOR)) & first_lanes(DG_MIN(q.w - x, 8));
    }
    return differ == 0;
}

/* The open cells of rect q (rooms apart: room k's cells): their count, and
 * the rect they fill into *fill (w 0 if they fill none, as cells_fill_rect
 * says). O(area of q), a row of floor O(1) per 8 cells. */
static int32_t rect_shape(const dg_grid *g, const uint8_t *open, dg_rect q, dg_rect *fill)
{
    int32_t area = 0, fx0 = 0, fx1 = 0, fy0 = -1, fy1 = -1, filled = 1;
    for (int32_t y = q.y; y < q.y + q.h; y++)
    {
        const uint8_t *t = &DG_CELL(g, q.x, y);
        int32_t c = q.w, a = 0, b = q.w - 1;
        if (!floor_row(g, q, y))
        {
            c = 0;
            for (int32_t x = 0; x < q.w; x++)
                c += open[t[x]];
            if (c == 0)
                continue;
            while (!open[t[a]])
                a++;
            while (!open[t[b]])
                b--;
        }
        if (fy0 < 0)
            fy0 = y, fx0 = a, fx1 = b;
        else /* a row of the same span right below the last */
            filled &= (fy1 == y - 1) & (a == fx0) & (b == fx1);
        filled &= c == b - a + 1;
        fy1 = y, area += c;
    }
    dg_rect none = {0, 0, 0, 0}, full = {q.x + fx0, fy0, fx1 - fx0 + 1, fy1 - fy0 + 1};
    *fill = area > 0 && filled ? full : none;
    return area;
}

/* The room that owns cell p (on the grid), else -1. */
static int32_t owner_at(const dg_grid *g, const dg_result *r, const room_cells *rc, dg_point p)
{
    if (rc->owner)
        return rc->owner[p.y * g->width + p.x];
    if (!rc->open[DG_CELL(g, p.x, p.y)])
        return -1;
    for (int32_t k = 0; k < r->room_count; k++)
    {
        dg_rect q = rc->clip[k];
        if (p.x >= q.x && p.y >= q.y && p.x < q.x + q.w && p.y < q.y + q.h)
            return k;
    }
    return -1;
}

/* Each room's cells off the owner map into rc, by room (counts[k] each),
 * rows in order. */
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
static void measure_room(const dg_grid *g, const dg_result *r, const room_cells *rc, int32_t k,
                         int32_t start_room, const int32_t *ds, const uint8_t *route,
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
    for (int32_t i = m - 1, le = m, rank = 0; i >= 0; i--)
    {
        if (i == m - 1 || f[order[i]].distance != f[order[i + 1]].distance)
        {
            le = i == m - 1 ? m : i + 1;
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

/* The room that holds cell p: its owner, else `fallback` (the result's room). */
static int32_t holder(const dg_grid *g, const dg_result *r, const room_cells *rc, dg_point p,
                      int32_t fallback)
{
    int32_t k = p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height ? owner_at(g, r, rc, p) : -1;
    if (k >= 0)
        return k;
    return fallback >= 0 && fallback < r->room_count ? fallback : -1;
}

static void fill_holdings(const dg_grid *g, const dg_result *r, const room_cells *rc,
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

/* Without caves, each room's cells read off its rect, no owner map; 0 if
 * two rects meet (then a cell may have two rooms, and the owner map says
 * which) or a room's cells fill no rect (then they are read cell by cell,
 * against the owner map: attach's and scatter's rounded rooms), found at
 * the first such room. claimed: a zeroed byte per cell and 7 to spare. */
static int list_apart(const dg_grid *g, const dg_result *r, room_cells *rc, uint8_t *claimed)
{
    for (int32_t k = 0; k <= r->room_count; k++)
        rc->first[k] = 0; /* no cells listed */
    for (int32_t k = 0; k < r->room_count; k++)
    {
        rc->area[k] = rect_shape(g, rc->open, rc->clip[k], &rc->fill[k]);
        if ((rc->area[k] > 0 && rc->fill[k].w == 0) || !claim_rect(g, rc->clip[k], claimed))
            return 0;
    }
    rc->owner = NULL;
    return 1;
}

/* Rooms that may share open cells, or caves: the owner map (fill_owners),
 * each room's cells listed, and the rect they fill where they do. queue,
 * marks and counts: fill_owners' scratch; flood: the caves by own_caves. */
static void list_owned(const dg_grid *g, const dg_result *r, room_cells *rc, int32_t *owner,
                       int32_t *queue, uint8_t *marks, int32_t *counts, int flood)
{
    const int32_t w = g->width, n = w * g->height;
    /* without caves the rect scan lists each room's cells in order already;
     * with caves group_cells lists them anew, so the caves' stamps may use
     * the cells plane till then */
    if (fill_owners(g, r, owner, queue, rc->cells, marks, rc->cells, rc->first, counts, flood))
        group_cells(owner, w, n, r->room_count, counts, rc);
    for (int32_t k = 0; k < r->room_count; k++)
    {
        rc->area[k] = rc->first[k + 1] - rc->first[k];
        if (!cells_fill_rect(rc->cells + rc->first[k], rc->area[k], &rc->fill[k]))
            rc->fill[k].w = 0;
    }
    rc->owner = owner;
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
    room_cells rc = {buf + cells, buf + cells * (size_t)planes, NULL, NULL, NULL, NULL, {0}};
    int32_t *order = rc.first + rooms + 1;
    rc.area = order + rooms;
    rc.fill = (dg_rect *)(rc.area + rooms), rc.clip = rc.fill + rooms;
    uint8_t *route = (uint8_t *)(buf + words), *tag = route + n;
    room_tiles(rc.open);
    for (int32_t k = 0; k < rooms; k++)
        rc.clip[k] = clip_rect(g, r->rooms[k].rect);
    memset(route, 0, cells); /* the claims; tag follows, 7 bytes to spare */
    const int by_cells = (asked & DGI_FACTS_BY_CELLS) != 0;
    if (by_cells || any_cave(r) || !list_apart(g, r, &rc, route))
        list_owned(g, r, &rc, owner, queue, route, order, by_cells);
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
    int32_t start_room = owner_at(g, r, &rc, r->start);
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
