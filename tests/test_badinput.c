/* The bad-input matrix: every public function called with NULL, zero,
 * negative, huge (near INT32_MAX, sizes whose product overflows), inverted
 * ranges and stride < width. Each row names the function, the bad input, the
 * documented outcome (a status, or the value a query returns) and, for calls
 * with a dg_diag, a substring the message must contain. Every row runs on a
 * guarded grid and guarded output buffers that must come back untouched.
 * docs/robustness.md lists the matrix; DG_MATRIX_MARKDOWN=1 build/test-plain/
 * runner badinput_matrix prints it in that form. */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define ENV_W 9
#define ENV_H 7
#define ENV_FILL 0x5A
#define OUT_FILL 0xEE
#define OUT_SIZE 4096

/* What every row may touch: a guarded grid (9x7, stride 12) holding ENV_FILL,
 * output buffers holding OUT_FILL, a grid struct holding 0x11 bytes. */
typedef struct bad_env {
    guarded_grid gg;
    dg_grid *g;            /* &gg.grid */
    dg_grid bad;           /* a copy of *g the row may break (stride, sizes) */
    dg_grid target;        /* for dg_grid_init: must stay 0x11 bytes */
    uint8_t out[OUT_SIZE]; /* text, pixels, labels... */
    dg_rng rng;
    dg_result result;
    const hard_ctx *ctx;
} bad_env;

#define UNUSED __attribute__((unused))

typedef int64_t (*bad_call)(bad_env *e, dg_diag *diag);

typedef struct bad_row {
    const char *function;
    const char *input;   /* what is wrong with the call */
    int is_status;       /* 1: expect is a dg_status; 0: a returned value */
    int64_t expect;
    const char *message; /* substring of diag->message, or NULL (no diag) */
    const char *outcome; /* for value rows: the documented result in words */
    bad_call call;
    /* rows every generator shares (registered from gen_rows[]): call is NULL */
    int64_t (*gen_call)(bad_env *e, dg_diag *diag, int gen, int kind);
    int gen, kind;
} bad_row;

#define MAX_ROWS 512
static bad_row rows[MAX_ROWS];
static int row_count;

static void bad_register(bad_row row)
{
    if (row_count < MAX_ROWS)
        rows[row_count++] = row;
}

/* BAD(id, function, "input", STATUS, "message" or NULL) { return call; } */
#define BAD(id, fn, what, st, msg)                                            \
    static int64_t bad_##id(bad_env *e, dg_diag *diag);                       \
    __attribute__((constructor)) static void bad_##id##_reg(void)             \
    {                                                                         \
        bad_row r = {#fn, what, 1, st, msg, NULL, bad_##id, NULL, 0, 0};                  \
        bad_register(r);                                                      \
    }                                                                         \
    static int64_t bad_##id(bad_env *e UNUSED, dg_diag *diag UNUSED)

/* BADV(id, function, "input", value, "outcome in words") { return value; } */
#define BADV(id, fn, what, value, words)                                      \
    static int64_t bad_##id(bad_env *e, dg_diag *diag);                       \
    __attribute__((constructor)) static void bad_##id##_reg(void)             \
    {                                                                         \
        bad_row r = {#fn, what, 0, value, NULL, words, bad_##id, NULL, 0, 0};             \
        bad_register(r);                                                      \
    }                                                                         \
    static int64_t bad_##id(bad_env *e UNUSED, dg_diag *diag UNUSED)

#define UNUSED_ENV (void)e, (void)diag

/* ---- grid ------------------------------------------------------------------------ */
BAD(grid_init_null_grid, dg_grid_init, "grid NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_grid_init(NULL, e->g->cells, 4, 4, 0);
}
BAD(grid_init_null_cells, dg_grid_init, "cells NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, NULL, 4, 4, 0);
}
BAD(grid_init_zero_width, dg_grid_init, "width 0", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, 0, 4, 0);
}
BAD(grid_init_neg_height, dg_grid_init, "height -1", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, 4, -1, 0);
}
BAD(grid_init_min_width, dg_grid_init, "width INT32_MIN", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, INT32_MIN, 4, 4);
}
BAD(grid_init_huge_width, dg_grid_init, "width INT32_MAX", DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, INT32_MAX, 1, 0);
}
BAD(grid_init_product, dg_grid_init, "20000 x 20000 (each side legal, product over 2^28)",
    DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, 20000, 20000, 0);
}
BAD(grid_init_product_overflow, dg_grid_init, "INT32_MAX x INT32_MAX (product overflows)",
    DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, INT32_MAX, INT32_MAX, INT32_MAX);
}
BAD(grid_init_stride, dg_grid_init, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, 8, 2, 7);
}
BAD(grid_init_neg_stride, dg_grid_init, "stride -1", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_init(&e->target, e->g->cells, 8, 2, -1);
}
BAD(grid_check_null, dg_grid_check, "grid NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    return dg_grid_check(NULL);
}
BAD(grid_check_cells, dg_grid_check, "cells NULL", DG_E_NULL, NULL)
{
    (void)diag;
    e->bad.cells = NULL;
    return dg_grid_check(&e->bad);
}
BAD(grid_check_stride, dg_grid_check, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.stride = e->bad.width - 1;
    return dg_grid_check(&e->bad);
}
BAD(grid_check_zero, dg_grid_check, "height 0", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.height = 0;
    return dg_grid_check(&e->bad);
}
BAD(grid_check_huge, dg_grid_check, "width and height INT32_MAX", DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    e->bad.width = e->bad.height = e->bad.stride = INT32_MAX;
    return dg_grid_check(&e->bad);
}
BADV(grid_get_null, dg_grid_get, "grid NULL", DG_TILE_VOID, "DG_TILE_VOID")
{
    UNUSED_ENV;
    return dg_grid_get(NULL, 0, 0);
}
BADV(grid_get_outside, dg_grid_get, "x = width, y = INT32_MIN, x = INT32_MAX", DG_TILE_VOID,
     "DG_TILE_VOID")
{
    (void)diag;
    return dg_grid_get(e->g, ENV_W, 0) | dg_grid_get(e->g, 0, INT32_MIN) |
           dg_grid_get(e->g, INT32_MAX, 3);
}
BADV(grid_get_stride, dg_grid_get, "stride < width", DG_TILE_VOID, "DG_TILE_VOID")
{
    (void)diag;
    e->bad.stride = 1;
    return dg_grid_get(&e->bad, ENV_W - 1, ENV_H - 1);
}
BADV(grid_get_neg_stride, dg_grid_get, "stride INT32_MIN", DG_TILE_VOID, "DG_TILE_VOID")
{
    (void)diag;
    e->bad.stride = INT32_MIN;
    return dg_grid_get(&e->bad, 1, 1);
}
BAD(grid_set_null, dg_grid_set, "grid NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    return dg_grid_set(NULL, 0, 0, 1);
}
BAD(grid_set_outside, dg_grid_set, "x = -1", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_set(e->g, -1, 0, 1);
}
BAD(grid_set_outside_max, dg_grid_set, "y = INT32_MAX", DG_E_INVALID, NULL)
{
    (void)diag;
    return dg_grid_set(e->g, 0, INT32_MAX, 1);
}
BAD(grid_set_stride, dg_grid_set, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.stride = 2;
    return dg_grid_set(&e->bad, 5, 5, 1);
}
BAD(grid_fill_null, dg_grid_fill, "grid NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    return dg_grid_fill(NULL, 1);
}
BAD(grid_fill_stride, dg_grid_fill, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.stride = 0;
    return dg_grid_fill(&e->bad, 1);
}
BAD(grid_fill_huge, dg_grid_fill, "height INT32_MAX", DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    e->bad.height = INT32_MAX;
    return dg_grid_fill(&e->bad, 1);
}
BAD(grid_fill_rect_null, dg_grid_fill_rect, "grid NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    dg_rect r = {0, 0, 1, 1};
    return dg_grid_fill_rect(NULL, r, 1);
}
BAD(grid_fill_rect_stride, dg_grid_fill_rect, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_rect r = {0, 0, 1, 1};
    e->bad.stride = -4;
    return dg_grid_fill_rect(&e->bad, r, 1);
}
BAD(grid_fill_rect_outside, dg_grid_fill_rect,
    "rect entirely outside, negative w/h, or x + w overflowing (nothing written)", DG_OK, NULL)
{
    (void)diag;
    dg_rect rs[5] = {{ENV_W, 0, 5, 5},
                     {-10, -10, 5, 5},
                     {2, 2, -3, 4},
                     {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX},
                     {INT32_MIN, INT32_MIN, INT32_MIN, 1}};
    dg_status st = DG_OK;
    for (int i = 0; i < 5 && st == DG_OK; i++)
        st = dg_grid_fill_rect(e->g, rs[i], 1);
    return st;
}
BADV(grid_hash_null, dg_grid_hash, "grid NULL", 0, "0")
{
    UNUSED_ENV;
    return (int64_t)dg_grid_hash(NULL);
}
BADV(grid_hash_stride, dg_grid_hash, "stride < width", 0, "0")
{
    (void)diag;
    e->bad.stride = 3;
    return (int64_t)dg_grid_hash(&e->bad);
}

/* ---- tiles, status, version ----------------------------------------------------------- */
BADV(tile_name_unknown, dg_tile_name, "tile 12..63 (reserved)", 1, "\"unknown\"")
{
    UNUSED_ENV;
    return strcmp(dg_tile_name(40), "unknown") == 0 && strcmp(dg_tile_name(63), "unknown") == 0;
}
BADV(tile_passable_user, dg_tile_passable, "tile 255", 0, "0")
{
    UNUSED_ENV;
    return dg_tile_passable(255);
}
BADV(status_str_unknown, dg_status_str, "status 1, -11, INT32_MIN", 1, "\"unknown status\"")
{
    UNUSED_ENV;
    return strcmp(dg_status_str(1), "unknown status") == 0 &&
           strcmp(dg_status_str(-11), "unknown status") == 0 &&
           strcmp(dg_status_str(INT32_MIN), "unknown status") == 0;
}
BADV(tile_glyph_user, dg_tile_glyph, "tile 200", '?', "'?'")
{
    UNUSED_ENV;
    return dg_tile_glyph(200);
}
BADV(tile_color_user, dg_tile_color, "tile 255", 1, "an opaque colour unlike every library tile")
{
    UNUSED_ENV;
    uint32_t c = dg_tile_color(255);
    int distinct = 1;
    for (int t = 0; t < DG_TILE_COUNT; t++)
        distinct &= c != dg_tile_color((uint8_t)t);
    return distinct && (c & 0xFFu) == 0xFFu;
}

/* ---- random numbers --------------------------------------------------------------------- */
BADV(rng_seed_null, dg_rng_seed, "rng NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_rng_seed(NULL, 1, 2);
    return 0;
}
BADV(rng_next_null, dg_rng_next, "rng NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_rng_next(NULL);
}
BADV(rng_below_null, dg_rng_below, "rng NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_rng_below(NULL, 6);
}
BADV(rng_below_zero, dg_rng_below, "bound 0", 0, "0")
{
    (void)diag;
    return dg_rng_below(&e->rng, 0);
}
BADV(rng_range_inverted, dg_rng_range, "hi < lo (INT32_MAX, INT32_MIN)", INT32_MAX, "lo")
{
    (void)diag;
    return dg_rng_range(&e->rng, INT32_MAX, INT32_MIN);
}
BADV(rng_range_null, dg_rng_range, "rng NULL", -5, "lo")
{
    UNUSED_ENV;
    return dg_rng_range(NULL, -5, 5);
}
BADV(rng_chance_out, dg_rng_chance, "permille INT32_MIN / INT32_MAX", 1, "0 / 1 (clamped)")
{
    (void)diag;
    return dg_rng_chance(&e->rng, INT32_MIN) == 0 && dg_rng_chance(&e->rng, INT32_MAX) == 1;
}
BADV(rng_chance_null, dg_rng_chance, "rng NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_rng_chance(NULL, 500);
}

/* ---- result ------------------------------------------------------------------------------- */
BADV(result_init_null, dg_result_init, "result NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_result_init(NULL, NULL);
    return 0;
}
BADV(result_free_null, dg_result_free, "result NULL, or freed twice", 0, "no effect")
{
    (void)diag;
    dg_result_free(NULL);
    dg_result_free(&e->result);
    dg_result_free(&e->result);
    return e->result.room_count;
}

/* ---- rendering ---------------------------------------------------------------------------- */
BAD(render_ascii_null_grid, dg_render_ascii, "grid NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_render_ascii(NULL, NULL, (char *)e->out, OUT_SIZE, NULL);
}
BAD(render_ascii_null_out, dg_render_ascii, "out NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_render_ascii(e->g, NULL, NULL, OUT_SIZE, NULL);
}
BAD(render_ascii_small, dg_render_ascii, "out_size one byte short, and 0", DG_E_BUFFER, NULL)
{
    (void)diag;
    size_t need = (ENV_W + 1) * ENV_H + 1;
    dg_status a = dg_render_ascii(e->g, NULL, (char *)e->out, need - 1, NULL);
    dg_status b = dg_render_ascii(e->g, NULL, (char *)e->out, 0, NULL);
    return a == b ? a : DG_OK;
}
BAD(render_ascii_stride, dg_render_ascii, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.stride = 1;
    return dg_render_ascii(&e->bad, NULL, (char *)e->out, OUT_SIZE, NULL);
}
BAD(render_rgba_null_grid, dg_render_rgba, "grid NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_render_rgba(NULL, NULL, 1, e->out, OUT_SIZE);
}
BAD(render_rgba_null_out, dg_render_rgba, "out NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_render_rgba(e->g, NULL, 1, NULL, OUT_SIZE);
}
BAD(render_rgba_scale, dg_render_rgba, "scale 0, -1, 65, INT32_MAX, INT32_MIN", DG_E_INVALID, NULL)
{
    (void)diag;
    int32_t scales[5] = {0, -1, 65, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 5; i++)
        if (dg_render_rgba(e->g, NULL, scales[i], e->out, OUT_SIZE) != DG_E_INVALID)
            return DG_OK;
    return DG_E_INVALID;
}
BAD(render_rgba_small, dg_render_rgba, "out_size one byte short", DG_E_BUFFER, NULL)
{
    (void)diag;
    return dg_render_rgba(e->g, NULL, 2, e->out, (size_t)ENV_W * ENV_H * 16 - 1);
}
BAD(render_rgba_huge, dg_render_rgba, "32768 x 8192 grid at scale 64 (2^42 bytes)", DG_E_BUFFER,
    NULL)
{
    (void)diag;
    e->bad.width = e->bad.stride = 32768;
    e->bad.height = 8192;
    return dg_render_rgba(&e->bad, NULL, 64, e->out, OUT_SIZE);
}
BAD(render_rgba_stride, dg_render_rgba, "stride < width", DG_E_INVALID, NULL)
{
    (void)diag;
    e->bad.stride = ENV_W - 1;
    return dg_render_rgba(&e->bad, NULL, 1, e->out, OUT_SIZE);
}

/* ---- generators: the rows every one shares come from one table: a NULL grid,
 * stride < width and a grid over the cell limit (DG_E_NULL / DG_E_INVALID /
 * DG_E_TOO_LARGE, message naming the grid), params NULL where the header says
 * DG_E_NULL, and dg_*_defaults(NULL) doing nothing. Each parameter's min - 1
 * and max + 1 are every_generator_rejects_each_parameter_out_of_range
 * (tests/test_every_generator.c); the rows below the table are what is
 * specific to one generator: inverted ranges, overflowing values, grids too
 * small, prefab sets. ---------------------------------------------------------- */
typedef struct gen_row_set {
    const char *registry;  /* name in the registry (tests/hard.h: hard_gen_call) */
    const char *function;  /* the function the grid rows call */
    int null_params;       /* 1: params NULL is DG_E_NULL (else it means the defaults) */
} gen_row_set;
static const gen_row_set gen_rows[] = {
    {"attach", "dg_attach_generate", 1},
    {"chain", "dg_chain_generate", 1},
    {"prefab-full", "dg_prefab_full_generate", 0},
    {"prefab-jigsaw", "dg_prefab_jigsaw_generate", 0},
    {"prefab-islands", "dg_prefab_islands_generate", 0},
    {"prefab-mixed", "dg_prefab_mixed_generate", 0},
    {"world", "dg_world_render", 0},
    {"cave", "dg_cave_generate", 1},
    {"bsp", "dg_bsp_generate", 1},
    {"maze", "dg_maze_generate", 1},
    {"walk", "dg_walk_generate", 1},
    {"scatter", "dg_scatter_generate", 1},
};
#define GEN_ROW_SETS ((int)(sizeof gen_rows / sizeof gen_rows[0]))
enum { GEN_NULL_GRID, GEN_STRIDE, GEN_HUGE_GRID, GEN_NULL_PARAMS, GEN_KINDS };

static int64_t gen_row_call(bad_env *e, dg_diag *diag, int gen, int kind)
{
    const char *name = gen_rows[gen].registry;
    uint64_t params[64]; /* every params struct fits, or the row fails */
    if (dg_params_defaults(name, params, sizeof params) != DG_OK)
        return -999;
    dg_grid *grid = kind == GEN_NULL_GRID ? NULL : kind == GEN_NULL_PARAMS ? e->g : &e->bad;
    if (kind == GEN_STRIDE)
        e->bad.stride = e->bad.width - 1;
    if (kind == GEN_HUGE_GRID)
        e->bad.width = e->bad.height = e->bad.stride = DG_GRID_MAX_DIM;
    return hard_gen_call(e->ctx, name, grid, kind == GEN_NULL_PARAMS ? NULL : params, 1, &e->result,
                         NULL, diag);
}

__attribute__((constructor)) static void gen_rows_register(void)
{
    static const char *const what[GEN_KINDS] = {
        "grid NULL", "stride < width", "32768 x 32768 grid (product over the cell limit)",
        "params NULL"};
    static const dg_status want[GEN_KINDS] = {DG_E_NULL, DG_E_INVALID, DG_E_TOO_LARGE, DG_E_NULL};
    static const char *const message[GEN_KINDS] = {"grid", "stride", "cells", "params"};
    for (int g = 0; g < GEN_ROW_SETS; g++)
        for (int k = 0; k < GEN_KINDS; k++)
            if (k != GEN_NULL_PARAMS || gen_rows[g].null_params)
            {
                bad_row r = {gen_rows[g].function, what[k], 1, want[k], message[k], NULL, NULL,
                             gen_row_call, g, k};
                bad_register(r);
            }
}

/* What is specific to one generator: inverted ranges, values that overflow,
 * grids too small. Parameters are written raw at the registry's offsets (past
 * every range check); w x h (0: the env grid) is the grid's size. */
typedef struct gen_case {
    const char *registry, *input;
    const char *keys[2];
    int32_t values[2];
    int32_t w, h;
    dg_status want;
    const char *message;
} gen_case;
#define MIN_MAX(k) {#k "_min", #k "_max"}
static const gen_case gen_cases[] = {
    {"attach", "room_min_w > room_max_w", {"room_min_w", "room_max_w"}, {9, 3},
     0, 0, DG_E_INVALID, "room_min_w"},
    {"attach", "corridor_min -1", {"corridor_min"}, {-1}, 0, 0, DG_E_INVALID, "corridor_min"},
    {"attach", "room_min_w INT32_MAX", {"room_min_w", "room_max_w"}, {INT32_MAX, INT32_MAX},
     0, 0, DG_E_INVALID, "room_min_w"},
    {"attach", "1 x 1 grid", {NULL}, {0}, 1, 1, DG_E_TOO_SMALL, ""},
    {"chain", "rooms_min > rooms_max", MIN_MAX(rooms), {20, 2}, 0, 0, DG_E_INVALID, "rooms range"},
    {"chain", "rooms_max INT32_MAX", {"rooms_max"}, {INT32_MAX},
     0, 0, DG_E_TOO_LARGE, "rooms maximum"},
    {"chain", "corridor_min -1", {"corridor_min"}, {-1}, 0, 0, DG_E_INVALID, "corridor length"},
    {"chain", "max_tries 0", {"max_tries"}, {0}, 0, 0, DG_E_INVALID, "max_tries"},
    {"chain", "room_min_w wider than the grid", {"room_min_w", "room_max_w"}, {50, 50},
     0, 0, DG_E_TOO_SMALL, ""},
    {"cave", "target_open_permille INT32_MAX", {"target_open_permille"}, {INT32_MAX},
     0, 0, DG_E_INVALID, "target_open_permille"},
    {"cave", "4 x 4 grid (less than 3x3 inside the border)", {NULL}, {0},
     4, 4, DG_E_TOO_SMALL, "smallest: 5x5"},
    {"bsp", "room_min_w > room_max_w", {"room_min_w", "room_max_w"}, {9, 3},
     0, 0, DG_E_INVALID, "room_min_w"},
    {"bsp", "room_max_h INT32_MAX", {"room_max_h"}, {INT32_MAX}, 0, 0, DG_E_INVALID, "room_max_h"},
    {"bsp", "leaf_min_w below room + walls + margins", {"leaf_min_w"}, {6},
     0, 0, DG_E_INVALID, "leaf_min_w"},
    {"bsp", "9x7 grid (smallest 20x7 and 10x14)", {NULL}, {0},
     0, 0, DG_E_NOSPACE, "smallest grids"},
    {"maze", "room_min_w > room_max_w", {"room_min_w", "room_max_w"}, {9, 3},
     0, 0, DG_E_INVALID, "room_min_w"},
    {"maze", "room_tries INT32_MAX", {"room_tries"}, {INT32_MAX}, 0, 0, DG_E_INVALID, "room_tries"},
    {"maze", "1 x 1 grid", {NULL}, {0}, 1, 1, DG_E_NOSPACE, "smallest grid"},
    {"walk", "step_min > step_max", {"step_min", "step_max"}, {9, 3},
     0, 0, DG_E_INVALID, "step_min"},
    {"walk", "room_min > room_max", {"room_min", "room_max"}, {7, 3},
     0, 0, DG_E_INVALID, "room_min"},
    {"walk", "walkers -1", {"walkers"}, {-1}, 0, 0, DG_E_INVALID, "walkers"},
    {"walk", "walkers INT32_MAX", {"walkers"}, {INT32_MAX}, 0, 0, DG_E_INVALID, "walkers"},
    {"walk", "max_steps INT32_MIN", {"max_steps"}, {INT32_MIN}, 0, 0, DG_E_INVALID, "max_steps"},
    {"walk", "3 x 3 grid (one cell inside the ring)", {NULL}, {0},
     3, 3, DG_E_NOSPACE, "4x3 and 3x4"},
    {"scatter", "rooms_min > rooms_max", MIN_MAX(rooms), {9, 8}, 0, 0, DG_E_INVALID, "rooms_min"},
    {"scatter", "rooms_max INT32_MAX", {"rooms_max"}, {INT32_MAX}, 0, 0, DG_E_INVALID, "rooms_max"},
    {"scatter", "room_min_w > room_max_w", {"room_min_w", "room_max_w"}, {9, 3},
     0, 0, DG_E_INVALID, "room_min_w"},
    {"scatter", "room_min_h -1", {"room_min_h"}, {-1}, 0, 0, DG_E_INVALID, "room_min_h"},
    {"scatter", "9 x 8 grid (one room needs 8 x 8, two need 14 x 8)", {NULL}, {0},
     9, 8, DG_E_NOSPACE, "two rooms"},
    {"scatter", "1 x 1 grid", {NULL}, {0}, 1, 1, DG_E_TOO_SMALL, "smallest room"},
};
#undef MIN_MAX
#define GEN_CASES ((int)(sizeof gen_cases / sizeof gen_cases[0]))

/* Writes value into the field called key of name's params (by the registry's offset). */
static int set_raw(const char *name, void *params, const char *key, int32_t value)
{
    int32_t n = 0;
    const dg_param_desc *t = dg_generator_params(name, &n);
    for (int32_t i = 0; t && i < n; i++)
        if (strcmp(t[i].name, key) == 0)
        {
            memcpy((char *)params + t[i].offset, &value, sizeof value);
            return 1;
        }
    return 0;
}

static int64_t gen_case_call(bad_env *e, dg_diag *diag, int gen, int kind)
{
    const gen_case *c = &gen_cases[kind];
    uint64_t params[64];
    (void)gen;
    if (dg_params_defaults(c->registry, params, sizeof params) != DG_OK)
        return -999;
    for (int i = 0; i < 2 && c->keys[i]; i++)
        if (!set_raw(c->registry, params, c->keys[i], c->values[i]))
            return -998; /* a key the registry does not know: the row fails */
    if (c->w)
        e->bad.width = c->w, e->bad.height = c->h;
    return hard_gen_call(e->ctx, c->registry, c->w ? &e->bad : e->g, params, 1, &e->result, NULL,
                         diag);
}

__attribute__((constructor)) static void gen_cases_register(void)
{
    for (int k = 0; k < GEN_CASES; k++)
        for (int g = 0; g < GEN_ROW_SETS; g++)
            if (strcmp(gen_rows[g].registry, gen_cases[k].registry) == 0)
            {
                bad_row r = {gen_rows[g].function, gen_cases[k].input, 1, gen_cases[k].want,
                             gen_cases[k].message, NULL, NULL, gen_case_call, g, k};
                bad_register(r);
            }
}

/* dg_NAME_defaults(NULL) does nothing. */
#define DEFAULTS_NULL(id, fn)                                   \
    BADV(id##_defaults_null, fn, "params NULL", 0, "no effect") \
    {                                                           \
        UNUSED_ENV;                                             \
        fn(NULL);                                               \
        return 0;                                               \
    }
DEFAULTS_NULL(attach, dg_attach_defaults)
DEFAULTS_NULL(chain, dg_chain_defaults)
DEFAULTS_NULL(full, dg_prefab_full_defaults)
DEFAULTS_NULL(jigsaw, dg_prefab_jigsaw_defaults)
DEFAULTS_NULL(islands, dg_prefab_islands_defaults)
DEFAULTS_NULL(mixed, dg_prefab_mixed_defaults)
DEFAULTS_NULL(world, dg_world_defaults)
DEFAULTS_NULL(cave, dg_cave_defaults)
DEFAULTS_NULL(bsp, dg_bsp_defaults)
DEFAULTS_NULL(maze, dg_maze_defaults)
DEFAULTS_NULL(walk_gen, dg_walk_defaults)
DEFAULTS_NULL(scatter, dg_scatter_defaults)

/* prefab generators */
static const dg_prefab_set *shaft(const bad_env *e)
{
    return e->ctx->sets[HARD_SET_SHAFT];
}
BAD(full_null_set, dg_prefab_full_generate, "set NULL", DG_E_NULL, "set")
{
    return dg_prefab_full_generate(e->g, NULL, NULL, 1, &e->result, NULL, diag);
}
BAD(full_unknown, dg_prefab_full_generate, "name of no prefab", DG_E_INVALID, "nosuch")
{
    dg_prefab_full_params p;
    dg_prefab_full_defaults(&p);
    p.name = "nosuch";
    return dg_prefab_full_generate(e->g, shaft(e), &p, 1, &e->result, NULL, diag);
}
BAD(full_too_small, dg_prefab_full_generate, "grid smaller than every prefab", DG_E_NOSPACE, "")
{
    return dg_prefab_full_generate(e->g, shaft(e), NULL, 1, &e->result, NULL, diag);
}
BAD(full_fill, dg_prefab_full_generate, "fill 256, keep 2", DG_E_INVALID, "")
{
    dg_prefab_full_params p;
    dg_prefab_full_defaults(&p);
    p.fill = 256, p.keep = 2;
    return dg_prefab_full_generate(e->g, shaft(e), &p, 1, &e->result, NULL, diag);
}
BAD(jigsaw_null_set, dg_prefab_jigsaw_generate, "set NULL", DG_E_NULL, "set")
{
    return dg_prefab_jigsaw_generate(e->g, NULL, NULL, 1, &e->result, NULL, diag);
}
BAD(jigsaw_tries, dg_prefab_jigsaw_generate, "max_tries 0, block_w -1", DG_E_INVALID, "")
{
    dg_prefab_jigsaw_params p;
    dg_prefab_jigsaw_defaults(&p);
    p.max_tries = 0, p.block_w = -1;
    return dg_prefab_jigsaw_generate(e->g, e->ctx->sets[HARD_SET_FOREST], &p, 1, &e->result,
                                     NULL, diag);
}
BAD(jigsaw_huge_block, dg_prefab_jigsaw_generate, "block INT32_MAX x INT32_MAX", DG_E_INVALID, "")
{
    dg_prefab_jigsaw_params p;
    dg_prefab_jigsaw_defaults(&p);
    p.block_w = p.block_h = INT32_MAX;
    return dg_prefab_jigsaw_generate(e->g, e->ctx->sets[HARD_SET_FOREST], &p, 1, &e->result,
                                     NULL, diag);
}
BAD(islands_null_set, dg_prefab_islands_generate, "set NULL", DG_E_NULL, "set")
{
    return dg_prefab_islands_generate(e->g, NULL, NULL, 1, &e->result, NULL, diag);
}
BAD(islands_inverted, dg_prefab_islands_generate, "group min > max, margin 65",
    DG_E_INVALID, "")
{
    dg_prefab_group g = {"store", 5, 2, 0};
    dg_prefab_islands_params p;
    dg_prefab_islands_defaults(&p);
    p.groups = &g, p.group_count = 1, p.margin = 65;
    return dg_prefab_islands_generate(e->g, e->ctx->sets[HARD_SET_FACTORY], &p, 1, &e->result,
                                      NULL, diag);
}
BAD(islands_groups_null, dg_prefab_islands_generate, "group_count 3 with groups NULL",
    DG_E_INVALID, "")
{
    dg_prefab_islands_params p;
    dg_prefab_islands_defaults(&p);
    p.group_count = 3;
    return dg_prefab_islands_generate(e->g, e->ctx->sets[HARD_SET_FACTORY], &p, 1, &e->result,
                                      NULL, diag);
}
BAD(mixed_null_set, dg_prefab_mixed_generate, "set NULL", DG_E_NULL, "set")
{
    return dg_prefab_mixed_generate(e->g, NULL, NULL, 1, &e->result, NULL, diag);
}
BAD(mixed_positions, dg_prefab_mixed_generate, "positions 0, count -1", DG_E_INVALID, "")
{
    dg_prefab_mixed_params p;
    dg_prefab_mixed_defaults(&p);
    p.positions = 0, p.count = -1;
    return dg_prefab_mixed_generate(e->g, e->ctx->sets[HARD_SET_VAULTS], &p, 1, &e->result, NULL,
                                    diag);
}

/* ---- prefab sets --------------------------------------------------------------------------- */
BAD(prefab_parse_null, dg_prefab_parse, "text NULL", DG_E_NULL, "text")
{
    dg_prefab_set *set = NULL;
    return dg_prefab_parse(NULL, 10, "x", NULL, NULL, NULL, &set, diag);
}
BAD(prefab_parse_null_out, dg_prefab_parse, "set output NULL", DG_E_NULL, "set")
{
    return dg_prefab_parse("prefab a\n", 9, "x", NULL, NULL, NULL, NULL, diag);
}
BAD(prefab_parse_truncated, dg_prefab_parse, "text cut inside a prefab (no end)", DG_E_PARSE,
    "x:")
{
    static const char text[] = "prefab a\n  mode full\nmap\n#.#\n";
    dg_prefab_set *set = NULL;
    dg_status st = dg_prefab_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &set, diag);
    return set ? DG_OK : st;
}
BAD(prefab_parse_binary, dg_prefab_parse, "bytes 0x00 and 0xFF", DG_E_PARSE, "x:")
{
    static const char text[] = "prefab \xff\x00\x01";
    dg_prefab_set *set = NULL;
    dg_status st = dg_prefab_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &set, diag);
    return set ? DG_OK : st;
}
BAD(prefab_load_missing, dg_prefab_load, "path of no file", DG_E_INVALID, "no/such/file")
{
    dg_prefab_set *set = NULL;
    dg_status st = dg_prefab_load("no/such/file.txt", NULL, NULL, NULL, &set, diag);
    return set ? DG_OK : st;
}
BAD(prefab_load_null, dg_prefab_load, "path NULL", DG_E_NULL, "path")
{
    dg_prefab_set *set = NULL;
    return dg_prefab_load(NULL, NULL, NULL, NULL, &set, diag);
}
BADV(prefab_set_free_null, dg_prefab_set_free, "set NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_prefab_set_free(NULL);
    return 0;
}
BADV(prefab_count_null, dg_prefab_count, "set NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_prefab_count(NULL);
}
BADV(prefab_find_null, dg_prefab_find, "set NULL, name NULL, unknown name", -1, "-1")
{
    (void)diag;
    int32_t a = dg_prefab_find(NULL, "shaft"), b = dg_prefab_find(shaft(e), NULL);
    int32_t c = dg_prefab_find(shaft(e), "nosuch");
    return a == b && b == c ? a : 0;
}
BAD(prefab_info_index, dg_prefab_get_info, "index -1, count, INT32_MAX; info NULL",
    DG_E_INVALID, NULL)
{
    (void)diag;
    dg_prefab_info info;
    int32_t bad[3] = {-1, dg_prefab_count(shaft(e)), INT32_MAX};
    for (int i = 0; i < 3; i++)
        if (dg_prefab_get_info(shaft(e), bad[i], &info) != DG_E_INVALID)
            return DG_OK;
    return dg_prefab_get_info(shaft(e), 0, NULL) == DG_E_NULL ? DG_E_INVALID : DG_OK;
}
BAD(prefab_info_null, dg_prefab_get_info, "set NULL", DG_E_NULL, NULL)
{
    (void)diag;
    (void)e;
    dg_prefab_info info;
    return dg_prefab_get_info(NULL, 0, &info);
}
BADV(orient_sides_bad, dg_orient_sides, "orientation -1, 8", 0, "0")
{
    UNUSED_ENV;
    return dg_orient_sides(DG_SIDE_N, -1) | dg_orient_sides(DG_SIDE_N, 8);
}
BADV(door_class_bad, dg_door_class, "sides -1, 16 (bits past the four sides)", 1,
     "the class of the four side bits: FOUR, NONE")
{
    UNUSED_ENV;
    return dg_door_class(-1) == DG_DOORCLASS_FOUR && dg_door_class(16) == DG_DOORCLASS_NONE;
}
BAD(prefab_pick_none, dg_prefab_pick, "a mode no prefab has", DG_E_NOSPACE, NULL)
{
    (void)diag;
    int32_t index = 77, orient = 77;
    dg_status st = dg_prefab_pick(shaft(e), DG_PREFAB_FURNISH, DG_SIDE_N, 1, &index, &orient);
    return index == 77 && orient == 77 ? st : DG_OK;
}
BAD(prefab_pick_null, dg_prefab_pick, "set NULL, index NULL", DG_E_NULL, NULL)
{
    (void)diag;
    int32_t index = 0, orient = 0;
    dg_status a = dg_prefab_pick(NULL, DG_PREFAB_FULL, 0, 1, &index, &orient);
    dg_status b = dg_prefab_pick(shaft(e), DG_PREFAB_FULL, 0, 1, NULL, &orient);
    return a == b ? a : DG_OK;
}
BAD(prefab_pick_fit_tiny, dg_prefab_pick_fit, "max size 0 x 0, -5 x INT32_MIN", DG_E_NOSPACE, NULL)
{
    (void)diag;
    int32_t index = 0, orient = 0;
    dg_status a = dg_prefab_pick_fit(shaft(e), DG_PREFAB_FULL, 0, 0, 0, 1, &index, &orient);
    dg_status b = dg_prefab_pick_fit(shaft(e), DG_PREFAB_FULL, 0, -5, INT32_MIN, 1, &index,
                                     &orient);
    return a == b ? a : DG_OK;
}
BAD(prefab_stamp_outside, dg_prefab_stamp, "position entirely outside (INT32_MAX, INT32_MIN)",
    DG_E_INVALID, "")
{
    return dg_prefab_stamp(shaft(e), 0, 0, 1, e->g, INT32_MAX, INT32_MIN, &e->result, diag);
}
BAD(prefab_stamp_orient, dg_prefab_stamp, "orientation 8, index -1", DG_E_INVALID, "")
{
    dg_status a = dg_prefab_stamp(shaft(e), 0, 8, 1, e->g, 0, 0, &e->result, diag);
    dg_status b = dg_prefab_stamp(shaft(e), -1, 0, 1, e->g, 0, 0, &e->result, diag);
    return a == b ? a : DG_OK;
}
BAD(prefab_stamp_stride, dg_prefab_stamp, "stride < width", DG_E_INVALID, "stride")
{
    e->bad.stride = 1;
    return dg_prefab_stamp(shaft(e), 0, 0, 1, &e->bad, 0, 0, &e->result, diag);
}
BAD(prefab_stamp_null, dg_prefab_stamp, "set NULL", DG_E_NULL, "set")
{
    return dg_prefab_stamp(NULL, 0, 0, 1, e->g, 0, 0, &e->result, diag);
}
BADV(prefab_tag_bad, dg_prefab_tag, "set NULL, index -1, k -1, k past the tags", 1, "NULL")
{
    UNUSED_ENV;
    return !dg_prefab_tag(NULL, 0, 0) && !dg_prefab_tag(shaft(e), -1, 0) &&
           !dg_prefab_tag(shaft(e), 0, -1) && !dg_prefab_tag(shaft(e), 0, 1000);
}
BADV(prefab_has_tag_bad, dg_prefab_has_tag, "set NULL, index INT32_MAX", 0, "0")
{
    UNUSED_ENV;
    return dg_prefab_has_tag(NULL, 0, "shaft") | dg_prefab_has_tag(shaft(e), INT32_MAX, "shaft");
}
BAD(prefab_edge_bad, dg_prefab_edge, "side 3 (two bits), orientation -1, index 99", DG_E_INVALID,
    NULL)
{
    (void)diag;
    uint64_t sig = 0;
    int32_t len = 0;
    dg_status a = dg_prefab_edge(shaft(e), 0, 0, 3, &sig, &len);
    dg_status b = dg_prefab_edge(shaft(e), 0, -1, DG_SIDE_N, &sig, &len);
    dg_status c = dg_prefab_edge(shaft(e), 99, 0, DG_SIDE_N, &sig, &len);
    return a == b && b == c ? a : DG_OK;
}
BADV(orient_point_bad, dg_orient_point, "orientation 9, sizes INT32_MAX", 1,
     "the point unchanged, no overflow")
{
    UNUSED_ENV;
    dg_point p = {3, 4};
    dg_point q = dg_orient_point(9, 10, 10, p);
    (void)dg_orient_point(DG_ORIENT_ANTI, INT32_MAX, INT32_MAX, p);
    return q.x == 3 && q.y == 4;
}
BADV(orient_compose_bad, dg_orient_compose, "orientation -1 or 8", -1, "-1")
{
    UNUSED_ENV;
    return dg_orient_compose(-1, 0) == dg_orient_compose(0, 8) ? dg_orient_compose(0, 8) : 0;
}
BADV(orient_inverse_bad, dg_orient_inverse, "orientation 8, INT32_MIN", -1, "-1")
{
    UNUSED_ENV;
    return dg_orient_inverse(8) == dg_orient_inverse(INT32_MIN) ? dg_orient_inverse(8) : 0;
}

/* ---- analysis ------------------------------------------------------------------------------------ */
BADV(walk_defaults_null, dg_move_defaults, "walk NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_move_defaults(NULL);
    dg_place_defaults(NULL);
    return 0;
}
BADV(place_defaults_null, dg_place_defaults, "params NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_place_defaults(NULL);
    return 0;
}
#define ENV_CELLS ((size_t)ENV_W * ENV_H)
/* The env grid holds only ENV_FILL (a user tile): this walk makes it passable,
 * so rows reach the checks after "the source must be passable". */
static const dg_move *all_pass(void)
{
    static uint8_t pass[256];
    static dg_move w;
    dg_move_defaults(&w);
    memset(pass, 1, sizeof pass);
    w.passable = pass;
    return &w;
}
BAD(regions_small, dg_regions, "labels_count one short", DG_E_BUFFER, "")
{
    return dg_regions(e->g, NULL, (int32_t *)e->out, ENV_CELLS - 1, NULL, 0, NULL, NULL, diag);
}
BAD(regions_null, dg_regions, "labels NULL", DG_E_NULL, "")
{
    return dg_regions(e->g, NULL, NULL, ENV_CELLS, NULL, 0, NULL, NULL, diag);
}
BAD(regions_stride, dg_regions, "stride < width", DG_E_INVALID, "stride")
{
    e->bad.stride = 2;
    return dg_regions(&e->bad, NULL, (int32_t *)e->out, ENV_CELLS, NULL, 0, NULL, NULL, diag);
}
BAD(regions_walk, dg_regions, "walk neighbours 6", DG_E_INVALID, "neighbours")
{
    dg_move w;
    dg_move_defaults(&w);
    w.neighbours = 6;
    return dg_regions(e->g, &w, (int32_t *)e->out, ENV_CELLS, NULL, 0, NULL, NULL, diag);
}
BAD(regions_sizes, dg_regions, "sizes_cap -1", DG_E_INVALID, "")
{
    return dg_regions(e->g, NULL, (int32_t *)e->out, ENV_CELLS, (int32_t *)e->out, -1, NULL,
                      NULL, diag);
}
BAD(regions_size, dg_regions, "walk size 2", DG_E_INVALID, "size")
{
    dg_move w;
    dg_move_defaults(&w);
    w.size = 2;
    return dg_regions(e->g, &w, (int32_t *)e->out, ENV_CELLS, NULL, 0, NULL, NULL, diag);
}
BAD(clearance_small, dg_clearance, "clearance_count one short", DG_E_BUFFER, "")
{
    return dg_clearance(e->g, NULL, e->out, ENV_CELLS - 1, diag);
}
BAD(clearance_null, dg_clearance, "clearance NULL", DG_E_NULL, "")
{
    return dg_clearance(e->g, NULL, NULL, ENV_CELLS, diag);
}
BAD(clearance_size, dg_clearance, "walk size 5", DG_E_INVALID, "size")
{
    dg_move w;
    dg_move_defaults(&w);
    w.size = DG_CREATURE_SIZE_MAX + 1;
    return dg_clearance(e->g, &w, e->out, ENV_CELLS, diag);
}
BAD(workspace_huge, dg_path_workspace_create, "INT32_MAX x INT32_MAX, 0 x 5, -1 x 1",
    DG_E_TOO_LARGE, NULL)
{
    (void)diag;
    (void)e;
    dg_path_workspace *ws = NULL;
    dg_status st = dg_path_workspace_create(INT32_MAX, INT32_MAX, NULL, &ws);
    if (ws || dg_path_workspace_create(0, 5, NULL, &ws) != DG_E_INVALID ||
        dg_path_workspace_create(-1, 1, NULL, &ws) != DG_E_INVALID || ws)
        return DG_OK;
    return st;
}
BAD(workspace_null, dg_path_workspace_create, "workspace output NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    return dg_path_workspace_create(4, 4, NULL, NULL);
}
BADV(workspace_free_null, dg_path_workspace_free, "workspace NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_path_workspace_free(NULL);
    return 0;
}
BAD(distance_wall_source, dg_distance_map, "source on a wall / outside the grid", DG_E_INVALID,
    "source")
{
    dg_point src = {-1, INT32_MAX};
    return dg_distance_map(e->g, NULL, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(distance_count, dg_distance_map, "source_count -1", DG_E_INVALID, "")
{
    dg_point src = {0, 0};
    return dg_distance_map(e->g, NULL, &src, -1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL,
                           diag);
}
BAD(distance_small, dg_distance_map, "dist_count one short", DG_E_BUFFER, "")
{
    dg_point src = {0, 0};
    return dg_distance_map(e->g, all_pass(), &src, 1, 0, (int32_t *)e->out, ENV_CELLS - 1, NULL,
                           NULL, diag);
}
BAD(distance_null, dg_distance_map, "sources NULL", DG_E_NULL, "sources")
{
    return dg_distance_map(e->g, NULL, NULL, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(distance_costs, dg_distance_map, "max_distance -1", DG_E_INVALID, "")
{
    dg_point src = {0, 0};
    return dg_distance_map(e->g, NULL, &src, 1, -1, (int32_t *)e->out, ENV_CELLS, NULL, NULL,
                           diag);
}
BAD(distance_overflow, dg_distance_map, "step costs whose sum can overflow int32",
    DG_E_TOO_LARGE, "")
{
    dg_move w;
    uint16_t cost[256];
    dg_move_defaults(&w);
    for (int t = 0; t < 256; t++)
        cost[t] = 65535;
    w.cost = cost;
    w.straight_weight = w.diagonal_weight = 1000;
    uint8_t pass[256];
    memset(pass, 1, sizeof pass);
    w.passable = pass;
    dg_point src = {0, 0};
    return dg_distance_map(e->g, &w, &src, 1, INT32_MAX, (int32_t *)e->out, ENV_CELLS, NULL, NULL,
                           diag);
}
/* A zeroed mask long enough for the env grid at its stride (12). */
static const uint8_t *zero_mask(void)
{
    static const uint8_t mask[ENV_H * 12];
    return mask;
}
/* all_pass() with an overlay. */
static dg_move overlay_walk(const dg_overlay *ov)
{
    dg_move w = *all_pass();
    w.overlay = ov;
    return w;
}
BAD(distance_overlay_flag, dg_distance_map, "overlay flags with an unknown bit (8)", DG_E_INVALID,
    "overlay")
{
    dg_overlay ov = {8u, 0, ENV_H * 12, zero_mask(), NULL, NULL};
    dg_move w = overlay_walk(&ov);
    dg_point src = {0, 0};
    return dg_distance_map(e->g, &w, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(distance_overlay_null, dg_distance_map, "overlay BLOCKED flagged, blocked NULL", DG_E_INVALID,
    "blocked")
{
    dg_overlay ov = {DG_OVERLAY_BLOCKED, 0, ENV_H * 12, NULL, NULL, NULL};
    dg_move w = overlay_walk(&ov);
    dg_point src = {0, 0};
    return dg_distance_map(e->g, &w, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(distance_overlay_stride, dg_distance_map, "overlay stride < width, and -1", DG_E_INVALID,
    "stride")
{
    dg_overlay ov = {DG_OVERLAY_COST, -1, ENV_H * 12, NULL, zero_mask(), NULL};
    dg_move w = overlay_walk(&ov);
    dg_point src = {0, 0};
    if (dg_distance_map(e->g, &w, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, NULL) !=
        DG_E_INVALID)
        return DG_OK;
    ov.stride = ENV_W - 1;
    return dg_distance_map(e->g, &w, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(distance_overlay_small, dg_distance_map, "overlay cells one short", DG_E_BUFFER, "blocked")
{
    dg_overlay ov = {DG_OVERLAY_BLOCKED, 0, (ENV_H - 1) * 12 + ENV_W - 1, zero_mask(), NULL, NULL};
    dg_move w = overlay_walk(&ov);
    dg_point src = {0, 0};
    return dg_distance_map(e->g, &w, &src, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL, diag);
}
BAD(dijkstra_count, dg_dijkstra_map, "source_count 0 and -1", DG_E_INVALID, "source_count")
{
    dg_point src = {0, 0};
    int32_t cost = 0;
    if (dg_dijkstra_map(e->g, all_pass(), &src, &cost, -1, 0, (int32_t *)e->out, ENV_CELLS, NULL,
                        NULL, NULL) != DG_E_INVALID)
        return DG_OK;
    return dg_dijkstra_map(e->g, all_pass(), &src, &cost, 0, 0, (int32_t *)e->out, ENV_CELLS,
                           NULL, NULL, diag);
}
BAD(dijkstra_null, dg_dijkstra_map, "sources NULL", DG_E_NULL, "sources")
{
    return dg_dijkstra_map(e->g, all_pass(), NULL, NULL, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL,
                           NULL, diag);
}
BAD(dijkstra_wall_source, dg_dijkstra_map, "source on a wall / outside the grid", DG_E_INVALID,
    "source")
{
    dg_point src = {ENV_W, 0};
    return dg_dijkstra_map(e->g, NULL, &src, NULL, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL,
                           diag);
}
BAD(dijkstra_negative, dg_dijkstra_map, "start cost -1, INT32_MIN", DG_E_INVALID, "negative")
{
    dg_point src[2] = {{0, 0}, {1, 1}};
    int32_t cost[2] = {0, INT32_MIN};
    if (dg_dijkstra_map(e->g, all_pass(), src, cost, 2, 0, (int32_t *)e->out, ENV_CELLS, NULL,
                        NULL, NULL) != DG_E_INVALID)
        return DG_OK;
    cost[1] = -1;
    return dg_dijkstra_map(e->g, all_pass(), src, cost, 2, 0, (int32_t *)e->out, ENV_CELLS, NULL,
                           NULL, diag);
}
BAD(dijkstra_overflow, dg_dijkstra_map, "start cost INT32_MAX - 10 (+ the walk's range)",
    DG_E_TOO_LARGE, "overflow")
{
    dg_point src = {0, 0};
    int32_t cost = INT32_MAX - 10;
    return dg_dijkstra_map(e->g, all_pass(), &src, &cost, 1, 0, (int32_t *)e->out, ENV_CELLS,
                           NULL, NULL, diag);
}
BAD(dijkstra_max_distance, dg_dijkstra_map, "max_distance -1", DG_E_INVALID, "max_distance")
{
    dg_point src = {0, 0};
    return dg_dijkstra_map(e->g, all_pass(), &src, NULL, 1, -1, (int32_t *)e->out, ENV_CELLS,
                           NULL, NULL, diag);
}
BAD(dijkstra_small, dg_dijkstra_map, "dist_count one short", DG_E_BUFFER, "dist")
{
    dg_point src = {0, 0};
    return dg_dijkstra_map(e->g, all_pass(), &src, NULL, 1, 0, (int32_t *)e->out, ENV_CELLS - 1,
                           NULL, NULL, diag);
}
BAD(dijkstra_stride, dg_dijkstra_map, "stride < width", DG_E_INVALID, "stride")
{
    dg_point src = {0, 0};
    e->bad.stride = 2;
    return dg_dijkstra_map(&e->bad, all_pass(), &src, NULL, 1, 0, (int32_t *)e->out, ENV_CELLS,
                           NULL, NULL, diag);
}
BAD(dijkstra_overlay_small, dg_dijkstra_map, "overlay cells one short", DG_E_BUFFER, "extra_cost")
{
    dg_overlay ov = {DG_OVERLAY_COST, 0, (ENV_H - 1) * 12 + ENV_W - 1, NULL, zero_mask(), NULL};
    dg_move w = overlay_walk(&ov);
    dg_point src = {0, 0};
    int32_t cost = 3;
    return dg_dijkstra_map(e->g, &w, &src, &cost, 1, 0, (int32_t *)e->out, ENV_CELLS, NULL, NULL,
                           diag);
}
BAD(path_outside, dg_path_find, "an end outside the grid", DG_E_INVALID, "")
{
    dg_point a = {0, 0}, b = {INT32_MIN, 3};
    int32_t len = 0;
    return dg_path_find(e->g, NULL, a, b, NULL, (dg_point *)e->out, 16, &len, NULL, diag);
}
BAD(path_null_length, dg_path_find, "length NULL", DG_E_NULL, "length")
{
    dg_point a = {0, 0}, b = {1, 1};
    return dg_path_find(e->g, all_pass(), a, b, NULL, (dg_point *)e->out, 16, NULL, NULL, diag);
}
BAD(path_null_path, dg_path_find, "path NULL with path_cap 16", DG_E_NULL, "path")
{
    dg_point a = {0, 0}, b = {1, 1};
    int32_t len = 0;
    return dg_path_find(e->g, all_pass(), a, b, NULL, NULL, 16, &len, NULL, diag);
}
BAD(path_workspace_small, dg_path_find, "workspace for a smaller grid", DG_E_BUFFER, "workspace")
{
    dg_path_workspace *ws = NULL;
    if (dg_path_workspace_create(2, 2, NULL, &ws) != DG_OK)
        return DG_OK;
    uint8_t pass[256];
    memset(pass, 1, sizeof pass);
    dg_move w;
    dg_move_defaults(&w);
    w.passable = pass;
    dg_point a = {0, 0}, b = {ENV_W - 1, ENV_H - 1};
    int32_t len = 0;
    dg_status st = dg_path_find(e->g, &w, a, b, ws, (dg_point *)e->out, 16, &len, NULL, diag);
    dg_path_workspace_free(ws);
    return st;
}
BAD(path_overlay_null, dg_path_find, "overlay COST flagged, extra_cost NULL", DG_E_INVALID,
    "extra_cost")
{
    dg_overlay ov = {DG_OVERLAY_COST, 0, ENV_H * 12, zero_mask(), NULL, NULL};
    dg_move w = overlay_walk(&ov);
    dg_point a = {0, 0}, b = {1, 1};
    int32_t len = 0;
    return dg_path_find(e->g, &w, a, b, NULL, (dg_point *)e->out, 16, &len, NULL, diag);
}
BAD(path_overlay_small, dg_path_find, "overlay cells one short", DG_E_BUFFER, "blocked")
{
    dg_overlay ov = {DG_OVERLAY_BLOCKED, 0, (ENV_H - 1) * 12 + ENV_W - 1, zero_mask(), NULL, NULL};
    dg_move w = overlay_walk(&ov);
    dg_point a = {0, 0}, b = {1, 1};
    int32_t len = 0;
    return dg_path_find(e->g, &w, a, b, NULL, (dg_point *)e->out, 16, &len, NULL, diag);
}
BAD(regions_overlay_flag, dg_regions, "overlay flags with an unknown bit (0x80000000)",
    DG_E_INVALID, "overlay")
{
    dg_overlay ov = {0x80000000u, 0, ENV_H * 12, zero_mask(), NULL, NULL};
    dg_move w = overlay_walk(&ov);
    return dg_regions(e->g, &w, (int32_t *)e->out, ENV_CELLS, NULL, 0, NULL, NULL, diag);
}
BADV(tile_transparent_user, dg_tile_transparent, "tile 255", 0, "0")
{
    UNUSED_ENV;
    return dg_tile_transparent(255);
}
BADV(fov_bounds_bad, dg_fov_bounds, "grid NULL, origin outside, radius -1", 1, "an empty rect")
{
    (void)diag;
    dg_point in = {1, 1}, out = {-5, 2};
    dg_rect a = dg_fov_bounds(NULL, in, 3), b = dg_fov_bounds(e->g, out, 3);
    dg_rect c = dg_fov_bounds(e->g, in, -1);
    return a.w * a.h == 0 && b.w * b.h == 0 && c.w * c.h == 0;
}
BAD(fov_origin, dg_fov, "origin outside the grid", DG_E_INVALID, "origin")
{
    dg_point o = {ENV_W, 0};
    return dg_fov(e->g, NULL, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_radius, dg_fov, "radius -1", DG_E_INVALID, "radius")
{
    dg_point o = {1, 1};
    return dg_fov(e->g, NULL, o, -1, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_small, dg_fov, "visible_count one short", DG_E_BUFFER, "")
{
    dg_point o = {1, 1};
    return dg_fov(e->g, NULL, o, 0, e->out, ENV_CELLS - 1, NULL, diag);
}
BAD(fov_null, dg_fov, "visible NULL", DG_E_NULL, "")
{
    dg_point o = {1, 1};
    return dg_fov(e->g, NULL, o, 4, NULL, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_flag, dg_fov_overlay, "overlay flags with an unknown bit (8)", DG_E_INVALID,
    "overlay")
{
    dg_overlay ov = {DG_OVERLAY_SIGHT | 8u, 0, ENV_H * 12, NULL, NULL, zero_mask()};
    dg_point o = {1, 1};
    return dg_fov_overlay(e->g, NULL, &ov, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_null, dg_fov_overlay, "overlay SIGHT flagged, sight NULL", DG_E_INVALID, "sight")
{
    dg_overlay ov = {DG_OVERLAY_SIGHT, 0, ENV_H * 12, NULL, NULL, NULL};
    dg_point o = {1, 1};
    return dg_fov_overlay(e->g, NULL, &ov, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_stride, dg_fov_overlay, "overlay stride < width, and INT32_MIN", DG_E_INVALID,
    "stride")
{
    dg_overlay ov = {DG_OVERLAY_SIGHT, INT32_MIN, ENV_H * 12, NULL, NULL, zero_mask()};
    dg_point o = {1, 1};
    if (dg_fov_overlay(e->g, NULL, &ov, o, 4, e->out, ENV_CELLS, NULL, NULL) != DG_E_INVALID)
        return DG_OK;
    ov.stride = ENV_W - 1;
    return dg_fov_overlay(e->g, NULL, &ov, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_small, dg_fov_overlay, "overlay cells one short", DG_E_BUFFER, "sight")
{
    dg_overlay ov = {DG_OVERLAY_SIGHT, 0, (ENV_H - 1) * 12 + ENV_W - 1, NULL, NULL, zero_mask()};
    dg_point o = {1, 1};
    return dg_fov_overlay(e->g, NULL, &ov, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_origin, dg_fov_overlay, "origin outside the grid", DG_E_INVALID, "origin")
{
    dg_point o = {-1, 0};
    return dg_fov_overlay(e->g, NULL, NULL, o, 4, e->out, ENV_CELLS, NULL, diag);
}
BAD(fov_overlay_visible, dg_fov_overlay, "visible_count one short", DG_E_BUFFER, "visible")
{
    dg_overlay ov = {DG_OVERLAY_SIGHT, 0, ENV_H * 12, NULL, NULL, zero_mask()};
    dg_point o = {1, 1};
    return dg_fov_overlay(e->g, NULL, &ov, o, 0, e->out, ENV_CELLS - 1, NULL, diag);
}
BAD(measure_null, dg_measure, "metrics NULL", DG_E_NULL, "metrics")
{
    return dg_measure(e->g, NULL, NULL, NULL, diag);
}
BAD(measure_stride, dg_measure, "stride < width", DG_E_INVALID, "stride")
{
    e->bad.stride = 3;
    return dg_measure(&e->bad, NULL, (dg_metrics *)e->out, NULL, diag);
}
BAD(survey_null, dg_survey_map, "quality NULL", DG_E_NULL, "quality")
{
    return dg_survey_map(e->g, NULL, NULL, NULL, diag);
}
BAD(survey_stride, dg_survey_map, "stride < width", DG_E_INVALID, "stride")
{
    e->bad.stride = 3;
    return dg_survey_map(&e->bad, NULL, (dg_quality *)e->out, NULL, diag);
}
BAD(chokepoints_small, dg_chokepoints, "mask_count one short", DG_E_BUFFER, "")
{
    return dg_chokepoints(e->g, NULL, e->out, ENV_CELLS - 1, NULL, NULL, diag);
}
BAD(chokepoints_null, dg_chokepoints, "mask NULL", DG_E_NULL, "")
{
    return dg_chokepoints(e->g, NULL, NULL, ENV_CELLS, NULL, NULL, diag);
}
BADV(lock_defaults_null, dg_lock_defaults, "params NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_lock_defaults(NULL);
    return 0;
}
BAD(lock_null, dg_lock_place, "params NULL", DG_E_NULL, "params")
{
    return dg_lock_place(e->g, NULL, 1, &e->result, NULL, NULL, diag);
}
BAD(lock_range, dg_lock_place, "locks 17", DG_E_INVALID, "locks")
{
    dg_lock_params p;
    dg_lock_defaults(&p);
    p.locks = DG_LOCKS_MAX + 1;
    return dg_lock_place(e->g, &p, 1, &e->result, NULL, NULL, diag);
}
BAD(lock_no_start, dg_lock_place, "result without a start", DG_E_INVALID, "start")
{
    dg_lock_params p;
    dg_lock_defaults(&p);
    e->result.start = (dg_point){-1, -1};
    return dg_lock_place(e->g, &p, 1, &e->result, NULL, NULL, diag);
}
BAD(solve_null, dg_solve, "progress NULL", DG_E_NULL, "progress")
{
    return dg_solve(e->g, &e->result, NULL, NULL, diag);
}
BAD(solve_no_start, dg_solve, "result without a start", DG_E_INVALID, "start")
{
    e->result.start = (dg_point){-1, -1};
    return dg_solve(e->g, &e->result, (dg_progress *)e->out, NULL, diag);
}
/* ---- room roles: every error row leaves the result without labels ---------------- */
static int64_t roles_untouched(const bad_env *e, int64_t st)
{
    return e->result.label_count == 0 && e->result.labels == NULL ? st : 1;
}
BADV(role_rule_init_null, dg_role_rule_init, "rule NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_role_rule_init(NULL, "boss");
    return 0;
}
BAD(roles_builtin_null, dg_roles_builtin, "count NULL", DG_E_NULL, NULL)
{
    (void)diag;
    return dg_roles_builtin((dg_role_rule *)e->out, 8, NULL);
}
BAD(roles_builtin_small, dg_roles_builtin, "cap 7 (one short)", DG_E_BUFFER, NULL)
{
    int32_t n = 0;
    (void)diag;
    dg_status st = dg_roles_builtin((dg_role_rule *)e->out, 7, &n);
    return n == 8 ? st : 1;
}
BAD(roles_parse_null, dg_roles_parse, "text NULL, length 4", DG_E_NULL, "text")
{
    int32_t n = 0;
    return dg_roles_parse(NULL, 4, "t", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_parse_key, dg_roles_parse, "unknown key", DG_E_INVALID, "t:1:6: unknown key")
{
    int32_t n = 0;
    return dg_roles_parse("boss size=3\n", 12, "t", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_parse_word, dg_roles_parse, "unknown word", DG_E_INVALID, "t:1:12: unknown route")
{
    int32_t n = 0;
    return dg_roles_parse("boss route=up\n", 14, "t", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_parse_inverted, dg_roles_parse, "count=3..1", DG_E_INVALID, "t:1:12: range min")
{
    int32_t n = 0;
    return dg_roles_parse("boss count=3..1\n", 16, "t", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_parse_bounds, dg_roles_parse, "rank=0..1001", DG_E_INVALID, "t:1:11: range outside")
{
    int32_t n = 0;
    return dg_roles_parse("boss rank=0..1001\n", 18, "t", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_parse_cap, dg_roles_parse, "cap -1", DG_E_INVALID, "cap")
{
    int32_t n = 0;
    return dg_roles_parse("boss\n", 5, "t", (dg_role_rule *)e->out, -1, &n, diag);
}
BAD(roles_load_null, dg_roles_load, "path NULL", DG_E_NULL, "path")
{
    int32_t n = 0;
    return dg_roles_load(NULL, (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_load_missing, dg_roles_load, "no such file", DG_E_INVALID, "cannot open")
{
    int32_t n = 0;
    return dg_roles_load("/nonexistent/roles.txt", (dg_role_rule *)e->out, 4, &n, diag);
}
BAD(roles_check_count, dg_roles_check, "count -1", DG_E_INVALID, "count")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    (void)e;
    return dg_roles_check(&r, -1, diag);
}
BAD(roles_check_null, dg_roles_check, "rules NULL, count 1", DG_E_NULL, "rules")
{
    (void)e;
    return dg_roles_check(NULL, 1, diag);
}
BAD(roles_check_area, dg_roles_check, "area_min > area_max", DG_E_INVALID, "area range")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    r.area_min = 10, r.area_max = 9;
    (void)e;
    return dg_roles_check(&r, 1, diag);
}
BAD(roles_check_dup, dg_roles_check, "two rules named boss", DG_E_INVALID, "earlier rule")
{
    dg_role_rule r[2];
    dg_role_rule_init(&r[0], "boss");
    dg_role_rule_init(&r[1], "boss");
    (void)e;
    return dg_roles_check(r, 2, diag);
}
BAD(roles_null_grid, dg_roles, "grid NULL", DG_E_NULL, "grid")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    return roles_untouched(e, dg_roles(NULL, &r, 1, 1, &e->result, NULL, NULL, diag));
}
BAD(roles_null_result, dg_roles, "result NULL", DG_E_NULL, "result")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    return dg_roles(e->g, &r, 1, 1, NULL, (dg_role_report *)e->out, NULL, diag);
}
BAD(roles_count, dg_roles, "count -1", DG_E_INVALID, "count")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    return roles_untouched(e, dg_roles(e->g, &r, -1, 1, &e->result, NULL, NULL, diag));
}
BAD(roles_count_range, dg_roles, "count_min 2 > count_max 1", DG_E_INVALID, "count range")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    r.count_min = 2;
    return roles_untouched(e, dg_roles(e->g, &r, 1, 1, &e->result, NULL, NULL, diag));
}
BAD(roles_rank, dg_roles, "rank_max 1001", DG_E_INVALID, "rank range")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    r.rank_max = 1001;
    return roles_untouched(e, dg_roles(e->g, &r, 1, 1, &e->result, NULL, NULL, diag));
}
BAD(roles_spare, dg_roles, "spare[0] 1", DG_E_INVALID, "spare")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    r.spare[0] = 1;
    return roles_untouched(e, dg_roles(e->g, &r, 1, 1, &e->result, NULL, NULL, diag));
}
BAD(roles_no_start, dg_roles, "result without a start", DG_E_INVALID, "start")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    return roles_untouched(e, dg_roles(e->g, &r, 1, 1, &e->result, (dg_role_report *)e->out,
                                       NULL, diag));
}
BAD(roles_stride, dg_roles, "stride < width", DG_E_INVALID, "stride")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    e->bad.stride = 3;
    return roles_untouched(e, dg_roles(&e->bad, &r, 1, 1, &e->result, NULL, NULL, diag));
}
BAD(anchor_null, dg_anchor_place, "anchors NULL, count 1", DG_E_NULL, "anchors")
{
    return dg_anchor_place(e->g, NULL, 1, &e->result, NULL, diag);
}
BAD(anchor_count, dg_anchor_place, "count DG_ANCHORS_MAX + 1", DG_E_INVALID, "anchors")
{
    dg_point p[DG_ANCHORS_MAX + 1] = {{0, 0}};
    return dg_anchor_place(e->g, p, DG_ANCHORS_MAX + 1, &e->result, NULL, diag);
}
BAD(anchor_negative, dg_anchor_place, "count -1", DG_E_INVALID, "anchors")
{
    dg_point p = {1, 1};
    return dg_anchor_place(e->g, &p, -1, &e->result, NULL, diag);
}
BAD(anchor_outside, dg_anchor_place, "anchor (9, 3) outside a 9x7 grid", DG_E_INVALID, "outside")
{
    dg_point p = {9, 3};
    return dg_anchor_place(e->g, &p, 1, &e->result, NULL, diag);
}
BAD(anchor_user_tile, dg_anchor_place, "anchor on a caller's tile", DG_E_NOSPACE, "stays")
{
    dg_point p = {4, 3};
    return dg_anchor_place(e->g, &p, 1, &e->result, NULL, diag);
}
BAD(floor_stairs_null, dg_floor_stairs, "stairs NULL", DG_E_NULL, "stairs")
{
    return dg_floor_stairs(1, 0, 80, 50, 1, NULL, diag);
}
BAD(floor_stairs_link, dg_floor_stairs, "link -1", DG_E_INVALID, "link")
{
    return dg_floor_stairs(1, -1, 80, 50, 1, (dg_point *)e->out, diag);
}
BAD(floor_stairs_count, dg_floor_stairs, "count DG_STAIRS_MAX + 1", DG_E_INVALID, "stairs")
{
    return dg_floor_stairs(1, 0, 80, 50, DG_STAIRS_MAX + 1, (dg_point *)e->out, diag);
}
BAD(floor_stairs_small, dg_floor_stairs, "width 13", DG_E_TOO_SMALL, "each side")
{
    return dg_floor_stairs(1, 0, 13, 50, 1, (dg_point *)e->out, diag);
}
BAD(floor_stairs_huge, dg_floor_stairs, "width INT32_MAX", DG_E_INVALID, "each side")
{
    return dg_floor_stairs(1, 0, INT32_MAX, 50, 1, (dg_point *)e->out, diag);
}
BAD(floor_null, dg_floor_generate, "recipe NULL", DG_E_NULL, "recipe")
{
    return dg_floor_generate(NULL, 0, 2, 1, e->g, NULL, &e->result, NULL, NULL, diag);
}
BAD(floor_floors, dg_floor_generate, "floors 0", DG_E_INVALID, "floors")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    return dg_floor_generate(&rc, 0, 0, 1, e->g, NULL, &e->result, NULL, NULL, diag);
}
BAD(floor_past_last, dg_floor_generate, "floor 2 of 2", DG_E_INVALID, "floor 2")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    return dg_floor_generate(&rc, 2, 2, 1, e->g, NULL, &e->result, NULL, NULL, diag);
}
BAD(floor_stairs_zero, dg_floor_generate, "stairs 0", DG_E_INVALID, "stairs")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    return dg_floor_generate(&rc, 0, 2, 0, e->g, NULL, &e->result, NULL, NULL, diag);
}
BAD(floor_small, dg_floor_generate, "a 9x7 grid with two floors", DG_E_TOO_SMALL, "each side")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    return dg_floor_generate(&rc, 0, 2, 1, e->g, NULL, &e->result, NULL, NULL, diag);
}
BADV(site_init_null, dg_site_init, "site NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_site_init(NULL);
    return 0;
}
BAD(site_stride, dg_recipe_generate_site, "reserved_stride 8 on a 9-wide grid", DG_E_INVALID,
    "reserved_stride")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    dg_site site;
    dg_site_init(&site);
    site.reserved = e->out;
    site.reserved_stride = ENV_W - 1;
    return dg_recipe_generate_site(&rc, &site, e->g, NULL, &e->result, NULL, diag);
}
BAD(site_all_reserved, dg_recipe_generate_site, "every cell reserved", DG_E_NOSPACE, "reserved")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    dg_site site;
    dg_site_init(&site);
    site.reserved = e->out; /* OUT_FILL everywhere: all reserved */
    return dg_recipe_generate_site(&rc, &site, e->g, NULL, &e->result, NULL, diag);
}
BAD(site_anchor_outside, dg_recipe_generate_site, "anchor (-1, 0)", DG_E_INVALID, "outside")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    dg_site site;
    dg_site_init(&site);
    site.anchor_count = 1;
    site.anchors[0] = (dg_point){-1, 0};
    return dg_recipe_generate_site(&rc, &site, e->g, NULL, &e->result, NULL, diag);
}
BAD(site_anchor_count, dg_recipe_generate_site, "anchor_count DG_ANCHORS_MAX + 1", DG_E_INVALID,
    "anchor_count")
{
    dg_recipe rc;
    dg_recipe_init(&rc, "attach", 1, ENV_W, ENV_H);
    dg_site site;
    dg_site_init(&site);
    site.anchor_count = DG_ANCHORS_MAX + 1;
    return dg_recipe_generate_site(&rc, &site, e->g, NULL, &e->result, NULL, diag);
}
static void bad_sink(void *user, const char *data, size_t len)
{
    (void)user, (void)data, (void)len;
}
BAD(export_floors_null, dg_export_floors, "grids NULL", DG_E_NULL, "grids")
{
    return dg_export_floors(NULL, NULL, 2, NULL, bad_sink, NULL, diag);
}
BAD(export_floors_count, dg_export_floors, "count 0", DG_E_INVALID, "floors")
{
    return dg_export_floors(e->g, NULL, 0, NULL, bad_sink, NULL, diag);
}
BAD(export_floors_json, dg_export_floors, "format JSON", DG_E_INVALID, "Tiled")
{
    dg_export_options o;
    dg_export_defaults(&o);
    return dg_export_floors(e->g, NULL, 1, &o, bad_sink, NULL, diag);
}
BAD(export_floors_sizes, dg_export_floors, "floors of two sizes", DG_E_INVALID, "floor 1")
{
    dg_grid two[2] = {*e->g, *e->g};
    two[1].width = ENV_W - 1;
    return dg_export_floors(two, NULL, 2, NULL, bad_sink, NULL, diag);
}
BAD(export_floors_write, dg_export_floors, "write NULL", DG_E_NULL, "write")
{
    return dg_export_floors(e->g, NULL, 1, NULL, NULL, NULL, diag);
}
BAD(place_no_floor, dg_place, "a grid without a passable cell", DG_E_NOSPACE, "")
{
    return dg_place(e->g, NULL, 1, &e->result, (dg_placement *)e->out, NULL, 0, NULL, diag);
}
BAD(place_null, dg_place, "placement NULL", DG_E_NULL, "placement")
{
    return dg_place(e->g, NULL, 1, &e->result, NULL, NULL, 0, NULL, diag);
}
BAD(place_spawns_cap, dg_place, "spawn_count 5 with spawns_cap 2", DG_E_BUFFER, "spawns")
{
    dg_place_params p;
    dg_place_defaults(&p);
    p.spawn_count = 5;
    return dg_place(e->g, &p, 1, &e->result, (dg_placement *)e->out, (dg_point *)(e->out + 64), 2,
                    NULL, diag);
}
BAD(place_spawns_neg, dg_place, "spawn_count -1", DG_E_INVALID, "spawn_count")
{
    dg_place_params p;
    dg_place_defaults(&p);
    p.spawn_count = -1;
    return dg_place(e->g, &p, 1, &e->result, (dg_placement *)e->out, NULL, 0, NULL, diag);
}
BADV(floor_seed_extremes, dg_floor_seed, "floor INT32_MIN / INT32_MAX", 1, "distinct seeds")
{
    UNUSED_ENV;
    return dg_floor_seed(1, INT32_MIN) != dg_floor_seed(1, INT32_MAX);
}

/* ---- world and explorer --------------------------------------------------------------------------- */
static const dg_world *world0(const bad_env *e)
{
    return e->ctx->worlds[0];
}
BAD(world_create_null, dg_world_create, "world output NULL", DG_E_NULL, "world")
{
    (void)e;
    return dg_world_create(NULL, 1, NULL, NULL, diag);
}
BAD(world_create_size, dg_world_create, "room_size 4 (even), 1, 127, INT32_MAX", DG_E_INVALID,
    "room_size")
{
    (void)e;
    int32_t sizes[4] = {4, 1, 127, INT32_MAX};
    dg_status st = DG_E_INVALID;
    for (int i = 0; i < 4; i++)
    {
        dg_world_params p;
        dg_world_defaults(&p);
        p.room_size = sizes[i];
        dg_world *w = NULL;
        if (dg_world_create(&p, 1, NULL, &w, diag) != DG_E_INVALID || w)
            st = DG_OK;
    }
    return st;
}
BAD(world_create_permille, dg_world_create, "loop_permille -1", DG_E_INVALID, "loop_permille")
{
    (void)e;
    dg_world_params p;
    dg_world_defaults(&p);
    p.loop_permille = -1;
    dg_world *w = NULL;
    return dg_world_create(&p, 1, NULL, &w, diag);
}
BAD(world_create_curve, dg_world_create, "curve distances not increasing", DG_E_INVALID, "curve")
{
    (void)e;
    dg_world_params p;
    dg_world_defaults(&p);
    p.curve_distance[1] = 0;
    dg_world *w = NULL;
    return dg_world_create(&p, 1, NULL, &w, diag);
}
BAD(world_create_variants, dg_world_create, "variants 0, curve_points 9", DG_E_INVALID, "")
{
    (void)e;
    dg_world_params p;
    dg_world_defaults(&p);
    p.variants = 0, p.curve_points = 9;
    dg_world *w = NULL;
    return dg_world_create(&p, 1, NULL, &w, diag);
}
BADV(world_free_null, dg_world_free, "world NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_world_free(NULL);
    dg_explorer_free(NULL);
    return 0;
}
BAD(world_room_range, dg_world_room_info, "x = 2^40 + 1, y = INT64_MIN", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_world_room room;
    memset(&room, 0x11, sizeof room);
    dg_world_room before = room;
    dg_status a = dg_world_room_info(world0(e), DG_WORLD_COORD_MAX + 1, 0, &room);
    dg_status b = dg_world_room_info(world0(e), 0, INT64_MIN, &room);
    return a == b && memcmp(&room, &before, sizeof room) == 0 ? a : DG_OK;
}
BAD(world_room_null, dg_world_room_info, "world NULL, room NULL", DG_E_NULL, NULL)
{
    (void)diag;
    dg_world_room room;
    dg_status a = dg_world_room_info(NULL, 0, 0, &room);
    dg_status b = dg_world_room_info(world0(e), 0, 0, NULL);
    return a == b ? a : DG_OK;
}
BADV(world_period_null, dg_world_period, "world NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_world_period(NULL);
}
BADV(world_room_of_tile_bad, dg_world_room_of_tile, "tile INT64_MIN / INT64_MAX", 1,
     "DG_OK, the room by floor division, no overflow")
{
    (void)diag;
    int64_t x = 5, y = 5, p = dg_world_period(world0(e));
    dg_status a = dg_world_room_of_tile(world0(e), INT64_MIN, INT64_MAX, &x, &y);
    return a == DG_OK && x == INT64_MIN / p - (INT64_MIN % p != 0) && y == INT64_MAX / p;
}
BAD(world_room_of_tile_null, dg_world_room_of_tile, "world NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    int64_t x = 0, y = 0;
    return dg_world_room_of_tile(NULL, 0, 0, &x, &y);
}
BAD(world_render_range, dg_world_render, "window past the range (INT64_MAX)", DG_E_INVALID,
    "range")
{
    return dg_world_render(world0(e), INT64_MAX, 0, e->g, NULL, 0, NULL, diag);
}
BAD(world_render_capacity, dg_world_render, "capacity -1; capacity 4 with markers NULL",
    DG_E_INVALID, "capacity")
{
    dg_status a = dg_world_render(world0(e), 0, 0, e->g, (dg_world_marker *)e->out, -1, NULL,
                                  diag);
    dg_status b = dg_world_render(world0(e), 0, 0, e->g, NULL, 4, NULL, diag);
    return a == b ? a : DG_OK;
}
BAD(world_render_null, dg_world_render, "world NULL", DG_E_NULL, "world")
{
    return dg_world_render(NULL, 0, 0, e->g, NULL, 0, NULL, diag);
}
BAD(explorer_create_null, dg_explorer_create, "world NULL, explorer output NULL", DG_E_NULL, NULL)
{
    (void)diag;
    dg_explorer *x = NULL;
    dg_status a = dg_explorer_create(NULL, NULL, &x);
    dg_status b = dg_explorer_create(world0(e), NULL, NULL);
    return a == b && !x ? a : DG_OK;
}
BADV(explorer_free_null, dg_explorer_free, "explorer NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_explorer_free(NULL);
    return 0;
}
/* Each explorer row works on its own explorer with one entered room. */
static dg_explorer *one_room_explorer(const bad_env *e)
{
    dg_explorer *x = NULL;
    if (dg_explorer_create(world0(e), NULL, &x) != DG_OK)
        return NULL;
    (void)dg_explorer_enter(x, 0, 0, NULL);
    return x;
}
BAD(explorer_enter_range, dg_explorer_enter, "room (2^40 + 1, 0), (0, INT64_MIN)", DG_E_INVALID,
    NULL)
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    dg_status a = dg_explorer_enter(x, DG_WORLD_COORD_MAX + 1, 0, NULL);
    dg_status b = dg_explorer_enter(x, 0, INT64_MIN, NULL);
    int same = dg_explorer_count(x) == 1;
    dg_explorer_free(x);
    return a == b && same ? a : DG_OK;
}
BAD(explorer_enter_null, dg_explorer_enter, "explorer NULL", DG_E_NULL, NULL)
{
    UNUSED_ENV;
    return dg_explorer_enter(NULL, 0, 0, NULL);
}
BADV(explorer_count_null, dg_explorer_count, "explorer NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_explorer_count(NULL);
}
BADV(explorer_status_bad, dg_explorer_status, "explorer NULL, room out of range",
     DG_EXPLORE_UNSEEN, "DG_EXPLORE_UNSEEN")
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    int32_t a = dg_explorer_status(NULL, 0, 0), b = dg_explorer_status(x, INT64_MAX, 0);
    dg_explorer_free(x);
    return a == b ? a : -1;
}
BAD(explorer_state_unentered, dg_explorer_get_state, "a room not entered", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    uint64_t v = 77;
    dg_status st = dg_explorer_get_state(x, 5, 5, &v);
    dg_explorer_free(x);
    return v == 77 ? st : DG_OK;
}
BAD(explorer_set_state_unentered, dg_explorer_set_state, "a room not entered, explorer NULL",
    DG_E_INVALID, NULL)
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    dg_status st = dg_explorer_set_state(x, -3, 9, 1);
    dg_status n = dg_explorer_set_state(NULL, 0, 0, 1);
    dg_explorer_free(x);
    return n == DG_E_NULL ? st : DG_OK;
}
BAD(explorer_save_small, dg_explorer_save, "capacity 0 with rooms to save", DG_E_BUFFER, NULL)
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    int64_t n = 0;
    dg_status st = dg_explorer_save(x, (dg_world_pos *)e->out, NULL, 0, &n);
    dg_explorer_free(x);
    return n == 1 ? st : DG_OK;
}
BAD(explorer_save_capacity, dg_explorer_save, "capacity -1", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_explorer *x = one_room_explorer(e);
    int64_t n = 0;
    dg_status st = dg_explorer_save(x, (dg_world_pos *)e->out, NULL, -1, &n);
    dg_explorer_free(x);
    return st;
}
BAD(explorer_restore_repeat, dg_explorer_restore, "a room listed twice", DG_E_INVALID, "twice")
{
    dg_explorer *x = one_room_explorer(e);
    dg_world_pos rooms[2] = {{1, 1}, {1, 1}};
    dg_status st = dg_explorer_restore(x, rooms, NULL, 2, diag);
    int same = dg_explorer_count(x) == 1 && dg_explorer_status(x, 0, 0) == DG_EXPLORE_VISITED;
    dg_explorer_free(x);
    return same ? st : DG_OK;
}
BAD(explorer_restore_range, dg_explorer_restore, "count -1, a room out of range",
    DG_E_INVALID, "range")
{
    dg_explorer *x = one_room_explorer(e);
    dg_world_pos rooms[1] = {{INT64_MIN, 0}};
    dg_status a = dg_explorer_restore(x, rooms, NULL, -1, diag);
    dg_status b = dg_explorer_restore(x, rooms, NULL, 1, diag);
    int same = dg_explorer_count(x) == 1;
    dg_explorer_free(x);
    return a == b && same ? a : DG_OK;
}

/* ---- registry, params, recipes ----------------------------------------------------------------------- */
BAD(generator_get_range, dg_generator_get, "index -1, count, INT32_MAX", DG_E_INVALID, NULL)
{
    UNUSED_ENV;
    dg_generator_info info;
    int32_t bad[3] = {-1, dg_generator_count(), INT32_MAX};
    for (int i = 0; i < 3; i++)
        if (dg_generator_get(bad[i], &info) != DG_E_INVALID)
            return DG_OK;
    return DG_E_INVALID;
}
BADV(generator_count_sane, dg_generator_count, "(no input)", 1, "a positive count")
{
    UNUSED_ENV;
    return dg_generator_count() > 0;
}
BADV(generator_find_bad, dg_generator_find, "NULL, \"\", unknown", -1, "-1")
{
    UNUSED_ENV;
    int32_t a = dg_generator_find(NULL), b = dg_generator_find(""), c = dg_generator_find("x");
    return a == b && b == c ? a : 0;
}
BADV(generator_params_bad, dg_generator_params, "NULL or unknown name", 1, "NULL, count 0")
{
    UNUSED_ENV;
    int32_t n = 5, m = 5;
    return !dg_generator_params(NULL, &n) && !dg_generator_params("x", &m) && n == 0 && m == 0;
}
BAD(params_defaults_small, dg_params_defaults, "params_size 1", DG_E_BUFFER, NULL)
{
    (void)diag;
    return dg_params_defaults("attach", e->out, 1);
}
BAD(params_defaults_unknown, dg_params_defaults, "unknown generator, NULL", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_status a = dg_params_defaults("x", e->out, OUT_SIZE);
    dg_status b = dg_params_defaults(NULL, e->out, OUT_SIZE);
    return a == DG_E_INVALID && (b == DG_E_INVALID || b == DG_E_NULL) ? a : DG_OK;
}
BAD(params_set_range, dg_params_set, "room_min_w=2147483648 (past INT32_MAX)", DG_E_INVALID, "")
{
    return dg_params_set("attach", e->out, OUT_SIZE, "room_min_w", "2147483648", diag);
}
BAD(params_set_key, dg_params_set, "unknown key", DG_E_PARSE, "nosuch")
{
    return dg_params_set("attach", e->out, OUT_SIZE, "nosuch", "1", diag);
}
BAD(params_set_value, dg_params_set, "value \"12abc\", \"\"", DG_E_PARSE, "")
{
    dg_status a = dg_params_set("attach", e->out, OUT_SIZE, "room_min_w", "12abc", diag);
    dg_status b = dg_params_set("attach", e->out, OUT_SIZE, "room_min_w", "", diag);
    return a == b ? a : DG_OK;
}
BAD(params_set_null, dg_params_set, "key NULL", DG_E_NULL, "NULL")
{
    return dg_params_set("attach", e->out, OUT_SIZE, NULL, "1", diag);
}
static dg_recipe *env_recipe(bad_env *e)
{
    return (dg_recipe *)(e->out + 1024); /* inside out: must stay untouched */
}
BAD(recipe_init_bad, dg_recipe_init, "unknown generator; width 0; height -1", DG_E_INVALID, NULL)
{
    (void)diag;
    dg_status a = dg_recipe_init(env_recipe(e), "x", 1, 10, 10);
    dg_status b = dg_recipe_init(env_recipe(e), "attach", 1, 0, 10);
    dg_status c = dg_recipe_init(env_recipe(e), "attach", 1, 10, -1);
    return a == b && b == c ? a : DG_OK;
}
/* recipe rows work on a valid recipe they own */
static dg_recipe valid_recipe(void)
{
    dg_recipe r;
    memset(&r, 0, sizeof r);
    (void)dg_recipe_init(&r, "attach", 5, 40, 30);
    return r;
}
BAD(recipe_set_bad, dg_recipe_set, "unknown key; width=0", DG_E_PARSE, "nosuch")
{
    (void)e;
    dg_recipe r = valid_recipe(), before = r;
    dg_status st = dg_recipe_set(&r, "nosuch", "1", diag);
    return memcmp(&r, &before, sizeof r) == 0 ? st : DG_OK;
}
BAD(recipe_set_range, dg_recipe_set, "room_max_w=-5", DG_E_INVALID, "room_max_w")
{
    (void)e;
    dg_recipe r = valid_recipe(), before = r;
    dg_status st = dg_recipe_set(&r, "room_max_w", "-5", diag);
    return memcmp(&r, &before, sizeof r) == 0 ? st : DG_OK;
}
BAD(recipe_set_prefabs_null, dg_recipe_set_prefabs, "recipe NULL; set NULL", DG_E_NULL, NULL)
{
    dg_recipe r = valid_recipe(), before = r;
    dg_status a = dg_recipe_set_prefabs(NULL, shaft(e), "shaft.txt", diag);
    dg_status b = dg_recipe_set_prefabs(&r, NULL, "shaft.txt", diag);
    return a == b && memcmp(&r, &before, sizeof r) == 0 ? b : DG_OK;
}
BAD(recipe_set_prefabs_hint, dg_recipe_set_prefabs, "file hint with a blank", DG_E_INVALID, NULL)
{
    dg_recipe r = valid_recipe(), before = r;
    dg_status st = dg_recipe_set_prefabs(&r, shaft(e), "my prefabs.txt", diag);
    return memcmp(&r, &before, sizeof r) == 0 ? st : DG_OK;
}
BAD(recipe_set_input_which, dg_recipe_set_input, "which 3, hash 0, hint with a blank; recipe NULL", DG_E_INVALID, NULL)
{
    (void)e;
    dg_recipe r = valid_recipe(), before = r;
    dg_status a = dg_recipe_set_input(&r, 3, 1, "g.txt", diag);
    dg_status b = dg_recipe_set_input(&r, DG_RECIPE_GRAPH, 0, "g.txt", diag);
    dg_status c = dg_recipe_set_input(&r, DG_RECIPE_ROLES, 1, "my roles.txt", diag);
    dg_status d = dg_recipe_set_input(NULL, DG_RECIPE_ROLES, 1, "roles.txt", diag);
    int same = memcmp(&r, &before, sizeof r) == 0;
    return same && a == b && b == c && d == DG_E_NULL ? a : DG_OK;
}
BADV(roles_hash_null, dg_roles_hash, "rules NULL; count -1 or 33", 0, "0")
{
    (void)e;
    dg_role_rule rule;
    dg_role_rule_init(&rule, "boss");
    uint64_t a = dg_roles_hash(NULL, 1), b = dg_roles_hash(&rule, -1);
    uint64_t c = dg_roles_hash(&rule, DG_ROLES_MAX + 1);
    return (int64_t)(a | b | c);
}
BADV(role_short_str_unknown, dg_role_short_str, "reason -1, 11, INT32_MIN", 1, "\"unknown\"")
{
    UNUSED_ENV;
    return strcmp(dg_role_short_str(-1), "unknown") == 0 &&
           strcmp(dg_role_short_str(DG_ROLE_SHORT_FEW + 1), "unknown") == 0 &&
           strcmp(dg_role_short_str(INT32_MIN), "unknown") == 0;
}
BADV(prefab_set_hash_null, dg_prefab_set_hash, "set NULL", 0, "0")
{
    (void)e;
    return (int64_t)dg_prefab_set_hash(NULL);
}
BAD(recipe_get_bad, dg_recipe_get, "unknown key; key \"seed\"", DG_E_INVALID, NULL)
{
    (void)diag;
    (void)e;
    dg_recipe r = valid_recipe();
    int32_t v = 77;
    dg_status st = dg_recipe_get(&r, "nosuch", &v);
    return v == 77 ? st : DG_OK;
}
BAD(recipe_print_small, dg_recipe_print, "out_size 4", DG_E_BUFFER, NULL)
{
    (void)diag;
    dg_recipe r = valid_recipe();
    return dg_recipe_print(&r, (char *)e->out, 4, NULL);
}
BAD(recipe_parse_unknown, dg_recipe_parse, "unknown generator", DG_E_PARSE, "nosuch")
{
    return dg_recipe_parse("nosuch seed=1", 13, env_recipe(e), diag);
}
BAD(recipe_generate_inverted, dg_recipe_generate,
    "recipe with room_min_w=9 room_max_w=3 (parses; the generator rejects it)", DG_E_INVALID,
    "room_min_w")
{
    static const char t[] = "attach room_min_w=9 room_max_w=3 width=9 height=7";
    dg_recipe r;
    if (dg_recipe_parse(t, sizeof t - 1, &r, diag) != DG_OK)
        return DG_OK;
    return dg_recipe_generate(&r, e->g, NULL, &e->result, NULL, diag);
}
BAD(recipe_parse_huge, dg_recipe_parse, "width=99999999999", DG_E_INVALID, "width")
{
    static const char t[] = "attach width=99999999999";
    return dg_recipe_parse(t, sizeof t - 1, env_recipe(e), diag);
}
BAD(recipe_parse_cut, dg_recipe_parse, "text cut inside a value (length excludes the rest)",
    DG_E_PARSE, "")
{
    static const char t[] = "attach seed=";
    return dg_recipe_parse(t, sizeof t - 1, env_recipe(e), diag);
}
BAD(recipe_parse_null, dg_recipe_parse, "text NULL", DG_E_NULL, "NULL")
{
    return dg_recipe_parse(NULL, 5, env_recipe(e), diag);
}
BAD(recipe_params_small, dg_recipe_params, "params_size 4", DG_E_BUFFER, NULL)
{
    (void)diag;
    dg_recipe r = valid_recipe();
    return dg_recipe_params(&r, e->out, 4);
}
BAD(recipe_from_params_range, dg_recipe_from_params, "a field out of range", DG_E_INVALID,
    "room_min_w")
{
    (void)e;
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.room_min_w = -3;
    dg_recipe r = valid_recipe(), before = r;
    dg_status st = dg_recipe_from_params(&r, "attach", &p, sizeof p, 1, 40, 30, diag);
    return memcmp(&r, &before, sizeof r) == 0 ? st : DG_OK;
}
BAD(recipe_generate_size, dg_recipe_generate, "grid of another size than the recipe",
    DG_E_INVALID, "")
{
    dg_recipe r = valid_recipe();
    return dg_recipe_generate(&r, e->g, NULL, &e->result, NULL, diag);
}
BAD(recipe_generate_prefabs, dg_recipe_generate, "prefab generator without a set", DG_E_NULL, "")
{
    dg_recipe r;
    if (dg_recipe_init(&r, "prefab-full", 1, ENV_W, ENV_H) != DG_OK)
        return DG_OK;
    return dg_recipe_generate(&r, e->g, NULL, &e->result, NULL, diag);
}

/* ---- export ------------------------------------------------------------------------------------------ */
static void sink(void *user, const char *data, size_t len)
{
    (void)data;
    *(size_t *)user += len;
}
BADV(export_defaults_null, dg_export_defaults, "options NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_export_defaults(NULL);
    return 0;
}
BAD(export_null_write, dg_export, "write callback NULL", DG_E_NULL, "write")
{
    return dg_export(e->g, NULL, NULL, NULL, NULL, diag);
}
BAD(export_format, dg_export, "format 7, tile_width 0", DG_E_INVALID, "")
{
    size_t n = 0;
    dg_export_options o;
    dg_export_defaults(&o);
    o.format = 7, o.tile_width = 0;
    dg_status st = dg_export(e->g, NULL, &o, sink, &n, diag);
    return n == 0 ? st : DG_OK;
}
BAD(export_stride, dg_export, "stride < width", DG_E_INVALID, "stride")
{
    size_t n = 0;
    e->bad.stride = 1;
    dg_status st = dg_export(&e->bad, NULL, NULL, sink, &n, diag);
    return n == 0 ? st : DG_OK;
}
BAD(export_bad_result, dg_export, "result with a room outside the grid (exported as given)",
    DG_OK, NULL)
{
    size_t n = 0;
    dg_room room = {{ENV_W - 1, 0, 5, 5}, 0, -1, 0, -1, 25, DG_SHAPE_RECT};
    dg_result r = e->result;
    r.rooms = &room;
    r.room_count = 1;
    return dg_export(e->g, &r, NULL, sink, &n, diag);
}
BAD(export_buffer_small, dg_export_buffer, "out_size 16", DG_E_BUFFER, "")
{
    size_t need = 0;
    return dg_export_buffer(e->g, NULL, NULL, (char *)e->out, 16, &need, diag);
}
BAD(export_buffer_null, dg_export_buffer, "grid NULL", DG_E_NULL, "grid")
{
    return dg_export_buffer(NULL, NULL, NULL, (char *)e->out, OUT_SIZE, NULL, diag);
}
BAD(tileset_size, dg_export_tileset_rgba, "tile size 0 x 16, 257 x 1, INT32_MAX", DG_E_INVALID,
    NULL)
{
    (void)diag;
    dg_status a = dg_export_tileset_rgba(NULL, 0, 16, e->out, OUT_SIZE);
    dg_status b = dg_export_tileset_rgba(NULL, 257, 1, e->out, OUT_SIZE);
    dg_status c = dg_export_tileset_rgba(NULL, INT32_MAX, INT32_MAX, e->out, OUT_SIZE);
    return a == b && b == c ? a : DG_OK;
}
BAD(tileset_small, dg_export_tileset_rgba, "out_size one byte short", DG_E_BUFFER, NULL)
{
    (void)diag;
    return dg_export_tileset_rgba(NULL, 1, 1, e->out, 16 * 16 * 4 - 1);
}

/* ---- autotiling ------------------------------------------------------------------------ */
BADV(autotile_defaults_null, dg_autotile_defaults, "params NULL", 0, "no effect")
{
    dg_autotile_defaults(NULL);
    return 0;
}
BAD(autotile_null_grid, dg_autotile, "grid NULL", DG_E_NULL, "grid")
{
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    return dg_autotile(NULL, &p, e->out, OUT_SIZE, 0, NULL, diag);
}
BAD(autotile_null_out, dg_autotile, "out NULL", DG_E_NULL, "out")
{
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    return dg_autotile(e->g, &p, NULL, OUT_SIZE, 0, NULL, diag);
}
BAD(autotile_short, dg_autotile, "out_size one byte short", DG_E_BUFFER, "needs")
{
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    return dg_autotile(e->g, &p, e->out, ENV_W * ENV_H - 1, 0, NULL, diag);
}
BAD(autotile_no_class, dg_autotile, "no tile in self_class", DG_E_INVALID, "self_class")
{
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    p.self_class = 9;
    return dg_autotile(e->g, &p, e->out, OUT_SIZE, 0, NULL, diag);
}
BAD(autotile_stride, dg_autotile, "out_stride shorter than a row", DG_E_INVALID, "out_stride")
{
    dg_autotile_params p;
    dg_autotile_defaults(&p);
    return dg_autotile(e->g, &p, e->out, OUT_SIZE, ENV_W - 1, NULL, diag);
}
BADV(autotile_blob_mask_bad, dg_autotile_blob_mask, "index -1, 47", -1, "-1")
{
    return dg_autotile_blob_mask(-1) == -1 ? dg_autotile_blob_mask(47) : 0;
}
BAD(autotile_tileset_size, dg_autotile_tileset_rgba, "tile size 0, 257", DG_E_INVALID, "tile size")
{
    dg_status a = dg_autotile_tileset_rgba(DG_AUTOTILE_BLOB, 0xFFFFFFFFu, 0xFFu, 0, e->out, OUT_SIZE, diag);
    return a == DG_E_INVALID ? dg_autotile_tileset_rgba(DG_AUTOTILE_BLOB, 0xFFFFFFFFu, 0xFFu, 257, e->out, OUT_SIZE, diag) : a;
}
BAD(autotile_tileset_small, dg_autotile_tileset_rgba, "out_size one byte short", DG_E_BUFFER, "needs")
{
    return dg_autotile_tileset_rgba(DG_AUTOTILE_CORNER, 0xFFFFFFFFu, 0xFFu, 2, e->out, 8 * 2 * 2 * 2 * 4 - 1, diag);
}
BAD(art_tileset_size, dg_art_tileset_rgba, "tile size 0", DG_E_INVALID, "tile size")
{
    return dg_art_tileset_rgba(NULL, 0, e->out, OUT_SIZE, diag);
}
BAD(art_tileset_small, dg_art_tileset_rgba, "out_size one byte short", DG_E_BUFFER, "needs")
{
    return dg_art_tileset_rgba(NULL, 1, e->out, 8 * DG_ART_ROWS * 4 - 1, diag);
}
BAD(render_art_scale, dg_render_art_rgba, "scale 0", DG_E_INVALID, "scale")
{
    return dg_render_art_rgba(e->g, NULL, 0, e->out, OUT_SIZE, NULL, diag);
}
BAD(render_art_small, dg_render_art_rgba, "out_size one byte short", DG_E_BUFFER, "needs")
{
    return dg_render_art_rgba(e->g, NULL, 1, e->out, ENV_W * ENV_H * 4 - 1, NULL, diag);
}

/* ---- level graphs ----------------------------------------------------------------------- */
/* A valid two-room graph in static arrays the rows may break: 1 if the check
 * changed a byte of it. */
static dg_graph_node bad_graph_nodes[2];
static dg_graph_edge bad_graph_edge;
static void bad_graph(dg_graph *g)
{
    dg_graph_init(g);
    memset(bad_graph_nodes, 0, sizeof bad_graph_nodes);
    for (int i = 0; i < 2; i++)
    {
        bad_graph_nodes[i].name[0] = (char)('a' + i);
        bad_graph_nodes[i].width_min = bad_graph_nodes[i].height_min = 3;
        bad_graph_nodes[i].width_max = bad_graph_nodes[i].height_max = 5;
    }
    memset(&bad_graph_edge, 0, sizeof bad_graph_edge);
    bad_graph_edge.b = 1;
    bad_graph_edge.key_node = -1;
    g->nodes = bad_graph_nodes;
    g->node_count = 2;
    g->edges = &bad_graph_edge;
    g->edge_count = 1;
}
static int64_t bad_graph_check(dg_graph *g, dg_diag *diag)
{
    dg_graph copy = *g;
    dg_graph_node nodes[2];
    memcpy(nodes, bad_graph_nodes, sizeof nodes);
    dg_status st = dg_graph_check(g, diag);
    return memcmp(&copy, g, sizeof copy) || memcmp(nodes, bad_graph_nodes, sizeof nodes) ? 1 : st;
}
/* 1 if a failed parse left anything in the graph. */
static int64_t bad_graph_empty(dg_status st, const dg_graph *g)
{
    dg_graph z;
    dg_graph_init(&z);
    return st != DG_OK && memcmp(&z, g, sizeof z) != 0 ? 1 : st;
}
BADV(graph_init_null, dg_graph_init, "graph NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_graph_init(NULL);
    return 0;
}
BADV(graph_free_null, dg_graph_free, "graph NULL, freed twice, or the caller's arrays", 0,
     "no effect (the caller's arrays are only let go)")
{
    UNUSED_ENV;
    dg_graph g;
    dg_graph_free(NULL);
    bad_graph(&g);
    dg_graph_free(&g);
    dg_graph_free(&g);
    return bad_graph_nodes[1].name[0] == 'b' && g.nodes == NULL ? 0 : 1;
}
BADV(graph_hash_null, dg_graph_hash, "graph NULL", 0, "0")
{
    UNUSED_ENV;
    return (int64_t)dg_graph_hash(NULL);
}
BAD(graph_generate_null, dg_graph_generate, "graph NULL", DG_E_NULL, "graph is NULL")
{
    return dg_graph_generate(e->g, NULL, 1, &e->result, NULL, diag);
}
BAD(graph_generate_bad_grid, dg_graph_generate, "stride < width", DG_E_INVALID, "stride")
{
    dg_graph g;
    bad_graph(&g);
    e->bad.stride = e->bad.width - 1;
    return dg_graph_generate(&e->bad, &g, 1, &e->result, NULL, diag);
}
BAD(graph_generate_too_big, dg_graph_generate, "rooms larger than the grid", DG_E_NOSPACE, NULL)
{
    dg_graph g;
    bad_graph(&g);
    bad_graph_nodes[0].width_min = bad_graph_nodes[0].width_max = 200;
    return dg_graph_generate(e->g, &g, 1, &e->result, NULL, diag);
}
BAD(graph_check_null, dg_graph_check, "graph NULL", DG_E_NULL, "graph is NULL")
{
    return dg_graph_check(NULL, diag);
}
BAD(graph_check_no_nodes, dg_graph_check, "node_count 0, nodes NULL", DG_E_INVALID, "0 nodes")
{
    dg_graph g;
    bad_graph(&g);
    g.node_count = 0;
    g.nodes = NULL;
    return bad_graph_check(&g, diag);
}
BAD(graph_check_huge_count, dg_graph_check, "node_count INT32_MAX", DG_E_INVALID, "nodes; 1..64")
{
    dg_graph g;
    bad_graph(&g);
    g.node_count = INT32_MAX;
    return bad_graph_check(&g, diag);
}
BAD(graph_check_edge_out, dg_graph_check, "an edge to node INT32_MIN", DG_E_INVALID, "edge 0")
{
    dg_graph g;
    bad_graph(&g);
    bad_graph_edge.a = INT32_MIN;
    return bad_graph_check(&g, diag);
}
BAD(graph_check_inverted, dg_graph_check, "width_min > width_max", DG_E_INVALID, "node a: width")
{
    dg_graph g;
    bad_graph(&g);
    bad_graph_nodes[0].width_min = 9;
    return bad_graph_check(&g, diag);
}
BAD(graph_check_disconnected, dg_graph_check, "no edges between two nodes", DG_E_INVALID,
    "node b: no path")
{
    dg_graph g;
    bad_graph(&g);
    g.edge_count = 0;
    return bad_graph_check(&g, diag);
}
BAD(graph_parse_null, dg_graph_parse, "text NULL", DG_E_NULL, "text")
{
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(NULL, 10, "x", NULL, &g, diag), &g);
}
BAD(graph_parse_null_out, dg_graph_parse, "graph output NULL", DG_E_NULL, "graph")
{
    return dg_graph_parse("graph 1\n", 8, "x", NULL, NULL, diag);
}
BAD(graph_parse_truncated, dg_graph_parse, "text cut inside a size", DG_E_PARSE, "x:2:13:")
{
    static const char text[] = "graph 1\nnode a size=3..";
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(text, sizeof text - 1, "x", NULL, &g, diag), &g);
}
BAD(graph_parse_binary, dg_graph_parse, "bytes 0x00 and 0xFF", DG_E_PARSE, "x:2:6:")
{
    static const char text[] = "graph 1\nnode \xff\x00\x01";
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(text, sizeof text - 1, "x", NULL, &g, diag), &g);
}
BAD(graph_parse_huge, dg_graph_parse, "a number of 11 digits", DG_E_PARSE, "99999999999")
{
    static const char text[] = "graph 1\nnode a size=99999999999x3\n";
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(text, sizeof text - 1, "x", NULL, &g, diag), &g);
}
BAD(graph_parse_unknown_node, dg_graph_parse, "an edge to an unknown node", DG_E_PARSE,
    "unknown node 'b'")
{
    static const char text[] = "graph 1\nnode a size=3x3\nedge a b\n";
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(text, sizeof text - 1, "x", NULL, &g, diag), &g);
}
BAD(graph_parse_self_edge, dg_graph_parse, "an edge from a node to itself", DG_E_INVALID,
    "x:3:6: edge a-a")
{
    static const char text[] = "graph 1\nnode a size=3x3\nedge a a\n";
    dg_graph g;
    return bad_graph_empty(dg_graph_parse(text, sizeof text - 1, "x", NULL, &g, diag), &g);
}
BAD(graph_load_missing, dg_graph_load, "path of no file", DG_E_INVALID, "no/such/file")
{
    dg_graph g;
    return bad_graph_empty(dg_graph_load("no/such/file.txt", NULL, &g, diag), &g);
}
BAD(graph_load_null, dg_graph_load, "path NULL", DG_E_NULL, "path")
{
    dg_graph g;
    return bad_graph_empty(dg_graph_load(NULL, NULL, &g, diag), &g);
}
BAD(graph_load_null_out, dg_graph_load, "graph output NULL", DG_E_NULL, "graph")
{
    return dg_graph_load("examples/graphs/hub.txt", NULL, NULL, diag);
}

/* ---- spawn tables and population --------------------------------------------------------- */
static dg_spawn_table *bad_spawn_table(void)
{
    static const char text[] = "spawns 1\nrat monster cost 1\ngold item\nking monster rooms boss\n";
    dg_spawn_table *t = NULL;
    dg_spawn_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &t, NULL);
    return t;
}
BAD(spawn_parse_null, dg_spawn_parse, "text NULL", DG_E_NULL, "text")
{
    dg_spawn_table *t = NULL;
    return dg_spawn_parse(NULL, 10, "x", NULL, NULL, NULL, &t, diag);
}
BAD(spawn_parse_null_out, dg_spawn_parse, "table output NULL", DG_E_NULL, "table")
{
    return dg_spawn_parse("spawns 1\n", 9, "x", NULL, NULL, NULL, NULL, diag);
}
BAD(spawn_parse_truncated, dg_spawn_parse, "text cut after a key (no value)", DG_E_PARSE,
    "x:2:19: 'weight' needs a value")
{
    static const char text[] = "spawns 1\nrat monster weight";
    dg_spawn_table *t = NULL;
    dg_status st = dg_spawn_parse(text, sizeof text - 1 - 6, "x", NULL, NULL, NULL, &t, diag);
    if (st == DG_OK)
        dg_spawn_table_free(t), st = dg_spawn_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &t, diag);
    else
        return DG_OK; /* the shorter text must parse */
    return t ? DG_OK : st;
}
BAD(spawn_parse_binary, dg_spawn_parse, "bytes 0x00 and 0xFF", DG_E_PARSE, "x:")
{
    static const char text[] = "spawns 1\nrat \xff\x00\x01";
    dg_spawn_table *t = NULL;
    dg_status st = dg_spawn_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &t, diag);
    return t ? DG_OK : st;
}
BAD(spawn_parse_inverted, dg_spawn_parse, "depth range 9..2 (inverted)", DG_E_PARSE, "inverted")
{
    static const char text[] = "spawns 1\nrat monster depth 9..2\n";
    dg_spawn_table *t = NULL;
    dg_status st = dg_spawn_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &t, diag);
    return t ? DG_OK : st;
}
BAD(spawn_parse_size, dg_spawn_parse, "footprint size 5 (above 4)", DG_E_PARSE, "size '5'")
{
    static const char text[] = "spawns 1\nrat monster size 5\n";
    dg_spawn_table *t = NULL;
    dg_status st = dg_spawn_parse(text, sizeof text - 1, "x", NULL, NULL, NULL, &t, diag);
    return t ? DG_OK : st;
}
BAD(spawn_load_missing, dg_spawn_load, "path of no file", DG_E_INVALID, "no/such/file")
{
    dg_spawn_table *t = NULL;
    dg_status st = dg_spawn_load("no/such/file.txt", NULL, NULL, NULL, &t, diag);
    return t ? DG_OK : st;
}
BAD(spawn_load_null, dg_spawn_load, "path NULL", DG_E_NULL, "path")
{
    dg_spawn_table *t = NULL;
    return dg_spawn_load(NULL, NULL, NULL, NULL, &t, diag);
}
BADV(spawn_table_free_null, dg_spawn_table_free, "table NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_spawn_table_free(NULL);
    return 0;
}
BADV(spawn_table_hash_null, dg_spawn_table_hash, "table NULL", 0, "0")
{
    UNUSED_ENV;
    return (int64_t)dg_spawn_table_hash(NULL);
}
BADV(spawn_count_null, dg_spawn_count, "table NULL", 0, "0")
{
    UNUSED_ENV;
    return dg_spawn_count(NULL);
}
BADV(spawn_find_null, dg_spawn_find, "table NULL, name NULL, unknown name", -1, "-1")
{
    UNUSED_ENV;
    dg_spawn_table *t = bad_spawn_table();
    int32_t a = dg_spawn_find(NULL, "rat"), b = dg_spawn_find(t, NULL), c = dg_spawn_find(t, "nosuch");
    dg_spawn_table_free(t);
    return a == b && b == c ? a : 0;
}
BAD(spawn_get_index, dg_spawn_get, "index -1, count, INT32_MAX; table or entry NULL",
    DG_E_INVALID, NULL)
{
    UNUSED_ENV;
    dg_spawn_table *t = bad_spawn_table();
    dg_spawn_entry en;
    int ok = t != NULL;
    int32_t bad[3] = {-1, dg_spawn_count(t), INT32_MAX};
    for (int i = 0; i < 3 && ok; i++)
        ok = dg_spawn_get(t, bad[i], &en) == DG_E_INVALID;
    ok = ok && dg_spawn_get(NULL, 0, &en) == DG_E_NULL && dg_spawn_get(t, 0, NULL) == DG_E_NULL;
    dg_spawn_table_free(t);
    return ok ? DG_E_INVALID : DG_OK;
}
BADV(populate_defaults_null, dg_populate_defaults, "params NULL", 0, "no effect")
{
    UNUSED_ENV;
    dg_populate_defaults(NULL);
    return 0;
}
/* dg_populate on the env's grid, its tile passable, the result's start at (1, 1). */
static int64_t bad_populate(bad_env *e, dg_diag *diag, const dg_populate_params *p, int table,
                            int result)
{
    static uint8_t pass[256];
    pass[ENV_FILL] = 1;
    dg_populate_params q = *p;
    q.passable = pass;
    dg_spawn_table *t = table ? bad_spawn_table() : NULL;
    if (result)
        e->result.start.x = e->result.start.y = 1;
    int32_t markers = e->result.marker_count;
    dg_status st = dg_populate(e->g, t, &q, 1, result ? &e->result : NULL, NULL, NULL, diag);
    dg_spawn_table_free(t);
    return e->result.marker_count == markers ? st : 1;
}
BAD(populate_null, dg_populate, "table NULL; result NULL", DG_E_NULL, "table")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    dg_diag other;
    if (bad_populate(e, &other, &p, 1, 0) != DG_E_NULL)
        return DG_OK;
    return bad_populate(e, diag, &p, 0, 1);
}
BAD(populate_no_start, dg_populate, "a result without a start", DG_E_INVALID, "start")
{
    dg_spawn_table *t = bad_spawn_table();
    dg_status st = dg_populate(e->g, t, NULL, 1, &e->result, NULL, NULL, diag);
    dg_spawn_table_free(t);
    return st;
}
BAD(populate_depth, dg_populate, "depth -1", DG_E_INVALID, "depth")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.depth = -1;
    return bad_populate(e, diag, &p, 1, 1);
}
BAD(populate_curve_falls, dg_populate, "a budget curve that decreases", DG_E_INVALID,
    "decreases")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.curve_budget[1] = p.curve_budget[0] - 1;
    return bad_populate(e, diag, &p, 1, 1);
}
BAD(populate_curve_points, dg_populate, "curve_points 0, depths not increasing", DG_E_INVALID,
    "curve")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.curve_points = 0;
    dg_diag other;
    if (bad_populate(e, &other, &p, 1, 1) != DG_E_INVALID)
        return DG_OK;
    dg_populate_defaults(&p);
    p.curve_depth[1] = p.curve_depth[0];
    return bad_populate(e, diag, &p, 1, 1);
}
BAD(populate_huge, dg_populate, "cells_per_spawn 0, distance_permille INT32_MAX", DG_E_INVALID,
    "distance_permille")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.cells_per_spawn = 0;
    dg_diag other;
    if (bad_populate(e, &other, &p, 1, 1) != DG_E_INVALID)
        return DG_OK;
    dg_populate_defaults(&p);
    p.distance_permille = INT32_MAX;
    return bad_populate(e, diag, &p, 1, 1);
}
BAD(populate_spare, dg_populate, "a spare slot nonzero", DG_E_INVALID, "spare")
{
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.spare[3] = 1;
    return bad_populate(e, diag, &p, 1, 1);
}
BAD(populate_bad_grid, dg_populate, "stride < width", DG_E_INVALID, NULL)
{
    e->bad.stride = e->bad.width - 1;
    dg_spawn_table *t = bad_spawn_table();
    dg_status st = dg_populate(&e->bad, t, NULL, 1, &e->result, NULL, NULL, diag);
    dg_spawn_table_free(t);
    return st;
}
BAD(roles_populate_null, dg_roles_populate, "grid NULL", DG_E_NULL, "grid")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    dg_spawn_table *t = bad_spawn_table();
    int32_t markers = e->result.marker_count;
    dg_status st = dg_roles_populate(NULL, &r, 1, t, NULL, 1, &e->result, NULL, NULL, NULL, diag);
    dg_spawn_table_free(t);
    return e->result.marker_count == markers ? roles_untouched(e, st) : 1;
}
BAD(roles_populate_no_start, dg_roles_populate, "a result without a start", DG_E_INVALID,
    "start")
{
    dg_role_rule r;
    dg_role_rule_init(&r, "boss");
    dg_spawn_table *t = bad_spawn_table();
    int32_t markers = e->result.marker_count;
    dg_status st =
        dg_roles_populate(e->g, &r, 1, t, NULL, 1, &e->result, NULL, NULL, NULL, diag);
    dg_spawn_table_free(t);
    return e->result.marker_count == markers ? roles_untouched(e, st) : 1;
}

/* ---- turn scheduler ------------------------------------------------------------------ */
/* Rows for tests/test_badinput.c (append before the matrix runner). Each row
 * builds a small scheduler in its own storage (capacity 4, actors 1 and 3,
 * one turn played) and returns 1 instead of the status if a byte of the
 * scheduler or its storage changed. */
#define SCHED_CAP 4
static void bad_sched(dg_sched *s, dg_sched_actor *slots)
{
    int32_t id = 0;
    memset(s, 0x22, sizeof *s);
    dg_sched_init(s, slots, SCHED_CAP);
    dg_sched_add(s, 1, 5, 10, 0);
    dg_sched_add(s, 3, 2, 4, 0);
    dg_sched_next(s, &id);
    dg_sched_spend(s, id, 3);
}
static uint64_t bad_sched_hash(const dg_sched *s, const dg_sched_actor *slots)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < sizeof *s; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    p = (const uint8_t *)slots;
    for (size_t i = 0; i < SCHED_CAP * sizeof *slots; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}
/* Runs CALL on a fresh scheduler `s` over `slots`; the status, or 1 if anything changed. */
#define SCHED_ROW(CALL)                                                          \
    do {                                                                         \
        dg_sched_actor slots[SCHED_CAP];                                         \
        dg_sched s;                                                              \
        UNUSED_ENV;                                                              \
        bad_sched(&s, slots);                                                    \
        uint64_t before = bad_sched_hash(&s, slots);                             \
        dg_status st = (CALL);                                                   \
        return bad_sched_hash(&s, slots) == before ? st : 1;                     \
    } while (0)

BAD(sched_init_null, dg_sched_init, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_init(NULL, slots, SCHED_CAP));
}
BAD(sched_init_null_storage, dg_sched_init, "storage NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_init(&s, NULL, SCHED_CAP));
}
BAD(sched_init_zero, dg_sched_init, "capacity 0", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_init(&s, slots, 0));
}
BAD(sched_init_min, dg_sched_init, "capacity INT32_MIN", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_init(&s, slots, INT32_MIN));
}
BAD(sched_add_null, dg_sched_add, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_add(NULL, 0, 1, 1, 0));
}
BAD(sched_add_neg_id, dg_sched_add, "id -1", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, -1, 1, 1, 0));
}
BAD(sched_add_dup, dg_sched_add, "id already present", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 1, 1, 1, 0));
}
BAD(sched_add_over, dg_sched_add, "id = capacity (storage too small)", DG_E_BUFFER, NULL)
{
    SCHED_ROW(dg_sched_add(&s, SCHED_CAP, 1, 1, 0));
}
BAD(sched_add_huge_id, dg_sched_add, "id INT32_MAX", DG_E_BUFFER, NULL)
{
    SCHED_ROW(dg_sched_add(&s, INT32_MAX, 1, 1, 0));
}
BAD(sched_add_speed0, dg_sched_add, "speed 0", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, 0, 1, 0));
}
BAD(sched_add_speed_min, dg_sched_add, "speed INT32_MIN", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, INT32_MIN, 1, 0));
}
BAD(sched_add_threshold0, dg_sched_add, "threshold 0", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, 1, 0, 0));
}
BAD(sched_add_threshold_neg, dg_sched_add, "threshold -5", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, 1, -5, 0));
}
BAD(sched_add_energy, dg_sched_add, "energy DG_SCHED_ENERGY_MAX + 1", DG_E_LIMIT, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, 1, 1, DG_SCHED_ENERGY_MAX + 1));
}
BAD(sched_add_energy_min, dg_sched_add, "energy INT64_MIN", DG_E_LIMIT, NULL)
{
    SCHED_ROW(dg_sched_add(&s, 0, 1, 1, INT64_MIN));
}
BAD(sched_remove_null, dg_sched_remove, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_remove(NULL, 1));
}
BAD(sched_remove_unknown, dg_sched_remove, "id not present", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_remove(&s, 0));
}
BAD(sched_remove_neg, dg_sched_remove, "id -1", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_remove(&s, -1));
}
BAD(sched_remove_over, dg_sched_remove, "id INT32_MAX", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_remove(&s, INT32_MAX));
}
BAD(sched_next_null, dg_sched_next, "scheduler NULL", DG_E_NULL, NULL)
{
    int32_t id;
    SCHED_ROW(dg_sched_next(NULL, &id));
}
BAD(sched_next_null_id, dg_sched_next, "id NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_next(&s, NULL));
}
BAD(sched_next_empty, dg_sched_next, "no actor", DG_E_INVALID, NULL)
{
    int32_t id = -7;
    UNUSED_ENV;
    dg_sched_actor slots[SCHED_CAP];
    dg_sched s;
    dg_sched_init(&s, slots, SCHED_CAP);
    dg_status st = dg_sched_next(&s, &id);
    return id == -7 && s.now == 0 ? st : 1;
}
BAD(sched_spend_null, dg_sched_spend, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_spend(NULL, 1, 1));
}
BAD(sched_spend_unknown, dg_sched_spend, "id not present", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_spend(&s, 2, 1));
}
BAD(sched_spend_neg, dg_sched_spend, "cost -1", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_spend(&s, 1, -1));
}
BAD(sched_spend_limit, dg_sched_spend, "energy below -DG_SCHED_ENERGY_MAX", DG_E_LIMIT, NULL)
{
    dg_sched_actor slots[SCHED_CAP];
    dg_sched s;
    UNUSED_ENV;
    dg_sched_init(&s, slots, SCHED_CAP);
    dg_sched_add(&s, 0, 1, 1, -DG_SCHED_ENERGY_MAX);
    uint64_t before = bad_sched_hash(&s, slots);
    dg_status st = dg_sched_spend(&s, 0, 1);
    return bad_sched_hash(&s, slots) == before ? st : 1;
}
BAD(sched_rest_null, dg_sched_rest, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_rest(NULL, 1, 1));
}
BAD(sched_rest_unknown, dg_sched_rest, "id not present", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_rest(&s, 0, 1));
}
BAD(sched_rest_neg, dg_sched_rest, "amount INT32_MIN", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_rest(&s, 1, INT32_MIN));
}
BAD(sched_set_speed_null, dg_sched_set_speed, "scheduler NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_set_speed(NULL, 1, 1));
}
BAD(sched_set_speed_zero, dg_sched_set_speed, "speed 0", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_set_speed(&s, 1, 0));
}
BAD(sched_set_speed_unknown, dg_sched_set_speed, "id not present", DG_E_INVALID, NULL)
{
    SCHED_ROW(dg_sched_set_speed(&s, 2, 5));
}
BAD(sched_energy_null, dg_sched_energy, "scheduler NULL", DG_E_NULL, NULL)
{
    int64_t energy;
    SCHED_ROW(dg_sched_energy(NULL, 1, &energy));
}
BAD(sched_energy_null_out, dg_sched_energy, "energy NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_energy(&s, 1, NULL));
}
BAD(sched_energy_unknown, dg_sched_energy, "id not present", DG_E_INVALID, NULL)
{
    int64_t energy;
    SCHED_ROW(dg_sched_energy(&s, 0, &energy));
}
BAD(sched_save_null, dg_sched_save, "scheduler NULL", DG_E_NULL, NULL)
{
    size_t size;
    SCHED_ROW(dg_sched_save(NULL, e->out, sizeof e->out, &size));
}
BAD(sched_save_null_size, dg_sched_save, "size NULL", DG_E_NULL, NULL)
{
    SCHED_ROW(dg_sched_save(&s, e->out, sizeof e->out, NULL));
}
BAD(sched_save_short, dg_sched_save, "cap one byte short", DG_E_BUFFER, NULL)
{
    size_t size;
    SCHED_ROW(dg_sched_save(&s, e->out, 20 + 2 * 20 - 1, &size));
}
BAD(sched_load_null, dg_sched_load, "data NULL", DG_E_NULL, "NULL")
{
    SCHED_ROW(dg_sched_load(&s, slots, SCHED_CAP, NULL, 60, diag));
}
BAD(sched_load_capacity, dg_sched_load, "capacity 0", DG_E_INVALID, "capacity")
{
    SCHED_ROW(dg_sched_load(&s, slots, 0, e->out, 60, diag));
}
BAD(sched_load_garbage, dg_sched_load, "not a saved scheduler", DG_E_PARSE, "not a saved")
{
    SCHED_ROW(dg_sched_load(&s, slots, SCHED_CAP, e->out, 60, diag));
}
BAD(sched_load_truncated, dg_sched_load, "saved image one byte short", DG_E_PARSE, "do not hold")
{
    uint8_t image[60];
    size_t size;
    dg_sched_actor slots[SCHED_CAP];
    dg_sched s;
    UNUSED_ENV;
    bad_sched(&s, slots);
    dg_sched_save(&s, image, sizeof image, &size);
    uint64_t before = bad_sched_hash(&s, slots);
    dg_status st = dg_sched_load(&s, slots, SCHED_CAP, image, size - 1, diag);
    return bad_sched_hash(&s, slots) == before ? st : 1;
}
BAD(sched_load_small_storage, dg_sched_load, "saved id 3, capacity 3", DG_E_BUFFER, "capacity")
{
    uint8_t image[60];
    size_t size;
    dg_sched_actor slots[SCHED_CAP];
    dg_sched s;
    UNUSED_ENV;
    bad_sched(&s, slots);
    dg_sched_save(&s, image, sizeof image, &size);
    uint64_t before = bad_sched_hash(&s, slots);
    dg_status st = dg_sched_load(&s, slots, 3, image, size, diag);
    return bad_sched_hash(&s, slots) == before ? st : 1;
}
#undef SCHED_ROW
#undef SCHED_CAP

/* ---- chase ------------------------------------------------------------------------------ */
/* Two monsters at (1, 1) and (3, 2) on the all-passable env grid with a map of
 * zeros; steps and flee maps go to e->out, which must stay untouched. */
static const int32_t *chase_zero_map(void)
{
    static int32_t map[ENV_W * ENV_H];
    return map;
}
static dg_chase chase_env(void)
{
    static const dg_point monsters[2] = {{1, 1}, {3, 2}};
    dg_chase c = {chase_zero_map(), ENV_CELLS, DG_CHASE_APPROACH, monsters, 2, NULL, 0};
    return c;
}
#define CHASE_ROW(edit, cap)                                                            \
    do {                                                                                \
        dg_chase c = chase_env();                                                       \
        edit;                                                                           \
        return dg_chase_step(e->g, all_pass(), &c, NULL, (dg_point *)e->out, (cap), diag); \
    } while (0)
BAD(chase_null, dg_chase_step, "chase NULL", DG_E_NULL, "chase")
{
    return dg_chase_step(e->g, all_pass(), NULL, NULL, (dg_point *)e->out, 2, diag);
}
BAD(chase_mode, dg_chase_step, "mode 7", DG_E_INVALID, "mode")
{
    CHASE_ROW(c.mode = 7, 2);
}
BAD(chase_unknown_id, dg_chase_step, "mover id 2 with 2 monsters", DG_E_INVALID, "no such monster")
{
    static const int32_t movers[1] = {2};
    CHASE_ROW((c.movers = movers, c.mover_count = 1), 2);
}
BAD(chase_negative_id, dg_chase_step, "mover id INT32_MIN", DG_E_INVALID, "no such monster")
{
    static const int32_t movers[1] = {INT32_MIN};
    CHASE_ROW((c.movers = movers, c.mover_count = 1), 2);
}
BAD(chase_repeated_id, dg_chase_step, "mover id listed twice", DG_E_INVALID, "twice")
{
    static const int32_t movers[2] = {1, 1};
    CHASE_ROW((c.movers = movers, c.mover_count = 2), 2);
}
BAD(chase_mover_count, dg_chase_step, "mover_count -1", DG_E_INVALID, "mover_count")
{
    static const int32_t movers[1] = {0};
    CHASE_ROW((c.movers = movers, c.mover_count = -1), 2);
}
BAD(chase_steps_small, dg_chase_step, "steps_cap one short", DG_E_BUFFER, "steps_cap")
{
    CHASE_ROW((void)0, 1);
}
BAD(chase_steps_null, dg_chase_step, "steps NULL", DG_E_NULL, "steps")
{
    dg_chase c = chase_env();
    return dg_chase_step(e->g, all_pass(), &c, NULL, NULL, 2, diag);
}
BAD(chase_map_small, dg_chase_step, "map_count one short", DG_E_BUFFER, "chase map")
{
    CHASE_ROW(c.map_count = ENV_CELLS - 1, 2);
}
BAD(chase_map_null, dg_chase_step, "map NULL", DG_E_NULL, "chase map")
{
    CHASE_ROW(c.map = NULL, 2);
}
BAD(chase_count, dg_chase_step, "count -1", DG_E_INVALID, "count")
{
    CHASE_ROW(c.count = -1, 2);
}
BAD(chase_monsters_null, dg_chase_step, "monsters NULL", DG_E_NULL, "monsters")
{
    CHASE_ROW(c.monsters = NULL, 2);
}
BAD(chase_shared_cell, dg_chase_step, "two monsters on one cell", DG_E_INVALID, "shares")
{
    static const dg_point monsters[2] = {{3, 2}, {3, 2}};
    CHASE_ROW(c.monsters = monsters, 2);
}
BAD(chase_outside, dg_chase_step, "monster at (INT32_MAX, -1)", DG_E_INVALID, "monster 1")
{
    static const dg_point monsters[2] = {{1, 1}, {INT32_MAX, -1}};
    CHASE_ROW(c.monsters = monsters, 2);
}
BAD(chase_impassable, dg_chase_step, "monster on an impassable tile", DG_E_INVALID, "impassable")
{
    dg_chase c = chase_env();
    return dg_chase_step(e->g, NULL, &c, NULL, (dg_point *)e->out, 2, diag);
}
BAD(chase_stride, dg_chase_step, "stride < width", DG_E_INVALID, "stride")
{
    dg_chase c = chase_env();
    e->bad.stride = 2;
    return dg_chase_step(&e->bad, all_pass(), &c, NULL, (dg_point *)e->out, 2, diag);
}
#undef CHASE_ROW
BAD(flee_scale, dg_flee_map, "scale_percent 100, 1001, INT32_MIN", DG_E_INVALID, "scale_percent")
{
    int32_t *out = (int32_t *)e->out;
    if (dg_flee_map(e->g, all_pass(), chase_zero_map(), ENV_CELLS, 1001, out, ENV_CELLS, NULL, NULL,
                    NULL, NULL) != DG_E_INVALID ||
        dg_flee_map(e->g, all_pass(), chase_zero_map(), ENV_CELLS, INT32_MIN, out, ENV_CELLS, NULL,
                    NULL, NULL, NULL) != DG_E_INVALID)
        return DG_OK;
    return dg_flee_map(e->g, all_pass(), chase_zero_map(), ENV_CELLS, 100, out, ENV_CELLS, NULL,
                       NULL, NULL, diag);
}
BAD(flee_small, dg_flee_map, "flee_count one short", DG_E_BUFFER, "flee map")
{
    return dg_flee_map(e->g, all_pass(), chase_zero_map(), ENV_CELLS, 120, (int32_t *)e->out,
                       ENV_CELLS - 1, NULL, NULL, NULL, diag);
}
BAD(flee_null, dg_flee_map, "approach NULL", DG_E_NULL, "approach map")
{
    return dg_flee_map(e->g, all_pass(), NULL, ENV_CELLS, 120, (int32_t *)e->out, ENV_CELLS, NULL,
                       NULL, NULL, diag);
}
BAD(flee_below, dg_flee_map, "approach value -2", DG_E_INVALID, "below")
{
    static int32_t map[ENV_W * ENV_H];
    map[5] = -2;
    return dg_flee_map(e->g, all_pass(), map, ENV_CELLS, 120, (int32_t *)e->out, ENV_CELLS, NULL,
                       NULL, NULL, diag);
}
BAD(flee_impassable, dg_flee_map, "a distance on an impassable tile", DG_E_INVALID, "impassable")
{
    return dg_flee_map(e->g, NULL, chase_zero_map(), ENV_CELLS, 120, (int32_t *)e->out, ENV_CELLS,
                       NULL, NULL, NULL, diag);
}
BAD(flee_overflow, dg_flee_map, "distance INT32_MAX / 2 at scale 1000", DG_E_TOO_LARGE, "2^31")
{
    static int32_t map[ENV_W * ENV_H];
    map[5] = INT32_MAX / 2;
    return dg_flee_map(e->g, all_pass(), map, ENV_CELLS, 1000, (int32_t *)e->out, ENV_CELLS, NULL,
                       NULL, NULL, diag);
}

/* ---- the runner ------------------------------------------------------------------------------ */
static const char *status_name(int64_t st)
{
    static const char *const names[] = {"DG_OK", "DG_E_INVALID", "DG_E_NULL", "DG_E_NOMEM",
                                         "DG_E_TOO_SMALL", "DG_E_TOO_LARGE", "DG_E_NOSPACE",
                                         "DG_E_PARSE", "DG_E_NOPATH", "DG_E_BUFFER", "DG_E_LIMIT"};
    return st <= 0 && st >= DG_E_LIMIT ? names[-st] : "?";
}

static int env_make(bad_env *e, const hard_ctx *ctx)
{
    memset(e, 0, sizeof *e);
    if (!guard_make(&e->gg, ENV_W, ENV_H, 3))
        return 0;
    e->g = &e->gg.grid;
    dg_grid_fill(e->g, ENV_FILL);
    e->bad = *e->g;
    memset(&e->target, 0x11, sizeof e->target);
    memset(e->out, OUT_FILL, sizeof e->out);
    dg_rng_seed(&e->rng, 1, 1);
    dg_result_init(&e->result, NULL);
    e->ctx = ctx;
    return 1;
}

/* 1 if nothing the row may not change has changed. */
static int env_untouched(const bad_env *e)
{
    dg_grid target_fill;
    memset(&target_fill, 0x11, sizeof target_fill);
    if (!guard_intact(&e->gg) || memcmp(&e->target, &target_fill, sizeof target_fill) != 0)
        return 0;
    for (int32_t y = 0; y < ENV_H; y++)
        for (int32_t x = 0; x < ENV_W; x++)
            if (dg_grid_get(e->g, x, y) != ENV_FILL)
                return 0;
    for (size_t i = 0; i < sizeof e->out; i++)
        if (e->out[i] != OUT_FILL)
            return 0;
    return 1;
}

static int by_function(const void *a, const void *b)
{
    const bad_row *x = a, *y = b;
    int c = strcmp(x->function, y->function);
    return c ? c : (x < y ? -1 : x > y);
}

static void print_markdown(void)
{
    printf("| function | bad input | outcome | message contains |\n|---|---|---|---|\n");
    for (int i = 0; i < row_count; i++)
    {
        const bad_row *r = &rows[i];
        const char *msg = !r->message ? "-" : *r->message ? r->message : "(any message)";
        int quote = r->message && *r->message;
        printf("| `%s` | %s | %s%s%s | %s%s%s |\n", r->function, r->input,
               r->is_status ? "`" : "", r->is_status ? status_name(r->expect) : r->outcome,
               r->is_status ? "`" : "", quote ? "`" : "", msg, quote ? "`" : "");
    }
}

TEST(badinput_matrix)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    qsort(rows, (size_t)row_count, sizeof rows[0], by_function);
    if (getenv("DG_MATRIX_MARKDOWN"))
        print_markdown();
    for (int i = 0; i < row_count; i++)
    {
        const bad_row *r = &rows[i];
        bad_env *e = malloc(sizeof *e);
        if (!e || !env_make(e, &ctx))
        {
            CHECK(!"out of memory in the test");
            free(e);
            break;
        }
        dg_diag diag;
        memset(&diag, 0, sizeof diag);
        int64_t got = r->call ? r->call(e, &diag) : r->gen_call(e, &diag, r->gen, r->kind);
        CHECKF(got == r->expect, "%s (%s): got %lld (%s), want %lld (%s)", r->function, r->input,
               (long long)got, r->is_status ? status_name(got) : "value", (long long)r->expect,
               r->is_status ? status_name(r->expect) : r->outcome);
        if (r->message)
        {
            CHECKF(diag.status == r->expect, "%s (%s): diag.status %d", r->function, r->input,
                   (int)diag.status);
            CHECKF(strstr(diag.message, r->message) != NULL, "%s (%s): message \"%s\" lacks \"%s\"",
                   r->function, r->input, diag.message, r->message);
        }
        CHECKF(env_untouched(e), "%s (%s): caller data changed", r->function, r->input);
        dg_result_free(&e->result);
        guard_free(&e->gg);
        free(e);
    }
    hard_ctx_close(&ctx);
}

TEST(badinput_matrix_covers_every_public_function)
{
    /* Every DG_API function of include/dungeon.h needs at least one row; the
     * list of those covered elsewhere by design is short and explicit. */
    static const char *const no_bad_input[] = {
        "dg_version", "dg_version_number", "dg_hash64", "dg_hash_combine", NULL};
    FILE *f = fopen("include/dungeon.h", "r");
    if (!f)
        return; /* not run from the source tree */
    char line[512];
    while (fgets(line, sizeof line, f))
    {
        /* declarations start at the line's beginning; comments may name DG_API too */
        char *p = line;
        if (strncmp(line, "DG_API ", 7) != 0)
            continue;
        char *paren = strchr(p, '(');
        if (!paren)
            continue;
        char *name = paren;
        while (name > p && (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') ||
                            (name[-1] >= '0' && name[-1] <= '9')))
            name--;
        *paren = '\0';
        int found = 0;
        for (int i = 0; i < row_count && !found; i++)
            found = strcmp(rows[i].function, name) == 0;
        for (int i = 0; no_bad_input[i] && !found; i++)
            found = strcmp(no_bad_input[i], name) == 0;
        CHECKF(found, "no bad-input row for %s: add one to tests/test_badinput.c and "
                      "docs/robustness.md", name);
    }
    fclose(f);
}
