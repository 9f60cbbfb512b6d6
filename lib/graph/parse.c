/* The level graph text format (docs/graph-format.md): one pass over a buffer
 * that need not be NUL-terminated into fixed tables (a graph is small), names
 * resolved at the end so edges may name later nodes, then dg_graph_check's
 * rules with every refusal placed at the node's or edge's line. The first
 * error stops the parse and is the one reported, as name:line:col. */
#include "graph/graph.h"

#include <stdio.h>

#define MAX_TOKENS 16
#define GRAPH_FILE_MAX ((size_t)1 << 20)

typedef struct token {
    const char *s;
    int32_t n, col;
} token;

typedef struct place {
    int32_t line, col;
} place;

typedef struct edge_names {
    token a, b, key; /* key.n 0: no key= */
    place key_at;
} edge_names;

typedef struct parser {
    dgi_text_lines in;   /* the input, and the number of the line being read */
    dgi_text_errors err; /* the source's name and the first error, the only one kept */
    int loading;      /* 1: dg_graph_load, which may read a `prefabs` file */
    int seen_magic, seen_level;
    place level_at, prefabs_at;
    char prefabs_file[256];
    token tok[MAX_TOKENS];
    int32_t ntok;
    dg_graph g; /* nodes and edges point into the tables below */
    dg_graph_node nodes[DG_GRAPH_NODES_MAX];
    dg_graph_edge edges[DG_GRAPH_EDGES_MAX];
    place node_at[DG_GRAPH_NODES_MAX], edge_at[DG_GRAPH_EDGES_MAX];
    edge_names names[DG_GRAPH_EDGES_MAX];
    char text[DG_GRAPH_EDGES_MAX][3][DG_NAME_MAX]; /* the edges' words, kept past their line */
} parser;

/* ---- errors ---------------------------------------------------------------- */

/* A syntax error at token t of the current line. */
#define PERR(ps, t, ...) dgi_text_error(&(ps)->err, DG_E_PARSE, (ps)->in.line, (t)->col, __VA_ARGS__)

/* A token for messages: bounded, printable. */
static const char *tok_str(const token *t, char *buf, size_t size)
{
    return dgi_printable(t->s, t->n, buf, size);
}

/* ---- words ----------------------------------------------------------------- */

static int tok_is(const token *t, const char *word)
{
    size_t n = strlen(word);
    return (size_t)t->n == n && memcmp(t->s, word, n) == 0;
}

/* Splits the line into words; '#' at a word's start begins a comment. */
static int tokenize(parser *ps, const char *l, int32_t n)
{
    int32_t i = 0;
    ps->ntok = 0;
    for (;;)
    {
        while (i < n && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i == n || l[i] == '#')
            return 1;
        int32_t start = i;
        while (i < n && (uint8_t)(l[i] - 0x21) < 0x5E)
            i++;
        if (i < n && l[i] != ' ' && l[i] != '\t')
        {
            uint8_t c = (uint8_t)l[i];
            dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line, i + 1,
                           c >= 0x80 ? "non-ASCII byte 0x%02X outside a comment"
                                     : "control byte 0x%02X", c);
            return 0;
        }
        if (ps->ntok == MAX_TOKENS)
        {
            dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line, start + 1,
                           "more than %d words on one line", MAX_TOKENS);
            return 0;
        }
        token *t = &ps->tok[ps->ntok++];
        t->s = l + start;
        t->n = i - start;
        t->col = start + 1;
    }
}

/* Checks a name-like word and copies it to out (DG_NAME_MAX bytes). */
static int take_name(parser *ps, const token *t, const char *what, char *out)
{
    if (t->n >= DG_NAME_MAX)
    {
        PERR(ps, t, "%s is longer than %d characters", what, DG_NAME_MAX - 1);
        return 0;
    }
    for (int32_t i = 0; i < t->n; i++)
        if (!dgi_name_char((uint8_t)t->s[i]))
        {
            dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line, t->col + i,
                           "invalid character in %s (allowed: letters, digits, '_', '.', '-')",
                           what);
            return 0;
        }
    if (t->n == 0)
    {
        PERR(ps, t, "%s is empty", what);
        return 0;
    }
    memcpy(out, t->s, (size_t)t->n);
    out[t->n] = '\0';
    return 1;
}

/* "N" or "N..M" in s[0..n). */
static int parse_range(const char *s, int32_t n, int32_t *lo, int32_t *hi)
{
    for (int32_t i = 0; i + 1 < n; i++)
        if (s[i] == '.' && s[i + 1] == '.')
            return dgi_parse_uint(s, i, lo) && dgi_parse_uint(s + i + 2, n - i - 2, hi);
    if (!dgi_parse_uint(s, n, lo))
        return 0;
    *hi = *lo;
    return 1;
}

/* A key=value word: *value gets what follows '=' (n 0 when there is no '='). */
static void split_key(const token *t, token *key, token *value)
{
    *key = *t;
    value->s = t->s + t->n;
    value->n = 0;
    value->col = t->col + t->n;
    for (int32_t i = 0; i < t->n; i++)
        if (t->s[i] == '=')
        {
            key->n = i;
            value->s = t->s + i + 1;
            value->n = t->n - i - 1;
            value->col = t->col + i + 1;
            return;
        }
}

static int take_number(parser *ps, const token *v, const char *key, int32_t lo, int32_t hi,
                       int32_t *out)
{
    char b[40];
    int32_t x;
    if (!dgi_parse_uint(v->s, v->n, &x) || x < lo || x > hi)
    {
        PERR(ps, v, "%s must be a number from %d to %d, got '%s'", key, (int)lo, (int)hi,
             tok_str(v, b, sizeof b));
        return 0;
    }
    *out = x;
    return 1;
}

static int take_range(parser *ps, const token *v, const char *key, int32_t max, int32_t *lo,
                      int32_t *hi)
{
    char b[40];
    if (!parse_range(v->s, v->n, lo, hi) || *lo < 1 || *hi > max || *lo > *hi)
    {
        PERR(ps, v, "%s must be N or MIN..MAX with 1 <= MIN <= MAX <= %d, got '%s'", key, (int)max,
             tok_str(v, b, sizeof b));
        return 0;
    }
    return 1;
}

/* A key given twice on one line: bit `bit` of *seen. */
static int once(parser *ps, const token *t, unsigned bit, unsigned *seen)
{
    char b[40];
    if (*seen & bit)
    {
        PERR(ps, t, "'%s' given twice", tok_str(t, b, sizeof b));
        return 0;
    }
    *seen |= bit;
    return 1;
}

/* The key=value word tok[i]; 0 (reported) if it has no value. */
static int key_value(parser *ps, int32_t i, token *key, token *value)
{
    char b[40];
    split_key(&ps->tok[i], key, value);
    if (key->n == ps->tok[i].n || value->n == 0)
    {
        PERR(ps, &ps->tok[i], "expected KEY=VALUE, got '%s'", tok_str(&ps->tok[i], b, sizeof b));
        return 0;
    }
    return 1;
}

/* ---- lines ----------------------------------------------------------------- */

static void level_line(parser *ps)
{
    char b[40];
    if (ps->seen_level)
    {
        PERR(ps, &ps->tok[0], "'level' given twice (first at line %d)", (int)ps->level_at.line);
        return;
    }
    ps->seen_level = 1;
    ps->level_at = (place){ps->in.line, ps->tok[0].col};
    unsigned seen = 0;
    for (int32_t i = 1; i < ps->ntok && ps->err.status == DG_OK; i++)
    {
        token k, v;
        if (!key_value(ps, i, &k, &v))
            return;
        if (tok_is(&k, "room_distance") && once(ps, &k, 1, &seen))
            take_number(ps, &v, "room_distance", 0, 4, &ps->g.room_distance);
        else if (tok_is(&k, "corridor_width") && once(ps, &k, 2, &seen))
            take_number(ps, &v, "corridor_width", 1, 3, &ps->g.corridor_width);
        else if (tok_is(&k, "extra_connections") && once(ps, &k, 4, &seen))
            take_number(ps, &v, "extra_connections", 0, 1, &ps->g.extra_connections);
        else if (tok_is(&k, "max_attempts") && once(ps, &k, 8, &seen))
            take_number(ps, &v, "max_attempts", 0, DGI_GRAPH_ATTEMPTS_MAX, &ps->g.max_attempts);
        else if (ps->err.status == DG_OK)
            PERR(ps, &k, "unknown level key '%s' (expected room_distance, corridor_width, "
                 "extra_connections, max_attempts)", tok_str(&k, b, sizeof b));
    }
}

static void prefabs_line(parser *ps)
{
    const token *t = &ps->tok[0];
    if (!ps->loading)
    {
        PERR(ps, t, "'prefabs' names a file, which only dg_graph_load reads (with "
             "dg_graph_parse, set graph->prefabs)");
        return;
    }
    if (ps->prefabs_file[0])
    {
        PERR(ps, t, "'prefabs' given twice (first at line %d)", (int)ps->prefabs_at.line);
        return;
    }
    if (ps->ntok != 2 || ps->tok[1].n >= (int32_t)sizeof ps->prefabs_file)
    {
        PERR(ps, t, "expected 'prefabs FILE' (one word of at most %d characters)",
             (int)sizeof ps->prefabs_file - 1);
        return;
    }
    memcpy(ps->prefabs_file, ps->tok[1].s, (size_t)ps->tok[1].n);
    ps->prefabs_file[ps->tok[1].n] = '\0';
    ps->prefabs_at = (place){ps->in.line, ps->tok[1].col};
}

/* size=W..WxH..H: the 'x' splits width from height. */
static int take_size(parser *ps, const token *v, dg_graph_node *n)
{
    char b[40];
    int32_t x = -1;
    for (int32_t i = 0; i < v->n; i++)
        if (v->s[i] == 'x')
            x = i;
    token w = {v->s, x, v->col}, h = {v->s + x + 1, v->n - x - 1, v->col + x + 1};
    if (x < 0)
    {
        PERR(ps, v, "size must be WIDTHxHEIGHT (each N or MIN..MAX), got '%s'",
             tok_str(v, b, sizeof b));
        return 0;
    }
    return take_range(ps, &w, "width", DGI_GRAPH_ROOM_MAX, &n->width_min, &n->width_max) &&
           take_range(ps, &h, "height", DGI_GRAPH_ROOM_MAX, &n->height_min, &n->height_max);
}

static int32_t find_node(const parser *ps, const token *t)
{
    for (int32_t i = 0; i < ps->g.node_count; i++)
        if ((int32_t)strlen(ps->nodes[i].name) == t->n && memcmp(ps->nodes[i].name, t->s, (size_t)t->n) == 0)
            return i;
    return -1;
}

static void node_keys(parser *ps, dg_graph_node *n)
{
    char b[40];
    unsigned seen = 0;
    for (int32_t i = 2; i < ps->ntok && ps->err.status == DG_OK; i++)
    {
        token k, v;
        if (!key_value(ps, i, &k, &v))
            return;
        if (tok_is(&k, "role") && once(ps, &k, 1, &seen))
            take_name(ps, &v, "role", n->role);
        else if (tok_is(&k, "size") && once(ps, &k, 2, &seen))
            take_size(ps, &v, n);
        else if (tok_is(&k, "templates") && once(ps, &k, 4, &seen))
            take_name(ps, &v, "templates", n->templates);
        else if (ps->err.status == DG_OK)
            PERR(ps, &k, "unknown node key '%s' (expected role, size, templates)",
                 tok_str(&k, b, sizeof b));
    }
    if (ps->err.status == DG_OK && (seen & 6) == 6)
        PERR(ps, &ps->tok[1], "node '%s' has both size= and templates= (a node is a rectangle "
             "or a template)", n->name);
    else if (ps->err.status == DG_OK && !(seen & 6))
        PERR(ps, &ps->tok[1], "node '%s' needs size=WIDTHxHEIGHT or templates=NAME", n->name);
}

static void node_line(parser *ps)
{
    if (ps->ntok < 2)
    {
        PERR(ps, &ps->tok[0], "expected 'node NAME [role=ROLE] size=WxH|templates=NAME'");
        return;
    }
    const token *name = &ps->tok[1];
    int32_t twin = find_node(ps, name);
    if (twin >= 0)
    {
        PERR(ps, name, "node '%s' is defined twice (first at line %d)", ps->nodes[twin].name,
             (int)ps->node_at[twin].line);
        return;
    }
    if (ps->g.node_count == DG_GRAPH_NODES_MAX)
    {
        PERR(ps, &ps->tok[0], "more than %d nodes", DG_GRAPH_NODES_MAX);
        return;
    }
    dg_graph_node *n = &ps->nodes[ps->g.node_count];
    memset(n, 0, sizeof *n);
    if (!take_name(ps, name, "node name", n->name))
        return;
    ps->node_at[ps->g.node_count++] = (place){ps->in.line, name->col};
    node_keys(ps, n);
}

/* Copies a word of this line into the edge's own storage (slot 0..2), so
 * the names can be resolved once every node is known. */
static token keep(parser *ps, int32_t e, int slot, const token *t)
{
    token k = *t;
    memcpy(ps->text[e][slot], t->s, (size_t)t->n);
    k.s = ps->text[e][slot];
    return k;
}

static void edge_words(parser *ps, int32_t e, dg_graph_edge *x)
{
    char b[40];
    unsigned seen = 0;
    place length_at = {0, 0}, lock_at = {0, 0};
    for (int32_t i = 3; i < ps->ntok && ps->err.status == DG_OK; i++)
    {
        const token *t = &ps->tok[i];
        token k, v;
        split_key(t, &k, &v);
        if (tok_is(t, "door") || tok_is(t, "corridor"))
        {
            int32_t kind = tok_is(t, "door") ? DG_EDGE_DOOR : DG_EDGE_CORRIDOR;
            if ((seen & 1) && kind != x->kind)
                PERR(ps, t, "an edge is a door or a corridor, not both");
            else if (once(ps, t, 1, &seen))
                x->kind = kind;
        }
        else if (tok_is(t, "secret") && once(ps, t, 2, &seen))
            x->secret = 1;
        else if (tok_is(&k, "length") && key_value(ps, i, &k, &v) && once(ps, &k, 4, &seen))
        {
            length_at = (place){ps->in.line, k.col};
            take_range(ps, &v, "length", DGI_GRAPH_CORRIDOR_MAX, &x->length_min, &x->length_max);
        }
        else if (tok_is(&k, "lock") && key_value(ps, i, &k, &v) && once(ps, &k, 8, &seen))
        {
            lock_at = (place){ps->in.line, k.col};
            take_number(ps, &v, "lock", 1, DG_LOCKS_MAX, &x->lock);
        }
        else if (tok_is(&k, "key") && key_value(ps, i, &k, &v) && once(ps, &k, 16, &seen))
        {
            if (v.n >= DG_NAME_MAX)
            {
                PERR(ps, &v, "key node name is longer than %d characters", DG_NAME_MAX - 1);
                return;
            }
            ps->names[e].key = keep(ps, e, 2, &v);
            ps->names[e].key_at = (place){ps->in.line, v.col};
        }
        else if (ps->err.status == DG_OK)
            PERR(ps, t, "unknown edge word '%s' (expected door, corridor, length=, lock=, key=, "
                 "secret)", tok_str(t, b, sizeof b));
    }
    if (ps->err.status != DG_OK)
        return;
    if (x->kind == DG_EDGE_CORRIDOR && !(seen & 4))
        PERR(ps, &ps->tok[0], "a corridor needs length=MIN..MAX");
    else if (x->kind == DG_EDGE_DOOR && (seen & 4))
        dgi_text_error(&ps->err, DG_E_PARSE, length_at.line, length_at.col,
                       "length= is for corridors (add 'corridor')");
    else if ((seen & 8) && !(seen & 16))
        dgi_text_error(&ps->err, DG_E_PARSE, lock_at.line, lock_at.col,
                       "lock= needs key=NODE (the node that holds the key)");
    else if ((seen & 16) && !(seen & 8))
        dgi_text_error(&ps->err, DG_E_PARSE, ps->names[e].key_at.line, ps->names[e].key_at.col,
                       "key= needs lock=N");
}

static void edge_line(parser *ps)
{
    if (ps->ntok < 3)
    {
        PERR(ps, &ps->tok[0], "expected 'edge NODE NODE [door|corridor length=N..M] [lock=N "
             "key=NODE] [secret]'");
        return;
    }
    if (ps->g.edge_count == DG_GRAPH_EDGES_MAX)
    {
        PERR(ps, &ps->tok[0], "more than %d edges", DG_GRAPH_EDGES_MAX);
        return;
    }
    for (int k = 1; k <= 2; k++)
        if (ps->tok[k].n >= DG_NAME_MAX)
        {
            PERR(ps, &ps->tok[k], "node name is longer than %d characters", DG_NAME_MAX - 1);
            return;
        }
    int32_t e = ps->g.edge_count++;
    dg_graph_edge *x = &ps->edges[e];
    memset(x, 0, sizeof *x);
    x->key_node = -1;
    memset(&ps->names[e], 0, sizeof ps->names[e]);
    ps->names[e].a = keep(ps, e, 0, &ps->tok[1]);
    ps->names[e].b = keep(ps, e, 1, &ps->tok[2]);
    ps->edge_at[e] = (place){ps->in.line, ps->tok[1].col};
    edge_words(ps, e, x);
}

static void line(parser *ps, const char *l, int32_t n)
{
    char b[40];
    if (!tokenize(ps, l, n) || ps->ntok == 0)
        return;
    const token *t = &ps->tok[0];
    if (!ps->seen_magic)
    {
        ps->seen_magic = 1;
        if (!tok_is(t, "graph"))
            PERR(ps, t, "expected 'graph 1' as the first line");
        else if (ps->ntok != 2 || !tok_is(&ps->tok[1], "1"))
            dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line,
                           ps->ntok > 1 ? ps->tok[1].col : t->col + 5,
                           "unsupported format version (expected 'graph 1')");
        return;
    }
    if (tok_is(t, "level"))
        level_line(ps);
    else if (tok_is(t, "prefabs"))
        prefabs_line(ps);
    else if (tok_is(t, "node"))
        node_line(ps);
    else if (tok_is(t, "edge"))
        edge_line(ps);
    else if (tok_is(t, "graph"))
        PERR(ps, t, "'graph' header repeated");
    else
        PERR(ps, t, "unknown keyword '%s' (expected level, prefabs, node or edge)",
             tok_str(t, b, sizeof b));
}

static void run(parser *ps)
{
    const char *start;
    size_t n;
    while (ps->err.status == DG_OK && (start = dgi_text_next_line(&ps->in, &n)) != NULL)
    {
        if (n > INT32_MAX / 2)
        {
            dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line, 1, "line longer than %d bytes",
                           INT32_MAX / 2);
            return;
        }
        line(ps, start, (int32_t)n);
    }
    if (ps->err.status != DG_OK)
        return;
    if (!ps->seen_magic)
        dgi_text_error(&ps->err, DG_E_PARSE, 1, 1, "expected 'graph 1' as the first line");
    else if (ps->g.node_count == 0)
        dgi_text_error(&ps->err, DG_E_PARSE, ps->in.line + 1, 1,
                       "the graph has no nodes (expected 'node NAME ...')");
}

/* ---- names, then the graph's rules ----------------------------------------------- */

static int32_t resolve(parser *ps, const token *t, place p)
{
    char b[40];
    int32_t i = find_node(ps, t);
    if (i < 0)
        dgi_text_error(&ps->err, DG_E_PARSE, p.line, p.col, "unknown node '%s'",
                       tok_str(t, b, sizeof b));
    return i;
}

static void resolve_edges(parser *ps)
{
    for (int32_t e = 0; e < ps->g.edge_count && ps->err.status == DG_OK; e++)
    {
        const edge_names *nm = &ps->names[e];
        place at = ps->edge_at[e];
        ps->edges[e].a = resolve(ps, &nm->a, at);
        at.col = nm->b.col;
        if (ps->err.status == DG_OK)
            ps->edges[e].b = resolve(ps, &nm->b, at);
        if (ps->err.status == DG_OK && nm->key.n)
            ps->edges[e].key_node = resolve(ps, &nm->key, nm->key_at);
    }
}

/* dg_graph_check's rules, the refusal placed at the node's or edge's line. */
static void check(parser *ps, int templates)
{
    dg_diag d = {0}; /* written on failure only */
    dgi_graph_fault f;
    if (dgi_graph_check(&ps->g, templates, &f, &d) == DG_OK)
        return;
    place p = f.node >= 0 ? ps->node_at[f.node]
              : f.edge >= 0 ? ps->edge_at[f.edge]
              : ps->seen_level ? ps->level_at
              : (place){1, 1};
    dgi_text_error(&ps->err, d.status, p.line, p.col, "%s", d.message);
}

/* Moves the tables into one exact block the graph owns. */
static dg_status publish(parser *ps, const dg_allocator *allocator, dg_prefab_set *prefabs,
                         dg_graph *graph, dg_diag *diag)
{
    int32_t nn = ps->g.node_count, ne = ps->g.edge_count;
    dgi_graph_block *block = dgi_alloc(allocator, dgi_graph_block_size(nn, ne));
    if (!block)
        return dgi_fail(diag, DG_E_NOMEM, "%s: out of memory for the graph", ps->err.source);
    block->prefabs = prefabs;
    dg_graph_node *nodes = (dg_graph_node *)(void *)(block + 1);
    dg_graph_edge *edges = (dg_graph_edge *)(void *)(nodes + nn);
    memcpy(nodes, ps->nodes, (size_t)nn * sizeof *nodes);
    if (ne)
        memcpy(edges, ps->edges, (size_t)ne * sizeof *edges);
    *graph = ps->g;
    graph->nodes = nodes;
    graph->edges = ne ? edges : NULL;
    graph->prefabs = prefabs;
    graph->capacity_[0] = nn;
    graph->capacity_[1] = ne;
    if (allocator && allocator->alloc)
        graph->allocator_ = *allocator;
    dgi_diag_ok(diag);
    return DG_OK;
}

/* The prefab file a graph names, relative to the graph file's folder. */
static dg_status load_prefabs(parser *ps, const char *graph_path, const dg_allocator *allocator,
                              dg_prefab_set **set)
{
    char path[1024];
    const char *slash = strrchr(graph_path, '/');
    int dir = ps->prefabs_file[0] == '/' || !slash ? 0 : (int)(slash - graph_path + 1);
    int k = snprintf(path, sizeof path, "%.*s%s", dir, graph_path, ps->prefabs_file);
    if (k < 0 || (size_t)k >= sizeof path)
    {
        place at = ps->prefabs_at;
        dgi_text_error(&ps->err, DG_E_INVALID, at.line, at.col, "prefab path too long");
        return ps->err.status;
    }
    dg_diag d;
    dg_status st = dg_prefab_load(path, allocator, NULL, NULL, set, &d);
    if (st != DG_OK)
        dgi_text_error(&ps->err, st, ps->prefabs_at.line, ps->prefabs_at.col, "prefabs: %s",
                       d.message);
    return st;
}

static dg_status parse(const char *text, size_t length, const char *source_name,
                       const dg_allocator *allocator, int loading, dg_graph *graph, dg_diag *diag)
{
    if (!graph)
        return dgi_fail(diag, DG_E_NULL, "graph_parse: graph is NULL");
    dg_graph_init(graph);
    if (!text && length > 0)
        return dgi_fail(diag, DG_E_NULL, "graph_parse: text is NULL");
    if (length > (size_t)INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE, "graph_parse: input over 2 GiB");
    parser *ps = dgi_alloc(allocator, sizeof *ps);
    if (!ps)
        return dgi_fail(diag, DG_E_NOMEM, "graph_parse: out of memory");
    memset(ps, 0, offsetof(parser, tok));
    ps->in = dgi_text_lines_of(text, length, DGI_TEXT_BOM | DGI_TEXT_CR);
    ps->err = (dgi_text_errors){.source = source_name ? source_name : "<input>", .diag = diag,
                                .max = 1};
    ps->loading = loading;
    dg_graph_init(&ps->g);
    ps->g.nodes = ps->nodes;
    ps->g.edges = ps->edges;
    run(ps);
    if (ps->err.status == DG_OK)
        resolve_edges(ps);
    dg_prefab_set *prefabs = NULL;
    if (ps->err.status == DG_OK && ps->prefabs_file[0])
        load_prefabs(ps, source_name ? source_name : "", allocator, &prefabs);
    ps->g.prefabs = prefabs;
    if (ps->err.status == DG_OK)
        check(ps, prefabs != NULL);
    dg_status st = ps->err.status;
    if (st == DG_OK)
        st = publish(ps, allocator, prefabs, graph, diag);
    if (st != DG_OK)
        dg_prefab_set_free(prefabs);
    dgi_free(allocator, ps, sizeof *ps);
    return st;
}

dg_status dg_graph_parse(const char *text, size_t length, const char *source_name,
                         const dg_allocator *allocator, dg_graph *graph, dg_diag *diag)
{
    return parse(text, length, source_name, allocator, 0, graph, diag);
}

dg_status dg_graph_load(const char *path, const dg_allocator *allocator, dg_graph *graph,
                        dg_diag *diag)
{
    if (!graph)
        return dgi_fail(diag, DG_E_NULL, "graph_load: graph is NULL");
    dg_graph_init(graph);
    if (!path)
        return dgi_fail(diag, DG_E_NULL, "graph_load: path is NULL");
    char *buf;
    size_t cap, len;
    dg_status st = dgi_read_file(path, GRAPH_FILE_MAX, "graph file", allocator, &buf, &cap, &len,
                                 diag);
    if (st == DG_OK)
        st = parse(buf, len, path, allocator, 1, graph, diag);
    dgi_free(allocator, buf, cap);
    return st;
}
