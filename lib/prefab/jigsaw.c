/* Jigsaw generator: the map is cut into equal blocks, each filled by a
 * candidate prefab in an orientation that keeps the block's size, with seams
 * matched by edge signature and the whole map checked for connectivity. */
#include "analysis/analysis.h"
#include "prefab/prefab.h"
#include <stdlib.h>

enum { LEVEL_EXACT, LEVEL_OPEN, LEVEL_ANY };

typedef struct option {
    int32_t prefab;
    int32_t orients; /* distinct allowed orientations of the block's size */
    int32_t weight;
    int32_t unique;
    int32_t solid;   /* its passable cells are connected whatever its random glyphs do */
    int32_t core;    /* and stay so whichever of its sides the border walls (core_solid) */
    const uint64_t (*edge)[4]; /* the prefab's edge signatures per orientation */
} option;

/* A candidate of a block: an option and its orientations that pass. */
typedef struct block_choice {
    int32_t option, orients;
    int64_t weight;
} block_choice;

/* The candidates of a block depend only on its neighbours' facing edges (when
 * no option is unique), and a map has few distinct pairs of them: each pair's
 * list is kept in the pool. */
typedef struct seam_memo {
    uint64_t west, north;
    int32_t sides; /* 1: has a west neighbour, 2: a north one */
    int32_t first, count;
    int64_t total;
} seam_memo;

#define SEAM_MEMOS 64
#define STREAM_START 0x57A2u /* the start block's draw */
#define STREAM_ACTORS 0xAC70u /* which actor markers are kept */
/* The call's work budget (docs/prefabs.md): a try costs one unit per grid
 * cell (filling, writing, checking the map) and one per (prefab,
 * orientation) pair checked while listing candidates; no try starts once the
 * budget is spent. */
#define CALL_UNITS_PER_CELL 64
#define UNITS_FLOOR 4194304 /* so small maps keep all 1000 tries */

typedef struct jigsaw {
    const dg_prefab_set *set;
    const dg_prefab_jigsaw_params *p;
    int32_t gw, gh, bw, bh, cols, rows, ox, oy;
    option *opt;
    int32_t nopt;
    int32_t *masks;     /* per option: orientations passing the current level */
    uint8_t *used;      /* per option */
    int32_t *chosen;    /* per block: option index */
    int32_t *orient;    /* per block */
    int32_t *stack; /* connectivity check */
    int32_t *core_stack; /* core_solid: a block's cells as int32 and as bytes */
    uint8_t *core_seen;
    uint8_t *pass;  /* the passability grid, written only when the map is not proven */
    int proven;     /* this map is connected by construction: no flood fill needed */
    int suspect;    /* ... if its border blocks that may not stay solid walled do */
    struct pair {   /* every (option, orientation): what a block can hold */
        int32_t option, o;
        uint64_t west, north;
    } *pairs;
    int32_t npairs;
    dgi_stamps stamps; /* maps without a result stamp blocks without void cells */
    block_choice *pool; /* memoised candidate lists, then room for one unrecorded list */
    int32_t pool_n, pool_cap;
    seam_memo memo[SEAM_MEMOS];
    int32_t memo_n, memo_ok; /* memo_ok: no option is unique */
    int64_t left;            /* work units left in the call */
    const dgi_mask *reserved; /* NULL: none */
    uint8_t *dead;      /* per block, with reserved cells: 1 if it stays fill (NULL: none) */
    uint8_t *block;     /* all scratch arrays above, one allocation */
    size_t block_size;
} jigsaw;

void dg_prefab_jigsaw_defaults(dg_prefab_jigsaw_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_prefab_jigsaw_table, p); /* the rows of core/params.c */
    /* not in the table (a pointer): tag stays NULL (no tag filter) */
}

static dg_status check_params(const dg_prefab_set *set,
                              const dg_prefab_jigsaw_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_jigsaw: set is NULL");
    dg_status st;
    if ((st = DGI_SPARE_CHECK(p->spare, "prefab_jigsaw params", diag)) != DG_OK)
        return st;
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->block_w < 0 || p->block_h < 0 || (p->block_w == 0) != (p->block_h == 0) ||
        p->block_w > DG_PREFAB_MAX_SIDE || p->block_h > DG_PREFAB_MAX_SIDE)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: block_w %d, block_h %d: both 0, or "
                        "each 1..%d", (int)p->block_w, (int)p->block_h, DG_PREFAB_MAX_SIDE);
    if (p->unique < 0 || p->unique > 1 || p->connected < 0 || p->connected > 1 || p->border < 0 ||
        p->border > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: unique, connected and border must be 0 or 1");
    if (p->seams < DG_SEAM_MATCH || p->seams > DG_SEAM_ANY)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: seams %d is not a DG_SEAM_* value", (int)p->seams);
    if (p->max_tries < 1 || p->max_tries > 1000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: max_tries %d must be 1..1000", (int)p->max_tries);
    if (p->fill < 0 || p->fill > 255)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: fill %d is not a tile (0..255)", (int)p->fill);
    if (p->actor_cells < 0 || p->actor_cells > 1000000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: actor_cells %d must be 0..1000000",
                        (int)p->actor_cells);
    return DG_OK;
}

static int candidate(const dg_prefab_set *set, const dgi_prefab *q, const dg_prefab_jigsaw_params *p)
{
    return (q->modes & DG_PREFAB_JIGSAW) && q->weight > 0 && dgi_has_tag(set, q, p->tag);
}

/* Orientations of q whose size is exactly bw x bh. */
static int32_t exact_fit(const dgi_prefab *q, int32_t orients, int32_t bw, int32_t bh)
{
    int32_t out = 0;
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
    {
        int32_t w = dgi_orient_swaps(o) ? q->height : q->width;
        int32_t h = dgi_orient_swaps(o) ? q->width : q->height;
        if ((orients & (1 << o)) && w == bw && h == bh)
            out |= 1 << o;
    }
    return out;
}

/* Hands out the scratch arrays from one block for k options: sizes first
 * (block NULL), then pointers. Returns the block size. */
static size_t carve(jigsaw *j, uint8_t *block, size_t k)
{
    enum { OPT, PAIRS, POOL, MASKS, CHOSEN, ORIENT, STACK, CORE, USED, STAMPS, PARTS };
    size_t blocks = (size_t)j->cols * (size_t)j->rows;
    size_t area = ((size_t)j->bw + 2) * ((size_t)j->bh + 2); /* a block with a frame */
    size_t size[PARTS] = {k * sizeof *j->opt, k * DG_ORIENT_COUNT * sizeof *j->pairs,
                          (size_t)j->pool_cap * sizeof *j->pool, k * sizeof *j->masks,
                          blocks * sizeof *j->chosen, blocks * sizeof *j->orient,
                          j->p->connected ? dgi_gen_connected_scratch(j->gw, j->gh) : 0,
                          j->p->connected && j->p->border ? area * sizeof *j->core_stack : 0,
                          k + (j->p->connected && j->p->border ? area : 0),
                          dgi_stamps_size(j->set, DG_PREFAB_JIGSAW)};
    uint8_t *part[PARTS];
    size_t at = dgi_carve(block, size, part, PARTS);
    j->opt = (option *)part[OPT];
    j->pairs = (struct pair *)part[PAIRS];
    j->pool = (block_choice *)part[POOL];
    j->masks = (int32_t *)part[MASKS];
    j->chosen = (int32_t *)part[CHOSEN];
    j->orient = (int32_t *)part[ORIENT];
    j->stack = (int32_t *)part[STACK];
    j->core_stack = (int32_t *)part[CORE];
    j->used = part[USED];
    j->core_seen = part[USED] ? part[USED] + k : NULL;
    if (part[STAMPS])
        dgi_stamps_init(&j->stamps, j->set, DG_PREFAB_JIGSAW, j->gw, part[STAMPS]);
    return at;
}

#define CORE_MAX 64 /* core_solid works on rows of up to 64 cells as bit masks */

/* The cells of bits `seeds` grown along the runs of `cells` in a row. */
static uint64_t spread_in_row(uint64_t seeds, uint64_t cells)
{
    uint64_t r = seeds & cells, before;
    do
    {
        before = r;
        r |= ((r << 1) | (r >> 1)) & cells;
    } while (r != before);
    return r;
}

/* 1 if the inner always-open cells c[1..h-2] (ring columns cleared) form
 * one region, grown from the first by sweeps down and up. */
static int inner_connected(const uint64_t *c, int32_t h, uint64_t *reach)
{
    int32_t first = -1;
    for (int32_t y = 0; y < h; y++)
    {
        reach[y] = 0;
        first = first < 0 && c[y] ? y : first;
    }
    if (first < 0)
        return 0;
    reach[first] = c[first] & (~c[first] + 1);
    for (int32_t sweep = 0, changed = 1; changed; sweep++)
    {
        int32_t full = 0;
        changed = 0;
        for (int32_t k = 1; k < h - 1; k++)
        {
            int32_t y = sweep & 1 ? h - 1 - k : k;
            uint64_t r = spread_in_row(reach[y] | reach[y - 1] | reach[y + 1], c[y]);
            changed |= r != reach[y];
            full += r == c[y];
            reach[y] = r;
        }
        if (full == h - 2)
            return 1;
    }
    return 0;
}

/* 1 if the open cells of one side (bits 1..len-2 of `side`, always open;
 * `maybe`: sometimes open) reach the inside (`in`: the always-open inner
 * cells beside them): each run touches one, a sometimes-open cell touches
 * one or an always-open cell of its side. */
static int side_reaches(uint64_t side, uint64_t maybe, uint64_t in)
{
    return spread_in_row(side & in, side) == side && (maybe & ~(in | side << 1 | side >> 1)) == 0;
}

/* Column x of rows as bits (y = bit). */
static uint64_t column(const uint64_t *rows, int32_t h, int32_t x)
{
    uint64_t out = 0;
    for (int32_t y = 0; y < h; y++)
        out |= (rows[y] >> x & 1u) << y;
    return out;
}

/* Whether q's open cells stay connected whichever of its sides the border
 * walls: the always-open cells inside its ring are one region that every
 * sometimes-open inner cell touches, each side's open cells reach the inside
 * (corners left out), and an open corner touches an always-open cell of a
 * side (which stands while the corner does). 0 for prefabs over CORE_MAX
 * cells a side (their border blocks are then checked on the map). */
static int core_solid(const dgi_prefab *q, const uint8_t *g)
{
    int32_t w = q->width, h = q->height;
    if (w < 3 || h < 3 || w > CORE_MAX || h > CORE_MAX)
        return 0;
    uint64_t c[CORE_MAX], m[CORE_MAX], in[CORE_MAX], reach[CORE_MAX];
    uint64_t inner_cols = (w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1) & ~(uint64_t)1 & ~((uint64_t)1 << (w - 1));
    for (int32_t y = 0; y < h; y++, g += w)
    {
        c[y] = m[y] = 0;
        for (int32_t x = 0; x < w; x++)
        {
            c[y] |= (uint64_t)dgi_glyph_in(q->certain, g[x]) << x;
            m[y] |= (uint64_t)dgi_glyph_in(q->maybe, g[x]) << x;
        }
        m[y] &= ~c[y];
        in[y] = y > 0 && y < h - 1 ? c[y] & inner_cols : 0;
    }
    for (int32_t y = 1; y < h - 1; y++) /* inner sometimes-open cells need an inner always-open one */
        if (m[y] & inner_cols & ~(in[y] << 1 | in[y] >> 1 | in[y - 1] | in[y + 1]))
            return 0;
    uint64_t inner_rows = (((uint64_t)1 << (h - 1)) - 1) & ~(uint64_t)1;
    if (!inner_connected(in, h, reach) ||
        !side_reaches(c[0] & inner_cols, m[0] & inner_cols, in[1]) ||
        !side_reaches(c[h - 1] & inner_cols, m[h - 1] & inner_cols, in[h - 2]) ||
        !side_reaches(column(c, h, 0) & inner_rows, column(m, h, 0) & inner_rows, column(in, h, 1)) ||
        !side_reaches(column(c, h, w - 1) & inner_rows, column(m, h, w - 1) & inner_rows, column(in, h, w - 2)))
        return 0;
    uint64_t open_first = c[0] | m[0], open_last = c[h - 1] | m[h - 1], left = 1, right = (uint64_t)1 << (w - 1);
    return (!(open_first & left) || (c[0] & left << 1) || (c[1] & left)) &&
           (!(open_first & right) || (c[0] & right >> 1) || (c[1] & right)) &&
           (!(open_last & left) || (c[h - 1] & left << 1) || (c[h - 2] & left)) &&
           (!(open_last & right) || (c[h - 1] & right >> 1) || (c[h - 2] & right));
}

/* Candidate options and their orientations of the block's size, the pairs a
 * block can hold, and which options are solid. */
static void list_options(jigsaw *j)
{
    const dg_prefab_set *set = j->set;
    j->memo_ok = 1;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int32_t m = candidate(set, q, j->p) ? exact_fit(q, q->distinct & j->p->orientations, j->bw, j->bh) : 0;
        if (!m)
            continue;
        option o = {i, m, q->weight, q->unique || j->p->unique, 0, 0, q->edge};
        o.solid = j->p->connected && q->solid != 0;
        o.core = o.solid && j->p->border && core_solid(q, set->cells + q->cells);
        j->memo_ok &= !o.unique;
        for (int32_t r = 0; r < DG_ORIENT_COUNT; r++)
            if ((m >> r) & 1)
            {
                struct pair pr = {j->nopt, r, q->edge[r][3], q->edge[r][0]};
                j->pairs[j->npairs++] = pr;
            }
        j->opt[j->nopt++] = o;
    }
}

/* Block size, blocks and candidate options; scratch arrays. */
static dg_status jigsaw_setup(jigsaw *j, const dg_grid *grid, const dg_allocator *a, dg_diag *diag)
{
    const dg_prefab_set *set = j->set;
    j->gw = grid->width;
    j->gh = grid->height;
    j->bw = j->p->block_w;
    j->bh = j->p->block_h;
    for (int32_t i = 0; i < set->count && j->bw == 0; i++)
        if (candidate(set, &set->prefabs[i], j->p))
        {
            j->bw = set->prefabs[i].width;
            j->bh = set->prefabs[i].height;
        }
    if (j->bw == 0)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_jigsaw: no `mode jigsaw` prefab%s%.40s with weight > 0",
                        j->p->tag ? " tagged " : "", j->p->tag ? j->p->tag : "");
    j->cols = grid->width / j->bw;
    j->rows = grid->height / j->bh;
    if (j->cols == 0 || j->rows == 0)
        return dgi_fail(diag, DG_E_TOO_SMALL, "prefab_jigsaw: a %dx%d grid holds no %dx%d block",
                        (int)grid->width, (int)grid->height, (int)j->bw, (int)j->bh);
    j->ox = (grid->width - j->cols * j->bw) / 2;
    j->oy = (grid->height - j->rows * j->bh) / 2;
    size_t k = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        k += candidate(set, q, j->p) && exact_fit(q, q->distinct & j->p->orientations, j->bw, j->bh);
    }
    if (k == 0)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_jigsaw: no candidate fits a %dx%d block in an "
                        "allowed orientation", (int)j->bw, (int)j->bh);
    j->pool_cap = (int32_t)(k + DG_MIN(k * SEAM_MEMOS, 4096));
    j->block_size = carve(j, NULL, k);
    j->block = dgi_alloc(a, j->block_size);
    if (!j->block)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_jigsaw: out of memory");
    carve(j, j->block, k);
    list_options(j);
    return DG_OK;
}

/* Do two facing edges of len cells meet at this level? Edges over 64 cells are
 * hashes: they only ever match exactly. */
static int edges_meet(uint64_t mine, uint64_t theirs, int32_t len, int level)
{
    if (level == LEVEL_EXACT)
        return mine == theirs;
    return level == LEVEL_ANY || len > 64 || (mine & theirs) != 0;
}

/* Lists in the pool from pool_n on the options (in option order) with
 * orientations whose edges meet the neighbours' at the first level that has
 * any (on a block the border walls, sides bit 2, options that stay solid
 * walled first); returns how many, 0 if none. */
static int32_t list_candidates(jigsaw *j, int32_t sides, uint64_t west, uint64_t north, int64_t *total)
{
    int first = j->p->seams == DG_SEAM_MATCH ? LEVEL_EXACT : j->p->seams == DG_SEAM_OPEN ? LEVEL_OPEN : LEVEL_ANY;
    *total = 0;
    for (int step = 2 * first; step <= 2 * LEVEL_ANY + 1; step++)
    {
        int level = step / 2, strict = step % 2 == 0;
        if (strict && !(sides & 4))
            continue; /* not on the border: one pass per level */
        int any = 0;
        j->left -= j->npairs;
        memset(j->masks, 0, (size_t)j->nopt * sizeof *j->masks);
        for (int32_t i = 0; i < j->npairs; i++)
        {
            const struct pair *pr = &j->pairs[i];
            if ((!(sides & 1) || edges_meet(pr->west, west, j->bh, level)) &&
                (!(sides & 2) || edges_meet(pr->north, north, j->bw, level)) &&
                (!strict || j->opt[pr->option].core) &&
                !(j->opt[pr->option].unique && j->used[pr->option]))
            {
                j->masks[pr->option] |= 1 << pr->o;
                any = 1;
            }
        }
        if (!any)
            continue;
        int32_t n = 0;
        for (int32_t k = 0; k < j->nopt; k++)
            if (j->masks[k])
            {
                block_choice c = {k, j->masks[k], j->opt[k].weight};
                j->pool[j->pool_n + n++] = c;
                *total += c.weight;
            }
        return n;
    }
    return 0;
}

/* The candidates of a block with these neighbours: a memoised list, or one
 * listed now (and kept if there is room and no option is unique). */
static const block_choice *candidates(jigsaw *j, int32_t sides, uint64_t west, uint64_t north,
                                     int32_t *n, int64_t *total)
{
    for (int32_t i = 0; i < j->memo_n; i++)
    {
        const seam_memo *m = &j->memo[i];
        if (m->sides == sides && m->west == west && m->north == north)
        {
            *n = m->count;
            *total = m->total;
            return j->pool + m->first;
        }
    }
    *n = list_candidates(j, sides, west, north, total);
    const block_choice *list = j->pool + j->pool_n;
    if (j->memo_ok && j->memo_n < SEAM_MEMOS && j->pool_n + *n + j->nopt <= j->pool_cap)
    {
        seam_memo m = {west, north, sides, j->pool_n, *n, *total};
        j->memo[j->memo_n++] = m;
        j->pool_n += *n;
    }
    return list;
}

/* Is block b on the edge of the map (a side of it faces no other block)? */
static int on_edge(const jigsaw *j, int32_t b)
{
    int32_t col = b % j->cols, row = b / j->cols;
    return col == 0 || col == j->cols - 1 || row == 0 || row == j->rows - 1;
}

/* Is block b on the edge of the map or beside a block left to the fill (a
 * side of it is walled)? */
static int walled(const jigsaw *j, int32_t b)
{
    if (on_edge(j, b) || !j->dead)
        return on_edge(j, b);
    int32_t col = b % j->cols;
    return j->dead[b - j->cols] || j->dead[b + j->cols] || (col > 0 && j->dead[b - 1]) ||
           (col + 1 < j->cols && j->dead[b + 1]);
}

static int is_dead(const jigsaw *j, int32_t b)
{
    return j->dead && j->dead[b];
}

/* Do two facing edge signatures of len cells share an always-open cell (not
 * an end cell when the border may wall it)? */
static int seam_shares(uint64_t mine, uint64_t theirs, int32_t len, int border)
{
    if (len > 64)
        return 0;
    uint64_t ends = border ? 1u | (uint64_t)1 << (len - 1) : 0;
    return (mine & theirs & ~ends) != 0;
}

/* The orientations of candidate c that do not put the same prefab the same
 * way round next to its west or north neighbour (option, orientation). */
static int32_t not_twin(const block_choice *c, int32_t west, int32_t west_o, int32_t north, int32_t north_o)
{
    int32_t orients = c->orients;
    if (c->option == west)
        orients &= ~(1 << west_o);
    if (c->option == north)
        orients &= ~(1 << north_o);
    return orients;
}

/* A twin was drawn: the draw again over the candidates' orientations that
 * are no twin (by weight among the options that keep one), if any. */
static void redraw_fresh(const block_choice *list, int32_t n, int32_t west, int32_t west_o, int32_t north,
                         int32_t north_o, dg_rng *rng, int32_t *k, int32_t *o)
{
    int64_t fresh = 0;
    for (int32_t c = 0; c < n; c++)
        fresh += not_twin(&list[c], west, west_o, north, north_o) ? list[c].weight : 0;
    if (fresh == 0)
        return; /* every candidate repeats a neighbour: the twin stays */
    int64_t r = (int64_t)dgi_below64(rng, (uint64_t)fresh);
    for (int32_t c = 0;; c++)
    {
        int32_t orients = not_twin(&list[c], west, west_o, north, north_o);
        if (orients && r < list[c].weight)
        {
            *k = list[c].option;
            *o = dgi_orient_pick(orients, rng);
            return;
        }
        r -= orients ? list[c].weight : 0;
    }
}

/* Chooses option and orientation of one block; 0 if no candidate is left:
 * never a twin of its west or north neighbour while another candidate fits,
 * so no prefab repeats in bands. */
static int choose_block(jigsaw *j, int32_t block, int32_t col, dg_rng *rng)
{
    int has_west = col > 0 && !is_dead(j, block - 1);
    int has_north = block >= j->cols && !is_dead(j, block - j->cols);
    uint64_t west = has_west ? j->opt[j->chosen[block - 1]].edge[j->orient[block - 1]][1] : 0;
    uint64_t north = has_north ? j->opt[j->chosen[block - j->cols]].edge[j->orient[block - j->cols]][2] : 0;
    int32_t n;
    int64_t total;
    int framed = j->p->connected && ((j->p->border && on_edge(j, block)) ||
                                     (!on_edge(j, block) && walled(j, block)));
    const block_choice *list = candidates(j, has_west | has_north << 1 | framed << 2, west, north, &n, &total);
    if (n == 0)
        return 0;
    int32_t twin_w = has_west ? j->chosen[block - 1] : -1, twin_n = has_north ? j->chosen[block - j->cols] : -1;
    int32_t twin_wo = has_west ? j->orient[block - 1] : -1, twin_no = has_north ? j->orient[block - j->cols] : -1;
    /* the weighted draw of dgi_weighted_pick over all options, where the
     * others weigh 0 */
    int64_t r = (int64_t)dgi_below64(rng, (uint64_t)total);
    int32_t c = 0;
    while (r >= list[c].weight)
        r -= list[c++].weight;
    int32_t k = list[c].option;
    int32_t o = dgi_orient_pick(list[c].orients, rng);
    if ((k == twin_w && o == twin_wo) || (k == twin_n && o == twin_no))
        redraw_fresh(list, n, twin_w, twin_wo, twin_n, twin_no, rng, &k, &o);
    const uint64_t *e = j->opt[k].edge[o];
    j->chosen[block] = k;
    j->orient[block] = o;
    j->used[k] = 1;
    /* solid blocks whose every seam shares an always-open cell make a connected
     * map; with a border, blocks on it must stay solid once walled */
    j->suspect |= framed && !j->opt[k].core;
    j->proven &= j->opt[k].solid &&
                 (!has_west || seam_shares(e[3], west, j->bh, j->p->border)) &&
                 (!has_north || seam_shares(e[0], north, j->bw, j->p->border));
    return 1;
}

/* Walls the open cells on the outer edge of the blocks, and on the grid's
 * ring when the fill is open. */
static void close_border(jigsaw *j, dgi_gen *gen)
{
    dg_rect frame = {j->ox, j->oy, j->cols * j->bw, j->rows * j->bh};
    dgi_gen_close(gen, frame);
    dg_rect whole = {0, 0, j->gw, j->gh};
    if (dg_tile_passable((uint8_t)j->p->fill))
        dgi_gen_close(gen, whole);
}

/* The open cell of block b nearest its centre; 0 if it has none. */
static int block_centre(const jigsaw *j, const dgi_gen *gen, int32_t b, dg_point *at)
{
    int32_t x0 = j->ox + (b % j->cols) * j->bw, y0 = j->oy + (b / j->cols) * j->bh, best = -1;
    for (int32_t y = y0; y < y0 + j->bh; y++)
        for (int32_t x = x0; x < x0 + j->bw; x++)
        {
            int32_t d = abs(2 * (x - x0) + 1 - j->bw) + abs(2 * (y - y0) + 1 - j->bh);
            if (dgi_passable_default[DG_CELL(&gen->g, x, y)] && (best < 0 || d < best))
            {
                best = d;
                at->x = x;
                at->y = y;
            }
        }
    return best >= 0;
}

/* The start: the centre of a random block on the edge of the map (where a
 * player expects to come in; the exit is then the farthest cell), trying the
 * next ones if it has no open cell. A `start` marker still wins. */
static void choose_start(const jigsaw *j, dgi_gen *gen, uint64_t seed)
{
    int32_t blocks = j->cols * j->rows, edge = 0;
    for (int32_t b = 0; b < blocks; b++)
        edge += on_edge(j, b);
    dg_rng rng;
    dgi_rng_seed(&rng, seed, STREAM_START);
    int32_t k = (int32_t)dgi_rng_below(&rng, (uint32_t)edge), seen = 0;
    for (int pass = 0; pass < 2; pass++) /* from the k-th edge block on, then all of them */
        for (int32_t b = 0; b < blocks; b++)
            if (on_edge(j, b) && (pass == 1 || seen++ >= k) && !is_dead(j, b) &&
                block_centre(j, gen, b, &gen->r.start))
                return;
}

static int is_actor(const dg_marker *m)
{
    return m->kind == DG_MARKER_ACTOR || m->kind == DG_MARKER_SPAWN;
}

/* Keeps at most one actor (or spawn) marker per `actor_cells` passable
 * cells, a uniform choice among them (selection sampling keeps their order):
 * an actor on every block crowds a map a player walks. Tiles stay floor; the
 * finished result's metrics count no markers, so they hold. seed: the try's. */
static void thin_actors(const jigsaw *j, dgi_gen *gen, uint64_t seed)
{
    dg_result *r = &gen->r;
    int32_t actors = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
        actors += is_actor(&r->markers[i]);
    if (j->p->actor_cells == 0 || actors == 0)
        return;
    int64_t keep = r->metrics.floor_cells / j->p->actor_cells; /* the finished result's count */
    if (keep >= actors)
        return;
    dg_rng rng;
    dgi_rng_seed(&rng, seed, STREAM_ACTORS);
    int32_t out = 0, seen = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        if (is_actor(m))
        {
            int take = keep > 0 && (int64_t)dgi_rng_below(&rng, (uint32_t)(actors - seen)) < keep;
            seen++;
            keep -= take;
            if (!take)
                continue;
        }
        r->markers[out++] = *m;
    }
    r->marker_count = out;
}

/* 1 if the open tiles of block b form one region (a flood in the block,
 * over a map of it with a closed frame: 1 closed or reached, 0 open). */
static int block_solid(const jigsaw *j, const dgi_gen *gen, int32_t b)
{
    int32_t x0 = j->ox + (b % j->cols) * j->bw, y0 = j->oy + (b / j->cols) * j->bh, w = j->bw + 2;
    int32_t open = 0, top = 0, reached = 0, first = -1;
    uint8_t *seen = j->core_seen;
    memset(seen, 1, (size_t)w * (size_t)(j->bh + 2));
    for (int32_t y = 0; y < j->bh; y++)
        for (int32_t x = 0; x < j->bw; x++)
            if (dgi_passable_default[DG_CELL(&gen->g, x0 + x, y0 + y)])
            {
                int32_t i = (y + 1) * w + x + 1;
                seen[i] = 0;
                open++;
                first = first < 0 ? i : first;
            }
    if (first < 0)
        return 1;
    seen[first] = 1;
    j->core_stack[top++] = first;
    while (top > 0)
    {
        int32_t c = j->core_stack[--top];
        int32_t next[4] = {c - w, c + w, c - 1, c + 1};
        reached++;
        for (int d = 0; d < 4; d++)
            if (!seen[next[d]])
            {
                seen[next[d]] = 1;
                j->core_stack[top++] = next[d];
            }
    }
    return reached == open;
}

/* 1 if every border block whose prefab may fall apart walled is still one
 * region: the map is then still connected by construction. */
static int suspects_solid(const jigsaw *j, const dgi_gen *gen)
{
    for (int32_t b = 0; b < j->cols * j->rows; b++)
        if (!is_dead(j, b) && walled(j, b) && !j->opt[j->chosen[b]].core && !block_solid(j, gen, b))
            return 0;
    return 1;
}

static void pass_from_tiles(jigsaw *j, dgi_gen *gen)
{
    gen->pass.cells = j->pass;
    for (int32_t y = 0; y < j->gh; y++)
        for (int32_t x = 0; x < j->gw; x++)
            DG_CELL(&gen->pass, x, y) = dgi_passable_default[DG_CELL(&gen->g, x, y)] ? DG_TILE_FLOOR : DG_TILE_WALL;
}

/* Walls the blocks beside those left to the fill, then the fill beside the
 * reserved cells. */
static void close_dead(jigsaw *j, dgi_gen *gen)
{
    for (int32_t b = 0; b < j->cols * j->rows; b++)
        if (j->dead[b])
        {
            dg_rect q = {j->ox + (b % j->cols) * j->bw, j->oy + (b / j->cols) * j->bh, j->bw, j->bh};
            dgi_gen_close_outside(gen, q);
        }
    dgi_gen_seal(gen, j->reserved);
}

/* Relabels the group of blocks of block b (labels equal to its own) as `to`,
 * 4-way; returns its size. */
static int32_t group_of(jigsaw *j, int32_t b, int32_t *queue, uint8_t to)
{
    uint8_t from = j->dead[b];
    int32_t head = 0, tail = 0;
    j->dead[b] = to;
    queue[tail++] = b;
    while (head < tail)
    {
        int32_t c = queue[head++], col = c % j->cols;
        int32_t next[4] = {c - j->cols, c + j->cols, col > 0 ? c - 1 : -1, col + 1 < j->cols ? c + 1 : -1};
        for (int d = 0; d < 4; d++)
            if (next[d] >= 0 && next[d] < j->cols * j->rows && j->dead[next[d]] == from)
            {
                j->dead[next[d]] = to;
                queue[tail++] = next[d];
            }
    }
    return tail;
}

/* Marks the blocks whose cells or ring hold a reserved cell, then those cut
 * off from the largest group of live blocks (4-way); 0 if no block is left. */
static int32_t mark_dead(jigsaw *j, int32_t *queue)
{
    int32_t blocks = j->cols * j->rows, best = -1, best_n = 0;
    for (int32_t b = 0; b < blocks; b++)
    {
        int32_t x0 = j->ox + (b % j->cols) * j->bw - 1, y0 = j->oy + (b / j->cols) * j->bh - 1;
        j->dead[b] = 0;
        for (int32_t y = DG_MAX(y0, 0); y < DG_MIN(y0 + j->bh + 2, j->gh) && !j->dead[b]; y++)
            for (int32_t x = DG_MAX(x0, 0); x < DG_MIN(x0 + j->bw + 2, j->gw); x++)
                j->dead[b] |= dgi_mask_at(j->reserved, x, y);
    }
    for (int32_t b = 0; b < blocks; b++) /* every live group labelled 2, the largest found */
    {
        int32_t n = j->dead[b] == 0 ? group_of(j, b, queue, 2) : 0;
        if (n > best_n)
            best_n = n, best = b;
    }
    if (best >= 0)
        group_of(j, best, queue, 4);
    for (int32_t b = 0; b < blocks; b++)
        j->dead[b] = j->dead[b] != 4;
    return best_n;
}

/* One whole map from seed; DG_E_NOSPACE (no candidate left), DG_E_LIMIT (a
 * require count or connectivity failed), DG_E_NOMEM. */
static dg_status one_try(jigsaw *j, dgi_gen *gen, uint64_t seed)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    if (!j->used || !j->chosen || !j->orient)
        return DG_E_NOMEM; /* not reached: jigsaw_setup allocated them */
    memset(j->used, 0, (size_t)j->nopt);
    dgi_result_reset(&gen->r);
    j->proven = !dg_tile_passable((uint8_t)j->p->fill) && !j->reserved;
    j->suspect = 0;
    int32_t blocks = j->cols * j->rows;
    for (int32_t b = 0, col = 0; b < blocks; b++, col = col + 1 == j->cols ? 0 : col + 1)
        if (!is_dead(j, b) && !choose_block(j, b, col, &rng))
            return DG_E_NOSPACE;
    /* a map connected by construction needs no passability grid */
    gen->pass.cells = j->p->connected && !j->proven ? j->pass : NULL;
    dgi_gen_fill(gen, (uint8_t)j->p->fill, dg_tile_passable((uint8_t)j->p->fill));
    uint8_t buf[4096];
    int tiles_only = !gen->record && !gen->pass.cells;
    for (int32_t b = 0; b < blocks; b++)
    {
        if (is_dead(j, b))
            continue;
        int32_t index = j->opt[j->chosen[b]].prefab, x = j->ox + (b % j->cols) * j->bw, y = j->oy + (b / j->cols) * j->bh;
        uint64_t block_seed = dgi_hash_combine(seed, (uint64_t)b);
        int stamped = tiles_only && j->stamps.made
                          ? dgi_stamp(&j->stamps, index, j->orient[b], block_seed, &DG_CELL(&gen->g, x, y))
                          : 0;
        if (stamped < 0)
            return DG_E_LIMIT;
        if (stamped)
            continue;
        const dgi_prefab *q = &j->set->prefabs[index];
        uint8_t *heap;
        dg_status st;
        const uint8_t *g = dgi_prefab_glyphs(j->set, q, block_seed, buf, sizeof buf, &heap, &st);
        if (!g)
            return st;
        st = dgi_gen_place(gen, index, j->orient[b], g, x, y, DG_ROOM_PREFAB, -1);
        dgi_prefab_glyphs_free(j->set, q, heap);
        if (st != DG_OK)
            return st;
    }
    if (j->p->border)
        close_border(j, gen);
    if (j->reserved)
        close_dead(j, gen);
    if (j->p->connected && j->proven && j->suspect && !suspects_solid(j, gen))
    {
        j->proven = 0; /* a walled block fell apart: check the whole map by its tiles */
        pass_from_tiles(j, gen);
    }
    if (j->p->connected && !j->proven && !dgi_gen_connected(gen, j->stack))
        return DG_E_LIMIT;
    if (gen->record)
        choose_start(j, gen, seed);
    return DG_OK;
}

static int32_t start_room(const dg_result *r)
{
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == DG_MARKER_START)
            return r->markers[i].room;
    return -1;
}

dg_status dg_prefab_jigsaw_generate(dg_grid *grid, const dg_prefab_set *set,
                                    const dg_prefab_jigsaw_params *params, uint64_t seed,
                                    dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_prefab_jigsaw_generate(grid, set, params, seed, NULL, result, allocator, diag);
}

/* With reserved cells: the blocks left to the fill, from a block-sized scratch. */
static dg_status setup_dead(jigsaw *j, const dg_allocator *a, dg_diag *diag)
{
    size_t blocks = (size_t)j->cols * (size_t)j->rows;
    j->dead = dgi_alloc(a, blocks);
    int32_t *queue = dgi_alloc(a, blocks * sizeof *queue);
    int32_t live = j->dead && queue ? mark_dead(j, queue) : -1;
    dgi_free(a, queue, queue ? blocks * sizeof *queue : 0);
    if (live < 0)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_jigsaw: out of memory");
    if (live == 0)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_jigsaw: every %dx%d block touches a reserved "
                        "cell (a block must keep one cell off them)", (int)j->bw, (int)j->bh);
    return DG_OK;
}

dg_status dgi_prefab_jigsaw_generate(dg_grid *grid, const dg_prefab_set *set,
                                     const dg_prefab_jigsaw_params *params, uint64_t seed,
                                     const dgi_mask *reserved, dg_result *result,
                                     const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_jigsaw_params p;
    if (params)
        p = *params;
    else
        dg_prefab_jigsaw_defaults(&p);
    dg_status st = check_params(set, &p, diag);
    if (st != DG_OK)
        return st;
    jigsaw j;
    memset(&j, 0, sizeof j);
    j.set = set;
    j.p = &p;
    j.reserved = reserved;
    st = jigsaw_setup(&j, grid, allocator, diag);
    if (st == DG_OK && reserved)
        st = setup_dead(&j, allocator, diag);
    dgi_gen gen;
    memset(&gen, 0, sizeof gen);
    if (st == DG_OK)
        st = dgi_gen_begin(&gen, set, grid, result, allocator, 0, p.connected, 0);
    j.pass = gen.pass.cells;
    int32_t tries = 0;
    dg_status last = DG_OK;
    int64_t cells = (int64_t)grid->width * grid->height, budget = CALL_UNITS_PER_CELL * cells + UNITS_FLOOR;
    j.left = budget;
    while (st == DG_OK && tries < p.max_tries && j.left > 0)
    {
        j.left -= cells;
        last = one_try(&j, &gen, tries ? dgi_hash_combine(seed, (uint64_t)tries) : seed);
        tries++;
        if (last == DG_OK || last == DG_E_NOMEM)
            break;
    }
    if (st == DG_OK && last != DG_OK)
    {
        const char *why = last == DG_E_NOSPACE ? "a block had no candidate left (unique prefabs ran out)"
                                               : "the passable cells were never all connected "
                                                 "(or a require count never held)";
        int spent = j.left <= 0 && tries < p.max_tries;
        st = last == DG_E_NOMEM ? last : spent ? DG_E_LIMIT : last;
        if (st == DG_E_NOMEM)
            dgi_fail(diag, st, "prefab_jigsaw: out of memory");
        else if (spent)
            dgi_fail(diag, st, "prefab_jigsaw: work budget of %lld (%d per cell + %d) spent after %d "
                     "tries with no map: %s", (long long)budget, CALL_UNITS_PER_CELL, UNITS_FLOOR,
                     (int)tries, why);
        else
            dgi_fail(diag, st, "prefab_jigsaw: %d tries gave no map: %s", (int)tries, why);
    }
    gen.r.metrics.attempts = tries;
    gen.r.metrics.failures = tries - 1;
    gen.r.metrics.requested = gen.r.metrics.placed = j.cols * j.rows;
    int32_t sr = start_room(&gen.r);
    gen.reserved = reserved;
    dgi_free(allocator, j.dead, j.dead ? (size_t)j.cols * (size_t)j.rows : 0);
    dgi_free(allocator, j.block, j.block_size); /* before the result is finished: a lower peak */
    if (st == DG_OK && gen.record && (st = dgi_gen_finish(&gen, sr, diag)) == DG_OK)
        thin_actors(&j, &gen, tries > 1 ? dgi_hash_combine(seed, (uint64_t)(tries - 1)) : seed);
    return dgi_gen_end(&gen, st, grid, result, sr, diag);
}
