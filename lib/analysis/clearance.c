/* Clearance maps and walkers larger than one cell: a size-n walker at (x, y)
 * covers the n x n square whose top-left corner is (x, y), so it fits where
 * that corner's clearance is at least n. One pass from the bottom-right
 * corner: a cell's square is one more than the smallest of its right, lower
 * and lower-right neighbours' squares. */
#include "analysis/analysis.h"

static int footprint_open(const dgi_move *w, int32_t x, int32_t y)
{
    return w->pass[DG_CELL(w, x, y)] && !(w->blocked && DGI_MASK(w, w->blocked, x, y));
}

void dgi_clearance_fill(const dgi_move *w, uint8_t *out, int32_t cap)
{
    size_t width = (size_t)w->width;
    for (int32_t y = w->height - 1; y >= 0; y--)
    {
        uint8_t *row = out + (size_t)y * width;
        const uint8_t *below = y + 1 < w->height ? row + width : NULL;
        for (int32_t x = w->width - 1; x >= 0; x--)
        {
            if (!footprint_open(w, x, y))
            {
                row[x] = 0;
                continue;
            }
            int32_t right = x + 1 < w->width ? row[x + 1] : 0;
            int32_t down = below ? below[x] : 0;
            int32_t corner = below && x + 1 < w->width ? below[x + 1] : 0;
            int32_t least = DG_MIN(right, DG_MIN(down, corner));
            /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): out holds width x height cells */
            row[x] = (uint8_t)DG_MIN(least + 1, cap);
        }
    }
}

void dgi_move_fit(dgi_move *w, uint8_t *fit)
{
    size_t cells = (size_t)w->width * (size_t)w->height;
    dgi_clearance_fill(w, fit, w->size);
    for (size_t i = 0; i < cells; i++)
        fit[i] = fit[i] < w->size;
    w->blocked = fit;
    w->mask_stride = w->width;
}

dg_status dg_clearance(const dg_grid *grid, const dg_move *move, uint8_t *clearance,
                       size_t clearance_count, dg_diag *diag)
{
    dgi_move w;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = dgi_check_cells_buffer(grid, clearance, clearance_count, "clearance", diag);
    if (st != DG_OK)
        return st;
    dgi_clearance_fill(&w, clearance, 255);
    dgi_diag_ok(diag);
    return DG_OK;
}
