/* The facts dg_roles judges rooms on (docs/content.md): which open cells each
 * room owns, its walking distance and rank from the start, whether it lies on
 * a shortest start-exit walk or behind a locked or secret door, its area and
 * its entrances. A few breadth-first searches and one pass over the rooms'
 * rects: O(cells + rect areas). */
#include "content/content.h"

/* An open cell a room can own: passable, neither a door nor a corridor. */
static int room_tile(uint8_t t)
{
    return dg_tile_passable(t) && t != DG_TILE_DOOR && t != DG_TILE_DOOR_LOCKED &&
           t != DG_TILE_DOOR_SECRET && t != DG_TILE_CORRIDOR;
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

/* A cell of a component no cave rect holds whole (tunnels of floor join
 * caves): the smallest (then first) cave rect that holds the cell, else -1. */
static int32_t cave_for_cell(const dg_result *r, int32_t x, int32_t y)
{
    dg_rect b = {x, y, 1, 1};
    return cave_for(r, b);
}

/* Open cells no plain room owns, 4-connected components of them, each to its
 * cave (cell by cell when no cave holds the whole component). */
static void own_caves(const dg_grid *g, const dg_result *r, int32_t *owner, int32_t *queue)
{
    static const int8_t dx4[4] = {0, 1, 0, -1}, dy4[4] = {-1, 0, 1, 0};
    const int32_t w = g->width, h = g->height;
    for (int32_t c0 = 0; c0 < w * h; c0++)
    {
        if (owner[c0] != -1 || !room_tile(DG_CELL(g, c0 % w, c0 / w)))
            continue;
        int32_t head = 0, tail = 0, x0 = c0 % w, y0 = c0 / w, x1 = x0, y1 = y0;
        owner[c0] = -2; /* seen */
        queue[tail++] = c0;
        while (head < tail)
        {
            int32_t c = queue[head++], x = c % w, y = c / w;
            x0 = DG_MIN(x0, x), x1 = DG_MAX(x1, x), y0 = DG_MIN(y0, y), y1 = DG_MAX(y1, y);
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx4[d], ny = y + dy4[d];
                if (nx >= 0 && ny >= 0 && nx < w && ny < h && owner[ny * w + nx] == -1 &&
                    room_tile(DG_CELL(g, nx, ny)))
                {
                    owner[ny * w + nx] = -2;
                    queue[tail++] = ny * w + nx;
                }
            }
        }
        dg_rect b = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
        int32_t k = cave_for(r, b);
        for (int32_t i = 0; i < tail; i++)
        {
            int32_t c = queue[i], own = k >= 0 ? k : cave_for_cell(r, c % w, c / w);
            owner[c] = own < 0 ? -3 : own;
        }
    }
    for (int32_t c = 0; c < w * h; c++)
        owner[c] = owner[c] < 0 ? -1 : owner[c];
}

/* owner[cell] = the room that owns the open cell, else -1: the first plain
 * room (in array order) whose rect holds it, else the cave its component
 * belongs to (own_caves). */
static void fill_owners(const dg_grid *g, const dg_result *r, int32_t *owner, int32_t *queue)
{
    const int32_t n = g->width * g->height;
    int caves = 0;
    for (int32_t i = 0; i < n; i++)
        owner[i] = -1;
    for (int32_t k = 0; k < r->room_count; k++)
    {
        if (r->rooms[k].kind == DG_ROOM_CAVE)
        {
            caves = 1;
            continue;
        }
        dg_rect q = clip_rect(g, r->rooms[k].rect);
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
            {
                int32_t c = y * g->width + x;
                if (owner[c] < 0 && room_tile(DG_CELL(g, x, y)))
                    owner[c] = k;
            }
    }
    if (caves)
        own_caves(g, r, owner, queue);
}

/* Breadth-first distances from p over the tiles of pass (p must be open under it). */
static void walk_from(const dg_grid *g, const uint8_t *pass, dg_point p, int32_t *dist,
                      int32_t *queue)
{
    dgi_move w;
    dgi_move_basic(&w, g, pass);
    if (!pass[DG_CELL(g, p.x, p.y)])
    {
        for (int32_t i = 0; i < g->width * g->height; i++)
            dist[i] = -1;
        return;
    }
    dgi_bfs_move(&w, &p, 1, 0, dist, queue, NULL);
}

/* Sets `flag` on every reachable room none of whose cells dist reaches. */
static void mark_unreached(const dg_grid *g, const int32_t *owner, const int32_t *dist,
                           dgi_room_facts *f, int32_t rooms, int32_t flag)
{
    for (int32_t k = 0; k < rooms; k++)
        if (f[k].flags & DGI_RF_REACHABLE)
            f[k].flags |= flag;
    for (int32_t i = 0; i < g->width * g->height; i++)
        if (owner[i] >= 0 && dist[i] >= 0)
            f[owner[i]].flags &= ~flag;
}

/* Walks with some doors shut: `shut` lists the door tiles read as wall. */
static void gate_pass(const dg_grid *g, const dg_result *r, const int32_t *owner,
                      int32_t *dist, int32_t *queue, dgi_room_facts *f, int lock, int secret,
                      int32_t flag)
{
    uint8_t pass[256];
    memcpy(pass, dgi_passable_default, sizeof pass);
    if (lock)
        pass[DG_TILE_DOOR_LOCKED] = 0;
    if (secret)
        pass[DG_TILE_DOOR_SECRET] = 0;
    walk_from(g, pass, r->start, dist, queue);
    mark_unreached(g, owner, dist, f, r->room_count, flag);
}

/* The distinct openings of room k: open cells outside it, 4-next to one of
 * its cells, grouped 8-connected. tag holds k + 1 on openings found (each
 * cell is an opening of a room at most once per room: tags are reset by room). */
static int32_t count_entrances(const dg_grid *g, const int32_t *owner, int32_t k, dg_rect q,
                               int32_t *tag, int32_t *list)
{
    static const int8_t dx4[4] = {0, 1, 0, -1}, dy4[4] = {-1, 0, 1, 0};
    const int32_t w = g->width, h = g->height;
    int32_t n = 0;
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x++)
        {
            if (owner[y * w + x] != k)
                continue;
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx4[d], ny = y + dy4[d];
                if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                    continue;
                int32_t c = ny * w + nx;
                if (owner[c] != k && tag[c] != k + 1 && dg_tile_passable(DG_CELL(g, nx, ny)))
                {
                    tag[c] = k + 1;
                    list[n++] = c;
                }
            }
        }
    /* components: a flood over the tagged cells, retagging them -(k + 1) */
    int32_t groups = 0;
    for (int32_t i = 0; i < n; i++)
    {
        if (tag[list[i]] != k + 1)
            continue;
        groups++;
        int32_t top = 0;
        int32_t *stack = list + n; /* the list's second half holds the flood */
        stack[top++] = list[i];
        tag[list[i]] = -(k + 1);
        while (top > 0)
        {
            int32_t c = stack[--top], cx = c % w, cy = c / w;
            for (int32_t ny = DG_MAX(cy - 1, 0); ny <= DG_MIN(cy + 1, h - 1); ny++)
                for (int32_t nx = DG_MAX(cx - 1, 0); nx <= DG_MIN(cx + 1, w - 1); nx++)
                    if (tag[ny * w + nx] == k + 1)
                    {
                        tag[ny * w + nx] = -(k + 1);
                        stack[top++] = ny * w + nx;
                    }
        }
    }
    return groups;
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

/* Distance, route and holdings of every room from the two walks. */
static void fill_walks(const dg_grid *g, const dg_result *r, const int32_t *owner,
                       const int32_t *ds, const int32_t *de, dgi_room_facts *f)
{
    const int32_t w = g->width, n = w * g->height;
    int exit_ok = r->exit.x >= 0 && r->exit.y >= 0 && r->exit.x < w && r->exit.y < g->height &&
                  ds[r->exit.y * w + r->exit.x] >= 0;
    int32_t route = exit_ok ? ds[r->exit.y * w + r->exit.x] : -1;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t k = owner[i];
        if (k < 0)
            continue;
        f[k].area++;
        if (ds[i] < 0)
            continue;
        if (f[k].distance < 0 || ds[i] < f[k].distance)
            f[k].distance = ds[i];
        f[k].flags |= DGI_RF_REACHABLE;
        if (exit_ok && de[i] >= 0 && ds[i] + de[i] == route)
            f[k].flags |= DGI_RF_ROUTE;
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

dg_status dgi_room_facts_fill(const dg_grid *g, const dg_result *r, dgi_room_facts *f,
                              int32_t *reachable, const dg_allocator *a)
{
    const int32_t w = g->width, n = w * g->height;
    /* owner, start walk, exit walk (later: gate walks, tags), queue and one more
     * (later: an opening list and its flood stack), the rank order */
    size_t cells = (size_t)n * 5 + (size_t)r->room_count;
    int32_t *buf = dgi_calloc(a, cells, sizeof *buf);
    if (!buf)
        return DG_E_NOMEM;
    int32_t *owner = buf, *ds = buf + n, *de = buf + 2 * (size_t)n, *queue = buf + 3 * (size_t)n;
    int32_t *order = buf + 5 * (size_t)n; /* room_count entries */
    fill_owners(g, r, owner, queue);
    for (int32_t k = 0; k < r->room_count; k++)
    {
        f[k].distance = -1;
        f[k].rank = -1;
        f[k].area = f[k].entrances = f[k].flags = 0;
    }
    walk_from(g, dgi_passable_default, r->start, ds, queue);
    int exit_in = r->exit.x >= 0 && r->exit.y >= 0 && r->exit.x < w && r->exit.y < g->height;
    if (exit_in)
        walk_from(g, dgi_passable_default, r->exit, de, queue);
    fill_walks(g, r, owner, ds, exit_in ? de : ds, f);
    fill_holdings(g, r, owner, f);
    int locks = 0, secrets = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < w; x++)
        {
            locks |= DG_CELL(g, x, y) == DG_TILE_DOOR_LOCKED;
            secrets |= DG_CELL(g, x, y) == DG_TILE_DOOR_SECRET;
        }
    if (locks)
        gate_pass(g, r, owner, de, queue, f, 1, 0, DGI_RF_LOCK);
    if (secrets)
        gate_pass(g, r, owner, de, queue, f, 0, 1, DGI_RF_SECRET);
    if (locks && secrets)
        gate_pass(g, r, owner, de, queue, f, 1, 1, DGI_RF_SHUT);
    else if (locks || secrets)
        for (int32_t k = 0; k < r->room_count; k++)
            if (f[k].flags & (DGI_RF_LOCK | DGI_RF_SECRET))
                f[k].flags |= DGI_RF_SHUT;
    /* tags in ds (the walk is read), opening lists in queue and spare */
    int32_t count = 0;
    for (int32_t k = 0; k < r->room_count; k++)
        count += (f[k].flags & DGI_RF_REACHABLE) != 0;
    for (int32_t i = 0; i < n; i++)
        ds[i] = 0;
    for (int32_t k = 0; k < r->room_count; k++)
        f[k].entrances = count_entrances(g, owner, k, clip_rect(g, r->rooms[k].rect), ds, queue);
    fill_ranks(f, r->room_count, count, order);
    *reachable = count;
    dgi_free(a, buf, cells * sizeof *buf);
    return DG_OK;
}
