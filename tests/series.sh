#!/bin/sh
# series.sh BUILD [--store VERSION]: the same-bytes series. BUILD/series/series
# (tests/series/series.c) prints one digest line per case: every registered
# generator x grid size x parameter set over seeds 1..32, and roles plus
# population on a few generators; the tiles and the whole result are in each
# digest. The lines are compared with the newest stored file,
# tests/series/VERSION.txt (sort -V), which holds what that release printed:
# a row that moved is listed with both digests, and fails. The inputs are
# read from examples/ (prefabs, graphs, spawns), so editing those files moves
# the rows that use them just as a library change does.
#
# When a release moves outputs on purpose, store its file and commit it with
# the change: `sh tests/series.sh build --store 0.14` writes
# tests/series/0.14.txt; `git diff` of it against the previous file (or this
# script run before storing) lists the series that moved, which the changelog
# and docs/determinism.md name. A row the stored file lacks (a new generator or
# case) is listed as new and passes; store the file to pin it.
B=${1:-build}
S="$B/series/series"
[ -x "$S" ] || { echo "no $S (make $S)"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$S" . >"$tmp/now" 2>"$tmp/err"; then
    cat "$tmp/err"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ "$2" = "--store" ] && [ -n "$3" ]; then
    out="tests/series/$3.txt"
    { echo "# libdungeon $3: tests/series/series.c on its own sources and examples/"
      echo "# (tests/series.sh compares the newest of these files)"
      cat "$tmp/now"; } >"$out"
    echo "stored $out ($(wc -l <"$tmp/now") series)"
    echo "1 passed, 0 failed"
    exit 0
fi
stored=$(ls tests/series/*.txt 2>/dev/null | sort -V | tail -n 1)
[ -n "$stored" ] || { echo "no stored file tests/series/*.txt"; echo "0 passed, 1 failed"; exit 1; }
grep -v '^#' "$stored" >"$tmp/then"
# A row is NAME SIZE SET DIGEST STATUSES...; NAME SIZE SET is its key.
awk -v stored="$stored" '
    function key(line,  f) { split(line, f, " "); return f[1] " " f[2] " " f[3] }
    FNR == NR { then[key($0)] = $0; order[++n] = key($0); next }
    { now[key($0)] = $0; if (!(key($0) in then)) { print "new (not in " stored "): " $0; added++ } }
    END {
        for (i = 1; i <= n; i++) {
            k = order[i]
            if (!(k in now)) { print "gone: " then[k]; failed++ }
            else if (now[k] != then[k]) {
                print "moved: " then[k]
                print "   now: " now[k]
                failed++
            } else passed++
        }
        if (failed) print failed " of " n " series differ from " stored
        printf "%d passed, %d failed\n", passed, failed
        exit failed != 0
    }' "$tmp/then" "$tmp/now"
