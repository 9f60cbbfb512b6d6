/* Reading a text file whole, bounded: the prefab, graph, spawn and role
 * loaders all read this way, so an endless stream (/dev/zero) costs no more
 * than the format's limit and every loader words its failures alike. */
#include "core/core.h"

#include <stdio.h>

/* Grows *buf (capacity *cap, from 4 KiB, doubling) up to max bytes. */
static dg_status grow_buffer(const dg_allocator *a, size_t max, char **buf, size_t *cap, size_t len)
{
    size_t bigger_cap = DG_MIN(*cap ? *cap * 2 : (size_t)4096, max);
    char *bigger = dgi_alloc(a, bigger_cap);
    if (!bigger)
        return DG_E_NOMEM;
    if (len)
        memcpy(bigger, *buf, len);
    dgi_free(a, *buf, *cap);
    *buf = bigger;
    *cap = bigger_cap;
    return DG_OK;
}

/* Reads f until its end; DG_E_TOO_LARGE as soon as a byte past max is there
 * (the buffer never grows past max). */
static dg_status read_stream(FILE *f, const dg_allocator *a, size_t max, char **buf, size_t *cap,
                             size_t *len)
{
    for (;;)
    {
        if (*len == max)
        {
            char extra;
            if (fread(&extra, 1, 1, f))
                return DG_E_TOO_LARGE;
            return ferror(f) ? DG_E_INVALID : DG_OK;
        }
        if (*len == *cap)
        {
            dg_status st = grow_buffer(a, max, buf, cap, *len);
            if (st != DG_OK)
                return st;
        }
        size_t got = fread(*buf + *len, 1, *cap - *len, f);
        *len += got;
        if (got == 0)
            return ferror(f) ? DG_E_INVALID : DG_OK;
    }
}

dg_status dgi_read_file(const char *path, size_t max, const char *what, const dg_allocator *a,
                        char **buf, size_t *cap, size_t *len, dg_diag *diag)
{
    *buf = NULL;
    *cap = *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return dgi_fail(diag, DG_E_INVALID, "%s: cannot open file", path);
    dg_status st = read_stream(f, a, max, buf, cap, len);
    fclose(f);
    if (st == DG_E_TOO_LARGE)
        return dgi_fail(diag, st, "%s: file over %d %s, the %s limit", path,
                        (int)(max >= ((size_t)1 << 20) ? max >> 20 : max >> 10),
                        max >= ((size_t)1 << 20) ? "MiB" : "KiB", what);
    if (st != DG_OK)
        return dgi_fail(diag, st, "%s: %s", path, st == DG_E_NOMEM ? "out of memory" : "read error");
    return DG_OK;
}
