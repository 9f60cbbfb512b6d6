/* Private helpers shared by the library sources. Not installed. */
#ifndef DG_INTERNAL_H
#define DG_INTERNAL_H

#include "dungeon.h"

#include <stdarg.h>
#include <string.h>

#define DG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define DG_MAX(a, b) ((a) > (b) ? (a) : (b))
#define DG_CELL(g, x, y) ((g)->cells[(size_t)(y) * (size_t)(g)->stride + (size_t)(x)])

/* alloc.c: allocation through the optional hooks (NULL means malloc/free). */
void *dgi_alloc(const dg_allocator *a, size_t size);
void *dgi_calloc(const dg_allocator *a, size_t count, size_t size); /* zeroed, overflow-checked */
void dgi_free(const dg_allocator *a, void *ptr, size_t size);
/* Grows *array (element size elem) to hold at least need elements; doubles. */
dg_status dgi_grow(const dg_allocator *a, void **array, int32_t *capacity, int32_t need,
                   size_t elem);

/* status.c: fills an optional diagnostic and returns status. */
dg_status dgi_fail(dg_diag *diag, dg_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
dg_status dgi_fail_at(dg_diag *diag, dg_status status, int32_t line, int32_t column,
                      const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void dgi_diag_ok(dg_diag *diag);

/* grid.c: validates a grid and fills diag with the reason. */
dg_status dgi_grid_validate(const dg_grid *grid, dg_diag *diag);

/* result.c: appending to a result; each returns DG_E_NOMEM on failure. */
void dgi_result_reset(dg_result *r);
dg_status dgi_result_add_room(dg_result *r, const dg_room *room);
dg_status dgi_result_add_corridor(dg_result *r, const dg_corridor *corridor);
dg_status dgi_result_add_door(dg_result *r, const dg_door *door);
dg_status dgi_result_add_marker(dg_result *r, const dg_marker *marker);
/* Index of the room whose interior contains p, or -1 (linear scan). */
int32_t dgi_result_room_at(const dg_result *r, dg_point p);
/* Fills start/exit (start = centre of start_room or first passable cell if
 * start_room < 0; exit = farthest by 4-way walking), exit_room and the
 * grid-derived metrics (cells, floor, dead ends, regions). */
dg_status dgi_result_finish(dg_result *r, const dg_grid *grid, int32_t start_room,
                            const dg_allocator *a);

/* analyze_core.c: breadth-first distances over passable cells (4-way).
 * dist has width*height entries (row-major, no stride), -1 = unreachable.
 * queue has width*height entries. Returns the farthest reached cell index. */
int32_t dgi_bfs(const dg_grid *grid, int32_t start_index, int32_t *dist, int32_t *queue);
/* Labels 4-connected passable regions 0..n-1 (-1 elsewhere) and returns n;
 * label and queue have width*height entries. */
int32_t dgi_label_regions(const dg_grid *grid, int32_t *label, int32_t *queue);
/* Passable cells with exactly one passable 4-neighbour. */
int32_t dgi_count_dead_ends(const dg_grid *grid);

#endif
