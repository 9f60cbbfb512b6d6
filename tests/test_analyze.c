/* Map analysis: walk rules, regions, distance maps, metrics, chokepoints. */
#include "analysis_maps.h"
#include "analysis/analysis.h"

static void cost_table(uint16_t cost[256])
{
    for (int t = 0; t < 256; t++)
        cost[t] = (uint16_t)(1 + t % 7);
}

TEST(analyze_default_tables_match_tile_functions)
{
    for (int t = 0; t < 256; t++)
    {
        CHECK(dgi_passable_default[t] == dg_tile_passable((uint8_t)t));
        CHECK(dg_tile_transparent((uint8_t)t) ==
              (dg_tile_passable((uint8_t)t) || t == DG_TILE_WATER));
    }
    dg_move w;
    dg_move_defaults(&w);
    CHECK(w.passable == NULL && w.cost == NULL && w.neighbours == 4 && w.corner_cutting == 0);
    CHECK(w.straight_weight == 1 && w.diagonal_weight == 1);
    dg_move_defaults(NULL);
}

/* Distance maps equal Floyd-Warshall, for single and multiple sources, every
 * walk variant and a distance limit. */
TEST(analyze_distance_matches_floyd_warshall)
{
    uint16_t cost[256], big[256]; /* small costs use buckets, big ones the heap */
    cost_table(cost);
    for (int t = 0; t < 256; t++)
        big[t] = (uint16_t)(100 + (t * 37) % 900);
    for (uint64_t seed = 1; seed <= 8 && !test_failures(); seed++)
    {
        am_map m;
        am_noise(&m, 9 + (int32_t)(seed % 3), 7 + (int32_t)(seed % 4), 300, seed);
        int32_t n = m.grid.width * m.grid.height;
        int32_t *dist = malloc((size_t)n * sizeof *dist);
        for (int k = 0; k < 20; k++)
        {
            dg_move wk = k < 16 ? am_walk(k, cost) : am_walk((k - 16) | 4, big);
            int64_t *fw = am_floyd(&m.grid, &wk);
            dg_point src[3];
            int32_t ns = 0;
            for (int32_t i = (int32_t)seed; i < n && ns < 3; i += n / 3 + 1)
                if (am_pass(&m.grid, NULL, i % m.grid.width, i / m.grid.width))
                    src[ns++] = (dg_point){i % m.grid.width, i / m.grid.width};
            if (ns == 0)
            {
                free(fw);
                continue;
            }
            static const int32_t limits[3] = {0, 6, 1500};
            for (int li = 0; li < 3; li++)
                for (int32_t use = 1; use <= ns; use++)
                {
                    int32_t limit = limits[li];
                    dg_distance_info info;
                    CHECK(dg_distance_map(&m.grid, &wk, src, use, limit, dist, (size_t)n, NULL,
                                          &info, NULL) == DG_OK);
                    int32_t reached = 0, maxd = 0;
                    for (int32_t i = 0; i < n; i++)
                    {
                        int64_t best = AM_INF;
                        for (int32_t s = 0; s < use; s++)
                        {
                            int64_t d = fw[(size_t)(src[s].y * m.grid.width + src[s].x) * n + i];
                            best = d < best ? d : best;
                        }
                        if (limit > 0 && best > limit)
                            best = AM_INF;
                        int32_t want = best == AM_INF ? DG_UNREACHABLE : (int32_t)best;
                        CHECKF(dist[i] == want, "seed %d walk %d cell %d: %d want %d",
                               (int)seed, k, (int)i, (int)dist[i], (int)want);
                        reached += want >= 0;
                        maxd = want > maxd ? want : maxd;
                    }
                    CHECK(info.reached == reached);
                    CHECK(info.max_distance == maxd);
                    CHECK(dist[info.farthest.y * m.grid.width + info.farthest.x] == maxd);
                }
            free(fw);
        }
        free(dist);
        am_free(&m);
    }
}

/* A reused workspace gives the same maps as a fresh one, across grids of
 * different shapes (generation counters, never a reset). */
TEST(analyze_workspace_reuse_is_exact)
{
    uint16_t cost[256];
    cost_table(cost);
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(30, 20, NULL, &ws) == DG_OK);
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        am_map m;
        am_noise(&m, 10 + (int32_t)seed, 600 / (10 + (int32_t)seed), 250, seed);
        int32_t n = m.grid.width * m.grid.height;
        int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        dg_move wk = am_walk((int)seed % 16, cost);
        dg_point s = am_first_floor(&m.grid);
        CHECK(dg_distance_map(&m.grid, &wk, &s, 1, 0, a, (size_t)n, ws, NULL, NULL) == DG_OK);
        CHECK(dg_distance_map(&m.grid, &wk, &s, 1, 0, b, (size_t)n, NULL, NULL, NULL) == DG_OK);
        CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0);
        free(a);
        free(b);
        am_free(&m);
    }
    dg_path_workspace_free(ws);
}

TEST(analyze_regions_match_reachability)
{
    uint16_t cost[256];
    cost_table(cost);
    for (uint64_t seed = 1; seed <= 10; seed++)
    {
        am_map m;
        am_noise(&m, 11, 9, 420, seed);
        int32_t n = m.grid.width * m.grid.height;
        int32_t *labels = malloc((size_t)n * sizeof *labels);
        for (int k = 0; k < 4; k++)
        {
            dg_move wk = am_walk(k, NULL);
            int64_t *fw = am_floyd(&m.grid, &wk);
            int32_t sizes[64], count = -5, largest = -5;
            CHECK(dg_regions(&m.grid, &wk, labels, (size_t)n, sizes, 64, &count, &largest, NULL) ==
                  DG_OK);
            int32_t next = 0, best = -1, best_size = 0;
            for (int32_t i = 0; i < n; i++)
            {
                int pass = am_pass(&m.grid, NULL, i % m.grid.width, i / m.grid.width);
                CHECK((labels[i] >= 0) == pass);
                if (!pass)
                    continue;
                int32_t first = i, size = 0;
                for (int32_t j = 0; j < n; j++)
                    if (fw[(size_t)i * n + j] != AM_INF)
                    {
                        first = j < first ? j : first;
                        size++;
                        CHECK(labels[j] == labels[i]);
                    }
                    else
                        CHECK(labels[j] != labels[i]);
                if (first == i) /* labels are numbered by first cell */
                {
                    CHECK(labels[i] == next);
                    if (next < 64)
                        CHECK(sizes[next] == size);
                    if (size > best_size)
                    {
                        best_size = size;
                        best = next;
                    }
                    next++;
                }
            }
            CHECK(count == next);
            CHECK(largest == best);
            free(fw);
        }
        free(labels);
        am_free(&m);
    }
}

TEST(analyze_internal_helpers_keep_their_behaviour)
{
    am_map m;
    am_rooms(&m, 50, 30, 7);
    int32_t n = 50 * 30;
    int32_t *a = malloc((size_t)n * sizeof *a), *q = malloc((size_t)n * sizeof *q);
    int32_t *b = malloc((size_t)n * sizeof *b);
    int32_t count;
    CHECK(dgi_label_regions(&m.grid, a, q) == 1);
    CHECK(dg_regions(&m.grid, NULL, b, (size_t)n, NULL, 0, &count, NULL, NULL) == DG_OK);
    CHECK(count == 1 && memcmp(a, b, (size_t)n * sizeof *a) == 0);
    int32_t start = -1;
    for (int32_t i = 0; i < n && start < 0; i++)
        if (dg_tile_passable(m.cells[i]))
            start = i;
    int32_t far = dgi_bfs(&m.grid, start, a, q);
    dg_point s = {start % 50, start / 50};
    dg_distance_info info;
    CHECK(dg_distance_map(&m.grid, NULL, &s, 1, 0, b, (size_t)n, NULL, &info, NULL) == DG_OK);
    CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0);
    CHECK(far == info.farthest.y * 50 + info.farthest.x && a[far] == info.max_distance);
    free(a);
    free(b);
    free(q);
    am_free(&m);
}

/* Holes: 8-connected impassable components that do not touch the border. */
static int32_t count_holes(const dg_grid *g)
{
    int32_t w = g->width + 2, h = g->height + 2, n = w * h, holes = 0;
    uint8_t *seen = calloc((size_t)n, 1);
    int32_t *stack = malloc((size_t)n * sizeof *stack);
    for (int32_t s = 0; s < n; s++)
    {
        int32_t sx = s % w - 1, sy = s / w - 1;
        if (seen[s] || am_pass(g, NULL, sx, sy))
            continue;
        int border = 0, top = 0;
        stack[top++] = s;
        seen[s] = 1;
        while (top > 0)
        {
            int32_t c = stack[--top], x = c % w, y = c / w;
            border |= x == 0 || y == 0 || x == w - 1 || y == h - 1;
            for (int32_t dy = -1; dy <= 1; dy++)
                for (int32_t dx = -1; dx <= 1; dx++)
                {
                    int32_t nx = x + dx, ny = y + dy, ni = ny * w + nx;
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ni] ||
                        am_pass(g, NULL, nx - 1, ny - 1))
                        continue;
                    seen[ni] = 1;
                    stack[top++] = ni;
                }
        }
        holes += !border;
    }
    free(seen);
    free(stack);
    return holes;
}

TEST(analyze_metrics_match_brute_force)
{
    for (uint64_t seed = 1; seed <= 16 && !test_failures(); seed++)
    {
        am_map m;
        if (seed % 2)
            am_noise(&m, 12, 10, 150 + (int32_t)seed * 30, seed);
        else
            am_rooms(&m, 40, 22, seed);
        const dg_grid *g = &m.grid;
        int32_t n = g->width * g->height;
        dg_metrics mt;
        memset(&mt, 0x55, sizeof mt);
        CHECK(dg_measure(g, NULL, &mt, NULL, NULL) == DG_OK);
        int32_t floor = grid_passable_count(g), doors = 0, dead = 0;
        for (int32_t i = 0; i < n; i++)
        {
            int32_t x = i % g->width, y = i / g->width;
            doors += m.cells[i] == DG_TILE_DOOR;
            if (am_pass(g, NULL, x, y))
                dead += am_pass(g, NULL, x + 1, y) + am_pass(g, NULL, x - 1, y) +
                            am_pass(g, NULL, x, y + 1) + am_pass(g, NULL, x, y - 1) ==
                        1;
        }
        CHECK(mt.cells == n && mt.floor_cells == floor && mt.doors == doors);
        CHECK(mt.floor_permille == floor * 1000 / n);
        CHECK(mt.dead_ends == dead);
        CHECK(mt.regions == am_count_regions(g, NULL, -1));
        CHECKF(mt.loops == count_holes(g), "seed %d loops %d holes %d", (int)seed, (int)mt.loops,
               (int)count_holes(g));
        CHECK(mt.rooms == 0 && mt.corridors == 0 && mt.attempts == 0 && mt.overlaps == 0);
        /* Chokepoints: removing the cell adds a region. */
        uint8_t *mask = malloc((size_t)n);
        int32_t count = -1, want = 0;
        CHECK(dg_chokepoints(g, NULL, mask, (size_t)n, &count, NULL, NULL) == DG_OK);
        int32_t base = am_count_regions(g, NULL, -1);
        for (int32_t i = 0; i < n; i++)
        {
            int cut = am_pass(g, NULL, i % g->width, i / g->width) &&
                      am_count_regions(g, NULL, i) > base;
            CHECKF(mask[i] == cut, "seed %d cell %d", (int)seed, (int)i);
            want += cut;
        }
        CHECK(count == want && mt.chokepoints == want);
        free(mask);
        /* Diameter: a real distance in the largest region, at most the true one. */
        if (n <= 150)
        {
            dg_move wk;
            dg_move_defaults(&wk);
            int64_t *fw = am_floyd(g, &wk), diam = 0;
            for (int32_t i = 0; i < n * n; i++)
                if (fw[i] != AM_INF && fw[i] > diam)
                    diam = fw[i];
            CHECK(mt.diameter <= diam && mt.diameter > 0);
            free(fw);
        }
        am_free(&m);
    }
}

TEST(analyze_diameter_is_exact_on_a_tree)
{
    /* A comb: a spine with teeth of different lengths. */
    am_map m;
    am_make(&m, 21, 9, DG_TILE_WALL);
    for (int32_t x = 1; x < 20; x++)
        dg_grid_set(&m.grid, x, 1, DG_TILE_CORRIDOR);
    for (int32_t x = 2; x < 20; x += 4)
        for (int32_t y = 2; y < 2 + x / 3 && y < 8; y++)
            dg_grid_set(&m.grid, x, y, DG_TILE_CORRIDOR);
    dg_metrics mt;
    CHECK(dg_measure(&m.grid, NULL, &mt, NULL, NULL) == DG_OK);
    dg_move wk;
    dg_move_defaults(&wk);
    int64_t *fw = am_floyd(&m.grid, &wk), diam = 0;
    for (int32_t i = 0; i < 21 * 9 * 21 * 9; i++)
        if (fw[i] != AM_INF && fw[i] > diam)
            diam = fw[i];
    CHECK(mt.diameter == diam);
    CHECK(mt.loops == 0 && mt.regions == 1);
    free(fw);
    am_free(&m);
}

TEST(analyze_pillared_room_loops)
{
    /* A 9x9 hall with 4 isolated pillars: 4 loops around them; a 2x2 block of
     * pillars counts once. */
    am_map m;
    am_make(&m, 11, 11, DG_TILE_WALL);
    dg_rect hall = {1, 1, 9, 9};
    dg_grid_fill_rect(&m.grid, hall, DG_TILE_FLOOR);
    dg_grid_set(&m.grid, 3, 3, DG_TILE_OBSTACLE);
    dg_grid_set(&m.grid, 7, 3, DG_TILE_OBSTACLE);
    dg_grid_set(&m.grid, 3, 7, DG_TILE_OBSTACLE);
    dg_rect block = {6, 6, 2, 2};
    dg_grid_fill_rect(&m.grid, block, DG_TILE_OBSTACLE);
    dg_metrics mt;
    CHECK(dg_measure(&m.grid, NULL, &mt, NULL, NULL) == DG_OK);
    CHECK(mt.loops == 4);
    CHECK(mt.chokepoints == 0 && mt.dead_ends == 0);
    am_free(&m);
}

/* Custom passable tables and the grid's stride padding: padding holds a tile
 * the table calls passable, so reading it would change the answers. */
TEST(analyze_custom_tables_and_stride)
{
    uint8_t pass[256] = {0};
    pass[200] = 1;
    pass[DG_TILE_FLOOR] = 1;
    guarded_grid gg;
    CHECK(guard_make(&gg, 13, 7, 5));
    dg_rng rng;
    dg_rng_seed(&rng, 9, 9);
    for (int32_t y = 0; y < 7; y++)
        for (int32_t x = 0; x < 13; x++)
            dg_grid_set(&gg.grid, x, y, dg_rng_chance(&rng, 300) ? DG_TILE_WALL : 200);
    pass[0xA5] = 1; /* the canary byte */
    am_map copy;
    am_make(&copy, 13, 7, 0);
    for (int32_t y = 0; y < 7; y++)
        for (int32_t x = 0; x < 13; x++)
            dg_grid_set(&copy.grid, x, y, dg_grid_get(&gg.grid, x, y));
    dg_move wk;
    dg_move_defaults(&wk);
    wk.passable = pass;
    int32_t a[91], b[91], ca, cb;
    CHECK(dg_regions(&gg.grid, &wk, a, 91, NULL, 0, &ca, NULL, NULL) == DG_OK);
    CHECK(dg_regions(&copy.grid, &wk, b, 91, NULL, 0, &cb, NULL, NULL) == DG_OK);
    CHECK(ca == cb && memcmp(a, b, sizeof a) == 0);
    dg_point s = {-1, -1};
    for (int32_t i = 0; i < 91 && s.x < 0; i++)
        if (b[i] >= 0)
            s = (dg_point){i % 13, i / 13};
    CHECK(dg_distance_map(&gg.grid, &wk, &s, 1, 0, a, 91, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_distance_map(&copy.grid, &wk, &s, 1, 0, b, 91, NULL, NULL, NULL) == DG_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    dg_metrics ma, mb;
    CHECK(dg_measure(&gg.grid, pass, &ma, NULL, NULL) == DG_OK);
    CHECK(dg_measure(&copy.grid, pass, &mb, NULL, NULL) == DG_OK);
    CHECK(memcmp(&ma, &mb, sizeof ma) == 0);
    CHECK(ma.floor_cells == grid_passable_count(&copy.grid) + 0 || ma.floor_cells > 0);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    am_free(&copy);
}

/* Output buffers: nothing past width*height is written. */
TEST(analyze_buffers_keep_their_guard_bytes)
{
    am_map m;
    am_rooms(&m, 37, 23, 3);
    int32_t n = 37 * 23;
    int32_t *buf = malloc((size_t)(n + 16) * sizeof *buf);
    uint8_t *mask = malloc((size_t)n + 64);
    for (int32_t i = 0; i < n + 16; i++)
        buf[i] = 0x5A5A5A5A;
    memset(mask, 0x5A, (size_t)n + 64);
    dg_point s = am_first_floor(&m.grid);
    CHECK(dg_distance_map(&m.grid, NULL, &s, 1, 0, buf, (size_t)n, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_regions(&m.grid, NULL, buf, (size_t)n, NULL, 0, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_chokepoints(&m.grid, NULL, mask, (size_t)n, NULL, NULL, NULL) == DG_OK);
    for (int32_t i = n; i < n + 16; i++)
        CHECK(buf[i] == 0x5A5A5A5A);
    for (int32_t i = n; i < n + 64; i++)
        CHECK(mask[i] == 0x5A);
    free(buf);
    free(mask);
    am_free(&m);
}

TEST(analyze_bad_input_is_rejected_before_writing)
{
    am_map m;
    am_make(&m, 8, 6, DG_TILE_FLOOR);
    dg_grid_set(&m.grid, 2, 2, DG_TILE_WALL);
    int32_t dist[48], labels[48];
    for (int i = 0; i < 48; i++)
        dist[i] = labels[i] = 77;
    dg_point in = {1, 1}, wall = {2, 2}, out = {8, 0}, neg = {-1, 3};
    dg_diag diag;
    dg_move wk;
    dg_grid bad = m.grid;
    bad.width = 0;
    CHECK(dg_distance_map(NULL, NULL, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_distance_map(&bad, NULL, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_distance_map(&m.grid, NULL, &wall, 1, 0, dist, 48, NULL, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "impassable") != NULL);
    CHECK(dg_distance_map(&m.grid, NULL, &out, 1, 0, dist, 48, NULL, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "outside") != NULL);
    CHECK(dg_distance_map(&m.grid, NULL, &neg, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 0, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_distance_map(&m.grid, NULL, NULL, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 1, -1, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 1, 0, NULL, 48, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 1, 0, dist, 47, NULL, NULL, &diag) == DG_E_BUFFER);
    CHECK(diag.status == DG_E_BUFFER);
    dg_move_defaults(&wk);
    wk.neighbours = 6;
    CHECK(dg_distance_map(&m.grid, &wk, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    dg_move_defaults(&wk);
    wk.corner_cutting = 2;
    CHECK(dg_distance_map(&m.grid, &wk, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    dg_move_defaults(&wk);
    wk.straight_weight = 0;
    CHECK(dg_distance_map(&m.grid, &wk, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    dg_move_defaults(&wk);
    wk.diagonal_weight = 1001;
    CHECK(dg_distance_map(&m.grid, &wk, &in, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_INVALID);
    uint16_t cost[256];
    for (int t = 0; t < 256; t++)
        cost[t] = 1;
    cost[DG_TILE_FLOOR] = 0; /* zero cost on a passable tile */
    dg_move_defaults(&wk);
    wk.cost = cost;
    CHECK(dg_distance_map(&m.grid, &wk, &in, 1, 0, dist, 48, NULL, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "cost") != NULL);
    cost[DG_TILE_FLOOR] = 60000; /* could overflow on a big grid */
    uint8_t *big = calloc(200 * 200, 1);
    dg_grid bg;
    dg_grid_init(&bg, big, 200, 200, 0);
    big[0] = DG_TILE_FLOOR;
    dg_point o = {0, 0};
    CHECK(dg_distance_map(&bg, &wk, &o, 1, 0, dist, 48, NULL, NULL, NULL) == DG_E_TOO_LARGE);
    /* A limit bounds the search: then the big costs are fine. */
    CHECK(dg_distance_map(&bg, &wk, &o, 1, 1000000, dist, 48, NULL, NULL, NULL) == DG_E_BUFFER);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 1, INT32_MAX, dist, 48, NULL, NULL, NULL) == DG_OK);
    for (int i = 0; i < 48; i++)
        dist[i] = 77;
    free(big);
    dg_path_workspace *ws;
    CHECK(dg_path_workspace_create(4, 4, NULL, &ws) == DG_OK);
    CHECK(dg_distance_map(&m.grid, NULL, &in, 1, 0, dist, 48, ws, NULL, &diag) == DG_E_BUFFER);
    dg_path_workspace_free(ws);
    for (int i = 0; i < 48; i++)
        CHECK(dist[i] == 77);
    CHECK(dg_regions(&m.grid, NULL, labels, 47, NULL, 0, NULL, NULL, NULL) == DG_E_BUFFER);
    CHECK(dg_regions(&m.grid, NULL, NULL, 48, NULL, 0, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_regions(&m.grid, NULL, labels, 48, NULL, 3, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_regions(&m.grid, NULL, labels, 48, labels, -1, NULL, NULL, NULL) == DG_E_INVALID);
    for (int i = 0; i < 48; i++)
        CHECK(labels[i] == 77);
    dg_metrics mt;
    memset(&mt, 0x33, sizeof mt);
    dg_metrics before = mt;
    uint8_t mask[48];
    memset(mask, 9, sizeof mask);
    CHECK(dg_measure(&bad, NULL, &mt, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_measure(&m.grid, NULL, NULL, NULL, NULL) == DG_E_NULL);
    CHECK(dg_chokepoints(&m.grid, NULL, mask, 47, NULL, NULL, NULL) == DG_E_BUFFER);
    CHECK(memcmp(&mt, &before, sizeof mt) == 0 && mask[0] == 9);
    CHECK(dg_path_workspace_create(0, 4, NULL, &ws) == DG_E_INVALID);
    CHECK(dg_path_workspace_create(4, 4, NULL, NULL) == DG_E_NULL);
    CHECK(dg_path_workspace_create(DG_GRID_MAX_DIM + 1, 1, NULL, &ws) == DG_E_TOO_LARGE);
    dg_path_workspace_free(NULL);
    am_free(&m);
}

TEST(analyze_out_of_memory_is_clean)
{
    am_map m;
    am_rooms(&m, 30, 20, 5);
    int32_t n = 600;
    uint8_t mask[600];
    int32_t dist[600];
    dg_point s = am_first_floor(&m.grid);
    for (int32_t budget = 0; budget < 6; budget++)
    {
        am_budget b = {budget, 0};
        dg_allocator a = am_budget_allocator(&b);
        dg_metrics mt;
        dg_status st = dg_measure(&m.grid, NULL, &mt, &a, NULL);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        CHECK(b.live == 0);
        b.budget = budget;
        st = dg_chokepoints(&m.grid, NULL, mask, (size_t)n, NULL, &a, NULL);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        CHECK(b.live == 0);
        b.budget = budget;
        dg_path_workspace *ws = NULL;
        st = dg_path_workspace_create(30, 20, &a, &ws);
        CHECK(st == (budget >= 2 ? DG_OK : DG_E_NOMEM));
        if (st == DG_OK)
        {
            CHECK(dg_distance_map(&m.grid, NULL, &s, 1, 0, dist, (size_t)n, ws, NULL, NULL) ==
                  DG_OK);
            dg_path_workspace_free(ws);
        }
        CHECK(b.live == 0);
    }
    am_free(&m);
}

/* Pinned outputs: the same bytes from every compiler and optimisation level. */
TEST(analyze_golden_outputs)
{
    am_map m;
    am_rooms(&m, 60, 40, 11);
    int32_t n = 2400;
    int32_t *dist = malloc((size_t)n * sizeof *dist);
    dg_point s[2] = {am_first_floor(&m.grid), {-1, -1}};
    for (int32_t i = n - 1; i >= 0 && s[1].x < 0; i--)
        if (dg_tile_passable(m.cells[i]))
            s[1] = (dg_point){i % 60, i / 60};
    uint16_t cost[256];
    cost_table(cost);
    dg_move wk = am_walk(1 | 4 | 8, cost);
    CHECK(dg_distance_map(&m.grid, NULL, s, 2, 0, dist, (size_t)n, NULL, NULL, NULL) == DG_OK);
    uint64_t h1 = am_hash(dist, (size_t)n * sizeof *dist);
    CHECK(dg_distance_map(&m.grid, &wk, s, 1, 0, dist, (size_t)n, NULL, NULL, NULL) == DG_OK);
    uint64_t h2 = am_hash(dist, (size_t)n * sizeof *dist);
    dg_metrics mt;
    CHECK(dg_measure(&m.grid, NULL, &mt, NULL, NULL) == DG_OK);
    CHECK_EQ_U64(h1, 0x64fc8b99beafc783ULL);
    CHECK_EQ_U64(h2, 0x44e2ecaf17e7a491ULL);
    CHECK(mt.floor_cells == 412 && mt.dead_ends == 0 && mt.loops == 5 && mt.regions == 1);
    CHECK(mt.chokepoints == 19 && mt.diameter == 82);
    free(dist);
    am_free(&m);
}

/* On attach maps: dg_measure agrees with what the generator reports, the
 * generator's exit is a farthest room cell of the BFS from its start, and the
 * maps are one region with every chokepoint splitting it. */
TEST(analyze_attach_maps_agree_with_generator)
{
    for (uint64_t seed = 1; seed <= 12 && !test_failures(); seed++)
    {
        am_map m;
        am_make(&m, 60 + (int32_t)(seed % 3) * 20, 40, DG_TILE_VOID);
        dg_attach_params params;
        dg_attach_defaults(&params);
        params.loop_min_gain = seed % 2 ? 10 : 0;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_attach_generate(&m.grid, &params, seed, &r, NULL, NULL) == DG_OK);
        dg_metrics mt;
        CHECK(dg_measure(&m.grid, NULL, &mt, NULL, NULL) == DG_OK);
        CHECK(mt.cells == r.metrics.cells && mt.floor_cells == r.metrics.floor_cells);
        CHECK(mt.floor_permille == r.metrics.floor_permille);
        CHECK(mt.dead_ends == r.metrics.dead_ends && mt.regions == r.metrics.regions);
        CHECK(mt.regions == 1 && mt.chokepoints > 0 && mt.diameter > 0);
        size_t n = (size_t)m.grid.width * 40;
        int32_t *dist = malloc(n * sizeof *dist);
        dg_distance_info info;
        CHECK(dg_distance_map(&m.grid, NULL, &r.start, 1, 0, dist, n, NULL, &info, NULL) == DG_OK);
        /* the exit is a farthest room cell (ties may pick another one than the BFS) */
        int32_t room_max = -1, exit_room = -1;
        for (int32_t i = 0; i < r.room_count; i++)
        {
            dg_rect q = r.rooms[i].rect;
            for (int32_t y = q.y; y < q.y + q.h; y++)
                for (int32_t x = q.x; x < q.x + q.w; x++)
                    room_max = dist[y * m.grid.width + x] > room_max ? dist[y * m.grid.width + x] : room_max;
            if (r.exit.x >= q.x && r.exit.x < q.x + q.w && r.exit.y >= q.y && r.exit.y < q.y + q.h)
                exit_room = i;
        }
        CHECK(exit_room >= 0 && dist[r.exit.y * m.grid.width + r.exit.x] == room_max);
        CHECK(info.reached == mt.floor_cells && info.max_distance <= mt.diameter);
        free(dist);
        dg_result_free(&r);
        am_free(&m);
    }
}
