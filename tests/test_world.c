/* The infinite world: door rules, distances, rendering, explorer. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define SPAN 50 /* windows of (2 * SPAN + 1)^2 rooms */
#define SIDE (2 * SPAN + 1)
#define MIN32(a, b) ((a) < (b) ? (a) : (b))

static dg_world *make_world(uint64_t seed, int32_t loops, int32_t fix)
{
    dg_world_params p;
    dg_world_defaults(&p);
    p.loop_permille = loops;
    p.dead_end_fix = fix;
    dg_world *w = NULL;
    CHECK(dg_world_create(&p, seed, NULL, &w, NULL) == DG_OK);
    return w;
}

/* The same with every room filling its cell (room_min = room_size). */
static dg_world *make_full_world(uint64_t seed, int32_t loops, int32_t fix)
{
    dg_world_params p;
    dg_world_defaults(&p);
    p.loop_permille = loops;
    p.dead_end_fix = fix;
    p.room_min = p.room_size;
    dg_world *w = NULL;
    CHECK(dg_world_create(&p, seed, NULL, &w, NULL) == DG_OK);
    return w;
}

static dg_world_room room_at(const dg_world *w, int64_t x, int64_t y)
{
    dg_world_room r;
    memset(&r, 0, sizeof r);
    CHECK(dg_world_room_info(w, x, y, &r) == DG_OK);
    return r;
}

static int popcount4(int32_t m)
{
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
}

/* Door masks of the (SIDE + 2)^2 rooms around (cx, cy), border included. */
static int32_t *door_window(const dg_world *w, int64_t cx, int64_t cy)
{
    int32_t n = SIDE + 2;
    int32_t *m = malloc((size_t)n * (size_t)n * sizeof *m);
    for (int32_t j = 0; j < n; j++)
        for (int32_t i = 0; i < n; i++)
            m[j * n + i] = room_at(w, cx - SPAN - 1 + i, cy - SPAN - 1 + j).doors;
    return m;
}

static int symmetric(const int32_t *m)
{
    int32_t n = SIDE + 2;
    for (int32_t j = 0; j < n; j++)
        for (int32_t i = 0; i < n; i++)
        {
            int32_t d = m[j * n + i];
            if (i + 1 < n && !!(d & DG_SIDE_E) != !!(m[j * n + i + 1] & DG_SIDE_W))
                return 0;
            if (j + 1 < n && !!(d & DG_SIDE_S) != !!(m[(j + 1) * n + i] & DG_SIDE_N))
                return 0;
        }
    return 1;
}

static const int32_t configs[][2] = {{0, 0}, {100, 0}, {300, 500}, {0, 1000}, {1000, 1000}};
#define CONFIGS ((int)(sizeof configs / sizeof configs[0]))

TEST(world_doors_are_symmetric)
{
    for (uint64_t seed = 1; seed <= 12; seed++)
        for (int c = 0; c < CONFIGS; c++)
        {
            dg_world *w = make_world(seed, configs[c][0], configs[c][1]);
            int32_t *m = door_window(w, (int64_t)seed * 977 - 2000, 0);
            CHECKF(symmetric(m), "seed %d config %d", (int)seed, c);
            free(m);
            m = door_window(w, 0, 0);
            CHECKF(symmetric(m), "seed %d config %d at origin", (int)seed, c);
            free(m);
            dg_world_free(w);
        }
}

/* A step between rooms of the window (not its outer ring) through a door. */
static int door_step(const void *user, int32_t from, int32_t to, int dir)
{
    const int32_t *m = user, n = SIDE + 2, i = to % n, j = to / n;
    return i >= 1 && j >= 1 && i <= SIDE && j <= SIDE && (m[from] & (1 << dir));
}

TEST(world_bfs_distance_is_manhattan)
{
    int32_t n = SIDE + 2;
    for (uint64_t seed = 11; seed <= 20; seed++)
        for (int c = 0; c < CONFIGS; c++)
        {
            dg_world *w = make_world(seed, configs[c][0], configs[c][1]);
            int32_t *m = door_window(w, 0, 0);
            int32_t *dist = bfs_lattice(n, n, (SPAN + 1) * n + SPAN + 1, door_step, m, NULL);
            CHECK(dist != NULL);
            int bad = !dist;
            for (int32_t j = 1; j <= SIDE && !bad; j++)
                for (int32_t i = 1; i <= SIDE && !bad; i++)
                {
                    int32_t x = i - SPAN - 1, y = j - SPAN - 1;
                    int32_t want = abs(x) + abs(y);
                    bad = dist[j * n + i] != want || room_at(w, x, y).distance != want;
                    CHECKF(!bad, "seed %d config %d room (%d, %d): bfs %d, want %d", (int)seed, c,
                           (int)x, (int)y, (int)dist[j * n + i], (int)want);
                }
            free(dist);
            free(m);
            dg_world_free(w);
        }
}

TEST(world_parent_points_one_step_closer)
{
    dg_world *w = make_world(5, 200, 1000);
    dg_world_room o = room_at(w, 0, 0);
    CHECK(o.parent == 0 && o.doors == 15 && o.door_class == DG_DOORCLASS_FOUR);
    for (int64_t y = -20; y <= 20; y++)
        for (int64_t x = -20; x <= 20; x++)
        {
            if (x == 0 && y == 0)
                continue;
            dg_world_room r = room_at(w, x, y);
            int64_t px = x + (r.parent == DG_SIDE_E) - (r.parent == DG_SIDE_W);
            int64_t py = y + (r.parent == DG_SIDE_S) - (r.parent == DG_SIDE_N);
            CHECK(popcount4(r.parent) == 1 && (r.doors & r.parent));
            CHECK(room_at(w, px, py).distance == r.distance - 1);
        }
    dg_world_free(w);
}

/* Dead ends and loop edges over a window, as fractions in permille. */
static void degree_stats(const dg_world *w, int32_t *dead_permille, int32_t *four_permille)
{
    int32_t dead = 0, four = 0;
    for (int32_t y = -SPAN; y <= SPAN; y++)
        for (int32_t x = -SPAN; x <= SPAN; x++)
        {
            int k = popcount4(room_at(w, x, y).doors);
            dead += k == 1;
            four += k == 4;
        }
    *dead_permille = dead * 1000 / (SIDE * SIDE);
    *four_permille = four * 1000 / (SIDE * SIDE);
}

TEST(world_dead_end_fraction_follows_the_fix)
{
    for (uint64_t seed = 21; seed <= 23; seed++)
    {
        int32_t dead[5], four;
        const int32_t fixes[5] = {0, 250, 500, 750, 1000};
        for (int i = 0; i < 5; i++)
        {
            dg_world *w = make_world(seed, 0, fixes[i]);
            degree_stats(w, &dead[i], &four);
            dg_world_free(w);
        }
        CHECKF(dead[0] > 150 && dead[0] < 350, "tree dead ends %d permille", (int)dead[0]);
        CHECK(dead[4] == 0);
        for (int i = 1; i < 4; i++)
        {
            /* a fix of f keeps about (1 - f) of the dead ends (a few more are
             * opened by a neighbour's fix) */
            int32_t want = dead[0] * (1000 - fixes[i]) / 1000;
            CHECKF(dead[i] <= want + 15 && dead[i] >= want - 40,
                   "seed %d fix %d: %d permille dead ends, about %d expected", (int)seed,
                   (int)fixes[i], (int)dead[i], (int)want);
        }
    }
}

TEST(world_loops_open_the_configured_share_of_edges)
{
    /* Count doors beyond the tree: every room but the origin has one tree edge. */
    const int32_t loops[3] = {0, 100, 400};
    for (int i = 0; i < 3; i++)
    {
        dg_world *w = make_world(31, loops[i], 0);
        int64_t doors = 0;
        for (int32_t y = -SPAN; y <= SPAN; y++)
            for (int32_t x = -SPAN; x <= SPAN; x++)
            {
                int32_t d = room_at(w, x, y).doors;
                doors += ((d & DG_SIDE_E) && x < SPAN) + ((d & DG_SIDE_S) && y < SPAN);
            }
        int64_t edges = 2 * (int64_t)SIDE * (SIDE - 1), tree = (int64_t)SIDE * SIDE - 1;
        int64_t extra_permille = (doors - tree) * 1000 / (edges - tree);
        CHECKF(extra_permille >= loops[i] - 25 && extra_permille <= loops[i] + 25,
               "loop %d: %d permille of the non-tree edges open", (int)loops[i],
               (int)extra_permille);
        dg_world_free(w);
    }
}

TEST(world_rooms_do_not_depend_on_query_order)
{
    dg_world *w = make_world(41, 150, 600);
    dg_world_room a = room_at(w, 3, -7);
    for (int64_t i = -30; i < 30; i++)
        (void)room_at(w, i * 31, -i);
    dg_world_room b = room_at(w, 3, -7);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    dg_world *w2 = make_world(41, 150, 600);
    dg_world_room c = room_at(w2, 3, -7);
    CHECK(memcmp(&a, &c, sizeof a) == 0);
    dg_world *w3 = make_world(42, 150, 600);
    int differ = 0;
    for (int64_t i = 1; i < 40; i++)
        differ += room_at(w, i, i).doors != room_at(w3, i, i).doors ||
                  room_at(w, i, i).seed != room_at(w3, i, i).seed;
    CHECK(differ > 20);
    dg_world_free(w);
    dg_world_free(w2);
    dg_world_free(w3);
}

/* ---- rendering --------------------------------------------------------------- */

static uint8_t *render_window(const dg_world *w, int64_t tx, int64_t ty, int32_t width,
                              int32_t height)
{
    uint8_t *cells = malloc((size_t)width * (size_t)height);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, width, height, 0) == DG_OK);
    CHECK(dg_world_render(w, tx, ty, &g, NULL, 0, NULL, NULL) == DG_OK);
    return cells;
}

/* The window at room (rx, ry) .. (rx + rooms - 1, ...) rendered whole must
 * equal each room's own render, walls around it included. */
static void check_window_matches_rooms(const dg_world *w, int64_t rx, int64_t ry, int32_t rooms)
{
    int32_t p = dg_world_period(w), side = rooms * p + 1;
    uint8_t *whole = render_window(w, rx * p, ry * p, side, side);
    int bad = 0;
    for (int32_t j = 0; j < rooms && !bad; j++)
        for (int32_t i = 0; i < rooms && !bad; i++)
        {
            uint8_t *one = render_window(w, (rx + i) * p, (ry + j) * p, p + 1, p + 1);
            for (int32_t y = 0; y <= p && !bad; y++)
                bad = memcmp(one + y * (p + 1), whole + (j * p + y) * side + i * p,
                             (size_t)p + 1) != 0;
            CHECKF(!bad, "room (%lld, %lld) differs", (long long)(rx + i), (long long)(ry + j));
            free(one);
        }
    free(whole);
}

TEST(world_window_equals_room_renders)
{
    for (uint64_t seed = 51; seed <= 52; seed++)
    {
        dg_world *w = make_world(seed, 120, 700);
        check_window_matches_rooms(w, -SPAN, -SPAN, SIDE);
        dg_world_free(w);
    }
}

TEST(world_window_in_pieces_is_identical)
{
    dg_world *w = make_world(61, 100, 1000);
    const int32_t width = 257, height = 193;
    const int64_t tx = -1234, ty = 567;
    uint8_t *whole = render_window(w, tx, ty, width, height);
    uint8_t *pieces = malloc((size_t)width * height);
    memset(pieces, 0xEE, (size_t)width * height);
    dg_rng rng;
    dg_rng_seed(&rng, 61, 1);
    /* random vertical strips cut into random horizontal pieces */
    for (int32_t x0 = 0; x0 < width;)
    {
        int32_t w0 = dg_rng_range(&rng, 1, 40);
        w0 = MIN32(width - x0, w0);
        for (int32_t y0 = 0; y0 < height;)
        {
            int32_t h0 = dg_rng_range(&rng, 1, 40);
            h0 = MIN32(height - y0, h0);
            dg_grid g;
            CHECK(dg_grid_init(&g, pieces + (size_t)y0 * width + x0, w0, h0, width) == DG_OK);
            CHECK(dg_world_render(w, tx + x0, ty + y0, &g, NULL, 0, NULL, NULL) == DG_OK);
            y0 += h0;
        }
        x0 += w0;
    }
    CHECK(memcmp(whole, pieces, (size_t)width * height) == 0);
    free(whole);
    free(pieces);
    dg_world_free(w);
}

TEST(world_other_room_sizes_render_consistently)
{
    const int32_t sizes[3] = {3, 5, 125};
    for (int k = 0; k < 3; k++)
    {
        dg_world_params p;
        dg_world_defaults(&p);
        p.room_size = sizes[k];
        p.room_min = sizes[k];
        p.dead_end_fix = 700;
        dg_world *w = NULL;
        CHECK(dg_world_create(&p, 77, NULL, &w, NULL) == DG_OK);
        CHECK(dg_world_period(w) == sizes[k] + 1);
        check_window_matches_rooms(w, -3, -2, sizes[k] > 100 ? 3 : 12);
        dg_world_room r = room_at(w, 0, 0);
        uint8_t *box = render_window(w, 0, 0, sizes[k] + 2, sizes[k] + 2);
        int32_t n = sizes[k] + 2, mid = n / 2;
        CHECK(box[mid] == DG_TILE_DOOR && box[mid * n] == DG_TILE_DOOR && r.doors == 15);
        CHECK(box[mid * n + n - 1] == DG_TILE_DOOR && box[(n - 1) * n + mid] == DG_TILE_DOOR);
        CHECK(box[0] == DG_TILE_WALL && box[n + 1] == DG_TILE_FLOOR);
        free(box);
        dg_world_free(w);
    }
}

TEST(world_varied_sizes_render_consistently)
{
    const int32_t sizes[3] = {5, 9, 125}, mins[3] = {3, 4, 3};
    for (int k = 0; k < 3; k++)
    {
        dg_world_params p;
        dg_world_defaults(&p);
        p.room_size = sizes[k];
        p.room_min = mins[k];
        p.dead_end_fix = 700;
        dg_world *w = NULL;
        CHECK(dg_world_create(&p, 78, NULL, &w, NULL) == DG_OK);
        CHECK(dg_world_period(w) == sizes[k] + 2);
        check_window_matches_rooms(w, -3, -2, sizes[k] > 100 ? 3 : 12);
        /* the origin's four doors: corridors (or the door itself) at the cell's edges */
        int32_t n = sizes[k] + 2, c = n / 2;
        uint8_t *box = render_window(w, 0, 0, n, n);
        CHECK(room_at(w, 0, 0).doors == 15);
        CHECK(dg_tile_passable(box[c]) && dg_tile_passable(box[c * n]));
        CHECK(dg_tile_passable(box[c * n + n - 1]) && dg_tile_passable(box[(n - 1) * n + c]));
        CHECK(box[c * n + c] == DG_TILE_FLOOR && box[0] != DG_TILE_FLOOR);
        free(box);
        dg_world_free(w);
    }
}

/* Tile (x, y) of a rendered side x side window, DG_TILE_VOID outside. */
static uint8_t tile(const uint8_t *cells, int32_t side, int32_t x, int32_t y)
{
    return x < 0 || y < 0 || x >= side || y >= side ? DG_TILE_VOID : cells[y * side + x];
}

/* One varied room's cell: the interior is floor inside a wall ring, covers
 * the middle line, a door sits on that line in each wall with a door, with a
 * walled corridor (or the door itself) out to the cell's edge; no opening
 * elsewhere. Returns the number of broken rules. */
static int varied_cell_ok(const uint8_t *cells, int32_t side, int32_t bx, int32_t by,
                          int32_t p, const dg_world_room *r)
{
    int bad = 0, c = p / 2;
    int32_t x0 = r->inner_x - 1, x1 = r->inner_x + r->inner_w;
    int32_t y0 = r->inner_y - 1, y1 = r->inner_y + r->inner_h;
    bad += x0 < 0 || y0 < 0 || x1 > p - 1 || y1 > p - 1 || r->inner_w < 3 || r->inner_h < 3;
    bad += !(x0 < c && c < x1 && y0 < c && c < y1);
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++)
        {
            uint8_t t = tile(cells, side, bx + x, by + y);
            int ring = x == x0 || x == x1 || y == y0 || y == y1;
            int door_at = (x == c && y == y0 && (r->doors & DG_SIDE_N)) ||
                          (x == c && y == y1 && (r->doors & DG_SIDE_S)) ||
                          (y == c && x == x0 && (r->doors & DG_SIDE_W)) ||
                          (y == c && x == x1 && (r->doors & DG_SIDE_E));
            bad += ring ? t != (door_at ? DG_TILE_DOOR : DG_TILE_WALL) : t != DG_TILE_FLOOR;
        }
    /* the cell's edge tiles on the middle line: open exactly where a door is */
    bad += dg_tile_passable(tile(cells, side, bx + c, by)) != !!(r->doors & DG_SIDE_N);
    bad += dg_tile_passable(tile(cells, side, bx + c, by + p - 1)) != !!(r->doors & DG_SIDE_S);
    bad += dg_tile_passable(tile(cells, side, bx, by + c)) != !!(r->doors & DG_SIDE_W);
    bad += dg_tile_passable(tile(cells, side, bx + p - 1, by + c)) != !!(r->doors & DG_SIDE_E);
    /* a corridor has wall on both sides */
    for (int32_t i = 0; i < p; i++)
    {
        if (tile(cells, side, bx + c, by + i) == DG_TILE_CORRIDOR)
            bad += tile(cells, side, bx + c - 1, by + i) != DG_TILE_WALL ||
                   tile(cells, side, bx + c + 1, by + i) != DG_TILE_WALL;
        if (tile(cells, side, bx + i, by + c) == DG_TILE_CORRIDOR)
            bad += tile(cells, side, bx + i, by + c - 1) != DG_TILE_WALL ||
                   tile(cells, side, bx + i, by + c + 1) != DG_TILE_WALL;
    }
    return bad;
}

TEST(world_varied_rooms_have_walls_doors_and_corridors)
{
    for (uint64_t seed = 1; seed <= 4; seed++)
    {
        dg_world *w = make_world(seed * 71, 50 * (int32_t)seed, 300);
        int32_t p = dg_world_period(w), side = 21 * p;
        uint8_t *cells = render_window(w, -10 * p, -10 * p, side, side);
        dg_grid g;
        CHECK(dg_grid_init(&g, cells, side, side, 0) == DG_OK);
        int32_t widths[16] = {0}, offsets[16] = {0};
        for (int32_t j = 0; j < 21; j++)
            for (int32_t i = 0; i < 21; i++)
            {
                dg_world_room r = room_at(w, i - 10, j - 10);
                CHECKF(varied_cell_ok(cells, side, i * p, j * p, p, &r) == 0,
                       "seed %d room (%d, %d)", (int)seed, (int)(i - 10), (int)(j - 10));
                CHECK(r.inner_x + r.inner_w <= p - 2 && r.inner_y + r.inner_h <= p - 2);
                widths[r.inner_w & 15]++;
                offsets[r.inner_y & 15]++;
            }
        int sizes = 0, places = 0;
        for (int k = 0; k < 16; k++)
            sizes += widths[k] > 10, places += offsets[k] > 10;
        CHECK(sizes == 6 && places >= 4); /* 3..8 wide, at several places */
        CHECK(grid_connected(&g)); /* whole cells around the origin: the tree joins them */
        free(cells);
        dg_world_free(w);
    }
}

TEST(world_tiles_are_connected_and_doors_centred)
{
    dg_world *w = make_full_world(71, 50, 300);
    int32_t p = dg_world_period(w);
    int32_t side = 21 * p + 1;
    uint8_t *cells = render_window(w, -10 * p, -10 * p, side, side);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, side, side, 0) == DG_OK);
    CHECK(grid_connected(&g));
    for (int32_t j = 0; j < 21; j++)
        for (int32_t i = 0; i < 21; i++)
        {
            dg_world_room r = room_at(w, i - 10, j - 10);
            int32_t bx = i * p, by = j * p, mid = 1 + (p - 1) / 2;
            CHECK(dg_grid_get(&g, bx, by) == DG_TILE_WALL);
            CHECK((dg_grid_get(&g, bx + mid, by) == DG_TILE_DOOR) == !!(r.doors & DG_SIDE_N));
            CHECK((dg_grid_get(&g, bx, by + mid) == DG_TILE_DOOR) == !!(r.doors & DG_SIDE_W));
            CHECK((dg_grid_get(&g, bx + p, by + mid) == DG_TILE_DOOR) == !!(r.doors & DG_SIDE_E));
            CHECK((dg_grid_get(&g, bx + mid, by + p) == DG_TILE_DOOR) == !!(r.doors & DG_SIDE_S));
        }
    free(cells);
    dg_world_free(w);
}

TEST(world_golden_render)
{
    dg_world *w = make_world(2026, 100, 500);
    uint8_t *cells = render_window(w, -128, -128, 256, 256);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, 256, 256, 0) == DG_OK);
    CHECK_EQ_U64(dg_grid_hash(&g), 0xf3dcd352daf3045dULL);
    free(cells);
    uint64_t digest = 0;
    for (int64_t y = -20; y <= 20; y++)
        for (int64_t x = -20; x <= 20; x++)
        {
            dg_world_room r = room_at(w, x * 1000003, y);
            digest = dg_hash_combine(digest, r.seed ^ (uint64_t)r.doors ^ (uint64_t)r.difficulty);
        }
    CHECK_EQ_U64(digest, 0xbc3845f47fb85447ULL);
    dg_world_free(w);
}

/* ---- far coordinates ------------------------------------------------------------- */

TEST(world_far_coordinates_work)
{
    const int64_t M = DG_WORLD_COORD_MAX;
    const int64_t corners[4][2] = {
        {M - SIDE + 1, M - SIDE + 1}, {-M, -M}, {-M, M - SIDE + 1}, {M - SIDE + 1, -M}};
    dg_world *w = make_world(81, 100, 1000);
    for (int k = 0; k < 4; k++)
    {
        int64_t cx = corners[k][0] + SPAN, cy = corners[k][1] + SPAN;
        /* door_window reads one room beyond: keep the centre one room inside */
        cx += cx > 0 ? -1 : 1;
        cy += cy > 0 ? -1 : 1;
        int32_t *m = door_window(w, cx, cy);
        CHECKF(symmetric(m), "far window %d", k);
        free(m);
        for (int64_t j = -SPAN; j <= SPAN; j += 7)
            for (int64_t i = -SPAN; i <= SPAN; i += 7)
            {
                dg_world_room r = room_at(w, cx + i, cy + j);
                int64_t ax = r.x < 0 ? -r.x : r.x, ay = r.y < 0 ? -r.y : r.y;
                CHECK(r.distance == ax + ay);
                CHECK(r.doors & r.parent);
                CHECK(popcount4(r.doors) >= 2);
            }
        check_window_matches_rooms(w, corners[k][0], corners[k][1], 12);
    }
    /* the last rooms of the range render, one tile further does not */
    int32_t p = dg_world_period(w);
    uint8_t cells[64];
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, 8, 8, 0) == DG_OK);
    CHECK(dg_world_render(w, M * p + p - 8, M * p + p - 8, &g, NULL, 0, NULL, NULL) == DG_OK);
    CHECK(dg_world_render(w, -M * p, -M * p, &g, NULL, 0, NULL, NULL) == DG_OK);
    memset(cells, 0x77, sizeof cells);
    CHECK(dg_world_render(w, M * p + p - 7, 0, &g, NULL, 0, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_world_render(w, 0, -M * p - 1, &g, NULL, 0, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_world_render(w, INT64_MAX, INT64_MIN, &g, NULL, 0, NULL, NULL) == DG_E_INVALID);
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 0x77);
    dg_world_room r;
    CHECK(dg_world_room_info(w, M, -M, &r) == DG_OK);
    CHECK(dg_world_room_info(w, M + 1, 0, &r) == DG_E_INVALID);
    CHECK(dg_world_room_info(w, 0, INT64_MIN, &r) == DG_E_INVALID);
    int64_t rx, ry;
    CHECK(dg_world_room_of_tile(w, -1, p, &rx, &ry) == DG_OK && rx == -1 && ry == 1);
    CHECK(dg_world_room_of_tile(w, -p, p - 1, &rx, &ry) == DG_OK && rx == -1 && ry == 0);
    dg_world_free(w);
}

/* ---- difficulty ------------------------------------------------------------------- */

TEST(world_difficulty_follows_the_curve)
{
    dg_world_params p;
    dg_world_defaults(&p);
    p.curve_points = 3;
    p.curve_distance[1] = 10;
    p.curve_level[0] = 0;
    p.curve_level[1] = 5;
    p.curve_distance[2] = 110;
    p.curve_level[2] = 105;
    dg_world *w = NULL;
    CHECK(dg_world_create(&p, 9, NULL, &w, NULL) == DG_OK);
    CHECK(room_at(w, 0, 0).difficulty == 0);
    CHECK(room_at(w, 2, -2).difficulty == 2);
    CHECK(room_at(w, -3, 7).difficulty == 5);
    CHECK(room_at(w, 60, 0).difficulty == 55);
    CHECK(room_at(w, 0, 110).difficulty == 105);
    CHECK(room_at(w, DG_WORLD_COORD_MAX, DG_WORLD_COORD_MAX).difficulty == 105);
    dg_world_free(w);
    dg_world_defaults(&p);
    CHECK(dg_world_create(&p, 9, NULL, &w, NULL) == DG_OK);
    int32_t last = 0;
    for (int64_t d = 0; d < 700; d++)
    {
        int32_t level = room_at(w, d, 0).difficulty;
        CHECK(level >= last);
        last = level;
    }
    CHECK(room_at(w, 0, 0).difficulty == 1 && last == 100);
    dg_world_free(w);
}

/* ---- bad input --------------------------------------------------------------------- */

TEST(world_rejects_bad_params)
{
    dg_world *w = (dg_world *)(uintptr_t)0x1234;
    dg_diag diag;
    dg_world_params p;
    CHECK(dg_world_create(NULL, 1, NULL, NULL, &diag) == DG_E_NULL);
    struct {
        int32_t *field;
        int32_t value;
    } cases[] = { /* min - 1, max + 1: every_generator_rejects_each_parameter_out_of_range */
        {&p.room_size, 8},        {&p.room_size, 1},          {&p.room_size, 127},
        {&p.room_size, -9},       {&p.dead_end_fix, 5000},    {&p.furnish_permille, -3},
        {&p.curve_points, 0},     {&p.curve_points, 9},       {&p.room_min, 2},
        {&p.room_min, 11},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        dg_world_defaults(&p);
        *cases[i].field = cases[i].value;
        memset(&diag, 0, sizeof diag);
        CHECKF(dg_world_create(&p, 1, NULL, &w, &diag) == DG_E_INVALID, "case %d", (int)i);
        CHECK(diag.status == DG_E_INVALID && diag.message[0] != '\0');
        CHECK(w == (dg_world *)(uintptr_t)0x1234);
    }
    dg_world_defaults(&p);
    p.curve_distance[1] = 0;
    CHECK(dg_world_create(&p, 1, NULL, &w, &diag) == DG_E_INVALID);
    dg_world_defaults(&p);
    p.curve_distance[0] = 3;
    CHECK(dg_world_create(&p, 1, NULL, &w, &diag) == DG_E_INVALID);
    dg_world_defaults(&p);
    p.curve_distance[1] = (int64_t)INT32_MAX + 1;
    CHECK(dg_world_create(&p, 1, NULL, &w, &diag) == DG_E_INVALID);
    CHECK(w == (dg_world *)(uintptr_t)0x1234);
    /* NULL params mean the defaults */
    CHECK(dg_world_create(NULL, 1, NULL, &w, NULL) == DG_OK);
    dg_world_room r;
    CHECK(dg_world_room_info(NULL, 0, 0, &r) == DG_E_NULL);
    CHECK(dg_world_room_info(w, 0, 0, NULL) == DG_E_NULL);
    CHECK(dg_world_period(w) == 11 && dg_world_period(NULL) == 0);
    int64_t rx;
    CHECK(dg_world_room_of_tile(w, 0, 0, &rx, NULL) == DG_E_NULL);
    dg_world_free(w);
    dg_world_free(NULL);
}

TEST(world_render_rejects_bad_input_untouched)
{
    dg_world *w = make_world(91, 100, 0);
    guarded_grid gg;
    CHECK(guard_make(&gg, 40, 30, 5));
    CHECK(dg_grid_fill(&gg.grid, 0x5A) == DG_OK);
    dg_diag diag;
    dg_world_marker markers[4];
    int32_t count = -7;
    CHECK(dg_world_render(NULL, 0, 0, &gg.grid, NULL, 0, NULL, &diag) == DG_E_NULL);
    CHECK(dg_world_render(w, 0, 0, &gg.grid, NULL, 3, &count, &diag) == DG_E_INVALID);
    CHECK(dg_world_render(w, 0, 0, &gg.grid, markers, -1, &count, &diag) == DG_E_INVALID);
    CHECK(dg_world_render(w, INT64_MIN, 0, &gg.grid, NULL, 0, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "range") != NULL);
    CHECK(count == -7);
    for (int32_t y = 0; y < 30; y++)
        for (int32_t x = 0; x < 40; x++)
            CHECK(dg_grid_get(&gg.grid, x, y) == 0x5A);
    CHECK(dg_world_render(w, -13, 17, &gg.grid, markers, 4, &count, &diag) == DG_OK);
    CHECK(count == 0 && diag.status == DG_OK);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_world_free(w);
}

/* An allocator that fails after `budget` allocations. */
typedef struct failing {
    int budget;
    int live;
} failing;

static void *failing_alloc(void *user, size_t size)
{
    failing *f = user;
    if (f->budget-- <= 0)
        return NULL;
    f->live++;
    return malloc(size);
}

static void failing_free(void *user, void *ptr, size_t size)
{
    (void)size;
    failing *f = user;
    f->live--;
    free(ptr);
}

TEST(world_out_of_memory_is_reported)
{
    failing f = {0, 0};
    dg_allocator a = {failing_alloc, failing_free, &f};
    dg_world *w = NULL;
    dg_status st = DG_E_NOMEM;
    for (int budget = 0; budget < 16 && st == DG_E_NOMEM; budget++)
    {
        f.budget = budget;
        st = dg_world_create(NULL, 1, &a, &w, NULL);
        CHECK(st == DG_OK || (st == DG_E_NOMEM && w == NULL && f.live == 0));
    }
    CHECK(st == DG_OK);
    f.budget = 0;
    dg_explorer *e = NULL;
    CHECK(dg_explorer_create(w, &a, &e) == DG_E_NOMEM && e == NULL);
    f.budget = 2;
    CHECK(dg_explorer_create(w, &a, &e) == DG_OK);
    CHECK(dg_explorer_enter(e, 0, 0, NULL) == DG_OK);
    for (int64_t i = 1; i < 8; i++)
        CHECK(dg_explorer_enter(e, i, 0, NULL) == DG_OK);
    /* the ninth room needs a bigger table */
    CHECK(dg_explorer_enter(e, 8, 0, NULL) == DG_E_NOMEM);
    CHECK(dg_explorer_count(e) == 8);
    CHECK(dg_explorer_status(e, 8, 0) != DG_EXPLORE_VISITED);
    dg_world_pos one = {3, 3};
    CHECK(dg_explorer_restore(e, &one, NULL, 1, NULL) == DG_E_NOMEM);
    CHECK(dg_explorer_count(e) == 8);
    dg_explorer_free(e);
    dg_world_free(w);
    CHECK(f.live == 0);
}

/* Counts live bytes. */
typedef struct counting {
    int64_t live, peak;
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *c = user;
    c->live += (int64_t)size;
    c->peak = c->live > c->peak ? c->live : c->peak;
    return malloc(size);
}

static void counting_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    c->live -= (int64_t)size;
    free(ptr);
}

TEST(explorer_memory_grows_with_entered_rooms_only)
{
    dg_world *w = make_world(131, 100, 0);
    counting c = {0, 0};
    dg_allocator a = {counting_alloc, counting_free, &c};
    dg_explorer *e = NULL;
    CHECK(dg_explorer_create(w, &a, &e) == DG_OK);
    int64_t empty = c.live;
    /* looking around and querying far away costs nothing */
    for (int64_t i = -500; i < 500; i++)
        CHECK(dg_explorer_status(e, i * 1000, -i) == DG_EXPLORE_UNSEEN);
    CHECK(c.live == empty);
    for (int64_t i = 0; i < 1000; i++)
        CHECK(dg_explorer_enter(e, i % 40, i / 40, NULL) == DG_OK);
    /* 1000 rooms of 24 bytes in a table at most half full after doubling: <= 4x */
    CHECK(dg_explorer_count(e) == 1000);
    CHECK(c.live - empty <= 1000 * 24 * 4);
    int64_t after = c.live;
    for (int64_t i = 0; i < 1000; i++) /* entering again stores nothing new */
        CHECK(dg_explorer_enter(e, i % 40, i / 40, NULL) == DG_OK);
    CHECK(c.live == after);
    dg_explorer_free(e);
    CHECK(c.live == 0);
    dg_world_free(w);
}

/* ---- explorer ------------------------------------------------------------------------ */

static dg_explorer *make_explorer(const dg_world *w)
{
    dg_explorer *e = NULL;
    CHECK(dg_explorer_create(w, NULL, &e) == DG_OK);
    return e;
}

static const int64_t step_dx[4] = {0, 1, 0, -1}, step_dy[4] = {-1, 0, 1, 0};

/* A random walk through doors from the origin; returns the rooms in order. */
static dg_world_pos *random_walk(const dg_world *w, uint64_t seed, int32_t steps)
{
    dg_world_pos *path = malloc((size_t)(steps + 1) * sizeof *path);
    dg_rng rng;
    dg_rng_seed(&rng, seed, 7);
    path[0].x = path[0].y = 0;
    for (int32_t i = 1; i <= steps; i++)
    {
        dg_world_room r = room_at(w, path[i - 1].x, path[i - 1].y);
        int32_t choice = (int32_t)dg_rng_below(&rng, (uint32_t)popcount4(r.doors));
        int d = 0;
        for (; d < 4; d++)
            if ((r.doors & (1 << d)) && choice-- == 0)
                break;
        path[i].x = path[i - 1].x + step_dx[d];
        path[i].y = path[i - 1].y + step_dy[d];
    }
    return path;
}

TEST(explorer_reveals_neighbours_behind_doors)
{
    dg_world *w = make_world(101, 100, 500);
    dg_explorer *e = make_explorer(w);
    CHECK(dg_explorer_status(e, 0, 0) == DG_EXPLORE_UNSEEN);
    dg_enter_result r;
    CHECK(dg_explorer_enter(e, 0, 0, &r) == DG_OK);
    CHECK(r.first_visit == 1 && r.explored == 1 && r.revealed_count == 4);
    for (int i = 0; i < 4; i++)
        CHECK(r.revealed[i].is_new == 1 && r.revealed[i].side == (1 << i) &&
              r.revealed[i].x == step_dx[i] && r.revealed[i].y == step_dy[i]);
    CHECK(dg_explorer_status(e, 0, 0) == DG_EXPLORE_VISITED);
    CHECK(dg_explorer_status(e, 1, 0) == DG_EXPLORE_SEEN);
    CHECK(dg_explorer_status(e, 1, 1) == DG_EXPLORE_UNSEEN);
    CHECK(dg_explorer_enter(e, 1, 0, &r) == DG_OK);
    CHECK(r.first_visit == 1 && r.explored == 2);
    int32_t doors = room_at(w, 1, 0).doors;
    CHECK(r.revealed_count == popcount4(doors));
    for (int32_t i = 0; i < r.revealed_count; i++)
    {
        /* the way back to the origin is not new, the rest is */
        int back = r.revealed[i].x == 0 && r.revealed[i].y == 0;
        CHECK(r.revealed[i].is_new == !back);
        CHECK(dg_explorer_status(e, r.revealed[i].x, r.revealed[i].y) != DG_EXPLORE_UNSEEN);
    }
    CHECK(dg_explorer_enter(e, 1, 0, &r) == DG_OK);
    CHECK(r.first_visit == 0 && r.explored == 2);
    for (int32_t i = 0; i < r.revealed_count; i++)
        CHECK(r.revealed[i].is_new == 0);
    uint64_t state = 9;
    CHECK(dg_explorer_get_state(e, 1, 0, &state) == DG_OK && state == 0);
    CHECK(dg_explorer_set_state(e, 1, 0, 0xABCDEF) == DG_OK);
    CHECK(dg_explorer_get_state(e, 1, 0, &state) == DG_OK && state == 0xABCDEF);
    CHECK(dg_explorer_get_state(e, 5, 5, &state) == DG_E_INVALID);
    CHECK(dg_explorer_set_state(e, 5, 5, 1) == DG_E_INVALID);
    CHECK(dg_explorer_enter(e, DG_WORLD_COORD_MAX + 1, 0, &r) == DG_E_INVALID);
    CHECK(dg_explorer_enter(NULL, 0, 0, &r) == DG_E_NULL);
    CHECK(dg_explorer_create(NULL, NULL, &e) == DG_E_NULL);
    CHECK(dg_explorer_count(e) == 2 && dg_explorer_count(NULL) == 0);
    /* at the edge of the range, no neighbour beyond it is revealed */
    const int64_t M = DG_WORLD_COORD_MAX;
    CHECK(dg_explorer_enter(e, M, M, &r) == DG_OK);
    for (int32_t i = 0; i < r.revealed_count; i++)
        CHECK(r.revealed[i].x <= M && r.revealed[i].y <= M);
    dg_explorer_free(e);
    dg_world_free(w);
}

/* The explored map: tiles of entered rooms, tiles | 0x80 for seen ones, void elsewhere. */
static uint8_t *explored_map(const dg_world *w, const dg_explorer *e, int64_t rx, int64_t ry,
                             int32_t rooms)
{
    int32_t p = dg_world_period(w), side = rooms * p;
    uint8_t *cells = render_window(w, rx * p, ry * p, side, side);
    for (int32_t y = 0; y < side; y++)
        for (int32_t x = 0; x < side; x++)
        {
            int32_t s = dg_explorer_status(e, rx + x / p, ry + y / p);
            uint8_t *c = &cells[y * side + x];
            *c = s == DG_EXPLORE_VISITED ? *c : s == DG_EXPLORE_SEEN ? (uint8_t)(*c | 0x80) : 0;
        }
    return cells;
}

TEST(explorer_order_does_not_matter)
{
    dg_world *w = make_world(111, 120, 400);
    const int32_t steps = 400;
    dg_world_pos *path = random_walk(w, 3, steps);
    dg_explorer *e[3];
    int64_t new_total[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
    {
        e[k] = make_explorer(w);
        for (int32_t i = 0; i <= steps; i++)
        {
            /* forward, backward, and a stride permutation */
            int32_t at = k == 0 ? i : k == 1 ? steps - i : (int32_t)(((int64_t)i * 211) % (steps + 1));
            dg_enter_result r;
            CHECK(dg_explorer_enter(e[k], path[at].x, path[at].y, &r) == DG_OK);
            for (int32_t j = 0; j < r.revealed_count; j++)
                new_total[k] += r.revealed[j].is_new;
        }
    }
    int32_t rooms = 2 * 45 + 1, bytes = rooms * dg_world_period(w);
    uint8_t *maps[3];
    for (int k = 0; k < 3; k++)
        maps[k] = explored_map(w, e[k], -45, -45, rooms);
    CHECK(dg_explorer_count(e[0]) == dg_explorer_count(e[1]));
    CHECK(dg_explorer_count(e[0]) == dg_explorer_count(e[2]));
    CHECK(memcmp(maps[0], maps[1], (size_t)bytes * bytes) == 0);
    CHECK(memcmp(maps[0], maps[2], (size_t)bytes * bytes) == 0);
    int64_t n = dg_explorer_count(e[0]);
    dg_world_pos *saved[3];
    for (int k = 0; k < 3; k++)
    {
        int64_t count = 0;
        saved[k] = malloc((size_t)n * sizeof(dg_world_pos));
        CHECK(dg_explorer_save(e[k], saved[k], NULL, n, &count) == DG_OK && count == n);
    }
    CHECK(memcmp(saved[0], saved[1], (size_t)n * sizeof(dg_world_pos)) == 0);
    CHECK(memcmp(saved[0], saved[2], (size_t)n * sizeof(dg_world_pos)) == 0);
    /* new reveals never exceed the rooms seen */
    int64_t seen = 0;
    for (int32_t y = -45; y <= 45; y++)
        for (int32_t x = -45; x <= 45; x++)
            seen += dg_explorer_status(e[0], x, y) != DG_EXPLORE_UNSEEN;
    for (int k = 0; k < 3; k++)
        CHECK(new_total[k] <= seen && new_total[k] > n / 2);
    for (int k = 0; k < 3; k++)
    {
        free(maps[k]);
        free(saved[k]);
        dg_explorer_free(e[k]);
    }
    free(path);
    dg_world_free(w);
}

TEST(explorer_save_and_restore)
{
    dg_world *w = make_world(121, 100, 1000);
    dg_world_pos *path = random_walk(w, 5, 300);
    dg_explorer *a = make_explorer(w), *b = make_explorer(w);
    for (int32_t i = 0; i <= 300; i++)
    {
        CHECK(dg_explorer_enter(a, path[i].x, path[i].y, NULL) == DG_OK);
        CHECK(dg_explorer_set_state(a, path[i].x, path[i].y, (uint64_t)i * 77 + 1) == DG_OK);
    }
    int64_t n = 0;
    CHECK(dg_explorer_save(a, NULL, NULL, 0, &n) == DG_OK && n == dg_explorer_count(a));
    dg_world_pos *rooms = malloc((size_t)n * sizeof *rooms);
    uint64_t *states = malloc((size_t)n * sizeof *states);
    int64_t got = 0;
    CHECK(dg_explorer_save(a, rooms, states, n - 1, &got) == DG_E_BUFFER && got == n);
    CHECK(dg_explorer_save(a, rooms, states, n, &got) == DG_OK && got == n);
    for (int64_t i = 1; i < n; i++)
        CHECK(rooms[i - 1].y < rooms[i].y || (rooms[i - 1].y == rooms[i].y && rooms[i - 1].x < rooms[i].x));
    CHECK(dg_explorer_enter(b, 500, 500, NULL) == DG_OK);
    CHECK(dg_explorer_restore(b, rooms, states, n, NULL) == DG_OK);
    CHECK(dg_explorer_count(b) == n);
    CHECK(dg_explorer_status(b, 500, 500) == DG_EXPLORE_UNSEEN);
    for (int32_t y = -30; y <= 30; y++)
        for (int32_t x = -30; x <= 30; x++)
        {
            CHECK(dg_explorer_status(a, x, y) == dg_explorer_status(b, x, y));
            uint64_t sa = 1, sb = 2;
            CHECK(dg_explorer_get_state(a, x, y, &sa) == dg_explorer_get_state(b, x, y, &sb));
            CHECK(dg_explorer_status(a, x, y) != DG_EXPLORE_VISITED || sa == sb);
        }
    /* bad lists leave the explorer as it was */
    dg_diag diag;
    dg_world_pos keep = rooms[1];
    rooms[1] = rooms[0];
    CHECK(dg_explorer_restore(b, rooms, states, n, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "twice") != NULL);
    rooms[1].x = DG_WORLD_COORD_MAX + 5;
    CHECK(dg_explorer_restore(b, rooms, states, n, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "range") != NULL);
    rooms[1] = keep;
    CHECK(dg_explorer_restore(b, NULL, NULL, 3, &diag) == DG_E_NULL);
    CHECK(dg_explorer_restore(b, rooms, NULL, -1, &diag) == DG_E_INVALID);
    CHECK(dg_explorer_restore(NULL, rooms, NULL, 1, &diag) == DG_E_NULL);
    CHECK(dg_explorer_count(b) == n);
    CHECK(dg_explorer_save(b, NULL, NULL, 0, NULL) == DG_E_NULL);
    CHECK(dg_explorer_save(b, NULL, states, 0, &got) == DG_E_NULL);
    CHECK(dg_explorer_save(b, rooms, NULL, -1, &got) == DG_E_INVALID);
    /* restoring without states zeroes them; an empty list empties the explorer */
    CHECK(dg_explorer_restore(b, rooms, NULL, n, NULL) == DG_OK);
    uint64_t s = 5;
    CHECK(dg_explorer_get_state(b, rooms[0].x, rooms[0].y, &s) == DG_OK && s == 0);
    CHECK(dg_explorer_restore(b, NULL, NULL, 0, NULL) == DG_OK && dg_explorer_count(b) == 0);
    CHECK(dg_explorer_status(b, 0, 0) == DG_EXPLORE_UNSEEN);
    free(rooms);
    free(states);
    free(path);
    dg_explorer_free(a);
    dg_explorer_free(b);
    dg_world_free(w);
}

/* ---- furnishing ------------------------------------------------------------------------ */

static const char furnishings[] =
    "prefabs 1\n"
    "legend\n"
    "  g actor goblin\n"
    "  $ marker chest kind item\n"
    "end\n"
    "prefab one\n  mode furnish\nmap\n"
    "#####+#####\n#.........#\n#.........#\n#..#...#..#\n#.........#\n#....g....#\n"
    "#.........#\n#..#...#..#\n#.........#\n#...$.$...#\n###########\nend\n"
    "prefab straight\n  mode furnish\nmap\n"
    "#####+#####\n#.........#\n#.##...##.#\n#.#.....#.#\n#.........#\n#.........#\n"
    "#.........#\n#.#..^..#.#\n#.##...##.#\n#.........#\n#####+#####\nend\n"
    "prefab corner\n  mode furnish\nmap\n"
    "#####+#####\n#.........#\n#.........#\n#...###...#\n#...#g....#\n#...#.....+\n"
    "#.........#\n#.........#\n#.........#\n#.........#\n###########\nend\n"
    "prefab three\n  mode furnish\n  pick ? = .:1 #:1\nmap\n"
    "#####+#####\n#.........#\n#.#.....#.#\n#.........#\n#.........#\n+...?.?...+\n"
    "#.........#\n#.........#\n#.#.....#.#\n#.........#\n###########\nend\n"
    "prefab four\n  mode furnish\nmap\n"
    "#####+#####\n#.........#\n#.#.#.#.#.#\n#.........#\n#.#.#.#.#.#\n+....g....+\n"
    "#.#.#.#.#.#\n#.........#\n#.#.#.#.#.#\n#.........#\n#####+#####\nend\n"
    /* the tile inside its door is a wall: never usable */
    "prefab blocked\n  mode furnish\n  weight 20\nmap\n"
    "#####+#####\n#....#....#\n#.........#\n#.........#\n#.........#\n#.........#\n"
    "#.........#\n#.........#\n#.........#\n#.........#\n###########\nend\n"
    /* half of its variants wall off the way between its doors */
    "prefab maybe\n  mode furnish\n  pick ? = .:1 #:1\nmap\n"
    "#####+#####\n#.........#\n#.........#\n#.........#\n#.........#\n#.........#\n"
    "#.........#\n#####?#####\n#.........#\n#....g....#\n#####+#####\nend\n"
    /* the wrong size for 9x9 rooms */
    "prefab small\n  mode furnish\n  weight 30\nmap\n##+##\n#...#\n#...#\n#...#\n#####\nend\n";

static dg_prefab_set *furnishing_set(void)
{
    dg_prefab_set *set = NULL;
    dg_diag diag;
    CHECKF(dg_prefab_parse(furnishings, sizeof furnishings - 1, "furnishings", NULL, NULL, NULL,
                           &set, &diag) == DG_OK,
           "%s", diag.message);
    return set;
}

/* A world furnishing every room it can; full: rooms fill their cells. */
static dg_world *furnished_world(const dg_prefab_set *set, uint64_t seed, int32_t loops,
                                 int32_t fix, int full)
{
    dg_world_params p;
    dg_world_defaults(&p);
    p.loop_permille = loops;
    p.dead_end_fix = fix;
    p.furnishing = set;
    p.furnish_permille = 1000;
    if (full)
        p.room_min = p.room_size;
    dg_world *w = NULL;
    dg_diag diag;
    CHECKF(dg_world_create(&p, seed, NULL, &w, &diag) == DG_OK, "%s", diag.message);
    return w;
}

/* Flood fill inside one rendered room box ((P+1) x (P+1), its four walls
 * included) from its first door: 1 if every door and the tile inside it are
 * reached. */
static int room_keeps_the_way(const uint8_t *box, int32_t n, int32_t doors)
{
    int32_t mid = n / 2, queue[128 * 128], head = 0, tail = 0;
    uint8_t seen[128 * 128];
    memset(seen, 0, (size_t)n * n);
    const int32_t door[4] = {mid, mid * n + n - 1, (n - 1) * n + mid, mid * n};
    const int32_t inward[4] = {n, -1, -n, 1};
    for (int k = 0; k < 4 && tail == 0; k++)
        if (doors & (1 << k))
        {
            queue[tail++] = door[k];
            seen[door[k]] = 1;
        }
    while (head < tail)
    {
        int32_t c = queue[head++], x = c % n, y = c / n;
        const int32_t next[4] = {y > 0 ? c - n : -1, x < n - 1 ? c + 1 : -1,
                                 y < n - 1 ? c + n : -1, x > 0 ? c - 1 : -1};
        for (int k = 0; k < 4; k++)
            if (next[k] >= 0 && !seen[next[k]] && dg_tile_passable(box[next[k]]))
            {
                seen[next[k]] = 1;
                queue[tail++] = next[k];
            }
    }
    for (int k = 0; k < 4; k++)
        if ((doors & (1 << k)) && (box[door[k]] != DG_TILE_DOOR || !seen[door[k] + inward[k]]))
            return 0;
    return 1;
}

TEST(world_furnishing_never_blocks_doors)
{
    dg_prefab_set *set = furnishing_set();
    if (!set)
        return;
    int32_t blocked = dg_prefab_find(set, "blocked"), small = dg_prefab_find(set, "small");
    int32_t maybe = dg_prefab_find(set, "maybe"), maybe_used = 0;
    for (uint64_t seed = 1; seed <= 3; seed++)
    {
        int full = seed == 2; /* shared walls: a room's box is P + 1 square, else P */
        dg_world *w = furnished_world(set, seed, 200, 500, full);
        int32_t p = dg_world_period(w), n = full ? p + 1 : p, furnished = 0;
        uint8_t box[128 * 128];
        dg_world_marker markers[64];
        for (int64_t ry = -20; ry <= 20; ry++)
            for (int64_t rx = -20; rx <= 20; rx++)
            {
                dg_world_room r = room_at(w, rx, ry);
                dg_grid g;
                int32_t count = 0;
                CHECK(dg_grid_init(&g, box, n, n, 0) == DG_OK);
                CHECK(dg_world_render(w, rx * p, ry * p, &g, markers, 64, &count, NULL) == DG_OK);
                CHECK(count == r.marker_count);
                for (int32_t i = 0; i < count; i++)
                {
                    int64_t lx = markers[i].x - rx * p, ly = markers[i].y - ry * p;
                    CHECK(lx >= 1 && ly >= 1 && lx < p && ly < p); /* interior only */
                    CHECK(markers[i].room_x == rx && markers[i].room_y == ry);
                    CHECK(markers[i].difficulty == r.difficulty);
                }
                if (full || r.prefab >= 0) /* a furnished room fills its cell */
                    CHECKF(room_keeps_the_way(box, n, r.doors) &&
                               (r.prefab < 0 || (r.inner_w == p - 2 + full && r.inner_x == 1)),
                           "seed %d room (%d, %d)", (int)seed, (int)rx, (int)ry);
                if (r.prefab >= 0)
                {
                    dg_prefab_info info;
                    CHECK(dg_prefab_get_info(set, r.prefab, &info) == DG_OK);
                    CHECK(dg_orient_sides(info.door_sides, r.orientation) == r.doors);
                    CHECK(r.prefab != blocked && r.prefab != small);
                    maybe_used += r.prefab == maybe;
                    furnished++;
                }
            }
        /* most door layouts have a furnishing; four-door rooms have theirs too */
        CHECKF(furnished > 41 * 41 / 2, "%d rooms furnished", (int)furnished);
        CHECK(maybe_used > 0); /* its variants that keep the way are used */
        dg_world_free(w);
    }
    dg_prefab_set_free(set);
}

TEST(world_furnishing_stays_inside_its_room)
{
    dg_prefab_set *set = furnishing_set();
    if (!set)
        return;
    dg_world *bare = make_full_world(7, 100, 300), *rich = furnished_world(set, 7, 100, 300, 1);
    int32_t p = dg_world_period(bare), side = 30 * p + 1, differ = 0;
    uint8_t *a = render_window(bare, -15 * p, -15 * p, side, side);
    uint8_t *b = render_window(rich, -15 * p, -15 * p, side, side);
    for (int32_t y = 0; y < side; y++)
        for (int32_t x = 0; x < side; x++)
        {
            int wall_line = x % p == 0 || y % p == 0;
            if (wall_line)
                CHECK(a[y * side + x] == b[y * side + x]);
            differ += a[y * side + x] != b[y * side + x];
        }
    CHECK(differ > 1000);
    free(a);
    free(b);
    check_window_matches_rooms(rich, -6, -4, 24);
    dg_world_free(bare);
    dg_world_free(rich);
    dg_prefab_set_free(set);
}

TEST(world_furnishing_markers_and_golden)
{
    dg_prefab_set *set = furnishing_set();
    if (!set)
        return;
    dg_world *w = furnished_world(set, 2026, 100, 500, 0);
    uint8_t *cells = render_window(w, -128, -128, 256, 256);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, 256, 256, 0) == DG_OK);
    CHECK_EQ_U64(dg_grid_hash(&g), 0x76465ca0e7483adaULL);
    /* markers: the count, DG_E_BUFFER untouched, sorted, same set in pieces */
    int32_t total = -1;
    CHECK(dg_world_render(w, -128, -128, &g, NULL, 0, &total, NULL) == DG_OK);
    CHECK(total > 20);
    dg_world_marker *all = calloc((size_t)total, sizeof *all);
    memset(cells, 0x33, 256 * 256);
    int32_t got = -1;
    CHECK(dg_world_render(w, -128, -128, &g, all, total - 1, &got, NULL) == DG_E_BUFFER);
    CHECK(got == total && cells[0] == 0x33 && cells[256 * 256 - 1] == 0x33);
    CHECK(dg_world_render(w, -128, -128, &g, all, total, &got, NULL) == DG_OK && got == total);
    uint64_t digest = 0;
    for (int32_t i = 0; i < total; i++)
    {
        CHECK(i == 0 || all[i - 1].y < all[i].y || (all[i - 1].y == all[i].y && all[i - 1].x < all[i].x));
        CHECK(all[i].x >= -128 && all[i].x < 128 && all[i].y >= -128 && all[i].y < 128);
        CHECK(dg_grid_get(&g, (int32_t)(all[i].x + 128), (int32_t)(all[i].y + 128)) != DG_TILE_WALL ||
              all[i].kind != DG_MARKER_ACTOR);
        digest = dg_hash_combine(digest, (uint64_t)all[i].x ^ (uint64_t)all[i].y << 20 ^
                                             (uint64_t)all[i].kind << 40 ^ (uint64_t)all[i].name[0]);
    }
    CHECK_EQ_U64(digest, 0x8fb2ea84eee4959bULL);
    /* the four quadrants hold the same markers */
    int32_t sum = 0;
    for (int q = 0; q < 4; q++)
    {
        dg_grid quarter;
        dg_world_marker part[256];
        int32_t n = 0;
        CHECK(dg_grid_init(&quarter, cells, 128, 128, 0) == DG_OK);
        CHECK(dg_world_render(w, -128 + (q & 1) * 128, -128 + (q >> 1) * 128, &quarter, part, 256,
                              &n, NULL) == DG_OK);
        for (int32_t i = 0; i < n; i++)
        {
            int found = 0;
            for (int32_t j = 0; j < total && !found; j++)
                found = memcmp(&part[i], &all[j], sizeof part[i]) == 0;
            CHECK(found);
        }
        sum += n;
    }
    CHECK(sum == total);
    free(all);
    free(cells);
    dg_world_free(w);
    dg_prefab_set_free(set);
}

TEST(world_furnishing_rejects_unusable_sets)
{
    static const char only_small[] =
        "prefabs 1\nprefab small\n  mode furnish\nmap\n##+##\n#...#\n#...#\n#...#\n#####\nend\n";
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_parse(only_small, sizeof only_small - 1, NULL, NULL, NULL, NULL, &set, NULL) ==
          DG_OK);
    dg_world_params p;
    dg_world_defaults(&p);
    p.furnishing = set;
    dg_world *w = NULL;
    dg_diag diag;
    CHECK(dg_world_create(&p, 1, NULL, &w, &diag) == DG_E_INVALID && w == NULL);
    CHECK(strstr(diag.message, "11x11") != NULL);
    /* an empty set: rejected, every byte given back */
    dg_prefab_set *empty = NULL;
    CHECK(dg_prefab_parse("prefabs 1\n", 10, NULL, NULL, NULL, NULL, &empty, NULL) == DG_OK);
    counting c = {0, 0};
    dg_allocator counted = {counting_alloc, counting_free, &c};
    p.furnishing = empty;
    CHECK(dg_world_create(&p, 1, &counted, &w, &diag) == DG_E_INVALID && c.live == 0);
    dg_prefab_set_free(empty);
    p.furnishing = set;
    p.room_size = 3; /* 5x5 prefabs fit 3x3 rooms */
    CHECK(dg_world_create(&p, 1, NULL, &w, &diag) == DG_OK);
    CHECK(room_at(w, 0, 1).prefab == -1 || room_at(w, 0, 1).prefab == 0);
    dg_world_free(w);
    dg_prefab_set_free(set);
    /* out of memory anywhere while stamping: an error, nothing leaked */
    dg_prefab_set *rich = furnishing_set();
    failing f = {0, 0};
    dg_allocator a = {failing_alloc, failing_free, &f};
    dg_world_defaults(&p);
    p.furnishing = rich;
    dg_status st = DG_E_NOMEM;
    for (int budget = 0; budget < 64 && st == DG_E_NOMEM; budget++)
    {
        f.budget = budget;
        w = NULL;
        st = dg_world_create(&p, 3, &a, &w, NULL);
        CHECK(st == DG_OK || (st == DG_E_NOMEM && w == NULL && f.live == 0));
    }
    CHECK(st == DG_OK);
    dg_world_free(w);
    CHECK(f.live == 0);
    dg_prefab_set_free(rich);
}

/* ---- the registered generator: a window around room (0, 0) ----------------------------- */

/* Generates the world window of w x h for seed with up to two "key=value"
 * settings; DG_OK expected. */
static dg_status world_window(uint8_t *cells, int32_t w, int32_t h, uint64_t seed,
                              const char *const *settings, const dg_prefab_set *set, dg_result *r)
{
    dg_recipe rc;
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, w, h, 0) == DG_OK);
    CHECK(dg_recipe_init(&rc, "world", seed, w, h) == DG_OK);
    for (int k = 0; settings && settings[k]; k++)
    {
        char key[32];
        const char *eq = strchr(settings[k], '=');
        memcpy(key, settings[k], (size_t)(eq - settings[k]));
        key[eq - settings[k]] = '\0';
        CHECK(dg_recipe_set(&rc, key, eq + 1, NULL) == DG_OK);
    }
    return dg_recipe_generate(&rc, &g, set, r, NULL, NULL);
}

TEST(world_window_meets_the_contract)
{
    static const char *const none[] = {NULL}, *const full[] = {"room_min=9", NULL},
                             *const small[] = {"room_size=5", NULL},
                             *const wide[] = {"room_size=21", "room_min=5", NULL};
    const struct {
        int32_t w, h;
        const char *const *settings;
        int furnished;
    } cases[] = {{13, 13, none, 0}, {14, 40, none, 0}, {81, 26, none, 0},  {80, 25, full, 0},
                 {12, 12, full, 0}, {60, 31, small, 0}, {90, 70, wide, 0}, {80, 50, none, 1},
                 {13, 13, none, 1}};
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/furnish.txt", NULL, NULL, NULL, &set, NULL) == DG_OK);
    uint8_t *cells = malloc(90 * 70);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (uint64_t seed = 1; seed <= 150; seed++)
        {
            dg_result r;
            dg_quality q;
            dg_grid g;
            dg_result_init(&r, NULL);
            CHECK(world_window(cells, cases[k].w, cases[k].h, seed, cases[k].settings,
                               cases[k].furnished ? set : NULL, &r) == DG_OK);
            CHECK(dg_grid_init(&g, cells, cases[k].w, cases[k].h, 0) == DG_OK);
            CHECK(dg_survey_map(&g, &r, &q, NULL, NULL) == DG_OK);
            CHECKF(q.border_open == 0 && q.unreachable == 0 && q.doorless_joins == 0 &&
                       q.dead_doors == 0 && q.parallel_cells == 0,
                   "case %d seed %d: border %d unreachable %d doorless %d dead doors %d", (int)k,
                   (int)seed, (int)q.border_open, (int)q.unreachable, (int)q.doorless_joins,
                   (int)q.dead_doors);
            CHECKF(q.start_in_room && q.exit_in_room && !q.start_is_exit &&
                       q.exit_rank_permille <= 100,
                   "case %d seed %d: start/exit", (int)k, (int)seed);
            CHECK(r.start_room >= 0 && r.metrics.regions == 1);
            dg_result_free(&r);
        }
    free(cells);
    dg_prefab_set_free(set);
}

TEST(world_window_border_0_is_the_raw_window)
{
    static const char *const raw[] = {"border=0", NULL};
    uint8_t cells[77 * 31], direct[77 * 31];
    for (uint64_t seed = 1; seed <= 20; seed++)
    {
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(world_window(cells, 77, 31, seed, raw, NULL, &r) == DG_OK);
        dg_world_params p;
        dg_world_defaults(&p);
        dg_world *w = NULL;
        CHECK(dg_world_create(&p, seed, NULL, &w, NULL) == DG_OK);
        int32_t period = dg_world_period(w);
        dg_grid g;
        CHECK(dg_grid_init(&g, direct, 77, 31, 0) == DG_OK);
        CHECK(dg_world_render(w, period / 2 - 77 / 2, period / 2 - 31 / 2, &g, NULL, 0, NULL,
                              NULL) == DG_OK);
        CHECK(memcmp(cells, direct, sizeof cells) == 0);
        dg_world_free(w);
        dg_result_free(&r);
    }
}

/* The result's rooms are the rooms' interiors (clipped inside the ring) and
 * its doors are door tiles. */
TEST(world_window_reports_rooms_and_doors)
{
    uint8_t cells[80 * 50];
    for (uint64_t seed = 1; seed <= 40; seed++)
    {
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(world_window(cells, 80, 50, seed, NULL, NULL, &r) == DG_OK);
        CHECK(r.room_count > 10 && r.door_count > 10);
        for (int32_t i = 0; i < r.room_count; i++)
        {
            dg_rect q = r.rooms[i].rect;
            CHECK(q.x >= 1 && q.y >= 1 && q.x + q.w <= 79 && q.y + q.h <= 49);
            CHECK(q.w >= 2 && q.h >= 2); /* no sliver of a room cut by the border */
            int floor = 0;
            for (int32_t y = q.y; y < q.y + q.h; y++)
                for (int32_t x = q.x; x < q.x + q.w; x++)
                    floor += cells[y * 80 + x] == DG_TILE_FLOOR;
            CHECK(floor == q.w * q.h); /* bare rooms: all floor, all reachable */
            CHECK(r.rooms[i].parent < r.room_count);
        }
        for (int32_t i = 0; i < r.door_count; i++)
            CHECK(cells[r.doors[i].pos.y * 80 + r.doors[i].pos.x] == DG_TILE_DOOR);
        int32_t door_tiles = 0;
        for (int32_t k = 0; k < 80 * 50; k++)
            door_tiles += cells[k] == DG_TILE_DOOR;
        CHECK(door_tiles == r.door_count);
        dg_result_free(&r);
    }
}

TEST(world_window_too_small_is_rejected_untouched)
{
    uint8_t cells[12 * 12];
    memset(cells, 0x5A, sizeof cells);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(world_window(cells, 12, 12, 1, NULL, NULL, &r) == DG_E_NOSPACE);
    CHECK(r.room_count == 0 && r.rooms == NULL);
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 0x5A);
    static const char *const raw[] = {"border=0", NULL};
    CHECK(world_window(cells, 12, 12, 1, raw, NULL, &r) == DG_OK); /* raw windows: any size */
    dg_result_free(&r);
}
