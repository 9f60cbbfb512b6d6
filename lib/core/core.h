/* What every folder of the library needs: allocation, diagnostics, the grid,
 * building a result, the random streams, bit helpers and reserved-cell masks.
 * Private (not installed); the folders above include it through their own header. */
#ifndef DG_CORE_H
#define DG_CORE_H


#include "dungeon.h"
#include "core/params.h" /* the generators' parameter tables */

#include <stdarg.h>
#include <string.h>

/* mingw-w64 builds use its C99 printf family (__USE_MINGW_ANSI_STDIO), which
 * gcc checks as gnu_printf rather than msvcrt's printf. */
#if defined(__MINGW32__)
#define DGI_PRINTF_FORMAT gnu_printf
#else
#define DGI_PRINTF_FORMAT printf
#endif

/* A macro's value as a string literal. */
#define DGI_STR_OF(x) #x
#define DGI_STR(x) DGI_STR_OF(x)

#define DG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define DG_MAX(a, b) ((a) > (b) ? (a) : (b))
#define DG_CELL(g, x, y) ((g)->cells[(size_t)(y) * (size_t)(g)->stride + (size_t)(x)])

/* alloc.c: allocation through the optional hooks (NULL means malloc/free). */
void *dgi_alloc(const dg_allocator *a, size_t size);
void *dgi_calloc(const dg_allocator *a, size_t count, size_t size); /* zeroed, overflow-checked */
void dgi_free(const dg_allocator *a, void *ptr, size_t size);
/* Grows *array (element size elem) to hold at least need elements; doubles. */
dg_status dgi_grow(const dg_allocator *a, void **array, int32_t *capacity, int32_t need,
                   size_t elem);

/* readfile.c: the file at path whole into *buf (free it with dgi_free(a,
 * *buf, *cap), on error too), at most max bytes. Failures are said in diag:
 * "PATH: cannot open file" or "read error" (DG_E_INVALID), "PATH: file over N
 * MiB, the WHAT limit" (DG_E_TOO_LARGE), "out of memory" (DG_E_NOMEM). */
dg_status dgi_read_file(const char *path, size_t max, const char *what, const dg_allocator *a,
                        char **buf, size_t *cap, size_t *len, dg_diag *diag);

/* status.c: fills an optional diagnostic and returns status. */
dg_status dgi_fail(dg_diag *diag, dg_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 3, 4)))
#endif
    ;
dg_status dgi_fail_at(dg_diag *diag, dg_status status, int32_t line, int32_t column,
                      const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 5, 6)))
#endif
    ;
void dgi_diag_ok(dg_diag *diag);

/* textin.c: for the readers of the text formats. A name's characters
 * (letters, digits, '_', '.', '-'); a decimal number of 1 to 9 digits in
 * s[0..n) into *out (0 if it is not one); s[0..n) for a message, at most
 * size - 1 bytes, '?' for a byte that does not print. */
int dgi_name_char(int c);
int dgi_parse_uint(const char *s, int32_t n, int32_t *out);
const char *dgi_printable(const char *s, int32_t n, char *buf, size_t size);
/* Where a reader's errors go, each as "source:line:col: message": the first
 * sets status and is copied to *diag, each of the first max goes to on_error
 * (either NULL: not wanted), and those after max are dropped. */
typedef struct dgi_text_errors {
    const char *source;
    dg_diag *diag;
    dg_diag_fn on_error;
    void *user;
    int32_t errors, max; /* reported so far, at most max */
    dg_status status;    /* DG_OK until the first error (or dgi_text_oom) */
} dgi_text_errors;
/* Reports an error with its status at line:col; 0 if max were reported before. */
int dgi_text_error(dgi_text_errors *e, dg_status status, int32_t line, int32_t col,
                   const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 5, 6)))
#endif
    ;
int dgi_text_verror(dgi_text_errors *e, dg_status status, int32_t line, int32_t col,
                    const char *fmt, va_list ap)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(DGI_PRINTF_FORMAT, 5, 0)))
#endif
    ;
/* Memory ran out while parsing `what`: status DG_E_NOMEM and, the first time,
 * "source: out of memory while parsing WHAT" in *diag. */
void dgi_text_oom(dgi_text_errors *e, const char *what);
/* 1 once the reader stops: max errors reported, or memory out. */
static inline int dgi_text_stopped(const dgi_text_errors *e)
{
    return e->errors >= e->max || e->status == DG_E_NOMEM;
}
/* A reader's walk through its input a line at a time: a line ends at '\n'
 * or at the input's end, and an input ending in '\n' has no empty last line. */
typedef struct dgi_text_lines {
    const char *src;
    size_t len, pos; /* the input, and where the next line starts */
    int32_t line;    /* the number of the line last returned: 0 before the first */
    int drop_cr;     /* a '\r' ending a line is not part of it */
} dgi_text_lines;
/* The lines of src[0..len) (src may be NULL if len is 0); DGI_TEXT_BOM starts past
 * a UTF-8 byte order mark, DGI_TEXT_CR leaves a '\r' ending a line out of it. */
enum { DGI_TEXT_BOM = 1, DGI_TEXT_CR = 2 };
dgi_text_lines dgi_text_lines_of(const char *src, size_t len, int flags);
/* The next line's first byte, with its length (no line end) in *n and its
 * number in t->line; NULL once no line is left. */
const char *dgi_text_next_line(dgi_text_lines *t, size_t *n);
/* status.c: DG_OK if each of the count spare slots of a growable input struct
 * (docs/abi.md) is 0, else DG_E_INVALID naming the struct (what) and the slot. */
dg_status dgi_spare_check_n(const int32_t *spare, int32_t count, const char *what, dg_diag *diag);
/* dgi_spare_check_n over a struct's spare array (an array, not a pointer),
 * counting its slots: a field that takes a slot shortens the check with it. */
#define DGI_SPARE_CHECK(spare, what, diag) \
    dgi_spare_check_n((spare), DGI_ARRAY_SLOTS(spare), (what), (diag))
/* The slots of an array; under gcc and clang a pointer (whose sizeof would
 * count 2 or 1 slots silently) does not compile. */
#if defined(__GNUC__) || defined(__clang__)
#define DGI_ARRAY_SLOTS(a)                                                            \
    ((int32_t)(sizeof(a) / sizeof((a)[0]) +                                          \
               0 * sizeof(struct {                                                   \
                   _Static_assert(!__builtin_types_compatible_p(__typeof__(a),       \
                                                                __typeof__(&(a)[0])), \
                                  "an array, not a pointer");                        \
                   int slot;                                                         \
               })))
#else
#define DGI_ARRAY_SLOTS(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))
#endif

/* autotile.c: the blob index (0..46) of any 8-bit neighbour mask. */
uint8_t dgi_blob_index(uint32_t mask);
/* autotile_draw.c: the art tile (DG_ART_*, or DGI_ART_NONE) of cell (x, y)
 * and, in *ground, the tile drawn under it. */
#define DGI_ART_NONE 255
uint8_t dgi_art_at(const dg_grid *grid, int32_t x, int32_t y, uint8_t *ground);

/* grid.c: validates a grid and fills diag with the reason. */
dg_status dgi_grid_validate(const dg_grid *grid, dg_diag *diag);

/* result.c: appending to a result; each returns DG_E_NOMEM on failure. */
void dgi_result_reset(dg_result *r);
dg_status dgi_result_add_room(dg_result *r, const dg_room *room);
dg_status dgi_result_add_corridor(dg_result *r, const dg_corridor *corridor);
dg_status dgi_result_add_door(dg_result *r, const dg_door *door);
dg_status dgi_result_add_marker(dg_result *r, const dg_marker *marker);
/* One label per room (role "", name "", node -1 for rooms without one yet);
 * one edge per corridor (-1 for corridors without one yet). */
dg_status dgi_result_label_rooms(dg_result *r);
dg_status dgi_result_edge_corridors(dg_result *r);
/* Makes room for at least the given list lengths (counts and contents kept),
 * so a generator can fail with DG_E_NOMEM before writing anything. (attach) */
dg_status dgi_result_reserve(dg_result *r, int32_t rooms, int32_t corridors, int32_t doors,
                             int32_t markers);
/* Index of the room whose interior contains p, or -1 (linear scan). */
int32_t dgi_result_room_at(const dg_result *r, dg_point p);
/* The same, else a room whose interior is a 4-neighbour of p (p is an alcove
 * in its wall), else -1. */
int32_t dgi_result_room_near(const dg_result *r, dg_point p);

/* rng.c: the PCG32 step and Lemire's unbiased bounded draw, inline for the
 * generators' hot loops (rng must not be NULL, bound must be > 0). The public
 * dg_rng_next and dg_rng_below are these, so the numbers are the same. (attach) */
#define DGI_PCG_MULT 6364136223846793005ULL
static inline uint32_t dgi_rng_next(dg_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * DGI_PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}
static inline uint32_t dgi_rng_below(dg_rng *rng, uint32_t bound)
{
    uint64_t m = (uint64_t)dgi_rng_next(rng) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound)
    {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold)
        {
            m = (uint64_t)dgi_rng_next(rng) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* dg_rng_range inline, for the hot draws (no draw when hi <= lo, the whole
 * range when the span wraps); the public dg_rng_range is this. */
static inline int32_t dgi_rng_range(dg_rng *rng, int32_t lo, int32_t hi)
{
    if (hi <= lo)
        return lo;
    uint32_t span = (uint32_t)((int64_t)hi - (int64_t)lo + 1);
    if (span == 0)
        return (int32_t)((int64_t)lo + (int64_t)dgi_rng_next(rng));
    return (int32_t)((int64_t)lo + dgi_rng_below(rng, span));
}

/* dg_rng_chance inline, for the hot draws (no draw at 0 or 1000 permille). */
static inline int dgi_rng_chance(dg_rng *rng, int32_t permille)
{
    return permille > 0 && (permille >= 1000 || dgi_rng_below(rng, 1000) < (uint32_t)permille);
}

/* rng.c's seeding and hashes, inline so that a constant stream folds: the
 * public dg_rng_seed, dg_hash64 and dg_hash_combine are these. */
static inline uint64_t dgi_hash64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
static inline uint64_t dgi_hash_combine(uint64_t a, uint64_t b)
{
    return dgi_hash64(dgi_hash64(a) ^ (b + 0x632BE59BD9B4E019ULL));
}
static inline void dgi_rng_seed(dg_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->inc = (dgi_hash64(stream ^ 0xD1B54A32D192ED03ULL) << 1) | 1u;
    (void)dgi_rng_next(rng);
    rng->state += dgi_hash64(seed);
    (void)dgi_rng_next(rng);
}

/* Set bits of a word, and the index of its lowest set bit (w != 0). */
static inline int32_t dgi_popcount64(uint64_t w)
{
#if (defined(__GNUC__) || defined(__clang__)) &&                                             \
    (defined(__POPCNT__) || defined(__aarch64__) || defined(__wasm__))
    /* one instruction (x86 with POPCNT, AArch64's vector count, WebAssembly) */
    return __builtin_popcountll(w);
#else /* bit-parallel sums: a libgcc call without the instruction is slower */
    w -= (w >> 1) & 0x5555555555555555ULL;
    w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
    w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((w * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int32_t dgi_lowest_bit64(uint64_t w)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(w);
#else
    int32_t i = 0;
    for (; !(w & 1u); w >>= 1)
        i++;
    return i;
#endif
}

/* Union-find root of i in a parent array where a root is its own parent
 * (path halving keeps the trees flat). */
static inline int32_t dgi_uf_find(int32_t *parent, int32_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* mask.c: reserved cells. */
/* Cells a generator must not write (dg_site.reserved): nonzero at
 * cells[y * stride + x]. A generator given one leaves those cells exactly as
 * they were, never counts them as rock it may carve or wall, and keeps its
 * open cells from touching them (not even diagonally). NULL: no reserved cells. */
typedef struct dgi_mask {
    const uint8_t *cells;
    int32_t stride;
} dgi_mask;
static inline int dgi_mask_at(const dgi_mask *m, int32_t x, int32_t y)
{
    return m && m->cells[(size_t)y * (size_t)m->stride + (size_t)x] != 0;
}
/* 1 if a reserved cell lies in the square (x-1..x+1, y-1..y+1) (cells
 * outside the grid are not reserved); an open cell may not be written here. */
int dgi_mask_near(const dgi_mask *m, const dg_grid *g, int32_t x, int32_t y);
/* Summed-area table of m over w x h ((w + 1) * (h + 1) entries), so that
 * dgi_mask_count gives the reserved cells in a rect (clipped) in O(1). (mask.c) */
void dgi_mask_sums(const dgi_mask *m, int32_t w, int32_t h, int32_t *sums);
int32_t dgi_mask_count(const int32_t *sums, int32_t w, int32_t h, dg_rect q);

/* Cells in queues and heaps are packed as (y << 15) | x (sides are at most
 * 32768) so no division is needed; per-cell arrays are indexed y * width + x. */
#define DGI_PACK(x, y) (((y) << 15) | (x))
/* For hot loops specialised by constant arguments. */
#if defined(__GNUC__) || defined(__clang__)
#define DGI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DGI_ALWAYS_INLINE inline
#endif
#define DGI_PX(p) ((p) & 0x7FFF)
#define DGI_PY(p) ((p) >> 15)

/* hardening (static analysis): under clang-tidy/scan-build, let the analyzer
 * see that dgi_fail and dgi_fail_at return the status they are given, so a
 * "return dgi_fail(...)" error path is not taken for a success. No effect on
 * real builds (the macro exists only while __clang_analyzer__ is defined;
 * status.c defines the functions as (dgi_fail) so the macro stays out). */
#ifdef __clang_analyzer__
#define dgi_fail(diag, status, ...) (dgi_fail(diag, status, __VA_ARGS__), (status))
#define dgi_fail_at(diag, status, line, column, ...) \
    (dgi_fail_at(diag, status, line, column, __VA_ARGS__), (status))
#endif

#endif
