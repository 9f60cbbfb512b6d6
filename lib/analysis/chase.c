/* Chase: every monster's next step down one distance map, and Brogue's
 * safety map for fleeing. Occupancy lives in the workspace's byte array,
 * cleared only around the monsters, so a call costs what the monsters touch. */
#include "analysis/analysis.h"

#include <stdio.h>

#define MARK_HELD 1u  /* a monster stands on the cell now */
#define MARK_MOVER 2u /* the monster on the cell is listed as a mover */

/* The map and its reading rules for one call. */
typedef struct chase_ctx {
    const dgi_move *w;
    const int32_t *map;
    int approach;
    uint8_t *marks;
} chase_ctx;

static int32_t map_at(const chase_ctx *c, int32_t x, int32_t y)
{
    return c->map[(size_t)y * (size_t)c->w->width + (size_t)x];
}

/* A target: a cell at 0 of an approach map (a source of the search). */
static int is_target(const chase_ctx *c, int32_t x, int32_t y)
{
    return c->approach && map_at(c, x, y) == 0;
}

static int blocked_at(const dgi_move *w, int32_t x, int32_t y)
{
    return w->blocked && DGI_MASK(w, w->blocked, x, y);
}

/* Open for the corner rule: a passable tile, not blocked unless a target. */
static int corner_open(const chase_ctx *c, int32_t x, int32_t y)
{
    return c->w->pass[DG_CELL(c->w, x, y)] && (!blocked_at(c->w, x, y) || is_target(c, x, y));
}

/* The map value a monster at p may step to in direction d, or -1 if it may not. */
static int32_t step_value(const chase_ctx *c, dg_point p, int d)
{
    const dgi_move *w = c->w;
    int32_t x = p.x + dgi_dir_dx[d], y = p.y + dgi_dir_dy[d];
    if ((uint32_t)x >= (uint32_t)w->width || (uint32_t)y >= (uint32_t)w->height ||
        !w->pass[DG_CELL(w, x, y)])
        return -1;
    int32_t v = map_at(c, x, y);
    if (v < 0)
        return -1;
    if (!is_target(c, x, y) &&
        (blocked_at(w, x, y) || (c->marks[(size_t)y * (size_t)w->width + (size_t)x] & MARK_HELD)))
        return -1;
    if (d >= 4 && !w->corner_cutting && (!corner_open(c, x, p.y) || !corner_open(c, p.x, y)))
        return -1;
    return v;
}

/* Moves the monster at *p one step down the map if that lowers its value;
 * the marks follow it (a target is never held). */
static void chase_one(const chase_ctx *c, dg_point *p)
{
    int32_t own = map_at(c, p->x, p->y), best_v = -1;
    int best_d = -1;
    for (int d = 0; d < c->w->neighbours; d++)
    {
        int32_t v = step_value(c, *p, d);
        if (v >= 0 && (best_d < 0 || v < best_v))
        {
            best_v = v;
            best_d = d;
        }
    }
    if (best_d < 0 || (own >= 0 && best_v >= own))
        return;
    size_t width = (size_t)c->w->width;
    c->marks[(size_t)p->y * width + (size_t)p->x] &= (uint8_t)~MARK_HELD;
    p->x += dgi_dir_dx[best_d];
    p->y += dgi_dir_dy[best_d];
    if (!is_target(c, p->x, p->y))
        c->marks[(size_t)p->y * width + (size_t)p->x] |= MARK_HELD;
}

static dg_status check_chase(const dgi_move *w, const dg_grid *grid, const dg_chase *c,
                             const dg_point *steps, int32_t steps_cap, dg_diag *diag)
{
    if (!c)
        return dgi_fail(diag, DG_E_NULL, "chase is NULL");
    if (c->mode != DG_CHASE_APPROACH && c->mode != DG_CHASE_FLEE)
        return dgi_fail(diag, DG_E_INVALID, "chase mode %d is unknown (DG_CHASE_APPROACH or "
                        "DG_CHASE_FLEE)", (int)c->mode);
    dg_status st = dgi_check_cells_buffer(grid, c->map, c->map_count, "chase map", diag);
    if (st != DG_OK)
        return st;
    if (c->count < 0)
        return dgi_fail(diag, DG_E_INVALID, "monster count is %d: must be >= 0", (int)c->count);
    if (c->count > 0 && !c->monsters)
        return dgi_fail(diag, DG_E_NULL, "monsters is NULL but count is %d", (int)c->count);
    if (c->movers && c->mover_count < 0)
        return dgi_fail(diag, DG_E_INVALID, "mover_count is %d: must be >= 0",
                        (int)c->mover_count);
    if (c->count > 0 && !steps)
        return dgi_fail(diag, DG_E_NULL, "steps is NULL but count is %d", (int)c->count);
    if (steps_cap < c->count)
        return dgi_fail(diag, DG_E_BUFFER, "steps_cap is %d: %d monsters need as many",
                        (int)steps_cap, (int)c->count);
    for (int32_t k = 0; k < c->count; k++)
    {
        dg_point p = c->monsters[k];
        if ((uint32_t)p.x < (uint32_t)w->width && (uint32_t)p.y < (uint32_t)w->height &&
            w->pass[DG_CELL(w, p.x, p.y)])
            continue;
        char what[32]; /* the message names the monster */
        snprintf(what, sizeof what, "monster %d", (int)k);
        return dgi_move_check_cell(w, p, what, diag);
    }
    for (int32_t k = 0; c->movers && k < c->mover_count; k++)
        if (c->movers[k] < 0 || c->movers[k] >= c->count)
            return dgi_fail(diag, DG_E_INVALID, "mover %d is id %d: no such monster (count %d)",
                            (int)k, (int)c->movers[k], (int)c->count);
    return DG_OK;
}

/* Clears the marks around every monster, then marks the monsters and the
 * movers; DG_E_INVALID for two monsters on one cell or a repeated mover. */
static dg_status mark_monsters(const dgi_move *w, const dg_chase *c, uint8_t *marks,
                               dg_diag *diag)
{
    size_t width = (size_t)w->width;
    for (int32_t k = 0; k < c->count; k++)
    {
        dg_point p = c->monsters[k];
        for (int32_t y = DG_MAX(p.y - 1, 0); y <= DG_MIN(p.y + 1, w->height - 1); y++)
            for (int32_t x = DG_MAX(p.x - 1, 0); x <= DG_MIN(p.x + 1, w->width - 1); x++)
                marks[(size_t)y * width + (size_t)x] = 0;
    }
    for (int32_t k = 0; k < c->count; k++)
    {
        uint8_t *m = &marks[(size_t)c->monsters[k].y * width + (size_t)c->monsters[k].x];
        if (*m & MARK_HELD)
            return dgi_fail(diag, DG_E_INVALID, "monster %d shares cell (%d, %d) with another",
                            (int)k, (int)c->monsters[k].x, (int)c->monsters[k].y);
        *m = MARK_HELD;
    }
    for (int32_t k = 0; c->movers && k < c->mover_count; k++)
    {
        dg_point p = c->monsters[c->movers[k]];
        uint8_t *m = &marks[(size_t)p.y * width + (size_t)p.x];
        if (*m & MARK_MOVER)
            return dgi_fail(diag, DG_E_INVALID, "mover id %d is listed twice",
                            (int)c->movers[k]);
        *m |= MARK_MOVER;
    }
    return DG_OK;
}

dg_status dg_chase_step(const dg_grid *grid, const dg_move *move, const dg_chase *chase,
                        dg_path_workspace *workspace, dg_point *steps, int32_t steps_cap,
                        dg_diag *diag)
{
    dgi_move w;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = check_chase(&w, grid, chase, steps, steps_cap, diag);
    if (st != DG_OK)
        return st;
    dg_path_workspace *ws, *tmp;
    if ((st = dgi_workspace_get(workspace, &w, &ws, &tmp, diag)) == DG_OK)
    {
        chase_ctx c = {&w, chase->map, chase->mode == DG_CHASE_APPROACH, dgi_workspace_bytes(ws)};
        st = mark_monsters(&w, chase, c.marks, diag);
        if (st == DG_OK)
        {
            for (int32_t k = 0; k < chase->count; k++)
                steps[k] = chase->monsters[k];
            int32_t n = chase->movers ? chase->mover_count : chase->count;
            for (int32_t k = 0; k < n; k++)
                chase_one(&c, &steps[chase->movers ? chase->movers[k] : k]);
            dgi_diag_ok(diag);
        }
    }
    dg_path_workspace_free(tmp);
    return st;
}

/* ---- the flee map ------------------------------------------------------------- */

/* Checks the approach map; *reached and *k_max get the reached cells and the
 * largest d * scale / 100. */
static dg_status scan_approach(const dgi_move *w, const int32_t *approach, int32_t scale,
                               int32_t *reached, int64_t *k_max, dg_diag *diag)
{
    *reached = 0;
    *k_max = 0;
    for (int32_t y = 0; y < w->height; y++)
        for (int32_t x = 0; x < w->width; x++)
        {
            int32_t d = approach[(size_t)y * (size_t)w->width + (size_t)x];
            if (d < DG_UNREACHABLE)
                return dgi_fail(diag, DG_E_INVALID, "approach map value %d at (%d, %d) is below "
                                "DG_UNREACHABLE", (int)d, (int)x, (int)y);
            if (d < 0)
                continue;
            if (!w->pass[DG_CELL(w, x, y)])
                return dgi_fail(diag, DG_E_INVALID, "approach map gives (%d, %d) a distance but "
                                "its tile is impassable", (int)x, (int)y);
            (*reached)++;
            *k_max = DG_MAX(*k_max, (int64_t)d * scale / 100);
        }
    if (*k_max > INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE, "approach distances times %d%% pass 2^31 - 1",
                        (int)scale);
    return DG_OK;
}

static dg_status check_flee(const dg_grid *grid, const int32_t *approach,
                            size_t approach_count, int32_t scale, const int32_t *flee,
                            size_t flee_count, dg_diag *diag)
{
    dg_status st = dgi_check_cells_buffer(grid, approach, approach_count, "approach map", diag);
    if (st == DG_OK)
        st = dgi_check_cells_buffer(grid, flee, flee_count, "flee map", diag);
    if (st == DG_OK && (scale < 101 || scale > 1000))
        st = dgi_fail(diag, DG_E_INVALID, "scale_percent is %d: must be 101..1000 (120: Brogue's)",
                      (int)scale);
    return st;
}

/* The sources: every reached cell at K - d * scale / 100, in row-major order. */
static void flee_sources(const dgi_move *w, const int32_t *approach, int32_t scale,
                         int32_t k_max, dg_point *sources, int32_t *start)
{
    int32_t n = 0;
    for (int32_t y = 0; y < w->height; y++)
        for (int32_t x = 0; x < w->width; x++)
        {
            int32_t d = approach[(size_t)y * (size_t)w->width + (size_t)x];
            if (d < 0)
                continue;
            sources[n] = (dg_point){x, y};
            start[n++] = k_max - (int32_t)((int64_t)d * scale / 100);
        }
}

/* Nothing reached: an empty map, as dg_dijkstra_map reports one. */
static void flee_empty(const dgi_move *w, int32_t *flee, dg_distance_info *info)
{
    size_t n = (size_t)w->width * (size_t)w->height;
    for (size_t i = 0; i < n; i++)
        flee[i] = DG_UNREACHABLE;
    if (info)
    {
        info->reached = 0;
        info->max_distance = DG_UNREACHABLE;
        info->farthest = (dg_point){0, 0};
    }
}

dg_status dg_flee_map(const dg_grid *grid, const dg_move *move, const int32_t *approach,
                      size_t approach_count, int32_t scale_percent, int32_t *flee,
                      size_t flee_count, dg_path_workspace *workspace,
                      const dg_allocator *allocator, dg_distance_info *info, dg_diag *diag)
{
    dgi_move w;
    int32_t reached = 0;
    int64_t k_max = 0;
    dg_status st = dgi_move_init(&w, grid, move, diag);
    if (st == DG_OK)
        st = check_flee(grid, approach, approach_count, scale_percent, flee, flee_count, diag);
    if (st == DG_OK)
        st = scan_approach(&w, approach, scale_percent, &reached, &k_max, diag);
    if (st == DG_OK)
        st = dgi_move_check_range(&w, k_max, 0, diag);
    if (st != DG_OK)
        return st;
    dg_path_workspace *ws, *tmp;
    if ((st = dgi_workspace_get(workspace, &w, &ws, &tmp, diag)) != DG_OK)
    {
        dg_path_workspace_free(tmp);
        return st;
    }
    dg_point *sources = reached ? dgi_alloc(allocator, (size_t)reached * sizeof *sources) : NULL;
    int32_t *start = reached ? dgi_alloc(allocator, (size_t)reached * sizeof *start) : NULL;
    if (reached && (!sources || !start))
        st = dgi_fail(diag, DG_E_NOMEM, "cannot allocate %d flee sources", (int)reached);
    else if (!reached)
        flee_empty(&w, flee, info);
    else
    {
        flee_sources(&w, approach, scale_percent, (int32_t)k_max, sources, start);
        dgi_dijkstra_map(ws, &w, sources, start, reached, 0, flee, info);
    }
    if (sources)
        dgi_free(allocator, sources, (size_t)reached * sizeof *sources);
    if (start)
        dgi_free(allocator, start, (size_t)reached * sizeof *start);
    dg_path_workspace_free(tmp);
    if (st == DG_OK)
        dgi_diag_ok(diag);
    return st;
}
