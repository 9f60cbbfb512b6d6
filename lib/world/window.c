/* The infinite world as a registered generator: a window of the world centred
 * on the start room (0, 0), with the structured result every generator gives
 * (rooms, doors, markers, start, exit, metrics), so recipes, exports, the tool
 * and bindings treat it like the others. The world itself stays in world*.c. */
#include "analysis/analysis.h"
#include "world/world.h"

#include <stdlib.h>

typedef struct world_map {
    const dg_world *world;
    int64_t tx, ty;       /* world tile at the grid's (0, 0) */
    int64_t period;
    int64_t rx0, ry0;     /* first cell of the window */
    int32_t cols, rows;   /* cells of the window */
    int32_t edge;         /* 1 when the border is closed: rooms end inside the ring */
    int32_t *index;       /* per cell of the window: its room's index in the result, or -1 */
    dg_world_room *info;  /* per cell of the window */
    dg_point start, exit; /* chosen by the cleanup when the border is closed */
    const dgi_mask *reserved; /* NULL: none */
    uint8_t *doors;       /* with reserved cells: per cell of the window, its door mask
                           * (DGI_WORLD_LEFT_OUT: left out); NULL: the world's */
    int32_t *sums;        /* with reserved cells: their summed-area table */
    int64_t start_x, start_y; /* the start room: (0, 0) unless it is left out */
} world_map;

/* Room (x, y) with the window's door masks (the world's without reserved cells). */
static void window_room(const world_map *m, int64_t x, int64_t y, dg_world_room *info)
{
    int in = m->doors && x >= m->rx0 && y >= m->ry0 && x < m->rx0 + m->cols && y < m->ry0 + m->rows;
    if (in)
        dgi_world_room_with(m->world, x, y, m->doors[(y - m->ry0) * m->cols + (x - m->rx0)] & 15, info);
    else
        dg_world_room_info(m->world, x, y, info);
}

/* Index of room (x, y) in the result, or -1 (outside the window or dropped). */
static int32_t room_index(const world_map *m, int64_t x, int64_t y)
{
    if (x < m->rx0 || y < m->ry0 || x >= m->rx0 + m->cols || y >= m->ry0 + m->rows)
        return -1;
    return m->index[(y - m->ry0) * m->cols + (x - m->rx0)];
}

static dg_ref room_ref(const world_map *m, int64_t x, int64_t y)
{
    dg_ref r = {DG_REF_NONE, -1};
    int32_t i = room_index(m, x, y);
    if (i >= 0)
        r.kind = DG_REF_ROOM, r.index = i;
    return r;
}

/* A room's interior in grid coordinates, clipped to the grid (inside the
 * ring when the border is closed); w or h 0 when nothing is left. */
static dg_rect room_rect(const world_map *m, const dg_grid *g, const dg_world_room *info)
{
    int64_t x0 = info->x * m->period + info->inner_x - m->tx;
    int64_t y0 = info->y * m->period + info->inner_y - m->ty;
    int64_t x1 = DG_MIN(x0 + info->inner_w, (int64_t)g->width - m->edge);
    int64_t y1 = DG_MIN(y0 + info->inner_h, (int64_t)g->height - m->edge);
    x0 = DG_MAX(x0, m->edge);
    y0 = DG_MAX(y0, m->edge);
    dg_rect rect = {(int32_t)x0, (int32_t)y0, (int32_t)DG_MAX(x1 - x0, 0),
                    (int32_t)DG_MAX(y1 - y0, 0)};
    if (rect.w == 0 || rect.h == 0)
        rect.w = rect.h = 0;
    return rect;
}

/* 1 if a room keeps a passable tile in the window (with the border closed,
 * the cleanup has removed every cut-off part, so that tile is reachable). */
static int room_kept(const dg_grid *g, dg_rect r)
{
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
            if (dgi_passable_default[DG_CELL(g, x, y)])
                return 1;
    return 0;
}

/* Every cell's room info and its index in the result (rooms listed row by row). */
static void index_rooms(world_map *m, const dg_grid *g)
{
    int32_t kept = 0;
    for (int32_t j = 0; j < m->rows; j++)
        for (int32_t i = 0; i < m->cols; i++)
        {
            dg_world_room *info = &m->info[j * m->cols + i];
            window_room(m, m->rx0 + i, m->ry0 + j, info);
            dg_rect r = room_rect(m, g, info);
            int left_out = m->doors && (m->doors[j * m->cols + i] & DGI_WORLD_LEFT_OUT);
            int keep = r.w > 0 && !left_out && (!m->edge || room_kept(g, r));
            m->index[j * m->cols + i] = keep ? kept++ : -1;
        }
}

/* A kept room's interior, kind and parent. */
static dg_status add_room(world_map *m, const dg_grid *g, const dg_world_room *info,
                          dg_result *r)
{
    dg_room room;
    room.rect = room_rect(m, g, info);
    room.kind = info->prefab >= 0 ? DG_ROOM_PREFAB : DG_ROOM_NORMAL;
    room.prefab = info->prefab;
    room.orientation = info->orientation;
    int64_t px = info->x + (info->parent == DG_SIDE_E) - (info->parent == DG_SIDE_W);
    int64_t py = info->y + (info->parent == DG_SIDE_S) - (info->parent == DG_SIDE_N);
    room.parent = info->parent ? room_index(m, px, py) : -1;
    room.cells = 0; /* its rect */
    room.shape = info->prefab >= 0 ? DG_SHAPE_PREFAB : DG_SHAPE_RECT;
    return dgi_result_add_room(r, &room);
}

/* Where a room's door on `side` is, in cell tiles: in a full room the middle
 * of its north and west walls only (the east and south ones belong to the
 * neighbours), in a varied room the middle of each of its own walls. */
static int door_offset(const world_map *m, const dg_world_room *info, int32_t side, int32_t *dx,
                       int32_t *dy)
{
    int32_t mid = 1 + m->world->mid; /* the doors' line */
    int full = info->inner_w == m->world->size && info->inner_x == 1 &&
               m->world->params.room_min >= m->world->size;
    if (full && (side == DG_SIDE_E || side == DG_SIDE_S))
        return 0;
    *dx = side == DG_SIDE_W ? info->inner_x - 1 : side == DG_SIDE_E ? info->inner_x + info->inner_w : mid;
    *dy = side == DG_SIDE_N ? info->inner_y - 1 : side == DG_SIDE_S ? info->inner_y + info->inner_h : mid;
    return 1;
}

/* The doors a room owns that are doors in the finished window. */
static dg_status add_doors(world_map *m, const dg_grid *g, const dg_world_room *info,
                           dg_result *r)
{
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
    {
        int32_t dx = 0, dy = 0;
        if (!(info->doors & side) || !door_offset(m, info, side, &dx, &dy))
            continue;
        int64_t x = info->x * m->period + dx - m->tx, y = info->y * m->period + dy - m->ty;
        if (x < 0 || y < 0 || x >= g->width || y >= g->height ||
            DG_CELL(g, x, y) != DG_TILE_DOOR)
            continue;
        dg_door d;
        d.pos.x = (int32_t)x;
        d.pos.y = (int32_t)y;
        d.a = room_ref(m, info->x, info->y);
        d.b = room_ref(m, info->x + (side == DG_SIDE_E) - (side == DG_SIDE_W),
                      info->y + (side == DG_SIDE_S) - (side == DG_SIDE_N));
        dg_status st = dgi_result_add_door(r, &d);
        if (st != DG_OK)
            return st;
    }
    return DG_OK;
}

/* The window's markers (rendered with its tiles, before the cleanup), those
 * of kept rooms inside their rectangles. */
static dg_status add_markers(const world_map *m, const dg_world_marker *list, int32_t count,
                             dg_result *r)
{
    dg_status st = DG_OK;
    for (int32_t i = 0; st == DG_OK && i < count; i++)
    {
        dg_marker mk;
        memset(&mk, 0, sizeof mk); /* number, size, cost and type are 0 for furnishing */
        mk.pos.x = (int32_t)(list[i].x - m->tx);
        mk.pos.y = (int32_t)(list[i].y - m->ty);
        mk.kind = list[i].kind;
        mk.room = room_index(m, list[i].room_x, list[i].room_y);
        memcpy(mk.name, list[i].name, sizeof mk.name);
        mk.name[DG_NAME_MAX - 1] = '\0';
        if (mk.room < 0)
            continue;
        dg_rect q = r->rooms[mk.room].rect;
        if (mk.pos.x >= q.x && mk.pos.y >= q.y && mk.pos.x < q.x + q.w && mk.pos.y < q.y + q.h)
            st = dgi_result_add_marker(r, &mk);
    }
    return st;
}

static dg_status fill_result(world_map *m, const dg_grid *g, const dg_world_marker *markers,
                             int32_t marker_count, dg_result *r, const dg_allocator *a,
                             dg_diag *diag)
{
    dgi_result_reset(r);
    index_rooms(m, g);
    dg_status st = DG_OK;
    for (int32_t k = 0; st == DG_OK && k < m->cols * m->rows; k++)
    {
        if (m->index[k] >= 0)
            st = add_room(m, g, &m->info[k], r);
        if (st == DG_OK)
            st = add_doors(m, g, &m->info[k], r);
    }
    if (st == DG_OK)
        st = add_markers(m, markers, marker_count, r);
    if (st == DG_OK)
        st = dgi_result_finish_at(r, g, m->start, room_index(m, 0, 0), NULL, a);
    if (st == DG_OK && m->edge)
    {
        r->exit = m->exit;
        r->exit_room = dgi_result_room_at(r, m->exit);
    }
    return st == DG_E_NOMEM ? dgi_fail(diag, st, "out of memory filling the result") : st;
}

/* The start: the middle of the start room ((0, 0) unless reserved cells left
 * it out), or when it is furnished the tile
 * inside its north door (furnishings keep the tiles inside doors reachable). */
static dg_point start_tile(const world_map *m)
{
    dg_world_room o;
    window_room(m, m->start_x, m->start_y, &o);
    int32_t mid = 1 + m->world->mid; /* the doors' line */
    int64_t bx = m->start_x * m->period, by = m->start_y * m->period;
    dg_point p;
    p.x = (int32_t)(bx + (o.prefab >= 0 ? mid : o.inner_x + o.inner_w / 2) - m->tx);
    p.y = (int32_t)(by + (o.prefab >= 0 ? o.inner_y : o.inner_y + o.inner_h / 2) - m->ty);
    return p;
}

/* ---- reserved cells ------------------------------------------------------------ */

/* Rooms whose cells would come near reserved cells are left out, doors whose
 * corridors would are shut, and the rooms left are joined again from the
 * start room by doors the world did not open, where they keep clear; rooms
 * that still cannot be reached are left out too. Door masks change the
 * furnishing (and so the shape) of a room, so every change is checked on the
 * room as it then is. */

static const int32_t side_dx[4] = {0, 1, 0, -1}, side_dy[4] = {-1, 0, 1, 0};

static int opposite(int32_t side)
{
    return side == DG_SIDE_N ? DG_SIDE_S : side == DG_SIDE_S ? DG_SIDE_N : side == DG_SIDE_E ? DG_SIDE_W : DG_SIDE_E;
}

/* 1 if no reserved cell lies in rect q (grid coordinates, clipped). */
static int clear_of(const world_map *m, const dg_grid *g, int64_t x, int64_t y, int64_t w, int64_t h)
{
    if (x + w <= 0 || y + h <= 0 || x >= g->width || y >= g->height)
        return 1;
    int64_t x0 = DG_MAX(x, -1), y0 = DG_MAX(y, -1);
    int64_t x1 = DG_MIN(x + w, (int64_t)g->width + 1), y1 = DG_MIN(y + h, (int64_t)g->height + 1);
    dg_rect q = {(int32_t)x0, (int32_t)y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0)};
    return dgi_mask_count(m->sums, g->width, g->height, q) == 0;
}

/* 1 if the room's interior keeps a cell off every reserved cell. */
static int room_clear(const world_map *m, const dg_grid *g, const dg_world_room *r)
{
    int64_t bx = r->x * m->period - m->tx, by = r->y * m->period - m->ty;
    return clear_of(m, g, bx + r->inner_x - 1, by + r->inner_y - 1, r->inner_w + 2, r->inner_h + 2);
}

/* 1 if the room's door on `side` and its corridor to the cell's edge do. */
static int door_clear(const world_map *m, const dg_grid *g, const dg_world_room *r, int32_t side)
{
    int64_t bx = r->x * m->period - m->tx, by = r->y * m->period - m->ty, c = 1 + m->world->mid;
    int64_t last = m->period - 1, e = r->inner_x + r->inner_w, s = r->inner_y + r->inner_h;
    if (side == DG_SIDE_N)
        return clear_of(m, g, bx + c - 1, by - 1, 3, r->inner_y + 1);
    if (side == DG_SIDE_S)
        return clear_of(m, g, bx + c - 1, by + s - 1, 3, DG_MAX(last, s) - s + 3);
    if (side == DG_SIDE_W)
        return clear_of(m, g, bx - 1, by + c - 1, r->inner_x + 1, 3);
    return clear_of(m, g, bx + e - 1, by + c - 1, DG_MAX(last, e) - e + 3, 3);
}

/* 1 if room k with door mask `doors` is clear: interior and every door. */
static int cell_clear(const world_map *m, const dg_grid *g, int32_t k, int32_t doors)
{
    dg_world_room r;
    dgi_world_room_with(m->world, m->rx0 + k % m->cols, m->ry0 + k / m->cols, doors, &r);
    if (!room_clear(m, g, &r))
        return 0;
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
        if ((doors & side) && !door_clear(m, g, &r, side))
            return 0;
    return 1;
}

/* Window cell next to k on side d (0..3), or -1 outside the window. */
static int32_t next_cell(const world_map *m, int32_t k, int d)
{
    int32_t i = k % m->cols + side_dx[d], j = k / m->cols + side_dy[d];
    return i < 0 || j < 0 || i >= m->cols || j >= m->rows ? -1 : j * m->cols + i;
}

/* Leaves room k out: no doors, and none toward it. */
static void leave_out(world_map *m, int32_t k)
{
    for (int d = 0; d < 4; d++)
    {
        int32_t n = next_cell(m, k, d);
        if (n >= 0 && !(m->doors[n] & DGI_WORLD_LEFT_OUT))
            m->doors[n] &= (uint8_t)~opposite(DG_SIDE_N << d);
    }
    m->doors[k] = DGI_WORLD_LEFT_OUT;
}

/* Shuts the doors that are not clear and leaves out the rooms that are not,
 * until nothing changes (a room's shape follows its doors). */
static void shut_unclear(world_map *m, const dg_grid *g)
{
    for (int changed = 1; changed;)
    {
        changed = 0;
        for (int32_t k = 0; k < m->cols * m->rows; k++)
        {
            if ((m->doors[k] & DGI_WORLD_LEFT_OUT) || cell_clear(m, g, k, m->doors[k]))
                continue;
            dg_world_room r;
            dgi_world_room_with(m->world, m->rx0 + k % m->cols, m->ry0 + k / m->cols, m->doors[k], &r);
            if (!room_clear(m, g, &r))
                leave_out(m, k);
            for (int d = 0; d < 4 && !(m->doors[k] & DGI_WORLD_LEFT_OUT); d++)
            {
                int32_t side = DG_SIDE_N << d, n = next_cell(m, k, d);
                if (!(m->doors[k] & side) || door_clear(m, g, &r, side))
                    continue;
                m->doors[k] &= (uint8_t)~side;
                if (n >= 0 && !(m->doors[n] & DGI_WORLD_LEFT_OUT))
                    m->doors[n] &= (uint8_t)~opposite(side);
            }
            changed = 1;
        }
    }
}

/* Opens the door between rooms k and n (side d of k) if both stay clear. */
static int open_door(world_map *m, const dg_grid *g, int32_t k, int32_t n, int d)
{
    int32_t side = DG_SIDE_N << d;
    int32_t a = m->doors[k] | side, b = m->doors[n] | opposite(side);
    if (!cell_clear(m, g, k, a) || !cell_clear(m, g, n, b))
        return 0;
    m->doors[k] = (uint8_t)a;
    m->doors[n] = (uint8_t)b;
    return 1;
}

/* The start room: (0, 0), or if it is left out the kept room nearest to it
 * (first in row order); 0 if every room is left out. */
static int pick_start_room(world_map *m, int32_t *start)
{
    int64_t best = -1;
    for (int32_t k = 0; k < m->cols * m->rows; k++)
    {
        int64_t x = m->rx0 + k % m->cols, y = m->ry0 + k / m->cols;
        int64_t d = (x < 0 ? -x : x) + (y < 0 ? -y : y);
        if (!(m->doors[k] & DGI_WORLD_LEFT_OUT) && (best < 0 || d < best))
        {
            best = d;
            *start = k;
        }
    }
    if (best >= 0)
    {
        m->start_x = m->rx0 + *start % m->cols;
        m->start_y = m->ry0 + *start / m->cols;
    }
    return best >= 0;
}

/* Walks the rooms from the start through their doors; when it runs dry, a
 * door the world did not open joins the next room it can (in the order the
 * walk met them); the rooms never reached are left out. queue: 5 per room. */
static void rejoin(world_map *m, const dg_grid *g, int32_t start, int32_t *queue)
{
    int32_t rooms = m->cols * m->rows, head = 0, tail = 0, later_head = 0, later_tail = 0;
    int32_t *later = queue + rooms; /* (room, side) pairs */
    uint8_t *seen = (uint8_t *)(later + 4 * rooms); /* rooms bytes past the pairs */
    memset(seen, 0, (size_t)rooms);
    seen[start] = 1;
    queue[tail++] = start;
    while (head < tail || later_head < later_tail)
    {
        if (head == tail)
        {
            int32_t k = later[later_head] >> 2, d = later[later_head] & 3;
            int32_t n = next_cell(m, k, d);
            later_head++;
            if (!seen[n] && open_door(m, g, k, n, d))
                seen[n] = 1, queue[tail++] = n;
            continue;
        }
        int32_t k = queue[head++];
        for (int d = 0; d < 4; d++)
        {
            int32_t n = next_cell(m, k, d);
            if (n < 0 || seen[n] || (m->doors[n] & DGI_WORLD_LEFT_OUT))
                continue;
            if (m->doors[k] & (DG_SIDE_N << d))
                seen[n] = 1, queue[tail++] = n;
            else
                later[later_tail++] = k << 2 | d;
        }
    }
    for (int32_t k = 0; k < rooms; k++)
        if (!seen[k] && !(m->doors[k] & DGI_WORLD_LEFT_OUT))
            leave_out(m, k);
}

/* The window's door masks around the reserved cells; DG_E_NOSPACE if no room is left. */
static dg_status plan_doors(world_map *m, const dg_grid *g, int32_t *queue, dg_diag *diag)
{
    for (int32_t k = 0; k < m->cols * m->rows; k++)
        m->doors[k] = (uint8_t)dgi_world_doors(m->world, m->rx0 + k % m->cols, m->ry0 + k / m->cols);
    shut_unclear(m, g);
    int32_t start = 0;
    if (!pick_start_room(m, &start))
        return dgi_fail(diag, DG_E_NOSPACE, "world: every room of the %dx%d window comes within a "
                        "cell of a reserved cell", (int)g->width, (int)g->height);
    rejoin(m, g, start, queue);
    m->start = start_tile(m);
    return DG_OK;
}

/* 1 if (x, y) is a floor cell the start may take: inside the ring, which a
 * closed border walls. */
static int start_ok(const dg_grid *g, int32_t x, int32_t y)
{
    return x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1 &&
           DG_CELL(g, x, y) == DG_TILE_FLOOR;
}

/* After drawing: reserved cells are rock in the scratch, and the start is an
 * open cell of its room (a furnishing may cover the usual one, and a room cut
 * by the window's edge may show none: then the floor cell nearest to it).
 * DG_E_NOSPACE if the window holds no floor off its ring at all. */
static dg_status settle_start(world_map *m, dg_grid *scratch, dg_diag *diag)
{
    for (int32_t y = 0; y < scratch->height; y++)
        for (int32_t x = 0; x < scratch->width; x++)
            if (dgi_mask_at(m->reserved, x, y))
                DG_CELL(scratch, x, y) = DG_TILE_VOID;
    dg_point p = m->start;
    if (start_ok(scratch, p.x, p.y))
        return DG_OK;
    dg_world_room o;
    window_room(m, m->start_x, m->start_y, &o);
    dg_rect r = room_rect(m, scratch, &o);
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
            if (start_ok(scratch, x, y))
            {
                m->start.x = x;
                m->start.y = y;
                return DG_OK;
            }
    int64_t best = -1;
    for (int32_t y = 0; y < scratch->height; y++)
        for (int32_t x = 0; x < scratch->width; x++)
        {
            int64_t d = llabs((int64_t)x - p.x) + llabs((int64_t)y - p.y);
            if (start_ok(scratch, x, y) && (best < 0 || d < best))
            {
                best = d;
                m->start.x = x;
                m->start.y = y;
            }
        }
    return best >= 0 ? DG_OK
                     : dgi_fail(diag, DG_E_NOSPACE, "world: the reserved cells leave no room floor in the window");
}

/* ---- closing the border ------------------------------------------------------ */

/* The window is cut out of an endless world: rooms and corridors run off its
 * edges. With the border closed, the ring becomes wall, corridors left
 * leading into it are taken back to their doors, those doors become wall,
 * whatever the start no longer reaches is removed, and walls left with
 * nothing open around them go back to rock. */
typedef struct cleanup {
    uint8_t *cells;
    int32_t w, h;
    uint8_t *flag;   /* trim: 1 queued; walk: 1 open and not reached yet, 3 removed */
    int32_t *queue;  /* w * h cells */
} cleanup;

static int on_ring(const cleanup *c, int32_t i)
{
    int32_t x = i % c->w, y = i / c->w;
    return x == 0 || y == 0 || x == c->w - 1 || y == c->h - 1;
}

/* Calls visit on every ring cell. */
static void for_ring(cleanup *c, void (*visit)(cleanup *c, int32_t i))
{
    int32_t w = c->w, h = c->h;
    for (int32_t x = 0; x < w; x++)
    {
        visit(c, x);
        visit(c, (h - 1) * w + x);
    }
    for (int32_t y = 1; y < h - 1; y++)
    {
        visit(c, y * w);
        visit(c, y * w + w - 1);
    }
}

static void wall_up(cleanup *c, int32_t i)
{
    if (dgi_passable_default[c->cells[i]])
        c->cells[i] = DG_TILE_WALL;
}

/* A wall at (x, y) with no open cell among its eight neighbours becomes rock. */
static void drop_if_bare(cleanup *c, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h || c->cells[y * c->w + x] != DG_TILE_WALL)
        return;
    for (int32_t qy = DG_MAX(y - 1, 0); qy <= DG_MIN(y + 1, c->h - 1); qy++)
        for (int32_t qx = DG_MAX(x - 1, 0); qx <= DG_MIN(x + 1, c->w - 1); qx++)
            if (dgi_passable_default[c->cells[qy * c->w + qx]])
                return;
    c->cells[y * c->w + x] = DG_TILE_VOID;
}

/* The walls around cell i (itself included) left bare. */
static void drop_bare_walls(cleanup *c, int32_t i)
{
    int32_t x = i % c->w, y = i / c->w;
    for (int32_t k = 0; k < 9; k++)
        drop_if_bare(c, x + k % 3 - 1, y + k / 3 - 1);
}

/* Walls of rooms beyond the edge: a ring wall and the cell inside it. */
static void drop_ring_wall(cleanup *c, int32_t i)
{
    int32_t x = i % c->w, y = i / c->w;
    if (c->cells[i] != DG_TILE_WALL)
        return;
    drop_if_bare(c, x, y);
    drop_if_bare(c, x + (x == 0) - (x == c->w - 1), y + (y == 0) - (y == c->h - 1));
}

/* What cell i (off the ring) becomes: a corridor with at most one open
 * neighbour is rock, a door without open cells on two opposite sides is
 * wall; anything else stays. */
static uint8_t trimmed(const cleanup *c, int32_t i)
{
    const uint8_t *p = dgi_passable_default, *t0 = c->cells;
    uint8_t t = c->cells[i];
    int n = p[t0[i - c->w]], s = p[t0[i + c->w]], e = p[t0[i + 1]], w = p[t0[i - 1]];
    if (t == DG_TILE_CORRIDOR && n + s + e + w <= 1)
        return DG_TILE_VOID;
    if (t == DG_TILE_DOOR && !(n && s) && !(e && w))
        return DG_TILE_WALL;
    return t;
}

static void push_trim(cleanup *c, int32_t *top, int32_t i)
{
    uint8_t t = c->cells[i];
    if ((t == DG_TILE_CORRIDOR || t == DG_TILE_DOOR) && !c->flag[i] && !on_ring(c, i))
    {
        c->flag[i] = 1;
        c->queue[(*top)++] = i;
    }
}

/* Queues the cells next to the ring for the trim. */
static void push_inner_ring(cleanup *c, int32_t *top)
{
    int32_t w = c->w, h = c->h;
    for (int32_t x = 1; x < w - 1; x++)
    {
        push_trim(c, top, w + x);
        push_trim(c, top, (h - 2) * w + x);
    }
    for (int32_t y = 1; y < h - 1; y++)
    {
        push_trim(c, top, y * w + 1);
        push_trim(c, top, y * w + w - 2);
    }
}

/* A room the border leaves less than two tiles across would pass for a
 * corridor: its interior becomes rock, and the trim takes back what led to it. */
static void drop_sliver(const world_map *m, cleanup *c, const dg_grid *g, int64_t x, int64_t y,
                        int32_t *top)
{
    dg_world_room info;
    window_room(m, x, y, &info);
    dg_rect r = room_rect(m, g, &info);
    if (r.w == 0 || (r.w >= 2 && r.h >= 2) || (x == m->start_x && y == m->start_y))
        return;
    for (int32_t ry = r.y; ry < r.y + r.h; ry++)
        memset(c->cells + (size_t)ry * (size_t)c->w + (size_t)r.x, DG_TILE_VOID, (size_t)r.w);
    for (int32_t ry = r.y; ry < r.y + r.h; ry++)
        for (int32_t rx = r.x; rx < r.x + r.w; rx++)
        {
            int32_t i = ry * c->w + rx;
            drop_bare_walls(c, i);
            const int32_t next[4] = {i - c->w, i + 1, i + c->w, i - 1};
            for (int k = 0; k < 4; k++)
                push_trim(c, top, next[k]);
        }
}

/* Slivers can only be in the window's outer rows and columns of cells. */
static void drop_slivers(const world_map *m, cleanup *c, const dg_grid *g, int32_t *top)
{
    for (int32_t j = 0; j < m->rows; j++)
    {
        int32_t step = j == 0 || j == m->rows - 1 ? 1 : DG_MAX(m->cols - 1, 1);
        for (int32_t i = 0; i < m->cols; i += step)
            drop_sliver(m, c, g, m->rx0 + i, m->ry0 + j, top);
    }
}

/* Trims the queued cells and whatever their change affects; each cell is
 * queued at most once at a time, so the stack never holds more than w * h. */
static void trim_dead_ends(cleanup *c, int32_t top)
{
    int32_t w = c->w;
    while (top > 0)
    {
        int32_t i = c->queue[--top];
        c->flag[i] = 0;
        uint8_t t = trimmed(c, i);
        if (t == c->cells[i])
            continue;
        c->cells[i] = t;
        drop_bare_walls(c, i);
        const int32_t next[4] = {i - w, i + 1, i + w, i - 1};
        for (int k = 0; k < 4; k++)
            push_trim(c, &top, next[k]);
    }
}

/* Flags every open cell 1; returns how many there are. */
static int32_t flag_open(cleanup *c)
{
    int32_t n = c->w * c->h, open = 0;
    for (int32_t i = 0; i < n; i++)
    {
        c->flag[i] = dgi_passable_default[c->cells[i]];
        open += c->flag[i];
    }
    return open;
}

/* Breadth-first from the start (off the ring, which is closed by now, so no
 * step leaves the grid), clearing the flags of the cells it reaches; returns
 * how many. *exit gets the last floor cell reached, a farthest room cell. */
static int32_t reach(cleanup *c, int32_t start, int32_t *exit)
{
    int32_t head = 0, tail = 0, w = c->w, last = start;
    uint8_t *open = c->flag;
    c->queue[tail++] = start;
    open[start] = 0;
    while (head < tail)
    {
        int32_t i = c->queue[head++];
        last = c->cells[i] == DG_TILE_FLOOR ? i : last;
        uint8_t n = open[i - w], e = open[i + 1], s = open[i + w], west = open[i - 1];
        open[i - w] = open[i + 1] = open[i + w] = open[i - 1] = 0; /* branch-free steps */
        c->queue[tail] = i - w;
        tail += n;
        c->queue[tail] = i + 1;
        tail += e;
        c->queue[tail] = i + w;
        tail += s;
        c->queue[tail] = i - 1;
        tail += west;
    }
    *exit = last;
    return tail;
}

/* Open cells the start did not reach become rock, then their bare walls. */
static void remove_unreached(cleanup *c)
{
    int32_t n = c->w * c->h;
    for (uint8_t *f = memchr(c->flag, 1, (size_t)n); f; f = memchr(f, 1, (size_t)(c->flag + n - f)))
    {
        c->cells[f - c->flag] = DG_TILE_VOID;
        *f = 3;
    }
    for (uint8_t *f = memchr(c->flag, 3, (size_t)n); f; f = memchr(f + 1, 3, (size_t)(c->flag + n - f - 1)))
        drop_bare_walls(c, (int32_t)(f - c->flag));
}

/* 1 if tile i lies in a room the window shows whole: every cell off the
 * window's outer row and column of cells, else one whose interior the ring
 * does not cut (*last caches the last room asked about). */
static int in_whole_room(const world_map *m, const dg_grid *g, int32_t i, int64_t *last)
{
    int64_t rx = dgi_floor_div(i % g->width + m->tx, m->period);
    int64_t ry = dgi_floor_div(i / g->width + m->ty, m->period);
    if (rx > m->rx0 && ry > m->ry0 && rx < m->rx0 + m->cols - 1 && ry < m->ry0 + m->rows - 1)
        return 1;
    if (last[0] == rx && last[1] == ry)
        return (int)last[2];
    dg_world_room info;
    window_room(m, rx, ry, &info);
    int64_t x0 = rx * m->period + info.inner_x - m->tx, y0 = ry * m->period + info.inner_y - m->ty;
    last[0] = rx;
    last[1] = ry;
    last[2] = x0 >= 1 && y0 >= 1 && x0 + info.inner_w <= g->width - 1 &&
              y0 + info.inner_h <= g->height - 1;
    return (int)last[2];
}

/* The last room floor cell of a walk's order queue[0..n) in a whole room
 * among the farthest tenth of the walk (else the last floor cell, else
 * `otherwise`): a farthest one, as the contract wants the exit. */
static int32_t farthest_whole(const world_map *m, const cleanup *c, int32_t n, int32_t otherwise)
{
    const dg_grid g = {c->cells, c->w, c->h, c->w};
    int64_t last[3] = {INT64_MIN, INT64_MIN, 0};
    int32_t floor = -1;
    for (int32_t k = n - 1; k >= 0 && k >= n - 1 - n / 10; k--)
    {
        int32_t i = c->queue[k];
        if (c->cells[i] != DG_TILE_FLOOR)
            continue;
        floor = floor < 0 ? i : floor;
        if (in_whole_room(m, &g, i, last))
            return i;
    }
    for (int32_t k = n - 1; k >= 0 && floor < 0; k--)
        floor = c->cells[c->queue[k]] == DG_TILE_FLOOR ? c->queue[k] : -1;
    return floor >= 0 ? floor : otherwise;
}

/* Start and exit at the two ends of the longest walk two sweeps find: the
 * room cell farthest from the first walk's root, and the one farthest from
 * that, each in a room the window shows whole where there is one. */
static void far_ends(world_map *m, cleanup *c, int32_t root, int32_t reached)
{
    int32_t a = farthest_whole(m, c, reached, root), e = a;
    flag_open(c);
    int32_t n = reach(c, a, &e);
    int32_t b = farthest_whole(m, c, n, e);
    m->start.x = a % c->w;
    m->start.y = a / c->w;
    m->exit.x = b % c->w;
    m->exit.y = b / c->w;
}

static void close_border(world_map *m, dg_grid *g, uint8_t *flag, int32_t *queue, int ends)
{
    cleanup c = {g->cells, g->width, g->height, flag, queue};
    memset(flag, 0, (size_t)g->width * (size_t)g->height);
    for_ring(&c, wall_up);
    int32_t top = 0;
    push_inner_ring(&c, &top);
    drop_slivers(m, &c, g, &top);
    trim_dead_ends(&c, top);
    int32_t s = m->start.y * g->width + m->start.x, e = s;
    int32_t open = flag_open(&c), reached = reach(&c, s, &e);
    if (reached < open)
        remove_unreached(&c);
    for_ring(&c, drop_ring_wall);
    m->exit.x = e % g->width;
    m->exit.y = e / g->width;
    if (ends)
        far_ends(m, &c, s, reached);
}

/* Renders the window into a scratch grid (with its markers), closes its
 * border if asked and fills a fresh result, so that an error (out of memory
 * included) leaves the caller's grid and result as they were. */
static dg_status render_window(world_map *m, dg_grid *scratch, dg_result *fresh,
                               const dg_allocator *a, dg_diag *diag)
{
    int32_t count = 0;
    dg_world_marker *list = NULL;
    size_t n = (size_t)scratch->width * (size_t)scratch->height;
    int want = fresh && m->world->marker_total > 0;
    dgi_world_override over = {m->rx0, m->ry0, m->cols, m->rows, m->doors};
    const dgi_world_override *o = m->doors ? &over : NULL;
    dg_status st = dgi_world_render(m->world, m->tx, m->ty, scratch, o, NULL, 0, want ? &count : NULL, diag);
    if (st == DG_OK && count > 0)
    {
        list = dgi_alloc(a, (size_t)count * sizeof *list);
        st = list ? dgi_world_render(m->world, m->tx, m->ty, scratch, o, list, count, &count, diag)
                  : dgi_fail(diag, DG_E_NOMEM, "no memory for %d markers", (int)count);
    }
    if (st == DG_OK && m->reserved)
        st = settle_start(m, scratch, diag);
    uint8_t *flag = m->edge && st == DG_OK ? dgi_alloc(a, n) : NULL;
    int32_t *queue = flag ? dgi_alloc(a, n * sizeof *queue) : NULL;
    if (m->edge && st == DG_OK && !queue)
        st = dgi_fail(diag, DG_E_NOMEM, "no memory to close the window's border");
    if (st == DG_OK && m->edge)
        close_border(m, scratch, flag, queue, fresh != NULL);
    dgi_free(a, queue, queue ? n * sizeof *queue : 0);
    dgi_free(a, flag, flag ? n : 0);
    if (st == DG_OK && fresh)
        st = fill_result(m, scratch, list, count, fresh, a, diag);
    dgi_free(a, list, (size_t)count * sizeof *list);
    return st;
}

/* Copies a packed width x height buffer into the caller's grid (which has a
 * stride), leaving its reserved cells as they are. */
static void copy_cells(dg_grid *to, const uint8_t *from, const dgi_mask *reserved)
{
    for (int32_t y = 0; y < to->height; y++)
    {
        const uint8_t *row = from + (size_t)y * (size_t)to->width;
        if (!reserved)
            memcpy(&DG_CELL(to, 0, y), row, (size_t)to->width);
        else
            for (int32_t x = 0; x < to->width; x++)
                if (!dgi_mask_at(reserved, x, y))
                    DG_CELL(to, x, y) = row[x];
    }
}

/* Places the window (centred on the middle of room (0, 0)) and its cells. */
static dg_status place_window(world_map *m, const dg_world *world, const dg_grid *grid,
                              dg_diag *diag)
{
    memset(m, 0, sizeof *m);
    m->world = world;
    m->period = dg_world_period(world);
    m->edge = world->params.border;
    if (m->edge && (grid->width < m->period + 2 || grid->height < m->period + 2))
        return dgi_fail(diag, DG_E_NOSPACE,
                        "world: a %dx%d window is too small for the start room; with border 1 "
                        "it needs at least %dx%d (period + 2)",
                        (int)grid->width, (int)grid->height, (int)m->period + 2,
                        (int)m->period + 2);
    int64_t centre = m->period / 2; /* middle of room (0, 0): its doors' line */
    m->tx = centre - grid->width / 2;
    m->ty = centre - grid->height / 2;
    int64_t x1 = 0, y1 = 0;
    dg_world_room_of_tile(world, m->tx, m->ty, &m->rx0, &m->ry0);
    dg_world_room_of_tile(world, m->tx + grid->width - 1, m->ty + grid->height - 1, &x1, &y1);
    m->cols = (int32_t)(x1 - m->rx0 + 1);
    m->rows = (int32_t)(y1 - m->ry0 + 1);
    m->start = start_tile(m);
    return DG_OK;
}

/* With reserved cells: their sums and the window's door masks. */
static dg_status plan_window(world_map *m, const dg_grid *grid, const dg_allocator *a,
                             dg_diag *diag)
{
    size_t rooms = (size_t)m->cols * (size_t)m->rows;
    size_t sums = ((size_t)grid->width + 1) * ((size_t)grid->height + 1) * sizeof *m->sums;
    size_t queue_n = rooms * 5 * sizeof(int32_t) + rooms;
    m->doors = dgi_alloc(a, rooms);
    m->sums = dgi_alloc(a, sums);
    int32_t *queue = dgi_alloc(a, queue_n);
    dg_status st = DG_OK;
    if (!m->doors || !m->sums || !queue)
        st = dgi_fail(diag, DG_E_NOMEM, "world: no memory for the window's reserved cells");
    if (st == DG_OK)
    {
        dgi_mask_sums(m->reserved, grid->width, grid->height, m->sums);
        st = plan_doors(m, grid, queue, diag);
    }
    dgi_free(a, queue, queue ? queue_n : 0);
    dgi_free(a, m->sums, m->sums ? sums : 0);
    m->sums = NULL;
    return st;
}

static dg_status run_window(world_map *m, dg_grid *grid, dg_result *result,
                            const dg_allocator *a, dg_diag *diag)
{
    size_t cells = (size_t)grid->width * (size_t)grid->height;
    size_t rooms = (size_t)m->cols * (size_t)m->rows;
    uint8_t *buf = dgi_alloc(a, cells);
    m->index = result ? dgi_alloc(a, rooms * sizeof *m->index) : NULL;
    m->info = result ? dgi_alloc(a, rooms * sizeof *m->info) : NULL;
    if (!buf || (result && (!m->index || !m->info)))
    {
        dgi_free(a, m->info, m->info ? rooms * sizeof *m->info : 0);
        dgi_free(a, m->index, m->index ? rooms * sizeof *m->index : 0);
        dgi_free(a, buf, buf ? cells : 0);
        return dgi_fail(diag, DG_E_NOMEM, "world: no memory for a %dx%d window",
                        (int)grid->width, (int)grid->height);
    }
    dg_grid scratch;
    dg_result fresh;
    if (result)
        dg_result_init(&fresh, result->allocator.alloc ? &result->allocator : NULL);
    dg_status st = dg_grid_init(&scratch, buf, grid->width, grid->height, 0);
    if (st == DG_OK)
        st = render_window(m, &scratch, result ? &fresh : NULL, a, diag);
    if (st == DG_OK)
        copy_cells(grid, buf, m->reserved);
    if (result && st == DG_OK)
    {
        dg_result_free(result);
        *result = fresh;
    }
    else if (result)
        dg_result_free(&fresh);
    dgi_free(a, m->info, m->info ? rooms * sizeof *m->info : 0);
    dgi_free(a, m->index, m->index ? rooms * sizeof *m->index : 0);
    dgi_free(a, buf, cells);
    return st;
}

dg_status dgi_world_generate(dg_grid *grid, const dg_world_params *params, uint64_t seed,
                             const dg_prefab_set *prefabs, const dgi_mask *reserved,
                             dg_result *result, const dg_allocator *a, dg_diag *diag)
{
    dg_status st;
    dg_world_params p = *params;
    if (prefabs)
        p.furnishing = prefabs;
    dg_world *world = NULL;
    st = dg_world_create(&p, seed, a, &world, diag);
    if (st != DG_OK)
        return st;
    world_map m;
    st = place_window(&m, world, grid, diag);
    m.reserved = reserved;
    if (st == DG_OK && reserved)
        st = plan_window(&m, grid, a, diag);
    if (st == DG_OK)
        st = run_window(&m, grid, result, a, diag);
    dgi_free(a, m.doors, m.doors ? (size_t)m.cols * (size_t)m.rows : 0);
    dg_world_free(world);
    return st;
}
