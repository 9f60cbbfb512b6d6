/* Field of view: symmetric shadowcasting (Albert Ford's formulation) in
 * integer arithmetic.
 *
 * Each quadrant is scanned row by row away from the origin. A row covers the
 * columns between a start and an end slope; opaque cells narrow or split it.
 * A transparent cell is visible only if its centre lies inside the row's
 * slopes, which makes visibility between transparent cells mutual. Slopes are
 * fractions (2 * col - 1) / (2 * depth), so everything stays in integers. */
#include "analysis/analysis.h"

static const uint8_t transparent_default[256] = {
    [DG_TILE_FLOOR] = 1, [DG_TILE_CORRIDOR] = 1,    [DG_TILE_DOOR] = 1,
    [DG_TILE_TRAP] = 1,  [DG_TILE_STAIRS_UP] = 1,   [DG_TILE_STAIRS_DOWN] = 1,
    [DG_TILE_WATER] = 1, [DG_TILE_DOOR_LOCKED] = 1, [DG_TILE_DOOR_SECRET] = 1,
};

int dg_tile_transparent(uint8_t tile)
{
    return transparent_default[tile];
}

dg_rect dg_fov_bounds(const dg_grid *grid, dg_point o, int32_t radius)
{
    dg_rect r = {0, 0, 0, 0};
    if (dg_grid_check(grid) != DG_OK || radius < 0 || o.x < 0 || o.y < 0 ||
        o.x >= grid->width || o.y >= grid->height)
        return r;
    if (radius == 0)
    {
        r.w = grid->width;
        r.h = grid->height;
        return r;
    }
    r.x = (int32_t)DG_MAX((int64_t)o.x - radius, 0);
    r.y = (int32_t)DG_MAX((int64_t)o.y - radius, 0);
    r.w = (int32_t)(DG_MIN((int64_t)o.x + radius, (int64_t)grid->width - 1) - r.x + 1);
    r.h = (int32_t)(DG_MIN((int64_t)o.y + radius, (int64_t)grid->height - 1) - r.y + 1);
    return r;
}

enum { PREV_NONE, PREV_FLOOR, PREV_WALL };

/* A row being scanned: depth, slopes start = sn/sd and end = en/ed (sd, ed >
 * 0), the next column to look at and the last one, what the previous cell was. */
typedef struct fov_row {
    int32_t depth, col, last;
    int32_t sn, sd, en, ed;
    int32_t prev;
} fov_row;

typedef struct fov_quadrant {
    int32_t cx, cy;       /* cell step per column */
    int32_t dx, dy;       /* cell step per depth */
    int32_t col_lo, col_hi; /* columns inside the grid */
    int32_t max_depth;
} fov_quadrant;

typedef struct fov {
    const dg_grid *g;
    const uint8_t *clear; /* transparent table */
    uint8_t *vis;
    int32_t ox, oy;
    int64_t range2;       /* radius * (radius + 1), or -1 for unlimited */
    fov_row *stack;
    const uint8_t *sight; /* overlay sight mask (DG_SIGHT_*), or NULL */
    ptrdiff_t sight_stride;
} fov;

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Fixes the column range of a row from its slopes, clipped to the grid.
 * Outside the grid counts as opaque, but as the grid's side edges run along
 * the scan (column -ox and w-1-ox at every depth), the slopes that opaque
 * cells there would set never exclude a cell inside: clipping is enough. */
static void row_begin(fov_row *r, const fov_quadrant *q)
{
    int64_t d2 = 2 * (int64_t)r->depth;
    int64_t lo = floor_div(d2 * r->sn + r->sd, 2 * (int64_t)r->sd);   /* round half up */
    int64_t hi = -floor_div(r->ed - d2 * r->en, 2 * (int64_t)r->ed); /* round half down */
    r->prev = PREV_NONE;
    r->col = (int32_t)DG_MAX(lo, (int64_t)q->col_lo);
    r->last = (int32_t)DG_MIN(hi, (int64_t)q->col_hi);
}

static void row_child(fov_row *child, const fov_row *r, int32_t en, int32_t ed,
                      const fov_quadrant *q)
{
    child->depth = r->depth + 1;
    child->sn = r->sn;
    child->sd = r->sd;
    child->en = en;
    child->ed = ed;
    row_begin(child, q);
}

/* The cells of one row from r->col on, until its end or until a wall after
 * lit cells opens a deeper row: that child goes to child and 1 is returned
 * (the row resumes after the wall later), else 0. The row's state is held in
 * locals while scanning: the stores into vis may alias any byte, so fields
 * read through pointers would be read again after each. */
static DGI_ALWAYS_INLINE int scan_row(const fov *f, const fov_quadrant *q, fov_row *r,
                                      fov_row *child, const int masked)
{
    const uint8_t *clear = f->clear, *cells = f->g->cells, *sight = f->sight;
    uint8_t *vis = f->vis;
    const ptrdiff_t width = f->g->width, stride = f->g->stride, sight_stride = f->sight_stride;
    const int64_t range2 = f->range2, d = r->depth;
    const int32_t depth = r->depth, last = r->last, en = r->en, ed = r->ed;
    const int32_t x0 = f->ox + depth * q->dx, y0 = f->oy + depth * q->dy;
    int32_t col = r->col, prev = r->prev, sn = r->sn, sd = r->sd;
    for (; col <= last; col++)
    {
        const ptrdiff_t x = x0 + col * q->cx, y = y0 + col * q->cy;
        int opaque;
        uint8_t s = masked ? sight[y * sight_stride + x] : DG_SIGHT_TILE;
        if (masked && s != DG_SIGHT_TILE)
            opaque = s == DG_SIGHT_OPAQUE;
        else
            opaque = !clear[cells[y * stride + x]];
        if ((opaque || ((int64_t)col * sd >= d * sn && (int64_t)col * ed <= d * en)) &&
            (range2 < 0 || (int64_t)col * col + d * d <= range2))
            vis[y * width + x] = 1;
        if (prev == PREV_WALL && !opaque)
        {
            sn = 2 * col - 1;
            sd = 2 * depth;
        }
        if (prev == PREV_FLOOR && opaque && depth < q->max_depth)
        {
            r->col = col + 1;
            r->prev = PREV_WALL;
            r->sn = sn;
            r->sd = sd;
            row_child(child, r, 2 * col - 1, 2 * depth, q);
            return 1;
        }
        prev = opaque ? PREV_WALL : PREV_FLOOR;
    }
    r->col = col;
    r->prev = prev;
    r->sn = sn;
    r->sd = sd;
    return 0;
}

/* Inlined with a constant `masked` so the plain scan reads no mask. */
static DGI_ALWAYS_INLINE void scan_quadrant(const fov *f, const fov_quadrant *q, const int masked)
{
    if (q->max_depth < 1)
        return;
    fov_row *stack = f->stack;
    int32_t top = 0;
    stack[0].depth = 1;
    stack[0].sn = -1;
    stack[0].sd = 1;
    stack[0].en = 1;
    stack[0].ed = 1;
    row_begin(&stack[0], q);
    while (top >= 0)
    {
        fov_row *r = &stack[top];
        if (scan_row(f, q, r, &stack[top + 1], masked))
        {
            top++;
            continue;
        }
        /* The row ends lit: carry on one row deeper (in place: this row is done). */
        if (r->prev == PREV_FLOOR && r->depth < q->max_depth)
        {
            fov_row next = *r;
            row_child(r, &next, next.en, next.ed, q);
        }
        else
            top--;
    }
}

/* The four quadrants: north, south, east, west. */
static void fov_quadrants(const fov *f, int32_t radius, fov_quadrant q[4])
{
    int32_t w = f->g->width, h = f->g->height;
    const int32_t cx[4] = {1, 1, 0, 0}, cy[4] = {0, 0, 1, 1};
    const int32_t dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
    const int32_t edge[4] = {f->oy, h - 1 - f->oy, w - 1 - f->ox, f->ox};
    for (int k = 0; k < 4; k++)
    {
        q[k].cx = cx[k];
        q[k].cy = cy[k];
        q[k].dx = dx[k];
        q[k].dy = dy[k];
        q[k].col_lo = cx[k] ? -f->ox : -f->oy;
        q[k].col_hi = cx[k] ? w - 1 - f->ox : h - 1 - f->oy;
        q[k].max_depth = radius > 0 ? DG_MIN(radius, edge[k]) : edge[k];
    }
}

#define FOV_STACK_ROWS 128

static void scan_plain(const fov *f, const fov_quadrant *q)
{
    scan_quadrant(f, q, 0);
}

static void scan_masked(const fov *f, const fov_quadrant *q)
{
    scan_quadrant(f, q, 1);
}

static dg_status fov_check(const dg_grid *grid, dg_point origin, int32_t radius,
                           const uint8_t *visible, size_t visible_count, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (origin.x < 0 || origin.y < 0 || origin.x >= grid->width || origin.y >= grid->height)
        return dgi_fail(diag, DG_E_INVALID, "fov origin (%d, %d) is outside the %dx%d grid",
                        (int)origin.x, (int)origin.y, (int)grid->width, (int)grid->height);
    if (radius < 0)
        return dgi_fail(diag, DG_E_INVALID, "fov radius is %d: must be >= 0 (0: unlimited)",
                        (int)radius);
    return dgi_check_cells_buffer(grid, visible, visible_count, "visible", diag);
}

/* The scan once checked; sight is the mask (NULL: none) at its stride. */
static dg_status fov_run(const dg_grid *grid, const uint8_t *transparent, const uint8_t *sight,
                         int32_t sight_stride, dg_point origin, int32_t radius, uint8_t *visible,
                         const dg_allocator *allocator, dg_diag *diag)
{
    fov f = {grid, transparent ? transparent : transparent_default, visible, origin.x, origin.y,
             radius > 0 ? (int64_t)radius * ((int64_t)radius + 1) : -1, NULL, sight,
             sight_stride};
    fov_quadrant q[4];
    fov_quadrants(&f, radius, q);
    int32_t depth = DG_MAX(DG_MAX(q[0].max_depth, q[1].max_depth),
                           DG_MAX(q[2].max_depth, q[3].max_depth));
    /* Rows on the stack have strictly increasing depths: depth + 1 suffice. */
    fov_row local[FOV_STACK_ROWS];
    size_t rows = (size_t)depth + 1, bytes = rows * sizeof(fov_row);
    f.stack = rows <= FOV_STACK_ROWS ? local : dgi_alloc(allocator, bytes);
    if (!f.stack)
        return dgi_fail(diag, DG_E_NOMEM, "fov needs %zu bytes for %d rows", bytes, (int)depth);
    dg_rect box = dg_fov_bounds(grid, origin, radius);
    for (int32_t y = box.y; y < box.y + box.h; y++)
        memset(visible + (size_t)y * (size_t)grid->width + (size_t)box.x, 0, (size_t)box.w);
    visible[(size_t)origin.y * (size_t)grid->width + (size_t)origin.x] = 1;
    for (int k = 0; k < 4; k++)
        (sight ? scan_masked : scan_plain)(&f, &q[k]);
    if (f.stack != local)
        dgi_free(allocator, f.stack, bytes);
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_fov(const dg_grid *grid, const uint8_t *transparent, dg_point origin, int32_t radius,
                 uint8_t *visible, size_t visible_count, const dg_allocator *allocator,
                 dg_diag *diag)
{
    dg_status st = fov_check(grid, origin, radius, visible, visible_count, diag);
    if (st != DG_OK)
        return st;
    return fov_run(grid, transparent, NULL, 0, origin, radius, visible, allocator, diag);
}

dg_status dg_fov_overlay(const dg_grid *grid, const uint8_t *transparent, const dg_overlay *overlay,
                         dg_point origin, int32_t radius, uint8_t *visible, size_t visible_count,
                         const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = fov_check(grid, origin, radius, visible, visible_count, diag);
    int32_t stride = 0;
    if (st == DG_OK)
        st = dgi_overlay_check(grid, overlay, &stride, diag);
    if (st != DG_OK)
        return st;
    const uint8_t *sight =
        overlay && (overlay->flags & DG_OVERLAY_SIGHT) ? overlay->sight : NULL;
    return fov_run(grid, transparent, sight, stride, origin, radius, visible, allocator, diag);
}
