/* Hardening entry of the cave generator (hard_gens[] in tests/hard.c). */
#include "hard.h"

/* 0 the defaults; 1 a tight rule with wide tunnels, no border and many small
 * caves; 2 the largest cave only, a fill search and no smoothing. */
static void cave_variant(dg_cave_params *p, int variant)
{
    dg_cave_defaults(p);
    switch (variant)
    {
    case 1:
        p->fill_permille = 420;
        p->birth = 0x1C0; /* 6..8 */
        p->survival = 0x1F8; /* 3..8 */
        p->iterations = 6;
        p->smoothing = 2;
        p->min_region = 4;
        p->tunnel_width = 3;
        p->border = 0;
        break;
    case 2:
        p->connect = DG_CAVE_CONNECT_LARGEST;
        p->target_open_permille = 400;
        p->smoothing = 0;
        p->tunnel_width = 1;
        break;
    default: break;
    }
}

dg_status hard_cave_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra)
{
    (void)ctx;
    dg_cave_params p;
    cave_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_cave_generate(grid, &p, seed, result, alloc, diag);
}

dg_status hard_cave_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out)
{
    (void)ctx;
    dg_cave_params p;
    cave_variant(&p, hard_u8(in) % 3);
    p.fill_permille = hard_param(in, 0, 1000);
    p.birth = hard_param(in, 0, 511);
    p.survival = hard_param(in, 0, 511);
    p.iterations = hard_param(in, 0, 12);
    p.smoothing = hard_param(in, 0, 4);
    p.min_region = hard_param(in, 1, 200);
    p.connect = hard_param(in, 0, 1);
    p.tunnel_width = hard_param(in, 0, 4);
    p.target_open_permille = hard_param(in, 0, 1000);
    p.border = hard_param(in, 0, 1);
    out->work_bound = 0; /* the header: metrics.attempts is always 0 */
    return dg_cave_generate(grid, &p, seed, result, alloc, diag);
}
