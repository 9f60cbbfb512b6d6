/* A* paths: optimal against Floyd-Warshall, valid steps, statuses. */
#include "analysis_maps.h"

/* Checks that path[0..len) walks legally from a to b and costs `cost`. */
static int path_valid(const dg_grid *g, const dg_move *wk, const dg_point *path, int32_t len,
                      dg_point a, dg_point b, int64_t cost)
{
    if (len < 1 || path[0].x != a.x || path[0].y != a.y || path[len - 1].x != b.x ||
        path[len - 1].y != b.y)
        return 0;
    int64_t sum = 0;
    for (int32_t k = 1; k < len; k++)
    {
        int32_t dx = path[k].x - path[k - 1].x, dy = path[k].y - path[k - 1].y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy))
            return 0;
        int64_t c = am_step(g, wk, path[k - 1].x, path[k - 1].y, dx, dy);
        if (c < 0)
            return 0;
        sum += c;
    }
    return sum == cost;
}

TEST(path_is_optimal_and_valid)
{
    uint16_t cost[256], big[256]; /* small costs use buckets, big ones the heap */
    for (int t = 0; t < 256; t++)
    {
        cost[t] = (uint16_t)(1 + (t * 5) % 9);
        big[t] = (uint16_t)(100 + (t * 37) % 900);
    }
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(14, 12, NULL, &ws) == DG_OK);
    dg_point path[200];
    for (uint64_t seed = 1; seed <= 4 && !test_failures(); seed++)
    {
        am_map m;
        am_noise(&m, 10 + (int32_t)(seed % 4), 8 + (int32_t)(seed % 3), 280, seed * 7);
        int32_t n = m.grid.width * m.grid.height, w = m.grid.width;
        for (int k = 0; k < 20; k++)
        {
            dg_move wk = k < 16 ? am_walk(k, cost) : am_walk((k - 16) | 4, big);
            int64_t *fw = am_floyd(&m.grid, &wk);
            for (int32_t i = 0; i < n; i += 3)
                for (int32_t j = (int32_t)seed % 5; j < n; j += 5)
                {
                    dg_point a = {i % w, i / w}, b = {j % w, j / w};
                    int32_t len = -1, c = -1;
                    dg_status st = dg_path_find(&m.grid, &wk, a, b, ws, path, 200, &len, &c, NULL);
                    if (!am_pass(&m.grid, NULL, a.x, a.y))
                    {
                        CHECK(st == DG_E_INVALID);
                        continue;
                    }
                    int64_t want = fw[(size_t)i * n + j];
                    if (want == AM_INF)
                    {
                        CHECK(st == DG_E_NOPATH && len == -1);
                        continue;
                    }
                    CHECKF(st == DG_OK && c == want, "seed %d walk %d: %d->%d cost %d want %d",
                           (int)seed, k, (int)i, (int)j, (int)c, (int)want);
                    CHECK(path_valid(&m.grid, &wk, path, len, a, b, want));
                }
            free(fw);
        }
        am_free(&m);
    }
    dg_path_workspace_free(ws);
}

/* With unit steps the path has distance + 1 cells, equal to the BFS map. */
TEST(path_length_equals_bfs_distance)
{
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(64, 48, NULL, &ws) == DG_OK);
    dg_point path[3072];
    for (uint64_t seed = 1; seed <= 6; seed++)
    {
        am_map m;
        am_rooms(&m, 64, 48, seed);
        int32_t n = 64 * 48;
        int32_t *dist = malloc((size_t)n * sizeof *dist);
        dg_point floor[3072];
        int32_t nf = 0;
        for (int32_t i = 0; i < n; i++)
            if (dg_tile_passable(m.cells[i]))
                floor[nf++] = (dg_point){i % 64, i / 64};
        dg_rng rng;
        dg_rng_seed(&rng, seed, 5);
        for (int q = 0; q < 12; q++)
        {
            dg_point a = floor[dg_rng_below(&rng, (uint32_t)nf)];
            for (int eight = 0; eight < 2; eight++)
            {
                dg_move wk;
                dg_move_defaults(&wk);
                wk.neighbours = eight ? 8 : 4;
                CHECK(dg_distance_map(&m.grid, &wk, &a, 1, 0, dist, (size_t)n, ws, NULL, NULL) ==
                      DG_OK);
                for (int r = 0; r < 20; r++)
                {
                    dg_point b = floor[dg_rng_below(&rng, (uint32_t)nf)];
                    int32_t len = 0, c = 0;
                    CHECK(dg_path_find(&m.grid, &wk, a, b, ws, path, 3072, &len, &c, NULL) ==
                          DG_OK);
                    CHECK(c == dist[b.y * 64 + b.x] && len == c + 1);
                    CHECK(path_valid(&m.grid, &wk, path, len, a, b, c));
                }
            }
        }
        free(dist);
        am_free(&m);
    }
    dg_path_workspace_free(ws);
}

TEST(path_statuses_and_buffers)
{
    am_map m;
    am_make(&m, 10, 5, DG_TILE_FLOOR);
    for (int32_t y = 0; y < 5; y++)
        dg_grid_set(&m.grid, 5, y, DG_TILE_WALL); /* two halves */
    dg_point a = {1, 2}, b = {4, 0}, other = {8, 2}, wall = {5, 1}, out = {10, 0};
    dg_point path[16];
    for (int i = 0; i < 16; i++)
        path[i] = (dg_point){-7, -7};
    int32_t len = -3, cost = -3;
    dg_diag diag;
    CHECK(dg_path_find(&m.grid, NULL, a, other, NULL, path, 16, &len, &cost, &diag) == DG_E_NOPATH);
    CHECK(diag.status == DG_E_NOPATH);
    CHECK(dg_path_find(&m.grid, NULL, a, wall, NULL, path, 16, &len, &cost, &diag) == DG_E_NOPATH);
    CHECK(strstr(diag.message, "impassable") != NULL);
    CHECK(dg_path_find(&m.grid, NULL, wall, a, NULL, path, 16, &len, &cost, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "start") != NULL);
    CHECK(dg_path_find(&m.grid, NULL, out, a, NULL, path, 16, &len, &cost, NULL) == DG_E_INVALID);
    CHECK(dg_path_find(&m.grid, NULL, a, out, NULL, path, 16, &len, &cost, NULL) == DG_E_INVALID);
    CHECK(dg_path_find(NULL, NULL, a, b, NULL, path, 16, &len, &cost, NULL) == DG_E_NULL);
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, path, 16, NULL, &cost, NULL) == DG_E_NULL);
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, NULL, 4, &len, &cost, NULL) == DG_E_NULL);
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, path, -1, &len, &cost, NULL) == DG_E_INVALID);
    CHECK(len == -3 && cost == -3 && path[0].x == -7);
    /* Too small: the needed length comes back, the path stays untouched. */
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, path, 4, &len, &cost, &diag) == DG_E_BUFFER);
    CHECK(len == 6 && cost == -3 && path[0].x == -7);
    /* Length-only query, then the real one; guard entries after it stay. */
    len = 0;
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, NULL, 0, &len, &cost, NULL) == DG_OK);
    CHECK(len == 6 && cost == 5);
    CHECK(dg_path_find(&m.grid, NULL, a, b, NULL, path, 6, &len, NULL, NULL) == DG_OK);
    CHECK(path[0].x == 1 && path[0].y == 2 && path[5].x == 4 && path[5].y == 0);
    CHECK(path[6].x == -7);
    CHECK(dg_path_find(&m.grid, NULL, a, a, NULL, path, 1, &len, &cost, NULL) == DG_OK);
    CHECK(len == 1 && cost == 0 && path[0].x == 1);
    dg_path_workspace *small;
    CHECK(dg_path_workspace_create(7, 7, NULL, &small) == DG_OK);
    CHECK(dg_path_find(&m.grid, NULL, a, b, small, path, 16, &len, &cost, NULL) == DG_E_BUFFER);
    dg_path_workspace_free(small);
    /* A workspace fits any grid shape with no more cells. */
    CHECK(dg_path_workspace_create(25, 2, NULL, &small) == DG_OK);
    CHECK(dg_path_find(&m.grid, NULL, a, b, small, path, 16, &len, &cost, NULL) == DG_OK);
    dg_path_workspace_free(small);
    am_free(&m);
}

TEST(path_never_cuts_corners_unless_asked)
{
    /* #.
     * .#  the diagonal between the two floor cells squeezes past two walls. */
    am_map m;
    am_make(&m, 2, 2, DG_TILE_FLOOR);
    dg_grid_set(&m.grid, 0, 0, DG_TILE_WALL);
    dg_grid_set(&m.grid, 1, 1, DG_TILE_WALL);
    dg_move wk;
    dg_move_defaults(&wk);
    wk.neighbours = 8;
    dg_point a = {1, 0}, b = {0, 1}, path[4];
    int32_t len;
    CHECK(dg_path_find(&m.grid, &wk, a, b, NULL, path, 4, &len, NULL, NULL) == DG_E_NOPATH);
    wk.corner_cutting = 1;
    CHECK(dg_path_find(&m.grid, &wk, a, b, NULL, path, 4, &len, NULL, NULL) == DG_OK);
    CHECK(len == 2);
    am_free(&m);
}

TEST(path_golden)
{
    am_map m;
    am_rooms(&m, 80, 50, 21);
    dg_point pts[4000];
    int32_t nf = 0;
    for (int32_t i = 0; i < 4000; i++)
        if (dg_tile_passable(m.cells[i]))
            pts[nf++] = (dg_point){i % 80, i / 80};
    dg_point path[4000];
    int32_t len = 0;
    dg_move wk;
    dg_move_defaults(&wk);
    wk.neighbours = 8;
    wk.straight_weight = 2;
    wk.diagonal_weight = 3;
    CHECK(dg_path_find(&m.grid, &wk, pts[0], pts[nf - 1], NULL, path, 4000, &len, NULL, NULL) ==
          DG_OK);
    uint64_t h8 = am_hash(path, (size_t)len * sizeof *path);
    CHECK(dg_path_find(&m.grid, NULL, pts[0], pts[nf - 1], NULL, path, 4000, &len, NULL, NULL) ==
          DG_OK);
    uint64_t h4 = am_hash(path, (size_t)len * sizeof *path);
    CHECK_EQ_U64(h8, 0x4b84158a4502120eULL);
    CHECK_EQ_U64(h4, 0xb91c395c98046449ULL);
    am_free(&m);
}

/* On attach maps, 4- and 8-way: A* agrees with the distance map for random
 * pairs, one workspace serving every map. */
TEST(path_attach_maps_match_distance_maps)
{
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(80, 50, NULL, &ws) == DG_OK);
    int32_t *dist = malloc(4000 * sizeof *dist);
    dg_point *path = malloc(4000 * sizeof *path), *floor = malloc(4000 * sizeof *floor);
    for (uint64_t seed = 1; seed <= 6 && !test_failures(); seed++)
    {
        am_map m;
        am_make(&m, 80, 50, DG_TILE_VOID);
        dg_attach_params params;
        dg_attach_defaults(&params);
        CHECK(dg_attach_generate(&m.grid, &params, seed, NULL, NULL, NULL) == DG_OK);
        int32_t nf = 0;
        for (int32_t i = 0; i < 4000; i++)
            if (dg_tile_passable(m.cells[i]))
                floor[nf++] = (dg_point){i % 80, i / 80};
        dg_rng rng;
        dg_rng_seed(&rng, seed, 8);
        for (int q = 0; q < 6; q++)
        {
            dg_move wk = am_walk(q % 2, NULL);
            dg_point a = floor[dg_rng_below(&rng, (uint32_t)nf)];
            CHECK(dg_distance_map(&m.grid, &wk, &a, 1, 0, dist, 4000, ws, NULL, NULL) == DG_OK);
            for (int r = 0; r < 10; r++)
            {
                dg_point b = floor[dg_rng_below(&rng, (uint32_t)nf)];
                int32_t len = 0, c = 0;
                CHECK(dg_path_find(&m.grid, &wk, a, b, ws, path, 4000, &len, &c, NULL) == DG_OK);
                CHECK(c == dist[b.y * 80 + b.x] && path_valid(&m.grid, &wk, path, len, a, b, c));
            }
        }
        am_free(&m);
    }
    free(dist);
    free(path);
    free(floor);
    dg_path_workspace_free(ws);
}

/* Reference distance map: Bellman-Ford sweeps over am_step until nothing
 * changes, from each source's start cost; cells beyond limit (> 0) stay -1. */
static void ref_distances(const dg_grid *g, const dg_move *wk, const dg_point *src,
                          const int32_t *start, int32_t count, int32_t limit, int64_t *d)
{
    int32_t w = g->width, n = g->width * g->height;
    for (int32_t i = 0; i < n; i++)
        d[i] = AM_INF;
    for (int32_t k = 0; k < count; k++)
        if ((limit == 0 || start[k] <= limit) && start[k] < d[src[k].y * w + src[k].x])
            d[src[k].y * w + src[k].x] = start[k];
    for (int changed = 1; changed;)
    {
        changed = 0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t dy = -1; d[i] != AM_INF && dy <= 1; dy++)
                for (int32_t dx = -1; dx <= 1; dx++)
                {
                    int64_t c = dx || dy ? am_step(g, wk, i % w, i / w, dx, dy) : -1;
                    int32_t j = i + dy * w + dx;
                    if (c >= 0 && (limit == 0 || d[i] + c <= limit) && d[i] + c < d[j])
                    {
                        d[j] = d[i] + c;
                        changed = 1;
                    }
                }
    }
}

/* Weighted maps without tile costs take the level-by-level bucket ring:
 * every weight pair (diagonal within one of straight or further), both
 * neighbourhoods, open and closed borders, a row stride wider than the grid,
 * passable tables in few or many runs of values, start costs and limits,
 * against the reference. */
TEST(dijkstra_weighted_maps_match_reference)
{
    dg_rng rng;
    dg_rng_seed(&rng, 77, 4);
    for (int round = 0; round < 160 && !test_failures(); round++)
    {
        int32_t w = 9 + (int32_t)dg_rng_below(&rng, 40), h = 7 + (int32_t)dg_rng_below(&rng, 30);
        int32_t stride = w + (round % 3 == 0 ? 5 : 0);
        am_map m;
        if (round % 2)
            am_rooms(&m, w, h, (uint64_t)round);
        else
            am_noise(&m, w, h, 150 + (int32_t)dg_rng_below(&rng, 350), (uint64_t)round);
        uint8_t *wide = calloc((size_t)stride * (size_t)h, 1);
        for (int32_t y = 0; y < h; y++)
            memcpy(wide + (size_t)y * (size_t)stride, m.cells + (size_t)y * (size_t)w, (size_t)w);
        dg_grid g;
        CHECK(dg_grid_init(&g, wide, w, h, stride) == DG_OK);
        dg_move wk;
        dg_move_defaults(&wk);
        wk.neighbours = round % 4 == 3 ? 4 : 8;
        wk.corner_cutting = wk.neighbours == 8 && round % 5 == 0;
        wk.straight_weight = 1 + (int32_t)dg_rng_below(&rng, 3);
        wk.diagonal_weight = wk.straight_weight + (int32_t)dg_rng_below(&rng, 4);
        /* passable tiles in 4 runs of values, or in 6 (1 2 | 4 | 6 | 8 9 | 11 | 13) */
        uint8_t passable[256] = {0};
        passable[1] = passable[2] = passable[4] = passable[6] = passable[8] = passable[9] = 1;
        passable[11] = passable[13] = round % 8 == 6;
        if (round % 4 == 2)
            wk.passable = passable;
        dg_point src[6];
        int32_t start[6], ns = 0, n = w * h;
        for (int t = 0; t < 100 && ns < 1 + round % 6; t++)
        {
            dg_point p = {(int32_t)dg_rng_below(&rng, (uint32_t)w), (int32_t)dg_rng_below(&rng, (uint32_t)h)};
            if (am_pass(&g, wk.passable, p.x, p.y))
            {
                start[ns] = round % 3 == 1 ? (int32_t)dg_rng_below(&rng, 9) : 0;
                src[ns++] = p;
            }
        }
        int32_t limit = round % 7 == 2 ? 5 + (int32_t)dg_rng_below(&rng, 30) : 0;
        int32_t *got = malloc((size_t)n * sizeof *got);
        int64_t *want = malloc((size_t)n * sizeof *want);
        dg_distance_info info;
        if (ns > 0)
        {
            ref_distances(&g, &wk, src, start, ns, limit, want);
            CHECK(dg_dijkstra_map(&g, &wk, src, start, ns, limit, got, (size_t)n, NULL, &info,
                                  NULL) == DG_OK);
            int32_t reached = 0, maxd = DG_UNREACHABLE;
            for (int32_t i = 0; i < n; i++)
            {
                int64_t v = want[i] == AM_INF ? DG_UNREACHABLE : want[i];
                CHECKF(got[i] == v, "round %d cell %d: %d, want %d", round, i, (int)got[i],
                       (int)v);
                reached += v >= 0;
                maxd = v > maxd ? (int32_t)v : maxd;
            }
            CHECK(info.reached == reached && info.max_distance == maxd);
            if (reached)
                CHECK(got[info.farthest.y * w + info.farthest.x] == maxd);
        }
        free(got);
        free(want);
        free(wide);
        am_free(&m);
    }
}
