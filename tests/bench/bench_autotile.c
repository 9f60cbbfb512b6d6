/* Autotiling: dg_autotile of each kind on a 2048x2048 attach map, beside a
 * plain memcpy of the same grid in the same run (the floor any per-cell pass
 * stands on). ns per cell = 1000 / Mcells/s. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 2048

typedef struct autotile_bench {
    dg_grid grid;
    uint8_t *copy, *out;
    size_t out_size;
    dg_autotile_params params;
} autotile_bench;

static void copy_op(void *ctx, int64_t i)
{
    autotile_bench *b = ctx;
    (void)i;
    memcpy(b->copy, b->grid.cells, (size_t)SIDE * SIDE);
}

static void autotile_op(void *ctx, int64_t i)
{
    autotile_bench *b = ctx;
    (void)i;
    dg_autotile(&b->grid, &b->params, b->out, b->out_size, 0, NULL, NULL);
}

static void autotile_row(autotile_bench *b, const char *name, int32_t kind, int32_t self)
{
    dg_autotile_defaults(&b->params);
    b->params.kind = kind;
    b->params.self_class = self;
    bench_run(name, "2048x2048", (int64_t)SIDE * SIDE, 15, 1, autotile_op, b, NULL);
}

BENCH(autotile)
{
    autotile_bench b;
    dg_recipe recipe;
    b.out_size = (size_t)(SIDE + 1) * (SIDE + 1);
    uint8_t *cells = malloc((size_t)SIDE * SIDE);
    b.copy = malloc((size_t)SIDE * SIDE);
    b.out = malloc(b.out_size);
    if (cells && b.copy && b.out && dg_grid_init(&b.grid, cells, SIDE, SIDE, 0) == DG_OK &&
        dg_recipe_init(&recipe, "attach", 1, SIDE, SIDE) == DG_OK &&
        dg_recipe_generate(&recipe, &b.grid, NULL, NULL, NULL, NULL) == DG_OK)
    {
        bench_run("autotile memcpy", "2048x2048", (int64_t)SIDE * SIDE, 15, 1, copy_op, &b, NULL);
        autotile_row(&b, "autotile cardinal", DG_AUTOTILE_CARDINAL, 1);
        autotile_row(&b, "autotile blob", DG_AUTOTILE_BLOB, 1);
        autotile_row(&b, "autotile corner", DG_AUTOTILE_CORNER, 1);
        autotile_row(&b, "autotile blob own class", DG_AUTOTILE_BLOB, DG_AUTOTILE_OWN_CLASS);
        bench_run("autotile memcpy", "2048x2048", (int64_t)SIDE * SIDE, 15, 1, copy_op, &b, NULL);
    }
    free(cells);
    free(b.copy);
    free(b.out);
}
