/* textout.c: the buffered text writer behind recipe printing and the
 * exporters. Private. */
#ifndef DG_TEXTOUT_H
#define DG_TEXTOUT_H

#include "core/core.h"

/* A buffered text sink: through a dg_write_fn, into memory, or only counting. */
typedef struct dgi_out {
    dg_write_fn write; /* NULL: count only */
    void *user;
    size_t total;      /* bytes emitted so far */
    size_t len;        /* bytes waiting in buf */
    char buf[2048];
} dgi_out;
void dgi_out_init(dgi_out *o, dg_write_fn write, void *user);
void dgi_out_bytes(dgi_out *o, const char *s, size_t n);
void dgi_out_str(dgi_out *o, const char *s);
void dgi_out_char(dgi_out *o, char c);
void dgi_out_i64(dgi_out *o, int64_t v);
void dgi_out_u64(dgi_out *o, uint64_t v);
/* s (NUL-terminated) as a JSON string with quotes, or as XML attribute text;
 * invalid UTF-8 and control bytes are escaped or replaced so the output stays valid. */
void dgi_out_json_str(dgi_out *o, const char *s);
void dgi_out_xml_str(dgi_out *o, const char *s);
void dgi_out_flush(dgi_out *o);
/* n tile values as decimal numbers separated by commas (no trailing comma). */
void dgi_out_tiles(dgi_out *o, const uint8_t *cells, int32_t n);
/* Runs emit(ctx, o) once counting, then (if it fits) into out[0..out_size)
 * with a NUL; the two-call buffer convention of the public API. */
dg_status dgi_out_to_buffer(void (*emit)(const void *ctx, dgi_out *o), const void *ctx,
                            char *out, size_t out_size, size_t *written);

#endif
