/* Rendering a window of the infinite world into a caller grid.
 *
 * Every tile belongs to exactly one cell (for full rooms: its north wall,
 * west wall or interior; for varied rooms: the room with its own walls, the
 * corridors from its doors to the cell's edges and rock), and a cell's tiles
 * depend only on its own room, so any window, whole or in pieces, gets the
 * same bytes. */
#include "world/world.h"

#include <stdlib.h>

typedef struct window {
    int64_t x0, y0, x1, y1; /* tile bounds, inclusive */
} window;

static dg_status check_window(const dg_world *w, int64_t tx, int64_t ty, const dg_grid *grid,
                              window *win, dg_diag *diag)
{
    /* tiles of the rooms of the range: [-MAX * P, MAX * P + P - 1] */
    int64_t lo = -DG_WORLD_COORD_MAX * w->period;
    int64_t hi = DG_WORLD_COORD_MAX * w->period + w->period - 1;
    if (tx < lo || ty < lo || tx > hi - (grid->width - 1) || ty > hi - (grid->height - 1))
        return dgi_fail(diag, DG_E_INVALID,
                        "window at tile (%lld, %lld) of %dx%d leaves the world's range "
                        "(tiles %lld..%lld)",
                        (long long)tx, (long long)ty, (int)grid->width, (int)grid->height,
                        (long long)lo, (long long)hi);
    win->x0 = tx;
    win->y0 = ty;
    win->x1 = tx + grid->width - 1;
    win->y1 = ty + grid->height - 1;
    return DG_OK;
}

/* Calls visit(room, bx, by) for every room meeting the window, where (bx, by)
 * is the room's top-left tile. Rooms go in blocks so that each room's hash is
 * computed once for the doors of the whole block. */
typedef void (*room_visit)(const dg_world *w, const dg_world_room *room, int64_t bx, int64_t by,
                           void *ctx);

/* The door mask of room (x, y): the world's, or the override's in its range. */
static int32_t override_doors(const dgi_world_override *over, int64_t x, int64_t y, int32_t doors)
{
    if (!over || x < over->rx0 || y < over->ry0 || x >= over->rx0 + over->cols ||
        y >= over->ry0 + over->rows)
        return doors;
    return over->doors[(y - over->ry0) * over->cols + (x - over->rx0)];
}

static void for_rooms(const dg_world *w, const window *win, const dgi_world_override *over,
                      room_visit visit, room_visit left_out, void *ctx)
{
    int64_t p = w->period;
    int64_t rx0 = dgi_floor_div(win->x0, p), rx1 = dgi_floor_div(win->x1, p);
    int64_t ry0 = dgi_floor_div(win->y0, p), ry1 = dgi_floor_div(win->y1, p);
    uint8_t doors[DGI_WORLD_BLOCK * DGI_WORLD_BLOCK];
    dg_world_room room;
    for (int64_t by = ry0; by <= ry1; by += DGI_WORLD_BLOCK)
        for (int64_t bx = rx0; bx <= rx1; bx += DGI_WORLD_BLOCK)
        {
            int32_t cols = (int32_t)DG_MIN(rx1 - bx + 1, DGI_WORLD_BLOCK);
            int32_t rows = (int32_t)DG_MIN(ry1 - by + 1, DGI_WORLD_BLOCK);
            dgi_world_door_block(w, bx, by, cols, rows, doors);
            for (int32_t j = 0; j < rows; j++)
                for (int32_t i = 0; i < cols; i++)
                {
                    int32_t d = override_doors(over, bx + i, by + j, doors[j * cols + i]);
                    dgi_world_room_with(w, bx + i, by + j, d & 15, &room);
                    if (!(d & DGI_WORLD_LEFT_OUT))
                        visit(w, &room, (bx + i) * p, (by + j) * p, ctx);
                    else if (left_out)
                        left_out(w, &room, (bx + i) * p, (by + j) * p, ctx);
                }
        }
}

/* ---- markers ----------------------------------------------------------------- */

typedef struct marker_sink {
    const window *win;
    dg_world_marker *out; /* NULL: count only */
    int32_t count;
} marker_sink;

static void collect_markers(const dg_world *w, const dg_world_room *room, int64_t bx, int64_t by,
                           void *ctx)
{
    marker_sink *sink = ctx;
    if (room->marker_count == 0)
        return;
    int32_t slot = w->first_slot[room->prefab] + room->orientation * w->params.variants +
                   room->variant;
    for (int32_t i = w->marker_start[slot]; i < w->marker_start[slot + 1]; i++)
    {
        const dgi_furnish_marker *m = &w->markers[i];
        int64_t x = bx + 1 + m->x, y = by + 1 + m->y;
        if (x < sink->win->x0 || x > sink->win->x1 || y < sink->win->y0 || y > sink->win->y1)
            continue;
        if (sink->out)
        {
            dg_world_marker *o = &sink->out[sink->count];
            memset(o, 0, sizeof *o);
            o->x = x;
            o->y = y;
            o->room_x = room->x;
            o->room_y = room->y;
            o->kind = m->kind;
            o->difficulty = room->difficulty;
            memcpy(o->name, m->name, sizeof o->name);
        }
        sink->count++;
    }
}

/* Markers go out in (y, x) order of their tiles, so a window's list does not
 * depend on how rooms were visited; a tile holds at most one marker. */
static int by_tile(const void *pa, const void *pb)
{
    const dg_world_marker *a = pa, *b = pb;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return a->x < b->x ? -1 : a->x > b->x;
}

/* ---- tiles --------------------------------------------------------------------- */

typedef struct tile_sink {
    const window *win;
    dg_grid *grid;
} tile_sink;

/* The interior tiles of a furnished room, row-major, or NULL when bare. */
static const uint8_t *interior_of(const dg_world *w, const dg_world_room *room)
{
    if (room->prefab < 0)
        return NULL;
    int32_t slot = w->first_slot[room->prefab] + room->orientation * w->params.variants +
                   room->variant;
    return w->cells + (size_t)slot * (size_t)w->size * (size_t)w->size;
}

/* Writes columns lx0..lx1 of row ly (0..P-1) of a full room's P x P block:
 * the north wall row, or the west wall and the interior. */
static void full_room_row(const dg_world *w, const dg_world_room *room, const uint8_t *interior,
                     int32_t ly, int32_t lx0, int32_t lx1, uint8_t *dst)
{
    int32_t door_at = 1 + w->mid, n = lx1 - lx0 + 1;
    if (ly == 0)
    {
        memset(dst, DG_TILE_WALL, (size_t)n);
        if ((room->doors & DG_SIDE_N) && door_at >= lx0 && door_at <= lx1)
            dst[door_at - lx0] = DG_TILE_DOOR;
        return;
    }
    if (lx0 == 0)
    {
        *dst++ = (ly == door_at && (room->doors & DG_SIDE_W)) ? DG_TILE_DOOR : DG_TILE_WALL;
        lx0 = 1;
        n--;
    }
    if (!interior)
        memset(dst, DG_TILE_FLOOR, (size_t)n);
    else
        memcpy(dst, interior + (size_t)(ly - 1) * (size_t)w->size + (size_t)(lx0 - 1), (size_t)n);
}

/* ---- varied rooms: rock first, then each room's runs -------------------------- */

/* A cell being drawn: its tiles from row ly0 to ly1 and column lx0 to lx1
 * (cell coordinates) are in the window; `at` is the grid cell of the cell's
 * (0, 0) tile, which may lie outside the grid (it is only offset from). */
typedef struct cell_view {
    dg_grid *grid;
    int64_t gx, gy; /* grid coordinates of the cell's (0, 0) tile */
    int32_t lx0, lx1, ly0, ly1;
} cell_view;

/* Tiles x0..x1 of row y (cell coordinates) set to t, clipped to the window. */
static inline void run(const cell_view *v, int32_t y, int32_t x0, int32_t x1, uint8_t t)
{
    if (y < v->ly0 || y > v->ly1)
        return;
    x0 = DG_MAX(x0, v->lx0);
    x1 = DG_MIN(x1, v->lx1);
    if (x0 <= x1)
        memset(&DG_CELL(v->grid, v->gx + x0, v->gy + y), t, (size_t)x1 - (size_t)x0 + 1);
}

static inline void put(const cell_view *v, int32_t x, int32_t y, uint8_t t)
{
    if (y >= v->ly0 && y <= v->ly1 && x >= v->lx0 && x <= v->lx1)
        DG_CELL(v->grid, v->gx + x, v->gy + y) = t;
}

/* A corridor from row y0 to row y1 down column c, walls beside it. */
static inline void corridor_down(const cell_view *v, int32_t c, int32_t y0, int32_t y1)
{
    for (int32_t y = DG_MAX(y0, v->ly0); y <= DG_MIN(y1, v->ly1); y++)
    {
        put(v, c - 1, y, DG_TILE_WALL);
        put(v, c, y, DG_TILE_CORRIDOR);
        put(v, c + 1, y, DG_TILE_WALL);
    }
}

/* A corridor from column x0 to column x1 along row r, walls above and below. */
static void corridor_across(const cell_view *v, int32_t r, int32_t x0, int32_t x1)
{
    run(v, r - 1, x0, x1, DG_TILE_WALL);
    run(v, r, x0, x1, DG_TILE_CORRIDOR);
    run(v, r + 1, x0, x1, DG_TILE_WALL);
}

/* The room's walls, floor (or furnishing: furnished rooms are full) and doors. */
static void room_box(const dg_world *w, const dg_world_room *room, const uint8_t *interior,
                     const cell_view *v)
{
    int32_t x0 = room->inner_x - 1, x1 = room->inner_x + room->inner_w, c = 1 + w->mid;
    int32_t y0 = room->inner_y - 1, y1 = room->inner_y + room->inner_h;
    run(v, y0, x0, x1, DG_TILE_WALL);
    run(v, y1, x0, x1, DG_TILE_WALL);
    for (int32_t y = DG_MAX(y0 + 1, v->ly0); y <= DG_MIN(y1 - 1, v->ly1); y++)
    {
        put(v, x0, y, DG_TILE_WALL);
        put(v, x1, y, DG_TILE_WALL);
        int32_t a = DG_MAX(x0 + 1, v->lx0), b = DG_MIN(x1 - 1, v->lx1);
        if (a > b)
            continue;
        uint8_t *dst = &DG_CELL(v->grid, v->gx + a, v->gy + y);
        if (interior)
            memcpy(dst, interior + (size_t)(y - 1) * (size_t)w->size + (size_t)(a - 1),
                   (size_t)b - (size_t)a + 1);
        else
            memset(dst, DG_TILE_FLOOR, (size_t)b - (size_t)a + 1);
    }
    const int32_t sides[4][3] = {{DG_SIDE_N, c, y0}, {DG_SIDE_E, x1, c},
                                 {DG_SIDE_S, c, y1}, {DG_SIDE_W, x0, c}};
    for (int k = 0; k < 4; k++)
        if (room->doors & sides[k][0])
            put(v, sides[k][1], sides[k][2], DG_TILE_DOOR);
}

/* A varied room's cell on rock: its box and the corridors from its doors to
 * the cell's edges, where the neighbours' corridors or doors meet them. */
static void draw_varied(const dg_world *w, const dg_world_room *room, const uint8_t *interior,
                        const cell_view *v)
{
    int32_t c = 1 + w->mid, last = w->period - 1;
    room_box(w, room, interior, v);
    if (room->doors & DG_SIDE_N)
        corridor_down(v, c, 0, room->inner_y - 2);
    if (room->doors & DG_SIDE_S)
        corridor_down(v, c, room->inner_y + room->inner_h + 1, last);
    if (room->doors & DG_SIDE_W)
        corridor_across(v, c, 0, room->inner_x - 2);
    if (room->doors & DG_SIDE_E)
        corridor_across(v, c, room->inner_x + room->inner_w + 1, last);
}

/* draw_varied for a cell wholly inside the window: the same tiles, unclipped. */
static void draw_varied_whole(const dg_world *w, const dg_world_room *room,
                              const uint8_t *interior, uint8_t *base, size_t stride)
{
    int32_t x0 = room->inner_x - 1, x1 = room->inner_x + room->inner_w, c = 1 + w->mid;
    int32_t y0 = room->inner_y - 1, y1 = room->inner_y + room->inner_h, last = w->period - 1;
    size_t width = (size_t)x1 - (size_t)x0 + 1;
    memset(base + (size_t)y0 * stride + (size_t)x0, DG_TILE_WALL, width);
    memset(base + (size_t)y1 * stride + (size_t)x0, DG_TILE_WALL, width);
    for (int32_t y = y0 + 1; y < y1; y++)
    {
        uint8_t *row = base + (size_t)y * stride;
        row[x0] = row[x1] = DG_TILE_WALL;
        if (interior)
            memcpy(row + 1, interior + (size_t)(y - 1) * (size_t)w->size, (size_t)w->size);
        else
            memset(row + x0 + 1, DG_TILE_FLOOR, (size_t)room->inner_w);
    }
    int32_t from[4] = {0, x1 + 1, y1 + 1, 0}, to[4] = {y0 - 1, last, last, x0 - 1};
    for (int32_t k = 0, side = DG_SIDE_N; k < 4; k++, side <<= 1)
    {
        if (!(room->doors & side))
            continue;
        int across = side == DG_SIDE_E || side == DG_SIDE_W;
        base[(size_t)(across ? c : k == 0 ? y0 : y1) * stride +
             (size_t)(across ? (k == 1 ? x1 : x0) : c)] = DG_TILE_DOOR;
        for (int32_t i = from[k]; i <= to[k]; i++)
        {
            uint8_t *at = across ? base + (size_t)c * stride + (size_t)i
                                 : base + (size_t)i * stride + (size_t)c;
            size_t step = across ? stride : 1;
            at[-(ptrdiff_t)step] = at[step] = DG_TILE_WALL;
            *at = DG_TILE_CORRIDOR;
        }
    }
}

static void draw_room(const dg_world *w, const dg_world_room *room, int64_t bx, int64_t by,
                      void *ctx)
{
    tile_sink *sink = ctx;
    const window *win = sink->win;
    int64_t x0 = DG_MAX(bx, win->x0), x1 = DG_MIN(bx + w->period - 1, win->x1);
    int64_t y0 = DG_MAX(by, win->y0), y1 = DG_MIN(by + w->period - 1, win->y1);
    const uint8_t *interior = interior_of(w, room);
    int64_t p = w->period;
    if (w->params.room_min < w->size && x0 == bx && y0 == by && x1 == bx + p - 1 && y1 == by + p - 1)
    {
        draw_varied_whole(w, room, interior, &DG_CELL(sink->grid, x0 - win->x0, y0 - win->y0),
                          (size_t)sink->grid->stride);
        return;
    }
    if (w->params.room_min < w->size)
    {
        cell_view v = {sink->grid, bx - win->x0, by - win->y0, (int32_t)(x0 - bx),
                       (int32_t)(x1 - bx), (int32_t)(y0 - by), (int32_t)(y1 - by)};
        draw_varied(w, room, interior, &v);
        return;
    }
    for (int64_t y = y0; y <= y1; y++)
        full_room_row(w, room, interior, (int32_t)(y - by), (int32_t)(x0 - bx),
                      (int32_t)(x1 - bx), &DG_CELL(sink->grid, x0 - win->x0, y - win->y0));
}

/* A room left out: rock, and for full rooms their own (north and west) walls,
 * which are their neighbours' too. */
static void draw_left_out(const dg_world *w, const dg_world_room *room, int64_t bx, int64_t by,
                          void *ctx)
{
    (void)room;
    if (w->params.room_min < w->size) /* varied rooms draw on rock */
        return;
    tile_sink *sink = ctx;
    const window *win = sink->win;
    int64_t x0 = DG_MAX(bx, win->x0), x1 = DG_MIN(bx + w->period - 1, win->x1);
    int64_t y0 = DG_MAX(by, win->y0), y1 = DG_MIN(by + w->period - 1, win->y1);
    for (int64_t y = y0; y <= y1; y++)
    {
        uint8_t *row = &DG_CELL(sink->grid, x0 - win->x0, y - win->y0);
        memset(row, y == by ? DG_TILE_WALL : DG_TILE_VOID, (size_t)(x1 - x0 + 1));
        if (x0 == bx)
            row[0] = DG_TILE_WALL;
    }
}

dg_status dg_world_render(const dg_world *world, int64_t tx, int64_t ty, dg_grid *grid,
                          dg_world_marker *markers, int32_t capacity, int32_t *marker_count,
                          dg_diag *diag)
{
    return dgi_world_render(world, tx, ty, grid, NULL, markers, capacity, marker_count, diag);
}

dg_status dgi_world_render(const dg_world *world, int64_t tx, int64_t ty, dg_grid *grid,
                           const dgi_world_override *over, dg_world_marker *markers,
                           int32_t capacity, int32_t *marker_count, dg_diag *diag)
{
    if (!world)
        return dgi_fail(diag, DG_E_NULL, "world is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (capacity < 0 || (capacity > 0 && !markers))
        return dgi_fail(diag, DG_E_INVALID, "marker capacity %d without a matching buffer",
                        (int)capacity);
    window win;
    st = check_window(world, tx, ty, grid, &win, diag);
    if (st != DG_OK)
        return st;
    marker_sink msink = {&win, NULL, 0};
    if (world->marker_total > 0 && (markers || marker_count))
    {
        for_rooms(world, &win, over, collect_markers, NULL, &msink);
        if (marker_count)
            *marker_count = msink.count;
        if (markers && msink.count > capacity)
            return dgi_fail(diag, DG_E_BUFFER, "the window holds %d markers, capacity is %d",
                            (int)msink.count, (int)capacity);
        if (markers && msink.count > 0)
        {
            msink.out = markers;
            msink.count = 0;
            for_rooms(world, &win, over, collect_markers, NULL, &msink);
            qsort(markers, (size_t)msink.count, sizeof *markers, by_tile);
        }
    }
    else if (marker_count)
        *marker_count = 0;
    tile_sink tsink = {&win, grid};
    if (world->params.room_min < world->size) /* varied rooms draw on rock */
        for (int32_t y = 0; y < grid->height; y++)
            memset(&DG_CELL(grid, 0, y), DG_TILE_VOID, (size_t)grid->width);
    for_rooms(world, &win, over, draw_room, draw_left_out, &tsink);
    dgi_diag_ok(diag);
    return DG_OK;
}
