/* Benchmark harness: BENCH(name) { ... bench_run(...); } registers itself.
 * Timing lives here only, never in tests. */
#ifndef DG_BENCH_H
#define DG_BENCH_H

#include "dungeon.h"

#include <stdint.h>
#include <stdio.h>

typedef void (*bench_fn)(void);
void bench_register(const char *name, bench_fn fn);
/* The word after the bench filter (`bench peers walk`), or NULL: a bench may
 * narrow its rows by it. */
extern const char *bench_subject;

#define BENCH(name)                                                   \
    static void name(void);                                           \
    __attribute__((constructor)) static void name##_register(void)    \
    {                                                                 \
        bench_register(#name, name);                                  \
    }                                                                 \
    static void name(void)

/* Counting allocator: allocations and peak live bytes, reset per run. */
typedef struct bench_mem {
    int64_t live, peak, allocs;
} bench_mem;
dg_allocator bench_allocator(bench_mem *mem);

/* One measured operation; iteration i of the run. */
typedef void (*bench_op)(void *ctx, int64_t i);

/* Runs op `reps` times after one warm-up, each timed alone, and prints one row:
 * name, size label, median and min time per op, Mcells/s at the median, and
 * (if mem is given) the peak scratch bytes and allocations of one op.
 * ops_per_rep > 1 times batches of tiny ops and divides. */
void bench_run(const char *name, const char *size, int64_t cells, int reps, int64_t ops_per_rep,
               bench_op op, void *ctx, bench_mem *mem);

#ifdef DG_BENCH_TCOD
/* libtcod's BSP carved into cells (w x h, no padding) from seed: the peer
 * (bench_tcod.c). */
void bench_tcod_bsp(uint8_t *cells, int32_t w, int32_t h, uint32_t seed);
#endif

/* bench --once GEN[+result] WxH N (bench_peers.c): exactly N maps untimed,
 * for callgrind; its usage text goes to out. */
int bench_once(int argc, char **argv);
void bench_once_usage(FILE *out);

/* The repository's files (examples/) from the working directory, or else from
 * two folders above the binary (build/bench/bench, found by /proc/self/exe or
 * else argv[0]): bench_find_root(argv[0])
 * once in main, then bench_path writes root + file (e.g. "examples/...") into
 * out and returns it. */
void bench_find_root(const char *argv0);
const char *bench_path(char *out, size_t size, const char *file);

/* Monotonic nanoseconds. */
int64_t bench_now_ns(void);
/* CPU nanoseconds of the calling thread: what a run costs when the machine
 * is shared (time spent waiting for a core is not counted). */
int64_t bench_cpu_ns(void);

#endif
