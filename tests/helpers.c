/* Helpers shared by the tests: guarded grids and connectivity checks. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define CANARY 0xA5

int guard_make(guarded_grid *gg, int32_t width, int32_t height, int32_t pad)
{
    int32_t stride = width + pad;
    size_t margin = 64;
    gg->size = (size_t)stride * (size_t)height + 2 * margin;
    gg->buffer = malloc(gg->size);
    if (!gg->buffer)
        return 0;
    memset(gg->buffer, CANARY, gg->size);
    gg->offset = margin;
    gg->grid.cells = gg->buffer + margin;
    gg->grid.width = width;
    gg->grid.height = height;
    gg->grid.stride = stride;
    return 1;
}

int guard_intact(const guarded_grid *gg)
{
    const dg_grid *g = &gg->grid;
    for (size_t i = 0; i < gg->size; i++)
    {
        if (i >= gg->offset && i < gg->offset + (size_t)g->stride * (size_t)g->height)
        {
            size_t x = (i - gg->offset) % (size_t)g->stride;
            if (x < (size_t)g->width)
                continue;
        }
        if (gg->buffer[i] != CANARY)
            return 0;
    }
    return 1;
}

void guard_free(guarded_grid *gg)
{
    free(gg->buffer);
    gg->buffer = NULL;
}

int32_t grid_passable_count(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            n += dg_tile_passable(dg_grid_get(g, x, y));
    return n;
}

int grid_connected(const dg_grid *g)
{
    /* through the public analysis API, so every generator test exercises it */
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *labels = malloc(n * sizeof *labels);
    int32_t count = -1;
    dg_status st = labels ? dg_regions(g, NULL, labels, n, NULL, 0, &count, NULL, NULL) : DG_E_NOMEM;
    free(labels);
    return st == DG_OK && count <= 1;
}
