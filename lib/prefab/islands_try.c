/* One try's map of the island generator (islands_state.h): the margins
 * (the wall ring's, the reserved cells' and their pockets'), the placing of
 * buildings (position maps of where a rectangle may go, the fit of a
 * footprint, the draw of a free position, the occupied cells, the door
 * exits) group by group, and the connectivity check. */
#include "prefab/islands_state.h"

#define QUICK_DRAWS 4 /* positions drawn anywhere in the span before only among free ones */

/* The cells just outside prefab q (identity orientation) that its border
 * doors open onto, one per side a door is on, as (x, y) pairs; returns how
 * many (at most one per cell around q). Doors are never substituted, so
 * they hold for every outcome of the random glyphs. */
static int32_t find_door_exits(const islands_ctx *s, const dgi_prefab *q, int32_t *exits)
{
    const dgi_glyph *lg = s->set->legends[q->legend].glyph;
    const uint8_t *g = s->set->cells + q->cells;
    int32_t n = 0, w = q->width, h = q->height;
    for (int32_t y = 0; y < h; y++)
    {
        int edge_row = y == 0 || y == h - 1;
        for (int32_t x = 0; x < w; x += (edge_row || x == w - 1) ? 1 : w - 1)
        {
            if (lg[g[(size_t)y * (size_t)w + (size_t)x]].cls != DGI_CLASS_DOOR)
                continue;
            const int32_t out[4][3] = {{y == 0, x, -1}, {x == w - 1, w, y}, {y == h - 1, x, h}, {x == 0, -1, y}};
            for (int side = 0; side < 4; side++)
                if (out[side][0])
                {
                    exits[2 * n] = out[side][1];
                    exits[2 * n++ + 1] = out[side][2];
                }
        }
    }
    return n;
}

/* Points map at its memory: bits, then free counts per row and per block. */
void dgi_islands_slot_at(const islands_ctx *s, struct islands_position_map *map, uint8_t *mem)
{
    size_t rows = (size_t)s->h * (size_t)s->words * sizeof(uint64_t);
    map->bits = (uint64_t *)mem;
    map->free = (int32_t *)(mem + rows);
    map->block_free = (int32_t *)(mem + rows + (((size_t)s->h * 4 + 7) & ~(size_t)7));
}

static int32_t margin_of(const islands_ctx *s, const dgi_prefab *q)
{
    return s->p->margin >= 0 ? s->p->margin : q->margin;
}

static int bit_at(const islands_ctx *s, const uint64_t *bits, int32_t x, int32_t y)
{
    return (bits[(size_t)y * (size_t)s->words + (size_t)(x >> 6)] >> (x & 63)) & 1u;
}

/* Is any bit of columns a..b (a <= b) set on rows y0..y1 of a bit map? */
static int any_in_rows(const islands_ctx *s, const uint64_t *bits, int32_t a, int32_t b,
                       int32_t y0, int32_t y1)
{
    int32_t first = a >> 6, last = b >> 6;
    uint64_t lo = ~0ULL << (a & 63), hi = ~0ULL >> (63 - (b & 63));
    const uint64_t *row = bits + (size_t)y0 * (size_t)s->words;
    for (int32_t y = y0; y <= y1; y++, row += s->words)
    {
        if (first == last)
        {
            if (row[first] & lo & hi)
                return 1;
            continue;
        }
        if ((row[first] & lo) || (row[last] & hi))
            return 1;
        for (int32_t i = first + 1; i < last; i++)
            if (row[i])
                return 1;
    }
    return 0;
}

/* Sets the bits of columns a..b (a <= b) on rows y0..y1 of a bit map. */
static void set_in_rows(const islands_ctx *s, uint64_t *bits, int32_t a, int32_t b, int32_t y0,
                        int32_t y1)
{
    int32_t first = a >> 6, last = b >> 6;
    uint64_t lo = ~0ULL << (a & 63), hi = ~0ULL >> (63 - (b & 63));
    uint64_t *row = bits + (size_t)y0 * (size_t)s->words;
    if (first == last) /* the common case, looped on its own */
    {
        for (int32_t y = y0; y <= y1; y++, row += s->words)
            row[first] |= lo & hi;
        return;
    }
    for (int32_t y = y0; y <= y1; y++, row += s->words)
    {
        row[first] |= lo;
        row[last] |= hi;
        for (int32_t i = first + 1; i < last; i++)
            row[i] = ~0ULL;
    }
}

/* Marks the positions of map's rectangle that would overlap margin b (only
 * positions in the map: columns 0..W - w, rows 0..H - h), taking the newly
 * marked ones off the free counts once they are kept. */
static void mark_positions(const islands_ctx *s, struct islands_position_map *map, const int32_t *b)
{
    int32_t a = DG_MAX(0, b[0] - map->w + 1), z = DG_MIN(b[2], s->w - map->w);
    int32_t y0 = DG_MAX(0, b[1] - map->h + 1), y1 = DG_MIN(b[3], s->h - map->h);
    if (!map->counted) /* most maps are never counted: no popcounts */
    {
        if (a <= z && y0 <= y1)
            set_in_rows(s, map->bits, a, z, y0, y1);
        return;
    }
    int32_t first = a >> 6, last = z >> 6;
    uint64_t lo = ~0ULL << (a & 63), hi = ~0ULL >> (63 - (z & 63));
    uint64_t *row = map->bits + (size_t)y0 * (size_t)s->words;
    int32_t total = 0;
    if (first == last) /* the common case, looped on its own */
        for (int32_t y = y0; y <= y1 && a <= z; y++, row += s->words)
        {
            uint64_t fresh = lo & hi & ~row[first];
            int32_t marked = dgi_popcount64(fresh);
            row[first] |= fresh;
            map->free[y] -= marked;
            map->block_free[y / ISLANDS_ROW_BLOCK] -= marked;
            total += marked;
        }
    else
        for (int32_t y = y0; y <= y1 && a <= z; y++, row += s->words)
        {
            int32_t marked = 0;
            for (int32_t i = first; i <= last; i++)
            {
                uint64_t fresh = (i == first ? lo : ~0ULL) & (i == last ? hi : ~0ULL) & ~row[i];
                marked += dgi_popcount64(fresh);
                row[i] |= fresh;
            }
            map->free[y] -= marked;
            map->block_free[y / ISLANDS_ROW_BLOCK] -= marked;
            total += marked;
        }
    map->free_total -= total;
}

/* The position map of a w x h rectangle, up to date: a kept one, or a new
 * one in the next slot (its memory made on first use); NULL out of memory. */
static struct islands_position_map *position_map(islands_ctx *s, int32_t w, int32_t h)
{
    struct islands_position_map *map = NULL;
    for (int32_t i = 0; i < s->maps_n && !map; i++)
        if (s->maps[i].w == w && s->maps[i].h == h)
            map = &s->maps[i];
    if (!map)
    {
        map = &s->maps[s->maps_next];
        if (!map->bits)
        {
            if (!(map->own = dgi_alloc(s->alloc, s->slot_size)))
                return NULL;
            dgi_islands_slot_at(s, map, map->own);
        }
        s->maps_next = (s->maps_next + 1) % ISLANDS_POSITION_MAPS;
        s->maps_n = DG_MIN(s->maps_n + 1, ISLANDS_POSITION_MAPS);
        map->w = w;
        map->h = h;
        map->done = 0;
        memset(map->bits, 0, (size_t)s->h * (size_t)s->words * sizeof *map->bits);
        map->counted = 0;
    }
    s->try_left -= s->margins_n - map->done; /* marking is work too: thrashing maps is bounded */
    for (; map->done < s->margins_n; map->done++)
        mark_positions(s, map, &s->margins[4 * map->done]);
    return map;
}

/* Adds the run X0..X1 of row Y to the footprint: it extends the last
 * rectangle if that has the same columns and ends on the row above. */
static void add_run(islands_ctx *s, int32_t Y, int32_t X0, int32_t X1)
{
    int32_t *r = s->rects_n ? &s->rects[4 * (s->rects_n - 1)] : NULL;
    if (r && r[0] == X0 && r[2] == X1 && r[3] == Y - 1)
        r[3] = Y;
    else
    {
        r = &s->rects[4 * s->rects_n++];
        r[0] = X0;
        r[1] = r[3] = Y;
        r[2] = X1;
    }
    s->lo_x = DG_MIN(s->lo_x, X0);
    s->hi_x = DG_MAX(s->hi_x, X1);
    s->lo_y = DG_MIN(s->lo_y, Y);
    s->hi_y = Y;
}

/* The door exits of prefab index in orientation o: the identity ones (found
 * on first use) turned as cells of the prefab grown by one cell on every side. */
static dg_status find_exits(islands_ctx *s, int32_t index, int32_t o)
{
    const dgi_prefab *q = &s->set->prefabs[index];
    if (s->exit_first[index] < 0)
    {
        int32_t n = find_door_exits(s, q, s->exits); /* s->exits has room for any prefab's */
        if (dgi_grow(s->alloc, (void **)&s->door_exits, &s->door_exits_cap, s->door_exits_n + n,
                     2 * sizeof *s->door_exits) != DG_OK)
            return DG_E_NOMEM;
        if (n > 0) /* the list stays NULL while no prefab has a door */
            memcpy(s->door_exits + 2 * (size_t)s->door_exits_n, s->exits, (size_t)n * 2 * sizeof *s->exits);
        s->exit_first[index] = s->door_exits_n;
        s->exit_count[index] = n;
        s->door_exits_n += n;
    }
    int32_t first = s->exit_first[index];
    s->exits_n = s->exit_count[index];
    for (int32_t k = 0; k < s->exits_n; k++)
    {
        dg_point e = {s->door_exits[2 * (first + k)] + 1, s->door_exits[2 * (first + k) + 1] + 1};
        e = dgi_orient_point(o, q->width + 2, q->height + 2, e);
        s->exits[2 * k] = e.x - 1;
        s->exits[2 * k + 1] = e.y - 1;
    }
    return DG_OK;
}

/* The oriented building: its footprint (non-void cells) as rectangles of
 * equal runs on consecutive rows, their bounds, and its door exits. */
static dg_status make_shape(islands_ctx *s, int32_t index, int32_t o, const uint8_t *g,
                            const dgi_xform *t)
{
    const dgi_prefab *q = &s->set->prefabs[index];
    const dgi_glyph *lg = s->set->legends[q->legend].glyph;
    s->rects_n = 0;
    s->lo_x = s->lo_y = INT32_MAX;
    s->hi_x = s->hi_y = -1;
    if (!q->has_void) /* the whole box, whatever the random glyphs do */
    {
        add_run(s, 0, 0, t->w - 1);
        s->rects[3] = s->hi_y = t->h - 1;
    }
    for (int32_t Y = 0; Y < t->h && q->has_void; Y++)
    {
        for (int32_t X = 0, run = -1; X <= t->w; X++)
        {
            int solid = X < t->w &&
                        lg[g[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].cls != DGI_CLASS_VOID;
            if (solid && run < 0)
                run = X;
            else if (!solid && run >= 0)
            {
                add_run(s, Y, run, X - 1);
                run = -1;
            }
        }
    }
    return find_exits(s, index, o);
}

/* The position maps make_shape's building is checked with, brought up to date. */
static dg_status use_position_maps(islands_ctx *s)
{
    s->map = s->rects_n == 1 ? position_map(s, s->rects[2] - s->rects[0] + 1, s->rects[3] - s->rects[1] + 1) : NULL;
    s->cells_map = s->rects_n > 1 ? position_map(s, 1, 1) : NULL;
    return (s->rects_n == 1 && !s->map) || (s->rects_n > 1 && !s->cells_map) ? DG_E_NOMEM : DG_OK;
}

/* Footprint rectangle r at (x, y), grown by m and clipped to the map, as
 * columns and rows b[0]..b[2] x b[1]..b[3]. */
static void grown(const islands_ctx *s, const int32_t *r, int32_t x, int32_t y, int32_t m,
                  int32_t *b)
{
    b[0] = DG_MAX(0, x + r[0] - m);
    b[1] = DG_MAX(0, y + r[1] - m);
    b[2] = DG_MIN(s->w - 1, x + r[2] + m);
    b[3] = DG_MIN(s->h - 1, y + r[3] + m);
}

/* Can the building of make_shape stand at (x, y) of its span? With a
 * position map the caller has checked the others' margins. */
static int fits(const islands_ctx *s, const dgi_prefab *q, int32_t x, int32_t y)
{
    int32_t m = margin_of(s, q), b[4];
    for (int32_t k = 0; k < s->rects_n && s->cells_map; k++) /* the others' margins */
    {
        const int32_t *r = &s->rects[4 * k];
        if (any_in_rows(s, s->cells_map->bits, x + r[0], x + r[2], y + r[1], y + r[3]))
            return 0;
    }
    for (int32_t k = 0; k < s->rects_n && m > s->min_margin; k++) /* ours, where it is larger */
    {
        grown(s, &s->rects[4 * k], x, y, m, b);
        if (any_in_rows(s, s->occ, b[0], b[2], b[1], b[3]))
            return 0;
    }
    for (int32_t k = 0; k < s->exits_n; k++) /* doors open onto a free cell (the span keeps them in the map) */
        if (bit_at(s, s->occ, x + s->exits[2 * k], y + s->exits[2 * k + 1]))
            return 0;
    return 1;
}

/* Room for `more` margins past those listed. */
static dg_status grow_margins(islands_ctx *s, int32_t more)
{
    /* first room for about one building per 64 cells: one allocation per call */
    int32_t guess = (int32_t)DG_MAX(16, DG_MIN((int64_t)s->w * s->h / 64, 4096));
    return dgi_grow(s->alloc, (void **)&s->margins, &s->margins_cap, DG_MAX(s->margins_n + more, guess),
                    4 * sizeof *s->margins);
}

/* Adds a margin rectangle no footprint may overlap (columns x0..x1, rows y0..y1). */
static dg_status add_margin(islands_ctx *s, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    dg_status st = grow_margins(s, 1);
    if (st != DG_OK)
        return st;
    int32_t *b = &s->margins[4 * s->margins_n++];
    b[0] = DG_MAX(0, x0);
    b[1] = DG_MAX(0, y0);
    b[2] = DG_MIN(s->w - 1, x1);
    b[3] = DG_MIN(s->h - 1, y1);
    return DG_OK;
}

/* The ring and the path inside it as margins, so the position maps never
 * offer a position there. */
static dg_status add_ring_margins(islands_ctx *s)
{
    int32_t in = s->inset - 1;
    dg_status st = add_margin(s, 0, 0, s->w - 1, in);
    if (st == DG_OK)
        st = add_margin(s, 0, s->h - 1 - in, s->w - 1, s->h - 1);
    if (st == DG_OK)
        st = add_margin(s, 0, 0, in, s->h - 1);
    if (st == DG_OK)
        st = add_margin(s, s->w - 1 - in, 0, s->w - 1, s->h - 1);
    return st;
}

/* Marks the footprint and its margin. */
static dg_status occupy(islands_ctx *s, const dgi_prefab *q, int32_t x, int32_t y)
{
    int32_t m = margin_of(s, q);
    dg_status st = grow_margins(s, s->rects_n);
    if (st != DG_OK)
        return st;
    for (int32_t k = 0; k < s->rects_n; k++)
    {
        const int32_t *r = &s->rects[4 * k];
        int32_t *b = &s->margins[4 * s->margins_n++];
        set_in_rows(s, s->occ, x + r[0], x + r[2], y + r[1], y + r[3]);
        grown(s, r, x, y, m, b);
    }
    s->min_margin = DG_MIN(s->min_margin, m);
    return DG_OK;
}

/* The top-left corners (x, y) at which the building of make_shape (oriented
 * size t) lies in the map, its doors open onto cells of the map and, with
 * `edge avoid`, it keeps off the border (with the ring, `inset` cells off
 * it): x in span[0]..span[2], y in span[1]..span[3]. 0 if there are none. */
static int position_span(const islands_ctx *s, const dgi_prefab *q, const dgi_xform *t,
                         int32_t *span)
{
    span[0] = span[1] = 0;
    span[2] = s->w - t->w;
    span[3] = s->h - t->h;
    int32_t inset = s->ring ? s->inset : q->edge_avoid ? 1 : 0;
    if (inset && s->rects_n)
    {
        span[0] = DG_MAX(span[0], inset - s->lo_x);
        span[1] = DG_MAX(span[1], inset - s->lo_y);
        span[2] = DG_MIN(span[2], s->w - 1 - inset - s->hi_x);
        span[3] = DG_MIN(span[3], s->h - 1 - inset - s->hi_y);
    }
    for (int32_t k = 0; k < s->exits_n; k++)
    {
        int32_t ex = s->exits[2 * k], ey = s->exits[2 * k + 1];
        span[0] = DG_MAX(span[0], -ex);
        span[1] = DG_MAX(span[1], -ey);
        span[2] = DG_MIN(span[2], s->w - 1 - ex);
        span[3] = DG_MIN(span[3], s->h - 1 - ey);
    }
    return span[0] <= span[2] && span[1] <= span[3];
}

/* Clear bits of columns 0..b of word i of a bit-map row. */
static uint64_t clear_bits(const uint64_t *row, int32_t i, int32_t b)
{
    return ~row[i] & (i < b >> 6 ? ~0ULL : ~0ULL >> (63 - (b & 63)));
}

/* Column of the k-th (from 0) clear bit of columns 0..b of a row that has
 * more than k. */
static int32_t nth_clear_in_row(const uint64_t *row, int32_t b, int32_t k)
{
    for (int32_t i = 0;; i++)
    {
        uint64_t clear = clear_bits(row, i, b);
        int32_t n = dgi_popcount64(clear);
        if (k < n)
        {
            for (; k > 0; k--)
                clear &= clear - 1;
            return i * 64 + dgi_lowest_bit64(clear);
        }
        k -= n;
    }
}

/* Free positions of map on rows y0..y1; the first count of a map counts
 * every row, marking keeps the counts from then on. */
static int32_t count_free(const islands_ctx *s, struct islands_position_map *map, int32_t y0,
                          int32_t y1)
{
    int32_t last = s->h - map->h;
    if (!map->counted)
    {
        map->free_total = 0;
        memset(map->block_free, 0, ((size_t)s->h / ISLANDS_ROW_BLOCK + 1) * sizeof *map->block_free);
        for (int32_t y = 0; y <= last; y++)
        {
            const uint64_t *row = map->bits + (size_t)y * (size_t)s->words;
            map->free[y] = 0;
            for (int32_t i = 0; i <= (s->w - map->w) >> 6; i++)
                map->free[y] += dgi_popcount64(clear_bits(row, i, s->w - map->w));
            map->free_total += map->free[y];
            map->block_free[y / ISLANDS_ROW_BLOCK] += map->free[y];
        }
        map->counted = 1;
    }
    int32_t total = map->free_total; /* less the rows outside y0..y1 (doors or `edge avoid` leave a few) */
    for (int32_t y = 0; y < y0; y++)
        total -= map->free[y];
    for (int32_t y = y1 + 1; y <= last; y++)
        total -= map->free[y];
    return total;
}

/* The k-th (from 0) free position of map counted from row y. */
static void nth_free(const islands_ctx *s, const struct islands_position_map *map, int32_t y, int32_t k, int32_t *mx,
                     int32_t *my)
{
    for (; y % ISLANDS_ROW_BLOCK && k >= map->free[y]; y++) /* up to a block's first row */
        k -= map->free[y];
    for (; y % ISLANDS_ROW_BLOCK == 0 && k >= map->block_free[y / ISLANDS_ROW_BLOCK]; y += ISLANDS_ROW_BLOCK)
        k -= map->block_free[y / ISLANDS_ROW_BLOCK];
    for (; k >= map->free[y]; y++)
        k -= map->free[y];
    *my = y;
    *mx = nth_clear_in_row(map->bits + (size_t)y * (size_t)s->words, s->w - map->w, k);
}

/* Tries up to `positions` positions for the building of make_shape (oriented
 * size t) until one fits, within the try's work left. The first QUICK_DRAWS
 * are drawn anywhere in its span; with a position map the rest are drawn
 * among the positions free on the span's rows (if there are none the building
 * gives up there), so on a crowded map a building that fits somewhere is
 * still placed. 1 found, 0 not, -1 if it has no free position at all. */
static int find_position(islands_ctx *s, dgi_gen *gen, const dgi_prefab *q, const dgi_xform *t,
                         int32_t *x, int32_t *y, dg_rng *rng)
{
    int32_t span[4], k = 0, free_n = -1;
    if (!position_span(s, q, t, span))
        return -1;
    struct islands_position_map *map = s->map;
    int32_t dx = map ? s->rects[0] : 0, dy = map ? s->rects[1] : 0;
    uint32_t span_x = (uint32_t)(span[2] - span[0] + 1), span_y = (uint32_t)(span[3] - span[1] + 1);
    int found = 0;
    while (k < s->p->positions && k < s->try_left && !found)
    {
        if (!map || k < QUICK_DRAWS)
        {
            *x = span[0] + (int32_t)dgi_rng_below(rng, span_x);
            *y = span[1] + (int32_t)dgi_rng_below(rng, span_y);
        }
        else
        {
            if (free_n < 0)
                free_n = count_free(s, map, span[1] + dy, span[3] + dy);
            if (free_n == 0)
                break;
            nth_free(s, map, span[1] + dy, (int32_t)dgi_rng_below(rng, (uint32_t)free_n), x, y);
            *x -= dx;
            *y -= dy;
        }
        k++;
        found = *x >= span[0] && *x <= span[2] && (!map || !bit_at(s, map->bits, *x + dx, *y + dy)) &&
                fits(s, q, *x, *y);
    }
    gen->r.metrics.attempts += k;
    s->try_left -= k;
    return found ? 1 : free_n == 0 ? -1 : 0;
}

/* A building known to fit nowhere (no free position in its span) makes the
 * draws find_position would, all on ruled-out positions, and counts them,
 * so the draws that follow and the metrics are the same, without testing. */
static void skip_dead(islands_ctx *s, dgi_gen *gen, const dgi_prefab *q, const dgi_xform *t,
                      dg_rng *rng)
{
    int32_t span[4], k = 0;
    if (!position_span(s, q, t, span))
        return;
    uint32_t span_x = (uint32_t)(span[2] - span[0] + 1), span_y = (uint32_t)(span[3] - span[1] + 1);
    for (; k < QUICK_DRAWS && k < s->p->positions && k < s->try_left; k++)
    {
        dgi_rng_below(rng, span_x);
        dgi_rng_below(rng, span_y);
    }
    gen->r.metrics.attempts += k;
    s->try_left -= k;
}

/* Where the first `start` marker of resolved glyphs g (oriented t, at (x, y))
 * lands, in the order the result lists markers; (-1, -1) if none. */
static dg_point first_start_marker(const islands_ctx *s, const dgi_prefab *q, const uint8_t *g, const dgi_xform *t,
                                   int32_t x, int32_t y)
{
    const dgi_glyph *lg = s->set->legends[q->legend].glyph;
    dg_point none = {-1, -1};
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
            if (lg[g[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].marker == DG_MARKER_START + 1)
            {
                dg_point p = {x + X, y + Y};
                return p;
            }
    return none;
}

/* Records a building's box (its room's rect); the first of a start group is the start building. */
static dg_status add_box(islands_ctx *s, int32_t x, int32_t y, int32_t w, int32_t h,
                         int32_t start_group)
{
    dg_status st = dgi_grow(s->alloc, (void **)&s->boxes, &s->boxes_cap, DG_MAX(s->boxes_n + 1, 16),
                            4 * sizeof *s->boxes);
    if (st != DG_OK)
        return st;
    if (start_group && s->start_box < 0)
        s->start_box = s->boxes_n;
    int32_t *b = &s->boxes[4 * s->boxes_n++];
    b[0] = x;
    b[1] = y;
    b[2] = w;
    b[3] = h;
    return DG_OK;
}

/* Tries to place one building of group k. 1 placed, 0 no place found, -1 no
 * prefab left in the group, -2 on error (*err). */
static int place_one(islands_ctx *s, dgi_gen *gen, int32_t group_index, uint64_t map_seed, uint64_t building,
                     dg_rng *rng, dg_status *err)
{
    /* the draw over the group's members in index order is the draw over all
     * prefabs with the others weighing 0 */
    const int32_t *members = s->members + (size_t)group_index * (size_t)s->set->count;
    const int64_t *weights = s->member_weights + (size_t)group_index * (size_t)s->set->count;
    if (s->has_unique[group_index])
    {
        for (int32_t j = 0; j < s->members_n[group_index]; j++)
        {
            const dgi_prefab *m = &s->set->prefabs[members[j]];
            s->weights[j] = m->unique && s->used[members[j]] ? 0 : m->weight;
        }
        weights = s->weights;
    }
    int32_t pick = dgi_weighted_pick(weights, s->members_n[group_index], rng);
    if (pick < 0)
        return -1;
    int32_t index = members[pick];
    const dgi_prefab *q = &s->set->prefabs[index];
    int32_t o = dgi_orient_pick(s->fit[index], rng), x, y;
    s->try_left--;
    dgi_xform t;
    dgi_xform_make(q->width, q->height, o, &t);
    /* Random glyphs never move doors; without void they cannot change the
     * shape, so they are resolved only once the building has a place (most
     * tries find none). If no outcome meets the require counts, the try fails
     * there. */
    int later = !q->has_void;
    uint64_t seed = later ? 0 : dgi_hash_combine(map_seed, building); /* its random glyphs' */
    uint8_t *heap = NULL;
    const uint8_t *g = later ? s->set->cells + q->cells
                             : dgi_prefab_glyphs(s->set, q, seed, s->glyphs, s->glyphs_size, &heap, err);
    if (!g)
        return *err == DG_E_LIMIT ? 0 : -2;
    if ((*err = make_shape(s, index, o, g, &t)) != DG_OK)
    {
        dgi_prefab_glyphs_free(s->set, q, heap);
        return -2;
    }
    if ((s->dead[index] >> o) & 1)
    {
        skip_dead(s, gen, q, &t, rng);
        return 0;
    }
    if ((*err = use_position_maps(s)) != DG_OK)
    {
        dgi_prefab_glyphs_free(s->set, q, heap);
        return -2;
    }
    /* an outcome with every cell void has no footprint: it would fit anywhere
     * and never fill the map, so it counts as a try without a place */
    int found = s->rects_n ? find_position(s, gen, q, &t, &x, &y, rng) : 0;
    if (found < 0 && !q->has_void) /* the occupied area only grows: it never will in this try */
        s->dead[index] |= (uint8_t)(1u << o);
    if (found <= 0)
    {
        dgi_prefab_glyphs_free(s->set, q, heap);
        return 0;
    }
    seed = later ? dgi_hash_combine(map_seed, building) : seed;
    int seek_start = s->start.x < 0 && s->may_start[index]; /* its glyphs are looked at */
    int stamped = later && s->stamps.made && !gen->record && !gen->pass.cells && !seek_start
                      ? dgi_stamp(&s->stamps, index, o, seed, &DG_CELL(&gen->g, x, y))
                      : 0;
    if (stamped < 0)
        return 0;
    if (!stamped)
    {
        if (later && !(g = dgi_prefab_glyphs(s->set, q, seed, s->glyphs, s->glyphs_size, &heap, err)))
            return *err == DG_E_LIMIT ? 0 : -2;
        *err = dgi_gen_place(gen, index, o, g, x, y, s->groups[group_index].start ? DG_ROOM_START : DG_ROOM_PREFAB, -1);
        if (seek_start)
            s->start = first_start_marker(s, q, g, &t, x, y);
        dgi_prefab_glyphs_free(s->set, q, heap);
        if (*err != DG_OK)
            return -2;
    }
    *err = occupy(s, q, x, y);
    if (*err == DG_OK)
        *err = add_box(s, x, y, t.w, t.h, s->groups[group_index].start);
    if (*err != DG_OK)
        return -2;
    s->used[index] = 1;
    /* solid buildings whose cells reach a door, one free cell apart and not
     * spanning the map, leave the ground around them connected */
    s->proven &= !q->has_void && margin_of(s, q) >= 1 &&
                 (q->solid == 2 || (q->solid == 1 && s->exits_n > 0)) &&
                 !(x == 0 && x + t.w == s->w) && !(y == 0 && y + t.h == s->h);
    return 1;
}

/* ---- reserved cells ------------------------------------------------------------- */

/* Ground a building may reach: off the reserved cells and their ring, and off
 * the grid's outer ring when it is walled. */
static int ground_cell(const islands_ctx *s, const dg_grid *g, int32_t x, int32_t y)
{
    int edge = x == 0 || y == 0 || x == s->w - 1 || y == s->h - 1;
    return !(s->ring && edge) && !dgi_mask_near(s->reserved, g, x, y);
}

/* Labels the 4-way stretch of cells labelled `from` around i as `to`; its
 * size, or -1 out of memory. s->level[0] is the stack of cells to look around. */
static int32_t relabel(islands_ctx *s, int32_t i, uint8_t from, uint8_t to)
{
    int32_t top = 0, size = 1;
    s->pocket[i] = to;
    s->level[0][top++] = i;
    while (top > 0)
    {
        int32_t c = s->level[0][--top], x = c % s->w, y = c / s->w;
        int32_t next[4] = {y > 0 ? c - s->w : -1, y + 1 < s->h ? c + s->w : -1,
                           x > 0 ? c - 1 : -1, x + 1 < s->w ? c + 1 : -1};
        if (dgi_grow(s->alloc, (void **)&s->level[0], &s->level_cap[0], top + 4, sizeof **s->level) != DG_OK)
            return -1;
        for (int d = 0; d < 4; d++)
            if (next[d] >= 0 && s->pocket[next[d]] == from)
            {
                s->pocket[next[d]] = to;
                s->level[0][top++] = next[d];
                size++;
            }
    }
    return size;
}

/* s->pocket: the ground outside the largest 4-way stretch of it (a walled-in
 * area of the caller's, a strip the reserved cells cut off). Once per call. */
dg_status dgi_islands_find_pockets(islands_ctx *s, const dg_grid *g)
{
    int32_t n = s->w * s->h, best = -1, best_n = 0;
    if (dgi_grow(s->alloc, (void **)&s->level[0], &s->level_cap[0], 64, sizeof **s->level) != DG_OK)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < n; i++)
        s->pocket[i] = ground_cell(s, g, i % s->w, i / s->w) ? 0 : 3;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t size = s->pocket[i] == 0 ? relabel(s, i, 0, 2) : 0;
        if (size < 0)
            return DG_E_NOMEM;
        if (size > best_n)
            best_n = size, best = i;
    }
    if (best >= 0 && relabel(s, best, 2, 4) < 0)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < n; i++)
        s->pocket[i] = s->pocket[i] == 2;
    return DG_OK;
}

/* Margins no footprint may overlap: the reserved cells grown by two (their
 * ring of wall and a path of ground) and the pockets grown by one, one
 * rectangle per vertical stack of equal row runs. */
static dg_status add_site_margins(islands_ctx *s, const uint8_t *cells, int32_t stride, int grow)
{
    dg_status st = DG_OK;
    for (int32_t y = 0; y < s->h && st == DG_OK; y++)
        for (int32_t x = 0; x < s->w && st == DG_OK; x++)
        {
            const uint8_t *row = cells + (size_t)y * (size_t)stride;
            if (!row[x] || (x > 0 && row[x - 1]))
                continue;
            int32_t x1 = x;
            while (x1 + 1 < s->w && row[x1 + 1])
                x1++;
            int same_above = y > 0 && row[x - stride] && (x == 0 || !row[x - 1 - stride]) &&
                             (x1 + 1 == s->w || !row[x1 + 1 - stride]);
            for (int32_t k = x; same_above && k <= x1; k++)
                same_above = row[k - stride] != 0;
            if (same_above)
                continue;
            int32_t y1 = y;
            for (int more = 1; more && y1 + 1 < s->h;)
            {
                const uint8_t *next = row + (size_t)(y1 + 1 - y) * (size_t)stride;
                more = (x == 0 || !next[x - 1]) && (x1 + 1 == s->w || !next[x1 + 1]);
                for (int32_t k = x; more && k <= x1; k++)
                    more = next[k] != 0;
                y1 += more;
            }
            st = add_margin(s, x - grow, y - grow, x1 + grow, y1 + grow);
        }
    return st;
}

/* The reserved cells rock, the ground beside them wall, the pockets rock. */
static void seal_site(islands_ctx *s, dgi_gen *gen)
{
    dgi_gen_seal(gen, s->reserved);
    if (!s->pocket)
        return;
    for (int32_t y = 0; y < s->h; y++)
        for (int32_t x = 0; x < s->w; x++)
            if (s->pocket[y * s->w + x])
            {
                DG_CELL(&gen->g, x, y) = DG_TILE_VOID;
                if (gen->pass.cells)
                    DG_CELL(&gen->pass, x, y) = DG_TILE_WALL;
            }
}

/* The runs of open cells of a row as (start, end past it, run id) from id
 * on; how many. */
static int32_t row_runs(const uint8_t *row, int32_t w, const uint8_t *open, int32_t id, int32_t *runs)
{
    int32_t n = 0;
    for (int32_t x = 0; x < w;)
    {
        while (x < w && !open[row[x]])
            x++;
        if (x == w)
            break;
        runs[3 * n] = x;
        while (x < w && open[row[x]])
            x++;
        runs[3 * n + 1] = x;
        runs[3 * n++ + 2] = id++;
    }
    return n;
}

/* DG_OK if the passable cells of the try's map (by its passability grid if
 * it has one, else by its tiles) are connected, DG_E_LIMIT if not: runs of
 * each row joined to the runs they touch on the row above (union-find), as
 * dgi_gen_connected counts regions, with room for the runs there are (the
 * parents in s->level[0], two rows of runs in s->level[1]). */
static dg_status check_connected(islands_ctx *s, const dgi_gen *gen)
{
    const dg_grid *g = gen->pass.cells ? &gen->pass : &gen->g;
    uint8_t open[256];
    for (int t = 0; t < 256; t++)
        open[t] = gen->pass.cells ? t == DG_TILE_FLOOR : dgi_passable_default[t];
    int32_t per_row = s->w / 2 + 1, runs = 0, joins = 0, prev_n = 0;
    if (dgi_grow(s->alloc, (void **)&s->level[1], &s->level_cap[1], 6 * per_row, sizeof **s->level) != DG_OK)
        return DG_E_NOMEM;
    int32_t *prev = s->level[1], *cur = prev + 3 * per_row;
    for (int32_t y = 0; y < s->h; y++)
    {
        int32_t n = row_runs(&DG_CELL(g, 0, y), s->w, open, runs, cur);
        if (dgi_grow(s->alloc, (void **)&s->level[0], &s->level_cap[0], runs + n, sizeof **s->level) != DG_OK)
            return DG_E_NOMEM;
        int32_t *parent = s->level[0];
        for (int32_t k = 0; k < n; k++, runs++)
            parent[runs] = runs;
        joins += dgi_join_runs(parent, prev, prev_n, cur, n);
        int32_t *t = prev;
        prev = cur;
        cur = t;
        prev_n = n;
    }
    return runs - joins <= 1 ? DG_OK : DG_E_LIMIT;
}

/* One map. DG_E_NOSPACE if a group missed its minimum, DG_E_LIMIT if the map
 * is not connected, DG_E_NOMEM. A try that spends its work budget ends there
 * (metrics.stopped_early). */
dg_status dgi_islands_one_try(islands_ctx *s, dgi_gen *gen, const dg_grid *grid, uint64_t seed)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    size_t bits = (size_t)s->h * (size_t)s->words * sizeof *s->occ;
    memset(s->occ, 0, bits);
    memset(s->used, 0, (size_t)DG_MAX(s->set->count, 1));
    memset(s->dead, 0, (size_t)DG_MAX(s->set->count, 1));
    s->min_margin = INT32_MAX;
    s->maps_n = s->maps_next = s->margins_n = s->boxes_n = 0;
    s->start_box = -1;
    s->start.x = s->start.y = s->exit.x = s->exit.y = -1;
    s->proven = dg_tile_passable((uint8_t)s->p->fill) && !s->reserved;
    dgi_result_reset(&gen->r);
    if (s->ring)
    {
        dg_status st = add_ring_margins(s);
        if (st != DG_OK)
            return st;
    }
    if (s->reserved)
    {
        dg_status st = add_site_margins(s, s->reserved->cells, s->reserved->stride, 2);
        if (st == DG_OK && s->pocket)
            st = add_site_margins(s, s->pocket, s->w, 1);
        if (st != DG_OK)
            return st;
    }
    if (s->p->keep)
        for (int32_t y = 0; y < s->h; y++)
            memcpy(&DG_CELL(&gen->g, 0, y), &DG_CELL(grid, 0, y), (size_t)s->w);
    else
        dgi_gen_fill(gen, (uint8_t)s->p->fill, dg_tile_passable((uint8_t)s->p->fill));
    if (s->reserved)
        seal_site(s, gen);
    uint64_t building = 0;
    /* "as many as fit": buildings cover disjoint cells (at least one each), so
     * no map holds more than it has cells; a count, not the map, ends the loop */
    int32_t most = (int32_t)DG_MIN((int64_t)s->w * s->h, INT32_MAX);
    for (int32_t k = 0; k < s->group_count; k++)
    {
        const islands_group *gr = &s->groups[k];
        int32_t target = gr->max < 0 ? most
                                     : gr->min + (int32_t)dg_rng_below(&rng, (uint32_t)(gr->max - gr->min + 1));
        int32_t placed = 0, failures = 0;
        while (placed < target && failures < s->p->max_failures && s->try_left > 0)
        {
            dg_status err = DG_OK;
            int r = place_one(s, gen, k, seed, building++, &rng, &err);
            if (r == -2)
                return err;
            if (r < 0)
                break;
            placed += r;
            failures = r ? 0 : failures + 1;
            gen->r.metrics.failures += !r;
        }
        gen->r.metrics.stopped_early |= s->try_left <= 0;
        gen->r.metrics.placed += placed;
        /* "as many as fit" asked for what fitted (its min if fewer) */
        gen->r.metrics.requested += gr->max < 0 ? DG_MAX(placed, gr->min) : target;
        if (placed < gr->min)
            return DG_E_NOSPACE;
    }
    return s->check && !s->proven ? check_connected(s, gen) : DG_OK;
}
