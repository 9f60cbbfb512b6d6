/* Joining the caves (cave_state.h): the nearest cave of every area cell by a
 * two-pass distance sweep, candidate tunnels where two caves' areas touch, a
 * minimum spanning tree of them (shortest first) and its tunnels carved as
 * straight lines; around reserved cells the same by walks that keep off them,
 * and the caves no walk can join filled. */
#include "gen/cave_state.h"

#include <stdlib.h>

/* ---- connecting ----------------------------------------------------------------------- */

/* Length of the tunnel edge e would carve: the walk between its cave cells. */
static int32_t edge_length(const cave_edge *e)
{
    return abs(CAVE_XY_X(e->p) - CAVE_XY_X(e->q)) + abs(CAVE_XY_Y(e->p) - CAVE_XY_Y(e->q));
}

/* The nearest caves of one area row: owner (region, -1 for none) and origin
 * (the cave cell, packed) per column. */
typedef struct near_row {
    const int32_t *owner;
    const uint32_t *origin;
} near_row;

/* The candidate tunnel through the touching cells u, v (columns xu, xv of
 * rows ru, rv): a straight line between their caves, or around reserved
 * cells the two walks back to them. */
static cave_edge make_edge(const cave_ctx *c, int32_t u, int32_t v, near_row ru, int32_t xu,
                           near_row rv, int32_t xv)
{
    cave_edge e = {ru.owner[xu], rv.owner[xv], ru.origin[xu], rv.origin[xv], u, v, 0};
    e.length = c->dist ? c->dist[u] + c->dist[v] + 1 : edge_length(&e);
    return e;
}

/* Records the touching cells as a candidate, or, when *last is an edge of
 * the same two regions (found before along the row), keeps the shorter of
 * the two there. */
static dg_status touch(cave_ctx *c, int32_t u, int32_t v, near_row ru, int32_t xu, near_row rv,
                       int32_t xv, int32_t *last)
{
    cave_edge e = make_edge(c, u, v, ru, xu, rv, xv);
    if (*last >= 0 && c->edges[*last].a == e.a && c->edges[*last].b == e.b)
    {
        if (e.length < c->edges[*last].length)
            c->edges[*last] = e;
        return DG_OK;
    }
    *last = c->edge_count;
    if (c->edge_count == c->edge_cap)
    {
        void *arr = c->edges;
        dg_status st = dgi_grow(c->a, &arr, &c->edge_cap, c->edge_count + 1, sizeof *c->edges);
        c->edges = arr;
        if (st != DG_OK)
            return st;
    }
    c->edges[c->edge_count++] = e;
    return DG_OK;
}

/* Where the areas of two caves touch in area row y (across, or down to the
 * row below, `down`; none under the last row), the pair of cells is a
 * candidate tunnel; runs of the same pair along the row give one candidate.
 * The row's candidates are edges[row_first[y], row_end[y]). */
static dg_status meet_row(cave_ctx *c, int32_t y, near_row here, near_row down)
{
    const int32_t *own = here.owner, *below = y + 1 < c->ih ? down.owner : own;
    int32_t across = -1, dn = -1, i0 = dgi_cave_map_index(c, 0, y), last = c->iw - 1;
    dg_status st = DG_OK;
    c->row_first[y] = c->edge_count;
    for (int32_t x = 0; x <= last && st == DG_OK; x++)
    {
        int32_t o = own[x];
        while (x < last && own[x + 1] == o && below[x] == o)
            x++; /* inside one cave's area (most cells) */
        if (o < 0)
            continue; /* around reserved cells, a cell of no cave */
        if (x < last && own[x + 1] >= 0 && own[x + 1] != o)
            st = touch(c, i0 + x, i0 + x + 1, here, x, here, x + 1, &across);
        if (st == DG_OK && below[x] >= 0 && below[x] != o)
            st = touch(c, i0 + x, i0 + x + c->pw, here, x, down, x, &dn);
    }
    c->row_end[y] = c->edge_count;
    return st;
}

enum { FAR = INT32_MAX / 2 };
#define NO_CAVE 0xFFFFFFFFu /* the origin of a cell the first sweep reached from no cave */

/* The first sweep's row: per column the distance to the nearest cave cell
 * found so far, that cell (packed) and its region. */
typedef struct sweep_row {
    int32_t *d;
    uint32_t *g;
    int32_t *own;
} sweep_row;

/* First sweep, area row y, columns x0..x1 of rock (down and right): each cell
 * takes the nearer of the cell above and the cell before it (the one above
 * on a tie); s: the row above, updated in place; near, nown: this row's
 * cells in the band; *pd, *pg, *po those of the cell before. */
static void sweep_down_rock(uint32_t *near, int32_t *nown, sweep_row s, int32_t x0, int32_t x1,
                            int32_t *pd, uint32_t *pg, int32_t *po)
{
    int32_t dl = *pd, ol = *po;
    uint32_t gl = *pg;
    for (int32_t x = x0; x <= x1; x++)
    {
        int32_t du = s.d[x] + 1, dist = FAR, ow = -1;
        uint32_t o = NO_CAVE;
        if (du < dist)
            dist = du, o = s.g[x], ow = s.own[x];
        if (dl + 1 < dist)
            dist = dl + 1, o = gl, ow = ol;
        s.d[x] = dl = dist, s.g[x] = gl = near[x] = o, s.own[x] = ol = nown[x] = ow;
    }
    *pd = dl, *pg = gl, *po = ol;
}

/* The cave cells x0..x1 of area row y, region `set`, in either sweep. */
static void sweep_cave(int32_t *d, uint32_t *g, int32_t *own, int32_t set, int32_t x0, int32_t x1,
                       int32_t y)
{
    uint32_t p = CAVE_XY(x0 + CAVE_PAD, y + CAVE_PAD);
    for (int32_t x = x0; x <= x1; x++)
        d[x] = 0, g[x] = p++, own[x] = set;
}

/* The first sweep over the rows y0..y1 - 1 (a band), from the runs of row y0
 * on (*r), into near and near_owner. */
static void sweep_down_band(cave_ctx *c, sweep_row s, int32_t y0, int32_t y1, int32_t *r)
{
    int32_t iw = c->iw;
    for (int32_t y = y0; y < y1; y++)
    {
        size_t at = (size_t)(y - y0) * (size_t)iw;
        uint32_t *near = c->near + at, pg = NO_CAVE;
        int32_t *nown = c->near_owner + at, x = 0, pd = FAR, po = -1;
        for (; *r < c->run_count && c->runs[*r].y == y; (*r)++)
        {
            const cave_row_run *rn = &c->runs[*r];
            if (c->keep[rn->set] < 0)
                continue;
            sweep_down_rock(near, nown, s, x, rn->x0 - 1, &pd, &pg, &po);
            sweep_cave(s.d, s.g, s.own, rn->set, rn->x0, rn->x1, y);
            pd = 0, pg = s.g[rn->x1], po = rn->set, x = rn->x1 + 1;
        }
        sweep_down_rock(near, nown, s, x, iw - 1, &pd, &pg, &po);
    }
}

/* Second sweep, area row y, columns x1 down to x0 of rock (up and left): each
 * cell keeps its first sweep's cave unless the cell below, then the cell after
 * it, is strictly nearer. The first sweep's distance is the Manhattan distance
 * to its cave (up and left of the cell). near, nown: this row's first sweep;
 * dn: the row below; out: this row; *pd.. the cell after. */
static void sweep_up_rock(const uint32_t *near, const int32_t *nown, int32_t y, near_row dn,
                          const int32_t *ddn, int32_t *d, uint32_t *g, int32_t *own, int32_t x0,
                          int32_t x1, int32_t *pd, uint32_t *pg, int32_t *po)
{
    int32_t dr = *pd, orr = *po, Y = y + CAVE_PAD;
    uint32_t gr = *pg;
    for (int32_t x = x1; x >= x0; x--)
    {
        uint32_t o = near[x];
        int32_t dist = o == NO_CAVE ? FAR : x + CAVE_PAD - CAVE_XY_X(o) + Y - CAVE_XY_Y(o),
                owner = nown[x];
        if (ddn[x] + 1 < dist)
            dist = ddn[x] + 1, o = dn.origin[x], owner = dn.owner[x];
        if (dr + 1 < dist)
            dist = dr + 1, o = gr, owner = orr;
        d[x] = dr = dist, g[x] = gr = o, own[x] = orr = owner;
    }
    *pd = dr, *pg = gr, *po = orr;
}

/* The first sweep's rows before each band into marks (and its first run),
 * leaving the last band in near. */
static void mark_bands(cave_ctx *c, sweep_row s)
{
    int32_t iw = c->iw, r = 0;
    for (int32_t x = 0; x < iw; x++)
        s.d[x] = FAR, s.g[x] = NO_CAVE, s.own[x] = -1;
    for (int32_t y0 = 0; y0 < c->ih; y0 += c->span)
    {
        int32_t *m = c->marks + (size_t)(y0 / c->span) * (2 * (size_t)iw + 1);
        memcpy(m, s.g, (size_t)iw * sizeof *m);
        memcpy(m + iw, s.own, (size_t)iw * sizeof *m);
        m[2 * iw] = r;
        sweep_down_band(c, s, y0, DG_MIN(y0 + c->span, c->ih), &r);
    }
}

/* The first sweep again over the band from row y0, from its mark: the
 * distance of row y0 - 1 is the Manhattan distance to its origin. */
static void redo_band(cave_ctx *c, sweep_row s, int32_t y0)
{
    int32_t iw = c->iw, *m = c->marks + (size_t)(y0 / c->span) * (2 * (size_t)iw + 1);
    int32_t r = m[2 * iw], Y = y0 - 1 + CAVE_PAD;
    memcpy(s.g, m, (size_t)iw * sizeof *m);
    memcpy(s.own, m + iw, (size_t)iw * sizeof *m);
    for (int32_t x = 0; x < iw; x++)
        s.d[x] = s.g[x] == NO_CAVE ? FAR : x + CAVE_PAD - CAVE_XY_X(s.g[x]) + Y - CAVE_XY_Y(s.g[x]);
    sweep_down_band(c, s, y0, DG_MIN(y0 + c->span, c->ih), &r);
}

/* Nearest cave cell of every area cell by Manhattan distance, with its cave:
 * the classic two raster passes (down and right, then up and left), exact
 * for 4-way steps in an open rectangle. The first runs in bands of rows,
 * keeping only the rows before each band (marks) and the cells of one band
 * (near); the second runs on rows, bottom up, redoing each band's first sweep
 * from its mark as it reaches it, and meets the caves (meet_row) as each row
 * is done. So the scratch is a few rows of the area, at the cost of a second
 * first sweep. Cave cells are whole runs, so only rock is swept cell by cell. */
static dg_status nearest_caves(cave_ctx *c)
{
    int32_t iw = c->iw, *d = c->rows, *dd = c->rows + 3 * iw;
    uint32_t *g = (uint32_t *)d + iw, *gd = (uint32_t *)dd + iw;
    int32_t *own = d + 2 * iw, *ownd = dd + 2 * iw, *f = c->rows + 6 * iw;
    sweep_row first = {f, (uint32_t *)f + iw, f + 2 * iw};
    mark_bands(c, first);
    for (int32_t x = 0; x < iw; x++)
        dd[x] = FAR;
    dg_status st = DG_OK;
    c->edge_count = 0;
    int32_t y0 = (c->ih - 1) / c->span * c->span; /* the last band, in near already */
    for (int32_t y = c->ih - 1, r = c->run_count - 1; y >= 0 && st == DG_OK; y--)
    {
        if (y < y0)
            redo_band(c, first, y0 -= c->span);
        size_t at = (size_t)(y - y0) * (size_t)iw;
        const uint32_t *near = c->near + at;
        const int32_t *nown = c->near_owner + at;
        near_row dn = {ownd, gd}, here = {own, g};
        int32_t x = iw - 1, pd = FAR, po = -1;
        uint32_t pg = NO_CAVE;
        for (; r >= 0 && c->runs[r].y == y; r--)
        {
            const cave_row_run *rn = &c->runs[r];
            if (c->keep[rn->set] < 0)
                continue;
            sweep_up_rock(near, nown, y, dn, dd, d, g, own, rn->x1 + 1, x, &pd, &pg, &po);
            sweep_cave(d, g, own, rn->set, rn->x0, rn->x1, y);
            pd = 0, pg = g[rn->x0], po = rn->set, x = rn->x0 - 1;
        }
        sweep_up_rock(near, nown, y, dn, dd, d, g, own, 0, x, &pd, &pg, &po);
        st = meet_row(c, y, here, dn);
        int32_t *t = d; /* this row is the next one's row below */
        d = dd, dd = t, t = own, own = ownd, ownd = t;
        uint32_t *u = g;
        g = gd, gd = u;
    }
    return st;
}

/* Where the areas of two caves touch (across or down), around reserved
 * cells: from the per-cell owner and origin of nearest_caves_around. */
static dg_status meet_caves(cave_ctx *c)
{
    dg_status st = DG_OK;
    c->edge_count = 0;
    for (int32_t y = 0; y < c->ih && st == DG_OK; y++)
    {
        int32_t i = dgi_cave_map_index(c, 0, y), j = y + 1 < c->ih ? i + c->pw : i;
        near_row here = {c->owner + i, c->origin + i}, down = {c->owner + j, c->origin + j};
        st = meet_row(c, y, here, down);
    }
    return st;
}

/* c->order = the edges by length, ties in the order found (a counting sort). */
static dg_status sort_edges(cave_ctx *c)
{
    int32_t longest = c->dist ? (int32_t)c->cells : c->iw + c->ih;
    size_t counts_size = (size_t)(longest + 2) * sizeof(int32_t);
    int32_t *start = dgi_calloc(c->a, (size_t)longest + 2, sizeof(int32_t));
    c->order = dgi_alloc(c->a, (size_t)c->edge_cap * sizeof *c->order);
    if (!start || !c->order)
    {
        dgi_free(c->a, start, counts_size);
        return DG_E_NOMEM;
    }
    for (int32_t e = 0; e < c->edge_count; e++)
        start[c->edges[e].length + 1]++;
    for (int32_t k = 1; k <= longest + 1; k++)
        start[k] += start[k - 1];
    for (int32_t y = 0; y < c->ih; y++) /* in the order found along the rows, top down */
        for (int32_t e = c->row_first[y]; e < c->row_end[y]; e++)
            c->order[start[c->edges[e].length]++] = e;
    dgi_free(c->a, start, counts_size);
    return DG_OK;
}

/* Kruskal over the candidate tunnels: the shortest that joins two caves not
 * yet joined, until all are one. */
static void spanning_tree(cave_ctx *c)
{
    int32_t *parent = c->parent;
    for (int32_t r = 0; r < c->region_count; r++)
        parent[r] = r;
    c->tunnel_count = 0;
    for (int32_t i = 0; i < c->edge_count && c->tunnel_count < c->cave_count - 1; i++)
    {
        const cave_edge *e = &c->edges[c->order[i]];
        int32_t a = dgi_uf_find(parent, e->a), b = dgi_uf_find(parent, e->b);
        if (a == b)
            continue;
        parent[a] = b;
        cave_tunnel t = {e->p, e->q, e->a, e->b, e->u, e->v, e->length};
        c->tunnels[c->tunnel_count++] = t;
    }
}

/* Opens the brush (tunnel_width cells square) at map cell (x, y), inside the
 * area (without the map, the area's bounds and the bit rows tell the same). */
static void open_brush(cave_ctx *c, int32_t x, int32_t y)
{
    int32_t w = c->p->tunnel_width, lo = w == 3 ? -1 : 0;
    for (int32_t dy = lo; dy < lo + w; dy++)
        for (int32_t dx = lo; dx < lo + w; dx++)
        {
            if (!c->map)
            {
                int32_t ax = x + dx - CAVE_PAD, ay = y + dy - CAVE_PAD;
                if (ax >= 0 && ax < c->iw && ay >= 0 && ay < c->ih)
                    dgi_cave_set_rock(c, CAVE_XY(x + dx, y + dy), 0);
                continue;
            }
            uint8_t *m = &c->map[(y + dy) * c->pw + x + dx];
            if ((*m & CAVE_M_KIND) == CAVE_M_ROCK)
            {
                *m = (uint8_t)((*m & ~CAVE_M_KIND) | CAVE_M_TUNNEL); /* keeps a walk's way back */
                dgi_cave_set_rock(c, CAVE_XY(x + dx, y + dy), 0);
            }
        }
}

/* The 4-connected line from p to q: each step moves along the axis whose
 * progress lags (integer comparison), so the tunnel runs straight. */
static void carve_line(cave_ctx *c, uint32_t p, uint32_t q)
{
    int32_t x = CAVE_XY_X(p), y = CAVE_XY_Y(p), qx = CAVE_XY_X(q), qy = CAVE_XY_Y(q);
    int32_t dx = abs(qx - x), dy = abs(qy - y), sx = qx > x ? 1 : -1, sy = qy > y ? 1 : -1;
    int64_t mx = 0, my = 0;
    open_brush(c, x, y);
    while (mx < dx || my < dy)
    {
        if (my == dy || (mx < dx && (2 * mx + 1) * dy < (2 * my + 1) * dx))
            mx++, x += sx;
        else
            my++, y += sy;
        open_brush(c, x, y);
    }
}

/* ---- connecting around reserved cells ---------------------------------------------- */

enum { WAY_SHIFT = 3 }; /* map bits 3-4: the direction back toward a rock cell's cave */

/* Nearest cave of every cell a walk reaches without crossing forbidden cells
 * (breadth-first from all cave cells at once, sides in N E S W order): owner,
 * origin, dist, and the way back in the map. Cells never reached keep owner -1. */
static void nearest_caves_around(cave_ctx *c)
{
    const int32_t off[4] = {-c->pw, 1, c->pw, -1};
    int32_t *queue = c->queue, head = 0, tail = 0;
    for (size_t i = 0; i < c->cells; i++)
        c->owner[i] = -1;
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const cave_row_run *rn = &c->runs[r];
        if (c->keep[rn->set] < 0)
            continue;
        for (int32_t x = rn->x0, i = dgi_cave_map_index(c, x, rn->y); x <= rn->x1; x++, i++)
        {
            c->dist[i] = 0, c->owner[i] = rn->set,
            c->origin[i] = CAVE_XY(x + CAVE_PAD, rn->y + CAVE_PAD);
            queue[tail++] = i;
        }
    }
    while (head < tail)
    {
        int32_t u = queue[head++];
        for (int d = 0; d < 4; d++)
        {
            int32_t v = u + off[d];
            if (c->owner[v] >= 0 || (c->map[v] & CAVE_M_KIND) != CAVE_M_ROCK)
                continue;
            c->owner[v] = c->owner[u], c->origin[v] = c->origin[u], c->dist[v] = c->dist[u] + 1;
            c->map[v] |= (uint8_t)(((d + 2) & 3) << WAY_SHIFT);
            queue[tail++] = v;
        }
    }
}

static int is_open(uint8_t m)
{
    return (m & CAVE_M_KIND) == CAVE_M_CAVE || (m & CAVE_M_KIND) == CAVE_M_TUNNEL;
}

/* The brush at (x, y) around reserved cells: the cell itself, then those of
 * its square that are rock and touch open floor, so no opened cell is cut off. */
static void open_brush_around(cave_ctx *c, int32_t x, int32_t y)
{
    int32_t w = c->p->tunnel_width, lo = w == 3 ? -1 : 0, pw = c->pw;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t dy = lo; dy < lo + w; dy++)
            for (int32_t dx = lo; dx < lo + w; dx++)
            {
                int32_t i = (y + dy) * pw + x + dx;
                int centre = dx == 0 && dy == 0;
                if ((c->map[i] & CAVE_M_KIND) != CAVE_M_ROCK || centre != (pass == 0) ||
                    (!centre && !is_open(c->map[i - pw]) && !is_open(c->map[i + pw]) &&
                     !is_open(c->map[i - 1]) && !is_open(c->map[i + 1])))
                    continue;
                c->map[i] = (uint8_t)((c->map[i] & ~CAVE_M_KIND) | CAVE_M_TUNNEL);
                dgi_cave_set_rock(c, CAVE_XY(x + dx, y + dy), 0);
            }
}

/* Carves the walk from map cell i back to its cave cell. */
static void carve_back(cave_ctx *c, int32_t i)
{
    const int32_t off[4] = {-c->pw, 1, c->pw, -1};
    uint32_t home = c->origin[i];
    int32_t target = CAVE_XY_Y(home) * c->pw + CAVE_XY_X(home);
    for (;;)
    {
        open_brush_around(c, i % c->pw, i / c->pw);
        if (i == target)
            return;
        i += off[(c->map[i] >> WAY_SHIFT) & 3];
    }
}

/* Reserved cells may cut the area into pieces: the caves of the piece with
 * the most cave cells stay (their tree of tunnels too), the others fill. */
static dg_status keep_joined_caves(cave_ctx *c)
{
    int64_t *sizes = dgi_calloc(c->a, (size_t)c->region_count, sizeof *sizes), best_size = -1;
    if (!sizes)
        return DG_E_NOMEM;
    int32_t best = -1;
    for (int32_t k = 0; k < c->cave_count; k++)
        sizes[dgi_uf_find(c->parent, c->caves[k])] += c->regions[c->caves[k]].size;
    for (int32_t k = 0; k < c->cave_count; k++)
    {
        int32_t root = dgi_uf_find(c->parent, c->caves[k]);
        if (sizes[root] > best_size)
            best_size = sizes[root], best = root;
    }
    dgi_free(c->a, sizes, (size_t)c->region_count * sizeof *sizes);
    for (int32_t r = 0; r < c->run_count; r++)
    {
        const cave_row_run *rn = &c->runs[r];
        if (c->keep[rn->set] < 0 || dgi_uf_find(c->parent, rn->set) == best)
            continue;
        for (int32_t x = rn->x0; x <= rn->x1; x++)
        {
            dgi_cave_set_rock(c, CAVE_XY(x + CAVE_PAD, rn->y + CAVE_PAD), 1);
            c->map[dgi_cave_map_index(c, x, rn->y)] = CAVE_M_ROCK;
        }
    }
    int32_t kept = 0, tunnels = 0;
    for (int32_t k = 0; k < c->cave_count; k++)
    {
        int32_t r = c->caves[k];
        c->keep[r] = dgi_uf_find(c->parent, r) == best ? kept : -1;
        if (c->keep[r] >= 0)
            c->caves[kept++] = r;
    }
    for (int32_t t = 0; t < c->tunnel_count; t++)
        if (c->keep[c->tunnels[t].a] >= 0)
            c->tunnels[tunnels++] = c->tunnels[t];
    c->cave_count = kept;
    c->tunnel_count = tunnels;
    return DG_OK;
}

/* The tunnels to dig once the candidates are known: a spanning tree of them,
 * shortest first. */
static dg_status plan_tunnels(cave_ctx *c)
{
    dg_status st = sort_edges(c);
    if (st == DG_OK)
        spanning_tree(c);
    return st;
}

/* dgi_cave_connect around reserved cells: tunnels follow shortest walks that
 * keep off them, and caves no walk can join are filled. */
static dg_status connect_around(cave_ctx *c)
{
    nearest_caves_around(c);
    dg_status st = meet_caves(c);
    if (st == DG_OK)
        st = plan_tunnels(c);
    if (st != DG_OK)
        return st;
    if ((st = keep_joined_caves(c)) != DG_OK)
        return st;
    for (int32_t t = 0; t < c->tunnel_count; t++)
    {
        carve_back(c, c->tunnels[t].u);
        carve_back(c, c->tunnels[t].v);
    }
    return DG_OK;
}

dg_status dgi_cave_connect(cave_ctx *c)
{
    if (c->cave_count < 2)
        return DG_OK;
    if (c->forbid)
        return connect_around(c);
    dg_status st = nearest_caves(c);
    if (st == DG_OK)
        st = plan_tunnels(c);
    if (st != DG_OK)
        return st;
    for (int32_t t = 0; t < c->tunnel_count; t++)
        carve_line(c, c->tunnels[t].p, c->tunnels[t].q);
    return DG_OK;
}
