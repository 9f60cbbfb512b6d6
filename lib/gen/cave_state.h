/* Private state of the cellular-automaton cave generator (cave*.c): its
 * scratch (bit rows, the cell map, runs and regions, candidate tunnels), the
 * cell map's values, packed cells and the small helpers both files use.
 * cave.c runs the automaton, labels the regions, picks the start and exit
 * and writes the tiles and the result; cave_connect.c joins the caves by
 * tunnels. */
#ifndef DG_CAVE_STATE_H
#define DG_CAVE_STATE_H

#include "gen/gen.h"

enum { CAVE_PAD = 2 }; /* rings of edge cells around the area in the cell map */

/* Cell map values: open cells are CAVE or TUNNEL, EDGE lies outside the area. */
enum {
    CAVE_M_ROCK = 0, CAVE_M_CAVE = 1, CAVE_M_TUNNEL = 2, CAVE_M_OPEN = 3, CAVE_M_EDGE = 4,
    CAVE_M_KIND = 7
};

/* Cells in the searches' queues are map indexes; cells in lists are packed
 * coordinates (map y << 16 | map x). */
#define CAVE_XY(x, y) ((uint32_t)(y) << 16 | (uint32_t)(x))
#define CAVE_XY_X(p) ((int32_t)((p) & 0xFFFFu))
#define CAVE_XY_Y(p) ((int32_t)((p) >> 16))

typedef struct cave_region {
    int32_t size;
    int32_t x0, y0, x1, y1; /* bounding box, map coordinates, inclusive */
} cave_region;

typedef struct cave_tunnel {
    uint32_t p, q;     /* the cave cells it joins (packed) */
    int32_t a, b;      /* their regions */
    int32_t u, v;      /* the touching cells it runs through (map indexes) */
    int32_t length;    /* steps from p to q */
} cave_tunnel;

/* A run of open cells along an area row; after labelling, set is its region. */
typedef struct cave_row_run {
    int32_t y, x0, x1; /* area coordinates, x1 inclusive */
    int32_t set;       /* union-find parent while labelling, then the region */
} cave_row_run;

typedef struct cave_edge {
    int32_t a, b;  /* the regions of the two cells that touch */
    uint32_t p, q; /* the cave cells nearest to each (packed) */
    int32_t u, v;  /* the two touching cells (map indexes) */
    int32_t length; /* steps of the tunnel from p through u, v to q */
} cave_edge;

typedef struct cave_ctx {
    const dg_cave_params *p;
    const dg_allocator *a;
    const dgi_mask *reserved;   /* NULL: no reserved cells */
    uint64_t *forbid;           /* with reserved cells: bit rows as rock, 1 = reserved or
                                 * beside one (always rock); NULL without */
    int32_t *dist;              /* with reserved cells: steps to the nearest cave */
    int32_t border, iw, ih;     /* the area: iw x ih cells inside the border */
    /* bit rows, 1 = rock: (ih + 2) rows of nw words, bit x + 1 = area column x;
     * the pad bits (column -1, columns >= iw, rows -1 and ih) are always rock */
    int32_t nw;
    uint64_t *rock, *next, *sum0, *sum1;
    uint64_t last_pad;          /* pad bits of each row's last word */
    /* the cell map: the area with PAD edge rings, pw x ph bytes */
    int32_t pw, ph;
    size_t cells;
    void *block;      size_t block_size; /* the scratch below, one allocation */
    uint8_t *map;
    int32_t span;     /* rows per band of the first sweep (about the root of ih) */
    int32_t *marks;   /* per band: the first sweep's row before it (origin, owner; the
                       * distance is the origin's) and its first run: 2 iw + 1 each */
    uint32_t *near;   /* per cell of one band (span x iw): the nearest cave cell (packed)
                       * by the first sweep, NO_CAVE for none */
    int32_t *near_owner; /* the same cells: that cave's region (-1 for none) */
    int32_t *queue;   /* the exit walk's queue (one spare entry: it writes ahead); the
                       * same memory as marks and near, which are done with by then */
    int32_t *rows;    /* the sweeps' rows: 9 x iw (distance, origin, owner: the first
                       * sweep's row, the second's two rows) */
    int32_t *row_first, *row_end; /* per area row: its candidate tunnels in edges */
    int32_t *owner;   /* around reserved cells, per map cell: the region of the cave
                       * nearest by a walk (or -1) */
    uint32_t *origin; /* around reserved cells, per map cell: that cave's cell (packed) */
    cave_row_run *runs;        int32_t run_count, run_cap;
    cave_region *regions;  int32_t region_count, region_cap;
    int32_t *keep;    /* per region: cave index or -1 (keep_cap entries) */
    int32_t *caves;   int32_t cave_count; /* region of each cave (keep_cap entries) */
    int32_t *parent;  /* per region: union-find parent (keep_cap entries) */
    int32_t keep_cap;
    cave_edge *edges; int32_t edge_count, edge_cap;
    int32_t *order;   /* edges sorted by tunnel length */
    cave_tunnel *tunnels;  int32_t tunnel_count;
    int32_t start, exit; /* map indexes */
    int32_t start_cave;
} cave_ctx;

/* Bit row r of bits (row 0: the pad row above the area). */
static inline uint64_t *dgi_cave_row_of(uint64_t *bits, const cave_ctx *c, int32_t r)
{
    return bits + (size_t)r * (size_t)c->nw;
}

/* The map index of area cell (x, y). */
static inline int32_t dgi_cave_map_index(const cave_ctx *c, int32_t x, int32_t y)
{
    return (y + CAVE_PAD) * c->pw + x + CAVE_PAD;
}

/* Sets (rock 1) or clears the bit of map cell p (packed). */
static inline void dgi_cave_set_rock(cave_ctx *c, uint32_t p, int rock)
{
    int32_t j = CAVE_XY_X(p) - CAVE_PAD + 1;
    uint64_t *w = dgi_cave_row_of(c->rock, c, CAVE_XY_Y(p) - CAVE_PAD + 1) + (j >> 6),
             bit = 1ULL << (j & 63);
    *w = rock ? *w | bit : *w & ~bit;
}

/* cave_connect.c: the caves joined by tunnels along a spanning tree of their
 * nearest pairs (around reserved cells, by walks that keep off them). */
dg_status dgi_cave_connect(cave_ctx *c);

#endif
