/* A* paths and Dijkstra distance maps over a reusable workspace.
 *
 * A workspace keeps per-cell state (cost so far, the step that reached the
 * cell, heap slot) valid only when the cell's stamp matches the current
 * generation, so a query never clears the map: it touches the cells it visits. */
#include "internal.h"

/* Small step costs use a bucket queue (O(1) per operation, last in first out
 * among equal f, which runs straight at the goal on open ground); larger ones
 * a binary heap. With a consistent heuristic every queued f lies within
 * 2 * max_step of the current one, so BUCKETS_MAX buckets suffice when
 * 2 * max_step < BUCKETS_MAX. */
#define BUCKETS_MAX 256

struct dg_path_workspace {
    dg_allocator allocator;
    int has_allocator;
    int32_t capacity; /* cells */
    uint32_t gen;     /* stamp == gen: open; gen + 1: closed; below: untouched */
    size_t bytes;
    void *block;
    uint64_t *heap_key; /* heap: (f << 32) | h, cheapest first, then nearest the goal */
    int32_t *link_a;    /* heap: packed cell of a slot; buckets: next cell; BFS queue */
    int32_t *link_b;    /* heap: slot of a cell; buckets: previous cell (-1: first) */
    uint32_t *stamp;
    int32_t *g;
    uint8_t *from;      /* direction of the step into the cell */
    int32_t heap_size;
    int32_t head[BUCKETS_MAX]; /* first cell (packed) of each bucket, -1 if empty */
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
    ws->link_a = (int32_t *)(ws->heap_key + cells);
    ws->link_b = ws->link_a + cells;
    ws->stamp = (uint32_t *)(ws->link_b + cells);
    ws->g = (int32_t *)(ws->stamp + cells);
    ws->from = (uint8_t *)(ws->g + cells);
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
    *use = NULL;
    if (!ws)
    {
        dg_status st = dg_path_workspace_create(w->width, w->height, NULL, tmp);
        if (st != DG_OK)
        {
            dgi_fail(diag, st, "cannot allocate a %dx%d workspace", (int)w->width,
                     (int)w->height);
            return st;
        }
        ws = *tmp;
    }
    if ((int64_t)w->width * w->height > ws->capacity)
    {
        dgi_fail(diag, DG_E_BUFFER, "workspace holds %d cells: %dx%d grid needs %lld",
                 (int)ws->capacity, (int)w->width, (int)w->height, (long long)w->width * w->height);
        return DG_E_BUFFER;
    }
    *use = ws;
    return DG_OK;
}

int32_t *dgi_workspace_queue(dg_path_workspace *ws)
{
    return ws->link_a;
}

dg_status dgi_walk_check_range(const dgi_walk *w, int32_t max_distance, dg_diag *diag)
{
    /* No walk is longer than every cell at the largest step, nor (settled)
     * beyond max_distance; one more step is the largest value computed. */
    int64_t reach = ((int64_t)w->width * w->height - 1) * w->max_step;
    if (max_distance > 0 && max_distance < reach)
        reach = max_distance;
    if (reach + w->max_step > INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE,
                        "step costs up to %lld on a %dx%d grid could overflow a 32-bit distance",
                        (long long)w->max_step, (int)w->width, (int)w->height);
    return DG_OK;
}

/* ---- the search ------------------------------------------------------------ */

typedef struct search {
    dg_path_workspace *ws;
    const dgi_walk *w;
    int32_t goal;          /* packed, or -1 for a full Dijkstra */
    int32_t goal_x, goal_y;
    int32_t max_distance;  /* 0: none */
    int64_t h_line, h_diag; /* h = h_line * (dx + dy) + h_diag * min(dx, dy) */
    int32_t buckets;       /* 1: bucket queue, 0: heap */
    int32_t mask;          /* bucket index mask */
    int64_t cur;           /* f of the current bucket */
    int32_t open;          /* cells queued */
    int32_t settled;
    int32_t last;          /* last cell settled */
    int32_t step[8];       /* weight of a step in each direction */
    ptrdiff_t cell_off[8]; /* grid offset of each direction */
    int32_t index_off[8];  /* per-cell array offset of each direction */
} search;

#define IDX(s, p) (DGI_PY(p) * (s)->w->width + DGI_PX(p))

/* Consistent lower bound of the cost from (x, y) to the goal (0 without goal). */
static DGI_ALWAYS_INLINE int64_t heuristic(const search *s, int32_t x, int32_t y)
{
    int64_t dx = x > s->goal_x ? x - s->goal_x : s->goal_x - x;
    int64_t dy = y > s->goal_y ? y - s->goal_y : s->goal_y - y;
    int64_t h = s->h_line * (dx + dy) + s->h_diag * (dx < dy ? dx : dy);
    return h > INT32_MAX ? INT32_MAX : h;
}

/* ---- queue: buckets ---- */

static DGI_ALWAYS_INLINE void bucket_link(search *s, int32_t i, int32_t p, int64_t f)
{
    dg_path_workspace *ws = s->ws;
    int32_t b = (int32_t)(f & s->mask), next = ws->head[b];
    ws->link_a[i] = next;
    ws->link_b[i] = -1;
    if (next >= 0)
        ws->link_b[IDX(s, next)] = p;
    ws->head[b] = p;
}

static DGI_ALWAYS_INLINE void bucket_unlink(search *s, int32_t i, int64_t f)
{
    dg_path_workspace *ws = s->ws;
    int32_t next = ws->link_a[i], prev = ws->link_b[i];
    if (prev >= 0)
        ws->link_a[IDX(s, prev)] = next;
    else
        ws->head[f & s->mask] = next;
    if (next >= 0)
        ws->link_b[IDX(s, next)] = prev;
}

/* ---- queue: binary heap with decrease-key ---- */

static void heap_place(search *s, int32_t k, uint64_t key, int32_t p)
{
    s->ws->heap_key[k] = key;
    s->ws->link_a[k] = p;
    s->ws->link_b[IDX(s, p)] = k;
}

static void heap_up(search *s, int32_t k, uint64_t key, int32_t p)
{
    dg_path_workspace *ws = s->ws;
    while (k > 0)
    {
        int32_t parent = (k - 1) >> 1;
        if (ws->heap_key[parent] <= key)
            break;
        heap_place(s, k, ws->heap_key[parent], ws->link_a[parent]);
        k = parent;
    }
    heap_place(s, k, key, p);
}

static void heap_remove_top(search *s)
{
    dg_path_workspace *ws = s->ws;
    int32_t n = --ws->heap_size;
    if (n == 0)
        return;
    uint64_t key = ws->heap_key[n];
    int32_t p = ws->link_a[n], k = 0;
    for (;;)
    {
        int32_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ws->heap_key[c + 1] < ws->heap_key[c])
            c++;
        if (ws->heap_key[c] >= key)
            break;
        heap_place(s, k, ws->heap_key[c], ws->link_a[c]);
        k = c;
    }
    heap_place(s, k, key, p);
}

/* ---- queue: common face ---- */

/* Queues cell p (index i) at f, or moves it there from old_f if already open. */
static DGI_ALWAYS_INLINE void queue_set(search *s, int32_t i, int32_t p, int64_t f, int64_t h,
                                        int was_open, int64_t old_f)
{
    if (s->buckets)
    {
        if (was_open)
        {
            if (((old_f ^ f) & s->mask) == 0)
                return; /* same bucket */
            bucket_unlink(s, i, old_f);
        }
        else
            s->open++;
        bucket_link(s, i, p, f);
        return;
    }
    uint64_t key = ((uint64_t)f << 32) | (uint64_t)h;
    if (!was_open)
    {
        s->open++;
        heap_up(s, s->ws->heap_size++, key, p);
    }
    else
        heap_up(s, s->ws->link_b[i], key, p);
}

/* The cheapest queued cell (packed) and its f, without removing it. */
static int32_t queue_peek(search *s, int64_t *f)
{
    if (s->buckets)
    {
        while (s->ws->head[s->cur & s->mask] < 0)
            s->cur++;
        *f = s->cur;
        return s->ws->head[s->cur & s->mask];
    }
    *f = (int64_t)(s->ws->heap_key[0] >> 32);
    return s->ws->link_a[0];
}

static void queue_pop(search *s, int32_t i)
{
    s->open--;
    if (s->buckets)
        bucket_unlink(s, i, s->cur);
    else
        heap_remove_top(s);
}

/* ---- search loop ---- */

/* Relaxes the steps out of the settled cell p (index i, cost g). */
static DGI_ALWAYS_INLINE void expand(search *s, int32_t p, int32_t i, int32_t g,
                                     const int neighbours, const int costs)
{
    dg_path_workspace *ws = s->ws;
    const dgi_walk *w = s->w;
    const uint8_t *pass = w->pass;
    const uint32_t open = ws->gen, closed = ws->gen + 1;
    const int32_t x = DGI_PX(p), y = DGI_PY(p);
    const uint8_t *cell = &DG_CELL(w, x, y);
#pragma GCC unroll 8
    for (int d = 0; d < neighbours; d++)
    {
        int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
        if ((uint32_t)nx >= (uint32_t)w->width || (uint32_t)ny >= (uint32_t)w->height)
            continue;
        uint8_t tile = cell[s->cell_off[d]];
        if (!pass[tile])
            continue;
        if (d >= 4 && !w->corner_cutting &&
            (!pass[cell[dgi_dir_dx[d]]] || !pass[cell[dgi_dir_dy[d] * (ptrdiff_t)w->stride]]))
            continue;
        int32_t ni = i + s->index_off[d];
        uint32_t st = ws->stamp[ni];
        if (st == closed)
            continue; /* a consistent heuristic never reopens */
        int32_t ng = g + (costs ? w->cost[tile] : 1) * s->step[d];
        int was_open = st == open;
        if (was_open && ng >= ws->g[ni])
            continue;
        int64_t h = s->goal >= 0 ? heuristic(s, nx, ny) : 0;
        int64_t old_f = was_open ? ws->g[ni] + h : 0;
        ws->stamp[ni] = open;
        ws->g[ni] = ng;
        ws->from[ni] = (uint8_t)d;
        queue_set(s, ni, DGI_PACK(nx, ny), ng + h, h, was_open, old_f);
    }
}

/* The search loop on a local copy of the state (so that it lives in
 * registers), inlined with constant arguments for the common cases. */
static DGI_ALWAYS_INLINE int search_loop(search *sp, const int neighbours, const int costs)
{
    search s = *sp;
    dg_path_workspace *ws = s.ws;
    int found = 0;
    while (s.open > 0)
    {
        int64_t f;
        int32_t p = queue_peek(&s, &f), i = IDX(&s, p), g = ws->g[i];
        if (s.max_distance > 0 && g > s.max_distance)
            break;
        queue_pop(&s, i);
        ws->stamp[i] = ws->gen + 1;
        s.settled++;
        s.last = p;
        if (p == s.goal)
        {
            found = 1;
            break;
        }
        expand(&s, p, i, g, neighbours, costs);
    }
    *sp = s;
    return found;
}

/* Runs until the goal is settled (returns 1), the queue empties or the next
 * cell is beyond max_distance (returns 0). */
static int search_run(search *s)
{
    int n = s->w->neighbours, costs = s->w->cost != NULL;
    if (!s->buckets)
        return search_loop(s, n, costs);
    if (n == 4)
        return costs ? search_loop(s, 4, 1) : search_loop(s, 4, 0);
    return costs ? search_loop(s, 8, 1) : search_loop(s, 8, 0);
}

/* The query's constants: heuristic weights, direction offsets, queue kind. */
static void search_init(search *s, dg_path_workspace *ws, const dgi_walk *w, int32_t goal,
                        int32_t max_distance)
{
    memset(s, 0, sizeof *s);
    s->ws = ws;
    s->w = w;
    s->goal = goal;
    s->goal_x = goal >= 0 ? DGI_PX(goal) : 0;
    s->goal_y = goal >= 0 ? DGI_PY(goal) : 0;
    s->max_distance = max_distance;
    if (goal >= 0) /* octile distance: a diagonal replaces two straight steps when cheaper */
    {
        int64_t st = w->straight;
        int64_t dg = w->neighbours == 8 ? DG_MIN((int64_t)w->diagonal, 2 * st) : 2 * st;
        s->h_line = st * w->min_cost;
        s->h_diag = (dg - 2 * st) * w->min_cost;
    }
    for (int d = 0; d < 8; d++)
    {
        s->step[d] = d < 4 ? w->straight : w->diagonal;
        s->cell_off[d] = dgi_dir_dy[d] * (ptrdiff_t)w->stride + dgi_dir_dx[d];
        s->index_off[d] = dgi_dir_dy[d] * w->width + dgi_dir_dx[d];
    }
    int32_t span = 1;
    while (span <= 2 * w->max_step && span < BUCKETS_MAX)
        span <<= 1;
    s->buckets = 2 * w->max_step < span;
    s->mask = span - 1;
}

/* Starts a query: a new generation makes every cell untouched. */
static void ws_begin(dg_path_workspace *ws, const search *s)
{
    if (ws->gen >= UINT32_MAX - 3)
    {
        memset(ws->stamp, 0, (size_t)ws->capacity * sizeof *ws->stamp);
        ws->gen = 0;
    }
    ws->gen += 2;
    ws->heap_size = 0;
    if (s->buckets)
        memset(ws->head, 0xFF, (size_t)(s->mask + 1) * sizeof ws->head[0]);
}

static void search_start(search *s, dg_path_workspace *ws, const dgi_walk *w, const dg_point *src,
                         int32_t count, int32_t goal, int32_t max_distance)
{
    search_init(s, ws, w, goal, max_distance);
    ws_begin(ws, s);
    s->last = DGI_PACK(src[0].x, src[0].y);
    for (int32_t k = 0; k < count; k++)
    {
        int32_t p = DGI_PACK(src[k].x, src[k].y), i = IDX(s, p);
        if (ws->stamp[i] == ws->gen)
            continue; /* a repeated source */
        int64_t h = goal >= 0 ? heuristic(s, src[k].x, src[k].y) : 0;
        ws->stamp[i] = ws->gen;
        ws->g[i] = 0;
        ws->from[i] = 0;
        queue_set(s, i, p, h, h, 0, 0);
        if (k == 0 || h < s->cur)
            s->cur = h;
    }
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
