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

/* ---- the contract lines (docs/quality.md, "The contract, extended") -------
 * One table for `dungeon --survey` (PASS/FAIL lines) and tests/test_quality.c,
 * so both judge a generator by the same thresholds. A tool-free part: a
 * file that defines SURVEY_CONTRACT_ONLY first gets only this. */
enum {
    SURVEY_MEDIAN_MIN, /* median >= threshold */
    SURVEY_MEDIAN_MAX, /* median <= threshold */
    SURVEY_P95_MAX,    /* 95th percentile <= threshold */
    SURVEY_MAX_MAX,    /* every map <= threshold */
    SURVEY_P5_MIN,     /* in 95% of the maps with a value (>= 0), >= threshold */
    SURVEY_MEAN_ASKED  /* mean per mille of the locks asked >= threshold */
};

typedef struct survey_line {
    const char *name;       /* short name of the contract line */
    const char *figure;     /* the dg_quality field it judges */
    size_t offset;          /* of that int32_t field */
    int rule;               /* SURVEY_* */
    int64_t threshold;
    const char *only;       /* generators it applies to, " a b " (NULL: all) */
    const char *except;     /* generators it does not apply to (NULL: none) */
    int with_locks;         /* 1: only when the recipe places locks */
} survey_line;

/* The lines in the table's order, for tables that pick some (the tests). */
enum {
    SURVEY_LINE_LOOPS, SURVEY_LINE_DEAD_END_ROOMS, SURVEY_LINE_SPACE_P95, SURVEY_LINE_SPACE_WORST,
    SURVEY_LINE_STRAIGHT, SURVEY_LINE_PARALLEL, SURVEY_LINE_CORRIDOR_PER_ROOM,
    SURVEY_LINE_DEAD_END_PASSAGES, SURVEY_LINE_SHAPES, SURVEY_LINE_START_EXIT,
    SURVEY_LINE_LOCKS_PLACED, SURVEY_LINE_KEY_FROM_START, SURVEY_LINE_KEY_FROM_LOCK,
    SURVEY_LINE_COUNT
};

#define SURVEY_ROOMY " attach chain bsp scatter world prefab-mixed "
#define SURVEY_CORRIDORS " attach chain bsp scatter world prefab-mixed maze "
#define SL(n, f, r, t, only, except, locks) {n, #f, offsetof(dg_quality, f), r, t, only, except, locks}
static const survey_line survey_lines[] = {
    SL("loops", loops_per_room_permille, SURVEY_MEDIAN_MIN, 150, SURVEY_ROOMY, NULL, 0),
    SL("dead-end rooms", single_entrance_permille, SURVEY_MEDIAN_MAX, 350, SURVEY_ROOMY, NULL, 0),
    /* graph: a level graph takes the rooms it names and leaves the rest of the grid rock */
    SL("space p95", empty_square_permille, SURVEY_P95_MAX, 80, NULL, " prefab-full graph ", 0),
    SL("space worst", empty_square_permille, SURVEY_MAX_MAX, 120, NULL, " prefab-full graph ", 0),
    SL("straight corridors", straight_max, SURVEY_MAX_MAX, 40, NULL, NULL, 0),
    SL("parallel", parallel_permille, SURVEY_MEDIAN_MAX, 150, NULL, NULL, 0),
    SL("corridor per room", corridor_per_room_permille, SURVEY_MEDIAN_MAX, 8000, SURVEY_CORRIDORS, NULL, 0),
    SL("dead-end passages", dead_end_max, SURVEY_P95_MAX, 12, NULL, NULL, 0),
    SL("shapes", shaped_room_permille, SURVEY_MEDIAN_MIN, 250, " attach scatter ", NULL, 0),
    /* graph: a level graph's start and exit are the rooms its roles name (without
     * an exit role the farthest room is the exit, as everywhere) */
    SL("start-exit", route_diameter_permille, SURVEY_MEDIAN_MIN, 600, NULL, " graph ", 0),
    SL("locks placed", locks_placed, SURVEY_MEAN_ASKED, 900, NULL, NULL, 1),
    SL("key from start", key_start_min, SURVEY_P5_MIN, 8, NULL, NULL, 1),
    SL("key from lock", key_lock_min, SURVEY_P5_MIN, 8, NULL, NULL, 1),
};
#undef SL
#define SURVEY_LINES (sizeof survey_lines / sizeof survey_lines[0])
_Static_assert(SURVEY_LINES == SURVEY_LINE_COUNT, "survey_lines and SURVEY_LINE_* differ");

static int survey_listed(const char *list, const char *gen)
{
    size_t n = strlen(gen);
    for (const char *p = list && n ? strstr(list, gen) : NULL; p; p = strstr(p + 1, gen))
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

/* 1 if line l judges generator gen (locks: locks the recipe asks for). */
static int survey_applies(const survey_line *l, const char *gen, int32_t locks)
{
    if (l->with_locks && locks <= 0)
        return 0;
    return (!l->only || survey_listed(l->only, gen)) && !survey_listed(l->except, gen);
}

static const char *survey_rule_text(int rule)
{
    static const char *const text[] = {"median >=", "median <=", "p95 <=", "max <=",
                                       "p5 >=", "mean per mille of asked >="};
    return text[rule];
}

static int survey_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Judges line l on the sorted values[0..n) of its figure (n > 0); *measured
 * gets the statistic the rule compares. Returns 1 if the line holds. */
static int survey_judge(const survey_line *l, const int64_t *sorted, int64_t n, int32_t locks,
                        int64_t *measured)
{
    int64_t t = l->threshold, lo = 0, sum = 0;
    switch (l->rule)
    {
    case SURVEY_MEDIAN_MIN:
        return (*measured = sorted[(n - 1) / 2]) >= t;
    case SURVEY_MEDIAN_MAX:
        return (*measured = sorted[(n - 1) / 2]) <= t;
    case SURVEY_P95_MAX:
        return (*measured = sorted[(n - 1) * 95 / 100]) <= t;
    case SURVEY_MAX_MAX:
        return (*measured = sorted[n - 1]) <= t;
    case SURVEY_P5_MIN:
        while (lo < n && sorted[lo] < 0)
            lo++; /* maps without the thing measured (no key) do not count */
        *measured = lo < n ? sorted[lo + (n - 1 - lo) * 5 / 100] : -1;
        return lo == n || *measured >= t;
    default:
        for (int64_t i = 0; i < n; i++)
            sum += sorted[i];
        *measured = locks > 0 ? sum * 1000 / ((int64_t)locks * n) : 0;
        return *measured >= t;
    }
}

#ifndef SURVEY_CONTRACT_ONLY

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
    SF(void_open, "passable cells beside void (not walled in)"),
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
    SF(loops_per_room_permille, "loops per room, per mille"),
    SF(single_entrance_permille, "rooms with one entrance, per mille of rooms"),
    SF(shaped_room_permille, "rooms whose rect holds a closed cell, per mille"),
    SF(empty_square_permille, "largest square of rock, per mille of the map"),
    SF(straight_max, "longest straight one-wide run outside rooms"),
    SF(parallel_permille, "one-wide cells beside another passage, per mille"),
    SF(corridor_per_room_permille, "cells outside rooms per room, per mille"),
    SF(dead_end_max, "longest dead-end passage, cells"),
    SF(diameter, "walking diameter (lower bound), steps"),
    SF(route_diameter_permille, "route per mille of the diameter"),
    SF(locks_placed, "locks placed (lock markers)"),
    SF(key_start_min, "fewest steps from the start to a key (-1: none)"),
    SF(key_lock_min, "fewest steps from a key to its lock (-1: none)"),
    {"time_us", SIZE_MAX, "generation time per map, microseconds"},
};
#undef SF
#define SURVEY_FIGURES (sizeof survey_figures / sizeof survey_figures[0])

typedef struct survey_stats {
    int64_t min, median, p95, max;
    double mean;
} survey_stats;

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
                            const dg_graph *graph, uint64_t seed, dg_quality *q, int64_t *ns,
                            dg_diag *diag)
{
    dg_site site;
    dg_site_init(&site);
    site.graph = graph;
    dg_result result;
    dg_result_init(&result, NULL);
    rc->seed = seed;
    int64_t t0 = survey_now_ns();
    dg_status st = dg_recipe_generate_site(rc, &site, grid, prefabs, &result, NULL, diag);
    *ns = survey_now_ns() - t0;
    if (st == DG_OK)
        st = dg_survey_map(grid, &result, q, NULL, diag);
    dg_result_free(&result);
    return st;
}

/* One contract line's verdict: -1 n/a, 0 FAIL, 1 PASS. */
typedef struct survey_verdict {
    int result;
    int64_t measured;
} survey_verdict;

static const char *survey_verdict_text(int result)
{
    return result < 0 ? "n/a" : result ? "PASS" : "FAIL";
}

/* Judges every contract line on the sorted figures (values, ok maps each). */
static void survey_verdicts(const dg_recipe *rc, const int64_t *values, int64_t n, int64_t ok,
                            survey_verdict *v)
{
    int32_t locks = 0;
    dg_recipe_get(rc, "locks", &locks);
    for (size_t i = 0; i < SURVEY_LINES; i++)
    {
        const survey_line *l = &survey_lines[i];
        size_t k = 0;
        while (survey_figures[k].offset != l->offset)
            k++;
        v[i].measured = 0;
        v[i].result = survey_applies(l, rc->generator, locks)
                          ? survey_judge(l, values + k * (size_t)n, ok, locks, &v[i].measured)
                          : -1;
    }
}

static void survey_print_verdicts(FILE *f, const survey_verdict *v)
{
    fprintf(f, "contract:\n");
    for (size_t i = 0; i < SURVEY_LINES; i++)
    {
        const survey_line *l = &survey_lines[i];
        if (v[i].result < 0)
            fprintf(f, "%-4s %-20s\n", "n/a", l->name);
        else
            fprintf(f, "%-4s %-20s %s %s %" PRId64 ": %" PRId64 "\n", survey_verdict_text(v[i].result),
                    l->name, l->figure, survey_rule_text(l->rule), l->threshold,
                    v[i].measured);
    }
}

static void survey_print_table(FILE *f, const dg_recipe *rc, int64_t n, int64_t failed,
                               const survey_stats *s)
{
    fprintf(f, "survey: %s %dx%d, seeds %" PRIu64 "..%" PRIu64 ", %" PRId64 " maps, %" PRId64
               " failed\n", rc->generator, (int)rc->width, (int)rc->height, rc->seed,
            rc->seed + (uint64_t)(n + failed - 1), n, failed);
    fprintf(f, "%-26s %10s %10s %10s %10s %12s\n", "figure", "min", "median", "p95", "max", "mean");
    for (size_t k = 0; k < SURVEY_FIGURES; k++)
        fprintf(f, "%-26s %10" PRId64 " %10" PRId64 " %10" PRId64 " %10" PRId64 " %12.2f\n",
                survey_figures[k].name, s[k].min, s[k].median, s[k].p95, s[k].max, s[k].mean);
}

static void survey_print_json(FILE *f, const dg_recipe *rc, int64_t n, int64_t failed,
                              const survey_stats *s, const survey_verdict *v)
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
    fprintf(f, "  },\n  \"contract\": [\n");
    for (size_t i = 0; i < SURVEY_LINES; i++)
        fprintf(f, "    {\"line\": \"%s\", \"figure\": \"%s\", \"rule\": \"%s\", \"threshold\": %" PRId64
                   ", \"measured\": %" PRId64 ", \"result\": \"%s\"}%s\n",
                survey_lines[i].name, survey_lines[i].figure,
                survey_rule_text(survey_lines[i].rule), survey_lines[i].threshold, v[i].measured,
                survey_verdict_text(v[i].result), i + 1 < SURVEY_LINES ? "," : "");
    fprintf(f, "  ]\n}\n");
}

/* Runs the survey of rc (its seed first) over n seeds and prints to f; graph:
 * the level graph of generator 'graph' (else NULL). Returns 0, or 1 if every
 * map failed (the first failure is printed). */
static int survey_run(const dg_recipe *recipe, const dg_prefab_set *prefabs, const dg_graph *graph,
                      int64_t n, int json, FILE *f)
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
        dg_status st = survey_one(&rc, &grid, prefabs, graph, recipe->seed + (uint64_t)i, &q, &ns, &diag);
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
        survey_verdict v[SURVEY_LINES];
        survey_verdicts(&rc, values, n, ok, v);
        rc.seed = recipe->seed;
        if (json)
            survey_print_json(f, &rc, ok, failed, s, v);
        else
        {
            survey_print_table(f, &rc, ok, failed, s);
            survey_print_verdicts(f, v);
        }
    }
    free(buf);
    free(values);
    return ok > 0 ? 0 : 1;
}

#endif /* SURVEY_CONTRACT_ONLY */
#endif
