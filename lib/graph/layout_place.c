/* Level-graph layout: choosing a room's place among its candidates: pulled
 * toward the rooms its cycles must meet, and taken last when it leaves a
 * neighbour that closes a cycle, or one waiting for a room alone, no place. */
#include "graph/layout_state.h"

#define ROOM_DRAWS 48        /* candidate rectangles drawn per room */
#define ROOM_KEEP 4          /* valid candidates compared by their pull */
#define LOOK_DRAWS 8         /* draws that test a closing neighbour ahead */
#define DOOR_LOOK_DISTANCE 4 /* room_distance from which door neighbours are looked ahead for */
#define PULL_HOPS 6          /* cycles longer than this are not pulled shut */

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
            fits = dgi_layout_room_try(L, c, k % LAYOUT_TIE_MODES, &q, tied, tied_edge, &ntied);
            if (fits)
                dgi_layout_take_back(L, c, tied_edge, ntied);
        }
        if (!fits && rigid && dgi_layout_room_scan(L, c))
            dgi_layout_room_remove(L, c), fits = 1;
        if (!fits)
            return 0;
    }
    return 1;
}

/* 1 if placed neighbour m is all of c's placed neighbours. */
int dgi_layout_waits_for_only(const dgi_layout *L, int32_t c, int32_t m)
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
        if (dgi_layout_room_try(L, c, k % LAYOUT_TIE_MODES, &q, tied, tied_edge, &ntied))
            return 1;
    }
    return scan && dgi_layout_room_scan(L, c);
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
        if (L->placed[c] || !dgi_layout_waits_for_only(L, c, m))
            continue;
        ok = place_quick(L, c, nkept == 0);
        if (ok && L->thorough)
            kept[nkept++] = c;
        else if (ok)
            dgi_layout_room_remove(L, c);
    }
    while (nkept)
        dgi_layout_room_remove(L, kept[--nkept]);
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
                layout_extend(&near, L->corr[L->adj[n][k]].leg[i]);
    near = dgi_box_grow(near, 2 + L->d);
    for (uint64_t placed = dgi_layout_rooms_near(L, near); placed; placed &= placed - 1)
    {
        int32_t m = dgi_lowest_bit64(placed);
        if (m == n || !dgi_box_meets(near, dgi_box_grow(L->room[m], 1)))
            continue;
        if (!waiting_fit(L, m))
            return 0;
    }
    return 1;
}

/* Places node n: the first fitting candidate after which the cycles it
 * leads into can still close; while n has a cycle to close further on, the
 * one of ROOM_KEEP such candidates nearest the rooms it must meet. */
int dgi_layout_room_place(dgi_layout *L, int32_t n)
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
        if (!dgi_layout_room_try(L, n, k % LAYOUT_TIE_MODES, &q, tied, tied_edge, &ntied))
            continue;
        /* a candidate that blocks a closing neighbour scores last */
        int fine = closers_fit(L, n) && (!L->look_near || others_keep_room(L, n));
        int32_t s = pull_score(L, q, who, hops, targets) + (fine ? 0 : INT32_MAX / 2);
        dgi_layout_take_back(L, n, tied_edge, ntied);
        if (best < 0 || s < best)
            best = s, best_rng = before, best_mode = k % LAYOUT_TIE_MODES;
        kept += s < INT32_MAX / 2;
    }
    if (best < 0)
        return dgi_layout_room_scan(L, n);
    /* replay the best candidate's draws */
    dg_rng after = L->rng;
    L->rng = best_rng;
    dgi_box q;
    dgi_route tied[DG_GRAPH_DEGREE_MAX];
    int32_t tied_edge[DG_GRAPH_DEGREE_MAX], ntied;
    int ok = dgi_layout_room_try(L, n, best_mode, &q, tied, tied_edge, &ntied);
    L->rng = after;
    return ok;
}
