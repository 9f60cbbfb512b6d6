/* A* paths and Dijkstra distance maps over a reusable workspace.
 *
 * A workspace keeps per-cell state (cost so far, the step that reached the
 * cell, heap slot) valid only when the cell's stamp matches the current
 * generation, so a query never clears the map: it touches the cells it visits. */
#include "internal.h"

struct dg_path_workspace {
    dg_allocator allocator;
    int has_allocator;
    int32_t capacity; /* cells */
    uint32_t gen;     /* stamp == gen: open; gen + 1: closed; below: untouched */
    size_t bytes;
    void *block;
    uint64_t *heap_key; /* (f << 32) | h: cheapest first, then nearest the goal */
    int32_t *heap_cell; /* packed cells; also the breadth-first queue */
    uint32_t *stamp;
    int32_t *g;
    int32_t *slot;      /* heap slot of an open cell */
    uint8_t *from;      /* direction of the step into the cell */
    int32_t heap_size;
};

#define PER_CELL (sizeof(uint64_t) + 4 * sizeof(int32_t) + 1)

dg_status dg_path_workspace_create(int32_t width, int32_t height, const dg_allocator *allocator,
                                   dg_path_workspace **out)
{
    if (!out)
        return DG_E_NULL;
    if (width < 1 || height < 1)
        return DG_E_INVALID;
    if (width > DG_GRID_MAX_DIM || height > DG_GRID_MAX_DIM ||
        (int64_t)width * height > DG_GRID_MAX_CELLS)
        return DG_E_TOO_LARGE;
    size_t cells = (size_t)width * (size_t)height;
    if (cells > SIZE_MAX / PER_CELL)
        return DG_E_TOO_LARGE;
    dg_path_workspace *ws = dgi_alloc(allocator, sizeof *ws);
    if (!ws)
        return DG_E_NOMEM;
    memset(ws, 0, sizeof *ws);
    if (allocator && allocator->alloc)
    {
        ws->allocator = *allocator;
        ws->has_allocator = 1;
    }
    ws->bytes = cells * PER_CELL;
    ws->block = dgi_alloc(allocator, ws->bytes);
    if (!ws->block)
    {
        dgi_free(allocator, ws, sizeof *ws);
        return DG_E_NOMEM;
    }
    /* Widest elements first keeps every array aligned. */
    ws->heap_key = ws->block;
    ws->heap_cell = (int32_t *)(ws->heap_key + cells);
    ws->stamp = (uint32_t *)(ws->heap_cell + cells);
    ws->g = (int32_t *)(ws->stamp + cells);
    ws->slot = ws->g + cells;
    ws->from = (uint8_t *)(ws->slot + cells);
    memset(ws->stamp, 0, cells * sizeof *ws->stamp);
    ws->capacity = (int32_t)cells;
    ws->gen = 0;
    *out = ws;
    return DG_OK;
}

void dg_path_workspace_free(dg_path_workspace *ws)
{
    if (!ws)
        return;
    dg_allocator a = ws->allocator;
    const dg_allocator *ap = ws->has_allocator ? &a : NULL;
    dgi_free(ap, ws->block, ws->bytes);
    dgi_free(ap, ws, sizeof *ws);
}

dg_status dgi_workspace_get(dg_path_workspace *ws, const dgi_walk *w, dg_path_workspace **use,
                            dg_path_workspace **tmp, dg_diag *diag)
{
    *tmp = NULL;
    if (!ws)
    {
        dg_status st = dg_path_workspace_create(w->width, w->height, NULL, tmp);
        if (st != DG_OK)
            return dgi_fail(diag, st, "cannot allocate a %dx%d workspace", (int)w->width,
                            (int)w->height);
        ws = *tmp;
    }
    if ((int64_t)w->width * w->height > ws->capacity)
        return dgi_fail(diag, DG_E_BUFFER, "workspace holds %d cells: %dx%d grid needs %lld",
                        (int)ws->capacity, (int)w->width, (int)w->height,
                        (long long)w->width * w->height);
    *use = ws;
    return DG_OK;
}

int32_t *dgi_workspace_queue(dg_path_workspace *ws)
{
    return ws->heap_cell;
}

dg_status dgi_walk_check_range(const dgi_walk *w, int32_t max_distance, dg_diag *diag)
{
    int64_t reach = max_distance > 0 ? (int64_t)max_distance
                                     : ((int64_t)w->width * w->height - 1) * w->max_step;
    if (reach + w->max_step > INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE,
                        "step costs up to %lld on a %dx%d grid could overflow a 32-bit distance",
                        (long long)w->max_step, (int)w->width, (int)w->height);
    return DG_OK;
}

/* Starts a query: a new generation makes every cell untouched. */
static void ws_begin(dg_path_workspace *ws)
{
    if (ws->gen >= UINT32_MAX - 3)
    {
        memset(ws->stamp, 0, (size_t)ws->capacity * sizeof *ws->stamp);
        ws->gen = 0;
    }
    ws->gen += 2;
    ws->heap_size = 0;
}

/* ---- binary heap with decrease-key ---------------------------------------- */

static void heap_place(dg_path_workspace *ws, int32_t width, int32_t k, uint64_t key, int32_t p)
{
    ws->heap_key[k] = key;
    ws->heap_cell[k] = p;
    ws->slot[DGI_PY(p) * width + DGI_PX(p)] = k;
}

static void heap_up(dg_path_workspace *ws, int32_t width, int32_t k, uint64_t key, int32_t p)
{
    while (k > 0)
    {
        int32_t parent = (k - 1) >> 1;
        if (ws->heap_key[parent] <= key)
            break;
        heap_place(ws, width, k, ws->heap_key[parent], ws->heap_cell[parent]);
        k = parent;
    }
    heap_place(ws, width, k, key, p);
}

static int32_t heap_pop(dg_path_workspace *ws, int32_t width)
{
    int32_t top = ws->heap_cell[0], n = --ws->heap_size;
    if (n == 0)
        return top;
    uint64_t key = ws->heap_key[n];
    int32_t p = ws->heap_cell[n], k = 0;
    for (;;)
    {
        int32_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ws->heap_key[c + 1] < ws->heap_key[c])
            c++;
        if (ws->heap_key[c] >= key)
            break;
        heap_place(ws, width, k, ws->heap_key[c], ws->heap_cell[c]);
        k = c;
    }
    heap_place(ws, width, k, key, p);
    return top;
}

/* ---- the search ------------------------------------------------------------ */

typedef struct search {
    dg_path_workspace *ws;
    const dgi_walk *w;
    int32_t goal;          /* packed, or -1 for a full Dijkstra */
    int32_t goal_x, goal_y;
    int32_t max_distance;  /* 0: none */
    int32_t settled;
    int32_t last;          /* last cell settled */
} search;

/* Consistent lower bound of the cost from (x, y) to the goal (0 without goal). */
static int64_t heuristic(const search *s, int32_t x, int32_t y)
{
    if (s->goal < 0)
        return 0;
    const dgi_walk *w = s->w;
    int64_t dx = x > s->goal_x ? x - s->goal_x : s->goal_x - x;
    int64_t dy = y > s->goal_y ? y - s->goal_y : s->goal_y - y;
    int64_t lo = DG_MIN(dx, dy), st = w->straight, h = st * (dx + dy);
    if (w->neighbours == 8)
        h += (DG_MIN((int64_t)w->diagonal, 2 * st) - 2 * st) * lo;
    h *= w->min_cost;
    return h > INT32_MAX ? INT32_MAX : h;
}

static uint64_t heap_key(int32_t g, int64_t h)
{
    return ((uint64_t)((int64_t)g + h) << 32) | (uint64_t)h;
}

/* Records cost g for packed cell p reached by direction dir, if it improves. */
static void relax(search *s, int32_t p, int32_t g, int dir)
{
    dg_path_workspace *ws = s->ws;
    int32_t width = s->w->width, i = DGI_PY(p) * width + DGI_PX(p);
    uint32_t st = ws->stamp[i];
    if (st == ws->gen + 1 || (st == ws->gen && g >= ws->g[i]))
        return;
    int32_t k = st == ws->gen ? ws->slot[i] : ws->heap_size++;
    ws->stamp[i] = ws->gen;
    ws->g[i] = g;
    ws->from[i] = (uint8_t)dir;
    heap_up(ws, width, k, heap_key(g, heuristic(s, DGI_PX(p), DGI_PY(p))), p);
}

/* Runs until the goal is settled (returns 1), the heap empties or the next
 * cell is beyond max_distance (returns 0). */
static int search_run(search *s)
{
    dg_path_workspace *ws = s->ws;
    const dgi_walk *w = s->w;
    const int32_t width = w->width;
    while (ws->heap_size > 0)
    {
        int32_t p = ws->heap_cell[0], x = DGI_PX(p), y = DGI_PY(p);
        int32_t i = y * width + x, g = ws->g[i];
        if (s->max_distance > 0 && g > s->max_distance)
            return 0;
        heap_pop(ws, width);
        ws->stamp[i] = ws->gen + 1;
        s->settled++;
        s->last = p;
        if (p == s->goal)
            return 1;
        for (int d = 0; d < w->neighbours; d++)
        {
            if (!dgi_walk_step_ok(w, x, y, d))
                continue;
            int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
            int32_t tile_cost = w->cost ? w->cost[DG_CELL(w, nx, ny)] : 1;
            relax(s, DGI_PACK(nx, ny), g + tile_cost * (d < 4 ? w->straight : w->diagonal), d);
        }
    }
    return 0;
}

static void search_start(search *s, dg_path_workspace *ws, const dgi_walk *w, const dg_point *src,
                         int32_t count, int32_t goal, int32_t max_distance)
{
    memset(s, 0, sizeof *s);
    s->ws = ws;
    s->w = w;
    s->goal = goal;
    s->goal_x = goal >= 0 ? DGI_PX(goal) : 0;
    s->goal_y = goal >= 0 ? DGI_PY(goal) : 0;
    s->max_distance = max_distance;
    s->last = DGI_PACK(src[0].x, src[0].y);
    ws_begin(ws);
    for (int32_t k = 0; k < count; k++)
        relax(s, DGI_PACK(src[k].x, src[k].y), 0, 0);
}

void dgi_dijkstra_map(dg_path_workspace *ws, const dgi_walk *w, const dg_point *sources,
                      int32_t source_count, int32_t max_distance, int32_t *dist,
                      dg_distance_info *info)
{
    search s;
    search_start(&s, ws, w, sources, source_count, -1, max_distance);
    search_run(&s);
    const uint32_t closed = ws->gen + 1;
    size_t n = (size_t)w->width * (size_t)w->height;
    for (size_t i = 0; i < n; i++)
        dist[i] = ws->stamp[i] == closed ? ws->g[i] : DG_UNREACHABLE;
    if (info)
    {
        info->reached = s.settled;
        info->farthest.x = DGI_PX(s.last);
        info->farthest.y = DGI_PY(s.last);
        info->max_distance = dist[DGI_PY(s.last) * w->width + DGI_PX(s.last)];
    }
}

/* ---- dg_path_find ------------------------------------------------------------ */

static dg_status path_check_args(const dgi_walk *w, dg_point from, dg_point to,
                                 const dg_point *path, int32_t path_cap, const int32_t *length,
                                 dg_diag *diag)
{
    dg_status st = dgi_walk_check_cell(w, from, "path start", diag);
    if (st != DG_OK)
        return st;
    if (to.x < 0 || to.y < 0 || to.x >= w->width || to.y >= w->height)
        return dgi_fail(diag, DG_E_INVALID, "path goal (%d, %d) is outside the %dx%d grid",
                        (int)to.x, (int)to.y, (int)w->width, (int)w->height);
    if (!length)
        return dgi_fail(diag, DG_E_NULL, "path length pointer is NULL");
    if (path_cap < 0)
        return dgi_fail(diag, DG_E_INVALID, "path_cap is %d: must be >= 0", (int)path_cap);
    if (!path && path_cap > 0)
        return dgi_fail(diag, DG_E_NULL, "path is NULL but path_cap is %d", (int)path_cap);
    return DG_OK;
}

/* Walks the recorded steps back from the goal: counts, then writes. */
static int32_t path_trace(const dg_path_workspace *ws, int32_t width, dg_point from, dg_point to,
                          dg_point *out, int32_t count)
{
    dg_point p = to;
    int32_t n = 1;
    if (out)
        out[count - 1] = p;
    while (p.x != from.x || p.y != from.y)
    {
        int d = ws->from[p.y * width + p.x];
        p.x -= dgi_dir_dx[d];
        p.y -= dgi_dir_dy[d];
        n++;
        if (out)
            out[count - n] = p;
    }
    return n;
}

dg_status dg_path_find(const dg_grid *grid, const dg_walk *walk, dg_point from, dg_point to,
                       dg_path_workspace *workspace, dg_point *path, int32_t path_cap,
                       int32_t *length, int32_t *cost, dg_diag *diag)
{
    dgi_walk w;
    dg_status st = dgi_walk_init(&w, grid, walk, diag);
    if (st == DG_OK)
        st = path_check_args(&w, from, to, path, path_cap, length, diag);
    if (st == DG_OK)
        st = dgi_walk_check_range(&w, 0, diag);
    if (st != DG_OK)
        return st;
    if (!w.pass[DG_CELL(&w, to.x, to.y)])
        return dgi_fail(diag, DG_E_NOPATH, "path goal (%d, %d) is on an impassable tile",
                        (int)to.x, (int)to.y);
    dg_path_workspace *ws, *tmp;
    if ((st = dgi_workspace_get(workspace, &w, &ws, &tmp, diag)) != DG_OK)
    {
        dg_path_workspace_free(tmp);
        return st;
    }
    search s;
    search_start(&s, ws, &w, &from, 1, DGI_PACK(to.x, to.y), 0);
    if (!search_run(&s))
        st = dgi_fail(diag, DG_E_NOPATH, "no path from (%d, %d) to (%d, %d)", (int)from.x,
                      (int)from.y, (int)to.x, (int)to.y);
    else
    {
        int32_t n = path_trace(ws, w.width, from, to, NULL, 0);
        *length = n;
        if (path && path_cap < n)
            st = dgi_fail(diag, DG_E_BUFFER, "path needs %d cells, path_cap is %d", (int)n,
                          (int)path_cap);
        else
        {
            if (path)
                path_trace(ws, w.width, from, to, path, n);
            if (cost)
                *cost = ws->g[to.y * w.width + to.x];
        }
    }
    dg_path_workspace_free(tmp);
    return st;
}
