/* Errors and the words of a line, for every part of the prefab parser
 * (parse_state.h): reporting, token comparisons, names, numbers, ranges and
 * the splitting of a header line into tokens. */
#include "prefab/parse_state.h"

#include <stdio.h>

/* ---- errors ----------------------------------------------------------------- */

void dgi_parse_error(prefab_parser *ps, int32_t line, int32_t col, const char *fmt, ...)
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

void dgi_parse_oom(prefab_parser *ps)
{
    if (ps->status != DG_E_NOMEM)
        dgi_fail(ps->diag, DG_E_NOMEM, "%s: out of memory while parsing prefabs", ps->source);
    ps->status = DG_E_NOMEM;
}

/* A token against a NUL-terminated word, without measuring the word first:
 * token bytes are never NUL, so the scan stops at the word's end. */
int dgi_parse_tok_is_word(const prefab_token *t, const char *word)
{
    for (int32_t i = 0; i < t->n; i++)
        if (word[i] != t->s[i])
            return 0;
    return word[t->n] == '\0';
}

/* Copies a token for messages (bounded, printable). */
const char *dgi_parse_tok_str(const prefab_token *t, char *buf, size_t size)
{
    return dgi_printable(t->s, t->n, buf, size);
}

/* ---- lexical helpers ------------------------------------------------------------ */

int dgi_parse_is_glyph(int c)
{
    return c > ' ' && c < 127 && c != ';';
}

/* Checks a name token; copies it to out (DG_NAME_MAX bytes). */
int dgi_parse_take_name(prefab_parser *ps, const prefab_token *t, const char *what, char *out)
{
    if (t->n >= DG_NAME_MAX)
    {
        dgi_parse_error(ps, ps->line, t->col, "%s is longer than %d characters", what, DG_NAME_MAX - 1);
        return 0;
    }
    for (int32_t i = 0; i < t->n; i++)
        if (!dgi_name_char((uint8_t)t->s[i]))
        {
            dgi_parse_error(ps, ps->line, t->col + i,
                 "invalid character in %s (allowed: letters, digits, '_', '.', '-')", what);
            return 0;
        }
    memcpy(out, t->s, (size_t)t->n);
    out[t->n] = '\0';
    return 1;
}

int dgi_parse_take_number(prefab_parser *ps, const prefab_token *t, int32_t lo, int32_t hi, const char *what,
                       int32_t *out)
{
    int32_t v;
    if (!dgi_parse_uint(t->s, t->n, &v) || v < lo || v > hi)
    {
        char b[40];
        dgi_parse_error(ps, ps->line, t->col, "%s must be a number from %d to %d, got '%s'", what, (int)lo,
             (int)hi, dgi_parse_tok_str(t, b, sizeof b));
        return 0;
    }
    *out = v;
    return 1;
}

/* "N", "N-M" or "N+" (max -1). */
int dgi_parse_range(const prefab_token *t, int32_t *lo, int32_t *hi)
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

/* The byte that stopped a word is neither blank nor the line end: report it. */
static void bad_word_byte(prefab_parser *ps, uint8_t c, int32_t col)
{
    if (c >= 0x80)
        dgi_parse_error(ps, ps->line, col, "non-ASCII byte 0x%02X outside a comment", c);
    else
        dgi_parse_error(ps, ps->line, col, "control byte 0x%02X", c);
}

/* Splits the current header line into tokens; `;` at a token start begins a
 * comment. Returns 0 (and reports) on a bad byte. */
int dgi_parse_tokenize(prefab_parser *ps)
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
        while (i < n && prefab_is_word_byte(l[i]))
            i++;
        if (i < n && !is_blank(l[i]))
        {
            bad_word_byte(ps, l[i], i + 1);
            return 0;
        }
        if (ps->ntok == PREFAB_MAX_TOKENS)
        {
            dgi_parse_error(ps, ps->line, start + 1, "more than %d words on one line", PREFAB_MAX_TOKENS);
            return 0;
        }
        prefab_token *t = &ps->tok[ps->ntok++];
        t->s = ps->l + start;
        t->n = i - start;
        t->col = start + 1;
    }
}

int dgi_parse_lookup_word(const prefab_token *t, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        if (dgi_parse_tok_is_word(t, words[i]))
            return i;
    return -1;
}
