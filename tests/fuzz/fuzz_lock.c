/* Fuzz target: dg_lock_place and dg_solve on arbitrary grids and results. The
 * input is a grid size (2..48 x 2..48), a stride padding, a seed, an
 * allocation to refuse, the lock parameters (now and then beyond their ranges), a
 * start and an exit (moved to the next passable cell), then the tiles.
 * Whatever the bytes: a documented status; on error the grid (canaries
 * around it and in the padding) and the result untouched; on success every
 * map solvable, the counts true to the grid, the same bytes with another
 * stride, and dg_solve agreeing; every block freed. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_lock: %s\n", what);
    abort();
}

typedef struct lock_case {
    int32_t w, h, pad;
    uint64_t seed;
    int64_t fail_at;
    dg_lock_params p;
    dg_point start, exit;
    const uint8_t *tiles;
} lock_case;

typedef struct lock_outcome {
    dg_status st;
    uint64_t grid_hash, markers_hash;
    dg_progress pr;
} lock_outcome;

static int32_t count_tile(const dg_grid *g, uint8_t t)
{
    int32_t k = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            k += dg_grid_get(g, x, y) == t;
    return k;
}

static uint64_t markers_hash(const dg_result *r)
{
    uint64_t h = (uint64_t)r->marker_count;
    for (int32_t i = 0; i < r->marker_count; i++)
        h = dg_hash_combine(h, (uint64_t)(r->markers[i].pos.x * 131 + r->markers[i].pos.y) ^
                                   (uint64_t)r->markers[i].kind << 40 ^
                                   dg_hash64((uint64_t)(unsigned char)r->markers[i].name[5]));
    return h;
}

/* Checks a successful call: solvable, counts, and dg_solve's verdict. */
static void check_success(const lock_case *c, const dg_grid *g, const dg_result *r,
                          const dg_progress *pr, int32_t secret_before, int32_t markers_before)
{
    if (!pr->solvable)
        fail("a locked map is not solvable");
    if (pr->placed < 0 || pr->placed > c->p.locks || (c->p.require_all && pr->placed != c->p.locks))
        fail("placed out of range");
    if (count_tile(g, DG_TILE_DOOR_LOCKED) != pr->locked_doors ||
        count_tile(g, DG_TILE_DOOR_SECRET) != secret_before + pr->secret_doors)
        fail("door counts differ from the grid");
    if (r->marker_count != markers_before + pr->placed + pr->locked_doors)
        fail("marker count differs from the locks placed");
    if ((pr->placed == 0) != (pr->locked_doors == 0))
        fail("locks without locked doors");
    dg_progress again;
    if (dg_solve(g, r, &again, NULL, NULL) != DG_OK || again.solvable != 1 ||
        again.order_count != pr->order_count || again.steps != pr->steps)
        fail("dg_solve disagrees with dg_lock_place");
}

static lock_outcome run_case(const lock_case *c, int32_t pad)
{
    guarded_grid gg;
    if (!guard_make(&gg, c->w, c->h, pad))
        fail("out of memory in the harness");
    for (int32_t y = 0; y < c->h; y++)
        for (int32_t x = 0; x < c->w; x++)
            dg_grid_set(&gg.grid, x, y, c->tiles[y * c->w + x]);
    dg_result r;
    dg_result_init(&r, NULL);
    r.start = c->start;
    r.exit = c->exit;
    uint64_t grid_before = dg_grid_hash(&gg.grid), markers_before = markers_hash(&r);
    int32_t secret_before = count_tile(&gg.grid, DG_TILE_DOOR_SECRET);
    hard_alloc ha;
    hard_alloc_init(&ha, c->fail_at);
    lock_outcome o;
    memset(&o, 0, sizeof o);
    o.st = dg_lock_place(&gg.grid, &c->p, c->seed, &r, &o.pr, &ha.hooks, NULL);
    if (!hard_status_known(o.st))
        fail("undocumented status");
    if (!guard_intact(&gg))
        fail("wrote outside the grid");
    if (o.st != DG_OK && (dg_grid_hash(&gg.grid) != grid_before || markers_hash(&r) != markers_before))
        fail("changed the map on error");
    if (o.st == DG_E_NOMEM && ha.failed == 0)
        fail("DG_E_NOMEM without a failed allocation");
    if (!hard_alloc_clean(&ha))
        fail("leaked or mismatched free");
    if (o.st == DG_OK)
        check_success(c, &gg.grid, &r, &o.pr, secret_before, 0);
    o.grid_hash = dg_grid_hash(&gg.grid);
    o.markers_hash = markers_hash(&r);
    dg_result_free(&r);
    guard_free(&gg);
    return o;
}

/* The first passable cell at or after index k (wrapping), or (k % w, k / w). */
static dg_point passable_from(const uint8_t *tiles, int32_t w, int32_t h, uint32_t k)
{
    int32_t n = w * h, at = (int32_t)(k % (uint32_t)n);
    for (int32_t i = 0; i < n; i++)
    {
        int32_t c = (at + i) % n;
        if (dg_tile_passable(tiles[c]))
            return (dg_point){c % w, c / w};
    }
    return (dg_point){at % w, at / w};
}

/* A parameter in lo..hi, or with `wide` hard_param's mix of edge values. */
static int32_t lock_param(hard_input *in, int32_t lo, int32_t hi, int wide)
{
    if (wide)
        return hard_param(in, lo, hi);
    return lo + (int32_t)(hard_u8(in) % (uint32_t)(hi - lo + 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hard_input in = {data, size, 0};
    lock_case c;
    c.w = 2 + hard_u8(&in) % 47;
    c.h = 2 + hard_u8(&in) % 47;
    c.pad = hard_u8(&in) % 8;
    c.seed = hard_u64(&in);
    uint8_t f = hard_u8(&in);
    c.fail_at = f >= 224 ? 1 + (f - 224) : 0;
    int wide = hard_u8(&in) >= 224; /* now and then parameters out of range too */
    c.p.locks = lock_param(&in, 0, DG_LOCKS_MAX, wide);
    c.p.require_all = lock_param(&in, 0, 1, wide);
    c.p.key_place = lock_param(&in, 0, 2, wide);
    c.p.kinds = lock_param(&in, 1, 8, wide);
    c.p.gate_max = lock_param(&in, 1, 8, wide);
    c.p.secret_permille = lock_param(&in, 0, 1000, wide);
    uint32_t start_at = hard_u32(&in), exit_at = hard_u32(&in);
    int raw_ends = hard_u8(&in) >= 240; /* sometimes ends as given, on walls or outside */
    int locked_already = hard_u8(&in) >= 248;
    uint8_t *tiles = malloc((size_t)c.w * (size_t)c.h);
    if (!tiles)
        fail("harness: out of memory");
    for (int32_t i = 0; i < c.w * c.h; i++)
    {
        /* mostly floor, wall and doors, so that there are ways to lock */
        uint8_t b = in.pos < in.size ? hard_u8(&in) : DG_TILE_FLOOR;
        tiles[i] = b < 160   ? DG_TILE_FLOOR
                   : b < 200 ? DG_TILE_WALL
                   : b < 235 ? DG_TILE_DOOR
                   : b < 246 ? (uint8_t)(b % 10)
                   : b < 248 ? DG_TILE_DOOR_SECRET
                             : b;
    }
    if (locked_already)
        tiles[exit_at % (uint32_t)(c.w * c.h)] = DG_TILE_DOOR_LOCKED;
    c.tiles = tiles;
    c.start = raw_ends ? (dg_point){(int32_t)(start_at % 64) - 8, (int32_t)(start_at / 64 % 64) - 8}
                       : passable_from(tiles, c.w, c.h, start_at);
    c.exit = raw_ends ? (dg_point){(int32_t)(exit_at % 64) - 8, (int32_t)(exit_at / 64 % 64) - 8}
                      : passable_from(tiles, c.w, c.h, exit_at);
    lock_outcome a = run_case(&c, c.pad), b = run_case(&c, (c.pad + 3) % 8);
    if (a.st != b.st || a.grid_hash != b.grid_hash || a.markers_hash != b.markers_hash ||
        memcmp(&a.pr, &b.pr, sizeof a.pr) != 0)
        fail("not deterministic (same input, other stride)");
    free(tiles);
    return 0;
}
