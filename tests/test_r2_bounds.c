/* Bounded work and caller-supplied results in prefab-mixed and the result
 * helpers: counted bounds, never clocks. */
#include "core/core.h" /* dgi_result_add_room: a caller-made result */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static dg_prefab_set *r2_vaults(void)
{
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/vaults.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    return set;
}

/* A room too small for any vault: after the first failed vault every prefab
 * is proven to fit nowhere, and the call stops. Before, all 100000 vaults tried
 * 100000 positions each (10^10 tries, minutes) and the attempt counter
 * overflowed. */
TEST(r2_mixed_stops_when_nothing_fits)
{
    dg_prefab_set *set = r2_vaults();
    static uint8_t cells[40 * 20];
    dg_grid g;
    dg_grid_init(&g, cells, 40, 20, 0);
    dg_grid_fill(&g, DG_TILE_WALL);
    dg_rect room = {10, 5, 2, 2};
    dg_grid_fill_rect(&g, room, DG_TILE_FLOOR);
    dg_room host;
    memset(&host, 0, sizeof host);
    host.rect = room;
    host.prefab = host.parent = -1;
    for (int in_rooms = 0; in_rooms <= 1 && set; in_rooms++)
    {
        dg_prefab_mixed_params p;
        dg_prefab_mixed_defaults(&p);
        p.count = p.positions = 100000;
        p.unique = 0;
        p.in_rooms = in_rooms;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dgi_result_add_room(&r, &host) == DG_OK);
        uint64_t before = dg_grid_hash(&g);
        CHECK(dg_prefab_mixed_generate(&g, set, &p, 7, &r, NULL, NULL) == DG_OK);
        CHECK(dg_grid_hash(&g) == before);
        CHECK(r.metrics.placed == 0 && r.metrics.stopped_early == 1);
        /* the first failed vault proves that no prefab fits anywhere */
        CHECKF(r.metrics.attempts > 0 && r.metrics.attempts <= 100000, "attempts %d",
               (int)r.metrics.attempts);
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

/* Caller rooms with extreme coordinates: a host room outside the grid is
 * DG_E_INVALID with nothing written; a huge room in a stamp's result is looked
 * up in 64-bit (UBSan runs this). */
TEST(r2_mixed_and_stamp_extreme_rooms)
{
    dg_prefab_set *set = r2_vaults();
    static uint8_t cells[40 * 20];
    dg_grid g;
    dg_grid_init(&g, cells, 40, 20, 0);
    dg_grid_fill(&g, DG_TILE_FLOOR);
    const dg_rect rects[3] = {{INT32_MAX - 10, 2, 100, 5}, {5, 5, INT32_MAX, INT32_MAX}, {-3, 0, 5, 5}};
    for (int k = 0; k < 3 && set; k++)
    {
        dg_result r;
        dg_result_init(&r, NULL);
        dg_room room;
        memset(&room, 0, sizeof room);
        room.rect = rects[k];
        room.prefab = room.parent = -1;
        CHECK(dgi_result_add_room(&r, &room) == DG_OK);
        r.start_room = 0;
        uint64_t before = dg_grid_hash(&g);
        dg_diag diag;
        CHECK(dg_prefab_mixed_generate(&g, set, NULL, 3, &r, NULL, &diag) == DG_E_INVALID);
        CHECK(strstr(diag.message, "room 0") != NULL);
        CHECK(dg_grid_hash(&g) == before && r.room_count == 1 && r.marker_count == 0);
        /* the stamp's markers look their room up in 64-bit */
        CHECK(dg_prefab_stamp(set, 0, 0, 1, &g, 6, 6, &r, NULL) == DG_OK);
        for (int32_t i = 0; i < r.marker_count; i++)
            CHECK(r.markers[i].room == (k == 1 ? 0 : -1));
        dg_grid_fill(&g, DG_TILE_FLOOR);
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

/* Vaults that fit somewhere but would cut the map apart there are never proven
 * dead: the call's budget of 16 positions per cell ends it (it used to try
 * count x positions = 10^10 positions, minutes, on this map). */
TEST(r2_mixed_budget_ends_a_map_that_cannot_hold_the_count)
{
    dg_prefab_set *set = r2_vaults();
    static uint8_t cells[80 * 50];
    dg_grid g;
    dg_grid_init(&g, cells, 80, 50, 0);
    for (int in_rooms = 0; in_rooms <= 1 && set; in_rooms++)
    {
        dg_result r;
        dg_result_init(&r, NULL);
        dg_attach_params a;
        dg_attach_defaults(&a);
        CHECK(dg_attach_generate(&g, &a, 3, &r, NULL, NULL) == DG_OK);
        dg_prefab_mixed_params p;
        dg_prefab_mixed_defaults(&p);
        p.count = p.positions = 100000;
        p.unique = 0;
        p.in_rooms = in_rooms;
        CHECK(dg_prefab_mixed_generate(&g, set, &p, 7, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.stopped_early == 1 && r.metrics.placed < p.count);
        CHECKF(r.metrics.attempts > 0 && r.metrics.attempts <= 16 * 80 * 50, "attempts %d",
               (int)r.metrics.attempts);
        CHECK(grid_connected(&g));
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}
