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
 * toward it (dgi_layout_nudge_place), then takes a room in its way off
 * with the rooms placed from it and places them again after it
 * (dgi_layout_evict_place). A room none of whose drawn candidates fits is
 * scanned for: every side of each room it is tied to, at places spread
 * over the range, the smallest room at each.
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
 * (layout_result.c).
 * This file holds the call, the order and the attempts; a room's place
 * (layout_place.c), its candidates (layout_room.c), corridors
 * (layout_route.c), the footprints (layout_space.c) and the moves after a
 * failure (layout_repair.c) have files of their own (layout_state.h, "the
 * search"). */
#include "graph/layout_state.h"

#define LARGER_ATTEMPTS 8    /* the same on each larger grid the message may name */
#define FAST_ATTEMPTS 64     /* attempts before the thorough ones (L->thorough) */
#define BACKJUMPS 32         /* steps back within one attempt */
#define NUDGE_STEPS 2        /* failures since the search last got further that still move neighbours */
#define PATH_BUDGET 16       /* rooms moved in paths per room of the graph, in one attempt */
#define RECENTRE_MIN 2       /* cells off the middle that make a stuck layout move */
#define EXTRA_REACH 4        /* longest extra corridor (extra_connections) */
#define STREAM_LAYOUT 0x67726C61ULL /* "grla" */
/* Graphs of this many rooms or more index their footprints (layout_space.c):
 * about where the index starts to pay (callgrind). */
#define INDEX_MIN_ROOMS 20

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

/* The edges at each node (adj, deg), its neighbours as bits (neighbours)
 * and the nodes on a cycle (on_cycle). */
static void graph_setup(dgi_layout *L)
{
    const dg_graph *g = L->g;
    for (int32_t e = 0; e < g->edge_count; e++) /* dg_graph_check bounds the degrees */
    {
        int32_t a = g->edges[e].a, b = g->edges[e].b;
        L->adj[a][L->deg[a]++] = e;
        L->adj[b][L->deg[b]++] = e;
        L->neighbours[a] |= 1ULL << b;
        L->neighbours[b] |= 1ULL << a;
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

/* ---- moving the placed rooms --------------------------------------------- */

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
            layout_extend(&all, dgi_box_grow(L->room[n], 1));
    for (int32_t e = 0; e < g->edge_count; e++)
        for (int32_t i = 0; L->has_corr[e] && i < L->corr[e].legs; i++)
            layout_extend(&all, dgi_box_grow(L->corr[e].leg[i], 1));
    *dx = (L->w - (all.x1 - all.x0 + 1)) / 2 - all.x0;
    *dy = (L->h - (all.y1 - all.y0 + 1)) / 2 - all.y0;
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
    dgi_layout_bucket_reset(L);
    for (int32_t n = 0; n < g->node_count; n++)
        if (L->placed[n])
            shift_box(&L->room[n], dx, dy), dgi_layout_room_set(L, n, 1);
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        if (L->placed[g->edges[e].a] && L->placed[g->edges[e].b])
            shift_box(&L->door[e], dx, dy);
        if (L->has_corr[e])
        {
            dgi_route r = L->corr[e];
            shift_route(&r, dx, dy);
            L->has_corr[e] = 0;
            dgi_layout_corr_set(L, e, &r);
        }
    }
    return 1;
}

/* ---- attempts ------------------------------------------------------------ */

static int place_root(dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    int32_t w, h;
    if (layout_is_template(L, n))
    {
        if (!dgi_layout_template_pick(L, n))
            return 0;
        dgi_template_size(L->g->prefabs, L->tpl[n], L->tpl_orient[n], &w, &h);
        w -= 2, h -= 2;
    }
    else
    {
        w = layout_draw(L, dgi_layout_room_min(L, n, node->width_min, node->width_max), node->width_max);
        h = layout_draw(L, dgi_layout_room_min(L, n, node->height_min, node->height_max),
                        node->height_max);
    }
    int32_t x0 = (L->w - w) / 2 + layout_draw(L, -L->w / 8, L->w / 8);
    int32_t y0 = (L->h - h) / 2 + layout_draw(L, -L->h / 8, L->h / 8);
    dgi_box q = {x0, y0, x0 + w - 1, y0 + h - 1};
    if (!layout_inside(L, q))
        return 0;
    L->room[n] = q;
    dgi_layout_room_set(L, n, 1);
    return 1;
}

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
    dgi_layout_bucket_reset(L);
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
        if (dgi_layout_room_place(L, n) ||
            (streak < NUDGE_STEPS &&
             (dgi_layout_nudge_place(L, n, &path_budget) || dgi_layout_evict_place(L, n))))
            continue;
        if (++jumps > BACKJUMPS)
            return n;
        L->fails[n]++;
        int32_t parent = layout_other_end(&L->g->edges[L->parent_edge[n]], n);
        L->crowded[parent] += dgi_layout_waits_for_only(L, n, parent);
        if (recentre(L))
        {
            i--;
            continue;
        }
        int32_t back = layout_imax(1, layout_imin(i - 1, L->rank[parent] - (streak ? 1 << layout_imin(streak, 4) : 0)));
        streak++;
        while (i > back)
            dgi_layout_room_remove(L, L->order[--i]);
        i--;
    }
    return -1;
}

/* ---- extra connections and centring -------------------------------------- */

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
        if (at >= lo && at <= hi && dgi_layout_route_straight(L, a, b, side, at, r) &&
            r->length <= EXTRA_REACH && dgi_layout_route_fits(L, r, -1))
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
 * least one cell along) lie in no room's footprint (dgi_layout_route_fits)
 * and in no other corridor's, and every interior and corridor cell lies
 * inside the border, so every box and corridor lies in [1, w - 1] x [1, h - 1]. So a
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
    CLEAR(fails, n), CLEAR(crowded, n), CLEAR(on_cycle, n), CLEAR(rank, n);
    CLEAR(adj, n), CLEAR(deg, n), CLEAR(neighbours, n);
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
