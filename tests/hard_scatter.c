/* Hardening entry of the scatter generator (hard_gens[] in tests/hard.c). */
#include "hard.h"

#define SC_CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

/* 0: the defaults; 1: many small rooms close together, every loop candidate
 * joined, no border; 2: few large rooms far apart, a tree only, one candidate
 * per room (the second pass joins what the first could not). */
static void scatter_variant(dg_scatter_params *p, int variant)
{
    dg_scatter_defaults(p);
    switch (variant)
    {
    case 1:
        p->room_min_w = p->room_min_h = 1, p->room_max_w = 5, p->room_max_h = 4;
        p->gap = 1, p->neighbours = 10, p->loop_permille = 1000, p->border = 0;
        break;
    case 2:
        p->rooms_min = 3, p->rooms_max = 9;
        p->room_min_w = 6, p->room_max_w = 20, p->room_min_h = 4, p->room_max_h = 12;
        p->gap = 5, p->max_tries = 200, p->neighbours = 1, p->loop_permille = 0;
        break;
    default: break;
    }
}

dg_status hard_scatter_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                           dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                           uint64_t *extra)
{
    (void)ctx;
    dg_scatter_params p;
    scatter_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_scatter_generate(grid, &p, seed, result, alloc, diag);
}

dg_status hard_scatter_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            hard_fuzz_out *out)
{
    (void)ctx;
    dg_scatter_params p;
    scatter_variant(&p, hard_u8(in) % 3);
    p.rooms_min = hard_param(in, 0, 60);
    p.rooms_max = hard_param(in, 1, 200);
    p.room_min_w = hard_param(in, 1, 12);
    p.room_max_w = hard_param(in, 1, 40);
    p.room_min_h = hard_param(in, 1, 12);
    p.room_max_h = hard_param(in, 1, 40);
    p.gap = hard_param(in, 0, 33);
    p.max_tries = hard_param(in, 1, 100);
    p.neighbours = hard_param(in, 0, 17);
    p.loop_permille = hard_param(in, 0, 1000);
    p.border = hard_param(in, 0, 1);
    /* the header: metrics.attempts <= rooms requested * max_tries <= rooms_max * max_tries */
    int64_t rooms = SC_CLAMP(p.rooms_max, 0, DG_SCATTER_MAX_ROOMS), tries = SC_CLAMP(p.max_tries, 1, 1000);
    out->work_bound = rooms * tries; /* used only when the call succeeds */
    return dg_scatter_generate(grid, &p, seed, result, alloc, diag);
}
