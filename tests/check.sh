#!/bin/sh
# check.sh BUILD: every test of `make check`, summed into one closing line.
# The groups run JOBS at a time (default 2); each group's output is printed
# whole, in the order below, once it is done.
B=${1:-build}
JOBS=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The groups, longest first so the pool stays busy: NAME|COMMAND
{
    echo "unit tests (gcc -O1, ASan+UBSan)|env ASAN_OPTIONS=detect_leaks=1 $B/test-asan/runner"
    echo "unit tests (clang -O1)|$B/test-clang/runner"
    echo "unit tests (gcc -O2)|$B/test-plain/runner"
    # hardening (docs/robustness.md): fuzz corpora and a short libFuzzer run per
    # target, the golden outputs built by every compiler and flag set, the thread
    # tests under ThreadSanitizer (make valgrind and make lint run on their own)
    echo "fuzz targets (replay + libFuzzer)|sh tests/hardening/fuzz-replay.sh $B"
    echo "determinism (gcc/clang, -O0/-O2/-O3, -m32)|sh tests/hardening/determinism.sh $B"
    echo "threads (ThreadSanitizer)|sh tests/hardening/tsan.sh $B"
    for t in tests/*.sh; do
        case "$t" in tests/check.sh|tests/need.sh) continue ;; esac
        echo "$(basename "$t" .sh)|sh $t $B"
    done
} | awk '{ printf "%03d|%s\n", NR, $0 }' >"$tmp/groups"

# run_group LINE: runs one group into $tmp/NNN.out and its exit code into $tmp/NNN.code
cut -d'|' -f1 "$tmp/groups" | xargs -P "$JOBS" -I{} sh -c '
    line=$(grep "^{}|" "$1/groups")
    cmd=${line#*|*|}
    sh -c "$cmd" >"$1/{}.out" 2>&1 </dev/null
    echo $? >"$1/{}.code"' sh "$tmp"

passed=0
failed=0
while IFS='|' read -r n name cmd; do
    echo "== $name"
    code=$(cat "$tmp/$n.code" 2>/dev/null || echo 1)
    grep -v '^[0-9]* passed, [0-9]* failed$' "$tmp/$n.out"
    line=$(grep '^[0-9]* passed, [0-9]* failed$' "$tmp/$n.out" | tail -n 1)
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
done <"$tmp/groups"

# What `make check` does not run, with the command that runs it.
echo "== not run here"
echo "   the ports (Windows under Wine, wasm under Node, Python/C#/Lua bindings): make check-ports"
echo "   time-boxed fuzzing: make fuzz; valgrind: make valgrind; cppcheck and clang-tidy: make lint"
echo "   benchmarks: make bench"
# and what a group skipped because a tool is missing here (each says how to run it)
cat "$tmp"/*.out | grep -i '^ *skipped' | sed 's/^ */   /'
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
