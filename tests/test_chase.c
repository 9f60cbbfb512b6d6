/* Chase: dg_chase_step against a brute-force reference over random maps,
 * walks, overlays and monsters; no two monsters on one cell; flee maps against
 * the documented recipe and flee steps away from the player; determinism (a
 * pinned turn loop); bad input leaves the outputs untouched. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define CW 40
#define CH 28
#define MAX_MONSTERS 64

typedef struct chase_case {
    uint8_t cells[CW * CH];
    uint8_t blocked[CW * CH];
    dg_grid grid;
    dg_overlay overlay;
    dg_move walk;
    int32_t map[CW * CH];
    dg_point monsters[MAX_MONSTERS];
    int32_t count;
    dg_point target;
} chase_case;

/* A random cave-like grid: walls on the border, about a quarter inside. */
static void random_grid(chase_case *c, dg_rng *rng)
{
    dg_grid_init(&c->grid, c->cells, CW, CH, 0);
    for (int32_t y = 0; y < CH; y++)
        for (int32_t x = 0; x < CW; x++)
        {
            int border = x == 0 || y == 0 || x == CW - 1 || y == CH - 1;
            c->cells[y * CW + x] =
                border || dg_rng_below(rng, 100) < 25 ? DG_TILE_WALL : DG_TILE_FLOOR;
        }
}

static dg_point random_open(const chase_case *c, dg_rng *rng, int free_only)
{
    for (;;)
    {
        dg_point p = {(int32_t)dg_rng_below(rng, CW), (int32_t)dg_rng_below(rng, CH)};
        int i = p.y * CW + p.x;
        if (dg_tile_passable(c->cells[i]) && (!free_only || !c->blocked[i]))
            return p;
    }
}

/* ---- the brute-force reference ------------------------------------------------ */

static int ref_value(const chase_case *c, int32_t x, int32_t y)
{
    return c->map[y * CW + x];
}

static int ref_target(const chase_case *c, int mode, int32_t x, int32_t y)
{
    return mode == DG_CHASE_APPROACH && ref_value(c, x, y) == 0;
}

static int ref_blocked(const chase_case *c, int32_t x, int32_t y)
{
    return c->walk.overlay && c->blocked[y * CW + x];
}

static int ref_held(const dg_point *now, int32_t count, int32_t x, int32_t y)
{
    for (int32_t k = 0; k < count; k++)
        if (now[k].x == x && now[k].y == y)
            return 1;
    return 0;
}

static int ref_open_corner(const chase_case *c, int mode, int32_t x, int32_t y)
{
    return dg_tile_passable(c->cells[y * CW + x]) &&
           (!ref_blocked(c, x, y) || ref_target(c, mode, x, y));
}

/* The documented rule, spelled out: neighbours N, E, S, W, NE, SE, SW, NW. */
static void ref_chase(const chase_case *c, int mode, const int32_t *movers, int32_t mover_count,
                      dg_point *now)
{
    static const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    memcpy(now, c->monsters, (size_t)c->count * sizeof *now);
    for (int32_t k = 0; k < mover_count; k++)
    {
        dg_point *p = &now[movers[k]];
        int64_t own = ref_value(c, p->x, p->y) >= 0 ? ref_value(c, p->x, p->y) : INT64_MAX;
        int64_t best = INT64_MAX;
        dg_point to = *p;
        for (int d = 0; d < c->walk.neighbours; d++)
        {
            int32_t x = p->x + dx[d], y = p->y + dy[d];
            if (x < 0 || y < 0 || x >= CW || y >= CH || !dg_tile_passable(c->cells[y * CW + x]))
                continue;
            int32_t v = ref_value(c, x, y);
            int target = ref_target(c, mode, x, y);
            if (v < 0 || (!target && (ref_blocked(c, x, y) || ref_held(now, c->count, x, y))))
                continue;
            if (d >= 4 && !c->walk.corner_cutting &&
                (!ref_open_corner(c, mode, x, p->y) || !ref_open_corner(c, mode, p->x, y)))
                continue;
            if (v < best)
            {
                best = v;
                to = (dg_point){x, y};
            }
        }
        if (best < own)
            *p = to; /* a target is never held: ref_held skips targets anyway */
    }
}

/* A random scenario: walk, overlay (the monsters and some debris blocked, or
 * none), monsters, one or two targets, the map. */
static void random_case(chase_case *c, dg_rng *rng)
{
    memset(c, 0, sizeof *c);
    random_grid(c, rng);
    dg_move_defaults(&c->walk);
    c->walk.neighbours = dg_rng_below(rng, 2) ? 8 : 4;
    c->walk.corner_cutting = (int32_t)dg_rng_below(rng, 2);
    if (dg_rng_below(rng, 2))
    {
        c->walk.straight_weight = 2;
        c->walk.diagonal_weight = 3;
    }
    c->count = 1 + (int32_t)dg_rng_below(rng, MAX_MONSTERS);
    int with_overlay = (int)dg_rng_below(rng, 3);
    for (int32_t k = 0; k < c->count; k++)
    {
        c->monsters[k] = random_open(c, rng, 1);
        c->blocked[c->monsters[k].y * CW + c->monsters[k].x] = 1;
    }
    for (int k = 0; with_overlay == 2 && k < 40; k++)
    {
        dg_point p = random_open(c, rng, 0);
        c->blocked[p.y * CW + p.x] = 1;
    }
    if (!with_overlay)
        memset(c->blocked, 0, sizeof c->blocked);
    dg_point targets[2];
    int32_t targets_n = 1 + (int32_t)dg_rng_below(rng, 2);
    for (int32_t k = 0; k < targets_n; k++)
        targets[k] = random_open(c, rng, 0);
    c->target = targets[0];
    c->overlay = (dg_overlay){DG_OVERLAY_BLOCKED, 0, CW * CH, c->blocked, NULL, NULL};
    if (with_overlay)
        c->walk.overlay = &c->overlay;
    dg_distance_map(&c->grid, &c->walk, targets, targets_n, 0, c->map, CW * CH, NULL, NULL, NULL);
}

static int same_points(const dg_point *a, const dg_point *b, int32_t n)
{
    for (int32_t k = 0; k < n; k++)
        if (a[k].x != b[k].x || a[k].y != b[k].y)
            return 0;
    return 1;
}

TEST(chase_matches_reference)
{
    dg_rng rng;
    dg_rng_seed(&rng, 11, 0);
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(CW, CH, NULL, &ws) == DG_OK);
    static chase_case c;
    for (int round = 0; round < 600 && !test_failures(); round++)
    {
        random_case(&c, &rng);
        int mode = round % 3 == 2 ? DG_CHASE_FLEE : DG_CHASE_APPROACH;
        int32_t movers[MAX_MONSTERS], n = 0;
        int all = round % 2 == 0;
        for (int32_t k = 0; k < c.count; k++)
            movers[k] = k;
        n = c.count;
        if (!all) /* a shuffled subset */
        {
            for (int32_t k = n - 1; k > 0; k--)
            {
                int32_t j = (int32_t)dg_rng_below(&rng, (uint32_t)k + 1), t = movers[k];
                movers[k] = movers[j];
                movers[j] = t;
            }
            n = (int32_t)dg_rng_below(&rng, (uint32_t)c.count + 1);
        }
        dg_point got[MAX_MONSTERS], want[MAX_MONSTERS];
        dg_chase ch = {c.map, CW * CH, mode, c.monsters, c.count, all ? NULL : movers, n};
        dg_diag diag;
        dg_status st = dg_chase_step(&c.grid, &c.walk, &ch, round % 5 ? ws : NULL, got,
                                     MAX_MONSTERS, &diag);
        CHECKF(st == DG_OK, "round %d: %s", round, diag.message);
        ref_chase(&c, mode, movers, n, want);
        CHECKF(same_points(got, want, c.count), "round %d: steps differ from the reference", round);
        /* no two monsters on one cell, except on a target; never on a blocked cell */
        for (int32_t a = 0; a < c.count; a++)
        {
            int target = ref_target(&c, mode, got[a].x, got[a].y);
            int moved = got[a].x != c.monsters[a].x || got[a].y != c.monsters[a].y;
            CHECK(!moved || target || !ref_blocked(&c, got[a].x, got[a].y));
            for (int32_t b = a + 1; b < c.count && !target; b++)
                CHECKF(got[a].x != got[b].x || got[a].y != got[b].y, "round %d: %d and %d meet",
                       round, (int)a, (int)b);
        }
    }
    dg_path_workspace_free(ws);
}

/* An approach step always lowers the monster's value, and a monster next to
 * its target reports the target's cell, however many stand there. */
TEST(chase_approach_surrounds_target)
{
    static chase_case c;
    memset(&c, 0, sizeof c);
    dg_grid_init(&c.grid, c.cells, CW, CH, 0);
    for (int32_t i = 0; i < CW * CH; i++)
        c.cells[i] = DG_TILE_FLOOR;
    dg_move_defaults(&c.walk);
    c.walk.neighbours = 8;
    c.walk.corner_cutting = 1; /* else the diagonal ones may not pass their neighbours */
    c.target = (dg_point){10, 10};
    c.count = 8;
    for (int d = 0, k = 0; d < 9; d++)
        if (d != 4)
            c.monsters[k++] = (dg_point){9 + d % 3, 9 + d / 3};
    for (int32_t k = 0; k < c.count; k++)
        c.blocked[c.monsters[k].y * CW + c.monsters[k].x] = 1;
    c.blocked[10 * CW + 10] = 1; /* the player blocks too: a source stays open */
    c.overlay = (dg_overlay){DG_OVERLAY_BLOCKED, 0, CW * CH, c.blocked, NULL, NULL};
    c.walk.overlay = &c.overlay;
    CHECK(dg_distance_map(&c.grid, &c.walk, &c.target, 1, 0, c.map, CW * CH, NULL, NULL, NULL) ==
          DG_OK);
    dg_point got[8];
    dg_chase ch = {c.map, CW * CH, DG_CHASE_APPROACH, c.monsters, c.count, NULL, 0};
    CHECK(dg_chase_step(&c.grid, &c.walk, &ch, NULL, got, 8, NULL) == DG_OK);
    for (int32_t k = 0; k < 8; k++)
        CHECK(got[k].x == 10 && got[k].y == 10);
    /* fleeing, nobody enters the player's (blocked) cell */
    ch.mode = DG_CHASE_FLEE;
    CHECK(dg_chase_step(&c.grid, &c.walk, &ch, NULL, got, 8, NULL) == DG_OK);
    for (int32_t k = 0; k < 8; k++)
        CHECK(got[k].x != 10 || got[k].y != 10);
}

/* Two monsters want one cell: the first mover gets it, the other takes its
 * next best or stays; the order of movers decides. */
TEST(chase_mover_order_decides)
{
    static chase_case c;
    memset(&c, 0, sizeof c);
    dg_grid_init(&c.grid, c.cells, CW, CH, 0);
    for (int32_t i = 0; i < CW * CH; i++)
        c.cells[i] = DG_TILE_WALL;
    for (int32_t x = 1; x < 20; x++) /* a corridor along y = 5 with a nook at (10, 4) */
        c.cells[5 * CW + x] = DG_TILE_CORRIDOR;
    c.cells[4 * CW + 10] = DG_TILE_FLOOR;
    c.cells[4 * CW + 11] = DG_TILE_FLOOR;
    dg_move_defaults(&c.walk);
    dg_point target = {1, 5};
    CHECK(dg_distance_map(&c.grid, NULL, &target, 1, 0, c.map, CW * CH, NULL, NULL, NULL) == DG_OK);
    c.count = 2;
    c.monsters[0] = (dg_point){11, 5}; /* wants (10, 5) */
    c.monsters[1] = (dg_point){10, 4}; /* wants (10, 5) too */
    dg_point got[2];
    int32_t order[2] = {1, 0};
    dg_chase ch = {c.map, CW * CH, DG_CHASE_APPROACH, c.monsters, 2, NULL, 0};
    CHECK(dg_chase_step(&c.grid, NULL, &ch, NULL, got, 2, NULL) == DG_OK);
    CHECK(got[0].x == 10 && got[0].y == 5); /* id 0 first */
    CHECK(got[1].x == 10 && got[1].y == 4); /* (11, 4) is no lower: stays */
    ch.movers = order;
    ch.mover_count = 2;
    CHECK(dg_chase_step(&c.grid, NULL, &ch, NULL, got, 2, NULL) == DG_OK);
    CHECK(got[1].x == 10 && got[1].y == 5); /* id 1 first */
    CHECK(got[0].x == 11 && got[0].y == 5); /* its way is held: stays */
    /* a mover that left frees its cell for the next one */
    c.monsters[0] = (dg_point){10, 5};
    c.monsters[1] = (dg_point){11, 5};
    ch.movers = NULL;
    CHECK(dg_chase_step(&c.grid, NULL, &ch, NULL, got, 2, NULL) == DG_OK);
    CHECK(got[0].x == 9 && got[1].x == 10);
}

/* ---- flee ------------------------------------------------------------------------ */

TEST(chase_flee_map_is_the_documented_recipe)
{
    dg_rng rng;
    dg_rng_seed(&rng, 12, 0);
    static chase_case c;
    static int32_t flee[CW * CH], want[CW * CH], start[CW * CH];
    static dg_point sources[CW * CH];
    for (int round = 0; round < 60 && !test_failures(); round++)
    {
        random_case(&c, &rng);
        int32_t scale = 101 + (int32_t)dg_rng_below(&rng, 200), k = 0, n = 0;
        for (int32_t i = 0; i < CW * CH; i++)
            k = c.map[i] >= 0 && c.map[i] * scale / 100 > k ? c.map[i] * scale / 100 : k;
        for (int32_t i = 0; i < CW * CH; i++)
            if (c.map[i] >= 0)
            {
                sources[n] = (dg_point){i % CW, i / CW};
                start[n++] = k - c.map[i] * scale / 100;
            }
        dg_distance_info a, b;
        CHECK(dg_dijkstra_map(&c.grid, &c.walk, sources, start, n, 0, want, CW * CH, NULL, &a,
                              NULL) == DG_OK);
        CHECK(dg_flee_map(&c.grid, &c.walk, c.map, CW * CH, scale, flee, CW * CH, NULL, NULL, &b,
                          NULL) == DG_OK);
        CHECKF(memcmp(flee, want, sizeof flee) == 0, "round %d: flee map differs", round);
        CHECK(a.reached == b.reached && a.max_distance == b.max_distance);
    }
}

/* In an open room a fleeing monster never steps closer to the player, and
 * with 4-way steps always farther (8-way distances have plateaus). */
TEST(chase_flee_moves_away)
{
    static chase_case c;
    static int32_t flee[CW * CH];
    memset(&c, 0, sizeof c);
    dg_grid_init(&c.grid, c.cells, CW, CH, 0);
    for (int32_t y = 0; y < CH; y++)
        for (int32_t x = 0; x < CW; x++)
            c.cells[y * CW + x] =
                x == 0 || y == 0 || x == CW - 1 || y == CH - 1 ? DG_TILE_WALL : DG_TILE_FLOOR;
    for (int n = 4; n <= 8; n += 4)
    {
        dg_move_defaults(&c.walk);
        c.walk.neighbours = n;
        dg_point player = {17, 12};
        CHECK(dg_distance_map(&c.grid, &c.walk, &player, 1, 0, c.map, CW * CH, NULL, NULL, NULL) ==
              DG_OK);
        CHECK(dg_flee_map(&c.grid, &c.walk, c.map, CW * CH, 120, flee, CW * CH, NULL, NULL, NULL,
                          NULL) == DG_OK);
        int32_t count = 0;
        for (int32_t y = 3; y < CH - 3; y += 4)
            for (int32_t x = 3; x < CW - 3; x += 5)
                if (x != player.x || y != player.y)
                    c.monsters[count++] = (dg_point){x, y};
        dg_point got[MAX_MONSTERS];
        dg_chase ch = {flee, CW * CH, DG_CHASE_FLEE, c.monsters, count, NULL, 0};
        CHECK(dg_chase_step(&c.grid, &c.walk, &ch, NULL, got, MAX_MONSTERS, NULL) == DG_OK);
        for (int32_t k = 0; k < count; k++)
        {
            int32_t before = c.map[c.monsters[k].y * CW + c.monsters[k].x];
            int32_t after = c.map[got[k].y * CW + got[k].x];
            CHECKF(n == 4 ? after > before : after >= before, "%d-way: monster %d at (%d, %d) went from %d to %d", n, (int)k,
                   (int)c.monsters[k].x, (int)c.monsters[k].y, (int)before, (int)after);
        }
    }
}

/* ---- determinism: a pinned turn loop ------------------------------------------- */

/* 60 turns: the player walks a random route, 12 monsters (blocked overlay)
 * chase it, the last three flee; the positions of every turn hashed. */
static uint64_t chase_loop_hash(dg_path_workspace *ws)
{
    static chase_case c;
    static int32_t flee[CW * CH], plain[CW * CH];
    dg_rng rng;
    dg_rng_seed(&rng, 5, 0);
    memset(&c, 0, sizeof c);
    random_grid(&c, &rng);
    dg_move_defaults(&c.walk);
    c.walk.neighbours = 8;
    c.walk.straight_weight = 2;
    c.walk.diagonal_weight = 3;
    dg_point player = random_open(&c, &rng, 0);
    c.count = 12;
    for (int32_t k = 0; k < c.count; k++)
    {
        dg_point p;
        do
            p = random_open(&c, &rng, 1);
        while (p.x == player.x && p.y == player.y);
        c.monsters[k] = p;
        c.blocked[p.y * CW + p.x] = 1;
    }
    c.overlay = (dg_overlay){DG_OVERLAY_BLOCKED, 0, CW * CH, c.blocked, NULL, NULL};
    uint64_t h = 0xcbf29ce484222325ULL;
    int32_t chasers[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, fleers[3] = {9, 10, 11};
    for (int turn = 0; turn < 60; turn++)
    {
        int d = (int)dg_rng_below(&rng, 8);
        dg_point next = {player.x + (d % 3) - 1, player.y + (d / 3) - 1};
        if (dg_tile_passable(c.cells[next.y * CW + next.x]) && !c.blocked[next.y * CW + next.x])
            player = next;
        c.walk.overlay = &c.overlay;
        dg_distance_map(&c.grid, &c.walk, &player, 1, 0, c.map, CW * CH, ws, NULL, NULL);
        c.walk.overlay = NULL; /* the flee map: how far the player is, not how the crowd routes */
        dg_distance_map(&c.grid, &c.walk, &player, 1, 0, plain, CW * CH, ws, NULL, NULL);
        dg_flee_map(&c.grid, &c.walk, plain, CW * CH, 120, flee, CW * CH, ws, NULL, NULL, NULL);
        c.walk.overlay = &c.overlay;
        dg_point after[MAX_MONSTERS];
        dg_chase a = {c.map, CW * CH, DG_CHASE_APPROACH, c.monsters, c.count, chasers, 9};
        dg_chase f = {flee, CW * CH, DG_CHASE_FLEE, c.monsters, c.count, fleers, 3};
        dg_chase_step(&c.grid, &c.walk, &a, ws, after, MAX_MONSTERS, NULL);
        for (int32_t k = 0; k < 9; k++) /* a step onto the player is an attack: stay */
            if (after[k].x != player.x || after[k].y != player.y)
                c.monsters[k] = after[k];
        dg_chase_step(&c.grid, &c.walk, &f, ws, after, MAX_MONSTERS, NULL);
        memcpy(c.monsters, after, sizeof after[0] * (size_t)c.count);
        memset(c.blocked, 0, sizeof c.blocked);
        for (int32_t k = 0; k < c.count; k++)
        {
            c.blocked[c.monsters[k].y * CW + c.monsters[k].x] = 1;
            h = (h ^ (uint64_t)(c.monsters[k].y * CW + c.monsters[k].x)) * 0x100000001b3ULL;
        }
        h = (h ^ (uint64_t)(player.y * CW + player.x)) * 0x100000001b3ULL;
    }
    return h;
}

TEST(chase_deterministic_turn_loop)
{
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(CW, CH, NULL, &ws) == DG_OK);
    uint64_t a = chase_loop_hash(ws), b = chase_loop_hash(NULL);
    dg_path_workspace_free(ws);
    CHECK_EQ_U64(a, b);
    CHECK_EQ_U64(a, 0x200118a7f84c65b3ULL);
}

/* ---- bad input ------------------------------------------------------------------- */

#define FILL 0x7B

static int untouched(const dg_point *steps, int32_t n)
{
    const uint8_t *p = (const uint8_t *)steps;
    for (size_t i = 0; i < (size_t)n * sizeof *steps; i++)
        if (p[i] != FILL)
            return 0;
    return 1;
}

TEST(chase_bad_input_changes_nothing)
{
    dg_rng rng;
    dg_rng_seed(&rng, 3, 0);
    static chase_case c;
    random_case(&c, &rng);
    c.count = 3;
    c.walk.overlay = NULL;
    dg_point steps[MAX_MONSTERS];
    dg_diag diag;
    int32_t movers_bad[2] = {0, 3}, movers_twice[2] = {1, 1}, movers_neg[1] = {-1};
    dg_chase ok = {c.map, CW * CH, DG_CHASE_APPROACH, c.monsters, 3, NULL, 0};
    struct {
        dg_chase ch;
        int32_t cap;
        dg_status want;
        const char *msg;
    } rows[9];
    for (int i = 0; i < 9; i++)
    {
        rows[i].ch = ok;
        rows[i].cap = MAX_MONSTERS;
    }
    rows[0].ch.mode = 7, rows[0].want = DG_E_INVALID, rows[0].msg = "mode";
    rows[1].ch.movers = movers_bad, rows[1].ch.mover_count = 2, rows[1].want = DG_E_INVALID,
    rows[1].msg = "no such monster";
    rows[2].ch.movers = movers_twice, rows[2].ch.mover_count = 2, rows[2].want = DG_E_INVALID,
    rows[2].msg = "twice";
    rows[3].ch.movers = movers_neg, rows[3].ch.mover_count = 1, rows[3].want = DG_E_INVALID,
    rows[3].msg = "id -1";
    rows[4].cap = 2, rows[4].want = DG_E_BUFFER, rows[4].msg = "steps_cap";
    rows[5].ch.map_count = CW * CH - 1, rows[5].want = DG_E_BUFFER, rows[5].msg = "chase map";
    rows[6].ch.map = NULL, rows[6].want = DG_E_NULL, rows[6].msg = "chase map";
    rows[7].ch.count = -1, rows[7].want = DG_E_INVALID, rows[7].msg = "count";
    dg_point shared[3] = {c.monsters[0], c.monsters[1], c.monsters[0]};
    rows[8].ch.monsters = shared, rows[8].want = DG_E_INVALID, rows[8].msg = "shares";
    for (int i = 0; i < 9; i++)
    {
        memset(steps, FILL, sizeof steps);
        dg_status st = dg_chase_step(&c.grid, NULL, &rows[i].ch, NULL, steps, rows[i].cap, &diag);
        CHECKF(st == rows[i].want, "row %d: got %d", i, (int)st);
        CHECKF(strstr(diag.message, rows[i].msg) != NULL, "row %d: \"%s\"", i, diag.message);
        CHECKF(untouched(steps, MAX_MONSTERS), "row %d: steps written", i);
    }
    /* a monster on a wall */
    dg_point wall[1] = {{0, 0}};
    dg_chase w = {c.map, CW * CH, DG_CHASE_APPROACH, wall, 1, NULL, 0};
    memset(steps, FILL, sizeof steps);
    CHECK(dg_chase_step(&c.grid, NULL, &w, NULL, steps, 1, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "monster 0") != NULL && untouched(steps, MAX_MONSTERS));
    /* flee map: scale out of range, corrupt approach values */
    static int32_t flee[CW * CH], bad[CW * CH];
    memset(flee, FILL, sizeof flee);
    CHECK(dg_flee_map(&c.grid, NULL, c.map, CW * CH, 100, flee, CW * CH, NULL, NULL, NULL,
                      &diag) == DG_E_INVALID);
    memcpy(bad, c.map, sizeof bad);
    bad[0] = 5; /* a distance on the border wall */
    CHECK(dg_flee_map(&c.grid, NULL, bad, CW * CH, 120, flee, CW * CH, NULL, NULL, NULL, &diag) ==
          DG_E_INVALID);
    CHECK(strstr(diag.message, "impassable") != NULL);
    bad[0] = -2;
    CHECK(dg_flee_map(&c.grid, NULL, bad, CW * CH, 120, flee, CW * CH, NULL, NULL, NULL, &diag) ==
          DG_E_INVALID);
    bad[0] = DG_UNREACHABLE;
    bad[CW + 1] = INT32_MAX / 2;
    if (dg_tile_passable(c.cells[CW + 1]))
        CHECK(dg_flee_map(&c.grid, NULL, bad, CW * CH, 1000, flee, CW * CH, NULL, NULL, NULL,
                          &diag) == DG_E_TOO_LARGE);
    CHECK(dg_flee_map(&c.grid, NULL, c.map, CW * CH, 120, flee, CW * CH - 1, NULL, NULL, NULL,
                      &diag) == DG_E_BUFFER);
    const uint8_t *fb = (const uint8_t *)flee;
    int same = 1;
    for (size_t i = 0; i < sizeof flee; i++)
        same &= fb[i] == FILL;
    CHECK(same);
}

/* Nothing reached: an empty flee map, and no monster moves on it. */
TEST(chase_flee_map_empty)
{
    static chase_case c;
    static int32_t flee[CW * CH];
    dg_rng rng;
    dg_rng_seed(&rng, 4, 0);
    random_case(&c, &rng);
    for (int32_t i = 0; i < CW * CH; i++)
        c.map[i] = DG_UNREACHABLE;
    dg_distance_info info;
    CHECK(dg_flee_map(&c.grid, NULL, c.map, CW * CH, 120, flee, CW * CH, NULL, NULL, &info, NULL) ==
          DG_OK);
    CHECK(info.reached == 0 && info.max_distance == DG_UNREACHABLE);
    for (int32_t i = 0; i < CW * CH; i++)
        CHECK(flee[i] == DG_UNREACHABLE);
}

/* dg_path_find: both ends are part of the path. */
TEST(chase_path_find_includes_both_ends)
{
    static chase_case c;
    dg_rng rng;
    dg_rng_seed(&rng, 9, 0);
    random_case(&c, &rng);
    dg_point a = c.target, path[CW * CH];
    int32_t len = 0;
    CHECK(dg_path_find(&c.grid, NULL, a, a, NULL, path, CW * CH, &len, NULL, NULL) == DG_OK);
    CHECK(len == 1 && path[0].x == a.x && path[0].y == a.y);
    for (int d = 0; d < 4; d++)
    {
        dg_point b = {a.x + (d == 1) - (d == 3), a.y + (d == 2) - (d == 0)};
        if (!dg_tile_passable(c.cells[b.y * CW + b.x]))
            continue;
        CHECK(dg_path_find(&c.grid, NULL, a, b, NULL, path, CW * CH, &len, NULL, NULL) == DG_OK);
        CHECK(len == 2 && path[0].x == a.x && path[0].y == a.y && path[1].x == b.x &&
              path[1].y == b.y);
    }
}
