/* The skeletons of the generators' own tests: a map's hash on a guarded grid,
 * and determinism with stride blindness. They report through CHECK, so they
 * live with the runner's tests, not in helpers.c, which the fuzz, replay and
 * determinism builds link without the runner. */
#include "hard.h"
#include "test.h"

uint64_t gen_hash(const char *name, const void *params, int32_t w, int32_t h, uint64_t seed,
                  int32_t pad, uint64_t *result_hash, int with_result)
{
    guarded_grid gg;
    dg_result r;
    dg_result_init(&r, NULL);
    if (!guard_make(&gg, w, h, pad))
        return 0;
    dg_status st = hard_gen_call(NULL, name, &gg.grid, params, seed, with_result ? &r : NULL, NULL,
                                 NULL);
    CHECKF(st == DG_OK, "%s %dx%d seed %llu: %s", name, (int)w, (int)h, (unsigned long long)seed,
           dg_status_str(st));
    CHECKF(guard_intact(&gg), "%s %dx%d pad %d: wrote outside the grid", name, (int)w, (int)h,
           (int)pad);
    uint64_t hash = dg_grid_hash(&gg.grid);
    if (result_hash)
        *result_hash = hard_result_hash(&r);
    guard_free(&gg);
    dg_result_free(&r);
    return hash;
}

const char *gen_deterministic(const char *name, const void *params, int32_t w, int32_t h,
                              int other_seed)
{
    uint64_t ra, rb;
    uint64_t a = gen_hash(name, params, w, h, 9, 0, &ra, 1);
    uint64_t b = gen_hash(name, params, w, h, 9, 17, &rb, 1);
    if (a != b || ra != rb)
        return "the stride changed the map";
    if (gen_hash(name, params, w, h, 9, 5, NULL, 0) != a)
        return "the result changed the tiles";
    if (other_seed && gen_hash(name, params, w, h, 10, 0, NULL, 1) == a &&
        (other_seed == 1 || gen_hash(name, params, w, h, 11, 0, NULL, 1) == a))
        return "another seed gave the same map";
    return NULL;
}
