/* Placement: start and exit (stairs) and spawn points. */
#include "analysis/analysis.h"

#define SPAWN_STREAM 0x7370617755ULL /* the spawn choice has its own random stream */

void dg_place_defaults(dg_place_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->arrival.x = params->arrival.y = -1;
    params->spawn_min_distance = 6;
}

static const uint8_t room_default[256] = {[DG_TILE_FLOOR] = 1};

/* Scratch roles: s.a holds region labels, then the spawn candidates; s.b
 * distances; s.c the queue; s.mark the chokepoints. Articulation uses all of
 * them first. */
typedef struct placer {
    dgi_move w;
    const uint8_t *room;
    dgi_scratch s;
} placer;

static dg_status check_params(const dg_grid *g, const dg_place_params *p, const dg_point *spawns,
                              int32_t spawns_cap, const dg_placement *out, dg_diag *diag)
{
    if (!out)
        return dgi_fail(diag, DG_E_NULL, "placement is NULL");
    if (DGI_SPARE_CHECK(p->spare, "place params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->spawn_count < 0 || p->spawn_min_distance < 0)
        return dgi_fail(diag, DG_E_INVALID,
                        "spawn_count (%d) and spawn_min_distance (%d) must be >= 0",
                        (int)p->spawn_count, (int)p->spawn_min_distance);
    if (spawns_cap < 0)
        return dgi_fail(diag, DG_E_INVALID, "spawns_cap is %d: must be >= 0", (int)spawns_cap);
    if (spawns && spawns_cap < p->spawn_count)
        return dgi_fail(diag, DG_E_BUFFER, "spawns holds %d points: %d wanted", (int)spawns_cap,
                        (int)p->spawn_count);
    int none = p->arrival.x == -1 && p->arrival.y == -1;
    if (!none && (p->arrival.x < 0 || p->arrival.y < 0 || p->arrival.x >= g->width ||
                  p->arrival.y >= g->height))
        return dgi_fail(diag, DG_E_INVALID, "arrival (%d, %d) is outside the %dx%d grid",
                        (int)p->arrival.x, (int)p->arrival.y, (int)g->width, (int)g->height);
    return DG_OK;
}

static int has_point(dg_point p) { return p.x != -1 || p.y != -1; }

static int in_grid(const dg_grid *g, dg_point p)
{
    return p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height;
}

/* The result's start and exit are kept when no arrival is given: they must lie
 * in the grid (the start is checked for passability once the walk is set up). */
static dg_status check_kept(const dg_grid *g, const dg_result *r, dg_diag *diag)
{
    if (has_point(r->start) && !in_grid(g, r->start))
        return dgi_fail(diag, DG_E_INVALID, "result start (%d, %d) is outside the %dx%d grid",
                        (int)r->start.x, (int)r->start.y, (int)g->width, (int)g->height);
    if (has_point(r->exit) && (!has_point(r->start) || !in_grid(g, r->exit)))
        return dgi_fail(diag, DG_E_INVALID,
                        "result exit (%d, %d) is outside the %dx%d grid or has no start",
                        (int)r->exit.x, (int)r->exit.y, (int)g->width, (int)g->height);
    return DG_OK;
}

int dgi_spawn_tile(const dgi_move *w, const uint8_t *room_tiles, int32_t x, int32_t y)
{
    uint8_t t = DG_CELL(w, x, y);
    const uint8_t *room = room_tiles ? room_tiles : room_default;
    return w->pass[t] && room[t] && t != DG_TILE_DOOR;
}

/* A cell where stairs and spawns may go: a spawn tile, not a chokepoint. */
static int good_cell(const placer *pl, int32_t x, int32_t y)
{
    return dgi_spawn_tile(&pl->w, pl->room, x, y) &&
           !pl->s.mark[(size_t)y * (size_t)pl->w.width + (size_t)x];
}

/* Breadth-first from `from`, then the farthest reached good cell (the first in
 * row-major order on ties); the farthest reached cell if no good one is reached. */
static dg_point farthest_good(placer *pl, dg_point from, int32_t *distance)
{
    dg_distance_info info;
    dgi_bfs_move(&pl->w, &from, 1, 0, pl->s.b, pl->s.c, &info);
    dg_point best = info.farthest;
    int32_t best_d = -1;
    for (int32_t y = 0; y < pl->w.height; y++)
        for (int32_t x = 0; x < pl->w.width; x++)
        {
            int32_t d = pl->s.b[y * pl->w.width + x];
            if (d > best_d && good_cell(pl, x, y))
            {
                best_d = d;
                best.x = x;
                best.y = y;
            }
        }
    *distance = pl->s.b[best.y * pl->w.width + best.x];
    return best;
}

/* Keeps (x, y) in *best if it is passable and nearer to p (Euclidean, then
 * row-major) than the best so far. */
static void nearer(const placer *pl, dg_point p, int32_t x, int32_t y, dg_point *best,
                   int64_t *best_d2)
{
    if (x < 0 || y < 0 || x >= pl->w.width || y >= pl->w.height ||
        !pl->w.pass[DG_CELL(&pl->w, x, y)])
        return;
    int64_t d2 = (int64_t)(x - p.x) * (x - p.x) + (int64_t)(y - p.y) * (y - p.y);
    if (d2 < *best_d2 || (d2 == *best_d2 && (y < best->y || (y == best->y && x < best->x))))
    {
        *best_d2 = d2;
        best->x = x;
        best->y = y;
    }
}

/* The passable cell nearest to p, found on growing square rings. Only the
 * ring's cells inside the grid are visited, so the search costs at most the
 * grid's cells plus its longer side (a thin grid is not its width squared);
 * (-1, -1) if the grid has none. */
static dg_point nearest_passable(const placer *pl, dg_point p)
{
    dg_point best = {-1, -1};
    int64_t best_d2 = INT64_MAX;
    const int32_t w = pl->w.width, h = pl->w.height;
    for (int32_t r = 0; r <= DG_MAX(w, h) && (int64_t)r * r <= best_d2; r++)
    {
        int32_t x0 = DG_MAX(p.x - r, 0), x1 = DG_MIN(p.x + r, w - 1);
        int32_t y0 = DG_MAX(p.y - r + 1, 0), y1 = DG_MIN(p.y + r - 1, h - 1);
        for (int32_t x = x0; x <= x1 && p.y - r >= 0; x++)
            nearer(pl, p, x, p.y - r, &best, &best_d2);
        for (int32_t x = x0; x <= x1 && r > 0 && p.y + r < h; x++)
            nearer(pl, p, x, p.y + r, &best, &best_d2);
        for (int32_t y = y0; y <= y1 && p.x - r >= 0; y++)
            nearer(pl, p, p.x - r, y, &best, &best_d2);
        for (int32_t y = y0; y <= y1 && p.x + r < w; y++)
            nearer(pl, p, p.x + r, y, &best, &best_d2);
    }
    return best;
}

/* The first good cell of the largest region, else its first cell. */
static dg_point region_seed(placer *pl)
{
    int32_t largest;
    dg_point first = {-1, -1};
    dgi_regions_move(&pl->w, pl->s.a, NULL, 0, &largest);
    for (int32_t y = 0; y < pl->w.height; y++)
        for (int32_t x = 0; x < pl->w.width; x++)
        {
            if (largest < 0 || pl->s.a[y * pl->w.width + x] != largest)
                continue;
            if (good_cell(pl, x, y))
                return (dg_point){x, y};
            if (first.x < 0)
                first = (dg_point){x, y};
        }
    return first;
}

/* Candidates for spawns into s.a (packed, row-major); returns their number. */
static int32_t spawn_candidates(placer *pl, dg_point start, dg_point exit, int32_t min_distance)
{
    int32_t count = 0;
    for (int32_t y = 0; y < pl->w.height; y++)
        for (int32_t x = 0; x < pl->w.width; x++)
        {
            int32_t d = pl->s.b[y * pl->w.width + x];
            if (d < min_distance || d < 0 || !good_cell(pl, x, y) ||
                (x == start.x && y == start.y) || (x == exit.x && y == exit.y))
                continue;
            pl->s.a[count++] = DGI_PACK(x, y);
        }
    return count;
}

/* Picks `count` of the candidates uniformly (partial Fisher-Yates). */
static void choose_spawns(int32_t *cand, int32_t total, int32_t count, uint64_t seed)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, SPAWN_STREAM);
    for (int32_t k = 0; k < count; k++)
    {
        int32_t j = k + (int32_t)dg_rng_below(&rng, (uint32_t)(total - k));
        int32_t t = cand[k];
        cand[k] = cand[j];
        cand[j] = t;
    }
}

static dg_status add_marker(dg_result *r, dg_point p, int32_t kind, const char *name)
{
    dg_marker m;
    memset(&m, 0, sizeof m);
    m.pos = p;
    m.kind = kind;
    m.room = dgi_result_room_at(r, p);
    memcpy(m.name, name, strlen(name) + 1);
    return dgi_result_add_marker(r, &m);
}

/* Appends the markers and sets start/exit (a kept start and exit stay); on
 * failure the result is as it was. */
static dg_status fill_result(dg_result *r, const dg_placement *pl, const int32_t *spawns,
                             int kept, dg_diag *diag)
{
    int32_t before = r->marker_count;
    dg_status st = add_marker(r, pl->start, DG_MARKER_START, "start");
    if (st == DG_OK)
        st = add_marker(r, pl->exit, DG_MARKER_EXIT, "exit");
    for (int32_t k = 0; st == DG_OK && k < pl->spawn_count; k++)
    {
        dg_point p = {DGI_PX(spawns[k]), DGI_PY(spawns[k])};
        st = add_marker(r, p, DG_MARKER_SPAWN, "spawn");
    }
    if (st != DG_OK)
    {
        r->marker_count = before;
        return dgi_fail(diag, st, "cannot grow the result's markers");
    }
    if (!kept)
    {
        r->start = pl->start;
        r->start_room = dgi_result_room_at(r, pl->start);
    }
    if (!kept || !has_point(r->exit))
    {
        r->exit = pl->exit;
        r->exit_room = dgi_result_room_at(r, pl->exit);
    }
    return DG_OK;
}

/* The kept start and exit of a generator's result; distance -1 if the exit
 * cannot be walked to. */
static dg_status keep_result_ends(placer *pl, const dg_result *r, dg_placement *out,
                                  dg_diag *diag)
{
    if (!pl->w.pass[DG_CELL(&pl->w, r->start.x, r->start.y)])
        return dgi_fail(diag, DG_E_INVALID, "result start (%d, %d) is not passable",
                        (int)r->start.x, (int)r->start.y);
    out->start = r->start;
    out->exit = farthest_good(pl, r->start, &out->distance); /* also the distances */
    if (has_point(r->exit))
    {
        out->exit = r->exit;
        out->distance = pl->s.b[(size_t)r->exit.y * (size_t)pl->w.width + (size_t)r->exit.x];
        if (out->distance < 0)
            return dgi_fail(diag, DG_E_INVALID, "result exit (%d, %d) cannot be walked to from "
                            "its start", (int)r->exit.x, (int)r->exit.y);
    }
    return DG_OK;
}

/* Start, exit and the chosen spawns (packed, in pl->s.a). keep: the
 * result's start (and exit, if set) stay. */
static dg_status place_all(placer *pl, const dg_place_params *p, const dg_result *keep,
                           uint64_t seed, dg_placement *out, dg_diag *diag)
{
    memset(out, 0, sizeof *out);
    int none = !has_point(p->arrival);
    dg_status st = keep ? keep_result_ends(pl, keep, out, diag) : DG_OK;
    if (st != DG_OK)
        return st;
    if (!keep)
    {
        dg_point start = none ? region_seed(pl) : nearest_passable(pl, p->arrival);
        if (start.x < 0)
            return dgi_fail(diag, DG_E_NOSPACE, "the grid has no passable cell");
        int32_t distance;
        if (none) /* double sweep: start at one end of a long walk */
            start = farthest_good(pl, start, &distance);
        out->start = start;
        out->exit = farthest_good(pl, start, &out->distance);
    }
    int32_t total = spawn_candidates(pl, out->start, out->exit, p->spawn_min_distance);
    if (total < p->spawn_count)
        return dgi_fail(diag, DG_E_NOSPACE,
                        "%d spawn points wanted, %d room cells qualify (>= %d steps from start)",
                        (int)p->spawn_count, (int)total, (int)p->spawn_min_distance);
    choose_spawns(pl->s.a, total, p->spawn_count, seed);
    out->spawn_count = p->spawn_count;
    return DG_OK;
}

dg_status dg_place(const dg_grid *grid, const dg_place_params *params, uint64_t seed,
                   dg_result *result, dg_placement *placement, dg_point *spawns,
                   int32_t spawns_cap, const dg_allocator *allocator, dg_diag *diag)
{
    dg_place_params def;
    dg_place_defaults(&def);
    const dg_place_params *p = params ? params : &def;
    dg_status st = dgi_grid_validate(grid, diag);
    if (st == DG_OK)
        st = check_params(grid, p, spawns, spawns_cap, placement, diag);
    if (st == DG_OK && result && !has_point(p->arrival))
        st = check_kept(grid, result, diag);
    placer pl;
    if (st != DG_OK || (st = dgi_scratch_get(&pl.s, grid, 1, allocator, diag)) != DG_OK)
        return st;
    dgi_move_basic(&pl.w, grid, p->passable);
    pl.room = p->room_tiles ? p->room_tiles : room_default;
    dgi_articulation(&pl.w, pl.s.mark, pl.s.a, pl.s.b, pl.s.c, pl.s.it);
    /* without an arrival, a generator's start and exit stay where it put them */
    const dg_result *keep = result && !has_point(p->arrival) && has_point(result->start) ? result : NULL;
    dg_placement out;
    st = place_all(&pl, p, keep, seed, &out, diag);
    if (st == DG_OK && result)
        st = fill_result(result, &out, pl.s.a, keep != NULL, diag);
    if (st == DG_OK)
    {
        *placement = out;
        for (int32_t k = 0; spawns && k < out.spawn_count; k++)
        {
            spawns[k].x = DGI_PX(pl.s.a[k]);
            spawns[k].y = DGI_PY(pl.s.a[k]);
        }
        dgi_diag_ok(diag);
    }
    dgi_scratch_free(&pl.s, allocator);
    return st;
}
