/* Cave, walk and maze around reserved cells: every site promise over many
 * seeds and masks (tests/site_check.h), at the defaults and in the variants
 * that change how the generator fills space. */
#include "site_check.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

enum { SEEDS = 30 };

TEST(site_cave)
{
    site_check(&(site_case){"cave", NULL, 80, 50, NULL, 1}, SEEDS);
    site_check(&(site_case){"cave", NULL, 70, 44, "tunnel_width=3 border=0", 1}, 12);
    site_check(&(site_case){"cave", NULL, 60, 40, "connect=largest target_open_permille=450", 1}, 12);
}

TEST(site_walk)
{
    site_check(&(site_case){"walk", NULL, 80, 50, NULL, 1}, SEEDS);
    site_check(&(site_case){"walk", NULL, 64, 40, "mode=drunk symmetry=xy", 1}, 12);
    site_check(&(site_case){"walk", NULL, 64, 40, "symmetry=x target_floor=500", 1}, 12);
}

TEST(site_maze)
{
    site_check(&(site_case){"maze", NULL, 81, 51, NULL, 1}, SEEDS);
    site_check(&(site_case){"maze", NULL, 61, 41, "layout=perfect algorithm=division", 1}, 12);
    site_check(&(site_case){"maze", NULL, 70, 45, "layout=perfect corridor_width=2 start=centre", 1}, 12);
    site_check(&(site_case){"maze", NULL, 81, 51, "algorithm=division braid=300", 1}, 12);
}

/* A perfect maze split by reserved cells is joined again without loops. */
TEST(site_maze_stays_perfect)
{
    static uint8_t cells[61 * 41], mask[61 * 41];
    const char *algorithms[] = {"growing_tree", "division"};
    for (int a = 0; a < 2; a++)
        for (int kind = 0; kind < SITE_MASKS; kind++)
            for (uint64_t seed = 1; seed <= 8; seed++)
            {
                char text[128];
                snprintf(text, sizeof text, "maze seed=%d width=61 height=41 layout=perfect algorithm=%s",
                         (int)seed, algorithms[a]);
                dg_recipe rc;
                CHECK(dg_recipe_parse(text, strlen(text), &rc, NULL) == DG_OK);
                site_mask(mask, 61, 41, kind);
                dg_site site;
                dg_site_init(&site);
                site.reserved = mask;
                dg_grid g;
                dg_grid_init(&g, cells, 61, 41, 0);
                dg_result r;
                dg_result_init(&r, NULL);
                CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, NULL) == DG_OK);
                CHECKF(r.metrics.loops == 0, "%s seed %d mask %d: %d loops", algorithms[a], (int)seed,
                       kind, (int)r.metrics.loops);
                dg_result_free(&r);
            }
}
