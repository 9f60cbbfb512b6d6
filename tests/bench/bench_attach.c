/* Feature attachment generator: time per map at the sizes, with the
 * structured result, for the defaults (30% floor), a 25% floor target (also
 * without the result: tiles only), and grown until no wall takes anything
 * (plain, the source algorithm's policies, and with loops); around reserved
 * cells (dg_recipe_generate_site); and time per cell of the defaults from
 * 80x25 to 4096x4096, to see how flat it is. */
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

/* ---- around reserved cells ---------------------------------------------------------- */

typedef struct site_bench {
    dg_grid grid;
    dg_recipe recipe;
    dg_site site;
    dg_result result;
} site_bench;

static void site_op(void *ctx, int64_t i)
{
    site_bench *b = ctx;
    b->recipe.seed = (uint64_t)i;
    if (dg_recipe_generate_site(&b->recipe, &b->site, &b->grid, NULL, &b->result, NULL, NULL) !=
        DG_OK)
        abort();
}

/* Defaults through dg_recipe_generate_site, three rows per size in one run:
 * no mask (the peer: the site's copy of the grid without reserved cells), an
 * empty mask (the generator's extra pass alone) and a centred block of a
 * ninth of the map reserved (fewer cells left to fill). */
BENCH(bench_attach_site)
{
    static const struct {
        int32_t w, h;
        int reps, batch;
    } sizes[] = {{80, 50, 301, 5}, {200, 200, 101, 1}, {1000, 1000, 21, 1}};
    static const char *const rows[] = {"attach site no mask", "attach site empty mask",
                                       "attach site 1/9 reserved"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        int32_t w = sizes[i].w, h = sizes[i].h;
        site_bench b;
        uint8_t *cells = malloc((size_t)w * (size_t)h), *mask = calloc((size_t)w * (size_t)h, 1);
        if (!cells || !mask || dg_grid_init(&b.grid, cells, w, h, 0) != DG_OK ||
            dg_recipe_init(&b.recipe, "attach", 0, w, h) != DG_OK)
            abort();
        dg_result_init(&b.result, NULL);
        char size[32];
        snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
        for (int row = 0; row < 3; row++)
        {
            if (row == 2)
                for (int32_t y = h / 3; y < h - h / 3; y++)
                    for (int32_t x = w / 3; x < w - w / 3; x++)
                        mask[(size_t)y * (size_t)w + (size_t)x] = 1;
            dg_site_init(&b.site);
            b.site.reserved = row ? mask : NULL;
            bench_run(rows[row], size, (int64_t)w * h, sizes[i].reps, sizes[i].batch, site_op, &b,
                      NULL);
        }
        dg_result_free(&b.result);
        free(mask);
        free(cells);
    }
}

/* ---- time per cell across sizes -------------------------------------------------- */

#define SCALE_ROUNDS 7
#define SCALE_CELLS_PER_BATCH (4 << 20) /* a batch of small maps covers this many cells */

typedef struct scale_size {
    int32_t w, h;
    int64_t batch;            /* maps per timed batch */
    int64_t ns[SCALE_ROUNDS]; /* per map, each round */
} scale_size;

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median ns per map of one size over the rounds. */
static int64_t scale_median(scale_size *z)
{
    qsort(z->ns, SCALE_ROUNDS, sizeof z->ns[0], cmp_ns);
    return z->ns[SCALE_ROUNDS / 2];
}

/* One timed batch of maps of size z (seeds from *seed on). */
static int64_t scale_batch(attach_bench *b, const scale_size *z, int64_t *seed)
{
    int64_t t0 = bench_now_ns();
    for (int64_t k = 0; k < z->batch; k++)
        attach_op(b, (*seed)++);
    return (bench_now_ns() - t0) / z->batch;
}

/* The sizes take turns within every round, so a burst of load on the shared
 * machine hits all of them alike; each row is the median over the rounds and
 * its ratio to 200x200. */
BENCH(bench_attach_scale)
{
    scale_size sizes[] = {{80, 25, 0, {0}},     {80, 50, 0, {0}},     {200, 200, 0, {0}},
                          {1000, 1000, 0, {0}}, {2048, 2048, 0, {0}}, {4096, 4096, 0, {0}}};
    enum { NSIZES = sizeof sizes / sizeof sizes[0] };
    attach_bench b[NSIZES];
    bench_mem mem_count[NSIZES];
    for (int i = 0; i < NSIZES; i++)
    {
        int64_t cells = (int64_t)sizes[i].w * sizes[i].h;
        uint8_t *mem = malloc((size_t)cells);
        if (!mem || dg_grid_init(&b[i].grid, mem, sizes[i].w, sizes[i].h, 0) != DG_OK)
            abort();
        dg_attach_defaults(&b[i].params);
        b[i].with_result = 1;
        b[i].alloc = bench_allocator(&mem_count[i]);
        dg_result_init(&b[i].result, NULL);
        sizes[i].batch = cells >= SCALE_CELLS_PER_BATCH ? 1 : SCALE_CELLS_PER_BATCH / cells;
        attach_op(&b[i], 0); /* warm-up */
    }
    int64_t seed = 1;
    for (int r = 0; r < SCALE_ROUNDS; r++)
        for (int i = 0; i < NSIZES; i++)
            sizes[i].ns[r] = scale_batch(&b[i], &sizes[i], &seed);
    double base = 0;
    for (int i = 0; i < NSIZES; i++)
    {
        int64_t cells = (int64_t)sizes[i].w * sizes[i].h, median = scale_median(&sizes[i]);
        double per_cell = (double)median / (double)cells;
        if (sizes[i].w == 200)
            base = per_cell;
        char size[32];
        snprintf(size, sizeof size, "%dx%d", (int)sizes[i].w, (int)sizes[i].h);
        printf("%-28s %-10s %9.1f us %6.2f ns/cell", "attach defaults per cell", size,
               (double)median / 1000.0, per_cell);
        if (base > 0)
            printf("  %.2fx 200x200", per_cell / base);
        printf("\n");
        dg_result_free(&b[i].result);
        free(b[i].grid.cells);
    }
    fflush(stdout);
}
