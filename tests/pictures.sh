#!/bin/sh
# pictures.sh BUILD: every picture under docs/ is what its script makes now.
# Runs docs/gallery/make.sh and docs/img/make.sh into a scratch directory
# (the tool once per picture) and compares the bytes: a picture that differs,
# that no script makes, or that a script makes but docs/ lacks is a failure.
# Regenerate with `sh docs/gallery/make.sh; sh docs/img/make.sh` after `make`.
# PNGs are written by stb_image_write, whose bytes depend only on the pixels.
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for bin in dungeon walker analysis_demo flee chase; do
    [ -x "$B/bin/$bin" ] || { echo "no $B/bin/$bin (make $B/bin/$bin)"; echo "0 passed, 1 failed"; exit 1; }
done
for script in docs/gallery/make.sh docs/img/make.sh; do
    if ! OUT="$tmp" DUNGEON="$B/bin/dungeon" BIN="$B/bin" sh "$script" >"$tmp/log" 2>&1; then
        fail=$((fail + 1))
        echo "FAIL $script stopped:"
        tail -3 "$tmp/log"
    fi
done
for dir in gallery img; do
    for pic in docs/$dir/*.png; do
        made="$tmp/$dir/${pic##*/}"
        if [ ! -e "$made" ]; then
            fail=$((fail + 1))
            echo "FAIL $pic: no script makes it (add its command to docs/$dir/make.sh)"
        elif cmp -s "$pic" "$made"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $pic differs from what docs/$dir/make.sh makes now (run it to regenerate)"
        fi
    done
    for made in "$tmp/$dir"/*.png; do
        [ -e "docs/$dir/${made##*/}" ] || { fail=$((fail + 1)); echo "FAIL docs/$dir/make.sh makes ${made##*/}, missing from docs/$dir"; }
    done
done
# the same command writes the same bytes twice
"$B/bin/dungeon" --gen maze --seed 3 --width 41 --height 31 --scale 7 --markers --legend --locks 4 -o "$tmp/a.png" &&
    "$B/bin/dungeon" --gen maze --seed 3 --width 41 --height 31 --scale 7 --markers --legend --locks 4 -o "$tmp/b.png" &&
    cmp -s "$tmp/a.png" "$tmp/b.png" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL png_twice: two runs differ"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
