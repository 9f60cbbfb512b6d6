/* Exports and recipes: JSON, .tmj and .tmx of an attach map with its result
 * (output counted by the callback, not stored), and recipe print + parse. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct export_bench {
    dg_grid grid;
    dg_result result;
    dg_export_options options;
    dg_recipe recipe;
    size_t bytes;
} export_bench;

static void count_bytes(void *user, const char *data, size_t len)
{
    (void)data;
    ((export_bench *)user)->bytes += len;
}

static void export_op(void *ctx, int64_t i)
{
    export_bench *b = ctx;
    (void)i;
    dg_export(&b->grid, &b->result, &b->options, count_bytes, b, NULL);
}

static void export_row(int32_t w, int32_t h, int32_t format, const char *name)
{
    export_bench b;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    char size[32];
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK ||
        dg_recipe_init(&b.recipe, "attach", 1, w, h) != DG_OK)
    {
        free(cells);
        return;
    }
    dg_result_init(&b.result, NULL);
    dg_recipe_generate(&b.recipe, &b.grid, NULL, &b.result, NULL, NULL);
    dg_export_defaults(&b.options);
    b.options.format = format;
    b.options.recipe = &b.recipe;
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, 15, 1, export_op, &b, NULL);
    dg_result_free(&b.result);
    free(cells);
}

BENCH(export_formats)
{
    export_row(80, 50, DG_EXPORT_JSON, "export json");
    export_row(80, 50, DG_EXPORT_TMX, "export tmx");
    export_row(400, 250, DG_EXPORT_JSON, "export json");
    export_row(400, 250, DG_EXPORT_TMJ, "export tmj");
    export_row(400, 250, DG_EXPORT_TMX, "export tmx");
}

static void recipe_op(void *ctx, int64_t i)
{
    const char *line = ctx;
    dg_recipe r;
    char out[1024];
    (void)i;
    dg_recipe_parse(line, strlen(line), &r, NULL);
    dg_recipe_print(&r, out, sizeof out, NULL);
}

BENCH(recipe_round_trip)
{
    static char line[1024];
    dg_recipe r;
    dg_recipe_init(&r, "attach", 42, 80, 50);
    dg_recipe_print(&r, line, sizeof line, NULL);
    bench_run("recipe parse+print", "attach", 0, 15, 1000, recipe_op, line, NULL);
}
