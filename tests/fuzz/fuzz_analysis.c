/* Fuzz target: every analysis function (hard_ops[]: regions, distance maps,
 * A*, FOV, metrics, chokepoints, placement) on arbitrary grids. The input is
 * a grid size (1..64 x 1..64), a stride padding, a seed that picks the
 * arguments, an allocation to refuse, then the tiles (any byte value; missing
 * bytes are floor). Whatever the bytes: a documented status, the grid never
 * written (canaries around it and in the padding), nothing written past the
 * output the call reports (nothing at all on error), every block freed, the
 * same output on a second run with another stride; and a unit-cost A* path is
 * exactly as long as the breadth-first distance between its ends. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CANARY 0xC3

static void fail(const char *op, const char *what)
{
    fprintf(stderr, "fuzz_analysis: %s: %s\n", op, what);
    abort();
}

/* Runs op on the tiles in a guarded grid of stride w + pad; returns its hash. */
static uint64_t run_op(const hard_op *op, const uint8_t *tiles, int32_t w, int32_t h,
                       int32_t pad, uint64_t seed, int64_t fail_at)
{
    guarded_grid gg;
    if (!guard_make(&gg, w, h, pad))
        fail(op->name, "out of memory in the harness");
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            dg_grid_set(&gg.grid, x, y, tiles[y * w + x]);
    uint64_t before = dg_grid_hash(&gg.grid);
    size_t cap = HARD_OP_OUT(&gg.grid);
    uint8_t *out = malloc(cap);
    if (!out)
        fail(op->name, "out of memory in the harness");
    memset(out, CANARY, cap);
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    size_t used = 0;
    dg_status st = op->run(&gg.grid, seed, &ha.hooks, out, &used);
    if (!hard_status_known(st))
        fail(op->name, "undocumented status");
    if (!guard_intact(&gg) || dg_grid_hash(&gg.grid) != before)
        fail(op->name, "wrote the grid it analyses");
    for (size_t i = st == DG_OK ? used : 0; i < cap; i++)
        if (out[i] != CANARY)
            fail(op->name, st == DG_OK ? "wrote past its outputs" : "wrote outputs on error");
    if (st == DG_E_NOMEM && ha.failed == 0)
        fail(op->name, "DG_E_NOMEM without a failed allocation");
    if (!hard_alloc_clean(&ha))
        fail(op->name, "leaked or mismatched free");
    uint64_t hash = hard_op_hash(st, out, used);
    free(out);
    guard_free(&gg);
    return hash;
}

/* A unit-cost 4-way path between two passable cells is exactly as long as the
 * breadth-first distance between them. */
static void check_path_length(const uint8_t *tiles, int32_t w, int32_t h, uint64_t seed)
{
    dg_grid g;
    if (dg_grid_init(&g, (uint8_t *)tiles, w, h, 0) != DG_OK)
        return;
    dg_point a = {(int32_t)(seed % (uint64_t)w), (int32_t)(seed / 7 % (uint64_t)h)};
    dg_point b = {(int32_t)(seed / 13 % (uint64_t)w), (int32_t)(seed / 101 % (uint64_t)h)};
    if (!dg_tile_passable(dg_grid_get(&g, a.x, a.y)) || !dg_tile_passable(dg_grid_get(&g, b.x, b.y)))
        return;
    size_t n = (size_t)w * (size_t)h;
    int32_t *dist = malloc(n * sizeof *dist);
    dg_point *path = malloc(n * sizeof *path);
    int32_t len = 0, cost = 0;
    if (dist && path && dg_distance_map(&g, NULL, &a, 1, 0, dist, n, NULL, NULL, NULL) == DG_OK)
    {
        dg_status st = dg_path_find(&g, NULL, a, b, NULL, path, (int32_t)n, &len, &cost, NULL);
        int32_t d = dist[b.y * w + b.x];
        if (d == DG_UNREACHABLE ? st != DG_E_NOPATH : (st != DG_OK || len != d + 1 || cost != d))
            fail("path_find", "A* length differs from the breadth-first distance");
    }
    free(dist);
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hard_input in = {data, size, 0};
    int32_t w = 1 + hard_u8(&in) % 64, h = 1 + hard_u8(&in) % 64;
    int32_t pad = hard_u8(&in) % 8;
    uint64_t seed = hard_u64(&in);
    uint8_t f = hard_u8(&in);
    int64_t fail_at = f >= 224 ? 1 + (f - 224) : 0;
    uint8_t *tiles = malloc((size_t)w * (size_t)h);
    if (!tiles)
        fail("harness", "out of memory");
    for (int32_t i = 0; i < w * h; i++)
    {
        /* mostly library tiles, so there is something to walk on */
        uint8_t b = in.pos < in.size ? hard_u8(&in) : DG_TILE_FLOOR;
        tiles[i] = b < 200 ? (uint8_t)(b % DG_TILE_COUNT) : b;
    }
    for (const hard_op *op = hard_ops; op->name; op++)
    {
        uint64_t a = run_op(op, tiles, w, h, pad, seed, fail_at);
        uint64_t b = run_op(op, tiles, w, h, (pad + 3) % 8, seed, fail_at);
        if (a != b)
            fail(op->name, "not deterministic (same input, other stride)");
    }
    check_path_length(tiles, w, h, seed);
    free(tiles);
    return 0;
}
