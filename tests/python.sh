#!/bin/sh
# The C ABI from Python: the dungeon package of examples/bindings/python (ctypes) loads BUILD's
# libdungeon.so; struct layouts are compared with the C compiler's, and every
# generator's map is compared byte for byte with the dungeon tool's JSON.
B=${1:-build}
command -v python3 >/dev/null || { echo "python3 is missing"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# sizeof and offsetof of every struct the binding mirrors, as the C compiler sees them
cat >"$tmp/layout.c" <<'C'
#include <dungeon.h>
#include <stddef.h>
#include <stdio.h>
#define S(t) printf("%s size %zu\n", #t, sizeof(t));
#define F(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
int main(void)
{
    S(dg_grid) F(dg_grid, cells) F(dg_grid, stride)
    S(dg_room) F(dg_room, parent)
    S(dg_corridor) F(dg_corridor, from) F(dg_corridor, to)
    S(dg_door) S(dg_marker) F(dg_marker, name)
    S(dg_metrics) S(dg_allocator)
    S(dg_result) F(dg_result, markers) F(dg_result, start) F(dg_result, metrics)
    F(dg_result, allocator) F(dg_result, capacity_)
    S(dg_diag) F(dg_diag, message)
    S(dg_param_desc) F(dg_param_desc, type) F(dg_param_desc, offset)
    S(dg_generator_info) F(dg_generator_info, param_count) F(dg_generator_info, needs_prefabs)
    S(dg_recipe) F(dg_recipe, seed) F(dg_recipe, values) F(dg_recipe, prefabs_hash)
    F(dg_recipe, prefabs)
    S(dg_export_options) F(dg_export_options, tileset_image) F(dg_export_options, recipe)
    F(dg_export_options, terrain)
    S(dg_autotile_params) F(dg_autotile_params, classes) F(dg_autotile_params, spare)
    S(dg_attach_params) F(dg_attach_params, doors)
    S(dg_overlay) F(dg_overlay, cells) F(dg_overlay, blocked) F(dg_overlay, sight)
    S(dg_move) F(dg_move, neighbours) F(dg_move, overlay)
    S(dg_distance_info) F(dg_distance_info, farthest) S(dg_quality) F(dg_quality, parallel_cells)
    S(dg_graph_node) F(dg_graph_node, templates) S(dg_graph_edge) F(dg_graph_edge, secret)
    S(dg_graph) F(dg_graph, prefabs) F(dg_graph, allocator_) F(dg_graph, max_attempts) F(dg_graph, spare)
    S(dg_site) F(dg_site, anchors) F(dg_site, graph) F(dg_site, spare)
    return 0;
}
C
if ! ${CC:-cc} -std=c11 -Iinclude "$tmp/layout.c" -o "$tmp/layout" || ! "$tmp/layout" >"$tmp/layout.txt"; then
    echo "cannot build the layout probe"; echo "0 passed, 1 failed"; exit 1
fi
DUNGEON_LIB="$B/libdungeon.so" python3 tests/python/test_binding.py "$B" "$tmp/layout.txt" "$tmp"
