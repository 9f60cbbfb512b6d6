#!/bin/sh
# Every way a game's build can take libdungeon (docs/build.md), offline: one
# small consumer (a recipe line in, the ASCII map out) built
#   (a) with find_package(libdungeon MAJOR.MINOR CONFIG) from `make install` into a
#       temporary PREFIX, shared and static;
#   (b) with add_subdirectory of this tree (shared: soname and exports checked);
#   (c) with FetchContent from this tree (FETCHCONTENT_SOURCE_DIR_LIBDUNGEON,
#       FETCHCONTENT_FULLY_DISCONNECTED: nothing is downloaded), static;
#   (d) from the amalgamation (make check-amalgamation, which also runs the
#       golden tests on it);
#   (e) with pkg-config against the temporary install.
# Each prints the same maps as build/bin/dungeon for the same recipes. Also: a
# package asking for the previous minor, 1.0 or the next patch is refused with a
# message naming the installed version, and install runs ldconfig only when it
# should. The versions come from include/dungeon.h.
B=$(cd "${1:-build}" && pwd) || { echo "0 passed, 1 failed"; exit 1; }
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
# same WHAT WANT GOT: one test, passed when the two files are equal
same() {
    if cmp -s "$2" "$3"; then pass; else fail "$1"; diff "$2" "$3" | head -10; fi
}
CC=${CC:-cc}
version_part() { sed -n "s/^#define DG_VERSION_$1 \([0-9]*\)/\1/p" include/dungeon.h; }
MINOR=$(version_part MINOR)
PATCH=$(version_part PATCH)
SERIES=0.$MINOR                 # the ABI series and soname (0.x)
VERSION=$SERIES.$PATCH
PREV=0.$((MINOR - 1))
NEXT_PATCH=$SERIES.$((PATCH + 1))
NEXT_MINOR=0.$((MINOR + 1))

command -v cmake >/dev/null || sh tests/need.sh cmake cmake || { fail "cmake is missing"; finish; }
command -v pkg-config >/dev/null || sh tests/need.sh pkg-config pkg-config || { fail "pkg-config is missing"; finish; }
if command -v ninja >/dev/null; then set -- -G Ninja; else set -- -G "Unix Makefiles"; fi
gen_args="$*"
[ -x "$B/bin/dungeon" ] || { fail "no $B/bin/dungeon (make all)"; finish; }

# ---- what every route must print: the dungeon tool's maps -----------------------------
recipes="attach seed=42 width=80 height=50
bsp seed=3 width=70 height=45
cave seed=7 width=60 height=40
maze seed=5 width=41 height=31
walk seed=9 width=64 height=40"
printf '%s\n' "$recipes" | while IFS= read -r r; do
    "$B/bin/dungeon" --recipe "$r" || echo "dungeon failed: $r"
done >"$tmp/want"

mkdir "$tmp/src"
cat >"$tmp/src/consumer.c" <<'C'
/* Reads recipe lines, prints each map as ASCII, as `dungeon --recipe` does. */
#include <dungeon.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    char line[512];
    while (fgets(line, sizeof line, stdin))
    {
        dg_recipe recipe;
        dg_diag diag;
        line[strcspn(line, "\n")] = '\0';
        if (dg_recipe_parse(line, strlen(line), &recipe, &diag) != DG_OK)
            return 1;
        size_t cells = (size_t)recipe.width * (size_t)recipe.height;
        size_t size = ((size_t)recipe.width + 1) * (size_t)recipe.height + 1;
        uint8_t *grid_cells = malloc(cells);
        char *text = malloc(size);
        dg_grid grid;
        size_t len = 0;
        if (!grid_cells || !text ||
            dg_grid_init(&grid, grid_cells, recipe.width, recipe.height, 0) != DG_OK ||
            dg_recipe_generate(&recipe, &grid, NULL, NULL, NULL, &diag) != DG_OK ||
            dg_render_ascii(&grid, NULL, text, size, &len) != DG_OK)
            return 1;
        fwrite(text, 1, len, stdout);
        free(text);
        free(grid_cells);
    }
    return 0;
}
C
cat >"$tmp/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.14)
project(consumer C)
if(ROUTE STREQUAL "package")
  find_package(libdungeon ${WANT} CONFIG REQUIRED)
  message(STATUS "libdungeon_DIR=${libdungeon_DIR} version ${libdungeon_VERSION}")
  add_executable(consumer_static consumer.c)
  target_link_libraries(consumer_static PRIVATE libdungeon::dungeon_static)
elseif(ROUTE STREQUAL "subdir")
  add_subdirectory("${DG_SOURCE}" libdungeon)
elseif(ROUTE STREQUAL "fetch")
  include(FetchContent)
  # never reached: FETCHCONTENT_SOURCE_DIR_LIBDUNGEON names the tree to use
  FetchContent_Declare(libdungeon GIT_REPOSITORY https://libdungeon.invalid/libdungeon.git GIT_TAG main)
  FetchContent_MakeAvailable(libdungeon)
endif()
add_executable(consumer consumer.c)
target_link_libraries(consumer PRIVATE libdungeon::dungeon)
CMAKE

# configure NAME ARGS...: cmake -S src -B tmp/NAME, log in tmp/NAME.log
configure() {
    name=$1
    shift
    # shellcheck disable=SC2086
    cmake -S "$tmp/src" -B "$tmp/$name" $gen_args -DCMAKE_BUILD_TYPE=Debug "$@" >"$tmp/$name.log" 2>&1
}
# build NAME: builds what configure set up (the library and the consumers only)
build() {
    nice cmake --build "$tmp/$name" -j 2 >>"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" | tail -30; return 1; }
}
# run WHAT PROGRAM [ENV...]: the program's maps must be the tool's
run() {
    what=$1
    prog=$2
    shift 2
    printf '%s\n' "$recipes" | env "$@" "$prog" >"$tmp/got" 2>&1
    same "$what prints other maps than build/bin/dungeon" "$tmp/want" "$tmp/got"
}

# ---- (a) the installed CMake package -------------------------------------------------
prefix=$tmp/prefix
if make -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
    pass
    for f in libdungeonConfig.cmake libdungeonConfigVersion.cmake; do
        [ -f "$prefix/lib/cmake/libdungeon/$f" ] && pass || fail "make install did not write lib/cmake/libdungeon/$f"
    done
    if configure package -DROUTE=package -DWANT=$SERIES -DCMAKE_PREFIX_PATH="$prefix" && build package; then
        grep -q "libdungeon_DIR=$prefix/lib/cmake/libdungeon version $VERSION" "$tmp/package.log" && pass ||
            fail "find_package found another libdungeon: $(grep libdungeon_DIR "$tmp/package.log")"
        run "find_package, libdungeon::dungeon" "$tmp/package/consumer" LD_LIBRARY_PATH="$prefix/lib"
        readelf -d "$tmp/package/consumer" | grep -q "NEEDED.*\[libdungeon.so.$SERIES\]" && pass ||
            fail "libdungeon::dungeon does not link libdungeon.so.$SERIES"
        run "find_package, libdungeon::dungeon_static" "$tmp/package/consumer_static"
        readelf -d "$tmp/package/consumer_static" | grep -q 'NEEDED.*libdungeon' &&
            fail "libdungeon::dungeon_static needs libdungeon.so" || pass
    else
        tail -20 "$tmp/package.log"
        fail "find_package(libdungeon $SERIES CONFIG REQUIRED) consumer"
    fi
    # versions it must accept (configure only) and refuse, with a message
    for want in $VERSION $SERIES...0.$((MINOR + 2)); do
        if configure "accept" -DROUTE=package -DWANT="$want" -DCMAKE_PREFIX_PATH="$prefix"; then pass; else
            tail -5 "$tmp/accept.log"; fail "find_package(libdungeon $want) refused $VERSION"
        fi
    done
    for want in $PREV 1.0 $NEXT_PATCH $NEXT_MINOR...1.0; do
        if configure "refuse" -DROUTE=package -DWANT="$want" -DCMAKE_PREFIX_PATH="$prefix"; then
            fail "find_package(libdungeon $want) accepted $VERSION"
        elif grep -q "compatible with requested version" "$tmp/refuse.log" &&
            grep -q "version: $VERSION (libdungeon $VERSION only accepts requests for $SERIES" "$tmp/refuse.log"; then
            pass
        else
            cat "$tmp/refuse.log"; fail "find_package(libdungeon $want) failed without saying why"
        fi
    done
else
    cat "$tmp/install.log"
    fail "make install PREFIX=$prefix"
fi

# ---- (b) add_subdirectory, shared --------------------------------------------------------
if configure subdir -DROUTE=subdir -DDG_SOURCE="$root" -DBUILD_SHARED_LIBS=ON && build subdir; then
    run "add_subdirectory" "$tmp/subdir/consumer"
    so=$(ls "$tmp"/subdir/libdungeon/libdungeon.so.*.*.* 2>/dev/null | head -n 1)
    soname=$(readelf -d "$so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    make_so=$(ls "$B"/libdungeon.so.*.*.* | head -n 1)
    want=$(readelf -d "$make_so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    [ -n "$soname" ] && [ "$soname" = "$want" ] && pass || fail "CMake's shared library has soname '$soname', make's '$want'"
    bad=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^dg_\|^_init$\|^_fini$')
    [ -z "$bad" ] && pass || fail "CMake's shared library exports more than dg_*: $bad"
    nm -D --defined-only "$so" | awk '{print $3}' | sort >"$tmp/cmake.syms"
    nm -D --defined-only "$make_so" | awk '{print $3}' | sort >"$tmp/make.syms"
    same "CMake's and make's shared libraries export different symbols" "$tmp/make.syms" "$tmp/cmake.syms"
else
    fail "add_subdirectory consumer"
fi

# ---- (c) FetchContent, offline, static -----------------------------------------------------
if configure fetch -DROUTE=fetch -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
    -DFETCHCONTENT_SOURCE_DIR_LIBDUNGEON="$root" && build fetch; then
    run "FetchContent" "$tmp/fetch/consumer"
    readelf -d "$tmp/fetch/consumer" | grep -q 'NEEDED.*libdungeon' && fail "FetchContent's static build needs libdungeon.so" || pass
    ls "$tmp"/fetch/_deps/libdungeon-build/libdungeon.a >/dev/null 2>&1 && pass || fail "FetchContent did not build libdungeon.a"
else
    fail "FetchContent consumer"
fi

# ---- (d) the amalgamation ------------------------------------------------------------------
# `make check-amalgamation` compiles it alone (gcc and clang, -Werror, with and
# without DG_API) and runs the golden tests (every pinned hash) against it.
am=$B/amalgamation
if make -s B="$B" check-amalgamation >"$tmp/amalg.log" 2>&1 && tail -n 1 "$tmp/amalg.log" | grep -q ' 0 failed$'; then
    pass
    cmp -s "$am/dungeon.h" include/dungeon.h && pass || fail "the amalgamation's dungeon.h is not include/dungeon.h"
    if $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$am" "$tmp/src/consumer.c" "$am/check-gcc.o" \
        -o "$tmp/amalg" -lm 2>"$tmp/err"; then
        run "the amalgamation" "$tmp/amalg"
    else
        cat "$tmp/err"; fail "consumer with the amalgamation"
    fi
else
    tail -n 30 "$tmp/amalg.log"; fail "make check-amalgamation"
fi

# ---- (e) pkg-config against the temporary install ------------------------------------------
if [ -f "$prefix/lib/pkgconfig/libdungeon.pc" ]; then
    pc="env PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config"
    if $CC $strict $($pc --cflags libdungeon) "$tmp/src/consumer.c" -o "$tmp/pc" $($pc --libs libdungeon) \
        -Wl,-rpath,"$($pc --variable=libdir libdungeon)" 2>"$tmp/err"; then
        run "pkg-config" "$tmp/pc"
    else
        cat "$tmp/err"; fail "pkg-config consumer"
    fi
    make -s uninstall PREFIX="$prefix" >/dev/null 2>&1
    left=$(find "$prefix" -type f -o -type l)
    [ -z "$left" ] && pass || fail "make uninstall left: $left"
fi

# ---- ldconfig: only root, only without DESTDIR, only into the loader's path ----------------
# (make -n: what install would run, nothing is installed)
ld() { make -s -n install "$@" 2>/dev/null | grep -cx ldconfig; }
if [ "$(id -u)" = 0 ] && ldconfig -v -N -X 2>/dev/null | grep -q '^/usr/local/lib:'; then
    [ "$(ld PREFIX=/usr/local)" = 1 ] && pass || fail "make install PREFIX=/usr/local as root runs no ldconfig"
fi
[ "$(ld PREFIX=/usr/local DESTDIR="$tmp/stage")" = 0 ] && pass || fail "make install DESTDIR=... runs ldconfig"
[ "$(ld PREFIX="$tmp/elsewhere")" = 0 ] && pass || fail "make install into a PREFIX off the loader's path runs ldconfig"
finish
