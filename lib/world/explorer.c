/* Lazy expansion over the infinite world: which rooms the player entered.
 *
 * Only entered rooms are stored, in an open-addressing hash table keyed by
 * coordinates. Whether a room is seen is derived from the world's doors and
 * the table, so nothing depends on the order of entry or on the table's
 * layout; saved lists are sorted by (y, x). */
#include "world/world.h"

#include <stdlib.h>

#define EMPTY_SLOT INT64_MIN /* x of a free slot: outside every room's range */
#define MIN_CAPACITY 16

typedef struct entered_room {
    int64_t x, y;
    uint64_t state;
} entered_room;

struct dg_explorer {
    const dg_world *world;
    dg_allocator allocator;
    entered_room *slots;
    int64_t capacity; /* power of two, or 0 before the first entry */
    int64_t count;
};

static uint64_t slot_hash(int64_t x, int64_t y)
{
    return dgi_hash64((uint64_t)x * 0x9E3779B97F4A7C15ULL ^ (uint64_t)y);
}

/* Index of (x, y) in slots, or of the free slot where it would go. */
static int64_t probe(const entered_room *slots, int64_t capacity, int64_t x, int64_t y)
{
    int64_t mask = capacity - 1;
    int64_t i = (int64_t)(slot_hash(x, y) & (uint64_t)mask);
    while (slots[i].x != EMPTY_SLOT && (slots[i].x != x || slots[i].y != y))
        i = (i + 1) & mask;
    return i;
}

static const entered_room *find(const dg_explorer *e, int64_t x, int64_t y)
{
    if (e->count == 0)
        return NULL;
    int64_t i = probe(e->slots, e->capacity, x, y);
    return e->slots[i].x == EMPTY_SLOT ? NULL : &e->slots[i];
}

static entered_room *new_table(const dg_allocator *a, int64_t capacity)
{
    if ((uint64_t)capacity > SIZE_MAX / sizeof(entered_room))
        return NULL;
    entered_room *slots = dgi_alloc(a, (size_t)capacity * sizeof *slots);
    if (slots)
        for (int64_t i = 0; i < capacity; i++)
            slots[i].x = EMPTY_SLOT;
    return slots;
}

/* Capacity (power of two) that keeps `count` rooms at most half full. */
static int64_t capacity_for(int64_t count)
{
    int64_t cap = MIN_CAPACITY;
    while (cap / 2 < count)
        cap *= 2;
    return cap;
}

static void table_insert(entered_room *slots, int64_t capacity, const entered_room *room)
{
    slots[probe(slots, capacity, room->x, room->y)] = *room;
}

static dg_status reserve(dg_explorer *e, int64_t count)
{
    int64_t cap = capacity_for(count);
    if (cap <= e->capacity)
        return DG_OK;
    entered_room *slots = new_table(&e->allocator, cap);
    if (!slots)
        return DG_E_NOMEM;
    for (int64_t i = 0; i < e->capacity; i++)
        if (e->slots[i].x != EMPTY_SLOT)
            table_insert(slots, cap, &e->slots[i]);
    dgi_free(&e->allocator, e->slots, (size_t)e->capacity * sizeof *slots);
    e->slots = slots;
    e->capacity = cap;
    return DG_OK;
}

dg_status dg_explorer_create(const dg_world *world, const dg_allocator *allocator,
                             dg_explorer **explorer)
{
    if (!world || !explorer)
        return DG_E_NULL;
    dg_explorer *e = dgi_calloc(allocator, 1, sizeof *e);
    if (!e)
        return DG_E_NOMEM;
    e->world = world;
    if (allocator)
        e->allocator = *allocator;
    *explorer = e;
    return DG_OK;
}

void dg_explorer_free(dg_explorer *explorer)
{
    if (!explorer)
        return;
    dg_allocator a = explorer->allocator;
    dgi_free(&a, explorer->slots, (size_t)explorer->capacity * sizeof(entered_room));
    dgi_free(&a, explorer, sizeof *explorer);
}

static void neighbour(int32_t side, int64_t *x, int64_t *y)
{
    *x += side == DG_SIDE_E ? 1 : side == DG_SIDE_W ? -1 : 0;
    *y += side == DG_SIDE_S ? 1 : side == DG_SIDE_N ? -1 : 0;
}

/* 1 if some entered room has a door to (x, y), whose door mask is doors. */
static int behind_entered_door(const dg_explorer *e, int64_t x, int64_t y, int32_t doors)
{
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
    {
        int64_t nx = x, ny = y;
        neighbour(side, &nx, &ny);
        if ((doors & side) && dgi_world_in_range(nx, ny) && find(e, nx, ny))
            return 1;
    }
    return 0;
}

int32_t dg_explorer_status(const dg_explorer *explorer, int64_t x, int64_t y)
{
    if (!explorer || !dgi_world_in_range(x, y))
        return DG_EXPLORE_UNSEEN;
    if (find(explorer, x, y))
        return DG_EXPLORE_VISITED;
    if (explorer->count > 0 &&
        behind_entered_door(explorer, x, y, dgi_world_doors(explorer->world, x, y)))
        return DG_EXPLORE_SEEN;
    return DG_EXPLORE_UNSEEN;
}

dg_status dg_explorer_enter(dg_explorer *explorer, int64_t x, int64_t y, dg_enter_result *out)
{
    if (!explorer)
        return DG_E_NULL;
    if (!dgi_world_in_range(x, y))
        return DG_E_INVALID;
    int first = find(explorer, x, y) == NULL;
    if (first && reserve(explorer, explorer->count + 1) != DG_OK)
        return DG_E_NOMEM;
    dg_enter_result r;
    memset(&r, 0, sizeof r);
    int32_t doors = dgi_world_doors(explorer->world, x, y);
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
    {
        int64_t nx = x, ny = y;
        neighbour(side, &nx, &ny);
        if (!(doors & side) || !dgi_world_in_range(nx, ny))
            continue;
        dg_reveal *v = &r.revealed[r.revealed_count++];
        v->x = nx;
        v->y = ny;
        v->side = side;
        v->is_new = first && dg_explorer_status(explorer, nx, ny) == DG_EXPLORE_UNSEEN;
    }
    if (first)
    {
        entered_room room = {x, y, 0};
        table_insert(explorer->slots, explorer->capacity, &room);
        explorer->count++;
    }
    r.first_visit = first;
    r.explored = explorer->count;
    if (out)
        *out = r;
    return DG_OK;
}

int64_t dg_explorer_count(const dg_explorer *explorer)
{
    return explorer ? explorer->count : 0;
}

dg_status dg_explorer_get_state(const dg_explorer *explorer, int64_t x, int64_t y,
                                uint64_t *state)
{
    if (!explorer || !state)
        return DG_E_NULL;
    const entered_room *room = dgi_world_in_range(x, y) ? find(explorer, x, y) : NULL;
    if (!room)
        return DG_E_INVALID;
    *state = room->state;
    return DG_OK;
}

dg_status dg_explorer_set_state(dg_explorer *explorer, int64_t x, int64_t y, uint64_t state)
{
    if (!explorer)
        return DG_E_NULL;
    const entered_room *room = dgi_world_in_range(x, y) ? find(explorer, x, y) : NULL;
    if (!room)
        return DG_E_INVALID;
    explorer->slots[room - explorer->slots].state = state;
    return DG_OK;
}

static int by_row_then_column(const void *pa, const void *pb)
{
    const dg_world_pos *a = pa, *b = pb;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return a->x < b->x ? -1 : a->x > b->x;
}

dg_status dg_explorer_save(const dg_explorer *explorer, dg_world_pos *rooms, uint64_t *states,
                           int64_t capacity, int64_t *count)
{
    if (!explorer || !count)
        return DG_E_NULL;
    if (capacity < 0 || (capacity > 0 && !rooms))
        return DG_E_INVALID;
    *count = explorer->count;
    if (!rooms && !states)
        return DG_OK;
    if (!rooms)
        return DG_E_NULL;
    if (capacity < explorer->count)
        return DG_E_BUFFER;
    int64_t n = 0;
    for (int64_t i = 0; i < explorer->capacity; i++)
        if (explorer->slots[i].x != EMPTY_SLOT)
        {
            rooms[n].x = explorer->slots[i].x;
            rooms[n].y = explorer->slots[i].y;
            n++;
        }
    qsort(rooms, (size_t)n, sizeof *rooms, by_row_then_column);
    if (states)
        for (int64_t i = 0; i < n; i++)
            states[i] = find(explorer, rooms[i].x, rooms[i].y)->state;
    return DG_OK;
}

dg_status dg_explorer_restore(dg_explorer *explorer, const dg_world_pos *rooms,
                              const uint64_t *states, int64_t count, dg_diag *diag)
{
    if (!explorer)
        return dgi_fail(diag, DG_E_NULL, "explorer is NULL");
    if (count < 0 || count > (int64_t)1 << 40)
        return dgi_fail(diag, DG_E_INVALID, "room count %lld out of range", (long long)count);
    if (count > 0 && !rooms)
        return dgi_fail(diag, DG_E_NULL, "rooms is NULL for %lld rooms", (long long)count);
    for (int64_t i = 0; i < count; i++)
        if (!dgi_world_in_range(rooms[i].x, rooms[i].y))
            return dgi_fail(diag, DG_E_INVALID, "room %lld (%lld, %lld) is out of range",
                            (long long)i, (long long)rooms[i].x, (long long)rooms[i].y);
    int64_t cap = capacity_for(count);
    entered_room *slots = new_table(&explorer->allocator, cap);
    if (!slots)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for %lld rooms", (long long)count);
    for (int64_t i = 0; i < count; i++)
    {
        int64_t at = probe(slots, cap, rooms[i].x, rooms[i].y);
        if (slots[at].x != EMPTY_SLOT)
        {
            dgi_free(&explorer->allocator, slots, (size_t)cap * sizeof *slots);
            return dgi_fail(diag, DG_E_INVALID, "room %lld (%lld, %lld) is listed twice",
                            (long long)i, (long long)rooms[i].x, (long long)rooms[i].y);
        }
        entered_room room = {rooms[i].x, rooms[i].y, states ? states[i] : 0};
        slots[at] = room;
    }
    dgi_free(&explorer->allocator, explorer->slots,
             (size_t)explorer->capacity * sizeof *explorer->slots);
    explorer->slots = slots;
    explorer->capacity = cap;
    explorer->count = count;
    dgi_diag_ok(diag);
    return DG_OK;
}
