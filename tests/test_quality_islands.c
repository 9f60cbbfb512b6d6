/* prefab-islands and the quality contract: a wall ring with a path of ground
 * inside it (border=1, pure mode), the open version with border=0, start in
 * the start building, the exit on the farthest building cell by walking and
 * within the farthest tenth, placed <= requested, and the same tiles whether
 * a result is asked for or not. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static dg_prefab_set *factory(void)
{
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/factory.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    return set;
}

static int in_rect(dg_rect q, dg_point p)
{
    return p.x >= q.x && p.y >= q.y && p.x < q.x + q.w && p.y < q.y + q.h;
}

static int in_any_room(const dg_result *r, dg_point p)
{
    for (int32_t i = 0; i < r->room_count; i++)
        if (in_rect(r->rooms[i].rect, p))
            return 1;
    return 0;
}

/* No open cell of a building's rect lies farther from the start than the exit. */
static int exit_is_farthest_building_cell(const dg_grid *g, const dg_result *r)
{
    int32_t *dist = grid_walk_from(g, r->start, NULL), far = -1;
    if (!dist)
        return 0;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                far = dist[y * g->width + x] > far ? dist[y * g->width + x] : far;
    }
    int ok = dist[r->exit.y * g->width + r->exit.x] == far;
    free(dist);
    return ok;
}

/* The contract at the defaults on seeds 1..n: also at the smallest size
 * the factory always fits (22 x 22), which test_quality.c does not cover;
 * and the parallel line (median <= 150 per mille): fewer than half the maps
 * above it. */
static void contract(int32_t w, int32_t h, int32_t n)
{
    dg_prefab_set *set = factory();
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_grid g;
    CHECK(set && cells && dg_grid_init(&g, cells, w, h, 0) == DG_OK);
    int bad = 0;
    int32_t parallel_over = 0, surveyed = 0;
    for (int32_t i = 1; set && cells && i <= n && bad < 3; i++)
    {
        dg_result r;
        dg_quality q;
        dg_result_init(&r, NULL);
        dg_status st = dg_prefab_islands_generate(&g, set, NULL, (uint64_t)i, &r, NULL, NULL);
        CHECKF(st == DG_OK, "%dx%d seed %d: %s", (int)w, (int)h, (int)i, dg_status_str(st));
        if (st == DG_OK && dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK)
        {
            int before = test_failures();
            parallel_over += q.parallel_permille > 150;
            surveyed++;
            CHECKF(!q.border_open && !q.unreachable && !q.doorless_joins && !q.dead_doors,
                   "%dx%d seed %d: border %d unreachable %d doorless %d dead doors %d", (int)w, (int)h,
                   (int)i, (int)q.border_open, (int)q.unreachable, (int)q.doorless_joins, (int)q.dead_doors);
            CHECKF(q.start_in_room && q.exit_in_room && !q.start_is_exit && q.exit_rank_permille <= 100,
                   "%dx%d seed %d: start in room %d exit in room %d rank %d", (int)w, (int)h, (int)i,
                   (int)q.start_in_room, (int)q.exit_in_room, (int)q.exit_rank_permille);
            CHECKF(r.metrics.placed <= r.metrics.requested, "%dx%d seed %d: placed %d of %d", (int)w, (int)h,
                   (int)i, (int)r.metrics.placed, (int)r.metrics.requested);
            bad += test_failures() > before;
        }
        else
            bad++;
        dg_result_free(&r);
    }
    CHECKF(2 * parallel_over < surveyed, "%dx%d: %d of %d maps above 150 per mille parallel", (int)w, (int)h,
           (int)parallel_over, (int)surveyed);
    free(cells);
    dg_prefab_set_free(set);
}

TEST(islands_quality_smallest_22x22) { contract(22, 22, 1000); }
TEST(islands_quality_80x25_1000_seeds) { contract(80, 25, 1000); }

/* Below the smallest size some seeds find no room for the groups: a clear
 * DG_E_NOSPACE with the grid untouched. */
TEST(islands_too_small_is_nospace)
{
    dg_prefab_set *set = factory();
    uint8_t cells[12 * 12];
    dg_grid g;
    dg_grid_init(&g, cells, 12, 12, 0);
    dg_grid_fill(&g, DG_TILE_WATER);
    dg_diag d;
    CHECK(set && dg_prefab_islands_generate(&g, set, NULL, 1, NULL, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "minimum") != NULL);
    for (int32_t c = 0; c < 12 * 12; c++)
        CHECK(cells[c] == DG_TILE_WATER);
    dg_prefab_set_free(set);
}

/* The ring is wall, the two rings inside it ground (a path two wide: one
 * wide, it would run beside the buildings' rooms), every building within;
 * the start is the start room's marker, the exit the farthest building cell. */
TEST(islands_ring_path_start_exit)
{
    dg_prefab_set *set = factory();
    int32_t w = 60, h = 30;
    uint8_t *cells = malloc((size_t)w * h);
    dg_grid g;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 0; set && seed < 200 && !test_failures(); seed++)
    {
        CHECK(dg_prefab_islands_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        for (int32_t x = 0; x < w; x++)
            for (int32_t y = 0; y < h; y++)
            {
                int ring = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                int path = !ring && (x <= 2 || y <= 2 || x >= w - 3 || y >= h - 3);
                CHECKF(!ring || dg_grid_get(&g, x, y) == DG_TILE_WALL, "seed %d (%d,%d)", (int)seed, (int)x, (int)y);
                CHECKF(!path || dg_grid_get(&g, x, y) == DG_TILE_FLOOR, "seed %d (%d,%d)", (int)seed, (int)x, (int)y);
            }
        for (int32_t i = 0; i < r.room_count; i++)
        {
            dg_rect q = r.rooms[i].rect;
            CHECK(q.x >= 3 && q.y >= 3 && q.x + q.w <= w - 3 && q.y + q.h <= h - 3);
        }
        CHECK(r.start_room >= 0 && r.rooms[r.start_room].kind == DG_ROOM_START);
        CHECK(in_any_room(&r, r.exit) && (r.exit.x != r.start.x || r.exit.y != r.start.y));
        CHECK(dg_tile_passable(dg_grid_get(&g, r.exit.x, r.exit.y)));
        CHECK(exit_is_farthest_building_cell(&g, &r));
    }
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}

/* border=0: the open version, buildings up to the edge, no wall ring. */
TEST(islands_border_off_is_open)
{
    dg_prefab_set *set = factory();
    int32_t w = 40, h = 24, open_edges = 0, edge_buildings = 0;
    uint8_t *cells = malloc((size_t)w * h);
    dg_grid g;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_prefab_islands_params p;
    dg_prefab_islands_defaults(&p);
    CHECK(p.border == 1);
    p.border = 0;
    for (uint64_t seed = 0; set && seed < 50; seed++)
    {
        CHECK(dg_prefab_islands_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        for (int32_t x = 0; x < w; x++)
            open_edges += dg_tile_passable(dg_grid_get(&g, x, 0));
        for (int32_t i = 0; i < r.room_count; i++)
            edge_buildings += r.rooms[i].rect.x == 0 || r.rooms[i].rect.y == 0;
        CHECK(in_any_room(&r, r.exit) && exit_is_farthest_building_cell(&g, &r));
    }
    CHECK(open_edges > 50 * w / 2 && edge_buildings > 0);
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}

/* keep=1 (mixed): no ring, the cells around the buildings stay as they were. */
TEST(islands_keep_has_no_ring)
{
    dg_prefab_set *set = factory();
    int32_t w = 50, h = 30;
    uint8_t *cells = malloc((size_t)w * h);
    dg_grid g;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_prefab_islands_params p;
    dg_prefab_islands_defaults(&p);
    p.keep = 1;
    for (uint64_t seed = 0; set && seed < 20; seed++)
    {
        dg_grid_fill(&g, DG_TILE_WATER);
        CHECK(dg_prefab_islands_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        int32_t water = 0;
        for (int32_t x = 0; x < w; x++)
            water += dg_grid_get(&g, x, 0) == DG_TILE_WATER;
        CHECK(water > 0);
    }
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}

/* Tiles are the same with and without a result, also on seeds whose first
 * map put the exit short of the farthest tenth (redone: 80x25 seed 814). */
TEST(islands_tiles_only_matches_with_exit_redo)
{
    dg_prefab_set *set = factory();
    uint8_t *cells = malloc(80 * 25);
    dg_grid g;
    dg_grid_init(&g, cells, 80, 25, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 800; set && seed < 830; seed++)
    {
        dg_status a = dg_prefab_islands_generate(&g, set, NULL, seed, NULL, NULL, NULL);
        uint64_t tiles = dg_grid_hash(&g);
        dg_status b = dg_prefab_islands_generate(&g, set, NULL, seed, &r, NULL, NULL);
        CHECKF(a == DG_OK && a == b && tiles == dg_grid_hash(&g), "seed %d", (int)seed);
    }
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}

/* Without groups or a start marker the start is a cell of the first
 * building; metrics: placed never exceeds requested. */
TEST(islands_start_without_start_group)
{
    dg_prefab_set *set = NULL;
    const char *text = "prefabs 1\nprefab hut\n  mode island\nmap\n#+#\n#.#\n###\nend\n"
                       "prefab post\n  mode island\nmap\n#+#\nend\n";
    CHECK(dg_prefab_parse(text, strlen(text), "huts.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    uint8_t cells[30 * 20];
    dg_grid g;
    dg_grid_init(&g, cells, 30, 20, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 0; set && seed < 50; seed++)
    {
        dg_quality q;
        CHECK(dg_prefab_islands_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count > 0 && in_rect(r.rooms[0].rect, r.start));
        CHECK(r.metrics.placed == r.metrics.requested); /* one group, as many as fit */
        CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
        CHECK(!q.border_open && !q.unreachable && !q.dead_doors && q.exit_in_room && !q.start_is_exit);
    }
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

/* requested counts the drawn counts; an "as many as fit" group what it placed. */
TEST(islands_requested_counts_placed)
{
    dg_prefab_set *set = factory();
    uint8_t *cells = malloc(80 * 50);
    dg_grid g;
    dg_grid_init(&g, cells, 80, 50, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 0; set && seed < 50; seed++)
    {
        CHECK(dg_prefab_islands_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        /* start, store and workshop always reach their counts; frames 0-6 may fall short */
        CHECK(r.metrics.placed <= r.metrics.requested && r.metrics.placed + 6 >= r.metrics.requested);
        CHECK(r.metrics.placed == r.room_count);
    }
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}
