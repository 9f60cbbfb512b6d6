/* Helpers shared by the tests: guarded grids, connectivity checks and the
 * breadth-first search every test that walks a map uses. */
#include "hard.h"
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

int32_t grid_open_to_void(const dg_grid *g, const uint8_t *skip)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (!dg_tile_passable(dg_grid_get(g, x, y)) || (skip && skip[y * g->width + x]))
                continue;
            int edge = x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1;
            n += edge || dg_grid_get(g, x - 1, y) == DG_TILE_VOID ||
                 dg_grid_get(g, x + 1, y) == DG_TILE_VOID || dg_grid_get(g, x, y - 1) == DG_TILE_VOID ||
                 dg_grid_get(g, x, y + 1) == DG_TILE_VOID;
        }
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

int32_t *bfs_lattice(int32_t w, int32_t h, int32_t start, bfs_step can_step, const void *user,
                     int32_t *reached)
{
    size_t n = (size_t)w * (size_t)h;
    size_t cells = n ? n : 1;
    int32_t *dist = malloc(cells * sizeof *dist), *queue = malloc(cells * sizeof *queue);
    int32_t head = 0, tail = 0;
    if (!dist || !queue)
    {
        free(dist);
        free(queue);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        dist[i] = -1;
    if (start >= 0 && (size_t)start < n)
    {
        dist[start] = 0;
        queue[tail++] = start;
    }
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    while (head < tail)
    {
        int32_t c = queue[head++], x = c % w, y = c / w;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d], to = ny * w + nx;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || dist[to] >= 0 ||
                !can_step(user, c, to, d))
                continue;
            dist[to] = dist[c] + 1;
            queue[tail++] = to;
        }
    }
    free(queue);
    if (reached)
        *reached = tail;
    return dist;
}

static int passable_step(const void *user, int32_t from, int32_t to, int dir)
{
    const dg_grid *g = user;
    (void)from, (void)dir;
    return dg_tile_passable(dg_grid_get(g, to % g->width, to / g->width));
}

int32_t *grid_walk_from(const dg_grid *g, dg_point s, int32_t *reached)
{
    int inside = s.x >= 0 && s.y >= 0 && s.x < g->width && s.y < g->height;
    int32_t start = inside ? s.y * g->width + s.x : -1;
    return bfs_lattice(g->width, g->height, start, passable_step, g, reached);
}
