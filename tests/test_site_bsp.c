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
