#!/bin/sh
# tsan.sh BUILD: the thread tests (tests/test_threads.c) under ThreadSanitizer.
B=${1:-build}
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    exec "$B/test-tsan/runner" threads_
