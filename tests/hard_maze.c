/* Hardening entry of the maze generator (hard_gens[] in tests/hard.c). */
#include "hard.h"

/* 0: defaults (rooms and mazes); 1: a braided perfect maze of width 2 grown
 * at random from the centre; 2: division around small rooms, dead ends kept
 * in part, many extra doors. */
static void maze_variant(dg_maze_params *p, int variant)
{
    dg_maze_defaults(p);
    switch (variant)
    {
    case 1:
        p->layout = DG_MAZE_LAYOUT_PERFECT;
        p->newest = 300, p->straight = 0, p->braid = 600;
        p->corridor_width = 2, p->start = DG_MAZE_START_CENTRE;
        break;
    case 2:
        p->algorithm = DG_MAZE_DIVISION;
        p->room_tries = 40, p->room_min_w = p->room_min_h = 1;
        p->room_max_w = p->room_max_h = 5;
        p->extra_doors = 300, p->dead_ends = 500, p->braid = 200;
        break;
    default: break;
    }
}

dg_status hard_maze_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra)
{
    (void)ctx;
    dg_maze_params p;
    maze_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_maze_generate(grid, &p, seed, result, alloc, diag);
}

dg_status hard_maze_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out)
{
    (void)ctx;
    dg_maze_params p;
    maze_variant(&p, hard_u8(in) % 3);
    p.layout = hard_param(in, 0, 1);
    p.algorithm = hard_param(in, 0, 1);
    p.newest = hard_param(in, 0, 1000);
    p.straight = hard_param(in, 0, 1000);
    p.braid = hard_param(in, 0, 1000);
    p.corridor_width = hard_param(in, 1, 6);
    p.room_tries = hard_param(in, 0, 400);
    p.room_min_w = hard_param(in, 1, 12);
    p.room_max_w = hard_param(in, 1, 30);
    p.room_min_h = hard_param(in, 1, 12);
    p.room_max_h = hard_param(in, 1, 30);
    p.extra_doors = hard_param(in, 0, 1000);
    p.dead_ends = hard_param(in, 0, 1000);
    p.start = hard_param(in, 0, 1);
    /* the header: metrics.attempts = room tries, room_tries or one per 6 lattice cells (at least 2) */
    int64_t period = (p.corridor_width >= 1 && p.corridor_width <= 1000) ? p.corridor_width + 1 : 2;
    int64_t cells = (int64_t)((grid->width - 1) / period) * ((grid->height - 1) / period);
    int64_t by_area = cells / 6 > 2 ? cells / 6 : 2;
    out->work_bound = p.room_tries > 0 ? p.room_tries : by_area;
    return dg_maze_generate(grid, &p, seed, result, alloc, diag);
}
