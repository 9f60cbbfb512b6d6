/* Hardening entry of the walk generator (hard_gens[] in tests/hard.c). */
#include "hard.h"

/* 0 = defaults; 1 = drunk walkers, rooms, mirrored left-right; 2 = many
 * tunnelers with long runs, four-fold symmetry and a step cap. */
static void walk_variant(dg_walk_params *p, int variant)
{
    dg_walk_defaults(p);
    switch (variant)
    {
    case 1:
        p->mode = DG_WALK_DRUNK, p->walkers = 1, p->target_floor = 450;
        p->room_chance = 20, p->room_min = 2, p->room_max = 5;
        p->symmetry = DG_WALK_SYM_X;
        break;
    case 2:
        p->walkers = 12, p->step_min = 6, p->step_max = 20, p->turn_chance = 900;
        p->room_chance = 300, p->room_min = 4, p->room_max = 9;
        p->symmetry = DG_WALK_SYM_XY, p->target_floor = 600, p->max_steps = 900;
        break;
    default: break;
    }
}

dg_status hard_walk_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra)
{
    (void)ctx;
    dg_walk_params p;
    walk_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_walk_generate(grid, &p, seed, result, alloc, diag);
}

dg_status hard_walk_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out)
{
    (void)ctx;
    dg_walk_params p;
    walk_variant(&p, hard_u8(in) % 3);
    p.mode = hard_param(in, 0, 1);
    p.target_floor = hard_param(in, 0, 1000);
    p.walkers = hard_param(in, 1, 40);
    p.step_min = hard_param(in, 0, 12);
    p.step_max = hard_param(in, 0, 40);
    p.turn_chance = hard_param(in, 0, 1000);
    p.room_chance = hard_param(in, 0, 1000);
    p.room_min = hard_param(in, 1, 12);
    p.room_max = hard_param(in, 1, 30);
    p.symmetry = hard_param(in, 0, 3);
    p.max_steps = hard_param(in, 0, 5000);
    /* docs/walk.md: steps <= max_steps, or 33 per cell inside the ring + 32 per walker */
    int64_t interior = (int64_t)(grid->width - 2) * (grid->height - 2);
    int64_t walkers = p.walkers < 1 ? 1 : p.walkers > DG_WALK_MAX_WALKERS ? DG_WALK_MAX_WALKERS : p.walkers;
    out->work_bound = p.max_steps > 0 ? p.max_steps : 33 * (interior > 0 ? interior : 0) + 32 * walkers;
    return dg_walk_generate(grid, &p, seed, result, alloc, diag);
}
