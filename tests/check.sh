#!/bin/sh
# check.sh BUILD: every test of `make check`, summed into one closing line.
B=${1:-build}
passed=0
failed=0

# run NAME CMD...: a runner that prints "N passed, N failed"
run() {
    name=$1
    shift
    echo "== $name"
    out=$("$@" 2>&1)
    code=$?
    printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
    line=$(printf '%s\n' "$out" | grep '^[0-9]* passed, [0-9]* failed$' | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}
        f=${line#*, }
        f=${f%% failed*}
        echo "   $line"
        passed=$((passed + p))
        failed=$((failed + f))
        [ "$code" = 0 ] || [ "$f" != 0 ] || failed=$((failed + 1))
    else
        echo "   FAIL: $name printed no result line (exit $code)"
        failed=$((failed + 1))
    fi
}

run "unit tests (gcc -O2)" "$B/test-plain/runner"
run "unit tests (gcc -O1, ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1 "$B/test-asan/runner"
run "unit tests (clang -O0)" "$B/test-clang/runner"
# hardening (docs/robustness.md): fuzz corpora and a short libFuzzer run per
# target, the golden outputs built by every compiler and flag set, the thread
# tests under ThreadSanitizer (make valgrind and make lint run on their own)
run "fuzz targets (replay + libFuzzer)" sh tests/hardening/fuzz-replay.sh "$B"
run "determinism (gcc/clang, -O0/-O2/-O3, -m32)" sh tests/hardening/determinism.sh "$B"
run "threads (ThreadSanitizer)" sh tests/hardening/tsan.sh "$B"
for t in tests/*.sh; do
    case "$t" in tests/check.sh|tests/need.sh) continue ;; esac
    run "$(basename "$t" .sh)" sh "$t" "$B"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
