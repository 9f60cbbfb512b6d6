/* The dungeon tool's PNG drawing of a finished result's room roles,
 * level-graph node names and spawns (examples/roles_overlay.h), on a
 * hand-made map: no generator of this library sets them on its own. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* the tool uses the rest */
#include "../examples/roles_overlay.h"
#pragma GCC diagnostic pop

enum { MAP_W = 16, MAP_H = 10 };

static uint32_t pixel(const image *im, int32_t x, int32_t y)
{
    const uint8_t *p = im->px + ((size_t)y * (size_t)im->w + (size_t)x) * 4u;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* White pixels (text) inside the pixel box. */
static int32_t white_in(const image *im, int32_t x0, int32_t y0, int32_t w, int32_t h)
{
    int32_t n = 0;
    for (int32_t y = y0; y < y0 + h; y++)
        for (int32_t x = x0; x < x0 + w; x++)
            n += pixel(im, x, y) == 0xFFFFFFFFu;
    return n;
}

/* A floor map with room 0 (1,1 8x5) the boss's "crypt", room 1 unlabelled
 * in role, and a 2x2 monster at (10, 6). Draws it at scale into *im. */
static void draw_sample(image *im, int32_t scale, int markers)
{
    static uint8_t cells[MAP_W * MAP_H];
    dg_grid g;
    dg_grid_init(&g, cells, MAP_W, MAP_H, 0);
    memset(cells, DG_TILE_FLOOR, sizeof cells);
    dg_room rooms[2] = {{.rect = {1, 1, 8, 5}, .parent = -1, .prefab = -1, .cells = 40},
                        {.rect = {11, 1, 4, 4}, .parent = -1, .prefab = -1, .cells = 16}};
    dg_room_label labels[2] = {{"boss", "crypt", 0}, {"", "well", 1}};
    dg_marker markers_[1] = {{.pos = {10, 6}, .kind = DG_MARKER_ACTOR, .room = -1, .name = "ogre",
                              .number = 1, .size = 2, .cost = 5, .type = "monster"}};
    dg_result r;
    dg_result_init(&r, NULL);
    r.rooms = rooms, r.room_count = 2;
    r.labels = labels, r.label_count = 2;
    r.markers = markers_, r.marker_count = 1;
    im->w = MAP_W * scale, im->h = MAP_H * scale;
    size_t size = (size_t)im->w * (size_t)im->h * 4u;
    im->px = malloc(size);
    CHECK(im->px && dg_render_rgba(&g, NULL, scale, im->px, size) == DG_OK);
    if (!im->px)
        return;
    draw_markers(im, &r, scale);
    draw_room_content(im, &r, scale, markers);
    if (markers) /* the legend names the role and the spawn kind word */
    {
        legend_entry e[4];
        CHECK(content_legend_entries(&r, 1, e) == 2);
        CHECK(strcmp(e[0].name, "boss room") == 0 && e[0].dot == LEGEND_FRAME);
        CHECK(strcmp(e[1].name, "monster") == 0 && e[1].color == marker_color(DG_MARKER_ACTOR));
    }
}

TEST(tool_png_roles_names_spawns)
{
    const uint32_t floor = dg_tile_color(DG_TILE_FLOOR);
    image im;
    draw_sample(&im, 8, 1);
    if (!im.px)
        return;
    /* the boss room framed in its colour, the unlabelled one not */
    CHECK(pixel(&im, 8, 8) == role_color("boss") && pixel(&im, 8 * 9 - 1, 8 * 6 - 1) == role_color("boss"));
    CHECK(pixel(&im, 8 * 11, 8) == floor);
    /* the 2x2 monster covers its footprint, not only its first cell */
    CHECK(pixel(&im, 8 * 11 + 4, 8 * 7 + 4) == marker_color(DG_MARKER_ACTOR));
    CHECK(pixel(&im, 8 * 12 + 1, 8 * 7 + 1) == floor);
    /* names in white in both rooms */
    CHECK(white_in(&im, 8, 8, 64, 40) > 10 && white_in(&im, 88, 8, 32, 32) > 10);
    free(im.px);
    /* without markers: names, no frames, no footprints */
    draw_sample(&im, 8, 0);
    if (!im.px)
        return;
    CHECK(pixel(&im, 8, 8) == floor && pixel(&im, 8 * 11 + 4, 8 * 7 + 4) != marker_color(DG_MARKER_ACTOR));
    CHECK(white_in(&im, 8, 8, 64, 40) > 10);
    free(im.px);
    /* below scale 4 no text */
    draw_sample(&im, 3, 1);
    if (!im.px)
        return;
    CHECK(white_in(&im, 3, 3, 24, 15) == 0 && pixel(&im, 3, 3) == role_color("boss"));
    free(im.px);
}

/* Words too wide for a room lose their vowels, then their tail. */
TEST(tool_png_label_fit_word)
{
    static const struct { const char *word; int32_t n; const char *fitted; } cases[] = {
        {"shrine", 6, "shrine"}, {"shrine", 4, "shrn"},  {"treasure", 4, "trsr"},
        {"treasure", 3, "tr."},  {"n_key", 4, "n_ky"},   {"boss", 1, "b"},
        {"boss", 0, ""},         {"reliquary", 5, "rlqry"}, {"", 3, ""},
        {"w_key", 3, "w."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        char out[DG_NAME_MAX];
        fit_word(cases[i].word, cases[i].n, out);
        CHECK(strcmp(out, cases[i].fitted) == 0);
    }
    char lines[4][DG_NAME_MAX];
    int32_t first_lines;
    /* a name with a word break on two lines when a row is left for the role */
    CHECK(room_text_lines("stair_down", "key", 3, 4, lines, &first_lines) == 3);
    CHECK(first_lines == 2 && strcmp(lines[0], "str") == 0 && strcmp(lines[1], "down") == 0 &&
          strcmp(lines[2], "key") == 0);
    CHECK(room_text_lines("stair_down", "key", 2, 4, lines, &first_lines) == 2);
    CHECK(first_lines == 1 && strcmp(lines[0], "sta.") == 0 && strcmp(lines[1], "key") == 0);
    CHECK(room_text_lines("stair_down", "key", 1, 4, lines, &first_lines) == 1 && first_lines == 1);
}

/* The text of a room of any size stays inside it, clear of its frame. */
TEST(tool_png_label_inside_room)
{
    enum { SCALE = 8, SIDE = 10 };
    static uint8_t px[SIDE * SCALE * SIDE * SCALE * 4];
    dg_room_label label = {"treasure", "reliquary_of_bones", 0};
    for (int32_t w = 1; w <= 8; w++)
        for (int32_t h = 1; h <= 8; h++)
        {
            image im = {px, SIDE * SCALE, SIDE * SCALE};
            memset(px, 0x80, sizeof px);
            dg_room room = {.rect = {1, 1, w, h}, .parent = -1, .prefab = -1, .cells = w * h};
            dg_result r;
            dg_result_init(&r, NULL);
            r.rooms = &room, r.room_count = 1;
            r.labels = &label, r.label_count = 1;
            draw_room_content(&im, &r, SCALE, 1);
            int32_t m = text_margin(SCALE), text = 0, outside = 0;
            for (int32_t y = 0; y < im.h; y++)
                for (int32_t x = 0; x < im.w; x++)
                {
                    uint32_t c = pixel(&im, x, y);
                    int inside = x >= SCALE + m && x < SCALE * (1 + w) - m && y >= SCALE + m &&
                                 y < SCALE * (1 + h) - m;
                    int is_text = c == 0xFFFFFFFFu || c == 0x000000FFu;
                    text += is_text;
                    outside += is_text && !inside;
                }
            CHECK(outside == 0);
            CHECK(text > 0 || w < 2 || h < 2); /* something is written where it fits */
        }
}
