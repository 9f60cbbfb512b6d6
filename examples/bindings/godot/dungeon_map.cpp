// DungeonMap (dungeon_map.h): generation through dg_recipe_parse and
// dg_recipe_generate, so every registered generator works by name.
#include "dungeon_map.h"

#include <dungeon.h>

#include <godot_cpp/core/class_db.hpp>
#include <godot_cpp/variant/utility_functions.hpp>

using namespace godot;

namespace {
// The status name and the library's diagnostic, as the other bindings report them.
String describe(dg_status status, const dg_diag &diag) {
    return String(dg_status_str(status)) + ": " + String::utf8(diag.message);
}
} // namespace

bool DungeonMap::generate(const String &recipe_line, const String &prefab_file) {
    CharString text = recipe_line.utf8();
    dg_recipe recipe;
    dg_diag diag = {};
    dg_status st = dg_recipe_parse(text.get_data(), (size_t)text.length(), &recipe, &diag);
    dg_prefab_set *set = nullptr;
    if (st == DG_OK && !prefab_file.is_empty()) {
        CharString path = prefab_file.utf8();
        st = dg_prefab_load(path.get_data(), nullptr, nullptr, nullptr, &set, &diag);
        if (st == DG_OK && recipe.prefabs_hash == 0)
            st = dg_recipe_set_prefabs(&recipe, set, nullptr, &diag);
    }
    PackedByteArray cells;
    dg_result result;
    dg_result_init(&result, nullptr);
    if (st == DG_OK) {
        cells.resize((int64_t)recipe.width * recipe.height);
        dg_grid grid;
        st = dg_grid_init(&grid, cells.ptrw(), recipe.width, recipe.height, 0);
        if (st == DG_OK)
            st = dg_recipe_generate(&recipe, &grid, set, &result, nullptr, &diag);
    }
    if (st == DG_OK) {
        cells_ = cells;
        width_ = recipe.width;
        height_ = recipe.height;
        start_ = Vector2i(result.start.x, result.start.y);
        exit_ = Vector2i(result.exit.x, result.exit.y);
        char line[2048];
        recipe_ = dg_recipe_print(&recipe, line, sizeof line, nullptr) == DG_OK ? String(line) : String();
        error_ = String();
    } else {
        error_ = describe(st, diag);
        UtilityFunctions::push_error("libdungeon: ", error_);
    }
    dg_result_free(&result);
    dg_prefab_set_free(set);
    return st == DG_OK;
}

void DungeonMap::_bind_methods() {
    ClassDB::bind_method(D_METHOD("generate", "recipe", "prefab_file"), &DungeonMap::generate, DEFVAL(String()));
    ClassDB::bind_method(D_METHOD("cells"), &DungeonMap::cells);
    ClassDB::bind_method(D_METHOD("width"), &DungeonMap::width);
    ClassDB::bind_method(D_METHOD("height"), &DungeonMap::height);
    ClassDB::bind_method(D_METHOD("start"), &DungeonMap::start);
    ClassDB::bind_method(D_METHOD("exit"), &DungeonMap::exit);
    ClassDB::bind_method(D_METHOD("recipe"), &DungeonMap::recipe);
    ClassDB::bind_method(D_METHOD("last_error"), &DungeonMap::last_error);
}
