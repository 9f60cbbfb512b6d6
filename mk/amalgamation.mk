# ---- amalgamation (docs/build.md) ---------------------------------------------------
# `make amalgamation` writes build/amalgamation/dungeon.c (every lib/*/*.c with
# the private headers inlined: one file to drop into a game's build) and the
# public dungeon.h beside it, by tools/amalgamate.py; they are generated, never
# committed. `make check-amalgamation` compiles it alone with gcc and clang
# (-Werror, with and without -DDG_API=) and runs the golden tests against it;
# `make bench-amalgamation` times the bench built from it against the normal
# build (BENCH_RUNS runs each, medians side by side; BENCH_FILTER picks rows).
AMALG := $(B)/amalgamation
AMALG_C := $(AMALG)/dungeon.c
AMALG_FLAGS := -std=c11 -Wall -Wextra -Wpedantic -Werror
BENCH_RUNS ?= 5
BENCH_FILTER ?=

.PHONY: amalgamation check-amalgamation bench-amalgamation
amalgamation: $(AMALG_C)
$(AMALG_C): tools/amalgamate.py $(LIB_SRC) $(LIB_HDR)
	@command -v python3 >/dev/null || sh tests/need.sh python3 python3
	python3 tools/amalgamate.py $(AMALG)

# one object per compiler and flag set: it compiles alone
$(AMALG)/check-%.o: $(AMALG_C)
	$(if $(filter clang%,$*),$(CLANG),$(CC)) $(AMALG_FLAGS) $(WARN) $(if $(filter %-noapi,$*),-DDG_API=) \
	  -O1 -c $< -o $@
# the golden tests (tests/test_golden.c) with the amalgamation instead of lib/
$(AMALG)/golden: $(AMALG_C) $(GOLDEN_SRC) $(wildcard tests/*.h)
	$(CC) $(AMALG_FLAGS) $(WARN) -O2 -I$(AMALG) -Ilib -Itests $(AMALG_C) $(GOLDEN_SRC) -o $@ -lm -lpthread
check-amalgamation: $(AMALG)/check-gcc.o $(AMALG)/check-clang.o $(AMALG)/check-gcc-noapi.o \
	  $(AMALG)/check-clang-noapi.o $(AMALG)/golden
	$(AMALG)/golden golden

$(B)/bench/bench-amalgamation: $(AMALG_C) $(BENCH_SRC) $(wildcard tests/bench/*.h)
	mkdir -p $(B)/bench
	$(CC) -std=c11 $(WARN) -O2 -DNDEBUG -I$(AMALG) -Itests/bench $(AMALG_C) $(BENCH_SRC) -o $@ -lm -lpthread $(TCOD_FLAGS)
bench-amalgamation: deps-bench
	@$(MAKE) --no-print-directory $(B)/bench/bench $(B)/bench/bench-amalgamation
	@sh tests/bench/amalgamation.sh $(B)/bench/bench $(B)/bench/bench-amalgamation $(BENCH_RUNS) $(BENCH_FILTER)
