"""A validator of the Tiled maps the dungeon tool writes (run by tests/tiled.sh).

For every registered generator (with the sample prefab sets), writes .tmx,
.tmj and libdungeon JSON with the tool and checks what Tiled's map readers
require: root and orientation, a tileset with firstgid >= 1, a tile size and an
image that exists with the declared size, exactly width x height CSV values
(no trailing comma) covered by the tileset, layer types, opacity and
visibility, unique object ids below nextobjectid, well-formed rectangles,
points and polylines; the tiles equal the JSON rows; the swatch tileset has the
legend's colours; the map background is void's colour; a start (exit) marker
on the start (exit) cell is written once, as the start (exit) object. Names
and paths XML cannot hold still give files that parse (through the ctypes
binding). If Tiled's tmxrasterizer is installed, Tiled itself must open and
draw each map with the right colour in every non-void cell."""
import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

build, tmp = sys.argv[1], sys.argv[2]
tool_path = os.path.join(build, "bin", "dungeon")
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)
    return cond


def read_png(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGB/RGBA non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (path, depth, ctype)
        elif kind == b"IDAT":
            idat += body
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + bpp]) + ((255,) if bpp == 3 else ())
                     for x in range(w)])
        prev = line
    return w, h, rows


def png_size(path):
    data = open(path, "rb").read(24)
    return struct.unpack(">II", data[16:24])


def read_ppm(path):
    """(width, height, rows of RGB tuples) of a binary PPM, as Qt writes it."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    assert fields[0] == b"P6" and fields[3] == b"255", path
    w, h = int(fields[1]), int(fields[2])
    px = data[pos:pos + w * h * 3]
    return w, h, [[tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(w)] for y in range(h)]


def hex_rgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))


def check_ids(objects, next_id, what):
    ids = [o["id"] for o in objects]
    check(len(ids) == len(set(ids)), what + ": object ids unique")
    check(all(1 <= i < next_id for i in ids), what + ": object ids below nextobjectid")
    check(next_id == (max(ids) + 1 if ids else 1), what + ": nextobjectid is highest id + 1")


def void_color(j):
    return [e["color"] for e in j["legend"] if e["tile"] == 0][0]


def expected_places(j, kind):
    """Objects of type kind: the result's one, plus its markers less the one folded into it."""
    at = j[kind]
    markers = [m for m in j["markers"] if m["kind"] == kind]
    folded = at is not None and any((m["x"], m["y"]) == (at["x"], at["y"]) for m in markers)
    return (at is not None) + len(markers) - folded


def check_tmx(path, j, what):
    root = ET.parse(path).getroot()
    w, h = j["width"], j["height"]
    check(root.tag == "map", what + ": root is <map>")
    a = root.attrib
    check(a.get("orientation") == "orthogonal" and a.get("renderorder") == "right-down", what + ": orientation")
    check(int(a["width"]) == w and int(a["height"]) == h and a.get("infinite") == "0", what + ": size")
    tw, th = int(a["tilewidth"]), int(a["tileheight"])
    check(tw > 0 and th > 0, what + ": tile size")
    tilesets = root.findall("tileset")
    check(len(tilesets) == 1, what + ": one tileset")
    ts = tilesets[0].attrib
    first, count, cols = int(ts["firstgid"]), int(ts["tilecount"]), int(ts["columns"])
    check(first >= 1 and int(ts["tilewidth"]) == tw and int(ts["tileheight"]) == th, what + ": tileset firstgid/size")
    img = tilesets[0].find("image").attrib
    img_path = os.path.join(os.path.dirname(path), img["source"])
    if check(os.path.exists(img_path), what + ": tileset image exists"):
        iw, ih = png_size(img_path)
        check((iw, ih) == (int(img["width"]), int(img["height"])) == (cols * tw, count // cols * th),
              what + ": tileset image size")
    layers = root.findall("layer")
    check(len(layers) == 1, what + ": one tile layer")
    la = layers[0].attrib
    check(int(la["width"]) == w and int(la["height"]) == h, what + ": layer size")
    check(la.get("opacity", "1") == "1" and la.get("visible", "1") == "1", what + ": layer opacity/visible")
    data = layers[0].find("data")
    check(data.attrib.get("encoding") == "csv" and "compression" not in data.attrib, what + ": csv data")
    tokens = data.text.strip().split(",")
    check(len(tokens) == w * h, what + ": exactly width*height CSV values (%d)" % len(tokens))
    check(all(t.strip().isdigit() for t in tokens), what + ": CSV values are numbers, no trailing comma")
    gids = [int(t) for t in tokens if t.strip().isdigit()]
    check(all(g == 0 or first <= g < first + count for g in gids), what + ": every GID in the tileset")
    check(gids == [v for row in j["rows"] for v in row], what + ": tiles equal the JSON rows")
    groups = root.findall("objectgroup")
    check(len(groups) == 1 and groups[0].attrib.get("visible", "1") == "1", what + ": one object layer")
    layer_ids = [int(la["id"]), int(groups[0].attrib["id"])]
    check(len(set(layer_ids)) == 2 and max(layer_ids) < int(a["nextlayerid"]), what + ": layer ids")
    objects = []
    for o in groups[0].findall("object"):
        oa = o.attrib
        objects.append({"id": int(oa["id"]), "type": oa.get("type")})
        float(oa["x"]), float(oa["y"])
        if o.find("point") is not None:
            shape = "point"
        elif o.find("polyline") is not None:
            pts = o.find("polyline").attrib["points"].split()
            shape = "polyline" if len(pts) >= 2 and all(len(p.split(",")) == 2 for p in pts) else "bad"
        else:
            shape = "rect" if float(oa["width"]) > 0 and float(oa["height"]) > 0 else "bad"
        check(shape != "bad" and oa.get("type"), what + ": object %s well formed" % oa["id"])
    check_ids(objects, int(a["nextobjectid"]), what)
    props = {p.attrib["name"]: p.attrib["value"] for p in root.find("properties")}
    check(props.get("recipe") == j["recipe"], what + ": recipe property")
    rooms = [o for o in objects if o["type"] == "room"]
    check(len(rooms) == len(j["rooms"]), what + ": one rectangle per room")
    check(len([o for o in objects if o["type"] == "door"]) == len(j["doors"]), what + ": one point per door")
    for kind in ("start", "exit"):
        check(len([o for o in objects if o["type"] == kind]) == expected_places(j, kind),
              what + ": one %s object per place" % kind)
    check(a.get("backgroundcolor") == void_color(j), what + ": background is void's colour")
    check(len([o for o in objects if o["type"] == "corridor"]) == len(j["corridors"]), what + ": corridors")
    return gids, img_path


def check_tmj(path, j, gids, what):
    m = json.load(open(path, encoding="utf-8"))
    w, h = j["width"], j["height"]
    check(m["type"] == "map" and m["orientation"] == "orthogonal" and m["infinite"] is False, what + ": map")
    check(m["width"] == w and m["height"] == h and m["tilewidth"] > 0 and m["tileheight"] > 0, what + ": size")
    ts = m["tilesets"]
    check(len(ts) == 1 and ts[0]["firstgid"] >= 1 and ts[0]["tilewidth"] == m["tilewidth"], what + ": tileset")
    check(os.path.exists(os.path.join(os.path.dirname(path), ts[0]["image"])), what + ": tileset image exists")
    kinds = [layer["type"] for layer in m["layers"]]
    check(kinds == ["tilelayer", "objectgroup"], what + ": layer types")
    for layer in m["layers"]:
        check(layer["opacity"] == 1 and layer["visible"] is True, what + ": layer opacity/visible")
        check(layer["id"] < m["nextlayerid"], what + ": layer id below nextlayerid")
    tiles = m["layers"][0]
    check(tiles["width"] == w and tiles["height"] == h and len(tiles["data"]) == w * h, what + ": data count")
    check(tiles["data"] == gids, what + ": tmj tiles equal the tmx tiles")
    objects = m["layers"][1]["objects"]
    check_ids(objects, m["nextobjectid"], what)
    for o in objects:
        ok = all(k in o for k in ("id", "name", "type", "x", "y", "width", "height", "visible"))
        if o.get("point"):
            ok = ok and o["width"] == 0
        elif "polyline" in o:
            ok = ok and len(o["polyline"]) >= 2
        else:
            ok = ok and o["width"] > 0 and o["height"] > 0
        check(ok, what + ": object %d well formed" % o["id"])
    check({p["name"]: p["value"] for p in m["properties"]}.get("recipe") == j["recipe"], what + ": recipe property")
    check(m.get("backgroundcolor") == void_color(j), what + ": background is void's colour")
    for kind in ("start", "exit"):
        check(len([o for o in objects if o["type"] == kind]) == expected_places(j, kind),
              what + ": one %s object per place" % kind)


_swatches = {}


def check_swatches(img_path, j, tile, what):
    if img_path not in _swatches:  # the same file for every map of a tile size
        _swatches[img_path] = read_png(img_path)[2]
    rows = _swatches[img_path]
    colors = {e["tile"]: hex_rgb(e["color"]) for e in j["legend"]}
    for v, rgb in colors.items():
        if v == 0:
            continue
        i = v - 1
        px = rows[(i // 16) * tile + tile // 2][(i % 16) * tile + tile // 2]
        check(px == rgb + (255,), what + ": swatch of tile %d" % v)


def check_with_tiled(path, j, what):
    """Tiled's own reader must open the map and draw each cell in its colour
    (drawn at 4 pixels per cell to keep the PNG small)."""
    out, tile = path + ".render.ppm", 4
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.setdefault("XDG_RUNTIME_DIR", tmp)
    r = subprocess.run(["tmxrasterizer", "--no-smoothing", "--tilesize", str(tile), "--hide-layer", "dungeon",
                        path, out],
                       capture_output=True, text=True, env=env)
    if not check(r.returncode == 0 and os.path.exists(out), what + ": Tiled opens it: " + r.stderr.strip()):
        return
    w, h, rows = read_ppm(out)
    check((w, h) == (j["width"] * tile, j["height"] * tile), what + ": Tiled draws the full size")
    colors = {e["tile"]: hex_rgb(e["color"]) for e in j["legend"]}
    bad = [(x, y) for y, row in enumerate(j["rows"]) for x, v in enumerate(row)
           if v and rows[y * tile + tile // 2][x * tile + tile // 2][:3] != colors[v]]
    check(not bad, what + ": Tiled draws every cell in its colour (%d wrong, first %s)" % (len(bad), bad[:1]))


def check_terrain_with_tiled(common, base, what):
    """With --style autotile the Tiled map draws walls, water and doors through
    the art tileset's Wang sets; Tiled's rendering must equal the tool's
    autotile PNG pixel for pixel."""
    tile = 8
    tool(*common, "--style", "autotile", "--tile-size", str(tile), "-o", base + "-art.tmx")
    tool(*common, "--style", "autotile", "--tile-size", str(tile), "-o", base + "-art.tmj")
    tool(*common, "--style", "autotile", "--scale", str(tile), "-o", base + "-art.png")
    root = ET.parse(base + "-art.tmx").getroot()
    sets = root.findall("tileset/wangsets/wangset")
    check([w.attrib["type"] for w in sets] == ["mixed", "mixed", "corner"] and
          [len(w.findall("wangtile")) for w in sets] == [47, 47, 16],
          what + ": Wang sets: walls and water mixed (47 tiles), wall corners (16)")
    _, _, want = read_png(base + "-art.png")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.setdefault("XDG_RUNTIME_DIR", tmp)
    for ext in ("tmx", "tmj"):
        out = base + "-art." + ext + ".ppm"
        r = subprocess.run(["tmxrasterizer", "--no-smoothing", "--hide-layer", "dungeon",
                            base + "-art." + ext, out], capture_output=True, text=True, env=env)
        if not check(r.returncode == 0 and os.path.exists(out), what + " " + ext + ": Tiled opens the terrain map: " + r.stderr.strip()):
            continue
        w, h, got = read_ppm(out)
        bad = [(x, y) for y in range(min(h, len(want))) for x in range(min(w, len(want[0])))
               if got[y][x] != want[y][x][:3]]
        check((w, h) == (len(want[0]), len(want)) and not bad,
              what + " " + ext + ": Tiled draws the terrain map as the autotile PNG (%d pixels differ, first %s)"
              % (len(bad), bad[:1]))


def tool(*args):
    r = subprocess.run([tool_path] + list(args), capture_output=True, text=True)
    check(r.returncode == 0, "dungeon %s: %s" % (" ".join(args), r.stderr.strip()))
    return r


SAMPLES = {"prefab-full": ("shaft.txt", 56, 26), "prefab-jigsaw": ("forest.txt", 84, 50),
           "prefab-islands": ("factory.txt", 80, 50), "prefab-mixed": ("vaults.txt", 80, 50),
           "world": ("furnish.txt", 64, 48)}
gens = [line.split()[0] for line in
        subprocess.run([tool_path, "--list"], capture_output=True, text=True).stdout.splitlines() if line.strip()]
check("attach" in gens, "generators listed")
have_tiled = shutil.which("tmxrasterizer") is not None
for gen in gens:
    sample = SAMPLES.get(gen)
    for seed, tile in ((1, 16), (2, 4)):
        what = "%s seed %d" % (gen, seed)
        base = os.path.join(tmp, "%s-%d" % (gen, seed))
        w, h = (sample[1], sample[2]) if sample else (47 + seed, 29 + seed)
        if gen == "graph":  # a level graph with roles, locks and a secret door
            w, h = 80, 50
        common = ["--gen", gen, "--seed", str(seed), "--width", str(w), "--height", str(h)]
        if sample:
            common += ["--prefabs", os.path.join("examples", "prefabs", sample[0])]
        if gen == "graph":
            common += ["--graph", os.path.join("examples", "graphs", "zelda.txt")]
        tool(*common, "-o", base + ".json")
        tool(*common, "--tile-size", str(tile), "-o", base + ".tmx")
        tool(*common, "--tile-size", str(tile), "-o", base + ".tmj")
        j = json.load(open(base + ".json", encoding="utf-8"))
        gids, img = check_tmx(base + ".tmx", j, what + " tmx")
        check_tmj(base + ".tmj", j, gids, what + " tmj")
        check_swatches(img, j, tile, what)
        if have_tiled:
            check_with_tiled(base + ".tmx", j, what + " tmx")
            check_with_tiled(base + ".tmj", j, what + " tmj")
            if seed == 1 and gen != "graph":  # (its PNG writes node names, which Tiled does not)
                check_terrain_with_tiled(common, base, what + " terrain")


def check_hostile_text():
    """Marker names and a tileset path with characters XML 1.0 cannot hold
    (U+FFFE, U+FFFF, control bytes, invalid UTF-8): the exports still parse."""
    lib_path = os.path.join(build, "libdungeon.so")
    if not check(os.path.exists(lib_path), "the shared library is built"):
        return
    os.environ["DUNGEON_LIB"] = os.path.abspath(lib_path)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "bindings", "python"))
    import dungeon
    d = dungeon.Dungeon.generate("prefab-full seed=1 width=56 height=26",
                                 os.path.join("examples", "prefabs", "shaft.txt"))
    names = ["a\ufffe\uffffb".encode(), b"c\x01\x1f\x7fd", b"\xff\xed\xa0\x80\xef\xbf", "\U0010ffff".encode()]
    r = d.result
    for i in range(r.marker_count):  # every marker: the first is folded into the start object
        r.markers[i].name = names[i % len(names)]
    path = "tiles\ufffe\uffff\x02.png"
    try:
        root = ET.fromstring(d.export("tmx", tileset_image=path).encode())
        got = [o.attrib["name"] for o in root.iter("object")]
        check(any("a\ufffd\ufffdb" == n for n in got), "tmx: U+FFFE and U+FFFF became U+FFFD")
        check(root.find("tileset/image").attrib["source"] == "tiles\ufffd\ufffd?.png", "tmx: tileset path")
    except ET.ParseError as e:
        check(False, "tmx with hostile names parses: %s" % e)
    for fmt in ("tmj", "json"):
        try:
            json.loads(d.export(fmt, tileset_image=path))
            check(True, fmt + " with hostile names parses")
        except ValueError as e:
            check(False, "%s with hostile names parses: %s" % (fmt, e))


check_hostile_text()
if not have_tiled:
    print("note: Tiled's tmxrasterizer is not installed; the maps were checked without opening them in Tiled")
    print("skipped the terrain maps (--style autotile) against Tiled's rendering: tmxrasterizer is not installed")
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
