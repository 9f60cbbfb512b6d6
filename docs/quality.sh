#!/bin/sh
# Regenerates the survey tables of docs/quality.md (run from the repository
# root after `make`): every generator at its defaults, 1000 seeds from seed 1,
# at 80x25, 80x50 and 200x200, with the verdict on each contract line that
# applies, then the key and lock lines at 80x50. Everything between the two "survey tables"
# comment lines of the file is replaced; timing figures depend on the machine.
set -e
T=${DUNGEON:-build/bin/dungeon}
P=examples/prefabs
N=${SURVEY_MAPS:-1000}
DOC=docs/quality.md
out=$(mktemp)
trap 'rm -f "$out" "$out".1 "$out".2 "$out".3' EXIT

emit() { # emit GEN [ARGS...]; SIZES="A B C" (three WxH) other than the three
    gen=$1
    shift
    sizes=${SIZES:-80x25 80x50 200x200}
    set_sizes $sizes
    echo
    echo "### $gen"
    echo
    args=${*:+ $*}
    echo "\`dungeon --gen $gen$args --survey $N\`, min / median / p95 / max:"
    echo
    echo "| figure | $s1 | $s2 | $s3 |"
    echo "|---|---|---|---|"
    i=0
    for size in $sizes; do
        i=$((i + 1))
        "$T" --gen "$gen" --width "${size%x*}" --height "${size#*x}" --survey "$N" "$@" >"$out.$i" 2>&1 || true
    done
    awk 'FNR == 1 { file++ }
         /^[a-z_]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ +-?[0-9]+ / { v[file, $1] = $2 " / " $3 " / " $4 " / " $5; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
         /^(PASS|FAIL|n\/a) / { name = substr($0, 6, 20); sub(/ +$/, "", name); key = "contract: " name
             c[file, key] = $1 == "n/a" ? "n/a" : $1 " (" $NF ")"; if ($1 != "n/a") used[key] = 1
             if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
         /maps failed/ { sub(/^dungeon: /, ""); fails = fails "\n" FILENAME ": " $0 }
         END { for (i = 1; i <= n; i++) {
                   k = order[i]
                   if (k ~ /^contract: /) { if (k in used) printf "| %s | %s | %s | %s |\n", k, c[1, k], c[2, k], c[3, k] }
                   else printf "| %s | %s | %s | %s |\n", k, v[1, k], v[2, k], v[3, k] }
               if (fails != "") print "\nFailures:" fails }' "$out.1" "$out.2" "$out.3" |
        sed "s|$out.1|$s1|; s|$out.2|$s2|; s|$out.3|$s3|"
}
set_sizes() { s1=$1; s2=$2; s3=$3; }

# emit_locks GEN [ARGS...]: the key and lock lines, --locks 3 at 80x50
emit_locks() {
    gen=$1
    shift
    "$T" --gen "$gen" --width 80 --height 50 --locks 3 --survey "$N" "$@" >"$out.1" 2>&1 || true
    awk -v gen="$gen${*:+ $*}" '
        /^locks_placed / { placed = $6 }
        /^key_start_min / { start = $2 " / " $3 }
        /^key_lock_min / { lock = $2 " / " $3 }
        /^(PASS|FAIL) / { name = substr($0, 6, 20); sub(/ +$/, "", name); r[name] = $1 " (" $NF ")" }
        END { printf "| %s | %s | %s | %s | %s | %s | %s |\n", gen, placed, r["locks placed"], start,
                     r["key from start"], lock, r["key from lock"] }' "$out.1"
}

{
    echo
    echo "### Keys and locks"
    echo
    echo "\`dungeon --gen G --width 80 --height 50 --locks 3 --survey $N\`: locks placed (mean),"
    echo "the verdict on it (per mille of the locks asked), the fewest steps from the start to a"
    echo "key and from a key to its own lock (min / median over the maps), and their verdicts (p5):"
    echo
    echo "| generator | locks placed | contract | key from start | contract | key from lock | contract |"
    echo "|---|---|---|---|---|---|---|"
    for g in attach chain world cave bsp maze walk scatter; do emit_locks $g; done
    emit_locks prefab-jigsaw --prefabs $P/forest.txt
    emit_locks prefab-islands --prefabs $P/factory.txt
    emit_locks prefab-mixed --prefabs $P/vaults.txt
    emit attach
    emit chain
    emit world
    emit world --prefabs $P/furnish.txt
    SIZES="48x20 56x26 64x30" # prefab-full refuses a grid its prefab cannot half fill
    emit prefab-full --prefabs $P/shaft.txt
    SIZES=
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
