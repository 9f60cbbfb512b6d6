/* Room chain generator: properties over many seeds and parameter sets, golden
 * hashes, bad input, guard bytes and allocation failures. */
#include "hard.h"
#include "analysis/analysis.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define CH_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CH_MAX(a, b) ((a) > (b) ? (a) : (b))

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

typedef struct chain_case {
    const char *name;
    int32_t width, height;
    int seeds;
    int expect_short; /* some maps must run out of space */
    dg_chain_params p;
} chain_case;

/* The parameter sets the properties run over (2,600 maps in all). */
static int chain_cases(chain_case *cases)
{
    int n = 0;
    chain_case *c;

    c = &cases[n++];
    c->name = "defaults 80x25";
    c->width = 80, c->height = 25, c->seeds = 500;
    dg_chain_defaults(&c->p);

    c = &cases[n++];
    c->name = "tiny board";
    c->width = 12, c->height = 9, c->seeds = 400;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 2, c->p.rooms_max = 6, c->p.loop_chance = 0;
    c->p.room_min_w = 1, c->p.room_max_w = 3, c->p.room_min_h = 1, c->p.room_max_h = 3;
    c->p.corridor_min = 1, c->p.corridor_max = 3;

    c = &cases[n++];
    c->name = "tiny board, forbid overlap";
    c->width = 11, c->height = 10, c->seeds = 300, c->expect_short = 1;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 2, c->p.rooms_max = 8; /* two always fit: fewer would be DG_E_NOSPACE */
    c->p.loop_chance = 0;
    c->p.room_min_w = 1, c->p.room_max_w = 3, c->p.room_min_h = 1, c->p.room_max_h = 2;
    c->p.corridor_min = 1, c->p.corridor_max = 2;
    c->p.overlap = DG_CHAIN_OVERLAP_FORBID, c->p.max_tries = 5;

    c = &cases[n++];
    c->name = "huge rooms";
    c->width = 60, c->height = 30, c->seeds = 300;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 3, c->p.rooms_max = 6;
    c->p.room_min_w = 10, c->p.room_max_w = 500, c->p.room_min_h = 5, c->p.room_max_h = 500;

    c = &cases[n++];
    c->name = "forbid overlap with loops";
    c->width = 80, c->height = 50, c->seeds = 400;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 15, c->p.rooms_max = 25;
    c->p.overlap = DG_CHAIN_OVERLAP_FORBID;
    c->p.loop_chance = 400;

    c = &cases[n++];
    c->name = "branching";
    c->width = 100, c->height = 60, c->seeds = 300;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 20, c->p.rooms_max = 30;
    c->p.branch_chance = 400, c->p.loop_chance = 200;
    c->p.start = DG_CHAIN_START_FIRST;

    c = &cases[n++];
    c->name = "loops, no border, stop when stuck";
    c->width = 60, c->height = 40, c->seeds = 400;
    dg_chain_defaults(&c->p);
    c->p.rooms_min = 2, c->p.rooms_max = 20;
    c->p.loop_chance = 1000, c->p.loop_reach = 30;
    c->p.border = 0, c->p.on_stuck = DG_CHAIN_STUCK_STOP;
    c->p.corridor_min = 2, c->p.corridor_max = 12;

    c = &cases[n++];
    c->name = "every room shaped, by area";
    c->width = 100, c->height = 60, c->seeds = 150;
    dg_chain_defaults(&c->p);
    c->p.shapes = 1000, c->p.room_min_h = 5, c->p.room_max_h = 8;
    return n;
}

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

/* Direction a chain corridor leaves its room in. */
static int leave_dir(dg_rect from, dg_point start)
{
    if (start.y < from.y)
        return DG_DIR_N;
    if (start.y >= from.y + from.h)
        return DG_DIR_S;
    return start.x < from.x ? DG_DIR_W : DG_DIR_E;
}

static void check_tiles(const chain_case *k, const dg_grid *g)
{
    int32_t m = k->p.border;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            CHECK(t <= DG_TILE_DOOR);
            int frame = x < m || y < m || x >= g->width - m || y >= g->height - m;
            if (frame)
                CHECK(t == DG_TILE_WALL);
            if (!dg_tile_passable(t))
                continue;
            for (int dy = -1; dy <= 1; dy++) /* walls around every room and corridor */
                for (int dx = -1; dx <= 1; dx++)
                    if (x + dx >= 0 && y + dy >= 0 && x + dx < g->width && y + dy < g->height)
                        CHECK(dg_grid_get(g, x + dx, y + dy) != DG_TILE_VOID);
        }
}

static void check_rooms(const chain_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_chain_params *p = &k->p;
    int32_t m = p->border;
    const dg_metrics *mt = &r->metrics;
    CHECK(mt->requested >= p->rooms_min && mt->requested <= p->rooms_max);
    int by_area = !p->rooms_min || p->rooms_max == DG_CHAIN_MAX_ROOMS; /* may fill bare rock */
    CHECK(mt->placed == r->room_count && r->room_count >= 1 && r->room_count <= p->rooms_max);
    CHECK(r->room_count <= mt->requested || by_area);
    CHECK(mt->stopped_early == (mt->placed < mt->requested));
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        CHECK(q.w >= p->room_min_w && q.w <= p->room_max_w);
        CHECK(q.h >= p->room_min_h && q.h <= p->room_max_h);
        CHECK(q.x >= m && q.y >= m && q.x + q.w <= g->width - m && q.y + q.h <= g->height - m);
        CHECK(i == 0 ? r->rooms[i].parent == -1 : r->rooms[i].parent >= 0 && r->rooms[i].parent < i);
        int shaped = r->rooms[i].shape != DG_SHAPE_RECT;
        int32_t open = 0;
        CHECK(!shaped || (p->shapes > 0 && r->rooms[i].kind == DG_ROOM_NORMAL));
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
            {
                uint8_t t = dg_grid_get(g, x, y);
                int middle = x == q.x + q.w / 2 || y == q.y + q.h / 2;
                open += dg_tile_passable(t);
                /* a shape keeps the middle row and column, wall or rock elsewhere */
                CHECK(t == DG_TILE_FLOOR || (shaped && !middle && (t == DG_TILE_WALL || t == DG_TILE_VOID)));
            }
        CHECK(!shaped || open == r->rooms[i].cells);
    }
}

/* Length, shape and turn rules of every corridor; returns the loop corridors. */
static int32_t check_corridors(const chain_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_chain_params *p = &k->p;
    int32_t reach = p->loop_reach ? p->loop_reach : 2 * p->corridor_max, loops = 0;
    int32_t *enter = malloc((size_t)r->room_count * sizeof *enter);
    for (int32_t i = 0; i < r->room_count; i++)
        enter[i] = -1;
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        CHECK(c->start.x == c->bend.x || c->start.y == c->bend.y);
        CHECK(c->bend.x == c->end.x || c->bend.y == c->end.y);
        CHECK(c->length == abs(c->bend.x - c->start.x) + abs(c->bend.y - c->start.y) +
                               abs(c->end.x - c->bend.x) + abs(c->end.y - c->bend.y) + 1);
        CHECK(c->length >= p->corridor_min);
        CHECK(c->from.kind == DG_REF_ROOM && c->to.kind == DG_REF_ROOM);
        CHECK(is_open(g, c->start.x, c->start.y) && is_open(g, c->bend.x, c->bend.y) &&
              is_open(g, c->end.x, c->end.y));
        if (c->to.index < c->from.index) /* a loop back to an earlier room */
        {
            CHECK(c->length <= reach);
            loops++;
            continue;
        }
        CHECK(c->to.index < r->room_count && r->rooms[c->to.index].parent == c->from.index);
        CHECK(c->bend.x == c->end.x && c->bend.y == c->end.y && c->length <= p->corridor_max);
        CHECK(enter[c->to.index] < 0); /* one corridor makes each room */
        enter[c->to.index] = leave_dir(r->rooms[c->from.index].rect, c->start);
    }
    for (int32_t i = 0; i < r->corridor_count; i++) /* never back the way a room was entered */
    {
        const dg_corridor *c = &r->corridors[i];
        if (c->to.index < c->from.index)
            continue;
        int d = leave_dir(r->rooms[c->from.index].rect, c->start);
        int in = enter[c->from.index];
        CHECKF(in < 0 || d != ((in + 2) & 3), "%s: corridor %d doubles back", k->name, (int)i);
    }
    for (int32_t i = 1; i < r->room_count; i++)
        CHECK(enter[i] >= 0);
    free(enter);
    return loops;
}

static void check_doors(const dg_grid *g, const dg_result *r)
{
    int32_t tiles = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            tiles += dg_grid_get(g, x, y) == DG_TILE_DOOR;
    CHECK(tiles == r->door_count);
    for (int32_t i = 0; i < r->door_count; i++)
    {
        dg_point q = r->doors[i].pos;
        CHECK(dg_grid_get(g, q.x, q.y) == DG_TILE_DOOR);
        int n = is_open(g, q.x, q.y - 1), s = is_open(g, q.x, q.y + 1);
        int e = is_open(g, q.x + 1, q.y), w = is_open(g, q.x - 1, q.y);
        CHECK((n && s && !e && !w) || (e && w && !n && !s));
        CHECK(r->doors[i].a.kind == DG_REF_ROOM && r->doors[i].b.kind == DG_REF_CORRIDOR);
        CHECK(r->doors[i].b.index >= 0 && r->doors[i].b.index < r->corridor_count);
        int32_t a = r->doors[i].a.index, beside = 0;
        CHECK(a >= 0 && a < r->room_count);
        for (int d = 0; d < 4 && a >= 0 && a < r->room_count; d++)
        {
            dg_rect q2 = r->rooms[a].rect;
            int32_t x = q.x + DX[d], y = q.y + DY[d];
            beside |= x >= q2.x && y >= q2.y && x < q2.x + q2.w && y < q2.y + q2.h;
        }
        CHECK(beside); /* the door opens into its room */
    }
}

/* Forbid: rooms keep a wall between them, nothing is merged, every corridor
 * cell is corridor and each loop corridor adds exactly one cycle. */
static void check_forbid(const dg_grid *g, const dg_result *r, int32_t loop_corridors)
{
    CHECK(r->metrics.overlaps == 0);
    CHECK(r->metrics.loops == loop_corridors);
    CHECK(r->door_count == 2 * r->corridor_count);
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect a = r->rooms[i].rect;
        CHECK(r->rooms[i].kind == DG_ROOM_NORMAL);
        for (int32_t j = i + 1; j < r->room_count; j++)
        {
            dg_rect b = r->rooms[j].rect;
            CHECK(a.x > b.x + b.w || b.x > a.x + a.w || a.y > b.y + b.h || b.y > a.y + a.h);
        }
    }
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        dg_point legs[3] = {c->start, c->bend, c->end};
        for (int l = 0; l < 2; l++)
        {
            dg_point a = legs[l], b = legs[l + 1];
            for (int32_t y = CH_MIN(a.y, b.y); y <= CH_MAX(a.y, b.y); y++)
                for (int32_t x = CH_MIN(a.x, b.x); x <= CH_MAX(a.x, b.x); x++)
                    CHECK(dg_grid_get(g, x, y) == DG_TILE_CORRIDOR);
        }
    }
}

/* Start: the centre of the chosen room; exit: a room cell at the greatest
 * walking distance from it. */
static void check_ends(const chain_case *k, const dg_grid *g, const dg_result *r)
{
    int32_t want = k->p.start == DG_CHAIN_START_FIRST ? 0 : r->room_count / 2;
    dg_rect s = r->rooms[want].rect;
    CHECK(r->start_room == want && r->start.x == s.x + s.w / 2 && r->start.y == s.y + s.h / 2);
    CHECK(r->exit_room >= 0 && r->exit_room < r->room_count);
    if (r->exit_room < 0 || r->exit_room >= r->room_count)
        return;
    int32_t *dist = grid_walk_from(g, r->start, NULL), best = -1;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                best = CH_MAX(best, dist[y * g->width + x]);
    }
    dg_rect e = r->rooms[r->exit_room].rect;
    CHECK(r->exit.x >= e.x && r->exit.y >= e.y && r->exit.x < e.x + e.w && r->exit.y < e.y + e.h);
    CHECK(dist[r->exit.y * g->width + r->exit.x] == best);
    free(dist);
}

/* The quality contract (docs/chain.md) on every map of every set: a door
 * wherever a corridor meets a room, everything reachable, the start and exit in
 * rooms and apart, the exit among the farthest tenth; with the border, nothing
 * open on the outer ring and no door leading nowhere (without it, doors on the
 * grid's edge are allowed: check_doors still wants two opposite open sides). */
static void check_contract(const chain_case *k, const dg_grid *g, const dg_result *r)
{
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.doorless_joins == 0, "%s: %d doorless joins", k->name, (int)q.doorless_joins);
    CHECK(q.unreachable == 0 && q.start_in_room && q.exit_in_room);
    if (k->p.loop_chance == 0) /* long loop corridors may lie beyond the farthest room cell */
        CHECKF(q.exit_rank_permille <= 100, "%s: exit rank %d", k->name, (int)q.exit_rank_permille);
    CHECK(!q.start_is_exit);
    if (k->p.border)
        CHECKF(q.border_open == 0 && q.dead_doors == 0, "%s: %d open border cells, %d dead doors",
               k->name, (int)q.border_open, (int)q.dead_doors);
}

/* check_measure: compare the metrics with dg_measure's (slower, so not on every map). */
static void check_map(const chain_case *k, const guarded_grid *gg, const dg_result *r,
                      int check_measure)
{
    const dg_grid *g = &gg->grid;
    CHECK(guard_intact(gg));
    const char *why = hard_validate(g, r);
    CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
    CHECK(grid_connected(g) && r->metrics.regions == 1);
    CHECK(r->metrics.loops >= 0 && r->metrics.overlaps <= r->room_count);
    /* the documented work bound (docs/chain.md) */
    int64_t tries = k->p.overlap == DG_CHAIN_OVERLAP_FORBID ? k->p.max_tries : 1;
    CHECK(r->metrics.attempts <= (int64_t)r->metrics.requested * (tries * (k->p.max_tries + 1) + 18));
    CHECK(r->metrics.failures <= r->metrics.attempts);
    check_tiles(k, g);
    check_rooms(k, g, r);
    int32_t loops = check_corridors(k, g, r);
    CHECK(r->corridor_count == r->room_count - 1 + loops);
    check_doors(g, r);
    check_ends(k, g, r);
    check_contract(k, g, r);
    if (check_measure)
    {
        dg_metrics m;
        CHECK(dg_measure(g, NULL, &m, NULL, NULL) == DG_OK);
        CHECK(m.loops == r->metrics.loops && m.dead_ends == r->metrics.dead_ends &&
              m.floor_cells == r->metrics.floor_cells && m.regions == 1);
    }
    if (k->p.overlap == DG_CHAIN_OVERLAP_FORBID)
        check_forbid(g, r, loops);
}

TEST(chain_properties_over_many_seeds)
{
    chain_case cases[8] = {0};
    int n = chain_cases(cases), maps = 0;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, cases[k].width, cases[k].height, 3));
        int32_t short_runs = 0, overlaps = 0, loops = 0;
        for (int s = 0; s < cases[k].seeds && !test_failures(); s++, maps++)
        {
            dg_status st = dg_chain_generate(&gg.grid, &cases[k].p, (uint64_t)s * 7919u + 1, &r,
                                             NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", cases[k].name, s, dg_status_str(st));
            check_map(&cases[k], &gg, &r, s % 8 == 0);
            short_runs += r.metrics.stopped_early;
            overlaps += r.metrics.overlaps;
            loops += r.metrics.loops;
        }
        /* each set exercises what it is for */
        if (cases[k].p.overlap == DG_CHAIN_OVERLAP_ALLOW)
            CHECKF(overlaps > 0, "%s: no overlaps", cases[k].name);
        if (cases[k].p.loop_chance > 0)
            CHECKF(loops > cases[k].seeds / 4, "%s: only %d loops", cases[k].name, (int)loops);
        if (cases[k].expect_short)
            CHECKF(short_runs > 0, "%s: tiny board never ran out of space", cases[k].name);
        guard_free(&gg);
    }
    CHECK(maps >= 2000);
    dg_result_free(&r);
}

static uint64_t chain_hash(const chain_case *k, uint64_t seed, int32_t pad, uint64_t *result_hash)
{
    return gen_hash("chain", &k->p, k->width, k->height, seed, pad, result_hash, 1);
}

TEST(chain_golden_hashes)
{
    static const uint64_t want[8] = {
        0xe831f2b94a6e68d4ULL, 0xcec39d30768edb7eULL, 0x0422054398931c30ULL,
        0xdea41db03d9b5183ULL, 0xe265b2987209668aULL, 0xbf68f481a0c31f9dULL,
        0x2cdc3f0e00b869c8ULL, 0x180dd7bd4d947ce8ULL,
    };
    chain_case cases[8] = {0};
    int n = chain_cases(cases);
    for (int k = 0; k < n; k++)
    {
        CHECK_EQ_U64(chain_hash(&cases[k], 42, 0, NULL), want[k]);
    }
}

TEST(chain_is_deterministic_and_stride_blind)
{
    chain_case cases[8] = {0};
    int n = chain_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const char *why =
            gen_deterministic("chain", &cases[k].p, cases[k].width, cases[k].height, 1);
        CHECKF(!why, "case %d: %s", k, why);
    }
}

TEST(chain_result_is_optional)
{
    chain_case cases[8] = {0};
    chain_cases(cases);
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 2));
    CHECK(dg_chain_generate(&gg.grid, &cases[0].p, 5, NULL, NULL, NULL) == DG_OK);
    uint64_t without = dg_grid_hash(&gg.grid);
    CHECK(guard_intact(&gg));
    CHECK_EQ_U64(chain_hash(&cases[0], 5, 0, NULL), without);
    guard_free(&gg);
}

/* Loops and branches draw from their own streams: with overlap allowed, adding
 * loops leaves the chain's rooms where they were. */
TEST(chain_loops_do_not_move_rooms)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 40, 0));
    dg_result plain, looped;
    dg_result_init(&plain, NULL);
    dg_result_init(&looped, NULL);
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        p.loop_chance = 0;
        CHECK(dg_chain_generate(&gg.grid, &p, seed, &plain, NULL, NULL) == DG_OK);
        p.loop_chance = 1000;
        CHECK(dg_chain_generate(&gg.grid, &p, seed, &looped, NULL, NULL) == DG_OK);
        CHECK(plain.room_count == looped.room_count);
        for (int32_t i = 0; i < plain.room_count && i < looped.room_count; i++)
            CHECK(memcmp(&plain.rooms[i].rect, &looped.rooms[i].rect, sizeof(dg_rect)) == 0);
    }
    dg_result_free(&plain);
    dg_result_free(&looped);
    guard_free(&gg);
}

/* One bad field at a time: the status, a message naming it, grid and result untouched. */
typedef struct chain_bad {
    const char *field; /* also a word the message must contain */
    dg_status want;
    void (*apply)(dg_chain_params *p);
} chain_bad;

#define BAD(name, status, body) \
    static void bad_##name(dg_chain_params *p) { body; }
BAD(rooms_neg, DG_E_INVALID, p->rooms_min = -1)
BAD(rooms_area0, DG_E_INVALID, (p->rooms_min = 0, p->rooms_max = 0))
BAD(rooms_order, DG_E_INVALID, (p->rooms_min = 9, p->rooms_max = 8))
BAD(rooms_huge, DG_E_TOO_LARGE, p->rooms_max = DG_CHAIN_MAX_ROOMS + 1)
BAD(width0, DG_E_INVALID, p->room_min_w = 0)
BAD(width_order, DG_E_INVALID, p->room_max_w = p->room_min_w - 1)
BAD(width_neg, DG_E_INVALID, p->room_min_w = -5)
BAD(height_order, DG_E_INVALID, (p->room_min_h = 6, p->room_max_h = 5))
BAD(height_huge, DG_E_TOO_LARGE, p->room_max_h = INT32_MAX)
BAD(corr0, DG_E_INVALID, p->corridor_min = 0)
BAD(corr_order, DG_E_INVALID, (p->corridor_min = 5, p->corridor_max = 4))
BAD(corr_huge, DG_E_TOO_LARGE, p->corridor_max = DG_GRID_MAX_DIM + 1)
BAD(overlap, DG_E_INVALID, p->overlap = 2)
BAD(tries0, DG_E_INVALID, p->max_tries = 0)
BAD(tries_huge, DG_E_INVALID, p->max_tries = 1001)
BAD(stuck, DG_E_INVALID, p->on_stuck = -1)
BAD(branch, DG_E_INVALID, p->branch_chance = 1001)
BAD(loop, DG_E_INVALID, p->loop_chance = -1)
BAD(reach, DG_E_INVALID, (p->corridor_min = 4, p->loop_reach = 3))
BAD(start, DG_E_INVALID, p->start = 7)
BAD(border, DG_E_INVALID, p->border = 2)
BAD(too_small, DG_E_TOO_SMALL, (p->room_min_w = 79, p->room_max_w = 90))
BAD(too_tall, DG_E_TOO_SMALL, (p->room_min_h = 24, p->room_max_h = 30))
BAD(no_second, DG_E_NOSPACE, (p->room_min_w = p->room_max_w = 40, p->room_min_h = p->room_max_h = 10))

TEST(chain_rejects_bad_parameters)
{
    static const chain_bad bad[] = {
        {"rooms", DG_E_INVALID, bad_rooms_neg},       {"rooms", DG_E_INVALID, bad_rooms_order},
        {"rooms maximum", DG_E_INVALID, bad_rooms_area0},
        {"rooms", DG_E_TOO_LARGE, bad_rooms_huge},    {"width", DG_E_INVALID, bad_width0},
        {"width", DG_E_INVALID, bad_width_order},     {"width", DG_E_INVALID, bad_width_neg},
        {"height", DG_E_INVALID, bad_height_order},   {"height", DG_E_TOO_LARGE, bad_height_huge},
        {"corridor", DG_E_INVALID, bad_corr0},        {"corridor", DG_E_INVALID, bad_corr_order},
        {"corridor", DG_E_TOO_LARGE, bad_corr_huge},  {"overlap", DG_E_INVALID, bad_overlap},
        {"max_tries", DG_E_INVALID, bad_tries0},      {"max_tries", DG_E_INVALID, bad_tries_huge},
        {"on_stuck", DG_E_INVALID, bad_stuck},        {"branch_chance", DG_E_INVALID, bad_branch},
        {"loop_chance", DG_E_INVALID, bad_loop},      {"loop_reach", DG_E_INVALID, bad_reach},
        {"start", DG_E_INVALID, bad_start},           {"border", DG_E_INVALID, bad_border},
        {"smallest room", DG_E_TOO_SMALL, bad_too_small},
        {"smallest room", DG_E_TOO_SMALL, bad_too_tall},
        {"two rooms", DG_E_NOSPACE, bad_no_second},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_chain_params good;
    dg_chain_defaults(&good);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_chain_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_chain_params p = good;
        bad[i].apply(&p);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_chain_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == bad[i].want, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECK(d.status == st && strstr(d.message, bad[i].field) != NULL);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    }
    /* NULL params, NULL grid or cells, stride < width:
     * every_generator_rejects_each_parameter_out_of_range */
    dg_grid broken = gg.grid;
    broken.width = -3;
    CHECK(dg_chain_generate(&broken, &good, 1, &r, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

/* Boards just big enough for one room, and one cell too small, when one room
 * is all that is asked for (rooms_min 1, or by area with rooms_max 1). */
TEST(chain_smallest_boards)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.room_min_w = p.room_max_w = 3;
    p.room_min_h = p.room_max_h = 2;
    for (int k = 0; k < 4; k++)
    {
        int border = k & 1;
        p.border = border;
        p.rooms_min = k < 2 ? 1 : 0;
        p.rooms_max = k < 2 ? 15 : 1;
        guarded_grid fits, small;
        CHECK(guard_make(&fits, 3 + 2 * border, 2 + 2 * border, 1));
        CHECK(guard_make(&small, 3 + 2 * border, 1 + 2 * border, 1));
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_chain_generate(&fits.grid, &p, 1, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count == 1 && r.metrics.floor_cells == 6);
        CHECK(r.metrics.stopped_early == (k < 2));
        CHECK(r.start_room == 0 && r.exit_room == 0);
        dg_diag d;
        CHECK(dg_chain_generate(&small.grid, &p, 1, &r, NULL, &d) == DG_E_TOO_SMALL);
        CHECK(guard_intact(&fits) && guard_intact(&small));
        guard_free(&fits);
        guard_free(&small);
        dg_result_free(&r);
    }
}

/* At the defaults a chain needs two rooms: 14x5 (side by side) and 6x12 (one
 * above the other) are the smallest boards, and on every seed they get two
 * rooms, a start and an exit apart; a cell less is DG_E_NOSPACE (or
 * DG_E_TOO_SMALL when not even one room fits), grid and result untouched. */
TEST(chain_smallest_boards_at_defaults)
{
    static const struct { int32_t w, h; dg_status want; } sizes[] = {
        {14, 5, DG_OK}, {6, 12, DG_OK}, {13, 5, DG_E_NOSPACE}, {6, 11, DG_E_NOSPACE},
        {15, 4, DG_E_TOO_SMALL}, {5, 13, DG_E_TOO_SMALL}, {13, 11, DG_E_NOSPACE},
        {15, 13, DG_OK}, {20, 10, DG_OK},
    };
    dg_chain_params p;
    dg_chain_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        for (uint64_t seed = 1; seed <= 300; seed++)
        {
            CHECK(dg_chain_generate(&gg.grid, &p, 99, &r, NULL, NULL) == DG_OK ||
                  sizes[i].want != DG_OK);
            uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
            dg_diag d;
            dg_status st = dg_chain_generate(&gg.grid, &p, seed, &r, NULL, &d);
            CHECKF(st == sizes[i].want, "%dx%d seed %d: %s", (int)sizes[i].w, (int)sizes[i].h,
                   (int)seed, dg_status_str(st));
            if (st != DG_OK)
            {
                CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
                CHECK(d.status == st && strstr(d.message, st == DG_E_NOSPACE ? "two rooms" : "room"));
                continue;
            }
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECK(r.room_count >= 2 && !q.start_is_exit && q.start_in_room && q.exit_in_room);
            CHECK(q.border_open == 0 && q.unreachable == 0 && q.exit_rank_permille <= 100);
            CHECK(q.doorless_joins == 0 && q.dead_doors == 0);
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* By area (rooms_min 0, the default): 6 to 8 rooms per 1000 cells inside the
 * border, at least 2, at most rooms_max; at the defaults every one is placed. */
TEST(chain_room_count_follows_area)
{
    static const int32_t sizes[][2] = {{80, 25}, {80, 50}, {200, 200}, {20, 10}, {120, 40}};
    dg_chain_params p;
    dg_chain_defaults(&p);
    CHECK(p.rooms_min == 0 && p.rooms_max == DG_CHAIN_MAX_ROOMS);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        int32_t w = sizes[i][0], h = sizes[i][1];
        int64_t usable = (int64_t)(w - 2) * (h - 2);
        int32_t lo = (int32_t)CH_MAX(2, usable * 6 / 1000), hi = (int32_t)CH_MAX(lo, usable * 8 / 1000);
        guarded_grid gg;
        CHECK(guard_make(&gg, w, h, 0));
        int32_t seen_lo = hi, seen_hi = lo, seeds = w * h > 10000 ? 20 : 200;
        for (int32_t seed = 1; seed <= seeds; seed++)
        {
            p.rooms_max = DG_CHAIN_MAX_ROOMS;
            CHECK(dg_chain_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            CHECK(r.metrics.requested >= lo && r.metrics.requested <= hi);
            CHECK(r.room_count >= r.metrics.requested && !r.metrics.stopped_early);
            seen_lo = CH_MIN(seen_lo, r.metrics.requested);
            seen_hi = CH_MAX(seen_hi, r.metrics.requested);
            p.rooms_max = 5; /* the cap */
            CHECK(dg_chain_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            CHECK(r.metrics.requested == CH_MIN(5, r.metrics.requested) && r.room_count >= 2);
            CHECK(r.metrics.requested >= CH_MIN(lo, 5) && r.metrics.requested <= CH_MIN(hi, 5));
        }
        CHECK(seeds < 100 || (seen_lo < seen_hi) == (lo < hi)); /* the range is drawn from */
        guard_free(&gg);
    }
    p.rooms_max = DG_CHAIN_MAX_ROOMS;
    p.rooms_min = 3; /* an explicit range still rules */
    guarded_grid big;
    CHECK(guard_make(&big, 200, 200, 0));
    CHECK(dg_chain_generate(&big.grid, &p, 5, &r, NULL, NULL) == DG_OK);
    CHECK(r.metrics.requested >= 3 && r.room_count >= r.metrics.requested); /* + bare rock filled */
    p.rooms_max = 3;
    CHECK(dg_chain_generate(&big.grid, &p, 5, &r, NULL, NULL) == DG_OK);
    CHECK(r.room_count == 3);
    guard_free(&big);
    dg_result_free(&r);
}

/* A call that places fewer rooms than rooms_min (here: overlap forbidden and
 * stop when stuck, on a crowded board) fails with DG_E_NOSPACE and leaves the
 * grid and result as they were; rooms_min 2 always succeeds there. */
TEST(chain_too_few_rooms_is_nospace)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.overlap = DG_CHAIN_OVERLAP_FORBID;
    p.on_stuck = DG_CHAIN_STUCK_STOP;
    p.rooms_min = p.rooms_max = 7;
    guarded_grid gg;
    CHECK(guard_make(&gg, 40, 20, 1));
    dg_result r;
    dg_result_init(&r, NULL);
    int32_t nospace = 0, ok = 0;
    for (uint64_t seed = 1; seed <= 200; seed++)
    {
        dg_chain_params two = p;
        two.rooms_min = 2;
        CHECK(dg_chain_generate(&gg.grid, &two, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count >= 2);
        uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
        dg_diag d;
        dg_status st = dg_chain_generate(&gg.grid, &p, seed, &r, NULL, &d);
        CHECK(st == DG_OK || st == DG_E_NOSPACE);
        if (st == DG_E_NOSPACE)
        {
            nospace++;
            CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
            CHECK(d.status == DG_E_NOSPACE && strstr(d.message, "of the 7 rooms needed") != NULL);
        }
        else
            ok += r.room_count == 7;
        CHECK(guard_intact(&gg));
    }
    CHECK(nospace > 0 && ok > 0);
    guard_free(&gg);
    dg_result_free(&r);
}

/* 1 if p lies on one of corridor c's legs (a door made where it met a room). */
static int on_corridor(const dg_corridor *c, dg_point p)
{
    dg_point legs[3] = {c->start, c->bend, c->end};
    for (int l = 0; l < 2; l++)
        if (p.x >= CH_MIN(legs[l].x, legs[l + 1].x) && p.x <= CH_MAX(legs[l].x, legs[l + 1].x) &&
            p.y >= CH_MIN(legs[l].y, legs[l + 1].y) && p.y <= CH_MAX(legs[l].y, legs[l + 1].y))
            return 1;
    return 0;
}

/* The contract at the defaults (docs/chain.md): closed border, everything
 * reachable, start and exit in rooms and apart, the exit among the farthest
 * tenth, a door wherever a corridor meets a room and none leading nowhere. */
TEST(chain_defaults_keep_the_contract)
{
    static const int32_t sizes[][3] = {{80, 25, 300}, {80, 50, 200}, {200, 200, 30}, {15, 5, 50}};
    dg_chain_params p;
    dg_chain_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    int32_t join_doors = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i][0], sizes[i][1], 0));
        for (int32_t seed = 1; seed <= sizes[i][2] && !test_failures(); seed++)
        {
            CHECK(dg_chain_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 &&
                       q.dead_doors == 0,
                   "%dx%d seed %d: border %d unreachable %d doorless %d dead doors %d",
                   (int)sizes[i][0], (int)sizes[i][1], (int)seed, (int)q.border_open,
                   (int)q.unreachable, (int)q.doorless_joins, (int)q.dead_doors);
            CHECK(q.start_in_room && q.exit_in_room && !q.start_is_exit);
            CHECK(q.exit_rank_permille <= 100);
            for (int32_t k = 0; k < r.door_count; k++)
                join_doors += on_corridor(&r.corridors[r.doors[k].b.index], r.doors[k].pos);
        }
        guard_free(&gg);
    }
    CHECK(join_doors > 0); /* some corridors ran into rooms and got a door there */
    dg_result_free(&r);
}

/* The chain spreads: on 200x200 at the defaults every quarter of the map
 * holds rooms (at least 4% floor), over 100 seeds. Before the chain preferred
 * rock and left boxed-in rooms, a quarter was empty on about one map in 20. */
TEST(chain_fills_large_maps)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    guarded_grid gg;
    CHECK(guard_make(&gg, 200, 200, 0));
    for (uint64_t seed = 1; seed <= 100 && !test_failures(); seed++)
    {
        CHECK(dg_chain_generate(&gg.grid, &p, seed, NULL, NULL, NULL) == DG_OK);
        for (int q = 0; q < 4; q++)
        {
            int32_t x0 = (q & 1) * 100, y0 = (q >> 1) * 100, open = 0;
            for (int32_t y = y0; y < y0 + 100; y++)
                for (int32_t x = x0; x < x0 + 100; x++)
                    open += is_open(&gg.grid, x, y);
            CHECKF(open >= 400, "seed %d: quarter %d has %d open cells", (int)seed, q, (int)open);
        }
    }
    guard_free(&gg);
}

/* Every allocation failing in turn: DG_E_NOMEM, nothing leaked, nothing written
 * outside the grid, an empty result; then success once nothing fails. The first
 * four allocations (room index, rooms, corridors, doors) come before the grid
 * is touched, so failing one of them leaves the grid as it was. */
TEST(chain_out_of_memory_is_clean)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.rooms_min = p.rooms_max = 40;
    p.loop_chance = 500;
    guarded_grid gg;
    CHECK(guard_make(&gg, 120, 60, 2));
    int ok = 0;
    for (int64_t k = 1; k < 200 && !ok; k++)
    {
        hard_alloc h;
        hard_alloc_init(&h, k);
        dg_result r;
        dg_result_init(&r, &h.hooks);
        dg_diag d;
        uint64_t before = dg_grid_hash(&gg.grid);
        dg_status st = dg_chain_generate(&gg.grid, &p, 3, &r, &h.hooks, &d);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        if (st == DG_E_NOMEM)
            CHECK(r.room_count == 0 && r.corridor_count == 0 && d.status == DG_E_NOMEM);
        if (k <= 4)
            CHECK(st == DG_E_NOMEM && dg_grid_hash(&gg.grid) == before);
        ok = st == DG_OK;
        CHECK(guard_intact(&gg));
        dg_result_free(&r);
        CHECK(hard_alloc_clean(&h));
    }
    CHECK(ok);
    guard_free(&gg);
}

/* Plain cell-by-cell counts for result.c's eight-cell pass: open cells, dead
 * ends, and E - V - squares of the open-cell graph (loops = that + regions). */
static void naive_counts(const dg_grid *g, const uint8_t *pass, int32_t *open, int32_t *dead,
                         int64_t *euler)
{
    *open = *dead = 0;
    *euler = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            int o[4] = {0}, here = pass[dg_grid_get(g, x, y)] != 0;
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + DX[d], ny = y + DY[d];
                o[d] = nx >= 0 && ny >= 0 && nx < g->width && ny < g->height &&
                       pass[dg_grid_get(g, nx, ny)] != 0;
            }
            int square = x + 1 < g->width && y + 1 < g->height &&
                         pass[dg_grid_get(g, x + 1, y + 1)] != 0;
            *open += here;
            *dead += here && o[0] + o[1] + o[2] + o[3] == 1;
            *euler += here ? o[1] + o[2] - 1 - (o[1] && o[2] && square) : 0;
        }
}

/* result.c, which fills every chain result: its eight-cell passes (floor, dead
 * ends, the loop count the chain reports) against plain counts and its floods
 * (regions) against dg_measure, on random grids holding every tile value, at
 * widths that exercise both the eight-cell steps and their tails; dg_measure,
 * which shares the pass, also with another passable table. */
TEST(result_finish_agrees_with_measure)
{
    uint8_t walls_open[256] = {0};
    walls_open[DG_TILE_WALL] = walls_open[DG_TILE_VOID] = 7; /* any nonzero means open */
    dg_rng rng;
    dg_rng_seed(&rng, 77, 1);
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < 400 && !test_failures(); k++)
    {
        int32_t w = 1 + (int32_t)dg_rng_below(&rng, 40), h = 1 + (int32_t)dg_rng_below(&rng, 24);
        guarded_grid gg;
        CHECK(guard_make(&gg, w, h, 1 + k % 5));
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) /* k % 4 == 0: any byte; else mostly library tiles */
                DG_CELL(&gg.grid, x, y) = (uint8_t)(k % 4 == 0 ? dg_rng_below(&rng, 256)
                                                               : dg_rng_chance(&rng, 550)
                                                                     ? 1 + dg_rng_below(&rng, 7)
                                                                     : dg_rng_below(&rng, 10));
        dg_metrics m;
        CHECK(dg_measure(&gg.grid, NULL, &m, NULL, NULL) == DG_OK);
        int32_t loops = -1, open, dead;
        int64_t euler;
        dg_point none = {-1, -1};
        CHECK(dgi_result_finish_at(&r, &gg.grid, none, -1, &loops, NULL) == DG_OK);
        naive_counts(&gg.grid, dgi_passable_default, &open, &dead, &euler);
        CHECKF(r.metrics.floor_cells == open && open == grid_passable_count(&gg.grid),
               "%dx%d grid %d", (int)w, (int)h, k);
        CHECK(r.metrics.dead_ends == dead && m.dead_ends == dead);
        CHECK(r.metrics.regions == m.regions);
        CHECK(loops == euler + m.regions && m.loops == loops);
        CHECK(dg_measure(&gg.grid, walls_open, &m, NULL, NULL) == DG_OK);
        naive_counts(&gg.grid, walls_open, &open, &dead, &euler);
        CHECK(m.floor_cells == open && m.dead_ends == dead && m.loops == euler + m.regions);
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Bounded loop search (docs/chain.md): a loop looks at no more than 256 index
 * cells and rooms. On a 30x30 board (one index cell) rooms pile up and are
 * looked at newest first, so every loop partner is among the 256 rooms before
 * its own; an unbounded search drew partners from the whole pile and cost a
 * look at every earlier room per loop (quadratic in the rooms). */
TEST(r2_chain_loop_search_is_bounded)
{
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.rooms_min = p.rooms_max = 20000;
    p.loop_chance = 1000;
    guarded_grid gg;
    CHECK(guard_make(&gg, 30, 30, 0));
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_chain_generate(&gg.grid, &p, 11, &r, NULL, NULL) == DG_OK);
    CHECK(r.metrics.placed == 20000);
    int32_t loops = 0, far = 0;
    for (int32_t k = 0; k < r.corridor_count; k++)
    {
        const dg_corridor *c = &r.corridors[k];
        if (c->to.index >= c->from.index) /* a chain step: to is the new room */
            continue;
        loops++;
        far += c->from.index - c->to.index > 256;
    }
    CHECK(loops > 10000);
    CHECK(far == 0);
    /* attempts stay within the documented per-room bound */
    CHECK(r.metrics.attempts <= 20000 * (1 + 2 + 18));
    dg_result_free(&r);
    guard_free(&gg);
}
