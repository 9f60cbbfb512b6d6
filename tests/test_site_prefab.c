/* Reserved cells in the world window and the prefab generators (full,
 * jigsaw, islands): site_check's promises over many seeds and masks, and
 * prefab-full's own cases (one prefab: a place off the mask, or DG_E_NOSPACE). */
#include "site_check.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

TEST(site_world)
{
    site_case c = {"world", NULL, 81, 51, NULL, 1};
    site_check(&c, 30);
    c.params = "room_min=9"; /* full rooms: walls shared with the neighbours */
    site_check(&c, 12);
    c.params = "loop_permille=0 room_size=7 room_min=5";
    site_check(&c, 12);
    c.prefabs = "examples/prefabs/furnish.txt"; /* furnished rooms change with their doors */
    c.params = NULL;
    site_check(&c, 12);
}

TEST(site_prefab_jigsaw)
{
    site_case c = {"prefab-jigsaw", "examples/prefabs/forest.txt", 84, 50, NULL, 1};
    site_check(&c, 30);
    c.params = "seams=open";
    site_check(&c, 12);
}

TEST(site_prefab_islands)
{
    site_case c = {"prefab-islands", "examples/prefabs/factory.txt", 80, 50, NULL, 1};
    site_check(&c, 30);
    c.params = "margin=2";
    site_check(&c, 12);
}

#define FULL_W 60
#define FULL_H 30
#define CALLER 0x77

static void rect_mask(uint8_t *m, int32_t x0, int32_t y0, int32_t w, int32_t h)
{
    memset(m, 0, FULL_W * FULL_H);
    for (int32_t y = y0; y < y0 + h; y++)
        for (int32_t x = x0; x < x0 + w; x++)
            m[y * FULL_W + x] = 1;
}

static int near(const uint8_t *m, int32_t x, int32_t y)
{
    for (int32_t yy = y - 1; yy <= y + 1; yy++)
        for (int32_t xx = x - 1; xx <= x + 1; xx++)
            if (xx >= 0 && yy >= 0 && xx < FULL_W && yy < FULL_H && m[yy * FULL_W + xx])
                return 1;
    return 0;
}

/* One prefab-full run around mask m; returns its status and checks the promises. */
static dg_status full_run(const dg_prefab_set *set, const uint8_t *m, uint64_t seed, dg_rect *room)
{
    uint8_t cells[FULL_W * FULL_H];
    for (int32_t i = 0; i < FULL_W * FULL_H; i++)
        cells[i] = m[i] ? CALLER : (uint8_t)(i % 3);
    uint8_t before[sizeof cells];
    memcpy(before, cells, sizeof cells);
    dg_grid g;
    dg_grid_init(&g, cells, FULL_W, FULL_H, 0);
    dg_recipe rc;
    dg_recipe_init(&rc, "prefab-full", seed, FULL_W, FULL_H);
    dg_recipe_set_prefabs(&rc, set, NULL, NULL);
    dg_site site;
    dg_site_init(&site);
    site.reserved = m;
    dg_result r;
    dg_result_init(&r, NULL);
    dg_diag d;
    dg_status st = dg_recipe_generate_site(&rc, &site, &g, set, &r, NULL, &d);
    if (st != DG_OK)
    {
        CHECKF(memcmp(before, cells, sizeof cells) == 0, "seed %llu: a failed run wrote the grid",
               (unsigned long long)seed);
        CHECKF(strstr(d.message, "reserved") != NULL, "message: %s", d.message);
    }
    for (int32_t y = 0; st == DG_OK && y < FULL_H; y++)
        for (int32_t x = 0; x < FULL_W; x++)
        {
            int32_t i = y * FULL_W + x;
            CHECKF(!m[i] || cells[i] == CALLER, "seed %llu: reserved (%d, %d) written",
                   (unsigned long long)seed, (int)x, (int)y);
            CHECKF(m[i] || !dg_tile_passable(cells[i]) || !near(m, x, y),
                   "seed %llu: open (%d, %d) touches a reserved cell", (unsigned long long)seed,
                   (int)x, (int)y);
        }
    if (st == DG_OK)
    {
        CHECK(r.room_count == 1);
        *room = r.rooms[0].rect;
        CHECK(dg_tile_passable(cells[r.start.y * FULL_W + r.start.x]));
    }
    dg_result_free(&r);
    return st;
}

/* The shaft (48x20) in a 60x30 grid: a corner or an edge strip leaves a
 * place (the nearest to the centre), a block in the middle or a strip
 * across leaves none. */
TEST(site_prefab_full)
{
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/shaft.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    if (!set)
        return;
    uint8_t m[FULL_W * FULL_H];
    for (uint64_t seed = 1; seed <= 30; seed++)
    {
        dg_rect q;
        rect_mask(m, 0, 0, 4, 3); /* top-left corner: the centred place (6, 5) is clear */
        CHECK(full_run(set, m, seed, &q) == DG_OK && q.x == 6 && q.y == 5);
        rect_mask(m, 0, 0, FULL_W, 6); /* a strip along the top: pushed down */
        CHECK(full_run(set, m, seed, &q) == DG_OK && q.y == 7);
        rect_mask(m, 0, 0, 8, FULL_H); /* a strip down the left: pushed right */
        CHECK(full_run(set, m, seed, &q) == DG_OK && q.x == 9);
        rect_mask(m, FULL_W - 3, FULL_H - 4, 3, 4); /* bottom-right corner */
        CHECK(full_run(set, m, seed, &q) == DG_OK);
        rect_mask(m, 28, 13, 4, 4); /* the middle */
        CHECK(full_run(set, m, seed, &q) == DG_E_NOSPACE);
        rect_mask(m, 0, 12, FULL_W, 1); /* a line across */
        CHECK(full_run(set, m, seed, &q) == DG_E_NOSPACE);
    }
    dg_prefab_set_free(set);
}
