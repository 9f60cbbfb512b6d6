#!/bin/sh
# cross.sh check|tools [BUILD]: the determinism set (tests/test_golden.c and the
# rest of GOLDEN_SRC) cross-built for arm64 (little-endian), s390x (big-endian)
# and i386 (32-bit) and run under qemu-user, the three at once; every test must
# pass and the golden digest must equal the native one (docs/ports.md,
# docs/determinism.md). Everything goes under BUILD/cross.
# i386 is here because `make check`'s -m32 build runs only where the kernel can
# run 32-bit programs: under qemu the 32-bit promise is tested on every machine.
#
# The compiler is clang with --target and Debian's cross libc, libgcc and
# binutils: Debian's gcc cross compilers conflict with gcc-multilib (the -m32
# builds of `make check`), these packages do not, and a test line says that a
# working -m32 toolchain is still there afterwards.
#
# The make rule passes the source lists (LIB_SRC, GOLDEN_SRC) from the Makefile;
# run by hand, the same globs are used. Ends "N passed, N failed"; exits nonzero
# on a failure. `tools` only installs what `check` needs.
mode=${1:-check}
B=${2:-build}
X=$B/cross
CLANG=${CLANG:-clang}
LIB_SRC=${LIB_SRC:-$(ls lib/*/*.c)}
GOLDEN_SRC=${GOLDEN_SRC:-tests/runner.c tests/test_golden.c tests/test_graph_layout.c tests/test_roles.c
  tests/test_populate.c tests/hard.c tests/helpers.c $(ls tests/hard_*.c)}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
      -Wpointer-arith -Wvla -Wformat=2 -Wundef"
# NAME TRIPLE QEMU ORDER BITS: Debian's architecture name, the target triple,
# qemu's name, and the byte order and word size the binary must have. Each
# runs the whole set, as the -m32 build of `make check` does where the kernel
# can (about 4.5 minutes each under qemu).
TARGETS="arm64 aarch64-linux-gnu aarch64 little 64
s390x s390x-linux-gnu s390x big 64
i386 i686-linux-gnu i386 little 32"
passed=0
failed=0

pass() { echo "   ok: $1"; passed=$((passed + 1)); }
fail() { echo "   FAILED: $1"; failed=$((failed + 1)); }
# result NAME COMMAND...: one test line from a command's exit status.
result() {
    name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# A 32-bit program with libc's headers links (the Makefile's M32_OK probe).
m32_works() {
    printf '#include <errno.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(void){printf("%%d\\n", errno);return EXIT_SUCCESS;}\n' |
        ${CC:-gcc} -m32 -x c - -o /dev/null 2>/dev/null
}

# ---- tools: install what is missing when root, else say how ------------------
# libgcc's cross package carries the gcc version clang finds in
# /usr/lib/gcc-cross; it follows the native gcc's.
gcc_major() {
    gcc -dumpversion 2>/dev/null | cut -d. -f1
}

qemu_for() {
    command -v "qemu-$1" 2>/dev/null || command -v "qemu-$1-static" 2>/dev/null
}

need_tools() {
    command -v "$CLANG" >/dev/null || sh tests/need.sh clang clang || exit 1
    v=$(gcc_major)
    [ -n "$v" ] || v=12
    echo "$TARGETS" | while read -r arch triple qemu _; do
        command -v "$triple-ld" >/dev/null ||
            sh tests/need.sh "binutils-$triple" "the $arch linker" || exit 1
        [ -f "/usr/$triple/lib/libc.a" ] ||
            sh tests/need.sh "libc6-dev-$arch-cross" "the $arch C library" || exit 1
        ls -d /usr/lib/gcc-cross/"$triple"/* >/dev/null 2>&1 ||
            sh tests/need.sh "libgcc-$v-dev-$arch-cross" "the $arch libgcc" || exit 1
        qemu_for "$qemu" >/dev/null || sh tests/need.sh qemu-user "qemu-user" || exit 1
    done || exit 1
}

# ---- build and run --------------------------------------------------------------
# Static, so qemu needs no sysroot for the loader and libraries.
build_golden() {
    # shellcheck disable=SC2086
    $CLANG --target="$2" -std=c11 $WARN -O2 -Iinclude -Ilib -Itests $LIB_SRC $GOLDEN_SRC \
        -static -o "$X/$1/golden" -lm -lpthread >"$X/$1/build.log" 2>&1
}

# The byte order an ELF file says it is for: little or big.
elf_order() {
    case $(od -An -j5 -N1 -tu1 "$1" | tr -d ' ') in 1) echo little ;; 2) echo big ;; esac
}

# The word size an ELF file says it is for: 32 or 64.
elf_bits() {
    case $(od -An -j4 -N1 -tu1 "$1" | tr -d ' ') in 1) echo 32 ;; 2) echo 64 ;; esac
}

golden_digest() {
    sed -n 's/^golden digest: //p' "$1"
}

native_golden() {
    make --no-print-directory B="$B" "$B/det/gcc-O2/golden" >&2
}

check() {
    m32_before=no
    m32_works && m32_before=yes
    need_tools
    mkdir -p "$X" || exit 1
    echo "cross: the determinism set for arm64, s390x and i386 under qemu-user, in $X"
    if [ "$m32_before" = yes ]; then
        result "gcc -m32 still links a libc program after the cross packages" m32_works
    fi
    native_golden || { fail "native golden test builds"; finish; }
    DG_GOLDEN_DIGEST=1 "$B/det/gcc-O2/golden" golden >"$X/native.out" 2>&1
    want=$(golden_digest "$X/native.out")
    result "native golden test passes (digest ${want:-missing})" \
        sh -c "[ -n '$want' ] && grep -q '^[0-9]* passed, 0 failed$' '$X/native.out'"
    # The targets build at once, then run one after the other;
    # the loops read a file, not a pipe, so that they run in this shell and
    # `wait` waits for the builds.
    printf '%s\n' "$TARGETS" >"$X/targets.txt"
    while read -r arch triple qemu _; do
        mkdir -p "$X/$arch"
        rm -f "$X/$arch/golden" "$X/$arch/golden.out" "$X/$arch/golden.rc"
        build_golden "$arch" "$triple" &
    done <"$X/targets.txt"
    wait
    # One qemu per target at once (each is one thread): its output and exit
    # status go to files, read once all have ended.
    while read -r arch triple qemu _; do
        [ -x "$X/$arch/golden" ] || continue
        (
            DG_GOLDEN_DIGEST=1 "$(qemu_for "$qemu")" "$X/$arch/golden" >"$X/$arch/golden.out" 2>&1 </dev/null
            echo $? >"$X/$arch/golden.rc"
        ) &
    done <"$X/targets.txt"
    wait
    while read -r arch triple qemu order bits; do
        if [ ! -x "$X/$arch/golden" ]; then
            tail -n 20 "$X/$arch/build.log"
            fail "$arch: golden test builds with $CLANG --target=$triple"
            continue
        fi
        warnings=$(grep -c 'warning:' "$X/$arch/build.log")
        result "$arch: golden test builds with $CLANG --target=$triple, $warnings warnings" \
            test "$warnings" = 0
        result "$arch: the binary is $order-endian" test "$(elf_order "$X/$arch/golden")" = "$order"
        result "$arch: the binary is $bits-bit" test "$(elf_bits "$X/$arch/golden")" = "$bits"
        code=$(cat "$X/$arch/golden.rc" 2>/dev/null)
        grep -E '^(FAIL|  )' "$X/$arch/golden.out" | head -n 20
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$X/$arch/golden.out")
        result "$arch: golden test under qemu-$qemu: ${line:-no summary line}" \
            test "$code" = 0 -a -n "$line"
        got=$(golden_digest "$X/$arch/golden.out")
        result "$arch: golden digest ${got:-missing} = native ${want:-missing}" \
            test -n "$want" -a "$got" = "$want"
    done <"$X/targets.txt"
    finish
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
}

case $mode in
check) check ;;
tools) need_tools ;;
*) echo "usage: sh tests/ports/cross.sh check|tools [BUILD]" >&2; exit 2 ;;
esac
