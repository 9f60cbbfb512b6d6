/* Stacked floors: floor n of a dungeon from its recipe and a master seed,
 * alone, with its stairs on cells that depend only on (master seed, n, size),
 * so the down stairs of floor n land on the up stairs of floor n + 1. */
#include "progress/progress.h"
#include "recipe/recipe.h"

#include <stdio.h>
#include <stdlib.h>

#define STAIRS_STREAM 0x73746169727355ULL /* stair cells have their own random stream */
#define STAIRS_TRIES 16                   /* random cells tried per stair before a scan */
#define FLOOR_MIN_SIDE 14                 /* quarters of 4x4 cells: two stairs apart in each */

uint64_t dg_floor_seed(uint64_t master, int32_t floor)
{
    return dgi_hash_combine(master, (uint64_t)(int64_t)floor);
}

/* Odd values in [lo, hi] (lo itself when the range holds no odd value):
 * cells on odd coordinates are open in mazes and clear of their walls. */
static int32_t odd_pick(dg_rng *rng, int32_t lo, int32_t hi)
{
    int32_t first = lo | 1;
    if (first > hi)
        return lo;
    return first + 2 * (int32_t)dgi_rng_below(rng, (uint32_t)((hi - first) / 2 + 1));
}

/* Quarter q of the grid (0 top left, 1 top right, 2 bottom left, 3 bottom
 * right), two cells in from the edges and one from the middle lines. */
static dg_rect quarter(int32_t w, int32_t h, int32_t q)
{
    int32_t x0 = q & 1 ? w / 2 + 1 : 2, x1 = q & 1 ? w - 3 : w / 2 - 2;
    int32_t y0 = q & 2 ? h / 2 + 1 : 2, y1 = q & 2 ? h - 3 : h / 2 - 2;
    return (dg_rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

static int crowded(const dg_point *placed, int32_t n, dg_point p)
{
    for (int32_t i = 0; i < n; i++)
        if (abs(placed[i].x - p.x) <= 1 && abs(placed[i].y - p.y) <= 1)
            return 1;
    return 0;
}

/* A cell of the quarter not next to an earlier stair: random tries, then the
 * first such cell in row order (a quarter has at least 4x4 cells and holds at
 * most two stairs of a link, so there is one). */
static dg_point stair_cell(dg_rng *rng, dg_rect q, const dg_point *placed, int32_t n)
{
    for (int32_t t = 0; t < STAIRS_TRIES; t++)
    {
        dg_point p = {odd_pick(rng, q.x, q.x + q.w - 1), odd_pick(rng, q.y, q.y + q.h - 1)};
        if (!crowded(placed, n, p))
            return p;
    }
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x++)
            if (!crowded(placed, n, (dg_point){x, y}))
                return (dg_point){x, y};
    return (dg_point){q.x, q.y};
}

static dg_status check_stairs(int32_t link, int32_t width, int32_t height, int32_t count,
                              dg_diag *diag)
{
    if (link < 0 || link >= DG_FLOORS_MAX - 1)
        return dgi_fail(diag, DG_E_INVALID, "link %d: 0..%d are allowed", (int)link,
                        DG_FLOORS_MAX - 2);
    if (count < 1 || count > DG_STAIRS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "%d stairs: 1..%d are allowed", (int)count,
                        DG_STAIRS_MAX);
    if (width < FLOOR_MIN_SIDE || height < FLOOR_MIN_SIDE || width > DG_GRID_MAX_DIM ||
        height > DG_GRID_MAX_DIM)
        return dgi_fail(diag, width < FLOOR_MIN_SIDE || height < FLOOR_MIN_SIDE ? DG_E_TOO_SMALL
                                                                                : DG_E_INVALID,
                        "floors of %dx%d: each side must be %d..%d", (int)width, (int)height,
                        FLOOR_MIN_SIDE, DG_GRID_MAX_DIM);
    return DG_OK;
}

/* Even links use the top-left and bottom-right quarters, odd links the other
 * two, so the stairs up and down of one floor never share a cell. */
dg_status dg_floor_stairs(uint64_t master, int32_t link, int32_t width, int32_t height,
                          int32_t count, dg_point *stairs, dg_diag *diag)
{
    if (!stairs)
        return dgi_fail(diag, DG_E_NULL, "stairs is NULL");
    dg_status st = check_stairs(link, width, height, count, diag);
    if (st != DG_OK)
        return st;
    dg_rng rng;
    dgi_rng_seed(&rng, dg_floor_seed(master, link), STAIRS_STREAM);
    int32_t diagonal = link & 1 ? 1 : 0, flip = (int32_t)(dgi_rng_next(&rng) & 1);
    dg_point placed[DG_STAIRS_MAX] = {{0, 0}};
    for (int32_t k = 0; k < count; k++)
    {
        int32_t side = (flip + k) & 1;
        int32_t q = diagonal ? (side ? 2 : 1) : (side ? 3 : 0);
        placed[k] = stair_cell(&rng, quarter(width, height, q), placed, k);
    }
    memcpy(stairs, placed, (size_t)count * sizeof *stairs);
    return DG_OK;
}

static dg_status check_floor(const dg_recipe *recipe, int32_t floor, int32_t floors,
                             int32_t stairs, const dg_grid *grid, dg_diag *diag) /* grid valid */
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    if (floors < 1 || floors > DG_FLOORS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "%d floors: 1..%d are allowed", (int)floors,
                        DG_FLOORS_MAX);
    if (floor < 0 || floor >= floors)
        return dgi_fail(diag, DG_E_INVALID, "floor %d of %d: 0..%d are allowed", (int)floor,
                        (int)floors, (int)floors - 1);
    return floors > 1 ? check_stairs(0, grid->width, grid->height, stairs, diag) : DG_OK;
}

static dg_status add_stairs_marker(dg_result *r, dg_point p, int up, int32_t to)
{
    dg_marker m = {p, up ? DG_MARKER_STAIRS_UP : DG_MARKER_STAIRS_DOWN,
                   dgi_result_room_near(r, p), {0}, 0, 0, 0, {0}};
    (void)snprintf(m.name, sizeof m.name, "floor %d", (int)to);
    return dgi_result_add_marker(r, &m);
}

/* Stairs tiles and their markers; the exit moves onto the first down stairs. */
static dg_status mark_stairs(dg_grid *g, dg_result *r, const dg_floor_info *info)
{
    dg_status st = DG_OK;
    for (int32_t k = 0; k < info->up_count; k++)
    {
        DG_CELL(g, info->up[k].x, info->up[k].y) = DG_TILE_STAIRS_UP;
        if (r && st == DG_OK)
            st = add_stairs_marker(r, info->up[k], 1, info->floor - 1);
    }
    for (int32_t k = 0; k < info->down_count; k++)
    {
        DG_CELL(g, info->down[k].x, info->down[k].y) = DG_TILE_STAIRS_DOWN;
        if (r && st == DG_OK)
            st = add_stairs_marker(r, info->down[k], 0, info->floor + 1);
    }
    if (r && info->down_count > 0)
    {
        r->exit = info->down[0];
        r->exit_room = dgi_result_room_near(r, r->exit);
    }
    return st;
}

/* The anchors of a floor: its own start first (the up stairs, or on the top
 * floor the generator's start), then every stair. */
static int32_t floor_anchors(const dg_floor_info *info, const dg_result *r, dg_point *out)
{
    int32_t n = 0;
    if (info->up_count == 0)
        out[n++] = r->start;
    for (int32_t k = 0; k < info->up_count; k++)
        out[n++] = info->up[k];
    for (int32_t k = 0; k < info->down_count; k++)
        out[n++] = info->down[k];
    return n;
}

static void fill_info(const dg_recipe *recipe, int32_t floor, int32_t floors, int32_t stairs,
                      const dg_grid *g, dg_floor_info *info)
{
    memset(info, 0, sizeof *info);
    info->floor = floor;
    info->floors = floors;
    info->seed = dg_floor_seed(recipe->seed, floor);
    if (floor > 0)
        info->up_count = stairs;
    if (floor < floors - 1)
        info->down_count = stairs;
    if (info->up_count)
        dg_floor_stairs(recipe->seed, floor - 1, g->width, g->height, stairs, info->up, NULL);
    if (info->down_count)
        dg_floor_stairs(recipe->seed, floor, g->width, g->height, stairs, info->down, NULL);
}

/* Generates into a copy, so the caller's grid and result change only on success. */
static dg_status build_floor(const dg_recipe *recipe, const dg_floor_info *info, dg_grid *copy,
                             const dg_prefab_set *prefabs, dg_result *r,
                             const dg_allocator *a, dg_diag *diag)
{
    dg_recipe own = *recipe;
    own.seed = info->seed;
    dg_status st = dgi_recipe_run(&own, copy, prefabs, NULL, NULL, r, a, diag);
    if (st != DG_OK)
        return st;
    if (r->start.x < 0)
        return dgi_fail(diag, DG_E_NOSPACE, "floor %d has no start to join its stairs to",
                        (int)info->floor);
    dg_point anchors[1 + 2 * DG_STAIRS_MAX];
    /* on the floor's own copy; the first down stairs become the exit */
    st = dgi_anchor_place_own(copy, r, anchors, floor_anchors(info, r, anchors),
                              info->down_count > 0, a, diag);
    if (st == DG_OK && mark_stairs(copy, r, info) != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory for the stairs' markers");
    return st;
}

dg_status dg_floor_generate(const dg_recipe *recipe, int32_t floor, int32_t floors,
                            int32_t stairs, dg_grid *grid, const dg_prefab_set *prefabs,
                            dg_result *result, dg_floor_info *info,
                            const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_floor_generate(recipe, floor, floors, stairs, grid, prefabs,
                                                 result, info, allocator, diag);
}

dg_status dgi_floor_generate(const dg_recipe *recipe, int32_t floor, int32_t floors,
                             int32_t stairs, dg_grid *grid, const dg_prefab_set *prefabs,
                             dg_result *result, dg_floor_info *info,
                             const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_floor(recipe, floor, floors, stairs, grid, diag);
    if (st != DG_OK)
        return st;
    dg_floor_info own;
    fill_info(recipe, floor, floors, stairs, grid, &own);
    /* framed by rock, as the anchors want it */
    const int32_t pw = grid->width + 2;
    const size_t n = (size_t)pw * (size_t)(grid->height + 2);
    uint8_t *cells = dgi_calloc(allocator, n, 1);
    dg_grid copy = {cells ? cells + pw + 1 : NULL, grid->width, grid->height, pw};
    dg_result r;
    dg_result_init(&r, result ? &result->allocator : allocator);
    st = cells ? build_floor(recipe, &own, &copy, prefabs, &r, allocator, diag)
               : dgi_fail(diag, DG_E_NOMEM, "out of memory for a %dx%d floor", (int)grid->width,
                          (int)grid->height);
    if (st == DG_OK)
    {
        for (int32_t y = 0; y < grid->height; y++)
            memcpy(&DG_CELL(grid, 0, y), &DG_CELL(&copy, 0, y), (size_t)grid->width);
        if (result)
        {
            dg_result_free(result);
            *result = r;
            dg_result_init(&r, NULL);
        }
        if (info)
            *info = own;
    }
    dg_result_free(&r);
    dgi_free(allocator, cells, n);
    return st;
}
