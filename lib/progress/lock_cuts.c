/* Locks at cuts of the cell graph, for maps whose way to the exit crosses no
 * depth of few gates (lock.c's PLAN_CUTS), and pockets off the way for the
 * locks the cuts leave over. */
#include "progress/lock_state.h"

/* ---- cuts of the cell graph ---------------------------------------------- */
/* Caves and walks loop so much that the way from the start to the exit often
 * crosses no single gate and no depth of few gates. A lock there is a
 * smallest set of cells (at most gate_max) whose removal parts the exit from
 * everything within a walking distance of the start: a vertex cut, found by
 * unit-capacity augmenting paths (each cell carries one unit), the cut nearest
 * the start once no further path exists. aux holds per cell the flow on its
 * four outgoing edges and through it, and the marks below. */
enum {
    CF_INNER = 16,   /* one unit flows through the cell */
    CF_VIN = 32,     /* the search reached the cell's entry */
    CF_VOUT = 64,    /* ... and its exit */
    CF_SRC = 128,    /* a source cell: before the cut being sought */
    CF_FREE = 256,   /* no door may go here: unbounded through it */
    CF_BEHIND = 512, /* held back by no lock yet placed: before the last cut */
    CF_TSIDE = 1024, /* reaches the sink without crossing the last cut */
    CF_HOME = 2048,  /* before the first lock on the way: where pockets go */
    CF_SHUT = 4096,  /* outside the search (another lock's side, a pocket) */
    CF_POCKET = 8192, /* held back by a pocket's lock */
    CF_TRIED = 16384, /* tried as a pocket's far end */
    CF_NEAR = 32768, /* fewer than LOCK_KEY_CLEAR steps from the cut being weighed */
    CF_WALL = 65536  /* closed or CF_SHUT: no search enters it (set per cut_run) */
};

/* Cells of the region ((aux & mask) == want, open) a key could lie on clear of
 * the start (depth holds the steps from it) and of the cut[0..m) bounding it:
 * a walk from the cut bounded by LOCK_KEY_CLEAR marks the near ones. */
static int32_t clear_room(lock_placer *s, const int32_t *cut, int32_t m, int32_t mask, int32_t want)
{
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    int32_t *fl = s->aux, *q = s->queue, *steps = s->disc, head = 0, tail = 0, room = 0;
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] |= CF_NEAR, q[tail] = cut[i], steps[tail++] = 0;
    for (; head < tail; head++)
        for (int k = 0; k < 4 && steps[head] + 1 < LOCK_KEY_CLEAR; k++)
        {
            int32_t u = q[head] + off[k];
            if (!(s->flag[u] & LOCK_F_OPEN) || (fl[u] & CF_NEAR) || (fl[u] & mask) != want)
                continue;
            fl[u] |= CF_NEAR;
            q[tail] = u, steps[tail++] = steps[head] + 1;
        }
    for (int32_t c = 0; c < s->n; c++)
        room += (s->flag[c] & LOCK_F_OPEN) && (fl[c] & (mask | CF_NEAR)) == want &&
                s->depth[c] >= LOCK_KEY_CLEAR && c != s->exit;
    for (int32_t i = 0; i < tail; i++)
        fl[q[i]] &= ~CF_NEAR;
    return room;
}

static int cut_allowed(const lock_placer *s, int32_t c)
{
    uint8_t t = s->tile[c];
    return (t == DG_TILE_FLOOR || t == DG_TILE_CORRIDOR || t == DG_TILE_DOOR) &&
           !lock_on_ring(s, c) && c != s->start && c != s->exit;
}

/* Breadth-first walk over the open cells from `from`, skipping cells with any
 * of the `stop` marks; marks the cells it reaches with `mark` and, when dist is
 * given, writes their steps there (-1 elsewhere). Returns the cells reached. */
static int32_t cut_flood(lock_placer *s, int32_t from, int32_t stop, int32_t mark, int32_t *dist)
{
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    int32_t *fl = s->aux, *q = s->queue, head = 0, tail = 0;
    for (int32_t c = 0; c < s->n; c++)
        fl[c] &= ~mark;
    for (int32_t c = 0; c < s->n && dist; c++)
        dist[c] = -1;
    fl[from] |= mark;
    if (dist)
        dist[from] = 0;
    q[tail++] = from;
    while (head < tail)
        for (int32_t c = q[head++], k = 0; k < 4; k++)
        {
            int32_t u = c + off[k];
            if (!(s->flag[u] & LOCK_F_OPEN) || (fl[u] & (stop | mark)))
                continue;
            fl[u] |= mark;
            if (dist)
                dist[u] = dist[c] + 1;
            q[tail++] = u;
        }
    return tail;
}

/* Reaches state st (cell * 2, + 1 for its exit side) from state `by`. */
static void cut_visit(lock_placer *s, int32_t *q, int32_t *from, int32_t *tail, int32_t st,
                      int32_t by)
{
    s->aux[st >> 1] |= (st & 1) ? CF_VOUT : CF_VIN;
    from[st] = by;
    q[(*tail)++] = st;
}

/* Pushes one unit along the states from[] leads back from the exit's entry. */
static void cut_push(lock_placer *s, const int32_t *from)
{
    int32_t *fl = s->aux;
    for (int32_t cur = 2 * s->sink; from[cur] >= 0; cur = from[cur])
    {
        int32_t prev = from[cur], pc = prev >> 1, cc = cur >> 1;
        if (pc == cc) /* through the cell, or that flow undone */
            fl[cc] = (cur & 1) ? fl[cc] | CF_INNER : fl[cc] & ~CF_INNER;
        else
            for (int k = 0; k < 4; k++)
            {
                if ((prev & 1) && lock_step(s, pc, k) == cc)
                    fl[pc] |= 1 << k; /* along pc -> cc */
                if (!(prev & 1) && lock_step(s, cc, k) == pc)
                    fl[cc] &= ~(1 << k); /* cc -> pc undone */
            }
    }
}

/* Marks every source cell entered and left (CF_WALL on the cells no search
 * enters), and lists in q[] the exit sides of the sources with a neighbour a
 * search may enter, in cell order (from[] -1): a source among sources adds
 * nothing to a search, the queue's other states come in the same order
 * without it. Returns how many. */
static int32_t cut_sources(lock_placer *s, int32_t *q, int32_t *from)
{
    int32_t *fl = s->aux, count = 0;
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    for (int32_t c = 0; c < s->n; c++)
    {
        int wall = !(s->flag[c] & LOCK_F_OPEN) || (fl[c] & CF_SHUT);
        fl[c] = (fl[c] & ~(CF_VIN | CF_VOUT | CF_WALL)) | (wall ? CF_WALL : 0);
        if (!(fl[c] & CF_SRC))
            continue;
        fl[c] |= CF_VIN | CF_VOUT;
        for (int k = 0; k < 4; k++)
        {
            int32_t u = c + off[k];
            if ((s->flag[u] & LOCK_F_OPEN) && !(fl[u] & (CF_SHUT | CF_SRC)))
            {
                from[2 * c + 1] = -1;
                q[count++] = 2 * c + 1;
                break;
            }
        }
    }
    return count;
}

/* One search of the residual graph from the sources q[0..sources) (the
 * cells the last search reached, q[sources..*last), unmarked first); pushes a
 * unit and returns 1 if it reaches the sink. A state is a cell's entry side
 * (st even) or exit side (st odd). */
static int cut_augment(lock_placer *s, int32_t sources, int32_t *last)
{
    int32_t *fl = s->aux, *q = s->link, *from = s->link + 2 * (size_t)s->n, head = 0;
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    for (int32_t i = sources; i < *last; i++)
        fl[q[i] >> 1] &= ~(CF_VIN | CF_VOUT);
    int32_t tail = sources;
    while (head < tail)
    {
        int32_t st = q[head++], c = st >> 1;
        if (st & 1) /* on to the neighbours' entries, or back through c */
        {
            for (int k = 0; k < 4; k++)
            {
                int32_t u = c + off[k];
                if (fl[u] & (CF_WALL | CF_VIN))
                    continue;
                cut_visit(s, q, from, &tail, 2 * u, st);
                if (u == s->sink)
                {
                    *last = tail;
                    cut_push(s, from);
                    return 1;
                }
            }
            if ((fl[c] & (CF_INNER | CF_VIN)) == CF_INNER)
                cut_visit(s, q, from, &tail, 2 * c, st);
        }
        else /* back along a flow into c, or through c */
        {
            for (int k = 0; k < 4; k++)
            {
                int32_t u = c + off[k];
                if (!(fl[u] & (CF_WALL | CF_VOUT)) && (fl[u] & (1 << ((k + 2) & 3))))
                    cut_visit(s, q, from, &tail, 2 * u + 1, st); /* undo u -> c */
            }
            if (((fl[c] & CF_FREE) || !(fl[c] & CF_INNER)) && !(fl[c] & CF_VOUT))
                cut_visit(s, q, from, &tail, 2 * c + 1, st);
        }
    }
    *last = tail;
    return 0;
}

static int32_t cut_run(lock_placer *s, int32_t *cut);

/* The cut nearest the cells before walking distance d (and those behind the
 * last cut) into cut[]; returns its size, 0 if more than gate_max cells. */
static int32_t find_cut(lock_placer *s, int32_t d, int32_t *cut)
{
    int32_t *fl = s->aux;
    for (int32_t c = 0; c < s->n; c++)
    {
        fl[c] &= ~(CF_INNER | CF_SRC | 15);
        if ((fl[c] & CF_BEHIND) || (s->depth[c] >= 0 && s->depth[c] < d))
            fl[c] |= CF_SRC;
    }
    s->sink = s->exit;
    return (fl[s->exit] & CF_SRC) ? 0 : cut_run(s, cut);
}

/* Augments from the CF_SRC cells to the sink; the cut nearest the sources
 * into cut[] in cell order, returns its size, 0 if more than gate_max cells.
 * The cut's cells are those whose entry the last search reached but not
 * their exit: all among the cells it reached. */
static int32_t cut_run(lock_placer *s, int32_t *cut)
{
    int32_t *fl = s->aux, *q = s->link, flows = 0, m = 0;
    int32_t sources = cut_sources(s, q, q + 2 * (size_t)s->n), last = sources;
    while (cut_augment(s, sources, &last))
        if (++flows > s->p->gate_max)
            return 0;
    for (int32_t i = sources; i < last; i++)
    {
        int32_t c = q[i] >> 1;
        if ((fl[c] & (CF_VIN | CF_VOUT | CF_FREE)) != CF_VIN || (q[i] & 1))
            continue; /* each such cell is listed once, by its entry */
        if (++m > s->p->gate_max)
            return 0;
        int32_t j = m - 1;
        for (; j > 0 && cut[j - 1] > c; j--)
            cut[j] = cut[j - 1];
        cut[j] = c;
    }
    return m;
}

/* Takes cut[0..m) as lock `number` if it leaves room for a key before it
 * (cells newly held back, besides the start); returns 1 if taken. */
static int take_cut(lock_placer *s, const int32_t *cut, int32_t m, int32_t number)
{
    int32_t *fl = s->aux, room = 0;
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] |= CF_BEHIND | CF_TSIDE; /* the flood stops at the cut */
    cut_flood(s, s->exit, CF_BEHIND, CF_TSIDE, NULL);
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] &= ~(CF_BEHIND | CF_TSIDE);
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] |= CF_TSIDE; /* not in the region, but the walk starts there */
    room = clear_room(s, cut, m, CF_TSIDE | CF_BEHIND, 0);
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] &= ~CF_TSIDE;
    if (room == 0)
        return 0;
    for (int32_t c = 0; c < s->n; c++)
        if ((s->flag[c] & LOCK_F_OPEN) && !(fl[c] & CF_TSIDE))
            fl[c] |= number == 1 ? CF_BEHIND | CF_HOME : CF_BEHIND;
    for (int32_t i = 0; i < m; i++)
    {
        fl[cut[i]] &= ~CF_HOME;
        s->locked[s->locked_count] = cut[i];
        s->locked_number[s->locked_count++] = number;
    }
    return 1;
}

/* A far end whose pocket failed: its neighbours, fewer than LOCK_KEY_CLEAR steps
 * away, mostly fail alike; skipping them leaves the tries for other pockets. */
static void try_around(lock_placer *s, int32_t far)
{
    int32_t q[LOCK_NEAR_CELLS];
    for (int32_t i = 0, n = dgi_lock_walk_near(s, far, q); i < n; i++)
        s->aux[q[i]] |= CF_TRIED;
}

/* The kinds of pocket, best first: room for the key deep inside the mouth;
 * a mouth of door tiles (a store room, a building); any. */
enum { POCKET_DEEP, POCKET_DOOR, POCKET_ANY };

/* Cells of the pocket (CF_TSIDE) a key could lie on: at least LOCK_KEY_CLEAR
 * steps from the start and (a walk over every open cell) from the cells
 * next[0..count) of the lock the key opens; with `deep`, from the pocket's
 * own mouth cut[0..m) too. */
static int32_t pocket_room(lock_placer *s, const int32_t *next, int32_t count, const int32_t *cut,
                           int32_t m, int deep)
{
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    int32_t *fl = s->aux, *q = s->queue, *steps = s->disc, head = 0, tail = 0, room = 0;
    for (int32_t i = 0; i < count + (deep ? m : 0); i++)
    {
        int32_t c = i < count ? next[i] : cut[i - count];
        if (!(fl[c] & CF_NEAR))
            fl[c] |= CF_NEAR, q[tail] = c, steps[tail++] = 0;
    }
    for (; head < tail; head++)
        for (int k = 0; k < 4 && steps[head] + 1 < LOCK_KEY_CLEAR; k++)
        {
            int32_t u = q[head] + off[k];
            if (!(s->flag[u] & LOCK_F_OPEN) || (fl[u] & CF_NEAR))
                continue;
            fl[u] |= CF_NEAR;
            q[tail] = u, steps[tail++] = steps[head] + 1;
        }
    for (int32_t c = 0; c < s->n; c++)
        room += (fl[c] & (CF_TSIDE | CF_NEAR)) == CF_TSIDE && s->depth[c] >= LOCK_KEY_CLEAR &&
                c != s->exit;
    for (int32_t i = 0; i < tail; i++)
        fl[q[i]] &= ~CF_NEAR;
    return room;
}

/* 1 if cell c lies just inside a door (a door beside it, nearer the
 * start): where a pocket behind that door may end. */
static int inside_door(const lock_placer *s, int32_t c)
{
    int inside = 0;
    for (int k = 0; k < 4; k++)
    {
        int32_t u = lock_step(s, c, k);
        inside |= s->tile[u] == DG_TILE_DOOR && s->depth[u] < s->depth[c];
    }
    return inside && s->tile[c] != DG_TILE_DOOR;
}

/* Marks the cells of the pocket: the cut is sought beyond half the far
 * end's distance; its cells into cut[], their count into *m, CF_TSIDE on the
 * pocket (every cell is CF_SHUT outside home). Returns the pocket's cells. */
static int32_t cut_pocket(lock_placer *s, int32_t far, int32_t *cut, int32_t *m)
{
    int32_t *fl = s->aux;
    for (int32_t c = 0; c < s->n; c++)
    {
        fl[c] &= ~(CF_INNER | CF_SRC | CF_SHUT | 15);
        if ((fl[c] & (CF_HOME | CF_POCKET)) != CF_HOME)
            fl[c] |= CF_SHUT;
        if (!(fl[c] & CF_SHUT) && s->depth[c] >= 0 && s->depth[c] < s->depth[far] / 2)
            fl[c] |= CF_SRC;
    }
    for (int32_t j = 0; j < s->locked_count; j++) /* no pocket swallows a lock */
        fl[s->locked[j]] = (fl[s->locked[j]] & ~CF_SHUT) | CF_SRC;
    s->sink = far;
    *m = (fl[far] & CF_SRC) ? 0 : cut_run(s, cut);
    if (*m == 0)
        try_around(s, far);
    for (int32_t i = 0; i < *m; i++)
        fl[cut[i]] |= CF_SHUT;
    return *m ? cut_flood(s, far, CF_SHUT, CF_TSIDE, NULL) : 0;
}

/* 1 if the start reaches door c's outer side (its open neighbours off the
 * pocket, CF_TSIDE) without c: each is nearer the start than c. Then, for
 * every door of a pocket, the start reaches all cells off it without it. */
static int opens_outward(const lock_placer *s, int32_t c)
{
    int outer = 0, ok = 1;
    for (int k = 0; k < 4; k++)
    {
        int32_t u = lock_step(s, c, k);
        if (!(s->flag[u] & LOCK_F_OPEN) || (s->aux[u] & CF_TSIDE))
            continue;
        outer = 1;
        ok &= s->depth[u] >= 0 && s->depth[u] < s->depth[c];
    }
    return outer && ok;
}

/* The area behind the door beside `far` (open cells, no door crossed) as
 * the pocket, CF_TSIDE on it, and the doors around it as its cut (cut[],
 * *m): a store room, a building. It must lie in home, hold no start, exit or
 * lock, and every door of it must open toward the start (opens_outward: no
 * room hangs behind it). Returns the pocket's cells, 0 if it fails. */
static int32_t door_pocket(lock_placer *s, int32_t far, int32_t *cut, int32_t *m)
{
    int32_t *fl = s->aux, *q = s->queue, head = 0, tail = 0, ok = 1;
    *m = 0;
    for (int32_t c = 0; c < s->n; c++)
        fl[c] &= ~(CF_TSIDE | CF_SHUT);
    fl[far] |= CF_TSIDE;
    q[tail++] = far;
    while (head < tail && ok)
        for (int32_t c = q[head++], k = 0; k < 4 && ok; k++)
        {
            int32_t u = lock_step(s, c, k);
            if (!(s->flag[u] & LOCK_F_OPEN) || (fl[u] & (CF_TSIDE | CF_SHUT)))
                continue;
            if (s->tile[u] == DG_TILE_DOOR)
            {
                ok = *m < s->p->gate_max && cut_allowed(s, u);
                fl[u] |= CF_SHUT;
                if (ok)
                    cut[(*m)++] = u;
                continue;
            }
            ok = (fl[u] & (CF_HOME | CF_POCKET)) == CF_HOME && u != s->start && u != s->exit;
            fl[u] |= CF_TSIDE;
            q[tail++] = u;
        }
    for (int32_t j = 0; j < s->locked_count && ok; j++)
        ok = !(fl[s->locked[j]] & (CF_TSIDE | CF_SHUT));
    for (int32_t i = 0; i < *m && ok; i++)
        ok = opens_outward(s, cut[i]);
    for (int32_t i = 1; i < *m; i++) /* in cell order, as cut_run gives it */
        for (int32_t j = i; j > 0 && cut[j - 1] > cut[j]; j--)
        {
            int32_t t = cut[j];
            cut[j] = cut[j - 1], cut[j - 1] = t;
        }
    if (!ok)
        *m = 0;
    return ok ? tail : 0;
}

/* A pocket: cells before the first lock on the way that hang off the rest by
 * at most gate_max cells (a dead-end tunnel, a side cave, a building). The
 * farthest untried cell from the start (of kind POCKET_DOOR: just inside
 * a door) is its far end. The pocket must hold a cell for the key of the
 * lock next[0..count) (see pocket_room). Returns the cut's size (its cells
 * into cut[]), 0 if none. */
static int32_t find_pocket(lock_placer *s, const int32_t *next, int32_t count, int kind,
                           int32_t *cut)
{
    int32_t *fl = s->aux, far = -1, m = 0;
    for (int32_t c = 0; c < s->n; c++)
        if ((fl[c] & (CF_HOME | CF_POCKET | CF_TRIED)) == CF_HOME &&
            (far < 0 || s->depth[c] > s->depth[far]) && cut_allowed(s, c) &&
            (kind != POCKET_DOOR || inside_door(s, c))) /* the cheap tests first */
            far = c;
    if (far < 0)
        return 0;
    fl[far] |= CF_TRIED;
    int32_t inside = kind == POCKET_DOOR ? door_pocket(s, far, cut, &m) : cut_pocket(s, far, cut, &m);
    if (inside > 0 && pocket_room(s, next, count, cut, m, kind == POCKET_DEEP) == 0)
        inside = 0; /* the key would lie beside the lock it opens (or, deep, its own) */
    int32_t home = 0;
    for (int32_t c = 0; c < s->n && inside > 0; c++)
        home += (fl[c] & (CF_HOME | CF_POCKET | CF_TSIDE | CF_SHUT)) == CF_HOME && c != s->start;
    if (m == 0 || inside == 0 || home == 0)
        return 0;
    for (int32_t c = 0; c < s->n; c++)
        if (fl[c] & CF_TSIDE)
            fl[c] |= CF_POCKET;
    for (int32_t i = 0; i < m; i++)
        fl[cut[i]] |= CF_POCKET;
    return m;
}

/* The cells of locked[] numbered `number` into next[]; returns how many. */
static int32_t lock_cells(const lock_placer *s, int32_t number, int32_t *next)
{
    int32_t count = 0;
    for (int32_t j = 0; j < s->locked_count; j++)
        if (s->locked_number[j] == number)
            next[count++] = s->locked[j];
    return count;
}

/* When the way has fewer cuts than locks, the first locks close pockets off
 * the start's side: lock j's pocket holds key j + 1, and the way's locks
 * follow. Every lock still gates the exit: each key lies behind the lock
 * before it. Pockets are found from the way backwards (the first found takes
 * the last pocket number), so each holds the key of a lock already known and
 * can keep it clear of that lock. The kinds of pocket are sought best
 * first (doors only where the map has doors). */
static void add_pockets(lock_placer *s)
{
    int32_t want = s->p->locks - s->placed, got = 0, cut[8], next[8];
    for (int kind = POCKET_DEEP; kind <= POCKET_ANY && got < want; kind++)
    {
        if (kind == POCKET_DOOR && !s->has_doors)
            continue;
        for (int32_t c = 0; c < s->n; c++)
            s->aux[c] &= ~CF_TRIED;
        for (int32_t tries = 0; got < want && tries < 16 * want; tries++)
        {
            int32_t count = lock_cells(s, got > 0 ? -got : 1, next);
            int32_t m = find_pocket(s, next, count, kind, cut);
            for (int32_t i = 0; i < m; i++)
            {
                s->locked[s->locked_count] = cut[i];
                s->locked_number[s->locked_count++] = -(got + 1); /* renumbered below */
            }
            got += m > 0;
        }
    }
    s->pockets = got;
    for (int32_t j = 0; j < s->locked_count; j++) /* found f-th: number got + 1 - f */
        s->locked_number[j] = s->locked_number[j] < 0 ? got + 1 + s->locked_number[j]
                                                        : s->locked_number[j] + got;
    s->placed += got;
}

/* Orders locked[] (and its numbers) by cell. */
static void sort_locked(lock_placer *s)
{
    for (int32_t i = 1; i < s->locked_count; i++)
        for (int32_t j = i; j > 0 && s->locked[j - 1] > s->locked[j]; j--)
        {
            int32_t c = s->locked[j], n = s->locked_number[j];
            s->locked[j] = s->locked[j - 1], s->locked_number[j] = s->locked_number[j - 1];
            s->locked[j - 1] = c, s->locked_number[j - 1] = n;
        }
}

/* Locks at cuts spread from the start toward the exit: lock i at the first cut
 * past i / (locks + 1) of the way, or further if none fits there. */
void dgi_lock_plan_cuts(lock_placer *s, uint64_t seed)
{
    s->exit_area = s->cut_mode = 0;
    s->placed = s->locked_count = s->pockets = 0;
    s->labelled = -1; /* its cut searches use the links' memory, its graph gates locks */
    dgi_rng_seed(&s->rng, seed, 0x6c6f636bu /* "lock" */);
    dgi_lock_mark_cells(s, 0);
    for (int32_t c = 0; c < s->n; c++)
        s->aux[c] = cut_allowed(s, c) ? 0 : CF_FREE;
    cut_flood(s, s->start, 0, CF_BEHIND, s->depth);
    for (int32_t c = 0; c < s->n; c++)
        s->aux[c] &= ~CF_BEHIND;
    int32_t way = s->depth[s->exit], k = s->p->locks, cut[8];
    int32_t stride = DG_MAX(1, way / (4 * (k + 1)));
    for (int32_t i = 1; i <= k && way > 0; i++)
    {
        int32_t d = way * i / (k + 1), m = 0;
        while (d < way && !((m = find_cut(s, d, cut)) > 0 && take_cut(s, cut, m, i)))
            d += stride;
        if (d >= way)
            break;
        s->placed = i;
    }
    if (s->placed > 0 && s->placed < k)
        add_pockets(s);
    s->cut_mode = s->placed > 0;
    sort_locked(s);
    int doors = s->has_doors; /* only doors and the locks gate: whole tunnels are areas */
    s->has_doors = 1;
    dgi_lock_label_nodes(s, 0);
    s->has_doors = doors;
    dgi_lock_mark_rooms(s);
    dgi_lock_link_nodes(s);
    dgi_lock_find_core(s, s->core);
    dgi_lock_depth_nodes(s);
}
