/* Library behaviour behind the dungeon tool's inputs (issue 28): recipe words
 * that cannot go together are refused when read, and a recipe keeps a prefab
 * hint however deep the file lives. */
#include "test.h"

#include <string.h>

static dg_status parse_line(const char *line, dg_recipe *r, dg_diag *d)
{
    return dg_recipe_parse(line, strlen(line), r, d);
}

/* 5: floor >= floors parses no more, whatever the order of the words. */
TEST(test_tool_inputs_floor_below_floors)
{
    dg_recipe r, before;
    dg_diag d;
    CHECK(dg_recipe_init(&r, "attach", 9, 30, 20) == DG_OK);
    before = r;
    CHECK(parse_line("attach floor=5", &r, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "floor=5") && strstr(d.message, "floors=1 (the default)"));
    CHECK(d.line == 1 && d.column == 8);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    CHECK(parse_line("attach floors=3 seed=2 floor=3", &r, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "floor=3 is not below floors=3") && d.column == 24);
    CHECK(parse_line("attach floor=3 floors=3", &r, &d) == DG_E_INVALID);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    CHECK(parse_line("attach floor=2 floors=3", &r, &d) == DG_OK);
    CHECK(parse_line("cave floors=65536 floor=65535", &r, &d) == DG_OK);
    CHECK(parse_line("attach stairs=2", &r, &d) == DG_OK); /* floor 0 of 1 */
    /* what parses prints and parses again */
    char line[2048];
    CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
    CHECK(parse_line(line, &before, &d) == DG_OK);
}

/* 17: a prefab path too long for the hint (DG_RECIPE_PREFABS_MAX - 1 bytes)
 * keeps its base name instead of no name; the hash is recorded either way. */
TEST(test_tool_inputs_long_prefab_path_keeps_base_name)
{
    dg_prefab_set *set = NULL;
    dg_diag d;
    CHECK(dg_prefab_load("examples/prefabs/shaft.txt", NULL, NULL, NULL, &set, &d) == DG_OK);
    if (!set)
        return;
    dg_recipe r;
    CHECK(dg_recipe_init(&r, "prefab-full", 1, 56, 26) == DG_OK);
    char path[300];
    snprintf(path, sizeof path, "/a/checkout/that/lives/rather/deep/in/the/tree/%s/shaft.txt",
             "and-deeper-still-so-the-path-is-long");
    CHECK(strlen(path) >= DG_RECIPE_PREFABS_MAX);
    CHECK(dg_recipe_set_prefabs(&r, set, path, &d) == DG_OK);
    CHECK(strcmp(r.prefabs, "shaft.txt") == 0);
    CHECK(r.prefabs_hash == dg_prefab_set_hash(set));
    /* characters a recipe cannot hold are refused anywhere in the path */
    dg_recipe kept = r;
    CHECK(dg_recipe_set_prefabs(&r, set, "/home/my files/that/lives/rather/deep/in/the/tree/shaft.txt", &d) == DG_E_INVALID);
    CHECK(memcmp(&r, &kept, sizeof r) == 0);
    /* a path that fits is kept as given */
    CHECK(dg_recipe_set_prefabs(&r, set, "examples/prefabs/shaft.txt", &d) == DG_OK);
    CHECK(strcmp(r.prefabs, "examples/prefabs/shaft.txt") == 0);
    /* a base name that cannot be a hint is refused, the recipe untouched */
    dg_recipe before = r;
    char longname[100];
    memset(longname, 'x', 70);
    memcpy(longname, "/d/", 3);
    memcpy(longname + 70, ".txt", 5);
    CHECK(dg_recipe_set_prefabs(&r, set, longname, &d) == DG_E_INVALID);
    CHECK(dg_recipe_set_prefabs(&r, set, "/d/my shaft.txt", &d) == DG_E_INVALID);
    CHECK(dg_recipe_set_prefabs(&r, set, "/a/checkout/that/lives/rather/deep/in/the/tree/and/so/on/", &d) == DG_E_INVALID);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    /* the recipe with the base name prints, parses and runs with the set */
    CHECK(dg_recipe_set_prefabs(&r, set, path, &d) == DG_OK);
    char line[2048];
    CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
    CHECK(strstr(line, " prefabs=shaft.txt prefabs_hash=0x") != NULL);
    dg_recipe back;
    CHECK(dg_recipe_parse(line, strlen(line), &back, &d) == DG_OK);
    CHECK(memcmp(&back, &r, sizeof r) == 0);
    dg_prefab_set_free(set);
}
