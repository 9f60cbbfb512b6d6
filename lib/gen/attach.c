/* Feature attachment generator: a room near the centre, then rooms and
 * corridors attached to the walls of what is already there, picked from a
 * frontier list of walls. See docs/attach.md. */
#include "gen/attach_state.h"

enum { STREAM_LAYOUT = 0x61747461, STREAM_LOOPS = 0x6C6F6F70, STREAM_SHAPES = 0x73686170 };

#define GROWTH_WINDOW 4       /* newest/oldest growth picks among this many walls */
#define DERIVED_CELLS_PER_FEATURE 16
#define DERIVED_ATTEMPTS_PER_FEATURE 50
#define TRIES_ROOM_WALL 1     /* attempts per frontier wall: rooms' walls ... */
#define TRIES_CORRIDOR_END 2  /* ... and a corridor's cells, beside or beyond its end */
#define DEAD_END_TRIES 2      /* room policy: extra room attempts at a corridor's end */
#define MAX_CHAIN 8           /* corridors in a row, each grown from the last one's end */

void dg_attach_defaults(dg_attach_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_attach_table, p); /* every field: the rows of core/params.c */
}

/* Under the prune and room policies a corridor stays only if something
 * attaches at its far end, tried as soon as it is carved: nothing is ever
 * left dangling, so no pass has to cut corridors back and regrow after. */
static int eager_ends(const att_ctx *c)
{
    return c->p->dead_ends != DG_DEAD_ENDS_KEEP;
}

/* ---- validation ------------------------------------------------------------ */

static dg_status check_range(dg_diag *diag, const char *name, int32_t v, int32_t lo, int32_t hi)
{
    if (v >= lo && v <= hi)
        return DG_OK;
    return dgi_fail(diag, DG_E_INVALID, "attach: %s is %d, must be in %d..%d", name, (int)v,
                    (int)lo, (int)hi);
}

static dg_status check_order(dg_diag *diag, const char *lo_name, int32_t lo, const char *hi_name,
                             int32_t hi)
{
    if (lo <= hi)
        return DG_OK;
    return dgi_fail(diag, DG_E_INVALID, "attach: %s (%d) is greater than %s (%d)", lo_name,
                    (int)lo, hi_name, (int)hi);
}

static dg_status validate(const dg_attach_params *p, const dg_grid *g, dg_diag *diag)
{
    struct { const char *name; int32_t v, lo, hi; } ranges[] = {
        {"room_min_w", p->room_min_w, 1, DG_GRID_MAX_DIM},
        {"room_max_w", p->room_max_w, 1, DG_GRID_MAX_DIM},
        {"room_min_h", p->room_min_h, 1, DG_GRID_MAX_DIM},
        {"room_max_h", p->room_max_h, 1, DG_GRID_MAX_DIM},
        {"corridor_min", p->corridor_min, 1, DG_GRID_MAX_DIM},
        {"corridor_max", p->corridor_max, 1, DG_GRID_MAX_DIM},
        {"max_features", p->max_features, 0, INT32_MAX},
        {"room_after_corridor", p->room_after_corridor, 0, 1000},
        {"target_floor", p->target_floor, 0, 1000},
        {"max_attempts", p->max_attempts, 0, INT32_MAX},
        {"max_failures", p->max_failures, 0, INT32_MAX},
        {"growth", p->growth, DG_GROWTH_UNIFORM, DG_GROWTH_OLDEST},
        {"loop_min_gain", p->loop_min_gain, 0, (int32_t)DG_GRID_MAX_CELLS},
        {"loop_max", p->loop_max, 0, INT32_MAX},
        {"dead_ends", p->dead_ends, DG_DEAD_ENDS_KEEP, DG_DEAD_ENDS_ROOM},
        {"doors", p->doors, DG_DOORS_ALL, DG_DOORS_NONE},
        {"dense", p->dense, 0, 1},
        {"shape_share", p->shape_share, 0, 1000},
        {"shapes", p->shapes, 0, 127},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
    {
        dg_status st = check_range(diag, ranges[i].name, ranges[i].v, ranges[i].lo, ranges[i].hi);
        if (st != DG_OK)
            return st;
    }
    dg_status st = check_order(diag, "room_min_w", p->room_min_w, "room_max_w", p->room_max_w);
    if (st == DG_OK)
        st = check_order(diag, "room_min_h", p->room_min_h, "room_max_h", p->room_max_h);
    if (st == DG_OK)
        st = check_order(diag, "corridor_min", p->corridor_min, "corridor_max", p->corridor_max);
    if (st != DG_OK)
        return st;
    if (g->width < p->room_min_w + 2 || g->height < p->room_min_h + 2)
        return dgi_fail(diag, DG_E_TOO_SMALL,
                        "attach: a %dx%d map cannot hold a %dx%d room and its walls "
                        "(needs at least %dx%d)",
                        (int)g->width, (int)g->height, (int)p->room_min_w, (int)p->room_min_h,
                        (int)p->room_min_w + 2, (int)p->room_min_h + 2);
    return DG_OK;
}

/* ---- scratch memory ---------------------------------------------------------- */

/* The feature and attempt budgets and the floor target, for `cells` cells
 * the map may use (all of them, or those left around the reserved ones). */
static void set_limits(att_ctx *c, int64_t cells)
{
    const dg_attach_params *p = c->p;
    c->budget = p->max_features > 0 ? p->max_features
                                    : (int32_t)DG_MAX(1, cells / DERIVED_CELLS_PER_FEATURE);
    c->max_attempts = p->max_attempts > 0
                          ? p->max_attempts
                          : (int32_t)DG_MIN((int64_t)INT32_MAX,
                                            (int64_t)c->budget * DERIVED_ATTEMPTS_PER_FEATURE);
    /* floor cells that meet target_floor permille (rounded up), or never */
    c->target_cells = p->target_floor > 0
                          ? (int32_t)(((int64_t)p->target_floor * cells + 999) / 1000)
                          : INT32_MAX;
}

static dg_status setup(att_ctx *c, const dg_grid *g, const dg_attach_params *p,
                       const dgi_mask *reserved, const dg_allocator *a)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->a = a;
    c->reserved = reserved;
    c->w = g->width;
    c->h = g->height;
    c->stride = g->width + 2;
    c->room_max_w = DG_MIN(p->room_max_w, c->w - 2);
    c->room_max_h = DG_MIN(p->room_max_h, c->h - 2);
    int64_t cells = (int64_t)c->w * c->h;
    set_limits(c, cells);
    /* One allocation: the map, then the lists at a first guess of their size
     * (which saves most regrowth); a list that outgrows it moves out. Loops
     * add about a door per eight features; the frontier peaks near one wall
     * per feature on small maps and far below that on large ones (plus the
     * first room's four walls, pushed before anything reserves room). */
    int32_t guess = (int32_t)DG_MIN((int64_t)c->budget, cells / 48 + 8);
    int32_t guess_doors = guess + guess / 8, guess_sites = 2 * guess + 4;
    size_t map = ((size_t)c->stride * (size_t)(c->h + 2) + 7) & ~(size_t)7;
    size_t feats = (size_t)guess * sizeof *c->feats, doors = (size_t)guess_doors * sizeof *c->doors;
    size_t sites = (size_t)guess_sites * sizeof *c->sites;
    c->fill_w = p->dense ? 0 : (c->w >> ATT_BLOCK_SHIFT) + 1;
    c->fill_h = p->dense ? 0 : (c->h >> ATT_BLOCK_SHIFT) + 1;
    size_t fill = (size_t)c->fill_w * (size_t)c->fill_h * sizeof *c->fill;
    c->mem_size = map + feats + doors + sites + fill;
    c->mem = dgi_alloc(a, c->mem_size);
    if (!c->mem)
        return DG_E_NOMEM;
    c->cell = c->mem + c->stride + 1;
    c->feats = (att_feat *)(void *)(c->mem + map);
    c->doors = (att_door *)(void *)(c->mem + map + feats);
    c->sites = (att_site *)(void *)(c->mem + map + feats + doors);
    c->fill = (int32_t *)(void *)(c->mem + map + feats + doors + sites);
    memset(c->fill, 0, fill);
    c->cap_feat = guess;
    c->cap_door = guess_doors;
    c->cap_site = guess_sites;
    c->borrowed[0] = c->borrowed[1] = c->borrowed[2] = 1;
    for (int d = 0; d < 4; d++)
    {
        c->step[d] = (ptrdiff_t)att_dy(d) * c->stride + att_dx(d);
        c->along[d] = (d == DG_DIR_N || d == DG_DIR_S) ? 1 : c->stride;
    }
    return DG_OK;
}

static void release(att_ctx *c)
{
    if (!c->borrowed[0])
        dgi_free(c->a, c->feats, (size_t)c->cap_feat * sizeof *c->feats);
    if (!c->borrowed[1])
        dgi_free(c->a, c->doors, (size_t)c->cap_door * sizeof *c->doors);
    if (!c->borrowed[2])
        dgi_free(c->a, c->sites, (size_t)c->cap_site * sizeof *c->sites);
    dgi_free(c->a, c->mem, c->mem_size);
    dgi_free(c->a, c->heap, (size_t)c->cap_heap * sizeof *c->heap);
    dgi_free(c->a, c->touched, (size_t)c->cap_touched * sizeof *c->touched);
}

/* Room for one more feature, its door and its walls, before anything is carved. */
static dg_status reserve_feature(att_ctx *c)
{
    dg_status st = DG_OK;
    if (c->nfeat + 1 > c->cap_feat)
        ATT_GROW(c, c->feats, c->cap_feat, c->nfeat + 1, &c->borrowed[0], st);
    if (st == DG_OK && c->ndoor + 1 > c->cap_door)
        ATT_GROW(c, c->doors, c->cap_door, c->ndoor + 1, &c->borrowed[1], st);
    if (st == DG_OK && c->site_end + 4 > c->cap_site)
        ATT_GROW(c, c->sites, c->cap_site, c->site_end + 4, &c->borrowed[2], st);
    return st;
}

/* The scratch map: void cells inside a border of ATT_EDGE. */
static void clear_map(att_ctx *c)
{
    memset(c->mem, ATT_EDGE, (size_t)c->stride);
    for (int32_t y = 0; y < c->h; y++)
    {
        uint8_t *row = att_at(c, -1, y);
        row[0] = ATT_EDGE;
        memset(row + 1, DG_TILE_VOID, (size_t)c->w);
        row[c->w + 1] = ATT_EDGE;
    }
    memset(att_at(c, -1, c->h), ATT_EDGE, (size_t)c->stride);
}

/* 1 if the eight bytes at p are all 0. */
static inline int zero8(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v == 0;
}

/* Reserved cells become ATT_EDGE, like the map's edge: nothing carves, walls
 * or opens them, and every open cell keeps a wall of its own between itself
 * and them. They count as full in the growth blocks, so growth leans away
 * from them. Returns how many there are. */
static int64_t mark_reserved(att_ctx *c)
{
    int64_t n = 0;
    for (int32_t y = 0; y < c->h; y++)
    {
        uint8_t *row = att_at(c, 0, y);
        const uint8_t *m = c->reserved->cells + (size_t)y * (size_t)c->reserved->stride;
        for (int32_t x = 0; x < c->w; x++)
        {
            if (x + 8 <= c->w && zero8(m + x))
            {
                x += 7; /* eight free cells at once */
                continue;
            }
            if (m[x])
            {
                row[x] = ATT_EDGE;
                n++;
                if (c->fill_w > 0)
                    c->fill[(y >> ATT_BLOCK_SHIFT) * c->fill_w + (x >> ATT_BLOCK_SHIFT)]++;
            }
        }
    }
    return n;
}

/* ---- features, doors and the frontier ----------------------------------------- */

/* Not dense: counts a feature's floor in the block of its centre. */
static void add_fill(att_ctx *c, const att_feat *f, int32_t cells)
{
    if (c->fill_w > 0)
        c->fill[((f->y + f->h / 2) >> ATT_BLOCK_SHIFT) * c->fill_w + ((f->x + f->w / 2) >> ATT_BLOCK_SHIFT)] +=
            cells;
}

/* How full the map is where wall s faces: the floor counted in the block a
 * few cells out from its middle (lower is emptier). */
static int32_t site_fill(const att_ctx *c, const att_site *s)
{
    int vertical = s->side == DG_DIR_W || s->side == DG_DIR_E;
    int32_t x = s->x + (vertical ? 0 : s->len / 2) + att_dx(s->side) * 6;
    int32_t y = s->y + (vertical ? s->len / 2 : 0) + att_dy(s->side) * 6;
    x = DG_MAX(0, DG_MIN(x, c->w - 1));
    y = DG_MAX(0, DG_MIN(y, c->h - 1));
    return c->fill[(y >> ATT_BLOCK_SHIFT) * c->fill_w + (x >> ATT_BLOCK_SHIFT)];
}

static int32_t new_feature(att_ctx *c, int kind, int32_t parent, int32_t x, int32_t y, int32_t w,
                           int32_t h, int dir)
{
    att_feat *f = &c->feats[c->nfeat];
    f->x = (uint16_t)x;
    f->y = (uint16_t)y;
    f->w = (uint16_t)w;
    f->h = (uint16_t)h;
    f->parent = parent;
    f->door = -1;
    f->doors_head = -1;
    f->end_child = -1;
    f->out = -1;
    f->cells = w * h;
    f->kind = (uint8_t)kind;
    f->shape = DG_SHAPE_RECT;
    f->dir = (uint8_t)dir;
    f->no_tips = 0;
    c->floor += w * h;
    add_fill(c, f, w * h);
    c->live++;
    return c->nfeat++;
}

/* Unless dense, pieces keep a cell of rock between their walls (the map's
 * edge counts as rock): what makes corridors never run side by side. */
static inline int gap_ok(uint8_t v)
{
    return v == DG_TILE_VOID || v == ATT_EDGE;
}

/* 1 if the wall cell at p can become a door: rock behind it and walls (or rock)
 * on both sides of it and of the cell behind it. */
static inline int door_ok(const uint8_t *p, ptrdiff_t along, ptrdiff_t out)
{
    return p[0] == DG_TILE_WALL && p[out] == DG_TILE_VOID && att_solid(p[-along]) &&
           att_solid(p[along]) && att_solid(p[out - along]) && att_solid(p[out + along]);
}

/* Where a wall's cells start in the scratch map, and the steps along it and out of it. */
static const uint8_t *wall_cells(const att_ctx *c, const att_site *s, ptrdiff_t *along,
                                 ptrdiff_t *out)
{
    *along = c->along[s->side];
    *out = c->step[s->side];
    return att_at(c, s->x, s->y);
}

static int32_t usable_doors(const att_ctx *c, const att_site *s)
{
    ptrdiff_t along, out;
    const uint8_t *p = wall_cells(c, s, &along, &out);
    int32_t usable = 0;
    for (int32_t k = 0; k < s->len; k++)
        usable += door_ok(p + k * along, along, out);
    return usable;
}

/* Adds to the frontier the wall of feature feat facing side that starts at
 * (x, y) and runs len cells; it gets a few attempts, placed or not. */
static void push_site(att_ctx *c, int32_t feat, int kind, int side, int32_t x, int32_t y,
                      int32_t len)
{
    att_site *s = &c->sites[c->site_end++];
    s->x = (uint16_t)x;
    s->y = (uint16_t)y;
    s->len = (uint16_t)len;
    s->feat = feat;
    s->side = (uint8_t)side;
    s->kind = (uint8_t)kind;
    s->tries = kind == ATT_ROOM || len > 1 ? TRIES_ROOM_WALL : TRIES_CORRIDOR_END;
}

/* A room's four walls, in direction order. */
static void push_room_walls(att_ctx *c, int32_t f, int32_t x, int32_t y, int32_t w, int32_t h)
{
    push_site(c, f, ATT_ROOM, DG_DIR_N, x, y - 1, w);
    push_site(c, f, ATT_ROOM, DG_DIR_E, x + w, y, h);
    push_site(c, f, ATT_ROOM, DG_DIR_S, x, y + h, w);
    push_site(c, f, ATT_ROOM, DG_DIR_W, x - 1, y, h);
}

/* A choice among the usable door cells of a wall, or -1 if none: one random
 * probe (on a room's wall in the middle half, where every room shape keeps
 * floor), and a uniform choice by a scan of the wall only when it misses. */
static int32_t pick_door(att_ctx *c, const att_site *s)
{
    ptrdiff_t along, out;
    const uint8_t *p = wall_cells(c, s, &along, &out);
    int32_t margin = s->kind == ATT_ROOM ? s->len / 4 : 0;
    int32_t k = margin + att_below(c, s->len - 2 * margin);
    if (door_ok(p + k * along, along, out))
        return k;
    if (s->len == 1)
        return -1;
    int32_t usable = usable_doors(c, s);
    if (usable == 0)
        return -1;
    int32_t pick = att_below(c, usable);
    for (k = 0;; k++)
        if (door_ok(p + k * along, along, out) && pick-- == 0)
            return k;
}

#if defined(__GNUC__) || defined(__clang__)
#define ATT_PREFETCH(p) __builtin_prefetch(p)
#else
#define ATT_PREFETCH(p) ((void)(p))
#endif

/* Frontier index that random word w names among the n entries from site_head. */
static inline int32_t site_of_word(const att_ctx *c, uint32_t w, uint32_t n)
{
    return c->site_head + (int32_t)(((uint64_t)w * n) >> 32);
}

/* Starts loading what an attempt at frontier entry i reads first, its wall
 * and its feature, once the entry itself is in cache. */
static inline void prefetch_site(const att_ctx *c, int32_t i)
{
    const att_site *s = &c->sites[i];
    ATT_PREFETCH(att_at(c, s->x, s->y));
    ATT_PREFETCH(&c->feats[s->feat]);
}

/* Uniform pick whose random word was drawn two picks early, so the entry it
 * will probably name can be on its way from memory while the picks before it
 * run. Lemire's method, so still unbiased. */
static int32_t pick_uniform(att_ctx *c)
{
    uint32_t n = (uint32_t)(c->site_end - c->site_head);
    uint64_t m = (uint64_t)c->ahead[0] * n;
    if ((uint32_t)m < n)
    {
        uint32_t threshold = (uint32_t)(-n) % n;
        while ((uint32_t)m < threshold)
            m = (uint64_t)dgi_rng_next(&c->rng) * n;
    }
    c->ahead[0] = c->ahead[1];
    c->ahead[1] = dgi_rng_next(&c->rng);
    ATT_PREFETCH(&c->sites[site_of_word(c, c->ahead[1], n)]);
    return c->site_head + (int32_t)(m >> 32);
}

/* Newest first, not dense: the emptiest-facing of the newest walls (ties in
 * a random order), so the dungeon winds on into empty parts of the map. */
static int32_t pick_newest_emptiest(att_ctx *c, int32_t n)
{
    int32_t first = att_below(c, n), best = -1, best_fill = INT32_MAX;
    for (int32_t k = 0; k < n; k++)
    {
        int32_t i = c->site_end - 1 - (first + k) % n;
        int32_t fill = site_fill(c, &c->sites[i]);
        if (fill < best_fill)
        {
            best = i;
            best_fill = fill;
        }
    }
    return best;
}

/* Frontier index to try next, by growth bias; unless dense, uniform growth
 * takes the emptier-facing of two walls, which spreads it over the map. */
static int32_t pick_site(att_ctx *c)
{
    int32_t n = c->site_end - c->site_head;
    switch (c->p->growth)
    {
    case DG_GROWTH_NEWEST:
        if (c->fill_w > 0)
            return pick_newest_emptiest(c, DG_MIN(n, GROWTH_WINDOW));
        return c->site_end - 1 - att_below(c, DG_MIN(n, GROWTH_WINDOW));
    case DG_GROWTH_OLDEST:
        return c->site_head + att_below(c, DG_MIN(n, GROWTH_WINDOW));
    default:
        if (c->fill_w > 0)
        { /* both entries were fetched an attempt ago: load both walls at once */
            int32_t a = pick_uniform(c), b = pick_uniform(c);
            prefetch_site(c, a);
            prefetch_site(c, b);
            return site_fill(c, &c->sites[b]) < site_fill(c, &c->sites[a]) ? b : a;
        }
        int32_t i = pick_uniform(c); /* the next pick's entry was fetched a pick ago */
        prefetch_site(c, site_of_word(c, c->ahead[0], (uint32_t)n));
        return i;
    }
}

/* Removes frontier entry i, keeping creation order where the bias needs it. */
static void retire_site(att_ctx *c, int32_t i)
{
    att_site *s = c->sites;
    switch (c->p->growth)
    {
    case DG_GROWTH_NEWEST:
        memmove(s + i, s + i + 1, (size_t)(c->site_end - i - 1) * sizeof *s);
        c->site_end--;
        break;
    case DG_GROWTH_OLDEST:
        memmove(s + c->site_head + 1, s + c->site_head, (size_t)(i - c->site_head) * sizeof *s);
        c->site_head++;
        break;
    default:
        s[i] = s[c->site_end - 1];
        c->site_end--;
        break;
    }
}

/* ---- fitting and carving -------------------------------------------------------- */

/* A short row p[0..n), 0 < n < 8, as one word: every byte of the row is in
 * it (some twice) and the rest is 0, which both tests below accept. */
static inline uint64_t short_row(const uint8_t *p, int32_t n)
{
    if (n < 4)
        return p[0] | (uint32_t)p[n / 2] << 8 | (uint32_t)p[n - 1] << 16;
    uint32_t a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + n - 4, sizeof b);
    return a | (uint64_t)b << 32;
}

/* Every byte of p[0..n) is rock (0), eight at a time; the last word overlaps
 * the one before it. */
static int row_void(const uint8_t *p, int32_t n)
{
    if (n < 8)
        return short_row(p, n) == 0;
    uint64_t v;
    for (int32_t i = 0; i < n - 8; i += 8)
    {
        memcpy(&v, p + i, sizeof v);
        if (v)
            return 0;
    }
    memcpy(&v, p + n - 8, sizeof v);
    return v == 0;
}

/* Bytes of v that are neither rock nor wall (0 or 3): each byte must be below
 * 4 with its bits 0 and 1 equal. */
static inline uint64_t not_solid(uint64_t v)
{
    return (v & 0xFCFCFCFCFCFCFCFCull) | ((v ^ (v >> 1)) & 0x0101010101010101ull);
}

/* No byte of p[0..n) is flagged by bad, eight bytes at a time, like row_void;
 * inlined into each caller, so bad is a constant there. */
static inline int row_clear(const uint8_t *p, int32_t n, uint64_t (*bad)(uint64_t))
{
    if (n < 8)
        return bad(short_row(p, n)) == 0;
    uint64_t v;
    for (int32_t i = 0; i < n - 8; i += 8)
    {
        memcpy(&v, p + i, sizeof v);
        if (bad(v))
            return 0;
    }
    memcpy(&v, p + n - 8, sizeof v);
    return bad(v) == 0;
}

/* Every byte of p[0..n) is rock or wall. */
static int row_solid(const uint8_t *p, int32_t n)
{
    return row_clear(p, n, not_solid);
}

/* Bytes of v that are neither rock nor the map's edge (0 or 0xFF): each byte
 * must have all its bits equal. */
static inline uint64_t not_gap(uint64_t v)
{
    return (v ^ (v >> 1)) & 0x7F7F7F7F7F7F7F7Full;
}

/* Every byte of p[0..n) is rock or the map's edge. */
static int row_gap(const uint8_t *p, int32_t n)
{
    return row_clear(p, n, not_gap);
}

/* Cells p[0], p[step], ... p[(n-1)*step] are all rock or the map's edge. */
static int line_gap(const uint8_t *p, ptrdiff_t step, int32_t n)
{
    int bad = 0;
    for (int32_t i = 0; i < n; i++)
        bad |= (uint8_t)(p[i * step] + 1) > 1; /* neither VOID (0) nor ATT_EDGE (255) */
    return !bad;
}

/* Not dense: the frame two cells around the interior (x, y, w, h) is rock,
 * except on the side facing back (dir points from the door into the room):
 * there the ring may meet the walls of what the door opens from (its two end
 * cells of the frame must be solid), and the line behind it is that piece's
 * own. The interior lies inside the map, so the frame lies in the scratch map. */
static int gap_clear(const att_ctx *c, int32_t x, int32_t y, int32_t w, int32_t h, int dir)
{
    int32_t x0 = x - 2, y0 = y - 2, x1 = x + w + 1, y1 = y + h + 1;
    int back = (dir + 2) & 3;
    const uint8_t *r0, *r1; /* the back ring's two cells on the frame */
    switch (back)
    {
    case DG_DIR_S: y1 -= 2; r0 = att_at(c, x0, y1 + 1); r1 = att_at(c, x1, y1 + 1); break;
    case DG_DIR_N: y0 += 2; r0 = att_at(c, x0, y0 - 1); r1 = att_at(c, x1, y0 - 1); break;
    case DG_DIR_E: x1 -= 2; r0 = att_at(c, x1 + 1, y0); r1 = att_at(c, x1 + 1, y1); break;
    default: x0 += 2; r0 = att_at(c, x0 - 1, y0); r1 = att_at(c, x0 - 1, y1); break;
    }
    if (!(att_solid(*r0) || *r0 == ATT_EDGE) || !(att_solid(*r1) || *r1 == ATT_EDGE))
        return 0;
    ptrdiff_t s = c->stride;
    return (back == DG_DIR_N || row_gap(att_at(c, x0, y0), x1 - x0 + 1)) &&
           (back == DG_DIR_S || row_gap(att_at(c, x0, y1), x1 - x0 + 1)) &&
           (back == DG_DIR_W || line_gap(att_at(c, x0, y0), s, y1 - y0 + 1)) &&
           (back == DG_DIR_E || line_gap(att_at(c, x1, y0), s, y1 - y0 + 1));
}

/* 1 if the interior (x, y, w, h) is untouched rock and its one-cell ring lies
 * inside the map on rock or walls (unless dense, with rock beyond: gap_clear).
 * Cheap edges first, then the rows. */
static int room_fits(const att_ctx *c, int32_t x, int32_t y, int32_t w, int32_t h, int dir)
{
    if (x < 1 || y < 1 || x + w > c->w - 1 || y + h > c->h - 1)
        return 0;
    if (!c->p->dense && !gap_clear(c, x, y, w, h, dir))
        return 0;
    if (!row_solid(att_at(c, x - 1, y - 1), w + 2) || !row_solid(att_at(c, x - 1, y + h), w + 2))
        return 0;
    for (int32_t j = 0; j < h; j++)
    {
        const uint8_t *row = att_at(c, x - 1, y + j);
        if (!att_solid(row[0]) || !att_solid(row[w + 1]))
            return 0;
    }
    for (int32_t j = 0; j < h; j++)
        if (!row_void(att_at(c, x, y + j), w))
            return 0;
    return 1;
}

static void carve_room(att_ctx *c, int32_t x, int32_t y, int32_t w, int32_t h)
{
    memset(att_at(c, x - 1, y - 1), DG_TILE_WALL, (size_t)w + 2);
    memset(att_at(c, x - 1, y + h), DG_TILE_WALL, (size_t)w + 2);
    for (int32_t j = 0; j < h; j++)
    {
        uint8_t *row = att_at(c, x - 1, y + j);
        row[0] = DG_TILE_WALL;
        memset(row + 1, DG_TILE_FLOOR, (size_t)w);
        row[w + 1] = DG_TILE_WALL;
    }
}

/* Joins new feature f to parent through the wall cell (x, y). */
static int32_t connect(att_ctx *c, int32_t parent, int32_t f, int32_t x, int32_t y)
{
    int32_t d = dgi_att_door_add(c, x, y, parent, f);
    c->feats[f].door = d;
    att_feat *pf = &c->feats[parent];
    if (pf->kind == ATT_CORRIDOR)
    {
        const att_door *o = &c->doors[pf->door];
        int32_t cap = att_corridor_len(pf) + 1; /* the step of the cell beyond its end */
        if (x == o->x + att_dx(pf->dir) * cap && y == o->y + att_dy(pf->dir) * cap)
            pf->end_child = f;
    }
    return d;
}

/* Interior cells between the wall cell (x, y) and the map border in direction
 * dir (the border row or column itself can only hold walls). */
static int32_t space_to_border(const att_ctx *c, int32_t x, int32_t y, int dir)
{
    switch (dir)
    {
    case DG_DIR_N:
        return y - 1;
    case DG_DIR_S:
        return c->h - 2 - y;
    case DG_DIR_W:
        return x - 1;
    default:
        return c->w - 2 - x;
    }
}

/* Rock cells after p in steps of step, at most limit. The first other cell is
 * a wall or the border (rock always lies at least one wall away from floor). */
static int32_t rock_run(const uint8_t *p, ptrdiff_t step, int32_t limit)
{
    int32_t n = 0;
    while (n < limit && p[(n + 1) * step] == DG_TILE_VOID)
        n++;
    return n;
}

/* Rock a room may take after p in steps of step, at most limit: all of
 * rock_run when dense, else short of the ring and gap that must separate it
 * from whatever stops the run (only the ring before the map's edge). */
static int32_t room_run(const att_ctx *c, const uint8_t *p, ptrdiff_t step, int32_t limit)
{
    if (c->p->dense)
        return rock_run(p, step, limit);
    int32_t n = rock_run(p, step, limit + 2);
    if (n >= limit + 2)
        return limit;
    int32_t keep = p[(n + 1) * step] == ATT_EDGE ? n - 1 : n - 2;
    return DG_MAX(0, DG_MIN(limit, keep));
}

#define NO_ROOM_HERE (-2) /* place_room: not even the smallest room, and nothing drawn */

/* A room of at most rw x rh behind the door (dx, dy) facing dir. Its depth is
 * cut to the rock straight ahead of the door, its width to the rock beside the
 * door in its first row (never below the minimums); it slides uniformly within
 * that span so the door opens into it, and the whole rectangle is checked last.
 * 1 placed, 0 the rectangle did not fit, -1 no memory, NO_ROOM_HERE: the rock
 * ahead or beside is short of the minimums, for any smaller size too (the
 * runs only shrink with the size asked), and no random draw was made. */
static int place_room(att_ctx *c, int32_t parent, int32_t dx, int32_t dy, int dir, int32_t rw,
                      int32_t rh)
{
    const dg_attach_params *p = c->p;
    int vertical = dir == DG_DIR_N || dir == DG_DIR_S;
    int32_t pos = vertical ? dx : dy, limit = vertical ? c->w : c->h; /* along the wall */
    if (pos < 1 || pos > limit - 2)
        return NO_ROOM_HERE; /* a door in the border's corner: no room inside covers it */
    const uint8_t *door = att_at(c, dx, dy);
    ptrdiff_t out = c->step[dir], along = c->along[dir];
    int32_t deepest = DG_MIN(vertical ? rh : rw, space_to_border(c, dx, dy, dir));
    int32_t depth = room_run(c, door, out, deepest);
    if (depth < (vertical ? p->room_min_h : p->room_min_w))
        return NO_ROOM_HERE;
    int32_t width = vertical ? rw : rh;
    int32_t before = room_run(c, door + out, -along, DG_MIN(width - 1, pos - 1));
    int32_t after = room_run(c, door + out, along, DG_MIN(width - 1, limit - 2 - pos));
    width = DG_MIN(width, before + after + 1);
    if (width < (vertical ? p->room_min_w : p->room_min_h))
        return NO_ROOM_HERE;
    int32_t lo = pos - before, hi = pos + after - width + 1; /* where the room may start */
    int32_t mlo = DG_MAX(lo, pos - (width - 1 - width / 4)), mhi = DG_MIN(hi, pos - width / 4);
    if (mlo <= mhi) /* the door in the middle half of the wall, where every shape has floor */
    {
        lo = mlo;
        hi = mhi;
    }
    int32_t start = att_range(c, lo, hi);
    int32_t x, y;
    if (vertical)
    {
        rw = width;
        rh = depth;
        x = start;
        y = dir == DG_DIR_N ? dy - rh : dy + 1;
    }
    else
    {
        rw = depth;
        rh = width;
        x = dir == DG_DIR_W ? dx - rw : dx + 1;
        y = start;
    }
    if (!room_fits(c, x, y, rw, rh, dir))
        return 0;
    if (reserve_feature(c) != DG_OK)
        return -1;
    carve_room(c, x, y, rw, rh);
    int32_t f = new_feature(c, ATT_ROOM, parent, x, y, rw, rh, dir);
    (void)connect(c, parent, f, dx, dy);
    push_room_walls(c, f, x, y, rw, rh);
    return 1;
}

/* A room side in lo..hi: the third of three draws, uniform over the range.
 * It was written as DG_MAX of two draws (meant as the larger of the two),
 * which draws the winning one again; the two compared draws are the same
 * call, so the side is the third draw whichever runs first. Kept draw for
 * draw so every map stays the same until an output series makes it the
 * larger of two (docs/attach.md, step 13). */
static int32_t room_side(att_ctx *c, int32_t lo, int32_t hi)
{
    (void)att_range(c, lo, hi);
    (void)att_range(c, lo, hi);
    return att_range(c, lo, hi);
}

/* A room of the drawn size, else of the smallest size, behind door (x, y).
 * 1 placed, 0 did not fit, -1 no memory. */
static int attach_room(att_ctx *c, int32_t parent, int32_t x, int32_t y, int dir)
{
    const dg_attach_params *p = c->p;
    int32_t rw = room_side(c, p->room_min_w, c->room_max_w);
    int32_t rh = room_side(c, p->room_min_h, c->room_max_h);
    int placed = place_room(c, parent, x, y, dir, rw, rh);
    if (placed == 0 && (rw > p->room_min_w || rh > p->room_min_h))
        placed = place_room(c, parent, x, y, dir, p->room_min_w, p->room_min_h);
    return placed == NO_ROOM_HERE ? 0 : placed;
}

/* A solid cell is a wall iff one of its 8 neighbours is passable, else rock:
 * re-derives the rectangle (x0, y0)-(x1, y1) after floor was taken back. */
static void reshape_walls(att_ctx *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    static const uint8_t pass[256] = {[DG_TILE_FLOOR] = 1, [DG_TILE_CORRIDOR] = 1,
                                      [DG_TILE_DOOR] = 1};
    ptrdiff_t s = c->stride;
    for (int32_t y = y0; y <= y1; y++)
    {
        uint8_t *p = att_at(c, x0, y);
        for (int32_t x = x0; x <= x1; x++, p++)
        {
            if (pass[*p])
                continue;
            int near = pass[p[-s - 1]] | pass[p[-s]] | pass[p[-s + 1]] | pass[p[-1]] |
                       pass[p[1]] | pass[p[s - 1]] | pass[p[s]] | pass[p[s + 1]];
            *p = near ? DG_TILE_WALL : DG_TILE_VOID;
        }
    }
}

/* Removes corridor fi, the newest feature, with its junction and walls, as if
 * it had never been placed (nothing attached to it yet). */
static void take_back(att_ctx *c, int32_t fi)
{
    att_feat *f = &c->feats[fi];
    const att_door *o = &c->doors[f->door];
    int32_t len = att_corridor_len(f), ux = att_dx(f->dir), uy = att_dy(f->dir);
    for (int32_t k = 1; k <= len; k++)
        *att_at(c, o->x + ux * k, o->y + uy * k) = DG_TILE_VOID;
    *att_at(c, o->x, o->y) = DG_TILE_WALL;
    int32_t bx = o->x + ux * (len + 1), by = o->y + uy * (len + 1); /* its cap */
    reshape_walls(c, DG_MIN(o->x, bx) - (uy != 0), DG_MIN(o->y, by) - (ux != 0),
                  DG_MAX(o->x, bx) + (uy != 0), DG_MAX(o->y, by) + (ux != 0));
    att_feat *pf = &c->feats[f->parent];
    pf->doors_head = o->next_a;
    if (pf->end_child == fi)
        pf->end_child = -1;
    c->floor -= len + 1;
    add_fill(c, f, -len);
    c->live--;
    c->nfeat--;
    c->ndoor--;
}

static int place_corridor(att_ctx *c, int32_t parent, int32_t dx, int32_t dy, int dir,
                          int32_t want, int depth);

/* Dead ends kept: the corridor's length such that its cap row can hold walls
 * and (unless dense) the row beyond the cap is rock. */
static int32_t cap_fits(const att_ctx *c, const uint8_t *door, ptrdiff_t step, ptrdiff_t side,
                        int32_t len)
{
    for (; len > 0; len--)
    {
        const uint8_t *p = door + (len + 1) * step;
        if (!att_solid(p[0]) || !att_solid(p[-side]) || !att_solid(p[side]))
            continue;
        if (c->p->dense || (gap_ok(p[step]) && gap_ok(p[step - side]) && gap_ok(p[step + side])))
            return len;
    }
    return len;
}

/* Something at the far end of the new corridor fi, chained depth corridors
 * deep: a room with probability room_after_corridor (always once another
 * corridor would make the straight line longer than ATT_MAX_STRAIGHT), else
 * another corridor; under the room policy, rooms once more before giving up.
 * Each try is an attempt. 1 placed, 0 nothing fits, -1 no memory. */
/* NOLINTNEXTLINE(misc-no-recursion): with place_corridor, at most MAX_CHAIN deep */
static int grow_end(att_ctx *c, int32_t fi, int depth)
{
    const att_feat *f = &c->feats[fi];
    int dir = f->dir;
    int32_t cap = att_corridor_len(f) + 1;
    int32_t x = c->doors[f->door].x + att_dx(dir) * cap;
    int32_t y = c->doors[f->door].y + att_dy(dir) * cap;
    if (!door_ok(att_at(c, x, y), c->along[dir], c->step[dir]))
        return 0;
    int tries = TRIES_CORRIDOR_END + (c->p->dead_ends == DG_DEAD_ENDS_ROOM ? DEAD_END_TRIES : 0);
    int32_t run = att_corridor_run(c, x - att_dx(dir), y - att_dy(dir), dir ^ 2);
    for (int t = 0; t < tries && c->attempts < c->max_attempts; t++)
    {
        c->attempts++;
        int room = t >= TRIES_CORRIDOR_END || depth >= MAX_CHAIN || c->live + 2 > c->budget ||
                   run + 1 + c->p->corridor_min > ATT_MAX_STRAIGHT ||
                   att_chance(c, c->p->room_after_corridor);
        int32_t want = room ? 0 : att_range(c, c->p->corridor_min, c->p->corridor_max);
        int placed = room ? attach_room(c, fi, x, y, dir)
                          : place_corridor(c, fi, x, y, dir, want, depth + 1);
        if (placed != 0)
            return placed;
        c->failures++;
    }
    return 0;
}

/* Corridor from the wall cell (dx, dy) in direction dir, at most want cells,
 * shortened to what is free but never below corridor_min, nor to a straight
 * line longer than ATT_MAX_STRAIGHT with the corridors behind it. Under eager ends
 * it also leaves space for the smallest room before the border, and is carved
 * only if the cell beyond its cap could take a door. */
/* NOLINTNEXTLINE(misc-no-recursion): with grow_end, at most MAX_CHAIN deep */
static int place_corridor(att_ctx *c, int32_t parent, int32_t dx, int32_t dy, int dir,
                          int32_t want, int depth)
{
    int32_t ux = att_dx(dir), uy = att_dy(dir);
    ptrdiff_t step = (ptrdiff_t)uy * c->stride + ux;        /* along the corridor */
    ptrdiff_t side = ux ? c->stride : 1;                     /* across it */
    uint8_t *door = att_at(c, dx, dy), *p = door;
    if (!att_solid(p[-side]) || !att_solid(p[side]))
        return 0; /* the door would touch another door */
    int32_t behind = att_corridor_run(c, dx - ux, dy - uy, dir ^ 2);
    if (behind > 0) /* the junction joins them in one line */
        want = DG_MIN(want, ATT_MAX_STRAIGHT - behind - 1);
    /* Under eager ends the way must also hold its cap and the smallest room
     * beyond it, before the border and before anything in the way. */
    int eager = eager_ends(c);
    int32_t beyond = eager ? 1 + (ux ? c->p->room_min_w : c->p->room_min_h) + !c->p->dense : 0;
    if (eager)
        want = DG_MIN(want, space_to_border(c, dx, dy, dir) - beyond);
    int32_t reach = want + beyond, free_cells = 0;
    while (free_cells < reach)
    {
        p += step;
        if (p[0] != DG_TILE_VOID || !att_solid(p[-side]) || !att_solid(p[side]))
            break;
        if (!c->p->dense && (!gap_ok(p[-2 * side]) || !gap_ok(p[2 * side])))
            break;
        free_cells++;
    }
    int32_t len = DG_MIN(want, free_cells - beyond);
    if (!eager)
        len = cap_fits(c, door, step, side, len);
    if (len < c->p->corridor_min)
        return 0;
    if (reserve_feature(c) != DG_OK)
        return -1;
    p = door;
    for (int32_t k = 1; k <= len + 1; k++)
    {
        p += step;
        p[-side] = DG_TILE_WALL;
        p[side] = DG_TILE_WALL;
        p[0] = k <= len ? DG_TILE_CORRIDOR : DG_TILE_WALL;
    }
    int32_t x0 = DG_MIN(dx + ux, dx + ux * len), y0 = DG_MIN(dy + uy, dy + uy * len);
    int32_t f = new_feature(c, ATT_CORRIDOR, parent, x0, y0, ux ? len : 1, ux ? 1 : len, dir);
    (void)connect(c, parent, f, dx, dy);
    if (eager)
    {
        int ended = grow_end(c, f, depth);
        if (ended == 0)
            take_back(c, f);
        if (ended <= 0)
            return ended;
        if (reserve_feature(c) != DG_OK) /* what ends it used the room reserved for its walls */
            return -1;
    }
    else if (len == want) /* else cut short by something in the way: nothing fits beyond */
        push_site(c, f, ATT_CORRIDOR, dir, dx + ux * (len + 1), dy + uy * (len + 1), 1);
    if (!c->p->dense)
    { /* its whole side walls: beside its last cell the end's room is in the way */
        const att_feat *nf = &c->feats[f];
        push_site(c, f, ATT_CORRIDOR, (dir + 1) & 3, nf->x - uy, nf->y + ux, len);
        push_site(c, f, ATT_CORRIDOR, (dir + 3) & 3, nf->x + uy, nf->y - ux, len);
        return 1;
    }
    int32_t lx = dx + ux * len, ly = dy + uy * len; /* its last cell: the walls beside it */
    push_site(c, f, ATT_CORRIDOR, (dir + 1) & 3, lx - uy, ly + ux, 1);
    push_site(c, f, ATT_CORRIDOR, (dir + 3) & 3, lx + uy, ly - ux, 1);
    return 1;
}

/* One attempt at frontier entry i: a usable cell of its wall, then a corridor
 * after a room, a room or a corridor after a corridor. 1 placed, 0 failed,
 * -1 out of memory, -2 the wall has no usable cell left. */
static int try_site(att_ctx *c, int32_t i)
{
    const att_site *s = &c->sites[i];
    int32_t k = pick_door(c, s);
    if (k < 0)
        return -2;
    int vertical = s->side == DG_DIR_W || s->side == DG_DIR_E;
    int32_t x = s->x + (vertical ? 0 : k), y = s->y + (vertical ? k : 0);
    int32_t feat = s->feat, side = s->side; /* placing may move the frontier */
    if (s->kind == ATT_CORRIDOR && att_chance(c, c->p->room_after_corridor))
        return attach_room(c, feat, x, y, side);
    if (eager_ends(c) && c->live + 2 > c->budget)
        return 0; /* a corridor needs room in the budget for what ends it */
    int32_t want = att_range(c, c->p->corridor_min, c->p->corridor_max);
    return place_corridor(c, feat, x, y, side, want, 1);
}

/* ---- growth ------------------------------------------------------------------------ */

/* Reserved cells of the scratch map as a summed-area table: sum[y * (w + 1) + x]
 * counts those in [0, x) x [0, y). NULL: no memory. */
static int32_t *reserved_sums(const att_ctx *c, size_t *bytes)
{
    size_t cols = (size_t)c->w + 1;
    *bytes = cols * ((size_t)c->h + 1) * sizeof(int32_t);
    int32_t *sum = dgi_calloc(c->a, cols * ((size_t)c->h + 1), sizeof(int32_t));
    for (int32_t y = 0; sum && y < c->h; y++)
    {
        const uint8_t *row = att_at(c, 0, y);
        int32_t run = 0;
        for (int32_t x = 0; x < c->w; x++)
        {
            run += row[x] == ATT_EDGE;
            sum[(size_t)(y + 1) * cols + (size_t)x + 1] = sum[(size_t)y * cols + (size_t)x + 1] + run;
        }
    }
    return sum;
}

/* 1 if the room (x, y, rw, rh) and its walls hold no reserved cell. */
static int box_clear(const att_ctx *c, const int32_t *sum, int32_t x, int32_t y, int32_t rw,
                     int32_t rh)
{
    size_t cols = (size_t)c->w + 1, x0 = (size_t)x - 1, y0 = (size_t)y - 1;
    size_t x1 = (size_t)x + (size_t)rw + 1, y1 = (size_t)y + (size_t)rh + 1;
    return sum[y1 * cols + x1] - sum[y0 * cols + x1] - sum[y1 * cols + x0] + sum[y0 * cols + x0] == 0;
}

/* 0, -1, 1, -2, 2, ...: the k-th offset by distance, the lower side first. */
static int32_t nth_offset(int32_t k)
{
    return k & 1 ? -(k + 1) / 2 : k / 2;
}

/* Moves (*x, *y) to the nearest position (in square rings around it, within
 * a ring the rows and columns nearest it first) where a rw x rh room and its
 * walls miss every reserved cell; 0 if there is none. */
static int nearest_clear(const att_ctx *c, const int32_t *sum, int32_t rw, int32_t rh, int32_t *x,
                         int32_t *y)
{
    int32_t x0 = *x, y0 = *y, xmax = c->w - 1 - rw, ymax = c->h - 1 - rh;
    int32_t reach = DG_MAX(DG_MAX(x0 - 1, xmax - x0), DG_MAX(y0 - 1, ymax - y0));
    for (int32_t r = 0; r <= reach; r++)
        for (int32_t k = 0; k <= 2 * r; k++)
        {
            int32_t dy = nth_offset(k), ty = y0 + dy;
            if (ty < 1 || ty > ymax)
                continue;
            int ring_row = dy == -r || dy == r; /* else only the ring's two columns */
            for (int32_t j = ring_row ? 0 : 2 * r - 1; j <= 2 * r; j++)
            {
                int32_t tx = x0 + nth_offset(j);
                if (tx >= 1 && tx <= xmax && box_clear(c, sum, tx, ty, rw, rh))
                {
                    *x = tx;
                    *y = ty;
                    return 1;
                }
            }
        }
    return 0;
}

/* 1 if the room (x, y, rw, rh) and its walls hold no reserved cell, by reading them. */
static int box_clear_read(const att_ctx *c, int32_t x, int32_t y, int32_t rw, int32_t rh)
{
    for (int32_t j = y - 1; j <= y + rh; j++)
        if (memchr(att_at(c, x - 1, j), ATT_EDGE, (size_t)rw + 2))
            return 0;
    return 1;
}

/* With reserved cells: the first room where drawn if it misses them, else
 * the nearest place for it, else for the smallest room, else DG_E_NOSPACE. */
static dg_status fit_first_room(att_ctx *c, int32_t *x, int32_t *y, int32_t *rw, int32_t *rh)
{
    if (box_clear_read(c, *x, *y, *rw, *rh))
        return DG_OK;
    size_t bytes;
    int32_t *sum = reserved_sums(c, &bytes);
    if (!sum)
        return DG_E_NOMEM;
    int found = nearest_clear(c, sum, *rw, *rh, x, y);
    if (!found && (*rw > c->p->room_min_w || *rh > c->p->room_min_h))
    {
        *x += (*rw - c->p->room_min_w) / 2; /* the same centre */
        *y += (*rh - c->p->room_min_h) / 2;
        *rw = c->p->room_min_w;
        *rh = c->p->room_min_h;
        found = nearest_clear(c, sum, *rw, *rh, x, y);
    }
    dgi_free(c->a, sum, bytes);
    return found ? DG_OK : DG_E_NOSPACE;
}

static dg_status first_room(att_ctx *c)
{
    const dg_attach_params *p = c->p;
    int32_t rw = room_side(c, p->room_min_w, c->room_max_w);
    int32_t rh = room_side(c, p->room_min_h, c->room_max_h);
    int32_t x = (c->w - rw) / 2 + att_range(c, -2, 2);
    int32_t y = (c->h - rh) / 2 + att_range(c, -2, 2);
    x = DG_MAX(1, DG_MIN(x, c->w - 1 - rw));
    y = DG_MAX(1, DG_MIN(y, c->h - 1 - rh));
    if (c->reserved)
    {
        dg_status st = fit_first_room(c, &x, &y, &rw, &rh);
        if (st != DG_OK)
            return st;
    }
    carve_room(c, x, y, rw, rh);
    int32_t f = new_feature(c, ATT_ROOM, -1, x, y, rw, rh, 0);
    push_room_walls(c, f, x, y, rw, rh);
    c->start_x = x + rw / 2;
    c->start_y = y + rh / 2;
    return DG_OK;
}

static int limit_reached(const att_ctx *c)
{
    const dg_attach_params *p = c->p;
    if (c->live + eager_ends(c) >= c->budget || c->attempts >= c->max_attempts)
        return 1; /* eager ends: a corridor and what ends it need two */
    if (p->max_failures > 0 && c->consecutive >= p->max_failures)
        return 1;
    return c->floor >= c->target_cells;
}

static dg_status grow(att_ctx *c)
{
    c->ahead[0] = dgi_rng_next(&c->rng);
    c->ahead[1] = dgi_rng_next(&c->rng);
    while (c->site_end > c->site_head)
    {
        if (limit_reached(c))
        {
            c->stopped_early = 1;
            break;
        }
        int32_t i = pick_site(c);
        c->attempts++; /* before the attempts at the end of a new corridor */
        int placed = try_site(c, i);
        if (placed == -2)
        {
            c->attempts--; /* nothing can attach here any more: not an attempt */
            retire_site(c, i);
            continue;
        }
        if (placed < 0)
            return DG_E_NOMEM;
        if (placed)
            c->consecutive = 0;
        else
        {
            c->failures++;
            c->consecutive++;
        }
        if (--c->sites[i].tries == 0) /* a wall gets a few attempts, placed or not */
            retire_site(c, i);
    }
    return DG_OK;
}

/* ---- space left on small maps ---------------------------------------------------------- */

/* Growth leans toward empty parts of the map through 8x8 blocks, which on a
 * small map leaves now and then a corner bare (80x25: a square of rock of 13
 * cells or more in 5% of the maps, 19 in the worst of 1000). Once growth met
 * target_floor on a map of at most FILL_MAX_CELLS, the walls facing such a
 * square get a few more attempts each, until no square larger than
 * FILL_PERMILLE of the map is left or FILL_ROUNDS pieces were placed. */
#define FILL_MAX_CELLS 4096
#define FILL_PERMILLE 80
#define FILL_ROUNDS 4
#define FILL_TRIES 2 /* attempts per wall facing the square */

static int fill_applies(const att_ctx *c)
{
    return !c->p->dense && !c->reserved && (int64_t)c->w * c->h <= FILL_MAX_CELLS &&
           c->w <= ATT_SPACE_MAX_SIDE && c->h <= ATT_SPACE_MAX_SIDE && c->floor >= c->target_cells;
}

/* The largest side a square of rock may keep: FILL_PERMILLE of the area. */
static int32_t fill_side(const att_ctx *c)
{
    int32_t area = (int32_t)((int64_t)c->w * c->h * FILL_PERMILLE / 1000), side = 1;
    while ((side + 1) * (side + 1) <= area)
        side++;
    return side;
}

/* The part [*lo, *hi) of the wall of feature f facing dir that looks straight
 * into the square (sx, sy, side) from at most corridor_max cells away (a
 * room's wall: its middle half); 0 if none. */
static int facing_part(const att_ctx *c, const att_feat *f, int dir, int32_t sx, int32_t sy,
                       int32_t side, int32_t *lo, int32_t *hi)
{
    int vertical = dir == DG_DIR_N || dir == DG_DIR_S; /* the wall runs along x */
    int32_t at = vertical ? (dir == DG_DIR_N ? f->y - 1 : f->y + f->h)
                          : (dir == DG_DIR_W ? f->x - 1 : f->x + f->w);
    int32_t near = vertical ? sy : sx, far = near + side - 1; /* the square across the wall */
    int32_t gap = dir == DG_DIR_N || dir == DG_DIR_W ? at - far : near - at;
    int32_t mid = 2 * (near + far) - 4 * at; /* beyond the wall: its middle on the side of dir */
    if (gap > c->p->corridor_max || (dir == DG_DIR_N || dir == DG_DIR_W ? mid >= 0 : mid <= 0))
        return 0;
    int32_t start = vertical ? f->x : f->y, len = vertical ? f->w : f->h;
    int32_t margin = f->kind == ATT_ROOM ? len / 4 : 0;
    int32_t across = vertical ? sx : sy;
    *lo = DG_MAX(start + margin, across);
    *hi = DG_MIN(start + len - margin, across + side);
    return *lo < *hi;
}

/* Attempts from the walls of every feature that face the square, until one
 * places something. 1 placed, 0 not, 2 a limit was reached, -1 no memory. */
static int fill_square(att_ctx *c, int32_t sx, int32_t sy, int32_t side)
{
    int32_t n = c->nfeat;
    for (int32_t fi = 0; fi < n; fi++)
        for (int dir = 0; dir < 4; dir++)
        {
            int32_t lo, hi;
            if (!facing_part(c, &c->feats[fi], dir, sx, sy, side, &lo, &hi))
                continue;
            dg_status st;
            ATT_GROW(c, c->sites, c->cap_site, c->site_end + 1, &c->borrowed[2], st);
            if (st != DG_OK)
                return -1;
            const att_feat *f = &c->feats[fi];
            int vertical = dir == DG_DIR_N || dir == DG_DIR_S;
            int32_t x = vertical ? lo : (dir == DG_DIR_W ? f->x - 1 : f->x + f->w);
            int32_t y = vertical ? (dir == DG_DIR_N ? f->y - 1 : f->y + f->h) : lo;
            int32_t i = c->site_end;
            push_site(c, fi, f->kind, dir, x, y, hi - lo);
            for (int t = 0; t < FILL_TRIES; t++)
            {
                if (c->live + eager_ends(c) >= c->budget || c->attempts >= c->max_attempts)
                    return 2;
                c->attempts++;
                int placed = try_site(c, i);
                if (placed == -2)
                {
                    c->attempts--; /* no usable cell: not an attempt */
                    break;
                }
                if (placed != 0)
                    return placed;
                c->failures++;
            }
        }
    return 0;
}

static dg_status fill_space(att_ctx *c)
{
    int32_t side = fill_side(c) + 1, sx, sy;
    for (int round = 0; round < FILL_ROUNDS && dgi_att_empty_square(c, side, &sx, &sy); round++)
    {
        int r = fill_square(c, sx, sy, side);
        if (r < 0)
            return DG_E_NOMEM;
        if (r != 1)
            break;
    }
    return DG_OK;
}

/* ---- output --------------------------------------------------------------------------- */

static dg_ref ref_of(const att_ctx *c, int32_t f)
{
    dg_ref r = {DG_REF_NONE, -1};
    if (f >= 0)
    {
        r.kind = c->feats[f].kind == ATT_ROOM ? DG_REF_ROOM : DG_REF_CORRIDOR;
        r.index = c->feats[f].out;
    }
    return r;
}

/* Numbers the surviving features in output order and counts the lists. */
static void count_output(att_ctx *c)
{
    c->out_rooms = c->out_corridors = c->out_doors = 0;
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        att_feat *f = &c->feats[i];
        f->out = f->kind == ATT_ROOM ? c->out_rooms++ : c->out_corridors++;
    }
    for (int32_t i = 0; i < c->ndoor; i++)
        c->out_doors += c->doors[i].tile == DG_TILE_DOOR;
}

/* The lists, into capacity reserved beforehand (dgi_result_reserve). */
static void write_lists(const att_ctx *c, dg_result *r)
{
    for (int32_t i = 0; i < c->nfeat; i++)
    {
        const att_feat *f = &c->feats[i];
        if (f->kind == ATT_ROOM)
        {
            dg_room room = {{f->x, f->y, f->w, f->h}, DG_ROOM_NORMAL, -1, 0, -1, f->cells, f->shape};
            int32_t up = f->parent; /* the nearest room it grew from, past corridors */
            while (up >= 0 && c->feats[up].kind != ATT_ROOM)
                up = c->feats[up].parent;
            if (up >= 0)
                room.parent = c->feats[up].out;
            r->rooms[r->room_count++] = room;
            continue;
        }
        const att_door *o = &c->doors[f->door];
        int32_t len = f->w * f->h;
        dg_corridor cor;
        cor.start.x = o->x + att_dx(f->dir);
        cor.start.y = o->y + att_dy(f->dir);
        cor.end.x = o->x + att_dx(f->dir) * len;
        cor.end.y = o->y + att_dy(f->dir) * len;
        cor.bend = cor.end;
        cor.length = len;
        cor.from = ref_of(c, f->parent);
        cor.to = ref_of(c, f->end_child);
        r->corridors[r->corridor_count++] = cor;
    }
    for (int32_t i = 0; i < c->ndoor; i++)
    {
        const att_door *d = &c->doors[i];
        if (d->tile != DG_TILE_DOOR)
            continue;
        dg_door door = {{d->x, d->y}, ref_of(c, d->a), ref_of(c, d->b)};
        r->doors[r->door_count++] = door;
    }
}

/* Fills *r; capacity was reserved, so nothing here can fail. */
static void write_result(att_ctx *c, dg_result *r, int32_t ex, int32_t ey, int32_t efeat)
{
    dgi_result_reset(r);
    write_lists(c, r);
    r->start.x = c->start_x;
    r->start.y = c->start_y;
    r->start_room = c->feats[c->start_feat].out;
    r->exit.x = ex;
    r->exit.y = ey;
    r->exit_room = efeat >= 0 && c->feats[efeat].kind == ATT_ROOM ? c->feats[efeat].out : -1;
    dg_metrics *m = &r->metrics;
    m->cells = c->w * c->h;
    m->floor_cells = c->floor;
    m->floor_permille = (int32_t)((int64_t)c->floor * 1000 / m->cells);
    m->rooms = c->out_rooms;
    m->corridors = c->out_corridors;
    m->doors = c->out_doors;
    m->dead_ends = dgi_att_dead_end_count(c);
    m->loops = c->loops;
    m->regions = 1; /* connected by construction */
    m->attempts = c->attempts;
    m->failures = c->failures;
    m->stopped_early = c->stopped_early;
    m->requested = c->budget;
    m->placed = c->out_rooms + c->out_corridors;
}

static void copy_out(const att_ctx *c, dg_grid *g)
{
    for (int32_t y = 0; y < c->h; y++)
    {
        const uint8_t *from = att_at(c, 0, y);
        uint8_t *to = &DG_CELL(g, 0, y);
        if (!c->reserved || !memchr(from, ATT_EDGE, (size_t)c->w))
        {
            memcpy(to, from, (size_t)c->w);
            continue;
        }
        for (int32_t x = 0; x < c->w; x++)
            if (from[x] != ATT_EDGE) /* a reserved cell keeps the caller's tile */
                to[x] = from[x];
    }
}

/* ---- the generator ------------------------------------------------------------------------ */

static dg_status run(att_ctx *c, uint64_t seed)
{
    dgi_rng_seed(&c->rng, seed, STREAM_LAYOUT);
    clear_map(c);
    if (c->reserved) /* budgets and target for the cells left */
        set_limits(c, (int64_t)c->w * c->h - mark_reserved(c));
    dg_status st = first_room(c);
    if (st == DG_OK)
        st = grow(c);
    if (st == DG_OK && fill_applies(c))
        st = fill_space(c);
    if (st == DG_OK && c->p->loop_min_gain > 0)
        st = dgi_att_loops(c, dgi_hash_combine(seed, STREAM_LOOPS));
    if (st == DG_OK)
    {
        dgi_att_pick_start(c);
        dgi_att_shapes(c, dgi_hash_combine(seed, STREAM_SHAPES));
    }
    return st;
}

/* The message of a failed run (the grid was not changed). */
static dg_status run_failed(const att_ctx *c, dg_status st, dg_diag *diag)
{
    if (st == DG_E_NOSPACE)
        return dgi_fail(diag, st,
                        "attach: the reserved cells leave no place for a %dx%d room and its "
                        "walls (the grid was not changed)",
                        (int)c->p->room_min_w, (int)c->p->room_min_h);
    return dgi_fail(diag, st, "attach: out of memory (the grid was not changed)");
}

dg_status dg_attach_generate(dg_grid *grid, const dg_attach_params *params, uint64_t seed,
                             dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_attach_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_attach_generate(dg_grid *grid, const dg_attach_params *params, uint64_t seed,
                              const dgi_mask *reserved, dg_result *result,
                              const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st;
    if (!params)
        return dgi_fail(diag, DG_E_NULL, "attach: params is NULL");
    st = DGI_SPARE_CHECK(params->spare, "attach params", diag);
    if (st == DG_OK)
        st = validate(params, grid, diag);
    if (st != DG_OK)
        return st;
    att_ctx c;
    st = setup(&c, grid, params, reserved, allocator);
    if (st == DG_OK)
        st = run(&c, seed);
    int32_t ex = -1, ey = -1, efeat = -1;
    if (st == DG_OK && result) /* the exit is only reported in the result */
        st = dgi_att_exit(&c, &ex, &ey, &efeat);
    if (st == DG_OK && result)
    {
        count_output(&c);
        st = dgi_result_reserve(result, c.out_rooms, c.out_corridors, c.out_doors, 0);
    }
    if (st == DG_OK)
    {
        if (result)
            write_result(&c, result, ex, ey, efeat);
        copy_out(&c, grid);
        dgi_diag_ok(diag);
    }
    else
        run_failed(&c, st, diag);
    release(&c);
    return st;
}
