# ---- cross: the golden test for arm64, s390x (big-endian) and i386, built by clang
# with --target and Debian's cross libc, libgcc and binutils (which, unlike its
# gcc cross compilers, leave gcc-multilib installed) and run under qemu-user:
# every pin holds and the digest equals the native one (docs/ports.md). The
# script installs what it needs itself.
.PHONY: check-cross
check-cross:
	@CLANG="$(CLANG)" LIB_SRC="$(LIB_SRC)" GOLDEN_SRC="$(GOLDEN_SRC)" sh tests/ports/cross.sh check $(B)
check-ports: check-cross
