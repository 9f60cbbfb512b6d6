/* The structured output every generator returns beside tiles. */
#include "core/core.h"

enum { CAP_ROOMS, CAP_CORRIDORS, CAP_DOORS, CAP_MARKERS, CAP_LABELS, CAP_EDGES };

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
    dgi_free(a, r->labels, (size_t)r->capacity_[CAP_LABELS] * sizeof *r->labels);
    dgi_free(a, r->corridor_edges,
             (size_t)r->capacity_[CAP_EDGES] * sizeof *r->corridor_edges);
    r->rooms = NULL;
    r->corridors = NULL;
    r->doors = NULL;
    r->markers = NULL;
    r->labels = NULL;
    r->corridor_edges = NULL;
    memset(r->capacity_, 0, sizeof r->capacity_);
    dgi_result_reset(r);
}

/* Empties the lists (keeping their memory) and the summary fields. */
void dgi_result_reset(dg_result *r)
{
    r->room_count = r->corridor_count = r->door_count = r->marker_count = 0;
    r->label_count = r->corridor_edge_count = 0;
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

static DEFINE_ADD(add_room, dg_room, rooms, room_count, CAP_ROOMS)
/* A room whose generator did not count its cells covers its whole rect. */
dg_status dgi_result_add_room(dg_result *r, const dg_room *room)
{
    dg_room copy = *room;
    if (copy.cells <= 0) /* saturated: a caller's result may hold any rect */
    {
        int64_t area = (int64_t)copy.rect.w * copy.rect.h;
        copy.cells = area > INT32_MAX ? INT32_MAX : area < 0 ? 0 : (int32_t)area;
    }
    return add_room(r, &copy);
}
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
        /* 64-bit: a caller's room may reach INT32_MAX */
        if (p.x >= q.x && p.y >= q.y && p.x < (int64_t)q.x + q.w && p.y < (int64_t)q.y + q.h)
            return i;
    }
    return -1;
}

int32_t dgi_result_room_near(const dg_result *r, dg_point p)
{
    int32_t in = dgi_result_room_at(r, p);
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; in < 0 && d < 4; d++)
        in = dgi_result_room_at(r, (dg_point){p.x + dx[d], p.y + dy[d]});
    return in;
}

/* Gives every room a label (role "", name "", node -1) unless each has one
 * already; labels set earlier are kept. */
dg_status dgi_result_label_rooms(dg_result *r)
{
    if (r->label_count == r->room_count)
        return DG_OK;
    void *arr = r->labels;
    dg_status st = dgi_grow(result_alloc(r), &arr, &r->capacity_[CAP_LABELS], r->room_count,
                            sizeof *r->labels);
    r->labels = arr;
    if (st != DG_OK)
        return st;
    for (int32_t i = r->label_count; i < r->room_count; i++)
    {
        memset(&r->labels[i], 0, sizeof r->labels[i]);
        r->labels[i].node = -1;
    }
    r->label_count = r->room_count;
    return DG_OK;
}

/* Gives every corridor an edge entry (-1) unless each has one already. */
dg_status dgi_result_edge_corridors(dg_result *r)
{
    if (r->corridor_edge_count == r->corridor_count)
        return DG_OK;
    void *arr = r->corridor_edges;
    dg_status st = dgi_grow(result_alloc(r), &arr, &r->capacity_[CAP_EDGES], r->corridor_count,
                            sizeof *r->corridor_edges);
    r->corridor_edges = arr;
    if (st != DG_OK)
        return st;
    for (int32_t i = r->corridor_edge_count; i < r->corridor_count; i++)
        r->corridor_edges[i] = -1;
    r->corridor_edge_count = r->corridor_count;
    return DG_OK;
}
