/* The progression solver: plays a map with locked doors and keys from the
 * start and says whether the exit can be reached, and with which keys.
 *
 * Keys open only their own lock and are never used up, so holding more keys
 * never hurts: the set of reachable cells only grows as keys are collected.
 * One breadth-first pass therefore settles every key set: a locked door met
 * without its key waits (it is marked touched) and joins the queue when the
 * key is held.
 *
 * The pass runs in waves: wave 0 reaches what needs no key; the keys found in
 * wave k open their doors only when wave k is done, so wave k + 1 is what those
 * keys add. A key's wave is thus a property of the map, not of the order the
 * cells are visited in, and any search (cell by cell here, area by area in
 * lock.c) lists the keys in the same order: by wave, then by lock number. */
#include "analysis/analysis.h"
#include "progress/progress.h"

/* Lock or key number N from a marker named "lock N" / "key N", else 0. */
int32_t dgi_progress_number(const dg_marker *m, const char *word)
{
    size_t len = strlen(word);
    if (strncmp(m->name, word, len) != 0 || m->name[len] != ' ')
        return 0;
    int32_t n = 0;
    const char *p = m->name + len + 1;
    for (; *p >= '0' && *p <= '9' && n <= DG_LOCKS_MAX; p++)
        n = n * 10 + (*p - '0');
    return *p == '\0' && n >= 1 && n <= DG_LOCKS_MAX ? n : 0;
}

enum { T_ENTERED = 1, T_TOUCHED = 2, T_KEY = 4 /* times the key number */ };

/* Cells are numbered over the grid and a closed one-cell frame, pw = width + 2
 * per row, so a cell's neighbours are c +- 1 and c +- pw with no bounds test. */
typedef struct solver {
    const dg_result *r;
    const uint8_t *tile; /* framed tiles; the frame is rock */
    int32_t pw, h;
    uint8_t *tag;     /* T_ENTERED, T_TOUCHED, and the key number lying on the cell */
    int32_t *parent;  /* cell a touched cell was first touched from */
    int32_t *queue;
    int32_t head, tail;
    int32_t held[DG_LOCKS_MAX + 1];  /* wave + 1 key N was picked up in, 0 if not held */
    int32_t picked, wave;
    int32_t found[DG_LOCKS_MAX];     /* keys picked up in this wave */
    int32_t found_count;
} solver;

/* The framed cell of grid point p, or -1 off the grid. */
static int32_t framed(const solver *s, dg_point p)
{
    if (p.x < 0 || p.y < 0 || p.x >= s->pw - 2 || p.y >= s->h)
        return -1;
    return (p.y + 1) * s->pw + p.x + 1;
}

static int32_t lock_at(const solver *s, int32_t c)
{
    for (int32_t i = 0; i < s->r->marker_count; i++)
    {
        const dg_marker *m = &s->r->markers[i];
        if (m->kind == DG_MARKER_LOCK && framed(s, m->pos) == c)
            return dgi_progress_number(m, "lock");
    }
    return 0;
}

static void enter(solver *s, int32_t c)
{
    s->tag[c] |= T_ENTERED;
    s->queue[s->tail++] = c;
}

/* Opens every touched door of lock n once its key is held. */
static void open_lock(solver *s, int32_t n)
{
    for (int32_t i = 0; i < s->r->marker_count; i++)
    {
        const dg_marker *m = &s->r->markers[i];
        if (m->kind != DG_MARKER_LOCK || dgi_progress_number(m, "lock") != n)
            continue;
        int32_t c = framed(s, m->pos);
        if (c >= 0 && s->tile[c] == DG_TILE_DOOR_LOCKED &&
            (s->tag[c] & (T_TOUCHED | T_ENTERED)) == T_TOUCHED)
            enter(s, c);
    }
}

/* Enters c unless it is shut (wall, secret door, or a lock whose key is not
 * held yet); a locked door touched waits for its key. */
static void touch(solver *s, int32_t from, int32_t c)
{
    uint8_t t = s->tile[c];
    if ((s->tag[c] & T_TOUCHED) || t == DG_TILE_DOOR_SECRET || !dgi_passable_default[t])
        return;
    s->tag[c] |= T_TOUCHED;
    s->parent[c] = from;
    if (t != DG_TILE_DOOR_LOCKED)
        enter(s, c);
    else
    {
        int32_t n = lock_at(s, c);
        if (n > 0 && s->held[n] && s->held[n] <= s->wave) /* held before this wave */
            enter(s, c);
    }
}

static void pick_up(solver *s, int32_t c)
{
    int32_t n = s->tag[c] / T_KEY;
    if (n == 0 || s->held[n])
        return;
    s->held[n] = s->wave + 1;
    s->picked++;
    s->found[s->found_count++] = n;
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
        for (int32_t i = 0; i < s->found_count; i++)
            open_lock(s, s->found[i]);
        s->found_count = 0;
    }
}

/* The keys the way to `c` depends on, marked in need[]: the locks on its
 * parent chain, then the ways to their keys in turn. */
static void mark_needed(const solver *s, int32_t c, const int32_t key_cell[], uint8_t need[])
{
    int32_t stack[DG_LOCKS_MAX + 1], top = 0;
    stack[top++] = c;
    while (top > 0)
    {
        for (int32_t at = stack[--top];; at = s->parent[at])
        {
            if (s->tile[at] == DG_TILE_DOOR_LOCKED)
            {
                int32_t n = lock_at(s, at);
                if (n > 0 && !need[n])
                {
                    need[n] = 1;
                    stack[top++] = key_cell[n];
                }
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

/* Places the key numbers on their cells; key_cell[n] gets the cell of key n. */
static void lay_keys(solver *s, int32_t key_cell[])
{
    for (int32_t i = 0; i < s->r->marker_count; i++)
    {
        const dg_marker *m = &s->r->markers[i];
        int32_t n = m->kind == DG_MARKER_KEY ? dgi_progress_number(m, "key") : 0;
        int32_t c = framed(s, m->pos);
        if (n == 0 || c < 0 || key_cell[n] >= 0)
            continue;
        key_cell[n] = c;
        s->tag[c] = (uint8_t)(n * T_KEY);
    }
}

void dgi_solve_run(const uint8_t *tile, int32_t width, int32_t height, const dg_result *r,
                   int32_t *parent, int32_t *queue, uint8_t *tag, dg_progress *p)
{
    solver s = {r, tile, width + 2, height, tag, parent, queue, 0, 0, {0}, 0, 0, {0}, 0};
    memset(s.tag, 0, (size_t)s.pw * (size_t)(height + 2));
    int32_t key_cell[DG_LOCKS_MAX + 1];
    for (int i = 0; i <= DG_LOCKS_MAX; i++)
        key_cell[i] = -1;
    lay_keys(&s, key_cell);
    flood(&s, framed(&s, r->start));
    int32_t exit = framed(&s, r->exit);
    p->solvable = (s.tag[exit] & T_ENTERED) != 0;
    p->keys_reached = s.picked;
    p->steps = s.tail;
    uint8_t need[DG_LOCKS_MAX + 1] = {0};
    if (p->solvable)
        mark_needed(&s, exit, key_cell, need);
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
    size_t n = ((size_t)grid->width + 2) * ((size_t)grid->height + 2); /* framed */
    size_t bytes = n * (2 * sizeof(int32_t) + 2);
    int32_t *scratch = dgi_alloc(allocator, bytes);
    if (!scratch)
        return dgi_fail(diag, DG_E_NOMEM, "dg_solve needs %zu bytes of scratch", bytes);
    uint8_t *tag = (uint8_t *)(scratch + 2 * n), *tile = tag + n;
    dgi_frame_tiles(grid, tile);
    dgi_solve_run(tile, grid->width, grid->height, result, scratch, scratch + n, tag, progress);
    dgi_free(allocator, scratch, bytes);
    dgi_diag_ok(diag);
    return DG_OK;
}
