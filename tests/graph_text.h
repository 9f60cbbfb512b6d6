/* A checked level graph written back in the text format (docs/graph-format.md):
 * the fuzz target's round trip, the graph tests and `bench graph text:`. */
#ifndef DG_GRAPH_TEXT_H
#define DG_GRAPH_TEXT_H

#include "dungeon.h"

#include <stdarg.h>
#include <stdio.h>

static size_t graph_put(char *out, size_t cap, size_t at, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static size_t graph_put(char *out, size_t cap, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = at < cap ? vsnprintf(out + at, cap - at, fmt, ap) : 0;
    va_end(ap);
    return at + (size_t)(k > 0 ? k : 0);
}

/* Writes a checked graph in the text format; the length it needs (output cut
 * at cap). */
static size_t graph_write(const dg_graph *g, char *out, size_t cap)
{
    size_t n = graph_put(out, cap, 0, "graph 1\nlevel room_distance=%d corridor_width=%d "
                   "extra_connections=%d max_attempts=%d\n", (int)g->room_distance,
                   (int)g->corridor_width, (int)g->extra_connections, (int)g->max_attempts);
    for (int32_t i = 0; i < g->node_count; i++)
    {
        const dg_graph_node *x = &g->nodes[i];
        n = graph_put(out, cap, n, "node %s", x->name);
        if (x->role[0])
            n = graph_put(out, cap, n, " role=%s", x->role);
        if (x->templates[0])
            n = graph_put(out, cap, n, " templates=%s\n", x->templates);
        else
            n = graph_put(out, cap, n, " size=%d..%dx%d..%d\n", (int)x->width_min, (int)x->width_max,
                    (int)x->height_min, (int)x->height_max);
    }
    for (int32_t e = 0; e < g->edge_count; e++)
    {
        const dg_graph_edge *x = &g->edges[e];
        n = graph_put(out, cap, n, "edge %s %s", g->nodes[x->a].name, g->nodes[x->b].name);
        if (x->kind == DG_EDGE_CORRIDOR)
            n = graph_put(out, cap, n, " corridor length=%d..%d", (int)x->length_min, (int)x->length_max);
        if (x->lock)
            n = graph_put(out, cap, n, " lock=%d key=%s", (int)x->lock, g->nodes[x->key_node].name);
        n = graph_put(out, cap, n, "%s\n", x->secret ? " secret" : "");
    }
    return n;
}

#endif
