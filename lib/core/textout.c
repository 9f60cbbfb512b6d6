/* A small buffered text writer shared by recipe printing and the exporters:
 * output through the caller's callback, into a caller buffer, or only counted. */
#include "core/textout.h"

void dgi_out_init(dgi_out *o, dg_write_fn write, void *user)
{
    o->write = write;
    o->user = user;
    o->total = 0;
    o->len = 0;
}

void dgi_out_flush(dgi_out *o)
{
    if (o->len && o->write)
        o->write(o->user, o->buf, o->len);
    o->len = 0;
}

void dgi_out_bytes(dgi_out *o, const char *s, size_t n)
{
    o->total += n;
    if (!o->write)
        return;
    while (n)
    {
        if (o->len == sizeof o->buf)
            dgi_out_flush(o);
        size_t k = DG_MIN(n, sizeof o->buf - o->len);
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

void dgi_out_str(dgi_out *o, const char *s)
{
    dgi_out_bytes(o, s, strlen(s));
}

void dgi_out_char(dgi_out *o, char c)
{
    dgi_out_bytes(o, &c, 1);
}

void dgi_out_u64(dgi_out *o, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do
    {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    dgi_out_bytes(o, tmp + i, sizeof tmp - i);
}

void dgi_out_i64(dgi_out *o, int64_t v)
{
    if (v < 0)
    {
        dgi_out_char(o, '-');
        dgi_out_u64(o, (uint64_t)0 - (uint64_t)v);
    }
    else
        dgi_out_u64(o, (uint64_t)v);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1Fu;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0Fu;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++)
    {
        if ((s[i] & 0xC0u) != 0x80u) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void dgi_out_json_str(dgi_out *o, const char *str)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    dgi_out_char(o, '"');
    while (*s)
    {
        size_t n = utf8_len(s);
        if (*s == '"' || *s == '\\')
        {
            char esc[2] = {'\\', (char)*s};
            dgi_out_bytes(o, esc, 2);
        }
        else if (n == 0 || *s < 0x20)
        {
            /* control byte, or a stray byte of invalid UTF-8 (kept as U+00XX) */
            char esc[6] = {'\\', 'u', '0', '0', hex[*s >> 4], hex[*s & 15]};
            dgi_out_bytes(o, esc, 6);
            n = 1;
        }
        else
            dgi_out_bytes(o, (const char *)s, n);
        s += n;
    }
    dgi_out_char(o, '"');
}

/* U+FFFE and U+FFFF: valid UTF-8, but not XML 1.0 characters, even as &#...; */
static int xml_nonchar(const unsigned char *s, size_t n)
{
    return n == 3 && s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE;
}

void dgi_out_xml_str(dgi_out *o, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s)
    {
        size_t n = utf8_len(s);
        switch (*s)
        {
        case '&': dgi_out_str(o, "&amp;"); break;
        case '<': dgi_out_str(o, "&lt;"); break;
        case '>': dgi_out_str(o, "&gt;"); break;
        case '"': dgi_out_str(o, "&quot;"); break;
        case '\'': dgi_out_str(o, "&apos;"); break;
        default:
            if (n == 0 || *s < 0x20) /* XML 1.0 allows no control characters in attributes */
            {
                dgi_out_char(o, '?');
                n = 1;
            }
            else if (xml_nonchar(s, n))
                dgi_out_str(o, "\xEF\xBF\xBD"); /* U+FFFD, the replacement character */
            else
                dgi_out_bytes(o, (const char *)s, n);
        }
        s += n ? n : 1;
    }
}

void dgi_out_tiles(dgi_out *o, const uint8_t *cells, int32_t n)
{
    char chunk[512];
    size_t len = 0;
    for (int32_t i = 0; i < n; i++)
    {
        if (len > sizeof chunk - 5) /* room for "255," */
        {
            dgi_out_bytes(o, chunk, len);
            len = 0;
        }
        uint8_t v = cells[i];
        if (v >= 100)
            chunk[len++] = (char)('0' + v / 100);
        if (v >= 10)
            chunk[len++] = (char)('0' + v / 10 % 10);
        chunk[len++] = (char)('0' + v % 10);
        if (i + 1 < n)
            chunk[len++] = ',';
    }
    dgi_out_bytes(o, chunk, len);
}

typedef struct mem_sink {
    char *p;
} mem_sink;

static void mem_write(void *user, const char *data, size_t len)
{
    mem_sink *m = user;
    memcpy(m->p, data, len);
    m->p += len;
}

dg_status dgi_out_to_buffer(void (*emit)(const void *ctx, dgi_out *o), const void *ctx,
                            char *out, size_t out_size, size_t *written)
{
    dgi_out o;
    dgi_out_init(&o, NULL, NULL);
    emit(ctx, &o);
    if (written)
        *written = o.total;
    if (!out)
        return DG_OK;
    if (out_size <= o.total)
        return DG_E_BUFFER;
    mem_sink m = {out};
    dgi_out_init(&o, mem_write, &m);
    emit(ctx, &o);
    dgi_out_flush(&o);
    *m.p = '\0';
    return DG_OK;
}
