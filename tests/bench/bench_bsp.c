/* Binary space partition generator: time per map at the defaults, tiles only
 * and with the structured result, at five sizes. With DG_BENCH_TCOD (the
 * Makefile defines it when libtcod-dev is installed) the same run times
 * libtcod's BSP carving side by side: TCOD_bsp_split_recursive with the same
 * leaf minimums and aspect limit, then a post-order traversal that digs a
 * room per leaf and an L corridor between the two halves of every node into
 * a byte grid (connected, no walls or doors: the least work libtcod allows
 * for the same kind of map), and prints the ratio of the medians. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>


typedef struct bsp_bench {
    dg_grid grid;
    dg_bsp_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} bsp_bench;

static void bsp_op(void *ctx, int64_t i)
{
    bsp_bench *b = ctx;
    if (dg_bsp_generate(&b->grid, &b->params, (uint64_t)i, b->with_result ? &b->result : NULL,
                        &b->alloc, NULL) != DG_OK)
        abort();
}

static const struct {
    int32_t w, h;
    int reps;
    int64_t batch;
} bsp_sizes[] = {
    {80, 25, 301, 50}, {80, 50, 201, 20}, {200, 200, 101, 2}, {1000, 1000, 21, 1},
    {2048, 2048, 11, 1},
};
#define BSP_SIZES ((int)(sizeof bsp_sizes / sizeof bsp_sizes[0]))

static void bsp_row(int k, int with_result)
{
    int32_t w = bsp_sizes[k].w, h = bsp_sizes[k].h;
    bsp_bench b;
    bench_mem mem;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_bsp_defaults(&b.params);
    b.alloc = bench_allocator(&mem);
    b.with_result = with_result;
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(name, sizeof name, "bsp %s", with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, bsp_sizes[k].reps, bsp_sizes[k].batch, bsp_op, &b, &mem);
    if (with_result)
    {
        bsp_op(&b, 1);
        printf("%-28s %-10s floor %d permille, %d rooms, %d corridors, %d loops\n", "", size,
               (int)b.result.metrics.floor_permille, (int)b.result.room_count,
               (int)b.result.corridor_count, (int)b.result.metrics.loops);
    }
    dg_result_free(&b.result);
    free(cells);
}

#ifdef DG_BENCH_TCOD
/* ---- the peer: libtcod's BSP, carved the cheapest way (bench_tcod.c) -------------- */

typedef struct tcod_bench {
    int32_t w, h;
    uint8_t *cells;
} tcod_bench;

static void tcod_op(void *ctx, int64_t i)
{
    tcod_bench *t = ctx;
    bench_tcod_bsp(t->cells, t->w, t->h, (uint32_t)i);
}

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Alternating batches of both, each timed alone; the medians and their ratio. */
static void tcod_compare(int k)
{
    int32_t w = bsp_sizes[k].w, h = bsp_sizes[k].h;
    int reps = bsp_sizes[k].reps;
    int64_t batch = bsp_sizes[k].batch;
    bsp_bench b;
    tcod_bench t = {w, h, malloc((size_t)w * (size_t)h)};
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    int64_t *ours = malloc((size_t)reps * sizeof *ours), *theirs = malloc((size_t)reps * sizeof *theirs);
    bench_mem mem;
    if (t.cells && cells && ours && theirs && dg_grid_init(&b.grid, cells, w, h, 0) == DG_OK)
    {
        dg_bsp_defaults(&b.params);
        b.alloc = bench_allocator(&mem);
        b.with_result = 0;
        bsp_op(&b, 0);
        tcod_op(&t, 0);
        int64_t i = 1;
        for (int r = 0; r < reps; r++, i += batch)
        {
            int64_t t0 = bench_now_ns();
            for (int64_t j = 0; j < batch; j++)
                bsp_op(&b, i + j);
            int64_t t1 = bench_now_ns();
            for (int64_t j = 0; j < batch; j++)
                tcod_op(&t, i + j);
            int64_t t2 = bench_now_ns();
            ours[r] = (t1 - t0) / batch;
            theirs[r] = (t2 - t1) / batch;
        }
        qsort(ours, (size_t)reps, sizeof *ours, cmp_ns);
        qsort(theirs, (size_t)reps, sizeof *theirs, cmp_ns);
        char size[32];
        snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
        printf("%-28s %-10s %9.2f us libtcod %9.2f us  ratio %.2f\n", "bsp tiles vs libtcod bsp",
               size, (double)ours[reps / 2] / 1000.0, (double)theirs[reps / 2] / 1000.0,
               (double)ours[reps / 2] / (double)theirs[reps / 2]);
        fflush(stdout);
    }
    free(ours);
    free(theirs);
    free(cells);
    free(t.cells);
}
#endif

BENCH(bench_bsp)
{
    for (int with_result = 0; with_result <= 1; with_result++)
        for (int k = 0; k < BSP_SIZES; k++)
            bsp_row(k, with_result);
#ifdef DG_BENCH_TCOD
    for (int k = 0; k < BSP_SIZES; k++)
        tcod_compare(k);
#endif
}
