/* Room shapes (DG_SHAPE_*) inside a room's interior rectangle: crosses,
 * circles, octagons, chunky rooms with cut corners, pillared halls and
 * caverns. Every shape is a list of row spans (plus pillars), and every one
 * keeps the whole middle row and middle column as floor, so it touches each
 * side of its rectangle at the middle and is 4-connected whatever else it
 * cuts. The generators decide what the cut cells become (wall or rock). */
#include "gen/gen.h"

enum { NW = 0, NE = 1, SE = 2, SW = 3 };

/* Smallest interior each kind needs (both sides). */
static const int32_t shape_min_side[DGI_SHAPE_KINDS] = {1, 7, 5, 5, 6, 7, 6};

int dgi_shape_fits(int32_t kind, int32_t w, int32_t h)
{
    return kind >= 0 && kind < DGI_SHAPE_KINDS && w >= shape_min_side[kind] &&
           h >= shape_min_side[kind];
}

void dgi_shape_rect(dgi_shape *s, int32_t w, int32_t h)
{
    int i;
    s->kind = DG_SHAPE_RECT;
    s->w = w;
    s->h = h;
    for (i = 0; i < 4; i++)
        s->notch_w[i] = s->notch_h[i] = 0;
    s->bits = 0;
}

/* Cut corners: the left notches stay left of the middle column, the right
 * ones right of it, the top ones above the middle row, the bottom ones below. */
static int32_t notch_w_max(const dgi_shape *s, int corner)
{
    return corner == NW || corner == SW ? s->w / 2 : (s->w - 1) / 2;
}

static int32_t notch_h_max(const dgi_shape *s, int corner)
{
    return corner == NW || corner == NE ? s->h / 2 : (s->h - 1) / 2;
}

/* A cross: arms two fifths of the side wide (3 at least), centred on the middle. */
static int32_t arm_width(int32_t side)
{
    int32_t arm = (2 * side + 2) / 5;
    return arm > 3 ? arm : 3;
}

static void make_cross(dgi_shape *s)
{
    int32_t arm_w = arm_width(s->w), arm_h = arm_width(s->h);
    int32_t left = (s->w - arm_w) / 2, top = (s->h - arm_h) / 2;
    int32_t right = s->w - arm_w - left, bottom = s->h - arm_h - top;
    s->notch_w[NW] = s->notch_w[SW] = left;
    s->notch_w[NE] = s->notch_w[SE] = right;
    s->notch_h[NW] = s->notch_h[NE] = top;
    s->notch_h[SW] = s->notch_h[SE] = bottom;
}

/* A chunky room: each corner cut by its own rectangle, or not at all; at
 * least two corners cut so that the room does not read as a rectangle. */
static void make_chunky(dgi_shape *s, dg_rng *rng)
{
    int corner, cut = 0;
    for (corner = 0; corner < 4; corner++)
    {
        int32_t mw = notch_w_max(s, corner), mh = notch_h_max(s, corner);
        int take = dgi_rng_below(rng, 4) != 0 || (corner >= 2 && cut < corner - 1);
        if (!take || mw < 1 || mh < 1)
            continue;
        s->notch_w[corner] = 1 + (int32_t)dgi_rng_below(rng, (uint32_t)mw);
        s->notch_h[corner] = 1 + (int32_t)dgi_rng_below(rng, (uint32_t)mh);
        cut++;
    }
}

void dgi_shape_chunky(dgi_shape *s, int32_t w, int32_t h, dg_rng *rng)
{
    dgi_shape_rect(s, w, h);
    s->kind = DG_SHAPE_CHUNKY;
    make_chunky(s, rng);
}

void dgi_shape_pick(dgi_shape *s, int32_t w, int32_t h, uint32_t kinds, int32_t share_permille,
                    dg_rng *rng)
{
    int32_t fitting[DGI_SHAPE_KINDS], count = 0, k;
    dgi_shape_rect(s, w, h);
    if ((int32_t)dgi_rng_below(rng, 1000) >= share_permille)
        return;
    for (k = DG_SHAPE_RECT + 1; k < DGI_SHAPE_KINDS; k++)
        if ((kinds >> k & 1u) && dgi_shape_fits(k, w, h))
            fitting[count++] = k;
    if (count == 0)
        return;
    s->kind = fitting[dgi_rng_below(rng, (uint32_t)count)];
    s->bits = dgi_rng_next(rng);
    if (s->kind == DG_SHAPE_CROSS)
        make_cross(s);
    else if (s->kind == DG_SHAPE_CHUNKY)
        make_chunky(s, rng);
}

static int32_t isqrt64(int64_t v)
{
    int64_t r = 0, bit = (int64_t)1 << 62;
#if defined(__GNUC__) || defined(__clang__)
    if (v <= 0)
        return 0;
    bit = (int64_t)1 << ((63 - __builtin_clzll((unsigned long long)v)) & ~1); /* the loop's start */
#endif
    while (bit > v)
        bit >>= 2;
    while (bit != 0)
    {
        if (v >= r + bit)
        {
            v -= r + bit;
            r = (r >> 1) + bit;
        }
        else
            r >>= 1;
        bit >>= 2;
    }
    return (int32_t)r;
}

/* An ellipse through the rectangle's sides, a little fuller than the exact
 * one so the end rows are not single cells: |2x + 1 - w| <= q. */
static void ellipse_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi)
{
    int64_t w = s->w, h = s->h, dy = 2 * (int64_t)y + 1 - h;
    int64_t room = h * h + h - dy * dy; /* + h: half a cell of slack */
    int32_t q = room <= 0 ? 0 : isqrt64(w * w * room / (h * h));
    q = q > w ? (int32_t)w : q; /* the slack may reach past a wide room's sides */
    *lo = (int32_t)((w - q) / 2);
    *hi = (int32_t)(w - *lo);
}

static void octagon_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi)
{
    int32_t cut = (s->w < s->h ? s->w : s->h) / 3;
    int32_t edge = y < s->h - 1 - y ? y : s->h - 1 - y;
    int32_t d = cut - edge > 0 ? cut - edge : 0;
    *lo = d;
    *hi = s->w - d;
}

static void notched_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi)
{
    int32_t left = 0, right = 0;
    if (y < s->notch_h[NW])
        left = s->notch_w[NW];
    if (y >= s->h - s->notch_h[SW] && s->notch_w[SW] > left)
        left = s->notch_w[SW];
    if (y < s->notch_h[NE])
        right = s->notch_w[NE];
    if (y >= s->h - s->notch_h[SE] && s->notch_w[SE] > right)
        right = s->notch_w[SE];
    *lo = left;
    *hi = s->w - right;
}

/* A cavern: the ellipse with each end of each row moved by up to two cells. */
static void cavern_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi)
{
    uint64_t r = dgi_hash64(((uint64_t)s->bits << 32) ^ (uint64_t)(uint32_t)y);
    ellipse_row(s, y, lo, hi);
    *lo += (int32_t)(r & 3u) - 1;
    *hi -= (int32_t)(r >> 2 & 3u) - 1;
    if (*lo < 0)
        *lo = 0;
    if (*hi > s->w)
        *hi = s->w;
}

void dgi_shape_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi)
{
    int32_t mid = s->w / 2;
    switch (s->kind)
    {
    case DG_SHAPE_CIRCLE: ellipse_row(s, y, lo, hi); break;
    case DG_SHAPE_OCTAGON: octagon_row(s, y, lo, hi); break;
    case DG_SHAPE_CROSS:
    case DG_SHAPE_CHUNKY: notched_row(s, y, lo, hi); break;
    case DG_SHAPE_CAVERN: cavern_row(s, y, lo, hi); break;
    default: *lo = 0; *hi = s->w; return;
    }
    if (y == s->h / 2)
    {
        *lo = 0;
        *hi = s->w;
    }
    if (*lo > mid)
        *lo = mid;
    if (*hi < mid + 1)
        *hi = mid + 1;
}

/* Pillars on every other cell counted from the middle row and column (which
 * stay free as aisles), one cell in from the walls at least: each stands
 * alone, so the hall stays connected and every wall cell can take a door. */
static int is_pillar(const dgi_shape *s, int32_t x, int32_t y)
{
    int32_t dx = x - s->w / 2, dy = y - s->h / 2;
    if (x < 1 || y < 1 || x > s->w - 2 || y > s->h - 2 || dx == 0 || dy == 0)
        return 0;
    return (dx & 1) == 0 && (dy & 1) == 0;
}

int dgi_shape_has(const dgi_shape *s, int32_t x, int32_t y)
{
    int32_t lo, hi;
    if (x < 0 || y < 0 || x >= s->w || y >= s->h)
        return 0;
    if (s->kind == DG_SHAPE_RECT)
        return 1;
    if (s->kind == DG_SHAPE_PILLARS)
        return !is_pillar(s, x, y);
    dgi_shape_row(s, y, &lo, &hi);
    return x >= lo && x < hi;
}

int32_t dgi_shape_cells(const dgi_shape *s)
{
    int32_t y, x, lo, hi, cells = 0;
    if (s->kind == DG_SHAPE_PILLARS)
    {
        for (y = 0; y < s->h; y++)
            for (x = 0; x < s->w; x++)
                cells += !is_pillar(s, x, y);
        return cells;
    }
    for (y = 0; y < s->h; y++)
    {
        dgi_shape_row(s, y, &lo, &hi);
        cells += hi - lo;
    }
    return cells;
}

int dgi_shape_manhattan(const dgi_shape *s)
{
    return s->kind != DG_SHAPE_PILLARS && s->kind != DG_SHAPE_CAVERN;
}
