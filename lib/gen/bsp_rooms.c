/* The binary space partition's rooms (bsp_state.h): one drawn in each
 * leaf, redrawn beside reserved cells, and the leaves painted row by row. */
#include "gen/bsp_state.h"

enum { SITE_DRAWS = 24 }; /* room draws in a leaf whose first room met reserved cells */

/* One side of a room: its size drawn from the room range capped by the
 * leaf's free space, at least room_fill percent of that space. */
static void draw_side(dg_rng *rng, int32_t leaf, int32_t margin, int32_t lo_p, int32_t hi_p,
                      int32_t fill, int32_t *pos, int32_t *len)
{
    int32_t avail = leaf - 2 - 2 * margin;
    int32_t hi = DG_MIN(hi_p, avail);
    int32_t lo = DG_MIN(DG_MAX(lo_p, (int32_t)((int64_t)avail * fill / 100)), hi);
    *len = lo + (int32_t)dgi_rng_below(rng, (uint32_t)(hi - lo + 1));
    *pos = 1 + margin + (int32_t)dgi_rng_below(rng, (uint32_t)(avail - *len + 1));
}

/* 1 if room r and its wall ring keep off every reserved cell. */
static int room_clear(const bsp_ctx *b, dg_rect r)
{
    for (int32_t y = r.y - 1; y <= r.y + r.h; y++)
        for (int32_t x = r.x - 1; x <= r.x + r.w; x++)
            if (dgi_mask_at(b->reserved, x, y))
                return 0;
    return 1;
}

/* A room beside the reserved cells of its leaf: smaller rooms (fill 0) at
 * random spots from the site stream; an empty rect (no room) if none fits. */
static dg_rect redraw_room(bsp_ctx *b, const bsp_node *n)
{
    const dg_bsp_params *p = b->p;
    for (int k = 0; k < SITE_DRAWS; k++)
    {
        dg_rect r;
        draw_side(&b->site, n->w, p->margin, p->room_min_w, p->room_max_w, 0, &r.x, &r.w);
        draw_side(&b->site, n->h, p->margin, p->room_min_h, p->room_max_h, 0, &r.y, &r.h);
        r.x += n->x, r.y += n->y;
        if (room_clear(b, r))
            return r;
    }
    dg_rect none = {0, 0, 0, 0};
    return none;
}

/* Depth first with nothing reserved, no room is dropped later and the
 * layout stream is not drawn again: the start room is drawn now (the draw
 * site_start would make) and found by dgi_bsp_join_all's walk, not by a pass of
 * its own. */
static void draw_start(bsp_ctx *b)
{
    b->start_back = -1;
    if (b->stacked && b->edge_rooms > 0)
        b->start_back = b->edge_rooms - 1 - (int32_t)dgi_rng_below(&b->layout, (uint32_t)b->edge_rooms);
}

void dgi_bsp_place_rooms(bsp_ctx *b)
{
    const dg_bsp_params *p = b->p;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child[0] >= 0)
            continue;
        dg_room *r = &b->rooms[n->first];
        int32_t ox, oy;
        draw_side(&b->layout, n->w, p->margin, p->room_min_w, p->room_max_w, p->room_fill, &ox,
                  &r->rect.w);
        draw_side(&b->layout, n->h, p->margin, p->room_min_h, p->room_max_h, p->room_fill, &oy,
                  &r->rect.h);
        r->rect.x = n->x + ox;
        r->rect.y = n->y + oy;
        if (b->reserved && !room_clear(b, r->rect))
            r->rect = redraw_room(b, n);
        b->edge_rooms += dgi_bsp_edge_room(b, n);
        r->kind = DG_ROOM_NORMAL;
        r->prefab = -1;
        r->orientation = 0;
        r->parent = -1;
        r->cells = r->rect.w * r->rect.h;
        r->shape = DG_SHAPE_RECT;
    }
    draw_start(b);
}

/* Paints a leaf row by row: rock, with its room's floor inside a wall ring. */
static void paint_leaf_rows(dg_grid *g, const bsp_node *n, dg_rect r)
{
    for (int32_t y = n->y; y < n->y + n->h; y++)
    {
        uint8_t *row = &DG_CELL(g, n->x, y);
        dgi_bsp_fill_span(row, n->w, DG_TILE_VOID);
        if (r.w == 0 || y < r.y - 1 || y > r.y + r.h) /* (no room: a leaf under reserved cells) */
            continue;
        uint8_t *in = &DG_CELL(g, r.x - 1, y);
        if (y == r.y - 1 || y == r.y + r.h)
            dgi_bsp_fill_span(in, r.w + 2, DG_TILE_WALL);
        else
        {
            dgi_bsp_fill_span(in + 1, r.w, DG_TILE_FLOOR);
            in[0] = in[r.w + 1] = DG_TILE_WALL;
        }
    }
}

enum { ROW_MAX = 64 }; /* leaves up to this wide are painted from row patterns */

/* n (8..ROW_MAX) bytes from src, sixteen at a time, the last sixteen (or
 * for fewer than sixteen, the last eight) overlapping. */
static void copy_row(uint8_t *dst, const uint8_t *src, int32_t n)
{
    if (n < 16)
    {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
        return;
    }
    for (int32_t i = 0; i + 16 <= n; i += 16)
        memcpy(dst + i, src + i, 16);
    memcpy(dst + n - 16, src + n - 16, 16);
}

/* `count` rows of n cells from row on, each a copy of src; returns the row after. */
static uint8_t *copy_rows(uint8_t *row, ptrdiff_t stride, int32_t count, const uint8_t *src, int32_t n)
{
    for (int32_t k = 0; k < count; k++, row += stride)
        copy_row(row, src, n);
    return row;
}

/* Paints a leaf: rock, with its room's floor inside a wall ring. Leaves tile
 * the board, so the leaves paint every cell once. Each row is one of three
 * patterns (rock, wall row, room row) made once per leaf, the rows in five
 * runs from the top: rock, wall, room, wall, rock. */
void dgi_bsp_paint_leaf(dg_grid *g, const bsp_node *n, dg_rect r)
{
    if (r.w == 0 || n->w < 8 || n->w > ROW_MAX)
    {
        paint_leaf_rows(g, n, r);
        return;
    }
    uint8_t pattern[3][ROW_MAX]; /* rock, wall, room */
    int32_t in = r.x - 1 - n->x;
    ptrdiff_t stride = g->stride;
    memset(pattern[0], DG_TILE_VOID, ROW_MAX);
    memset(pattern[1], DG_TILE_VOID, ROW_MAX);
    memset(pattern[1] + in, DG_TILE_WALL, (size_t)r.w + 2);
    memcpy(pattern[2], pattern[1], ROW_MAX);
    memset(pattern[2] + in + 1, DG_TILE_FLOOR, (size_t)r.w);
    uint8_t *row = &DG_CELL(g, n->x, n->y);
    row = copy_rows(row, stride, r.y - 1 - n->y, pattern[0], n->w);
    row = copy_rows(row, stride, 1, pattern[1], n->w);
    row = copy_rows(row, stride, r.h, pattern[2], n->w);
    row = copy_rows(row, stride, 1, pattern[1], n->w);
    copy_rows(row, stride, n->y + n->h - (r.y + r.h + 1), pattern[0], n->w);
}
