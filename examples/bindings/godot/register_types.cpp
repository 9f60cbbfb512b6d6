// The GDExtension entry point: registers DungeonMap at scene level.
#include "dungeon_map.h"

#include <gdextension_interface.h>
#include <godot_cpp/core/class_db.hpp>
#include <godot_cpp/core/defs.hpp>
#include <godot_cpp/godot.hpp>

using namespace godot;

static void initialize_dungeon(ModuleInitializationLevel level) {
    if (level == MODULE_INITIALIZATION_LEVEL_SCENE)
        GDREGISTER_CLASS(DungeonMap);
}

static void uninitialize_dungeon(ModuleInitializationLevel) {}

extern "C" GDExtensionBool GDE_EXPORT dungeon_library_init(GDExtensionInterfaceGetProcAddress get_proc_address,
                                                           GDExtensionClassLibraryPtr library,
                                                           GDExtensionInitialization *initialization) {
    GDExtensionBinding::InitObject init(get_proc_address, library, initialization);
    init.register_initializer(initialize_dungeon);
    init.register_terminator(uninitialize_dungeon);
    init.set_minimum_library_initialization_level(MODULE_INITIALIZATION_LEVEL_SCENE);
    return init.init();
}
