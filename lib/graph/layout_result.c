/* A finished level-graph layout drawn on the grid and reported in the
 * result: tiles, rooms with their node labels, corridors with their edges,
 * doors, lock and key markers, start and exit (DESIGN.md section 11). */
#include "graph/layout_state.h"
#include "analysis/analysis.h"
#include "prefab/prefab.h"

#include <stdio.h>

static void fill(dg_grid *g, dgi_box q, uint8_t tile, int only_void)
{
    for (int32_t y = q.y0; y <= q.y1; y++)
        for (int32_t x = q.x0; x <= q.x1; x++)
            if (!only_void || DG_CELL(g, x, y) == DG_TILE_VOID)
                DG_CELL(g, x, y) = tile;
}

static uint8_t door_tile(const dg_graph_edge *x)
{
    return x->lock ? DG_TILE_DOOR_LOCKED : x->secret ? DG_TILE_DOOR_SECRET : DG_TILE_DOOR;
}

/* The door run of edge e that carries its lock or secret: a door edge's one
 * door, or a corridor's door at the room laid out later (away from the start). */
static dgi_box special_door(const dgi_layout *L, int32_t e)
{
    if (!L->has_corr[e])
        return L->door[e];
    const dgi_route *r = &L->corr[e];
    return r->door[L->rank[r->b] > L->rank[r->a]];
}

static void draw_route(dg_grid *g, const dgi_route *r)
{
    for (int32_t i = 0; i < r->legs; i++)
        fill(g, dgi_box_grow(r->leg[i], 1), DG_TILE_WALL, 1);
    for (int32_t i = 0; i < r->legs; i++)
        fill(g, r->leg[i], DG_TILE_CORRIDOR, 0);
    fill(g, r->door[0], DG_TILE_DOOR, 0);
    fill(g, r->door[1], DG_TILE_DOOR, 0);
}

/* The glyphs of template node n's prefab, its random ones resolved from the
 * seed and the node (NULL on error, *st set; release with glyphs_free). */
static const uint8_t *template_glyphs(const dgi_layout *L, int32_t n, uint8_t **heap, dg_status *st)
{
    const dg_prefab_set *set = L->g->prefabs;
    *heap = NULL;
    return dgi_prefab_glyphs(set, &set->prefabs[L->tpl[n]], dgi_hash_combine(L->seed, (uint64_t)n),
                             NULL, 0, heap, st);
}

static void glyphs_free(const dgi_layout *L, int32_t n, uint8_t *heap)
{
    dgi_prefab_glyphs_free(L->g->prefabs, &L->g->prefabs->prefabs[L->tpl[n]], heap);
}

/* Stamps template node n: its prefab, door cells walled (the edges' doors
 * are drawn after). */
static dg_status draw_template(const dgi_layout *L, int32_t n, dg_grid *g)
{
    uint8_t *heap;
    dg_status st = DG_OK;
    const uint8_t *glyphs = template_glyphs(L, n, &heap, &st);
    if (!glyphs)
        return st;
    int32_t x = L->room[n].x0 - 1, y = L->room[n].y0 - 1;
    dgi_prefab_write(L->g->prefabs, &L->g->prefabs->prefabs[L->tpl[n]], glyphs, L->tpl_orient[n], g,
                     x, y, NULL);
    dgi_template_wall_doors(L->g->prefabs, L->tpl[n], L->tpl_orient[n], g, x, y);
    glyphs_free(L, n, heap);
    return DG_OK;
}

/* 1 if q (not empty) lies on g. */
static int on_grid(const dg_grid *g, dgi_box q)
{
    return q.x0 >= 0 && q.y0 >= 0 && q.x1 < g->width && q.y1 < g->height && q.x0 <= q.x1 &&
           q.y0 <= q.y1;
}

static int route_on_grid(const dg_grid *g, const dgi_route *r)
{
    int ok = on_grid(g, r->door[0]) && on_grid(g, r->door[1]);
    for (int32_t i = 0; i < r->legs; i++)
        ok &= on_grid(g, dgi_box_grow(r->leg[i], 1));
    return ok;
}

int dgi_layout_on_grid(const dgi_layout *L, const dg_grid *g)
{
    const dg_graph *gr = L->g;
    int ok = 1;
    for (int32_t n = 0; n < gr->node_count; n++)
        ok &= on_grid(g, dgi_box_grow(L->room[n], 1)); /* a template's prefab box too */
    for (int32_t e = 0; e < gr->edge_count; e++)
        ok &= L->has_corr[e] ? route_on_grid(g, &L->corr[e]) : on_grid(g, L->door[e]);
    for (int32_t k = 0; k < L->extras; k++)
        ok &= route_on_grid(g, &L->extra[k]);
    return ok;
}

dg_status dgi_layout_draw(const dgi_layout *L, dg_grid *g, const dg_allocator *a)
{
    const dg_graph *gr = L->g;
    (void)a;
    for (int32_t n = 0; n < gr->node_count; n++)
    {
        if (layout_is_template(L, n))
        {
            dg_status st = draw_template(L, n, g);
            if (st != DG_OK)
                return st;
            continue;
        }
        fill(g, dgi_box_grow(L->room[n], 1), DG_TILE_WALL, 0);
        fill(g, L->room[n], DG_TILE_FLOOR, 0);
    }
    for (int32_t e = 0; e < gr->edge_count; e++)
        if (L->has_corr[e])
            draw_route(g, &L->corr[e]);
    for (int32_t k = 0; k < L->extras; k++)
        draw_route(g, &L->extra[k]);
    for (int32_t e = 0; e < gr->edge_count; e++)
        fill(g, special_door(L, e), door_tile(&gr->edges[e]), 0);
    return DG_OK;
}

/* 1 if (x, y) is open floor a key or the start may take (not a door). */
static int open_cell(const dg_grid *g, int32_t x, int32_t y)
{
    uint8_t t = DG_CELL(g, x, y);
    return dg_tile_passable(t) && t != DG_TILE_DOOR && t != DG_TILE_DOOR_LOCKED &&
           t != DG_TILE_DOOR_SECRET;
}

static int32_t open_cells(const dg_grid *g, dgi_box q)
{
    int32_t count = 0;
    for (int32_t y = q.y0; y <= q.y1; y++)
        for (int32_t x = q.x0; x <= q.x1; x++)
            count += open_cell(g, x, y);
    return count;
}

static dg_status add_rooms(const dgi_layout *L, dg_result *r, const dg_grid *grid)
{
    const dg_graph *g = L->g;
    dg_status st = DG_OK;
    for (int32_t n = 0; st == DG_OK && n < g->node_count; n++)
    {
        dgi_box q = L->room[n];
        dg_room room;
        memset(&room, 0, sizeof room);
        room.rect = (dg_rect){q.x0, q.y0, q.x1 - q.x0 + 1, q.y1 - q.y0 + 1};
        room.kind = DG_ROOM_NORMAL;
        room.prefab = -1;
        room.parent = L->parent_edge[n] >= 0 ? layout_other_end(&g->edges[L->parent_edge[n]], n) : -1;
        room.cells = room.rect.w * room.rect.h;
        room.shape = DG_SHAPE_RECT;
        if (layout_is_template(L, n))
        {
            room.shape = DG_SHAPE_PREFAB;
            room.kind = DG_ROOM_PREFAB;
            room.prefab = L->tpl[n];
            room.orientation = L->tpl_orient[n];
            room.cells = open_cells(grid, q);
        }
        st = dgi_result_add_room(r, &room);
    }
    if (st == DG_OK)
        st = dgi_result_label_rooms(r);
    for (int32_t n = 0; st == DG_OK && n < g->node_count; n++)
    {
        memcpy(r->labels[n].name, g->nodes[n].name, DG_NAME_MAX);
        memcpy(r->labels[n].role, g->nodes[n].role, DG_NAME_MAX);
        r->labels[n].node = n;
    }
    return st;
}

static dg_status add_door_run(dg_result *r, dgi_box q, dg_ref a, dg_ref b)
{
    dg_status st = DG_OK;
    for (int32_t y = q.y0; st == DG_OK && y <= q.y1; y++)
        for (int32_t x = q.x0; st == DG_OK && x <= q.x1; x++)
        {
            dg_door d = {{x, y}, a, b};
            st = dgi_result_add_door(r, &d);
        }
    return st;
}

/* Adds one dg_corridor record for edge (-1: an extra connection); its index in *at. */
static dg_status add_record(dg_result *r, dg_point start, dg_point bend, dg_point end, int32_t length,
                            dg_ref from, dg_ref to, int32_t edge, int32_t *at)
{
    dg_corridor k;
    memset(&k, 0, sizeof k);
    k.start = start, k.bend = bend, k.end = end;
    k.length = length;
    k.from = from, k.to = to;
    *at = r->corridor_count;
    dg_status st = dgi_result_add_corridor(r, &k);
    if (st == DG_OK)
        st = dgi_result_edge_corridors(r);
    if (st == DG_OK)
        r->corridor_edges[*at] = edge;
    return st;
}

/* Adds corridor c with its two door runs; edge: the graph edge it
 * realises, -1 for an extra connection. A corridor of three legs is two
 * records of the same edge: its first two legs, then its last. */
static dg_status add_route(dg_result *r, const dgi_route *c, int32_t edge)
{
    dg_ref ra = {DG_REF_ROOM, c->a}, rb = {DG_REF_ROOM, c->b};
    dgi_box l0 = c->leg[0], l1 = c->leg[1], l2 = c->leg[2];
    dg_point start = {l0.x0, l0.y0}, end = {c->leg[c->legs - 1].x1, c->leg[c->legs - 1].y1};
    int32_t first, last;
    dg_status st;
    if (c->legs < 3)
    {
        dg_point bend = c->legs == 2 ? (dg_point){c->door[0].x0, c->door[1].y0} : end;
        st = add_record(r, start, bend, end, c->length, ra, rb, edge, &first);
        last = first;
    }
    else
    {
        /* the first leg leaves a's north or south wall when the door lies above or below it */
        int vertical = c->door[0].y0 < l0.y0 || c->door[0].y0 > l0.y1;
        int32_t cw = vertical ? l1.y1 - l1.y0 + 1 : l1.x1 - l1.x0 + 1;
        int32_t tail = (l2.x1 - l2.x0 + 1) * (l2.y1 - l2.y0 + 1) / cw;
        dg_point bend = vertical ? (dg_point){l0.x0, l1.y0} : (dg_point){l1.x0, l0.y0};
        st = add_record(r, start, bend, (dg_point){l1.x1, l1.y1}, c->length - tail, ra,
                        (dg_ref){DG_REF_CORRIDOR, r->corridor_count + 1}, edge, &first);
        if (st == DG_OK)
            st = add_record(r, (dg_point){l2.x0, l2.y0}, end, end, tail,
                            (dg_ref){DG_REF_CORRIDOR, first}, rb, edge, &last);
    }
    if (st == DG_OK)
        st = add_door_run(r, c->door[0], ra, (dg_ref){DG_REF_CORRIDOR, first});
    if (st == DG_OK)
        st = add_door_run(r, c->door[1], rb, (dg_ref){DG_REF_CORRIDOR, last});
    return st;
}

static dg_status add_edges(const dgi_layout *L, dg_result *r)
{
    const dg_graph *g = L->g;
    dg_status st = DG_OK;
    for (int32_t e = 0; st == DG_OK && e < g->edge_count; e++)
    {
        const dg_graph_edge *x = &g->edges[e];
        if (L->has_corr[e])
            st = add_route(r, &L->corr[e], e);
        else
            st = add_door_run(r, L->door[e], (dg_ref){DG_REF_ROOM, x->a}, (dg_ref){DG_REF_ROOM, x->b});
    }
    for (int32_t k = 0; st == DG_OK && k < L->extras; k++)
        st = add_route(r, &L->extra[k], -1);
    return st;
}

static dg_status add_marker(dg_result *r, dg_point p, int32_t kind, int32_t room, const char *word,
                            int32_t number)
{
    dg_marker m;
    memset(&m, 0, sizeof m);
    m.pos = p;
    m.kind = kind;
    m.room = room;
    m.number = number;
    snprintf(m.name, sizeof m.name, "%s %d", word, (int)number);
    return dgi_result_add_marker(r, &m);
}

/* A "lock N" marker on every locked door cell and one "key N" per lock on a
 * cell of the key node's room other than the start. */
/* A key's cell in a template room: an open cell other than the start, drawn
 * among them (the start if it is the only one). */
static dg_point template_key(dgi_layout *L, const dg_grid *g, dgi_box k, dg_point start)
{
    int32_t count = 0, pick;
    for (int32_t y = k.y0; y <= k.y1; y++)
        for (int32_t x = k.x0; x <= k.x1; x++)
            count += open_cell(g, x, y) && !(x == start.x && y == start.y);
    if (!count)
        return start;
    pick = layout_draw(L, 0, count - 1);
    for (int32_t y = k.y0; y <= k.y1; y++)
        for (int32_t x = k.x0; x <= k.x1; x++)
            if (open_cell(g, x, y) && !(x == start.x && y == start.y) && pick-- == 0)
                return (dg_point){x, y};
    return start;
}

static dg_status add_locks(dgi_layout *L, dg_result *r, const dg_grid *grid)
{
    const dg_graph *g = L->g;
    dg_status st = DG_OK;
    uint8_t keyed[DG_LOCKS_MAX + 1] = {0};
    for (int32_t e = 0; st == DG_OK && e < g->edge_count; e++)
    {
        const dg_graph_edge *x = &g->edges[e];
        if (!x->lock)
            continue;
        dgi_box q = special_door(L, e);
        for (int32_t y = q.y0; st == DG_OK && y <= q.y1; y++)
            for (int32_t xx = q.x0; st == DG_OK && xx <= q.x1; xx++)
                st = add_marker(r, (dg_point){xx, y}, DG_MARKER_LOCK, -1, "lock", x->lock);
        if (st != DG_OK || keyed[x->lock])
            continue;
        keyed[x->lock] = 1;
        dgi_box k = L->room[x->key_node];
        dg_point p;
        if (layout_is_template(L, x->key_node))
            p = template_key(L, grid, k, r->start);
        else
            do
            {
                p.x = layout_draw(L, k.x0, k.x1); /* in order: an initializer's are not sequenced */
                p.y = layout_draw(L, k.y0, k.y1);
            } while ((p.x == r->start.x && p.y == r->start.y) && (k.x0 < k.x1 || k.y0 < k.y1));
        st = add_marker(r, p, DG_MARKER_KEY, x->key_node, "key", x->lock);
    }
    return st;
}

static int32_t exit_node(const dg_graph *g)
{
    for (int32_t i = 0; i < g->node_count; i++)
        if (strcmp(g->nodes[i].role, "exit") == 0)
            return i;
    return -1;
}

/* The exit: the cell of the "exit" node's room farthest from the start by
 * walking, else the farthest room cell. */
static dg_status place_exit(const dgi_layout *L, dg_result *r, const dg_grid *g, const dg_allocator *a)
{
    int32_t n = exit_node(L->g);
    if (n < 0)
        return dgi_result_exit_in_room(r, g, a);
    size_t cells = (size_t)g->width * (size_t)g->height;
    int32_t *dist = dgi_alloc(a, cells * sizeof *dist), *queue = dgi_alloc(a, cells * sizeof *queue);
    dg_status st = dist && queue ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dgi_bfs(g, r->start.y * g->width + r->start.x, dist, queue);
        dgi_box q = L->room[n];
        int32_t best = -1;
        for (int32_t y = q.y0; y <= q.y1; y++)
            for (int32_t x = q.x0; x <= q.x1; x++)
                if (dist[y * g->width + x] > best)
                {
                    best = dist[y * g->width + x];
                    r->exit = (dg_point){x, y};
                    r->exit_room = n;
                }
    }
    dgi_free(a, dist, cells * sizeof *dist);
    dgi_free(a, queue, cells * sizeof *queue);
    return st;
}

/* The start in a template room: its open cell nearest the middle (a
 * rectangle's start is its middle: (-1, -1) leaves it to dgi_result_finish_at). */
static dg_point start_cell(const dgi_layout *L, const dg_grid *g)
{
    int32_t n = dgi_graph_start_node(L->g), best = INT32_MAX;
    dg_point p = {-1, -1};
    if (!layout_is_template(L, n))
        return p;
    dgi_box q = L->room[n];
    for (int32_t y = q.y0; y <= q.y1; y++)
        for (int32_t x = q.x0; x <= q.x1; x++)
        {
            int32_t d = layout_imax(2 * x - q.x0 - q.x1, q.x0 + q.x1 - 2 * x) +
                        layout_imax(2 * y - q.y0 - q.y1, q.y0 + q.y1 - 2 * y);
            if (open_cell(g, x, y) && d < best)
                best = d, p = (dg_point){x, y};
        }
    return p;
}

/* The markers of the template rooms' prefabs (actors, items, traps), in node order. */
static dg_status add_template_markers(const dgi_layout *L, dg_result *r, const dg_grid *g)
{
    dg_status st = DG_OK;
    for (int32_t n = 0; st == DG_OK && n < L->g->node_count; n++)
    {
        if (!layout_is_template(L, n))
            continue;
        uint8_t *heap;
        const uint8_t *glyphs = template_glyphs(L, n, &heap, &st);
        if (!glyphs)
            break;
        st = dgi_prefab_add_markers(L->g->prefabs, &L->g->prefabs->prefabs[L->tpl[n]], glyphs,
                                    L->tpl_orient[n], L->room[n].x0 - 1, L->room[n].y0 - 1, g, r, n);
        glyphs_free(L, n, heap);
    }
    return st;
}

dg_status dgi_layout_result(dgi_layout *L, dg_result *r, const dg_grid *g, const dg_allocator *a)
{
    dgi_result_reset(r);
    dg_status st = add_rooms(L, r, g);
    if (st == DG_OK)
        st = add_edges(L, r);
    if (st == DG_OK)
        st = dgi_result_edge_corridors(r);
    if (st == DG_OK)
        st = dgi_result_finish_at(r, g, start_cell(L, g), dgi_graph_start_node(L->g), NULL, a);
    if (st == DG_OK)
        st = place_exit(L, r, g, a);
    if (st == DG_OK)
        st = add_locks(L, r, g);
    if (st == DG_OK)
        st = add_template_markers(L, r, g);
    if (st == DG_OK)
    {
        r->metrics.requested = L->g->node_count;
        r->metrics.placed = L->g->node_count;
        r->metrics.loops = L->g->edge_count - L->g->node_count + 1 + L->extras;
    }
    return st;
}
