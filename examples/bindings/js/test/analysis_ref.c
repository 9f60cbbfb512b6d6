/* analysis_ref "RECIPE" [PREFAB_FILE]: the native answers the JavaScript tests
 * compare with. Generates the recipe's map and prints, as one JSON object, the
 * start-to-exit path (4-way, and 8-way with weights 2/3), the distance map
 * from the start and the field of view from the start (radius 8 and 0).
 * Uses only the public header. */
#include <dungeon.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(1 << 20);
    *length = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    return text;
}

static void print_path(const char *key, const dg_grid *g, const dg_move *walk, dg_point a,
                       dg_point b)
{
    int32_t cap = g->width * g->height, length = 0, cost = 0;
    dg_point *path = malloc((size_t)cap * sizeof *path);
    dg_status st = path ? dg_path_find(g, walk, a, b, NULL, path, cap, &length, &cost, NULL)
                        : DG_E_NOMEM;
    printf("\"%s\":", key);
    if (st != DG_OK)
        printf("null");
    else
    {
        printf("{\"cost\":%d,\"path\":[", (int)cost);
        for (int32_t i = 0; i < length; i++)
            printf("%s{\"x\":%d,\"y\":%d}", i ? "," : "", (int)path[i].x, (int)path[i].y);
        printf("]}");
    }
    free(path);
}

static void print_distances(const dg_grid *g, dg_point source)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *dist = malloc(n * sizeof *dist);
    dg_distance_info info;
    if (!dist || dg_distance_map(g, NULL, &source, 1, 0, dist, n, NULL, &info, NULL) != DG_OK)
        exit(1);
    printf("\"distance\":{\"reached\":%d,\"maxDistance\":%d,\"farthest\":{\"x\":%d,\"y\":%d},"
           "\"distances\":[", (int)info.reached, (int)info.max_distance,
           (int)info.farthest.x, (int)info.farthest.y);
    for (size_t i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", (int)dist[i]);
    printf("]}");
    free(dist);
}

static void print_fov(const char *key, const dg_grid *g, dg_point origin, int32_t radius)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    uint8_t *seen = calloc(n, 1);
    if (!seen || dg_fov(g, NULL, origin, radius, seen, n, NULL, NULL) != DG_OK)
        exit(1);
    printf("\"%s\":[", key);
    for (size_t i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", seen[i]);
    printf("]");
    free(seen);
}

int main(int argc, char **argv)
{
    dg_recipe rc;
    dg_prefab_set *set = NULL;
    size_t length = 0;
    char *text = argc > 2 ? read_all(argv[2], &length) : NULL;
    if (argc < 2 || dg_recipe_parse(argv[1], strlen(argv[1]), &rc, NULL) != DG_OK ||
        (text && dg_prefab_parse(text, length, argv[2], NULL, NULL, NULL, &set, NULL) != DG_OK))
        return 2;
    if (set)
        dg_recipe_set_prefabs(&rc, set, argv[2], NULL);
    uint8_t *cells = malloc((size_t)rc.width * (size_t)rc.height);
    dg_grid g;
    dg_result r;
    dg_result_init(&r, NULL);
    if (!cells || dg_grid_init(&g, cells, rc.width, rc.height, 0) != DG_OK ||
        dg_recipe_generate(&rc, &g, set, &r, NULL, NULL) != DG_OK)
        return 1;
    dg_move eight;
    dg_move_defaults(&eight);
    eight.neighbours = 8;
    eight.straight_weight = 2;
    eight.diagonal_weight = 3;
    printf("{");
    print_path("path4", &g, NULL, r.start, r.exit);
    printf(",");
    print_path("path8", &g, &eight, r.start, r.exit);
    printf(",");
    print_distances(&g, r.start);
    printf(",");
    print_fov("fov8", &g, r.start, 8);
    printf(",");
    print_fov("fov0", &g, r.start, 0);
    printf("}\n");
    dg_result_free(&r);
    dg_prefab_set_free(set);
    free(cells);
    free(text);
    return 0;
}
