"""Proves the C ABI from Python (run by tests/python.sh with BUILD LAYOUT TMPDIR).

Loads libdungeon.so through the dungeon package (examples/bindings/python),
checks that its ctypes structs have the C compiler's sizes and offsets, then
generates maps with every registered generator and compares them byte for byte (and the structured
result field by field) with the dungeon tool's JSON output, parsed back with
the json module: a JSON round trip of every generator's output."""
import json
import os
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bindings", "python"))
import dungeon as dg  # noqa: E402

build, layout_path, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
tool = os.path.join(build, "bin", "dungeon")
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


# ---- struct layouts ------------------------------------------------------------------
STRUCTS = {"dg_grid": dg.Grid, "dg_room": dg.Room, "dg_corridor": dg.Corridor, "dg_door": dg.Door,
           "dg_marker": dg.Marker, "dg_metrics": dg.Metrics, "dg_allocator": dg.Allocator,
           "dg_result": dg.Result, "dg_diag": dg.Diag, "dg_param_desc": dg.ParamDesc,
           "dg_generator_info": dg.GeneratorInfo, "dg_recipe": dg.Recipe,
           "dg_export_options": dg.ExportOptions, "dg_attach_params": dg.AttachParams,
           "dg_overlay": dg.Overlay, "dg_move": dg.Move, "dg_distance_info": dg.DistanceInfo,
           "dg_quality": dg.Quality, "dg_autotile_params": dg.AutotileParams,
           "dg_graph_node": dg.GraphNode, "dg_graph_edge": dg.GraphEdge, "dg_graph": dg._core.Graph,
           "dg_site": dg.Site}
RENAMED = {"from": "from_", "def": "default"}
for line in open(layout_path):
    words = line.split()
    name, value = words[0], words[-1]
    if len(words) == 3:  # "dg_x size N"
        cls = STRUCTS[name]
        check(dg.C.sizeof(cls) == int(value), "sizeof %s: ctypes %d, C %s" % (name, dg.C.sizeof(cls), value))
    else:
        struct, member = name.split(".")
        cls = STRUCTS[struct]
        member = RENAMED.get(member, member)
        check(getattr(cls, member).offset == int(value), "offsetof %s: C %s" % (name, value))

# ---- the registry as Python sees it ------------------------------------------------------
gens = dg.generators()
check("attach" in gens, "attach is registered")
attach_fields = [name for name, _ in dg.AttachParams._fields_ if name != "spare"]
check([p[0] for p in gens["attach"]] == attach_fields, "attach table lists the struct's fields in order")
defaults = dg.AttachParams()
dg.dg_attach_defaults(dg.C.byref(defaults))
check(all(getattr(defaults, p[0]) == p[4] for p in gens["attach"]), "attach defaults match the table")
check(dg.version() == subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.split()[-1],
      "library and tool report the same version")


# ---- every generator, byte for byte against the tool ---------------------------------------
def tool_json(line, out, prefabs):
    extra = ["--prefabs", prefabs] if prefabs else []
    r = subprocess.run([tool, "--recipe", line, "--format", "json", "-o", out] + extra,
                       capture_output=True, text=True)
    check(r.returncode == 0, "tool runs '%s': %s" % (line, r.stderr.strip()))
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def compare(d, j, line):
    w, h = d.width, d.height
    check(j["width"] == w and j["height"] == h, line + ": size")
    rows = j["rows"]
    flat = bytes(v for row in rows for v in row)
    check(len(rows) == h and all(len(row) == w for row in rows), line + ": rows shape")
    check(flat == d.cells, line + ": cells byte for byte")
    check(j["recipe"] == d.recipe, line + ": recipe")
    rooms = [(r["x"], r["y"], r["w"], r["h"]) for r in j["rooms"]]
    check(rooms == [m[:4] for m in d.rooms], line + ": rooms")
    check([(c["x"], c["y"]) for c in j["doors"]] == d.doors, line + ": doors")
    check([tuple(c["start"]) for c in j["corridors"]] == [c[0] for c in d.corridors], line + ": corridors")
    check([(m["x"], m["y"], m["name"]) for m in j["markers"]] == [(m[0], m[1], m[4]) for m in d.markers],
          line + ": markers")
    start = (j["start"]["x"], j["start"]["y"]) if j["start"] else (-1, -1)
    check(start == d.start, line + ": start")
    check(j["metrics"] == d.metrics, line + ": metrics")
    legend = {e["tile"] for e in j["legend"]}
    check(set(d.cells) <= legend, line + ": legend names every tile used")


# the sample prefab set and size each generator is tested with (as the C tests)
SAMPLES = {"prefab-full": ("shaft.txt", 56, 26), "prefab-jigsaw": ("forest.txt", 84, 50),
           "prefab-islands": ("factory.txt", 80, 50), "prefab-mixed": ("vaults.txt", 80, 50),
           "world": ("furnish.txt", 64, 48)}
for name, params in gens.items():
    sample, w, h = SAMPLES.get(name, (None, 64, 40))
    prefabs = os.path.join("examples", "prefabs", sample) if sample else None
    for seed in (1, 2, 77):
        line = "%s seed=%d width=%d height=%d" % (name, seed, w + (0 if sample else seed % 5), h)
        d = dg.Dungeon.generate(line, prefabs)
        out = os.path.join(tmp, "%s-%d.json" % (name, seed))
        j = tool_json(line, out, prefabs)
        compare(d, j, line)
        # the export from Python is the tool's file, byte for byte, by buffer and by callback
        with open(out, encoding="utf-8") as f:
            text = f.read()
        check(d.export("json") == text, line + ": export buffer equals the tool's file")
        chunks = []
        d.export_stream(chunks.append, "json")
        check(b"".join(chunks).decode() == text, line + ": export callback equals the tool's file")
        tmx = d.export("tmx")
        check(tmx.startswith("<?xml") and d.recipe in tmx, line + ": tmx export")
    # a non-default value of every parameter changes nothing but that parameter
    for p in params:
        pname, ptype, lo, hi, default, _, choices = p
        value = hi if default != hi else lo
        line = "%s seed=5 width=48 height=32 %s=%s" % (name, pname, choices[value] if choices else value)
        recipe = dg.parse_recipe(line)
        check(dg.recipe_text(recipe).count(" %s=" % pname) == 1, line + ": printed once")
        check(dg.parse_recipe(dg.recipe_text(recipe)).values[:] == recipe.values[:], line + ": round trip")

# ---- a params struct for every generator, built from its table alone
for name, params in gens.items():
    cls = dg.params_class(name)
    gi = dg.GeneratorInfo()
    dg.dg_generator_get([n for n in gens].index(name), dg.C.byref(gi))
    check(dg.C.sizeof(cls) == gi.params_size, name + ": table-built struct has the C size")
    p = cls().defaults()
    check(all(getattr(p, q[0]) == q[4] for q in params), name + ": defaults read through the table")

# ---- a direct call with the struct gives the recipe's bytes -----------------------------------
params = dg.AttachParams()
dg.dg_attach_defaults(dg.C.byref(params))
params.growth, params.loop_min_gain = 1, 6
cells = (dg.C.c_uint8 * (60 * 30))()
grid = dg.Grid()
dg.dg_grid_init(dg.C.byref(grid), cells, 60, 30, 0)
check(dg.dg_attach_generate(dg.C.byref(grid), dg.C.byref(params), 99, None, None, None) == 0, "direct attach call")
d = dg.Dungeon.generate("attach seed=99 width=60 height=30 growth=newest loop_min_gain=6")
check(bytes(cells) == d.cells, "direct call and recipe give the same bytes")
check(dg.dg_grid_hash(dg.C.byref(grid)) == d.hash(), "same grid hash")

# ---- Tiled exports reference the tileset of their tile size, which the binding writes ----------
def png_pixels(data):
    """(width, height, RGBA bytes) of an 8-bit RGBA PNG, any filters (zlib alone)."""
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        n, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            check(body[8:10] == bytes([8, 6]), "PNG is 8-bit RGBA")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, row, out, prev = zlib.decompress(idat), width * 4, bytearray(), bytearray(width * 4)
    for y in range(height):
        ftype, line = raw[y * (row + 1)], bytearray(raw[y * (row + 1) + 1:(y + 1) * (row + 1)])
        for i in range(row):
            a, b = line[i - 4] if i >= 4 else 0, prev[i]
            c = prev[i - 4] if i >= 4 else 0
            pred = [0, a, b, (a + b) // 2, 0][ftype]
            if ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 255
        out += line
        prev = line
    return width, height, bytes(out)


line = "chain seed=12 width=30 height=20"
d = dg.Dungeon.generate(line)
for size in (8, 16, 5):
    name = "dungeon-tiles-%d.png" % size
    check(d.export("tmx", tile_size=size).count('<image source="%s" width="%d" height="%d"/>'
                                                % (name, 16 * size, 16 * size)) == 1,
          "tmx at tile size %d references %s" % (size, name))
    check(json.loads(d.export("tmj", tile_size=size))["tilesets"][0]["image"] == name,
          "tmj at tile size %d references %s" % (size, name))
    ours, theirs = os.path.join(tmp, "py%d" % size), os.path.join(tmp, "tool%d" % size)
    os.makedirs(ours)
    os.makedirs(theirs)
    written = d.save(os.path.join(ours, "map.tmx"), tile_size=size)
    check(written == [os.path.join(ours, "map.tmx"), os.path.join(ours, name)], "save writes map and tileset")
    r = subprocess.run([tool, "--recipe", line, "--tile-size", str(size), "-o", os.path.join(theirs, "map.tmx")],
                       capture_output=True, text=True)
    check(r.returncode == 0, "tool writes a tmx at tile size %d" % size)
    with open(os.path.join(ours, "map.tmx"), "rb") as f, open(os.path.join(theirs, "map.tmx"), "rb") as g:
        check(f.read() == g.read(), "tile size %d: saved tmx equals the tool's" % size)
    with open(os.path.join(ours, name), "rb") as f, open(os.path.join(theirs, name), "rb") as g:
        mine, tools = png_pixels(f.read()), png_pixels(g.read())
    check(mine[:2] == (16 * size, 16 * size), "tileset PNG is %d x %d: %s" % (16 * size, 16 * size, mine[:2]))
    check(mine == tools, "tile size %d: tileset pixels equal the tool's PNG" % size)
    check(mine[2] == dg.tileset_rgba(size)[0], "tile size %d: PNG holds dg_export_tileset_rgba" % size)
check(d.save(os.path.join(tmp, "map.json")) == [os.path.join(tmp, "map.json")], "json has no tileset")

# ---- a recipe records its prefab set like the tool's, and replays only with it -----------------
d1 = dg.Dungeon.generate("prefab-full seed=1 width=56 height=26", "examples/prefabs/shaft.txt")
check("prefabs=examples/prefabs/shaft.txt prefabs_hash=0x" in d1.recipe, "recipe names its set: " + d1.recipe)
d2 = dg.Dungeon.generate(d1.recipe)
check(d2.cells == d1.cells and d2.recipe == d1.recipe, "a recipe naming its set replays alone")
try:
    dg.Dungeon.generate(d1.recipe, "examples/prefabs/vaults.txt")
    check(False, "another prefab set is refused")
except dg.DungeonError as e:
    check(e.status == -1, "another prefab set is refused: %s" % e)

# ---- errors surface with their column --------------------------------------------------------
try:
    dg.parse_recipe("attach seed=1 growth=sideways")
    check(False, "bad recipe raises")
except dg.DungeonError as e:
    check(e.status == -7 and e.column == 22 and "sideways" in str(e), "parse error: %s" % e)
try:
    dg.Dungeon.generate("attach width=4 height=4 room_min_w=9")
    check(False, "impossible recipe raises")
except dg.DungeonError as e:
    check(e.status < 0, "generation error: %s" % e)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
