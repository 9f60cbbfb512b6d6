/* Level graphs as data: initialising, releasing, checking and hashing the
 * caller's nodes and edges (docs/graph-format.md). Laying one out is layout.c. */
#include "graph/graph.h"

void dg_graph_init(dg_graph *graph)
{
    if (!graph)
        return;
    memset(graph, 0, sizeof *graph);
    graph->room_distance = 1;
    graph->corridor_width = 1;
}

size_t dgi_graph_block_size(int32_t nodes, int32_t edges)
{
    return sizeof(dgi_graph_block) + (size_t)nodes * sizeof(dg_graph_node) +
           (size_t)edges * sizeof(dg_graph_edge);
}

void dg_graph_free(dg_graph *graph)
{
    if (!graph)
        return;
    if (graph->capacity_[0] > 0 && graph->nodes)
    {
        dg_allocator copy = graph->allocator_;
        const dg_allocator *a = copy.alloc ? &copy : NULL;
        dgi_graph_block *block = (dgi_graph_block *)(void *)graph->nodes - 1;
        dg_prefab_set_free(block->prefabs);
        dgi_free(a, block, dgi_graph_block_size(graph->capacity_[0], graph->capacity_[1]));
    }
    dg_graph_init(graph);
}

/* ---- queries the layout shares ------------------------------------------- */

int32_t dgi_graph_start_node(const dg_graph *graph)
{
    for (int32_t i = 0; i < graph->node_count; i++)
        if (strcmp(graph->nodes[i].role, "start") == 0)
            return i;
    return 0;
}

int32_t dgi_graph_degree(const dg_graph *graph, int32_t n)
{
    int32_t d = 0;
    for (int32_t e = 0; e < graph->edge_count; e++)
        d += (graph->edges[e].a == n) + (graph->edges[e].b == n);
    return d;
}

int dgi_graph_template_matches(const dg_graph *graph, const dg_graph_node *node, int32_t i)
{
    dg_prefab_info info;
    if (dg_prefab_get_info(graph->prefabs, i, &info) != DG_OK)
        return 0;
    return strcmp(info.name, node->templates) == 0 ||
           dg_prefab_has_tag(graph->prefabs, i, node->templates);
}

/* ---- checking ------------------------------------------------------------- */

typedef struct checker {
    const dg_graph *g;
    int templates;
    dgi_graph_fault *fault;
    dg_diag *diag;
} checker;

/* Fails at node n (or edge e, or the graph when both are -1). */
#define NODE_FAIL(c, n, ...) (at((c), (n), -1), dgi_fail((c)->diag, DG_E_INVALID, __VA_ARGS__))
#define EDGE_FAIL(c, e, ...) (at((c), -1, (e)), dgi_fail((c)->diag, DG_E_INVALID, __VA_ARGS__))

static void at(const checker *c, int32_t node, int32_t edge)
{
    c->fault->node = node;
    c->fault->edge = edge;
}

/* "" if s is a word the text format can carry (empty allowed when may_be_empty),
 * else why not. */
static const char *word_fault(const char s[DG_NAME_MAX], int may_be_empty)
{
    if (!memchr(s, '\0', DG_NAME_MAX))
        return "is not NUL-terminated within DG_NAME_MAX bytes";
    if (!s[0] && !may_be_empty)
        return "is empty";
    for (size_t i = 0; s[i]; i++)
        if (!dgi_name_char((uint8_t)s[i]))
            return "has a character other than letters, digits, '_', '.', '-'";
    return "";
}

static dg_status check_options(const checker *c)
{
    const dg_graph *g = c->g;
    dg_diag *diag = c->diag;
    if (g->node_count < 1 || g->node_count > DG_GRAPH_NODES_MAX)
        return dgi_fail(diag, DG_E_INVALID, "graph: %d nodes; 1..%d are allowed",
                        (int)g->node_count, DG_GRAPH_NODES_MAX);
    if (!g->nodes)
        return dgi_fail(diag, DG_E_NULL, "graph: nodes is NULL");
    if (g->edge_count < 0 || g->edge_count > DG_GRAPH_EDGES_MAX)
        return dgi_fail(diag, DG_E_INVALID, "graph: %d edges; 0..%d are allowed",
                        (int)g->edge_count, DG_GRAPH_EDGES_MAX);
    if (g->edge_count > 0 && !g->edges)
        return dgi_fail(diag, DG_E_NULL, "graph: edges is NULL");
    if (g->room_distance < 0 || g->room_distance > 4)
        return dgi_fail(diag, DG_E_INVALID, "graph: room_distance %d; 0..4 are allowed",
                        (int)g->room_distance);
    if (g->corridor_width < 1 || g->corridor_width > 3)
        return dgi_fail(diag, DG_E_INVALID, "graph: corridor_width %d; 1..3 are allowed",
                        (int)g->corridor_width);
    if (g->extra_connections != 0 && g->extra_connections != 1)
        return dgi_fail(diag, DG_E_INVALID, "graph: extra_connections %d; 0 or 1",
                        (int)g->extra_connections);
    if (g->max_attempts < 0 || g->max_attempts > DGI_GRAPH_ATTEMPTS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "graph: max_attempts %d; 0 (the default, %d) or "
                        "1..%d are allowed", (int)g->max_attempts, DGI_GRAPH_ATTEMPTS,
                        DGI_GRAPH_ATTEMPTS_MAX);
    return DGI_SPARE_CHECK(g->spare, "dg_graph", diag);
}

static dg_status check_range(const checker *c, int32_t i, const char *what, int32_t lo,
                             int32_t hi)
{
    if (lo < 1 || hi > DGI_GRAPH_ROOM_MAX || lo > hi)
        return NODE_FAIL(c, i, "node %s: %s %d..%d; 1 <= min <= max <= %d is required",
                         c->g->nodes[i].name, what, (int)lo, (int)hi, DGI_GRAPH_ROOM_MAX);
    return DG_OK;
}

static dg_status check_templates(const checker *c, int32_t i)
{
    const dg_graph *g = c->g;
    const dg_graph_node *n = &g->nodes[i];
    if (n->width_min || n->width_max || n->height_min || n->height_max)
        return NODE_FAIL(c, i, "node %s: a size range and templates; a node has one or the "
                         "other (the sizes must be 0)", n->name);
    if (!c->templates)
        return DG_OK;
    if (!g->prefabs)
        return NODE_FAIL(c, i, "node %s: templates \"%s\" but the graph has no prefabs", n->name,
                         n->templates);
    for (int32_t k = 0; k < dg_prefab_count(g->prefabs); k++)
        if (dgi_graph_template_matches(g, n, k))
            return DG_OK;
    return NODE_FAIL(c, i, "node %s: no prefab is named or tagged \"%s\"", n->name, n->templates);
}

static dg_status check_node(const checker *c, int32_t i)
{
    const dg_graph *g = c->g;
    const dg_graph_node *n = &g->nodes[i];
    const char *why = word_fault(n->name, 0);
    if (*why)
        return NODE_FAIL(c, i, "node %d: the name %s", (int)i, why);
    if (*(why = word_fault(n->role, 1)))
        return NODE_FAIL(c, i, "node %s: the role %s", n->name, why);
    if (*(why = word_fault(n->templates, 1)))
        return NODE_FAIL(c, i, "node %s: the templates word %s", n->name, why);
    for (int32_t k = 0; k < i; k++)
        if (strcmp(g->nodes[k].name, n->name) == 0)
            return NODE_FAIL(c, i, "node %s: the name is used twice (nodes %d and %d)", n->name,
                             (int)k, (int)i);
    if (n->templates[0])
        return check_templates(c, i);
    dg_status st = check_range(c, i, "width", n->width_min, n->width_max);
    return st ? st : check_range(c, i, "height", n->height_min, n->height_max);
}

static dg_status check_roles(const checker *c)
{
    static const char *const unique[] = {"start", "exit"};
    const dg_graph *g = c->g;
    for (int r = 0; r < 2; r++)
    {
        int32_t first = -1;
        for (int32_t i = 0; i < g->node_count; i++)
        {
            if (strcmp(g->nodes[i].role, unique[r]) != 0)
                continue;
            if (first >= 0)
                return NODE_FAIL(c, i, "node %s: a second %s (the first is %s)", g->nodes[i].name,
                                 unique[r], g->nodes[first].name);
            first = i;
        }
    }
    return DG_OK;
}

static dg_status check_edge_lock(const checker *c, int32_t e, const char *an, const char *bn)
{
    const dg_graph *g = c->g;
    const dg_graph_edge *x = &g->edges[e];
    if (x->secret != 0 && x->secret != 1)
        return EDGE_FAIL(c, e, "edge %s-%s: secret %d; 0 or 1", an, bn, (int)x->secret);
    if (x->lock < 0 || x->lock > DG_LOCKS_MAX)
        return EDGE_FAIL(c, e, "edge %s-%s: lock %d; 0..%d are allowed", an, bn, (int)x->lock,
                         DG_LOCKS_MAX);
    if (x->lock && x->secret)
        return EDGE_FAIL(c, e, "edge %s-%s: a secret door cannot be locked", an, bn);
    if (!x->lock && x->key_node != -1)
        return EDGE_FAIL(c, e, "edge %s-%s: key node %d without a lock (an open edge has "
                         "key_node -1)", an, bn, (int)x->key_node);
    if (x->lock && (x->key_node < 0 || x->key_node >= g->node_count))
        return EDGE_FAIL(c, e, "edge %s-%s: lock %d's key node %d is not a node", an, bn,
                         (int)x->lock, (int)x->key_node);
    for (int32_t k = 0; k < e; k++)
        if (g->edges[k].lock == x->lock && x->lock && g->edges[k].key_node != x->key_node)
            return EDGE_FAIL(c, e, "edge %s-%s: lock %d's key is in two nodes (%s and %s)", an, bn,
                             (int)x->lock, g->nodes[g->edges[k].key_node].name,
                             g->nodes[x->key_node].name);
    return DG_OK;
}

static dg_status check_edge(const checker *c, int32_t e)
{
    const dg_graph *g = c->g;
    const dg_graph_edge *x = &g->edges[e];
    if (x->a < 0 || x->a >= g->node_count || x->b < 0 || x->b >= g->node_count)
        return EDGE_FAIL(c, e, "edge %d: nodes %d and %d; 0..%d are allowed", (int)e, (int)x->a,
                         (int)x->b, (int)g->node_count - 1);
    const char *an = g->nodes[x->a].name, *bn = g->nodes[x->b].name;
    if (x->a == x->b)
        return EDGE_FAIL(c, e, "edge %s-%s: joins a node to itself", an, bn);
    for (int32_t k = 0; k < e; k++)
    {
        const dg_graph_edge *y = &g->edges[k];
        if ((y->a == x->a && y->b == x->b) || (y->a == x->b && y->b == x->a))
            return EDGE_FAIL(c, e, "edge %s-%s: given twice (edges %d and %d)", an, bn, (int)k,
                             (int)e);
    }
    if (x->kind == DG_EDGE_CORRIDOR)
    {
        if (x->length_min < 1 || x->length_max > DGI_GRAPH_CORRIDOR_MAX ||
            x->length_min > x->length_max)
            return EDGE_FAIL(c, e, "edge %s-%s: corridor length %d..%d; 1 <= min <= max <= %d",
                             an, bn, (int)x->length_min, (int)x->length_max,
                             DGI_GRAPH_CORRIDOR_MAX);
    }
    else if (x->kind != DG_EDGE_DOOR)
        return EDGE_FAIL(c, e, "edge %s-%s: kind %d; DG_EDGE_DOOR or DG_EDGE_CORRIDOR", an, bn,
                         (int)x->kind);
    else if (x->length_min || x->length_max)
        return EDGE_FAIL(c, e, "edge %s-%s: a door with a length %d..%d (a door's lengths are 0)",
                         an, bn, (int)x->length_min, (int)x->length_max);
    return check_edge_lock(c, e, an, bn);
}

/* adj[n]: the nodes joined to n (nodes fit a 64-bit mask each), by any
 * edge or (doors_only) by a door. */
static void neighbours(const dg_graph *g, int doors_only, uint64_t adj[DG_GRAPH_NODES_MAX])
{
    memset(adj, 0, DG_GRAPH_NODES_MAX * sizeof adj[0]);
    for (int32_t e = 0; e < g->edge_count; e++)
        if (!doors_only || g->edges[e].kind == DG_EDGE_DOOR)
        {
            adj[g->edges[e].a] |= (uint64_t)1 << g->edges[e].b;
            adj[g->edges[e].b] |= (uint64_t)1 << g->edges[e].a;
        }
}

/* 1 if three nodes are joined pairwise. */
static int has_triangle(const dg_graph *g)
{
    uint64_t adj[DG_GRAPH_NODES_MAX];
    neighbours(g, 0, adj);
    for (int32_t e = 0; e < g->edge_count; e++)
        if (adj[g->edges[e].a] & adj[g->edges[e].b])
            return 1;
    return 0;
}

static dg_status check_degrees(const checker *c)
{
    const dg_graph *g = c->g;
    for (int32_t i = 0; i < g->node_count; i++)
        if (dgi_graph_degree(g, i) > DG_GRAPH_DEGREE_MAX)
            return NODE_FAIL(c, i, "node %s: %d edges; at most %d are allowed", g->nodes[i].name,
                             (int)dgi_graph_degree(g, i), DG_GRAPH_DEGREE_MAX);
    /* Euler's bound: a planar graph of V >= 3 nodes has at most 3V - 6 edges */
    int32_t bound = 3 * g->node_count - 6;
    if (g->node_count >= 3 && g->edge_count > bound)
        return EDGE_FAIL(c, bound, "graph: %d edges among %d nodes cannot be planar (at most %d)",
                         (int)g->edge_count, (int)g->node_count, (int)bound);
    /* and one without a triangle at most 2V - 4 (so K3,3 is refused) */
    bound = 2 * g->node_count - 4;
    if (g->node_count >= 3 && g->edge_count > bound && !has_triangle(g))
        return EDGE_FAIL(c, bound, "graph: %d edges among %d nodes without a triangle cannot be "
                         "planar (at most %d)", (int)g->edge_count, (int)g->node_count,
                         (int)bound);
    return DG_OK;
}

/* The exact test after the counts: a K5 or K3,3 among more nodes, or with
 * rooms on its paths, is named by its branch nodes at the edge that closes it. */
static dg_status check_planar(const checker *c)
{
    const dg_graph *g = c->g;
    if (dgi_graph_planar(g->node_count, g->edges, g->edge_count, NULL))
        return DG_OK;
    dgi_planar_witness w;
    dgi_graph_nonplanar_witness(g->node_count, g->edges, g->edge_count, &w, NULL);
    const char *n[6], *an = g->nodes[g->edges[w.edge].a].name;
    const char *bn = g->nodes[g->edges[w.edge].b].name;
    for (int i = 0; i < 6; i++)
        n[i] = i < w.branches ? g->nodes[w.branch[i]].name : "?";
    if (w.branches == 5)
        return EDGE_FAIL(c, w.edge, "edge %s-%s: not planar: with the edges before it, %s, %s, "
                         "%s, %s and %s are joined pairwise by paths that share no room (a K5), "
                         "which cannot be drawn without crossings", an, bn, n[0], n[1], n[2],
                         n[3], n[4]);
    return EDGE_FAIL(c, w.edge, "edge %s-%s: not planar: with the edges before it, each of %s, "
                     "%s, %s is joined to each of %s, %s, %s by paths that share no room (a "
                     "K3,3), which cannot be drawn without crossings", an, bn, n[0], n[1], n[2],
                     n[3], n[4], n[5]);
}

/* Four rooms joined pairwise by doors (a K4 of doors) cannot be drawn: three
 * rectangles that touch pairwise leave no room touching all three. Named at
 * the door edge that closes it. */
static dg_status check_door_k4(const checker *c)
{
    const dg_graph *g = c->g;
    uint64_t doors[DG_GRAPH_NODES_MAX] = {0};
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        const dg_graph_edge *x = &g->edges[e];
        if (x->kind != DG_EDGE_DOOR)
            continue;
        uint64_t common = doors[x->a] & doors[x->b];
        for (int32_t u = 0; u < g->node_count; u++)
            if ((common >> u & 1) && (doors[u] & common))
            {
                int32_t v = 0;
                while (!((doors[u] & common) >> v & 1))
                    v++;
                return EDGE_FAIL(c, e, "edge %s-%s: with the doors before it, %s, %s, %s and %s "
                                 "are joined pairwise by doors (a K4), which four rectangle "
                                 "rooms cannot realise; make one of these edges a corridor",
                                 g->nodes[x->a].name, g->nodes[x->b].name, g->nodes[x->a].name,
                                 g->nodes[x->b].name, g->nodes[u].name, g->nodes[v].name);
            }
        doors[x->a] |= (uint64_t)1 << x->b;
        doors[x->b] |= (uint64_t)1 << x->a;
    }
    return DG_OK;
}

/* Door neighbours of a room share a wall with it and overlap it by a cell
 * at least, and those not joined stand room_distance apart (their walls):
 * on one side one after another; at a corner whose two sides both have
 * some, one of the two nearest the corner keeps room_distance + 1 cells
 * in from it. k of them along a side of `side` cells, each `least` long
 * along it, the first clear of the corner it starts at (start_clear) and
 * the last of the one it ends at (end_clear): 1 if they fit, placed from
 * the start as tightly as they go (the first reaching out past an unclear
 * corner). */
static int side_holds(int32_t side, int32_t distance, int32_t least, int32_t k, int start_clear,
                      int end_clear)
{
    if (k == 0)
        return 1;
    int32_t at = start_clear ? distance + 1 : 1 - least;
    int32_t end = start_clear ? at + least - 1 : 0;
    for (int32_t i = 1; i < k; i++)
        at = end + distance + 3, end = at + least - 1;
    return at <= side - 1 && (!end_clear || end <= side - distance - 2);
}

/* 1 if k[s] door neighbours on each side s (clockwise from the top) of a
 * room len[0] x len[1] fit with some choice at each corner of the side that
 * keeps clear of it (bit c of `clear`: corner c's first side does). */
static int corners_hold(const int32_t k[4], const int32_t len[4], const int32_t least[4],
                        int32_t distance)
{
    for (int clear = 0; clear < 16; clear++)
    {
        int fits = 1;
        for (int s = 0; s < 4 && fits; s++)
        {
            int before = (s + 3) % 4, after = (s + 1) % 4; /* corner `before` ends side before */
            int start_clear = k[before] && k[s] && !(clear >> before & 1);
            int end_clear = k[s] && k[after] && (clear >> s & 1);
            fits = side_holds(len[s], distance, least[s], k[s], start_clear, end_clear);
        }
        if (fits)
            return 1;
    }
    return 0;
}

/* 1 unless the room is narrower than room_distance across two opposite
 * sides that both have door neighbours: those stand no farther apart than
 * the room across, so they must stand apart sideways, as if on one side. */
static int across_holds(const int32_t k[4], const int32_t len[4], const int32_t least[4],
                        int32_t distance)
{
    for (int s = 0; s < 2; s++) /* top and bottom (across the height len[1]), then left and right */
        if (len[1 - s] < distance && k[s] && k[s + 2] &&
            !side_holds(len[s], distance, least[s], k[s] + k[s + 2], 0, 0))
            return 0;
    return 1;
}

/* 1 if `count` door neighbours fit round a room of w x h: some number on
 * each side (corners_hold, across_holds). The neighbours' depth and the
 * corridors are left out, so this may let through what no layout has,
 * never the reverse. */
static int sides_hold(int32_t count, int32_t w, int32_t h, int32_t distance, int32_t least_w,
                      int32_t least_h)
{
    const int32_t len[4] = {w, h, w, h}, least[4] = {least_w, least_h, least_w, least_h};
    int32_t k[4];
    for (k[0] = 0; k[0] <= count; k[0]++)
        for (k[1] = 0; k[0] + k[1] <= count; k[1]++)
            for (k[2] = 0; k[0] + k[1] + k[2] <= count; k[2]++)
            {
                k[3] = count - k[0] - k[1] - k[2];
                if (across_holds(k, len, least, distance) && corners_hold(k, len, least, distance))
                    return 1;
            }
    return 0;
}

/* A rectangle room holds only as many door neighbours as its sides at their
 * largest can (sides_hold): more is refused by name. Only where no two of
 * them are joined (joined rooms may stand closer, so no bound is proved
 * there). */
static dg_status check_door_sides(const checker *c)
{
    const dg_graph *g = c->g;
    uint64_t joined[DG_GRAPH_NODES_MAX], doors[DG_GRAPH_NODES_MAX];
    neighbours(g, 0, joined);
    neighbours(g, 1, doors);
    for (int32_t i = 0; i < g->node_count; i++)
    {
        const dg_graph_node *n = &g->nodes[i];
        int32_t count = 0, least_w = INT32_MAX, least_h = INT32_MAX, apart = 1;
        for (uint64_t rest = doors[i]; rest; rest &= rest - 1)
        {
            int32_t v = dgi_lowest_bit64(rest);
            const dg_graph_node *u = &g->nodes[v];
            apart &= !(joined[v] & doors[i]);
            least_w = DG_MIN(least_w, u->templates[0] ? 1 : u->width_min);
            least_h = DG_MIN(least_h, u->templates[0] ? 1 : u->height_min);
            count++;
        }
        if (n->templates[0] || !apart || count <= 1)
            continue;
        int32_t holds = count;
        while (holds > 1 && !sides_hold(holds, n->width_max, n->height_max, g->room_distance,
                                        least_w, least_h))
            holds--;
        if (holds < count)
            return NODE_FAIL(c, i, "node %s: %d door neighbours, but a room of at most %dx%d "
                             "holds %d at room_distance %d (those on one side, or on "
                             "opposite sides of a room narrower than that, stand room_distance "
                             "apart, and at each corner one of the two keeps clear); a larger room, a smaller room_distance or corridors "
                             "instead of doors may help", n->name, (int)count,
                             (int)n->width_max, (int)n->height_max, (int)holds,
                             (int)g->room_distance);
    }
    return DG_OK;
}

/* Steps the door clusters' search may take in one check (about 15 ms at
 * most): a star or pair that has a place takes at most a few thousand in
 * the families of tests/graph_families.h, the proof that the 47-room
 * tree's pair at distance 4 has none 470,000. */
#define DOOR_CLUSTER_WORK 1000000

static dg_status cluster_fail(const checker *c, int32_t a, int32_t b, const uint64_t *doors)
{
    const dg_graph *g = c->g;
    const dg_graph_node *n = &g->nodes[a];
    if (b < 0)
        return NODE_FAIL(c, a, "node %s: its %d door neighbours have no place round a room of at "
                         "most %dx%d at room_distance %d (every place searched, the rest of the "
                         "graph left out); a larger room, a smaller room_distance or corridors "
                         "instead of doors may help", n->name, (int)dgi_popcount64(doors[a]),
                         (int)n->width_max, (int)n->height_max, (int)g->room_distance);
    return NODE_FAIL(c, a, "nodes %s and %s, joined by a door, have no place with their %d and %d "
                     "door neighbours at room_distance %d (every place searched, the rest of the "
                     "graph left out); larger rooms, a smaller room_distance or corridors instead "
                     "of doors may help", n->name, g->nodes[b].name, (int)dgi_popcount64(doors[a]),
                     (int)dgi_popcount64(doors[b]), (int)g->room_distance);
}

/* A room with three door neighbours or more, and two such rooms joined by a
 * door, must have a place with their door neighbours (dgi_door_cluster_fits):
 * where the search proves they have none, the graph is refused by name.
 * What the check's bound leaves unsearched is let through. */
static dg_status check_door_clusters(const checker *c)
{
    const dg_graph *g = c->g;
    uint64_t doors[DG_GRAPH_NODES_MAX], joined[DG_GRAPH_NODES_MAX];
    int64_t work = DOOR_CLUSTER_WORK;
    neighbours(g, 1, doors);
    neighbours(g, 0, joined);
    uint64_t crowded = 0; /* rooms with three door neighbours or more */
    for (int32_t a = 0; a < g->node_count; a++)
        crowded |= (uint64_t)(dgi_popcount64(doors[a]) >= 3) << a;
    for (uint64_t rest = crowded; rest; rest &= rest - 1)
        if (dgi_door_cluster_fits(g, doors, joined, dgi_lowest_bit64(rest), -1, &work) == 0)
            return cluster_fail(c, dgi_lowest_bit64(rest), -1, doors);
    for (uint64_t rest = crowded; rest; rest &= rest - 1)
    {
        int32_t a = dgi_lowest_bit64(rest);
        for (uint64_t pair = doors[a] & crowded & ~((2ULL << a) - 1); pair; pair &= pair - 1) /* b after a */
            if (dgi_door_cluster_fits(g, doors, joined, a, dgi_lowest_bit64(pair), &work) == 0)
                return cluster_fail(c, a, dgi_lowest_bit64(pair), doors);
    }
    return DG_OK;
}

/* Floods from the start through open edges, and through locked ones once
 * keys_count allows (1: the lock's key node is reached), until nothing
 * changes: what stays dark is cut off, or behind a lock whose key lies behind it. */
static void flood(const dg_graph *g, int keys_count, uint8_t reached[DG_GRAPH_NODES_MAX])
{
    memset(reached, 0, DG_GRAPH_NODES_MAX);
    reached[dgi_graph_start_node(g)] = 1;
    for (int changed = 1; changed;)
    {
        changed = 0;
        for (int32_t e = 0; e < g->edge_count; e++)
        {
            const dg_graph_edge *x = &g->edges[e];
            if (keys_count && x->lock && !reached[x->key_node])
                continue;
            if (reached[x->a] != reached[x->b])
            {
                reached[x->a] = reached[x->b] = 1;
                changed = 1;
            }
        }
    }
}

static dg_status check_reach(const checker *c)
{
    const dg_graph *g = c->g;
    const char *start = g->nodes[dgi_graph_start_node(g)].name;
    uint8_t reached[DG_GRAPH_NODES_MAX];
    flood(g, 0, reached);
    for (int32_t i = 0; i < g->node_count; i++)
        if (!reached[i])
            return NODE_FAIL(c, i, "node %s: no path of edges joins it to %s (the graph is "
                             "disconnected)", g->nodes[i].name, start);
    flood(g, 1, reached);
    /* a locked edge on the frontier whose key is still dark is the culprit */
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        const dg_graph_edge *x = &g->edges[e];
        if (x->lock && reached[x->a] != reached[x->b] && !reached[x->key_node])
            return EDGE_FAIL(c, e, "edge %s-%s: lock %d's key is in %s, which cannot be reached "
                             "from %s before that lock opens", g->nodes[x->a].name,
                             g->nodes[x->b].name, (int)x->lock, g->nodes[x->key_node].name,
                             start);
    }
    return DG_OK;
}

/* Each template node's prefabs (the one with the most) have a door cell for
 * each of its edges, each one cell wide. */
static dg_status check_template_doors(const checker *c)
{
    const dg_graph *g = c->g;
    for (int32_t i = 0; c->templates && g->prefabs && i < g->node_count; i++)
    {
        const dg_graph_node *n = &g->nodes[i];
        int32_t most = 0, degree = dgi_graph_degree(g, i);
        if (!n->templates[0])
            continue;
        if (g->corridor_width != 1 && degree)
            return NODE_FAIL(c, i, "node %s: a template room's door cells are one cell wide; "
                             "corridor_width must be 1", n->name);
        for (int32_t k = 0; k < dg_prefab_count(g->prefabs) && most < degree; k++)
            if (dgi_graph_template_matches(g, n, k))
            {
                int32_t doors = dgi_template_door_count(g->prefabs, k);
                most = doors > most ? doors : most;
            }
        if (most < degree)
            return NODE_FAIL(c, i, "node %s: %d edges, but the prefabs named or tagged \"%s\" "
                             "have at most %d door cells an edge can use", n->name, (int)degree,
                             n->templates, (int)most);
    }
    return DG_OK;
}

dg_status dgi_graph_check(const dg_graph *graph, int templates, dgi_graph_fault *fault,
                          dg_diag *diag)
{
    dgi_graph_fault unused;
    checker c = {graph, templates, fault ? fault : &unused, diag};
    at(&c, -1, -1);
    if (!graph)
        return dgi_fail(diag, DG_E_NULL, "graph is NULL");
    dg_status st = check_options(&c);
    for (int32_t i = 0; st == DG_OK && i < graph->node_count; i++)
        st = check_node(&c, i);
    for (int32_t e = 0; st == DG_OK && e < graph->edge_count; e++)
        st = check_edge(&c, e);
    if (st == DG_OK)
        st = check_roles(&c);
    if (st == DG_OK)
        st = check_degrees(&c);
    if (st == DG_OK)
        st = check_template_doors(&c);
    if (st == DG_OK)
        st = check_reach(&c);
    if (st == DG_OK)
        st = check_planar(&c);
    if (st == DG_OK)
        st = check_door_k4(&c);
    if (st == DG_OK)
        st = check_door_sides(&c);
    if (st == DG_OK)
        st = check_door_clusters(&c);
    if (st == DG_OK)
        dgi_diag_ok(diag);
    return st;
}

dg_status dg_graph_check(const dg_graph *graph, dg_diag *diag)
{
    return dgi_graph_check(graph, 1, NULL, diag);
}

/* ---- identity ------------------------------------------------------------- */

static uint64_t mix_name(uint64_t h, const char name[DG_NAME_MAX])
{
    size_t n = 0;
    while (n < DG_NAME_MAX && name[n])
        n++;
    h = dgi_hash_combine(h, n);
    for (size_t i = 0; i < n; i += 8)
    {
        uint64_t w = 0;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            w |= (uint64_t)(uint8_t)name[i + k] << (8 * k);
        h = dgi_hash_combine(h, w);
    }
    return h;
}

static uint64_t mix_ints(uint64_t h, const int32_t *v, int n)
{
    for (int i = 0; i < n; i++)
        h = dgi_hash_combine(h, (uint64_t)(uint32_t)v[i]);
    return h;
}

uint64_t dg_graph_hash(const dg_graph *graph)
{
    if (!graph)
        return 0;
    int32_t options[5] = {graph->node_count, graph->edge_count, graph->room_distance,
                          graph->corridor_width, graph->extra_connections};
    uint64_t h = mix_ints(0x6C6576656C677270ULL, options, 5); /* "levelgrp" */
    for (int32_t i = 0; graph->nodes && i < graph->node_count; i++)
    {
        const dg_graph_node *n = &graph->nodes[i];
        int32_t size[4] = {n->width_min, n->width_max, n->height_min, n->height_max};
        h = mix_ints(mix_name(mix_name(mix_name(h, n->name), n->role), n->templates), size, 4);
    }
    for (int32_t e = 0; graph->edges && e < graph->edge_count; e++)
    {
        const dg_graph_edge *x = &graph->edges[e];
        int32_t v[8] = {x->a, x->b, x->kind, x->length_min, x->length_max, x->lock, x->key_node,
                        x->secret};
        h = mix_ints(h, v, 8);
    }
    h = dgi_hash_combine(h, dg_prefab_set_hash(graph->prefabs));
    if (graph->max_attempts) /* only when set, so the hashes of earlier graphs stay */
        h = dgi_hash_combine(h, (uint64_t)(uint32_t)graph->max_attempts);
    return h ? h : 1;
}
