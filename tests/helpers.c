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
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *stack = malloc(n * sizeof *stack);
    uint8_t *seen = calloc(n, 1);
    int32_t top = 0, reached = 0, total = grid_passable_count(g);
    for (size_t i = 0; i < n && top == 0 && reached == 0; i++)
        if (dg_tile_passable(dg_grid_get(g, (int32_t)(i % (size_t)g->width), (int32_t)(i / (size_t)g->width))))
        {
            stack[top++] = (int32_t)i;
            seen[i] = 1;
        }
    while (top > 0)
    {
        int32_t c = stack[--top], x = c % g->width, y = c / g->width;
        reached++;
        const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (!dg_tile_passable(dg_grid_get(g, nx, ny)))
                continue;
            int32_t ni = ny * g->width + nx;
            if (!seen[ni])
            {
                seen[ni] = 1;
                stack[top++] = ni;
            }
        }
    }
    free(stack);
    free(seen);
    return reached == total;
}
