/* dg_solve against the cell search it replaced (kept here, as it was in
 * 0.10, as the reference): every solver field equal on locked maps of every
 * generator and on random hand-made grids, and the region search
 * (dgi_solve_regions) deciding most generated maps on its own. */
#include "analysis/analysis.h"
#include "progress/progress.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference: 0.10's cell by cell solver ---------------------------- */

enum { T_ENTERED = 1, T_TOUCHED = 2, T_KEYS = 4, T_LOCKS = 8 };

/* Cells are numbered over the grid and a closed one-cell frame, pw = width + 2
 * per row, so a cell's neighbours are c +- 1 and c +- pw with no bounds test.
 * Key and lock numbers 1..DG_LOCKS_MAX are bits 0..15 of a key set. */
typedef struct solver {
    const dg_result *r;
    const uint8_t *tile; /* framed tiles; the frame is rock */
    int32_t pw, h;
    uint8_t *tag;     /* T_ENTERED, T_TOUCHED; T_KEYS / T_LOCKS: sets[c] is valid */
    uint32_t *sets;   /* keys lying on the cell (low 16 bits), locks on it (high 16) */
    int32_t *parent;  /* cell a touched cell was first touched from */
    int32_t *queue;
    int32_t head, tail;
    int32_t held[DG_LOCKS_MAX + 1];  /* wave + 1 key N was picked up in, 0 if not held */
    int32_t key_cell[DG_LOCKS_MAX + 1]; /* where key N was first picked up, -1 if not */
    uint32_t have;                   /* keys held before this wave */
    uint32_t taken;                  /* keys held, this wave's too */
    int32_t picked, wave;
    int32_t found[DG_LOCKS_MAX];     /* keys picked up in this wave, in pickup order */
    int32_t found_count;
} solver;

/* The framed cell of grid point p, or -1 off the grid. */
static int32_t framed(const solver *s, dg_point p)
{
    if (p.x < 0 || p.y < 0 || p.x >= s->pw - 2 || p.y >= s->h)
        return -1;
    return (p.y + 1) * s->pw + p.x + 1;
}

static void enter(solver *s, int32_t c)
{
    s->tag[c] |= T_ENTERED;
    s->queue[s->tail++] = c;
}

/* 1 if the locked door c opens with the keys held before this wave: it carries
 * at least one "lock N" marker, and the keys of all of them are held. */
static int opens(const solver *s, int32_t c)
{
    return (s->tag[c] & T_LOCKS) && ((s->sets[c] >> 16) & ~s->have) == 0;
}

/* Opens every touched door of lock n that the keys held now open. */
static void open_lock(solver *s, int32_t n)
{
    for (int32_t i = 0; i < s->r->marker_count; i++)
    {
        const dg_marker *m = &s->r->markers[i];
        if (m->kind != DG_MARKER_LOCK || dgi_progress_number(m, "lock") != n)
            continue;
        int32_t c = framed(s, m->pos);
        if (c >= 0 && s->tile[c] == DG_TILE_DOOR_LOCKED &&
            (s->tag[c] & (T_TOUCHED | T_ENTERED)) == T_TOUCHED && opens(s, c))
            enter(s, c);
    }
}

/* Enters c unless it is shut (wall, secret door, or a lock whose keys are not
 * all held yet); a locked door touched waits for its keys. */
static void touch(solver *s, int32_t from, int32_t c)
{
    uint8_t t = s->tile[c];
    if ((s->tag[c] & T_TOUCHED) || t == DG_TILE_DOOR_SECRET || !dgi_passable_default[t])
        return;
    s->tag[c] |= T_TOUCHED;
    s->parent[c] = from;
    if (t != DG_TILE_DOOR_LOCKED || opens(s, c))
        enter(s, c);
}

/* Picks up every key lying on c that is not held yet. */
static void pick_up(solver *s, int32_t c)
{
    if (!(s->tag[c] & T_KEYS))
        return;
    uint32_t fresh = s->sets[c] & 0xffffu & ~s->taken;
    for (int32_t n = 1; fresh; n++, fresh >>= 1)
        if (fresh & 1u)
        {
            s->held[n] = s->wave + 1;
            s->key_cell[n] = c;
            s->taken |= 1u << (n - 1);
            s->picked++;
            s->found[s->found_count++] = n;
        }
}

static void flood(solver *s, int32_t start)
{
    s->tag[start] |= T_TOUCHED;
    s->parent[start] = start;
    enter(s, start);
    for (;;)
    {
        while (s->head < s->tail)
        {
            int32_t c = s->queue[s->head++];
            pick_up(s, c);
            touch(s, c, c - s->pw);
            touch(s, c, c + 1);
            touch(s, c, c + s->pw);
            touch(s, c, c - 1);
        }
        if (s->found_count == 0)
            break;
        s->wave++; /* the keys of the wave just done open their doors */
        s->have = s->taken;
        for (int32_t i = 0; i < s->found_count; i++)
            open_lock(s, s->found[i]);
        s->found_count = 0;
    }
}

/* The keys the way to `c` depends on, marked in need[]: the locks on its
 * parent chain, then the ways to their keys in turn. Every cell on a chain was
 * entered, so each of its locks' keys was picked up (key_cell >= 0), and each
 * key number is pushed once: the stack holds at most DG_LOCKS_MAX + 1 cells. */
static void mark_needed(const solver *s, int32_t c, uint8_t need[])
{
    int32_t stack[DG_LOCKS_MAX + 1], top = 0;
    stack[top++] = c;
    while (top > 0)
    {
        for (int32_t at = stack[--top];; at = s->parent[at])
        {
            if (s->tile[at] == DG_TILE_DOOR_LOCKED && (s->tag[at] & T_LOCKS))
                for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
                    if ((s->sets[at] >> (15 + n) & 1u) && !need[n] && s->key_cell[n] >= 0)
                    {
                        need[n] = 1;
                        stack[top++] = s->key_cell[n];
                    }
            if (s->parent[at] == at)
                break;
        }
    }
}

static void write_order(const solver *s, const uint8_t need[], dg_progress *p)
{
    p->order_count = 0;
    for (int32_t wave = 1; wave <= s->wave; wave++)
        for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
            if (need[n] && s->held[n] == wave)
                p->order[p->order_count++] = n;
}

/* Notes the keys and locks of the markers on their cells: every "key N"
 * marker (several may share a cell, and a key number may lie in several
 * places) and every "lock N" marker (a door may carry several). */
static void lay_marks(solver *s)
{
    for (int32_t i = 0; i < s->r->marker_count; i++)
    {
        const dg_marker *m = &s->r->markers[i];
        int lock = m->kind == DG_MARKER_LOCK;
        int32_t n = m->kind == DG_MARKER_KEY ? dgi_progress_number(m, "key")
                    : lock                   ? dgi_progress_number(m, "lock")
                                             : 0;
        int32_t c = framed(s, m->pos);
        if (n == 0 || c < 0)
            continue;
        if (!(s->tag[c] & (T_KEYS | T_LOCKS)))
            s->sets[c] = 0;
        s->tag[c] |= lock ? T_LOCKS : T_KEYS;
        s->sets[c] |= 1u << (n - 1 + (lock ? 16 : 0));
    }
}

static void cell_solve_run(const uint8_t *tile, int32_t width, int32_t height, const dg_result *r,
                   int32_t *parent, int32_t *queue, uint32_t *sets, uint8_t *tag, dg_progress *p)
{
    solver s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.tile = tile;
    s.pw = width + 2;
    s.h = height;
    s.tag = tag;
    s.sets = sets;
    s.parent = parent;
    s.queue = queue;
    memset(s.tag, 0, (size_t)s.pw * (size_t)(height + 2));
    for (int i = 0; i <= DG_LOCKS_MAX; i++)
        s.key_cell[i] = -1;
    lay_marks(&s);
    flood(&s, framed(&s, r->start));
    int32_t exit = framed(&s, r->exit);
    p->solvable = (s.tag[exit] & T_ENTERED) != 0;
    p->keys_reached = s.picked;
    p->steps = s.tail;
    uint8_t need[DG_LOCKS_MAX + 1] = {0};
    if (p->solvable)
        mark_needed(&s, exit, need);
    write_order(&s, need, p);
}

/* The grid's tiles into tile[], framed by a ring of rock (width + 2 per row). */
static void cell_frame_tiles(const dg_grid *g, uint8_t *tile)
{
    size_t pw = (size_t)g->width + 2;
    memset(tile, DG_TILE_VOID, pw);
    for (int32_t y = 0; y < g->height; y++)
    {
        uint8_t *row = tile + (size_t)(y + 1) * pw;
        row[0] = row[pw - 1] = DG_TILE_VOID;
        memcpy(row + 1, g->cells + (size_t)y * (size_t)g->stride, (size_t)g->width);
    }
    memset(tile + (size_t)(g->height + 1) * pw, DG_TILE_VOID, pw);
}


/* The reference's answer for a checked map (start open, not a shut door). */
static void cell_solve(const dg_grid *g, const dg_result *r, dg_progress *p)
{
    size_t n = ((size_t)g->width + 2) * ((size_t)g->height + 2);
    int32_t *parent = malloc(n * sizeof *parent), *queue = malloc(n * sizeof *queue);
    uint32_t *sets = malloc(n * sizeof *sets);
    uint8_t *tag = malloc(n), *tile = malloc(n);
    cell_frame_tiles(g, tile);
    cell_solve_run(tile, g->width, g->height, r, parent, queue, sets, tag, p);
    free(parent), free(queue), free(sets), free(tag), free(tile);
}

/* ---- the comparison ------------------------------------------------------- */

typedef struct tally {
    int32_t maps, differ, decided, region_differ;
} tally;

/* dg_solve, the reference and (when it decides) the region search on one map;
 * every byte of dg_progress compared. */
static void compare(const dg_grid *g, const dg_result *r, tally *t)
{
    dg_progress want, got, fast;
    memset(&want, 0x5a, sizeof want);
    memcpy(&got, &want, sizeof got);
    memcpy(&fast, &want, sizeof fast);
    dg_status st = dg_solve(g, r, &got, NULL, NULL);
    if (st != DG_OK)
        return; /* refused (a start on a shut door): the reference never runs */
    cell_solve(g, r, &want);
    size_t bytes = ((size_t)g->width + 2) * ((size_t)g->height + 2) * (3 * sizeof(int32_t) + 2);
    void *block = malloc(bytes);
    int decided = dgi_solve_regions(g, r, block, bytes, &fast);
    free(block);
    t->maps++;
    t->differ += memcmp(&want, &got, sizeof want) != 0;
    t->decided += decided;
    t->region_differ += decided && memcmp(&want, &fast, sizeof want) != 0;
}

static const char *const lock_gens[] = {"attach", "bsp", "chain", "cave", "maze", "walk",
                                        "scatter", "world"};

TEST(solve_regions_agree_on_locked_maps)
{
    tally t = {0, 0, 0, 0};
    for (size_t gi = 0; gi < sizeof lock_gens / sizeof *lock_gens; gi++)
        for (uint64_t seed = 1; seed <= 12; seed++)
        {
            int32_t w = seed % 3 == 0 ? 120 : 80, h = seed % 3 == 0 ? 70 : 50;
            uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
            dg_grid g;
            dg_result r;
            dg_recipe rc;
            dg_grid_init(&g, cells, w, h, 0);
            dg_result_init(&r, NULL);
            dg_lock_params lp;
            dg_lock_defaults(&lp);
            lp.locks = 1 + (int32_t)(seed % 4);
            lp.secret_permille = seed % 2 ? 400 : 0;
            lp.gate_max = 1 + (int32_t)(seed % 3);
            if (dg_recipe_init(&rc, lock_gens[gi], seed, w, h) == DG_OK &&
                dg_recipe_generate(&rc, &g, NULL, &r, NULL, NULL) == DG_OK &&
                dg_lock_place(&g, &lp, seed, &r, NULL, NULL, NULL) == DG_OK)
                compare(&g, &r, &t);
            dg_result_free(&r);
            free(cells);
        }
    printf("    locked maps: %d, region search decided %d\n", (int)t.maps, (int)t.decided);
    CHECKF(t.maps >= 80, "only %d maps locked", (int)t.maps);
    CHECKF(t.differ == 0, "%d of %d locked maps: dg_solve differs from the cell search",
           (int)t.differ, (int)t.maps);
    CHECKF(t.region_differ == 0, "%d of %d locked maps: the region search differs",
           (int)t.region_differ, (int)t.maps);
    CHECKF(t.decided * 10 >= t.maps * 9, "the region search decided only %d of %d locked maps",
           (int)t.decided, (int)t.maps);
}

/* A random open cell (floor), or (0, 0) after 40 misses. */
static dg_point random_floor(dg_rng *rng, const dg_grid *g)
{
    for (int tries = 0; tries < 40; tries++)
    {
        dg_point p = {dg_rng_range(rng, 0, g->width - 1), dg_rng_range(rng, 0, g->height - 1)};
        if (dg_grid_get(g, p.x, p.y) == DG_TILE_FLOOR)
            return p;
    }
    return (dg_point){0, 0};
}

/* Rooms of floor in a lattice of walls with doors of every kind between
 * them (often several on one wall: many ways into a room, in every wave),
 * locks on most locked doors (some with two), keys 1..4 and stray copies. */
static void random_map(dg_rng *rng, dg_grid *g, dg_result *r, dg_marker *marks, int32_t room)
{
    static const uint8_t door_kinds[] = {DG_TILE_DOOR, DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_LOCKED,
                                         DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_SECRET, DG_TILE_FLOOR};
    int32_t side = dg_rng_range(rng, 3, 6);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            int vx = x % side == 0, vy = y % side == 0;
            uint8_t t = DG_TILE_FLOOR;
            if (vx && vy)
                t = DG_TILE_WALL;
            else if (vx || vy)
                t = dg_rng_range(rng, 0, 2) == 0 ? door_kinds[dg_rng_range(rng, 0, 5)] : DG_TILE_WALL;
            else if (dg_rng_range(rng, 0, 19) == 0)
                t = DG_TILE_WALL;
            dg_grid_set(g, x, y, t);
        }
    int32_t count = 0;
    for (int32_t y = 0; y < g->height && count < room; y++)
        for (int32_t x = 0; x < g->width && count < room; x++)
        {
            int32_t locks = dg_grid_get(g, x, y) != DG_TILE_DOOR_LOCKED ? 0
                            : dg_rng_range(rng, 0, 7) == 0                 ? 0 /* never opens */
                            : dg_rng_range(rng, 0, 4) == 0                 ? 2
                                                                           : 1;
            for (int32_t k = 0; k < locks && count < room; k++)
            {
                dg_marker m = {{x, y}, DG_MARKER_LOCK, -1, "", 0, 0, 0, {0}};
                snprintf(m.name, sizeof m.name, "lock %d", (int)dg_rng_range(rng, 1, 4));
                marks[count++] = m;
            }
        }
    for (int32_t i = 0; i < 4 + dg_rng_range(rng, 0, 3) && count < room + 8; i++)
    {
        dg_marker m = {random_floor(rng, g), DG_MARKER_KEY, -1, "", 0, 0, 0, {0}};
        snprintf(m.name, sizeof m.name, "key %d", (int)(i < 4 ? i + 1 : dg_rng_range(rng, 1, 4)));
        marks[count++] = m;
    }
    r->markers = marks;
    r->marker_count = count;
    r->start = random_floor(rng, g);
    r->exit = random_floor(rng, g);
}

TEST(solve_regions_agree_on_random_maps)
{
    dg_rng rng;
    dg_rng_seed(&rng, 30, 0);
    tally t = {0, 0, 0, 0};
    uint8_t cells[40 * 30];
    dg_marker marks[72];
    for (int map = 0; map < 3000; map++)
    {
        int32_t w = dg_rng_range(&rng, 1, 40), h = dg_rng_range(&rng, 1, 30);
        dg_grid g;
        dg_result r;
        dg_grid_init(&g, cells, w, h, 0);
        memset(&r, 0, sizeof r);
        random_map(&rng, &g, &r, marks, 64);
        compare(&g, &r, &t);
    }
    CHECKF(t.differ == 0, "%d of %d random maps: dg_solve differs from the cell search",
           (int)t.differ, (int)t.maps);
    CHECKF(t.region_differ == 0, "%d of %d random maps: the region search differs",
           (int)t.region_differ, (int)t.maps);
    CHECKF(t.decided * 2 >= t.maps, "the region search decided only %d of %d random maps",
           (int)t.decided, (int)t.maps);
    printf("    random maps: %d, region search decided %d\n", (int)t.maps, (int)t.decided);
}
