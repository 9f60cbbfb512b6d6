/* What every reader of the library's text formats (prefab sets, level graphs,
 * role and spawn tables) shares: the characters of a name, decimal numbers,
 * words quoted in messages, and errors placed as source:line:col. */
#include "core/core.h"

#include <stdio.h>

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

void dgi_diag_vsource(dg_diag *d, dg_status status, const char *source, int32_t line,
                      int32_t col, const char *fmt, va_list ap)
{
    d->status = status;
    d->line = line;
    d->column = col;
    int k = snprintf(d->message, sizeof d->message, "%s:%d:%d: ", source, (int)line, (int)col);
    if (k >= 0 && (size_t)k < sizeof d->message)
        vsnprintf(d->message + k, sizeof d->message - (size_t)k, fmt, ap);
}
