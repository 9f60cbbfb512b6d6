/* Level-graph layout: one room. Its ties to its placed neighbours become
 * intervals for its sides; a candidate is drawn within them (or scanned
 * for), checked against everything placed and marked with its corridors. */
#include "graph/layout_state.h"

#define CORNER_DRAWS 3       /* one draw in this many, after the first attempt, at a corner */
#define FREE_SIDES 3         /* ties whose sides a thorough draw picks (4^FREE_SIDES ways) */
#define SCAN_TIES 2          /* ties whose every side a scan tries (4^SCAN_TIES ways) */
#define SCAN_STEPS 24        /* places a scan checks per way */
#define SCAN_STEPS_FAR 96    /* the same from room_distance 3 on, where free places are rarer */

/* How room n must sit against placed neighbour m: on `side` of it (0 N, 1 E,
 * 2 S, 3 W of m) with gap0..gap1 cells between the walls (0: a shared wall),
 * overlapping m's span by `overlap` cells. */
typedef struct tie { int32_t m, e, side, gap0, gap1, overlap, at; } tie;

#define SIDE_LOOSE 4 /* a tie that only keeps n within reach of m */
#define AT_NONE INT32_MIN /* a tie whose door or corridor place is drawn later */

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
        int32_t c = dgi_layout_door_coord(L, n, k);
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
    if (!dgi_layout_template_pick(L, n))
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
        int32_t k = dgi_layout_free_door(L, n, 1 << ((a->side + 2) & 3), -1);
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
int32_t dgi_layout_room_min(const dgi_layout *L, int32_t n, int32_t smin, int32_t smax)
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
    int32_t wmin = dgi_layout_room_min(L, n, node->width_min, node->width_max);
    int32_t hmin = dgi_layout_room_min(L, n, node->height_min, node->height_max);
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

/* 1 if n's footprint meets no corridor and no room but its door
 * neighbours' walls, and no room but its placed neighbours lies within
 * room_distance of it. */
static int room_fits(dgi_layout *L, int32_t n, dgi_box q, const tie *t, int32_t ties)
{
    L->work++;
    uint64_t wall = 0, near = L->neighbours[n];
    for (int32_t i = 0; i < ties; i++)
        if (t[i].gap1 == 0)
            wall |= 1ULL << t[i].m;
    dgi_box walls = dgi_box_grow(q, 1), reach = dgi_box_grow(q, 1 + L->d);
    for (uint64_t placed = dgi_layout_rooms_near(L, reach); placed; placed &= placed - 1)
    {
        int32_t m = dgi_lowest_bit64(placed);
        dgi_box f = dgi_box_grow(L->room[m], 1);
        if (dgi_box_meets(wall >> m & 1 ? q : walls, f) || (!(near >> m & 1) && dgi_box_meets(reach, f)))
            return 0;
    }
    return !dgi_layout_corridors_meet(L, walls, -1);
}

/* The straight corridor of a tie with a gap, between n (at q) and t->m. */
static int tie_route(dgi_layout *L, int32_t n, const tie *t, dgi_route *r)
{
    dgi_box m = L->room[t->m], q = L->room[n];
    int vertical = !(t->side & 1);
    int32_t lo = vertical ? layout_imax(m.x0, q.x0) : layout_imax(m.y0, q.y0);
    int32_t hi = (vertical ? layout_imin(m.x1, q.x1) : layout_imin(m.y1, q.y1)) - L->cw + 1;
    int32_t at = t->at != AT_NONE ? t->at : layout_draw(L, lo, hi);
    return dgi_layout_route_straight(L, t->m, n, t->side, at, r) && dgi_layout_route_fits(L, r, t->e);
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
        int closing = corridor && !parent && mode != LAYOUT_TIE_ALL;
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
        else if (corridor && parent && mode == LAYOUT_TIE_LOOSE)
        {
            t[k].side = SIDE_LOOSE;
            t[k].gap1 = x->length_max / 2 + 2;
        }
        else if (layout_is_template(L, t[k].m)) /* n meets one of the template's free door cells */
        {
            int32_t d = dgi_layout_free_door(L, t[k].m, 15, e);
            if (d < 0)
                return -1;
            t[k].side = L->tdoor[t[k].m][d].side;
            t[k].at = dgi_layout_door_coord(L, t[k].m, d);
        }
        k++;
    }
    return k;
}

/* Takes node n off the map with the corridors it was given. */
void dgi_layout_room_remove(dgi_layout *L, int32_t n)
{
    for (int32_t k = 0; k < L->deg[n]; k++)
        dgi_layout_corr_clear(L, L->adj[n][k]);
    dgi_layout_room_set(L, n, 0);
}

void dgi_layout_take_back(dgi_layout *L, int32_t n, const int32_t *tied_edge, int32_t ntied)
{
    for (int32_t i = 0; i < ntied; i++)
        dgi_layout_corr_clear(L, tied_edge[i]);
    dgi_layout_room_set(L, n, 0);
}

/* Marks n at q (which fits) with the doors and corridors of its ties t and
 * routes its other corridor edges to placed rooms; on failure everything it
 * marked is undone. */
static int room_commit(dgi_layout *L, int32_t n, const dgi_box *q, const tie *t, int32_t ties,
                       dgi_route *tied, int32_t *tied_edge, int32_t *ntied)
{
    *ntied = 0;
    L->room[n] = *q;
    dgi_layout_room_set(L, n, 1);
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
            dgi_layout_corr_set(L, t[i].e, &r);
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
            ok = dgi_layout_route_close(L, e);
            if (ok)
            {
                tied[*ntied] = L->corr[e];
                tied_edge[(*ntied)++] = e;
            }
        }
    }
    if (ok)
        return 1;
    dgi_layout_take_back(L, n, tied_edge, *ntied);
    return 0;
}

/* Tries one candidate for n: draws, checks and marks it with its corridors;
 * on failure everything it marked is undone. */
int dgi_layout_room_try(dgi_layout *L, int32_t n, int mode, dgi_box *q, dgi_route *tied, int32_t *tied_edge,
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
int dgi_layout_room_scan(dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    tie t[DG_GRAPH_DEGREE_MAX];
    int32_t ties = collect_ties(L, n, LAYOUT_TIE_ALL, t);
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
