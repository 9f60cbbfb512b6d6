/* dg_solve against the cell search it replaced (dgi_solve_run, as it was in
 * 0.10; dg_solve still falls back on it): every solver field equal on locked
 * maps of every generator and on random hand-made grids, the region search
 * (dgi_solve_regions) deciding most generated maps on its own, and the
 * answers on the random grids pinned (the cell search must not drift). */
#include "analysis/analysis.h"
#include "progress/progress.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference's answer for a checked map (start open, not a shut door). */
static void cell_solve(const dg_grid *g, const dg_result *r, dg_progress *p)
{
    size_t n = ((size_t)g->width + 2) * ((size_t)g->height + 2);
    int32_t *parent = malloc(n * sizeof *parent), *queue = malloc(n * sizeof *queue);
    uint32_t *sets = malloc(n * sizeof *sets);
    uint8_t *tag = malloc(n), *tile = malloc(n);
    dgi_frame_tiles(g, tile);
    dgi_solve_run(tile, g->width, g->height, r, parent, queue, sets, tag, p);
    free(parent), free(queue), free(sets), free(tag), free(tile);
}

/* ---- the comparison ------------------------------------------------------- */

typedef struct tally {
    int32_t maps, differ, decided, region_differ;
    uint64_t digest; /* of the reference's answers */
} tally;

/* dg_solve, the reference and (when it decides) the region search on one map;
 * every byte of dg_progress compared. */
static void compare(const dg_grid *g, const dg_result *r, tally *t)
{
    dg_progress want, got, fast;
    memset(&want, 0x5a, sizeof want);
    memcpy(&got, &want, sizeof got);
    memcpy(&fast, &want, sizeof fast);
    dg_status st = dg_solve(g, r, &got, NULL, NULL);
    if (st != DG_OK)
        return; /* refused (a start on a shut door): the reference never runs */
    cell_solve(g, r, &want);
    size_t bytes = ((size_t)g->width + 2) * ((size_t)g->height + 2) * (3 * sizeof(int32_t) + 2);
    void *block = malloc(bytes);
    int decided = dgi_solve_regions(g, r, block, bytes, &fast);
    free(block);
    t->maps++;
    t->digest = dg_hash_combine(t->digest, (uint64_t)want.solvable << 40 |
                                               (uint64_t)want.keys_reached << 32 |
                                               (uint64_t)(uint32_t)want.steps);
    for (int32_t i = 0; i < want.order_count; i++)
        t->digest = dg_hash_combine(t->digest, (uint64_t)want.order[i]);
    t->differ += memcmp(&want, &got, sizeof want) != 0;
    t->decided += decided;
    t->region_differ += decided && memcmp(&want, &fast, sizeof want) != 0;
}

static const char *const lock_gens[] = {"attach", "bsp", "chain", "cave", "maze", "walk",
                                        "scatter", "world"};

TEST(solve_regions_agree_on_locked_maps)
{
    tally t = {0, 0, 0, 0, 0};
    for (size_t gi = 0; gi < sizeof lock_gens / sizeof *lock_gens; gi++)
        for (uint64_t seed = 1; seed <= 12; seed++)
        {
            int32_t w = seed % 3 == 0 ? 120 : 80, h = seed % 3 == 0 ? 70 : 50;
            uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
            dg_grid g;
            dg_result r;
            dg_recipe rc;
            dg_grid_init(&g, cells, w, h, 0);
            dg_result_init(&r, NULL);
            dg_lock_params lp;
            dg_lock_defaults(&lp);
            lp.locks = 1 + (int32_t)(seed % 4);
            lp.secret_permille = seed % 2 ? 400 : 0;
            lp.gate_max = 1 + (int32_t)(seed % 3);
            if (dg_recipe_init(&rc, lock_gens[gi], seed, w, h) == DG_OK &&
                dg_recipe_generate(&rc, &g, NULL, &r, NULL, NULL) == DG_OK &&
                dg_lock_place(&g, &lp, seed, &r, NULL, NULL, NULL) == DG_OK)
                compare(&g, &r, &t);
            dg_result_free(&r);
            free(cells);
        }
    printf("    locked maps: %d, region search decided %d\n", (int)t.maps, (int)t.decided);
    CHECKF(t.maps >= 80, "only %d maps locked", (int)t.maps);
    CHECKF(t.differ == 0, "%d of %d locked maps: dg_solve differs from the cell search",
           (int)t.differ, (int)t.maps);
    CHECKF(t.region_differ == 0, "%d of %d locked maps: the region search differs",
           (int)t.region_differ, (int)t.maps);
    CHECKF(t.decided * 10 >= t.maps * 9, "the region search decided only %d of %d locked maps",
           (int)t.decided, (int)t.maps);
}

/* A random open cell (floor), or (0, 0) after 40 misses. */
static dg_point random_floor(dg_rng *rng, const dg_grid *g)
{
    for (int tries = 0; tries < 40; tries++)
    {
        dg_point p = {dg_rng_range(rng, 0, g->width - 1), dg_rng_range(rng, 0, g->height - 1)};
        if (dg_grid_get(g, p.x, p.y) == DG_TILE_FLOOR)
            return p;
    }
    return (dg_point){0, 0};
}

/* Rooms of floor in a lattice of walls with doors of every kind between
 * them (often several on one wall: many ways into a room, in every wave),
 * locks on most locked doors (some with two), keys 1..4 and stray copies. */
static void random_map(dg_rng *rng, dg_grid *g, dg_result *r, dg_marker *marks, int32_t room)
{
    static const uint8_t door_kinds[] = {DG_TILE_DOOR, DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_LOCKED,
                                         DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_SECRET, DG_TILE_FLOOR};
    int32_t side = dg_rng_range(rng, 3, 6);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            int vx = x % side == 0, vy = y % side == 0;
            uint8_t t = DG_TILE_FLOOR;
            if (vx && vy)
                t = DG_TILE_WALL;
            else if (vx || vy)
                t = dg_rng_range(rng, 0, 2) == 0 ? door_kinds[dg_rng_range(rng, 0, 5)] : DG_TILE_WALL;
            else if (dg_rng_range(rng, 0, 19) == 0)
                t = DG_TILE_WALL;
            dg_grid_set(g, x, y, t);
        }
    int32_t count = 0;
    for (int32_t y = 0; y < g->height && count < room; y++)
        for (int32_t x = 0; x < g->width && count < room; x++)
        {
            int32_t locks = dg_grid_get(g, x, y) != DG_TILE_DOOR_LOCKED ? 0
                            : dg_rng_range(rng, 0, 7) == 0                 ? 0 /* never opens */
                            : dg_rng_range(rng, 0, 4) == 0                 ? 2
                                                                           : 1;
            for (int32_t k = 0; k < locks && count < room; k++)
            {
                dg_marker m = {{x, y}, DG_MARKER_LOCK, -1, "", 0, 0, 0, {0}};
                snprintf(m.name, sizeof m.name, "lock %d", (int)dg_rng_range(rng, 1, 4));
                marks[count++] = m;
            }
        }
    for (int32_t i = 0; i < 4 + dg_rng_range(rng, 0, 3) && count < room + 8; i++)
    {
        dg_marker m = {random_floor(rng, g), DG_MARKER_KEY, -1, "", 0, 0, 0, {0}};
        snprintf(m.name, sizeof m.name, "key %d", (int)(i < 4 ? i + 1 : dg_rng_range(rng, 1, 4)));
        marks[count++] = m;
    }
    r->markers = marks;
    r->marker_count = count;
    r->start = random_floor(rng, g);
    r->exit = random_floor(rng, g);
}

TEST(solve_regions_agree_on_random_maps)
{
    dg_rng rng;
    dg_rng_seed(&rng, 30, 0);
    tally t = {0, 0, 0, 0, 0};
    uint8_t cells[40 * 30];
    dg_marker marks[72];
    for (int map = 0; map < 3000; map++)
    {
        int32_t w = dg_rng_range(&rng, 1, 40), h = dg_rng_range(&rng, 1, 30);
        dg_grid g;
        dg_result r;
        dg_grid_init(&g, cells, w, h, 0);
        memset(&r, 0, sizeof r);
        random_map(&rng, &g, &r, marks, 64);
        compare(&g, &r, &t);
    }
    CHECKF(t.differ == 0, "%d of %d random maps: dg_solve differs from the cell search",
           (int)t.differ, (int)t.maps);
    CHECKF(t.region_differ == 0, "%d of %d random maps: the region search differs",
           (int)t.region_differ, (int)t.maps);
    CHECKF(t.digest == UINT64_C(0x16cf69f273becdc4), "the random maps' answers moved: digest 0x%016" PRIx64,
           t.digest);
    CHECKF(t.decided * 2 >= t.maps, "the region search decided only %d of %d random maps",
           (int)t.decided, (int)t.maps);
    printf("    random maps: %d, region search decided %d\n", (int)t.maps, (int)t.decided);
}

/* Map rows into g (# wall, + locked door, anything else floor), markers: S the
 * start, E the exit, digits d a "key d" on floor; a locked door at column x
 * carries "lock <locks[x]>". mirror reads every row right to left. */
static int32_t draw_map(const char *const *rows, int32_t w, int32_t h, int mirror,
                        const int32_t *locks, dg_grid *g, dg_result *r, dg_marker *marks)
{
    int32_t count = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
        {
            int32_t from = mirror ? w - 1 - x : x;
            char ch = rows[y][from];
            dg_grid_set(g, x, y, ch == '#' ? DG_TILE_WALL : ch == '+' ? DG_TILE_DOOR_LOCKED
                                                                      : DG_TILE_FLOOR);
            dg_marker m = {{x, y}, DG_MARKER_KEY, -1, "", 0, 0, 0, {0}};
            if (ch >= '1' && ch <= '9')
                snprintf(m.name, sizeof m.name, "key %c", ch);
            else if (ch == '+')
            {
                m.kind = DG_MARKER_LOCK;
                snprintf(m.name, sizeof m.name, "lock %d", (int)locks[from]);
            }
            else if (ch == 'S')
                r->start = m.pos;
            else if (ch == 'E')
                r->exit = m.pos;
            if (m.name[0])
                marks[count++] = m;
        }
    r->markers = marks;
    r->marker_count = count;
    return count;
}

/* 1 if order works: each key listed is reached holding only the keys before it,
 * the exit holding them all (the locks off the list stay shut). */
static int order_works(const dg_grid *g, const dg_result *r, const dg_progress *p)
{
    dg_marker marks[16];
    dg_result q = *r;
    q.markers = marks;
    for (int32_t k = 0; k <= p->order_count; k++)
    {
        int32_t count = 0, target = k < p->order_count ? p->order[k] : 0;
        dg_point goal = r->exit;
        for (int32_t i = 0; i < r->marker_count && count < 16; i++)
        {
            const dg_marker *m = &r->markers[i];
            int32_t n = m->kind == DG_MARKER_KEY ? dgi_progress_number(m, "key") : 0, held = 0;
            for (int32_t j = 0; j < k; j++)
                held |= p->order[j] == n;
            if (n == target && target)
                goal = m->pos;
            if (m->kind != DG_MARKER_KEY || held)
                marks[count++] = *m;
        }
        q.marker_count = count;
        q.exit = goal;
        dg_progress got;
        if (dg_solve(g, &q, &got, NULL, NULL) != DG_OK || !got.solvable)
            return 0;
    }
    return 1;
}

/* `order` is the keys of the ways the search follows: where two sets of keys
 * open the way to the exit in the same wave, the one listed depends on the
 * order the cells are visited in (north, east, south, west), so a mirrored map
 * lists the other set. Both work; solvable, keys_reached and steps are the
 * map's own and do not move (docs/progression.md). */
TEST(solve_order_follows_the_search)
{
    static const char *const rows[] = {"###########", "#1...S...2#", "#.#######.#",
                                       "#+#######+#", "#.#######.#", "#....E....#",
                                       "###########"};
    const int32_t locks[11] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0}; /* key 1's side has lock 1 */
    uint8_t cells[11 * 7];
    dg_progress p[2];
    for (int mirror = 0; mirror < 2; mirror++)
    {
        dg_grid g;
        dg_result r;
        dg_marker marks[8];
        dg_grid_init(&g, cells, 11, 7, 0);
        memset(&r, 0, sizeof r);
        draw_map(rows, 11, 7, mirror, locks, &g, &r, marks);
        CHECK(dg_solve(&g, &r, &p[mirror], NULL, NULL) == DG_OK);
        CHECK(p[mirror].solvable == 1 && p[mirror].order_count == 1);
        CHECK(order_works(&g, &r, &p[mirror]));
    }
    CHECK(p[0].keys_reached == p[1].keys_reached && p[0].steps == p[1].steps);
    /* the east side is searched first: its key and lock are listed */
    CHECKF(p[0].order[0] == 2 && p[1].order[0] == 1, "order %d, mirrored %d",
           (int)p[0].order[0], (int)p[1].order[0]);
}
