/* Private state of the scattered-rooms generator (scatter*.c): the rooms,
 * corridors and doors made so far, the per-room arrays and the candidate
 * edges. scatter.c places the rooms, grows the tree and the loops and
 * finishes; scatter_edges.c finds the candidate edges (each room's nearest
 * rooms through a bucket grid), shortest first; scatter_corridors.c routes
 * and carves the corridor of an edge. */
#ifndef DG_SCATTER_STATE_H
#define DG_SCATTER_STATE_H

#include "gen/gen.h"

enum {
    SCATTER_RETRY_K = 16,        /* candidates per room on the second pass */
    SCATTER_BRUTE_ROOMS = 48     /* up to this many rooms, nearest rooms by a plain scan */
};

typedef struct scatter_edge {
    uint64_t key; /* squared distance between the doubled centres, shifted left by
                   * scatter_ctx.dshift with a and b below it when they fit (one compare) */
    int32_t a, b; /* rooms, a < b; while a packed key is sorted, a is the listing index */
} scatter_edge;

typedef struct scatter_ctx {
    const dg_scatter_params *p;
    const dg_allocator *a;
    uint8_t *map;             /* the tiles, w per row, copied to the grid at the end */
    uint64_t *occ;            /* one bit per cell under a room or its walls, ow words per row */
    size_t block;             /* bytes of the block holding occ and map */
    int32_t w, h, ow;
    int32_t x0, y0, x1, y1;   /* where corridor cells may go, inclusive */
    int32_t max_w, max_h;     /* room maxima capped to the board */
    dg_rng place, route, loop, shape;
    dg_room *rooms;          int32_t n, room_cap;
    dg_corridor *cors;       int32_t nc, cor_cap;
    dg_door *doors;          int32_t nd, door_cap;
    int32_t *knn;            int32_t k;     /* k nearest rooms of each room, -1 padded */
    int32_t *cx, *cy;        /* doubled room centres (2x + w, 2y + h) */
    scatter_edge *edges;          int32_t ne; /* candidates, shortest first */
    int32_t *order;          /* sorted index of each edge in listing order (bucket by bucket) */
    uint8_t *tree;           /* per sorted edge: 1 in the tree, 2 a loop */
    uint8_t *links;          size_t links_bytes; /* the block of the per-room arrays */
    int32_t ks;              /* stride of the candidate lists */
    int32_t dshift, rbits;   /* edge keys: distance << dshift | a << rbits | b; dshift 0: distance only */
    int32_t *uf;             /* union-find parents */
    int32_t *tree_a, *tree_b; int32_t nt; /* tree links (for the start room) */
    int32_t *head, *next;    int32_t bw, bh, bs, bw_alloc; /* bucket grid over room centres */
    int32_t requested, target, loops;
    int64_t work, budget, attempts, failures;
    const dgi_mask *reserved; /* NULL: none */
} scatter_ctx;

/* Grows the array s->field (cap entries) to need entries; returns the
 * status from the calling function if memory runs out. */
#define SCATTER_GROW(s, field, cap, need)                                               \
    do {                                                                                \
        void *arr_ = (s)->field;                                                        \
        dg_status st_ = dgi_grow((s)->a, &arr_, &(s)->cap, (need), sizeof *(s)->field); \
        (s)->field = arr_;                                                              \
        if (st_ != DG_OK)                                                               \
            return st_;                                                                 \
    } while (0)

/* A route: a door on each room, the cells outside them, and the corridor's
 * corner points from out_a to out_b (2 to 4 of them). */
typedef struct scatter_route {
    dg_point door_a, door_b;
    dg_point pt[4];
    int npt;
} scatter_route;

/* The tile at (x, y) of the scratch map. */
static inline uint8_t *dgi_scatter_at(const scatter_ctx *s, int32_t x, int32_t y)
{
    return &s->map[(size_t)y * (size_t)s->w + (size_t)x];
}

/* Squared distance between the doubled centres of rooms i and j. */
static inline int64_t dgi_scatter_dist2(const scatter_ctx *s, int32_t i, int32_t j)
{
    int64_t dx = (int64_t)s->cx[i] - s->cx[j], dy = (int64_t)s->cy[i] - s->cy[j];
    return dx * dx + dy * dy;
}

/* An edge's squared length (its key without the rooms packed under it). */
static inline int64_t dgi_scatter_edge_d(const scatter_ctx *s, const scatter_edge *e)
{
    return (int64_t)(e->key >> s->dshift);
}

/* scatter_edges.c: the doubled room centres from the rooms; the bucket grid
 * (rooms renumbered bucket by bucket); the candidate edges, k per room. */
void dgi_scatter_set_centres(scatter_ctx *s);
dg_status dgi_scatter_build_buckets(scatter_ctx *s);
dg_status dgi_scatter_build_edges(scatter_ctx *s, int32_t k);

/* scatter_corridors.c: the corridor between rooms ia and ib, door positions
 * drawn from rng (`draws` per shape): 1 with r filled if one fits; then
 * carved, with its corridor records and doors. */
int dgi_scatter_find_route(scatter_ctx *s, int32_t ia, int32_t ib, int draws, dg_rng *rng,
                           scatter_route *r);
dg_status dgi_scatter_carve_route(scatter_ctx *s, int32_t ia, int32_t ib,
                                  const scatter_route *r);

#endif
