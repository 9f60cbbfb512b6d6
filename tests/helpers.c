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

uint64_t gen_hash(const char *name, const void *params, int32_t w, int32_t h, uint64_t seed,
                  int32_t pad, uint64_t *result_hash, int with_result)
{
    guarded_grid gg;
    dg_result r;
    dg_result_init(&r, NULL);
    if (!guard_make(&gg, w, h, pad))
        return 0;
    dg_status st = hard_gen_call(NULL, name, &gg.grid, params, seed, with_result ? &r : NULL, NULL,
                                 NULL);
    CHECKF(st == DG_OK, "%s %dx%d seed %llu: %s", name, (int)w, (int)h, (unsigned long long)seed,
           dg_status_str(st));
    CHECKF(guard_intact(&gg), "%s %dx%d pad %d: wrote outside the grid", name, (int)w, (int)h,
           (int)pad);
    uint64_t hash = dg_grid_hash(&gg.grid);
    if (result_hash)
        *result_hash = hard_result_hash(&r);
    guard_free(&gg);
    dg_result_free(&r);
    return hash;
}

const char *gen_deterministic(const char *name, const void *params, int32_t w, int32_t h,
                              int other_seed)
{
    uint64_t ra, rb;
    uint64_t a = gen_hash(name, params, w, h, 9, 0, &ra, 1);
    uint64_t b = gen_hash(name, params, w, h, 9, 17, &rb, 1);
    if (a != b || ra != rb)
        return "the stride changed the map";
    if (gen_hash(name, params, w, h, 9, 5, NULL, 0) != a)
        return "the result changed the tiles";
    if (other_seed && gen_hash(name, params, w, h, 10, 0, NULL, 1) == a &&
        (other_seed == 1 || gen_hash(name, params, w, h, 11, 0, NULL, 1) == a))
        return "another seed gave the same map";
    return NULL;
}
