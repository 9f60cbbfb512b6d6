#!/bin/sh
# The exports of a map with room labels, corridor edges and spawns (the
# runner's export_labelled tests write them) read by Python's own JSON and XML
# parsers: valid files, the new fields where docs/export.md puts them, and a
# map without them exported as before.
B=${1:-build}
R="$B/test-plain/runner"
[ -x "$R" ] || { echo "no $R (make $R)"; echo "0 passed, 1 failed"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is missing"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
EXPORT_DUMP_DIR="$tmp" "$R" export_labelled >"$tmp/runner.out" 2>&1 ||
    { cat "$tmp/runner.out"; echo "0 passed, 1 failed"; exit 1; }
python3 - "$tmp" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def load(name, parse):
    try:
        return parse(os.path.join(d, name))
    except (ValueError, ET.ParseError) as e:
        check(False, "%s parses: %s" % (name, e))
        return None


j = load("labelled.json", lambda p: json.load(open(p, encoding="utf-8")))
if j:
    check([(r["role"], r["name"], r["node"]) for r in j["rooms"]] ==
          [("start", "gate hall", 0), ("boss", "crypt <&>", 2)], "json: room labels")
    check([c["edge"] for c in j["corridors"]] == [1], "json: corridor edges")
    spawns = [m for m in j["markers"] if "type" in m]
    check([(m["type"], m["size"], m["cost"], m["number"]) for m in spawns] ==
          [("monster", 2, 7, 1), ("item", 1, 1, 2), ("crate", 1, 0, 3)], "json: spawns")
    check(all("size" not in m and "cost" not in m for m in j["markers"] if "type" not in m),
          "json: other markers without spawn fields")
plain = load("plain.json", lambda p: json.load(open(p, encoding="utf-8")))
if plain:
    check(all(k not in r for r in plain["rooms"] for k in ("role", "name", "node")), "json: no labels, no keys")
    check(all("edge" not in c for c in plain["corridors"]), "json: no edges, no key")

props = lambda o: {p["name"]: p["value"] for p in o.get("properties", [])}
m = load("labelled.tmj", lambda p: json.load(open(p, encoding="utf-8")))
x = load("labelled.tmx", lambda p: ET.parse(p).getroot())
objs = []
if m:
    objs.append(("tmj", m["layers"][1]["objects"], m["tilewidth"]))
if x is not None:
    xo = []
    for o in x.iter("object"):
        a = dict(o.attrib)
        for k in ("x", "y", "width", "height"):
            if k in a:
                a[k] = int(a[k])
        ps = o.find("properties")
        a["properties"] = [{"name": p.attrib["name"],
                            "value": int(p.attrib["value"]) if p.attrib.get("type") == "int" else p.attrib["value"]}
                           for p in (ps if ps is not None else [])]
        xo.append(a)
    objs.append(("tmx", xo, int(x.attrib["tilewidth"])))
for fmt, objects, tw in objs:
    rooms = [props(o) for o in objects if o["type"] == "room"]
    check([(r["role"], r["name"], r["node"]) for r in rooms] ==
          [("start", "gate hall", 0), ("boss", "crypt <&>", 2)], fmt + ": room properties")
    check([props(o).get("edge") for o in objects if o["type"] == "corridor"] == [1], fmt + ": corridor edge")
    spawns = [o for o in objects if o["type"] in ("monster", "item", "crate") and "size" in props(o)]
    check([(o["name"], o["type"], props(o)["group"], props(o)["size"], props(o)["cost"]) for o in spawns] ==
          [("ogre", "monster", 1, 2, 7), ("gold", "item", 2, 1, 1), ("crate", "crate", 3, 1, 0)],
          fmt + ": spawn objects")
    check(all(o["width"] == o["height"] == props(o)["size"] * tw for o in spawns),
          fmt + ": a spawn's rectangle covers its footprint")
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
