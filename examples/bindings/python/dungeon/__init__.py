"""libdungeon from Python: seeded dungeon generators, map analysis, recipes
and exports, through ctypes (docs/bindings.md).

    import dungeon
    m = dungeon.attach(80, 50, seed=42, growth="newest")   # or dungeon.generate("attach", ...)
    print(m.ascii())
    path, cost = m.path(m.start, m.exit)
    m.save("map.tmx", tile_size=8)     # map.tmx and its tileset dungeon-tiles-8.png

Every registered generator has a typed function here ("prefab-full" is
prefab_full), built from the library's registry, so new generators and
parameters appear without a new release of this package. Bad input raises
DungeonError with the status name and the library's diagnostic.
"""
from ._core import *  # noqa: F401,F403  (the ctypes layer: structs and dg_* prototypes)
from ._core import C, lib, png_bytes, tileset_name  # noqa: F401
from ._api import (  # noqa: F401
    DungeonError, Dungeon, Graph, Map, Param, PrefabSet, from_recipe, generate,
    generator_functions, generator_params, generators, make_recipe, needs_graph, needs_prefabs,
    params_class, parse_recipe, recipe_text, recipe_values, tile_name, tileset_png, tileset_rgba, use_numpy, version,
    write_tileset)

globals().update(generator_functions())

__version__ = version()
