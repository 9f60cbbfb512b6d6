/* The level-graph layout's private state, shared by its search (layout.c
 * and the files below it, listed at "the search") and its drawing and
 * result (layout_result.c). Private. */
#ifndef DG_GRAPH_LAYOUT_STATE_H
#define DG_GRAPH_LAYOUT_STATE_H

#include "graph/graph.h"

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

/* Which footprints meet a square of the grid (layout_space.c): bit m
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
    uint64_t neighbours[DG_GRAPH_NODES_MAX]; /* bit m of neighbours[n]: an edge joins n and m */
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
    int look_near; /* a room's place also looks ahead for the rooms next to it (layout_place.c) */
    int thorough;  /* an attempt after FAST_ATTEMPTS: ties' sides picked, waiting rooms placed
                      together, a failed room's neighbours moved (layout_repair.c) */
    uint64_t rooms_placed, corr_placed[DG_GRAPH_EDGES_MAX / 64]; /* placed[] and has_corr[] as bits */
    int64_t work, work_max; /* places and routes tested so far (a route counts ROUTE_WORK,
                               layout_route.c), and the most a search may test */
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

/* ---- the search ----------------------------------------------------------
 * In files that each call only the ones after them: layout.c (the call, the
 * order, the attempts), layout_repair.c, layout_place.c, layout_room.c,
 * layout_route.c, layout_space.c. */

/* Grows all to cover q too. */
static inline void layout_extend(dgi_box *all, dgi_box q)
{
    *all = (dgi_box){layout_imin(all->x0, q.x0), layout_imin(all->y0, q.y0), layout_imax(all->x1, q.x1),
                     layout_imax(all->y1, q.y1)};
}
/* 1 if q and its walls lie inside the grid. */
static inline int layout_inside(const dgi_layout *L, dgi_box q)
{
    return q.x0 >= 1 && q.y0 >= 1 && q.x1 <= L->w - 2 && q.y1 <= L->h - 2 && q.x0 <= q.x1 && q.y0 <= q.y1;
}

/* How a draw ties a room to its placed neighbours besides the door edges
 * (which always share a wall): the edge it was reached by as a straight
 * corridor, every corridor edge straight, or the parent only nearby
 * (routed after). */
enum { LAYOUT_TIE_PARENT, LAYOUT_TIE_ALL, LAYOUT_TIE_LOOSE, LAYOUT_TIE_MODES };

/* layout_repair.c: a room that found no place moves its neighbours, or takes
 * a room in its way off with its branch */
int dgi_layout_nudge_place(dgi_layout *L, int32_t n, int32_t *path_budget);
int dgi_layout_evict_place(dgi_layout *L, int32_t n);
/* layout_place.c: a room's place chosen among its candidates */
int dgi_layout_room_place(dgi_layout *L, int32_t n);
int dgi_layout_waits_for_only(const dgi_layout *L, int32_t c, int32_t m);
/* layout_room.c: one candidate drawn, checked and marked, or scanned for */
int dgi_layout_room_try(dgi_layout *L, int32_t n, int mode, dgi_box *q, dgi_route *tied, int32_t *tied_edge,
                        int32_t *ntied);
int dgi_layout_room_scan(dgi_layout *L, int32_t n);
void dgi_layout_take_back(dgi_layout *L, int32_t n, const int32_t *tied_edge, int32_t ntied);
void dgi_layout_room_remove(dgi_layout *L, int32_t n);
int32_t dgi_layout_room_min(const dgi_layout *L, int32_t n, int32_t smin, int32_t smax);
/* layout_route.c: corridors */
int dgi_layout_route_close(dgi_layout *L, int32_t e);
int dgi_layout_route_straight(const dgi_layout *L, int32_t pn, int32_t qn, int side, int32_t at,
                              dgi_route *r);
int dgi_layout_route_fits(dgi_layout *L, const dgi_route *r, int32_t e);
/* layout_space.c: the footprints and their index, template door cells */
void dgi_layout_bucket_reset(dgi_layout *L);
void dgi_layout_room_set(dgi_layout *L, int32_t n, int on);
void dgi_layout_corr_set(dgi_layout *L, int32_t e, const dgi_route *r);
void dgi_layout_corr_clear(dgi_layout *L, int32_t e);
uint64_t dgi_layout_rooms_near(const dgi_layout *L, dgi_box q);
int dgi_layout_corridors_meet(const dgi_layout *L, dgi_box q, int32_t skip);
int dgi_layout_template_pick(dgi_layout *L, int32_t n);
int32_t dgi_layout_free_door(dgi_layout *L, int32_t n, int sides, int32_t skip);
int32_t dgi_layout_door_coord(const dgi_layout *L, int32_t n, int32_t k);
int32_t dgi_layout_attach_coord(dgi_layout *L, int32_t n, int sides, int32_t lo, int32_t hi, int32_t skip);
int dgi_layout_at_door_cell(const dgi_layout *L, int32_t n, dgi_box q);

/* ---- the drawing and the result (layout_result.c) ------------------------ */

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
