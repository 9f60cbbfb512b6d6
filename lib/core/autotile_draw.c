/* The library's own autotile art: tilesets drawn from two colours (a body and
 * its outline) for each kind of dg_autotile, and a whole map drawn with them
 * (walls with their shapes, doors in their frames, water with its shore).
 * Every pixel is opaque or fully transparent, so a renderer that blends the
 * same layers gives the same pixels. */
#include "core/core.h"

static void put_px(uint8_t *p, uint32_t c)
{
    p[0] = (uint8_t)(c >> 24), p[1] = (uint8_t)(c >> 16), p[2] = (uint8_t)(c >> 8), p[3] = (uint8_t)c;
}

/* Which of the 3 x 3 zones (0 west/north, 1 middle, 2 east/south) pixel p of
 * a tile of size t with inset i is in. */
static int zone(int32_t p, int32_t t, int32_t inset)
{
    return p < inset ? 0 : p >= t - inset ? 2 : 1;
}

/* 1 if pixel (x, y) of tile `index` of `kind` (size t) is part of the body. */
static int tile_inside(int32_t kind, int32_t index, int32_t t, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= t || y >= t)
        return 1; /* the next tile carries on: no outline along the tile's border */
    if (kind == DG_AUTOTILE_CORNER) /* quadrants: NE=1 SE=2 SW=4 NW=8 */
    {
        int east = 2 * x >= t, south = 2 * y >= t;
        int bit = south ? (east ? 2 : 4) : (east ? 1 : 8);
        return (index & bit) != 0;
    }
    int32_t mask = kind == DG_AUTOTILE_BLOB ? dg_autotile_blob_mask(index)
                                            : (index & 1) | (index & 2) << 1 | (index & 4) << 2 | (index & 8) << 3;
    /* zone -> mask bit: N=1 NE=2 E=4 SE=8 S=16 SW=32 W=64 NW=128, centre always */
    static const int32_t bits[3][3] = {{128, 1, 2}, {64, 0, 4}, {32, 16, 8}};
    int32_t b = bits[zone(y, t, t / 5)][zone(x, t, t / 5)];
    return b == 0 || (mask & b) != 0;
}

/* Draws tile `index` of `kind` at p (row length pitch bytes). */
static void draw_tile(int32_t kind, int32_t index, int32_t t, uint32_t fill, uint32_t edge,
                      uint8_t *p, size_t pitch)
{
    for (int32_t y = 0; y < t; y++)
        for (int32_t x = 0; x < t; x++)
        {
            uint8_t *q = p + (size_t)y * pitch + (size_t)x * 4u;
            if (!tile_inside(kind, index, t, x, y))
            {
                memset(q, 0, 4);
                continue;
            }
            int rim = t >= 6 && (!tile_inside(kind, index, t, x - 1, y) ||
                                 !tile_inside(kind, index, t, x + 1, y) ||
                                 !tile_inside(kind, index, t, x, y - 1) ||
                                 !tile_inside(kind, index, t, x, y + 1));
            put_px(q, rim ? edge : fill);
        }
}

static int32_t tiles_of(int32_t kind)
{
    return kind == DG_AUTOTILE_BLOB ? DG_AUTOTILE_BLOB_TILES : 16;
}

dg_status dg_autotile_tileset_rgba(int32_t kind, uint32_t fill, uint32_t edge, int32_t tile_size,
                                   uint8_t *out, size_t out_size, dg_diag *diag)
{
    if (!out)
        return dgi_fail(diag, DG_E_NULL, "autotile tileset: out is NULL");
    if (kind < DG_AUTOTILE_CARDINAL || kind > DG_AUTOTILE_CORNER)
        return dgi_fail(diag, DG_E_INVALID, "autotile tileset kind %d is not 0..2", (int)kind);
    if (tile_size < 1 || tile_size > 256)
        return dgi_fail(diag, DG_E_INVALID, "autotile tile size %d is not 1..256", (int)tile_size);
    int32_t rows = (tiles_of(kind) + DG_AUTOTILE_TILESET_COLUMNS - 1) / DG_AUTOTILE_TILESET_COLUMNS;
    size_t pitch = (size_t)DG_AUTOTILE_TILESET_COLUMNS * (size_t)tile_size * 4u;
    size_t need = pitch * (size_t)rows * (size_t)tile_size;
    if (out_size < need)
        return dgi_fail(diag, DG_E_BUFFER, "autotile tileset needs %llu bytes, out holds %llu",
                        (unsigned long long)need, (unsigned long long)out_size);
    memset(out, 0, need);
    for (int32_t i = 0; i < tiles_of(kind); i++)
        draw_tile(kind, i, tile_size, fill, edge,
                  out + (size_t)(i / DG_AUTOTILE_TILESET_COLUMNS) * (size_t)tile_size * pitch +
                      (size_t)(i % DG_AUTOTILE_TILESET_COLUMNS) * (size_t)tile_size * 4u,
                  pitch);
    dgi_diag_ok(diag);
    return DG_OK;
}

/* ---- the art tileset and a map drawn with it ------------------------------------- */
static uint32_t shade(uint32_t c, int lighter)
{
    uint32_t out = c & 0xFFu;
    for (int s = 8; s < 32; s += 8)
    {
        uint32_t v = c >> s & 0xFFu;
        v = lighter ? v + (255u - v) / 2u : v * 3u / 5u;
        out |= v << s;
    }
    return out;
}

static uint32_t colour(const uint32_t *palette, uint8_t tile)
{
    return palette ? palette[tile] : dg_tile_color(tile);
}

/* A door in its frame: the wall band of a wall running west-east (or north-
 * south) with the door's plank across the opening; plain: a door square. */
static void draw_door(const uint32_t *palette, uint8_t door, int32_t shape, int32_t t,
                      uint8_t *p, size_t pitch)
{
    uint32_t wall = colour(palette, DG_TILE_WALL), plank = colour(palette, door);
    int32_t inset = t / 5;
    if (shape < 2)
        draw_tile(DG_AUTOTILE_CARDINAL, shape == 0 ? 10 : 5, t, wall, shade(wall, 0), p, pitch);
    for (int32_t y = 0; y < t; y++)
        for (int32_t x = 0; x < t; x++)
        {
            int32_t along = shape == 1 ? y : x, across = shape == 1 ? x : y;
            int in = shape == 2 ? zone(x, t, inset) == 1 && zone(y, t, inset) == 1
                                : zone(along, t, inset + (t >= 10)) == 1 && zone(across, t, inset) == 1;
            if (in)
            {
                int rim = t >= 6 && (zone(x - 1 < 0 ? 0 : x - 1, t, inset) != zone(x, t, inset) ||
                                     zone(y - 1 < 0 ? 0 : y - 1, t, inset) != zone(y, t, inset));
                put_px(p + (size_t)y * pitch + (size_t)x * 4u, rim ? shade(plank, 0) : plank);
            }
        }
}

dg_status dg_art_tileset_rgba(const uint32_t *palette, int32_t tile_size, uint8_t *out,
                              size_t out_size, dg_diag *diag)
{
    if (!out)
        return dgi_fail(diag, DG_E_NULL, "art tileset: out is NULL");
    if (tile_size < 1 || tile_size > 256)
        return dgi_fail(diag, DG_E_INVALID, "art tile size %d is not 1..256", (int)tile_size);
    size_t pitch = (size_t)DG_ART_COLUMNS * (size_t)tile_size * 4u;
    size_t need = pitch * (size_t)DG_ART_ROWS * (size_t)tile_size;
    if (out_size < need)
        return dgi_fail(diag, DG_E_BUFFER, "art tileset needs %llu bytes, out holds %llu",
                        (unsigned long long)need, (unsigned long long)out_size);
    memset(out, 0, need);
    uint32_t wall = colour(palette, DG_TILE_WALL), water = colour(palette, DG_TILE_WATER);
    for (int32_t i = 0; i < DG_ART_TILES; i++)
    {
        uint8_t *p = out + (size_t)(i / DG_ART_COLUMNS) * (size_t)tile_size * pitch +
                     (size_t)(i % DG_ART_COLUMNS) * (size_t)tile_size * 4u;
        if (i < DG_ART_WALL + DG_AUTOTILE_BLOB_TILES)
            draw_tile(DG_AUTOTILE_BLOB, i - DG_ART_WALL, tile_size, wall, shade(wall, 0), p, pitch);
        else if (i >= DG_ART_WATER && i < DG_ART_WATER + DG_AUTOTILE_BLOB_TILES)
            draw_tile(DG_AUTOTILE_BLOB, i - DG_ART_WATER, tile_size, water, shade(water, 1), p, pitch);
        else if (i >= DG_ART_DOOR && i < DG_ART_DOOR + 3)
            draw_door(palette, DG_TILE_DOOR, i - DG_ART_DOOR, tile_size, p, pitch);
        else if (i >= DG_ART_LOCKED && i < DG_ART_LOCKED + 3)
            draw_door(palette, DG_TILE_DOOR_LOCKED, i - DG_ART_LOCKED, tile_size, p, pitch);
        else if (i >= DG_ART_CORNER && i < DG_ART_CORNER + 16)
            draw_tile(DG_AUTOTILE_CORNER, i - DG_ART_CORNER, tile_size, wall, shade(wall, 0), p, pitch);
        else if (i == DG_ART_ROCK)
            for (int32_t y = 0; y < tile_size; y++)
                for (int32_t x = 0; x < tile_size; x++)
                    put_px(p + (size_t)y * pitch + (size_t)x * 4u, colour(palette, DG_TILE_VOID));
    }
    dgi_diag_ok(diag);
    return DG_OK;
}

/* The ground under a cell in the art drawing: rock under walls, floor under
 * water and doors, the tile itself elsewhere. */
static uint8_t ground_of(uint8_t tile)
{
    if (tile == DG_TILE_WALL || tile == DG_TILE_DOOR_SECRET)
        return DG_TILE_VOID;
    if (tile == DG_TILE_WATER || tile == DG_TILE_DOOR || tile == DG_TILE_DOOR_LOCKED)
        return DG_TILE_FLOOR;
    return tile;
}

static int wall_like(uint8_t t)
{
    return t == DG_TILE_WALL || t == DG_TILE_DOOR_SECRET || t == DG_TILE_DOOR ||
           t == DG_TILE_DOOR_LOCKED; /* walls run on through doors */
}

/* The 8-bit neighbour mask (N=1 NE=2 ... NW=128) of the cells around (x, y)
 * that are water (water != 0) or like a wall; outside the grid is water for
 * water (it runs on past the edge) and rock for walls. */
static uint32_t around(const dg_grid *g, int32_t x, int32_t y, int water)
{
    static const int8_t dx[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
    uint32_t m = 0;
    for (int i = 0; i < 8; i++)
    {
        int32_t nx = x + dx[i], ny = y + dy[i];
        int in = nx >= 0 && ny >= 0 && nx < g->width && ny < g->height;
        uint8_t t = in ? DG_CELL(g, nx, ny) : DG_TILE_VOID;
        if (water ? (!in || t == DG_TILE_WATER) : wall_like(t))
            m |= 1u << i;
    }
    return m;
}

uint8_t dgi_art_at(const dg_grid *grid, int32_t x, int32_t y, uint8_t *ground)
{
    uint8_t t = DG_CELL(grid, x, y);
    *ground = ground_of(t);
    if (t == DG_TILE_WALL || t == DG_TILE_DOOR_SECRET)
        return (uint8_t)(DG_ART_WALL + dgi_blob_index(around(grid, x, y, 0)));
    if (t == DG_TILE_WATER)
        return (uint8_t)(DG_ART_WATER + dgi_blob_index(around(grid, x, y, 1)));
    if (t == DG_TILE_DOOR || t == DG_TILE_DOOR_LOCKED)
    {
        uint32_t m = around(grid, x, y, 0); /* sides N=1 E=4 S=16 W=64 */
        int32_t shape = (m & 0x44u) == 0x44u ? 0 : (m & 0x11u) == 0x11u ? 1 : 2;
        return (uint8_t)((t == DG_TILE_DOOR ? DG_ART_DOOR : DG_ART_LOCKED) + shape);
    }
    return DGI_ART_NONE;
}

/* Copies the opaque pixels of art tile `index` (tileset pitch tp) to p. */
static void blit(const uint8_t *set, int32_t index, int32_t t, uint8_t *p, size_t pitch)
{
    size_t tp = (size_t)DG_ART_COLUMNS * (size_t)t * 4u;
    const uint8_t *s = set + (size_t)(index / DG_ART_COLUMNS) * (size_t)t * tp +
                       (size_t)(index % DG_ART_COLUMNS) * (size_t)t * 4u;
    for (int32_t y = 0; y < t; y++)
        for (int32_t x = 0; x < t; x++)
            if (s[(size_t)y * tp + (size_t)x * 4u + 3u])
                memcpy(p + (size_t)y * pitch + (size_t)x * 4u, s + (size_t)y * tp + (size_t)x * 4u, 4);
}

dg_status dg_render_art_rgba(const dg_grid *grid, const uint32_t *palette, int32_t scale,
                             uint8_t *out, size_t out_size, const dg_allocator *allocator,
                             dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (!out)
        return dgi_fail(diag, DG_E_NULL, "art render: out is NULL");
    if (scale < 1 || scale > 64)
        return dgi_fail(diag, DG_E_INVALID, "art render scale %d is not 1..64", (int)scale);
    uint64_t need = (uint64_t)grid->width * (uint64_t)scale * (uint64_t)grid->height * (uint64_t)scale * 4u;
    if (need > SIZE_MAX || out_size < need)
        return dgi_fail(diag, DG_E_BUFFER, "art render needs %llu bytes", (unsigned long long)need);
    size_t set_size = (size_t)DG_ART_COLUMNS * (size_t)DG_ART_ROWS * (size_t)scale * (size_t)scale * 4u;
    uint8_t *set = dgi_alloc(allocator, set_size);
    if (!set)
        return dgi_fail(diag, DG_E_NOMEM, "art render: out of memory");
    st = dg_art_tileset_rgba(palette, scale, set, set_size, diag);
    size_t pitch = (size_t)grid->width * (size_t)scale * 4u;
    for (int32_t y = 0; st == DG_OK && y < grid->height; y++)
        for (int32_t x = 0; x < grid->width; x++)
        {
            uint8_t ground, a = dgi_art_at(grid, x, y, &ground);
            uint8_t *p = out + (size_t)y * (size_t)scale * pitch + (size_t)x * (size_t)scale * 4u;
            uint32_t c = colour(palette, ground);
            for (int32_t yy = 0; yy < scale; yy++)
                for (int32_t xx = 0; xx < scale; xx++)
                    put_px(p + (size_t)yy * pitch + (size_t)xx * 4u, c);
            if (a != DGI_ART_NONE)
                blit(set, a, scale, p, pitch);
        }
    dgi_free(allocator, set, set_size);
    if (st == DG_OK)
        dgi_diag_ok(diag);
    return st;
}
