/* Drunkard's walk and tunnelers (walk): properties over many seeds and
 * parameter sets, symmetry, each option, bad input, determinism, golden
 * hashes, allocation failures and the work bound. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const int32_t WDX[4] = {0, 1, 0, -1}, WDY[4] = {-1, 0, 1, 0};

typedef struct walk_case {
    const char *name;
    int32_t width, height;
    int seeds;
    dg_walk_params p;
} walk_case;

/* The parameter sets the properties run over. */
static int walk_cases(walk_case *cases)
{
    int n = 0;
    walk_case *c;

    c = &cases[n++];
    c->name = "defaults 80x25", c->width = 80, c->height = 25, c->seeds = 300;
    dg_walk_defaults(&c->p);

    c = &cases[n++];
    c->name = "drunk 80x50", c->width = 80, c->height = 50, c->seeds = 150;
    dg_walk_defaults(&c->p);
    c->p.mode = DG_WALK_DRUNK, c->p.target_floor = 450, c->p.room_chance = 20;

    c = &cases[n++];
    c->name = "mirror x, odd width", c->width = 61, c->height = 30, c->seeds = 150;
    dg_walk_defaults(&c->p);
    c->p.symmetry = DG_WALK_SYM_X;

    c = &cases[n++];
    c->name = "mirror y, drunk, even height", c->width = 50, c->height = 40, c->seeds = 150;
    dg_walk_defaults(&c->p);
    c->p.symmetry = DG_WALK_SYM_Y, c->p.mode = DG_WALK_DRUNK, c->p.room_chance = 30;

    c = &cases[n++];
    c->name = "four-fold, many walkers", c->width = 64, c->height = 41, c->seeds = 150;
    dg_walk_defaults(&c->p);
    c->p.symmetry = DG_WALK_SYM_XY, c->p.walkers = 9, c->p.room_chance = 500;

    c = &cases[n++];
    c->name = "long runs, always turn, big rooms", c->width = 90, c->height = 45, c->seeds = 150;
    dg_walk_defaults(&c->p);
    c->p.step_min = 10, c->p.step_max = 30, c->p.turn_chance = 1000;
    c->p.room_min = 8, c->p.room_max = 20, c->p.room_chance = 600;

    c = &cases[n++];
    c->name = "smallest 4x3", c->width = 4, c->height = 3, c->seeds = 100;
    dg_walk_defaults(&c->p);

    c = &cases[n++];
    c->name = "smallest 3x4, four-fold", c->width = 3, c->height = 4, c->seeds = 100;
    dg_walk_defaults(&c->p);
    c->p.symmetry = DG_WALK_SYM_XY;

    c = &cases[n++];
    c->name = "odd 7x5, everything", c->width = 7, c->height = 5, c->seeds = 200;
    dg_walk_defaults(&c->p);
    c->p.target_floor = 1000, c->p.room_chance = 1000, c->p.room_min = 2, c->p.room_max = 50;

    c = &cases[n++];
    c->name = "capped steps", c->width = 80, c->height = 50, c->seeds = 100;
    dg_walk_defaults(&c->p);
    c->p.max_steps = 300;
    return n;
}

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

static int64_t target_cells(const dg_grid *g, const dg_walk_params *p)
{
    int64_t cells = (int64_t)g->width * g->height, inner = (int64_t)(g->width - 2) * (g->height - 2);
    int64_t t = cells * p->target_floor / 1000;
    t = t < 2 ? 2 : t;
    return t < inner ? t : inner;
}

/* Tiles, ring, walls, bounding box and floor count. */
static void check_tiles(const walk_case *k, const dg_grid *g, const dg_result *r)
{
    int32_t floor = 0, x0 = g->width, y0 = g->height, x1 = -1, y1 = -1;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            CHECK(t == DG_TILE_VOID || t == DG_TILE_FLOOR || t == DG_TILE_WALL);
            if (t != DG_TILE_FLOOR)
                continue;
            CHECKF(x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1, "%s: floor on the ring",
                   k->name);
            floor++;
            x0 = x < x0 ? x : x0, y0 = y < y0 ? y : y0;
            x1 = x > x1 ? x : x1, y1 = y > y1 ? y : y1;
            for (int dy = -1; dy <= 1; dy++) /* walls all round the floor */
                for (int dx = -1; dx <= 1; dx++)
                    CHECK(dg_grid_get(g, x + dx, y + dy) != DG_TILE_VOID);
        }
    const dg_room *cave = &r->rooms[0];
    CHECK(cave->kind == DG_ROOM_CAVE && cave->parent == -1 && cave->cells == floor);
    CHECK(cave->rect.x == x0 && cave->rect.y == y0 && cave->rect.w == x1 - x0 + 1 &&
          cave->rect.h == y1 - y0 + 1);
    CHECK(r->metrics.placed == floor && r->metrics.floor_cells == floor);
}

static void check_rooms(const walk_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_walk_params *p = &k->p;
    int32_t max_w = p->room_max < g->width - 2 ? p->room_max : g->width - 2;
    int32_t max_h = p->room_max < g->height - 2 ? p->room_max : g->height - 2;
    if (p->room_chance == 0)
        CHECK(r->room_count == 1);
    for (int32_t i = 1; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        CHECK(r->rooms[i].kind == DG_ROOM_NORMAL && r->rooms[i].parent == 0);
        CHECK(r->rooms[i].cells == q.w * q.h);
        CHECKF(q.w <= max_w && q.h <= max_h && (q.w >= p->room_min || q.w == g->width - 2) &&
                   (q.h >= p->room_min || q.h == g->height - 2),
               "%s: room %d is %dx%d", k->name, (int)i, (int)q.w, (int)q.h);
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                CHECK(dg_grid_get(g, x, y) == DG_TILE_FLOOR);
    }
}

/* The grid is its own mirror image on the axes symmetry names. */
static void check_symmetry(const walk_case *k, const dg_grid *g)
{
    int sym = k->p.symmetry;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            if (sym & DG_WALK_SYM_X)
                CHECKF(t == dg_grid_get(g, g->width - 1 - x, y), "%s: not mirrored in x", k->name);
            if (sym & DG_WALK_SYM_Y)
                CHECKF(t == dg_grid_get(g, x, g->height - 1 - y), "%s: not mirrored in y", k->name);
        }
}

/* 1 if p is the centre of one of the dropped rooms (rooms 1..). */
static int at_room_centre(const dg_result *r, dg_point p)
{
    for (int32_t i = 1; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        if (p.x == q.x + q.w / 2 && p.y == q.y + q.h / 2)
            return 1;
    }
    return 0;
}

/* Start at a dropped room's centre (any floor cell without rooms) away from
 * the middle, exit a farthest cell, the whole contract. */
static void check_ends(const walk_case *k, const dg_grid *g, const dg_result *r)
{
    CHECK(dg_tile_passable(dg_grid_get(g, r->start.x, r->start.y)));
    CHECK(r->room_count == 1 || at_room_centre(r, r->start));
    CHECK(r->start_room == 0 && r->exit_room == 0);
    int32_t *dist = grid_walk_from(g, r->start, NULL), best = -1;
    for (int32_t i = 0; i < g->width * g->height; i++)
        best = dist[i] > best ? dist[i] : best;
    CHECK(dist[r->exit.y * g->width + r->exit.x] == best);
    free(dist);
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 && q.dead_doors == 0,
           "%s: border %d unreachable %d doorless %d dead doors %d", k->name, (int)q.border_open,
           (int)q.unreachable, (int)q.doorless_joins, (int)q.dead_doors);
    CHECK(q.start_in_room && q.exit_in_room && !q.start_is_exit && q.exit_rank_permille == 0);
}

/* docs/walk.md: steps <= max_steps, or 33 per cell inside the ring + 32 per walker. */
static int64_t step_bound(const dg_grid *g, const dg_walk_params *p)
{
    if (p->max_steps > 0)
        return p->max_steps;
    return 33 * (int64_t)(g->width - 2) * (g->height - 2) + 32 * (int64_t)p->walkers;
}

static void check_map(const walk_case *k, const guarded_grid *gg, const dg_result *r)
{
    const dg_grid *g = &gg->grid;
    CHECK(guard_intact(gg));
    const char *why = hard_validate(g, r);
    CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
    CHECKF(grid_connected(g) && r->metrics.regions == 1, "%s: not connected", k->name);
    CHECK(r->corridor_count == 0 && r->door_count == 0 && r->room_count >= 1);
    check_tiles(k, g, r);
    check_rooms(k, g, r);
    check_symmetry(k, g);
    check_ends(k, g, r);
    const dg_metrics *m = &r->metrics;
    CHECK(m->requested == target_cells(g, &k->p));
    CHECK(m->attempts <= step_bound(g, &k->p));
    CHECK(m->stopped_early == (m->placed < m->requested));
    if (k->p.max_steps == 0)
        CHECKF(!m->stopped_early, "%s: the automatic bound stopped the walk", k->name);
    else
        CHECK(m->stopped_early ? m->attempts == k->p.max_steps : m->attempts <= k->p.max_steps);
}

TEST(walk_properties_over_many_seeds)
{
    walk_case cases[12];
    memset(cases, 0, sizeof cases);
    int n = walk_cases(cases), maps = 0, capped = 0;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, cases[k].width, cases[k].height, 3));
        int32_t rooms = 0;
        for (int s = 0; s < cases[k].seeds && !test_failures(); s++, maps++)
        {
            dg_diag d;
            dg_status st = dg_walk_generate(&gg.grid, &cases[k].p, (uint64_t)s * 7919u + 1, &r,
                                                NULL, &d);
            CHECKF(st == DG_OK, "%s seed %d: %s", cases[k].name, s, d.message);
            if (st != DG_OK)
                continue;
            check_map(&cases[k], &gg, &r);
            rooms += r.room_count - 1;
            capped += r.metrics.stopped_early;
        }
        if (cases[k].p.room_chance > 0 && cases[k].width > 10)
            CHECKF(rooms > cases[k].seeds, "%s: only %d rooms", cases[k].name, (int)rooms);
        guard_free(&gg);
    }
    CHECK(maps >= 1500 && capped > 50);
    dg_result_free(&r);
}

/* Smallest grids: 4x3 and 3x4 (two cells inside the ring) work at the
 * defaults on every seed; anything with fewer inside cells is DG_E_NOSPACE,
 * grid and result untouched. */
TEST(walk_smallest_grids)
{
    static const struct { int32_t w, h; dg_status want; } sizes[] = {
        {4, 3, DG_OK}, {3, 4, DG_OK}, {3, 3, DG_E_NOSPACE}, {2, 9, DG_E_NOSPACE},
        {9, 2, DG_E_NOSPACE}, {1, 1, DG_E_NOSPACE}, {5, 3, DG_OK}, {3, 17, DG_OK},
    };
    dg_walk_params p;
    dg_walk_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        dg_grid_fill(&gg.grid, 0x5A);
        for (uint64_t seed = 1; seed <= 100; seed++)
        {
            uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
            dg_diag d;
            dg_status st = dg_walk_generate(&gg.grid, &p, seed, &r, NULL, &d);
            CHECKF(st == sizes[i].want, "%dx%d seed %d: %s", (int)sizes[i].w, (int)sizes[i].h,
                   (int)seed, dg_status_str(st));
            if (st != DG_OK)
            {
                CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
                CHECK(d.status == st && strstr(d.message, "4x3 and 3x4") != NULL);
                continue;
            }
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECK(q.border_open == 0 && q.unreachable == 0 && !q.start_is_exit);
            CHECK(q.start_in_room && q.exit_in_room && q.exit_rank_permille <= 100);
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Open 2x2 squares: many in drunk caves, few in tunnels. */
static int32_t open_squares(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y + 1 < g->height; y++)
        for (int32_t x = 0; x + 1 < g->width; x++)
            n += is_open(g, x, y) && is_open(g, x + 1, y) && is_open(g, x, y + 1) &&
                 is_open(g, x + 1, y + 1);
    return n;
}

static uint64_t walk_map(const dg_walk_params *p, int32_t w, int32_t h, uint64_t seed,
                         int32_t pad, dg_result *r)
{
    guarded_grid gg;
    if (!guard_make(&gg, w, h, pad))
        return 0;
    CHECK(dg_walk_generate(&gg.grid, p, seed, r, NULL, NULL) == DG_OK);
    CHECK(guard_intact(&gg));
    uint64_t hash = dg_grid_hash(&gg.grid);
    guard_free(&gg);
    return hash;
}

/* Every option does what it says. */
TEST(walk_options_do_what_they_say)
{
    dg_walk_params p;
    dg_result r;
    dg_result_init(&r, NULL);
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 50, 0));
    int64_t drunk_squares = 0, tunnel_squares = 0;
    for (uint64_t seed = 1; seed <= 40; seed++)
    {
        /* mode: drunk walkers open wide caves, tunnelers narrow tunnels */
        dg_walk_defaults(&p);
        p.room_chance = 0;
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        tunnel_squares += open_squares(&gg.grid);
        CHECK(r.room_count == 1); /* room_chance 0: the cave only */
        p.mode = DG_WALK_DRUNK;
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        drunk_squares += open_squares(&gg.grid);
        /* drunk walkers ignore the tunneler's run and turn settings */
        uint64_t drunk = dg_grid_hash(&gg.grid);
        p.step_min = 1, p.step_max = 40, p.turn_chance = 0;
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK_EQ_U64(dg_grid_hash(&gg.grid), drunk);
        /* target_floor: reached, overshot by at most one step's images */
        for (int32_t t = 100; t <= 700; t += 300)
        {
            dg_walk_defaults(&p);
            p.target_floor = t, p.room_chance = 0;
            CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
            CHECK(r.metrics.requested == 4000 * t / 1000);
            /* the tunneler's dead ends then dig on a few cells to other floor */
            CHECK(r.metrics.floor_cells >= r.metrics.requested &&
                  r.metrics.floor_cells <= r.metrics.requested + r.metrics.requested / 20);
        }
        /* room_chance: rooms, each at most room_max, never below room_min */
        dg_walk_defaults(&p);
        p.room_chance = 1000, p.room_min = 4, p.room_max = 5;
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count > 5);
        for (int32_t i = 1; i < r.room_count; i++)
            CHECK(r.rooms[i].rect.w >= 4 && r.rooms[i].rect.w <= 5 && r.rooms[i].rect.h >= 4 &&
                  r.rooms[i].rect.h <= 5);
        /* max_steps: the walk stops there, short of the target */
        dg_walk_defaults(&p);
        p.max_steps = 50;
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.attempts == 50 && r.metrics.stopped_early == 1);
        CHECK(r.metrics.placed < r.metrics.requested && grid_connected(&gg.grid));
    }
    CHECKF(drunk_squares > 4 * tunnel_squares, "drunk %lld squares, tunnels %lld",
           (long long)drunk_squares, (long long)tunnel_squares);
    guard_free(&gg);

    /* tunneler with turn_chance 0, one walker, no rooms: it never turns, so
     * its first 12 steps are one straight line from the centre */
    dg_walk_defaults(&p);
    p.walkers = 1, p.turn_chance = 0, p.room_chance = 0, p.max_steps = 12;
    CHECK(guard_make(&gg, 31, 31, 0));
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        int straight = 0;
        for (int d = 0; d < 4; d++)
        {
            int ok = 1;
            for (int32_t s = 1; s <= 12; s++)
                ok &= dg_grid_get(&gg.grid, 15 + s * WDX[d], 15 + s * WDY[d]) == DG_TILE_FLOOR;
            straight |= ok;
        }
        CHECKF(straight && r.metrics.floor_cells == 13, "seed %d", (int)seed);
    }
    guard_free(&gg);

    /* walkers: each walker starts at the centre, so with max_steps = walkers
     * every walker takes one step from there */
    dg_walk_defaults(&p);
    p.walkers = 4, p.max_steps = 4, p.mode = DG_WALK_DRUNK, p.room_chance = 0;
    CHECK(guard_make(&gg, 21, 21, 0));
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        CHECK(dg_walk_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        int32_t floor = grid_passable_count(&gg.grid);
        CHECK(floor >= 2 && floor <= 5 && r.metrics.attempts == 4);
        for (int32_t y = 0; y < 21; y++)
            for (int32_t x = 0; x < 21; x++)
                if (is_open(&gg.grid, x, y))
                    CHECK(abs(x - 10) + abs(y - 10) <= 1);
    }
    guard_free(&gg);
    dg_result_free(&r);
}

/* Linear work: steps per carved cell stay small and do not grow with the map. */
TEST(walk_work_is_linear_in_floor)
{
    static const int32_t sizes[][2] = {{80, 25}, {200, 200}, {600, 600}};
    dg_walk_params p;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int mode = 0; mode <= 1; mode++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        {
            dg_walk_defaults(&p);
            p.mode = mode;
            walk_map(&p, sizes[i][0], sizes[i][1], 3, 0, &r);
            int64_t per_100 = 100 * (int64_t)r.metrics.attempts / r.metrics.placed;
            CHECKF(per_100 <= 600, "mode %d %dx%d: %lld steps per 100 cells", mode,
                   (int)sizes[i][0], (int)sizes[i][1], (long long)per_100);
            CHECK(!r.metrics.stopped_early);
        }
    dg_result_free(&r);
}

TEST(walk_is_deterministic_and_stride_blind)
{
    walk_case cases[12];
    memset(cases, 0, sizeof cases);
    int n = walk_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const char *why = gen_deterministic("walk", &cases[k].p, cases[k].width, cases[k].height,
                                            cases[k].width > 10);
        CHECKF(!why, "case %d: %s", k, why);
    }
}

TEST(walk_golden_hashes)
{
    static const uint64_t want[10] = {
        0x821769a4ac044cd2ULL, 0xe1c4e0d32f2ff1deULL, 0xbcd74f77cd0541a0ULL,
        0xaf3d9b004b1a0b33ULL, 0xd0d321becb84c758ULL, 0xcf8d237503c3b6f1ULL,
        0x55c64addb159a28aULL, 0x2bbf7fcbfe095e1aULL, 0x1f0d916d15a9deacULL,
        0x9de1fc48e145e164ULL,
    };
    walk_case cases[12];
    memset(cases, 0, sizeof cases);
    int n = walk_cases(cases);
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && k < 10; k++)
    {
        uint64_t h = walk_map(&cases[k].p, cases[k].width, cases[k].height, 42, 0, &r);
        if (getenv("DG_WALK_PRINT_GOLDEN"))
            fprintf(stderr, "0x%016llxULL,\n", (unsigned long long)h);
        CHECK_EQ_U64(h, want[k]);
    }
    dg_result_free(&r);
}

/* One bad field at a time: the status, a message naming it, grid and result untouched. */
typedef struct walk_bad {
    const char *field;
    void (*apply)(dg_walk_params *p);
} walk_bad;

#define WBAD(name, body) \
    static void wbad_##name(dg_walk_params *p) { body; }
WBAD(step_order, (p->step_min = 6, p->step_max = 5))
WBAD(room_chance, p->room_chance = INT32_MIN)
WBAD(room_order, (p->room_min = 7, p->room_max = 6))

TEST(walk_rejects_bad_parameters)
{
    /* each parameter's min - 1 and max + 1, NULL params and broken grids:
     * every_generator_rejects_each_parameter_out_of_range */
    static const walk_bad bad[] = {
        {"step_min", wbad_step_order},    {"room_chance", wbad_room_chance},
        {"room_min", wbad_room_order},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_walk_params good;
    dg_walk_defaults(&good);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_walk_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_walk_params p = good;
        bad[i].apply(&p);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_walk_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == DG_E_INVALID, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECKF(d.status == st && strstr(d.message, bad[i].field) != NULL, "case %d: %s", (int)i,
               d.message);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
        /* the registry's ranges: what validation accepts (an order is checked on running) */
        dg_recipe rc;
        CHECK(dg_recipe_init(&rc, "walk", 1, 80, 25) == DG_OK);
        dg_status want = bad[i].apply == wbad_step_order || bad[i].apply == wbad_room_order
                             ? DG_OK : DG_E_INVALID;
        CHECK(dg_recipe_from_params(&rc, "walk", &p, sizeof p, 1, 80, 25, NULL) == want);
        if (want == DG_OK)
            CHECK(dg_recipe_generate(&rc, &gg.grid, NULL, &r, NULL, NULL) == DG_E_INVALID);
    }
    CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    CHECK(guard_intact(&gg));
    /* the registry's defaults are the function's */
    dg_walk_params from_table;
    memset(&from_table, 0x77, sizeof from_table);
    CHECK(dg_params_defaults("walk", &from_table, sizeof from_table) == DG_OK);
    CHECK(memcmp(&from_table, &good, sizeof good) == 0);
    guard_free(&gg);
    dg_result_free(&r);
}

/* Every allocation failing in turn: DG_E_NOMEM with grid and result as they
 * were (the map is built in scratch memory and copied out at the end), nothing
 * leaked; then success once nothing fails. */
TEST(walk_out_of_memory_is_clean)
{
    dg_walk_params p;
    dg_walk_defaults(&p);
    p.room_chance = 800, p.symmetry = DG_WALK_SYM_XY;
    guarded_grid gg;
    CHECK(guard_make(&gg, 90, 40, 2));
    dg_grid_fill(&gg.grid, 0x5A);
    int ok = 0;
    for (int64_t k = 1; k < 100 && !ok; k++)
    {
        hard_alloc h;
        hard_alloc_init(&h, k);
        dg_result r;
        dg_result_init(&r, &h.hooks);
        dg_diag d;
        uint64_t before = dg_grid_hash(&gg.grid);
        dg_status st = dg_walk_generate(&gg.grid, &p, 3, &r, &h.hooks, &d);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        if (st == DG_E_NOMEM)
            CHECK(r.room_count == 0 && dg_grid_hash(&gg.grid) == before && d.status == st);
        ok = st == DG_OK;
        CHECK(guard_intact(&gg));
        dg_result_free(&r);
        CHECK(hard_alloc_clean(&h));
    }
    CHECK(ok);
    guard_free(&gg);
}
