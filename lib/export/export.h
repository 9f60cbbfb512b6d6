/* The writers behind dg_export (json.c, tiled.c) and the names they share
 * (names.c). Private. */
#ifndef DG_EXPORT_H
#define DG_EXPORT_H

#include "core/textout.h"

/* json.c, tiled.c: the writers behind dg_export (inputs already checked). */
void dgi_export_json(const dg_grid *g, const dg_result *r, const dg_export_options *opt,
                     dgi_out *o);
void dgi_export_tiled(const dg_grid *grid, const dg_result *result, const dg_export_options *o,
                      dgi_out *out);
/* The same for a stacked dungeon: a tile and an object layer per floor. */
void dgi_export_tiled_floors(const dg_grid *grids, const dg_result *results, int32_t floors,
                             const dg_export_options *o, dgi_out *out);
/* tiled_art.c: with dg_export_options.terrain, the art tileset with its
 * Wang sets (after the swatch tileset) and floor k's ground and art layers. */
#define DGI_ART_PATH_MAX 1000 /* the longest tileset_image with terrain */
void dgi_tiled_art_tileset(dgi_out *o, int json, const dg_export_options *opt);
void dgi_tiled_art_layers(dgi_out *o, int json, const dg_grid *g, int64_t first_id, int visible,
                          int32_t floor, int stacked);
/* names.c: stable lower-case names of DG_ROOM_*, DG_MARKER_* and DG_REF_* ("other" if unknown). */
const char *dgi_room_kind_name(int32_t kind);
const char *dgi_room_shape_name(int32_t shape);
const char *dgi_marker_kind_name(int32_t kind);
/* The floor a stairs tile at p leads to, from a stairs marker named "floor N"
 * on it (dg_floor_generate), or -1. */
int32_t dgi_stairs_link(const dg_result *r, dg_point p, uint8_t tile);
const char *dgi_ref_kind_name(int32_t kind);
/* Room i's label (role, level-graph node), or NULL when the result has none:
 * labels count only when there is one per room. */
const dg_room_label *dgi_room_label(const dg_result *r, int32_t i);
/* Whether corridor i has an edge entry (one per corridor), stored in *edge. */
int dgi_corridor_edge(const dg_result *r, int32_t i, int32_t *edge);
/* A spawn (dg_populate) is a marker with a kind word; its footprint side is
 * size, 0 meaning 1. */
int dgi_marker_is_spawn(const dg_marker *m);
int32_t dgi_marker_side(const dg_marker *m);

#endif
