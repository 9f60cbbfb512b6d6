/* Chambers: the caves' floor cut at narrow places into rects (cave_chambers.h). */
#include "gen/cave_chambers.h"

#include <stdlib.h>

enum {
    CHAMBER_MIN = 30,    /* cells each side of a cut keeps at least */
    CHAMBER_MAX = 300,   /* a piece with more cells is cut when it can be */
    CHAMBER_NARROW = 2,  /* a cut this narrow is taken at any size */
    CHAMBER_SPAN = 6,    /* lines each side of a cut keeps at least */
    CHAMBER_RUN_COST = 16, /* each passage a cut crosses past the first counts this much wider */
    CHAMBER_BALANCE = 4  /* a piece over this many times CHAMBER_MAX keeps a quarter each side */
};

/* out[j] bit k = in[k] bit j, for a 64 x 64 block (the classic halving swaps). */
static void transpose64(uint64_t *a)
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    for (int j = 32; j; j >>= 1, m ^= m << j)
        for (int k = 0; k < 64; k = ((k | j) + 1) & ~j)
        {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k | j] ^= t;
            a[k] ^= t << j;
        }
}

/* The open cells as bit rows from bit 0 (the rock rows start at bit 1),
 * and their transpose, 64 x 64 cells at a time. */
static void make_bit_lines(dgi_chambers *ch, const uint64_t *rock_rows, int32_t nw)
{
    int32_t rw = ch->by_row.words, cw = ch->by_col.words;
    uint64_t last = (ch->iw & 63) ? ~0ULL >> (64 - (ch->iw & 63)) : ~0ULL;
    for (int32_t y = 0; y < ch->ih; y++)
    {
        const uint64_t *rock = rock_rows + (size_t)y * (size_t)nw;
        uint64_t *out = ch->by_row.bits + (size_t)y * (size_t)rw;
        for (int32_t i = 0; i < rw; i++)
            out[i] = (~rock[i] >> 1 | (i + 1 < nw ? ~rock[i + 1] << 63 : 0)) &
                     (i == rw - 1 ? last : ~0ULL);
    }
    uint64_t block[64];
    for (int32_t by = 0; by < cw; by++)
        for (int32_t bx = 0; bx < rw; bx++)
        {
            for (int32_t k = 0; k < 64; k++)
            {
                int32_t y = by * 64 + k;
                block[k] = y < ch->ih ? ch->by_row.bits[(size_t)y * (size_t)rw + (size_t)bx] : 0;
            }
            transpose64(block);
            for (int32_t j = 0; j < 64 && bx * 64 + j < ch->iw; j++)
                ch->by_col.bits[(size_t)(bx * 64 + j) * (size_t)cw + (size_t)by] = block[j];
        }
}

/* A piece's counts per line, from its rect's corner: open cells, the open
 * pairs across to the next line and the runs those pairs form side by side
 * (the last line has none). */
typedef struct axis_counts {
    int32_t *open, *pairs, *runs;
} axis_counts;

/* Lines a..b of m, bits lo..hi: their counts into out. */
static void count_axis(const dgi_bit_lines *m, int32_t a, int32_t b, int32_t lo, int32_t hi,
                       axis_counts out)
{
    int32_t i0 = lo >> 6, i1 = hi >> 6;
    uint64_t first = ~0ULL << (lo & 63), end = ~0ULL >> (63 - (hi & 63));
    if (i0 == i1) /* most pieces: one word a line */
    {
        const uint64_t *line = m->bits + (size_t)a * (size_t)m->words + i0, mask = first & end;
        for (int32_t k = a; k <= b; k++, line += m->words)
        {
            uint64_t w = *line & mask, both = k < b ? w & line[m->words] : 0;
            out.open[k - a] = dgi_popcount64(w);
            out.pairs[k - a] = dgi_popcount64(both);
            out.runs[k - a] = dgi_popcount64(both & ~(both << 1));
        }
        return;
    }
    for (int32_t k = a; k <= b; k++)
    {
        const uint64_t *line = m->bits + (size_t)k * (size_t)m->words, *next = line + m->words;
        int32_t n = 0, across = 0, starts = 0;
        uint64_t carry = 0;
        for (int32_t i = i0; i <= i1; i++)
        {
            uint64_t w = line[i] & (i == i0 ? first : ~0ULL) & (i == i1 ? end : ~0ULL);
            n += dgi_popcount64(w);
            if (k < b)
            {
                uint64_t both = w & next[i];
                across += dgi_popcount64(both);
                starts += dgi_popcount64(both & ~(both << 1 | carry));
                carry = both >> 63;
            }
        }
        out.open[k - a] = n, out.pairs[k - a] = across, out.runs[k - a] = starts;
    }
}

/* 1 if bit j is open in lines k and k + 1 of m. */
static int pair_at(const dgi_bit_lines *m, int32_t k, int32_t j)
{
    const uint64_t *line = m->bits + (size_t)k * (size_t)m->words + (j >> 6);
    return (int)((line[0] & line[m->words]) >> (j & 63) & 1);
}

/* A piece's counts, rows then columns. */
typedef struct line_counts {
    axis_counts rows, cols;
} line_counts;

static axis_counts axis_at(const dgi_chambers *ch, int32_t at, int32_t stride)
{
    int32_t *b = ch->counts + at;
    axis_counts n = {b, b + stride, b + 2 * stride};
    return n;
}

static line_counts counts_of(const dgi_chambers *ch, const dgi_chamber *p)
{
    line_counts lc = {axis_at(ch, p->rows, p->row_stride), axis_at(ch, p->cols, p->col_stride)};
    return lc;
}

static void skip_lines(axis_counts *a, int32_t n)
{
    a->open += n, a->pairs += n, a->runs += n;
}

/* Shrinks the piece's rect to its open cells; lc moves to the new corner. */
static void trim_piece(dgi_chamber *p, line_counts *lc)
{
    int32_t w = p->x1 - p->x0 + 1, h = p->y1 - p->y0 + 1, a = 0, b = w - 1, t = 0, d = h - 1;
    while (a < b && lc->cols.open[a] == 0)
        a++;
    while (b > a && lc->cols.open[b] == 0)
        b--;
    while (t < d && lc->rows.open[t] == 0)
        t++;
    while (d > t && lc->rows.open[d] == 0)
        d--;
    skip_lines(&lc->cols, a), skip_lines(&lc->rows, t);
    p->x1 = p->x0 + b, p->x0 += a, p->y1 = p->y0 + d, p->y0 += t;
}

typedef struct cut {
    int32_t at;      /* lines on the first side (from the trimmed rect's edge); -1: none */
    int32_t vertical;
    int32_t width;   /* open pairs across, each passage past the first counted wider */
    int32_t before;  /* open cells on the first side */
    int64_t score;   /* narrower first, then more even */
} cut;

/* The best cut of piece p across one axis (its counts per line from line
 * `first`): between lines k and k + 1 for k in first..last - 1, leaving
 * side_min cells or more on each side. */
static void best_cut(axis_counts n, int32_t first, int32_t last, int32_t cells, int32_t side_min,
                     int32_t vertical, cut *best)
{
    int32_t before = 0;
    for (int32_t k = first; k < last; k++)
    {
        before += n.open[k - first];
        int32_t after = cells - before;
        if (after < side_min || last - k < CHAMBER_SPAN)
            break; /* both only fall from here */
        if (before < side_min || k - first + 1 < CHAMBER_SPAN)
            continue;
        int32_t width = n.pairs[k - first] + CHAMBER_RUN_COST * DG_MAX(n.runs[k - first] - 1, 0);
        int64_t score = (int64_t)width << 32 | (uint32_t)abs(before - after);
        if (best->at < 0 || score < best->score)
        {
            best->at = k - first + 1, best->vertical = vertical, best->width = width;
            best->before = before, best->score = score;
        }
    }
}

/* Counts of the halves lo, hi of the cross axis (lines `cross`, bits
 * split before `mid`): the counted half `done` is subtracted from the
 * parent's p into `rest`; a run of pairs through the split is one in the
 * parent but one in each half. */
static void subtract_counts(const dgi_bit_lines *m, int32_t first, int32_t cross, int32_t mid,
                            axis_counts p, axis_counts done, axis_counts rest)
{
    for (int32_t k = 0; k < cross; k++)
    {
        rest.open[k] = p.open[k] - done.open[k];
        rest.pairs[k] = p.pairs[k] - done.pairs[k];
        rest.runs[k] = p.runs[k] - done.runs[k];
        if (k + 1 < cross && pair_at(m, first + k, mid - 1) && pair_at(m, first + k, mid))
            rest.runs[k]++;
    }
}

/* The counts of the halves a, b of piece p (trimmed, counts lc), cut
 * across rows (or columns, vertical): the lines along the cut are the
 * parent's own (the halves point into them); across it, the half spanning
 * fewer words is counted into its place at `at` and the other's, beside
 * it, are the parent's less those. */
static void split_counts(const dgi_chambers *ch, const dgi_chamber *p, line_counts lc, dgi_chamber *a,
                         dgi_chamber *b, int32_t vertical, int32_t at)
{
    axis_counts along = vertical ? lc.cols : lc.rows, cross = vertical ? lc.rows : lc.cols;
    int32_t na = vertical ? a->x1 - a->x0 + 1 : a->y1 - a->y0 + 1;
    int32_t along_at = (int32_t)(along.open - ch->counts), n = vertical ? p->y1 - p->y0 + 1
                                                                        : p->x1 - p->x0 + 1;
    int32_t *a_along = vertical ? &a->cols : &a->rows, *b_along = vertical ? &b->cols : &b->rows;
    int32_t *a_cross = vertical ? &a->rows : &a->cols, *b_cross = vertical ? &b->rows : &b->cols;
    *a_along = along_at, *b_along = along_at + na;
    *a_cross = at, *b_cross = at + 3 * n;
    if (vertical)
        a->row_stride = b->row_stride = n;
    else
        a->col_stride = b->col_stride = n;
    a->end = b->end = at + 6 * n;
    const dgi_bit_lines *m = vertical ? &ch->by_row : &ch->by_col;
    int32_t first = vertical ? p->y0 : p->x0, last = vertical ? p->y1 : p->x1;
    int32_t a0 = vertical ? a->x0 : a->y0, a1 = vertical ? a->x1 : a->y1;
    int32_t b0 = vertical ? b->x0 : b->y0, b1 = vertical ? b->x1 : b->y1;
    int count_a = (a1 >> 6) - (a0 >> 6) <= (b1 >> 6) - (b0 >> 6);
    axis_counts ca = axis_at(ch, *a_cross, n), cb = axis_at(ch, *b_cross, n);
    count_axis(m, first, last, count_a ? a0 : b0, count_a ? a1 : b1, count_a ? ca : cb);
    subtract_counts(m, first, n, b0, cross, count_a ? ca : cb, count_a ? cb : ca);
}

/* Cuts the piece on top of the stack in two (both back on the stack, their
 * counts above its own), or moves it to the list when it is small enough or
 * has no cut. */
static dg_status split_piece(dgi_chambers *ch, int32_t *top)
{
    dgi_chamber p = ch->stack[--*top];
    int32_t free_at = p.end;
    void *arr = ch->counts; /* room for the halves' counts across the cut */
    dg_status st = dgi_grow(ch->a, &arr, &ch->counts_cap,
                            free_at + 6 * DG_MAX(p.x1 - p.x0 + 1, p.y1 - p.y0 + 1),
                            sizeof *ch->counts);
    ch->counts = arr;
    if (st != DG_OK)
        return st;
    line_counts lc = counts_of(ch, &p);
    trim_piece(&p, &lc);
    p.cells = 0;
    for (int32_t j = 0; j <= p.y1 - p.y0; j++)
        p.cells += lc.rows.open[j];
    cut best = {-1, 0, 0, 0, 0};
    /* a big piece is cut near its middle, so the cuts go log(cells) deep */
    int32_t side_min = p.cells > CHAMBER_BALANCE * CHAMBER_MAX ? p.cells / CHAMBER_BALANCE
                                                               : CHAMBER_MIN;
    if (p.cells >= 2 * CHAMBER_MIN)
    {
        best_cut(lc.rows, p.y0, p.y1, p.cells, side_min, 0, &best);
        best_cut(lc.cols, p.x0, p.x1, p.cells, side_min, 1, &best);
    }
    dgi_cut_node *node = &ch->nodes[p.node];
    if (best.at < 0 || (p.cells <= CHAMBER_MAX && best.width > CHAMBER_NARROW))
    {
        node->vertical = -1;
        ch->list[ch->count++] = p;
        return DG_OK;
    }
    dgi_chamber a = p, b = p;
    if (best.vertical)
        a.x1 = p.x0 + best.at - 1, b.x0 = node->at = p.x0 + best.at;
    else
        a.y1 = p.y0 + best.at - 1, b.y0 = node->at = p.y0 + best.at;
    node->vertical = best.vertical;
    a.cells = best.before, b.cells = p.cells - best.before;
    node->first = a.node = ch->node_count++;
    node->second = b.node = ch->node_count++;
    /* the halves' counts go above the parent's (the stack's counts stay in
     * stack order, and the next piece cut writes over those of the last) */
    split_counts(ch, &p, lc, &a, &b, best.vertical, free_at);
    arr = ch->stack;
    if ((st = dgi_grow(ch->a, &arr, &ch->stack_cap, *top + 2, sizeof *ch->stack)) != DG_OK)
        return st;
    ch->stack = arr;
    ch->stack[(*top)++] = b;
    ch->stack[(*top)++] = a;
    return DG_OK;
}

static int chamber_order(const void *pa, const void *pb)
{
    const dgi_chamber *a = pa, *b = pb; /* rects never overlap: no two share a corner */
    return a->y0 != b->y0 ? (a->y0 > b->y0) - (a->y0 < b->y0) : (a->x0 > b->x0) - (a->x0 < b->x0);
}

void dgi_chambers_free(dgi_chambers *ch)
{
    dgi_free(ch->a, ch->by_row.bits, ch->buf_size);
    dgi_free(ch->a, ch->counts, (size_t)ch->counts_cap * sizeof *ch->counts);
    dgi_free(ch->a, ch->stack, (size_t)ch->stack_cap * sizeof *ch->stack);
    memset(ch, 0, sizeof *ch);
}

/* The chambers of the caves' floor (open_cells of them), in row order of
 * their rects' corners, and the tree of cuts that finds a cell's chamber. */
dg_status dgi_chambers_find(dgi_chambers *ch, const uint64_t *rock_rows, int32_t nw, int32_t iw,
                            int32_t ih, int32_t open_cells, const dg_allocator *a)
{
    memset(ch, 0, sizeof *ch);
    ch->a = a, ch->iw = iw, ch->ih = ih;
    ch->cap = open_cells / CHAMBER_MIN + 2; /* every piece but the first holds CHAMBER_MIN */
    ch->by_row.words = (ch->iw + 63) / 64, ch->by_col.words = (ch->ih + 63) / 64;
    /* one spare line each: count_axis points past the last line */
    size_t bit_words = ((size_t)ch->ih + 1) * (size_t)ch->by_row.words +
                       ((size_t)ch->iw + 1) * (size_t)ch->by_col.words;
    ch->buf_size = bit_words * sizeof(uint64_t) +
                   (size_t)ch->cap * (sizeof(dgi_chamber) + 2 * sizeof(dgi_cut_node));
    uint64_t *bits = dgi_alloc(ch->a, ch->buf_size);
    dgi_chamber all = {0, 0, ch->iw - 1, ch->ih - 1, open_cells, 0,
                   0, ch->ih, 3 * ch->ih, ch->iw, 3 * (ch->iw + ch->ih)};
    void *arr = NULL, *stack = NULL;
    dg_status st = bits ? dgi_grow(ch->a, &arr, &ch->counts_cap, 4 * all.end, sizeof *ch->counts)
                        : DG_E_NOMEM;
    ch->counts = arr;
    if (st == DG_OK)
        st = dgi_grow(ch->a, &stack, &ch->stack_cap, 64, sizeof *ch->stack);
    ch->stack = stack;
    if (st != DG_OK)
    {
        dgi_free(ch->a, bits, ch->buf_size);
        ch->buf_size = 0;
        return DG_E_NOMEM;
    }
    ch->by_row.bits = bits;
    ch->by_col.bits = bits + ((size_t)ch->ih + 1) * (size_t)ch->by_row.words;
    ch->nodes = (dgi_cut_node *)(void *)(bits + bit_words);
    ch->list = (dgi_chamber *)(void *)(ch->nodes + 2 * (size_t)ch->cap);
    make_bit_lines(ch, rock_rows, nw);
    line_counts lc = counts_of(ch, &all);
    count_axis(&ch->by_row, 0, ch->ih - 1, 0, ch->iw - 1, lc.rows);
    count_axis(&ch->by_col, 0, ch->iw - 1, 0, ch->ih - 1, lc.cols);
    ch->node_count = 1;
    int32_t top = 0;
    ch->stack[top++] = all;
    while (top > 0 && st == DG_OK)
        st = split_piece(ch, &top);
    if (st != DG_OK)
        return st;
    qsort(ch->list, (size_t)ch->count, sizeof *ch->list, chamber_order);
    for (int32_t k = 0; k < ch->count; k++)
        ch->nodes[ch->list[k].node].first = k;
    return DG_OK;
}

/* The chamber of map cell i (an open cell): down the tree of cuts. */
int32_t dgi_chamber_at(const dgi_chambers *ch, int32_t x, int32_t y)
{
    int32_t n = 0;
    while (ch->nodes[n].vertical >= 0)
        n = (ch->nodes[n].vertical ? x : y) < ch->nodes[n].at ? ch->nodes[n].first
                                                              : ch->nodes[n].second;
    return ch->nodes[n].first;
}
