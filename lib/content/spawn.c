/* Spawn tables (docs/spawn-format.md): one entry per line, parsed in one pass
 * over a buffer that need not be NUL-terminated, every error reported as
 * name:line:col; loading, hashing and queries. */
#include "content/spawn.h"

#include <stdio.h>

#define MAX_TOKENS 32
#define MAX_WEIGHT 1000000
#define SPAWN_FILE_MAX ((size_t)16 << 20) /* bytes dg_spawn_load reads at most */

typedef struct token {
    const char *s;
    int32_t n, col;
} token;

typedef struct parser {
    dgi_text_lines in; /* the input, and the number of the line being read */
    dgi_text_errors err; /* the source's name, the errors so far and where they go */
    int seen_magic;
    const dg_allocator *a;
    dg_spawn_entry *entries;
    int32_t count, cap;
    token tok[MAX_TOKENS];
    int32_t ntok;
} parser;

/* A syntax error at column col of the current line. */
#define PERR(ps, col, ...) dgi_text_error(&(ps)->err, DG_E_PARSE, (ps)->in.line, (col), __VA_ARGS__)

/* ---- tokens ------------------------------------------------------------------ */

static int tok_is(const token *t, const char *word)
{
    size_t n = strlen(word);
    return (size_t)t->n == n && memcmp(t->s, word, n) == 0;
}

/* Splits the line into tokens at spaces and tabs; a token that starts with
 * '#' ends the line. A control byte is an error (0: the line is dropped). */
static int tokenize(parser *ps, const char *l, int32_t n)
{
    ps->ntok = 0;
    for (int32_t i = 0; i < n; i++)
    {
        unsigned char c = (unsigned char)l[i];
        if (c == ' ' || c == '\t')
            continue;
        if (c == '#')
            break;
        int32_t j = i;
        while (j < n && l[j] != ' ' && l[j] != '\t')
        {
            unsigned char b = (unsigned char)l[j];
            if (b < 0x20 || b == 0x7F)
            {
                PERR(ps, j + 1, "control byte 0x%02X", (unsigned)b);
                return 0;
            }
            j++;
        }
        if (ps->ntok == MAX_TOKENS)
        {
            PERR(ps, i + 1, "more than %d words on one line", MAX_TOKENS);
            return 0;
        }
        ps->tok[ps->ntok++] = (token){l + i, j - i, i + 1};
        i = j;
    }
    return 1;
}

/* N, N..M or N.. (hi -1: open) into lo and hi; 0 if malformed. */
static int range(const token *t, int32_t *lo, int32_t *hi, int open_ok)
{
    const char *dots = NULL;
    for (int32_t i = 0; i + 1 < t->n && !dots; i++)
        if (t->s[i] == '.' && t->s[i + 1] == '.')
            dots = t->s + i;
    if (!dots)
    {
        if (!dgi_parse_uint(t->s, t->n, lo))
            return 0;
        *hi = *lo;
        return 1;
    }
    int32_t left = (int32_t)(dots - t->s), right = t->n - left - 2;
    if (!dgi_parse_uint(t->s, left, lo))
        return 0;
    if (right == 0)
    {
        *hi = -1;
        return open_ok;
    }
    return dgi_parse_uint(dots + 2, right, hi);
}

static int copy_word(parser *ps, const token *t, char *out, const char *what)
{
    if (t->n >= DG_NAME_MAX)
    {
        PERR(ps, t->col, "%s '%.*s' is longer than %d bytes", what, (int)DG_MIN(t->n, 40), t->s,
             DG_NAME_MAX - 1);
        return 0;
    }
    memcpy(out, t->s, (size_t)t->n);
    out[t->n] = '\0';
    return 1;
}

/* ---- entries ----------------------------------------------------------------- */

enum { KEY_WEIGHT, KEY_COST, KEY_DEPTH, KEY_GROUP, KEY_SIZE, KEY_ROOMS, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"weight", "cost", "depth", "group", "size",
                                                 "rooms"};

static void rooms_value(parser *ps, const token *t, dg_spawn_entry *e)
{
    int32_t start = 0;
    for (int32_t i = 0; i <= t->n; i++)
    {
        if (i < t->n && t->s[i] != ',')
            continue;
        token w = {t->s + start, i - start, t->col + start};
        if (w.n == 0)
            PERR(ps, w.col, "empty room word in '%.*s'", (int)DG_MIN(t->n, 60), t->s);
        else if (e->room_count == DG_SPAWN_ROOMS_MAX)
        {
            PERR(ps, w.col, "more than %d room words", DG_SPAWN_ROOMS_MAX);
            return;
        }
        else if (copy_word(ps, &w, e->rooms[e->room_count], "room word"))
            e->room_count++;
        start = i + 1;
    }
}

static void bounded(parser *ps, const token *t, const char *what, int32_t lo, int32_t hi,
                    int32_t *out)
{
    int32_t v;
    if (!dgi_parse_uint(t->s, t->n, &v) || v < lo || v > hi)
        PERR(ps, t->col, "%s '%.*s' is not a number in %d..%d", what, (int)DG_MIN(t->n, 40), t->s,
             (int)lo, (int)hi);
    else
        *out = v;
}

static void range_value(parser *ps, const token *t, const char *what, int32_t lo, int32_t hi,
                        int open_ok, int32_t *out_lo, int32_t *out_hi)
{
    int32_t a, b;
    if (!range(t, &a, &b, open_ok))
        PERR(ps, t->col, "%s '%.*s' is not a range (expected N, N..M%s)", what,
             (int)DG_MIN(t->n, 40), t->s, open_ok ? " or N.." : "");
    else if (a < lo || a > hi || b > hi || (b < lo && b != -1))
        PERR(ps, t->col, "%s '%.*s' is outside %d..%d", what, (int)DG_MIN(t->n, 40), t->s,
             (int)lo, (int)hi);
    else if (b != -1 && b < a)
        PERR(ps, t->col, "%s range %d..%d is inverted", what, (int)a, (int)b);
    else
    {
        *out_lo = a;
        *out_hi = b;
    }
}

static void key_value(parser *ps, int key, const token *t, dg_spawn_entry *e)
{
    switch (key)
    {
    case KEY_WEIGHT:
        bounded(ps, t, "weight", 1, MAX_WEIGHT, &e->weight);
        break;
    case KEY_COST:
        bounded(ps, t, "cost", 0, DG_SPAWN_COST_MAX, &e->cost);
        break;
    case KEY_DEPTH:
        range_value(ps, t, "depth", 0, DG_SPAWN_DEPTH_MAX, 1, &e->depth_min, &e->depth_max);
        break;
    case KEY_GROUP:
        range_value(ps, t, "group", 1, DG_SPAWN_GROUP_MAX, 0, &e->group_min, &e->group_max);
        break;
    case KEY_SIZE:
        bounded(ps, t, "size", 1, DG_CREATURE_SIZE_MAX, &e->size);
        break;
    default:
        rooms_value(ps, t, e);
        break;
    }
}

static int32_t find_entry(const dg_spawn_entry *entries, int32_t count, const char *name)
{
    for (int32_t i = 0; i < count; i++)
        if (strcmp(entries[i].name, name) == 0)
            return i;
    return -1;
}

static void entry_defaults(dg_spawn_entry *e, int32_t line)
{
    memset(e, 0, sizeof *e);
    e->weight = 10;
    e->cost = 1;
    e->depth_max = -1;
    e->group_min = e->group_max = 1;
    e->size = 1;
    e->line = line;
}

/* Reads the key-value pairs after name and kind into e. */
static void entry_keys(parser *ps, dg_spawn_entry *e)
{
    int seen[KEY_COUNT] = {0};
    for (int32_t i = 2; i < ps->ntok; i += 2)
    {
        const token *k = &ps->tok[i];
        int key = 0;
        while (key < KEY_COUNT && !tok_is(k, key_names[key]))
            key++;
        if (key == KEY_COUNT)
        {
            PERR(ps, k->col, "unknown key '%.*s' (expected weight, cost, depth, group, size "
                 "or rooms)", (int)DG_MIN(k->n, 40), k->s);
            return;
        }
        if (i + 1 == ps->ntok)
        {
            PERR(ps, k->col + k->n, "'%s' needs a value", key_names[key]);
            return;
        }
        if (seen[key])
            PERR(ps, k->col, "'%s' given twice", key_names[key]);
        seen[key] = 1;
        key_value(ps, key, &ps->tok[i + 1], e);
    }
}

static void entry_line(parser *ps)
{
    if (ps->ntok < 2)
    {
        PERR(ps, ps->tok[0].col + ps->tok[0].n, "an entry needs a name and a kind");
        return;
    }
    int32_t before = ps->err.errors;
    dg_spawn_entry e;
    entry_defaults(&e, ps->in.line);
    if (!copy_word(ps, &ps->tok[0], e.name, "name") || !copy_word(ps, &ps->tok[1], e.kind, "kind"))
        return;
    int32_t first = find_entry(ps->entries, ps->count, e.name);
    if (first >= 0)
        PERR(ps, ps->tok[0].col, "duplicate entry '%s' (first on line %d)", e.name,
             (int)ps->entries[first].line);
    entry_keys(ps, &e);
    if (ps->err.errors != before)
        return;
    if (ps->count == DG_SPAWN_ENTRIES_MAX)
    {
        PERR(ps, 1, "more than %d entries", DG_SPAWN_ENTRIES_MAX);
        return;
    }
    if (dgi_grow(ps->a, (void **)&ps->entries, &ps->cap, ps->count + 1, sizeof e) != DG_OK)
    {
        dgi_text_oom(&ps->err, "spawns");
        return;
    }
    ps->entries[ps->count++] = e;
}

static void line(parser *ps, const char *l, int32_t n)
{
    if (!tokenize(ps, l, n) || ps->ntok == 0)
        return;
    if (!ps->seen_magic)
    {
        ps->seen_magic = 1;
        if (tok_is(&ps->tok[0], "spawns"))
        {
            if (ps->ntok != 2 || !tok_is(&ps->tok[1], "1"))
                PERR(ps, ps->ntok > 1 ? ps->tok[1].col : ps->tok[0].col + 6,
                     "unsupported format version (expected 'spawns 1')");
            return;
        }
        PERR(ps, ps->tok[0].col, "expected 'spawns 1' as the first line");
    }
    entry_line(ps);
}

static void run(parser *ps)
{
    const char *start;
    size_t n;
    while (!dgi_text_stopped(&ps->err) && (start = dgi_text_next_line(&ps->in, &n)) != NULL)
    {
        if (n > (size_t)INT32_MAX / 2)
        {
            PERR(ps, 1, "line too long");
            return;
        }
        line(ps, start, (int32_t)n);
    }
    if (!ps->seen_magic && ps->err.status == DG_OK)
    {
        ps->in.line = 1;
        PERR(ps, 1, "expected 'spawns 1' as the first line");
    }
}

/* ---- the hash ---------------------------------------------------------------- */

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ULL;
    return h;
}

static uint64_t fnv_int(uint64_t h, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                          (unsigned char)(u >> 24)};
    return fnv_bytes(h, b, 4);
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv_bytes(h, s, strlen(s) + 1); }

/* Every field but the line, in file order (the order is part of the table:
 * weighted picks walk it). */
static uint64_t table_hash(const dg_spawn_entry *entries, int32_t count)
{
    uint64_t h = fnv_str(0xCBF29CE484222325ULL, "spawns 1");
    h = fnv_int(h, count);
    for (int32_t i = 0; i < count; i++)
    {
        const dg_spawn_entry *e = &entries[i];
        h = fnv_str(fnv_str(h, e->name), e->kind);
        int32_t v[8] = {e->weight, e->cost, e->depth_min, e->depth_max,
                        e->group_min, e->group_max, e->size, e->room_count};
        for (int k = 0; k < 8; k++)
            h = fnv_int(h, v[k]);
        for (int32_t k = 0; k < e->room_count; k++)
            h = fnv_str(h, e->rooms[k]);
    }
    h = dgi_hash64(h);
    return h ? h : 1;
}

/* ---- public calls ------------------------------------------------------------ */

/* The DGI_SPAWN_* facts of an entry. */
static uint8_t entry_facts(const dg_spawn_entry *e)
{
    int32_t kind = dgi_spawn_marker_kind(e);
    return (uint8_t)((dgi_spawn_lists(e, "boss") ? DGI_SPAWN_BOSS : 0) |
                     (kind == DG_MARKER_ITEM ? DGI_SPAWN_ITEM : 0) |
                     (kind == DG_MARKER_ACTOR ? DGI_SPAWN_ACTOR : 0) |
                     (!e->room_count || dgi_spawn_lists(e, "any") ? DGI_SPAWN_ANY : 0));
}

dg_status dg_spawn_parse(const char *text, size_t length, const char *source_name,
                         const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                         dg_spawn_table **table, dg_diag *diag)
{
    if (!table)
        return dgi_fail(diag, DG_E_NULL, "spawn_parse: table is NULL");
    *table = NULL;
    if (!text && length)
        return dgi_fail(diag, DG_E_NULL, "spawn_parse: text is NULL");
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.in = dgi_text_lines_of(text, length, DGI_TEXT_BOM | DGI_TEXT_CR);
    ps.err = (dgi_text_errors){.source = source_name ? source_name : "<input>", .diag = diag,
                               .on_error = on_error, .user = user, .max = DG_SPAWN_MAX_ERRORS};
    ps.a = allocator;
    run(&ps);
    dg_spawn_table *t = NULL;
    if (ps.err.status == DG_OK && !(t = dgi_calloc(allocator, 1, sizeof *t + (size_t)ps.count)))
        dgi_text_oom(&ps.err, "spawns");
    if (!t) /* a parse error, or no memory for the table (reported above) */
    {
        dgi_free(allocator, ps.entries, (size_t)ps.cap * sizeof *ps.entries);
        return ps.err.status;
    }
    if (allocator)
        t->allocator = *allocator;
    t->entries = ps.entries;
    t->count = ps.count;
    /* the array keeps its capacity: free receives the size alloc was given */
    t->hash = table_hash(ps.entries, ps.count);
    t->entries_cap_ = ps.cap;
    t->facts = (uint8_t *)(t + 1);
    for (int32_t k = 0; k < t->count; k++)
        t->facts[k] = entry_facts(&t->entries[k]);
    *table = t;
    dgi_diag_ok(diag);
    return DG_OK;
}

void dg_spawn_table_free(dg_spawn_table *table)
{
    if (!table)
        return;
    dg_allocator a = table->allocator;
    const dg_allocator *ap = a.alloc ? &a : NULL;
    dgi_free(ap, table->entries, (size_t)table->entries_cap_ * sizeof *table->entries);
    dgi_free(ap, table, sizeof *table + (size_t)table->count);
}

dg_status dg_spawn_load(const char *path, const dg_allocator *allocator, dg_diag_fn on_error,
                        void *user, dg_spawn_table **table, dg_diag *diag)
{
    if (!table)
        return dgi_fail(diag, DG_E_NULL, "spawn_load: table is NULL");
    *table = NULL;
    if (!path)
        return dgi_fail(diag, DG_E_NULL, "spawn_load: path is NULL");
    char *buf;
    size_t cap, len;
    dg_status st = dgi_read_file(path, SPAWN_FILE_MAX, "spawn table", allocator, &buf, &cap, &len,
                                 diag);
    if (st == DG_OK)
        st = dg_spawn_parse(buf, len, path, allocator, on_error, user, table, diag);
    dgi_free(allocator, buf, cap);
    return st;
}

uint64_t dg_spawn_table_hash(const dg_spawn_table *table) { return table ? table->hash : 0; }

int32_t dg_spawn_count(const dg_spawn_table *table) { return table ? table->count : 0; }

int32_t dg_spawn_find(const dg_spawn_table *table, const char *name)
{
    return table && name ? find_entry(table->entries, table->count, name) : -1;
}

dg_status dg_spawn_get(const dg_spawn_table *table, int32_t index, dg_spawn_entry *entry)
{
    if (!table || !entry)
        return DG_E_NULL;
    if (index < 0 || index >= table->count)
        return DG_E_INVALID;
    *entry = table->entries[index];
    return DG_OK;
}

/* ---- what populate.c asks --------------------------------------------------- */

int32_t dgi_spawn_marker_kind(const dg_spawn_entry *e)
{
    if (strcmp(e->kind, "monster") == 0)
        return DG_MARKER_ACTOR;
    return strcmp(e->kind, "item") == 0 ? DG_MARKER_ITEM : DG_MARKER_SPAWN;
}

int dgi_spawn_lists(const dg_spawn_entry *e, const char *word)
{
    for (int32_t i = 0; i < e->room_count; i++)
        if (strcmp(e->rooms[i], word) == 0)
            return 1;
    return 0;
}

int dgi_spawn_fits_room(const dg_spawn_entry *e, const char *role, const char *room_kind)
{
    return e->room_count == 0 || dgi_spawn_lists(e, "any") || (role[0] && dgi_spawn_lists(e, role)) ||
           dgi_spawn_lists(e, room_kind);
}

int dgi_spawn_at_depth(const dg_spawn_entry *e, int32_t depth)
{
    return depth >= e->depth_min && (e->depth_max < 0 || depth <= e->depth_max);
}
