/* Island generator: buildings (island prefabs) dropped at random free
 * positions, rotated or flipped, kept `margin` cells apart, their doors
 * opening onto free cells of the map, placed group by group with counts. */
#include "prefab.h"

#define MAX_GROUPS 64

typedef struct group {
    const char *tag;
    int32_t min, max, start;
} group;

typedef struct islands {
    const dg_prefab_set *set;
    const dg_prefab_islands_params *p;
    int32_t w, h;
    group groups[MAX_GROUPS];
    int32_t group_count;
    uint8_t *occ;   /* 1 on a building's footprint */
    uint8_t *halo;  /* 1 within a building's margin of its footprint */
    int32_t *fit;   /* per prefab: distinct allowed orientations that fit the map */
    uint8_t *solid; /* per prefab: dgi_prefab_solid */
    int proven;     /* pure mode: connected by construction so far (no flood fill needed) */
    int64_t *weights;
    uint8_t *used;  /* per prefab, for `unique` */
    int32_t *stack; /* connectivity check */
    size_t stack_size;
    int32_t *cells, *exits; /* the current building: footprint and door exits (x, y pairs) */
    int32_t cells_n, exits_n, front;
    size_t shape_size;      /* cells of the largest island prefab */
    int32_t min_margin; /* smallest margin of the buildings placed so far */
    uint8_t buf[4096];
} islands;

void dg_prefab_islands_defaults(dg_prefab_islands_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->orientations = DG_ORIENT_MASK_ALL;
    p->margin = -1;
    p->positions = 30;
    p->max_failures = 20;
    p->fill = DG_TILE_FLOOR;
    p->connected = 1;
    p->max_tries = 16;
}

static dg_status check_params(const dg_grid *grid, const dg_prefab_set *set,
                              const dg_prefab_islands_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_islands: set is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->group_count < 0 || p->group_count > MAX_GROUPS || (p->group_count > 0 && !p->groups))
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: group_count %d must be 0..%d with groups "
                        "given", (int)p->group_count, MAX_GROUPS);
    for (int32_t i = 0; i < p->group_count; i++)
    {
        const dg_prefab_group *g = &p->groups[i];
        if (g->min < 0 || g->min > 100000 || (g->max >= 0 && g->max < g->min) || g->max > 100000)
            return dgi_fail(diag, DG_E_INVALID, "prefab_islands: group %d count %d..%d must have "
                            "0 <= min <= max <= 100000 (max < 0: as many as fit)", (int)i,
                            (int)g->min, (int)g->max);
    }
    if (p->margin < -1 || p->margin > 64)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: margin %d must be -1..64", (int)p->margin);
    if (p->positions < 1 || p->positions > 10000 || p->max_failures < 1 || p->max_failures > 10000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: positions %d and max_failures %d must "
                        "be 1..10000", (int)p->positions, (int)p->max_failures);
    if (p->keep < 0 || p->keep > 1 || p->connected < 0 || p->connected > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: keep and connected must be 0 or 1");
    if (p->fill < 0 || p->fill > 255)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: fill %d is not a tile (0..255)", (int)p->fill);
    if (p->max_tries < 1 || p->max_tries > 1000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: max_tries %d must be 1..1000", (int)p->max_tries);
    return DG_OK;
}

static void load_groups(islands *s)
{
    const dg_prefab_islands_params *p = s->p;
    if (p->group_count > 0)
        for (int32_t i = 0; i < p->group_count; i++)
        {
            group g = {p->groups[i].tag, p->groups[i].min, p->groups[i].max < 0 ? -1 : p->groups[i].max,
                       p->groups[i].start != 0};
            s->groups[s->group_count++] = g;
        }
    else if (s->set->group_count > 0)
        for (int32_t i = 0; i < s->set->group_count && i < MAX_GROUPS; i++)
        {
            const dgi_group *d = &s->set->groups[i];
            group g = {d->tag, d->min, d->max, d->start};
            s->groups[s->group_count++] = g;
        }
    else
    {
        group g = {NULL, 0, -1, 0};
        s->groups[s->group_count++] = g;
    }
}

static void islands_free(islands *s, const dg_allocator *a)
{
    size_t cells = (size_t)s->w * (size_t)s->h, n = (size_t)DG_MAX(s->set->count, 1);
    dgi_free(a, s->occ, cells);
    dgi_free(a, s->halo, cells);
    dgi_free(a, s->fit, n * sizeof *s->fit);
    dgi_free(a, s->weights, n * sizeof *s->weights);
    dgi_free(a, s->used, n);
    dgi_free(a, s->solid, n);
    dgi_free(a, s->stack, s->stack_size);
    dgi_free(a, s->cells, s->shape_size * 2 * sizeof *s->cells);
    dgi_free(a, s->exits, s->shape_size * 4 * sizeof *s->exits);
}

static dg_status islands_setup(islands *s, const dg_allocator *a, dg_diag *diag)
{
    size_t cells = (size_t)s->w * (size_t)s->h, n = (size_t)DG_MAX(s->set->count, 1);
    s->occ = dgi_alloc(a, cells);
    s->halo = dgi_alloc(a, cells);
    s->fit = dgi_alloc(a, n * sizeof *s->fit);
    s->weights = dgi_alloc(a, n * sizeof *s->weights);
    s->used = dgi_alloc(a, n);
    s->solid = dgi_calloc(a, n, 1);
    int check = s->p->connected && !s->p->keep;
    if (check)
    {
        s->stack_size = dgi_gen_connected_scratch(s->w, s->h);
        s->stack = dgi_alloc(a, s->stack_size);
    }
    for (int32_t i = 0; i < s->set->count; i++)
        s->shape_size = DG_MAX(s->shape_size, (size_t)s->set->prefabs[i].width * (size_t)s->set->prefabs[i].height);
    s->cells = dgi_alloc(a, s->shape_size * 2 * sizeof *s->cells);
    s->exits = dgi_alloc(a, s->shape_size * 4 * sizeof *s->exits); /* two faces per door at most */
    if (!s->occ || !s->halo || !s->fit || !s->weights || !s->used || (check && !s->stack) ||
        !s->cells || !s->exits || !s->solid)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_islands: out of memory");
    for (int32_t i = 0; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        s->fit[i] = (q->modes & DG_PREFAB_ISLAND) && q->weight > 0
                        ? dgi_orient_fit(q, q->distinct & s->p->orientations, s->w, s->h)
                        : 0;
    }
    /* scratch for the solidity test: the footprint arrays are big enough */
    for (int32_t i = 0; i < s->set->count && check; i++)
        if (s->fit[i])
            s->solid[i] = (uint8_t)dgi_prefab_solid(s->set, &s->set->prefabs[i], s->exits, (uint8_t *)s->cells);
    for (int32_t k = 0; k < s->group_count; k++)
    {
        int any = 0;
        for (int32_t i = 0; i < s->set->count && !any; i++)
            any = s->fit[i] && dgi_has_tag(s->set, &s->set->prefabs[i], s->groups[k].tag);
        if (!any && s->groups[k].min > 0)
            return dgi_fail(diag, DG_E_NOSPACE, "prefab_islands: group '%.40s' has no `mode island` "
                            "prefab that fits a %dx%d grid", s->groups[k].tag ? s->groups[k].tag : "*",
                            (int)s->w, (int)s->h);
    }
    return DG_OK;
}

static int32_t margin_of(const islands *s, const dgi_prefab *q)
{
    return s->p->margin >= 0 ? s->p->margin : q->margin;
}

/* The oriented building as offsets: its footprint (non-void cells) and, for
 * each door on its border, the free cell it must open onto. */
static void make_shape(islands *s, const dgi_prefab *q, const uint8_t *g, const dgi_xform *t)
{
    static const int32_t ox[4] = {0, 1, 0, -1}, oy[4] = {-1, 0, 1, 0};
    const dgi_glyph *lg = s->set->legends[q->legend].glyph;
    s->cells_n = s->exits_n = s->front = 0;
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
        {
            const dgi_glyph *d = &lg[g[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]];
            if (d->cls == DGI_CLASS_VOID)
                continue;
            s->cells[2 * s->cells_n] = X;
            s->cells[2 * s->cells_n++ + 1] = Y;
            int32_t k = s->cells_n - 1; /* corners and centre first: overlaps show there soonest */
            if (((X == 0 || X == t->w - 1) && (Y == 0 || Y == t->h - 1)) || (X == t->w / 2 && Y == t->h / 2))
            {
                int32_t at = s->front++;
                int32_t tx = s->cells[2 * at], ty = s->cells[2 * at + 1];
                s->cells[2 * at] = X;
                s->cells[2 * at + 1] = Y;
                s->cells[2 * k] = tx;
                s->cells[2 * k + 1] = ty;
            }
            if (d->cls != DGI_CLASS_DOOR)
                continue;
            int faces[4] = {Y == 0, X == t->w - 1, Y == t->h - 1, X == 0};
            for (int side = 0; side < 4; side++)
                if (faces[side])
                {
                    s->exits[2 * s->exits_n] = X + ox[side];
                    s->exits[2 * s->exits_n++ + 1] = Y + oy[side];
                }
        }
}

/* Can the building of make_shape stand at (x, y)? */
static int fits(const islands *s, const dgi_prefab *q, int32_t x, int32_t y)
{
    int32_t m = margin_of(s, q), W = s->w, H = s->h;
    int own = m > s->min_margin; /* halo covers the others' margins; ours may be larger */
    for (int32_t k = 0; k < s->cells_n; k++)
    {
        int32_t cx = x + s->cells[2 * k], cy = y + s->cells[2 * k + 1];
        if (s->halo[(size_t)cy * (size_t)W + (size_t)cx])
            return 0;
        if (q->edge_avoid && (cx == 0 || cy == 0 || cx == W - 1 || cy == H - 1))
            return 0;
        for (int32_t ny = DG_MAX(0, cy - m); own && ny <= DG_MIN(H - 1, cy + m); ny++)
            for (int32_t nx = DG_MAX(0, cx - m); nx <= DG_MIN(W - 1, cx + m); nx++)
                if (s->occ[(size_t)ny * (size_t)W + (size_t)nx])
                    return 0;
    }
    for (int32_t k = 0; k < s->exits_n; k++) /* doors open onto a free cell of the map */
    {
        int32_t nx = x + s->exits[2 * k], ny = y + s->exits[2 * k + 1];
        if (nx < 0 || ny < 0 || nx >= W || ny >= H || s->occ[(size_t)ny * (size_t)W + (size_t)nx])
            return 0;
    }
    return 1;
}

/* Marks the footprint and its margin. */
static void occupy(islands *s, const dgi_prefab *q, int32_t x, int32_t y)
{
    int32_t m = margin_of(s, q), W = s->w, H = s->h;
    for (int32_t k = 0; k < s->cells_n; k++)
    {
        int32_t cx = x + s->cells[2 * k], cy = y + s->cells[2 * k + 1];
        s->occ[(size_t)cy * (size_t)W + (size_t)cx] = 1;
        for (int32_t ny = DG_MAX(0, cy - m); ny <= DG_MIN(H - 1, cy + m); ny++)
            memset(&s->halo[(size_t)ny * (size_t)W + (size_t)DG_MAX(0, cx - m)], 1,
                   (size_t)(DG_MIN(W - 1, cx + m) - DG_MAX(0, cx - m) + 1));
    }
    s->min_margin = DG_MIN(s->min_margin, m);
}

/* Tries to place one building of group k. 1 placed, 0 no place found, -1 no
 * prefab left in the group, or a negative dg_status (-100 + st) on error. */
static int place_one(islands *s, dgi_gen *gen, const group *gr, uint64_t seed, dg_rng *rng,
                     dg_status *err)
{
    for (int32_t i = 0; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        s->weights[i] = s->fit[i] && !(q->unique && s->used[i]) && dgi_has_tag(s->set, q, gr->tag)
                            ? q->weight
                            : 0;
    }
    int32_t index = dgi_weighted_pick(s->weights, s->set->count, rng);
    if (index < 0)
        return -1;
    const dgi_prefab *q = &s->set->prefabs[index];
    int32_t o = dgi_orient_pick(s->fit[index], rng);
    dgi_xform t;
    dgi_xform_make(q->width, q->height, o, &t);
    uint8_t *heap;
    const uint8_t *g = dgi_prefab_glyphs(s->set, q, seed, s->buf, sizeof s->buf, &heap, err);
    if (!g)
        return *err == DG_E_LIMIT ? 0 : -2;
    make_shape(s, q, g, &t);
    int placed = 0;
    for (int32_t k = 0; k < s->p->positions && !placed; k++)
    {
        int32_t x = (int32_t)dg_rng_below(rng, (uint32_t)(s->w - t.w + 1));
        int32_t y = (int32_t)dg_rng_below(rng, (uint32_t)(s->h - t.h + 1));
        gen->r.metrics.attempts++;
        if (!fits(s, q, x, y))
            continue;
        *err = dgi_gen_place(gen, index, o, g, x, y, gr->start ? DG_ROOM_START : DG_ROOM_PREFAB, -1);
        if (*err != DG_OK)
        {
            dgi_prefab_glyphs_free(s->set, q, heap);
            return -2;
        }
        occupy(s, q, x, y);
        s->used[index] = 1;
        /* solid buildings whose cells reach a door, one free cell apart and not
         * spanning the map, leave the ground around them connected */
        s->proven &= !q->has_void && margin_of(s, q) >= 1 &&
                     (s->solid[index] == 2 || (s->solid[index] == 1 && s->exits_n > 0)) &&
                     !(x == 0 && x + t.w == s->w) && !(y == 0 && y + t.h == s->h);
        placed = 1;
    }
    dgi_prefab_glyphs_free(s->set, q, heap);
    return placed;
}

/* One map. DG_E_NOSPACE if a group missed its minimum, DG_E_LIMIT if the map
 * is not connected, DG_E_NOMEM. */
static dg_status one_try(islands *s, dgi_gen *gen, const dg_grid *grid, uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    size_t cells = (size_t)s->w * (size_t)s->h;
    memset(s->occ, 0, cells);
    memset(s->halo, 0, cells);
    memset(s->used, 0, (size_t)DG_MAX(s->set->count, 1));
    s->min_margin = INT32_MAX;
    s->proven = dg_tile_passable((uint8_t)s->p->fill);
    dgi_result_reset(&gen->r);
    if (s->p->keep)
        for (int32_t y = 0; y < s->h; y++)
            memcpy(&DG_CELL(&gen->g, 0, y), &DG_CELL(grid, 0, y), (size_t)s->w);
    else
        dgi_gen_fill(gen, (uint8_t)s->p->fill, dg_tile_passable((uint8_t)s->p->fill));
    uint64_t building = 0;
    for (int32_t k = 0; k < s->group_count; k++)
    {
        const group *gr = &s->groups[k];
        int32_t target = gr->max < 0 ? INT32_MAX
                                     : gr->min + (int32_t)dg_rng_below(&rng, (uint32_t)(gr->max - gr->min + 1));
        int32_t placed = 0, failures = 0;
        gen->r.metrics.requested += gr->max < 0 ? gr->min : target;
        while (placed < target && failures < s->p->max_failures)
        {
            dg_status err = DG_OK;
            int r = place_one(s, gen, gr, dg_hash_combine(seed, building++), &rng, &err);
            if (r == -2)
                return err;
            if (r < 0)
                break;
            placed += r;
            failures = r ? 0 : failures + 1;
            gen->r.metrics.failures += !r;
        }
        gen->r.metrics.placed += placed;
        if (placed < gr->min)
            return DG_E_NOSPACE;
    }
    if (s->stack && !s->proven && !dgi_gen_connected(gen, s->stack))
        return DG_E_LIMIT;
    return DG_OK;
}

static int32_t first_start_room(const dg_result *r)
{
    for (int32_t i = 0; i < r->room_count; i++)
        if (r->rooms[i].kind == DG_ROOM_START)
            return i;
    return -1;
}

dg_status dg_prefab_islands_generate(dg_grid *grid, const dg_prefab_set *set,
                                     const dg_prefab_islands_params *params, uint64_t seed,
                                     dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_islands_params p;
    if (params)
        p = *params;
    else
        dg_prefab_islands_defaults(&p);
    dg_status st = check_params(grid, set, &p, diag);
    if (st != DG_OK)
        return st;
    islands *s = dgi_calloc(allocator, 1, sizeof *s);
    if (!s)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_islands: out of memory");
    s->set = set;
    s->p = &p;
    s->w = grid->width;
    s->h = grid->height;
    load_groups(s);
    st = islands_setup(s, allocator, diag);
    dgi_gen gen;
    memset(&gen, 0, sizeof gen);
    if (st == DG_OK)
        st = dgi_gen_begin(&gen, set, grid, result, allocator, p.keep, !p.keep, 0);
    int32_t tries = 0, attempts = 0;
    dg_status last = DG_OK;
    while (st == DG_OK && tries < p.max_tries)
    {
        last = one_try(s, &gen, grid, tries ? dg_hash_combine(seed, (uint64_t)tries) : seed);
        tries++;
        attempts += gen.r.metrics.attempts;
        if (last == DG_OK || last == DG_E_NOMEM)
            break;
    }
    if (st == DG_OK && last != DG_OK)
    {
        st = last;
        if (st == DG_E_NOMEM)
            dgi_fail(diag, st, "prefab_islands: out of memory");
        else
            dgi_fail(diag, st, "prefab_islands: %d tries gave no map: %s", (int)tries,
                     st == DG_E_NOSPACE ? "a group could not place its minimum count"
                                        : "the passable cells were never all connected");
    }
    gen.r.metrics.attempts = attempts;
    int32_t sr = first_start_room(&gen.r);
    islands_free(s, allocator);
    dgi_free(allocator, s, sizeof *s);
    return dgi_gen_end(&gen, st, grid, result, sr, diag);
}
