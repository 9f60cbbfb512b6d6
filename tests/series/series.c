/* The same-bytes series (tests/series.sh): one line per case, each a digest
 * of 32 maps (seeds 1..32), so "the same bytes as the previous release" is a
 * diff of two small files. A case is a registered generator (dg_generator_get,
 * run through its recipe) x a grid size x a parameter set: the defaults, "up"
 * (every integer one above its default, or below at its maximum; booleans
 * flipped; enums the next choice) and "down" (one below, or above at the
 * minimum; booleans flipped; enums the previous choice). Generator graph runs
 * once per level graph of examples/graphs/, the prefab generators with the set
 * they are shown with. A size or set a generator refuses is a case too: its
 * line counts the statuses. Then dg_roles_populate (the built-in roles and
 * examples/spawns/dungeon.txt at depth 5) on a few generators' 80x50 maps.
 *
 * The digest (64-bit FNV-1a) covers the tiles and the whole dg_result: rooms,
 * corridors, doors, markers (every field, names and types as strings), start,
 * exit, their rooms, every metric, labels and corridor edges; for the content
 * cases also the role report and the population stats. Only the library's
 * public API is used, so this file builds against an older release's sources
 * to make its stored file (tests/series/0.13.txt from 0.13.0).
 *
 * usage: series [REPO]   REPO: where examples/ is (default: the working directory) */
#include "dungeon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS 32
#define STATUSES 12 /* DG_OK, DG_E_INVALID (-1) .. DG_E_LIMIT (-10), any other */

static const char *repo = ".";

/* ---- the digest ------------------------------------------------------------------ */
typedef struct digest {
    uint64_t h;
} digest;

static void mix_byte(digest *d, uint8_t b)
{
    d->h ^= b;
    d->h *= 0x100000001B3ULL;
}

/* Integers byte by byte, low first: the same digest on every platform. */
static void mix(digest *d, int64_t v)
{
    uint64_t u = (uint64_t)v;
    for (int i = 0; i < 8; i++)
        mix_byte(d, (uint8_t)(u >> (8 * i)));
}

/* A string up to its NUL (at most max bytes), then its length. */
static void mix_str(digest *d, const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        mix_byte(d, (uint8_t)s[n++]);
    mix(d, (int64_t)n);
}

static void mix_point(digest *d, dg_point p)
{
    mix(d, p.x);
    mix(d, p.y);
}

static void mix_ref(digest *d, dg_ref r)
{
    mix(d, r.kind);
    mix(d, r.index);
}

static void mix_metrics(digest *d, const dg_metrics *m)
{
    const int32_t v[] = {m->cells, m->floor_cells, m->floor_permille, m->rooms, m->corridors,
                         m->doors, m->dead_ends, m->loops, m->regions, m->attempts, m->failures,
                         m->stopped_early, m->requested, m->placed, m->overlaps, m->chokepoints,
                         m->diameter};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mix(d, v[i]);
}

static void mix_result(digest *d, const dg_result *r)
{
    mix(d, r->room_count);
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_room *m = &r->rooms[i];
        const int32_t v[] = {m->rect.x, m->rect.y,  m->rect.w, m->rect.h, m->kind,
                             m->prefab, m->orientation, m->parent, m->cells, m->shape};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            mix(d, v[k]);
    }
    mix(d, r->corridor_count);
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        mix_point(d, c->start);
        mix_point(d, c->bend);
        mix_point(d, c->end);
        mix(d, c->length);
        mix_ref(d, c->from);
        mix_ref(d, c->to);
    }
    mix(d, r->door_count);
    for (int32_t i = 0; i < r->door_count; i++)
    {
        mix_point(d, r->doors[i].pos);
        mix_ref(d, r->doors[i].a);
        mix_ref(d, r->doors[i].b);
    }
    mix(d, r->marker_count);
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        mix_point(d, m->pos);
        mix(d, m->kind);
        mix(d, m->room);
        mix_str(d, m->name, DG_NAME_MAX);
        mix(d, m->number);
        mix(d, m->size);
        mix(d, m->cost);
        mix_str(d, m->type, DG_NAME_MAX);
    }
    mix_point(d, r->start);
    mix_point(d, r->exit);
    mix(d, r->start_room);
    mix(d, r->exit_room);
    mix_metrics(d, &r->metrics);
    mix(d, r->label_count);
    for (int32_t i = 0; i < r->label_count; i++)
    {
        mix_str(d, r->labels[i].role, DG_NAME_MAX);
        mix_str(d, r->labels[i].name, DG_NAME_MAX);
        mix(d, r->labels[i].node);
    }
    mix(d, r->corridor_edge_count);
    for (int32_t i = 0; i < r->corridor_edge_count; i++)
        mix(d, r->corridor_edges[i]);
}

/* ---- a case: 32 seeds into one line ------------------------------------------------- */
typedef struct tally {
    digest d;
    int32_t count[STATUSES]; /* by -status */
} tally;

static void tally_init(tally *t)
{
    memset(t, 0, sizeof *t);
    t->d.h = 0xCBF29CE484222325ULL;
}

static void tally_add(tally *t, dg_status st, const dg_grid *grid, const dg_result *r)
{
    int k = st <= 0 && -st < STATUSES - 1 ? -st : STATUSES - 1;
    t->count[k]++;
    mix(&t->d, st);
    if (st == DG_OK)
    {
        mix(&t->d, (int64_t)dg_grid_hash(grid));
        mix_result(&t->d, r);
    }
}

/* "NAME SIZE SET DIGEST 30 ok, 2 E_NOSPACE": the statuses by their enum names, so
 * a reworded dg_status_str moves no line. */
static void tally_print(const tally *t, const char *name, int32_t w, int32_t h, const char *set)
{
    static const char *const names[STATUSES] = {
        "ok",        "E_INVALID", "E_NULL",  "E_NOMEM",  "E_TOO_SMALL", "E_TOO_LARGE",
        "E_NOSPACE", "E_PARSE",   "E_NOPATH", "E_BUFFER", "E_LIMIT",     "other status"};
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    printf("%-22s %-8s %-7s %016llx ", name, size, set, (unsigned long long)t->d.h);
    const char *sep = "";
    for (int k = 0; k < STATUSES; k++)
        if (t->count[k])
        {
            printf("%s %d %s", sep, (int)t->count[k], names[k]);
            sep = ",";
        }
    printf("\n");
}

/* ---- inputs --------------------------------------------------------------------------- */
static const char *path_of(char *out, size_t size, const char *file)
{
    snprintf(out, size, "%s/%s", repo, file);
    return out;
}

/* The set a prefab generator is shown with (as `bench peers` and docs/quality.md). */
static const char *set_file(const char *gen)
{
    static const char *const files[][2] = {
        {"prefab-full", "examples/prefabs/shaft.txt"},
        {"prefab-jigsaw", "examples/prefabs/forest.txt"},
        {"prefab-islands", "examples/prefabs/factory.txt"},
        {"prefab-mixed", "examples/prefabs/vaults.txt"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i][0], gen) == 0)
            return files[i][1];
    return NULL;
}

/* Generator graph's inputs, each on a grid its rooms fit (big.txt: 120x80, as
 * `bench graph`) and on 200x200: a level graph that does not fit is refused
 * only after the layout's whole work bound, too slow to repeat here. */
static const struct {
    const char *name;
    int32_t w, h;
} graph_files[] = {{"big", 120, 80},  {"hub", 80, 50},       {"linear", 80, 50},
                   {"loop_lock", 80, 50}, {"templates", 80, 50}, {"zelda", 80, 50}};
#define GRAPH_FILES (sizeof graph_files / sizeof graph_files[0])

/* ---- parameter sets ------------------------------------------------------------------- */
enum { SET_DEFAULT, SET_UP, SET_DOWN, SETS };
static const char *const set_names[SETS] = {"default", "up", "down"};

/* Moves every parameter of the recipe one step from its default (see the top),
 * but for integers whose default is an end of their range: those are mostly
 * "none given" or "by area", whose neighbour means something else. */
static void shift_params(dg_recipe *r, int set)
{
    int32_t n = 0;
    const dg_param_desc *t = dg_generator_params(r->generator, &n);
    for (int32_t i = 0; set != SET_DEFAULT && t && i < n && i < r->param_count; i++)
    {
        int32_t v = t[i].def;
        if (t[i].type == DG_PARAM_BOOL)
            v = !v;
        else if (t[i].type == DG_PARAM_ENUM)
            v = set == SET_UP ? (v < t[i].max ? v + 1 : t[i].min) : (v > t[i].min ? v - 1 : t[i].max);
        else if (v > t[i].min && v < t[i].max)
            v += set == SET_UP ? 1 : -1;
        r->values[i] = v; /* within the table's range; cross-checks are the generator's */
    }
    /* where one step is refused (world's room_size is odd, prefab-mixed's mode one
     * bit; the forest set is too small for a unique jigsaw) or moves nothing
     * (prefab-full's cover, graph's "the graph's own" distance); NULL: as shifted */
    static const char *const fixes[][4] = {
        {"world", "room_size", "11", "7"},
        {"prefab-mixed", "mode", "8", "2"},
        {"prefab-jigsaw", "unique", "0", "0"},
        {"prefab-full", "cover", "0", "0"},
        {"prefab-full", "orientations", NULL, "1"},
        {"graph", "room_distance", "3", "0"},
    };
    for (size_t i = 0; set != SET_DEFAULT && i < sizeof fixes / sizeof fixes[0]; i++)
    {
        const char *value = fixes[i][set == SET_UP ? 2 : 3];
        if (value && strcmp(r->generator, fixes[i][0]) == 0)
            dg_recipe_set(r, fixes[i][1], value, NULL);
    }
}

/* ---- the cases ------------------------------------------------------------------------- */
static const int32_t sizes[][2] = {{5, 5}, {13, 9}, {80, 25}, {80, 50}, {200, 200}};
#define SIZES (sizeof sizes / sizeof sizes[0])

static int generator_case(const char *label, const char *gen, int32_t w, int32_t h, int set,
                          const dg_prefab_set *prefabs, const dg_site *site)
{
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    if (!cells)
        return 1;
    tally t;
    tally_init(&t);
    for (uint64_t seed = 1; seed <= SEEDS; seed++)
    {
        dg_recipe r;
        dg_grid grid;
        dg_result res;
        memset(cells, 0, (size_t)w * (size_t)h);
        dg_grid_init(&grid, cells, w, h, 0);
        dg_result_init(&res, NULL);
        dg_status st = dg_recipe_init(&r, gen, seed, w, h);
        if (st == DG_OK)
        {
            shift_params(&r, set);
            st = dg_recipe_generate_site(&r, site, &grid, prefabs, &res, NULL, NULL);
        }
        tally_add(&t, st, &grid, &res);
        dg_result_free(&res);
    }
    tally_print(&t, label, w, h, set_names[set]);
    free(cells);
    return 0;
}

static int generator_cases(const dg_generator_info *info)
{
    int failed = 0;
    char path[1024];
    if (info->needs_graph)
    {
        for (size_t f = 0; f < GRAPH_FILES; f++)
        {
            char file[64], label[64];
            snprintf(file, sizeof file, "examples/graphs/%s.txt", graph_files[f].name);
            snprintf(label, sizeof label, "%s:%s", info->name, graph_files[f].name);
            dg_graph g;
            dg_site site;
            dg_graph_init(&g);
            dg_site_init(&site);
            if (dg_graph_load(path_of(path, sizeof path, file), NULL, &g, NULL) != DG_OK)
            {
                fprintf(stderr, "series: cannot load %s\n", path);
                failed++;
                continue;
            }
            site.graph = &g;
            for (int set = 0; set < SETS; set++)
            {
                failed += generator_case(label, info->name, graph_files[f].w, graph_files[f].h,
                                         set, NULL, &site);
                failed += generator_case(label, info->name, 200, 200, set, NULL, &site);
            }
            dg_graph_free(&g);
        }
        return failed;
    }
    dg_prefab_set *prefabs = NULL;
    const char *file = set_file(info->name);
    if (file && dg_prefab_load(path_of(path, sizeof path, file), NULL, NULL, NULL, &prefabs,
                               NULL) != DG_OK)
    {
        fprintf(stderr, "series: cannot load %s\n", path);
        return 1;
    }
    for (size_t s = 0; s < SIZES; s++)
        for (int set = 0; set < SETS; set++)
            failed += generator_case(info->name, info->name, sizes[s][0], sizes[s][1], set,
                                     prefabs, NULL);
    dg_prefab_set_free(prefabs);
    return failed;
}

/* ---- roles and population --------------------------------------------------------------- */
static void mix_content(digest *d, const dg_role_report *rep, const dg_populate_stats *st)
{
    mix(d, rep->rules);
    for (int32_t i = 0; i < rep->rules && i < DG_ROLES_MAX; i++)
    {
        mix(d, rep->placed[i]);
        mix(d, rep->kept[i]);
        mix(d, rep->qualified[i]);
        mix(d, rep->shortfall[i]);
    }
    mix(d, rep->short_count);
    mix(d, rep->rooms);
    mix(d, rep->reachable);
    const int32_t v[] = {st->spawns, st->groups, st->budget, st->spent, st->rooms_populated,
                         st->skipped_start, st->skipped_no_cell, st->skipped_no_entry,
                         st->boss_missing};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        mix(d, v[i]);
}

static int content_case(const char *gen, const dg_role_rule *rules, int32_t count,
                        const dg_spawn_table *spawns, const dg_site *site)
{
    enum { W = 80, H = 50 };
    static uint8_t cells[W * H];
    dg_populate_params pp;
    dg_populate_defaults(&pp);
    pp.depth = 5;
    tally t;
    tally_init(&t);
    for (uint64_t seed = 1; seed <= SEEDS; seed++)
    {
        dg_recipe r;
        dg_grid grid;
        dg_result res;
        dg_role_report rep;
        dg_populate_stats stats;
        memset(cells, 0, sizeof cells);
        memset(&rep, 0, sizeof rep);
        memset(&stats, 0, sizeof stats);
        dg_grid_init(&grid, cells, W, H, 0);
        dg_result_init(&res, NULL);
        dg_status st = dg_recipe_init(&r, gen, seed, W, H);
        if (st == DG_OK)
            st = dg_recipe_generate_site(&r, site, &grid, NULL, &res, NULL, NULL);
        if (st == DG_OK)
            st = dg_roles_populate(&grid, rules, count, spawns, &pp, seed, &res, &rep, &stats,
                                   NULL, NULL);
        tally_add(&t, st, &grid, &res);
        if (st == DG_OK)
            mix_content(&t.d, &rep, &stats);
        dg_result_free(&res);
    }
    char label[64];
    snprintf(label, sizeof label, "populate:%s", site && site->graph ? "graph:zelda" : gen);
    tally_print(&t, label, W, H, "depth5");
    return 0;
}

static int content_cases(void)
{
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    dg_spawn_table *spawns = NULL;
    dg_graph g;
    dg_site site;
    char path[1024];
    dg_graph_init(&g);
    dg_site_init(&site);
    if (dg_roles_builtin(rules, DG_ROLES_MAX, &count) != DG_OK ||
        dg_spawn_load(path_of(path, sizeof path, "examples/spawns/dungeon.txt"), NULL, NULL, NULL,
                      &spawns, NULL) != DG_OK ||
        dg_graph_load(path_of(path, sizeof path, "examples/graphs/zelda.txt"), NULL, &g, NULL) !=
            DG_OK)
    {
        fprintf(stderr, "series: cannot load the built-in roles, %s\n", path);
        dg_spawn_table_free(spawns);
        return 1;
    }
    static const char *const gens[] = {"attach", "bsp", "cave", "chain", "maze", "scatter", "walk"};
    int failed = 0;
    for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
        failed += content_case(gens[i], rules, count, spawns, NULL);
    site.graph = &g;
    failed += content_case("graph", rules, count, spawns, &site);
    dg_graph_free(&g);
    dg_spawn_table_free(spawns);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        repo = argv[1];
    int failed = 0;
    for (int32_t i = 0; i < dg_generator_count(); i++)
    {
        dg_generator_info info;
        if (dg_generator_get(i, &info) == DG_OK)
            failed += generator_cases(&info);
    }
    failed += content_cases();
    return failed ? 1 : 0;
}
