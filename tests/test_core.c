/* Core API: version, status, grid, RNG, result, rendering. */
#include "test.h"

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

TEST(version_matches_header)
{
    CHECK(dg_version_number() == DG_VERSION_NUMBER);
    CHECK(strcmp(dg_version(), "0.1.0") == 0 || DG_VERSION_MINOR != 1);
}

/* The spare check counts the slots a struct has left: a field that took the
 * first slot is not read as a spare one, and the last slot still is. */
TEST(spare_check_counts_the_slots_left)
{
    struct grown {
        int32_t field;
        int32_t spare[DG_SPARE_SLOTS - 1];
    } g;
    memset(&g, 0, sizeof g);
    g.field = 7;
    dg_diag d;
    CHECK(DGI_SPARE_CHECK(g.spare, "grown", &d) == DG_OK);
    g.spare[DG_SPARE_SLOTS - 2] = 1;
    CHECK(DGI_SPARE_CHECK(g.spare, "grown", &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "grown spare[6] is 1") != NULL);
}

TEST(status_names_are_distinct)
{
    for (dg_status a = DG_E_LIMIT; a <= DG_OK; a++)
        for (dg_status b = a + 1; b <= DG_OK; b++)
            CHECK(strcmp(dg_status_str(a), dg_status_str(b)) != 0);
    CHECK(strcmp(dg_status_str(-999), "unknown status") == 0);
}

TEST(grid_init_rejects_bad_sizes)
{
    uint8_t cells[16];
    dg_grid g;
    memset(&g, 0x11, sizeof g);
    dg_grid before = g;
    CHECK(dg_grid_init(NULL, cells, 4, 4, 4) == DG_E_NULL);
    CHECK(dg_grid_init(&g, NULL, 4, 4, 4) == DG_E_NULL);
    CHECK(dg_grid_init(&g, cells, 0, 4, 4) == DG_E_INVALID);
    CHECK(dg_grid_init(&g, cells, 4, -1, 4) == DG_E_INVALID);
    CHECK(dg_grid_init(&g, cells, 4, 4, 3) == DG_E_INVALID);
    CHECK(dg_grid_init(&g, cells, DG_GRID_MAX_DIM + 1, 1, 0) == DG_E_TOO_LARGE);
    CHECK(dg_grid_init(&g, cells, DG_GRID_MAX_DIM, DG_GRID_MAX_DIM, 0) == DG_E_TOO_LARGE);
    CHECK(dg_grid_init(&g, cells, INT32_MAX, INT32_MAX, 0) == DG_E_TOO_LARGE);
    CHECK(memcmp(&g, &before, sizeof g) == 0);
    CHECK(dg_grid_init(&g, cells, 4, 4, 0) == DG_OK);
    CHECK(g.stride == 4);
}

TEST(grid_access_stays_inside)
{
    guarded_grid gg;
    CHECK(guard_make(&gg, 7, 5, 3));
    CHECK(dg_grid_fill(&gg.grid, DG_TILE_WALL) == DG_OK);
    CHECK(dg_grid_set(&gg.grid, 7, 0, 1) == DG_E_INVALID);
    CHECK(dg_grid_set(&gg.grid, -1, 0, 1) == DG_E_INVALID);
    CHECK(dg_grid_set(&gg.grid, 0, 5, 1) == DG_E_INVALID);
    CHECK(dg_grid_set(&gg.grid, 6, 4, DG_TILE_DOOR) == DG_OK);
    CHECK(dg_grid_get(&gg.grid, 6, 4) == DG_TILE_DOOR);
    CHECK(dg_grid_get(&gg.grid, 7, 4) == DG_TILE_VOID);
    CHECK(dg_grid_get(NULL, 0, 0) == DG_TILE_VOID);
    dg_rect r = {-3, -3, 100, 2};
    CHECK(dg_grid_fill_rect(&gg.grid, r, DG_TILE_FLOOR) == DG_OK);
    dg_rect huge = {INT32_MAX - 1, INT32_MAX - 1, INT32_MAX, INT32_MAX};
    CHECK(dg_grid_fill_rect(&gg.grid, huge, DG_TILE_FLOOR) == DG_OK);
    CHECK(guard_intact(&gg));
    CHECK(dg_grid_get(&gg.grid, 0, 0) == DG_TILE_WALL);
    guard_free(&gg);
}

TEST(grid_hash_ignores_padding)
{
    uint8_t a[12] = {0}, b[20];
    memset(b, 0x77, sizeof b);
    dg_grid ga, gb;
    CHECK(dg_grid_init(&ga, a, 3, 4, 3) == DG_OK);
    CHECK(dg_grid_init(&gb, b, 3, 4, 5) == DG_OK);
    dg_grid_fill(&gb, 0);
    CHECK(dg_grid_hash(&ga) == dg_grid_hash(&gb));
    dg_grid_set(&gb, 2, 3, 1);
    CHECK(dg_grid_hash(&ga) != dg_grid_hash(&gb));
    dg_grid gc;
    CHECK(dg_grid_init(&gc, a, 4, 3, 4) == DG_OK);
    dg_grid_fill(&gc, 0);
    CHECK(dg_grid_hash(&ga) != dg_grid_hash(&gc)); /* same bytes, other shape */
}

TEST(tiles_have_names_and_passability)
{
    CHECK(strcmp(dg_tile_name(DG_TILE_FLOOR), "floor") == 0);
    CHECK(strcmp(dg_tile_name(DG_TILE_USER + 3), "user") == 0);
    CHECK(strcmp(dg_tile_name(40), "unknown") == 0);
    CHECK(dg_tile_passable(DG_TILE_DOOR));
    CHECK(dg_tile_passable(DG_TILE_CORRIDOR));
    CHECK(!dg_tile_passable(DG_TILE_WALL));
    CHECK(!dg_tile_passable(DG_TILE_VOID));
    CHECK(!dg_tile_passable(DG_TILE_OBSTACLE));
}

TEST(rng_golden_sequence)
{
    dg_rng r;
    dg_rng_seed(&r, 42, 0);
    uint64_t h = 0;
    for (int i = 0; i < 1000; i++)
        h = dg_hash_combine(h, dg_rng_next(&r));
    CHECK_EQ_U64(h, 0x4910B059B8149AAAULL);
    CHECK_EQ_U64(dg_hash64(0), 0xE220A8397B1DCDAFULL);
}

TEST(rng_streams_differ)
{
    dg_rng a, b;
    dg_rng_seed(&a, 7, 1);
    dg_rng_seed(&b, 7, 2);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += dg_rng_next(&a) == dg_rng_next(&b);
    CHECK(same < 3);
}

TEST(rng_bounded_is_in_range_and_unbiased)
{
    dg_rng r;
    dg_rng_seed(&r, 1, 0);
    int counts[6] = {0};
    for (int i = 0; i < 60000; i++)
    {
        uint32_t v = dg_rng_below(&r, 6);
        CHECK(v < 6);
        if (v < 6)
            counts[v]++;
    }
    /* chi-square with 5 degrees of freedom; 20.5 is the 0.1% tail */
    double chi = 0;
    for (int i = 0; i < 6; i++)
        chi += (counts[i] - 10000.0) * (counts[i] - 10000.0) / 10000.0;
    CHECKF(chi < 20.5, "chi-square %f", chi);
    CHECK(dg_rng_below(&r, 0) == 0);
    for (int i = 0; i < 1000; i++)
    {
        int32_t v = dg_rng_range(&r, -3, 3);
        CHECK(v >= -3 && v <= 3);
    }
    CHECK(dg_rng_range(&r, 5, 5) == 5);
    CHECK(dg_rng_range(&r, 5, 2) == 5);
    (void)dg_rng_range(&r, INT32_MIN, INT32_MAX);
    int hits = 0;
    for (int i = 0; i < 10000; i++)
        hits += dg_rng_chance(&r, 250);
    CHECK(hits > 2300 && hits < 2700);
    CHECK(!dg_rng_chance(&r, 0) && dg_rng_chance(&r, 1000));
}

TEST(result_init_free_is_idempotent)
{
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(r.room_count == 0 && r.start.x == -1 && r.start_room == -1);
    dg_result_free(&r);
    dg_result_free(&r);
    dg_result_init(NULL, NULL);
    dg_result_free(NULL);
}

TEST(render_ascii_and_rgba)
{
    uint8_t cells[6] = {DG_TILE_VOID, DG_TILE_FLOOR, DG_TILE_WALL, DG_TILE_DOOR, DG_TILE_CORRIDOR, 200};
    dg_grid g;
    dg_grid_init(&g, cells, 3, 2, 0);
    char text[16];
    size_t n = 0;
    CHECK(dg_render_ascii(&g, NULL, text, 8, &n) == DG_E_BUFFER);
    CHECK(dg_render_ascii(&g, NULL, text, sizeof text, &n) == DG_OK);
    CHECK(n == 8);
    CHECK(strcmp(text, " .#\n+,?\n") == 0);
    uint8_t px[3 * 2 * 4 * 4];
    memset(px, 0, sizeof px);
    CHECK(dg_render_rgba(&g, NULL, 2, px, sizeof px - 1) == DG_E_BUFFER);
    CHECK(dg_render_rgba(&g, NULL, 0, px, sizeof px) == DG_E_INVALID);
    CHECK(dg_render_rgba(&g, NULL, 2, px, sizeof px) == DG_OK);
    uint32_t floor = dg_tile_color(DG_TILE_FLOOR);
    /* cell (1,0) at scale 2 covers pixels x=2..3, y=0..1 */
    const uint8_t *p = px + ((size_t)1 * 6 + 3) * 4;
    CHECK(p[0] == (uint8_t)(floor >> 24) && p[1] == (uint8_t)(floor >> 16) && p[3] == 0xFF);
    for (int t = 0; t < DG_TILE_COUNT; t++)
        for (int u = t + 1; u < DG_TILE_COUNT; u++)
            CHECK(dg_tile_color((uint8_t)t) != dg_tile_color((uint8_t)u));
}
