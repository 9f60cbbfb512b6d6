"""The ctypes layer of the dungeon package: struct mirrors and prototypes.

The structs mirror include/dungeon.h field for field (tests/python.sh compares
their sizes and offsets with the C compiler's) and every function declares its
argument and return types. The friendly layer is dungeon/_api.py.

Memory rules (the same in every language): the grid's cells are owned by the
caller (a ctypes buffer inside Map); a dg_result's arrays belong to the library
and are released with dg_result_free (Map copies what it needs and frees them
at once); every string the library returns is static; callbacks are called
only during the call they are passed to, on the calling thread.

The library is found through $DUNGEON_LIB, then the copy the wheel bundles
beside this file, then the repository's build/libdungeon.so, then the system
(libdungeon.so.0.18, the ABI this package is written for).
"""
import ctypes as C
import os
import struct
import zlib

# ---- loading ------------------------------------------------------------------
def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    tries = [os.environ.get("DUNGEON_LIB"),
             os.path.join(here, "libdungeon.so"),
             os.path.join(here, "..", "..", "..", "..", "build", "libdungeon.so"),
             "libdungeon.so.0.18", "libdungeon.so"]
    errors = []
    for path in tries:
        if not path:
            continue
        try:
            return C.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise OSError("libdungeon not found (set DUNGEON_LIB): " + "; ".join(errors))

lib = _load()

# ---- constants (values fixed by the header) ---------------------------------------
DG_OK = 0
DG_E_BUFFER = -9
DG_NAME_MAX = 32
DG_DIAG_MESSAGE_MAX = 256
DG_RECIPE_MAX_PARAMS = 32
DG_RECIPE_PREFABS_MAX = 56
DG_RECIPE_INPUTS = 3
DG_ROLES_MAX = 32
DG_SPARE_SLOTS = 8  # spare int32 slots ending every growable struct (docs/abi.md)
DG_EXPORT_JSON, DG_EXPORT_TMJ, DG_EXPORT_TMX = 0, 1, 2
DG_PARAM_INT, DG_PARAM_BOOL, DG_PARAM_ENUM = 0, 1, 2
DG_TILESET_COLUMNS = 16
FORMATS = {"json": DG_EXPORT_JSON, "tmj": DG_EXPORT_TMJ, "tmx": DG_EXPORT_TMX}

# ---- structs ------------------------------------------------------------------------
class Grid(C.Structure):
    _fields_ = [("cells", C.POINTER(C.c_uint8)), ("width", C.c_int32),
                ("height", C.c_int32), ("stride", C.c_int32)]

class Point(C.Structure):
    _fields_ = [("x", C.c_int32), ("y", C.c_int32)]

class Rect(C.Structure):
    _fields_ = [("x", C.c_int32), ("y", C.c_int32), ("w", C.c_int32), ("h", C.c_int32)]

class Ref(C.Structure):
    _fields_ = [("kind", C.c_int32), ("index", C.c_int32)]

class Room(C.Structure):
    _fields_ = [("rect", Rect), ("kind", C.c_int32), ("prefab", C.c_int32),
                ("orientation", C.c_int32), ("parent", C.c_int32), ("cells", C.c_int32),
                ("shape", C.c_int32)]

class Corridor(C.Structure):
    _fields_ = [("start", Point), ("bend", Point), ("end", Point), ("length", C.c_int32),
                ("from_", Ref), ("to", Ref)]

class Door(C.Structure):
    _fields_ = [("pos", Point), ("a", Ref), ("b", Ref)]

class Marker(C.Structure):
    _fields_ = [("pos", Point), ("kind", C.c_int32), ("room", C.c_int32),
                ("name", C.c_char * DG_NAME_MAX), ("number", C.c_int32), ("size", C.c_int32),
                ("cost", C.c_int32), ("type", C.c_char * DG_NAME_MAX)]

class RoomLabel(C.Structure):
    _fields_ = [("role", C.c_char * DG_NAME_MAX), ("name", C.c_char * DG_NAME_MAX),
                ("node", C.c_int32)]

class Metrics(C.Structure):
    _fields_ = [(n, C.c_int32) for n in (
        "cells", "floor_cells", "floor_permille", "rooms", "corridors", "doors", "dead_ends",
        "loops", "regions", "attempts", "failures", "stopped_early", "requested", "placed",
        "overlaps", "chokepoints", "diameter")] + [("spare", C.c_int32 * DG_SPARE_SLOTS)]

ALLOC_FN = C.CFUNCTYPE(C.c_void_p, C.c_void_p, C.c_size_t)
FREE_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_void_p, C.c_size_t)

class Allocator(C.Structure):
    _fields_ = [("alloc", ALLOC_FN), ("free", FREE_FN), ("user", C.c_void_p)]

class Result(C.Structure):
    _fields_ = [("rooms", C.POINTER(Room)), ("room_count", C.c_int32),
                ("corridors", C.POINTER(Corridor)), ("corridor_count", C.c_int32),
                ("doors", C.POINTER(Door)), ("door_count", C.c_int32),
                ("markers", C.POINTER(Marker)), ("marker_count", C.c_int32),
                ("start", Point), ("exit", Point), ("start_room", C.c_int32),
                ("exit_room", C.c_int32), ("metrics", Metrics),
                ("labels", C.POINTER(RoomLabel)), ("label_count", C.c_int32),
                ("corridor_edges", C.POINTER(C.c_int32)), ("corridor_edge_count", C.c_int32),
                ("allocator", Allocator),
                ("capacity_", C.c_int32 * 6), ("spare", C.c_int32 * DG_SPARE_SLOTS)]

class GraphNode(C.Structure):
    _fields_ = [("name", C.c_char * DG_NAME_MAX), ("role", C.c_char * DG_NAME_MAX)] + [
        (n, C.c_int32) for n in ("width_min", "width_max", "height_min", "height_max")] + [
        ("templates", C.c_char * DG_NAME_MAX)]

class GraphEdge(C.Structure):
    _fields_ = [(n, C.c_int32) for n in (
        "a", "b", "kind", "length_min", "length_max", "lock", "key_node", "secret")]

class Graph(C.Structure):
    _fields_ = [("nodes", C.POINTER(GraphNode)), ("node_count", C.c_int32),
                ("edges", C.POINTER(GraphEdge)), ("edge_count", C.c_int32),
                ("room_distance", C.c_int32), ("corridor_width", C.c_int32),
                ("extra_connections", C.c_int32), ("prefabs", C.c_void_p),
                ("allocator_", Allocator), ("capacity_", C.c_int32 * 2),
                ("max_attempts", C.c_int32), ("spare", C.c_int32 * (DG_SPARE_SLOTS - 1))]

class Site(C.Structure):
    _fields_ = [("reserved", C.POINTER(C.c_uint8)), ("reserved_stride", C.c_int32),
                ("anchor_count", C.c_int32), ("anchors", Point * 9),
                ("graph", C.POINTER(Graph)), ("spare", C.c_int32 * DG_SPARE_SLOTS)]

class Diag(C.Structure):
    _fields_ = [("status", C.c_int32), ("line", C.c_int32), ("column", C.c_int32),
                ("message", C.c_char * DG_DIAG_MESSAGE_MAX)]

class ParamDesc(C.Structure):
    _fields_ = [("name", C.c_char_p), ("help", C.c_char_p), ("choices", C.c_char_p),
                ("type", C.c_int32), ("min", C.c_int32), ("max", C.c_int32),
                ("default", C.c_int32), ("offset", C.c_int32), ("reserved", C.c_int32)]

class GeneratorInfo(C.Structure):
    _fields_ = [("name", C.c_char_p), ("summary", C.c_char_p),
                ("params", C.POINTER(ParamDesc)), ("param_count", C.c_int32),
                ("params_size", C.c_int32), ("needs_prefabs", C.c_int32),
                ("needs_graph", C.c_int32)]

class RecipeInput(C.Structure):
    _fields_ = [("hash", C.c_uint64), ("file", C.c_char * DG_RECIPE_PREFABS_MAX)]

class Recipe(C.Structure):
    _fields_ = [("generator", C.c_char * DG_NAME_MAX), ("seed", C.c_uint64),
                ("width", C.c_int32), ("height", C.c_int32), ("version", C.c_int32),
                ("param_count", C.c_int32), ("values", C.c_int32 * DG_RECIPE_MAX_PARAMS),
                ("prefabs_hash", C.c_uint64), ("prefabs", C.c_char * DG_RECIPE_PREFABS_MAX),
                ("inputs", RecipeInput * DG_RECIPE_INPUTS)]

class RoleRule(C.Structure):
    _fields_ = [("name", C.c_char * DG_NAME_MAX)] + [(n, C.c_int32) for n in (
        "count_min", "count_max", "weight", "rank_min", "rank_max", "route", "dead_end",
        "behind", "area_min", "area_max", "entrances_min", "entrances_max", "holds",
        "require")] + [("spare", C.c_int32 * DG_SPARE_SLOTS)]

class ExportOptions(C.Structure):
    _fields_ = [("format", C.c_int32), ("tile_width", C.c_int32), ("tile_height", C.c_int32),
                ("reserved", C.c_int32), ("tileset_image", C.c_char_p),
                ("recipe", C.POINTER(Recipe)), ("terrain", C.c_int32),
                ("spare", C.c_int32 * (DG_SPARE_SLOTS - 1))]

DG_AUTOTILE_CARDINAL, DG_AUTOTILE_BLOB, DG_AUTOTILE_CORNER = 0, 1, 2
DG_AUTOTILE_OWN_CLASS = -1

class AutotileParams(C.Structure):
    _fields_ = [("kind", C.c_int32), ("self_class", C.c_int32), ("outside_class", C.c_int32),
                ("classes", C.c_uint8 * 256), ("spare", C.c_int32 * DG_SPARE_SLOTS)]

class AttachParams(C.Structure):
    """dg_attach_params: one generator's struct written out, for direct calls."""
    _fields_ = [(n, C.c_int32) for n in (
        "room_min_w", "room_max_w", "room_min_h", "room_max_h", "corridor_min",
        "corridor_max", "max_features", "room_after_corridor", "target_floor",
        "max_attempts", "max_failures", "growth", "loop_min_gain", "loop_max",
        "dead_ends", "doors", "dense", "shape_share", "shapes")] + [("spare", C.c_int32 * DG_SPARE_SLOTS)]

WRITE_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(C.c_char), C.c_size_t)

class Overlay(C.Structure):
    _fields_ = [("flags", C.c_uint32), ("stride", C.c_int32), ("cells", C.c_size_t),
                ("blocked", C.POINTER(C.c_uint8)), ("extra_cost", C.POINTER(C.c_uint8)),
                ("sight", C.POINTER(C.c_uint8))]

class Move(C.Structure):
    _fields_ = [("passable", C.POINTER(C.c_uint8)), ("cost", C.POINTER(C.c_uint16)),
                ("neighbours", C.c_int32), ("corner_cutting", C.c_int32),
                ("straight_weight", C.c_int32), ("diagonal_weight", C.c_int32),
                ("overlay", C.POINTER(Overlay)), ("size", C.c_int32),
                ("spare", C.c_int32 * DG_SPARE_SLOTS)]

class DistanceInfo(C.Structure):
    _fields_ = [("reached", C.c_int32), ("max_distance", C.c_int32), ("farthest", Point)]

class Quality(C.Structure):
    _fields_ = [(n, C.c_int32) for n in (
        "floor_permille", "rooms", "corridors", "doors", "dead_ends", "loops", "regions",
        "border_open", "unreachable", "route", "route_permille", "start_in_room",
        "exit_in_room", "start_is_exit", "exit_rank_permille", "doorless_joins", "dead_doors",
        "parallel_cells", "loops_per_room_permille", "single_entrance_permille",
        "shaped_room_permille", "empty_square_permille", "straight_max", "parallel_permille",
        "corridor_per_room_permille", "dead_end_max", "diameter", "route_diameter_permille",
        "locks_placed", "key_start_min", "key_lock_min", "void_open")] + [
        ("spare", C.c_int32 * (DG_SPARE_SLOTS - 1))]

def named(struct):
    """The field names of a struct mirror without its spare slots (docs/abi.md)."""
    return [name for name, _ in struct._fields_ if name != "spare"]

DG_OVERLAY_BLOCKED, DG_OVERLAY_COST, DG_OVERLAY_SIGHT = 1, 2, 4
DG_UNREACHABLE = -1
STATUS_NAMES = {0: "DG_OK", -1: "DG_E_INVALID", -2: "DG_E_NULL", -3: "DG_E_NOMEM",
                -4: "DG_E_TOO_SMALL", -5: "DG_E_TOO_LARGE", -6: "DG_E_NOSPACE", -7: "DG_E_PARSE",
                -8: "DG_E_NOPATH", -9: "DG_E_BUFFER", -10: "DG_E_LIMIT"}

# ---- functions ------------------------------------------------------------------------
def _missing(name):
    def call(*_args):
        raise NotImplementedError(name + " is not in this build of libdungeon")
    return call

def _fn(name, restype, *argtypes):
    """A prototyped library function; one the loaded library lacks (an older
    build) raises NotImplementedError when called, not when imported."""
    try:
        f = getattr(lib, name)
    except AttributeError:
        return _missing(name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f

P = C.POINTER
dg_version = _fn("dg_version", C.c_char_p)
dg_status_str = _fn("dg_status_str", C.c_char_p, C.c_int32)
dg_grid_init = _fn("dg_grid_init", C.c_int32, P(Grid), P(C.c_uint8), C.c_int32, C.c_int32, C.c_int32)
dg_grid_hash = _fn("dg_grid_hash", C.c_uint64, P(Grid))
dg_result_init = _fn("dg_result_init", None, P(Result), P(Allocator))
dg_result_free = _fn("dg_result_free", None, P(Result))
dg_render_ascii = _fn("dg_render_ascii", C.c_int32, P(Grid), C.c_char_p, C.c_char_p, C.c_size_t,
                      P(C.c_size_t))
dg_generator_count = _fn("dg_generator_count", C.c_int32)
dg_generator_get = _fn("dg_generator_get", C.c_int32, C.c_int32, P(GeneratorInfo))
dg_recipe_init = _fn("dg_recipe_init", C.c_int32, P(Recipe), C.c_char_p, C.c_uint64, C.c_int32,
                     C.c_int32)
dg_recipe_set = _fn("dg_recipe_set", C.c_int32, P(Recipe), C.c_char_p, C.c_char_p, P(Diag))
dg_recipe_parse = _fn("dg_recipe_parse", C.c_int32, C.c_char_p, C.c_size_t, P(Recipe), P(Diag))
dg_recipe_print = _fn("dg_recipe_print", C.c_int32, P(Recipe), C.c_char_p, C.c_size_t,
                      P(C.c_size_t))
dg_recipe_params = _fn("dg_recipe_params", C.c_int32, P(Recipe), C.c_void_p, C.c_size_t)
dg_recipe_generate = _fn("dg_recipe_generate", C.c_int32, P(Recipe), P(Grid), C.c_void_p,
                         P(Result), P(Allocator), P(Diag))
dg_attach_defaults = _fn("dg_attach_defaults", None, P(AttachParams))
dg_attach_generate = _fn("dg_attach_generate", C.c_int32, P(Grid), P(AttachParams), C.c_uint64,
                         P(Result), P(Allocator), P(Diag))
dg_export_defaults = _fn("dg_export_defaults", None, P(ExportOptions))
dg_export = _fn("dg_export", C.c_int32, P(Grid), P(Result), P(ExportOptions), WRITE_FN,
                C.c_void_p, P(Diag))
dg_export_buffer = _fn("dg_export_buffer", C.c_int32, P(Grid), P(Result), P(ExportOptions),
                       C.c_char_p, C.c_size_t, P(C.c_size_t), P(Diag))
dg_prefab_load = _fn("dg_prefab_load", C.c_int32, C.c_char_p, P(Allocator), C.c_void_p,
                     C.c_void_p, P(C.c_void_p), P(Diag))
dg_export_tileset_rgba = _fn("dg_export_tileset_rgba", C.c_int32, P(C.c_uint32), C.c_int32,
                             C.c_int32, P(C.c_uint8), C.c_size_t)
dg_prefab_set_free = _fn("dg_prefab_set_free", None, C.c_void_p)
dg_recipe_set_prefabs = _fn("dg_recipe_set_prefabs", C.c_int32, P(Recipe), C.c_void_p, C.c_char_p,
                            P(Diag))

dg_params_defaults = _fn("dg_params_defaults", C.c_int32, C.c_char_p, C.c_void_p, C.c_size_t)
dg_recipe_get = _fn("dg_recipe_get", C.c_int32, P(Recipe), C.c_char_p, P(C.c_int32))
dg_prefab_parse = _fn("dg_prefab_parse", C.c_int32, C.c_char_p, C.c_size_t, C.c_char_p,
                      P(Allocator), C.c_void_p, C.c_void_p, P(C.c_void_p), P(Diag))
dg_prefab_count = _fn("dg_prefab_count", C.c_int32, C.c_void_p)
dg_prefab_set_hash = _fn("dg_prefab_set_hash", C.c_uint64, C.c_void_p)
dg_render_rgba = _fn("dg_render_rgba", C.c_int32, P(Grid), P(C.c_uint32), C.c_int32,
                     P(C.c_uint8), C.c_size_t)
dg_tile_name = _fn("dg_tile_name", C.c_char_p, C.c_uint8)
dg_autotile_defaults = _fn("dg_autotile_defaults", None, P(AutotileParams))
dg_autotile = _fn("dg_autotile", C.c_int32, P(Grid), P(AutotileParams), P(C.c_uint8), C.c_size_t,
                  C.c_int32, P(Allocator), P(Diag))
dg_autotile_blob_mask = _fn("dg_autotile_blob_mask", C.c_int32, C.c_int32)
dg_move_defaults = _fn("dg_move_defaults", None, P(Move))
dg_regions = _fn("dg_regions", C.c_int32, P(Grid), P(Move), P(C.c_int32), C.c_size_t,
                 P(C.c_int32), C.c_int32, P(C.c_int32), P(C.c_int32), P(Diag))
dg_distance_map = _fn("dg_distance_map", C.c_int32, P(Grid), P(Move), P(Point), C.c_int32,
                      C.c_int32, P(C.c_int32), C.c_size_t, C.c_void_p, P(DistanceInfo), P(Diag))
dg_dijkstra_map = _fn("dg_dijkstra_map", C.c_int32, P(Grid), P(Move), P(Point), P(C.c_int32),
                      C.c_int32, C.c_int32, P(C.c_int32), C.c_size_t, C.c_void_p,
                      P(DistanceInfo), P(Diag))
dg_path_find = _fn("dg_path_find", C.c_int32, P(Grid), P(Move), Point, Point, C.c_void_p,
                   P(Point), C.c_int32, P(C.c_int32), P(C.c_int32), P(Diag))
dg_fov = _fn("dg_fov", C.c_int32, P(Grid), P(C.c_uint8), Point, C.c_int32, P(C.c_uint8),
             C.c_size_t, P(Allocator), P(Diag))
dg_fov_overlay = _fn("dg_fov_overlay", C.c_int32, P(Grid), P(C.c_uint8), P(Overlay), Point,
                     C.c_int32, P(C.c_uint8), C.c_size_t, P(Allocator), P(Diag))
dg_measure = _fn("dg_measure", C.c_int32, P(Grid), P(C.c_uint8), P(Metrics), P(Allocator), P(Diag))
dg_chokepoints = _fn("dg_chokepoints", C.c_int32, P(Grid), P(C.c_uint8), P(C.c_uint8), C.c_size_t,
                     P(C.c_int32), P(Allocator), P(Diag))
dg_roles_builtin = _fn("dg_roles_builtin", C.c_int32, P(RoleRule), C.c_int32, P(C.c_int32))
dg_roles_parse = _fn("dg_roles_parse", C.c_int32, C.c_char_p, C.c_size_t, C.c_char_p, P(RoleRule),
                     C.c_int32, P(C.c_int32), P(Diag))
dg_graph_init = _fn("dg_graph_init", None, P(Graph))
dg_graph_parse = _fn("dg_graph_parse", C.c_int32, C.c_char_p, C.c_size_t, C.c_char_p, P(Allocator),
                     P(Graph), P(Diag))
dg_graph_load = _fn("dg_graph_load", C.c_int32, C.c_char_p, P(Allocator), P(Graph), P(Diag))
dg_graph_free = _fn("dg_graph_free", None, P(Graph))
dg_graph_check = _fn("dg_graph_check", C.c_int32, P(Graph), P(Diag))
dg_graph_hash = _fn("dg_graph_hash", C.c_uint64, P(Graph))
dg_site_init = _fn("dg_site_init", None, P(Site))
dg_recipe_set_input = _fn("dg_recipe_set_input", C.c_int32, P(Recipe), C.c_int32, C.c_uint64,
                          C.c_char_p, P(Diag))
dg_recipe_generate_site = _fn("dg_recipe_generate_site", C.c_int32, P(Recipe), P(Site), P(Grid),
                              C.c_void_p, P(Result), P(Allocator), P(Diag))
DG_RECIPE_GRAPH = 0
dg_roles = _fn("dg_roles", C.c_int32, P(Grid), P(RoleRule), C.c_int32, C.c_uint64, P(Result),
               C.c_void_p, P(Allocator), P(Diag))
dg_survey_map = _fn("dg_survey_map", C.c_int32, P(Grid), P(Result), P(Quality), P(Allocator),
                    P(Diag))


def tileset_name(tile_size):
    """The swatch tileset's file name for a tile size, as the dungeon tool writes it."""
    return "dungeon-tiles-%d.png" % tile_size


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(rgba, width, height):
    """A PNG file of RGBA8 pixels (8-bit RGBA, no filtering), with zlib alone."""
    row = width * 4
    raw = b"".join(b"\0" + rgba[y * row:(y + 1) * row] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(raw, 9)) + _png_chunk(b"IEND", b""))
