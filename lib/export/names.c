/* Stable lower-case names of the result's kinds, shared by the JSON and Tiled
 * writers. Kept apart from export.c so that the writers never call back into
 * the entry points that call them (export.c -> json.c, tiled.c
 * -> names.c). See docs/export.md for the names. */
#include "export/export.h"


const char *dgi_room_kind_name(int32_t kind)
{
    static const char *const names[] = {"normal", "prefab", "cave", "start", "junction"};
    return kind >= 0 && kind < (int32_t)(sizeof names / sizeof names[0]) ? names[kind] : "other";
}

const char *dgi_room_shape_name(int32_t shape)
{
    static const char *const names[] = {"rect", "cross", "circle", "octagon", "chunky", "pillars",
                                         "cavern", "prefab"};
    return shape >= 0 && shape < (int32_t)(sizeof names / sizeof names[0]) ? names[shape] : "other";
}

const char *dgi_marker_kind_name(int32_t kind)
{
    static const char *const names[] = {"generic", "actor", "item", "trap", "spawn", "start", "exit",
                                         "key", "lock", "stairs_up", "stairs_down"};
    return kind >= 0 && kind < (int32_t)(sizeof names / sizeof names[0]) ? names[kind] : "other";
}

const char *dgi_ref_kind_name(int32_t kind)
{
    static const char *const names[] = {"none", "room", "corridor"};
    return kind >= 0 && kind < (int32_t)(sizeof names / sizeof names[0]) ? names[kind] : "other";
}

int32_t dgi_stairs_link(const dg_result *r, dg_point p, uint8_t tile)
{
    int32_t kind = tile == DG_TILE_STAIRS_UP ? DG_MARKER_STAIRS_UP : DG_MARKER_STAIRS_DOWN;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        if (m->kind != kind || m->pos.x != p.x || m->pos.y != p.y || strncmp(m->name, "floor ", 6) != 0)
            continue;
        int32_t floor = 0;
        const char *d = m->name + 6;
        for (; *d >= '0' && *d <= '9' && floor < DG_FLOORS_MAX; d++)
            floor = floor * 10 + (*d - '0');
        if (*d == '\0' && d > m->name + 6 && floor < DG_FLOORS_MAX)
            return floor;
    }
    return -1;
}

const dg_room_label *dgi_room_label(const dg_result *r, int32_t i)
{
    return r->labels && r->label_count == r->room_count ? &r->labels[i] : NULL;
}

int dgi_corridor_edge(const dg_result *r, int32_t i, int32_t *edge)
{
    if (!r->corridor_edges || r->corridor_edge_count != r->corridor_count)
        return 0;
    *edge = r->corridor_edges[i];
    return 1;
}

int dgi_marker_is_spawn(const dg_marker *m)
{
    return m->type[0] != '\0';
}

int32_t dgi_marker_side(const dg_marker *m)
{
    return m->size > 1 ? m->size : 1;
}
