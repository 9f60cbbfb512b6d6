/* The infinite world's private state and what its files share, and its
 * registry entry around reserved cells. Private. */
#ifndef DG_WORLD_H
#define DG_WORLD_H

#include "core/core.h"

/* world.c, draw.c, explorer.c: the infinite world. */
typedef struct dgi_furnish_marker {
    int32_t x, y; /* interior offset */
    int32_t kind;
    char name[DG_NAME_MAX];
} dgi_furnish_marker;

struct dg_world {
    dg_allocator allocator;
    dg_world_params params;
    uint64_t key;                 /* mixes the seed into every room hash */
    int32_t size, period, mid;    /* interior size, size + 1, door offset size / 2 */
    uint32_t loop_below, fix_below, furnish_below; /* permilles as 16-bit roll thresholds */
    int32_t door_class[16];
    int32_t *difficulty;          /* the curve for distances 0..difficulty_len - 1 */
    int32_t difficulty_len;
    /* Furnishing atlas: slot = first_slot[prefab] + orientation * variants + variant. */
    int32_t prefab_count;
    int32_t *first_slot;          /* per prefab, -1 if not usable for this room size */
    int32_t slot_count;
    uint8_t *slot_ok;             /* 1 if the stamp keeps every door reachable */
    uint8_t *cells;               /* size * size interior tiles per slot */
    int32_t *marker_start;        /* slot_count + 1 offsets into markers */
    dgi_furnish_marker *markers;
    int32_t marker_total;
};

/* 1 if room (x, y) is in the world's range. */
int dgi_world_in_range(int64_t x, int64_t y);
/* DG_SIDE_* door mask of a room in range. */
int32_t dgi_world_doors(const dg_world *w, int64_t x, int64_t y);
/* Everything about a room in range whose door mask is known. */
void dgi_world_room_with(const dg_world *w, int64_t x, int64_t y, int32_t doors,
                         dg_world_room *room);
/* Door masks of the rooms [x0, x0 + cols) x [y0, y0 + rows), row-major, for
 * cols, rows <= DGI_WORLD_BLOCK: each room's hash is computed once. */
#define DGI_WORLD_BLOCK 32
void dgi_world_door_block(const dg_world *w, int64_t x0, int64_t y0, int32_t cols, int32_t rows,
                          uint8_t *doors);
/* Door masks that override the world's for rooms [rx0, rx0 + cols) x
 * [ry0, ry0 + rows), row-major; DGI_WORLD_LEFT_OUT: the room is not drawn
 * (rock; a full room keeps its two own walls) and has no markers. */
#define DGI_WORLD_LEFT_OUT 0x80
typedef struct dgi_world_override {
    int64_t rx0, ry0;
    int32_t cols, rows;
    const uint8_t *doors;
} dgi_world_override;
/* dg_world_render with door masks overridden (NULL: none). (draw.c) */
dg_status dgi_world_render(const dg_world *world, int64_t tx, int64_t ty, dg_grid *grid,
                           const dgi_world_override *over, dg_world_marker *markers,
                           int32_t capacity, int32_t *marker_count, dg_diag *diag);
/* Floor division, for tile -> room. */
int64_t dgi_floor_div(int64_t a, int64_t b);
/* furnish.c: stamps and checks every furnishing slot at creation
 * (DG_E_INVALID if the set has none of the room's size) ... */
dg_status dgi_world_build_atlas(dg_world *w, dg_diag *diag);
/* ... and fills a room's prefab, orientation, variant, marker_count from its
 * hash and doors. */
void dgi_world_furnish(const dg_world *w, uint64_t room_hash, dg_world_room *room);

/* world: the registry's window centred on room (0, 0); rooms and doors near
 * reserved cells are left out and the rest rejoined. (window.c) */
dg_status dgi_world_generate(dg_grid *grid, const dg_world_params *params, uint64_t seed,
                             const dg_prefab_set *prefabs, const dgi_mask *reserved,
                             dg_result *result, const dg_allocator *a, dg_diag *diag);

#endif
