/* Level graphs: what the graph folder offers to the folders above (the
 * checked graph, its start node and the order its locks open in), on top of
 * progress, prefabs and the core. Private (not installed). */
#ifndef DG_GRAPH_H
#define DG_GRAPH_H

#include "progress/progress.h"

/* The largest interior side a rectangular node may ask for. */
#define DGI_GRAPH_ROOM_MAX 256
/* The longest corridor an edge may ask for. */
#define DGI_GRAPH_CORRIDOR_MAX 256

/* The node the player starts in: the one whose role is "start", else node 0. */
int32_t dgi_graph_start_node(const dg_graph *graph);
/* Number of edges at node n. */
int32_t dgi_graph_degree(const dg_graph *graph, int32_t n);
/* 1 if prefab index i of graph->prefabs is a template of node (its name or one
 * of its tags equals node->templates). */
int dgi_graph_template_matches(const dg_graph *graph, const dg_graph_node *node, int32_t i);

#endif
