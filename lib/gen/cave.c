/* Cellular-automaton caves (docs/cave.md): random rock, a birth/survival rule
 * run on bit rows (64 cells a word), smoothing, small pockets filled, and the
 * remaining caves joined by straight tunnels along a minimum spanning tree of
 * their nearest pairs, found by a two-pass distance sweep over the area. The
 * result's rooms are the caves' floor cut into chambers (cave_chambers.c). */
#include "gen/cave_chambers.h"

#include <stdlib.h>

#define STREAM_FILL 0x63617665F100ULL /* + draw number: each draw has its own stream */
#define STREAM_START 0x63617665F200ULL /* where on the outline the start is sought */
enum {
    DRAWS = 4,          /* fresh draws when no cave of two cells survives */
    TARGET_RUNS = 10,   /* automaton runs of the fill search (target_open_permille) */
    TARGET_TOLERANCE = 10, /* permille of the grid: close enough to the target */
    FILL_BITS = 10,     /* the rock chance is fill_permille rounded to 1/1024 */
    PAD = 2             /* rings of edge cells around the area in the cell map */
};

/* Cell map values: open cells are CAVE or TUNNEL, EDGE lies outside the area. */
enum {
    M_ROCK = 0, M_CAVE = 1, M_TUNNEL = 2, M_OPEN = 3, M_EDGE = 4, M_KIND = 7
};

/* Cells in the searches' queues are map indexes; cells in lists are packed
 * coordinates (map y << 16 | map x). */
#define XY(x, y) ((uint32_t)(y) << 16 | (uint32_t)(x))
#define XY_X(p) ((int32_t)((p) & 0xFFFFu))
#define XY_Y(p) ((int32_t)((p) >> 16))

typedef struct region {
    int32_t size;
    int32_t x0, y0, x1, y1; /* bounding box, map coordinates, inclusive */
} region;

typedef struct tunnel {
    uint32_t p, q;     /* the cave cells it joins (packed) */
    int32_t a, b;      /* their regions */
    int32_t u, v;      /* the touching cells it runs through (map indexes) */
    int32_t length;    /* steps from p to q */
} tunnel;

/* A run of open cells along an area row; after labelling, set is its region. */
typedef struct run {
    int32_t y, x0, x1; /* area coordinates, x1 inclusive */
    int32_t set;       /* union-find parent while labelling, then the region */
} run;

typedef struct cave_edge {
    int32_t a, b;  /* the regions of the two cells that touch */
    uint32_t p, q; /* the cave cells nearest to each (packed) */
    int32_t u, v;  /* the two touching cells (map indexes) */
    int32_t length; /* steps of the tunnel from p through u, v to q */
} cave_edge;

typedef struct cave {
    const dg_cave_params *p;
    const dg_allocator *a;
    const dgi_mask *reserved;   /* NULL: no reserved cells */
    uint64_t *forbid;           /* with reserved cells: bit rows as rock, 1 = reserved or
                                 * beside one (always rock); NULL without */
    int32_t *dist;              /* with reserved cells: steps to the nearest cave */
    int32_t border, iw, ih;     /* the area: iw x ih cells inside the border */
    /* bit rows, 1 = rock: (ih + 2) rows of nw words, bit x + 1 = area column x;
     * the pad bits (column -1, columns >= iw, rows -1 and ih) are always rock */
    int32_t nw;
    uint64_t *rock, *next, *sum0, *sum1;
    uint64_t last_pad;          /* pad bits of each row's last word */
    /* the cell map: the area with PAD edge rings, pw x ph bytes */
    int32_t pw, ph;
    size_t cells;
    void *block;      size_t block_size; /* the scratch below, one allocation */
    uint8_t *map;
    int32_t span;     /* rows per band of the first sweep (about the root of ih) */
    int32_t *marks;   /* per band: the first sweep's row before it (origin, owner; the
                       * distance is the origin's) and its first run: 2 iw + 1 each */
    uint32_t *near;   /* per cell of one band (span x iw): the nearest cave cell (packed)
                       * by the first sweep, NO_CAVE for none */
    int32_t *near_owner; /* the same cells: that cave's region (-1 for none) */
    int32_t *queue;   /* the exit walk's queue (one spare entry: it writes ahead); the
                       * same memory as marks and near, which are done with by then */
    int32_t *rows;    /* the sweeps' rows: 9 x iw (distance, origin, owner: the first
                       * sweep's row, the second's two rows) */
    int32_t *row_first, *row_end; /* per area row: its candidate tunnels in edges */
    int32_t *owner;   /* around reserved cells, per map cell: the region of the cave
                       * nearest by a walk (or -1) */
    uint32_t *origin; /* around reserved cells, per map cell: that cave's cell (packed) */
    run *runs;        int32_t run_count, run_cap;
    region *regions;  int32_t region_count, region_cap;
    int32_t *keep;    /* per region: cave index or -1 (keep_cap entries) */
    int32_t *caves;   int32_t cave_count; /* region of each cave (keep_cap entries) */
    int32_t *parent;  /* per region: union-find parent (keep_cap entries) */
    int32_t keep_cap;
    cave_edge *edges; int32_t edge_count, edge_cap;
    int32_t *order;   /* edges sorted by tunnel length */
    tunnel *tunnels;  int32_t tunnel_count;
    int32_t start, exit; /* map indexes */
    int32_t start_cave;
} cave;

/* ---- parameters ------------------------------------------------------------ */

void dg_cave_defaults(dg_cave_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_cave_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_one(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "cave: %s is %d: must be %d..%d", what, (int)v,
                        (int)lo, (int)hi);
    return DG_OK;
}

static dg_status check_params(const dg_grid *g, const dg_cave_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "cave: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "cave params", diag)) != DG_OK)
        return st;
    if ((st = check_one(diag, "fill_permille", p->fill_permille, 0, 1000)) ||
        (st = check_one(diag, "birth", p->birth, 0, 511)) ||
        (st = check_one(diag, "survival", p->survival, 0, 511)) ||
        (st = check_one(diag, "iterations", p->iterations, 0, 100)) ||
        (st = check_one(diag, "smoothing", p->smoothing, 0, 16)) ||
        (st = check_one(diag, "min_region", p->min_region, 1, (int32_t)DG_GRID_MAX_CELLS)) ||
        (st = check_one(diag, "connect", p->connect, 0, 1)) ||
        (st = check_one(diag, "tunnel_width", p->tunnel_width, 1, 3)) ||
        (st = check_one(diag, "target_open_permille", p->target_open_permille, 0, 1000)) ||
        (st = check_one(diag, "border", p->border, 0, 1)))
        return st;
    if (g->width - 2 * p->border < 3 || g->height - 2 * p->border < 3)
        return dgi_fail(diag, DG_E_TOO_SMALL,
                        "cave: a %dx%d grid%s has less than 3x3 cells for caves (smallest: %dx%d)",
                        (int)g->width, (int)g->height, p->border ? " with its border" : "",
                        3 + 2 * (int)p->border, 3 + 2 * (int)p->border);
    return DG_OK;
}

/* ---- scratch memory ------------------------------------------------------------ */

static void cave_free(cave *c)
{
    const dg_allocator *a = c->a;
    dgi_free(a, c->block, c->block_size);
    dgi_free(a, c->forbid, c->forbid ? (size_t)c->nw * (size_t)(c->ih + 2) * sizeof *c->forbid : 0);
    dgi_free(a, c->dist, c->dist ? c->cells * sizeof *c->dist : 0);
    dgi_free(a, c->owner, c->owner ? c->cells * sizeof *c->owner : 0);
    dgi_free(a, c->origin, c->origin ? c->cells * sizeof *c->origin : 0);
    dgi_free(a, c->runs, (size_t)c->run_cap * sizeof *c->runs);
    dgi_free(a, c->regions, (size_t)c->region_cap * sizeof *c->regions);
    dgi_free(a, c->keep, (size_t)c->keep_cap * sizeof *c->keep);
    dgi_free(a, c->caves, (size_t)c->keep_cap * sizeof *c->caves);
    dgi_free(a, c->parent, (size_t)c->keep_cap * sizeof *c->parent);
    dgi_free(a, c->tunnels, (size_t)c->keep_cap * sizeof *c->tunnels);
    dgi_free(a, c->edges, (size_t)c->edge_cap * sizeof *c->edges);
    dgi_free(a, c->order, (size_t)c->edge_cap * sizeof *c->order);
}

/* Rows per band of the first sweep: near holds a band, marks one row per
 * band, so about the root of ih keeps both small. */
static int32_t band_rows(int32_t ih)
{
    int32_t k = 1;
    while ((int64_t)k * k < (int64_t)ih)
        k++;
    return k;
}

/* One block: bit rows (two buffers of (ih + 2) rows, two row sums), the
 * sweeps' rows, the tunnels' row spans, the marks and near of the first
 * sweep's bands (with a result, later the exit walk's queue, 4 bytes per area
 * cell) and the map, which only the exit walk and the tunnels around
 * reserved cells read (without them it is not made: map NULL). */
static dg_status cave_alloc(cave *c, int with_map)
{
    size_t words = (size_t)c->nw * (size_t)(c->ih + 2), area = (size_t)c->iw * (size_t)c->ih;
    size_t bit_bytes = (2 * words + 2 * (size_t)c->nw) * sizeof(uint64_t);
    c->span = band_rows(c->ih);
    size_t bands = (size_t)((c->ih + c->span - 1) / c->span);
    size_t mark_ints = bands * (2 * (size_t)c->iw + 1), band_ints = 2 * (size_t)c->span * (size_t)c->iw;
    size_t shared = DG_MAX(mark_ints + band_ints, with_map ? area + 2 : 0);
    size_t ints = 9 * (size_t)c->iw + 2 * (size_t)c->ih + shared;
    c->block_size = bit_bytes + ints * sizeof(int32_t) + (with_map ? c->cells : 0);
    uint8_t *b = dgi_alloc(c->a, c->block_size);
    if (!b)
        return DG_E_NOMEM;
    c->block = b;
    c->rock = (uint64_t *)(void *)b;
    c->next = c->rock + words;
    c->sum0 = c->next + words;
    c->sum1 = c->sum0 + c->nw;
    b += bit_bytes;
    c->rows = (int32_t *)(void *)b;
    c->row_first = c->rows + 9 * (size_t)c->iw;
    c->row_end = c->row_first + c->ih;
    c->queue = c->row_end + c->ih;
    c->marks = c->queue;
    c->near = (uint32_t *)c->marks + mark_ints;
    c->near_owner = (int32_t *)c->near + (size_t)c->span * (size_t)c->iw;
    c->map = with_map ? (uint8_t *)(c->queue + shared) : NULL;
    return DG_OK;
}

/* ---- the automaton on bit rows ---------------------------------------------------- */

static uint64_t *row_of(uint64_t *bits, const cave *c, int32_t r)
{
    return bits + (size_t)r * (size_t)c->nw;
}

/* Rock on the pad bits of row r (column -1 and the columns past the area). */
static void pad_row(const cave *c, uint64_t *row)
{
    row[0] |= 1u;
    row[c->nw - 1] |= c->last_pad;
}

/* Random rock: each word compares ten random words, read as ten-bit numbers,
 * with q (bit-serially, from the low bit): a cell is rock with chance q/1024. */
static void random_fill(cave *c, int32_t q, uint64_t seed, uint64_t stream)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, stream);
    for (int32_t i = 0; i < c->nw; i++) /* the pad rows, in both buffers */
        row_of(c->rock, c, 0)[i] = row_of(c->rock, c, c->ih + 1)[i] = row_of(c->next, c, 0)[i] =
            row_of(c->next, c, c->ih + 1)[i] = ~0ULL;
    for (int32_t r = 1; r <= c->ih; r++)
    {
        uint64_t *row = row_of(c->rock, c, r);
        for (int32_t i = 0; i < c->nw; i++)
        {
            uint64_t below = 0; /* below q's lowest set bit, `below` stays 0 */
            for (int b = q > 0 && q < 1024 ? dgi_lowest_bit64((uint64_t)q) : FILL_BITS;
                 b < FILL_BITS; b++)
            {
                uint64_t w = (uint64_t)dgi_rng_next(&rng) << 32 | dgi_rng_next(&rng);
                below = (q >> b & 1) ? (w | below) : (w & below);
            }
            row[i] = q >= 1024 ? ~0ULL : below;
        }
        pad_row(c, row);
    }
}

/* Column sums of three rows (two bits per cell: s0 low, s1 high). */
static void column_sums(cave *c, const uint64_t *up, const uint64_t *mid, const uint64_t *dn)
{
    for (int32_t i = 0; i < c->nw; i++)
    {
        c->sum0[i] = up[i] ^ mid[i] ^ dn[i];
        c->sum1[i] = (up[i] & mid[i]) | (dn[i] & (up[i] | mid[i]));
    }
}

/* A word's value one column to the left (at bit j: column j - 1) and right. */
static uint64_t from_left(const uint64_t *v, int32_t i)
{
    return v[i] << 1 | (i > 0 ? v[i - 1] >> 63 : 0);
}
static uint64_t from_right(const uint64_t *v, int32_t i, int32_t n)
{
    return v[i] >> 1 | (i + 1 < n ? v[i + 1] << 63 : 0);
}

/* The rule as a list of (neighbour count, selection) pairs: a cell with count
 * n is rock next when it is selected (bit n of survival for rock, of birth for
 * open cells). */
typedef struct rule {
    int count;
    uint64_t eq[9][4]; /* per entry: the four count bits to match, as all-0 / all-1 words */
    int sel[9];        /* 1 rock cells, 2 open cells, 3 both */
    /* when both sets are "n or more" (as the defaults): n for rock cells
     * and for open cells; else threshold is 0 */
    int threshold, rock_at_least, open_at_least;
} rule;

/* n when mask holds exactly the counts n..8 (9: none), else -1. */
static int threshold_of(int32_t mask)
{
    for (int n = 0; n <= 9; n++)
        if (mask == (0x1FF & (0x1FF << n)))
            return n;
    return -1;
}

/* Lanes whose neighbour count (0..8, bit planes t0..t3) is at least n. */
static uint64_t count_at_least(int n, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3)
{
    switch (n)
    {
    case 0: return ~0ULL;
    case 1: return t3 | t2 | t1 | t0;
    case 2: return t3 | t2 | t1;
    case 3: return t3 | t2 | (t1 & t0);
    case 4: return t3 | t2;
    case 5: return t3 | (t2 & (t1 | t0));
    case 6: return t3 | (t2 & t1);
    case 7: return t3 | (t2 & t1 & t0);
    case 8: return t3;
    default: return 0;
    }
}

static void make_rule(rule *r, int32_t birth, int32_t survival)
{
    int ts = threshold_of(survival), tb = threshold_of(birth);
    r->threshold = ts >= 0 && tb >= 0;
    r->rock_at_least = ts, r->open_at_least = tb;
    r->count = 0;
    for (int n = 0; n <= 8; n++)
    {
        int sel = (survival >> n & 1) | (birth >> n & 1) << 1;
        if (!sel)
            continue;
        for (int k = 0; k < 4; k++)
            r->eq[r->count][k] = (n >> k & 1) ? ~0ULL : 0;
        r->sel[r->count++] = sel;
    }
}

/* One automaton step from c->rock into c->next (then swapped). Per word: the
 * 8-neighbour count as four bit planes, from the column sums left and right
 * plus the cells above and below. */
static void automaton_step(cave *c, const rule *rl)
{
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *up = row_of(c->rock, c, r - 1), *mid = row_of(c->rock, c, r);
        const uint64_t *dn = row_of(c->rock, c, r + 1);
        uint64_t *out = row_of(c->next, c, r);
        column_sums(c, up, mid, dn);
        for (int32_t i = 0; i < c->nw; i++)
        {
            uint64_t l0 = from_left(c->sum0, i), l1 = from_left(c->sum1, i);
            uint64_t r0 = from_right(c->sum0, i, c->nw), r1 = from_right(c->sum1, i, c->nw);
            uint64_t b0 = up[i] ^ dn[i], b1 = up[i] & dn[i];
            uint64_t s0 = l0 ^ r0, k0 = l0 & r0;
            uint64_t s1 = l1 ^ r1 ^ k0, s2 = (l1 & r1) | (k0 & (l1 ^ r1));
            uint64_t t0 = s0 ^ b0, j0 = s0 & b0;
            uint64_t t1 = s1 ^ b1 ^ j0, j1 = (s1 & b1) | (j0 & (s1 ^ b1));
            uint64_t t2 = s2 ^ j1, t3 = s2 & j1;
            uint64_t rock = mid[i], res = 0;
            if (rl->threshold)
            {
                out[i] = (rock & count_at_least(rl->rock_at_least, t0, t1, t2, t3)) |
                         (~rock & count_at_least(rl->open_at_least, t0, t1, t2, t3));
                continue;
            }
            for (int k = 0; k < rl->count; k++)
            {
                const uint64_t *e = rl->eq[k];
                uint64_t eq = ~((t0 ^ e[0]) | (t1 ^ e[1]) | (t2 ^ e[2]) | (t3 ^ e[3]));
                uint64_t sel = (rl->sel[k] & 1 ? rock : 0) | (rl->sel[k] & 2 ? ~rock : 0);
                res |= eq & sel;
            }
            out[i] = res;
        }
        pad_row(c, out);
    }
    uint64_t *t = c->rock;
    c->rock = c->next;
    c->next = t;
}

/* One smoothing pass: rock with at most one rock side (of four) opens, open
 * cells with three or four rock sides fill. */
static void smooth_step(cave *c)
{
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *up = row_of(c->rock, c, r - 1), *mid = row_of(c->rock, c, r);
        const uint64_t *dn = row_of(c->rock, c, r + 1);
        uint64_t *out = row_of(c->next, c, r);
        for (int32_t i = 0; i < c->nw; i++)
        {
            uint64_t n = up[i], s = dn[i], w = from_left(mid, i), e = from_right(mid, i, c->nw);
            uint64_t two = (n & s) | (e & w) | ((n | s) & (e | w));
            uint64_t three = (n & s & (e | w)) | (e & w & (n | s));
            out[i] = (mid[i] & two) | (~mid[i] & three);
        }
        pad_row(c, out);
    }
    uint64_t *t = c->rock;
    c->rock = c->next;
    c->next = t;
}

/* Open cells of the area. */
static int64_t open_cells(const cave *c)
{
    int64_t rock = 0, pads = (int64_t)c->nw * 64 - c->iw;
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *row = row_of(c->rock, c, r);
        for (int32_t i = 0; i < c->nw; i++)
            rock += dgi_popcount64(row[i]);
        rock -= pads;
    }
    return (int64_t)c->iw * c->ih - rock;
}

/* Reserved cells and their ring stay rock through every step, so the caves
 * close around them as around any rock. */
static void apply_forbid(cave *c)
{
    if (!c->forbid)
        return;
    size_t words = (size_t)c->nw * (size_t)(c->ih + 2);
    for (size_t i = 0; i < words; i++)
        c->rock[i] |= c->forbid[i];
}

/* Fill, iterate and smooth with rock chance q/1024; returns the open cells. */
static int64_t run_automaton(cave *c, int32_t q, uint64_t seed, uint64_t stream)
{
    rule rl;
    make_rule(&rl, c->p->birth, c->p->survival);
    random_fill(c, q, seed, stream);
    apply_forbid(c);
    for (int32_t k = 0; k < c->p->iterations; k++)
    {
        automaton_step(c, &rl);
        apply_forbid(c);
    }
    for (int32_t k = 0; k < c->p->smoothing; k++)
    {
        smooth_step(c);
        apply_forbid(c);
    }
    return open_cells(c);
}

/* The rock chance: fill_permille, or with a target the best of a bisection
 * over the chance (the same random words each run, so more chance means more
 * rock), starting at fill_permille. Leaves the chosen run in c->rock. */
static void choose_fill(cave *c, int64_t grid_cells, uint64_t seed, uint64_t stream)
{
    int32_t q = (int32_t)((c->p->fill_permille * 1024 + 500) / 1000);
    if (c->p->target_open_permille == 0)
    {
        run_automaton(c, q, seed, stream);
        return;
    }
    int64_t target = grid_cells * c->p->target_open_permille / 1000;
    int64_t tolerance = grid_cells * TARGET_TOLERANCE / 1000, best_err = -1;
    int32_t lo = 0, hi = 1024, best = q, last = -1;
    for (int tries = 0; tries < TARGET_RUNS && lo <= hi; tries++)
    {
        int64_t open = run_automaton(c, q, seed, stream), err = llabs(open - target);
        last = q;
        if (best_err < 0 || err < best_err)
            best_err = err, best = q;
        if (err <= tolerance)
            break;
        if (open > target)
            lo = q + 1;
        else
            hi = q - 1;
        q = lo + (hi - lo) / 2;
    }
    if (last != best)
        run_automaton(c, best, seed, stream);
}

/* ---- regions ------------------------------------------------------------------------ */

static int32_t map_index(const cave *c, int32_t x, int32_t y) /* area coordinates */
{
    return (y + PAD) * c->pw + x + PAD;
}

/* 1 if area cell (x, y) is reserved or beside a reserved cell. */
static int forbidden(const cave *c, int32_t x, int32_t y)
{
    const uint64_t *row = c->forbid + (size_t)(y + 1) * (size_t)c->nw;
    return (int)(row[(x + 1) >> 6] >> ((x + 1) & 63) & 1);
}

/* Sets (rock 1) or clears the bit of map cell p (packed). */
static void set_rock(cave *c, uint32_t p, int rock)
{
    int32_t j = XY_X(p) - PAD + 1;
    uint64_t *w = row_of(c->rock, c, XY_Y(p) - PAD + 1) + (j >> 6), bit = 1ULL << (j & 63);
    *w = rock ? *w | bit : *w & ~bit;
}

static uint64_t spread_bits(uint32_t b);
static void store_lanes(uint8_t *out, uint64_t tiles);

/* The cell map from the bit rows: CAVE or ROCK inside, EDGE around; eight
 * cells a step. */
static void build_map(cave *c)
{
    memset(c->map, M_EDGE, c->cells);
    for (int32_t y = 0; y < c->ih; y++)
    {
        const uint64_t *row = row_of(c->rock, c, y + 1);
        uint8_t *m = c->map + map_index(c, 0, y);
        for (int32_t x = 0; x < c->iw; x += 8)
        {
            int32_t j = x + 1, w = j >> 6, b = j & 63;
            uint64_t open = ~row[w] >> b;
            if (b > 56 && w + 1 < c->nw)
                open |= ~row[w + 1] << (64 - b);
            uint64_t lanes = spread_bits((uint32_t)open) * M_CAVE;
            if (x + 8 <= c->iw)
                store_lanes(m + x, lanes);
            else
                for (int32_t k = 0; x + k < c->iw; k++)
                    m[x + k] = (uint8_t)(lanes >> (8 * k));
        }
    }
    if (c->forbid) /* forbidden cells lie outside the area for tunnels and walks */
        for (int32_t y = 0; y < c->ih; y++)
            for (int32_t x = 0; x < c->iw; x++)
                if (forbidden(c, x, y))
                    c->map[map_index(c, x, y)] = M_EDGE;
}

static int32_t run_root(run *runs, int32_t r)
{
    while (runs[r].set != r)
    {
        runs[r].set = runs[runs[r].set].set;
        r = runs[r].set;
    }
    return r;
}

/* The runs of open cells of area row y (bit row y + 1), appended to c->runs. */
static dg_status row_runs(cave *c, int32_t y)
{
    const uint64_t *row = row_of(c->rock, c, y + 1);
    int32_t j = 1, end = c->iw + 1; /* bits of the area's columns */
    while (j < end)
    {
        /* the next open bit at or after j, then the next rock bit after it */
        uint64_t w = ~row[j >> 6] & (~0ULL << (j & 63));
        while (!w && (j = (j | 63) + 1) < end)
            w = ~row[j >> 6];
        if (j >= end)
            break;
        int32_t x0 = (j & ~63) + dgi_lowest_bit64(w);
        if (x0 >= end)
            break;
        j = x0;
        w = row[j >> 6] & (~0ULL << (j & 63)); /* the pad bit iw + 1 is rock */
        while (!w)
            j = (j | 63) + 1, w = row[j >> 6];
        int32_t x1 = (j & ~63) + dgi_lowest_bit64(w);
        if (c->run_count == c->run_cap)
        {
            void *arr = c->runs;
            dg_status st = dgi_grow(c->a, &arr, &c->run_cap, c->run_count + 1, sizeof *c->runs);
            c->runs = arr;
            if (st != DG_OK)
                return st;
        }
        run r = {y, x0 - 1, x1 - 2, c->run_count};
        c->runs[c->run_count++] = r;
        j = x1;
    }
    return DG_OK;
}

/* Joins the runs of a row [a, b) with the overlapping runs of the row
 * above [p, a) (4-connected: they share a column). */
static void join_rows(cave *c, int32_t p, int32_t a, int32_t b)
{
    run *runs = c->runs;
    int32_t i = p, k = a;
    while (i < a && k < b)
    {
        if (runs[i].x0 <= runs[k].x1 && runs[k].x0 <= runs[i].x1)
        {
            int32_t ri = run_root(runs, i), rk = run_root(runs, k);
            if (ri < rk) /* the older run is the root: roots are first runs */
                runs[rk].set = ri;
            else
                runs[ri].set = rk;
        }
        if (runs[i].x1 < runs[k].x1)
            i++;
        else
            k++;
    }
}

/* Labels the open regions (4-connected) from runs of open bits joined row to
 * row by union-find, numbered in the order of their first cell; fills in
 * c->regions (size, bounding box) and sets each run's region. */
static dg_status label_regions(cave *c)
{
    c->run_count = 0;
    c->region_count = 0;
    int32_t above = 0;
    for (int32_t y = 0; y < c->ih; y++)
    {
        int32_t first = c->run_count;
        dg_status st = row_runs(c, y);
        if (st != DG_OK)
            return st;
        join_rows(c, above, first, c->run_count);
        above = first;
    }
    for (int32_t r = 0; r < c->run_count; r++) /* each run points at its root... */
        c->runs[r].set = run_root(c->runs, r);
    for (int32_t r = 0; r < c->run_count; r++) /* ...the first run of its set */
    {
        run *rn = &c->runs[r];
        int32_t root = rn->set;
        if (root == r)
        {
            if (c->region_count == c->region_cap)
            {
                void *arr = c->regions;
                dg_status st = dgi_grow(c->a, &arr, &c->region_cap, c->region_count + 1,
                                        sizeof *c->regions);
                c->regions = arr;
                if (st != DG_OK)
                    return st;
            }
            region fresh = {0, rn->x0 + PAD, rn->y + PAD, rn->x1 + PAD, rn->y + PAD};
            c->regions[c->region_count] = fresh;
            rn->set = -1 - c->region_count++; /* roots hold their region, negated */
        }
        int32_t id = root == r ? -1 - rn->set : -1 - c->runs[root].set;
        region *rg = &c->regions[id];
        rg->size += rn->x1 - rn->x0 + 1;
        rg->x0 = DG_MIN(rg->x0, rn->x0 + PAD), rg->x1 = DG_MAX(rg->x1, rn->x1 + PAD);
        rg->y1 = rn->y + PAD;
    }
    for (int32_t r = c->run_count - 1; r >= 0; r--) /* every run gets its region (roots last) */
    {
        int32_t s = c->runs[r].set;
        c->runs[r].set = s < 0 ? -1 - s : -1 - c->runs[s].set;
    }
    return DG_OK;
}

/* keep, caves, parent and tunnels: one entry per region. */
static dg_status reserve_caves(cave *c)
{
    if (c->keep_cap >= c->region_count && c->keep)
        return DG_OK;
    dgi_free(c->a, c->keep, (size_t)c->keep_cap * sizeof *c->keep);
    dgi_free(c->a, c->caves, (size_t)c->keep_cap * sizeof *c->caves);
    dgi_free(c->a, c->parent, (size_t)c->keep_cap * sizeof *c->parent);
    dgi_free(c->a, c->tunnels, (size_t)c->keep_cap * sizeof *c->tunnels);
    c->keep_cap = DG_MAX(c->region_cap, 1);
    c->keep = dgi_alloc(c->a, (size_t)c->keep_cap * sizeof *c->keep);
    c->caves = dgi_alloc(c->a, (size_t)c->keep_cap * sizeof *c->caves);
    c->parent = dgi_alloc(c->a, (size_t)c->keep_cap * sizeof *c->parent);
    c->tunnels = dgi_alloc(c->a, (size_t)c->keep_cap * sizeof *c->tunnels);
    return c->keep && c->caves && c->parent && c->tunnels ? DG_OK : DG_E_NOMEM;
}

/* The regions kept as caves: those of min_region cells or more (only the
 * largest with connect = largest), else the largest if it has two cells.
 * Returns the number kept. */
static int32_t choose_caves(cave *c)
{
    int32_t largest = -1, kept = 0;
    for (int32_t r = 0; r < c->region_count; r++)
        if (largest < 0 || c->regions[r].size > c->regions[largest].size)
            largest = r;
    for (int32_t r = 0; r < c->region_count; r++)
    {
        int big = c->regions[r].size >= c->p->min_region;
        if (c->p->connect == DG_CAVE_CONNECT_LARGEST)
            big = r == largest;
        c->keep[r] = big ? kept++ : -1;
    }
    if (kept == 0 && largest >= 0 && c->regions[largest].size >= 2)
        c->keep[largest] = kept++;
    for (int32_t r = 0; r < c->region_count; r++)
        if (c->keep[r] >= 0)
            c->caves[c->keep[r]] = r;
    c->cave_count = kept;
    return kept;
}

/* Regions not kept become rock; then the cell map is made. */
static void fill_pockets(cave *c)
{
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const run *rn = &c->runs[r];
        if (c->keep[rn->set] >= 0)
            continue;
        for (int32_t x = rn->x0; x <= rn->x1; x++)
            set_rock(c, XY(x + PAD, rn->y + PAD), 1);
    }
    if (c->map)
        build_map(c);
}

/* The free cell nearest (*x, *y) with a free side (ties in row order), as
 * the centre of the last-resort cave around reserved cells; 0 if none. */
static int free_centre(const cave *c, int32_t *x, int32_t *y)
{
    int32_t best = -1, bx = 0, by = 0;
    for (int32_t j = 0; j < c->ih; j++)
        for (int32_t i = 0; i < c->iw; i++)
        {
            int32_t d = abs(i - *x) + abs(j - *y);
            if (forbidden(c, i, j) || (best >= 0 && d >= best))
                continue;
            if ((i > 0 && !forbidden(c, i - 1, j)) || (i + 1 < c->iw && !forbidden(c, i + 1, j)) ||
                (j > 0 && !forbidden(c, i, j - 1)) || (j + 1 < c->ih && !forbidden(c, i, j + 1)))
                best = d, bx = i, by = j;
        }
    *x = bx, *y = by;
    return best >= 0;
}

/* A 3x3 cave (clipped to the area) at the centre, when no draw left one;
 * around reserved cells, at the nearest free place (none if there is none). */
static void centre_cave(cave *c)
{
    for (int32_t r = 1; r <= c->ih; r++)
        memset(row_of(c->rock, c, r), 0xFF, (size_t)c->nw * sizeof(uint64_t));
    int32_t x0 = c->iw / 2 - 1, y0 = c->ih / 2 - 1;
    if (c->forbid)
    {
        int32_t cx = x0 + 1, cy = y0 + 1;
        if (!free_centre(c, &cx, &cy))
            return;
        x0 = DG_MIN(DG_MAX(cx - 1, 0), c->iw - 3), y0 = DG_MIN(DG_MAX(cy - 1, 0), c->ih - 3);
    }
    for (int32_t y = y0; y < y0 + 3; y++)
        for (int32_t x = x0; x < x0 + 3; x++)
            set_rock(c, XY(x + PAD, y + PAD), 0);
}

/* ---- connecting ----------------------------------------------------------------------- */

/* Length of the tunnel edge e would carve: the walk between its cave cells. */
static int32_t edge_length(const cave_edge *e)
{
    return abs(XY_X(e->p) - XY_X(e->q)) + abs(XY_Y(e->p) - XY_Y(e->q));
}

/* The nearest caves of one area row: owner (region, -1 for none) and origin
 * (the cave cell, packed) per column. */
typedef struct near_row {
    const int32_t *owner;
    const uint32_t *origin;
} near_row;

/* The candidate tunnel through the touching cells u, v (columns xu, xv of
 * rows ru, rv): a straight line between their caves, or around reserved
 * cells the two walks back to them. */
static cave_edge make_edge(const cave *c, int32_t u, int32_t v, near_row ru, int32_t xu,
                           near_row rv, int32_t xv)
{
    cave_edge e = {ru.owner[xu], rv.owner[xv], ru.origin[xu], rv.origin[xv], u, v, 0};
    e.length = c->dist ? c->dist[u] + c->dist[v] + 1 : edge_length(&e);
    return e;
}

/* Records the touching cells as a candidate, or, when *last is an edge of
 * the same two regions (found before along the row), keeps the shorter of
 * the two there. */
static dg_status touch(cave *c, int32_t u, int32_t v, near_row ru, int32_t xu, near_row rv,
                       int32_t xv, int32_t *last)
{
    cave_edge e = make_edge(c, u, v, ru, xu, rv, xv);
    if (*last >= 0 && c->edges[*last].a == e.a && c->edges[*last].b == e.b)
    {
        if (e.length < c->edges[*last].length)
            c->edges[*last] = e;
        return DG_OK;
    }
    *last = c->edge_count;
    if (c->edge_count == c->edge_cap)
    {
        void *arr = c->edges;
        dg_status st = dgi_grow(c->a, &arr, &c->edge_cap, c->edge_count + 1, sizeof *c->edges);
        c->edges = arr;
        if (st != DG_OK)
            return st;
    }
    c->edges[c->edge_count++] = e;
    return DG_OK;
}

/* Where the areas of two caves touch in area row y (across, or down to the
 * row below, `down`; none under the last row), the pair of cells is a
 * candidate tunnel; runs of the same pair along the row give one candidate.
 * The row's candidates are edges[row_first[y], row_end[y]). */
static dg_status meet_row(cave *c, int32_t y, near_row here, near_row down)
{
    const int32_t *own = here.owner, *below = y + 1 < c->ih ? down.owner : own;
    int32_t across = -1, dn = -1, i0 = map_index(c, 0, y), last = c->iw - 1;
    dg_status st = DG_OK;
    c->row_first[y] = c->edge_count;
    for (int32_t x = 0; x <= last && st == DG_OK; x++)
    {
        int32_t o = own[x];
        while (x < last && own[x + 1] == o && below[x] == o)
            x++; /* inside one cave's area (most cells) */
        if (o < 0)
            continue; /* around reserved cells, a cell of no cave */
        if (x < last && own[x + 1] >= 0 && own[x + 1] != o)
            st = touch(c, i0 + x, i0 + x + 1, here, x, here, x + 1, &across);
        if (st == DG_OK && below[x] >= 0 && below[x] != o)
            st = touch(c, i0 + x, i0 + x + c->pw, here, x, down, x, &dn);
    }
    c->row_end[y] = c->edge_count;
    return st;
}

enum { FAR = INT32_MAX / 2 };
#define NO_CAVE 0xFFFFFFFFu /* the origin of a cell the first sweep reached from no cave */

/* The first sweep's row: per column the distance to the nearest cave cell
 * found so far, that cell (packed) and its region. */
typedef struct sweep_row {
    int32_t *d;
    uint32_t *g;
    int32_t *own;
} sweep_row;

/* First sweep, area row y, columns x0..x1 of rock (down and right): each cell
 * takes the nearer of the cell above and the cell before it (the one above
 * on a tie); s: the row above, updated in place; near, nown: this row's
 * cells in the band; *pd, *pg, *po those of the cell before. */
static void sweep_down_rock(uint32_t *near, int32_t *nown, sweep_row s, int32_t x0, int32_t x1,
                            int32_t *pd, uint32_t *pg, int32_t *po)
{
    int32_t dl = *pd, ol = *po;
    uint32_t gl = *pg;
    for (int32_t x = x0; x <= x1; x++)
    {
        int32_t du = s.d[x] + 1, dist = FAR, ow = -1;
        uint32_t o = NO_CAVE;
        if (du < dist)
            dist = du, o = s.g[x], ow = s.own[x];
        if (dl + 1 < dist)
            dist = dl + 1, o = gl, ow = ol;
        s.d[x] = dl = dist, s.g[x] = gl = near[x] = o, s.own[x] = ol = nown[x] = ow;
    }
    *pd = dl, *pg = gl, *po = ol;
}

/* The cave cells x0..x1 of area row y, region `set`, in either sweep. */
static void sweep_cave(int32_t *d, uint32_t *g, int32_t *own, int32_t set, int32_t x0, int32_t x1,
                       int32_t y)
{
    uint32_t p = XY(x0 + PAD, y + PAD);
    for (int32_t x = x0; x <= x1; x++)
        d[x] = 0, g[x] = p++, own[x] = set;
}

/* The first sweep over the rows y0..y1 - 1 (a band), from the runs of row y0
 * on (*r), into near and near_owner. */
static void sweep_down_band(cave *c, sweep_row s, int32_t y0, int32_t y1, int32_t *r)
{
    int32_t iw = c->iw;
    for (int32_t y = y0; y < y1; y++)
    {
        size_t at = (size_t)(y - y0) * (size_t)iw;
        uint32_t *near = c->near + at, pg = NO_CAVE;
        int32_t *nown = c->near_owner + at, x = 0, pd = FAR, po = -1;
        for (; *r < c->run_count && c->runs[*r].y == y; (*r)++)
        {
            const run *rn = &c->runs[*r];
            if (c->keep[rn->set] < 0)
                continue;
            sweep_down_rock(near, nown, s, x, rn->x0 - 1, &pd, &pg, &po);
            sweep_cave(s.d, s.g, s.own, rn->set, rn->x0, rn->x1, y);
            pd = 0, pg = s.g[rn->x1], po = rn->set, x = rn->x1 + 1;
        }
        sweep_down_rock(near, nown, s, x, iw - 1, &pd, &pg, &po);
    }
}

/* Second sweep, area row y, columns x1 down to x0 of rock (up and left): each
 * cell keeps its first sweep's cave unless the cell below, then the cell after
 * it, is strictly nearer. The first sweep's distance is the Manhattan distance
 * to its cave (up and left of the cell). near, nown: this row's first sweep;
 * dn: the row below; out: this row; *pd.. the cell after. */
static void sweep_up_rock(const uint32_t *near, const int32_t *nown, int32_t y, near_row dn,
                          const int32_t *ddn, int32_t *d, uint32_t *g, int32_t *own, int32_t x0,
                          int32_t x1, int32_t *pd, uint32_t *pg, int32_t *po)
{
    int32_t dr = *pd, orr = *po, Y = y + PAD;
    uint32_t gr = *pg;
    for (int32_t x = x1; x >= x0; x--)
    {
        uint32_t o = near[x];
        int32_t dist = o == NO_CAVE ? FAR : x + PAD - XY_X(o) + Y - XY_Y(o), owner = nown[x];
        if (ddn[x] + 1 < dist)
            dist = ddn[x] + 1, o = dn.origin[x], owner = dn.owner[x];
        if (dr + 1 < dist)
            dist = dr + 1, o = gr, owner = orr;
        d[x] = dr = dist, g[x] = gr = o, own[x] = orr = owner;
    }
    *pd = dr, *pg = gr, *po = orr;
}

/* The first sweep's rows before each band into marks (and its first run),
 * leaving the last band in near. */
static void mark_bands(cave *c, sweep_row s)
{
    int32_t iw = c->iw, r = 0;
    for (int32_t x = 0; x < iw; x++)
        s.d[x] = FAR, s.g[x] = NO_CAVE, s.own[x] = -1;
    for (int32_t y0 = 0; y0 < c->ih; y0 += c->span)
    {
        int32_t *m = c->marks + (size_t)(y0 / c->span) * (2 * (size_t)iw + 1);
        memcpy(m, s.g, (size_t)iw * sizeof *m);
        memcpy(m + iw, s.own, (size_t)iw * sizeof *m);
        m[2 * iw] = r;
        sweep_down_band(c, s, y0, DG_MIN(y0 + c->span, c->ih), &r);
    }
}

/* The first sweep again over the band from row y0, from its mark: the
 * distance of row y0 - 1 is the Manhattan distance to its origin. */
static void redo_band(cave *c, sweep_row s, int32_t y0)
{
    int32_t iw = c->iw, *m = c->marks + (size_t)(y0 / c->span) * (2 * (size_t)iw + 1);
    int32_t r = m[2 * iw], Y = y0 - 1 + PAD;
    memcpy(s.g, m, (size_t)iw * sizeof *m);
    memcpy(s.own, m + iw, (size_t)iw * sizeof *m);
    for (int32_t x = 0; x < iw; x++)
        s.d[x] = s.g[x] == NO_CAVE ? FAR : x + PAD - XY_X(s.g[x]) + Y - XY_Y(s.g[x]);
    sweep_down_band(c, s, y0, DG_MIN(y0 + c->span, c->ih), &r);
}

/* Nearest cave cell of every area cell by Manhattan distance, with its cave:
 * the classic two raster passes (down and right, then up and left), exact
 * for 4-way steps in an open rectangle. The first runs in bands of rows,
 * keeping only the rows before each band (marks) and the cells of one band
 * (near); the second runs on rows, bottom up, redoing each band's first sweep
 * from its mark as it reaches it, and meets the caves (meet_row) as each row
 * is done. So the scratch is a few rows of the area, at the cost of a second
 * first sweep. Cave cells are whole runs, so only rock is swept cell by cell. */
static dg_status nearest_caves(cave *c)
{
    int32_t iw = c->iw, *d = c->rows, *dd = c->rows + 3 * iw;
    uint32_t *g = (uint32_t *)d + iw, *gd = (uint32_t *)dd + iw;
    int32_t *own = d + 2 * iw, *ownd = dd + 2 * iw, *f = c->rows + 6 * iw;
    sweep_row first = {f, (uint32_t *)f + iw, f + 2 * iw};
    mark_bands(c, first);
    for (int32_t x = 0; x < iw; x++)
        dd[x] = FAR;
    dg_status st = DG_OK;
    c->edge_count = 0;
    int32_t y0 = (c->ih - 1) / c->span * c->span; /* the last band, in near already */
    for (int32_t y = c->ih - 1, r = c->run_count - 1; y >= 0 && st == DG_OK; y--)
    {
        if (y < y0)
            redo_band(c, first, y0 -= c->span);
        size_t at = (size_t)(y - y0) * (size_t)iw;
        const uint32_t *near = c->near + at;
        const int32_t *nown = c->near_owner + at;
        near_row dn = {ownd, gd}, here = {own, g};
        int32_t x = iw - 1, pd = FAR, po = -1;
        uint32_t pg = NO_CAVE;
        for (; r >= 0 && c->runs[r].y == y; r--)
        {
            const run *rn = &c->runs[r];
            if (c->keep[rn->set] < 0)
                continue;
            sweep_up_rock(near, nown, y, dn, dd, d, g, own, rn->x1 + 1, x, &pd, &pg, &po);
            sweep_cave(d, g, own, rn->set, rn->x0, rn->x1, y);
            pd = 0, pg = g[rn->x0], po = rn->set, x = rn->x0 - 1;
        }
        sweep_up_rock(near, nown, y, dn, dd, d, g, own, 0, x, &pd, &pg, &po);
        st = meet_row(c, y, here, dn);
        int32_t *t = d; /* this row is the next one's row below */
        d = dd, dd = t, t = own, own = ownd, ownd = t;
        uint32_t *u = g;
        g = gd, gd = u;
    }
    return st;
}

/* Where the areas of two caves touch (across or down), around reserved
 * cells: from the per-cell owner and origin of nearest_caves_around. */
static dg_status meet_caves(cave *c)
{
    dg_status st = DG_OK;
    c->edge_count = 0;
    for (int32_t y = 0; y < c->ih && st == DG_OK; y++)
    {
        int32_t i = map_index(c, 0, y), j = y + 1 < c->ih ? i + c->pw : i;
        near_row here = {c->owner + i, c->origin + i}, down = {c->owner + j, c->origin + j};
        st = meet_row(c, y, here, down);
    }
    return st;
}

/* c->order = the edges by length, ties in the order found (a counting sort). */
static dg_status sort_edges(cave *c)
{
    int32_t longest = c->dist ? (int32_t)c->cells : c->iw + c->ih;
    size_t counts_size = (size_t)(longest + 2) * sizeof(int32_t);
    int32_t *start = dgi_calloc(c->a, (size_t)longest + 2, sizeof(int32_t));
    c->order = dgi_alloc(c->a, (size_t)c->edge_cap * sizeof *c->order);
    if (!start || !c->order)
    {
        dgi_free(c->a, start, counts_size);
        return DG_E_NOMEM;
    }
    for (int32_t e = 0; e < c->edge_count; e++)
        start[c->edges[e].length + 1]++;
    for (int32_t k = 1; k <= longest + 1; k++)
        start[k] += start[k - 1];
    for (int32_t y = 0; y < c->ih; y++) /* in the order found along the rows, top down */
        for (int32_t e = c->row_first[y]; e < c->row_end[y]; e++)
            c->order[start[c->edges[e].length]++] = e;
    dgi_free(c->a, start, counts_size);
    return DG_OK;
}

/* Kruskal over the candidate tunnels: the shortest that joins two caves not
 * yet joined, until all are one. */
static void spanning_tree(cave *c)
{
    int32_t *parent = c->parent;
    for (int32_t r = 0; r < c->region_count; r++)
        parent[r] = r;
    c->tunnel_count = 0;
    for (int32_t i = 0; i < c->edge_count && c->tunnel_count < c->cave_count - 1; i++)
    {
        const cave_edge *e = &c->edges[c->order[i]];
        int32_t a = dgi_uf_find(parent, e->a), b = dgi_uf_find(parent, e->b);
        if (a == b)
            continue;
        parent[a] = b;
        tunnel t = {e->p, e->q, e->a, e->b, e->u, e->v, e->length};
        c->tunnels[c->tunnel_count++] = t;
    }
}

/* Opens the brush (tunnel_width cells square) at map cell (x, y), inside the
 * area (without the map, the area's bounds and the bit rows tell the same). */
static void open_brush(cave *c, int32_t x, int32_t y)
{
    int32_t w = c->p->tunnel_width, lo = w == 3 ? -1 : 0;
    for (int32_t dy = lo; dy < lo + w; dy++)
        for (int32_t dx = lo; dx < lo + w; dx++)
        {
            if (!c->map)
            {
                int32_t ax = x + dx - PAD, ay = y + dy - PAD;
                if (ax >= 0 && ax < c->iw && ay >= 0 && ay < c->ih)
                    set_rock(c, XY(x + dx, y + dy), 0);
                continue;
            }
            uint8_t *m = &c->map[(y + dy) * c->pw + x + dx];
            if ((*m & M_KIND) == M_ROCK)
            {
                *m = (uint8_t)((*m & ~M_KIND) | M_TUNNEL); /* keeps a walk's way back */
                set_rock(c, XY(x + dx, y + dy), 0);
            }
        }
}

/* The 4-connected line from p to q: each step moves along the axis whose
 * progress lags (integer comparison), so the tunnel runs straight. */
static void carve_line(cave *c, uint32_t p, uint32_t q)
{
    int32_t x = XY_X(p), y = XY_Y(p), qx = XY_X(q), qy = XY_Y(q);
    int32_t dx = abs(qx - x), dy = abs(qy - y), sx = qx > x ? 1 : -1, sy = qy > y ? 1 : -1;
    int64_t mx = 0, my = 0;
    open_brush(c, x, y);
    while (mx < dx || my < dy)
    {
        if (my == dy || (mx < dx && (2 * mx + 1) * dy < (2 * my + 1) * dx))
            mx++, x += sx;
        else
            my++, y += sy;
        open_brush(c, x, y);
    }
}

/* ---- connecting around reserved cells ---------------------------------------------- */

enum { WAY_SHIFT = 3 }; /* map bits 3-4: the direction back toward a rock cell's cave */

/* Nearest cave of every cell a walk reaches without crossing forbidden cells
 * (breadth-first from all cave cells at once, sides in N E S W order): owner,
 * origin, dist, and the way back in the map. Cells never reached keep owner -1. */
static void nearest_caves_around(cave *c)
{
    const int32_t off[4] = {-c->pw, 1, c->pw, -1};
    int32_t *queue = c->queue, head = 0, tail = 0;
    for (size_t i = 0; i < c->cells; i++)
        c->owner[i] = -1;
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const run *rn = &c->runs[r];
        if (c->keep[rn->set] < 0)
            continue;
        for (int32_t x = rn->x0, i = map_index(c, x, rn->y); x <= rn->x1; x++, i++)
        {
            c->dist[i] = 0, c->owner[i] = rn->set, c->origin[i] = XY(x + PAD, rn->y + PAD);
            queue[tail++] = i;
        }
    }
    while (head < tail)
    {
        int32_t u = queue[head++];
        for (int d = 0; d < 4; d++)
        {
            int32_t v = u + off[d];
            if (c->owner[v] >= 0 || (c->map[v] & M_KIND) != M_ROCK)
                continue;
            c->owner[v] = c->owner[u], c->origin[v] = c->origin[u], c->dist[v] = c->dist[u] + 1;
            c->map[v] |= (uint8_t)(((d + 2) & 3) << WAY_SHIFT);
            queue[tail++] = v;
        }
    }
}

static int is_open(uint8_t m)
{
    return (m & M_KIND) == M_CAVE || (m & M_KIND) == M_TUNNEL;
}

/* The brush at (x, y) around reserved cells: the cell itself, then those of
 * its square that are rock and touch open floor, so no opened cell is cut off. */
static void open_brush_around(cave *c, int32_t x, int32_t y)
{
    int32_t w = c->p->tunnel_width, lo = w == 3 ? -1 : 0, pw = c->pw;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t dy = lo; dy < lo + w; dy++)
            for (int32_t dx = lo; dx < lo + w; dx++)
            {
                int32_t i = (y + dy) * pw + x + dx;
                int centre = dx == 0 && dy == 0;
                if ((c->map[i] & M_KIND) != M_ROCK || centre != (pass == 0) ||
                    (!centre && !is_open(c->map[i - pw]) && !is_open(c->map[i + pw]) &&
                     !is_open(c->map[i - 1]) && !is_open(c->map[i + 1])))
                    continue;
                c->map[i] = (uint8_t)((c->map[i] & ~M_KIND) | M_TUNNEL);
                set_rock(c, XY(x + dx, y + dy), 0);
            }
}

/* Carves the walk from map cell i back to its cave cell. */
static void carve_back(cave *c, int32_t i)
{
    const int32_t off[4] = {-c->pw, 1, c->pw, -1};
    uint32_t home = c->origin[i];
    int32_t target = XY_Y(home) * c->pw + XY_X(home);
    for (;;)
    {
        open_brush_around(c, i % c->pw, i / c->pw);
        if (i == target)
            return;
        i += off[(c->map[i] >> WAY_SHIFT) & 3];
    }
}

/* Reserved cells may cut the area into pieces: the caves of the piece with
 * the most cave cells stay (their tree of tunnels too), the others fill. */
static dg_status keep_joined_caves(cave *c)
{
    int64_t *sizes = dgi_calloc(c->a, (size_t)c->region_count, sizeof *sizes), best_size = -1;
    if (!sizes)
        return DG_E_NOMEM;
    int32_t best = -1;
    for (int32_t k = 0; k < c->cave_count; k++)
        sizes[dgi_uf_find(c->parent, c->caves[k])] += c->regions[c->caves[k]].size;
    for (int32_t k = 0; k < c->cave_count; k++)
    {
        int32_t root = dgi_uf_find(c->parent, c->caves[k]);
        if (sizes[root] > best_size)
            best_size = sizes[root], best = root;
    }
    dgi_free(c->a, sizes, (size_t)c->region_count * sizeof *sizes);
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const run *rn = &c->runs[r];
        if (c->keep[rn->set] < 0 || dgi_uf_find(c->parent, rn->set) == best)
            continue;
        for (int32_t x = rn->x0; x <= rn->x1; x++)
        {
            set_rock(c, XY(x + PAD, rn->y + PAD), 1);
            c->map[map_index(c, x, rn->y)] = M_ROCK;
        }
    }
    int32_t kept = 0, tunnels = 0;
    for (int32_t k = 0; k < c->cave_count; k++)
    {
        int32_t r = c->caves[k];
        c->keep[r] = dgi_uf_find(c->parent, r) == best ? kept : -1;
        if (c->keep[r] >= 0)
            c->caves[kept++] = r;
    }
    for (int32_t t = 0; t < c->tunnel_count; t++)
        if (c->keep[c->tunnels[t].a] >= 0)
            c->tunnels[tunnels++] = c->tunnels[t];
    c->cave_count = kept;
    c->tunnel_count = tunnels;
    return DG_OK;
}

/* The tunnels to dig once the candidates are known: a spanning tree of them,
 * shortest first. */
static dg_status plan_tunnels(cave *c)
{
    dg_status st = sort_edges(c);
    if (st == DG_OK)
        spanning_tree(c);
    return st;
}

/* connect_caves around reserved cells: tunnels follow shortest walks that
 * keep off them, and caves no walk can join are filled. */
static dg_status connect_around(cave *c)
{
    nearest_caves_around(c);
    dg_status st = meet_caves(c);
    if (st == DG_OK)
        st = plan_tunnels(c);
    if (st != DG_OK)
        return st;
    if ((st = keep_joined_caves(c)) != DG_OK)
        return st;
    for (int32_t t = 0; t < c->tunnel_count; t++)
    {
        carve_back(c, c->tunnels[t].u);
        carve_back(c, c->tunnels[t].v);
    }
    return DG_OK;
}

static dg_status connect_caves(cave *c)
{
    if (c->cave_count < 2)
        return DG_OK;
    if (c->forbid)
        return connect_around(c);
    dg_status st = nearest_caves(c);
    if (st == DG_OK)
        st = plan_tunnels(c);
    if (st != DG_OK)
        return st;
    for (int32_t t = 0; t < c->tunnel_count; t++)
        carve_line(c, c->tunnels[t].p, c->tunnels[t].q);
    return DG_OK;
}

/* ---- start, exit, metrics, tiles --------------------------------------------------------- */

/* Start: the cell of the largest cave nearest a point drawn on the area's
 * outline, so the start lies at one end of the map (the exit, the cell
 * farthest by walking, then at the other), on a side that varies by seed. */
static void pick_start(cave *c, uint64_t seed)
{
    int32_t best = 0;
    for (int32_t k = 1; k < c->cave_count; k++)
        if (c->regions[c->caves[k]].size > c->regions[c->caves[best]].size)
            best = k;
    int32_t id = c->caves[best], dist = INT32_MAX;
    dg_rng rng;
    dgi_rng_seed(&rng, seed, STREAM_START);
    int32_t along = (int32_t)dgi_rng_below(&rng, (uint32_t)(2 * (c->iw + c->ih)));
    int32_t tx = along < c->iw ? along : along < c->iw + c->ih ? c->iw - 1
               : along < 2 * c->iw + c->ih ? along - c->iw - c->ih : 0;
    int32_t ty = along < c->iw ? 0 : along < c->iw + c->ih ? along - c->iw
               : along < 2 * c->iw + c->ih ? c->ih - 1 : along - 2 * c->iw - c->ih;
    c->start_cave = best;
    for (int32_t r = 0; r < c->run_count; r++) /* in row order: ties go to the first */
    {
        const run *rn = &c->runs[r];
        if (rn->set != id)
            continue;
        int32_t x = DG_MAX(rn->x0, DG_MIN(tx, rn->x1)), d = abs(x - tx) + abs(rn->y - ty);
        if (d < dist)
            dist = d, c->start = map_index(c, x, rn->y);
    }
}

/* Exit: the last cave cell a breadth-first walk from the start reaches. In
 * the map, 1 is cave, 2 tunnel, 0 closed, and W_SEEN marks a cell queued
 * (its kind stays, so the queue read backwards finds the last cave cell).
 * Branch-free as the flood in finish.c: every neighbour is written to the
 * queue and kept only if open and unseen, the four loads before the four
 * stores (a byte store may alias anything, so the compiler would not reorder
 * them itself). */
enum { W_SEEN = 0x80 };
static void pick_exit(cave *c)
{
    uint8_t *map = c->map;
    int32_t *queue = c->queue;
    const ptrdiff_t pw = c->pw; /* pointer-sized: no widening per cell */
    size_t i = 0, n = c->cells; /* EDGE (4) and the marks go, eight cells a step */
    for (; i + 8 <= n; i += 8)
    {
        uint64_t w;
        memcpy(&w, map + i, 8);
        w &= 0x0101010101010101ULL * M_OPEN;
        memcpy(map + i, &w, 8);
    }
    for (; i < n; i++)
        map[i] &= M_OPEN;
    size_t head = 0, tail = 1;
    queue[0] = c->start;
    map[c->start] |= W_SEEN;
    while (head < tail)
    {
        ptrdiff_t u = queue[head++];
        uint8_t *m = map + u, mn = m[-pw], me = m[1], ms = m[pw], mw = m[-1];
        m[-pw] = mn | W_SEEN, m[1] = me | W_SEEN, m[pw] = ms | W_SEEN, m[-1] = mw | W_SEEN;
        queue[tail] = (int32_t)(u - pw), tail += (uint8_t)(mn - 1) < 2; /* 1 or 2: open, unseen */
        queue[tail] = (int32_t)(u + 1), tail += (uint8_t)(me - 1) < 2;
        queue[tail] = (int32_t)(u + pw), tail += (uint8_t)(ms - 1) < 2;
        queue[tail] = (int32_t)(u - 1), tail += (uint8_t)(mw - 1) < 2;
    }
    size_t k = tail - 1;
    while (k > 0 && (map[queue[k]] & M_KIND) != M_CAVE)
        k--;
    c->exit = queue[k];
}

/* Eight tiles, lane k (bits 8k..8k+7) for the cell k to the right, stored
 * as the bytes at out..out+7. One 8-byte store where the byte order is known
 * at compile time: as is on little-endian, where lane k is byte k, and byte
 * swapped on big-endian, where lane 0 is the last byte; else byte by byte. */
static void store_lanes(uint8_t *out, uint64_t tiles)
{
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    memcpy(out, &tiles, 8);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    tiles = __builtin_bswap64(tiles);
    memcpy(out, &tiles, 8);
#else
    for (int k = 0; k < 8; k++)
        out[k] = (uint8_t)(tiles >> (8 * k));
#endif
}

/* Byte lanes 1 where the bits of b are set: eight cells at once. */
static uint64_t spread_bits(uint32_t b)
{
    uint64_t x = b & 0xFFu;
    x = (x | x << 28) & 0x0000000F0000000FULL;
    x = (x | x << 14) & 0x0003000300030003ULL;
    x = (x | x << 7) & 0x0101010101010101ULL;
    return x;
}

/* Open cells of bit row r (rows outside -1..ih+1 hold none) as words. */
static void open_row(const cave *c, int32_t r, uint64_t *out)
{
    const uint64_t *row = r >= 0 && r <= c->ih + 1 ? row_of(c->rock, c, r) : NULL;
    for (int32_t i = 0; i < c->nw; i++)
        out[i] = row ? ~row[i] : 0;
}

/* Tiles of grid row y: open cells are floor, rock touching one (8-way) is
 * wall, the rest void; eight cells a step from the bit rows. */
static void write_row(const cave *c, dg_grid *g, int32_t y, uint64_t *o[3], uint64_t *near)
{
    int32_t nw = c->nw, s = 1 - c->border; /* grid x = bit x - s */
    for (int32_t i = 0; i < nw; i++)
    {
        uint64_t v = o[0][i] | o[1][i] | o[2][i];
        near[i] = v | from_left(o[0], i) | from_left(o[1], i) | from_left(o[2], i);
        near[i] |= from_right(o[0], i, nw) | from_right(o[1], i, nw) | from_right(o[2], i, nw);
    }
    uint8_t *out = &DG_CELL(g, 0, y);
    for (int32_t x = 0; x < g->width; x += 8)
    {
        int32_t j = x + s, w = j >> 6, b = j & 63;
        uint64_t ow = o[1][w] >> b, nr = near[w] >> b;
        if (b > 56 && w + 1 < nw)
            ow |= o[1][w + 1] << (64 - b), nr |= near[w + 1] << (64 - b);
        uint64_t fl = spread_bits((uint32_t)ow), wl = spread_bits((uint32_t)(nr & ~ow));
        uint64_t tiles = fl * DG_TILE_FLOOR + wl * DG_TILE_WALL;
        int32_t n = DG_MIN(8, g->width - x);
        if (n == 8 && !c->reserved)
            store_lanes(out + x, tiles);
        else
            for (int32_t k = 0; k < n; k++)
                if (!dgi_mask_at(c->reserved, x + k, y))
                    out[x + k] = (uint8_t)(tiles >> (8 * k));
    }
}

/* The metrics dgi_result_finish would count, from the bit rows: the caves
 * are one region, so loops = edges - open + 1 - open 2x2 squares. */
static void count_metrics(const cave *c, uint64_t *o[3], dg_metrics *m, int32_t cells)
{
    int64_t open = 0, dead = 0, edges = 0, squares = 0;
    int32_t nw = c->nw;
    open_row(c, 0, o[0]);
    open_row(c, 1, o[1]);
    for (int32_t r = 1; r <= c->ih; r++)
    {
        open_row(c, r + 1, o[2]);
        for (int32_t i = 0; i < nw; i++)
        {
            uint64_t h = o[1][i], n = o[0][i], s = o[2][i];
            uint64_t e = from_right(o[1], i, nw), w = from_left(o[1], i);
            uint64_t se = from_right(o[2], i, nw);
            uint64_t odd = n ^ e ^ s ^ w, two = (n & e) | (s & w) | ((n ^ e) & (s ^ w));
            open += dgi_popcount64(h);
            dead += dgi_popcount64(h & odd & ~two);
            edges += dgi_popcount64(h & e) + dgi_popcount64(h & s);
            squares += dgi_popcount64(h & e & s & se);
        }
        uint64_t *t = o[0];
        o[0] = o[1], o[1] = o[2], o[2] = t;
    }
    m->cells = cells;
    m->floor_cells = (int32_t)open;
    m->floor_permille = (int32_t)(open * 1000 / cells);
    m->dead_ends = (int32_t)dead;
    m->regions = open > 0;
    m->loops = (int32_t)(edges - open + m->regions - squares);
}

/* Grid tiles and metrics. The automaton's buffers serve as row scratch. */
static void write_tiles(cave *c, dg_grid *g, dg_metrics *m)
{
    uint64_t *o[3] = {c->next, c->next + c->nw, c->next + 2 * c->nw}, *near = c->sum0;
    int32_t r0 = 1 - c->border; /* bit row of grid row 0 */
    open_row(c, r0 - 1, o[0]);
    open_row(c, r0, o[1]);
    for (int32_t y = 0; y < g->height; y++)
    {
        open_row(c, r0 + y + 1, o[2]);
        write_row(c, g, y, o, near);
        uint64_t *t = o[0];
        o[0] = o[1], o[1] = o[2], o[2] = t;
    }
    o[0] = c->next, o[1] = c->next + c->nw, o[2] = c->next + 2 * c->nw;
    count_metrics(c, o, m, g->width * g->height);
}

/* ---- the result ------------------------------------------------------------------- */

/* The chamber of map cell i (an open cell). */
static int32_t chamber_of(const dgi_chambers *ch, const cave *c, int32_t i)
{
    return dgi_chamber_at(ch, i % c->pw - PAD, i / c->pw - PAD);
}

static dg_point grid_point(const cave *c, int32_t i)
{
    dg_point p = {i % c->pw - PAD + c->border, i / c->pw - PAD + c->border};
    return p;
}

static dg_point packed_point(const cave *c, uint32_t p)
{
    dg_point q = {XY_X(p) - PAD + c->border, XY_Y(p) - PAD + c->border};
    return q;
}

/* Rooms (the chambers), tunnels, start, exit and metrics (the lists were
 * reserved; the grid metrics are already in m). */
static void fill_result(const cave *c, const dgi_chambers *ch, dg_result *r, const dg_metrics *m)
{
    dgi_result_reset(r);
    for (int32_t k = 0; k < ch->count; k++)
    {
        const dgi_chamber *q = &ch->list[k];
        dg_room *room = &r->rooms[k];
        memset(room, 0, sizeof *room);
        room->rect.x = q->x0 + c->border, room->rect.y = q->y0 + c->border;
        room->rect.w = q->x1 - q->x0 + 1, room->rect.h = q->y1 - q->y0 + 1;
        room->kind = DG_ROOM_CAVE;
        room->prefab = -1;
        room->parent = -1;
        room->cells = q->cells;
    }
    r->room_count = ch->count;
    for (int32_t t = 0; t < c->tunnel_count; t++)
    {
        const tunnel *tn = &c->tunnels[t];
        dg_corridor *k = &r->corridors[t];
        k->start = packed_point(c, tn->p);
        k->end = k->bend = packed_point(c, tn->q);
        k->length = tn->length + 1;
        k->from.kind = k->to.kind = DG_REF_ROOM;
        k->from.index = chamber_of(ch, c, XY_Y(tn->p) * c->pw + XY_X(tn->p));
        k->to.index = chamber_of(ch, c, XY_Y(tn->q) * c->pw + XY_X(tn->q));
    }
    r->corridor_count = c->tunnel_count;
    r->start = grid_point(c, c->start);
    r->exit = grid_point(c, c->exit);
    r->start_room = chamber_of(ch, c, c->start);
    r->exit_room = chamber_of(ch, c, c->exit);
    r->metrics = *m;
    r->metrics.rooms = r->room_count;
    r->metrics.corridors = r->corridor_count;
    r->metrics.requested = c->region_count;
    r->metrics.placed = c->cave_count;
}

/* The forbidden bits: every area cell within one step (8-way) of a reserved
 * cell. *cells becomes the unreserved cells (the target's grid). */
static dg_status setup_forbid(cave *c, const dg_grid *g, int64_t *cells)
{
    size_t words = (size_t)c->nw * (size_t)(c->ih + 2);
    c->forbid = dgi_calloc(c->a, words, sizeof *c->forbid);
    c->dist = dgi_alloc(c->a, c->cells * sizeof *c->dist);
    c->owner = dgi_alloc(c->a, c->cells * sizeof *c->owner);
    c->origin = dgi_alloc(c->a, c->cells * sizeof *c->origin);
    if (!c->forbid || !c->dist || !c->owner || !c->origin)
        return DG_E_NOMEM;
    for (int32_t gy = 0; gy < g->height; gy++)
        for (int32_t gx = 0; gx < g->width; gx++)
        {
            if (!dgi_mask_at(c->reserved, gx, gy))
                continue;
            (*cells)--;
            int32_t ax = gx - c->border, ay = gy - c->border;
            for (int32_t y = DG_MAX(ay - 1, 0); y <= DG_MIN(ay + 1, c->ih - 1); y++)
                for (int32_t x = DG_MAX(ax - 1, 0); x <= DG_MIN(ax + 1, c->iw - 1); x++)
                    c->forbid[(size_t)(y + 1) * (size_t)c->nw + (size_t)((x + 1) >> 6)] |=
                        1ULL << ((x + 1) & 63);
        }
    return DG_OK;
}

/* Everything but writing the caller's grid and result (the start and exit
 * only when a result is asked: the tiles do not depend on them). */
static dg_status build(cave *c, uint64_t seed, int64_t grid_cells, int with_result)
{
    dg_status st = cave_alloc(c, with_result || c->forbid);
    for (int draw = 0; st == DG_OK && draw <= DRAWS; draw++)
    {
        if (draw < DRAWS)
            choose_fill(c, grid_cells, seed, STREAM_FILL + (uint64_t)draw);
        else
        {
            centre_cave(c);
            apply_forbid(c);
        }
        st = label_regions(c);
        if (st == DG_OK)
            st = reserve_caves(c);
        if (st == DG_OK && choose_caves(c) > 0)
            break;
    }
    if (st != DG_OK)
        return st;
    if (c->cave_count == 0) /* only around reserved cells */
        return DG_E_NOSPACE;
    fill_pockets(c);
    st = connect_caves(c);
    if (st != DG_OK)
        return st;
    if (!with_result)
        return DG_OK;
    pick_start(c, seed); /* after the caves around reserved cells that cannot be joined went */
    pick_exit(c);
    return DG_OK;
}

dg_status dg_cave_generate(dg_grid *grid, const dg_cave_params *params, uint64_t seed,
                           dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_cave_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_cave_generate(dg_grid *grid, const dg_cave_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    cave c;
    memset(&c, 0, sizeof c);
    c.p = params;
    c.a = allocator;
    c.border = params->border;
    c.iw = grid->width - 2 * c.border;
    c.ih = grid->height - 2 * c.border;
    c.nw = (c.iw + 2 + 63) / 64;
    c.last_pad = ~0ULL << ((c.iw + 1) & 63); /* bit iw + 1 (the right pad) is in the last word */
    c.pw = c.iw + 2 * PAD;
    c.ph = c.ih + 2 * PAD;
    c.cells = (size_t)c.pw * (size_t)c.ph;
    c.reserved = reserved;
    int64_t cells = (int64_t)grid->width * grid->height;
    if (reserved)
        st = setup_forbid(&c, grid, &cells);
    if (st == DG_OK)
        st = build(&c, seed, cells, result != NULL);
    dgi_chambers ch;
    memset(&ch, 0, sizeof ch);
    if (st == DG_OK && result)
        st = dgi_chambers_find(&ch, row_of(c.rock, &c, 1), c.nw, c.iw, c.ih, (int32_t)open_cells(&c),
                               c.a);
    if (st == DG_OK && result)
        st = dgi_result_reserve(result, ch.count, c.tunnel_count, 0, 0);
    if (st == DG_OK)
    {
        dg_metrics m;
        memset(&m, 0, sizeof m);
        write_tiles(&c, grid, &m);
        if (result)
            fill_result(&c, &ch, result, &m);
    }
    dgi_chambers_free(&ch);
    cave_free(&c);
    if (st == DG_E_NOSPACE)
        return dgi_fail(diag, st, "cave: the reserved cells leave no two neighbouring cells for a "
                                  "cave (caves keep one cell from them)");
    if (st != DG_OK)
        return dgi_fail(diag, st, "cave: out of memory");
    dgi_diag_ok(diag);
    return DG_OK;
}
