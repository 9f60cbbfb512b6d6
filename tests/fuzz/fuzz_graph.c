/* Fuzz target: the level graph text format (docs/graph-format.md). The corpus
 * in tests/fuzz/corpus/graph/ holds the example graphs and broken ones.
 * Whatever the bytes, dg_graph_parse must return OK, DG_E_PARSE or
 * DG_E_INVALID with a "fuzz:line:col:" message and an empty graph, never read
 * past the input (an exact-size buffer), and free every block with its own
 * size; a graph that parsed must pass dg_graph_check, hash the same twice,
 * and come back unchanged through the format (written by graph_write, parsed
 * again); a refused allocation gives DG_E_NOMEM and an empty graph. Any
 * violation aborts with a message. tests/test_graph.c replays the corpus. */
#include "graph_text.h"
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if two graphs hold the same fields (the arrays compared bytewise). */
static int same_graph(const dg_graph *a, const dg_graph *b)
{
    return a->node_count == b->node_count && a->edge_count == b->edge_count &&
           a->room_distance == b->room_distance && a->corridor_width == b->corridor_width &&
           a->extra_connections == b->extra_connections && a->max_attempts == b->max_attempts &&
           memcmp(a->nodes, b->nodes, (size_t)a->node_count * sizeof *a->nodes) == 0 &&
           (a->edge_count == 0 ||
            memcmp(a->edges, b->edges, (size_t)a->edge_count * sizeof *a->edges) == 0);
}

static int graph_empty(const dg_graph *g)
{
    dg_graph z;
    dg_graph_init(&z);
    return memcmp(g, &z, sizeof z) == 0;
}

/* A parsed graph's invariants; NULL if they hold. */
static const char *check_parsed(const dg_graph *g)
{
    static char text[1 << 16];
    if (dg_graph_check(g, NULL) != DG_OK)
        return "a parsed graph fails dg_graph_check";
    uint64_t h = dg_graph_hash(g);
    if (h == 0 || h != dg_graph_hash(g))
        return "the hash is 0 or unstable";
    size_t n = graph_write(g, text, sizeof text);
    if (n >= sizeof text)
        return "a parsed graph writes over 64 KiB";
    dg_graph again;
    dg_diag d;
    const char *bad = NULL;
    if (dg_graph_parse(text, n, "again", NULL, &again, &d) != DG_OK)
        bad = "the written graph does not parse";
    else if (!same_graph(g, &again) || dg_graph_hash(&again) != h)
        bad = "the written graph parses to another graph";
    dg_graph_free(&again);
    return bad;
}

/* The whole target; NULL if every invariant held. */
static const char *fuzz_graph_run(const uint8_t *data, size_t size)
{
    const char *bad = NULL;
    for (int64_t fail = 0; fail <= 2 && !bad; fail++)
    {
        hard_alloc h;
        hard_alloc_init(&h, fail);
        dg_graph g;
        memset(&g, 0x5A, sizeof g);
        dg_diag d;
        dg_status st = dg_graph_parse((const char *)data, size, "fuzz", &h.hooks, &g, &d);
        if (st != DG_OK && !graph_empty(&g))
            bad = "a failed parse left the graph filled";
        else if (h.failed && st != DG_E_NOMEM)
            bad = "a refused allocation did not give DG_E_NOMEM";
        else if (st != DG_OK && st != DG_E_PARSE && st != DG_E_INVALID && st != DG_E_NOMEM)
            bad = "parse returned an undocumented status";
        else if ((st == DG_E_PARSE || st == DG_E_INVALID) &&
                 (d.status != st || d.line < 1 || d.column < 1 ||
                  strncmp(d.message, "fuzz:", 5) != 0))
            bad = "a parse error badly reported";
        else if (st == DG_OK && fail == 0)
            bad = check_parsed(&g);
        dg_graph_free(&g);
        if (!bad && !hard_alloc_clean(&h))
            bad = "parse leaked a block or freed one with the wrong size";
    }
    return bad;
}

#ifndef FUZZ_GRAPH_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bad = fuzz_graph_run(data, size);
    if (bad)
    {
        fprintf(stderr, "fuzz_graph: %s\n", bad);
        abort();
    }
    return 0;
}
#endif
