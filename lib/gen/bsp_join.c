/* Joining the binary space partition (bsp_state.h): the halves of every cut
 * joined bottom-up by a corridor between rooms near the cut line (the rooms
 * of each subtree reaching farthest toward each side are its candidates),
 * around reserved cells by a search when no planned route is clear, and
 * the loops across the cuts. */
#include "analysis/analysis.h"
#include "gen/bsp_state.h"

enum { LEG_MAX = 38 }; /* cells of a planned leg at most: with a door at each end, 40 in a line */
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

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

/* Around reserved cells a searched corridor may need more records than the
 * block holds: a larger block, the lists copied. 0 (and b->status set) if
 * memory ran out. */
static int lists_fit(bsp_ctx *b, int32_t corridors, int32_t doors)
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

static void leaf_candidates(const bsp_node *n, dg_rect r, bsp_cands *out)
{
    for (int s = 0; s < 4; s++)
    {
        out->side[s][0].room = r.w > 0 ? n->first : -1;
        out->side[s][0].key = r.w > 0 ? side_key(r, s) : INT32_MIN;
        for (int k = 1; k < BSP_KEEP; k++)
            out->side[s][k].room = -1, out->side[s][k].key = INT32_MIN;
    }
}

/* out = the BSP_KEEP best of two best-first lists; ties go to the first list,
 * whose rooms come first in leaf order. Unused entries sort last. */
static void merge_best(const bsp_cand *a, const bsp_cand *b, bsp_cand *out)
{
    int ia = 0, ib = 0; /* ia + ib = k < BSP_KEEP: neither list runs out */
    for (int k = 0; k < BSP_KEEP; k++)
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
static int has_rooms(const bsp_ctx *b, const bsp_node *n)
{
    return dgi_bsp_best_of(b, n, 0)[0].room >= 0;
}

/* Node n's candidates from its children's, into *out, which may be the
 * second child's (on the stack, the node takes that entry). */
static void node_candidates(const bsp_ctx *b, const bsp_node *n, bsp_cands *out)
{
    const bsp_cands *c0 = &b->cands[b->nodes[n->child[0]].slot], *c1 = &b->cands[b->nodes[n->child[1]].slot];
    if (c0->side[0][0].room < 0 || c1->side[0][0].room < 0) /* leaves without rooms: only beside reserved cells */
    {
        const bsp_cands *with = c0->side[0][0].room >= 0 ? c0 : c1;
        if (with != out)
            *out = *with;
        return;
    }
    int far = n->across ? SIDE_E : SIDE_S, near = n->across ? SIDE_W : SIDE_N;
    int m0 = n->across ? SIDE_N : SIDE_W, m1 = n->across ? SIDE_S : SIDE_E;
    bsp_cand b0[BSP_KEEP], b1[BSP_KEEP]; /* the second child's lists to merge, before out overwrites them */
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
    dgi_bsp_fill_span(mid + 1, n - 2, DG_TILE_CORRIDOR);
    mid[n - 1] = rock_to_wall(mid[n - 1]);
}

static int32_t add_corridor(bsp_ctx *b, dg_point s, dg_point bend, dg_point e, dg_ref from,
                            dg_ref to)
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

static void add_door(bsp_ctx *b, dg_point pos, int32_t room, int32_t corridor)
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
static void carve_route(bsp_ctx *b, const route *r, int32_t ra, int32_t rb)
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
    int32_t a[BSP_KEEP], b[BSP_KEEP];
    span sa[BSP_KEEP], sb[BSP_KEEP];
    int32_t key[BSP_KEEP * BSP_KEEP];    /* cost * 16 + listing position: unique, so the order is stable */
    uint8_t code[BSP_KEEP * BSP_KEEP];   /* i * BSP_KEEP + j, by listing position */
    int32_t ranked[BSP_KEEP * BSP_KEEP]; /* the keys of the cheapest pairs found so far, in order */
    int32_t done;                /* pairs ranked */
    int32_t count;
} pair_list;

static int32_t pair_cost(const span *sa, const span *sb)
{
    int32_t apart = DG_MAX(sa->v0, sb->v0) - DG_MIN(sa->v1, sb->v1);
    return sb->u0 - sa->u1 + DG_MAX(apart, 0);
}

static int32_t list_pairs(const bsp_ctx *b, const bsp_cut *n, pair_list *out)
{
    int na = 0, nb = 0, count = 0;
    for (; na < BSP_KEEP && n->near[0][na] >= 0; na++)
    {
        out->a[na] = n->near[0][na];
        out->sa[na] = span_of(b->rooms[out->a[na]].rect, n->across);
    }
    for (; nb < BSP_KEEP && n->near[1][nb] >= 0; nb++)
    {
        out->b[nb] = n->near[1][nb];
        out->sb[nb] = span_of(b->rooms[out->b[nb]].rect, n->across);
    }
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++, count++)
        {
            out->key[count] = pair_cost(&out->sa[i], &out->sb[j]) * 16 + count;
            out->code[count] = (uint8_t)(i * BSP_KEEP + j);
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
    /* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): k < count, so key is a listed pair's */
    int32_t key = l->ranked[k], code = l->code[key & 15];
    int i = code / BSP_KEEP, j = code % BSP_KEEP;
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
static int try_pair(bsp_ctx *b, int across, const pair *q, dg_rng *rng, route *r)
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
static int32_t rooms_along(const bsp_ctx *b, int32_t node, int across, int32_t line, int second,
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
static int join_along(bsp_ctx *b, const bsp_node *n, const span *ca, const span *cb, route *r,
                      pair *q)
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
static void join(bsp_ctx *b, bsp_node *n, const bsp_cut *cut)
{
    const bsp_node *c0 = &b->nodes[n->child[0]], *c1 = &b->nodes[n->child[1]];
    int32_t ra = dgi_bsp_best_of(b, c0, n->across ? SIDE_E : SIDE_S)[0].room;
    int32_t rb = dgi_bsp_best_of(b, c1, n->across ? SIDE_W : SIDE_N)[0].room;
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
static int32_t room_in(const bsp_ctx *b, const bsp_node *n, int32_t x, int32_t y)
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
static int32_t seed_sources(bsp_ctx *b, const bsp_node *n)
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
static int32_t trace_back(bsp_ctx *b, int32_t end, int dir)
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
static void record_search(bsp_ctx *b, const dg_point *pts, int32_t m, int32_t ra, int32_t rb,
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
static int carve_search(bsp_ctx *b, bsp_node *n, int32_t end, int d)
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
static int join_by_search(bsp_ctx *b, bsp_node *n)
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
static void join_around(bsp_ctx *b, bsp_node *n, const bsp_cut *cut)
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
static void keep_near(const bsp_ctx *b, const bsp_node *n, bsp_cut *cut)
{
    const bsp_cand *la = dgi_bsp_best_of(b, &b->nodes[n->child[0]], n->across ? SIDE_E : SIDE_S);
    const bsp_cand *lb = dgi_bsp_best_of(b, &b->nodes[n->child[1]], n->across ? SIDE_W : SIDE_N);
    for (int k = 0; k < BSP_KEEP; k++)
        cut->near[0][k] = la[k].room, cut->near[1][k] = lb[k].room;
    cut->across = n->across;
}

/* A cut's loop: with loop_chance, a second clear corridor between two rooms
 * other than its join's pair. */
static void loop_across(bsp_ctx *b, const bsp_cut *n)
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
void dgi_bsp_join_all(bsp_ctx *b)
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
                dgi_bsp_paint_leaf(b->g, n, b->rooms[n->first].rect);
            if (b->start_back >= 0 && dgi_bsp_edge_room(b, n) && b->start_back-- == 0)
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
void dgi_bsp_add_loops(bsp_ctx *b)
{
    if (b->p->loop_chance == 0)
        return;
    for (int32_t i = 0; i < b->cut_count; i++)
        loop_across(b, &b->cuts[i]);
}
