/* How shippable a map is (dg_survey_map): the figures `dungeon --survey`
 * tabulates and the quality tests check, measured on the tiles and the
 * result's rooms, start and exit only, so every generator is judged alike
 * (docs/quality.md). */
#include "analysis/analysis.h"

#define OPEN(v, x, y) (DGI_VIEW(v, x, y) & DGI_V_OPEN)

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height &&
           dgi_passable_default[DG_CELL(g, x, y)];
}

static int in_rect(dg_rect q, int32_t x, int32_t y)
{
    return x >= q.x && y >= q.y && (int64_t)x < (int64_t)q.x + q.w && (int64_t)y < (int64_t)q.y + q.h;
}

static int room_at(const dg_result *r, dg_point p)
{
    if (!r || r->room_count == 0)
        return 1;
    for (int32_t i = 0; i < r->room_count; i++)
        if (in_rect(r->rooms[i].rect, p.x, p.y))
            return 1;
    return 0;
}

/* A door leads somewhere when it is off the ring with open cells on two opposite sides. */
static int door_leads(const dgi_view *v, int32_t x, int32_t y)
{
    if (x == 0 || y == 0 || x == v->width - 1 || y == v->height - 1)
        return 0;
    return (OPEN(v, x, y - 1) && OPEN(v, x, y + 1)) || (OPEN(v, x - 1, y) && OPEN(v, x + 1, y));
}

/* A corridor cell outside the rooms touching a room's open, non-door cell. */
static int doorless_join(const dgi_view *v, int32_t x, int32_t y)
{
    if (DGI_VIEW(v, x, y) & DGI_V_ROOM)
        return 0;
    for (int k = 0; k < 4; k++)
    {
        uint8_t f = DGI_VIEW(v, x + dgi_dir_dx[k], y + dgi_dir_dy[k]);
        if ((f & DGI_V_OPEN) && !(f & DGI_V_DOOR) && (f & DGI_V_ROOM))
            return 1;
    }
    return 0;
}

/* 1 if the corridor cell (x, y) has a corridor partner k cells away in
 * direction (dx, dy), with only impassable cells between them. */
static int shadowed(const dgi_view *v, int32_t x, int32_t y, int dx, int dy, int k)
{
    if (!(DGI_VIEW(v, x + dx * k, y + dy * k) & DGI_V_CORRIDOR))
        return 0;
    for (int i = 1; i < k; i++)
        if (OPEN(v, x + dx * i, y + dy * i))
            return 0;
    return 1;
}

/* A run of corridor cells with a partner ends: 3 or more count, both sides. */
static void end_pair_run(int32_t *run, int32_t *total)
{
    *total += *run >= 3 ? 2 * *run : 0;
    *run = 0;
}

/* Corridor cells in runs of 3 or more (along a row or a column) that each
 * have a partner 2 (or each 3) cells away across (south or east), in one
 * pass over the rows; columns holds 2 * width int32 of scratch. */
static int32_t parallel_runs(const dgi_view *v, int32_t *columns)
{
    int32_t total = 0;
    for (int32_t i = 0; i < 2 * v->width; i++)
        columns[i] = 0;
    for (int32_t y = 0; y < v->height; y++)
    {
        int32_t row_run[2] = {0, 0};
        for (int32_t x = 0; x < v->width; x++)
        {
            int32_t *col_run[2] = {&columns[x], &columns[v->width + x]};
            if (!(DGI_VIEW(v, x, y) & DGI_V_CORRIDOR))
            { /* most cells: end whatever runs were going on */
                if (row_run[0] | row_run[1])
                    end_pair_run(&row_run[0], &total), end_pair_run(&row_run[1], &total);
                if (*col_run[0] | *col_run[1])
                    end_pair_run(col_run[0], &total), end_pair_run(col_run[1], &total);
                continue;
            }
            for (int k = 2; k <= 3; k++)
            {
                if (shadowed(v, x, y, 0, 1, k))
                    row_run[k - 2]++;
                else
                    end_pair_run(&row_run[k - 2], &total);
                if (shadowed(v, x, y, 1, 0, k))
                    (*col_run[k - 2])++;
                else
                    end_pair_run(col_run[k - 2], &total);
            }
        }
        end_pair_run(&row_run[0], &total);
        end_pair_run(&row_run[1], &total);
    }
    for (int32_t i = 0; i < 2 * v->width; i++)
        end_pair_run(&columns[i], &total);
    return total;
}

/* 1 if a 4-neighbour of (x, y) is DG_TILE_VOID: nothing walls the map in there. */
static int beside_void(const dgi_view *v, int32_t x, int32_t y)
{
    return ((DGI_VIEW(v, x, y - 1) | DGI_VIEW(v, x + 1, y) | DGI_VIEW(v, x, y + 1) |
             DGI_VIEW(v, x - 1, y)) &
            DGI_V_VOID) != 0;
}

static void count_tiles(const dgi_view *v, dg_quality *q)
{
    for (int32_t y = 0; y < v->height; y++)
        for (int32_t x = 0; x < v->width; x++)
        {
            uint8_t f = DGI_VIEW(v, x, y);
            if ((f & DGI_V_OPEN) && (x == 0 || y == 0 || x == v->width - 1 || y == v->height - 1))
                q->border_open++;
            if (f & DGI_V_OPEN)
                q->void_open += beside_void(v, x, y);
            if (f & DGI_V_DOOR)
            {
                q->doors++;
                q->dead_doors += !door_leads(v, x, y);
            }
            if (f & DGI_V_CORRIDOR)
                q->doorless_joins += doorless_join(v, x, y);
        }
}

/* A key's or lock's number (dg_lock_place sets it), 0 for other markers. */
static int32_t marker_number(const dg_marker *m)
{
    return m->number >= 1 && m->number <= DG_LOCKS_MAX ? m->number : 0;
}

static int32_t dist_at(const dg_grid *g, const int32_t *dist, dg_point p)
{
    return is_open(g, p.x, p.y) ? dist[p.y * g->width + p.x] : -1;
}

/* Locks placed and the key nearest the start (dist: walking from the start). */
static void key_start(const dg_grid *g, const dg_result *r, const int32_t *dist, dg_quality *q)
{
    uint32_t locks = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        int32_t n = marker_number(m), d = dist_at(g, dist, m->pos);
        if (m->kind == DG_MARKER_LOCK && n > 0)
            locks |= 1u << (n - 1);
        if (m->kind == DG_MARKER_KEY && d >= 0 && (q->key_start_min < 0 || d < q->key_start_min))
            q->key_start_min = d;
    }
    for (; locks; locks &= locks - 1)
        q->locks_placed++;
}

/* How near keys lie to a door of their own lock: one walk per key, at most
 * DG_LOCKS_MAX of them (none on maps without keys). */
static void key_walks(const dg_grid *g, const dg_result *r, int32_t *dist, int32_t *queue,
                      dg_quality *q)
{
    int32_t walks = 0;
    for (int32_t i = 0; i < r->marker_count && walks < DG_LOCKS_MAX; i++)
    {
        const dg_marker *key = &r->markers[i];
        int32_t n = marker_number(key);
        if (key->kind != DG_MARKER_KEY || n == 0 || !is_open(g, key->pos.x, key->pos.y))
            continue;
        walks++;
        dgi_bfs(g, key->pos.y * g->width + key->pos.x, dist, queue);
        for (int32_t j = 0; j < r->marker_count; j++)
        {
            const dg_marker *lock = &r->markers[j];
            int32_t d = dist_at(g, dist, lock->pos);
            if (lock->kind == DG_MARKER_LOCK && marker_number(lock) == n && d >= 0 &&
                (q->key_lock_min < 0 || d < q->key_lock_min))
                q->key_lock_min = d;
        }
    }
}

/* Walk figures: unreachable cells, the route and the exit's rank. Returns a
 * cell farthest from the start (-1 without a start). */
static int32_t walk_figures(const dg_grid *g, const dg_result *r, int32_t open, int32_t *dist,
                            int32_t *queue, dg_quality *q)
{
    q->unreachable = open;
    q->route = -1;
    if (!r || !is_open(g, r->start.x, r->start.y))
        return -1;
    int32_t far = dgi_bfs(g, r->start.y * g->width + r->start.x, dist, queue);
    int32_t reached = 0, farther = 0, exit_d = -1;
    if (is_open(g, r->exit.x, r->exit.y))
        exit_d = dist[r->exit.y * g->width + r->exit.x];
    size_t n = (size_t)g->width * (size_t)g->height;
    for (size_t i = 0; i < n; i++)
        if (dist[i] >= 0)
        {
            reached++;
            farther += exit_d >= 0 && dist[i] > exit_d;
        }
    q->unreachable = open - reached;
    q->route = exit_d;
    q->exit_rank_permille = exit_d >= 0 && reached > 0 ? (int32_t)((int64_t)farther * 1000 / reached) : 1000;
    int64_t w = g->width, h = g->height, d = 1;
    while ((d + 1) * (d + 1) <= w * w + h * h)
        d++; /* integer square root: the same on every platform */
    q->route_permille = exit_d >= 0 ? (int32_t)((int64_t)exit_d * 1000 / d) : -1;
    return far;
}

/* The walking diameter of the start's region, by a second sweep from far,
 * a cell farthest from the start (dist: the walk from the start), a lower
 * bound at least the start's own eccentricity, so route <= diameter; then
 * the keys, which reuse dist. */
static void sweep_figures(const dg_grid *g, const dg_result *r, int32_t far, int32_t *dist,
                          int32_t *queue, dg_quality *q)
{
    q->diameter = q->route_diameter_permille = q->key_start_min = q->key_lock_min = -1;
    if (far < 0 || !r) /* a far cell needs a start, so a result */
        return;
    key_start(g, r, dist, q);
    far = dgi_bfs(g, far, dist, queue);
    q->diameter = dist[far];
    key_walks(g, r, dist, queue, q);
    if (q->route >= 0)
        q->route_diameter_permille = q->diameter > 0 ? (int32_t)((int64_t)q->route * 1000 / q->diameter) : 0;
}

dg_status dg_survey_map(const dg_grid *grid, const dg_result *result, dg_quality *quality,
                        const dg_allocator *allocator, dg_diag *diag)
{
    if (!quality)
        return dgi_fail(diag, DG_E_NULL, "quality is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    size_t n = (size_t)grid->width * (size_t)grid->height;
    int32_t *dist = dgi_alloc(allocator, n * sizeof *dist);
    int32_t *queue = dgi_alloc(allocator, n * sizeof *queue);
    uint8_t *view_cells = dgi_alloc(allocator, dgi_view_bytes(grid));
    int32_t *columns = dgi_alloc(allocator, 3 * (size_t)grid->width * sizeof *columns);
    dgi_cell_counts counts;
    st = dist && queue && view_cells && columns ? dgi_count_cells(grid, NULL, &counts, allocator)
                                                : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dg_quality q;
        memset(&q, 0, sizeof q);
        q.floor_permille = (int32_t)((int64_t)counts.open * 1000 / (int64_t)n);
        q.rooms = result ? result->room_count : 0;
        q.corridors = result ? result->corridor_count : 0;
        q.dead_ends = counts.dead_ends;
        dgi_view view;
        dgi_view_fill(&view, view_cells, grid, result);
        count_tiles(&view, &q);
        q.parallel_cells = parallel_runs(&view, columns);
        int32_t far = walk_figures(grid, result, counts.open, dist, queue, &q);
        sweep_figures(grid, result, far, dist, queue, &q);
        /* one region when the start reaches every open cell: no labelling needed */
        q.regions = far >= 0 && q.unreachable == 0 ? 1 : dgi_label_regions(grid, dist, queue);
        q.loops = (int32_t)(counts.edges - counts.open + q.regions - counts.squares);
        dgi_survey_layout(&view, result, columns, &q);
        q.start_in_room = result && room_at(result, result->start);
        q.exit_in_room = result && room_at(result, result->exit);
        q.start_is_exit = result && result->start.x == result->exit.x && result->start.y == result->exit.y;
        *quality = q;
        dgi_diag_ok(diag);
    }
    else
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory for the survey of a %dx%d map",
                      (int)grid->width, (int)grid->height);
    dgi_free(allocator, columns, 3 * (size_t)grid->width * sizeof *columns);
    dgi_free(allocator, view_cells, dgi_view_bytes(grid));
    dgi_free(allocator, queue, n * sizeof *queue);
    dgi_free(allocator, dist, n * sizeof *dist);
    return st;
}
