/* The energy turn scheduler: a radix queue of ready ticks, with a bitset for
 * the ticks' ties, kept inside the caller's slots (slot i holds actor i and
 * word i of the queue), so nothing allocates. */
#include "core/core.h"

static const uint8_t sched_magic[4] = {'D', 'G', 'S', 'C'}; /* the image's first bytes */
#define SCHED_VERSION 1u
#define SCHED_HEADER 20u /* magic, version, now, count */
#define SCHED_RECORD 20u /* id, speed, threshold, energy */

/* ---- the queue's shared words ----------------------------------------------- */

/* The queue keeps its words in the slots' `word` fields (any slot, actor or
 * not): first a bitset of the actors ready at `now`, as 32-bit words in levels
 * (a set bit says the word one level down has a bit), then the heads of the
 * tick lists, then per tier a mask of its non-empty lists. */
typedef struct queue_shape {
    int32_t scan;        /* storage too small for the queue: next scans the slots */
    int32_t levels;      /* bitset levels; the last has one word */
    int32_t level_at[8]; /* first word of each level (32^7 > INT32_MAX) */
    int32_t digit_bits;  /* WIDE_BITS where every tier fits, else 1 */
    int32_t fan;         /* lists per tier, for digits 1..fan (2^digit_bits - 1) */
                         /* (a tier's mask has bit d - 1 for digit d) */
    int32_t tiers;       /* tiers of lists: every tick ahead has one */
    int32_t heads_at;    /* word of tier 0's list for digit 1 */
    int32_t masks_at;    /* word of tier 0's mask (fan > 1) */
} queue_shape;

#define WIDE_BITS 6     /* digits of this many bits where every tier fits */
#define WIDE_TIERS 11   /* 6-bit digits: 11 cover the 63 bits of ready ^ now */
#define NARROW_TIERS 63 /* 1-bit digits */
#define WIDE_WORDS (WIDE_TIERS * 63 + WIDE_TIERS) /* heads and masks */
#define SCAN_BELOW 67   /* fewer slots leave no room for 63 narrow tiers */

/* Fills *q for `capacity` slots (through a pointer: a returned struct costs a
 * stalled copy on every call). */
static inline void shape_of(queue_shape *q, int32_t capacity)
{
    q->scan = capacity < SCAN_BELOW;
    if (q->scan)
        return;
    int32_t at = 0, n = (int32_t)(((int64_t)capacity + 31) >> 5);
    q->levels = 0;
    for (;;)
    {
        q->level_at[q->levels++] = at;
        at += n;
        if (n == 1)
            break;
        n = (n + 31) >> 5;
    }
    q->heads_at = at;
    int32_t room = capacity - at;
    q->digit_bits = room >= WIDE_WORDS ? WIDE_BITS : 1;
    q->fan = (1 << q->digit_bits) - 1;
    q->tiers = room >= WIDE_WORDS ? WIDE_TIERS : NARROW_TIERS;
    q->masks_at = at + q->tiers * q->fan;
}

static int64_t word(const dg_sched *s, int32_t k) { return s->slots[k].word; }
static void set_word(dg_sched *s, int32_t k, int64_t v) { s->slots[k].word = v; }

/* Marks id as ready at `now`; a word that was empty gets its bit one level up. */
static void ready_set(dg_sched *s, const queue_shape *q, int32_t id)
{
    for (int32_t l = 0, i = id; l < q->levels; l++, i >>= 5)
    {
        int32_t k = q->level_at[l] + (i >> 5);
        int64_t old = word(s, k);
        set_word(s, k, old | (int64_t)1 << (i & 31));
        if (old != 0)
            return;
    }
}

/* Clears id's mark; a word that became empty clears its bit one level up. */
static void ready_clear(dg_sched *s, const queue_shape *q, int32_t id)
{
    for (int32_t l = 0, i = id; l < q->levels; l++, i >>= 5)
    {
        int32_t k = q->level_at[l] + (i >> 5);
        int64_t left = word(s, k) & ~((int64_t)1 << (i & 31));
        set_word(s, k, left);
        if (left != 0)
            return;
    }
}

/* The lowest id ready at `now`, or -1: one word a level, from the top. */
static int32_t ready_lowest(const dg_sched *s, const queue_shape *q)
{
    int32_t i = 0;
    for (int32_t l = q->levels - 1; l >= 0; l--)
    {
        int64_t w = word(s, q->level_at[l] + i);
        if (w == 0)
            return -1; /* only the top word can be empty here */
        i = (i << 5) + dgi_lowest_bit64((uint64_t)w);
    }
    return i;
}

/* ---- the radix queue ------------------------------------------------------------
 * Every actor's ready tick is >= now. An actor ready at `now` is in the bitset
 * (the lowest id goes first). Any other agrees with `now` above some digit of
 * its tick, its tier, and is in the list for (tier, its digit there). A
 * lower tier or digit holds lower ticks, so when nobody is ready `next` looks
 * only at the lowest non-empty list: `now` moves to the first tick that list
 * can hold and its actors fall to lower tiers, until some actor is ready. An
 * actor falls at most once a tier (11 with 6-bit digits) between two changes
 * of its own, so a turn costs O(1) amortised, whatever the number of actors. */

typedef struct list_at {
    int32_t tier, digit;
} list_at;

static int32_t bit_length(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? 64 - __builtin_clzll(x) : 0;
#else
    int32_t n = 0;
    for (; x; x >>= 1)
        n++;
    return n;
#endif
}

/* The list of an actor ready at `ready` > now. */
static list_at list_of(const dg_sched *s, const queue_shape *q, int64_t ready)
{
    int32_t top = bit_length((uint64_t)(ready ^ s->now)) - 1; /* highest bit that differs */
    list_at at;
    at.tier = q->digit_bits == 1 ? top : top / WIDE_BITS;
    at.digit = (int32_t)(ready >> (at.tier * q->digit_bits)) & q->fan;
    return at;
}

static int32_t head_word(const queue_shape *q, list_at at)
{
    return q->heads_at + at.tier * q->fan + at.digit - 1;
}

/* Sets or clears list `at`'s bit in its tier's mask (bit d - 1 for digit d). */
static void mark_list(dg_sched *s, const queue_shape *q, list_at at, int non_empty)
{
    int32_t k = q->masks_at + at.tier;
    if (at.digit < 1) /* digits of a list are 1..fan */
        return;
    int64_t bit = (int64_t)1 << (at.digit - 1);
    set_word(s, k, non_empty ? word(s, k) | bit : word(s, k) & ~bit);
}

/* Links are id + 1, so that 0 (what init writes) means none. */
static void link_actor(dg_sched *s, const queue_shape *q, int32_t id)
{
    dg_sched_actor *a = &s->slots[id];
    if (q->scan)
        return;
    if (a->ready == s->now)
    {
        ready_set(s, q, id);
        return;
    }
    list_at at = list_of(s, q, a->ready);
    int32_t k = head_word(q, at);
    int32_t head = (int32_t)word(s, k);
    a->prev = 0;
    a->next = head;
    if (head)
        s->slots[head - 1].prev = id + 1;
    else if (q->fan > 1)
        mark_list(s, q, at, 1);
    set_word(s, k, id + 1);
}

static void unlink_actor(dg_sched *s, const queue_shape *q, int32_t id)
{
    dg_sched_actor *a = &s->slots[id];
    if (q->scan)
        return;
    if (a->ready == s->now)
    {
        ready_clear(s, q, id);
        return;
    }
    list_at at = list_of(s, q, a->ready);
    if (a->next)
        s->slots[a->next - 1].prev = a->prev;
    if (a->prev)
        s->slots[a->prev - 1].next = a->next;
    else
        set_word(s, head_word(q, at), a->next);
    if (!a->prev && !a->next && q->fan > 1) /* the list is empty now */
        mark_list(s, q, at, 0);
}

/* The lowest non-empty list (with nobody ready and somebody present, there is one). */
static list_at lowest_list(const dg_sched *s, const queue_shape *q)
{
    list_at at = {0, 0};
    for (; at.tier < q->tiers; at.tier++)
    {
        int64_t mask = q->fan > 1 ? word(s, q->masks_at + at.tier)
                                  : word(s, q->heads_at + at.tier) != 0;
        if (mask)
        {
            at.digit = dgi_lowest_bit64((uint64_t)mask) + 1;
            break;
        }
    }
    return at;
}

/* The first tick list `at` can hold: `now` above the list's digit, the digit,
 * zeros below (the tick itself in tier 0). */
static int64_t list_start(const dg_sched *s, const queue_shape *q, list_at at)
{
    int32_t low = at.tier * q->digit_bits, high = low + q->digit_bits;
    uint64_t above = high >= 64 ? 0 : (uint64_t)s->now >> high << high;
    return (int64_t)(above | (uint64_t)at.digit << low);
}

/* The earliest tick in list `at`. */
static int64_t earliest_in(const dg_sched *s, const queue_shape *q, list_at at)
{
    int64_t best = INT64_MAX;
    for (int32_t i = (int32_t)word(s, head_word(q, at)); i; i = s->slots[i - 1].next)
        if (s->slots[i - 1].ready < best)
            best = s->slots[i - 1].ready;
    return best;
}

/* Whether list `at` holds no tick within DG_SCHED_TIME_MAX. */
static int past_time_max(const dg_sched *s, const queue_shape *q, list_at at)
{
    int64_t start = list_start(s, q, at);
    if (start > DG_SCHED_TIME_MAX)
        return 1;
    if (start + (((int64_t)1 << at.tier * q->digit_bits) - 1) <= DG_SCHED_TIME_MAX)
        return 0;
    return earliest_in(s, q, at) > DG_SCHED_TIME_MAX; /* the list straddles the limit */
}

/* Advances now to the first tick list `at` can hold (no pass to find its
 * earliest: the loop in `next` gets there), and moves the list's actors down. */
static void advance_to(dg_sched *s, const queue_shape *q, list_at at)
{
    s->now = list_start(s, q, at);
    int32_t k = head_word(q, at), i = (int32_t)word(s, k);
    set_word(s, k, 0);
    if (q->fan > 1)
        mark_list(s, q, at, 0);
    while (i) /* each lands in a lower tier or in the bitset */
    {
        int32_t following = s->slots[i - 1].next;
        link_actor(s, q, i - 1);
        i = following;
    }
}

/* ---- actors ------------------------------------------------------------------- */

/* The tick at which an actor with `energy` at `now` reaches its threshold. */
static int64_t ready_tick(int64_t now, int64_t energy, int32_t speed, int32_t threshold)
{
    int64_t deficit = (int64_t)threshold - energy;
    if (deficit <= 0)
        return now;
    uint64_t rounded_up = (uint64_t)deficit + (uint64_t)speed - 1;
    if (rounded_up <= UINT32_MAX) /* the usual case: a 32-bit division is much cheaper */
        return now + (uint32_t)rounded_up / (uint32_t)speed;
    return now + (int64_t)(rounded_up / (uint64_t)speed);
}

/* Energy at `now`, from the energy at its ready tick. Every ready tick is
 * >= now and at most the ticks a deficit needs away, so the product stays far
 * from overflow. */
static int64_t energy_now(const dg_sched *s, const dg_sched_actor *a)
{
    return a->energy - (int64_t)a->speed * (a->ready - s->now);
}

static int has_actor(const dg_sched *s, int32_t id)
{
    return id >= 0 && id < s->capacity && s->slots[id].speed > 0;
}

/* Gives actor id (in no list) `energy` at now and `speed`, and queues it. */
static void place(dg_sched *s, const queue_shape *q, int32_t id, int64_t energy, int32_t speed)
{
    dg_sched_actor *a = &s->slots[id];
    a->speed = speed;
    a->ready = ready_tick(s->now, energy, speed, a->threshold);
    a->energy = energy + (int64_t)speed * (a->ready - s->now);
    link_actor(s, q, id);
}

/* Sets actor id's energy at now and speed, and moves it in the queue. */
static void rekey(dg_sched *s, int32_t id, int64_t energy, int32_t speed)
{
    queue_shape q;
    shape_of(&q, s->capacity);
    unlink_actor(s, &q, id);
    place(s, &q, id, energy, speed);
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
    queue_shape q;
    shape_of(&q, s->capacity);
    s->slots[id].threshold = threshold;
    place(s, &q, id, energy, speed);
    s->count++;
    return DG_OK;
}

dg_status dg_sched_remove(dg_sched *s, int32_t id)
{
    if (!s || !s->slots)
        return DG_E_NULL;
    if (!has_actor(s, id))
        return DG_E_INVALID;
    queue_shape q;
    shape_of(&q, s->capacity);
    unlink_actor(s, &q, id);
    dg_sched_actor *a = &s->slots[id];
    a->ready = a->energy = 0; /* not `word`: it is the queue's */
    a->next = a->prev = a->speed = a->threshold = 0;
    s->count--;
    return DG_OK;
}

/* `next` for small storage: the lowest (ready tick, id) by a pass over the slots. */
static dg_status scan_next(dg_sched *s, int32_t *id)
{
    int32_t best = -1;
    for (int32_t i = 0; i < s->capacity; i++)
        if (s->slots[i].speed > 0 && (best < 0 || s->slots[i].ready < s->slots[best].ready))
            best = i;
    if (s->slots[best].ready > DG_SCHED_TIME_MAX)
        return DG_E_LIMIT;
    s->now = s->slots[best].ready;
    *id = best;
    return DG_OK;
}

dg_status dg_sched_next(dg_sched *s, int32_t *id)
{
    if (!s || !s->slots || !id)
        return DG_E_NULL;
    if (s->count == 0)
        return DG_E_INVALID;
    queue_shape q;
    shape_of(&q, s->capacity);
    if (q.scan)
        return scan_next(s, id);
    int32_t first = ready_lowest(s, &q);
    if (first < 0 && past_time_max(s, &q, lowest_list(s, &q)))
        return DG_E_LIMIT; /* the earliest tick is in that list: nothing changed */
    while (first < 0) /* nobody ready at now: on toward the earliest tick */
    {
        advance_to(s, &q, lowest_list(s, &q));
        first = ready_lowest(s, &q);
    }
    *id = first;
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
