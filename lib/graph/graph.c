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

void dg_graph_free(dg_graph *graph)
{
    if (!graph)
        return;
    const dg_allocator *a = graph->allocator_.alloc ? &graph->allocator_ : NULL;
    dgi_free(a, graph->nodes, (size_t)graph->capacity_[0] * sizeof *graph->nodes);
    dgi_free(a, graph->edges, (size_t)graph->capacity_[1] * sizeof *graph->edges);
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

static int terminated(const char *s)
{
    return memchr(s, '\0', DG_NAME_MAX) != NULL;
}

static dg_status check_options(const dg_graph *g, dg_diag *diag)
{
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
    return dgi_spare_check(g->spare, "dg_graph", diag);
}

static dg_status check_range(const char *node, const char *what, int32_t lo, int32_t hi,
                             dg_diag *diag)
{
    if (lo < 1 || hi > DGI_GRAPH_ROOM_MAX || lo > hi)
        return dgi_fail(diag, DG_E_INVALID,
                        "node %s: %s %d..%d; 1 <= min <= max <= %d is required", node, what,
                        (int)lo, (int)hi, DGI_GRAPH_ROOM_MAX);
    return DG_OK;
}

static dg_status check_templates(const dg_graph *g, const dg_graph_node *n, dg_diag *diag)
{
    if (!g->prefabs)
        return dgi_fail(diag, DG_E_INVALID, "node %s: templates \"%s\" but the graph has no prefabs",
                        n->name, n->templates);
    for (int32_t i = 0; i < dg_prefab_count(g->prefabs); i++)
        if (dgi_graph_template_matches(g, n, i))
            return DG_OK;
    return dgi_fail(diag, DG_E_INVALID, "node %s: no prefab is named or tagged \"%s\"", n->name,
                    n->templates);
}

static dg_status check_node(const dg_graph *g, int32_t i, dg_diag *diag)
{
    const dg_graph_node *n = &g->nodes[i];
    if (!terminated(n->name) || !terminated(n->role) || !terminated(n->templates))
        return dgi_fail(diag, DG_E_INVALID, "node %d: a name, role or templates is not "
                        "NUL-terminated within %d bytes", (int)i, DG_NAME_MAX);
    if (n->name[0] == '\0')
        return dgi_fail(diag, DG_E_INVALID, "node %d: the name is empty", (int)i);
    for (int32_t k = 0; k < i; k++)
        if (strcmp(g->nodes[k].name, n->name) == 0)
            return dgi_fail(diag, DG_E_INVALID, "node %s: the name is used twice (nodes %d and %d)",
                            n->name, (int)k, (int)i);
    if (n->templates[0])
        return check_templates(g, n, diag);
    dg_status st = check_range(n->name, "width", n->width_min, n->width_max, diag);
    return st ? st : check_range(n->name, "height", n->height_min, n->height_max, diag);
}

static dg_status check_roles(const dg_graph *g, dg_diag *diag)
{
    static const char *const unique[] = {"start", "exit"};
    for (int r = 0; r < 2; r++)
    {
        int32_t first = -1;
        for (int32_t i = 0; i < g->node_count; i++)
        {
            if (strcmp(g->nodes[i].role, unique[r]) != 0)
                continue;
            if (first >= 0)
                return dgi_fail(diag, DG_E_INVALID, "node %s: a second %s (the first is %s)",
                                g->nodes[i].name, unique[r], g->nodes[first].name);
            first = i;
        }
    }
    return DG_OK;
}

static dg_status check_edge_lock(const dg_graph *g, int32_t e, const char *an, const char *bn,
                                 dg_diag *diag)
{
    const dg_graph_edge *x = &g->edges[e];
    if (x->secret != 0 && x->secret != 1)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: secret %d; 0 or 1", an, bn, (int)x->secret);
    if (x->lock < 0 || x->lock > DG_LOCKS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: lock %d; 0..%d are allowed", an, bn,
                        (int)x->lock, DG_LOCKS_MAX);
    if (x->lock && x->secret)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: a secret door cannot be locked", an, bn);
    if (!x->lock && x->key_node != -1)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: a key node without a lock", an, bn);
    if (x->lock && (x->key_node < 0 || x->key_node >= g->node_count))
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: lock %d has no key node", an, bn,
                        (int)x->lock);
    for (int32_t k = 0; k < e; k++)
        if (g->edges[k].lock == x->lock && x->lock && g->edges[k].key_node != x->key_node)
            return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: lock %d's key is in two nodes", an,
                            bn, (int)x->lock);
    return DG_OK;
}

static dg_status check_edge(const dg_graph *g, int32_t e, dg_diag *diag)
{
    const dg_graph_edge *x = &g->edges[e];
    if (x->a < 0 || x->a >= g->node_count || x->b < 0 || x->b >= g->node_count)
        return dgi_fail(diag, DG_E_INVALID, "edge %d: nodes %d and %d; 0..%d are allowed", (int)e,
                        (int)x->a, (int)x->b, (int)g->node_count - 1);
    const char *an = g->nodes[x->a].name, *bn = g->nodes[x->b].name;
    if (x->a == x->b)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: joins a node to itself", an, bn);
    for (int32_t k = 0; k < e; k++)
    {
        const dg_graph_edge *y = &g->edges[k];
        if ((y->a == x->a && y->b == x->b) || (y->a == x->b && y->b == x->a))
            return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: given twice", an, bn);
    }
    if (x->kind == DG_EDGE_CORRIDOR)
    {
        if (x->length_min < 1 || x->length_max > DGI_GRAPH_CORRIDOR_MAX ||
            x->length_min > x->length_max)
            return dgi_fail(diag, DG_E_INVALID,
                            "edge %s-%s: corridor length %d..%d; 1 <= min <= max <= %d", an, bn,
                            (int)x->length_min, (int)x->length_max, DGI_GRAPH_CORRIDOR_MAX);
    }
    else if (x->kind != DG_EDGE_DOOR)
        return dgi_fail(diag, DG_E_INVALID, "edge %s-%s: kind %d; DG_EDGE_DOOR or DG_EDGE_CORRIDOR",
                        an, bn, (int)x->kind);
    return check_edge_lock(g, e, an, bn, diag);
}

static dg_status check_degrees(const dg_graph *g, dg_diag *diag)
{
    for (int32_t i = 0; i < g->node_count; i++)
        if (dgi_graph_degree(g, i) > DG_GRAPH_DEGREE_MAX)
            return dgi_fail(diag, DG_E_INVALID, "node %s: %d edges; at most %d are allowed",
                            g->nodes[i].name, (int)dgi_graph_degree(g, i), DG_GRAPH_DEGREE_MAX);
    /* Euler's bound: a planar graph of V >= 3 nodes has at most 3V - 6 edges */
    if (g->node_count >= 3 && g->edge_count > 3 * g->node_count - 6)
        return dgi_fail(diag, DG_E_INVALID, "graph: %d edges among %d nodes cannot be planar "
                        "(at most %d)", (int)g->edge_count, (int)g->node_count,
                        (int)(3 * g->node_count - 6));
    return DG_OK;
}

/* Floods from the start through open edges and the locks whose keys it has
 * reached, until nothing changes: what stays dark is unreachable, or behind
 * a lock whose key lies behind it. */
static void flood(const dg_graph *g, uint8_t reached[DG_GRAPH_NODES_MAX])
{
    memset(reached, 0, DG_GRAPH_NODES_MAX);
    reached[dgi_graph_start_node(g)] = 1;
    for (int changed = 1; changed;)
    {
        changed = 0;
        for (int32_t e = 0; e < g->edge_count; e++)
        {
            const dg_graph_edge *x = &g->edges[e];
            if (x->lock && !reached[x->key_node])
                continue;
            if (reached[x->a] != reached[x->b])
            {
                reached[x->a] = reached[x->b] = 1;
                changed = 1;
            }
        }
    }
}

static dg_status check_reach(const dg_graph *g, dg_diag *diag)
{
    uint8_t reached[DG_GRAPH_NODES_MAX];
    flood(g, reached);
    for (int32_t i = 0; i < g->node_count; i++)
    {
        if (reached[i])
            continue;
        for (int32_t e = 0; e < g->edge_count; e++)
            if (g->edges[e].lock && g->edges[e].key_node == i)
                return dgi_fail(diag, DG_E_INVALID, "node %s: holds lock %d's key, but cannot "
                                "be reached before that lock opens", g->nodes[i].name,
                                (int)g->edges[e].lock);
        return dgi_fail(diag, DG_E_INVALID, "node %s: cannot be reached from %s", g->nodes[i].name,
                        g->nodes[dgi_graph_start_node(g)].name);
    }
    return DG_OK;
}

dg_status dg_graph_check(const dg_graph *graph, dg_diag *diag)
{
    if (!graph)
        return dgi_fail(diag, DG_E_NULL, "graph is NULL");
    dg_status st = check_options(graph, diag);
    for (int32_t i = 0; st == DG_OK && i < graph->node_count; i++)
        st = check_node(graph, i, diag);
    for (int32_t e = 0; st == DG_OK && e < graph->edge_count; e++)
        st = check_edge(graph, e, diag);
    if (st == DG_OK)
        st = check_roles(graph, diag);
    if (st == DG_OK)
        st = check_degrees(graph, diag);
    if (st == DG_OK)
        st = check_reach(graph, diag);
    if (st == DG_OK)
        dgi_diag_ok(diag);
    return st;
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
    return h ? h : 1;
}
