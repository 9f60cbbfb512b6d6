/* Maps and brute-force references for the analysis tests (test_analyze.c,
 * test_path.c, test_fov.c, test_place.c). Everything here is deliberately
 * naive: O(n^3) shortest paths, flood fills, removal tests. */
#ifndef DG_ANALYSIS_MAPS_H
#define DG_ANALYSIS_MAPS_H

#include "test.h"

#include <stdlib.h>
#include <string.h>

#define AM_INF INT32_MAX

/* An owned grid. */
typedef struct am_map {
    dg_grid grid;
    uint8_t *cells;
} am_map;

static inline void am_make(am_map *m, int32_t w, int32_t h, uint8_t fill)
{
    m->cells = malloc((size_t)w * (size_t)h);
    memset(m->cells, fill, (size_t)w * (size_t)h);
    dg_grid_init(&m->grid, m->cells, w, h, 0);
}

static inline void am_free(am_map *m)
{
    free(m->cells);
    m->cells = NULL;
}

/* Random walls (permille), the other cells floor; a few random passable kinds. */
static inline void am_noise(am_map *m, int32_t w, int32_t h, int32_t wall_permille, uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 1);
    am_make(m, w, h, DG_TILE_FLOOR);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
        {
            uint8_t t = DG_TILE_FLOOR;
            if (dg_rng_chance(&rng, wall_permille))
                t = dg_rng_chance(&rng, 200) ? DG_TILE_WATER : DG_TILE_WALL;
            else if (dg_rng_chance(&rng, 150))
                t = (uint8_t)(DG_TILE_CORRIDOR + (int)dg_rng_below(&rng, 4) * 2); /* 2 4 6 8 */
            if (t == DG_TILE_OBSTACLE)
                t = DG_TILE_TRAP;
            dg_grid_set(&m->grid, x, y, t);
        }
}

/* An open hall walled at the border with random pillars (FOV tests). */
static inline void am_pillars(am_map *m, int32_t w, int32_t h, int32_t pillar_permille,
                              uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 2);
    am_make(m, w, h, DG_TILE_WALL);
    for (int32_t y = 1; y + 1 < h; y++)
        for (int32_t x = 1; x + 1 < w; x++)
            dg_grid_set(&m->grid, x, y,
                        dg_rng_chance(&rng, pillar_permille) ? DG_TILE_OBSTACLE : DG_TILE_FLOOR);
}

/* Rooms (FLOOR) on a lattice joined by L-shaped corridors (CORRIDOR) with a
 * DOOR where a corridor leaves a room; a few extra links make loops. */
static inline void am_rooms(am_map *m, int32_t w, int32_t h, uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 3);
    am_make(m, w, h, DG_TILE_VOID);
    int32_t cols = (w - 1) / 12 > 1 ? (w - 1) / 12 : 1, rows = (h - 1) / 10 > 1 ? (h - 1) / 10 : 1;
    dg_point centre[64];
    int32_t n = 0;
    for (int32_t r = 0; r < rows && n < 64; r++)
        for (int32_t c = 0; c < cols && n < 64; c++)
        {
            int32_t rw = dg_rng_range(&rng, 3, 8), rh = dg_rng_range(&rng, 3, 6);
            int32_t x = 1 + c * 12 + dg_rng_range(&rng, 0, 9 - rw);
            int32_t y = 1 + r * 10 + dg_rng_range(&rng, 0, 7 - rh);
            dg_rect room = {x, y, rw, rh};
            dg_rect wall = {x - 1, y - 1, rw + 2, rh + 2};
            dg_grid_fill_rect(&m->grid, wall, DG_TILE_WALL);
            dg_grid_fill_rect(&m->grid, room, DG_TILE_FLOOR);
            centre[n].x = x + rw / 2;
            centre[n].y = y + rh / 2;
            n++;
        }
    int32_t links = n - 1 + n / 4;
    for (int32_t k = 0; k < links; k++)
    {
        dg_point a = centre[k < n - 1 ? k : (int32_t)dg_rng_below(&rng, (uint32_t)n)];
        dg_point b = centre[k < n - 1 ? k + 1 : (int32_t)dg_rng_below(&rng, (uint32_t)n)];
        dg_point p = a;
        while (p.x != b.x || p.y != b.y)
        {
            if (p.x != b.x)
                p.x += p.x < b.x ? 1 : -1;
            else
                p.y += p.y < b.y ? 1 : -1;
            uint8_t t = dg_grid_get(&m->grid, p.x, p.y);
            if (t == DG_TILE_WALL)
                dg_grid_set(&m->grid, p.x, p.y, DG_TILE_DOOR);
            else if (t == DG_TILE_VOID)
                dg_grid_set(&m->grid, p.x, p.y, DG_TILE_CORRIDOR);
        }
    }
}

/* The first cell (row-major) the library calls passable, or (-1, -1). */
static inline dg_point am_first_floor(const dg_grid *g)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_tile_passable(dg_grid_get(g, x, y)))
                return (dg_point){x, y};
    return (dg_point){-1, -1};
}

/* Walk rule variant k (bits: 8-way, corner cutting, costs, weights 2/3). */
static inline dg_move am_walk(int k, const uint16_t *cost)
{
    dg_move w;
    dg_move_defaults(&w);
    w.neighbours = k & 1 ? 8 : 4;
    w.corner_cutting = (k >> 1) & 1;
    if (k & 4)
        w.cost = cost;
    if (k & 8)
    {
        w.straight_weight = 2;
        w.diagonal_weight = 3;
    }
    return w;
}

/* Reference step rule, written independently of the library. */
static inline int am_pass(const dg_grid *g, const uint8_t *pass, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= g->width || y >= g->height)
        return 0;
    uint8_t t = g->cells[(size_t)y * (size_t)g->stride + (size_t)x];
    return pass ? pass[t] != 0 : dg_tile_passable(t);
}

/* Cost of stepping from (x, y) by (dx, dy), or -1 if not allowed. */
static inline int64_t am_step(const dg_grid *g, const dg_move *wk, int32_t x, int32_t y,
                              int32_t dx, int32_t dy)
{
    int32_t nx = x + dx, ny = y + dy;
    if (!am_pass(g, wk->passable, x, y) || !am_pass(g, wk->passable, nx, ny))
        return -1;
    int diag = dx != 0 && dy != 0;
    if (diag && wk->neighbours != 8)
        return -1;
    if (diag && !wk->corner_cutting &&
        (!am_pass(g, wk->passable, nx, y) || !am_pass(g, wk->passable, x, ny)))
        return -1;
    int64_t c = wk->cost ? wk->cost[g->cells[(size_t)ny * (size_t)g->stride + (size_t)nx]] : 1;
    return c * (diag ? wk->diagonal_weight : wk->straight_weight);
}

/* All-pairs shortest path costs (Floyd-Warshall), n*n entries, AM_INF if none. */
static inline int64_t *am_floyd(const dg_grid *g, const dg_move *wk)
{
    int32_t n = g->width * g->height;
    int64_t *d = malloc((size_t)n * (size_t)n * sizeof *d);
    for (int32_t i = 0; i < n * n; i++)
        d[i] = AM_INF;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t x = i % g->width, y = i / g->width;
        if (am_pass(g, wk->passable, x, y))
            d[(size_t)i * n + i] = 0;
        for (int32_t dy = -1; dy <= 1; dy++)
            for (int32_t dx = -1; dx <= 1; dx++)
            {
                if (!dx && !dy)
                    continue;
                int64_t c = am_step(g, wk, x, y, dx, dy);
                if (c >= 0)
                    d[(size_t)i * n + (y + dy) * g->width + x + dx] = c;
            }
    }
    for (int32_t k = 0; k < n; k++)
        for (int32_t i = 0; i < n; i++)
        {
            int64_t ik = d[(size_t)i * n + k];
            if (ik == AM_INF)
                continue;
            for (int32_t j = 0; j < n; j++)
            {
                int64_t kj = d[(size_t)k * n + j];
                if (kj != AM_INF && ik + kj < d[(size_t)i * n + j])
                    d[(size_t)i * n + j] = ik + kj;
            }
        }
    return d;
}

/* Number of 4-connected passable regions (flood fill), skipping cell `skip`. */
static inline int32_t am_count_regions(const dg_grid *g, const uint8_t *pass, int32_t skip)
{
    int32_t n = g->width * g->height, regions = 0;
    int32_t *stack = malloc((size_t)n * sizeof *stack);
    uint8_t *seen = calloc((size_t)n, 1);
    for (int32_t s = 0; s < n; s++)
    {
        if (s == skip || seen[s] || !am_pass(g, pass, s % g->width, s / g->width))
            continue;
        regions++;
        int32_t top = 0;
        stack[top++] = s;
        seen[s] = 1;
        while (top > 0)
        {
            int32_t c = stack[--top], x = c % g->width, y = c / g->width;
            const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d], ni = ny * g->width + nx;
                if (am_pass(g, pass, nx, ny) && ni != skip && !seen[ni])
                {
                    seen[ni] = 1;
                    stack[top++] = ni;
                }
            }
        }
    }
    free(stack);
    free(seen);
    return regions;
}

/* A failing allocator: fails every allocation after `budget` successes. */
typedef struct am_budget {
    int32_t budget;
    int32_t live;
} am_budget;

static inline void *am_budget_alloc(void *user, size_t size)
{
    am_budget *b = user;
    if (b->budget <= 0)
        return NULL;
    b->budget--;
    b->live++;
    return malloc(size);
}

static inline void am_budget_free(void *user, void *ptr, size_t size)
{
    am_budget *b = user;
    (void)size;
    b->live--;
    free(ptr);
}

static inline dg_allocator am_budget_allocator(am_budget *b)
{
    dg_allocator a = {am_budget_alloc, am_budget_free, b};
    return a;
}

/* FNV-1a over bytes, for golden values of buffers. */
static inline uint64_t am_hash(const void *data, size_t size)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

#endif
