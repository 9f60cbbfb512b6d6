/* Metrics of any grid: floor, regions, dead ends, loops, chokepoints, diameter. */
#include "analysis/analysis.h"

int32_t dgi_articulation(const dgi_move *w, uint8_t *mark, int32_t *disc, int32_t *low,
                         int32_t *stack, uint8_t *it)
{
    const int32_t width = w->width, height = w->height;
    size_t n = (size_t)width * (size_t)height;
    memset(mark, 0, n);
    for (size_t i = 0; i < n; i++)
        disc[i] = 0;
    int32_t count = 0, timer = 0;
    for (int32_t ry = 0; ry < height; ry++)
        for (int32_t rx = 0; rx < width; rx++)
        {
            int32_t root = ry * width + rx;
            if (disc[root] || !w->pass[DG_CELL(w, rx, ry)])
                continue;
            /* Iterative depth-first search (Hopcroft-Tarjan); it[] holds each
             * stacked cell's next direction. */
            int32_t top = 0, root_children = 0;
            stack[0] = DGI_PACK(rx, ry);
            it[0] = 0;
            disc[root] = low[root] = ++timer;
            while (top >= 0)
            {
                int32_t x = DGI_PX(stack[top]), y = DGI_PY(stack[top]), v = y * width + x;
                if (it[top] < 4)
                {
                    int d = it[top]++;
                    int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
                    /* dgi_move_step_ok of a straight step, inline: an open cell in the grid */
                    if ((uint32_t)nx >= (uint32_t)width || (uint32_t)ny >= (uint32_t)height ||
                        !w->pass[DG_CELL(w, nx, ny)])
                        continue;
                    int32_t u = ny * width + nx;
                    if (disc[u])
                    {
                        low[v] = DG_MIN(low[v], disc[u]);
                        continue;
                    }
                    disc[u] = low[u] = ++timer;
                    stack[++top] = DGI_PACK(nx, ny);
                    it[top] = 0;
                    root_children += top == 1;
                    continue;
                }
                if (--top < 0)
                    break;
                int32_t p = DGI_PY(stack[top]) * width + DGI_PX(stack[top]);
                low[p] = DG_MIN(low[p], low[v]);
                if (top > 0 && low[v] >= disc[p] && !mark[p])
                {
                    mark[p] = 1;
                    count++;
                }
            }
            if (root_children >= 2)
            {
                mark[root] = 1;
                count++;
            }
        }
    return count;
}

dg_status dg_chokepoints(const dg_grid *grid, const uint8_t *passable, uint8_t *mask,
                         size_t mask_count, int32_t *count, const dg_allocator *allocator,
                         dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st == DG_OK)
        st = dgi_check_cells_buffer(grid, mask, mask_count, "mask", diag);
    dgi_scratch s;
    if (st != DG_OK || (st = dgi_scratch_get(&s, grid, 0, allocator, diag)) != DG_OK)
        return st;
    dgi_move w;
    dgi_move_basic(&w, grid, passable);
    int32_t n = dgi_articulation(&w, mask, s.a, s.b, s.c, s.it);
    dgi_scratch_free(&s, allocator);
    if (count)
        *count = n;
    dgi_diag_ok(diag);
    return DG_OK;
}

/* Double sweep: the farthest cell from the largest region's first cell, then
 * the farthest from that one; exact on trees, a lower bound elsewhere. */
static int32_t diameter(const dgi_move *w, const int32_t *labels, int32_t largest, int32_t *dist,
                        int32_t *queue)
{
    if (largest < 0)
        return 0;
    size_t i = 0;
    while (labels[i] != largest)
        i++;
    dg_point p = {(int32_t)(i % (size_t)w->width), (int32_t)(i / (size_t)w->width)};
    dg_distance_info info;
    dgi_bfs_move(w, &p, 1, 0, dist, queue, &info);
    dgi_bfs_move(w, &info.farthest, 1, 0, dist, queue, &info);
    return info.max_distance;
}

dg_status dg_measure(const dg_grid *grid, const uint8_t *passable, dg_metrics *metrics,
                     const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (!metrics)
        return dgi_fail(diag, DG_E_NULL, "metrics is NULL");
    dgi_scratch s;
    if ((st = dgi_scratch_get(&s, grid, 1, allocator, diag)) != DG_OK)
        return st;
    dgi_cell_counts counts;
    if (dgi_count_cells(grid, passable, &counts, allocator) != DG_OK)
    {
        dgi_scratch_free(&s, allocator);
        return dgi_fail(diag, DG_E_NOMEM, "cannot allocate scratch for a %dx%d grid",
                        (int)grid->width, (int)grid->height);
    }
    dgi_move w;
    dgi_move_basic(&w, grid, passable);
    dg_metrics m;
    memset(&m, 0, sizeof m);
    m.cells = grid->width * grid->height;
    for (int32_t y = 0; y < grid->height; y++)
    {
        const uint8_t *row = &DG_CELL(grid, 0, y);
        for (int32_t x = 0; x < grid->width; x++)
            m.doors += row[x] == DG_TILE_DOOR;
    }
    m.floor_cells = counts.open;
    m.floor_permille = (int32_t)((int64_t)m.floor_cells * 1000 / m.cells);
    m.dead_ends = counts.dead_ends;
    int32_t largest;
    m.regions = dgi_regions_move(&w, s.a, NULL, 0, &largest);
    /* Euler: bounded faces of the planar cell graph are its open 2x2 squares
     * plus one face per obstacle ringed by passable cells. */
    m.loops = (int32_t)(counts.edges - m.floor_cells + m.regions - counts.squares);
    m.diameter = diameter(&w, s.a, largest, s.b, s.c);
    m.chokepoints = dgi_articulation(&w, s.mark, s.a, s.b, s.c, s.it);
    dgi_scratch_free(&s, allocator);
    *metrics = m;
    dgi_diag_ok(diag);
    return DG_OK;
}
