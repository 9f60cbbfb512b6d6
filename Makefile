# libdungeon: one entry point. Targets: all check demo bench install uninstall clean
# (ports: windows check-windows wasm check-wasm check-bindings check-ports)
# (plus deps and the hardening targets fuzz tsan valgrind lint determinism).
# All output goes under build/.

VERSION_MAJOR := $(shell sed -n 's/^\#define DG_VERSION_MAJOR \([0-9]*\)/\1/p' include/dungeon.h)
VERSION_MINOR := $(shell sed -n 's/^\#define DG_VERSION_MINOR \([0-9]*\)/\1/p' include/dungeon.h)
VERSION_PATCH := $(shell sed -n 's/^\#define DG_VERSION_PATCH \([0-9]*\)/\1/p' include/dungeon.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
INSTALL ?= install

CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif
CLANG ?= clang
OPT ?= -O2
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wvla -Wformat=2 -Wundef
CFLAGS ?= $(OPT) -g
ALL_CFLAGS := -std=c11 $(WARN) $(CFLAGS) -Iinclude -Ilib
LIB_CFLAGS := $(ALL_CFLAGS) -fPIC -fvisibility=hidden
STB_CFLAGS = $(shell pkg-config --cflags stb 2>/dev/null)
STB_LIBS = $(shell pkg-config --libs stb 2>/dev/null)

B := build
LIB_SRC := $(sort $(wildcard lib/*/*.c))
LIB_HDR := include/dungeon.h $(wildcard lib/*/*.h)
LIB_OBJ := $(LIB_SRC:lib/%.c=$(B)/obj/%.o)
EXAMPLES := $(sort $(wildcard examples/*.c))
EXAMPLE_BIN := $(EXAMPLES:examples/%.c=$(B)/bin/%)
TEST_SRC := $(sort $(wildcard tests/*.c))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))

STATIC := $(B)/libdungeon.a
SHARED_REAL := $(B)/libdungeon.so.$(VERSION)
# The ABI promise (docs/abi.md): while the major version is 0 every minor
# release has its own soname, libdungeon.so.0.MINOR; from 1.0 on it is
# libdungeon.so.MAJOR and releases only add.
ABI_VERSION := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))
SHARED_SONAME := libdungeon.so.$(ABI_VERSION)
PC := $(B)/libdungeon.pc

.PHONY: all lib check demo bench install uninstall clean deps deps-check deps-bench
# Objects made on the way to a binary (the replay builds' fuzz targets) are kept,
# not deleted after every build.
.SECONDARY:
all: lib $(EXAMPLE_BIN)
lib: $(STATIC) $(SHARED_REAL) $(PC)

# ---- library ------------------------------------------------------------
$(B)/obj/%.o: lib/%.c $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -DDG_SHARED_BUILD -c $< -o $@

$(STATIC): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(SHARED_REAL): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SHARED_SONAME) -Wl,-z,noexecstack -o $@ $^
	ln -sf libdungeon.so.$(VERSION) $(B)/$(SHARED_SONAME)
	ln -sf $(SHARED_SONAME) $(B)/libdungeon.so

$(PC): pkgconfig/libdungeon.pc.in include/dungeon.h | $(B)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

$(B) $(B)/obj $(B)/bin $(B)/demo:
	mkdir -p $@

# ---- examples (link the static library; PNG through Debian's libstb) -----
$(B)/bin/%: examples/%.c $(STATIC) include/dungeon.h $(wildcard examples/*.h) | $(B)/bin deps-stb
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Iinclude $(STB_CFLAGS) $< -o $@ $(STATIC) $(STB_LIBS) -lm

# ---- dependencies: install what is missing when root, else say how --------
deps: deps-stb
	@command -v $(CLANG) >/dev/null || sh tests/need.sh clang clang
# The script tests of `make check`: the C++ consumer and the Python binding and Tiled checks.
deps-check: deps
	@command -v $${CXX:-c++} >/dev/null || sh tests/need.sh g++ "a C++ compiler"
	@command -v python3 >/dev/null || sh tests/need.sh python3 python3
.PHONY: deps-stb
deps-stb:
	@command -v pkg-config >/dev/null || sh tests/need.sh pkg-config pkg-config
	@pkg-config --exists stb || sh tests/need.sh libstb-dev stb

# ---- tests ----------------------------------------------------------------
# Three builds of the runner: gcc -O2, gcc with ASan+UBSan, clang -O1. All check
# the same golden hashes, so they prove identical output across compilers and
# optimisation levels.
define RUNNER
$(B)/test-$(1)/obj/%.o: %.c $(LIB_HDR) $(wildcard tests/*.h tests/fuzz/*.h examples/*.h)
	@mkdir -p $$(@D)
	$(2) -std=c11 $(WARN) $(3) -Iinclude -Ilib -Itests -c $$< -o $$@
$(B)/test-$(1)/runner: $(patsubst %.c,$(B)/test-$(1)/obj/%.o,$(LIB_SRC) $(if $(4),$(4),$(TEST_SRC)))
	$(2) $(3) $$^ -o $$@ -lm -lpthread
endef
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(eval $(call RUNNER,asan,$(CC),-O1 -g $(SAN)))
$(eval $(call RUNNER,clang,$(CLANG),-O1 -g))
# The gcc -O2 runner links the library's own objects (-fPIC and hidden
# visibility change no output), so the library is not compiled twice.
$(B)/test-plain/obj/%.o: %.c $(LIB_HDR) $(wildcard tests/*.h tests/fuzz/*.h examples/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Iinclude -Ilib -Itests -c $< -o $@
$(B)/test-plain/runner: $(LIB_OBJ) $(patsubst %.c,$(B)/test-plain/obj/%.o,$(TEST_SRC))
	$(CC) $(CFLAGS) $^ -o $@ -lm -lpthread

# Everything is built first, in parallel (JOBS, default: every core), from
# per-file objects; then tests/check.sh runs the test groups JOBS at a time.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: deps-check deps-hard
	@$(MAKE) -j$(JOBS) --no-print-directory check-builds
	@JOBS=$(JOBS) sh tests/check.sh $(B)

# ---- hardening: fuzzing, ThreadSanitizer, valgrind, lint, cross-build determinism
# (docs/robustness.md). A fuzz target is tests/fuzz/fuzz_NAME.c with its seed
# corpus in tests/fuzz/corpus/NAME/; it is built twice: with libFuzzer (clang)
# for `make fuzz`, and with a plain main that replays files (gcc, ASan+UBSan)
# for `make check`.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_SECONDS ?= 60
HARD_SRC := tests/hard.c tests/helpers.c $(sort $(wildcard tests/hard_*.c))
HARD_HDR := $(LIB_HDR) $(wildcard tests/*.h tests/fuzz/*.h)
HARD_CFLAGS := -std=c11 $(WARN) -O1 -g -Iinclude -Ilib -Itests
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(B)/fuzz/obj/%.o: %.c $(HARD_HDR) | deps-fuzz
	@mkdir -p $(@D)
	$(CLANG) $(HARD_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@
$(B)/fuzz/fuzz_%: $(B)/fuzz/obj/tests/fuzz/fuzz_%.o $(LIB_SRC:%.c=$(B)/fuzz/obj/%.o) $(HARD_SRC:%.c=$(B)/fuzz/obj/%.o)
	$(CLANG) $(FUZZ_SAN) -fsanitize=fuzzer $^ -o $@ -lm -lpthread
# (the replay builds share the ASan runner's objects: the same compiler and flags)
$(B)/replay/fuzz_%: $(B)/test-asan/obj/tests/fuzz/fuzz_%.o $(B)/test-asan/obj/tests/fuzz/replay.o $(LIB_SRC:%.c=$(B)/test-asan/obj/%.o) $(HARD_SRC:%.c=$(B)/test-asan/obj/%.o)
	@mkdir -p $(@D)
	$(CC) -O1 -g $(SAN) $^ -o $@ -lm -lpthread
FUZZ_BIN := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)
REPLAY_BIN := $(FUZZ_NAMES:%=$(B)/replay/fuzz_%)
.PHONY: fuzz fuzz-merge tsan valgrind lint determinism det-builds deps-hard deps-fuzz deps-m32
fuzz: $(FUZZ_BIN)
	@sh tests/hardening/fuzz.sh $(B) $(FUZZ_SECONDS) $(FUZZ_NAMES)
# Minimises what `make fuzz` found into the seed corpora (review before committing).
fuzz-merge: $(FUZZ_BIN)
	@for n in $(FUZZ_NAMES); do mkdir -p tests/fuzz/corpus/$$n $(B)/fuzz/work/$$n; \
	  $(B)/fuzz/fuzz_$$n -merge=1 tests/fuzz/corpus/$$n $(B)/fuzz/work/$$n; done

# ThreadSanitizer: the runner's thread tests (tests/test_threads.c).
$(eval $(call RUNNER,tsan,$(CLANG),-O1 -g -fsanitize=thread,tests/runner.c tests/test_threads.c $(HARD_SRC)))
tsan: $(B)/test-tsan/runner
	@sh tests/hardening/tsan.sh $(B)

# valgrind memcheck over the whole test runner: zero errors, zero leaks.
valgrind: $(B)/test-plain/runner
	@command -v valgrind >/dev/null || sh tests/need.sh valgrind valgrind
	@sh tests/hardening/valgrind.sh $(B)

# cppcheck and clang-tidy on lib/ (checks chosen in docs/robustness.md).
lint:
	@command -v cppcheck >/dev/null || sh tests/need.sh cppcheck cppcheck
	@command -v clang-tidy >/dev/null || sh tests/need.sh clang-tidy clang-tidy
	@sh tests/hardening/lint.sh

# The golden tests (tests/test_golden.c, and the pins of level-graph layouts,
# roles and population) built by gcc and clang at -O0, -O2, -O3, and -m32
# where a 32-bit toolchain is installed: every build must pin the same outputs. gcc -O2 and clang -O1 are the test runners above (which run the
# same golden test), so they are not built again. A build name is COMPILER-FLAG-FLAG...
GOLDEN_SRC := tests/runner.c tests/test_golden.c tests/test_graph_layout.c tests/test_roles.c tests/test_populate.c $(HARD_SRC)
# -m32 links when a program using libc's headers (asm/errno.h comes with gcc-multilib)
# links, and is tested only where that program also runs: a kernel without 32-bit
# support ("Exec format error") skips the -m32 builds with a warning.
M32_PROBE = printf '\043include <errno.h>\n\043include <stdio.h>\n\043include <stdlib.h>\nint main(void){printf("%%d\\n", errno);return EXIT_SUCCESS;}\n' | $(CC) -m32 -x c - -o
M32_LINKS = $(shell $(M32_PROBE) /dev/null 2>/dev/null && echo yes)
M32_OK = $(shell t=$$(mktemp) && $(M32_PROBE) "$$t" 2>/dev/null && "$$t" >/dev/null 2>&1 && echo yes; rm -f "$$t")
DET_BUILDS = gcc-O0 gcc-O3 clang-O0 clang-O3 $(if $(M32_OK),gcc-m32-O2)
det_cc = $(if $(filter clang,$(word 1,$(subst -, ,$(1)))),$(CLANG),$(CC))
det_flags = $(patsubst %,-%,$(wordlist 2,9,$(subst -, ,$(1))))
define DET_BUILD
$(B)/det/$(1)/obj/%.o: %.c $(HARD_HDR)
	@mkdir -p $$(@D)
	$(call det_cc,$(1)) -std=c11 $(WARN) $(call det_flags,$(1)) -Iinclude -Ilib -Itests -c $$< -o $$@
$(B)/det/$(1)/golden: $(patsubst %.c,$(B)/det/$(1)/obj/%.o,$(LIB_SRC) $(GOLDEN_SRC))
	$(call det_cc,$(1)) $(call det_flags,$(1)) $$^ -o $$@ -lm -lpthread
endef
$(foreach d,gcc-O0 gcc-O1 gcc-O2 gcc-O3 clang-O0 clang-O1 clang-O2 clang-O3 gcc-m32-O2 clang-m32-O3,$(eval $(call DET_BUILD,$(d))))
det-builds: deps-m32
	@$(MAKE) -j$(JOBS) --no-print-directory $(foreach d,$(DET_BUILDS),$(B)/det/$(d)/golden)
determinism: deps-m32 det-builds
	@sh tests/hardening/determinism.sh $(B)

# Everything `make check` runs (built in parallel by `make check` itself).
.PHONY: check-builds
check-builds: all $(B)/test-plain/runner $(B)/test-asan/runner $(B)/test-clang/runner \
  $(REPLAY_BIN) $(FUZZ_BIN) $(B)/test-tsan/runner $(foreach d,$(DET_BUILDS),$(B)/det/$(d)/golden)

# Only what `make check` runs: valgrind, cppcheck and clang-tidy belong to
# `make valgrind` and `make lint`, which install them themselves.
deps-hard: deps-fuzz deps-m32
CLANG_MAJOR = $(shell $(CLANG) -dumpversion 2>/dev/null | cut -d. -f1)
deps-fuzz:
	@command -v $(CLANG) >/dev/null || sh tests/need.sh clang clang
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' | \
	  $(CLANG) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null || \
	  sh tests/need.sh libclang-rt-$(CLANG_MAJOR)-dev "clang's libFuzzer runtime"
deps-m32:
	@test -n "$(M32_LINKS)" || sh tests/need.sh gcc-multilib "a 32-bit toolchain (-m32)" || \
	  echo "libdungeon: -m32 determinism builds skipped" >&2
	@test -z "$(M32_LINKS)" || test -n "$(M32_OK)" || \
	  echo "libdungeon: -m32 determinism builds skipped: this machine cannot run 32-bit programs" >&2

# ---- ports (README "Ports"): Windows under Wine, WebAssembly under Node, the
# language bindings. Each script installs what it needs itself.
.PHONY: windows check-windows wasm check-wasm check-bindings check-ports
windows:
	@sh tests/ports/windows.sh build $(B)
check-windows:
	@sh tests/ports/windows.sh check $(B)
wasm:
	@sh tests/ports/wasm.sh build $(B)
check-wasm:
	@sh tests/ports/wasm.sh check $(B)
check-bindings: all
	@sh tests/ports/bindings.sh $(B)
check-ports: check-windows check-wasm check-bindings

# ---- the same-bytes series (tests/series.sh, run by `make check`) -----------
$(B)/series/series: tests/series/series.c $(STATIC) include/dungeon.h
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Iinclude $< -o $@ $(STATIC) -lm
check-builds: $(B)/series/series

# ---- demo -------------------------------------------------------------------
demo: all | $(B)/demo
	@sh examples/demo.sh $(B)

# ---- benchmarks -------------------------------------------------------------
# libtcod (Debian's libtcod-dev) is a peer the bench compares against, never a
# dependency of the library; without it the comparison rows are skipped.
TCOD_FLAGS = $(shell pkg-config --cflags --libs libtcod 2>/dev/null | sed 's/^./-DDG_BENCH_TCOD &/')
$(B)/bench/bench: $(LIB_SRC) $(BENCH_SRC) $(LIB_HDR) $(wildcard tests/bench/*.h)
	mkdir -p $(B)/bench
	$(CC) -std=c11 $(WARN) -O2 -g -DNDEBUG -Iinclude -Ilib -Itests/bench $(LIB_SRC) $(BENCH_SRC) -o $@ -lm -lpthread $(TCOD_FLAGS)
bench: deps-bench
	@$(MAKE) --no-print-directory $(B)/bench/bench
	$(B)/bench/bench
deps-bench:
	@pkg-config --exists libtcod 2>/dev/null || sh tests/need.sh libtcod-dev "libtcod (the bench's peer)" || true

# ---- install ------------------------------------------------------------------
# Installed by root straight into a directory the dynamic loader searches (no
# DESTDIR), the library is registered with ldconfig at once, so programs find
# its soname without a manual step; staged (DESTDIR) and unprivileged installs,
# and a LIBDIR off the loader's path, leave it alone. LDCONFIG= skips it.
LDCONFIG ?= ldconfig
ldconfig_dirs = $(realpath $(shell $(LDCONFIG) -v -N -X 2>/dev/null | sed -n 's|^\(/[^:]*\):.*|\1|p'))
run_ldconfig = $(if $(DESTDIR)$(filter-out 0,$(shell id -u)),,$(if $(LDCONFIG),$(if \
	$(filter $(or $(realpath $(LIBDIR)),$(abspath $(LIBDIR))),$(ldconfig_dirs)),$(LDCONFIG))))
install: all
	$(INSTALL) -d -m 755 $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 644 include/dungeon.h $(DESTDIR)$(INCLUDEDIR)/dungeon.h
	$(INSTALL) -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libdungeon.a
	$(INSTALL) -m 755 $(SHARED_REAL) $(DESTDIR)$(LIBDIR)/libdungeon.so.$(VERSION)
	ln -sf libdungeon.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME)
	ln -sf $(SHARED_SONAME) $(DESTDIR)$(LIBDIR)/libdungeon.so
	$(MAKE) -s -B $(PC) PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)
	$(INSTALL) -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/libdungeon.pc
	$(INSTALL) -m 755 $(B)/bin/dungeon $(DESTDIR)$(BINDIR)/dungeon
	$(INSTALL) -d -m 755 $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 docs/dungeon.1 $(DESTDIR)$(MANDIR)/man1/dungeon.1
	$(run_ldconfig)

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/dungeon.h $(DESTDIR)$(LIBDIR)/libdungeon.a \
	      $(DESTDIR)$(LIBDIR)/libdungeon.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME) \
	      $(DESTDIR)$(LIBDIR)/libdungeon.so $(DESTDIR)$(PKGCONFIGDIR)/libdungeon.pc \
	      $(DESTDIR)$(BINDIR)/dungeon $(DESTDIR)$(MANDIR)/man1/dungeon.1
	$(run_ldconfig)

clean:
	rm -rf $(B)

# ---- more targets, one file per concern (mk/*.mk) ------------------------------
include $(sort $(wildcard mk/*.mk))
