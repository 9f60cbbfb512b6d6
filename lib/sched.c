/* The energy turn scheduler: a binary heap of (ready tick, id) kept inside the
 * caller's slots (slot i holds actor i and heap entry i), so nothing allocates. */
#include "internal.h"

static const uint8_t sched_magic[4] = {'D', 'G', 'S', 'C'}; /* the image's first bytes */
#define SCHED_VERSION 1u
#define SCHED_HEADER 20u /* magic, version, now, count */
#define SCHED_RECORD 20u /* id, speed, threshold, energy */

/* ---- the heap ---------------------------------------------------------------- */

/* (ready_a, id_a) < (ready_b, id_b), with bit operators so that compilers
 * emit no branch: the child choices of a sift are unpredictable. */
static inline int key_less(int64_t ready_a, int32_t id_a, int64_t ready_b, int32_t id_b)
{
    return (ready_a < ready_b) | ((ready_a == ready_b) & (id_a < id_b));
}

static inline void heap_put(dg_sched_actor *slots, int32_t pos, int64_t ready, int32_t id)
{
    slots[pos].heap_ready = ready;
    slots[pos].heap_id = id;
    slots[id].pos = pos;
}

/* Moves the entry (ready, id) up from hole `pos` to where it belongs. */
static void sift_up(dg_sched_actor *slots, int32_t pos, int64_t ready, int32_t id)
{
    while (pos > 0)
    {
        int32_t parent = (pos - 1) / 2;
        if (!key_less(ready, id, slots[parent].heap_ready, slots[parent].heap_id))
            break;
        heap_put(slots, pos, slots[parent].heap_ready, slots[parent].heap_id);
        pos = parent;
    }
    heap_put(slots, pos, ready, id);
}

/* Moves the entry (ready, id) down from hole `pos` in a heap of count entries.
 * Bottom-up: the hole first sinks to a leaf along the smaller children (one
 * comparison a level, no branch on its outcome), then the entry rises from
 * there; a turn's actor goes to the back of the queue, so it rarely rises far. */
static void sift_down(dg_sched_actor *slots, int32_t count, int32_t pos, int64_t ready,
                      int32_t id)
{
    int32_t child;
    while ((child = 2 * pos + 1) < count)
    {
        if (child + 1 < count)
            child += key_less(slots[child + 1].heap_ready, slots[child + 1].heap_id,
                              slots[child].heap_ready, slots[child].heap_id);
        heap_put(slots, pos, slots[child].heap_ready, slots[child].heap_id);
        pos = child;
    }
    sift_up(slots, pos, ready, id);
}

/* Puts (ready, id) at heap position pos and restores the heap order. */
static void heap_set(dg_sched *s, int32_t pos, int64_t ready, int32_t id)
{
    dg_sched_actor *slots = s->slots;
    int32_t parent = (pos - 1) / 2;
    if (pos > 0 && key_less(ready, id, slots[parent].heap_ready, slots[parent].heap_id))
        sift_up(slots, pos, ready, id);
    else
        sift_down(slots, s->count, pos, ready, id);
}

/* ---- actors ------------------------------------------------------------------- */

/* The tick at which an actor with `energy` at `now` reaches its threshold. */
static int64_t ready_tick(int64_t now, int64_t energy, int32_t speed, int32_t threshold)
{
    int64_t deficit = (int64_t)threshold - energy;
    if (deficit <= 0)
        return now;
    return now + (deficit + speed - 1) / speed;
}

/* Energy at `now`. Every actor's ready tick is >= now, so now - since is at
 * most the ticks its deficit needs and the product stays far from overflow. */
static int64_t energy_now(const dg_sched *s, const dg_sched_actor *a)
{
    return a->energy + (int64_t)a->speed * (s->now - a->since);
}

static int has_actor(const dg_sched *s, int32_t id)
{
    return id >= 0 && id < s->capacity && s->slots[id].speed > 0;
}

/* Sets actor id's energy at now and speed, and moves its heap entry. */
static void rekey(dg_sched *s, int32_t id, int64_t energy, int32_t speed)
{
    dg_sched_actor *a = &s->slots[id];
    a->energy = energy;
    a->since = s->now;
    a->speed = speed;
    heap_set(s, a->pos, ready_tick(s->now, energy, speed, a->threshold), id);
}

static int energy_ok(int64_t energy)
{
    return energy >= -DG_SCHED_ENERGY_MAX && energy <= DG_SCHED_ENERGY_MAX;
}

dg_status dg_sched_init(dg_sched *s, dg_sched_actor *storage, int32_t capacity)
{
    if (!s || !storage)
        return DG_E_NULL;
    if (capacity < 1)
        return DG_E_INVALID;
    memset(storage, 0, (size_t)capacity * sizeof *storage);
    s->slots = storage;
    s->capacity = capacity;
    s->count = 0;
    s->now = 0;
    return DG_OK;
}

dg_status dg_sched_add(dg_sched *s, int32_t id, int32_t speed, int32_t threshold,
                       int64_t energy)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (id < 0 || speed < 1 || threshold < 1)
        return DG_E_INVALID;
    if (!energy_ok(energy))
        return DG_E_LIMIT;
    if (id >= s->capacity)
        return DG_E_BUFFER;
    if (s->slots[id].speed > 0)
        return DG_E_INVALID; /* already present */
    dg_sched_actor *a = &s->slots[id];
    a->threshold = threshold;
    a->pos = s->count++;
    rekey(s, id, energy, speed);
    return DG_OK;
}

dg_status dg_sched_remove(dg_sched *s, int32_t id)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (!has_actor(s, id))
        return DG_E_INVALID;
    dg_sched_actor *slots = s->slots;
    int32_t pos = slots[id].pos, last = --s->count;
    if (pos != last) /* the last entry fills the hole */
        heap_set(s, pos, slots[last].heap_ready, slots[last].heap_id);
    slots[last].heap_ready = 0;
    slots[last].heap_id = 0;
    slots[id].energy = slots[id].since = 0;
    slots[id].speed = slots[id].threshold = slots[id].pos = 0;
    return DG_OK;
}

dg_status dg_sched_next(dg_sched *s, int32_t *id)
{
    if (!s || !s->slots || !id)
        return DG_E_NULL;
    if (s->count == 0)
        return DG_E_INVALID;
    if (s->slots[0].heap_ready > DG_SCHED_TIME_MAX)
        return DG_E_LIMIT;
    s->now = s->slots[0].heap_ready;
    *id = s->slots[0].heap_id;
    return DG_OK;
}

/* Adds delta (spend: -cost, rest: +amount) to actor id's energy. */
static dg_status add_energy(dg_sched *s, int32_t id, int64_t delta)
{
    if (!has_actor(s, id))
        return DG_E_INVALID;
    int64_t energy = energy_now(s, &s->slots[id]) + delta;
    if (!energy_ok(energy))
        return DG_E_LIMIT;
    rekey(s, id, energy, s->slots[id].speed);
    return DG_OK;
}

dg_status dg_sched_spend(dg_sched *s, int32_t id, int32_t cost)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (cost < 0)
        return DG_E_INVALID;
    return add_energy(s, id, -(int64_t)cost);
}

dg_status dg_sched_rest(dg_sched *s, int32_t id, int32_t amount)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (amount < 0)
        return DG_E_INVALID;
    return add_energy(s, id, amount);
}

dg_status dg_sched_set_speed(dg_sched *s, int32_t id, int32_t speed)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (speed < 1 || !has_actor(s, id))
        return DG_E_INVALID;
    rekey(s, id, energy_now(s, &s->slots[id]), speed);
    return DG_OK;
}

dg_status dg_sched_energy(const dg_sched *s, int32_t id, int64_t *energy)
{
    if (!s || !s->slots || !energy)
        return DG_E_NULL;
    if (!has_actor(s, id))
        return DG_E_INVALID;
    *energy = energy_now(s, &s->slots[id]);
    return DG_OK;
}

/* ---- save and load ------------------------------------------------------------ */

static uint8_t *put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return p + 4;
}

static uint8_t *put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return p + 8;
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Two's complement without implementation-defined conversions. */
static int32_t as_i32(uint32_t v)
{
    return v <= INT32_MAX ? (int32_t)v : (int32_t)(v - 0x80000000u) - INT32_MAX - 1;
}

static int64_t as_i64(uint64_t v)
{
    return v <= INT64_MAX ? (int64_t)v : (int64_t)(v - 0x8000000000000000u) - INT64_MAX - 1;
}

dg_status dg_sched_save(const dg_sched *s, void *data, size_t cap, size_t *size)
{
    if (!s || !s->slots || !size)
        return DG_E_NULL;
    size_t need = SCHED_HEADER + SCHED_RECORD * (size_t)s->count;
    *size = need;
    if (!data)
        return DG_OK;
    if (cap < need)
        return DG_E_BUFFER;
    uint8_t *p = data;
    memcpy(p, sched_magic, sizeof sched_magic);
    p = put_u32(p + 4, SCHED_VERSION);
    p = put_u64(p, (uint64_t)s->now);
    p = put_u32(p, (uint32_t)s->count);
    for (int32_t id = 0; id < s->capacity; id++) /* rising ids: one image per loop */
    {
        const dg_sched_actor *a = &s->slots[id];
        if (a->speed == 0)
            continue;
        p = put_u32(p, (uint32_t)id);
        p = put_u32(p, (uint32_t)a->speed);
        p = put_u32(p, (uint32_t)a->threshold);
        p = put_u64(p, (uint64_t)energy_now(s, a));
    }
    return DG_OK;
}

/* Checks a saved image without writing anything; *count gets its actors. */
static dg_status load_check(const uint8_t *p, size_t size, int32_t capacity, int32_t *count,
                            dg_diag *diag)
{
    if (size < SCHED_HEADER || memcmp(p, sched_magic, sizeof sched_magic) != 0)
        return dgi_fail(diag, DG_E_PARSE, "not a saved scheduler (%zu bytes)", size);
    if (get_u32(p + 4) != SCHED_VERSION)
        return dgi_fail(diag, DG_E_PARSE, "saved scheduler version %u, expected %u",
                        (unsigned)get_u32(p + 4), SCHED_VERSION);
    int64_t now = as_i64(get_u64(p + 8));
    int32_t n = as_i32(get_u32(p + 16));
    if (now < 0 || now > DG_SCHED_TIME_MAX)
        return dgi_fail(diag, DG_E_PARSE, "saved tick %lld out of range", (long long)now);
    if (n < 0 || (size - SCHED_HEADER) / SCHED_RECORD != (size_t)n ||
        (size - SCHED_HEADER) % SCHED_RECORD != 0)
        return dgi_fail(diag, DG_E_PARSE, "%zu bytes do not hold %d actors", size, (int)n);
    int32_t prev = -1;
    for (int32_t k = 0; k < n; k++)
    {
        const uint8_t *r = p + SCHED_HEADER + SCHED_RECORD * (size_t)k;
        int32_t id = as_i32(get_u32(r));
        if (id <= prev || as_i32(get_u32(r + 4)) < 1 || as_i32(get_u32(r + 8)) < 1 ||
            !energy_ok(as_i64(get_u64(r + 12))))
            return dgi_fail(diag, DG_E_PARSE, "saved actor %d (record %d) is corrupt",
                            (int)id, (int)k);
        prev = id;
    }
    if (prev >= capacity)
        return dgi_fail(diag, DG_E_BUFFER, "saved id %d needs capacity %d, storage has %d",
                        (int)prev, (int)prev + 1, (int)capacity);
    *count = n;
    return DG_OK;
}

dg_status dg_sched_load(dg_sched *s, dg_sched_actor *storage, int32_t capacity,
                        const void *data, size_t size, dg_diag *diag)
{
    if (!s || !storage || !data)
        return dgi_fail(diag, DG_E_NULL, "scheduler, storage or data is NULL");
    if (capacity < 1)
        return dgi_fail(diag, DG_E_INVALID, "capacity %d is below 1", (int)capacity);
    int32_t n = 0;
    dg_status st = load_check(data, size, capacity, &n, diag);
    if (st != DG_OK)
        return st;
    const uint8_t *p = data;
    dg_sched_init(s, storage, capacity);
    s->now = as_i64(get_u64(p + 8));
    for (int32_t k = 0; k < n; k++)
    {
        const uint8_t *r = p + SCHED_HEADER + SCHED_RECORD * (size_t)k;
        dg_sched_add(s, as_i32(get_u32(r)), as_i32(get_u32(r + 4)), as_i32(get_u32(r + 8)),
                     as_i64(get_u64(r + 12)));
    }
    dgi_diag_ok(diag);
    return DG_OK;
}
