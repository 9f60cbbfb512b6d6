/* The quality contract of prefab-jigsaw and prefab-full at their defaults:
 * closed border, everything reachable from the start, start and exit in
 * rooms with the exit among the farthest cells, no door leading nowhere;
 * jigsaw without bands of one block or crowds of actors, full refusing a
 * grid it cannot half fill. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static dg_prefab_set *load_example(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "examples/prefabs/%s", name);
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = dg_prefab_load(path, NULL, NULL, NULL, &set, &d);
    CHECKF(st == DG_OK, "%s", d.message);
    return set;
}

static dg_prefab_set *parse_text(const char *text)
{
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = dg_prefab_parse(text, strlen(text), "q.pf", NULL, NULL, NULL, &set, &d);
    CHECKF(st == DG_OK, "%s", d.message);
    return set;
}

/* Checks the whole contract of one map; what names the map in messages. */
static void check_contract(const dg_grid *g, const dg_result *r, const char *what, uint64_t seed)
{
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.border_open == 0 && q.unreachable == 0, "%s seed %d: border %d, unreachable %d", what,
           (int)seed, (int)q.border_open, (int)q.unreachable);
    CHECKF(q.start_in_room && q.exit_in_room && !q.start_is_exit && q.exit_rank_permille <= 100,
           "%s seed %d: start in room %d, exit in room %d, same %d, rank %d", what, (int)seed,
           (int)q.start_in_room, (int)q.exit_in_room, (int)q.start_is_exit, (int)q.exit_rank_permille);
    CHECKF(q.dead_doors == 0 && q.doorless_joins == 0, "%s seed %d: dead doors %d, doorless %d", what,
           (int)seed, (int)q.dead_doors, (int)q.doorless_joins);
}

static void jigsaw_contract(const dg_prefab_set *set, int32_t w, int32_t h, int seeds)
{
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_grid g;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    char what[64];
    snprintf(what, sizeof what, "jigsaw %dx%d", (int)w, (int)h);
    for (uint64_t seed = 0; cells && seed < (uint64_t)seeds && test_failures() == 0; seed++)
    {
        CHECK(dg_prefab_jigsaw_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        check_contract(&g, &r, what, seed);
    }
    dg_result_free(&r);
    free(cells);
}

TEST(jigsaw_quality_forest_at_defaults)
{
    dg_prefab_set *set = load_example("forest.txt");
    if (!set)
        return;
    jigsaw_contract(set, 7, 5, 300); /* one block: the smallest map */
    jigsaw_contract(set, 80, 25, 300);
    jigsaw_contract(set, 80, 50, 150);
    jigsaw_contract(set, 200, 200, 12);
    dg_prefab_set_free(set);
}

/* border 0 gives back the open edges (for stitching windows together). */
TEST(jigsaw_border_off_leaves_edges_open)
{
    dg_prefab_set *set = load_example("forest.txt");
    if (!set)
        return;
    uint8_t cells[21 * 15];
    dg_grid g;
    dg_grid_init(&g, cells, 21, 15, 0);
    dg_prefab_jigsaw_params p;
    dg_prefab_jigsaw_defaults(&p);
    CHECK(p.border == 1);
    p.border = 0;
    int open = 0;
    for (uint64_t seed = 0; seed < 20; seed++)
    {
        dg_quality q;
        CHECK(dg_prefab_jigsaw_generate(&g, set, &p, seed, NULL, NULL, NULL) == DG_OK);
        CHECK(dg_survey_map(&g, NULL, &q, NULL, NULL) == DG_OK);
        open += q.border_open > 0;
    }
    CHECK(open == 20);
    dg_prefab_set_free(set);
}

/* The start is the centre of a block on the map's edge, not the first open
 * cell: it moves from seed to seed and is rarely on the top row of blocks. */
TEST(jigsaw_start_on_an_edge_block)
{
    dg_prefab_set *set = load_example("forest.txt");
    if (!set)
        return;
    uint8_t cells[80 * 25];
    dg_grid g;
    dg_grid_init(&g, cells, 80, 25, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    int top = 0, distinct = 0;
    dg_point seen[200];
    for (uint64_t seed = 0; seed < 200; seed++)
    {
        CHECK(dg_prefab_jigsaw_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        int32_t bx = (r.start.x - 1) / 7, by = r.start.y / 5; /* 11 x 5 blocks from x = 1 */
        CHECKF(bx == 0 || bx == 10 || by == 0 || by == 4, "seed %d: start (%d, %d)", (int)seed,
               (int)r.start.x, (int)r.start.y);
        top += by == 0;
        int known = 0;
        for (int i = 0; i < distinct; i++)
            known |= seen[i].x == r.start.x && seen[i].y == r.start.y;
        if (!known)
            seen[distinct++] = r.start;
    }
    CHECK(top < 120 && distinct >= 20);
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

/* Blocks open on every side and one with a door on its edges: the border
 * walls the edges, drops the doors it walls and mends those left leading
 * nowhere; the map stays connected. */
TEST(jigsaw_border_walls_doors_and_edges)
{
    dg_prefab_set *set = parse_text("prefabs 1\n"
                                    "prefab open\n mode jigsaw\nmap\n.....\n.....\n.....\n.....\n.....\nend\n"
                                    "prefab gate\n mode jigsaw\nmap\n##+##\n#...#\n+...+\n#...#\n##+##\nend\n");
    if (!set)
        return;
    uint8_t cells[25 * 15];
    dg_grid g;
    dg_grid_init(&g, cells, 25, 15, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_prefab_jigsaw_params p;
    dg_prefab_jigsaw_defaults(&p);
    p.seams = DG_SEAM_ANY;
    for (uint64_t seed = 0; seed < 100; seed++)
    {
        CHECK(dg_prefab_jigsaw_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        check_contract(&g, &r, "doors", seed);
        for (int32_t i = 0; i < r.door_count; i++)
            CHECK(dg_grid_get(&g, r.doors[i].pos.x, r.doors[i].pos.y) == DG_TILE_DOOR);
    }
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

TEST(full_quality_shaft_at_defaults)
{
    dg_prefab_set *set = load_example("shaft.txt");
    if (!set)
        return;
    static const int32_t sizes[][2] = {{48, 20}, {20, 48}, {56, 26}, {64, 30}};
    uint8_t *cells = malloc(200 * 200);
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; cells && k < 4; k++)
    {
        dg_grid g;
        dg_grid_init(&g, cells, sizes[k][0], sizes[k][1], 0);
        for (uint64_t seed = 0; seed < 100; seed++)
        {
            CHECK(dg_prefab_full_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
            check_contract(&g, &r, "shaft", seed);
        }
    }
    dg_grid small;
    dg_grid_init(&small, cells, 47, 20, 0);
    CHECK(dg_prefab_full_generate(&small, set, NULL, 1, &r, NULL, NULL) == DG_E_NOSPACE);
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
}

/* A grid the shaft cannot half fill is refused, untouched, with a message
 * naming the largest prefab that fits; cover 0 or keep 1 take it anyway. */
TEST(full_refuses_a_grid_it_cannot_half_fill)
{
    dg_prefab_set *set = load_example("shaft.txt");
    uint8_t *cells = malloc(200 * 200);
    static const int32_t sizes[][2] = {{80, 25}, {80, 50}, {200, 200}};
    for (int k = 0; set && cells && k < 3; k++)
    {
        dg_grid g;
        dg_grid_init(&g, cells, sizes[k][0], sizes[k][1], 0);
        dg_grid_fill(&g, 77);
        dg_diag d;
        CHECK(dg_prefab_full_generate(&g, set, NULL, 1, NULL, NULL, &d) == DG_E_NOSPACE);
        CHECKF(strstr(d.message, "'shaft' (48x20)") && strstr(d.message, "at most 1920 cells"), "%s", d.message);
        for (int32_t i = 0; i < g.width * g.height; i++)
            CHECK(cells[i] == 77);
        dg_prefab_full_params p;
        dg_prefab_full_defaults(&p);
        CHECK(p.cover == 500);
        p.cover = 0;
        CHECK(dg_prefab_full_generate(&g, set, &p, 1, NULL, NULL, NULL) == DG_OK);
        p.cover = 500;
        p.keep = 1;
        CHECK(dg_prefab_full_generate(&g, set, &p, 1, NULL, NULL, NULL) == DG_OK);
        p.cover = 1001;
        CHECK(dg_prefab_full_generate(&g, set, &p, 1, NULL, NULL, NULL) == DG_E_INVALID);
    }
    /* 48x20 in 60x32 is exactly half: taken */
    dg_grid g;
    dg_grid_init(&g, cells, 60, 32, 0);
    CHECK(set && dg_prefab_full_generate(&g, set, NULL, 1, NULL, NULL, NULL) == DG_OK);
    free(cells);
    dg_prefab_set_free(set);
}

/* Neighbouring blocks (west-east, north-south) holding the same prefab the
 * same way round, and passable cells per actor marker, over seeds: no bands
 * of one block, no crowd of bandits (issue 29: at most 10%, at least 40). */
static void jigsaw_variety(const dg_prefab_set *set, int32_t w, int32_t h, int seeds)
{
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_grid g;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    int64_t pairs = 0, twins = 0;
    for (uint64_t seed = 0; cells && seed < (uint64_t)seeds && test_failures() == 0; seed++)
    {
        CHECK(dg_prefab_jigsaw_generate(&g, set, NULL, seed, &r, NULL, NULL) == DG_OK);
        for (int32_t i = 0; i < r.room_count; i++)
            for (int32_t k = 0; k < r.room_count; k++)
            {
                const dg_rect a = r.rooms[i].rect, b = r.rooms[k].rect;
                int next = (b.x == a.x + a.w && b.y == a.y) || (b.y == a.y + a.h && b.x == a.x);
                pairs += next;
                twins += next && r.rooms[i].prefab == r.rooms[k].prefab &&
                         r.rooms[i].orientation == r.rooms[k].orientation;
            }
        int32_t actors = 0;
        for (int32_t i = 0; i < r.marker_count; i++)
            actors += r.markers[i].kind == DG_MARKER_ACTOR || r.markers[i].kind == DG_MARKER_SPAWN;
        CHECKF(actors > 0 && (int64_t)actors * 40 <= r.metrics.floor_cells, "%dx%d seed %d: %d actors, %d passable",
               (int)w, (int)h, (int)seed, (int)actors, (int)r.metrics.floor_cells);
    }
    CHECKF(pairs > 0 && twins * 10 <= pairs, "%dx%d: %lld twins of %lld pairs", (int)w, (int)h,
           (long long)twins, (long long)pairs);
    dg_result_free(&r);
    free(cells);
}

TEST(jigsaw_variety_and_actors_at_defaults)
{
    dg_prefab_set *set = load_example("forest.txt");
    if (!set)
        return;
    jigsaw_variety(set, 80, 25, 100);
    jigsaw_variety(set, 80, 50, 50);
    jigsaw_variety(set, 200, 200, 4);
    dg_prefab_jigsaw_params p;
    dg_prefab_jigsaw_defaults(&p);
    CHECK(p.actor_cells == 40);
    p.actor_cells = -1;
    uint8_t cells[21 * 15];
    dg_grid g;
    dg_grid_init(&g, cells, 21, 15, 0);
    CHECK(dg_prefab_jigsaw_generate(&g, set, &p, 1, NULL, NULL, NULL) == DG_E_INVALID);
    dg_prefab_set_free(set);
}

/* A prefab that fills the grid with open edges: the border walls its ring,
 * the door on the ring goes from tiles and result, the marker there too. */
TEST(full_border_closes_an_open_prefab)
{
    dg_prefab_set *set = parse_text("prefabs 1\nlegend\n $ marker loot kind item\nend\n"
                                    "prefab yard\n mode full\n orient none\nmap\n"
                                    "..+..\n.....\n$....\n.....\n.....\nend\n");
    if (!set)
        return;
    uint8_t cells[5 * 5];
    dg_grid g;
    dg_grid_init(&g, cells, 5, 5, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_prefab_full_generate(&g, set, NULL, 1, &r, NULL, NULL) == DG_OK);
    check_contract(&g, &r, "yard", 1);
    CHECK(r.door_count == 0 && r.marker_count == 0);
    CHECK(dg_grid_get(&g, 2, 0) == DG_TILE_WALL && dg_grid_get(&g, 2, 2) == DG_TILE_FLOOR);
    dg_prefab_full_params p;
    dg_prefab_full_defaults(&p);
    CHECK(p.border == 1);
    p.border = 0;
    CHECK(dg_prefab_full_generate(&g, set, &p, 1, &r, NULL, NULL) == DG_OK);
    CHECK(dg_grid_get(&g, 2, 0) == DG_TILE_DOOR && r.door_count == 1 && r.marker_count == 1);
    p.border = 2;
    CHECK(dg_prefab_full_generate(&g, set, &p, 1, &r, NULL, NULL) == DG_E_INVALID);
    dg_result_free(&r);
    dg_prefab_set_free(set);
}
