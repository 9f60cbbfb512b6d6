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
    CHECK(dg_anchor_place(&ga, &ra, site.anchors, 2, NULL, NULL) == DG_OK);
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
