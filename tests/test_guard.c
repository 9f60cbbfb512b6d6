/* Guard memory: every render and analysis function run on grids embedded in
 * larger buffers, with canary bytes before, after and in the stride padding
 * (odd strides), and on output buffers followed by canaries. Nothing outside
 * may change. The generators' guard test is every_generator_stays_inside_the_
 * grid_whatever_the_stride (tests/test_every_generator.c). */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

typedef struct geometry {
    int32_t w, h, pad;
} geometry;

/* An output buffer of `size` bytes followed (and preceded) by canaries. */
typedef struct guarded_buf {
    uint8_t *base;
    uint8_t *data;
    size_t size;
} guarded_buf;

#define BUF_MARGIN 32
#define BUF_CANARY 0xC3

static int buf_make(guarded_buf *b, size_t size)
{
    b->size = size;
    b->base = malloc(size + 2 * BUF_MARGIN);
    if (!b->base)
        return 0;
    memset(b->base, BUF_CANARY, size + 2 * BUF_MARGIN);
    b->data = b->base + BUF_MARGIN;
    return 1;
}

/* 1 if the canaries are intact and, when whole is set, the data too. */
static int buf_intact(const guarded_buf *b, int whole)
{
    size_t total = b->size + 2 * BUF_MARGIN;
    for (size_t i = 0; i < total; i++)
    {
        int in_data = i >= BUF_MARGIN && i < BUF_MARGIN + b->size;
        if ((!in_data || whole) && b->base[i] != BUF_CANARY)
            return 0;
    }
    return 1;
}

static void buf_free(guarded_buf *b)
{
    free(b->base);
    b->base = b->data = NULL;
}

/* A map worth rendering and analysing: the first generator's output. */
static int sample_map(const hard_ctx *ctx, guarded_grid *gg, int32_t w, int32_t h, int32_t pad,
                      uint64_t seed)
{
    if (!guard_make(gg, w, h, pad))
        return 0;
    dg_grid_fill(&gg->grid, DG_TILE_WALL);
    const hard_gen *g = &hard_gens[0];
    if (g->name)
        (void)g->run(ctx, 0, &gg->grid, seed, NULL, NULL, NULL, NULL);
    return 1;
}

TEST(guard_render_writes_only_its_buffer)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    const geometry geos[] = {{1, 1, 3}, {7, 5, 1}, {40, 23, 9}, {3, 30, 2}};
    for (size_t k = 0; k < sizeof geos / sizeof geos[0]; k++)
    {
        guarded_grid gg;
        CHECK(sample_map(&ctx, &gg, geos[k].w, geos[k].h, geos[k].pad, 5 + k));
        uint64_t before = dg_grid_hash(&gg.grid);
        size_t need = ((size_t)geos[k].w + 1) * (size_t)geos[k].h + 1;
        guarded_buf b;
        CHECK(buf_make(&b, need));
        size_t written = 0;
        CHECK(dg_render_ascii(&gg.grid, NULL, (char *)b.data, need - 1, &written) == DG_E_BUFFER);
        CHECK(buf_intact(&b, 1));
        CHECK(dg_render_ascii(&gg.grid, NULL, (char *)b.data, need, &written) == DG_OK);
        CHECK(written == need - 1 && buf_intact(&b, 0));
        buf_free(&b);
        for (int32_t scale = 1; scale <= 3; scale++)
        {
            size_t px = (size_t)geos[k].w * (size_t)geos[k].h * (size_t)(scale * scale) * 4;
            CHECK(buf_make(&b, px));
            CHECK(dg_render_rgba(&gg.grid, NULL, scale, b.data, px - 1) == DG_E_BUFFER);
            CHECK(buf_intact(&b, 1));
            CHECK(dg_render_rgba(&gg.grid, NULL, scale, b.data, px) == DG_OK);
            CHECK(buf_intact(&b, 0));
            buf_free(&b);
        }
        CHECK(guard_intact(&gg) && dg_grid_hash(&gg.grid) == before);
        guard_free(&gg);
    }
    hard_ctx_close(&ctx);
}

TEST(guard_grid_helpers_clip)
{
    const geometry geos[] = {{1, 1, 3}, {9, 4, 7}, {2, 33, 1}};
    for (size_t k = 0; k < sizeof geos / sizeof geos[0]; k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, geos[k].w, geos[k].h, geos[k].pad));
        dg_rng rng;
        dg_rng_seed(&rng, k, 9);
        for (int i = 0; i < 500; i++)
        {
            dg_rect r = {dg_rng_range(&rng, -40, 40), dg_rng_range(&rng, -40, 40),
                         dg_rng_range(&rng, -10, 60), dg_rng_range(&rng, -10, 60)};
            if (i % 50 == 0)
                r.x = INT32_MAX - i, r.w = INT32_MAX;
            (void)dg_grid_fill_rect(&gg.grid, r, (uint8_t)i);
            (void)dg_grid_set(&gg.grid, r.x, r.y, 7);
        }
        CHECK(dg_grid_fill(&gg.grid, 3) == DG_OK);
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
}

/* Runs op on a copy of the map in a guarded grid of stride w + pad; the
 * output buffer has canaries after HARD_OP_OUT bytes and must be untouched
 * past `used` (entirely on error). Returns the op's output hash. */
static uint64_t op_guarded(const hard_op *op, const dg_grid *map, int32_t pad, uint64_t seed,
                           guarded_buf *out, const char *what)
{
    guarded_grid gg;
    if (!guard_make(&gg, map->width, map->height, pad))
        return 0;
    for (int32_t y = 0; y < map->height; y++)
        for (int32_t x = 0; x < map->width; x++)
            dg_grid_set(&gg.grid, x, y, dg_grid_get(map, x, y));
    uint64_t before = dg_grid_hash(&gg.grid);
    out->size = HARD_OP_OUT(map);
    memset(out->base, BUF_CANARY, out->size + 2 * BUF_MARGIN);
    size_t used = 0;
    dg_status st = op->run(&gg.grid, seed, NULL, out->data, &used);
    CHECKF(guard_intact(&gg) && dg_grid_hash(&gg.grid) == before, "%s on %s: grid written",
           op->name, what);
    if (st == DG_OK)
    {
        int clean = used <= out->size && buf_intact(out, 0);
        for (size_t i = used; i < out->size && clean; i++)
            clean = out->data[i] == BUF_CANARY;
        CHECKF(clean, "%s on %s: wrote past its outputs", op->name, what);
    }
    else
        CHECKF(buf_intact(out, 1), "%s on %s: %s but outputs written", op->name, what,
               dg_status_str(st));
    uint64_t h = hard_op_hash(st, out->data, used);
    guard_free(&gg);
    return h;
}

TEST(guard_analysis_reads_only_the_grid)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    const geometry geos[] = {{1, 1, 3}, {2, 9, 1}, {23, 17, 5}, {80, 50, 3}, {150, 131, 7}};
    dg_grid largest = {NULL, 150, 131, 150};
    guarded_buf out; /* sized for the largest map, used at each map's size */
    CHECK(buf_make(&out, HARD_OP_OUT(&largest)));
    for (size_t k = 0; k < sizeof geos / sizeof geos[0] && !test_failures(); k++)
        for (int kind = 0; kind < 3; kind++)
        {
            uint8_t *cells = malloc((size_t)geos[k].w * (size_t)geos[k].h);
            dg_grid map;
            CHECK(cells && dg_grid_init(&map, cells, geos[k].w, geos[k].h, 0) == DG_OK);
            hard_sample_map(&ctx, kind, 11 + k, &map);
            char what[64];
            snprintf(what, sizeof what, "%dx%d map kind %d", geos[k].w, geos[k].h, kind);
            for (const hard_op *op = hard_ops; op->name; op++)
                for (uint64_t seed = 0; seed < 4; seed++)
                {
                    uint64_t a = op_guarded(op, &map, geos[k].pad, seed, &out, what);
                    uint64_t b = op_guarded(op, &map, 0, seed, &out, what);
                    CHECKF(a == b, "%s on %s seed %d: output depends on the stride", op->name,
                           what, (int)seed);
                }
            free(cells);
        }
    buf_free(&out);
    hard_ctx_close(&ctx);
}

TEST(guard_fov_writes_only_its_bounds)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    uint8_t cells[61 * 47], visible[61 * 47];
    dg_grid map;
    CHECK(dg_grid_init(&map, cells, 61, 47, 0) == DG_OK);
    for (int kind = 0; kind < 3; kind++)
    {
        hard_sample_map(&ctx, kind, 4, &map);
        for (int32_t radius = 0; radius < 12; radius++)
            for (int32_t i = 0; i < 40; i++)
            {
                dg_point o = {(i * 7) % 61, (i * 13) % 47};
                memset(visible, BUF_CANARY, sizeof visible);
                dg_status st = dg_fov(&map, NULL, o, radius, visible, sizeof visible, NULL, NULL);
                dg_rect b = dg_fov_bounds(&map, o, radius);
                int outside_ok = 1;
                for (int32_t y = 0; y < 47; y++)
                    for (int32_t x = 0; x < 61; x++)
                    {
                        int in = st == DG_OK && x >= b.x && y >= b.y && x < b.x + b.w &&
                                 y < b.y + b.h;
                        uint8_t v = visible[y * 61 + x];
                        outside_ok &= in ? (v == 0 || v == 1) : v == BUF_CANARY;
                    }
                CHECKF(outside_ok, "fov map %d radius %d origin %d,%d: %s, wrote outside bounds",
                       kind, radius, o.x, o.y, dg_status_str(st));
            }
    }
    hard_ctx_close(&ctx);
}
