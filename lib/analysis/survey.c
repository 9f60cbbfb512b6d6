/* How shippable a map is (dg_survey_map): the figures `dungeon --survey`
 * tabulates and the quality tests check, measured on the tiles and the
 * result's rooms, start and exit only, so every generator is judged alike
 * (docs/quality.md). */
#include "analysis/analysis.h"

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height &&
           dgi_passable_default[DG_CELL(g, x, y)];
}

static int on_ring(const dg_grid *g, int32_t x, int32_t y)
{
    return x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1;
}

static int in_rect(dg_rect q, int32_t x, int32_t y)
{
    return x >= q.x && y >= q.y && (int64_t)x < (int64_t)q.x + q.w && (int64_t)y < (int64_t)q.y + q.h;
}

/* Which cells lie in some room's rect, 1 byte per cell: bit 0 any room's,
 * bit 2 a room's other than a cave's (whose rect only bounds its cells). */
static void mark_rooms(const dg_grid *g, const dg_result *r, uint8_t *in_room)
{
    memset(in_room, 0, (size_t)g->width * (size_t)g->height);
    for (int32_t i = 0; r && i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        int32_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
        int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)g->width);
        int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)g->height);
        for (int32_t y = y0; y < y1; y++)
            if (x1 > x0)
                for (int32_t x = x0; x < x1; x++)
                    in_room[(size_t)y * (size_t)g->width + (size_t)x] |= r->rooms[i].kind == DG_ROOM_CAVE ? 1 : 5;
    }
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
static int door_leads(const dg_grid *g, int32_t x, int32_t y)
{
    if (on_ring(g, x, y))
        return 0;
    return (is_open(g, x, y - 1) && is_open(g, x, y + 1)) ||
           (is_open(g, x - 1, y) && is_open(g, x + 1, y));
}

/* A corridor cell outside the rooms touching a room's open, non-door cell. */
static int doorless_join(const dg_grid *g, const uint8_t *in_room, int32_t x, int32_t y)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    if (in_room[(size_t)y * (size_t)g->width + (size_t)x] & 1)
        return 0;
    for (int k = 0; k < 4; k++)
    {
        int32_t nx = x + dx[k], ny = y + dy[k];
        if (is_open(g, nx, ny) && DG_CELL(g, nx, ny) != DG_TILE_DOOR &&
            (in_room[(size_t)ny * (size_t)g->width + (size_t)nx] & 1))
            return 1;
    }
    return 0;
}

static int is_corridor(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height && DG_CELL(g, x, y) == DG_TILE_CORRIDOR;
}

/* 1 if the corridor cell (x, y) has a corridor partner k cells away in
 * direction (dx, dy), with only impassable cells between them. */
static int shadowed(const dg_grid *g, int32_t x, int32_t y, int dx, int dy, int k)
{
    if (!is_corridor(g, x + dx * k, y + dy * k))
        return 0;
    for (int i = 1; i < k; i++)
        if (is_open(g, x + dx * i, y + dy * i))
            return 0;
    return 1;
}

/* Corridor cells in runs of 3 or more (along the axis across (dx, dy)) that
 * each have a partner 2 or 3 cells away in direction (dx, dy). */
static int32_t parallel_runs(const dg_grid *g, int dx, int dy)
{
    int32_t total = 0;
    int across = dx != 0; /* partners east: runs go down the columns */
    int32_t lines = across ? g->width : g->height, len = across ? g->height : g->width;
    for (int32_t line = 0; line < lines; line++)
        for (int k = 2; k <= 3; k++)
        {
            int32_t run = 0;
            for (int32_t i = 0; i <= len; i++)
            {
                int32_t x = across ? line : i, y = across ? i : line;
                int hit = i < len && is_corridor(g, x, y) && shadowed(g, x, y, dx, dy, k);
                if (hit)
                    run++;
                else
                {
                    if (run >= 3)
                        total += 2 * run; /* both corridors of the pair */
                    run = 0;
                }
            }
        }
    return total;
}

static void count_tiles(const dg_grid *g, const uint8_t *in_room, dg_quality *q)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = DG_CELL(g, x, y);
            if (dgi_passable_default[t] && on_ring(g, x, y))
                q->border_open++;
            if (t == DG_TILE_DOOR)
            {
                q->doors++;
                q->dead_doors += !door_leads(g, x, y);
            }
            if (t == DG_TILE_CORRIDOR)
                q->doorless_joins += doorless_join(g, in_room, x, y);
        }
}

/* The lock or key number of a "lock N" / "key N" marker, 0 if none. */
static int32_t marker_number(const dg_marker *m)
{
    const char *s = strrchr(m->name, ' ');
    int32_t n = 0;
    for (s = s ? s + 1 : m->name; *s >= '0' && *s <= '9' && n <= DG_LOCKS_MAX; s++)
        n = n * 10 + (*s - '0');
    return n <= DG_LOCKS_MAX ? n : 0;
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

/* Walk figures: unreachable cells, the route and the exit's rank. */
static void walk_figures(const dg_grid *g, const dg_result *r, int32_t open, int32_t *dist,
                         int32_t *queue, dg_quality *q)
{
    q->unreachable = open;
    q->route = -1;
    if (!r || !is_open(g, r->start.x, r->start.y))
        return;
    dgi_bfs(g, r->start.y * g->width + r->start.x, dist, queue);
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
}

/* The walking diameter of the start's region, by a second sweep from the
 * cell farthest from the start (a lower bound at least the start's own
 * eccentricity, so route <= diameter), then the keys, which reuse dist. */
static void sweep_figures(const dg_grid *g, const dg_result *r, int32_t *dist, int32_t *queue,
                          dg_quality *q)
{
    q->diameter = q->route_diameter_permille = q->key_start_min = q->key_lock_min = -1;
    if (!r || !is_open(g, r->start.x, r->start.y))
        return;
    int32_t far = r->start.y * g->width + r->start.x, n = g->width * g->height;
    for (int32_t i = 0; i < n; i++)
        far = dist[i] > dist[far] ? i : far;
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
    uint8_t *in_room = dgi_alloc(allocator, n);
    dgi_cell_counts counts;
    st = dist && queue && in_room ? dgi_count_cells(grid, NULL, &counts, allocator) : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dg_quality q;
        memset(&q, 0, sizeof q);
        q.floor_permille = (int32_t)((int64_t)counts.open * 1000 / (int64_t)n);
        q.rooms = result ? result->room_count : 0;
        q.corridors = result ? result->corridor_count : 0;
        q.dead_ends = counts.dead_ends;
        q.regions = dgi_label_regions(grid, dist, queue);
        q.loops = (int32_t)(counts.edges - counts.open + q.regions - counts.squares);
        mark_rooms(grid, result, in_room);
        count_tiles(grid, in_room, &q);
        q.parallel_cells = parallel_runs(grid, 1, 0) + parallel_runs(grid, 0, 1);
        dgi_survey_layout(grid, result, in_room, dist, &q);
        walk_figures(grid, result, counts.open, dist, queue, &q);
        sweep_figures(grid, result, dist, queue, &q);
        q.start_in_room = result && room_at(result, result->start);
        q.exit_in_room = result && room_at(result, result->exit);
        q.start_is_exit = result && result->start.x == result->exit.x && result->start.y == result->exit.y;
        *quality = q;
        dgi_diag_ok(diag);
    }
    else
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory for the survey of a %dx%d map",
                      (int)grid->width, (int)grid->height);
    dgi_free(allocator, in_room, n);
    dgi_free(allocator, queue, n * sizeof *queue);
    dgi_free(allocator, dist, n * sizeof *dist);
    return st;
}
