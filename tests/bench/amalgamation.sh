#!/bin/sh
# amalgamation.sh NORMAL AMALGAMATED [RUNS] [FILTER...]: runs the same bench
# program built from lib/ and from the amalgamation RUNS times each, turn about,
# and prints each row's median time per op over the runs side by side (each
# run's figure is itself the median of its repetitions). make bench-amalgamation
normal=$1
amalg=$2
runs=${3:-5}
shift 2
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- ""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$runs" ]; do
    for filter in "$@"; do # each FILTER word is one bench run (all benches: none)
        "$normal" $filter >>"$tmp/normal.$i" || exit 1
        "$amalg" $filter >>"$tmp/amalg.$i" || exit 1
    done
    i=$((i + 1))
done
# rows: NAME SIZE MEDIAN UNIT ...; times in microseconds
awk -v runs="$runs" '
function us(v, u) { return u == "ms" ? v * 1000 : v }
function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    kind = FILENAME ~ /amalg\.[0-9]+$/ ? "a" : "n"
    # the name and size columns may hold blanks: %-28s %-10s, then the times
    name = substr($0, 1, 28); size = substr($0, 30, 10); split(substr($0, 40), f, " ")
    if (f[2] != "us" && f[2] != "ms") next
    gsub(/ +$/, "", name); gsub(/ +$/, "", size)
    key = name "|" size
    if (!(key in seen)) { seen[key] = 1; order[++count] = key }
    t[kind, key] = t[kind, key] " " us(f[1], f[2])
}
END {
    printf "%-28s %-10s %14s %14s %8s\n", "benchmark", "size", "normal (us)", "amalg. (us)", "ratio"
    for (i = 1; i <= count; i++) {
        k = order[i]; split(k, p, "|")
        n = median(t["n", k]); a = median(t["a", k])
        printf "%-28s %-10s %14.2f %14.2f %8.3f\n", p[1], p[2], n, a, (n > 0 ? a / n : 0)
        if (n > 0) { sum += log(a / n); rows++ }
    }
    if (rows) printf "geometric mean of the ratios over %d rows: %.3f (medians of %d runs each; below 1: the amalgamation is faster)\n", rows, exp(sum / rows), runs
}' $(i=1; while [ "$i" -le "$runs" ]; do echo "$tmp/normal.$i $tmp/amalg.$i"; i=$((i + 1)); done)
