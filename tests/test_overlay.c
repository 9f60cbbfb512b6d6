/* Per-cell overlays (blocked, extra cost, sight) and Dijkstra maps with start
 * costs, each against a brute-force reference: the grid copied with the mask
 * applied as tiles (blocked -> wall, except the ends of the search; sight ->
 * wall or floor) and the plain function, or a plain O(n^2) Dijkstra written
 * here for extra costs and start costs. */
#include "analysis_maps.h"

#define OV_PAD 3 /* mask rows are wider than the grid: stride = width + OV_PAD */

/* A mask for m at stride width + OV_PAD: value v with chance permille, else 0. */
static uint8_t *ov_mask(const dg_grid *g, int32_t permille, int32_t lo, int32_t hi, uint64_t seed,
                        size_t *cells)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 77);
    int32_t ms = g->width + OV_PAD;
    *cells = (size_t)(g->height - 1) * (size_t)ms + (size_t)g->width;
    uint8_t *mask = calloc(*cells, 1);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_rng_chance(&rng, permille))
                mask[(size_t)y * (size_t)ms + (size_t)x] = (uint8_t)dg_rng_range(&rng, lo, hi);
    return mask;
}

static int ov_is_end(const dg_point *ends, int32_t count, int32_t x, int32_t y)
{
    for (int32_t k = 0; k < count; k++)
        if (ends[k].x == x && ends[k].y == y)
            return 1;
    return 0;
}

/* The grid copied with every blocked cell that is not an end made a wall. */
static void ov_walled(am_map *out, const dg_grid *g, const uint8_t *blocked, const dg_point *ends,
                      int32_t count)
{
    am_make(out, g->width, g->height, DG_TILE_WALL);
    int32_t ms = g->width + OV_PAD;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            if (blocked && blocked[(size_t)y * (size_t)ms + (size_t)x] && !ov_is_end(ends, count, x, y))
                t = DG_TILE_WALL;
            dg_grid_set(&out->grid, x, y, t);
        }
}

/* Reference Dijkstra, O(n^2): sources with start costs (NULL: 0; those over
 * limit left out), blocked cells open only at the sources, extra costs added
 * to the tile cost of the cell stepped onto. */
typedef struct ov_ref {
    const dg_grid *g;
    const dg_move *wk; /* its overlay is ignored */
    const uint8_t *blocked, *extra;
    const dg_point *ends;
    int32_t end_count;
} ov_ref;

static int ov_open(const ov_ref *r, int32_t x, int32_t y)
{
    if (!am_pass(r->g, r->wk->passable, x, y))
        return 0;
    int32_t ms = r->g->width + OV_PAD;
    return !r->blocked || !r->blocked[(size_t)y * (size_t)ms + (size_t)x] ||
           ov_is_end(r->ends, r->end_count, x, y);
}

static int64_t ov_step(const ov_ref *r, int32_t x, int32_t y, int32_t dx, int32_t dy)
{
    int32_t nx = x + dx, ny = y + dy;
    if (!ov_open(r, x, y) || !ov_open(r, nx, ny))
        return -1;
    int diag = dx && dy;
    if (diag && (r->wk->neighbours != 8 ||
                 (!r->wk->corner_cutting && (!ov_open(r, nx, y) || !ov_open(r, x, ny)))))
        return -1;
    int64_t c = r->wk->cost ? r->wk->cost[dg_grid_get(r->g, nx, ny)] : 1;
    if (r->extra)
        c += r->extra[(size_t)ny * (size_t)(r->g->width + OV_PAD) + (size_t)nx];
    return c * (diag ? r->wk->diagonal_weight : r->wk->straight_weight);
}

static void ov_ref_map(const ov_ref *r, const int32_t *start, int32_t limit, int32_t *dist)
{
    const dg_grid *g = r->g;
    int32_t n = g->width * g->height;
    int64_t *d = malloc((size_t)n * sizeof *d);
    uint8_t *done = calloc((size_t)n, 1);
    for (int32_t i = 0; i < n; i++)
        d[i] = AM_INF;
    for (int32_t k = 0; k < r->end_count; k++)
    {
        int64_t c = start ? start[k] : 0;
        int32_t i = r->ends[k].y * g->width + r->ends[k].x;
        if ((limit == 0 || c <= limit) && c < d[i])
            d[i] = c;
    }
    for (;;)
    {
        int32_t best = -1;
        for (int32_t i = 0; i < n; i++)
            if (!done[i] && d[i] != AM_INF && (best < 0 || d[i] < d[best]))
                best = i;
        if (best < 0)
            break;
        done[best] = 1;
        int32_t x = best % g->width, y = best / g->width;
        for (int32_t dy = -1; dy <= 1; dy++)
            for (int32_t dx = -1; dx <= 1; dx++)
            {
                int64_t c = dx || dy ? ov_step(r, x, y, dx, dy) : -1;
                if (c < 0)
                    continue;
                int32_t j = (y + dy) * g->width + x + dx;
                if (d[best] + c < d[j] && (limit == 0 || d[best] + c <= limit))
                    d[j] = d[best] + c;
            }
    }
    for (int32_t i = 0; i < n; i++)
        dist[i] = d[i] == AM_INF ? DG_UNREACHABLE : (int32_t)d[i];
    free(d);
    free(done);
}

/* Up to `want` passable cells picked by the rng. */
static int32_t ov_pick(const dg_grid *g, dg_rng *rng, dg_point *out, int32_t want)
{
    int32_t count = 0;
    for (int32_t tries = 0; tries < 400 && count < want; tries++)
    {
        int32_t x = (int32_t)dg_rng_below(rng, (uint32_t)g->width);
        int32_t y = (int32_t)dg_rng_below(rng, (uint32_t)g->height);
        if (dg_tile_passable(dg_grid_get(g, x, y)))
            out[count++] = (dg_point){x, y};
    }
    return count;
}

static void ov_make_map(am_map *m, uint64_t seed)
{
    if (seed % 2)
        am_rooms(m, 37, 23, seed);
    else
        am_noise(m, 23 + (int32_t)(seed % 7), 17, 250, seed);
}

static const uint16_t *ov_costs(void)
{
    static uint16_t cost[256];
    for (int t = 0; t < 256; t++)
        cost[t] = (uint16_t)(1 + t % 4);
    return cost;
}

TEST(overlay_blocked_distance_matches_walled_grid)
{
    for (uint64_t seed = 1; seed <= 24 && !test_failures(); seed++)
    {
        am_map m;
        ov_make_map(&m, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height, cells;
        uint8_t *blocked = ov_mask(&m.grid, 150, 1, 255, seed, &cells);
        int32_t *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
        int32_t *lab = malloc(n * sizeof *lab), *lab_want = malloc(n * sizeof *lab_want);
        dg_rng rng;
        dg_rng_seed(&rng, seed, 5);
        dg_overlay ov = {DG_OVERLAY_BLOCKED, m.grid.width + OV_PAD, cells, blocked, NULL, NULL};
        for (int k = 0; k < 16; k++)
        {
            dg_move wk = am_walk(k, ov_costs());
            dg_point src[3];
            int32_t ns = ov_pick(&m.grid, &rng, src, 1 + k % 3);
            if (ns == 0)
                continue;
            am_map walled;
            ov_walled(&walled, &m.grid, blocked, src, ns);
            int32_t limit = k % 5 == 4 ? 9 : 0;
            CHECK(dg_distance_map(&walled.grid, &wk, src, ns, limit, want, n, NULL, NULL, NULL) ==
                  DG_OK);
            wk.overlay = &ov;
            CHECK(dg_distance_map(&m.grid, &wk, src, ns, limit, got, n, NULL, NULL, NULL) == DG_OK);
            CHECKF(memcmp(got, want, n * sizeof *got) == 0, "seed %d walk %d", (int)seed, k);
            /* regions: no search ends, every blocked cell is a wall */
            am_map all;
            ov_walled(&all, &m.grid, blocked, NULL, 0);
            dg_move plain = am_walk(k, NULL);
            CHECK(dg_regions(&all.grid, &plain, lab_want, n, NULL, 0, NULL, NULL, NULL) == DG_OK);
            plain.overlay = &ov;
            CHECK(dg_regions(&m.grid, &plain, lab, n, NULL, 0, NULL, NULL, NULL) == DG_OK);
            CHECKF(memcmp(lab, lab_want, n * sizeof *lab) == 0, "regions seed %d walk %d",
                   (int)seed, k);
            am_free(&all);
            am_free(&walled);
        }
        free(got);
        free(want);
        free(lab);
        free(lab_want);
        free(blocked);
        am_free(&m);
    }
}

TEST(overlay_cost_distance_matches_reference)
{
    for (uint64_t seed = 1; seed <= 16 && !test_failures(); seed++)
    {
        am_map m;
        ov_make_map(&m, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height, cells;
        /* small extras keep Dial's ring; large ones take the heap */
        int32_t hi = seed % 3 == 0 ? 255 : 6;
        uint8_t *extra = ov_mask(&m.grid, 400, 1, hi, seed, &cells);
        uint8_t *blocked = seed % 2 ? ov_mask(&m.grid, 100, 1, 1, seed + 99, &cells) : NULL;
        int32_t *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
        dg_rng rng;
        dg_rng_seed(&rng, seed, 6);
        dg_overlay ov = {DG_OVERLAY_COST | (blocked ? DG_OVERLAY_BLOCKED : 0u),
                         m.grid.width + OV_PAD, cells, blocked, extra, NULL};
        for (int k = 0; k < 16; k++)
        {
            dg_move wk = am_walk(k, ov_costs());
            dg_point src[3];
            int32_t ns = ov_pick(&m.grid, &rng, src, 1 + k % 3);
            if (ns == 0)
                continue;
            int32_t limit = k % 4 == 3 ? 40 : 0;
            ov_ref r = {&m.grid, &wk, blocked, extra, src, ns};
            ov_ref_map(&r, NULL, limit, want);
            wk.overlay = &ov;
            CHECK(dg_distance_map(&m.grid, &wk, src, ns, limit, got, n, NULL, NULL, NULL) == DG_OK);
            CHECKF(memcmp(got, want, n * sizeof *got) == 0, "seed %d walk %d", (int)seed, k);
        }
        free(got);
        free(want);
        free(extra);
        free(blocked);
        am_free(&m);
    }
}

/* Every step of path is legal under r, and the steps sum to cost. */
static int ov_path_valid(const ov_ref *r, const dg_point *path, int32_t len, int32_t cost)
{
    int64_t sum = 0;
    for (int32_t k = 1; k < len; k++)
    {
        int32_t dx = path[k].x - path[k - 1].x, dy = path[k].y - path[k - 1].y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy))
            return 0;
        int64_t c = ov_step(r, path[k - 1].x, path[k - 1].y, dx, dy);
        if (c < 0)
            return 0;
        sum += c;
    }
    return sum == cost;
}

TEST(overlay_path_matches_reference_cost)
{
    for (uint64_t seed = 1; seed <= 16 && !test_failures(); seed++)
    {
        am_map m;
        ov_make_map(&m, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height, cells;
        uint8_t *blocked = ov_mask(&m.grid, 150, 1, 9, seed, &cells);
        uint8_t *extra = ov_mask(&m.grid, 300, 1, seed % 2 ? 255 : 4, seed + 7, &cells);
        int32_t *want = malloc(n * sizeof *want);
        dg_point *path = malloc(n * sizeof *path);
        dg_rng rng;
        dg_rng_seed(&rng, seed, 8);
        for (int k = 0; k < 16; k++)
        {
            dg_move wk = am_walk(k, ov_costs());
            dg_point ends[2];
            if (ov_pick(&m.grid, &rng, ends, 2) < 2)
                continue;
            int use_extra = k % 2;
            dg_overlay ov = {DG_OVERLAY_BLOCKED | (use_extra ? DG_OVERLAY_COST : 0u),
                             m.grid.width + OV_PAD, cells, blocked, extra, NULL};
            ov_ref r = {&m.grid, &wk, blocked, use_extra ? extra : NULL, ends, 2};
            int32_t ti = ends[1].y * m.grid.width + ends[1].x;
            /* from ends[0] alone (INT32_MAX never starts), ends[1] still an open end */
            int32_t zero[2] = {0, INT32_MAX};
            ov_ref_map(&r, zero, 0, want);
            wk.overlay = &ov;
            int32_t len = 0, cost = -1;
            dg_status st = dg_path_find(&m.grid, &wk, ends[0], ends[1], NULL, path, (int32_t)n,
                                        &len, &cost, NULL);
            if (want[ti] < 0)
                CHECKF(st == DG_E_NOPATH, "seed %d walk %d: %s", (int)seed, k, dg_status_str(st));
            else
            {
                CHECKF(st == DG_OK && cost == want[ti], "seed %d walk %d: cost %d want %d",
                       (int)seed, k, (int)cost, (int)want[ti]);
                CHECK(len >= 1 && path[0].x == ends[0].x && path[0].y == ends[0].y);
                CHECK(path[len - 1].x == ends[1].x && path[len - 1].y == ends[1].y);
                CHECKF(ov_path_valid(&r, path, len, cost), "seed %d walk %d", (int)seed, k);
            }
        }
        free(want);
        free(path);
        free(extra);
        free(blocked);
        am_free(&m);
    }
}

TEST(overlay_fov_sight_matches_tiles)
{
    for (uint64_t seed = 1; seed <= 30 && !test_failures(); seed++)
    {
        am_map m;
        if (seed % 2)
            am_pillars(&m, 31, 21, 80, seed);
        else
            am_rooms(&m, 37, 23, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height, cells;
        uint8_t *sight = ov_mask(&m.grid, 200, 0, 3, seed, &cells);
        uint8_t *got = malloc(n), *want = malloc(n);
        am_map copy;
        am_make(&copy, m.grid.width, m.grid.height, DG_TILE_WALL);
        int32_t ms = m.grid.width + OV_PAD;
        for (int32_t y = 0; y < m.grid.height; y++)
            for (int32_t x = 0; x < m.grid.width; x++)
            {
                uint8_t s = sight[(size_t)y * (size_t)ms + (size_t)x], t = dg_grid_get(&m.grid, x, y);
                dg_grid_set(&copy.grid, x, y,
                            s == DG_SIGHT_OPAQUE ? DG_TILE_WALL : s >= DG_SIGHT_CLEAR ? DG_TILE_FLOOR : t);
            }
        dg_overlay ov = {DG_OVERLAY_SIGHT, ms, cells, NULL, NULL, sight};
        dg_rng rng;
        dg_rng_seed(&rng, seed, 9);
        for (int q = 0; q < 12; q++)
        {
            dg_point o = {(int32_t)dg_rng_below(&rng, (uint32_t)m.grid.width),
                          (int32_t)dg_rng_below(&rng, (uint32_t)m.grid.height)};
            int32_t radius = q % 3 == 0 ? 0 : 3 + q;
            memset(got, 0x55, n);
            memset(want, 0x55, n);
            CHECK(dg_fov(&copy.grid, NULL, o, radius, want, n, NULL, NULL) == DG_OK);
            CHECK(dg_fov_overlay(&m.grid, NULL, &ov, o, radius, got, n, NULL, NULL) == DG_OK);
            CHECKF(memcmp(got, want, n) == 0, "seed %d origin (%d, %d) radius %d", (int)seed,
                   (int)o.x, (int)o.y, (int)radius);
        }
        /* no sight flag (or no overlay): the plain field of view */
        dg_overlay none = {DG_OVERLAY_BLOCKED, 0, n, sight, NULL, NULL};
        dg_point o = am_first_floor(&m.grid);
        CHECK(dg_fov(&m.grid, NULL, o, 0, want, n, NULL, NULL) == DG_OK);
        CHECK(dg_fov_overlay(&m.grid, NULL, &none, o, 0, got, n, NULL, NULL) == DG_OK);
        CHECK(memcmp(got, want, n) == 0);
        CHECK(dg_fov_overlay(&m.grid, NULL, NULL, o, 0, got, n, NULL, NULL) == DG_OK);
        CHECK(memcmp(got, want, n) == 0);
        free(got);
        free(want);
        free(sight);
        am_free(&copy);
        am_free(&m);
    }
}

/* min over sources of start + distance from that source alone. */
static void ov_min_over_sources(const dg_grid *g, const dg_move *wk, const dg_point *src,
                                const int32_t *start, int32_t count, int32_t limit, int32_t *want)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *one = malloc(n * sizeof *one);
    for (size_t i = 0; i < n; i++)
        want[i] = DG_UNREACHABLE;
    for (int32_t k = 0; k < count; k++)
    {
        if (limit > 0 && start[k] > limit)
            continue;
        CHECK(dg_distance_map(g, wk, &src[k], 1, 0, one, n, NULL, NULL, NULL) == DG_OK);
        for (size_t i = 0; i < n; i++)
        {
            if (one[i] < 0)
                continue;
            int64_t v = (int64_t)one[i] + start[k];
            if ((limit == 0 || v <= limit) && (want[i] < 0 || v < want[i]))
                want[i] = (int32_t)v;
        }
    }
    free(one);
}

TEST(dijkstra_map_matches_min_over_sources)
{
    for (uint64_t seed = 1; seed <= 20 && !test_failures(); seed++)
    {
        am_map m;
        ov_make_map(&m, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height;
        int32_t *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
        dg_rng rng;
        dg_rng_seed(&rng, seed, 10);
        for (int k = 0; k < 16; k++)
        {
            dg_move wk = am_walk(k, ov_costs());
            dg_point src[12];
            int32_t start[12];
            int32_t ns = ov_pick(&m.grid, &rng, src, 1 + k % 12);
            if (ns == 0)
                continue;
            int32_t spread = k % 3 == 0 ? 3 : k % 3 == 1 ? 60 : 100000;
            for (int32_t s = 0; s < ns; s++)
                start[s] = (int32_t)dg_rng_below(&rng, (uint32_t)spread);
            if (ns > 2)
                src[ns - 1] = src[0]; /* a repeated source: the least cost counts */
            int32_t limit = k % 4 == 1 ? 50 : 0;
            ov_min_over_sources(&m.grid, &wk, src, start, ns, limit, want);
            dg_distance_info info;
            CHECK(dg_dijkstra_map(&m.grid, &wk, src, start, ns, limit, got, n, NULL, &info,
                                  NULL) == DG_OK);
            CHECKF(memcmp(got, want, n * sizeof *got) == 0, "seed %d walk %d", (int)seed, k);
            int32_t reached = 0, maxd = DG_UNREACHABLE;
            for (size_t i = 0; i < n; i++)
            {
                reached += want[i] >= 0;
                maxd = want[i] > maxd ? want[i] : maxd;
            }
            CHECK(info.reached == reached && info.max_distance == maxd);
            if (reached)
                CHECK(got[info.farthest.y * m.grid.width + info.farthest.x] == maxd);
        }
        free(got);
        free(want);
        am_free(&m);
    }
}

/* A flee map as docs/analysis.md builds it: every reached cell a source. */
TEST(dijkstra_flee_map_every_cell_a_source)
{
    for (uint64_t seed = 1; seed <= 8 && !test_failures(); seed++)
    {
        am_map m;
        ov_make_map(&m, seed);
        size_t n = (size_t)m.grid.width * (size_t)m.grid.height;
        int32_t *approach = malloc(n * sizeof *approach), *got = malloc(n * sizeof *got);
        int32_t *want = malloc(n * sizeof *want), *start = malloc(n * sizeof *start);
        dg_point *src = malloc(n * sizeof *src);
        for (int k = 0; k < 16; k += 3)
        {
            dg_move wk = am_walk(k, ov_costs());
            dg_point player = am_first_floor(&m.grid);
            CHECK(dg_distance_map(&m.grid, &wk, &player, 1, 0, approach, n, NULL, NULL, NULL) ==
                  DG_OK);
            int32_t top = 0, ns = 0;
            for (size_t i = 0; i < n; i++)
                top = approach[i] * 6 / 5 > top ? approach[i] * 6 / 5 : top;
            for (size_t i = 0; i < n; i++)
                if (approach[i] >= 0)
                {
                    src[ns] = (dg_point){(int32_t)(i % (size_t)m.grid.width),
                                         (int32_t)(i / (size_t)m.grid.width)};
                    start[ns++] = top - approach[i] * 6 / 5;
                }
            ov_ref r = {&m.grid, &wk, NULL, NULL, src, ns};
            ov_ref_map(&r, start, 0, want);
            CHECK(dg_dijkstra_map(&m.grid, &wk, src, start, ns, 0, got, n, NULL, NULL, NULL) ==
                  DG_OK);
            CHECKF(memcmp(got, want, n * sizeof *got) == 0, "seed %d walk %d", (int)seed, k);
        }
        free(approach);
        free(got);
        free(want);
        free(start);
        free(src);
        am_free(&m);
    }
}

TEST(dijkstra_null_costs_is_distance_map)
{
    am_map m;
    am_rooms(&m, 61, 41, 3);
    size_t n = (size_t)m.grid.width * (size_t)m.grid.height;
    int32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    dg_point src[2] = {am_first_floor(&m.grid), am_first_floor(&m.grid)};
    int32_t zeros[2] = {0, 0};
    for (int k = 0; k < 16; k++)
    {
        dg_move wk = am_walk(k, ov_costs());
        dg_distance_info ia, ib, ic;
        CHECK(dg_distance_map(&m.grid, &wk, src, 2, 0, a, n, NULL, &ia, NULL) == DG_OK);
        CHECK(dg_dijkstra_map(&m.grid, &wk, src, NULL, 2, 0, b, n, NULL, &ib, NULL) == DG_OK);
        CHECK(memcmp(a, b, n * sizeof *a) == 0 && memcmp(&ia, &ib, sizeof ia) == 0);
        CHECK(dg_dijkstra_map(&m.grid, &wk, src, zeros, 2, 0, b, n, NULL, &ic, NULL) == DG_OK);
        CHECK(memcmp(a, b, n * sizeof *a) == 0 && ia.reached == ic.reached);
        /* an overlay with no flags is no overlay */
        dg_overlay none = {0, -5, 0, NULL, NULL, NULL};
        wk.overlay = &none;
        CHECK(dg_distance_map(&m.grid, &wk, src, 2, 0, b, n, NULL, &ib, NULL) == DG_OK);
        CHECK(memcmp(a, b, n * sizeof *a) == 0 && memcmp(&ia, &ib, sizeof ia) == 0);
    }
    free(a);
    free(b);
    am_free(&m);
}

/* A source whose start cost is over max_distance reaches nothing. */
TEST(dijkstra_start_over_limit_reaches_nothing)
{
    am_map m;
    am_make(&m, 9, 3, DG_TILE_FLOOR);
    int32_t dist[27];
    dg_point src[2] = {{0, 1}, {8, 1}};
    int32_t start[2] = {0, 20};
    CHECK(dg_dijkstra_map(&m.grid, NULL, src, start, 2, 10, dist, 27, NULL, NULL, NULL) == DG_OK);
    CHECK(dist[9 + 8] == 8 && dist[9 + 0] == 0);
    start[0] = 11;
    dg_distance_info info;
    CHECK(dg_dijkstra_map(&m.grid, NULL, src, start, 2, 10, dist, 27, NULL, &info, NULL) == DG_OK);
    for (int i = 0; i < 27; i++)
        CHECK(dist[i] == DG_UNREACHABLE);
    CHECK(info.reached == 0);
    am_free(&m);
}

TEST(overlay_bad_input_leaves_buffers)
{
    am_map m;
    am_make(&m, 8, 6, DG_TILE_FLOOR);
    enum { N = 48 };
    uint8_t mask[N + 16];
    memset(mask, 0, sizeof mask);
    int32_t dist[N];
    uint8_t vis[N];
    dg_point p[2] = {{1, 1}, {6, 4}}, path[N];
    int32_t len = -7, cost = -7;
    struct {
        dg_overlay ov;
        dg_status st;
        const char *words;
    } cases[] = {
        {{8u, 0, N, mask, mask, mask}, DG_E_INVALID, "unknown bits"},
        {{DG_OVERLAY_BLOCKED, 0, N, NULL, mask, mask}, DG_E_INVALID, "blocked"},
        {{DG_OVERLAY_COST, 0, N, mask, NULL, mask}, DG_E_INVALID, "extra_cost"},
        {{DG_OVERLAY_SIGHT, 0, N, mask, mask, NULL}, DG_E_INVALID, "sight"},
        {{DG_OVERLAY_BLOCKED, 7, N, mask, NULL, NULL}, DG_E_INVALID, "stride"},
        {{DG_OVERLAY_BLOCKED, -1, N, mask, NULL, NULL}, DG_E_INVALID, "stride"},
        {{DG_OVERLAY_BLOCKED, 0, N - 1, mask, NULL, NULL}, DG_E_BUFFER, "blocked"},
        {{DG_OVERLAY_COST, 10, 5 * 10 + 7, NULL, mask, NULL}, DG_E_BUFFER, "extra_cost"},
        {{DG_OVERLAY_SIGHT, 9, 5 * 9 + 7, NULL, NULL, mask}, DG_E_BUFFER, "sight"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
        dg_move wk;
        dg_move_defaults(&wk);
        wk.overlay = &cases[c].ov;
        dg_diag diag;
        int is_sight = cases[c].ov.flags == DG_OVERLAY_SIGHT;
        memset(dist, 0x77, sizeof dist);
        memset(vis, 0x77, sizeof vis);
        memset(path, 0x77, sizeof path);
        if (!is_sight) /* a sight-only overlay is fine for a walk (ignored)... */
        {
            CHECK(dg_distance_map(&m.grid, &wk, p, 1, 0, dist, N, NULL, NULL, &diag) ==
                  cases[c].st);
            CHECKF(strstr(diag.message, cases[c].words) != NULL, "%s", diag.message);
            CHECK(dg_dijkstra_map(&m.grid, &wk, p, NULL, 1, 0, dist, N, NULL, NULL, NULL) ==
                  cases[c].st);
            CHECK(dg_path_find(&m.grid, &wk, p[0], p[1], NULL, path, N, &len, &cost, NULL) ==
                  cases[c].st);
            CHECK(dg_regions(&m.grid, &wk, dist, N, NULL, 0, NULL, NULL, NULL) == cases[c].st);
        }
        /* ...but validated as every flagged mask is */
        CHECK(dg_fov_overlay(&m.grid, NULL, &cases[c].ov, p[0], 0, vis, N, NULL, &diag) ==
              cases[c].st);
        CHECKF(strstr(diag.message, cases[c].words) != NULL, "%s", diag.message);
        for (int i = 0; i < N; i++)
            CHECK(dist[i] == 0x77777777 && vis[i] == 0x77);
        CHECK(path[0].x == 0x77777777 && len == -7 && cost == -7);
    }
    /* negative start cost */
    int32_t start[2] = {0, -1};
    dg_diag diag;
    memset(dist, 0x77, sizeof dist);
    CHECK(dg_dijkstra_map(&m.grid, NULL, p, start, 2, 0, dist, N, NULL, NULL, &diag) ==
          DG_E_INVALID);
    CHECK(strstr(diag.message, "negative") != NULL);
    /* start costs whose sum with the walk overflows int32 */
    start[1] = INT32_MAX - 10;
    CHECK(dg_dijkstra_map(&m.grid, NULL, p, start, 2, 0, dist, N, NULL, NULL, &diag) ==
          DG_E_TOO_LARGE);
    for (int i = 0; i < N; i++)
        CHECK(dist[i] == 0x77777777);
    am_free(&m);
}

/* Blocked ends: a blocked source spreads, a blocked goal is reached, and a
 * blocked cell between them is walked around. */
TEST(overlay_blocked_ends_are_open)
{
    am_map m;
    am_make(&m, 5, 3, DG_TILE_FLOOR);
    uint8_t blocked[15] = {0};
    blocked[5 + 0] = blocked[5 + 2] = blocked[5 + 4] = 1;
    dg_overlay ov = {DG_OVERLAY_BLOCKED, 0, 15, blocked, NULL, NULL};
    dg_move wk;
    dg_move_defaults(&wk);
    wk.overlay = &ov;
    dg_point a = {0, 1}, b = {4, 1}, path[15];
    int32_t len = 0, cost = 0, dist[15];
    CHECK(dg_path_find(&m.grid, &wk, a, b, NULL, path, 15, &len, &cost, NULL) == DG_OK);
    CHECK(cost == 6 && len == 7);
    CHECK(dg_distance_map(&m.grid, &wk, &a, 1, 0, dist, 15, NULL, NULL, NULL) == DG_OK);
    CHECK(dist[5 + 0] == 0 && dist[5 + 2] == DG_UNREACHABLE && dist[5 + 4] == DG_UNREACHABLE);
    CHECK(dist[0] == 1 && dist[4] == 5 && dist[5 + 3] == 5);
    am_free(&m);
}

/* Pinned maps: Dial's ring, the heap and the flee sort give these bytes everywhere. */
TEST(dijkstra_map_hash_pinned)
{
    am_map m;
    am_rooms(&m, 61, 41, 11);
    size_t n = (size_t)m.grid.width * (size_t)m.grid.height, cells;
    int32_t *dist = malloc(n * sizeof *dist), *start = malloc(n * sizeof *start);
    dg_point *src = malloc(n * sizeof *src);
    int32_t ns = 0;
    for (size_t i = 0; i < n; i += 7)
        if (dg_tile_passable(m.cells[i]))
        {
            src[ns] = (dg_point){(int32_t)(i % 61), (int32_t)(i / 61)};
            start[ns] = (int32_t)((i * 2654435761u) % 97);
            ns++;
        }
    uint64_t h = 0;
    dg_move wk = am_walk(1 | 8, NULL);
    dg_distance_info info;
    CHECK(dg_dijkstra_map(&m.grid, &wk, src, start, ns, 0, dist, n, NULL, &info, NULL) == DG_OK);
    h ^= am_hash(dist, n * sizeof *dist) ^ am_hash(&info, sizeof info);
    uint8_t *extra = ov_mask(&m.grid, 300, 1, 200, 5, &cells);
    dg_overlay ov = {DG_OVERLAY_COST, m.grid.width + OV_PAD, cells, NULL, extra, NULL};
    wk.overlay = &ov;
    CHECK(dg_dijkstra_map(&m.grid, &wk, src, start, ns, 0, dist, n, NULL, &info, NULL) == DG_OK);
    h = h * 31 + am_hash(dist, n * sizeof *dist);
    if (getenv("DG_PRINT_PINS"))
        printf("dijkstra pin 0x%016llx\n", (unsigned long long)h);
    CHECK_EQ_U64(h, 0xb1f2f5873e572429ull);
    free(extra);
    free(dist);
    free(start);
    free(src);
    am_free(&m);
}
