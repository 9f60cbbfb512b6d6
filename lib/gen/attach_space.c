/* The attach generator's space check on small maps: is there a square of
 * the map with no room or corridor cell in it, of a given side? Read from the
 * features' rectangles as rows of bits (two 64-bit words per row, a bit per
 * cell), not from the cells, so it costs a few thousand instructions on an
 * 80x25 map. Doors are left out: at most they make a square look a cell
 * larger than it is. */
#include "gen/attach_state.h"

typedef struct bits128 {
    uint64_t lo, hi; /* columns 0..63, 64..127 */
} bits128;

static bits128 shift_right(bits128 v, int32_t n) /* 0 < n < 128 */
{
    bits128 r;
    if (n >= 64)
    {
        r.lo = v.hi >> (n - 64);
        r.hi = 0;
        return r;
    }
    r.lo = v.lo >> n | v.hi << (64 - n);
    r.hi = v.hi >> n;
    return r;
}

static bits128 and_shifted(bits128 v, int32_t n)
{
    bits128 s = shift_right(v, n);
    v.lo &= s.lo;
    v.hi &= s.hi;
    return v;
}

/* The bits of columns x0 .. x1 - 1 (0 <= x0 < x1 <= 128). */
static uint64_t word_span(int32_t x0, int32_t x1)
{
    if (x1 <= x0)
        return 0;
    uint64_t upto = x1 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << x1) - 1;
    return upto & ~(((uint64_t)1 << x0) - 1); /* x0 < 64 here */
}

static bits128 span_bits(int32_t x0, int32_t x1)
{
    bits128 b;
    b.lo = word_span(DG_MIN(x0, 64), DG_MIN(x1, 64));
    b.hi = word_span(DG_MAX(x0 - 64, 0), DG_MAX(x1 - 64, 0));
    return b;
}

/* Bit x set: columns x .. x + side - 1 are all set in v (side >= 1). */
static bits128 runs_of(bits128 v, int32_t side)
{
    int32_t len = 1;
    while (2 * len <= side) /* each bit: len set bits from it on */
    {
        v = and_shifted(v, len);
        len *= 2;
    }
    return len < side ? and_shifted(v, side - len) : v;
}

static int32_t lowest_bit(uint64_t v) /* v != 0 */
{
    int32_t b = 0;
    while (!(v & 1u))
    {
        v >>= 1;
        b++;
    }
    return b;
}

int dgi_att_empty_square(const att_ctx *c, int32_t side, int32_t *sx, int32_t *sy)
{
    if (side < 1 || side > c->w || side > c->h || c->w > ATT_SPACE_MAX_SIDE ||
        c->h > ATT_SPACE_MAX_SIDE)
        return 0;
    bits128 used[ATT_SPACE_MAX_SIDE]; /* then: rows y .. y + len - 1 together */
    memset(used, 0, (size_t)c->h * sizeof used[0]);
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        const att_feat *f = &c->feats[i];
        bits128 span = span_bits(f->x, f->x + f->w);
        for (int32_t y = f->y; y < f->y + f->h; y++)
        {
            used[y].lo |= span.lo;
            used[y].hi |= span.hi;
        }
    }
    int32_t len = 1, rows = c->h; /* rows: windows of len rows that fit */
    while (2 * len <= side) /* windows of twice the rows, from two that overlap nothing */
    {
        rows -= len;
        for (int32_t y = 0; y < rows; y++)
        {
            used[y].lo |= used[y + len].lo;
            used[y].hi |= used[y + len].hi;
        }
        len *= 2;
    }
    int32_t extra = side - len, last = c->h - side; /* two windows of len that overlap make side */
    bits128 inside = span_bits(0, c->w);
    for (int32_t y = 0; y <= last; y++)
    {
        bits128 free_cells;
        free_cells.lo = ~(used[y].lo | used[y + extra].lo) & inside.lo;
        free_cells.hi = ~(used[y].hi | used[y + extra].hi) & inside.hi;
        bits128 run = runs_of(free_cells, side);
        if (run.lo | run.hi)
        {
            *sx = run.lo ? lowest_bit(run.lo) : 64 + lowest_bit(run.hi);
            *sy = y;
            return 1;
        }
    }
    return 0;
}
