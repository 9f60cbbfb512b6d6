/* Level-graph layout: where things are. The boxes placed rooms and
 * corridors take, indexed by square buckets of the grid, and the door cells
 * of template rooms. The lowest file of the search (layout_state.h). */
#include "graph/layout_state.h"

/* ---- occupancy ------------------------------------------------------------ */
/* Everything placed is a box: a room's footprint is its interior grown by its
 * walls, a corridor's is each leg grown by its walls. Two footprints may
 * overlap only where the graph says so (rooms sharing a wall, a corridor and
 * its two rooms), so every test below compares boxes, never cells. */

/* The footprints are also indexed by square buckets of the grid, so a test
 * compares only the boxes near it (the same answer as comparing all). A
 * graph of few rooms is not indexed: comparing all its boxes costs less
 * than keeping the index. */


void dgi_layout_bucket_reset(dgi_layout *L)
{
    L->rooms_placed = 0;
    memset(L->corr_placed, 0, sizeof L->corr_placed);
    if (!L->bucket)
        return;
    L->bshift = 3;
    while ((L->w - 1) >> L->bshift >= DGI_BUCKET_SIDE || (L->h - 1) >> L->bshift >= DGI_BUCKET_SIDE)
        L->bshift++;
    L->bcols = ((L->w - 1) >> L->bshift) + 1, L->brows = ((L->h - 1) >> L->bshift) + 1;
    memset(L->bucket, 0, sizeof *L->bucket * (size_t)(L->bcols * L->brows));
}

/* The buckets q meets (clamped to the grid: a box beyond it meets its edge's). */
static void bucket_span(const dgi_layout *L, dgi_box q, int32_t *c0, int32_t *r0, int32_t *c1, int32_t *r1)
{
    *c0 = layout_imin(layout_imax(q.x0, 0), L->w - 1) >> L->bshift, *c1 = layout_imin(layout_imax(q.x1, 0), L->w - 1) >> L->bshift;
    *r0 = layout_imin(layout_imax(q.y0, 0), L->h - 1) >> L->bshift, *r1 = layout_imin(layout_imax(q.y1, 0), L->h - 1) >> L->bshift;
}

/* Sets (on) or clears bit `bit` of word `word` of every bucket q meets
 * (word -1: the rooms word). */
static void bucket_mark(dgi_layout *L, dgi_box q, int32_t word, int32_t bit, int on)
{
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    uint64_t m = 1ULL << bit;
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
        {
            dgi_bucket *b = &L->bucket[r * L->bcols + c];
            uint64_t *w = word < 0 ? &b->rooms : &b->corr[word];
            *w = on ? *w | m : *w & ~m;
        }
}

/* The placed rooms whose footprints may meet q (bit m: room m). */
uint64_t dgi_layout_rooms_near(const dgi_layout *L, dgi_box q)
{
    if (!L->bucket)
        return L->rooms_placed;
    uint64_t u = 0;
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
            u |= L->bucket[r * L->bcols + c].rooms;
    return u;
}

/* Word k of the corridors whose footprints may meet q (bit e & 63: edge e). */
static uint64_t corridors_near(const dgi_layout *L, dgi_box q, int32_t k)
{
    if (!L->bucket)
        return L->corr_placed[k];
    uint64_t u = 0;
    int32_t c0, r0, c1, r1;
    bucket_span(L, q, &c0, &r0, &c1, &r1);
    for (int32_t r = r0; r <= r1; r++)
        for (int32_t c = c0; c <= c1; c++)
            u |= L->bucket[r * L->bcols + c].corr[k];
    return u;
}

void dgi_layout_room_set(dgi_layout *L, int32_t n, int on)
{
    L->placed[n] = (uint8_t)on;
    L->rooms_placed = on ? L->rooms_placed | 1ULL << n : L->rooms_placed & ~(1ULL << n);
    if (L->bucket)
        bucket_mark(L, dgi_box_grow(L->room[n], 1), -1, n, on);
}

void dgi_layout_corr_clear(dgi_layout *L, int32_t e)
{
    for (int32_t i = 0; L->bucket && L->has_corr[e] && i < L->corr[e].legs; i++)
        bucket_mark(L, dgi_box_grow(L->corr[e].leg[i], 1), e >> 6, e & 63, 0);
    L->has_corr[e] = 0;
    L->corr_placed[e >> 6] &= ~(1ULL << (e & 63));
}

void dgi_layout_corr_set(dgi_layout *L, int32_t e, const dgi_route *r)
{
    dgi_layout_corr_clear(L, e);
    L->corr[e] = *r;
    L->has_corr[e] = 1;
    L->corr_placed[e >> 6] |= 1ULL << (e & 63);
    for (int32_t i = 0; L->bucket && i < r->legs; i++)
        bucket_mark(L, dgi_box_grow(r->leg[i], 1), e >> 6, e & 63, 1);
}

/* 1 if a corridor's footprint (other than edge skip) meets q. */
int dgi_layout_corridors_meet(const dgi_layout *L, dgi_box q, int32_t skip)
{
    for (int32_t k = 0; k * 64 < L->g->edge_count; k++)
        for (uint64_t m = corridors_near(L, q, k); m; m &= m - 1)
        {
            int32_t e = k * 64 + dgi_lowest_bit64(m);
            if (e != skip)
                for (int32_t i = 0; i < L->corr[e].legs; i++)
                    if (dgi_box_meets(q, dgi_box_grow(L->corr[e].leg[i], 1)))
                        return 1;
        }
    for (int32_t k = 0; k < L->extras; k++)
        if (dgi_box_meets(q, dgi_box_grow(L->extra[k].leg[0], 1)))
            return 1;
    return 0;
}

/* ---- template doors --------------------------------------------------------- */
/* A template room's edges attach at its door cells only, one edge a cell. */

/* 1 if door cell k of template node n already serves an edge other than skip. */
static int door_taken(const dgi_layout *L, int32_t n, int32_t k, int32_t skip)
{
    dg_point d = layout_tdoor_at(L, n, k);
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        int32_t e = L->adj[n][j];
        const dg_graph_edge *x = &L->g->edges[e];
        dgi_box b;
        if (e == skip)
            continue;
        if (L->has_corr[e])
            b = L->corr[e].door[L->corr[e].a == n ? 0 : 1];
        else if (x->kind == DG_EDGE_DOOR && L->placed[x->a] && L->placed[x->b])
            b = L->door[e];
        else
            continue;
        if (b.x0 == d.x && b.y0 == d.y)
            return 1;
    }
    return 0;
}

/* A free door cell of template node n opening to a side in `sides` (bit
 * 1 << side), drawn uniformly; -1 if none. */
int32_t dgi_layout_free_door(dgi_layout *L, int32_t n, int sides, int32_t skip)
{
    int32_t ok[DGI_TEMPLATE_DOORS], count = 0;
    for (int32_t k = 0; k < L->tdoors[n]; k++)
        if ((sides >> L->tdoor[n][k].side & 1) && (!L->placed[n] || !door_taken(L, n, k, skip)))
            ok[count++] = k;
    return count ? ok[layout_draw(L, 0, count - 1)] : -1;
}

/* The place along its side of door cell k of n: a column on N/S, a row on E/W. */
int32_t dgi_layout_door_coord(const dgi_layout *L, int32_t n, int32_t k)
{
    dg_point d = layout_tdoor_at(L, n, k);
    return L->tdoor[n][k].side & 1 ? d.y : d.x;
}

/* Where a corridor or door along one of `sides` of n lies: drawn in lo..hi
 * for a rectangle, a free door cell's place for a template (lo if none,
 * which the route's door check then refuses). */
int32_t dgi_layout_attach_coord(dgi_layout *L, int32_t n, int sides, int32_t lo, int32_t hi, int32_t skip)
{
    if (!layout_is_template(L, n))
        return layout_draw(L, lo, hi);
    int32_t k = dgi_layout_free_door(L, n, sides, skip);
    return k < 0 ? lo : dgi_layout_door_coord(L, n, k);
}

/* 1 if door run q of a route is at a door cell of node n (any cell of a rectangle). */
int dgi_layout_at_door_cell(const dgi_layout *L, int32_t n, dgi_box q)
{
    if (!layout_is_template(L, n))
        return 1;
    for (int32_t k = 0; k < L->tdoors[n]; k++)
    {
        dg_point d = layout_tdoor_at(L, n, k);
        if (q.x0 == d.x && q.x1 == d.x && q.y0 == d.y && q.y1 == d.y)
            return 1;
    }
    return 0;
}

/* Draws a prefab of template node n and one of its orientations. */
int dgi_layout_template_pick(dgi_layout *L, int32_t n)
{
    const dg_prefab_set *set = L->g->prefabs;
    int32_t i = L->tpl_list[L->tpl_first[n] + layout_draw(L, 0, L->tpl_count[n] - 1)];
    int32_t mask = dgi_template_orientations(set, i) & 0xFF, bits = 0, o = 0;
    if (!mask)
        mask = 1;
    for (int32_t b = 0; b < 8; b++)
        bits += mask >> b & 1;
    for (int32_t k = layout_draw(L, 0, bits - 1); o < 8; o++)
        if ((mask >> o & 1) && k-- == 0)
            break;
    L->tpl[n] = i;
    L->tpl_orient[n] = o;
    int32_t at = L->tpl_row[i] * 8 + o; /* the same prefab and orientation, the same cells */
    if (L->tdoor_found[at] < 0)
        L->tdoor_found[at] = dgi_template_doors(set, i, o, L->tdoor_cache[at], DGI_TEMPLATE_DOORS);
    L->tdoors[n] = L->tdoor_found[at];
    memcpy(L->tdoor[n], L->tdoor_cache[at], (size_t)L->tdoors[n] * sizeof L->tdoor[n][0]);
    return L->tdoors[n] >= L->deg[n];
}
