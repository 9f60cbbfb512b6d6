/* Binary space partition generator (docs/bsp.md): the board is cut in two
 * again and again, one room per leaf, and the two halves of every cut joined
 * bottom-up by a corridor between rooms near the cut line. Everything is
 * iterative: the nodes live in one array in breadth-first order, so a
 * forward pass visits parents before children and a backward pass children
 * before parents (depth-first, pre-order; breadth-first under a leaf cap).
 * The joins are in bsp_join.c, the rooms in bsp_rooms.c (bsp_state.h). */
#include "analysis/analysis.h"
#include "gen/bsp_state.h"

/* Independent PRNG streams: routing and loops never move a room. */
#define STREAM_LAYOUT 0x627370000001ULL
#define STREAM_ROUTE 0x627370000002ULL
#define STREAM_LOOP 0x627370000003ULL
#define STREAM_SITE 0x627370000004ULL /* room redraws beside reserved cells */
#define STREAM_SHAPE 0x627370000005ULL /* room shapes: they never move a room or a corridor */
#define BLOCK 0xFE /* a reserved cell or its ring while the map is built */

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
static int decide_cut(bsp_ctx *b, const pending *q, int *across, int32_t *at)
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
static dg_status append_node(bsp_ctx *b, const pending *q, int32_t *index)
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
static dg_status partition_depth_first(bsp_ctx *b, pending root)
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
static dg_status partition_breadth_first(bsp_ctx *b, pending root)
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

static dg_status partition(bsp_ctx *b)
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
 * depth first numbers the leaves as it makes them (and dgi_bsp_join_all counts them). */
static void number_leaves(bsp_ctx *b)
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

/* ---- reserved cells ------------------------------------------------------------------ */

static void paint_all(bsp_ctx *b)
{
    for (int32_t i = 0; i < b->node_count; i++)
        if (b->nodes[i].child[0] < 0)
            dgi_bsp_paint_leaf(b->g, &b->nodes[i], b->rooms[b->nodes[i].first].rect);
}

/* Reserved cells and the rock around them become BLOCK, which no route
 * takes (room walls on the ring stay walls: rooms keep off the cells). */
static void block_reserved(bsp_ctx *b)
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

static int open_near(const bsp_ctx *b, int32_t x, int32_t y)
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
static void restore_reserved(bsp_ctx *b, const uint8_t *backup)
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

static int32_t room_label(const bsp_ctx *b, const int32_t *label, dg_rect r)
{
    return label[(r.y + r.h / 2) * b->g->width + r.x + r.w / 2];
}

/* The part of the map holding the most room cells (reserved cells may have
 * cut the board into pieces no corridor joins). */
static int32_t main_part(bsp_ctx *b, const int32_t *label, int32_t regions, int32_t *sum)
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
static void prune(bsp_ctx *b)
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
static void compact_rooms(bsp_ctx *b)
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
static void site_start(bsp_ctx *b)
{
    int32_t edge = 0;
    if (b->stacked && b->edge_rooms > 0) /* drawn by draw_start, found by dgi_bsp_join_all */
        return;
    if (b->reserved) /* (prune may have emptied some) */
        for (int32_t i = 0; i < b->node_count; i++)
            edge += dgi_bsp_edge_room(b, &b->nodes[i]);
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
        if (dgi_bsp_edge_room(b, &b->nodes[i]) && pick-- == 0)
            b->start_room = b->nodes[i].first;
}

static int32_t count_rooms(const bsp_ctx *b)
{
    int32_t n = 0;
    for (int32_t i = 0; i < b->leaf_count; i++)
        n += b->rooms[i].rect.w > 0;
    return n;
}

/* ---- finishing --------------------------------------------------------------------- */

/* Parents toward the start room: top-down, a half not holding its node's
 * entry room is entered through the tree corridor, from the other half. */
static void link_parents(bsp_ctx *b)
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
            c0->entry = n->entry >= 0 && n->entry < c1->first ? n->entry : dgi_bsp_best_of(b, c0, 0)[0].room;
            c1->entry = n->entry >= c1->first ? n->entry : dgi_bsp_best_of(b, c1, 0)[0].room;
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

static void drop_doors(bsp_ctx *b)
{
    for (int32_t i = 0; i < b->door_count; i++)
        DG_CELL(b->g, b->doors[i].pos.x, b->doors[i].pos.y) = DG_TILE_CORRIDOR;
    b->door_count = 0;
}

static dg_status fill_result(const bsp_ctx *b, dg_result *r)
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

static void bsp_free(bsp_ctx *b)
{
    dgi_free(b->a, b->nodes, (size_t)b->node_cap * sizeof *b->nodes);
    size_t cand_bytes = (size_t)b->cand_cap * sizeof *b->cands;
    dgi_free(b->a, b->cands, b->cands ? cand_bytes + (size_t)b->leaf_count * sizeof *b->cuts : 0);
    dgi_free(b->a, b->block, b->block_size);
}

/* Rooms, corridors (a tree corridor may be two, a loop one per cut) and
 * doors (two per corridor route) in one block. */
static dg_status alloc_lists(bsp_ctx *b)
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

/* With `shapes`, rooms drawn with a shape take it once every corridor is in
 * (from their own stream, so shapes never move a room or a corridor). */
static void shape_rooms(bsp_ctx *b, uint64_t seed)
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
static dg_status build(bsp_ctx *b, const uint8_t *backup, uint64_t seed)
{
    dgi_bsp_place_rooms(b);
    b->room_count = b->leaf_count;
    if (b->reserved && count_rooms(b) == 0)
        return DG_E_NOSPACE;
    if (b->reserved)
    {
        paint_all(b);
        block_reserved(b);
    }
    dgi_bsp_join_all(b);
    dgi_bsp_add_loops(b);
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
static dg_status alloc_site(bsp_ctx *b)
{
    if (!b->reserved)
        return DG_OK;
    size_t cells = (size_t)b->g->width * (size_t)b->g->height;
    b->dist = dgi_alloc(b->a, 2 * cells * sizeof *b->dist);
    b->queue = b->dist ? b->dist + cells : NULL;
    return b->dist ? DG_OK : DG_E_NOMEM;
}

static dg_status bsp_fail(const bsp_ctx *b, dg_status st, dg_diag *diag)
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
    bsp_ctx b;
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
