#!/bin/sh
# need.sh PACKAGE WHAT: install a missing Debian package when root, else say how.
pkg=$1
what=$2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "libdungeon: $what is missing; installing Debian package $pkg" >&2
    (apt-get install -y -q "$pkg" || { apt-get update -q && apt-get install -y -q "$pkg"; }) >&2 || {
        echo "libdungeon: could not install $pkg" >&2
        exit 1
    }
else
    echo "libdungeon: $what is missing. Install it with: sudo apt-get install $pkg" >&2
    exit 1
fi
