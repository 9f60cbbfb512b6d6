/* dg_roles_populate: roles, then population, on one measure of the map. Both
 * steps start from the walking distances from result->start; measured here
 * once, they are read by both (the same distances each would measure), so
 * the output is byte for byte that of dg_roles then dg_populate. */
#include "content/content.h"

/* 1 if the start is a passable cell of a valid grid: the walk can be measured. */
static int walk_possible(const dg_grid *grid, const dg_result *result)
{
    if (!grid || !result || dgi_grid_validate(grid, NULL) != DG_OK)
        return 0;
    dg_point p = result->start;
    return p.x >= 0 && p.y >= 0 && p.x < grid->width && p.y < grid->height &&
           dgi_passable_default[DG_CELL(grid, p.x, p.y)];
}

/* 1 if population walks over the same tiles as roles do. */
static int same_tiles(const dg_populate_params *params)
{
    return !params || !params->passable ||
           memcmp(params->passable, dgi_passable_default, 256) == 0;
}

dg_status dg_roles_populate(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                            const dg_spawn_table *table, const dg_populate_params *params,
                            uint64_t seed, dg_result *result, dg_role_report *report,
                            dg_populate_stats *stats, const dg_allocator *allocator,
                            dg_diag *diag)
{
    int32_t *walk = NULL, *room_dist = NULL;
    size_t bytes = 0, n = 0;
    if (walk_possible(grid, result) && result->room_count >= 0)
    {
        n = (size_t)grid->width * (size_t)grid->height;
        /* the distances, then the search's queue, then the rooms' distances */
        bytes = (n * 2 + (size_t)result->room_count) * sizeof *walk;
        walk = dgi_alloc(allocator, bytes); /* NULL: each step measures its own */
        if (walk)
            dgi_walk_default(grid, result->start, walk, walk + n), room_dist = walk + 2 * n;
    }
    dg_status st =
        dgi_roles_run(grid, rules, count, seed, result, report, walk, room_dist, allocator, diag);
    if (st == DG_OK)
    {
        dg_diag own; /* a roles shortfall's message stays when population succeeds */
        memset(&own, 0, sizeof own);
        int32_t *queue = walk ? walk + n : NULL; /* free now */
        int same = same_tiles(params); /* else population walks its own tiles */
        st = dgi_populate_run(grid, table, params, seed, result, stats, same ? walk : NULL,
                              same ? room_dist : NULL, queue, allocator, &own);
        if (st != DG_OK && diag)
            *diag = own;
    }
    dgi_free(allocator, walk, bytes);
    return st;
}
