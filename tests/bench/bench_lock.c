/* Locks and keys: dg_lock_place (3 locks, with its solver run), dg_solve
 * alone, and the two one after the other (a caller that locks a map and
 * proves it) on attach maps, beside generating the same map in the same run; and
 * one floor of a stacked dungeon built alone, beside one plain map. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lock_bench {
    dg_grid grid;
    uint8_t *pristine;
    size_t bytes;
    dg_result result;
    int32_t markers;
    dg_lock_params params;
    dg_attach_params attach;
    dg_allocator alloc;
} lock_bench;

static void lock_op(void *ctx, int64_t i)
{
    lock_bench *b = ctx;
    memcpy(b->grid.cells, b->pristine, b->bytes);
    b->result.marker_count = b->markers;
    dg_lock_place(&b->grid, &b->params, (uint64_t)i, &b->result, NULL, &b->alloc, NULL);
}

static void solve_op(void *ctx, int64_t i)
{
    lock_bench *b = ctx;
    dg_progress p;
    (void)i;
    dg_solve(&b->grid, &b->result, &p, &b->alloc, NULL);
}

static void lock_solve_op(void *ctx, int64_t i)
{
    lock_op(ctx, i);
    solve_op(ctx, i);
}

static void generate_op(void *ctx, int64_t i)
{
    lock_bench *b = ctx;
    dg_attach_generate(&b->grid, &b->attach, (uint64_t)i, &b->result, &b->alloc, NULL);
}

/* Floor 2 of 5 alone (generation, stairs, anchors), beside the plain map. */
typedef struct floor_bench {
    dg_grid grid;
    dg_result result;
    dg_recipe recipe;
    dg_allocator alloc;
} floor_bench;

static void recipe_op(void *ctx, int64_t i)
{
    floor_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    dg_recipe_generate(&b->recipe, &b->grid, NULL, &b->result, &b->alloc, NULL);
}

static void floor_op(void *ctx, int64_t i)
{
    floor_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    dg_floor_generate(&b->recipe, 2, 5, 1, &b->grid, NULL, &b->result, NULL, &b->alloc, NULL);
}

static void floor_rows(int32_t w, int32_t h, int reps, int64_t batch)
{
    floor_bench b;
    bench_mem mem;
    memset(&b, 0, sizeof b);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK ||
        dg_recipe_init(&b.recipe, "attach", 1, w, h) != DG_OK)
    {
        free(cells);
        return;
    }
    b.alloc = bench_allocator(&mem);
    dg_result_init(&b.result, NULL);
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    for (int round = 0; round < 2; round++) /* alternate, the machine is shared */
    {
        bench_run("floor attach: one map", size, (int64_t)w * h, reps, batch, recipe_op, &b, &mem);
        bench_run("floor attach: floor 2 of 5 alone", size, (int64_t)w * h, reps, batch, floor_op,
                  &b, &mem);
    }
    dg_result_free(&b.result);
    free(cells);
}

static void lock_rows(int32_t w, int32_t h, int reps, int64_t batch)
{
    lock_bench b;
    bench_mem mem;
    memset(&b, 0, sizeof b);
    b.bytes = (size_t)w * (size_t)h;
    uint8_t *cells = malloc(b.bytes);
    b.pristine = malloc(b.bytes);
    if (!cells || !b.pristine || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        free(b.pristine);
        return;
    }
    dg_attach_defaults(&b.attach);
    dg_lock_defaults(&b.params);
    b.params.locks = 3;
    b.alloc = bench_allocator(&mem);
    dg_result_init(&b.result, NULL);
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run("lock attach: generate", size, (int64_t)w * h, reps, batch, generate_op, &b, &mem);
    dg_attach_generate(&b.grid, &b.attach, 7, &b.result, NULL, NULL);
    memcpy(b.pristine, cells, b.bytes);
    b.markers = b.result.marker_count;
    bench_run("lock attach: lock 3 + solve", size, (int64_t)w * h, reps, batch, lock_op, &b, &mem);
    bench_run("lock attach: solve", size, (int64_t)w * h, reps, batch, solve_op, &b, &mem);
    bench_run("lock attach: lock, dg_solve", size, (int64_t)w * h, reps, batch, lock_solve_op,
              &b, &mem);
    dg_result_free(&b.result);
    free(cells);
    free(b.pristine);
}

BENCH(bench_lock)
{
    lock_rows(80, 50, 201, 20);
    lock_rows(200, 200, 51, 2);
    floor_rows(80, 50, 201, 20);
    floor_rows(200, 200, 51, 2);
}
