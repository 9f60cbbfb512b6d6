/* What every reader of the library's text formats (prefab sets, level graphs,
 * role and spawn tables) shares: the lines, the characters of a name, decimal
 * numbers, words quoted in messages, and where errors go, as source:line:col. */
#include "core/core.h"

#include <stdio.h>

dgi_text_lines dgi_text_lines_of(const char *src, size_t len, int flags)
{
    dgi_text_lines t = {src, len, 0, 0, (flags & DGI_TEXT_CR) != 0};
    if ((flags & DGI_TEXT_BOM) && len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        t.pos = 3;
    return t;
}

const char *dgi_text_next_line(dgi_text_lines *t, size_t *n)
{
    if (t->pos >= t->len)
        return NULL;
    const char *start = t->src + t->pos, *nl = memchr(start, '\n', t->len - t->pos);
    *n = nl ? (size_t)(nl - start) : t->len - t->pos;
    t->pos += *n + (nl != NULL);
    t->line++;
    if (t->drop_cr && *n > 0 && start[*n - 1] == '\r')
        (*n)--;
    return start;
}

int dgi_name_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

int dgi_parse_uint(const char *s, int32_t n, int32_t *out)
{
    if (n <= 0 || n > 9)
        return 0;
    int32_t v = 0;
    for (int32_t i = 0; i < n; i++)
    {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

const char *dgi_printable(const char *s, int32_t n, char *buf, size_t size)
{
    size_t k = DG_MIN((size_t)n, size - 1);
    for (size_t i = 0; i < k; i++)
        buf[i] = (s[i] > ' ' && s[i] < 127) ? s[i] : '?';
    buf[k] = '\0';
    return buf;
}

int dgi_text_verror(dgi_text_errors *e, dg_status status, int32_t line, int32_t col,
                    const char *fmt, va_list ap)
{
    if (e->errors >= e->max)
        return 0;
    dg_diag d;
    d.status = status;
    d.line = line;
    d.column = col;
    int k = snprintf(d.message, sizeof d.message, "%s:%d:%d: ", e->source, (int)line, (int)col);
    if (k >= 0 && (size_t)k < sizeof d.message)
        vsnprintf(d.message + k, sizeof d.message - (size_t)k, fmt, ap);
    if (e->errors++ == 0)
    {
        e->status = status;
        if (e->diag)
            *e->diag = d;
    }
    if (e->on_error)
        e->on_error(e->user, &d);
    return 1;
}

int dgi_text_error(dgi_text_errors *e, dg_status status, int32_t line, int32_t col,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int reported = dgi_text_verror(e, status, line, col, fmt, ap);
    va_end(ap);
    return reported;
}

void dgi_text_oom(dgi_text_errors *e, const char *what)
{
    if (e->status != DG_E_NOMEM)
        dgi_fail(e->diag, DG_E_NOMEM, "%s: out of memory while parsing %s", e->source, what);
    e->status = DG_E_NOMEM;
}
