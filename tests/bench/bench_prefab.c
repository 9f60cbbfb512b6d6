/* Prefabs: parse throughput on a large generated file and on the example
 * files (the Mcells/s column is MB/s there), stamp and pick (what the world does per room), time per
 * map of each prefab generator at 80x50 and 210x150 over the sample sets, and prefab-mixed beside
 * attach, its base, as the tool runs it. */
#define _POSIX_C_SOURCE 200809L /* glob */
#include "bench.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parse ----------------------------------------------------------------------- */

typedef struct parse_bench {
    char *text;
    size_t len;
    int ok;
} parse_bench;

/* About 16 MB: 3600 prefabs of 64x64 (some with substitutions, a per-prefab
 * legend, requires) and one 1024x1024 prefab. */
static char *make_text(size_t *len)
{
    size_t cap = 20u << 20, k = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    uint64_t s = 0x12345678;
    k += (size_t)sprintf(t + k, "prefabs 1\n; generated for the parse benchmark\nlegend\n"
                                "  g actor goblin\n  T wall tree tile 70\n  @ marker start kind start\nend\n");
    for (int p = 0; p < 3600; p++)
    {
        k += (size_t)sprintf(t + k, "\nprefab gen_%d\n  mode island jigsaw\n  tags bench t%d\n  weight %d\n",
                             p, p % 7, 1 + p % 20);
        if (p % 3 == 0)
            k += (size_t)sprintf(t + k, "  pick ? = .:3 T:1\n  count * = 1:@ rest:.\n  require start 1\n");
        else
            k += (size_t)sprintf(t + k, "  legend\n    ? ground\n    * trap\n  end\n");
        k += (size_t)sprintf(t + k, "map\n");
        for (int y = 0; y < 64; y++)
        {
            for (int x = 0; x < 64; x++)
            {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                static const char glyphs[] = "....##T?^g_*";
                char c = glyphs[(s >> 33) % 12];
                if ((x == 0 || x == 63) && (y == 0 || y == 63))
                    c = '#';
                else if ((y == 0 || y == 63 || x == 0 || x == 63) && x == 32)
                    c = '+';
                t[k++] = c;
            }
            t[k++] = '\n';
        }
        k += (size_t)sprintf(t + k, "end\n");
    }
    k += (size_t)sprintf(t + k, "\nprefab big\n  orient rot\nmap\n");
    for (int y = 0; y < 1024; y++)
    {
        memset(t + k, y % 2 ? '.' : '#', 1024);
        k += 1024;
        t[k++] = '\n';
    }
    k += (size_t)sprintf(t + k, "end\n");
    *len = k;
    return t;
}

static void parse_op(void *ctx, int64_t i)
{
    parse_bench *b = ctx;
    (void)i;
    dg_prefab_set *set = NULL;
    b->ok = dg_prefab_parse(b->text, b->len, "bench", NULL, NULL, NULL, &set, NULL) == DG_OK;
    dg_prefab_set_free(set);
}

BENCH(bench_prefab_parse)
{
    parse_bench b;
    b.text = make_text(&b.len);
    if (!b.text)
        return;
    char size[32];
    snprintf(size, sizeof size, "%.1f MB", (double)b.len / 1e6);
    bench_run("prefab parse (MB/s)", size, (int64_t)b.len, 15, 1, parse_op, &b, NULL);
    if (!b.ok)
        printf("prefab parse: the generated file did not parse\n");
    free(b.text);
}

/* The example files read into one buffer, each parsed as its own set: the
 * files are complete sets (each opens with `prefabs 1`, two share prefab
 * names), so one op parses every file's slice in turn. */
typedef struct example_bench {
    char *text;
    size_t len;
    size_t start[32], end[32];
    int files, ok;
} example_bench;

static int read_file_into(const char *path, example_bench *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int ok = 1;
    b->start[b->files] = b->len;
    for (;;)
    {
        char *bigger = realloc(b->text, b->len + 65536);
        if (!bigger)
        {
            ok = 0;
            break;
        }
        b->text = bigger;
        size_t got = fread(b->text + b->len, 1, 65536, f);
        b->len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    b->end[b->files++] = b->len;
    return ok;
}

static int read_examples(example_bench *b)
{
    glob_t g;
    memset(b, 0, sizeof *b);
    char pattern[512];
    if (glob(bench_path(pattern, sizeof pattern, "examples/prefabs/*.txt"), 0, NULL, &g) != 0)
        return 0;
    int ok = g.gl_pathc > 0 && g.gl_pathc <= 32;
    for (size_t i = 0; ok && i < g.gl_pathc; i++)
        ok = read_file_into(g.gl_pathv[i], b);
    globfree(&g);
    return ok;
}

static void parse_examples_op(void *ctx, int64_t i)
{
    example_bench *b = ctx;
    (void)i;
    b->ok = 1;
    for (int k = 0; k < b->files; k++)
    {
        dg_prefab_set *set = NULL;
        if (dg_prefab_parse(b->text + b->start[k], b->end[k] - b->start[k], "example", NULL, NULL,
                            NULL, &set, NULL) != DG_OK)
            b->ok = 0;
        dg_prefab_set_free(set);
    }
}

BENCH(bench_prefab_parse_examples)
{
    example_bench b;
    if (!read_examples(&b))
    {
        printf("prefab parse examples: cannot read examples/prefabs/*.txt (not found from here nor from the binary)\n");
        free(b.text);
        return;
    }
    char size[32];
    snprintf(size, sizeof size, "%d files %.1f kB", b.files, (double)b.len / 1e3);
    bench_run("prefab parse examples (MB/s)", size, (int64_t)b.len, 101, 20, parse_examples_op, &b,
              NULL);
    if (!b.ok)
        printf("prefab parse examples: an example file did not parse\n");
    free(b.text);
}

/* ---- stamp and pick (per room of the world) ------------------------------------------ */

typedef struct stamp_bench {
    dg_prefab_set *set;
    dg_grid grid;
    uint8_t cells[11 * 11];
    dg_result result;
} stamp_bench;

static dg_prefab_set *load(const char *name)
{
    char file[128], path[512];
    snprintf(file, sizeof file, "examples/prefabs/%s", name);
    bench_path(path, sizeof path, file);
    dg_prefab_set *set = NULL;
    dg_diag d;
    if (dg_prefab_load(path, NULL, NULL, NULL, &set, &d) != DG_OK)
        printf("bench_prefab: %s (not found from here nor from the binary)\n", d.message);
    return set;
}

static void pick_stamp_op(void *ctx, int64_t i)
{
    stamp_bench *b = ctx;
    int32_t index, o;
    uint64_t h = dg_hash64((uint64_t)i);
    if (dg_prefab_pick(b->set, DG_PREFAB_FURNISH, 1 + (int32_t)(h % 15), h, &index, &o) != DG_OK)
        return;
    b->result.marker_count = 0;
    dg_prefab_stamp(b->set, index, o, h, &b->grid, 0, 0, &b->result, NULL);
}

static void pick_op(void *ctx, int64_t i)
{
    stamp_bench *b = ctx;
    int32_t index, o;
    uint64_t h = dg_hash64((uint64_t)i);
    dg_prefab_pick(b->set, DG_PREFAB_FURNISH, 1 + (int32_t)(h % 15), h, &index, &o);
}

BENCH(bench_prefab_stamp)
{
    stamp_bench b;
    b.set = load("furnish.txt");
    if (!b.set)
        return;
    dg_grid_init(&b.grid, b.cells, 11, 11, 0);
    dg_result_init(&b.result, NULL);
    bench_run("prefab pick", "furnish", 0, 101, 10000, pick_op, &b, NULL);
    bench_run("prefab pick+stamp 11x11", "furnish", 121, 101, 2000, pick_stamp_op, &b, NULL);
    dg_result_free(&b.result);
    dg_prefab_set_free(b.set);
}

/* ---- generators ------------------------------------------------------------------------ */

enum { GEN_FULL, GEN_JIGSAW, GEN_ISLANDS, GEN_COUNT };

typedef struct gen_bench {
    int which;
    dg_prefab_set *set;
    dg_grid grid;
    dg_result result;
    dg_allocator alloc;
    dg_status st;
    int with_result;     /* 0: tiles only (no rooms, markers or metrics) */
} gen_bench;

static void gen_op(void *ctx, int64_t i)
{
    gen_bench *b = ctx;
    uint64_t seed = (uint64_t)i;
    dg_result *r = b->with_result ? &b->result : NULL;
    switch (b->which)
    {
    case GEN_FULL:
    {
        dg_prefab_full_params p; /* the shaft covers under half these grids: taken anyway, as before 0.8 */
        dg_prefab_full_defaults(&p);
        p.cover = 0;
        b->st = dg_prefab_full_generate(&b->grid, b->set, &p, seed, r, &b->alloc, NULL);
        break;
    }
    case GEN_JIGSAW:
        b->st = dg_prefab_jigsaw_generate(&b->grid, b->set, NULL, seed, r, &b->alloc, NULL);
        break;
    default:
        b->st = dg_prefab_islands_generate(&b->grid, b->set, NULL, seed, r, &b->alloc, NULL);
        break;
    }
}

static void gen_row(int which, int with_result, const char *file, int32_t w, int32_t h, int reps,
                    int64_t batch)
{
    static const char *names[] = {"prefab-full", "prefab-jigsaw", "prefab-islands"};
    gen_bench b;
    bench_mem mem;
    memset(&b, 0, sizeof b);
    b.which = which;
    b.with_result = with_result;
    b.set = load(file);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_result_init(&b.result, NULL);
    if (!b.set || !cells)
        goto done;
    dg_grid_init(&b.grid, cells, w, h, 0);
    b.alloc = bench_allocator(&mem);
    char name[64], size[32];
    snprintf(name, sizeof name, "%s %s", names[which], with_result ? "+result" : "tiles");
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    bench_run(name, size, (int64_t)w * h, reps, batch, gen_op, &b, &mem);
    if (with_result)
    {
        gen_op(&b, 1);
        printf("%-28s %-10s status %d, %d prefabs placed, %d attempts\n", "", size, (int)b.st,
               (int)b.result.metrics.placed, (int)b.result.metrics.attempts);
    }
done:
    dg_result_free(&b.result);
    dg_prefab_set_free(b.set);
    free(cells);
}

BENCH(bench_prefab_generators)
{
    static const char *files[] = {"shaft.txt", "forest.txt", "factory.txt"};
    for (int which = GEN_FULL; which < GEN_COUNT; which++) /* prefab-mixed: bench_prefab_mixed */
        for (int with_result = 0; with_result <= 1; with_result++)
        {
            gen_row(which, with_result, files[which], 80, 50, 301, 20);
            gen_row(which, with_result, files[which], 210, 150, 101, 5);
        }
}

/* ---- prefab-mixed as the tool runs it, beside its base ------------------------------ */

/* What `dungeon --gen prefab-mixed` does (the recipe, attach as the base, a
 * result asked) and a tiles-only recipe (no result asked: the same tiles,
 * the vaults still in the attach rooms, without the caller's result lists),
 * each beside attach made the same way, in alternating batches: the medians
 * and the ratio to attach, the target of issue 30 (at most 1.5). */
typedef struct mixed_pair {
    dg_recipe recipe[2]; /* 0 attach, 1 prefab-mixed */
    dg_prefab_set *set;
    dg_grid grid;
    dg_result result;
    int with_result;
} mixed_pair;

static void mixed_pair_op(mixed_pair *c, int k, int64_t i)
{
    c->recipe[k].seed = (uint64_t)i;
    if (!c->with_result)
    {
        dg_recipe_generate(&c->recipe[k], &c->grid, c->set, NULL, NULL, NULL);
        return;
    }
    dg_result_init(&c->result, NULL);
    dg_recipe_generate(&c->recipe[k], &c->grid, c->set, &c->result, NULL, NULL);
    dg_result_free(&c->result);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void mixed_pair_row(mixed_pair *c, int32_t w, int32_t h, int reps, int64_t batch)
{
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    int64_t *t[2] = {malloc((size_t)reps * sizeof(int64_t)), malloc((size_t)reps * sizeof(int64_t))};
    if (cells && t[0] && t[1] && dg_grid_init(&c->grid, cells, w, h, 0) == DG_OK &&
        dg_recipe_init(&c->recipe[0], "attach", 1, w, h) == DG_OK &&
        dg_recipe_init(&c->recipe[1], "prefab-mixed", 1, w, h) == DG_OK)
    {
        for (int r = 0; r < reps; r++) /* seeds 1.. in both, batch by batch */
            for (int k = 0; k < 2; k++)
            {
                int64_t t0 = bench_cpu_ns();
                for (int64_t j = 0; j < batch; j++)
                    mixed_pair_op(c, k, 1 + r * batch + j);
                t[k][r] = (bench_cpu_ns() - t0) / batch;
            }
        qsort(t[0], (size_t)reps, sizeof(int64_t), cmp_i64);
        qsort(t[1], (size_t)reps, sizeof(int64_t), cmp_i64);
        char name[64], size[32];
        snprintf(name, sizeof name, "prefab-mixed %s", c->with_result ? "+result" : "tiles");
        snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
        printf("%-28s %-10s %10.1f us attach %10.1f us  ratio %5.2f\n", name, size,
               (double)t[1][reps / 2] / 1000.0, (double)t[0][reps / 2] / 1000.0,
               (double)t[1][reps / 2] / (double)t[0][reps / 2]);
        fflush(stdout);
    }
    free(t[0]);
    free(t[1]);
    free(cells);
}

BENCH(bench_prefab_mixed)
{
    static const struct {
        int32_t w, h;
        int reps;
        int64_t batch;
    } sizes[] = {{80, 25, 31, 10}, {80, 50, 31, 5}, {200, 200, 11, 1}, {1000, 1000, 3, 1}};
    mixed_pair c;
    memset(&c, 0, sizeof c);
    c.set = load("vaults.txt");
    if (!c.set)
        return;
    for (c.with_result = 1; c.with_result >= 0; c.with_result--)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            mixed_pair_row(&c, sizes[k].w, sizes[k].h, sizes[k].reps, sizes[k].batch);
    dg_prefab_set_free(c.set);
}
