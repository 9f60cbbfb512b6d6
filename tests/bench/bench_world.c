/* The infinite world: room queries, window rendering, explorer entries. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#define QUERY_BATCH 1000

typedef struct world_ctx {
    dg_world *world;
    dg_explorer *explorer;
    dg_grid grid;
    dg_world_pos *path;
    int64_t path_len;
    const dg_prefab_set *set;
    const dg_allocator *alloc;
    uint64_t sink;
} world_ctx;

/* One op = QUERY_BATCH rooms along a row, moving to a new row every op. */
static void query_batch(void *p, int64_t i)
{
    world_ctx *c = p;
    dg_world_room r;
    int64_t y = (i % 4096) - 2048;
    for (int64_t x = -QUERY_BATCH / 2; x < QUERY_BATCH / 2; x++)
    {
        dg_world_room_info(c->world, x, y, &r);
        c->sink += (uint64_t)r.doors + (uint64_t)r.prefab;
    }
}

static void render_window(void *p, int64_t i)
{
    world_ctx *c = p;
    int64_t at = (i % 64) * 997 - 32000;
    dg_world_render(c->world, at, -at / 2, &c->grid, NULL, 0, NULL, NULL);
}

static void create_world(void *p, int64_t i)
{
    world_ctx *c = p;
    dg_world_params params;
    dg_world_defaults(&params);
    params.furnishing = c->set;
    dg_world *w = NULL;
    dg_world_create(&params, (uint64_t)i, c->alloc, &w, NULL);
    dg_world_free(w);
}

static void enter_room(void *p, int64_t i)
{
    world_ctx *c = p;
    const dg_world_pos *pos = &c->path[i % c->path_len];
    dg_enter_result r;
    dg_explorer_enter(c->explorer, pos->x, pos->y, &r);
    c->sink += (uint64_t)r.revealed_count;
}

/* The sample furnishings, found from the working directory or the binary. */
static dg_status load_furnish(dg_prefab_set **set)
{
    char path[512];
    return dg_prefab_load(bench_path(path, sizeof path, "examples/prefabs/furnish.txt"), NULL, NULL,
                          NULL, set, NULL);
}

static dg_world *bench_world(int32_t loops, int32_t fix, const dg_prefab_set *furnishing)
{
    dg_world_params p;
    dg_world_defaults(&p);
    p.loop_permille = loops;
    p.dead_end_fix = fix;
    p.furnishing = furnishing;
    dg_world *w = NULL;
    if (dg_world_create(&p, 1, NULL, &w, NULL) != DG_OK)
        return NULL;
    return w;
}

BENCH(bench_world_room_query)
{
    static const struct {
        const char *label;
        int32_t loops, fix, furnished;
    } cases[] = {{"tree", 0, 0, 0},           {"loops", 100, 0, 0},
                 {"fix-1000", 100, 1000, 0},  {"furnished", 100, 0, 1}};
    dg_prefab_set *set = NULL;
    load_furnish(&set);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
        if (cases[k].furnished && !set)
            continue;
        world_ctx c = {0};
        c.world = bench_world(cases[k].loops, cases[k].fix, cases[k].furnished ? set : NULL);
        if (!c.world)
            continue;
        /* Mcells/s here is millions of room queries per second */
        bench_run("world_room_query", cases[k].label, QUERY_BATCH, 31, 20, query_batch, &c, NULL);
        dg_world_free(c.world);
    }
    dg_prefab_set_free(set);
}

BENCH(bench_world_render)
{
    static uint8_t cells[256 * 256];
    dg_prefab_set *set = NULL;
    load_furnish(&set);
    for (int furnished = 0; furnished <= (set != NULL); furnished++)
    {
        world_ctx c = {0};
        c.world = bench_world(100, 500, furnished ? set : NULL);
        if (!c.world || dg_grid_init(&c.grid, cells, 256, 256, 0) != DG_OK)
            continue;
        bench_run("world_render", furnished ? "256x256-f" : "256x256", 256 * 256, 301, 1,
                  render_window, &c, NULL);
        dg_world_free(c.world);
    }
    dg_prefab_set_free(set);
}

BENCH(bench_world_create_furnished)
{
    dg_prefab_set *set = NULL;
    if (load_furnish(&set) != DG_OK)
        return;
    bench_mem mem;
    dg_allocator a = bench_allocator(&mem);
    world_ctx c = {0};
    c.set = set;
    c.alloc = &a;
    bench_run("world_create", "furnished", 0, 21, 1, create_world, &c, &mem);
    dg_prefab_set_free(set);
}

BENCH(bench_world_explorer_enter)
{
    world_ctx c = {0};
    c.world = bench_world(100, 500, NULL);
    bench_mem mem;
    dg_allocator a = bench_allocator(&mem);
    c.path_len = 100000;
    c.path = malloc((size_t)c.path_len * sizeof *c.path);
    if (!c.world || !c.path || dg_explorer_create(c.world, &a, &c.explorer) != DG_OK)
        return;
    /* a random walk through doors */
    dg_rng rng;
    dg_rng_seed(&rng, 1, 0);
    int64_t x = 0, y = 0;
    for (int64_t i = 0; i < c.path_len; i++)
    {
        c.path[i].x = x;
        c.path[i].y = y;
        dg_world_room r;
        dg_world_room_info(c.world, x, y, &r);
        int32_t sides[4], n = 0;
        for (int32_t s = DG_SIDE_N; s <= DG_SIDE_W; s <<= 1)
            if (r.doors & s)
                sides[n++] = s;
        int32_t s = sides[dg_rng_below(&rng, (uint32_t)n)];
        x += s == DG_SIDE_E ? 1 : s == DG_SIDE_W ? -1 : 0;
        y += s == DG_SIDE_S ? 1 : s == DG_SIDE_N ? -1 : 0;
    }
    bench_run("world_explorer_enter", "walk", 0, 31, 1000, enter_room, &c, &mem);
    printf("%-28s %-10s %lld rooms entered\n", "", "", (long long)dg_explorer_count(c.explorer));
    dg_explorer_free(c.explorer);
    free(c.path);
    dg_world_free(c.world);
}
