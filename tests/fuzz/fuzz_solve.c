/* Fuzz target: dg_solve on arbitrary small grids (1..12 x 1..12) and markers,
 * against a search over (cell, keys held) (fuzz/solve_ref.h). The input is a
 * size, a stride padding, an allocation to refuse, a start and an exit (often
 * on any tile, or off the grid), the tiles (mostly floor, wall and the three
 * doors), then up to 14 markers: keys and locks with valid, odd and broken
 * names ("key 007", "lock 17", "key", unterminated names), several on one
 * cell, a key number in several places, doors with several locks, markers off
 * the grid. Whatever the bytes: the status the reference expects, progress
 * untouched on error, the grid and its canaries untouched, every block freed,
 * and on success solvable, keys_reached and steps equal to the reference's and
 * an order that works; the same verdict at another stride. */
#include "fuzz/solve_ref.h"
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SIDE 12
#define MAX_MARKERS 14

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_solve: %s\n", what);
    abort();
}

typedef struct solve_case {
    int32_t w, h, pad;
    int64_t fail_at;
    uint8_t tiles[MAX_SIDE * MAX_SIDE];
    dg_marker markers[MAX_MARKERS];
    int32_t marker_count;
    dg_point start, exit;
} solve_case;

static const uint8_t palette[16] = {
    DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR,  DG_TILE_FLOOR,       DG_TILE_FLOOR,
    DG_TILE_CORRIDOR, DG_TILE_WALL, DG_TILE_WALL, DG_TILE_WALL,        DG_TILE_DOOR,
    DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_SECRET,
    DG_TILE_VOID, DG_TILE_WATER};

/* A marker name from two bytes: mostly "word N" with N 1..16, else odd ones. */
static void make_name(dg_marker *m, const char *word, uint8_t number, uint8_t style)
{
    memset(m->name, 0, sizeof m->name);
    switch (style % 16)
    {
    case 12: /* numbers out of range, zero, leading zeros */
        snprintf(m->name, sizeof m->name, "%s %d", word, number % 4 == 0 ? 0 : number);
        break;
    case 13:
        snprintf(m->name, sizeof m->name, "%s %03d", word, 1 + number % 20);
        break;
    case 14: /* broken: no number, a sign, a trailing blank, the other word */
    {
        static const char *const odd[] = {"", " ", " +1", " 1 ", " x", "1", " -2", NULL};
        const char *tail = odd[number % 8];
        snprintf(m->name, sizeof m->name, "%s%s", tail ? word : "key 2", tail ? tail : "");
        break;
    }
    case 15: /* no NUL in the whole array: "word 000...0" or "word 1xxx..." */
        memset(m->name, number % 2 ? '0' : 'x', sizeof m->name);
        memcpy(m->name, word, strlen(word));
        m->name[strlen(word)] = ' ';
        if (number % 2 == 0)
            m->name[strlen(word) + 1] = '1';
        break;
    default:
        snprintf(m->name, sizeof m->name, "%s %d", word, 1 + number % 6);
    }
}

static void decode(solve_case *c, hard_input *in)
{
    memset(c, 0, sizeof *c);
    c->w = 1 + hard_u8(in) % MAX_SIDE;
    c->h = 1 + hard_u8(in) % MAX_SIDE;
    c->pad = hard_u8(in) % 8;
    uint8_t f = hard_u8(in);
    c->fail_at = f >= 240 ? 1 : 0;
    uint8_t s = hard_u8(in), e = hard_u8(in), raw = hard_u8(in);
    int32_t n = c->w * c->h;
    for (int32_t i = 0; i < n; i++)
    {
        uint8_t b = hard_u8(in);
        c->tiles[i] = b >= 250 ? b : palette[b % 16];
    }
    c->start = (dg_point){s % n % c->w, s % n / c->w};
    c->exit = (dg_point){e % n % c->w, e % n / c->w};
    if (raw >= 248) /* now and then an end off the grid */
        c->exit.x = raw % 2 ? -1 : c->w;
    else if (raw < 128) /* mostly a start the player can stand on */
        c->tiles[s % n] = DG_TILE_FLOOR;
    c->marker_count = hard_u8(in) % (MAX_MARKERS + 1);
    for (int32_t i = 0; i < c->marker_count; i++)
    {
        uint8_t kind = hard_u8(in), at = hard_u8(in), number = hard_u8(in), style = hard_u8(in);
        dg_marker *m = &c->markers[i];
        int32_t k = at % n;
        m->pos = (dg_point){k % c->w, k / c->w};
        if (style >= 248) /* off the grid */
            m->pos = style % 2 ? (dg_point){-1, k / c->w} : (dg_point){k % c->w, c->h};
        m->room = -1;
        int lock = kind % 8 >= 3 && kind % 8 < 6;
        m->kind = kind % 8 < 3 ? DG_MARKER_KEY : lock ? DG_MARKER_LOCK : kind % 8 == 6 ? DG_MARKER_ITEM : DG_MARKER_KEY;
        make_name(m, kind % 8 == 7 ? "lock" : lock ? "lock" : "key", number, style);
        if (lock && kind >= 64 && style < 248)
            c->tiles[k] = DG_TILE_DOOR_LOCKED; /* most lock markers sit on a locked door */
    }
}

typedef struct solve_outcome {
    dg_status st;
    dg_progress pr;
} solve_outcome;

static solve_outcome run_case(const solve_case *c, int32_t pad)
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
    r.markers = (dg_marker *)c->markers;
    r.marker_count = c->marker_count;
    uint64_t before = dg_grid_hash(&gg.grid);
    hard_alloc ha;
    hard_alloc_init(&ha, c->fail_at);
    solve_outcome o;
    memset(&o.pr, 0xA5, sizeof o.pr);
    dg_progress untouched = o.pr;
    o.st = dg_solve(&gg.grid, &r, &o.pr, &ha.hooks, NULL);
    if (!hard_status_known(o.st))
        fail("undocumented status");
    if (!guard_intact(&gg) || dg_grid_hash(&gg.grid) != before)
        fail("dg_solve wrote to the grid");
    if (!hard_alloc_clean(&ha))
        fail("leaked or mismatched free");
    if (o.st != DG_OK && memcmp(&o.pr, &untouched, sizeof o.pr) != 0)
        fail("progress changed on error");
    if (o.st == DG_E_NOMEM && ha.failed == 0)
        fail("DG_E_NOMEM without a failed allocation");
    ref_map m;
    memset(&m, 0, sizeof m);
    if (o.st != DG_E_NOMEM && ref_map_init(&m, &gg.grid, &r))
    {
        ref_verdict v = ref_solve(&m, &r);
        if ((v.status == 0) != (o.st == DG_OK) || (v.status == 1 && o.st != DG_E_INVALID))
            fail("the status differs from the reference's");
        if (o.st == DG_OK)
        {
            if (o.pr.solvable != v.solvable)
                fail("solvable differs from the search over (cell, keys held)");
            if (o.pr.keys_reached != v.keys_reached)
                fail("keys_reached differs from the reference's");
            if (o.pr.steps != v.steps)
                fail("steps differs from the reference's");
            const char *bad = ref_check_order(&m, &r, &o.pr);
            if (bad)
                fail(bad);
        }
    }
    ref_map_free(&m);
    r.markers = NULL;
    r.marker_count = 0;
    guard_free(&gg);
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hard_input in = {data, size, 0};
    solve_case c;
    decode(&c, &in);
    solve_outcome a = run_case(&c, c.pad), b = run_case(&c, (c.pad + 3) % 8);
    if (a.st != b.st || (a.st == DG_OK && memcmp(&a.pr, &b.pr, sizeof a.pr) != 0))
        fail("not deterministic (same input, other stride)");
    return 0;
}
