/* Placement: start and exit, spawn points, multi-floor seeds. */
#include "analysis_maps.h"

typedef struct place_check {
    int32_t *dist, *labels;
    uint8_t *choke;
} place_check;

static void place_check_make(place_check *c, const dg_grid *g, dg_point start)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    c->dist = malloc(n * sizeof *c->dist);
    c->labels = malloc(n * sizeof *c->labels);
    c->choke = malloc(n);
    CHECK(dg_distance_map(g, NULL, &start, 1, 0, c->dist, n, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_regions(g, NULL, c->labels, n, NULL, 0, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_chokepoints(g, NULL, c->choke, n, NULL, NULL, NULL) == DG_OK);
}

static void place_check_free(place_check *c)
{
    free(c->dist);
    free(c->labels);
    free(c->choke);
}

static int good(const dg_grid *g, const place_check *c, dg_point p)
{
    return dg_grid_get(g, p.x, p.y) == DG_TILE_FLOOR && !c->choke[p.y * g->width + p.x];
}

TEST(place_properties_over_seeds)
{
    dg_point spawns[40];
    for (uint64_t seed = 1; seed <= 30 && !test_failures(); seed++)
    {
        am_map m;
        am_rooms(&m, 60 + (int32_t)(seed % 4) * 7, 40, seed);
        const dg_grid *g = &m.grid;
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.spawn_count = 12;
        pp.spawn_min_distance = 8;
        dg_placement pl;
        for (int i = 0; i < 40; i++)
            spawns[i] = (dg_point){-9, -9};
        CHECK(dg_place(g, &pp, seed, NULL, &pl, spawns, 40, NULL, NULL) == DG_OK);
        place_check c;
        place_check_make(&c, g, pl.start);
        int32_t w = g->width, n = w * g->height;
        /* Exit: the farthest good cell from start, first in row-major order on ties. */
        int32_t best = -1;
        dg_point far = {-1, -1};
        for (int32_t i = 0; i < n; i++)
        {
            dg_point p = {i % w, i / w};
            if (c.dist[i] > best && good(g, &c, p))
            {
                best = c.dist[i];
                far = p;
            }
        }
        CHECK(pl.exit.x == far.x && pl.exit.y == far.y && pl.distance == best);
        CHECK(good(g, &c, pl.start) && good(g, &c, pl.exit));
        CHECK(pl.spawn_count == 12);
        for (int32_t k = 0; k < 12; k++)
        {
            dg_point s = spawns[k];
            CHECK(good(g, &c, s));
            CHECK(c.dist[s.y * w + s.x] >= 8);
            CHECK(!(s.x == pl.exit.x && s.y == pl.exit.y));
            for (int32_t j = 0; j < k; j++)
                CHECK(spawns[j].x != s.x || spawns[j].y != s.y);
        }
        CHECK(spawns[12].x == -9);
        /* Same seed, same answer; the result gets the markers too. */
        dg_point again[12];
        dg_placement pl2;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_place(g, &pp, seed, &r, &pl2, again, 12, NULL, NULL) == DG_OK);
        CHECK(memcmp(&pl, &pl2, sizeof pl) == 0 && memcmp(spawns, again, sizeof again) == 0);
        CHECK(r.marker_count == 14 && r.markers[0].kind == DG_MARKER_START &&
              r.markers[1].kind == DG_MARKER_EXIT && r.markers[13].kind == DG_MARKER_SPAWN);
        CHECK(r.start.x == pl.start.x && r.exit.y == pl.exit.y);
        CHECK(r.markers[5].pos.x == spawns[3].x && strcmp(r.markers[5].name, "spawn") == 0);
        dg_result_free(&r);
        /* Another seed moves spawns, never stairs. */
        CHECK(dg_place(g, &pp, seed + 1000, NULL, &pl2, again, 12, NULL, NULL) == DG_OK);
        CHECK(pl2.start.x == pl.start.x && pl2.exit.x == pl.exit.x);
        CHECK(memcmp(spawns, again, sizeof again) != 0);
        place_check_free(&c);
        am_free(&m);
    }
}

TEST(place_start_is_a_farthest_pair_end_in_the_largest_region)
{
    am_map m;
    am_make(&m, 30, 10, DG_TILE_WALL);
    dg_rect small = {1, 1, 3, 3}, big_a = {8, 1, 5, 5}, big_b = {20, 2, 6, 6}, corr = {13, 3, 7, 1};
    dg_grid_fill_rect(&m.grid, small, DG_TILE_FLOOR);
    dg_grid_fill_rect(&m.grid, big_a, DG_TILE_FLOOR);
    dg_grid_fill_rect(&m.grid, big_b, DG_TILE_FLOOR);
    dg_grid_fill_rect(&m.grid, corr, DG_TILE_CORRIDOR);
    dg_placement pl;
    CHECK(dg_place(&m.grid, NULL, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_OK);
    CHECK(pl.start.x >= 8 && pl.exit.x >= 8); /* not in the small room */
    /* The far ends: a corner of room B and of room A (the first in row-major
     * order of the two at 23 steps). */
    CHECK(pl.start.x == 25 && pl.start.y == 7);
    CHECK(pl.exit.x == 8 && pl.exit.y == 1);
    CHECK(pl.distance == 9 + 8 + 6);
    am_free(&m);
}

TEST(place_arrival_picks_the_nearest_passable_cell)
{
    for (uint64_t seed = 1; seed <= 8; seed++)
    {
        am_map m;
        am_rooms(&m, 50, 30, seed);
        const dg_grid *g = &m.grid;
        dg_rng rng;
        dg_rng_seed(&rng, seed, 44);
        for (int q = 0; q < 10; q++)
        {
            dg_place_params pp;
            dg_place_defaults(&pp);
            pp.arrival.x = (int32_t)dg_rng_below(&rng, 50);
            pp.arrival.y = (int32_t)dg_rng_below(&rng, 30);
            dg_placement pl;
            CHECK(dg_place(g, &pp, 3, NULL, &pl, NULL, 0, NULL, NULL) == DG_OK);
            int64_t best = INT64_MAX;
            dg_point want = {-1, -1};
            for (int32_t y = 0; y < 30; y++)
                for (int32_t x = 0; x < 50; x++)
                {
                    int64_t dx = x - pp.arrival.x, dy = y - pp.arrival.y;
                    if (dg_tile_passable(dg_grid_get(g, x, y)) && dx * dx + dy * dy < best)
                    {
                        best = dx * dx + dy * dy;
                        want = (dg_point){x, y};
                    }
                }
            CHECK(pl.start.x == want.x && pl.start.y == want.y);
        }
        am_free(&m);
    }
}

/* Floors chain through arrival = the previous exit; any floor is rebuilt from
 * its seed and its saved arrival, and floors without arrival are independent. */
TEST(place_multi_floor)
{
    const uint64_t master = 0xC0FFEE;
    dg_placement floors[6];
    dg_point arrival = {-1, -1};
    dg_point saved_arrival[6];
    for (int32_t k = 0; k < 6; k++)
    {
        uint64_t s = dg_floor_seed(master, k);
        CHECK(s == dg_hash_combine(master, (uint64_t)k));
        for (int32_t j = 0; j < k; j++)
            CHECK(s != dg_floor_seed(master, j));
        am_map m;
        am_rooms(&m, 64, 40, s);
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.arrival = arrival;
        pp.spawn_count = 3;
        saved_arrival[k] = arrival;
        CHECK(dg_place(&m.grid, &pp, s, NULL, &floors[k], NULL, 0, NULL, NULL) == DG_OK);
        if (k > 0)
            CHECK(dg_tile_passable(dg_grid_get(&m.grid, floors[k].start.x, floors[k].start.y)));
        arrival = floors[k].exit;
        am_free(&m);
    }
    for (int32_t k = 5; k >= 0; k -= 2)
    {
        uint64_t s = dg_floor_seed(master, k);
        am_map m;
        am_rooms(&m, 64, 40, s);
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.arrival = saved_arrival[k];
        pp.spawn_count = 3;
        dg_placement again;
        CHECK(dg_place(&m.grid, &pp, s, NULL, &again, NULL, 0, NULL, NULL) == DG_OK);
        CHECK(memcmp(&again, &floors[k], sizeof again) == 0);
        am_free(&m);
    }
    CHECK(dg_floor_seed(master, -1) != dg_floor_seed(master, 1));
}

TEST(place_bad_input_and_no_space)
{
    am_map m;
    am_rooms(&m, 40, 24, 2);
    dg_place_params pp;
    dg_place_defaults(&pp);
    CHECK(pp.arrival.x == -1 && pp.arrival.y == -1 && pp.spawn_min_distance == 6);
    dg_placement pl, before;
    memset(&pl, 0x4C, sizeof pl);
    before = pl;
    dg_point spawns[8];
    memset(spawns, 0x4C, sizeof spawns);
    dg_diag diag;
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_place(NULL, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_E_NULL);
    CHECK(dg_place(&m.grid, &pp, 1, NULL, NULL, NULL, 0, NULL, NULL) == DG_E_NULL);
    pp.spawn_count = -1;
    CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_E_INVALID);
    pp.spawn_count = 9;
    CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, spawns, 8, NULL, &diag) == DG_E_BUFFER);
    CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, spawns, -1, NULL, NULL) == DG_E_INVALID);
    pp.spawn_count = 2;
    pp.arrival.x = 40;
    pp.arrival.y = 0;
    CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, spawns, 8, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "arrival") != NULL);
    pp.arrival.x = -1;
    pp.arrival.y = -1;
    pp.spawn_count = 5000;
    CHECK(dg_place(&m.grid, &pp, 1, &r, &pl, NULL, 0, NULL, &diag) == DG_E_NOSPACE);
    CHECK(strstr(diag.message, "qualify") != NULL);
    CHECK(r.marker_count == 0 && r.start.x == -1);
    pp.spawn_count = 2;
    pp.spawn_min_distance = 100000;
    CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, spawns, 8, NULL, NULL) == DG_E_NOSPACE);
    CHECK(memcmp(&pl, &before, sizeof pl) == 0);
    for (int i = 0; i < 8; i++)
        CHECK(spawns[i].x == 0x4C4C4C4C);
    am_map empty;
    am_make(&empty, 10, 10, DG_TILE_WALL);
    CHECK(dg_place(&empty.grid, NULL, 1, NULL, &pl, NULL, 0, NULL, &diag) == DG_E_NOSPACE);
    pp.spawn_min_distance = 0;
    pp.spawn_count = 0;
    pp.arrival.x = 3;
    pp.arrival.y = 3;
    CHECK(dg_place(&empty.grid, &pp, 1, NULL, &pl, NULL, 0, NULL, &diag) == DG_E_NOSPACE);
    /* A grid with passable cells but no room floor still gets stairs. */
    dg_grid_set(&empty.grid, 4, 4, DG_TILE_CORRIDOR);
    dg_grid_set(&empty.grid, 5, 4, DG_TILE_CORRIDOR);
    CHECK(dg_place(&empty.grid, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_OK);
    CHECK(pl.start.x == 4 && pl.exit.x == 5 && pl.distance == 1);
    CHECK(memcmp(&before, &before, sizeof before) == 0);
    /* Out of memory leaves everything as it was and leaks nothing. */
    for (int32_t budget = 0; budget < 20; budget++)
    {
        am_budget b = {budget, 0};
        dg_allocator a = am_budget_allocator(&b);
        dg_placement q = before;
        dg_status st = dg_place(&m.grid, NULL, 1, NULL, &q, NULL, 0, &a, NULL);
        CHECK(b.live == 0);
        if (st == DG_OK)
        {
            CHECK(budget > 0);
            break;
        }
        CHECK(st == DG_E_NOMEM && memcmp(&q, &before, sizeof q) == 0);
    }
    dg_result_free(&r);
    am_free(&empty);
    am_free(&m);
}

TEST(place_golden)
{
    am_map m;
    am_rooms(&m, 80, 50, 77);
    dg_place_params pp;
    dg_place_defaults(&pp);
    pp.spawn_count = 10;
    dg_placement pl;
    dg_point spawns[10];
    CHECK(dg_place(&m.grid, &pp, 5, NULL, &pl, spawns, 10, NULL, NULL) == DG_OK);
    CHECK(pl.start.x == 69 && pl.start.y == 32 && pl.exit.x == 65 && pl.exit.y == 3);
    CHECK(pl.distance == 157);
    CHECK_EQ_U64(am_hash(spawns, sizeof spawns), 0x074dd90d7bca2a0bULL);
    am_free(&m);
}

/* On attach maps: stairs far apart in room floor, spawns valid. */
TEST(place_attach_maps)
{
    for (uint64_t seed = 1; seed <= 8 && !test_failures(); seed++)
    {
        am_map m;
        am_make(&m, 80, 50, DG_TILE_VOID);
        dg_attach_params params;
        dg_attach_defaults(&params);
        CHECK(dg_attach_generate(&m.grid, &params, seed, NULL, NULL, NULL) == DG_OK);
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.spawn_count = 10;
        dg_placement pl;
        dg_point spawns[10];
        CHECK(dg_place(&m.grid, &pp, seed, NULL, &pl, spawns, 10, NULL, NULL) == DG_OK);
        place_check c;
        place_check_make(&c, &m.grid, pl.start);
        CHECK(good(&m.grid, &c, pl.start) && good(&m.grid, &c, pl.exit));
        CHECK(pl.distance == c.dist[pl.exit.y * 80 + pl.exit.x] && pl.distance >= 40);
        for (int k = 0; k < 10; k++)
            CHECK(good(&m.grid, &c, spawns[k]) && c.dist[spawns[k].y * 80 + spawns[k].x] >= 6);
        place_check_free(&c);
        am_free(&m);
    }
}

/* The nearest-cell search visits only ring cells inside the grid: a thin grid
 * with its only floor at the far end costs its cells, not its width squared
 * (this took seconds before). */
TEST(r2_place_thin_grids_find_the_far_floor)
{
    const int32_t n = DG_GRID_MAX_DIM;
    for (int tall = 0; tall <= 1; tall++)
    {
        am_map m;
        am_make(&m, tall ? 1 : n, tall ? n : 1, DG_TILE_WALL);
        dg_point far = {tall ? 0 : n - 1, tall ? n - 1 : 0};
        dg_grid_set(&m.grid, far.x, far.y, DG_TILE_FLOOR);
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.arrival.x = pp.arrival.y = 0;
        dg_placement pl;
        CHECK(dg_place(&m.grid, &pp, 1, NULL, &pl, NULL, 0, NULL, NULL) == DG_OK);
        CHECK(pl.start.x == far.x && pl.start.y == far.y);
        CHECK(pl.exit.x == far.x && pl.exit.y == far.y && pl.distance == 0);
        am_free(&m);
    }
}

/* Without an arrival, a generator's start and exit in the result are kept:
 * the placement, the result and its START/EXIT markers all agree with them. */
TEST(r2_place_keeps_the_generators_start_and_exit)
{
    am_map m;
    am_make(&m, 80, 40, DG_TILE_VOID);
    dg_chain_params cp;
    dg_chain_defaults(&cp);
    cp.loop_chance = 300;
    dg_result r;
    dg_result_init(&r, NULL);
    int moved = 0;
    for (uint64_t seed = 1; seed <= 6; seed++)
    {
        CHECK(dg_chain_generate(&m.grid, &cp, seed, &r, NULL, NULL) == DG_OK);
        dg_point start = r.start, exit = r.exit;
        int32_t start_room = r.start_room, exit_room = r.exit_room;
        dg_placement alone, kept;
        CHECK(dg_place(&m.grid, NULL, seed, NULL, &alone, NULL, 0, NULL, NULL) == DG_OK);
        CHECK(dg_place(&m.grid, NULL, seed, &r, &kept, NULL, 0, NULL, NULL) == DG_OK);
        moved += alone.start.x != start.x || alone.start.y != start.y;
        CHECK(kept.start.x == start.x && kept.start.y == start.y);
        CHECK(kept.exit.x == exit.x && kept.exit.y == exit.y);
        CHECK(r.start.x == start.x && r.exit.y == exit.y && r.start_room == start_room &&
              r.exit_room == exit_room);
        CHECK(r.marker_count == 2 && r.markers[0].pos.x == start.x && r.markers[1].pos.y == exit.y);
        int32_t *dist = malloc(80 * 40 * sizeof *dist);
        CHECK(dg_distance_map(&m.grid, NULL, &start, 1, 0, dist, 80 * 40, NULL, NULL, NULL) == DG_OK);
        CHECK(kept.distance == dist[exit.y * 80 + exit.x]);
        free(dist);
        /* An arrival still replaces both. */
        dg_place_params pp;
        dg_place_defaults(&pp);
        pp.arrival = alone.start;
        CHECK(dg_place(&m.grid, &pp, seed, &r, &kept, NULL, 0, NULL, NULL) == DG_OK);
        CHECK(r.start.x == alone.start.x && r.start.y == alone.start.y);
        CHECK(r.exit.x == kept.exit.x && r.exit.y == kept.exit.y);
    }
    CHECK(moved > 0); /* the test can tell the two apart */
    dg_result_free(&r);
    am_free(&m);
}

/* A kept start or exit must be usable: else DG_E_INVALID and nothing written. */
TEST(r2_place_rejects_a_bad_kept_start_or_exit)
{
    am_map m;
    am_rooms(&m, 40, 24, 3);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_point floor = am_first_floor(&m.grid);
    const dg_point starts[4] = {{40, 0}, {INT32_MAX, INT32_MAX}, {0, 0}, floor};
    const dg_point exits[4] = {{-1, -1}, {-1, -1}, {-1, -1}, {INT32_MIN, 5}};
    for (int k = 0; k < 4; k++)
    {
        r.start = starts[k];
        r.exit = exits[k];
        dg_placement pl, before;
        memset(&pl, 0x5A, sizeof pl);
        before = pl;
        dg_diag diag;
        CHECK(dg_place(&m.grid, NULL, 1, &r, &pl, NULL, 0, NULL, &diag) == DG_E_INVALID);
        CHECK(strstr(diag.message, "result") != NULL);
        CHECK(memcmp(&pl, &before, sizeof pl) == 0 && r.marker_count == 0);
        CHECK(r.start.x == starts[k].x && r.exit.x == exits[k].x);
    }
    dg_result_free(&r);
    am_free(&m);
}

/* Caller rooms reaching INT32_MAX: the room lookup for markers is 64-bit. */
TEST(r2_place_extreme_caller_rooms)
{
    am_map m;
    am_rooms(&m, 40, 24, 4);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_room far;
    memset(&far, 0, sizeof far);
    far.rect = (dg_rect){INT32_MAX - 10, INT32_MAX - 10, INT32_MAX, INT32_MAX};
    far.prefab = -1;
    far.parent = -1;
    dg_room huge = far;
    huge.rect = (dg_rect){5, 5, INT32_MAX, INT32_MAX};
    dg_room both[2] = {far, huge};
    r.rooms = both; /* borrowed: detached again before dg_result_free */
    r.room_count = 2;
    dg_placement pl;
    CHECK(dg_place(&m.grid, NULL, 1, &r, &pl, NULL, 0, NULL, NULL) == DG_OK);
    CHECK(r.marker_count == 2);
    for (int32_t i = 0; i < r.marker_count; i++)
    {
        dg_point p = r.markers[i].pos;
        CHECK(r.markers[i].room == (p.x >= 5 && p.y >= 5 ? 1 : -1));
    }
    r.rooms = NULL;
    r.room_count = 0;
    dg_result_free(&r);
    am_free(&m);
}
