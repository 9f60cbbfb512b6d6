/* Hardening entry of the bsp generator (hard_gens[] in tests/hard.c). */
#include "hard.h"

/* 0: the defaults; 1: small leaves and rooms, every cut looped, no doors,
 * square cuts only; 2: big leaves under a leaf and depth cap, wide margins,
 * full rooms, no loops. */
static void bsp_variant(dg_bsp_params *p, int variant)
{
    dg_bsp_defaults(p);
    switch (variant)
    {
    case 1:
        p->leaf_min_w = p->leaf_min_h = 5;
        p->room_min_w = p->room_min_h = 1;
        p->room_max_w = p->room_max_h = 4;
        p->room_fill = 0;
        p->max_ratio = 100;
        p->loop_chance = 1000;
        p->doors = DG_BSP_DOORS_NONE;
        break;
    case 2:
        p->leaf_min_w = 16, p->leaf_min_h = 12;
        p->margin = 3;
        p->max_leaves = 9, p->max_depth = 5;
        p->room_fill = 100;
        p->max_ratio = 400;
        p->loop_chance = 0;
        break;
    default: break;
    }
}

dg_status hard_bsp_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                       dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                       uint64_t *extra)
{
    (void)ctx;
    dg_bsp_params p;
    bsp_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_bsp_generate(grid, &p, seed, result, alloc, diag);
}

/* metrics.attempts is not used by bsp (its work is one pass per node and at
 * most 9 pairs of routes per cut), so no work bound is set. */
dg_status hard_bsp_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        hard_fuzz_out *out)
{
    (void)ctx;
    dg_bsp_params p;
    bsp_variant(&p, hard_u8(in) % 3);
    p.leaf_min_w = hard_param(in, 1, 40);
    p.leaf_min_h = hard_param(in, 1, 40);
    p.max_ratio = hard_param(in, 90, 1200);
    p.max_depth = hard_param(in, 0, 20);
    p.max_leaves = hard_param(in, 0, 200);
    p.room_min_w = hard_param(in, 0, 12);
    p.room_max_w = hard_param(in, 0, 40);
    p.room_min_h = hard_param(in, 0, 12);
    p.room_max_h = hard_param(in, 0, 40);
    p.room_fill = hard_param(in, -1, 101);
    p.margin = hard_param(in, 0, 6);
    p.loop_chance = hard_param(in, 0, 1000);
    p.doors = hard_param(in, 0, 2);
    out->work_bound = -1;
    return dg_bsp_generate(grid, &p, seed, result, alloc, diag);
}
