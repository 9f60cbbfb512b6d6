/* Tiled maps with terrain (dg_export_options.terrain): a second tileset, the
 * library's art tileset (dg_art_tileset_rgba), carrying two Wang sets of type
 * "mixed" (walls and water, the 47-tile blob) and one of type "corner" (walls
 * as 16 corner tiles, for painting on the corner grid), and per floor a "ground" layer
 * (swatch tiles under the art, the art's rock square for void) and an "art" layer of walls, water and doors
 * drawn through it. The layers are those of dg_render_art_rgba, so Tiled draws
 * the map as the autotile PNG. */
#include "recipe/recipe.h"
#include "export/export.h"

#include <stdio.h>
#include <string.h>

#define ART_FIRSTGID 257 /* after the 256 GIDs of the swatch tileset */

static void colour_hex(uint8_t tile, char hex[8])
{
    (void)snprintf(hex, 8, "#%06x", (unsigned)(dg_tile_color(tile) >> 8));
}

/* The wangid of tile i of a set: top, top-right, right, ... top-left. For
 * the blob that is the mask's bits in order (N=1 NE=2 E=4 ... NW=128); for
 * corners, NE=1 SE=2 SW=4 NW=8 go to top-right, bottom-right, bottom-left
 * and top-left. */
static void wangid(dgi_out *o, int32_t kind, int32_t index)
{
    int32_t mask = kind == DG_AUTOTILE_BLOB ? dg_autotile_blob_mask(index)
                                            : (index & 1) << 1 | (index & 2) << 2 | (index & 4) << 3 | (index & 8) << 4;
    for (int b = 0; b < 8; b++)
    {
        if (b)
            dgi_out_char(o, ',');
        dgi_out_i64(o, mask >> b & 1);
    }
}

typedef struct art_wangset {
    const char *name, *type;
    uint8_t tile; /* whose colour the set shows */
    int32_t kind, first, count;
} art_wangset;

static const art_wangset art_sets[] = {
    {"wall", "mixed", DG_TILE_WALL, DG_AUTOTILE_BLOB, DG_ART_WALL, DG_AUTOTILE_BLOB_TILES},
    {"water", "mixed", DG_TILE_WATER, DG_AUTOTILE_BLOB, DG_ART_WATER, DG_AUTOTILE_BLOB_TILES},
    {"wall corners", "corner", DG_TILE_WALL, DG_AUTOTILE_CORNER, DG_ART_CORNER, 16},
};

static void wangset(dgi_out *o, int json, const art_wangset *w, int last)
{
    char hex[8];
    colour_hex(w->tile, hex);
    dgi_out_str(o, json ? "{\"name\": \"" : "   <wangset name=\"");
    dgi_out_str(o, w->name);
    dgi_out_str(o, json ? "\", \"type\": \"" : "\" type=\"");
    dgi_out_str(o, w->type);
    dgi_out_str(o, json ? "\", \"tile\": -1, \"colors\": [{\"name\": \"" : "\" tile=\"-1\">\n    <wangcolor name=\"");
    dgi_out_str(o, w->name);
    dgi_out_str(o, json ? "\", \"color\": \"" : "\" color=\"");
    dgi_out_str(o, hex);
    dgi_out_str(o, json ? "\", \"tile\": -1, \"probability\": 1}],\n      \"wangtiles\": ["
                        : "\" tile=\"-1\" probability=\"1\"/>\n");
    for (int32_t i = 0; i < w->count; i++)
    {
        dgi_out_str(o, json ? (i ? ", {\"tileid\": " : "{\"tileid\": ") : "    <wangtile tileid=\"");
        dgi_out_i64(o, w->first + i);
        dgi_out_str(o, json ? ", \"wangid\": [" : "\" wangid=\"");
        wangid(o, w->kind, i);
        dgi_out_str(o, json ? "]}" : "\"/>\n");
    }
    if (json)
        dgi_out_str(o, last ? "]}" : "]},\n      ");
    else
        dgi_out_str(o, "   </wangset>\n");
}

/* The art image's path: tileset_image with "-art" before its extension
 * (after the last dot of its file name; at the end without one). */
static void art_path(const dg_export_options *opt, char *buf)
{
    const char *img = opt->tileset_image, *slash = strrchr(img, '/'), *dot = strrchr(img, '.');
    size_t len = strlen(img), stem = dot && (!slash || dot > slash) ? (size_t)(dot - img) : len;
    memcpy(buf, img, stem);
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the next copy brings the NUL */
    memcpy(buf + stem, "-art", 4);
    memcpy(buf + stem + 4, img + stem, len - stem + 1);
}

void dgi_tiled_art_tileset(dgi_out *o, int json, const dg_export_options *opt)
{
    int64_t t = opt->tile_width;
    char image[DGI_ART_PATH_MAX + 8];
    art_path(opt, image);
    if (json)
    {
        dgi_out_str(o, ",\n    {\"firstgid\": 257, \"name\": \"libdungeon-art\", \"image\": ");
        dgi_out_json_str(o, image);
        dgi_out_str(o, ", \"imagewidth\": ");
        dgi_out_i64(o, t * DG_ART_COLUMNS);
        dgi_out_str(o, ", \"imageheight\": ");
        dgi_out_i64(o, t * DG_ART_ROWS);
        dgi_out_str(o, ", \"tilewidth\": ");
        dgi_out_i64(o, t);
        dgi_out_str(o, ", \"tileheight\": ");
        dgi_out_i64(o, t);
        dgi_out_str(o, ", \"tilecount\": 120, \"columns\": 8, \"margin\": 0, \"spacing\": 0,\n"
                       "    \"wangsets\": [");
    }
    else
    {
        dgi_out_str(o, " <tileset firstgid=\"257\" name=\"libdungeon-art\" tilewidth=\"");
        dgi_out_i64(o, t);
        dgi_out_str(o, "\" tileheight=\"");
        dgi_out_i64(o, t);
        dgi_out_str(o, "\" tilecount=\"120\" columns=\"8\">\n  <image source=\"");
        dgi_out_xml_str(o, image);
        dgi_out_str(o, "\" width=\"");
        dgi_out_i64(o, t * DG_ART_COLUMNS);
        dgi_out_str(o, "\" height=\"");
        dgi_out_i64(o, t * DG_ART_ROWS);
        dgi_out_str(o, "\"/>\n  <wangsets>\n");
    }
    int sets = (int)(sizeof art_sets / sizeof art_sets[0]);
    for (int k = 0; k < sets; k++)
        wangset(o, json, &art_sets[k], k == sets - 1);
    dgi_out_str(o, json ? "]}],\n" : "  </wangsets>\n </tileset>\n");
}

/* The GIDs of one layer: the ground swatch (0 for void) or the art tile. */
static void art_csv(dgi_out *o, const dg_grid *g, int art)
{
    for (int32_t y = 0; y < g->height; y++)
    {
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t ground, a = dgi_art_at(g, x, y, &ground);
            if (x)
                dgi_out_char(o, ',');
            int64_t under = ground == DG_TILE_VOID ? ART_FIRSTGID + DG_ART_ROCK : ground;
            dgi_out_i64(o, !art ? under : a == DGI_ART_NONE ? 0 : ART_FIRSTGID + a);
        }
        dgi_out_str(o, y + 1 < g->height ? ",\n" : "\n");
    }
}

void dgi_tiled_art_layers(dgi_out *o, int json, const dg_grid *g, int64_t first_id, int visible,
                          int32_t floor, int stacked)
{
    for (int art = 0; art < 2; art++)
    {
        char name[40];
        if (stacked)
            (void)snprintf(name, sizeof name, "floor %d %s", (int)floor, art ? "art" : "ground");
        else
            (void)snprintf(name, sizeof name, "%s", art ? "art" : "ground");
        dgi_out_str(o, json ? ",\n    {\"id\": " : " <layer id=\"");
        dgi_out_i64(o, first_id + art);
        dgi_out_str(o, json ? ", \"name\": \"" : "\" name=\"");
        dgi_out_str(o, name);
        dgi_out_str(o, json ? "\", \"type\": \"tilelayer\", \"x\": 0, \"y\": 0, \"width\": " : "\" width=\"");
        dgi_out_i64(o, g->width);
        dgi_out_str(o, json ? ", \"height\": " : "\" height=\"");
        dgi_out_i64(o, g->height);
        if (json)
        {
            dgi_out_str(o, ", \"opacity\": 1, \"visible\": ");
            dgi_out_str(o, visible ? "true" : "false");
            dgi_out_str(o, ",\n     \"data\": [\n");
            art_csv(o, g, art);
            dgi_out_str(o, "]}");
        }
        else
        {
            dgi_out_str(o, "\" opacity=\"1\" visible=\"");
            dgi_out_str(o, visible ? "1" : "0");
            dgi_out_str(o, "\">\n  <data encoding=\"csv\">\n");
            art_csv(o, g, art);
            dgi_out_str(o, "</data>\n </layer>\n");
        }
    }
}
