/* dgi_walk_rooms (the start's walk that crosses open rect rooms in one step)
 * against dgi_walk_default, cell by cell: the same distances and count on
 * maps of every generator over many seeds and sizes, and on noise maps with
 * rect rooms carved anywhere (overlapping, touching each other or the
 * border, holding the start, with walls inside). */
#include "test.h"
#include "analysis/analysis.h"
#include "analysis_maps.h"

#include <stdlib.h>
#include <string.h>

/* 1 if both walks give the same distances and count from the map's start. */
static int walks_agree(const dg_grid *g, dg_point from, const dg_room *rooms, int32_t count)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *a = malloc(n * 4 * sizeof *a), *b = a ? a + 2 * n : NULL;
    if (!a)
        return 0;
    int32_t ca = dgi_walk_default(g, from, a, a + n);
    int32_t cb = dgi_walk_rooms(g, from, rooms, count, b, b + n);
    int same = ca == cb;
    for (size_t i = 0; i < n && same; i++) /* unreached: any negative either way */
        same = a[i] == b[i] || (a[i] < 0 && b[i] < 0);
    free(a);
    return same;
}

TEST(content_walk_rooms_every_generator)
{
    static const struct { const char *gen, *prefabs; } gens[] = {
        {"attach", NULL}, {"bsp", NULL},     {"cave", NULL},  {"chain", NULL},
        {"maze", NULL},   {"scatter", NULL}, {"walk", NULL},  {"world", NULL},
        {"prefab-mixed", "examples/prefabs/vaults.txt"}};
    static const int32_t sizes[][2] = {{80, 50}, {40, 30}, {120, 80}};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
    {
        dg_prefab_set *set = NULL;
        if (gens[g].prefabs)
            CHECK(dg_prefab_load(gens[g].prefabs, NULL, NULL, NULL, &set, NULL) == DG_OK);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (uint64_t seed = 1; seed <= 60 && !test_failures(); seed++)
            {
                int32_t w = sizes[s][0], h = sizes[s][1];
                uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
                dg_grid grid;
                dg_result r;
                dg_recipe recipe;
                dg_result_init(&r, NULL);
                if (cells && dg_grid_init(&grid, cells, w, h, 0) == DG_OK &&
                    dg_recipe_init(&recipe, gens[g].gen, seed, w, h) == DG_OK &&
                    dg_recipe_generate(&recipe, &grid, set, &r, NULL, NULL) == DG_OK &&
                    r.start.x >= 0 && dgi_passable_default[DG_CELL(&grid, r.start.x, r.start.y)])
                    CHECKF(walks_agree(&grid, r.start, r.rooms, r.room_count), "%s seed %d %dx%d",
                           gens[g].gen, (int)seed, (int)w, (int)h);
                dg_result_free(&r);
                free(cells);
            }
        dg_prefab_set_free(set);
    }
}

/* Noise with random rects of floor carved in, the rects handed over as
 * rooms; some keep a wall or water inside, some lie past the border. */
TEST(content_walk_rooms_noise)
{
    for (uint64_t seed = 1; seed <= 400 && !test_failures(); seed++)
    {
        dg_rng rng;
        dg_rng_seed(&rng, seed, 7);
        int32_t w = 8 + (int32_t)dg_rng_below(&rng, 40), h = 8 + (int32_t)dg_rng_below(&rng, 30);
        am_map m;
        am_noise(&m, w, h, 250 + (int32_t)dg_rng_below(&rng, 400), seed);
        for (int32_t x = 0; x < w; x++) /* walled, as the maps are (else the walk falls back) */
            dg_grid_set(&m.grid, x, 0, DG_TILE_WALL), dg_grid_set(&m.grid, x, h - 1, DG_TILE_WALL);
        for (int32_t y = 0; y < h; y++)
            dg_grid_set(&m.grid, 0, y, DG_TILE_WALL), dg_grid_set(&m.grid, w - 1, y, DG_TILE_WALL);
        dg_room rooms[40];
        int32_t count = (int32_t)dg_rng_below(&rng, 40);
        memset(rooms, 0, sizeof rooms);
        for (int32_t k = 0; k < count; k++)
        {
            dg_rect *c = &rooms[k].rect;
            c->x = (int32_t)dg_rng_below(&rng, (uint32_t)w + 2) - 1;
            c->y = (int32_t)dg_rng_below(&rng, (uint32_t)h + 2) - 1;
            c->w = (int32_t)dg_rng_below(&rng, 12);
            c->h = (int32_t)dg_rng_below(&rng, 10);
            for (int32_t y = DG_MAX(c->y, 1); y < DG_MIN(c->y + c->h, h - 1); y++)
                for (int32_t x = DG_MAX(c->x, 1); x < DG_MIN(c->x + c->w, w - 1); x++)
                    dg_grid_set(&m.grid, x, y, dg_rng_chance(&rng, 10) ? DG_TILE_WALL : DG_TILE_FLOOR);
        }
        for (int tries = 0; tries < 4; tries++) /* a few starts, some in rooms */
        {
            dg_point s = {1 + (int32_t)dg_rng_below(&rng, (uint32_t)w - 2),
                          1 + (int32_t)dg_rng_below(&rng, (uint32_t)h - 2)};
            if (dgi_passable_default[DG_CELL(&m.grid, s.x, s.y)])
                CHECKF(walks_agree(&m.grid, s, rooms, count), "noise seed %d start (%d, %d)",
                       (int)seed, (int)s.x, (int)s.y);
        }
        am_free(&m);
    }
}
