#!/bin/sh
# The shared library exports only dg_* symbols; the soname is libdungeon.so.MAJOR.
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
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ "$soname" = "libdungeon.so.$major" ]; then pass=$((pass + 1)); else echo "soname '$soname'"; fail=$((fail + 1)); fi
if readelf -lW "$so" | grep -q 'GNU_STACK.*RWE'; then echo "executable stack"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
