/* The keys of a plan (lock.c): each lock's key region, found by opening the
 * locks in order, and the best cell in it by clearance from the start and the
 * lock, then key_place; a lock whose region holds no key cell goes, with the
 * locks after it. */
#include "progress/lock_state.h"

/* aux[v] = hops over the node graph from node v to the nearest node of the
 * walk from the start's node to the exit's (a shortest one, every gate open);
 * -1 where the start cannot reach. */
static void hops_off_route(lock_placer *s)
{
    int32_t *from = s->parent, *off = s->aux, *queue = s->queue, head = 0, tail = 0;
    int32_t a = s->node[s->start], b = s->node[s->exit];
    for (int32_t v = 0; v < s->nodes; v++)
        from[v] = off[v] = -1;
    from[a] = a;
    queue[tail++] = a;
    while (head < tail && from[b] < 0)
        for (int32_t v = queue[head++], i = s->link_first[v]; i < s->link_first[v + 1]; i++)
            if (from[s->link[i]] < 0)
            {
                from[s->link[i]] = v;
                queue[tail++] = s->link[i];
            }
    head = tail = 0;
    for (int32_t v = b; off[v] < 0; v = from[v])
    {
        off[v] = 0;
        queue[tail++] = v;
    }
    while (head < tail)
        for (int32_t v = queue[head++], i = s->link_first[v]; i < s->link_first[v + 1]; i++)
            if (off[s->link[i]] < 0)
            {
                off[s->link[i]] = off[v] + 1;
                queue[tail++] = s->link[i];
            }
}

/* Which lock's key region the cells of area v lie in (0-based), or -1. The
 * depths bound a region; wave[v] (how many locks open before the start reaches
 * v) keeps out a loop before a one-gate lock that runs deeper than it. */
static int32_t area_region(const lock_placer *s, const int32_t *wave, int32_t v)
{
    int32_t d = s->depth[v];
    if (lock_gate_node(s, v) || d < 0)
        return -1; /* a gate, or not reachable from the start */
    if (s->cut_mode) /* the cuts are nested: lock i + 1's key lies in wave i */
        return wave[v] >= 0 && wave[v] < s->placed ? wave[v] : -1;
    for (int32_t i = 0; i < s->placed; i++)
        if (d < s->lock_depth[i])
            return (i == 0 || d > s->lock_depth[i - 1]) && wave[v] == i ? i : -1;
    return -1;
}

/* Which lock's key region a cell of node v lies in, with region[] per node
 * (-1 on gates), or -1. */
static int32_t region_of(const lock_placer *s, const int32_t *region, int32_t c, int32_t v)
{
    int32_t i = s->exit_area
                    ? ((s->flag[c] & (LOCK_F_REACH | LOCK_F_GATE)) == LOCK_F_REACH ? 0 : -1)
                    : region[v];
    return c == s->start || c == s->exit ? -1 : i;
}

static int dead_end(const lock_placer *s, int32_t c)
{
    int32_t nb[4], open = 0;
    for (int k = lock_neighbours(s, c, nb); k-- > 0;)
        open += s->node[nb[k]] >= 0;
    return open == 1;
}

/* Walks from the cells from[0..count) (steps 0) over open cells, locks
 * included, no further than LOCK_KEY_CLEAR - 1 steps (LOCK_F_WALK marks the cells
 * reached, dist their steps); lowers the clearance of those in key region
 * `region` (any region: -2) to their steps, LOCK_F_CLOSE marking it set. */
static void near_walk(lock_placer *s, const int32_t *from, int32_t count, int32_t region,
                      int32_t *near, int32_t *dist)
{
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    int32_t *q = s->queue, head = 0, tail = 0;
    uint8_t *flag = s->flag;
    for (int32_t i = 0; i < count; i++)
        dist[from[i]] = 0, q[tail++] = from[i], flag[from[i]] |= LOCK_F_WALK;
    while (head < tail && dist[q[head]] + 1 < LOCK_KEY_CLEAR) /* dist only grows along the queue */
        for (int32_t c = q[head++], k = 0; k < 4; k++)
        {
            int32_t u = c + off[k];
            if ((flag[u] & (LOCK_F_OPEN | LOCK_F_WALK)) != LOCK_F_OPEN)
                continue; /* through locks too: every door open, as a player measures */
            flag[u] |= LOCK_F_WALK;
            dist[u] = dist[c] + 1;
            q[tail++] = u;
        }
    for (int32_t i = 0; i < tail; i++)
    {
        int32_t c = q[i];
        flag[c] &= (uint8_t)~LOCK_F_WALK;
        if (region != -2 && region_of(s, s->low, c, s->node[c]) != region)
            continue;
        near[c] = (flag[c] & LOCK_F_CLOSE) ? DG_MIN(near[c], dist[c]) : dist[c];
        flag[c] |= LOCK_F_CLOSE;
    }
}

/* Clearance: walking steps from c to the start or to the lock its key region
 * opens, capped at LOCK_KEY_CLEAR. Bounded walks, so the cost grows with the
 * locks, not the map; near[c] holds it where LOCK_F_CLOSE is set. */
static void key_clearance(lock_placer *s, int32_t *near)
{
    int32_t *dist = s->disc, from[DG_LOCKS_MAX * 8];
    near_walk(s, &s->start, 1, -2, near, dist);
    for (int32_t lock = 1; lock <= s->placed; lock++)
    {
        int32_t count = 0;
        for (int32_t j = 0; j < s->locked_count; j++)
            if (lock_number(s, s->locked[j]) == lock)
                from[count++] = s->locked[j];
        near_walk(s, from, count, lock - 1, near, dist);
    }
}

int32_t dgi_lock_clearance(const lock_placer *s, int32_t c)
{
    return (s->flag[c] & LOCK_F_CLOSE) ? s->iter[c] : LOCK_KEY_CLEAR;
}

/* A key cell's score: clearance first, then the part of key_place that is
 * the same over a whole node (run_score), then a room, then a dead end. */
static int64_t run_score(const lock_placer *s, int32_t v)
{
    int64_t off = s->aux[v];
    switch (s->p->key_place)
    {
    case DG_KEYS_ON_PATH:
        return (off == 0 ? 1 << 25 : 0) - off;
    default:
        return off;
    }
}

static int64_t cell_score(const lock_placer *s, int32_t c)
{
    int64_t score =
        ((int64_t)dgi_lock_clearance(s, c) << 40) + ((s->flag[c] & LOCK_F_ROOM) ? 1 << 24 : 0);
    if (s->p->key_place == DG_KEYS_DEAD_END && dead_end(s, c))
        score += 1 << 25;
    return score;
}

/* The best cell of each region for its key; ties drawn evenly by the RNG, in
 * cell order. The choice is kept in locals so that no store can touch *s. */
static void place_keys(lock_placer *s)
{
    int64_t best[DG_LOCKS_MAX];
    uint32_t ties[DG_LOCKS_MAX];
    int32_t cell[DG_LOCKS_MAX];
    for (int32_t i = 0; i < DG_LOCKS_MAX; i++)
    {
        best[i] = INT64_MIN;
        ties[i] = 0;
        cell[i] = -1;
    }
    const int32_t *region = s->low;
    const uint8_t *flag = s->flag;
    const int32_t start = s->start, exit = s->exit, exit_area = s->exit_area;
    for (int32_t r = 0; r < s->runs; r++) /* the open cells in cell order */
    {
        int32_t v = s->run_node[r], i = exit_area ? 0 : region[v]; /* as region_of */
        if (i < 0)
            continue; /* a gate, or an area outside every key region */
        int64_t base = run_score(s, v);
        for (int32_t c = s->run_first[r], end = s->run_end[r]; c < end; c++)
        {
            if (c == start || c == exit ||
                (exit_area && (flag[c] & (LOCK_F_REACH | LOCK_F_GATE)) != LOCK_F_REACH))
                continue;
            int64_t score = base + cell_score(s, c);
            if (score > best[i])
            {
                best[i] = score;
                ties[i] = 1;
                cell[i] = c;
            }
            else if (score == best[i] && dgi_rng_below(&s->rng, ++ties[i]) == 0)
                cell[i] = c;
        }
    }
    memcpy(s->key_cell, cell, sizeof cell);
}

/* wave[v] = how many locks, opened in order, the start needs to reach node v
 * (-1: never); a lock's gates join its wave. queue holds every node once. */
static void lock_waves(lock_placer *s, int32_t *wave)
{
    int32_t *queue = s->queue, head = 0, tail = 0;
    for (int32_t v = 0; v < s->nodes; v++)
        wave[v] = -1;
    wave[s->node[s->start]] = 0;
    queue[tail++] = s->node[s->start];
    for (int32_t w = 0; w <= s->placed; w++)
    {
        for (int32_t j = 0; j < s->locked_count && w > 0; j++) /* lock w opens */
        {
            int32_t v = s->node[s->locked[j]], touched = 0;
            for (int32_t i = s->link_first[v]; i < s->link_first[v + 1]; i++)
                touched |= wave[s->link[i]] >= 0;
            if (touched && wave[v] < 0 && lock_number(s, s->locked[j]) == w)
            {
                wave[v] = w;
                queue[tail++] = v;
            }
        }
        while (head < tail)
            for (int32_t v = queue[head++], i = s->link_first[v]; i < s->link_first[v + 1]; i++)
            {
                int32_t y = s->link[i];
                int32_t c = s->cell_of[y]; /* locks 1..w are open */
                if (wave[y] < 0 && (!(s->flag[c] & LOCK_F_LOCK) || lock_number(s, c) <= w))
                {
                    wave[y] = w;
                    queue[tail++] = y;
                }
            }
    }
}

/* Keeps locks 1..k only (their key regions were left empty by the waves). */
static void keep_locks(lock_placer *s, int32_t k)
{
    int32_t kept = 0;
    for (int32_t j = 0; j < s->locked_count; j++)
    {
        int32_t c = s->locked[j];
        if (lock_number(s, c) <= k)
        {
            s->locked_number[kept] = s->locked_number[j];
            s->locked[kept++] = c;
        }
        else
            s->flag[c] &= (uint8_t)~LOCK_F_LOCK;
    }
    s->locked_count = kept;
    s->placed = k;
}

/* The keys of the final plan (the RNG goes on from its lock choice). */
void dgi_lock_plan_keys(lock_placer *s)
{
    if (s->placed == 0)
        return;
    if (!s->exit_area)
    {
        lock_waves(s, s->aux);
        for (int32_t v = 0; v < s->nodes; v++)
            s->low[v] = area_region(s, s->aux, v);
    }
    hops_off_route(s);
    key_clearance(s, s->iter);
    place_keys(s);
    for (int32_t i = 0; i < s->placed; i++)
        if (s->key_cell[i] < 0) /* pockets alone would not gate the exit */
            keep_locks(s, s->cut_mode && i <= s->pockets ? 0 : i);
}
