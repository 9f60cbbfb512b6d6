#!/bin/sh
# The dungeon tool's command line: seeds, options, formats, file errors and
# recipes that record their prefab set. Run from the repository root.
B=${1:-build}
D="$B/bin/dungeon"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# expect NAME STATUS PATTERN -- ARGS: the exit status and a stderr+stdout line matching
# PATTERN ("" for any output)
expect() {
    name=$1 want=$2 pattern=$3
    shift 4
    "$D" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ] && { [ -z "$pattern" ] || grep -q -- "$pattern" "$tmp/out"; }; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: status $got (want $want), output:"
        head -5 "$tmp/out"
    fi
}
# same NAME FILE1 FILE2: files equal
same() {
    if cmp -s "$2" "$3"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $2 and $3 differ"; fi
}
[ -x "$D" ] || { echo "no $D (make $D)"; echo "0 passed, 1 failed"; exit 1; }
F=examples/prefabs/furnish.txt

# A, C: seeds are decimal (leading zeros too) or 0x hex; no sign or blank
expect seed_010 0 "seed=10 " -- --gen chain --seed 010 --format recipe
expect seed_08 0 "seed=8 " -- --gen chain --seed 08 --format recipe
expect seed_hex 0 "seed=16 " -- --gen chain --seed 0x10 --format recipe
expect seed_blank_minus 2 "not an unsigned" -- --gen chain --seed " -1"
expect seed_plus 2 "not an unsigned" -- --gen chain --seed +1
expect recipe_seed_010 0 "seed=10 " -- --recipe "chain seed=010" --format recipe
# D: versions with leading zeros
expect version_0_03 2 "not a version" -- --recipe "chain version=0.03"
expect version_00_3 2 "not a version" -- --recipe "chain version=00.3"
# E: an unknown option is unknown, whatever follows it
expect unknown_last 2 "unknown option '--verbose'" -- --gen chain --verbose
expect unknown_mid 2 "unknown option '--verbose'" -- --verbose --gen chain
# F: extensions ignore case; unknown ones need --format
"$D" --gen chain --seed 4 -o "$tmp/a.PNG" && "$D" --gen chain --seed 4 -o "$tmp/b.png"
same png_upper "$tmp/a.PNG" "$tmp/b.png"
expect ext_bogus 2 "unknown extension '.bogus'" -- --gen chain -o "$tmp/x.bogus"
expect ext_bogus_format 0 "" -- --gen chain -o "$tmp/x.bogus" --format ascii
expect format_bogus 2 "unknown format 'svg'" -- --gen chain --format svg
# G: file errors name the right path once, with the system's reason
expect out_dir 3 "cannot write /nonexistent-r2/x.tmx: No such file" -- --gen chain -o /nonexistent-r2/x.tmx
expect prefabs_missing 3 "cannot read /nonexistent-r2.txt: No such file" -- --gen prefab-full --prefabs /nonexistent-r2.txt
expect prefabs_dir 2 "is a directory: only a recipe that names" -- --gen prefab-full --prefabs "$tmp"
"$D" --gen prefab-full --prefabs /nonexistent-r2.txt 2>"$tmp/err"
[ "$(grep -o nonexistent-r2 "$tmp/err" | wc -l)" = 1 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL path_once"; cat "$tmp/err"; }
if [ -w /dev/full ]; then
    expect full_disk 3 "cannot write /dev/full: No space left" -- --gen chain --format tmx --no-tileset -o /dev/full
fi
# H: no doubled prefixes
expect no_double_attach 2 "^dungeon: attach: invalid parameter: room_min_w" -- --gen attach --width 20 --height 20 --param room_min_w=20
expect no_double_jigsaw 2 "^dungeon: prefab-jigsaw: invalid parameter: block_w 3" -- --gen prefab-jigsaw --prefabs examples/prefabs/forest.txt --param block_w=3
# I: listed ranges, and refused values exit 2 naming the parameter
expect list_world 0 "room_size .*3..125 .*\[odd" -- --list-params world
expect list_mixed 0 "mode .*\[one of 1 full, 2 jigsaw, 4 island, 8 furnish\]" -- --list-params prefab-mixed
expect list_jigsaw 0 "block_w .*0..1024 " -- --list-params prefab-jigsaw
expect world_even 2 "room_size" -- --gen world --param room_size=10
expect mixed_mode3 2 "mode: 3 is not one of" -- --gen prefab-mixed --prefabs examples/prefabs/vaults.txt --param mode=3
# J: options that would be ignored are refused; twice is refused; the cell limit is named
expect legend_ascii 2 "--legend does not apply to ASCII" -- --gen chain --legend
expect numbers_ascii 2 "--numbers does not apply" -- --gen chain --numbers
expect grid_json 2 "--grid does not apply to JSON" -- --gen chain --grid --format json
expect tile_png 2 "--tile-size does not apply to PNG" -- --gen chain --tile-size 8 -o "$tmp/t.png"
expect gen_twice 2 "--gen is given twice" -- --gen chain --gen attach
expect output_twice 2 "is given twice" -- --gen chain -o a.txt --output b.txt
expect stats_recipe 0 "grid hash" -- --gen chain --stats --format recipe
expect too_many_cells 2 "268435456 (2^28)" -- --gen chain --width 16385 --height 16384
# K: a recipe records its prefab set and replays only with it
"$D" --gen world --seed 5 --width 40 --height 30 --prefabs $F --format recipe >"$tmp/w.recipe"
grep -q "prefabs=$F prefabs_hash=0x" "$tmp/w.recipe" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL world_records"; cat "$tmp/w.recipe"; }
"$D" --gen world --seed 5 --width 40 --height 30 --prefabs $F >"$tmp/w1.txt"
"$D" --recipe "$(cat "$tmp/w.recipe")" >"$tmp/w2.txt"
same world_replay "$tmp/w1.txt" "$tmp/w2.txt"
expect world_other_set 2 "not the prefab set the recipe was made with" -- --recipe "$(cat "$tmp/w.recipe")" --prefabs examples/prefabs/vaults.txt
expect prefabs_unused 2 "uses no prefabs" -- --gen attach --prefabs $F
sed "s|prefabs=[^ ]*|prefabs=$tmp/gone.txt|" "$tmp/w.recipe" >"$tmp/gone.recipe"
expect world_missing_file 3 "cannot read $tmp/gone.txt" -- --recipe "$(cat "$tmp/gone.recipe")"
sed "s|prefabs=[^ ]* ||" "$tmp/w.recipe" >"$tmp/nofile.recipe"
expect world_hash_only 2 "give it with --prefabs" -- --recipe "$(cat "$tmp/nofile.recipe")"
"$D" --gen prefab-full --prefabs examples/prefabs/shaft.txt --width 56 --height 26 --format recipe >"$tmp/f.recipe"
expect full_replay 0 "" -- --recipe "$(cat "$tmp/f.recipe")" -o "$tmp/f.json"
grep -q '"recipe": "prefab-full .*prefabs_hash=0x' "$tmp/f.json" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL json_records"; }
# --survey: a table of every figure, JSON that parses, the same figures both ways
expect survey_table 0 "^border_open *0 *0 *0 *0" -- --gen attach --survey 20 --seed 3
expect survey_rows 0 "^parallel_cells " -- --gen chain --survey 5
expect survey_contract 0 "^FAIL loops  *loops_per_room_permille median >= 150: 0" -- --gen chain --param loop_chance=0 --survey 5
expect survey_contract_na 0 "^n/a  shapes" -- --gen chain --survey 5
expect survey_contract_json 0 '"line": "loops", "figure": "loops_per_room_permille", "rule": "median >=", "threshold": 150' -- --gen chain --survey 5 --format json
expect survey_json 0 '"dead_doors": {"min": 0' -- --gen attach --survey 20 --seed 3 --format json
"$D" --gen attach --survey 20 --seed 3 --format json >"$tmp/s.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["maps"] == 20 and "time_us" in d["figures"]' "$tmp/s.json" \
    && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL survey_json_parses"; }
expect survey_png 2 "table or JSON" -- --gen attach --survey 3 --format png
expect survey_zero 2 "from 1 to" -- --gen attach --survey 0
expect survey_stats 2 "does not take --stats" -- --gen attach --survey 3 --stats
expect survey_all_fail 1 "3 of 3 maps failed" -- --gen attach --survey 3 --width 3 --height 3
# --floors: one file per floor; the down stairs of floor n are floor n+1's up stairs
mkdir "$tmp/fl"
expect floors_ascii 0 "" -- --gen bsp --seed 5 --floors 3 --stairs 2 --format ascii -o "$tmp/fl"
python3 - "$tmp/fl" <<'PY' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL floors_line_up"; }
import sys
maps = [open(f"{sys.argv[1]}/floor-{i}.txt").read().splitlines() for i in range(3)]
cells = lambda m, c: {(x, y) for y, row in enumerate(m) for x, ch in enumerate(row) if ch == c}
assert len(cells(maps[0], ">")) == 2 and not cells(maps[0], "<")
assert cells(maps[0], ">") == cells(maps[1], "<") and cells(maps[1], ">") == cells(maps[2], "<")
assert not cells(maps[2], ">")
PY
expect floors_png 0 "" -- --gen cave --seed 5 --floors 2 --locks 1 -o "$tmp/fl"
[ -s "$tmp/fl/floor-1.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL floors_png"; }
expect floors_tmx 0 "" -- --gen attach --seed 3 --floors 3 --stairs 2 --locks 1 -o "$tmp/fl/d.tmx"
python3 - "$tmp/fl/d.tmx" <<'PY' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL floors_tmx_layers"; }
import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
names = [l.get("name") for l in root if l.tag in ("layer", "objectgroup")]
assert names == ["floor 0", "floor 0 objects", "floor 1", "floor 1 objects", "floor 2", "floor 2 objects"], names
ids = [o.get("id") for o in root.iter("object")]
assert len(ids) == len(set(ids)) and int(root.get("nextobjectid")) == len(ids) + 1
assert sum(1 for o in root.iter("object") if o.get("type") == "stairs_down") == 4
PY
expect floors_small 2 "each side" -- --gen attach --floors 2 --width 13 --height 30 -o "$tmp/fl"
expect floors_recipe 2 "not recipes" -- --gen attach --floors 2 --format recipe -o "$tmp/fl"
expect stairs_alone 2 "needs --floors" -- --gen attach --stairs 2
expect stairs_range 2 "from 1 to 4" -- --gen attach --floors 2 --stairs 5
expect floors_no_dir 3 "No such file" -- --gen attach --floors 2 -o "$tmp/no/such/dir"
# --anchor: the first anchor is the start; bad values are usage errors
expect anchor_start 0 "^start (3,3)" -- --gen bsp --seed 2 --anchor 3,3 --anchor 70,40 --stats -o "$tmp/a.txt"
expect anchor_bad 2 "must be X,Y" -- --gen bsp --anchor 3
expect reserve_bad 2 "must be X,Y,W,H" -- --gen bsp --reserve 1,2,0,4
expect reserve_floors 2 "not with --floors" -- --gen bsp --reserve 1,2,3,4 --floors 2
expect anchor_outside 2 "outside" -- --gen bsp --anchor 80,3
# issue 28, 4: a prefab file is held to the library's 64 MiB limit, even an
# endless one (under a 1 GB address-space limit: no reading until memory runs out)
if [ -r /dev/zero ]; then
    (ulimit -v 1000000 2>/dev/null; "$D" --gen prefab-full --prefabs /dev/zero) >"$tmp/out" 2>&1
    [ $? = 3 ] && grep -q "over 64 MiB, the prefab file limit" "$tmp/out" && pass=$((pass + 1)) ||
        { fail=$((fail + 1)); echo "FAIL prefabs_dev_zero"; head -3 "$tmp/out"; }
fi
# 7: one number parser: digits only, no blank or sign, for every option
for opt in "--locks 3" "--floors 3" "--width 30" "--scale 3" "--secrets 3" "--survey 3" "--stairs 1"; do
    set -- $opt
    expect "blank_${1#--}" 2 "must be a whole number" -- --gen attach "$1" " $2"
    expect "plus_${1#--}" 2 "must be a whole number" -- --gen attach "$1" "+$2"
done
expect anchor_blank 2 "must be X,Y" -- --gen bsp --anchor " 5, 5"
expect anchor_plus 2 "must be X,Y" -- --gen bsp --anchor "+5,5"
expect reserve_blank 2 "must be X,Y,W,H" -- --gen bsp --reserve "1,2, 3,4"
expect reserve_extra 2 "must be X,Y,W,H" -- --gen bsp --reserve "1,2,3,4,5"
expect reserve_short 2 "must be X,Y,W,H" -- --gen bsp --reserve "1,2,3"
expect reserve_outside 2 "not inside the 80x50 map" -- --gen bsp --reserve 500,500,1,1
expect reserve_past_edge 2 "not inside the 80x50 map" -- --gen bsp --reserve 70,10,11,5
expect reserve_edge 0 "" -- --gen bsp --reserve 70,10,10,5 -o "$tmp/e.txt"
expect anchor_outside_y 2 "outside the 80x50 map" -- --gen bsp --anchor 3,50
expect locks_ok 0 "locks=3 " -- --gen attach --locks 3 --format recipe
# fewer locks than asked is no error, but said on stderr with its reason
expect locks_short 0 "^dungeon: [0-9]* of 16 locks placed: the way" -- --gen attach --seed 3 --width 30 --height 20 --locks 16 -o "$tmp/short.txt"
# 8: a Tiled map of floors holds at most 2^26 cells; a directory takes any number
expect floors_tiled_cells 2 "at most 67108864 (2^26)" -- --gen cave --floors 65536 --width 1000 --height 1000 -o "$tmp/big.tmx"
expect floors_tiled_cells_edge 2 "at most 67108864" -- --gen cave --floors 65 --width 1024 --height 1024 -o "$tmp/big.tmx"
# 9: --survey measures single maps: floors are refused like sites; locks are
# measured (the key and lock contract lines)
expect survey_floors 2 "not with --floors" -- --gen attach --survey 3 --floors 2
expect survey_locks 0 "^[A-Z]* *locks placed .* mean per mille of asked >= 900: " -- --gen attach --survey 3 --locks 1
expect survey_reserve 2 "not with --survey" -- --gen attach --survey 3 --reserve 1,1,2,2
# 10: -o DIR is made if missing (not its parents); a file name or standard output is refused
expect floors_new_dir 0 "" -- --gen cave --floors 2 -o "$tmp/newdir"
[ -s "$tmp/newdir/floor-1.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL floors_new_dir_files"; }
expect floors_png_name 2 "must be a directory .* or a .tmx or .tmj file" -- --gen cave --floors 2 -o "$tmp/floors.png"
[ ! -e "$tmp/floors.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL floors_png_name_made"; }
expect floors_stdout 2 "not to standard output" -- --gen cave --floors 2
expect floors_on_file 2 "is a file" -- --gen cave --floors 2 -o "$tmp/e.txt"
expect floors_parent 3 "cannot make the directory $tmp/no/such: No such file" -- --gen cave --floors 2 -o "$tmp/no/such"
# 11: an -o extension that contradicts --format is refused; an unknown one is not
expect ext_contradicts 2 "extension '.png' contradicts --format json" -- --gen chain -o "$tmp/m.png" --format json
[ ! -e "$tmp/m.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL ext_contradicts_made"; }
expect ext_tmx_tmj 2 "contradicts --format tmj" -- --gen chain -o "$tmp/m.tmx" --format tmj
expect ext_agrees 0 "" -- --gen chain -o "$tmp/m.PNG" --format png
expect ext_txt_recipe 0 "" -- --gen chain -o "$tmp/m.txt" --format recipe
expect floors_ext_contradicts 2 "contradicts --format tmj" -- --gen cave --floors 2 -o "$tmp/f.tmx" --format tmj
# 17: a prefab path over 55 bytes is recorded by its base name (with the hash),
# which --prefabs DIR or the working directory finds wherever the file lives
deep="$tmp/a-checkout-that-lives/rather-deep-in/the-tree"
mkdir -p "$deep" "$tmp/other"
cp examples/prefabs/shaft.txt "$deep/"
cp examples/prefabs/vaults.txt "$tmp/other/shaft.txt"
expect deep_note 0 "recipe names it prefabs=shaft.txt" -- --gen prefab-full --prefabs "$deep/shaft.txt" --width 56 --height 26 --format recipe -o "$tmp/deep.recipe"
grep -q " prefabs=shaft.txt prefabs_hash=0x" "$tmp/deep.recipe" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL deep_records_base"; cat "$tmp/deep.recipe"; }
"$D" --gen prefab-full --prefabs "$deep/shaft.txt" --width 56 --height 26 -o "$tmp/deep1.txt" 2>/dev/null
expect deep_replay_dir 0 "" -- --recipe "$(cat "$tmp/deep.recipe")" --prefabs "$deep/" -o "$tmp/deep2.txt"
same deep_replay_same "$tmp/deep1.txt" "$tmp/deep2.txt"
Dabs="$(cd "$(dirname "$D")" && pwd)/$(basename "$D")"
(cd "$deep" && "$Dabs" --recipe "$(cat "$tmp/deep.recipe")" -o "$tmp/deep3.txt") && same deep_replay_cwd "$tmp/deep1.txt" "$tmp/deep3.txt" ||
    { fail=$((fail + 1)); echo "FAIL deep_replay_cwd"; }
expect deep_other_set 2 "not the prefab set the recipe was made with" -- --recipe "$(cat "$tmp/deep.recipe")" --prefabs "$tmp/other"
expect deep_missing 3 "FILE or DIR gives its place" -- --recipe "$(cat "$tmp/deep.recipe")"
# 5: recipe words that cannot go together are refused when read
expect recipe_floor_floors 2 "floor=5 is not below floors=1" -- --recipe "attach floor=5" --format recipe
expect recipe_floor_ok 0 "floors=6 floor=5 " -- --recipe "attach floors=6 floor=5" --format recipe
# 12: every option is in --help, docs/tool.md and docs/dungeon.1, and the tool knows it
python3 - "$D" <<'PY' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL options_documented"; }
import re, subprocess, sys
tool = sys.argv[1]
opt = re.compile(r"(?<![\w-])(--?[a-z][a-z-]*)")
text = subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
helped = set()
for line in text.split("Generators:")[0].splitlines():
    if re.match(r"  -", line):  # "  -o, --output FILE   meaning"
        helped |= set(opt.findall(re.split(r"\s{2,}", line.strip())[0]))
md = set()
for line in open("docs/tool.md").read().splitlines():
    if line.startswith("| `"):  # the option table's first column
        md |= set(opt.findall(" ".join(re.findall(r"`([^`]*)`", line.split("|")[1]))))
man = set()
lines = open("docs/dungeon.1").read().split(".SH OPTIONS")[1].split("\n.SH ")[0].replace("\\-", "-").splitlines()
for i, line in enumerate(lines):
    if line == ".TP" and i + 1 < len(lines):  # the tag line of each entry
        man |= set(opt.findall(re.sub(r"\\f.", " ", lines[i + 1])))
bad = len(helped) < 30
for name, got in (("docs/tool.md", md), ("docs/dungeon.1", man)):
    if got != helped:
        bad = True
        print(f"{name}: lacks {sorted(helped - got)}, has beyond --help {sorted(got - helped)}")
for o in sorted(helped):
    if "unknown option" in subprocess.run([tool, o], capture_output=True, text=True).stderr:
        bad = True
        print(f"--help lists {o}, which the tool does not take")
sys.exit(bad)
PY
# 15: the man page renders within 80 columns
if command -v man >/dev/null 2>&1 && man -l docs/dungeon.1 >/dev/null 2>&1; then
    wide=$(MANWIDTH=80 man -l docs/dungeon.1 2>/dev/null | awk 'length > 80' | head -3)
    [ -z "$wide" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL man_width: $wide"; }
fi
# 15: lock and key numbers are 5x7 digits, a font pixel per 7 pixels of scale
for scale in 7 14 21; do
    "$D" --gen bsp --seed 2 --width 40 --height 30 --locks 2 --markers -o "$tmp/k.txt" &&
        "$D" --gen bsp --seed 2 --width 40 --height 30 --locks 2 --markers --scale $scale -o "$tmp/k.png" &&
        python3 - "$tmp/k.txt" "$tmp/k.png" $scale <<'PY' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL lock_digits_$scale"; }
import struct, sys, zlib
rows = open(sys.argv[1]).read().splitlines()
scale = int(sys.argv[3])
data = open(sys.argv[2], "rb").read()
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):  # an RGBA8 PNG, as the tool writes them
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        w, h = struct.unpack(">II", data[pos + 8:pos + 16])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, px, prev, stride = zlib.decompress(idat), [], bytearray(w * 4), w * 4
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 4] if i >= 4 else 0
        b, c = prev[i], prev[i - 4] if i >= 4 else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
        line[i] = (line[i] + pred) & 255
    px.append(line)
    prev = line
size = max(1, scale // 7)
keys = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "k"]
assert keys
for kx, ky in keys:
    white = [y for y in range(max(0, ky * scale - 2), min(h, ky * scale + scale + 2))
             for x in range((kx + 1) * scale, min(w, (kx + 1) * scale + 6 * size))
             if px[y][x * 4:x * 4 + 3] == b"\xff\xff\xff"]
    assert white and max(white) - min(white) + 1 == 7 * size, (kx, ky, white)
PY
done

# roles and spawns: recorded in the recipe, replayed from it, another table refused
S=examples/spawns/dungeon.txt
expect level_recipe 0 "depth=3 roles=default roles_hash=0x.* spawns=$S spawns_hash=0x" -- \
    --gen attach --seed 3 --roles default --spawns $S --depth 3 --format recipe
"$D" --gen attach --seed 3 --roles default --spawns $S --depth 3 --format recipe -o "$tmp/level.txt"
"$D" --gen attach --seed 3 --roles default --spawns $S --depth 3 -o "$tmp/level-a.json" 2>/dev/null
"$D" --recipe "$(cat "$tmp/level.txt")" -o "$tmp/level-b.json" 2>/dev/null
same level_replay "$tmp/level-a.json" "$tmp/level-b.json"
# --depth reaches dg_populate: a deeper floor gets other spawns
"$D" --gen attach --seed 3 --roles default --spawns $S --depth 15 -o "$tmp/level-deep.json" 2>/dev/null
if cmp -s "$tmp/level-a.json" "$tmp/level-deep.json"; then fail=$((fail + 1)); echo "FAIL level_depth_used: depth 3 and 15 give the same level"; else pass=$((pass + 1)); fi
expect level_json_roles 0 '"role": "boss"' -- --gen attach --seed 3 --roles default --format json
expect level_json_spawns 0 '"type": "monster"' -- --gen attach --seed 3 --spawns $S --format json
expect level_other_table 2 "is not the recipe's" -- \
    --recipe "$(cat "$tmp/level.txt")" --spawns examples/spawns/factory.txt
expect level_depth_alone 2 "give --spawns too" -- --gen attach --depth 3
expect level_roles_missing 2 "roles" -- --gen attach --roles no/such/file.txt
expect level_spawns_missing 2 "spawns no/such/file.txt: no/such/file.txt: cannot open file" -- --gen attach --spawns no/such/file.txt
expect level_survey 2 "not with --roles" -- --gen attach --roles default --survey 5
# L: generator graph lays out a level graph, records it and replays from the file it names
Z=examples/graphs/zelda.txt
expect graph_png 0 "" -- --gen graph --graph $Z --markers --scale 4 -o "$tmp/z.png"
[ -s "$tmp/z.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL graph_png_written"; }
expect graph_json 0 "" -- --gen graph --graph $Z --seed 3 -o "$tmp/z.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rooms"]; n={x["name"]: x["role"] for x in r}
assert n["entry"] == "start" and n["boss"] == "boss" and n["shrine"] == "secret" and len(r) == 14, n
assert "graph_hash=0x" in d["recipe"] and "graph=examples/graphs/zelda.txt" in d["recipe"]' "$tmp/z.json" \
    && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL graph_json_names_roles"; }
"$D" --gen graph --graph $Z --seed 3 --format recipe >"$tmp/g.recipe"
"$D" --gen graph --graph $Z --seed 3 >"$tmp/g1.txt"
"$D" --recipe "$(cat "$tmp/g.recipe")" >"$tmp/g2.txt"
same graph_replay "$tmp/g1.txt" "$tmp/g2.txt"
expect graph_other 2 "not the level graph the recipe was made with" -- --recipe "$(cat "$tmp/g.recipe")" --graph examples/graphs/hub.txt
expect graph_missing 2 "needs --graph FILE" -- --gen graph
expect graph_floors 2 "not with --floors" -- --gen graph --graph $Z --floors 2 -o "$tmp"
expect graph_not_for 2 "--graph is for --gen graph" -- --gen attach --graph $Z
expect graph_too_small 1 "need at least 1530 cells" -- --gen graph --graph examples/graphs/big.txt --width 40 --height 30
expect graph_nospace 1 "no place found" -- --gen graph --graph examples/graphs/big.txt --width 80 --height 25
expect graph_max_attempts_one 1 "no place found in 1 layout of" -- --gen graph --graph examples/graphs/big.txt --width 80 --height 25 --param max_attempts=1
expect graph_max_attempts_range 2 "max_attempts: 4097 is out of range -1..4096" -- --gen graph --graph $Z --param max_attempts=4097
for g in linear hub loop_lock zelda templates big; do
    size=""
    [ $g = big ] && size="--width 120 --height 80" # forty rooms need more than 80x50
    expect "graph_survey_$g" 0 "PASS parallel" -- --gen graph --graph examples/graphs/$g.txt $size --survey 50
    grep -q "^FAIL" "$tmp/out" && { fail=$((fail + 1)); echo "FAIL graph_survey_$g has a FAIL line"; grep "^FAIL" "$tmp/out"; }
    for f in border_open unreachable doorless_joins; do
        grep -Eq "^$f +0 +0 +0 +0 " "$tmp/out" || { fail=$((fail + 1)); echo "FAIL graph_survey_$g $f"; }
    done
done
# a Tiled export with its swatch tileset says nothing on stderr
"$D" --gen attach -o "$tmp/quiet.tmx" 2>"$tmp/quiet.err"
[ $? = 0 ] && [ ! -s "$tmp/quiet.err" ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL tiled_quiet:"; head -3 "$tmp/quiet.err"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
