#!/bin/sh
# windows.sh build|check [BUILD]: libdungeon for Windows, cross-built with
# mingw-w64 and tested under Wine (docs/ports.md). Everything goes under
# BUILD/windows.
#   build: dungeon.dll (exports only dg_*, needs only system DLLs), its import
#          library libdungeon.dll.a, its export list dungeon.def (for MSVC's
#          lib /def) and the tool dungeon.exe linked against it.
#   check: build, then test lines for the DLL's exports and imports, the test
#          runner under Wine, its golden digest against the native runner's,
#          and the tool's files under Wine against the native tool's, byte for
#          byte. Ends "N passed, N failed"; exits nonzero on a failure.
mode=${1:-build}
B=${2:-build}
W=$B/windows
CROSS=x86_64-w64-mingw32
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
      -Wpointer-arith -Wvla -Wformat=2 -Wundef"
# mingw-w64's C99 printf family (static, from libmingwex) instead of msvcrt's,
# which lacks %zu on older Windows: diagnostics read the same everywhere.
WINFLAGS="-O2 -D__USE_MINGW_ANSI_STDIO=1"
passed=0
failed=0

# ---- tools: install what is missing when root, else say how ------------------
need_tools() {
    command -v $CROSS-gcc-win32 >/dev/null || sh tests/need.sh gcc-mingw-w64-x86-64 \
        "the mingw-w64 cross compiler" || exit 1
    [ -f /usr/include/stb/stb_image_write.h ] || sh tests/need.sh libstb-dev stb || exit 1
    [ "$mode" = build ] && return 0
    command -v $CROSS-gcc-posix >/dev/null || sh tests/need.sh gcc-mingw-w64-x86-64-posix \
        "the mingw-w64 compiler with POSIX threads" || exit 1
    command -v wine >/dev/null || sh tests/need.sh wine wine || exit 1
    [ -d /usr/lib/wine/x86_64-windows ] || [ -d /usr/lib/x86_64-linux-gnu/wine ] ||
        sh tests/need.sh wine64 "64-bit Wine" || exit 1
}

# ---- build ------------------------------------------------------------------
# The DLL: DG_SHARED_BUILD turns DG_API into dllexport, and with explicit
# exports ld exports nothing else; libgcc is linked in, not imported.
build_dll() {
    # shellcheck disable=SC2086
    $CROSS-gcc-win32 -std=c11 $WARN $WINFLAGS -DDG_SHARED_BUILD -Iinclude -Ilib -shared \
        lib/*/*.c -o "$W/dungeon.dll" -Wl,--out-implib,"$W/libdungeon.dll.a" \
        -Wl,--output-def,"$W/dungeon.def" -static-libgcc
}

# The tool, linked through the import library; stb_image_write's implementation
# is compiled from Debian's header in a unit of its own.
build_tool() {
    printf '#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n' \
        > "$W/tmp/stb_write.c"
    $CROSS-gcc-win32 -std=c11 -O2 -w -I/usr/include/stb -c "$W/tmp/stb_write.c" \
        -o "$W/tmp/stb_write.o" || return 1
    # shellcheck disable=SC2086
    $CROSS-gcc-win32 -std=c11 $WARN $WINFLAGS -Iinclude -I/usr/include/stb \
        examples/dungeon.c "$W/tmp/stb_write.o" -o "$W/dungeon.exe" -L"$W" -ldungeon \
        -static-libgcc
}

build() {
    need_tools
    mkdir -p "$W/tmp" || exit 1
    echo "windows: $W/dungeon.dll, $W/libdungeon.dll.a, $W/dungeon.def, $W/dungeon.exe"
    build_dll && build_tool || { echo "windows: build failed" >&2; exit 1; }
}

# ---- check helpers ------------------------------------------------------------
pass() { echo "   ok: $1"; passed=$((passed + 1)); }
fail() { echo "   FAILED: $1"; failed=$((failed + 1)); }
# result NAME COMMAND...: one test line from a command's exit status.
result() {
    name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

wine_env() {
    WINEPREFIX=$(cd "$W" && pwd)/wineprefix
    WINEDEBUG=-all
    WINEDLLOVERRIDES="mscoree,mshtml="
    HOME=${HOME:-$W}
    export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES HOME
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        echo "windows: creating a Wine prefix in $WINEPREFIX (once; may take a while)"
        wineboot --init >"$W/tmp/wineboot.log" 2>&1
        wineserver -w 2>/dev/null
    fi
    # One server for the whole check, so that a program never starts while the
    # previous one's server is shutting down; ended by wine_done.
    wineserver -p
}

wine_done() {
    wineserver -k 2>/dev/null
}

# ---- check: the DLL's export table and imports ------------------------------
# Names of the DLL's exports, one per line.
dll_exports() {
    $CROSS-objdump -p "$W/dungeon.dll" |
        sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
        sed -n 's/^[[:space:]]*\[ *[0-9]*\] \(.*\)$/\1/p'
}

# Every DG_API function the header declares, one per line.
header_functions() {
    grep '^DG_API' include/dungeon.h | sed 's/(.*//' | awk '{print $NF}' | tr -d '*' | sort
}

check_exports() {
    dll_exports >"$W/tmp/exports.txt"
    result "dungeon.dll exports only dg_* symbols ($(wc -l <"$W/tmp/exports.txt") of them)" \
        sh -c "[ -s '$W/tmp/exports.txt' ] && ! grep -v '^dg_' '$W/tmp/exports.txt'"
    header_functions >"$W/tmp/header.txt"
    sort "$W/tmp/exports.txt" >"$W/tmp/exports.sorted"
    result "dungeon.dll exports every DG_API function of include/dungeon.h" \
        cmp -s "$W/tmp/header.txt" "$W/tmp/exports.sorted"
}

# Imported DLLs that are part of Windows itself: KERNEL32, the C runtime
# (msvcrt or the UCRT's api-ms-win-crt-* sets).
system_dll() {
    case $(printf '%s' "$1" | tr 'A-Z' 'a-z') in
    kernel32.dll | msvcrt.dll | ucrtbase.dll | api-ms-win-crt-*.dll) return 0 ;;
    *) return 1 ;;
    esac
}

check_imports() {
    for file in dungeon.dll dungeon.exe; do
        names=$($CROSS-objdump -p "$W/$file" | sed -n 's/^[[:space:]]*DLL Name: //p')
        bad=
        for dll in $names; do
            [ "$dll" = dungeon.dll ] && [ "$file" = dungeon.exe ] && continue
            system_dll "$dll" || bad="$bad $dll"
        done
        result "$file imports only system DLLs ($(echo $names))" test -z "$bad"
    done
}

# ---- check: the test runner under Wine -----------------------------------------
# Like the Makefile's RUNNER rule; the thread tests use winpthreads, linked
# statically like libgcc so the runner needs no DLL beside it.
build_runner() {
    # shellcheck disable=SC2086
    $CROSS-gcc-posix -std=c11 $WARN $WINFLAGS -Iinclude -Ilib -Itests lib/*/*.c tests/*.c \
        -o "$W/runner.exe" -static -lpthread
}

native_runner() {
    make --no-print-directory B="$B" "$B/test-plain/runner" >&2
}

# The digest line of the golden tests; Wine's console ends lines with CRLF.
golden_digest() {
    DG_GOLDEN_DIGEST=1 "$@" golden 2>&1 | tr -d '\r' | sed -n 's/^golden digest: //p'
}

check_runner() {
    if ! build_runner; then
        fail "runner.exe builds with $CROSS-gcc-posix"
        return
    fi
    pass "runner.exe builds with $CROSS-gcc-posix"
    wine "$W/runner.exe" </dev/null >"$W/tmp/runner.out" 2>&1
    code=$?
    tr -d '\r' <"$W/tmp/runner.out" | grep -E '^(FAIL|  )' | head -n 40
    line=$(tr -d '\r' <"$W/tmp/runner.out" | grep -E '^[0-9]+ passed, [0-9]+ failed$')
    result "test runner under Wine: ${line:-no summary line}" test "$code" = 0 -a -n "$line"
    native_runner || { fail "native runner builds"; return; }
    want=$(golden_digest "$B/test-plain/runner")
    got=$(golden_digest wine "$W/runner.exe")
    result "golden digest under Wine ${got:-missing} = native ${want:-missing}" \
        test -n "$want" -a "$got" = "$want"
}

# ---- check: the tool under Wine against the native tool ------------------------
# Recipes covering every generator family, several sizes and seeds; a prefab
# generator's line ends with its prefab file.
TOOL_CASES="attach seed=1 width=80 height=50
attach seed=42 width=120 height=40 growth=newest dead_ends=prune
chain seed=7 width=60 height=40
chain seed=9 width=100 height=60 branch_chance=300 loop_chance=200
cave seed=3 width=70 height=45
bsp seed=11 width=90 height=50
maze seed=5 width=61 height=41
walk seed=13 width=80 height=50
scatter seed=17 width=96 height=64
world seed=19 width=60 height=40
prefab-full seed=3 width=56 height=26|examples/prefabs/shaft.txt
prefab-jigsaw seed=4 width=64 height=48|examples/prefabs/forest.txt
prefab-islands seed=6 width=80 height=50|examples/prefabs/factory.txt
prefab-mixed seed=8 width=80 height=50 base=cave|examples/prefabs/vaults.txt
world seed=7 width=81 height=51 dead_end_fix=1000|examples/prefabs/furnish.txt"

native_tool() {
    make --no-print-directory B="$B" "$B/bin/dungeon" >&2
}

# wine_tool OUT LOG ARGS...: dungeon.exe writes OUT; a run that exits
# non-zero is run once more (Wine's start can fail on a loaded machine), and
# its exit status and log are kept for the message.
wine_tool() {
    wine_out=$1 wine_log=$2
    shift 2
    wine "$W/dungeon.exe" "$@" -o "$wine_out" </dev/null >"$wine_log" 2>&1 && return 0
    echo "   (dungeon.exe exited $?; run again)" >"$wine_log.first"
    wine "$W/dungeon.exe" "$@" -o "$wine_out" </dev/null >"$wine_log" 2>&1
}

# tool_case N LINE FORMAT: the map written by both tools (files, so no newline
# translation), compared byte for byte; on failure, which side failed or
# where the bytes differ.
tool_case() {
    recipe=${2%%|*}
    prefabs=
    case $2 in *"|"*) prefabs="--prefabs ${2#*|}" ;; esac
    out="$W/tmp/tool-$1.$3"
    rm -f "$out.native" "$out.wine" "$out.log" "$out.log.first"
    # shellcheck disable=SC2086
    "$B/bin/dungeon" --recipe "$recipe" $prefabs --format "$3" -o "$out.native" >"$out.native.log" 2>&1 ||
        { echo "   (the native tool exited $?)"; tail -n 5 "$out.native.log"; return 1; }
    # shellcheck disable=SC2086
    wine_tool "$out.wine" "$out.log" --recipe "$recipe" $prefabs --format "$3" ||
        { echo "   (dungeon.exe exited $? twice)"; tr -d '\r' <"$out.log" | tail -n 5; return 1; }
    cat "$out.log.first" 2>/dev/null
    cmp "$out.native" "$out.wine" >"$out.cmp" 2>&1 || { sed 's/^/   /' "$out.cmp"; return 1; }
}

check_tool() {
    native_tool || { fail "native tool builds"; return; }
    n=0
    printf '%s\n' "$TOOL_CASES" >"$W/tmp/tool-cases.txt"
    while IFS= read -r line; do
        n=$((n + 1))
        for format in ascii json png; do
            result "dungeon.exe --format $format = native: ${line%%|*}" \
                tool_case "$n" "$line" "$format"
        done
    done <"$W/tmp/tool-cases.txt"
}

check() {
    build
    wine_env
    check_exports
    check_imports
    check_runner
    check_tool
    wine_done
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}

case $mode in
build) build ;;
check) check ;;
*) echo "usage: sh tests/ports/windows.sh build|check [BUILD]" >&2; exit 2 ;;
esac
