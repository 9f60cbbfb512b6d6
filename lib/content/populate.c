/* dg_populate: spawn-table entries placed room by room on a difficulty budget
 * that grows with depth (the caller's curve) and with the room's walking
 * distance from the start (docs/content.md). */
#include "content/spawn.h"

#define POPULATE_STREAM 0x706F70756CULL /* one random stream per room, from this */
#define FAILS_MAX 8                     /* failed picks that end a room */

void dg_populate_defaults(dg_populate_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->depth = 1;
    params->curve_points = 2;
    params->curve_depth[0] = 1;
    params->curve_budget[0] = 2;
    params->curve_depth[1] = 31;
    params->curve_budget[1] = 32;
    params->distance_permille = 2000;
    params->cells_per_spawn = 6;
}

/* ---- checks ------------------------------------------------------------------ */

static dg_status check_curve(const dg_populate_params *p, dg_diag *diag)
{
    if (p->curve_points < 1 || p->curve_points > DG_POPULATE_CURVE_MAX)
        return dgi_fail(diag, DG_E_INVALID, "curve_points (%d) must be in 1..%d",
                        (int)p->curve_points, DG_POPULATE_CURVE_MAX);
    for (int32_t i = 0; i < p->curve_points; i++)
    {
        if (p->curve_budget[i] < 0 || p->curve_budget[i] > 1000000)
            return dgi_fail(diag, DG_E_INVALID, "curve_budget[%d] (%d) must be in 0..1000000",
                            (int)i, (int)p->curve_budget[i]);
        if (p->curve_depth[i] < 0 || p->curve_depth[i] > DG_SPAWN_DEPTH_MAX)
            return dgi_fail(diag, DG_E_INVALID, "curve_depth[%d] (%d) must be in 0..%d", (int)i,
                            (int)p->curve_depth[i], DG_SPAWN_DEPTH_MAX);
        if (i > 0 && p->curve_depth[i] <= p->curve_depth[i - 1])
            return dgi_fail(diag, DG_E_INVALID,
                            "curve_depth[%d] (%d) must be greater than curve_depth[%d] (%d)",
                            (int)i, (int)p->curve_depth[i], (int)(i - 1),
                            (int)p->curve_depth[i - 1]);
        if (i > 0 && p->curve_budget[i] < p->curve_budget[i - 1])
            return dgi_fail(diag, DG_E_INVALID,
                            "the budget curve decreases: curve_budget[%d] (%d) is below "
                            "curve_budget[%d] (%d)", (int)i, (int)p->curve_budget[i],
                            (int)(i - 1), (int)p->curve_budget[i - 1]);
    }
    return DG_OK;
}

static dg_status check_params(const dg_populate_params *p, dg_diag *diag)
{
    if (dgi_spare_check(p->spare, "populate params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->depth < 0 || p->depth > DG_SPAWN_DEPTH_MAX)
        return dgi_fail(diag, DG_E_INVALID, "depth (%d) must be in 0..%d", (int)p->depth,
                        DG_SPAWN_DEPTH_MAX);
    if (p->distance_permille < 0 || p->distance_permille > 100000)
        return dgi_fail(diag, DG_E_INVALID, "distance_permille (%d) must be in 0..100000",
                        (int)p->distance_permille);
    if (p->cells_per_spawn < 1 || p->cells_per_spawn > 1000)
        return dgi_fail(diag, DG_E_INVALID, "cells_per_spawn (%d) must be in 1..1000",
                        (int)p->cells_per_spawn);
    if (p->view_radius < 0)
        return dgi_fail(diag, DG_E_INVALID, "view_radius (%d) must be >= 0", (int)p->view_radius);
    return check_curve(p, diag);
}

static const char *role_of(const dg_result *r, int32_t room)
{
    return r->labels && r->label_count == r->room_count ? r->labels[room].role : "";
}

static const char *kind_name(int32_t kind)
{
    static const char *const names[] = {"normal", "prefab", "cave", "start", "junction"};
    return kind >= 0 && kind < 5 ? names[kind] : "";
}

static int is_boss_room(const dg_result *r, int32_t room)
{
    return strcmp(role_of(r, room), "boss") == 0;
}

static int is_treasure_room(const dg_result *r, int32_t room)
{
    return strcmp(role_of(r, room), "treasure") == 0;
}

/* A boss room needs an entry that lists "boss"; a treasure room an item
 * that may appear in it. */
static dg_status check_roles(const dg_spawn_table *t, const dg_result *r, dg_diag *diag)
{
    for (int32_t i = 0; i < r->room_count; i++)
    {
        int boss = is_boss_room(r, i), treasure = is_treasure_room(r, i);
        int found = !boss && !treasure;
        for (int32_t k = 0; k < t->count && !found; k++)
        {
            const dg_spawn_entry *e = &t->entries[k];
            found = boss ? dgi_spawn_lists(e, "boss")
                         : dgi_spawn_marker_kind(e) == DG_MARKER_ITEM &&
                               dgi_spawn_fits_room(e, "treasure", kind_name(r->rooms[i].kind));
        }
        if (!found)
            return dgi_fail(diag, DG_E_INVALID,
                            "the spawn table has no entry for role '%s' (room %d): %s",
                            boss ? "boss" : "treasure", (int)i,
                            boss ? "add one whose rooms list 'boss'"
                                 : "add an item whose rooms allow 'treasure'");
    }
    return DG_OK;
}

static dg_status check_input(const dg_grid *g, const dg_spawn_table *t, const dg_populate_params *p,
                             const dg_result *r, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(g, diag);
    if (st != DG_OK)
        return st;
    if (!t)
        return dgi_fail(diag, DG_E_NULL, "populate: table is NULL");
    if (!r)
        return dgi_fail(diag, DG_E_NULL, "populate: result is NULL");
    if ((st = check_params(p, diag)) != DG_OK)
        return st;
    dg_point s = r->start;
    if (s.x < 0 || s.y < 0 || s.x >= g->width || s.y >= g->height)
        return dgi_fail(diag, DG_E_INVALID, "the result's start (%d, %d) is not a cell of the "
                        "%dx%d grid", (int)s.x, (int)s.y, (int)g->width, (int)g->height);
    const uint8_t *pass = p->passable ? p->passable : dgi_passable_default;
    if (!pass[DG_CELL(g, s.x, s.y)])
        return dgi_fail(diag, DG_E_INVALID, "the result's start (%d, %d) is not passable",
                        (int)s.x, (int)s.y);
    return check_roles(t, r, diag);
}

/* ---- the populating state ---------------------------------------------------- */

typedef struct pop {
    const dg_grid *grid;
    const dg_spawn_table *table;
    const dg_populate_params *p;
    const dg_result *r;
    dgi_move w;
    dgi_scratch s;   /* a: room cells; b: distances; c: queue; mark: chokepoints */
    uint8_t *bytes;  /* 3 * n: visible, clearance, occupied */
    uint8_t *visible, *clear, *taken;
    size_t n;
    int32_t *room_dist; /* per room, -1: unreached */
    int32_t max_dist;
    dg_marker *out;
    int32_t out_count, out_cap;
    const dg_allocator *a;
    dg_populate_stats stats;
} pop;

static size_t cell_index(const pop *q, int32_t x, int32_t y)
{
    return (size_t)y * (size_t)q->w.width + (size_t)x;
}

/* The room's rect clipped to the grid. */
static dg_rect room_rect(const pop *q, int32_t room)
{
    dg_rect r = q->r->rooms[room].rect;
    int64_t x0 = DG_MAX(r.x, 0), y0 = DG_MAX(r.y, 0);
    int64_t x1 = DG_MIN((int64_t)r.x + r.w, q->w.width), y1 = DG_MIN((int64_t)r.y + r.h, q->w.height);
    dg_rect c = {(int32_t)x0, (int32_t)y0, (int32_t)DG_MAX(x1 - x0, 0), (int32_t)DG_MAX(y1 - y0, 0)};
    return c;
}

/* Cells where a spawn may stand: dg_place's rule (room floor, not a door or
 * chokepoint), reached from the start, out of its view and off every marker.
 * The clearance over them sizes the footprints. */
static void free_cells(pop *q)
{
    uint8_t *blocked = q->s.it;
    for (int32_t y = 0; y < q->w.height; y++)
        for (int32_t x = 0; x < q->w.width; x++)
        {
            size_t i = cell_index(q, x, y);
            blocked[i] = !dgi_spawn_cell(&q->w, q->p->room_tiles, q->s.mark, x, y) ||
                         q->s.b[i] < 0 || q->visible[i];
        }
    const dg_point ends[2] = {q->r->start, q->r->exit};
    for (int k = 0; k < 2; k++)
        if (ends[k].x >= 0 && ends[k].y >= 0 && ends[k].x < q->w.width && ends[k].y < q->w.height)
            blocked[cell_index(q, ends[k].x, ends[k].y)] = 1;
    for (int32_t m = 0; m < q->r->marker_count; m++)
    {
        dg_point c = q->r->markers[m].pos;
        int32_t side = DG_MAX(q->r->markers[m].size, 1);
        for (int32_t dy = 0; dy < side; dy++)
            for (int32_t dx = 0; dx < side; dx++)
                if (c.x + dx >= 0 && c.y + dy >= 0 && c.x + dx < q->w.width && c.y + dy < q->w.height)
                    blocked[cell_index(q, c.x + dx, c.y + dy)] = 1;
    }
    dgi_move fw = q->w;
    fw.blocked = blocked;
    fw.mask_stride = q->w.width;
    dgi_clearance_fill(&fw, q->clear, DG_CREATURE_SIZE_MAX);
}

/* Walking distance of each room: its nearest reached cell. */
static void room_distances(pop *q)
{
    q->max_dist = 0;
    for (int32_t i = 0; i < q->r->room_count; i++)
    {
        dg_rect c = room_rect(q, i);
        int32_t best = -1;
        for (int32_t y = c.y; y < c.y + c.h; y++)
            for (int32_t x = c.x; x < c.x + c.w; x++)
            {
                int32_t d = q->s.b[cell_index(q, x, y)];
                if (d >= 0 && (best < 0 || d < best))
                    best = d;
            }
        q->room_dist[i] = best;
        q->max_dist = DG_MAX(q->max_dist, best);
    }
}

static int32_t curve_at(const dg_populate_params *p, int32_t depth)
{
    if (depth <= p->curve_depth[0])
        return p->curve_budget[0];
    for (int32_t i = 1; i < p->curve_points; i++)
        if (depth < p->curve_depth[i])
        {
            int64_t d0 = p->curve_depth[i - 1], b0 = p->curve_budget[i - 1];
            int64_t span = p->curve_depth[i] - d0, rise = p->curve_budget[i] - b0;
            return (int32_t)(b0 + (depth - d0) * rise / span);
        }
    return p->curve_budget[p->curve_points - 1];
}

static int32_t room_budget(const pop *q, int32_t room)
{
    int64_t base = curve_at(q->p, q->p->depth);
    int64_t grow = q->max_dist > 0
                       ? (int64_t)q->p->distance_permille * q->room_dist[room] / q->max_dist
                       : 0;
    return (int32_t)DG_MIN(base * (1000 + grow) / 1000, INT32_MAX / 2);
}

/* ---- placing a group ----------------------------------------------------------- */

/* 1 if a size-`side` footprint fits at packed cell c inside rect: free cells
 * (the clearance) not taken by an earlier spawn. */
static int fits(const pop *q, dg_rect rect, int32_t c, int32_t side)
{
    int32_t x = DGI_PX(c), y = DGI_PY(c);
    if (q->clear[cell_index(q, x, y)] < side || x + side > rect.x + rect.w ||
        y + side > rect.y + rect.h)
        return 0;
    for (int32_t dy = 0; dy < side; dy++)
        for (int32_t dx = 0; dx < side; dx++)
            if (q->taken[cell_index(q, x + dx, y + dy)])
                return 0;
    return 1;
}

/* A fitting cell: the first from a random place in the room's list, or (near
 * >= 0) the nearest to the packed cell near; -1 if none fits. */
static int32_t find_cell(const pop *q, dg_rect rect, const int32_t *cells, int32_t count,
                         int32_t side, int32_t near, dg_rng *rng)
{
    if (near < 0)
    {
        int32_t from = (int32_t)dgi_rng_below(rng, (uint32_t)count);
        for (int32_t k = 0; k < count; k++)
        {
            int32_t c = cells[(from + k) % count];
            if (fits(q, rect, c, side))
                return c;
        }
        return -1;
    }
    int32_t best = -1, best_d = INT32_MAX;
    for (int32_t k = 0; k < count; k++)
    {
        int32_t dx = DGI_PX(cells[k]) - DGI_PX(near), dy = DGI_PY(cells[k]) - DGI_PY(near);
        int32_t d = DG_MAX(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
        if (d < best_d && fits(q, rect, cells[k], side))
        {
            best = cells[k];
            best_d = d;
        }
    }
    return best;
}

static dg_status add_spawn(pop *q, const dg_spawn_entry *e, int32_t room, int32_t c, int32_t group)
{
    if (dgi_grow(q->a, (void **)&q->out, &q->out_cap, q->out_count + 1, sizeof *q->out) != DG_OK)
        return DG_E_NOMEM;
    dg_marker *m = &q->out[q->out_count++];
    memset(m, 0, sizeof *m);
    m->pos.x = DGI_PX(c);
    m->pos.y = DGI_PY(c);
    m->kind = dgi_spawn_marker_kind(e);
    m->room = room;
    memcpy(m->name, e->name, sizeof m->name);
    memcpy(m->type, e->kind, sizeof m->type);
    m->number = group;
    m->size = e->size;
    m->cost = e->cost;
    for (int32_t dy = 0; dy < e->size; dy++)
        for (int32_t dx = 0; dx < e->size; dx++)
            q->taken[cell_index(q, m->pos.x + dx, m->pos.y + dy)] = 1;
    return DG_OK;
}

/* Places up to `members` of entry e around one leader; *placed gets how many. */
static dg_status place_group(pop *q, const dg_spawn_entry *e, int32_t room, dg_rect rect,
                             const int32_t *cells, int32_t count, int32_t members, dg_rng *rng,
                             int32_t *placed)
{
    *placed = 0;
    int32_t leader = find_cell(q, rect, cells, count, e->size, -1, rng);
    if (leader < 0)
        return DG_OK;
    int32_t group = q->stats.groups + 1;
    dg_status st = DG_OK;
    for (int32_t c = leader; st == DG_OK && c >= 0 && *placed < members;)
    {
        st = add_spawn(q, e, room, c, group);
        if (st == DG_OK)
            ++*placed;
        c = *placed < members ? find_cell(q, rect, cells, count, e->size, leader, rng) : -1;
    }
    q->stats.groups++;
    return st;
}

/* ---- one room ---------------------------------------------------------------- */

typedef struct room_state {
    int32_t room, budget, left, slots_left, count;
    int32_t least; /* the least cost an entry may have (least_cost) */
    int boss, treasure;
    dg_rect rect;
    const char *role, *kind;
} room_state;

/* 1 if e may be picked to spend the room's budget. */
static int may_fill(const pop *q, const room_state *rs, const dg_spawn_entry *e)
{
    if (!dgi_spawn_at_depth(e, q->p->depth) || dgi_spawn_lists(e, "boss") ||
        !dgi_spawn_fits_room(e, rs->role, rs->kind))
        return 0;
    if (rs->treasure && dgi_spawn_marker_kind(e) != DG_MARKER_ITEM)
        return 0;
    return (int64_t)e->cost * e->group_min <= rs->left && e->cost >= rs->least &&
           e->group_min <= rs->slots_left;
}

/* The least cost an entry picked now may have: the budget left per
 * footprint cell left, or the costliest entry that fits if that is less, so
 * that a room far from the start spends its budget on harder spawns rather
 * than on more of them. */
static int32_t least_cost(const pop *q, room_state *rs)
{
    rs->least = 0;
    int32_t want = rs->left / DG_MAX(rs->slots_left, 1), most = 0;
    for (int32_t k = 0; k < q->table->count; k++)
    {
        const dg_spawn_entry *e = &q->table->entries[k];
        if (e->cost > most && may_fill(q, rs, e))
            most = e->cost;
    }
    return DG_MIN(want, most);
}

/* A weighted pick among the entries `boss` (1: boss entries at this depth) or
 * may_fill; -1 if none. */
static int32_t pick_entry(const pop *q, const room_state *rs, int boss, dg_rng *rng)
{
    uint64_t total = 0;
    for (int32_t k = 0; k < q->table->count; k++)
    {
        const dg_spawn_entry *e = &q->table->entries[k];
        if (boss ? dgi_spawn_lists(e, "boss") && dgi_spawn_at_depth(e, q->p->depth) : may_fill(q, rs, e))
            total += (uint64_t)e->weight;
    }
    if (total == 0)
        return -1;
    uint64_t roll = dgi_rng_below(rng, (uint32_t)total); /* at most 4096 * 10^6 < 2^32 */
    for (int32_t k = 0; k < q->table->count; k++)
    {
        const dg_spawn_entry *e = &q->table->entries[k];
        if (!(boss ? dgi_spawn_lists(e, "boss") && dgi_spawn_at_depth(e, q->p->depth) : may_fill(q, rs, e)))
            continue;
        if (roll < (uint64_t)e->weight)
            return k;
        roll -= (uint64_t)e->weight;
    }
    return -1;
}

/* Members of a group of e the room can still pay and hold. */
static int32_t group_size(const room_state *rs, const dg_spawn_entry *e, int boss, dg_rng *rng)
{
    int32_t hi = e->group_max;
    if (!boss && e->cost > 0)
        hi = (int32_t)DG_MIN(hi, rs->left / e->cost);
    hi = DG_MIN(hi, rs->slots_left);
    return dg_rng_range(rng, e->group_min, DG_MAX(hi, e->group_min));
}

static dg_status spend(pop *q, room_state *rs, int32_t k, int boss, dg_rng *rng, int32_t *placed)
{
    const dg_spawn_entry *e = &q->table->entries[k];
    int32_t members = group_size(rs, e, boss, rng);
    dg_status st = place_group(q, e, rs->room, rs->rect, q->s.a, rs->count, members, rng, placed);
    rs->left = (int32_t)DG_MAX((int64_t)rs->left - (int64_t)e->cost * *placed, 0);
    rs->slots_left -= *placed;
    q->stats.spent += e->cost * *placed;
    q->stats.spawns += *placed;
    return st;
}

/* The free cells of the room's rect into s.a; their number. */
static int32_t room_cells(pop *q, dg_rect c)
{
    int32_t count = 0;
    for (int32_t y = c.y; y < c.y + c.h; y++)
        for (int32_t x = c.x; x < c.x + c.w; x++)
            if (q->clear[cell_index(q, x, y)] > 0 && !q->taken[cell_index(q, x, y)])
                q->s.a[count++] = DGI_PACK(x, y);
    return count;
}

static dg_status populate_room(pop *q, int32_t room, uint64_t seed)
{
    room_state rs;
    memset(&rs, 0, sizeof rs);
    rs.room = room;
    rs.role = role_of(q->r, room);
    rs.kind = kind_name(q->r->rooms[room].kind);
    if (room == q->r->start_room || strcmp(rs.role, "start") == 0)
    {
        q->stats.skipped_start++;
        return DG_OK;
    }
    rs.rect = room_rect(q, room);
    rs.count = room_cells(q, rs.rect);
    if (rs.count == 0 || q->room_dist[room] < 0)
    {
        q->stats.skipped_no_cell++;
        return DG_OK;
    }
    rs.boss = is_boss_room(q->r, room);
    rs.treasure = is_treasure_room(q->r, room);
    rs.budget = rs.left = room_budget(q, room);
    rs.slots_left = DG_MAX(rs.count / q->p->cells_per_spawn, 1);
    dg_rng rng;
    dgi_rng_seed(&rng, dgi_hash_combine(seed, (uint64_t)room), POPULATE_STREAM);
    int32_t before = q->stats.spawns, placed = 0;
    dg_status st = DG_OK;
    if (rs.boss)
    {
        int32_t k = pick_entry(q, &rs, 1, &rng);
        if (k >= 0)
            st = spend(q, &rs, k, 1, &rng, &placed);
        if (placed == 0)
            q->stats.boss_missing++;
    }
    for (int32_t fails = 0; st == DG_OK && fails < FAILS_MAX && rs.slots_left > 0;)
    {
        rs.least = least_cost(q, &rs);
        int32_t k = pick_entry(q, &rs, 0, &rng);
        if (k < 0)
            break;
        st = spend(q, &rs, k, 0, &rng, &placed);
        fails += placed == 0 || q->table->entries[k].cost == 0;
    }
    if (q->stats.spawns == before)
        q->stats.skipped_no_entry++;
    else
    {
        q->stats.rooms_populated++;
        q->stats.budget += rs.budget;
    }
    return st;
}

/* ---- the call ---------------------------------------------------------------- */

static dg_status prepare(pop *q, dg_diag *diag)
{
    q->n = (size_t)q->w.width * (size_t)q->w.height;
    dg_status st = dgi_scratch_get(&q->s, q->grid, 1, q->a, diag);
    if (st != DG_OK)
        return st;
    q->bytes = dgi_calloc(q->a, 3, q->n);
    q->room_dist = dgi_calloc(q->a, (size_t)DG_MAX(q->r->room_count, 1), sizeof(int32_t));
    if (!q->bytes || !q->room_dist)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for dg_populate's scratch");
    q->visible = q->bytes;
    q->clear = q->bytes + q->n;
    q->taken = q->bytes + 2 * q->n;
    dgi_articulation(&q->w, q->s.mark, q->s.a, q->s.b, q->s.c, q->s.it);
    dg_distance_info info;
    dgi_bfs_move(&q->w, &q->r->start, 1, 0, q->s.b, q->s.c, &info);
    st = dg_fov(q->grid, NULL, q->r->start, q->p->view_radius, q->visible, q->n, q->a, diag);
    if (st != DG_OK)
        return st;
    free_cells(q);
    room_distances(q);
    return DG_OK;
}

static void release(pop *q)
{
    dgi_scratch_free(&q->s, q->a);
    dgi_free(q->a, q->bytes, 3 * q->n);
    dgi_free(q->a, q->room_dist, (size_t)DG_MAX(q->r->room_count, 1) * sizeof(int32_t));
    dgi_free(q->a, q->out, (size_t)q->out_cap * sizeof *q->out);
}

/* Appends the spawns; on failure the result keeps its markers. */
static dg_status commit(pop *q, dg_result *r, dg_diag *diag)
{
    if (dgi_result_reserve(r, r->room_count, r->corridor_count, r->door_count,
                           r->marker_count + q->out_count) != DG_OK)
        return dgi_fail(diag, DG_E_NOMEM, "cannot grow the result's markers");
    for (int32_t i = 0; i < q->out_count; i++)
        (void)dgi_result_add_marker(r, &q->out[i]);
    return DG_OK;
}

dg_status dg_populate(const dg_grid *grid, const dg_spawn_table *table,
                      const dg_populate_params *params, uint64_t seed, dg_result *result,
                      dg_populate_stats *stats, const dg_allocator *allocator, dg_diag *diag)
{
    dg_populate_params def;
    dg_populate_defaults(&def);
    pop q;
    memset(&q, 0, sizeof q);
    q.p = params ? params : &def;
    dg_status st = check_input(grid, table, q.p, result, diag);
    if (st != DG_OK)
        return st;
    q.grid = grid;
    q.table = table;
    q.r = result;
    q.a = allocator;
    dgi_move_basic(&q.w, grid, q.p->passable);
    st = prepare(&q, diag);
    for (int32_t i = 0; st == DG_OK && i < result->room_count; i++)
        if ((st = populate_room(&q, i, seed)) != DG_OK)
            dgi_fail(diag, st, "out of memory for the spawns");
    if (st == DG_OK)
        st = commit(&q, result, diag);
    if (st == DG_OK)
    {
        if (stats)
            *stats = q.stats;
        dgi_diag_ok(diag);
    }
    release(&q);
    return st;
}
