/* What the content layer (room roles, lib/content/roles*.c) shares between its
 * files. Private. */
#ifndef DG_CONTENT_H
#define DG_CONTENT_H

#include "analysis/analysis.h"

/* roles_rule.c: DG_OK if rule i of a table is valid (the name, every range
 * and enum, spare 0), else DG_E_INVALID naming the rule and field; the
 * message is prefixed with `where` when not NULL ("file:line:col: "). */
dg_status dgi_role_rule_check(const dg_role_rule *rule, int32_t i, const char *where,
                              dg_diag *diag);
/* 1 if name is a valid role name (1..DG_NAME_MAX-1 of letters, digits, _ - .). */
int dgi_role_name_ok(const char *name, size_t length);

/* roles_facts.c: what dg_roles knows of each room of a map. */
enum { /* dgi_room_facts.flags */
    DGI_RF_REACHABLE = 1, /* some open cell of it is reachable from the start */
    DGI_RF_ROUTE = 2,     /* some cell lies on a shortest start-exit walk */
    DGI_RF_LOCK = 4,      /* unreachable with locked doors shut */
    DGI_RF_SECRET = 8,    /* unreachable with secret doors shut */
    DGI_RF_SHUT = 16,     /* unreachable with both shut */
    DGI_RF_START = 32,    /* holds result->start */
    DGI_RF_EXIT = 64,     /* holds result->exit */
    DGI_RF_KEY = 128,     /* holds a key marker */
    DGI_RF_WHOLE = 256    /* its open cells are every cell of its rect (clipped to the grid) */
};
/* In dgi_room_facts_fill's `asked`: the facts measured the long way, with an
 * owner map, the caves' cells flooded and every room read cell by cell
 * (tests compare the two ways). */
#define DGI_FACTS_BY_CELLS (1 << 16)
typedef struct dgi_room_facts {
    int32_t distance;  /* walking steps from the start to its nearest open cell, -1 unreachable */
    int32_t rank;      /* permille among reachable rooms (0 nearest, 1000 farthest) */
    int32_t area;      /* open cells it owns */
    int32_t entrances; /* distinct openings on its boundary */
    int32_t flags;     /* DGI_RF_* */
} dgi_room_facts;
/* Fills facts[room_count] for a map whose start is a passable cell of the
 * grid; *reachable gets the rooms reachable from the start. walk: the
 * start's walking distances over dgi_passable_default (dgi_walk_from: -1 open
 * and not reached, -2 shut), or NULL to measure them here. Of the flags
 * DGI_RF_ROUTE, _LOCK, _SECRET and _SHUT only those in `asked` are measured
 * (the others stay 0: no rule reads them). DG_E_NOMEM. */
dg_status dgi_room_facts_fill(const dg_grid *grid, const dg_result *result,
                              const int32_t *walk, dgi_room_facts *facts, int32_t asked, int32_t *reachable,
                              const dg_allocator *allocator);

/* roles_cells.c: the rooms' cells, the open cells of a room (packed,
 * DGI_PACK) listed at cells[first[k] .. first[k + 1]), and where they fill a
 * rectangle that rect in fill[k] (w 0 where they fill none); with an owner
 * map every room's are listed, without one (the rooms' rects apart, every
 * room's cells filling its rect or none) none are. owner: the owner map, NULL
 * without one. */
typedef struct dgi_room_cells {
    int32_t *cells, *first, *area; /* area[k]: the open cells room k owns */
    dg_rect *fill, *clip;          /* clip[k]: room k's rect clipped to the grid */
    const int32_t *owner;
    uint8_t open[256]; /* the tiles a room can own */
} dgi_room_cells;
/* Fills rc (its planes given: cells of width*height, first of rooms + 1,
 * area, fill and clip of rooms). Scratch: owner and queue of width*height
 * int32 (queue twice that), marks of the larger of 2*width*height and
 * (width + 2)*(height + 2) bytes, counts of rooms. by_cells: the owner map
 * and the caves flooded, whatever the map (DGI_FACTS_BY_CELLS). */
void dgi_room_cells_list(const dg_grid *g, const dg_result *r, dgi_room_cells *rc, int32_t *owner,
                         int32_t *queue, uint8_t *marks, int32_t *counts, int by_cells);
/* The room that owns cell p (on the grid), else -1. */
int32_t dgi_room_owner_at(const dg_grid *g, const dg_result *r, const dgi_room_cells *rc,
                          dg_point p);

/* What room_dist holds for a room whose distance population measures itself. */
#define DGI_DIST_UNKNOWN INT32_MIN

/* roles.c: dg_roles, with the start's walk measured already (walk as for
 * dgi_room_facts_fill, or NULL). room_dist (NULL: not asked) gets per room
 * the walking distance population reads off its rect (the least over the
 * rect's cells, -1 none reached) where the room's cells are its whole rect,
 * the nearest of them being its distance; DGI_DIST_UNKNOWN elsewhere. */
dg_status dgi_roles_run(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                        uint64_t seed, dg_result *result, dg_role_report *report,
                        const int32_t *walk, int32_t *room_dist, const dg_allocator *allocator,
                        dg_diag *diag);

/* populate.c: dg_populate, with the start's walk over the params' passable
 * tiles measured already (dgi_walk_from's distances, or NULL), the rooms'
 * distances read off that walk where known (dgi_roles_run's room_dist, or
 * NULL), and a width*height scratch of int32 for its queue (or NULL: its own). */
dg_status dgi_populate_run(const dg_grid *grid, const dg_spawn_table *table,
                           const dg_populate_params *params, uint64_t seed, dg_result *result,
                           dg_populate_stats *stats, const int32_t *walk,
                           const int32_t *room_dist, int32_t *queue,
                           const dg_allocator *allocator, dg_diag *diag);

#endif
