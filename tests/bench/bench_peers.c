/* Every registered generator at its defaults, tiles only, beside libtcod's
 * BSP in the same rounds (alternating batches, each timed alone in CPU time
 * of the thread, so a shared machine's waits do not count): the medians,
 * their ratio, and the scratch bytes per cell one map needs. The
 * rows docs/performance.sh turns into docs/performance.md. Also `bench
 * --once GEN WxH N`, which makes N maps untimed so that callgrind can count
 * the instructions per cell. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct peer_ctx {
    dg_recipe recipe;
    dg_grid grid;
    const dg_prefab_set *set;
    dg_allocator alloc;
    dg_status st;
} peer_ctx;

static void ours_op(void *p, int64_t i)
{
    peer_ctx *c = p;
    c->recipe.seed = (uint64_t)i;
    c->st = dg_recipe_generate(&c->recipe, &c->grid, c->set, NULL, &c->alloc, NULL);
}

static const struct {
    int32_t w, h;
    int reps;
    int64_t batch;
} peer_sizes[] = {
    {80, 25, 61, 20}, {80, 50, 41, 10}, {200, 200, 21, 2}, {1000, 1000, 7, 1}, {2048, 2048, 5, 1},
};
#define PEER_SIZES ((int)(sizeof peer_sizes / sizeof peer_sizes[0]))

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The prefab set a generator is shown with (docs/quality.sh uses the same), or NULL. */
static dg_prefab_set *peer_set(const char *gen)
{
    static const char *const files[][2] = {
        {"prefab-full", "examples/prefabs/shaft.txt"},
        {"prefab-jigsaw", "examples/prefabs/forest.txt"},
        {"prefab-islands", "examples/prefabs/factory.txt"},
        {"prefab-mixed", "examples/prefabs/vaults.txt"},
    };
    dg_prefab_set *set = NULL;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i][0], gen) == 0 &&
            dg_prefab_load(files[i][1], NULL, NULL, NULL, &set, NULL) != DG_OK)
            set = NULL;
    return set;
}

/* Sets up c for generator gen on cells (w x h); 0 if it cannot run there. */
static int peer_setup(peer_ctx *c, const char *gen, uint8_t *cells, int32_t w, int32_t h,
                      const dg_prefab_set *set, bench_mem *mem)
{
    dg_generator_info info;
    if (dg_generator_get(dg_generator_find(gen), &info) != DG_OK ||
        dg_recipe_init(&c->recipe, gen, 1, w, h) != DG_OK ||
        dg_grid_init(&c->grid, cells, w, h, 0) != DG_OK)
        return 0;
    c->set = info.needs_prefabs ? set : NULL;
    c->alloc = bench_allocator(mem);
    if (info.needs_prefabs && !set)
        return 0;
    ours_op(c, 0);
    return c->st == DG_OK;
}

#ifdef DG_BENCH_TCOD
/* Median ns per map of ours and of libtcod, in alternating batches. */
static void peer_times(peer_ctx *c, uint8_t *peer_cells, int k, int64_t *ours, int64_t *theirs)
{
    int reps = peer_sizes[k].reps;
    int64_t batch = peer_sizes[k].batch, i = 1;
    int64_t *a = malloc((size_t)reps * sizeof *a), *b = malloc((size_t)reps * sizeof *b);
    for (int r = 0; a && b && r < reps; r++, i += batch)
    {
        int64_t t0 = bench_cpu_ns();
        for (int64_t j = 0; j < batch; j++)
            ours_op(c, i + j);
        int64_t t1 = bench_cpu_ns();
        for (int64_t j = 0; j < batch; j++)
            bench_tcod_bsp(peer_cells, peer_sizes[k].w, peer_sizes[k].h, (uint32_t)(i + j));
        int64_t t2 = bench_cpu_ns();
        a[r] = (t1 - t0) / batch;
        b[r] = (t2 - t1) / batch;
    }
    if (a && b)
    {
        qsort(a, (size_t)reps, sizeof *a, cmp_ns);
        qsort(b, (size_t)reps, sizeof *b, cmp_ns);
        *ours = a[reps / 2];
        *theirs = b[reps / 2];
    }
    free(a);
    free(b);
}

static void peer_row(const char *gen, int k, const dg_prefab_set *set)
{
    int32_t w = peer_sizes[k].w, h = peer_sizes[k].h;
    uint8_t *cells = malloc((size_t)w * (size_t)h), *peer = malloc((size_t)w * (size_t)h);
    peer_ctx c;
    bench_mem mem = {0, 0, 0};
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    if (cells && peer && peer_setup(&c, gen, cells, w, h, set, &mem))
    {
        int64_t ours = 0, theirs = 1;
        mem.peak = 0;
        ours_op(&c, 1); /* the scratch of one map, alone */
        double per_cell = (double)mem.peak / ((double)w * h);
        peer_times(&c, peer, k, &ours, &theirs);
        printf("%-28s %-10s %10.1f us libtcod %10.1f us  ratio %5.2f  scratch %5.2f B/cell\n",
               gen, size, (double)ours / 1000.0, (double)theirs / 1000.0,
               (double)ours / (double)theirs, per_cell);
    }
    else
        printf("%-28s %-10s (does not run at the defaults here)\n", gen, size);
    fflush(stdout);
    free(cells);
    free(peer);
}
#endif

BENCH(bench_peers)
{
#ifdef DG_BENCH_TCOD
    for (int32_t g = 0; g < dg_generator_count(); g++)
    {
        dg_generator_info info;
        if (dg_generator_get(g, &info) != DG_OK ||
            (bench_subject && strcmp(bench_subject, info.name) != 0))
            continue;
        dg_prefab_set *set = peer_set(info.name);
        for (int k = 0; k < PEER_SIZES; k++)
            peer_row(info.name, k, set);
        dg_prefab_set_free(set);
    }
#else
    printf("%-28s (libtcod-dev is not installed: no peer rows)\n", "peers");
#endif
}

/* N maps of libtcod's BSP (the peer) at w x h; 0 without libtcod. */
static int tcod_once(uint8_t *cells, int w, int h, long n)
{
#ifdef DG_BENCH_TCOD
    for (long i = 1; cells && i <= n; i++)
        bench_tcod_bsp(cells, w, h, (uint32_t)i);
    return cells != NULL;
#else
    (void)cells, (void)w, (void)h, (void)n;
    return 0;
#endif
}

/* bench --once GEN WxH N: N maps of GEN (or "libtcod", the peer) at WxH,
 * seeds 1..N, untimed. */
int bench_once(int argc, char **argv)
{
    int w = 0, h = 0;
    if (argc < 5 || sscanf(argv[3], "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
    {
        fprintf(stderr, "usage: bench --once GENERATOR|libtcod WxH COUNT\n");
        return 2;
    }
    long n = strtol(argv[4], NULL, 10);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (strcmp(argv[2], "libtcod") == 0)
    {
        int ok = tcod_once(cells, w, h, n);
        free(cells);
        return ok ? 0 : 1;
    }
    dg_prefab_set *set = peer_set(argv[2]);
    peer_ctx c;
    bench_mem mem;
    int ok = cells && peer_setup(&c, argv[2], cells, w, h, set, &mem);
    for (long i = 1; ok && i <= n; i++)
        ours_op(&c, i);
    dg_prefab_set_free(set);
    free(cells);
    if (!ok)
        fprintf(stderr, "bench: %s does not run at %dx%d\n", argv[2], w, h);
    return ok ? 0 : 1;
}
