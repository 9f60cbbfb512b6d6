#!/bin/sh
# wasm.sh build|check [BUILD]: libdungeon as WebAssembly for Node and the web
# (docs/ports.md). Everything goes under BUILD/wasm.
#   build: emcc compiles lib/*/*.c into BUILD/wasm/dungeon.wasm and its ES-module
#          loader dungeon.js, copied into examples/bindings/js/dist/.
#   check: build, then the package's tests under Node (no network): maps of
#          every generator against the native tool's files byte for byte,
#          analysis against the native runner's answers, bad input as Errors.
#          Ends "N passed, N failed"; exits nonzero on a failure.
mode=${1:-build}
B=${2:-build}
W=$B/wasm
PKG=examples/bindings/js

# ---- tools: install what is missing when root, else say how ------------------
need_tools() {
    command -v emcc >/dev/null || sh tests/need.sh emscripten emscripten || exit 1
    command -v node >/dev/null || sh tests/need.sh nodejs "Node.js" || exit 1
    # Debian's emcc runs its JS optimiser with node, which must find acorn.
    node -e "require('acorn')" 2>/dev/null && return 0
    [ -d /usr/share/nodejs/acorn ] || sh tests/need.sh node-acorn "acorn for emcc" || exit 1
    NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
    export NODE_PATH
}

# emcc writes its library cache next to itself; elsewhere when that is read-only.
use_cache() {
    cache=$(em-config CACHE 2>/dev/null)
    [ -n "$cache" ] && [ -w "$cache" ] && return 0
    EM_CACHE=$(cd "$W" && pwd)/cache
    export EM_CACHE
}

# Every DG_API function of the header as an emcc export list: _dg_a,_dg_b,...
exported_functions() {
    grep '^DG_API' include/dungeon.h | sed 's/(.*//' | awk '{print $NF}' | tr -d '*' |
        sort | sed 's/^/_/' | tr '\n' ','
}

# The module: an ES6 factory (createDungeonModule) for node and browsers;
# uint64 seeds cross as BigInt (WASM_BIGINT), memory grows on demand, and the
# loader leaves the process's exception handlers to the application.
build_module() {
    emcc -std=c11 -O2 -Iinclude -Ilib lib/*/*.c -o "$W/dungeon.js" \
        -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createDungeonModule \
        -sENVIRONMENT=node,web -sALLOW_MEMORY_GROWTH=1 -sWASM_BIGINT=1 \
        -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
        "-sEXPORTED_FUNCTIONS=[$(exported_functions)_malloc,_free]" \
        "-sEXPORTED_RUNTIME_METHODS=[HEAPU8,HEAP32,HEAPU32]"
}

build() {
    need_tools
    mkdir -p "$W" "$PKG/dist" || exit 1
    use_cache
    echo "wasm: $W/dungeon.wasm, $W/dungeon.js -> $PKG/dist/"
    build_module || { echo "wasm: build failed" >&2; exit 1; }
    cp "$W/dungeon.wasm" "$W/dungeon.js" "$PKG/dist/" || exit 1
}

# ---- check ------------------------------------------------------------------
native_tools() {
    make --no-print-directory B="$B" "$B/bin/dungeon" >&2 || return 1
    # the native answers to the analysis queries of the package's tests
    ${CC:-cc} -std=c11 -O2 -Iinclude -Ilib lib/*/*.c "$PKG/test/analysis_ref.c" \
        -o "$W/analysis_ref" -lm
}

# The package's tests with the native tool and analysis program as references;
# they print one line per test and the summary line.
check() {
    build
    native_tools || { echo "wasm: the native references do not build"; echo "0 passed, 1 failed"; exit 1; }
    mkdir -p "$W/tmp"
    DUNGEON_TOOL=$(cd "$B/bin" && pwd)/dungeon DUNGEON_ANALYSIS=$(cd "$W" && pwd)/analysis_ref \
        DUNGEON_TMP=$(cd "$W/tmp" && pwd) node "$PKG/test/test.mjs"
}

case $mode in
build) build ;;
check) check ;;
*) echo "usage: sh tests/ports/wasm.sh build|check [BUILD]" >&2; exit 2 ;;
esac
