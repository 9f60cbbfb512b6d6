/* The energy turn scheduler: turn order against a tick-by-tick reference,
 * determinism, save and load, bad input, thousands of actors. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* ---- the brute-force reference: plain arrays, one tick at a time ------------- */

typedef struct ref_actor {
    int present;
    int32_t speed, threshold;
    int64_t energy;
} ref_actor;

typedef struct ref_sched {
    ref_actor *a;
    int32_t capacity;
    int64_t now;
} ref_sched;

/* Lowest id at or over its threshold; else every actor gains a tick of energy. */
static int32_t ref_next(ref_sched *r)
{
    for (;;)
    {
        int any = 0;
        for (int32_t id = 0; id < r->capacity; id++)
        {
            any |= r->a[id].present;
            if (r->a[id].present && r->a[id].energy >= r->a[id].threshold)
                return id;
        }
        if (!any)
            return -1;
        r->now++;
        for (int32_t id = 0; id < r->capacity; id++)
            if (r->a[id].present)
                r->a[id].energy += r->a[id].speed;
    }
}

/* FNV-1a over the scheduler and its storage: "nothing changed" checks. */
static uint64_t sched_hash(const dg_sched *s, const dg_sched_actor *slots, int32_t capacity)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < sizeof *s; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    p = (const uint8_t *)slots;
    for (size_t i = 0; i < (size_t)capacity * sizeof *slots; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* Every actor's energy and presence agree with the reference. */
static int same_state(const dg_sched *s, const ref_sched *r)
{
    if (s->now != r->now)
        return 0;
    int32_t count = 0;
    for (int32_t id = 0; id < r->capacity; id++)
    {
        int64_t e = 0;
        dg_status st = dg_sched_energy(s, id, &e);
        if (r->a[id].present != (st == DG_OK) || (st == DG_OK && e != r->a[id].energy))
            return 0;
        count += r->a[id].present;
    }
    return count == s->count;
}

/* Saves s and loads it into fresh storage that replaces *slots. */
static int save_load(dg_sched *s, dg_sched_actor **slots, int32_t capacity)
{
    size_t size = 0;
    if (dg_sched_save(s, NULL, 0, &size) != DG_OK)
        return 0;
    uint8_t *buf = malloc(size);
    dg_sched_actor *fresh = malloc((size_t)capacity * sizeof *fresh);
    int ok = buf && fresh && dg_sched_save(s, buf, size, &size) == DG_OK;
    dg_sched loaded;
    ok = ok && dg_sched_load(&loaded, fresh, capacity, buf, size, NULL) == DG_OK;
    free(buf);
    if (!ok)
    {
        free(fresh);
        return 0;
    }
    free(*slots);
    *slots = fresh;
    *s = loaded;
    return 1;
}

/* One random operation on both schedulers; 0 when they disagree. */
static int random_op(dg_rng *rng, dg_sched *s, dg_sched_actor **slots, ref_sched *r,
                     int32_t *last)
{
    int32_t id = (int32_t)dg_rng_below(rng, (uint32_t)r->capacity);
    ref_actor *a = &r->a[id];
    uint32_t op = dg_rng_below(rng, 100);
    if (op < 40) /* next */
    {
        int32_t got = -1, want = ref_next(r);
        dg_status st = dg_sched_next(s, &got);
        *last = want;
        return want < 0 ? st == DG_E_INVALID : (st == DG_OK && got == want);
    }
    if (op < 65) /* spend, mostly by the actor whose turn it is */
    {
        if (*last >= 0 && op < 60)
            id = *last, a = &r->a[id];
        int32_t cost = dg_rng_range(rng, 0, 150);
        if (a->present)
            a->energy -= cost;
        return dg_sched_spend(s, id, cost) == (a->present ? DG_OK : DG_E_INVALID);
    }
    if (op < 70) /* rest */
    {
        int32_t amount = dg_rng_range(rng, 0, 30);
        if (a->present)
            a->energy += amount;
        return dg_sched_rest(s, id, amount) == (a->present ? DG_OK : DG_E_INVALID);
    }
    if (op < 82) /* add */
    {
        int32_t speed = dg_rng_range(rng, 1, 12), threshold = dg_rng_range(rng, 1, 100);
        int64_t energy = dg_rng_range(rng, -50, 120);
        dg_status want = a->present ? DG_E_INVALID : DG_OK;
        if (!a->present)
            *a = (ref_actor){1, speed, threshold, energy};
        return dg_sched_add(s, id, speed, threshold, energy) == want;
    }
    if (op < 92) /* remove */
    {
        dg_status want = a->present ? DG_OK : DG_E_INVALID;
        a->present = 0;
        return dg_sched_remove(s, id) == want;
    }
    if (op < 97) /* set_speed */
    {
        int32_t speed = dg_rng_range(rng, 1, 12);
        if (a->present)
            a->speed = speed;
        return dg_sched_set_speed(s, id, speed) == (a->present ? DG_OK : DG_E_INVALID);
    }
    return save_load(s, slots, r->capacity) && same_state(s, r);
}

/* Runs `ops` random operations from `seed` on `capacity` ids; 1 if they agree. */
static int run_against_reference(uint64_t seed, int32_t capacity, int32_t ops)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 19);
    ref_sched r = {calloc((size_t)capacity, sizeof(ref_actor)), capacity, 0};
    dg_sched_actor *slots = malloc((size_t)capacity * sizeof *slots);
    dg_sched s;
    int ok = r.a && slots && dg_sched_init(&s, slots, capacity) == DG_OK;
    int32_t last = -1;
    for (int32_t k = 0; k < ops && ok; k++)
    {
        ok = random_op(&rng, &s, &slots, &r, &last);
        if (ok && k % 16 == 0)
            ok = same_state(&s, &r);
        if (!ok)
            fprintf(stderr, "    seed %llu: disagreement at op %d\n", (unsigned long long)seed,
                    (int)k);
    }
    ok = ok && same_state(&s, &r);
    free(r.a);
    free(slots);
    return ok;
}

TEST(sched_matches_brute_force_reference)
{
    for (uint64_t seed = 1; seed <= 3000 && !test_failures(); seed++)
    {
        int32_t capacity = 1 + (int32_t)(seed % 24);
        CHECKF(run_against_reference(seed, capacity, 300), "seed %llu",
               (unsigned long long)seed);
    }
}

TEST(sched_matches_reference_with_many_actors)
{
    for (uint64_t seed = 100; seed < 104; seed++)
        CHECKF(run_against_reference(seed, 600, 20000), "seed %llu", (unsigned long long)seed);
}

/* ---- wide ranges: a reference that jumps straight to the next turn ---------- */

/* Lowest (ready tick, id), ticks by ceiling division; DG_E_LIMIT past the time
 * limit (nothing changes), DG_E_INVALID with nobody. */
static dg_status ref_jump_next(ref_sched *r, int32_t *next_id)
{
    int32_t best = -1;
    int64_t best_tick = 0;
    for (int32_t id = 0; id < r->capacity; id++)
    {
        const ref_actor *a = &r->a[id];
        if (!a->present)
            continue;
        int64_t deficit = a->threshold - a->energy;
        int64_t tick = deficit <= 0 ? r->now : r->now + (deficit + a->speed - 1) / a->speed;
        if (best < 0 || tick < best_tick)
            best = id, best_tick = tick;
    }
    if (best < 0)
        return DG_E_INVALID;
    if (best_tick > DG_SCHED_TIME_MAX)
        return DG_E_LIMIT;
    for (int32_t id = 0; id < r->capacity; id++)
        if (r->a[id].present)
            r->a[id].energy += r->a[id].speed * (best_tick - r->now);
    r->now = best_tick;
    *next_id = best;
    return DG_OK;
}

/* A value from one of three scales: small, middling or up to `max`. */
static int64_t any_scale(dg_rng *rng, int64_t max)
{
    uint64_t wide = ((uint64_t)dg_rng_next(rng) << 32) | dg_rng_next(rng);
    switch (dg_rng_below(rng, 3))
    {
    case 0:
        return dg_rng_range(rng, 0, 12);
    case 1:
        return dg_rng_range(rng, 0, 5000);
    default:
        return (int64_t)(wide % (uint64_t)(max + 1));
    }
}

/* Energy after adding delta, or the reference's DG_E_LIMIT. */
static dg_status ref_add_energy(ref_actor *a, int64_t delta)
{
    if (!a->present)
        return DG_E_INVALID;
    if (a->energy + delta > DG_SCHED_ENERGY_MAX || a->energy + delta < -DG_SCHED_ENERGY_MAX)
        return DG_E_LIMIT;
    a->energy += delta;
    return DG_OK;
}

/* One random operation with speeds, thresholds, energies and costs at every
 * scale (so ready ticks range from now to 2^41 ticks away); 0 on disagreement. */
static int random_wide_op(dg_rng *rng, dg_sched *s, dg_sched_actor **slots, ref_sched *r,
                          int32_t *last)
{
    int32_t id = (int32_t)dg_rng_below(rng, (uint32_t)r->capacity);
    ref_actor *a = &r->a[id];
    uint32_t op = dg_rng_below(rng, 100);
    if (op < 40) /* next */
    {
        int32_t got = -1, want = -1;
        dg_status want_st = ref_jump_next(r, &want), st = dg_sched_next(s, &got);
        *last = want;
        return st == want_st && (st != DG_OK || got == want);
    }
    if (op < 65) /* spend, mostly by the actor whose turn it is */
    {
        if (*last >= 0 && op < 60)
            id = *last, a = &r->a[id];
        int32_t cost = (int32_t)any_scale(rng, INT32_MAX);
        return dg_sched_spend(s, id, cost) == ref_add_energy(a, -(int64_t)cost);
    }
    if (op < 70) /* rest */
    {
        int32_t amount = (int32_t)any_scale(rng, INT32_MAX);
        return dg_sched_rest(s, id, amount) == ref_add_energy(a, amount);
    }
    if (op < 82) /* add */
    {
        int32_t speed = 1 + (int32_t)any_scale(rng, INT32_MAX - 1);
        int32_t threshold = 1 + (int32_t)any_scale(rng, INT32_MAX - 1);
        int64_t energy = any_scale(rng, 2 * DG_SCHED_ENERGY_MAX) - DG_SCHED_ENERGY_MAX;
        if (dg_rng_below(rng, 2))
            energy = any_scale(rng, 200) - 100;
        dg_status want = a->present ? DG_E_INVALID : DG_OK;
        if (!a->present)
            *a = (ref_actor){1, speed, threshold, energy};
        return dg_sched_add(s, id, speed, threshold, energy) == want;
    }
    if (op < 92) /* remove */
    {
        dg_status want = a->present ? DG_OK : DG_E_INVALID;
        a->present = 0;
        return dg_sched_remove(s, id) == want;
    }
    if (op < 97) /* set_speed */
    {
        int32_t speed = 1 + (int32_t)any_scale(rng, INT32_MAX - 1);
        if (a->present)
            a->speed = speed;
        return dg_sched_set_speed(s, id, speed) == (a->present ? DG_OK : DG_E_INVALID);
    }
    return save_load(s, slots, r->capacity) && same_state(s, r);
}

static int run_wide_against_reference(uint64_t seed, int32_t capacity, int32_t ops)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 23);
    ref_sched r = {calloc((size_t)capacity, sizeof(ref_actor)), capacity, 0};
    dg_sched_actor *slots = malloc((size_t)capacity * sizeof *slots);
    dg_sched s;
    int ok = r.a && slots && dg_sched_init(&s, slots, capacity) == DG_OK;
    int32_t last = -1;
    for (int32_t k = 0; k < ops && ok; k++)
    {
        ok = random_wide_op(&rng, &s, &slots, &r, &last);
        if (ok && k % 16 == 0)
            ok = same_state(&s, &r);
        if (!ok)
            fprintf(stderr, "    seed %llu capacity %d: disagreement at op %d\n",
                    (unsigned long long)seed, (int)capacity, (int)k);
    }
    ok = ok && same_state(&s, &r);
    free(r.a);
    free(slots);
    return ok;
}

/* Every way the storage is used: small storage scanned, 1-bit digits and 6-bit
 * digits, on both sides of where each starts (67 and 728 slots). */
TEST(sched_matches_jump_reference_at_every_scale)
{
    static const int32_t capacities[] = {1, 2, 3, 8, 24, 66, 67, 100, 300, 727, 728, 2000};
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++)
        for (uint64_t seed = 1; seed <= 40 && !test_failures(); seed++)
            CHECKF(run_wide_against_reference(seed, capacities[c], 2000), "capacity %d seed %llu",
                   (int)capacities[c], (unsigned long long)seed);
}

/* The bench's loop: 10,000 actors, speeds 1..100, costs 500..1500, against the
 * jump reference (which also checks every energy now and then). */
TEST(sched_matches_jump_reference_with_10000_actors)
{
    enum { N = 10000 };
    ref_sched r = {calloc(N, sizeof(ref_actor)), N, 0};
    dg_sched_actor *slots = malloc(N * sizeof *slots);
    dg_sched s;
    dg_rng rng;
    CHECK(r.a && slots && dg_sched_init(&s, slots, N) == DG_OK);
    dg_rng_seed(&rng, 31, 3);
    for (int32_t id = 0; r.a && slots && id < N; id++)
    {
        int32_t speed = dg_rng_range(&rng, 1, 100);
        r.a[id] = (ref_actor){1, speed, 1000, 0};
        CHECK(dg_sched_add(&s, id, speed, 1000, 0) == DG_OK);
    }
    for (int k = 0; r.a && slots && k < 40000 && !test_failures(); k++)
    {
        int32_t got = -1, want = -1;
        CHECK(ref_jump_next(&r, &want) == DG_OK && dg_sched_next(&s, &got) == DG_OK);
        CHECKF(got == want && s.now == r.now, "turn %d: %d vs %d", k, (int)got, (int)want);
        int32_t cost = dg_rng_range(&rng, 500, 1500);
        r.a[want].energy -= cost;
        CHECK(dg_sched_spend(&s, got, cost) == DG_OK);
        if (k % 4000 == 0)
            CHECK(same_state(&s, &r));
    }
    free(r.a);
    free(slots);
}

/* ---- fixed orders ------------------------------------------------------------- */

TEST(sched_known_order_and_ticks)
{
    /* speeds 2, 1, 4 toward thresholds 4, 2, 4: ready at ticks 2, 2, 1 */
    dg_sched_actor slots[3];
    dg_sched s;
    CHECK(dg_sched_init(&s, slots, 3) == DG_OK);
    CHECK(dg_sched_add(&s, 0, 2, 4, 0) == DG_OK);
    CHECK(dg_sched_add(&s, 1, 1, 2, 0) == DG_OK);
    CHECK(dg_sched_add(&s, 2, 4, 4, 0) == DG_OK);
    static const int32_t want_id[] = {2, 0, 1, 2, 2, 0, 1, 2};
    static const int64_t want_tick[] = {1, 2, 2, 2, 3, 4, 4, 4};
    static const int32_t cost[] = {4, 2, 4}; /* per id */
    for (int k = 0; k < 8; k++)
    {
        int32_t id = -1;
        CHECK(dg_sched_next(&s, &id) == DG_OK);
        CHECKF(id == want_id[k] && s.now == want_tick[k], "turn %d: id %d at %lld", k, (int)id,
               (long long)s.now);
        CHECK(dg_sched_spend(&s, id, cost[id]) == DG_OK);
    }
}

TEST(sched_unpaid_turn_repeats_and_rest_hastens)
{
    dg_sched_actor slots[2];
    dg_sched s;
    int32_t id = -1;
    CHECK(dg_sched_init(&s, slots, 2) == DG_OK);
    CHECK(dg_sched_add(&s, 1, 1, 10, 0) == DG_OK);
    CHECK(dg_sched_add(&s, 0, 1, 10, -5) == DG_OK);
    CHECK(dg_sched_next(&s, &id) == DG_OK && id == 1 && s.now == 10);
    CHECK(dg_sched_next(&s, &id) == DG_OK && id == 1 && s.now == 10);
    CHECK(dg_sched_spend(&s, 1, 10) == DG_OK);
    CHECK(dg_sched_rest(&s, 0, 5) == DG_OK); /* 0 now has 10: ready at once */
    CHECK(dg_sched_next(&s, &id) == DG_OK && id == 0 && s.now == 10);
}

/* The turn order of a fixed random loop, as a hash of (id, tick) pairs. */
static uint64_t order_hash(uint64_t seed, int32_t actors, int32_t turns)
{
    dg_sched_actor *slots = malloc((size_t)actors * sizeof *slots);
    dg_sched s;
    dg_rng rng;
    uint64_t h = 0xcbf29ce484222325ULL;
    if (!slots || dg_sched_init(&s, slots, actors) != DG_OK)
    {
        free(slots);
        return 0;
    }
    dg_rng_seed(&rng, seed, 7);
    for (int32_t id = actors - 1; id >= 0; id--) /* insertion order must not matter */
        dg_sched_add(&s, id, dg_rng_range(&rng, 1, 100), 1000, 0);
    for (int32_t k = 0; k < turns; k++)
    {
        int32_t id = -1;
        dg_sched_next(&s, &id);
        h = dg_hash_combine(h, ((uint64_t)s.now << 20) ^ (uint64_t)id);
        dg_sched_spend(&s, id, dg_rng_range(&rng, 500, 1500));
    }
    free(slots);
    return h;
}

TEST(sched_is_deterministic)
{
    uint64_t a = order_hash(42, 1000, 50000);
    CHECK(a != 0);
    CHECK(a == order_hash(42, 1000, 50000));
    CHECK(a != order_hash(43, 1000, 50000));
}

TEST(sched_insertion_order_does_not_matter)
{
    dg_sched_actor up[64], down[64];
    dg_sched s1, s2;
    CHECK(dg_sched_init(&s1, up, 64) == DG_OK && dg_sched_init(&s2, down, 64) == DG_OK);
    for (int32_t k = 0; k < 64; k++) /* all tie at every tick: ids decide */
    {
        CHECK(dg_sched_add(&s1, k, 3, 6, 0) == DG_OK);
        CHECK(dg_sched_add(&s2, 63 - k, 3, 6, 0) == DG_OK);
    }
    for (int k = 0; k < 640; k++)
    {
        int32_t a = -1, b = -2;
        CHECK(dg_sched_next(&s1, &a) == DG_OK && dg_sched_next(&s2, &b) == DG_OK);
        CHECKF(a == b && a == k % 64, "turn %d: %d vs %d", k, (int)a, (int)b);
        dg_sched_spend(&s1, a, 6);
        dg_sched_spend(&s2, b, 6);
    }
}

/* ---- save and load ------------------------------------------------------------ */

TEST(sched_restore_continues_identically)
{
    enum { N = 300 };
    dg_sched_actor a_slots[N], b_slots[N + 5];
    dg_sched a, b;
    dg_rng rng;
    dg_rng_seed(&rng, 5, 5);
    CHECK(dg_sched_init(&a, a_slots, N) == DG_OK);
    for (int32_t id = 0; id < N; id += 2)
        CHECK(dg_sched_add(&a, id, dg_rng_range(&rng, 1, 50), dg_rng_range(&rng, 1, 400), 0) ==
              DG_OK);
    for (int k = 0; k < 5000; k++) /* mid-sequence: energies negative and positive */
    {
        int32_t id = -1;
        dg_sched_next(&a, &id);
        dg_sched_spend(&a, id, dg_rng_range(&rng, 0, 700));
    }
    size_t size = 0, again = 0;
    CHECK(dg_sched_save(&a, NULL, 0, &size) == DG_OK && size == 20 + 20 * (size_t)a.count);
    uint8_t *buf = malloc(size), *buf2 = malloc(size);
    CHECK(buf && buf2);
    if (!buf || !buf2)
        return;
    CHECK(dg_sched_save(&a, buf, size, &again) == DG_OK && again == size);
    CHECK(memcmp(buf, "DGSC\1\0\0\0", 8) == 0);
    CHECK(dg_sched_load(&b, b_slots, N + 5, buf, size, NULL) == DG_OK);
    CHECK(dg_sched_save(&b, buf2, size, &again) == DG_OK && memcmp(buf, buf2, size) == 0);
    for (int k = 0; k < 20000; k++)
    {
        int32_t x = -1, y = -2;
        CHECK(dg_sched_next(&a, &x) == DG_OK && dg_sched_next(&b, &y) == DG_OK);
        CHECKF(x == y && a.now == b.now, "turn %d after restore: %d vs %d", k, (int)x, (int)y);
        int32_t cost = dg_rng_range(&rng, 0, 700);
        dg_sched_spend(&a, x, cost);
        dg_sched_spend(&b, y, cost);
        if (test_failures())
            break;
    }
    free(buf);
    free(buf2);
}

/* An image that the scheduler wrote when it kept a binary heap (15 actors, 300
 * turns in), and the hash of the 2000 turns that heap gave after loading it:
 * the format and the turns it leads to are unchanged, whatever the storage size. */
static const uint8_t heap_era_image[260] = {
        68, 71, 83, 67, 1, 0, 0, 0, 235, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0,
        1, 0, 0, 0, 17, 0, 0, 0, 101, 0, 0, 0, 68, 0, 0, 0, 0, 0, 0, 0,
        2, 0, 0, 0, 14, 0, 0, 0, 153, 0, 0, 0, 18, 0, 0, 0, 0, 0, 0, 0,
        3, 0, 0, 0, 15, 0, 0, 0, 184, 0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0,
        5, 0, 0, 0, 30, 0, 0, 0, 181, 0, 0, 0, 103, 0, 0, 0, 0, 0, 0, 0,
        6, 0, 0, 0, 23, 0, 0, 0, 155, 0, 0, 0, 157, 0, 0, 0, 0, 0, 0, 0,
        7, 0, 0, 0, 6, 0, 0, 0, 172, 0, 0, 0, 49, 0, 0, 0, 0, 0, 0, 0,
        9, 0, 0, 0, 16, 0, 0, 0, 114, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        10, 0, 0, 0, 13, 0, 0, 0, 83, 0, 0, 0, 92, 0, 0, 0, 0, 0, 0, 0,
        11, 0, 0, 0, 9, 0, 0, 0, 96, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
        13, 0, 0, 0, 16, 0, 0, 0, 104, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0,
        14, 0, 0, 0, 27, 0, 0, 0, 139, 0, 0, 0, 208, 255, 255, 255, 255, 255, 255, 255,
        15, 0, 0, 0, 2, 0, 0, 0, 190, 0, 0, 0, 167, 0, 0, 0, 0, 0, 0, 0,
};

static uint64_t turns_after_load(int32_t capacity)
{
    dg_sched_actor *slots = malloc((size_t)capacity * sizeof *slots);
    dg_sched s;
    dg_rng rng;
    uint64_t h = 0xcbf29ce484222325ULL;
    if (!slots || dg_sched_load(&s, slots, capacity, heap_era_image, sizeof heap_era_image,
                                NULL) != DG_OK)
    {
        free(slots);
        return 0;
    }
    dg_rng_seed(&rng, 7, 7);
    for (int k = 0; k < 2000; k++)
    {
        int32_t id = -1;
        dg_sched_next(&s, &id);
        h = dg_hash_combine(h, ((uint64_t)s.now << 20) ^ (uint64_t)id);
        dg_sched_spend(&s, id, dg_rng_range(&rng, 0, 300));
    }
    free(slots);
    return h;
}

TEST(sched_loads_an_older_image_with_the_same_turns)
{
    CHECK(turns_after_load(16) == 0x77f13a7da57a6d9fULL);
    CHECK(turns_after_load(100) == 0x77f13a7da57a6d9fULL);
    CHECK(turns_after_load(5000) == 0x77f13a7da57a6d9fULL);
}

TEST(sched_load_rejects_corrupt_data)
{
    dg_sched_actor slots[8], target[8];
    dg_sched s, t;
    uint8_t buf[20 + 20 * 3], bad[sizeof buf + 4];
    size_t size = 0;
    CHECK(dg_sched_init(&s, slots, 8) == DG_OK);
    CHECK(dg_sched_add(&s, 1, 3, 10, 0) == DG_OK && dg_sched_add(&s, 4, 2, 9, -7) == DG_OK);
    CHECK(dg_sched_add(&s, 7, 5, 12, 3) == DG_OK);
    CHECK(dg_sched_save(&s, buf, sizeof buf, &size) == DG_OK && size == sizeof buf);
    memset(&t, 0x33, sizeof t);
    memset(target, 0x44, sizeof target);
    uint64_t before = sched_hash(&t, target, 8);
    dg_diag diag;
    for (size_t cut = 0; cut < size; cut++) /* every truncation */
        CHECKF(dg_sched_load(&t, target, 8, buf, cut, &diag) == DG_E_PARSE, "cut %zu", cut);
    memcpy(bad, buf, size);
    memset(bad + size, 0, 4);
    CHECK(dg_sched_load(&t, target, 8, bad, size + 4, NULL) == DG_E_PARSE); /* trailing */
    struct { size_t at; uint8_t value; } breaks[] = {
        {0, 'X'},       /* magic */
        {4, 2},         /* version */
        {15, 0x80},     /* negative tick */
        {16, 4},        /* count */
        {20 + 20, 0},   /* ids not rising: second id 0 */
        {20 + 4, 0},    /* speed 0 */
        {20 + 8, 0},    /* threshold 0 */
        {20 + 19, 0x7F} /* energy far over the limit */
    };
    for (size_t k = 0; k < sizeof breaks / sizeof breaks[0]; k++)
    {
        memcpy(bad, buf, size);
        bad[breaks[k].at] = breaks[k].value;
        CHECKF(dg_sched_load(&t, target, 8, bad, size, &diag) == DG_E_PARSE, "break %zu", k);
        CHECK(diag.status == DG_E_PARSE && diag.message[0]);
    }
    CHECK(dg_sched_load(&t, target, 7, buf, size, &diag) == DG_E_BUFFER); /* id 7 */
    CHECK(sched_hash(&t, target, 8) == before);
    CHECK(dg_sched_load(&t, target, 8, buf, size, &diag) == DG_OK);
}

/* ---- bad input: a status, and not one byte changed ------------------------------ */

TEST(sched_bad_input_changes_nothing)
{
    dg_sched_actor slots[4];
    dg_sched s;
    int32_t id = -7;
    int64_t e = -7;
    uint8_t buf[256];
    size_t size = 999;
    memset(buf, 0, sizeof buf);
    CHECK(dg_sched_init(NULL, slots, 4) == DG_E_NULL);
    CHECK(dg_sched_init(&s, NULL, 4) == DG_E_NULL);
    CHECK(dg_sched_init(&s, slots, 0) == DG_E_INVALID);
    CHECK(dg_sched_init(&s, slots, -1) == DG_E_INVALID);
    CHECK(dg_sched_init(&s, slots, 4) == DG_OK);
    CHECK(dg_sched_next(&s, &id) == DG_E_INVALID && id == -7); /* empty */
    CHECK(dg_sched_add(&s, 1, 5, 10, 0) == DG_OK && dg_sched_add(&s, 3, 2, 4, 0) == DG_OK);
    CHECK(dg_sched_next(&s, &id) == DG_OK && dg_sched_spend(&s, id, 3) == DG_OK);
    uint64_t before = sched_hash(&s, slots, 4);
    struct { dg_status got, want; const char *what; } rows[] = {
        {dg_sched_add(NULL, 0, 1, 1, 0), DG_E_NULL, "add NULL"},
        {dg_sched_add(&s, -1, 1, 1, 0), DG_E_INVALID, "add id -1"},
        {dg_sched_add(&s, 4, 1, 1, 0), DG_E_BUFFER, "add id = capacity"},
        {dg_sched_add(&s, INT32_MAX, 1, 1, 0), DG_E_BUFFER, "add id INT32_MAX"},
        {dg_sched_add(&s, 1, 1, 1, 0), DG_E_INVALID, "add duplicate"},
        {dg_sched_add(&s, 0, 0, 1, 0), DG_E_INVALID, "add speed 0"},
        {dg_sched_add(&s, 0, -3, 1, 0), DG_E_INVALID, "add speed -3"},
        {dg_sched_add(&s, 0, 1, 0, 0), DG_E_INVALID, "add threshold 0"},
        {dg_sched_add(&s, 0, 1, INT32_MIN, 0), DG_E_INVALID, "add threshold INT32_MIN"},
        {dg_sched_add(&s, 0, 1, 1, DG_SCHED_ENERGY_MAX + 1), DG_E_LIMIT, "add energy"},
        {dg_sched_add(&s, 0, 1, 1, INT64_MIN), DG_E_LIMIT, "add energy INT64_MIN"},
        {dg_sched_remove(NULL, 1), DG_E_NULL, "remove NULL"},
        {dg_sched_remove(&s, 0), DG_E_INVALID, "remove unknown"},
        {dg_sched_remove(&s, -1), DG_E_INVALID, "remove -1"},
        {dg_sched_remove(&s, 4), DG_E_INVALID, "remove id = capacity"},
        {dg_sched_next(NULL, &id), DG_E_NULL, "next NULL"},
        {dg_sched_next(&s, NULL), DG_E_NULL, "next id NULL"},
        {dg_sched_spend(NULL, 1, 1), DG_E_NULL, "spend NULL"},
        {dg_sched_spend(&s, 2, 1), DG_E_INVALID, "spend unknown"},
        {dg_sched_spend(&s, 1, -1), DG_E_INVALID, "spend -1"},
        {dg_sched_rest(NULL, 1, 1), DG_E_NULL, "rest NULL"},
        {dg_sched_rest(&s, 0, 1), DG_E_INVALID, "rest unknown"},
        {dg_sched_rest(&s, 1, INT32_MIN), DG_E_INVALID, "rest negative"},
        {dg_sched_set_speed(NULL, 1, 1), DG_E_NULL, "set_speed NULL"},
        {dg_sched_set_speed(&s, 1, 0), DG_E_INVALID, "set_speed 0"},
        {dg_sched_set_speed(&s, 9, 1), DG_E_INVALID, "set_speed unknown"},
        {dg_sched_energy(NULL, 1, &e), DG_E_NULL, "energy NULL"},
        {dg_sched_energy(&s, 1, NULL), DG_E_NULL, "energy out NULL"},
        {dg_sched_energy(&s, 2, &e), DG_E_INVALID, "energy unknown"},
        {dg_sched_save(NULL, buf, sizeof buf, &size), DG_E_NULL, "save NULL"},
        {dg_sched_save(&s, buf, sizeof buf, NULL), DG_E_NULL, "save size NULL"},
        {dg_sched_save(&s, buf, 59, &size), DG_E_BUFFER, "save cap one short"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        CHECKF(rows[k].got == rows[k].want, "%s: got %d", rows[k].what, (int)rows[k].got);
    CHECK(sched_hash(&s, slots, 4) == before);
    CHECK(id != -7 && e == -7 && size == 60);
    for (size_t k = 0; k < sizeof buf; k++)
        CHECK(buf[k] == 0 || !"save wrote into a short buffer");
}

TEST(sched_energy_limits_change_nothing)
{
    dg_sched_actor slots[2];
    dg_sched s;
    CHECK(dg_sched_init(&s, slots, 2) == DG_OK);
    CHECK(dg_sched_add(&s, 0, INT32_MAX, INT32_MAX, -DG_SCHED_ENERGY_MAX) == DG_OK);
    CHECK(dg_sched_add(&s, 1, 1, 1, DG_SCHED_ENERGY_MAX) == DG_OK);
    uint64_t before = sched_hash(&s, slots, 2);
    CHECK(dg_sched_spend(&s, 0, 1) == DG_E_LIMIT);
    CHECK(dg_sched_rest(&s, 1, 1) == DG_E_LIMIT);
    CHECK(sched_hash(&s, slots, 2) == before);
    int32_t id = -1;
    CHECK(dg_sched_next(&s, &id) == DG_OK && id == 1 && s.now == 0);
    CHECK(dg_sched_remove(&s, 1) == DG_OK);
    /* a deficit of 2^40 + 2^31 - 1 at speed 2^31 - 1: ceil(deficit / speed) ticks */
    CHECK(dg_sched_next(&s, &id) == DG_OK && id == 0 && s.now == 514);
    int64_t e = 0;
    CHECK(dg_sched_energy(&s, 0, &e) == DG_OK && e >= INT32_MAX);
}

/* ---- thousands of actors ------------------------------------------------------- */

TEST(sched_thousands_of_actors_keep_heap_order)
{
    enum { N = 10000 };
    dg_sched_actor *slots = malloc(N * sizeof *slots);
    dg_sched s;
    dg_rng rng;
    CHECK(slots != NULL);
    if (!slots)
        return;
    dg_rng_seed(&rng, 9, 9);
    CHECK(dg_sched_init(&s, slots, N) == DG_OK);
    for (int32_t id = 0; id < N; id++)
        CHECK(dg_sched_add(&s, id, dg_rng_range(&rng, 1, 100), 100, 0) == DG_OK);
    for (int32_t id = 0; id < N; id += 3) /* remove a third, scattered through the heap */
        CHECK(dg_sched_remove(&s, id) == DG_OK);
    CHECK(s.count == N - (N + 2) / 3);
    int64_t prev_tick = 0;
    int32_t prev_id = -1;
    for (int k = 0; k < 100000 && !test_failures(); k++)
    {
        int32_t id = -1;
        CHECK(dg_sched_next(&s, &id) == DG_OK && id % 3 != 0);
        /* turns come in (tick, id) order while each actor pays the same threshold */
        CHECKF(s.now > prev_tick || (s.now == prev_tick && id > prev_id),
               "turn %d: %d at %lld after %d at %lld", k, (int)id, (long long)s.now,
               (int)prev_id, (long long)prev_tick);
        prev_tick = s.now;
        prev_id = id;
        CHECK(dg_sched_spend(&s, id, 100) == DG_OK);
    }
    free(slots);
}
