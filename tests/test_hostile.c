/* Hostile input to the progression code (issue 28, items 1, 2, 3 and 6): the
 * solver on maps no dg_lock_place would make (a start on a locked door, doors
 * with two locks, keys sharing a cell, copies of a key), checked against a
 * search over (cell, keys held) (fuzz/solve_ref.h); sites with locks beside a
 * reserved vault that holds doors and a locked door of its own; anchors beside
 * reserved cells; and stacked floors whose stairs must line up. */
#include "fuzz/solve_ref.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A one-row map from a picture: '.' floor, '#' wall, 'L' locked door, 'S'
 * secret door; start and exit as given. */
typedef struct row_map {
    uint8_t cells[32];
    dg_grid g;
    dg_result r;
    dg_marker m[8];
} row_map;

static void row_make(row_map *rm, const char *pic, int32_t start, int32_t exit)
{
    int32_t w = (int32_t)strlen(pic);
    for (int32_t x = 0; x < w; x++)
        rm->cells[x] = pic[x] == '#' ? DG_TILE_WALL : pic[x] == 'L' ? DG_TILE_DOOR_LOCKED
                       : pic[x] == 'S' ? DG_TILE_DOOR_SECRET : DG_TILE_FLOOR;
    dg_grid_init(&rm->g, rm->cells, w, 1, 0);
    dg_result_init(&rm->r, NULL);
    rm->r.start = (dg_point){start, 0};
    rm->r.exit = (dg_point){exit, 0};
    rm->r.markers = rm->m;
    rm->r.marker_count = 0;
}

static void row_mark(row_map *rm, int32_t x, int32_t kind, const char *name)
{
    dg_marker *m = &rm->m[rm->r.marker_count++];
    memset(m, 0, sizeof *m);
    m->pos = (dg_point){x, 0};
    m->kind = kind;
    m->room = -1;
    snprintf(m->name, sizeof m->name, "%s", name);
}

/* Item 1: `L . .` with the start on the locked door and no key read out of
 * bounds (ASan: heap-buffer-overflow in mark_needed) or looped. The player
 * cannot stand in a shut door: DG_E_INVALID, progress untouched. */
TEST(hostile_solve_start_on_locked_door)
{
    row_map rm;
    row_make(&rm, "L..", 0, 2);
    row_mark(&rm, 0, DG_MARKER_LOCK, "lock 1");
    dg_progress pr, before;
    memset(&pr, 0x5A, sizeof pr);
    before = pr;
    dg_diag d;
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "locked door") != NULL);
    CHECK(memcmp(&pr, &before, sizeof pr) == 0);
    row_mark(&rm, 2, DG_MARKER_KEY, "key 1"); /* with its key somewhere: the same */
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, &d) == DG_E_INVALID);
    row_make(&rm, "S..", 0, 2); /* a secret door counts as wall: no standing in it either */
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "secret door") != NULL);
    row_make(&rm, "..L", 0, 2); /* the exit on a locked door is fine: it opens */
    row_mark(&rm, 2, DG_MARKER_LOCK, "lock 1");
    row_mark(&rm, 1, DG_MARKER_KEY, "key 1");
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, &d) == DG_OK);
    CHECK(pr.solvable == 1 && pr.order_count == 1 && pr.order[0] == 1 && pr.steps == 3);
}

/* Item 1: a door with two lock markers and only one key present reached the
 * same read. A door needs the keys of all its locks. */
TEST(hostile_solve_door_with_two_locks)
{
    row_map rm;
    row_make(&rm, "..L..", 0, 4);
    row_mark(&rm, 1, DG_MARKER_KEY, "key 2");
    row_mark(&rm, 2, DG_MARKER_LOCK, "lock 1");
    row_mark(&rm, 2, DG_MARKER_LOCK, "lock 2");
    dg_progress pr;
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK);
    CHECK(pr.solvable == 0 && pr.keys_reached == 1 && pr.steps == 2 && pr.order_count == 0);
    row_mark(&rm, 0, DG_MARKER_KEY, "key 1");
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK);
    CHECK(pr.solvable == 1 && pr.keys_reached == 2 && pr.steps == 5);
    CHECK(pr.order_count == 2 && pr.order[0] == 1 && pr.order[1] == 2);
}

/* Item 2: two keys on one cell; the solver kept one key per cell. */
TEST(hostile_solve_two_keys_on_one_cell)
{
    row_map rm;
    row_make(&rm, "..LL..", 0, 5);
    row_mark(&rm, 1, DG_MARKER_KEY, "key 1");
    row_mark(&rm, 1, DG_MARKER_KEY, "key 2");
    row_mark(&rm, 2, DG_MARKER_LOCK, "lock 1");
    row_mark(&rm, 3, DG_MARKER_LOCK, "lock 2");
    dg_progress pr;
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK);
    CHECK(pr.solvable == 1 && pr.keys_reached == 2 && pr.steps == 6 && pr.order_count == 2);
}

/* Item 2: the first "key 1" is walled off, a second copy is reachable; the
 * solver kept the first marker per key number only. */
TEST(hostile_solve_second_copy_of_a_key)
{
    row_map rm;
    row_make(&rm, ".#..L.", 2, 5);
    row_mark(&rm, 0, DG_MARKER_KEY, "key 1"); /* behind the wall */
    row_mark(&rm, 3, DG_MARKER_KEY, "key 1");
    row_mark(&rm, 4, DG_MARKER_LOCK, "lock 1");
    dg_progress pr;
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK);
    CHECK(pr.solvable == 1 && pr.keys_reached == 1 && pr.order_count == 1 && pr.order[0] == 1);
    CHECK(pr.steps == 4);
}

/* Names that are not "key N" / "lock N" count for nothing, and a name without
 * its NUL is read no further than its array. */
TEST(hostile_solve_odd_names)
{
    row_map rm;
    row_make(&rm, "..L.", 0, 3);
    row_mark(&rm, 1, DG_MARKER_KEY, "key 01");
    row_mark(&rm, 2, DG_MARKER_LOCK, "lock 1");
    dg_progress pr;
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK && pr.solvable == 1);
    memset(rm.m[0].name, '0', sizeof rm.m[0].name); /* "key 0000...", no NUL */
    memcpy(rm.m[0].name, "key ", 4);
    CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK && pr.solvable == 0);
    static const char *const bad[] = {"key 17", "key 0", "key +1", "key 1 ", "key", "key1", "lock 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        snprintf(rm.m[0].name, sizeof rm.m[0].name, "%s", bad[i]);
        CHECK(dg_solve(&rm.g, &rm.r, &pr, NULL, NULL) == DG_OK && pr.solvable == 0);
    }
}

/* Items 1 and 2 at random: small grids with keys and locks anywhere (shared
 * cells, copies, doors with several locks, odd names, off the grid) agree
 * with the search over (cell, keys held): status, solvable, keys_reached,
 * steps, and an order that works. */
TEST(hostile_solve_random_against_reference)
{
    static const uint8_t tiles[] = {DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_CORRIDOR,
                                    DG_TILE_WALL,  DG_TILE_DOOR,  DG_TILE_DOOR_LOCKED,
                                    DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_SECRET};
    dg_rng rng;
    dg_rng_seed(&rng, 28, 0);
    int disagree = 0, solvable = 0, invalid = 0;
    for (int run = 0; run < 1500 && !disagree; run++)
    {
        int32_t w = dg_rng_range(&rng, 1, 9), h = dg_rng_range(&rng, 1, 9), n = w * h;
        uint8_t cells[81];
        dg_grid g;
        dg_grid_init(&g, cells, w, h, 0);
        for (int32_t i = 0; i < n; i++)
            cells[i] = tiles[dg_rng_range(&rng, 0, 8)];
        dg_marker marks[12];
        int32_t count = dg_rng_range(&rng, 0, 12);
        for (int32_t i = 0; i < count; i++)
        {
            dg_marker *m = &marks[i];
            memset(m, 0, sizeof *m);
            int32_t c = dg_rng_range(&rng, 0, n - 1), lock = dg_rng_range(&rng, 0, 1);
            m->pos = (dg_point){c % w, c / w};
            if (dg_rng_range(&rng, 0, 40) == 0)
                m->pos.x = w; /* off the grid */
            m->kind = lock ? DG_MARKER_LOCK : DG_MARKER_KEY;
            m->room = -1;
            const char *word = lock ? "lock" : "key";
            int32_t number = dg_rng_range(&rng, 1, 4), style = dg_rng_range(&rng, 0, 6);
            if (style < 4) /* "key N"; else "key 0N", "key N0" (N0 > 16 for N > 1), "key" */
                snprintf(m->name, sizeof m->name, "%s %d", word, (int)number);
            else if (style < 6)
                snprintf(m->name, sizeof m->name, style == 4 ? "%s 0%d" : "%s %d0", word, (int)number);
            else
                snprintf(m->name, sizeof m->name, "%s", word);
            if (lock && m->pos.x < w && dg_rng_range(&rng, 0, 3))
                cells[c] = DG_TILE_DOOR_LOCKED;
        }
        dg_result r;
        dg_result_init(&r, NULL);
        int32_t s = dg_rng_range(&rng, 0, n - 1), e = dg_rng_range(&rng, 0, n - 1);
        r.start = (dg_point){s % w, s / w};
        r.exit = (dg_point){e % w, e / w};
        if (dg_rng_range(&rng, 0, 3))
            cells[s] = DG_TILE_FLOOR;
        r.markers = marks;
        r.marker_count = count;
        dg_progress pr;
        dg_status st = dg_solve(&g, &r, &pr, NULL, NULL);
        ref_map m;
        CHECK(ref_map_init(&m, &g, &r));
        ref_verdict v = ref_solve(&m, &r);
        const char *bad = st == DG_OK ? ref_check_order(&m, &r, &pr) : NULL;
        int differs = v.status ? st != DG_E_INVALID
                               : st != DG_OK || pr.solvable != v.solvable ||
                                     pr.keys_reached != v.keys_reached || pr.steps != v.steps || bad;
        CHECKF(!differs, "run %d (%dx%d): status %d, solvable %d/%d, keys %d/%d, steps %d/%d, %s",
               run, (int)w, (int)h, (int)st, (int)pr.solvable, v.solvable, (int)pr.keys_reached,
               (int)v.keys_reached, (int)pr.steps, (int)v.steps, bad ? bad : "order ok");
        disagree += differs;
        solvable += st == DG_OK && pr.solvable;
        invalid += v.status;
        ref_map_free(&m);
    }
    CHECKF(solvable > 200 && invalid > 50, "too few interesting maps: %d solvable, %d refused",
           solvable, invalid);
}

/* A reserved vault: a walled 13x9 block with an inner wall holding two doors
 * (a loop: one may turn secret), a locked door of its own, and a door in its
 * east wall at (x0 + 12, y0 + 4). */
static void draw_vault(uint8_t *cells, uint8_t *mask, int32_t w, int32_t x0, int32_t y0)
{
    for (int32_t y = y0; y < y0 + 9; y++)
        for (int32_t x = x0; x < x0 + 13; x++)
        {
            int edge = x == x0 || y == y0 || x == x0 + 12 || y == y0 + 8;
            cells[y * w + x] = edge || x == x0 + 6 ? DG_TILE_WALL : DG_TILE_FLOOR;
            mask[y * w + x] = 1;
        }
    cells[(y0 + 2) * w + x0 + 6] = DG_TILE_DOOR;
    cells[(y0 + 6) * w + x0 + 6] = DG_TILE_DOOR;
    cells[(y0 + 4) * w + x0 + 6] = DG_TILE_DOOR_LOCKED;
    cells[(y0 + 4) * w + x0 + 12] = DG_TILE_DOOR;
}

/* Item 3: sites with locks and secrets around a reserved vault. Every OK run
 * leaves the vault byte-identical with no key or lock marker in it, and the
 * vault's own locked door does not make the recipe "locked already". */
TEST(hostile_site_locks_leave_reserved_cells)
{
    static const char *const gens[] = {"attach", "chain", "cave", "bsp", "maze", "walk", "scatter"};
    const int32_t w = 80, h = 50, x0 = 30, y0 = 18;
    int ok = 0, locked = 0;
    for (int g = 0; g < 7; g++)
        for (uint64_t seed = 1; seed <= 10; seed++)
        {
            uint8_t *cells = calloc((size_t)(w * h), 1), *mask = calloc((size_t)(w * h), 1);
            uint8_t *before = malloc((size_t)(w * h));
            draw_vault(cells, mask, w, x0, y0);
            memcpy(before, cells, (size_t)(w * h));
            dg_grid grid;
            dg_grid_init(&grid, cells, w, h, 0);
            dg_recipe rc;
            dg_recipe_init(&rc, gens[g], seed, w, h);
            CHECK(dg_recipe_set(&rc, "locks", "4", NULL) == DG_OK);
            CHECK(dg_recipe_set(&rc, "secrets", "1000", NULL) == DG_OK);
            dg_site site;
            dg_site_init(&site);
            site.reserved = mask;
            site.anchor_count = 2;
            site.anchors[0] = (dg_point){x0 + 14, y0 + 4}; /* two cells out of the vault's door */
            site.anchors[1] = (dg_point){5, 5};
            dg_result r;
            dg_result_init(&r, NULL);
            dg_diag d;
            dg_status st = dg_recipe_generate_site(&rc, &site, &grid, NULL, &r, NULL, &d);
            CHECKF(st == DG_OK || st == DG_E_NOSPACE, "%s seed %d: %s", gens[g], (int)seed, d.message);
            CHECKF(st == DG_OK || !strstr(d.message, "locked already"), "%s seed %d: %s", gens[g],
                   (int)seed, d.message);
            int changed = 0, marked = 0;
            for (int32_t i = 0; i < w * h; i++)
                changed += mask[i] && cells[i] != before[i];
            for (int32_t i = 0; st == DG_OK && i < r.marker_count; i++)
            {
                dg_point p = r.markers[i].pos;
                marked += mask[p.y * w + p.x];
                locked += r.markers[i].kind == DG_MARKER_LOCK;
            }
            CHECKF(!changed && !marked, "%s seed %d: %d reserved cells changed, %d markers on them",
                   gens[g], (int)seed, changed, marked);
            ok += st == DG_OK;
            dg_result_free(&r);
            free(cells);
            free(mask);
            free(before);
        }
    CHECKF(ok >= 60 && locked > 0, "%d of 70 sites with locks generated, %d locked doors", ok, locked);
}

/* Item 3, the solver's side: a reserved locked door has no "lock N" marker of
 * the library's, so dg_solve treats it as shut, and the map the site makes is
 * solvable without it (the vault is cut off by its wall ring). */
TEST(hostile_site_reserved_lock_is_shut_for_the_solver)
{
    const int32_t w = 80, h = 50, x0 = 30, y0 = 18;
    uint8_t *cells = calloc((size_t)(w * h), 1), *mask = calloc((size_t)(w * h), 1);
    draw_vault(cells, mask, w, x0, y0);
    dg_grid grid;
    dg_grid_init(&grid, cells, w, h, 0);
    dg_recipe rc;
    dg_recipe_init(&rc, "bsp", 3, w, h);
    CHECK(dg_recipe_set(&rc, "locks", "2", NULL) == DG_OK);
    dg_site site;
    dg_site_init(&site);
    site.reserved = mask;
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_recipe_generate_site(&rc, &site, &grid, NULL, &r, NULL, NULL) == DG_OK);
    dg_progress pr;
    CHECK(dg_solve(&grid, &r, &pr, NULL, NULL) == DG_OK && pr.solvable == 1);
    /* stood inside the vault's west room, the player cannot pass its locked door */
    r.start = (dg_point){x0 + 2, y0 + 4};
    r.exit = (dg_point){x0 + 8, y0 + 4};
    cells[(y0 + 2) * w + x0 + 6] = cells[(y0 + 6) * w + x0 + 6] = DG_TILE_WALL;
    CHECK(dg_solve(&grid, &r, &pr, NULL, NULL) == DG_OK && pr.solvable == 0);
    dg_result_free(&r);
    free(cells);
    free(mask);
}

/* Item 6: an anchor beside a reserved cell (`--reserve 10,10,5,5 --anchor
 * 15,12`) was opened touching it. It is refused, grid untouched; two cells
 * away it is joined and no open cell touches the reserved ones. */
TEST(hostile_anchor_beside_reserved_cell)
{
    const int32_t w = 80, h = 50;
    uint8_t *cells = calloc((size_t)(w * h), 1), *mask = calloc((size_t)(w * h), 1);
    for (int32_t y = 10; y < 15; y++)
        for (int32_t x = 10; x < 15; x++)
        {
            mask[y * w + x] = 1;
            cells[y * w + x] = DG_TILE_USER;
        }
    uint8_t *before = malloc((size_t)(w * h));
    memcpy(before, cells, (size_t)(w * h));
    dg_grid grid;
    dg_grid_init(&grid, cells, w, h, 0);
    dg_site site;
    dg_site_init(&site);
    site.reserved = mask;
    site.anchor_count = 1;
    static const dg_point beside[] = {{15, 12}, {9, 9}, {15, 15}, {12, 9}};
    static const char *const gens[] = {"bsp", "attach", "cave", "maze"};
    for (int g = 0; g < 4; g++)
    {
        dg_recipe rc;
        dg_recipe_init(&rc, gens[g], 7, w, h);
        dg_result r;
        dg_result_init(&r, NULL);
        dg_diag d;
        for (int k = 0; k < 4; k++)
        {
            site.anchors[0] = beside[k];
            CHECK(dg_recipe_generate_site(&rc, &site, &grid, NULL, &r, NULL, &d) == DG_E_INVALID);
            CHECK(strstr(d.message, "touches a reserved cell") != NULL);
            CHECK(memcmp(cells, before, (size_t)(w * h)) == 0);
        }
        site.anchors[0] = (dg_point){16, 12};
        dg_status st = dg_recipe_generate_site(&rc, &site, &grid, NULL, &r, NULL, &d);
        CHECKF(st == DG_OK, "%s: %s", gens[g], d.message);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
            {
                int near = 0;
                for (int32_t yy = y - 1; yy <= y + 1; yy++)
                    for (int32_t xx = x - 1; xx <= x + 1; xx++)
                        near |= xx >= 0 && yy >= 0 && xx < w && yy < h && mask[yy * w + xx];
                CHECKF(mask[y * w + x] || !near || !dg_tile_passable(cells[y * w + x]),
                       "%s: open cell (%d, %d) touches a reserved cell", gens[g], (int)x, (int)y);
            }
        CHECK(dg_tile_passable(cells[12 * w + 16]) && r.start.x == 16 && r.start.y == 12);
        memcpy(cells, before, (size_t)(w * h));
        dg_result_free(&r);
    }
    free(cells);
    free(mask);
    free(before);
}

/* Floors: each floor built alone; floor n's down stairs are floor n + 1's up
 * stairs, cell for cell, on stairs tiles reachable from the floor's start,
 * with a different generator per floor. */
TEST(hostile_floors_line_up)
{
    static const char *const gens[] = {"attach", "cave", "maze", "walk", "bsp", "scatter", "chain"};
    const int32_t floors = 5;
    for (uint64_t master = 1; master <= 3; master++)
    {
        int32_t w = 14 + (int32_t)master * 11, h = 14 + (int32_t)master * 5;
        dg_floor_info prev;
        memset(&prev, 0, sizeof prev);
        for (int32_t f = 0; f < floors; f++)
        {
            uint8_t *cells = calloc((size_t)(w * h), 1);
            dg_grid grid;
            dg_grid_init(&grid, cells, w, h, 0);
            dg_recipe rc;
            dg_recipe_init(&rc, gens[(f + (int)master) % 7], master, w, h);
            dg_result r;
            dg_result_init(&r, NULL);
            dg_floor_info info;
            dg_diag d;
            dg_status st = dg_floor_generate(&rc, f, floors, 1 + (int32_t)master % 3, &grid, NULL,
                                             &r, &info, NULL, &d);
            CHECKF(st == DG_OK, "master %d floor %d: %s", (int)master, (int)f, d.message);
            if (st != DG_OK)
            {
                free(cells);
                dg_result_free(&r);
                break;
            }
            CHECK(info.up_count == (f > 0 ? 1 + (int32_t)master % 3 : 0));
            CHECK(info.down_count == (f < floors - 1 ? 1 + (int32_t)master % 3 : 0));
            for (int32_t k = 0; f > 0 && k < info.up_count; k++)
                CHECK(info.up[k].x == prev.down[k].x && info.up[k].y == prev.down[k].y);
            dg_progress pr;
            CHECK(dg_solve(&grid, &r, &pr, NULL, NULL) == DG_OK && pr.solvable == 1);
            dg_point exit = r.exit;
            for (int32_t k = 0; k < info.down_count + info.up_count; k++) /* each stair reachable */
            {
                r.exit = k < info.down_count ? info.down[k] : info.up[k - info.down_count];
                CHECK(dg_solve(&grid, &r, &pr, NULL, NULL) == DG_OK && pr.solvable == 1);
            }
            r.exit = exit;
            for (int32_t k = 0; k < info.down_count; k++)
                CHECK(dg_grid_get(&grid, info.down[k].x, info.down[k].y) == DG_TILE_STAIRS_DOWN);
            for (int32_t k = 0; k < info.up_count; k++)
                CHECK(dg_grid_get(&grid, info.up[k].x, info.up[k].y) == DG_TILE_STAIRS_UP);
            prev = info;
            dg_result_free(&r);
            free(cells);
        }
    }
}
