/* The 8 orientations of a prefab: transforms, merging of identical results,
 * door sides and edge signatures. */
#include "prefab/prefab.h"

dg_point dg_orient_point(int32_t o, int32_t w, int32_t h, dg_point p)
{
    return dgi_orient_point(o, w, h, p);
}

int32_t dg_orient_compose(int32_t first, int32_t second)
{
    /* Probe a 3x2 grid: two points with distinct images identify an element of D4. */
    const dg_point a = {0, 0}, b = {1, 0};
    if (first < 0 || first >= DG_ORIENT_COUNT || second < 0 || second >= DG_ORIENT_COUNT)
        return -1;
    int32_t w1 = dgi_orient_swaps(first) ? 2 : 3, h1 = dgi_orient_swaps(first) ? 3 : 2;
    dg_point ta = dg_orient_point(second, w1, h1, dg_orient_point(first, 3, 2, a));
    dg_point tb = dg_orient_point(second, w1, h1, dg_orient_point(first, 3, 2, b));
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
    {
        dg_point ua = dg_orient_point(o, 3, 2, a), ub = dg_orient_point(o, 3, 2, b);
        if (ua.x == ta.x && ua.y == ta.y && ub.x == tb.x && ub.y == tb.y)
            return o;
    }
    return -1;
}

int32_t dg_orient_inverse(int32_t o)
{
    for (int32_t i = 0; i < DG_ORIENT_COUNT; i++)
        if (dg_orient_compose(o, i) == DG_ORIENT_IDENTITY)
            return i;
    return -1;
}

int32_t dg_orient_sides(int32_t sides, int32_t o)
{
    if (o < 0 || o >= DG_ORIENT_COUNT)
        return 0;
    return dgi_orient_sides(sides, o);
}

int32_t dg_door_class(int32_t sides)
{
    sides &= 15;
    switch (dgi_popcount((uint32_t)sides))
    {
    case 0: return DG_DOORCLASS_NONE;
    case 1: return DG_DOORCLASS_ONE;
    case 2:
        return (sides == (DG_SIDE_N | DG_SIDE_S) || sides == (DG_SIDE_E | DG_SIDE_W))
                   ? DG_DOORCLASS_STRAIGHT
                   : DG_DOORCLASS_CORNER;
    case 3: return DG_DOORCLASS_THREE;
    default: return DG_DOORCLASS_FOUR;
    }
}

int32_t dgi_orient_fit(const dgi_prefab *p, int32_t orients, int32_t max_w, int32_t max_h)
{
    int32_t out = 0;
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
    {
        if (!(orients & (1 << o)))
            continue;
        int32_t w = dgi_orient_swaps(o) ? p->height : p->width;
        int32_t h = dgi_orient_swaps(o) ? p->width : p->height;
        if (w <= max_w && h <= max_h)
            out |= 1 << o;
    }
    return out;
}

/* 1 if grid g (w wide) reads the same through t over the output rows
 * [0, rows) and columns [0, cols); t has g's own size. Rows from the middle
 * on: a map's outer rows are often the same wall in every orientation. */
static int same_image(const uint8_t *g, int32_t w, const dgi_xform *t, int32_t rows, int32_t cols)
{
    for (int32_t k = 0, y = rows / 2; k < rows; k++, y = y + 1 < rows ? y + 1 : 0)
    {
        const uint8_t *row = g + (size_t)y * (size_t)w;
        int64_t ib = t->base + y * t->step_y;
        for (int32_t x = 0; x < cols; x++, ib += t->step_x)
            if (row[x] != g[ib])
                return 0;
    }
    return 1;
}

/* dg_orient_compose(first, second) and dg_orient_inverse as tables. */
static const uint8_t compose_table[DG_ORIENT_COUNT][DG_ORIENT_COUNT] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 0, 6, 7, 5, 4}, {2, 3, 0, 1, 5, 4, 7, 6},
    {3, 0, 1, 2, 7, 6, 4, 5}, {4, 7, 5, 6, 0, 2, 3, 1}, {5, 6, 4, 7, 2, 0, 1, 3},
    {6, 4, 7, 5, 1, 3, 0, 2}, {7, 5, 6, 4, 3, 1, 2, 0},
};
static const uint8_t inverse_table[DG_ORIENT_COUNT] = {0, 3, 2, 1, 4, 5, 6, 7};

/* The smallest group of orientations holding mask | 1 (products of its
 * members), by mask >> 1: D4 has ten subgroups. */
static const uint8_t group_closure[128] = {
    0x01, 0x0F, 0x05, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x11, 0xFF, 0x35, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x21, 0xFF, 0x35, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x35, 0xFF, 0x35, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x41, 0xFF, 0xC5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x81, 0xFF, 0xC5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xC5, 0xFF, 0xC5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/* The orientations that leave g unchanged. They form a group, so the
 * products of those found need no comparison. */
static int32_t symmetries(const uint8_t *g, int32_t w, int32_t h, const uint64_t (*edge)[4])
{
    /* rot180 and mirror y swap rows y and h-1-y, mirror x columns x and w-1-x:
     * half of them holds every pair */
    static const uint8_t halves[DG_ORIENT_COUNT] = {0, 0, 2, 0, 1, 2, 0, 0};
    dgi_xform t;
    int32_t sym = 1;
    for (int32_t o = 1; o < DG_ORIENT_COUNT; o++)
    {
        if (((sym >> o) & 1) || (w != h && dgi_orient_swaps(o)))
            continue;
        if (edge && memcmp(edge[o], edge[0], sizeof edge[0]) != 0) /* its border differs */
            continue;
        dgi_xform_make(w, h, o, &t);
        int32_t rows = halves[o] == 2 ? (h + 1) / 2 : h, cols = halves[o] == 1 ? (w + 1) / 2 : w;
        if (same_image(g, w, &t, rows, cols))
            sym = group_closure[(sym | 1 << o) >> 1];
    }
    return sym;
}

/* Two orientations give the same image when one is the other followed by a
 * symmetry of g: keep each allowed orientation unless an earlier kept one
 * gives its image. */
int32_t dgi_orient_distinct(const uint8_t *g, int32_t w, int32_t h, int32_t allowed)
{
    return dgi_orient_distinct_edges(g, w, h, allowed, NULL);
}

int32_t dgi_orient_distinct_edges(const uint8_t *g, int32_t w, int32_t h, int32_t allowed,
                                  const uint64_t (*edge)[4])
{
    if (dgi_popcount((uint32_t)allowed) <= 1) /* nothing to merge */
        return allowed;
    int32_t sym = symmetries(g, w, h, edge), out = 0;
    if (sym == 1) /* no symmetry: every orientation gives its own image */
        return allowed;
    for (uint32_t left = (uint32_t)allowed & 0xFFu; left; left &= left - 1)
    {
        int32_t o = dgi_lowest_bit64(left), dup = 0;
        for (uint32_t kept = (uint32_t)out; kept && !dup; kept &= kept - 1)
            dup = (sym >> compose_table[o][inverse_table[dgi_lowest_bit64(kept)]]) & 1;
        if (!dup)
            out |= 1 << o;
    }
    return out;
}

/* Which identity side (N E S W = 0..3) each side of an oriented grid shows,
 * times 2, plus 1 if it reads backwards. Sides read west to east (N, S) or
 * north to south (E, W). */
static const uint8_t edge_source[DG_ORIENT_COUNT][4] = {
    {0, 2, 4, 6}, /* identity */
    {7, 0, 3, 4}, /* rot90 */
    {5, 7, 1, 3}, /* rot180 */
    {2, 5, 6, 1}, /* rot270 */
    {1, 6, 5, 2}, /* mirror x */
    {4, 3, 0, 7}, /* mirror y */
    {6, 4, 2, 0}, /* transpose */
    {3, 1, 7, 5}, /* anti-diagonal */
};

/* The low len bits of v in reverse order (1 <= len <= 64). */
static inline uint64_t reverse_bits(uint64_t v, int32_t len)
{
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    v = ((v >> 8) & 0x00FF00FF00FF00FFULL) | ((v & 0x00FF00FF00FF00FFULL) << 8);
    v = ((v >> 16) & 0x0000FFFF0000FFFFULL) | ((v & 0x0000FFFF0000FFFFULL) << 16);
    v = (v >> 32) | (v << 32);
    return v >> (64 - len);
}

/* Passable bits of one identity side, read forwards and backwards; sides over
 * 64 cells are hashed instead. */
static void side_bits(const uint8_t *g, const uint8_t *passable, int32_t w, int32_t h, int side,
                      uint64_t out[2])
{
    int32_t len = (side == 0 || side == 2) ? w : h;
    size_t first = side == 1 ? (size_t)w - 1 : side == 2 ? (size_t)(h - 1) * (size_t)w : 0;
    size_t step = (side == 0 || side == 2) ? 1 : (size_t)w;
    if (len <= 64)
    {
        uint64_t fwd = 0;
        for (int32_t k = 0; k < len; k++)
            fwd |= (uint64_t)passable[g[first + (size_t)k * step]] << k;
        out[0] = fwd;
        out[1] = reverse_bits(fwd, len);
        return;
    }
    uint64_t hf = 0xCBF29CE484222325ULL, hr = hf;
    for (int32_t k = 0; k < len; k++)
    {
        hf = (hf ^ passable[g[first + (size_t)k * step]]) * 0x100000001B3ULL;
        hr = (hr ^ passable[g[first + (size_t)(len - 1 - k) * step]]) * 0x100000001B3ULL;
    }
    out[0] = hf;
    out[1] = hr;
}

/* p's edge signatures from the forward bits (or hashes) and backward ones of
 * its identity sides: bits[side * 2 + backwards]. */
static void edges_store(dgi_prefab *p, const uint64_t bits[8])
{
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
    {
        p->edge[o][0] = bits[edge_source[o][0]];
        p->edge[o][1] = bits[edge_source[o][1]];
        p->edge[o][2] = bits[edge_source[o][2]];
        p->edge[o][3] = bits[edge_source[o][3]];
    }
}

void dgi_edges_compute(dgi_prefab *p, const uint8_t *g, const uint8_t *passable)
{
    uint64_t bits[8];
    for (int side = 0; side < 4; side++)
        side_bits(g, passable, p->width, p->height, side, bits + 2 * side);
    edges_store(p, bits);
}

void dgi_edges_from_rows(dgi_prefab *p, const uint64_t *passable_rows)
{
    int32_t w = p->width, h = p->height;
    uint64_t west = 0, east = 0, bits[8];
    for (int32_t y = 0; y < h; y++)
    {
        west |= (passable_rows[y] & 1u) << y;
        east |= (passable_rows[y] >> (w - 1) & 1u) << y;
    }
    bits[0] = passable_rows[0];
    bits[2] = east;
    bits[4] = passable_rows[h - 1];
    bits[6] = west;
    for (int side = 0; side < 4; side++)
        bits[2 * side + 1] = reverse_bits(bits[2 * side], side & 1 ? h : w);
    edges_store(p, bits);
}
