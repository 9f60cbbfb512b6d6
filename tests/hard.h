/* Shared machinery of the hardening tests (guard, faults, bad input, threads,
 * golden) and of the fuzz targets in tests/fuzz/: a counting allocator that can
 * fail the k-th allocation, a reader of fuzz bytes, a table of every generator
 * (fixed parameter sets plus parameters decoded from fuzz bytes), a validator
 * of generator output and a hash of the structured result.
 * Covering a new generator = one entry in hard_gens[] (tests/hard.c). */
#ifndef DG_HARD_H
#define DG_HARD_H

#include "dungeon.h"

/* ---- counting allocator that can fail on demand --------------------------- */
typedef struct hard_alloc {
    dg_allocator hooks;  /* pass &h->hooks to the library */
    int64_t fail_at;     /* refuse the fail_at-th allocation (1-based); 0 = never */
    int fail_after;      /* 1: refuse every allocation from fail_at on */
    int64_t calls;       /* allocations asked for */
    int64_t failed;      /* allocations refused */
    int64_t live;        /* blocks not yet freed */
    int64_t live_bytes;
    int64_t peak_bytes;
    int64_t bad_frees;   /* frees with a size other than the allocated one, or of a foreign block */
} hard_alloc;

void hard_alloc_init(hard_alloc *h, int64_t fail_at);
/* 1 if every block was freed with its own size. */
int hard_alloc_clean(const hard_alloc *h);

/* ---- fuzz bytes -------------------------------------------------------------- */
typedef struct hard_input {
    const uint8_t *data;
    size_t size;
    size_t pos;
} hard_input;

uint8_t hard_u8(hard_input *in);   /* next byte, 0 once the input is exhausted */
uint32_t hard_u32(hard_input *in);
uint64_t hard_u64(hard_input *in);
/* A parameter: mostly in [lo, hi], sometimes a boundary value (0, -1, lo - 1,
 * hi + 1, INT32_MIN, INT32_MAX, a raw 32-bit value) so validation is reached. */
int32_t hard_param(hard_input *in, int32_t lo, int32_t hi);

/* ---- shared immutable objects the generators need (prefab sets, worlds) ------ */
typedef struct hard_ctx {
    int ready;
    void *reserved[4];
} hard_ctx;

/* Builds the shared objects (DG_OK, or the failing status). */
dg_status hard_ctx_open(hard_ctx *ctx);
void hard_ctx_close(hard_ctx *ctx);

/* ---- every generator ----------------------------------------------------------- */
typedef struct hard_gen {
    const char *name;
    int variants; /* fixed parameter sets 0..variants-1 (golden, guard, faults, threads) */
    dg_status (*run)(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                     dg_result *result, const dg_allocator *alloc, dg_diag *diag);
    /* Parameters decoded from fuzz bytes. *work_bound gets the documented upper
     * bound of result->metrics.attempts for those parameters, or -1 if none. */
    dg_status (*run_fuzz)(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                          dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                          int64_t *work_bound);
    int32_t width, height; /* a typical grid for the fixed parameter sets */
} hard_gen;

/* Terminated by an entry with name == NULL. */
extern const hard_gen hard_gens[];
int hard_gen_count(void);
const hard_gen *hard_find_gen(const char *name);

/* NULL if a generator's output is consistent (tiles known, every room,
 * corridor, door, marker, start and exit inside the grid, metrics matching the
 * grid), else a static message naming the first problem. */
const char *hard_validate(const dg_grid *grid, const dg_result *result);
/* Hash of every field of the structured result (lists, start/exit, metrics). */
uint64_t hard_result_hash(const dg_result *result);
/* 1 if every status is one of the documented DG_* codes. */
int hard_status_known(dg_status st);

#endif
