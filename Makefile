# libdungeon: one entry point. Targets: all check demo bench install uninstall clean
# (plus fuzz, deps). All output goes under build/.

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
LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_HDR := include/dungeon.h $(wildcard lib/*.h)
LIB_OBJ := $(LIB_SRC:lib/%.c=$(B)/obj/%.o)
EXAMPLES := $(sort $(wildcard examples/*.c))
EXAMPLE_BIN := $(EXAMPLES:examples/%.c=$(B)/bin/%)
TEST_SRC := $(sort $(wildcard tests/*.c))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))

STATIC := $(B)/libdungeon.a
SHARED_REAL := $(B)/libdungeon.so.$(VERSION)
SHARED_SONAME := libdungeon.so.$(VERSION_MAJOR)
PC := $(B)/libdungeon.pc

.PHONY: all lib check demo bench install uninstall clean deps fuzz
all: lib $(EXAMPLE_BIN)
lib: $(STATIC) $(SHARED_REAL) $(PC)

# ---- library ------------------------------------------------------------
$(B)/obj/%.o: lib/%.c $(LIB_HDR) | $(B)/obj
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
.PHONY: deps-stb
deps-stb:
	@command -v pkg-config >/dev/null || sh tests/need.sh pkg-config pkg-config
	@pkg-config --exists stb || sh tests/need.sh libstb-dev stb

# ---- tests ----------------------------------------------------------------
# Three builds of the runner: gcc -O2, gcc with ASan+UBSan, clang -O0. All check
# the same golden hashes, so they prove identical output across compilers and
# optimisation levels.
define RUNNER
$(B)/test-$(1)/runner: $(LIB_SRC) $(TEST_SRC) $(LIB_HDR) $(wildcard tests/*.h)
	mkdir -p $(B)/test-$(1)
	$(2) -std=c11 $(WARN) $(3) -Iinclude -Ilib -Itests $(LIB_SRC) $(TEST_SRC) -o $$@ -lm -lpthread
endef
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(eval $(call RUNNER,plain,$(CC),-O2 -g))
$(eval $(call RUNNER,asan,$(CC),-O1 -g $(SAN)))
$(eval $(call RUNNER,clang,$(CLANG),-O0 -g))

check: deps all $(B)/test-plain/runner $(B)/test-asan/runner $(B)/test-clang/runner
	@sh tests/check.sh $(B)

# ---- demo -------------------------------------------------------------------
demo: all | $(B)/demo
	@sh examples/demo.sh $(B)

# ---- benchmarks -------------------------------------------------------------
$(B)/bench/bench: $(LIB_SRC) $(BENCH_SRC) $(LIB_HDR) $(wildcard tests/bench/*.h)
	mkdir -p $(B)/bench
	$(CC) -std=c11 $(WARN) -O2 -DNDEBUG -Iinclude -Ilib -Itests/bench $(LIB_SRC) $(BENCH_SRC) -o $@ -lm
bench: $(B)/bench/bench
	$(B)/bench/bench

# ---- install ------------------------------------------------------------------
install: all
	$(INSTALL) -d -m 755 $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 644 include/dungeon.h $(DESTDIR)$(INCLUDEDIR)/dungeon.h
	$(INSTALL) -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libdungeon.a
	$(INSTALL) -m 755 $(SHARED_REAL) $(DESTDIR)$(LIBDIR)/libdungeon.so.$(VERSION)
	ln -sf libdungeon.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME)
	ln -sf $(SHARED_SONAME) $(DESTDIR)$(LIBDIR)/libdungeon.so
	$(INSTALL) -m 644 $(PC) $(DESTDIR)$(PKGCONFIGDIR)/libdungeon.pc
	$(INSTALL) -m 755 $(B)/bin/dungeon $(DESTDIR)$(BINDIR)/dungeon

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/dungeon.h $(DESTDIR)$(LIBDIR)/libdungeon.a \
	      $(DESTDIR)$(LIBDIR)/libdungeon.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SHARED_SONAME) \
	      $(DESTDIR)$(LIBDIR)/libdungeon.so $(DESTDIR)$(PKGCONFIGDIR)/libdungeon.pc \
	      $(DESTDIR)$(BINDIR)/dungeon

clean:
	rm -rf $(B)
