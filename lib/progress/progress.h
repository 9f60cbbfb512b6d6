/* Progression over any generated map: anchors (anchor.c) and the solver
 * that lock.c shares (solve.c). Private. */
#ifndef DG_PROGRESS_H
#define DG_PROGRESS_H

#include "core/core.h"

/* dg_anchor_place that neither carves nor passes reserved cells. (anchor.c) */
dg_status dgi_anchor_place(dg_grid *grid, dg_result *result, const dg_point *anchors,
                           int32_t count, const dgi_mask *reserved,
                           const dg_allocator *allocator, dg_diag *diag);
/* dg_anchor_place on a grid its caller drops on error (a floor's own copy), so
 * without a copy; the grid is framed: stride width + 2 inside a buffer with a
 * frame of DG_TILE_VOID around. With exit_set the caller places the exit. */
dg_status dgi_anchor_place_own(dg_grid *grid, dg_result *result, const dg_point *anchors,
                               int32_t count, int exit_set, const dg_allocator *allocator,
                               dg_diag *diag);

/* What a site adds to dg_lock_place: reserved cells (NULL: none) and the
 * anchors, which stay in reach (no secret door hides one). */
typedef struct dgi_lock_site {
    const dgi_mask *reserved;
    const dg_point *anchors;
    int32_t anchor_count;
} dgi_lock_site;
/* dg_lock_place on a site (NULL: none) that leaves reserved cells exactly as
 * they are (lock.c): the placement reads them as rock, so no lock, secret door
 * or key lands on them, and a locked door among them is the caller's own, not
 * a sign that the map is locked already. DG_E_INVALID when the start or exit
 * is reserved. */
dg_status dgi_lock_place(dg_grid *grid, const dg_lock_params *params, uint64_t seed,
                         dg_result *result, dg_progress *progress, const dgi_lock_site *site,
                         const dg_allocator *allocator, dg_diag *diag);

/* solve_regions.c: dg_solve's search over regions and locked doors. */
/* Lock or key number N (1..DG_LOCKS_MAX) of a marker named "<word> N", else 0. */
int32_t dgi_progress_number(const dg_marker *m, const char *word);
/* dg_solve on checked input over regions and locked doors, in a scratch block
 * of `bytes`: 1 with p's solver fields filled, 0 (p untouched) when the block
 * is too small or the key order needs dgi_solve_run's cell search. */
int dgi_solve_regions(const dg_grid *g, const dg_result *r, void *block, size_t bytes,
                      dg_progress *p);

/* solve.c: the progression solver, shared with lock.c (which calls down into it). */
/* DG_OK if the result's start and exit are passable cells inside the grid. */
dg_status dgi_progress_check_ends(const dg_grid *g, const dg_result *r, dg_diag *diag);
/* dg_solve on checked input (the start open, not a locked or secret door), on
 * the tiles framed by dgi_frame_tiles, with caller scratch: parent and queue of
 * (width+2)*(height+2) int32, sets of as many uint32, tag of as many bytes. */
void dgi_solve_run(const uint8_t *tile, int32_t width, int32_t height, const dg_result *r,
                   int32_t *parent, int32_t *queue, uint32_t *sets, uint8_t *tag, dg_progress *p);
/* The grid's tiles into tile[] ((width+2)*(height+2)), framed by a ring of rock. */
void dgi_frame_tiles(const dg_grid *g, uint8_t *tile);

/* secret_rooms.c: dead-end rooms dg_lock_place hides behind secret doors. The
 * tiles are framed (pw per row, n cells, a closed ring around); start, exit,
 * keys and locked cells are framed cell numbers and stay in reach, as do the
 * anchors (grid points) and the result's stairs. */
typedef struct dgi_hide {
    const uint8_t *tile;
    int32_t pw, n, start, exit;
    const int32_t *keys, *locked; /* key cells (-1: none), locked cells */
    int32_t key_count, locked_count;
    const dg_point *anchors;
    int32_t anchor_count;
    const dg_result *result;      /* a hidden area starts inside one of its rooms */
    int32_t permille;             /* dg_lock_params.secret_permille */
    int32_t *secret, *secret_count; /* the secret doors so far; those hiding rooms are added */
} dgi_hide;
/* Adds the doors of the rooms it hides to secret[]: DG_OK, or DG_E_NOMEM. */
dg_status dgi_secret_rooms(const dgi_hide *h, dg_rng *rng, const dg_allocator *allocator);

#endif
