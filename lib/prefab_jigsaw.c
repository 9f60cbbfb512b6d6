/* Jigsaw generator: the map is cut into equal blocks, each filled by a
 * candidate prefab in an orientation that keeps the block's size, with seams
 * matched by edge signature and the whole map checked for connectivity. */
#include "prefab.h"

enum { LEVEL_EXACT, LEVEL_OPEN, LEVEL_ANY };

typedef struct option {
    int32_t prefab;
    int32_t orients; /* distinct allowed orientations of the block's size */
    int32_t weight;
    int32_t unique;
    int32_t solid;   /* its passable cells are connected whatever its random glyphs do */
    const uint64_t (*edge)[4]; /* the prefab's edge signatures per orientation */
} option;

typedef struct jigsaw {
    const dg_prefab_set *set;
    const dg_prefab_jigsaw_params *p;
    int32_t bw, bh, cols, rows, ox, oy;
    option *opt;
    int32_t nopt, cap; /* options used, options allocated */
    int64_t *weights;   /* per option, reused per block */
    int32_t *masks;     /* per option: orientations passing the current level */
    uint8_t *used;      /* per option */
    int32_t *chosen;    /* per block: option index */
    int32_t *orient;    /* per block */
    int32_t *stack; /* connectivity check */
    size_t stack_size;
    int proven;     /* this map is connected by construction: no flood fill needed */
    struct pair {   /* every (option, orientation): what a block can hold */
        int32_t option, o;
        uint64_t west, north;
    } *pairs;
    int32_t npairs;
} jigsaw;

void dg_prefab_jigsaw_defaults(dg_prefab_jigsaw_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->orientations = DG_ORIENT_MASK_ALL;
    p->seams = DG_SEAM_MATCH;
    p->connected = 1;
    p->max_tries = 32;
    p->fill = DG_TILE_VOID;
}

static dg_status check_params(const dg_grid *grid, const dg_prefab_set *set,
                              const dg_prefab_jigsaw_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_jigsaw: set is NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->block_w < 0 || p->block_h < 0 || (p->block_w == 0) != (p->block_h == 0) ||
        p->block_w > DG_PREFAB_MAX_SIDE || p->block_h > DG_PREFAB_MAX_SIDE)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: block %dx%d must be 0x0 or 1..%d on "
                        "each side", (int)p->block_w, (int)p->block_h, DG_PREFAB_MAX_SIDE);
    if (p->unique < 0 || p->unique > 1 || p->connected < 0 || p->connected > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: unique and connected must be 0 or 1");
    if (p->seams < DG_SEAM_MATCH || p->seams > DG_SEAM_ANY)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: seams %d is not a DG_SEAM_* value", (int)p->seams);
    if (p->max_tries < 1 || p->max_tries > 1000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: max_tries %d must be 1..1000", (int)p->max_tries);
    if (p->fill < 0 || p->fill > 255)
        return dgi_fail(diag, DG_E_INVALID, "prefab_jigsaw: fill %d is not a tile (0..255)", (int)p->fill);
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

static void jigsaw_free(jigsaw *j, const dg_allocator *a)
{
    size_t blocks = (size_t)j->cols * (size_t)j->rows, n = (size_t)j->cap;
    dgi_free(a, j->opt, n * sizeof *j->opt);
    dgi_free(a, j->weights, n * sizeof *j->weights);
    dgi_free(a, j->masks, n * sizeof *j->masks);
    dgi_free(a, j->used, n);
    dgi_free(a, j->chosen, blocks * sizeof *j->chosen);
    dgi_free(a, j->orient, blocks * sizeof *j->orient);
    dgi_free(a, j->stack, j->stack_size);
    dgi_free(a, j->pairs, (size_t)j->cap * DG_ORIENT_COUNT * sizeof *j->pairs);
}

/* Marks the options whose passable cells are always connected. */
static int mark_solid(jigsaw *j, int32_t count, const dg_allocator *a)
{
    size_t most = 1;
    for (int32_t k = 0; k < count; k++)
        most = DG_MAX(most, (size_t)j->set->prefabs[j->opt[k].prefab].width *
                                (size_t)j->set->prefabs[j->opt[k].prefab].height);
    int32_t *stack = dgi_alloc(a, most * sizeof *stack);
    uint8_t *seen = dgi_alloc(a, most);
    if (stack && seen)
        for (int32_t k = 0; k < count; k++)
            j->opt[k].solid = dgi_prefab_solid(j->set, &j->set->prefabs[j->opt[k].prefab], stack, seen) != 0;
    dgi_free(a, stack, most * sizeof *stack);
    dgi_free(a, seen, most);
    return stack && seen;
}

/* Block size, blocks and candidate options; scratch arrays. */
static dg_status jigsaw_setup(jigsaw *j, const dg_grid *grid, const dg_allocator *a, dg_diag *diag)
{
    const dg_prefab_set *set = j->set;
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
    size_t n = (size_t)DG_MAX(set->count, 1), blocks = (size_t)j->cols * (size_t)j->rows;
    j->opt = dgi_alloc(a, n * sizeof *j->opt);
    j->weights = dgi_alloc(a, n * sizeof *j->weights);
    j->masks = dgi_alloc(a, n * sizeof *j->masks);
    j->used = dgi_alloc(a, n);
    j->chosen = dgi_alloc(a, blocks * sizeof *j->chosen);
    j->orient = dgi_alloc(a, blocks * sizeof *j->orient);
    if (j->p->connected)
    {
        j->stack_size = dgi_gen_connected_scratch(grid->width, grid->height);
        j->stack = dgi_alloc(a, j->stack_size);
    }
    j->cap = (int32_t)n;
    if (!j->opt || !j->weights || !j->masks || !j->used || !j->chosen || !j->orient ||
        (j->p->connected && !j->stack))
        return dgi_fail(diag, DG_E_NOMEM, "prefab_jigsaw: out of memory");
    int32_t k = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int32_t m = candidate(set, q, j->p) ? exact_fit(q, q->distinct & j->p->orientations, j->bw, j->bh) : 0;
        if (!m)
            continue;
        option o = {i, m, q->weight, q->unique || j->p->unique, 0, q->edge};
        j->opt[k++] = o;
    }
    if (k > 0 && j->p->connected && !mark_solid(j, k, a))
        return dgi_fail(diag, DG_E_NOMEM, "prefab_jigsaw: out of memory");
    j->pairs = dgi_alloc(a, (size_t)j->cap * DG_ORIENT_COUNT * sizeof *j->pairs);
    if (!j->pairs)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_jigsaw: out of memory");
    for (int32_t i = 0; i < k; i++)
        for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
            if ((j->opt[i].orients >> o) & 1)
            {
                struct pair *pr = &j->pairs[j->npairs++];
                pr->option = i;
                pr->o = o;
                pr->west = j->opt[i].edge[o][3];
                pr->north = j->opt[i].edge[o][0];
            }
    if (k == 0)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_jigsaw: no candidate fits a %dx%d block in an "
                        "allowed orientation", (int)j->bw, (int)j->bh);
    j->nopt = k;
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

/* Chooses option and orientation of one block; 0 if no candidate is left. */
static int choose_block(jigsaw *j, int32_t block, int32_t col, dg_rng *rng)
{
    int has_west = col > 0, has_north = block >= j->cols;
    uint64_t west = has_west ? j->opt[j->chosen[block - 1]].edge[j->orient[block - 1]][1] : 0;
    uint64_t north = has_north ? j->opt[j->chosen[block - j->cols]].edge[j->orient[block - j->cols]][2] : 0;
    int first = j->p->seams == DG_SEAM_MATCH ? LEVEL_EXACT : j->p->seams == DG_SEAM_OPEN ? LEVEL_OPEN : LEVEL_ANY;
    for (int level = first; level <= LEVEL_ANY; level++)
    {
        int any = 0;
        memset(j->masks, 0, (size_t)j->nopt * sizeof *j->masks);
        for (int32_t i = 0; i < j->npairs; i++)
        {
            const struct pair *pr = &j->pairs[i];
            if ((!has_west || edges_meet(pr->west, west, j->bh, level)) &&
                (!has_north || edges_meet(pr->north, north, j->bw, level)) &&
                !(j->opt[pr->option].unique && j->used[pr->option]))
            {
                j->masks[pr->option] |= 1 << pr->o;
                any = 1;
            }
        }
        for (int32_t k = 0; k < j->nopt; k++)
            j->weights[k] = j->masks[k] ? j->opt[k].weight : 0;
        if (!any)
            continue;
        int32_t k = dgi_weighted_pick(j->weights, j->nopt, rng);
        int32_t o = dgi_orient_pick(j->masks[k], rng);
        const uint64_t *e = j->opt[k].edge[o];
        j->chosen[block] = k;
        j->orient[block] = o;
        j->used[k] = 1;
        /* solid blocks whose every seam shares an always-open cell make a connected map */
        j->proven &= j->opt[k].solid && (!has_west || (j->bh <= 64 && (e[3] & west))) &&
                     (!has_north || (j->bw <= 64 && (e[0] & north)));
        return 1;
    }
    return 0;
}

/* One whole map from seed; DG_E_NOSPACE (no candidate left), DG_E_LIMIT (a
 * require count or connectivity failed), DG_E_NOMEM. */
static dg_status one_try(jigsaw *j, dgi_gen *gen, uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    if (!j->used || !j->chosen || !j->orient)
        return DG_E_NOMEM; /* not reached: jigsaw_setup allocated them */
    memset(j->used, 0, (size_t)j->nopt);
    dgi_result_reset(&gen->r);
    j->proven = !dg_tile_passable((uint8_t)j->p->fill);
    int32_t blocks = j->cols * j->rows;
    for (int32_t b = 0, col = 0; b < blocks; b++, col = col + 1 == j->cols ? 0 : col + 1)
        if (!choose_block(j, b, col, &rng))
            return DG_E_NOSPACE;
    dgi_gen_fill(gen, (uint8_t)j->p->fill, dg_tile_passable((uint8_t)j->p->fill));
    uint8_t buf[4096];
    for (int32_t b = 0; b < blocks; b++)
    {
        int32_t index = j->opt[j->chosen[b]].prefab;
        const dgi_prefab *q = &j->set->prefabs[index];
        uint8_t *heap;
        dg_status st;
        const uint8_t *g = dgi_prefab_glyphs(j->set, q, dg_hash_combine(seed, (uint64_t)b), buf,
                                             sizeof buf, &heap, &st);
        if (!g)
            return st;
        st = dgi_gen_place(gen, index, j->orient[b], g, j->ox + (b % j->cols) * j->bw,
                           j->oy + (b / j->cols) * j->bh, DG_ROOM_PREFAB, -1);
        dgi_prefab_glyphs_free(j->set, q, heap);
        if (st != DG_OK)
            return st;
    }
    if (j->p->connected && !j->proven && !dgi_gen_connected(gen, j->stack))
        return DG_E_LIMIT;
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
    dg_prefab_jigsaw_params p;
    if (params)
        p = *params;
    else
        dg_prefab_jigsaw_defaults(&p);
    dg_status st = check_params(grid, set, &p, diag);
    if (st != DG_OK)
        return st;
    jigsaw j;
    memset(&j, 0, sizeof j);
    j.set = set;
    j.p = &p;
    st = jigsaw_setup(&j, grid, allocator, diag);
    dgi_gen gen;
    memset(&gen, 0, sizeof gen);
    if (st == DG_OK)
        st = dgi_gen_begin(&gen, set, grid, result, allocator, 0, 1, 0);
    int32_t tries = 0;
    dg_status last = DG_OK;
    while (st == DG_OK && tries < p.max_tries)
    {
        last = one_try(&j, &gen, tries ? dg_hash_combine(seed, (uint64_t)tries) : seed);
        tries++;
        if (last == DG_OK || last == DG_E_NOMEM)
            break;
    }
    if (st == DG_OK && last != DG_OK)
    {
        st = last;
        if (st == DG_E_NOMEM)
            dgi_fail(diag, st, "prefab_jigsaw: out of memory");
        else
            dgi_fail(diag, st, "prefab_jigsaw: %d tries gave no map: %s", (int)tries,
                     st == DG_E_NOSPACE ? "a block had no candidate left (unique prefabs ran out)"
                                        : "the passable cells were never all connected "
                                          "(or a require count never held)");
    }
    gen.r.metrics.attempts = tries;
    gen.r.metrics.failures = tries - 1;
    gen.r.metrics.requested = gen.r.metrics.placed = j.cols * j.rows;
    int32_t sr = start_room(&gen.r);
    jigsaw_free(&j, allocator);
    return dgi_gen_end(&gen, st, grid, result, sr, diag);
}
