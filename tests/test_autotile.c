/* dg_autotile against a brute-force reference written from the definitions
 * (docs/autotile.md): every cell of maps of every generator and of random
 * grids with four classes, every kind, fixed and own self class, an output
 * stride with padding that must stay untouched; and bad input rejected with
 * nothing written. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define PAD_BYTE 0xA5

/* Class of cell (x, y), the outside class beyond the grid. */
static int32_t class_at(const dg_grid *g, const dg_autotile_params *p, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= g->width || y >= g->height)
        return p->outside_class;
    return p->classes[g->cells[(size_t)y * (size_t)g->stride + (size_t)x]];
}

/* 1 if (x, y) counts as the same as a cell of class self. */
static uint32_t same(const dg_grid *g, const dg_autotile_params *p, int32_t x, int32_t y,
                     int32_t self)
{
    return class_at(g, p, x, y) == self;
}

static uint8_t reference_index(const dg_grid *g, const dg_autotile_params *p, int32_t x, int32_t y)
{
    if (p->kind == DG_AUTOTILE_CORNER) /* corner point (x, y) between four cells */
        return (uint8_t)(same(g, p, x, y - 1, p->self_class) | same(g, p, x, y, p->self_class) << 1 |
                         same(g, p, x - 1, y, p->self_class) << 2 |
                         same(g, p, x - 1, y - 1, p->self_class) << 3);
    int32_t self = p->self_class == DG_AUTOTILE_OWN_CLASS ? class_at(g, p, x, y) : p->self_class;
    uint32_t n = same(g, p, x, y - 1, self), e = same(g, p, x + 1, y, self);
    uint32_t s = same(g, p, x, y + 1, self), w = same(g, p, x - 1, y, self);
    if (p->kind == DG_AUTOTILE_CARDINAL)
        return (uint8_t)(n | e << 1 | s << 2 | w << 3);
    uint32_t ne = n && e && same(g, p, x + 1, y - 1, self);
    uint32_t se = s && e && same(g, p, x + 1, y + 1, self);
    uint32_t sw = s && w && same(g, p, x - 1, y + 1, self);
    uint32_t nw = n && w && same(g, p, x - 1, y - 1, self);
    int32_t mask = (int32_t)(n | ne << 1 | e << 2 | se << 3 | s << 4 | sw << 5 | w << 6 | nw << 7);
    for (int32_t i = 0; i < DG_AUTOTILE_BLOB_TILES; i++)
        if (dg_autotile_blob_mask(i) == mask)
            return (uint8_t)i;
    return 255; /* not a canonical mask: the table is wrong */
}

/* Runs dg_autotile with an output stride of row + pad and compares every
 * entry with the reference; the padding must keep PAD_BYTE. Returns the
 * number of entries compared (0 after a failure). */
static int64_t compare_all(const dg_grid *g, const dg_autotile_params *p, int32_t pad)
{
    int32_t corner = p->kind == DG_AUTOTILE_CORNER;
    int32_t cols = g->width + corner, rows = g->height + corner, stride = cols + pad;
    size_t size = (size_t)stride * (size_t)rows;
    uint8_t *out = malloc(size);
    if (!out)
        return 0;
    memset(out, PAD_BYTE, size);
    dg_diag diag;
    dg_status st = dg_autotile(g, p, out, size, pad ? stride : 0, NULL, &diag);
    CHECKF(st == DG_OK, "dg_autotile: %s", diag.message);
    int64_t compared = 0, bad = 0;
    for (int32_t y = 0; y < rows && st == DG_OK; y++)
        for (int32_t x = 0; x < stride; x++)
        {
            uint8_t got = out[(size_t)y * (size_t)stride + (size_t)x];
            uint8_t want = x < cols ? reference_index(g, p, x, y) : PAD_BYTE;
            if (got != want && bad++ == 0)
                CHECKF(got == want, "kind %d self %d: (%d,%d) is %d, reference %d", (int)p->kind,
                       (int)p->self_class, (int)x, (int)y, got, want);
            compared += x < cols;
        }
    free(out);
    return bad || st != DG_OK ? 0 : compared;
}

/* Every kind on one grid: walls (the defaults), water, and every class its own. */
static int64_t compare_kinds(const dg_grid *g, dg_autotile_params *p, int32_t pad)
{
    int64_t n = 0;
    static const int32_t selves[3] = {1, 2, DG_AUTOTILE_OWN_CLASS};
    for (int32_t kind = DG_AUTOTILE_CARDINAL; kind <= DG_AUTOTILE_CORNER; kind++)
        for (int s = 0; s < 3; s++)
        {
            if (kind == DG_AUTOTILE_CORNER && selves[s] == DG_AUTOTILE_OWN_CLASS)
                continue;
            p->kind = kind;
            p->self_class = selves[s];
            n += compare_all(g, p, pad);
        }
    return n;
}

TEST(autotile_equals_the_reference_on_every_generator)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    int64_t compared = 0, maps = 0;
    const char *env = getenv("DG_AUTOTILE_SEEDS"); /* more seeds for a long run */
    uint64_t seeds = env && atoi(env) > 0 ? (uint64_t)atoi(env) : 4;
    for (const hard_gen *gen = hard_gens; gen->name && ctx.ready; gen++)
        for (int v = 0; v < gen->variants; v++)
            for (uint64_t seed = 1; seed <= seeds; seed++)
            {
                size_t size = (size_t)gen->width * (size_t)gen->height;
                uint8_t *cells = calloc(size, 1);
                dg_grid g;
                dg_result r;
                dg_result_init(&r, NULL);
                CHECK(cells && dg_grid_init(&g, cells, gen->width, gen->height, 0) == DG_OK);
                if (cells && gen->run(&ctx, v, &g, seed, &r, NULL, NULL, NULL) == DG_OK)
                {
                    dg_autotile_params p;
                    dg_autotile_defaults(&p);
                    p.outside_class = (int32_t)(seed & 1); /* outside as rock, then as wall */
                    compared += compare_kinds(&g, &p, (int32_t)(seed % 3));
                    maps++;
                }
                dg_result_free(&r);
                free(cells);
            }
    CHECK(maps >= 100);
    CHECK(compared > 0);
    if (getenv("DG_AUTOTILE_COUNTS"))
        fprintf(stderr, "    %lld maps, %lld entries\n", (long long)maps, (long long)compared);
    hard_ctx_close(&ctx);
}

TEST(autotile_equals_the_reference_on_random_grids_with_four_classes)
{
    dg_rng rng;
    dg_rng_seed(&rng, 33, 0);
    int64_t compared = 0;
    for (int32_t round = 0; round < 400; round++)
    {
        int32_t w = dg_rng_range(&rng, 1, 40), h = dg_rng_range(&rng, 1, 40);
        int32_t stride = w + dg_rng_range(&rng, 0, 3);
        uint8_t *cells = malloc((size_t)stride * (size_t)h);
        dg_grid g;
        CHECK(cells && dg_grid_init(&g, cells, w, h, stride) == DG_OK);
        if (!cells)
            return;
        for (size_t i = 0; i < (size_t)stride * (size_t)h; i++)
            cells[i] = (uint8_t)dg_rng_next(&rng);
        dg_autotile_params p;
        dg_autotile_defaults(&p);
        for (int32_t t = 0; t < 256; t++)
            p.classes[t] = (uint8_t)dg_rng_below(&rng, 4);
        p.classes[0] = 1; /* class 1 always has a tile */
        p.classes[1] = 2;
        p.outside_class = dg_rng_range(&rng, 0, 3);
        compared += compare_kinds(&g, &p, dg_rng_range(&rng, 0, 2));
        /* a self class of 3 and 0 too */
        p.kind = (int32_t)dg_rng_below(&rng, 3);
        p.classes[2] = 3;
        p.classes[3] = 0;
        p.self_class = (int32_t)dg_rng_below(&rng, 4) == 0 ? 0 : 3;
        compared += compare_all(&g, &p, 1);
        free(cells);
    }
    CHECK(compared > 0);
    if (getenv("DG_AUTOTILE_COUNTS"))
        fprintf(stderr, "    %lld entries\n", (long long)compared);
}

TEST(autotile_blob_masks_are_the_47_canonical_ones)
{
    int32_t last = -1;
    for (int32_t i = 0; i < DG_AUTOTILE_BLOB_TILES; i++)
    {
        int32_t m = dg_autotile_blob_mask(i);
        CHECK(m > last);
        /* a corner bit only with both sides next to it */
        CHECK(!(m & 2) || ((m & 1) && (m & 4)));
        CHECK(!(m & 8) || ((m & 4) && (m & 16)));
        CHECK(!(m & 32) || ((m & 16) && (m & 64)));
        CHECK(!(m & 128) || ((m & 64) && (m & 1)));
        last = m;
    }
    CHECK(dg_autotile_blob_mask(0) == 0 && dg_autotile_blob_mask(46) == 255);
    CHECK(dg_autotile_blob_mask(-1) == -1 && dg_autotile_blob_mask(47) == -1);
}

/* A pinned output: the same map gives the same indices on every build. */
TEST(autotile_golden)
{
    uint8_t cells[80 * 50], out[81 * 51];
    dg_grid g, og;
    dg_attach_params a;
    dg_attach_defaults(&a);
    CHECK(dg_grid_init(&g, cells, 80, 50, 0) == DG_OK);
    CHECK(dg_attach_generate(&g, &a, 7, NULL, NULL, NULL) == DG_OK);
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    uint64_t h = 0;
    for (int32_t kind = DG_AUTOTILE_CARDINAL; kind <= DG_AUTOTILE_CORNER; kind++)
    {
        p.kind = kind;
        int32_t c = kind == DG_AUTOTILE_CORNER;
        CHECK(dg_autotile(&g, &p, out, sizeof out, 0, NULL, NULL) == DG_OK);
        CHECK(dg_grid_init(&og, out, 80 + c, 50 + c, 0) == DG_OK);
        h = dg_hash_combine(h, dg_grid_hash(&og));
    }
    CHECK_EQ_U64(h, 0x9da8efbdf46750e3ull);
}

/* Calls dg_autotile on an output of PAD_BYTE and checks the status, that a
 * message was given and that nothing was written. */
static void expect_rejected(const dg_grid *g, const dg_autotile_params *p, size_t size,
                            int32_t stride, dg_status want, const char *what)
{
    uint8_t out[256];
    memset(out, PAD_BYTE, sizeof out);
    dg_diag diag;
    dg_status st = dg_autotile(g, p, out, size, stride, NULL, &diag);
    CHECKF(st == want, "%s: status %s, want %s", what, dg_status_str(st), dg_status_str(want));
    CHECKF(diag.message[0] != '\0', "%s: no message", what);
    int untouched = 1;
    for (size_t i = 0; i < sizeof out; i++)
        untouched &= out[i] == PAD_BYTE;
    CHECKF(untouched, "%s: the output was written", what);
}

TEST(autotile_rejects_bad_input_and_writes_nothing)
{
    uint8_t cells[8 * 6];
    memset(cells, DG_TILE_WALL, sizeof cells);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, 8, 6, 0) == DG_OK);
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    expect_rejected(&g, &p, 47, 0, DG_E_BUFFER, "output one byte short");
    expect_rejected(&g, &p, 48, 7, DG_E_INVALID, "stride shorter than a row");
    expect_rejected(&g, &p, 8 * 5 + 8, 9, DG_E_BUFFER, "strided output short");
    p.kind = DG_AUTOTILE_CORNER;
    expect_rejected(&g, &p, 9 * 7 - 1, 0, DG_E_BUFFER, "corner output one byte short");
    p.self_class = DG_AUTOTILE_OWN_CLASS;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "corner with the own class");
    dg_autotile_defaults(&p);
    p.self_class = 7;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "no tile in the self class");
    p.self_class = 256;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "self class out of range");
    dg_autotile_defaults(&p);
    memset(p.classes, 1, sizeof p.classes);
    p.self_class = DG_AUTOTILE_OWN_CLASS;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "every tile in one class");
    dg_autotile_defaults(&p);
    p.kind = 3;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "unknown kind");
    dg_autotile_defaults(&p);
    p.outside_class = -1;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "outside class out of range");
    dg_autotile_defaults(&p);
    p.spare[3] = 1;
    expect_rejected(&g, &p, 256, 0, DG_E_INVALID, "spare slot set");
    dg_autotile_defaults(&p);
    expect_rejected(&g, NULL, 256, 0, DG_E_NULL, "NULL params");
    expect_rejected(NULL, &p, 256, 0, DG_E_NULL, "NULL grid");
    CHECK(dg_autotile(&g, &p, NULL, 256, 0, NULL, NULL) == DG_E_NULL);
    hard_alloc fail;
    hard_alloc_init(&fail, 1);
    uint8_t out[48];
    memset(out, PAD_BYTE, sizeof out);
    CHECK(dg_autotile(&g, &p, out, sizeof out, 0, &fail.hooks, NULL) == DG_E_NOMEM);
    CHECK(out[0] == PAD_BYTE && out[47] == PAD_BYTE && hard_alloc_clean(&fail));
}

/* FNV-1a of bytes, for pins of pixels. */
static uint64_t bytes_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

TEST(autotile_tilesets_reject_bad_sizes_and_are_pinned)
{
    static uint8_t px[8 * 16 * DG_ART_ROWS * 16 * 4];
    dg_diag diag;
    memset(px, PAD_BYTE, sizeof px);
    CHECK(dg_autotile_tileset_rgba(DG_AUTOTILE_BLOB, 0xFFFFFFFFu, 0x000000FFu, 0, px, sizeof px, &diag) == DG_E_INVALID);
    CHECK(dg_autotile_tileset_rgba(DG_AUTOTILE_BLOB, 0xFFFFFFFFu, 0x000000FFu, 257, px, sizeof px, &diag) == DG_E_INVALID);
    CHECK(dg_autotile_tileset_rgba(DG_AUTOTILE_BLOB, 0xFFFFFFFFu, 0x000000FFu, 16, px, 8 * 16 * 6 * 16 * 4 - 1, &diag) == DG_E_BUFFER);
    CHECK(dg_art_tileset_rgba(NULL, 0, px, sizeof px, &diag) == DG_E_INVALID);
    CHECK(dg_art_tileset_rgba(NULL, 16, px, sizeof px - 1, &diag) == DG_E_BUFFER);
    CHECK(px[0] == PAD_BYTE && px[sizeof px - 1] == PAD_BYTE);
    uint64_t h = 0;
    for (int32_t kind = DG_AUTOTILE_CARDINAL; kind <= DG_AUTOTILE_CORNER; kind++)
        for (int32_t t = 1; t <= 16; t += 5)
        {
            size_t n = (size_t)8 * (size_t)t * (size_t)(kind == DG_AUTOTILE_BLOB ? 6 : 2) * (size_t)t * 4u;
            CHECK(dg_autotile_tileset_rgba(kind, 0x4A5568FFu, 0x2C333EFFu, t, px, n, NULL) == DG_OK);
            h = dg_hash_combine(h, bytes_hash(px, n));
        }
    CHECK(dg_art_tileset_rgba(NULL, 16, px, sizeof px, NULL) == DG_OK);
    h = dg_hash_combine(h, bytes_hash(px, sizeof px));
    CHECK_EQ_U64(h, 0xa12365b41ab8f309ull);
}

/* The art drawing: each cell's pixels are its ground colour or an art tile's. */
TEST(autotile_art_render_is_pinned)
{
    uint8_t cells[40 * 30];
    static uint8_t px[40 * 8 * 30 * 8 * 4];
    dg_grid g;
    dg_attach_params a;
    dg_attach_defaults(&a);
    CHECK(dg_grid_init(&g, cells, 40, 30, 0) == DG_OK);
    CHECK(dg_attach_generate(&g, &a, 3, NULL, NULL, NULL) == DG_OK);
    cells[40 * 15 + 20] = DG_TILE_WATER; /* water and a locked door too */
    cells[40 * 15 + 21] = DG_TILE_WATER;
    CHECK(dg_render_art_rgba(&g, NULL, 65, px, sizeof px, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_render_art_rgba(&g, NULL, 8, px, sizeof px - 1, NULL, NULL) == DG_E_BUFFER);
    CHECK(dg_render_art_rgba(&g, NULL, 8, px, sizeof px, NULL, NULL) == DG_OK);
    CHECK_EQ_U64(bytes_hash(px, sizeof px), 0x16e5f766fdd74b11ull);
}
