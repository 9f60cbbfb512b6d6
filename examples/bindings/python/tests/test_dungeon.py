"""pytest suite of the dungeon package (run by tests/ports/bindings.sh).

Environment: DUNGEON_TOOL, the dungeon tool of the same build, whose output
every map is compared with; DUNGEON_REPO, the repository (for the sample
prefab sets). The package under test is whichever `import dungeon` finds (the
installed wheel, or the source tree on PYTHONPATH)."""
import inspect
import json
import os
import subprocess
import zlib

import pytest

import dungeon

REPO = os.environ.get("DUNGEON_REPO", os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
TOOL = os.environ.get("DUNGEON_TOOL", os.path.join(REPO, "build", "bin", "dungeon"))
PREFABS = {"prefab-full": ("shaft.txt", 56, 26), "prefab-jigsaw": ("forest.txt", 84, 50),
           "prefab-islands": ("factory.txt", 80, 50), "prefab-mixed": ("vaults.txt", 80, 50),
           "world": ("furnish.txt", 64, 48)}


@pytest.fixture(autouse=True)
def plain_outputs():
    """bytes and array.array outputs, whether numpy is installed or not."""
    old = dungeon.use_numpy(False)
    yield
    dungeon.use_numpy(old)


def sample(name):
    """(prefab file or None, width, height) the generator is tested at."""
    file, w, h = PREFABS.get(name, (None, 64, 40))
    return (os.path.join(REPO, "examples", "prefabs", file) if file else None), w, h


def tool(line, fmt, tmp_path, prefabs=None, *extra):
    out = tmp_path / ("tool." + fmt)
    cmd = [TOOL, "--recipe", line, "--format", fmt, "-o", str(out)] + list(extra)
    if prefabs:
        cmd += ["--prefabs", prefabs]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


def png_pixels(data):
    """(width, height, RGBA bytes) of an 8-bit RGBA or RGB PNG, any filter."""
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        n, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            channels = {6: 4, 2: 3}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, row, out = zlib.decompress(idat), width * channels, bytearray()
    prev = bytearray(row)
    for y in range(height):
        ftype, line = raw[y * (row + 1)], bytearray(raw[y * (row + 1) + 1:(y + 1) * (row + 1)])
        for i in range(row):
            a, b = line[i - channels] if i >= channels else 0, prev[i]
            c = prev[i - channels] if i >= channels else 0
            pred = [0, a, b, (a + b) // 2, 0][ftype]
            if ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 255
        out += line
        prev = line
    if channels == 3:
        out = b"".join(bytes(out[i:i + 3]) + b"\xff" for i in range(0, len(out), 3))
    return width, height, bytes(out)


# ---- generation ------------------------------------------------------------------------------
GENERATORS = list(dungeon.generators())


@pytest.mark.parametrize("name", GENERATORS)
@pytest.mark.parametrize("seed", [1, 2, 77])
def test_map_equals_the_tools(name, seed, tmp_path):
    prefabs, w, h = sample(name)
    line = "%s seed=%d width=%d height=%d" % (name, seed, w, h)
    m = dungeon.generate(name, w, h, seed, prefabs=prefabs)
    j = json.loads(tool(line, "json", tmp_path, prefabs))
    assert m.cells == bytes(v for row in j["rows"] for v in row)
    assert (m.width, m.height) == (j["width"], j["height"])
    assert m.recipe == j["recipe"]
    assert [r[:4] for r in m.rooms] == [(r["x"], r["y"], r["w"], r["h"]) for r in j["rooms"]]
    assert m.metrics == j["metrics"]


def test_every_generator_has_a_typed_function():
    for name, params in dungeon.generators().items():
        fn = getattr(dungeon, name.replace("-", "_"))
        sig = inspect.signature(fn)
        assert list(sig.parameters)[:4] == ["width", "height", "seed", "prefabs"]
        assert [p[0] for p in params] == list(sig.parameters)[4:]
        for p in params:
            assert sig.parameters[p[0]].annotation is not inspect.Parameter.empty


def test_generator_function_passes_parameters(tmp_path):
    m = dungeon.chain(61, 37, 7, overlap="forbid", rooms_max=9)
    line = "chain seed=7 width=61 height=37 overlap=forbid rooms_max=9"
    j = json.loads(tool(line, "json", tmp_path))
    assert m.cells == bytes(v for row in j["rows"] for v in row)
    assert dungeon.chain(61, 37, 7, overlap=1, rooms_max=9).cells == m.cells


def test_prefab_set_object_and_path_agree():
    file, w, h = sample("prefab-full")
    pset = dungeon.PrefabSet.load(file)
    assert len(pset) > 0
    assert dungeon.prefab_full(w, h, 3, prefabs=pset).cells == dungeon.prefab_full(w, h, 3, prefabs=file).cells


# ---- level graphs ----------------------------------------------------------------------------
GRAPHS = os.path.join(REPO, "examples", "graphs")


@pytest.mark.parametrize("file", ["linear.txt", "loop_lock.txt", "zelda.txt"])
def test_graph_map_equals_the_tools(file, tmp_path):
    path = os.path.join(GRAPHS, file)
    graph = dungeon.Graph.load(path)
    m = dungeon.generate("graph", 80, 50, 5, graph=graph)
    assert "graph_hash=0x%x" % graph.hash in m.recipe
    j = json.loads(tool("graph seed=5 width=80 height=50", "json", tmp_path, None, "--graph", path))
    assert m.cells == bytes(v for row in j["rows"] for v in row)
    assert m.recipe == j["recipe"]
    # every node is a room, named and in its role
    labels = {label["name"]: label for label in m.room_labels() if label["node"] >= 0}
    assert sorted(labels) == sorted(n["name"] for n in graph.nodes())
    assert all(labels[n["name"]]["role"] == n["role"] for n in graph.nodes() if n["role"])


def test_graph_from_text_and_file_agree_and_replay():
    path = os.path.join(GRAPHS, "loop_lock.txt")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    parsed, loaded = dungeon.Graph.parse(text, "loop_lock.txt"), dungeon.Graph.load(path)
    assert parsed.hash == loaded.hash and len(parsed) == 6 and len(parsed.edges()) == 6
    a = dungeon.generate("graph", 80, 50, 9, graph=parsed)
    assert a.cells == dungeon.generate("graph", 80, 50, 9, graph=path).cells
    assert dungeon.from_recipe(a.recipe, graph=parsed).cells == a.cells
    parsed.room_distance = 0  # another graph: a recipe made with the first refuses it
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.from_recipe(a.recipe, graph=parsed)
    assert e.value.status_name == "DG_E_INVALID"


def test_graph_max_attempts_bounds_the_search():
    graph = dungeon.Graph.parse("graph 1\nlevel max_attempts=1\nnode a size=3x3\n"
                                "node b size=3x3\nedge a b\n")
    assert graph.max_attempts == 1
    one = dungeon.generate("graph", 40, 30, 3, graph=graph)
    graph.max_attempts = 0  # the default, 256: a layout found in one attempt is the same
    assert dungeon.generate("graph", 40, 30, 3, graph=graph).cells == one.cells
    # parameter max_attempts replaces the graph's bound (-1, the default, keeps it)
    assert dungeon.generate("graph", 40, 30, 3, graph=graph, max_attempts=4096).cells == one.cells
    graph.max_attempts = 4097
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.generate("graph", 40, 30, 3, graph=graph)
    assert e.value.status_name == "DG_E_INVALID" and "max_attempts 4097" in e.value.message


def test_graph_generator_needs_a_graph_and_stays_out_of_the_lists():
    assert dungeon.needs_graph("graph") and not dungeon.needs_graph("attach")
    assert "graph" not in dungeon.generators() and not hasattr(dungeon, "graph")
    params = dungeon.generator_params("graph")
    assert [p.name for p in params] == ["room_distance", "max_attempts"]
    assert (params[1].min, params[1].max, params[1].default) == (-1, 4096, -1)
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.generate("graph", 80, 50, 1)
    assert e.value.status_name == "DG_E_NULL" and "level graph" in e.value.message


def test_bad_graphs_raise_with_the_place():
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.Graph.parse("graph 1\nnode a size=3x3\nedge a b\n", "t.txt")
    assert e.value.status_name == "DG_E_PARSE" and (e.value.line, e.value.column) == (3, 8)
    # the Petersen graph passes the edge counts but is not planar
    lines = ["graph 1"] + ["node n%d size=3x3" % i for i in range(10)]
    lines += ["edge n%d n%d" % (i, (i + 1) % 5) for i in range(5)]
    lines += ["edge n%d n%d" % (i, 5 + i) for i in range(5)]
    lines += ["edge n%d n%d" % (5 + i, 5 + (i + 2) % 5) for i in range(5)]
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.Graph.parse("\n".join(lines) + "\n", "petersen.txt")
    assert e.value.status_name == "DG_E_INVALID" and "not planar" in e.value.message
    assert "(a K3,3)" in e.value.message and e.value.line > 11
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.Graph.load(os.path.join(GRAPHS, "no_such_graph.txt"))
    assert "cannot open" in e.value.message


def test_numpy_arrays_when_installed():
    np = pytest.importorskip("numpy")
    dungeon.use_numpy(True)
    m = dungeon.attach(30, 20, 4)
    assert isinstance(m.tiles(), np.ndarray) and m.tiles().shape == (20, 30)
    assert m.tiles().tobytes() == m.cells
    assert m.distance_map([m.start]).dtype == np.int32


# ---- analysis ------------------------------------------------------------------------------------
@pytest.fixture
def attach_map():
    return dungeon.attach(60, 30, 99)


def at(grid, w, p):
    return grid[p[1] * w + p[0]]


def test_regions_cover_the_floor(attach_map):
    m = attach_map
    labels, sizes = m.regions()
    passable = sum(1 for c in m.cells if c in (1, 2, 4, 5, 6, 7))
    assert sum(sizes) == passable == m.measure()["floor_cells"]
    assert len(sizes) == m.metrics["regions"] == 1
    assert at(labels, m.width, m.start) == 0 and min(labels) == -1


def test_distance_path_and_survey_agree(attach_map):
    m = attach_map
    dist = m.distance_map([m.start])
    path, cost = m.path(m.start, m.exit)
    assert path[0] == m.start and path[-1] == m.exit
    assert cost == len(path) - 1 == at(dist, m.width, m.exit)
    assert m.survey()["route"] == cost
    # the exit is a farthest room cell: among the farthest tenth of all cells
    assert m.survey()["exit_rank_permille"] <= 100
    assert at(dist, m.width, m.exit) * 10 >= max(dist) * 9


def test_blocked_overlay_changes_the_walk(attach_map):
    m = attach_map
    path, cost = m.path(m.start, m.exit)
    blocked = bytearray(m.width * m.height)
    x, y = path[len(path) // 2]
    blocked[y * m.width + x] = 1
    dist = m.distance_map([m.start], blocked=bytes(blocked))
    if dist == m.distance_map([m.start]):
        pytest.skip("this build of the library does not honour dg_move.overlay yet")
    assert at(dist, m.width, (x, y)) == -1
    heavy = m.distance_map([m.start], extra_cost=bytes([3]) * (m.width * m.height))
    assert at(heavy, m.width, m.exit) == 4 * cost


def test_dijkstra_map_with_zero_costs_is_the_distance_map(attach_map):
    m = attach_map
    try:
        dmap = m.dijkstra_map([m.start, m.exit], [0, 5])
    except dungeon.DungeonError as e:
        if "not written yet" in e.message:
            pytest.skip("dg_dijkstra_map is not in this build yet")
        raise
    assert at(dmap, m.width, m.exit) == 5
    plain = m.distance_map([m.start])
    assert m.dijkstra_map([m.start], [0]) == plain


def test_fov_sees_the_origin_and_not_through_walls(attach_map):
    m = attach_map
    seen = m.fov(m.start, 6)
    assert at(seen, m.width, m.start) == 1
    assert sum(seen) < m.width * m.height
    far = [i for i, v in enumerate(m.distance_map([m.start])) if v > 30]
    assert far and all(seen[i] == 0 for i in far)


def test_measure_and_chokepoints(attach_map):
    m = attach_map
    mm = m.measure()
    assert mm["chokepoints"] == sum(m.chokepoints()) and mm["diameter"] > 0


def test_walk_neighbours_8_is_no_longer(attach_map):
    m = attach_map
    assert m.path(m.start, m.exit, neighbours=8)[1] <= m.path(m.start, m.exit)[1]


# ---- recipes ---------------------------------------------------------------------------------------
def test_recipe_round_trip():
    line = dungeon.make_recipe("cave", 5, 70, 40, tunnel_width=3, border=False)
    assert "tunnel_width=3" in line and " border=0" in line
    values = dungeon.recipe_values(line)
    assert values["tunnel_width"] == 3 and values["fill_permille"] == 470
    assert dungeon.from_recipe(line).cells == dungeon.cave(70, 40, 5, tunnel_width=3, border=0).cells
    assert dungeon.recipe_text(dungeon.parse_recipe(line)) == line


def test_recipe_names_its_prefab_set():
    file, w, h = sample("prefab-full")
    m = dungeon.prefab_full(w, h, 1, prefabs=file)
    assert "prefabs_hash=0x" in m.recipe
    assert dungeon.from_recipe(m.recipe).cells == m.cells


# ---- exports -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["json", "tmj", "tmx"])
def test_exports_equal_the_tools_files(fmt, tmp_path):
    line = "scatter seed=3 width=50 height=30"
    m = dungeon.from_recipe(line)
    theirs = tool(line, fmt, tmp_path, None, *([] if fmt == "json" else ["--no-tileset"]))
    assert m.export_bytes(fmt) == theirs
    chunks = []
    m.export_stream(chunks.append, fmt)
    assert b"".join(chunks) == theirs


def test_png_has_the_tools_pixels(tmp_path):
    line = "bsp seed=8 width=40 height=30"
    m = dungeon.from_recipe(line)
    ours = png_pixels(m.png(scale=4))
    assert ours == png_pixels(tool(line, "png", tmp_path, None, "--scale", "4"))
    assert ours == (160, 120, m.rgba(4))


def test_save_writes_map_and_tileset(tmp_path):
    m = dungeon.maze(41, 31, 2)
    written = m.save(str(tmp_path / "m.tmx"), tile_size=8)
    assert written == [str(tmp_path / "m.tmx"), str(tmp_path / "dungeon-tiles-8.png")]
    assert png_pixels((tmp_path / "dungeon-tiles-8.png").read_bytes())[2] == dungeon.tileset_rgba(8)[0]


# ---- errors ------------------------------------------------------------------------------------------
def test_bad_enum_value_raises_with_status_and_message():
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.attach(growth="sideways")
    assert e.value.status == -7 and e.value.status_name == "DG_E_PARSE"
    assert "sideways" in e.value.message and "DG_E_PARSE" in str(e.value)


def test_impossible_map_raises():
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.attach(4, 4, room_min_w=9)
    assert e.value.status_name == "DG_E_TOO_SMALL" and "4x4" in e.value.message


def test_bad_recipe_line_has_a_column():
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.from_recipe("attach seed=1 growth=sideways")
    assert e.value.column == 22


def test_unknown_generator_and_key():
    with pytest.raises(dungeon.DungeonError):
        dungeon.generate("no-such-generator")
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.generate("attach", oops=1)
    assert e.value.status_name == "DG_E_PARSE"


def test_path_errors(attach_map):
    m = attach_map
    with pytest.raises(dungeon.DungeonError) as e:
        m.path(m.start, (0, 0))
    assert e.value.status_name == "DG_E_NOPATH"
    with pytest.raises(dungeon.DungeonError) as e:
        m.path((-5, 0), m.exit)
    assert e.value.status_name == "DG_E_INVALID" and e.value.message


def test_bad_prefab_text_names_line_and_column():
    with pytest.raises(dungeon.DungeonError) as e:
        dungeon.PrefabSet.parse("prefab x\nmap\n#?#\nend\n", "bad.txt")
    assert e.value.status_name == "DG_E_PARSE" and "bad.txt:" in e.value.message


def test_recipe_finds_its_set_from_a_deep_path(tmp_path):
    # a path longer than the recipe's hint keeps only its base name there
    file, w, h = sample("prefab-full")
    deep = tmp_path / ("d" * 40) / ("e" * 40)
    deep.mkdir(parents=True)
    copy = deep / os.path.basename(file)
    copy.write_bytes(open(file, "rb").read())
    m = dungeon.prefab_full(w, h, 1, prefabs=str(copy))
    assert "prefabs=" + os.path.basename(file) in m.recipe
    assert dungeon.from_recipe(m.recipe).cells == m.cells


def test_autotile_blob_matches_a_reference(attach_map):
    """Every wall's blob index from the definition: a corner counts only with both sides."""
    m = attach_map
    w, h, cells = m.width, m.height, m.cells
    got = bytes(m.autotile("blob"))
    masks = [dungeon.dg_autotile_blob_mask(i) for i in range(47)]

    def wall(x, y):
        return 0 <= x < w and 0 <= y < h and cells[y * w + x] in (3, 11)

    for y in range(h):
        for x in range(w):
            n, e, s, ww = wall(x, y - 1), wall(x + 1, y), wall(x, y + 1), wall(x - 1, y)
            mask = (n | (n and e and wall(x + 1, y - 1)) << 1 | e << 2 | (s and e and wall(x + 1, y + 1)) << 3
                    | s << 4 | (s and ww and wall(x - 1, y + 1)) << 5 | ww << 6
                    | (n and ww and wall(x - 1, y - 1)) << 7)
            assert masks[got[y * w + x]] == mask, (x, y)
    corner = bytes(m.autotile("corner"))
    assert len(corner) == (w + 1) * (h + 1)
    assert len(bytes(m.autotile("cardinal", self_class=None))) == w * h
    with pytest.raises(dungeon.DungeonError):
        m.autotile("blob", self_class=7)


BUILTIN_ROLES = {"", "start", "exit", "key", "boss", "secret", "treasure", "shop", "hub"}


@pytest.mark.parametrize("line", ["attach seed=42 width=80 height=50", "bsp seed=3 width=70 height=44",
                                  "scatter seed=9 width=80 height=50"])
def test_room_labels_builtin_roles(line):
    m = dungeon.Map.generate(line)
    assert m.room_labels() == []  # a plain recipe labels nothing
    labels = m.assign_roles()
    assert labels == m.room_labels() and len(labels) == len(m.rooms)
    assert [l["room"] for l in labels] == list(range(len(m.rooms)))
    assert {l["role"] for l in labels} <= BUILTIN_ROLES
    assert all(l["name"] == "" and l["node"] == -1 for l in labels)  # no level graph
    starts = [l["room"] for l in labels if l["role"] == "start"]
    exits = [l["room"] for l in labels if l["role"] == "exit"]
    assert starts == [m.result.start_room] and exits == [m.result.exit_room]
    assert dungeon.Map.generate(line).assign_roles() == labels  # same map, same seed: same roles


def test_room_labels_own_table_and_bad_table():
    m = dungeon.Map.generate("attach seed=42 width=80 height=50")
    labels = m.assign_roles("boss rank=700..1000\ntreasure count=2..2 weight=10\n", seed=5)
    roles = [l["role"] for l in labels]
    assert roles.count("boss") == 1 and roles.count("treasure") == 2
    assert set(roles) <= {"", "boss", "treasure"}
    with pytest.raises(dungeon.DungeonError) as e:
        m.assign_roles("boss bogus=1\n", name="mine.roles")
    assert e.value.status == -1 and "mine.roles:1" in str(e.value)
    assert m.room_labels() == labels  # a bad table leaves the labels as they were
