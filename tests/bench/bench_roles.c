/* Room roles: dg_roles with the built-in table on a locked map, beside
 * generating the same map in the same run (attach, cave, world at 80x50). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct roles_bench {
    dg_grid grid;
    dg_result result;
    dg_recipe recipe;
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count;
    dg_allocator alloc;
} roles_bench;

static void generate_op(void *ctx, int64_t i)
{
    roles_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    dg_recipe_generate(&b->recipe, &b->grid, NULL, &b->result, &b->alloc, NULL);
}

static void roles_op(void *ctx, int64_t i)
{
    roles_bench *b = ctx;
    b->result.label_count = 0; /* every room free again */
    dg_roles(&b->grid, b->rules, b->count, (uint64_t)i, &b->result, NULL, &b->alloc, NULL);
}

static void roles_rows(const char *gen, int32_t w, int32_t h, int reps, int64_t batch)
{
    roles_bench b;
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
    b.alloc = bench_allocator(&mem);
    dg_result_init(&b.result, NULL);
    char name[64], size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    for (int round = 0; round < 2; round++) /* alternate, the machine is shared */
    {
        snprintf(name, sizeof name, "roles %s: generate", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, generate_op, &b, &mem);
        b.recipe.seed = 7;
        dg_recipe_generate(&b.recipe, &b.grid, NULL, &b.result, NULL, NULL);
        dg_lock_params lp;
        dg_lock_defaults(&lp);
        dg_lock_place(&b.grid, &lp, 7, &b.result, NULL, NULL, NULL);
        snprintf(name, sizeof name, "roles %s: roles (built-in table)", gen);
        bench_run(name, size, (int64_t)w * h, reps, batch, roles_op, &b, &mem);
    }
    dg_result_free(&b.result);
    free(cells);
}

BENCH(bench_roles)
{
    roles_rows("attach", 80, 50, 201, 20);
    roles_rows("cave", 80, 50, 201, 20);
    roles_rows("world", 80, 50, 201, 20);
    roles_rows("attach", 200, 200, 51, 2);
}
