/* A reference for dg_solve, shared by tests/test_hostile.c and
 * tests/fuzz/fuzz_solve.c: a plain breadth-first search over (cell, keys held),
 * written from the documented rules only (docs/progression.md#the-solver):
 *
 * - the player stands on the start (refused on a locked or secret door) and
 *   walks 4-way over passable tiles; a secret door is wall;
 * - entering a cell picks up every key marker "key N" (N = 1..16) lying on it;
 * - a locked door opens when it carries at least one "lock N" marker and the
 *   keys of all its lock markers are held; without one it never opens;
 * - names are "key N" / "lock N" exactly: N decimal, 1..16, leading zeros
 *   allowed, NUL within the name's array; markers off the grid count for nothing.
 *
 * Static functions only, so that each user gets its own copy. Key sets are
 * bit masks over the key numbers present (at most REF_KEYS of them; the
 * callers keep to that), states are (cell, mask). */
#ifndef SOLVE_REF_H
#define SOLVE_REF_H

#include "dungeon.h"

#include <stdlib.h>
#include <string.h>

#define REF_KEYS 12

/* N of a marker named "<word> N" (1..DG_LOCKS_MAX), else 0. */
static int32_t ref_number(const dg_marker *m, const char *word)
{
    const char *end = memchr(m->name, '\0', sizeof m->name);
    size_t len = strlen(word);
    if (!end || (size_t)(end - m->name) < len + 2 || memcmp(m->name, word, len) != 0 ||
        m->name[len] != ' ')
        return 0;
    int32_t n = 0;
    for (const char *p = m->name + len + 1; p < end; p++)
    {
        if (*p < '0' || *p > '9')
            return 0;
        n = n * 10 + (*p - '0');
        if (n > DG_LOCKS_MAX)
            return 0;
    }
    return n >= 1 ? n : 0;
}

typedef struct ref_map {
    const dg_grid *g;
    int32_t n;              /* width * height */
    uint32_t *keys;         /* per cell: key numbers lying there (bit N - 1) */
    uint32_t *locks;        /* per cell: lock numbers on it (bit N - 1) */
    int32_t bit_of[DG_LOCKS_MAX + 1]; /* key number -> state bit, -1 if no such key */
    int32_t bits;
} ref_map;

typedef struct ref_verdict {
    int status;             /* 0: OK expected; 1: DG_E_INVALID expected */
    int solvable;
    int32_t keys_reached, steps;
} ref_verdict;

static int ref_open_tile(uint8_t t)
{
    return dg_tile_passable(t) && t != DG_TILE_DOOR_SECRET;
}

/* Builds the per-cell key and lock sets; returns 0 when more than REF_KEYS
 * distinct key numbers lie on the grid (the caller keeps below that). */
static int ref_map_init(ref_map *m, const dg_grid *g, const dg_result *r)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    m->n = g->width * g->height;
    m->keys = calloc((size_t)m->n, sizeof *m->keys);
    m->locks = calloc((size_t)m->n, sizeof *m->locks);
    if (!m->keys || !m->locks)
        abort();
    for (int i = 0; i <= DG_LOCKS_MAX; i++)
        m->bit_of[i] = -1;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *k = &r->markers[i];
        if (k->pos.x < 0 || k->pos.y < 0 || k->pos.x >= g->width || k->pos.y >= g->height)
            continue;
        int32_t c = k->pos.y * g->width + k->pos.x;
        int32_t key = k->kind == DG_MARKER_KEY ? ref_number(k, "key") : 0;
        int32_t lock = k->kind == DG_MARKER_LOCK ? ref_number(k, "lock") : 0;
        if (key)
        {
            m->keys[c] |= 1u << (key - 1);
            if (m->bit_of[key] < 0)
                m->bit_of[key] = m->bits++;
        }
        if (lock)
            m->locks[c] |= 1u << (lock - 1);
    }
    return m->bits <= REF_KEYS;
}

static void ref_map_free(ref_map *m)
{
    free(m->keys);
    free(m->locks);
}

/* The state bits of a set of key numbers; -1 if one of them has no key. */
static int64_t ref_bits(const ref_map *m, uint32_t numbers)
{
    int64_t bits = 0;
    for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
        if (numbers >> (n - 1) & 1u)
        {
            if (m->bit_of[n] < 0)
                return -1;
            bits |= (int64_t)1 << m->bit_of[n];
        }
    return bits;
}

/* 1 if cell c can be entered holding the key bits `held`. */
static int ref_enterable(const ref_map *m, int32_t c, int64_t held)
{
    uint8_t t = dg_grid_get(m->g, c % m->g->width, c / m->g->width);
    if (!ref_open_tile(t))
        return 0;
    if (t != DG_TILE_DOOR_LOCKED)
        return 1;
    int64_t need = ref_bits(m, m->locks[c]);
    return m->locks[c] != 0 && need >= 0 && (need & ~held) == 0;
}

/* The verdict of the search over (cell, keys held) from the start. */
static ref_verdict ref_solve(const ref_map *m, const dg_result *r)
{
    ref_verdict v = {1, 0, 0, 0};
    const dg_grid *g = m->g;
    const dg_point ends[2] = {r->start, r->exit};
    for (int k = 0; k < 2; k++)
        if (ends[k].x < 0 || ends[k].y < 0 || ends[k].x >= g->width || ends[k].y >= g->height ||
            !dg_tile_passable(dg_grid_get(g, ends[k].x, ends[k].y)))
            return v;
    uint8_t st = dg_grid_get(g, r->start.x, r->start.y);
    if (st == DG_TILE_DOOR_LOCKED || st == DG_TILE_DOOR_SECRET)
        return v;
    v.status = 0;
    size_t sets = (size_t)1 << m->bits, states = sets * (size_t)m->n;
    uint8_t *seen = calloc(states, 1), *cell_seen = calloc((size_t)m->n, 1);
    int32_t *queue = malloc(states * sizeof *queue * 2);
    if (!seen || !cell_seen || !queue)
        abort();
    int64_t got = 0;
    size_t head = 0, tail = 0;
    int32_t s0 = r->start.y * g->width + r->start.x;
    int64_t k0 = ref_bits(m, m->keys[s0] & 0xffffu);
    seen[(size_t)k0 * (size_t)m->n + (size_t)s0] = 1;
    queue[tail++] = s0;
    queue[tail++] = (int32_t)k0;
    while (head < tail)
    {
        int32_t c = queue[head++];
        int64_t held = queue[head++];
        got |= held;
        cell_seen[c] = 1;
        int32_t x = c % g->width, y = c / g->width;
        const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || nx >= g->width || ny >= g->height)
                continue;
            int32_t to = ny * g->width + nx;
            if (!ref_enterable(m, to, held))
                continue;
            int64_t now = held | ref_bits(m, m->keys[to]);
            size_t at = (size_t)now * (size_t)m->n + (size_t)to;
            if (!seen[at])
            {
                seen[at] = 1;
                queue[tail++] = to;
                queue[tail++] = (int32_t)now;
            }
        }
    }
    for (int32_t c = 0; c < m->n; c++)
        v.steps += cell_seen[c];
    v.solvable = cell_seen[r->exit.y * g->width + r->exit.x];
    for (int32_t b = 0; b < m->bits; b++)
        v.keys_reached += (int32_t)(got >> b & 1);
    free(seen);
    free(cell_seen);
    free(queue);
    return v;
}

/* Cells reachable from the start holding exactly the key numbers `numbers`
 * (nothing picked up on the way) into reach[]. */
static void ref_reach_fixed(const ref_map *m, const dg_result *r, uint32_t numbers, uint8_t *reach)
{
    int64_t held = 0;
    for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
        if ((numbers >> (n - 1) & 1u) && m->bit_of[n] >= 0)
            held |= (int64_t)1 << m->bit_of[n];
    int32_t *queue = malloc((size_t)m->n * sizeof *queue), head = 0, tail = 0;
    if (!queue)
        abort();
    memset(reach, 0, (size_t)m->n);
    int32_t s0 = r->start.y * m->g->width + r->start.x;
    reach[s0] = 1;
    queue[tail++] = s0;
    while (head < tail)
    {
        int32_t c = queue[head++], x = c % m->g->width, y = c / m->g->width;
        const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || nx >= m->g->width || ny >= m->g->height)
                continue;
            int32_t to = ny * m->g->width + nx;
            if (!reach[to] && ref_enterable(m, to, held))
            {
                reach[to] = 1;
                queue[tail++] = to;
            }
        }
    }
    free(queue);
}

/* NULL if p->order is a valid order for a solvable map (distinct numbers,
 * each key reachable holding the keys before it, the exit holding them all),
 * or empty for an unsolvable one; else what is wrong. */
static const char *ref_check_order(const ref_map *m, const dg_result *r, const dg_progress *p)
{
    if (p->order_count < 0 || p->order_count > DG_LOCKS_MAX)
        return "order_count out of range";
    if (!p->solvable)
        return p->order_count == 0 ? NULL : "an order for an unsolvable map";
    uint8_t *reach = malloc((size_t)m->n);
    if (!reach)
        abort();
    uint32_t held = 0;
    const char *bad = NULL;
    for (int32_t i = 0; i < p->order_count && !bad; i++)
    {
        int32_t n = p->order[i];
        if (n < 1 || n > DG_LOCKS_MAX || (held >> (n - 1) & 1u))
        {
            bad = "an order entry out of range or repeated";
            break;
        }
        ref_reach_fixed(m, r, held, reach);
        int found = 0;
        for (int32_t c = 0; c < m->n && !found; c++)
            found = reach[c] && (m->keys[c] >> (n - 1) & 1u);
        if (!found)
            bad = "a key in the order cannot be reached holding the keys before it";
        held |= 1u << (n - 1);
    }
    if (!bad)
    {
        ref_reach_fixed(m, r, held, reach);
        if (!reach[r->exit.y * m->g->width + r->exit.x])
            bad = "the exit cannot be reached holding the keys of the order";
    }
    free(reach);
    return bad;
}

#endif
