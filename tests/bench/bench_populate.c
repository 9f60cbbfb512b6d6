/* Population: dg_populate with the classic dungeon table at depth 5 on maps
 * of every generator at 80x50, beside generating the same map in the same
 * run, then roles and population in one call (dg_roles_populate, the
 * built-in role table) timed in turns with generation: the ratio row is the
 * contract of issue 32, roles plus population at most half the time of
 * generating the map. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct populate_bench {
    dg_grid grid;
    dg_result result;
    dg_recipe recipe;
    const dg_prefab_set *set;
    dg_spawn_table *table;
    dg_populate_params params;
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count;
    int32_t markers;
    dg_allocator alloc;
} populate_bench;

static void generate_op(void *ctx, int64_t i)
{
    populate_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    dg_recipe_generate(&b->recipe, &b->grid, b->set, &b->result, &b->alloc, NULL);
}

static void populate_op(void *ctx, int64_t i)
{
    populate_bench *b = ctx;
    b->result.marker_count = b->markers;
    dg_populate(&b->grid, b->table, &b->params, (uint64_t)i, &b->result, NULL, &b->alloc, NULL);
}

/* Roles (every room free again) and population of the same map. */
static void content_op(void *ctx, int64_t i)
{
    populate_bench *b = ctx;
    b->result.label_count = 0;
    b->result.marker_count = b->markers;
    dg_roles_populate(&b->grid, b->rules, b->count, b->table, &b->params, (uint64_t)i,
                      &b->result, NULL, NULL, &b->alloc, NULL);
}

/* The map every populate and content op works on: seed 7. */
static void fixed_map(populate_bench *b)
{
    generate_op(b, 7);
    b->result.label_count = 0; /* a reused result may keep the last map's */
    b->markers = b->result.marker_count;
}

static int cmp_ns(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, c = *(const int64_t *)y;
    return (a > c) - (a < c);
}

/* CPU ns per op of `batch` ops from seed i. */
static int64_t timed(bench_op op, populate_bench *b, int64_t i, int64_t batch)
{
    int64_t t0 = bench_cpu_ns();
    for (int64_t k = 0; k < batch; k++)
        op(b, i + k);
    return (bench_cpu_ns() - t0) / batch;
}

/* Generation (into gen's own grid and result) and roles + population (of
 * b's map) in turns, the machine being shared, their medians and the ratio. */
static void ratio_row(populate_bench *gen_b, populate_bench *b, const char *gen, const char *size,
                      int reps, int64_t batch)
{
    int64_t *t = malloc((size_t)reps * 2 * sizeof *t);
    if (!t)
        return;
    int64_t *tg = t, *tc = t + reps;
    for (int r = 0; r < reps; r++)
    {
        tg[r] = timed(generate_op, gen_b, 1 + (int64_t)r * batch, batch);
        tc[r] = timed(content_op, b, 1 + (int64_t)r * batch, batch);
    }
    qsort(tg, (size_t)reps, sizeof *tg, cmp_ns);
    qsort(tc, (size_t)reps, sizeof *tc, cmp_ns);
    int64_t g = tg[reps / 2], c = tc[reps / 2];
    char name[64];
    snprintf(name, sizeof name, "content %s: ratio", gen);
    printf("%-28s %-10s %9.1f us gen %9.1f us roles+populate %6.2fx (target <= 0.50x)\n", name,
           size, (double)g / 1000.0, (double)c / 1000.0, g > 0 ? (double)c / (double)g : 0.0);
    fflush(stdout);
    free(t);
}

static void populate_rows(const char *gen, int32_t w, int32_t h, int reps, int64_t batch,
                          dg_spawn_table *table, const dg_prefab_set *set)
{
    populate_bench b;
    bench_mem mem;
    memset(&b, 0, sizeof b);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK ||
        dg_recipe_init(&b.recipe, gen, 1, w, h) != DG_OK ||
        dg_roles_builtin(b.rules, DG_ROLES_MAX, &b.count) != DG_OK)
    {
        free(cells);
        return;
    }
    b.table = table;
    b.set = set;
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
        fixed_map(&b);
        snprintf(name, sizeof name, "populate %s: populate", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, populate_op, &b, &mem);
        snprintf(name, sizeof name, "populate %s: roles+populate", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, content_op, &b, &mem);
    }
    /* the ratio: a second map to generate into, b keeps the one populated */
    populate_bench gen_b = b;
    uint8_t *gen_cells = malloc((size_t)w * (size_t)h);
    dg_result_init(&gen_b.result, NULL);
    if (gen_cells && dg_grid_init(&gen_b.grid, gen_cells, w, h, 0) == DG_OK)
        ratio_row(&gen_b, &b, gen, size, reps, batch);
    dg_result_free(&gen_b.result);
    free(gen_cells);
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_populate)
{
    dg_spawn_table *table = NULL;
    dg_prefab_set *vaults = NULL;
    char spawns[512], prefabs[512];
    if (dg_spawn_load(bench_path(spawns, sizeof spawns, "examples/spawns/dungeon.txt"), NULL, NULL,
                      NULL, &table, NULL) != DG_OK ||
        dg_prefab_load(bench_path(prefabs, sizeof prefabs, "examples/prefabs/vaults.txt"), NULL,
                       NULL, NULL, &vaults, NULL) != DG_OK)
    {
        printf("bench_populate: examples/spawns/dungeon.txt or examples/prefabs/vaults.txt not "
               "found (neither from here nor from the binary)\n");
        dg_spawn_table_free(table);
        return;
    }
    static const char *const gens[] = {"attach",  "bsp",  "cave",  "chain",       "maze",
                                       "scatter", "walk", "world", "prefab-mixed"};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
        populate_rows(gens[g], 80, 50, 101, 5, table,
                      strcmp(gens[g], "prefab-mixed") == 0 ? vaults : NULL);
    dg_prefab_set_free(vaults);
    dg_spawn_table_free(table);
}
