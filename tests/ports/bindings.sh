#!/bin/sh
# bindings.sh BUILD: the language packages of examples/bindings against the
# library and tool of BUILD (make check-bindings). Installs what it needs
# (python3-venv, python3-pytest, python3-numpy, python3-cffi, luajit, mono) through
# tests/need.sh, and runs every recipe of docs/embedding.md (tests/embedding.sh).
#   Python: pip installs the package into a fresh venv offline (the wheel
#           compiles lib/*/*.c), then its pytest suite runs against that install;
#   C#:     every DG_API function has a [DllImport], the generated part of
#           Dungeon.cs is up to date, every struct mirror has the C compiler's
#           sizes and offsets, and Test.cs passes under Mono;
#   Lua:    dungeon_cdef.lua is what gen_cdef.sh makes of the header, and
#           test.lua passes under LuaJIT;
#   Godot:  the example's files are present (not compiled: no godot-cpp here).
# Ends with "N passed, N failed"; no test depends on time or speed.
B=$(cd "${1:-build}" && pwd) || { echo "0 passed, 1 failed"; exit 1; }
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
# result NAME LOG: adds a sub-suite's "N passed, N failed" line (or one failure)
result() {
    line=$(grep '^[0-9]* passed, [0-9]* failed$' "$2" | tail -n 1)
    if [ -n "$line" ] && [ "${line#*, }" = "0 failed" ]; then
        passed=$((passed + ${line%% passed*}))
        echo "$1: $line"
    else
        grep -v '^[0-9]* passed' "$2" | tail -n 30
        fail "$1 ${line:-printed no result}"
    fi
}
need() { command -v "$1" >/dev/null || sh "$root/tests/need.sh" "$2" "$1" || fail "$1 is missing"; }
tool="$B/bin/dungeon"
[ -x "$tool" ] && [ -e "$B/libdungeon.so" ] || { fail "build $B first (make all)"; echo "$passed passed, $failed failed"; exit 1; }

# ---- Python: an offline pip install in a venv, then pytest on the installed package -----------
need python3 python3
# pytest_python: the first python3 that imports pytest (Debian's python3-pytest
# is installed when none does); the venv sees it through --system-site-packages
pytest_python() {
    for p in python3 /usr/bin/python3; do
        command -v $p >/dev/null && $p -c 'import pytest, ensurepip' 2>/dev/null && { echo $p; return; }
    done
    return 1
}
base=$(pytest_python) || { sh tests/need.sh python3-pytest pytest; sh tests/need.sh python3-venv venv; base=$(pytest_python); }
# numpy is optional for the package; installed so that its array outputs are tested too
[ -z "$base" ] || "$base" -c 'import numpy' 2>/dev/null || sh tests/need.sh python3-numpy numpy ||
    echo "bindings: numpy not installed; its tests are skipped"
py=""
if [ -z "$base" ]; then
    fail "no python3 with pytest and venv (python3-pytest, python3-venv)"
elif "$base" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1 &&
    (cd "$tmp" && "$tmp/venv/bin/python" -m pip install --no-index --no-cache-dir \
        "$root/examples/bindings/python") >"$tmp/pip.log" 2>&1; then
    pass
    py="$tmp/venv/bin/python"
else
    cat "$tmp/venv.log" "$tmp/pip.log" | tail -n 30
    fail "pip install ./examples/bindings/python in a venv ($base)"
fi
if [ -n "$py" ]; then
    (cd "$tmp" && DUNGEON_TOOL="$tool" DUNGEON_REPO="$root" "$py" -m pytest -q -p no:cacheprovider \
        "$root/examples/bindings/python/tests") >"$tmp/pytest.log" 2>&1
    code=$?
    echo "Python (pytest, installed wheel): $(tail -n 1 "$tmp/pytest.log")"
    # the tests must have run against the installed wheel, not the source tree
    if [ $code -eq 0 ] && (cd "$tmp" && "$py" -c 'import dungeon, sys; sys.exit("site-packages" not in dungeon.__file__)'); then
        n=$(tail -n 1 "$tmp/pytest.log" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
        passed=$((passed + ${n:-0}))
    else
        tail -n 40 "$tmp/pytest.log"
        fail "pytest of the installed dungeon package"
    fi
fi

# ---- C#: API coverage, generated part, struct layouts, tests under Mono --------------------------
need mcs mono-mcs
need mono mono-runtime
cs=examples/bindings/csharp
grep -o '^DG_API[^(]*(' include/dungeon.h | sed 's/.*[ *]\(dg_[a-z0-9_]*\)[ ]*(/\1/' | sort >"$tmp/api.txt"
grep -o 'public static extern [^(]* dg_[a-z0-9_]*(' $cs/Dungeon.cs | sed 's/.* \(dg_[a-z0-9_]*\)(/\1/' |
    sort >"$tmp/dllimport.txt"
if [ -s "$tmp/api.txt" ] && cmp -s "$tmp/api.txt" "$tmp/dllimport.txt"; then
    pass
else
    diff "$tmp/api.txt" "$tmp/dllimport.txt" | sed 's/^</missing in Dungeon.cs:/; s/^>/not in the header:/'
    fail "Dungeon.cs declares exactly the header's DG_API functions"
fi
cp $cs/Dungeon.cs "$tmp/Dungeon.cs"
if (cd $cs && python3 gen_native.py "$root/include/dungeon.h" "$tmp/Dungeon.cs") &&
    cmp -s "$tmp/Dungeon.cs" $cs/Dungeon.cs; then
    pass
else
    diff $cs/Dungeon.cs "$tmp/Dungeon.cs" | head -20
    fail "Dungeon.cs is out of date: run python3 gen_native.py ../../../include/dungeon.h Dungeon.cs in $cs"
fi
python3 $cs/header_structs.py include/dungeon.h probe >"$tmp/probe.c"
if ${CC:-cc} -std=c11 -Iinclude "$tmp/probe.c" -o "$tmp/probe" &&
    mcs -unsafe -warnaserror -out:"$tmp/test.exe" $cs/Dungeon.cs $cs/Test.cs >"$tmp/mcs.log" 2>&1; then
    "$tmp/probe" | sort >"$tmp/layout.c.txt"
    mono "$tmp/test.exe" layout | sort >"$tmp/layout.cs.txt"
    if [ -s "$tmp/layout.c.txt" ] && cmp -s "$tmp/layout.c.txt" "$tmp/layout.cs.txt"; then
        pass
    else
        diff "$tmp/layout.c.txt" "$tmp/layout.cs.txt" | head -20
        fail "C# struct mirrors differ from the C layouts (< C, > C#)"
    fi
    mkdir "$tmp/cs"
    (cd "$tmp" && LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono test.exe check "$tool" \
        "$root/examples/prefabs" "$tmp/cs") >"$tmp/cs.log" 2>&1
    result "C# (Mono)" "$tmp/cs.log"
else
    cat "$tmp/mcs.log"
    fail "the C# binding or its test does not compile"
fi

# ---- Lua: generated cdef, tests under LuaJIT ---------------------------------------------------------
need luajit luajit
lua=examples/bindings/lua
if sh $lua/gen_cdef.sh include/dungeon.h "$tmp/dungeon_cdef.lua" && cmp -s "$tmp/dungeon_cdef.lua" $lua/dungeon_cdef.lua; then
    pass
else
    diff $lua/dungeon_cdef.lua "$tmp/dungeon_cdef.lua" | head -20
    fail "dungeon_cdef.lua is out of date: run sh $lua/gen_cdef.sh"
fi
mkdir "$tmp/lua"
DUNGEON_LIB="$B/libdungeon.so" luajit $lua/test.lua "$tool" "$root/examples/prefabs" "$tmp/lua" >"$tmp/lua.log" 2>&1
result "Lua (LuaJIT)" "$tmp/lua.log"

# ---- the recipes of docs/embedding.md, now that every runtime is here ---------------------------------
python3 -c 'import cffi' 2>/dev/null || sh "$root/tests/need.sh" python3-cffi "Python's cffi" || fail "cffi is missing"
sh tests/embedding.sh "$B" >"$tmp/embedding.log" 2>&1
if grep -q '^skipped' "$tmp/embedding.log"; then
    grep '^skipped' "$tmp/embedding.log"
    fail "docs/embedding.md: a recipe was skipped although its runtime was installed"
fi
result "docs/embedding.md recipes" "$tmp/embedding.log"

# ---- Godot: the example is complete (compiling it needs godot-cpp, not packaged in Debian) ------------
for f in dungeon_map.h dungeon_map.cpp register_types.cpp dungeon.gdextension SConstruct; do
    if [ -s "examples/bindings/godot/$f" ]; then pass; else fail "examples/bindings/godot/$f is missing"; fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
