/* Clearance maps and walkers larger than one cell, against brute force:
 * the clearance of every cell, distance maps and A* paths of 2x2, 3x3 and
 * 4x4 walkers (4- and 8-way, with overlays), and chase steps that never
 * put a footprint on a wall. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

enum { CW = 23, CH = 17, CELLS = CW * CH };

typedef struct cmap {
    uint8_t cells[CELLS];
    uint8_t blocked[CELLS];
    dg_grid grid;
    dg_overlay overlay;
    dg_move move;
} cmap;

/* A room-ish random map: open cells with scattered walls and, optionally,
 * a few blocked cells in an overlay. */
static void cmap_make(cmap *m, uint64_t seed, int with_overlay, int neighbours, int size)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 77);
    int32_t wall_permille = 60 + (int32_t)(seed % 5) * 40;
    for (int32_t i = 0; i < CELLS; i++)
    {
        m->cells[i] = dg_rng_chance(&rng, wall_permille) ? DG_TILE_WALL : DG_TILE_FLOOR;
        m->blocked[i] = with_overlay && dg_rng_chance(&rng, 30);
    }
    dg_grid_init(&m->grid, m->cells, CW, CH, 0);
    memset(&m->overlay, 0, sizeof m->overlay);
    m->overlay.flags = DG_OVERLAY_BLOCKED;
    m->overlay.cells = CELLS;
    m->overlay.blocked = m->blocked;
    dg_move_defaults(&m->move);
    m->move.neighbours = neighbours;
    m->move.size = size;
    m->move.overlay = with_overlay ? &m->overlay : NULL;
}

static int open_at(const cmap *m, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < CW && y < CH && dg_tile_passable(m->cells[y * CW + x]) &&
           !(m->move.overlay && m->blocked[y * CW + x]);
}

static int fits(const cmap *m, int32_t x, int32_t y, int32_t n)
{
    for (int32_t dy = 0; dy < n; dy++)
        for (int32_t dx = 0; dx < n; dx++)
            if (!open_at(m, x + dx, y + dy))
                return 0;
    return 1;
}

static int32_t brute_clearance(const cmap *m, int32_t x, int32_t y)
{
    int32_t n = 0;
    while (n < 255 && fits(m, x, y, n + 1))
        n++;
    return n;
}

/* Breadth-first distances of a size-n walker from one source (open as an end). */
static void brute_distances(const cmap *m, dg_point src, int32_t n, int32_t *dist)
{
    static const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    int32_t queue[CELLS], head = 0, tail = 0;
    for (int32_t i = 0; i < CELLS; i++)
        dist[i] = DG_UNREACHABLE;
    dist[src.y * CW + src.x] = 0;
    queue[tail++] = src.y * CW + src.x;
    while (head < tail)
    {
        int32_t c = queue[head++], x = c % CW, y = c / CW;
        for (int d = 0; d < m->move.neighbours; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (!fits(m, nx, ny, n) || dist[ny * CW + nx] != DG_UNREACHABLE)
                continue;
            if (d >= 4 && !(fits(m, nx, y, n) || (nx == src.x && y == src.y)))
                continue;
            if (d >= 4 && !(fits(m, x, ny, n) || (x == src.x && ny == src.y)))
                continue;
            dist[ny * CW + nx] = dist[c] + 1;
            queue[tail++] = ny * CW + nx;
        }
    }
}

static dg_point open_cell(const cmap *m, uint64_t seed)
{
    for (int32_t k = 0; k < CELLS; k++)
    {
        int32_t i = (int32_t)((seed * 7919u + (uint64_t)k * 31u) % CELLS);
        if (dg_tile_passable(m->cells[i]))
            return (dg_point){i % CW, i / CW};
    }
    return (dg_point){-1, -1};
}

TEST(clearance_equals_brute_force)
{
    static uint8_t out[CELLS];
    cmap m;
    for (uint64_t seed = 1; seed <= 60; seed++)
    {
        cmap_make(&m, seed, (int)(seed & 1), 4, 1);
        m.move.size = (int32_t)(seed % 4); /* ignored by the clearance map */
        CHECK(dg_clearance(&m.grid, &m.move, out, CELLS, NULL) == DG_OK);
        int32_t bad = 0;
        for (int32_t y = 0; y < CH; y++)
            for (int32_t x = 0; x < CW; x++)
                bad += out[y * CW + x] != brute_clearance(&m, x, y);
        CHECKF(bad == 0, "seed %llu: %d cells differ", (unsigned long long)seed, (int)bad);
    }
    /* an open map: the corner's clearance is the shorter side, capped at 255 */
    static uint8_t big_cells[300 * 280], big_out[300 * 280];
    dg_grid big;
    memset(big_cells, DG_TILE_FLOOR, sizeof big_cells);
    dg_grid_init(&big, big_cells, 300, 280, 0);
    CHECK(dg_clearance(&big, NULL, big_out, sizeof big_out, NULL) == DG_OK);
    CHECK(big_out[0] == 255 && big_out[299] == 1 && big_out[279 * 300] == 1);
    CHECK(big_out[(280 - 3) * 300 + 10] == 3);
}

TEST(clearance_bad_input_leaves_output_alone)
{
    static uint8_t out[CELLS];
    cmap m;
    dg_diag diag;
    cmap_make(&m, 3, 0, 4, 1);
    memset(out, 0xAB, sizeof out);
    CHECK(dg_clearance(&m.grid, &m.move, out, CELLS - 1, &diag) == DG_E_BUFFER);
    CHECK(dg_clearance(&m.grid, &m.move, NULL, CELLS, &diag) == DG_E_NULL);
    CHECK(dg_clearance(NULL, &m.move, out, CELLS, &diag) != DG_OK);
    m.move.size = DG_CREATURE_SIZE_MAX + 1;
    CHECK(dg_clearance(&m.grid, &m.move, out, CELLS, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "size") != NULL);
    m.move.size = -1;
    CHECK(dg_clearance(&m.grid, &m.move, out, CELLS, &diag) == DG_E_INVALID);
    for (int32_t i = 0; i < CELLS; i++)
        CHECK(out[i] == 0xAB);
    int32_t labels[CELLS];
    m.move.size = 2;
    CHECK(dg_regions(&m.grid, &m.move, labels, CELLS, NULL, 0, NULL, NULL, &diag) == DG_E_INVALID);
    m.move.size = 0; /* 0 is one cell, as a zeroed struct from an older program */
    CHECK(dg_regions(&m.grid, &m.move, labels, CELLS, NULL, 0, NULL, NULL, &diag) == DG_OK);
}

TEST(large_walkers_distance_maps_equal_brute_force)
{
    static int32_t got[CELLS], want[CELLS];
    cmap m;
    dg_path_workspace *ws = NULL;
    CHECK(dg_path_workspace_create(CW, CH, NULL, &ws) == DG_OK);
    int32_t compared = 0;
    for (uint64_t seed = 1; seed <= 90; seed++)
        for (int32_t n = 1; n <= 4; n++)
        {
            cmap_make(&m, seed, (int)(seed % 3 == 0), seed & 1 ? 8 : 4, n);
            dg_point src = open_cell(&m, seed);
            if (src.x < 0)
                continue;
            CHECK(dg_distance_map(&m.grid, &m.move, &src, 1, 0, got, CELLS, ws, NULL, NULL) ==
                  DG_OK);
            brute_distances(&m, src, n, want);
            int32_t bad = 0;
            for (int32_t i = 0; i < CELLS; i++)
                bad += got[i] != want[i];
            CHECKF(bad == 0, "seed %llu size %d: %d cells differ", (unsigned long long)seed,
                   (int)n, (int)bad);
            compared++;
        }
    CHECK(compared > 300);
    dg_path_workspace_free(ws);
}

TEST(large_walkers_paths_keep_their_footprint_off_walls)
{
    static int32_t want[CELLS];
    static dg_point path[CELLS];
    cmap m;
    int32_t found = 0, refused = 0;
    for (uint64_t seed = 1; seed <= 240; seed++)
    {
        int32_t n = 2 + (int32_t)(seed % 3);
        cmap_make(&m, seed, (int)(seed % 4 == 0), 4, n);
        dg_point from = open_cell(&m, seed), to = open_cell(&m, seed * 13 + 5);
        if (from.x < 0 || to.x < 0 || (from.x == to.x && from.y == to.y))
            continue;
        brute_distances(&m, from, n, want);
        int32_t length = 0, cost = 0;
        dg_status st = dg_path_find(&m.grid, &m.move, from, to, NULL, path, CELLS, &length,
                                    &cost, NULL);
        int32_t expect = want[to.y * CW + to.x];
        /* the goal is open as a search end: a walker reaches it from any cell that fits */
        int32_t best = DG_UNREACHABLE;
        for (int d = 0; d < 4 && expect == DG_UNREACHABLE; d++)
        {
            static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
            int32_t px = to.x + dx[d], py = to.y + dy[d];
            if (px < 0 || py < 0 || px >= CW || py >= CH || want[py * CW + px] == DG_UNREACHABLE)
                continue;
            if (best == DG_UNREACHABLE || want[py * CW + px] + 1 < best)
                best = want[py * CW + px] + 1;
        }
        if (expect == DG_UNREACHABLE)
            expect = best;
        if (expect == DG_UNREACHABLE)
        {
            CHECKF(st == DG_E_NOPATH, "seed %llu size %d: %s", (unsigned long long)seed, (int)n,
                   dg_status_str(st));
            refused++;
            continue;
        }
        CHECKF(st == DG_OK && cost == expect, "seed %llu size %d: %s, cost %d, want %d",
               (unsigned long long)seed, (int)n, dg_status_str(st), (int)cost, (int)expect);
        for (int32_t k = 1; st == DG_OK && k + 1 < length; k++)
            CHECK(fits(&m, path[k].x, path[k].y, n));
        found++;
    }
    CHECKF(found > 40 && refused > 0, "found %d, refused %d", (int)found, (int)refused);
}

TEST(large_walkers_chase_steps_fit)
{
    static int32_t approach[CELLS];
    cmap m;
    int32_t moved = 0;
    for (uint64_t seed = 1; seed <= 60; seed++)
    {
        cmap_make(&m, seed, 0, 8, 2);
        dg_point target = open_cell(&m, seed), monsters[3];
        int32_t count = 0;
        for (int32_t i = (int32_t)(seed * 53 % CELLS); i < CELLS && count < 1; i += 37)
            if (fits(&m, i % CW, i / CW, 2) && (i % CW != target.x || i / CW != target.y))
                monsters[count++] = (dg_point){i % CW, i / CW};
        if (target.x < 0 || count == 0)
            continue;
        CHECK(dg_distance_map(&m.grid, &m.move, &target, 1, 0, approach, CELLS, NULL, NULL,
                              NULL) == DG_OK);
        dg_chase chase = {approach, CELLS, DG_CHASE_APPROACH, monsters, count, NULL, 0};
        dg_point steps[3];
        for (int turn = 0; turn < 12; turn++)
        {
            dg_diag diag;
            dg_status st = dg_chase_step(&m.grid, &m.move, &chase, NULL, steps, 3, &diag);
            CHECKF(st == DG_OK, "seed %llu: %s", (unsigned long long)seed, diag.message);
            for (int32_t k = 0; k < count; k++)
            {
                int at_target = steps[k].x == target.x && steps[k].y == target.y;
                CHECK(at_target || fits(&m, steps[k].x, steps[k].y, 2));
                moved += steps[k].x != monsters[k].x || steps[k].y != monsters[k].y;
                monsters[k] = steps[k];
            }
        }
    }
    CHECK(moved > 50);
}
