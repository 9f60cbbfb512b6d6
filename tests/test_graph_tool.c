/* Generator 'graph' through the registry and recipes: the recipe records the
 * graph's identity and replays to the same map with that graph; without a
 * graph, with another one or with reserved cells it is refused by name and
 * the grid stays as it was. (The tool's side: tests/tool.sh.) */
#include "graph_families.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define ZELDA "examples/graphs/zelda.txt"
#define W 80
#define H 50

static int load(const char *path, dg_graph *g)
{
    dg_graph_init(g);
    dg_diag diag;
    dg_status st = dg_graph_load(path, NULL, g, &diag);
    CHECKF(st == DG_OK, "%s: %s", path, diag.message);
    return st == DG_OK;
}

static dg_status run(const dg_recipe *r, const dg_graph *graph, const uint8_t *reserved,
                     dg_grid *grid, dg_result *res, dg_diag *diag)
{
    dg_site site;
    dg_site_init(&site);
    site.graph = graph;
    site.reserved = reserved;
    return dg_recipe_generate_site(r, &site, grid, NULL, res, NULL, diag);
}

TEST(recipe_graph_round_trip_with_identity)
{
    dg_graph graph;
    if (!load(ZELDA, &graph))
        return;
    static uint8_t a[W * H], b[W * H];
    for (uint64_t seed = 1; seed <= 5; seed++)
    {
        dg_recipe r, back;
        CHECK(dg_recipe_init(&r, "graph", seed, W, H) == DG_OK);
        CHECK(dg_recipe_set_input(&r, DG_RECIPE_GRAPH, dg_graph_hash(&graph), ZELDA, NULL) == DG_OK);
        char line[4096];
        CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
        CHECK(strstr(line, "graph=" ZELDA) && strstr(line, "graph_hash=0x"));
        CHECK(dg_recipe_parse(line, strlen(line), &back, NULL) == DG_OK);
        CHECK_EQ_U64(back.inputs[DG_RECIPE_GRAPH].hash, dg_graph_hash(&graph));
        CHECK(strcmp(back.inputs[DG_RECIPE_GRAPH].file, ZELDA) == 0);
        dg_grid ga, gb;
        dg_grid_init(&ga, a, W, H, 0);
        dg_grid_init(&gb, b, W, H, 0);
        dg_result ra, rb;
        dg_result_init(&ra, NULL);
        dg_result_init(&rb, NULL);
        dg_diag diag;
        dg_status st = run(&r, &graph, NULL, &ga, &ra, &diag);
        CHECKF(st == DG_OK, "seed %d: %s", (int)seed, diag.message);
        memset(b, 0xEE, sizeof b);
        CHECK(run(&back, &graph, NULL, &gb, &rb, NULL) == DG_OK);
        CHECK_EQ_U64(dg_grid_hash(&gb), dg_grid_hash(&ga));
        CHECK(ra.room_count == graph.node_count && rb.room_count == ra.room_count);
        CHECK(ra.label_count == graph.node_count);
        dg_result_free(&ra);
        dg_result_free(&rb);
    }
    dg_graph_free(&graph);
}

/* Each refusal: its status, a message that says why, the grid as it was. */
static void refused(const dg_recipe *r, const dg_graph *graph, const uint8_t *reserved,
                    int direct, dg_status want, const char *words)
{
    static uint8_t cells[W * H];
    memset(cells, 0xEE, sizeof cells);
    dg_grid grid;
    dg_grid_init(&grid, cells, W, H, 0);
    uint64_t before = dg_grid_hash(&grid);
    dg_diag diag;
    diag.message[0] = '\0';
    dg_status st = direct ? dg_recipe_generate(r, &grid, NULL, NULL, NULL, &diag)
                          : run(r, graph, reserved, &grid, NULL, &diag);
    CHECKF(st == want && strstr(diag.message, words), "%s \"%s\"", dg_status_str(st), diag.message);
    CHECK_EQ_U64(dg_grid_hash(&grid), before);
}

TEST(recipe_graph_refuses_missing_or_wrong_graph)
{
    dg_graph zelda, linear;
    if (!load(ZELDA, &zelda) || !load("examples/graphs/linear.txt", &linear))
        return;
    dg_recipe r;
    CHECK(dg_recipe_init(&r, "graph", 3, W, H) == DG_OK);
    refused(&r, NULL, NULL, 1, DG_E_NULL, "needs a level graph (dg_site.graph)");
    refused(&r, NULL, NULL, 0, DG_E_NULL, "needs a level graph (dg_site.graph)");
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_GRAPH, dg_graph_hash(&zelda), ZELDA, NULL) == DG_OK);
    refused(&r, &linear, NULL, 0, DG_E_INVALID, "is not the recipe's " ZELDA);
    static uint8_t reserved[W * H];
    reserved[0] = 1;
    refused(&r, &zelda, reserved, 0, DG_E_INVALID, "takes no reserved cells");
    dg_generator_info info;
    CHECK(dg_generator_get(dg_generator_find("graph"), &info) == DG_OK);
    CHECK(info.needs_graph == 1 && info.needs_prefabs == 0 && info.param_count == 2);
    dg_graph_free(&zelda);
    dg_graph_free(&linear);
}

/* Lays the graph out through a recipe with parameter room_distance set to
 * value (NULL: the default) into cells; the grid's hash, 0 on failure. */
static uint64_t recipe_hash(const dg_graph *graph, uint64_t seed, const char *value, uint8_t *cells)
{
    dg_recipe r;
    CHECK(dg_recipe_init(&r, "graph", seed, W, H) == DG_OK);
    dg_diag diag;
    if (value)
        CHECKF(dg_recipe_set(&r, "room_distance", value, &diag) == DG_OK, "%s", diag.message);
    dg_grid grid;
    dg_grid_init(&grid, cells, W, H, 0);
    dg_status st = run(&r, graph, NULL, &grid, NULL, &diag);
    CHECKF(st == DG_OK, "seed %d room_distance=%s: %s", (int)seed, value ? value : "-", diag.message);
    return st == DG_OK ? dg_grid_hash(&grid) : 0;
}

/* Parameter room_distance replaces the graph's level line: the same map as
 * the graph edited to that distance; its default (-1) keeps the graph's own,
 * the map of dg_graph_generate with the graph as it is (0.12's bytes: the
 * golden pins). */
TEST(recipe_graph_room_distance_overrides_the_level_line)
{
    dg_graph graph;
    if (!load(ZELDA, &graph))
        return;
    static uint8_t a[W * H], b[W * H];
    for (uint64_t seed = 1; seed <= 3; seed++)
    {
        dg_grid direct;
        dg_grid_init(&direct, b, W, H, 0);
        CHECK(dg_graph_generate(&direct, &graph, seed, NULL, NULL, NULL) == DG_OK);
        CHECK_EQ_U64(recipe_hash(&graph, seed, NULL, a), dg_grid_hash(&direct));
        CHECK_EQ_U64(recipe_hash(&graph, seed, "-1", a), dg_grid_hash(&direct));
        for (int32_t d = 0; d <= 3; d++)
        {
            char value[12];
            snprintf(value, sizeof value, "%d", (int)d);
            dg_graph edited = graph;
            edited.room_distance = d;
            CHECK(dg_graph_generate(&direct, &edited, seed, NULL, NULL, NULL) == DG_OK);
            CHECK_EQ_U64(recipe_hash(&graph, seed, value, a), dg_grid_hash(&direct));
        }
    }
    CHECK(graph.room_distance == 1); /* the caller's graph is not changed */
    dg_graph_free(&graph);
}

/* Value `bad` of graph parameter `key` is refused by dg_recipe_set (the
 * recipe as it was, the message naming the key and its range) and by
 * dg_recipe_parse. */
static void param_refused(const char *key, const char *bad, const char *range)
{
    dg_recipe r, before;
    CHECK(dg_recipe_init(&r, "graph", 1, W, H) == DG_OK);
    before = r;
    dg_diag diag;
    diag.message[0] = '\0';
    dg_status st = dg_recipe_set(&r, key, bad, &diag);
    CHECKF(st == DG_E_INVALID && strstr(diag.message, key) && strstr(diag.message, range),
           "%s=%s: %s \"%s\"", key, bad, dg_status_str(st), diag.message);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    char line[96];
    snprintf(line, sizeof line, "graph seed=1 %s=%s", key, bad);
    CHECK(dg_recipe_parse(line, strlen(line), &r, &diag) == DG_E_INVALID);
    CHECKF(strstr(diag.message, key), "%s", diag.message);
}

TEST(recipe_graph_room_distance_out_of_range_refused)
{
    const char *bad[] = {"5", "-2", "100"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        param_refused("room_distance", bad[i], "-1..4");
}

TEST(recipe_graph_max_attempts_out_of_range_refused)
{
    const char *bad[] = {"-2", "4097"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        param_refused("max_attempts", bad[i], "-1..4096");
}

/* Lays s's graph out on its grid, seed 1, through a recipe with parameter
 * max_attempts set to value (NULL: the default); a refusal leaves the grid
 * as it was. */
static dg_status attempts_run(const sample_graph *s, const char *value, dg_result *res,
                              dg_diag *diag)
{
    static uint8_t cells[W * H];
    CHECK(s->width * s->height <= W * H);
    memset(cells, 0xEE, sizeof cells);
    dg_recipe r;
    CHECK(dg_recipe_init(&r, "graph", 5, s->width, s->height) == DG_OK);
    if (value)
        CHECKF(dg_recipe_set(&r, "max_attempts", value, diag) == DG_OK, "%s", diag->message);
    dg_grid grid;
    dg_grid_init(&grid, cells, s->width, s->height, 0);
    diag->message[0] = '\0';
    dg_status st = run(&r, &s->g, NULL, &grid, res, diag);
    if (st != DG_OK)
        for (size_t i = 0; i < sizeof cells; i++)
            if (cells[i] != 0xEE)
            {
                CHECKF(0, "max_attempts=%s: refused with the grid changed", value ? value : "-");
                break;
            }
    return st;
}

/* Parameter max_attempts replaces the graph's bound: the families' wheel
 * of three (tests/test_graph_layout.c, graph_layout_max_attempts) is
 * refused on seed 5 after the default 256 layouts and lays out within
 * 4096; -1 keeps the graph's own bound and 0 is the library's 256. */
TEST(recipe_graph_max_attempts_replaces_the_bound)
{
    static sample_graph s;
    family_wheel(&s, 4, 0, family_graph_seed(4, 4, 0));
    dg_diag diag;
    dg_status st = attempts_run(&s, NULL, NULL, &diag);
    CHECKF(st == DG_E_NOSPACE && strstr(diag.message, "in 256 layouts of"), "%s \"%s\"",
           dg_status_str(st), diag.message);
    st = attempts_run(&s, "1", NULL, &diag);
    CHECKF(st == DG_E_NOSPACE && strstr(diag.message, "in 1 layout of"), "%s \"%s\"",
           dg_status_str(st), diag.message);
    s.g.max_attempts = 1; /* the graph's own bound: -1 keeps it, 0 is 256 */
    st = attempts_run(&s, "-1", NULL, &diag);
    CHECKF(st == DG_E_NOSPACE && strstr(diag.message, "in 1 layout of"), "%s \"%s\"",
           dg_status_str(st), diag.message);
    st = attempts_run(&s, "0", NULL, &diag);
    CHECKF(st == DG_E_NOSPACE && strstr(diag.message, "in 256 layouts of"), "%s \"%s\"",
           dg_status_str(st), diag.message);
    dg_result res;
    dg_result_init(&res, NULL);
    st = attempts_run(&s, "4096", &res, &diag);
    CHECKF(st == DG_OK, "max_attempts=4096: %s \"%s\"", dg_status_str(st), diag.message);
    CHECK(res.room_count == s.g.node_count);
    CHECK(s.g.max_attempts == 1); /* the caller's graph is not changed */
    dg_result_free(&res);
}
