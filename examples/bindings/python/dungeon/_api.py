"""The friendly layer of the dungeon package: maps, generators, analysis,
recipes and exports, with Python types and exceptions.

Per-cell outputs (cells, region labels, distances, fields of view) are
row-major, `width` entries per row: bytes (uint8) or array.array("i")
(int32), or numpy arrays of shape (height, width) when numpy is installed and
use_numpy() is on (the default then)."""
import array
import ctypes as C
import inspect
import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _core as K

Point = Tuple[int, int]
Cells = Union[bytes, "numpy.ndarray"]  # noqa: F821 (numpy is optional)

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None
_numpy_on = _np is not None


def use_numpy(on: bool = True) -> bool:
    """Return numpy arrays (when numpy is installed) or bytes/array.array. Returns the old setting."""
    global _numpy_on
    old, _numpy_on = _numpy_on, bool(on) and _np is not None
    return old


def _cells_out(buf, width: int, height: int):
    if _numpy_on:
        return _np.frombuffer(bytes(buf), dtype=_np.uint8).reshape(height, width)
    return bytes(buf)


def _ints_out(buf, width: int, height: int):
    if _numpy_on:
        return _np.frombuffer(bytes(buf), dtype=_np.int32).reshape(height, width).copy()
    return array.array("i", buf)


# ---- errors --------------------------------------------------------------------------
class DungeonError(Exception):
    """A libdungeon call failed: status (negative dg_status), status_name
    ("DG_E_PARSE"), message (the diagnostic, may be empty), line and column."""

    def __init__(self, status: int, diag: Optional[K.Diag] = None):
        self.status = status
        self.status_name = K.STATUS_NAMES.get(status, "DG_E_%d" % -status)
        self.message = diag.message.decode(errors="replace") if diag is not None else ""
        self.line = diag.line if diag is not None else 0
        self.column = diag.column if diag is not None else 0
        text = "%s (%s)" % (self.status_name, K.dg_status_str(status).decode())
        super().__init__(text + (": " + self.message if self.message else ""))


def _check(status: int, diag: Optional[K.Diag] = None) -> None:
    if status != K.DG_OK:
        raise DungeonError(status, diag)


def version() -> str:
    return K.dg_version().decode()


# ---- the registry ---------------------------------------------------------------------
class Param:
    """One generator parameter from the registry table."""

    def __init__(self, desc: K.ParamDesc):
        self.name: str = desc.name.decode()
        self.type: int = desc.type
        self.min: int = desc.min
        self.max: int = desc.max
        self.default: int = desc.default
        self.help: str = desc.help.decode()
        self.choices: Optional[List[str]] = desc.choices.decode().split("|") if desc.choices else None

    def as_tuple(self):
        return (self.name, self.type, self.min, self.max, self.default, self.help, self.choices)


def _infos(with_graph: bool = False) -> List[K.GeneratorInfo]:
    """The registered generators that run on their own: not those that need a
    level graph (the graph generator, which runs when given a Graph), unless
    with_graph."""
    out = []
    for i in range(K.dg_generator_count()):
        info = K.GeneratorInfo()
        _check(K.dg_generator_get(i, C.byref(info)))
        if with_graph or not info.needs_graph:
            out.append(info)
    return out


def needs_graph(generator: str) -> bool:
    """True for a generator that lays out a level graph (generate(..., graph=...))."""
    return any(i.name.decode() == generator and i.needs_graph for i in _infos(True))


def generator_params(generator: str) -> List[Param]:
    for info in _infos(True):
        if info.name.decode() == generator:
            return [Param(info.params[k]) for k in range(info.param_count)]
    raise KeyError(generator)


def generators() -> Dict[str, list]:
    """{name: [(param name, type, min, max, default, help, choices), ...]}"""
    return {i.name.decode(): [Param(i.params[k]).as_tuple() for k in range(i.param_count)]
            for i in _infos()}


def needs_prefabs(generator: str) -> bool:
    return any(i.name.decode() == generator and i.needs_prefabs for i in _infos())


def params_class(generator: str):
    """A ctypes Structure for any generator's params struct, built from its
    registry table: every table entry becomes an int32 field at its offset;
    the bytes between them (pointers, arrays the table does not cover) are
    kept as opaque padding. Fill it with defaults() before changing fields."""
    info = next((i for i in _infos() if i.name.decode() == generator), None)
    if info is None:
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
        _check(K.dg_params_defaults(name, C.byref(self), C.sizeof(self)))
        return self

    return type("Params_" + generator.replace("-", "_"), (C.Structure,),
                {"_fields_": fields, "_pack_": 1, "defaults": defaults})


# ---- recipes -----------------------------------------------------------------------------
def parse_recipe(line: str) -> K.Recipe:
    """The dg_recipe struct of a recipe line; DungeonError (DG_E_PARSE, column) if malformed."""
    recipe, diag = K.Recipe(), K.Diag()
    raw = line.encode()
    _check(K.dg_recipe_parse(raw, len(raw), C.byref(recipe), C.byref(diag)), diag)
    return recipe


def recipe_text(recipe: K.Recipe) -> str:
    need = C.c_size_t()
    _check(K.dg_recipe_print(C.byref(recipe), None, 0, C.byref(need)))
    buf = C.create_string_buffer(need.value + 1)
    _check(K.dg_recipe_print(C.byref(recipe), buf, len(buf), None))
    return buf.value.decode()


def _value_text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def make_recipe(generator: str, seed: int = 1, width: int = 80, height: int = 50,
                **params: Union[int, str, bool]) -> str:
    """The full recipe line of a generator with some parameters changed
    (enum values by name or number)."""
    recipe, diag = K.Recipe(), K.Diag()
    _check(K.dg_recipe_init(C.byref(recipe), generator.encode(), seed, width, height), diag)
    for key, value in params.items():
        _check(K.dg_recipe_set(C.byref(recipe), key.encode(), _value_text(value).encode(),
                               C.byref(diag)), diag)
    return recipe_text(recipe)


def recipe_values(line: str) -> Dict[str, int]:
    """Every parameter value of a recipe line, defaults included, by name."""
    recipe = parse_recipe(line)
    out = {}
    for p in generator_params(recipe.generator.decode()):
        value = C.c_int32()
        _check(K.dg_recipe_get(C.byref(recipe), p.name.encode(), C.byref(value)))
        out[p.name] = value.value
    return out


# ---- prefab sets ------------------------------------------------------------------------------
# Where each prefab set loaded in this process came from, by its hash: a recipe
# whose file hint is only a base name (a long path) finds its set again here.
_loaded_paths: Dict[int, str] = {}


def _recipe_prefabs_path(recipe: K.Recipe) -> Optional[str]:
    """The file a recipe names: its hint when that file exists, else the file
    this process loaded the recorded set from, else the hint as given."""
    hint = recipe.prefabs.decode() or None
    if hint and os.path.exists(hint):
        return hint
    return _loaded_paths.get(recipe.prefabs_hash, hint)


class PrefabSet:
    """A parsed prefab set (immutable); from a file (load) or text (parse)."""

    def __init__(self, handle: C.c_void_p, path: Optional[str]):
        self._handle, self.path = handle, path

    @classmethod
    def load(cls, path: str) -> "PrefabSet":
        handle, diag = C.c_void_p(), K.Diag()
        _check(K.dg_prefab_load(path.encode(), None, None, None, C.byref(handle), C.byref(diag)), diag)
        _loaded_paths[K.dg_prefab_set_hash(handle)] = path
        return cls(handle, path)

    @classmethod
    def parse(cls, text: str, name: str = "<input>") -> "PrefabSet":
        handle, diag, raw = C.c_void_p(), K.Diag(), text.encode()
        _check(K.dg_prefab_parse(raw, len(raw), name.encode(), None, None, None, C.byref(handle),
                                 C.byref(diag)), diag)
        return cls(handle, None)

    def __len__(self) -> int:
        return K.dg_prefab_count(self._handle)

    def __del__(self):
        if getattr(self, "_handle", None):
            K.dg_prefab_set_free(self._handle)
            self._handle = None


# ---- level graphs ------------------------------------------------------------------------------
class Graph:
    """A level graph (docs/graph.md, docs/graph-format.md): rooms (nodes) and
    how they connect (edges), for generator "graph". From a file (load, which
    also reads its `prefabs` line) or text (parse); checked as it is read
    (a graph that is not planar, disconnected, ... raises DungeonError with
    "name:line:col: message")."""

    def __init__(self, path: Optional[str] = None):
        self._graph = K.Graph()
        K.dg_graph_init(C.byref(self._graph))
        self.path = path

    @classmethod
    def load(cls, path: str) -> "Graph":
        g, diag = cls(path), K.Diag()
        _check(K.dg_graph_load(path.encode(), None, C.byref(g._graph), C.byref(diag)), diag)
        return g

    @classmethod
    def parse(cls, text: str, name: str = "<input>") -> "Graph":
        g, diag, raw = cls(), K.Diag(), text.encode()
        _check(K.dg_graph_parse(raw, len(raw), name.encode(), None, C.byref(g._graph),
                                C.byref(diag)), diag)
        return g

    @property
    def hash(self) -> int:
        """Its identity (dg_graph_hash), as recipes record it."""
        return K.dg_graph_hash(C.byref(self._graph))

    @property
    def room_distance(self) -> int:
        return self._graph.room_distance

    @room_distance.setter
    def room_distance(self, value: int) -> None:
        """The minimum rock between rooms no edge joins (0..4), checked at generation."""
        self._graph.room_distance = value

    @property
    def max_attempts(self) -> int:
        return self._graph.max_attempts

    @max_attempts.setter
    def max_attempts(self, value: int) -> None:
        """Whole layouts tried before the graph is refused (1..4096; 0: 256), checked at
        generation."""
        self._graph.max_attempts = value

    def nodes(self) -> List[Dict[str, object]]:
        """One {"name", "role"} dict per node, in the file's order (a room's node index)."""
        g = self._graph
        return [{"name": g.nodes[i].name.decode(), "role": g.nodes[i].role.decode()}
                for i in range(g.node_count)]

    def edges(self) -> List[Tuple[int, int]]:
        """(node index, node index) per edge, in the file's order."""
        g = self._graph
        return [(g.edges[i].a, g.edges[i].b) for i in range(g.edge_count)]

    def __len__(self) -> int:
        return self._graph.node_count

    def __del__(self):
        if getattr(self, "_graph", None) is not None:
            K.dg_graph_free(C.byref(self._graph))
            self._graph = None


def _recipe_graph(recipe: K.Recipe, graph: Union[None, str, Graph]) -> Optional[Graph]:
    """The graph to lay out: the one given (a Graph or a file), else the file
    the recipe names when it exists."""
    if graph is None:
        hint = recipe.inputs[K.DG_RECIPE_GRAPH].file.decode()
        graph = hint if hint and os.path.exists(hint) else None
    return Graph.load(graph) if isinstance(graph, str) else graph


# ---- walking rules and overlays ----------------------------------------------------------------
class _Walk:
    """A dg_move (and its overlay) kept alive with the masks it points to."""

    def __init__(self, m: "Map", neighbours: int, corner_cutting: bool, straight_weight: int,
                 diagonal_weight: int, blocked: Optional[bytes], extra_cost: Optional[bytes]):
        self.walk = K.Move()
        K.dg_move_defaults(C.byref(self.walk))
        self.walk.neighbours, self.walk.corner_cutting = neighbours, int(corner_cutting)
        self.walk.straight_weight = straight_weight
        self.walk.diagonal_weight = max(diagonal_weight, straight_weight)
        self.overlay, self._keep = _overlay(m, blocked=blocked, extra_cost=extra_cost)
        if self.overlay is not None:
            self.walk.overlay = C.pointer(self.overlay)


def _mask(data) -> C.Array:
    raw = bytes(data.tobytes() if hasattr(data, "tobytes") else data)
    return (C.c_uint8 * max(len(raw), 1)).from_buffer_copy(raw or b"\0"), len(raw)


def _overlay(m: "Map", blocked=None, extra_cost=None, sight=None):
    """(dg_overlay or None, buffers to keep alive): one byte per cell, row-major."""
    ov, keep, sizes = K.Overlay(), [], []
    for flag, field, data in ((K.DG_OVERLAY_BLOCKED, "blocked", blocked),
                              (K.DG_OVERLAY_COST, "extra_cost", extra_cost),
                              (K.DG_OVERLAY_SIGHT, "sight", sight)):
        if data is None:
            continue
        buf, n = _mask(data)
        keep.append(buf)
        sizes.append(n)
        ov.flags |= flag
        setattr(ov, field, C.cast(buf, C.POINTER(C.c_uint8)))
    if not keep:
        return None, keep
    ov.stride, ov.cells = m.width, min(sizes)
    return ov, keep


def _points(points: Sequence[Point]) -> C.Array:
    arr = (K.Point * max(len(points), 1))()
    for i, (x, y) in enumerate(points):
        arr[i].x, arr[i].y = x, y
    return arr


# ---- a generated map ---------------------------------------------------------------------------
class Map:
    """A generated map: cells (bytes, row-major, no padding) plus the result
    lists (rooms, corridors, doors, markers, start, exit, metrics)."""

    def __init__(self, recipe: K.Recipe, prefabs: Union[None, str, PrefabSet] = None,
                 graph: Union[None, str, Graph] = None):
        self.recipe_struct = recipe
        self.width, self.height = recipe.width, recipe.height
        self._cells = (C.c_uint8 * (self.width * self.height))()
        self.grid = K.Grid()
        _check(K.dg_grid_init(C.byref(self.grid), self._cells, self.width, self.height, 0))
        self.result = K.Result()
        K.dg_result_init(C.byref(self.result), None)
        diag = K.Diag()
        prefabs = prefabs or _recipe_prefabs_path(recipe)  # else the file the recipe names
        pset = PrefabSet.load(prefabs) if isinstance(prefabs, str) else prefabs
        if pset is not None and not recipe.prefabs_hash:  # a recorded hash is checked by the library
            self._record_prefabs(pset)
        self.graph = _recipe_graph(recipe, graph)
        site = None
        if self.graph is not None:  # a level graph goes in through a site, its hash into the recipe
            if not recipe.inputs[K.DG_RECIPE_GRAPH].hash:
                self._record_graph(self.graph)
            site = K.Site()
            K.dg_site_init(C.byref(site))
            site.graph = C.pointer(self.graph._graph)
        _check(K.dg_recipe_generate_site(C.byref(recipe), C.byref(site) if site else None,
                                         C.byref(self.grid), pset._handle if pset else None,
                                         C.byref(self.result), None, C.byref(diag)), diag)
        self._copy_result()

    def _record_graph(self, graph: Graph) -> None:
        """The graph's hash in the recipe, with its file as a hint where a recipe can name it."""
        r, h = C.byref(self.recipe_struct), graph.hash
        hint = graph.path.encode() if graph.path else None
        if hint is None or K.dg_recipe_set_input(r, K.DG_RECIPE_GRAPH, h, hint, None) != K.DG_OK:
            _check(K.dg_recipe_set_input(r, K.DG_RECIPE_GRAPH, h, None, None))

    def assign_roles(self, table: Optional[str] = None, seed: Optional[int] = None,
                     name: str = "<roles>") -> List[Dict[str, object]]:
        """Gives the rooms roles (dg_roles) from a role table's text
        (docs/content.md; None: the built-in table) and returns room_labels().
        seed defaults to the recipe's seed; bad tables raise DungeonError."""
        rules, count, diag = (K.RoleRule * K.DG_ROLES_MAX)(), C.c_int32(), K.Diag()
        if table is None:
            _check(K.dg_roles_builtin(rules, K.DG_ROLES_MAX, C.byref(count)))
        else:
            text = table.encode()
            _check(K.dg_roles_parse(text, len(text), name.encode(), rules, K.DG_ROLES_MAX,
                                    C.byref(count), C.byref(diag)), diag)
        seed = self.recipe_struct.seed if seed is None else seed
        _check(K.dg_roles(C.byref(self.grid), rules, count.value, seed, C.byref(self.result), None,
                          None, C.byref(diag)), diag)
        self._copy_result()
        return self.room_labels()

    def room_labels(self) -> List[Dict[str, object]]:
        """One dict per labelled room: room (its index), role, name and node
        (the level graph node's name and index: "" and -1 without a graph).
        Empty until something labelled the rooms (assign_roles)."""
        return [{"room": i, "role": role, "name": node_name, "node": node}
                for i, (role, node_name, node) in enumerate(self.labels)]

    def _record_prefabs(self, pset: PrefabSet) -> None:
        """The set's hash in the recipe, with its file as a hint where a recipe can name it."""
        r = C.byref(self.recipe_struct)
        if pset.path is None or K.dg_recipe_set_prefabs(r, pset._handle, pset.path.encode(), None) != K.DG_OK:
            _check(K.dg_recipe_set_prefabs(r, pset._handle, None, None))

    @classmethod
    def generate(cls, line: str, prefabs: Union[None, str, PrefabSet] = None,
                 graph: Union[None, str, Graph] = None) -> "Map":
        """From a recipe line such as "attach seed=42 width=80 height=50"
        (generator "graph" needs graph: a Graph or its file)."""
        return cls(parse_recipe(line), prefabs, graph)

    def _copy_result(self) -> None:
        r = self.result
        self.rooms = [(m.rect.x, m.rect.y, m.rect.w, m.rect.h, m.kind) for m in r.rooms[:r.room_count]]
        self.corridors = [((c.start.x, c.start.y), (c.bend.x, c.bend.y), (c.end.x, c.end.y), c.length)
                          for c in r.corridors[:r.corridor_count]]
        self.doors = [(d.pos.x, d.pos.y) for d in r.doors[:r.door_count]]
        self.markers = [(m.pos.x, m.pos.y, m.kind, m.room, m.name.decode(errors="replace"))
                        for m in r.markers[:r.marker_count]]
        labelled = r.label_count == r.room_count and r.room_count > 0
        # (role, node name, node index) per room; empty when nothing labelled the rooms
        self.labels = [(l.role.decode(errors="replace"), l.name.decode(errors="replace"), l.node)
                       for l in r.labels[:r.label_count]] if labelled else []
        self.start = (r.start.x, r.start.y)
        self.exit = (r.exit.x, r.exit.y)
        self.metrics = {name: getattr(r.metrics, name) for name in K.named(K.Metrics)}

    def __del__(self):
        if getattr(self, "result", None) is not None:
            K.dg_result_free(C.byref(self.result))
            self.result = None

    @property
    def recipe(self) -> str:
        return recipe_text(self.recipe_struct)

    @property
    def cells(self) -> bytes:
        return bytes(self._cells)

    def tiles(self) -> Cells:
        """The cells as a (height, width) numpy array, or bytes without numpy."""
        return _cells_out(self._cells, self.width, self.height)

    def hash(self) -> int:
        return K.dg_grid_hash(C.byref(self.grid))

    def ascii(self) -> str:
        size = (self.width + 1) * self.height + 1
        buf = C.create_string_buffer(size)
        _check(K.dg_render_ascii(C.byref(self.grid), None, buf, size, None))
        return buf.value.decode()

    # -- images and exports
    def rgba(self, scale: int = 8) -> bytes:
        """RGBA8 pixels, scale x scale per cell, in the default palette."""
        size = self.width * scale * self.height * scale * 4
        buf = (C.c_uint8 * size)()
        _check(K.dg_render_rgba(C.byref(self.grid), None, scale, buf, size))
        return bytes(buf)

    def png(self, scale: int = 8) -> bytes:
        """A PNG file of the map (the pixels the tool's PNG has, without its options)."""
        return K.png_bytes(self.rgba(scale), self.width * scale, self.height * scale)

    def _options(self, fmt: str, tile_size: int, tileset_image: Optional[str]) -> K.ExportOptions:
        opt = K.ExportOptions()
        K.dg_export_defaults(C.byref(opt))
        if fmt not in K.FORMATS:
            raise ValueError("unknown export format %r (json, tmj, tmx)" % fmt)
        opt.format = K.FORMATS[fmt]
        opt.tile_width = opt.tile_height = tile_size
        opt.tileset_image = (tileset_image or K.tileset_name(tile_size)).encode()
        opt.recipe = C.pointer(self.recipe_struct)
        return opt

    def export_bytes(self, fmt: str = "json", tile_size: int = 16,
                     tileset_image: Optional[str] = None) -> bytes:
        """The map as libdungeon JSON ("json") or a Tiled map ("tmj", "tmx"), UTF-8 bytes.
        A Tiled map references tileset_image, by default the tileset of its tile
        size (dungeon-tiles-N.png, which write_tileset or save writes)."""
        opt, need, diag = self._options(fmt, tile_size, tileset_image), C.c_size_t(), K.Diag()
        _check(K.dg_export_buffer(C.byref(self.grid), C.byref(self.result), C.byref(opt), None, 0,
                                  C.byref(need), C.byref(diag)), diag)
        buf = C.create_string_buffer(need.value + 1)
        _check(K.dg_export_buffer(C.byref(self.grid), C.byref(self.result), C.byref(opt), buf,
                                  len(buf), None, C.byref(diag)), diag)
        return buf.raw[:need.value]

    def export(self, fmt: str = "json", tile_size: int = 16, tileset_image: Optional[str] = None) -> str:
        """export_bytes as text."""
        return self.export_bytes(fmt, tile_size, tileset_image).decode()

    def export_stream(self, write: Callable[[bytes], None], fmt: str = "json", tile_size: int = 16,
                      tileset_image: Optional[str] = None) -> None:
        """The same through a callback: write(bytes) is called with each chunk."""
        opt, diag = self._options(fmt, tile_size, tileset_image), K.Diag()
        cb = K.WRITE_FN(lambda user, data, n: write(C.string_at(data, n)))  # kept alive for the call
        _check(K.dg_export(C.byref(self.grid), C.byref(self.result), C.byref(opt), cb, None,
                           C.byref(diag)), diag)

    def save(self, path: str, fmt: Optional[str] = None, tile_size: int = 16) -> List[str]:
        """Writes the map to path in fmt (default: from the extension: .json,
        .tmj, .tmx, .png); a Tiled map gets its tileset PNG beside it, as the
        tool does. Returns the paths written."""
        fmt = fmt or os.path.splitext(path)[1].lstrip(".")
        data = self.png() if fmt == "png" else self.export_bytes(fmt, tile_size)
        with open(path, "wb") as f:
            f.write(data)
        if fmt in ("json", "png"):
            return [path]
        tileset = os.path.join(os.path.dirname(path), K.tileset_name(tile_size))
        write_tileset(tileset, tile_size)
        return [path, tileset]

    # -- analysis
    def _walk(self, neighbours=4, corner_cutting=False, straight_weight=1, diagonal_weight=1,
              blocked=None, extra_cost=None) -> _Walk:
        return _Walk(self, neighbours, corner_cutting, straight_weight, diagonal_weight, blocked,
                     extra_cost)

    def regions(self, **walk) -> Tuple[Cells, List[int]]:
        """(labels, sizes): region label per cell (-1 off the walkable cells),
        labels 0..n-1 in order of their first cell, and each region's size.
        walk: neighbours, corner_cutting, blocked (a per-cell mask)."""
        w, n = self._walk(**walk), self.width * self.height
        labels, count, diag = (C.c_int32 * n)(), C.c_int32(), K.Diag()
        _check(K.dg_regions(C.byref(self.grid), C.byref(w.walk), labels, n, None, 0,
                            C.byref(count), None, C.byref(diag)), diag)
        sizes = (C.c_int32 * max(count.value, 1))()
        _check(K.dg_regions(C.byref(self.grid), C.byref(w.walk), labels, n, sizes, count.value,
                            None, None, C.byref(diag)), diag)
        return _ints_out(labels, self.width, self.height), list(sizes[:count.value])

    def distance_map(self, sources: Sequence[Point], max_distance: int = 0, **walk):
        """Walking distance from the nearest source per cell (-1: unreachable).
        walk: neighbours, corner_cutting, straight_weight, diagonal_weight,
        blocked, extra_cost (per-cell masks, row-major)."""
        return self.dijkstra_map(sources, None, max_distance, **walk)

    def dijkstra_map(self, sources: Sequence[Point], start_costs: Optional[Sequence[int]] = None,
                     max_distance: int = 0, **walk):
        """A Dijkstra map: each source starts at its own cost (None: all 0)."""
        w, n, diag, info = self._walk(**walk), self.width * self.height, K.Diag(), K.DistanceInfo()
        pts, dist = _points(sources), (C.c_int32 * n)()
        if start_costs is None:
            status = K.dg_distance_map(C.byref(self.grid), C.byref(w.walk), pts, len(sources),
                                       max_distance, dist, n, None, C.byref(info), C.byref(diag))
        else:
            costs = (C.c_int32 * max(len(start_costs), 1))(*start_costs)
            if len(start_costs) != len(sources):
                raise ValueError("start_costs needs one cost per source")
            status = K.dg_dijkstra_map(C.byref(self.grid), C.byref(w.walk), pts, costs, len(sources),
                                       max_distance, dist, n, None, C.byref(info), C.byref(diag))
        _check(status, diag)
        return _ints_out(dist, self.width, self.height)

    def path(self, start: Point, goal: Point, **walk) -> Tuple[List[Point], int]:
        """(cells from start to goal inclusive, summed step cost) by A*;
        DungeonError DG_E_NOPATH if there is none."""
        w, diag = self._walk(**walk), K.Diag()
        length, cost = C.c_int32(), C.c_int32()
        a, b = K.Point(*start), K.Point(*goal)
        _check(K.dg_path_find(C.byref(self.grid), C.byref(w.walk), a, b, None, None, 0,
                              C.byref(length), C.byref(cost), C.byref(diag)), diag)
        cells = (K.Point * length.value)()
        _check(K.dg_path_find(C.byref(self.grid), C.byref(w.walk), a, b, None, cells, length.value,
                              C.byref(length), C.byref(cost), C.byref(diag)), diag)
        return [(p.x, p.y) for p in cells[:length.value]], cost.value

    def fov(self, origin: Point, radius: int = 0, sight=None) -> Cells:
        """1 per cell seen from origin (radius 0: unlimited); sight: an optional
        per-cell DG_SIGHT_* mask (0 tile, 1 opaque, 2 clear)."""
        n, diag = self.width * self.height, K.Diag()
        visible = (C.c_uint8 * n)()
        ov, _keep = _overlay(self, sight=sight)
        _check(K.dg_fov_overlay(C.byref(self.grid), None, C.byref(ov) if ov else None,
                                K.Point(*origin), radius, visible, n, None, C.byref(diag)), diag)
        return _cells_out(visible, self.width, self.height)

    def measure(self) -> Dict[str, int]:
        """dg_measure's metrics of the cells alone (chokepoints, diameter, ...)."""
        m, diag = K.Metrics(), K.Diag()
        _check(K.dg_measure(C.byref(self.grid), None, C.byref(m), None, C.byref(diag)), diag)
        return {name: getattr(m, name) for name in K.named(K.Metrics)}

    def chokepoints(self) -> Cells:
        n, diag, count = self.width * self.height, K.Diag(), C.c_int32()
        mask = (C.c_uint8 * n)()
        _check(K.dg_chokepoints(C.byref(self.grid), None, mask, n, C.byref(count), None,
                                C.byref(diag)), diag)
        return _cells_out(mask, self.width, self.height)

    def autotile(self, kind: str = "blob", self_class: Optional[int] = 1,
                 classes: Optional[Dict[int, int]] = None, outside_class: int = 0) -> Cells:
        """dg_autotile (docs/autotile.md): per cell the tile index of kind
        "cardinal" (0..15), "blob" (0..46) or "corner" (0..15, on the corner
        grid: (height + 1, width + 1)). classes maps tile values to classes
        (default: walls and secret doors 1, water 2, the rest 0); self_class
        None matches each cell against its own class."""
        kinds = {"cardinal": K.DG_AUTOTILE_CARDINAL, "blob": K.DG_AUTOTILE_BLOB,
                 "corner": K.DG_AUTOTILE_CORNER}
        if kind not in kinds:
            raise ValueError("kind must be cardinal, blob or corner, not %r" % (kind,))
        p, diag = K.AutotileParams(), K.Diag()
        K.dg_autotile_defaults(C.byref(p))
        if classes is not None:
            p.classes[:] = [0] * 256
            for tile, cls in classes.items():
                p.classes[tile] = cls
        p.kind = kinds[kind]
        p.self_class = K.DG_AUTOTILE_OWN_CLASS if self_class is None else self_class
        p.outside_class = outside_class
        extra = 1 if kind == "corner" else 0
        w, h = self.width + extra, self.height + extra
        out = (C.c_uint8 * (w * h))()
        _check(K.dg_autotile(C.byref(self.grid), C.byref(p), out, w * h, 0, None, C.byref(diag)), diag)
        return _cells_out(out, w, h)

    def survey(self) -> Dict[str, int]:
        """The quality figures of docs/quality.md for this map and its result."""
        q, diag = K.Quality(), K.Diag()
        _check(K.dg_survey_map(C.byref(self.grid), C.byref(self.result), C.byref(q), None,
                               C.byref(diag)), diag)
        return {name: getattr(q, name) for name in K.named(K.Quality)}


Dungeon = Map  # the name of earlier releases


def generate(generator: str, width: int = 80, height: int = 50, seed: int = 1, *,
             prefabs: Union[None, str, PrefabSet] = None, graph: Union[None, str, Graph] = None,
             **params: Union[int, str, bool]) -> Map:
    """Any registered generator by name; params by their registry names
    (enum values by name or number); "graph" lays out graph (a Graph or its
    file). DungeonError on bad input."""
    return Map(parse_recipe(make_recipe(generator, seed, width, height, **params)), prefabs, graph)


def from_recipe(line: str, prefabs: Union[None, str, PrefabSet] = None,
                graph: Union[None, str, Graph] = None) -> Map:
    return Map.generate(line, prefabs, graph)


def _generator_function(name: str, params: List[Param]):
    """generate() for one generator, with its parameters as typed keywords."""
    def run(width: int = 80, height: int = 50, seed: int = 1, *, prefabs=None, **kw) -> Map:
        return generate(name, width, height, seed, prefabs=prefabs, **kw)
    kw = inspect.Parameter.KEYWORD_ONLY
    sig = [inspect.Parameter("width", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=80, annotation=int),
           inspect.Parameter("height", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=50, annotation=int),
           inspect.Parameter("seed", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1, annotation=int),
           inspect.Parameter("prefabs", kw, default=None, annotation=Union[None, str, PrefabSet])]
    for p in params:
        hint = Union[int, str] if p.choices else (bool if p.type == K.DG_PARAM_BOOL else int)
        default = p.choices[p.default] if p.choices else p.default
        sig.append(inspect.Parameter(p.name, kw, default=default, annotation=hint))
    run.__signature__ = inspect.Signature(sig, return_annotation=Map)
    run.__annotations__ = {q.name: q.annotation for q in sig}
    run.__annotations__["return"] = Map
    run.__name__ = run.__qualname__ = name.replace("-", "_")
    run.__doc__ = "%s: %s\n\n" % (name, _summary(name)) + "\n".join(
        "  %s: %s (default %s)" % (p.name, p.help, p.default) for p in params)
    return run


def _summary(name: str) -> str:
    return next(i.summary.decode() for i in _infos() if i.name.decode() == name)


def generator_functions() -> Dict[str, Callable[..., Map]]:
    """One typed function per registered generator ("prefab-full" -> prefab_full)."""
    return {i.name.decode().replace("-", "_"): _generator_function(
        i.name.decode(), [Param(i.params[k]) for k in range(i.param_count)]) for i in _infos()}


# ---- the swatch tileset ------------------------------------------------------------------------
def tileset_rgba(tile_size: int = 16) -> Tuple[bytes, int]:
    """RGBA8 pixels of the swatch tileset: (pixels, side), side = 16 * tile_size."""
    side = K.DG_TILESET_COLUMNS * tile_size
    buf = (C.c_uint8 * (side * side * 4))()
    _check(K.dg_export_tileset_rgba(None, tile_size, tile_size, buf, len(buf)))
    return bytes(buf), side


def tileset_png(tile_size: int = 16) -> bytes:
    rgba, side = tileset_rgba(tile_size)
    return K.png_bytes(rgba, side, side)


def write_tileset(path: str, tile_size: int = 16) -> None:
    """Writes the swatch tileset PNG that Tiled exports of this tile size reference."""
    with open(path, "wb") as f:
        f.write(tileset_png(tile_size))


def tile_name(tile: int) -> str:
    return K.dg_tile_name(tile).decode()
