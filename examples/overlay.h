/* PNG annotations for the dungeon tool: grid lines, room numbers, markers and a
 * legend strip, drawn over the RGBA pixels of dg_render_rgba with a tiny
 * built-in 3x5 font (no font dependency). Only the tool includes this file. */
#ifndef DUNGEON_OVERLAY_H
#define DUNGEON_OVERLAY_H

#include <dungeon.h>

#include <string.h>

/* An RGBA8 image being annotated. */
typedef struct image {
    uint8_t *px;
    int32_t w, h;
} image;

/* 3x5 glyphs, five rows of three bits (left bit first), for 0-9 a-z and a few signs. */
static uint16_t glyph_bits(char c)
{
    static const uint16_t digits[10] = {
        0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7292, 0x7BEF, 0x7BCF,
    };
    static const uint16_t letters[26] = {
        0x2BED, 0x6BAE, 0x3923, 0x6B6E, 0x79A7, 0x79A4, 0x396B, 0x5BED, 0x7497, 0x126A,
        0x5BAD, 0x4927, 0x5FED, 0x6B6D, 0x2B6A, 0x6BA4, 0x2B73, 0x6BAD, 0x388E, 0x7492,
        0x5B6F, 0x5B6A, 0x5BFD, 0x5AAD, 0x5A92, 0x72A7,
    };
    if (c >= '0' && c <= '9')
        return digits[c - '0'];
    if (c >= 'a' && c <= 'z')
        return letters[c - 'a'];
    if (c >= 'A' && c <= 'Z')
        return letters[c - 'A'];
    if (c == '_' || c == '.')
        return c == '_' ? 0x0007 : 0x0002;
    if (c == '-')
        return 0x01C0;
    return 0;
}

static void put_px(image *im, int32_t x, int32_t y, uint32_t rgba)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h)
        return;
    uint8_t *p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4u;
    p[0] = (uint8_t)(rgba >> 24);
    p[1] = (uint8_t)(rgba >> 16);
    p[2] = (uint8_t)(rgba >> 8);
    p[3] = (uint8_t)rgba;
}

static void fill_box(image *im, int32_t x0, int32_t y0, int32_t w, int32_t h, uint32_t rgba)
{
    for (int32_t y = y0; y < y0 + h; y++)
        for (int32_t x = x0; x < x0 + w; x++)
            put_px(im, x, y, rgba);
}

/* Text with its top-left at (x, y), each font pixel a size x size box; returns the width. */
static int32_t draw_text(image *im, int32_t x, int32_t y, const char *s, int32_t size,
                         uint32_t rgba)
{
    int32_t x0 = x;
    for (; *s; s++, x += 4 * size)
    {
        uint16_t bits = glyph_bits(*s);
        for (int32_t row = 0; row < 5; row++)
            for (int32_t col = 0; col < 3; col++)
                if (bits >> (14 - row * 3 - col) & 1u)
                    fill_box(im, x + col * size, y + row * size, size, size, rgba);
    }
    return x - x0;
}

/* Text in colour with a one-pixel dark outline so it reads on any tile. */
static void draw_outlined(image *im, int32_t x, int32_t y, const char *s, int32_t size, uint32_t rgba)
{
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++)
            if (dx || dy)
                draw_text(im, x + dx, y + dy, s, size, 0x000000FFu);
    draw_text(im, x, y, s, size, rgba);
}

static void draw_label(image *im, int32_t x, int32_t y, const char *s, int32_t size)
{
    draw_outlined(im, x, y, s, size, 0xFFFFFFFFu);
}

/* One-pixel lines between cells, darkening what is under them. */
static void draw_grid_lines(image *im, int32_t map_h, int32_t scale)
{
    for (int32_t y = 0; y < map_h; y++)
        for (int32_t x = 0; x < im->w; x++)
            if (x % scale == 0 || y % scale == 0)
            {
                uint8_t *p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4u;
                for (int k = 0; k < 3; k++)
                    p[k] = (uint8_t)(p[k] * 3 / 4);
            }
}

static void draw_room_numbers(image *im, const dg_result *r, int32_t scale)
{
    int32_t size = scale >= 12 ? 2 : 1;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        char num[16];
        snprintf(num, sizeof num, "%d", (int)i);
        draw_label(im, r->rooms[i].rect.x * scale + 2, r->rooms[i].rect.y * scale + 2, num, size);
    }
}

/* Colour of a marker dot by kind; start and exit have their own. */
static uint32_t marker_color(int32_t kind)
{
    switch (kind)
    {
    case DG_MARKER_ACTOR: return 0xE03C3CFFu;
    case DG_MARKER_ITEM: return 0xF0C800FFu;
    case DG_MARKER_TRAP: return 0xA040E0FFu;
    case DG_MARKER_SPAWN: return 0xFF8C00FFu;
    case DG_MARKER_START: return 0x20D040FFu;
    case DG_MARKER_EXIT: return 0xFF40C0FFu;
    case DG_MARKER_KEY: return 0xFFF070FFu;
    case DG_MARKER_LOCK: return 0xE8B020FFu;
    case DG_MARKER_STAIRS_UP: return 0x60C8FFFFu;
    case DG_MARKER_STAIRS_DOWN: return 0x2848FFFFu;
    default: return 0xFFFFFFFFu;
    }
}

/* A dot with a dark rim in the middle of cell p. */
static void draw_dot(image *im, dg_point p, int32_t scale, uint32_t rgba)
{
    int32_t d = scale >= 4 ? scale / 2 : scale, x = p.x * scale + (scale - d) / 2;
    int32_t y = p.y * scale + (scale - d) / 2;
    if (d >= 3)
        fill_box(im, x - 1, y - 1, d + 2, d + 2, 0x000000FFu);
    fill_box(im, x, y, d, d, rgba);
}

/* 5x7 digits for the lock and key numbers: seven rows of five bits, left bit
 * first (the 3x5 font is too small to read at any scale). */
static const uint8_t digits_5x7[10][7] = {
    {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
    {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
    {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
    {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},
};

/* Decimal digits of s with their top-left at (x, y), each font pixel a
 * size x size box; other characters end the number. */
static void draw_digits(image *im, int32_t x, int32_t y, const char *s, int32_t size, uint32_t rgba)
{
    for (; *s >= '0' && *s <= '9'; s++, x += 6 * size)
        for (int32_t row = 0; row < 7; row++)
            for (int32_t col = 0; col < 5; col++)
                if (digits_5x7[*s - '0'][row] >> (4 - col) & 1u)
                    fill_box(im, x + col * size, y + row * size, size, size, rgba);
}

/* Keys and locks carry their number ("key 2", "lock 2") right of the dot,
 * in 5x7 digits one cell high that grow with the scale (a font pixel per
 * 7 pixels of cell, at least 1), white with a dark outline. */
static void draw_lock_number(image *im, const dg_marker *m, int32_t scale)
{
    const char *space = strchr(m->name, ' ');
    if (scale < 6 || !space || (m->kind != DG_MARKER_KEY && m->kind != DG_MARKER_LOCK))
        return;
    int32_t size = scale / 7 > 1 ? scale / 7 : 1;
    int32_t x = m->pos.x * scale + scale, y = m->pos.y * scale + (scale - 7 * size) / 2;
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++)
            if (dx || dy)
                draw_digits(im, x + dx, y + dy, space + 1, size, 0x000000FFu);
    draw_digits(im, x, y, space + 1, size, 0xFFFFFFFFu);
}

static void draw_markers(image *im, const dg_result *r, int32_t scale)
{
    for (int32_t i = 0; i < r->marker_count; i++)
        draw_dot(im, r->markers[i].pos, scale, marker_color(r->markers[i].kind));
    for (int32_t i = 0; i < r->marker_count; i++)
        draw_lock_number(im, &r->markers[i], scale);
    if (r->start.x >= 0)
        draw_dot(im, r->start, scale, marker_color(DG_MARKER_START));
    if (r->exit.x >= 0)
        draw_dot(im, r->exit, scale, marker_color(DG_MARKER_EXIT));
}

#define LEGEND_ROW 14 /* pixels per legend line */

#define LEGEND_FRAME 2 /* legend_entry.dot: a room role's frame */

typedef struct legend_entry {
    const char *name;
    uint32_t color;
    int dot; /* 1: a marker dot, 0: a tile swatch, LEGEND_FRAME: a frame */
} legend_entry;

/* Entries for the tiles present in the grid (and markers if shown). */
static int32_t legend_entries(const dg_grid *g, const dg_result *r, int markers,
                              legend_entry *out)
{
    uint8_t used[256] = {0};
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            used[dg_grid_get(g, x, y)] = 1;
    for (int t = 0; t < 256; t++)
        if (used[t])
            out[n++] = (legend_entry){dg_tile_name((uint8_t)t), dg_tile_color((uint8_t)t), 0};
    if (markers && r)
    {
        static const char *const names[] = {"marker", "actor", "item", "trap", "spawn",
                                            "start",  "exit",  "key",  "lock",
                                            "stairs up", "stairs down"};
        out[n++] = (legend_entry){"start", marker_color(DG_MARKER_START), 1};
        out[n++] = (legend_entry){"exit", marker_color(DG_MARKER_EXIT), 1};
        uint8_t kinds[11] = {0};
        for (int32_t i = 0; i < r->marker_count; i++) /* spawns go by their kind word */
            if (!r->markers[i].type[0])
                kinds[r->markers[i].kind >= 0 && r->markers[i].kind < 11 ? r->markers[i].kind : 0] = 1;
        for (int k = 0; k < 11; k++)
            if (kinds[k] && k != DG_MARKER_START && k != DG_MARKER_EXIT)
                out[n++] = (legend_entry){names[k], marker_color(k), 1};
    }
    return n;
}

/* Lays the entries out in rows of the image width; returns the rows needed. */
static int32_t legend_layout(const legend_entry *e, int32_t n, int32_t width, int32_t *xs, int32_t *rows)
{
    int32_t x = 4, row = 0;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t w = 14 + 4 * (int32_t)strlen(e[i].name) + 10;
        if (x > 4 && x + w > width)
        {
            x = 4;
            row++;
        }
        xs[i] = x;
        rows[i] = row;
        x += w;
    }
    return n ? row + 1 : 0;
}

static void draw_legend(image *im, int32_t top, const legend_entry *e, int32_t n,
                        const int32_t *xs, const int32_t *rows)
{
    fill_box(im, 0, top, im->w, im->h - top, 0x202020FFu);
    for (int32_t i = 0; i < n; i++)
    {
        int32_t x = xs[i], y = top + 3 + rows[i] * LEGEND_ROW;
        fill_box(im, x, y, 10, 9, e[i].dot ? 0x202020FFu : 0x000000FFu);
        if (e[i].dot == LEGEND_FRAME)
        {
            fill_box(im, x, y, 10, 9, e[i].color);
            fill_box(im, x + 2, y + 2, 6, 5, 0x202020FFu);
        }
        else
            fill_box(im, x + (e[i].dot ? 2 : 1), y + (e[i].dot ? 2 : 1), e[i].dot ? 6 : 8,
                     e[i].dot ? 5 : 7, e[i].color);
        draw_text(im, x + 14, y + 2, e[i].name, 1, 0xE0E0E0FFu);
    }
}

#endif
