/* Level-graph layout: corridors. Straight, L-shaped and three-legged
 * routes between two placed rooms, and whether one fits among the rest. */
#include "graph/layout_state.h"

#define ROUTE_DRAWS 24       /* corridor routes drawn per closing edge */
#define ROUTE_WORK 8         /* a corridor's test counts as this many room tests (it costs about 10) */

/* 1 if r's legs lie inside the grid clear of every footprint and its walls
 * meet no room but a's and b's and no other corridor (room_distance is
 * between rooms). */
int dgi_layout_route_fits(dgi_layout *L, const dgi_route *r, int32_t e)
{
    L->work += ROUTE_WORK;
    for (int32_t i = 0; i < r->legs; i++)
    {
        dgi_box leg = r->leg[i], walls = dgi_box_grow(leg, 1);
        if (!layout_inside(L, leg) || dgi_layout_corridors_meet(L, walls, e))
            return 0;
        for (uint64_t near = dgi_layout_rooms_near(L, walls); near; near &= near - 1)
        {
            int32_t m = dgi_lowest_bit64(near);
            if (dgi_box_meets(m == r->a || m == r->b ? leg : walls, dgi_box_grow(L->room[m], 1)))
                return 0;
        }
    }
    return dgi_layout_at_door_cell(L, r->a, r->door[0]) && dgi_layout_at_door_cell(L, r->b, r->door[1]);
}

/* A straight corridor from p's side (0 N, 1 E, 2 S, 3 W) to q, which lies
 * beyond it; its cells start at `at` along the wall. */
int dgi_layout_route_straight(const dgi_layout *L, int32_t pn, int32_t qn, int side, int32_t at,
                              dgi_route *r)
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
                         ? dgi_layout_attach_coord(L, a, 1 << side, lo, hi, -1)
                         : dgi_layout_attach_coord(L, b, 1 << ((side + 2) & 3), lo, hi, -1);
        return dgi_layout_route_straight(L, a, b, side, at, r);
    }
    int flip = layout_draw(L, 0, 1);
    int32_t pn = flip ? b : a, qn = flip ? a : b;
    dgi_box pp = L->room[pn], qq = L->room[qn];
    /* one draw per statement: the order of a call's arguments is unspecified */
    int32_t y = dgi_layout_attach_coord(L, qn, 2 | 8, qq.y0, qq.y1 - cw + 1, -1);
    int32_t x = dgi_layout_attach_coord(L, pn, 1 | 4, pp.x0, pp.x1 - cw + 1, -1);
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
    int32_t xa = dgi_layout_attach_coord(L, a, sides, p.x0, p.x1 - cw + 1, -1);
    int32_t xb = dgi_layout_attach_coord(L, b, sides, q.x0, q.x1 - cw + 1, -1);
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
int dgi_layout_route_close(dgi_layout *L, int32_t e)
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
                r.length <= x->length_max && dgi_layout_route_fits(L, &r, e))
            {
                dgi_layout_corr_set(L, e, &r);
                return 1;
            }
    return 0;
}
