/* The corridors of scattered rooms (scatter_state.h): between two rooms a
 * straight, L-shaped or three-legged route from a door on each, drawn and
 * checked so it never enters or runs along another room, then carved with
 * its corridor records and doors. */
#include "gen/scatter_state.h"

#include <stdlib.h>

/* ---- corridors ------------------------------------------------------------------------ */

enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

/* Door cell at offset t along side `side` of r, and the cell outside it. */
static void door_site(dg_rect r, int side, int32_t t, dg_point *door, dg_point *out)
{
    switch (side)
    {
    case SIDE_N: door->x = r.x + t, door->y = r.y - 1; break;
    case SIDE_S: door->x = r.x + t, door->y = r.y + r.h; break;
    case SIDE_W: door->x = r.x - 1, door->y = r.y + t; break;
    default: door->x = r.x + r.w, door->y = r.y + t; break;
    }
    out->x = door->x + DX[side];
    out->y = door->y + DY[side];
}

static int in_area(const scatter_ctx *s, dg_point q)
{
    return q.x >= s->x0 && q.y >= s->y0 && q.x <= s->x1 && q.y <= s->y1;
}

static int walkable(uint8_t t)
{
    return t == DG_TILE_VOID || t == DG_TILE_CORRIDOR;
}

/* A door may go at `door` (a wall cell, or a door already) when the cell
 * outside is free and no door stands beside it on the same wall. */
static int site_ok(const scatter_ctx *s, int side, dg_point door, dg_point out)
{
    if (!in_area(s, out) || !walkable(*dgi_scatter_at(s, out.x, out.y)))
        return 0;
    uint8_t t = *dgi_scatter_at(s, door.x, door.y);
    if (t == DG_TILE_DOOR)
        return 1;
    if (t != DG_TILE_WALL ||
        *dgi_scatter_at(s, door.x - DX[side], door.y - DY[side]) != DG_TILE_FLOOR)
        return 0; /* (a shaped room's floor may not reach its rect's side there) */
    int along = (side + 1) & 3; /* the wall's direction */
    for (int k = -1; k <= 1; k += 2)
    {
        int32_t x = door.x + k * DX[along], y = door.y + k * DY[along];
        if (x >= 0 && y >= 0 && x < s->w && y < s->h && *dgi_scatter_at(s, x, y) == DG_TILE_DOOR)
            return 0; /* (a flank off the grid is the edge: no door there) */
    }
    return 1;
}

/* 1 if every cell of the legs is in the corridor area on rock or corridor. */
static int path_ok(const scatter_ctx *s, const scatter_route *r)
{
    for (int l = 0; l + 1 < r->npt; l++)
    {
        dg_point a = r->pt[l], b = r->pt[l + 1];
        int32_t sx = (b.x > a.x) - (b.x < a.x), sy = (b.y > a.y) - (b.y < a.y);
        for (dg_point q = a;; q.x += sx, q.y += sy)
        {
            if (!in_area(s, q) || !walkable(*dgi_scatter_at(s, q.x, q.y)))
                return 0;
            if (q.x == b.x && q.y == b.y)
                break;
        }
    }
    return 1;
}

static int32_t draw_in(dg_rng *rng, int32_t lo, int32_t hi)
{
    return lo + (int32_t)dgi_rng_below(rng, (uint32_t)(hi - lo + 1));
}

/* Sides of a that face b: horizontal (E or W) and vertical (N or S), by centres. */
static int side_h(dg_rect a, dg_rect b) { return 2 * b.x + b.w >= 2 * a.x + a.w ? SIDE_E : SIDE_W; }
static int side_v(dg_rect a, dg_rect b) { return 2 * b.y + b.h >= 2 * a.y + a.h ? SIDE_S : SIDE_N; }
static int opposite(int side) { return (side + 2) & 3; }
static int32_t span_of(dg_rect r, int side) { return side == SIDE_N || side == SIDE_S ? r.w : r.h; }

/* Fills r for doors on side sa of a and sb of b (offsets ta, tb) joined by
 * `shape`: 0 = one L, bending where out_a's line meets out_b's; for a
 * straight or three-legged route, mid is the column (or row) of the middle leg. */
static int make_route(const scatter_ctx *s, dg_rect a, int sa, int32_t ta, dg_rect b, int sb, int32_t tb,
                      int three, int32_t mid, scatter_route *r)
{
    dg_point oa, ob;
    door_site(a, sa, ta, &r->door_a, &oa);
    door_site(b, sb, tb, &r->door_b, &ob);
    if (!site_ok(s, sa, r->door_a, oa) || !site_ok(s, sb, r->door_b, ob))
        return 0;
    r->pt[0] = oa;
    int horizontal_a = sa == SIDE_E || sa == SIDE_W;
    if (!three)
    {
        dg_point bend = horizontal_a ? (dg_point){ob.x, oa.y} : (dg_point){oa.x, ob.y};
        r->pt[1] = bend;
        r->pt[2] = ob;
        r->npt = 3;
    }
    else if (horizontal_a)
    {
        r->pt[1] = (dg_point){mid, oa.y};
        r->pt[2] = (dg_point){mid, ob.y};
        r->pt[3] = ob;
        r->npt = 4;
    }
    else
    {
        r->pt[1] = (dg_point){oa.x, mid};
        r->pt[2] = (dg_point){ob.x, mid};
        r->pt[3] = ob;
        r->npt = 4;
    }
    return path_ok(s, r);
}

/* Tries the shapes between rooms ia and ib, `draws` door positions each:
 * straight (facing sides that overlap), the two L's, then three legs through
 * the rock between the rooms. Returns 1 with r filled if one fits. */
int dgi_scatter_find_route(scatter_ctx *s, int32_t ia, int32_t ib, int draws, dg_rng *rng,
                           scatter_route *r)
{
    dg_rect a = s->rooms[ia].rect, b = s->rooms[ib].rect;
    int h = side_h(a, b), v = side_v(a, b);
    int apart_x = h == SIDE_E ? b.x - 1 > a.x + a.w : a.x - 1 > b.x + b.w;
    int apart_y = v == SIDE_S ? b.y - 1 > a.y + a.h : a.y - 1 > b.y + b.h;
    /* straight: a shared row (or column) of both interiors */
    int32_t lo_y = DG_MAX(a.y, b.y), hi_y = DG_MIN(a.y + a.h, b.y + b.h) - 1;
    int32_t lo_x = DG_MAX(a.x, b.x), hi_x = DG_MIN(a.x + a.w, b.x + b.w) - 1;
    for (int k = 0; k < draws && apart_x && lo_y <= hi_y; k++)
    {
        int32_t y = draw_in(rng, lo_y, hi_y);
        if (make_route(s, a, h, y - a.y, b, opposite(h), y - b.y, 0, 0, r))
            return 1;
    }
    for (int k = 0; k < draws && apart_y && lo_x <= hi_x; k++)
    {
        int32_t x = draw_in(rng, lo_x, hi_x);
        if (make_route(s, a, v, x - a.x, b, opposite(v), x - b.x, 0, 0, r))
            return 1;
    }
    /* L: leave a sideways and enter b from above or below, or the other way */
    for (int turn = 0; turn < 2; turn++)
    {
        int sa = turn ? v : h, sb = turn ? opposite(h) : opposite(v);
        for (int k = 0; k < draws; k++)
        {
            int32_t ta = draw_in(rng, 0, span_of(a, sa) - 1), tb = draw_in(rng, 0, span_of(b, sb) - 1);
            if (make_route(s, a, sa, ta, b, sb, tb, 0, 0, r))
                return 1;
        }
    }
    /* three legs, the middle one in the rock between the two walls */
    for (int axis = 0; axis < 2; axis++)
    {
        int sa = axis ? v : h;
        if (!(axis ? apart_y : apart_x))
            continue;
        int32_t lo = axis ? (sa == SIDE_S ? a.y + a.h + 1 : b.y + b.h + 1)
                          : (sa == SIDE_E ? a.x + a.w + 1 : b.x + b.w + 1);
        int32_t hi = axis ? (sa == SIDE_S ? b.y - 2 : a.y - 2) : (sa == SIDE_E ? b.x - 2 : a.x - 2);
        for (int k = 0; k < draws && lo <= hi; k++)
        {
            int32_t ta = draw_in(rng, 0, span_of(a, sa) - 1), tb = draw_in(rng, 0, span_of(b, sa) - 1);
            if (make_route(s, a, sa, ta, b, opposite(sa), tb, 1, draw_in(rng, lo, hi), r))
                return 1;
        }
    }
    return 0;
}

static int32_t leg_cells(dg_point a, dg_point b)
{
    return abs(b.x - a.x) + abs(b.y - a.y);
}

static void carve_leg(scatter_ctx *s, dg_point a, dg_point b)
{
    int32_t sx = (b.x > a.x) - (b.x < a.x), sy = (b.y > a.y) - (b.y < a.y);
    for (dg_point q = a;; q.x += sx, q.y += sy)
    {
        *dgi_scatter_at(s, q.x, q.y) = DG_TILE_CORRIDOR;
        if (q.x == b.x && q.y == b.y)
            break;
    }
}

static void add_door(scatter_ctx *s, dg_point pos, int32_t room, int32_t cor)
{
    uint8_t *c = dgi_scatter_at(s, pos.x, pos.y);
    if (*c == DG_TILE_DOOR)
        return;
    *c = DG_TILE_DOOR;
    dg_door d = {pos, {DG_REF_ROOM, room}, {DG_REF_CORRIDOR, cor}};
    s->doors[s->nd++] = d;
}

static dg_corridor corridor(dg_point start, dg_point bend, dg_point end, int32_t fk, int32_t from,
                            int32_t tk, int32_t to)
{
    dg_corridor c;
    c.start = start;
    c.bend = bend;
    c.end = end;
    c.length = leg_cells(start, bend) + leg_cells(bend, end) + 1;
    c.from.kind = fk;
    c.from.index = from;
    c.to.kind = tk;
    c.to.index = to;
    return c;
}

/* Carves route r from room ia to room ib: corridor cells, two doors and one
 * corridor record (two for three legs: the second starts beside the first's end). */
dg_status dgi_scatter_carve_route(scatter_ctx *s, int32_t ia, int32_t ib, const scatter_route *r)
{
    SCATTER_GROW(s, cors, cor_cap, s->nc + 2);
    SCATTER_GROW(s, doors, door_cap, s->nd + 2);
    for (int l = 0; l + 1 < r->npt; l++)
        carve_leg(s, r->pt[l], r->pt[l + 1]);
    int32_t first = s->nc;
    const dg_point *p = r->pt;
    if (r->npt == 3 || (p[2].x == p[3].x && p[2].y == p[3].y))
        s->cors[s->nc++] = corridor(p[0], p[1], p[2 + (r->npt == 4)], DG_REF_ROOM, ia, DG_REF_ROOM, ib);
    else
    {
        int32_t sx = (p[3].x > p[2].x) - (p[3].x < p[2].x), sy = (p[3].y > p[2].y) - (p[3].y < p[2].y);
        dg_point next = {p[2].x + sx, p[2].y + sy};
        s->cors[s->nc++] = corridor(p[0], p[1], p[2], DG_REF_ROOM, ia, DG_REF_CORRIDOR, first + 1);
        s->cors[s->nc++] = corridor(next, p[3], p[3], DG_REF_CORRIDOR, first, DG_REF_ROOM, ib);
    }
    add_door(s, r->door_a, ia, first);
    add_door(s, r->door_b, ib, s->nc - 1);
    return DG_OK;
}
