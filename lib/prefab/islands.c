/* Island generator: buildings (island prefabs) dropped at random free
 * positions, rotated or flipped, kept `margin` cells apart, their doors
 * opening onto free cells of the map, placed group by group with counts;
 * in pure mode inside a wall ring with a path of ground along it (border).
 * The start is in the start building, the exit the farthest building cell
 * by walking; a map whose exit falls short of the farthest tenth of the
 * cells is redone while tries remain. This file checks the parameters,
 * sets up, runs the tries and chooses the start and exit; one try's map is
 * islands_try.c's (islands_state.h). */
#include "prefab/islands_state.h"

#define MAX_GROUPS 64
/* Work budgets (docs/prefabs.md), in units of one position tried or one
 * building drawn; a try also costs one unit per grid cell (filling, flood). */
#define TRY_UNITS_PER_CELL 4
#define CALL_UNITS_PER_CELL 32
#define UNITS_FLOOR 65536 /* so small maps keep room for the default counts' worst case */
#define RING_INSET 2 /* the wall ring and a path of ground inside it */
/* From this shorter side on the path is two wide: one wide, it runs beside
 * a building's rooms one wall away (a parallel passage); smaller maps keep
 * the room for the factory's minimum groups. */
#define WIDE_PATH_SIDE 25

void dg_prefab_islands_defaults(dg_prefab_islands_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_prefab_islands_table, p); /* the rows of core/params.c */
    /* not in the table (a caller array): groups stays NULL and group_count 0 (the
     * set's own group lines, else every island prefab) */
}

static dg_status check_params(const dg_prefab_set *set,
                              const dg_prefab_islands_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_islands: set is NULL");
    dg_status st;
    if ((st = DGI_SPARE_CHECK(p->spare, "prefab_islands params", diag)) != DG_OK)
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
    if (p->keep < 0 || p->keep > 1 || p->connected < 0 || p->connected > 1 || p->border < 0 || p->border > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: keep, connected and border must be 0 or 1");
    if (p->fill < 0 || p->fill > 255)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: fill %d is not a tile (0..255)", (int)p->fill);
    if (p->max_tries < 1 || p->max_tries > 1000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_islands: max_tries %d must be 1..1000", (int)p->max_tries);
    return DG_OK;
}

/* Groups the call uses: the params', else the set's, else one of every island prefab. */
static int32_t groups_wanted(const islands_ctx *s)
{
    if (s->p->group_count > 0)
        return s->p->group_count;
    return s->set->group_count > 0 ? DG_MIN(s->set->group_count, MAX_GROUPS) : 1;
}

static void load_groups(islands_ctx *s)
{
    const dg_prefab_islands_params *p = s->p;
    if (p->group_count > 0)
        for (int32_t i = 0; i < p->group_count; i++)
        {
            islands_group g = {p->groups[i].tag, p->groups[i].min, p->groups[i].max < 0 ? -1 : p->groups[i].max,
                       p->groups[i].start != 0};
            s->groups[s->group_count++] = g;
        }
    else if (s->set->group_count > 0)
        for (int32_t i = 0; i < s->set->group_count && i < MAX_GROUPS; i++)
        {
            const dgi_group *d = &s->set->groups[i];
            islands_group g = {d->tag, d->min, d->max, d->start};
            s->groups[s->group_count++] = g;
        }
    else
    {
        islands_group g = {NULL, 0, -1, 0};
        s->groups[s->group_count++] = g;
    }
}

/* Bytes of one position map: its bits, then its free counts per row and per block of rows. */
static size_t slot_bytes(const islands_ctx *s)
{
    size_t blocks = (size_t)s->h / ISLANDS_ROW_BLOCK + 1;
    return (size_t)s->h * (size_t)s->words * sizeof(uint64_t) + (((size_t)s->h * 4 + 7) & ~(size_t)7) +
           ((blocks * 4 + 7) & ~(size_t)7);
}

/* Bytes of the walks' planes (open, then box), after which their level lists lie. */
static size_t plane_bytes(const islands_ctx *s)
{
    size_t padded = (size_t)(s->w + 2) * (size_t)(s->h + 2);
    return ((padded + 7) & ~(size_t)7) + (padded + 63) / 64 * sizeof(uint64_t);
}

/* Bytes of the walk: its planes and two level lists of walk_cap cells (a
 * level of open ground is at most about a diamond's side across the map;
 * one that outgrows its list moves to the heap). */
static size_t walk_bytes(const islands_ctx *s)
{
    return plane_bytes(s) + 2 * (size_t)s->walk_cap * sizeof(int32_t);
}

/* Hands out the per-call scratch arrays from one block: sizes first (block
 * NULL), then pointers. Returns the block size. */
static size_t carve(islands_ctx *s, uint8_t *block)
{
    enum { WEIGHTS, MEMBER_WEIGHTS, FIT, EXIT_FIRST, EXIT_COUNT, RECTS, EXITS, MEMBER, MEMBERS_N, GROUPS, FLAGS,
           DEAD, UNIQUE, STAMPS, MAY_START, GLYPHS, PARTS };
    size_t n = (size_t)DG_MAX(s->set->count, 1), groups = (size_t)groups_wanted(s);
    uint8_t *part[PARTS];
    size_t size[PARTS] = {
        n * sizeof *s->weights, n * groups * sizeof *s->member_weights, n * sizeof *s->fit,
        n * sizeof *s->exit_first, n * sizeof *s->exit_count,
        s->most_runs * 4 * sizeof *s->rects, (size_t)DG_MAX(s->most_exits, 1) * 2 * sizeof *s->exits,
        n * groups * sizeof *s->members, groups * sizeof *s->members_n, groups * sizeof *s->groups, n, n, groups,
        s->tiles_only ? dgi_stamps_size(s->set, DG_PREFAB_ISLAND) : 0, n, s->glyphs_size};
    size_t at = dgi_carve(block, size, part, PARTS);
    if (!block)
        return at;
    s->weights = (int64_t *)part[WEIGHTS];
    s->member_weights = (int64_t *)part[MEMBER_WEIGHTS];
    s->fit = (int32_t *)part[FIT];
    s->exit_first = (int32_t *)part[EXIT_FIRST];
    s->exit_count = (int32_t *)part[EXIT_COUNT];
    s->rects = (int32_t *)part[RECTS];
    s->exits = (int32_t *)part[EXITS];
    s->members = (int32_t *)part[MEMBER];
    s->members_n = (int32_t *)part[MEMBERS_N];
    s->groups = (islands_group *)part[GROUPS];
    s->used = part[FLAGS];
    s->dead = part[DEAD];
    s->has_unique = part[UNIQUE];
    s->may_start = part[MAY_START];
    s->glyphs = part[GLYPHS];
    if (part[STAMPS])
        dgi_stamps_init(&s->stamps, s->set, DG_PREFAB_ISLAND, s->w, part[STAMPS]);
    return at;
}

/* Does every glyph of the island prefabs' legends have a tile that is
 * passable exactly when its class is? Then passability follows from the
 * tiles and need not be written building by building. */
static int tiles_tell_passability(const islands_ctx *s)
{
    for (int32_t i = 0, last = -1; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        if (!s->fit[i] || q->legend == last)
            continue;
        last = q->legend;
        for (int c = 33; c < 127; c++)
        {
            const dgi_glyph *d = &s->set->legends[q->legend].glyph[c];
            if (d->cls != DGI_CLASS_NONE && d->cls != DGI_CLASS_VOID && dg_tile_passable(d->tile) != (d->passable != 0))
                return 0;
        }
    }
    return 1;
}

/* 1 if prefab q's legend has a glyph reported as a marker of that kind. */
static int legend_has_marker(const islands_ctx *s, const dgi_prefab *q, int32_t kind)
{
    const dgi_glyph *lg = s->set->legends[q->legend].glyph;
    for (int c = 33; c < 127 && q->has_markers; c++)
        if (lg[c].cls != DGI_CLASS_NONE && lg[c].marker == kind + 1)
            return 1;
    return 0;
}

/* Which island prefabs may give the start, and whether one may give the exit. */
static void find_marker_glyphs(islands_ctx *s)
{
    for (int32_t i = 0; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        s->may_start[i] = s->fit[i] && legend_has_marker(s, q, DG_MARKER_START);
        s->exit_fixed |= s->fit[i] && legend_has_marker(s, q, DG_MARKER_EXIT);
    }
}

static dg_status islands_setup(islands_ctx *s, const dg_allocator *a, dg_diag *diag)
{
    s->check = s->p->connected && !s->p->keep;
    s->words = (s->w + 63) / 64;
    s->most_runs = 1;
    for (int32_t i = 0; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        size_t w = (size_t)q->width, h = (size_t)q->height;
        if (q->has_void) /* else one rectangle */
            s->most_runs = DG_MAX(s->most_runs, DG_MAX(h * ((w + 1) / 2), w * ((h + 1) / 2)));
        s->most_exits = DG_MAX(s->most_exits, 2 * (q->width + q->height));
        if ((q->modes & DG_PREFAB_ISLAND) && q->sub_count)
            s->glyphs_size = DG_MAX(s->glyphs_size, w * h + (size_t)q->random_count);
    }
    s->block_size = carve(s, NULL);
    s->block = dgi_alloc(a, s->block_size);
    if (!s->block)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_islands: out of memory");
    carve(s, s->block);
    load_groups(s);
    memset(s->members_n, 0, (size_t)s->group_count * sizeof *s->members_n);
    memset(s->has_unique, 0, (size_t)s->group_count);
    /* the try's area: occ and as many position maps as fit in the walk's planes and lists */
    size_t occ = (size_t)s->h * (size_t)s->words * sizeof *s->occ, padded = (size_t)(s->w + 2) * (size_t)(s->h + 2);
    s->slot_size = slot_bytes(s);
    s->walk_cap = s->w + s->h + 8;
    s->area_size = DG_MAX(walk_bytes(s), occ + s->slot_size);
    s->area = dgi_alloc(a, s->area_size);
    if (!s->area)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_islands: out of memory");
    s->occ = (uint64_t *)s->area;
    s->open = s->area;
    s->box = (uint64_t *)(s->area + ((padded + 7) & ~(size_t)7));
    s->area_slots = (int32_t)DG_MIN((s->area_size - occ) / s->slot_size, ISLANDS_POSITION_MAPS);
    for (int32_t k = 0; k < s->area_slots; k++)
        dgi_islands_slot_at(s, &s->maps[k], s->area + occ + (size_t)k * s->slot_size);
    for (int32_t i = 0; i < s->set->count; i++)
    {
        const dgi_prefab *q = &s->set->prefabs[i];
        s->fit[i] = (q->modes & DG_PREFAB_ISLAND) && q->weight > 0
                        ? dgi_orient_fit(q, q->distinct & s->p->orientations, s->w, s->h)
                        : 0;
        s->exit_first[i] = -1;
    }
    s->tiles_pass = s->check && tiles_tell_passability(s);
    find_marker_glyphs(s);
    for (int32_t k = 0; k < s->group_count; k++)
    {
        int32_t *members = s->members + (size_t)k * (size_t)s->set->count;
        int64_t *weights = s->member_weights + (size_t)k * (size_t)s->set->count;
        for (int32_t i = 0; i < s->set->count; i++)
            if (s->fit[i] && dgi_has_tag(s->set, &s->set->prefabs[i], s->groups[k].tag))
            {
                weights[s->members_n[k]] = s->set->prefabs[i].weight;
                members[s->members_n[k]++] = i;
                s->has_unique[k] |= s->set->prefabs[i].unique;
            }
        if (s->members_n[k] == 0 && s->groups[k].min > 0)
            return dgi_fail(diag, DG_E_NOSPACE, "prefab_islands: group '%.40s' has no `mode island` "
                            "prefab that fits a %dx%d grid", s->groups[k].tag ? s->groups[k].tag : "*",
                            (int)s->w, (int)s->h);
    }
    return DG_OK;
}

/* Walls the grid's outer ring when the ground is open: buildings keep
 * `inset` cells off it, so it is all ground and no door or marker is on it. */
static void wall_ring(islands_ctx *s, dgi_gen *gen)
{
    if (!dg_tile_passable((uint8_t)s->p->fill))
        return;
    for (dg_grid *g = &gen->g; g; g = g == &gen->g && gen->pass.cells ? &gen->pass : NULL)
    {
        memset(&DG_CELL(g, 0, 0), DG_TILE_WALL, (size_t)s->w);
        memset(&DG_CELL(g, 0, s->h - 1), DG_TILE_WALL, (size_t)s->w);
        for (int32_t y = 1; y < s->h - 1; y++)
            DG_CELL(g, 0, y) = DG_CELL(g, s->w - 1, y) = DG_TILE_WALL;
    }
}

static int has_marker(const dg_result *r, int32_t kind)
{
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == kind)
            return 1;
    return 0;
}

/* The start when no `start` marker gives it: in the start building (else the
 * first), its centre if that is open and no door, else its first such cell,
 * else its first door (a lone door frame). */
static dg_point start_in_building(const islands_ctx *s, const dg_grid *g)
{
    const int32_t *b = &s->boxes[4 * (s->start_box >= 0 ? s->start_box : 0)];
    dg_point centre = {b[0] + b[2] / 2, b[1] + b[3] / 2}, door = {-1, -1};
    uint8_t t = DG_CELL(g, centre.x, centre.y);
    if (dgi_passable_default[t] && t != DG_TILE_DOOR)
        return centre;
    for (int32_t y = b[1]; y < b[1] + b[3]; y++)
        for (int32_t x = b[0]; x < b[0] + b[2]; x++)
        {
            dg_point c = {x, y};
            t = DG_CELL(g, x, y);
            if (dgi_passable_default[t] && t != DG_TILE_DOOR)
                return c;
            if (dgi_passable_default[t] && door.x < 0)
                door = c;
        }
    return door;
}

/* Sets bits at..at + n - 1 (n >= 1) of a bit row, a word at a time. */
static void set_bit_run(uint64_t *bits, size_t at, size_t n)
{
    size_t first = at >> 6, last = (at + n - 1) >> 6;
    uint64_t lo = ~(uint64_t)0 << (at & 63), hi = ~(uint64_t)0 >> (63 - ((at + n - 1) & 63));
    if (first == last)
    {
        bits[first] |= lo & hi;
        return;
    }
    bits[first] |= lo;
    for (size_t i = first + 1; i < last; i++)
        bits[i] = ~(uint64_t)0;
    bits[last] |= hi;
}

/* Over the grid padded by one closed cell on every side: s->open is 1 on
 * open cells, s->box has the bits of the cells of every building's box. */
static void mark_cells(islands_ctx *s, const dg_grid *g)
{
    int32_t pw = s->w + 2;
    size_t padded = (size_t)pw * (size_t)(s->h + 2);
    memset(s->open, 0, (size_t)pw + 1); /* the top row, the left end of the first */
    for (int32_t y = 0; y < s->h; y++)
    {
        uint8_t *m = s->open + (size_t)(y + 1) * (size_t)pw + 1;
        const uint8_t *row = &DG_CELL(g, 0, y);
        for (int32_t x = 0; x < s->w; x++)
            m[x] = dgi_passable_default[row[x]] != 0;
        m[s->w] = m[s->w + 1] = 0; /* this row's right end, the next one's left end */
    }
    memset(s->open + (size_t)(s->h + 1) * (size_t)pw, 0, (size_t)pw);
    memset(s->box, 0, (padded + 63) / 64 * sizeof *s->box);
    for (int32_t i = 0; i < s->boxes_n; i++)
    {
        const int32_t *b = &s->boxes[4 * i];
        for (int32_t y = b[1]; y < b[1] + b[3]; y++)
            set_bit_run(s->box, (size_t)(y + 1) * (size_t)pw + (size_t)b[0] + 1, (size_t)b[2]);
    }
}

/* Gives the walk's level list j (list[j], cap[j], k cells in it) room for
 * `room` cells: it moves to (or grows in) the heap list s->level[j]. */
static dg_status widen_list(islands_ctx *s, int j, int32_t *list[2], int32_t cap[2], int32_t k,
                            int32_t room)
{
    int on_heap = list[j] == s->level[j];
    if (dgi_grow(s->alloc, (void **)&s->level[j], &s->level_cap[j], room, sizeof **s->level) != DG_OK)
        return DG_E_NOMEM;
    if (!on_heap)
        memcpy(s->level[j], list[j], (size_t)k * sizeof **s->level);
    list[j] = s->level[j];
    cap[j] = s->level_cap[j];
    return DG_OK;
}

/* Breadth-first walk over s->open from padded cell `from` (closed by the
 * caller), level by level, keeping only the current level and the next
 * (the order of a single queue) in two lists sized once per call in the
 * area. Returns the cells reached, -1 out of memory; *best: the first cell
 * in a box of the farthest level that has one (-1: none), *best_end: the
 * cells of the levels up to that one. */
static int32_t walk(islands_ctx *s, int32_t from, int32_t *best, int32_t *best_end)
{
    int32_t pw = s->w + 2, n = 1, total = 1;
    int64_t cells = (int64_t)s->w * s->h;
    uint8_t *m = s->open;
    const uint64_t *box = s->box;
    int32_t *list[2], cap[2] = {s->walk_cap, s->walk_cap};
    list[0] = (int32_t *)(s->area + plane_bytes(s));
    list[1] = list[0] + s->walk_cap;
    int cur_j = 0;
    *best = -1;
    *best_end = 0;
    list[0][0] = from;
    while (n > 0)
    {
        int32_t k = 0, i = 0, found = -1, nj = 1 - cur_j;
        while (i < n)
        {
            /* a cell queues four at most: the cells that surely have room, without a check */
            int32_t sure = DG_MIN(n - i, (cap[nj] - k) / 4);
            if (sure == 0)
            {
                int32_t room = (int32_t)DG_MIN((int64_t)k + 4, cells - total + 1); /* one written past the last */
                if (room > cap[nj] && widen_list(s, nj, list, cap, k, room) != DG_OK)
                    return -1;
                sure = cap[nj] - k >= 4 ? DG_MIN(n - i, (cap[nj] - k) / 4) : 1;
            }
            const int32_t *cur = list[cur_j];
            int32_t *next = list[nj], end = i + sure;
            for (; i < end && found < 0; i++)
            {
                int32_t c = cur[i];
                found = (box[c >> 6] >> (c & 63)) & 1 ? c : -1;
                k = dgi_queue_open(m, pw, c, next, k);
            }
            for (; i < end; i++)
                k = dgi_queue_open(m, pw, cur[i], next, k);
        }
        if (found >= 0)
        {
            *best = found;
            *best_end = total;
        }
        total += k;
        n = k;
        cur_j = nj;
    }
    return total;
}

/* s->exit: the building cell (in a box, open, not the start) farthest from
 * s->start by 4-way walking, the first reached of its level; (-1, -1) if
 * none. Returns 1 if no more than a tenth of the cells reached lie farther
 * (or there is no exit to choose), 0 if not, -1 out of memory. */
static int choose_exit(islands_ctx *s, const dg_grid *g)
{
    int32_t pw = s->w + 2, best, best_end;
    int32_t start = (s->start.y + 1) * pw + s->start.x + 1;
    mark_cells(s, g);
    s->open[start] = 0; /* the start is no candidate */
    s->box[start >> 6] &= ~((uint64_t)1 << (start & 63));
    int32_t reached = walk(s, start, &best, &best_end);
    if (reached < 0 || best < 0)
        return reached < 0 ? -1 : 1;
    s->exit.x = best % pw - 1;
    s->exit.y = best / pw - 1;
    return (int64_t)(reached - best_end) * 1000 <= (int64_t)reached * 100;
}

/* The start and exit of a map a try made (the ring closed first); 0 if the
 * exit would lie outside the farthest tenth, so the map is worth redoing;
 * -1 out of memory. */
static int choose_ends(islands_ctx *s, dgi_gen *gen)
{
    if (s->ring)
        wall_ring(s, gen);
    if (s->boxes_n == 0)
        return 1;
    int marked = s->start.x >= 0;
    if (!marked)
        s->start = start_in_building(s, &gen->g);
    if (s->start.x < 0 || !dgi_passable_default[DG_CELL(&gen->g, s->start.x, s->start.y)])
        return 1; /* a marker on a closed cell: the result's own rules choose */
    if (!marked)
        gen->r.start = s->start;
    int far = choose_exit(s, &gen->g);
    return far < 0 ? -1 : far || s->exit_fixed;
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
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_prefab_islands_generate(grid, set, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_prefab_islands_generate(dg_grid *grid, const dg_prefab_set *set,
                                      const dg_prefab_islands_params *params, uint64_t seed,
                                      const dgi_mask *reserved, dg_result *result,
                                      const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_islands_params p;
    if (params)
        p = *params;
    else
        dg_prefab_islands_defaults(&p);
    dg_status st = check_params(set, &p, diag);
    if (st != DG_OK)
        return st;
    islands_ctx state, *s = &state; /* a fixed size: on the stack */
    memset(s, 0, sizeof *s);
    s->set = set;
    s->p = &p;
    s->alloc = allocator;
    s->w = grid->width;
    s->h = grid->height;
    s->tiles_only = result == NULL;
    s->ring = !p.keep && p.border;
    s->inset = RING_INSET + (DG_MIN(s->w, s->h) >= WIDE_PATH_SIDE);
    s->reserved = reserved;
    st = islands_setup(s, allocator, diag);
    size_t cells_n = (size_t)s->w * (size_t)s->h;
    if (st == DG_OK && reserved && !p.keep && dg_tile_passable((uint8_t)p.fill))
    {
        s->pocket = dgi_alloc(allocator, cells_n);
        if (!s->pocket || dgi_islands_find_pockets(s, grid) != DG_OK)
            st = dgi_fail(diag, DG_E_NOMEM, "prefab_islands: out of memory");
    }
    dgi_gen gen;
    memset(&gen, 0, sizeof gen);
    if (st == DG_OK)
        st = dgi_gen_begin(&gen, set, grid, result, allocator, p.keep, s->check && !s->tiles_pass, 0);
    int32_t tries = 0;
    int64_t attempts = 0; /* up to the call's budget, past INT32_MAX on the largest grids */
    dg_status last = DG_OK;
    int64_t cells = (int64_t)s->w * s->h, budget = CALL_UNITS_PER_CELL * cells + UNITS_FLOOR;
    s->call_left = budget;
    while (st == DG_OK && tries < p.max_tries && s->call_left > 0)
    {
        s->call_left -= cells; /* filling the map and checking it */
        s->try_left = DG_MIN(TRY_UNITS_PER_CELL * cells + UNITS_FLOOR, s->call_left);
        int64_t before = s->try_left;
        last = dgi_islands_one_try(s, &gen, grid, tries ? dgi_hash_combine(seed, (uint64_t)tries) : seed);
        s->call_left -= before - s->try_left;
        tries++;
        attempts += gen.r.metrics.attempts;
        if (last == DG_OK)
        {
            s->call_left -= cells; /* the walk that picks the exit */
            /* an exit short of the farthest tenth is worth another map while tries remain */
            int ends = choose_ends(s, &gen);
            if (ends < 0)
                last = DG_E_NOMEM;
            else if (ends || tries >= p.max_tries || s->call_left <= 0)
                break;
            else
                last = DG_E_LIMIT;
        }
        if (last == DG_E_NOMEM)
            break;
    }
    if (st == DG_OK && last != DG_OK)
    {
        const char *why = last == DG_E_NOSPACE ? "a group could not place its minimum count"
                                               : "the passable cells were never all connected";
        st = last == DG_E_NOMEM ? last : s->call_left <= 0 ? DG_E_LIMIT : last;
        if (st == DG_E_NOMEM)
            dgi_fail(diag, st, "prefab_islands: out of memory");
        else if (s->call_left <= 0)
            dgi_fail(diag, st, "prefab_islands: work budget of %lld (%d per cell + %d) spent after %d "
                     "tries with no map: %s", (long long)budget, CALL_UNITS_PER_CELL, UNITS_FLOOR,
                     (int)tries, why);
        else
            dgi_fail(diag, st, "prefab_islands: %d tries gave no map: %s", (int)tries, why);
    }
    gen.r.metrics.attempts = (int32_t)DG_MIN(attempts, INT32_MAX);
    gen.reserved = reserved;
    st = dgi_gen_end(&gen, st, grid, result, first_start_room(&gen.r), diag);
    if (st == DG_OK && result && s->exit.x >= 0 && result->start.x == s->start.x &&
        result->start.y == s->start.y && !has_marker(result, DG_MARKER_EXIT))
    {
        result->exit = s->exit;
        result->exit_room = dgi_result_room_at(result, s->exit);
    }
    dgi_free(allocator, s->pocket, s->pocket ? cells_n : 0);
    dgi_free(allocator, s->block, s->block_size);
    dgi_free(allocator, s->area, s->area_size);
    for (int k = 0; k < ISLANDS_POSITION_MAPS; k++)
        dgi_free(allocator, s->maps[k].own, s->maps[k].own ? s->slot_size : 0);
    for (int k = 0; k < 2; k++)
        dgi_free(allocator, s->level[k], (size_t)s->level_cap[k] * sizeof **s->level);
    dgi_free(allocator, s->door_exits, (size_t)s->door_exits_cap * 2 * sizeof *s->door_exits);
    dgi_free(allocator, s->margins, (size_t)s->margins_cap * 4 * sizeof *s->margins);
    dgi_free(allocator, s->boxes, (size_t)s->boxes_cap * 4 * sizeof *s->boxes);
    return st;
}

