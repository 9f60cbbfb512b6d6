/* Drunkard's walk and tunnelers (walk): time per map at the default
 * parameters from 80x25 to 2048x2048, tiles only and with the structured
 * result, plus drunk walkers; the cost per cell should stay flat as the map
 * grows (the walk is linear in the carved cells). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct walk_bench {
    dg_grid grid;
    dg_walk_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} walk_bench;

static void walk_op(void *ctx, int64_t i)
{
    walk_bench *b = ctx;
    dg_walk_generate(&b->grid, &b->params, (uint64_t)i, b->with_result ? &b->result : NULL,
                         &b->alloc, NULL);
}

static void walk_row(int32_t w, int32_t h, int mode, int with_result, int reps, int64_t batch)
{
    walk_bench b;
    bench_mem mem;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_walk_defaults(&b.params);
    b.params.mode = mode;
    b.alloc = bench_allocator(&mem);
    b.with_result = with_result;
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "walk %s %s", mode == DG_WALK_DRUNK ? "drunk" : "tunnel",
             with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, reps, batch, walk_op, &b, &mem);
    if (with_result)
    {
        walk_op(&b, 1);
        printf("%-28s %-10s floor %d permille, %d rooms, %d steps (%d per 100 cells)\n", "", size,
               (int)b.result.metrics.floor_permille, (int)b.result.room_count,
               (int)b.result.metrics.attempts,
               (int)(100 * (int64_t)b.result.metrics.attempts / b.result.metrics.placed));
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_walk)
{
    for (int mode = DG_WALK_TUNNELER; mode >= DG_WALK_DRUNK; mode--)
        for (int with_result = 0; with_result <= 1; with_result++)
        {
            walk_row(80, 25, mode, with_result, 101, 10);
            walk_row(80, 50, mode, with_result, 101, 5);
            walk_row(200, 200, mode, with_result, 31, 1);
            walk_row(1000, 1000, mode, with_result, 7, 1);
            walk_row(2048, 2048, mode, with_result, 5, 1);
        }
}
