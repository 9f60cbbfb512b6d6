#!/bin/sh
# fuzz-replay.sh BUILD: the fuzz part of `make check`. Every target's seed
# corpus and REPLAY_RANDOM pseudo-random inputs go through the replay build
# (gcc, ASan+UBSan, no libFuzzer); then, where the libFuzzer build exists, the
# target runs its seed corpus plus FUZZ_CHECK_MUTATIONS libFuzzer inputs from a
# fixed -seed: a count, not a time, so every machine runs exactly the same
# inputs and a slow one cannot find what a fast one missed (libFuzzer's -runs
# counts the corpus too). Time-boxed fuzzing is `make fuzz`.
# Ends "N passed, N failed".
B=${1:-build}
RANDOM_INPUTS=${REPLAY_RANDOM:-300}
MUTATIONS=${FUZZ_CHECK_MUTATIONS:-500}
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
    runs=$(($(ls "$seeds" | wc -l) + MUTATIONS))
    # -timeout only names a hang (a stuck input): no correct input comes near it
    if "$fuzzer" -seed=1 -runs="$runs" -timeout=600 -rss_limit_mb=2048 \
        -artifact_prefix="$B/fuzz/artifacts/$name-" "$work" "$seeds" >"$log" 2>&1; then
        last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
        echo "   $name: libFuzzer, corpus + $MUTATIONS inputs (-seed=1): $last"
        passed=$((passed + 1))
    else
        grep -E 'ERROR|fuzz_|SUMMARY|Test unit written' "$log" | head -n 8 >&2
        echo "   $name: libFuzzer FAILED (see $log)"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
