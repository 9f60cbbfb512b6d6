/* Public region labelling and distance maps over any grid. */
#include "analysis/analysis.h"

dg_status dg_regions(const dg_grid *grid, const dg_move *move, int32_t *labels,
                     size_t labels_count, int32_t *sizes, int32_t sizes_cap, int32_t *count,
                     int32_t *largest, dg_diag *diag)
{
    dgi_move w;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = dgi_check_cells_buffer(grid, labels, labels_count, "labels", diag);
    if (st != DG_OK)
        return st;
    if (sizes_cap < 0 || (!sizes && sizes_cap > 0))
        return dgi_fail(diag, sizes_cap < 0 ? DG_E_INVALID : DG_E_NULL,
                        "sizes is %s with sizes_cap %d", sizes ? "given" : "NULL",
                        (int)sizes_cap);
    if (w.size > 1)
        return dgi_fail(diag, DG_E_INVALID, "walk size is %d: dg_regions labels one-cell walkers "
                        "(a larger one's reach is a dg_distance_map)", (int)w.size);
    int32_t n = dgi_regions_move(&w, labels, sizes, sizes_cap, largest);
    if (count)
        *count = n;
    dgi_diag_ok(diag);
    return DG_OK;
}

static dg_status check_sources(const dgi_move *w, const dg_point *sources, int32_t count,
                               dg_diag *diag)
{
    if (count < 1)
        return dgi_fail(diag, DG_E_INVALID, "source_count is %d: need at least one source",
                        (int)count);
    if (!sources)
        return dgi_fail(diag, DG_E_NULL, "sources is NULL");
    for (int32_t k = 0; k < count; k++)
    {
        dg_status st = dgi_move_check_cell(w, sources[k], "source", diag);
        if (st != DG_OK)
            return st;
    }
    return DG_OK;
}

/* Start costs >= 0 (NULL: all 0); *largest gets the largest. */
static dg_status check_start_costs(const int32_t *start, int32_t count, int64_t *largest,
                                   dg_diag *diag)
{
    *largest = 0;
    for (int32_t k = 0; start && k < count; k++)
    {
        if (start[k] < 0)
            return dgi_fail(diag, DG_E_INVALID, "start cost %d of source %d is negative",
                            (int)start[k], (int)k);
        *largest = DG_MAX(*largest, (int64_t)start[k]);
    }
    return DG_OK;
}

dg_status dg_dijkstra_map(const dg_grid *grid, const dg_move *move, const dg_point *sources,
                          const int32_t *start_costs, int32_t source_count, int32_t max_distance,
                          int32_t *dist, size_t dist_count, dg_path_workspace *workspace,
                          dg_distance_info *info, dg_diag *diag)
{
    dgi_move w;
    int64_t start_max = 0;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = check_sources(&w, sources, source_count, diag);
    if (st == DG_OK)
        st = check_start_costs(start_costs, source_count, &start_max, diag);
    if (st == DG_OK && max_distance < 0)
        st = dgi_fail(diag, DG_E_INVALID, "max_distance is %d: must be >= 0 (0: no limit)",
                      (int)max_distance);
    if (st == DG_OK)
        st = dgi_move_check_range(&w, start_max, max_distance, diag);
    if (st == DG_OK)
        st = dgi_check_cells_buffer(grid, dist, dist_count, "dist", diag);
    if (st != DG_OK)
        return st;
    dg_path_workspace *ws, *tmp;
    if ((st = dgi_workspace_get(workspace, &w, &ws, &tmp, diag)) != DG_OK)
    {
        dg_path_workspace_free(tmp);
        return st;
    }
    dgi_dijkstra_map(ws, &w, sources, start_costs, source_count, max_distance, dist, info);
    dg_path_workspace_free(tmp);
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_distance_map(const dg_grid *grid, const dg_move *move, const dg_point *sources,
                          int32_t source_count, int32_t max_distance, int32_t *dist,
                          size_t dist_count, dg_path_workspace *workspace,
                          dg_distance_info *info, dg_diag *diag)
{
    return dg_dijkstra_map(grid, move, sources, NULL, source_count, max_distance, dist,
                           dist_count, workspace, info, diag);
}
