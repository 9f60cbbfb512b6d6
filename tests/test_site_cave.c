/* Cave, walk and maze around reserved cells: every site promise over many
 * seeds and masks (tests/site_check.h), at the defaults and in the variants
 * that change how the generator fills space. */
#include "site_check.h"
#include "test.h"

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
