/* A* paths and Dijkstra distance maps over a reusable workspace.
 *
 * A workspace keeps per-cell state (cost so far, the step that reached the
 * cell, heap slot) valid only when the cell's stamp matches the current
 * generation, so a query never clears the map: it touches the cells it visits.
 * Whole-map distance maps with small steps take Dial's algorithm instead
 * (dial_map below): it writes the caller's dist directly and keeps FIFO
 * buckets in the same workspace memory. */
#include "analysis/analysis.h"

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
    int32_t *g;
    uint32_t *stamp;
    uint8_t *from;      /* direction of the step into the cell */
    uint8_t *fit;       /* where a walker larger than a cell does not fit (made on first use) */
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
    /* heap_key, link_a, link_b and g are contiguous: Dial's pool of 5 int32 a cell. */
    ws->g = ws->link_b + cells;
    ws->stamp = (uint32_t *)(ws->g + cells);
    ws->from = (uint8_t *)(ws->stamp + cells);
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
    if (ws->fit)
        dgi_free(ap, ws->fit, (size_t)ws->capacity);
    dgi_free(ap, ws, sizeof *ws);
}

/* The walker's footprint as a blocked mask held by the workspace. */
static dg_status fit_footprint(dg_path_workspace *ws, dgi_move *w, dg_diag *diag)
{
    if (w->size <= 1)
        return DG_OK;
    if (!ws->fit)
    {
        dg_allocator a = ws->allocator;
        ws->fit = dgi_alloc(ws->has_allocator ? &a : NULL, (size_t)ws->capacity);
        if (!ws->fit)
            return dgi_fail(diag, DG_E_NOMEM, "cannot allocate the %d-cell footprint mask",
                            (int)ws->capacity);
    }
    dgi_move_fit(w, ws->fit);
    return DG_OK;
}

dg_status dgi_workspace_get(dg_path_workspace *ws, dgi_move *w, dg_path_workspace **use,
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
    dg_status st = fit_footprint(ws, w, diag);
    if (st == DG_OK)
        *use = ws;
    return st;
}

int32_t *dgi_workspace_queue(dg_path_workspace *ws)
{
    return ws->link_a;
}

uint8_t *dgi_workspace_bytes(dg_path_workspace *ws)
{
    return ws->from;
}

dg_status dgi_move_check_range(const dgi_move *w, int64_t start_max, int32_t max_distance,
                               dg_diag *diag)
{
    /* No walk is longer than every cell at the largest step, nor (settled)
     * beyond max_distance; one more step is the largest value computed. */
    int64_t reach = start_max + ((int64_t)w->width * w->height - 1) * w->max_step;
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
    const dgi_move *w;
    int32_t goal;          /* packed, or -1 for a full Dijkstra */
    int32_t goal_x, goal_y;
    int32_t goal_i;        /* index of the goal, or -1 */
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
    ptrdiff_t mask_off[8]; /* overlay mask offset of each direction */
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

/* With a blocked mask: 1 if cell ni (mask entry *b) may be entered: not
 * blocked, or an end of the search (a source, queued from the start, or the goal). */
static DGI_ALWAYS_INLINE int end_or_free(const search *s, int32_t ni, const uint8_t *b)
{
    return !*b || s->ws->stamp[ni] >= s->ws->gen || ni == s->goal_i;
}

/* The diagonal step d from cell i passes two orthogonal cells: both open? */
static DGI_ALWAYS_INLINE int corner_ok(const search *s, const uint8_t *cell, int32_t i,
                                       const uint8_t *bm, int d, const int ov)
{
    const dgi_move *w = s->w;
    if (!w->pass[cell[dgi_dir_dx[d]]] || !w->pass[cell[dgi_dir_dy[d] * (ptrdiff_t)w->stride]])
        return 0;
    if (!ov || !bm)
        return 1;
    return end_or_free(s, i + dgi_dir_dx[d], bm + dgi_dir_dx[d]) &&
           end_or_free(s, i + dgi_dir_dy[d] * w->width,
                       bm + dgi_dir_dy[d] * (ptrdiff_t)w->mask_stride);
}

/* Relaxes the steps out of the settled cell p (index i, cost g); `ov` adds
 * the overlay's blocked and extra-cost masks. */
static DGI_ALWAYS_INLINE void expand(search *s, int32_t p, int32_t i, int32_t g,
                                     const int neighbours, const int costs, const int ov)
{
    dg_path_workspace *ws = s->ws;
    const dgi_move *w = s->w;
    const uint8_t *pass = w->pass;
    const uint32_t open = ws->gen, closed = ws->gen + 1;
    const int32_t x = DGI_PX(p), y = DGI_PY(p);
    const uint8_t *cell = &DG_CELL(w, x, y);
    const uint8_t *bm = ov && w->blocked ? &DGI_MASK(w, w->blocked, x, y) : NULL;
    const uint8_t *em = ov && w->extra ? &DGI_MASK(w, w->extra, x, y) : NULL;
#pragma GCC unroll 8
    for (int d = 0; d < neighbours; d++)
    {
        int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
        if ((uint32_t)nx >= (uint32_t)w->width || (uint32_t)ny >= (uint32_t)w->height)
            continue;
        uint8_t tile = cell[s->cell_off[d]];
        if (!pass[tile])
            continue;
        int32_t ni = i + s->index_off[d];
        if (ov && bm && !end_or_free(s, ni, bm + s->mask_off[d]))
            continue;
        if (d >= 4 && !w->corner_cutting && !corner_ok(s, cell, i, bm, d, ov))
            continue;
        uint32_t st = ws->stamp[ni];
        if (st == closed)
            continue; /* a consistent heuristic never reopens */
        int32_t tc = costs ? w->cost[tile] : 1;
        if (ov && em)
            tc += em[s->mask_off[d]];
        int32_t ng = g + tc * s->step[d];
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
static DGI_ALWAYS_INLINE int search_loop(search *sp, const int neighbours, const int costs,
                                         const int ov)
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
        expand(&s, p, i, g, neighbours, costs, ov);
    }
    *sp = s;
    return found;
}

/* Runs until the goal is settled (returns 1), the queue empties or the next
 * cell is beyond max_distance (returns 0). */
static int search_run(search *s)
{
    int n = s->w->neighbours, costs = s->w->cost != NULL;
    if (s->w->blocked || s->w->extra)
        return search_loop(s, n, costs, 1);
    if (!s->buckets)
        return search_loop(s, n, costs, 0);
    if (n == 4)
        return costs ? search_loop(s, 4, 1, 0) : search_loop(s, 4, 0, 0);
    return costs ? search_loop(s, 8, 1, 0) : search_loop(s, 8, 0, 0);
}

/* The query's constants: heuristic weights, direction offsets, queue kind. */
static void search_init(search *s, dg_path_workspace *ws, const dgi_move *w, int32_t goal,
                        int32_t max_distance)
{
    memset(s, 0, sizeof *s);
    s->ws = ws;
    s->w = w;
    s->goal = goal;
    s->goal_x = goal >= 0 ? DGI_PX(goal) : 0;
    s->goal_y = goal >= 0 ? DGI_PY(goal) : 0;
    s->goal_i = goal >= 0 ? IDX(s, goal) : -1;
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
        s->mask_off[d] = dgi_dir_dy[d] * (ptrdiff_t)w->mask_stride + dgi_dir_dx[d];
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

/* 1 if the start costs (NULL: all 0) are not all equal. */
static int costs_vary(const int32_t *start, int32_t count)
{
    for (int32_t k = 1; start && k < count; k++)
        if (start[k] != start[0])
            return 1;
    return 0;
}

/* Queues the sources at their start costs (NULL: 0); a repeated source keeps
 * its least cost and a source beyond max_distance is left out. Start costs that
 * differ need the heap: a bucket ring only spans a few steps. */
static void search_start(search *s, dg_path_workspace *ws, const dgi_move *w, const dg_point *src,
                         const int32_t *start, int32_t count, int32_t goal, int32_t max_distance)
{
    search_init(s, ws, w, goal, max_distance);
    if (costs_vary(start, count))
        s->buckets = 0;
    ws_begin(ws, s);
    s->last = DGI_PACK(src[0].x, src[0].y);
    int first = 1;
    for (int32_t k = 0; k < count; k++)
    {
        int32_t p = DGI_PACK(src[k].x, src[k].y), i = IDX(s, p);
        int32_t c = start ? start[k] : 0;
        if (max_distance > 0 && c > max_distance)
            continue;
        int was_open = ws->stamp[i] == ws->gen;
        if (was_open && c >= ws->g[i])
            continue; /* a repeated source */
        int64_t h = goal >= 0 ? heuristic(s, src[k].x, src[k].y) : 0;
        int64_t old_f = was_open ? ws->g[i] + h : 0;
        ws->stamp[i] = ws->gen;
        ws->g[i] = c;
        ws->from[i] = 0;
        queue_set(s, i, p, c + h, h, was_open, old_f);
        if (first || c + h < s->cur)
            s->cur = c + h;
        first = 0;
    }
}

/* The generic map: the search above, then its settled costs copied out. */
static void search_map(dg_path_workspace *ws, const dgi_move *w, const dg_point *sources,
                       const int32_t *start, int32_t count, int32_t max_distance, int32_t *dist,
                       dg_distance_info *info)
{
    search s;
    search_start(&s, ws, w, sources, start, count, -1, max_distance);
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

/* ---- Dial's algorithm for whole maps ------------------------------------------ */

/* Distances settle in increasing order, one bucket per value; a step adds at
 * most max_step, so max_step + 1 buckets used as a ring hold every pending
 * value. Each bucket is a FIFO array of packed cells; a cell is queued again
 * when its distance drops and the stale entry is skipped when met (its dist no
 * longer matches the bucket). A bucket holds each cell at most once, so a
 * bucket of `cells` entries never overflows; with less room an overflow
 * gives up and the caller runs the generic search, which gives the same map.
 * Sources wait in a list sorted by start cost and settle when the ring
 * reaches their cost, so "every cell is a source" costs one sort. */
#define DIAL_MAX_BUCKETS 64

typedef struct dial {
    const dgi_move *w;
    const uint8_t *open; /* 256 entries, 1 if passable */
    int32_t *dist;
    int32_t limit;   /* largest distance kept (max_distance, or INT32_MAX) */
    int32_t *pool;   /* nb buckets of cap entries */
    int32_t cap, nb;
    int32_t soft;    /* a bucket this full ends the run: one expansion adds <= 8 */
    int32_t overflow;
    int32_t settled, last;
    int32_t open_cells; /* the plain ring: passable cells */
    int32_t count[DIAL_MAX_BUCKETS];
} dial;

/* The settled cell being expanded. */
typedef struct dial_cell {
    int32_t p, cur, cur_b;
    int32_t *here;
    const uint8_t *cell, *bm, *em;
} dial_cell;

/* Relaxes one step (offsets into grid, dist and masks, packed delta) if
 * `inside` and allowed by `rule`; returns whether the neighbour is open, for
 * the corner rule of the diagonals. A blocked cell is open only if it holds a
 * distance already: only sources get one. */
static DGI_ALWAYS_INLINE int dial_relax(dial *q, const dial_cell *c, const uint8_t *pass,
                                        const int32_t *tile_cost, int inside, int rule,
                                        ptrdiff_t coff, ptrdiff_t doff, ptrdiff_t moff,
                                        int32_t poff, int32_t weight, const int costs,
                                        const int ov)
{
    if (!inside)
        return 0;
    uint8_t tile = c->cell[coff];
    int32_t old = c->here[doff];
    int open = pass[tile];
    if (ov && c->bm)
        open &= (c->bm[moff] == 0) | (old >= 0);
    if (!open || !rule)
        return open;
    int32_t step = ((costs ? tile_cost[tile] : 1) + (ov && c->em ? c->em[moff] : 0)) * weight;
    int32_t nd = c->cur + step;
    if ((uint32_t)nd < (uint32_t)old && nd <= q->limit)
    {
        c->here[doff] = nd;
        int32_t b = c->cur_b + step;
        b -= b >= q->nb ? q->nb : 0;
        int32_t k = q->count[b];
        q->pool[(ptrdiff_t)b * q->cap + k] = c->p + poff;
        q->count[b] = k + 1;
        q->overflow |= k + 1 >= q->soft;
    }
    return open;
}

/* Settles packed cell p at distance cur and relaxes its steps. */
static DGI_ALWAYS_INLINE void dial_expand(dial *q, const uint8_t *pass, const int32_t *tile_cost,
                                          int32_t p, int32_t cur, int32_t cur_b, const int eight,
                                          const int costs, const int ov)
{
    const dgi_move *w = q->w;
    const int32_t x = DGI_PX(p), y = DGI_PY(p), width = w->width;
    const ptrdiff_t st = w->stride, ms = w->mask_stride;
    const int32_t up = -(1 << 15), down = 1 << 15, sw = w->straight, dw = w->diagonal;
    dial_cell c = {p, cur, cur_b, q->dist + (ptrdiff_t)y * width + x,
                   w->cells + (ptrdiff_t)y * st + x,
                   ov && w->blocked ? &DGI_MASK(w, w->blocked, x, y) : NULL,
                   ov && w->extra ? &DGI_MASK(w, w->extra, x, y) : NULL};
    const int32_t *tc = tile_cost;
    q->settled++;
    q->last = p;
    const int top = y > 0, right = x + 1 < width, bottom = y + 1 < w->height, left = x > 0;
    int on = dial_relax(q, &c, pass, tc, top, 1, -st, -width, -ms, up, sw, costs, ov);
    int oe = dial_relax(q, &c, pass, tc, right, 1, 1, 1, 1, 1, sw, costs, ov);
    int os = dial_relax(q, &c, pass, tc, bottom, 1, st, width, ms, down, sw, costs, ov);
    int ow = dial_relax(q, &c, pass, tc, left, 1, -1, -1, -1, -1, sw, costs, ov);
    if (!eight)
        return;
    const int cut = w->corner_cutting;
    dial_relax(q, &c, pass, tc, top && right, cut | (on & oe), 1 - st, 1 - width, 1 - ms, up + 1,
               dw, costs, ov);
    dial_relax(q, &c, pass, tc, bottom && right, cut | (os & oe), 1 + st, 1 + width, 1 + ms,
               down + 1, dw, costs, ov);
    dial_relax(q, &c, pass, tc, bottom && left, cut | (os & ow), st - 1, width - 1, ms - 1,
               down - 1, dw, costs, ov);
    dial_relax(q, &c, pass, tc, top && left, cut | (on & ow), -1 - st, -1 - width, -1 - ms,
               up - 1, dw, costs, ov);
}

#define SRC_COST(e) ((int32_t)((e) >> 32))
#define SRC_CELL(e) ((int32_t)((e)&0xFFFFFFFFu))

/* 1 if any bucket holds an entry. */
static int dial_pending(const dial *q)
{
    for (int32_t b = 0; b < q->nb; b++)
        if (q->count[b])
            return 1;
    return 0;
}

/* Settles the cells at distance cur: the sources of that cost, then the
 * bucket's entries still at cur (the others dropped since). */
static DGI_ALWAYS_INLINE void dial_settle(dial *q, const uint8_t *pass, const int32_t *tile_cost,
                                          const uint64_t *src, int32_t m, int32_t *pos,
                                          int32_t cur, int32_t cur_b, const int eight,
                                          const int costs, const int ov)
{
    const int32_t width = q->w->width;
    const int32_t *bucket = q->pool + (ptrdiff_t)cur_b * q->cap, n = q->count[cur_b];
    /* the sources of this cost first, then the bucket: k < 0 reads a source */
    for (int32_t k = -1; k < n; k++)
    {
        int32_t p;
        if (k < 0 && *pos < m && SRC_COST(src[*pos]) == cur)
        {
            p = SRC_CELL(src[(*pos)++]);
            k--; /* stay on the sources */
        }
        else if (k < 0)
            continue;
        else
            p = bucket[k];
        if (q->dist[DGI_PY(p) * width + DGI_PX(p)] != cur)
            continue; /* reached cheaper since */
        dial_expand(q, pass, tile_cost, p, cur, cur_b, eight, costs, ov);
        if (q->overflow)
            return;
    }
}

/* The ring from the cheapest source on, on a local copy of the state (so it
 * stays in registers); returns 0 on a bucket overflow. */
static DGI_ALWAYS_INLINE int dial_loop(dial *qp, const uint64_t *src, int32_t m, const int eight,
                                       const int costs, const int ov)
{
    dial q = *qp;
    const uint8_t *pass = q.open; /* 0/1, for the & of the corner rule */
    int32_t tile_cost[256];
    for (int t = 0; t < 256; t++)
        tile_cost[t] = q.w->cost ? q.w->cost[t] : 1;
    int32_t pos = 0, cur = SRC_COST(src[0]), cur_b = cur % q.nb, ok = 1;
    for (;;)
    {
        /* steps cost >= 1: nothing joins the bucket being settled */
        dial_settle(&q, pass, tile_cost, src, m, &pos, cur, cur_b, eight, costs, ov);
        q.count[cur_b] = 0;
        if (q.overflow)
        {
            ok = 0;
            break;
        }
        if (dial_pending(&q))
        {
            cur++;
            cur_b = cur_b + 1 == q.nb ? 0 : cur_b + 1;
        }
        else if (pos < m)
        {
            cur = SRC_COST(src[pos]);
            cur_b = cur % q.nb;
        }
        else
            break;
    }
    *qp = q;
    return ok;
}

/* ---- the plain ring: no tile costs, no overlay --------------------------------
 *
 * With one weight per step kind, each level (the cells at one distance)
 * takes all its straight steps before any diagonal one. When a diagonal costs
 * at most one more than a straight step, no later step undercuts a distance
 * once written: a straight step from level L writes L + s, a diagonal one
 * L + d <= L + 1 + s, and every later level writes at least L + 1 + s. So a
 * cell joins one bucket once and is never stale; walls hold -1 and open cells
 * RING_OPEN in dist, and a step reads nothing but dist. Sources join their
 * bucket before any step can reach it, in the sorted list's order, so cells
 * settle in the order of dial_loop (the same info.farthest). Start costs
 * that differ, or a longer diagonal, can leave stale entries: `checked` then
 * skips them. On a grid with no open border cell (`framed`) the buckets hold
 * dist indices and no step tests the bounds; else packed cells. */
#define RING_OPEN INT32_MAX

/* Kept when nd is below the cell's distance (never on a wall, at -1); the
 * bucket slot is written either way. */
#define RING_STEP(inside, rule, doff, qoff)                                       \
    do {                                                                        \
        if (inside)                                                             \
        {                                                                       \
            int32_t old = here[(doff)];                                         \
            int fresh = (rule) & (nd < old);                                    \
            here[(doff)] = fresh ? nd : old;                                    \
            *tail = base + (qoff);                                              \
            tail += fresh;                                                      \
        }                                                                       \
    } while (0)

/* The straight (or, with `diag`, diagonal) steps of the n bucket entries at
 * distance cur into bucket `to`; 0 if that bucket fills up. */
static DGI_ALWAYS_INLINE int ring_pass(dial *q, const int32_t *in, int32_t n, int32_t cur,
                                       int32_t to, const int diag, const int framed,
                                       const int checked)
{
    const int32_t width = q->w->width, height = q->w->height, cut = q->w->corner_cutting;
    const int32_t nd = cur + (diag ? q->w->diagonal : q->w->straight);
    const int32_t up = framed ? -width : -(1 << 15); /* a row up in bucket entries */
    int32_t *dist = q->dist, *out = q->pool + (ptrdiff_t)to * q->cap, *tail = out + q->count[to];
    for (int32_t k = 0; k < n;)
    {
        /* entries that fit: four steps each, and the slot written past the tail */
        int32_t end = k + (q->cap - 1 - (int32_t)(tail - out)) / 4;
        if (end <= k)
            return 0;
        for (end = end < n ? end : n; k < end; k++)
        {
            const int32_t base = in[k], x = framed ? 0 : DGI_PX(base);
            const int32_t y = framed ? 0 : DGI_PY(base);
            int32_t *here = dist + (framed ? base : y * width + x);
            if (checked && *here != cur)
                continue; /* reached cheaper since */
            const int top = framed || y > 0, right = framed || x + 1 < width;
            const int bottom = framed || y + 1 < height, left = framed || x > 0;
            if (!diag)
            {
                RING_STEP(top, 1, -width, up);
                RING_STEP(right, 1, 1, 1);
                RING_STEP(bottom, 1, width, -up);
                RING_STEP(left, 1, -1, -1);
                continue;
            }
            const int on = top && here[-width] >= 0, oe = right && here[1] >= 0;
            const int os = bottom && here[width] >= 0, ow = left && here[-1] >= 0;
            RING_STEP(top && right, cut | (on & oe), 1 - width, up + 1);
            RING_STEP(bottom && right, cut | (os & oe), 1 + width, 1 - up);
            RING_STEP(bottom && left, cut | (os & ow), width - 1, -up - 1);
            RING_STEP(top && left, cut | (on & ow), -1 - width, up - 1);
        }
    }
    q->count[to] = (int32_t)(tail - out);
    return 1;
}

/* Counts the n entries of level cur settled and remembers the last one. */
static DGI_ALWAYS_INLINE void ring_settled(dial *q, const int32_t *in, int32_t n, int32_t cur,
                                           const int framed, const int checked)
{
    if (!checked)
    {
        q->settled += n;
        q->last = in[n - 1];
        return;
    }
    const int32_t *dist = q->dist, width = q->w->width;
    int32_t settled = 0, last = q->last;
    for (int32_t k = 0; k < n; k++)
    {
        int32_t p = in[k];
        if (dist[framed ? p : DGI_PY(p) * width + DGI_PX(p)] == cur)
        {
            settled++;
            last = p;
        }
    }
    q->settled += settled;
    q->last = last;
}

/* Sources of cost cur .. cur + d not yet queued join their buckets (cur's is
 * cur_b); 0 if one is full. */
static int ring_add_sources(dial *q, const uint64_t *src, int32_t m, int32_t *pos, int32_t cur,
                            int32_t cur_b, const int framed)
{
    for (; *pos < m && SRC_COST(src[*pos]) - cur <= q->w->diagonal; (*pos)++)
    {
        int32_t p = SRC_CELL(src[*pos]), b = cur_b + (SRC_COST(src[*pos]) - cur);
        b -= b >= q->nb ? q->nb : 0;
        if (q->count[b] + 1 >= q->cap)
            return 0;
        q->pool[(ptrdiff_t)b * q->cap + q->count[b]++] =
            framed ? DGI_PY(p) * q->w->width + DGI_PX(p) : p;
    }
    return 1;
}

/* The bucket of level cur + step, cur's being cur_b. */
static inline int32_t ring_bucket(const dial *q, int32_t cur_b, int32_t step)
{
    int32_t b = cur_b + step;
    return b >= q->nb ? b - q->nb : b;
}

/* The levels from the cheapest source on; 0 on a bucket overflow. */
static DGI_ALWAYS_INLINE int ring_loop(dial *q, const uint64_t *src, int32_t m, const int eight,
                                       const int framed, const int checked)
{
    const int32_t s = q->w->straight, d = q->w->diagonal;
    int32_t pos = 0, cur = SRC_COST(src[0]), cur_b = cur % q->nb;
    for (;;)
    {
        /* a source of cost c joins before level c - d, the first to reach c */
        if (pos < m && !ring_add_sources(q, src, m, &pos, cur, cur_b, framed))
            return 0;
        int32_t n = q->count[cur_b];
        const int32_t *in = q->pool + (ptrdiff_t)cur_b * q->cap;
        if (n > 0 && cur + s <= q->limit &&
            !ring_pass(q, in, n, cur, ring_bucket(q, cur_b, s), 0, framed, checked))
            return 0;
        if (n > 0 && eight && cur + d <= q->limit &&
            !ring_pass(q, in, n, cur, ring_bucket(q, cur_b, d), 1, framed, checked))
            return 0;
        if (n > 0)
            ring_settled(q, in, n, cur, framed, checked);
        q->count[cur_b] = 0;
        if (dial_pending(q))
        {
            cur++;
            cur_b = ring_bucket(q, cur_b, 1);
        }
        else if (pos < m)
        {
            cur = SRC_COST(src[pos]);
            cur_b = cur % q->nb;
        }
        else
            return 1;
    }
}

/* Open cells never reached (still RING_OPEN) to -1. */
static void ring_unreached(int32_t *dist, size_t n)
{
    uint32_t *d = (uint32_t *)dist;
    size_t i = 0;
    /* branch-free (RING_OPEN + 1 alone sets the top bit), in blocks of a
     * constant length that compilers vectorise at -O2 */
    for (; i + 16 <= n; i += 16)
        for (int j = 0; j < 16; j++)
            d[i + j] |= (d[i + j] + 1) & 0x80000000u;
    for (; i < n; i++)
        d[i] |= (d[i] + 1) & 0x80000000u;
}

/* Stable LSD radix sort of the source list by cost (the high 32 bits) through
 * tmp; passes whose byte is the same for every entry are skipped. */
static void sort_sources(uint64_t *list, uint64_t *tmp, int32_t m)
{
    uint64_t *from = list, *to = tmp;
    for (int shift = 32; shift < 64; shift += 8)
    {
        int32_t count[257] = {0};
        for (int32_t j = 0; j < m; j++)
            count[((from[j] >> shift) & 0xFF) + 1]++;
        if (count[((from[0] >> shift) & 0xFF) + 1] == m)
            continue;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (int32_t j = 0; j < m; j++)
            to[count[(from[j] >> shift) & 0xFF]++] = from[j];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != list)
        memcpy(list, from, (size_t)m * sizeof *list);
}

/* The passable tiles as at most FILL_RUNS runs of consecutive values
 * (tile - lo < len, unsigned), so that filling dist compares instead of
 * looking up; 0 if they take more runs. `open` NULL: none passable. */
#define FILL_RUNS 4
static int fill_runs(const uint8_t *open, uint8_t *lo, uint8_t *len)
{
    int runs = 0;
    memset(lo, 0, FILL_RUNS);
    memset(len, 0, FILL_RUNS);
    for (int t = 0; open && t < 256; t++)
    {
        if (!open[t])
            continue;
        if (t > 0 && open[t - 1])
        {
            if (len[runs - 1] == 255)
                return 0;
            len[runs - 1]++;
            continue;
        }
        if (runs == FILL_RUNS)
            return 0;
        lo[runs] = (uint8_t)t;
        len[runs++] = 1;
    }
    return 1;
}

/* 1 if tile t lies in one of the runs (lo, len). */
#define IN_RUNS(t)                                                                     \
    (((uint8_t)((t)-lo0) < len0) | ((uint8_t)((t)-lo1) < len1) |                       \
     ((uint8_t)((t)-lo2) < len2) | ((uint8_t)((t)-lo3) < len3))

/* One row of dist from its tiles, RING_OPEN where in the runs, else -1;
 * returns how many are. The blocks of 16 compile to vector code at -O2. */
static uint32_t fill_row(const uint8_t *row, int32_t *out, int32_t width, const uint8_t *lo,
                         const uint8_t *len)
{
    const uint8_t lo0 = lo[0], lo1 = lo[1], lo2 = lo[2], lo3 = lo[3];
    const uint8_t len0 = len[0], len1 = len[1], len2 = len[2], len3 = len[3];
    uint32_t open_cells = 0;
    int32_t x = 0;
    for (; x + 16 <= width; x += 16)
    {
        uint8_t open[16], count = 0;
        for (int j = 0; j < 16; j++)
            open[j] = (uint8_t)IN_RUNS(row[x + j]);
        for (int j = 0; j < 16; j++)
        {
            out[x + j] = (int32_t)~((uint32_t)open[j] << 31); /* INT32_MAX or -1 */
            count = (uint8_t)(count + open[j]);
        }
        open_cells += count;
    }
    for (; x < width; x++)
    {
        uint8_t o = (uint8_t)IN_RUNS(row[x]);
        out[x] = (int32_t)~((uint32_t)o << 31);
        open_cells += o;
    }
    return open_cells;
}

/* dist = -1 (`open` NULL), or -1 on walls and RING_OPEN on the open cells;
 * returns the number of open cells. */
static int32_t dial_fill(const dgi_move *w, const uint8_t *open, int32_t *dist)
{
    uint8_t lo[FILL_RUNS], len[FILL_RUNS];
    int runs = fill_runs(open, lo, len); /* `open` NULL: no runs, every cell -1 */
    uint32_t open_cells = 0;
    for (int32_t y = 0; y < w->height; y++)
    {
        const uint8_t *row = &DG_CELL(w, 0, y);
        int32_t *out = dist + (size_t)y * (size_t)w->width;
        if (runs)
        {
            open_cells += fill_row(row, out, w->width, lo, len);
            continue;
        }
        for (int32_t x = 0; x < w->width; x++)
        {
            out[x] = (int32_t)~((uint32_t)open[row[x]] << 31);
            open_cells += open[row[x]];
        }
    }
    return (int32_t)open_cells;
}

/* Each source's least start cost written into dist (filled, `open` as
 * there). list gets the distinct sources within the limit as
 * (cost << 32) | packed cell, sorted by cost; -1 if a source is on a wall
 * with `open` (the plain ring reads walls from dist). */
static int32_t dial_sources(const dgi_move *w, const uint8_t *open, const dg_point *sources,
                            const int32_t *start, int32_t count, int32_t limit, int32_t *dist,
                            uint64_t *list, uint64_t *tmp)
{
    const int32_t blank = open ? RING_OPEN : DG_UNREACHABLE;
    int32_t m = 0;
    for (int32_t k = 0; k < count; k++)
    {
        int32_t c = start ? start[k] : 0, i = sources[k].y * w->width + sources[k].x;
        if (open && dist[i] == DG_UNREACHABLE)
            return -1;
        if (c > limit)
            continue;
        if (dist[i] == blank)
            list[m++] = (uint64_t)(uint32_t)DGI_PACK(sources[k].x, sources[k].y);
        if (dist[i] == blank || c < dist[i])
            dist[i] = c;
    }
    for (int32_t j = 0; j < m; j++)
    {
        int32_t p = SRC_CELL(list[j]);
        list[j] |= (uint64_t)(uint32_t)dist[DGI_PY(p) * w->width + DGI_PX(p)] << 32;
    }
    if (costs_vary(start, count))
        sort_sources(list, tmp, m);
    return m;
}

/* The largest step the map can take; the extra-cost mask is read for its
 * largest value over passable cells, so small extras keep the ring small. */
static int64_t dial_max_step(const dgi_move *w)
{
    if (!w->extra)
        return w->max_step;
    int32_t tile_max = 1, extra_max = 0;
    for (int t = 0; t < 256; t++)
        if (w->pass[t] && w->cost)
            tile_max = DG_MAX(tile_max, (int32_t)w->cost[t]);
    for (int32_t y = 0; y < w->height && extra_max < 255; y++)
    {
        const uint8_t *row = &DG_CELL(w, 0, y), *e = &DGI_MASK(w, w->extra, 0, y);
        for (int32_t x = 0; x < w->width; x++)
            if (w->pass[row[x]] && e[x] > extra_max)
                extra_max = e[x];
    }
    return (int64_t)(tile_max + extra_max) * DG_MAX(w->straight, w->diagonal);
}

/* 1 if no cell on the grid's border is passable: then no step from an open
 * cell leaves the grid. */
static int border_closed(const dgi_move *w, const uint8_t *open)
{
    for (int32_t x = 0; x < w->width; x++)
        if (open[DG_CELL(w, x, 0)] || open[DG_CELL(w, x, w->height - 1)])
            return 0;
    for (int32_t y = 0; y < w->height; y++)
        if (open[DG_CELL(w, 0, y)] || open[DG_CELL(w, w->width - 1, y)])
            return 0;
    return 1;
}

/* The plain ring's run, specialised; RING_OPEN left on open cells it never
 * reached becomes -1. */
static int ring_run(dial *q, const uint64_t *list, int32_t m, int32_t start_varies)
{
    const dgi_move *w = q->w;
    int eight = w->neighbours == 8, framed = border_closed(w, q->open);
    /* a diagonal at most one more than a straight step: never undercut */
    int checked = start_varies || (eight && w->diagonal > w->straight + 1), ok;
    /* constant arguments make three loops: checked, and plain framed or not */
    if (checked)
        ok = eight ? ring_loop(q, list, m, 1, framed, 1) : ring_loop(q, list, m, 0, framed, 1);
    else if (framed)
        ok = eight ? ring_loop(q, list, m, 1, 1, 0) : ring_loop(q, list, m, 0, 1, 0);
    else
        ok = eight ? ring_loop(q, list, m, 1, 0, 0) : ring_loop(q, list, m, 0, 0, 0);
    if (ok && q->settled < q->open_cells) /* else every open cell got a distance */
        ring_unreached(q->dist, (size_t)w->width * (size_t)w->height);
    if (ok && framed)
        q->last = DGI_PACK(q->last % w->width, q->last / w->width);
    return ok;
}

/* Dial's algorithm into dist; 0 if it does not apply or a bucket overflowed
 * (dist is then rewritten by the caller). */
static int dial_map(dg_path_workspace *ws, const dgi_move *w, const dg_point *sources,
                    const int32_t *start, int32_t count, int32_t max_distance, int32_t *dist,
                    dg_distance_info *info)
{
    int64_t max_step = dial_max_step(w);
    if (max_step + 1 > DIAL_MAX_BUCKETS)
        return 0;
    int eight = w->neighbours == 8, costs = w->cost != NULL, ov = w->blocked || w->extra;
    /* the plain ring: one weight per step kind, straight before diagonal */
    int plain = !ov && !costs && !(eight && w->straight == w->diagonal);
    uint8_t open[256];
    for (int t = 0; t < 256; t++)
        open[t] = w->pass[t] != 0;
    dial q;
    memset(&q, 0, sizeof q);
    q.w = w;
    q.dist = dist;
    q.open = open;
    q.limit = max_distance > 0 ? max_distance : INT32_MAX;
    q.nb = (int32_t)max_step + 1;
    /* The pool: heap_key, link_a, link_b and g, five int32 a cell; the sorted
     * sources first (and their sort's scratch, as long as it lasts). */
    int64_t pool = 5 * (int64_t)ws->capacity;
    uint64_t *list = ws->heap_key;
    q.open_cells = dial_fill(w, plain ? open : NULL, dist);
    int32_t m = dial_sources(w, plain ? open : NULL, sources, start, count, q.limit, dist, list,
                             list + (size_t)w->width * w->height);
    if (m < 0)
        return 0;
    q.pool = (int32_t *)(list + m);
    q.cap = (int32_t)DG_MIN((pool - 2 * (int64_t)m) / q.nb, (int64_t)INT32_MAX);
    q.soft = q.cap - 9;
    q.last = DGI_PACK(sources[0].x, sources[0].y);
    if (m > 0 && q.cap >= 16)
    {
        int ok;
        if (plain)
            ok = ring_run(&q, list, m, costs_vary(start, count));
        else
            ok = ov ? dial_loop(&q, list, m, eight, costs, 1)
                    : eight ? dial_loop(&q, list, m, 1, 1, 0) : dial_loop(&q, list, m, 0, 1, 0);
        if (!ok)
            return 0;
    }
    else if (m > 0)
        return 0;
    else if (plain && q.open_cells > 0)
        ring_unreached(dist, (size_t)w->width * (size_t)w->height);
    if (info)
    {
        info->reached = q.settled;
        info->farthest.x = DGI_PX(q.last);
        info->farthest.y = DGI_PY(q.last);
        info->max_distance = q.settled ? dist[DGI_PY(q.last) * w->width + DGI_PX(q.last)]
                                       : DG_UNREACHABLE;
    }
    return 1;
}

void dgi_dijkstra_map(dg_path_workspace *ws, const dgi_move *w, const dg_point *sources,
                      const int32_t *start_costs, int32_t source_count, int32_t max_distance,
                      int32_t *dist, dg_distance_info *info)
{
    int zero = 1; /* every start cost 0: breadth-first search when steps are unit */
    for (int32_t k = 0; start_costs && k < source_count && zero; k++)
        zero = start_costs[k] == 0;
    if (w->unit && zero)
        dgi_bfs_move(w, sources, source_count, max_distance, dist, ws->link_a, info);
    else if (!dial_map(ws, w, sources, start_costs, source_count, max_distance, dist, info))
        search_map(ws, w, sources, start_costs, source_count, max_distance, dist, info);
}

/* ---- dg_path_find ------------------------------------------------------------ */

static dg_status path_check_args(const dgi_move *w, dg_point from, dg_point to,
                                 const dg_point *path, int32_t path_cap, const int32_t *length,
                                 dg_diag *diag)
{
    dg_status st = dgi_move_check_cell(w, from, "path start", diag);
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

dg_status dg_path_find(const dg_grid *grid, const dg_move *move, dg_point from, dg_point to,
                       dg_path_workspace *workspace, dg_point *path, int32_t path_cap,
                       int32_t *length, int32_t *cost, dg_diag *diag)
{
    dgi_move w;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = path_check_args(&w, from, to, path, path_cap, length, diag);
    if (st == DG_OK)
        st = dgi_move_check_range(&w, 0, 0, diag);
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
    search_start(&s, ws, &w, &from, NULL, 1, DGI_PACK(to.x, to.y), 0);
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
