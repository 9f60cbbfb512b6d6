/* The C side of tests/embedding.sh: for every argument "RECIPE" or
 * "RECIPE@PREFABS" prints what each binding recipe must print for it:
 *   RECIPE hash 0x<grid hash>           (or RECIPE error: <status>: <message>)
 *   RECIPE markers N first..., start X Y
 * ("fixed:RECIPE" prints the parsed recipe or the parse error instead),
 * plus the version, a few static strings and the struct sizes the C# recipe
 * mirrors, so the bindings are compared with the C compiler, not with a copy. */
#include <dungeon.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_markers(const char *line, const dg_result *r)
{
    printf("%s markers %d", line, (int)r->marker_count);
    for (int32_t i = 0; i < r->marker_count && i < 3; i++)
        printf(" %s", r->markers[i].name);
    printf(", start %d %d\n", (int)r->start.x, (int)r->start.y);
}

/* "fixed:RECIPE": what the C# fixed-buffer mirrors read from a recipe line. */
static void run_fixed(const char *line)
{
    dg_diag diag = {0, 0, 0, ""};
    dg_recipe r;
    dg_status st = dg_recipe_parse(line, strlen(line), &r, &diag);
    if (st == DG_OK)
        printf("fixed %s %s seed %" PRIu64 " %dx%d params %d prefabs '%s' 0x%016" PRIx64 "\n",
               line, r.generator, r.seed, (int)r.width, (int)r.height, (int)r.param_count,
               r.prefabs, r.prefabs_hash);
    else
        printf("fixed %s error: %s: %s\n", line, dg_status_str(st), diag.message);
}

/* One argument: generate it and print its two lines. */
static void run(char *arg)
{
    char *at = strchr(arg, '@');
    if (at)
        *at = '\0';
    dg_diag diag = {0, 0, 0, ""};
    dg_recipe recipe;
    dg_prefab_set *set = NULL;
    dg_status st = dg_recipe_parse(arg, strlen(arg), &recipe, &diag);
    if (st == DG_OK && at)
        st = dg_prefab_load(at + 1, NULL, NULL, NULL, &set, &diag);
    uint8_t *cells = st == DG_OK ? malloc((size_t)recipe.width * (size_t)recipe.height) : NULL;
    dg_grid grid;
    dg_result result;
    dg_result_init(&result, NULL);
    if (cells)
        st = dg_grid_init(&grid, cells, recipe.width, recipe.height, 0);
    if (cells && st == DG_OK)
        st = dg_recipe_generate(&recipe, &grid, set, &result, NULL, &diag);
    if (st == DG_OK && cells)
    {
        printf("%s hash 0x%016" PRIx64 "\n", arg, dg_grid_hash(&grid));
        print_markers(arg, &result);
    }
    else
        printf("%s error: %s: %s\n", arg, dg_status_str(st), diag.message);
    dg_result_free(&result);
    dg_prefab_set_free(set);
    free(cells);
}

int main(int argc, char **argv)
{
    printf("version %s status %s tile %s\n", dg_version(), dg_status_str(DG_E_BUFFER),
           dg_tile_name(DG_TILE_WALL));
    printf("sizes grid %zu diag %zu recipe %zu marker %zu metrics %zu result %zu\n",
           sizeof(dg_grid), sizeof(dg_diag), sizeof(dg_recipe), sizeof(dg_marker),
           sizeof(dg_metrics), sizeof(dg_result));
    printf("recipe offsets values %zu prefabs_hash %zu prefabs %zu\n", offsetof(dg_recipe, values),
           offsetof(dg_recipe, prefabs_hash), offsetof(dg_recipe, prefabs));
    printf("fixed sizes diag %zu recipe %zu\n", sizeof(dg_diag), sizeof(dg_recipe));
    printf("fixed recipe offsets values %zu prefabs_hash %zu prefabs %zu\n",
           offsetof(dg_recipe, values), offsetof(dg_recipe, prefabs_hash),
           offsetof(dg_recipe, prefabs));
    for (int i = 1; i < argc; i++)
    {
        if (strncmp(argv[i], "fixed:", 6) == 0)
            run_fixed(argv[i] + 6);
        else
            run(argv[i]);
    }
    return 0;
}
