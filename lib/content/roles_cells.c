/* Which open cells each room owns (docs/content.md), for the facts dg_roles
 * judges rooms on (roles_facts.c): read off the rooms' rects where they lie
 * apart and their cells fill them, else an owner map, the caves' cells given
 * by their rects or flooded. O(cells + rect areas). */
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

int32_t dgi_room_owner_at(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                          dg_point p)
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
                        const int32_t *counts, dgi_room_cells *rc)
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

/* Without caves, each room's cells read off its rect, no owner map; 0 if
 * two rects meet (then a cell may have two rooms, and the owner map says
 * which) or a room's cells fill no rect (then they are read cell by cell,
 * against the owner map: attach's and scatter's rounded rooms), found at
 * the first such room. claimed: a zeroed byte per cell and 7 to spare. */
static int list_apart(const dg_grid *g, const dg_result *r, dgi_room_cells *rc, uint8_t *claimed)
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
static void list_owned(const dg_grid *g, const dg_result *r, dgi_room_cells *rc, int32_t *owner,
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

void dgi_room_cells_list(const dg_grid *g, const dg_result *r, dgi_room_cells *rc, int32_t *owner,
                         int32_t *queue, uint8_t *marks, int32_t *counts, int by_cells)
{
    room_tiles(rc->open);
    for (int32_t k = 0; k < r->room_count; k++)
        rc->clip[k] = clip_rect(g, r->rooms[k].rect);
    memset(marks, 0, (size_t)g->width * (size_t)g->height); /* the claims, 7 bytes to spare */
    if (by_cells || any_cave(r) || !list_apart(g, r, rc, marks))
        list_owned(g, r, rc, owner, queue, marks, counts, by_cells);
}
