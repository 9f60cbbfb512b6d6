/* libdungeon's own JSON map format (docs/export.md): tiles as rows of numbers,
 * the legend, and the structured result. Written in one pass, no allocation. */
#include "recipe/recipe.h"
#include "export/export.h"

static void key(dgi_out *o, const char *k)
{
    dgi_out_char(o, '"');
    dgi_out_str(o, k);
    dgi_out_str(o, "\": ");
}

static void key_int(dgi_out *o, const char *k, int64_t v)
{
    key(o, k);
    dgi_out_i64(o, v);
}

/* The same for every field after an object's first: a comma before. */
static void next_key(dgi_out *o, const char *k)
{
    dgi_out_str(o, ", ");
    key(o, k);
}

static void next_int(dgi_out *o, const char *k, int64_t v)
{
    next_key(o, k);
    dgi_out_i64(o, v);
}

static void point(dgi_out *o, dg_point p)
{
    dgi_out_char(o, '[');
    dgi_out_i64(o, p.x);
    dgi_out_str(o, ", ");
    dgi_out_i64(o, p.y);
    dgi_out_char(o, ']');
}

static void next_ref(dgi_out *o, const char *k, dg_ref r)
{
    next_key(o, k);
    dgi_out_str(o, "{\"kind\": ");
    dgi_out_json_str(o, dgi_ref_kind_name(r.kind));
    dgi_out_str(o, ", \"index\": ");
    dgi_out_i64(o, r.index);
    dgi_out_char(o, '}');
}

static void color(dgi_out *o, uint32_t c)
{
    static const char hex[] = "0123456789ABCDEF";
    char s[9] = {'"', '#', 0, 0, 0, 0, 0, 0, '"'};
    for (int i = 0; i < 6; i++)
        s[2 + i] = hex[(c >> (28 - 4 * i)) & 15u];
    dgi_out_bytes(o, s, sizeof s);
}

/* Every library tile, then any other tile value found in the grid. */
static void legend(dgi_out *o, const dg_grid *g)
{
    uint8_t used[256] = {0};
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            used[DG_CELL(g, x, y)] = 1;
    key(o, "legend");
    dgi_out_char(o, '[');
    int first = 1;
    for (int t = 0; t < 256; t++)
    {
        if (t >= DG_TILE_COUNT && !used[t])
            continue;
        char glyph[2] = {dg_tile_glyph((uint8_t)t), '\0'};
        dgi_out_str(o, first ? "\n    {" : ",\n    {");
        first = 0;
        key_int(o, "tile", t);
        next_key(o, "name");
        dgi_out_json_str(o, dg_tile_name((uint8_t)t));
        next_key(o, "glyph");
        dgi_out_json_str(o, glyph);
        next_key(o, "passable");
        dgi_out_str(o, dg_tile_passable((uint8_t)t) ? "true" : "false");
        next_key(o, "color");
        color(o, dg_tile_color((uint8_t)t));
        dgi_out_char(o, '}');
    }
    dgi_out_str(o, "\n  ]");
}

static void rows(dgi_out *o, const dg_grid *g)
{
    key(o, "rows");
    dgi_out_char(o, '[');
    for (int32_t y = 0; y < g->height; y++)
    {
        dgi_out_str(o, y ? ",\n    [" : "\n    [");
        dgi_out_tiles(o, &DG_CELL(g, 0, y), g->width);
        dgi_out_char(o, ']');
    }
    dgi_out_str(o, "\n  ]");
}

static void rooms(dgi_out *o, const dg_result *r)
{
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_room *m = &r->rooms[i];
        dgi_out_str(o, i ? ",\n    {" : "\n    {");
        key_int(o, "id", i);
        next_int(o, "x", m->rect.x);
        next_int(o, "y", m->rect.y);
        next_int(o, "w", m->rect.w);
        next_int(o, "h", m->rect.h);
        next_key(o, "kind");
        dgi_out_json_str(o, dgi_room_kind_name(m->kind));
        next_int(o, "parent", m->parent);
        next_int(o, "prefab", m->prefab);
        next_int(o, "orientation", m->orientation);
        next_int(o, "cells", m->cells);
        next_key(o, "shape");
        dgi_out_json_str(o, dgi_room_shape_name(m->shape));
        const dg_room_label *l = dgi_room_label(r, i);
        if (l) /* only with labels: a map without them keeps its bytes */
        {
            next_key(o, "role");
            dgi_out_json_str(o, l->role);
            next_key(o, "name");
            dgi_out_json_str(o, l->name);
            next_int(o, "node", l->node);
        }
        dgi_out_char(o, '}');
    }
}

static void corridors(dgi_out *o, const dg_result *r)
{
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        dgi_out_str(o, i ? ",\n    {" : "\n    {");
        key_int(o, "id", i);
        next_key(o, "start");
        point(o, c->start);
        next_key(o, "bend");
        point(o, c->bend);
        next_key(o, "end");
        point(o, c->end);
        next_int(o, "length", c->length);
        next_ref(o, "from", c->from);
        next_ref(o, "to", c->to);
        int32_t edge;
        if (dgi_corridor_edge(r, i, &edge))
            next_int(o, "edge", edge);
        dgi_out_char(o, '}');
    }
}

static void doors(dgi_out *o, const dg_result *r)
{
    for (int32_t i = 0; i < r->door_count; i++)
    {
        const dg_door *d = &r->doors[i];
        dgi_out_str(o, i ? ",\n    {" : "\n    {");
        key_int(o, "id", i);
        next_int(o, "x", d->pos.x);
        next_int(o, "y", d->pos.y);
        next_ref(o, "a", d->a);
        next_ref(o, "b", d->b);
        dgi_out_char(o, '}');
    }
}

static void markers(dgi_out *o, const dg_result *r)
{
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        dgi_out_str(o, i ? ",\n    {" : "\n    {");
        key_int(o, "id", i);
        next_int(o, "x", m->pos.x);
        next_int(o, "y", m->pos.y);
        next_key(o, "kind");
        dgi_out_json_str(o, dgi_marker_kind_name(m->kind));
        next_int(o, "room", m->room);
        next_key(o, "name");
        dgi_out_json_str(o, m->name);
        if (m->number) /* a key's or lock's number, a spawn's group: no name to parse */
            next_int(o, "number", m->number);
        if (dgi_marker_is_spawn(m))
        {
            next_int(o, "size", dgi_marker_side(m));
            next_int(o, "cost", m->cost);
            next_key(o, "type");
            dgi_out_json_str(o, m->type);
        }
        dgi_out_char(o, '}');
    }
}

/* Stairs are tiles; listed for convenience (row-major order), with the floor
 * they lead to where a stairs marker links them (dg_floor_generate). */
static void stairs(dgi_out *o, const dg_grid *g, const dg_result *r)
{
    int first = 1;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = DG_CELL(g, x, y);
            if (t != DG_TILE_STAIRS_UP && t != DG_TILE_STAIRS_DOWN)
                continue;
            dgi_out_str(o, first ? "\n    {" : ",\n    {");
            first = 0;
            key_int(o, "x", x);
            next_int(o, "y", y);
            next_key(o, "dir");
            dgi_out_str(o, t == DG_TILE_STAIRS_UP ? "\"up\"" : "\"down\"");
            int32_t to = r ? dgi_stairs_link(r, (dg_point){x, y}, t) : -1;
            if (to >= 0)
                next_int(o, "floor", to);
            dgi_out_char(o, '}');
        }
}

static void place(dgi_out *o, const char *k, dg_point p, int32_t room)
{
    key(o, k);
    if (p.x < 0)
    {
        dgi_out_str(o, "null");
        return;
    }
    dgi_out_char(o, '{');
    key_int(o, "x", p.x);
    next_int(o, "y", p.y);
    next_int(o, "room", room);
    dgi_out_char(o, '}');
}

static void metrics(dgi_out *o, const dg_metrics *m)
{
    const struct { const char *name; int32_t value; } f[] = {
        {"cells", m->cells}, {"floor_cells", m->floor_cells},
        {"floor_permille", m->floor_permille}, {"rooms", m->rooms},
        {"corridors", m->corridors}, {"doors", m->doors}, {"dead_ends", m->dead_ends},
        {"loops", m->loops}, {"regions", m->regions}, {"attempts", m->attempts},
        {"failures", m->failures}, {"stopped_early", m->stopped_early},
        {"requested", m->requested}, {"placed", m->placed}, {"overlaps", m->overlaps},
        {"chokepoints", m->chokepoints}, {"diameter", m->diameter},
    };
    key(o, "metrics");
    dgi_out_char(o, '{');
    key_int(o, f[0].name, f[0].value);
    for (size_t i = 1; i < sizeof f / sizeof f[0]; i++)
        next_int(o, f[i].name, f[i].value);
    dgi_out_char(o, '}');
}

/* A list: "name": [ items ] with items written by fn (empty when r is NULL). */
static void list(dgi_out *o, const char *k, const dg_result *r,
                 void (*fn)(dgi_out *, const dg_result *))
{
    dgi_out_str(o, ",\n  ");
    key(o, k);
    dgi_out_char(o, '[');
    size_t before = o->total;
    if (r)
        fn(o, r);
    dgi_out_str(o, o->total == before ? "]" : "\n  ]");
}

static void recipe(dgi_out *o, const dg_recipe *rc)
{
    if (!rc)
    {
        dgi_out_str(o, ",\n  \"recipe\": null");
        return;
    }
    /* a recipe line holds only names, digits, '=' and blanks: no escaping needed */
    dgi_out_str(o, ",\n  \"recipe\": \"");
    dgi_recipe_emit(rc, o);
    dgi_out_str(o, "\",\n  \"generator\": ");
    dgi_out_json_str(o, rc->generator);
    dgi_out_str(o, ",\n  \"seed\": \"");
    dgi_out_u64(o, rc->seed);
    dgi_out_char(o, '"');
}

void dgi_export_json(const dg_grid *g, const dg_result *r, const dg_export_options *opt,
                     dgi_out *o)
{
    dgi_out_str(o, "{\n  \"format\": \"libdungeon-map\",\n  ");
    key_int(o, "format_version", 1);
    dgi_out_str(o, ",\n  \"library_version\": ");
    dgi_out_json_str(o, dg_version());
    recipe(o, opt->recipe);
    dgi_out_str(o, ",\n  ");
    key_int(o, "width", g->width);
    dgi_out_str(o, ",\n  ");
    key_int(o, "height", g->height);
    dgi_out_str(o, ",\n  ");
    legend(o, g);
    dgi_out_str(o, ",\n  ");
    rows(o, g);
    list(o, "rooms", r, rooms);
    list(o, "corridors", r, corridors);
    list(o, "doors", r, doors);
    list(o, "markers", r, markers);
    dgi_out_str(o, ",\n  ");
    key(o, "stairs");
    dgi_out_char(o, '[');
    size_t before = o->total;
    stairs(o, g, r);
    dgi_out_str(o, o->total == before ? "]" : "\n  ]");
    dgi_out_str(o, ",\n  ");
    dg_point none = {-1, -1};
    place(o, "start", r ? r->start : none, r ? r->start_room : -1);
    dgi_out_str(o, ",\n  ");
    place(o, "exit", r ? r->exit : none, r ? r->exit_room : -1);
    dgi_out_str(o, ",\n  ");
    dg_metrics zero;
    memset(&zero, 0, sizeof zero);
    metrics(o, r ? &r->metrics : &zero);
    dgi_out_str(o, "\n}\n");
}
