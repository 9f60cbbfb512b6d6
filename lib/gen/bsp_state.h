/* Private state of the binary space partition generator (bsp*.c): the
 * nodes of the partition, the cuts as their joins left them, and the
 * generator's own state. bsp.c partitions, handles reserved cells and
 * finishes; bsp_join.c joins the halves of every cut (candidates, routes,
 * loops); bsp_rooms.c draws and paints the leaves' rooms. */
#ifndef DG_BSP_STATE_H
#define DG_BSP_STATE_H

#include "gen/gen.h"

enum { BSP_KEEP = 3 }; /* rooms kept per side of a node: the candidates of the joins across its cuts */

/* A room and how far it reaches out on one side of its subtree. */
typedef struct bsp_cand {
    int32_t room, key;
} bsp_cand;

typedef struct bsp_node {
    int32_t x, y, w, h;
    int32_t child[2];      /* the two halves, -1 for a leaf */
    int32_t across;        /* 1: cut by a column (children side by side), 0: by a row */
    int32_t first, leaves; /* its rooms are first .. first + leaves - 1 (leaf order) */
    int32_t entry;         /* the room the walk from the start room enters it by */
    int32_t ja, jb;        /* the rooms its tree corridor joins (first child, second child) */
    int32_t slot;          /* its candidates in bsp_ctx.cands, while the joins need them;
                            * while cutting breadth first, its depth */
} bsp_node;

/* A cut as its join left it, for its pairs and its loop: the cuts are kept
 * in the order they were joined (children before parents), so the loops
 * walk them in order, apart from the larger nodes. */
typedef struct bsp_cut {
    int32_t near[2][BSP_KEEP]; /* the candidates nearest the cut, each side (-1: none) */
    int32_t ja, jb;        /* the rooms its tree corridor joins (-1: none) */
    int32_t across;
} bsp_cut;

/* Per side, the rooms of a subtree reaching farthest out that way, best first. */
typedef struct bsp_cands {
    bsp_cand side[4][BSP_KEEP];
} bsp_cands;

typedef struct bsp_ctx {
    dg_grid *g;
    const dg_bsp_params *p;
    const dg_allocator *a;
    bsp_node *nodes;
    int32_t node_count, node_cap;
    int32_t height;        /* the deepest node's depth */
    int32_t edge_rooms;    /* rooms in leaves against the board's edge */
    int32_t start_back;    /* (stacked) the start room's edge leaf, counted from the last; -1 none */
    bsp_cands *cands;      /* a stack (depth-first, nothing reserved) or one per node */
    bsp_cut *cuts;         /* leaf_count - 1, in join order (in the block of cands) */
    int32_t cut_count;
    int32_t cand_cap;
    int stacked;
    int32_t leaf_count;
    int32_t leaves_seen;   /* leaves made so far, while partitioning depth first */
    int32_t room_count;    /* leaf_count, less leaves left empty beside reserved cells */
    int32_t stopped_early;
    dg_room *rooms;
    dg_corridor *corridors;
    int32_t corridor_count;
    dg_door *doors;
    int32_t door_count;
    void *block; /* rooms, corridors and doors in one allocation */
    size_t block_size;
    int32_t start_room;
    int32_t cor_cap, door_cap;
    dg_rng layout, route, loop;
    /* reserved cells (NULL: none) and the scratch that routing around them needs */
    const dgi_mask *reserved;
    dg_rng site;
    int32_t *dist, *queue;  /* a cell each */
    int32_t split;          /* a cut whose halves no corridor could join */
    dg_status status;       /* DG_E_NOMEM from growing the lists around reserved cells */
} bsp_ctx;

/* n cells of v from p: eight at a time, the last eight overlapping, so
 * short spans cost a few stores rather than a memset call each. */
static inline void dgi_bsp_fill_span(uint8_t *p, int32_t n, uint8_t v)
{
    uint64_t w8 = 0x0101010101010101ULL * v;
    uint32_t w4 = 0x01010101u * v;
    if (n >= 8)
    {
        for (int32_t i = 0; i + 8 <= n; i += 8)
            memcpy(p + i, &w8, 8);
        memcpy(p + n - 8, &w8, 8);
    }
    else if (n >= 4)
    {
        memcpy(p, &w4, 4);
        memcpy(p + n - 4, &w4, 4);
    }
    else if (n > 0) /* 1..3 cells (a loop here would become a memset call) */
    {
        p[0] = p[n / 2] = p[n - 1] = v;
    }
}

/* 1 if leaf n has a room and lies against the board's edge. */
static inline int dgi_bsp_edge_room(const bsp_ctx *b, const bsp_node *n)
{
    const dg_grid *g = b->g;
    return n->child[0] < 0 && b->rooms[n->first].rect.w > 0 &&
           (n->x == 0 || n->y == 0 || n->x + n->w == g->width || n->y + n->h == g->height);
}

/* A node's candidates on one side, best first. */
static inline bsp_cand *dgi_bsp_best_of(const bsp_ctx *b, const bsp_node *n, int side)
{
    return b->cands[n->slot].side[side];
}

/* bsp_rooms.c: each leaf's room drawn; a leaf painted (rock, the room's
 * floor in a wall ring). */
void dgi_bsp_place_rooms(bsp_ctx *b);
void dgi_bsp_paint_leaf(dg_grid *g, const bsp_node *n, dg_rect r);
/* bsp_join.c: every cut's halves joined (leaves painted as they are
 * reached); the loops across the cuts. */
void dgi_bsp_join_all(bsp_ctx *b);
void dgi_bsp_add_loops(bsp_ctx *b);

#endif
