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
