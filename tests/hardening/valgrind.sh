#!/bin/sh
# valgrind.sh BUILD: the whole gcc -O2 test runner under valgrind memcheck;
# any error or leak (of any kind) fails. FILTER (optional) narrows the tests.
B=${1:-build}
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=all --track-origins=yes "$B/test-plain/runner" ${FILTER:-}
