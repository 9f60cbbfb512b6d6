#!/bin/sh
# The parameter tables in docs/*.md are generated from the registry's tables
# (lib/core/params.c) by docs/params.sh: this regenerates them into a copy of
# docs/ and fails, naming the file, where the committed docs differ (run
# `sh docs/params.sh build` and commit). Run from the repository root.
B=${1:-build}
D="$B/bin/dungeon"
pass=0
fail=0
[ -x "$D" ] || { echo "no $D (make $D)"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp docs/*.md "$tmp"/
if sh docs/params.sh "$B" "$tmp"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL docs/params.sh failed"; fi
files=0
for f in docs/*.md; do
    grep -q '^<!-- params: ' "$f" || continue
    files=$((files + 1))
    if cmp -s "$f" "$tmp/${f#docs/}"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $f: its parameter tables differ from the registry's (sh docs/params.sh $B):"
        diff "$f" "$tmp/${f#docs/}" | head -10
    fi
done
# every generator has a generated table somewhere
for name in $("$D" --list 2>/dev/null | awk '{ print $1 }'); do
    if grep -q "^<!-- params: $name " docs/*.md; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL no docs/*.md has a generated table for $name"; fi
done
[ "$files" -gt 0 ] || { fail=$((fail + 1)); echo "FAIL no docs/*.md has a params marker"; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
