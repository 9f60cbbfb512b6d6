/* Private state of the text prefab parser (parse*.c): the parser every part
 * works on, its tokens, and what the parts share. parse.c reads the lines,
 * starts and ends prefabs, reads their maps and holds the entry points;
 * parse_legend.c reads the legends, parse_keys.c the prefab header keys,
 * parse_flow.c analyses substitutions at load time; parse_lex.c, below them
 * all, holds errors and what the parts read words with. */
#ifndef DG_PARSE_STATE_H
#define DG_PARSE_STATE_H

#include "prefab/prefab.h"

#define PREFAB_MAX_TOKENS 128 /* words on one header line */

enum { PREFAB_ST_TOP, PREFAB_ST_LEGEND, PREFAB_ST_HEADER, PREFAB_ST_MAP };

typedef struct prefab_token {
    const char *s;
    int32_t n, col;
} prefab_token;

/* Load-time analysis of substitutions: glyph count intervals [lo, hi], where
 * each result glyph was first written, and which final glyphs each drawn glyph
 * can become. No glyph can cover more than the map's cells, so both bounds are
 * kept at most `cells`: chained picks would otherwise multiply them past any
 * integer width. counts, lo and hi are zero between maps (flow_clear resets
 * the entries a map wrote), which spares clearing them whole per map. */
typedef struct prefab_flow {
    int64_t cells;
    int32_t counts[256];  /* cells per byte as the map draws them */
    int32_t lanes[3][256]; /* counts of every 4th cell but the first, summed into counts */
    uint32_t random[4];   /* the glyphs substitutions replace */
    int64_t lo[128], hi[128];
    uint32_t known[4]; /* glyphs a substitution writes, with where it first did */
    int32_t from_line[128], from_col[128];
    uint32_t can_be[128][4];
} prefab_flow;

typedef struct prefab_parser {
    dgi_text_lines in; /* the input, and the number of the line being read */
    dgi_text_errors err; /* the source's name, the errors so far and where they go */
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
    prefab_token tok[PREFAB_MAX_TOKENS];
    dgi_legend file_legend, cur;
    uint8_t legend_seen[128];
    uint8_t cell_state[256]; /* per byte: CELL_* bits for the current map */
    uint8_t allowed[256];    /* per byte: CELL_ALLOWED if legend allowed_legend has it */
    uint8_t used[128]; /* the glyphs ('!'..'~') the map holds, as first met */
    int32_t used_count;
    uint8_t met[256]; /* every byte the map holds, as first met */
    int32_t met_count;
    uint8_t passable[256]; /* per glyph of the map: passable in every outcome */
    prefab_flow flow;
} prefab_parser;

/* Room for one more element (dgi_grow called only when full). */
#define PREFAB_GROW(ps, arr, count, cap)                                                 \
    ((ps)->set->count < (ps)->set->cap ||                                                 \
             dgi_grow(dgi_set_alloc((ps)->set), (void **)&(ps)->set->arr, &(ps)->set->cap, \
                      (ps)->set->count + 1, sizeof *(ps)->set->arr) == DG_OK              \
         ? 1                                                                              \
         : (dgi_text_oom(&(ps)->err, "prefabs"), 0))

#define PREFAB_MAX_WEIGHT 1000000 /* of a prefab or a substitution's choice */

enum { /* header keys that may appear once */
    PREFAB_KEY_MODE = 1, PREFAB_KEY_ORIENT = 2, PREFAB_KEY_WEIGHT = 4, PREFAB_KEY_SIZE = 8,
    PREFAB_KEY_UNIQUE = 16, PREFAB_KEY_MARGIN = 32, PREFAB_KEY_EDGE = 64, PREFAB_KEY_EXITS = 128
};

static inline int prefab_tok_eq(const prefab_token *t, const char *word, size_t n)
{
    return (size_t)t->n == n && (n == 0 || t->s[0] == word[0]) && memcmp(t->s, word, n) == 0;
}

/* A token against a string literal: its length is known at compile time. */
#define PREFAB_TOK_IS(t, literal) prefab_tok_eq((t), "" literal, sizeof(literal) - 1)

/* A token against a NUL-terminated word, without measuring the word first:
 * token bytes are never NUL, so the scan stops at the word's end. */
static inline int prefab_tok_is_word(const prefab_token *t, const char *word)
{
    for (int32_t i = 0; i < t->n; i++)
        if (word[i] != t->s[i])
            return 0;
    return word[t->n] == '\0';
}

/* The index of the token among words[0..n), or -1. */
static inline int prefab_lookup_word(const prefab_token *t, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        if (prefab_tok_is_word(t, words[i]))
            return i;
    return -1;
}

/* 1 for a byte a glyph may be. */
static inline int prefab_is_glyph(int c)
{
    return c > ' ' && c < 127 && c != ';';
}

/* parse_lex.c: errors, and reading words. */
/* Reports an error at line:col (to ps->err; marks the prefab bad). */
void dgi_parse_error(prefab_parser *ps, int32_t line, int32_t col, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 4, 5)))
#endif
    ;
/* The token, bounded and printable, for messages. */
const char *dgi_parse_tok_str(const prefab_token *t, char *buf, size_t size);
/* Checks a name token and copies it to out (DG_NAME_MAX bytes); 0 (reported) if bad. */
int dgi_parse_take_name(prefab_parser *ps, const prefab_token *t, const char *what, char *out);
/* A number lo..hi into out; 0 (reported) if not. */
int dgi_parse_take_number(prefab_parser *ps, const prefab_token *t, int32_t lo, int32_t hi,
                          const char *what, int32_t *out);
/* "N", "N-M" or "N+" (max -1); 0 if none of them. */
int dgi_parse_range(const prefab_token *t, int32_t *lo, int32_t *hi);

/* parse_legend.c: legends. */
/* The class names (glyph names 0..7) and the built-in glyphs; 0 out of memory. */
int dgi_parse_default_legend(prefab_parser *ps);
/* `legend`: the file's (in_prefab 0) or the prefab's own legend starts. */
void dgi_parse_legend_begin(prefab_parser *ps, int in_prefab);
/* One entry line of the open legend. */
void dgi_parse_legend_entry(prefab_parser *ps);

/* parse_keys.c: the prefab header keys. */
/* 1 if ps->tok[0] is the first of its key (bit `key`), else 0 (reported). */
int dgi_parse_once(prefab_parser *ps, int key);
/* 1 if the key has at least min values, else 0 (reported). */
int dgi_parse_need_args(prefab_parser *ps, int32_t min);
/* The keys with a reader of their own: mode, orient, size, exits, tags, the
 * substitutions (kind DGI_SUB_*) and require. */
void dgi_parse_key_mode(prefab_parser *ps);
void dgi_parse_key_orient(prefab_parser *ps);
void dgi_parse_key_size(prefab_parser *ps);
void dgi_parse_key_exits(prefab_parser *ps);
void dgi_parse_key_tags(prefab_parser *ps);
void dgi_parse_key_sub(prefab_parser *ps, int kind);
void dgi_parse_key_require(prefab_parser *ps);

/* parse_flow.c: load-time analysis of substitutions. */
/* Checks the substitutions and requires of the ended map g and indexes it. */
void dgi_parse_check_flow(prefab_parser *ps, const uint8_t *g, const dgi_legend *lg);

#endif
