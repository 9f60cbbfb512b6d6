/* Reserved cells (dg_site.reserved) as the generators read them: the
 * neighbourhood test and a summed-area table for counting them in a rect. */
#include "core/core.h"

int dgi_mask_near(const dgi_mask *m, const dg_grid *g, int32_t x, int32_t y)
{
    if (!m)
        return 0;
    for (int32_t yy = y - 1; yy <= y + 1; yy++)
        for (int32_t xx = x - 1; xx <= x + 1; xx++)
            if (xx >= 0 && yy >= 0 && xx < g->width && yy < g->height && dgi_mask_at(m, xx, yy))
                return 1;
    return 0;
}

void dgi_mask_sums(const dgi_mask *m, int32_t w, int32_t h, int32_t *sums)
{
    memset(sums, 0, (size_t)(w + 1) * sizeof *sums);
    for (int32_t y = 0; y < h; y++)
    {
        int32_t *row = sums + (size_t)(y + 1) * (size_t)(w + 1), run = 0;
        row[0] = 0;
        for (int32_t x = 0; x < w; x++)
        {
            run += dgi_mask_at(m, x, y);
            row[x + 1] = row[x + 1 - (w + 1)] + run;
        }
    }
}

int32_t dgi_mask_count(const int32_t *sums, int32_t w, int32_t h, dg_rect q)
{
    int32_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
    int32_t x1 = DG_MIN(q.x + q.w, w), y1 = DG_MIN(q.y + q.h, h);
    if (x0 >= x1 || y0 >= y1)
        return 0;
    size_t s = (size_t)w + 1;
    return sums[y1 * s + x1] - sums[y0 * s + x1] - sums[y1 * s + x0] + sums[y0 * s + x0];
}
