/* PNG annotations of what a room is for and what stands in it, drawn from a
 * finished dg_result (dg_roles, dg_populate, a level graph): room roles as a
 * coloured outline, level-graph node names and role words in the rooms (in
 * the 3x5 font of overlay.h, from scale 4), spawns over their whole
 * footprint, and the legend entries for them. Only the tool includes this
 * file, after overlay.h. */
#ifndef DUNGEON_ROLES_OVERLAY_H
#define DUNGEON_ROLES_OVERLAY_H

#include "overlay.h"

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

/* One line of room text centred across the room at pixel row y. */
static void draw_room_line(image *im, const dg_rect *b, int32_t scale, int32_t y, const char *s,
                           int32_t size, uint32_t rgba)
{
    int32_t advance = 4 * size, room_w = b->w * scale;
    int32_t fit = (room_w - 2) / advance, n = (int32_t)strlen(s);
    n = n < fit ? n : fit;
    if (n <= 0)
        return;
    char cut[DG_NAME_MAX];
    n = n < DG_NAME_MAX - 1 ? n : DG_NAME_MAX - 1;
    memcpy(cut, s, (size_t)n);
    cut[n] = '\0';
    draw_outlined(im, b->x * scale + (room_w - (n * advance - size)) / 2, y, cut, size, rgba);
}

/* The level-graph node name (white) and, with roles, the role word (in its
 * colour) in the middle of each labelled room, at scale >= TEXT_MIN_SCALE;
 * the role goes when the room is too low for two lines. */
static void draw_room_names(image *im, const dg_result *r, int32_t scale, int roles)
{
    const dg_room_label *l = room_labels(r);
    if (!l || scale < TEXT_MIN_SCALE)
        return;
    int32_t size = scale >= 12 ? 2 : 1, line = 5 * size, gap = 2 * size;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_rect *b = &r->rooms[i].rect;
        const char *first = l[i].name[0] ? l[i].name : roles ? l[i].role : "";
        const char *second = l[i].name[0] && roles ? l[i].role : "";
        int32_t room_h = b->h * scale;
        if (!second[0] || room_h < 2 * line + gap + 2)
            second = "";
        int32_t lines = (first[0] != '\0') + (second[0] != '\0');
        int32_t y = b->y * scale + (room_h - (lines * line + (lines - 1) * gap)) / 2;
        if (first[0] && room_h >= line + 2)
            draw_room_line(im, b, scale, y, first, size,
                           first == l[i].name ? 0xFFFFFFFFu : role_color(first));
        if (second[0])
            draw_room_line(im, b, scale, y + line + gap, second, size, role_color(second));
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
