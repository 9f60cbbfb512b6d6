/* Mixed generation: vaults stamped into a map another generator made, only
 * on open floor, doors onto open floor, never cutting the map apart. */
#include "prefab.h"

#define DGI_MIXED_POSITIONS_PER_CELL 16 /* the call's budget of positions, per grid cell */

typedef struct mixed {
    const dg_prefab_set *set;
    const dg_prefab_mixed_params *p;
    int32_t *rooms;      /* indices of the host rooms (not prefab rooms) */
    int32_t room_count;
    int64_t *weights;
    uint8_t *used;
    uint8_t *dead;       /* 1: a prefab that fits nowhere any more, whatever its outcome */
    int32_t *alive_at;   /* room count + 1 when a prefab was last seen to fit somewhere */
    int64_t attempts;    /* positions tried (reported saturated to int32) */
    int64_t budget;      /* positions the whole call may try (docs/prefabs.md) */
    uint8_t *occ;        /* 1 under a vault placed here */
    uint8_t *mark;       /* local connectivity: cells of the box + ring to visit */
    int32_t *stack;
    uint8_t *backup;
    size_t cells, backup_size;
    uint8_t buf[4096];
} mixed;

void dg_prefab_mixed_defaults(dg_prefab_mixed_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->mode = DG_PREFAB_ISLAND;
    p->count = 3;
    p->orientations = DG_ORIENT_MASK_ALL;
    p->positions = 200;
    p->in_rooms = 1;
    p->unique = 1;
}

static dg_status check_params(const dg_grid *grid, const dg_prefab_set *set,
                              const dg_prefab_mixed_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_mixed: set is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (p->mode != DG_PREFAB_FULL && p->mode != DG_PREFAB_JIGSAW && p->mode != DG_PREFAB_ISLAND &&
        p->mode != DG_PREFAB_FURNISH)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: mode %d is not one of 1 (full), 2 (jigsaw), 4 (island), 8 (furnish)", (int)p->mode);
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->count < 0 || p->count > 100000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: count %d must be 0..100000", (int)p->count);
    if (p->positions < 1 || p->positions > 100000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: positions %d must be 1..100000", (int)p->positions);
    if (p->in_rooms < 0 || p->in_rooms > 1 || p->unique < 0 || p->unique > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: in_rooms and unique must be 0 or 1");
    return DG_OK;
}

/* The result's host rooms (the ones vaults are drawn in) must lie in the grid;
 * the sums are 64-bit as a caller's room may reach INT32_MAX. */
static dg_status check_rooms(const dg_grid *g, const dg_result *r, const dg_prefab_mixed_params *p,
                             dg_diag *diag)
{
    for (int32_t i = 0; r && p->in_rooms && i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        if (r->rooms[i].kind == DG_ROOM_PREFAB || q.w <= 0 || q.h <= 0)
            continue;
        if (q.x < 0 || q.y < 0 || (int64_t)q.x + q.w > g->width || (int64_t)q.y + q.h > g->height)
            return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: room %d (%d, %d, %dx%d) is not inside "
                            "the %dx%d grid", (int)i, (int)q.x, (int)q.y, (int)q.w, (int)q.h,
                            (int)g->width, (int)g->height);
    }
    return DG_OK;
}

static int open_floor(uint8_t tile)
{
    return dg_tile_passable(tile) && tile != DG_TILE_DOOR;
}

/* Every non-void cell on open floor not under another vault, every border
 * door facing open floor outside the box. */
static int fits(const mixed *m, const dg_grid *g, const dgi_prefab *q, const uint8_t *glyphs,
                const dgi_xform *t, int32_t x, int32_t y, const uint8_t *skip)
{
    const dgi_glyph *lg = m->set->legends[q->legend].glyph;
    static const int32_t ox[4] = {0, 1, 0, -1}, oy[4] = {-1, 0, 1, 0};
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
        {
            uint8_t glyph = glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y];
            const dgi_glyph *d = &lg[glyph];
            if (d->cls == DGI_CLASS_VOID || (skip && skip[glyph]))
                continue;
            int32_t cx = x + X, cy = y + Y;
            if (!open_floor(DG_CELL(g, cx, cy)) || m->occ[(size_t)cy * (size_t)g->width + (size_t)cx])
                return 0;
            if (d->cls != DGI_CLASS_DOOR)
                continue;
            int faces[4] = {Y == 0, X == t->w - 1, Y == t->h - 1, X == 0};
            for (int s = 0; s < 4; s++)
            {
                int32_t nx = cx + ox[s], ny = cy + oy[s];
                if (faces[s] && (!open_floor(dg_grid_get(g, nx, ny)) ||
                                 m->occ[(size_t)ny * (size_t)g->width + (size_t)nx]))
                    return 0;
            }
        }
    return 1;
}

/* After a trial stamp in box b: are the passable cells that touch the vault
 * (its own and its 4-neighbours) connected inside the box grown by one? Then
 * any path that crossed the box can go around, so nothing was cut apart. */
static int still_connected(mixed *m, const dg_grid *g, dg_rect b)
{
    int32_t x0 = DG_MAX(0, b.x - 1), y0 = DG_MAX(0, b.y - 1);
    int32_t x1 = DG_MIN(g->width, b.x + b.w + 1), y1 = DG_MIN(g->height, b.y + b.h + 1);
    int32_t W = g->width, need = 0, top = 0, reached = 0;
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
        {
            size_t i = (size_t)y * (size_t)W + (size_t)x;
            m->mark[i] = 0;
            if (!dg_tile_passable(DG_CELL(g, x, y)))
                continue;
            m->mark[i] = 1; /* passable, inside the region */
            int touches = m->occ[i] == 2;
            for (int d = 0; d < 4 && !touches; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d];
                touches = nx >= 0 && ny >= 0 && nx < W && ny < g->height &&
                          m->occ[(size_t)ny * (size_t)W + (size_t)nx] == 2;
            }
            if (touches)
            {
                m->mark[i] = 2; /* must be reached */
                need++;
                if (top == 0)
                    m->stack[top++] = (int32_t)i;
            }
        }
    if (top)
    {
        m->mark[m->stack[0]] = 3;
        reached = 1;
    }
    while (top > 0)
    {
        int32_t c = m->stack[--top], x = c % W, y = c / W;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1)
                continue;
            size_t ni = (size_t)ny * (size_t)W + (size_t)nx;
            if (m->mark[ni] == 1 || m->mark[ni] == 2)
            {
                reached += m->mark[ni] == 2;
                m->mark[ni] = 3;
                m->stack[top++] = (int32_t)ni;
            }
        }
    }
    return need > 0 && reached == need; /* it must touch the map, and not cut it */
}

/* Marks the vault's footprint in occ with `value`. */
static void mark_footprint(mixed *m, const dg_grid *g, const dgi_prefab *q, const uint8_t *glyphs,
                           const dgi_xform *t, int32_t x, int32_t y, uint8_t value)
{
    const dgi_glyph *lg = m->set->legends[q->legend].glyph;
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
            if (lg[glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].cls != DGI_CLASS_VOID)
                m->occ[(size_t)(y + Y) * (size_t)g->width + (size_t)(x + X)] = value;
}

/* Stamps, checks the cut, and undoes it if the map would fall apart. */
static int try_at(mixed *m, dgi_gen *gen, int32_t index, int32_t o, const uint8_t *glyphs,
                  const dgi_xform *t, int32_t x, int32_t y)
{
    const dgi_prefab *q = &m->set->prefabs[index];
    dg_grid *g = &gen->g;
    if (!fits(m, g, q, glyphs, t, x, y, NULL))
        return 0;
    for (int32_t Y = 0; Y < t->h; Y++)
        memcpy(m->backup + (size_t)Y * (size_t)t->w, &DG_CELL(g, x, y + Y), (size_t)t->w);
    dgi_prefab_write(m->set, q, glyphs, o, g, x, y, NULL);
    mark_footprint(m, g, q, glyphs, t, x, y, 2);
    dg_rect box = {x, y, t->w, t->h};
    int ok = still_connected(m, g, box);
    mark_footprint(m, g, q, glyphs, t, x, y, ok ? 1 : 0);
    if (!ok)
        for (int32_t Y = 0; Y < t->h; Y++)
            memcpy(&DG_CELL(g, x, y + Y), m->backup + (size_t)Y * (size_t)t->w, (size_t)t->w);
    return ok;
}

/* 1 if the oriented prefab fits (cells and doors) at some position of area. */
static int fits_in(const mixed *m, const dg_grid *g, const dgi_prefab *q, const uint8_t *glyphs,
                   int32_t o, dg_rect area, const uint8_t *skip)
{
    dgi_xform t;
    dgi_xform_make(q->width, q->height, o, &t);
    for (int32_t y = area.y; y + t.h <= area.y + area.h; y++)
        for (int32_t x = area.x; x + t.w <= area.x + area.w; x++)
            if (fits(m, g, q, glyphs, &t, x, y, skip))
                return 1;
    return 0;
}

/* 1 if some outcome of prefab q might fit anywhere a vault could be drawn:
 * some orientation at some position of some host room (or of the grid), with
 * the cells of substituted glyphs left out (they may turn void), so 0 is a
 * proof for every outcome. Vaults only ever cover free floor: 0 stays 0. */
static int fits_anywhere(const mixed *m, const dg_grid *g, const dg_result *r, const dgi_prefab *q)
{
    const uint8_t *glyphs = m->set->cells + q->cells; /* the glyphs as written */
    uint8_t skip[256] = {0};
    for (int32_t k = 0; k < q->sub_count; k++)
        skip[m->set->subs[q->sub_first + k].glyph] = 1;
    for (int32_t k = 0; k < DG_MAX(m->room_count, 1); k++)
    {
        dg_rect area = {0, 0, g->width, g->height};
        if (m->room_count > 0)
            area = r->rooms[m->rooms[k]].rect;
        int32_t mask = dgi_orient_fit(q, q->distinct & m->p->orientations, area.w, area.h);
        for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
            if ((mask >> o & 1) && fits_in(m, g, q, glyphs, o, area, skip))
                return 1;
    }
    return 0;
}

/* 0 if prefab i is eligible and now proven to fit nowhere (marked dead), or
 * is not eligible or dead already; 1 if it might fit. A prefab seen to fit is
 * not scanned again until a vault is placed. */
static int still_fits(mixed *m, const dgi_gen *gen, int32_t i)
{
    int32_t version = gen->r.room_count + 1; /* grows with every vault placed */
    if (m->weights[i] == 0 || m->dead[i])
        return 0;
    if (m->alive_at[i] == version)
        return 1;
    if (fits_anywhere(m, &gen->g, &gen->r, &m->set->prefabs[i]))
        m->alive_at[i] = version;
    else
        m->dead[i] = 1;
    return !m->dead[i];
}

/* 1 if every prefab still eligible is dead: no later vault can be placed. */
static int all_dead(const mixed *m)
{
    for (int32_t i = 0; i < m->set->count; i++)
        if (m->weights[i] > 0 && !m->dead[i])
            return 0;
    return 1;
}

/* One vault: a prefab, then positions (in a random host room, or anywhere). */
static dg_status place_vault(mixed *m, dgi_gen *gen, uint64_t seed, dg_rng *rng, int *placed)
{
    const dg_prefab_set *set = m->set;
    *placed = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int ok = (q->modes & m->p->mode) && q->weight > 0 && dgi_has_tag(set, q, m->p->tag) &&
                 !((m->p->unique || q->unique) && m->used[i]) &&
                 dgi_orient_fit(q, q->distinct & m->p->orientations, gen->g.width, gen->g.height);
        m->weights[i] = ok ? q->weight : 0;
    }
    if (all_dead(m)) /* also when none is eligible */
        return DG_E_NOSPACE;
    int32_t index = dgi_weighted_pick(m->weights, set->count, rng);
    const dgi_prefab *q = &set->prefabs[index];
    uint8_t *heap;
    dg_status st;
    const uint8_t *glyphs = dgi_prefab_glyphs(set, q, seed, m->buf, sizeof m->buf, &heap, &st);
    if (!glyphs)
        return st == DG_E_LIMIT ? DG_OK : st;
    m->used[index] = 1;
    for (int32_t k = 0; k < m->p->positions && !*placed && m->attempts < m->budget; k++)
    {
        dg_rect area = {0, 0, gen->g.width, gen->g.height};
        int32_t parent = -1;
        if (m->room_count > 0)
        {
            parent = m->rooms[dg_rng_below(rng, (uint32_t)m->room_count)];
            area = gen->r.rooms[parent].rect;
        }
        int32_t o = dgi_orient_pick(dgi_orient_fit(q, q->distinct & m->p->orientations, area.w, area.h), rng);
        m->attempts++;
        if (o < 0)
            continue;
        dgi_xform t;
        dgi_xform_make(q->width, q->height, o, &t);
        int32_t x = area.x + (int32_t)dg_rng_below(rng, (uint32_t)(area.w - t.w + 1));
        int32_t y = area.y + (int32_t)dg_rng_below(rng, (uint32_t)(area.h - t.h + 1));
        if (x < 0 || y < 0 || x + t.w > gen->g.width || y + t.h > gen->g.height ||
            !try_at(m, gen, index, o, glyphs, &t, x, y))
            continue;
        st = dgi_gen_place(gen, index, o, glyphs, x, y, DG_ROOM_PREFAB, parent);
        *placed = st == DG_OK;
        if (st != DG_OK)
            break;
    }
    /* A prefab that failed may be proven to fit nowhere; then the others are
     * checked, and once every eligible one is dead generation stops (the later
     * vaults could only fail). */
    if (!*placed && st == DG_OK && !still_fits(m, gen, index))
        for (int32_t i = 0; i < set->count && still_fits(m, gen, i) == 0; i++)
            ; /* the first prefab left that might fit ends the search */
    dgi_prefab_glyphs_free(set, q, heap);
    return st == DG_E_LIMIT ? DG_OK : st;
}

static dg_status mixed_setup(mixed *m, const dgi_gen *gen, const dg_allocator *a)
{
    size_t n = (size_t)DG_MAX(m->set->count, 1);
    int32_t rooms = gen->r.room_count;
    m->cells = (size_t)gen->g.width * (size_t)gen->g.height;
    m->weights = dgi_alloc(a, n * sizeof *m->weights);
    m->used = dgi_calloc(a, n, 1);
    m->dead = dgi_calloc(a, n, 1);
    m->alive_at = dgi_calloc(a, n, sizeof *m->alive_at);
    m->occ = dgi_calloc(a, m->cells, 1);
    m->mark = dgi_alloc(a, m->cells);
    m->stack = dgi_alloc(a, m->cells * sizeof *m->stack);
    for (int32_t i = 0; i < m->set->count; i++)
        m->backup_size = DG_MAX(m->backup_size, (size_t)m->set->prefabs[i].width * (size_t)m->set->prefabs[i].height);
    m->backup = dgi_alloc(a, m->backup_size);
    m->rooms = dgi_alloc(a, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
    if (!m->weights || !m->used || !m->dead || !m->alive_at || !m->occ || !m->mark || !m->stack || !m->backup || !m->rooms)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < rooms && m->p->in_rooms; i++)
        if (gen->r.rooms[i].kind != DG_ROOM_PREFAB && gen->r.rooms[i].rect.w > 0 && gen->r.rooms[i].rect.h > 0)
            m->rooms[m->room_count++] = i;
    return DG_OK;
}

static void mixed_free(mixed *m, const dg_allocator *a, int32_t rooms)
{
    size_t n = (size_t)DG_MAX(m->set->count, 1);
    dgi_free(a, m->weights, n * sizeof *m->weights);
    dgi_free(a, m->used, n);
    dgi_free(a, m->dead, n);
    dgi_free(a, m->alive_at, n * sizeof *m->alive_at);
    dgi_free(a, m->occ, m->cells);
    dgi_free(a, m->mark, m->cells);
    dgi_free(a, m->stack, m->cells * sizeof *m->stack);
    dgi_free(a, m->backup, m->backup_size);
    dgi_free(a, m->rooms, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
}

dg_status dg_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                   const dg_prefab_mixed_params *params, uint64_t seed,
                                   dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_mixed_params p;
    if (params)
        p = *params;
    else
        dg_prefab_mixed_defaults(&p);
    dg_status st = check_params(grid, set, &p, diag);
    if (st == DG_OK)
        st = check_rooms(grid, result, &p, diag);
    if (st != DG_OK)
        return st;
    mixed *m = dgi_alloc(allocator, sizeof *m);
    if (!m)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_mixed: out of memory");
    memset(m, 0, offsetof(mixed, buf)); /* the glyph buffer needs no clearing */
    m->set = set;
    m->p = &p;
    dgi_gen gen;
    st = dgi_gen_begin(&gen, set, grid, result, allocator, 1, 0, 1);
    int32_t rooms = gen.r.room_count, start = result ? result->start_room : -1;
    if (st == DG_OK)
        st = mixed_setup(m, &gen, allocator);
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    int32_t placed = 0;
    gen.r.metrics.attempts = gen.r.metrics.failures = 0;
    gen.r.metrics.requested = p.count;
    /* vaults that fit somewhere but would cut the map apart there are never
     * proven dead, so a count of positions is what bounds the call */
    m->budget = DGI_MIXED_POSITIONS_PER_CELL * (int64_t)grid->width * grid->height;
    for (int32_t v = 0; v < p.count && st == DG_OK && m->attempts < m->budget; v++)
    {
        int ok = 0;
        st = place_vault(m, &gen, dgi_hash_combine(seed, (uint64_t)v), &rng, &ok);
        if (st == DG_E_NOSPACE) /* no prefab left to try */
        {
            st = DG_OK;
            break;
        }
        placed += ok;
        gen.r.metrics.failures += !ok;
    }
    gen.r.metrics.attempts = (int32_t)DG_MIN(m->attempts, INT32_MAX);
    gen.r.metrics.placed = placed;
    gen.r.metrics.stopped_early = placed < p.count;
    if (st != DG_OK)
        dgi_fail(diag, st, "prefab_mixed: out of memory");
    mixed_free(m, allocator, rooms);
    dgi_free(allocator, m, sizeof *m);
    return dgi_gen_end(&gen, st, grid, result, start, diag);
}
