/* Reserved cells in bsp, scatter and chain: every promise of site_check over
 * many seeds and six masks, at the defaults and in the variants that matter. */
#include "site_check.h"
#include "test.h"

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
