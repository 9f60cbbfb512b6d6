/* Reserved cells in bsp, scatter and chain: every promise of site_check over
 * many seeds and six masks, at the defaults and in the variants that matter. */
#include "site_check.h"
#include "test.h"

#include <string.h>

TEST(site_bsp)
{
    site_check(&(site_case){"bsp", NULL, 80, 50, NULL, 1}, 40);
    site_check(&(site_case){"bsp", NULL, 60, 40, "doors=none loop_chance=600", 1}, 30);
    site_check(&(site_case){"bsp", NULL, 96, 64, "leaf_min_w=8 leaf_min_h=7 room_fill=90", 1}, 30);
}

TEST(site_scatter)
{
    site_check(&(site_case){"scatter", NULL, 80, 50, NULL, 1}, 40);
    site_check(&(site_case){"scatter", NULL, 60, 40, "gap=1 neighbours=2 loop_permille=600", 1}, 30);
    site_check(&(site_case){"scatter", NULL, 96, 64, "border=0 room_max_w=16 room_max_h=9", 1}, 30);
}

TEST(site_chain)
{
    site_check(&(site_case){"chain", NULL, 80, 50, NULL, 1}, 40);
    site_check(&(site_case){"chain", NULL, 60, 40, "overlap=forbid branch_chance=300", 1}, 30);
    site_check(&(site_case){"chain", NULL, 96, 64, "border=0 loop_chance=600", 1}, 30);
}

/* Too little room left: DG_E_NOSPACE with a message, the grid untouched. */
TEST(site_bsp_nospace)
{
    const char *gens[] = {"bsp", "scatter", "chain"};
    enum { W = 60, H = 40 };
    static uint8_t cells[W * H], before[W * H], mask[W * H];
    for (int i = 0; i < W * H; i++)
    {
        int x = i % W, y = i / W;
        mask[i] = !(x >= 2 && x < 7 && y >= 2 && y < 6); /* a 5x4 hole: no 3x3 room with its walls */
        cells[i] = before[i] = (uint8_t)(i * 7);
    }
    for (int g = 0; g < 3; g++)
    {
        dg_recipe rc;
        dg_recipe_init(&rc, gens[g], 5, W, H);
        dg_site site;
        dg_site_init(&site);
        site.reserved = mask;
        dg_grid grid;
        dg_grid_init(&grid, cells, W, H, 0);
        dg_diag d;
        CHECKF(dg_recipe_generate_site(&rc, &site, &grid, NULL, NULL, NULL, &d) == DG_E_NOSPACE,
               "%s", gens[g]);
        CHECKF(d.message[0] != 0, "%s", gens[g]);
        CHECKF(memcmp(cells, before, sizeof cells) == 0, "%s", gens[g]);
    }
}
