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

/* The grid's passability with a one-cell border of 0 around it, so the scans
 * below need no bounds checks; returns the number of passable cells. */
static int32_t build_mask(const dg_grid *g, uint8_t *mask, int32_t pw)
{
    int32_t floor = 0;
    memset(mask, 0, (size_t)pw);
    for (int32_t y = 0; y < g->height; y++)
    {
        uint8_t *row = mask + (size_t)(y + 1) * (size_t)pw;
        const uint8_t *cells = &DG_CELL(g, 0, y);
        row[0] = 0;
        for (int32_t x = 0; x < g->width; x++)
        {
            row[x + 1] = dgi_passable_default[cells[x]];
            floor += row[x + 1];
        }
        row[g->width + 1] = 0;
    }
    memset(mask + (size_t)(g->height + 1) * (size_t)pw, 0, (size_t)pw);
    return floor;
}

static int32_t count_dead_ends(const uint8_t *mask, int32_t pw, int32_t ph)
{
    int32_t count = 0;
    for (int32_t i = pw; i < (ph - 1) * pw; i++)
        count += mask[i] && mask[i - pw] + mask[i + 1] + mask[i + pw] + mask[i - 1] == 1;
    return count;
}

/* Breadth-first flood in N, E, S, W order (the order dgi_bfs uses, so the
 * farthest cell is the same); returns the last cell reached. */
static int32_t flood(const uint8_t *mask, int32_t *dist, int32_t *queue, int32_t pw,
                     int32_t start)
{
    const int32_t step[4] = {-pw, 1, pw, -1};
    int32_t head = 0, tail = 0, last = start;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail)
    {
        int32_t c = queue[head++];
        last = c;
        for (int d = 0; d < 4; d++)
        {
            int32_t nb = c + step[d];
            if (mask[nb] && dist[nb] < 0)
            {
                dist[nb] = dist[c] + 1;
                queue[tail++] = nb;
            }
        }
    }
    return last;
}

/* Padded index of the start cell: the centre of start_room if passable, else
 * the first passable cell in row order, or -1. */
static int32_t start_index(const dg_result *r, const dg_grid *g, const uint8_t *mask,
                           int32_t pw, int32_t start_room)
{
    if (start_room >= 0 && start_room < r->room_count)
    {
        dg_rect q = r->rooms[start_room].rect;
        int32_t x = q.x + q.w / 2, y = q.y + q.h / 2;
        if (x >= 0 && y >= 0 && x < g->width && y < g->height && mask[(y + 1) * pw + x + 1])
            return (y + 1) * pw + x + 1;
    }
    for (int32_t i = pw; i < (g->height + 1) * pw; i++)
        if (mask[i])
            return i;
    return -1;
}

static dg_point unpad(int32_t i, int32_t pw)
{
    dg_point p = {i % pw - 1, i / pw - 1};
    return p;
}

dg_status dgi_result_finish(dg_result *r, const dg_grid *g, int32_t start_room,
                            const dg_allocator *a)
{
    int32_t pw = g->width + 2, ph = g->height + 2;
    size_t padded = (size_t)pw * (size_t)ph;
    size_t bytes = padded * (sizeof(int32_t) * 2 + 1);
    int32_t *dist = dgi_alloc(a, bytes);
    if (!dist)
        return DG_E_NOMEM;
    int32_t *queue = dist + padded;
    uint8_t *mask = (uint8_t *)(queue + padded);
    dg_metrics *m = &r->metrics;
    m->cells = g->width * g->height;
    m->floor_cells = build_mask(g, mask, pw);
    m->floor_permille = (int32_t)((int64_t)m->floor_cells * 1000 / (int64_t)m->cells);
    m->rooms = r->room_count;
    m->corridors = r->corridor_count;
    m->doors = r->door_count;
    m->dead_ends = count_dead_ends(mask, pw, ph);
    memset(dist, 0xFF, padded * sizeof *dist); /* every entry -1: unreached */
    m->regions = 0;
    int32_t s = start_index(r, g, mask, pw, start_room);
    if (s >= 0)
    {
        int32_t e = flood(mask, dist, queue, pw, s);
        m->regions = 1;
        r->start = unpad(s, pw);
        r->exit = unpad(e, pw);
        r->start_room = dgi_result_room_at(r, r->start);
        r->exit_room = dgi_result_room_at(r, r->exit);
        for (int32_t i = pw; i < (ph - 1) * pw; i++)
            if (mask[i] && dist[i] < 0)
            {
                flood(mask, dist, queue, pw, i);
                m->regions++;
            }
    }
    dgi_free(a, dist, bytes);
    return DG_OK;
}
