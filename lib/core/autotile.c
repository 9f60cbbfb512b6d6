/* Autotile indices (dg_autotile): a streaming 3x3 stencil over rows of
 * classes. Three rows of classes, padded with the outside class, roll down
 * the grid; each output row reads only them. No allocation per cell. */
#include "core/core.h"

/* The 47 canonical blob masks (corner bits only beside both of their sides),
 * in increasing order: index i draws blob_masks[i]. */
static const uint8_t blob_masks[DG_AUTOTILE_BLOB_TILES] = {
    0,   1,   4,   5,   7,   16,  17,  20,  21,  23,  28,  29,  31,  64,  65,  68,
    69,  71,  80,  81,  84,  85,  87,  92,  93,  95,  112, 113, 116, 117, 119, 124,
    125, 127, 193, 197, 199, 209, 213, 215, 221, 223, 241, 245, 247, 253, 255};

/* Any 8-bit mask -> its blob index (corners without both sides dropped). */
static const uint8_t blob_index[256] = {
    0,  1,  0,  1,  2,  3,  2,  4,  0,  1,  0,  1,  2,  3,  2,  4,
    5,  6,  5,  6,  7,  8,  7,  9,  5,  6,  5,  6,  10, 11, 10, 12,
    0,  1,  0,  1,  2,  3,  2,  4,  0,  1,  0,  1,  2,  3,  2,  4,
    5,  6,  5,  6,  7,  8,  7,  9,  5,  6,  5,  6,  10, 11, 10, 12,
    13, 14, 13, 14, 15, 16, 15, 17, 13, 14, 13, 14, 15, 16, 15, 17,
    18, 19, 18, 19, 20, 21, 20, 22, 18, 19, 18, 19, 23, 24, 23, 25,
    13, 14, 13, 14, 15, 16, 15, 17, 13, 14, 13, 14, 15, 16, 15, 17,
    26, 27, 26, 27, 28, 29, 28, 30, 26, 27, 26, 27, 31, 32, 31, 33,
    0,  1,  0,  1,  2,  3,  2,  4,  0,  1,  0,  1,  2,  3,  2,  4,
    5,  6,  5,  6,  7,  8,  7,  9,  5,  6,  5,  6,  10, 11, 10, 12,
    0,  1,  0,  1,  2,  3,  2,  4,  0,  1,  0,  1,  2,  3,  2,  4,
    5,  6,  5,  6,  7,  8,  7,  9,  5,  6,  5,  6,  10, 11, 10, 12,
    13, 34, 13, 34, 15, 35, 15, 36, 13, 34, 13, 34, 15, 35, 15, 36,
    18, 37, 18, 37, 20, 38, 20, 39, 18, 37, 18, 37, 23, 40, 23, 41,
    13, 34, 13, 34, 15, 35, 15, 36, 13, 34, 13, 34, 15, 35, 15, 36,
    26, 42, 26, 42, 28, 43, 28, 44, 26, 42, 26, 42, 31, 45, 31, 46};

/* A 3x3 neighbourhood as 9 bits, one per cell in the self class: three
 * columns west to east (bits 0..2, 3..5, 6..8), each with its north, middle
 * and south cell in its bits 0, 1, 2. A table turns it into the index. */
#define NB_N 0x008u
#define NB_NE 0x040u
#define NB_E 0x080u
#define NB_SE 0x100u
#define NB_S 0x020u
#define NB_SW 0x004u
#define NB_W 0x002u
#define NB_NW 0x001u

typedef struct autotile_work {
    uint8_t *rows[3];  /* classes (or 0/1 in the self class) of rows y-1, y, y+1, padded */
    uint8_t map[256];  /* tile -> what a row holds */
    uint8_t outside;   /* what a cell outside the grid holds */
    uint8_t nine[512]; /* 3x3 bits -> the index of params->kind (fixed self class) */
} autotile_work;

void dg_autotile_defaults(dg_autotile_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->kind = DG_AUTOTILE_BLOB;
    params->self_class = 1;
    params->classes[DG_TILE_WALL] = 1;
    params->classes[DG_TILE_DOOR_SECRET] = 1;
    params->classes[DG_TILE_WATER] = 2;
}

uint8_t dgi_blob_index(uint32_t mask)
{
    return blob_index[mask & 0xFFu];
}

int32_t dg_autotile_blob_mask(int32_t index)
{
    return index >= 0 && index < DG_AUTOTILE_BLOB_TILES ? blob_masks[index] : -1;
}

/* The 8-bit mask (N=1 NE=2 ... NW=128) of a 3x3 neighbourhood. */
static uint32_t nine_to_mask(uint32_t nb)
{
    static const uint16_t bit[8] = {NB_N, NB_NE, NB_E, NB_SE, NB_S, NB_SW, NB_W, NB_NW};
    uint32_t m = 0;
    for (int i = 0; i < 8; i++)
        if (nb & bit[i])
            m |= 1u << i;
    return m;
}

static uint8_t mask_to_kind(uint32_t m, int32_t kind)
{
    if (kind == DG_AUTOTILE_CARDINAL)
        return (uint8_t)((m & 1u) | (m >> 1 & 2u) | (m >> 2 & 4u) | (m >> 3 & 8u));
    return blob_index[m];
}

static dg_status check_params(const dg_grid *grid, const dg_autotile_params *p, const uint8_t *out,
                              size_t out_size, int32_t out_stride, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (!p || !out)
        return dgi_fail(diag, DG_E_NULL, "autotile: %s is NULL", p ? "out" : "params");
    if (p->kind < DG_AUTOTILE_CARDINAL || p->kind > DG_AUTOTILE_CORNER)
        return dgi_fail(diag, DG_E_INVALID, "autotile kind %d is not 0..2", (int)p->kind);
    if (p->outside_class < 0 || p->outside_class > 255)
        return dgi_fail(diag, DG_E_INVALID, "autotile outside_class %d is not 0..255",
                        (int)p->outside_class);
    if (DGI_SPARE_CHECK(p->spare, "autotile params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->self_class == DG_AUTOTILE_OWN_CLASS)
    {
        if (p->kind == DG_AUTOTILE_CORNER)
            return dgi_fail(diag, DG_E_INVALID,
                            "autotile: the corner kind needs a self_class (a corner has no "
                            "class of its own)");
        int32_t t = 1;
        while (t < 256 && p->classes[t] == p->classes[0])
            t++;
        if (t == 256)
            return dgi_fail(diag, DG_E_INVALID,
                            "autotile: every tile is in class %d, there is nothing to draw",
                            (int)p->classes[0]);
    }
    else
    {
        if (p->self_class < 0 || p->self_class > 255)
            return dgi_fail(diag, DG_E_INVALID, "autotile self_class %d is not 0..255 or -1",
                            (int)p->self_class);
        int32_t t = 0;
        while (t < 256 && p->classes[t] != p->self_class)
            t++;
        if (t == 256)
            return dgi_fail(diag, DG_E_INVALID, "autotile: no tile is in self_class %d",
                            (int)p->self_class);
    }
    int32_t corner = p->kind == DG_AUTOTILE_CORNER;
    int64_t cols = (int64_t)grid->width + corner, rows = (int64_t)grid->height + corner;
    int64_t stride = out_stride ? out_stride : cols;
    if (stride < cols)
        return dgi_fail(diag, DG_E_INVALID, "autotile out_stride %d is shorter than a row (%d)",
                        (int)out_stride, (int)cols);
    uint64_t need = (uint64_t)(rows - 1) * (uint64_t)stride + (uint64_t)cols;
    if (need > (uint64_t)out_size)
        return dgi_fail(diag, DG_E_BUFFER, "autotile output holds %llu bytes, needs %llu",
                        (unsigned long long)out_size, (unsigned long long)need);
    return DG_OK;
}

/* Row y of the grid as classes (or as 1 in the self class, 0 not), padded
 * with the outside value; rows outside the grid are all outside. */
static void load_row(const dg_grid *g, const autotile_work *w, int32_t y, uint8_t *row)
{
    row[0] = row[g->width + 1] = w->outside;
    if (y < 0 || y >= g->height)
    {
        memset(row, w->outside, (size_t)g->width + 2);
        return;
    }
    const uint8_t *cells = g->cells + (size_t)y * (size_t)g->stride;
    for (int32_t x = 0; x < g->width; x++)
        row[x + 1] = w->map[cells[x]];
}

/* One output row with a fixed self class. col[1..width] holds each column's
 * 3-bit code (rows y-2, y-1, y) and is rolled down one row here with the
 * cells of row y + 1 (next, or the outside bit for every cell if next is
 * NULL); col[0] and col[width + 1] are the outside columns. The 9 bits of a
 * cell then move east one column (3 bits) per cell. */
static void row_fixed(uint8_t *col, const uint8_t *next, uint32_t outside, const uint8_t *map,
                      int32_t width, const uint8_t *nine, uint8_t *out)
{
    col[1] = (uint8_t)(col[1] >> 1 | (next ? map[next[0]] : outside) << 2);
    uint32_t nb = (uint32_t)col[0] << 3 | (uint32_t)col[1] << 6;
    if (next)
        for (int32_t x = 0; x < width - 1; x++)
        {
            uint32_t c = (uint32_t)col[x + 2] >> 1 | (uint32_t)map[next[x + 1]] << 2;
            col[x + 2] = (uint8_t)c;
            nb = nb >> 3 | c << 6;
            out[x] = nine[nb];
        }
    else
        for (int32_t x = 0; x < width - 1; x++)
        {
            uint32_t c = (uint32_t)col[x + 2] >> 1 | outside << 2;
            col[x + 2] = (uint8_t)c;
            nb = nb >> 3 | c << 6;
            out[x] = nine[nb];
        }
    nb = nb >> 3 | (uint32_t)col[width + 1] << 6;
    out[width - 1] = nine[nb];
}

/* The whole grid with a fixed self class (CARDINAL or BLOB); col has width + 2 bytes. */
static void grid_fixed(const dg_grid *g, const autotile_work *w, uint8_t *col, uint8_t *out,
                       size_t stride)
{
    uint32_t o = w->outside;
    col[0] = col[g->width + 1] = (uint8_t)(o * 7u);
    for (int32_t x = 0; x < g->width; x++) /* rows -2 and -1 outside, row 0 */
        col[x + 1] = (uint8_t)(o * 3u | (uint32_t)w->map[g->cells[x]] << 2);
    for (int32_t y = 0; y < g->height; y++)
    {
        const uint8_t *next = y + 1 < g->height ? g->cells + (size_t)(y + 1) * (size_t)g->stride : NULL;
        row_fixed(col, next, o, w->map, g->width, w->nine, out + (size_t)y * stride);
    }
}

/* One output row from class rows: each neighbour against the cell's own class. */
static void row_own(const uint8_t *up, const uint8_t *mid, const uint8_t *dn, int32_t width,
                    int32_t kind, uint8_t *out)
{
    for (int32_t x = 0; x < width; x++)
    {
        uint8_t c = mid[x + 1];
        uint32_t m = (uint32_t)(up[x + 1] == c) | (uint32_t)(mid[x + 2] == c) << 2 |
                     (uint32_t)(dn[x + 1] == c) << 4 | (uint32_t)(mid[x] == c) << 6;
        if (kind == DG_AUTOTILE_CARDINAL)
            out[x] = (uint8_t)((m & 1u) | (m >> 1 & 2u) | (m >> 2 & 4u) | (m >> 3 & 8u));
        else
            out[x] = blob_index[m | (uint32_t)(up[x + 2] == c) << 1 | (uint32_t)(dn[x + 2] == c) << 3 |
                                (uint32_t)(dn[x] == c) << 5 | (uint32_t)(up[x] == c) << 7];
    }
}

/* One row of the corner grid from the 0/1 rows above and below its corners. */
static void row_corner(const uint8_t *up, const uint8_t *dn, int32_t width, uint8_t *out)
{
    for (int32_t x = 0; x <= width; x++)
        out[x] = (uint8_t)(up[x + 1] | dn[x + 1] << 1 | dn[x] << 2 | up[x] << 3);
}

static void prepare(const dg_autotile_params *p, autotile_work *w)
{
    int own = p->self_class == DG_AUTOTILE_OWN_CLASS;
    for (int32_t t = 0; t < 256; t++)
        w->map[t] = own ? p->classes[t] : (uint8_t)(p->classes[t] == p->self_class);
    w->outside = own ? (uint8_t)p->outside_class : (uint8_t)(p->outside_class == p->self_class);
    if (!own && p->kind != DG_AUTOTILE_CORNER)
        for (uint32_t nb = 0; nb < 512; nb++)
            w->nine[nb] = mask_to_kind(nine_to_mask(nb), p->kind);
}

/* The corner grid, or the own-class kinds: rows of classes roll down the grid. */
static void grid_rows(const dg_grid *grid, autotile_work *w, int32_t kind, uint8_t *out,
                      size_t stride)
{
    int32_t corner = kind == DG_AUTOTILE_CORNER;
    load_row(grid, w, -1, w->rows[0]);
    load_row(grid, w, 0, w->rows[1]);
    for (int32_t y = 0; y < grid->height + corner; y++)
    {
        uint8_t *o = out + (size_t)y * stride;
        if (corner)
            row_corner(w->rows[0], w->rows[1], grid->width, o);
        else
        {
            load_row(grid, w, y + 1, w->rows[2]);
            row_own(w->rows[0], w->rows[1], w->rows[2], grid->width, kind, o);
        }
        uint8_t *first = w->rows[0];
        w->rows[0] = w->rows[1];
        w->rows[1] = w->rows[2];
        w->rows[2] = first;
        if (corner)
            load_row(grid, w, y + 1, w->rows[1]);
    }
}

dg_status dg_autotile(const dg_grid *grid, const dg_autotile_params *params, uint8_t *out,
                      size_t out_size, int32_t out_stride, const dg_allocator *allocator,
                      dg_diag *diag)
{
    dg_status st = check_params(grid, params, out, out_size, out_stride, diag);
    if (st != DG_OK)
        return st;
    int32_t width = grid->width, corner = params->kind == DG_AUTOTILE_CORNER;
    size_t padded = (size_t)width + 2;
    size_t stride = out_stride ? (size_t)out_stride : (size_t)width + (size_t)corner;
    uint8_t *buf = dgi_alloc(allocator, padded * 3);
    if (!buf)
        return dgi_fail(diag, DG_E_NOMEM, "autotile: out of memory for %llu bytes",
                        (unsigned long long)(padded * 3));
    autotile_work w;
    prepare(params, &w);
    for (int i = 0; i < 3; i++)
        w.rows[i] = buf + padded * (size_t)i;
    if (params->kind != DG_AUTOTILE_CORNER && params->self_class != DG_AUTOTILE_OWN_CLASS)
        grid_fixed(grid, &w, buf, out, stride);
    else
        grid_rows(grid, &w, params->kind, out, stride);
    dgi_free(allocator, buf, padded * 3);
    dgi_diag_ok(diag);
    return DG_OK;
}
