/* Fuzz target: the prefab parser, and everything a parsed set feeds. The
 * input is prefab text (the corpus in tests/fuzz/corpus/prefab/ holds the
 * sample sets and broken files). Whatever the bytes, parsing must return OK or
 * a parse error with a sane report, never read past the input (the caller
 * gives an exact-size buffer), free every block with its own size; a set that
 * parsed must stamp, pick and generate without writing outside the grid,
 * leaving the grid untouched on error. Any violation aborts with a message.
 * tests/test_prefab_corpus.c replays the corpus through the same code. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_PREFABS 6  /* prefabs of one input that are stamped */
#define FUZZ_W 40
#define FUZZ_H 28

typedef struct parse_report {
    int errors;
    int bad; /* a message without the "fuzz:" prefix or with line/column 0 */
} parse_report;

static void on_error(void *user, const dg_diag *d)
{
    parse_report *r = user;
    r->errors++;
    if (strncmp(d->message, "fuzz:", 5) != 0 || d->line < 1 || d->column < 1 || d->status != DG_E_PARSE)
        r->bad = 1;
}

static const char *check_info(const dg_prefab_set *set, int32_t i, dg_prefab_info *in)
{
    if (dg_prefab_get_info(set, i, in) != DG_OK)
        return "get_info failed on a valid index";
    if (in->width < 1 || in->height < 1 || in->width > DG_PREFAB_MAX_SIDE || in->height > DG_PREFAB_MAX_SIDE)
        return "prefab size out of limits";
    if ((in->distinct & ~in->orientations) || (in->orientations && !in->distinct))
        return "distinct orientations not a non-empty subset of the allowed ones";
    if (in->door_class != dg_door_class(in->door_sides) || dg_prefab_find(set, in->name) != i)
        return "door class or name lookup inconsistent";
    return NULL;
}

/* Stamps prefab i in every allowed orientation at a few offsets. */
static const char *stamp_all(const dg_prefab_set *set, int32_t i, const dg_prefab_info *in, uint64_t seed)
{
    guarded_grid gg;
    if (!guard_make(&gg, FUZZ_W, FUZZ_H, 3))
        return NULL;
    const char *bad = NULL;
    dg_result r;
    dg_result_init(&r, NULL);
    static const int32_t offsets[3][2] = {{0, 0}, {-3, -2}, {FUZZ_W - 2, FUZZ_H - 1}};
    for (int32_t o = 0; o < DG_ORIENT_COUNT && !bad; o++)
        for (int k = 0; k < 3 && !bad; k++)
        {
            dg_grid_fill(&gg.grid, DG_TILE_VOID);
            dg_status st = dg_prefab_stamp(set, i, o, seed + (uint64_t)k, &gg.grid, offsets[k][0],
                                           offsets[k][1], &r, NULL);
            int allowed = (in->orientations >> o) & 1;
            if (!allowed && st != DG_E_INVALID)
                bad = "stamp accepted an orientation that is not allowed";
            else if (allowed && st != DG_OK && st != DG_E_LIMIT && st != DG_E_INVALID)
                bad = "stamp returned an undocumented status";
            else if (!guard_intact(&gg))
                bad = "stamp wrote outside the grid";
            for (int32_t m = 0; m < r.marker_count && !bad; m++)
                if (r.markers[m].pos.x < 0 || r.markers[m].pos.y < 0 || r.markers[m].pos.x >= FUZZ_W ||
                    r.markers[m].pos.y >= FUZZ_H)
                    bad = "stamp reported a marker outside the grid";
            dg_result_free(&r);
        }
    guard_free(&gg);
    return bad;
}

static const char *check_picks(const dg_prefab_set *set, uint64_t seed)
{
    for (int32_t sides = 0; sides < 16; sides++)
    {
        int32_t index, o;
        dg_prefab_info in;
        dg_status st = dg_prefab_pick(set, DG_PREFAB_FURNISH, sides, seed + (uint64_t)sides, &index, &o);
        if (st == DG_E_NOSPACE)
            continue;
        if (st != DG_OK || dg_prefab_get_info(set, index, &in) != DG_OK ||
            dg_orient_sides(in.door_sides, o) != sides || !((in.distinct >> o) & 1))
            return "pick returned a prefab or orientation that does not give the sides";
    }
    return NULL;
}

/* Runs one generator on a guarded grid and checks the outcome. */
static const char *check_gen(int which, const dg_prefab_set *set, uint64_t seed)
{
    guarded_grid gg;
    if (!guard_make(&gg, FUZZ_W - 7, FUZZ_H - 5, 2))
        return NULL;
    dg_grid_fill(&gg.grid, DG_TILE_FLOOR);
    uint64_t before = dg_grid_hash(&gg.grid);
    dg_result r;
    dg_result_init(&r, NULL);
    dg_status st;
    if (which == 0)
        st = dg_prefab_full_generate(&gg.grid, set, NULL, seed, &r, NULL, NULL);
    else if (which == 1)
    {
        dg_prefab_jigsaw_params p;
        dg_prefab_jigsaw_defaults(&p);
        p.max_tries = 3;
        st = dg_prefab_jigsaw_generate(&gg.grid, set, &p, seed, &r, NULL, NULL);
    }
    else if (which == 2)
    {
        dg_prefab_islands_params p;
        dg_prefab_islands_defaults(&p);
        p.max_tries = 2;
        p.positions = 8;
        p.max_failures = 8;
        st = dg_prefab_islands_generate(&gg.grid, set, &p, seed, &r, NULL, NULL);
    }
    else
    {
        dg_prefab_mixed_params p;
        dg_prefab_mixed_defaults(&p);
        p.positions = 20;
        st = dg_prefab_mixed_generate(&gg.grid, set, &p, seed, &r, NULL, NULL);
    }
    const char *bad = NULL;
    if (!guard_intact(&gg))
        bad = "generator wrote outside the grid";
    else if (st == DG_OK && hard_validate(&gg.grid, &r))
        bad = hard_validate(&gg.grid, &r);
    else if (st != DG_OK && (dg_grid_hash(&gg.grid) != before || r.room_count != 0))
        bad = "generator failed but changed the grid or the result";
    else if (st != DG_OK && st != DG_E_NOSPACE && st != DG_E_LIMIT && st != DG_E_TOO_SMALL)
        bad = "generator returned an undocumented status";
    dg_result_free(&r);
    guard_free(&gg);
    return bad;
}

/* The whole target; NULL if every invariant held. */
static const char *fuzz_prefab_run(const uint8_t *data, size_t size)
{
    hard_alloc h;
    hard_alloc_init(&h, 0);
    parse_report rep = {0, 0};
    dg_prefab_set *set = (dg_prefab_set *)&rep;
    dg_diag d;
    dg_status st = dg_prefab_parse((const char *)data, size, "fuzz", &h.hooks, on_error, &rep, &set, &d);
    const char *bad = NULL;
    if (st != DG_OK && st != DG_E_PARSE)
        bad = "parse returned an undocumented status";
    else if ((st == DG_OK) != (set != NULL))
        bad = "parse status and set disagree";
    else if (st == DG_E_PARSE && (rep.errors < 1 || rep.errors > DG_PREFAB_MAX_ERRORS || rep.bad || d.line < 1))
        bad = "parse errors badly reported";
    else if (st == DG_OK && rep.errors)
        bad = "parse succeeded but reported errors";
    uint64_t seed = size ? data[size - 1] * 0x9E3779B97F4A7C15ULL : 1;
    for (int32_t i = 0; set && !bad && i < dg_prefab_count(set) && i < FUZZ_PREFABS; i++)
    {
        dg_prefab_info in;
        bad = check_info(set, i, &in);
        if (!bad)
            bad = stamp_all(set, i, &in, seed);
    }
    if (set && !bad)
        bad = check_picks(set, seed);
    for (int which = 0; set && !bad && which < 4; which++)
        bad = check_gen(which, set, seed);
    dg_prefab_set_free(set);
    if (!bad && !hard_alloc_clean(&h))
        bad = "parse leaked a block or freed one with the wrong size";
    return bad;
}

#ifndef FUZZ_PREFAB_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bad = fuzz_prefab_run(data, size);
    if (bad)
    {
        fprintf(stderr, "fuzz_prefab: %s\n", bad);
        abort();
    }
    return 0;
}
#endif
