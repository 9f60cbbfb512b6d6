#!/bin/sh
# The bad-input table in docs/robustness.md is what the runner prints with
# DG_MATRIX_MARKDOWN=1 (tests/test_badinput.c): this fails, with the diff,
# where the page has drifted from it. Run from the repository root.
B=${1:-build}
R="$B/test-plain/runner"
[ -x "$R" ] || { echo "no $R (make $R)"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DG_MATRIX_MARKDOWN=1 "$R" badinput_matrix | grep '^|' >"$tmp/runner"
sed -n '/^| function | bad input/,/^$/p' docs/robustness.md | grep '^|' >"$tmp/page"
if [ -s "$tmp/runner" ] && cmp -s "$tmp/runner" "$tmp/page"; then
    echo "0 failed rows: docs/robustness.md's bad-input table is the runner's"
    echo "1 passed, 0 failed"
else
    echo "FAIL docs/robustness.md's bad-input table differs from the runner's (< runner, > page):"
    diff "$tmp/runner" "$tmp/page" | head -20
    echo "0 passed, 1 failed"
    exit 1
fi
