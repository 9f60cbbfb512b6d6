#!/bin/sh
# The binding recipes of docs/embedding.md, run exactly as the page prints
# them: every code block marked <!-- embedding-test: FILE --> is extracted to
# FILE and driven by tests/embedding/ (Python cffi, LuaJIT FFI, C# under Mono,
# the ctypes example). Their output is compared with tests/embedding/probe.c,
# which calls the C library directly. A missing runtime is reported as skipped
# (make check lists it at the end) and counted neither passed nor failed;
# make check-bindings installs every runtime and runs this script again.
B=$(cd "${1:-build}" && pwd) || { echo "0 passed, 1 failed"; exit 1; }
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
# check WHAT FILE-A FILE-B: one test, passed when the two outputs are equal
same() {
    if cmp -s "$2" "$3"; then pass; else fail "$1"; diff "$2" "$3" | head -20; fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# ---- the marked blocks, as printed -------------------------------------------------
mkdir "$tmp/doc"
awk -v dir="$tmp/doc" '
    want && /^```/ { open = 1; want = 0; next }
    want { want = 0; name = "" }
    /^<!-- embedding-test: [^ ]+ -->$/ { name = $3; want = 1; next }
    open && /^```$/ { open = 0; close(dir "/" name); next }
    open { print > (dir "/" name) }
' docs/embedding.md
for f in ctypes_example.py dungeon_cffi.py dungeon.lua Dungeon.cs Blittable.cs; do
    if [ -s "$tmp/doc/$f" ]; then pass; else fail "docs/embedding.md has no block marked $f"; fi
done

# ---- what the C library says ----------------------------------------------------------
if ! ${CC:-cc} -std=c11 -Iinclude tests/embedding/probe.c "$B/libdungeon.a" -o "$tmp/probe"; then
    fail "cannot build tests/embedding/probe.c"
    finish
fi
set -- "attach seed=42 width=80 height=50" "chain seed=7 width=61 height=37 overlap=forbid" \
    "world seed=4 width=50 height=40" "attach growth=sideways" \
    "attach width=4 height=4 room_min_w=9" "prefab-islands seed=3 width=80 height=50"
"$tmp/probe" "$@" | grep -v '^fixed \| markers \|^recipe offsets' >"$tmp/plain.want"
export DUNGEON_LIB="$B/libdungeon.so" DUNGEON_H="$root/include/dungeon.h"

# ---- Python cffi (ABI mode) -------------------------------------------------------------
if command -v python3 >/dev/null && python3 -c 'import cffi' 2>/dev/null; then
    python3 tests/embedding/cffi_driver.py "$tmp/doc" "$@" >"$tmp/cffi.out" 2>&1
    same "cffi recipe differs from the C library" "$tmp/plain.want" "$tmp/cffi.out"
else
    echo "skipped: cffi recipe (make check-bindings installs python3-cffi and runs it)"
fi

# ---- LuaJIT FFI -----------------------------------------------------------------------------
if command -v luajit >/dev/null; then
    luajit tests/embedding/lua_driver.lua "$tmp/doc" "$@" >"$tmp/lua.out" 2>&1
    same "LuaJIT recipe differs from the C library" "$tmp/plain.want" "$tmp/lua.out"
else
    echo "skipped: LuaJIT recipe (make check-bindings installs luajit and runs it)"
fi

# ---- C# P/Invoke under Mono -------------------------------------------------------------------
if command -v mcs >/dev/null && command -v mono >/dev/null; then
    if grep -n 'extern string' "$tmp/doc/Dungeon.cs"; then
        fail "the C# recipe declares a const char * return as string"
    else
        pass
    fi
    # a recipe that records its prefab set: the set's hash must cross the Recipe mirror intact
    shaft=$("$B/bin/dungeon" --recipe "prefab-full seed=1 width=56 height=26" --format recipe \
        --prefabs examples/prefabs/shaft.txt)
    set -- "$@" "$shaft@$root/examples/prefabs/shaft.txt" "fixed:$shaft" \
        "prefab-islands seed=3 width=80 height=50@$root/examples/prefabs/factory.txt" \
        "prefab-jigsaw seed=2 width=84 height=50@$root/examples/prefabs/forest.txt" \
        "prefab-full seed=1 width=40 height=30@no/such/prefabs.txt" \
        "fixed:chain seed=18446744073709551615 width=70" "fixed:chain oops=1"
    "$tmp/probe" "$@" >"$tmp/cs.want"
    if mcs -unsafe -warnaserror -out:"$tmp/driver.exe" "$tmp/doc/Dungeon.cs" "$tmp/doc/Blittable.cs" \
        tests/embedding/Driver.cs >"$tmp/mcs.log" 2>&1; then
        # from $tmp, where a crashing runtime leaves its mono_crash*.json
        (cd "$tmp" && LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono driver.exe "$@" \
            >cs.out 2>&1)
        same "C# recipe differs from the C library" "$tmp/cs.want" "$tmp/cs.out"
    else
        cat "$tmp/mcs.log"
        fail "the C# recipe does not compile"
    fi
else
    echo "skipped: C# recipe (make check-bindings installs mono and runs it)"
fi

# ---- the ctypes example: a Tiled map and the tileset it references --------------------------------
if command -v python3 >/dev/null; then
    mkdir "$tmp/ctypes"
    if (cd "$tmp/ctypes" && PYTHONPATH="$root/examples/bindings/python" python3 "$tmp/doc/ctypes_example.py" \
        >out.txt 2>&1) && [ -s "$tmp/ctypes/dungeon-tiles-8.png" ] &&
        grep -q '<image source="dungeon-tiles-8.png" width="128" height="128"/>' "$tmp/ctypes/map.tmx"; then
        pass
    else
        fail "the ctypes example does not write map.tmx and the tileset it references"
        cat "$tmp/ctypes/out.txt"
    fi
else
    echo "skipped: ctypes example (make check-bindings installs python3 and runs it)"
fi
finish
