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
                                         "cavern"};
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
