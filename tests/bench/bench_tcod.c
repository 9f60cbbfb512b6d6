/* The peer every generator is compared with: libtcod's BSP tree carved the
 * cheapest way libtcod allows for a map of rooms and corridors (no walls or
 * doors, connected). TCOD_bsp_split_recursive with bsp's leaf minimums and
 * aspect limit, then a post-order traversal that digs a room per leaf and an
 * L corridor between the two halves of every node into a byte grid. Built
 * only with DG_BENCH_TCOD (the Makefile defines it when libtcod-dev is here). */
#include "bench.h"

#ifdef DG_BENCH_TCOD
#include <libtcod/bsp.h>
#include <libtcod/mersenne.h>

#include <string.h>

typedef struct tcod_dig {
    uint8_t *cells;
    int32_t width;
    TCOD_random_t rng;
    int32_t stack[2 * 64]; /* (x, y) of one room cell per pending subtree */
    int32_t top;
} tcod_dig;

static void dig_rect(tcod_dig *d, int x0, int y0, int x1, int y1)
{
    int xa = x0 < x1 ? x0 : x1, xb = x0 < x1 ? x1 : x0;
    int ya = y0 < y1 ? y0 : y1, yb = y0 < y1 ? y1 : y0;
    for (int y = ya; y <= yb; y++)
        memset(d->cells + (size_t)y * (size_t)d->width + (size_t)xa, 1, (size_t)(xb - xa + 1));
}

/* A leaf digs a room (walls left as rock inside the leaf) and pushes a cell
 * of it; a node pops its two halves' cells and joins them with an L. */
static bool visit(TCOD_bsp_t *node, void *user)
{
    tcod_dig *d = user;
    if (TCOD_bsp_is_leaf(node))
    {
        int w = TCOD_random_get_int(d->rng, 3, node->w - 4);
        int h = TCOD_random_get_int(d->rng, 3, node->h - 4);
        int x = node->x + 2 + TCOD_random_get_int(d->rng, 0, node->w - 4 - w);
        int y = node->y + 2 + TCOD_random_get_int(d->rng, 0, node->h - 4 - h);
        dig_rect(d, x, y, x + w - 1, y + h - 1);
        if (d->top < 64)
        {
            d->stack[2 * d->top] = x + w / 2;
            d->stack[2 * d->top + 1] = y + h / 2;
        }
        d->top++;
        return true;
    }
    d->top--;
    int bx = d->stack[2 * d->top], by = d->stack[2 * d->top + 1];
    int ax = d->stack[2 * d->top - 2], ay = d->stack[2 * d->top - 1];
    dig_rect(d, ax, ay, bx, ay);
    dig_rect(d, bx, ay, bx, by);
    return true;
}

void bench_tcod_bsp(uint8_t *cells, int32_t w, int32_t h, uint32_t seed)
{
    tcod_dig d;
    memset(cells, 0, (size_t)w * (size_t)h);
    d.cells = cells;
    d.width = w;
    d.top = 0;
    d.rng = TCOD_random_new_from_seed(TCOD_RNG_CMWC, seed);
    TCOD_bsp_t *root = TCOD_bsp_new_with_size(0, 0, w, h);
    dg_bsp_params p;
    dg_bsp_defaults(&p);
    float ratio = (float)p.max_ratio / 100.0f;
    TCOD_bsp_split_recursive(root, d.rng, 48, p.leaf_min_w, p.leaf_min_h, ratio, ratio);
    TCOD_bsp_traverse_post_order(root, visit, &d);
    TCOD_bsp_delete(root);
    TCOD_random_delete(d.rng);
}
#endif
