/* The prefab parser's load-time analysis of substitutions (parse_state.h):
 * which glyphs a map can become and how many of each, the requires, the
 * island footprint and the passability of each glyph over its outcomes. */
#include "prefab/parse_state.h"

static void bit_set(uint32_t *s, int c) { s[c >> 5] |= 1u << (c & 31); }
static void bit_clear(uint32_t *s, int c) { s[c >> 5] &= ~(1u << (c & 31)); }
static int bit_has(const uint32_t *s, int c) { return (s[c >> 5] >> (c & 31)) & 1u; }

/* The glyphs of a 128-bit set, ascending, into out; their number. */
static int32_t glyphs_of(const uint32_t *s, uint8_t *out)
{
    int32_t n = 0;
    for (int w = 0; w < 4; w++)
        for (uint32_t b = s[w]; b; b &= b - 1)
            out[n++] = (uint8_t)(w * 32 + dgi_lowest_bit64(b));
    return n;
}

static void produce(prefab_flow *f, uint8_t g, int64_t lo, int64_t hi, const dgi_choice *where)
{
    f->lo[g] = DG_MIN(f->lo[g] + lo, f->cells);
    f->hi[g] = DG_MIN(f->hi[g] + hi, f->cells);
    if (!bit_has(f->known, g) && where)
    {
        bit_set(f->known, g);
        f->from_line[g] = where->line;
        f->from_col[g] = where->column;
    }
}

static void flow_sub(prefab_parser *ps, prefab_flow *f, const dgi_sub *s, const dgi_legend *lg)
{
    int64_t lo = f->lo[s->glyph], hi = f->hi[s->glyph];
    const dgi_choice *ch = &ps->set->choices[s->first];
    int32_t live = 0;
    for (int32_t j = 0; j < s->count; j++)
        live += ch[j].amount > 0;
    f->lo[s->glyph] = f->hi[s->glyph] = 0;
    int keeps = 0; /* some cells may stay as the source glyph */
    if (s->kind == DGI_SUB_COUNT)
    {
        if (s->total > lo)
        {
            dgi_parse_error(ps, s->line, s->column, "count asks for %lld '%c' cells but the map has %d",
                 (long long)s->total, s->glyph, (int)lo);
            return;
        }
        for (int32_t j = 0; j < s->count; j++)
            produce(f, ch[j].glyph, ch[j].amount, ch[j].amount, &ch[j]);
        dgi_choice rest = {s->rest, 0, s->line, s->rest_column};
        produce(f, s->rest ? s->rest : s->glyph, lo - s->total, hi - s->total, s->rest ? &rest : NULL);
        keeps = !s->rest && hi > s->total;
        if (keeps && lg->glyph[s->glyph].cls == DGI_CLASS_NONE)
            dgi_parse_error(ps, s->line, s->column,
                 "count leaves some '%c' cells as they are, but '%c' is not in the legend (add rest:G)",
                 s->glyph, s->glyph);
    }
    else
        for (int32_t j = 0; j < s->count; j++)
            if (ch[j].amount > 0)
                produce(f, ch[j].glyph, live == 1 ? lo : 0, hi, &ch[j]);
    for (int32_t u = 0; u < ps->used_count; u++) /* only the map's glyphs can become anything */
    {
        int c = ps->used[u];
        if (bit_has(f->can_be[c], s->glyph))
        {
            if (!keeps)
                bit_clear(f->can_be[c], s->glyph);
            for (int32_t j = 0; j < s->count; j++)
                if (ch[j].amount > 0)
                    bit_set(f->can_be[c], ch[j].glyph);
            if (s->rest)
                bit_set(f->can_be[c], s->rest);
        }
    }
}

static void check_requires(prefab_parser *ps, const prefab_flow *f, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    for (int32_t k = 0; k < p->req_count; k++)
    {
        dgi_require *r = &ps->set->reqs[p->req_first + k];
        int64_t lo = 0, hi = 0;
        for (int c = 33; c < 127; c++)
            if (r->glyph ? c == r->glyph
                         : (lg->glyph[c].cls != DGI_CLASS_NONE &&
                            strcmp(ps->set->glyph_names[lg->glyph[c].name].name, r->name) == 0))
            {
                lo += f->lo[c];
                hi += f->hi[c];
                bit_set(r->glyphs, c);
            }
        hi = DG_MIN(hi, f->cells); /* a name may cover several glyphs, never more cells */
        if (hi < r->min || lo > r->max)
            dgi_parse_error(ps, r->line, r->column,
                 "require can never hold: the map has %lld to %lld such cells", (long long)lo,
                 (long long)hi);
        r->always = lo >= r->min && hi <= r->max;
        p->checked_reqs += !r->always;
        for (int c = 33; c < 127 && !r->always; c++) /* cells it counts that stay as drawn */
            if (bit_has(r->glyphs, c) && !bit_has(f->random, c))
                r->fixed += f->counts[c];
    }
}

/* The final glyphs glyph c of the map can become, ascending, into out; their
 * number. Without substitutions c stays itself. */
static int32_t outcomes_of(const prefab_parser *ps, const prefab_flow *f, int c, uint8_t *out)
{
    if (ps->p->sub_count == 0)
    {
        out[0] = (uint8_t)c;
        return 1;
    }
    return glyphs_of(f->can_be[c], out);
}

/* An island is placed where its footprint (non-void cells) fits: one whose
 * cells are void in every outcome would fit anywhere, without end. */
static void check_island_footprint(prefab_parser *ps, const prefab_flow *f, const dgi_legend *lg)
{
    if (!(ps->p->modes & DG_PREFAB_ISLAND))
        return;
    uint8_t outcome[128];
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int32_t n = outcomes_of(ps, f, ps->used[u], outcome);
        for (int32_t k = 0; k < n; k++)
            if (lg->glyph[outcome[k]].cls != DGI_CLASS_VOID)
                return;
    }
    dgi_parse_error(ps, ps->p->line, 1,
         "prefab '%s' is void in every cell, so it cannot be an island (give it a mode without island)",
         ps->p->name);
}

/* Each glyph of the map can be itself, until substitutions say more. */
static void flow_identity(prefab_parser *ps, prefab_flow *f)
{
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int c = ps->used[u];
        memset(f->can_be[c], 0, sizeof f->can_be[c]);
        bit_set(f->can_be[c], c);
    }
}

/* Glyph counts as the map g draws them (lo and hi are read for any glyph;
 * all three start at zero). */
static void flow_counts(prefab_parser *ps, prefab_flow *f, const uint8_t *g)
{
    int32_t *counts = f->counts;
    f->cells = (int64_t)ps->p->width * ps->p->height;
    int64_t i = 0;
    for (; i + 4 <= f->cells; i += 4) /* four tables: a run of one glyph is no chain of increments */
    {
        counts[g[i]]++;
        f->lanes[0][g[i + 1]]++;
        f->lanes[1][g[i + 2]]++;
        f->lanes[2][g[i + 3]]++;
    }
    for (; i < f->cells; i++)
        counts[g[i]]++;
    for (int32_t u = 0; u < ps->met_count; u++)
    {
        uint8_t c = ps->met[u];
        counts[c] += f->lanes[0][c] + f->lanes[1][c] + f->lanes[2][c];
        f->lanes[0][c] = f->lanes[1][c] = f->lanes[2][c] = 0;
    }
    memset(f->known, 0, sizeof f->known);
    for (int32_t u = 0; u < ps->used_count; u++) /* the glyphs '!'..'~' the map holds */
        f->lo[ps->used[u]] = f->hi[ps->used[u]] = counts[ps->used[u]];
}

/* The prefab's random cells (those holding a glyph a substitution replaces):
 * how many, from the map's counts; dgi_random_build lists them. */
static void count_random(prefab_parser *ps, prefab_flow *f)
{
    dgi_prefab *p = ps->p;
    memset(f->random, 0, sizeof f->random);
    for (int32_t k = 0; k < p->sub_count; k++)
    {
        uint8_t c = ps->set->subs[p->sub_first + k].glyph;
        if (!bit_has(f->random, c))
            p->random_count += f->counts[c];
        bit_set(f->random, c);
    }
}

/* Substitutions and require counts: what the map's glyphs can become and
 * how many of each there can be. */
static void flow_run(prefab_parser *ps, prefab_flow *f, const uint8_t *g, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    flow_counts(ps, f, g);
    count_random(ps, f);
    for (int32_t k = 0; k < p->sub_count; k++)
        flow_sub(ps, f, &ps->set->subs[p->sub_first + k], lg);
    uint8_t written[128];
    int32_t n = glyphs_of(f->known, written);
    for (int32_t k = 0; k < n; k++)
    {
        int c = written[k];
        if (f->hi[c] > 0 && lg->glyph[c].cls == DGI_CLASS_NONE)
            dgi_parse_error(ps, f->from_line[c], f->from_col[c], "substitution result '%c' is not in the legend", c);
    }
    check_requires(ps, f, lg);
}

/* Back to zero: the counts of the map's bytes and the bounds of every glyph
 * the map or a substitution wrote. */
static void flow_clear(prefab_parser *ps, prefab_flow *f)
{
    const dgi_prefab *p = ps->p;
    for (int32_t u = 0; u < ps->met_count; u++)
        f->counts[ps->met[u]] = 0;
    for (int32_t u = 0; u < ps->used_count; u++)
        f->lo[ps->used[u]] = f->hi[ps->used[u]] = 0;
    for (int32_t k = 0; k < p->sub_count; k++)
    {
        const dgi_sub *s = &ps->set->subs[p->sub_first + k];
        f->lo[s->glyph] = f->hi[s->glyph] = f->lo[s->rest] = f->hi[s->rest] = 0;
        for (int32_t j = 0; j < s->count; j++)
            f->lo[ps->set->choices[s->first + j].glyph] = f->hi[ps->set->choices[s->first + j].glyph] = 0;
    }
}

/* Passability of each glyph of the map over its outcomes: for the edge
 * signatures a cell is passable only if every outcome is. */
static void outcome_passability(prefab_parser *ps, const prefab_flow *f, const dgi_legend *lg, uint8_t *passable)
{
    dgi_prefab *p = ps->p;
    uint8_t outcome[128];
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int c = ps->used[u], all = 1, some = 0;
        int32_t n = outcomes_of(ps, f, c, outcome);
        for (int32_t k = 0; k < n; k++)
        {
            const dgi_glyph *g = &lg->glyph[outcome[k]];
            all &= g->passable;
            some |= g->passable;
            p->has_void |= g->cls == DGI_CLASS_VOID;
            p->has_markers |= g->marker != 0;
        }
        passable[c] = (uint8_t)all;
        p->certain[c >> 5] |= (uint32_t)all << (c & 31);
        p->maybe[c >> 5] |= (uint32_t)some << (c & 31);
    }
}

void dgi_parse_check_flow(prefab_parser *ps, const uint8_t *g, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    prefab_flow *f = &ps->flow;
    if (p->sub_count > 0)
        flow_identity(ps, f);
    if (p->sub_count > 0 || p->req_count > 0)
    {
        flow_run(ps, f, g, lg);
        flow_clear(ps, f);
    }
    check_island_footprint(ps, f, lg);
    if (!ps->p_bad) /* then the map holds only glyphs of used[], whose entries are set */
    {
        outcome_passability(ps, f, lg, ps->passable);
        dgi_map_index(p, g, ps->passable);
    }
}
