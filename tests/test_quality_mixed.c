/* prefab-mixed and the quality contract: as many vaults as asked whenever
 * space exists (else a clear count), vaults that keep doors leading somewhere,
 * add no dead end and no corner-only wall joint, leave the start free, and an
 * exit among the farthest tenth on a host room's floor. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static dg_prefab_set *vaults(void)
{
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/vaults.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    return set;
}

static dg_prefab_set *parse_text(const char *text)
{
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_parse(text, strlen(text), "mixed.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    return set;
}

static int solid(const dg_grid *g, int32_t x, int32_t y)
{
    return !dg_tile_passable(dg_grid_get(g, x, y));
}

/* 1 if cell (x, y) lies in one of the vaults (rooms from index host on). */
static int in_vault(const dg_result *r, int32_t host, int32_t x, int32_t y)
{
    for (int32_t i = host; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        if (x >= q.x && y >= q.y && x < q.x + q.w && y < q.y + q.h)
            return 1;
    }
    return 0;
}

/* 2x2 windows with solid cells on one diagonal only, one cell changed by the
 * vaults (before -> after) and one not: a vault's wall touching the host's at
 * a corner only. */
static int32_t corner_joints(const dg_grid *g, const uint8_t *before)
{
    int32_t n = 0, w = g->width;
    for (int32_t y = 0; y + 1 < g->height; y++)
        for (int32_t x = 0; x + 1 < w; x++)
        {
            int a = solid(g, x, y), b = solid(g, x + 1, y), c = solid(g, x, y + 1), d = solid(g, x + 1, y + 1);
            int32_t p = -1, q = -1;
            if (a && d && !b && !c)
                p = y * w + x, q = (y + 1) * w + x + 1;
            else if (b && c && !a && !d)
                p = y * w + x + 1, q = (y + 1) * w + x;
            if (p >= 0 && (before[p] != g->cells[p]) != (before[q] != g->cells[q]))
                n++;
        }
    return n;
}

/* Walkable cells outside every vault with at most one walkable neighbour
 * that had more before the vaults. */
static int32_t new_dead_ends(const dg_grid *g, const uint8_t *before, const dg_result *r, int32_t host)
{
    dg_grid old;
    dg_grid_init(&old, (uint8_t *)before, g->width, g->height, 0);
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (solid(g, x, y) || in_vault(r, host, x, y))
                continue;
            int now = !solid(g, x - 1, y) + !solid(g, x + 1, y) + !solid(g, x, y - 1) + !solid(g, x, y + 1);
            int then = !solid(&old, x - 1, y) + !solid(&old, x + 1, y) + !solid(&old, x, y - 1) +
                       !solid(&old, x, y + 1);
            n += now <= 1 && then > 1;
        }
    return n;
}

/* The vaults asked for a host map: count, or one per 2,000 passable cells. */
static int32_t vaults_wanted(const dg_grid *g, int32_t count)
{
    int32_t open = 0;
    for (int32_t i = 0; i < g->width * g->height; i++)
        open += dg_tile_passable(g->cells[i]);
    return open / 2000 > count ? open / 2000 : count;
}

/* A map of prefab-mixed with count vaults (each prefab at most once if
 * unique): the attach host first (its grid kept in before), then the vaults,
 * checked against the contract and the vault rules. Returns the vaults
 * placed, *want the vaults asked for. */
static int32_t mixed_map(dg_grid *g, uint8_t *before, const dg_prefab_set *set, int32_t count,
                         int32_t unique, uint64_t seed, dg_result *r, int32_t *want)
{
    dg_attach_params a;
    dg_attach_defaults(&a);
    CHECK(dg_attach_generate(g, &a, seed, r, NULL, NULL) == DG_OK);
    memcpy(before, g->cells, (size_t)g->width * (size_t)g->height);
    int32_t host = r->room_count;
    dg_point start = r->start;
    dg_prefab_mixed_params p;
    dg_prefab_mixed_defaults(&p);
    p.count = count;
    p.unique = unique;
    *want = vaults_wanted(g, count);
    CHECK(dg_prefab_mixed_generate(g, set, &p, seed, r, NULL, NULL) == DG_OK);
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 && q.dead_doors == 0,
           "seed %d: border %d unreachable %d doorless %d dead doors %d", (int)seed, (int)q.border_open,
           (int)q.unreachable, (int)q.doorless_joins, (int)q.dead_doors);
    CHECKF(q.start_in_room && q.exit_in_room && !q.start_is_exit && q.exit_rank_permille <= 100,
           "seed %d: start/exit in room %d %d, same %d, rank %d", (int)seed, (int)q.start_in_room,
           (int)q.exit_in_room, (int)q.start_is_exit, (int)q.exit_rank_permille);
    CHECKF(corner_joints(g, before) == 0, "seed %d: corner-only wall joints", (int)seed);
    CHECKF(new_dead_ends(g, before, r, host) == 0, "seed %d: new dead ends", (int)seed);
    CHECKF(r->start.x == start.x && r->start.y == start.y, "seed %d: start %d,%d was %d,%d", (int)seed, (int)r->start.x, (int)r->start.y, (int)start.x, (int)start.y); /* vaults leave the start free */
    CHECK(r->exit_room >= 0 && r->exit_room < host && dg_grid_get(g, r->exit.x, r->exit.y) == DG_TILE_FLOOR);
    CHECK(r->metrics.requested == *want && r->metrics.stopped_early == (r->metrics.placed < *want));
    return r->metrics.placed;
}

static void many_maps(int32_t w, int32_t h, int32_t count, int32_t seeds, int32_t want_all)
{
    dg_prefab_set *set = vaults();
    uint8_t *cells = malloc((size_t)w * h), *before = malloc((size_t)w * h);
    dg_grid g;
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(set && cells && before && dg_grid_init(&g, cells, w, h, 0) == DG_OK);
    int32_t short_maps = 0, want = 0;
    for (int32_t s = 1; set && cells && before && s <= seeds && test_failures() == 0; s++)
        short_maps += mixed_map(&g, before, set, count, 0, (uint64_t)s, &r, &want) < want;
    if (want_all)
        CHECKF(short_maps == 0, "%dx%d count %d: %d maps short", (int)w, (int)h, (int)count, (int)short_maps);
    dg_result_free(&r);
    free(cells);
    free(before);
    dg_prefab_set_free(set);
}

/* The six vaults users asked for at 80x50 land on every map. */
TEST(quality_mixed_six_vaults_80x50) { many_maps(80, 50, 6, 300, 1); }
TEST(quality_mixed_three_vaults_80x25) { many_maps(80, 25, 3, 300, 1); }
/* At 200x200 the count grows with the map: a vault per 2,000 passable cells
 * (the set's prefabs repeat once each was placed), on every map. */
TEST(quality_mixed_three_vaults_200x200) { many_maps(200, 200, 3, 40, 1); }
/* The smallest map attach makes: vaults where they fit, the contract always. */
TEST(quality_mixed_smallest_5x5) { many_maps(5, 5, 3, 500, 0); }
TEST(quality_mixed_crowded_9x9) { many_maps(9, 9, 9, 500, 0); }

/* More vaults than the set has prefabs, each at most once (unique): all of
 * them, then a clear count: requested, placed, stopped_early. */
TEST(quality_mixed_count_beyond_the_set)
{
    dg_prefab_set *set = vaults();
    int32_t prefabs = set ? dg_prefab_count(set) : 0;
    uint8_t *cells = malloc(200 * 200), *before = malloc(200 * 200);
    dg_grid g;
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(set && cells && before && dg_grid_init(&g, cells, 200, 200, 0) == DG_OK);
    for (uint64_t s = 1; set && cells && before && s <= 10; s++)
    {
        int32_t want;
        CHECK(mixed_map(&g, before, set, prefabs + 5, 1, s, &r, &want) == prefabs);
        CHECK(r.metrics.requested == prefabs + 5 && r.metrics.stopped_early == 1);
    }
    dg_result_free(&r);
    free(cells);
    free(before);
    dg_prefab_set_free(set);
}

/* One position in the whole map holds the vault: found with a single random
 * draw allowed, as every position is tried once the draws fail. */
TEST(quality_mixed_finds_the_only_position)
{
    static const char text[] = "prefabs 1\nprefab box\n  mode island\nmap\n###\n#.#\n#+#\nend\n";
    dg_prefab_set *set = parse_text(text);
    static uint8_t cells[30 * 12];
    dg_grid g;
    dg_grid_init(&g, cells, 30, 12, 0);
    for (uint64_t seed = 0; set && seed < 40; seed++)
    {
        dg_grid_fill(&g, DG_TILE_WALL);
        dg_grid_fill_rect(&g, (dg_rect){1, 1, 28, 3}, DG_TILE_FLOOR); /* too low for the box and its door */
        dg_grid_fill_rect(&g, (dg_rect){20, 4, 5, 5}, DG_TILE_FLOOR); /* the one place it fits */
        dg_prefab_mixed_params p;
        dg_prefab_mixed_defaults(&p);
        p.count = 1;
        p.positions = 1;
        p.in_rooms = 0;
        p.count = 1;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_prefab_mixed_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECKF(r.metrics.placed == 1 && r.metrics.stopped_early == 0, "seed %d: placed %d", (int)seed,
               (int)r.metrics.placed);
        CHECK(grid_connected(&g));
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

/* A room with a door in its west wall: a wall vault never stands in front of
 * the door (it would lead nowhere), nor diagonally beside the doorway. */
TEST(quality_mixed_doors_stay_open)
{
    static const char text[] = "prefabs 1\nprefab post\n  mode island\nmap\n#\n#\nend\n";
    dg_prefab_set *set = parse_text(text);
    static uint8_t cells[12 * 7];
    dg_grid g;
    dg_grid_init(&g, cells, 12, 7, 0);
    for (uint64_t seed = 0; set && seed < 200; seed++)
    {
        dg_grid_fill(&g, DG_TILE_WALL);
        dg_grid_fill_rect(&g, (dg_rect){1, 3, 2, 1}, DG_TILE_CORRIDOR);
        dg_grid_set(&g, 3, 3, DG_TILE_DOOR);
        dg_grid_fill_rect(&g, (dg_rect){4, 1, 4, 5}, DG_TILE_FLOOR);
        uint8_t before[12 * 7];
        memcpy(before, cells, sizeof before);
        dg_prefab_mixed_params p;
        dg_prefab_mixed_defaults(&p);
        p.in_rooms = 0;
        p.count = 1;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_prefab_mixed_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.placed == 1);
        CHECK(dg_grid_get(&g, 4, 3) == DG_TILE_FLOOR);
        CHECK(corner_joints(&g, before) == 0 && grid_connected(&g));
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

/* Same seed, same map and result, vault after vault. */
TEST(quality_mixed_deterministic)
{
    dg_prefab_set *set = vaults();
    static uint8_t a[80 * 50], b[80 * 50];
    dg_grid ga, gb;
    dg_grid_init(&ga, a, 80, 50, 0);
    dg_grid_init(&gb, b, 80, 50, 0);
    for (uint64_t s = 1; set && s <= 20; s++)
    {
        dg_recipe rc;
        dg_result ra, rb;
        dg_result_init(&ra, NULL);
        dg_result_init(&rb, NULL);
        CHECK(dg_recipe_init(&rc, "prefab-mixed", s, 80, 50) == DG_OK);
        CHECK(dg_recipe_set(&rc, "count", "6", NULL) == DG_OK);
        CHECK(dg_recipe_generate(&rc, &ga, set, &ra, NULL, NULL) == DG_OK);
        CHECK(dg_recipe_generate(&rc, &gb, set, &rb, NULL, NULL) == DG_OK);
        CHECK(memcmp(a, b, sizeof a) == 0 && ra.room_count == rb.room_count);
        CHECK(ra.exit.x == rb.exit.x && ra.exit.y == rb.exit.y && ra.metrics.placed == 6);
        dg_result_free(&ra);
        dg_result_free(&rb);
    }
    dg_prefab_set_free(set);
}
