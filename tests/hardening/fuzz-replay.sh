#!/bin/sh
# fuzz-replay.sh BUILD: the fuzz part of `make check`. Every target's seed
# corpus and REPLAY_RANDOM pseudo-random inputs go through the replay build
# (gcc, ASan+UBSan, no libFuzzer); then, where the libFuzzer build exists, the
# target fuzzes for FUZZ_CHECK_SECONDS. Ends "N passed, N failed".
B=${1:-build}
RANDOM_INPUTS=${REPLAY_RANDOM:-300}
SECS=${FUZZ_CHECK_SECONDS:-2}
passed=0
failed=0
for bin in "$B"/replay/fuzz_*; do
    [ -x "$bin" ] || continue
    name=${bin##*/fuzz_}
    seeds="tests/fuzz/corpus/$name"
    mkdir -p "$seeds"
    if out=$("$bin" "$seeds" -random="$RANDOM_INPUTS" 2>&1); then
        echo "   $name: $(printf '%s\n' "$out" | grep replayed)"
        passed=$((passed + 1))
    else
        printf '%s\n' "$out" | tail -n 20 >&2
        echo "   $name: replay FAILED"
        failed=$((failed + 1))
    fi
    fuzzer="$B/fuzz/fuzz_$name"
    [ -x "$fuzzer" ] || continue
    work="$B/fuzz/check/$name"
    rm -rf "$work"
    mkdir -p "$work" "$B/fuzz/artifacts"
    log="$B/fuzz/check-$name.log"
    if "$fuzzer" -seed=1 -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$B/fuzz/artifacts/$name-" "$work" "$seeds" >"$log" 2>&1; then
        last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
        echo "   $name: libFuzzer ${SECS}s: $last"
        passed=$((passed + 1))
    else
        grep -E 'ERROR|fuzz_|SUMMARY|Test unit written' "$log" | head -n 8 >&2
        echo "   $name: libFuzzer FAILED (see $log)"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
