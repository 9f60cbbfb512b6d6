/* Map analysis on attach maps (80x50 and 200x200): distance maps, A*, FOV,
 * regions, metrics, placement. Queries start from random floor cells; the
 * A* row is the average over many random pairs. Distance maps also at
 * 1000x1000: unit breadth-first search beside the weighted 8-way map
 * (straight 2, diagonal 3) and a flee map (every reached cell a source), and
 * with DG_BENCH_TCOD libtcod's Dijkstra (diagonal cost 1.41) on the same
 * grid, timed in alternation with ours, with the ratio of the medians. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DG_BENCH_TCOD
#include <libtcod/fov.h>
#include <libtcod/path.h>
#endif

#define PAIRS 1024

typedef struct analyze_bench {
    dg_grid grid;
    uint8_t *cells;
    int32_t *dist;
    uint8_t *vis;
    dg_point *floor;
    int32_t floor_count;
    dg_point *path;
    dg_path_workspace *ws;
    dg_move walk;
    dg_allocator alloc;
    int32_t radius;
    dg_point *sources;  /* flee map: every reached cell */
    int32_t *start;     /* and its start cost */
    int32_t source_count;
} analyze_bench;

static dg_point pick(const analyze_bench *b, int64_t i)
{
    return b->floor[(uint64_t)dg_hash64((uint64_t)i) % (uint64_t)b->floor_count];
}

static void op_bfs(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    dg_point s = pick(b, i);
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    dg_distance_map(&b->grid, &b->walk, &s, 1, 0, b->dist, n, b->ws, NULL, NULL);
}

/* A flee map from the approach map in dist (8-way 2/3): see docs/analysis.md. */
static void op_flee(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    (void)i;
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    dg_dijkstra_map(&b->grid, &b->walk, b->sources, b->start, b->source_count, 0, b->dist, n,
                    b->ws, NULL, NULL);
}

static void op_path(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    int32_t len;
    dg_point from = pick(b, 2 * (i % PAIRS)), to = pick(b, 2 * (i % PAIRS) + 1);
    dg_path_find(&b->grid, &b->walk, from, to, b->ws, b->path, b->floor_count, &len, NULL, NULL);
}

static void op_fov(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    dg_fov(&b->grid, NULL, pick(b, i), b->radius, b->vis, n, NULL, NULL);
}

static void op_regions(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    (void)i;
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    dg_regions(&b->grid, NULL, b->dist, n, NULL, 0, NULL, NULL, NULL);
}

static void op_measure(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    dg_metrics m;
    (void)i;
    dg_measure(&b->grid, NULL, &m, &b->alloc, NULL);
}

static void op_place(void *ctx, int64_t i)
{
    analyze_bench *b = ctx;
    dg_place_params p;
    dg_placement out;
    dg_point spawns[16];
    dg_place_defaults(&p);
    p.spawn_count = 16;
    dg_place(&b->grid, &p, (uint64_t)i, NULL, &out, spawns, 16, &b->alloc, NULL);
}

static int analyze_setup(analyze_bench *b, int32_t w, int32_t h, uint64_t seed)
{
    memset(b, 0, sizeof *b);
    size_t n = (size_t)w * (size_t)h;
    b->cells = malloc(n);
    b->dist = malloc(n * sizeof *b->dist);
    b->vis = malloc(n);
    b->floor = malloc(n * sizeof *b->floor);
    b->path = malloc(n * sizeof *b->path);
    dg_attach_params params;
    dg_attach_defaults(&params);
    if (!b->cells || !b->dist || !b->vis || !b->floor || !b->path ||
        dg_grid_init(&b->grid, b->cells, w, h, 0) != DG_OK ||
        dg_attach_generate(&b->grid, &params, seed, NULL, NULL, NULL) != DG_OK ||
        dg_path_workspace_create(w, h, NULL, &b->ws) != DG_OK)
        return 0;
    dg_move_defaults(&b->walk);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (dg_tile_passable(dg_grid_get(&b->grid, x, y)))
                b->floor[b->floor_count++] = (dg_point){x, y};
    return b->floor_count > 1;
}

static void analyze_teardown(analyze_bench *b)
{
    dg_path_workspace_free(b->ws);
    free(b->cells);
    free(b->dist);
    free(b->vis);
    free(b->floor);
    free(b->path);
    free(b->sources);
    free(b->start);
}

/* The average number of cells on a random pair's path, to read the A* row. */
static double mean_path(analyze_bench *b)
{
    int64_t total = 0;
    for (int64_t i = 0; i < PAIRS; i++)
    {
        int32_t len = 0;
        dg_path_find(&b->grid, &b->walk, pick(b, 2 * i), pick(b, 2 * i + 1), b->ws, NULL, 0, &len,
                     NULL, NULL);
        total += len;
    }
    return (double)total / PAIRS;
}

/* Sources for a flee map: every cell reached from the first floor cell, at
 * K - d * 6 / 5 (K the largest such value, so all start costs are >= 0). */
static int flee_setup(analyze_bench *b)
{
    size_t n = (size_t)b->grid.width * (size_t)b->grid.height;
    b->sources = malloc(n * sizeof *b->sources);
    b->start = malloc(n * sizeof *b->start);
    if (!b->sources || !b->start ||
        dg_distance_map(&b->grid, &b->walk, &b->floor[0], 1, 0, b->dist, n, b->ws, NULL, NULL))
        return 0;
    int32_t k = 0;
    for (size_t i = 0; i < n; i++)
        k = b->dist[i] > k ? b->dist[i] : k;
    k = k * 6 / 5;
    b->source_count = 0;
    for (size_t i = 0; i < n; i++)
        if (b->dist[i] >= 0)
        {
            b->sources[b->source_count] =
                (dg_point){(int32_t)(i % (size_t)b->grid.width), (int32_t)(i / (size_t)b->grid.width)};
            b->start[b->source_count++] = k - b->dist[i] * 6 / 5;
        }
    return 1;
}

#ifdef DG_BENCH_TCOD
static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Ours (8-way 2/3, b->walk) and libtcod's Dijkstra from the same cells, in
 * alternation; prints both medians and their ratio. */
static void tcod_compare(analyze_bench *b, const char *size, int reps)
{
    TCOD_Map *map = TCOD_map_new(b->grid.width, b->grid.height);
    for (int32_t y = 0; y < b->grid.height; y++)
        for (int32_t x = 0; x < b->grid.width; x++)
        {
            int open = dg_tile_passable(dg_grid_get(&b->grid, x, y));
            TCOD_map_set_properties(map, x, y, open, open);
        }
    TCOD_dijkstra_t dij = TCOD_dijkstra_new(map, 1.41f);
    int64_t *ours = malloc((size_t)reps * sizeof *ours), *theirs = malloc((size_t)reps * sizeof *theirs);
    for (int r = -1; r < reps; r++) /* r = -1 warms up */
    {
        dg_point s = pick(b, r + 1);
        int64_t t0 = bench_now_ns();
        op_bfs(b, r + 1);
        int64_t t1 = bench_now_ns();
        TCOD_dijkstra_compute(dij, s.x, s.y);
        int64_t t2 = bench_now_ns();
        if (r >= 0)
        {
            ours[r] = t1 - t0;
            theirs[r] = t2 - t1;
        }
    }
    qsort(ours, (size_t)reps, sizeof *ours, cmp_ns);
    qsort(theirs, (size_t)reps, sizeof *theirs, cmp_ns);
    printf("%-28s %-10s %9.1f us libtcod %9.1f us  ratio %.2f\n", "dist 2/3 vs libtcod dijkstra",
           size, (double)ours[reps / 2] / 1000.0, (double)theirs[reps / 2] / 1000.0,
           (double)ours[reps / 2] / (double)theirs[reps / 2]);
    fflush(stdout);
    free(ours);
    free(theirs);
    TCOD_dijkstra_delete(dij);
    TCOD_map_delete(map);
}
#endif

/* Unit breadth-first distance maps beside the weighted 8-way (2/3) one, the
 * flee map and (with libtcod) its Dijkstra; leaves b->walk at the defaults. */
static void distance_rows(analyze_bench *b, const char *size, int64_t cells, int scale)
{
    int reps = scale > 10 ? 31 : 301;
    dg_move_defaults(&b->walk);
    bench_run("analyze bfs distance", size, cells, reps, 40 / scale + 1, op_bfs, b, NULL);
    b->walk.neighbours = 8;
    bench_run("analyze bfs distance 8-way", size, cells, reps, 40 / scale + 1, op_bfs, b, NULL);
    b->walk.straight_weight = 2;
    b->walk.diagonal_weight = 3;
    bench_run("analyze dist 8-way 2/3", size, cells, reps, 40 / scale + 1, op_bfs, b, NULL);
    if (flee_setup(b))
        bench_run("analyze flee map 8-way 2/3", size, cells, reps, 10 / scale + 1, op_flee, b,
                  NULL);
#ifdef DG_BENCH_TCOD
    tcod_compare(b, size, reps);
#endif
    dg_move_defaults(&b->walk);
}

static void analyze_rows(int32_t w, int32_t h, int scale)
{
    analyze_bench b;
    bench_mem mem;
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    if (!analyze_setup(&b, w, h, 42))
    {
        printf("%-28s %-10s setup failed\n", "analyze", size);
        analyze_teardown(&b);
        return;
    }
    int64_t cells = (int64_t)w * h;
    printf("%-28s %-10s %d floor cells, mean A* path %.1f cells\n", "analyze map", size,
           (int)b.floor_count, mean_path(&b));
    b.alloc = bench_allocator(&mem);
    distance_rows(&b, size, cells, scale);
    uint16_t cost[256];
    for (int t = 0; t < 256; t++)
        cost[t] = t == DG_TILE_DOOR ? 5 : t == DG_TILE_CORRIDOR ? 2 : 1;
    b.walk.neighbours = 4;
    b.walk.cost = cost;
    bench_run("analyze dijkstra costs", size, cells, 201, 10 / scale + 1, op_bfs, &b, NULL);
    dg_move_defaults(&b.walk);
    bench_run("analyze astar avg query", size, cells, 301, 100 / scale + 1, op_path, &b, NULL);
    b.walk.neighbours = 8;
    bench_run("analyze astar 8-way", size, cells, 301, 100 / scale + 1, op_path, &b, NULL);
    dg_move_defaults(&b.walk);
    b.radius = 8;
    bench_run("analyze fov radius 8", size, cells, 301, 200, op_fov, &b, NULL);
    b.radius = 0;
    bench_run("analyze fov unlimited", size, cells, 301, 100, op_fov, &b, NULL);
    bench_run("analyze regions", size, cells, 201, 20 / scale + 1, op_regions, &b, NULL);
    bench_run("analyze measure", size, cells, 101, 4 / scale + 1, op_measure, &b, &mem);
    bench_run("analyze place 16 spawns", size, cells, 101, 4 / scale + 1, op_place, &b, &mem);
    analyze_teardown(&b);
}

/* Distance maps only, on a large map. */
static void distance_large(int32_t w, int32_t h)
{
    analyze_bench b;
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    if (analyze_setup(&b, w, h, 42))
    {
        printf("%-28s %-10s %d floor cells\n", "analyze map", size, (int)b.floor_count);
        distance_rows(&b, size, (int64_t)w * h, 250);
    }
    else
        printf("%-28s %-10s setup failed\n", "analyze", size);
    analyze_teardown(&b);
}

BENCH(bench_analyze)
{
    analyze_rows(80, 50, 1);
    analyze_rows(200, 200, 10);
    distance_large(1000, 1000);
}
