/* Level-graph check: a door cluster placed on its own. A cluster is a
 * rectangle room with its door neighbours, or two rooms joined by a door
 * with theirs. Every placement of it that the layout's rules allow is
 * searched, room by room, each against the room it shares a wall with;
 * the rest of the graph, the corridors and the grid are left out, so a
 * cluster with no placement proves the graph has no layout, and one with
 * a placement proves nothing. */
#include "graph/graph.h"

#define CLUSTER_MEMBERS (2 + 2 * DG_GRAPH_DEGREE_MAX)

typedef struct cluster {
    const dg_graph *g;
    int32_t count, node[CLUSTER_MEMBERS];
    int32_t centres;                 /* 1: a star (member 0 and its leaves), 2: a pair */
    int north_only;                  /* every range square: member 1 tried north of member 0 only */
    int32_t parent[CLUSTER_MEMBERS]; /* member it is placed against (-1: the first) */
    int32_t twin[CLUSTER_MEMBERS];   /* the member before it that it may swap places with, or -1 */
    int8_t kind[CLUSTER_MEMBERS][CLUSTER_MEMBERS]; /* DG_EDGE_* joining two members, or -1 */
    int32_t doors[CLUSTER_MEMBERS];  /* door edges to other members */
    dgi_box at[CLUSTER_MEMBERS];
    int32_t pick[CLUSTER_MEMBERS];   /* the side and place a member was drawn at, in order */
    int64_t work;
} cluster;


/* 1 if q stands as the layout lets it against member j placed at p: a door
 * neighbour shares a wall and overlaps it, a corridor neighbour's walls
 * stay clear of its walls, any other room keeps room_distance of rock. */
static int stands(const cluster *c, int32_t kind, dgi_box q, dgi_box p)
{
    if (kind == DG_EDGE_DOOR)
    {
        int across_x = q.x0 <= p.x1 && p.x0 <= q.x1, across_y = q.y0 <= p.y1 && p.y0 <= q.y1;
        int shares = (across_x && (q.y1 == p.y0 - 2 || q.y0 == p.y1 + 2)) ||
                     (across_y && (q.x1 == p.x0 - 2 || q.x0 == p.x1 + 2));
        return shares && !dgi_box_meets(q, dgi_box_grow(p, 1));
    }
    if (kind == DG_EDGE_CORRIDOR)
        return !dgi_box_meets(dgi_box_grow(q, 1), dgi_box_grow(p, 1));
    return !dgi_box_meets(dgi_box_grow(q, 1 + c->g->room_distance), dgi_box_grow(p, 1));
}

static int fits(const cluster *c, int32_t i)
{
    for (int32_t j = 0; j < i; j++)
        if (!stands(c, c->kind[i][j], c->at[i], c->at[j]))
            return 0;
    return 1;
}

/* Member i at size w x h on `side` (0 N, 1 E, 2 S, 3 W) of its parent p,
 * starting `s` along that side. */
static dgi_box beside(dgi_box p, int side, int32_t s, int32_t w, int32_t h)
{
    switch (side)
    {
    case 0: return (dgi_box){s, p.y0 - 1 - h, s + w - 1, p.y0 - 2};
    case 1: return (dgi_box){p.x1 + 2, s, p.x1 + 1 + w, s + h - 1};
    case 2: return (dgi_box){s, p.y1 + 2, s + w - 1, p.y1 + 1 + h};
    default: return (dgi_box){p.x0 - 1 - w, s, p.x0 - 2, s + h - 1};
    }
}

static int place_from(cluster *c, int32_t i, int64_t work_max);

/* Member i at size w x h, every place against its parent; 1 if the rest
 * then fits, 0 if no place does, -1 past work_max. */
static int place_sized(cluster *c, int32_t i, int32_t w, int32_t h, int64_t work_max)
{
    if (c->parent[i] < 0)
    {
        c->at[i] = (dgi_box){0, 0, w - 1, h - 1};
        return place_from(c, i + 1, work_max);
    }
    dgi_box p = c->at[c->parent[i]];
    for (int side = 0; side < (i == 1 && c->north_only ? 1 : 4); side++) /* the rest are turns of it */
    {
        int32_t along = side & 1 ? h : w, p0 = side & 1 ? p.y0 : p.x0, p1 = side & 1 ? p.y1 : p.x1;
        for (int32_t s = p0 - along + 1; s <= p1; s++)
        {
            if (++c->work > work_max)
                return -1;
            c->pick[i] = side * 65536 + (s - p0 + along);
            if (c->twin[i] >= 0 && c->pick[i] <= c->pick[c->twin[i]]) /* the twins' other order was tried */
                continue;
            c->at[i] = beside(p, side, s, w, h);
            if (!fits(c, i))
                continue;
            int r = place_from(c, i + 1, work_max);
            if (r)
                return r;
        }
    }
    return 0;
}

/* Members i.. placed: a leaf at its smallest (a smaller room only keeps
 * clearer of the others), the room of a star at its largest (a cut through
 * it, with everything past the cut moved a cell on, widens it and keeps
 * every leaf in place: so a larger room fits whatever a smaller one does),
 * the two rooms of a pair at every size, largest first. */
static int place_from(cluster *c, int32_t i, int64_t work_max)
{
    if (i == c->count)
        return 1;
    if (++c->work > work_max)
        return -1;
    const dg_graph_node *n = &c->g->nodes[c->node[i]];
    int32_t wlo = n->width_min, hlo = n->height_min, whi = n->width_max, hhi = n->height_max;
    if (i >= c->centres)
        whi = wlo, hhi = hlo;
    else if (c->centres == 1)
        wlo = whi, hlo = hhi;
    for (int32_t w = whi; w >= wlo; w--)
        for (int32_t h = hhi; h >= hlo; h--)
        {
            int r = place_sized(c, i, w, h, work_max);
            if (r)
                return r;
        }
    return 0;
}

static void member_add(cluster *c, int32_t n, int32_t parent)
{
    for (int32_t i = 0; i < c->count; i++)
        if (c->node[i] == n)
            return;
    c->parent[c->count] = parent;
    c->node[c->count++] = n;
}

/* 1 if members i and j (j after i, same parent, one door each in the
 * cluster) may swap places: same smallest size, same ties to every other. */
static int twins(const cluster *c, int32_t i, int32_t j)
{
    const dg_graph_node *a = &c->g->nodes[c->node[i]], *b = &c->g->nodes[c->node[j]];
    if (c->parent[i] != c->parent[j] || c->doors[i] != 1 || c->doors[j] != 1 || c->kind[i][j] >= 0 ||
        a->width_min != b->width_min || a->height_min != b->height_min)
        return 0;
    for (int32_t k = 0; k < c->count; k++)
        if (k != i && k != j && c->kind[i][k] != c->kind[j][k])
            return 0;
    return 1;
}

/* The members in the order they are placed: a, then b, each leaf after
 * the room it shares a wall with (its parent). 0 if a member past the
 * centres has another door in the cluster (not a star or a pair of them). */
static int cluster_make(cluster *c, const uint64_t *doors, const uint64_t *joined, int32_t a, int32_t b)
{
    member_add(c, a, -1);
    if (b >= 0)
        member_add(c, b, 0);
    c->centres = c->count;
    for (int32_t k = 0; k < c->centres; k++)
        for (uint64_t rest = doors[c->node[k]]; rest; rest &= rest - 1)
            member_add(c, dgi_lowest_bit64(rest), k);
    c->north_only = 1;
    for (int32_t i = 0; i < c->count; i++)
    {
        const dg_graph_node *n = &c->g->nodes[c->node[i]];
        c->doors[i] = 0;
        for (int32_t j = 0; j < c->count; j++)
        {
            int32_t m = c->node[j];
            c->kind[i][j] = (int8_t)(doors[c->node[i]] >> m & 1 ? DG_EDGE_DOOR
                                     : joined[c->node[i]] >> m & 1 ? DG_EDGE_CORRIDOR : -1);
            c->doors[i] += c->kind[i][j] == DG_EDGE_DOOR;
        }
        if ((i >= c->centres && c->doors[i] != 1) || n->templates[0])
            return 0;
        c->north_only &= n->width_min == n->height_min && n->width_max == n->height_max;
    }
    for (int32_t i = 0; i < c->count; i++)
        c->twin[i] = i > 0 && twins(c, i - 1, i) ? i - 1 : -1;
    return 1;
}

int dgi_door_cluster_fits(const dg_graph *g, const uint64_t *doors, const uint64_t *joined, int32_t a, int32_t b,
                          int64_t *work)
{
    cluster c = {.g = g};
    if (!cluster_make(&c, doors, joined, a, b))
        return 1; /* door triangles and template door cells are not modelled: nothing proved */
    int r = place_from(&c, 0, *work);
    *work -= c.work;
    return r;
}
