/* Every registered generator at its defaults (prefab-full with cover = 0,
 * see peer_set_file), tiles only, beside libtcod's
 * BSP in the same rounds (alternating batches, each timed alone in CPU time
 * of the thread, so a shared machine's waits do not count): the medians,
 * their ratio, and the scratch bytes per cell one map needs. The
 * rows docs/performance.sh turns into docs/performance.md. Also `bench
 * --once GEN[+result] WxH N`, which makes exactly N maps untimed so that
 * callgrind can count the instructions per cell. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct peer_ctx {
    dg_recipe recipe;
    dg_grid grid;
    const dg_prefab_set *set;
    const dg_site *site; /* NULL: none (all but generator graph) */
    dg_result *result;   /* NULL: tiles only */
    dg_diag *diag;       /* NULL: none (only to say why a map failed) */
    dg_allocator alloc;
    dg_status st;
} peer_ctx;

static void ours_op(void *p, int64_t i)
{
    peer_ctx *c = p;
    c->recipe.seed = (uint64_t)i;
    if (c->site)
        c->st = dg_recipe_generate_site(&c->recipe, c->site, &c->grid, c->set, c->result,
                                        &c->alloc, c->diag);
    else
        c->st = dg_recipe_generate(&c->recipe, &c->grid, c->set, c->result, &c->alloc, c->diag);
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

/* The prefab set a generator is shown with (docs/quality.sh uses the same)
 * and the parameter it needs at the peer sizes, or NULL. prefab-full: the
 * shaft (48x20) covers half of at most 1920 cells, less than 80x25, so it
 * runs with cover = 0 (any prefab that fits, docs/prefabs.md). */
static const char *peer_set_file(const char *gen, const char **cover)
{
    static const char *const files[][3] = {
        {"prefab-full", "examples/prefabs/shaft.txt", "0"},
        {"prefab-jigsaw", "examples/prefabs/forest.txt", NULL},
        {"prefab-islands", "examples/prefabs/factory.txt", NULL},
        {"prefab-mixed", "examples/prefabs/vaults.txt", NULL},
    };
    *cover = NULL;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i][0], gen) == 0)
        {
            *cover = files[i][2];
            return files[i][1];
        }
    return NULL;
}

/* What a generator needs beside its parameters: the prefab set it is shown
 * with, and for generator graph the level graph of docs/graph.md's example. */
typedef struct peer_inputs {
    dg_prefab_set *set; /* NULL: none, or it did not load (said on stderr) */
    dg_graph graph;
    dg_site site; /* site.graph is NULL unless the graph loaded */
    const char *cover; /* the cover parameter to set, or NULL */
    char missing[1024]; /* the file that did not load, or "" */
} peer_inputs;

static void peer_inputs_load(peer_inputs *in, const char *gen)
{
    const char *file = peer_set_file(gen, &in->cover);
    char path[1024];
    in->set = NULL;
    in->missing[0] = 0;
    dg_graph_init(&in->graph);
    dg_site_init(&in->site);
    if (file)
    {
        if (dg_prefab_load(bench_path(path, sizeof path, file), NULL, NULL, NULL, &in->set, NULL) != DG_OK)
            in->set = NULL;
    }
    else if (strcmp(gen, "graph") == 0)
    {
        if (dg_graph_load(bench_path(path, sizeof path, "examples/graphs/zelda.txt"), NULL,
                          &in->graph, NULL) == DG_OK)
            in->site.graph = &in->graph;
    }
    else
        return;
    if (!in->set && !in->site.graph)
    {
        snprintf(in->missing, sizeof in->missing, "%s", path);
        fprintf(stderr,
                "bench: cannot load %s (looked in the working directory, then two folders "
                "above the binary)\n",
                path);
    }
}

static void peer_inputs_free(peer_inputs *in)
{
    dg_prefab_set_free(in->set);
    dg_graph_free(&in->graph);
}

/* Prepares c for generator gen on cells (w x h) without making a map; 0 if
 * gen is unknown or lacks its prefab set or level graph. */
static int peer_prepare(peer_ctx *c, const char *gen, uint8_t *cells, int32_t w, int32_t h,
                        const peer_inputs *in, bench_mem *mem)
{
    dg_generator_info info;
    if (dg_generator_get(dg_generator_find(gen), &info) != DG_OK ||
        dg_recipe_init(&c->recipe, gen, 1, w, h) != DG_OK ||
        dg_grid_init(&c->grid, cells, w, h, 0) != DG_OK ||
        (in->cover && dg_recipe_set(&c->recipe, "cover", in->cover, NULL) != DG_OK))
        return 0;
    c->set = info.needs_prefabs ? in->set : NULL;
    c->site = info.needs_graph ? &in->site : NULL;
    c->result = NULL;
    c->diag = NULL;
    c->alloc = bench_allocator(mem);
    return (!info.needs_prefabs || in->set) && (!info.needs_graph || in->site.graph);
}

/* Sets up c for generator gen on cells (w x h) and makes one map (seed 0);
 * 0 if it cannot run there. */
static int peer_setup(peer_ctx *c, const char *gen, uint8_t *cells, int32_t w, int32_t h,
                      const peer_inputs *in, bench_mem *mem)
{
    if (!peer_prepare(c, gen, cells, w, h, in, mem))
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

static void peer_row(const char *gen, int k, const peer_inputs *in)
{
    int32_t w = peer_sizes[k].w, h = peer_sizes[k].h;
    uint8_t *cells = malloc((size_t)w * (size_t)h), *peer = malloc((size_t)w * (size_t)h);
    peer_ctx c;
    bench_mem mem = {0, 0, 0};
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    if (cells && peer && peer_setup(&c, gen, cells, w, h, in, &mem))
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
    else if (in->missing[0])
        printf("%-28s %-10s (cannot load %s)\n", gen, size, in->missing);
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
        peer_inputs in;
        peer_inputs_load(&in, info.name);
        for (int k = 0; k < PEER_SIZES; k++)
            peer_row(info.name, k, &in);
        peer_inputs_free(&in);
    }
#else
    printf("%-28s (libtcod-dev is not installed: no peer rows)\n", "peers");
#endif
}

/* Passable cells of a map: printed after --once so that a run which made
 * no map (or an empty one) shows. */
static long passable_cells(const uint8_t *cells, long n)
{
    long open = 0;
    for (long i = 0; i < n; i++)
        open += dg_tile_passable(cells[i]) != 0;
    return open;
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
    fprintf(stderr, "bench: built without libtcod-dev: no peer\n");
    return 0;
#endif
}

/* N maps of c's generator, seeds 1..N; 0 (with the library's reason on
 * stderr, from the failed seed made again with a diag) if one fails. */
static int gen_once(peer_ctx *c, const char *gen, long n)
{
    for (long i = 1; i <= n; i++)
    {
        ours_op(c, i);
        if (c->st != DG_OK)
        {
            dg_diag diag;
            memset(&diag, 0, sizeof diag);
            c->diag = &diag;
            ours_op(c, i);
            fprintf(stderr, "bench: %s at %dx%d, seed %ld: %s: %s\n", gen, (int)c->grid.width,
                    (int)c->grid.height, i, dg_status_str(c->st), diag.message);
            return 0;
        }
    }
    return 1;
}

void bench_once_usage(FILE *out)
{
    fprintf(out,
            "usage: bench --once GENERATOR[+result]|libtcod WxH COUNT\n"
            "  makes exactly COUNT maps (seeds 1..COUNT) at WxH, untimed, for\n"
            "  valgrind --tool=callgrind; COUNT 0 makes none (loading and setup only),\n"
            "  so COUNT maps minus 0 maps is the cost of COUNT maps. +result also asks\n"
            "  for the structured result (rooms, doors, metrics), as the +result rows.\n"
            "  Prints the maps made and the last map's passable cells and tile hash.\n"
            "  Prefab generators load their set from examples/prefabs/ (prefab-full:\n"
            "  shaft.txt with cover=0), generator graph examples/graphs/zelda.txt (from\n"
            "  the working directory, else two folders above the binary); bench peers\n"
            "  does the same.\n");
}

/* bench --once GEN[+result] WxH N: exactly N maps of GEN (or "libtcod", the
 * peer) at WxH, seeds 1..N, untimed; no map is made in setup. */
int bench_once(int argc, char **argv)
{
    int w = 0, h = 0;
    char gen[64], *end = NULL;
    long n = argc > 4 ? strtol(argv[4], &end, 10) : -1;
    if (argc < 5 || sscanf(argv[3], "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || n < 0 ||
        *end || strlen(argv[2]) >= sizeof gen)
    {
        bench_once_usage(stderr);
        return 2;
    }
    strcpy(gen, argv[2]);
    size_t len = strlen(gen);
    int with_result = len > 7 && strcmp(gen + len - 7, "+result") == 0;
    if (with_result)
        gen[len - 7] = 0;
    uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
    int ok;
    if (strcmp(gen, "libtcod") == 0 && !with_result)
        ok = tcod_once(cells, w, h, n);
    else
    {
        peer_inputs in;
        peer_inputs_load(&in, gen);
        peer_ctx c;
        bench_mem mem;
        dg_result result;
        dg_result_init(&result, NULL);
        ok = cells && peer_prepare(&c, gen, cells, w, h, &in, &mem);
        if (!ok)
            fprintf(stderr, "bench: %s: %s%s\n", argv[2],
                    in.missing[0] ? "cannot load " : "unknown generator", in.missing);
        if (ok && with_result)
            c.result = &result;
        ok = ok && gen_once(&c, gen, n);
        /* printed for N = 0 too (of the empty grid), so N maps minus none
         * cancels the cost of the summary */
        if (ok)
            printf("once %s %dx%d: %ld maps; last: %ld passable cells, hash %016llx", argv[2], w,
                   h, n, passable_cells(cells, (long)w * h),
                   (unsigned long long)dg_grid_hash(&c.grid));
        if (ok && with_result)
            printf(", %d rooms, %d doors", (int)result.room_count, (int)result.door_count);
        if (ok)
            printf("\n");
        dg_result_free(&result);
        peer_inputs_free(&in);
        free(cells);
        return ok ? 0 : 1;
    }
    if (ok)
        printf("once libtcod %dx%d: %ld maps; last: %ld passable cells\n", w, h, n,
               passable_cells(cells, (long)w * h));
    free(cells);
    return ok ? 0 : 1;
}
