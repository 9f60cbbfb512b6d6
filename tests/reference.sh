#!/bin/sh
# docs/reference.md, the one-line-per-name API reference, is generated from
# include/dungeon.h by docs/reference.py. It must be current, it must list every
# function the header declares with DG_API (found here by the C preprocessor,
# not by the generator), and every function needs a comment above or beside it,
# which is its summary. The last checks show that each of these can fail, on a
# copy of the header with one function added. DG_REFERENCE_HEADER=FILE checks
# another header against docs/reference.md.
B=${1:-build}
H=${DG_REFERENCE_HEADER:-include/dungeon.h}
REF=docs/reference.md
REGEN="python3 docs/reference.py"
pass=0
fail=0
command -v python3 >/dev/null || sh tests/need.sh python3 "python3 (docs/reference.py)" || {
    echo "0 passed, 1 failed"
    exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME OUTPUT: passes when OUTPUT is empty, else prints NAME and OUTPUT
check() {
    if [ -z "$2" ]; then pass=$((pass + 1)); else echo "$1"; echo "$2"; fail=$((fail + 1)); fi
}

# api_functions HEADER: the names of the functions HEADER declares with DG_API
api_functions() {
    ${CC:-cc} -E -P -DDG_API=DG_API_MARK -x c "$1" 2>"$tmp/cpp.err" | tr '\n' ' ' | tr ';' '\n' |
        grep 'DG_API_MARK' | awk '{
            # the first name followed by "(" but not by "(*" (a returned function pointer)
            s = $0
            while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
                t = substr(s, RSTART, RLENGTH)
                s = substr(s, RSTART + RLENGTH)
                if (s !~ /^[ \t]*\*/) { sub(/[ \t]*\($/, "", t); print t; break }
            }
        }' | sort -u
}

# missing HEADER REFERENCE: DG_API functions of HEADER that REFERENCE lists not
missing() {
    api_functions "$1" | while read -r f; do
        [ -n "$f" ] || continue
        grep -q "\[\`$f\`\](" "$2" || echo "$f"
    done
}

# generate HEADER OUT: the reference of HEADER into OUT; errors into $tmp/gen.err
generate() {
    python3 docs/reference.py --header "$1" --out "$2" 2>"$tmp/gen.log"
    code=$?
    grep 'error:' "$tmp/gen.log" >"$tmp/gen.err"
    return $code
}

# 1. the generator runs and every function of the header has a summary comment
generate "$H" "$tmp/reference.md"
check "$H: declarations the reference cannot summarise (fix the header):" "$(cat "$tmp/gen.err")"
warned=$(grep -c 'warning:' "$tmp/gen.log")
[ "$warned" = 0 ] || echo "note: $warned names link to their section's guide: no docs page explains them ($REGEN lists them)"

# 2. docs/reference.md is what the generator writes now
if cmp -s "$tmp/reference.md" "$REF"; then
    pass=$((pass + 1))
else
    echo "$REF is stale (the header or a docs page changed); regenerate it with: $REGEN"
    diff "$REF" "$tmp/reference.md" | head -n 20
    fail=$((fail + 1))
fi

# 3. every DG_API function is in docs/reference.md
n=$(api_functions "$H" | wc -l)
if [ "$n" -lt 20 ]; then
    check "the preprocessor found only $n DG_API functions in $H:" "$(cat "$tmp/cpp.err")"
else
    check "DG_API functions missing from $REF (regenerate it with: $REGEN):" "$(missing "$H" "$REF")"
fi

# 4. the checks fail when they should: a copy of the header with a function
# added after the last declaration, first without a comment, then with one
awk '/^#ifdef __cplusplus/ { last = NR } { line[NR] = $0 }
     END { for (i = 1; i <= NR; i++) { if (i == last) print "DG_API int dg_reference_probe(int32_t x);"; print line[i] } }' \
    "$H" >"$tmp/bare.h"
awk '/^DG_API int dg_reference_probe/ { print "/* A function added to show that the check fails. */" } { print }' \
    "$tmp/bare.h" >"$tmp/probe.h"
generate "$tmp/bare.h" "$tmp/bare.md"
check "a function without a comment is not reported:" \
    "$(grep -q 'dg_reference_probe has no comment' "$tmp/gen.err" || echo "generator: $(cat "$tmp/gen.log")")"
generate "$tmp/probe.h" "$tmp/probe.md"
check "a commented function added to the header:" "$(cat "$tmp/gen.err")"
check "a function added to the header does not make the reference stale:" \
    "$(cmp -s "$tmp/probe.md" "$tmp/reference.md" && echo "the reference did not change")"
check "a function added to the header is not listed:" \
    "$(grep -q '\[`dg_reference_probe`\](' "$tmp/probe.md" || echo "dg_reference_probe not in the output")"
check "a DG_API function missing from the reference is not found:" \
    "$([ "$(missing "$tmp/probe.h" "$tmp/reference.md")" = dg_reference_probe ] || echo "missing: $(missing "$tmp/probe.h" "$tmp/reference.md")")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
