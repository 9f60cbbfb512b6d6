/* Maze generator: properties over many seeds and parameter sets (the quality
 * contract, the lattice, what each option does), golden hashes, bad input,
 * determinism and the smallest boards. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

typedef struct maze_case {
    const char *name;
    int32_t width, height;
    int seeds;
    dg_maze_params p;
} maze_case;

static int maze_cases(maze_case *cases)
{
    int n = 0;
    maze_case *c;
#define MAZE_CASE(label, w, h, s) \
    (c = &cases[n++], c->name = label, c->width = w, c->height = h, c->seeds = s, dg_maze_defaults(&c->p))

    MAZE_CASE("defaults 80x25", 80, 25, 300);
    MAZE_CASE("defaults, smallest wide", 9, 5, 200);
    MAZE_CASE("defaults, smallest tall", 5, 9, 200);
    MAZE_CASE("defaults, odd size", 37, 22, 200);
    MAZE_CASE("perfect backtracker", 41, 21, 200);
    c->p.layout = DG_MAZE_LAYOUT_PERFECT;
    MAZE_CASE("perfect prim, centre start", 40, 30, 200);
    c->p.layout = DG_MAZE_LAYOUT_PERFECT, c->p.newest = 0, c->p.start = DG_MAZE_START_CENTRE;
    MAZE_CASE("perfect division", 51, 31, 200);
    c->p.layout = DG_MAZE_LAYOUT_PERFECT, c->p.algorithm = DG_MAZE_DIVISION;
    MAZE_CASE("perfect braided, width 2", 60, 40, 200);
    c->p.layout = DG_MAZE_LAYOUT_PERFECT, c->p.braid = 1000, c->p.corridor_width = 2;
    MAZE_CASE("rooms, width 3", 90, 60, 150);
    c->p.corridor_width = 3, c->p.room_min_w = c->p.room_min_h = 7;
    c->p.room_max_w = 19, c->p.room_max_h = 11;
    MAZE_CASE("rooms, division, dead ends kept", 70, 40, 200);
    c->p.algorithm = DG_MAZE_DIVISION, c->p.dead_ends = 0;
    MAZE_CASE("rooms, tree of doors", 70, 40, 200);
    c->p.extra_doors = 0;
    MAZE_CASE("rooms, tiny rooms, many tries, half pruned", 60, 35, 200);
    c->p.room_min_w = c->p.room_min_h = 1, c->p.room_max_w = c->p.room_max_h = 3;
    c->p.room_tries = 500, c->p.dead_ends = 500, c->p.braid = 300, c->p.extra_doors = 1000;
#undef MAZE_CASE
    return n;
}

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

/* Tiles are the five the maze writes; every open tile has walls all round
 * (no rock among its eight neighbours); door tiles are the result's doors. */
static void check_tiles(const maze_case *k, const dg_grid *g, const dg_result *r)
{
    int32_t doors = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            CHECKF(t <= DG_TILE_DOOR, "%s: tile %d", k->name, (int)t);
            doors += t == DG_TILE_DOOR;
            if (!dg_tile_passable(t))
                continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    CHECK(dg_grid_get(g, x + dx, y + dy) != DG_TILE_VOID);
        }
    CHECK(doors == r->door_count);
    for (int32_t i = 0; i < r->door_count; i++)
    {
        const dg_door *d = &r->doors[i];
        CHECK(dg_grid_get(g, d->pos.x, d->pos.y) == DG_TILE_DOOR);
        CHECK(d->a.kind == DG_REF_ROOM && d->a.index >= 0 && d->a.index < r->room_count);
        CHECK(d->b.kind == DG_REF_NONE || (d->b.kind == DG_REF_ROOM && d->b.index >= 0 &&
                                           d->b.index < r->room_count && d->b.index != d->a.index));
    }
}

/* Rooms: on the lattice, inside the grid, all floor, never overlapping, walled. */
static void check_rooms(const maze_case *k, const dg_grid *g, const dg_result *r)
{
    int32_t period = k->p.corridor_width + 1;
    int32_t cols = (g->width - 1) / period, rows = (g->height - 1) / period;
    int32_t ox = (g->width - 1 - cols * period) / 2, oy = (g->height - 1 - rows * period) / 2;
    if (k->p.layout == DG_MAZE_LAYOUT_PERFECT)
        CHECK(r->room_count == 0 && r->metrics.requested == 0);
    else
        CHECK(r->room_count >= 2);
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        CHECK((q.x - ox - 1) % period == 0 && (q.y - oy - 1) % period == 0);
        CHECK((q.w + 1) % period == 0 && (q.h + 1) % period == 0);
        CHECK(q.w >= k->p.room_min_w && q.h >= k->p.room_min_h);
        CHECK(r->rooms[i].cells == q.w * q.h && r->rooms[i].kind == DG_ROOM_NORMAL);
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                CHECK(dg_grid_get(g, x, y) == DG_TILE_FLOOR);
        for (int32_t x = q.x - 1; x <= q.x + q.w; x++) /* a wall ring, doors in it */
        {
            uint8_t a = dg_grid_get(g, x, q.y - 1), b = dg_grid_get(g, x, q.y + q.h);
            CHECK((a == DG_TILE_WALL || a == DG_TILE_DOOR) && (b == DG_TILE_WALL || b == DG_TILE_DOOR));
        }
        for (int32_t j = 0; j < i; j++)
        {
            dg_rect o = r->rooms[j].rect;
            CHECK(q.x >= o.x + o.w || o.x >= q.x + q.w || q.y >= o.y + o.h || o.y >= q.y + q.h);
        }
    }
}

/* Width w: every corridor tile lies in a w x w square of open tiles. */
static void check_width(const dg_grid *g, int32_t w)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (dg_grid_get(g, x, y) != DG_TILE_CORRIDOR)
                continue;
            int in_square = 0;
            for (int32_t sy = y - w + 1; sy <= y && !in_square; sy++)
                for (int32_t sx = x - w + 1; sx <= x && !in_square; sx++)
                {
                    int all = 1;
                    for (int32_t yy = sy; yy < sy + w && all; yy++)
                        for (int32_t xx = sx; xx < sx + w && all; xx++)
                            all = is_open(g, xx, yy) && dg_grid_get(g, xx, yy) != DG_TILE_DOOR;
                    in_square = all;
                }
            CHECK(in_square);
        }
}

static void check_contract(const maze_case *k, const dg_grid *g, const dg_result *r)
{
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 && q.dead_doors == 0,
           "%s: border %d, unreachable %d, doorless %d, dead doors %d", k->name, (int)q.border_open,
           (int)q.unreachable, (int)q.doorless_joins, (int)q.dead_doors);
    CHECK(q.start_in_room && q.exit_in_room && !q.start_is_exit);
    if (k->p.dead_ends == 1000 || k->p.layout == DG_MAZE_LAYOUT_PERFECT)
        CHECKF(q.exit_rank_permille <= 100, "%s: exit rank %d", k->name, (int)q.exit_rank_permille);
    if (k->p.layout == DG_MAZE_LAYOUT_PERFECT)
        CHECK(q.exit_rank_permille == 0);
}

/* Per-map checks of what the options promise. */
static void check_options(const maze_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_maze_params *p = &k->p;
    const dg_metrics *m = &r->metrics;
    int32_t period = p->corridor_width + 1;
    int32_t cols = (g->width - 1) / period, rows = (g->height - 1) / period;
    int32_t ox = (g->width - 1 - cols * period) / 2, oy = (g->height - 1 - rows * period) / 2;
    if (p->layout == DG_MAZE_LAYOUT_PERFECT && p->braid == 0)
    {
        /* a spanning tree of the whole lattice: every cell, cells - 1 passages, no loop */
        int64_t cells = (int64_t)cols * rows, w = p->corridor_width;
        CHECK(m->loops == 0);
        CHECK(m->floor_cells == cells * w * w + (cells - 1) * w);
    }
    if (p->layout == DG_MAZE_LAYOUT_PERFECT)
    {
        int32_t cx = p->start == DG_MAZE_START_CENTRE ? cols / 2 : 0;
        int32_t cy = p->start == DG_MAZE_START_CENTRE ? rows / 2 : 0;
        CHECK(r->start.x == ox + 1 + cx * period + (p->corridor_width - 1) / 2);
        CHECK(r->start.y == oy + 1 + cy * period + (p->corridor_width - 1) / 2);
    }
    if (p->braid == 1000 && p->corridor_width == 1)
        CHECK(m->dead_ends == 0);
    if (p->layout == DG_MAZE_LAYOUT_ROOMS && p->dead_ends == 1000 && p->room_min_w >= 3 &&
        p->room_min_h >= 3)
        CHECK(m->dead_ends == 0);
    if (p->layout == DG_MAZE_LAYOUT_ROOMS && p->extra_doors == 0 && p->braid == 0)
        CHECK(m->loops == 0); /* rooms and pruned trees joined by a spanning tree */
    if (p->layout == DG_MAZE_LAYOUT_ROOMS)
    {
        CHECK(m->placed == r->room_count && m->attempts <= m->requested);
        CHECK(m->failures <= m->attempts && m->stopped_early == 0);
        if (p->room_tries > 0)
            CHECK(m->requested == p->room_tries);
    }
    if (p->corridor_width > 1)
        check_width(g, p->corridor_width);
}

typedef struct maze_tally {
    int64_t dead_ends, loops, straight_cells, maps;
} maze_tally;

/* Corridor tiles open on exactly two opposite sides. */
static int32_t straight_cells(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 1; y < g->height - 1; y++)
        for (int32_t x = 1; x < g->width - 1; x++)
        {
            if (dg_grid_get(g, x, y) != DG_TILE_CORRIDOR)
                continue;
            int a = is_open(g, x, y - 1), b = is_open(g, x + 1, y), c = is_open(g, x, y + 1),
                d = is_open(g, x - 1, y);
            n += (a && c && !b && !d) || (b && d && !a && !c);
        }
    return n;
}

static maze_tally run_case(const maze_case *k, uint64_t seed0)
{
    maze_tally t = {0, 0, 0, 0};
    guarded_grid gg;
    CHECK(guard_make(&gg, k->width, k->height, 3));
    dg_result r;
    dg_result_init(&r, NULL);
    for (int s = 0; s < k->seeds; s++)
    {
        dg_status st = dg_maze_generate(&gg.grid, &k->p, seed0 + (uint64_t)s * 7919u, &r, NULL, NULL);
        CHECKF(st == DG_OK, "%s seed %d: %s", k->name, s, dg_status_str(st));
        if (st != DG_OK)
            break;
        CHECK(guard_intact(&gg));
        const char *why = hard_validate(&gg.grid, &r);
        CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
        CHECK(grid_connected(&gg.grid) && r.metrics.regions == 1);
        check_tiles(k, &gg.grid, &r);
        check_rooms(k, &gg.grid, &r);
        check_contract(k, &gg.grid, &r);
        check_options(k, &gg.grid, &r);
        t.dead_ends += r.metrics.dead_ends;
        t.loops += r.metrics.loops;
        t.straight_cells += straight_cells(&gg.grid);
        t.maps++;
    }
    dg_result_free(&r);
    guard_free(&gg);
    return t;
}

TEST(maze_properties_over_many_seeds)
{
    maze_case cases[16];
    int n = maze_cases(cases);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        maze_tally t = run_case(&cases[k], 1);
        if (cases[k].p.dead_ends < 1000 && cases[k].p.braid < 1000)
            CHECKF(t.dead_ends > 0, "%s: no dead ends kept", cases[k].name);
        if (cases[k].p.extra_doors == 1000 || cases[k].p.braid > 0)
            CHECKF(t.loops > t.maps, "%s: only %d loops", cases[k].name, (int)t.loops);
    }
}

/* newest: the backtracker (1000) leaves far fewer dead ends than random
 * selection (0); straight: 1000 makes more straight corridor than 0. */
TEST(maze_options_shape_the_maze)
{
    maze_case k;
    memset(&k, 0, sizeof k);
    k.name = "perfect";
    k.width = 61, k.height = 41, k.seeds = 40;
    dg_maze_defaults(&k.p);
    k.p.layout = DG_MAZE_LAYOUT_PERFECT;
    k.p.straight = 0;
    maze_tally backtracker = run_case(&k, 5);
    k.p.newest = 0;
    maze_tally prim = run_case(&k, 5);
    k.p.newest = 500;
    maze_tally mixed = run_case(&k, 5);
    CHECKF(prim.dead_ends > 2 * backtracker.dead_ends, "dead ends: prim %d, backtracker %d",
           (int)prim.dead_ends, (int)backtracker.dead_ends);
    CHECKF(mixed.dead_ends > 2 * backtracker.dead_ends,
           "dead ends: mixed %d", (int)mixed.dead_ends);
    k.p.newest = 1000;
    k.p.straight = 1000;
    maze_tally straight = run_case(&k, 5);
    CHECKF(straight.straight_cells > backtracker.straight_cells * 5 / 4, "straight %d vs %d",
           (int)straight.straight_cells, (int)backtracker.straight_cells);
    k.p.braid = 500; /* braid opens about half of the dead ends */
    k.p.straight = 0;
    maze_tally half = run_case(&k, 5);
    CHECKF(half.loops > 0 && half.dead_ends < backtracker.dead_ends * 3 / 4, "braid: %d loops, %d dead ends",
           (int)half.loops, (int)half.dead_ends);
    /* rooms: pruning removes dead ends, keeping them keeps many */
    dg_maze_defaults(&k.p);
    k.p.dead_ends = 0;
    maze_tally kept = run_case(&k, 5);
    k.p.dead_ends = 500;
    maze_tally some = run_case(&k, 5);
    CHECKF(kept.dead_ends > some.dead_ends && some.dead_ends > 0, "kept %d, some %d",
           (int)kept.dead_ends, (int)some.dead_ends);
}

static uint64_t maze_hash(const maze_case *k, uint64_t seed, int32_t pad, uint64_t *result_hash,
                          int with_result)
{
    return gen_hash("maze", &k->p, k->width, k->height, seed, pad, result_hash, with_result);
}

TEST(maze_golden_hashes)
{
    static const uint64_t want[12] = {
        0x8b96b66c4232f97fULL, 0x7d76d62916689bf9ULL, 0xd405b45413299e6dULL,
        0x02eeb8fbe2a75401ULL, 0xcad6a0c11370a5efULL, 0xf9b74a358dd75cf1ULL,
        0xf55a5fe841575bf5ULL, 0x1e654d2e629229b3ULL, 0x4afa40efacd8c83cULL,
        0x8ee568527b672747ULL, 0xb098a37fa8cb1c19ULL, 0x54d6e50050c4a43fULL,
    };
    maze_case cases[16];
    int n = maze_cases(cases);
    CHECK(n == 12);
    for (int k = 0; k < n && k < 12; k++)
    {
        uint64_t h = maze_hash(&cases[k], 42, 0, NULL, 1);
        if (getenv("DG_MAZE_PRINT_GOLDEN"))
            fprintf(stderr, "0x%016llxULL,\n", (unsigned long long)h);
        CHECK_EQ_U64(h, want[k]);
    }
}

TEST(maze_is_deterministic_and_stride_blind)
{
    maze_case cases[16];
    int n = maze_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const char *why = gen_deterministic("maze", &cases[k].p, cases[k].width, cases[k].height,
                                            cases[k].width > 9 && cases[k].height > 9);
        CHECKF(!why, "case %d: %s", k, why);
    }
}

/* One bad field at a time: the status, a message naming it, grid and result untouched. */
typedef struct maze_bad {
    const char *field;
    void (*apply)(dg_maze_params *p);
} maze_bad;

#define BAD(name, body) \
    static void bad_##name(dg_maze_params *p) { body; }
BAD(braid, p->braid = -5)
BAD(max_w_order, (p->room_min_w = 9, p->room_max_w = 5))
BAD(max_w_huge, p->room_max_w = INT32_MAX)
BAD(min_h_neg, p->room_min_h = -3)
BAD(max_h_order, (p->room_min_h = 5, p->room_max_h = 3))
#undef BAD

TEST(maze_rejects_bad_parameters)
{
    /* each parameter's min - 1 and max + 1, NULL params and broken grids:
     * every_generator_rejects_each_parameter_out_of_range */
    static const maze_bad bad[] = {
        {"braid", bad_braid},               {"room_max_w", bad_max_w_order},
        {"room_max_w", bad_max_w_huge},     {"room_min_h", bad_min_h_neg},
        {"room_max_h", bad_max_h_order},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_maze_params good;
    dg_maze_defaults(&good);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_maze_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_maze_params p = good;
        bad[i].apply(&p);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_maze_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == DG_E_INVALID, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECKF(d.status == st && strstr(d.message, bad[i].field) != NULL, "case %d: %s", (int)i,
               d.message);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    }
    /* too big rooms or passages for the board: DG_E_NOSPACE naming the smallest grid */
    dg_diag d;
    dg_maze_params p = good;
    p.room_min_w = p.room_max_w = 41;
    p.room_min_h = p.room_max_h = 13;
    CHECK(dg_maze_generate(&gg.grid, &p, 1, &r, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "smallest grid") != NULL);
    p = good;
    p.corridor_width = 40, p.layout = DG_MAZE_LAYOUT_PERFECT;
    CHECK(dg_maze_generate(&gg.grid, &p, 1, &r, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "smallest grid") != NULL);
    CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

/* At the defaults: 9x5 and 5x9 (two 3x3 rooms on a 4x2 lattice) are the
 * smallest boards; one tile less on the long side is DG_E_NOSPACE. The
 * perfect maze needs two lattice cells: 5x3 and 3x5. */
TEST(maze_smallest_boards)
{
    static const struct { int32_t w, h, layout; dg_status want; } sizes[] = {
        {9, 5, 0, DG_OK},          {5, 9, 0, DG_OK},          {8, 5, 0, DG_E_NOSPACE},
        {9, 4, 0, DG_E_NOSPACE},   {5, 8, 0, DG_E_NOSPACE},   {8, 8, 0, DG_E_NOSPACE},
        {10, 6, 0, DG_OK},         {5, 3, 1, DG_OK},          {3, 5, 1, DG_OK},
        {4, 4, 1, DG_E_NOSPACE},   {1, 1, 1, DG_E_NOSPACE},   {1, 1, 0, DG_E_NOSPACE},
    };
    dg_maze_params p;
    dg_maze_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        dg_grid_fill(&gg.grid, 0x5A);
        p.layout = sizes[i].layout;
        for (uint64_t seed = 1; seed <= 50; seed++)
        {
            dg_diag d;
            dg_status st = dg_maze_generate(&gg.grid, &p, seed, &r, NULL, &d);
            CHECKF(st == sizes[i].want, "%dx%d: %s", (int)sizes[i].w, (int)sizes[i].h, d.message);
            if (st != DG_OK)
            {
                for (int32_t y = 0; y < gg.grid.height; y++)
                    for (int32_t x = 0; x < gg.grid.width; x++)
                        CHECK(dg_grid_get(&gg.grid, x, y) == 0x5A);
                break;
            }
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECK(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 &&
                  q.dead_doors == 0 && !q.start_is_exit && q.exit_rank_permille <= 100);
            CHECK(sizes[i].layout ? r.room_count == 0 : r.room_count >= 2);
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Room tries and the check budget: a million tries of huge rooms on a large
 * board stop on the documented budget, quickly. */
TEST(maze_room_tries_are_bounded)
{
    dg_maze_params p;
    dg_maze_defaults(&p);
    p.room_tries = DG_MAZE_MAX_ROOM_TRIES;
    p.room_min_w = p.room_min_h = 1;
    p.room_max_w = p.room_max_h = 400;
    guarded_grid gg;
    CHECK(guard_make(&gg, 301, 201, 0));
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_maze_generate(&gg.grid, &p, 3, &r, NULL, NULL) == DG_OK);
    CHECK(r.metrics.stopped_early == 1 && r.metrics.attempts < r.metrics.requested);
    CHECK(r.metrics.requested == DG_MAZE_MAX_ROOM_TRIES && r.room_count >= 2);
    dg_result_free(&r);
    guard_free(&gg);
}
