/* Field of view: symmetry, radius and box, shadows, statuses. */
#include "analysis_maps.h"

static int transparent_at(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_transparent(dg_grid_get(g, x, y));
}

/* vis[a * n + b]: b seen from a, for every transparent a. */
static uint8_t *all_views(const dg_grid *g, int32_t radius)
{
    int32_t n = g->width * g->height;
    uint8_t *vis = calloc((size_t)n * (size_t)n, 1);
    for (int32_t a = 0; a < n; a++)
    {
        dg_point o = {a % g->width, a / g->width};
        if (transparent_at(g, o.x, o.y))
            CHECK(dg_fov(g, NULL, o, radius, vis + (size_t)a * n, (size_t)n, NULL, NULL) == DG_OK);
    }
    return vis;
}

TEST(fov_is_symmetric_on_pillared_maps)
{
    for (uint64_t seed = 1; seed <= 16 && !test_failures(); seed++)
    {
        am_map m;
        if (seed % 4 == 0)
            am_noise(&m, 15, 11, 250, seed);
        else
            am_pillars(&m, 17 + (int32_t)(seed % 5), 12 + (int32_t)(seed % 3),
                       60 + (int32_t)seed * 12, seed);
        const dg_grid *g = &m.grid;
        int32_t n = g->width * g->height;
        int32_t radius = seed % 3 == 0 ? 0 : 3 + (int32_t)(seed % 7);
        uint8_t *vis = all_views(g, radius);
        int32_t pairs = 0;
        for (int32_t a = 0; a < n; a++)
            for (int32_t b = 0; b < n; b++)
            {
                if (!transparent_at(g, a % g->width, a / g->width) ||
                    !transparent_at(g, b % g->width, b / g->width))
                    continue;
                CHECKF(vis[(size_t)a * n + b] == vis[(size_t)b * n + a],
                       "seed %d radius %d: (%d,%d) and (%d,%d)", (int)seed, (int)radius,
                       (int)(a % g->width), (int)(a / g->width), (int)(b % g->width),
                       (int)(b / g->width));
                pairs += vis[(size_t)a * n + b];
            }
        CHECK(pairs > n); /* not a trivially empty view */
        free(vis);
        am_free(&m);
    }
}

/* A radius only masks the unlimited view with its disc and writes only its box. */
TEST(fov_radius_is_a_disc_of_the_full_view)
{
    for (uint64_t seed = 1; seed <= 6; seed++)
    {
        am_map m;
        am_rooms(&m, 70, 45, seed);
        const dg_grid *g = &m.grid;
        int32_t n = g->width * g->height;
        uint8_t *full = malloc((size_t)n), *part = malloc((size_t)n);
        for (int32_t i = 0; i < n; i += 7)
        {
            dg_point o = {i % g->width, i / g->width};
            CHECK(dg_fov(g, NULL, o, 0, full, (size_t)n, NULL, NULL) == DG_OK);
            for (int32_t r = 1; r <= 12; r += 5)
            {
                memset(part, 0xEE, (size_t)n);
                CHECK(dg_fov(g, NULL, o, r, part, (size_t)n, NULL, NULL) == DG_OK);
                dg_rect box = dg_fov_bounds(g, o, r);
                for (int32_t y = 0; y < g->height; y++)
                    for (int32_t x = 0; x < g->width; x++)
                    {
                        int32_t k = y * g->width + x, dx = x - o.x, dy = y - o.y;
                        int in_box = x >= box.x && y >= box.y && x < box.x + box.w &&
                                     y < box.y + box.h;
                        int in_disc = dx * dx + dy * dy <= r * (r + 1);
                        uint8_t want = !in_box ? 0xEE : (uint8_t)(full[k] && in_disc);
                        CHECK(part[k] == want);
                    }
            }
        }
        free(full);
        free(part);
        am_free(&m);
    }
}

/* The grid's edge acts as a wall: a map framed by real walls (3 cells wide)
 * sees the same inside as the bare map. */
TEST(fov_grid_edge_is_a_wall)
{
    for (uint64_t seed = 1; seed <= 8; seed++)
    {
        am_map m, framed;
        am_noise(&m, 17 + (int32_t)seed, 13, 120 + (int32_t)seed * 20, seed);
        int32_t w = m.grid.width, h = 13, fw = w + 6, fh = h + 6;
        am_make(&framed, fw, fh, DG_TILE_WALL);
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++)
                dg_grid_set(&framed.grid, x + 3, y + 3, dg_grid_get(&m.grid, x, y));
        uint8_t *a = malloc((size_t)w * h), *b = malloc((size_t)fw * fh);
        for (int32_t i = 0; i < w * h; i += 3)
        {
            dg_point o = {i % w, i / w}, fo = {o.x + 3, o.y + 3};
            int32_t r = i % 4 ? 0 : 1 + i % 9;
            CHECK(dg_fov(&m.grid, NULL, o, r, a, (size_t)w * h, NULL, NULL) == DG_OK);
            CHECK(dg_fov(&framed.grid, NULL, fo, r, b, (size_t)fw * fh, NULL, NULL) == DG_OK);
            dg_rect box = dg_fov_bounds(&m.grid, o, r);
            for (int32_t y = box.y; y < box.y + box.h; y++)
                for (int32_t x = box.x; x < box.x + box.w; x++)
                    CHECKF(a[y * w + x] == b[(y + 3) * fw + x + 3],
                           "seed %d from (%d,%d) r %d at (%d,%d)", (int)seed, (int)o.x,
                           (int)o.y, (int)r, (int)x, (int)y);
        }
        free(a);
        free(b);
        am_free(&m);
        am_free(&framed);
    }
}

TEST(fov_open_room_and_walls)
{
    /* A convex room: every floor cell and every wall cell is seen from inside. */
    am_map m;
    am_make(&m, 30, 20, DG_TILE_VOID);
    dg_rect walls = {3, 2, 16, 11}, room = {4, 3, 14, 9};
    dg_grid_fill_rect(&m.grid, walls, DG_TILE_WALL);
    dg_grid_fill_rect(&m.grid, room, DG_TILE_FLOOR);
    uint8_t vis[600];
    for (int32_t oy = 3; oy < 12; oy += 4)
        for (int32_t ox = 4; ox < 18; ox += 3)
        {
            dg_point o = {ox, oy};
            CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 600, NULL, NULL) == DG_OK);
            for (int32_t y = 0; y < 20; y++)
                for (int32_t x = 0; x < 30; x++)
                {
                    int inside = x >= 3 && y >= 2 && x < 19 && y < 13;
                    int corner = (x == 3 || x == 18) && (y == 2 || y == 12);
                    if (!corner)
                        CHECKF(vis[y * 30 + x] == inside, "from (%d,%d) cell (%d,%d)", (int)ox,
                               (int)oy, (int)x, (int)y);
                }
        }
    am_free(&m);
}

TEST(fov_pillar_casts_a_shadow)
{
    am_map m;
    am_make(&m, 15, 11, DG_TILE_FLOOR);
    dg_grid_set(&m.grid, 6, 5, DG_TILE_OBSTACLE);
    uint8_t vis[165];
    dg_point o = {3, 5};
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 165, NULL, NULL) == DG_OK);
    CHECK(vis[5 * 15 + 6] == 1); /* the pillar itself is lit */
    for (int32_t x = 7; x < 15; x++)
        CHECK(vis[5 * 15 + x] == 0);
    CHECK(vis[5 * 15 + 5] == 1 && vis[0] == 1 && vis[164] == 1);
    /* The origin's own tile does not matter. */
    dg_point in_pillar = {6, 5};
    CHECK(dg_fov(&m.grid, NULL, in_pillar, 2, vis, 165, NULL, NULL) == DG_OK);
    CHECK(vis[5 * 15 + 6] == 1 && vis[5 * 15 + 8] == 1);
    /* A custom table: water blocks sight here. */
    uint8_t clear[256] = {0};
    clear[DG_TILE_FLOOR] = 1;
    dg_grid_set(&m.grid, 6, 5, DG_TILE_WATER);
    CHECK(dg_fov(&m.grid, clear, o, 0, vis, 165, NULL, NULL) == DG_OK);
    CHECK(vis[5 * 15 + 8] == 0);
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 165, NULL, NULL) == DG_OK);
    CHECK(vis[5 * 15 + 8] == 1);
    am_free(&m);
}

TEST(fov_sealed_cell_sees_only_its_walls)
{
    am_map m;
    am_make(&m, 9, 9, DG_TILE_FLOOR);
    dg_rect ring = {2, 2, 5, 5}, cell = {3, 3, 3, 3};
    dg_grid_fill_rect(&m.grid, ring, DG_TILE_WALL);
    dg_grid_fill_rect(&m.grid, cell, DG_TILE_FLOOR);
    uint8_t vis[81];
    dg_point o = {4, 4};
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 81, NULL, NULL) == DG_OK);
    for (int32_t y = 0; y < 9; y++)
        for (int32_t x = 0; x < 9; x++)
        {
            int inside = x >= 2 && y >= 2 && x < 7 && y < 7;
            int corner = (x == 2 || x == 6) && (y == 2 || y == 6);
            if (!corner)
                CHECK(vis[y * 9 + x] == inside);
        }
    am_free(&m);
}

TEST(fov_deep_scans_allocate_and_fail_cleanly)
{
    am_map m;
    am_make(&m, 300, 3, DG_TILE_FLOOR);
    uint8_t *vis = malloc(900);
    memset(vis, 0xEE, 900);
    dg_point o = {0, 1};
    am_budget b = {0, 0};
    dg_allocator a = am_budget_allocator(&b);
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 900, &a, NULL) == DG_E_NOMEM);
    CHECK(vis[0] == 0xEE && vis[899] == 0xEE);
    CHECK(dg_fov(&m.grid, NULL, o, 100, vis, 900, &a, NULL) == DG_OK); /* shallow: no memory */
    b.budget = 1;
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 900, &a, NULL) == DG_OK);
    CHECK(b.live == 0);
    for (int32_t i = 0; i < 900; i++)
        CHECK(vis[i] == 1);
    free(vis);
    am_free(&m);
}

TEST(fov_bad_input)
{
    am_map m;
    am_make(&m, 6, 4, DG_TILE_FLOOR);
    uint8_t vis[30];
    memset(vis, 0xEE, sizeof vis);
    dg_point o = {2, 2}, out = {6, 0}, neg = {0, -1};
    dg_diag diag;
    CHECK(dg_fov(NULL, NULL, o, 3, vis, 24, NULL, NULL) == DG_E_NULL);
    CHECK(dg_fov(&m.grid, NULL, out, 3, vis, 24, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "outside") != NULL);
    CHECK(dg_fov(&m.grid, NULL, neg, 3, vis, 24, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_fov(&m.grid, NULL, o, -1, vis, 24, NULL, NULL) == DG_E_INVALID);
    CHECK(dg_fov(&m.grid, NULL, o, 3, NULL, 24, NULL, NULL) == DG_E_NULL);
    CHECK(dg_fov(&m.grid, NULL, o, 3, vis, 23, NULL, &diag) == DG_E_BUFFER);
    for (int i = 0; i < 30; i++)
        CHECK(vis[i] == 0xEE);
    CHECK(dg_fov(&m.grid, NULL, o, 0, vis, 24, NULL, NULL) == DG_OK);
    for (int i = 24; i < 30; i++)
        CHECK(vis[i] == 0xEE);
    dg_rect r = dg_fov_bounds(&m.grid, out, 3);
    CHECK(r.w == 0 && r.h == 0);
    r = dg_fov_bounds(NULL, o, 3);
    CHECK(r.w == 0);
    r = dg_fov_bounds(&m.grid, o, 1);
    CHECK(r.x == 1 && r.y == 1 && r.w == 3 && r.h == 3);
    r = dg_fov_bounds(&m.grid, o, INT32_MAX);
    CHECK(r.x == 0 && r.y == 0 && r.w == 6 && r.h == 4);
    CHECK(dg_fov(&m.grid, NULL, o, INT32_MAX, vis, 24, NULL, NULL) == DG_OK);
    am_free(&m);
}

TEST(fov_golden)
{
    am_map m;
    am_rooms(&m, 80, 50, 4);
    uint8_t vis[4000];
    uint64_t h = 0;
    for (int32_t i = 0; i < 4000; i += 37)
    {
        dg_point o = {i % 80, i / 80};
        CHECK(dg_fov(&m.grid, NULL, o, i % 3 ? 8 : 0, vis, 4000, NULL, NULL) == DG_OK);
        h = h * 31 + am_hash(vis, sizeof vis);
    }
    CHECK_EQ_U64(h, 0xf6ac540c7bf611a5ULL);
    am_free(&m);
}

/* On attach maps: mutual visibility between random floor cells. */
TEST(fov_attach_maps_are_symmetric)
{
    uint8_t *views = malloc(64 * 4000);
    for (uint64_t seed = 1; seed <= 4 && !test_failures(); seed++)
    {
        am_map m;
        am_make(&m, 80, 50, DG_TILE_VOID);
        dg_attach_params params;
        dg_attach_defaults(&params);
        CHECK(dg_attach_generate(&m.grid, &params, seed, NULL, NULL, NULL) == DG_OK);
        /* 64 origins clustered in a 16x12 window so that many see each other. */
        dg_point o[64];
        int32_t no = 0;
        for (int32_t y = 19; y < 31 && no < 64; y++)
            for (int32_t x = 32; x < 48 && no < 64; x++)
                if (dg_tile_transparent(dg_grid_get(&m.grid, x, y)))
                    o[no++] = (dg_point){x, y};
        for (int32_t k = 0; k < no; k++)
            CHECK(dg_fov(&m.grid, NULL, o[k], 0, views + (size_t)k * 4000, 4000, NULL, NULL) ==
                  DG_OK);
        int32_t seen = 0;
        for (int32_t a = 0; a < no; a++)
            for (int32_t b = 0; b < no; b++)
            {
                uint8_t ab = views[(size_t)a * 4000 + o[b].y * 80 + o[b].x];
                CHECK(ab == views[(size_t)b * 4000 + o[a].y * 80 + o[a].x]);
                seen += ab && a != b;
            }
        CHECK(no >= 16 && seen >= no); /* the window holds rooms that see across */
        am_free(&m);
    }
    free(views);
}
