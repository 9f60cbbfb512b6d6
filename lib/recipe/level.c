/* Running a recipe: its generator (or its floor of a stacked dungeon) around
 * the caller's reserved cells, anchors opened and joined afterwards, then the
 * locks it records; on a copy, so a failure changes nothing. */
#include "progress/progress.h"
#include "recipe/recipe.h"

void dg_site_init(dg_site *site)
{
    if (!site)
        return;
    memset(site, 0, sizeof *site);
}

static dg_status check_site(const dg_site *s, const dg_grid *g, dg_diag *diag)
{
    dg_status st = DGI_SPARE_CHECK(s->spare, "site", diag);
    if (st != DG_OK)
        return st;
    int32_t stride = s->reserved_stride ? s->reserved_stride : g->width;
    if (s->reserved_stride < 0 || stride < g->width)
        return dgi_fail(diag, DG_E_INVALID, "reserved_stride %d is less than the width %d",
                        (int)s->reserved_stride, (int)g->width);
    if (s->anchor_count < 0 || s->anchor_count > DG_ANCHORS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "anchor_count %d: 0..%d are allowed",
                        (int)s->anchor_count, DG_ANCHORS_MAX);
    dgi_mask m = {s->reserved, stride};
    for (int32_t i = 0; i < s->anchor_count; i++)
    {
        dg_point p = s->anchors[i];
        if (p.x < 0 || p.y < 0 || p.x >= g->width || p.y >= g->height)
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is outside the %dx%d grid",
                            (int)i, (int)p.x, (int)p.y, (int)g->width, (int)g->height);
        if (s->reserved && dgi_mask_at(&m, p.x, p.y))
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is a reserved cell", (int)i,
                            (int)p.x, (int)p.y);
        if (s->reserved && dgi_mask_near(&m, g, p.x, p.y)) /* an open anchor would touch it */
            return dgi_fail(diag, DG_E_INVALID,
                            "anchor %d (%d, %d) touches a reserved cell: a wall must lie "
                            "between, so put it two cells away and open the cell between "
                            "yourself", (int)i, (int)p.x, (int)p.y);
    }
    if (!s->reserved)
        return DG_OK;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (!dgi_mask_at(&m, x, y))
                return DG_OK;
    return dgi_fail(diag, DG_E_NOSPACE, "every cell of the grid is reserved");
}

static void copy_rows(dg_grid *to, const dg_grid *from)
{
    for (int32_t y = 0; y < from->height; y++)
        memcpy(&DG_CELL(to, 0, y), &DG_CELL(from, 0, y), (size_t)from->width);
}

/* The map on a copy of the caller's cells (reserved ones included): the
 * recipe's floor of a stacked dungeon or its generator alone, then anchors,
 * then locks, all as the recipe records them. */
static dg_status run_site(const dg_recipe *recipe, const dg_site *site, dg_grid *copy,
                          const dg_prefab_set *prefabs, dg_result *r, const dg_allocator *a,
                          dg_diag *diag)
{
    dgi_mask m = {site->reserved, site->reserved_stride ? site->reserved_stride : copy->width};
    const dgi_mask *reserved = site->reserved ? &m : NULL;
    int32_t floor, floors, stairs;
    int stacked = dgi_recipe_floor(recipe, &floor, &floors, &stairs);
    uint64_t seed = stacked ? dg_floor_seed(recipe->seed, floor) : recipe->seed;
    dg_status st;
    if (stacked && (reserved || site->anchor_count))
        return dgi_fail(diag, DG_E_INVALID, "a floor of a stacked dungeon takes no site: its stairs are its anchors");
    if (stacked)
        st = dgi_floor_generate(recipe, floor, floors, stairs, copy, prefabs, r, NULL, a, diag);
    else
        st = dgi_recipe_run(recipe, copy, prefabs, site->graph, reserved, r, a, diag);
    if (st == DG_OK && site->anchor_count > 0)
        st = dgi_anchor_place(copy, r, site->anchors, site->anchor_count, reserved, a, diag);
    dg_lock_params locks;
    if (st == DG_OK && dgi_recipe_locks(recipe, &locks))
    {
        const dgi_lock_site where = {reserved, site->anchors, site->anchor_count};
        st = dgi_lock_place(copy, &locks, seed, r, NULL, &where, a, diag);
    }
    return st;
}

/* dg_recipe_generate_site on a valid grid (site NULL: none). */
static dg_status generate_site(const dg_recipe *recipe, const dg_site *site, dg_grid *grid,
                               const dg_prefab_set *prefabs, dg_result *result,
                               const dg_allocator *allocator, dg_diag *diag)
{
    dg_site none;
    dg_site_init(&none);
    dg_status st = check_site(site ? site : &none, grid, diag);
    if (st != DG_OK)
        return st;
    const size_t n = (size_t)grid->width * (size_t)grid->height;
    uint8_t *cells = dgi_alloc(allocator, n);
    if (!cells)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for a %dx%d copy of the grid",
                        (int)grid->width, (int)grid->height);
    dg_grid copy = {cells, grid->width, grid->height, grid->width};
    copy_rows(&copy, grid);
    dg_result r;
    dg_result_init(&r, result ? &result->allocator : allocator);
    st = run_site(recipe, site ? site : &none, &copy, prefabs, &r, allocator, diag);
    if (st == DG_OK)
    {
        copy_rows(grid, &copy);
        if (result)
        {
            dg_result_free(result);
            *result = r;
            dg_result_init(&r, NULL);
        }
    }
    dg_result_free(&r);
    dgi_free(allocator, cells, n);
    return st;
}

dg_status dg_recipe_generate_site(const dg_recipe *recipe, const dg_site *site, dg_grid *grid,
                                  const dg_prefab_set *prefabs, dg_result *result,
                                  const dg_allocator *allocator, dg_diag *diag)
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : generate_site(recipe, site, grid, prefabs, result, allocator, diag);
}

dg_status dg_recipe_generate(const dg_recipe *recipe, dg_grid *grid, const dg_prefab_set *prefabs,
                             dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    int32_t floor, floors, stairs;
    dg_lock_params locks;
    /* a plain recipe runs its generator straight into the grid, as before */
    if (!dgi_recipe_floor(recipe, &floor, &floors, &stairs) && !dgi_recipe_locks(recipe, &locks))
        return dgi_recipe_run(recipe, grid, prefabs, NULL, NULL, result, allocator, diag);
    return generate_site(recipe, NULL, grid, prefabs, result, allocator, diag);
}
