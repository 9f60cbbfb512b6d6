/* The identity of a parsed prefab set, which recipes record: a hash of what
 * the generators read from it, never of pointers, allocation sizes or the
 * source's line numbers, comments and blank lines. */
#include "prefab/prefab.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
    return dgi_hash_combine(h, v);
}

/* Bytes, eight at a time, after their count. */
static uint64_t mix_bytes(uint64_t h, const uint8_t *b, size_t n)
{
    h = mix(h, n);
    for (size_t i = 0; i < n; i += 8)
    {
        uint64_t w = 0;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            w |= (uint64_t)b[i + k] << (8 * k);
        h = mix(h, w);
    }
    return h;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
    return mix_bytes(h, (const uint8_t *)s, strlen(s));
}

static uint64_t mix_legend(uint64_t h, const dg_prefab_set *set, const dgi_legend *l)
{
    for (int c = 0; c < 128; c++)
    {
        const dgi_glyph *g = &l->glyph[c];
        if (g->cls == DGI_CLASS_NONE)
            continue;
        h = mix(h, (uint64_t)c | (uint64_t)g->cls << 8 | (uint64_t)g->tile << 16 |
                       (uint64_t)g->passable << 24 | (uint64_t)g->marker << 32);
        if (g->name >= 0 && g->name < set->glyph_name_count)
            h = mix_str(h, set->glyph_names[g->name].name);
    }
    return h;
}

static uint64_t mix_subs(uint64_t h, const dg_prefab_set *set, const dgi_prefab *p)
{
    for (int32_t i = p->sub_first; i < p->sub_first + p->sub_count; i++)
    {
        const dgi_sub *s = &set->subs[i];
        h = mix(h, (uint64_t)s->kind | (uint64_t)s->glyph << 8 | (uint64_t)s->rest << 16);
        for (int32_t k = s->first; k < s->first + s->count; k++)
            h = mix(h, (uint64_t)set->choices[k].glyph << 32 ^ (uint32_t)set->choices[k].amount);
    }
    for (int32_t i = p->req_first; i < p->req_first + p->req_count; i++)
    {
        const dgi_require *r = &set->reqs[i];
        h = mix_str(mix(h, r->glyph), r->name);
        h = mix(h, (uint64_t)(uint32_t)r->min << 32 | (uint32_t)r->max);
    }
    return h;
}

static uint64_t mix_prefab(uint64_t h, const dg_prefab_set *set, const dgi_prefab *p)
{
    h = mix_str(h, p->name);
    h = mix(h, (uint64_t)(uint32_t)p->width << 32 | (uint32_t)p->height);
    h = mix_bytes(h, set->cells + p->cells, (size_t)p->width * (size_t)p->height);
    h = mix_legend(h, set, &set->legends[p->legend]);
    const int32_t fields[] = {p->modes, p->orientations, p->weight, p->margin, p->edge_avoid, p->unique};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        h = mix(h, (uint32_t)fields[i]);
    for (int32_t i = p->tag_first; i < p->tag_first + p->tag_count; i++)
        h = mix_str(h, set->tags[i].name);
    return mix_subs(h, set, p);
}

uint64_t dg_prefab_set_hash(const dg_prefab_set *set)
{
    if (!set)
        return 0;
    uint64_t h = mix(0x70726566616273ULL, (uint64_t)set->count); /* "prefabs" */
    for (int32_t i = 0; i < set->count; i++)
        h = mix_prefab(h, set, &set->prefabs[i]);
    for (int32_t i = 0; i < set->group_count; i++)
    {
        const dgi_group *g = &set->groups[i];
        h = mix_str(h, g->tag);
        h = mix(h, (uint64_t)(uint32_t)g->min << 32 | (uint32_t)g->max);
        h = mix(h, (uint32_t)g->start);
    }
    return h ? h : 1; /* 0 means "none recorded" in a recipe */
}
