/* A prefab's random cells (those its substitutions may change), listed at
 * load time, and tiles-only stamping: a prefab without void cells is
 * written from the tiles of its stored glyphs (made once per call), with
 * only its random cells resolved per stamp. The tiles are the ones
 * dgi_prefab_glyphs and dgi_prefab_write give. */
#include "prefab/prefab.h"

#define TILES_ROOM ((size_t)1 << 18) /* bytes of stored tiles; beyond them prefabs take the general path */

/* The cells of p holding a substituted glyph (row-major) into cells, which
 * has room for one entry more (written without a branch: the random glyphs
 * are scattered), up to the last one. */
static void list_random(const dg_prefab_set *set, const dgi_prefab *p, int32_t *cells)
{
    const uint8_t *g = set->cells + p->cells;
    int32_t n = p->width * p->height, count = 0;
    if (p->sub_count == 1 && p->random_count * 8 < n) /* a few cells of one glyph: memchr skips the rest */
    {
        const uint8_t *at = g, *end = g + n;
        for (; count < p->random_count && (at = memchr(at, set->subs[p->sub_first].glyph, (size_t)(end - at))) != NULL; at++)
            cells[count++] = (int32_t)(at - g);
        return;
    }
    uint8_t random[256] = {0}; /* every byte indexes it as it is: no mask per cell */
    for (int32_t k = 0; k < p->sub_count; k++)
        random[set->subs[p->sub_first + k].glyph] = 1;
    int32_t end = n;
    while (end > 0 && !random[g[end - 1]])
        end--;
    for (int32_t i = 0; i < end; i++)
    {
        cells[count] = i;
        count += random[g[i]];
    }
}

dg_status dgi_random_build(dg_prefab_set *set)
{
    size_t total = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        dgi_prefab *p = &set->prefabs[i];
        p->random_first = (int32_t)total;
        total += (size_t)p->random_count;
        set->random_most = DG_MAX(set->random_most, p->random_count);
    }
    set->random_total = total;
    set->random_cells = dgi_alloc(dgi_set_alloc(set), dgi_random_bytes(set)); /* never empty: no NULL + 0 */
    if (!set->random_cells)
        return DG_E_NOMEM;
    set->random_stored = (uint8_t *)(set->random_cells + total + 1); /* one entry of slack for list_random */
    for (int32_t i = 0; i < set->count; i++)
    {
        dgi_prefab *p = &set->prefabs[i];
        int32_t *cells = set->random_cells + p->random_first;
        if (p->random_count == 0) /* none, or no substitution */
            continue;
        list_random(set, p, cells);
        for (int32_t k = 0; k < p->random_count; k++)
            set->random_stored[p->random_first + k] = set->cells[p->cells + (size_t)cells[k]];
    }
    return DG_OK;
}

static int stampable(const dgi_prefab *p, int32_t modes)
{
    return (p->modes & modes) && p->weight > 0 && !p->has_void;
}

static size_t stamps_carve(dgi_stamps *st, const dg_prefab_set *set, int32_t modes, uint8_t *block)
{
    enum { MADE, TILES, RANDOM, ARENA, PARTS };
    size_t arena = 0, most = 0; /* any stampable prefab may come first: most is over them all */
    for (int32_t i = 0; i < set->count; i++)
        if (stampable(&set->prefabs[i], modes))
        {
            size_t cells = (size_t)set->prefabs[i].width * (size_t)set->prefabs[i].height;
            arena = DG_MIN(arena + cells, TILES_ROOM);
            most = DG_MAX(most, cells);
        }
    size_t size[PARTS] = {(size_t)set->count * sizeof(int32_t), most, (size_t)set->random_most, arena};
    uint8_t *part[PARTS];
    size_t at = dgi_carve(block, size, part, PARTS);
    if (block)
    {
        st->made = (int32_t *)part[MADE];
        st->tiles = part[TILES];
        st->random = part[RANDOM];
        st->arena = part[ARENA];
        st->arena_size = size[ARENA];
    }
    return at;
}

size_t dgi_stamps_size(const dg_prefab_set *set, int32_t modes)
{
    return stamps_carve(NULL, set, modes, NULL);
}

void dgi_stamps_init(dgi_stamps *st, const dg_prefab_set *set, int32_t modes, int32_t stride, uint8_t *block)
{
    memset(st, 0, sizeof *st);
    st->set = set;
    st->modes = modes;
    st->stride = stride;
    stamps_carve(st, set, modes, block);
    if (st->made)
        memset(st->made, 0, (size_t)set->count * sizeof *st->made);
}

/* The tiles of prefab i's stored glyphs (identity orientation), made on
 * first use; NULL when the room for them is used up. */
static const uint8_t *stored_tiles(dgi_stamps *st, const dgi_prefab *p, int32_t i)
{
    size_t n = (size_t)p->width * (size_t)p->height;
    if (!st->made[i])
    {
        if (st->arena_size - st->arena_used < n)
            return NULL;
        const uint8_t *g = st->set->cells + p->cells;
        const dgi_glyph *lg = st->set->legends[p->legend].glyph;
        uint8_t *tiles = st->arena + st->arena_used;
        for (size_t k = 0; k < n; k++)
            tiles[k] = lg[g[k]].tile;
        st->made[i] = (int32_t)st->arena_used + 1;
        st->arena_used += n;
    }
    return st->arena + (st->made[i] - 1);
}

int dgi_stamp(dgi_stamps *st, int32_t i, int32_t o, uint64_t seed, uint8_t *at)
{
    const dgi_prefab *p = &st->set->prefabs[i];
    const uint8_t *stored = stampable(p, st->modes) ? stored_tiles(st, p, i) : NULL;
    if (!stored)
        return 0;
    int32_t n = p->random_count;
    const uint8_t *tiles = stored;
    if (p->sub_count)
    {
        if (dgi_resolve_cells(st->set, p, seed, st->set->random_stored + p->random_first, (size_t)n, st->random) != DG_OK)
            return -1;
        const dgi_glyph *lg = st->set->legends[p->legend].glyph;
        const int32_t *cells = st->set->random_cells + p->random_first;
        memcpy(st->tiles, stored, (size_t)p->width * (size_t)p->height);
        for (int32_t k = 0; k < n; k++)
            st->tiles[cells[k]] = lg[st->random[k]].tile;
        tiles = st->tiles;
    }
    dgi_xform t;
    dgi_xform_make(p->width, p->height, o, &t);
    for (int32_t Y = 0; Y < t.h; Y++, at += st->stride)
    {
        const uint8_t *src = tiles + t.base + (int64_t)Y * t.step_y;
        for (int32_t X = 0; X < t.w; X++, src += t.step_x)
            at[X] = *src;
    }
    return 1;
}
