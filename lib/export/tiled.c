/* Tiled maps (.tmj JSON and .tmx XML with CSV data): an orthogonal map whose
 * background is void's colour, one tile layer whose GIDs equal the tile values
 * (void = 0 = empty) over the 16 x 16 swatch tileset, and one object layer with
 * rooms, corridors, doors, stairs, start, exit and markers; a stacked dungeon
 * has that pair of layers per floor. See docs/export.md. */
#include "recipe/recipe.h"
#include "export/export.h"

#include <assert.h>

#include <stdio.h>

enum { SHAPE_RECT, SHAPE_POINT, SHAPE_POLYLINE };
enum { PROP_STRING, PROP_INT };

typedef struct tprop {
    const char *name;
    int type;
    int64_t ival;
    const char *sval;
} tprop;

/* One Tiled object, in pixels. */
typedef struct tobj {
    int64_t id;
    char name[DG_NAME_MAX + 16];
    const char *type;
    int64_t x, y, w, h;
    int shape;
    int32_t point_count;
    int64_t points[3][2]; /* polyline, relative to (x, y) */
    tprop props[10]; /* the most any object has (a labelled room: 8), with room to spare */
    int prop_count;
} tobj;

typedef struct tiled {
    const dg_grid *grid;     /* the floor being written */
    const dg_result *result; /* its result, or NULL */
    const dg_export_options *opt;
    dgi_out *o;
    int json;
    int64_t written; /* objects written so far (64-bit: the counts add up) */
    const dg_grid *grids;      /* every floor (floors == 0: one map, grid alone) */
    const dg_result *results;  /* NULL or one per floor */
    int32_t floors;
    int64_t layer_first; /* t->written when the current object layer began */
} tiled;

/* ---- objects ------------------------------------------------------------------- */
static void put_int(dgi_out *o, int64_t v)
{
    dgi_out_i64(o, v);
}

static void attr(tiled *t, const char *name, int64_t v)
{
    dgi_out_str(t->o, t->json ? ", \"" : " ");
    dgi_out_str(t->o, name);
    dgi_out_str(t->o, t->json ? "\": " : "=\"");
    put_int(t->o, v);
    if (!t->json)
        dgi_out_char(t->o, '"');
}

static void prop_json(dgi_out *o, const tprop *p, int first)
{
    dgi_out_str(o, first ? "{\"name\": " : ", {\"name\": ");
    dgi_out_json_str(o, p->name);
    dgi_out_str(o, p->type == PROP_INT ? ", \"type\": \"int\", \"value\": " : ", \"type\": \"string\", \"value\": ");
    if (p->type == PROP_INT)
        put_int(o, p->ival);
    else
        dgi_out_json_str(o, p->sval);
    dgi_out_char(o, '}');
}

static void prop_xml(dgi_out *o, const tprop *p, const char *indent)
{
    dgi_out_str(o, indent);
    dgi_out_str(o, "<property name=\"");
    dgi_out_xml_str(o, p->name);
    dgi_out_str(o, p->type == PROP_INT ? "\" type=\"int\" value=\"" : "\" value=\"");
    if (p->type == PROP_INT)
        put_int(o, p->ival);
    else
        dgi_out_xml_str(o, p->sval);
    dgi_out_str(o, "\"/>\n");
}

static void object_json(tiled *t, const tobj *b)
{
    dgi_out *o = t->o;
    dgi_out_str(o, t->written > t->layer_first ? ",\n        {\"id\": " : "\n        {\"id\": ");
    put_int(o, b->id);
    dgi_out_str(o, ", \"name\": ");
    dgi_out_json_str(o, b->name);
    dgi_out_str(o, ", \"type\": ");
    dgi_out_json_str(o, b->type);
    attr(t, "x", b->x);
    attr(t, "y", b->y);
    attr(t, "width", b->w);
    attr(t, "height", b->h);
    dgi_out_str(o, ", \"rotation\": 0, \"visible\": true");
    if (b->shape == SHAPE_POINT)
        dgi_out_str(o, ", \"point\": true");
    if (b->shape == SHAPE_POLYLINE)
    {
        dgi_out_str(o, ", \"polyline\": [");
        for (int32_t i = 0; i < b->point_count; i++)
        {
            dgi_out_str(o, i ? ", {\"x\": " : "{\"x\": ");
            put_int(o, b->points[i][0]);
            dgi_out_str(o, ", \"y\": ");
            put_int(o, b->points[i][1]);
            dgi_out_char(o, '}');
        }
        dgi_out_char(o, ']');
    }
    if (b->prop_count)
    {
        dgi_out_str(o, ", \"properties\": [");
        for (int i = 0; i < b->prop_count; i++)
            prop_json(o, &b->props[i], i == 0);
        dgi_out_char(o, ']');
    }
    dgi_out_char(o, '}');
}

static void object_xml(tiled *t, const tobj *b)
{
    dgi_out *o = t->o;
    dgi_out_str(o, "  <object");
    attr(t, "id", b->id);
    dgi_out_str(o, " name=\"");
    dgi_out_xml_str(o, b->name);
    dgi_out_str(o, "\" type=\"");
    dgi_out_xml_str(o, b->type);
    dgi_out_char(o, '"');
    attr(t, "x", b->x);
    attr(t, "y", b->y);
    if (b->shape == SHAPE_RECT)
    {
        attr(t, "width", b->w);
        attr(t, "height", b->h);
    }
    dgi_out_str(o, ">\n");
    if (b->prop_count)
    {
        dgi_out_str(o, "   <properties>\n");
        for (int i = 0; i < b->prop_count; i++)
            prop_xml(o, &b->props[i], "    ");
        dgi_out_str(o, "   </properties>\n");
    }
    if (b->shape == SHAPE_POINT)
        dgi_out_str(o, "   <point/>\n");
    if (b->shape == SHAPE_POLYLINE)
    {
        dgi_out_str(o, "   <polyline points=\"");
        for (int32_t i = 0; i < b->point_count; i++)
        {
            if (i)
                dgi_out_char(o, ' ');
            put_int(o, b->points[i][0]);
            dgi_out_char(o, ',');
            put_int(o, b->points[i][1]);
        }
        dgi_out_str(o, "\"/>\n");
    }
    dgi_out_str(o, "  </object>\n");
}

static void emit(tiled *t, tobj *b)
{
    b->id = t->written + 1; /* ids 1..n, so nextobjectid is n + 1 */
    if (t->o)
    {
        if (t->json)
            object_json(t, b);
        else
            object_xml(t, b);
    }
    t->written++;
}

static void begin(tobj *b, const char *type, int shape)
{
    memset(b, 0, sizeof *b);
    b->type = type;
    b->shape = shape;
}

/* Adds a property; the array is sized for the most any object has, and
 * a debug build stops at once if a new property outgrows it. */
static void add_prop(tobj *b, tprop p)
{
    assert(b->prop_count < (int)(sizeof b->props / sizeof b->props[0]));
    if (b->prop_count < (int)(sizeof b->props / sizeof b->props[0]))
        b->props[b->prop_count++] = p;
}

static void prop_int(tobj *b, const char *name, int64_t v)
{
    tprop p = {name, PROP_INT, v, NULL};
    add_prop(b, p);
}

static void prop_str(tobj *b, const char *name, const char *v)
{
    tprop p = {name, PROP_STRING, 0, v};
    add_prop(b, p);
}

static void at_cell(const tiled *t, tobj *b, dg_point p)
{
    b->x = (int64_t)p.x * t->opt->tile_width + t->opt->tile_width / 2;
    b->y = (int64_t)p.y * t->opt->tile_height + t->opt->tile_height / 2;
}

static void numbered(tobj *b, const char *what, int32_t i)
{
    (void)snprintf(b->name, sizeof b->name, "%s %d", what, (int)i);
}

static void ref_prop(tobj *b, const char *name, dg_ref r, char *buf, size_t size)
{
    if (r.kind == DG_REF_NONE)
        (void)snprintf(buf, size, "none");
    else
        (void)snprintf(buf, size, "%s %d", dgi_ref_kind_name(r.kind), (int)r.index);
    prop_str(b, name, buf);
}

static void rooms(tiled *t)
{
    const dg_result *r = t->result;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        tobj b;
        const dg_room *m = &r->rooms[i];
        begin(&b, "room", SHAPE_RECT);
        numbered(&b, "room", i);
        b.x = (int64_t)m->rect.x * t->opt->tile_width;
        b.y = (int64_t)m->rect.y * t->opt->tile_height;
        b.w = (int64_t)m->rect.w * t->opt->tile_width;
        b.h = (int64_t)m->rect.h * t->opt->tile_height;
        prop_int(&b, "index", i);
        prop_str(&b, "kind", dgi_room_kind_name(m->kind));
        prop_int(&b, "parent", m->parent);
        prop_int(&b, "cells", m->cells);
        prop_str(&b, "shape", dgi_room_shape_name(m->shape));
        const dg_room_label *l = dgi_room_label(r, i);
        if (l)
        {
            prop_str(&b, "role", l->role);
            prop_str(&b, "name", l->name);
            prop_int(&b, "node", l->node);
        }
        emit(t, &b);
    }
}

static void corridors(tiled *t)
{
    const dg_result *r = t->result;
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        tobj b;
        const dg_corridor *c = &r->corridors[i];
        char from[48], to[48];
        begin(&b, "corridor", SHAPE_POLYLINE);
        numbered(&b, "corridor", i);
        at_cell(t, &b, c->start);
        const dg_point legs[3] = {c->start, c->bend, c->end};
        dg_point last = c->start;
        for (int k = 0; k < 3; k++)
        {
            if (k > 0 && legs[k].x == last.x && legs[k].y == last.y)
                continue; /* a straight corridor repeats its end as the bend */
            last = legs[k];
            /* 64-bit before the difference: a caller's result may span INT32_MIN..INT32_MAX */
            b.points[b.point_count][0] = ((int64_t)legs[k].x - c->start.x) * t->opt->tile_width;
            b.points[b.point_count][1] = ((int64_t)legs[k].y - c->start.y) * t->opt->tile_height;
            b.point_count++;
        }
        if (b.point_count == 1) /* a one-cell corridor: a polyline needs two points */
            b.point_count = 2;
        prop_int(&b, "index", i);
        prop_int(&b, "length", c->length);
        ref_prop(&b, "from", c->from, from, sizeof from);
        ref_prop(&b, "to", c->to, to, sizeof to);
        int32_t edge;
        if (dgi_corridor_edge(r, i, &edge))
            prop_int(&b, "edge", edge);
        emit(t, &b);
    }
}

static void doors(tiled *t)
{
    const dg_result *r = t->result;
    for (int32_t i = 0; i < r->door_count; i++)
    {
        tobj b;
        char a[48], c[48];
        begin(&b, "door", SHAPE_POINT);
        numbered(&b, "door", i);
        at_cell(t, &b, r->doors[i].pos);
        prop_int(&b, "index", i);
        ref_prop(&b, "a", r->doors[i].a, a, sizeof a);
        ref_prop(&b, "b", r->doors[i].b, c, sizeof c);
        emit(t, &b);
    }
}

/* Stairs are written from the tiles, except those a stairs marker (a floor
 * link, dg_floor_generate) already stands for as an object of the same type. */
static void stairs(tiled *t)
{
    const dg_grid *g = t->grid;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t tile = DG_CELL(g, x, y);
            if (tile != DG_TILE_STAIRS_UP && tile != DG_TILE_STAIRS_DOWN)
                continue;
            if (t->result && dgi_stairs_link(t->result, (dg_point){x, y}, tile) >= 0)
                continue;
            tobj b;
            int up = tile == DG_TILE_STAIRS_UP;
            begin(&b, up ? "stairs_up" : "stairs_down", SHAPE_POINT);
            (void)snprintf(b.name, sizeof b.name, "%s", up ? "stairs up" : "stairs down");
            dg_point p = {x, y};
            at_cell(t, &b, p);
            emit(t, &b);
        }
}

/* The first marker of kind start (exit) on the result's start (exit) cell, or -1.
 * Prefab generators place such a marker and make it the result's start: it is
 * one place, written once, as the start (exit) object with a `marker` property. */
static int32_t merged_marker(const dg_result *r, int exit)
{
    dg_point p = exit ? r->exit : r->start;
    int32_t kind = exit ? DG_MARKER_EXIT : DG_MARKER_START;
    if (p.x < 0)
        return -1;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        if (m->kind == kind && m->pos.x == p.x && m->pos.y == p.y)
            return i;
    }
    return -1;
}

static void start_exit(tiled *t)
{
    const dg_result *r = t->result;
    for (int k = 0; k < 2; k++)
    {
        dg_point p = k ? r->exit : r->start;
        if (p.x < 0)
            continue;
        tobj b;
        begin(&b, k ? "exit" : "start", SHAPE_POINT);
        (void)snprintf(b.name, sizeof b.name, "%s", b.type);
        at_cell(t, &b, p);
        prop_int(&b, "room", k ? r->exit_room : r->start_room);
        int32_t marker = merged_marker(r, k);
        if (marker >= 0)
            prop_int(&b, "marker", marker);
        emit(t, &b);
    }
}

/* A spawn is a rectangle over its footprint whose type is its kind word
 * ("monster", "item", the game's own), with its group, size and cost. */
static void spawn(tiled *t, const dg_marker *m, int32_t i)
{
    tobj b;
    int64_t side = dgi_marker_side(m);
    begin(&b, m->type, SHAPE_RECT);
    (void)snprintf(b.name, sizeof b.name, "%s", m->name[0] ? m->name : m->type);
    b.x = (int64_t)m->pos.x * t->opt->tile_width;
    b.y = (int64_t)m->pos.y * t->opt->tile_height;
    b.w = side * t->opt->tile_width;
    b.h = side * t->opt->tile_height;
    prop_int(&b, "index", i);
    prop_int(&b, "room", m->room);
    prop_str(&b, "kind", dgi_marker_kind_name(m->kind));
    prop_int(&b, "group", m->number);
    prop_int(&b, "size", side);
    prop_int(&b, "cost", m->cost);
    emit(t, &b);
}

static void markers(tiled *t)
{
    const dg_result *r = t->result;
    const int32_t merged[2] = {merged_marker(r, 0), merged_marker(r, 1)};
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        if (i == merged[0] || i == merged[1])
            continue; /* already written as the start or exit object */
        const dg_marker *m = &r->markers[i];
        if (dgi_marker_is_spawn(m))
        {
            spawn(t, m, i);
            continue;
        }
        tobj b;
        begin(&b, dgi_marker_kind_name(m->kind), SHAPE_POINT);
        (void)snprintf(b.name, sizeof b.name, "%s", m->name[0] ? m->name : b.type);
        at_cell(t, &b, m->pos);
        prop_int(&b, "index", i);
        prop_int(&b, "room", m->room);
        if (m->number) /* a key's or lock's number: no name to parse */
            prop_int(&b, "number", m->number);
        emit(t, &b);
    }
}

/* Emits every object (or, with t->o NULL, only counts them). */
static void objects(tiled *t)
{
    if (t->result)
    {
        rooms(t);
        corridors(t);
        doors(t);
    }
    stairs(t);
    if (t->result)
    {
        start_exit(t);
        markers(t);
    }
}

/* Points t at floor k (of a stacked map; k 0 of a single one). */
static void select_floor(tiled *t, int32_t k)
{
    if (!t->floors)
        return;
    t->grid = &t->grids[k];
    t->result = t->results ? &t->results[k] : NULL;
}

static int64_t object_count(const tiled *t)
{
    tiled counter = *t;
    counter.o = NULL;
    counter.written = 0;
    for (int32_t k = 0; k < (t->floors ? t->floors : 1); k++)
    {
        select_floor(&counter, k);
        objects(&counter);
    }
    return counter.written;
}

/* ---- map, tileset, layers --------------------------------------------------------- */
/* Void cells are GID 0 (no tile); the map's background is void's colour, so
 * Tiled shows them as the PNG render does. */
static void background(tiled *t)
{
    char hex[8];
    (void)snprintf(hex, sizeof hex, "#%06X", (unsigned)(dg_tile_color(DG_TILE_VOID) >> 8));
    dgi_out_str(t->o, t->json ? ", \"backgroundcolor\": \"" : " backgroundcolor=\"");
    dgi_out_str(t->o, hex);
    dgi_out_char(t->o, '"');
}

static void csv(dgi_out *o, const dg_grid *g)
{
    for (int32_t y = 0; y < g->height; y++)
    {
        dgi_out_tiles(o, &DG_CELL(g, 0, y), g->width); /* GID = tile value; 0 = empty */
        dgi_out_str(o, y + 1 < g->height ? ",\n" : "\n"); /* no comma after the last */
    }
}

static void map_props(tiled *t)
{
    const dg_recipe *rc = t->opt->recipe;
    dgi_out *o = t->o;
    if (t->json)
    {
        dgi_out_str(o, "  \"properties\": [{\"name\": \"library_version\", \"type\": \"string\", \"value\": ");
        dgi_out_json_str(o, dg_version());
        dgi_out_char(o, '}');
        if (rc)
        {
            dgi_out_str(o, ", {\"name\": \"recipe\", \"type\": \"string\", \"value\": \"");
            dgi_recipe_emit(rc, o);
            dgi_out_str(o, "\"}");
        }
        dgi_out_str(o, "],\n");
        return;
    }
    dgi_out_str(o, " <properties>\n  <property name=\"library_version\" value=\"");
    dgi_out_str(o, dg_version());
    dgi_out_str(o, "\"/>\n");
    if (rc)
    {
        dgi_out_str(o, "  <property name=\"recipe\" value=\"");
        dgi_recipe_emit(rc, o);
        dgi_out_str(o, "\"/>\n");
    }
    dgi_out_str(o, " </properties>\n");
}

static void tileset(tiled *t)
{
    const dg_export_options *opt = t->opt;
    dgi_out *o = t->o;
    int64_t iw = (int64_t)DG_TILESET_COLUMNS * opt->tile_width;
    int64_t ih = (int64_t)DG_TILESET_COLUMNS * opt->tile_height;
    if (t->json)
    {
        dgi_out_str(o, "  \"tilesets\": [{\"firstgid\": 1, \"name\": \"libdungeon\", \"image\": ");
        dgi_out_json_str(o, opt->tileset_image);
        attr(t, "imagewidth", iw);
        attr(t, "imageheight", ih);
        attr(t, "tilewidth", opt->tile_width);
        attr(t, "tileheight", opt->tile_height);
        dgi_out_str(o, ", \"tilecount\": 256, \"columns\": 16, \"margin\": 0, \"spacing\": 0,\n"
                       "    \"tiles\": [");
        for (int v = 1; v < DG_TILE_COUNT; v++)
        {
            dgi_out_str(o, v > 1 ? ",\n      {\"id\": " : "\n      {\"id\": ");
            put_int(o, v - 1);
            dgi_out_str(o, ", \"properties\": [{\"name\": \"tile\", \"type\": \"string\", \"value\": ");
            dgi_out_json_str(o, dg_tile_name((uint8_t)v));
            dgi_out_str(o, "}]}");
        }
        dgi_out_str(o, opt->terrain ? "]}" : "]}],\n");
        if (opt->terrain)
            dgi_tiled_art_tileset(o, 1, opt);
        return;
    }
    dgi_out_str(o, " <tileset firstgid=\"1\" name=\"libdungeon\"");
    attr(t, "tilewidth", opt->tile_width);
    attr(t, "tileheight", opt->tile_height);
    dgi_out_str(o, " tilecount=\"256\" columns=\"16\">\n  <image source=\"");
    dgi_out_xml_str(o, opt->tileset_image);
    dgi_out_char(o, '"');
    attr(t, "width", iw);
    attr(t, "height", ih);
    dgi_out_str(o, "/>\n");
    for (int v = 1; v < DG_TILE_COUNT; v++)
    {
        dgi_out_str(o, "  <tile");
        attr(t, "id", v - 1);
        dgi_out_str(o, ">\n   <properties>\n    <property name=\"tile\" value=\"");
        dgi_out_str(o, dg_tile_name((uint8_t)v));
        dgi_out_str(o, "\"/>\n   </properties>\n  </tile>\n");
    }
    dgi_out_str(o, " </tileset>\n");
    if (opt->terrain)
        dgi_tiled_art_tileset(o, 0, opt);
}

/* Layer names: "tiles" and "dungeon" for one map, "floor N" and "floor N
 * objects" for a stacked one (only floor 0 visible, so Tiled shows one floor). */
static void layer_name(const tiled *t, int32_t k, int objects_layer, char *buf, size_t size)
{
    if (!t->floors)
        (void)snprintf(buf, size, "%s", objects_layer ? "dungeon" : "tiles");
    else
        (void)snprintf(buf, size, "floor %d%s", (int)k, objects_layer ? " objects" : "");
}

static void layer_floor_prop(const tiled *t, int32_t k)
{
    if (!t->floors)
        return;
    if (t->json)
    {
        dgi_out_str(t->o, ",\n     \"properties\": [{\"name\": \"floor\", \"type\": \"int\", \"value\": ");
        put_int(t->o, k);
        dgi_out_str(t->o, "}]");
        return;
    }
    dgi_out_str(t->o, "  <properties>\n   <property name=\"floor\" type=\"int\" value=\"");
    put_int(t->o, k);
    dgi_out_str(t->o, "\"/>\n  </properties>\n");
}

/* With terrain: floor k's ground and art layers (tiled_art.c), after the
 * tile layer, which keeps the tile values but is hidden. */
static void art_layers(tiled *t, int32_t k)
{
    int32_t n = t->floors ? t->floors : 1;
    if (t->opt->terrain)
        dgi_tiled_art_layers(t->o, t->json, t->grid, 2 * (int64_t)n + 1 + 2 * (int64_t)k, k == 0, k,
                             t->floors != 0);
}

static void tmj_layers(tiled *t, int32_t k)
{
    dgi_out *o = t->o;
    char name[32];
    const char *visible = k == 0 ? "true" : "false";
    layer_name(t, k, 0, name, sizeof name);
    dgi_out_str(o, k ? ",\n    {\"id\": " : "    {\"id\": ");
    put_int(o, 2 * (int64_t)k + 1);
    dgi_out_str(o, ", \"name\": ");
    dgi_out_json_str(o, name);
    dgi_out_str(o, ", \"type\": \"tilelayer\", \"x\": 0, \"y\": 0");
    attr(t, "width", t->grid->width);
    attr(t, "height", t->grid->height);
    dgi_out_str(o, ", \"opacity\": 1, \"visible\": ");
    dgi_out_str(o, t->opt->terrain ? "false" : visible);
    layer_floor_prop(t, k);
    dgi_out_str(o, ",\n     \"data\": [\n");
    csv(o, t->grid);
    dgi_out_str(o, "]}");
    art_layers(t, k);
    dgi_out_str(o, ",\n    {\"id\": ");
    put_int(o, 2 * (int64_t)k + 2);
    layer_name(t, k, 1, name, sizeof name);
    dgi_out_str(o, ", \"name\": ");
    dgi_out_json_str(o, name);
    dgi_out_str(o, ", \"type\": \"objectgroup\", \"draworder\": \"topdown\", \"x\": 0, \"y\": 0, "
                   "\"opacity\": 1, \"visible\": ");
    dgi_out_str(o, visible);
    layer_floor_prop(t, k);
    dgi_out_str(o, ",\n     \"objects\": [");
    t->layer_first = t->written;
    objects(t);
    dgi_out_str(o, t->written > t->layer_first ? "\n     ]}" : "]}");
}

static void tmj(tiled *t, int64_t count)
{
    dgi_out *o = t->o;
    const dg_grid *g = t->grid;
    int32_t n = t->floors ? t->floors : 1;
    dgi_out_str(o, "{\n  \"type\": \"map\", \"version\": \"1.8\", \"orientation\": \"orthogonal\", "
                   "\"renderorder\": \"right-down\", \"infinite\": false");
    attr(t, "width", g->width);
    attr(t, "height", g->height);
    attr(t, "tilewidth", t->opt->tile_width);
    attr(t, "tileheight", t->opt->tile_height);
    background(t);
    dgi_out_str(o, ",\n  \"nextlayerid\": ");
    put_int(o, (t->opt->terrain ? 4 : 2) * (int64_t)n + 1);
    attr(t, "nextobjectid", count + 1);
    dgi_out_str(o, ",\n");
    map_props(t);
    tileset(t);
    dgi_out_str(o, "  \"layers\": [\n");
    for (int32_t k = 0; k < n; k++)
    {
        select_floor(t, k);
        tmj_layers(t, k);
    }
    dgi_out_str(o, "\n  ]\n}\n");
}

static void tmx_layers(tiled *t, int32_t k)
{
    dgi_out *o = t->o;
    char name[32];
    const char *visible = k == 0 ? "1" : "0";
    layer_name(t, k, 0, name, sizeof name);
    dgi_out_str(o, " <layer");
    attr(t, "id", 2 * (int64_t)k + 1);
    dgi_out_str(o, " name=\"");
    dgi_out_str(o, name);
    dgi_out_char(o, '"');
    attr(t, "width", t->grid->width);
    attr(t, "height", t->grid->height);
    dgi_out_str(o, " opacity=\"1\" visible=\"");
    dgi_out_str(o, t->opt->terrain ? "0" : visible);
    dgi_out_str(o, "\">\n");
    layer_floor_prop(t, k);
    dgi_out_str(o, "  <data encoding=\"csv\">\n");
    csv(o, t->grid);
    dgi_out_str(o, "</data>\n </layer>\n");
    art_layers(t, k);
    dgi_out_str(o, " <objectgroup");
    attr(t, "id", 2 * (int64_t)k + 2);
    layer_name(t, k, 1, name, sizeof name);
    dgi_out_str(o, " name=\"");
    dgi_out_str(o, name);
    dgi_out_str(o, "\" opacity=\"1\" visible=\"");
    dgi_out_str(o, visible);
    dgi_out_str(o, "\">\n");
    layer_floor_prop(t, k);
    objects(t);
    dgi_out_str(o, " </objectgroup>\n");
}

static void tmx(tiled *t, int64_t count)
{
    dgi_out *o = t->o;
    const dg_grid *g = t->grid;
    int32_t n = t->floors ? t->floors : 1;
    dgi_out_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<map version=\"1.8\" orientation=\"orthogonal\" renderorder=\"right-down\"");
    attr(t, "width", g->width);
    attr(t, "height", g->height);
    attr(t, "tilewidth", t->opt->tile_width);
    attr(t, "tileheight", t->opt->tile_height);
    background(t);
    dgi_out_str(o, " infinite=\"0\"");
    attr(t, "nextlayerid", (t->opt->terrain ? 4 : 2) * (int64_t)n + 1);
    attr(t, "nextobjectid", count + 1);
    dgi_out_str(o, ">\n");
    map_props(t);
    tileset(t);
    for (int32_t k = 0; k < n; k++)
    {
        select_floor(t, k);
        tmx_layers(t, k);
    }
    dgi_out_str(o, "</map>\n");
}

void dgi_export_tiled(const dg_grid *grid, const dg_result *result, const dg_export_options *opt,
                      dgi_out *out)
{
    tiled t = {grid, result, opt, out, opt->format == DG_EXPORT_TMJ, 0, NULL, NULL, 0, 0};
    int64_t count = object_count(&t);
    if (t.json)
        tmj(&t, count);
    else
        tmx(&t, count);
}

void dgi_export_tiled_floors(const dg_grid *grids, const dg_result *results, int32_t floors,
                             const dg_export_options *opt, dgi_out *out)
{
    tiled t = {&grids[0], results, opt, out, opt->format == DG_EXPORT_TMJ, 0, grids, results, floors, 0};
    int64_t count = object_count(&t);
    t.written = 0;
    if (t.json)
        tmj(&t, count);
    else
        tmx(&t, count);
}
