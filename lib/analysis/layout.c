/* The layout figures of dg_survey_map (docs/quality.md): how rooms open,
 * how much rock is left unused, and how corridors run. Each is a few passes
 * over the tiles and the result's room rects, no search, so the survey stays
 * cheap enough to judge thousands of maps in the tests. */
#include "analysis/analysis.h"

#define DGI_IN_ROOM 4 /* the flag of cells in a room rect other than a cave's */

static int open_at(const dg_grid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < g->width && y < g->height &&
           dgi_passable_default[DG_CELL(g, x, y)];
}

/* One wide across (dx, dy): open with closed cells on both sides along that axis. */
static int narrow(const dg_grid *g, int32_t x, int32_t y, int dx, int dy)
{
    return open_at(g, x, y) && !open_at(g, x - dx, y - dy) && !open_at(g, x + dx, y + dy);
}

/* Another passage one or two closed cells away in direction (dx, dy). */
static int partner(const dg_grid *g, int32_t x, int32_t y, int dx, int dy)
{
    if (open_at(g, x + dx, y + dy))
        return 0;
    return open_at(g, x + 2 * dx, y + 2 * dy) ||
           (!open_at(g, x + 2 * dx, y + 2 * dy) && open_at(g, x + 3 * dx, y + 3 * dy));
}

static uint8_t *flags_at(const dg_grid *g, uint8_t *flags, int32_t x, int32_t y)
{
    return flags + (size_t)y * (size_t)g->width + (size_t)x;
}

/* The side of the largest square holding no passable cell (one row of scratch). */
static int32_t empty_square(const dg_grid *g, int32_t *row)
{
    int32_t best = 0;
    for (int32_t x = 0; x < g->width; x++)
        row[x] = 0;
    for (int32_t y = 0; y < g->height; y++)
    {
        int32_t diag = 0; /* the row above, one column to the left */
        for (int32_t x = 0; x < g->width; x++)
        {
            int32_t up = row[x], left = x > 0 ? row[x - 1] : 0;
            row[x] = open_at(g, x, y) ? 0 : 1 + DG_MIN(DG_MIN(up, left), diag);
            diag = up;
            best = DG_MAX(best, row[x]);
        }
    }
    return best;
}

/* Straight one-wide runs outside the rooms (along (ax, ay)) and the parallel
 * marks (flag bit 1) of one-wide cells with a partner across, 3+ in a row. */
static void runs_along(const dg_grid *g, uint8_t *flags, int ax, int ay, dg_quality *q)
{
    int32_t lines = ax ? g->height : g->width, len = ax ? g->width : g->height;
    for (int32_t line = 0; line < lines; line++)
    {
        int32_t straight = 0, par = 0;
        for (int32_t i = 0; i <= len; i++)
        {
            int32_t x = ax ? i : line, y = ax ? line : i;
            int thin = i < len && narrow(g, x, y, ay, ax);
            straight = thin && !(*flags_at(g, flags, x, y) & DGI_IN_ROOM) ? straight + 1 : 0;
            q->straight_max = DG_MAX(q->straight_max, straight);
            if (thin && (partner(g, x, y, ay, ax) || partner(g, x, y, -ay, -ax)))
                par++;
            else
            {
                for (int32_t k = 1; par >= 3 && k <= par; k++)
                    *flags_at(g, flags, ax ? i - k : line, ax ? line : i - k) |= 2;
                par = 0;
            }
        }
    }
}

static int open_neighbours(const dg_grid *g, int32_t x, int32_t y)
{
    return open_at(g, x, y - 1) + open_at(g, x + 1, y) + open_at(g, x, y + 1) + open_at(g, x - 1, y);
}

/* Cells from the dead end (x, y) along its passage to the first cell with
 * three or more open neighbours or inside a room rect. */
static int32_t dead_end_length(const dg_grid *g, const uint8_t *flags, int32_t x, int32_t y)
{
    int32_t len = 0, px = -1, py = -1, limit = g->width * g->height;
    while (len < limit && !(flags[(size_t)y * (size_t)g->width + (size_t)x] & DGI_IN_ROOM) &&
           open_neighbours(g, x, y) <= 2)
    {
        int32_t nx = -1, ny = -1;
        len++;
        for (int d = 0; d < 4; d++)
        {
            int32_t cx = x + dgi_dir_dx[d], cy = y + dgi_dir_dy[d];
            if (open_at(g, cx, cy) && (cx != px || cy != py))
                nx = cx, ny = cy;
        }
        if (nx < 0)
            break; /* the passage ends at another dead end */
        px = x, py = y, x = nx, y = ny;
    }
    return len;
}

/* Open cells outside the rect 4-adjacent to its open cells, counted as runs
 * along each side: each run is one entrance. */
static int32_t entrances(const dg_grid *g, dg_rect q)
{
    int32_t count = 0;
    for (int side = 0; side < 4; side++)
    {
        int vertical = side >= 2; /* sides 0, 1: top, bottom; 2, 3: left, right */
        int32_t len = vertical ? q.h : q.w, run = 0;
        for (int32_t i = 0; i <= len; i++)
        {
            int32_t ix = vertical ? (side == 2 ? q.x : q.x + q.w - 1) : q.x + i;
            int32_t iy = vertical ? q.y + i : (side == 0 ? q.y : q.y + q.h - 1);
            int32_t ox = ix + (side == 2 ? -1 : side == 3 ? 1 : 0);
            int32_t oy = iy + (side == 0 ? -1 : side == 1 ? 1 : 0);
            int hit = i < len && open_at(g, ix, iy) && open_at(g, ox, oy);
            count += hit && !run;
            run = hit;
        }
    }
    return count;
}

static int has_closed_cell(const dg_grid *g, dg_rect q)
{
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x++)
            if (!open_at(g, x, y))
                return 1;
    return 0;
}

static dg_rect clip(const dg_grid *g, dg_rect q)
{
    dg_rect c;
    int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)g->width);
    int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)g->height);
    c.x = DG_MAX(q.x, 0);
    c.y = DG_MAX(q.y, 0);
    c.w = x1 > c.x ? (int32_t)(x1 - c.x) : 0;
    c.h = y1 > c.y ? (int32_t)(y1 - c.y) : 0;
    return c;
}

static void room_figures(const dg_grid *g, const dg_result *r, dg_quality *q)
{
    int32_t single = 0, shaped = 0, rooms = r ? r->room_count : 0;
    for (int32_t i = 0; i < rooms; i++)
    {
        dg_rect c = clip(g, r->rooms[i].rect);
        single += entrances(g, c) == 1;
        shaped += c.w > 0 && c.h > 0 && has_closed_cell(g, c);
    }
    if (rooms > 0)
    {
        q->single_entrance_permille = (int32_t)((int64_t)single * 1000 / rooms);
        q->shaped_room_permille = (int32_t)((int64_t)shaped * 1000 / rooms);
        q->loops_per_room_permille = (int32_t)((int64_t)q->loops * 1000 / rooms);
    }
}

void dgi_survey_layout(const dg_grid *g, const dg_result *r, uint8_t *flags, int32_t *row,
                       dg_quality *q)
{
    int64_t cells = (int64_t)g->width * g->height, side = empty_square(g, row);
    int32_t thin = 0, par = 0, outside = 0;
    q->empty_square_permille = (int32_t)(side * side * 1000 / cells);
    runs_along(g, flags, 1, 0, q);
    runs_along(g, flags, 0, 1, q);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (!open_at(g, x, y))
                continue;
            uint8_t f = *flags_at(g, flags, x, y);
            outside += !(f & DGI_IN_ROOM);
            if (narrow(g, x, y, 1, 0) || narrow(g, x, y, 0, 1))
                thin++, par += (f & 2) != 0;
            if (open_neighbours(g, x, y) == 1)
                q->dead_end_max = DG_MAX(q->dead_end_max, dead_end_length(g, flags, x, y));
        }
    q->parallel_permille = thin ? (int32_t)((int64_t)par * 1000 / thin) : 0;
    room_figures(g, r, q);
    if (r && r->room_count > 0)
        q->corridor_per_room_permille = (int32_t)((int64_t)outside * 1000 / r->room_count);
}
