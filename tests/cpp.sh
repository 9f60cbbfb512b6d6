#!/bin/sh
# The C++ consumer (examples/cpp_consumer.cpp): compiles as C++11 with every
# warning as an error against dungeon.h, links the static library, and runs.
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! ${CXX:-c++} -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude examples/cpp_consumer.cpp \
    "$B/libdungeon.a" -lm -o "$tmp/cpp_consumer" 2>"$tmp/err"; then
    cat "$tmp/err"
    echo "0 passed, 1 failed"
    exit 1
fi
"$tmp/cpp_consumer"
