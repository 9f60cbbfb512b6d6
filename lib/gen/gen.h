/* The generators' entries around reserved cells (dg_site), for the registry
 * and sites above them. Private. Every dgi_ entry takes a grid its caller has
 * validated (the public dg_ entry, or the recipe that runs it): a grid is
 * checked once per public call. */
#ifndef DG_GEN_H
#define DG_GEN_H

#include "core/core.h"

/* Generators around reserved cells (NULL: none, as their public entry). */
dg_status dgi_cave_generate(dg_grid *grid, const dg_cave_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag); /* cave.c */
dg_status dgi_walk_generate(dg_grid *grid, const dg_walk_params *params, uint64_t seed,
                                const dgi_mask *reserved, dg_result *result,
                                const dg_allocator *allocator, dg_diag *diag); /* walk.c */
dg_status dgi_maze_generate(dg_grid *grid, const dg_maze_params *params, uint64_t seed,
                            const dgi_mask *reserved, dg_result *result,
                            const dg_allocator *allocator, dg_diag *diag); /* maze.c */
/* Generators around reserved cells (NULL: none, the public call's output). */
dg_status dgi_bsp_generate(dg_grid *grid, const dg_bsp_params *params, uint64_t seed,
                           const dgi_mask *reserved, dg_result *result,
                           const dg_allocator *allocator, dg_diag *diag); /* leaves beside them, searched joins */
dg_status dgi_scatter_generate(dg_grid *grid, const dg_scatter_params *params, uint64_t seed,
                               const dgi_mask *reserved, dg_result *result,
                               const dg_allocator *allocator, dg_diag *diag); /* rooms and routes off them */
dg_status dgi_chain_generate(dg_grid *grid, const dg_chain_params *params, uint64_t seed,
                             const dgi_mask *reserved, dg_result *result,
                             const dg_allocator *allocator, dg_diag *diag); /* steps and loops off them */
/* Generators run around reserved cells (NULL: none), as their dg_*_generate otherwise. */
/* attach.c: rooms and corridors grow around them; the first room moves off them. */
dg_status dgi_attach_generate(dg_grid *grid, const dg_attach_params *params, uint64_t seed,
                              const dgi_mask *reserved, dg_result *result,
                              const dg_allocator *allocator, dg_diag *diag);

/* shape.c: room shapes (DG_SHAPE_*) inside a w x h interior rectangle, as
 * row spans; every shape keeps the middle row (h / 2) and column (w / 2). */
#define DGI_SHAPE_KINDS 7
typedef struct dgi_shape {
    int32_t kind, w, h;
    int32_t notch_w[4], notch_h[4]; /* cut corners NW, NE, SE, SW (cross, chunky) */
    uint32_t bits;                  /* the shape's own random bits (cavern, pillars) */
} dgi_shape;
int dgi_shape_fits(int32_t kind, int32_t w, int32_t h);   /* 1: kind can be drawn in w x h */
void dgi_shape_rect(dgi_shape *s, int32_t w, int32_t h); /* the plain rectangle */
/* Draws a shape for a w x h interior: a rectangle unless a draw below share_permille
 * picks one of the kinds in the mask (1u << DG_SHAPE_*) that fits w x h. */
void dgi_shape_pick(dgi_shape *s, int32_t w, int32_t h, uint32_t kinds, int32_t share_permille,
                    dg_rng *rng);
/* A chunky room at any size (corners cut inside the halves), for rooms too
 * small for dgi_shape_pick's kinds. */
void dgi_shape_chunky(dgi_shape *s, int32_t w, int32_t h, dg_rng *rng);
int dgi_shape_has(const dgi_shape *s, int32_t x, int32_t y); /* 1: interior cell (x, y) is floor */
/* Row y's floor span [lo, hi) (a pillared hall's pillars aside). */
void dgi_shape_row(const dgi_shape *s, int32_t y, int32_t *lo, int32_t *hi);
int32_t dgi_shape_cells(const dgi_shape *s);  /* floor cells */
int dgi_shape_manhattan(const dgi_shape *s); /* 1: walking inside is Manhattan distance */
/* reshape.c: room r's interior (all floor, its ring wall or openings) becomes
 * shape s plus a straight passage from each opening in to its floor; the
 * cells left out become wall beside floor, rock elsewhere. Returns the open cells. */
int32_t dgi_reshape_room(dg_grid *g, dg_rect r, const dgi_shape *s);

#endif
