/* PNG annotations of what a room is for and what stands in it, drawn from a
 * finished dg_result (dg_roles, dg_populate, a level graph): room roles as a
 * coloured outline, level-graph node names and role words in the rooms (in
 * the 3x5 font of overlay.h, from scale 4), spawns over their whole
 * footprint, and the legend entries for them. Only the tool includes this
 * file, after overlay.h. */
#ifndef DUNGEON_ROLES_OVERLAY_H
#define DUNGEON_ROLES_OVERLAY_H

#include "overlay.h"

#include <stdlib.h>

#define ROLE_LEGEND_MAX 16  /* distinct role words listed in the legend */
#define SPAWN_LEGEND_MAX 16 /* distinct spawn kind words listed in the legend */
#define TEXT_MIN_SCALE 4    /* names and role words need 5 pixels of font */

/* The labels of the rooms, or NULL: valid when there is one per room. */
static const dg_room_label *room_labels(const dg_result *r)
{
    return r && r->labels && r->label_count == r->room_count ? r->labels : NULL;
}

/* A role's colour: the built-in roles their own (start and exit as their
 * marker dots), a game's own word one of six by a hash of its letters. */
static uint32_t role_color(const char *role)
{
    static const struct { const char *role; uint32_t color; } known[] = {
        {"start", 0x20D040FFu}, {"exit", 0xFF40C0FFu},     {"boss", 0xFF2020FFu},
        {"treasure", 0xFFD700FFu}, {"shop", 0x30D0D0FFu}, {"secret", 0x9050FFFFu},
        {"hub", 0x4088FFFFu},    {"key", 0xFFF070FFu},
    };
    static const uint32_t others[6] = {0xFF8C40FFu, 0x80FF80FFu, 0xC080FFFFu,
                                       0x80E0FFFFu, 0xFFA0C0FFu, 0xC0C040FFu};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(role, known[i].role) == 0)
            return known[i].color;
    uint32_t h = 2166136261u;
    for (const char *c = role; *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    return others[h % 6u];
}

/* A frame of the given thickness just inside the pixel box (x, y, w, h). */
static void draw_frame(image *im, int32_t x, int32_t y, int32_t w, int32_t h, int32_t t,
                       uint32_t rgba)
{
    fill_box(im, x, y, w, t, rgba);
    fill_box(im, x, y + h - t, w, t, rgba);
    fill_box(im, x, y, t, h, rgba);
    fill_box(im, x + w - t, y, t, h, rgba);
}

/* Each room with a role framed in the role's colour over its rect. */
static void draw_role_frames(image *im, const dg_result *r, int32_t scale)
{
    const dg_room_label *l = room_labels(r);
    int32_t t = scale >= 8 ? 2 : 1;
    for (int32_t i = 0; l && i < r->room_count; i++)
    {
        const dg_rect *b = &r->rooms[i].rect;
        if (l[i].role[0])
            draw_frame(im, b->x * scale, b->y * scale, b->w * scale, b->h * scale, t,
                       role_color(l[i].role));
    }
}

/* The length of a label word, at most DG_NAME_MAX - 1. */
static int32_t word_length(const char *s)
{
    int32_t n = 0;
    while (n < DG_NAME_MAX - 1 && s[n])
        n++;
    return n;
}

/* Whether c separates the words of a name ("n_key", "big-hall"). */
static int is_word_break(char c)
{
    return c == '_' || c == '-' || c == ' ' || c == '.';
}

/* s in at most n characters into out (DG_NAME_MAX bytes): as it is when it
 * fits, else without the vowels after each word's first letter ("shrine"
 * -> "shrn"), else its first n - 1 characters (less a word break at the end) and
 * a '.' ("treas."); "" when n < 1. */
static void fit_word(const char *s, int32_t n, char *out)
{
    int32_t len = word_length(s), k = 0;
    for (int32_t i = 0; i < len; i++)
        if (i == 0 || is_word_break(s[i - 1]) || !strchr("aeiouAEIOU", s[i]))
            out[k++] = s[i];
    if (len <= n)
        memcpy(out, s, (size_t)(k = len));
    else if (k > n)
    {
        k = n > 1 ? n - 1 : n < 1 ? 0 : 1;
        while (k > 1 && is_word_break(s[k - 1])) /* "w." rather than "w_." */
            k--;
        memcpy(out, s, (size_t)k);
        if (n > 1)
            out[k++] = '.';
    }
    out[k] = '\0';
}

/* The word break of s nearest its middle (never its first or last
 * character), or -1 when it has none. */
static int32_t word_break_at(const char *s)
{
    int32_t len = word_length(s), best = -1;
    for (int32_t i = 1; i + 1 < len; i++)
        if (is_word_break(s[i]) && (best < 0 || abs(2 * i - len) < abs(2 * best - len)))
            best = i;
    return best;
}

/* The pixels kept clear inside each side of a room for its text: the role
 * frame's thickness and the text's one-pixel outline. */
static int32_t text_margin(int32_t scale)
{
    return (scale >= 8 ? 2 : 1) + 1;
}

/* How many characters of the font at size fit across the room at scale. */
static int32_t chars_across(const dg_rect *b, int32_t scale, int32_t size)
{
    return (b->w * scale - 2 * text_margin(scale) + size) / (4 * size);
}

/* How many lines of the font at size fit down the room at scale. */
static int32_t lines_down(const dg_rect *b, int32_t scale, int32_t size)
{
    return (b->h * scale - 2 * text_margin(scale) + 2 * size) / (7 * size);
}

/* The text of a room as at most 4 lines into lines (DG_NAME_MAX each), at
 * most rows of them, across characters each: the first word, then the
 * second; a word too wide goes on two lines split at its word break while
 * a row is left for the other, else is shortened by fit_word. Returns the
 * line count; *first_lines is how many are the first word's. */
static int32_t room_text_lines(const char *first, const char *second, int32_t rows,
                               int32_t across, char lines[4][DG_NAME_MAX], int32_t *first_lines)
{
    const char *words[2] = {first, second};
    int32_t n = 0;
    *first_lines = 0;
    for (int32_t k = 0; k < 2; k++)
    {
        int32_t others = k == 0 && second[0], at = word_break_at(words[k]);
        if (!words[k][0] || n >= rows)
            continue;
        if (word_length(words[k]) > across && at > 0 && n + 2 + others <= rows)
        {
            char half[DG_NAME_MAX];
            memcpy(half, words[k], (size_t)at);
            half[at] = '\0';
            fit_word(half, across, lines[n++]);
            fit_word(words[k] + at + 1, across, lines[n++]);
        }
        else
            fit_word(words[k], across, lines[n++]);
        if (k == 0)
            *first_lines = n;
    }
    return n;
}

/* The level-graph node name (white) and, with roles, the role word (in its
 * colour) in the middle of each labelled room, at scale >= TEXT_MIN_SCALE,
 * inside its frame (room_text_lines); the role goes when the room is too
 * low for two lines. */
static void draw_room_names(image *im, const dg_result *r, int32_t scale, int roles)
{
    const dg_room_label *l = room_labels(r);
    if (!l || scale < TEXT_MIN_SCALE)
        return;
    int32_t size = scale >= 12 ? 2 : 1, line = 5 * size, gap = 2 * size, advance = 4 * size;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_rect *b = &r->rooms[i].rect;
        const char *first = l[i].name[0] ? l[i].name : roles ? l[i].role : "";
        const char *second = l[i].name[0] && roles ? l[i].role : "";
        char lines[4][DG_NAME_MAX];
        int32_t first_lines;
        int32_t n = room_text_lines(first, second, lines_down(b, scale, size),
                                    chars_across(b, scale, size), lines, &first_lines);
        int32_t y = b->y * scale + (b->h * scale - (n * line + (n - 1) * gap)) / 2;
        uint32_t first_color = first == l[i].name ? 0xFFFFFFFFu : role_color(first);
        for (int32_t k = 0; k < n; k++)
        {
            int32_t w = (int32_t)strlen(lines[k]) * advance - size;
            if (lines[k][0])
                draw_outlined(im, b->x * scale + (b->w * scale - w) / 2, y + k * (line + gap),
                              lines[k], size, k < first_lines ? first_color : role_color(second));
        }
    }
}

/* Spawns (markers with a kind word) wider than a cell: a square over the
 * whole footprint in the marker kind's colour with a dark rim; one-cell
 * spawns (and sizes beyond DG_CREATURE_SIZE_MAX) keep their dot. */
static void draw_spawn_footprints(image *im, const dg_result *r, int32_t scale)
{
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        if (!m->type[0] || m->size <= 1 || m->size > DG_CREATURE_SIZE_MAX)
            continue;
        int32_t side = m->size * scale, inset = scale >= 4 ? scale / 4 : 0;
        int32_t x = m->pos.x * scale + inset, y = m->pos.y * scale + inset, d = side - 2 * inset;
        if (d >= 3)
            fill_box(im, x - 1, y - 1, d + 2, d + 2, 0x000000FFu);
        fill_box(im, x, y, d, d, marker_color(m->kind));
    }
}

/* Everything above for a finished result: frames and footprints with
 * markers shown, names always (a level graph's rooms are its nodes). */
static void draw_room_content(image *im, const dg_result *r, int32_t scale, int markers)
{
    if (!r)
        return;
    if (markers)
    {
        draw_role_frames(im, r, scale);
        draw_spawn_footprints(im, r, scale);
    }
    draw_room_names(im, r, scale, markers);
}

/* Whether word is among the first n entries' names. */
static int legend_has(const legend_entry *e, int32_t n, const char *word)
{
    for (int32_t i = 0; i < n; i++)
        if (strcmp(e[i].name, word) == 0)
            return 1;
    return 0;
}

/* Legend entries, with markers shown: each role ("boss room", a frame in
 * its colour) and each spawn kind word (a dot in its marker kind's colour),
 * in the order they first appear, at most ROLE_LEGEND_MAX and
 * SPAWN_LEGEND_MAX. The role names live in a static buffer (one legend at
 * a time). */
static int32_t content_legend_entries(const dg_result *r, int markers, legend_entry *out)
{
    static char role_names[ROLE_LEGEND_MAX][DG_NAME_MAX + 8];
    const dg_room_label *l = room_labels(r);
    int32_t n = 0, roles = 0, spawns = 0;
    if (!markers || !r)
        return 0;
    for (int32_t i = 0; l && i < r->room_count && roles < ROLE_LEGEND_MAX; i++)
    {
        char *name = role_names[roles];
        (void)snprintf(name, sizeof role_names[0], "%.*s room", DG_NAME_MAX - 1, l[i].role);
        if (l[i].role[0] && !legend_has(out, n, name))
        {
            out[n++] = (legend_entry){name, role_color(l[i].role), LEGEND_FRAME};
            roles++;
        }
    }
    for (int32_t i = 0; i < r->marker_count && spawns < SPAWN_LEGEND_MAX; i++)
    {
        const dg_marker *m = &r->markers[i];
        if (m->type[0] && !legend_has(out + roles, n - roles, m->type))
        {
            out[n++] = (legend_entry){m->type, marker_color(m->kind), 1};
            spawns++;
        }
    }
    return n;
}

#endif
