/* The quality contract (docs/quality.md), checked with dg_survey_map, the
 * measurement `dungeon --survey` prints: every registered generator at its
 * defaults, over 500 seeds at 80x25, 80x50, 200x200 and its smallest size,
 * makes maps with a closed border (no open cell on the outer ring or beside
 * void), every passable cell reachable from the
 * start, start and exit in rooms and apart, the exit among the farthest
 * tenth, no doorless joins and no doors leading nowhere. DG_QUALITY_SEEDS
 * (environment) changes the seed count for a quicker local run. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SURVEY_CONTRACT_ONLY
#include "../examples/survey.h" /* the contract lines, shared with dungeon --survey */

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
    CHECKF(q->void_open == 0, "%s %dx%d seed %llu: %d open cells beside void", gen, (int)w, (int)h,
           (unsigned long long)seed, (int)q->void_open);
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

/* The contract lines of issue 29 (survey_lines) one run keeps: a bit per
 * SURVEY_LINE_*. A line is enabled here for a generator once its maps keep it. */
#define LINE(n) (1u << SURVEY_LINE_##n)

/* The figures of the maps measured so far, a row per contract line. */
typedef struct figures {
    int64_t *values;
    int64_t count, cap;
} figures;

static void figures_add(figures *f, const dg_quality *q)
{
    for (size_t i = 0; i < SURVEY_LINES; i++)
    {
        int32_t v;
        memcpy(&v, (const char *)q + survey_lines[i].offset, sizeof v);
        f->values[i * (size_t)f->cap + (size_t)f->count] = v;
    }
    f->count++;
}

/* With DG_QUALITY_PRINT set, prints every line that applies and whether
 * the maps keep it (how a row's mask is chosen). */
static void print_lines(const char *gen, int32_t w, int32_t h, int32_t locks, figures *f)
{
    printf("lines %s %dx%d locks %d:", gen, (int)w, (int)h, (int)locks);
    for (size_t i = 0; i < SURVEY_LINES && f->count > 0; i++)
    {
        const survey_line *l = &survey_lines[i];
        int64_t *v = f->values + i * (size_t)f->cap, measured = 0;
        if (!survey_applies(l, gen, locks))
            continue;
        qsort(v, (size_t)f->count, sizeof *v, survey_cmp);
        printf(" %s=%s", l->name, survey_judge(l, v, f->count, locks, &measured) ? "ok" : "FAIL");
    }
    printf("\n");
}

/* Judges the enabled lines on the figures of the maps made. */
static void judge_lines(const char *gen, int32_t w, int32_t h, int32_t locks, unsigned lines,
                        figures *f)
{
    if (getenv("DG_QUALITY_PRINT"))
        print_lines(gen, w, h, locks, f);
    for (size_t i = 0; i < SURVEY_LINES && f->count > 0; i++)
    {
        const survey_line *l = &survey_lines[i];
        int64_t *v = f->values + i * (size_t)f->cap, measured = 0;
        if (!(lines & (1u << i)))
            continue;
        CHECKF(survey_applies(l, gen, locks), "%s: the line '%s' does not apply to it", gen, l->name);
        qsort(v, (size_t)f->count, sizeof *v, survey_cmp);
        CHECKF(survey_judge(l, v, f->count, locks, &measured), "%s %dx%d: %s: %s %s %lld, measured %lld",
               gen, (int)w, (int)h, l->name, l->figure, survey_rule_text(l->rule),
               (long long)l->threshold, (long long)measured);
    }
}

/* seeds maps of gen at w x h (with locks locks), each judged, then the
 * enabled contract lines over all of them; stops at the third bad map. */
static void contract_run(const char *gen, const char *prefabs, int32_t w, int32_t h, int parallel,
                         int32_t locks, unsigned lines)
{
    dg_prefab_set *set = load_set(prefabs);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    figures f = {NULL, 0, seed_count()};
    f.values = malloc(sizeof *f.values * SURVEY_LINES * (size_t)f.cap);
    dg_grid grid;
    CHECK(cells && f.values && dg_grid_init(&grid, cells, w, h, 0) == DG_OK);
    int bad = 0;
    char text[16];
    snprintf(text, sizeof text, "%d", (int)locks);
    for (int32_t i = 0; cells && f.values && i < f.cap && bad < 3; i++)
    {
        uint64_t seed = 1 + (uint64_t)i;
        dg_recipe rc;
        dg_result r;
        dg_quality q;
        dg_diag d = {0, 0, 0, ""};
        dg_result_init(&r, NULL);
        CHECK(dg_recipe_init(&rc, gen, seed, w, h) == DG_OK);
        CHECK(!locks || dg_recipe_set(&rc, "locks", text, NULL) == DG_OK);
        dg_status st = dg_recipe_generate(&rc, &grid, set, &r, NULL, &d);
        CHECKF(st == DG_OK, "%s %dx%d seed %llu: %s: %s", gen, (int)w, (int)h,
               (unsigned long long)seed, dg_status_str(st), d.message);
        if (st == DG_OK)
        {
            CHECK(dg_survey_map(&grid, &r, &q, NULL, NULL) == DG_OK);
            bad += judge(gen, w, h, seed, &q, parallel) > 0;
            figures_add(&f, &q);
        }
        else
            bad++;
        dg_result_free(&r);
    }
    judge_lines(gen, w, h, locks, lines, &f);
    free(f.values);
    free(cells);
    dg_prefab_set_free(set);
}

static void contract(const char *gen, const char *prefabs, int32_t w, int32_t h, int parallel,
                     unsigned lines)
{
    contract_run(gen, prefabs, w, h, parallel, 0, lines);
}

#define QUALITY(name, gen, prefabs, w, h, parallel, lines) \
    TEST(quality_##name##_##w##x##h) { contract(gen, prefabs, w, h, parallel, lines); }

/* The lines of issue 29's contract each generator keeps today, measured at
 * 80x25, 80x50 and 200x200 (the issue's sizes; the smallest sizes keep only
 * the 0.4 contract): enable a line in a row once that row's maps keep it. */
QUALITY(attach, "attach", NULL, 80, 25, 1,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))
QUALITY(attach, "attach", NULL, 80, 50, 1,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))
QUALITY(attach, "attach", NULL, 200, 200, 1,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))
QUALITY(attach, "attach", NULL, 9, 9, 1, 0)
QUALITY(attach, "attach", NULL, 5, 5, 1, 0) /* the smallest */

QUALITY(chain, "chain", NULL, 80, 25, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(chain, "chain", NULL, 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(chain, "chain", NULL, 200, 200, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(chain, "chain", NULL, 15, 5, 0, 0) /* the smallest, wide */
QUALITY(chain, "chain", NULL, 6, 13, 0, 0) /* and tall */

QUALITY(world, "world", NULL, 80, 25, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(world, "world", NULL, 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(world, "world", NULL, 200, 200, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(world, "world", NULL, 13, 13, 0, 0) /* the smallest */
QUALITY(world_furnished, "world", "furnish.txt", 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))

QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 80, 25, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 80, 50, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 200, 200, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_jigsaw, "prefab-jigsaw", "forest.txt", 7, 5, 0, 0) /* the smallest */

QUALITY(prefab_islands, "prefab-islands", "factory.txt", 80, 25, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 80, 50, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 200, 200, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_islands, "prefab-islands", "factory.txt", 22, 22, 0, 0) /* the smallest */

QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 80, 25, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 200, 200, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(prefab_mixed, "prefab-mixed", "vaults.txt", 5, 5, 0, 0) /* the smallest */

QUALITY(prefab_full, "prefab-full", "shaft.txt", 56, 26, 0,
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_full, "prefab-full", "shaft.txt", 64, 30, 0,
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(prefab_full, "prefab-full", "shaft.txt", 48, 20, 0, 0) /* the smallest */

QUALITY(cave, "cave", NULL, 80, 25, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(cave, "cave", NULL, 80, 50, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(cave, "cave", NULL, 200, 200, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))

QUALITY(bsp, "bsp", NULL, 80, 25, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(bsp, "bsp", NULL, 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))
QUALITY(bsp, "bsp", NULL, 200, 200, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(START_EXIT))

QUALITY(maze, "maze", NULL, 80, 25, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(maze, "maze", NULL, 80, 50, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(maze, "maze", NULL, 200, 200, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))

QUALITY(walk, "walk", NULL, 80, 25, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(walk, "walk", NULL, 80, 50, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))
QUALITY(walk, "walk", NULL, 200, 200, 0,
        LINE(SPACE_P95) | LINE(SPACE_WORST) | LINE(STRAIGHT) | LINE(PARALLEL) |
        LINE(DEAD_END_PASSAGES) | LINE(START_EXIT))

QUALITY(scatter, "scatter", NULL, 80, 25, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))
QUALITY(scatter, "scatter", NULL, 80, 50, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))
QUALITY(scatter, "scatter", NULL, 200, 200, 0,
        LINE(LOOPS) | LINE(DEAD_END_ROOMS) | LINE(SPACE_P95) | LINE(SPACE_WORST) |
        LINE(STRAIGHT) | LINE(PARALLEL) | LINE(CORRIDOR_PER_ROOM) | LINE(DEAD_END_PASSAGES) |
        LINE(SHAPES) | LINE(START_EXIT))

/* The key and lock lines: --locks 3 at 80x50. A generator whose mask is 0
 * makes no maps here (the lines are not enabled for it yet). */
#define LOCK_LINES (LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) | LINE(KEY_FROM_LOCK))
#define QUALITY_LOCKS(name, gen, prefabs, lines) \
    TEST(quality_locks_##name)                                                 \
    {                                                                          \
        if (lines || getenv("DG_QUALITY_PRINT"))                               \
            contract_run(gen, prefabs, 80, 50, 0, 3, lines);                   \
    }

QUALITY_LOCKS(attach, "attach", NULL,
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(chain, "chain", NULL,
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(world, "world", NULL,
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(prefab_jigsaw, "prefab-jigsaw", "forest.txt",
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(prefab_islands, "prefab-islands", "factory.txt",
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(prefab_mixed, "prefab-mixed", "vaults.txt",
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(prefab_full, "prefab-full", "shaft.txt", 0u)
QUALITY_LOCKS(cave, "cave", NULL, LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) | LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(bsp, "bsp", NULL, LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) | LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(maze, "maze", NULL, LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) | LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(walk, "walk", NULL, LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) | LINE(KEY_FROM_LOCK))
QUALITY_LOCKS(scatter, "scatter", NULL,
              LINE(LOCKS_PLACED) | LINE(KEY_FROM_START) |
              LINE(KEY_FROM_LOCK))

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
        "##### ######",
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
    CHECK(q.void_open == 1);     /* the corridor at (5,5): void below it at (5,6) */
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

/* The layout figures on a hand-made tree: two rooms, each with one door, a
 * corridor from the first door round to the second and on to a dead end. */
TEST(quality_survey_layout_figures)
{
    static const char *rows[] = {
        "##############",
        "#....#########",
        "#....+,,,,,,,#",
        "#....#######,#",
        "######.....#,#",
        "######.....+,#",
        "######.....#,#",
        "############,#",
        "#,,,,,,,,,,,,#",
        "##############",
    };
    uint8_t cells[14 * 10];
    dg_grid g;
    fill_map(&g, cells, rows, 10);
    dg_room rooms[2] = {{{1, 1, 4, 3}, DG_ROOM_NORMAL, -1, 0, -1, 12, DG_SHAPE_RECT},
                        {{6, 4, 5, 3}, DG_ROOM_NORMAL, -1, 0, -1, 15, DG_SHAPE_RECT}};
    dg_marker markers[4] = {{{1, 8}, DG_MARKER_KEY, -1, "key 1", 1, 0, 0, {0}},
                            {{11, 5}, DG_MARKER_LOCK, -1, "lock 1", 1, 0, 0, {0}},
                            {{3, 3}, DG_MARKER_KEY, 0, "key 2", 2, 0, 0, {0}},
                            {{5, 2}, DG_MARKER_LOCK, -1, "lock 2", 2, 0, 0, {0}}};
    dg_result r;
    dg_result_init(&r, NULL);
    r.rooms = rooms;
    r.room_count = 2;
    r.start.x = 2, r.start.y = 2;
    r.exit.x = 8, r.exit.y = 5;
    dg_quality q;
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.loops == 0 && q.loops_per_room_permille == 0);
    CHECK(q.single_entrance_permille == 1000); /* one door each */
    CHECK(q.shaped_room_permille == 0);
    CHECK(q.empty_square_permille == 4 * 4 * 1000 / 140); /* x 0..3, y 4..7 */
    CHECK(q.straight_max == 11);                          /* row 8, x 1..11 */
    CHECK(q.parallel_permille == 12 * 1000 / 23); /* rows 2 and 8 along room two, of 23 one-wide */
    CHECK(q.corridor_per_room_permille == 26 * 1000 / 2); /* 24 corridor cells, 2 doors */
    CHECK(q.dead_end_max == 14); /* (1,8) round the corner to the junction at (12,5) */
    CHECK(q.route == 17 && q.diameter == 29 && q.route_diameter_permille == 17 * 1000 / 29);
    CHECK(q.locks_placed == 0 && q.key_start_min == -1 && q.key_lock_min == -1);
    r.markers = markers;
    r.marker_count = 4;
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.locks_placed == 2);
    CHECK(q.key_start_min == 2); /* key 2, beside the start */
    CHECK(q.key_lock_min == 3);  /* key 2 to the door of lock 2 */
    markers[2].pos.x = 7;        /* key 2 moves off the floor: it no longer counts */
    markers[2].pos.y = 3;
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.key_start_min == 27 && q.key_lock_min == 15);
    cells[1 * 14 + 2] = DG_TILE_OBSTACLE; /* a pillar makes room one shaped */
    cells[5 * 14 + 5] = DG_TILE_DOOR;     /* and room two gets a second door (to nowhere) */
    CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
    CHECK(q.shaped_room_permille == 500 && q.single_entrance_permille == 500);
    r.rooms = NULL;
    r.room_count = 0;
    r.markers = NULL;
    r.marker_count = 0;
    dg_result_free(&r);
}

/* The contract table's rules, as dungeon --survey and the tests apply them. */
TEST(quality_contract_rules)
{
    int64_t v[20], measured = 0;
    for (int i = 0; i < 20; i++)
        v[i] = i < 2 ? -1 : i; /* two maps without a key, then 2..19 */
    const survey_line *key = &survey_lines[SURVEY_LINE_KEY_FROM_START];
    CHECK(survey_judge(key, v, 20, 3, &measured) == 0 && measured == 2); /* p5 of 2..19 */
    v[2] = 8;
    CHECK(survey_judge(key, v + 2, 18, 3, &measured) == 1 && measured == 8);
    const survey_line *locks = &survey_lines[SURVEY_LINE_LOCKS_PLACED];
    int64_t placed[4] = {2, 3, 3, 3}; /* 11 of 12 asked: 916 per mille */
    CHECK(survey_judge(locks, placed, 4, 3, &measured) == 1 && measured == 916);
    placed[1] = 2;
    CHECK(survey_judge(locks, placed, 4, 3, &measured) == 0 && measured == 833);
    const survey_line *loops = &survey_lines[SURVEY_LINE_LOOPS];
    int64_t per_room[3] = {100, 150, 900};
    CHECK(survey_judge(loops, per_room, 3, 0, &measured) == 1 && measured == 150);
    CHECK(survey_applies(loops, "attach", 0) && !survey_applies(loops, "cave", 0));
    CHECK(!survey_applies(loops, "attac", 0) && !survey_applies(loops, "", 0));
    CHECK(!survey_applies(&survey_lines[SURVEY_LINE_SPACE_P95], "prefab-full", 0));
    CHECK(survey_applies(&survey_lines[SURVEY_LINE_SPACE_P95], "maze", 0));
    CHECK(!survey_applies(key, "maze", 0) && survey_applies(key, "maze", 3));
}
