/* The quality contract (docs/quality.md), checked with dg_survey_map, the
 * measurement `dungeon --survey` prints: every registered generator at its
 * defaults, over 500 seeds at 80x25, 80x50, 200x200 and its smallest size,
 * makes maps with a closed border, every passable cell reachable from the
 * start, start and exit in rooms and apart, the exit among the farthest
 * tenth, no doorless joins and no doors leading nowhere. DG_QUALITY_SEEDS
 * (environment) changes the seed count for a quicker local run. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define QUALITY_SEEDS 500

static int32_t seed_count(void)
{
    const char *env = getenv("DG_QUALITY_SEEDS");
    long n = env ? strtol(env, NULL, 10) : QUALITY_SEEDS;
    return n > 0 && n <= 100000 ? (int32_t)n : QUALITY_SEEDS;
}

static dg_prefab_set *load_set(const char *name)
{
    char path[256];
    dg_prefab_set *set = NULL;
    if (!name)
        return NULL;
    snprintf(path, sizeof path, "examples/prefabs/%s", name);
    CHECKF(dg_prefab_load(path, NULL, NULL, NULL, &set, NULL) == DG_OK, "cannot load %s", path);
    return set;
}

/* The contract's checks on one map; returns the number of broken promises. */
static int judge(const char *gen, int32_t w, int32_t h, uint64_t seed, const dg_quality *q,
                 int parallel_matters)
{
    int before = test_failures();
    CHECKF(q->border_open == 0, "%s %dx%d seed %llu: %d open border cells", gen, (int)w, (int)h,
           (unsigned long long)seed, (int)q->border_open);
    CHECKF(q->unreachable == 0, "%s %dx%d seed %llu: %d unreachable cells", gen, (int)w, (int)h,
           (unsigned long long)seed, (int)q->unreachable);
    CHECKF(q->doorless_joins == 0, "%s %dx%d seed %llu: %d doorless joins", gen, (int)w, (int)h,
           (unsigned long long)seed, (int)q->doorless_joins);
    CHECKF(q->dead_doors == 0, "%s %dx%d seed %llu: %d doors to nowhere", gen, (int)w, (int)h,
           (unsigned long long)seed, (int)q->dead_doors);
    CHECKF(q->start_in_room && q->exit_in_room && !q->start_is_exit,
           "%s %dx%d seed %llu: start in room %d, exit in room %d, start is exit %d", gen, (int)w,
           (int)h, (unsigned long long)seed, (int)q->start_in_room, (int)q->exit_in_room,
           (int)q->start_is_exit);
    CHECKF(q->exit_rank_permille <= 100, "%s %dx%d seed %llu: %d per mille of cells beyond the exit",
           gen, (int)w, (int)h, (unsigned long long)seed, (int)q->exit_rank_permille);
    if (parallel_matters)
        CHECKF(q->parallel_cells == 0, "%s %dx%d seed %llu: %d parallel corridor cells", gen, (int)w,
               (int)h, (unsigned long long)seed, (int)q->parallel_cells);
    return test_failures() - before;
}

/* seeds maps of gen at w x h, each judged; stops at the third bad map. */
static void contract(const char *gen, const char *prefabs, int32_t w, int32_t h, int parallel)
{
    dg_prefab_set *set = load_set(prefabs);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_grid grid;
    CHECK(cells && dg_grid_init(&grid, cells, w, h, 0) == DG_OK);
    int bad = 0;
    for (int32_t i = 0; cells && i < seed_count() && bad < 3; i++)
    {
        uint64_t seed = 1 + (uint64_t)i;
        dg_recipe rc;
        dg_result r;
        dg_quality q;
        dg_diag d = {0, 0, 0, ""};
        dg_result_init(&r, NULL);
        CHECK(dg_recipe_init(&rc, gen, seed, w, h) == DG_OK);
        dg_status st = dg_recipe_generate(&rc, &grid, set, &r, NULL, &d);
        CHECKF(st == DG_OK, "%s %dx%d seed %llu: %s: %s", gen, (int)w, (int)h,
               (unsigned long long)seed, dg_status_str(st), d.message);
        if (st == DG_OK)
        {
            CHECK(dg_survey_map(&grid, &r, &q, NULL, NULL) == DG_OK);
            bad += judge(gen, w, h, seed, &q, parallel) > 0;
        }
        else
            bad++;
        dg_result_free(&r);
    }
    free(cells);
    dg_prefab_set_free(set);
}

#define QUALITY(name, gen, prefabs, w, h, parallel) \
    TEST(quality_##name##_##w##x##h) { contract(gen, prefabs, w, h, parallel); }

QUALITY(attach, "attach", NULL, 80, 25, 1)
QUALITY(attach, "attach", NULL, 80, 50, 1)
QUALITY(attach, "attach", NULL, 200, 200, 1)
QUALITY(attach, "attach", NULL, 9, 9, 1)
QUALITY(attach, "attach", NULL, 5, 5, 1) /* the smallest */

QUALITY(chain, "chain", NULL, 80, 25, 0)
QUALITY(chain, "chain", NULL, 80, 50, 0)
QUALITY(chain, "chain", NULL, 200, 200, 0)
QUALITY(chain, "chain", NULL, 15, 5, 0) /* the smallest, wide */
QUALITY(chain, "chain", NULL, 6, 13, 0) /* and tall */

QUALITY(world, "world", NULL, 80, 25, 0)
QUALITY(world, "world", NULL, 80, 50, 0)
QUALITY(world, "world", NULL, 200, 200, 0)
QUALITY(world, "world", NULL, 13, 13, 0) /* the smallest */
QUALITY(world_furnished, "world", "furnish.txt", 80, 50, 0)

QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 80, 25, 0)
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 80, 50, 0)
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 200, 200, 0)
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 7, 5, 0) /* the smallest */

QUALITY(prefab_islands, "prefab-islands", "factory.txt", 80, 25, 0)
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 80, 50, 0)
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 200, 200, 0)
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 22, 22, 0) /* the smallest */

QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 80, 25, 0)
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 80, 50, 0)
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 200, 200, 0)
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 5, 5, 0) /* the smallest */

QUALITY(prefab_full, "prefab-full", "shaft.txt", 80, 25, 0)
QUALITY(prefab_full, "prefab-full", "shaft.txt", 80, 50, 0)
QUALITY(prefab_full, "prefab-full", "shaft.txt", 200, 200, 0)
QUALITY(prefab_full, "prefab-full", "shaft.txt", 48, 20, 0) /* the smallest */

QUALITY(cave, "cave", NULL, 80, 25, 0)
QUALITY(cave, "cave", NULL, 80, 50, 0)
QUALITY(cave, "cave", NULL, 200, 200, 0)

QUALITY(bsp, "bsp", NULL, 80, 25, 0)
QUALITY(bsp, "bsp", NULL, 80, 50, 0)
QUALITY(bsp, "bsp", NULL, 200, 200, 0)

QUALITY(maze, "maze", NULL, 80, 25, 0)
QUALITY(maze, "maze", NULL, 80, 50, 0)
QUALITY(maze, "maze", NULL, 200, 200, 0)

QUALITY(walk, "walk", NULL, 80, 25, 0)
QUALITY(walk, "walk", NULL, 80, 50, 0)
QUALITY(walk, "walk", NULL, 200, 200, 0)

QUALITY(scatter, "scatter", NULL, 80, 25, 0)
QUALITY(scatter, "scatter", NULL, 80, 50, 0)
QUALITY(scatter, "scatter", NULL, 200, 200, 0)

/* prefab-mixed on every base generator: the vaults keep the base's contract. */
TEST(quality_prefab_mixed_on_every_base)
{
    static const char *const bases[] = {"attach", "chain", "cave", "bsp", "maze", "walk", "scatter"};
    dg_prefab_set *set = load_set("vaults.txt");
    static uint8_t cells[80 * 50];
    dg_grid grid;
    CHECK(dg_grid_init(&grid, cells, 80, 50, 0) == DG_OK);
    for (int b = 0; set && b < (int)(sizeof bases / sizeof bases[0]); b++)
    {
        int32_t placed = 0, bad = 0;
        for (uint64_t seed = 1; seed <= 100 && bad < 3; seed++)
        {
            dg_recipe rc;
            dg_result r;
            dg_quality q;
            dg_diag d = {0, 0, 0, ""};
            dg_result_init(&r, NULL);
            CHECK(dg_recipe_init(&rc, "prefab-mixed", seed, 80, 50) == DG_OK);
            CHECK(dg_recipe_set(&rc, "base", bases[b], NULL) == DG_OK);
            dg_status st = dg_recipe_generate(&rc, &grid, set, &r, NULL, &d);
            CHECKF(st == DG_OK, "base %s seed %llu: %s", bases[b], (unsigned long long)seed, d.message);
            if (st == DG_OK)
            {
                CHECK(dg_survey_map(&grid, &r, &q, NULL, NULL) == DG_OK);
                bad += judge(bases[b], 80, 50, seed, &q, 0) > 0;
                placed += r.metrics.placed;
            }
            dg_result_free(&r);
        }
        CHECKF(placed > 0, "base %s: no vault placed on 100 maps", bases[b]);
    }
    dg_prefab_set_free(set);
}

/* The survey itself: figures on hand-made maps whose answers are known. */
static void fill_map(dg_grid *g, uint8_t *cells, const char *rows[], int32_t h)
{
    int32_t w = (int32_t)strlen(rows[0]);
    dg_grid_init(g, cells, w, h, 0);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
        {
            char c = rows[y][x];
            cells[y * w + x] = c == '.' ? DG_TILE_FLOOR : c == ',' ? DG_TILE_CORRIDOR
                             : c == '+' ? DG_TILE_DOOR : c == '#' ? DG_TILE_WALL : DG_TILE_VOID;
        }
}

TEST(quality_survey_known_map)
{
    static const char *rows[] = {
        "############",
        "#...#,,,,,,#",
        "#...+,####,#",
        "#...#,####,#",
        "#####,,,,,,.",
        "+####,######",
        "############",
    };
    uint8_t cells[12 * 7];
    dg_grid g;
    fill_map(&g, cells, rows, 7);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_room room = {{1, 1, 3, 3}, DG_ROOM_NORMAL, -1, 0, -1, 9, DG_SHAPE_RECT};
    r.rooms = &room;
    r.room_count = 1;
    r.start.x = 2, r.start.y = 2;
    r.exit.x = 11, r.exit.y = 4;
    dg_quality q;
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.border_open == 2);   /* the floor at (11,4) and the door at (0,5) */
    CHECK(q.dead_doors == 1);    /* the door on the ring */
    CHECK(q.doors == 2);
    CHECK(q.doorless_joins == 0);
    CHECK(q.parallel_cells == 8); /* rows 1 and 4 behind two walls, x 6..9 */
    CHECK(q.unreachable == 1);   /* the ring door */
    CHECK(q.regions == 2);
    CHECK(q.start_in_room == 1 && q.exit_in_room == 0 && q.start_is_exit == 0);
    CHECK(q.route == 11);
    CHECK(q.exit_rank_permille == 0);
    CHECK(q.loops == 1);
    r.rooms = NULL;
    r.room_count = 0;
    dg_result_free(&r);
}

TEST(quality_survey_doorless_join_and_bad_input)
{
    static const char *rows[] = {
        "#######",
        "#...,,#",
        "#...#.#",
        "#######",
    };
    uint8_t cells[7 * 4];
    dg_grid g;
    fill_map(&g, cells, rows, 4);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_room room = {{1, 1, 3, 2}, DG_ROOM_NORMAL, -1, 0, -1, 6, DG_SHAPE_RECT};
    r.rooms = &room;
    r.room_count = 1;
    r.start.x = 1, r.start.y = 1;
    r.exit.x = 5, r.exit.y = 2;
    dg_quality q, before;
    memset(&before, 0x5A, sizeof before);
    q = before;
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.doorless_joins == 1); /* (4,1) touches the room's (3,1) */
    CHECK(q.route == 5 && q.exit_in_room == 0);
    q = before;
    CHECK(dg_survey_map(NULL, &r, &q, NULL, NULL) == DG_E_NULL);
    CHECK(memcmp(&q, &before, sizeof q) == 0);
    CHECK(dg_survey_map(&g, &r, NULL, NULL, NULL) == DG_E_NULL);
    /* without a result: no start, so every passable cell counts as unreachable */
    CHECK(dg_survey_map(&g, NULL, &q, NULL, NULL) == DG_OK);
    CHECK(q.unreachable == 9 && q.route == -1 && q.start_in_room == 0);
    r.rooms = NULL;
    r.room_count = 0;
    dg_result_free(&r);
}
