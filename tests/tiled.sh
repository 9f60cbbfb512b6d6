#!/bin/sh
# Tiled exports of every generator, written by the dungeon tool and checked
# field by field against what Tiled's readers require (tests/python/tiled_check.py);
# where Tiled's own tmxrasterizer is installed, it must open and draw each map.
B=${1:-build}
command -v python3 >/dev/null || { echo "python3 is missing"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/python/tiled_check.py "$B" "$tmp"
