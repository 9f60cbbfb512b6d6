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
#include <string.h>

#ifdef DG_BENCH_TCOD
#include <libtcod/bsp.h>
#include <libtcod/mersenne.h>
#endif

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
/* ---- the peer: libtcod's BSP, carved the cheapest way ---------------------------- */

typedef struct tcod_dig {
    uint8_t *cells;
    int32_t width;
    TCOD_random_t rng;
    int32_t stack[2 * 64]; /* (x, y) of one room cell per pending subtree */
    int32_t top;
} tcod_dig;

static void tcod_fill(tcod_dig *d, int x0, int y0, int x1, int y1)
{
    if (x0 > x1)
    {
        int t = x0;
        x0 = x1, x1 = t;
    }
    if (y0 > y1)
    {
        int t = y0;
        y0 = y1, y1 = t;
    }
    for (int y = y0; y <= y1; y++)
        memset(d->cells + (size_t)y * (size_t)d->width + (size_t)x0, 1, (size_t)(x1 - x0 + 1));
}

/* Post order: a leaf digs a room (walls left as rock inside the leaf) and
 * pushes a cell of it; a node pops its two halves' cells and joins them with
 * an L corridor, keeping the first half's cell for its own parent. */
static bool tcod_visit(TCOD_bsp_t *node, void *user)
{
    tcod_dig *d = user;
    if (TCOD_bsp_is_leaf(node))
    {
        int w = TCOD_random_get_int(d->rng, 3, node->w - 4);
        int h = TCOD_random_get_int(d->rng, 3, node->h - 4);
        int x = node->x + 2 + TCOD_random_get_int(d->rng, 0, node->w - 4 - w);
        int y = node->y + 2 + TCOD_random_get_int(d->rng, 0, node->h - 4 - h);
        tcod_fill(d, x, y, x + w - 1, y + h - 1);
        if (d->top < 64)
        {
            d->stack[2 * d->top] = x + w / 2;
            d->stack[2 * d->top + 1] = y + h / 2;
        }
        d->top++;
        return true;
    }
    d->top--;
    int bx = d->stack[2 * d->top], by = d->stack[2 * d->top + 1];
    int ax = d->stack[2 * d->top - 2], ay = d->stack[2 * d->top - 1];
    tcod_fill(d, ax, ay, bx, ay);
    tcod_fill(d, bx, ay, bx, by);
    return true;
}

typedef struct tcod_bench {
    int32_t w, h;
    uint8_t *cells;
} tcod_bench;

static void tcod_op(void *ctx, int64_t i)
{
    tcod_bench *t = ctx;
    tcod_dig d;
    memset(t->cells, 0, (size_t)t->w * (size_t)t->h);
    d.cells = t->cells;
    d.width = t->w;
    d.top = 0;
    d.rng = TCOD_random_new_from_seed(TCOD_RNG_CMWC, (uint32_t)i);
    TCOD_bsp_t *root = TCOD_bsp_new_with_size(0, 0, t->w, t->h);
    dg_bsp_params p;
    dg_bsp_defaults(&p);
    float ratio = (float)p.max_ratio / 100.0f;
    TCOD_bsp_split_recursive(root, d.rng, 48, p.leaf_min_w, p.leaf_min_h, ratio, ratio);
    TCOD_bsp_traverse_post_order(root, tcod_visit, &d);
    TCOD_bsp_delete(root);
    TCOD_random_delete(d.rng);
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
