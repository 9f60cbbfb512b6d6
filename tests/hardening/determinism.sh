#!/bin/sh
# determinism.sh BUILD: runs the golden tests as built by every compiler and
# flag set in BUILD/det/ (make det-builds): each build checks the pinned
# hashes itself, and all builds must print the same digest of every output
# they hash. Ends "N passed, N failed".
B=${1:-build}
passed=0
failed=0
first=
for bin in "$B"/det/*/golden; do
    [ -x "$bin" ] || continue
    build=${bin%/golden}
    build=${build##*/}
    out=$(DG_GOLDEN_DIGEST=1 "$bin" 2>&1)
    code=$?
    digest=$(printf '%s\n' "$out" | sed -n 's/^golden digest: //p')
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ "$code" != 0 ] || [ -z "$digest" ]; then
        printf '%s\n' "$out" | grep -v '^golden digest' | tail -n 20 >&2
        echo "   $build: FAILED ($line)"
        failed=$((failed + 1))
        continue
    fi
    [ -n "$first" ] || first=$digest
    if [ "$digest" = "$first" ]; then
        echo "   $build: $line, digest $digest"
        passed=$((passed + 1))
    else
        echo "   $build: digest $digest differs from $first"
        failed=$((failed + 1))
    fi
done
ls -d "$B"/det/*m32* >/dev/null 2>&1 || echo "   skipped: the -m32 builds (no 32-bit toolchain, which make check installs as root, or a kernel that cannot run 32-bit programs; make check-cross runs the golden test for i386 under qemu)"
[ -n "$first" ] || { echo "   no determinism builds in $B/det (run make det-builds)"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
