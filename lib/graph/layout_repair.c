/* Level-graph layout: a room that found no place, in a thorough attempt,
 * moves the placed rooms next to it, or takes a room in its way off with
 * its branch, instead of stepping back. */
#include "graph/layout_state.h"

#define NUDGES 16            /* moves of a failed room's neighbours before a step back */
#define NUDGE_PATH 3         /* most rooms of a path toward a failed room moved together */
#define EVICTS 16            /* rooms in a failed room's way taken off with their branch */
#define EVICT_MAX 8          /* most rooms of a branch taken off */

/* A placed room's box (a template's prefab, orientation and door cells
 * too) with the doors and corridors of its edges, to put back as they were. */
typedef struct room_saved {
    dgi_box room, door[DG_GRAPH_DEGREE_MAX];
    dgi_route corr[DG_GRAPH_DEGREE_MAX];
    uint8_t has_corr[DG_GRAPH_DEGREE_MAX];
    int32_t tpl, tpl_orient, tdoors;
    dgi_tdoor tdoor[DGI_TEMPLATE_DOORS];
} room_saved;

static void room_save(const dgi_layout *L, int32_t r, room_saved *s)
{
    s->room = L->room[r];
    s->tpl = L->tpl[r], s->tpl_orient = L->tpl_orient[r], s->tdoors = L->tdoors[r];
    if (layout_is_template(L, r))
        memcpy(s->tdoor, L->tdoor[r], sizeof s->tdoor);
    for (int32_t k = 0; k < L->deg[r]; k++)
    {
        int32_t e = L->adj[r][k];
        s->door[k] = L->door[e], s->corr[k] = L->corr[e], s->has_corr[k] = L->has_corr[e];
    }
}

static void room_restore(dgi_layout *L, int32_t r, const room_saved *s)
{
    dgi_layout_room_remove(L, r);
    L->room[r] = s->room;
    L->tpl[r] = s->tpl, L->tpl_orient[r] = s->tpl_orient, L->tdoors[r] = s->tdoors;
    if (layout_is_template(L, r))
        memcpy(L->tdoor[r], s->tdoor, sizeof s->tdoor);
    dgi_layout_room_set(L, r, 1);
    for (int32_t k = 0; k < L->deg[r]; k++)
    {
        int32_t e = L->adj[r][k];
        L->door[e] = s->door[k];
        if (s->has_corr[k])
            dgi_layout_corr_set(L, e, &s->corr[k]);
    }
}

/* A placed neighbour of n drawn among them, not the first room (which no
 * step back takes back either) nor skip; -1 if none. */
static int32_t placed_neighbour(dgi_layout *L, int32_t n, int32_t skip)
{
    int32_t near[DG_GRAPH_DEGREE_MAX], count = 0;
    for (int32_t j = 0; j < L->deg[n]; j++)
    {
        int32_t m = layout_other_end(&L->g->edges[L->adj[n][j]], n);
        if (L->placed[m] && m != L->order[0] && m != skip)
            near[count++] = m;
    }
    return count ? near[layout_draw(L, 0, count - 1)] : -1;
}

/* A path of up to `want` placed rooms from n, each drawn among the placed
 * neighbours of the one before, none twice; its length. */
static int32_t path_draw(dgi_layout *L, int32_t n, int32_t want, int32_t *path)
{
    int32_t len = 0;
    for (int32_t from = n, prev = -1; len < want; len++)
    {
        int32_t m = placed_neighbour(L, from, prev);
        for (int32_t j = 0; j < len && m >= 0; j++)
            m = path[j] == m ? -1 : m;
        if (m < 0)
            break;
        path[len] = m, prev = from, from = m;
    }
    return len;
}

/* Takes the path's rooms off and places them again, the far end first, each
 * against all of its placed neighbours; if one finds no place, all are put
 * back as they were. */
static int path_move(dgi_layout *L, const int32_t *path, int32_t len)
{
    room_saved saved[NUDGE_PATH];
    for (int32_t j = 0; j < len; j++) /* all saved before any is taken off: they share edges */
        room_save(L, path[j], &saved[j]);
    for (int32_t j = 0; j < len; j++)
        dgi_layout_room_remove(L, path[j]);
    int ok = 1;
    for (int32_t j = len - 1; ok && j >= 0; j--)
        ok = dgi_layout_room_place(L, path[j]);
    for (int32_t j = 0; !ok && j < len; j++)
        room_restore(L, path[j], &saved[j]);
    return ok;
}

/* n found no place: in a thorough attempt, moves one of n's placed
 * neighbours to another place against all of its own neighbours (every
 * other time, while the attempt's path_budget lasts, a path of two or
 * three placed rooms toward n, which moves a loop's end as a piece), and
 * tries n again; NUDGES times. Rooms that find no other place stay where
 * they were. Unlike a step back, a move keeps every room placed after the
 * ones moved: a loop's last room often fails only because a room it meets
 * sits a few cells off. attempt() asks for it only in the first
 * NUDGE_STEPS failures since the search last got further, and gives each
 * attempt PATH_BUDGET path rooms per room of the graph: a small graph
 * fails at the same few rooms in every attempt, and without the budget
 * its refusal took four times as long. */
int dgi_layout_nudge_place(dgi_layout *L, int32_t n, int32_t *path_budget)
{
    for (int32_t k = 0; L->thorough && k < NUDGES; k++)
    {
        int32_t path[NUDGE_PATH];
        int32_t want = k & 1 && *path_budget > 0 ? layout_draw(L, 2, NUDGE_PATH) : 1;
        int32_t len = path_draw(L, n, want, path);
        if (len == 0)
            return 0;
        *path_budget -= len > 1 ? len : 0;
        if (path_move(L, path, len) && dgi_layout_room_place(L, n))
            return 1;
    }
    return 0;
}

/* The rooms placed after b whose chain of parents in the order reaches b,
 * b first, in the order; 0 if there are more than EVICT_MAX or one is in
 * keep (bits). */
static int32_t placed_branch(const dgi_layout *L, int32_t b, uint64_t keep, int32_t *set)
{
    int32_t count = 0;
    for (int32_t i = L->rank[b]; i < L->g->node_count; i++)
    {
        int32_t r = L->order[i];
        while (r != b && L->rank[r] > L->rank[b])
            r = layout_other_end(&L->g->edges[L->parent_edge[r]], r);
        if (r != b || !L->placed[L->order[i]])
            continue;
        if (count == EVICT_MAX || keep >> L->order[i] & 1)
            return 0;
        set[count++] = L->order[i];
    }
    return count;
}

/* The largest side n's room may have. */
static int32_t side_max(const dgi_layout *L, int32_t n)
{
    const dg_graph_node *node = &L->g->nodes[n];
    if (!layout_is_template(L, n))
        return layout_imax(node->width_max, node->height_max);
    int32_t most = 0;
    for (int32_t k = 0; k < L->tpl_count[n]; k++)
    {
        int32_t w, h;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): tpl_count > 0 only once tpl_list is set */
        dgi_template_size(L->g->prefabs, L->tpl_list[L->tpl_first[n] + k], 0, &w, &h);
        most = layout_imax(most, layout_imax(w, h) - 2);
    }
    return most;
}

/* A placed room drawn among those within n's reach of one of n's placed
 * neighbours (where n's room or corridor would go), not a neighbour of n
 * nor the first room; -1 if none. */
static int32_t blocker_draw(dgi_layout *L, int32_t n)
{
    uint64_t near = 0, skip = L->neighbours[n] | 1ULL << L->order[0] | 1ULL << n;
    int32_t side = side_max(L, n);
    for (int32_t k = 0; k < L->deg[n]; k++)
    {
        const dg_graph_edge *x = &L->g->edges[L->adj[n][k]];
        int32_t m = layout_other_end(x, n);
        if (!L->placed[m])
            continue;
        int32_t reach = 2 + L->d + side + (x->kind == DG_EDGE_CORRIDOR ? x->length_max + 1 : 0);
        dgi_box around = dgi_box_grow(L->room[m], reach);
        for (uint64_t placed = L->rooms_placed & ~skip; placed; placed &= placed - 1)
        {
            int32_t r = dgi_lowest_bit64(placed);
            near |= dgi_box_meets(around, L->room[r]) ? 1ULL << r : 0;
        }
    }
    int32_t count = dgi_popcount64(near);
    if (count == 0)
        return -1;
    for (int32_t k = layout_draw(L, 0, count - 1); k > 0; k--)
        near &= near - 1;
    return dgi_lowest_bit64(near);
}

/* n found no place, nor after dgi_layout_nudge_place: in a thorough
 * attempt, takes a room in n's way off with the rooms placed from it (its
 * branch, at most EVICT_MAX rooms, none of n's neighbours), places n and
 * then the branch again in order; EVICTS times. A failed try puts everything back as it
 * was. A dense tree's room often fails because an earlier branch took the
 * place it needs, and a step back takes off the rooms before n, not that
 * branch. */
int dgi_layout_evict_place(dgi_layout *L, int32_t n)
{
    for (int32_t k = 0; L->thorough && k < EVICTS; k++)
    {
        int32_t set[EVICT_MAX], b = blocker_draw(L, n);
        if (b < 0)
            return 0;
        int32_t count = placed_branch(L, b, L->neighbours[n], set);
        if (count == 0)
            continue;
        room_saved saved[EVICT_MAX];
        for (int32_t j = 0; j < count; j++) /* all saved before any is taken off: they share edges */
            room_save(L, set[j], &saved[j]);
        for (int32_t j = 0; j < count; j++)
            dgi_layout_room_remove(L, set[j]);
        int32_t done = dgi_layout_room_place(L, n) ? 0 : -1;
        while (done >= 0 && done < count && dgi_layout_room_place(L, set[done]))
            done++;
        if (done == count)
            return 1;
        for (int32_t j = 0; j < done; j++)
            dgi_layout_room_remove(L, set[j]);
        if (done >= 0)
            dgi_layout_room_remove(L, n);
        for (int32_t j = 0; j < count; j++)
            room_restore(L, set[j], &saved[j]);
    }
    return 0;
}
