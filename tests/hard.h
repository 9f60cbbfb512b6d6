/* Shared machinery of the hardening tests (guard, faults, bad input, threads,
 * golden) and of the fuzz targets in tests/fuzz/: a counting allocator that can
 * fail the k-th allocation, a reader of fuzz bytes, a table of every generator
 * (fixed parameter sets plus parameters decoded from fuzz bytes), a validator
 * of generator output and a hash of the structured result.
 * Covering a new generator = one entry in hard_gens[] and one line in
 * hard_gen_call (tests/hard.c); tests/test_every_generator.c then checks it. */
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
#define HARD_WORLDS 5
enum { HARD_SET_SHAFT, HARD_SET_FOREST, HARD_SET_FACTORY, HARD_SET_FURNISH, HARD_SET_VAULTS,
       HARD_SETS };
typedef struct hard_ctx {
    int ready;
    dg_prefab_set *sets[HARD_SETS]; /* the sample sets of examples/prefabs (run from the source tree) */
    dg_world *worlds[HARD_WORLDS];  /* one per variant of the "world" entry */
} hard_ctx;

/* Builds the shared objects (DG_OK, or the failing status). */
dg_status hard_ctx_open(hard_ctx *ctx);
void hard_ctx_close(hard_ctx *ctx);

/* What a fuzz run reports beside its status. */
typedef struct hard_fuzz_out {
    int64_t work_bound;    /* documented upper bound of result->metrics.attempts, or -1 */
    const char *violation; /* a broken invariant the entry checked itself, or NULL */
} hard_fuzz_out;

/* ---- every generator ----------------------------------------------------------- */
typedef struct hard_gen {
    const char *name;
    int variants;   /* fixed parameter sets 0..variants-1 (golden, guard, faults, threads) */
    int has_result; /* 1 if it fills a dg_result (0: result is left alone) */
    /* Runs parameter set `variant`; *extra (optional) gets a hash of output that
     * is neither in the grid nor in the result (0 if none). */
    dg_status (*run)(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                     dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                     uint64_t *extra);
    /* Parameters decoded from fuzz bytes. */
    dg_status (*run_fuzz)(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                          dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                          hard_fuzz_out *out);
    int32_t width, height; /* a typical grid for the fixed parameter sets */
    /* 1 if the entry first fills the grid with another generator's map (the
     * generator under test then works on top of it): on error the grid holds
     * that base map, which the entry checks itself (status HARD_E_CHANGED if not) */
    int base_first;
} hard_gen;

/* Status an entry returns when the generator changed the grid on error. */
#define HARD_E_CHANGED (-1000)
/* Status the graph entry returns when the library refused its own layout as
 * a defect (one off the grid): a bug to report, not an answer. */
#define HARD_E_DEFECT (-1001)

/* Entries kept in their own files (tests/hard_NAME.c). */
dg_status hard_cave_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra);
dg_status hard_cave_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out);
dg_status hard_bsp_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra);
dg_status hard_bsp_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out);
dg_status hard_maze_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra);
dg_status hard_maze_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out);
dg_status hard_walk_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra);
dg_status hard_walk_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out);
dg_status hard_scatter_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                        dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                        uint64_t *extra);
dg_status hard_scatter_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         hard_fuzz_out *out);
dg_status hard_graph_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         uint64_t *extra);
dg_status hard_graph_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                          dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                          hard_fuzz_out *out);
/* Generator 'graph' on its first sample graph (it takes no params struct). */
dg_status hard_graph_call(dg_grid *grid, uint64_t seed, dg_result *result,
                          const dg_allocator *alloc, dg_diag *diag);

/* Terminated by an entry with name == NULL. */
extern const hard_gen hard_gens[];
int hard_gen_count(void);
const hard_gen *hard_find_gen(const char *name);

/* The sample set generator `name` runs on at its defaults (NULL: none needed). */
const dg_prefab_set *hard_gen_set(const hard_ctx *ctx, const char *name);
/* Calls generator `name`'s own function (dg_NAME_generate; the world:
 * dg_world_create and the window around room (0, 0)) with params laid out as
 * dg_params_defaults fills them, and the sample set a prefab generator needs.
 * The registry-driven tests use it to reach each generator's own validation;
 * ctx may be NULL for the generators that need no prefab set. */
dg_status hard_gen_call(const hard_ctx *ctx, const char *name, dg_grid *grid, const void *params,
                        uint64_t seed, dg_result *result, const dg_allocator *alloc, dg_diag *diag);

/* Runs gen on a fresh zeroed w x h grid (malloc) and folds the status, grid
 * hash, result hash and extra output hash into one value. */
uint64_t hard_run_hash(const hard_ctx *ctx, const hard_gen *gen, int variant, int32_t w,
                       int32_t h, uint64_t seed);

/* ---- every analysis function ------------------------------------------------------ */
/* One analysis call on a grid it must not write, with its arguments derived
 * from seed. All of its outputs go into out (an aligned caller buffer of at
 * least HARD_OP_OUT(grid) bytes, through the library's own output pointers,
 * so a function that fails must leave it untouched); *used gets the bytes
 * that are meaningful on success. Scratch memory through alloc. */
#define HARD_OP_OUT(g) ((size_t)(g)->width * (size_t)(g)->height * 8u + 256u)
typedef struct hard_op {
    const char *name;
    dg_status (*run)(const dg_grid *grid, uint64_t seed, const dg_allocator *alloc, uint8_t *out,
                     size_t *used);
} hard_op;

/* Terminated by an entry with name == NULL. Grids up to 256 x 256. */
extern const hard_op hard_ops[];
/* Folds the status and out[0..used) of a run. */
uint64_t hard_op_hash(dg_status st, const uint8_t *out, size_t used);
/* Maps to analyse: kind 0 a world window, 1 random tiles (caves of floor,
 * walls, doors, water), 2 the first generator's output; fills w x h. */
void hard_sample_map(const hard_ctx *ctx, int kind, uint64_t seed, dg_grid *grid);

/* NULL if a generator's output is consistent (tiles known, every room,
 * corridor, door, marker, start and exit inside the grid, metrics matching the
 * grid), else a static message naming the first problem. */
const char *hard_validate(const dg_grid *grid, const dg_result *result);
/* Hash of every field of the structured result (lists, start/exit, metrics). */
uint64_t hard_result_hash(const dg_result *result);
/* 1 if every status is one of the documented DG_* codes. */
int hard_status_known(dg_status st);

#endif
