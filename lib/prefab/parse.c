/* The text prefab parser (docs/prefab-format.md): one pass over a buffer that
 * need not be NUL-terminated, every error reported as name:line:col. */
#include "prefab/prefab.h"

#include <stddef.h>
#include <stdio.h>

#define MAX_TOKENS 128
#define MAX_TAGS 16
#define MAX_SUBS 64
#define MAX_REQS 32
#define MAX_GROUPS 64
#define MAX_WEIGHT 1000000
#define MAX_PREFABS 1000000

enum { ST_TOP, ST_LEGEND, ST_HEADER, ST_MAP };
enum { /* what a map row byte is: a row of seen, allowed bytes takes one test per byte */
    CELL_ALLOWED = 1, CELL_SEEN = 2, CELL_REPORTED = 4
};
enum { /* header keys that may appear once */
    KEY_MODE = 1, KEY_ORIENT = 2, KEY_WEIGHT = 4, KEY_SIZE = 8, KEY_UNIQUE = 16,
    KEY_MARGIN = 32, KEY_EDGE = 64, KEY_EXITS = 128
};

typedef struct token {
    const char *s;
    int32_t n, col;
} token;

/* Load-time analysis of substitutions: glyph count intervals [lo, hi], where
 * each result glyph was first written, and which final glyphs each drawn glyph
 * can become. No glyph can cover more than the map's cells, so both bounds are
 * kept at most `cells`: chained picks would otherwise multiply them past any
 * integer width. counts, lo and hi are zero between maps (flow_clear resets
 * the entries a map wrote), which spares clearing them whole per map. */
typedef struct flow {
    int64_t cells;
    int32_t counts[256];  /* cells per byte as the map draws them */
    int32_t lanes[3][256]; /* counts of every 4th cell but the first, summed into counts */
    uint32_t random[4];   /* the glyphs substitutions replace */
    int64_t lo[128], hi[128];
    uint32_t known[4]; /* glyphs a substitution writes, with where it first did */
    int32_t from_line[128], from_col[128];
    uint32_t can_be[128][4];
} flow;

typedef struct parser {
    const char *src;
    size_t len, pos;
    const char *source;
    int32_t line;
    dg_diag_fn on_error;
    void *user;
    dg_diag *diag;
    int32_t errors;
    dg_status status;
    dg_prefab_set *set;
    int state, legend_in_prefab, seen_magic;
    int32_t legend_line;
    const char *l; /* current line (without line end) */
    int32_t ll;
    int32_t ntok;
    int32_t file_snapshot; /* set->legends index of file_legend, -1 if changed */
    int cur_custom;
    /* the prefab being read */
    dgi_prefab *p;
    int32_t pi;
    int p_bad, shape_bad, keys;
    int32_t map_line, first_row, rows;
    int32_t size_w, size_h, size_line, size_col;
    int32_t exits, exits_line, exits_col;
    int32_t allowed_legend; /* set->legends index that `allowed` was made from, -1: none */
    /* From here on each field is set before it is read (tokenize, the legend
     * and map starts, check_flow) or zeroed once by dg_prefab_parse (the flow's
     * counts and bounds, passable), so a new parser zeroes only the fields above. */
    token tok[MAX_TOKENS];
    dgi_legend file_legend, cur;
    uint8_t legend_seen[128];
    uint8_t cell_state[256]; /* per byte: CELL_* bits for the current map */
    uint8_t allowed[256];    /* per byte: CELL_ALLOWED if legend allowed_legend has it */
    uint8_t used[128]; /* the glyphs ('!'..'~') the map holds, as first met */
    int32_t used_count;
    uint8_t met[256]; /* every byte the map holds, as first met */
    int32_t met_count;
    uint8_t passable[256]; /* per glyph of the map: passable in every outcome */
    flow flow;
} parser;

/* ---- errors ----------------------------------------------------------------- */

static void perr(parser *ps, int32_t line, int32_t col, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 4, 5)))
#endif
    ;

static void perr(parser *ps, int32_t line, int32_t col, const char *fmt, ...)
{
    if (ps->errors >= DG_PREFAB_MAX_ERRORS)
        return;
    dg_diag d;
    va_list ap;
    va_start(ap, fmt);
    dgi_diag_vsource(&d, DG_E_PARSE, ps->source, line, col, fmt, ap);
    va_end(ap);
    if (ps->errors == 0)
    {
        ps->status = DG_E_PARSE;
        if (ps->diag)
            *ps->diag = d;
    }
    ps->errors++;
    if (ps->p)
        ps->p_bad = 1;
    if (ps->on_error)
        ps->on_error(ps->user, &d);
}

static void oom(parser *ps)
{
    if (ps->status != DG_E_NOMEM)
        dgi_fail(ps->diag, DG_E_NOMEM, "%s: out of memory while parsing prefabs", ps->source);
    ps->status = DG_E_NOMEM;
}

static int tok_eq(const token *t, const char *word, size_t n)
{
    return (size_t)t->n == n && (n == 0 || t->s[0] == word[0]) && memcmp(t->s, word, n) == 0;
}

/* A token against a NUL-terminated word, without measuring the word first:
 * token bytes are never NUL, so the scan stops at the word's end. */
static int tok_is_word(const token *t, const char *word)
{
    for (int32_t i = 0; i < t->n; i++)
        if (word[i] != t->s[i])
            return 0;
    return word[t->n] == '\0';
}

/* A token against a string literal: its length is known at compile time. */
#define TOK_IS(t, literal) tok_eq((t), "" literal, sizeof(literal) - 1)

/* Copies a token for messages (bounded, printable). */
static const char *tok_str(const token *t, char *buf, size_t size)
{
    return dgi_printable(t->s, t->n, buf, size);
}

/* ---- storage ------------------------------------------------------------------ */

/* Room for one more element (dgi_grow called only when full). */
#define GROW(ps, arr, count, cap)                                                        \
    ((ps)->set->count < (ps)->set->cap ||                                                 \
             dgi_grow(dgi_set_alloc((ps)->set), (void **)&(ps)->set->arr, &(ps)->set->cap, \
                      (ps)->set->count + 1, sizeof *(ps)->set->arr) == DG_OK              \
         ? 1                                                                              \
         : (oom(ps), 0))

static int cells_reserve(parser *ps, size_t extra)
{
    dg_prefab_set *s = ps->set;
    if (s->cells_len + extra <= s->cells_cap)
        return 1;
    size_t cap = s->cells_cap ? s->cells_cap : 4096;
    while (cap < s->cells_len + extra)
        cap *= 2;
    uint8_t *fresh = dgi_alloc(dgi_set_alloc(s), cap);
    if (!fresh)
    {
        oom(ps);
        return 0;
    }
    if (s->cells)
    {
        memcpy(fresh, s->cells, s->cells_len);
        dgi_free(dgi_set_alloc(s), s->cells, s->cells_cap);
    }
    s->cells = fresh;
    s->cells_cap = cap;
    return 1;
}

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Index of the prefab named name (n bytes, name_hash h), or -1. */
static int32_t names_find(const dg_prefab_set *s, const char *name, size_t n, uint32_t h)
{
    if (!s->names || n >= DG_NAME_MAX)
        return -1;
    uint32_t mask = (uint32_t)s->name_cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask)
    {
        int32_t k = s->names[i];
        if (k < 0)
            return -1;
        if (memcmp(s->prefabs[k].name, name, n) == 0 && s->prefabs[k].name[n] == '\0')
            return k;
    }
}

/* Adds prefab index, whose name has name_hash h, to the table. */
static int names_insert(parser *ps, int32_t index, uint32_t h)
{
    dg_prefab_set *s = ps->set;
    if ((int64_t)(s->count + 1) * 2 > s->name_cap)
    {
        int32_t cap = s->name_cap ? s->name_cap * 2 : 64;
        int32_t *fresh = dgi_alloc(dgi_set_alloc(s), (size_t)cap * sizeof *fresh);
        if (!fresh)
        {
            oom(ps);
            return 0;
        }
        for (int32_t i = 0; i < cap; i++)
            fresh[i] = -1;
        dgi_free(dgi_set_alloc(s), s->names, (size_t)s->name_cap * sizeof *s->names);
        s->names = fresh;
        s->name_cap = cap;
        for (int32_t k = 0; k < s->count; k++)
            if (k != index)
            {
                uint32_t mask = (uint32_t)cap - 1, i;
                const char *nm = s->prefabs[k].name;
                for (i = name_hash(nm, strlen(nm)) & mask; fresh[i] >= 0; i = (i + 1) & mask)
                    ;
                fresh[i] = k;
            }
    }
    uint32_t mask = (uint32_t)s->name_cap - 1, i;
    for (i = h & mask; s->names[i] >= 0; i = (i + 1) & mask)
        ;
    s->names[i] = index;
    return 1;
}

/* ---- lexical helpers ------------------------------------------------------------ */

static int is_glyph(int c)
{
    return c > ' ' && c < 127 && c != ';';
}

/* Checks a name token; copies it to out (DG_NAME_MAX bytes). */
static int take_name(parser *ps, const token *t, const char *what, char *out)
{
    if (t->n >= DG_NAME_MAX)
    {
        perr(ps, ps->line, t->col, "%s is longer than %d characters", what, DG_NAME_MAX - 1);
        return 0;
    }
    for (int32_t i = 0; i < t->n; i++)
        if (!dgi_name_char((uint8_t)t->s[i]))
        {
            perr(ps, ps->line, t->col + i,
                 "invalid character in %s (allowed: letters, digits, '_', '.', '-')", what);
            return 0;
        }
    memcpy(out, t->s, (size_t)t->n);
    out[t->n] = '\0';
    return 1;
}

static int take_number(parser *ps, const token *t, int32_t lo, int32_t hi, const char *what,
                       int32_t *out)
{
    int32_t v;
    if (!dgi_parse_uint(t->s, t->n, &v) || v < lo || v > hi)
    {
        char b[40];
        perr(ps, ps->line, t->col, "%s must be a number from %d to %d, got '%s'", what, (int)lo,
             (int)hi, tok_str(t, b, sizeof b));
        return 0;
    }
    *out = v;
    return 1;
}

/* "N", "N-M" or "N+" (max -1). */
static int parse_range(const token *t, int32_t *lo, int32_t *hi)
{
    int32_t dash = -1;
    for (int32_t i = 0; i < t->n; i++)
        if (t->s[i] == '-')
            dash = i;
    if (t->n >= 2 && t->s[t->n - 1] == '+')
    {
        *hi = -1;
        return dgi_parse_uint(t->s, t->n - 1, lo);
    }
    if (dash < 0)
    {
        if (!dgi_parse_uint(t->s, t->n, lo))
            return 0;
        *hi = *lo;
        return 1;
    }
    return dgi_parse_uint(t->s, dash, lo) && dgi_parse_uint(t->s + dash + 1, t->n - dash - 1, hi) &&
           *lo <= *hi;
}

static int is_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* 1 for '!'..'~': one unsigned compare per byte of a word. */
static int is_word_byte(uint8_t c)
{
    return (uint8_t)(c - 0x21u) < 0x5Eu;
}

/* The byte that stopped a word is neither blank nor the line end: report it. */
static void bad_word_byte(parser *ps, uint8_t c, int32_t col)
{
    if (c >= 0x80)
        perr(ps, ps->line, col, "non-ASCII byte 0x%02X outside a comment", c);
    else
        perr(ps, ps->line, col, "control byte 0x%02X", c);
}

/* Splits the current header line into tokens; `;` at a token start begins a
 * comment. Returns 0 (and reports) on a bad byte. */
static int tokenize(parser *ps)
{
    const uint8_t *l = (const uint8_t *)ps->l;
    int32_t n = ps->ll, i = 0;
    ps->ntok = 0;
    for (;;)
    {
        while (i < n && is_blank(l[i]))
            i++;
        if (i == n || l[i] == ';')
            return 1;
        int32_t start = i;
        while (i < n && is_word_byte(l[i]))
            i++;
        if (i < n && !is_blank(l[i]))
        {
            bad_word_byte(ps, l[i], i + 1);
            return 0;
        }
        if (ps->ntok == MAX_TOKENS)
        {
            perr(ps, ps->line, start + 1, "more than %d words on one line", MAX_TOKENS);
            return 0;
        }
        token *t = &ps->tok[ps->ntok++];
        t->s = ps->l + start;
        t->n = i - start;
        t->col = start + 1;
    }
}

/* ---- legends ----------------------------------------------------------------------- */

static const char *const class_names[] = {"", "ground", "wall", "door", "trap",
                                          "actor", "marker", "void"};
static const char *const kind_names[] = {"generic", "actor", "item", "trap",
                                         "spawn", "start", "exit"};

/* A glyph of class cls named by glyph_names[name] (the class name if name < 0). */
static void set_glyph(dgi_legend *lg, uint8_t c, uint8_t cls, int32_t name)
{
    dgi_glyph *g = &lg->glyph[c];
    memset(g, 0, sizeof *g);
    g->cls = cls;
    g->name = name >= 0 ? name : cls;
    switch (cls)
    {
    case DGI_CLASS_GROUND: g->tile = DG_TILE_FLOOR; g->passable = 1; break;
    case DGI_CLASS_WALL: g->tile = DG_TILE_WALL; break;
    case DGI_CLASS_DOOR: g->tile = DG_TILE_DOOR; g->passable = 1; break;
    case DGI_CLASS_TRAP:
        g->tile = DG_TILE_TRAP;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_TRAP;
        break;
    case DGI_CLASS_ACTOR:
        g->tile = DG_TILE_FLOOR;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_ACTOR;
        break;
    case DGI_CLASS_MARKER:
        g->tile = DG_TILE_FLOOR;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_GENERIC;
        break;
    default: break;
    }
}

/* Appends a glyph name; its index, or -1 out of memory. */
static int32_t add_glyph_name(parser *ps, const char *name)
{
    if (!GROW(ps, glyph_names, glyph_name_count, cap_glyph_names))
        return -1;
    dgi_tag *t = &ps->set->glyph_names[ps->set->glyph_name_count];
    size_t n = DG_MIN(strlen(name), sizeof t->name - 1);
    memset(t, 0, sizeof *t);
    memcpy(t->name, name, n);
    return ps->set->glyph_name_count++;
}

/* The class names (indices 0..7) and the built-in glyphs. */
static int default_legend(parser *ps)
{
    for (int cls = 0; cls < 8; cls++)
        if (add_glyph_name(ps, class_names[cls]) < 0)
            return 0;
    dgi_legend *lg = &ps->file_legend;
    memset(lg, 0, sizeof *lg);
    set_glyph(lg, '.', DGI_CLASS_GROUND, -1);
    set_glyph(lg, '#', DGI_CLASS_WALL, -1);
    set_glyph(lg, '+', DGI_CLASS_DOOR, -1);
    set_glyph(lg, '^', DGI_CLASS_TRAP, -1);
    set_glyph(lg, '_', DGI_CLASS_VOID, -1);
    return 1;
}

static int lookup_word(const token *t, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        if (tok_is_word(t, words[i]))
            return i;
    return -1;
}

static int parse_tile(const token *t, int32_t *tile)
{
    if (dgi_parse_uint(t->s, t->n, tile))
        return *tile <= 255;
    for (int v = 0; v < DG_TILE_COUNT; v++)
    {
        if (tok_is_word(t, dg_tile_name((uint8_t)v)))
        {
            *tile = v;
            return 1;
        }
    }
    return 0;
}

static dgi_legend *active_legend(parser *ps)
{
    return ps->legend_in_prefab ? &ps->cur : &ps->file_legend;
}

static const char *const legend_keys[] = {"tile", "on", "kind"};

/* A `tile` value: a library tile name, a named library tile number
 * (0..DG_TILE_COUNT-1) or one of the caller's (DG_TILE_USER..255); the
 * numbers between are reserved for tiles the library may name later. */
static int legend_tile(parser *ps, const token *v, dgi_glyph *g)
{
    char b[40];
    int32_t tile;
    if (!parse_tile(v, &tile))
    {
        perr(ps, ps->line, v->col,
             "tile must be 0..255 or a tile name (floor, wall, stairs_down, ...), got '%s'",
             tok_str(v, b, sizeof b));
        return 0;
    }
    if (tile >= DG_TILE_COUNT && tile < DG_TILE_USER)
    {
        perr(ps, ps->line, v->col,
             "tile %d is reserved by the library (use 0..%d, a tile name, or %d..255 for the "
             "game's own tiles)", (int)tile, DG_TILE_COUNT - 1, DG_TILE_USER);
        return 0;
    }
    g->tile = (uint8_t)tile;
    return 1;
}

/* `on CLASS` of a trap, actor or marker: what the cell is underneath. */
static int legend_on(parser *ps, const token *v, int tile_given, dgi_glyph *g)
{
    int on = lookup_word(v, class_names + 1, 7) + 1;
    if (on != DGI_CLASS_GROUND && on != DGI_CLASS_WALL && on != DGI_CLASS_TRAP)
    {
        char b[40];
        perr(ps, ps->line, v->col, "'on' must be ground, wall or trap, got '%s'",
             tok_str(v, b, sizeof b));
        return 0;
    }
    if (!tile_given) /* an explicit `tile` wins, in either order */
        g->tile = on == DGI_CLASS_GROUND ? DG_TILE_FLOOR
                                         : on == DGI_CLASS_WALL ? DG_TILE_WALL : DG_TILE_TRAP;
    g->passable = on != DGI_CLASS_WALL;
    return 1;
}

/* One `KEY VALUE` pair of a legend entry of class cls (key[1] is the value);
 * *seen has a bit per key already given, as each may appear once. */
static int legend_option(parser *ps, int cls, const token *key, dgi_glyph *g, int *seen)
{
    char b[40];
    const token *v = key + 1;
    int k = lookup_word(key, legend_keys, 3);
    int marks = cls == DGI_CLASS_TRAP || cls == DGI_CLASS_ACTOR || cls == DGI_CLASS_MARKER;
    if (k < 0 || (k == 0 && cls == DGI_CLASS_VOID) || (k > 0 && !marks))
    {
        perr(ps, ps->line, key->col, "unexpected '%s' in a %s legend entry",
             tok_str(key, b, sizeof b), class_names[cls]);
        return 0;
    }
    if (*seen & (1 << k))
    {
        perr(ps, ps->line, key->col, "'%s' is given twice in this legend entry", legend_keys[k]);
        return 0;
    }
    *seen |= 1 << k;
    if (k == 0)
        return legend_tile(ps, v, g);
    if (k == 1)
        return legend_on(ps, v, *seen & 1, g);
    int kind = lookup_word(v, kind_names, 7);
    if (kind < 0)
    {
        perr(ps, ps->line, v->col,
             "unknown marker kind '%s' (expected generic actor item trap spawn start exit)",
             tok_str(v, b, sizeof b));
        return 0;
    }
    g->marker = (uint8_t)(1 + kind);
    return 1;
}

/* GLYPH CLASS [NAME] [tile T] [on CLASS] [kind K] */
static void legend_entry(parser *ps)
{
    const token *t = ps->tok;
    char b[40];
    if (t[0].n != 1 || !is_glyph((uint8_t)t[0].s[0]))
    {
        perr(ps, ps->line, t[0].col, "legend glyph must be one printable character, got '%s'",
             tok_str(&t[0], b, sizeof b));
        return;
    }
    uint8_t c = (uint8_t)t[0].s[0];
    if (ps->legend_seen[c])
    {
        perr(ps, ps->line, t[0].col, "glyph '%c' appears twice in this legend", c);
        return;
    }
    ps->legend_seen[c] = 1;
    if (ps->ntok < 2)
    {
        perr(ps, ps->line, t[0].col + 1,
             "legend entry needs a class (ground wall door trap actor marker void)");
        return;
    }
    int cls = lookup_word(&t[1], class_names + 1, 7) + 1;
    if (cls <= 0)
    {
        perr(ps, ps->line, t[1].col,
             "unknown class '%s' (expected ground wall door trap actor marker void)",
             tok_str(&t[1], b, sizeof b));
        return;
    }
    dgi_glyph g;
    dgi_legend tmp;
    set_glyph(&tmp, c, (uint8_t)cls, -1);
    g = tmp.glyph[c];
    int32_t i = 2;
    if (i < ps->ntok && lookup_word(&t[i], legend_keys, 3) < 0)
    {
        char name[DG_NAME_MAX];
        if (!take_name(ps, &t[i], "glyph name", name) || (g.name = add_glyph_name(ps, name)) < 0)
            return;
        i++;
    }
    int seen = 0;
    for (; i < ps->ntok; i += 2)
    {
        if (i + 1 >= ps->ntok)
        {
            perr(ps, ps->line, t[i].col + t[i].n, "'%s' needs a value",
                 tok_str(&t[i], b, sizeof b));
            return;
        }
        if (!legend_option(ps, cls, &t[i], &g, &seen))
            return;
    }
    active_legend(ps)->glyph[c] = g;
    if (!ps->legend_in_prefab)
        ps->file_snapshot = -1;
}

static void legend_begin(parser *ps, int in_prefab)
{
    if (ps->ntok > 1)
        perr(ps, ps->line, ps->tok[1].col, "'legend' takes no arguments");
    ps->legend_in_prefab = in_prefab;
    ps->legend_line = ps->line;
    memset(ps->legend_seen, 0, sizeof ps->legend_seen);
    if (in_prefab && !ps->cur_custom)
    {
        ps->cur = ps->file_legend;
        ps->cur_custom = 1;
    }
    ps->state = ST_LEGEND;
}

/* ---- prefab header keys -------------------------------------------------------------- */

static int once(parser *ps, int key)
{
    if (ps->keys & key)
    {
        char b[40];
        perr(ps, ps->line, ps->tok[0].col, "'%s' is given twice", tok_str(&ps->tok[0], b, sizeof b));
        return 0;
    }
    ps->keys |= key;
    return 1;
}

static int need_args(parser *ps, int32_t min)
{
    if (ps->ntok - 1 >= min)
        return 1;
    char b[40];
    perr(ps, ps->line, ps->tok[0].col + ps->tok[0].n, "'%s' needs %s",
         tok_str(&ps->tok[0], b, sizeof b), min == 1 ? "a value" : "more values");
    return 0;
}

static void key_mode(parser *ps)
{
    static const char *const modes[] = {"full", "jigsaw", "island", "furnish"};
    if (!once(ps, KEY_MODE) || !need_args(ps, 1))
        return;
    ps->p->modes = 0;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int m = lookup_word(&ps->tok[i], modes, 4);
        if (m < 0)
        {
            char b[40];
            perr(ps, ps->line, ps->tok[i].col,
                 "unknown mode '%s' (expected full jigsaw island furnish)",
                 tok_str(&ps->tok[i], b, sizeof b));
            return;
        }
        ps->p->modes |= 1 << m;
    }
}

static void key_orient(parser *ps)
{
    static const char *const words[] = {"r0", "r90", "r180", "r270", "h", "v", "d", "a",
                                        "all", "rot", "flip", "none"};
    static const int32_t masks[] = {1, 2, 4, 8, 16, 32, 64, 128, 0xFF, 0x0F, 0x35, 1};
    if (!once(ps, KEY_ORIENT) || !need_args(ps, 1))
        return;
    ps->p->orientations = 0;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int w = lookup_word(&ps->tok[i], words, 12);
        if (w < 0)
        {
            char b[40];
            perr(ps, ps->line, ps->tok[i].col,
                 "unknown orientation '%s' (expected r0 r90 r180 r270 h v d a all rot flip none)",
                 tok_str(&ps->tok[i], b, sizeof b));
            return;
        }
        ps->p->orientations |= masks[w];
    }
}

static void key_size(parser *ps)
{
    if (!once(ps, KEY_SIZE) || !need_args(ps, 1))
        return;
    const token *t = &ps->tok[1];
    int32_t x = -1, w, h;
    for (int32_t i = 0; i < t->n; i++)
        if (t->s[i] == 'x')
            x = i;
    if (x < 0 || !dgi_parse_uint(t->s, x, &w) || !dgi_parse_uint(t->s + x + 1, t->n - x - 1, &h))
    {
        char b[40];
        perr(ps, ps->line, t->col, "size must be WxH (e.g. 7x5), got '%s'", tok_str(t, b, sizeof b));
        return;
    }
    ps->size_w = w;
    ps->size_h = h;
    ps->size_line = ps->line;
    ps->size_col = t->col;
}

static void key_exits(parser *ps)
{
    static const char *const sides[] = {"N", "E", "S", "W"};
    if (!once(ps, KEY_EXITS) || !need_args(ps, 1))
        return;
    ps->exits = 0;
    ps->exits_line = ps->line;
    ps->exits_col = ps->tok[1].col;
    if (ps->ntok == 2 && TOK_IS(&ps->tok[1], "none"))
        return;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int s = lookup_word(&ps->tok[i], sides, 4);
        if (s < 0)
        {
            char b[40];
            perr(ps, ps->line, ps->tok[i].col, "unknown side '%s' (expected N E S W or none)",
                 tok_str(&ps->tok[i], b, sizeof b));
            ps->exits = -1;
            return;
        }
        ps->exits |= 1 << s;
    }
}

static void key_tags(parser *ps)
{
    if (!need_args(ps, 1))
        return;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        if (ps->p->tag_count >= MAX_TAGS)
        {
            perr(ps, ps->line, ps->tok[i].col, "more than %d tags", MAX_TAGS);
            return;
        }
        dgi_tag tag;
        memset(&tag, 0, sizeof tag);
        if (!take_name(ps, &ps->tok[i], "tag", tag.name) || !GROW(ps, tags, tag_count, cap_tags))
            return;
        ps->set->tags[ps->set->tag_count++] = tag;
        ps->p->tag_count++;
    }
}

/* A glyph operand of pick/count/require: exactly one glyph character. */
static int take_glyph(parser *ps, const token *t, uint8_t *out)
{
    if (t->n != 1 || !is_glyph((uint8_t)t->s[0]))
    {
        char b[40];
        perr(ps, ps->line, t->col, "expected one glyph character, got '%s'", tok_str(t, b, sizeof b));
        return 0;
    }
    *out = (uint8_t)t->s[0];
    return 1;
}

static int add_choice(parser *ps, uint8_t glyph, int32_t amount, int32_t col)
{
    if (!GROW(ps, choices, choice_count, cap_choices))
        return 0;
    dgi_choice ch = {glyph, amount, ps->line, col};
    ps->set->choices[ps->set->choice_count++] = ch;
    return 1;
}

/* pick G = A[:w] ... | pick-once G = ... | count G = N:A ... [rest:B] */
static void key_sub(parser *ps, int kind)
{
    char b[40];
    if (!need_args(ps, 2))
        return;
    if (ps->p->sub_count >= MAX_SUBS)
    {
        perr(ps, ps->line, ps->tok[0].col, "more than %d substitutions", MAX_SUBS);
        return;
    }
    dgi_sub sub;
    memset(&sub, 0, sizeof sub);
    sub.kind = (uint8_t)kind;
    sub.line = ps->line;
    sub.column = ps->tok[1].col;
    sub.first = ps->set->choice_count;
    if (!take_glyph(ps, &ps->tok[1], &sub.glyph))
        return;
    if (!TOK_IS(&ps->tok[2], "="))
    {
        perr(ps, ps->line, ps->tok[2].col, "expected '=' after the glyph, got '%s'",
             tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    for (int32_t i = 3; i < ps->ntok; i++)
    {
        const token *t = &ps->tok[i];
        uint8_t g;
        int32_t amount = 1;
        if (kind == DGI_SUB_COUNT)
        {
            int32_t colon = -1;
            for (int32_t k = 0; k < t->n && colon < 0; k++)
                if (t->s[k] == ':')
                    colon = k;
            int rest = colon == 4 && memcmp(t->s, "rest", 4) == 0;
            if (colon < 0 || t->n != colon + 2 || !is_glyph((uint8_t)t->s[colon + 1]) ||
                (!rest && !dgi_parse_uint(t->s, colon, &amount)))
            {
                perr(ps, ps->line, t->col, "expected N:G or rest:G, got '%s'", tok_str(t, b, sizeof b));
                return;
            }
            g = (uint8_t)t->s[colon + 1];
            if (rest)
            {
                if (i != ps->ntok - 1)
                {
                    perr(ps, ps->line, t->col, "'rest:' must come last");
                    return;
                }
                sub.rest = g;
                sub.rest_column = t->col + colon + 1;
                continue;
            }
        }
        else
        {
            if (!is_glyph((uint8_t)t->s[0]) ||
                (t->n > 1 && (t->s[1] != ':' || !dgi_parse_uint(t->s + 2, t->n - 2, &amount))))
            {
                perr(ps, ps->line, t->col, "expected G or G:weight, got '%s'", tok_str(t, b, sizeof b));
                return;
            }
            g = (uint8_t)t->s[0];
            if (amount > MAX_WEIGHT)
            {
                perr(ps, ps->line, t->col, "weight must be at most %d", MAX_WEIGHT);
                return;
            }
        }
        if (!add_choice(ps, g, amount, kind == DGI_SUB_COUNT ? t->col + t->n - 1 : t->col))
            return;
        sub.total += amount;
        sub.count++;
    }
    if (sub.count == 0)
    {
        perr(ps, ps->line, ps->tok[2].col + 1, "no choices after '='");
        return;
    }
    if (kind != DGI_SUB_COUNT && sub.total == 0)
    {
        perr(ps, ps->line, ps->tok[3].col, "the weights add up to 0");
        return;
    }
    if (!GROW(ps, subs, sub_count, cap_subs))
        return;
    ps->set->subs[ps->set->sub_count++] = sub;
    ps->p->sub_count++;
}

/* require G|NAME MIN[-MAX|+] */
static void key_require(parser *ps)
{
    if (!need_args(ps, 2))
        return;
    if (ps->ntok > 3)
    {
        perr(ps, ps->line, ps->tok[3].col, "'require' takes a glyph or name and a count");
        return;
    }
    if (ps->p->req_count >= MAX_REQS)
    {
        perr(ps, ps->line, ps->tok[0].col, "more than %d requirements", MAX_REQS);
        return;
    }
    dgi_require r;
    memset(&r, 0, sizeof r);
    r.line = ps->line;
    r.column = ps->tok[1].col;
    if (ps->tok[1].n == 1)
    {
        if (!take_glyph(ps, &ps->tok[1], &r.glyph))
            return;
    }
    else if (!take_name(ps, &ps->tok[1], "name", r.name))
        return;
    if (!parse_range(&ps->tok[2], &r.min, &r.max))
    {
        char b[40];
        perr(ps, ps->line, ps->tok[2].col, "count must be N, N-M or N+, got '%s'",
             tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    if (r.max < 0)
        r.max = INT32_MAX;
    if (!GROW(ps, reqs, req_count, cap_reqs))
        return;
    ps->set->reqs[ps->set->req_count++] = r;
    ps->p->req_count++;
}

/* ---- prefab start and end --------------------------------------------------------------- */

static void prefab_begin(parser *ps)
{
    if (ps->set->count >= MAX_PREFABS)
    {
        perr(ps, ps->line, ps->tok[0].col, "more than %d prefabs in one set", MAX_PREFABS);
        return;
    }
    if (!GROW(ps, prefabs, count, cap_prefabs))
        return;
    ps->pi = ps->set->count++;
    dgi_prefab *p = ps->p = &ps->set->prefabs[ps->pi];
    memset(p, 0, offsetof(dgi_prefab, edge)); /* map_end computes the edges of every sound map */
    p->line = ps->line;
    p->modes = DG_PREFAB_FULL | DG_PREFAB_JIGSAW | DG_PREFAB_ISLAND | DG_PREFAB_FURNISH;
    p->orientations = DG_ORIENT_MASK_ALL;
    p->weight = 10;
    p->margin = 1;
    p->tag_first = ps->set->tag_count;
    p->sub_first = ps->set->sub_count;
    p->req_first = ps->set->req_count;
    p->legend = -1;
    ps->p_bad = 0;
    ps->keys = 0;
    ps->cur_custom = 0;
    ps->size_w = -1;
    ps->exits = -1;
    ps->state = ST_HEADER;
    p->name[0] = '?'; /* until the name is read (the memset ended it) */
    if (ps->ntok != 2)
    {
        perr(ps, ps->line, ps->ntok < 2 ? ps->tok[0].col + ps->tok[0].n : ps->tok[2].col,
             "expected 'prefab NAME'");
        if (ps->ntok < 2)
            return;
    }
    if (!take_name(ps, &ps->tok[1], "prefab name", p->name)) /* the bytes after it stay zero */
        return;
    uint32_t h = name_hash(p->name, (size_t)ps->tok[1].n);
    int32_t dup = names_find(ps->set, p->name, (size_t)ps->tok[1].n, h);
    if (dup >= 0)
        perr(ps, ps->line, ps->tok[1].col, "duplicate prefab name '%s' (first at line %d)", p->name,
             (int)ps->set->prefabs[dup].line);
    else
        names_insert(ps, ps->pi, h);
}

/* Stores the legend the prefab uses (shared with earlier prefabs when unchanged). */
static int store_legend(parser *ps)
{
    if (!ps->cur_custom && ps->file_snapshot >= 0)
    {
        ps->p->legend = ps->file_snapshot;
        return 1;
    }
    if (!GROW(ps, legends, legend_count, cap_legends))
        return 0;
    ps->set->legends[ps->set->legend_count] = ps->cur_custom ? ps->cur : ps->file_legend;
    ps->p->legend = ps->set->legend_count++;
    if (!ps->cur_custom)
        ps->file_snapshot = ps->p->legend;
    return 1;
}

/* `map`: the legend and substitutions are final; decide which glyphs rows may use. */
static void map_begin(parser *ps)
{
    if (ps->ntok > 1)
        perr(ps, ps->line, ps->tok[1].col, "'map' takes no arguments");
    if (!store_legend(ps))
        return;
    const dgi_legend *lg = &ps->set->legends[ps->p->legend];
    if (ps->allowed_legend != ps->p->legend) /* prefabs mostly share the file's legend */
    {
        memset(ps->allowed, 0, sizeof ps->allowed);
        for (int c = 33; c < 127; c++)
            ps->allowed[c] = lg->glyph[c].cls != DGI_CLASS_NONE ? CELL_ALLOWED : 0;
        ps->allowed_legend = ps->p->legend;
    }
    memcpy(ps->cell_state, ps->allowed, sizeof ps->cell_state);
    ps->used_count = 0;
    ps->met_count = 0;
    for (int32_t k = 0; k < ps->p->sub_count; k++)
    {
        const dgi_sub *s = &ps->set->subs[ps->p->sub_first + k];
        ps->cell_state[s->glyph] = CELL_ALLOWED;
        if (lg->glyph[s->glyph].cls == DGI_CLASS_DOOR)
            perr(ps, s->line, s->column, "door glyph '%c' cannot be substituted", s->glyph);
        for (int32_t j = 0; j < s->count; j++)
        {
            const dgi_choice *ch = &ps->set->choices[s->first + j];
            if (lg->glyph[ch->glyph].cls == DGI_CLASS_DOOR && ch->amount != 0)
                perr(ps, ch->line, ch->column, "substitution would add door glyph '%c'", ch->glyph);
        }
        if (s->rest && lg->glyph[s->rest].cls == DGI_CLASS_DOOR)
            perr(ps, s->line, s->rest_column, "substitution would add door glyph '%c'", s->rest);
    }
    ps->map_line = ps->line;
    ps->first_row = ps->line + 1;
    ps->rows = 0;
    ps->shape_bad = 0;
    ps->p->width = 0;
    ps->p->cells = ps->set->cells_len;
    ps->state = ST_MAP;
}

/* A byte a row may not hold: say why. */
static void bad_byte(parser *ps, uint8_t c, int32_t col)
{
    if (c >= 0x80)
        perr(ps, ps->line, col, "non-ASCII byte 0x%02X in a row", c);
    else if (c == '\t')
        perr(ps, ps->line, col, "tab in a row");
    else if (c == ' ')
        perr(ps, ps->line, col, "space in a row (use a glyph, e.g. '_' for void)");
    else if (c < 0x20 || c == 0x7F)
        perr(ps, ps->line, col, "control byte 0x%02X in a row", c);
    else if (c == ';')
        perr(ps, ps->line, col, "';' is reserved and cannot be a glyph");
    else if (!(ps->cell_state[c] & CELL_REPORTED))
        perr(ps, ps->line, col, "glyph '%c' is not in the legend (prefab '%s')", c, ps->p->name);
    ps->cell_state[c] |= CELL_REPORTED;
}

/* A byte met for the first time in this map, or one it may not hold. */
static void unusual_byte(parser *ps, uint8_t c, int32_t col)
{
    if (!(ps->cell_state[c] & CELL_SEEN))
    {
        ps->cell_state[c] |= CELL_SEEN;
        ps->met[ps->met_count++] = c;
        if (is_word_byte(c))
            ps->used[ps->used_count++] = c;
    }
    if (!(ps->cell_state[c] & CELL_ALLOWED))
        bad_byte(ps, c, col);
}

/* One map row. Rows are stored while the map's shape is sound (glyph errors
 * do not stop the later checks); shape_bad stops storing. */
static void map_row(parser *ps)
{
    const uint8_t *row = (const uint8_t *)ps->l;
    int32_t n = ps->ll;
    if (ps->rows == DG_PREFAB_MAX_SIDE)
    {
        perr(ps, ps->line, 1, "map is taller than %d rows", DG_PREFAB_MAX_SIDE);
        ps->shape_bad = 1;
    }
    ps->rows++;
    if (n > DG_PREFAB_MAX_SIDE)
    {
        perr(ps, ps->line, DG_PREFAB_MAX_SIDE + 1, "row is wider than %d cells", DG_PREFAB_MAX_SIDE);
        n = DG_PREFAB_MAX_SIDE;
        ps->shape_bad = 1;
    }
    for (int32_t i = 0; i < n; i++)
        if (ps->cell_state[row[i]] != (CELL_ALLOWED | CELL_SEEN))
            unusual_byte(ps, row[i], i + 1);
    if (ps->rows == 1)
        ps->p->width = n;
    if (n == 0)
    {
        perr(ps, ps->line, 1, "empty row in a map");
        ps->shape_bad = 1;
    }
    else if (n != ps->p->width && !ps->shape_bad)
    {
        perr(ps, ps->line, DG_MIN(n, ps->p->width) + 1,
             "row is %d cells wide, expected %d (first row at line %d)", (int)n,
             (int)ps->p->width, (int)ps->first_row);
        ps->shape_bad = 1;
    }
    if (ps->shape_bad || !cells_reserve(ps, (size_t)n))
        return;
    memcpy(ps->set->cells + ps->set->cells_len, row, (size_t)n);
    ps->set->cells_len += (size_t)n;
}

/* Length of the run of allowed glyphs at the start of s (at most `most`
 * bytes); *fresh becomes 1 if one of them is met for the first time in this
 * map. For a map's first row, whose width is not known yet. */
static size_t allowed_run(const uint8_t *state, const uint8_t *s, size_t most, int *fresh)
{
    size_t n = 0;
    uint8_t seen = CELL_SEEN;
    while (n < most && (state[s[n]] & CELL_ALLOWED))
        seen &= state[s[n++]];
    *fresh = !seen;
    return n;
}

/* A row as wide as the map's, of glyphs it may hold, ended by '\n' or "\r\n":
 * copied to dst, and its length with the line end returned (*fresh 1 if it
 * holds a glyph met for the first time); 0 for any other line. Every byte is
 * tested, without an early exit, so the loop runs the same count for each row
 * of a map and its branches are predicted. */
static size_t width_row(const uint8_t *state, const uint8_t *s, size_t left, size_t width,
                        uint8_t *dst, int *fresh)
{
    if (width >= left)
        return 0;
    size_t end = width + (s[width] == '\r');
    if (end >= left || s[end] != '\n' || (width == 3 && memcmp(s, "end", 3) == 0))
        return 0;
    uint8_t all = CELL_ALLOWED | CELL_SEEN, a[4] = {all, all, all, all};
    size_t i = 0;
    for (; i + 4 <= width; i += 4) /* four lanes: no chain of dependent ANDs */
    {
        a[0] &= state[s[i]];
        a[1] &= state[s[i + 1]];
        a[2] &= state[s[i + 2]];
        a[3] &= state[s[i + 3]];
    }
    for (; i < width; i++)
        all &= state[s[i]];
    all &= (uint8_t)(a[0] & a[1] & a[2] & a[3]);
    memcpy(dst, s, width);
    *fresh = !(all & CELL_SEEN);
    return all & CELL_ALLOWED ? end + 1 : 0;
}

/* The common map rows: glyphs the map may hold, each row ended by a line end,
 * as wide as the rows before and not the map's `end`. They are stored straight
 * from the input, without splitting lines off first, until a line that takes
 * the general path, which reports what is wrong. */
static void map_rows_fast(parser *ps)
{
    dgi_prefab *p = ps->p;
    dg_prefab_set *set = ps->set;
    const uint8_t *src = (const uint8_t *)ps->src;
    size_t pos = ps->pos, len = ps->len;
    int32_t rows = ps->rows, width = p->width, line = ps->line;
    if (ps->shape_bad)
        return;
    while (pos < len && rows < DG_PREFAB_MAX_SIDE)
    {
        const uint8_t *s = src + pos;
        size_t left = len - pos, took;
        int fresh = 0;
        if (rows > 0 && set->cells_len + (size_t)width <= set->cells_cap &&
            (took = width_row(ps->cell_state, s, left, (size_t)width, set->cells + set->cells_len, &fresh)) > 0)
        {
            ps->line = ++line; /* unusual_byte reports at ps->line */
            for (int32_t i = 0; fresh && i < width; i++) /* first meetings in reading order */
                if (!(ps->cell_state[s[i]] & CELL_SEEN))
                    unusual_byte(ps, s[i], i + 1);
            set->cells_len += (size_t)width;
            pos += took;
            rows++;
            continue;
        }
        size_t n = allowed_run(ps->cell_state, s, DG_MIN(left, (size_t)DG_PREFAB_MAX_SIDE), &fresh);
        size_t end = n; /* the line end: '\n', '\r\n', '\r' at the input's end, or none */
        if (n < left)
        {
            end += s[n] == '\r';
            if (end < left && s[end] != '\n')
                break;
            end += end < left;
        }
        if (n == 0 || (rows > 0 && (int32_t)n != width) || (n == 3 && memcmp(s, "end", 3) == 0))
            break;
        if (set->cells_len + n > set->cells_cap && !cells_reserve(ps, n))
            break;
        line++;
        ps->line = line; /* unusual_byte reports at ps->line */
        for (size_t i = 0; fresh && i < n; i++) /* first meetings in reading order, as map_row */
            if (!(ps->cell_state[s[i]] & CELL_SEEN))
                unusual_byte(ps, s[i], (int32_t)i + 1);
        if (rows++ == 0)
            width = p->width = (int32_t)n;
        memcpy(set->cells + set->cells_len, s, n);
        set->cells_len += n;
        pos += end;
    }
    ps->pos = pos;
    ps->rows = rows;
    ps->line = line;
}

/* A door cell on the border adds its side; a door on a corner is an error. */
static void border_door(parser *ps, int32_t x, int32_t y)
{
    dgi_prefab *p = ps->p;
    int32_t w = p->width, h = p->height;
    if ((x == 0 || x == w - 1) && (y == 0 || y == h - 1))
        perr(ps, ps->first_row + y, x + 1, "door on a corner of prefab '%s' (its side is ambiguous)",
             p->name);
    else
        p->door_sides |= (y == 0 ? DG_SIDE_N : 0) | (x == w - 1 ? DG_SIDE_E : 0) |
                         (y == h - 1 ? DG_SIDE_S : 0) | (x == 0 ? DG_SIDE_W : 0);
}

/* Door cells on the border give the door sides, visited in reading order.
 * Only a glyph the map holds can be a door: most maps hold no door glyph or
 * one, so the border is read only when there is one. */
static void find_doors(parser *ps, const uint8_t *g, const dgi_legend *lg)
{
    int32_t w = ps->p->width, h = ps->p->height, doors = 0;
    uint8_t *is_door = ps->passable; /* scratch until outcome_passability */
    for (int32_t u = 0; u < ps->met_count; u++) /* bytes >= 0x80 were reported, never doors */
    {
        uint8_t c = ps->met[u];
        is_door[c] = c < 0x80 && lg->glyph[c].cls == DGI_CLASS_DOOR;
        doors += is_door[c];
    }
    for (int32_t y = 0; y < h && doors > 0; y++)
    {
        const uint8_t *row = g + (size_t)y * (size_t)w;
        if (y == 0 || y == h - 1)
        {
            for (int32_t x = 0; x < w; x++)
                if (is_door[row[x]])
                    border_door(ps, x, y);
            continue;
        }
        if (is_door[row[0]])
            border_door(ps, 0, y);
        if (w > 1 && is_door[row[w - 1]])
            border_door(ps, w - 1, y);
    }
}

static void bit_set(uint32_t *s, int c) { s[c >> 5] |= 1u << (c & 31); }
static void bit_clear(uint32_t *s, int c) { s[c >> 5] &= ~(1u << (c & 31)); }
static int bit_has(const uint32_t *s, int c) { return (s[c >> 5] >> (c & 31)) & 1u; }

/* The glyphs of a 128-bit set, ascending, into out; their number. */
static int32_t glyphs_of(const uint32_t *s, uint8_t *out)
{
    int32_t n = 0;
    for (int w = 0; w < 4; w++)
        for (uint32_t b = s[w]; b; b &= b - 1)
            out[n++] = (uint8_t)(w * 32 + dgi_lowest_bit64(b));
    return n;
}

static void produce(flow *f, uint8_t g, int64_t lo, int64_t hi, const dgi_choice *where)
{
    f->lo[g] = DG_MIN(f->lo[g] + lo, f->cells);
    f->hi[g] = DG_MIN(f->hi[g] + hi, f->cells);
    if (!bit_has(f->known, g) && where)
    {
        bit_set(f->known, g);
        f->from_line[g] = where->line;
        f->from_col[g] = where->column;
    }
}

static void flow_sub(parser *ps, flow *f, const dgi_sub *s, const dgi_legend *lg)
{
    int64_t lo = f->lo[s->glyph], hi = f->hi[s->glyph];
    const dgi_choice *ch = &ps->set->choices[s->first];
    int32_t live = 0;
    for (int32_t j = 0; j < s->count; j++)
        live += ch[j].amount > 0;
    f->lo[s->glyph] = f->hi[s->glyph] = 0;
    int keeps = 0; /* some cells may stay as the source glyph */
    if (s->kind == DGI_SUB_COUNT)
    {
        if (s->total > lo)
        {
            perr(ps, s->line, s->column, "count asks for %lld '%c' cells but the map has %d",
                 (long long)s->total, s->glyph, (int)lo);
            return;
        }
        for (int32_t j = 0; j < s->count; j++)
            produce(f, ch[j].glyph, ch[j].amount, ch[j].amount, &ch[j]);
        dgi_choice rest = {s->rest, 0, s->line, s->rest_column};
        produce(f, s->rest ? s->rest : s->glyph, lo - s->total, hi - s->total, s->rest ? &rest : NULL);
        keeps = !s->rest && hi > s->total;
        if (keeps && lg->glyph[s->glyph].cls == DGI_CLASS_NONE)
            perr(ps, s->line, s->column,
                 "count leaves some '%c' cells as they are, but '%c' is not in the legend (add rest:G)",
                 s->glyph, s->glyph);
    }
    else
        for (int32_t j = 0; j < s->count; j++)
            if (ch[j].amount > 0)
                produce(f, ch[j].glyph, live == 1 ? lo : 0, hi, &ch[j]);
    for (int32_t u = 0; u < ps->used_count; u++) /* only the map's glyphs can become anything */
    {
        int c = ps->used[u];
        if (bit_has(f->can_be[c], s->glyph))
        {
            if (!keeps)
                bit_clear(f->can_be[c], s->glyph);
            for (int32_t j = 0; j < s->count; j++)
                if (ch[j].amount > 0)
                    bit_set(f->can_be[c], ch[j].glyph);
            if (s->rest)
                bit_set(f->can_be[c], s->rest);
        }
    }
}

static void check_requires(parser *ps, const flow *f, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    for (int32_t k = 0; k < p->req_count; k++)
    {
        dgi_require *r = &ps->set->reqs[p->req_first + k];
        int64_t lo = 0, hi = 0;
        for (int c = 33; c < 127; c++)
            if (r->glyph ? c == r->glyph
                         : (lg->glyph[c].cls != DGI_CLASS_NONE &&
                            strcmp(ps->set->glyph_names[lg->glyph[c].name].name, r->name) == 0))
            {
                lo += f->lo[c];
                hi += f->hi[c];
                bit_set(r->glyphs, c);
            }
        hi = DG_MIN(hi, f->cells); /* a name may cover several glyphs, never more cells */
        if (hi < r->min || lo > r->max)
            perr(ps, r->line, r->column,
                 "require can never hold: the map has %lld to %lld such cells", (long long)lo,
                 (long long)hi);
        r->always = lo >= r->min && hi <= r->max;
        p->checked_reqs += !r->always;
        for (int c = 33; c < 127 && !r->always; c++) /* cells it counts that stay as drawn */
            if (bit_has(r->glyphs, c) && !bit_has(f->random, c))
                r->fixed += f->counts[c];
    }
}

/* The final glyphs glyph c of the map can become, ascending, into out; their
 * number. Without substitutions c stays itself. */
static int32_t outcomes_of(const parser *ps, const flow *f, int c, uint8_t *out)
{
    if (ps->p->sub_count == 0)
    {
        out[0] = (uint8_t)c;
        return 1;
    }
    return glyphs_of(f->can_be[c], out);
}

/* An island is placed where its footprint (non-void cells) fits: one whose
 * cells are void in every outcome would fit anywhere, without end. */
static void check_island_footprint(parser *ps, const flow *f, const dgi_legend *lg)
{
    if (!(ps->p->modes & DG_PREFAB_ISLAND))
        return;
    uint8_t outcome[128];
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int32_t n = outcomes_of(ps, f, ps->used[u], outcome);
        for (int32_t k = 0; k < n; k++)
            if (lg->glyph[outcome[k]].cls != DGI_CLASS_VOID)
                return;
    }
    perr(ps, ps->p->line, 1,
         "prefab '%s' is void in every cell, so it cannot be an island (give it a mode without island)",
         ps->p->name);
}

/* Each glyph of the map can be itself, until substitutions say more. */
static void flow_identity(parser *ps, flow *f)
{
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int c = ps->used[u];
        memset(f->can_be[c], 0, sizeof f->can_be[c]);
        bit_set(f->can_be[c], c);
    }
}

/* Glyph counts as the map g draws them (lo and hi are read for any glyph;
 * all three start at zero). */
static void flow_counts(parser *ps, flow *f, const uint8_t *g)
{
    int32_t *counts = f->counts;
    f->cells = (int64_t)ps->p->width * ps->p->height;
    int64_t i = 0;
    for (; i + 4 <= f->cells; i += 4) /* four tables: a run of one glyph is no chain of increments */
    {
        counts[g[i]]++;
        f->lanes[0][g[i + 1]]++;
        f->lanes[1][g[i + 2]]++;
        f->lanes[2][g[i + 3]]++;
    }
    for (; i < f->cells; i++)
        counts[g[i]]++;
    for (int32_t u = 0; u < ps->met_count; u++)
    {
        uint8_t c = ps->met[u];
        counts[c] += f->lanes[0][c] + f->lanes[1][c] + f->lanes[2][c];
        f->lanes[0][c] = f->lanes[1][c] = f->lanes[2][c] = 0;
    }
    memset(f->known, 0, sizeof f->known);
    for (int32_t u = 0; u < ps->used_count; u++) /* the glyphs '!'..'~' the map holds */
        f->lo[ps->used[u]] = f->hi[ps->used[u]] = counts[ps->used[u]];
}

/* The prefab's random cells (those holding a glyph a substitution replaces):
 * how many, from the map's counts; dgi_random_build lists them. */
static void count_random(parser *ps, flow *f)
{
    dgi_prefab *p = ps->p;
    memset(f->random, 0, sizeof f->random);
    for (int32_t k = 0; k < p->sub_count; k++)
    {
        uint8_t c = ps->set->subs[p->sub_first + k].glyph;
        if (!bit_has(f->random, c))
            p->random_count += f->counts[c];
        bit_set(f->random, c);
    }
}

/* Substitutions and require counts: what the map's glyphs can become and
 * how many of each there can be. */
static void flow_run(parser *ps, flow *f, const uint8_t *g, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    flow_counts(ps, f, g);
    count_random(ps, f);
    for (int32_t k = 0; k < p->sub_count; k++)
        flow_sub(ps, f, &ps->set->subs[p->sub_first + k], lg);
    uint8_t written[128];
    int32_t n = glyphs_of(f->known, written);
    for (int32_t k = 0; k < n; k++)
    {
        int c = written[k];
        if (f->hi[c] > 0 && lg->glyph[c].cls == DGI_CLASS_NONE)
            perr(ps, f->from_line[c], f->from_col[c], "substitution result '%c' is not in the legend", c);
    }
    check_requires(ps, f, lg);
}

/* Back to zero: the counts of the map's bytes and the bounds of every glyph
 * the map or a substitution wrote. */
static void flow_clear(parser *ps, flow *f)
{
    const dgi_prefab *p = ps->p;
    for (int32_t u = 0; u < ps->met_count; u++)
        f->counts[ps->met[u]] = 0;
    for (int32_t u = 0; u < ps->used_count; u++)
        f->lo[ps->used[u]] = f->hi[ps->used[u]] = 0;
    for (int32_t k = 0; k < p->sub_count; k++)
    {
        const dgi_sub *s = &ps->set->subs[p->sub_first + k];
        f->lo[s->glyph] = f->hi[s->glyph] = f->lo[s->rest] = f->hi[s->rest] = 0;
        for (int32_t j = 0; j < s->count; j++)
            f->lo[ps->set->choices[s->first + j].glyph] = f->hi[ps->set->choices[s->first + j].glyph] = 0;
    }
}

/* Passability of each glyph of the map over its outcomes: for the edge
 * signatures a cell is passable only if every outcome is. */
static void outcome_passability(parser *ps, const flow *f, const dgi_legend *lg, uint8_t *passable)
{
    dgi_prefab *p = ps->p;
    uint8_t outcome[128];
    for (int32_t u = 0; u < ps->used_count; u++)
    {
        int c = ps->used[u], all = 1, some = 0;
        int32_t n = outcomes_of(ps, f, c, outcome);
        for (int32_t k = 0; k < n; k++)
        {
            const dgi_glyph *g = &lg->glyph[outcome[k]];
            all &= g->passable;
            some |= g->passable;
            p->has_void |= g->cls == DGI_CLASS_VOID;
            p->has_markers |= g->marker != 0;
        }
        passable[c] = (uint8_t)all;
        p->certain[c >> 5] |= (uint32_t)all << (c & 31);
        p->maybe[c >> 5] |= (uint32_t)some << (c & 31);
    }
}

static void check_flow(parser *ps, const uint8_t *g, const dgi_legend *lg)
{
    dgi_prefab *p = ps->p;
    flow *f = &ps->flow;
    if (p->sub_count > 0)
        flow_identity(ps, f);
    if (p->sub_count > 0 || p->req_count > 0)
    {
        flow_run(ps, f, g, lg);
        flow_clear(ps, f);
    }
    check_island_footprint(ps, f, lg);
    if (!ps->p_bad) /* then the map holds only glyphs of used[], whose entries are set */
    {
        outcome_passability(ps, f, lg, ps->passable);
        dgi_map_index(p, g, ps->passable);
    }
}

static void map_end(parser *ps)
{
    dgi_prefab *p = ps->p;
    p->height = ps->rows;
    if (ps->rows == 0)
    {
        perr(ps, ps->line, 1, "map of prefab '%s' has no rows", p->name);
        ps->shape_bad = 1;
    }
    if (!ps->shape_bad && ps->size_w >= 0 && (ps->size_w != p->width || ps->size_h != p->height))
        perr(ps, ps->size_line, ps->size_col, "size says %dx%d but the map is %dx%d",
             (int)ps->size_w, (int)ps->size_h, (int)p->width, (int)p->height);
    if (!ps->shape_bad && p->legend >= 0)
    {
        const uint8_t *g = ps->set->cells + p->cells;
        const dgi_legend *lg = &ps->set->legends[p->legend];
        find_doors(ps, g, lg);
        if (ps->exits >= 0 && ps->exits != p->door_sides)
            perr(ps, ps->exits_line, ps->exits_col,
                 "exits do not match the doors drawn on the border of prefab '%s'", p->name);
        check_flow(ps, g, lg);
        p->distinct = dgi_orient_distinct_edges(g, p->width, p->height, p->orientations,
                                                ps->p_bad ? NULL : (const uint64_t(*)[4])p->edge); /* made by check_flow */
    }
    ps->state = ST_TOP;
    ps->p = NULL;
}

/* A prefab whose map never started or never ended. */
static void prefab_abandon(parser *ps, const char *why)
{
    perr(ps, ps->p->line, 1, "prefab '%s' %s", ps->p->name, why);
    ps->state = ST_TOP;
    ps->p = NULL;
}

/* ---- lines -------------------------------------------------------------------------- */

static void group_line(parser *ps)
{
    char b[40];
    if (ps->ntok < 3 || ps->ntok > 4)
    {
        perr(ps, ps->line, ps->tok[0].col, "expected 'group TAG COUNT [start]'");
        return;
    }
    dgi_group gr;
    memset(&gr, 0, sizeof gr);
    if (!take_name(ps, &ps->tok[1], "group tag", gr.tag))
        return;
    if (!parse_range(&ps->tok[2], &gr.min, &gr.max) || gr.min > 100000 || gr.max > 100000)
    {
        perr(ps, ps->line, ps->tok[2].col, "count must be N, N-M or N+ (at most 100000), got '%s'",
             tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    if (ps->ntok == 4)
    {
        if (!TOK_IS(&ps->tok[3], "start"))
        {
            perr(ps, ps->line, ps->tok[3].col, "expected 'start', got '%s'", tok_str(&ps->tok[3], b, sizeof b));
            return;
        }
        gr.start = 1;
    }
    if (ps->set->group_count >= MAX_GROUPS)
    {
        perr(ps, ps->line, ps->tok[0].col, "more than %d groups", MAX_GROUPS);
        return;
    }
    if (GROW(ps, groups, group_count, cap_groups))
        ps->set->groups[ps->set->group_count++] = gr;
}

static void top_line(parser *ps)
{
    char b[40];
    const token *t = &ps->tok[0];
    if (TOK_IS(t, "legend"))
        legend_begin(ps, 0);
    else if (TOK_IS(t, "prefab"))
        prefab_begin(ps);
    else if (TOK_IS(t, "group"))
        group_line(ps);
    else if (TOK_IS(t, "prefabs"))
        perr(ps, ps->line, t->col, "'prefabs' header repeated");
    else if (TOK_IS(t, "map") || TOK_IS(t, "end"))
        perr(ps, ps->line, t->col, "'%s' outside a prefab", tok_str(t, b, sizeof b));
    else
        perr(ps, ps->line, t->col, "unknown keyword '%s' (expected legend, prefab or group)",
             tok_str(t, b, sizeof b));
}

static void header_line(parser *ps)
{
    char b[40];
    const token *t = &ps->tok[0];
    if (TOK_IS(t, "map"))
        map_begin(ps);
    else if (TOK_IS(t, "legend"))
        legend_begin(ps, 1);
    else if (TOK_IS(t, "mode"))
        key_mode(ps);
    else if (TOK_IS(t, "orient"))
        key_orient(ps);
    else if (TOK_IS(t, "weight"))
    {
        if (once(ps, KEY_WEIGHT) && need_args(ps, 1))
            take_number(ps, &ps->tok[1], 0, MAX_WEIGHT, "weight", &ps->p->weight);
    }
    else if (TOK_IS(t, "margin"))
    {
        if (once(ps, KEY_MARGIN) && need_args(ps, 1))
            take_number(ps, &ps->tok[1], 0, 255, "margin", &ps->p->margin);
    }
    else if (TOK_IS(t, "edge"))
    {
        if (once(ps, KEY_EDGE) && need_args(ps, 1))
        {
            if (TOK_IS(&ps->tok[1], "avoid") || TOK_IS(&ps->tok[1], "touch"))
                ps->p->edge_avoid = TOK_IS(&ps->tok[1], "avoid");
            else
                perr(ps, ps->line, ps->tok[1].col, "edge must be touch or avoid");
        }
    }
    else if (TOK_IS(t, "unique"))
    {
        if (once(ps, KEY_UNIQUE))
            ps->p->unique = 1;
    }
    else if (TOK_IS(t, "size"))
        key_size(ps);
    else if (TOK_IS(t, "exits"))
        key_exits(ps);
    else if (TOK_IS(t, "tags"))
        key_tags(ps);
    else if (TOK_IS(t, "pick"))
        key_sub(ps, DGI_SUB_PICK);
    else if (TOK_IS(t, "pick-once"))
        key_sub(ps, DGI_SUB_ONCE);
    else if (TOK_IS(t, "count"))
        key_sub(ps, DGI_SUB_COUNT);
    else if (TOK_IS(t, "require"))
        key_require(ps);
    else if (TOK_IS(t, "prefab"))
    {
        prefab_abandon(ps, "has no 'map'");
        top_line(ps);
        return;
    }
    else
    {
        perr(ps, ps->line, t->col,
             "unknown key '%s' (expected mode orient weight tags unique size margin edge exits "
             "pick pick-once count require legend map)",
             tok_str(t, b, sizeof b));
        return;
    }
    int32_t max_args = TOK_IS(t, "unique") ? 0 : 1;
    int single = max_args == 0 || TOK_IS(t, "weight") || TOK_IS(t, "margin") ||
                 TOK_IS(t, "edge") || TOK_IS(t, "size");
    if (single && ps->ntok > max_args + 1)
        perr(ps, ps->line, ps->tok[max_args + 1].col, "unexpected '%s'",
             tok_str(&ps->tok[max_args + 1], b, sizeof b));
}

static int is_end_line(const char *l, int32_t n)
{
    int32_t a = 0, z = n;
    while (a < z && (l[a] == ' ' || l[a] == '\t'))
        a++;
    while (z > a && (l[z - 1] == ' ' || l[z - 1] == '\t'))
        z--;
    return z - a == 3 && memcmp(l + a, "end", 3) == 0;
}

/* A map line that starts a new prefab means the `end` was forgotten. */
static int starts_prefab(const char *l, int32_t n)
{
    return n > 7 && memcmp(l, "prefab", 6) == 0 && (l[6] == ' ' || l[6] == '\t');
}

static void line(parser *ps)
{
    if (ps->state == ST_MAP)
    {
        if (is_end_line(ps->l, ps->ll))
        {
            map_end(ps);
            return;
        }
        if (!starts_prefab(ps->l, ps->ll))
        {
            map_row(ps);
            return;
        }
        prefab_abandon(ps, "has no 'end' after its map");
    }
    if (!tokenize(ps) || ps->ntok == 0)
        return;
    if (!ps->seen_magic)
    {
        ps->seen_magic = 1;
        if (TOK_IS(&ps->tok[0], "prefabs"))
        {
            if (ps->ntok != 2 || !TOK_IS(&ps->tok[1], "1"))
                perr(ps, ps->line, ps->ntok > 1 ? ps->tok[1].col : ps->tok[0].col + 7,
                     "unsupported format version (expected 'prefabs 1')");
            return;
        }
        perr(ps, ps->line, ps->tok[0].col, "expected 'prefabs 1' as the first line");
    }
    if (ps->state == ST_LEGEND)
    {
        if (TOK_IS(&ps->tok[0], "end"))
        {
            if (ps->ntok > 1)
                perr(ps, ps->line, ps->tok[1].col, "'end' takes no arguments");
            ps->state = ps->legend_in_prefab ? ST_HEADER : ST_TOP;
            return;
        }
        static const char *const closers[] = {"prefab", "map", "legend", "group", "prefabs"};
        if (lookup_word(&ps->tok[0], closers, 5) < 0)
        {
            legend_entry(ps);
            return;
        }
        perr(ps, ps->legend_line, 1, "legend is not closed by 'end'");
        ps->state = ps->legend_in_prefab ? ST_HEADER : ST_TOP;
    }
    if (ps->state == ST_TOP)
        top_line(ps);
    else
        header_line(ps);
}

static void run(parser *ps)
{
    if (ps->len >= 3 && memcmp(ps->src, "\xEF\xBB\xBF", 3) == 0)
        ps->pos = 3;
    while (ps->pos < ps->len && ps->errors < DG_PREFAB_MAX_ERRORS && ps->status != DG_E_NOMEM)
    {
        if (ps->state == ST_MAP)
            map_rows_fast(ps);
        if (ps->pos == ps->len)
            break;
        const char *start = ps->src + ps->pos;
        size_t left = ps->len - ps->pos;
        const char *nl = memchr(start, '\n', left);
        size_t n = nl ? (size_t)(nl - start) : left;
        ps->pos += nl ? n + 1 : n;
        ps->line++;
        if (n > 0 && start[n - 1] == '\r')
            n--;
        ps->l = start;
        ps->ll = (int32_t)n;
        line(ps);
    }
    if (ps->errors >= DG_PREFAB_MAX_ERRORS || ps->status == DG_E_NOMEM)
        return;
    ps->line++;
    if (!ps->seen_magic)
        perr(ps, 1, 1, "expected 'prefabs 1' as the first line");
    if (ps->state == ST_LEGEND)
        perr(ps, ps->legend_line, 1, "legend is not closed by 'end'");
    if (ps->state == ST_LEGEND && ps->legend_in_prefab)
        ps->state = ST_HEADER;
    if (ps->state == ST_HEADER)
        prefab_abandon(ps, "has no 'map'");
    else if (ps->state == ST_MAP)
        prefab_abandon(ps, "has no 'end' after its map");
}

static void set_release(dg_prefab_set *s)
{
    const dg_allocator *a = dgi_set_alloc(s);
    dgi_free(a, s->prefabs, (size_t)s->cap_prefabs * sizeof *s->prefabs);
    dgi_free(a, s->cells, s->cells_cap);
    dgi_free(a, s->legends, (size_t)s->cap_legends * sizeof *s->legends);
    dgi_free(a, s->subs, (size_t)s->cap_subs * sizeof *s->subs);
    dgi_free(a, s->choices, (size_t)s->cap_choices * sizeof *s->choices);
    dgi_free(a, s->reqs, (size_t)s->cap_reqs * sizeof *s->reqs);
    dgi_free(a, s->tags, (size_t)s->cap_tags * sizeof *s->tags);
    dgi_free(a, s->glyph_names, (size_t)s->cap_glyph_names * sizeof *s->glyph_names);
    dgi_free(a, s->groups, (size_t)s->cap_groups * sizeof *s->groups);
    dgi_free(a, s->names, (size_t)s->name_cap * sizeof *s->names);
    dgi_free(a, s->picks, (size_t)s->pick_total * sizeof *s->picks);
    dgi_free(a, s->random_cells, s->random_cells ? dgi_random_bytes(s) : 0);
    dg_allocator copy = s->alloc;
    dgi_free(s->has_alloc ? &copy : NULL, s, sizeof *s);
}

void dg_prefab_set_free(dg_prefab_set *set)
{
    if (set)
        set_release(set);
}

dg_status dg_prefab_parse(const char *text, size_t length, const char *source_name,
                          const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                          dg_prefab_set **set, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_parse: set is NULL");
    *set = NULL;
    if (!text && length > 0)
        return dgi_fail(diag, DG_E_NULL, "prefab_parse: text is NULL");
    if (length > (size_t)INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE, "prefab_parse: input over 2 GiB");
    parser *ps = dgi_alloc(allocator, sizeof *ps);
    dg_prefab_set *s = dgi_calloc(allocator, 1, sizeof *s);
    if (!ps || !s)
    {
        dgi_free(allocator, ps, sizeof *ps);
        dgi_free(allocator, s, sizeof *s);
        return dgi_fail(diag, DG_E_NOMEM, "prefab_parse: out of memory");
    }
    if (allocator && allocator->alloc)
    {
        s->alloc = *allocator;
        s->has_alloc = 1;
    }
    dgi_diag_ok(diag);
    memset(ps, 0, offsetof(parser, tok));
    ps->src = text ? text : "";
    ps->len = length;
    ps->source = source_name ? source_name : "<input>";
    ps->on_error = on_error;
    ps->user = user;
    ps->diag = diag;
    ps->set = s;
    ps->file_snapshot = -1;
    ps->allowed_legend = -1;
    memset(ps->flow.counts, 0, sizeof ps->flow.counts);
    memset(ps->flow.lanes, 0, sizeof ps->flow.lanes);
    memset(ps->flow.lo, 0, sizeof ps->flow.lo);
    memset(ps->flow.hi, 0, sizeof ps->flow.hi);
    memset(ps->passable, 0, sizeof ps->passable);
    /* every cell is a byte of the input: one allocation of its size (if it can
     * be had) spares the copies and page faults of a doubling buffer */
    s->cells = length ? dgi_alloc(allocator, length) : NULL;
    s->cells_cap = s->cells ? length : 0;
    if (default_legend(ps))
        run(ps);
    dg_status st = ps->status;
    if (st == DG_OK && (dgi_pick_build(s) != DG_OK || dgi_solid_build(s) != DG_OK || dgi_random_build(s) != DG_OK))
        st = dgi_fail(diag, DG_E_NOMEM, "%s: out of memory while indexing prefabs", ps->source);
    dgi_free(allocator, ps, sizeof *ps);
    if (st != DG_OK)
    {
        set_release(s);
        return st;
    }
    *set = s;
    return DG_OK;
}

dg_status dg_prefab_load(const char *path, const dg_allocator *allocator, dg_diag_fn on_error,
                         void *user, dg_prefab_set **set, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_load: set is NULL");
    *set = NULL;
    if (!path)
        return dgi_fail(diag, DG_E_NULL, "prefab_load: path is NULL");
    char *buf;
    size_t cap, len;
    dg_status st = dgi_read_file(path, DGI_PREFAB_FILE_MAX, "prefab file", allocator, &buf, &cap,
                                 &len, diag);
    if (st == DG_OK)
        st = dg_prefab_parse(buf, len, path, allocator, on_error, user, set, diag);
    dgi_free(allocator, buf, cap);
    return st;
}
