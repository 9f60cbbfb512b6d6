/* The turn scheduler: one dg_sched_next plus one dg_sched_spend (a whole
 * turn of the energy loop) at 10, 1000 and 10,000 actors of mixed speeds. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#define COSTS 4096 /* a power of two: costs[i & (COSTS - 1)] */

typedef struct sched_bench {
    dg_sched sched;
    int32_t costs[COSTS]; /* drawn before timing, so the rng is not measured */
} sched_bench;

static void turn_op(void *ctx, int64_t i)
{
    sched_bench *b = ctx;
    int32_t id = 0;
    dg_sched_next(&b->sched, &id);
    dg_sched_spend(&b->sched, id, b->costs[i & (COSTS - 1)]);
}

static void sched_row(int32_t actors, const char *label)
{
    sched_bench *b = malloc(sizeof *b);
    dg_sched_actor *slots = malloc((size_t)actors * sizeof *slots);
    if (!b || !slots || dg_sched_init(&b->sched, slots, actors) != DG_OK)
    {
        free(b);
        free(slots);
        return;
    }
    dg_rng rng;
    dg_rng_seed(&rng, 19, 1);
    for (int32_t id = 0; id < actors; id++) /* speeds 1..100 toward 1000 energy */
        dg_sched_add(&b->sched, id, dg_rng_range(&rng, 1, 100), 1000, 0);
    for (int32_t k = 0; k < COSTS; k++) /* cheap, normal and slow actions */
        b->costs[k] = dg_rng_range(&rng, 500, 1500);
    for (int64_t k = 0; k < 4 * (int64_t)actors; k++) /* leave the start's ties behind */
        turn_op(b, k);
    bench_run("sched next+spend", label, 0, 31, 20000, turn_op, b, NULL);
    free(slots);
    free(b);
}

BENCH(bench_sched)
{
    sched_row(10, "10");
    sched_row(1000, "1000");
    sched_row(10000, "10000");
}
