#!/bin/sh
# The architecture of lib/, checked: its folders are layers, listed here from
# the bottom up, and every arrow between two folders points down. An arrow is
# an #include of another folder's header or a call into a global that another
# folder's object defines. Within a folder, calls between files make no circle.
B=${1:-build}
LAYERS="core analysis gen prefab world progress graph content recipe export"
pass=0
fail=0
check() {
    if [ -z "$2" ]; then pass=$((pass + 1)); else echo "$1"; echo "$2"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for l in $LAYERS; do echo "$l $i"; i=$((i + 1)); done >"$tmp/rank"

# every folder of lib/ is a layer, and every source file lives in one
check "folders of lib/ that are not layers (add them to LAYERS in tests/layers.sh):" \
    "$(for d in lib/*/; do d=${d%/}; d=${d#lib/}; grep -q "^$d " "$tmp/rank" || echo "$d"; done)"
check "files directly in lib/ (each belongs in a folder):" "$(ls lib/*.c lib/*.h 2>/dev/null)"

# includes: FILE FOLDER-OF-FILE FOLDER-INCLUDED
for f in lib/*/*.c lib/*/*.h; do
    d=$(echo "$f" | cut -d/ -f2)
    sed -n 's|^#include "\([a-z]*\)/.*|\1|p' "$f" | while read -r to; do echo "$f $d $to"; done
done >"$tmp/includes"
check "includes that point up between folders (file, its folder, the folder included):" \
    "$(awk 'NR == FNR { r[$1] = $2; next } !($3 in r) || r[$3] > r[$2]' "$tmp/rank" "$tmp/includes")"

# calls: an edge A B when A's object uses a global B's object defines
if ls "$B"/obj/*/*.o >/dev/null 2>&1; then
    for c in lib/*/*.c; do
        f=${c#lib/}
        f=${f%.c}
        o="$B/obj/$f.o"
        [ -f "$o" ] || continue
        nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print $3, "D", f }'
        nm -u "$o" | awk -v f="$f" '{ print $2, "U", f }'
    done | sort -k1,1 -k2,2 | awk '
        $2 == "D" { def[$1] = $3; next }
        ($1 in def) && def[$1] != $3 { print $3, def[$1] }' | sort -u >"$tmp/edges"
    check "calls that point up between folders (caller, callee):" \
        "$(awk 'NR == FNR { r[$1] = $2; next } { split($1, a, "/"); split($2, b, "/"); if (r[b[1]] > r[a[1]]) print }' \
            "$tmp/rank" "$tmp/edges")"
    check "call circles between lib/ files (files of a loop, from tsort):" \
        "$(tsort "$tmp/edges" 2>&1 >/dev/null)"
    check "no calls between folders were seen" \
        "$(awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) n++ } END { if (!n) print "none" }' "$tmp/edges")"
else
    check "calls between folders" "no objects in $B/obj"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
