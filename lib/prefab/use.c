/* Using a parsed set: queries, resolving randomised glyphs, stamping one
 * prefab into a grid, and the door-layout lookup. */
#include "prefab/prefab.h"

#define RESOLVE_TRIES 16
#define STACK_CELLS 4096

/* ---- queries ------------------------------------------------------------------ */

int32_t dg_prefab_count(const dg_prefab_set *set)
{
    return set ? set->count : 0;
}

int32_t dg_prefab_find(const dg_prefab_set *set, const char *name)
{
    if (!set || !name || !set->names)
        return -1;
    size_t n = strlen(name);
    if (n >= DG_NAME_MAX)
        return -1;
    uint32_t h = 2166136261u, mask = (uint32_t)set->name_cap - 1;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)name[i]) * 16777619u;
    for (uint32_t i = h & mask;; i = (i + 1) & mask)
    {
        int32_t k = set->names[i];
        if (k < 0)
            return -1;
        if (strcmp(set->prefabs[k].name, name) == 0)
            return k;
    }
}

dg_status dg_prefab_get_info(const dg_prefab_set *set, int32_t index, dg_prefab_info *info)
{
    if (!set || !info)
        return DG_E_NULL;
    if (index < 0 || index >= set->count)
        return DG_E_INVALID;
    const dgi_prefab *p = &set->prefabs[index];
    memset(info, 0, sizeof *info);
    memcpy(info->name, p->name, sizeof info->name);
    info->width = p->width;
    info->height = p->height;
    info->modes = p->modes;
    info->orientations = p->orientations;
    info->distinct = p->distinct;
    info->weight = p->weight;
    info->door_sides = p->door_sides;
    info->door_class = dg_door_class(p->door_sides);
    info->tag_count = p->tag_count;
    info->margin = p->margin;
    info->unique = p->unique;
    info->line = p->line;
    return DG_OK;
}

const char *dg_prefab_tag(const dg_prefab_set *set, int32_t index, int32_t k)
{
    if (!set || index < 0 || index >= set->count || k < 0 || k >= set->prefabs[index].tag_count)
        return NULL;
    return set->tags[set->prefabs[index].tag_first + k].name;
}

int dgi_has_tag(const dg_prefab_set *set, const dgi_prefab *p, const char *tag)
{
    if (!tag || !tag[0])
        return 1;
    for (int32_t k = 0; k < p->tag_count; k++)
        if (strcmp(set->tags[p->tag_first + k].name, tag) == 0)
            return 1;
    return 0;
}

int dg_prefab_has_tag(const dg_prefab_set *set, int32_t index, const char *tag)
{
    if (!set || index < 0 || index >= set->count)
        return 0;
    return dgi_has_tag(set, &set->prefabs[index], tag);
}

dg_status dg_prefab_edge(const dg_prefab_set *set, int32_t index, int32_t orientation,
                         int32_t side, uint64_t *signature, int32_t *length)
{
    if (!set || !signature)
        return DG_E_NULL;
    int s = side == DG_SIDE_N ? 0 : side == DG_SIDE_E ? 1 : side == DG_SIDE_S ? 2 : side == DG_SIDE_W ? 3 : -1;
    if (index < 0 || index >= set->count || orientation < 0 || orientation >= DG_ORIENT_COUNT || s < 0)
        return DG_E_INVALID;
    const dgi_prefab *p = &set->prefabs[index];
    *signature = p->edge[orientation][s];
    if (length)
        *length = ((s & 1) == 0) == !dgi_orient_swaps(orientation) ? p->width : p->height;
    return DG_OK;
}

/* ---- resolving randomised glyphs ---------------------------------------------------- */

static uint8_t weighted(const dgi_choice *ch, int32_t n, int64_t total, dg_rng *rng)
{
    int64_t r = (int64_t)dgi_below64(rng, (uint64_t)total);
    for (int32_t j = 0; j < n; j++)
    {
        if (r < ch[j].amount)
            return ch[j].glyph;
        r -= ch[j].amount;
    }
    return ch[n - 1].glyph;
}

/* count: each G cell in row-major order joins choice j with probability
 * need_j / remaining (sequential sampling: exact counts, uniform sets). */
static void apply_count(const dgi_sub *s, const dgi_choice *ch, uint8_t *g, size_t n, dg_rng *rng)
{
    int32_t need[128];
    int64_t remaining = 0, wanted = 0;
    for (size_t i = 0; i < n; i++)
        remaining += g[i] == s->glyph;
    for (int32_t j = 0; j < s->count; j++)
        wanted += need[j] = ch[j].amount;
    for (size_t i = 0; i < n && remaining > 0; i++)
    {
        if (g[i] != s->glyph)
            continue;
        int64_t r = (int64_t)dgi_below64(rng, (uint64_t)remaining--);
        uint8_t out = s->rest ? s->rest : s->glyph;
        for (int32_t j = 0; j < s->count && r < wanted; j++)
        {
            if (r < need[j])
            {
                out = ch[j].glyph;
                need[j]--;
                wanted--;
                break;
            }
            r -= need[j];
        }
        g[i] = out;
    }
}

static void apply_sub(const dg_prefab_set *set, const dgi_sub *s, uint8_t *g, size_t n, dg_rng *rng)
{
    const dgi_choice *ch = &set->choices[s->first];
    if (s->kind == DGI_SUB_COUNT)
        apply_count(s, ch, g, n, rng);
    else if (s->kind == DGI_SUB_ONCE)
    {
        uint8_t pick = weighted(ch, s->count, s->total, rng);
        for (size_t i = 0; i < n; i++)
            g[i] = g[i] == s->glyph ? pick : g[i];
    }
    else
        for (size_t i = 0; i < n; i++)
            if (g[i] == s->glyph)
                g[i] = weighted(ch, s->count, s->total, rng);
}

/* Each require counts the random cells g holding one of its glyphs (the
 * names were resolved to glyphs at load time) plus its other cells (`fixed`). */
static int requires_met(const dg_prefab_set *set, const dgi_prefab *p, const uint8_t *g, size_t n)
{
    for (int32_t k = 0; k < p->req_count; k++)
    {
        const dgi_require *r = &set->reqs[p->req_first + k];
        if (r->always)
            continue;
        int64_t c = r->fixed;
        for (size_t i = 0; i < n; i++)
            c += dgi_glyph_in(r->glyphs, g[i]);
        if (c < r->min || c > r->max)
            return 0;
    }
    return 1;
}

/* Runs the substitutions of p from seed over glyphs g (n cells in row-major
 * order). They touch only cells holding one of their glyphs, so the picks are
 * the same over the stored grid or over just its random cells. */
static void substitute(const dg_prefab_set *set, const dgi_prefab *p, uint64_t seed, uint8_t *g, size_t n)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_SUBST);
    for (int32_t k = 0; k < p->sub_count; k++)
        apply_sub(set, &set->subs[p->sub_first + k], g, n, &rng);
}

dg_status dgi_resolve_cells(const dg_prefab_set *set, const dgi_prefab *p, uint64_t seed,
                            const uint8_t *stored, size_t n, uint8_t *out)
{
    for (int attempt = 0; attempt < RESOLVE_TRIES; attempt++)
    {
        memcpy(out, stored, n);
        substitute(set, p, attempt ? dgi_hash_combine(seed, (uint64_t)attempt) : seed, out, n);
        if (p->checked_reqs == 0 || requires_met(set, p, out, n))
            return DG_OK;
    }
    return DG_E_LIMIT;
}

/* ---- writing -------------------------------------------------------------------------- */

/* Output range [x0, x1) x [y0, y1) of an oriented prefab at (x, y) that lies in grid. */
static int clip(const dgi_xform *t, const dg_grid *grid, int32_t x, int32_t y, int32_t *r)
{
    int64_t x0 = DG_MAX(0, -(int64_t)x), y0 = DG_MAX(0, -(int64_t)y);
    int64_t x1 = DG_MIN((int64_t)t->w, (int64_t)grid->width - x);
    int64_t y1 = DG_MIN((int64_t)t->h, (int64_t)grid->height - y);
    if (x0 >= x1 || y0 >= y1)
        return 0;
    r[0] = (int32_t)x0;
    r[1] = (int32_t)y0;
    r[2] = (int32_t)x1;
    r[3] = (int32_t)y1;
    return 1;
}

/* One row of n oriented cells from src (every step-th glyph) into row, and
 * their passability by class into prow if given; void cells are skipped. */
static void write_row(const dgi_glyph *lg, const uint8_t *src, int64_t step, int32_t n, int has_void,
                      uint8_t *row, uint8_t *prow)
{
    if (!has_void) /* the common case: plain lookups the compiler keeps tight */
    {
        const uint8_t *at = src;
        for (int32_t X = 0; X < n; X++, at += step)
            row[X] = lg[*at].tile;
        at = src;
        for (int32_t X = 0; X < n && prow; X++, at += step)
            prow[X] = lg[*at].passable ? DG_TILE_FLOOR : DG_TILE_WALL;
        return;
    }
    for (int32_t X = 0; X < n; X++, src += step)
    {
        const dgi_glyph *d = &lg[*src];
        if (d->cls == DGI_CLASS_VOID)
            continue;
        row[X] = d->tile;
        if (prow)
            prow[X] = d->passable ? DG_TILE_FLOOR : DG_TILE_WALL;
    }
}

void dgi_prefab_write(const dg_prefab_set *set, const dgi_prefab *p, const uint8_t *g, int32_t o,
                      dg_grid *grid, int32_t x, int32_t y, dg_grid *pass)
{
    dgi_xform t;
    int32_t r[4];
    dgi_xform_make(p->width, p->height, o, &t);
    if (!clip(&t, grid, x, y, r))
        return;
    const dgi_glyph *lg = set->legends[p->legend].glyph;
    for (int32_t Y = r[1]; Y < r[3]; Y++)
        write_row(lg, g + t.base + (int64_t)Y * t.step_y + (int64_t)r[0] * t.step_x, t.step_x, r[2] - r[0],
                  p->has_void, &DG_CELL(grid, x + r[0], y + Y), pass ? &DG_CELL(pass, x + r[0], y + Y) : NULL);
}

dg_status dgi_prefab_add_markers(const dg_prefab_set *set, const dgi_prefab *p, const uint8_t *g,
                                 int32_t o, int32_t x, int32_t y, const dg_grid *grid,
                                 dg_result *res, int32_t room)
{
    dgi_xform t;
    int32_t r[4];
    if (!p->has_markers || !res)
        return DG_OK;
    dgi_xform_make(p->width, p->height, o, &t);
    if (!clip(&t, grid, x, y, r))
        return DG_OK;
    const dgi_glyph *lg = set->legends[p->legend].glyph;
    int32_t before = res->marker_count;
    for (int32_t Y = r[1]; Y < r[3]; Y++)
    {
        int64_t i = t.base + (int64_t)Y * t.step_y + (int64_t)r[0] * t.step_x;
        for (int32_t X = r[0]; X < r[2]; X++, i += t.step_x)
        {
            const dgi_glyph *d = &lg[g[i]];
            if (!d->marker)
                continue;
            dg_marker m;
            memset(&m, 0, sizeof m);
            m.pos.x = x + X;
            m.pos.y = y + Y;
            m.kind = d->marker - 1;
            m.room = room >= -1 ? room : dgi_result_room_at(res, m.pos);
            memcpy(m.name, set->glyph_names[d->name].name, sizeof m.name);
            if (dgi_result_add_marker(res, &m) != DG_OK)
            {
                res->marker_count = before;
                return DG_E_NOMEM;
            }
        }
    }
    return DG_OK;
}

/* Glyphs of p resolved from seed: the stored grid when nothing is random,
 * else buf (if big enough) or a heap copy (*heap set). */
const uint8_t *dgi_prefab_glyphs(const dg_prefab_set *set, const dgi_prefab *p, uint64_t seed,
                                 uint8_t *buf, size_t buf_size, uint8_t **heap, dg_status *st)
{
    size_t n = (size_t)p->width * (size_t)p->height, need = n + (size_t)p->random_count;
    *heap = NULL;
    *st = DG_OK;
    if (p->sub_count == 0)
        return set->cells + p->cells;
    uint8_t *out = buf;
    if (need > buf_size)
    {
        out = *heap = dgi_alloc(dgi_set_alloc(set), need);
        if (!out)
        {
            *st = DG_E_NOMEM;
            return NULL;
        }
    }
    /* the random cells are resolved after the grid, then put in place */
    uint8_t *random = out + n;
    *st = dgi_resolve_cells(set, p, seed, set->random_stored + p->random_first, (size_t)p->random_count, random);
    if (*st != DG_OK)
    {
        dgi_prefab_glyphs_free(set, p, *heap);
        *heap = NULL;
        return NULL;
    }
    memcpy(out, set->cells + p->cells, n);
    const int32_t *cells = set->random_cells + p->random_first;
    for (int32_t k = 0; k < p->random_count; k++)
        out[cells[k]] = random[k];
    return out;
}

void dgi_prefab_glyphs_free(const dg_prefab_set *set, const dgi_prefab *p, uint8_t *heap)
{
    dgi_free(dgi_set_alloc(set), heap, (size_t)p->width * (size_t)p->height + (size_t)p->random_count);
}

dg_status dg_prefab_stamp(const dg_prefab_set *set, int32_t index, int32_t orientation,
                          uint64_t seed, dg_grid *grid, int32_t x, int32_t y, dg_result *result,
                          dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_stamp: set is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (index < 0 || index >= set->count)
        return dgi_fail(diag, DG_E_INVALID, "prefab_stamp: no prefab %d (set has %d)", (int)index,
                        (int)set->count);
    const dgi_prefab *p = &set->prefabs[index];
    if (orientation < 0 || orientation >= DG_ORIENT_COUNT || !(p->orientations & (1 << orientation)))
        return dgi_fail(diag, DG_E_INVALID, "prefab_stamp: orientation %d is not allowed for '%s'",
                        (int)orientation, p->name);
    dgi_xform t;
    int32_t r[4];
    dgi_xform_make(p->width, p->height, orientation, &t);
    if (!clip(&t, grid, x, y, r))
        return dgi_fail(diag, DG_E_INVALID, "prefab_stamp: '%s' at (%d, %d) lies outside the grid",
                        p->name, (int)x, (int)y);
    uint8_t buf[STACK_CELLS], *heap;
    const uint8_t *g = dgi_prefab_glyphs(set, p, seed, buf, sizeof buf, &heap, &st);
    if (!g)
        return dgi_fail(diag, st, st == DG_E_NOMEM ? "prefab_stamp: out of memory"
                                                   : "prefab_stamp: no outcome of '%s' meets its require counts",
                        p->name);
    st = dgi_prefab_add_markers(set, p, g, orientation, x, y, grid, result, -2);
    if (st == DG_OK)
        dgi_prefab_write(set, p, g, orientation, grid, x, y, NULL);
    dgi_prefab_glyphs_free(set, p, heap);
    if (st != DG_OK)
        return dgi_fail(diag, st, "prefab_stamp: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}

/* ---- door-layout lookup ----------------------------------------------------------------- */

static int mode_index(int32_t mode)
{
    switch (mode)
    {
    case DG_PREFAB_FULL: return 0;
    case DG_PREFAB_JIGSAW: return 1;
    case DG_PREFAB_ISLAND: return 2;
    case DG_PREFAB_FURNISH: return 3;
    default: return -1;
    }
}

/* Orientation masks of p per resulting side mask; the side masks that have
 * any, ascending, into sides (at most 8); returns their number. */
static int32_t side_masks(const dgi_prefab *p, int32_t masks[16], int32_t sides[8])
{
    int32_t n = 0;
    uint32_t any = 0; /* a bit per side mask some orientation gives */
    memset(masks, 0, 16 * sizeof *masks);
    for (uint32_t left = (uint32_t)p->distinct & 0xFFu; left; left &= left - 1)
    {
        int32_t o = dgi_lowest_bit64(left), s = dgi_orient_sides(p->door_sides, o);
        masks[s] |= 1 << o;
        any |= 1u << s;
    }
    for (; any; any &= any - 1)
        sides[n++] = dgi_lowest_bit64(any);
    return n;
}

dg_status dgi_pick_build(dg_prefab_set *set)
{
    int32_t masks[16], sides[8], fill[4][16], total = 0;
    memset(set->pick_count, 0, sizeof set->pick_count);
    for (int pass = 0; pass < 2; pass++)
    {
        for (int32_t i = 0; i < set->count; i++)
        {
            const dgi_prefab *p = &set->prefabs[i];
            if (p->weight <= 0)
                continue;
            int32_t n = side_masks(p, masks, sides);
            for (uint32_t modes = (uint32_t)p->modes & 15u; modes; modes &= modes - 1)
                for (int32_t k = 0, m = dgi_lowest_bit64(modes); k < n; k++)
                {
                    int32_t s = sides[k];
                    if (pass == 0)
                    {
                        set->pick_count[m][s]++;
                        continue;
                    }
                    dgi_pick *e = &set->picks[fill[m][s]++];
                    e->prefab = i;
                    e->orients = masks[s];
                    e->cumulative = p->weight + (fill[m][s] > set->pick_first[m][s] + 1 ? e[-1].cumulative : 0);
                }
        }
        if (pass == 1)
            break;
        for (int m = 0; m < 4; m++)
            for (int s = 0; s < 16; s++)
            {
                set->pick_first[m][s] = fill[m][s] = total;
                total += set->pick_count[m][s];
            }
        if (total > 0)
        {
            set->picks = dgi_alloc(dgi_set_alloc(set), (size_t)total * sizeof *set->picks);
            if (!set->picks)
                return DG_E_NOMEM;
        }
        set->pick_total = total;
        if (total == 0)
            break;
    }
    return DG_OK;
}

static dg_status pick_check(const dg_prefab_set *set, int32_t mode, int32_t sides, int32_t *index,
                            int32_t *orientation)
{
    if (!set || !index || !orientation)
        return DG_E_NULL;
    if (mode_index(mode) < 0 || sides < 0 || sides > 15)
        return DG_E_INVALID;
    return DG_OK;
}

dg_status dg_prefab_pick(const dg_prefab_set *set, int32_t mode, int32_t sides, uint64_t hash,
                         int32_t *index, int32_t *orientation)
{
    dg_status st = pick_check(set, mode, sides, index, orientation);
    if (st != DG_OK)
        return st;
    int m = mode_index(mode);
    int32_t n = set->pick_count[m][sides];
    if (n == 0)
        return DG_E_NOSPACE;
    const dgi_pick *list = set->picks + set->pick_first[m][sides];
    dg_rng rng;
    dgi_rng_seed(&rng, hash, DGI_STREAM_PICK);
    int64_t r = (int64_t)dgi_below64(&rng, (uint64_t)list[n - 1].cumulative);
    int32_t lo = 0, hi = n - 1; /* first entry with cumulative > r */
    while (lo < hi)
    {
        int32_t mid = lo + (hi - lo) / 2;
        if (list[mid].cumulative > r)
            hi = mid;
        else
            lo = mid + 1;
    }
    uint32_t om = (uint32_t)list[lo].orients;
    *index = list[lo].prefab;
    *orientation = dgi_nth_bit(om, (int32_t)dg_rng_below(&rng, (uint32_t)dgi_popcount(om)));
    return DG_OK;
}

dg_status dg_prefab_pick_fit(const dg_prefab_set *set, int32_t mode, int32_t sides, int32_t max_w,
                             int32_t max_h, uint64_t hash, int32_t *index, int32_t *orientation)
{
    dg_status st = pick_check(set, mode, sides, index, orientation);
    if (st != DG_OK)
        return st;
    int m = mode_index(mode);
    int32_t n = set->pick_count[m][sides];
    if (n == 0)
        return DG_E_NOSPACE;
    const dgi_pick *list = set->picks + set->pick_first[m][sides];
    int64_t total = 0;
    for (int32_t k = 0; k < n; k++)
        if (dgi_orient_fit(&set->prefabs[list[k].prefab], list[k].orients, max_w, max_h))
            total += set->prefabs[list[k].prefab].weight;
    if (total == 0)
        return DG_E_NOSPACE;
    dg_rng rng;
    dgi_rng_seed(&rng, hash, DGI_STREAM_PICK);
    int64_t r = (int64_t)dgi_below64(&rng, (uint64_t)total);
    for (int32_t k = 0; k < n; k++)
    {
        const dgi_prefab *p = &set->prefabs[list[k].prefab];
        uint32_t om = (uint32_t)dgi_orient_fit(p, list[k].orients, max_w, max_h);
        if (!om)
            continue;
        if (r < p->weight)
        {
            *index = list[k].prefab;
            *orientation = dgi_nth_bit(om, (int32_t)dg_rng_below(&rng, (uint32_t)dgi_popcount(om)));
            return DG_OK;
        }
        r -= p->weight;
    }
    return DG_E_NOSPACE; /* not reached */
}
