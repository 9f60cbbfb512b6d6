/* Scattered rooms (docs/scatter.md): properties over many seeds and parameter
 * sets, the smallest boards, each option, bad input, determinism and golden
 * hashes. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define SC_MAX(a, b) ((a) > (b) ? (a) : (b))

static const int32_t SDX[4] = {0, 1, 0, -1}, SDY[4] = {-1, 0, 1, 0};

typedef struct sc_case {
    const char *name;
    int32_t width, height, seeds;
    dg_scatter_params p;
} sc_case;

static int sc_cases(sc_case *c)
{
    int n = 0;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "defaults 80x25", c[n].width = 80, c[n].height = 25, c[n++].seeds = 300;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "defaults 80x50", c[n].width = 80, c[n].height = 50, c[n++].seeds = 200;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "defaults 200x200", c[n].width = 200, c[n].height = 200, c[n++].seeds = 20;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "tiny rooms, gap 1, every loop, no border";
    c[n].width = 61, c[n].height = 37, c[n].seeds = 200;
    c[n].p.room_min_w = c[n].p.room_min_h = 1, c[n].p.room_max_w = 5, c[n].p.room_max_h = 4;
    c[n].p.gap = 1, c[n].p.neighbours = 10, c[n].p.loop_permille = 1000, c[n++].p.border = 0;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "large rooms far apart, one candidate, a tree";
    c[n].width = 120, c[n].height = 70, c[n].seeds = 200;
    c[n].p.rooms_min = 3, c[n].p.rooms_max = 9;
    c[n].p.room_min_w = 6, c[n].p.room_max_w = 20, c[n].p.room_min_h = 4, c[n].p.room_max_h = 12;
    c[n].p.gap = 5, c[n].p.max_tries = 200, c[n].p.neighbours = 1, c[n++].p.loop_permille = 0;
    dg_scatter_defaults(&c[n].p);
    c[n].name = "huge maxima on a small board";
    c[n].width = 40, c[n].height = 20, c[n].seeds = 200;
    c[n].p.room_max_w = c[n].p.room_max_h = 30000, c[n++].p.max_tries = 5;
    return n;
}

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

static int in_rect(dg_rect r, int32_t x, int32_t y)
{
    return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h;
}

/* Rooms: sizes in range, inside the border, floor inside and wall around,
 * apart by the gap (walls excluded) from every other room. */
static void check_rooms(const sc_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_scatter_params *p = &k->p;
    int32_t b = p->border;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        CHECK(q.w >= p->room_min_w && q.w <= p->room_max_w && q.h >= p->room_min_h &&
              q.h <= p->room_max_h);
        CHECK(q.w <= g->width - 2 * b - 2 && q.h <= g->height - 2 * b - 2);
        CHECK(q.x >= b && q.y >= b && q.x + q.w <= g->width - b && q.y + q.h <= g->height - b);
        CHECK(r->rooms[i].kind == DG_ROOM_NORMAL);
        CHECK(r->rooms[i].shape >= DG_SHAPE_RECT && r->rooms[i].shape <= DG_SHAPE_CAVERN);
        int32_t floor = 0;
        for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
            for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
            {
                if (x < 0 || y < 0 || x >= g->width || y >= g->height)
                    continue;
                uint8_t t = dg_grid_get(g, x, y);
                int middle = x == q.x + q.w / 2 || y == q.y + q.h / 2;
                if (!in_rect(q, x, y))
                    CHECKF(t == DG_TILE_WALL || t == DG_TILE_DOOR, "room %d (%d,%d %dx%d) shape %d: tile %d at (%d, %d)",
                           (int)i, (int)q.x, (int)q.y, (int)q.w, (int)q.h, (int)r->rooms[i].shape, (int)t, (int)x, (int)y);
                else if (r->rooms[i].shape == DG_SHAPE_RECT || middle)
                    CHECK(t == DG_TILE_FLOOR); /* a shape keeps the middle row and column */
                else
                    CHECK(t == DG_TILE_FLOOR || t == DG_TILE_WALL || t == DG_TILE_VOID);
                floor += in_rect(q, x, y) && t == DG_TILE_FLOOR;
            }
        CHECK(r->rooms[i].cells == floor);
        for (int32_t j = i + 1; j < r->room_count; j++)
        {
            dg_rect o = r->rooms[j].rect;
            int32_t m = p->gap + 2; /* walls on both sides plus the gap */
            CHECKF(q.x >= o.x + o.w + m || o.x >= q.x + q.w + m || q.y >= o.y + o.h + m ||
                       o.y >= q.y + q.h + m,
                   "%s: rooms %d and %d closer than the gap", k->name, (int)i, (int)j);
        }
    }
}

/* Corridors: straight legs of corridor cells outside every room and its
 * walls; each route has one door on each room; every door tile is listed,
 * between a room's floor and a corridor. */
static void check_corridors(const sc_case *k, const dg_grid *g, const dg_result *r)
{
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        dg_point pts[3] = {c->start, c->bend, c->end};
        CHECK(c->start.x == c->bend.x || c->start.y == c->bend.y);
        CHECK(c->bend.x == c->end.x || c->bend.y == c->end.y);
        CHECK(c->length == abs(c->bend.x - c->start.x) + abs(c->bend.y - c->start.y) +
                               abs(c->end.x - c->bend.x) + abs(c->end.y - c->bend.y) + 1);
        CHECK(c->from.kind == DG_REF_ROOM || c->from.kind == DG_REF_CORRIDOR);
        CHECK(c->to.kind == DG_REF_ROOM || c->to.kind == DG_REF_CORRIDOR);
        for (int l = 0; l < 2; l++)
            for (int32_t y = SC_MIN(pts[l].y, pts[l + 1].y); y <= SC_MAX(pts[l].y, pts[l + 1].y); y++)
                for (int32_t x = SC_MIN(pts[l].x, pts[l + 1].x); x <= SC_MAX(pts[l].x, pts[l + 1].x); x++)
                {
                    CHECK(dg_grid_get(g, x, y) == DG_TILE_CORRIDOR);
                    for (int32_t j = 0; j < r->room_count; j++)
                    {
                        dg_rect q = r->rooms[j].rect, walls = {q.x - 1, q.y - 1, q.w + 2, q.h + 2};
                        CHECKF(!in_rect(walls, x, y), "%s: corridor %d runs into room %d", k->name,
                               (int)i, (int)j);
                    }
                }
    }
    int32_t tiles = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            tiles += dg_grid_get(g, x, y) == DG_TILE_DOOR;
    CHECK(tiles == r->door_count);
    for (int32_t i = 0; i < r->door_count; i++)
    {
        dg_door d = r->doors[i];
        CHECK(d.a.kind == DG_REF_ROOM && d.a.index >= 0 && d.a.index < r->room_count);
        CHECK(d.b.kind == DG_REF_CORRIDOR && d.b.index >= 0 && d.b.index < r->corridor_count);
        if (d.a.index < 0 || d.a.index >= r->room_count)
            continue;
        dg_rect q = r->rooms[d.a.index].rect;
        int floor_side = -1;
        for (int s = 0; s < 4; s++)
            if (in_rect(q, d.pos.x + SDX[s], d.pos.y + SDY[s]))
                floor_side = s;
        CHECK(floor_side >= 0);
        if (floor_side < 0)
            continue;
        int out = (floor_side + 2) & 3, along = (floor_side + 1) & 3;
        CHECK(dg_grid_get(g, d.pos.x + SDX[out], d.pos.y + SDY[out]) == DG_TILE_CORRIDOR);
        CHECK(!is_open(g, d.pos.x + SDX[along], d.pos.y + SDY[along]));
        CHECK(!is_open(g, d.pos.x - SDX[along], d.pos.y - SDY[along]));
    }
}

/* Every room joins every other through the corridors' room references. */
static void check_links(const dg_result *r, int32_t *routes)
{
    int32_t n = r->room_count, *uf = malloc((size_t)n * sizeof *uf), parts = n;
    for (int32_t i = 0; i < n; i++)
        uf[i] = i;
    *routes = 0;
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        if (c->to.kind != DG_REF_ROOM)
            continue;
        int32_t a = c->from.kind == DG_REF_ROOM ? c->from.index : r->corridors[c->from.index].from.index;
        int32_t b = c->to.index;
        (*routes)++;
        while (uf[a] != a)
            a = uf[a];
        while (uf[b] != b)
            b = uf[b];
        if (a != b)
            uf[SC_MAX(a, b)] = SC_MIN(a, b), parts--;
    }
    CHECK(parts == 1);
    free(uf);
}

/* Start at a room's centre, exit a room cell at the greatest walking distance. */
static void check_ends(const dg_grid *g, const dg_result *r)
{
    CHECK(r->start_room >= 0 && r->start_room < r->room_count);
    CHECK(r->exit_room >= 0 && r->exit_room < r->room_count);
    if (r->start_room < 0 || r->exit_room < 0)
        return;
    dg_rect s = r->rooms[r->start_room].rect;
    CHECK(r->start.x == s.x + s.w / 2 && r->start.y == s.y + s.h / 2);
    int32_t *dist = grid_walk_from(g, r->start, NULL), best = -1;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        for (int32_t y = q.y; y < q.y + q.h; y++)
            for (int32_t x = q.x; x < q.x + q.w; x++)
                best = SC_MAX(best, dist[y * g->width + x]);
    }
    CHECK(in_rect(r->rooms[r->exit_room].rect, r->exit.x, r->exit.y));
    CHECK(dist[r->exit.y * g->width + r->exit.x] == best);
    free(dist);
}

static void check_contract(const sc_case *k, const dg_grid *g, const dg_result *r)
{
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECKF(q.doorless_joins == 0 && q.unreachable == 0, "%s: %d doorless joins, %d unreachable",
           k->name, (int)q.doorless_joins, (int)q.unreachable);
    CHECK(q.start_in_room && q.exit_in_room && !q.start_is_exit);
    CHECKF(q.exit_rank_permille <= 100, "%s: exit rank %d", k->name, (int)q.exit_rank_permille);
    if (k->p.border)
        CHECKF(q.border_open == 0 && q.dead_doors == 0, "%s: %d open border cells, %d dead doors",
               k->name, (int)q.border_open, (int)q.dead_doors);
}

static void check_map(const sc_case *k, const guarded_grid *gg, const dg_result *r,
                      int32_t *routes)
{
    const dg_grid *g = &gg->grid;
    CHECK(guard_intact(gg));
    const char *why = hard_validate(g, r);
    CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
    CHECK(grid_connected(g) && r->metrics.regions == 1);
    const dg_metrics *m = &r->metrics;
    CHECK(m->placed == r->room_count && r->room_count >= 2);
    CHECK(m->stopped_early == (m->placed < m->requested));
    CHECK(m->attempts <= (int64_t)m->requested * k->p.max_tries && m->failures <= m->attempts);
    if (k->p.rooms_min)
        CHECK(m->requested >= k->p.rooms_min && m->requested <= k->p.rooms_max);
    check_rooms(k, g, r);
    check_corridors(k, g, r);
    check_links(r, routes);
    check_ends(g, r);
    check_contract(k, g, r);
}

TEST(scatter_properties_over_many_seeds)
{
    sc_case cases[8];
    int n = sc_cases(cases), maps = 0;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, cases[k].width, cases[k].height, 3));
        int32_t extra = 0, edge_open = 0;
        for (int s = 0; s < cases[k].seeds && !test_failures(); s++, maps++)
        {
            dg_status st = dg_scatter_generate(&gg.grid, &cases[k].p, (uint64_t)s * 7919u + 1, &r,
                                               NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", cases[k].name, s, dg_status_str(st));
            int32_t routes = 0;
            check_map(&cases[k], &gg, &r, &routes);
            extra += routes - (r.room_count - 1);
            if (cases[k].p.loop_permille == 0)
                CHECK(routes == r.room_count - 1); /* a tree */
            for (int32_t x = 0; x < gg.grid.width; x++)
                edge_open += is_open(&gg.grid, x, 0) + is_open(&gg.grid, x, gg.grid.height - 1);
        }
        if (cases[k].p.loop_permille == 1000)
            CHECKF(extra > cases[k].seeds / 4, "%s: only %d loop corridors", cases[k].name, (int)extra);
        if (!cases[k].p.border)
            CHECKF(edge_open > 0, "%s: nothing ever reached the edge", cases[k].name);
        guard_free(&gg);
    }
    CHECK(maps >= 1000);
    dg_result_free(&r);
}

/* The smallest boards at the defaults: 14x7 (two rooms side by side) and
 * 8x12 (stacked); a cell less is DG_E_NOSPACE, or DG_E_TOO_SMALL when not
 * even one room fits with a free row and column; grid and result untouched. */
TEST(scatter_smallest_boards_at_defaults)
{
    static const struct { int32_t w, h; dg_status want; } sizes[] = {
        {14, 8, DG_OK}, {8, 14, DG_OK}, {13, 8, DG_E_NOSPACE}, {8, 13, DG_E_NOSPACE},
        {14, 7, DG_E_TOO_SMALL}, {7, 14, DG_E_TOO_SMALL}, {13, 13, DG_E_NOSPACE},
        {15, 9, DG_OK}, {21, 13, DG_OK}, {4096, 8, DG_OK}, {8, 600, DG_OK},
    };
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    sc_case k = {"smallest", 0, 0, 0, p};
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        int seeds = sizes[i].w * sizes[i].h > 4000 ? 20 : 300;
        for (uint64_t seed = 1; seed <= (uint64_t)seeds && !test_failures(); seed++)
        {
            dg_grid_fill(&gg.grid, 0x5A);
            uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
            dg_diag d;
            dg_status st = dg_scatter_generate(&gg.grid, &p, seed, &r, NULL, &d);
            CHECKF(st == sizes[i].want, "%dx%d seed %d: %s", (int)sizes[i].w, (int)sizes[i].h,
                   (int)seed, dg_status_str(st));
            if (st != DG_OK)
            {
                CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
                CHECK(d.status == st && strstr(d.message, "smallest") != NULL);
                continue;
            }
            int32_t routes;
            k.width = sizes[i].w, k.height = sizes[i].h;
            check_map(&k, &gg, &r, &routes);
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* By area (rooms_min 0): 6 to 8 rooms per 1000 cells inside the border, at
 * least 2, capped by rooms_max; at the defaults nearly all are placed (a room
 * that finds no spot in its tries is given up). */
TEST(scatter_room_count_follows_area)
{
    static const int32_t sizes[][2] = {{80, 25}, {80, 50}, {200, 200}, {30, 12}};
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        int32_t w = sizes[i][0], h = sizes[i][1];
        int64_t usable = (int64_t)(w - 2) * (h - 2);
        int32_t lo = (int32_t)SC_MAX(2, usable * 6 / 1000), hi = (int32_t)SC_MAX(lo, usable * 8 / 1000);
        guarded_grid gg;
        CHECK(guard_make(&gg, w, h, 0));
        int64_t asked = 0, placed = 0;
        int32_t seeds = w * h > 10000 ? 20 : 200;
        for (int32_t seed = 1; seed <= seeds; seed++)
        {
            p.rooms_max = DG_SCATTER_MAX_ROOMS;
            CHECK(dg_scatter_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            CHECK(r.metrics.requested >= lo && r.metrics.requested <= hi);
            asked += r.metrics.requested;
            placed += r.metrics.placed;
            p.rooms_max = 3;
            CHECK(dg_scatter_generate(&gg.grid, &p, (uint64_t)seed, &r, NULL, NULL) == DG_OK);
            CHECK(r.metrics.requested <= 3 && r.room_count >= 2 && r.room_count <= 3);
        }
        CHECKF(placed * 100 >= asked * 95, "%dx%d: %lld of %lld rooms placed", (int)w, (int)h,
               (long long)placed, (long long)asked);
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Each option does what it says. */
TEST(scatter_options)
{
    dg_scatter_params p;
    dg_result r;
    dg_result_init(&r, NULL);
    guarded_grid gg;
    CHECK(guard_make(&gg, 100, 60, 0));
    int32_t loops_none = 0, loops_all = 0, routes;
    sc_case k = {"options", 100, 60, 0, {0}};
    for (uint64_t seed = 1; seed <= 40; seed++)
    {
        dg_scatter_defaults(&p);
        p.loop_permille = 0; /* a tree: one route fewer than rooms */
        k.p = p;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        check_map(&k, &gg, &r, &routes);
        CHECK(routes == r.room_count - 1);
        loops_none += routes - (r.room_count - 1);
        p.loop_permille = 1000;
        k.p = p;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        check_map(&k, &gg, &r, &routes);
        loops_all += routes - (r.room_count - 1);
        dg_scatter_defaults(&p); /* an explicit room count and sizes, a wide gap */
        p.rooms_min = p.rooms_max = 6;
        p.room_min_w = p.room_max_w = 5, p.room_min_h = p.room_max_h = 4, p.gap = 8;
        k.p = p;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        check_map(&k, &gg, &r, &routes);
        CHECK(r.room_count == 6 && r.metrics.requested == 6);
        p.max_tries = 1; /* one position per room: some miss */
        p.rooms_min = 2, p.rooms_max = 40;
        k.p = p;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
        check_map(&k, &gg, &r, &routes);
        CHECK(r.metrics.attempts <= r.metrics.requested);
    }
    CHECK(loops_none == 0 && loops_all > 40);
    guard_free(&gg);
    dg_result_free(&r);
}

/* One bad field at a time: the status, a message naming it, grid and result untouched. */
typedef struct sc_bad {
    const char *field;
    dg_status want;
    int32_t offset_value[2]; /* which field (index into the struct's int32 fields), value */
} sc_bad;

TEST(scatter_rejects_bad_parameters)
{
    static const sc_bad bad[] = {
        {"rooms_min", DG_E_INVALID, {0, -1}},       {"rooms_max", DG_E_INVALID, {1, 0}},
        {"rooms_max", DG_E_INVALID, {1, DG_SCATTER_MAX_ROOMS + 1}},
        {"room_min_w", DG_E_INVALID, {2, 0}},       {"room_min_w", DG_E_INVALID, {3, 3}},
        {"room_max_w", DG_E_INVALID, {3, DG_GRID_MAX_DIM + 1}},
        {"room_min_h", DG_E_INVALID, {4, -5}},      {"room_min_h", DG_E_INVALID, {5, 2}},
        {"room_max_h", DG_E_INVALID, {5, INT32_MAX}},
        {"gap", DG_E_INVALID, {6, 0}},              {"gap", DG_E_INVALID, {6, 33}},
        {"max_tries", DG_E_INVALID, {7, 0}},        {"max_tries", DG_E_INVALID, {7, 1001}},
        {"neighbours", DG_E_INVALID, {8, 0}},       {"neighbours", DG_E_INVALID, {8, 17}},
        {"loop_permille", DG_E_INVALID, {9, -1}},   {"loop_permille", DG_E_INVALID, {9, 1001}},
        {"border", DG_E_INVALID, {10, 2}},          {"smallest room", DG_E_TOO_SMALL, {2, 77}},
        {"smallest room", DG_E_TOO_SMALL, {4, 22}}, {"two rooms", DG_E_NOSPACE, {2, 39}},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_scatter_params good;
    dg_scatter_defaults(&good);
    CHECK(offsetof(dg_scatter_params, spare) == 12 * sizeof(int32_t));
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_scatter_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_scatter_params p = good;
        int32_t fields[11];
        memcpy(fields, &p, sizeof fields);
        fields[bad[i].offset_value[0]] = bad[i].offset_value[1];
        if (i == 2) /* rooms_max over the limit: keep rooms_min below it */
            fields[0] = 0;
        if (bad[i].want != DG_E_INVALID && bad[i].offset_value[0] % 2 == 0)
            fields[bad[i].offset_value[0] + 1] = SC_MAX(fields[bad[i].offset_value[0] + 1],
                                                        bad[i].offset_value[1]);
        if (bad[i].want == DG_E_NOSPACE) /* too wide side by side, too tall stacked */
            fields[4] = fields[5] = 11;
        memcpy(&p, fields, sizeof fields);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_scatter_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == bad[i].want, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECKF(d.status == st && strstr(d.message, bad[i].field) != NULL, "case %d: %s", (int)i,
               d.message);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    }
    /* NULL params, NULL grid or cells, stride < width:
     * every_generator_rejects_each_parameter_out_of_range */
    dg_grid broken = gg.grid;
    broken.width = 1, broken.height = 1;
    CHECK(dg_scatter_generate(&broken, &good, 1, &r, NULL, NULL) == DG_E_TOO_SMALL);
    CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

/* Placing fewer rooms than rooms_min is DG_E_NOSPACE, grid and result untouched. */
TEST(scatter_too_few_rooms_is_nospace)
{
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    p.rooms_min = p.rooms_max = 30;
    guarded_grid gg;
    CHECK(guard_make(&gg, 40, 20, 1));
    dg_result r;
    dg_result_init(&r, NULL);
    dg_scatter_params two = p;
    two.rooms_min = 2;
    CHECK(dg_scatter_generate(&gg.grid, &two, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    dg_diag d;
    CHECK(dg_scatter_generate(&gg.grid, &p, 1, &r, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "of the 30 rooms needed") != NULL);
    CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

static uint64_t sc_hash(const sc_case *k, uint64_t seed, int32_t pad, uint64_t *result_hash)
{
    return gen_hash("scatter", &k->p, k->width, k->height, seed, pad, result_hash, 1);
}

TEST(scatter_is_deterministic_and_stride_blind)
{
    sc_case cases[8];
    int n = sc_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const char *why = gen_deterministic("scatter", &cases[k].p, cases[k].width,
                                            cases[k].height, 1);
        CHECKF(!why, "case %d: %s", k, why);
    }
}

/* Loops draw from their own stream: the rooms stay where they were. */
TEST(scatter_loops_do_not_move_rooms)
{
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 40, 0));
    dg_result plain, looped;
    dg_result_init(&plain, NULL);
    dg_result_init(&looped, NULL);
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        p.loop_permille = 0;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &plain, NULL, NULL) == DG_OK);
        p.loop_permille = 1000;
        CHECK(dg_scatter_generate(&gg.grid, &p, seed, &looped, NULL, NULL) == DG_OK);
        CHECK(plain.room_count == looped.room_count);
        for (int32_t i = 0; i < plain.room_count && i < looped.room_count; i++)
            CHECK(memcmp(&plain.rooms[i].rect, &looped.rooms[i].rect, sizeof(dg_rect)) == 0);
    }
    dg_result_free(&plain);
    dg_result_free(&looped);
    guard_free(&gg);
}

/* A large board: everything joined, the contract kept, in one call. */
TEST(scatter_large_board)
{
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    sc_case k = {"600x400", 600, 400, 1, p};
    guarded_grid gg;
    CHECK(guard_make(&gg, 600, 400, 1));
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_scatter_generate(&gg.grid, &p, 77, &r, NULL, NULL) == DG_OK);
    int32_t routes;
    check_links(&r, &routes);
    check_contract(&k, &gg.grid, &r);
    CHECK(grid_connected(&gg.grid) && r.room_count > 1000);
    guard_free(&gg);
    dg_result_free(&r);
}

TEST(scatter_golden_hashes)
{
    static const uint64_t want[6] = {
        0x4996e8a75377b3eaULL, 0xd2b35f89a080bab0ULL, 0x565ebce43edbace2ULL,
        0x2e226e00cb46f276ULL, 0xae8ec52a4bbc6f5eULL, 0xa86e581bc440cc99ULL,
    };
    sc_case cases[8];
    int n = sc_cases(cases);
    for (int k = 0; k < n; k++)
    {
        uint64_t got = sc_hash(&cases[k], 42, 0, NULL);
        if (getenv("DG_PRINT_GOLDEN"))
            printf("        0x%016llxULL,\n", (unsigned long long)got);
        CHECK_EQ_U64(got, want[k]);
    }
}

/* A wide board of many small rooms: the edge keys cannot hold the length and
 * both rooms in 64 bits (33 + 2 x 16 bits), so the edges take the merge sort
 * and the listing order is found again; pinned (tiles and result) as the
 * 24-byte edges made them. */
TEST(scatter_wide_board_unpacked_keys)
{
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    p.room_min_w = p.room_min_h = 1;
    p.room_max_w = p.room_max_h = 2;
    p.gap = 1;
    p.rooms_min = p.rooms_max = 34000;
    uint64_t result_hash = 0, got = gen_hash("scatter", &p, 32768, 64, 1, 0, &result_hash, 1);
    if (getenv("DG_PRINT_GOLDEN"))
        printf("        0x%016llxULL, 0x%016llxULL\n", (unsigned long long)got,
               (unsigned long long)result_hash);
    CHECK_EQ_U64(got, 0x06d21e420123a010ULL);
    CHECK_EQ_U64(result_hash, 0xf2d47b8adc54591aULL);
}
