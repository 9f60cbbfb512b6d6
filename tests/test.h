/* Minimal test framework: TEST(name) { CHECK(...); } registers itself. */
#ifndef DG_TEST_H
#define DG_TEST_H

#include "dungeon.h"

#include <inttypes.h>
#include <stdio.h>

typedef void (*test_fn)(void);
void test_register(const char *name, const char *file, test_fn fn);
void test_fail(const char *file, int line, const char *expr);
/* Failures so far in the current test (to stop loops early). */
int test_failures(void);

#define TEST(name)                                                      \
    static void name(void);                                             \
    __attribute__((constructor)) static void name##_register(void)      \
    {                                                                   \
        test_register(#name, __FILE__, name);                           \
    }                                                                   \
    static void name(void)

#define CHECK(expr)                                   \
    do {                                              \
        if (!(expr))                                  \
            test_fail(__FILE__, __LINE__, #expr);     \
    } while (0)

/* CHECK with a printf-style context message on failure. */
#define CHECKF(expr, ...)                             \
    do {                                              \
        if (!(expr)) {                                \
            test_fail(__FILE__, __LINE__, #expr);     \
            fprintf(stderr, "    ");                  \
            fprintf(stderr, __VA_ARGS__);             \
            fprintf(stderr, "\n");                    \
        }                                             \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                              \
    do {                                                                                \
        uint64_t a_ = (a), b_ = (b);                                                    \
        if (a_ != b_) {                                                                 \
            test_fail(__FILE__, __LINE__, #a " == " #b);                                \
            fprintf(stderr, "    got 0x%016" PRIx64 ", want 0x%016" PRIx64 "\n", a_, b_); \
        }                                                                               \
    } while (0)

/* Shared helpers (tests/helpers.c). */
/* A grid embedded in a larger buffer with canary bytes around it and in the
 * stride padding; guard_intact() says whether anything outside was written. */
typedef struct guarded_grid {
    dg_grid grid;
    uint8_t *buffer;
    size_t size;
    size_t offset;
} guarded_grid;
int guard_make(guarded_grid *gg, int32_t width, int32_t height, int32_t pad);
int guard_intact(const guarded_grid *gg);
void guard_free(guarded_grid *gg);
/* 1 if every passable cell is 4-connected to every other. */
int grid_connected(const dg_grid *grid);
/* Open cells on the grid's edge or beside void (4-way), those skip marks
 * (width per row; NULL: none) left out: 0 on a walled-in map. */
int32_t grid_open_to_void(const dg_grid *grid, const uint8_t *skip);
/* Number of passable cells. */
int32_t grid_passable_count(const dg_grid *grid);
/* The tests' one breadth-first search, over a w x h lattice of cells
 * numbered y * w + x from `start`: can_step(user, from, to, dir) says whether
 * the step from cell `from` to its neighbour `to` (inside the lattice) in
 * direction dir (0 north, 1 east, 2 south, 3 west) is allowed. Returns the
 * step counts (malloc, w * h entries, -1 where unreached; the caller frees),
 * NULL if out of memory; *reached (optional) gets the number of cells reached. */
typedef int (*bfs_step)(const void *user, int32_t from, int32_t to, int dir);
int32_t *bfs_lattice(int32_t w, int32_t h, int32_t start, bfs_step can_step, const void *user,
                     int32_t *reached);
/* Runs generator `name` through hard_gen_call (tests/hard.h; the prefab
 * generators need the shared sets and are not run here) with params on a
 * fresh guarded w x h grid with `pad` cells of stride padding and seed; CHECKs
 * that it succeeds and writes nothing outside the grid. Returns the grid's
 * hash; *result_hash (optional) gets the result's. with_result 0 runs it
 * without a result. */
uint64_t gen_hash(const char *name, const void *params, int32_t w, int32_t h, uint64_t seed,
                  int32_t pad, uint64_t *result_hash, int with_result);
/* The skeleton of every generator's determinism test, for one parameter set:
 * same seed, same grid and result whatever the stride padding; the same tiles
 * without a result; with other_seed 1 seed 10, with 2 seed 10 or 11, gives
 * another map (0: not checked). NULL if all hold, else what broke. */
const char *gen_deterministic(const char *name, const void *params, int32_t w, int32_t h,
                              int other_seed);
/* bfs_lattice over the grid's passable cells (4-way) from s: walking distances
 * indexed y * width + x. */
int32_t *grid_walk_from(const dg_grid *grid, dg_point s, int32_t *reached);

#endif
