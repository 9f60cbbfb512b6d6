/* Rendering a grid to ASCII text and to RGBA pixels. No allocation, no I/O. */
#include "core/core.h"

static const char default_glyphs[DG_TILE_COUNT + 1] = " .,#+^<>&~LS";

static const uint32_t default_colors[DG_TILE_COUNT] = {
    0x141414FFu, /* void: near black */
    0xC8BEA0FFu, /* floor: sand */
    0x8C8270FFu, /* corridor: darker sand */
    0x4A5568FFu, /* wall: slate */
    0xB5651DFFu, /* door: wood */
    0xD03030FFu, /* trap: red */
    0x40C0F0FFu, /* stairs up: cyan */
    0x2060E0FFu, /* stairs down: blue */
    0x7A5C3CFFu, /* obstacle: brown */
    0x3070B0FFu, /* water: deep blue */
    0xE8B020FFu, /* locked door: gold */
    0x9050C0FFu, /* secret door: violet */
};

char dg_tile_glyph(uint8_t tile)
{
    return tile < DG_TILE_COUNT ? default_glyphs[tile] : '?';
}

uint32_t dg_tile_color(uint8_t tile)
{
    if (tile < DG_TILE_COUNT)
        return default_colors[tile];
    /* user and unknown tiles: a stable hue from the value, clearly not a library tile */
    uint32_t h = (uint32_t)dgi_hash64(tile);
    return (0x80u | (h & 0x7Fu)) << 24 | ((h >> 8) & 0xFFu) << 16 | (0x80u | ((h >> 16) & 0x7Fu)) << 8 | 0xFFu;
}

dg_status dg_render_ascii(const dg_grid *grid, const char *legend, char *out, size_t out_size,
                          size_t *written)
{
    dg_status st = dg_grid_check(grid);
    if (st != DG_OK)
        return st;
    if (!out)
        return DG_E_NULL;
    size_t need = ((size_t)grid->width + 1) * (size_t)grid->height + 1;
    if (out_size < need)
        return DG_E_BUFFER;
    char *p = out;
    for (int32_t y = 0; y < grid->height; y++)
    {
        for (int32_t x = 0; x < grid->width; x++)
        {
            uint8_t t = DG_CELL(grid, x, y);
            *p++ = legend ? legend[t] : dg_tile_glyph(t);
        }
        *p++ = '\n';
    }
    *p = '\0';
    if (written)
        *written = need - 1;
    return DG_OK;
}

dg_status dg_render_rgba(const dg_grid *grid, const uint32_t *palette, int32_t scale,
                         uint8_t *out, size_t out_size)
{
    dg_status st = dg_grid_check(grid);
    if (st != DG_OK)
        return st;
    if (!out)
        return DG_E_NULL;
    if (scale < 1 || scale > 64)
        return DG_E_INVALID;
    uint64_t need = (uint64_t)grid->width * (uint64_t)scale * (uint64_t)grid->height *
                    (uint64_t)scale * 4u;
    if (need > SIZE_MAX || out_size < need)
        return DG_E_BUFFER;
    size_t row_bytes = (size_t)grid->width * (size_t)scale * 4u;
    for (int32_t y = 0; y < grid->height; y++)
    {
        uint8_t *row = out + (size_t)y * (size_t)scale * row_bytes;
        for (int32_t x = 0; x < grid->width; x++)
        {
            uint8_t t = DG_CELL(grid, x, y);
            uint32_t c = palette ? palette[t] : dg_tile_color(t);
            uint8_t px[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
            for (int32_t s = 0; s < scale; s++)
                memcpy(row + ((size_t)x * (size_t)scale + (size_t)s) * 4u, px, 4);
        }
        for (int32_t s = 1; s < scale; s++)
            memcpy(row + (size_t)s * row_bytes, row, row_bytes);
    }
    return DG_OK;
}
