/* Random connected planar level graphs of 2 to 64 rooms, by family: trees
 * (with a lock whose key lies on the start's side), trees with chords,
 * subgraphs of a grid, outerplanar polygons with non-crossing chords, and
 * wheels (a hub of degree up to 8). Each is drawn from its own seed with a
 * small local generator, so the test graphs do not move when the library's
 * rng does. Doors and corridors are mixed; the grid grows with the count. */
#ifndef DG_GRAPH_FAMILIES_H
#define DG_GRAPH_FAMILIES_H

#include "graph_samples.h"

typedef struct family_rng { uint64_t s; } family_rng;

static inline uint32_t family_next(family_rng *r, uint32_t n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((r->s >> 33) % n);
}

/* n rooms n0..n(n-1), n0 the start and the last the exit, on a grid that
 * grows with n (the sizes of sample_sized). */
static inline void family_rooms(sample_graph *s, int32_t n, int32_t distance)
{
    sample_begin(s, 60 + 2 * n, 40 + n, distance);
    for (int32_t i = 0; i < n; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "n%d", (int)i);
        sample_node(s, name, i == 0 ? "start" : i == n - 1 && n > 1 ? "exit" : "", 3, 6);
    }
}

/* One in three edges a door, the rest corridors of 2..8 cells. */
static inline dg_graph_edge *family_edge(sample_graph *s, family_rng *r, int32_t a, int32_t b)
{
    int door = family_next(r, 3) == 0;
    return sample_edge(s, a, b, door ? DG_EDGE_DOOR : DG_EDGE_CORRIDOR, 2, 8);
}

static inline int family_has_edge(const sample_graph *s, int32_t a, int32_t b)
{
    for (int32_t e = 0; e < s->g.edge_count; e++)
        if ((s->edges[e].a == a && s->edges[e].b == b) || (s->edges[e].a == b && s->edges[e].b == a))
            return 1;
    return 0;
}

static inline int32_t family_degree(const sample_graph *s, int32_t v)
{
    int32_t d = 0;
    for (int32_t e = 0; e < s->g.edge_count; e++)
        d += (s->edges[e].a == v) + (s->edges[e].b == v);
    return d;
}

/* A random tree (each room hangs on an earlier one of degree under 4), and
 * one tree edge locked with its key in a room on the start's side. */
static inline void family_tree(sample_graph *s, int32_t n, int32_t distance, uint64_t seed)
{
    family_rng r = {seed};
    int32_t parent[DG_GRAPH_NODES_MAX];
    family_rooms(s, n, distance);
    parent[0] = -1;
    for (int32_t i = 1; i < n; i++)
    {
        int32_t p = (int32_t)family_next(&r, (uint32_t)i);
        while (family_degree(s, p) >= 4)
            p = (p + 1) % i;
        parent[i] = p;
        family_edge(s, &r, p, i);
    }
    if (n < 3)
        return;
    /* lock the edge into room c; the key lies in a room not below c */
    int32_t c = 1 + (int32_t)family_next(&r, (uint32_t)(n - 1)), key = -1;
    for (int32_t k = (int32_t)family_next(&r, (uint32_t)n), tries = 0; tries < n && key < 0; tries++)
    {
        int32_t v = (k + tries) % n, below = 0;
        for (int32_t u = v; u >= 0 && !below; u = parent[u])
            below = u == c;
        if (!below)
            key = v;
    }
    sample_lock(&s->edges[c - 1], 1, key);
}

/* A random tree (no room past degree 8) plus up to n/8 + 1 chords, each
 * kept only if dg_graph_check still passes the graph (planar, no room with
 * more doors than its sides hold) and no room passes degree 6. */
static inline void family_chords(sample_graph *s, int32_t n, int32_t distance, uint64_t seed)
{
    family_rng r = {seed};
    family_rooms(s, n, distance);
    for (int32_t i = 1; i < n; i++)
    {
        int32_t p = (int32_t)family_next(&r, (uint32_t)i);
        while (family_degree(s, p) >= DG_GRAPH_DEGREE_MAX) /* a valid graph: degree 8 at most */
            p = (p + 1) % i;
        family_edge(s, &r, p, i);
    }
    for (int32_t k = 0; k < n / 8 + 1 && n > 3; k++)
    {
        int32_t a = (int32_t)family_next(&r, (uint32_t)n), b = (int32_t)family_next(&r, (uint32_t)n);
        if (a == b || family_has_edge(s, a, b) || family_degree(s, a) >= 6 ||
            family_degree(s, b) >= 6)
            continue;
        family_edge(s, &r, a, b);
        if (dg_graph_check(&s->g, NULL) != DG_OK)
            s->g.edge_count--;
    }
}

/* The rooms of a cols x rows grid (n of them, row by row): a random spanning
 * tree of the grid's edges, then about a third of the grid edges left over. */
static inline void family_grid(sample_graph *s, int32_t n, int32_t distance, uint64_t seed)
{
    family_rng r = {seed};
    int32_t cols = 1;
    while (cols * cols < n)
        cols++;
    family_rooms(s, n, distance);
    /* grow a tree from room 0 through grid neighbours in random order */
    int8_t in[DG_GRAPH_NODES_MAX] = {1};
    for (int32_t added = 1; added < n;)
    {
        int32_t v = (int32_t)family_next(&r, (uint32_t)n), dir = (int32_t)family_next(&r, 4);
        int32_t x = v % cols, y = v / cols;
        int32_t u = dir == 0 ? v - cols : dir == 1 ? v + cols : dir == 2 && x > 0 ? v - 1
                  : dir == 3 && x + 1 < cols ? v + 1 : -1;
        (void)y;
        if (u < 0 || u >= n || in[v] == in[u])
            continue;
        family_edge(s, &r, v, u);
        in[v] = in[u] = 1;
        added++;
    }
    for (int32_t v = 0; v < n; v++)
    {
        int32_t right = v % cols + 1 < cols && v + 1 < n ? v + 1 : -1;
        int32_t down = v + cols < n ? v + cols : -1;
        if (right >= 0 && !family_has_edge(s, v, right) && family_next(&r, 3) == 0)
            family_edge(s, &r, v, right);
        if (down >= 0 && !family_has_edge(s, v, down) && family_next(&r, 3) == 0)
            family_edge(s, &r, v, down);
    }
}

/* A polygon of n rooms with up to n/6 + 1 chords that do not cross (each
 * chord a..b keeps every other chord inside or outside of it). */
static inline void family_polygon(sample_graph *s, int32_t n, int32_t distance, uint64_t seed)
{
    family_rng r = {seed};
    family_rooms(s, n, distance);
    for (int32_t i = 1; i < n; i++)
        family_edge(s, &r, i - 1, i);
    if (n > 2)
        family_edge(s, &r, n - 1, 0);
    int32_t ring = s->g.edge_count;
    for (int32_t k = 0; k < n / 6 + 1 && n > 4; k++)
    {
        int32_t a = (int32_t)family_next(&r, (uint32_t)n), b = (int32_t)family_next(&r, (uint32_t)n);
        if (a > b)
        {
            int32_t t = a;
            a = b, b = t;
        }
        int ok = b - a >= 2 && b - a <= n - 2 && !family_has_edge(s, a, b) &&
                 family_degree(s, a) < 5 && family_degree(s, b) < 5;
        for (int32_t e = ring; e < s->g.edge_count && ok; e++)
        {
            int32_t c = s->edges[e].a, d = s->edges[e].b;
            int cin = c > a && c < b, din = d > a && d < b;
            int cout = c < a || c > b, dout = d < a || d > b;
            ok = !((cin && dout) || (din && cout));
        }
        if (ok)
            family_edge(s, &r, a, b);
    }
}

/* A hub joined to every room of a rim of n - 1 (a cycle from 3 rooms on):
 * the hub's degree is n - 1, so n is at most 9. The hub is larger. */
static inline void family_wheel(sample_graph *s, int32_t n, int32_t distance, uint64_t seed)
{
    family_rng r = {seed};
    family_rooms(s, n, distance);
    s->nodes[0].width_min = s->nodes[0].height_min = 6;
    s->nodes[0].width_max = s->nodes[0].height_max = 9;
    for (int32_t i = 1; i < n; i++)
        family_edge(s, &r, 0, i);
    for (int32_t i = 1; i + 1 < n; i++)
        family_edge(s, &r, i, i + 1);
    if (n > 3)
        family_edge(s, &r, n - 1, 1);
    if (dg_graph_check(&s->g, NULL) != DG_OK) /* a wheel of three, all doors: a K4 of doors */
    {
        s->g.edge_count--;
        sample_edge(s, n - 1, 1, DG_EDGE_CORRIDOR, 2, 8);
    }
}

typedef void (*family_fn)(sample_graph *s, int32_t n, int32_t distance, uint64_t seed);
typedef struct family_entry
{
    const char *name;
    family_fn make;
    int32_t max_rooms;
} family_entry;

/* The seed that draws graph `graph` (0, 1, 2, ...) of n rooms of family f.
 * The families test, the tests that pick one family graph and `bench graph
 * families` all name graphs this way ("chords, 17 rooms, graph 1"). */
static inline uint64_t family_graph_seed(size_t f, int32_t n, int32_t graph)
{
    return (uint64_t)(f * 1000003u + (size_t)n * 1009u + (size_t)graph * 7u + 1u);
}

static const family_entry graph_families[] = {
    {"tree", family_tree, 64},       {"chords", family_chords, 64},
    {"grid", family_grid, 64},       {"polygon", family_polygon, 64},
    {"wheel", family_wheel, 9},
};
#define GRAPH_FAMILIES (sizeof graph_families / sizeof graph_families[0])

#endif
