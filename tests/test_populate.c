/* dg_populate over every generator that needs no prefab set: nothing in view
 * of the start, on a door, chokepoint, start, exit or key, no footprint on a
 * wall or over another; the difficulty per room rises with the walking
 * distance from the start and with depth; determinism and golden pins.
 * POPULATE_SEEDS=N build/test-plain/runner populate_measure runs the
 * measurement over N seeds per generator at 80x50 and prints it. */
#include "test.h"
#include "analysis/analysis.h" /* dgi_walk_from, dgi_result_label_rooms */
#include "content/content.h"   /* dgi_roles_run's room distances */

#include <stdlib.h>
#include <string.h>

static const char *const gens[] = {"attach", "bsp", "cave", "chain", "maze", "scatter", "walk",
                                   "world"};
#define GENS ((int)(sizeof gens / sizeof gens[0]))

typedef struct map {
    uint8_t *cells;
    dg_grid grid;
    dg_result result;
    int32_t *dist;   /* 4-way walking distance from the start */
    uint8_t *choke;
    uint8_t *seen;
} map;

static int map_make(map *m, const char *gen, uint64_t seed, int32_t w, int32_t h)
{
    memset(m, 0, sizeof *m);
    m->cells = calloc((size_t)w * (size_t)h, 1);
    dg_result_init(&m->result, NULL);
    dg_recipe recipe;
    if (!m->cells || dg_grid_init(&m->grid, m->cells, w, h, 0) != DG_OK ||
        dg_recipe_init(&recipe, gen, seed, w, h) != DG_OK ||
        dg_recipe_generate(&recipe, &m->grid, NULL, &m->result, NULL, NULL) != DG_OK ||
        m->result.start.x < 0)
        return 0;
    size_t n = (size_t)w * (size_t)h;
    m->dist = malloc(n * sizeof *m->dist);
    m->choke = malloc(n);
    m->seen = calloc(n, 1);
    return m->dist && m->choke && m->seen &&
           dg_distance_map(&m->grid, NULL, &m->result.start, 1, 0, m->dist, n, NULL, NULL, NULL) ==
               DG_OK &&
           dg_chokepoints(&m->grid, NULL, m->choke, n, NULL, NULL, NULL) == DG_OK &&
           dg_fov(&m->grid, NULL, m->result.start, 0, m->seen, n, NULL, NULL) == DG_OK;
}

static void map_free(map *m)
{
    free(m->cells);
    free(m->dist);
    free(m->choke);
    free(m->seen);
    dg_result_free(&m->result);
}

/* Walking distance of a room: its nearest reached cell (-1: none). */
static int32_t room_distance(const map *m, int32_t room)
{
    dg_rect r = m->result.rooms[room].rect;
    int32_t best = -1;
    for (int32_t y = DG_MAX(r.y, 0); y < r.y + r.h && y < m->grid.height; y++)
        for (int32_t x = DG_MAX(r.x, 0); x < r.x + r.w && x < m->grid.width; x++)
        {
            int32_t d = m->dist[y * m->grid.width + x];
            if (d >= 0 && (best < 0 || d < best))
                best = d;
        }
    return best;
}

/* Roles as dg_roles would give them, enough for the tests: start and exit
 * rooms, the farthest other room the boss's, the next farthest treasure. */
static void label(map *m)
{
    dg_result *r = &m->result;
    int32_t n = r->room_count;
    CHECK(dgi_result_label_rooms(r) == DG_OK);
    if (r->start_room >= 0)
        strcpy(r->labels[r->start_room].role, "start");
    if (r->exit_room >= 0 && r->exit_room != r->start_room)
        strcpy(r->labels[r->exit_room].role, "exit");
    for (int pass = 0; pass < 2; pass++)
    {
        int32_t best = -1, best_d = -1;
        for (int32_t i = 0; i < n; i++)
        {
            int32_t d = room_distance(m, i);
            if (!r->labels[i].role[0] && d > best_d)
            {
                best = i;
                best_d = d;
            }
        }
        if (best >= 0)
            strcpy(r->labels[best].role, pass ? "treasure" : "boss");
    }
}

static dg_spawn_table *load_table(const char *path)
{
    dg_spawn_table *t = NULL;
    dg_diag d;
    if (dg_spawn_load(path, NULL, NULL, NULL, &t, &d) != DG_OK)
        fprintf(stderr, "    %s\n", d.message);
    return t;
}

/* The violations of the placement rules among the markers from `first` on. */
static int violations(const map *m, int32_t first, const char **why)
{
    const dg_result *r = &m->result;
    int32_t w = m->grid.width;
    uint8_t *taken = calloc((size_t)w * (size_t)m->grid.height, 1);
    int bad = 0;
    for (int32_t i = 0; i < first; i++) /* existing markers: start, exit, keys */
        taken[r->markers[i].pos.y * w + r->markers[i].pos.x] = 2;
    for (int32_t i = first; i < r->marker_count && !bad; i++)
    {
        const dg_marker *k = &r->markers[i];
        for (int32_t dy = 0; dy < k->size && !bad; dy++)
            for (int32_t dx = 0; dx < k->size && !bad; dx++)
            {
                int32_t x = k->pos.x + dx, y = k->pos.y + dy, c = y * w + x;
                uint8_t t = dg_grid_get(&m->grid, x, y);
                if (x >= w || y >= m->grid.height || t != DG_TILE_FLOOR)
                    *why = "footprint off room floor (a wall, a door, rock)", bad = 1;
                else if (m->seen[c])
                    *why = "in view of the start", bad = 1;
                else if (m->choke[c])
                    *why = "on a chokepoint", bad = 1;
                else if ((x == r->start.x && y == r->start.y) || (x == r->exit.x && y == r->exit.y))
                    *why = "on the start or exit", bad = 1;
                else if (taken[c])
                    *why = taken[c] == 2 ? "on a marker (key, start, exit)" : "footprints overlap", bad = 1;
                else if (m->dist[c] < 0)
                    *why = "unreachable", bad = 1;
                else
                    taken[c] = 1;
            }
    }
    free(taken);
    return bad;
}

/* Sign of the rank correlation between the rooms' walking distance and
 * their spawns' summed cost (start room and unreached rooms left out):
 * 1, 0 (no variation, fewer than 3 rooms) or -1. */
static int rank_sign(const map *m, int32_t first, int64_t *total_cost, int32_t *rooms)
{
    const dg_result *r = &m->result;
    int32_t n = 0;
    int32_t *d = calloc((size_t)r->room_count + 1, sizeof *d), *c = calloc((size_t)r->room_count + 1, sizeof *c);
    int32_t *idx = calloc((size_t)r->room_count + 1, sizeof *idx);
    for (int32_t i = 0; i < r->room_count; i++)
    {
        int32_t dist = room_distance(m, i);
        /* a treasure room holds items, off the difficulty budget's scale */
        if (i == r->start_room || dist < 0 || strcmp(r->labels[i].role, "treasure") == 0)
            continue;
        d[n] = dist;
        idx[i] = n;
        c[n] = 0;
        for (int32_t k = first; k < r->marker_count; k++)
            if (r->markers[k].room == i)
                c[n] += r->markers[k].cost;
        *total_cost += c[n];
        n++;
    }
    *rooms += n;
    /* average ranks, doubled to stay integers */
    int64_t sx = 0, sy = 0, sxy = 0;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t lo_d = 0, eq_d = 0, lo_c = 0, eq_c = 0;
        for (int32_t j = 0; j < n; j++)
        {
            lo_d += d[j] < d[i];
            eq_d += d[j] == d[i];
            lo_c += c[j] < c[i];
            eq_c += c[j] == c[i];
        }
        int64_t rx = 2 * lo_d + eq_d + 1, ry = 2 * lo_c + eq_c + 1;
        sx += rx;
        sy += ry;
        sxy += rx * ry;
    }
    free(d);
    free(c);
    free(idx);
    int64_t cov = (int64_t)n * sxy - sx * sy;
    return n < 3 ? 0 : (cov > 0) - (cov < 0);
}

typedef struct tally {
    int32_t maps, positive, flat, violations, spawns, rooms, boss_missing;
    int64_t cost;
} tally;

static void run_map(const char *gen, uint64_t seed, int32_t depth, const dg_spawn_table *t,
                    tally *ty)
{
    map m;
    if (!map_make(&m, gen, seed, 80, 50))
    {
        map_free(&m);
        return;
    }
    label(&m);
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.depth = depth;
    int32_t first = m.result.marker_count;
    dg_populate_stats st;
    dg_diag d;
    dg_status s = dg_populate(&m.grid, t, &p, seed, &m.result, &st, NULL, &d);
    CHECKF(s == DG_OK, "%s seed %d: %s", gen, (int)seed, d.message);
    const char *why = "";
    if (s == DG_OK)
    {
        ty->maps++;
        if (violations(&m, first, &why))
        {
            ty->violations++;
            fprintf(stderr, "    %s seed %d: %s\n", gen, (int)seed, why);
        }
        int sign = rank_sign(&m, first, &ty->cost, &ty->rooms);
        ty->positive += sign > 0;
        ty->flat += sign == 0;
        ty->spawns += st.spawns;
        ty->boss_missing += st.boss_missing;
        CHECK(st.spawns == m.result.marker_count - first);
        for (int32_t i = first; i < m.result.marker_count; i++)
        {
            const dg_marker *k = &m.result.markers[i];
            const char *role = m.result.labels[k->room].role;
            dg_spawn_entry e;
            CHECK(dg_spawn_get(t, dg_spawn_find(t, k->name), &e) == DG_OK);
            CHECK(strcmp(role, "treasure") != 0 || k->kind == DG_MARKER_ITEM);
            CHECK(k->size == e.size && k->cost == e.cost && strcmp(k->type, e.kind) == 0);
            CHECK(k->number >= 1 && k->number <= st.groups);
            int boss = 0;
            for (int32_t w = 0; w < e.room_count; w++)
                boss |= strcmp(e.rooms[w], "boss") == 0;
            CHECK(!boss || strcmp(role, "boss") == 0);
        }
    }
    map_free(&m);
}

/* Positive-correlation share (permille) of the maps where it is defined. */
static int32_t share(const tally *t)
{
    int32_t defined = t->maps - t->flat;
    return defined ? (int32_t)((int64_t)t->positive * 1000 / defined) : 1000;
}

TEST(populate_rules_every_generator)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    CHECK(t != NULL);
    for (int g = 0; t && g < GENS; g++)
    {
        tally ty = {0};
        for (uint64_t seed = 1; seed <= 20; seed++)
            run_map(gens[g], seed, 4, t, &ty);
        CHECKF(ty.violations == 0, "%s: %d maps break a placement rule", gens[g], (int)ty.violations);
        CHECKF(ty.maps == 20, "%s: %d maps populated", gens[g], (int)ty.maps);
        CHECKF(ty.boss_missing <= 2, "%s: %d boss rooms without a boss", gens[g],
               (int)ty.boss_missing);
        CHECKF(share(&ty) >= 900, "%s: rank correlation positive on %d permille of %d maps (%d flat)",
               gens[g], (int)share(&ty), (int)ty.maps, (int)ty.flat);
        /* a level, not a crowd: 0.9.0 put three in every room, eight on a maze */
        CHECKF(ty.spawns <= 3 * ty.rooms, "%s: %d spawns in %d rooms", gens[g], (int)ty.spawns,
               (int)ty.rooms);
    }
    dg_spawn_table_free(t);
}

TEST(populate_difficulty_rises_with_depth)
{
    dg_spawn_table *t = load_table("examples/spawns/factory.txt");
    CHECK(t != NULL);
    static const int32_t depths[3] = {1, 6, 15};
    for (int g = 0; t && g < GENS; g++)
    {
        int64_t mean[3];
        for (int k = 0; k < 3; k++)
        {
            tally ty = {0};
            for (uint64_t seed = 1; seed <= 8; seed++)
                run_map(gens[g], seed, depths[k], t, &ty);
            mean[k] = ty.rooms ? ty.cost * 1000 / ty.rooms : 0;
        }
        CHECKF(mean[0] < mean[1] && mean[1] < mean[2],
               "%s: cost per room %lld, %lld, %lld at depths 1, 6, 15", gens[g],
               (long long)mean[0], (long long)mean[1], (long long)mean[2]);
    }
    dg_spawn_table_free(t);
}

/* The measurement of the report (not part of make check's timing unless
 * POPULATE_SEEDS is set; it then prints one row per generator). */
TEST(populate_measure)
{
    const char *env = getenv("POPULATE_SEEDS");
    int32_t seeds = env ? atoi(env) : 0;
    dg_spawn_table *t = seeds > 0 ? load_table("examples/spawns/dungeon.txt") : NULL;
    for (int g = 0; t && g < GENS; g++)
    {
        tally ty = {0}, band[3] = {{0}, {0}, {0}};
        for (int32_t seed = 1; seed <= seeds; seed++)
        {
            tally one = {0};
            run_map(gens[g], (uint64_t)seed, 1 + seed % 12, t, &one);
            tally *sum[2] = {&ty, &band[(seed % 12) / 4]};
            for (int k = 0; k < 2; k++)
            {
                sum[k]->maps += one.maps, sum[k]->positive += one.positive, sum[k]->flat += one.flat;
                sum[k]->violations += one.violations, sum[k]->spawns += one.spawns;
                sum[k]->rooms += one.rooms, sum[k]->cost += one.cost;
                sum[k]->boss_missing += one.boss_missing;
            }
        }
        printf("%-8s cost/room by depth 1-4 %.2f, 5-8 %.2f, 9-12 %.2f\n", gens[g],
               band[0].rooms ? (double)band[0].cost / band[0].rooms : 0.0,
               band[1].rooms ? (double)band[1].cost / band[1].rooms : 0.0,
               band[2].rooms ? (double)band[2].cost / band[2].rooms : 0.0);
        printf("%-8s maps %4d  positive %4d/%4d (%d.%d%%, %d without 3 rooms)  violations %d  "
               "spawns/map %d  cost/room %.2f  boss rooms without a boss %d\n",
               gens[g], (int)ty.maps, (int)ty.positive, (int)(ty.maps - ty.flat),
               (int)(share(&ty) / 10), (int)(share(&ty) % 10), (int)ty.flat, (int)ty.violations,
               (int)(ty.maps ? ty.spawns / ty.maps : 0),
               ty.rooms ? (double)ty.cost / ty.rooms : 0.0, (int)ty.boss_missing);
        CHECK(ty.violations == 0);
    }
    dg_spawn_table_free(t);
}

TEST(populate_deterministic_and_pinned)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    CHECK(t != NULL);
    uint64_t h[GENS];
    for (int g = 0; t && g < GENS; g++)
    {
        uint64_t run[2];
        for (int k = 0; k < 2; k++)
        {
            map m;
            run[k] = 0;
            if (map_make(&m, gens[g], 7, 80, 50))
            {
                label(&m);
                dg_populate_params p;
                dg_populate_defaults(&p);
                p.depth = 5;
                int32_t first = m.result.marker_count;
                CHECK(dg_populate(&m.grid, t, &p, 7, &m.result, NULL, NULL, NULL) == DG_OK);
                uint64_t x = 0xCBF29CE484222325ULL;
                for (int32_t i = first; i < m.result.marker_count; i++)
                {
                    const dg_marker *k2 = &m.result.markers[i];
                    int32_t v[7] = {k2->pos.x, k2->pos.y, k2->kind, k2->room, k2->number, k2->size,
                                    k2->cost};
                    for (int j = 0; j < 7; j++)
                        x = (x ^ (uint32_t)v[j]) * 0x100000001B3ULL;
                    for (const char *c = k2->name; *c; c++)
                        x = (x ^ (uint8_t)*c) * 0x100000001B3ULL;
                }
                run[k] = x;
            }
            map_free(&m);
        }
        CHECK(run[0] == run[1]);
        h[g] = run[0];
    }
    static const uint64_t pins[GENS] = {
        0x56A4C69A91FD5C52ULL, /* attach */
        0x6F789E149DB63EC3ULL, /* bsp */
        0x34E15B11B07B9263ULL, /* cave */
        0xFBA8F828C7AEBDA6ULL, /* chain */
        0x452EFA8A2737EE82ULL, /* maze */
        0x388503459EB877F9ULL, /* scatter */
        0xF92CA6A7D73EFD9AULL, /* walk */
        0x42611DA9692459BAULL, /* world */
    };
    for (int g = 0; t && g < GENS; g++)
    {
        if (getenv("POPULATE_PRINT_PINS"))
            printf("    0x%016llXULL, /* %s */\n", (unsigned long long)h[g], gens[g]);
        CHECK_EQ_U64(h[g], pins[g]);
    }
    CHECK_EQ_U64(dg_spawn_table_hash(t), 0x4EBC3978BF2E55F7ULL);
    dg_spawn_table_free(t);
}

/* Footprints of 2 to 4 cells a side, in groups: each inside its room's
 * rect and on free cells (violations), and the same markers as 0.16 placed
 * (pins), where footprints were read off a clearance map. */
TEST(populate_large_footprints_pinned)
{
    static const char text[] = "spawns 1\n"
                               "giant monster weight 5 cost 3 size 4\n"
                               "ogre monster weight 5 cost 2 size 3 group 1..3\n"
                               "crate item weight 5 cost 1 size 2 group 2..5\n"
                               "rat monster weight 5 cost 1 group 1..6\n"
                               "titan monster weight 1 cost 9 size 4 rooms boss\n"
                               "troll monster weight 1 cost 5 size 2 rooms boss\n";
    dg_spawn_table *t = NULL;
    CHECK(dg_spawn_parse(text, sizeof text - 1, "t", NULL, NULL, NULL, &t, NULL) == DG_OK);
    static const uint64_t pins[GENS] = {
        0x14F1A2B12232D116ULL, /* attach */
        0xC71E55BD7FC58E1DULL, /* bsp */
        0x957ED71BF0CB504AULL, /* cave */
        0xC1C8D898C76C3106ULL, /* chain */
        0xA2D84B6BF314A6F9ULL, /* maze */
        0x2A83DB8CAD25798DULL, /* scatter */
        0xF43F68649ACC6910ULL, /* walk */
        0x39A8A56FD329FE4CULL, /* world */
    };
    for (int g = 0; t && g < GENS; g++)
    {
        uint64_t x = 0xCBF29CE484222325ULL;
        for (uint64_t seed = 1; seed <= 4; seed++)
        {
            map m;
            if (map_make(&m, gens[g], seed, 80, 50))
            {
                label(&m);
                dg_populate_params p;
                dg_populate_defaults(&p);
                p.cells_per_spawn = 2;
                int32_t first = m.result.marker_count;
                const char *why = "";
                CHECK(dg_populate(&m.grid, t, &p, seed, &m.result, NULL, NULL, NULL) == DG_OK);
                CHECKF(!violations(&m, first, &why), "%s seed %d: %s", gens[g], (int)seed, why);
                for (int32_t i = first; i < m.result.marker_count; i++)
                {
                    const dg_marker *k = &m.result.markers[i];
                    dg_rect r = m.result.rooms[k->room].rect;
                    CHECK(k->pos.x >= r.x && k->pos.y >= r.y && k->pos.x + k->size <= r.x + r.w &&
                          k->pos.y + k->size <= r.y + r.h);
                    int32_t v[4] = {k->pos.x, k->pos.y, k->size, k->number};
                    for (int j = 0; j < 4; j++)
                        x = (x ^ (uint32_t)v[j]) * 0x100000001B3ULL;
                }
            }
            map_free(&m);
        }
        if (getenv("POPULATE_PRINT_PINS"))
            printf("        0x%016llXULL, /* %s */\n", (unsigned long long)x, gens[g]);
        CHECK_EQ_U64(x, pins[g]);
    }
    dg_spawn_table_free(t);
}

/* An entry of cost 0 spends no budget, so it stands at most once in a room
 * (one shopkeeper a shop), however its weight outbids the rest. */
TEST(populate_zero_cost_once_per_room)
{
    static const char text[] = "spawns 1\n"
                               "keeper npc weight 50 cost 0 rooms shop\n"
                               "rat monster weight 1 cost 1 rooms shop\n";
    dg_spawn_table *t = NULL;
    CHECK(dg_spawn_parse(text, sizeof text - 1, "t", NULL, NULL, NULL, &t, NULL) == DG_OK);
    int32_t keepers = 0;
    for (uint64_t seed = 1; t && seed <= 4; seed++)
    {
        map m;
        if (!map_make(&m, seed % 2 ? "bsp" : "attach", seed, 80, 50))
        {
            map_free(&m);
            continue;
        }
        dg_result *r = &m.result;
        CHECK(dgi_result_label_rooms(r) == DG_OK);
        for (int32_t i = 0; i < r->room_count; i++)
            strcpy(r->labels[i].role, i == r->start_room ? "start" : "shop");
        int32_t first = r->marker_count;
        CHECK(dg_populate(&m.grid, t, NULL, seed, r, NULL, NULL, NULL) == DG_OK);
        for (int32_t i = first; i < r->marker_count; i++)
        {
            int32_t same = 0;
            for (int32_t j = first; j < r->marker_count; j++)
                same += r->markers[j].room == r->markers[i].room &&
                        strcmp(r->markers[j].name, "keeper") == 0;
            if (strcmp(r->markers[i].name, "keeper") == 0)
            {
                keepers++;
                CHECKF(same == 1, "seed %d room %d: %d keepers", (int)seed,
                       (int)r->markers[i].room, (int)same);
            }
        }
        map_free(&m);
    }
    CHECK(keepers > 0);
    dg_spawn_table_free(t);
}

/* Bad input leaves the result as it was. */
TEST(populate_refuses_and_leaves_result)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    map m;
    CHECK(t && map_make(&m, "attach", 3, 80, 50));
    label(&m);
    int32_t markers = m.result.marker_count;
    dg_populate_params p;
    dg_populate_defaults(&p);
    dg_diag d;
    p.curve_budget[1] = p.curve_budget[0] - 1; /* the default's first budget is 1 */
    CHECK(dg_populate(&m.grid, t, &p, 1, &m.result, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "decreases") != NULL);
    dg_populate_defaults(&p);
    p.depth = -1;
    CHECK(dg_populate(&m.grid, t, &p, 1, &m.result, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(dg_populate(&m.grid, NULL, NULL, 1, &m.result, NULL, NULL, &d) == DG_E_NULL);
    dg_spawn_table *noboss = NULL;
    static const char text[] = "spawns 1\nrat monster\ngold item\n";
    CHECK(dg_spawn_parse(text, sizeof text - 1, "t", NULL, NULL, NULL, &noboss, NULL) == DG_OK);
    CHECK(dg_populate(&m.grid, noboss, NULL, 1, &m.result, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "'boss'") != NULL);
    dg_point start = m.result.start;
    m.result.start.x = -1;
    CHECK(dg_populate(&m.grid, t, NULL, 1, &m.result, NULL, NULL, &d) == DG_E_INVALID);
    m.result.start = start;
    CHECK(m.result.marker_count == markers);
    dg_spawn_table_free(noboss);
    dg_spawn_table_free(t);
    map_free(&m);
}

/* An allocator that refuses its n-th allocation and those after. */
typedef struct failing {
    int32_t n, calls;
} failing;
static void *fail_alloc(void *user, size_t size)
{
    failing *f = user;
    return ++f->calls >= f->n ? NULL : malloc(size);
}
static void fail_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

TEST(populate_out_of_memory_leaves_result)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    map m;
    CHECK(t && map_make(&m, "bsp", 5, 80, 50));
    label(&m);
    int32_t markers = m.result.marker_count;
    int ok = 0;
    for (int32_t n = 1; n <= 12 && !ok; n++)
    {
        failing f = {n, 0};
        dg_allocator a = {fail_alloc, fail_free, &f};
        dg_diag d;
        dg_status st = dg_populate(&m.grid, t, NULL, 1, &m.result, NULL, &a, &d);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        if (st == DG_E_NOMEM)
            CHECK(m.result.marker_count == markers && d.status == DG_E_NOMEM);
        ok = st == DG_OK;
    }
    CHECK(ok);
    dg_spawn_table_free(t);
    map_free(&m);
}

/* A hash of the result's roles and markers from marker `first` on. */
static uint64_t content_hash(const dg_result *r, int32_t first)
{
    uint64_t x = 0xCBF29CE484222325ULL;
    for (int32_t i = 0; i < r->label_count; i++)
        for (const char *c = r->labels[i].role; *c; c++)
            x = (x ^ (uint8_t)*c) * 0x100000001B3ULL;
    for (int32_t i = first; i < r->marker_count; i++)
    {
        const dg_marker *k = &r->markers[i];
        int32_t v[7] = {k->pos.x, k->pos.y, k->kind, k->room, k->number, k->size, k->cost};
        for (int j = 0; j < 7; j++)
            x = (x ^ (uint32_t)v[j]) * 0x100000001B3ULL;
        for (const char *c = k->name; *c; c++)
            x = (x ^ (uint8_t)*c) * 0x100000001B3ULL;
    }
    return x;
}

/* dg_roles_populate gives what dg_roles then dg_populate give, with the
 * params' own passable tiles or not; a refused population keeps the roles. */
TEST(populate_roles_in_one_call)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    CHECK(t != NULL);
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    CHECK(dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK);
    uint8_t shut_doors[256];
    for (int k = 0; k < 256; k++)
        shut_doors[k] = dg_tile_passable((uint8_t)k) && k != DG_TILE_DOOR;
    for (int g = 0; t && g < GENS; g++)
        for (uint64_t seed = 1; seed <= 3; seed++)
        {
            dg_populate_params p;
            dg_populate_defaults(&p);
            p.depth = (int32_t)seed * 4;
            p.passable = seed == 3 ? shut_doors : NULL;
            map a, b;
            int made = map_make(&a, gens[g], seed, 80, 50);
            made &= map_make(&b, gens[g], seed, 80, 50);
            if (!made)
            {
                map_free(&a), map_free(&b);
                continue;
            }
            int32_t first = a.result.marker_count;
            dg_role_report ra, rb;
            dg_populate_stats sa, sb;
            memset(&ra, 0, sizeof ra), memset(&rb, 0, sizeof rb);
            memset(&sa, 0, sizeof sa), memset(&sb, 0, sizeof sb);
            dg_status st = dg_roles(&a.grid, rules, count, seed, &a.result, &ra, NULL, NULL);
            if (st == DG_OK)
                st = dg_populate(&a.grid, t, &p, seed, &a.result, &sa, NULL, NULL);
            CHECK(dg_roles_populate(&b.grid, rules, count, t, &p, seed, &b.result, &rb, &sb, NULL,
                                    NULL) == st);
            CHECK(memcmp(&ra, &rb, sizeof ra) == 0 && memcmp(&sa, &sb, sizeof sa) == 0);
            CHECK(a.result.marker_count == b.result.marker_count);
            CHECK_EQ_U64(content_hash(&a.result, first), content_hash(&b.result, first));
            map_free(&a), map_free(&b);
        }
    dg_spawn_table *noboss = NULL;
    static const char text[] = "spawns 1\nrat monster\ngold item\n";
    CHECK(dg_spawn_parse(text, sizeof text - 1, "t", NULL, NULL, NULL, &noboss, NULL) == DG_OK);
    map m;
    if (map_make(&m, "bsp", 5, 80, 50))
    {
        int32_t markers = m.result.marker_count;
        dg_diag d;
        CHECK(dg_roles_populate(&m.grid, rules, count, noboss, NULL, 5, &m.result, NULL, NULL,
                                NULL, &d) == DG_E_INVALID);
        CHECK(strstr(d.message, "'boss'") != NULL && m.result.marker_count == markers);
        CHECK(m.result.label_count == m.result.room_count);
        m.result.start.x = -1;
        CHECK(dg_roles_populate(&m.grid, rules, count, t, NULL, 5, &m.result, NULL, NULL, NULL,
                                &d) == DG_E_INVALID);
    }
    map_free(&m);
    dg_spawn_table_free(noboss);
    dg_spawn_table_free(t);
}

/* The rooms' distances the roles hand to population (dgi_roles_run's
 * room_dist, where a room's cells are its whole rect) are the least walking
 * distance over the rect's cells, as population would read it off the
 * rect, and every rect room of bsp and world has one. */
TEST(populate_room_distances_from_roles)
{
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    CHECK(dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK);
    for (int g = 0; g < GENS; g++)
        for (uint64_t seed = 1; seed <= 12; seed++)
        {
            map m;
            int32_t *known = NULL;
            if (!map_make(&m, gens[g], seed, 80, 50) ||
                !(known = malloc(((size_t)m.result.room_count + 1) * sizeof *known)))
            {
                map_free(&m), free(known);
                continue;
            }
            int32_t *queue = malloc((size_t)80 * 50 * sizeof *queue);
            CHECK(queue != NULL);
            if (queue)
                dgi_walk_default(&m.grid, m.result.start, m.dist, queue);
            dg_status st = queue ? dgi_roles_run(&m.grid, rules, count, seed, &m.result, NULL,
                                                 m.dist, known, NULL, NULL)
                                 : DG_E_NOMEM;
            int32_t found = 0;
            for (int32_t k = 0; st == DG_OK && k < m.result.room_count; k++)
            {
                dg_rect q = m.result.rooms[k].rect;
                if (known[k] == DGI_DIST_UNKNOWN)
                {
                    CHECK(strcmp(gens[g], "bsp") != 0 && strcmp(gens[g], "world") != 0);
                    continue;
                }
                int64_t least = -1;
                for (int32_t y = DG_MAX(q.y, 0); y < DG_MIN(q.y + q.h, 50); y++)
                    for (int32_t x = DG_MAX(q.x, 0); x < DG_MIN(q.x + q.w, 80); x++)
                        if (m.dist[y * 80 + x] >= 0 && (least < 0 || m.dist[y * 80 + x] < least))
                            least = m.dist[y * 80 + x];
                CHECK_EQ_U64((uint64_t)(least + 1), (uint64_t)((int64_t)known[k] + 1));
                found++;
            }
            CHECK(st != DG_OK || found > 0 || strcmp(gens[g], "cave") == 0);
            free(queue), free(known);
            map_free(&m);
        }
}

/* Out of memory at any allocation of dg_roles_populate: DG_E_NOMEM and no
 * spawn, or the whole work. */
TEST(populate_roles_in_one_call_out_of_memory)
{
    dg_spawn_table *t = load_table("examples/spawns/dungeon.txt");
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    CHECK(t && dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK);
    int ok = 0;
    for (int32_t n = 1; t && n <= 16 && !ok; n++)
    {
        map m;
        if (!map_make(&m, "bsp", 5, 80, 50))
        {
            map_free(&m);
            continue;
        }
        int32_t markers = m.result.marker_count;
        failing f = {n, 0};
        dg_allocator a = {fail_alloc, fail_free, &f};
        dg_diag d;
        dg_status st =
            dg_roles_populate(&m.grid, rules, count, t, NULL, 1, &m.result, NULL, NULL, &a, &d);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        if (st == DG_E_NOMEM)
            CHECK(m.result.marker_count == markers && d.status == DG_E_NOMEM);
        ok = st == DG_OK;
        map_free(&m);
    }
    CHECK(ok);
    dg_spawn_table_free(t);
}

/* The walled walk (no bounds checks when the outer ring is shut) gives the
 * distances and count of dgi_walk_from: every generator's maps, and grids
 * whose ring is open (it falls back) or whose start is shut. */
static int walks_agree(const dg_grid *g, dg_point from)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *a = malloc(n * 4 * sizeof *a);
    if (!a)
        return 0;
    dgi_move w;
    dgi_move_basic(&w, g, NULL);
    int32_t ca = dgi_walk_from(&w, from, a, a + n);
    int32_t cb = dgi_walk_from_walled(&w, from, a + 2 * n, a + 3 * n);
    int same = ca == cb && memcmp(a, a + 2 * n, n * sizeof *a) == 0;
    free(a);
    return same;
}

TEST(populate_walled_walk_matches)
{
    for (int g = 0; g < GENS; g++)
        for (uint64_t seed = 1; seed <= 6; seed++)
        {
            map m;
            if (map_make(&m, gens[g], seed, 60 + (int32_t)seed, 31 + (int32_t)seed))
                CHECKF(walks_agree(&m.grid, m.result.start), "%s seed %d", gens[g], (int)seed);
            else
                CHECKF(0, "%s seed %d: no map", gens[g], (int)seed);
            map_free(&m);
        }
    uint8_t cells[7 * 5];
    dg_grid grid;
    CHECK(dg_grid_init(&grid, cells, 7, 5, 0) == DG_OK);
    memset(cells, DG_TILE_FLOOR, sizeof cells); /* the ring open */
    cells[2 * 7 + 3] = DG_TILE_WALL;
    dg_point corner = {0, 0}, mid = {1, 1}, wall = {3, 2};
    CHECK(walks_agree(&grid, corner));
    CHECK(walks_agree(&grid, mid));
    for (int32_t x = 0; x < 7; x++) /* the ring shut */
        cells[x] = cells[4 * 7 + x] = DG_TILE_WALL;
    for (int32_t y = 0; y < 5; y++)
        cells[y * 7] = cells[y * 7 + 6] = DG_TILE_WALL;
    CHECK(walks_agree(&grid, mid));
    CHECK(walks_agree(&grid, wall));
    uint8_t tiny[2 * 2] = {DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_WALL};
    CHECK(dg_grid_init(&grid, tiny, 2, 2, 0) == DG_OK);
    CHECK(walks_agree(&grid, corner));
}
