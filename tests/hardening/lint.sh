#!/bin/sh
# lint.sh: cppcheck and clang-tidy on lib/, warnings are errors. The chosen
# checks and why the few exclusions are there: docs/robustness.md.
# Ends "N passed, N failed" (one for cppcheck, one per file for clang-tidy).
CHECKS='-*,bugprone-*,cert-*,clang-analyzer-*,misc-*,performance-*,portability-*'
CHECKS="$CHECKS,-bugprone-easily-swappable-parameters"
CHECKS="$CHECKS,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling"
CHECKS="$CHECKS,-clang-analyzer-valist.Uninitialized"
CHECKS="$CHECKS,-bugprone-implicit-widening-of-multiplication-result"
CHECKS="$CHECKS,-bugprone-narrowing-conversions,-cert-err33-c"
JOBS=${LINT_JOBS:-2}
passed=0
failed=0
if cppcheck --enable=warning,performance,portability --std=c11 --inline-suppr \
    --error-exitcode=1 --quiet -Iinclude -Ilib -D__GNUC__ lib/*/*.c; then
    echo "   cppcheck: clean"
    passed=$((passed + 1))
else
    echo "   cppcheck: FAILED"
    failed=$((failed + 1))
fi
out=$(mktemp -d)
ls lib/*/*.c | xargs -P "$JOBS" -I{} sh -c \
    'clang-tidy --quiet --warnings-as-errors="*" -checks="$1" "$2" -- -std=c11 -Iinclude -Ilib \
       >"$3/$(basename "$2").log" 2>&1 || echo fail >"$3/$(basename "$2").failed"' \
    sh "$CHECKS" {} "$out"
for f in lib/*/*.c; do
    n=$(basename "$f")
    if [ -e "$out/$n.failed" ]; then
        grep -E 'warning:|error:' "$out/$n.log" | head -n 10
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
rm -rf "$out"
echo "   clang-tidy: $(ls lib/*/*.c | wc -l) files"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
