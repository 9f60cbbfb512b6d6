/* The attach generator's passes after growth: loops where they save a long
 * walk, and the dead-end count. */
#include "gen/attach_state.h"

#define BUCKET_SHIFT 4     /* 16x16-cell buckets of the feature lookup */
#define LOOP_WORK_PER_ITEM 4 /* loop pass: search steps per junction and candidate */
#define LOOP_WORK_BASE 4096

static int32_t passable_around(const att_ctx *c, const uint8_t *p)
{
    return att_passable(p[-c->stride]) + att_passable(p[1]) + att_passable(p[c->stride]) +
           att_passable(p[-1]);
}

/* Floor cells of a shaped room with a single passable neighbour (the tip
 * of a circle's end row, a cavern's rough edge). */
static int32_t shape_dead_ends(const att_ctx *c, const att_feat *f)
{
    int32_t n = 0;
    for (int32_t y = f->y; y < f->y + f->h; y++)
        for (int32_t x = f->x; x < f->x + f->w; x++)
        {
            const uint8_t *p = att_at(c, x, y);
            n += *p == DG_TILE_FLOOR && passable_around(c, p) == 1;
        }
    return n;
}

int32_t dgi_att_dead_end_count(const att_ctx *c)
{
    int32_t n = 0;
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        const att_feat *f = &c->feats[i];
        if (f->shape != DG_SHAPE_RECT)
        {
            n += f->no_tips ? 0 : shape_dead_ends(c, f);
            continue;
        }
        if ((f->w > 1 && f->h > 1) || (f->kind == ATT_CORRIDOR && f->end_child >= 0))
            continue; /* only 1-wide ends that lead nowhere can be dead ends */
        const uint8_t *end[2] = {att_at(c, f->x, f->y), att_at(c, f->x + f->w - 1, f->y + f->h - 1)};
        for (int e = 0; e < (end[0] == end[1] ? 1 : 2); e++)
        {
            n += passable_around(c, end[e]) == 1;
        }
    }
    return n;
}

/* ---- loops ------------------------------------------------------------------------ */

#define LOOP_REACH 3 /* a loop opens 1 wall cell, or wall, rock, wall between two pieces */

enum { SITE_UNKNOWN = 0, SITE_PAIRED, SITE_NEVER }; /* what the tests that never change said */

typedef struct loop_site { /* 16 bytes: a map's cells all lie in 0..DG_GRID_MAX_DIM - 1 */
    int16_t x, y;
    int32_t feat;
    int32_t other;    /* the feature on the far side, once SITE_PAIRED */
    uint8_t dir, len; /* len: solid cells opened (1 or LOOP_REACH) */
    uint8_t state;    /* SITE_*: the leaves pass leaves it for the second */
} loop_site;

/* A feature in a bucket: its rectangle clipped to the bucket, in the bucket's
 * own coordinates, beside its index, so finding the feature under a cell
 * reads one short run of memory instead of a feature per entry. */
typedef struct bucket_entry {
    uint8_t x0, y0, x1, y1; /* inclusive */
    int32_t feat;
} bucket_entry;

typedef struct loop_pass {
    loop_site *sites; int32_t nsites, cap_sites;
    uint8_t borrowed; /* sites still in the frontier's array, which growth is done with */
    int32_t *bucket_start; size_t bucket_bytes; /* (buckets + 1) offsets */
    bucket_entry *bucket_feat; size_t feat_bytes;
    int32_t nbx, nby;
    uint8_t *leaf; size_t leaf_bytes; /* per feature of growth: 1 a room with a single entrance */
} loop_pass;

/* len solid cells (rock or wall) from (x, y) along dir, walls at both ends,
 * with room or corridor floor after them and solid cells beside every one, so
 * opening them makes a clean straight passage. The caller keeps the cells read
 * inside the scratch map. */
static int loop_candidate(const att_ctx *c, int32_t x, int32_t y, int dir, int32_t len)
{
    const uint8_t *p = att_at(c, x, y);
    ptrdiff_t step = c->step[dir], side = c->along[dir];
    uint8_t q = p[len * step];
    if (q != DG_TILE_FLOOR && q != DG_TILE_CORRIDOR)
        return 0;
    if (p[0] != DG_TILE_WALL || p[(len - 1) * step] != DG_TILE_WALL)
        return 0;
    for (int32_t k = 0; k < len; k++, p += step)
        if (!att_solid(p[0]) || !att_solid(p[-side]) || !att_solid(p[side]))
            return 0; /* never through or beside a reserved cell either */
    return 1;
}

static dg_status add_site(att_ctx *c, loop_pass *lp, int32_t x, int32_t y, int32_t feat, int dir,
                          int32_t len)
{
    dg_status st;
    ATT_GROW(c, lp->sites, lp->cap_sites, lp->nsites + 1, &lp->borrowed, st);
    if (st == DG_OK)
        lp->sites[lp->nsites++] =
            (loop_site){(int16_t)x, (int16_t)y, feat, -1, (uint8_t)dir, (uint8_t)len, SITE_UNKNOWN};
    return st;
}

static int room_or_corridor(uint8_t v)
{
    return v == DG_TILE_FLOOR || v == DG_TILE_CORRIDOR;
}

/* Solid cells a candidate from the wall cell at p would open, from two reads:
 * floor right behind the wall makes it one wall; else it can only be wall,
 * rock, wall, with floor LOOP_REACH steps out; 0: neither (most wall cells).
 * room: interior cells beyond the wall. */
static inline int32_t candidate_len(const uint8_t *p, ptrdiff_t step, int32_t room)
{
    if (room_or_corridor(p[step]))
        return room >= 1;
    return room >= LOOP_REACH && room_or_corridor(p[LOOP_REACH * step]) ? LOOP_REACH : 0;
}

/* The candidate of len cells from the wall cell (x, y) of feature i facing dir, if it is one. */
static dg_status add_candidate(att_ctx *c, loop_pass *lp, int32_t i, int32_t x, int32_t y, int dir,
                               int32_t len)
{
    return loop_candidate(c, x, y, dir, len) ? add_site(c, lp, x, y, i, dir, len) : DG_OK;
}

/* Every candidate once: from the feature above (south walls) or to the left (east walls). */
static dg_status collect_sites(att_ctx *c, loop_pass *lp)
{
    ptrdiff_t s = c->stride;
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        const att_feat f = c->feats[i];
        int32_t y = f.y + f.h, x = f.x + f.w;
        const uint8_t *south = att_at(c, f.x, y), *east = att_at(c, x, f.y);
        int32_t below = c->h - 2 - y, right = c->w - 2 - x; /* interior cells beyond */
        for (int32_t k = 0; k < f.w; k++)
        {
            int32_t len = candidate_len(south + k, s, below);
            if (len && add_candidate(c, lp, i, f.x + k, y, DG_DIR_S, len) != DG_OK)
                return DG_E_NOMEM;
        }
        for (int32_t k = 0; k < f.h; k++)
        {
            int32_t len = candidate_len(east + k * s, 1, right);
            if (len && add_candidate(c, lp, i, x, f.y + k, DG_DIR_E, len) != DG_OK)
                return DG_E_NOMEM;
        }
    }
    return DG_OK;
}

/* Opens wall, rock, wall at s between features a and b as a one-cell
 * corridor with a junction at each end. 0 ok, -1 no memory. */
static int open_passage(att_ctx *c, const loop_site *s, int32_t a, int32_t b)
{
    dg_status st = DG_OK;
    if (c->nfeat + 1 > c->cap_feat)
        ATT_GROW(c, c->feats, c->cap_feat, c->nfeat + 1, &c->borrowed[0], st);
    if (st != DG_OK)
        return -1;
    int32_t ux = att_dx(s->dir), uy = att_dy(s->dir), mx = s->x + ux, my = s->y + uy;
    int32_t m = c->nfeat++;
    att_feat *f = &c->feats[m];
    memset(f, 0, sizeof *f);
    f->x = (uint16_t)mx;
    f->y = (uint16_t)my;
    f->w = f->h = 1;
    f->parent = a;
    f->doors_head = -1;
    f->end_child = b;
    f->out = -1;
    f->kind = ATT_CORRIDOR;
    f->dir = (uint8_t)s->dir;
    c->live++;
    *att_at(c, mx, my) = DG_TILE_CORRIDOR;
    c->floor++;
    for (int k = -1; k <= 1; k += 2) /* the rock beside it becomes its walls */
        *att_at(c, mx + uy * k, my + ux * k) = DG_TILE_WALL;
    f->door = dgi_att_door_add(c, s->x, s->y, a, m);
    if (f->door < 0 || dgi_att_door_add(c, mx + ux, my + uy, b, m) < 0)
        return -1;
    return 0;
}

/* Buckets of features by area, to find the feature under a cell. */
static dg_status build_buckets(att_ctx *c, loop_pass *lp)
{
    lp->nbx = (c->w >> BUCKET_SHIFT) + 1;
    lp->nby = (c->h >> BUCKET_SHIFT) + 1;
    size_t nb = (size_t)lp->nbx * (size_t)lp->nby;
    lp->bucket_bytes = (nb + 1) * sizeof(int32_t);
    lp->bucket_start = dgi_calloc(c->a, nb + 1, sizeof(int32_t));
    if (!lp->bucket_start)
        return DG_E_NOMEM;
    int32_t *start = lp->bucket_start;
    const int32_t last = (1 << BUCKET_SHIFT) - 1;
    for (int32_t i = 0; i < c->nfeat; i++) /* entries per bucket, one bucket on */
    {
        const att_feat *f = &c->feats[i];
        int32_t bx0 = f->x >> BUCKET_SHIFT, bx1 = (f->x + f->w - 1) >> BUCKET_SHIFT;
        int32_t by1 = (f->y + f->h - 1) >> BUCKET_SHIFT;
        for (int32_t by = f->y >> BUCKET_SHIFT; by <= by1; by++)
            for (int32_t bx = bx0; bx <= bx1; bx++)
                start[(size_t)by * (size_t)lp->nbx + (size_t)bx + 1]++;
    }
    for (size_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    lp->feat_bytes = (size_t)start[nb] * sizeof *lp->bucket_feat;
    lp->bucket_feat = dgi_alloc(c->a, lp->feat_bytes);
    if (!lp->bucket_feat)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        const att_feat f = c->feats[i]; /* a copy: the entries' bytes alias nothing then */
        int32_t fx1 = f.x + f.w - 1, fy1 = f.y + f.h - 1;
        int32_t bx0 = f.x >> BUCKET_SHIFT, bx1 = fx1 >> BUCKET_SHIFT;
        for (int32_t by = f.y >> BUCKET_SHIFT; by <= fy1 >> BUCKET_SHIFT; by++)
        {
            int32_t *row = start + (size_t)by * (size_t)lp->nbx;
            int32_t oy = by << BUCKET_SHIFT;
            uint8_t y0 = (uint8_t)DG_MAX(0, f.y - oy), y1 = (uint8_t)DG_MIN(last, fy1 - oy);
            for (int32_t bx = bx0; bx <= bx1; bx++)
            {
                int32_t ox = bx << BUCKET_SHIFT;
                bucket_entry e = {(uint8_t)DG_MAX(0, f.x - ox), y0, (uint8_t)DG_MIN(last, fx1 - ox),
                                  y1, i};
                lp->bucket_feat[row[bx]++] = e;
            }
        }
    }
    for (size_t b = nb; b > 0; b--) /* the fill advanced each start to the next one's */
        start[b] = start[b - 1];
    start[0] = 0;
    return DG_OK;
}

static int32_t feature_at(const loop_pass *lp, int32_t x, int32_t y)
{
    size_t b = (size_t)(y >> BUCKET_SHIFT) * (size_t)lp->nbx + (size_t)(x >> BUCKET_SHIFT);
    int32_t lx = x & ((1 << BUCKET_SHIFT) - 1), ly = y & ((1 << BUCKET_SHIFT) - 1);
    for (int32_t k = lp->bucket_start[b]; k < lp->bucket_start[b + 1]; k++)
    {
        const bucket_entry *e = &lp->bucket_feat[k];
        if (lx >= e->x0 && ly >= e->y0 && lx <= e->x1 && ly <= e->y1)
            return e->feat; /* interiors never overlap: the first is the only one */
    }
    return -1;
}

/* ---- the candidates' order ------------------------------------------------------- */

static void shuffle_sites(loop_pass *lp, dg_rng *rng)
{
    for (int32_t i = lp->nsites - 1; i > 0; i--)
    {
        int32_t j = (int32_t)dgi_rng_below(rng, (uint32_t)i + 1);
        loop_site t = lp->sites[i];
        lp->sites[i] = lp->sites[j];
        lp->sites[j] = t;
    }
}

/* Marks the rooms with a single entrance, the dead ends a loop should open
 * first, from one pass over the doors: the tries then read a byte per
 * feature, not its door list in some far part of memory. */
static dg_status mark_leaves(att_ctx *c, loop_pass *lp)
{
    lp->leaf_bytes = (size_t)c->nfeat;
    lp->leaf = dgi_calloc(c->a, lp->leaf_bytes, 1);
    if (!lp->leaf)
        return DG_E_NOMEM;
    uint8_t *n = lp->leaf; /* first the doors of each feature, up to 2 */
    for (int32_t i = 0; i < c->ndoor; i++)
    {
        n[c->doors[i].a] += n[c->doors[i].a] < 2;
        n[c->doors[i].b] += n[c->doors[i].b] < 2;
    }
    for (int32_t i = 0; i < c->nfeat; i++)
        n[i] = c->feats[i].kind == ATT_ROOM && n[i] == 1;
    return DG_OK;
}

/* 1: the wall cell (x, y) of room f is outside the middle half of its wall. */
static int off_middle(const att_ctx *c, int32_t f, int32_t x, int32_t y)
{
    const att_feat *r = &c->feats[f];
    if (r->kind != ATT_ROOM)
        return 0;
    if (y < r->y || y >= r->y + r->h) /* on its top or bottom wall */
        return x < r->x + r->w / 4 || x >= r->x + r->w - r->w / 4;
    return y < r->y + r->h / 4 || y >= r->y + r->h - r->h / 4;
}

/* Loop openings allowed: loop_max, or with 0 one per LOOP_ROOMS rooms. */
#define LOOP_ROOMS 4
static int32_t loop_budget(const att_ctx *c)
{
    if (c->p->loop_max > 0)
        return c->p->loop_max;
    int32_t rooms = 0;
    for (int32_t i = 0; i < c->nfeat; i++)
        rooms += c->feats[i].kind == ATT_ROOM;
    return DG_MAX(1, rooms / LOOP_ROOMS);
}

/* Steps a loop must save: loop_min_gain, but with the budget left to the map
 * (loop_max 0) at most half the map's shorter side, since on a small map few
 * walks are long enough to save 16 steps (80x25 got 0.14 loops per room). */
static int32_t loop_gain(const att_ctx *c)
{
    if (c->p->loop_max > 0)
        return c->p->loop_min_gain;
    return DG_MAX(1, DG_MIN(c->p->loop_min_gain, DG_MIN(c->w, c->h) / 2));
}

/* The feature on the far side of candidate s, or -1 where it can never open:
 * no feature there (a junction), or a room's door would leave the middle half
 * of its wall (kept for its shape). Neither changes as loops open, so the
 * answer is kept in s for the second pass. */
static int32_t paired_feature(const att_ctx *c, const loop_pass *lp, loop_site *s)
{
    if (s->state == SITE_UNKNOWN)
    {
        int32_t ux = att_dx(s->dir), uy = att_dy(s->dir);
        int32_t other = feature_at(lp, s->x + ux * s->len, s->y + uy * s->len);
        int never = other < 0 || off_middle(c, s->feat, s->x, s->y) ||
                    off_middle(c, other, s->x + ux * (s->len - 1), s->y + uy * (s->len - 1));
        s->other = other;
        s->state = never ? SITE_NEVER : SITE_PAIRED;
    }
    return s->state == SITE_PAIRED ? s->other : -1;
}

/* Tries candidate sp: opens it if the walk it replaces is at least
 * loop_min_gain steps longer than the steps through the opening. On the
 * first pass (leaves) only candidates beside a room with a single entrance.
 * 1 opened, 0 not, -1 no memory, -2 work bound reached. */
static int try_loop(att_ctx *c, loop_pass *lp, loop_site *sp, int leaves)
{
    loop_site s = *sp;
    if (s.state == SITE_NEVER)
        return 0;
    if (s.len > 1 && c->live >= c->budget)
        return 0; /* a passage is a corridor: it counts in the feature budget */
    /* the cheap tests first, the map around the candidate last: each answer
     * is the same whichever comes first */
    int32_t other = paired_feature(c, lp, sp);
    if (other < 0)
        return 0;
    if (leaves != (lp->leaf[s.feat] || lp->leaf[other]))
        return 0; /* leaves: the first pass; the others: the second */
    if (!loop_candidate(c, s.x, s.y, s.dir, s.len))
        return 0; /* an earlier opening is next to it */
    int32_t ux = att_dx(s.dir), uy = att_dy(s.dir);
    if (s.len + att_corridor_run(c, s.x - ux, s.y - uy, s.dir ^ 2) +
            att_corridor_run(c, s.x + ux * s.len, s.y + uy * s.len, s.dir) > ATT_MAX_STRAIGHT)
        return 0; /* it would join two corridors end to end into one too long */
    /* the walk through the opening is len + 1 steps; it must save the gain */
    int32_t limit = loop_gain(c) + s.len + 1;
    int32_t walk = dgi_att_walk_distance(c, s.feat, s.x - ux, s.y - uy, other,
                                         s.x + ux * s.len, s.y + uy * s.len, limit);
    if (walk < 0)
        return walk;
    if (walk < limit)
        return 0;
    if (s.len > 1 ? open_passage(c, &s, s.feat, other) < 0
                  : dgi_att_door_add(c, s.x, s.y, DG_MIN(s.feat, other), DG_MAX(s.feat, other)) < 0)
        return -1;
    lp->leaf[s.feat] = lp->leaf[other] = 0; /* each has another entrance now */
    return 1;
}

/* Opens candidates in a seeded random order, those that give a dead-end room
 * a second entrance first, until the budget is spent. */
static dg_status open_loops(att_ctx *c, loop_pass *lp, dg_rng *rng)
{
    shuffle_sites(lp, rng);
    for (int32_t i = 0; i < c->ndoor; i++)
        c->doors[i].dist = INT32_MAX;
    /* A count, not a clock: sensible gains need a few steps per junction and
     * candidate; very long ones on big maps would otherwise cost quadratic time. */
    c->loop_work = LOOP_WORK_PER_ITEM * ((int64_t)c->ndoor + lp->nsites) + LOOP_WORK_BASE;
    int32_t budget = loop_budget(c);
    for (int leaves = 1; leaves >= 0; leaves--)
        for (int32_t i = 0; i < lp->nsites && c->loops < budget; i++)
        {
            int r = try_loop(c, lp, &lp->sites[i], leaves);
            if (r == -2)
                return DG_OK; /* work bound reached: fewer loops, never a wrong one */
            if (r < 0)
                return DG_E_NOMEM;
            c->loops += r;
        }
    return DG_OK;
}

dg_status dgi_att_loops(att_ctx *c, uint64_t seed)
{
    loop_pass lp;
    memset(&lp, 0, sizeof lp);
    dg_rng rng;
    dgi_rng_seed(&rng, seed, 0);
    /* the candidates start in the frontier's array: growth is over, and its
     * memory is already counted */
    lp.sites = (loop_site *)(void *)c->sites;
    lp.cap_sites = (int32_t)((size_t)c->cap_site * sizeof *c->sites / sizeof *lp.sites);
    lp.borrowed = 1;
    dg_status st = collect_sites(c, &lp);
    if (st == DG_OK && lp.nsites > 0)
        st = build_buckets(c, &lp);
    if (st == DG_OK && lp.nsites > 0)
        st = mark_leaves(c, &lp);
    if (st == DG_OK && lp.nsites > 0)
        st = open_loops(c, &lp, &rng);
    if (!lp.borrowed)
        dgi_free(c->a, lp.sites, (size_t)lp.cap_sites * sizeof *lp.sites);
    dgi_free(c->a, lp.bucket_start, lp.bucket_bytes);
    dgi_free(c->a, lp.bucket_feat, lp.feat_bytes);
    dgi_free(c->a, lp.leaf, lp.leaf_bytes);
    return st;
}
