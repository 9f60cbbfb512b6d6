/* Binary space partition generator (docs/bsp.md): the board is cut in two
 * again and again, one room per leaf, and the two halves of every cut joined
 * bottom-up by a corridor between rooms near the cut line. Everything is
 * iterative: the nodes live in one array in breadth-first order, so a
 * forward pass visits parents before children and a backward pass children
 * before parents. */
#include "internal.h"

/* Independent PRNG streams: routing and loops never move a room. */
#define STREAM_LAYOUT 0x627370000001ULL
#define STREAM_ROUTE 0x627370000002ULL
#define STREAM_LOOP 0x627370000003ULL

enum {
    KEEP = 4 /* rooms kept per side of a node: the candidates of the joins across its cuts */
};
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

typedef struct bsp_node {
    int32_t x, y, w, h;
    int32_t child;         /* first child (the second is child + 1), -1 for a leaf */
    int32_t depth;
    int32_t across;        /* 1: cut by a column (children side by side), 0: by a row */
    int32_t first, leaves; /* its rooms are first .. first + leaves - 1 (leaf order) */
    int32_t entry;         /* the room the walk from the start room enters it by */
    int32_t ja, jb;        /* the rooms its tree corridor joins (first child, second child) */
    int32_t best[4][KEEP]; /* per side, the rooms reaching farthest out that way, best first */
} bsp_node;

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
    int32_t leaf_count;
    int32_t stopped_early;
    dg_room *rooms;
    dg_corridor *corridors;
    int32_t corridor_count;
    dg_door *doors;
    int32_t door_count;
    void *block; /* rooms, corridors and doors in one allocation */
    size_t block_size;
    int32_t start_room;
    dg_rng layout, route, loop;
} bsp;

/* ---- parameters --------------------------------------------------------------- */

void dg_bsp_defaults(dg_bsp_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->leaf_min_w = 10;
    p->leaf_min_h = 7;
    p->max_ratio = 200;
    p->max_depth = 0;
    p->max_leaves = 0;
    p->room_min_w = 3;
    p->room_max_w = 24;
    p->room_min_h = 3;
    p->room_max_h = 16;
    p->room_fill = 50;
    p->margin = 1;
    p->loop_chance = 150;
    p->doors = DG_BSP_DOORS_ROOMS;
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

/* Smallest part length along a cut: the leaf minimum, and long enough that
 * the part is at most ratio percent longer across than along. */
static int32_t cut_low(int32_t other, int32_t leaf_min, int32_t ratio)
{
    int64_t need = ((int64_t)other * 100 + ratio - 1) / ratio;
    return (int32_t)DG_MAX((int64_t)leaf_min, need);
}

static int can_cut_columns(const dg_bsp_params *p, int32_t w, int32_t h)
{
    return (int64_t)w >= 2 * (int64_t)cut_low(h, p->leaf_min_w, p->max_ratio);
}

static int can_cut_rows(const dg_bsp_params *p, int32_t w, int32_t h)
{
    return (int64_t)h >= 2 * (int64_t)cut_low(w, p->leaf_min_h, p->max_ratio);
}

static dg_status check_params(const dg_grid *g, const dg_bsp_params *p, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(g, diag);
    if (st != DG_OK)
        return st;
    if (!p)
        return dgi_fail(diag, DG_E_NULL, "bsp: params is NULL");
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
        (st = check_int(diag, "doors", p->doors, 0, 1)))
        return st;
    if (p->max_leaves == 1)
    {
        if (g->width < p->leaf_min_w || g->height < p->leaf_min_h)
            return dgi_fail(diag, DG_E_NOSPACE,
                            "bsp: a %dx%d grid cannot hold one leaf of %dx%d (the smallest grid)",
                            (int)g->width, (int)g->height, (int)p->leaf_min_w, (int)p->leaf_min_h);
        return DG_OK;
    }
    if (!can_cut_columns(p, g->width, g->height) && !can_cut_rows(p, g->width, g->height))
    {
        int32_t wide = 2 * cut_low(p->leaf_min_h, p->leaf_min_w, p->max_ratio);
        int32_t tall = 2 * cut_low(p->leaf_min_w, p->leaf_min_h, p->max_ratio);
        return dgi_fail(diag, DG_E_NOSPACE,
                        "bsp: a %dx%d grid cannot be cut into two leaves of at least %dx%d "
                        "within max_ratio %d (the smallest grids are %dx%d and %dx%d)",
                        (int)g->width, (int)g->height, (int)p->leaf_min_w, (int)p->leaf_min_h,
                        (int)p->max_ratio, (int)wide, (int)p->leaf_min_h, (int)p->leaf_min_w,
                        (int)tall);
    }
    return DG_OK;
}

/* ---- the partition --------------------------------------------------------------- */

static void set_node(bsp_node *n, int32_t x, int32_t y, int32_t w, int32_t h, int32_t depth)
{
    n->x = x, n->y = y, n->w = w, n->h = h;
    n->child = -1;
    n->depth = depth;
    n->across = 0;
}

/* Cuts node i in two if it fits and no cap forbids; appends the children. */
static dg_status cut_node(bsp *b, int32_t i)
{
    const dg_bsp_params *p = b->p;
    bsp_node n = b->nodes[i];
    int cols = can_cut_columns(p, n.w, n.h), rows = can_cut_rows(p, n.w, n.h);
    if (!cols && !rows)
        return DG_OK;
    if ((p->max_depth > 0 && n.depth >= p->max_depth) ||
        (p->max_leaves > 0 && b->leaf_count >= p->max_leaves))
    {
        b->stopped_early = 1;
        return DG_OK;
    }
    int across; /* by the shape: a clearly wide node is cut by a column, a tall one by a row */
    if (cols && rows)
    {
        if ((int64_t)n.w * 4 >= (int64_t)n.h * 5)
            across = 1;
        else if ((int64_t)n.h * 4 >= (int64_t)n.w * 5)
            across = 0;
        else
            across = (int)dgi_rng_below(&b->layout, 2);
    }
    else
        across = cols;
    int32_t len = across ? n.w : n.h;
    int32_t lo = across ? cut_low(n.h, p->leaf_min_w, p->max_ratio)
                        : cut_low(n.w, p->leaf_min_h, p->max_ratio);
    int32_t at = lo + (int32_t)dgi_rng_below(&b->layout, (uint32_t)(len - 2 * lo + 1));
    void *arr = b->nodes;
    dg_status st = dgi_grow(b->a, &arr, &b->node_cap, b->node_count + 2, sizeof *b->nodes);
    b->nodes = arr;
    if (st != DG_OK)
        return st;
    bsp_node *c = &b->nodes[b->node_count];
    if (across)
    {
        set_node(&c[0], n.x, n.y, at, n.h, n.depth + 1);
        set_node(&c[1], n.x + at, n.y, n.w - at, n.h, n.depth + 1);
    }
    else
    {
        set_node(&c[0], n.x, n.y, n.w, at, n.depth + 1);
        set_node(&c[1], n.x, n.y + at, n.w, n.h - at, n.depth + 1);
    }
    b->nodes[i].child = b->node_count;
    b->nodes[i].across = across;
    b->node_count += 2;
    b->leaf_count++;
    return DG_OK;
}

/* Breadth-first: the array is its own queue, and a leaf cap stops the
 * cutting evenly across the board. */
static dg_status partition(bsp *b)
{
    int64_t cells = (int64_t)b->g->width * b->g->height;
    int64_t guess = cells / ((int64_t)b->p->leaf_min_w * b->p->leaf_min_h) + 15;
    if (b->p->max_leaves > 0)
        guess = DG_MIN(guess, 2 * (int64_t)b->p->max_leaves);
    void *arr = NULL;
    dg_status st = dgi_grow(b->a, &arr, &b->node_cap, (int32_t)DG_MIN(guess, 1 << 20),
                            sizeof *b->nodes);
    b->nodes = arr;
    if (st != DG_OK)
        return st;
    set_node(&b->nodes[0], 0, 0, b->g->width, b->g->height, 0);
    b->node_count = 1;
    b->leaf_count = 1;
    for (int32_t i = 0; i < b->node_count && st == DG_OK; i++)
        st = cut_node(b, i);
    return st;
}

/* Rooms in leaf order (a leaf's rooms come before its right sibling's): leaf
 * counts bottom-up, then first room indexes top-down. */
static void number_leaves(bsp *b)
{
    for (int32_t i = b->node_count - 1; i >= 0; i--)
    {
        bsp_node *n = &b->nodes[i];
        n->leaves = n->child < 0 ? 1 : b->nodes[n->child].leaves + b->nodes[n->child + 1].leaves;
    }
    b->nodes[0].first = 0;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        const bsp_node *n = &b->nodes[i];
        if (n->child < 0)
            continue;
        b->nodes[n->child].first = n->first;
        b->nodes[n->child + 1].first = n->first + b->nodes[n->child].leaves;
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

static void place_rooms(bsp *b)
{
    const dg_bsp_params *p = b->p;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child >= 0)
            continue;
        dg_room *r = &b->rooms[n->first];
        int32_t ox, oy;
        draw_side(&b->layout, n->w, p->margin, p->room_min_w, p->room_max_w, p->room_fill, &ox,
                  &r->rect.w);
        draw_side(&b->layout, n->h, p->margin, p->room_min_h, p->room_max_h, p->room_fill, &oy,
                  &r->rect.h);
        r->rect.x = n->x + ox;
        r->rect.y = n->y + oy;
        r->kind = DG_ROOM_NORMAL;
        r->prefab = -1;
        r->orientation = 0;
        r->parent = -1;
        r->cells = r->rect.w * r->rect.h;
        for (int s = 0; s < 4; s++)
        {
            n->best[s][0] = n->first;
            for (int k = 1; k < KEEP; k++)
                n->best[s][k] = -1;
        }
    }
}

static void carve_room(dg_grid *g, dg_rect r)
{
    memset(&DG_CELL(g, r.x - 1, r.y - 1), DG_TILE_WALL, (size_t)r.w + 2);
    memset(&DG_CELL(g, r.x - 1, r.y + r.h), DG_TILE_WALL, (size_t)r.w + 2);
    for (int32_t y = r.y; y < r.y + r.h; y++)
    {
        uint8_t *row = &DG_CELL(g, r.x - 1, y);
        row[0] = DG_TILE_WALL;
        memset(row + 1, DG_TILE_FLOOR, (size_t)r.w);
        row[r.w + 1] = DG_TILE_WALL;
    }
}

/* ---- candidates: the rooms of a subtree nearest each of its sides ------------------- */

static int64_t side_key(const dg_rect *r, int side)
{
    switch (side)
    {
    case SIDE_N: return -(int64_t)r->y;
    case SIDE_E: return (int64_t)r->x + r->w;
    case SIDE_S: return (int64_t)r->y + r->h;
    default: return -(int64_t)r->x;
    }
}

/* out = the KEEP best of two best-first lists (ties: the lower room index). */
static void merge_best(const dg_room *rooms, int side, const int32_t *a, const int32_t *b,
                       int32_t *out)
{
    int ia = 0, ib = 0;
    for (int k = 0; k < KEEP; k++)
    {
        int32_t ra = ia < KEEP ? a[ia] : -1, rb = ib < KEEP ? b[ib] : -1;
        int take_a;
        if (ra < 0 || rb < 0)
            take_a = ra >= 0;
        else
        {
            int64_t ka = side_key(&rooms[ra].rect, side), kb = side_key(&rooms[rb].rect, side);
            take_a = ka > kb || (ka == kb && ra < rb);
        }
        out[k] = take_a ? ra : rb;
        ia += take_a;
        ib += !take_a && rb >= 0;
    }
}

static span span_of(const dg_room *room, int across)
{
    dg_rect r = room->rect;
    span s;
    if (across)
        s.u0 = r.x, s.u1 = r.x + r.w - 1, s.v0 = r.y, s.v1 = r.y + r.h - 1;
    else
        s.u0 = r.y, s.u1 = r.y + r.h - 1, s.v0 = r.x, s.v1 = r.x + r.w - 1;
    return s;
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
    int32_t va = draw_in(rng, a->v0, a->v1), vb = draw_in(rng, b->v0, b->v1);
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

static int on_leg(dg_point a, dg_point b, int32_t x, int32_t y)
{
    return x >= DG_MIN(a.x, b.x) && x <= DG_MAX(a.x, b.x) && y >= DG_MIN(a.y, b.y) &&
           y <= DG_MAX(a.y, b.y);
}

static int on_route(const route *r, int32_t x, int32_t y)
{
    if ((x == r->door_a.x && y == r->door_a.y) || (x == r->door_b.x && y == r->door_b.y))
        return 1;
    for (int32_t i = 0; i + 1 < r->n; i++)
        if (on_leg(r->p[i], r->p[i + 1], x, y))
            return 1;
    return 0;
}

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

/* A door goes in a plain wall cell with no door beside it. */
static int door_ok(const dg_grid *g, dg_point d)
{
    if (DG_CELL(g, d.x, d.y) != DG_TILE_WALL)
        return 0;
    for (int k = 0; k < 4; k++)
        if (DG_CELL(g, d.x + DX[k], d.y + DY[k]) == DG_TILE_DOOR)
            return 0;
    return 1;
}

/* 1 if every cell of the route is rock and touches nothing but rock and the
 * route itself: no room, wall or corridor is crossed or run along. */
static int route_clear(const dg_grid *g, const route *r)
{
    if (!door_ok(g, r->door_a) || !door_ok(g, r->door_b))
        return 0;
    for (int32_t i = 0; i + 1 < r->n; i++)
    {
        dg_point a = r->p[i], b = r->p[i + 1];
        int32_t sx = (b.x > a.x) - (b.x < a.x), sy = (b.y > a.y) - (b.y < a.y);
        for (int32_t x = a.x, y = a.y;; x += sx, y += sy)
        {
            if (DG_CELL(g, x, y) != DG_TILE_VOID)
                return 0;
            for (int k = 0; k < 4; k++)
            {
                int32_t nx = x + DX[k], ny = y + DY[k];
                if (DG_CELL(g, nx, ny) != DG_TILE_VOID && !on_route(r, nx, ny))
                    return 0;
            }
            if (x == b.x && y == b.y)
                break;
        }
    }
    return 1;
}

static void carve_leg(dg_grid *g, dg_point a, dg_point b)
{
    int32_t sx = (b.x > a.x) - (b.x < a.x), sy = (b.y > a.y) - (b.y < a.y);
    for (int32_t x = a.x, y = a.y;; x += sx, y += sy)
    {
        DG_CELL(g, x, y) = DG_TILE_CORRIDOR;
        if (x == b.x && y == b.y)
            break;
    }
}

static int32_t leg_cells(dg_point a, dg_point b)
{
    return DG_MAX(a.x - b.x, b.x - a.x) + DG_MAX(a.y - b.y, b.y - a.y);
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
static void carve_route(bsp *b, const route *r, int32_t ra, int32_t rb)
{
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
    int32_t sx = (r->p[2].x > m.x) - (r->p[2].x < m.x), sy = (r->p[2].y > m.y) - (r->p[2].y < m.y);
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
    int64_t cost;   /* cells between them across and along the cut */
} pair;

/* The candidate pairs across node n's cut, cheapest first (stable). */
static int32_t list_pairs(const bsp *b, const bsp_node *n, pair *out)
{
    const bsp_node *c0 = &b->nodes[n->child], *c1 = &b->nodes[n->child + 1];
    const int32_t *la = c0->best[n->across ? SIDE_E : SIDE_S];
    const int32_t *lb = c1->best[n->across ? SIDE_W : SIDE_N];
    int32_t count = 0;
    for (int i = 0; i < KEEP && la[i] >= 0; i++)
        for (int j = 0; j < KEEP && lb[j] >= 0; j++)
        {
            span sa = span_of(&b->rooms[la[i]], n->across), sb = span_of(&b->rooms[lb[j]], n->across);
            int64_t apart = (int64_t)DG_MAX(sa.v0, sb.v0) - DG_MIN(sa.v1, sb.v1);
            pair q = {la[i], lb[j], (int64_t)sb.u0 - sa.u1 + DG_MAX(apart, 0)};
            int32_t k = count++;
            for (; k > 0 && out[k - 1].cost > q.cost; k--)
                out[k] = out[k - 1];
            out[k] = q;
        }
    return count;
}

/* Tries the straight and L routes of one pair; 1 with *r filled if one is clear. */
static int try_pair(const bsp *b, const bsp_node *n, pair q, dg_rng *rng, route *r)
{
    span sa = span_of(&b->rooms[q.a], n->across), sb = span_of(&b->rooms[q.b], n->across);
    if (DG_MAX(sa.v0, sb.v0) <= DG_MIN(sa.v1, sb.v1))
    {
        plan_straight(&sa, &sb, n->across, rng, r);
        return route_clear(b->g, r);
    }
    int order = (int)dgi_rng_below(rng, 2);
    for (int k = 0; k < 2; k++)
    {
        int ok = (k ^ order) ? plan_l_into_side(&sa, &sb, n->across, rng, r)
                             : plan_l_from_side(&sa, &sb, n->across, rng, r);
        if (ok && route_clear(b->g, r))
            return 1;
    }
    return 0;
}

/* Joins the two halves of node n: the cheapest clear pair, else the two
 * rooms nearest the cut through the band between them. */
static void join(bsp *b, bsp_node *n)
{
    pair pairs[KEEP * KEEP];
    int32_t count = list_pairs(b, n, pairs);
    route r;
    for (int32_t i = 0; i < count; i++)
        if (try_pair(b, n, pairs[i], &b->route, &r))
        {
            carve_route(b, &r, pairs[i].a, pairs[i].b);
            n->ja = pairs[i].a, n->jb = pairs[i].b;
            return;
        }
    const bsp_node *c0 = &b->nodes[n->child], *c1 = &b->nodes[n->child + 1];
    int32_t ra = c0->best[n->across ? SIDE_E : SIDE_S][0];
    int32_t rb = c1->best[n->across ? SIDE_W : SIDE_N][0];
    span sa = span_of(&b->rooms[ra], n->across), sb = span_of(&b->rooms[rb], n->across);
    if (DG_MAX(sa.v0, sb.v0) <= DG_MIN(sa.v1, sb.v1))
        plan_straight(&sa, &sb, n->across, &b->route, &r);
    else
        plan_band(&sa, &sb, n->across, &b->route, &r);
    carve_route(b, &r, ra, rb);
    n->ja = ra, n->jb = rb;
}

/* Children before parents: each node's candidates are merged from its
 * children's, then its halves joined. */
static void join_all(bsp *b)
{
    for (int32_t i = b->node_count - 1; i >= 0; i--)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child < 0)
            continue;
        const bsp_node *c0 = &b->nodes[n->child], *c1 = &b->nodes[n->child + 1];
        for (int s = 0; s < 4; s++)
            merge_best(b->rooms, s, c0->best[s], c1->best[s], n->best[s]);
        join(b, n);
    }
}

/* Loops: after every tree corridor, so they never move one. Each cut, with
 * loop_chance, gets a second clear corridor between two other rooms. */
static void add_loops(bsp *b)
{
    if (b->p->loop_chance == 0)
        return;
    for (int32_t i = b->node_count - 1; i >= 0; i--)
    {
        const bsp_node *n = &b->nodes[i];
        if (n->child < 0 || !dg_rng_chance(&b->loop, b->p->loop_chance))
            continue;
        pair pairs[KEEP * KEEP];
        int32_t count = list_pairs(b, n, pairs);
        route r;
        for (int32_t k = 0; k < count; k++)
            if (pairs[k].a != n->ja && pairs[k].b != n->jb && try_pair(b, n, pairs[k], &b->loop, &r))
            {
                carve_route(b, &r, pairs[k].a, pairs[k].b);
                break;
            }
    }
}

/* ---- finishing --------------------------------------------------------------------- */

/* Rock around every corridor cell becomes wall. */
static void wall_corridors(bsp *b)
{
    dg_grid *g = b->g;
    for (int32_t i = 0; i < b->corridor_count; i++)
    {
        const dg_corridor *c = &b->corridors[i];
        dg_point legs[3] = {c->start, c->bend, c->end};
        for (int l = 0; l < 2; l++)
        {
            dg_point a = legs[l], e = legs[l + 1];
            for (int32_t y = DG_MIN(a.y, e.y) - 1; y <= DG_MAX(a.y, e.y) + 1; y++)
            {
                uint8_t *row = &DG_CELL(g, 0, y);
                for (int32_t x = DG_MIN(a.x, e.x) - 1; x <= DG_MAX(a.x, e.x) + 1; x++)
                    row[x] = row[x] == DG_TILE_VOID ? (uint8_t)DG_TILE_WALL : row[x];
            }
        }
    }
}

/* Parents toward the start room: top-down, a half not holding its node's
 * entry room is entered through the tree corridor, from the other half. */
static void link_parents(bsp *b)
{
    b->nodes[0].entry = b->start_room;
    for (int32_t i = 0; i < b->node_count; i++)
    {
        bsp_node *n = &b->nodes[i];
        if (n->child < 0)
            continue;
        bsp_node *c0 = &b->nodes[n->child], *c1 = &b->nodes[n->child + 1];
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

/* The exit is a farthest room cell by walking: dgi_result_finish found the
 * farthest cell; only when it lies in a corridor (beyond a loop) are the
 * rooms searched. */
static dg_status exit_in_room(dg_result *r, const dg_grid *g, const dg_allocator *a)
{
    if (r->start.x < 0 || r->exit_room >= 0)
        return DG_OK;
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *dist = dgi_alloc(a, n * sizeof *dist), *queue = dgi_alloc(a, n * sizeof *queue);
    dg_status st = dist && queue ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dgi_bfs(g, r->start.y * g->width + r->start.x, dist, queue);
        int32_t best = -1;
        for (int32_t i = 0; i < r->room_count; i++)
        {
            dg_rect q = r->rooms[i].rect;
            for (int32_t y = q.y; y < q.y + q.h; y++)
                for (int32_t x = q.x; x < q.x + q.w; x++)
                    if (dist[y * g->width + x] > best)
                    {
                        best = dist[y * g->width + x];
                        r->exit.x = x, r->exit.y = y;
                        r->exit_room = i;
                    }
        }
    }
    dgi_free(a, dist, n * sizeof *dist);
    dgi_free(a, queue, n * sizeof *queue);
    return st;
}

static dg_status fill_result(const bsp *b, dg_result *r)
{
    dg_status st = dgi_result_reserve(r, b->leaf_count, b->corridor_count, b->door_count, 0);
    if (st != DG_OK)
        return st;
    dgi_result_reset(r);
    memcpy(r->rooms, b->rooms, (size_t)b->leaf_count * sizeof *r->rooms);
    memcpy(r->corridors, b->corridors, (size_t)b->corridor_count * sizeof *r->corridors);
    if (b->door_count > 0)
        memcpy(r->doors, b->doors, (size_t)b->door_count * sizeof *r->doors);
    r->room_count = b->leaf_count;
    r->corridor_count = b->corridor_count;
    r->door_count = b->door_count;
    dg_point none = {-1, -1};
    dg_metrics *m = &r->metrics;
    st = dgi_result_finish_at(r, b->g, none, b->start_room, &m->loops, b->a);
    if (st == DG_OK)
        st = exit_in_room(r, b->g, b->a);
    m->requested = b->leaf_count;
    m->placed = b->leaf_count;
    m->stopped_early = b->stopped_early;
    return st;
}

static void bsp_free(bsp *b)
{
    dgi_free(b->a, b->nodes, (size_t)b->node_cap * sizeof *b->nodes);
    dgi_free(b->a, b->block, b->block_size);
}

/* Rooms, corridors (a tree corridor may be two, a loop one per cut) and
 * doors (two per corridor route) in one block. */
static dg_status alloc_lists(bsp *b)
{
    size_t rooms = (size_t)b->leaf_count, cuts = rooms - 1;
    size_t room_bytes = rooms * sizeof(dg_room), cor_bytes = 3 * cuts * sizeof(dg_corridor);
    b->block_size = room_bytes + cor_bytes + 4 * cuts * sizeof(dg_door);
    b->block = dgi_alloc(b->a, b->block_size);
    if (!b->block)
        return DG_E_NOMEM;
    b->rooms = b->block;
    b->corridors = (dg_corridor *)(void *)((char *)b->block + room_bytes);
    b->doors = (dg_door *)(void *)((char *)b->block + room_bytes + cor_bytes);
    return DG_OK;
}

/* Everything that writes the grid; nothing here can fail. */
static void build(bsp *b)
{
    place_rooms(b);
    dg_grid_fill(b->g, DG_TILE_VOID);
    for (int32_t i = 0; i < b->leaf_count; i++)
        carve_room(b->g, b->rooms[i].rect);
    join_all(b);
    add_loops(b);
    wall_corridors(b);
    if (b->p->doors == DG_BSP_DOORS_NONE)
        drop_doors(b);
    b->start_room = dgi_rng_below(&b->layout, 2) ? b->leaf_count - 1 : 0;
    link_parents(b);
}

dg_status dg_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                          dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = check_params(grid, params, diag);
    if (st != DG_OK)
        return st;
    bsp b;
    memset(&b, 0, sizeof b);
    b.g = grid;
    b.p = params;
    b.a = allocator;
    dgi_rng_seed(&b.layout, seed, STREAM_LAYOUT);
    dgi_rng_seed(&b.route, seed, STREAM_ROUTE);
    dgi_rng_seed(&b.loop, seed, STREAM_LOOP);
    st = partition(&b);
    if (st == DG_OK)
    {
        number_leaves(&b);
        st = alloc_lists(&b);
    }
    /* Filling result may still fail after the grid is written: a copy of the
     * caller's cells puts it back then. Without result nothing can fail. */
    size_t row = (size_t)grid->width, backup_size = result ? row * (size_t)grid->height : 0;
    uint8_t *backup = NULL;
    if (st == DG_OK && result && !(backup = dgi_alloc(allocator, backup_size)))
        st = DG_E_NOMEM;
    if (st != DG_OK)
    {
        bsp_free(&b);
        return dgi_fail(diag, st, "bsp: out of memory (the grid was not changed)");
    }
    for (int32_t y = 0; backup && y < grid->height; y++)
        memcpy(backup + (size_t)y * row, &DG_CELL(grid, 0, y), row);
    build(&b);
    if (result)
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
            for (int32_t y = 0; y < grid->height; y++)
                memcpy(&DG_CELL(grid, 0, y), backup + (size_t)y * row, row);
        }
    }
    dgi_free(allocator, backup, backup_size);
    bsp_free(&b);
    if (st != DG_OK)
        return dgi_fail(diag, st, "bsp: out of memory (the grid was not changed)");
    dgi_diag_ok(diag);
    return DG_OK;
}
