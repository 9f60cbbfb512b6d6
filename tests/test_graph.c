/* Level graphs as data (docs/graph-format.md): the text format's round trips
 * and every error's place, dg_graph_check's refusals, the hash, the examples. */
#define _POSIX_C_SOURCE 200809L
#define FUZZ_GRAPH_NO_ENTRY
#include "fuzz/fuzz_graph.c" /* graph_write, same_graph, graph_empty, the fuzz checks */
#include "graph/graph.h" /* dgi_graph_planar, the witness and their work bounds */
#include "export/export.h" /* dgi_room_shape_name */

#include <dirent.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#endif

#define EXAMPLES "examples/graphs/"

static dg_status parse_str(const char *text, dg_graph *g, dg_diag *d)
{
    return dg_graph_parse(text, strlen(text), "t.txt", NULL, g, d);
}

/* ---- a graph built in C ------------------------------------------------------------- */

typedef struct built {
    dg_graph g;
    dg_graph_node nodes[8];
    dg_graph_edge edges[8];
} built;

static void node_rect(dg_graph_node *n, const char *name, const char *role, int w0, int w1,
                      int h0, int h1)
{
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    snprintf(n->role, sizeof n->role, "%s", role);
    n->width_min = w0;
    n->width_max = w1;
    n->height_min = h0;
    n->height_max = h1;
}

static void edge_make(dg_graph_edge *x, int a, int b, int kind, int l0, int l1)
{
    memset(x, 0, sizeof *x);
    x->a = a;
    x->b = b;
    x->kind = kind;
    x->length_min = l0;
    x->length_max = l1;
    x->key_node = -1;
}

/* start - hall - key, hall - loot (locked, key in `key`), hall - side - loot (a loop),
 * side - hide (secret). */
static void build(built *b)
{
    dg_graph_init(&b->g);
    b->g.nodes = b->nodes;
    b->g.edges = b->edges;
    b->g.node_count = 6;
    b->g.edge_count = 6;
    b->g.room_distance = 2;
    b->g.corridor_width = 2;
    node_rect(&b->nodes[0], "start", "start", 4, 6, 4, 5);
    node_rect(&b->nodes[1], "hall", "hub", 8, 12, 6, 9);
    node_rect(&b->nodes[2], "key_room", "key", 3, 4, 3, 4);
    node_rect(&b->nodes[3], "loot", "treasure", 5, 5, 4, 4);
    node_rect(&b->nodes[4], "side", "", 5, 7, 5, 7);
    node_rect(&b->nodes[5], "hide.1", "secret", 3, 3, 3, 3);
    edge_make(&b->edges[0], 0, 1, DG_EDGE_CORRIDOR, 2, 6);
    edge_make(&b->edges[1], 1, 2, DG_EDGE_DOOR, 0, 0);
    edge_make(&b->edges[2], 1, 3, DG_EDGE_CORRIDOR, 1, 1);
    b->edges[2].lock = 1;
    b->edges[2].key_node = 2;
    edge_make(&b->edges[3], 1, 4, DG_EDGE_DOOR, 0, 0);
    edge_make(&b->edges[4], 4, 3, DG_EDGE_CORRIDOR, 3, 9);
    b->edges[4].lock = 1;
    b->edges[4].key_node = 2;
    edge_make(&b->edges[5], 4, 5, DG_EDGE_DOOR, 0, 0);
    b->edges[5].secret = 1;
}

TEST(graph_built_in_c_checks_and_round_trips)
{
    built b;
    build(&b);
    dg_diag d;
    CHECKF(dg_graph_check(&b.g, &d) == DG_OK, "%s", d.message);
    static char text[8192];
    size_t n = graph_write(&b.g, text, sizeof text);
    CHECK(n < sizeof text);
    dg_graph p;
    CHECKF(dg_graph_parse(text, n, "w", NULL, &p, &d) == DG_OK, "%s", d.message);
    CHECK(same_graph(&b.g, &p));
    CHECK_EQ_U64(dg_graph_hash(&p), dg_graph_hash(&b.g));
    CHECK(p.prefabs == NULL);
    dg_graph_free(&p);
    CHECK(graph_empty(&p));
    /* a graph whose arrays are the caller's is only emptied */
    dg_graph_free(&b.g);
    CHECK(graph_empty(&b.g));
    CHECK(strcmp(b.nodes[1].name, "hall") == 0);
}

/* ---- the examples ----------------------------------------------------------------------- */

static const struct {
    const char *file;
    int32_t nodes, cycles, locks;
} examples[] = {
    {"linear.txt", 6, 0, 0},  {"hub.txt", 10, 0, 0},     {"loop_lock.txt", 6, 1, 1},
    {"zelda.txt", 14, 1, 3},  {"big.txt", 40, 4, 2},      {"templates.txt", 8, 1, 1},
};

static int32_t count_role(const dg_graph *g, const char *role)
{
    int32_t k = 0;
    for (int32_t i = 0; i < g->node_count; i++)
        k += strcmp(g->nodes[i].role, role) == 0;
    return k;
}

TEST(graph_examples_parse_and_check)
{
    uint64_t fold = 0;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
    {
        char path[128];
        snprintf(path, sizeof path, EXAMPLES "%s", examples[i].file);
        hard_alloc h;
        hard_alloc_init(&h, 0);
        dg_graph g;
        dg_diag d;
        dg_status st = dg_graph_load(path, &h.hooks, &g, &d);
        CHECKF(st == DG_OK, "%s: %s", path, d.message);
        if (st != DG_OK)
            continue;
        CHECKF(dg_graph_check(&g, &d) == DG_OK, "%s: %s", path, d.message);
        CHECKF(g.node_count == examples[i].nodes, "%s: %d nodes", path, (int)g.node_count);
        CHECKF(g.edge_count - g.node_count + 1 == examples[i].cycles, "%s: %d edges", path,
               (int)g.edge_count);
        int32_t locks = 0;
        for (int32_t e = 0; e < g.edge_count; e++)
            locks = g.edges[e].lock > locks ? g.edges[e].lock : locks;
        CHECKF(locks == examples[i].locks, "%s: %d locks", path, (int)locks);
        CHECKF(count_role(&g, "start") == 1 && count_role(&g, "exit") == 1, "%s: roles", path);
        /* templates.txt alone names a prefab file, which dg_graph_load reads */
        CHECK((g.prefabs != NULL) == (strcmp(examples[i].file, "templates.txt") == 0));
        /* every example survives the writer and parser unchanged */
        static char text[1 << 15];
        size_t n = graph_write(&g, text, sizeof text);
        dg_graph again;
        if (g.prefabs == NULL)
        {
            CHECKF(dg_graph_parse(text, n, "w", NULL, &again, &d) == DG_OK, "%s", d.message);
            CHECK(same_graph(&g, &again));
            CHECK_EQ_U64(dg_graph_hash(&again), dg_graph_hash(&g));
            dg_graph_free(&again);
        }
        if (g.prefabs == NULL)
            fold = dg_hash_combine(fold, dg_graph_hash(&g));
        dg_graph_free(&g);
        CHECKF(hard_alloc_clean(&h), "%s: a block leaked or was freed with the wrong size", path);
    }
    /* the examples' identities (an edit of an example moves this pin) */
    CHECK_EQ_U64(fold, 0x238f1e2c82ed3517ULL);
}

TEST(graph_templates_need_a_set)
{
    /* dg_graph_parse leaves templates unresolved; the caller attaches a set */
    const char *text = "graph 1\nnode a size=4x4\nnode v templates=treasury\nedge a v\n";
    dg_graph g;
    dg_diag d;
    CHECKF(parse_str(text, &g, &d) == DG_OK, "%s", d.message);
    CHECK(dg_graph_check(&g, &d) == DG_E_INVALID && strstr(d.message, "no prefabs"));
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_load("examples/prefabs/vaults.txt", NULL, NULL, NULL, &set, &d) == DG_OK);
    uint64_t before = dg_graph_hash(&g);
    g.prefabs = set;
    CHECKF(dg_graph_check(&g, &d) == DG_OK, "%s", d.message);
    CHECK(dg_graph_hash(&g) != before); /* the set is part of the identity */
    snprintf(g.nodes[1].templates, DG_NAME_MAX, "nothing_such");
    CHECK(dg_graph_check(&g, &d) == DG_E_INVALID && strstr(d.message, "node v: no prefab"));
    dg_graph_free(&g); /* the set stays the caller's */
    CHECK(dg_prefab_count(set) > 0);
    dg_prefab_set_free(set);
}

/* ---- errors -------------------------------------------------------------------------------- */

static const struct {
    const char *text;
    dg_status status;
    int32_t line, col;
    const char *message;
} parse_errors[] = {
    {"", DG_E_PARSE, 1, 1, "expected 'graph 1'"},
    {"# only a comment\n", DG_E_PARSE, 1, 1, "expected 'graph 1'"},
    {"node a size=3x3\n", DG_E_PARSE, 1, 1, "expected 'graph 1'"},
    {"graph 2\n", DG_E_PARSE, 1, 7, "unsupported format version"},
    {"graph\n", DG_E_PARSE, 1, 6, "unsupported format version"},
    {"graph 1\n", DG_E_PARSE, 2, 1, "no nodes"},
    {"graph 1\ngraph 1\n", DG_E_PARSE, 2, 1, "'graph' header repeated"},
    {"graph 1\nroom a\n", DG_E_PARSE, 2, 1, "unknown keyword 'room'"},
    {"graph 1\nnode a\tsize=3x3 \x01\n", DG_E_PARSE, 2, 17, "control byte 0x01"},
    {"graph 1\nnode \xC3\xA9 size=3x3\n", DG_E_PARSE, 2, 6, "non-ASCII byte 0xC3"},
    {"graph 1\nnode a b c d e f g h i j k l m n o p q\n", DG_E_PARSE, 2, 36, "more than 16 words"},
    {"graph 1\nlevel room_distance=5\n", DG_E_PARSE, 2, 21, "room_distance must be a number from 0 to 4"},
    {"graph 1\nlevel corridor_width=99999999999\n", DG_E_PARSE, 2, 22, "got '99999999999'"},
    {"graph 1\nlevel extra_connections=2\n", DG_E_PARSE, 2, 25, "extra_connections"},
    {"graph 1\nlevel room_distance=1 room_distance=2\n", DG_E_PARSE, 2, 23, "'room_distance' given twice"},
    {"graph 1\nlevel\nlevel\n", DG_E_PARSE, 3, 1, "'level' given twice (first at line 2)"},
    {"graph 1\nlevel width=3\n", DG_E_PARSE, 2, 7, "unknown level key 'width'"},
    {"graph 1\nlevel room_distance\n", DG_E_PARSE, 2, 7, "expected KEY=VALUE"},
    {"graph 1\nlevel room_distance=\n", DG_E_PARSE, 2, 7, "expected KEY=VALUE"},
    {"graph 1\nprefabs x.txt\n", DG_E_PARSE, 2, 1, "only dg_graph_load reads"},
    {"graph 1\nnode\n", DG_E_PARSE, 2, 1, "expected 'node NAME"},
    {"graph 1\nnode a_name_that_is_much_longer_than_31 size=3x3\n", DG_E_PARSE, 2, 6,
     "node name is longer than 31"},
    {"graph 1\nnode a/b size=3x3\n", DG_E_PARSE, 2, 7, "invalid character in node name"},
    {"graph 1\nnode a size=3x3\nnode a size=3x3\n", DG_E_PARSE, 3, 6,
     "node 'a' is defined twice (first at line 2)"},
    {"graph 1\nnode a\n", DG_E_PARSE, 2, 6, "needs size=WIDTHxHEIGHT or templates=NAME"},
    {"graph 1\nnode a size=3x3 templates=v\n", DG_E_PARSE, 2, 6, "has both size= and templates="},
    {"graph 1\nnode a colour=red\n", DG_E_PARSE, 2, 8, "unknown node key 'colour'"},
    {"graph 1\nnode a role=boss role=boss size=3x3\n", DG_E_PARSE, 2, 18, "'role' given twice"},
    {"graph 1\nnode a role=b!ss size=3x3\n", DG_E_PARSE, 2, 14, "invalid character in role"},
    {"graph 1\nnode a size=3\n", DG_E_PARSE, 2, 13, "size must be WIDTHxHEIGHT"},
    {"graph 1\nnode a size=3..x4\n", DG_E_PARSE, 2, 13, "width must be N or MIN..MAX"},
    {"graph 1\nnode a size=4x5..2\n", DG_E_PARSE, 2, 15, "height must be N or MIN..MAX"},
    {"graph 1\nnode a size=0x4\n", DG_E_PARSE, 2, 13, "width must be"},
    {"graph 1\nnode a size=3x257\n", DG_E_PARSE, 2, 15, "<= 256"},
    {"graph 1\nnode a size=3x4294967299\n", DG_E_PARSE, 2, 15, "got '4294967299'"},
    {"graph 1\nnode a size=3x3\nedge a\n", DG_E_PARSE, 3, 1, "expected 'edge NODE NODE"},
    {"graph 1\nnode a size=3x3\nedge a b\n", DG_E_PARSE, 3, 8, "unknown node 'b'"},
    {"graph 1\nnode a size=3x3\nedge zz a\n", DG_E_PARSE, 3, 6, "unknown node 'zz'"},
    {"graph 1\nnode a size=3x3\nedge a a_name_that_is_much_longer_than_31\n", DG_E_PARSE, 3, 8,
     "node name is longer than 31"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b tunnel\n", DG_E_PARSE, 4, 10,
     "unknown edge word 'tunnel'"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b corridor\n", DG_E_PARSE, 4, 1,
     "a corridor needs length="},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b length=3\n", DG_E_PARSE, 4, 10,
     "length= is for corridors"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b door corridor\n", DG_E_PARSE, 4, 15,
     "an edge is a door or a corridor, not both"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b door door\n", DG_E_PARSE, 4, 15,
     "'door' given twice"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b secret secret\n", DG_E_PARSE, 4, 17,
     "'secret' given twice"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b corridor length=2 length=3\n",
     DG_E_PARSE, 4, 28, "'length' given twice"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock\n", DG_E_PARSE, 4, 10,
     "expected KEY=VALUE, got 'lock'"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock=1 key=\n", DG_E_PARSE, 4, 17,
     "expected KEY=VALUE, got 'key='"},
    {"graph 1\nnode a role size=3x3\n", DG_E_PARSE, 2, 8, "expected KEY=VALUE, got 'role'"},
    {"graph 1\nnode a role=boss\n", DG_E_PARSE, 2, 6, "node 'a' needs size="},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b corridor length=0..4\n", DG_E_PARSE, 4,
     26, "length must be N or MIN..MAX"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock=1\n", DG_E_PARSE, 4, 10,
     "lock= needs key=NODE"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b key=a\n", DG_E_PARSE, 4, 14,
     "key= needs lock=N"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock=17 key=a\n", DG_E_PARSE, 4, 15,
     "lock must be a number from 1 to 16"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock=1 key=c\n", DG_E_PARSE, 4, 21,
     "unknown node 'c'"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b lock=1 key=a_name_that_is_much_longer_than_31\n",
     DG_E_PARSE, 4, 21, "key node name is longer"},
    /* dg_graph_check's rules, at the node's or edge's line */
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a a\n", DG_E_INVALID, 4, 6,
     "edge a-a: joins a node to itself"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nedge a b\nedge b a corridor length=2\n",
     DG_E_INVALID, 5, 6, "edge b-a: given twice"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\n", DG_E_INVALID, 3, 6,
     "node b: no path of edges joins it to a"},
    {"graph 1\nnode a size=3x3\nnode b role=start size=3x3\nnode c size=3x3\nedge a b\n",
     DG_E_INVALID, 4, 6, "node c: no path of edges joins it to b"},
    {"graph 1\nnode a role=start size=3x3\nnode b role=start size=3x3\nedge a b\n", DG_E_INVALID,
     3, 6, "node b: a second start (the first is a)"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nnode c size=3x3\nedge a b lock=1 key=c\n"
     "edge b c\n", DG_E_INVALID, 5, 6, "edge a-b: lock 1's key is in c, which cannot be reached"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nnode c size=3x3\nedge a b lock=1 key=a\n"
     "edge a c lock=1 key=b\n", DG_E_INVALID, 6, 6, "lock 1's key is in two nodes (a and b)"},
    {"graph 1\nnode h size=3x3\nnode a size=3x3\nnode b size=3x3\nnode c size=3x3\nnode d "
     "size=3x3\nnode e size=3x3\nnode f size=3x3\nnode g size=3x3\nnode i size=3x3\nnode j "
     "size=3x3\nedge h a\nedge h b\nedge h c\nedge h d\nedge h e\nedge h f\nedge h g\nedge h i\n"
     "edge h j\n", DG_E_INVALID, 2, 6, "node h: 9 edges; at most 8"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nnode c size=3x3\nnode d size=3x3\nnode e "
     "size=3x3\nedge a b\nedge a c\nedge a d\nedge a e\nedge b c\nedge b d\nedge b e\nedge c d\n"
     "edge c e\nedge d e\n", DG_E_INVALID, 16, 6, "10 edges among 5 nodes cannot be planar"},
    {"graph 1\nnode a size=3x3\nnode b size=3x3\nnode c size=3x3\nnode x size=3x3\nnode y "
     "size=3x3\nnode z size=3x3\nedge a x\nedge a y\nedge a z\nedge b x\nedge b y\nedge b z\n"
     "edge c x\nedge c y\nedge c z\n", DG_E_INVALID, 16, 6,
     "9 edges among 6 nodes without a triangle cannot be planar (at most 8)"},
};

TEST(graph_parse_errors_name_the_place)
{
    for (size_t i = 0; i < sizeof parse_errors / sizeof parse_errors[0]; i++)
    {
        dg_graph g;
        memset(&g, 0x5A, sizeof g);
        dg_diag d;
        dg_status st = parse_str(parse_errors[i].text, &g, &d);
        char want[32];
        snprintf(want, sizeof want, "t.txt:%d:%d: ", (int)parse_errors[i].line,
                 (int)parse_errors[i].col);
        CHECKF(st == parse_errors[i].status, "case %d: status %d, message %s", (int)i, (int)st,
               d.message);
        CHECKF(d.status == st && d.line == parse_errors[i].line && d.column == parse_errors[i].col,
               "case %d: at %d:%d (%s)", (int)i, (int)d.line, (int)d.column, d.message);
        CHECKF(strncmp(d.message, want, strlen(want)) == 0 &&
                   strstr(d.message, parse_errors[i].message) != NULL,
               "case %d: \"%s\" wants \"%s%s\"", (int)i, d.message, want, parse_errors[i].message);
        CHECKF(graph_empty(&g), "case %d: the graph is not left empty", (int)i);
        dg_graph_free(&g);
    }
}

TEST(graph_parse_accepts_the_format_s_freedoms)
{
    /* comments anywhere, tabs, CRLF, a BOM, forward references, keys in any order,
     * no trailing newline */
    const char *text = "\xEF\xBB\xBFgraph 1   # version\r\n\r\n  # a comment line\n"
                       "edge b a   corridor\tlength=2..3 # b before a\n"
                       "node a size=3..4x3 role=start\nnode b templates=x.y-z role=my_word";
    dg_graph g;
    dg_diag d;
    CHECKF(parse_str(text, &g, &d) == DG_OK, "%s", d.message);
    CHECK(g.node_count == 2 && g.edge_count == 1 && g.edges[0].a == 1 && g.edges[0].b == 0);
    CHECK(g.edges[0].kind == DG_EDGE_CORRIDOR && g.edges[0].length_min == 2 &&
          g.edges[0].length_max == 3 && g.edges[0].key_node == -1);
    CHECK(g.nodes[0].width_min == 3 && g.nodes[0].width_max == 4 && g.nodes[0].height_min == 3 &&
          g.nodes[0].height_max == 3);
    CHECK(strcmp(g.nodes[1].role, "my_word") == 0 && strcmp(g.nodes[1].templates, "x.y-z") == 0);
    CHECK(g.room_distance == 1 && g.corridor_width == 1 && g.extra_connections == 0);
    dg_graph_free(&g);
}

/* ---- dg_graph_check's refusals, each from a valid graph with one field broken ---------- */

typedef void (*breaker)(built *b);
static void br_nodes0(built *b) { b->g.node_count = 0; }
static void br_nodes65(built *b) { b->g.node_count = 65; }
static void br_nodes_null(built *b) { b->g.nodes = NULL; }
static void br_edges_neg(built *b) { b->g.edge_count = -1; }
static void br_edges_null(built *b) { b->g.edges = NULL; }
static void br_distance(built *b) { b->g.room_distance = 5; }
static void br_width(built *b) { b->g.corridor_width = 0; }
static void br_extra(built *b) { b->g.extra_connections = 2; }
static void br_attempts_negative(built *b) { b->g.max_attempts = -1; }
static void br_attempts_huge(built *b) { b->g.max_attempts = 4097; }
static void br_spare(built *b) { b->g.spare[3] = 1; }
static void br_name_empty(built *b) { b->nodes[2].name[0] = '\0'; }
static void br_name_unterminated(built *b) { memset(b->nodes[2].name, 'k', DG_NAME_MAX); }
static void br_name_space(built *b) { strcpy(b->nodes[2].name, "key room"); }
static void br_role_char(built *b) { strcpy(b->nodes[3].role, "trea\"sure"); }
static void br_name_twice(built *b) { strcpy(b->nodes[4].name, "hall"); }
static void br_width_inverted(built *b) { b->nodes[1].width_min = 13; }
static void br_height_zero(built *b) { b->nodes[1].height_min = 0; }
static void br_height_huge(built *b) { b->nodes[1].height_max = 257; }
static void br_size_and_template(built *b) { strcpy(b->nodes[1].templates, "vault"); }
static void br_template_no_set(built *b)
{
    memset(&b->nodes[5], 0, sizeof b->nodes[5]);
    strcpy(b->nodes[5].name, "hide");
    strcpy(b->nodes[5].templates, "vault");
}
static void br_edge_node(built *b) { b->edges[3].b = 6; }
static void br_edge_negative(built *b) { b->edges[3].a = -1; }
static void br_edge_self(built *b) { b->edges[3].b = 1; }
static void br_edge_twice(built *b) { b->edges[3].b = 2; }
static void br_edge_kind(built *b) { b->edges[3].kind = 2; }
static void br_door_length(built *b) { b->edges[3].length_max = 4; }
static void br_corridor_zero(built *b) { b->edges[0].length_min = 0; }
static void br_corridor_inverted(built *b) { b->edges[0].length_min = 7; }
static void br_corridor_huge(built *b) { b->edges[0].length_max = 257; }
static void br_secret_two(built *b) { b->edges[5].secret = 2; }
static void br_lock_high(built *b) { b->edges[2].lock = 17; }
static void br_lock_negative(built *b) { b->edges[2].lock = -1; }
static void br_lock_secret(built *b) { b->edges[2].secret = 1; }
static void br_key_no_lock(built *b) { b->edges[1].key_node = 0; }
static void br_lock_no_key(built *b) { b->edges[2].key_node = -1; }
static void br_lock_key_out(built *b) { b->edges[2].key_node = 6; }
static void br_lock_two_keys(built *b) { b->edges[4].key_node = 0; }
static void br_key_behind(built *b) { b->edges[2].key_node = 3; b->edges[4].key_node = 3; }
static void br_two_exits(built *b) { strcpy(b->nodes[2].role, "exit"); strcpy(b->nodes[3].role, "exit"); }
static void br_disconnected(built *b) { b->g.edge_count = 5; }
static void br_key_behind_loop(built *b)
{
    /* the loop's other way round is locked by the same lock: the key is behind it */
    b->edges[1].a = 3; /* key_room hangs off loot now */
}

static const struct {
    breaker edit;
    dg_status status;
    int32_t node, edge;
    const char *message;
} refusals[] = {
    {br_nodes0, DG_E_INVALID, -1, -1, "graph: 0 nodes; 1..64"},
    {br_nodes65, DG_E_INVALID, -1, -1, "graph: 65 nodes"},
    {br_nodes_null, DG_E_NULL, -1, -1, "nodes is NULL"},
    {br_edges_neg, DG_E_INVALID, -1, -1, "graph: -1 edges"},
    {br_edges_null, DG_E_NULL, -1, -1, "edges is NULL"},
    {br_distance, DG_E_INVALID, -1, -1, "room_distance 5"},
    {br_width, DG_E_INVALID, -1, -1, "corridor_width 0"},
    {br_extra, DG_E_INVALID, -1, -1, "extra_connections 2"},
    {br_attempts_negative, DG_E_INVALID, -1, -1, "max_attempts -1; 0 (the default, 256) or 1..4096"},
    {br_attempts_huge, DG_E_INVALID, -1, -1, "max_attempts 4097"},
    {br_spare, DG_E_INVALID, -1, -1, "spare[3]"},
    {br_name_empty, DG_E_INVALID, 2, -1, "node 2: the name is empty"},
    {br_name_unterminated, DG_E_INVALID, 2, -1, "node 2: the name is not NUL-terminated"},
    {br_name_space, DG_E_INVALID, 2, -1, "node 2: the name has a character other than"},
    {br_role_char, DG_E_INVALID, 3, -1, "node loot: the role has a character"},
    {br_name_twice, DG_E_INVALID, 4, -1, "node hall: the name is used twice (nodes 1 and 4)"},
    {br_width_inverted, DG_E_INVALID, 1, -1, "node hall: width 13..12"},
    {br_height_zero, DG_E_INVALID, 1, -1, "node hall: height 0..9"},
    {br_height_huge, DG_E_INVALID, 1, -1, "node hall: height 6..257"},
    {br_size_and_template, DG_E_INVALID, 1, -1, "node hall: a size range and templates"},
    {br_template_no_set, DG_E_INVALID, 5, -1, "node hide: templates \"vault\" but the graph has no prefabs"},
    {br_edge_node, DG_E_INVALID, -1, 3, "edge 3: nodes 1 and 6; 0..5"},
    {br_edge_negative, DG_E_INVALID, -1, 3, "edge 3: nodes -1 and 4"},
    {br_edge_self, DG_E_INVALID, -1, 3, "edge hall-hall: joins a node to itself"},
    {br_edge_twice, DG_E_INVALID, -1, 3, "edge hall-key_room: given twice (edges 1 and 3)"},
    {br_edge_kind, DG_E_INVALID, -1, 3, "edge hall-side: kind 2"},
    {br_door_length, DG_E_INVALID, -1, 3, "edge hall-side: a door with a length 0..4"},
    {br_corridor_zero, DG_E_INVALID, -1, 0, "edge start-hall: corridor length 0..6"},
    {br_corridor_inverted, DG_E_INVALID, -1, 0, "edge start-hall: corridor length 7..6"},
    {br_corridor_huge, DG_E_INVALID, -1, 0, "corridor length 2..257"},
    {br_secret_two, DG_E_INVALID, -1, 5, "edge side-hide.1: secret 2"},
    {br_lock_high, DG_E_INVALID, -1, 2, "edge hall-loot: lock 17; 0..16"},
    {br_lock_negative, DG_E_INVALID, -1, 2, "edge hall-loot: lock -1"},
    {br_lock_secret, DG_E_INVALID, -1, 2, "a secret door cannot be locked"},
    {br_key_no_lock, DG_E_INVALID, -1, 1, "edge hall-key_room: key node 0 without a lock"},
    {br_lock_no_key, DG_E_INVALID, -1, 2, "lock 1's key node -1 is not a node"},
    {br_lock_key_out, DG_E_INVALID, -1, 2, "lock 1's key node 6 is not a node"},
    {br_lock_two_keys, DG_E_INVALID, -1, 4, "edge side-loot: lock 1's key is in two nodes (key_room and start)"},
    {br_key_behind, DG_E_INVALID, -1, 2, "edge hall-loot: lock 1's key is in loot, which cannot be reached"},
    {br_two_exits, DG_E_INVALID, 3, -1, "node loot: a second exit (the first is key_room)"},
    {br_disconnected, DG_E_INVALID, 5, -1, "node hide.1: no path of edges joins it to start"},
    {br_key_behind_loop, DG_E_INVALID, -1, 2, "edge hall-loot: lock 1's key is in key_room"},
};

TEST(graph_check_refuses_and_names_the_culprit)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
    {
        built b;
        build(&b);
        refusals[i].edit(&b);
        built copy = b;
        dg_diag d;
        dg_status st = dg_graph_check(&b.g, &d);
        CHECKF(st == refusals[i].status && d.status == st, "case %d: %d (%s)", (int)i, (int)st,
               d.message);
        CHECKF(strstr(d.message, refusals[i].message) != NULL, "case %d: \"%s\" lacks \"%s\"",
               (int)i, d.message, refusals[i].message);
        CHECKF(memcmp(&copy.nodes, &b.nodes, sizeof b.nodes) == 0 &&
                   memcmp(&copy.edges, &b.edges, sizeof b.edges) == 0,
               "case %d: check changed the graph", (int)i);
        /* the same refusal through the text format lands on that node's or edge's line */
        if (refusals[i].node < 0 && refusals[i].edge < 0)
            continue;
        static char text[8192];
        size_t n = graph_write(&b.g, text, sizeof text);
        dg_graph g;
        if (dg_graph_parse(text, n, "w", NULL, &g, &d) == DG_OK)
        {
            dg_graph_free(&g);
            continue; /* the text cannot say it (a bad index, an unterminated name...) */
        }
        int32_t want = refusals[i].node >= 0 ? 3 + refusals[i].node
                                             : 3 + b.g.node_count + refusals[i].edge;
        if (d.status == DG_E_INVALID)
            CHECKF(d.line == want && strstr(d.message, refusals[i].message),
                   "case %d: text says %s, want line %d", (int)i, d.message, (int)want);
    }
    CHECK(dg_graph_check(NULL, NULL) == DG_E_NULL);
    built b;
    build(&b);
    b.g.node_count = 1;
    b.g.edge_count = 0;
    b.g.edges = NULL;
    CHECK(dg_graph_check(&b.g, NULL) == DG_OK); /* one room, no edge */
}

TEST(graph_check_accepts_planar_extremes)
{
    /* a wheel of 9 (hub of degree 8) and a maximal planar count of edges */
    static dg_graph_node nodes[DG_GRAPH_NODES_MAX];
    static dg_graph_edge edges[DG_GRAPH_EDGES_MAX];
    dg_graph g;
    dg_graph_init(&g);
    g.nodes = nodes;
    g.edges = edges;
    g.node_count = 9;
    for (int i = 0; i < 9; i++) /* a hub of 9x9 at most: eight door neighbours fit round it */
        node_rect(&nodes[i], "", "", 3, i ? 5 : 9, 3, i ? 5 : 9), snprintf(nodes[i].name, DG_NAME_MAX, "n%d", i);
    for (int i = 1; i <= 8; i++)
    {
        edge_make(&edges[g.edge_count++], 0, i, DG_EDGE_DOOR, 0, 0);
        edge_make(&edges[g.edge_count++], i, i % 8 + 1, DG_EDGE_CORRIDOR, 1, 4);
    }
    dg_diag d;
    CHECKF(dg_graph_check(&g, &d) == DG_OK, "%s", d.message);
    CHECK(g.edge_count == 16 && 3 * 9 - 6 >= 16);
    edge_make(&edges[g.edge_count++], 1, 3, DG_EDGE_DOOR, 0, 0);
    edge_make(&edges[g.edge_count++], 1, 4, DG_EDGE_DOOR, 0, 0);
    CHECK(dg_graph_check(&g, &d) == DG_OK);
    /* 64 nodes in a path: the largest graph */
    g.node_count = 64;
    g.edge_count = 63;
    for (int i = 0; i < 64; i++)
        node_rect(&nodes[i], "", "", 3, 5, 3, 5), snprintf(nodes[i].name, DG_NAME_MAX, "n%d", i);
    for (int i = 0; i < 63; i++)
        edge_make(&edges[i], i, i + 1, DG_EDGE_DOOR, 0, 0);
    CHECKF(dg_graph_check(&g, &d) == DG_OK, "%s", d.message);
}

/* ---- planarity ------------------------------------------------------------------------------ */
/* A graph of up to 64 rooms named n0, n1, ... built edge by edge (corridors,
 * so the planar extremes are not refused as a K4 of doors). */
typedef struct big_graph {
    dg_graph g;
    dg_graph_node nodes[DG_GRAPH_NODES_MAX];
    dg_graph_edge edges[DG_GRAPH_EDGES_MAX];
} big_graph;

static void big_begin(big_graph *b, int nodes)
{
    dg_graph_init(&b->g);
    b->g.nodes = b->nodes;
    b->g.edges = b->edges;
    b->g.node_count = nodes;
    for (int i = 0; i < nodes; i++)
        node_rect(&b->nodes[i], "", "", 3, 5, 3, 5), snprintf(b->nodes[i].name, DG_NAME_MAX, "n%d", i);
}

static void big_edge(big_graph *b, int x, int y)
{
    edge_make(&b->edges[b->g.edge_count++], x, y, DG_EDGE_CORRIDOR, 2, 6);
}

static int big_has(const big_graph *b, int x, int y)
{
    for (int e = 0; e < b->g.edge_count; e++)
        if ((b->edges[e].a == x && b->edges[e].b == y) || (b->edges[e].a == y && b->edges[e].b == x))
            return 1;
    return 0;
}

/* Every edge x-y of a complete graph (k5) or K3,3 (nodes 0..2 against 3..5), each
 * cut by `cuts` rooms of its own; `extra` more rooms hang off n0 in a path. */
static void kuratowski(big_graph *b, int k5, int cuts, int extra)
{
    int pairs[10][2], n = 0;
    for (int x = 0; x < 5; x++)
        for (int y = x + 1; y < (k5 ? 5 : 6); y++)
            if (k5 || (x < 3 && y >= 3))
                pairs[n][0] = x, pairs[n][1] = y, n++;
    int branch = k5 ? 5 : 6;
    big_begin(b, branch + n * cuts + extra);
    int next = branch;
    for (int p = 0; p < n; p++)
    {
        int prev = pairs[p][0];
        for (int c = 0; c < cuts; c++)
            big_edge(b, prev, next), prev = next++;
        big_edge(b, prev, pairs[p][1]);
    }
    for (int i = 0, prev = 0; i < extra; i++)
        big_edge(b, prev, next), prev = next++;
}

static void petersen(big_graph *b)
{
    big_begin(b, 10);
    for (int i = 0; i < 5; i++)
    {
        big_edge(b, i, (i + 1) % 5);         /* the outer cycle */
        big_edge(b, i, 5 + i);               /* the spokes */
        big_edge(b, 5 + i, 5 + (i + 2) % 5); /* the inner star */
    }
}

/* The refusal names the witness edge, the K5 or K3,3 and every branch node,
 * and through the text format lands on that edge's line. */
static void refused_as(big_graph *b, const char *shape, int branches, int edge)
{
    dg_diag d;
    CHECK(!dgi_graph_planar(b->g.node_count, b->edges, b->g.edge_count, NULL));
    CHECKF(dg_graph_check(&b->g, &d) == DG_E_INVALID && strstr(d.message, "not planar") &&
               strstr(d.message, shape),
           "%s: %s", shape, d.message);
    dgi_planar_witness w;
    dgi_graph_nonplanar_witness(b->g.node_count, b->edges, b->g.edge_count, &w, NULL);
    CHECKF(w.branches == branches && (edge < 0 || w.edge == edge), "%s: %d branches at edge %d",
           shape, (int)w.branches, (int)w.edge);
    edge = w.edge; /* -1: whichever edge first makes it fail (checked below) */
    char want[64];
    snprintf(want, sizeof want, "edge %s-%s:", b->nodes[b->edges[edge].a].name,
             b->nodes[b->edges[edge].b].name);
    CHECKF(strncmp(d.message, want, strlen(want)) == 0, "%s: %s", shape, d.message);
    CHECK(dgi_graph_planar(b->g.node_count, b->edges, w.edge, NULL));
    char names[160] = "";
    for (int i = 0; i < w.branches; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 b->nodes[w.branch[i]].name, i == 2 && branches == 6 ? " is joined to each of "
                                                 : i == 3 && branches == 5 ? " and "
                                                 : i + 1 < w.branches ? ", " : "");
    CHECKF(strstr(d.message, names) != NULL, "%s: %s lacks %s", shape, d.message, names);
    static char text[16384];
    size_t n = graph_write(&b->g, text, sizeof text);
    dg_graph g;
    CHECK(dg_graph_parse(text, n, "w", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
    CHECKF(d.line == 3 + b->g.node_count + edge && d.column == 6 && strstr(d.message, shape),
           "%s: text says %s", shape, d.message);
}

TEST(graph_check_refuses_graphs_that_are_not_planar)
{
    static big_graph b;
    /* K5 and K3,3 themselves (the counts refuse them first in dg_graph_check) */
    kuratowski(&b, 1, 0, 0);
    CHECK(!dgi_graph_planar(5, b.edges, b.g.edge_count, NULL));
    b.g.edge_count--;
    CHECK(dgi_graph_planar(5, b.edges, b.g.edge_count, NULL));
    kuratowski(&b, 0, 0, 0);
    CHECK(!dgi_graph_planar(6, b.edges, b.g.edge_count, NULL));
    b.g.edge_count--;
    CHECK(dgi_graph_planar(6, b.edges, b.g.edge_count, NULL));
    /* subdivided, with rooms hung on: the counts let them pass, planarity does not */
    for (int cuts = 1; cuts <= 3; cuts++)
    {
        kuratowski(&b, 1, cuts, 4);
        refused_as(&b, "(a K5)", 5, (cuts + 1) * 10 - 1);
        kuratowski(&b, 0, cuts, 4);
        refused_as(&b, "(a K3,3)", 6, (cuts + 1) * 9 - 1);
    }
    /* Petersen: no K5 in it (every node has 3 edges), a subdivided K3,3 */
    petersen(&b);
    refused_as(&b, "(a K3,3)", 6, -1);
    /* the witness is the first edge that makes it fail: K3,3 edges first, then a path */
    kuratowski(&b, 0, 1, 20);
    dgi_planar_witness w;
    dgi_graph_nonplanar_witness(b.g.node_count, b.edges, b.g.edge_count, &w, NULL);
    CHECK(w.edge == 17 && w.branches == 6);
    /* sides: n0, n1, n2 against n3, n4, n5 */
    CHECK(w.branch[0] == 0 && w.branch[1] == 1 && w.branch[2] == 2 && w.branch[3] == 3 &&
          w.branch[4] == 4 && w.branch[5] == 5);
}

/* Four rooms joined pairwise by doors cannot be rectangles: refused at the
 * door that closes the K4, naming all four, on that edge's line in the text;
 * one corridor among the six edges, or a wheel of doors, passes. */
TEST(graph_check_refuses_a_k4_of_doors)
{
    static big_graph b;
    static const int k4[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    for (int corridor = -1; corridor < 6; corridor++)
    {
        big_begin(&b, 6);
        big_edge(&b, 4, 0), big_edge(&b, 5, 4); /* rooms before it: the K4 is found among more */
        for (int i = 0; i < 6; i++)
            edge_make(&b.edges[b.g.edge_count++], k4[i][0], k4[i][1],
                      i == corridor ? DG_EDGE_CORRIDOR : DG_EDGE_DOOR, i == corridor ? 2 : 0,
                      i == corridor ? 6 : 0);
        dg_diag d;
        dg_status st = dg_graph_check(&b.g, &d);
        if (corridor >= 0)
        {
            CHECKF(st == DG_OK, "corridor %d: %s", corridor, d.message);
            continue;
        }
        CHECKF(st == DG_E_INVALID && strncmp(d.message, "edge n2-n3:", 11) == 0 &&
                   strstr(d.message, "n2, n3, n0 and n1 are joined pairwise by doors (a K4)"),
               "%s", d.message);
        static char text[4096];
        size_t n = graph_write(&b.g, text, sizeof text);
        dg_graph g;
        CHECK(dg_graph_parse(text, n, "w", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
        CHECKF(d.line == 3 + 6 + 7 && strstr(d.message, "(a K4)"), "text says %d: %s",
               (int)d.line, d.message);
    }
    /* a hub with a rim of four, all doors: triangles, no K4 */
    big_begin(&b, 5);
    for (int i = 1; i <= 4; i++)
        edge_make(&b.edges[b.g.edge_count++], 0, i, DG_EDGE_DOOR, 0, 0),
            edge_make(&b.edges[b.g.edge_count++], i, i % 4 + 1, DG_EDGE_DOOR, 0, 0);
    CHECK(dg_graph_check(&b.g, NULL) == DG_OK);
}

/* A star of door rooms round a hub of at most WxH at room_distance d, as
 * text: each leaf of 3..4 cells (the first two joined by a corridor when
 * ring). */
static size_t door_star(char *text, size_t cap, int w, int h, int d, int leaves, int ring)
{
    size_t n = (size_t)snprintf(text, cap, "graph 1\nlevel room_distance=%d\n"
                                "node hub role=start size=2..%dx2..%d\n", d, w, h);
    for (int i = 0; i < leaves; i++)
        n += (size_t)snprintf(text + n, cap - n, "node l%d size=3..4x3..4\n", i);
    for (int i = 0; i < leaves; i++)
        n += (size_t)snprintf(text + n, cap - n, "edge hub l%d door\n", i);
    if (ring)
        n += (size_t)snprintf(text + n, cap - n, "edge l0 l1 corridor length=2..6\n");
    return n;
}

/* A rectangle room holds as many door neighbours as its sides at their
 * largest can, each neighbour overlapping it by a cell, the ones on one side
 * room_distance apart and at each corner one of the two nearest keeping
 * clear of it: more is refused at the node's line, naming the counts,
 * before any layout, and the grid stays as it was. Where two of the
 * neighbours are joined no bound is proved, and a hub at its bound lays out. */
TEST(graph_check_refuses_more_doors_than_a_room_holds)
{
    static char text[1024];
    dg_graph g;
    dg_diag d;
    /* refused: a 6x6 room holds four from distance 1 on (two on one side leave the
     * sides next to them one apiece, clear of that corner, and the fourth side none),
     * six at 0; a 3x3 room holds two at distance 2 (one a side cannot keep clear), and
     * one at 4 (rooms at opposite sides, 3 apart, would have to stand apart sideways) */
    static const struct { int w, h, d, leaves, holds; } refuse[] = {
        {6, 6, 3, 5, 4}, {6, 6, 1, 5, 4}, {6, 6, 0, 7, 6}, {3, 3, 2, 3, 2}, {3, 3, 4, 2, 1}};
    for (size_t i = 0; i < sizeof refuse / sizeof refuse[0]; i++)
    {
        size_t n = door_star(text, sizeof text, refuse[i].w, refuse[i].h, refuse[i].d, refuse[i].leaves, 0);
        char want[96];
        snprintf(want, sizeof want, "node hub: %d door neighbours, but a room of at most %dx%d holds %d at "
                 "room_distance %d (", refuse[i].leaves, refuse[i].w, refuse[i].h, refuse[i].holds, refuse[i].d);
        CHECK(dg_graph_parse(text, n, "star", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
        CHECKF(d.line == 3 && d.column == 6 && strstr(d.message, want), "case %d: %d:%d %s",
               (int)i, (int)d.line, (int)d.column, d.message);
    }
    /* passed: four round a 6x6 room at distance 4 (a pinwheel), six at 0; two of five
     * joined by a corridor may stand closer (five fit at distance 1); a side of 12 at 3
     * takes two (1 + 6 = 7 cells), so five fit; a 3x3 room at distance 1 holds four */
    static const int pass[5][5] = {{6, 6, 4, 4, 0}, {6, 6, 0, 6, 0}, {6, 6, 1, 5, 1}, {12, 6, 3, 5, 0}, {3, 3, 1, 4, 0}};
    for (int i = 0; i < 5; i++)
    {
        size_t n = door_star(text, sizeof text, pass[i][0], pass[i][1], pass[i][2], pass[i][3], pass[i][4]);
        CHECKF(dg_graph_parse(text, n, "star", NULL, &g, &d) == DG_OK, "case %d: %s", i, d.message);
        dg_graph_free(&g);
    }
    /* a 3x3 hub holds four at distance 0 and lays them out; a fifth is refused by
     * dg_graph_generate as well, the grid untouched */
    size_t n = door_star(text, sizeof text, 3, 3, 0, 4, 0);
    CHECKF(dg_graph_parse(text, n, "star", NULL, &g, &d) == DG_OK, "%s", d.message);
    static uint8_t cells[30 * 24];
    dg_grid grid = {cells, 30, 24, 30};
    CHECKF(dg_graph_generate(&grid, &g, 1, NULL, NULL, &d) == DG_OK, "%s", d.message);
    static dg_graph_node nodes[6]; /* the same with a fifth leaf */
    static dg_graph_edge edges[5];
    memcpy(nodes, g.nodes, 5 * sizeof nodes[0]);
    memcpy(edges, g.edges, 4 * sizeof edges[0]);
    nodes[5] = nodes[4];
    snprintf(nodes[5].name, sizeof nodes[5].name, "l4");
    edges[4] = edges[3];
    edges[4].b = 5;
    dg_graph five = g;
    five.nodes = nodes, five.edges = edges, five.node_count = 6, five.edge_count = 5;
    memset(cells, 0x5A, sizeof cells);
    CHECK(dg_graph_generate(&grid, &five, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECKF(strstr(d.message, "node hub: 5 door neighbours, but a room of at most 3x3 holds 4 "
                             "at room_distance 0"), "%s", d.message);
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 0x5A);
    dg_graph_free(&g);
}

/* Two rooms joined by a door, each with `leaves` more door neighbours. */
static size_t door_pair(char *text, size_t cap, int d, int leaves)
{
    size_t n = (size_t)snprintf(text, cap, "graph 1\nlevel room_distance=%d\n"
                                "node a role=start size=3..6x3..6\nnode b size=3..6x3..6\n", d);
    for (int i = 0; i < 2 * leaves; i++)
        n += (size_t)snprintf(text + n, cap - n, "node l%d size=3..6x3..6\n", i);
    n += (size_t)snprintf(text + n, cap - n, "edge a b door\n");
    for (int i = 0; i < 2 * leaves; i++)
        n += (size_t)snprintf(text + n, cap - n, "edge %s l%d door\n", i < leaves ? "a" : "b", i);
    return n;
}

/* Where a room's door neighbours, or two rooms joined by a door with
 * theirs, have no place at all (every place searched), the graph is refused
 * at the first room's line, naming the rooms and counts, before any layout
 * and with the grid untouched; where they have one, the layout goes ahead.
 * A pinwheel round a 6x6 room holds four at distance 4 with nothing to
 * spare, so two such rooms joined by a door cannot both have one. */
TEST(graph_check_refuses_door_clusters_without_a_place)
{
    static char text[2048];
    dg_graph g;
    dg_diag d;
    /* five round a 6x6 room, two of them joined by a corridor: a place at 1, none at 2 or 3 */
    for (int dist = 2; dist <= 3; dist++)
    {
        size_t n = door_star(text, sizeof text, 6, 6, dist, 5, 1);
        char want[128];
        snprintf(want, sizeof want, "node hub: its 5 door neighbours have no place round a room of at most "
                 "6x6 at room_distance %d (", dist);
        CHECK(dg_graph_parse(text, n, "star", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
        CHECKF(d.line == 3 && d.column == 6 && strstr(d.message, want), "%d:%d %s", (int)d.line,
               (int)d.column, d.message);
    }
    size_t n = door_pair(text, sizeof text, 4, 3);
    CHECK(dg_graph_parse(text, n, "pair", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
    CHECKF(d.line == 3 && d.column == 6 &&
               strstr(d.message, "nodes a and b, joined by a door, have no place with their 4 and 4 door "
                                 "neighbours at room_distance 4 ("),
           "%d:%d %s", (int)d.line, (int)d.column, d.message);
    /* the same pair at distance 3, and with two leaves each at 4, lays out */
    static uint8_t cells[60 * 40];
    dg_grid grid = {cells, 60, 40, 60};
    const int ok[2][2] = {{3, 3}, {4, 2}};
    for (int i = 0; i < 2; i++)
    {
        n = door_pair(text, sizeof text, ok[i][0], ok[i][1]);
        CHECKF(dg_graph_parse(text, n, "pair", NULL, &g, &d) == DG_OK, "%s", d.message);
        CHECKF(dg_graph_generate(&grid, &g, 1, NULL, NULL, &d) == DG_OK, "case %d: %s", i, d.message);
        if (i == 0)
        {
            /* at 4 with three leaves each, dg_graph_generate refuses it too, the grid untouched */
            g.room_distance = 4;
            memset(cells, 0x5A, sizeof cells);
            CHECK(dg_graph_generate(&grid, &g, 1, NULL, NULL, &d) == DG_E_INVALID);
            CHECKF(strstr(d.message, "nodes a and b, joined by a door, have no place"), "%s", d.message);
            for (size_t k = 0; k < sizeof cells; k++)
                CHECK(cells[k] == 0x5A);
        }
        dg_graph_free(&g);
    }
}

/* Small deterministic generator of the tests' own. */
static uint64_t mix_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A random maximal planar graph of n >= 3 nodes: a triangle, each next node
 * inside a random face, then random flips of edges (a flip keeps it maximal
 * planar); nodes relabelled and edges shuffled. */
static void maximal_planar(big_graph *b, int n, uint64_t seed)
{
    int face[2 * DG_GRAPH_NODES_MAX][3], faces = 2;
    big_begin(b, n);
    big_edge(b, 0, 1), big_edge(b, 1, 2), big_edge(b, 2, 0);
    face[0][0] = 0, face[0][1] = 1, face[0][2] = 2;
    face[1][0] = 0, face[1][1] = 2, face[1][2] = 1;
    for (int v = 3; v < n; v++)
    {
        int f = (int)(mix_next(&seed) % (uint64_t)faces);
        int a = face[f][0], c = face[f][1], d = face[f][2];
        big_edge(b, v, a), big_edge(b, v, c), big_edge(b, v, d);
        face[f][0] = a, face[f][1] = c, face[f][2] = v;
        face[faces][0] = c, face[faces][1] = d, face[faces][2] = v, faces++;
        face[faces][0] = d, face[faces][1] = a, face[faces][2] = v, faces++;
    }
    int degree[DG_GRAPH_NODES_MAX] = {0};
    for (int e = 0; e < b->g.edge_count; e++)
        degree[b->edges[e].a]++, degree[b->edges[e].b]++;
    /* random flips, then only flips that even the degrees out */
    for (int flip = 0; flip < 40 * n; flip++)
    {
        /* faces f (x, y, p) and g (y, x, q) share the edge x-y: make it p-q */
        int f = (int)(mix_next(&seed) % (uint64_t)faces), k = (int)(mix_next(&seed) % 3);
        int x = face[f][k], y = face[f][(k + 1) % 3], p = face[f][(k + 2) % 3];
        for (int g = 0; g < faces; g++)
            for (int j = 0; j < 3; j++)
                if (face[g][j] == y && face[g][(j + 1) % 3] == x)
                {
                    int q = face[g][(j + 2) % 3];
                    if (p == q || big_has(b, p, q) ||
                        (flip >= n && degree[p] + degree[q] + 2 >= degree[x] + degree[y]))
                        continue;
                    degree[p]++, degree[q]++, degree[x]--, degree[y]--;
                    for (int e = 0; e < b->g.edge_count; e++)
                        if ((b->edges[e].a == x && b->edges[e].b == y) ||
                            (b->edges[e].a == y && b->edges[e].b == x))
                            b->edges[e].a = p, b->edges[e].b = q;
                    face[f][0] = p, face[f][1] = x, face[f][2] = q;
                    face[g][0] = q, face[g][1] = y, face[g][2] = p;
                    g = faces, j = 3;
                }
    }
    int label[DG_GRAPH_NODES_MAX];
    for (int i = 0; i < n; i++)
        label[i] = i;
    for (int i = n - 1; i > 0; i--)
    {
        int j = (int)(mix_next(&seed) % (uint64_t)(i + 1)), t = label[i];
        label[i] = label[j], label[j] = t;
    }
    for (int e = b->g.edge_count - 1; e >= 0; e--)
    {
        int j = (int)(mix_next(&seed) % (uint64_t)(e + 1));
        dg_graph_edge t = b->edges[e];
        b->edges[e] = b->edges[j], b->edges[j] = t;
        b->edges[e].a = label[b->edges[e].a], b->edges[e].b = label[b->edges[e].b];
    }
}

static int max_degree(const big_graph *b)
{
    int most = 0;
    for (int v = 0; v < b->g.node_count; v++)
    {
        int d = 0;
        for (int e = 0; e < b->g.edge_count; e++)
            d += (b->edges[e].a == v) + (b->edges[e].b == v);
        most = d > most ? d : most;
    }
    return most;
}

TEST(graph_planarity_of_random_maximal_planar_graphs)
{
    static big_graph b;
    int checked = 0;
    int64_t most = 0;
    for (uint64_t seed = 1; seed <= 120; seed++)
    {
        int n = 3 + (int)(seed * 7 % 62);
        maximal_planar(&b, n, seed);
        CHECKF(b.g.edge_count == 3 * n - 6, "seed %d: %d edges", (int)seed, (int)b.g.edge_count);
        int64_t work = 0;
        CHECKF(dgi_graph_planar(n, b.edges, b.g.edge_count, &work), "seed %d: %d nodes", (int)seed,
               n);
        CHECK(work <= DGI_PLANAR_WORK(n, b.g.edge_count));
        most = work > most ? work : most;
        if (max_degree(&b) <= DG_GRAPH_DEGREE_MAX)
        {
            dg_diag d;
            CHECKF(dg_graph_check(&b.g, &d) == DG_OK, "seed %d: %s", (int)seed, d.message);
            checked++;
        }
        /* one edge more, between any two nodes not joined, and it is not planar */
        uint64_t r = seed;
        int x = (int)(mix_next(&r) % (uint64_t)n), y = (int)(mix_next(&r) % (uint64_t)n);
        while (n > 4 && (x == y || big_has(&b, x, y)))
            y = (y + 1) % n, x = y == 0 ? (x + 1) % n : x;
        if (n <= 4)
            continue;
        big_edge(&b, x, y);
        work = 0;
        CHECKF(!dgi_graph_planar(n, b.edges, b.g.edge_count, &work), "seed %d + %d-%d", (int)seed,
               x, y);
        dgi_planar_witness w;
        int64_t witness = 0;
        dgi_graph_nonplanar_witness(n, b.edges, b.g.edge_count, &w, &witness);
        CHECKF((w.branches == 5 || w.branches == 6) && w.edge < b.g.edge_count,
               "seed %d: %d branches", (int)seed, (int)w.branches);
        CHECK(dgi_graph_planar(n, b.edges, w.edge, NULL) &&
              !dgi_graph_planar(n, b.edges, w.edge + 1, NULL));
        CHECK(witness <= DGI_PLANAR_WITNESS_WORK(n, b.g.edge_count));
        /* and any half of its edges is planar */
        b.g.edge_count = (b.g.edge_count - 1) / 2;
        CHECK(dgi_graph_planar(n, b.edges, b.g.edge_count, NULL));
    }
    CHECKF(checked >= 10, "only %d graphs of degree <= 8", checked);
    CHECKF(most < DGI_PLANAR_WORK(64, 186) / 50, "work %lld", (long long)most);
}

/* Grids (plain and with a diagonal in every cell), wheels, polygons with
 * chords that do not cross, long cycles: all accepted by dg_graph_check. */
TEST(graph_check_accepts_planar_families)
{
    static big_graph b;
    dg_diag d;
    for (int w = 2; w <= 8; w++)
        for (int diag = 0; diag <= 1; diag++)
        {
            big_begin(&b, w * w);
            for (int y = 0; y < w; y++)
                for (int x = 0; x < w; x++)
                {
                    if (x + 1 < w)
                        big_edge(&b, y * w + x, y * w + x + 1);
                    if (y + 1 < w)
                        big_edge(&b, y * w + x, (y + 1) * w + x);
                    if (diag && x + 1 < w && y + 1 < w)
                        big_edge(&b, y * w + x, (y + 1) * w + x + 1);
                }
            CHECKF(dg_graph_check(&b.g, &d) == DG_OK, "grid %d diag %d: %s", w, diag, d.message);
        }
    for (int rim = 3; rim <= 8; rim++)
    {
        big_begin(&b, rim + 1);
        for (int i = 1; i <= rim; i++)
            big_edge(&b, 0, i), big_edge(&b, i, i % rim + 1);
        CHECKF(dg_graph_check(&b.g, &d) == DG_OK, "wheel %d: %s", rim, d.message);
    }
    for (int n = 4; n <= 64; n += 3)
    {
        /* a polygon cut into triangles by zigzag chords: maximal outerplanar */
        big_begin(&b, n);
        for (int i = 0; i < n; i++)
            big_edge(&b, i, (i + 1) % n);
        for (int lo = 0, hi = n - 1, step = 0; hi - lo > 2; step++)
        {
            if (step % 2 == 0)
                big_edge(&b, lo + 1, hi), lo++;
            else
                big_edge(&b, lo, hi - 1), hi--;
        }
        CHECKF(b.g.edge_count == 2 * n - 3 && dg_graph_check(&b.g, &d) == DG_OK,
               "outerplanar %d: %d edges, %s", n, (int)b.g.edge_count, d.message);
    }
}

/* ---- the hardening entry ---------------------------------------------------------------- */
typedef struct hard_outcome {
    dg_status st;
    int ok; /* guard intact, grid untouched on error, output valid on success, all freed */
} hard_outcome;

/* One call of the graph entry (fuzz bytes, or sample `variant` when bytes is NULL) on a
 * guarded w x h grid filled with 0x5A, through a counting allocator refusing fail_at. */
static hard_outcome hard_graph_once(const uint8_t *bytes, size_t size, int variant, int32_t w,
                                    int32_t h, uint64_t seed, int64_t fail_at)
{
    hard_outcome o = {DG_OK, 0};
    guarded_grid gg;
    if (!guard_make(&gg, w, h, 3))
        return o;
    dg_grid_fill(&gg.grid, 0x5A);
    hard_alloc ha;
    hard_alloc_init(&ha, fail_at);
    dg_result r;
    dg_result_init(&r, &ha.hooks);
    dg_diag d;
    memset(&d, 0, sizeof d);
    hard_fuzz_out out = {-1, NULL};
    hard_input in = {bytes, size, 0};
    o.st = bytes ? hard_graph_fuzz(NULL, &in, &gg.grid, seed, &r, &ha.hooks, &d, &out)
                 : hard_graph_run(NULL, variant, &gg.grid, seed, &r, &ha.hooks, &d, NULL);
    int untouched = 1;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            untouched &= dg_grid_get(&gg.grid, x, y) == 0x5A;
    o.ok = guard_intact(&gg) && hard_status_known(o.st) && !out.violation;
    if (o.st == DG_OK)
        o.ok &= hard_validate(&gg.grid, &r) == NULL;
    else
        o.ok &= untouched && (o.st == DG_E_NOMEM || (d.status == o.st && d.message[0]));
    dg_result_free(&r);
    o.ok &= hard_alloc_clean(&ha);
    guard_free(&gg);
    return o;
}

TEST(graph_hardening_entry_refuses_cleanly)
{
    /* hostile sizes: every sample on grids too small, thin, odd or large */
    static const int32_t sizes[][2] = {{1, 1}, {2, 3}, {5, 4}, {64, 3}, {3, 64}, {17, 13},
                                       {37, 23}, {80, 50}, {1, 400}, {256, 256}};
    int laid = 0;
    for (int v = 0; v < 3; v++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        {
            hard_outcome o = hard_graph_once(NULL, 0, v, sizes[k][0], sizes[k][1], 5, 0);
            CHECKF(o.ok, "sample %d %dx%d: %s", v, (int)sizes[k][0], (int)sizes[k][1],
                   dg_status_str(o.st));
            laid += o.st == DG_OK;
            if (k < 3)
                CHECKF(o.st == DG_E_NOSPACE || o.st == DG_E_INVALID, "sample %d %dx%d: %s", v,
                       (int)sizes[k][0], (int)sizes[k][1], dg_status_str(o.st));
        }
    CHECKF(laid >= 6, "only %d layouts", laid);
    /* every allocation refused in turn (the parse's and the layout's) */
    for (int64_t k = 1; k <= 40; k++)
    {
        hard_outcome clean = hard_graph_once(NULL, 0, (int)(k % 3), 80, 50, 3, 0);
        hard_outcome o = hard_graph_once(NULL, 0, (int)(k % 3), 80, 50, 3, k);
        CHECKF(o.ok && (o.st == clean.st || o.st == DG_E_NOMEM), "refusing allocation %d: %s",
               (int)k, dg_status_str(o.st));
    }
    /* fuzz bytes: raw text, cut samples, graphs built with hostile fields, no graph */
    uint64_t s = 0x6772617068ULL;
    int statuses[8] = {0};
    for (int i = 0; i < 600; i++)
    {
        uint8_t bytes[512];
        size_t size = 1 + (size_t)(mix_next(&s) % sizeof bytes);
        for (size_t k = 0; k < size; k++)
            bytes[k] = (uint8_t)mix_next(&s);
        bytes[0] = (uint8_t)(i % 4);
        if (i % 4 == 0) /* text: mostly the format's own words */
        {
            static const char *const words[] = {"graph 1\n", "node ", "edge ", "a ", "b ", "c ",
                                                "size=3x3\n", "size=1..256x1..256\n", "\n",
                                                "corridor length=1..9 ", "lock=1 key=a\n",
                                                "level room_distance=4 corridor_width=3\n"};
            size_t at = 1;
            while (at + 48 < size)
            {
                const char *w = words[mix_next(&s) % 12];
                memcpy(bytes + at, w, strlen(w));
                at += strlen(w);
            }
            size = at;
        }
        int32_t w = 1 + (int32_t)(mix_next(&s) % 120), h = 1 + (int32_t)(mix_next(&s) % 90);
        hard_outcome o = hard_graph_once(bytes, size, 0, w, h, mix_next(&s), 0);
        CHECKF(o.ok, "input %d (%dx%d): %s", i, (int)w, (int)h, dg_status_str(o.st));
        statuses[o.st == DG_OK ? 0 : o.st == DG_E_PARSE ? 1 : o.st == DG_E_INVALID ? 2
                 : o.st == DG_E_NOSPACE ? 3 : o.st == DG_E_NULL ? 4 : 5]++;
    }
    CHECKF(statuses[0] && statuses[1] && statuses[2] && statuses[4],
           "OK %d PARSE %d INVALID %d NOSPACE %d NULL %d other %d", statuses[0], statuses[1],
           statuses[2], statuses[3], statuses[4], statuses[5]);
    /* a NULL grid */
    dg_diag d;
    CHECK(hard_graph_call(NULL, 1, NULL, NULL, &d) == DG_E_NULL && d.message[0]);
}

/* ---- identity ------------------------------------------------------------------------------- */

TEST(graph_hash_follows_content_only)
{
    const char *plain = "graph 1\nlevel room_distance=2\nnode a role=start size=3..5x4\n"
                        "node b size=6x6\nedge a b corridor length=2..4\n";
    const char *noisy = "graph 1 # v1\r\n\n\t# the level\nlevel   room_distance=2\n"
                        "node a size=3..5x4..4 role=start # first\n\n"
                        "node\tb size=6..6x6 \nedge a b length=2..4 corridor\n# end";
    dg_graph g1, g2;
    dg_diag d;
    CHECKF(parse_str(plain, &g1, &d) == DG_OK, "%s", d.message);
    CHECKF(parse_str(noisy, &g2, &d) == DG_OK, "%s", d.message);
    uint64_t h = dg_graph_hash(&g1);
    CHECK_EQ_U64(dg_graph_hash(&g2), h);
    CHECK_EQ_U64(h, 0xb7f05b715af19069ULL); /* pinned: recipes record it */
    CHECK(dg_graph_hash(NULL) == 0 && h != 0);
    /* every field moves it */
    dg_graph_node *n = &g2.nodes[0];
    dg_graph_edge *x = &g2.edges[0];
    int32_t *fields[] = {&g2.room_distance, &g2.corridor_width, &g2.extra_connections, &g2.max_attempts,
                         &n->width_min, &n->width_max, &n->height_min, &n->height_max,
                         &x->a, &x->b, &x->kind, &x->length_min, &x->length_max, &x->lock,
                         &x->key_node, &x->secret};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    {
        *fields[i] += 1;
        CHECKF(dg_graph_hash(&g2) != h, "field %d", (int)i);
        *fields[i] -= 1;
    }
    char *words[] = {n->name, n->role, n->templates, g2.nodes[1].name};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    {
        char keep = words[i][0];
        words[i][0] = keep ? 'z' : 'q';
        if (!keep)
            words[i][1] = '\0';
        CHECKF(dg_graph_hash(&g2) != h, "word %d", (int)i);
        words[i][0] = keep;
    }
    CHECK_EQ_U64(dg_graph_hash(&g2), h);
    /* order of the nodes is part of the graph (indices are what layouts report) */
    const char *swapped = "graph 1\nlevel room_distance=2\nnode b size=6x6\n"
                          "node a role=start size=3..5x4\nedge a b corridor length=2..4\n";
    dg_graph g3;
    CHECK(parse_str(swapped, &g3, &d) == DG_OK);
    CHECK(dg_graph_hash(&g3) != h);
    dg_graph_free(&g1);
    dg_graph_free(&g2);
    dg_graph_free(&g3);
}

/* ---- robustness ------------------------------------------------------------------------------ */

static size_t read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

TEST(graph_parse_every_prefix_and_failed_allocation)
{
    static char text[1 << 14];
    size_t len = read_file(EXAMPLES "zelda.txt", text, sizeof text);
    CHECKF(len > 0, "cannot read %s (run from the repository root)", EXAMPLES "zelda.txt");
    int ok = 0;
    for (size_t n = 0; n <= len && !test_failures(); n++)
    {
        hard_alloc h;
        hard_alloc_init(&h, 0);
        dg_graph g;
        dg_diag d;
        dg_status st = dg_graph_parse(text, n, "z", &h.hooks, &g, &d);
        CHECKF(st == DG_OK || st == DG_E_PARSE || st == DG_E_INVALID, "prefix %d: %d", (int)n,
               (int)st);
        CHECKF(st == DG_OK || (d.line >= 1 && d.column >= 1 && strncmp(d.message, "z:", 2) == 0
                               && graph_empty(&g)), "prefix %d: %s", (int)n, d.message);
        ok += st == DG_OK;
        dg_graph_free(&g);
        CHECK(hard_alloc_clean(&h));
    }
    CHECK(ok >= 1);
    for (int64_t fail = 1; fail <= 3; fail++)
    {
        hard_alloc h;
        hard_alloc_init(&h, fail);
        dg_graph g;
        dg_diag d;
        dg_status st = dg_graph_parse(text, len, "z", &h.hooks, &g, &d);
        CHECK(h.failed == 0 ? st == DG_OK : (st == DG_E_NOMEM && graph_empty(&g)));
        dg_graph_free(&g);
        CHECK(hard_alloc_clean(&h));
    }
}

TEST(graph_load_refuses_missing_and_huge_files)
{
    dg_graph g;
    dg_diag d;
    CHECK(dg_graph_load("no/such/graph.txt", NULL, &g, &d) == DG_E_INVALID && graph_empty(&g));
    CHECK(strstr(d.message, "no/such/graph.txt: cannot open") != NULL);
    FILE *probe = fopen("/dev/zero", "rb");
    if (probe)
    {
        fclose(probe);
        CHECK(dg_graph_load("/dev/zero", NULL, &g, &d) == DG_E_TOO_LARGE && graph_empty(&g));
    }
    CHECK(dg_graph_load(NULL, NULL, &g, &d) == DG_E_NULL);
    CHECK(dg_graph_load(EXAMPLES "hub.txt", NULL, NULL, &d) == DG_E_NULL);
    CHECK(dg_graph_parse(NULL, 3, "x", NULL, &g, &d) == DG_E_NULL && graph_empty(&g));
    CHECK(dg_graph_parse("graph 1", 7, "x", NULL, NULL, &d) == DG_E_NULL);
}

/* ---- the fuzz corpus, through the fuzz target's checks --------------------------------------- */

#define CORPUS "tests/fuzz/corpus/graph"

TEST(graph_fuzz_corpus_replays_clean)
{
    DIR *dir = opendir(CORPUS);
    CHECKF(dir != NULL, "cannot open %s (tests run from the repository root)", CORPUS);
    if (!dir)
        return;
    int count = 0;
    static char text[1 << 16];
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
    {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
        size_t len = read_file(path, text, sizeof text);
        count++;
        /* whole and cut at a few lengths, each from an exact-size heap copy */
        for (size_t cut = 0; cut < 8; cut++)
        {
            size_t n = cut == 0 ? len : len * cut / 8;
            uint8_t *copy = malloc(n ? n : 1);
            if (!copy)
                continue;
            memcpy(copy, text, n);
            const char *bad = fuzz_graph_run(copy, n);
            CHECKF(bad == NULL, "%s cut at %d: %s", path, (int)n, bad);
            free(copy);
        }
    }
    closedir(dir);
    CHECK(count >= 10);
}

TEST(graph_docs_c_example_checks)
{
    /* the example of docs/graph.md, section 3, as written there */
    dg_graph_node nodes[3] = {0};
    dg_graph_edge edges[2] = {0};
    strcpy(nodes[0].name, "start");  strcpy(nodes[0].role, "start");
    nodes[0].width_min = 4; nodes[0].width_max = 6;
    nodes[0].height_min = 4; nodes[0].height_max = 5;
    strcpy(nodes[1].name, "hall");   strcpy(nodes[1].role, "hub");
    nodes[1].width_min = 8; nodes[1].width_max = 12;
    nodes[1].height_min = 6; nodes[1].height_max = 8;
    strcpy(nodes[2].name, "vault");  strcpy(nodes[2].role, "treasure");
    nodes[2].width_min = nodes[2].width_max = 4;
    nodes[2].height_min = nodes[2].height_max = 4;
    edges[0] = (dg_graph_edge){.a = 0, .b = 1, .kind = DG_EDGE_CORRIDOR,
                               .length_min = 2, .length_max = 6, .key_node = -1};
    edges[1] = (dg_graph_edge){.a = 1, .b = 2, .kind = DG_EDGE_DOOR,
                               .lock = 1, .key_node = 0};
    dg_graph g;
    dg_graph_init(&g);
    g.nodes = nodes; g.node_count = 3;
    g.edges = edges; g.edge_count = 2;
    g.room_distance = 2;
    dg_diag diag;
    CHECKF(dg_graph_check(&g, &diag) == DG_OK, "%s", diag.message);
    edges[1].key_node = -1;
    CHECK(dg_graph_check(&g, &diag) == DG_E_INVALID &&
          strcmp(diag.message, "edge hall-vault: lock 1's key node -1 is not a node") == 0);
}

/* ---- dg_graph_load and its `prefabs` line ----------------------------------------------------- */

#define LOAD_DIR "build/graph-load-test"

/* Writes text to LOAD_DIR/name and loads it. */
static dg_status load_text(const char *name, const char *text, dg_graph *g, dg_diag *d)
{
    char path[256];
#ifdef _WIN32
    _mkdir("build");
    _mkdir(LOAD_DIR);
#else
    mkdir("build", 0777);
    mkdir(LOAD_DIR, 0777);
#endif
    snprintf(path, sizeof path, LOAD_DIR "/%s", name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return DG_E_LIMIT; /* not run from the source tree: the CHECKs below say so */
    fputs(text, f);
    fclose(f);
    return dg_graph_load(path, NULL, g, d);
}

TEST(graph_load_prefabs_line)
{
    static const struct {
        const char *text;
        dg_status status;
        int32_t line, col;
        const char *message;
    } cases[] = {
        {"graph 1\nprefabs ../../examples/prefabs/vaults.txt\nnode a size=3x3\nnode v "
         "templates=treasury\nedge a v\n", DG_OK, 0, 0, ""},
        {"graph 1\nprefabs ../../examples/prefabs/vaults.txt\nnode a size=3x3\nnode v "
         "templates=nothing\nedge a v\n", DG_E_INVALID, 4, 6,
         "node v: no prefab is named or tagged \"nothing\""},
        {"graph 1\nprefabs missing.txt\nnode a size=3x3\n", DG_E_INVALID, 2, 9,
         "prefabs: " LOAD_DIR "/missing.txt: cannot open file"},
        {"graph 1\nprefabs broken.txt\nnode a size=3x3\n", DG_E_PARSE, 2, 9,
         "prefabs: " LOAD_DIR "/broken.txt:1:1: expected 'prefabs 1'"},
        {"graph 1\nprefabs a.txt\nprefabs b.txt\n", DG_E_PARSE, 3, 1,
         "'prefabs' given twice (first at line 2)"},
        {"graph 1\nprefabs a.txt b.txt\n", DG_E_PARSE, 2, 1, "expected 'prefabs FILE'"},
        {"graph 1\nprefabs\n", DG_E_PARSE, 2, 1, "expected 'prefabs FILE'"},
    };
    dg_graph g;
    dg_diag d;
    CHECK(load_text("broken.txt", "not a prefab file\n", &g, &d) != DG_E_LIMIT);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        dg_status st = load_text("level.txt", cases[i].text, &g, &d);
        CHECKF(st == cases[i].status, "case %d: %d (%s)", (int)i, (int)st, d.message);
        if (st != DG_OK)
        {
            char want[64];
            snprintf(want, sizeof want, LOAD_DIR "/level.txt:%d:%d: ", (int)cases[i].line,
                     (int)cases[i].col);
            CHECKF(strncmp(d.message, want, strlen(want)) == 0 &&
                       strstr(d.message, cases[i].message),
                   "case %d: \"%s\" wants \"%s%s\"", (int)i, d.message, want, cases[i].message);
            CHECKF(graph_empty(&g), "case %d: the graph is not left empty", (int)i);
            continue;
        }
        CHECK(g.prefabs != NULL && dg_graph_check(&g, &d) == DG_OK);
        dg_graph_free(&g); /* releases the set it read */
        CHECK(graph_empty(&g));
    }
}

TEST(graph_parse_counts_at_their_limits)
{
    static char text[1 << 15];
    size_t n = (size_t)snprintf(text, sizeof text, "graph 1\n");
    for (int i = 0; i <= DG_GRAPH_NODES_MAX; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "node n%d size=3x3\n", i);
    dg_graph g;
    dg_diag d;
    CHECK(dg_graph_parse(text, n, "t", NULL, &g, &d) == DG_E_PARSE && d.line == 2 + 64 &&
          strstr(d.message, "more than 64 nodes"));
    /* 64 nodes in a path parse; 257 edges do not */
    n = (size_t)snprintf(text, sizeof text, "graph 1\n");
    for (int i = 0; i < DG_GRAPH_NODES_MAX; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "node n%d size=3x3\n", i);
    size_t nodes_end = n;
    for (int i = 0; i + 1 < DG_GRAPH_NODES_MAX; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "edge n%d n%d\n", i, i + 1);
    CHECKF(dg_graph_parse(text, n, "t", NULL, &g, &d) == DG_OK, "%s", d.message);
    CHECK(g.node_count == 64 && g.edge_count == 63);
    dg_graph_free(&g);
    n = nodes_end;
    for (int i = 0; i <= DG_GRAPH_EDGES_MAX; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "edge n%d n%d\n", i % 64, (i + 1) % 64);
    CHECK(dg_graph_parse(text, n, "t", NULL, &g, &d) == DG_E_PARSE && d.line == 2 + 64 + 256 &&
          strstr(d.message, "more than 256 edges"));
    CHECK(graph_empty(&g));
}

/* ---- room shapes of template rooms ------------------------------------------------------- */

static int32_t count_text(const char *text, const char *word)
{
    int32_t k = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        k++;
    return k;
}

/* A template room's floor is the prefab's, not its rect: it says DG_SHAPE_PREFAB,
 * a size-range room DG_SHAPE_RECT, and JSON and Tiled name both. */
TEST(graph_template_rooms_report_shape_prefab)
{
    dg_graph g;
    dg_diag d;
    CHECKF(dg_graph_load(EXAMPLES "templates.txt", NULL, &g, &d) == DG_OK, "%s", d.message);
    if (!g.prefabs)
        return;
    enum { W = 80, H = 50 };
    static uint8_t cells[W * H];
    static char text[1 << 18];
    int32_t templated = 0;
    for (uint64_t seed = 1; seed <= 4; seed++)
    {
        dg_grid grid;
        dg_grid_init(&grid, cells, W, H, 0);
        dg_result r;
        dg_result_init(&r, NULL);
        CHECKF(dg_graph_generate(&grid, &g, seed, &r, NULL, &d) == DG_OK, "%s", d.message);
        int32_t prefab_rooms = 0;
        for (int32_t i = 0; i < r.room_count; i++)
        {
            int from_prefab = g.nodes[i].templates[0] != '\0';
            CHECK(r.rooms[i].kind == (from_prefab ? DG_ROOM_PREFAB : DG_ROOM_NORMAL));
            CHECK(r.rooms[i].shape == (from_prefab ? DG_SHAPE_PREFAB : DG_SHAPE_RECT));
            prefab_rooms += from_prefab;
        }
        templated += prefab_rooms;
        dg_export_options o;
        dg_export_defaults(&o);
        o.format = DG_EXPORT_JSON;
        CHECK(dg_export_buffer(&grid, &r, &o, text, sizeof text, NULL, &d) == DG_OK);
        CHECK(count_text(text, "\"shape\": \"prefab\"") == prefab_rooms);
        CHECK(count_text(text, "\"shape\": \"rect\"") == r.room_count - prefab_rooms);
        o.format = DG_EXPORT_TMJ;
        CHECK(dg_export_buffer(&grid, &r, &o, text, sizeof text, NULL, &d) == DG_OK);
        CHECK(count_text(text, "{\"name\": \"shape\", \"type\": \"string\", \"value\": \"prefab\"}") ==
              prefab_rooms);
        dg_result_free(&r);
    }
    CHECK(templated > 0);
    dg_graph_free(&g);
    /* every shape has a name of its own; a value past the last one is "other" */
    for (int32_t a = DG_SHAPE_RECT; a <= DG_SHAPE_PREFAB; a++)
    {
        CHECK(strcmp(dgi_room_shape_name(a), "other") != 0);
        for (int32_t b = DG_SHAPE_RECT; b < a; b++)
            CHECK(strcmp(dgi_room_shape_name(a), dgi_room_shape_name(b)) != 0);
    }
    CHECK(strcmp(dgi_room_shape_name(DG_SHAPE_PREFAB), "prefab") == 0);
    CHECK(strcmp(dgi_room_shape_name(DG_SHAPE_PREFAB + 1), "other") == 0);
}

/* No shape mask draws DG_SHAPE_PREFAB: attach's `shapes` ends at bit 6. */
TEST(graph_shape_prefab_is_never_drawn)
{
    dg_recipe r;
    CHECK(dg_recipe_init(&r, "attach", 1, 40, 30) == DG_OK);
    CHECK(dg_recipe_set(&r, "shapes", "128", NULL) == DG_E_INVALID);
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.shapes = 1 << DG_SHAPE_PREFAB;
    static uint8_t cells[40 * 30];
    dg_grid grid;
    dg_grid_init(&grid, cells, 40, 30, 0);
    dg_diag d;
    CHECK(dg_attach_generate(&grid, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECKF(strstr(d.message, "shapes"), "%s", d.message);
}
