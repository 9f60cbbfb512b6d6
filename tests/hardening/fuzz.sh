#!/bin/sh
# fuzz.sh BUILD SECONDS NAME...: runs each libFuzzer target for SECONDS on its
# seed corpus (tests/fuzz/corpus/NAME, read only) plus a work corpus kept in
# BUILD/fuzz/work/NAME, then prints executions, coverage and corpus size.
# Crashes are written to BUILD/fuzz/artifacts/. Ends "N passed, N failed".
B=$1
SECONDS_EACH=$2
shift 2
passed=0
failed=0
mkdir -p "$B/fuzz/artifacts"
printf '%-10s %10s %9s %7s %7s %7s  %s\n' target execs exec/s cov ft corpus result
for name in "$@"; do
    work="$B/fuzz/work/$name"
    seeds="tests/fuzz/corpus/$name"
    mkdir -p "$work" "$seeds"
    log="$B/fuzz/$name.log"
    "$B/fuzz/fuzz_$name" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/fuzz/artifacts/$name-" \
        "$work" "$seeds" >"$log" 2>&1
    code=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
    if [ "$code" = 0 ]; then
        result=ok
        passed=$((passed + 1))
    else
        result="FAILED (exit $code, see $log)"
        failed=$((failed + 1))
        grep -E 'ERROR|fuzz_|SUMMARY|Test unit written' "$log" | head -n 8 >&2
    fi
    printf '%-10s %10s %9s %7s %7s %7s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
        "${ft:-?}" "${corp:-?}" "$result"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
