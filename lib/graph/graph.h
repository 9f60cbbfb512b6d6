/* Level graphs: what the graph folder offers to the folders above (the
 * checked graph, its start node and the order its locks open in), on top of
 * progress, prefabs and the core. Private (not installed). */
#ifndef DG_GRAPH_H
#define DG_GRAPH_H

#include "progress/progress.h"

/* The largest interior side a rectangular node may ask for. */
#define DGI_GRAPH_ROOM_MAX 256

/* A box of cells, inclusive (a room's interior, a corridor's leg), shared
 * by the layout and the check's door clusters. */
typedef struct dgi_box { int32_t x0, y0, x1, y1; } dgi_box;
/* 1 if boxes p and q share a cell. */
static inline int dgi_box_meets(dgi_box p, dgi_box q)
{
    return p.x0 <= q.x1 && q.x0 <= p.x1 && p.y0 <= q.y1 && q.y0 <= p.y1;
}
/* q grown by k cells on every side. */
static inline dgi_box dgi_box_grow(dgi_box q, int32_t k) { return (dgi_box){q.x0 - k, q.y0 - k, q.x1 + k, q.y1 + k}; }
/* The longest corridor an edge may ask for. */
#define DGI_GRAPH_CORRIDOR_MAX 256
/* Places and routes a call's search may test, whatever max_attempts says
 * (layout_room.c and layout_route.c count them): a refusal then takes
 * seconds, not minutes. The tests' family graphs test under a third of it
 * in 256 attempts. */
#define DGI_GRAPH_WORK ((int64_t)256 * 1000 * 1000)

/* The node the player starts in: the one whose role is "start", else node 0. */
int32_t dgi_graph_start_node(const dg_graph *graph);
/* Number of edges at node n. */
int32_t dgi_graph_degree(const dg_graph *graph, int32_t n);
/* 1 if prefab index i of graph->prefabs is a template of node (its name or one
 * of its tags equals node->templates). */
int dgi_graph_template_matches(const dg_graph *graph, const dg_graph_node *node, int32_t i);

/* dg_graph_generate with a bound on the search's work other than
 * DGI_GRAPH_WORK (lib/graph/layout.c): a layout found within a bound is the
 * one every larger bound finds. */
dg_status dgi_graph_generate_within(dg_grid *grid, const dg_graph *graph, uint64_t seed,
                                    dg_result *result, const dg_allocator *allocator,
                                    int64_t work_max, dg_diag *diag);

/* Where dg_graph_check found the problem: a node index, an edge index, or
 * neither (-1 both: the graph's options). */
typedef struct dgi_graph_fault {
    int32_t node, edge;
} dgi_graph_fault;
/* dg_graph_check, saying where (fault optional). templates 0 leaves node
 * templates unresolved: the parser's check, before the caller attaches a set. */
dg_status dgi_graph_check(const dg_graph *graph, int templates, dgi_graph_fault *fault,
                          dg_diag *diag);
/* The door cluster of rectangle room a (a with its door neighbours), or of
 * the door edge a-b (both with theirs; b -1 for a alone), placed exactly on
 * its own (lib/graph/door_cluster.c): 1 if it has a placement, 0 if it has
 * none (so the graph has no layout), -1 if *work steps ran out first.
 * doors[n] and joined[n]: bit m set when a door edge, or any edge, joins n
 * and m. *work shrinks by the steps taken. */
int dgi_door_cluster_fits(const dg_graph *g, const uint64_t *doors, const uint64_t *joined, int32_t a, int32_t b,
                          int64_t *work);
/* 1 if nodes 0..nodes-1 and edges[0..edge_count) can be drawn on the plane
 * without crossings (lib/graph/planar.c); *work (optional) grows by the steps
 * taken, at most DGI_PLANAR_WORK(nodes, edge_count). */
int dgi_graph_planar(int32_t nodes, const dg_graph_edge *edges, int32_t edge_count,
                     int64_t *work);
/* One test: at most E paths drawn, each after checking at most E fragments
 * (of at most V nodes) against at most 2V faces. */
#define DGI_PLANAR_WORK(v, e) ((int64_t)(e) * (1 + 3 * (int64_t)(v) * (e)))
/* Why a graph is not planar: the first edge such that edges 0..edge are not,
 * and the branch nodes of the K5 (branches 5) or K3,3 (6: one side, then the
 * other) that the edges up to it hold, each path between two branch nodes
 * sharing no node with another. */
typedef struct dgi_planar_witness {
    int32_t edge;
    int32_t branches;
    int32_t branch[6];
} dgi_planar_witness;
/* The witness of a graph dgi_graph_planar refuses: at most 9 + E tests (E <=
 * 256), so *work grows by at most DGI_PLANAR_WITNESS_WORK(nodes, edge_count). */
void dgi_graph_nonplanar_witness(int32_t nodes, const dg_graph_edge *edges, int32_t edge_count,
                                 dgi_planar_witness *out, int64_t *work);
#define DGI_PLANAR_WITNESS_WORK(v, e) ((int64_t)((e) + 9) * DGI_PLANAR_WORK(v, e))
/* The one block dg_graph_parse allocates: a header (the prefab set that
 * dg_graph_load read, or NULL) then the nodes then the edges. */
typedef union dgi_graph_block {
    dg_prefab_set *prefabs;
    int64_t align;
} dgi_graph_block;
size_t dgi_graph_block_size(int32_t nodes, int32_t edges);

/* ---- template.c: prefabs as rooms ---------------------------------------- */
/* A door cell of a template room, in its oriented prefab (top-left 0,0), and
 * the side (0 N, 1 E, 2 S, 3 W) it opens to. */
typedef struct dgi_tdoor { int32_t x, y, side; } dgi_tdoor;
/* Door cells of prefab index an edge can attach at (on its border, not on a
 * corner, with an always-walkable cell behind): 0 for a prefab under 3x3. */
int32_t dgi_template_door_count(const dg_prefab_set *set, int32_t index);
/* doors[i] (one per prefab of the set): its usable door cells if prefab i can
 * be a room (besides its doors only walls and void on its border, its inside
 * one walkable region), else 0. DG_E_NOMEM. */
dg_status dgi_template_rooms(const dg_prefab_set *set, const dg_allocator *a, int32_t *doors);
/* The usable door cells of prefab index in orientation o, at most max, in
 * the order of the prefab's rows; returns how many. */
int32_t dgi_template_doors(const dg_prefab_set *set, int32_t index, int32_t o, dgi_tdoor *out,
                           int32_t max);
/* The prefab's size in orientation o, and its distinct allowed orientations. */
void dgi_template_size(const dg_prefab_set *set, int32_t index, int32_t o, int32_t *w, int32_t *h);
int32_t dgi_template_orientations(const dg_prefab_set *set, int32_t index);
/* Walls every door cell of the prefab stamped in orientation o at (x0, y0)
 * (those no edge uses stay shut; the layout draws the used ones again). */
void dgi_template_wall_doors(const dg_prefab_set *set, int32_t index, int32_t o, dg_grid *g, int32_t x0,
                             int32_t y0);

#endif
