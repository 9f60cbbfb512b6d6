/* Private state of the island generator (islands*.c): the generator every
 * part works on, its groups and its position maps. islands.c checks the
 * parameters, sets up, runs the tries and chooses the start and exit;
 * islands_try.c, below it, makes one try's map: the margins, the reserved
 * cells, the placing of buildings and the connectivity check. */
#ifndef DG_ISLANDS_STATE_H
#define DG_ISLANDS_STATE_H

#include "analysis/analysis.h"
#include "prefab/prefab.h"

#define ISLANDS_POSITION_MAPS 16 /* rectangle sizes kept: a map evicted is rebuilt from every margin */
#define ISLANDS_ROW_BLOCK 32

typedef struct islands_group {
    const char *tag;
    int32_t min, max, start;
} islands_group;

typedef struct islands_ctx {
    const dg_prefab_set *set;
    const dg_prefab_islands_params *p;
    int32_t w, h;
    islands_group *groups;  /* group_count of them */
    int32_t group_count;
    /* bit maps have `words` 64-bit words per row */
    uint64_t *occ;  /* the buildings' footprints */
    int32_t words;
    /* Where a rectangle of a given size cannot go: bit (x, y) is set when the
     * rectangle with its top-left there would overlap a margin, so testing a
     * position of a building without void cells is one bit (the 1 x 1 map
     * marks the cells within a margin). Brought up to date from the list of
     * margins (grown footprint rectangles) when used. */
    struct islands_position_map {
        int32_t w, h;
        int32_t done; /* margins marked so far */
        uint64_t *bits;
        int32_t *free;        /* per row y <= H - h: clear bits of columns 0..W - w */
        int32_t *block_free;  /* their sums per ROW_BLOCK rows, so finding a row skips blocks */
        int32_t free_total;   /* their sum */
        int counted;          /* free is kept (from the map's first count on) */
        uint8_t *own;         /* its memory when it is not in s->area (slot_size bytes), or NULL */
    } maps[ISLANDS_POSITION_MAPS];
    int32_t maps_n, maps_next;
    size_t slot_size;         /* bytes of one position map: bits, free, block_free */
    int32_t area_slots;       /* position maps that live in s->area after occ */
    struct islands_position_map *map; /* the current building's if it is one rectangle, else NULL */
    const struct islands_position_map *cells_map; /* the 1 x 1 map if it is several, else NULL */
    int32_t *margins;       /* x0, y0, x1, y1 per grown rectangle placed */
    int32_t margins_n, margins_cap;
    const dg_allocator *alloc;
    int32_t *fit;   /* per prefab: distinct allowed orientations that fit the map */
    int32_t *members; /* per group: the prefabs it may use, members_n[k] from members[k * count] */
    int32_t *members_n;
    int64_t *member_weights; /* per group: its members' weights, laid out as members */
    uint8_t *has_unique; /* per group: a member is `unique`: its weight drops to 0 once used */
    int check;      /* the map must be connected (connected and not keep) */
    int proven;     /* pure mode: connected by construction so far (no flood fill needed) */
    int tiles_pass; /* every glyph's tile is passable exactly when its class is */
    int64_t *weights;
    uint8_t *used;  /* per prefab, for `unique` */
    uint8_t *dead;  /* per prefab: orientations that fit nowhere any more in this try */
    int64_t try_left, call_left; /* work units left (docs/prefabs.md) */
    int tiles_only;   /* no result wanted: buildings are stamped from templates where they can be */
    int ring;         /* border in pure mode: footprints keep `inset` cells off the grid's edge */
    int32_t inset;    /* RING_INSET, one more from WIDE_PATH_SIDE on */
    /* One try's scratch, used twice: while buildings are placed, occ and the
     * position maps that fit; once they are, the walks over the grid padded
     * by one closed cell (open: 1 on the open cells not yet reached; box: a
     * bit per padded cell in a building's box; then the exit walk's two
     * level lists), or the passability grid of the connectivity check. */
    uint8_t *area;
    size_t area_size;
    uint8_t *open;
    uint64_t *box;
    int32_t *level[2]; /* heap lists: the pockets' stack, the connectivity runs, a walk's
                        * level that outgrew its list in the area */
    int32_t level_cap[2];
    int32_t walk_cap;  /* cells of each of the walk's two level lists in the area, after the planes */
    uint8_t *may_start; /* per prefab: its legend has a `start` marker glyph */
    int exit_fixed;   /* an island prefab's legend has an `exit` marker glyph: it gives the exit */
    int32_t *boxes;   /* x, y, w, h of every building placed in this try, in order */
    int32_t boxes_n, boxes_cap;
    int32_t start_box; /* the first start-group building (-1: none; then the first building) */
    dg_point start, exit; /* chosen on the try's map: the first `start` marker placed (or a
                           * cell of the start building) and the farthest building cell */
    dgi_stamps stamps;
    /* the current building: its footprint (non-void cells) as rectangles
     * (X0, Y0, X1, Y1, inclusive), their bounds, and its door exits (x, y pairs) */
    int32_t *rects, *exits;
    int32_t rects_n, exits_n;
    int32_t lo_x, lo_y, hi_x, hi_y;
    int32_t *exit_first, *exit_count; /* per prefab: its door exits are exit_count[i] (x, y)
                                       * pairs from door_exits[2 * exit_first[i]] (-1: not
                                       * found yet) */
    int32_t *door_exits; /* the cells outside a prefab its border doors open onto, in the
                          * identity orientation, found on the prefab's first use */
    int32_t door_exits_n, door_exits_cap; /* pairs */
    size_t most_runs;   /* row runs of the largest prefab's cells, at most */
    int32_t most_exits; /* door exits of one prefab, at most (cells around it) */
    uint8_t *glyphs;    /* a building's resolved glyphs (glyphs_size bytes), or NULL */
    size_t glyphs_size;
    int32_t min_margin; /* smallest margin of the buildings placed so far */
    const dgi_mask *reserved; /* NULL: none */
    uint8_t *pocket;    /* with reserved cells and open ground: 1 on ground cut off from the
                         * largest stretch (left as rock), else 0 */
    uint8_t *block;     /* all per-call scratch arrays above, one allocation */
    size_t block_size;
} islands_ctx;

/* islands_try.c: one try's map. */
/* Points map at its memory (slot_size bytes): bits, then free counts per row and per block. */
void dgi_islands_slot_at(const islands_ctx *s, struct islands_position_map *map, uint8_t *mem);
/* s->pocket: the ground cut off from its largest stretch. Once per call. */
dg_status dgi_islands_find_pockets(islands_ctx *s, const dg_grid *g);
/* One map from seed: DG_E_NOSPACE if a group missed its minimum, DG_E_LIMIT if
 * the map is not connected, DG_E_NOMEM. */
dg_status dgi_islands_one_try(islands_ctx *s, dgi_gen *gen, const dg_grid *grid, uint64_t seed);

#endif
