"""libdungeon from Python, through ctypes (no compiler needed).

A starting point for your own binding: the structs mirror include/dungeon.h
field for field, every function used declares its argument and return types,
and the small `Dungeon` class shows the usual flow:

    import dungeon
    d = dungeon.Dungeon.generate("attach seed=42 width=80 height=50 growth=newest")
    print(d.ascii())
    d.save("map.tmx", tile_size=8)   # map.tmx and its tileset dungeon-tiles-8.png
    print(d.recipe, d.rooms[0], d.start)

Memory rules (the same in every language): the grid's cells are owned by the
caller (here a ctypes buffer inside Dungeon); a dg_result's arrays belong to
the library and are released with dg_result_free (Dungeon copies what it needs
and frees them at once); every string the library returns is static; callbacks
are called only during the call they are passed to, on the calling thread.

The library is found through $DUNGEON_LIB, then beside this file's repository
(build/libdungeon.so), then the system (libdungeon.so.0).
"""
import ctypes as C
import os
import struct
import zlib

# ---- loading ------------------------------------------------------------------
def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    tries = [os.environ.get("DUNGEON_LIB"),
             os.path.join(here, "..", "..", "build", "libdungeon.so"),
             "libdungeon.so.0", "libdungeon.so"]
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
                ("orientation", C.c_int32), ("parent", C.c_int32), ("cells", C.c_int32)]

class Corridor(C.Structure):
    _fields_ = [("start", Point), ("bend", Point), ("end", Point), ("length", C.c_int32),
                ("from_", Ref), ("to", Ref)]

class Door(C.Structure):
    _fields_ = [("pos", Point), ("a", Ref), ("b", Ref)]

class Marker(C.Structure):
    _fields_ = [("pos", Point), ("kind", C.c_int32), ("room", C.c_int32),
                ("name", C.c_char * DG_NAME_MAX)]

class Metrics(C.Structure):
    _fields_ = [(n, C.c_int32) for n in (
        "cells", "floor_cells", "floor_permille", "rooms", "corridors", "doors", "dead_ends",
        "loops", "regions", "attempts", "failures", "stopped_early", "requested", "placed",
        "overlaps", "chokepoints", "diameter")]

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
                ("exit_room", C.c_int32), ("metrics", Metrics), ("allocator", Allocator),
                ("capacity_", C.c_int32 * 4)]

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
                ("reserved", C.c_int32)]

class Recipe(C.Structure):
    _fields_ = [("generator", C.c_char * DG_NAME_MAX), ("seed", C.c_uint64),
                ("width", C.c_int32), ("height", C.c_int32), ("version", C.c_int32),
                ("param_count", C.c_int32), ("values", C.c_int32 * DG_RECIPE_MAX_PARAMS),
                ("prefabs_hash", C.c_uint64), ("prefabs", C.c_char * DG_RECIPE_PREFABS_MAX)]

class ExportOptions(C.Structure):
    _fields_ = [("format", C.c_int32), ("tile_width", C.c_int32), ("tile_height", C.c_int32),
                ("reserved", C.c_int32), ("tileset_image", C.c_char_p),
                ("recipe", C.POINTER(Recipe))]

class AttachParams(C.Structure):
    """dg_attach_params: one generator's struct written out, for direct calls."""
    _fields_ = [(n, C.c_int32) for n in (
        "room_min_w", "room_max_w", "room_min_h", "room_max_h", "corridor_min",
        "corridor_max", "max_features", "room_after_corridor", "target_floor",
        "max_attempts", "max_failures", "growth", "loop_min_gain", "loop_max",
        "dead_ends", "doors", "dense")]

WRITE_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(C.c_char), C.c_size_t)

# ---- functions ------------------------------------------------------------------------
def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
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

# ---- a friendly layer -------------------------------------------------------------------
class DungeonError(Exception):
    def __init__(self, status, diag=None):
        msg = dg_status_str(status).decode()
        if diag is not None and diag.message:
            msg += ": " + diag.message.decode(errors="replace")
        super().__init__(msg)
        self.status = status
        self.column = diag.column if diag is not None else 0

def _check(status, diag=None):
    if status != DG_OK:
        raise DungeonError(status, diag)

def version():
    return dg_version().decode()

def generators():
    """{name: [(param name, type, min, max, default, help, choices), ...]}"""
    out = {}
    for i in range(dg_generator_count()):
        info = GeneratorInfo()
        _check(dg_generator_get(i, C.byref(info)))
        params = []
        for k in range(info.param_count):
            p = info.params[k]
            params.append((p.name.decode(), p.type, p.min, p.max, p.default, p.help.decode(),
                           p.choices.decode().split("|") if p.choices else None))
        out[info.name.decode()] = params
    return out

dg_params_defaults = _fn("dg_params_defaults", C.c_int32, C.c_char_p, C.c_void_p, C.c_size_t)


def params_class(generator):
    """A ctypes Structure for any generator's params struct, built from its
    registry table: every table entry becomes an int32 field at its offset;
    the bytes between them (pointers, arrays the table does not cover) are
    kept as opaque padding. Fill it with defaults() before changing fields."""
    for i in range(dg_generator_count()):
        info = GeneratorInfo()
        _check(dg_generator_get(i, C.byref(info)))
        if info.name.decode() == generator:
            break
    else:
        raise KeyError(generator)
    descs = sorted((info.params[k] for k in range(info.param_count)), key=lambda p: p.offset)
    fields, pos = [], 0
    for p in descs:
        if p.offset > pos:
            fields.append(("_gap%d" % pos, C.c_uint8 * (p.offset - pos)))
        fields.append((p.name.decode(), C.c_int32))
        pos = p.offset + 4
    if info.params_size > pos:
        fields.append(("_tail", C.c_uint8 * (info.params_size - pos)))
    name = generator.encode()

    def defaults(self):
        _check(dg_params_defaults(name, C.byref(self), C.sizeof(self)))
        return self

    return type("Params_" + generator.replace("-", "_"), (C.Structure,),
                {"_fields_": fields, "_pack_": 1, "defaults": defaults})


def tileset_name(tile_size):
    """The swatch tileset's file name for a tile size, as the dungeon tool writes it."""
    return "dungeon-tiles-%d.png" % tile_size

def tileset_rgba(tile_size=16):
    """RGBA8 pixels of the swatch tileset: (pixels, side), side = 16 * tile_size."""
    side = DG_TILESET_COLUMNS * tile_size
    buf = (C.c_uint8 * (side * side * 4))()
    _check(dg_export_tileset_rgba(None, tile_size, tile_size, buf, len(buf)))
    return bytes(buf), side

def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def png_bytes(rgba, width, height):
    """A PNG file of RGBA8 pixels (8-bit RGBA, no filtering), with zlib alone."""
    row = width * 4
    raw = b"".join(b"\0" + rgba[y * row:(y + 1) * row] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(raw, 9)) + _png_chunk(b"IEND", b""))

def write_tileset(path, tile_size=16):
    """Writes the swatch tileset PNG that Tiled exports of this tile size reference."""
    rgba, side = tileset_rgba(tile_size)
    with open(path, "wb") as f:
        f.write(png_bytes(rgba, side, side))

def parse_recipe(line):
    recipe, diag = Recipe(), Diag()
    raw = line.encode()
    _check(dg_recipe_parse(raw, len(raw), C.byref(recipe), C.byref(diag)), diag)
    return recipe

def recipe_text(recipe):
    need = C.c_size_t()
    _check(dg_recipe_print(C.byref(recipe), None, 0, C.byref(need)))
    buf = C.create_string_buffer(need.value + 1)
    _check(dg_recipe_print(C.byref(recipe), buf, len(buf), None))
    return buf.value.decode()

class Dungeon:
    """A generated map: cells (bytes, row-major, no padding) plus the result lists."""

    def __init__(self, recipe, prefabs=None):
        self.recipe_struct = recipe
        self.width, self.height = recipe.width, recipe.height
        self._cells = (C.c_uint8 * (self.width * self.height))()
        self.grid = Grid()
        _check(dg_grid_init(C.byref(self.grid), self._cells, self.width, self.height, 0))
        self.result = Result()
        dg_result_init(C.byref(self.result), None)
        diag = Diag()
        set_ptr = C.c_void_p()
        prefabs = prefabs or recipe.prefabs.decode() or None  # else the file the recipe names
        try:
            if prefabs:
                _check(dg_prefab_load(prefabs.encode(), None, None, None, C.byref(set_ptr),
                                      C.byref(diag)), diag)
                if not recipe.prefabs_hash:  # a recorded hash is checked by dg_recipe_generate
                    self._record_prefabs(set_ptr, prefabs)
            _check(dg_recipe_generate(C.byref(recipe), C.byref(self.grid), set_ptr, C.byref(self.result),
                                      None, C.byref(diag)), diag)
            self._copy_result()
        finally:
            dg_prefab_set_free(set_ptr)

    def _record_prefabs(self, set_ptr, path):
        """The set's hash in the recipe, with its file as a hint where a recipe can name it."""
        r = C.byref(self.recipe_struct)
        if dg_recipe_set_prefabs(r, set_ptr, path.encode(), None) != DG_OK:
            _check(dg_recipe_set_prefabs(r, set_ptr, None, None))

    @classmethod
    def generate(cls, line, prefabs=None):
        """From a recipe line such as "attach seed=42 width=80 height=50"."""
        return cls(parse_recipe(line), prefabs)

    def _copy_result(self):
        r = self.result
        self.rooms = [(m.rect.x, m.rect.y, m.rect.w, m.rect.h, m.kind) for m in r.rooms[:r.room_count]]
        self.corridors = [((c.start.x, c.start.y), (c.bend.x, c.bend.y), (c.end.x, c.end.y), c.length)
                          for c in r.corridors[:r.corridor_count]]
        self.doors = [(d.pos.x, d.pos.y) for d in r.doors[:r.door_count]]
        self.markers = [(m.pos.x, m.pos.y, m.kind, m.room, m.name.decode(errors="replace"))
                        for m in r.markers[:r.marker_count]]
        self.start = (r.start.x, r.start.y)
        self.exit = (r.exit.x, r.exit.y)
        self.metrics = {name: getattr(r.metrics, name) for name, _ in Metrics._fields_}

    def __del__(self):
        if getattr(self, "result", None) is not None:
            dg_result_free(C.byref(self.result))

    @property
    def recipe(self):
        return recipe_text(self.recipe_struct)

    @property
    def cells(self):
        return bytes(self._cells)

    def hash(self):
        return dg_grid_hash(C.byref(self.grid))

    def ascii(self):
        size = (self.width + 1) * self.height + 1
        buf = C.create_string_buffer(size)
        _check(dg_render_ascii(C.byref(self.grid), None, buf, size, None))
        return buf.value.decode()

    def _options(self, fmt, tile_size, tileset_image):
        opt = ExportOptions()
        dg_export_defaults(C.byref(opt))
        opt.format = FORMATS[fmt]
        opt.tile_width = opt.tile_height = tile_size
        opt.tileset_image = (tileset_image or tileset_name(tile_size)).encode()
        opt.recipe = C.pointer(self.recipe_struct)
        return opt

    def export(self, fmt="json", tile_size=16, tileset_image=None):
        """The map as libdungeon JSON ("json") or a Tiled map ("tmj", "tmx"), via a buffer.
        A Tiled map references tileset_image, by default the tileset of its tile
        size (dungeon-tiles-N.png, which write_tileset or save writes)."""
        opt, need, diag = self._options(fmt, tile_size, tileset_image), C.c_size_t(), Diag()
        _check(dg_export_buffer(C.byref(self.grid), C.byref(self.result), C.byref(opt), None, 0,
                                C.byref(need), C.byref(diag)), diag)
        buf = C.create_string_buffer(need.value + 1)
        _check(dg_export_buffer(C.byref(self.grid), C.byref(self.result), C.byref(opt), buf,
                                len(buf), None, C.byref(diag)), diag)
        return buf.raw[:need.value].decode()

    def export_stream(self, write, fmt="json", tile_size=16, tileset_image=None):
        """The same through a callback: write(bytes) is called with each chunk."""
        opt, diag = self._options(fmt, tile_size, tileset_image), Diag()
        cb = WRITE_FN(lambda user, data, n: write(C.string_at(data, n)))  # kept alive for the call
        _check(dg_export(C.byref(self.grid), C.byref(self.result), C.byref(opt), cb, None,
                         C.byref(diag)), diag)

    def save(self, path, fmt=None, tile_size=16):
        """Writes the map to path in fmt (default: from the extension: .json,
        .tmj, .tmx); a Tiled map gets its tileset PNG beside it, as the tool
        does. Returns the paths written."""
        fmt = fmt or os.path.splitext(path)[1].lstrip(".")
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.export(fmt, tile_size))
        if fmt == "json":
            return [path]
        tileset = os.path.join(os.path.dirname(path), tileset_name(tile_size))
        write_tileset(tileset, tile_size)
        return [path, tileset]

if __name__ == "__main__":
    import sys
    d = Dungeon.generate(sys.argv[1] if len(sys.argv) > 1 else "attach seed=42 width=60 height=24")
    print(d.ascii(), end="")
    print(d.recipe)
