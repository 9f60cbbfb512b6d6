/* Hardening entry of the graph generator (hard_gens[] in tests/hard.c). Its
 * input is a level graph, not a params struct: each run parses one from text
 * through the caller's allocator (so a refused allocation is met in the parse
 * as well as in the layout), then lays it out. Fuzz bytes pick raw text,
 * a sample cut short, a graph built in C with hostile fields, or no graph. */
#include "hard.h"

#include <stdio.h>
#include <string.h>

/* 0: a loop with a lock and its key, two of its rooms templates (a
 * four-door hall and a corner room of hard_prefab_text); 1: a hub of corridors, two wide, with a
 * secret room, rooms touching; 2: twelve rooms joined by doors only, two
 * cycles, far apart. */
static const char *const samples[] = {
    "graph 1\nlevel room_distance=1\n"
    "node court role=start size=6..9x5..7\nnode gallery templates=cross4\n"
    "node cellar role=key templates=bend\nnode well size=4..6x4..6\n"
    "node vault role=treasure size=4..6x4..5\nnode tower role=exit size=3..4x3..4\n"
    "edge court gallery corridor length=2..5\nedge gallery cellar door\n"
    "edge cellar well corridor length=2..6\nedge well vault door\n"
    "edge vault court corridor length=2..5 lock=1 key=cellar\n"
    "edge well tower corridor length=2..4\n",

    "graph 1\nlevel room_distance=0 corridor_width=2\n"
    "node hall role=hub size=8..10x6..8\nnode gate role=start size=4..5x4..5\n"
    "node shop role=shop size=3..5x3..4\nnode barracks size=5..7x4..6\n"
    "node library size=5..7x5..6\nnode hidden role=secret size=3x3\n"
    "node chapel size=4..6x4..6\nnode boss role=boss size=6..8x5..7\n"
    "edge gate hall corridor length=2..4\nedge hall shop door\n"
    "edge hall barracks corridor length=1..5\nedge hall library corridor length=2..6\n"
    "edge library hidden door secret\nedge hall chapel door\n"
    "edge chapel boss corridor length=2..5\n",

    "graph 1\nlevel room_distance=2\n"
    "node a role=start size=3..5x3..5\nnode b size=3..5x3..5\nnode c size=3..5x3..5\n"
    "node d size=3..5x3..5\nnode e size=3..5x3..5\nnode f size=3..5x3..5\n"
    "node g size=3..5x3..5\nnode h size=3..5x3..5\nnode i size=3..5x3..5\n"
    "node j size=3..5x3..5\nnode k size=3..5x3..5\nnode l role=exit size=3..5x3..5\n"
    "edge a b\nedge b c\nedge c d\nedge d a\nedge c e\nedge e f\nedge f g\nedge g h\n"
    "edge h e\nedge g i\nedge i j\nedge j k\nedge k l\n",
};
#define SAMPLES (int)(sizeof samples / sizeof samples[0])

/* The room templates every parsed graph gets as its prefab set. */
static const char hard_prefab_text[] =
    "prefabs 1\n"
    "prefab cross4\n  tags room\nmap\n"
    "###+###\n#.....#\n#.#.#.#\n+.....+\n#.#.#.#\n#.....#\n###+###\nend\n"
    "prefab bend\n  tags room\nmap\n"
    "##+###\n#....#\n#....+\n#....#\n######\nend\n";

/* Parses text[0..length) and the template set through alloc and lays the
 * graph out with those templates; the graph and the set are freed. */
static dg_status parse_and_lay_out(const char *text, size_t length, dg_grid *grid, uint64_t seed,
                                   dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                                   uint64_t *hash)
{
    dg_graph g;
    dg_prefab_set *set = NULL;
    dg_status st = dg_graph_parse(text, length, "hard", alloc, &g, diag);
    if (hash)
        *hash = 0;
    if (st == DG_OK)
    {
        st = dg_prefab_parse(hard_prefab_text, sizeof hard_prefab_text - 1, "hard", alloc, NULL,
                             NULL, &set, diag);
        g.prefabs = set;
    }
    if (st == DG_OK && hash)
        *hash = dg_graph_hash(&g);
    if (st == DG_OK)
        st = dg_graph_generate(grid, &g, seed, result, alloc, diag);
    if (set)
        g.prefabs = NULL;
    dg_graph_free(&g);
    dg_prefab_set_free(set);
    return st;
}

/* The last check before drawing refuses a layout off the grid: a defect of
 * the search, which every harness must report rather than accept. */
static dg_status no_defect(dg_status st, const dg_diag *diag)
{
    return st == DG_E_NOSPACE && diag && strstr(diag->message, "a defect of the search")
               ? HARD_E_DEFECT
               : st;
}

dg_status hard_graph_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                         dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                         uint64_t *extra)
{
    (void)ctx;
    const char *text = samples[variant % SAMPLES];
    return no_defect(parse_and_lay_out(text, strlen(text), grid, seed, result, alloc, diag, extra),
                     diag);
}

/* A graph built in C from fuzz bytes: mostly a tree with a few chords, but
 * any field may be hostile (counts out of range, rooms too big for any grid,
 * edges to no node, locks without keys); about one node in eight is a
 * template room (a word of the set, or one it lacks). */
static dg_status built_graph(hard_input *in, dg_grid *grid, uint64_t seed, dg_result *result,
                             const dg_allocator *alloc, dg_diag *diag)
{
    static const char *const roles[] = {"", "start", "exit", "boss", "key", "secret", "hub"};
    dg_graph_node nodes[DG_GRAPH_NODES_MAX];
    dg_graph_edge edges[DG_GRAPH_EDGES_MAX];
    memset(nodes, 0, sizeof nodes);
    memset(edges, 0, sizeof edges);
    dg_graph g;
    dg_graph_init(&g);
    g.nodes = hard_u8(in) == 0xFF ? NULL : nodes;
    g.edges = hard_u8(in) == 0xFF ? NULL : edges;
    g.node_count = hard_param(in, 1, DG_GRAPH_NODES_MAX);
    g.edge_count = hard_param(in, 0, 3 * DG_GRAPH_NODES_MAX - 6);
    g.room_distance = hard_param(in, 0, 4);
    g.corridor_width = hard_param(in, 1, 3);
    g.extra_connections = hard_param(in, 0, 1);
    int32_t n = g.node_count < 1 ? 1 : g.node_count > DG_GRAPH_NODES_MAX ? DG_GRAPH_NODES_MAX
                                                                         : g.node_count;
    int32_t m = g.edge_count < 0 ? 0 : g.edge_count > DG_GRAPH_EDGES_MAX ? DG_GRAPH_EDGES_MAX
                                                                         : g.edge_count;
    for (int32_t i = 0; i < n; i++)
    {
        snprintf(nodes[i].name, DG_NAME_MAX, "n%d", (int)i);
        snprintf(nodes[i].role, DG_NAME_MAX, "%s", roles[hard_u8(in) % 7]);
        nodes[i].width_min = hard_param(in, 1, 12);
        nodes[i].width_max = hard_param(in, 1, 16);
        nodes[i].height_min = hard_param(in, 1, 12);
        nodes[i].height_max = hard_param(in, 1, 16);
        if (hard_u8(in) % 8 == 0)
        {
            static const char *const words[] = {"room", "cross4", "bend", "none"};
            snprintf(nodes[i].templates, DG_NAME_MAX, "%s", words[hard_u8(in) % 4]);
            nodes[i].width_min = nodes[i].width_max = nodes[i].height_min = nodes[i].height_max = 0;
        }
    }
    for (int32_t e = 0; e < m; e++)
    {
        dg_graph_edge *x = &edges[e];
        uint8_t how = hard_u8(in);
        /* edge e < n - 1 hangs node e + 1 on an earlier node: a tree, then chords */
        x->a = e + 1 < n && how < 224 ? e + 1 : hard_param(in, 0, n - 1);
        x->b = e + 1 < n && how < 224 ? (int32_t)(hard_u8(in) % (e + 1))
                                      : hard_param(in, 0, n - 1);
        x->kind = hard_u8(in) & 1 ? DG_EDGE_CORRIDOR : DG_EDGE_DOOR;
        if (how >= 240)
            x->kind = hard_param(in, 0, 1);
        x->length_min = x->kind == DG_EDGE_CORRIDOR ? hard_param(in, 1, 8) : 0;
        x->length_max = x->kind == DG_EDGE_CORRIDOR ? hard_param(in, 1, 12) : 0;
        x->key_node = -1;
        if (how % 16 == 1)
            x->lock = hard_param(in, 1, 3), x->key_node = hard_param(in, 0, n - 1);
        if (how % 16 == 2)
            x->secret = 1;
    }
    dg_prefab_set *set = NULL;
    if (hard_u8(in) != 0xFF) /* else templates meet a graph without prefabs */
        dg_prefab_parse(hard_prefab_text, sizeof hard_prefab_text - 1, "hard", alloc, NULL, NULL,
                        &set, NULL);
    g.prefabs = set;
    dg_status st = dg_graph_generate(grid, hard_u8(in) == 0xFF ? NULL : &g, seed, result, alloc, diag);
    dg_prefab_set_free(set);
    return st;
}

static dg_status fuzz_modes(hard_input *in, dg_grid *grid, uint64_t seed, dg_result *result,
                            const dg_allocator *alloc, dg_diag *diag)
{
    uint8_t mode = hard_u8(in) % 4;
    if (mode == 0) /* the rest of the input is the graph text, exactly its size */
    {
        size_t rest = in->pos < in->size ? in->size - in->pos : 0;
        const char *text = (const char *)in->data + (in->size - rest);
        in->pos = in->size;
        return parse_and_lay_out(rest ? text : NULL, rest, grid, seed, result, alloc, diag, NULL);
    }
    if (mode == 1) /* a sample cut short anywhere */
    {
        const char *text = samples[hard_u8(in) % SAMPLES];
        size_t length = strlen(text);
        size_t cut = (size_t)(hard_u8(in) | hard_u8(in) << 8) % (length + 1);
        return parse_and_lay_out(text, cut, grid, seed, result, alloc, diag, NULL);
    }
    if (mode == 2)
        return built_graph(in, grid, seed, result, alloc, diag);
    return dg_graph_generate(grid, NULL, seed, result, alloc, diag);
}

dg_status hard_graph_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                          dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                          hard_fuzz_out *out)
{
    (void)ctx;
    out->work_bound = -1; /* the layout's work is bounded by its own counts */
    return no_defect(fuzz_modes(in, grid, seed, result, alloc, diag), diag);
}

dg_status hard_graph_call(dg_grid *grid, uint64_t seed, dg_result *result,
                          const dg_allocator *alloc, dg_diag *diag)
{
    return hard_graph_run(NULL, 0, grid, seed, result, alloc, diag, NULL);
}
