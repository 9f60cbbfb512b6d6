#!/bin/sh
# The shared library exports only dg_* symbols; its soname follows docs/abi.md.
# Every global symbol of libdungeon.a is dg_* or dgi_*, so a program's own names
# never clash with the library's; every file-scope name a private header declares
# carries its prefix (tests/private_names.py); DG_API can be overridden.
# (The architecture, folders and call circles, is tests/layers.sh.)
B=${1:-build}
so=$(ls "$B"/libdungeon.so.*.*.* 2>/dev/null | head -n 1)
pass=0
fail=0
if [ -z "$so" ]; then
    echo "no shared library in $B"
    echo "0 passed, 1 failed"
    exit 1
fi
bad=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^dg_' | grep -v '^_init$' | grep -v '^_fini$')
if [ -n "$bad" ]; then
    echo "exported symbols without the dg_ prefix:"
    echo "$bad"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
count=$(nm -D --defined-only "$so" | grep -c ' T dg_')
[ "$count" -gt 20 ] && pass=$((pass + 1)) || { echo "only $count dg_ functions exported"; fail=$((fail + 1)); }
major=$(sed -n 's/^#define DG_VERSION_MAJOR \([0-9]*\)/\1/p' include/dungeon.h)
minor=$(sed -n 's/^#define DG_VERSION_MINOR \([0-9]*\)/\1/p' include/dungeon.h)
# docs/abi.md: libdungeon.so.0.MINOR while the major version is 0, then libdungeon.so.MAJOR
want=libdungeon.so.$major
[ "$major" = 0 ] && want=libdungeon.so.0.$minor
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ "$soname" = "$want" ]; then pass=$((pass + 1)); else echo "soname '$soname', want '$want'"; fail=$((fail + 1)); fi
if readelf -lW "$so" | grep -q 'GNU_STACK.*RWE'; then echo "executable stack"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

# check NAME OUTPUT: passes when OUTPUT is empty, else prints NAME and OUTPUT
check() {
    if [ -z "$2" ]; then pass=$((pass + 1)); else echo "$1"; echo "$2"; fail=$((fail + 1)); fi
}
a="$B/libdungeon.a"
if [ -f "$a" ]; then
    check "global symbols of libdungeon.a without the dg_ or dgi_ prefix:" \
        "$(nm -g --defined-only "$a" | awk 'NF == 3 && $3 !~ /^dgi?_/ { print $2, $3 }')"
else
    check "libdungeon.a" "no static library in $B"
fi

# Every file-scope name of a private header carries its prefix (README.md, Layout),
# so the amalgamation's one translation unit holds no two alike.
check "names declared by private headers without their prefix (header: name):" \
    "$(python3 tests/private_names.py 2>&1)"

# A consumer may define DG_API itself (here: empty) without a warning.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "dungeon.h"\nint main(void) { return dg_version_number() < 0; }\n' >"$tmp/api.c"
check "-DDG_API= does not compile quietly:" \
    "$(${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -DDG_API= -Iinclude -c "$tmp/api.c" \
        -o "$tmp/api.o" 2>&1)"
check "-DDG_API= still gives the library's export attribute:" \
    "$(${CC:-cc} -std=c11 -DDG_API= -Iinclude -E "$tmp/api.c" 2>&1 | grep -m 1 'visibility')"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
