/* Cutting the caves' floor into chambers, the cave generator's rooms
 * (cave.c): straight cuts at narrow places (a k-d split) of the open cells
 * given as bit rows. A piece is every open cell of its rect, so chambers'
 * rects never overlap and a chamber's cells are exactly the open cells of
 * its rect, the way every reader of rooms counts them. */
#ifndef DG_CAVE_CHAMBERS_H
#define DG_CAVE_CHAMBERS_H

#include "gen/gen.h"
typedef struct dgi_chamber {
    int32_t x0, y0, x1, y1; /* area coordinates, inclusive */
    int32_t cells;
    int32_t node;           /* its node in the tree of cuts */
    /* its line counts in chambers.counts: per row from `rows` its open cells,
     * row_stride on its pairs, two strides on its runs; the same per column */
    int32_t rows, row_stride, cols, col_stride;
    int32_t end;            /* the end of the counts it holds itself */
} dgi_chamber;

/* The tree of cuts: a cut sends cells before `at` (x if vertical, else y)
 * to `first`, the others to `second`; a leaf (vertical -1) names its
 * chamber in `first`. */
typedef struct dgi_cut_node {
    int32_t vertical, at, first, second;
} dgi_cut_node;

/* Open cells as bit lines: line k, bit j (rows: k = y, j = x; columns the
 * transpose, k = x, j = y), words per line. */
typedef struct dgi_bit_lines {
    uint64_t *bits; int32_t words;
} dgi_bit_lines;

/* The chambers of an area of iw x ih cells and the tree of cuts that finds
 * a cell's chamber; the rest is the cutting's scratch. */
typedef struct dgi_chambers {
    const dg_allocator *a;
    int32_t iw, ih;
    dgi_bit_lines by_row, by_col;
    dgi_chamber *list;  int32_t count, cap;
    dgi_chamber *stack; int32_t stack_cap; /* pieces still to cut (about one per level) */
    dgi_cut_node *nodes; int32_t node_count; /* 2 x cap entries */
    int32_t *counts; int32_t counts_cap; /* the line counts of the pieces on the stack,
                                          * in stack order */
    size_t buf_size;
} dgi_chambers;

/* The chambers of the area's open cells (open_cells of them), in row order
 * of their rects' corners. rock_rows: ih rows of nw words, bit x + 1 of a row
 * = area column x, 1 = rock. DG_E_NOMEM if scratch runs out; free *ch with
 * dgi_chambers_free either way. */
dg_status dgi_chambers_find(dgi_chambers *ch, const uint64_t *rock_rows, int32_t nw, int32_t iw,
                            int32_t ih, int32_t open_cells, const dg_allocator *a);
/* The chamber of the open cell at area coordinates (x, y). */
int32_t dgi_chamber_at(const dgi_chambers *ch, int32_t x, int32_t y);
/* Frees the scratch and the list (safe on a zeroed *ch). */
void dgi_chambers_free(dgi_chambers *ch);

#endif
