/* Fuzz target: stacked floors (dg_floor_generate). The input is a master seed,
 * a size (10..57 x 10..41: below 14 is DG_E_TOO_SMALL), a floor count
 * (1..6, now and then huge), a stair count (0..5: 1..4 are valid), an
 * allocation to refuse, a generator per floor and, now and then, floor
 * numbers out of range. Each floor is built alone. Whatever the bytes: a
 * documented status, the grid and its canaries untouched on error; on success
 * the stairs where dg_floor_stairs puts them, on stairs tiles, each reachable
 * from the floor's start, start and exit on the first up and down stairs,
 * floor n's down stairs equal to floor n + 1's up stairs, cell for cell, and
 * the same bytes when the floor is built again or through a recipe that names
 * the floor. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_floor: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static const char *const gens[] = {"attach", "chain", "cave", "bsp", "maze", "walk", "scatter", "world"};

typedef struct floor_out {
    dg_status st;
    uint64_t hash;
    dg_floor_info info;
} floor_out;

static int same_point(dg_point a, dg_point b)
{
    return a.x == b.x && a.y == b.y;
}

/* Each stair reachable from the start (dg_solve with the stair as exit). */
static void check_reach(const dg_grid *g, dg_result *r, const dg_floor_info *info)
{
    dg_point exit = r->exit;
    for (int32_t k = 0; k < info->up_count + info->down_count; k++)
    {
        r->exit = k < info->up_count ? info->up[k] : info->down[k - info->up_count];
        dg_progress pr;
        if (dg_solve(g, r, &pr, NULL, NULL) != DG_OK || !pr.solvable)
            fail("a stair cannot be reached from the start", NULL);
    }
    r->exit = exit;
}

static void check_floor(const dg_recipe *rc, int32_t floor, int32_t floors, int32_t stairs,
                        const dg_grid *g, dg_result *r, const dg_floor_info *info)
{
    if (info->floor != floor || info->floors != floors || info->seed != dg_floor_seed(rc->seed, floor))
        fail("info names another floor", NULL);
    if (info->up_count != (floor > 0 ? stairs : 0) || info->down_count != (floor < floors - 1 ? stairs : 0))
        fail("stair counts", NULL);
    dg_point want[DG_STAIRS_MAX];
    for (int side = 0; side < 2; side++)
    {
        int32_t count = side ? info->down_count : info->up_count;
        const dg_point *got = side ? info->down : info->up;
        if (count == 0)
            continue;
        if (dg_floor_stairs(rc->seed, side ? floor : floor - 1, rc->width, rc->height, count, want,
                            NULL) != DG_OK)
            fail("dg_floor_stairs refuses what dg_floor_generate used", NULL);
        for (int32_t k = 0; k < count; k++)
        {
            if (!same_point(got[k], want[k]))
                fail("stairs off the cells dg_floor_stairs gives", NULL);
            if (dg_grid_get(g, got[k].x, got[k].y) != (side ? DG_TILE_STAIRS_DOWN : DG_TILE_STAIRS_UP))
                fail("a stair is not a stairs tile", NULL);
        }
    }
    if (info->up_count && !same_point(r->start, info->up[0]))
        fail("the start is not the first up stairs", NULL);
    if (info->down_count && !same_point(r->exit, info->down[0]))
        fail("the exit is not the first down stairs", NULL);
    check_reach(g, r, info);
}

static floor_out build(const dg_recipe *rc, int32_t floor, int32_t floors, int32_t stairs,
                       int32_t pad, int64_t fail_at, int check)
{
    guarded_grid gg;
    if (!guard_make(&gg, rc->width, rc->height, pad))
        fail("out of memory in the harness", NULL);
    dg_grid_fill(&gg.grid, 0x5A);
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    dg_result r;
    dg_result_init(&r, &ha.hooks);
    dg_diag d;
    memset(&d, 0, sizeof d);
    floor_out o;
    memset(&o, 0, sizeof o);
    o.st = dg_floor_generate(rc, floor, floors, stairs, &gg.grid, NULL, &r, &o.info, &ha.hooks, &d);
    if (!hard_status_known(o.st))
        fail("undocumented status", d.message);
    if (!guard_intact(&gg))
        fail("wrote outside the grid", NULL);
    if (o.st != DG_OK)
        for (int32_t y = 0; y < rc->height; y++)
            for (int32_t x = 0; x < rc->width; x++)
                if (dg_grid_get(&gg.grid, x, y) != 0x5A)
                    fail("changed the grid on error", d.message);
    if (o.st == DG_E_NOMEM && ha.failed == 0)
        fail("DG_E_NOMEM without a failed allocation", NULL);
    if (o.st == DG_OK && check)
        check_floor(rc, floor, floors, stairs, &gg.grid, &r, &o.info);
    o.hash = o.st == DG_OK ? dg_hash_combine(dg_grid_hash(&gg.grid), hard_result_hash(&r)) : 0;
    dg_result_free(&r);
    if (!hard_alloc_clean(&ha))
        fail("leaked or mismatched free", NULL);
    guard_free(&gg);
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hard_input in = {data, size, 0};
    uint64_t master = hard_u64(&in);
    int32_t w = 10 + hard_u8(&in) % 48, h = 10 + hard_u8(&in) % 32;
    uint8_t fb = hard_u8(&in);
    int32_t floors = fb >= 250 ? (fb % 2 ? DG_FLOORS_MAX : DG_FLOORS_MAX + 1) : 1 + fb % 6;
    int32_t stairs = hard_u8(&in) % 6;
    uint8_t f = hard_u8(&in);
    int64_t fail_at = f >= 240 ? 1 + (f - 240) : 0;
    int32_t pad = hard_u8(&in) % 8;
    int32_t shown = floors > 6 ? 3 : floors; /* floors built: the first few */
    floor_out prev;
    memset(&prev, 0, sizeof prev);
    prev.st = DG_E_INVALID;
    for (int32_t n = 0; n < shown; n++)
    {
        uint8_t gb = hard_u8(&in);
        dg_recipe rc;
        dg_recipe_init(&rc, gens[gb % 8], master, w, h);
        int32_t floor = gb >= 252 ? (gb % 2 ? -1 : floors) : n; /* now and then out of range */
        floor_out o = build(&rc, floor, floors, stairs, pad, fail_at, 1);
        if (o.st == DG_OK && prev.st == DG_OK && floor == n && n > 0)
            for (int32_t k = 0; k < o.info.up_count; k++)
                if (!same_point(o.info.up[k], prev.info.down[k]))
                    fail("floor n's down stairs are not floor n + 1's up stairs", NULL);
        if (o.st == DG_OK && n == shown - 1 && fail_at == 0)
        {
            floor_out again = build(&rc, floor, floors, stairs, (pad + 3) % 8, 0, 0);
            if (again.st != DG_OK || again.hash != o.hash)
                fail("not the same bytes when built again", NULL);
            char text[48];
            snprintf(text, sizeof text, "%d", (int)floors);
            dg_recipe named = rc;
            if (dg_recipe_set(&named, "floors", text, NULL) == DG_OK)
            {
                snprintf(text, sizeof text, "%d", (int)floor);
                dg_recipe_set(&named, "floor", text, NULL);
                snprintf(text, sizeof text, "%d", (int)stairs);
                if (dg_recipe_set(&named, "stairs", text, NULL) == DG_OK)
                {
                    guarded_grid gg;
                    if (!guard_make(&gg, w, h, pad))
                        fail("out of memory in the harness", NULL);
                    dg_grid_fill(&gg.grid, 0x5A);
                    dg_result r;
                    dg_result_init(&r, NULL);
                    if (dg_recipe_generate(&named, &gg.grid, NULL, &r, NULL, NULL) != DG_OK ||
                        dg_hash_combine(dg_grid_hash(&gg.grid), hard_result_hash(&r)) != o.hash)
                        fail("a recipe naming the floor gives other bytes", NULL);
                    dg_result_free(&r);
                    guard_free(&gg);
                }
            }
        }
        prev = o;
    }
    return 0;
}
