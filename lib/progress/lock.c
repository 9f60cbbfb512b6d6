/* Locks, keys and secret doors on any generated map (docs/progression.md).
 *
 * The passable cells are cut into nodes: each gate cell (a door tile, or on a
 * map without doors a narrow passage) is a node, and so is each connected
 * stretch of the other cells (an area). A breadth-first search over nodes from
 * the start's node gives every node a depth. Every way from the start to a
 * deeper node crosses each shallower depth, so a depth whose nodes are all
 * gates is a cut: locking its gates holds back everything deeper. Locks take
 * such depths between the start and the exit, keys go between consecutive
 * locks, and the solver (solve.c) proves the result. Maps of loops, whose way
 * has no such depth, lock at cuts of the cell graph and at pockets off the
 * way instead (dgi_lock_plan_cuts); choose_plan weighs the ways by locks
 * placed and keys kept 8 steps clear of the start and of their own lock.
 *
 * This file chooses the locked depths and the secret doors, runs the plans
 * and holds the entry point; beside it lie lock_nodes.c (cells into nodes,
 * depths), lock_cuts.c (cuts of the cell graph, pockets), lock_keys.c (the
 * keys) and lock_play.c (the locked map written and played), on the placer of
 * lock_state.h. */
#include "progress/lock_state.h"

void dg_lock_defaults(dg_lock_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->locks = 2;
    p->key_place = DG_KEYS_BRANCH;
    p->kinds = 3;
    p->gate_max = 2;
}

/* ---- choosing the locked depths ----------------------------------------- */

/* Takes the key cells fewer than LOCK_KEY_CLEAR steps from the start off keys[]
 * (per depth + 1). */
static void uncount_near_start(lock_placer *s, int32_t *keys)
{
    int32_t q[LOCK_NEAR_CELLS];
    for (int32_t i = 1, n = dgi_lock_walk_near(s, s->start, q); i < n; i++)
        if (!(s->flag[q[i]] & LOCK_F_GATE) && q[i] != s->exit)
            keys[s->depth[s->node[q[i]]] + 1]--;
}

/* Per depth: gates[d] = the gate count if every core node at d is a gate, else -1;
 * cut[d] = a gate at d that alone separates start and exit, else -1;
 * keys[d + 1] = cells at depths <= d a key may lie on. */
static void survey_depths(lock_placer *s, int32_t *gates, int32_t *cut, int32_t *keys)
{
    int32_t levels = s->max_depth + 1;
    for (int32_t d = 0; d <= levels; d++)
    {
        gates[d] = keys[d] = 0;
        cut[d] = -1;
    }
    const uint8_t *core = s->core;
    for (int32_t i = 0; i < s->nodes; i++)
    {
        int32_t d = s->depth[i];
        if (d < 0)
            continue;
        int gate = s->size[i] == 1 && (s->flag[s->cell_of[i]] & LOCK_F_GATE);
        if (core[i]) /* an area spoils its depth */
            gates[d] = gate && gates[d] >= 0 ? gates[d] + 1 : -1;
        if (core[i] == 3)
            cut[d] = i;
        if (!gate)
            keys[d + 1] += s->size[i];
    }
    keys[s->depth[s->node[s->start]] + 1]--; /* not on the start */
    if (s->depth[s->node[s->exit]] >= 0)
        keys[s->depth[s->node[s->exit]] + 1]--;
    for (int32_t d = 0; d <= levels; d++)
        s->clear[d] = keys[d];
    uncount_near_start(s, s->clear);
    for (int32_t d = 0; d < levels; d++)
    {
        keys[d + 1] += keys[d];
        s->clear[d + 1] += s->clear[d];
    }
}

/* Key cells strictly between depths a and b (a = -1: from the start). */
static int32_t keys_between(const int32_t *keys, int32_t a, int32_t b)
{
    return keys[b] - keys[a + 1];
}

/* Key cells between depth a and candidate j's depth, less (near given) those
 * within LOCK_KEY_CLEAR steps of candidate j's gates. */
static int32_t key_room(const int32_t *keys, const int32_t *near, const int32_t *cand, int32_t a,
                        int32_t j)
{
    return keys_between(keys, a, cand[j]) - (near ? near[j] : 0);
}

/* near[j] = key cells on the start's side of candidate j's gates (shallower)
 * fewer than LOCK_KEY_CLEAR steps from them: a key there would lie beside its
 * lock. of_depth[d] = the candidate at depth d, else -1. */
static void count_near_gates(lock_placer *s, const int32_t *cut, const int32_t *cand, int32_t m,
                             int32_t *of_depth, int32_t *near)
{
    const uint8_t *core = s->core;
    for (int32_t d = 0; d <= s->max_depth; d++)
        of_depth[d] = -1;
    for (int32_t j = 0; j < m; j++)
        of_depth[cand[j]] = j, near[j] = 0;
    for (int32_t v = 0; v < s->nodes; v++)
    {
        int32_t d = s->depth[v], j = d >= 0 ? of_depth[d] : -1;
        if (j < 0 || !core[v] || !lock_gate_node(s, v) || (cut[d] >= 0 && cut[d] != v))
            continue;
        int32_t q[LOCK_NEAR_CELLS];
        for (int32_t i = 1, n = dgi_lock_walk_near(s, s->cell_of[v], q); i < n; i++)
            near[j] += !(s->flag[q[i]] & LOCK_F_GATE) && s->depth[s->node[q[i]]] < d;
    }
}

/* Candidate depths into cand[]; returns how many. */
static int32_t candidates(const lock_placer *s, const int32_t *gates, const int32_t *cut,
                          int32_t *cand)
{
    int32_t m = 0, exit_depth = s->depth[s->node[s->exit]];
    for (int32_t d = 1; d < exit_depth; d++)
        if ((gates[d] >= 1 && gates[d] <= s->p->gate_max) || cut[d] >= 0)
            cand[m++] = d;
    return m;
}

/* chain[i]: most locks a run starting at candidate i can hold (earliest next
 * candidate each time, which leaves the most room). */
static void chain_lengths(const int32_t *keys, const int32_t *near, const int32_t *cand, int32_t m,
                          int32_t *chain)
{
    int32_t j = m;
    for (int32_t i = m - 1; i >= 0; i--)
    {
        j = i + 1;
        while (j < m && key_room(keys, near, cand, cand[i], j) <= 0)
            j++;
        chain[i] = 1 + (j < m ? chain[j] : 0);
    }
}

static void choose_depths(lock_placer *s, const int32_t *keys, const int32_t *near,
                          const int32_t *cand, int32_t m, const int32_t *chain)
{
    int32_t best = 0;
    for (int32_t i = 0; i < m; i++)
        if (key_room(keys, near, cand, -1, i) > 0)
            best = DG_MAX(best, chain[i]);
    int32_t k = DG_MIN(best, s->p->locks), prev = -1, at = -1;
    int32_t exit_depth = s->depth[s->node[s->exit]];
    for (int32_t t = 1; t <= k; t++)
    {
        int32_t spread = exit_depth / (4 * (k + 1));
        int32_t target = exit_depth * t / (k + 1) + dg_rng_range(&s->rng, -spread, spread);
        int32_t pick = -1;
        for (int32_t j = at + 1; j < m; j++)
        {
            if (key_room(keys, near, cand, prev, j) <= 0 || chain[j] < k - t + 1)
                continue;
            int32_t dist = cand[j] > target ? cand[j] - target : target - cand[j];
            int32_t old = pick < 0 ? INT32_MAX
                                   : (cand[pick] > target ? cand[pick] - target : target - cand[pick]);
            if (dist < old)
                pick = j;
        }
        at = pick;
        prev = cand[pick];
        s->lock_depth[t - 1] = prev;
    }
    s->placed = k;
}

/* ---- secret doors ------------------------------------------------------- */

/* A door between two areas that face each other, open nowhere else. */
static int simple_door(const lock_placer *s, int32_t c, int32_t *a, int32_t *b)
{
    if (lock_on_ring(s, c))
        return 0;
    const int32_t pairs[2][2] = {{c - s->pw, c + s->pw}, {c - 1, c + 1}};
    for (int k = 0; k < 2; k++)
    {
        int32_t p = pairs[k][0], q = pairs[k][1], u = pairs[1 - k][0], v = pairs[1 - k][1];
        if (s->node[p] >= 0 && s->node[q] >= 0 && !(s->flag[p] & LOCK_F_GATE) &&
            !(s->flag[q] & LOCK_F_GATE) && s->node[u] < 0 && s->node[v] < 0)
        {
            *a = s->node[p];
            *b = s->node[q];
            return 1;
        }
    }
    return 0;
}

static void uf_join(int32_t *uf, int32_t a, int32_t b)
{
    a = dgi_uf_find(uf, a);
    b = dgi_uf_find(uf, b);
    if (a != b)
        uf[a > b ? a : b] = a < b ? a : b;
}

/* Doors kept for sure join their neighbours first: every door that is not
 * simple, and (as gates) the locked ones stay out of the open graph. */
static int32_t join_fixed_doors(lock_placer *s, int32_t *uf, int32_t *simple)
{
    int32_t count = 0, a, b, nb[4];
    for (int32_t c = 0; c < s->n; c++)
    {
        if (!(s->flag[c] & LOCK_F_GATE) || (s->flag[c] & LOCK_F_LOCK))
            continue;
        if (simple_door(s, c, &a, &b))
        {
            simple[count++] = c;
            continue;
        }
        for (int k = lock_neighbours(s, c, nb); k-- > 0;)
            if (s->node[nb[k]] >= 0 && !(s->flag[nb[k]] & LOCK_F_LOCK))
                uf_join(uf, s->node[c], s->node[nb[k]]);
    }
    return count;
}

/* Lists (in secret[]) the loop doors that turn secret: a simple door
 * whose two areas are already joined without it closes a loop, and removing
 * any set of such doors keeps every cell as reachable as before under every
 * set of keys. Returns how many. */
static int32_t choose_secrets(lock_placer *s)
{
    if (!s->has_doors || s->p->secret_permille == 0)
        return 0;
    int32_t *uf = s->disc, *simple = s->queue, count = 0, a = 0, b = 0;
    for (int32_t i = 0; i < s->nodes; i++)
        uf[i] = i;
    int32_t m = join_fixed_doors(s, uf, simple);
    for (int32_t i = m - 1; i > 0; i--) /* a seeded order of the simple doors */
    {
        int32_t j = (int32_t)dgi_rng_below(&s->rng, (uint32_t)i + 1), t = simple[i];
        simple[i] = simple[j];
        simple[j] = t;
    }
    for (int32_t i = 0; i < m; i++)
    {
        int32_t c = simple[i];
        simple_door(s, c, &a, &b);
        if (dgi_uf_find(uf, a) != dgi_uf_find(uf, b))
        {
            uf_join(uf, a, b);
            uf_join(uf, a, s->node[c]);
        }
        else if (dg_rng_chance(&s->rng, s->p->secret_permille))
            simple[count++] = c; /* count <= i: the entries left are read no more */
    }
    s->secret = simple;
    return count;
}

/* Dead-end rooms go behind secret doors too (secret_rooms.c). */
static dg_status hide_rooms(lock_placer *s, const dg_allocator *a)
{
    const dgi_lock_site none = {NULL, NULL, 0}, *site = s->site ? s->site : &none;
    dgi_hide h = {s->tile, s->pw, s->n, s->start, s->exit, s->key_cell, s->locked, s->placed,
                  s->locked_count, site->anchors, site->anchor_count, s->r,
                  s->p->secret_permille, s->secret, &s->secrets};
    return dgi_secret_rooms(&h, &s->rng, a);
}

/* ---- the entry point ---------------------------------------------------- */

static dg_status check_params(const dg_lock_params *p, dg_diag *diag)
{
    if (DGI_SPARE_CHECK(p->spare, "lock params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->locks < 0 || p->locks > DG_LOCKS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "locks is %d: must be 0..%d", (int)p->locks,
                        DG_LOCKS_MAX);
    if (p->require_all != 0 && p->require_all != 1)
        return dgi_fail(diag, DG_E_INVALID, "require_all is %d: must be 0 or 1",
                        (int)p->require_all);
    if (p->key_place < DG_KEYS_ON_PATH || p->key_place > DG_KEYS_DEAD_END)
        return dgi_fail(diag, DG_E_INVALID, "key_place is %d: must be 0..2", (int)p->key_place);
    if (p->kinds < 1 || p->kinds > 8)
        return dgi_fail(diag, DG_E_INVALID, "kinds is %d: must be 1..8", (int)p->kinds);
    if (p->gate_max < 1 || p->gate_max > 8)
        return dgi_fail(diag, DG_E_INVALID, "gate_max is %d: must be 1..8", (int)p->gate_max);
    if (p->secret_permille < 0 || p->secret_permille > 1000)
        return dgi_fail(diag, DG_E_INVALID, "secret_permille is %d: must be 0..1000",
                        (int)p->secret_permille);
    return DG_OK;
}

/* The first locked door of row y at or after x that is not reserved, or -1. */
static int32_t locked_in_row(const dg_grid *g, const dgi_mask *reserved, int32_t y, int32_t x)
{
    const uint8_t *row = g->cells + (size_t)y * (size_t)g->stride;
    for (;;)
    {
        const uint8_t *at = memchr(row + x, DG_TILE_DOOR_LOCKED, (size_t)(g->width - x));
        if (!at)
            return -1;
        x = (int32_t)(at - row);
        if (!dgi_mask_at(reserved, x, y))
            return x;
        if (++x >= g->width)
            return -1;
    }
}

static dg_status check_map(const dg_grid *g, const dg_result *r, const dgi_mask *reserved,
                           dg_diag *diag)
{
    dg_status st = dgi_progress_check_ends(g, r, diag);
    if (st != DG_OK)
        return st;
    if (r->start.x == r->exit.x && r->start.y == r->exit.y)
        return dgi_fail(diag, DG_E_INVALID, "result start and exit are the same cell");
    if (DG_CELL(g, r->start.x, r->start.y) == DG_TILE_DOOR_SECRET ||
        DG_CELL(g, r->exit.x, r->exit.y) == DG_TILE_DOOR_SECRET)
        return dgi_fail(diag, DG_E_INVALID, "result start or exit is on a secret door");
    if (dgi_mask_at(reserved, r->start.x, r->start.y) || dgi_mask_at(reserved, r->exit.x, r->exit.y))
        return dgi_fail(diag, DG_E_INVALID, "result start or exit is a reserved cell");
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == DG_MARKER_KEY || r->markers[i].kind == DG_MARKER_LOCK)
            return dgi_fail(diag, DG_E_INVALID, "the map is locked already (marker %d)", (int)i);
    for (int32_t y = 0; y < g->height; y++)
    {
        int32_t x = locked_in_row(g, reserved, y, 0);
        if (x >= 0) /* a reserved locked door is the caller's own */
            return dgi_fail(diag, DG_E_INVALID, "the map is locked already (locked door at %d, %d)",
                            (int)x, (int)y);
    }
    return DG_OK;
}

/* Reserved cells read as rock to the placement, so no lock, secret door or
 * key lands on them. */
static void mask_reserved(lock_placer *s, const dgi_mask *reserved)
{
    for (int32_t y = 0; reserved && y < s->h; y++)
        for (int32_t x = 0; x < s->w; x++)
            if (dgi_mask_at(reserved, x, y))
                s->tile[(y + 1) * s->pw + x + 1] = DG_TILE_VOID;
}

#define SCRATCH_INTS 20 /* node, cell_of, size, depth, queue, aux, disc, low, parent, iter,
                           run_first, run_end, run_node, clear, near_gate,
                           link_first, and link (4 per cell) */

static dg_status scratch_take(lock_placer *s, const dg_allocator *a, void **block, size_t *bytes,
                              dg_diag *diag)
{
    size_t n = (size_t)s->n + 2; /* depth tables use max_depth + 2 entries */
    if (n > SIZE_MAX / (SCRATCH_INTS * sizeof(int32_t) + 3))
        return dgi_fail(diag, DG_E_TOO_LARGE, "a %dx%d grid is too large to lock here",
                        (int)s->w, (int)s->h);
    *bytes = n * (SCRATCH_INTS * sizeof(int32_t) + 3); /* flag, tile, core */
    int32_t *p = *block = dgi_alloc(a, *bytes);
    if (!p)
        return dgi_fail(diag, DG_E_NOMEM, "locks need %zu bytes of scratch", *bytes);
    int32_t **arrays[17] = {&s->node,      &s->cell_of, &s->size,     &s->depth,
                            &s->queue,     &s->aux,     &s->disc,     &s->low,
                            &s->parent,    &s->iter,    &s->run_first, &s->run_end,
                            &s->run_node,  &s->clear,   &s->near_gate, &s->link_first,
                            &s->link};
    for (int i = 0; i < 17; i++)
        *arrays[i] = p + (size_t)i * n;
    s->flag = (uint8_t *)(p + SCRATCH_INTS * n);
    s->tile = s->flag + n;
    s->core = s->tile + n;
    return DG_OK;
}

/* Marks LOCK_F_REACH on the cells the start reaches with LOCK_F_LOCK cells shut;
 * returns how many a key may lie on. */
static int32_t reach_before_locks(lock_placer *s)
{
    int32_t head = 0, tail = 0, keys = 0, nb[4];
    s->flag[s->start] |= LOCK_F_REACH;
    s->queue[tail++] = s->start;
    while (head < tail)
    {
        int32_t c = s->queue[head++];
        keys += c != s->start && !(s->flag[c] & LOCK_F_GATE);
        for (int k = lock_neighbours(s, c, nb); k-- > 0;)
            if (s->node[nb[k]] >= 0 && !(s->flag[nb[k]] & (LOCK_F_LOCK | LOCK_F_REACH)))
            {
                s->flag[nb[k]] |= LOCK_F_REACH;
                s->queue[tail++] = nb[k];
            }
    }
    return keys;
}

/* When no depth of the way gates the exit (loops reach it from several
 * sides), the gates around the exit's own area, if few enough, hold back the
 * exit alone; its key goes anywhere else the start reaches. */
static void lock_exit_area(lock_placer *s)
{
    int32_t target = s->node[s->exit], count = 0, nb[4];
    if (target == s->node[s->start])
        return;
    for (int32_t c = 0; c < s->n; c++)
        if ((s->flag[c] & LOCK_F_GATE) && s->node[c] >= 0)
            for (int k = lock_neighbours(s, c, nb); k-- > 0;)
                if (s->node[nb[k]] == target && !(s->flag[c] & LOCK_F_LOCK) &&
                    count < DG_LOCKS_MAX * 8)
                {
                    s->flag[c] |= LOCK_F_LOCK;
                    s->locked[count++] = c;
                }
    int ok = count >= 1 && count <= s->p->gate_max && reach_before_locks(s) > 0 &&
             !(s->flag[s->exit] & LOCK_F_REACH);
    for (int32_t c = 0; c < s->n && !ok; c++)
        s->flag[c] &= (uint8_t)~(LOCK_F_LOCK | LOCK_F_REACH);
    s->locked_count = ok ? count : 0;
    s->exit_area = ok;
    s->placed = ok;
}

static void plan(lock_placer *s, uint64_t seed, int narrow)
{
    s->exit_area = s->cut_mode = s->pockets = 0;
    s->locked_count = 0;
    dgi_rng_seed(&s->rng, seed, 0x6c6f636bu /* "lock" */);
    dgi_lock_build_nodes(s, narrow || !s->has_doors); /* with no doors, narrow passages gate */
    s->placed = s->locked_count = 0;
    if (s->p->locks == 0 || s->depth[s->node[s->exit]] < 0)
        return;
    /* max_depth + 2 entries each; parent is free once the core is known */
    int32_t *gates = s->aux, *keys = s->queue, *cut = s->parent;
    survey_depths(s, gates, cut, keys);
    int32_t *cand = s->disc, *chain = s->low; /* free once the depths are known */
    int32_t m = candidates(s, gates, cut, cand);
    int32_t *near = s->strict ? s->near_gate : NULL, *of_depth = gates; /* gates: read no more */
    if (near)
        count_near_gates(s, cut, cand, m, of_depth, near);
    chain_lengths(s->clear, near, cand, m, chain); /* keys clear of start and lock first */
    choose_depths(s, s->clear, near, cand, m, chain);
    if (s->placed < s->p->locks && !s->strict)
    {
        int32_t clear_placed = s->placed, clear_depth[DG_LOCKS_MAX];
        memcpy(clear_depth, s->lock_depth, sizeof clear_depth);
        chain_lengths(keys, NULL, cand, m, chain);
        choose_depths(s, keys, NULL, cand, m, chain);
        if (s->placed <= clear_placed)
        {
            s->placed = clear_placed;
            memcpy(s->lock_depth, clear_depth, sizeof clear_depth);
        }
    }
    const uint8_t *core = s->core;
    for (int32_t v = 0; v < s->nodes; v++) /* gates are numbered in cell order */
    {
        int32_t c = s->cell_of[v];
        if (!(s->flag[c] & LOCK_F_GATE) || !core[v])
            continue;
        for (int32_t i = 0; i < s->placed; i++)
            if (s->depth[v] == s->lock_depth[i] && (cut[s->depth[v]] < 0 || cut[s->depth[v]] == v))
            {
                s->flag[c] |= LOCK_F_LOCK;
                s->locked[s->locked_count++] = c;
            }
    }
    if (s->placed == 0)
        lock_exit_area(s);
}

/* Fewer locks than asked: why, in progress and (status DG_OK) in diag. */
static void report_shortfall(const lock_placer *s, dg_progress *pr, dg_diag *diag)
{
    pr->shortfall = s->placed == 0 ? DG_LOCKS_SHORT_OPEN : DG_LOCKS_SHORT_FEW;
    if (pr->shortfall == DG_LOCKS_SHORT_OPEN)
        dgi_fail(diag, DG_OK, "0 of %d locks placed: no gate of at most %d doors parts the start "
                 "from the exit (a map too open)", (int)s->p->locks, (int)s->p->gate_max);
    else
        dgi_fail(diag, DG_OK, "%d of %d locks placed: the way to the exit has too few gates of at "
                 "most %d doors, and too few pockets off it, with room for a key before each",
                 (int)s->placed, (int)s->p->locks, (int)s->p->gate_max);
}

/* The ways to plan, cheapest and most door-like first: door gates with room
 * for keys clear of the start (else anywhere); door gates, then narrow
 * passages too, with room for keys clear of the start and of their lock;
 * cells of the graph's cuts; narrow passages with keys anywhere. */
enum { PLAN_QUICK, PLAN_DOORS, PLAN_NARROW, PLAN_CUTS, PLAN_NARROW_ANY, PLAN_WAYS };

static void run_plan(lock_placer *s, uint64_t seed, int way)
{
    if (way == PLAN_CUTS)
        dgi_lock_plan_cuts(s, seed);
    else
    {
        s->strict = way == PLAN_DOORS || way == PLAN_NARROW;
        plan(s, seed, way == PLAN_NARROW || way == PLAN_NARROW_ANY);
    }
    dgi_lock_plan_keys(s);
}

/* A plan's worth: each lock counts 1 and each key fewer than LOCK_KEY_CLEAR steps
 * from the start or its lock costs 2 (a key beside its door is no puzzle);
 * with require_all only the count matters. */
static int32_t plan_worth(const lock_placer *s)
{
    int32_t weak = 0;
    for (int32_t i = 0; i < s->placed; i++)
        weak += dgi_lock_clearance(s, s->key_cell[i]) < LOCK_KEY_CLEAR;
    return s->p->require_all ? s->placed : s->placed - 2 * weak;
}

/* Runs the ways in order until one places every lock with clear keys, and
 * keeps the best (ties: more locks, then the earlier way). */
static void choose_plan(lock_placer *s, uint64_t seed)
{
    int32_t best = -1, best_worth = INT32_MIN, best_placed = -1, last = -1;
    for (int way = 0; way < PLAN_WAYS; way++)
    {
        if ((!s->has_doors && (way == PLAN_NARROW || way == PLAN_NARROW_ANY)) ||
            (way == PLAN_CUTS && s->depth[s->node[s->exit]] < 0))
            continue; /* the same as the door way; no way to cut */
        run_plan(s, seed, way);
        last = way;
        int32_t worth = plan_worth(s);
        if (worth > best_worth || (worth == best_worth && s->placed > best_placed))
            best = way, best_worth = worth, best_placed = s->placed;
        if (s->placed == s->p->locks && worth == s->placed)
            return; /* every lock, every key clear */
        if (s->depth[s->node[s->exit]] < 0)
            return; /* the exit is out of reach: the caller refuses */
    }
    if (best != last)
        run_plan(s, seed, best);
}

dg_status dg_lock_place(dg_grid *grid, const dg_lock_params *params, uint64_t seed,
                        dg_result *result, dg_progress *progress, const dg_allocator *allocator,
                        dg_diag *diag)
{
    /* a NULL grid is named with the other NULL arguments below */
    dg_status st = grid ? dgi_grid_validate(grid, diag) : DG_OK;
    return st != DG_OK ? st : dgi_lock_place(grid, params, seed, result, progress, NULL, allocator, diag);
}

dg_status dgi_lock_place(dg_grid *grid, const dg_lock_params *params, uint64_t seed,
                         dg_result *result, dg_progress *progress, const dgi_lock_site *site,
                         const dg_allocator *allocator, dg_diag *diag)
{
    const dgi_mask *reserved = site ? site->reserved : NULL;
    if (!grid || !result || !params)
        return dgi_fail(diag, DG_E_NULL, "dg_lock_place: grid, result and params must not be NULL");
    dg_status st;
    if ((st = check_params(params, diag)) != DG_OK ||
        (st = check_map(grid, result, reserved, diag)) != DG_OK)
        return st;
    lock_placer s;
    memset(&s, 0, sizeof s);
    s.g = grid;
    s.r = result;
    s.p = params;
    s.w = grid->width;
    s.h = grid->height;
    s.pw = grid->width + 2;
    s.n = s.pw * (grid->height + 2);
    s.start = (result->start.y + 1) * s.pw + result->start.x + 1;
    s.exit = (result->exit.y + 1) * s.pw + result->exit.x + 1;
    s.labelled = -1;
    s.site = site;
    void *block = NULL;
    size_t bytes = 0;
    if ((st = scratch_take(&s, allocator, &block, &bytes, diag)) != DG_OK)
        return st;
    dgi_frame_tiles(grid, s.tile);
    mask_reserved(&s, reserved);
    s.has_doors = memchr(s.tile, DG_TILE_DOOR, (size_t)s.n) != NULL;
    choose_plan(&s, seed);
    s.secrets = choose_secrets(&s);
    dg_status hidden = s.secret ? hide_rooms(&s, allocator) : DG_OK;
    int32_t locked = s.locked_count;
    if (s.depth[s.node[s.exit]] < 0)
        st = dgi_fail(diag, DG_E_INVALID, "the exit (%d, %d) cannot be reached from the start",
                      (int)result->exit.x, (int)result->exit.y);
    else if (params->require_all && s.placed < params->locks)
        st = dgi_fail(diag, DG_E_NOSPACE, "only %d of %d locks fit: the way to the exit has "
                      "too few gates of at most %d doors", (int)s.placed, (int)params->locks,
                      (int)params->gate_max);
    else if (hidden != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "secret rooms need %d bytes of scratch", (int)(s.n * 12));
    else if (dgi_result_reserve(result, result->room_count, result->corridor_count,
                                result->door_count,
                                result->marker_count + s.placed + locked) != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "cannot grow the result's markers");
    if (st == DG_OK)
    {
        dg_progress local;
        memset(&local, 0, sizeof local);
        dg_progress *pr = progress ? progress : &local;
        memset(pr, 0, sizeof *pr);
        pr->requested = params->locks;
        pr->placed = s.placed;
        dgi_lock_commit(&s, result, pr);
        dgi_lock_play_nodes(&s, pr);
        dgi_diag_ok(diag);
        if (s.placed < params->locks)
            report_shortfall(&s, pr, diag);
    }
    dgi_free(allocator, block, bytes);
    return st;
}
