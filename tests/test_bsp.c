/* Binary space partition generator: properties over many seeds and parameter
 * sets, the contract, the smallest boards, every option, bad input,
 * determinism, golden hashes and allocation failures. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const int32_t BX[4] = {0, 1, 0, -1}, BY[4] = {-1, 0, 1, 0};

typedef struct bsp_case {
    const char *name;
    int32_t width, height;
    int seeds;
    dg_bsp_params p;
} bsp_case;

static int bsp_cases(bsp_case *cases)
{
    int n = 0;
    bsp_case *c;
    c = &cases[n++];
    c->name = "defaults 80x25", c->width = 80, c->height = 25, c->seeds = 400;
    dg_bsp_defaults(&c->p);
    c = &cases[n++];
    c->name = "defaults 80x50", c->width = 80, c->height = 50, c->seeds = 300;
    dg_bsp_defaults(&c->p);
    c = &cases[n++];
    c->name = "smallest wide", c->width = 20, c->height = 7, c->seeds = 300;
    dg_bsp_defaults(&c->p);
    c = &cases[n++];
    c->name = "tiny leaves, all loops, no doors", c->width = 61, c->height = 37, c->seeds = 300;
    dg_bsp_defaults(&c->p);
    c->p.leaf_min_w = c->p.leaf_min_h = 5;
    c->p.room_min_w = c->p.room_min_h = 1, c->p.room_max_w = c->p.room_max_h = 4;
    c->p.room_fill = 0, c->p.max_ratio = 100, c->p.loop_chance = 1000;
    c->p.doors = DG_BSP_DOORS_NONE;
    c = &cases[n++];
    c->name = "capped, wide margins, full rooms", c->width = 90, c->height = 60, c->seeds = 300;
    dg_bsp_defaults(&c->p);
    c->p.leaf_min_w = 16, c->p.leaf_min_h = 12, c->p.margin = 3;
    c->p.max_leaves = 9, c->p.max_depth = 5, c->p.room_fill = 100, c->p.max_ratio = 400;
    c->p.loop_chance = 0;
    c = &cases[n++];
    c->name = "odd size, long thin leaves", c->width = 137, c->height = 23, c->seeds = 200;
    dg_bsp_defaults(&c->p);
    c->p.max_ratio = 1000, c->p.leaf_min_w = 7, c->p.room_min_w = 2, c->p.loop_chance = 400;
    c = &cases[n++];
    c->name = "every room shaped, tall rooms", c->width = 100, c->height = 60, c->seeds = 150;
    dg_bsp_defaults(&c->p);
    c->p.shapes = 1000, c->p.room_min_h = 5, c->p.leaf_min_h = 9;
    return n;
}

static int tile_at(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height ? dg_grid_get(g, x, y) : -1;
}

static int open_at(const dg_grid *g, int32_t x, int32_t y)
{
    return tile_at(g, x, y) >= 0 && dg_tile_passable((uint8_t)tile_at(g, x, y));
}

/* Rooms: inside the grid off the ring, sizes in range, floor inside a wall ring. */
static void check_rooms(const bsp_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_bsp_params *p = &k->p;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        int shaped = r->rooms[i].shape != DG_SHAPE_RECT, open = 0;
        CHECK(r->rooms[i].kind == DG_ROOM_NORMAL && (shaped || r->rooms[i].cells == q.w * q.h));
        CHECK(!shaped || p->shapes > 0);
        CHECK(q.w >= p->room_min_w && q.w <= p->room_max_w);
        CHECK(q.h >= p->room_min_h && q.h <= p->room_max_h);
        CHECK(q.x >= 1 + p->margin && q.y >= 1 + p->margin);
        CHECK(q.x + q.w + 1 + p->margin <= g->width && q.y + q.h + 1 + p->margin <= g->height);
        for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
            for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
            {
                int inner = x >= q.x && y >= q.y && x < q.x + q.w && y < q.y + q.h;
                int t = tile_at(g, x, y);
                int middle = x == q.x + q.w / 2 || y == q.y + q.h / 2;
                open += inner && t == DG_TILE_FLOOR;
                if (inner) /* a shape keeps the middle row and column, wall or rock elsewhere */
                    CHECK(t == DG_TILE_FLOOR || (shaped && !middle && (t == DG_TILE_WALL || t == DG_TILE_VOID)));
                else
                    CHECK(t == DG_TILE_WALL || t == DG_TILE_DOOR || t == DG_TILE_CORRIDOR);
            }
        CHECK(open == r->rooms[i].cells);
    }
}

/* The parents form a tree rooted at the start room. */
static void check_parents(const dg_result *r)
{
    CHECK(r->start_room >= 0 && r->start_room < r->room_count);
    for (int32_t i = 0; i < r->room_count; i++)
    {
        int32_t at = i, steps = 0;
        while (at >= 0 && at != r->start_room && steps <= r->room_count)
            at = r->rooms[at].parent, steps++;
        CHECKF(at == r->start_room, "room %d does not lead to the start room", (int)i);
    }
    CHECK(r->rooms[r->start_room].parent == -1);
}

/* Corridors: one bend at most, length as documented, every cell corridor
 * (or a door where doors are off), the ends joined as the refs say. */
static void check_corridors(const dg_grid *g, const dg_result *r)
{
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        CHECK(c->start.x == c->bend.x || c->start.y == c->bend.y);
        CHECK(c->bend.x == c->end.x || c->bend.y == c->end.y);
        CHECK(c->length == abs(c->bend.x - c->start.x) + abs(c->bend.y - c->start.y) +
                               abs(c->end.x - c->bend.x) + abs(c->end.y - c->bend.y) + 1);
        dg_point legs[3] = {c->start, c->bend, c->end};
        for (int l = 0; l < 2; l++)
            for (int32_t y = legs[l].y < legs[l + 1].y ? legs[l].y : legs[l + 1].y;
                 y <= (legs[l].y > legs[l + 1].y ? legs[l].y : legs[l + 1].y); y++)
                for (int32_t x = legs[l].x < legs[l + 1].x ? legs[l].x : legs[l + 1].x;
                     x <= (legs[l].x > legs[l + 1].x ? legs[l].x : legs[l + 1].x); x++)
                    CHECK(tile_at(g, x, y) == DG_TILE_CORRIDOR);
        const dg_ref *ends[2] = {&c->from, &c->to};
        for (int e = 0; e < 2; e++)
        {
            CHECK(ends[e]->kind == DG_REF_ROOM || ends[e]->kind == DG_REF_CORRIDOR);
            if (ends[e]->kind == DG_REF_ROOM)
                CHECK(ends[e]->index >= 0 && ends[e]->index < r->room_count);
            else /* a three-leg route: the two halves refer to each other */
                CHECK(ends[e]->index == i + (e ? 1 : -1) && ends[e]->index >= 0 &&
                      ends[e]->index < r->corridor_count);
        }
    }
}

static void check_doors(const dg_grid *g, const dg_result *r)
{
    int32_t tiles = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            tiles += tile_at(g, x, y) == DG_TILE_DOOR;
    CHECK(tiles == r->door_count);
    for (int32_t i = 0; i < r->door_count; i++)
    {
        dg_point q = r->doors[i].pos;
        CHECK(tile_at(g, q.x, q.y) == DG_TILE_DOOR);
        int n = open_at(g, q.x, q.y - 1), s = open_at(g, q.x, q.y + 1);
        int e = open_at(g, q.x + 1, q.y), w = open_at(g, q.x - 1, q.y);
        CHECK((n && s && !e && !w) || (e && w && !n && !s));
        CHECK(r->doors[i].a.kind == DG_REF_ROOM && r->doors[i].b.kind == DG_REF_CORRIDOR);
        int32_t a = r->doors[i].a.index, beside = 0;
        CHECK(a >= 0 && a < r->room_count && r->doors[i].b.index >= 0 &&
              r->doors[i].b.index < r->corridor_count);
        for (int d = 0; d < 4 && a >= 0 && a < r->room_count; d++)
        {
            dg_rect q2 = r->rooms[a].rect;
            int32_t x = q.x + BX[d], y = q.y + BY[d];
            beside |= x >= q2.x && y >= q2.y && x < q2.x + q2.w && y < q2.y + q2.h;
        }
        CHECK(beside);
    }
}

static void check_map(const bsp_case *k, const guarded_grid *gg, const dg_result *r)
{
    const dg_grid *g = &gg->grid;
    CHECK(guard_intact(gg));
    const char *why = hard_validate(g, r);
    CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
    CHECK(grid_connected(g) && r->metrics.regions == 1);
    CHECK(r->room_count >= 2 && r->metrics.placed == r->room_count &&
          r->metrics.requested == r->room_count);
    CHECK(r->corridor_count >= r->room_count - 1);
    if (k->p.max_leaves > 0)
        CHECK(r->room_count <= k->p.max_leaves);
    for (int32_t x = 0; x < g->width; x++) /* the ring is rock */
        CHECK(tile_at(g, x, 0) == DG_TILE_VOID && tile_at(g, x, g->height - 1) == DG_TILE_VOID);
    for (int32_t y = 0; y < g->height; y++)
        CHECK(tile_at(g, 0, y) == DG_TILE_VOID && tile_at(g, g->width - 1, y) == DG_TILE_VOID);
    check_rooms(k, g, r);
    check_parents(r);
    if (k->p.doors == DG_BSP_DOORS_ROOMS)
    {
        check_corridors(g, r);
        check_doors(g, r);
    }
    else
        CHECK(r->door_count == 0);
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECK(q.border_open == 0 && q.unreachable == 0 && q.dead_doors == 0);
    CHECK(q.start_in_room && q.exit_in_room && !q.start_is_exit && q.exit_rank_permille <= 100);
    CHECK(r->exit_room >= 0);
    if (k->p.doors == DG_BSP_DOORS_ROOMS)
        CHECKF(q.doorless_joins == 0, "%s: %d doorless joins", k->name, (int)q.doorless_joins);
    else
        CHECK(q.doors == 0);
}

TEST(bsp_properties_over_many_seeds)
{
    bsp_case cases[8];
    int n = bsp_cases(cases), maps = 0;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, cases[k].width, cases[k].height, 3));
        int32_t loops = 0, capped = 0, rooms = 0;
        for (int s = 0; s < cases[k].seeds && !test_failures(); s++, maps++)
        {
            dg_status st = dg_bsp_generate(&gg.grid, &cases[k].p, (uint64_t)s * 7919u + 1, &r,
                                           NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", cases[k].name, s, dg_status_str(st));
            check_map(&cases[k], &gg, &r);
            loops += r.metrics.loops;
            rooms += r.room_count;
            capped += r.metrics.stopped_early;
        }
        if (cases[k].p.loop_chance >= 400 && cases[k].width * cases[k].height >= 1000)
            CHECKF(loops > cases[k].seeds, "%s: only %d loops", cases[k].name, (int)loops);
        if (strncmp(cases[k].name, "defaults", 8) == 0) /* the contract: 0.15 loops per room */
            CHECKF(loops * 100 >= rooms * 15, "%s: %d loops for %d rooms", cases[k].name,
                   (int)loops, (int)rooms);
        if (cases[k].p.loop_chance == 0)
            CHECK(loops == 0);
        CHECK(capped == 0 || cases[k].p.max_leaves > 0 || cases[k].p.max_depth > 0);
        if (cases[k].p.max_leaves > 0)
            CHECK(capped > 0);
        guard_free(&gg);
    }
    CHECK(maps >= 1500);
    dg_result_free(&r);
}

/* The smallest boards at the defaults: 20x7 (two leaves side by side) and
 * 10x14 (stacked) succeed on every seed; a cell less is DG_E_NOSPACE naming
 * the smallest sizes, grid and result untouched. */
TEST(bsp_smallest_boards_at_defaults)
{
    static const struct { int32_t w, h; dg_status want; } sizes[] = {
        {20, 7, DG_OK}, {10, 14, DG_OK}, {19, 7, DG_E_NOSPACE}, {20, 6, DG_E_NOSPACE},
        {10, 13, DG_E_NOSPACE}, {9, 14, DG_E_NOSPACE}, {19, 13, DG_E_NOSPACE}, {21, 15, DG_OK},
        {4096, 9, DG_OK}, {11, 4096, DG_OK},
    };
    dg_bsp_params p;
    dg_bsp_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        int seeds = sizes[i].w * sizes[i].h > 10000 ? 5 : 200;
        for (int seed = 1; seed <= seeds; seed++)
        {
            if (sizes[i].want != DG_OK)
            {
                dg_grid_fill(&gg.grid, 0x5A);
                uint64_t before = dg_grid_hash(&gg.grid), rbefore = hard_result_hash(&r);
                dg_diag d;
                CHECK(dg_bsp_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, &d) == sizes[i].want);
                CHECK(d.status == sizes[i].want && strstr(d.message, "smallest grids are 20x7 and 10x14"));
                CHECK(dg_grid_hash(&gg.grid) == before && hard_result_hash(&r) == rbefore);
                continue;
            }
            CHECK(dg_bsp_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 &&
                       q.dead_doors == 0 && q.start_in_room && q.exit_in_room &&
                       !q.start_is_exit && q.exit_rank_permille <= 100 && r.room_count >= 2,
                   "%dx%d seed %d", (int)sizes[i].w, (int)sizes[i].h, seed);
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Each option does what it says. */
TEST(bsp_options_do_what_they_say)
{
    guarded_grid gg;
    CHECK(guard_make(&gg, 120, 60, 1));
    dg_result r;
    dg_result_init(&r, NULL);
    dg_bsp_params p;
    for (uint64_t seed = 1; seed <= 30; seed++)
    {
        dg_bsp_defaults(&p);
        p.max_depth = 1; /* one cut: two rooms, one corridor (or two halves) */
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count == 2 && r.metrics.stopped_early == 1);
        p.max_depth = 0, p.max_leaves = 7;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count == 7 && r.metrics.stopped_early == 1);
        p.max_leaves = 1; /* one room: start and exit still apart */
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count == 1 && r.corridor_count == 0 && r.start_room == 0);
        CHECK(r.start.x != r.exit.x || r.start.y != r.exit.y);
        p.max_leaves = 0, p.doors = DG_BSP_DOORS_NONE;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.door_count == 0 && grid_connected(&gg.grid));
        p.doors = DG_BSP_DOORS_ROOMS, p.loop_chance = 0;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.loops == 0 && r.metrics.stopped_early == 0);
        p.loop_chance = 1000;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.loops >= 1);
        dg_bsp_defaults(&p);
        p.room_max_w = 4, p.room_max_h = 3; /* a cap on room sizes */
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        for (int32_t i = 0; i < r.room_count; i++)
            CHECK(r.rooms[i].rect.w <= 4 && r.rooms[i].rect.h <= 3);
        dg_bsp_defaults(&p);
        p.room_fill = 100, p.room_max_w = p.room_max_h = 1000; /* rooms fill their leaves */
        p.leaf_min_w = p.leaf_min_h = 8;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        for (int32_t i = 0; i < r.room_count; i++) /* room + walls + margins tile the board */
            CHECK(r.rooms[i].rect.w >= 4 && r.rooms[i].rect.h >= 4);
        int64_t area = 0;
        for (int32_t i = 0; i < r.room_count; i++)
            area += (int64_t)(r.rooms[i].rect.w + 4) * (r.rooms[i].rect.h + 4);
        CHECK(area == 120 * 60);
    }
    /* loops come from their own stream: the tree corridors stay where they were */
    dg_result plain;
    dg_result_init(&plain, NULL);
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        dg_bsp_defaults(&p);
        p.loop_chance = 0;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &plain, NULL, NULL) == DG_OK);
        p.loop_chance = 1000;
        CHECK(dg_bsp_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.room_count == plain.room_count && r.corridor_count > plain.corridor_count);
        for (int32_t i = 0; i < plain.corridor_count && i < r.corridor_count; i++)
            CHECK(memcmp(&plain.corridors[i], &r.corridors[i], sizeof(dg_corridor)) == 0);
    }
    dg_result_free(&plain);
    dg_result_free(&r);
    guard_free(&gg);
}

typedef struct bsp_bad {
    const char *field; /* a word the message must contain */
    dg_status want;
    void (*apply)(dg_bsp_params *p);
} bsp_bad;

#define BAD(name, body) \
    static void bad_##name(dg_bsp_params *p) { body; }
BAD(leaf_w, p->leaf_min_w = 6)
BAD(room_w_order, (p->room_min_w = 5, p->room_max_w = 4))
BAD(room_h_order, (p->room_min_h = 5, p->room_max_h = 4))
BAD(room_h_huge, p->room_max_h = INT32_MAX)
BAD(margin_big, p->margin = 3)
BAD(room_w_leaf, p->room_min_w = 7)

TEST(bsp_rejects_bad_parameters)
{
    /* each parameter's min - 1 and max + 1, NULL params and broken grids:
     * every_generator_rejects_each_parameter_out_of_range */
    static const bsp_bad bad[] = {
        {"leaf_min_w", DG_E_INVALID, bad_leaf_w},
        {"room_min_w", DG_E_INVALID, bad_room_w_order},
        {"room_max_h", DG_E_INVALID, bad_room_h_order},
        {"room_max_h", DG_E_INVALID, bad_room_h_huge},
        {"margin", DG_E_INVALID, bad_margin_big},
        {"room_min_w", DG_E_INVALID, bad_room_w_leaf},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_bsp_params good;
    dg_bsp_defaults(&good);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_bsp_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_bsp_params p = good;
        bad[i].apply(&p);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_bsp_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == bad[i].want, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECKF(d.status == st && strstr(d.message, bad[i].field) != NULL, "case %d: %s", (int)i,
               d.message);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    }
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

static uint64_t bsp_hash(const bsp_case *k, uint64_t seed, int32_t pad, uint64_t *result_hash)
{
    return gen_hash("bsp", &k->p, k->width, k->height, seed, pad, result_hash, 1);
}

TEST(bsp_is_deterministic_and_stride_blind)
{
    bsp_case cases[8];
    int n = bsp_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const char *why = gen_deterministic("bsp", &cases[k].p, cases[k].width, cases[k].height, 2);
        CHECKF(!why, "case %d: %s", k, why);
    }
}

TEST(bsp_golden_hashes)
{
    static const uint64_t want[7] = {
        0x583bd2db8d7e1b91ULL, 0xdf367ee3141d23e4ULL, 0xde6add1b7b2100c1ULL,
        0x3b9cfa4c3da36890ULL, 0xf61ba2bc37955b5eULL, 0x02a7fa226e6f6d85ULL,
        0xe3c1ae637a658a1dULL,
    };
    bsp_case cases[8];
    int n = bsp_cases(cases);
    for (int k = 0; k < n; k++)
    {
        uint64_t h = bsp_hash(&cases[k], 42, 0, NULL);
        if (getenv("DG_PRINT_GOLDEN"))
            printf("0x%016llxULL,\n", (unsigned long long)h);
        CHECK_EQ_U64(h, want[k]);
    }
}

/* Every allocation failing in turn: DG_E_NOMEM, the grid and the result as
 * they were, nothing leaked; then success once nothing fails. */
TEST(bsp_out_of_memory_is_clean)
{
    dg_bsp_params p;
    dg_bsp_defaults(&p);
    guarded_grid gg;
    CHECK(guard_make(&gg, 300, 120, 2));
    for (int with_result = 0; with_result < 2; with_result++)
    {
        int ok = 0;
        for (int64_t k = 1; k < 100 && !ok; k++)
        {
            hard_alloc h;
            hard_alloc_init(&h, k);
            dg_result r;
            dg_result_init(&r, &h.hooks);
            dg_grid_fill(&gg.grid, 0x5A);
            uint64_t before = dg_grid_hash(&gg.grid), rbefore = hard_result_hash(&r);
            dg_diag d;
            dg_status st = dg_bsp_generate(&gg.grid, &p, 3, with_result ? &r : NULL, &h.hooks, &d);
            CHECK(st == DG_OK || st == DG_E_NOMEM);
            if (st == DG_E_NOMEM)
                CHECK(dg_grid_hash(&gg.grid) == before && hard_result_hash(&r) == rbefore &&
                      d.status == DG_E_NOMEM);
            ok = st == DG_OK;
            CHECK(guard_intact(&gg));
            dg_result_free(&r);
            CHECK(hard_alloc_clean(&h));
        }
        CHECK(ok);
    }
    guard_free(&gg);
}
