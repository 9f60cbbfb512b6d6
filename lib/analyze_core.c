/* Whole-grid scans the generators share: BFS, regions, dead ends. */
#include "internal.h"

static int passable_at(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height &&
           dg_tile_passable(DG_CELL(g, x, y));
}

int32_t dgi_bfs(const dg_grid *g, int32_t start, int32_t *dist, int32_t *queue)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int32_t w = g->width, n = g->width * g->height;
    for (int32_t i = 0; i < n; i++)
        dist[i] = -1;
    int32_t head = 0, tail = 0, last = start;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail)
    {
        int32_t c = queue[head++];
        int32_t x = c % w, y = c / w;
        last = c;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (!passable_at(g, nx, ny))
                continue;
            int32_t ni = ny * w + nx;
            if (dist[ni] < 0)
            {
                dist[ni] = dist[c] + 1;
                queue[tail++] = ni;
            }
        }
    }
    return last;
}

int32_t dgi_label_regions(const dg_grid *g, int32_t *label, int32_t *queue)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int32_t w = g->width, n = g->width * g->height, regions = 0;
    for (int32_t i = 0; i < n; i++)
        label[i] = -1;
    for (int32_t seed = 0; seed < n; seed++)
    {
        if (label[seed] >= 0 || !passable_at(g, seed % w, seed / w))
            continue;
        int32_t head = 0, tail = 0;
        label[seed] = regions;
        queue[tail++] = seed;
        while (head < tail)
        {
            int32_t c = queue[head++], x = c % w, y = c / w;
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d], ni = ny * w + nx;
                if (passable_at(g, nx, ny) && label[ni] < 0)
                {
                    label[ni] = regions;
                    queue[tail++] = ni;
                }
            }
        }
        regions++;
    }
    return regions;
}

int32_t dgi_count_dead_ends(const dg_grid *g)
{
    int32_t count = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (!dg_tile_passable(DG_CELL(g, x, y)))
                continue;
            int n = passable_at(g, x, y - 1) + passable_at(g, x + 1, y) +
                    passable_at(g, x, y + 1) + passable_at(g, x - 1, y);
            count += n == 1;
        }
    return count;
}
