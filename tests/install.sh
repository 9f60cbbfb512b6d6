#!/bin/sh
# Install into a temporary DESTDIR, then build consumers through pkg-config:
# shared, --static, and as C++; run them; uninstall removes everything.
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }

prefix=/opt/dgtest
make -s install DESTDIR="$tmp/root" PREFIX=$prefix >"$tmp/log" 2>&1 || { cat "$tmp/log"; ko "make install"; }
root=$tmp/root$prefix
for f in include/dungeon.h lib/libdungeon.a lib/libdungeon.so lib/pkgconfig/libdungeon.pc bin/dungeon \
         share/man/man1/dungeon.1; do
    [ -e "$root/$f" ] && ok || ko "installed $f"
done

# pkg-config sees the installed .pc with its prefix moved under DESTDIR
export PKG_CONFIG_PATH="$root/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
cat >"$tmp/consumer.c" <<'C'
#include <dungeon.h>
#include <stdio.h>
int main(void)
{
    static uint8_t cells[80 * 25];
    dg_grid grid;
    dg_attach_params params;
    if (dg_grid_init(&grid, cells, 80, 25, 0) != DG_OK)
        return 1;
    dg_attach_defaults(&params);
    dg_status st = dg_attach_generate(&grid, &params, 7, NULL, NULL, NULL);
    printf("%s %s %d\n", dg_version(), dg_status_str(st), dg_grid_get(&grid, 40, 12) != 255);
    return st == DG_OK ? 0 : 1;
}
C
cflags=$(pkg-config --cflags libdungeon) && libs=$(pkg-config --libs libdungeon) || ko "pkg-config libdungeon"
slibs=$(pkg-config --static --libs libdungeon)
if cc -Wall -Wextra -Wpedantic -Werror $cflags "$tmp/consumer.c" -o "$tmp/shared" $libs 2>"$tmp/err"; then
    LD_LIBRARY_PATH="$root/lib" "$tmp/shared" >/dev/null && ok || ko "shared consumer runs"
    readelf -d "$tmp/shared" | grep -q 'NEEDED.*libdungeon.so.[0-9]' && ok || ko "shared consumer links libdungeon.so"
else
    cat "$tmp/err"; ko "shared consumer compiles"
fi
if cc $cflags "$tmp/consumer.c" -o "$tmp/static" -Wl,-Bstatic $slibs -Wl,-Bdynamic 2>"$tmp/err"; then
    "$tmp/static" >/dev/null && ok || ko "static consumer runs"
    readelf -d "$tmp/static" | grep -q 'NEEDED.*libdungeon' && ko "static consumer needs no libdungeon.so" || ok
else
    cat "$tmp/err"; ko "static consumer compiles"
fi
cp "$tmp/consumer.c" "$tmp/consumer.cpp"
if c++ -Wall -Wextra -Wpedantic -Werror $cflags "$tmp/consumer.cpp" -o "$tmp/cxx" $libs 2>"$tmp/err"; then
    LD_LIBRARY_PATH="$root/lib" "$tmp/cxx" >/dev/null && ok || ko "C++ consumer runs"
else
    cat "$tmp/err"; ko "C++ consumer compiles"
fi
"$root/bin/dungeon" --version >/dev/null && ok || ko "installed dungeon tool runs"
if command -v man >/dev/null; then
    man -l "$root/share/man/man1/dungeon.1" 2>&1 >/dev/null | grep . && ko "man page renders cleanly" || ok
fi

make -s uninstall DESTDIR="$tmp/root" PREFIX=$prefix >/dev/null 2>&1
left=$(find "$tmp/root" -type f -o -type l)
[ -z "$left" ] && ok || ko "uninstall left: $left"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
