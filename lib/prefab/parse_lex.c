/* Errors and the checked words, for every part of the prefab parser
 * (parse_state.h): reporting, tokens in messages, names, numbers, ranges. */
#include "prefab/parse_state.h"

#include <stdio.h>

/* ---- errors ----------------------------------------------------------------- */

void dgi_parse_error(prefab_parser *ps, int32_t line, int32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (dgi_text_verror(&ps->err, DG_E_PARSE, line, col, fmt, ap) && ps->p)
        ps->p_bad = 1;
    va_end(ap);
}

/* Copies a token for messages (bounded, printable). */
const char *dgi_parse_tok_str(const prefab_token *t, char *buf, size_t size)
{
    return dgi_printable(t->s, t->n, buf, size);
}

/* ---- lexical helpers ------------------------------------------------------------ */

/* Checks a name token; copies it to out (DG_NAME_MAX bytes). */
int dgi_parse_take_name(prefab_parser *ps, const prefab_token *t, const char *what, char *out)
{
    if (t->n >= DG_NAME_MAX)
    {
        dgi_parse_error(ps, ps->in.line, t->col, "%s is longer than %d characters", what, DG_NAME_MAX - 1);
        return 0;
    }
    for (int32_t i = 0; i < t->n; i++)
        if (!dgi_name_char((uint8_t)t->s[i]))
        {
            dgi_parse_error(ps, ps->in.line, t->col + i,
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
        dgi_parse_error(ps, ps->in.line, t->col, "%s must be a number from %d to %d, got '%s'", what, (int)lo,
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

