/* Feature attachment generator: time per map at the sizes, with the
 * structured result, for the defaults (30% floor), a 25% floor target (also
 * without the result: tiles only), and grown until no wall takes anything
 * (plain, the source algorithm's policies, and with loops). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct attach_bench {
    dg_grid grid;
    dg_attach_params params;
    dg_result result;
    dg_allocator alloc;
    int with_result;
} attach_bench;

static void attach_op(void *ctx, int64_t i)
{
    attach_bench *b = ctx;
    dg_result *r = b->with_result ? &b->result : NULL;
    if (dg_attach_generate(&b->grid, &b->params, (uint64_t)i, r, &b->alloc, NULL) != DG_OK)
        abort();
}

static void attach_rows(const char *config, const dg_attach_params *params, int with_result)
{
    static const struct {
        int32_t w, h;
        int reps, batch;
    } sizes[] = {{80, 25, 301, 10}, {80, 50, 301, 5}, {200, 200, 101, 1}, {1000, 1000, 21, 1},
                 {2048, 2048, 7, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        attach_bench b;
        bench_mem mem;
        int32_t w = sizes[i].w, h = sizes[i].h;
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK)
            abort();
        b.params = *params;
        b.with_result = 1; /* for the floor column */
        b.alloc = bench_allocator(&mem);
        dg_result_init(&b.result, NULL);
        /* the floor these parameters give, over a few seeds */
        int64_t floor = 0;
        for (int64_t s = 0; s < 5; s++)
        {
            attach_op(&b, 1000 + s);
            floor += b.result.metrics.floor_permille;
        }
        char name[64], size[32];
        snprintf(name, sizeof name, "attach %s %.1f%%", config, (double)floor / 50.0);
        b.with_result = with_result;
        snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
        bench_run(name, size, (int64_t)w * h, sizes[i].reps, sizes[i].batch, attach_op, &b, &mem);
        dg_result_free(&b.result);
        free(cells);
    }
}

BENCH(bench_attach_defaults)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    attach_rows("defaults", &p, 1);
}

BENCH(bench_attach_target25)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.target_floor = 250;
    attach_rows("floor>=25%", &p, 1);
    attach_rows("tiles-only", &p, 0);
}

BENCH(bench_attach_full)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.target_floor = 0;
    attach_rows("full", &p, 1);
}

BENCH(bench_attach_classic)
{
    dg_attach_params p; /* the source algorithm: keep dead ends, a door at every junction */
    dg_attach_defaults(&p);
    p.target_floor = 0;
    p.dead_ends = DG_DEAD_ENDS_KEEP;
    p.doors = DG_DOORS_ALL;
    attach_rows("classic", &p, 1);
}

BENCH(bench_attach_loops)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.target_floor = 0;
    p.loop_min_gain = 20;
    p.loop_max = 1000000;
    attach_rows("loops gain>=20", &p, 1);
}
