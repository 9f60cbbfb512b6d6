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

#endif
