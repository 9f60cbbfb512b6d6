/* Population: dg_populate with the classic dungeon table at depth 5 on maps
 * of several generators, beside generating the same map in the same run (the
 * contract: population at most half the time of generating the map). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct populate_bench {
    dg_grid grid;
    dg_result result;
    dg_recipe recipe;
    dg_spawn_table *table;
    dg_populate_params params;
    int32_t markers;
    dg_allocator alloc;
} populate_bench;

static void generate_op(void *ctx, int64_t i)
{
    populate_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    dg_recipe_generate(&b->recipe, &b->grid, NULL, &b->result, &b->alloc, NULL);
}

static void populate_op(void *ctx, int64_t i)
{
    populate_bench *b = ctx;
    b->result.marker_count = b->markers;
    dg_populate(&b->grid, b->table, &b->params, (uint64_t)i, &b->result, NULL, &b->alloc, NULL);
}

static void populate_rows(const char *gen, int32_t w, int32_t h, int reps, int64_t batch,
                          dg_spawn_table *table)
{
    populate_bench b;
    bench_mem mem;
    memset(&b, 0, sizeof b);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK ||
        dg_recipe_init(&b.recipe, gen, 1, w, h) != DG_OK)
    {
        free(cells);
        return;
    }
    b.table = table;
    dg_populate_defaults(&b.params);
    b.params.depth = 5;
    b.alloc = bench_allocator(&mem);
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    for (int round = 0; round < 2; round++) /* alternate, the machine is shared */
    {
        snprintf(name, sizeof name, "populate %s: generate", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, generate_op, &b, &mem);
        generate_op(&b, 7);
        b.markers = b.result.marker_count;
        snprintf(name, sizeof name, "populate %s: populate", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, populate_op, &b, &mem);
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_populate)
{
    dg_spawn_table *table = NULL;
    if (dg_spawn_load("examples/spawns/dungeon.txt", NULL, NULL, NULL, &table, NULL) != DG_OK)
    {
        printf("bench_populate: examples/spawns/dungeon.txt not found (run from the source tree)\n");
        return;
    }
    static const char *const gens[] = {"attach", "bsp", "cave", "chain", "maze", "scatter", "walk"};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
        populate_rows(gens[g], 80, 50, 101, 5, table);
    dg_spawn_table_free(table);
}
