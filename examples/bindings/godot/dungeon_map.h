// DungeonMap: libdungeon as a Godot 4 node (GDExtension, godot-cpp).
// generate("attach seed=42 width=80 height=50") fills the map; cells()
// returns the tiles as a PackedByteArray (row-major, width per row), which
// GDScript draws or feeds to a TileMapLayer. Errors go to the Godot log and
// last_error(). Not compile-tested in the libdungeon repository (godot-cpp is
// not packaged in Debian): see docs/bindings.md.
#pragma once

#include <godot_cpp/classes/node.hpp>
#include <godot_cpp/variant/packed_byte_array.hpp>
#include <godot_cpp/variant/string.hpp>
#include <godot_cpp/variant/vector2i.hpp>

namespace godot {

class DungeonMap : public Node {
    GDCLASS(DungeonMap, Node)

public:
    // Runs a recipe line; false (and last_error()) on bad input.
    bool generate(const String &recipe, const String &prefab_file);
    PackedByteArray cells() const { return cells_; }
    int32_t width() const { return width_; }
    int32_t height() const { return height_; }
    Vector2i start() const { return start_; }
    Vector2i exit() const { return exit_; }
    // The recipe as the library prints it (every parameter written out).
    String recipe() const { return recipe_; }
    String last_error() const { return error_; }

protected:
    static void _bind_methods();

private:
    PackedByteArray cells_;
    int32_t width_ = 0, height_ = 0;
    Vector2i start_, exit_;
    String recipe_, error_;
};

} // namespace godot
