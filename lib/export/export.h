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
/* names.c: stable lower-case names of DG_ROOM_*, DG_MARKER_* and DG_REF_* ("other" if unknown). */
const char *dgi_room_kind_name(int32_t kind);
const char *dgi_room_shape_name(int32_t shape);
const char *dgi_marker_kind_name(int32_t kind);
/* The floor a stairs tile at p leads to, from a stairs marker named "floor N"
 * on it (dg_floor_generate), or -1. */
int32_t dgi_stairs_link(const dg_result *r, dg_point p, uint8_t tile);
const char *dgi_ref_kind_name(int32_t kind);

#endif
