/* Maze generator: time per map at five sizes, the default layout (rooms and
 * mazes) and the perfect maze, tiles only and with the full structured result. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct maze_bench {
    dg_grid grid;
    dg_maze_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} maze_bench;

static void maze_op(void *ctx, int64_t i)
{
    maze_bench *b = ctx;
    dg_maze_generate(&b->grid, &b->params, (uint64_t)i, b->with_result ? &b->result : NULL,
                     &b->alloc, NULL);
}

static void maze_row(int32_t w, int32_t h, int layout, int with_result, int reps, int64_t batch)
{
    maze_bench b;
    bench_mem mem;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_maze_defaults(&b.params);
    b.params.layout = layout;
    b.alloc = bench_allocator(&mem);
    b.with_result = with_result;
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "maze %s %s", layout == DG_MAZE_LAYOUT_ROOMS ? "rooms" : "perfect",
             with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, reps, batch, maze_op, &b, &mem);
    if (with_result)
    {
        maze_op(&b, 1);
        printf("%-28s %-10s floor %d permille, %d rooms, %d doors, %d loops\n", "", size,
               (int)b.result.metrics.floor_permille, (int)b.result.room_count,
               (int)b.result.door_count, (int)b.result.metrics.loops);
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_maze)
{
    for (int layout = 0; layout <= 1; layout++)
        for (int with_result = 0; with_result <= 1; with_result++)
        {
            maze_row(80, 25, layout, with_result, 301, 50);
            maze_row(80, 50, layout, with_result, 201, 20);
            maze_row(200, 200, layout, with_result, 101, 2);
            maze_row(1000, 1000, layout, with_result, 21, 1);
            maze_row(2048, 2048, layout, with_result, 7, 1);
        }
}
