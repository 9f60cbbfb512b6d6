/* PCG32 (XSH RR) seeded through SplitMix64, plus stateless hashes. */
#include "core/core.h"

uint64_t dg_hash64(uint64_t x)
{
    return dgi_hash64(x);
}

uint64_t dg_hash_combine(uint64_t a, uint64_t b)
{
    return dgi_hash_combine(a, b);
}

void dg_rng_seed(dg_rng *rng, uint64_t seed, uint64_t stream)
{
    if (rng)
        dgi_rng_seed(rng, seed, stream);
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
    return rng ? dgi_rng_range(rng, lo, hi) : lo; /* a NULL rng draws zeros */
}

int dg_rng_chance(dg_rng *rng, int32_t permille)
{
    if (!rng)
        return permille >= 1000; /* a NULL rng draws nothing */
    return dgi_rng_chance(rng, permille);
}
