/* Fuzz target: the spawn-table parser, and dg_populate with what it parsed.
 * The input is spawn-table text (the corpus in tests/fuzz/corpus/spawn/ holds
 * the example tables and broken files). Whatever the bytes, parsing must
 * return OK or a parse error with a sane report, never read past the input,
 * free every block with its own size; a table that parsed must populate a
 * small map without writing outside its footprint rules, the result keeping
 * its earlier markers. Any violation aborts with a message. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (strncmp(d->message, "fuzz:", 5) != 0 || d->line < 1 || d->column < 1 ||
        d->status != DG_E_PARSE)
        r->bad = 1;
}

static const char *check_entries(const dg_spawn_table *t)
{
    for (int32_t i = 0; i < dg_spawn_count(t); i++)
    {
        dg_spawn_entry e;
        if (dg_spawn_get(t, i, &e) != DG_OK || dg_spawn_find(t, e.name) != i)
            return "entry lookup inconsistent";
        if (e.size < 1 || e.size > DG_CREATURE_SIZE_MAX || e.group_min < 1 ||
            e.group_max < e.group_min || e.weight < 1 || e.cost < 0 ||
            (e.depth_max >= 0 && e.depth_max < e.depth_min) || e.room_count > DG_SPAWN_ROOMS_MAX)
            return "an entry outside its documented ranges";
    }
    return NULL;
}

/* Populates a small map; the new markers must keep the placement rules. */
static const char *check_populate(const dg_spawn_table *t, uint64_t seed, hard_alloc *h)
{
    guarded_grid gg;
    if (!guard_make(&gg, FUZZ_W, FUZZ_H, 2))
        return NULL;
    dg_result r;
    dg_result_init(&r, NULL);
    dg_recipe recipe;
    const char *bad = NULL;
    if (dg_recipe_init(&recipe, "attach", seed, FUZZ_W, FUZZ_H) == DG_OK &&
        dg_recipe_generate(&recipe, &gg.grid, NULL, &r, NULL, NULL) == DG_OK)
    {
        uint64_t before = dg_grid_hash(&gg.grid);
        int32_t markers = r.marker_count;
        dg_populate_params p;
        dg_populate_defaults(&p);
        p.depth = (int32_t)(seed % 20);
        dg_populate_stats st;
        dg_status s = dg_populate(&gg.grid, t, &p, seed, &r, &st, &h->hooks, NULL);
        if (!guard_intact(&gg) || dg_grid_hash(&gg.grid) != before)
            bad = "populate wrote to the grid";
        else if (s != DG_OK && s != DG_E_INVALID && s != DG_E_NOMEM)
            bad = "populate returned an undocumented status";
        else if (s != DG_OK && r.marker_count != markers)
            bad = "populate failed but changed the result";
        else if (s == DG_OK && st.spawns != r.marker_count - markers)
            bad = "populate's stats disagree with its markers";
        for (int32_t i = markers; i < r.marker_count && !bad; i++)
        {
            const dg_marker *m = &r.markers[i];
            for (int32_t dy = 0; dy < m->size && !bad; dy++)
                for (int32_t dx = 0; dx < m->size && !bad; dx++)
                    if (dg_grid_get(&gg.grid, m->pos.x + dx, m->pos.y + dy) != DG_TILE_FLOOR)
                        bad = "a footprint off room floor";
            if (m->number < 1 || m->number > st.groups || m->size < 1 || m->size > 4)
                bad = "a spawn's group or size out of range";
        }
    }
    dg_result_free(&r);
    guard_free(&gg);
    return bad;
}

static const char *fuzz_spawn_run(const uint8_t *data, size_t size)
{
    hard_alloc h;
    hard_alloc_init(&h, 0);
    parse_report rep = {0, 0};
    dg_spawn_table *t = (dg_spawn_table *)&rep;
    dg_diag d;
    dg_status st = dg_spawn_parse((const char *)data, size, "fuzz", &h.hooks, on_error, &rep, &t, &d);
    const char *bad = NULL;
    if (st != DG_OK && st != DG_E_PARSE)
        bad = "parse returned an undocumented status";
    else if ((st == DG_OK) != (t != NULL))
        bad = "parse status and table disagree";
    else if (st == DG_E_PARSE &&
             (rep.errors < 1 || rep.errors > DG_SPAWN_MAX_ERRORS || rep.bad || d.line < 1))
        bad = "parse errors badly reported";
    else if (st == DG_OK && (rep.errors || dg_spawn_table_hash(t) == 0))
        bad = "parse succeeded but reported errors or hashed to 0";
    if (t && !bad)
        bad = check_entries(t);
    uint64_t seed = size ? data[size - 1] * 0x9E3779B97F4A7C15ULL : 1;
    if (t && !bad)
        bad = check_populate(t, seed, &h);
    dg_spawn_table_free(t);
    if (!bad && !hard_alloc_clean(&h))
        bad = "a block leaked or was freed with the wrong size";
    return bad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bad = fuzz_spawn_run(data, size);
    if (bad)
    {
        fprintf(stderr, "fuzz_spawn: %s\n", bad);
        abort();
    }
    return 0;
}
