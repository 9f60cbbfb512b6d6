/* The structured output every generator returns beside tiles. */
#include "internal.h"

enum { CAP_ROOMS, CAP_CORRIDORS, CAP_DOORS, CAP_MARKERS };

void dg_result_init(dg_result *r, const dg_allocator *allocator)
{
    if (!r)
        return;
    memset(r, 0, sizeof *r);
    if (allocator)
        r->allocator = *allocator;
    dgi_result_reset(r);
}

static const dg_allocator *result_alloc(const dg_result *r)
{
    return r->allocator.alloc ? &r->allocator : NULL;
}

void dg_result_free(dg_result *r)
{
    if (!r)
        return;
    const dg_allocator *a = result_alloc(r);
    dgi_free(a, r->rooms, (size_t)r->capacity_[CAP_ROOMS] * sizeof *r->rooms);
    dgi_free(a, r->corridors, (size_t)r->capacity_[CAP_CORRIDORS] * sizeof *r->corridors);
    dgi_free(a, r->doors, (size_t)r->capacity_[CAP_DOORS] * sizeof *r->doors);
    dgi_free(a, r->markers, (size_t)r->capacity_[CAP_MARKERS] * sizeof *r->markers);
    r->rooms = NULL;
    r->corridors = NULL;
    r->doors = NULL;
    r->markers = NULL;
    memset(r->capacity_, 0, sizeof r->capacity_);
    dgi_result_reset(r);
}

/* Empties the lists (keeping their memory) and the summary fields. */
void dgi_result_reset(dg_result *r)
{
    r->room_count = r->corridor_count = r->door_count = r->marker_count = 0;
    r->start.x = r->start.y = -1;
    r->exit.x = r->exit.y = -1;
    r->start_room = r->exit_room = -1;
    memset(&r->metrics, 0, sizeof r->metrics);
}

#define DEFINE_ADD(fn, type, field, count, cap)                                          \
    dg_status fn(dg_result *r, const type *item)                                         \
    {                                                                                    \
        void *arr = r->field;                                                            \
        dg_status st = dgi_grow(result_alloc(r), &arr, &r->capacity_[cap], r->count + 1, \
                                sizeof(type));                                           \
        r->field = arr;                                                                  \
        if (st != DG_OK)                                                                 \
            return st;                                                                   \
        r->field[r->count++] = *item;                                                    \
        return DG_OK;                                                                    \
    }

DEFINE_ADD(dgi_result_add_room, dg_room, rooms, room_count, CAP_ROOMS)
DEFINE_ADD(dgi_result_add_corridor, dg_corridor, corridors, corridor_count, CAP_CORRIDORS)
DEFINE_ADD(dgi_result_add_door, dg_door, doors, door_count, CAP_DOORS)
DEFINE_ADD(dgi_result_add_marker, dg_marker, markers, marker_count, CAP_MARKERS)

dg_status dgi_result_reserve(dg_result *r, int32_t rooms, int32_t corridors, int32_t doors,
                             int32_t markers)
{
    const int32_t need[4] = {rooms, corridors, doors, markers};
    void *arrays[4] = {r->rooms, r->corridors, r->doors, r->markers};
    const size_t elem[4] = {sizeof *r->rooms, sizeof *r->corridors, sizeof *r->doors,
                            sizeof *r->markers};
    dg_status st = DG_OK;
    for (int i = 0; i < 4 && st == DG_OK; i++)
        st = dgi_grow(result_alloc(r), &arrays[i], &r->capacity_[i], need[i], elem[i]);
    r->rooms = arrays[0];
    r->corridors = arrays[1];
    r->doors = arrays[2];
    r->markers = arrays[3];
    return st;
}

int32_t dgi_result_room_at(const dg_result *r, dg_point p)
{
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        if (p.x >= q.x && p.y >= q.y && p.x < q.x + q.w && p.y < q.y + q.h)
            return i;
    }
    return -1;
}

static int32_t first_passable(const dg_grid *g)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_tile_passable(DG_CELL(g, x, y)))
                return y * g->width + x;
    return -1;
}

static int32_t count_passable(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            n += dg_tile_passable(DG_CELL(g, x, y));
    return n;
}

static int32_t start_cell(const dg_result *r, const dg_grid *g, int32_t start_room)
{
    if (start_room >= 0 && start_room < r->room_count)
    {
        dg_rect q = r->rooms[start_room].rect;
        int32_t x = q.x + q.w / 2, y = q.y + q.h / 2;
        if (dg_tile_passable(dg_grid_get(g, x, y)))
            return y * g->width + x;
    }
    return first_passable(g);
}

dg_status dgi_result_finish(dg_result *r, const dg_grid *g, int32_t start_room,
                            const dg_allocator *a)
{
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *dist = dgi_alloc(a, n * sizeof *dist);
    int32_t *queue = dgi_alloc(a, n * sizeof *queue);
    if (!dist || !queue)
    {
        dgi_free(a, dist, n * sizeof *dist);
        dgi_free(a, queue, n * sizeof *queue);
        return DG_E_NOMEM;
    }
    dg_metrics *m = &r->metrics;
    m->cells = (int32_t)n;
    m->floor_cells = count_passable(g);
    m->floor_permille = (int32_t)((int64_t)m->floor_cells * 1000 / (int64_t)n);
    m->rooms = r->room_count;
    m->corridors = r->corridor_count;
    m->doors = r->door_count;
    m->dead_ends = dgi_count_dead_ends(g);
    m->regions = dgi_label_regions(g, dist, queue);
    int32_t s = start_cell(r, g, start_room);
    if (s >= 0)
    {
        int32_t e = dgi_bfs(g, s, dist, queue);
        r->start.x = s % g->width;
        r->start.y = s / g->width;
        r->exit.x = e % g->width;
        r->exit.y = e / g->width;
        r->start_room = dgi_result_room_at(r, r->start);
        r->exit_room = dgi_result_room_at(r, r->exit);
    }
    dgi_free(a, dist, n * sizeof *dist);
    dgi_free(a, queue, n * sizeof *queue);
    return DG_OK;
}
