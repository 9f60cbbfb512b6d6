#!/bin/sh
# Regenerates the survey tables of docs/quality.md (run from the repository
# root after `make`): every generator at its defaults, 1000 seeds from seed 1,
# at 80x25, 80x50 and 200x200. Everything between the two "survey tables"
# comment lines of the file is replaced; timing figures depend on the machine.
set -e
T=${DUNGEON:-build/bin/dungeon}
P=examples/prefabs
N=${SURVEY_MAPS:-1000}
DOC=docs/quality.md
out=$(mktemp)
trap 'rm -f "$out" "$out".1 "$out".2 "$out".3' EXIT

emit() { # emit GEN [ARGS...]
    gen=$1
    shift
    echo
    echo "### $gen"
    echo
    args=${*:+ $*}
    echo "\`dungeon --gen $gen$args --survey $N\`, min / median / p95 / max:"
    echo
    echo "| figure | 80x25 | 80x50 | 200x200 |"
    echo "|---|---|---|---|"
    i=0
    for size in 80x25 80x50 200x200; do
        i=$((i + 1))
        "$T" --gen "$gen" --width "${size%x*}" --height "${size#*x}" --survey "$N" "$@" >"$out.$i" 2>&1 || true
    done
    awk 'FNR == 1 { file++ }
         /^[a-z_]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ / { v[file, $1] = $2 " / " $3 " / " $4 " / " $5; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
         /maps failed/ { sub(/^dungeon: /, ""); fails = fails "\n" FILENAME ": " $0 }
         END { for (i = 1; i <= n; i++) printf "| %s | %s | %s | %s |\n", order[i], v[1, order[i]], v[2, order[i]], v[3, order[i]]
               if (fails != "") print "\nFailures:" fails }' "$out.1" "$out.2" "$out.3" |
        sed "s|$out.1|80x25|; s|$out.2|80x50|; s|$out.3|200x200|"
}

{
    emit attach
    emit chain
    emit world
    emit world --prefabs $P/furnish.txt
    emit prefab-full --prefabs $P/shaft.txt
    emit prefab-jigsaw --prefabs $P/forest.txt
    emit prefab-islands --prefabs $P/factory.txt
    emit prefab-mixed --prefabs $P/vaults.txt
    emit prefab-mixed --prefabs $P/vaults.txt --param base=cave
    emit cave
    emit bsp
    emit maze
    emit walk
    emit scatter
    echo
} >"$out"
awk -v tables="$out" '
    /<!-- survey tables: begin -->/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
    /<!-- survey tables: end -->/ { skip = 0 }
    !skip' "$DOC" >"$DOC.new"
mv "$DOC.new" "$DOC"
