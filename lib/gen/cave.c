/* Cellular-automaton caves (docs/cave.md): random rock, a birth/survival rule
 * run on bit rows (64 cells a word), smoothing, small pockets filled, the start
 * and exit, the tiles and the result. The caves are joined by tunnels in
 * cave_connect.c (cave_state.h); the result's rooms are the caves' floor cut
 * into chambers (cave_chambers.c). */
#include "gen/cave_chambers.h"
#include "gen/cave_state.h"

#include <stdlib.h>

#define STREAM_FILL 0x63617665F100ULL /* + draw number: each draw has its own stream */
#define STREAM_START 0x63617665F200ULL /* where on the outline the start is sought */
enum {
    DRAWS = 4,          /* fresh draws when no cave of two cells survives */
    TARGET_RUNS = 10,   /* automaton runs of the fill search (target_open_permille) */
    TARGET_TOLERANCE = 10, /* permille of the grid: close enough to the target */
    FILL_BITS = 10      /* the rock chance is fill_permille rounded to 1/1024 */
};

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

static void cave_free(cave_ctx *c)
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
static dg_status cave_alloc(cave_ctx *c, int with_map)
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

/* Rock on the pad bits of row r (column -1 and the columns past the area). */
static void pad_row(const cave_ctx *c, uint64_t *row)
{
    row[0] |= 1u;
    row[c->nw - 1] |= c->last_pad;
}

/* Random rock: each word compares ten random words, read as ten-bit numbers,
 * with q (bit-serially, from the low bit): a cell is rock with chance q/1024. */
static void random_fill(cave_ctx *c, int32_t q, uint64_t seed, uint64_t stream)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, stream);
    for (int32_t i = 0; i < c->nw; i++) /* the pad rows, in both buffers */
        dgi_cave_row_of(c->rock, c, 0)[i] = dgi_cave_row_of(c->rock, c, c->ih + 1)[i] =
            dgi_cave_row_of(c->next, c, 0)[i] = dgi_cave_row_of(c->next, c, c->ih + 1)[i] = ~0ULL;
    for (int32_t r = 1; r <= c->ih; r++)
    {
        uint64_t *row = dgi_cave_row_of(c->rock, c, r);
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
static void column_sums(cave_ctx *c, const uint64_t *up, const uint64_t *mid, const uint64_t *dn)
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
static void automaton_step(cave_ctx *c, const rule *rl)
{
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *up = dgi_cave_row_of(c->rock, c, r - 1),
                       *mid = dgi_cave_row_of(c->rock, c, r);
        const uint64_t *dn = dgi_cave_row_of(c->rock, c, r + 1);
        uint64_t *out = dgi_cave_row_of(c->next, c, r);
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
static void smooth_step(cave_ctx *c)
{
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *up = dgi_cave_row_of(c->rock, c, r - 1),
                       *mid = dgi_cave_row_of(c->rock, c, r);
        const uint64_t *dn = dgi_cave_row_of(c->rock, c, r + 1);
        uint64_t *out = dgi_cave_row_of(c->next, c, r);
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
static int64_t open_cells(const cave_ctx *c)
{
    int64_t rock = 0, pads = (int64_t)c->nw * 64 - c->iw;
    for (int32_t r = 1; r <= c->ih; r++)
    {
        const uint64_t *row = dgi_cave_row_of(c->rock, c, r);
        for (int32_t i = 0; i < c->nw; i++)
            rock += dgi_popcount64(row[i]);
        rock -= pads;
    }
    return (int64_t)c->iw * c->ih - rock;
}

/* Reserved cells and their ring stay rock through every step, so the caves
 * close around them as around any rock. */
static void apply_forbid(cave_ctx *c)
{
    if (!c->forbid)
        return;
    size_t words = (size_t)c->nw * (size_t)(c->ih + 2);
    for (size_t i = 0; i < words; i++)
        c->rock[i] |= c->forbid[i];
}

/* Fill, iterate and smooth with rock chance q/1024; returns the open cells. */
static int64_t run_automaton(cave_ctx *c, int32_t q, uint64_t seed, uint64_t stream)
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
static void choose_fill(cave_ctx *c, int64_t grid_cells, uint64_t seed, uint64_t stream)
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

/* 1 if area cell (x, y) is reserved or beside a reserved cell. */
static int forbidden(const cave_ctx *c, int32_t x, int32_t y)
{
    const uint64_t *row = c->forbid + (size_t)(y + 1) * (size_t)c->nw;
    return (int)(row[(x + 1) >> 6] >> ((x + 1) & 63) & 1);
}

static uint64_t spread_bits(uint32_t b);
static void store_lanes(uint8_t *out, uint64_t tiles);

/* The cell map from the bit rows: CAVE or ROCK inside, EDGE around; eight
 * cells a step. */
static void build_map(cave_ctx *c)
{
    memset(c->map, CAVE_M_EDGE, c->cells);
    for (int32_t y = 0; y < c->ih; y++)
    {
        const uint64_t *row = dgi_cave_row_of(c->rock, c, y + 1);
        uint8_t *m = c->map + dgi_cave_map_index(c, 0, y);
        for (int32_t x = 0; x < c->iw; x += 8)
        {
            int32_t j = x + 1, w = j >> 6, b = j & 63;
            uint64_t open = ~row[w] >> b;
            if (b > 56 && w + 1 < c->nw)
                open |= ~row[w + 1] << (64 - b);
            uint64_t lanes = spread_bits((uint32_t)open) * CAVE_M_CAVE;
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
                    c->map[dgi_cave_map_index(c, x, y)] = CAVE_M_EDGE;
}

static int32_t run_root(cave_row_run *runs, int32_t r)
{
    while (runs[r].set != r)
    {
        runs[r].set = runs[runs[r].set].set;
        r = runs[r].set;
    }
    return r;
}

/* The runs of open cells of area row y (bit row y + 1), appended to c->runs. */
static dg_status row_runs(cave_ctx *c, int32_t y)
{
    const uint64_t *row = dgi_cave_row_of(c->rock, c, y + 1);
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
        cave_row_run r = {y, x0 - 1, x1 - 2, c->run_count};
        c->runs[c->run_count++] = r;
        j = x1;
    }
    return DG_OK;
}

/* Joins the runs of a row [a, b) with the overlapping runs of the row
 * above [p, a) (4-connected: they share a column). */
static void join_rows(cave_ctx *c, int32_t p, int32_t a, int32_t b)
{
    cave_row_run *runs = c->runs;
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
static dg_status label_regions(cave_ctx *c)
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
        cave_row_run *rn = &c->runs[r];
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
            cave_region fresh = {0, rn->x0 + CAVE_PAD, rn->y + CAVE_PAD, rn->x1 + CAVE_PAD,
                                 rn->y + CAVE_PAD};
            c->regions[c->region_count] = fresh;
            rn->set = -1 - c->region_count++; /* roots hold their region, negated */
        }
        int32_t id = root == r ? -1 - rn->set : -1 - c->runs[root].set;
        cave_region *rg = &c->regions[id];
        rg->size += rn->x1 - rn->x0 + 1;
        rg->x0 = DG_MIN(rg->x0, rn->x0 + CAVE_PAD), rg->x1 = DG_MAX(rg->x1, rn->x1 + CAVE_PAD);
        rg->y1 = rn->y + CAVE_PAD;
    }
    for (int32_t r = c->run_count - 1; r >= 0; r--) /* every run gets its region (roots last) */
    {
        int32_t s = c->runs[r].set;
        c->runs[r].set = s < 0 ? -1 - s : -1 - c->runs[s].set;
    }
    return DG_OK;
}

/* keep, caves, parent and tunnels: one entry per region. */
static dg_status reserve_caves(cave_ctx *c)
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
static int32_t choose_caves(cave_ctx *c)
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
static void fill_pockets(cave_ctx *c)
{
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const cave_row_run *rn = &c->runs[r];
        if (c->keep[rn->set] >= 0)
            continue;
        for (int32_t x = rn->x0; x <= rn->x1; x++)
            dgi_cave_set_rock(c, CAVE_XY(x + CAVE_PAD, rn->y + CAVE_PAD), 1);
    }
    if (c->map)
        build_map(c);
}

/* The free cell nearest (*x, *y) with a free side (ties in row order), as
 * the centre of the last-resort cave around reserved cells; 0 if none. */
static int free_centre(const cave_ctx *c, int32_t *x, int32_t *y)
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
static void centre_cave(cave_ctx *c)
{
    for (int32_t r = 1; r <= c->ih; r++)
        memset(dgi_cave_row_of(c->rock, c, r), 0xFF, (size_t)c->nw * sizeof(uint64_t));
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
            dgi_cave_set_rock(c, CAVE_XY(x + CAVE_PAD, y + CAVE_PAD), 0);
}

/* ---- start, exit, metrics, tiles --------------------------------------------------------- */

/* Start: the cell of the largest cave nearest a point drawn on the area's
 * outline, so the start lies at one end of the map (the exit, the cell
 * farthest by walking, then at the other), on a side that varies by seed. */
static void pick_start(cave_ctx *c, uint64_t seed)
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
        const cave_row_run *rn = &c->runs[r];
        if (rn->set != id)
            continue;
        int32_t x = DG_MAX(rn->x0, DG_MIN(tx, rn->x1)), d = abs(x - tx) + abs(rn->y - ty);
        if (d < dist)
            dist = d, c->start = dgi_cave_map_index(c, x, rn->y);
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
static void pick_exit(cave_ctx *c)
{
    uint8_t *map = c->map;
    int32_t *queue = c->queue;
    const ptrdiff_t pw = c->pw; /* pointer-sized: no widening per cell */
    size_t i = 0, n = c->cells; /* EDGE (4) and the marks go, eight cells a step */
    for (; i + 8 <= n; i += 8)
    {
        uint64_t w;
        memcpy(&w, map + i, 8);
        w &= 0x0101010101010101ULL * CAVE_M_OPEN;
        memcpy(map + i, &w, 8);
    }
    for (; i < n; i++)
        map[i] &= CAVE_M_OPEN;
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
    while (k > 0 && (map[queue[k]] & CAVE_M_KIND) != CAVE_M_CAVE)
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
static void open_row(const cave_ctx *c, int32_t r, uint64_t *out)
{
    const uint64_t *row = r >= 0 && r <= c->ih + 1 ? dgi_cave_row_of(c->rock, c, r) : NULL;
    for (int32_t i = 0; i < c->nw; i++)
        out[i] = row ? ~row[i] : 0;
}

/* Tiles of grid row y: open cells are floor, rock touching one (8-way) is
 * wall, the rest void; eight cells a step from the bit rows. */
static void write_row(const cave_ctx *c, dg_grid *g, int32_t y, uint64_t *o[3], uint64_t *near)
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
static void count_metrics(const cave_ctx *c, uint64_t *o[3], dg_metrics *m, int32_t cells)
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
static void write_tiles(cave_ctx *c, dg_grid *g, dg_metrics *m)
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
static int32_t chamber_of(const dgi_chambers *ch, const cave_ctx *c, int32_t i)
{
    return dgi_chamber_at(ch, i % c->pw - CAVE_PAD, i / c->pw - CAVE_PAD);
}

static dg_point grid_point(const cave_ctx *c, int32_t i)
{
    dg_point p = {i % c->pw - CAVE_PAD + c->border, i / c->pw - CAVE_PAD + c->border};
    return p;
}

static dg_point packed_point(const cave_ctx *c, uint32_t p)
{
    dg_point q = {CAVE_XY_X(p) - CAVE_PAD + c->border, CAVE_XY_Y(p) - CAVE_PAD + c->border};
    return q;
}

/* Rooms (the chambers), tunnels, start, exit and metrics (the lists were
 * reserved; the grid metrics are already in m). */
static void fill_result(const cave_ctx *c, const dgi_chambers *ch, dg_result *r,
                        const dg_metrics *m)
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
        const cave_tunnel *tn = &c->tunnels[t];
        dg_corridor *k = &r->corridors[t];
        k->start = packed_point(c, tn->p);
        k->end = k->bend = packed_point(c, tn->q);
        k->length = tn->length + 1;
        k->from.kind = k->to.kind = DG_REF_ROOM;
        k->from.index = chamber_of(ch, c, CAVE_XY_Y(tn->p) * c->pw + CAVE_XY_X(tn->p));
        k->to.index = chamber_of(ch, c, CAVE_XY_Y(tn->q) * c->pw + CAVE_XY_X(tn->q));
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
static dg_status setup_forbid(cave_ctx *c, const dg_grid *g, int64_t *cells)
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
static dg_status build(cave_ctx *c, uint64_t seed, int64_t grid_cells, int with_result)
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
    st = dgi_cave_connect(c);
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
    cave_ctx c;
    memset(&c, 0, sizeof c);
    c.p = params;
    c.a = allocator;
    c.border = params->border;
    c.iw = grid->width - 2 * c.border;
    c.ih = grid->height - 2 * c.border;
    c.nw = (c.iw + 2 + 63) / 64;
    c.last_pad = ~0ULL << ((c.iw + 1) & 63); /* bit iw + 1 (the right pad) is in the last word */
    c.pw = c.iw + 2 * CAVE_PAD;
    c.ph = c.ih + 2 * CAVE_PAD;
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
        st = dgi_chambers_find(&ch, dgi_cave_row_of(c.rock, &c, 1), c.nw, c.iw, c.ih,
                               (int32_t)open_cells(&c), c.a);
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
