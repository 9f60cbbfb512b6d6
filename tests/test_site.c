/* dg_site and dg_recipe_generate_site: the API around every generator's own
 * reserved-cell support (each generator's tests call site_check). */
#include "site_check.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* Without reserved cells or anchors, a site run is the plain recipe run. */
TEST(site_empty_is_plain)
{
    const char *gens[] = {"attach", "cave", "maze", "walk"};
    for (int i = 0; i < 4; i++)
    {
        uint8_t a[60 * 40], b[60 * 40];
        dg_grid ga, gb;
        dg_grid_init(&ga, a, 60, 40, 0);
        dg_grid_init(&gb, b, 60, 40, 0);
        dg_recipe rc;
        dg_recipe_init(&rc, gens[i], 9, 60, 40);
        dg_site site;
        dg_site_init(&site);
        CHECK(dg_recipe_generate(&rc, &ga, NULL, NULL, NULL, NULL) == DG_OK);
        CHECK(dg_recipe_generate_site(&rc, &site, &gb, NULL, NULL, NULL, NULL) == DG_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(dg_recipe_generate_site(&rc, NULL, &gb, NULL, NULL, NULL, NULL) == DG_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
}

/* Anchors through a site equal dg_anchor_place after the plain run. */
TEST(site_anchors_are_anchor_place)
{
    uint8_t a[80 * 50], b[80 * 50];
    dg_grid ga, gb;
    dg_grid_init(&ga, a, 80, 50, 0);
    dg_grid_init(&gb, b, 80, 50, 0);
    dg_result ra, rb;
    dg_result_init(&ra, NULL);
    dg_result_init(&rb, NULL);
    dg_recipe rc;
    dg_recipe_init(&rc, "bsp", 4, 80, 50);
    dg_site site;
    dg_site_init(&site);
    site.anchor_count = 2;
    site.anchors[0] = (dg_point){5, 5};
    site.anchors[1] = (dg_point){70, 40};
    CHECK(dg_recipe_generate(&rc, &ga, NULL, &ra, NULL, NULL) == DG_OK);
    CHECK(dg_anchor_place(&ga, site.anchors, 2, &ra, NULL, NULL) == DG_OK);
    CHECK(dg_recipe_generate_site(&rc, &site, &gb, NULL, &rb, NULL, NULL) == DG_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(ra.start.x == 5 && rb.start.x == 5 && ra.room_count == rb.room_count);
    dg_result_free(&ra);
    dg_result_free(&rb);
}

/* Bad sites: a clear status, the grid and result untouched. */
TEST(site_bad_input)
{
    uint8_t cells[40 * 30], mask[40 * 30];
    memset(cells, 0x5A, sizeof cells);
    memset(mask, 1, sizeof mask);
    dg_grid g;
    dg_grid_init(&g, cells, 40, 30, 0);
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, 40, 30);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_site site;
    dg_site_init(&site);
    dg_diag d;
    site.reserved = mask;
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_NOSPACE);
    site.reserved_stride = 39;
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_INVALID);
    site.reserved_stride = -1;
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_INVALID);
    site.reserved_stride = 0;
    mask[0] = 0;
    site.anchor_count = 1;
    site.anchors[0] = (dg_point){1, 1}; /* reserved */
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_INVALID);
    site.anchors[0] = (dg_point){40, 1};
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_INVALID);
    site.anchor_count = DG_ANCHORS_MAX + 1;
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_INVALID);
    site.anchor_count = 0;
    CHECK(dg_recipe_generate_site(NULL, &site, &g, NULL, &r, NULL, &d) == DG_E_NULL);
    CHECK(dg_recipe_generate_site(&rc, &site, NULL, NULL, &r, NULL, &d) == DG_E_NULL);
    for (size_t i = 0; i < sizeof cells; i++)
        if (cells[i] != 0x5A)
        {
            CHECK(!"a failed call wrote a cell");
            break;
        }
    CHECK(r.room_count == 0 && r.start.x == -1);
    dg_site_init(NULL); /* no effect */
    dg_result_free(&r);
}

/* Random sites on every generator: random sizes, rectangles of reserved
 * cells (holding arbitrary tiles) and anchors. Each run succeeds with the
 * promises kept, or fails leaving the grid as it was. (A window whose start
 * room showed no floor once read outside the grid here.) */
TEST(site_random_masks)
{
    static const char *const gens[] = {"attach", "chain", "cave", "bsp", "maze", "walk",
                                       "scatter", "world", "prefab-full", "prefab-jigsaw",
                                       "prefab-islands", "prefab-mixed"};
    static const char *const files[] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                        "examples/prefabs/shaft.txt", "examples/prefabs/forest.txt",
                                        "examples/prefabs/factory.txt", "examples/prefabs/vaults.txt"};
    dg_prefab_set *sets[12] = {NULL};
    for (int i = 0; i < 12; i++)
        if (files[i])
            CHECK(dg_prefab_load(files[i], NULL, NULL, NULL, &sets[i], NULL) == DG_OK);
    dg_rng rng;
    dg_rng_seed(&rng, 12345, 1);
    int bad = 0, ok = 0;
    for (int run = 0; run < 300 && !bad; run++)
    {
        int g = dg_rng_range(&rng, 0, 11);
        int32_t w = dg_rng_range(&rng, 8, 90), h = dg_rng_range(&rng, 8, 60);
        uint8_t *cells = malloc((size_t)(w * h)), *mask = calloc((size_t)(w * h), 1);
        uint8_t *before = malloc((size_t)(w * h));
        for (int r = dg_rng_range(&rng, 0, 4); r > 0; r--)
        {
            int32_t rx = dg_rng_range(&rng, 0, w - 1), ry = dg_rng_range(&rng, 0, h - 1);
            int32_t rw = dg_rng_range(&rng, 1, w / 2 + 1), rh = dg_rng_range(&rng, 1, h / 2 + 1);
            for (int32_t y = ry; y < ry + rh && y < h; y++)
                for (int32_t x = rx; x < rx + rw && x < w; x++)
                    mask[y * w + x] = 1;
        }
        for (int32_t i = 0; i < w * h; i++)
            cells[i] = mask[i] ? (uint8_t)dg_rng_range(&rng, 0, 80) : 0x33;
        memcpy(before, cells, (size_t)(w * h));
        dg_grid grid;
        dg_grid_init(&grid, cells, w, h, 0);
        dg_recipe rc;
        dg_recipe_init(&rc, gens[g], dg_rng_next(&rng), w, h);
        if (sets[g])
            dg_recipe_set_prefabs(&rc, sets[g], NULL, NULL);
        dg_site site;
        dg_site_init(&site);
        site.reserved = mask;
        site.anchor_count = dg_rng_range(&rng, 0, 2);
        for (int k = 0; k < site.anchor_count; k++)
            site.anchors[k] = (dg_point){dg_rng_range(&rng, 0, w - 1), dg_rng_range(&rng, 0, h - 1)};
        dg_result res;
        dg_result_init(&res, NULL);
        dg_status st = dg_recipe_generate_site(&rc, &site, &grid, sets[g], &res, NULL, NULL);
        for (int32_t i = 0; i < w * h; i++)
        {
            int32_t x = i % w, y = i / w, near = 0, anchor = 0;
            bad += (st != DG_OK || mask[i]) && cells[i] != before[i];
            for (int32_t yy = y - 1; yy <= y + 1; yy++)
                for (int32_t xx = x - 1; xx <= x + 1; xx++)
                    near |= xx >= 0 && yy >= 0 && xx < w && yy < h && mask[yy * w + xx];
            for (int k = 0; k < site.anchor_count; k++)
                anchor |= site.anchors[k].x == x && site.anchors[k].y == y;
            bad += st == DG_OK && !mask[i] && near && !anchor && dg_tile_passable(cells[i]);
        }
        CHECKF(!bad, "run %d: %s %dx%d", run, gens[g], (int)w, (int)h);
        ok += st == DG_OK;
        dg_result_free(&res);
        free(cells);
        free(mask);
        free(before);
    }
    CHECKF(ok > 100, "only %d of 300 random sites generated", ok);
    for (int i = 0; i < 12; i++)
        dg_prefab_set_free(sets[i]);
}
