/* Map analysis on attach maps (80x50 and 200x200): distance maps, A*, FOV,
 * regions, metrics, placement. Queries start from random floor cells; the
 * A* row is the average over many random pairs. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    dg_walk walk;
    dg_allocator alloc;
    int32_t radius;
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
    dg_place(&b->grid, &p, (uint64_t)i, &out, spawns, 16, NULL, &b->alloc, NULL);
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
    dg_walk_defaults(&b->walk);
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
    bench_run("analyze bfs distance", size, cells, 301, 40 / scale + 1, op_bfs, &b, NULL);
    b.walk.neighbours = 8;
    bench_run("analyze bfs distance 8-way", size, cells, 301, 40 / scale + 1, op_bfs, &b, NULL);
    uint16_t cost[256];
    for (int t = 0; t < 256; t++)
        cost[t] = t == DG_TILE_DOOR ? 5 : t == DG_TILE_CORRIDOR ? 2 : 1;
    b.walk.neighbours = 4;
    b.walk.cost = cost;
    bench_run("analyze dijkstra costs", size, cells, 201, 10 / scale + 1, op_bfs, &b, NULL);
    dg_walk_defaults(&b.walk);
    bench_run("analyze astar avg query", size, cells, 301, 100 / scale + 1, op_path, &b, NULL);
    b.walk.neighbours = 8;
    bench_run("analyze astar 8-way", size, cells, 301, 100 / scale + 1, op_path, &b, NULL);
    dg_walk_defaults(&b.walk);
    b.radius = 8;
    bench_run("analyze fov radius 8", size, cells, 301, 200, op_fov, &b, NULL);
    b.radius = 0;
    bench_run("analyze fov unlimited", size, cells, 301, 100, op_fov, &b, NULL);
    bench_run("analyze regions", size, cells, 201, 20 / scale + 1, op_regions, &b, NULL);
    bench_run("analyze measure", size, cells, 101, 4 / scale + 1, op_measure, &b, &mem);
    bench_run("analyze place 16 spawns", size, cells, 101, 4 / scale + 1, op_place, &b, &mem);
    analyze_teardown(&b);
}

BENCH(bench_analyze)
{
    analyze_rows(80, 50, 1);
    analyze_rows(200, 200, 10);
}
