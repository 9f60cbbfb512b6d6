/* Laying out a level graph (DESIGN.md section 11): rooms are rectangles
 * placed one by one from the start node (the nodes on cycles first), each against
 * its already placed neighbours: a door edge makes the two rooms share a wall,
 * the edge to the room's parent may be a straight corridor, and the other
 * corridor edges to placed rooms (the edges that close cycles) are routed as a
 * straight or L-shaped corridor. A room's ties become intervals for its four
 * sides (a corridor's whole length range), so a room that closes a cycle is
 * drawn to meet both ends. Footprints (room or corridor, walls included) are
 * boxes; rooms that no edge joins stay room_distance cells apart. A room whose
 * cycle is still open is pulled toward the placed rooms it must meet, and a
 * candidate after which the neighbour closing a cycle (from room distance 4
 * on also a door neighbour) cannot be placed is taken last; after the first
 * attempt, so is one after which a placed room near it keeps no place for a
 * neighbour that waits for that room alone, and a room closing a loop is
 * drawn within reach of the loop's other end; there a room is also drawn
 * larger each time a room that waited for it alone found no place, and one
 * draw in CORNER_DRAWS puts a room at a corner of the room it is tied to
 * (two rooms at sides that meet then keep apart). The attempts after
 * FAST_ATTEMPTS (0.18.0's whole search, so the layouts it found stay the
 * same) cost more each: a room tied to two or three placed rooms draws its
 * ties' sides among the ways that leave it room, the rooms waiting for a
 * placed room alone must find places together, and a room that finds no
 * place first moves its placed neighbours, or a path of placed rooms
 * toward it (nudge_place), then takes a room in its way off with the
 * rooms placed from it and places them again after it (evict_place). A
 * room none of whose drawn candidates fits is scanned for: every side of
 * each room it is tied to, at places spread over the range, the smallest
 * room at each.
 * Every loop is bounded by counts: a room that does not fit takes back
 * 2, 4, 8, 16 rooms before it (BACKJUMPS times, each after at most NUDGES
 * moves), then the attempt starts over with the next draws (and an order
 * that closes cycles sooner, every other time from the room that failed
 * most often), and after the graph's max_attempts (DGI_GRAPH_ATTEMPTS when
 * 0) the node that failed most often is named (with the smallest larger
 * grid the seed fits, if any); whatever the attempts, the search stops
 * once it has tested work_max places and routes (DGI_GRAPH_WORK). A graph
 * whose smallest rooms and corridors cannot fit the grid's area is refused
 * before any search (size_check, with the proof of its bound).
 * A template node is a prefab's box instead of a drawn rectangle: its place
 * comes from its first tie, which puts one of its door cells against the
 * other room's door cell or wall, and every door or corridor at it uses one
 * of its door cells. The finished layout gets its extra connections (when
 * the graph allows them) and is centred; the grid is written only on success
 * (layout_result.c). */
#include "graph/layout_state.h"

#define LARGER_ATTEMPTS 8    /* the same on each larger grid the message may name */
#define ROOM_DRAWS 48        /* candidate rectangles drawn per room */
#define DOOR_LOOK_DISTANCE 4 /* room_distance from which door neighbours are looked ahead for */
#define ROOM_KEEP 4          /* valid candidates compared by their pull */
#define ROUTE_DRAWS 24       /* corridor routes drawn per closing edge */
#define BACKJUMPS 32         /* steps back within one attempt */
#define EXTRA_REACH 4        /* longest extra corridor (extra_connections) */
#define LOOK_DRAWS 8         /* draws that test a closing neighbour ahead */
#define PULL_HOPS 6          /* cycles longer than this are not pulled shut */
#define RECENTRE_MIN 2       /* cells off the middle that make a stuck layout move */
#define SCAN_TIES 2          /* ties whose every side a scan tries (4^SCAN_TIES ways) */
#define SCAN_STEPS 24        /* places a scan checks per way */
#define SCAN_STEPS_FAR 96    /* the same from room_distance 3 on, where free places are rarer */
#define STREAM_LAYOUT 0x67726C61ULL /* "grla" */
#define CORNER_DRAWS 3       /* one draw in this many, after the first attempt, at a corner */
#define FAST_ATTEMPTS 64     /* attempts before the thorough ones (L->thorough) */
#define FREE_SIDES 3         /* ties whose sides a thorough draw picks (4^FREE_SIDES ways) */
#define NUDGES 16            /* moves of a failed room's neighbours, in a thorough attempt, before a step back */
#define NUDGE_PATH 3         /* most rooms of a path toward a failed room moved together */
#define PATH_BUDGET 16       /* rooms moved in paths per room of the graph, in one attempt */
#define NUDGE_STEPS 2        /* failures since the search last got further that still move neighbours */
#define EVICTS 16            /* rooms in a failed room's way taken off with their branch, in a thorough attempt */
#define EVICT_MAX 8          /* most rooms of a branch taken off */
#define ROUTE_WORK 8         /* a corridor's test counts as this many room tests (it costs about 10) */

/* ---- order ---------------------------------------------------------------- */

/* 1 if nodes a and b stay connected without edge skip. */
static int connected_without(const dgi_layout *L, int32_t a, int32_t b, int32_t skip)
{
    uint8_t seen[DG_GRAPH_NODES_MAX] = {0};
    int32_t queue[DG_GRAPH_NODES_MAX], head = 0, tail = 0;
    queue[tail++] = a;
    seen[a] = 1;
    while (head < tail)
    {
        int32_t u = queue[head++];
        for (int32_t k = 0; k < L->deg[u]; k++)
        {
            int32_t e = L->adj[u][k], v = layout_other_end(&L->g->edges[e], u);
            if (e != skip && !seen[v])
                seen[v] = 1, queue[tail++] = v;
        }
    }
    return seen[b];
}

/* The edges at each node (adj, deg) and the nodes on a cycle (on_cycle). */
static void graph_setup(dgi_layout *L)
{
    const dg_graph *g = L->g;
    for (int32_t e = 0; e < g->edge_count; e++) /* dg_graph_check bounds the degrees */
    {
        L->adj[g->edges[e].a][L->deg[g->edges[e].a]++] = e;
        L->adj[g->edges[e].b][L->deg[g->edges[e].b]++] = e;
    }
    for (int32_t e = 0; e < g->edge_count; e++)
        if (connected_without(L, g->edges[e].a, g->edges[e].b, e))
            L->on_cycle[g->edges[e].a] = L->on_cycle[g->edges[e].b] = 1;
}

/* The order rooms are placed in: from node n (the start node but after a
 * failed attempt), always a node next to the placed ones, nodes on a cycle
 * before the rest (so a cycle closes before branches fill the space it
 * needs), with most_tied among them the one with most placed neighbours
 * (it closes a cycle now, while its ends are near), else in the order
 * they were reached. parent_edge[n] is the edge n was reached by. */
static void place_order(dgi_layout *L, int32_t n, int most_tied)
{
    const dg_graph *g = L->g;
    uint8_t done[DG_GRAPH_NODES_MAX] = {0};
    int32_t reached[DG_GRAPH_NODES_MAX], ties[DG_GRAPH_NODES_MAX] = {0}, count = 0;
    for (int32_t i = 0; i < g->node_count; i++)
        reached[i] = -1;
    L->parent_edge[n] = -1;
    reached[n] = count++;
    for (int32_t k = 0; k < g->node_count; k++)
    {
        L->rank[n] = k;
        L->order[k] = n;
        done[n] = 1;
        for (int32_t j = 0; j < L->deg[n]; j++)
        {
            int32_t e = L->adj[n][j], m = layout_other_end(&g->edges[e], n);
            ties[m]++;
            if (reached[m] < 0)
                reached[m] = count++, L->parent_edge[m] = e;
        }
        int32_t best = -1;
        for (int32_t m = 0; m < g->node_count; m++)
            if (!done[m] && reached[m] >= 0 &&
                (best < 0 || L->on_cycle[m] > L->on_cycle[best] ||
                 (L->on_cycle[m] == L->on_cycle[best] &&
                  ((most_tied && ties[m] > ties[best]) ||
                   ((!most_tied || ties[m] == ties[best]) && reached[m] < reached[best])))))
                best = m;
        n = best;
    }
}

/* ---- occupancy ------------------------------------------------------------ */
/* Everything placed is a box: a room's footprint is its interior grown by its
 * walls, a corridor's is each leg grown by its walls. Two footprints may
 * overlap only where the graph says so (rooms sharing a wall, a corridor and
 * its two rooms), so every test below compares boxes, never cells. */

static int meets(dgi_box p, dgi_box q)
{
    return p.x0 <= q.x1 && q.x0 <= p.x1 && p.y0 <= q.y1 && q.y0 <= p.y1;
}

/* Grows all to cover q too. */
static void extend(dgi_box *all, dgi_box q)
{
    *all = (dgi_box){layout_imin(all->x0, q.x0), layout_imin(all->y0, q.y0), layout_imax(all->x1, q.x1), layout_imax(all->y1, q.y1)};
}

/* The footprints are also indexed by square buckets of the grid, so a test
 * compares only the boxes near it (the same answer as comparing all). A
 * graph of few rooms is not indexed: comparing all its boxes costs less
 * than keeping the index. */
#define INDEX_MIN_ROOMS 20 /* about where the index starts to pay (callgrind) */

static void bucket_reset(dgi_layout *L)
{
    L->rooms_placed = 0;
    memset(L->corr_placed, 0, sizeof L->corr_placed);
    if (!L->bucket)
        return;
    L->bshift = 3;
    while ((L->w - 1) >> L->bshift >= DGI_BUCKET_SIDE || (L->h - 1) >> L->bshift >= DGI_BUCKET_SIDE)
        L->bshift++;
    L->bcols = ((L->w - 1) >> L->bshift) + 1, L->brows = ((L->h - 1) >> L->bshift) + 1;
    memset(L->bucket, 0, sizeof *L->bucket * (size_t)(L->bcols * L->brows));
}

/* The buckets q meets (clamped to the grid: a box beyond it meets its edge's). */
static void bucket_span(const dgi_layout *L, dgi_box q, int32_t *c0, int32_t *r0, int32_t *c1, int32_t *r1)
{
    *c0 = layout_imin(layout_imax(q.x0, 0), L->w - 1) >> L->bshift, *c1 = layout_imin(layout_imax(q.x1, 0), L->w - 1) >> L->bshift;
    *r0 = layout_imin(layout_imax(q.y0, 0), L->h - 1) >> L->bshift, *r1 = layout_imin(layout_imax(q.y1, 0), L->h - 1) >> L->bshift;
}

/* Sets (on) or clears bit `bit` of word `word` of every bucket q meets
 * (word -1: the rooms word). */
static void bucket_mark(dgi_layout *L, dgi_box q, int32_t word, int32_t bit, int on)
{
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    uint64_t m = 1ULL << bit;
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
        {
            dgi_bucket *b = &L->bucket[r * L->bcols + c];
            uint64_t *w = word < 0 ? &b->rooms : &b->corr[word];
            *w = on ? *w | m : *w & ~m;
        }
}

/* The placed rooms whose footprints may meet q (bit m: room m). */
static uint64_t rooms_near(const dgi_layout *L, dgi_box q)
{
    if (!L->bucket)
        return L->rooms_placed;
    uint64_t u = 0;
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
            u |= L->bucket[r * L->bcols + c].rooms;
    return u;
}

/* Word k of the corridors whose footprints may meet q (bit e & 63: edge e). */
static uint64_t corridors_near(const dgi_layout *L, dgi_box q, int32_t k)
{
    if (!L->bucket)
        return L->corr_placed[k];
    uint64_t u = 0;
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
            u |= L->bucket[r * L->bcols + c].corr[k];
    return u;
}

static void room_set(dgi_layout *L, int32_t n, int on)
{
    L->placed[n] = (uint8_t)on;
    L->rooms_placed = on ? L->rooms_placed | 1ULL << n : L->rooms_placed & ~(1ULL << n);
    if (L->bucket)
        bucket_mark(L, layout_grow(L->room[n], 1), -1, n, on);
}

static void corr_clear(dgi_layout *L, int32_t e)
{
    for (int32_t i = 0; L->bucket && L->has_corr[e] && i < L->corr[e].legs; i++)
        bucket_mark(L, layout_grow(L->corr[e].leg[i], 1), e >> 6, e & 63, 0);
    L->has_corr[e] = 0;
    L->corr_placed[e >> 6] &= ~(1ULL << (e & 63));
}

static void corr_set(dgi_layout *L, int32_t e, const dgi_route *r)
{
    corr_clear(L, e);
    L->corr[e] = *r;
    L->has_corr[e] = 1;
    L->corr_placed[e >> 6] |= 1ULL << (e & 63);
    for (int32_t i = 0; L->bucket && i < r->legs; i++)
        bucket_mark(L, layout_grow(r->leg[i], 1), e >> 6, e & 63, 1);
}

/* 1 if a corridor's footprint (other than edge skip) meets q. */
static int corridors_meet(const dgi_layout *L, dgi_box q, int32_t skip)
{
    for (int32_t k = 0; k * 64 < L->g->edge_count; k++)
        for (uint64_t m = corridors_near(L, q, k); m; m &= m - 1)
        {
            int32_t e = k * 64 + dgi_lowest_bit64(m);
            if (e != skip)
                for (int32_t i = 0; i < L->corr[e].legs; i++)
                    if (meets(q, layout_grow(L->corr[e].leg[i], 1)))
                        return 1;
        }
    for (int32_t k = 0; k < L->extras; k++)
        if (meets(q, layout_grow(L->extra[k].leg[0], 1)))
            return 1;
    return 0;
}

static int inside(const dgi_layout *L, dgi_box q) /* q and its walls inside the grid */
{
    return q.x0 >= 1 && q.y0 >= 1 && q.x1 <= L->w - 2 && q.y1 <= L->h - 2 && q.x0 <= q.x1 &&
           q.y0 <= q.y1;
}

/* ---- template doors --------------------------------------------------------- */
/* A template room's edges attach at its door cells only, one edge a cell. */

#define AT_NONE INT32_MIN /* a tie whose door or corridor place is drawn later */

/* 1 if door cell k of template node n already serves an edge other than skip. */
static int door_taken(const dgi_layout *L, int32_t n, int32_t k, int32_t skip)
{
    dg_point d = layout_tdoor_at(L, n, k);
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        int32_t e = L->adj[n][j];
        const dg_graph_edge *x = &L->g->edges[e];
        dgi_box b;
        if (e == skip)
            continue;
        if (L->has_corr[e])
            b = L->corr[e].door[L->corr[e].a == n ? 0 : 1];
        else if (x->kind == DG_EDGE_DOOR && L->placed[x->a] && L->placed[x->b])
            b = L->door[e];
        else
            continue;
        if (b.x0 == d.x && b.y0 == d.y)
            return 1;
    }
    return 0;
}

/* A free door cell of template node n opening to a side in `sides` (bit
 * 1 << side), drawn uniformly; -1 if none. */
static int32_t free_door(dgi_layout *L, int32_t n, int sides, int32_t skip)
{
    int32_t ok[DGI_TEMPLATE_DOORS], count = 0;
    for (int32_t k = 0; k < L->tdoors[n]; k++)
        if ((sides >> L->tdoor[n][k].side & 1) && (!L->placed[n] || !door_taken(L, n, k, skip)))
            ok[count++] = k;
    return count ? ok[layout_draw(L, 0, count - 1)] : -1;
}

/* The place along its side of door cell k of n: a column on N/S, a row on E/W. */
static int32_t door_coord(const dgi_layout *L, int32_t n, int32_t k)
{
    dg_point d = layout_tdoor_at(L, n, k);
    return L->tdoor[n][k].side & 1 ? d.y : d.x;
}

/* Where a corridor or door along one of `sides` of n lies: drawn in lo..hi
 * for a rectangle, a free door cell's place for a template (lo if none,
 * which the route's door check then refuses). */
static int32_t attach_coord(dgi_layout *L, int32_t n, int sides, int32_t lo, int32_t hi, int32_t skip)
{
    if (!layout_is_template(L, n))
        return layout_draw(L, lo, hi);
    int32_t k = free_door(L, n, sides, skip);
    return k < 0 ? lo : door_coord(L, n, k);
}

/* 1 if door run q of a route is at a door cell of node n (any cell of a rectangle). */
static int at_door_cell(const dgi_layout *L, int32_t n, dgi_box q)
{
    if (!layout_is_template(L, n))
        return 1;
    for (int32_t k = 0; k < L->tdoors[n]; k++)
    {
        dg_point d = layout_tdoor_at(L, n, k);
        if (q.x0 == d.x && q.x1 == d.x && q.y0 == d.y && q.y1 == d.y)
            return 1;
    }
    return 0;
}

/* Draws a prefab of template node n and one of its orientations. */
static int template_pick(dgi_layout *L, int32_t n)
{
    const dg_prefab_set *set = L->g->prefabs;
    int32_t i = L->tpl_list[L->tpl_first[n] + layout_draw(L, 0, L->tpl_count[n] - 1)];
    int32_t mask = dgi_template_orientations(set, i) & 0xFF, bits = 0, o = 0;
    if (!mask)
        mask = 1;
    for (int32_t b = 0; b < 8; b++)
        bits += mask >> b & 1;
    for (int32_t k = layout_draw(L, 0, bits - 1); o < 8; o++)
        if ((mask >> o & 1) && k-- == 0)
            break;
    L->tpl[n] = i;
    L->tpl_orient[n] = o;
    int32_t at = L->tpl_row[i] * 8 + o; /* the same prefab and orientation, the same cells */
    if (L->tdoor_found[at] < 0)
        L->tdoor_found[at] = dgi_template_doors(set, i, o, L->tdoor_cache[at], DGI_TEMPLATE_DOORS);
    L->tdoors[n] = L->tdoor_found[at];
    memcpy(L->tdoor[n], L->tdoor_cache[at], (size_t)L->tdoors[n] * sizeof L->tdoor[n][0]);
    return L->tdoors[n] >= L->deg[n];
}

/* ---- corridors ------------------------------------------------------------ */

/* 1 if r's legs lie inside the grid clear of every footprint and its walls
 * meet no room but a's and b's and no other corridor (room_distance is
 * between rooms). */
static int route_fits(dgi_layout *L, const dgi_route *r, int32_t e)
{
    L->work += ROUTE_WORK;
    for (int32_t i = 0; i < r->legs; i++)
    {
        dgi_box leg = r->leg[i], walls = layout_grow(leg, 1);
        if (!inside(L, leg) || corridors_meet(L, walls, e))
            return 0;
        for (uint64_t near = rooms_near(L, walls); near; near &= near - 1)
        {
            int32_t m = dgi_lowest_bit64(near);
            if (meets(m == r->a || m == r->b ? leg : walls, layout_grow(L->room[m], 1)))
                return 0;
        }
    }
    return at_door_cell(L, r->a, r->door[0]) && at_door_cell(L, r->b, r->door[1]);
}

/* A straight corridor from p's side (0 N, 1 E, 2 S, 3 W) to q, which lies
 * beyond it; its cells start at `at` along the wall. */
static int route_straight(const dgi_layout *L, int32_t pn, int32_t qn, int side, int32_t at, dgi_route *r)
{
    dgi_box p = L->room[pn], q = L->room[qn];
    int32_t cw = L->cw;
    memset(r, 0, sizeof *r);
    r->a = pn, r->b = qn, r->legs = 1;
    if (side == 0 || side == 2)
    {
        dgi_box top = side == 2 ? p : q, bot = side == 2 ? q : p;
        r->leg[0] = (dgi_box){at, top.y1 + 2, at + cw - 1, bot.y0 - 2};
        r->door[side == 2 ? 0 : 1] = (dgi_box){at, top.y1 + 1, at + cw - 1, top.y1 + 1};
        r->door[side == 2 ? 1 : 0] = (dgi_box){at, bot.y0 - 1, at + cw - 1, bot.y0 - 1};
        r->length = bot.y0 - top.y1 - 3;
        return at >= layout_imax(p.x0, q.x0) && at + cw - 1 <= layout_imin(p.x1, q.x1) && r->length >= 1;
    }
    dgi_box lft = side == 1 ? p : q, rgt = side == 1 ? q : p;
    r->leg[0] = (dgi_box){lft.x1 + 2, at, rgt.x0 - 2, at + cw - 1};
    r->door[side == 1 ? 0 : 1] = (dgi_box){lft.x1 + 1, at, lft.x1 + 1, at + cw - 1};
    r->door[side == 1 ? 1 : 0] = (dgi_box){rgt.x0 - 1, at, rgt.x0 - 1, at + cw - 1};
    r->length = rgt.x0 - lft.x1 - 3;
    return at >= layout_imax(p.y0, q.y0) && at + cw - 1 <= layout_imin(p.y1, q.y1) && r->length >= 1;
}

/* An L: leaves p vertically at column xa, turns at row yc and enters q from
 * the side facing it. */
static int route_ell(const dgi_layout *L, int32_t pn, int32_t qn, int32_t xa, int32_t yc, dgi_route *r)
{
    dgi_box p = L->room[pn], q = L->room[qn];
    int32_t cw = L->cw;
    memset(r, 0, sizeof *r);
    r->a = pn, r->b = qn, r->legs = 2;
    if (xa < p.x0 || xa + cw - 1 > p.x1 || yc < q.y0 || yc + cw - 1 > q.y1)
        return 0;
    int down = yc > p.y1, right = xa < q.x0;
    if (down ? yc < p.y1 + 2 : yc + cw - 1 > p.y0 - 2)
        return 0;
    if (right ? xa + cw > q.x0 - 2 : xa - 1 < q.x1 + 2)
        return 0;
    int32_t wy = down ? p.y1 + 1 : p.y0 - 1, wx = right ? q.x0 - 1 : q.x1 + 1;
    r->door[0] = (dgi_box){xa, wy, xa + cw - 1, wy};
    r->door[1] = (dgi_box){wx, yc, wx, yc + cw - 1};
    r->leg[0] = down ? (dgi_box){xa, wy + 1, xa + cw - 1, yc + cw - 1}
                     : (dgi_box){xa, yc, xa + cw - 1, wy - 1};
    r->leg[1] = right ? (dgi_box){xa + cw, yc, wx - 1, yc + cw - 1} : (dgi_box){wx + 1, yc, xa - 1, yc + cw - 1};
    r->length = (r->leg[0].y1 - r->leg[0].y0 + 1) + (r->leg[1].x1 - r->leg[1].x0 + 1);
    return 1;
}

/* Draws one dgi_route between placed rooms a and b: straight when they face each
 * other, else an L leaving either room vertically. */
static int route_draw(dgi_layout *L, int32_t a, int32_t b, dgi_route *r)
{
    dgi_box p = L->room[a], q = L->room[b];
    int32_t cw = L->cw, kind = layout_draw(L, 0, 1);
    if (kind == 0)
    {
        int side = q.y0 > p.y1 + 3 || q.y1 < p.y0 - 3 ? (q.y0 > p.y1 ? 2 : 0) : (q.x0 > p.x1 ? 1 : 3);
        int32_t lo = side & 1 ? layout_imax(p.y0, q.y0) : layout_imax(p.x0, q.x0);
        int32_t hi = (side & 1 ? layout_imin(p.y1, q.y1) : layout_imin(p.x1, q.x1)) - cw + 1;
        int32_t at = layout_is_template(L, a) || !layout_is_template(L, b)
                         ? attach_coord(L, a, 1 << side, lo, hi, -1)
                         : attach_coord(L, b, 1 << ((side + 2) & 3), lo, hi, -1);
        return route_straight(L, a, b, side, at, r);
    }
    int flip = layout_draw(L, 0, 1);
    int32_t pn = flip ? b : a, qn = flip ? a : b;
    dgi_box pp = L->room[pn], qq = L->room[qn];
    /* one draw per statement: the order of a call's arguments is unspecified */
    int32_t y = attach_coord(L, qn, 2 | 8, qq.y0, qq.y1 - cw + 1, -1);
    int32_t x = attach_coord(L, pn, 1 | 4, pp.x0, pp.x1 - cw + 1, -1);
    if (!route_ell(L, pn, qn, x, y, r))
        return 0;
    if (flip)
    {
        dgi_box t = r->door[0];
        r->door[0] = r->door[1], r->door[1] = t;
        r->a = a, r->b = b;
    }
    return 1;
}

static dgi_box transpose(dgi_box q) { return (dgi_box){q.y0, q.x0, q.y1, q.x1}; }

/* A corridor of three legs: leaves p vertically at column xa and q at column
 * xb, both toward row yc, which joins them (round a room between them, or
 * across between them). */
static int route_three(int32_t cw, dgi_box p, dgi_box q, int32_t xa, int32_t xb, int32_t yc,
                       dgi_route *r)
{
    if (xa < p.x0 || xa + cw - 1 > p.x1 || xb < q.x0 || xb + cw - 1 > q.x1 ||
        layout_imax(xa, xb) - layout_imin(xa, xb) < cw + 1)
        return 0;
    dgi_box room[2] = {p, q};
    int32_t at[2] = {xa, xb}, cells = 0;
    for (int i = 0; i < 2; i++)
    {
        dgi_box m = room[i];
        int down = yc > m.y1;
        if (down ? yc < m.y1 + 2 : yc + cw - 1 > m.y0 - 2)
            return 0;
        int32_t wy = down ? m.y1 + 1 : m.y0 - 1;
        r->door[i] = (dgi_box){at[i], wy, at[i] + cw - 1, wy};
        r->leg[2 * i] = down ? (dgi_box){at[i], wy + 1, at[i] + cw - 1, yc + cw - 1}
                             : (dgi_box){at[i], yc, at[i] + cw - 1, wy - 1};
        cells += r->leg[2 * i].y1 - r->leg[2 * i].y0 + 1;
    }
    r->leg[1] = (dgi_box){layout_imin(xa, xb) + cw, yc, layout_imax(xa, xb) - 1, yc + cw - 1};
    r->legs = 3;
    r->length = cells + r->leg[1].x1 - r->leg[1].x0 + 1;
    return 1;
}

/* Draws a three-legged dgi_route between placed rooms a and b: both leave
 * through their north or south walls (or both east or west), the middle leg
 * beyond both rooms or between them. */
static int route_three_draw(dgi_layout *L, int32_t a, int32_t b, dgi_route *r)
{
    int across = layout_draw(L, 0, 1), where = layout_draw(L, 0, 2), slack = layout_draw(L, 0, 3);
    int32_t cw = L->cw, sides = across ? 2 | 8 : 1 | 4;
    dgi_box p = across ? transpose(L->room[a]) : L->room[a];
    dgi_box q = across ? transpose(L->room[b]) : L->room[b];
    int32_t xa = attach_coord(L, a, sides, p.x0, p.x1 - cw + 1, -1);
    int32_t xb = attach_coord(L, b, sides, q.x0, q.x1 - cw + 1, -1);
    int32_t yc = where == 0 ? layout_imin(p.y0, q.y0) - 1 - cw - slack
               : where == 1 ? layout_imax(p.y1, q.y1) + 2 + slack
               : layout_draw(L, layout_imin(p.y1, q.y1) + 2, layout_imax(p.y0, q.y0) - 1 - cw);
    memset(r, 0, sizeof *r);
    r->a = a, r->b = b;
    if (!route_three(cw, p, q, xa, xb, yc, r))
        return 0;
    if (across)
    {
        for (int i = 0; i < 3; i++)
            r->leg[i] = transpose(r->leg[i]);
        r->door[0] = transpose(r->door[0]), r->door[1] = transpose(r->door[1]);
    }
    return 1;
}

/* Routes closing edge e between placed rooms; marks it on success. */
static int route_close(dgi_layout *L, int32_t e)
{
    const dg_graph_edge *x = &L->g->edges[e];
    dgi_box p = L->room[x->a], q = L->room[x->b];
    /* cells between the two rooms across and along: a corridor is at least
     * their sum less the walls it passes */
    int32_t gx = layout_imax(0, layout_imax(q.x0 - p.x1 - 1, p.x0 - q.x1 - 1));
    int32_t gy = layout_imax(0, layout_imax(q.y0 - p.y1 - 1, p.y0 - q.y1 - 1));
    if (gx + gy - 4 > x->length_max)
        return 0;
    /* straight or L routes first; all failed: round a room between them, or with a step */
    static int (*const drawers[2])(dgi_layout *, int32_t, int32_t, dgi_route *) = {route_draw,
                                                                                 route_three_draw};
    dgi_route r;
    for (int k = 0; k < 2; k++)
        for (int32_t t = 0; t < ROUTE_DRAWS; t++)
            if (drawers[k](L, x->a, x->b, &r) && r.length >= x->length_min &&
                r.length <= x->length_max && route_fits(L, &r, e))
            {
                corr_set(L, e, &r);
                return 1;
            }
    return 0;
}

/* ---- rooms ---------------------------------------------------------------- */

/* How room n must sit against placed neighbour m: on `side` of it (0 N, 1 E,
 * 2 S, 3 W of m) with gap0..gap1 cells between the walls (0: a shared wall),
 * overlapping m's span by `overlap` cells. */
typedef struct tie { int32_t m, e, side, gap0, gap1, overlap, at; } tie;
/* How a draw ties n to its placed neighbours besides the door edges (which
 * always share a wall): the edge it was reached by as a straight corridor,
 * every corridor edge straight, or the parent only nearby (routed after). */
enum { TIE_PARENT, TIE_ALL, TIE_LOOSE, TIE_MODES };
#define SIDE_LOOSE 4 /* a tie that only keeps n within reach of m */

/* The interval each interior edge of n may take (x0, x1, y0, y1). */
typedef struct bounds { int32_t lo[4], hi[4]; } bounds;

static void bound(bounds *b, int k, int32_t lo, int32_t hi)
{
    b->lo[k] = layout_imax(b->lo[k], lo);
    b->hi[k] = layout_imin(b->hi[k], hi);
}

/* The first interior row or column beyond m's wall on the side, for a gap. */
static int32_t beyond(dgi_box m, int side, int32_t gap)
{
    int32_t k = 2 + gap + (gap > 0);
    return side == 0 ? m.y0 - k : side == 1 ? m.x1 + k : side == 2 ? m.y1 + k : m.x0 - k;
}

/* Narrows b by tie t: the side's edge within the gap range, the other axis
 * overlapping m's span (a loose tie: within reach of m on both axes). */
static void tie_bound(const dgi_layout *L, const tie *t, bounds *b)
{
    dgi_box m = L->room[t->m];
    if (t->side == SIDE_LOOSE)
    {
        bound(b, 0, INT32_MIN / 2, m.x1 + t->gap1 + 1), bound(b, 1, m.x0 - t->gap1 - 1, INT32_MAX / 2);
        bound(b, 2, INT32_MIN / 2, m.y1 + t->gap1 + 1), bound(b, 3, m.y0 - t->gap1 - 1, INT32_MAX / 2);
        return;
    }
    int32_t near = beyond(m, t->side, t->gap0), far = beyond(m, t->side, t->gap1);
    switch (t->side)
    {
    case 0: bound(b, 3, far, near); break;
    case 1: bound(b, 0, near, far); break;
    case 2: bound(b, 2, near, far); break;
    default: bound(b, 1, far, near); break;
    }
    int across = t->side & 1 ? 2 : 0; /* the axis along m's side */
    int32_t s0 = t->side & 1 ? m.y0 : m.x0, s1 = t->side & 1 ? m.y1 : m.x1;
    bound(b, across, INT32_MIN / 2, s1 - t->overlap + 1);
    bound(b, across + 1, s0 + t->overlap - 1, INT32_MAX / 2);
    if (t->at != AT_NONE) /* the door or corridor at a template's door cell */
    {
        bound(b, across, INT32_MIN / 2, t->at);
        bound(b, across + 1, t->at + L->cw - 1, INT32_MAX / 2);
    }
}

/* Picks lo..hi within b's intervals on one axis with a size in smin..smax;
 * with `align`, lines lo up with a (else hi with b) when that fits. */
static int axis_pick(dgi_layout *L, const bounds *b, int k, int32_t smin, int32_t smax, int32_t align_lo,
                     int32_t align_hi, int32_t *lo, int32_t *hi)
{
    int32_t a = layout_imax(b->lo[k], b->lo[k + 1] - smax + 1), z = layout_imin(b->hi[k], b->hi[k + 1] - smin + 1);
    if (a > z)
        return 0;
    int32_t how = layout_draw(L, 0, 3);
    *lo = how == 0 && align_lo >= a && align_lo <= z ? align_lo : layout_draw(L, a, z);
    int32_t h0 = layout_imax(b->lo[k + 1], *lo + smin - 1), h1 = layout_imin(b->hi[k + 1], *lo + smax - 1);
    if (how == 1 && align_hi >= h0 && align_hi <= h1)
        *hi = align_hi;
    else
        *hi = layout_draw(L, h0, h1);
    return h0 <= h1;
}

/* 1 if tie t (not the anchor) of template node n, just drawn at q, meets
 * one of n's door cells: the other room's door cell, or its side's span. */
static int tie_match(dgi_layout *L, int32_t n, tie *t)
{
    dgi_box m = L->room[t->m];
    int32_t lo = t->side & 1 ? m.y0 : m.x0, hi = (t->side & 1 ? m.y1 : m.x1) - L->cw + 1;
    for (int32_t k = 0; k < L->tdoors[n]; k++)
    {
        int32_t c = door_coord(L, n, k);
        if (L->tdoor[n][k].side == ((t->side + 2) & 3) &&
            (t->at != AT_NONE ? c == t->at : c >= lo && c <= hi))
        {
            t->at = c;
            return 1;
        }
    }
    return 0;
}

/* The left (axis 0) or top (1) interior edge of template node n, within
 * lo..hi, along the axis its anchor leaves free: a place that lines one of
 * its door cells up with the door cell of another template it is tied to
 * across that axis (drawn among them), else any. */
static int32_t free_axis(dgi_layout *L, int32_t n, const tie *t, int32_t ties, int axis, int32_t lo,
                         int32_t hi)
{
    int32_t fit[DG_GRAPH_DEGREE_MAX * DGI_TEMPLATE_DOORS], count = 0;
    for (int32_t i = 0; i < ties; i++)
        if (t[i].side != SIDE_LOOSE && t[i].at != AT_NONE && (t[i].side & 1) == axis)
            for (int32_t k = 0; k < L->tdoors[n]; k++)
            {
                int32_t v = t[i].at - (axis ? L->tdoor[n][k].y : L->tdoor[n][k].x) + 1;
                if (L->tdoor[n][k].side == ((t[i].side + 2) & 3) && v >= lo && v <= hi)
                    fit[count++] = v;
            }
    return count ? fit[layout_draw(L, 0, count - 1)] : layout_draw(L, lo, hi);
}

/* Draws a template node: a prefab and orientation, then its place: the
 * first tie (the anchor) puts one of its door cells against the other room's
 * door cell or wall, the other ties must then meet door cells too. */
static int template_draw(dgi_layout *L, int32_t n, tie *t, int32_t ties, dgi_box *out)
{
    if (!template_pick(L, n))
        return 0;
    int32_t w, h, anchor = -1;
    dgi_template_size(L->g->prefabs, L->tpl[n], L->tpl_orient[n], &w, &h);
    bounds b = {{1, 1, 1, 1}, {L->w - 2, L->w - 2, L->h - 2, L->h - 2}};
    for (int32_t i = 0; i < ties; i++)
    {
        tie_bound(L, &t[i], &b);
        if (anchor < 0 && t[i].side != SIDE_LOOSE)
            anchor = i;
    }
    int32_t xlo = layout_imax(b.lo[0], b.lo[1] - (w - 2) + 1), xhi = layout_imin(b.hi[0], b.hi[1] - (w - 2) + 1);
    int32_t ylo = layout_imax(b.lo[2], b.lo[3] - (h - 2) + 1), yhi = layout_imin(b.hi[2], b.hi[3] - (h - 2) + 1);
    if (xlo > xhi || ylo > yhi)
        return 0;
    int32_t x0 = 0, y0 = 0;
    if (anchor >= 0)
    {
        tie *a = &t[anchor];
        int32_t k = free_door(L, n, 1 << ((a->side + 2) & 3), -1);
        if (k < 0)
            return 0;
        dgi_box m = L->room[a->m];
        int32_t c = a->at != AT_NONE ? a->at : a->side & 1 ? layout_draw(L, m.y0, m.y1 - L->cw + 1)
                                                          : layout_draw(L, m.x0, m.x1 - L->cw + 1);
        a->at = c;
        if (a->side & 1)
            y0 = c - L->tdoor[n][k].y + 1, x0 = free_axis(L, n, t, ties, 0, xlo, xhi);
        else
            x0 = c - L->tdoor[n][k].x + 1, y0 = free_axis(L, n, t, ties, 1, ylo, yhi);
        if (x0 < xlo || x0 > xhi || y0 < ylo || y0 > yhi)
            return 0;
    }
    else
    {
        x0 = layout_draw(L, xlo, xhi);
        y0 = layout_draw(L, ylo, yhi);
    }
    *out = (dgi_box){x0, y0, x0 + w - 3, y0 + h - 3};
    L->room[n] = *out; /* for the door cells' places; n is not placed yet */
    for (int32_t i = 0; i < ties; i++)
        if (i != anchor && t[i].side != SIDE_LOOSE && !tie_match(L, n, &t[i]))
            return 0;
    return 1;
}

/* The smallest size n is drawn at on an axis of range smin..smax: after the
 * first attempt one cell more each time a room that waited for n alone
 * found no place next to it (a small room has too little wall to keep its
 * neighbours room_distance apart: two door neighbours on sides that meet
 * at a corner need a side of room_distance + 2 cells between them). */
static int32_t room_min(const dgi_layout *L, int32_t n, int32_t smin, int32_t smax)
{
    return L->look_near ? layout_imin(smax, smin + L->crowded[n]) : smin;
}

/* Narrows b so that n overlaps t's room by the least it may, at one end of
 * its side drawn, and stretches away from it: two rooms at neighbouring
 * sides of one room then keep apart. */
static void corner_bound(dgi_layout *L, const tie *t, bounds *b)
{
    dgi_box m = L->room[t->m];
    int across = t->side & 1 ? 2 : 0;
    int32_t s0 = t->side & 1 ? m.y0 : m.x0, s1 = t->side & 1 ? m.y1 : m.x1;
    if (layout_draw(L, 0, 1))
        bound(b, across, s1 - t->overlap + 1, s1 - t->overlap + 1);
    else
        bound(b, across + 1, s0 + t->overlap - 1, s0 + t->overlap - 1);
}

/* The smallest span lo..hi of a size in smin..smax starting at lo within
 * b's intervals on axis k; 0 if there is none. */
static int axis_fit(const bounds *b, int k, int32_t lo, int32_t smin, int32_t smax, int32_t *hi)
{
    *hi = layout_imax(lo + smin - 1, b->lo[k + 1]);
    return lo >= b->lo[k] && lo <= b->hi[k] && *hi <= layout_imin(b->hi[k + 1], lo + smax - 1);
}

/* 1 if b leaves room for a rectangle with sides in w[0]..w[1], h[0]..h[1]. */
static int bounds_open(const bounds *b, const int32_t *w, const int32_t *h)
{
    int32_t x = layout_imax(b->lo[0], b->lo[1] - w[1] + 1), y = layout_imax(b->lo[2], b->lo[3] - h[1] + 1);
    int32_t end;
    return axis_fit(b, 0, x, w[0], w[1], &end) && axis_fit(b, 2, y, h[0], h[1], &end);
}

/* Lists in fit[], in increasing order, every way (two bits a tie) the
 * `frees` free ties may sit in that leaves b room for n; side[i][s] bounds
 * tie i alone on side s. */
static int32_t ways_open(const bounds *b, bounds (*side)[4], int32_t frees, const int32_t *w,
                         const int32_t *h, int32_t *fit)
{
    int32_t count = 0;
    for (int32_t way = 0; way < 1 << (2 * frees); way++)
    {
        bounds c = *b;
        for (int32_t i = 0; i < frees; i++)
            for (int k = 0; k < 4; k++)
                bound(&c, k, side[i][way >> (2 * i) & 3].lo[k], side[i][way >> (2 * i) & 3].hi[k]);
        if (bounds_open(&c, w, h))
            fit[count++] = way;
    }
    return count;
}

/* Gives n's ties whose side is free (up to FREE_SIDES of them, when n has
 * two ties or more) one of the ways that leave room for n, drawn among
 * them: with two or three rooms to meet, most ways drawn at random
 * contradict. 0 if none does. */
static int sides_pick(dgi_layout *L, tie *t, int32_t ties, const int32_t *w, const int32_t *h)
{
    int32_t free_tie[FREE_SIDES], frees = 0, fit[1 << (2 * FREE_SIDES)];
    bounds fixed = {{1, 1, 1, 1}, {L->w - 2, L->w - 2, L->h - 2, L->h - 2}}, side[FREE_SIDES][4];
    for (int32_t i = 0; i < ties; i++)
        if (t[i].side == SIDE_LOOSE || t[i].at != AT_NONE)
            tie_bound(L, &t[i], &fixed);
        else if (frees == FREE_SIDES)
            return 1; /* too many ways to list: the sides drawn stay */
        else
            free_tie[frees++] = i;
    if (ties < 2 || frees == 0)
        return 1;
    for (int32_t i = 0; i < frees; i++)
        for (int32_t s = 0; s < 4; s++)
        {
            side[i][s] = (bounds){{INT32_MIN / 2, INT32_MIN / 2, INT32_MIN / 2, INT32_MIN / 2},
                                  {INT32_MAX / 2, INT32_MAX / 2, INT32_MAX / 2, INT32_MAX / 2}};
            t[free_tie[i]].side = s;
            tie_bound(L, &t[free_tie[i]], &side[i][s]);
        }
    int32_t count = ways_open(&fixed, side, frees, w, h, fit);
    if (count == 0)
        return 0;
    int32_t way = fit[layout_draw(L, 0, count - 1)];
    for (int32_t i = 0; i < frees; i++)
        t[free_tie[i]].side = way >> (2 * i) & 3;
    return 1;
}

/* Draws a rectangle for n meeting every tie; 0 if the ties contradict. */
static int room_draw(dgi_layout *L, int32_t n, tie *t, int32_t ties, dgi_box *out)
{
    if (layout_is_template(L, n))
        return template_draw(L, n, t, ties, out);
    const dg_graph_node *node = &L->g->nodes[n];
    int32_t wmin = room_min(L, n, node->width_min, node->width_max);
    int32_t hmin = room_min(L, n, node->height_min, node->height_max);
    if (L->thorough && !sides_pick(L, t, ties, (int32_t[2]){wmin, node->width_max},
                                   (int32_t[2]){hmin, node->height_max}))
        return 0;
    bounds b = {{1, 1, 1, 1}, {L->w - 2, L->w - 2, L->h - 2, L->h - 2}};
    for (int32_t i = 0; i < ties; i++)
        tie_bound(L, &t[i], &b);
    if (L->look_near && ties && t[0].side != SIDE_LOOSE && t[0].at == AT_NONE &&
        layout_draw(L, 0, CORNER_DRAWS - 1) == 0)
        corner_bound(L, &t[0], &b);
    dgi_box m = ties ? L->room[t[0].m] : (dgi_box){0, 0, 0, 0};
    if (!axis_pick(L, &b, 0, wmin, node->width_max, m.x0, m.x1, &out->x0, &out->x1) ||
        !axis_pick(L, &b, 2, hmin, node->height_max, m.y0, m.y1, &out->y0, &out->y1))
        return 0;
    return 1;
}

/* n's neighbours as bits. */
static uint64_t neighbour_bits(const dgi_layout *L, int32_t n)
{
    uint64_t bits = 0;
    for (int32_t k = 0; k < L->deg[n]; k++)
        bits |= 1ULL << layout_other_end(&L->g->edges[L->adj[n][k]], n);
    return bits;
}

/* 1 if n's footprint meets no corridor and no room but its door
 * neighbours' walls, and no room but its placed neighbours lies within
 * room_distance of it. */
static int room_fits(dgi_layout *L, int32_t n, dgi_box q, const tie *t, int32_t ties)
{
    L->work++;
    uint64_t wall = 0, near = neighbour_bits(L, n);
    for (int32_t i = 0; i < ties; i++)
        if (t[i].gap1 == 0)
            wall |= 1ULL << t[i].m;
    dgi_box walls = layout_grow(q, 1), reach = layout_grow(q, 1 + L->d);
    for (uint64_t placed = rooms_near(L, reach); placed; placed &= placed - 1)
    {
        int32_t m = dgi_lowest_bit64(placed);
        dgi_box f = layout_grow(L->room[m], 1);
        if (meets(wall >> m & 1 ? q : walls, f) || (!(near >> m & 1) && meets(reach, f)))
            return 0;
    }
    return !corridors_meet(L, walls, -1);
}

/* The straight corridor of a tie with a gap, between n (at q) and t->m. */
static int tie_route(dgi_layout *L, int32_t n, const tie *t, dgi_route *r)
{
    dgi_box m = L->room[t->m], q = L->room[n];
    int vertical = !(t->side & 1);
    int32_t lo = vertical ? layout_imax(m.x0, q.x0) : layout_imax(m.y0, q.y0);
    int32_t hi = (vertical ? layout_imin(m.x1, q.x1) : layout_imin(m.y1, q.y1)) - L->cw + 1;
    int32_t at = t->at != AT_NONE ? t->at : layout_draw(L, lo, hi);
    return route_straight(L, t->m, n, t->side, at, r) && route_fits(L, r, t->e);
}

/* Placed nodes that n must still meet through unplaced nodes, by hops. */
static int32_t pull_targets(const dgi_layout *L, int32_t n, int32_t *who, int32_t *hops)
{
    const dg_graph *g = L->g;
    int32_t dist[DG_GRAPH_NODES_MAX], queue[DG_GRAPH_NODES_MAX], head = 0, tail = 0, count = 0;
    for (int32_t i = 0; i < g->node_count; i++)
        dist[i] = -1;
    dist[n] = 0;
    queue[tail++] = n;
    while (head < tail)
    {
        int32_t u = queue[head++];
        for (int32_t k = 0; k < L->deg[u]; k++)
        {
            int32_t v = layout_other_end(&g->edges[L->adj[u][k]], u);
            if (dist[v] >= 0)
                continue;
            dist[v] = dist[u] + 1;
            if (L->placed[v])
            {
                if (u != n && dist[v] <= PULL_HOPS)
                    who[count] = v, hops[count++] = dist[v];
                continue;
            }
            if (dist[v] < PULL_HOPS)
                queue[tail++] = v;
        }
    }
    return count;
}

static int32_t pull_score(const dgi_layout *L, dgi_box q, const int32_t *who, const int32_t *hops,
                          int32_t count)
{
    int32_t s = 0;
    for (int32_t i = 0; i < count; i++)
    {
        dgi_box m = L->room[who[i]];
        int32_t dx = (q.x0 + q.x1) - (m.x0 + m.x1), dy = (q.y0 + q.y1) - (m.y0 + m.y1);
        s += (dx < 0 ? -dx : dx) * 16 / hops[i] + (dy < 0 ? -dy : dy) * 16 / hops[i];
    }
    return s;
}

/* The ties of n to its placed neighbours under `mode`; the corridor edges
 * left untied close cycles and are routed. After the first attempt such an
 * edge still ties n loosely (each axis within its longest straight
 * corridor of the other room), so n is drawn where the corridor can reach:
 * else most draws closing a loop fail with the two ends too far apart. */
static int32_t collect_ties(dgi_layout *L, int32_t n, int mode, tie *t)
{
    int32_t k = 0;
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        int32_t e = L->adj[n][j];
        const dg_graph_edge *x = &L->g->edges[e];
        if (!L->placed[layout_other_end(x, n)])
            continue;
        int corridor = x->kind == DG_EDGE_CORRIDOR, parent = e == L->parent_edge[n];
        int closing = corridor && !parent && mode != TIE_ALL;
        if (closing && !L->look_near)
            continue;
        t[k].m = layout_other_end(x, n);
        t[k].e = e;
        t[k].side = layout_draw(L, 0, 3);
        t[k].gap0 = corridor ? x->length_min : 0;
        t[k].gap1 = corridor ? x->length_max : 0;
        t[k].overlap = corridor ? L->cw : 1;
        t[k].at = AT_NONE;
        if (closing)
        {
            t[k].side = SIDE_LOOSE;
            t[k].gap1 = x->length_max + 2;
        }
        else if (corridor && parent && mode == TIE_LOOSE)
        {
            t[k].side = SIDE_LOOSE;
            t[k].gap1 = x->length_max / 2 + 2;
        }
        else if (layout_is_template(L, t[k].m)) /* n meets one of the template's free door cells */
        {
            int32_t d = free_door(L, t[k].m, 15, e);
            if (d < 0)
                return -1;
            t[k].side = L->tdoor[t[k].m][d].side;
            t[k].at = door_coord(L, t[k].m, d);
        }
        k++;
    }
    return k;
}

/* Takes node n off the map with the corridors it was given. */
static void room_remove(dgi_layout *L, int32_t n)
{
    for (int32_t k = 0; k < L->deg[n]; k++)
        corr_clear(L, L->adj[n][k]);
    room_set(L, n, 0);
}

static void take_back(dgi_layout *L, int32_t n, const int32_t *tied_edge, int32_t ntied)
{
    for (int32_t i = 0; i < ntied; i++)
        corr_clear(L, tied_edge[i]);
    room_set(L, n, 0);
}

/* Marks n at q (which fits) with the doors and corridors of its ties t and
 * routes its other corridor edges to placed rooms; on failure everything it
 * marked is undone. */
static int room_commit(dgi_layout *L, int32_t n, const dgi_box *q, const tie *t, int32_t ties,
                       dgi_route *tied, int32_t *tied_edge, int32_t *ntied)
{
    *ntied = 0;
    L->room[n] = *q;
    room_set(L, n, 1);
    int ok = 1;
    for (int32_t i = 0; ok && i < ties; i++)
    {
        if (t[i].side == SIDE_LOOSE)
            continue;
        if (t[i].gap1 == 0)
        {
            dgi_box m = L->room[t[i].m];
            int vertical = !(t[i].side & 1);
            int32_t at = t[i].at != AT_NONE ? t[i].at
                         : vertical ? layout_draw(L, layout_imax(m.x0, q->x0), layout_imin(m.x1, q->x1))
                                    : layout_draw(L, layout_imax(m.y0, q->y0), layout_imin(m.y1, q->y1));
            int32_t wall = t[i].side == 0 ? q->y1 + 1 : t[i].side == 2 ? q->y0 - 1
                         : t[i].side == 1 ? q->x0 - 1 : q->x1 + 1;
            L->door[t[i].e] = vertical ? (dgi_box){at, wall, at, wall} : (dgi_box){wall, at, wall, at};
            continue;
        }
        dgi_route r;
        ok = tie_route(L, n, &t[i], &r);
        if (ok)
        {
            corr_set(L, t[i].e, &r);
            tied[*ntied] = r;
            tied_edge[(*ntied)++] = t[i].e;
        }
    }
    for (int32_t j = 0; ok && j < L->deg[n]; j++)
    {
        int32_t e = L->adj[n][j];
        const dg_graph_edge *x = &L->g->edges[e];
        if (x->kind == DG_EDGE_CORRIDOR &&
            L->placed[layout_other_end(x, n)] && !L->has_corr[e])
        {
            ok = route_close(L, e);
            if (ok)
            {
                tied[*ntied] = L->corr[e];
                tied_edge[(*ntied)++] = e;
            }
        }
    }
    if (ok)
        return 1;
    take_back(L, n, tied_edge, *ntied);
    return 0;
}

/* Tries one candidate for n: draws, checks and marks it with its corridors;
 * on failure everything it marked is undone. */
static int room_try(dgi_layout *L, int32_t n, int mode, dgi_box *q, dgi_route *tied, int32_t *tied_edge,
                    int32_t *ntied)
{
    tie t[DG_GRAPH_DEGREE_MAX];
    int32_t ties = collect_ties(L, n, mode, t);
    *ntied = 0;
    if (ties < 0 || !room_draw(L, n, t, ties, q) || !room_fits(L, n, *q, t, ties))
        return 0;
    return room_commit(L, n, q, t, ties, tied, tied_edge, ntied);
}

/* Looks for a room of n among SCAN_STEPS places spread over each way its
 * ties can sit (every side of each tied room, when at most SCAN_TIES are),
 * each the smallest room at that corner; the first that fits is placed. */
static int room_scan(dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    tie t[DG_GRAPH_DEGREE_MAX];
    int32_t ties = collect_ties(L, n, TIE_ALL, t);
    if (ties <= 0 || ties > SCAN_TIES || layout_is_template(L, n))
        return 0;
    int32_t combos = 1 << (2 * ties), first = layout_draw(L, 0, combos - 1);
    for (int32_t c = 0; c < combos; c++)
    {
        int32_t combo = (first + c) % combos;
        bounds b = {{1, 1, 1, 1}, {L->w - 2, L->w - 2, L->h - 2, L->h - 2}};
        for (int32_t i = 0; i < ties; i++)
        {
            if (!layout_is_template(L, t[i].m)) /* a template's tie keeps its door cell's side */
                t[i].side = combo >> (2 * i) & 3;
            tie_bound(L, &t[i], &b);
        }
        int32_t x0 = layout_imax(b.lo[0], b.lo[1] - node->width_max + 1), x1 = layout_imin(b.hi[0], b.hi[1] - node->width_min + 1);
        int32_t y0 = layout_imax(b.lo[2], b.lo[3] - node->height_max + 1), y1 = layout_imin(b.hi[2], b.hi[3] - node->height_min + 1);
        if (x0 > x1 || y0 > y1)
            continue;
        int64_t cols = x1 - x0 + 1, places = cols * (y1 - y0 + 1);
        int64_t step = places / (L->d >= 3 ? SCAN_STEPS_FAR : SCAN_STEPS) + 1;
        int64_t at = layout_draw(L, 0, (int32_t)(step < INT32_MAX ? step : INT32_MAX) - 1);
        for (; at < places; at += step)
        {
            dgi_box q;
            q.x0 = x0 + (int32_t)(at % cols), q.y0 = y0 + (int32_t)(at / cols);
            dgi_route tied[DG_GRAPH_DEGREE_MAX];
            int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
            if (axis_fit(&b, 0, q.x0, node->width_min, node->width_max, &q.x1) &&
                axis_fit(&b, 2, q.y0, node->height_min, node->height_max, &q.y1) &&
                room_fits(L, n, q, t, ties) && room_commit(L, n, &q, t, ties, tied, tied_edge, &ntied))
                return 1;
        }
    }
    return 0;
}

/* 1 if every unplaced neighbour of n (just placed) that would close a cycle
 * with another placed room still finds a place in LOOK_DRAWS draws; from
 * DOOR_LOOK_DISTANCE on also every one joined to n by a door (it must find a
 * side of n far enough from n's other neighbours), drawn or else scanned. */
static int closers_fit(dgi_layout *L, int32_t n)
{
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        const dg_graph_edge *x = &L->g->edges[L->adj[n][j]];
        int32_t c = layout_other_end(x, n), closing = 0;
        if (L->placed[c])
            continue;
        for (int32_t k = 0; k < L->deg[c]; k++)
            closing |= layout_other_end(&L->g->edges[L->adj[c][k]], c) != n &&
                       L->placed[layout_other_end(&L->g->edges[L->adj[c][k]], c)];
        int rigid = !closing && L->d >= DOOR_LOOK_DISTANCE && x->kind == DG_EDGE_DOOR;
        int fits = !closing && !rigid;
        for (int32_t k = 0; !fits && k < LOOK_DRAWS; k++)
        {
            dgi_box q;
            dgi_route tied[DG_GRAPH_DEGREE_MAX];
            int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
            fits = room_try(L, c, k % TIE_MODES, &q, tied, tied_edge, &ntied);
            if (fits)
                take_back(L, c, tied_edge, ntied);
        }
        if (!fits && rigid && room_scan(L, c))
            room_remove(L, c), fits = 1;
        if (!fits)
            return 0;
    }
    return 1;
}

/* 1 if placed neighbour m is all of c's placed neighbours. */
static int waits_for_only(const dgi_layout *L, int32_t c, int32_t m)
{
    for (int32_t k = 0; k < L->deg[c]; k++)
    {
        int32_t v = layout_other_end(&L->g->edges[L->adj[c][k]], c);
        if (L->placed[v] && v != m)
            return 0;
    }
    return 1;
}

/* Places unplaced node c if it finds a place, drawn or else (with `scan`)
 * scanned. */
static int place_quick(dgi_layout *L, int32_t c, int scan)
{
    for (int32_t k = 0; k < LOOK_DRAWS; k++)
    {
        dgi_box q;
        dgi_route tied[DG_GRAPH_DEGREE_MAX];
        int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
        if (room_try(L, c, k % TIE_MODES, &q, tied, tied_edge, &ntied))
            return 1;
    }
    return scan && room_scan(L, c);
}

/* 1 if each unplaced room that waits for placed room m alone finds a place;
 * in a thorough attempt all of them together (each kept while the next is
 * tried: two that each fit alone may not fit side by side; the ones after
 * the first are drawn but not scanned for, which would double a refusal's
 * time for little). */
static int waiting_fit(dgi_layout *L, int32_t m)
{
    int32_t kept[DG_GRAPH_DEGREE_MAX], nkept = 0, ok = 1;
    for (int32_t k = 0; ok && k < L->deg[m]; k++)
    {
        int32_t c = layout_other_end(&L->g->edges[L->adj[m][k]], m);
        if (L->placed[c] || !waits_for_only(L, c, m))
            continue;
        ok = place_quick(L, c, nkept == 0);
        if (ok && L->thorough)
            kept[nkept++] = c;
        else if (ok)
            room_remove(L, c);
    }
    while (nkept)
        room_remove(L, kept[--nkept]);
    return ok;
}

/* 1 if every placed room next to n (just placed) keeps a place for each
 * neighbour that waits for it alone (waiting_fit): n may take the last free
 * side of a room whose own rooms come later in the order. */
static int others_keep_room(dgi_layout *L, int32_t n)
{
    dgi_box near = L->room[n];
    for (int32_t k = 0; k < L->deg[n]; k++) /* with n's corridors */
        if (L->has_corr[L->adj[n][k]])
            for (int32_t i = 0; i < L->corr[L->adj[n][k]].legs; i++)
                extend(&near, L->corr[L->adj[n][k]].leg[i]);
    near = layout_grow(near, 2 + L->d);
    for (uint64_t placed = rooms_near(L, near); placed; placed &= placed - 1)
    {
        int32_t m = dgi_lowest_bit64(placed);
        if (m == n || !meets(near, layout_grow(L->room[m], 1)))
            continue;
        if (!waiting_fit(L, m))
            return 0;
    }
    return 1;
}

/* Places node n: the first fitting candidate after which the cycles it
 * leads into can still close; while n has a cycle to close further on, the
 * one of ROOM_KEEP such candidates nearest the rooms it must meet. */
static int room_place(dgi_layout *L, int32_t n)
{
    int32_t who[DG_GRAPH_NODES_MAX], hops[DG_GRAPH_NODES_MAX];
    int32_t targets = pull_targets(L, n, who, hops);
    int32_t best = -1, kept = 0;
    dg_rng best_rng = L->rng;
    int best_mode = 0;
    for (int32_t k = 0; k < ROOM_DRAWS && kept < (targets ? ROOM_KEEP : 1); k++)
    {
        dg_rng before = L->rng;
        dgi_box q;
        dgi_route tied[DG_GRAPH_DEGREE_MAX];
        int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
        if (!room_try(L, n, k % TIE_MODES, &q, tied, tied_edge, &ntied))
            continue;
        /* a candidate that blocks a closing neighbour scores last */
        int fine = closers_fit(L, n) && (!L->look_near || others_keep_room(L, n));
        int32_t s = pull_score(L, q, who, hops, targets) + (fine ? 0 : INT32_MAX / 2);
        take_back(L, n, tied_edge, ntied);
        if (best < 0 || s < best)
            best = s, best_rng = before, best_mode = k % TIE_MODES;
        kept += s < INT32_MAX / 2;
    }
    if (best < 0)
        return room_scan(L, n);
    /* replay the best candidate's draws */
    dg_rng after = L->rng;
    L->rng = best_rng;
    dgi_box q;
    dgi_route tied[DG_GRAPH_DEGREE_MAX];
    int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
    int ok = room_try(L, n, best_mode, &q, tied, tied_edge, &ntied);
    L->rng = after;
    return ok;
}

/* A placed room's box (a template's prefab, orientation and door cells
 * too) with the doors and corridors of its edges, to put back as they were. */
typedef struct room_saved {
    dgi_box room, door[DG_GRAPH_DEGREE_MAX];
    dgi_route corr[DG_GRAPH_DEGREE_MAX];
    uint8_t has_corr[DG_GRAPH_DEGREE_MAX];
    int32_t tpl, tpl_orient, tdoors;
    dgi_tdoor tdoor[DGI_TEMPLATE_DOORS];
} room_saved;

static void room_save(const dgi_layout *L, int32_t r, room_saved *s)
{
    s->room = L->room[r];
    s->tpl = L->tpl[r], s->tpl_orient = L->tpl_orient[r], s->tdoors = L->tdoors[r];
    if (layout_is_template(L, r))
        memcpy(s->tdoor, L->tdoor[r], sizeof s->tdoor);
    for (int32_t k = 0; k < L->deg[r]; k++)
    {
        int32_t e = L->adj[r][k];
        s->door[k] = L->door[e], s->corr[k] = L->corr[e], s->has_corr[k] = L->has_corr[e];
    }
}

static void room_restore(dgi_layout *L, int32_t r, const room_saved *s)
{
    room_remove(L, r);
    L->room[r] = s->room;
    L->tpl[r] = s->tpl, L->tpl_orient[r] = s->tpl_orient, L->tdoors[r] = s->tdoors;
    if (layout_is_template(L, r))
        memcpy(L->tdoor[r], s->tdoor, sizeof s->tdoor);
    room_set(L, r, 1);
    for (int32_t k = 0; k < L->deg[r]; k++)
    {
        int32_t e = L->adj[r][k];
        L->door[e] = s->door[k];
        if (s->has_corr[k])
            corr_set(L, e, &s->corr[k]);
    }
}

/* A placed neighbour of n drawn among them, not the first room (which no
 * step back takes back either) nor skip; -1 if none. */
static int32_t placed_neighbour(dgi_layout *L, int32_t n, int32_t skip)
{
    int32_t near[DG_GRAPH_DEGREE_MAX], count = 0;
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        int32_t m = layout_other_end(&L->g->edges[L->adj[n][j]], n);
        if (L->placed[m] && m != L->order[0] && m != skip)
            near[count++] = m;
    }
    return count ? near[layout_draw(L, 0, count - 1)] : -1;
}

/* A path of up to `want` placed rooms from n, each drawn among the placed
 * neighbours of the one before, none twice; its length. */
static int32_t path_draw(dgi_layout *L, int32_t n, int32_t want, int32_t *path)
{
    int32_t len = 0;
    for (int32_t from = n, prev = -1; len < want; len++)
    {
        int32_t m = placed_neighbour(L, from, prev);
        for (int32_t j = 0; j < len && m >= 0; j++)
            m = path[j] == m ? -1 : m;
        if (m < 0)
            break;
        path[len] = m, prev = from, from = m;
    }
    return len;
}

/* Takes the path's rooms off and places them again, the far end first, each
 * against all of its placed neighbours; if one finds no place, all are put
 * back as they were. */
static int path_move(dgi_layout *L, const int32_t *path, int32_t len)
{
    room_saved saved[NUDGE_PATH];
    for (int32_t j = 0; j < len; j++) /* all saved before any is taken off: they share edges */
        room_save(L, path[j], &saved[j]);
    for (int32_t j = 0; j < len; j++)
        room_remove(L, path[j]);
    int ok = 1;
    for (int32_t j = len - 1; ok && j >= 0; j--)
        ok = room_place(L, path[j]);
    for (int32_t j = 0; !ok && j < len; j++)
        room_restore(L, path[j], &saved[j]);
    return ok;
}

/* n found no place: in a thorough attempt, moves one of n's placed
 * neighbours to another place against all of its own neighbours (every
 * other time, while the attempt's path_budget lasts, a path of two or
 * three placed rooms toward n, which moves a loop's end as a piece), and
 * tries n again; NUDGES times. Rooms that find no other place stay where
 * they were. Unlike a step back, a move keeps every room placed after the
 * ones moved: a loop's last room often fails only because a room it meets
 * sits a few cells off. attempt() asks for it only in the first
 * NUDGE_STEPS failures since the search last got further, and gives each
 * attempt PATH_BUDGET path rooms per room of the graph: a small graph
 * fails at the same few rooms in every attempt, and without the budget
 * its refusal took four times as long. */
static int nudge_place(dgi_layout *L, int32_t n, int32_t *path_budget)
{
    for (int32_t k = 0; L->thorough && k < NUDGES; k++)
    {
        int32_t path[NUDGE_PATH];
        int32_t want = k & 1 && *path_budget > 0 ? layout_draw(L, 2, NUDGE_PATH) : 1;
        int32_t len = path_draw(L, n, want, path);
        if (len == 0)
            return 0;
        *path_budget -= len > 1 ? len : 0;
        if (path_move(L, path, len) && room_place(L, n))
            return 1;
    }
    return 0;
}

/* The rooms placed after b whose chain of parents in the order reaches b,
 * b first, in the order; 0 if there are more than EVICT_MAX or one is in
 * keep (bits). */
static int32_t placed_branch(const dgi_layout *L, int32_t b, uint64_t keep, int32_t *set)
{
    int32_t count = 0;
    for (int32_t i = L->rank[b]; i < L->g->node_count; i++)
    {
        int32_t r = L->order[i];
        while (r != b && L->rank[r] > L->rank[b])
            r = layout_other_end(&L->g->edges[L->parent_edge[r]], r);
        if (r != b || !L->placed[L->order[i]])
            continue;
        if (count == EVICT_MAX || keep >> L->order[i] & 1)
            return 0;
        set[count++] = L->order[i];
    }
    return count;
}

/* The largest side n's room may have. */
static int32_t side_max(const dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    if (!layout_is_template(L, n))
        return layout_imax(node->width_max, node->height_max);
    int32_t most = 0;
    for (int32_t k = 0; k < L->tpl_count[n]; k++)
    {
        int32_t w, h;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): tpl_count > 0 only once tpl_list is set */
        dgi_template_size(L->g->prefabs, L->tpl_list[L->tpl_first[n] + k], 0, &w, &h);
        most = layout_imax(most, layout_imax(w, h) - 2);
    }
    return most;
}

/* A placed room drawn among those within n's reach of one of n's placed
 * neighbours (where n's room or corridor would go), not a neighbour of n
 * nor the first room; -1 if none. */
static int32_t blocker_draw(dgi_layout *L, int32_t n)
{
    uint64_t near = 0, skip = neighbour_bits(L, n) | 1ULL << L->order[0] | 1ULL << n;
    int32_t side = side_max(L, n);
    for (int32_t k = 0; k < L->deg[n]; k++)
    {
        const dg_graph_edge *x = &L->g->edges[L->adj[n][k]];
        int32_t m = layout_other_end(x, n);
        if (!L->placed[m])
            continue;
        int32_t reach = 2 + L->d + side + (x->kind == DG_EDGE_CORRIDOR ? x->length_max + 1 : 0);
        dgi_box around = layout_grow(L->room[m], reach);
        for (uint64_t placed = L->rooms_placed & ~skip; placed; placed &= placed - 1)
        {
            int32_t r = dgi_lowest_bit64(placed);
            near |= meets(around, L->room[r]) ? 1ULL << r : 0;
        }
    }
    int32_t count = dgi_popcount64(near);
    if (count == 0)
        return -1;
    for (int32_t k = layout_draw(L, 0, count - 1); k > 0; k--)
        near &= near - 1;
    return dgi_lowest_bit64(near);
}

/* n found no place, nor after nudge_place: in a thorough attempt, takes a
 * room in n's way off with the rooms placed from it (its branch, at most
 * EVICT_MAX rooms, none of n's neighbours), places n and then the branch
 * again in order; EVICTS times. A failed try puts everything back as it
 * was. A dense tree's room often fails because an earlier branch took the
 * place it needs, and a step back takes off the rooms before n, not that
 * branch. */
static int evict_place(dgi_layout *L, int32_t n)
{
    for (int32_t k = 0; L->thorough && k < EVICTS; k++)
    {
        int32_t set[EVICT_MAX], b = blocker_draw(L, n);
        if (b < 0)
            return 0;
        int32_t count = placed_branch(L, b, neighbour_bits(L, n), set);
        if (count == 0)
            continue;
        room_saved saved[EVICT_MAX];
        for (int32_t j = 0; j < count; j++) /* all saved before any is taken off: they share edges */
            room_save(L, set[j], &saved[j]);
        for (int32_t j = 0; j < count; j++)
            room_remove(L, set[j]);
        int32_t done = room_place(L, n) ? 0 : -1;
        while (done >= 0 && done < count && room_place(L, set[done]))
            done++;
        if (done == count)
            return 1;
        for (int32_t j = 0; j < done; j++)
            room_remove(L, set[j]);
        if (done >= 0)
            room_remove(L, n);
        for (int32_t j = 0; j < count; j++)
            room_restore(L, set[j], &saved[j]);
    }
    return 0;
}

static int place_root(dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    int32_t w, h;
    if (layout_is_template(L, n))
    {
        if (!template_pick(L, n))
            return 0;
        dgi_template_size(L->g->prefabs, L->tpl[n], L->tpl_orient[n], &w, &h);
        w -= 2, h -= 2;
    }
    else
    {
        w = layout_draw(L, room_min(L, n, node->width_min, node->width_max), node->width_max);
        h = layout_draw(L, room_min(L, n, node->height_min, node->height_max), node->height_max);
    }
    int32_t x0 = (L->w - w) / 2 + layout_draw(L, -L->w / 8, L->w / 8);
    int32_t y0 = (L->h - h) / 2 + layout_draw(L, -L->h / 8, L->h / 8);
    dgi_box q = {x0, y0, x0 + w - 1, y0 + h - 1};
    if (!inside(L, q))
        return 0;
    L->room[n] = q;
    room_set(L, n, 1);
    return 1;
}

static int recentre(dgi_layout *L);

/* One whole attempt; -1 on success, else the node that did not fit. A node
 * that does not fit first moves the placed rooms to the middle of the grid
 * if they lie off it (the layout grows from wherever it began, and a room
 * stuck at the grid's edge fits once the rest moves away from it), else
 * takes back the rooms from its parent on (the first time) or 2, 4, 8, 16
 * rooms before its parent (after that); BACKJUMPS such steps, then the
 * attempt is given up. */
static int32_t attempt(dgi_layout *L)
{
    memset(L->placed, 0, (size_t)L->g->node_count * sizeof L->placed[0]);
    memset(L->has_corr, 0, (size_t)L->g->edge_count * sizeof L->has_corr[0]);
    bucket_reset(L);
    if (!place_root(L, L->order[0]))
        return L->order[0];
    int32_t jumps = 0, front = 0, streak = 0, path_budget = PATH_BUDGET * L->g->node_count;
    for (int32_t i = 1; i < L->g->node_count; i++)
    {
        int32_t n = L->order[i];
        if (L->work >= L->work_max)
            return n;
        if (i > front)
            front = i, streak = 0;
        if (room_place(L, n) ||
            (streak < NUDGE_STEPS && (nudge_place(L, n, &path_budget) || evict_place(L, n))))
            continue;
        if (++jumps > BACKJUMPS)
            return n;
        L->fails[n]++;
        int32_t parent = layout_other_end(&L->g->edges[L->parent_edge[n]], n);
        L->crowded[parent] += waits_for_only(L, n, parent);
        if (recentre(L))
        {
            i--;
            continue;
        }
        int32_t back = layout_imax(1, layout_imin(i - 1, L->rank[parent] - (streak ? 1 << layout_imin(streak, 4) : 0)));
        streak++;
        while (i > back)
            room_remove(L, L->order[--i]);
        i--;
    }
    return -1;
}

/* ---- extra connections and centring ---------------------------------------- */

/* comp[n]: n's component in the graph without its locked and secret edges,
 * so a corridor within one opens no way around a lock or into a secret. */
static void open_components(const dgi_layout *L, int32_t *comp)
{
    const dg_graph *g = L->g;
    for (int32_t n = 0; n < g->node_count; n++)
        comp[n] = n;
    for (int32_t pass = 0; pass < g->node_count; pass++) /* labels settle in < nodes passes */
        for (int32_t e = 0; e < g->edge_count; e++)
        {
            const dg_graph_edge *x = &g->edges[e];
            if (!x->lock && !x->secret)
                comp[x->a] = comp[x->b] = layout_imin(comp[x->a], comp[x->b]);
        }
}

static int joined(const dgi_layout *L, int32_t a, int32_t b)
{
    for (int32_t k = 0; k < L->deg[a]; k++)
        if (layout_other_end(&L->g->edges[L->adj[a][k]], a) == b)
            return 1;
    return 0;
}

/* A straight corridor of at most EXTRA_REACH cells between facing rooms a
 * and b, tried from the middle of their shared span outward. */
static int extra_route(dgi_layout *L, int32_t a, int32_t b, dgi_route *r)
{
    dgi_box p = L->room[a], q = L->room[b];
    int vertical = layout_imin(p.x1, q.x1) - layout_imax(p.x0, q.x0) + 1 >= L->cw;
    if (!vertical && layout_imin(p.y1, q.y1) - layout_imax(p.y0, q.y0) + 1 < L->cw)
        return 0;
    int side = vertical ? (q.y0 > p.y1 ? 2 : 0) : (q.x0 > p.x1 ? 1 : 3);
    int32_t lo = vertical ? layout_imax(p.x0, q.x0) : layout_imax(p.y0, q.y0);
    int32_t hi = (vertical ? layout_imin(p.x1, q.x1) : layout_imin(p.y1, q.y1)) - L->cw + 1, mid = (lo + hi) / 2;
    for (int32_t k = 0; k <= 2 * (hi - lo); k++)
    {
        int32_t at = mid + (k & 1 ? -(k + 1) / 2 : k / 2);
        if (at >= lo && at <= hi && route_straight(L, a, b, side, at, r) &&
            r->length <= EXTRA_REACH && route_fits(L, r, -1))
            return 1;
    }
    return 0;
}

/* With extra_connections, joins pairs of rooms no edge joins that face each
 * other within EXTRA_REACH cells, each room in at most one such pair, in
 * node order, without crossing a lock or opening a secret. */
static void add_extras(dgi_layout *L)
{
    int32_t comp[DG_GRAPH_NODES_MAX], n = L->g->node_count;
    uint8_t used[DG_GRAPH_NODES_MAX] = {0};
    L->extras = 0;
    if (!L->g->extra_connections)
        return;
    open_components(L, comp);
    for (int32_t a = 0; a < n; a++)
        for (int32_t b = a + 1; b < n && !used[a] && L->extras < DGI_EXTRA_MAX; b++)
            if (!used[b] && comp[a] == comp[b] && !joined(L, a, b) &&
                extra_route(L, a, b, &L->extra[L->extras]))
                used[a] = used[b] = 1, L->extras++;
}

static void shift_box(dgi_box *q, int32_t dx, int32_t dy)
{
    q->x0 += dx, q->x1 += dx, q->y0 += dy, q->y1 += dy;
}

static void shift_route(dgi_route *r, int32_t dx, int32_t dy)
{
    for (int32_t i = 0; i < r->legs; i++)
        shift_box(&r->leg[i], dx, dy);
    shift_box(&r->door[0], dx, dy), shift_box(&r->door[1], dx, dy);
}

/* The shift that puts the rooms (placed_only: the placed ones) and the
 * corridors, with their walls, in the middle of the grid. */
static void shift_to_middle(const dgi_layout *L, int placed_only, int32_t *dx, int32_t *dy)
{
    const dg_graph *g = L->g;
    dgi_box all = {INT32_MAX, INT32_MAX, INT32_MIN, INT32_MIN};
    for (int32_t n = 0; n < g->node_count; n++)
        if (!placed_only || L->placed[n])
            extend(&all, layout_grow(L->room[n], 1));
    for (int32_t e = 0; e < g->edge_count; e++)
        for (int32_t i = 0; L->has_corr[e] && i < L->corr[e].legs; i++)
            extend(&all, layout_grow(L->corr[e].leg[i], 1));
    *dx = (L->w - (all.x1 - all.x0 + 1)) / 2 - all.x0;
    *dy = (L->h - (all.y1 - all.y0 + 1)) / 2 - all.y0;
}

/* Moves the finished layout to the middle of the grid. */
static void centre(dgi_layout *L)
{
    const dg_graph *g = L->g;
    int32_t dx, dy;
    shift_to_middle(L, 0, &dx, &dy);
    for (int32_t n = 0; n < g->node_count; n++)
        shift_box(&L->room[n], dx, dy);
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        shift_box(&L->door[e], dx, dy);
        shift_route(&L->corr[e], dx, dy);
    }
    for (int32_t k = 0; k < L->extras; k++)
        shift_route(&L->extra[k], dx, dy);
}

/* Moves the placed rooms with their corridors and doors so that together
 * they sit in the middle of the grid; 0 if they already do (within
 * RECENTRE_MIN cells). The layout's shape is unchanged, so every tie holds. */
static int recentre(dgi_layout *L)
{
    const dg_graph *g = L->g;
    int32_t dx, dy;
    shift_to_middle(L, 1, &dx, &dy);
    if ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) < RECENTRE_MIN)
        return 0;
    bucket_reset(L);
    for (int32_t n = 0; n < g->node_count; n++)
        if (L->placed[n])
            shift_box(&L->room[n], dx, dy), room_set(L, n, 1);
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        if (L->placed[g->edges[e].a] && L->placed[g->edges[e].b])
            shift_box(&L->door[e], dx, dy);
        if (L->has_corr[e])
        {
            dgi_route r = L->corr[e];
            shift_route(&r, dx, dy);
            L->has_corr[e] = 0;
            corr_set(L, e, &r);
        }
    }
    return 1;
}

/* ---- the call ------------------------------------------------------------- */

/* The prefabs each template node may be: named or tagged by its word, a
 * room (dgi_template_rooms) with a door cell for each of its edges. list
 * gets them node by node (NULL: count only); returns how many. */
static int32_t template_lists(dgi_layout *L, const int32_t *doors, int32_t *list)
{
    const dg_graph *g = L->g;
    int32_t total = 0;
    for (int32_t n = 0; n < g->node_count; n++)
    {
        L->tpl_first[n] = total;
        L->tpl_count[n] = 0;
        for (int32_t i = 0; g->nodes[n].templates[0] && i < dg_prefab_count(g->prefabs); i++)
            if (doors[i] >= L->deg[n] && dgi_graph_template_matches(g, &g->nodes[n], i))
            {
                if (list)
                    list[total] = i;
                total++, L->tpl_count[n]++;
            }
    }
    return total;
}

/* A row of the door cache for each prefab in the lists (at most rows), in
 * the order they first appear, every entry not yet found. */
static void template_rows(dgi_layout *L, size_t total, size_t prefabs, size_t rows)
{
    int32_t next = 0;
    for (size_t i = 0; i < prefabs; i++)
        L->tpl_row[i] = -1;
    for (size_t k = 0; k < total; k++)
        if (L->tpl_row[L->tpl_list[k]] < 0)
            L->tpl_row[L->tpl_list[k]] = next++;
    for (size_t k = 0; k < rows * 8; k++)
        L->tdoor_found[k] = -1;
}

/* The prefab lists of the template nodes, and room for their door cells,
 * in one block (*list, *bytes; none for a graph without templates). */
static dg_status template_setup(dgi_layout *L, const dg_allocator *a, int32_t **list, size_t *bytes,
                                dg_diag *diag)
{
    const dg_graph *g = L->g;
    *list = NULL, *bytes = 0;
    int any = 0;
    for (int32_t n = 0; n < g->node_count; n++)
        any |= g->nodes[n].templates[0] != 0;
    if (!g->prefabs || !any)
        return DG_OK;
    size_t count = (size_t)dg_prefab_count(g->prefabs) + 1;
    size_t door_bytes = sizeof *L->tdoor * DG_GRAPH_NODES_MAX;
    int32_t *doors = dgi_alloc(a, count * sizeof *doors);
    dg_status st = doors ? dgi_template_rooms(g->prefabs, a, doors) : DG_E_NOMEM;
    size_t total = 0, rows = 0, prefabs = count - 1;
    if (st == DG_OK)
    {
        total = (size_t)template_lists(L, doors, NULL);
        rows = total < prefabs ? total : prefabs;
        *bytes = door_bytes + rows * 8 * sizeof *L->tdoor_cache +
                 (total + 1 + prefabs + rows * 8) * sizeof **list;
        *list = dgi_alloc(a, *bytes);
        st = *list ? DG_OK : DG_E_NOMEM;
    }
    if (st == DG_OK)
    {
        uint8_t *at = (uint8_t *)*list, *cache = at + door_bytes;
        L->tdoor = (dgi_tdoor(*)[DGI_TEMPLATE_DOORS])(void *)at;
        L->tdoor_cache = (dgi_tdoor(*)[DGI_TEMPLATE_DOORS])(void *)cache;
        int32_t *tpl_list = (int32_t *)(void *)(cache + rows * 8 * sizeof *L->tdoor_cache);
        L->tpl_row = tpl_list + total + 1;
        L->tdoor_found = L->tpl_row + prefabs;
        template_lists(L, doors, tpl_list);
        L->tpl_list = tpl_list;
        template_rows(L, total, prefabs, rows);
    }
    dgi_free(a, doors, count * sizeof *doors);
    for (int32_t n = 0; st == DG_OK && n < g->node_count; n++)
        if (g->nodes[n].templates[0] && !L->tpl_count[n])
            st = dgi_fail(diag, DG_E_INVALID, "node %s: no prefab named or tagged \"%s\" can be "
                          "a room with %d door cells (its border only walls, void and door "
                          "cells with open floor behind, its inside one open area)",
                          g->nodes[n].name, g->nodes[n].templates, (int)L->deg[n]);
    return st;
}

/* The node that failed most often (the lowest of a tie). */
static int32_t most_failed(const dgi_layout *L)
{
    int32_t worst = 0;
    for (int32_t n = 1; n < L->g->node_count; n++)
        if (L->fails[n] > L->fails[worst])
            worst = n;
    return worst;
}

/* 1 if one of `attempts` whole attempts lays the graph out. The
 * first keeps the plain order (most graphs lay out at once, and it is the
 * cheaper one); the others close each cycle as soon as they can, look
 * ahead for the rooms next to each one placed, and every other one starts
 * from the node that failed most: a room crowded by its neighbours fits
 * when it comes first and they come after it. The order
 * from the start node is restored for the result. */
static int lays_out(dgi_layout *L, int32_t attempts, int32_t *tried)
{
    int32_t start = dgi_graph_start_node(L->g), ok = 0, t = 0;
    for (; t < attempts && !ok && L->work < L->work_max; t++)
    {
        if (t > 0)
            place_order(L, t & 1 ? most_failed(L) : start, 1);
        L->look_near = t > 0;
        L->thorough = t >= FAST_ATTEMPTS;
        int32_t bad = attempt(L);
        ok = bad < 0;
        if (!ok && L->work < L->work_max) /* an attempt the work bound cut short blames no room */
            L->fails[bad]++;
    }
    if (t > 1) /* the first attempt keeps the plain order */
        place_order(L, start, 0);
    *tried = t;
    return ok;
}

/* ---- the size bound ------------------------------------------------------ */
/* A lower bound on the cells a layout takes, checked before any search.
 * Give each room its interior with the wall column east of it and the wall
 * row south of it: [x0, x1 + 1] x [y0, y1 + 1]. Two such boxes A', B' meet
 * exactly when A's interior meets B's footprint (on each axis, x0a <= x1b + 1
 * and x0b <= x1a + 1 say both), which room_fits never allows (a door
 * neighbour's interior may meet only the other's walls), so the boxes are
 * disjoint. A corridor's cells (length * width of them; a route has at
 * least one cell along) lie in no room's footprint (route_fits) and in no
 * other corridor's, and every interior and corridor cell lies inside the
 * border, so every box and corridor lies in [1, w - 1] x [1, h - 1]. So a
 * layout needs at least the sum of the smallest boxes plus the smallest
 * corridors, and (w - 1) * (h - 1) cells at most hold them; a template
 * room's box is its prefab's (w - 1) * (h - 1) in any orientation. */
static int64_t room_box_min(const dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    if (!layout_is_template(L, n))
        return (int64_t)(node->width_min + 1) * (node->height_min + 1);
    int64_t least = INT64_MAX;
    for (int32_t k = 0; k < L->tpl_count[n]; k++)
    {
        int32_t w, h;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): tpl_count > 0 only once tpl_list is set */
        dgi_template_size(L->g->prefabs, L->tpl_list[L->tpl_first[n] + k], 0, &w, &h);
        least = least < (int64_t)(w - 1) * (h - 1) ? least : (int64_t)(w - 1) * (h - 1);
    }
    return least;
}

static int64_t cells_needed(const dgi_layout *L)
{
    int64_t need = 0;
    for (int32_t n = 0; n < L->g->node_count; n++)
        need += room_box_min(L, n);
    for (int32_t e = 0; e < L->g->edge_count; e++)
        if (L->g->edges[e].kind == DG_EDGE_CORRIDOR)
            need += (int64_t)layout_imax(1, L->g->edges[e].length_min) * L->cw;
    return need;
}

static int64_t cells_held(int32_t w, int32_t h) { return (int64_t)(w - 1) * (h - 1); }

/* DG_E_NOSPACE at once when the graph cannot fit the grid by the bound
 * above, naming both areas and the smallest grid of the same shape (each
 * side 1.25, 1.5, ... up to 16 times) the bound lets through, if any. */
static dg_status size_check(const dgi_layout *L, dg_diag *diag)
{
    int64_t need = cells_needed(L), w = L->w, h = L->h;
    if (need <= cells_held(L->w, L->h))
        return DG_OK;
    int32_t k = 5;
    while (k <= 64 && need > cells_held((int32_t)(w * k / 4), (int32_t)(h * k / 4)))
        k++;
    if (k > 64)
        return dgi_fail(diag, DG_E_NOSPACE, "graph: its rooms and corridors need at least %lld "
                        "cells with their walls, and a %dx%d grid holds %lld inside its border "
                        "(no layout tried)", (long long)need, (int)w, (int)h,
                        (long long)cells_held(L->w, L->h));
    return dgi_fail(diag, DG_E_NOSPACE, "graph: its rooms and corridors need at least %lld cells "
                    "with their walls, and a %dx%d grid holds %lld inside its border (no layout "
                    "tried; a grid of %dx%d may fit)", (long long)need, (int)w, (int)h,
                    (long long)cells_held(L->w, L->h), (int)(w * k / 4), (int)(h * k / 4));
}

/* On failure the message names the node that failed most often and the
 * smallest of four larger grids (1.25 to 2 times each side) the same seed
 * lays out on within LARGER_ATTEMPTS, if any: at most four more short
 * searches, and only on failure (a grid with room to spare mostly lays out
 * at once). Each starts as a call on that grid would, so the grid named is
 * one the seed lays out on. */
static dg_status search(dgi_layout *L, dg_diag *diag)
{
    int32_t attempts = L->g->max_attempts ? L->g->max_attempts : DGI_GRAPH_ATTEMPTS, tried;
    if (lays_out(L, attempts, &tried))
        return DG_OK;
    int32_t worst = most_failed(L), w = L->w, h = L->h, fit = 0;
    if (L->work >= L->work_max)
        return dgi_fail(diag, DG_E_NOSPACE, "node %s: no place found in %d of %d layouts on %dx%d: "
                        "the search's work bound (%lld places and routes tested) was reached "
                        "first (longer corridors or larger rooms next to it may help; "
                        "docs/graph.md, Limits)",
                        L->g->nodes[worst].name, (int)tried, (int)attempts, (int)w, (int)h,
                        (long long)L->work_max);
    for (int32_t k = 1; k <= 4 && !fit; k++)
    {
        L->work = 0; /* each larger grid is a search of its own */
        L->w = (int32_t)(w + (int64_t)w * k / 4), L->h = (int32_t)(h + (int64_t)h * k / 4);
        dgi_rng_seed(&L->rng, L->seed, STREAM_LAYOUT);
        memset(L->fails, 0, (size_t)L->g->node_count * sizeof L->fails[0]);
        memset(L->crowded, 0, (size_t)L->g->node_count * sizeof L->crowded[0]);
        fit = lays_out(L, layout_imin(attempts, LARGER_ATTEMPTS), &tried);
    }
    int32_t fw = L->w, fh = L->h;
    const char *plural = attempts == 1 ? "" : "s";
    L->w = w, L->h = h;
    if (fit)
        return dgi_fail(diag, DG_E_NOSPACE, "node %s: no place found in %d layout%s of %dx%d (the "
                        "grid is too tight; this seed lays out on %dx%d)",
                        L->g->nodes[worst].name, (int)attempts, plural, (int)w, (int)h, (int)fw,
                        (int)fh);
    return dgi_fail(diag, DG_E_NOSPACE, "node %s: no place found in %d layout%s of %dx%d, nor on "
                    "%dx%d (the search gives up: longer corridors or larger rooms next to it, "
                    "or a larger max_attempts, may help; docs/graph.md, Limits)",
                    L->g->nodes[worst].name, (int)attempts, plural, (int)w, (int)h, (int)fw, (int)fh);
}

/* Clears the layout state up to the graph's node and edge counts (every
 * reader stays below them): clearing all of it, about 36 KB, cost a small
 * graph a tenth of its layout (callgrind). */
static void layout_clear(dgi_layout *L, const dg_graph *g)
{
    size_t n = (size_t)g->node_count, e = (size_t)g->edge_count;
#define CLEAR(field, count) memset(L->field, 0, (count) * sizeof L->field[0])
    CLEAR(room, n), CLEAR(placed, n), CLEAR(order, n), CLEAR(parent_edge, n);
    CLEAR(corr, e), CLEAR(has_corr, e), CLEAR(door, e);
    CLEAR(fails, n), CLEAR(crowded, n), CLEAR(on_cycle, n), CLEAR(rank, n), CLEAR(adj, n), CLEAR(deg, n);
    CLEAR(tpl_first, n), CLEAR(tpl_count, n), CLEAR(tpl, n), CLEAR(tpl_orient, n), CLEAR(tdoors, n);
#undef CLEAR
    L->extras = 0, L->look_near = 0, L->thorough = 0, L->work = 0;
    L->tpl_list = NULL, L->tdoor = NULL, L->tdoor_cache = NULL;
    L->tpl_row = L->tdoor_found = NULL;
    L->bshift = L->bcols = L->brows = 0;
    L->rooms_placed = 0;
    memset(L->corr_placed, 0, sizeof L->corr_placed);
}

static void copy_out(const dg_grid *from, dg_grid *to)
{
    for (int32_t y = 0; y < to->height; y++)
        memcpy(&DG_CELL(to, 0, y), &DG_CELL(from, 0, y), (size_t)to->width);
}

dg_status dgi_graph_generate_within(dg_grid *grid, const dg_graph *graph, uint64_t seed,
                                    dg_result *result, const dg_allocator *allocator,
                                    int64_t work_max, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st == DG_OK)
        st = dg_graph_check(graph, diag);
    if (st != DG_OK)
        return st;
    size_t cells = (size_t)grid->width * (size_t)grid->height;
    dgi_layout *L = dgi_alloc(allocator, sizeof *L);
    uint8_t *tiles = dgi_calloc(allocator, cells, 1);
    size_t bucket_bytes = graph->node_count >= INDEX_MIN_ROOMS
                              ? sizeof(dgi_bucket) * DGI_BUCKET_SIDE * DGI_BUCKET_SIDE
                              : 0;
    dgi_bucket *bucket = bucket_bytes ? dgi_alloc(allocator, bucket_bytes) : NULL;
    int32_t *list = NULL;
    size_t list_bytes = 0;
    st = L && tiles && (bucket || !bucket_bytes) ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        layout_clear(L, graph);
        L->g = graph;
        L->work_max = work_max;
        L->w = grid->width, L->h = grid->height;
        L->d = graph->room_distance, L->cw = graph->corridor_width;
        L->seed = seed;
        L->bucket = bucket;
        dgi_rng_seed(&L->rng, seed, STREAM_LAYOUT);
        graph_setup(L);
        place_order(L, dgi_graph_start_node(graph), 0);
        st = template_setup(L, allocator, &list, &list_bytes, diag);
    }
    if (st == DG_OK)
        st = size_check(L, diag);
    if (st == DG_OK)
        st = search(L, diag);
    if (st == DG_OK)
    {
        add_extras(L);
        centre(L);
    }
    dg_grid scratch = {tiles, grid->width, grid->height, grid->width};
    if (st == DG_OK && !dgi_layout_on_grid(L, &scratch))
        st = dgi_fail(diag, DG_E_NOSPACE, "the layout found leaves the %dx%d grid: a defect of "
                      "the search, please report the graph and seed", (int)grid->width,
                      (int)grid->height);
    if (st == DG_OK)
        st = dgi_layout_draw(L, &scratch, allocator);
    if (st == DG_OK && result)
        st = dgi_layout_result(L, result, &scratch, allocator);
    if (st == DG_OK)
    {
        copy_out(&scratch, grid);
        dgi_diag_ok(diag);
    }
    dgi_free(allocator, list, list_bytes);
    dgi_free(allocator, tiles, cells);
    dgi_free(allocator, bucket, bucket_bytes);
    dgi_free(allocator, L, sizeof *L);
    return st;
}

dg_status dg_graph_generate(dg_grid *grid, const dg_graph *graph, uint64_t seed,
                            dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    return dgi_graph_generate_within(grid, graph, seed, result, allocator, DGI_GRAPH_WORK, diag);
}
