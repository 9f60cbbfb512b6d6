/* The level-graph layout's private state, shared by its search (layout.c)
 * and its drawing and result (layout_result.c). Private. */
#ifndef DG_GRAPH_LAYOUT_STATE_H
#define DG_GRAPH_LAYOUT_STATE_H

#include "graph/graph.h"

typedef struct dgi_box { int32_t x0, y0, x1, y1; } dgi_box; /* interior cells, inclusive */

/* A corridor: up to three legs of cells and its two door runs (in the walls). */
typedef struct dgi_route {
    dgi_box leg[3];
    int32_t legs;
    dgi_box door[2];       /* door[0] in room a's wall, door[1] in room b's */
    int32_t a, b;      /* nodes, in the order of door[] */
    int32_t length;    /* cells along the way (cells / width) */
} dgi_route;

#define DGI_EXTRA_MAX 16 /* extra corridors at most (extra_connections) */
#define DGI_TEMPLATE_DOORS 32 /* door cells of one template room an edge may use */

/* Which footprints meet a square of the grid (bucket_index in layout.c): bit m
 * of rooms for placed room m, bit e of corr for edge e's corridor. */
typedef struct dgi_bucket { uint64_t rooms, corr[DG_GRAPH_EDGES_MAX / 64]; } dgi_bucket;
#define DGI_BUCKET_SIDE 32 /* buckets across and down at most */

typedef struct dgi_layout {
    const dg_graph *g;
    int32_t w, h, d, cw;
    dgi_box room[DG_GRAPH_NODES_MAX];
    uint8_t placed[DG_GRAPH_NODES_MAX];
    int32_t order[DG_GRAPH_NODES_MAX], parent_edge[DG_GRAPH_NODES_MAX];
    dgi_route corr[DG_GRAPH_EDGES_MAX];
    uint8_t has_corr[DG_GRAPH_EDGES_MAX];
    dgi_box door[DG_GRAPH_EDGES_MAX];  /* a door edge's door cell */
    dgi_route extra[DGI_EXTRA_MAX];    /* corridors no edge asked for (extra_connections) */
    int32_t extras;
    int32_t fails[DG_GRAPH_NODES_MAX];
    int32_t crowded[DG_GRAPH_NODES_MAX]; /* times a room waiting for this one alone found no place */
    int32_t rank[DG_GRAPH_NODES_MAX];  /* position in order */
    uint8_t on_cycle[DG_GRAPH_NODES_MAX];
    int32_t adj[DG_GRAPH_NODES_MAX][DG_GRAPH_DEGREE_MAX]; /* edges at each node, in edge order */
    int32_t deg[DG_GRAPH_NODES_MAX];
    dg_rng rng;
    /* template nodes: the prefabs each may be (tpl_first[n], tpl_count[n]
     * entries of tpl_list; count 0: a rectangle node), and the one a placed
     * node is, in orientation tpl_orient, its room box the prefab's inside
     * and its usable door cells tdoor */
    const int32_t *tpl_list;
    int32_t tpl_first[DG_GRAPH_NODES_MAX], tpl_count[DG_GRAPH_NODES_MAX];
    int32_t tpl[DG_GRAPH_NODES_MAX], tpl_orient[DG_GRAPH_NODES_MAX];
    dgi_tdoor (*tdoor)[DGI_TEMPLATE_DOORS]; /* per node; allocated only for a graph with templates */
    int32_t tdoors[DG_GRAPH_NODES_MAX];
    /* the door cells of each prefab a node may be, in each orientation, found
     * once per call: row tpl_row[prefab] (-1: no node may be it), entry
     * row * 8 + orientation of tdoor_cache, tdoor_found of them (-1: not yet) */
    int32_t *tpl_row, *tdoor_found;
    dgi_tdoor (*tdoor_cache)[DGI_TEMPLATE_DOORS];
    uint64_t seed;
    dgi_bucket *bucket;        /* bcols x brows, each 1 << bshift cells square; NULL: not indexed */
    int32_t bshift, bcols, brows;
    int look_near; /* room_place also looks ahead for the rooms next to the one placed */
    int thorough;  /* an attempt after FAST_ATTEMPTS: ties' sides picked, waiting rooms placed
                      together, a failed room's neighbours moved (layout.c) */
    uint64_t rooms_placed, corr_placed[DG_GRAPH_EDGES_MAX / 64]; /* placed[] and has_corr[] as bits */
    int64_t work, work_max; /* places and routes tested so far (a route counts ROUTE_WORK), and
                               the most a search may test (layout.c) */
} dgi_layout;

static inline int layout_is_template(const dgi_layout *L, int32_t n) { return L->tpl_count[n] > 0; }
/* Door cell k of template node n on the grid. */
static inline dg_point layout_tdoor_at(const dgi_layout *L, int32_t n, int32_t k)
{
    return (dg_point){L->room[n].x0 - 1 + L->tdoor[n][k].x, L->room[n].y0 - 1 + L->tdoor[n][k].y};
}

static inline int32_t layout_other_end(const dg_graph_edge *e, int32_t n) { return e->a == n ? e->b : e->a; }
static inline int32_t layout_imin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t layout_imax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t layout_draw(dgi_layout *L, int32_t lo, int32_t hi)
{
    return dgi_rng_range(&L->rng, lo, hi);
}
static inline dgi_box layout_grow(dgi_box q, int32_t k) { return (dgi_box){q.x0 - k, q.y0 - k, q.x1 + k, q.y1 + k}; }

/* 1 if every room, corridor and door of a finished layout, walls included,
 * lies on g: the search keeps them there, and a call whose layout broke
 * that fails instead of drawing out of bounds. */
int dgi_layout_on_grid(const dgi_layout *L, const dg_grid *g);
/* Draws the rooms, corridors and doors of a finished layout on g (all void);
 * a template's random glyphs may fail to resolve (DG_E_LIMIT, DG_E_NOMEM). */
dg_status dgi_layout_draw(const dgi_layout *L, dg_grid *g, const dg_allocator *a);
/* Fills r from a finished layout drawn on g: rooms with labels, corridors
 * with their edges, doors, locks and keys, start and exit. */
dg_status dgi_layout_result(dgi_layout *L, dg_result *r, const dg_grid *g, const dg_allocator *a);

#endif
