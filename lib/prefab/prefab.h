/* Private to the prefab module (prefab_*.c): the parsed set and what its
 * files share. Not installed. */
#ifndef DG_PREFAB_H
#define DG_PREFAB_H

#include "core/core.h"

/* The largest prefab file dg_prefab_load reads (docs/prefab-format.md). */
#define DGI_PREFAB_FILE_MAX ((size_t)64 << 20)

/* Glyph classes of the legend. */
enum {
    DGI_CLASS_NONE = 0, /* glyph not in the legend */
    DGI_CLASS_GROUND,
    DGI_CLASS_WALL,
    DGI_CLASS_DOOR,
    DGI_CLASS_TRAP,
    DGI_CLASS_ACTOR,
    DGI_CLASS_MARKER,
    DGI_CLASS_VOID
};

/* What a glyph means: indexed by the byte itself (only '!'..'~' are used). */
typedef struct dgi_glyph {
    uint8_t cls;      /* DGI_CLASS_* */
    uint8_t tile;     /* tile written to the grid (not for void) */
    uint8_t passable; /* walkable by class (a user tile value does not change it) */
    uint8_t marker;   /* 1 + DG_MARKER_* if the cell is reported as a marker, else 0 */
    int32_t name;     /* index in set->glyph_names */
} dgi_glyph;

typedef struct dgi_legend {
    dgi_glyph glyph[128];
} dgi_legend;

enum { DGI_SUB_PICK, DGI_SUB_ONCE, DGI_SUB_COUNT };

/* One choice of a substitution: weight for pick/pick-once, cell count for
 * count (-1 for the `rest:` choice). */
typedef struct dgi_choice {
    uint8_t glyph;
    int32_t amount;
    int32_t line, column; /* where it was written, for load-time errors */
} dgi_choice;

typedef struct dgi_sub {
    uint8_t kind;   /* DGI_SUB_* */
    uint8_t glyph;  /* the glyph replaced */
    uint8_t rest;   /* count: glyph for the other cells, 0 = they stay */
    int32_t rest_column;
    int32_t first, count; /* range in set->choices (rest excluded) */
    int64_t total;  /* pick: sum of weights; count: sum of counts */
    int32_t line, column;
} dgi_sub;

typedef struct dgi_require {
    uint8_t glyph;          /* 0: count by name */
    uint8_t always;         /* 1 if satisfied by every outcome (no check needed) */
    char name[DG_NAME_MAX];
    uint32_t glyphs[4];     /* the glyphs it counts (the one glyph, or those of the name) */
    int32_t min, max;
    int32_t line, column;
    int32_t fixed;          /* cells counted that are not the prefab's random cells (0 if always) */
} dgi_require;

typedef struct dgi_tag {
    char name[DG_NAME_MAX];
} dgi_tag;

typedef struct dgi_prefab {
    char name[DG_NAME_MAX];
    int32_t width, height;
    size_t cells;               /* offset of the identity glyphs in set->cells */
    int32_t legend;             /* index in set->legends */
    int32_t modes, orientations, distinct, weight, margin, edge_avoid, unique;
    int32_t door_sides;         /* identity orientation */
    int32_t tag_first, tag_count;
    int32_t sub_first, sub_count;
    int32_t req_first, req_count;
    int32_t checked_reqs;       /* requires that must be checked at stamp time */
    int32_t has_void, has_markers;
    uint32_t certain[4], maybe[4]; /* glyphs passable in every / in some outcome */
    int32_t random_first, random_count; /* its random cells: set->random_cells[random_first..] */
    int32_t solid;              /* island and jigsaw prefabs: whether every outcome of its random
                                 * glyphs leaves its passable cells connected: 1 yes, 2 yes as it
                                 * has none, 0 no (or not asked) */
    int32_t line;               /* line of `prefab NAME` */
    uint64_t edge[DG_ORIENT_COUNT][4]; /* edge signature per orientation and side N E S W */
} dgi_prefab;

typedef struct dgi_group {
    char tag[DG_NAME_MAX];
    int32_t min, max; /* max -1: as many as fit */
    int32_t start;    /* rooms of this group are start rooms */
} dgi_group;

/* Precomputed answers of dg_prefab_pick: for mode bit m and side mask s the
 * entries pick_first[m][s] .. + pick_count[m][s]. */
typedef struct dgi_pick {
    int32_t prefab;
    int32_t orients;   /* distinct allowed orientations giving the side mask */
    int64_t cumulative; /* running sum of weights within its list */
} dgi_pick;

struct dg_prefab_set {
    dg_allocator alloc;
    int has_alloc;
    dgi_prefab *prefabs; int32_t count, cap_prefabs;
    uint8_t *cells; size_t cells_len, cells_cap;
    dgi_legend *legends; int32_t legend_count, cap_legends;
    dgi_sub *subs; int32_t sub_count, cap_subs;
    dgi_choice *choices; int32_t choice_count, cap_choices;
    dgi_require *reqs; int32_t req_count, cap_reqs;
    dgi_tag *tags; int32_t tag_count, cap_tags;
    dgi_tag *glyph_names; int32_t glyph_name_count, cap_glyph_names; /* 0..7: class names */
    dgi_group *groups; int32_t group_count, cap_groups;
    int32_t *names; int32_t name_cap; /* open addressing on prefab names, -1 empty */
    dgi_pick *picks; int32_t pick_total;
    /* every prefab's random cells (those holding a substituted glyph), row-major
     * cell indices, and their stored glyphs (random_stored) */
    int32_t *random_cells; uint8_t *random_stored; size_t random_total;
    int32_t random_most; /* the most random cells of one prefab */
    int32_t pick_first[4][16], pick_count[4][16];
};

static inline const dg_allocator *dgi_set_alloc(const dg_prefab_set *s)
{
    return s->has_alloc ? &s->alloc : NULL;
}

/* 1 if glyph c is in the 128-bit glyph set s. */
static inline int dgi_glyph_in(const uint32_t *s, uint8_t c)
{
    return c < 128 && ((s[c >> 5] >> (c & 31)) & 1u);
}

/* ---- xform.c: orientations ---------------------------------------- */
/* Source cell of output cell (X, Y) is index base + X * step_x + Y * step_y of
 * the identity grid (row-major, width w). */
typedef struct dgi_xform {
    int32_t w, h;    /* oriented size */
    int64_t base, step_x, step_y;
} dgi_xform;
/* Inline: the generators make one per try and per stamp. The orientations'
 * inverse maps as affine coefficients: source x = ax*X + bx*Y + cx, source
 * y = ay*X + by*Y + cy for output cell (X, Y), with cx/cy coded as w-1 (1),
 * h-1 (2) or 0. */
static inline void dgi_xform_make(int32_t w, int32_t h, int32_t o, dgi_xform *t)
{
    static const int8_t inverse[DG_ORIENT_COUNT][6] = {
        /* ax bx cx  ay by cy */
        {1, 0, 0, 0, 1, 0},   /* identity */
        {0, 1, 0, -1, 0, 2},  /* rot90: x = Y, y = h-1-X */
        {-1, 0, 1, 0, -1, 2}, /* rot180 */
        {0, -1, 1, 1, 0, 0},  /* rot270: x = w-1-Y, y = X */
        {-1, 0, 1, 0, 1, 0},  /* mirror x */
        {1, 0, 0, 0, -1, 2},  /* mirror y */
        {0, 1, 0, 1, 0, 0},   /* transpose */
        {0, -1, 1, -1, 0, 2}, /* anti-diagonal: x = w-1-Y, y = h-1-X */
    };
    const int8_t *m = inverse[o & 7];
    int64_t cx = m[2] == 1 ? w - 1 : m[2] == 2 ? h - 1 : 0, cy = m[5] == 1 ? w - 1 : m[5] == 2 ? h - 1 : 0;
    t->w = m[0] ? w : h; /* the orientations that swap the sides map x to Y */
    t->h = m[0] ? h : w;
    t->base = cy * w + cx;
    t->step_x = (int64_t)m[3] * w + m[0];
    t->step_y = (int64_t)m[4] * w + m[1];
}
/* dg_orient_point, inline for the generators' per-cell use: where cell p of a
 * w x h grid lands in orientation o. */
static inline dg_point dgi_orient_point(int32_t o, int32_t w, int32_t h, dg_point p)
{
    dg_point q = p;
    switch (o)
    {
    case DG_ORIENT_ROT90: q.x = h - 1 - p.y; q.y = p.x; break;
    case DG_ORIENT_ROT180: q.x = w - 1 - p.x; q.y = h - 1 - p.y; break;
    case DG_ORIENT_ROT270: q.x = p.y; q.y = w - 1 - p.x; break;
    case DG_ORIENT_MIRROR_X: q.x = w - 1 - p.x; break;
    case DG_ORIENT_MIRROR_Y: q.y = h - 1 - p.y; break;
    case DG_ORIENT_TRANSPOSE: q.x = p.y; q.y = p.x; break;
    case DG_ORIENT_ANTI: q.x = h - 1 - p.y; q.y = w - 1 - p.x; break;
    default: break;
    }
    return q;
}
/* dg_orient_sides for o in 0..7, inline for building the pick tables: side s
 * (N E S W = 0..3) goes to s + o (rotations) or to c - s (mirrors), mod 4. */
static inline int32_t dgi_orient_sides(int32_t sides, int32_t o)
{
    static const uint8_t mirror_turn[4] = {0, 2, 3, 1}; /* c of h, v, d, a */
    uint32_t m = (uint32_t)sides & 15u, turn = (uint32_t)o & 3u;
    if (o >= 4) /* s -> -s: N and S stay, E and W swap */
    {
        m = (m & 5u) | (m & 2u) << 2 | (m & 8u) >> 2;
        turn = mirror_turn[o & 3];
    }
    return (int32_t)(((m << turn) | (m >> (4 - turn))) & 15u);
}
/* 1 if orientation swaps width and height. Inline: generators ask per block. */
static inline int dgi_orient_swaps(int32_t orientation)
{
    return orientation == DG_ORIENT_ROT90 || orientation == DG_ORIENT_ROT270 ||
           orientation == DG_ORIENT_TRANSPOSE || orientation == DG_ORIENT_ANTI;
}
/* Allowed orientations with an oriented size of at most max_w x max_h. */
int32_t dgi_orient_fit(const dgi_prefab *p, int32_t orients, int32_t max_w, int32_t max_h);
/* Distinct allowed orientations of glyph grid g (w x h). */
int32_t dgi_orient_distinct(const uint8_t *g, int32_t w, int32_t h, int32_t allowed);
/* The same, given g's edge signatures (dgi_prefab.edge) or NULL: an
 * orientation whose border reads otherwise cannot leave g unchanged. */
int32_t dgi_orient_distinct_edges(const uint8_t *g, int32_t w, int32_t h, int32_t allowed,
                                  const uint64_t (*edge)[4]);
/* Number of set bits / index of the k-th set bit (-1 if none) of a small mask. */
static inline int32_t dgi_popcount(uint32_t m)
{
    int32_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}
static inline int32_t dgi_nth_bit(uint32_t m, int32_t k)
{
    for (int32_t i = 0; i < 32; i++)
        if ((m >> i) & 1u)
        {
            if (k == 0)
                return i;
            k--;
        }
    return -1;
}
/* Edge signatures of every orientation from per-glyph passability. */
void dgi_edges_compute(dgi_prefab *p, const uint8_t *g, const uint8_t *passable);
/* The same from the bit masks of the always-passable cells of each row
 * (maps of at most 64 cells a side: bit x of row y). */
void dgi_edges_from_rows(dgi_prefab *p, const uint64_t *passable_rows);

/* ---- use.c: resolving and writing one prefab ---------------------- */
#define DGI_STREAM_SUBST 0x5B57u
#define DGI_STREAM_PICK 0x71C4u
/* Resolves p's random cells (the cells holding a substituted glyph) from
 * seed: stored has their n stored glyphs, out gets the resolved ones. The
 * require counts (each adds its `fixed` count of the other cells) are
 * checked, retrying with derived seeds; DG_E_LIMIT if no outcome meets them. */
dg_status dgi_resolve_cells(const dg_prefab_set *set, const dgi_prefab *p, uint64_t seed,
                            const uint8_t *stored, size_t n, uint8_t *out);
/* Writes resolved glyphs g in orientation o with the top-left at (x, y),
 * clipped to grid; void cells are skipped. If pass is given (same size as grid)
 * it gets DG_TILE_FLOOR / DG_TILE_WALL by glyph class passability. */
void dgi_prefab_write(const dg_prefab_set *set, const dgi_prefab *p, const uint8_t *g,
                      int32_t o, dg_grid *grid, int32_t x, int32_t y, dg_grid *pass);
/* Appends the markers of resolved glyphs g (orientation o at (x, y)) to r,
 * with `room` (or the room containing them if room < -1). All or nothing. */
dg_status dgi_prefab_add_markers(const dg_prefab_set *set, const dgi_prefab *p,
                                 const uint8_t *g, int32_t o, int32_t x, int32_t y,
                                 const dg_grid *grid, dg_result *r, int32_t room);
/* Glyphs of p resolved from seed: the stored grid when nothing is random, else
 * buf (if buf_size is enough) or a heap copy returned in *heap (free it with
 * dgi_prefab_glyphs_free). NULL on error, with *st set. */
const uint8_t *dgi_prefab_glyphs(const dg_prefab_set *set, const dgi_prefab *p, uint64_t seed,
                                 uint8_t *buf, size_t buf_size, uint8_t **heap, dg_status *st);
void dgi_prefab_glyphs_free(const dg_prefab_set *set, const dgi_prefab *p, uint8_t *heap);
/* Builds the lookup tables of dg_prefab_pick after parsing. */
dg_status dgi_pick_build(dg_prefab_set *set);
/* 1 if prefab p carries the tag (NULL or "" matches all). */
int dgi_has_tag(const dg_prefab_set *set, const dgi_prefab *p, const char *tag);
/* Uniform 64-bit bounded draw: a 32-bit one (none for 0) when the bound fits.
 * Both inline and built only on core.h's rng, so this header calls
 * nothing of the files that include it. The wide one rejects draws above the
 * bound's power of two; the first 32-bit draw is the high half. */
static inline uint64_t dgi_below64_wide(dg_rng *rng, uint64_t bound)
{
    uint64_t mask = bound - 1;
    for (int shift = 1; shift < 64; shift *= 2)
        mask |= mask >> shift;
    for (;;)
    {
        uint64_t high = dgi_rng_next(rng);
        uint64_t v = ((high << 32) | dgi_rng_next(rng)) & mask;
        if (v < bound)
            return v;
    }
}
static inline uint64_t dgi_below64(dg_rng *rng, uint64_t bound)
{
    if (bound <= UINT32_MAX)
        return bound ? dgi_rng_below(rng, (uint32_t)bound) : 0;
    return dgi_below64_wide(rng, bound);
}

/* Lays n scratch arrays of the given byte sizes out in one block, each
 * starting 8-byte aligned: part[k] gets its start (NULL while block is NULL,
 * or for size 0). Returns the block size: call it with NULL, allocate, call
 * it again. */
static inline size_t dgi_carve(uint8_t *block, const size_t *size, uint8_t **part, int n)
{
    size_t at = 0;
    for (int k = 0; k < n; k++)
    {
        part[k] = block && size[k] ? block + at : NULL;
        at += (size[k] + 7) & ~(size_t)7;
    }
    return at;
}

/* ---- stamp.c: random cells and tiles-only stamping ---------------------- */
/* Lists every prefab's random cells (load time). The parser has counted
 * them (random_count) and each require's fixed count from the map's glyph
 * counts. */
dg_status dgi_random_build(dg_prefab_set *set);
/* Bytes of the set's random cell lists: the cells and one entry of slack,
 * then their glyphs (never empty, so never NULL + 0). */
static inline size_t dgi_random_bytes(const dg_prefab_set *set)
{
    return (set->random_total + 1) * sizeof(int32_t) + set->random_total;
}
/* A prefab without void cells is written from the tiles of its stored
 * glyphs (made on first use), resolving only its random cells: the tiles of
 * dgi_prefab_glyphs and dgi_prefab_write, much cheaper per stamp. */
typedef struct dgi_stamps {
    const dg_prefab_set *set;
    int32_t modes;          /* prefabs with one of these modes are stamped */
    int32_t stride;         /* of the grid stamped into */
    int32_t *made;          /* per prefab: offset of its stored tiles in arena + 1, 0: none yet */
    uint8_t *arena;
    size_t arena_size, arena_used;
    uint8_t *tiles;         /* one stamp's tiles */
    uint8_t *random;        /* one stamp's resolved random cells */
} dgi_stamps;
/* Scratch bytes for stamping the prefabs of the given mode bits. */
size_t dgi_stamps_size(const dg_prefab_set *set, int32_t modes);
/* Sets st up in block (dgi_stamps_size bytes) for a grid of the given stride. */
void dgi_stamps_init(dgi_stamps *st, const dg_prefab_set *set, int32_t modes, int32_t stride,
                     uint8_t *block);
/* Stamps prefab i in orientation o with its top-left at `at`, resolving its
 * random cells from seed: 1 done; -1 no re-roll met its require counts
 * (nothing written); 0 nothing done, the caller takes the general path
 * (another mode, void cells, or the room for stored tiles used up). */
int dgi_stamp(dgi_stamps *st, int32_t i, int32_t o, uint64_t seed, uint8_t *at);

/* ---- full.c: what the generators share ----------------------------------- */
#define DGI_STREAM_LAYOUT 0x1A70u
/* A generator writes into a scratch copy of the grid and a scratch result and
 * hands both over only on success, so errors leave the caller's data as it was. */
typedef struct dgi_gen {
    const dg_prefab_set *set;
    const dg_allocator *alloc;
    dg_grid g;      /* scratch tiles (stride = width) */
    dg_grid pass;   /* scratch passability by glyph class: FLOOR or WALL (if asked for) */
    uint8_t *mem;
    size_t mem_size;
    dg_result r;
    int record;     /* 0 when the caller wants no result: skip rooms, doors, markers, metrics */
    const dgi_mask *reserved; /* cells never copied out (NULL: none) */
    int finished;   /* 1: dgi_gen_finish ran, dgi_gen_end only copies out */
} dgi_gen;

/* keep: start from the caller's cells (and result, if keep_result). */
dg_status dgi_gen_begin(dgi_gen *gen, const dg_prefab_set *set, const dg_grid *grid,
                        const dg_result *result, const dg_allocator *a, int keep, int want_pass,
                        int keep_result);
/* Finishes the scratch result (start/exit from markers, metrics) before
 * dgi_gen_end, for a generator that still changes it (mixed's exit). */
dg_status dgi_gen_finish(dgi_gen *gen, int32_t start_room, dg_diag *diag);
/* Finishes the scratch result (unless dgi_gen_finish did) and, on success,
 * copies grid and result out. Frees the scratch either way. */
dg_status dgi_gen_end(dgi_gen *gen, dg_status st, dg_grid *grid, dg_result *result,
                      int32_t start_room, dg_diag *diag);
/* Writes resolved glyphs g of prefab index at (x, y) and records its room
 * (kind, parent), border doors and markers. */
dg_status dgi_gen_place(dgi_gen *gen, int32_t index, int32_t o, const uint8_t *g, int32_t x,
                        int32_t y, int32_t kind, int32_t parent);
/* 1 if the passable cells of gen->pass form at most one 4-connected region;
 * scratch holds dgi_gen_connected_scratch(width, height) bytes. */
int dgi_gen_connected(dgi_gen *gen, int32_t *scratch);
size_t dgi_gen_connected_scratch(int32_t w, int32_t h);
/* Joins the runs (start, end, label triples) of a row to the overlapping runs
 * of the row before it by union-find over parent; returns the joins made. */
int32_t dgi_join_runs(int32_t *parent, const int32_t *prev, int32_t prev_n, const int32_t *cur, int32_t n);
/* Fills every cell of the scratch tiles (and passability). */
void dgi_gen_fill(dgi_gen *gen, uint8_t tile, int passable);
/* Walls every open cell on the ring of q (a rect inside the grid), mends the
 * doors just inside that then lead nowhere, and drops the result's doors and
 * markers on cells so closed. */
void dgi_gen_close(dgi_gen *gen, dg_rect q);
/* The same around an empty rect q (a block left to the fill): walls the open
 * cells just outside it, mends the doors one further out. */
void dgi_gen_close_outside(dgi_gen *gen, dg_rect q);
/* Reserved cells become rock in the scratch, open cells touching one become
 * wall (the fill around the caller's area); one pass. */
void dgi_gen_seal(dgi_gen *gen, const dgi_mask *m);
/* Sets every prefab's `solid` (the always-passable cells form one
 * 4-connected region and every sometimes-passable cell touches one); at load
 * time, as the generators ask it of every candidate. dgi_map_index did it
 * for maps of at most 64 cells a side, this does the larger ones. DG_E_NOMEM. */
dg_status dgi_solid_build(dg_prefab_set *set);
/* At the end of a sound map g whose passability (p->certain, p->maybe and
 * the per-glyph `passable`) is known: its edge signatures and, for island
 * and jigsaw maps of at most 64 cells a side, its solidity (one pass over
 * the map serves both). */
void dgi_map_index(dgi_prefab *p, const uint8_t *g, const uint8_t *passable);
/* Weighted draw among n weights (0 entries skipped); -1 if they sum to 0. */
int32_t dgi_weighted_pick(const int64_t *weights, int32_t n, dg_rng *rng);
/* Uniform orientation among the bits of mask (-1 if empty). */
static inline int32_t dgi_orient_pick(int32_t mask, dg_rng *rng)
{
    static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    uint32_t m = (uint32_t)mask & 0xFFu, n = bits[m & 15u] + bits[m >> 4];
    if (!n)
        return -1;
    for (uint32_t k = dgi_rng_below(rng, n); k > 0; k--) /* drop the k lowest */
        m &= m - 1;
    return dgi_lowest_bit64(m);
}

/* The generators' entries with reserved cells (NULL: none, the public call). */
/* prefab-full: the prefab at the clear place nearest the centre, else DG_E_NOSPACE. (full.c) */
dg_status dgi_prefab_full_generate(dg_grid *grid, const dg_prefab_set *set,
                                   const dg_prefab_full_params *params, uint64_t seed,
                                   const dgi_mask *reserved, dg_result *result,
                                   const dg_allocator *allocator, dg_diag *diag);
/* prefab-jigsaw: blocks touching reserved cells stay fill, walled off. (jigsaw.c) */
dg_status dgi_prefab_jigsaw_generate(dg_grid *grid, const dg_prefab_set *set,
                                     const dg_prefab_jigsaw_params *params, uint64_t seed,
                                     const dgi_mask *reserved, dg_result *result,
                                     const dg_allocator *allocator, dg_diag *diag);
/* prefab-islands: buildings keep off reserved cells, the ground walled from them. (islands.c) */
dg_status dgi_prefab_islands_generate(dg_grid *grid, const dg_prefab_set *set,
                                      const dg_prefab_islands_params *params, uint64_t seed,
                                      const dgi_mask *reserved, dg_result *result,
                                      const dg_allocator *allocator, dg_diag *diag);
/* mixed.c: vaults land neither on reserved cells nor next to them. */
dg_status dgi_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                    const dg_prefab_mixed_params *params, uint64_t seed,
                                    const dgi_mask *reserved, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag);


#endif
