/* PCG32 (XSH RR) seeded through SplitMix64, plus stateless hashes. */
#include "internal.h"

uint64_t dg_hash64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t dg_hash_combine(uint64_t a, uint64_t b)
{
    return dg_hash64(dg_hash64(a) ^ (b + 0x632BE59BD9B4E019ULL));
}

void dg_rng_seed(dg_rng *rng, uint64_t seed, uint64_t stream)
{
    if (!rng)
        return;
    rng->state = 0;
    rng->inc = (dg_hash64(stream ^ 0xD1B54A32D192ED03ULL) << 1) | 1u;
    (void)dg_rng_next(rng);
    rng->state += dg_hash64(seed);
    (void)dg_rng_next(rng);
}

uint32_t dg_rng_next(dg_rng *rng)
{
    return rng ? dgi_rng_next(rng) : 0;
}

uint32_t dg_rng_below(dg_rng *rng, uint32_t bound)
{
    if (bound == 0 || !rng) /* a NULL rng would draw zeros and never leave the loop */
        return 0;
    return dgi_rng_below(rng, bound);
}

int32_t dg_rng_range(dg_rng *rng, int32_t lo, int32_t hi)
{
    if (hi <= lo)
        return lo;
    uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1);
    if (span == 0) /* the whole int32 range */
        return (int32_t)((int64_t)lo + (int64_t)dg_rng_next(rng));
    return (int32_t)((int64_t)lo + dg_rng_below(rng, span));
}

int dg_rng_chance(dg_rng *rng, int32_t permille)
{
    if (permille <= 0)
        return 0;
    if (permille >= 1000)
        return 1;
    if (!rng)
        return 0;
    return dg_rng_below(rng, 1000) < (uint32_t)permille;
}
