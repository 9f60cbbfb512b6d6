/* Walking distances of the attach generator over its door graph.
 *
 * Inside one rectangular feature the walking distance between two cells is
 * their Manhattan distance, and between two cells that are inside or are
 * doors of the feature it is the distance through the rectangle (a door is
 * first moved onto the rim cell it touches). A shortest walk goes from door to
 * door through one feature at a time, so shortest paths over the doors give
 * exact walking distances with memory per feature, not per cell. */
#include "gen/attach_state.h"

#include <stdlib.h>

static int32_t door_next(const att_door *d, int32_t feat)
{
    return d->a == feat ? d->next_a : d->next_b;
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int32_t manhattan(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return abs(ax - bx) + abs(ay - by);
}

/* Walk from a to b through feature f (each inside f or a door of f). */
static int32_t through(const att_feat *f, int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    int32_t cax = clamp(ax, f->x, f->x + f->w - 1), cay = clamp(ay, f->y, f->y + f->h - 1);
    int32_t cbx = clamp(bx, f->x, f->x + f->w - 1), cby = clamp(by, f->y, f->y + f->h - 1);
    return manhattan(ax, ay, cax, cay) + manhattan(cax, cay, cbx, cby) +
           manhattan(cbx, cby, bx, by);
}

/* ---- a binary heap of (dist, door) with lazy deletion ------------------------ */

static dg_status heap_push(att_ctx *c, int32_t dist, int32_t door)
{
    dg_status st;
    ATT_GROW(c, c->heap, c->cap_heap, c->nheap + 1, NULL, st);
    if (st != DG_OK)
        return st;
    att_heap_item *h = c->heap;
    int32_t i = c->nheap++;
    while (i > 0)
    {
        int32_t up = (i - 1) / 2;
        if (h[up].dist < dist || (h[up].dist == dist && h[up].door <= door))
            break;
        h[i] = h[up];
        i = up;
    }
    h[i].dist = dist;
    h[i].door = door;
    return DG_OK;
}

static int heap_less(const att_heap_item *a, const att_heap_item *b)
{
    return a->dist < b->dist || (a->dist == b->dist && a->door < b->door);
}

static att_heap_item heap_pop(att_ctx *c)
{
    att_heap_item *h = c->heap, top = h[0], last = h[--c->nheap];
    int32_t i = 0, n = c->nheap;
    for (;;)
    {
        int32_t kid = 2 * i + 1;
        if (kid >= n)
            break;
        if (kid + 1 < n && heap_less(&h[kid + 1], &h[kid]))
            kid++;
        if (!heap_less(&h[kid], &last))
            break;
        h[i] = h[kid];
        i = kid;
    }
    if (n > 0)
        h[i] = last;
    return top;
}

/* A search's goal: the point (qx, qy) inside feature fb, or none (fb < 0). */
typedef struct goal {
    int32_t fb, qx, qy;
} goal;

/* Lower bound of the walk left from door d to the goal: a door of fb is
 * exactly that far, and no step between doors is shorter than the Manhattan
 * distance it covers, so the bound never drops by more than a step costs. */
static inline int32_t to_goal(const goal *g, const att_door *d)
{
    return g->fb < 0 ? 0 : manhattan(d->x, d->y, g->qx, g->qy);
}

/* Lowers door d's distance to dist if shorter (it is queued by dist plus its
 * bound to the goal), remembering it for reset. */
static dg_status relax(att_ctx *c, const goal *g, int32_t d, int32_t dist, int track)
{
    att_door *door = &c->doors[d];
    if (dist >= door->dist)
        return DG_OK;
    if (track && door->dist == INT32_MAX)
    {
        dg_status st;
        ATT_GROW(c, c->touched, c->cap_touched, c->ntouched + 1, NULL, st);
        if (st != DG_OK)
            return st;
        c->touched[c->ntouched++] = d;
    }
    door->dist = dist;
    return heap_push(c, dist + to_goal(g, door), d);
}

/* The interior cell of feature f (one of its two) that door d touches. */
static void rim_of(const att_door *d, int32_t f, int32_t *x, int32_t *y)
{
    static const int8_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0}; /* by DG_DIR_* */
    int dir = d->a == f ? d->into_a : d->into_b;
    *x = d->x + dx[dir];
    *y = d->y + dy[dir];
}

/* Pops doors in order of distance plus bound to the goal (A*; plain Dijkstra
 * without a goal) and relaxes the doors they share a feature with, until the
 * heap is empty or no shorter way than best can remain; with a goal best also
 * takes the way to it. See search. Between two doors of a feature the walk is
 * a step in, the Manhattan distance between the cells they touch, and a step
 * out. The distance found is exact either way: only the doors visited differ. */
static int32_t drain(att_ctx *c, const goal *g, int32_t best, int track)
{
    while (c->nheap > 0)
    {
        if (track && --c->loop_work < 0)
            return -2; /* the loop pass has used up its work bound */
        att_heap_item it = heap_pop(c);
        const att_door *d = &c->doors[it.door];
        int32_t h = to_goal(g, d), dist = it.dist - h;
        if (dist > d->dist)
            continue; /* stale entry */
        if (it.dist >= best)
            break;
        int32_t side[2] = {d->a, d->b};
        for (int s = 0; s < 2; s++)
        {
            int32_t fs = side[s], rx, ry;
            if (fs == g->fb)
                best = DG_MIN(best, dist + h);
            rim_of(d, fs, &rx, &ry);
            int32_t base = dist + 2;
            for (int32_t e = c->feats[fs].doors_head; e >= 0; e = door_next(&c->doors[e], fs))
            {
                const att_door *o = &c->doors[e];
                if (e == it.door)
                    continue;
                int32_t ox, oy;
                rim_of(o, fs, &ox, &oy);
                int32_t nd = base + manhattan(rx, ry, ox, oy);
                if (nd < o->dist && nd + to_goal(g, o) < best && relax(c, g, e, nd, track) != DG_OK)
                    return -1;
            }
        }
    }
    return best;
}

/* Shortest walks over the doors from the point (px, py) inside feature fa.
 * Stops at distance `limit`; if fb >= 0 also once no shorter way to (qx, qy)
 * inside fb can exist, and returns that distance (or limit). track: a
 * loop-pass search (record touched doors, spend c->loop_work; -2 once it is
 * spent). -1: no memory. */
static int32_t search(att_ctx *c, int32_t fa, int32_t px, int32_t py, int32_t fb, int32_t qx,
                      int32_t qy, int32_t limit, int track)
{
    const goal g = {fb, qx, qy};
    c->nheap = 0;
    for (int32_t d = c->feats[fa].doors_head; d >= 0; d = door_next(&c->doors[d], fa))
        if (relax(c, &g, d, through(&c->feats[fa], px, py, c->doors[d].x, c->doors[d].y),
                  track) != DG_OK)
            return -1;
    return drain(c, &g, limit, track);
}

int32_t dgi_att_walk_distance(att_ctx *c, int32_t fa, int32_t px, int32_t py, int32_t fb,
                              int32_t qx, int32_t qy, int32_t limit)
{
    c->ntouched = 0;
    int32_t best = search(c, fa, px, py, fb, qx, qy, limit, 1);
    for (int32_t i = 0; i < c->ntouched; i++)
        c->doors[c->touched[i]].dist = INT32_MAX;
    return best;
}

/* Tree distances from the centre of the first room to every door: growth
 * built the doors parents first, so one pass in creation order gives each
 * door the length of the walk down the tree (loops ignored: an upper bound). */
static void tree_distances(att_ctx *c)
{
    for (int32_t i = 0; i < c->ndoor; i++)
    {
        att_door *d = &c->doors[i];
        const att_feat *pf = &c->feats[d->a];
        if (d->a == 0)
            d->dist = manhattan(c->start_x, c->start_y, d->x, d->y);
        else
        {
            const att_door *in = &c->doors[pf->door];
            int32_t ix, iy, ox, oy; /* both doors of pf: in, across, out */
            rim_of(in, d->a, &ix, &iy);
            rim_of(d, d->a, &ox, &oy);
            d->dist = in->dist + 2 + manhattan(ix, iy, ox, oy);
        }
    }
}

/* The room whose far corner is farthest down the tree from the first room:
 * one end of a long walk, where the start goes (0 if no other room). */
static int32_t far_room(const att_ctx *c)
{
    int32_t best = 0, best_dist = -1;
    for (int32_t fi = 1; fi < c->nfeat; fi++)
    {
        const att_feat *f = &c->feats[fi];
        if (f->kind != ATT_ROOM)
            continue;
        const att_door *d = &c->doors[f->door];
        int32_t dist = d->dist + DG_MAX(abs(d->x - f->x), abs(d->x - (f->x + f->w - 1))) +
                       DG_MAX(abs(d->y - f->y), abs(d->y - (f->y + f->h - 1)));
        if (dist > best_dist)
        {
            best = fi;
            best_dist = dist;
        }
    }
    return best;
}

/* Exact walking distances from the start to every door: Dijkstra over the doors. */
static dg_status door_distances(att_ctx *c)
{
    for (int32_t i = 0; i < c->ndoor; i++)
        c->doors[i].dist = INT32_MAX;
    return search(c, c->start_feat, c->start_x, c->start_y, -1, 0, 0, INT32_MAX, 0) < 0
               ? DG_E_NOMEM
               : DG_OK;
}

/* Distance from (x, y) to the farthest cell of f. */
static int32_t farthest_corner(const att_feat *f, int32_t x, int32_t y)
{
    return DG_MAX(abs(x - f->x), abs(x - (f->x + f->w - 1))) +
           DG_MAX(abs(y - f->y), abs(y - (f->y + f->h - 1)));
}

#define MAX_ENTRIES 32

/* Where a walk can enter a feature: its doors, and the start in the first room. */
typedef struct entries {
    int32_t n;        /* all entries (only the first MAX_ENTRIES are stored) */
    int32_t x[MAX_ENTRIES], y[MAX_ENTRIES], d[MAX_ENTRIES];
    int32_t bound;    /* upper bound of the distance of any cell (exact if n == 1) */
} entries;

static void add_entry(entries *e, const att_feat *f, int32_t x, int32_t y, int32_t d)
{
    if (e->n < MAX_ENTRIES)
    {
        e->x[e->n] = x;
        e->y[e->n] = y;
        e->d[e->n] = d;
    }
    e->n++;
    e->bound = DG_MIN(e->bound, d + farthest_corner(f, x, y));
}

static void gather_entries(const att_ctx *c, int32_t fi, entries *e)
{
    const att_feat *f = &c->feats[fi];
    e->n = 0;
    e->bound = INT32_MAX;
    if (fi == c->start_feat)
        add_entry(e, f, c->start_x, c->start_y, 0);
    for (int32_t d = f->doors_head; d >= 0; d = door_next(&c->doors[d], fi))
        add_entry(e, f, c->doors[d].x, c->doors[d].y, c->doors[d].dist);
}

/* Walking distance of cell (x, y) of feature fi: its best entry. */
static int32_t cell_distance(const att_ctx *c, int32_t fi, const entries *e, int32_t x, int32_t y)
{
    int32_t best = INT32_MAX;
    if (e->n <= MAX_ENTRIES)
    {
        for (int32_t i = 0; i < e->n; i++)
            best = DG_MIN(best, e->d[i] + manhattan(e->x[i], e->y[i], x, y));
        return best;
    }
    if (fi == c->start_feat)
        best = manhattan(c->start_x, c->start_y, x, y);
    for (int32_t d = c->feats[fi].doors_head; d >= 0; d = door_next(&c->doors[d], fi))
    {
        const att_door *o = &c->doors[d];
        best = DG_MIN(best, o->dist + manhattan(o->x, o->y, x, y));
    }
    return best;
}

/* The farthest cell so far; ties go to the lowest feature, then row-major order. */
typedef struct farthest {
    int32_t dist, feat, x, y;
} farthest;

static void consider(farthest *b, int32_t dist, int32_t feat, int32_t x, int32_t y)
{
    if (dist > b->dist ||
        (dist == b->dist && (feat < b->feat || (feat == b->feat && (y < b->y ||
                                                                    (y == b->y && x < b->x))))))
    {
        b->dist = dist;
        b->feat = feat;
        b->x = x;
        b->y = y;
    }
}

/* The exit lies in a room, where a player looks for it. Rooms with one
 * entry (leaves) are settled on the way: their farthest cell is a corner. The others are scanned afterwards, only if their
 * bound can still beat the best, which it rarely can. */
static void farthest_in_features(att_ctx *c, farthest *b)
{
    entries e;
    for (int32_t fi = 0; fi < c->nfeat; fi++)
    {
        att_feat *f = &c->feats[fi];
        f->far_bound = -1;
        if (f->kind != ATT_ROOM)
            continue;
        if (fi != c->start_feat && f->doors_head == f->door && c->doors[f->door].next_b < 0)
        { /* a leaf is entered only through its own door */
            const att_door *d = &c->doors[f->door];
            e.n = 0;
            e.bound = INT32_MAX;
            add_entry(&e, f, d->x, d->y, d->dist);
        }
        else
            gather_entries(c, fi, &e);
        if (e.n == 1 && fi != c->start_feat && f->shape != DG_SHAPE_RECT &&
            f->w * f->h <= ATT_WALK_CELLS)
        { /* a shaped room with one entrance: walked cell by cell */
            int32_t x, y, dist = dgi_att_shaped_farthest(c, fi, &x, &y);
            consider(b, dist, fi, x, y);
            continue;
        }
        if (e.n > 1 || f->shape != DG_SHAPE_RECT)
        { /* scanned below (a large shaped room keeps Manhattan walking) */
            f->far_bound = e.bound;
            continue;
        }
        int32_t x1 = f->x + f->w - 1, y1 = f->y + f->h - 1;
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): every attached room has a door, so e.n is 1 */
        int32_t cx = abs(e.x[0] - f->x) >= abs(e.x[0] - x1) ? f->x : x1;
        int32_t cy = abs(e.y[0] - f->y) >= abs(e.y[0] - y1) ? f->y : y1;
        consider(b, e.bound, fi, cx, cy);
    }
    for (int32_t fi = 0; fi < c->nfeat; fi++)
    {
        const att_feat *f = &c->feats[fi];
        if (f->kind != ATT_ROOM || f->far_bound < b->dist ||
            (f->far_bound == b->dist && fi > b->feat))
            continue;
        gather_entries(c, fi, &e);
        for (int32_t y = f->y; y < f->y + f->h; y++)
            for (int32_t x = f->x; x < f->x + f->w; x++)
                if (*att_at(c, x, y) == DG_TILE_FLOOR) /* not a cell its shape cut */
                    consider(b, cell_distance(c, fi, &e, x, y), fi, x, y);
    }
}

void dgi_att_pick_start(att_ctx *c)
{
    tree_distances(c);
    c->start_feat = far_room(c);
    const att_feat *sf = &c->feats[c->start_feat];
    c->start_x = sf->x + sf->w / 2; /* the middle row and column are floor in every shape */
    c->start_y = sf->y + sf->h / 2;
}

dg_status dgi_att_exit(att_ctx *c, int32_t *ex, int32_t *ey, int32_t *efeat)
{
    dg_status st = door_distances(c);
    if (st != DG_OK)
        return st;
    farthest b = {-1, INT32_MAX, 0, 0};
    farthest_in_features(c, &b);
    *ex = b.x;
    *ey = b.y;
    *efeat = b.feat;
    return DG_OK;
}
