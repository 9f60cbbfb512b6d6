/* The level graphs the layout tests and benchmarks share, built in C: a
 * path, a hub, a cycle, a lock-and-key loop, a Zelda-like dungeon with three
 * locks, a 40-room graph with four cycles, two triangles of doors, graphs
 * of n rooms, and K5 and K3,3 (not planar). */
#ifndef DG_GRAPH_SAMPLES_H
#define DG_GRAPH_SAMPLES_H

#include "dungeon.h"

#include <stdio.h>
#include <string.h>

typedef struct sample_graph {
    dg_graph g;
    dg_graph_node nodes[DG_GRAPH_NODES_MAX];
    dg_graph_edge edges[DG_GRAPH_EDGES_MAX];
    int32_t width, height; /* a grid it fits */
} sample_graph;

static inline int32_t sample_node(sample_graph *s, const char *name, const char *role, int32_t lo,
                           int32_t hi)
{
    int32_t i = s->g.node_count++;
    dg_graph_node *n = &s->nodes[i];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    snprintf(n->role, sizeof n->role, "%s", role);
    n->width_min = n->height_min = lo;
    n->width_max = n->height_max = hi;
    return i;
}

/* kind DG_EDGE_DOOR (length ignored) or DG_EDGE_CORRIDOR of lo..hi cells. */
static inline dg_graph_edge *sample_edge(sample_graph *s, int32_t a, int32_t b, int32_t kind, int32_t lo,
                                  int32_t hi)
{
    dg_graph_edge *e = &s->edges[s->g.edge_count++];
    memset(e, 0, sizeof *e);
    e->a = a, e->b = b, e->kind = kind;
    e->length_min = kind == DG_EDGE_CORRIDOR ? lo : 0;
    e->length_max = kind == DG_EDGE_CORRIDOR ? hi : 0;
    e->key_node = -1;
    return e;
}

static inline void sample_lock(dg_graph_edge *e, int32_t lock, int32_t key_node)
{
    e->lock = lock;
    e->key_node = key_node;
}

static inline void sample_begin(sample_graph *s, int32_t w, int32_t h, int32_t distance)
{
    memset(s, 0, sizeof *s);
    dg_graph_init(&s->g);
    s->g.nodes = s->nodes;
    s->g.edges = s->edges;
    s->g.room_distance = distance;
    s->width = w, s->height = h;
}

#define D DG_EDGE_DOOR
#define C DG_EDGE_CORRIDOR

static inline void sample_path(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t prev = sample_node(s, "entrance", "start", 4, 7);
    for (int32_t i = 1; i < 7; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "room%d", (int)i);
        int32_t n = sample_node(s, name, i == 6 ? "exit" : "", 4, 7);
        sample_edge(s, prev, n, i % 2 ? C : D, 2, 6);
        prev = n;
    }
}

static inline void sample_hub(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t hub = sample_node(s, "hub", "hub", 7, 10);
    int32_t start = sample_node(s, "gate", "start", 4, 6);
    sample_edge(s, start, hub, C, 2, 5);
    for (int32_t i = 0; i < 6; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "wing%d", (int)i);
        int32_t n = sample_node(s, name, i == 5 ? "exit" : "", 3, 6);
        sample_edge(s, hub, n, i % 3 == 0 ? D : C, 2, 6);
    }
}

static inline void sample_cycle(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t first = sample_node(s, "start", "start", 4, 7), prev = first;
    for (int32_t i = 1; i < 6; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "ring%d", (int)i);
        int32_t n = sample_node(s, name, i == 3 ? "exit" : "", 4, 7);
        sample_edge(s, prev, n, i % 2 ? C : D, 2, 8);
        prev = n;
    }
    sample_edge(s, prev, first, C, 2, 12);
}

static inline void sample_lock_loop(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t st = sample_node(s, "start", "start", 4, 6);
    int32_t hall = sample_node(s, "hall", "hub", 6, 9);
    int32_t west = sample_node(s, "west", "", 4, 6);
    int32_t east = sample_node(s, "east", "", 4, 6);
    int32_t crypt = sample_node(s, "crypt", "key", 3, 5);
    int32_t vault = sample_node(s, "vault", "treasure", 4, 6);
    int32_t exit = sample_node(s, "stairs", "exit", 3, 5);
    sample_edge(s, st, hall, C, 2, 6);
    sample_edge(s, hall, west, D, 0, 0);
    sample_edge(s, hall, east, C, 2, 6);
    sample_edge(s, west, crypt, C, 2, 8);
    sample_edge(s, east, crypt, C, 2, 12);
    sample_lock(sample_edge(s, hall, vault, D, 0, 0), 1, crypt);
    sample_edge(s, vault, exit, C, 2, 5);
}

static inline void sample_zelda(sample_graph *s, int32_t distance)
{
    sample_begin(s, 100, 64, distance);
    int32_t ent = sample_node(s, "entrance", "start", 4, 6);
    int32_t hub = sample_node(s, "hub", "hub", 6, 9);
    int32_t a = sample_node(s, "bats", "", 4, 7);
    int32_t b = sample_node(s, "keese", "", 4, 7);
    int32_t k1 = sample_node(s, "chest1", "key", 3, 5);
    int32_t c = sample_node(s, "water", "", 5, 8);
    int32_t d = sample_node(s, "bridge", "", 4, 6);
    int32_t k2 = sample_node(s, "chest2", "key", 3, 5);
    int32_t e = sample_node(s, "statues", "", 4, 7);
    int32_t f = sample_node(s, "moat", "", 4, 7);
    int32_t k3 = sample_node(s, "chest3", "key", 3, 5);
    int32_t shop = sample_node(s, "shop", "shop", 3, 5);
    int32_t mini = sample_node(s, "miniboss", "", 5, 8);
    int32_t boss = sample_node(s, "boss", "boss", 6, 9);
    int32_t prize = sample_node(s, "triforce", "exit", 3, 4);
    int32_t secret = sample_node(s, "cellar", "secret", 3, 4);
    sample_edge(s, ent, hub, C, 2, 5);
    sample_edge(s, hub, a, D, 0, 0);
    sample_edge(s, hub, b, C, 2, 6);
    sample_edge(s, a, k1, C, 2, 6);
    sample_edge(s, b, k1, C, 2, 12);          /* a loop through the first key */
    sample_lock(sample_edge(s, hub, c, C, 2, 6), 1, k1);
    sample_edge(s, c, d, D, 0, 0);
    sample_edge(s, d, k2, C, 2, 6);
    sample_edge(s, c, shop, C, 2, 5);
    sample_lock(sample_edge(s, d, e, C, 2, 6), 2, k2);
    sample_edge(s, e, f, D, 0, 0);
    sample_edge(s, f, k3, C, 2, 6);
    sample_edge(s, e, k3, C, 2, 12);          /* a second loop */
    sample_lock(sample_edge(s, f, mini, C, 2, 6), 3, k3);
    sample_edge(s, mini, boss, D, 0, 0);
    sample_edge(s, boss, prize, D, 0, 0);
    sample_edge(s, ent, secret, C, 2, 5)->secret = 1;
}

/* Four cycles of five to seven rooms hung on a spine with branches. */
static inline void sample_forty(sample_graph *s, int32_t distance)
{
    sample_begin(s, 140, 100, distance);
    int32_t ids[40];
    for (int32_t i = 0; i < 40; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "r%d", (int)i);
        ids[i] = sample_node(s, name, i == 0 ? "start" : i == 39 ? "exit" : "", 3, 6);
    }
    /* a tree: node i hangs on node parent(i) */
    static const int8_t parent[40] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8,  9, 10, 11, 12, 13, 14,
                                      15, 16, 17, 18, 2, 20, 21, 6, 23, 24, 10, 26, 27, 14,
                                      29, 30, 18, 32, 33, 4, 35, 12, 37, 19};
    for (int32_t i = 1; i < 40; i++)
        sample_edge(s, ids[parent[i]], ids[i], i % 3 == 0 ? D : C, 2, 6);
    /* four chords close cycles */
    sample_edge(s, ids[22], ids[5], C, 2, 12);
    sample_edge(s, ids[25], ids[9], C, 2, 12);
    sample_edge(s, ids[28], ids[13], C, 2, 12);
    sample_edge(s, ids[31], ids[17], C, 2, 12);
}

/* Two triangles of rooms joined by doors only, sharing an edge: the third
 * room of each must touch both others (a T of walls). */
static inline void sample_triangles(sample_graph *s, int32_t distance)
{
    sample_begin(s, 60, 40, distance);
    int32_t a = sample_node(s, "hall", "start", 4, 7), b = sample_node(s, "nave", "", 4, 7);
    int32_t c = sample_node(s, "apse", "", 4, 7), d = sample_node(s, "crypt", "exit", 4, 7);
    sample_edge(s, a, b, D, 0, 0);
    sample_edge(s, b, c, D, 0, 0);
    sample_edge(s, c, a, D, 0, 0);
    sample_edge(s, c, d, D, 0, 0);
    sample_edge(s, d, a, D, 0, 0);
}

/* n rooms: a spine with a branch every fourth room and a chord back five
 * rooms from every tenth (a cycle of about six), on a grid that grows with n. */
static inline void sample_sized(sample_graph *s, int32_t n, int32_t distance)
{
    sample_begin(s, 60 + 2 * n, 40 + n, distance);
    for (int32_t i = 0; i < n; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "n%d", (int)i);
        sample_node(s, name, i == 0 ? "start" : "", 3, 6);
        if (i > 0)
            sample_edge(s, i % 4 == 0 ? i - 3 : i - 1, i, i % 3 == 0 ? D : C, 2, 6);
        if (i % 10 == 9)
            sample_edge(s, i, i - 5, C, 2, 12);
    }
}

/* Room templates for the template samples: a four-door hall, a corner room,
 * a long room with off-centre doors, and a one-door shrine with void corners. */
static const char sample_prefab_text[] =
    "prefabs 1\n"
    "legend\n  o wall pillar tile obstacle\n  $ marker gold kind item\nend\n"
    "prefab cross4\n  tags room\nmap\n"
    "###+###\n#.....#\n#.o.o.#\n+.....+\n#.o.o.#\n#.....#\n###+###\nend\n"
    "prefab bend\n  tags room\nmap\n"
    "##+###\n#....#\n#.o..+\n#....#\n######\nend\n"
    "prefab long\n  tags room\nmap\n"
    "#+#######\n#.......#\n#..o.o..#\n#......$+\n#########\nend\n"
    "prefab shrine\n  tags room\nmap\n"
    "_###_\n##.##\n#...#\n##+##\nend\n";

/* The set, parsed once and kept for the run (NULL if the text fails to parse). */
static inline const dg_prefab_set *sample_prefabs(void)
{
    static dg_prefab_set *set;
    if (!set)
        dg_prefab_parse(sample_prefab_text, sizeof sample_prefab_text - 1, "samples", NULL, NULL,
                        NULL, &set, NULL);
    return set;
}

static inline int32_t sample_template(sample_graph *s, const char *name, const char *role,
                                      const char *templates)
{
    int32_t i = sample_node(s, name, role, 0, 0);
    s->nodes[i].width_min = s->nodes[i].width_max = 0;
    s->nodes[i].height_min = s->nodes[i].height_max = 0;
    snprintf(s->nodes[i].templates, sizeof s->nodes[i].templates, "%s", templates);
    s->g.prefabs = sample_prefabs();
    return i;
}

/* Rectangles and templates mixed: a start room, a four-door hub closing a
 * cycle through a corner room and a long room, a locked corridor to a yard
 * whose key lies in the corner room, a shrine and an exit off the yard. */
static inline void sample_mixed(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t gate = sample_node(s, "gate", "start", 4, 6);
    int32_t hub = sample_template(s, "hub", "hub", "cross4");
    int32_t east = sample_template(s, "east", "key", "bend");
    int32_t north = sample_template(s, "north", "", "long");
    int32_t yard = sample_node(s, "yard", "", 5, 8);
    int32_t shrine = sample_template(s, "shrine", "treasure", "shrine");
    int32_t stair = sample_node(s, "stair", "exit", 4, 5);
    sample_edge(s, gate, hub, C, 2, 5);
    sample_edge(s, hub, east, D, 0, 0);
    sample_edge(s, hub, north, C, 2, 6);
    sample_edge(s, east, north, C, 2, 12);
    sample_lock(sample_edge(s, hub, yard, C, 2, 5), 1, east);
    sample_edge(s, yard, shrine, D, 0, 0);
    sample_edge(s, yard, stair, C, 2, 4);
}

/* Templates only, any prefab tagged room with doors enough: a cycle of
 * four with two doors between templates, and a shrine off it. */
static inline void sample_prefab_rooms(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    int32_t a = sample_template(s, "a", "start", "room");
    int32_t b = sample_template(s, "b", "", "room");
    int32_t c = sample_template(s, "c", "", "room");
    int32_t d = sample_template(s, "d", "exit", "room");
    int32_t e = sample_template(s, "e", "treasure", "room");
    sample_edge(s, a, b, D, 0, 0);
    sample_edge(s, b, c, C, 2, 6);
    sample_edge(s, c, d, D, 0, 0);
    sample_edge(s, d, a, C, 2, 6);
    sample_edge(s, c, e, C, 1, 4);
}

static inline void sample_k5(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    for (int32_t i = 0; i < 5; i++)
    {
        char name[16];
        snprintf(name, sizeof name, "k%d", (int)i);
        sample_node(s, name, "", 3, 5);
    }
    for (int32_t i = 0; i < 5; i++)
        for (int32_t j = i + 1; j < 5; j++)
            sample_edge(s, i, j, C, 1, 12);
}

static inline void sample_k33(sample_graph *s, int32_t distance)
{
    sample_begin(s, 80, 50, distance);
    for (int32_t i = 0; i < 6; i++)
    {
        char name[8];
        snprintf(name, sizeof name, "%c%d", i < 3 ? 'u' : 'v', (int)(i % 3));
        sample_node(s, name, "", 3, 5);
    }
    for (int32_t i = 0; i < 3; i++)
        for (int32_t j = 3; j < 6; j++)
            sample_edge(s, i, j, C, 1, 12);
}

#undef D
#undef C

typedef void (*sample_fn)(sample_graph *s, int32_t distance);
typedef struct sample_entry { const char *name; sample_fn make; } sample_entry;
static const sample_entry sample_graphs[] = {
    {"path", sample_path},   {"hub", sample_hub},     {"cycle", sample_cycle},
    {"lockloop", sample_lock_loop}, {"zelda", sample_zelda}, {"forty", sample_forty},
    {"triangles", sample_triangles}, {"mixed", sample_mixed}, {"prefab_rooms", sample_prefab_rooms},
};
#define SAMPLE_GRAPHS (sizeof sample_graphs / sizeof sample_graphs[0])

#endif
