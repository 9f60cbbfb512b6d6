/* attach and prefab-mixed around reserved cells: site_check's promises over
 * many seeds and masks, the space around them still used, vaults kept off a
 * caller's floor, and DG_E_NOSPACE with the grid untouched. */
#include "site_check.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define VAULTS "examples/prefabs/vaults.txt"

TEST(site_attach)
{
    CHECK(site_check(&(site_case){"attach", NULL, 80, 50, NULL, 1}, 40) == 0);
    CHECK(site_check(&(site_case){"attach", NULL, 80, 50, "dense=1 dead_ends=keep", 1}, 15) == 0);
    CHECK(site_check(&(site_case){"attach", NULL, 61, 37, "growth=newest doors=all loop_min_gain=4",
                                  1}, 15) == 0);
}

TEST(site_prefab_mixed)
{
    CHECK(site_check(&(site_case){"prefab-mixed", VAULTS, 80, 50, NULL, 1}, 30) == 0);
    CHECK(site_check(&(site_case){"prefab-mixed", VAULTS, 80, 50, "count=8 in_rooms=0", 1}, 15) == 0);
}
