/* Planarity of a level graph: can its rooms and connections be drawn on the
 * plane without two connections crossing? A layout can only realise a graph
 * that can, so dg_graph_check answers it exactly before any layout starts.
 * The test is path addition (Demoucron, Malgrange and Pertuiset, 1964) on each
 * biconnected block, with node sets as 64-bit masks: draw a cycle, then add,
 * one at a time, a path of a fragment (a piece of the graph not drawn yet) into
 * a face that holds all its attachments, taking a fragment that fits one face
 * only when there is one; a fragment that fits no face proves the block is not
 * planar. For a graph that is not planar, the witness is the first edge that
 * makes it so and the branch nodes of the K5 or K3,3 it then holds. */
#include "graph/graph.h"

#define BIT(v) ((uint64_t)1 << (v))
/* a drawn (planar) block has E - V + 2 <= 2V - 4 faces */
#define FACES_MAX (2 * DG_GRAPH_NODES_MAX)

typedef struct block {
    uint64_t adj[DG_GRAPH_NODES_MAX];   /* the block's edges, per node */
    uint64_t drawn[DG_GRAPH_NODES_MAX]; /* the edges drawn so far */
    uint64_t all, placed;               /* the block's nodes, and those drawn */
    int32_t faces;
    uint64_t on[FACES_MAX];             /* the nodes around each face */
    uint8_t len[FACES_MAX];
    uint8_t cycle[FACES_MAX][DG_GRAPH_NODES_MAX]; /* each face's boundary, in order */
} block;

/* A fragment to draw next: its attachments, its undrawn nodes (0 for an
 * edge between two drawn nodes u and v), the face it goes in and how many fit. */
typedef struct fragment {
    uint64_t attach, inner;
    int32_t u, v;
    int32_t face, fits;
} fragment;

static void draw_edge(block *b, int32_t u, int32_t v)
{
    b->drawn[u] |= BIT(v);
    b->drawn[v] |= BIT(u);
}

static void set_face(block *b, int32_t f, const uint8_t *cycle, int32_t len)
{
    b->on[f] = 0;
    b->len[f] = (uint8_t)len;
    for (int32_t i = 0; i < len; i++)
    {
        b->cycle[f][i] = cycle[i];
        b->on[f] |= BIT(cycle[i]);
    }
}

/* Breadth-first from the nodes of `from` through `within`, the first node
 * (in search order) that has a neighbour in `goal`, or -1; parent[] leads back
 * (-1 at a start). */
static int32_t search(const block *b, uint64_t from, uint64_t within, uint64_t goal,
                      int32_t parent[DG_GRAPH_NODES_MAX])
{
    uint8_t queue[DG_GRAPH_NODES_MAX];
    int32_t head = 0, tail = 0;
    uint64_t seen = from;
    for (uint64_t m = from; m; m &= m - 1)
    {
        queue[tail++] = (uint8_t)dgi_lowest_bit64(m);
        parent[queue[tail - 1]] = -1;
    }
    while (head < tail)
    {
        int32_t x = queue[head++];
        if (b->adj[x] & goal)
            return x;
        for (uint64_t m = b->adj[x] & within & ~seen; m; m &= m - 1)
        {
            int32_t y = dgi_lowest_bit64(m);
            seen |= BIT(y);
            parent[y] = x;
            queue[tail++] = (uint8_t)y;
        }
    }
    return -1;
}

/* The first cycle: an edge u-v and a shortest way back from v to u without it
 * (a block of three or more nodes has one); both faces are that cycle. */
static void first_cycle(block *b)
{
    int32_t u = dgi_lowest_bit64(b->all), v = dgi_lowest_bit64(b->adj[u]);
    int32_t parent[DG_GRAPH_NODES_MAX];
    uint8_t cycle[DG_GRAPH_NODES_MAX];
    /* from v's other neighbours, through the block but u, to a neighbour of u */
    uint64_t within = b->all & ~BIT(u) & ~BIT(v);
    int32_t x = search(b, b->adj[v] & within, within, BIT(u), parent);
    int32_t len = 0;
    cycle[len++] = (uint8_t)u;
    cycle[len++] = (uint8_t)v;
    uint8_t back[DG_GRAPH_NODES_MAX];
    int32_t n = 0;
    for (int32_t y = x; y >= 0; y = parent[y])
        back[n++] = (uint8_t)y;
    while (n > 0)
        cycle[len++] = back[--n];
    for (int32_t i = 0; i < len; i++)
    {
        draw_edge(b, cycle[i], cycle[(i + 1) % len]);
        b->placed |= BIT(cycle[i]);
    }
    set_face(b, 0, cycle, len);
    set_face(b, 1, cycle, len);
    b->faces = 2;
}

/* Counts the faces that hold all of f's attachments, keeping the first. */
static void fit(const block *b, fragment *f, int64_t *work)
{
    f->fits = 0;
    f->face = -1;
    for (int32_t k = 0; k < b->faces; k++)
        if ((f->attach & ~b->on[k]) == 0 && f->fits++ == 0)
            f->face = k;
    *work += b->faces;
}

/* Takes f as the next fragment if it fits one face only, or is the first;
 * 1 when the search can stop (it fits no face, or one). */
static int consider(const block *b, fragment *f, fragment *best, int64_t *work)
{
    fit(b, f, work);
    if (best->fits < 0 || f->fits <= 1)
        *best = *f;
    return f->fits <= 1;
}

/* The next fragment: the undrawn parts of the block with the drawn nodes
 * they touch, then the undrawn edges between drawn nodes; fits -1 if none. */
static fragment next_fragment(const block *b, int64_t *work)
{
    fragment best = {0, 0, -1, -1, -1, -1}, f;
    uint64_t rest = b->all & ~b->placed;
    while (rest)
    {
        f.inner = BIT(dgi_lowest_bit64(rest));
        for (uint64_t grown = 0; grown != f.inner;)
        {
            grown = f.inner;
            for (uint64_t m = grown; m; m &= m - 1)
                f.inner |= b->adj[dgi_lowest_bit64(m)] & rest;
        }
        rest &= ~f.inner;
        f.attach = 0;
        for (uint64_t m = f.inner; m; m &= m - 1)
            f.attach |= b->adj[dgi_lowest_bit64(m)] & b->placed;
        f.u = f.v = -1;
        *work += dgi_popcount64(f.inner);
        if (consider(b, &f, &best, work))
            return best;
    }
    for (uint64_t mu = b->placed; mu; mu &= mu - 1)
    {
        int32_t u = dgi_lowest_bit64(mu);
        uint64_t later = ~(BIT(u) | (BIT(u) - 1));
        for (uint64_t mv = b->adj[u] & b->placed & ~b->drawn[u] & later; mv; mv &= mv - 1)
        {
            f.u = u;
            f.v = dgi_lowest_bit64(mv);
            f.attach = BIT(f.u) | BIT(f.v);
            f.inner = 0;
            if (consider(b, &f, &best, work))
                return best;
        }
    }
    return best;
}

/* A path of fragment f between two of its attachments: path[0] and path[n-1]
 * are drawn, the nodes between are f's. Returns n. */
static int32_t fragment_path(const block *b, const fragment *f, uint8_t *path)
{
    if (!f->inner)
    {
        path[0] = (uint8_t)f->u;
        path[1] = (uint8_t)f->v;
        return 2;
    }
    int32_t a = dgi_lowest_bit64(f->attach);
    uint64_t goal = f->attach & ~BIT(a);
    int32_t parent[DG_GRAPH_NODES_MAX];
    /* a block has no cut node, so from a's side of f another attachment is reached */
    int32_t x = search(b, b->adj[a] & f->inner, f->inner, goal, parent);
    uint8_t back[DG_GRAPH_NODES_MAX];
    int32_t n = 0, len = 0;
    for (int32_t y = x; y >= 0; y = parent[y])
        back[n++] = (uint8_t)y;
    path[len++] = (uint8_t)a;
    while (n > 0)
        path[len++] = back[--n];
    path[len++] = (uint8_t)dgi_lowest_bit64(b->adj[x] & goal);
    return len;
}

static int32_t index_on(const block *b, int32_t face, int32_t node)
{
    int32_t i = 0;
    while (b->cycle[face][i] != node)
        i++;
    return i;
}

/* Draws path[0..n) through face f, which it cuts in two. */
static void draw_path(block *b, int32_t f, const uint8_t *path, int32_t n)
{
    uint8_t one[DG_GRAPH_NODES_MAX], two[DG_GRAPH_NODES_MAX];
    int32_t len = b->len[f], i = index_on(b, f, path[0]), j = index_on(b, f, path[n - 1]);
    int32_t a = 0, c = 0;
    /* one: along the face from path[0] to path[n-1], back along the path */
    for (int32_t k = i;; k = (k + 1) % len)
    {
        one[a++] = b->cycle[f][k];
        if (k == j)
            break;
    }
    for (int32_t k = n - 2; k >= 1; k--)
        one[a++] = path[k];
    /* two: along the face from path[n-1] to path[0], then the path */
    for (int32_t k = j;; k = (k + 1) % len)
    {
        two[c++] = b->cycle[f][k];
        if (k == i)
            break;
    }
    for (int32_t k = 1; k <= n - 2; k++)
        two[c++] = path[k];
    set_face(b, f, one, a);
    set_face(b, b->faces++, two, c);
    for (int32_t k = 0; k + 1 < n; k++)
        draw_edge(b, path[k], path[k + 1]);
    for (int32_t k = 1; k + 1 < n; k++)
        b->placed |= BIT(path[k]);
}

/* 1 if the biconnected block of nodes `all` (edges adj restricted to it) is planar. */
static int block_planar(block *b, const uint64_t *adj, uint64_t all, int64_t *work)
{
    memset(b->drawn, 0, sizeof b->drawn);
    for (int32_t v = 0; v < DG_GRAPH_NODES_MAX; v++)
        b->adj[v] = all & BIT(v) ? adj[v] & all : 0;
    b->all = all;
    b->placed = 0;
    first_cycle(b);
    for (;;)
    {
        fragment f = next_fragment(b, work);
        if (f.fits < 0)
            return 1;
        if (f.fits == 0)
            return 0;
        uint8_t path[DG_GRAPH_NODES_MAX];
        draw_path(b, f.face, path, fragment_path(b, &f, path));
        *work += 1;
    }
}

/* ---- blocks ------------------------------------------------------------------------ */

typedef struct walk {
    const uint64_t *adj;
    int32_t time, top;
    int32_t disc[DG_GRAPH_NODES_MAX], low[DG_GRAPH_NODES_MAX];
    uint8_t stack[DG_GRAPH_NODES_MAX];
    uint64_t bad; /* the nodes of the first block that is not planar, or 0 */
    int64_t *work;
    block b;
} walk;

static void test_block(walk *w, uint64_t nodes)
{
    int32_t edges = 0;
    for (uint64_t m = nodes; m; m &= m - 1)
        edges += dgi_popcount64(w->adj[dgi_lowest_bit64(m)] & nodes);
    edges /= 2;
    /* a subdivided K3,3 has 3 edges more than nodes, a K5 5: fewer is planar */
    if (edges - dgi_popcount64(nodes) >= 3 && !block_planar(&w->b, w->adj, nodes, w->work))
        w->bad = nodes;
}

/* Tarjan's depth-first search for blocks from root (a stack of at most 64
 * nodes), testing each block as it closes; stops at the first that is not planar. */
static void blocks_from(walk *w, int32_t root)
{
    int32_t node[DG_GRAPH_NODES_MAX], parent[DG_GRAPH_NODES_MAX], depth = 0;
    uint64_t left[DG_GRAPH_NODES_MAX];
    node[0] = root, parent[0] = -1, left[0] = w->adj[root];
    w->disc[root] = w->low[root] = ++w->time;
    w->stack[w->top++] = (uint8_t)root;
    while (!w->bad)
    {
        int32_t u = node[depth];
        if (left[depth])
        {
            int32_t v = dgi_lowest_bit64(left[depth]);
            left[depth] &= left[depth] - 1;
            if (!w->disc[v])
            {
                w->disc[v] = w->low[v] = ++w->time;
                w->stack[w->top++] = (uint8_t)v;
                depth++;
                node[depth] = v, parent[depth] = u, left[depth] = w->adj[v];
            }
            else if (v != parent[depth] && w->disc[v] < w->low[u])
                w->low[u] = w->disc[v];
            continue;
        }
        if (--depth < 0) /* u is done; back at its parent p */
            return;
        int32_t p = node[depth];
        if (w->low[u] < w->low[p])
            w->low[p] = w->low[u];
        if (w->low[u] >= w->disc[p])
        {
            uint64_t nodes = BIT(p);
            int32_t x;
            do
                nodes |= BIT(x = w->stack[--w->top]);
            while (x != u);
            test_block(w, nodes);
        }
    }
}

/* The nodes of a block that is not planar, or 0 if the graph is planar. */
static uint64_t bad_block(walk *w, const uint64_t *adj, int32_t nodes, int64_t *work)
{
    memset(w->disc, 0, sizeof w->disc);
    w->adj = adj;
    w->time = w->top = 0;
    w->bad = 0;
    w->work = work;
    for (int32_t v = 0; v < nodes && !w->bad; v++)
        if (!w->disc[v])
            blocks_from(w, v);
    return w->bad;
}

static void adjacency(const dg_graph_edge *edges, int32_t count, uint64_t *adj)
{
    memset(adj, 0, DG_GRAPH_NODES_MAX * sizeof *adj);
    for (int32_t e = 0; e < count; e++)
    {
        adj[edges[e].a] |= BIT(edges[e].b);
        adj[edges[e].b] |= BIT(edges[e].a);
    }
}

int dgi_graph_planar(int32_t nodes, const dg_graph_edge *edges, int32_t edge_count,
                     int64_t *work)
{
    int64_t unused = 0;
    uint64_t adj[DG_GRAPH_NODES_MAX];
    walk w;
    adjacency(edges, edge_count, adj);
    return bad_block(&w, adj, nodes, work ? work : &unused) == 0;
}

/* ---- the witness ------------------------------------------------------------------- */

/* From branch node u along the path that starts with u-v, the branch node it ends at. */
static int32_t path_end(const uint64_t *adj, int32_t u, int32_t v)
{
    while (dgi_popcount64(adj[v]) == 2)
    {
        int32_t next = dgi_lowest_bit64(adj[v] & ~BIT(u));
        u = v;
        v = next;
    }
    return v;
}

/* The branch nodes of a subdivided K5 or K3,3 (adj, an edge-minimal graph
 * that is not planar): K5 in index order; K3,3 the side of the first node,
 * then the other, each in index order. */
static void branches(const uint64_t *adj, dgi_planar_witness *out)
{
    uint64_t branch = 0, far = 0;
    for (int32_t v = 0; v < DG_GRAPH_NODES_MAX; v++)
        if (dgi_popcount64(adj[v]) >= 3)
            branch |= BIT(v);
    out->branches = dgi_popcount64(branch);
    if (out->branches == 6)
        for (uint64_t m = adj[dgi_lowest_bit64(branch)]; m; m &= m - 1)
            far |= BIT(path_end(adj, dgi_lowest_bit64(branch), dgi_lowest_bit64(m)));
    int32_t n = 0;
    for (uint64_t m = branch & ~far; m && n < 6; m &= m - 1)
        out->branch[n++] = dgi_lowest_bit64(m);
    for (uint64_t m = far; m && n < 6; m &= m - 1)
        out->branch[n++] = dgi_lowest_bit64(m);
}

void dgi_graph_nonplanar_witness(int32_t nodes, const dg_graph_edge *edges, int32_t edge_count,
                                 dgi_planar_witness *out, int64_t *work)
{
    int64_t unused = 0;
    work = work ? work : &unused;
    uint64_t adj[DG_GRAPH_NODES_MAX];
    walk w;
    memset(out, 0, sizeof *out);
    /* the shortest run of edges from the first that is not planar: its last
     * edge lies in every part of it that is not planar */
    int32_t lo = 0, hi = edge_count;
    while (hi - lo > 1)
    {
        int32_t mid = lo + (hi - lo) / 2;
        adjacency(edges, mid, adj);
        if (bad_block(&w, adj, nodes, work))
            hi = mid;
        else
            lo = mid;
    }
    out->edge = hi - 1;
    adjacency(edges, hi, adj);
    uint64_t keep = bad_block(&w, adj, nodes, work);
    for (int32_t v = 0; v < DG_GRAPH_NODES_MAX; v++)
        adj[v] = keep & BIT(v) ? adj[v] & keep : 0;
    /* drop, in order, every edge the rest stays non-planar without */
    for (int32_t e = 0; e < out->edge; e++)
    {
        int32_t a = edges[e].a, b = edges[e].b;
        if (!(adj[a] & BIT(b)))
            continue;
        adj[a] &= ~BIT(b);
        adj[b] &= ~BIT(a);
        if (!bad_block(&w, adj, nodes, work))
        {
            adj[a] |= BIT(b);
            adj[b] |= BIT(a);
        }
    }
    branches(adj, out);
}
