/* The infinite world as a registered generator: a window of the world centred
 * on the start room (0, 0), with the structured result every generator gives
 * (rooms, doors, markers, start, exit, metrics), so recipes, exports, the tool
 * and bindings treat it like the others. The world itself stays in world*.c. */
#include "internal.h"

typedef struct world_map {
    const dg_world *world;
    int64_t tx, ty;       /* world tile at the grid's (0, 0) */
    int64_t period;
    int64_t rx0, ry0;     /* first room of the window */
    int32_t cols, rows;   /* rooms of the window */
} world_map;

/* Index of room (x, y) in the result (rooms are listed row by row), or -1. */
static int32_t room_index(const world_map *m, int64_t x, int64_t y)
{
    if (x < m->rx0 || y < m->ry0 || x >= m->rx0 + m->cols || y >= m->ry0 + m->rows)
        return -1;
    return (int32_t)((y - m->ry0) * m->cols + (x - m->rx0));
}

static dg_ref room_ref(const world_map *m, int64_t x, int64_t y)
{
    dg_ref r = {DG_REF_NONE, -1};
    int32_t i = room_index(m, x, y);
    if (i >= 0)
        r.kind = DG_REF_ROOM, r.index = i;
    return r;
}

/* A room's interior (clipped to the grid; may be empty), kind and parent. */
static dg_status add_room(world_map *m, const dg_grid *g, const dg_world_room *info,
                          dg_result *r)
{
    int64_t rs = m->period - 1;
    int64_t x0 = info->x * m->period + 1 - m->tx, y0 = info->y * m->period + 1 - m->ty;
    int64_t x1 = DG_MIN(x0 + rs, (int64_t)g->width), y1 = DG_MIN(y0 + rs, (int64_t)g->height);
    x0 = DG_MAX(x0, 0);
    y0 = DG_MAX(y0, 0);
    dg_room room;
    room.rect.x = (int32_t)x0;
    room.rect.y = (int32_t)y0;
    room.rect.w = (int32_t)DG_MAX(x1 - x0, 0);
    room.rect.h = (int32_t)DG_MAX(y1 - y0, 0);
    room.kind = info->prefab >= 0 ? DG_ROOM_PREFAB : DG_ROOM_NORMAL;
    room.prefab = info->prefab;
    room.orientation = info->orientation;
    int64_t px = info->x + (info->parent == DG_SIDE_E) - (info->parent == DG_SIDE_W);
    int64_t py = info->y + (info->parent == DG_SIDE_S) - (info->parent == DG_SIDE_N);
    room.parent = info->parent ? room_index(m, px, py) : -1;
    return dgi_result_add_room(r, &room);
}

/* The north and west doors a room owns, where they fall inside the grid. */
static dg_status add_doors(world_map *m, const dg_grid *g, const dg_world_room *info,
                           dg_result *r)
{
    int64_t mid = (m->period - 1) / 2 + 1;
    for (int k = 0; k < 2; k++)
    {
        int32_t side = k ? DG_SIDE_W : DG_SIDE_N;
        if (!(info->doors & side))
            continue;
        int64_t x = info->x * m->period + (k ? 0 : mid) - m->tx;
        int64_t y = info->y * m->period + (k ? mid : 0) - m->ty;
        if (x < 0 || y < 0 || x >= g->width || y >= g->height)
            continue;
        dg_door d;
        d.pos.x = (int32_t)x;
        d.pos.y = (int32_t)y;
        d.a = room_ref(m, info->x, info->y);
        d.b = room_ref(m, info->x - k, info->y - !k);
        dg_status st = dgi_result_add_door(r, &d);
        if (st != DG_OK)
            return st;
    }
    return DG_OK;
}

static dg_status add_markers(world_map *m, const dg_grid *g, dg_result *r, const dg_allocator *a,
                             dg_diag *diag)
{
    int32_t count = 0;
    dg_status st = dg_world_render(m->world, m->tx, m->ty, (dg_grid *)g, NULL, 0, &count, diag);
    if (st != DG_OK || count == 0)
        return st;
    dg_world_marker *list = dgi_alloc(a, (size_t)count * sizeof *list);
    if (!list)
        return dgi_fail(diag, DG_E_NOMEM, "no memory for %d markers", (int)count);
    st = dg_world_render(m->world, m->tx, m->ty, (dg_grid *)g, list, count, &count, diag);
    for (int32_t i = 0; st == DG_OK && i < count; i++)
    {
        dg_marker mk;
        mk.pos.x = (int32_t)(list[i].x - m->tx);
        mk.pos.y = (int32_t)(list[i].y - m->ty);
        mk.kind = list[i].kind;
        mk.room = room_index(m, list[i].room_x, list[i].room_y);
        memcpy(mk.name, list[i].name, sizeof mk.name);
        mk.name[DG_NAME_MAX - 1] = '\0';
        st = dgi_result_add_marker(r, &mk);
    }
    dgi_free(a, list, (size_t)count * sizeof *list);
    return st;
}

static dg_status fill_result(world_map *m, const dg_grid *g, dg_result *r, const dg_allocator *a,
                             dg_diag *diag)
{
    dgi_result_reset(r);
    dg_status st = DG_OK;
    for (int64_t y = m->ry0; st == DG_OK && y < m->ry0 + m->rows; y++)
        for (int64_t x = m->rx0; st == DG_OK && x < m->rx0 + m->cols; x++)
        {
            dg_world_room info;
            st = dg_world_room_info(m->world, x, y, &info);
            if (st == DG_OK)
                st = add_room(m, g, &info, r);
            if (st == DG_OK)
                st = add_doors(m, g, &info, r);
        }
    if (st == DG_OK)
        st = add_markers(m, g, r, a, diag);
    if (st == DG_OK)
        st = dgi_result_finish(r, g, room_index(m, 0, 0), a);
    return st == DG_E_NOMEM ? dgi_fail(diag, st, "out of memory filling the result") : st;
}

/* Renders the window into a scratch grid and fills a fresh result, so that an
 * error (out of memory included) leaves the caller's grid and result as they were. */
static dg_status render_window(world_map *m, dg_grid *scratch, dg_result *fresh,
                               const dg_allocator *a, dg_diag *diag)
{
    dg_status st = dg_world_render(m->world, m->tx, m->ty, scratch, NULL, 0, NULL, diag);
    if (st == DG_OK && fresh)
        st = fill_result(m, scratch, fresh, a, diag);
    return st;
}

/* Copies a packed width x height buffer into the caller's grid (which has a stride). */
static void copy_cells(dg_grid *to, const uint8_t *from)
{
    for (int32_t y = 0; y < to->height; y++)
        memcpy(&DG_CELL(to, 0, y), from + (size_t)y * (size_t)to->width, (size_t)to->width);
}

dg_status dgi_world_map(dg_grid *grid, const dg_world_params *params, uint64_t seed,
                        const dg_prefab_set *prefabs, dg_result *result, const dg_allocator *a,
                        dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    dg_world_params p = *params;
    if (prefabs)
        p.furnishing = prefabs;
    dg_world *world = NULL;
    st = dg_world_create(&p, seed, a, &world, diag);
    if (st != DG_OK)
        return st;
    world_map m;
    m.world = world;
    m.period = dg_world_period(world);
    int64_t centre = 1 + (m.period - 1) / 2; /* middle of room (0, 0) */
    m.tx = centre - grid->width / 2;
    m.ty = centre - grid->height / 2;
    int64_t x1 = 0, y1 = 0;
    m.rx0 = m.ry0 = 0;
    dg_world_room_of_tile(world, m.tx, m.ty, &m.rx0, &m.ry0);
    dg_world_room_of_tile(world, m.tx + grid->width - 1, m.ty + grid->height - 1, &x1, &y1);
    m.cols = (int32_t)(x1 - m.rx0 + 1);
    m.rows = (int32_t)(y1 - m.ry0 + 1);
    size_t cells = (size_t)grid->width * (size_t)grid->height;
    uint8_t *buf = dgi_alloc(a, cells);
    if (!buf)
    {
        dg_world_free(world);
        return dgi_fail(diag, DG_E_NOMEM, "world: no memory for a %dx%d window",
                        (int)grid->width, (int)grid->height);
    }
    dg_grid scratch;
    dg_result fresh;
    if (result)
        dg_result_init(&fresh, result->allocator.alloc ? &result->allocator : NULL);
    st = dg_grid_init(&scratch, buf, grid->width, grid->height, 0);
    if (st == DG_OK)
        st = render_window(&m, &scratch, result ? &fresh : NULL, a, diag);
    if (st == DG_OK)
        copy_cells(grid, buf);
    if (result && st == DG_OK)
    {
        dg_result_free(result);
        *result = fresh;
    }
    else if (result)
        dg_result_free(&fresh);
    dgi_free(a, buf, cells);
    dg_world_free(world);
    return st;
}
