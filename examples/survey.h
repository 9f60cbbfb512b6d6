/* dungeon --survey N: generates N maps from consecutive seeds and prints each
 * quality figure's distribution (min, median, p95, max, mean) as a table or
 * JSON. The figures are the library's dg_survey_map, so the tests judge maps
 * exactly as this prints them; only the time per map is measured here.
 * Included once by dungeon.c. */
#ifndef DUNGEON_SURVEY_H
#define DUNGEON_SURVEY_H

#include <dungeon.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SURVEY_MAX 1000000

/* One row of the table: a name and where the figure lives in dg_quality. */
typedef struct survey_figure {
    const char *name;
    size_t offset; /* of an int32_t in dg_quality; SIZE_MAX: time per map */
    const char *help;
} survey_figure;

#define SF(f, h) {#f, offsetof(dg_quality, f), h}
static const survey_figure survey_figures[] = {
    SF(floor_permille, "passable cells, per mille"),
    SF(rooms, "rooms in the result"),
    SF(corridors, "corridors in the result"),
    SF(doors, "door tiles"),
    SF(dead_ends, "passable cells with one passable neighbour"),
    SF(loops, "independent cycles around walls"),
    SF(regions, "4-connected passable regions"),
    SF(border_open, "passable cells on the outer ring"),
    SF(unreachable, "passable cells the start cannot reach"),
    SF(route, "walking steps from start to exit"),
    SF(route_permille, "route per mille of the map diagonal"),
    SF(start_in_room, "1 if the start is in a room"),
    SF(exit_in_room, "1 if the exit is in a room"),
    SF(start_is_exit, "1 if start and exit are one cell"),
    SF(exit_rank_permille, "reachable cells farther than the exit, per mille"),
    SF(doorless_joins, "corridor cells touching a room's floor with no door"),
    SF(dead_doors, "doors leading nowhere"),
    SF(parallel_cells, "corridor cells beside another behind 1-2 walls, 3+ in a row"),
    {"time_us", SIZE_MAX, "generation time per map, microseconds"},
};
#undef SF
#define SURVEY_FIGURES (sizeof survey_figures / sizeof survey_figures[0])

typedef struct survey_stats {
    int64_t min, median, p95, max;
    double mean;
} survey_stats;

static int survey_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts values[0..n) and summarises them (n > 0). */
static survey_stats survey_summarise(int64_t *values, int64_t n)
{
    survey_stats s;
    double sum = 0;
    qsort(values, (size_t)n, sizeof *values, survey_cmp);
    for (int64_t i = 0; i < n; i++)
        sum += (double)values[i];
    s.min = values[0];
    s.median = values[(n - 1) / 2];
    s.p95 = values[(n - 1) * 95 / 100];
    s.max = values[n - 1];
    s.mean = sum / (double)n;
    return s;
}

static int64_t survey_now_ns(void)
{
#ifdef TIME_UTC
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#else /* mingw-w64 with msvcrt declares no timespec_get */
    return (int64_t)clock() * (1000000000 / CLOCKS_PER_SEC);
#endif
}

/* Generates and measures map i; 0 on success, else the status (first error kept in *diag). */
static dg_status survey_one(dg_recipe *rc, dg_grid *grid, const dg_prefab_set *prefabs,
                            uint64_t seed, dg_quality *q, int64_t *ns, dg_diag *diag)
{
    dg_result result;
    dg_result_init(&result, NULL);
    rc->seed = seed;
    int64_t t0 = survey_now_ns();
    dg_status st = dg_recipe_generate(rc, grid, prefabs, &result, NULL, diag);
    *ns = survey_now_ns() - t0;
    if (st == DG_OK)
        st = dg_survey_map(grid, &result, q, NULL, diag);
    dg_result_free(&result);
    return st;
}

static void survey_print_table(FILE *f, const dg_recipe *rc, int64_t n, int64_t failed,
                               const survey_stats *s)
{
    fprintf(f, "survey: %s %dx%d, seeds %" PRIu64 "..%" PRIu64 ", %" PRId64 " maps, %" PRId64
               " failed\n", rc->generator, (int)rc->width, (int)rc->height, rc->seed,
            rc->seed + (uint64_t)(n + failed - 1), n, failed);
    fprintf(f, "%-20s %10s %10s %10s %10s %12s\n", "figure", "min", "median", "p95", "max", "mean");
    for (size_t k = 0; k < SURVEY_FIGURES; k++)
        fprintf(f, "%-20s %10" PRId64 " %10" PRId64 " %10" PRId64 " %10" PRId64 " %12.2f\n",
                survey_figures[k].name, s[k].min, s[k].median, s[k].p95, s[k].max, s[k].mean);
}

static void survey_print_json(FILE *f, const dg_recipe *rc, int64_t n, int64_t failed,
                              const survey_stats *s)
{
    char line[4096];
    if (dg_recipe_print(rc, line, sizeof line, NULL) != DG_OK)
        line[0] = '\0';
    fprintf(f, "{\n  \"generator\": \"%s\",\n  \"width\": %d,\n  \"height\": %d,\n"
               "  \"first_seed\": %" PRIu64 ",\n  \"maps\": %" PRId64 ",\n  \"failed\": %" PRId64
               ",\n  \"recipe\": \"%s\",\n  \"figures\": {\n",
            rc->generator, (int)rc->width, (int)rc->height, rc->seed, n, failed, line);
    for (size_t k = 0; k < SURVEY_FIGURES; k++)
        fprintf(f, "    \"%s\": {\"min\": %" PRId64 ", \"median\": %" PRId64 ", \"p95\": %" PRId64
                   ", \"max\": %" PRId64 ", \"mean\": %.3f}%s\n",
                survey_figures[k].name, s[k].min, s[k].median, s[k].p95, s[k].max, s[k].mean,
                k + 1 < SURVEY_FIGURES ? "," : "");
    fprintf(f, "  }\n}\n");
}

/* Runs the survey of rc (its seed first) over n seeds and prints to f.
 * Returns 0, or 1 if every map failed (the first failure is printed). */
static int survey_run(const dg_recipe *recipe, const dg_prefab_set *prefabs, int64_t n, int json,
                      FILE *f)
{
    dg_recipe rc = *recipe;
    size_t cells = (size_t)rc.width * (size_t)rc.height;
    uint8_t *buf = calloc(cells, 1);
    int64_t *values = malloc(sizeof *values * SURVEY_FIGURES * (size_t)n);
    dg_grid grid;
    if (!buf || !values || dg_grid_init(&grid, buf, rc.width, rc.height, 0) != DG_OK)
    {
        fprintf(stderr, "dungeon: out of memory for the survey\n");
        free(buf);
        free(values);
        return 1;
    }
    int64_t ok = 0, failed = 0;
    dg_diag first = {0, 0, 0, ""};
    for (int64_t i = 0; i < n; i++)
    {
        dg_quality q;
        dg_diag diag = {0, 0, 0, ""};
        int64_t ns;
        dg_status st = survey_one(&rc, &grid, prefabs, recipe->seed + (uint64_t)i, &q, &ns, &diag);
        if (st != DG_OK)
        {
            if (failed++ == 0)
                first = diag, first.status = st;
            continue;
        }
        for (size_t k = 0; k < SURVEY_FIGURES; k++)
        {
            int32_t v = 0;
            if (survey_figures[k].offset != SIZE_MAX)
                memcpy(&v, (const char *)&q + survey_figures[k].offset, sizeof v);
            values[k * (size_t)n + (size_t)ok] = survey_figures[k].offset == SIZE_MAX ? ns / 1000 : v;
        }
        ok++;
    }
    if (failed)
        fprintf(stderr, "dungeon: %s: %" PRId64 " of %" PRId64 " maps failed, the first with %s: %s\n",
                rc.generator, failed, n, dg_status_str(first.status), first.message);
    if (ok > 0)
    {
        survey_stats s[SURVEY_FIGURES];
        for (size_t k = 0; k < SURVEY_FIGURES; k++)
            s[k] = survey_summarise(values + k * (size_t)n, ok);
        rc.seed = recipe->seed;
        if (json)
            survey_print_json(f, &rc, ok, failed, s);
        else
            survey_print_table(f, &rc, ok, failed, s);
    }
    free(buf);
    free(values);
    return ok > 0 ? 0 : 1;
}

#endif
