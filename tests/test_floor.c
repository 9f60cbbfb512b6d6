/* Anchors (dg_anchor_place) and stacked floors (dg_floor_generate,
 * dg_floor_stairs): stairs line up between every pair of floors, every stair
 * is reachable from its floor's start, floors rebuild alone, anchors only ever
 * open rock, and bad input changes nothing. */
#include "test.h"

#include <dungeon.h>
#include <stdlib.h>
#include <string.h>

typedef struct fmap {
    uint8_t *cells;
    dg_grid g;
    dg_result r;
    dg_floor_info info;
} fmap;

typedef struct fgen {
    const char *name;
    const char *prefabs; /* file, or NULL */
    int32_t w, h;
} fgen;

/* Every generator with its usual prefab set; prefab-full is left out: its one
 * hand-drawn prefab is the whole map, so most cells are not free to open. */
static const fgen gens[] = {
    {"attach", NULL, 80, 50},      {"chain", NULL, 80, 50},
    {"cave", NULL, 80, 50},        {"bsp", NULL, 80, 50},
    {"maze", NULL, 81, 51},        {"walk", NULL, 80, 50},
    {"scatter", NULL, 80, 50},     {"world", NULL, 81, 51},
    {"prefab-jigsaw", "examples/prefabs/forest.txt", 84, 50},
    {"prefab-islands", "examples/prefabs/factory.txt", 80, 50},
    {"prefab-mixed", "examples/prefabs/vaults.txt", 80, 50},
};
#define GENS ((int)(sizeof gens / sizeof gens[0]))

static dg_prefab_set *load_set(const fgen *f)
{
    dg_prefab_set *set = NULL;
    if (f->prefabs && dg_prefab_load(f->prefabs, NULL, NULL, NULL, &set, NULL) != DG_OK)
        return NULL;
    return set;
}

static dg_status fmap_floor(fmap *m, const fgen *f, const dg_prefab_set *set, uint64_t master,
                            int32_t floor, int32_t floors, int32_t stairs)
{
    m->cells = calloc((size_t)f->w * (size_t)f->h, 1);
    dg_grid_init(&m->g, m->cells, f->w, f->h, 0);
    dg_result_init(&m->r, NULL);
    dg_recipe rc;
    dg_recipe_init(&rc, f->name, master, f->w, f->h);
    if (set)
        dg_recipe_set_prefabs(&rc, set, NULL, NULL);
    return dg_floor_generate(&rc, floor, floors, stairs, &m->g, set, &m->r, &m->info, NULL, NULL);
}

static void fmap_free(fmap *m)
{
    dg_result_free(&m->r);
    free(m->cells);
}

static int same_point(dg_point a, dg_point b) { return a.x == b.x && a.y == b.y; }

static int count_markers(const dg_result *r, int32_t kind)
{
    int n = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
        n += r->markers[i].kind == kind;
    return n;
}

/* One floor's own promises: stairs tiles on its stair cells, each reachable
 * from the start, the start on the up stairs and the exit on the down stairs,
 * every open cell walled in (the stairs' rooms and corridors too). */
static int floor_ok(const fmap *m)
{
    const dg_floor_info *in = &m->info;
    int ok = dg_tile_passable(dg_grid_get(&m->g, m->r.start.x, m->r.start.y)) &&
             grid_open_to_void(&m->g, NULL) == 0;
    int32_t *dist = grid_walk_from(&m->g, m->r.start, NULL);
    for (int32_t k = 0; k < in->up_count; k++)
        ok &= dg_grid_get(&m->g, in->up[k].x, in->up[k].y) == DG_TILE_STAIRS_UP &&
              dist[in->up[k].y * m->g.width + in->up[k].x] >= 0;
    for (int32_t k = 0; k < in->down_count; k++)
        ok &= dg_grid_get(&m->g, in->down[k].x, in->down[k].y) == DG_TILE_STAIRS_DOWN &&
              dist[in->down[k].y * m->g.width + in->down[k].x] >= 0;
    if (in->up_count)
        ok &= same_point(m->r.start, in->up[0]) && m->r.start_room >= -1;
    if (in->down_count)
        ok &= same_point(m->r.exit, in->down[0]);
    ok &= count_markers(&m->r, DG_MARKER_STAIRS_UP) == in->up_count &&
          count_markers(&m->r, DG_MARKER_STAIRS_DOWN) == in->down_count;
    free(dist);
    return ok;
}

/* Floors 0..2 of many dungeons of every generator: each floor keeps its
 * promises and floor n's down stairs are floor n+1's up stairs. */
TEST(floor_stairs_line_up_every_generator)
{
    for (int gi = 0; gi < GENS; gi++)
    {
        dg_prefab_set *set = load_set(&gens[gi]);
        int bad = 0, failed = 0;
        for (uint64_t seed = 1; seed <= 200; seed++)
        {
            int32_t stairs = 1 + (int32_t)(seed % 3);
            fmap m[3];
            for (int32_t f = 0; f < 3; f++)
                failed += fmap_floor(&m[f], &gens[gi], set, seed * 7919, f, 3, stairs) != DG_OK;
            for (int32_t f = 0; f < 3 && !failed; f++)
                bad += !floor_ok(&m[f]);
            for (int32_t f = 0; f < 2 && !failed; f++)
                for (int32_t k = 0; k < stairs; k++)
                    bad += !same_point(m[f].info.down[k], m[f + 1].info.up[k]);
            for (int32_t f = 0; f < 3; f++)
                fmap_free(&m[f]);
        }
        CHECKF(failed == 0 && bad == 0, "%s: %d floors failed, %d broken promises", gens[gi].name,
               failed, bad);
        dg_prefab_set_free(set);
    }
}

/* A floor built alone equals the same floor built after the ones above it,
 * whatever the grid held before. */
TEST(floor_builds_alone)
{
    fmap a, b;
    CHECK(fmap_floor(&a, &gens[0], NULL, 99, 4, 8, 2) == DG_OK);
    uint64_t alone = dg_grid_hash(&a.g);
    fmap_free(&a);
    for (int32_t f = 0; f <= 4; f++)
    {
        CHECK(fmap_floor(&b, &gens[0], NULL, 99, f, 8, 2) == DG_OK);
        if (f == 4)
            CHECK(dg_grid_hash(&b.g) == alone);
        fmap_free(&b);
    }
}

/* The stair cells: inside the grid two cells from the edges, never shared by
 * a floor's up and down stairs, and apart from each other. */
TEST(floor_stairs_cells)
{
    int bad = 0;
    for (int32_t link = 0; link < 200; link++)
    {
        int32_t w = 14 + link % 50, h = 14 + link % 37;
        dg_point a[DG_STAIRS_MAX], b[DG_STAIRS_MAX];
        CHECK(dg_floor_stairs(5, link, w, h, 4, a, NULL) == DG_OK);
        CHECK(dg_floor_stairs(5, link + 1, w, h, 4, b, NULL) == DG_OK);
        for (int i = 0; i < 4; i++)
        {
            bad += a[i].x < 2 || a[i].y < 2 || a[i].x > w - 3 || a[i].y > h - 3;
            for (int j = 0; j < 4; j++)
            {
                bad += same_point(a[i], b[j]);
                bad += i != j && abs(a[i].x - a[j].x) <= 1 && abs(a[i].y - a[j].y) <= 1;
            }
        }
    }
    CHECKF(bad == 0, "%d misplaced stairs", bad);
}

/* The distinct points of an[0..n) on the outer ring of a w x h grid. */
static int32_t anchors_on_ring(const dg_point *an, int n, int32_t w, int32_t h)
{
    int32_t count = 0;
    for (int i = 0; i < n; i++)
    {
        int repeat = 0;
        for (int j = 0; j < i; j++)
            repeat |= same_point(an[i], an[j]);
        count += !repeat && (an[i].x == 0 || an[i].y == 0 || an[i].x == w - 1 || an[i].y == h - 1);
    }
    return count;
}

/* dg_anchor_place on plain maps: only rock changes (to open or wall) and
 * corridor (widened into a room: floor, or a door on its wall), every anchor
 * ends open and reachable from the first, which is the start; no open cell
 * faces void, and the outer ring is open only at anchors on it. */
TEST(anchor_opens_only_rock)
{
    int bad = 0;
    for (int gi = 0; gi < 8; gi++)
        for (uint64_t seed = 1; seed <= 40; seed++)
        {
            const fgen *f = &gens[gi];
            size_t n = (size_t)f->w * (size_t)f->h;
            uint8_t *cells = calloc(n, 1), *before = malloc(n);
            dg_grid g;
            dg_result r;
            dg_grid_init(&g, cells, f->w, f->h, 0);
            dg_result_init(&r, NULL);
            dg_recipe rc;
            dg_recipe_init(&rc, f->name, seed, f->w, f->h);
            CHECK(dg_recipe_generate(&rc, &g, NULL, &r, NULL, NULL) == DG_OK);
            memcpy(before, cells, n);
            dg_rng rng;
            dg_rng_seed(&rng, seed, (uint64_t)gi);
            dg_point an[5];
            for (int i = 0; i < 5; i++)
                an[i] = (dg_point){dg_rng_range(&rng, 0, f->w - 1), dg_rng_range(&rng, 0, f->h - 1)};
            dg_status st = dg_anchor_place(&g, an, 5, &r, NULL, NULL);
            if (st != DG_OK)
            {
                bad += memcmp(before, cells, n) != 0; /* untouched on failure */
                bad += st != DG_E_NOSPACE;
            }
            else
            {
                int32_t *dist = grid_walk_from(&g, an[0], NULL);
                for (size_t i = 0; i < n; i++)
                    bad += before[i] != cells[i] && before[i] != DG_TILE_VOID &&
                           before[i] != DG_TILE_WALL &&
                           !(before[i] == DG_TILE_CORRIDOR &&
                             (cells[i] == DG_TILE_FLOOR || cells[i] == DG_TILE_DOOR));
                for (int i = 0; i < 5; i++)
                    bad += dist[an[i].y * f->w + an[i].x] < 0;
                bad += !same_point(r.start, an[0]) || dist[r.exit.y * f->w + r.exit.x] < 0;
                free(dist);
                dg_quality q; /* walled in; the border opens at an anchor on it, nowhere else */
                bad += dg_survey_map(&g, &r, &q, NULL, NULL) != DG_OK || q.void_open != 0 ||
                       q.border_open != anchors_on_ring(an, 5, f->w, f->h);
            }
            dg_result_free(&r);
            free(cells);
            free(before);
        }
    CHECKF(bad == 0, "%d broken anchor promises", bad);
}

/* An anchor in deep rock gets a walled room around it, which becomes the
 * start room. */
TEST(anchor_room_in_rock)
{
    uint8_t cells[30 * 20];
    dg_grid g;
    dg_result r;
    dg_grid_init(&g, cells, 30, 20, 0);
    dg_grid_fill(&g, DG_TILE_VOID);
    dg_grid_fill_rect(&g, (dg_rect){2, 2, 4, 4}, DG_TILE_FLOOR);
    dg_result_init(&r, NULL);
    dg_room room = {{2, 2, 4, 4}, DG_ROOM_NORMAL, -1, 0, -1, 16, DG_SHAPE_RECT};
    (void)room;
    r.start = (dg_point){3, 3};
    dg_point an = {20, 12};
    CHECK(dg_anchor_place(&g, &an, 1, &r, NULL, NULL) == DG_OK);
    CHECK(r.room_count == 1 && r.start_room == 0);
    CHECK(r.rooms[0].rect.w == 3 && r.rooms[0].rect.h == 3);
    int32_t *dist = grid_walk_from(&g, an, NULL);
    CHECK(dist[3 * 30 + 3] > 0);
    free(dist);
    dg_result_free(&r);
}

/* Bad input: clear status, nothing written. */
TEST(floor_bad_input)
{
    uint8_t cells[80 * 50];
    memset(cells, 0x5A, sizeof cells);
    dg_grid g;
    dg_grid_init(&g, cells, 80, 50, 0);
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, 80, 50);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_diag d;
    CHECK(dg_floor_generate(NULL, 0, 2, 1, &g, NULL, &r, NULL, NULL, &d) == DG_E_NULL);
    CHECK(dg_floor_generate(&rc, 2, 2, 1, &g, NULL, &r, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(dg_floor_generate(&rc, -1, 2, 1, &g, NULL, &r, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(dg_floor_generate(&rc, 0, 0, 1, &g, NULL, &r, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(dg_floor_generate(&rc, 0, 2, 0, &g, NULL, &r, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(dg_floor_generate(&rc, 0, 2, DG_STAIRS_MAX + 1, &g, NULL, &r, NULL, NULL, &d) == DG_E_INVALID);
    dg_grid small;
    dg_grid_init(&small, cells, 13, 13, 0);
    dg_recipe_init(&rc, "attach", 1, 13, 13);
    CHECK(dg_floor_generate(&rc, 0, 2, 1, &small, NULL, &r, NULL, NULL, &d) == DG_E_TOO_SMALL);
    dg_point p[DG_STAIRS_MAX];
    CHECK(dg_floor_stairs(1, -1, 80, 50, 1, p, &d) == DG_E_INVALID);
    CHECK(dg_floor_stairs(1, 0, 80, 50, 1, NULL, &d) == DG_E_NULL);
    CHECK(dg_floor_stairs(1, 0, 13, 50, 1, p, &d) == DG_E_TOO_SMALL);
    dg_point out = {80, 3}, two[2] = {{1, 1}, {-1, 0}};
    CHECK(dg_anchor_place(&g, &out, 1, &r, NULL, &d) == DG_E_INVALID);
    CHECK(dg_anchor_place(&g, two, 2, &r, NULL, &d) == DG_E_INVALID);
    CHECK(dg_anchor_place(&g, NULL, 1, &r, NULL, &d) == DG_E_NULL);
    CHECK(dg_anchor_place(&g, two, DG_ANCHORS_MAX + 1, &r, NULL, &d) == DG_E_INVALID);
    dg_point water = {5, 5};
    dg_grid_init(&g, cells, 80, 50, 0);
    CHECK(dg_anchor_place(&g, &water, 1, &r, NULL, &d) == DG_E_NOSPACE); /* 0x5A is a caller's tile */
    for (size_t i = 0; i < sizeof cells; i++)
        if (cells[i] != 0x5A)
        {
            CHECK(!"a failed call wrote a cell");
            break;
        }
    CHECK(r.room_count == 0 && r.marker_count == 0);
    dg_result_free(&r);
}

/* Golden: one floor in the middle of a dungeon, pinned. */
TEST(floor_golden)
{
    fmap m;
    CHECK(fmap_floor(&m, &gens[0], NULL, 42, 2, 5, 2) == DG_OK);
    uint64_t h = dg_grid_hash(&m.g);
    if (getenv("DG_GOLDEN_PRINT"))
        printf("floor golden 0x%016llx\n", (unsigned long long)h);
    CHECKF(h == 0x5fdedcded39f7d41ULL, "floor 2 of attach master 42: 0x%016llx", (unsigned long long)h);
    fmap_free(&m);
}

/* Recipes record lock and floor settings: they print, parse back, and
 * regenerate the same map as the explicit calls. */
TEST(floor_recipe_records_progression)
{
    const char *line = "attach seed=42 width=80 height=50 locks=3 keys=dead-end secrets=250 "
                       "floors=5 floor=2 stairs=2";
    dg_recipe rc;
    dg_diag d;
    CHECK(dg_recipe_parse(line, strlen(line), &rc, &d) == DG_OK);
    char text[1024];
    CHECK(dg_recipe_print(&rc, text, sizeof text, NULL) == DG_OK);
    CHECK(strstr(text, " locks=3 keys=dead-end kinds=3 gates=2 secrets=250 floors=5 floor=2 stairs=2") != NULL);
    dg_recipe back;
    CHECK(dg_recipe_parse(text, strlen(text), &back, &d) == DG_OK);
    CHECK(memcmp(&back, &rc, sizeof rc) == 0);
    int32_t v = 0;
    CHECK(dg_recipe_get(&rc, "floor", &v) == DG_OK && v == 2);
    CHECK(dg_recipe_get(&rc, "keys", &v) == DG_OK && v == DG_KEYS_DEAD_END);

    uint8_t a[80 * 50], b[80 * 50];
    dg_grid ga, gb;
    dg_grid_init(&ga, a, 80, 50, 0);
    dg_grid_init(&gb, b, 80, 50, 0);
    dg_result ra, rb;
    dg_result_init(&ra, NULL);
    dg_result_init(&rb, NULL);
    CHECK(dg_recipe_generate(&rc, &ga, NULL, &ra, NULL, &d) == DG_OK);
    dg_recipe plain;
    dg_recipe_init(&plain, "attach", 42, 80, 50);
    dg_floor_info info;
    CHECK(dg_floor_generate(&plain, 2, 5, 2, &gb, NULL, &rb, &info, NULL, &d) == DG_OK);
    dg_lock_params lp;
    dg_lock_defaults(&lp);
    lp.locks = 3, lp.key_place = DG_KEYS_DEAD_END, lp.secret_permille = 250;
    CHECK(dg_lock_place(&gb, &lp, info.seed, &rb, NULL, NULL, &d) == DG_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(ra.marker_count == rb.marker_count && ra.marker_count > 4);
    dg_result_free(&ra);
    dg_result_free(&rb);

    /* a recipe without them prints as before */
    dg_recipe_init(&plain, "attach", 42, 80, 50);
    CHECK(dg_recipe_print(&plain, text, sizeof text, NULL) == DG_OK);
    CHECK(strstr(text, "locks") == NULL && strstr(text, "floors") == NULL);
    CHECK(dg_recipe_get(&plain, "locks", &v) == DG_OK && v == 0);
    const char *twice = "attach locks=1 locks=2", *range = "attach stairs=5";
    CHECK(dg_recipe_parse(twice, strlen(twice), &rc, &d) == DG_E_PARSE);
    CHECK(dg_recipe_parse(range, strlen(range), &rc, &d) == DG_E_INVALID);
}
