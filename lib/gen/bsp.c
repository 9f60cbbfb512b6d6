/* Binary space partition generator (docs/bsp.md): the board is cut in two
 * again and again, one room per leaf, and the two halves of every cut joined
 * bottom-up by a corridor between rooms near the cut line. Everything is
 * iterative: the nodes live in one array in breadth-first order, so a
 * forward pass visits parents before children and a backward pass children
 * before parents (depth-first, pre-order; breadth-first under a leaf cap). */
#include "analysis/analysis.h"
#include "gen/gen.h"

/* Independent PRNG streams: routing and loops never move a room. */
#define STREAM_LAYOUT 0x627370000001ULL
#define STREAM_ROUTE 0x627370000002ULL
#define STREAM_LOOP 0x627370000003ULL
#define STREAM_SITE 0x627370000004ULL /* room redraws beside reserved cells */
#define STREAM_SHAPE 0x627370000005ULL /* room shapes: they never move a room or a corridor */
#define BLOCK 0xFE /* a reserved cell or its ring while the map is built */

enum {
    KEEP = 3,       /* rooms kept per side of a node: the candidates of the joins across its cuts */
    LEG_MAX = 38,   /* cells of a planned leg at most: with a door at each end, 40 in a line */
    SITE_DRAWS = 24 /* room draws in a leaf whose first room met reserved cells */
};
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

/* A room and how far it reaches out on one side of its subtree. */
typedef struct cand {
    int32_t room, key;
} cand;

typedef struct bsp_node {
    int32_t x, y, w, h;
    int32_t child[2];      /* the two halves, -1 for a leaf */
    int32_t across;        /* 1: cut by a column (children side by side), 0: by a row */
    int32_t first, leaves; /* its rooms are first .. first + leaves - 1 (leaf order) */
    int32_t entry;         /* the room the walk from the start room enters it by */
    int32_t ja, jb;        /* the rooms its tree corridor joins (first child, second child) */
    int32_t slot;          /* its candidates in bsp.cands, while the joins need them;
                            * while cutting breadth first, its depth */
} bsp_node;

/* A cut as its join left it, for its pairs and its loop: the cuts are kept
 * in the order they were joined (children before parents), so the loops
 * walk them in order, apart from the larger nodes. */
typedef struct bsp_cut {
    int32_t near[2][KEEP]; /* the candidates nearest the cut, each side (-1: none) */
    int32_t ja, jb;        /* the rooms its tree corridor joins (-1: none) */
    int32_t across;
} bsp_cut;

/* Per side, the rooms of a subtree reaching farthest out that way, best first. */
typedef struct cands {
    cand side[4][KEEP];
} cands;

/* A corridor as a polyline of 2..4 points in grid coordinates (two legs at
 * most per reported corridor: a three-leg route is split in two), with the
 * door cells at its two ends. */
typedef struct route {
    dg_point door_a, door_b;
    dg_point p[4];
    int32_t n;
} route;

/* A room's interior in cut coordinates: u runs across the cut, v along it. */
typedef struct span {
    int32_t u0, u1, v0, v1; /* inclusive */
} span;

typedef struct bsp {
    dg_grid *g;
    const dg_bsp_params *p;
    const dg_allocator *a;
    bsp_node *nodes;
    int32_t node_count, node_cap;
    int32_t height;        /* the deepest node's depth */
    int32_t edge_rooms;    /* rooms in leaves against the board's edge */
    int32_t start_back;    /* (stacked) the start room's edge leaf, counted from the last; -1 none */
    cands *cands;          /* a stack (depth-first, nothing reserved) or one per node */
    bsp_cut *cuts;         /* leaf_count - 1, in join order (in the block of cands) */
    int32_t cut_count;
    int32_t cand_cap;
    int stacked;
    int32_t leaf_count;
    int32_t leaves_seen;   /* leaves made so far, while partitioning depth first */
    int32_t room_count;    /* leaf_count, less leaves left empty beside reserved cells */
    int32_t stopped_early;
    dg_room *rooms;
    dg_corridor *corridors;
    int32_t corridor_count;
    dg_door *doors;
    int32_t door_count;
    void *block; /* rooms, corridors and doors in one allocation */
    size_t block_size;
    int32_t start_room;
    int32_t cor_cap, door_cap;
    dg_rng layout, route, loop;
    /* reserved cells (NULL: none) and the scratch that routing around them needs */
    const dgi_mask *reserved;
    dg_rng site;
    int32_t *dist, *queue;  /* a cell each */
    int32_t split;          /* a cut whose halves no corridor could join */
    dg_status status;       /* DG_E_NOMEM from growing the lists around reserved cells */
} bsp;

/* ---- parameters --------------------------------------------------------------- */

void dg_bsp_defaults(dg_bsp_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_bsp_table, p); /* every field: the rows of core/params.c */
}

static dg_status check_int(dg_diag *diag, const char *what, int32_t v, int32_t lo, int32_t hi)
{
    if (v < lo || v > hi)
        return dgi_fail(diag, DG_E_INVALID, "bsp: %s is %d: must be %d..%d", what, (int)v, (int)lo,
                        (int)hi);
    return DG_OK;
}

static dg_status check_room_range(dg_diag *diag, const char *lo_name, const char *hi_name,
                                  int32_t lo, int32_t hi)
{
    dg_status st = check_int(diag, lo_name, lo, 1, DG_GRID_MAX_DIM);
    if (st == DG_OK)
        st = check_int(diag, hi_name, hi, 1, DG_GRID_MAX_DIM);
    if (st == DG_OK && lo > hi)
        return dgi_fail(diag, DG_E_INVALID, "bsp: %s %d is more than %s %d", lo_name, (int)lo,
                        hi_name, (int)hi);
    return st;
}

/* A leaf holds its smallest room, the room's walls and the margin on both sides. */
static dg_status check_leaf(dg_diag *diag, const char *leaf, const char *room, int32_t leaf_min,
                            int32_t room_min, int32_t margin)
{
    dg_status st = check_int(diag, leaf, leaf_min, 1, DG_GRID_MAX_DIM);
    int64_t need = (int64_t)room_min + 2 * (int64_t)margin + 2;
    if (st == DG_OK && leaf_min < need)
        return dgi_fail(diag, DG_E_INVALID,
                        "bsp: %s %d is less than %s (%d) + 2 * margin (%d) + 2 = %lld: a leaf "
                        "must hold its smallest room, the walls and the margin",
                        leaf, (int)leaf_min, room, (int)room_min, (int)margin, (long long)need);
    return st;
}

/* Smallest part length for a cut across len cells of a node `other` cells
 * long the other way: the leaf minimum, and long enough that no part is more
 * than ratio percent as long along the cut as across it, unless only a cut
 * nearer the middle than the node allows would do (then the middle). */
static int32_t cut_low(int32_t len, int32_t other, int32_t leaf_min, int32_t ratio)
{
    int64_t need = ((int64_t)other * 100 + ratio - 1) / ratio;
    return (int32_t)DG_MAX((int64_t)leaf_min, DG_MIN(need, (int64_t)(len / 2)));
}

static int can_cut_columns(const dg_bsp_params *p, int32_t w, int32_t h)
{
    (void)h;
    return w / 2 >= p->leaf_min_w;
}

static int can_cut_rows(const dg_bsp_params *p, int32_t w, int32_t h)
{
    (void)w;
    return h / 2 >= p->leaf_min_h;
}

static dg_status check_params(const dg_grid *g, const dg_bsp_params *p, dg_diag *diag)
{
    dg_status st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "bsp: params is NULL");
    if ((st = DGI_SPARE_CHECK(p->spare, "bsp params", diag)) != DG_OK)
        return st;
    if ((st = check_room_range(diag, "room_min_w", "room_max_w", p->room_min_w, p->room_max_w)) ||
        (st = check_room_range(diag, "room_min_h", "room_max_h", p->room_min_h, p->room_max_h)) ||
        (st = check_int(diag, "margin", p->margin, 1, 1000)) ||
        (st = check_leaf(diag, "leaf_min_w", "room_min_w", p->leaf_min_w, p->room_min_w, p->margin)) ||
        (st = check_leaf(diag, "leaf_min_h", "room_min_h", p->leaf_min_h, p->room_min_h, p->margin)) ||
        (st = check_int(diag, "max_ratio (percent)", p->max_ratio, 100, 10000)) ||
        (st = check_int(diag, "max_depth", p->max_depth, 0, 1000000)) ||
        (st = check_int(diag, "max_leaves", p->max_leaves, 0, INT32_MAX)) ||
        (st = check_int(diag, "room_fill (percent)", p->room_fill, 0, 100)) ||
        (st = check_int(diag, "loop_chance (permille)", p->loop_chance, 0, 1000)) ||
        (st = check_int(diag, "doors", p->doors, 0, 1)) ||
        (st = check_int(diag, "shapes (permille)", p->shapes, 0, 1000)))
        return st;
    if (p->max_leaves == 1)
    {
        if (g->width < p->leaf_min_w || g->height < p->leaf_min_h)
            return dgi_fail(diag, DG_E_NOSPACE,
                            "bsp: a %dx%d grid cannot hold one leaf of %dx%d (the smallest grid)",
                            (int)g->width, (int)g->height, (int)p->leaf_min_w, (int)p->leaf_min_h);
        return DG_OK;
    }
    int fits = g->width >= p->leaf_min_w && g->height >= p->leaf_min_h;
    if (!fits || (!can_cut_columns(p, g->width, g->height) && !can_cut_rows(p, g->width, g->height)))
        return dgi_fail(diag, DG_E_NOSPACE,
                        "bsp: a %dx%d grid cannot be cut into two leaves of at least %dx%d "
                        "(the smallest grids are %dx%d and %dx%d)",
                        (int)g->width, (int)g->height, (int)p->leaf_min_w, (int)p->leaf_min_h,
                        2 * (int)p->leaf_min_w, (int)p->leaf_min_h, (int)p->leaf_min_w,
                        2 * (int)p->leaf_min_h);
    return DG_OK;
}

/* ---- the partition --------------------------------------------------------------- */

/* A node waiting to be made: its rectangle, depth and the slot of its parent
 * it fills (parent -1 for the root). */
typedef struct pending {
    int32_t x, y, w, h, depth, parent, slot;
} pending;

/* Where and how to cut a rectangle; 0 if it stays a leaf (a cap that stops a
 * cut that fits sets stopped_early). */
static int decide_cut(bsp *b, const pending *q, int *across, int32_t *at)
{
    const dg_bsp_params *p = b->p;
    int cols = can_cut_columns(p, q->w, q->h), rows = can_cut_rows(p, q->w, q->h);
    if (!cols && !rows)
        return 0;
    if ((p->max_depth > 0 && q->depth >= p->max_depth) ||
        (p->max_leaves > 0 && b->leaf_count >= p->max_leaves))
    {
        b->stopped_early = 1;
        return 0;
    }
    if (cols && rows) /* by the shape: a clearly wide node is cut by a column, a tall one by a row */
    {
        if ((int64_t)q->w * 4 >= (int64_t)q->h * 5)
            *across = 1;
        else if ((int64_t)q->h * 4 >= (int64_t)q->w * 5)
            *across = 0;
        else
            *across = (int)dgi_rng_below(&b->layout, 2);
    }
    else
        *across = cols;
    int32_t len = *across ? q->w : q->h;
    int32_t lo = *across ? cut_low(q->w, q->h, p->leaf_min_w, p->max_ratio)
                         : cut_low(q->h, q->w, p->leaf_min_h, p->max_ratio);
    *at = lo + (int32_t)dgi_rng_below(&b->layout, (uint32_t)(len - 2 * lo + 1));
    return 1;
}

/* The two halves of q cut at `at`. */
static void halves(const pending *q, int across, int32_t at, int32_t parent, pending *c)
{
    c[0] = c[1] = *q;
    c[0].depth = c[1].depth = q->depth + 1;
    c[0].parent = c[1].parent = parent;
    c[0].slot = 0, c[1].slot = 1;
    if (across)
        c[0].w = at, c[1].x = q->x + at, c[1].w = q->w - at;
    else
        c[0].h = at, c[1].y = q->y + at, c[1].h = q->h - at;
}

/* Appends node q (its children come later) and links it to its parent. */
static dg_status append_node(bsp *b, const pending *q, int32_t *index)
{
    if (b->node_count == b->node_cap)
    {
        void *arr = b->nodes;
        dg_status st = dgi_grow(b->a, &arr, &b->node_cap, b->node_count + 1, sizeof *b->nodes);
        b->nodes = arr;
        if (st != DG_OK)
            return st;
    }
    bsp_node *n = &b->nodes[b->node_count];
    n->x = q->x, n->y = q->y, n->w = q->w, n->h = q->h;
    n->child[0] = n->child[1] = -1;
    n->slot = q->depth;
    n->first = b->leaves_seen; /* depth first: every leaf before it in pre-order is before it in leaf order */
    n->leaves = 1;
    n->across = 0;
    b->height = DG_MAX(b->height, q->depth);
    if (q->parent >= 0)
        b->nodes[q->parent].child[q->slot] = b->node_count;
    *index = b->node_count++;
    return DG_OK;
}

/* Depth first, the array in pre-order: every later pass that walks it meets
 * the board region by region (the grid stays in cache) and children after
 * their parents. A stack holds the second halves still to do. */
static dg_status partition_depth_first(bsp *b, pending root)
{
    pending local[64], *stack = local, *heap = NULL; /* the heap only for deep trees */
    int32_t cap = 64, heap_cap = 0, top = 0;
    dg_status st = DG_OK;
    stack[top++] = root;
    while (st == DG_OK && top > 0)
    {
        pending q = stack[--top], c[2];
        int32_t i = 0, at = 0;
        int across = 0;
        if ((st = append_node(b, &q, &i)) != DG_OK)
            break;
        if (!decide_cut(b, &q, &across, &at))
        {
            b->leaves_seen++;
            continue;
        }
        b->nodes[i].across = across;
        b->leaf_count++;
        halves(&q, across, at, i, c);
        if (top + 2 > cap)
        {
            void *arr = heap;
            if ((st = dgi_grow(b->a, &arr, &heap_cap, top + 2, sizeof *stack)) != DG_OK)
                break;
            heap = arr;
            if (stack == local)
                memcpy(heap, local, sizeof local);
            stack = heap;
            cap = heap_cap;
        }
        stack[top++] = c[1];
        stack[top++] = c[0];
    }
    dgi_free(b->a, heap, (size_t)heap_cap * sizeof *heap);
    return st;
}

/* Breadth first, for a leaf cap: the array is its own queue, so the cap stops
 * the cutting evenly across the board. */
static dg_status partition_breadth_first(bsp *b, pending root)
{
    int32_t i;
    dg_status st = append_node(b, &root, &i);
    for (i = 0; i < b->node_count && st == DG_OK; i++)
    {
        const bsp_node *n = &b->nodes[i];
        pending q = {n->x, n->y, n->w, n->h, n->slot, -1, 0}, c[2];
        int32_t at = 0, k;
        int across = 0;
        if (!decide_cut(b, &q, &across, &at))
            continue;
        b->nodes[i].across = across;
        b->leaf_count++;
        halves(&q, across, at, i, c);
        for (int s = 0; s < 2 && st == DG_OK; s++)
            st = append_node(b, &c[s], &k);
    }
    return st;
}

static dg_status partition(bsp *b)
{
    int64_t cells = (int64_t)b->g->width * b->g->height;
    /* about two nodes per leaf, and leaves average well over twice their
     * minimum area: the array rarely grows */
    int64_t guess = cells * 5 / (4 * (int64_t)b->p->leaf_min_w * b->p->leaf_min_h) + 15;
    if (b->p->max_leaves > 0)
        guess = DG_MIN(guess, 2 * (int64_t)b->p->max_leaves);
    b->node_cap = (int32_t)DG_MIN(guess, 1 << 20); /* exactly (dgi_grow would round up) */
    b->nodes = dgi_alloc(b->a, (size_t)b->node_cap * sizeof *b->nodes);
    if (!b->nodes)
    {
        b->node_cap = 0;
        return DG_E_NOMEM;
    }
    pending root = {0, 0, b->g->width, b->g->height, 0, -1, 0};
    b->leaf_count = 1;
    return b->p->max_leaves > 0 ? partition_breadth_first(b, root) : partition_depth_first(b, root);
}

/* Rooms in leaf order (a first half's rooms before the second's): leaf
 * counts bottom-up, then first room indexes top-down. Only breadth first:
 * depth first numbers the leaves as it makes them (and join_all counts them). */
static void number_leaves(bsp *b)
{
    for (int32_t i = b->node_count - 1; i >= 0; i--)
    {
        bsp_node *n = &b->nodes[i];
        n->leaves = n->child[0] < 0 ? 1 : b->nodes[n->child[0]].leaves + b->nodes[n->child[1]].leaves;
    }
    b->nodes[0].first = 0;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        const bsp_node *n = &b->nodes[i];
        if (n->child[0] < 0)
            continue;
        b->nodes[n->child[0]].first = n->first;
        b->nodes[n->child[1]].first = n->first + b->nodes[n->child[0]].leaves;
    }
}

/* ---- rooms ---------------------------------------------------------------------- */

/* One side of a room: its size drawn from the room range capped by the
 * leaf's free space, at least room_fill percent of that space. */
static void draw_side(dg_rng *rng, int32_t leaf, int32_t margin, int32_t lo_p, int32_t hi_p,
                      int32_t fill, int32_t *pos, int32_t *len)
{
    int32_t avail = leaf - 2 - 2 * margin;
    int32_t hi = DG_MIN(hi_p, avail);
    int32_t lo = DG_MIN(DG_MAX(lo_p, (int32_t)((int64_t)avail * fill / 100)), hi);
    *len = lo + (int32_t)dgi_rng_below(rng, (uint32_t)(hi - lo + 1));
    *pos = 1 + margin + (int32_t)dgi_rng_below(rng, (uint32_t)(avail - *len + 1));
}

/* 1 if room r and its wall ring keep off every reserved cell. */
static int room_clear(const bsp *b, dg_rect r)
{
    for (int32_t y = r.y - 1; y <= r.y + r.h; y++)
        for (int32_t x = r.x - 1; x <= r.x + r.w; x++)
            if (dgi_mask_at(b->reserved, x, y))
                return 0;
    return 1;
}

/* A room beside the reserved cells of its leaf: smaller rooms (fill 0) at
 * random spots from the site stream; an empty rect (no room) if none fits. */
static dg_rect redraw_room(bsp *b, const bsp_node *n)
{
    const dg_bsp_params *p = b->p;
    for (int k = 0; k < SITE_DRAWS; k++)
    {
        dg_rect r;
        draw_side(&b->site, n->w, p->margin, p->room_min_w, p->room_max_w, 0, &r.x, &r.w);
        draw_side(&b->site, n->h, p->margin, p->room_min_h, p->room_max_h, 0, &r.y, &r.h);
        r.x += n->x, r.y += n->y;
        if (room_clear(b, r))
            return r;
    }
    dg_rect none = {0, 0, 0, 0};
    return none;
}

/* 1 if leaf n has a room and lies against the board's edge. */
static int edge_room(const bsp *b, const bsp_node *n)
{
    const dg_grid *g = b->g;
    return n->child[0] < 0 && b->rooms[n->first].rect.w > 0 &&
           (n->x == 0 || n->y == 0 || n->x + n->w == g->width || n->y + n->h == g->height);
}

/* Depth first with nothing reserved, no room is dropped later and the
 * layout stream is not drawn again: the start room is drawn now (the draw
 * site_start would make) and found by join_all's walk, not by a pass of
 * its own. */
static void draw_start(bsp *b)
{
    b->start_back = -1;
    if (b->stacked && b->edge_rooms > 0)
        b->start_back = b->edge_rooms - 1 - (int32_t)dgi_rng_below(&b->layout, (uint32_t)b->edge_rooms);
}

static void place_rooms(bsp *b)
{
    const dg_bsp_params *p = b->p;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child[0] >= 0)
            continue;
        dg_room *r = &b->rooms[n->first];
        int32_t ox, oy;
        draw_side(&b->layout, n->w, p->margin, p->room_min_w, p->room_max_w, p->room_fill, &ox,
                  &r->rect.w);
        draw_side(&b->layout, n->h, p->margin, p->room_min_h, p->room_max_h, p->room_fill, &oy,
                  &r->rect.h);
        r->rect.x = n->x + ox;
        r->rect.y = n->y + oy;
        if (b->reserved && !room_clear(b, r->rect))
            r->rect = redraw_room(b, n);
        b->edge_rooms += edge_room(b, n);
        r->kind = DG_ROOM_NORMAL;
        r->prefab = -1;
        r->orientation = 0;
        r->parent = -1;
        r->cells = r->rect.w * r->rect.h;
        r->shape = DG_SHAPE_RECT;
    }
    draw_start(b);
}

/* n cells of v from p: eight at a time, the last eight overlapping, so
 * short spans cost a few stores rather than a memset call each. */
static void fill_span(uint8_t *p, int32_t n, uint8_t v)
{
    uint64_t w8 = 0x0101010101010101ULL * v;
    uint32_t w4 = 0x01010101u * v;
    if (n >= 8)
    {
        for (int32_t i = 0; i + 8 <= n; i += 8)
            memcpy(p + i, &w8, 8);
        memcpy(p + n - 8, &w8, 8);
    }
    else if (n >= 4)
    {
        memcpy(p, &w4, 4);
        memcpy(p + n - 4, &w4, 4);
    }
    else if (n > 0) /* 1..3 cells (a loop here would become a memset call) */
    {
        p[0] = p[n / 2] = p[n - 1] = v;
    }
}

/* Paints a leaf row by row: rock, with its room's floor inside a wall ring. */
static void paint_leaf_rows(dg_grid *g, const bsp_node *n, dg_rect r)
{
    for (int32_t y = n->y; y < n->y + n->h; y++)
    {
        uint8_t *row = &DG_CELL(g, n->x, y);
        fill_span(row, n->w, DG_TILE_VOID);
        if (r.w == 0 || y < r.y - 1 || y > r.y + r.h) /* (no room: a leaf under reserved cells) */
            continue;
        uint8_t *in = &DG_CELL(g, r.x - 1, y);
        if (y == r.y - 1 || y == r.y + r.h)
            fill_span(in, r.w + 2, DG_TILE_WALL);
        else
        {
            fill_span(in + 1, r.w, DG_TILE_FLOOR);
            in[0] = in[r.w + 1] = DG_TILE_WALL;
        }
    }
}

enum { ROW_MAX = 64 }; /* leaves up to this wide are painted from row patterns */

/* n (8..ROW_MAX) bytes from src, sixteen at a time, the last sixteen (or
 * for fewer than sixteen, the last eight) overlapping. */
static void copy_row(uint8_t *dst, const uint8_t *src, int32_t n)
{
    if (n < 16)
    {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
        return;
    }
    for (int32_t i = 0; i + 16 <= n; i += 16)
        memcpy(dst + i, src + i, 16);
    memcpy(dst + n - 16, src + n - 16, 16);
}

/* `count` rows of n cells from row on, each a copy of src; returns the row after. */
static uint8_t *copy_rows(uint8_t *row, ptrdiff_t stride, int32_t count, const uint8_t *src, int32_t n)
{
    for (int32_t k = 0; k < count; k++, row += stride)
        copy_row(row, src, n);
    return row;
}

/* Paints a leaf: rock, with its room's floor inside a wall ring. Leaves tile
 * the board, so the leaves paint every cell once. Each row is one of three
 * patterns (rock, wall row, room row) made once per leaf, the rows in five
 * runs from the top: rock, wall, room, wall, rock. */
static void paint_leaf(dg_grid *g, const bsp_node *n, dg_rect r)
{
    if (r.w == 0 || n->w < 8 || n->w > ROW_MAX)
    {
        paint_leaf_rows(g, n, r);
        return;
    }
    uint8_t pattern[3][ROW_MAX]; /* rock, wall, room */
    int32_t in = r.x - 1 - n->x;
    ptrdiff_t stride = g->stride;
    memset(pattern[0], DG_TILE_VOID, ROW_MAX);
    memset(pattern[1], DG_TILE_VOID, ROW_MAX);
    memset(pattern[1] + in, DG_TILE_WALL, (size_t)r.w + 2);
    memcpy(pattern[2], pattern[1], ROW_MAX);
    memset(pattern[2] + in + 1, DG_TILE_FLOOR, (size_t)r.w);
    uint8_t *row = &DG_CELL(g, n->x, n->y);
    row = copy_rows(row, stride, r.y - 1 - n->y, pattern[0], n->w);
    row = copy_rows(row, stride, 1, pattern[1], n->w);
    row = copy_rows(row, stride, r.h, pattern[2], n->w);
    row = copy_rows(row, stride, 1, pattern[1], n->w);
    copy_rows(row, stride, n->y + n->h - (r.y + r.h + 1), pattern[0], n->w);
}

/* ---- candidates: the rooms of a subtree nearest each of its sides ------------------- */

/* How far out a room reaches on a side (larger is farther): -y, x + w, y + h, -x. */
static int32_t side_key(dg_rect r, int side)
{
    switch (side)
    {
    case SIDE_N: return -r.y;
    case SIDE_E: return r.x + r.w;
    case SIDE_S: return r.y + r.h;
    default: return -r.x;
    }
}

static cand *best_of(const bsp *b, const bsp_node *n, int side)
{
    return b->cands[n->slot].side[side];
}

static void leaf_candidates(const bsp_node *n, dg_rect r, cands *out)
{
    for (int s = 0; s < 4; s++)
    {
        out->side[s][0].room = r.w > 0 ? n->first : -1;
        out->side[s][0].key = r.w > 0 ? side_key(r, s) : INT32_MIN;
        for (int k = 1; k < KEEP; k++)
            out->side[s][k].room = -1, out->side[s][k].key = INT32_MIN;
    }
}

/* out = the KEEP best of two best-first lists; ties go to the first list,
 * whose rooms come first in leaf order. Unused entries sort last. */
static void merge_best(const cand *a, const cand *b, cand *out)
{
    int ia = 0, ib = 0; /* ia + ib = k < KEEP: neither list runs out */
    for (int k = 0; k < KEEP; k++)
    {
        int take_a = a[ia].key >= b[ib].key;
        out[k] = *(take_a ? &a[ia] : &b[ib]); /* a select, not a branch: keys are random */
        ia += take_a;
        ib += 1 - take_a;
    }
}

/* A node's candidates from its children's: across a cut by columns every
 * room of the second child is farther east than any of the first child's
 * (and the first's farther west), so only north and south are merged. */
static int has_rooms(const bsp *b, const bsp_node *n)
{
    return best_of(b, n, 0)[0].room >= 0;
}

/* Node n's candidates from its children's, into *out, which may be the
 * second child's (on the stack, the node takes that entry). */
static void node_candidates(const bsp *b, const bsp_node *n, cands *out)
{
    const cands *c0 = &b->cands[b->nodes[n->child[0]].slot], *c1 = &b->cands[b->nodes[n->child[1]].slot];
    if (c0->side[0][0].room < 0 || c1->side[0][0].room < 0) /* leaves without rooms: only beside reserved cells */
    {
        const cands *with = c0->side[0][0].room >= 0 ? c0 : c1;
        if (with != out)
            *out = *with;
        return;
    }
    int far = n->across ? SIDE_E : SIDE_S, near = n->across ? SIDE_W : SIDE_N;
    int m0 = n->across ? SIDE_N : SIDE_W, m1 = n->across ? SIDE_S : SIDE_E;
    cand b0[KEEP], b1[KEEP]; /* the second child's lists to merge, before out overwrites them */
    memcpy(b0, c1->side[m0], sizeof b0);
    memcpy(b1, c1->side[m1], sizeof b1);
    if (out != c1)
        memcpy(out->side[far], c1->side[far], sizeof out->side[far]);
    memcpy(out->side[near], c0->side[near], sizeof out->side[near]);
    merge_best(c0->side[m0], b0, out->side[m0]);
    merge_best(c0->side[m1], b1, out->side[m1]);
}

static span span_of(dg_rect r, int across)
{
    span s;
    if (across)
        s.u0 = r.x, s.u1 = r.x + r.w - 1, s.v0 = r.y, s.v1 = r.y + r.h - 1;
    else
        s.u0 = r.y, s.u1 = r.y + r.h - 1, s.v0 = r.x, s.v1 = r.x + r.w - 1;
    return s;
}

static int overlap(const span *a, const span *b)
{
    return DG_MAX(a->v0, b->v0) <= DG_MIN(a->v1, b->v1);
}

static dg_point to_xy(int32_t u, int32_t v, int across)
{
    dg_point q;
    q.x = across ? u : v;
    q.y = across ? v : u;
    return q;
}

/* ---- routes ---------------------------------------------------------------------- */

static int32_t draw_in(dg_rng *rng, int32_t lo, int32_t hi)
{
    return lo + (int32_t)dgi_rng_below(rng, (uint32_t)(hi - lo + 1));
}

/* Straight across the cut: A and B share rows along it. */
static void plan_straight(const span *a, const span *b, int across, dg_rng *rng, route *r)
{
    int32_t v = draw_in(rng, DG_MAX(a->v0, b->v0), DG_MIN(a->v1, b->v1));
    r->door_a = to_xy(a->u1 + 1, v, across);
    r->p[0] = to_xy(a->u1 + 2, v, across);
    r->p[1] = to_xy(b->u0 - 2, v, across);
    r->door_b = to_xy(b->u0 - 1, v, across);
    r->n = 2;
}

/* L, leaving A across the cut and turning into B's side along it; 0 if no
 * such bend exists (B starts right beside A's rows). */
static int plan_l_into_side(const span *a, const span *b, int across, dg_rng *rng, route *r)
{
    int down = b->v0 > a->v1;
    int32_t wall = down ? b->v0 - 1 : b->v1 + 1, last = down ? wall - 1 : wall + 1;
    int32_t lo = down ? a->v0 : DG_MAX(a->v0, last), hi = down ? DG_MIN(a->v1, last) : a->v1;
    if (lo > hi)
        return 0;
    int32_t va = draw_in(rng, lo, hi), ub = draw_in(rng, b->u0, b->u1);
    r->door_a = to_xy(a->u1 + 1, va, across);
    r->p[0] = to_xy(a->u1 + 2, va, across);
    r->p[1] = to_xy(ub, va, across);
    r->p[2] = to_xy(ub, last, across);
    r->door_b = to_xy(ub, wall, across);
    r->n = 3;
    return 1;
}

/* L, leaving A's side along the cut and turning across it into B. */
static int plan_l_from_side(const span *a, const span *b, int across, dg_rng *rng, route *r)
{
    int down = b->v0 > a->v1;
    int32_t wall = down ? a->v1 + 1 : a->v0 - 1, first = down ? wall + 1 : wall - 1;
    int32_t lo = down ? DG_MAX(b->v0, first) : b->v0, hi = down ? b->v1 : DG_MIN(b->v1, first);
    if (lo > hi)
        return 0;
    int32_t ua = draw_in(rng, a->u0, a->u1), vb = draw_in(rng, lo, hi);
    r->door_a = to_xy(ua, wall, across);
    r->p[0] = to_xy(ua, first, across);
    r->p[1] = to_xy(ua, vb, across);
    r->p[2] = to_xy(b->u0 - 2, vb, across);
    r->door_b = to_xy(b->u0 - 1, vb, across);
    r->n = 3;
    return 1;
}

/* Three legs through the band of rock between the two rooms nearest the cut,
 * which nothing else ever enters: always free. */
static void plan_band(const span *a, const span *b, int across, dg_rng *rng, route *r)
{
    /* the leg along the cut no longer than the gap between the rooms needs */
    int32_t va = b->v0 > a->v1 ? a->v1 : b->v1 < a->v0 ? a->v0 : draw_in(rng, a->v0, a->v1);
    int32_t vb = b->v0 > a->v1 ? b->v0 : b->v1 < a->v0 ? b->v1 : draw_in(rng, b->v0, b->v1);
    int32_t lo = a->u1 + 2, hi = b->u0 - 2;
    if (hi - lo >= 2) /* keep the leg along the cut off the rooms' walls */
        lo++, hi--;
    int32_t c = draw_in(rng, lo, hi);
    r->door_a = to_xy(a->u1 + 1, va, across);
    r->p[0] = to_xy(a->u1 + 2, va, across);
    r->p[1] = to_xy(c, va, across);
    r->p[2] = to_xy(c, vb, across);
    r->p[3] = to_xy(b->u0 - 2, vb, across);
    r->door_b = to_xy(b->u0 - 1, vb, across);
    r->n = 4;
}

/* Sign of the step from a to b along one axis. */
static int32_t step(int32_t a, int32_t b)
{
    return (b > a) - (b < a);
}

static int32_t leg_cells(dg_point a, dg_point b)
{
    return DG_MAX(a.x - b.x, b.x - a.x) + DG_MAX(a.y - b.y, b.y - a.y);
}

/* 1 if cell c is rock or one of the route's two doors. */
static int rock_or_door(const uint8_t *c, const uint8_t *da, const uint8_t *db)
{
    return *c == DG_TILE_VOID || c == da || c == db;
}

/* 1 if every cell of leg a -> b is rock and its four neighbours are rock or a
 * door: along the leg only the cells beside it and the two beyond its ends
 * need a look (a neighbour on the route is itself held to rock). Reads only. */
static int leg_clear(const dg_grid *g, dg_point a, dg_point b, const uint8_t *da, const uint8_t *db)
{
    const ptrdiff_t s = g->stride;
    ptrdiff_t d = (ptrdiff_t)step(a.y, b.y) * s + step(a.x, b.x), e = a.y == b.y ? s : 1;
    const uint8_t *c = &DG_CELL(g, a.x, a.y);
    if (d == 0) /* a single cell: all four neighbours */
        return *c == DG_TILE_VOID && rock_or_door(c - s, da, db) && rock_or_door(c + s, da, db) &&
               rock_or_door(c - 1, da, db) && rock_or_door(c + 1, da, db);
    if (!rock_or_door(c - d, da, db))
        return 0;
    for (int32_t k = leg_cells(a, b); k >= 0; k--, c += d)
        if (*c != DG_TILE_VOID || !rock_or_door(c - e, da, db) || !rock_or_door(c + e, da, db))
            return 0;
    return rock_or_door(c, da, db);
}

/* A door goes in a plain wall cell with no door beside it. */
static int door_ok(const dg_grid *g, dg_point d)
{
    const uint8_t *c = &DG_CELL(g, d.x, d.y);
    ptrdiff_t s = g->stride;
    return c[0] == DG_TILE_WALL && c[-1] != DG_TILE_DOOR && c[1] != DG_TILE_DOOR &&
           c[-s] != DG_TILE_DOOR && c[s] != DG_TILE_DOOR;
}

/* 1 if every cell of the route is rock and touches nothing but rock, the
 * route and its two doors: no room, wall or corridor (nor a corridor's wall)
 * is crossed or run along. */
static int route_clear(const dg_grid *g, const route *r)
{
    if (!door_ok(g, r->door_a) || !door_ok(g, r->door_b))
        return 0;
    const uint8_t *da = &DG_CELL(g, r->door_a.x, r->door_a.y);
    const uint8_t *db = &DG_CELL(g, r->door_b.x, r->door_b.y);
    for (int32_t i = 0; i + 1 < r->n; i++)
        if (!leg_clear(g, r->p[i], r->p[i + 1], da, db))
            return 0;
    return 1;
}

static uint8_t rock_to_wall(uint8_t t)
{
    return t == DG_TILE_VOID ? (uint8_t)DG_TILE_WALL : t;
}

/* Corridor on the leg's cells, wall on the rock around them. */
static void carve_leg(dg_grid *g, dg_point a, dg_point b)
{
    int32_t x0 = DG_MIN(a.x, b.x), x1 = DG_MAX(a.x, b.x), y0 = DG_MIN(a.y, b.y), y1 = DG_MAX(a.y, b.y);
    if (x0 == x1) /* vertical (or one cell): three cells a row */
    {
        for (int32_t y = y0 - 1; y <= y1 + 1; y++)
        {
            uint8_t *c = &DG_CELL(g, x0, y);
            c[-1] = rock_to_wall(c[-1]);
            c[0] = y < y0 || y > y1 ? rock_to_wall(c[0]) : (uint8_t)DG_TILE_CORRIDOR;
            c[1] = rock_to_wall(c[1]);
        }
        return;
    }
    uint8_t *up = &DG_CELL(g, x0 - 1, y0 - 1), *mid = &DG_CELL(g, x0 - 1, y0),
            *down = &DG_CELL(g, x0 - 1, y0 + 1);
    int32_t n = x1 - x0 + 3;
    for (int32_t i = 0; i < n; i++)
    {
        up[i] = rock_to_wall(up[i]);
        down[i] = rock_to_wall(down[i]);
    }
    mid[0] = rock_to_wall(mid[0]);
    fill_span(mid + 1, n - 2, DG_TILE_CORRIDOR);
    mid[n - 1] = rock_to_wall(mid[n - 1]);
}

static int32_t add_corridor(bsp *b, dg_point s, dg_point bend, dg_point e, dg_ref from, dg_ref to)
{
    dg_corridor *c = &b->corridors[b->corridor_count];
    c->start = s;
    c->bend = bend;
    c->end = e;
    c->length = leg_cells(s, bend) + leg_cells(bend, e) + 1;
    c->from = from;
    c->to = to;
    return b->corridor_count++;
}

static void add_door(bsp *b, dg_point pos, int32_t room, int32_t corridor)
{
    DG_CELL(b->g, pos.x, pos.y) = DG_TILE_DOOR;
    dg_door *d = &b->doors[b->door_count++];
    d->pos = pos;
    d->a.kind = DG_REF_ROOM;
    d->a.index = room;
    d->b.kind = DG_REF_CORRIDOR;
    d->b.index = corridor;
}

/* Carves route r from room ra to room rb and records it: one corridor, or
 * two for three legs (split halfway along the middle leg). */
static int lists_fit(bsp *b, int32_t corridors, int32_t doors);

static void carve_route(bsp *b, const route *r, int32_t ra, int32_t rb)
{
    if (b->reserved && !lists_fit(b, 2, 2))
        return;
    for (int32_t i = 0; i + 1 < r->n; i++)
        carve_leg(b->g, r->p[i], r->p[i + 1]);
    dg_ref from = {DG_REF_ROOM, ra}, to = {DG_REF_ROOM, rb};
    if (r->n < 4)
    {
        int32_t k = add_corridor(b, r->p[0], r->p[1], r->p[r->n - 1], from, to);
        add_door(b, r->door_a, ra, k);
        add_door(b, r->door_b, rb, k);
        return;
    }
    dg_point m = r->p[1], m2; /* the middle leg runs p[1] -> p[2] */
    int32_t sx = step(m.x, r->p[2].x), sy = step(m.y, r->p[2].y);
    int32_t half = leg_cells(r->p[1], r->p[2]) / 2;
    m.x += sx * half, m.y += sy * half;
    m2.x = m.x + sx, m2.y = m.y + sy;
    int32_t k = b->corridor_count;
    dg_ref first = {DG_REF_CORRIDOR, k}, second = {DG_REF_CORRIDOR, k + 1};
    add_corridor(b, r->p[0], r->p[1], m, from, second);
    add_corridor(b, m2, r->p[2], r->p[3], first, to);
    add_door(b, r->door_a, ra, k);
    add_door(b, r->door_b, rb, k + 1);
}

/* ---- joins ------------------------------------------------------------------------- */

typedef struct pair {
    int32_t a, b;   /* rooms, in the first and second child */
    int32_t cost;   /* cells between them across and along the cut */
    span sa, sb;
} pair;

/* The candidate pairs across a cut: the rooms nearest it on each side and
 * the order of their pairs, cheapest first (stable); a pair is built only
 * when it is tried, and ranked only when it is asked for (most cuts take
 * one of the first few). */
typedef struct pair_list {
    int32_t a[KEEP], b[KEEP];
    span sa[KEEP], sb[KEEP];
    int32_t key[KEEP * KEEP];    /* cost * 16 + listing position: unique, so the order is stable */
    uint8_t code[KEEP * KEEP];   /* i * KEEP + j, by listing position */
    int32_t ranked[KEEP * KEEP]; /* the keys of the cheapest pairs found so far, in order */
    int32_t done;                /* pairs ranked */
    int32_t count;
} pair_list;

static int32_t pair_cost(const span *sa, const span *sb)
{
    int32_t apart = DG_MAX(sa->v0, sb->v0) - DG_MIN(sa->v1, sb->v1);
    return sb->u0 - sa->u1 + DG_MAX(apart, 0);
}

static int32_t list_pairs(const bsp *b, const bsp_cut *n, pair_list *out)
{
    int na = 0, nb = 0, count = 0;
    for (; na < KEEP && n->near[0][na] >= 0; na++)
    {
        out->a[na] = n->near[0][na];
        out->sa[na] = span_of(b->rooms[out->a[na]].rect, n->across);
    }
    for (; nb < KEEP && n->near[1][nb] >= 0; nb++)
    {
        out->b[nb] = n->near[1][nb];
        out->sb[nb] = span_of(b->rooms[out->b[nb]].rect, n->across);
    }
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++, count++)
        {
            out->key[count] = pair_cost(&out->sa[i], &out->sb[j]) * 16 + count;
            out->code[count] = (uint8_t)(i * KEEP + j);
        }
    out->done = 0;
    return out->count = count;
}

/* The k-th cheapest pair of l (k at most one past those asked for before):
 * the next is the smallest key above the last, found by selects rather
 * than branches on the random costs. */
static pair pair_at(pair_list *l, int32_t k)
{
    while (l->done <= k)
    {
        int32_t after = l->done > 0 ? l->ranked[l->done - 1] : INT32_MIN, best = INT32_MAX;
        for (int32_t m = 0; m < l->count; m++)
            best = l->key[m] > after && l->key[m] < best ? l->key[m] : best;
        l->ranked[l->done++] = best;
    }
    int32_t key = l->ranked[k], code = l->code[key & 15];
    int i = code / KEEP, j = code % KEEP;
    pair q = {l->a[i], l->b[j], key >> 4, l->sa[i], l->sb[j]};
    return q;
}

/* 1 if no leg of the route runs longer than LEG_MAX cells: with its doors
 * or bends a leg is a straight one-wide run, which the contract keeps to 40. */
static int legs_short(const route *r)
{
    for (int32_t i = 0; i + 1 < r->n; i++)
        if (leg_cells(r->p[i], r->p[i + 1]) + 1 > LEG_MAX)
            return 0;
    return 1;
}

/* Tries the straight and L routes of one pair; 1 with *r filled if one is
 * clear and has no leg too long. */
static int try_pair(bsp *b, int across, const pair *q, dg_rng *rng, route *r)
{
    if (overlap(&q->sa, &q->sb))
    {
        plan_straight(&q->sa, &q->sb, across, rng, r);
        return legs_short(r) && route_clear(b->g, r);
    }
    int order = (int)dgi_rng_below(rng, 2);
    for (int k = 0; k < 2; k++)
    {
        int ok = (k ^ order) ? plan_l_into_side(&q->sa, &q->sb, across, rng, r)
                             : plan_l_from_side(&q->sa, &q->sb, across, rng, r);
        if (ok && legs_short(r) && route_clear(b->g, r))
            return 1;
    }
    return 0;
}

enum { ALONG_MAX = 32, ALONG_STACK = 64, ALONG_TRIES = 12 };

/* 1 if node c lies against the cut at u = line from the first (second = 0)
 * or the second side (second = 1) and reaches into rows v0..v1 along it. */
static int against_cut(const bsp_node *c, int across, int32_t line, int second, int32_t v0, int32_t v1)
{
    int32_t lo = across ? c->x : c->y, len = across ? c->w : c->h;
    int32_t vlo = across ? c->y : c->x, vlen = across ? c->h : c->w;
    return (second ? lo == line : lo + len == line) && vlo <= v1 && vlo + vlen > v0;
}

/* Up to ALONG_MAX rooms of the subtree at `node` whose leaves lie against
 * the cut within rows v0..v1 along it, in leaf order (a bounded stack). */
static int32_t rooms_along(const bsp *b, int32_t node, int across, int32_t line, int second,
                           const int32_t v[2], int32_t *out)
{
    int32_t stack[ALONG_STACK], top = 0, count = 0;
    stack[top++] = node;
    while (top > 0 && count < ALONG_MAX)
    {
        const bsp_node *n = &b->nodes[stack[--top]];
        if (n->child[0] < 0)
        {
            if (b->rooms[n->first].rect.w > 0)
                out[count++] = n->first;
            continue;
        }
        for (int k = 1; k >= 0; k--) /* the first child popped first */
            if (top < ALONG_STACK && against_cut(&b->nodes[n->child[k]], across, line, second, v[0], v[1]))
                stack[top++] = n->child[k];
    }
    return count;
}

/* Keeps the ALONG_TRIES cheapest pairs, cheapest first (stable). */
static void keep_cheapest(pair *best, int32_t *count, const pair *p)
{
    int32_t k = *count < ALONG_TRIES ? (*count)++ : ALONG_TRIES;
    for (; k > 0 && best[k - 1].cost > p->cost; k--)
        if (k < ALONG_TRIES)
            best[k] = best[k - 1];
    if (k < ALONG_TRIES)
        best[k] = *p;
}

/* When the candidates nearest the cut have no clear route: the rooms of the
 * leaves against the cut on each side, between the two candidates along it,
 * the cheapest pairs first. 1 with *r and *q filled if one has a clear
 * route; this keeps the corridor through the band along the cut (which
 * can run far) for the rare cut where none has. */
static int join_along(bsp *b, const bsp_node *n, const span *ca, const span *cb, route *r, pair *q)
{
    const bsp_node *c1 = &b->nodes[n->child[1]];
    int32_t line = n->across ? c1->x : c1->y, ra[ALONG_MAX], rb[ALONG_MAX];
    int32_t v[2] = {DG_MIN(ca->v0, cb->v0), DG_MAX(ca->v1, cb->v1)};
    int32_t na = rooms_along(b, n->child[0], n->across, line, 0, v, ra);
    int32_t nb = rooms_along(b, n->child[1], n->across, line, 1, v, rb);
    pair best[ALONG_TRIES];
    span sb[ALONG_MAX];
    int32_t count = 0;
    for (int32_t j = 0; j < nb; j++)
        sb[j] = span_of(b->rooms[rb[j]].rect, n->across);
    for (int32_t i = 0; i < na; i++)
    {
        span sa = span_of(b->rooms[ra[i]].rect, n->across);
        for (int32_t j = 0; j < nb; j++)
        {
            pair p = {ra[i], rb[j], pair_cost(&sa, &sb[j]), sa, sb[j]};
            keep_cheapest(best, &count, &p);
        }
    }
    for (int32_t k = 0; k < count; k++)
        if (try_pair(b, n->across, &best[k], &b->route, r))
        {
            *q = best[k];
            return 1;
        }
    return 0;
}

/* Joins the two halves of node n. The rooms reaching nearest the cut from
 * each side, when they face each other, get a straight corridor, which the
 * band between them keeps clear, unless it would run longer than LEG_MAX;
 * otherwise the cheapest pair with a clear and short straight or L route,
 * else those two rooms through the band. */
static void join(bsp *b, bsp_node *n, const bsp_cut *cut)
{
    const bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
    int32_t ra = best_of(b, c0, n->across ? SIDE_E : SIDE_S)[0].room;
    int32_t rb = best_of(b, c1, n->across ? SIDE_W : SIDE_N)[0].room;
    span sa = span_of(b->rooms[ra].rect, n->across), sb = span_of(b->rooms[rb].rect, n->across);
    route r;
    if (overlap(&sa, &sb))
    {
        plan_straight(&sa, &sb, n->across, &b->route, &r);
        if (legs_short(&r))
        {
            carve_route(b, &r, ra, rb);
            n->ja = ra, n->jb = rb;
            return;
        }
    }
    pair_list pl;
    int32_t count = list_pairs(b, cut, &pl);
    for (int32_t i = 0; i < count; i++)
    {
        pair q = pair_at(&pl, i);
        if (try_pair(b, n->across, &q, &b->route, &r))
        {
            carve_route(b, &r, q.a, q.b);
            n->ja = q.a, n->jb = q.b;
            return;
        }
    }
    pair q;
    if (join_along(b, n, &sa, &sb, &r, &q))
    {
        carve_route(b, &r, q.a, q.b);
        n->ja = q.a, n->jb = q.b;
        return;
    }
    plan_band(&sa, &sb, n->across, &b->route, &r); /* the band is always clear */
    carve_route(b, &r, ra, rb);
    n->ja = ra, n->jb = rb;
}

/* ---- joins around reserved cells ------------------------------------------------------ */

/* Cells a searched corridor may take: rock off the grid's outer ring. */
static int free_rock(const dg_grid *g, int32_t x, int32_t y)
{
    return x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1 &&
           DG_CELL(g, x, y) == DG_TILE_VOID;
}

static int holds(const bsp_node *n, int32_t x, int32_t y)
{
    return x >= n->x && y >= n->y && x < n->x + n->w && y < n->y + n->h;
}

/* 1 if the cell in direction d of (x, y) is a wall that can take a door into
 * a room of node n: that room's floor lies straight behind it. */
static int door_into(const dg_grid *g, const bsp_node *n, int32_t x, int32_t y, int d)
{
    dg_point door = {x + dgi_dir_dx[d], y + dgi_dir_dy[d]};
    int32_t fx = door.x + dgi_dir_dx[d], fy = door.y + dgi_dir_dy[d];
    return holds(n, fx, fy) && DG_CELL(g, fx, fy) == DG_TILE_FLOOR && door_ok(g, door);
}

/* The room of node n whose interior holds (x, y), or -1. */
static int32_t room_in(const bsp *b, const bsp_node *n, int32_t x, int32_t y)
{
    for (int32_t i = n->first; i < n->first + n->leaves; i++)
    {
        dg_rect r = b->rooms[i].rect;
        if (x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h)
            return i;
    }
    return -1;
}

/* The rock cells in front of the door sites of node n's rooms, as sources. */
static int32_t seed_sources(bsp *b, const bsp_node *n)
{
    const dg_grid *g = b->g;
    int32_t tail = 0, w = g->width;
    for (int32_t i = n->first; i < n->first + n->leaves; i++)
    {
        dg_rect r = b->rooms[i].rect;
        for (int d = 0; d < 4 && r.w > 0; d++)
        {
            int32_t len = d & 1 ? r.h : r.w;
            for (int32_t t = 0; t < len; t++)
            {
                int32_t fx = d == 1 ? r.x + r.w - 1 : d == 3 ? r.x : r.x + t;
                int32_t fy = d == 0 ? r.y : d == 2 ? r.y + r.h - 1 : r.y + t;
                int32_t ox = fx + 2 * dgi_dir_dx[d], oy = fy + 2 * dgi_dir_dy[d];
                if (free_rock(g, ox, oy) && b->dist[oy * w + ox] < 0 &&
                    door_into(g, n, ox, oy, (d + 2) & 3))
                {
                    b->dist[oy * w + ox] = 0;
                    b->queue[tail++] = oy * w + ox;
                }
            }
        }
    }
    return tail;
}

/* Walks back from cell `end` to a source down the distances, keeping its
 * direction while it can (few bends); the cells go to queue, end first. */
static int32_t trace_back(bsp *b, int32_t end, int dir)
{
    int32_t w = b->g->width, len = 0, at = end;
    b->queue[len++] = at;
    while (b->dist[at] > 0)
    {
        for (int k = 0; k < 4; k++)
        {
            int d = (dir + k) & 3;
            int32_t next = at + dgi_dir_dy[d] * w + dgi_dir_dx[d];
            if (b->dist[next] == b->dist[at] - 1)
            {
                dir = d;
                at = next;
                break;
            }
        }
        b->queue[len++] = at;
    }
    return len;
}

/* Records the searched corridor: corners pts[0..m) (source side first), two
 * legs per corridor, each corridor starting one cell past the last's end. */
static void record_search(bsp *b, const dg_point *pts, int32_t m, int32_t ra, int32_t rb,
                          dg_point door_a, dg_point door_b)
{
    int32_t k = b->corridor_count, count = m < 2 ? 1 : m / 2;
    for (int32_t j = 0; j < count; j++)
    {
        dg_point s = pts[2 * j], bend = pts[DG_MIN(2 * j + 1, m - 1)], e = pts[DG_MIN(2 * j + 2, m - 1)];
        if (j > 0)
            s.x += step(s.x, bend.x), s.y += step(s.y, bend.y);
        dg_ref from = {DG_REF_ROOM, ra}, to = {DG_REF_ROOM, rb};
        if (j > 0)
            from.kind = DG_REF_CORRIDOR, from.index = k + j - 1;
        if (j + 1 < count)
            to.kind = DG_REF_CORRIDOR, to.index = k + j + 1;
        add_corridor(b, s, bend, e, from, to);
    }
    add_door(b, door_a, ra, k);
    add_door(b, door_b, rb, b->corridor_count - 1);
}

/* Carves the path found from the search's cell `end` (door d of it) and
 * records it; 0 only when the lists could not grow. */
static int carve_search(bsp *b, bsp_node *n, int32_t end, int d)
{
    dg_grid *g = b->g;
    const bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
    int32_t w = g->width, len = trace_back(b, end, (d + 2) & 3);
    dg_point *pts = (dg_point *)(void *)b->dist; /* the distances are spent */
    int32_t m = 0;
    for (int32_t i = len - 1; i >= 0; i--) /* source first; corners where the way turns */
    {
        dg_point q = {b->queue[i] % w, b->queue[i] / w};
        if (m >= 2 && (pts[m - 1].x - pts[m - 2].x) * (q.y - pts[m - 1].y) ==
                          (pts[m - 1].y - pts[m - 2].y) * (q.x - pts[m - 1].x))
            pts[m - 1] = q; /* straight on: move the last corner */
        else
            pts[m++] = q;
    }
    if (!lists_fit(b, m / 2 + 1, 2))
        return 0;
    dg_point src = pts[0], door_a = src, door_b = {end % w + dgi_dir_dx[d], end / w + dgi_dir_dy[d]};
    for (int k = 0; k < 4; k++)
        if (door_into(g, c0, src.x, src.y, k))
        {
            door_a.x += dgi_dir_dx[k], door_a.y += dgi_dir_dy[k];
            break;
        }
    int32_t ra = room_in(b, c0, 2 * door_a.x - src.x, 2 * door_a.y - src.y);
    int32_t rb = room_in(b, c1, door_b.x + dgi_dir_dx[d], door_b.y + dgi_dir_dy[d]);
    for (int32_t i = 0; i + 1 < m; i++)
        carve_leg(g, pts[i], pts[i + 1]);
    if (m == 1)
        carve_leg(g, pts[0], pts[0]);
    record_search(b, pts, m, ra, rb, door_a, door_b);
    n->ja = ra, n->jb = rb;
    return 1;
}

/* Breadth-first through rock from the door sites of the first half's rooms
 * to a door site of the second half's: the way round reserved cells. 0 if
 * the rock holds no such way. */
static int join_by_search(bsp *b, bsp_node *n)
{
    const dg_grid *g = b->g;
    const bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
    int32_t w = g->width, cells = w * g->height;
    for (int32_t i = 0; i < cells; i++)
        b->dist[i] = -1;
    int32_t head = 0, tail = seed_sources(b, c0);
    while (head < tail)
    {
        int32_t at = b->queue[head++], x = at % w, y = at / w;
        for (int d = 0; d < 4; d++)
        {
            if (door_into(g, c1, x, y, d))
                return carve_search(b, n, at, d);
            int32_t nx = x + dgi_dir_dx[d], ny = y + dgi_dir_dy[d];
            if (free_rock(g, nx, ny) && b->dist[ny * w + nx] < 0)
            {
                b->dist[ny * w + nx] = b->dist[at] + 1;
                b->queue[tail++] = ny * w + nx;
            }
        }
    }
    return 0;
}

/* join() with reserved cells on the board: no route is free by construction,
 * so every one is checked, and when none of the planned shapes is clear a
 * search finds a way round. A half without rooms needs no join. */
static void join_around(bsp *b, bsp_node *n, const bsp_cut *cut)
{
    const bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
    n->ja = n->jb = -1;
    if (!has_rooms(b, c0) || !has_rooms(b, c1))
        return;
    pair_list pl;
    int32_t count = list_pairs(b, cut, &pl);
    route r;
    for (int32_t i = 0; i < count; i++)
    {
        pair q = pair_at(&pl, i);
        if (try_pair(b, n->across, &q, &b->route, &r))
        {
            carve_route(b, &r, q.a, q.b);
            n->ja = q.a, n->jb = q.b;
            return;
        }
    }
    pair first = count > 0 ? pair_at(&pl, 0) : (pair){0};
    if (count > 0 && !overlap(&first.sa, &first.sb))
    {
        plan_band(&first.sa, &first.sb, n->across, &b->route, &r);
        if (route_clear(b->g, &r))
        {
            carve_route(b, &r, first.a, first.b);
            n->ja = first.a, n->jb = first.b;
            return;
        }
    }
    if (!join_by_search(b, n))
        b->split = 1;
}

/* Children before parents: a leaf is painted and its room made its
 * candidate on every side; a node's candidates come from its children's, then
 * its halves are joined. In pre-order every corridor is dug right after the
 * rooms it joins are painted, while their rows are still in cache. */
/* The candidates nearest n's cut from each side, kept for its pairs and loop. */
static void keep_near(const bsp *b, const bsp_node *n, bsp_cut *cut)
{
    const cand *la = best_of(b, &b->nodes[n->child[0]], n->across ? SIDE_E : SIDE_S);
    const cand *lb = best_of(b, &b->nodes[n->child[1]], n->across ? SIDE_W : SIDE_N);
    for (int k = 0; k < KEEP; k++)
        cut->near[0][k] = la[k].room, cut->near[1][k] = lb[k].room;
    cut->across = n->across;
}

/* A cut's loop: with loop_chance, a second clear corridor between two rooms
 * other than its join's pair. */
static void loop_across(bsp *b, const bsp_cut *n)
{
    if (!dg_rng_chance(&b->loop, b->p->loop_chance))
        return;
    pair_list pl;
    int32_t count = list_pairs(b, n, &pl);
    route r;
    for (int32_t k = 0; k < count; k++)
    {
        pair q = pair_at(&pl, k);
        if ((q.a != n->ja || q.b != n->jb) && try_pair(b, n->across, &q, &b->loop, &r))
        {
            carve_route(b, &r, q.a, q.b);
            return;
        }
    }
}

/* Children before parents: each leaf painted, each cut joined.
 * Depth-first with nothing reserved, the candidates live on a stack (a
 * node's two children are its top two entries when it is reached);
 * otherwise one entry per node. */
static void join_all(bsp *b)
{
    int32_t top = 0;
    for (int32_t i = b->node_count - 1; i >= 0; i--)
    {
        bsp_node *n = &b->nodes[i];
        /* the candidates are written in place: a copy of a local made by
         * small stores would be read back in larger loads, which stall */
        if (n->child[0] < 0)
        {
            n->slot = b->stacked ? top++ : i;
            if (!b->reserved) /* (painted beforehand around reserved cells) */
                paint_leaf(b->g, n, b->rooms[n->first].rect);
            if (b->start_back >= 0 && edge_room(b, n) && b->start_back-- == 0)
                b->start_room = n->first;
            leaf_candidates(n, b->rooms[n->first].rect, &b->cands[n->slot]);
        }
        else
        {
            n->leaves = b->nodes[n->child[0]].leaves + b->nodes[n->child[1]].leaves;
            bsp_cut *cut = &b->cuts[b->cut_count++];
            keep_near(b, n, cut);
            if (b->reserved)
                join_around(b, n, cut);
            else
                join(b, n, cut);
            cut->ja = n->ja, cut->jb = n->jb;
            top -= 2 * b->stacked; /* the children's entries: the node takes the second's */
            node_candidates(b, n, &b->cands[b->stacked ? top : i]);
            n->slot = b->stacked ? top++ : i;
        }
    }
}

/* Loops after every join, so they never move a tree corridor. */
static void add_loops(bsp *b)
{
    if (b->p->loop_chance == 0)
        return;
    for (int32_t i = 0; i < b->cut_count; i++)
        loop_across(b, &b->cuts[i]);
}

/* ---- reserved cells ------------------------------------------------------------------ */

static void paint_all(bsp *b)
{
    for (int32_t i = 0; i < b->node_count; i++)
        if (b->nodes[i].child[0] < 0)
            paint_leaf(b->g, &b->nodes[i], b->rooms[b->nodes[i].first].rect);
}

/* Reserved cells and the rock around them become BLOCK, which no route
 * takes (room walls on the ring stay walls: rooms keep off the cells). */
static void block_reserved(bsp *b)
{
    dg_grid *g = b->g;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            if (!dgi_mask_at(b->reserved, x, y))
                continue;
            for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, g->height - 1); yy++)
                for (int32_t xx = DG_MAX(x - 1, 0); xx <= DG_MIN(x + 1, g->width - 1); xx++)
                {
                    uint8_t *c = &DG_CELL(g, xx, yy);
                    *c = *c == DG_TILE_VOID || dgi_mask_at(b->reserved, xx, yy) ? (uint8_t)BLOCK : *c;
                }
        }
}

static int open_near(const bsp *b, int32_t x, int32_t y)
{
    const dg_grid *g = b->g;
    for (int32_t yy = DG_MAX(y - 1, 0); yy <= DG_MIN(y + 1, g->height - 1); yy++)
        for (int32_t xx = DG_MAX(x - 1, 0); xx <= DG_MIN(x + 1, g->width - 1); xx++)
            if (!dgi_mask_at(b->reserved, xx, yy) && dg_tile_passable(DG_CELL(g, xx, yy)))
                return 1;
    return 0;
}

/* The caller's cells back from the copy; the ring is wall beside the map's
 * open cells, rock elsewhere. */
static void restore_reserved(bsp *b, const uint8_t *backup)
{
    dg_grid *g = b->g;
    size_t row = (size_t)g->width;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t *c = &DG_CELL(g, x, y);
            if (backup && dgi_mask_at(b->reserved, x, y))
                *c = backup[(size_t)y * row + (size_t)x];
            else if (*c == BLOCK)
                *c = open_near(b, x, y) ? (uint8_t)DG_TILE_WALL : (uint8_t)DG_TILE_VOID;
        }
}

static int32_t room_label(const bsp *b, const int32_t *label, dg_rect r)
{
    return label[(r.y + r.h / 2) * b->g->width + r.x + r.w / 2];
}

/* The part of the map holding the most room cells (reserved cells may have
 * cut the board into pieces no corridor joins). */
static int32_t main_part(bsp *b, const int32_t *label, int32_t regions, int32_t *sum)
{
    int32_t keep = 0;
    memset(sum, 0, (size_t)regions * sizeof *sum);
    for (int32_t i = 0; i < b->leaf_count; i++)
        if (b->rooms[i].rect.w > 0)
            sum[room_label(b, label, b->rooms[i].rect)] += b->rooms[i].cells;
    for (int32_t k = 1; k < regions; k++)
        keep = sum[k] > sum[keep] ? k : keep;
    return keep;
}

/* Everything outside the main part goes back to rock: its rooms, corridors,
 * doors and the walls left beside nothing. */
static void prune(bsp *b)
{
    dg_grid *g = b->g;
    int32_t w = g->width, *label = b->dist, *map = b->queue;
    int32_t regions = dgi_label_regions(g, label, b->queue);
    int32_t keep = main_part(b, label, regions, b->queue);
    for (int32_t i = 0; i < b->leaf_count; i++)
        if (b->rooms[i].rect.w > 0 && room_label(b, label, b->rooms[i].rect) != keep)
            b->rooms[i].rect.w = b->rooms[i].rect.h = 0;
    int32_t kept = 0;
    for (int32_t i = 0; i < b->corridor_count; i++)
    {
        dg_point s = b->corridors[i].start;
        map[i] = label[s.y * w + s.x] == keep ? kept++ : -1;
    }
    for (int32_t i = 0; i < b->corridor_count; i++)
        if (map[i] >= 0)
        {
            dg_corridor c = b->corridors[i];
            if (c.from.kind == DG_REF_CORRIDOR)
                c.from.index = map[c.from.index];
            if (c.to.kind == DG_REF_CORRIDOR)
                c.to.index = map[c.to.index];
            b->corridors[map[i]] = c;
        }
    b->corridor_count = kept;
    kept = 0;
    for (int32_t i = 0; i < b->door_count; i++)
        if (label[b->doors[i].pos.y * w + b->doors[i].pos.x] == keep)
        {
            b->doors[kept] = b->doors[i];
            b->doors[kept++].b.index = map[b->doors[i].b.index];
        }
    b->door_count = kept;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < w; x++)
            if (label[y * w + x] >= 0 && label[y * w + x] != keep)
                DG_CELL(g, x, y) = DG_TILE_VOID;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < w; x++)
            if (DG_CELL(g, x, y) == DG_TILE_WALL && !open_near(b, x, y))
                DG_CELL(g, x, y) = DG_TILE_VOID;
}

/* The rooms without a room (rect 0) dropped from the list, every reference
 * renumbered. */
static void compact_rooms(bsp *b)
{
    int32_t *map = b->queue, kept = 0;
    for (int32_t i = 0; i < b->leaf_count; i++)
        map[i] = b->rooms[i].rect.w > 0 ? kept++ : -1;
    for (int32_t i = 0; i < b->leaf_count; i++)
        if (map[i] >= 0)
        {
            dg_room r = b->rooms[i];
            r.parent = r.parent >= 0 ? map[r.parent] : -1;
            b->rooms[map[i]] = r;
        }
    for (int32_t i = 0; i < b->corridor_count; i++)
    {
        dg_corridor *c = &b->corridors[i];
        if (c->from.kind == DG_REF_ROOM)
            c->from.index = map[c->from.index];
        if (c->to.kind == DG_REF_ROOM)
            c->to.index = map[c->to.index];
    }
    for (int32_t i = 0; i < b->door_count; i++)
        b->doors[i].a.index = map[b->doors[i].a.index];
    b->start_room = map[b->start_room];
    b->room_count = kept;
}

/* The start room: drawn among the rooms of leaves against the board's edge
 * (far from the rooms across the board, not always in a corner), or the
 * first room left if none is. */
static void site_start(bsp *b)
{
    int32_t edge = 0;
    if (b->stacked && b->edge_rooms > 0) /* drawn by draw_start, found by join_all */
        return;
    if (b->reserved) /* (prune may have emptied some) */
        for (int32_t i = 0; i < b->node_count; i++)
            edge += edge_room(b, &b->nodes[i]);
    else
        edge = b->edge_rooms;
    if (edge == 0)
    {
        int32_t i = 0;
        while (b->rooms[i].rect.w == 0)
            i++;
        b->start_room = i;
        return;
    }
    int32_t pick = (int32_t)dgi_rng_below(&b->layout, (uint32_t)edge);
    for (int32_t i = 0; pick >= 0; i++)
        if (edge_room(b, &b->nodes[i]) && pick-- == 0)
            b->start_room = b->nodes[i].first;
}

static int32_t count_rooms(const bsp *b)
{
    int32_t n = 0;
    for (int32_t i = 0; i < b->leaf_count; i++)
        n += b->rooms[i].rect.w > 0;
    return n;
}

/* ---- finishing --------------------------------------------------------------------- */

/* Parents toward the start room: top-down, a half not holding its node's
 * entry room is entered through the tree corridor, from the other half. */
static void link_parents(bsp *b)
{
    b->nodes[0].entry = b->start_room;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child[0] < 0)
            continue;
        bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
        if (n->ja < 0) /* (reserved cells) a half without rooms, or not joined */
        {
            c0->entry = n->entry >= 0 && n->entry < c1->first ? n->entry : best_of(b, c0, 0)[0].room;
            c1->entry = n->entry >= c1->first ? n->entry : best_of(b, c1, 0)[0].room;
            continue;
        }
        if (n->entry < c1->first)
        {
            c0->entry = n->entry;
            c1->entry = n->jb;
            b->rooms[n->jb].parent = n->ja;
        }
        else
        {
            c1->entry = n->entry;
            c0->entry = n->ja;
            b->rooms[n->ja].parent = n->jb;
        }
    }
}

static void drop_doors(bsp *b)
{
    for (int32_t i = 0; i < b->door_count; i++)
        DG_CELL(b->g, b->doors[i].pos.x, b->doors[i].pos.y) = DG_TILE_CORRIDOR;
    b->door_count = 0;
}

static dg_status fill_result(const bsp *b, dg_result *r)
{
    dg_status st = dgi_result_reserve(r, b->room_count, b->corridor_count, b->door_count, 0);
    if (st != DG_OK)
        return st;
    dgi_result_reset(r);
    memcpy(r->rooms, b->rooms, (size_t)b->room_count * sizeof *r->rooms);
    if (b->corridor_count > 0) /* none with a single leaf */
        memcpy(r->corridors, b->corridors, (size_t)b->corridor_count * sizeof *r->corridors);
    if (b->door_count > 0)
        memcpy(r->doors, b->doors, (size_t)b->door_count * sizeof *r->doors);
    r->room_count = b->room_count;
    r->corridor_count = b->corridor_count;
    r->door_count = b->door_count;
    dg_point none = {-1, -1};
    dg_metrics *m = &r->metrics;
    st = dgi_result_finish_at(r, b->g, none, b->start_room, &m->loops, b->a);
    if (st == DG_OK)
        st = dgi_result_exit_in_room(r, b->g, b->a);
    m->requested = b->leaf_count;
    m->placed = b->room_count;
    m->stopped_early = b->stopped_early;
    return st;
}

static void bsp_free(bsp *b)
{
    dgi_free(b->a, b->nodes, (size_t)b->node_cap * sizeof *b->nodes);
    size_t cand_bytes = (size_t)b->cand_cap * sizeof *b->cands;
    dgi_free(b->a, b->cands, b->cands ? cand_bytes + (size_t)b->leaf_count * sizeof *b->cuts : 0);
    dgi_free(b->a, b->block, b->block_size);
}

/* Rooms, corridors (a tree corridor may be two, a loop one per cut) and
 * doors (two per corridor route) in one block. */
static dg_status alloc_lists(bsp *b)
{
    b->stacked = !b->reserved && b->p->max_leaves == 0;
    b->cand_cap = b->stacked ? b->height + 2 : b->node_count;
    size_t cand_bytes = (size_t)b->cand_cap * sizeof *b->cands;
    b->cands = dgi_alloc(b->a, cand_bytes + (size_t)b->leaf_count * sizeof *b->cuts); /* cuts behind */
    if (!b->cands)
        return DG_E_NOMEM;
    b->cuts = (bsp_cut *)(void *)((char *)b->cands + cand_bytes);
    size_t rooms = (size_t)b->leaf_count, cuts = rooms - 1;
    size_t room_bytes = rooms * sizeof(dg_room), cor_bytes = 3 * cuts * sizeof(dg_corridor);
    b->block_size = room_bytes + cor_bytes + 4 * cuts * sizeof(dg_door);
    b->block = dgi_alloc(b->a, b->block_size);
    if (!b->block)
        return DG_E_NOMEM;
    b->rooms = b->block;
    b->corridors = (dg_corridor *)(void *)((char *)b->block + room_bytes);
    b->doors = (dg_door *)(void *)((char *)b->block + room_bytes + cor_bytes);
    b->cor_cap = (int32_t)(3 * cuts);
    b->door_cap = (int32_t)(4 * cuts);
    return DG_OK;
}

/* Around reserved cells a searched corridor may need more records than the
 * block holds: a larger block, the lists copied. 0 (and b->status set) if
 * memory ran out. */
static int lists_fit(bsp *b, int32_t corridors, int32_t doors)
{
    if (b->corridor_count + corridors <= b->cor_cap && b->door_count + doors <= b->door_cap)
        return 1;
    int32_t cc = DG_MAX(2 * b->cor_cap, b->corridor_count + corridors);
    int32_t dc = DG_MAX(2 * b->door_cap, b->door_count + doors);
    size_t room_bytes = (size_t)b->leaf_count * sizeof(dg_room), cor_bytes = (size_t)cc * sizeof(dg_corridor);
    size_t size = room_bytes + cor_bytes + (size_t)dc * sizeof(dg_door);
    uint8_t *block = b->status == DG_OK ? dgi_alloc(b->a, size) : NULL;
    if (!block)
    {
        b->status = DG_E_NOMEM;
        return 0;
    }
    memcpy(block, b->rooms, room_bytes);
    memcpy(block + room_bytes, b->corridors, (size_t)b->corridor_count * sizeof(dg_corridor));
    memcpy(block + room_bytes + cor_bytes, b->doors, (size_t)b->door_count * sizeof(dg_door));
    dgi_free(b->a, b->block, b->block_size);
    b->block = block;
    b->block_size = size;
    b->rooms = b->block;
    b->corridors = (dg_corridor *)(void *)(block + room_bytes);
    b->doors = (dg_door *)(void *)(block + room_bytes + cor_bytes);
    b->cor_cap = cc;
    b->door_cap = dc;
    return 1;
}

/* With `shapes`, rooms drawn with a shape take it once every corridor is in
 * (from their own stream, so shapes never move a room or a corridor). */
static void shape_rooms(bsp *b, uint64_t seed)
{
    if (b->p->shapes == 0)
        return;
    dg_rng rng;
    dgi_rng_seed(&rng, seed, STREAM_SHAPE);
    for (int32_t i = 0; i < b->room_count; i++)
    {
        dg_room *r = &b->rooms[i];
        dgi_shape s;
        if (r->rect.w == 0)
            continue;
        dgi_shape_pick(&s, r->rect.w, r->rect.h, (1u << DGI_SHAPE_KINDS) - 1, b->p->shapes, &rng);
        if (s.kind == DG_SHAPE_RECT)
            continue;
        r->shape = s.kind;
        r->cells = dgi_reshape_room(b->g, r->rect, &s);
    }
}

/* Everything that writes the grid; without reserved cells nothing here can
 * fail. Around them: DG_E_NOSPACE when no leaf holds a room (before any
 * write), DG_E_NOMEM when the lists cannot grow; backup (the caller's cells)
 * puts the reserved cells back. */
static dg_status build(bsp *b, const uint8_t *backup, uint64_t seed)
{
    place_rooms(b);
    b->room_count = b->leaf_count;
    if (b->reserved && count_rooms(b) == 0)
        return DG_E_NOSPACE;
    if (b->reserved)
    {
        paint_all(b);
        block_reserved(b);
    }
    join_all(b);
    add_loops(b);
    if (b->p->doors == DG_BSP_DOORS_NONE)
        drop_doors(b);
    if (b->reserved && b->split)
        prune(b);
    site_start(b);
    link_parents(b);
    if (b->reserved)
    {
        compact_rooms(b);
        restore_reserved(b, backup);
    }
    shape_rooms(b, seed);
    return b->status;
}

/* Scratch for routing around reserved cells: distances and a queue, a cell each. */
static dg_status alloc_site(bsp *b)
{
    if (!b->reserved)
        return DG_OK;
    size_t cells = (size_t)b->g->width * (size_t)b->g->height;
    b->dist = dgi_alloc(b->a, 2 * cells * sizeof *b->dist);
    b->queue = b->dist ? b->dist + cells : NULL;
    return b->dist ? DG_OK : DG_E_NOMEM;
}

static dg_status bsp_fail(const bsp *b, dg_status st, dg_diag *diag)
{
    if (st == DG_E_NOSPACE)
        return dgi_fail(diag, st, "bsp: the reserved cells leave none of the %d leaves room for "
                        "a %dx%d room with its walls (the grid was not changed)",
                        (int)b->leaf_count, (int)b->p->room_min_w, (int)b->p->room_min_h);
    return dgi_fail(diag, st, "bsp: out of memory (the grid was not changed)");
}

dg_status dg_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                          dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_bsp_generate(grid, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                           const dgi_mask *reserved, dg_result *result,
                           const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    bsp b;
    memset(&b, 0, sizeof b);
    b.g = grid;
    b.p = params;
    b.a = allocator;
    b.reserved = reserved;
    dgi_rng_seed(&b.layout, seed, STREAM_LAYOUT);
    dgi_rng_seed(&b.route, seed, STREAM_ROUTE);
    dgi_rng_seed(&b.loop, seed, STREAM_LOOP);
    dgi_rng_seed(&b.site, seed, STREAM_SITE);
    st = partition(&b);
    if (st == DG_OK)
    {
        if (b.p->max_leaves > 0)
            number_leaves(&b);
        st = alloc_lists(&b);
    }
    if (st == DG_OK)
        st = alloc_site(&b);
    /* Filling result may still fail after the grid is written: a copy of the
     * caller's cells puts it back then. Without result nothing can fail
     * (unless cells are reserved: then the copy is always taken). */
    size_t row = (size_t)grid->width;
    size_t backup_size = result || reserved ? row * (size_t)grid->height : 0;
    uint8_t *backup = NULL;
    if (st == DG_OK && backup_size && !(backup = dgi_alloc(allocator, backup_size)))
        st = DG_E_NOMEM;
    if (st != DG_OK)
    {
        dgi_free(allocator, b.dist, b.dist ? 2 * row * (size_t)grid->height * sizeof *b.dist : 0);
        bsp_free(&b);
        return dgi_fail(diag, st, "bsp: out of memory (the grid was not changed)");
    }
    for (int32_t y = 0; backup && y < grid->height; y++)
        memcpy(backup + (size_t)y * row, &DG_CELL(grid, 0, y), row);
    st = build(&b, backup, seed);
    if (st != DG_OK && backup)
        for (int32_t y = 0; y < grid->height; y++)
            memcpy(&DG_CELL(grid, 0, y), backup + (size_t)y * row, row);
    if (result && st == DG_OK)
    {
        dg_result fresh;
        dg_result_init(&fresh, &result->allocator);
        fresh.allocator = result->allocator;
        st = fill_result(&b, &fresh);
        if (st == DG_OK)
        {
            dg_result_free(result);
            *result = fresh;
        }
        else
        {
            dg_result_free(&fresh);
            for (int32_t y = 0; backup && y < grid->height; y++)
                memcpy(&DG_CELL(grid, 0, y), backup + (size_t)y * row, row);
        }
    }
    dgi_free(allocator, backup, backup_size);
    dgi_free(allocator, b.dist, b.dist ? 2 * row * (size_t)grid->height * sizeof *b.dist : 0);
    bsp_free(&b);
    if (st != DG_OK)
        return bsp_fail(&b, st, diag);
    dgi_diag_ok(diag);
    return DG_OK;
}
