/* Whole-grid scans shared by the analysis functions and the generators: walk
 * rules, breadth-first search, region labelling, dead ends. */
#include "analysis/analysis.h"

const int8_t dgi_dir_dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
const int8_t dgi_dir_dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

const uint8_t dgi_passable_default[256] = {
    [DG_TILE_FLOOR] = 1,      [DG_TILE_CORRIDOR] = 1,    [DG_TILE_DOOR] = 1,
    [DG_TILE_TRAP] = 1,       [DG_TILE_STAIRS_UP] = 1,   [DG_TILE_STAIRS_DOWN] = 1,
    [DG_TILE_DOOR_LOCKED] = 1, [DG_TILE_DOOR_SECRET] = 1,
};

void dgi_move_basic(dgi_move *w, const dg_grid *g, const uint8_t *passable)
{
    w->cells = g->cells;
    w->width = g->width;
    w->height = g->height;
    w->stride = g->stride;
    w->neighbours = 4;
    w->corner_cutting = 0;
    w->straight = w->diagonal = 1;
    w->unit = 1;
    w->min_cost = 1;
    w->max_step = 1;
    w->pass = passable ? passable : dgi_passable_default;
    w->cost = NULL;
    w->blocked = w->extra = NULL;
    w->mask_stride = g->stride;
}

/* Here, beside the movement rules, so that the analysis files above (analyze.c,
 * path.c, fov.c, metrics.c) all call down into this one and never back. */
void dg_move_defaults(dg_move *move)
{
    if (!move)
        return;
    memset(move, 0, sizeof *move);
    move->neighbours = 4;
    move->straight_weight = 1;
    move->diagonal_weight = 1;
    move->size = 1;
}

static dg_status walk_check_rule(const dg_move *r, dg_diag *diag)
{
    if (r->neighbours != 4 && r->neighbours != 8)
        return dgi_fail(diag, DG_E_INVALID, "walk neighbours is %d: must be 4 or 8",
                        (int)r->neighbours);
    if (r->corner_cutting != 0 && r->corner_cutting != 1)
        return dgi_fail(diag, DG_E_INVALID, "walk corner_cutting is %d: must be 0 or 1",
                        (int)r->corner_cutting);
    if (r->straight_weight < 1 || r->straight_weight > 1000)
        return dgi_fail(diag, DG_E_INVALID, "walk straight_weight is %d: must be 1..1000",
                        (int)r->straight_weight);
    if (r->diagonal_weight < r->straight_weight || r->diagonal_weight > 1000)
        return dgi_fail(diag, DG_E_INVALID,
                        "walk diagonal_weight is %d: must be straight_weight (%d)..1000",
                        (int)r->diagonal_weight, (int)r->straight_weight);
    if (r->size < 0 || r->size > DG_CREATURE_SIZE_MAX)
        return dgi_fail(diag, DG_E_INVALID, "walk size is %d: must be 1..%d (0: 1)", (int)r->size,
                        DG_CREATURE_SIZE_MAX);
    return DGI_SPARE_CHECK(r->spare, "move", diag);
}

static const char *overlay_first_mask(uint32_t flags)
{
    return flags & DG_OVERLAY_BLOCKED ? "blocked" : flags & DG_OVERLAY_COST ? "extra_cost" : "sight";
}

static dg_status overlay_check_masks(const dg_overlay *o, dg_diag *diag)
{
    static const struct {
        uint32_t flag;
        const char *name;
    } masks[3] = {{DG_OVERLAY_BLOCKED, "blocked"}, {DG_OVERLAY_COST, "extra_cost"},
                  {DG_OVERLAY_SIGHT, "sight"}};
    const uint8_t *ptr[3] = {o->blocked, o->extra_cost, o->sight};
    for (int k = 0; k < 3; k++)
        if ((o->flags & masks[k].flag) && !ptr[k])
            return dgi_fail(diag, DG_E_INVALID, "overlay %s mask is NULL but its flag is set",
                            masks[k].name);
    return DG_OK;
}

dg_status dgi_overlay_check(const dg_grid *g, const dg_overlay *o, int32_t *stride, dg_diag *diag)
{
    const uint32_t known = DG_OVERLAY_BLOCKED | DG_OVERLAY_COST | DG_OVERLAY_SIGHT;
    *stride = g->stride;
    if (!o || !o->flags)
        return DG_OK; /* nothing flagged: nothing is read */
    if (o->flags & ~known)
        return dgi_fail(diag, DG_E_INVALID, "overlay flags 0x%x hold unknown bits 0x%x",
                        (unsigned)o->flags, (unsigned)(o->flags & ~known));
    dg_status st = overlay_check_masks(o, diag);
    if (st != DG_OK)
        return st;
    int32_t s = o->stride ? o->stride : g->stride;
    if (s < g->width)
        return dgi_fail(diag, DG_E_INVALID, "overlay stride %d is below the grid width %d",
                        (int)o->stride, (int)g->width);
    uint64_t need = (uint64_t)(g->height - 1) * (uint64_t)s + (uint64_t)g->width;
    if ((uint64_t)o->cells < need)
        return dgi_fail(diag, DG_E_BUFFER,
                        "overlay %s mask has %zu cells: a %dx%d grid at mask stride %d needs %llu",
                        overlay_first_mask(o->flags), o->cells, (int)g->width, (int)g->height,
                        (int)s, (unsigned long long)need);
    *stride = s;
    return DG_OK;
}

/* Resolves the walk's overlay into w (after its rule and costs). */
static dg_status walk_resolve_overlay(dgi_move *w, const dg_grid *g, const dg_overlay *o,
                                      int32_t max_cost, dg_diag *diag)
{
    dg_status st = dgi_overlay_check(g, o, &w->mask_stride, diag);
    if (st != DG_OK || !o)
        return st;
    w->blocked = o->flags & DG_OVERLAY_BLOCKED ? o->blocked : NULL;
    w->extra = o->flags & DG_OVERLAY_COST ? o->extra_cost : NULL;
    if (w->extra) /* any cell may add up to 255 */
        w->max_step = ((int64_t)max_cost + 255) * DG_MAX(w->straight, w->diagonal);
    w->unit = w->max_step == 1;
    return DG_OK;
}

dg_status dgi_move_init(dgi_move *w, const dg_grid *g, const dg_move *move, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(g, diag);
    if (st != DG_OK)
        return st;
    dg_move def;
    dg_move_defaults(&def);
    const dg_move *r = move ? move : &def;
    if ((st = walk_check_rule(r, diag)) != DG_OK)
        return st;
    dgi_move_basic(w, g, r->passable);
    w->neighbours = r->neighbours;
    w->corner_cutting = r->neighbours == 8 && r->corner_cutting;
    w->straight = r->straight_weight;
    w->diagonal = r->neighbours == 8 ? r->diagonal_weight : r->straight_weight;
    int32_t min_cost = r->cost ? 0xFFFF : 1, max_cost = 1;
    for (int t = 0; r->cost && t < 256; t++)
    {
        if (!w->pass[t])
            continue;
        if (r->cost[t] == 0)
            return dgi_fail(diag, DG_E_INVALID, "move cost of passable tile %d is 0: must be >= 1",
                            t);
        min_cost = DG_MIN(min_cost, (int32_t)r->cost[t]);
        max_cost = DG_MAX(max_cost, (int32_t)r->cost[t]);
    }
    w->cost = r->cost;
    w->min_cost = min_cost;
    w->max_step = (int64_t)max_cost * DG_MAX(w->straight, w->diagonal);
    w->unit = w->max_step == 1;
    w->size = r->size > 1 ? r->size : 1;
    return walk_resolve_overlay(w, g, r->overlay, max_cost, diag);
}

dg_status dgi_move_check_cell(const dgi_move *w, dg_point p, const char *what, dg_diag *diag)
{
    if (p.x < 0 || p.y < 0 || p.x >= w->width || p.y >= w->height)
        return dgi_fail(diag, DG_E_INVALID, "%s (%d, %d) is outside the %dx%d grid", what,
                        (int)p.x, (int)p.y, (int)w->width, (int)w->height);
    uint8_t t = DG_CELL(w, p.x, p.y);
    if (!w->pass[t])
        return dgi_fail(diag, DG_E_INVALID, "%s (%d, %d) is on an impassable tile (%s, %d)", what,
                        (int)p.x, (int)p.y, dg_tile_name(t), (int)t);
    return DG_OK;
}

dg_status dgi_check_cells_buffer(const dg_grid *g, const void *buf, size_t have, const char *what,
                                 dg_diag *diag)
{
    size_t need = (size_t)g->width * (size_t)g->height;
    if (!buf)
        return dgi_fail(diag, DG_E_NULL, "%s buffer is NULL", what);
    if (have < need)
        return dgi_fail(diag, DG_E_BUFFER, "%s buffer has %zu entries: %dx%d grid needs %zu", what,
                        have, (int)g->width, (int)g->height, need);
    return DG_OK;
}

static int passable_at(const dgi_move *w, int32_t x, int32_t y)
{
    return (uint32_t)x < (uint32_t)w->width && (uint32_t)y < (uint32_t)w->height &&
           w->pass[DG_CELL(w, x, y)];
}

int dgi_move_step_ok(const dgi_move *w, int32_t x, int32_t y, int d)
{
    int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
    if (!passable_at(w, nx, ny))
        return 0;
    if (d < 4 || w->corner_cutting)
        return 1;
    return passable_at(w, nx, y) && passable_at(w, x, ny);
}

/* Visits the neighbour at the given offsets if `inside` the grid, passable,
 * allowed by `rule` (diagonals) and new; ok gets whether it is passable.
 * Branch-free past the bounds test: passability and novelty are coin flips
 * the predictor cannot learn, so the distance is always written (unchanged
 * when the cell is not new) and the queue slot is kept only when it was.
 * With `blk`, a blocked cell is open only once reached (a source). */
#define BFS_VISIT(ok, inside, rule, cell_off, dist_off, mask_off, poff)        \
    do {                                                                       \
        (ok) = 0;                                                              \
        if (inside)                                                            \
        {                                                                      \
            int32_t old = here[(dist_off)];                                    \
            (ok) = pass[cell[(cell_off)]];                                     \
            if (blk)                                                           \
                (ok) &= (bm[(mask_off)] == 0) | (old >= 0);                    \
            int fresh = (ok) & (rule) & (old < 0);                             \
            here[(dist_off)] = fresh ? nd : old;                               \
            queue[tail] = p + (poff);                                          \
            tail += fresh;                                                     \
        }                                                                      \
    } while (0)

/* Passable, and not blocked unless reached already (a source). */
static int bfs_open(const dgi_move *w, const int32_t *dist, int32_t x, int32_t y)
{
    if (!passable_at(w, x, y))
        return 0;
    return !w->blocked || !DGI_MASK(w, w->blocked, x, y) || dist[y * w->width + x] >= 0;
}

static int bfs_step_ok(const dgi_move *w, const int32_t *dist, int32_t x, int32_t y, int d)
{
    int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
    if (!bfs_open(w, dist, nx, ny))
        return 0;
    if (d < 4 || w->corner_cutting)
        return 1;
    return bfs_open(w, dist, nx, y) && bfs_open(w, dist, x, ny);
}

/* The generic step loop, for the last few queue slots. */
static int32_t bfs_visit_slow(const dgi_move *w, int32_t *dist, int32_t *queue, int32_t tail,
                              int32_t p, int32_t nd)
{
    int32_t x = DGI_PX(p), y = DGI_PY(p);
    for (int d = 0; d < w->neighbours; d++)
    {
        if (!bfs_step_ok(w, dist, x, y, d))
            continue;
        int32_t ni = (y + dgi_dir_dy[d]) * w->width + x + dgi_dir_dx[d];
        if (dist[ni] < 0)
        {
            dist[ni] = nd;
            queue[tail++] = DGI_PACK(x + dgi_dir_dx[d], y + dgi_dir_dy[d]);
        }
    }
    return tail;
}

/* The search loop, inlined with constant `eight` and `blk` (blocked mask)
 * so the plain 4-way loop keeps its few offsets in registers. */
static DGI_ALWAYS_INLINE int32_t bfs_run(const dgi_move *w, const uint8_t *pass,
                                         int32_t max_distance, int32_t *dist, int32_t *queue,
                                         int32_t tail, const int eight, const int blk)
{
    const uint8_t *cells = w->cells;
    const int32_t width = w->width, height = w->height, n = width * height;
    const ptrdiff_t stride = w->stride, ms = w->mask_stride;
    const int cut = w->corner_cutting;
    const int32_t up = -(1 << 15), down = 1 << 15;
    int32_t head = 0;
    while (head < tail)
    {
        int32_t p = queue[head++], x = DGI_PX(p), y = DGI_PY(p);
        int32_t *here = dist + (ptrdiff_t)y * width + x, nd = here[0] + 1;
        const uint8_t *cell = cells + (ptrdiff_t)y * stride + x;
        const uint8_t *bm = blk ? w->blocked + (ptrdiff_t)y * ms + x : NULL;
        if (max_distance > 0 && nd > max_distance)
            continue;
        if (tail > n - 8) /* the branch-free visits write a slot past the tail */
        {
            tail = bfs_visit_slow(w, dist, queue, tail, p, nd);
            continue;
        }
        int on, oe, os, ow, unused;
        const int top = y > 0, right = x + 1 < width, bottom = y + 1 < height, left = x > 0;
        BFS_VISIT(on, top, 1, -stride, -width, -ms, up);
        BFS_VISIT(oe, right, 1, 1, 1, 1, 1);
        BFS_VISIT(os, bottom, 1, stride, width, ms, down);
        BFS_VISIT(ow, left, 1, -1, -1, -1, -1);
        if (!eight)
            continue;
        BFS_VISIT(unused, top && right, cut | (on & oe), 1 - stride, 1 - width, 1 - ms, up + 1);
        BFS_VISIT(unused, bottom && right, cut | (os & oe), 1 + stride, 1 + width, 1 + ms,
                  down + 1);
        BFS_VISIT(unused, bottom && left, cut | (os & ow), stride - 1, width - 1, ms - 1,
                  down - 1);
        BFS_VISIT(unused, top && left, cut | (on & ow), -1 - stride, -1 - width, -1 - ms, up - 1);
        (void)unused;
    }
    return tail;
}

void dgi_bfs_move(const dgi_move *w, const dg_point *sources, int32_t source_count,
                  int32_t max_distance, int32_t *dist, int32_t *queue, dg_distance_info *info)
{
    const int32_t width = w->width, n = width * w->height;
    uint8_t pass[256]; /* a 0/1 copy the visits can combine with & */
    for (int t = 0; t < 256; t++)
        pass[t] = w->pass[t] != 0;
    for (int32_t i = 0; i < n; i++)
        dist[i] = -1;
    int32_t tail = 0;
    for (int32_t s = 0; s < source_count; s++)
    {
        int32_t di = sources[s].y * width + sources[s].x;
        if (dist[di] < 0)
        {
            dist[di] = 0;
            queue[tail++] = DGI_PACK(sources[s].x, sources[s].y);
        }
    }
    if (w->blocked)
        tail = w->neighbours == 8 ? bfs_run(w, pass, max_distance, dist, queue, tail, 1, 1)
                                  : bfs_run(w, pass, max_distance, dist, queue, tail, 0, 1);
    else if (w->neighbours == 8)
        tail = bfs_run(w, pass, max_distance, dist, queue, tail, 1, 0);
    else
        tail = bfs_run(w, pass, max_distance, dist, queue, tail, 0, 0);
    if (info)
    {
        int32_t last = queue[tail - 1]; /* breadth-first: the last queued is the farthest */
        info->reached = tail;
        info->farthest.x = DGI_PX(last);
        info->farthest.y = DGI_PY(last);
        info->max_distance = dist[DGI_PY(last) * width + DGI_PX(last)];
    }
}

/* Union-find root of i: labels hold a parent index (always smaller than the
 * child) or, at a root, minus the region size. Path halving keeps trees flat. */
static int32_t uf_find(int32_t *l, int32_t i)
{
    while (l[i] >= 0)
    {
        int32_t p = l[i];
        if (l[p] >= 0)
            l[i] = l[p];
        i = p;
    }
    return i;
}

static void uf_union(int32_t *l, int32_t a, int32_t b)
{
    a = uf_find(l, a);
    b = uf_find(l, b);
    if (a == b)
        return;
    if (a > b)
    {
        int32_t t = a;
        a = b;
        b = t;
    }
    l[a] += l[b];
    l[b] = a; /* the smaller index stays the root: the region's first cell */
}

#define UF_WALL INT32_MIN

/* The union pass, inlined with a constant `blk`: blocked cells are walls. */
static DGI_ALWAYS_INLINE void regions_union(const dgi_move *w, int32_t *l, const int blk)
{
    const int32_t width = w->width, height = w->height;
    /* Corner cutting is the only way a diagonal step joins cells that are not
     * already joined through an orthogonal neighbour. */
    const int diag = w->corner_cutting;
    for (int32_t y = 0; y < height; y++)
    {
        const uint8_t *row = &DG_CELL(w, 0, y);
        const uint8_t *brow = blk ? &DGI_MASK(w, w->blocked, 0, y) : NULL;
        int32_t *lr = l + (size_t)y * (size_t)width;
        for (int32_t x = 0; x < width; x++)
        {
            if (!w->pass[row[x]] || (blk && brow[x]))
            {
                lr[x] = UF_WALL;
                continue;
            }
            int32_t i = y * width + x;
            lr[x] = -1;
            if (x > 0 && lr[x - 1] != UF_WALL)
                uf_union(l, i - 1, i);
            if (y > 0 && lr[x - width] != UF_WALL)
                uf_union(l, i - width, i);
            if (diag && y > 0 && x > 0 && lr[x - width - 1] != UF_WALL)
                uf_union(l, i - width - 1, i);
            if (diag && y > 0 && x + 1 < width && lr[x - width + 1] != UF_WALL)
                uf_union(l, i - width + 1, i);
        }
    }
}

int32_t dgi_regions_move(const dgi_move *w, int32_t *l, int32_t *sizes, int32_t sizes_cap,
                         int32_t *largest)
{
    const int32_t width = w->width, height = w->height;
    if (w->blocked)
        regions_union(w, l, 1);
    else
        regions_union(w, l, 0);
    /* Roots are first cells, so row-major order meets each root before its
     * members, whose parents (smaller indices) already hold final labels. */
    int32_t count = 0, best = -1, best_size = 0;
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++)
    {
        int32_t v = l[i];
        if (v == UF_WALL)
            l[i] = -1;
        else if (v < 0)
        {
            if (-v > best_size)
            {
                best_size = -v;
                best = count;
            }
            if (sizes && count < sizes_cap)
                sizes[count] = -v;
            l[i] = count++;
        }
        else
            l[i] = l[v];
    }
    if (largest)
        *largest = best;
    return count;
}

int32_t dgi_dead_ends_move(const dgi_move *w)
{
    int32_t count = 0;
    for (int32_t y = 0; y < w->height; y++)
        for (int32_t x = 0; x < w->width; x++)
        {
            if (!w->pass[DG_CELL(w, x, y)])
                continue;
            int n = passable_at(w, x, y - 1) + passable_at(w, x + 1, y) +
                    passable_at(w, x, y + 1) + passable_at(w, x - 1, y);
            count += n == 1;
        }
    return count;
}

dg_status dgi_scratch_get(dgi_scratch *s, const dg_grid *g, int with_mark,
                          const dg_allocator *allocator, dg_diag *diag)
{
    s->n = (size_t)g->width * (size_t)g->height;
    s->a = dgi_alloc(allocator, s->n * sizeof(int32_t));
    s->b = dgi_alloc(allocator, s->n * sizeof(int32_t));
    s->c = dgi_alloc(allocator, s->n * sizeof(int32_t));
    s->it = dgi_alloc(allocator, s->n);
    s->mark = with_mark ? dgi_alloc(allocator, s->n) : NULL;
    if (s->a && s->b && s->c && s->it && (s->mark || !with_mark))
        return DG_OK;
    dgi_scratch_free(s, allocator);
    return dgi_fail(diag, DG_E_NOMEM, "cannot allocate scratch for a %dx%d grid", (int)g->width,
                    (int)g->height);
}

void dgi_scratch_free(dgi_scratch *s, const dg_allocator *allocator)
{
    dgi_free(allocator, s->a, s->n * sizeof(int32_t));
    dgi_free(allocator, s->b, s->n * sizeof(int32_t));
    dgi_free(allocator, s->c, s->n * sizeof(int32_t));
    dgi_free(allocator, s->it, s->n);
    dgi_free(allocator, s->mark, s->n);
}

/* ---- the helpers the generators use (library passability, 4-way) ---------- */

int32_t dgi_bfs(const dg_grid *g, int32_t start, int32_t *dist, int32_t *queue)
{
    dgi_move w;
    dgi_move_basic(&w, g, NULL);
    dg_point source = {start % g->width, start / g->width};
    dg_distance_info info;
    dgi_bfs_move(&w, &source, 1, 0, dist, queue, &info);
    return info.farthest.y * g->width + info.farthest.x;
}

int32_t dgi_label_regions(const dg_grid *g, int32_t *label, int32_t *queue)
{
    (void)queue; /* union-find needs no queue */
    dgi_move w;
    dgi_move_basic(&w, g, NULL);
    return dgi_regions_move(&w, label, NULL, 0, NULL);
}

int32_t dgi_count_dead_ends(const dg_grid *g)
{
    dgi_move w;
    dgi_move_basic(&w, g, NULL);
    return dgi_dead_ends_move(&w);
}

int32_t dgi_walk_from(const dgi_move *w, dg_point from, int32_t *dist, int32_t *queue)
{
    const int32_t width = w->width, height = w->height;
    for (int32_t y = 0; y < height; y++) /* -1: open, not reached yet; -2: shut */
    {
        const uint8_t *row = w->cells + (ptrdiff_t)y * w->stride;
        int32_t *d = dist + (ptrdiff_t)y * width;
        for (int32_t x = 0; x < width; x++)
            d[x] = w->pass[row[x]] ? -1 : -2;
    }
    int32_t head = 0, tail = 0;
    dist[(ptrdiff_t)from.y * width + from.x] = 0;
    queue[tail++] = DGI_PACK(from.x, from.y);
    while (head < tail)
    {
        int32_t p = queue[head++], x = DGI_PX(p), y = DGI_PY(p);
        int32_t *here = dist + (ptrdiff_t)y * width + x, nd = here[0] + 1;
        if (y > 0 && here[-width] == -1)
            here[-width] = nd, queue[tail++] = p - (1 << 15);
        if (x + 1 < width && here[1] == -1)
            here[1] = nd, queue[tail++] = p + 1;
        if (y + 1 < height && here[width] == -1)
            here[width] = nd, queue[tail++] = p + (1 << 15);
        if (x > 0 && here[-1] == -1)
            here[-1] = nd, queue[tail++] = p - 1;
    }
    return tail;
}

/* d[x] = -1 for the passable tiles of a row of w cells, -2 for the others,
 * eight at a time (the lanes' bytes read back in memory order). */
static void walk_row(const uint8_t *cells, int32_t w, int32_t *d)
{
    int32_t x = 0;
    for (; x + 8 <= w; x += 8)
    {
        uint8_t open[8];
        uint64_t lanes = dgi_passable_lanes(dgi_load8(cells + x));
        memcpy(open, &lanes, sizeof open);
        for (int k = 0; k < 8; k++)
            d[x + k] = (int32_t)open[k] - 2;
    }
    for (; x < w; x++)
        d[x] = dgi_passable_default[cells[x]] ? -1 : -2;
}

/* 1 if every cell of the grid's outer ring is shut in dist (-2). */
static int ring_shut(const int32_t *dist, int32_t width, int32_t height)
{
    const int32_t *last = dist + (ptrdiff_t)(height - 1) * width;
    for (int32_t x = 0; x < width; x++)
        if (dist[x] != -2 || last[x] != -2)
            return 0;
    for (int32_t y = 1; y < height - 1; y++)
        if (dist[(ptrdiff_t)y * width] != -2 || dist[(ptrdiff_t)y * width + width - 1] != -2)
            return 0;
    return 1;
}

int32_t dgi_walk_from_walled(const dgi_move *w, dg_point from, int32_t *dist, int32_t *queue)
{
    const int32_t width = w->width, height = w->height;
    if (width < 3 || height < 3)
        return dgi_walk_from(w, from, dist, queue);
    if (w->pass == dgi_passable_default) /* the library's tiles: eight at a time */
        for (int32_t y = 0; y < height; y++)
            walk_row(w->cells + (ptrdiff_t)y * w->stride, width, dist + (ptrdiff_t)y * width);
    else
        for (int32_t y = 0; y < height; y++) /* -1: open, not reached yet; -2: shut */
        {
            const uint8_t *row = w->cells + (ptrdiff_t)y * w->stride;
            int32_t *d = dist + (ptrdiff_t)y * width;
            for (int32_t x = 0; x < width; x++)
                d[x] = w->pass[row[x]] ? -1 : -2;
        }
    if (!ring_shut(dist, width, height) || dist[(ptrdiff_t)from.y * width + from.x] != -1)
        return dgi_walk_from(w, from, dist, queue); /* (a shut start: as it does) */
    /* the ring is shut, so no cell the walk reaches is on it and each of
     * its 4 neighbours is a cell of the grid: plain cell indices, no bounds */
    int32_t head = 0, tail = 0, start = from.y * width + from.x;
    dist[start] = 0;
    queue[tail++] = start;
    /* one distance at a time (the queue holds the cells at nd - 1 up to
     * end): nd in a register, not read back from the cell just popped */
    for (int32_t nd = 1; head < tail; nd++)
        for (const int32_t end = tail; head < end; head++)
        {
            int32_t c = queue[head], *here = dist + c;
            if (here[-width] == -1)
                here[-width] = nd, queue[tail++] = c - width;
            if (here[1] == -1)
                here[1] = nd, queue[tail++] = c + 1;
            if (here[width] == -1)
                here[width] = nd, queue[tail++] = c + width;
            if (here[-1] == -1)
                here[-1] = nd, queue[tail++] = c - 1;
        }
    return tail;
}

int32_t dgi_walk_default(const dg_grid *g, dg_point from, int32_t *dist, int32_t *queue)
{
    dgi_move basic;
    dgi_move_basic(&basic, g, NULL);
    return dgi_walk_from_walled(&basic, from, dist, queue);
}
