/* Private state of dg_lock_place (lock*.c): the placer every part works on,
 * its marks per cell, and the small helpers every part uses.
 *
 * Cells are numbered over the grid and a closed one-cell frame (pw = w + 2
 * per row), so a cell's neighbours are c +- 1 and c +- pw with no bounds test.
 * The placer's arrays are one scratch block (scratch_take) that the passes
 * borrow in turn. */
#ifndef DG_LOCK_STATE_H
#define DG_LOCK_STATE_H

#include "analysis/analysis.h"
#include "progress/progress.h"

/* The marks per cell. LOCK_F_NEAR, LOCK_F_WALK: marks of a bounded walk;
 * LOCK_F_CLOSE: a key's clearance is set. */
enum { LOCK_F_GATE = 1, LOCK_F_ROOM = 2, LOCK_F_LOCK = 4, LOCK_F_REACH = 8, LOCK_F_OPEN = 16,
       LOCK_F_NEAR = 32, LOCK_F_CLOSE = 64, LOCK_F_WALK = 128 };

typedef struct lock_placer {
    dg_grid *g;
    const dg_result *r;
    const dg_lock_params *p;
    dg_rng rng;
    int32_t w, h;    /* the grid's size */
    int32_t pw, n;   /* cells are numbered over the grid and a closed one-cell
                        frame, pw = w + 2 per row: neighbours are c +- 1, c +- pw */
    uint8_t *tile;   /* the tiles, framed */
    int32_t start, exit;
    int has_doors;
    int32_t *node;   /* node of a cell, -1 if impassable */
    int32_t *cell_of; /* the first cell of each node; later: the solver's parents */
    int32_t *size;    /* cells of each node */
    int32_t *depth;  /* depth of each node */
    int32_t *queue;
    int32_t *aux;    /* union-find of the labelling, the search stack, per depth, then
                        per node hops off the route */
    int32_t *disc, *low, *parent, *iter; /* per node: the block search */
    int32_t *clear;  /* per depth: key cells clear of the start (survey_depths) */
    int32_t *near_gate; /* per candidate depth: key cells beside its gates */
    int32_t *link_first, *link; /* per node: its neighbour nodes, link[link_first[v]..[v + 1]) */
    int32_t *run_first, *run_end, *run_node; /* the labelling's runs (cells and node) */
    int32_t runs;
    uint8_t *flag;   /* LOCK_F_* per cell */
    uint8_t *core;   /* per node: dgi_lock_find_core's answer, kept with the node graph */
    int32_t nodes, max_depth;
    int32_t lock_depth[DG_LOCKS_MAX]; /* chosen depths, shallow first */
    int32_t key_cell[DG_LOCKS_MAX];
    int32_t placed;
    int exit_area;   /* the one lock closes the exit's own area (LOCK_F_REACH: its key region) */
    int cut_mode;    /* the locks are cuts of the cell graph (dgi_lock_plan_cuts):
                        numbered by locked_number */
    int32_t sink;    /* dgi_lock_plan_cuts: the cell a cut parts from the sources */
    int32_t pockets; /* dgi_lock_plan_cuts: locks 1..pockets close pockets off the way */
    int strict;      /* plan: only depths with room for keys clear of start and lock
                        (else clear of the start first, then anywhere) */
    int32_t locked[DG_LOCKS_MAX * 8]; /* the LOCK_F_LOCK cells in cell order (gate_max <= 8) */
    int32_t locked_number[DG_LOCKS_MAX * 8]; /* cut_mode: the lock number of locked[j] */
    int32_t locked_count;
    int32_t *secret; /* the secret doors chosen */
    int32_t secrets;
    const dgi_lock_site *site; /* NULL: none */
    int labelled;    /* the node graph plan() built last: narrow cells gate (1) or not
                        (0); -1 when none or dgi_lock_plan_cuts built its own since */
} lock_placer;

/* The fewer steps a key lies from the start or its lock, up to LOCK_KEY_CLEAR, the worse. */
#define LOCK_KEY_CLEAR 8

/* More than the cells fewer than LOCK_KEY_CLEAR steps away. */
#define LOCK_NEAR_CELLS (2 * LOCK_KEY_CLEAR * LOCK_KEY_CLEAR)

/* The grid cell of a framed cell number. */
static inline dg_point lock_grid_point(const lock_placer *s, int32_t c)
{
    return (dg_point){c % s->pw - 1, c / s->pw - 1};
}

/* 1 if c is on the grid's outer ring, where no door may go. */
static inline int lock_on_ring(const lock_placer *s, int32_t c)
{
    dg_point p = lock_grid_point(s, c);
    return p.x < 1 || p.y < 1 || p.x >= s->w - 1 || p.y >= s->h - 1;
}

/* The neighbour of a grid cell in direction k (N, E, S, W). */
static inline int32_t lock_step(const lock_placer *s, int32_t c, int k)
{
    return c + ((k & 1) ? 2 - k : (k - 1) * s->pw); /* no table: this runs per step of every walk */
}

/* lock_step()'s four offsets as a table, for the loops that run per cell of a
 * walk: held in a local, the offsets stay in registers (lock_step() branches). */
#define LOCK_STEP_OFFSETS(s) {-(s)->pw, 1, (s)->pw, -1}

/* The 4-neighbours of a grid cell into nb[] (frame cells included: they are
 * closed); returns 4. */
static inline int lock_neighbours(const lock_placer *s, int32_t c, int32_t nb[4])
{
    for (int k = 0; k < 4; k++)
        nb[k] = lock_step(s, c, k);
    return 4;
}

/* 1 if node v is a gate. */
static inline int lock_gate_node(const lock_placer *s, int32_t v)
{
    return (s->flag[s->cell_of[v]] & LOCK_F_GATE) != 0;
}

/* The lock (1..placed) that locked cell c belongs to, 0 if none. */
static inline int32_t lock_number(const lock_placer *s, int32_t c)
{
    if (s->exit_area)
        return 1;
    for (int32_t j = 0; j < s->locked_count && s->cut_mode; j++)
        if (s->locked[j] == c)
            return s->locked_number[j];
    if (s->cut_mode)
        return 0;
    for (int32_t i = 0; i < s->placed; i++)
        if (s->depth[s->node[c]] == s->lock_depth[i])
            return i + 1;
    return 0;
}

/* Every function shared between the lock files is dgi_lock_*, and calls point
 * one way only: lock.c uses the other files, lock_cuts.c uses lock_nodes.c,
 * and lock_nodes.c, lock_keys.c and lock_play.c use none of them. */

/* lock_nodes.c: the cells into nodes, the node graph, its core and depths. */
/* LOCK_F_OPEN on the open cells, LOCK_F_GATE on the doors (with narrow, narrow passages too). */
void dgi_lock_mark_cells(lock_placer *s, int narrow);
/* LOCK_F_ROOM on the cells of the result's rooms. */
void dgi_lock_mark_rooms(lock_placer *s);
/* Numbers the nodes: one per gate cell, one per connected stretch of the rest. */
void dgi_lock_label_nodes(lock_placer *s, int narrow);
/* The node graph: node v's neighbours are link[link_first[v]..link_first[v + 1]). */
void dgi_lock_link_nodes(lock_placer *s);
/* core[v] != 0 for the nodes on some way from the start to the exit. */
void dgi_lock_find_core(lock_placer *s, uint8_t *core);
/* The depth of each node over the core from the start's node (max_depth too). */
void dgi_lock_depth_nodes(lock_placer *s);
/* The node graph of plan(), its core and depths, built once per kind of gate. */
void dgi_lock_build_nodes(lock_placer *s, int narrow);
/* The open cells fewer than LOCK_KEY_CLEAR steps from `from` (itself first) into q[]. */
int32_t dgi_lock_walk_near(lock_placer *s, int32_t from, int32_t q[LOCK_NEAR_CELLS]);

/* lock_cuts.c: locks at cuts of the cell graph, and pockets off the way. */
/* Locks at cuts spread from the start toward the exit, then pockets; its own node graph. */
void dgi_lock_plan_cuts(lock_placer *s, uint64_t seed);

/* lock_keys.c: the keys of a plan. */
/* The keys of the plan; a lock whose region holds no key cell goes, with those after it. */
void dgi_lock_plan_keys(lock_placer *s);
/* A key cell's steps to the start or its own lock, up to LOCK_KEY_CLEAR (keys planned). */
int32_t dgi_lock_clearance(const lock_placer *s, int32_t c);

/* lock_play.c: the locked map written out and played. */
/* Writes the locked doors, secret doors and markers (room reserved) and pr's counts. */
void dgi_lock_commit(lock_placer *s, dg_result *r, dg_progress *pr);
/* Fills the solver's part of pr for the committed map, as dg_solve would. */
void dgi_lock_play_nodes(lock_placer *s, dg_progress *pr);

#endif
