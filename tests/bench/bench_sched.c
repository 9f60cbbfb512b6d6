/* The turn scheduler: one dg_sched_next plus one dg_sched_spend for the actor
 * it returned (a whole turn of the energy loop) at 10, 1000 and 10,000 actors
 * of mixed speeds, and at 10,000 slow actors that rarely share a tick. Prints
 * the median and fastest of 31 runs of 20,000 turns, in ns per turn. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#define COSTS 4096 /* a power of two: costs[i & (COSTS - 1)] */
#define REPS 31
#define TURNS 20000

typedef struct sched_bench {
    dg_sched sched;
    int32_t costs[COSTS]; /* drawn before timing, so the rng is not measured */
    int64_t turn;
} sched_bench;

static void turn(sched_bench *b)
{
    int32_t id = 0;
    dg_sched_next(&b->sched, &id);
    dg_sched_spend(&b->sched, id, b->costs[b->turn++ & (COSTS - 1)]);
}

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Times REPS runs of TURNS turns; one row with the median and min ns per turn. */
static void time_turns(sched_bench *b, const char *label)
{
    int64_t t[REPS];
    for (int r = 0; r < REPS; r++)
    {
        int64_t t0 = bench_now_ns();
        for (int k = 0; k < TURNS; k++)
            turn(b);
        t[r] = bench_now_ns() - t0;
    }
    qsort(t, REPS, sizeof t[0], cmp_ns);
    printf("%-28s %-10s %9.1f ns %9.1f ns  per next+spend\n", "sched next+spend", label,
           (double)t[REPS / 2] / TURNS, (double)t[0] / TURNS);
    fflush(stdout);
}

/* `actors` actors of speeds 1..max_speed toward `threshold`, costs from
 * threshold/2 to 3*threshold/2 (cheap, normal and slow actions). */
static void sched_row(int32_t actors, int32_t max_speed, int32_t threshold, const char *label)
{
    sched_bench *b = calloc(1, sizeof *b);
    dg_sched_actor *slots = malloc((size_t)actors * sizeof *slots);
    if (!b || !slots || dg_sched_init(&b->sched, slots, actors) != DG_OK)
    {
        free(b);
        free(slots);
        return;
    }
    dg_rng rng;
    dg_rng_seed(&rng, 19, 1);
    for (int32_t id = 0; id < actors; id++)
        dg_sched_add(&b->sched, id, dg_rng_range(&rng, 1, max_speed), threshold, 0);
    for (int32_t k = 0; k < COSTS; k++)
        b->costs[k] = dg_rng_range(&rng, threshold / 2, threshold + threshold / 2);
    for (int64_t k = 0; k < 4 * (int64_t)actors + TURNS; k++) /* past the start's ties; warm */
        turn(b);
    time_turns(b, label);
    free(slots);
    free(b);
}

BENCH(bench_sched)
{
    sched_row(10, 100, 1000, "10");
    sched_row(1000, 100, 1000, "1000");
    sched_row(10000, 100, 1000, "10000");
    sched_row(10000, 3, 100000, "10000 slow"); /* about one turn per tick */
}
