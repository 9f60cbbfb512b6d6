#!/bin/sh
# need.sh PACKAGE WHAT: install a missing Debian package when root, else say how.
pkg=$1
what=$2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "libdungeon: $what is missing; installing Debian package $pkg" >&2
    # another install (a parallel test group) may hold the lock: wait for it
    apt="apt-get -o DPkg::Lock::Timeout=600 -y -q"
    ($apt install "$pkg" || { $apt update && $apt install "$pkg"; }) >&2 || {
        echo "libdungeon: could not install $pkg" >&2
        exit 1
    }
else
    echo "libdungeon: $what is missing. Install it with: sudo apt-get install $pkg" >&2
    exit 1
fi
