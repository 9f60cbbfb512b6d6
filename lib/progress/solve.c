/* The progression solver: plays a map with locked doors and keys from the
 * start and says whether the exit can be reached, and with which keys.
 *
 * Keys open only their own lock and are never used up, so holding more keys
 * never hurts: the set of reachable cells only grows as keys are collected.
 * One breadth-first pass therefore settles every key set: a locked door met
 * without its keys waits (it is marked touched) and joins the queue when the
 * keys are held. Every key marker counts (two keys on one cell, a second copy
 * of a key elsewhere), and a door with several "lock N" markers needs all
 * their keys; a locked door without one never opens. The player stands on the
 * start, so dg_solve refuses a start on a locked or secret door.
 *
 * The pass runs in waves: wave 0 reaches what needs no key; the keys found in
 * wave k open their doors only when wave k is done, so wave k + 1 is what those
 * keys add. A key's wave is thus a property of the map, not of the order the
 * cells are visited in, and any search (cell by cell here, area by area in
 * lock.c) lists the keys in the same order: by wave, then by lock number.
 * Which keys are listed follows the parent chains, and so the visit order
 * (north, east, south, west): where two sets of keys open the way in one wave,
 * a mirrored map may list the other set (both work).
 * dg_solve runs that search over regions first (solve_regions.c) and falls
 * back to the cell search here where the region graph cannot tell the order. */
#include "analysis/analysis.h"
#include "progress/progress.h"

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

void dgi_solve_run(const uint8_t *tile, int32_t width, int32_t height, const dg_result *r,
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
void dgi_frame_tiles(const dg_grid *g, uint8_t *tile)
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

/* DG_OK if start and exit are passable cells inside the grid. */
dg_status dgi_progress_check_ends(const dg_grid *g, const dg_result *r, dg_diag *diag)
{
    const dg_point ends[2] = {r->start, r->exit};
    for (int k = 0; k < 2; k++)
    {
        dg_point p = ends[k];
        if (p.x < 0 || p.y < 0 || p.x >= g->width || p.y >= g->height)
            return dgi_fail(diag, DG_E_INVALID, "result %s (%d, %d) is outside the %dx%d grid",
                            k ? "exit" : "start", (int)p.x, (int)p.y, (int)g->width,
                            (int)g->height);
        if (!dgi_passable_default[DG_CELL(g, p.x, p.y)])
            return dgi_fail(diag, DG_E_INVALID, "result %s (%d, %d) is not a passable cell",
                            k ? "exit" : "start", (int)p.x, (int)p.y);
    }
    return DG_OK;
}

dg_status dg_solve(const dg_grid *grid, const dg_result *result, dg_progress *progress,
                   const dg_allocator *allocator, dg_diag *diag)
{
    if (!grid || !result || !progress)
        return dgi_fail(diag, DG_E_NULL, "dg_solve: grid, result and progress must not be NULL");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK || (st = dgi_progress_check_ends(grid, result, diag)) != DG_OK)
        return st;
    uint8_t at = DG_CELL(grid, result->start.x, result->start.y);
    if (at == DG_TILE_DOOR_LOCKED || at == DG_TILE_DOOR_SECRET)
        return dgi_fail(diag, DG_E_INVALID,
                        "result start (%d, %d) is on a %s door: the player cannot stand in a shut "
                        "door", (int)result->start.x, (int)result->start.y,
                        at == DG_TILE_DOOR_LOCKED ? "locked" : "secret");
    size_t n = ((size_t)grid->width + 2) * ((size_t)grid->height + 2); /* framed */
    size_t bytes = n * (3 * sizeof(int32_t) + 2);
    int32_t *scratch = dgi_alloc(allocator, bytes);
    if (!scratch)
        return dgi_fail(diag, DG_E_NOMEM, "dg_solve needs %zu bytes of scratch", bytes);
    if (!dgi_solve_regions(grid, result, scratch, bytes, progress))
    {
        uint32_t *sets = (uint32_t *)(scratch + 2 * n);
        uint8_t *tag = (uint8_t *)(sets + n), *tile = tag + n;
        dgi_frame_tiles(grid, tile);
        dgi_solve_run(tile, grid->width, grid->height, result, scratch, scratch + n, sets, tag,
                      progress);
    }
    dgi_free(allocator, scratch, bytes);
    dgi_diag_ok(diag);
    return DG_OK;
}
