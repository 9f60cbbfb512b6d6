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
    CHECK(site_check(&(site_case){"prefab-mixed", VAULTS, 80, 50, "count=6 unique=0", 1}, 15) == 0);
}

/* One run of recipe text around mask (w*h, reserved cells hold `tile`). */
static dg_status run_site(const char *recipe, const uint8_t *mask, uint8_t tile, uint8_t *cells,
                          dg_result *r, const dg_prefab_set *set, dg_diag *d)
{
    dg_recipe rc;
    if (dg_recipe_parse(recipe, strlen(recipe), &rc, d) != DG_OK)
        return DG_E_INVALID;
    if (set)
        dg_recipe_set_prefabs(&rc, set, NULL, NULL);
    size_t n = (size_t)rc.width * (size_t)rc.height;
    for (size_t i = 0; i < n; i++)
        cells[i] = mask[i] ? tile : (uint8_t)(i * 7);
    dg_grid g;
    dg_grid_init(&g, cells, rc.width, rc.height, 0);
    dg_site site;
    dg_site_init(&site);
    site.reserved = mask;
    return dg_recipe_generate_site(&rc, &site, &g, set, r, NULL, d);
}

static void reserve(uint8_t *mask, int32_t w, int32_t x0, int32_t y0, int32_t bw, int32_t bh)
{
    for (int32_t y = y0; y < y0 + bh; y++)
        memset(mask + y * w + x0, 1, (size_t)bw);
}

/* A quarter of the map reserved in its middle: the rest is still a shippable
 * attach map (survey contract) that fills about as much of the cells left. */
TEST(site_attach_uses_the_rest)
{
    enum { W = 80, H = 50 };
    static uint8_t mask[W * H], cells[W * H];
    memset(mask, 0, sizeof mask);
    reserve(mask, W, 20, 12, 40, 25);
    int64_t floor_sum = 0;
    for (int seed = 1; seed <= 30; seed++)
    {
        char text[96];
        snprintf(text, sizeof text, "attach seed=%d width=%d height=%d", seed, W, H);
        dg_result r;
        dg_result_init(&r, NULL);
        dg_diag d;
        CHECKF(run_site(text, mask, 0x77, cells, &r, NULL, &d) == DG_OK, "seed %d: %s", seed,
               d.message);
        dg_grid g;
        dg_grid_init(&g, cells, W, H, 0);
        dg_quality q;
        CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
        CHECKF(q.unreachable == 0 && q.border_open == 0 && q.dead_doors == 0 &&
                   q.doorless_joins == 0 && q.start_in_room && q.exit_in_room &&
                   !q.start_is_exit && q.exit_rank_permille <= 100,
               "seed %d: unreachable %d border %d dead doors %d doorless %d exit rank %d", seed,
               (int)q.unreachable, (int)q.border_open, (int)q.dead_doors, (int)q.doorless_joins,
               (int)q.exit_rank_permille);
        floor_sum += r.metrics.floor_cells;
        dg_result_free(&r);
    }
    int32_t free_cells = W * H - 40 * 25, permille = (int32_t)(floor_sum * 1000 / (30 * free_cells));
    CHECKF(permille >= 230, "floor of the cells left: %d permille", (int)permille);
}

/* Too little room left for the smallest room and its walls: DG_E_NOSPACE,
 * the grid untouched; a 5x5 hole is just enough for a 3x3 room. */
TEST(site_attach_nospace)
{
    enum { W = 40, H = 30 };
    static uint8_t mask[W * H], cells[W * H], before[W * H];
    memset(mask, 1, sizeof mask);
    for (int32_t y = 0; y < H; y++)
        memset(mask + y * W, 0, 4); /* a strip 4 wide on the left edge */
    reserve(mask, W, 20, 10, 5, 5);
    for (int32_t y = 10; y < 14; y++)
        memset(mask + y * W + 20, 0, 4); /* and a 4x4 hole */
    const char *text = "attach seed=5 width=40 height=30 room_min_w=3 room_min_h=3";
    dg_result r;
    dg_result_init(&r, NULL);
    dg_diag d;
    dg_recipe rc;
    CHECK(dg_recipe_parse(text, strlen(text), &rc, NULL) == DG_OK);
    for (size_t i = 0; i < sizeof cells; i++)
        cells[i] = mask[i] ? 0x77 : (uint8_t)(i * 7);
    memcpy(before, cells, sizeof cells);
    dg_grid g;
    dg_grid_init(&g, cells, W, H, 0);
    dg_site site;
    dg_site_init(&site);
    site.reserved = mask;
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "reserved") != NULL);
    CHECK(memcmp(cells, before, sizeof cells) == 0 && r.room_count == 0);
    for (int32_t y = 10; y < 15; y++)
        memset(mask + y * W + 20, 0, 5); /* a 5x5 hole */
    CHECK(dg_recipe_generate_site(&rc, &site, &g, NULL, &r, NULL, &d) == DG_OK);
    CHECK(r.room_count == 1 && r.start.x == 22 && r.start.y == 12);
    CHECK(r.rooms[0].rect.x == 21 && r.rooms[0].rect.w == 3 && r.rooms[0].rect.h == 3);
    dg_result_free(&r);
}

/* The caller's own floor in reserved cells: vaults (even outside rooms) land
 * neither on it nor next to it, so those cells are the attach map's. */
TEST(site_prefab_mixed_keeps_off)
{
    enum { W = 80, H = 50 };
    static uint8_t mask[W * H], base[W * H], mixed[W * H];
    memset(mask, 0, sizeof mask);
    reserve(mask, W, 10, 10, 25, 20);
    reserve(mask, W, 50, 30, 20, 12);
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load(VAULTS, NULL, NULL, NULL, &set, NULL) == DG_OK);
    int placed = 0;
    for (int seed = 1; seed <= 20 && set; seed++)
    {
        char text[128];
        dg_result r;
        dg_result_init(&r, NULL);
        snprintf(text, sizeof text, "attach seed=%d width=%d height=%d", seed, W, H);
        CHECK(run_site(text, mask, DG_TILE_FLOOR, base, &r, NULL, NULL) == DG_OK);
        snprintf(text, sizeof text, "prefab-mixed seed=%d width=%d height=%d count=12 in_rooms=0",
                 seed, W, H);
        CHECK(run_site(text, mask, DG_TILE_FLOOR, mixed, &r, set, NULL) == DG_OK);
        placed += r.metrics.placed;
        for (int32_t y = 0; y < H; y++)
            for (int32_t x = 0; x < W; x++)
            {
                int near = 0;
                for (int32_t yy = y - 1; yy <= y + 1; yy++)
                    for (int32_t xx = x - 1; xx <= x + 1; xx++)
                        near |= xx >= 0 && yy >= 0 && xx < W && yy < H && mask[yy * W + xx];
                CHECKF(!near || mixed[y * W + x] == base[y * W + x], "seed %d (%d, %d)", seed,
                       (int)x, (int)y);
                if (test_failures())
                    break;
            }
        dg_result_free(&r);
    }
    CHECK(placed >= 20 * 6); /* the vaults still land, elsewhere */
    dg_prefab_set_free(set);
}
