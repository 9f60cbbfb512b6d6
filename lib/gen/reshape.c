/* Shaped rooms for the generators that carve rectangles first (bsp, chain):
 * a room's interior becomes its shape plus a straight passage from every
 * opening in its wall ring in to the shape's floor, so every door stays on
 * the room's outline and the room stays whole. The interior cells left out
 * become wall beside the floor and rock elsewhere. */
#include "gen/gen.h"

#define LEFT_OUT 0xFD /* an interior cell outside the shape, while the passages are kept */

/* From the interior cell (x, y) inward by (dx, dy): cells left out become
 * floor again until the shape's floor is reached. */
static void keep_passage(dg_grid *g, int32_t x, int32_t y, int32_t dx, int32_t dy)
{
    for (uint8_t *c = &DG_CELL(g, x, y); *c == LEFT_OUT; x += dx, y += dy, c = &DG_CELL(g, x, y))
        *c = DG_TILE_FLOOR;
}

static int floor_near(const dg_grid *g, dg_rect r, int32_t x, int32_t y)
{
    for (int32_t yy = DG_MAX(y - 1, r.y); yy <= DG_MIN(y + 1, r.y + r.h - 1); yy++)
        for (int32_t xx = DG_MAX(x - 1, r.x); xx <= DG_MIN(x + 1, r.x + r.w - 1); xx++)
            if (DG_CELL(g, xx, yy) == DG_TILE_FLOOR)
                return 1;
    return 0;
}

int32_t dgi_reshape_room(dg_grid *g, dg_rect r, const dgi_shape *s)
{
    for (int32_t y = 0; y < r.h; y++)
        for (int32_t x = 0; x < r.w; x++)
            if (!dgi_shape_has(s, x, y))
                DG_CELL(g, r.x + x, r.y + y) = LEFT_OUT;
    for (int32_t x = r.x; x < r.x + r.w; x++) /* openings in the ring's rows */
    {
        if (dg_tile_passable(DG_CELL(g, x, r.y - 1)))
            keep_passage(g, x, r.y, 0, 1);
        if (dg_tile_passable(DG_CELL(g, x, r.y + r.h)))
            keep_passage(g, x, r.y + r.h - 1, 0, -1);
    }
    for (int32_t y = r.y; y < r.y + r.h; y++) /* and in its columns */
    {
        if (dg_tile_passable(DG_CELL(g, r.x - 1, y)))
            keep_passage(g, r.x, y, 1, 0);
        if (dg_tile_passable(DG_CELL(g, r.x + r.w, y)))
            keep_passage(g, r.x + r.w - 1, y, -1, 0);
    }
    int32_t cells = 0;
    for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
        {
            uint8_t *c = &DG_CELL(g, x, y);
            if (*c == LEFT_OUT)
                *c = floor_near(g, r, x, y) ? (uint8_t)DG_TILE_WALL : (uint8_t)DG_TILE_VOID;
            cells += dg_tile_passable(*c);
        }
    return cells;
}
