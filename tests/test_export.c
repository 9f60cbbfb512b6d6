/* Exports: JSON, Tiled .tmj and .tmx. Golden bytes of a hand-made map pin the
 * formats; structure and counts are checked for every generator's output (the
 * full parse of the files is done by tests/python.sh with real parsers, and by
 * Tiled itself where it is installed). */
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* tests/test_recipe.c: the sample prefab set and size of a generator. */
dg_prefab_set *recipe_sample_set(const char *generator, int32_t *width, int32_t *height);

typedef struct sink {
    char *data;
    size_t len, cap;
    size_t calls, max_chunk;
} sink;

static void sink_write(void *user, const char *data, size_t len)
{
    sink *s = user;
    if (s->len + len + 1 > s->cap)
    {
        s->cap = (s->len + len + 1) * 2;
        s->data = realloc(s->data, s->cap);
    }
    memcpy(s->data + s->len, data, len);
    s->len += len;
    s->data[s->len] = '\0';
    s->calls++;
    if (len > s->max_chunk)
        s->max_chunk = len;
}

/* fnv of the text with the library version and the recipe's output series
 * left out, so a new version number alone does not change the pins. */
static uint64_t fnv_without_version(const char *s, size_t n)
{
    char series[32];
    snprintf(series, sizeof series, "version=%d.%d", DG_VERSION_MAJOR, DG_VERSION_MINOR);
    const char *skip[2] = {dg_version(), series};
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
    {
        int skipped = 0;
        for (int k = 0; k < 2 && !skipped; k++)
        {
            size_t vn = strlen(skip[k]);
            if (n - i >= vn && memcmp(s + i, skip[k], vn) == 0)
            {
                i += vn - 1;
                skipped = 1;
            }
        }
        if (!skipped)
            h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    }
    return h;
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A small fixed map using every kind of output, so goldens never move with a generator. */
static uint8_t fixed_cells[12 * 8];
static void fixed_map(dg_grid *g, dg_result *r)
{
    static const char rows[8][13] = {
        "############", "#....#,,,,.#", "#..<.+,##,.#", "#....#,##,.#",
        "######,##+##", "#  ~ #,,,..>", "# &  #######", "############",
    };
    const char *glyphs = " .,#+^<>&~LS";
    dg_grid_init(g, fixed_cells, 12, 8, 0);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 12; x++)
            fixed_cells[y * 12 + x] = (uint8_t)(strchr(glyphs, rows[y][x]) - glyphs);
    fixed_cells[6 * 12 + 3] = 200; /* a user tile */
    dg_result_init(r, NULL);
    dg_result_free(r);
    static dg_room rooms[2] = {{{1, 1, 4, 3}, DG_ROOM_NORMAL, -1, 0, -1, 12, DG_SHAPE_RECT},
                               {{10, 1, 1, 3}, DG_ROOM_PREFAB, 2, 1, 0, 3, DG_SHAPE_RECT}};
    static dg_corridor corridors[1] = {{{6, 1}, {9, 1}, {9, 3}, 6, {DG_REF_ROOM, 0}, {DG_REF_ROOM, 1}}};
    static dg_door doors[2] = {{{5, 2}, {DG_REF_ROOM, 0}, {DG_REF_CORRIDOR, 0}},
                               {{9, 4}, {DG_REF_CORRIDOR, 0}, {DG_REF_NONE, -1}}};
    static dg_marker markers[2] = {
        {.pos = {2, 2}, .kind = DG_MARKER_ACTOR, .room = 0, .name = "orc \"chief\" <&>"},
        {.pos = {10, 2}, .kind = DG_MARKER_ITEM, .room = 1, .name = "caf\xc3\xa9 \xff"}};
    r->rooms = rooms;
    r->room_count = 2;
    r->corridors = corridors;
    r->corridor_count = 1;
    r->doors = doors;
    r->door_count = 2;
    r->markers = markers;
    r->marker_count = 2;
    r->start.x = 2, r->start.y = 1, r->start_room = 0;
    r->exit.x = 11, r->exit.y = 5, r->exit_room = -1;
    r->metrics.cells = 96;
    r->metrics.rooms = 2;
}

/* The export with options o through the callback, checked against the buffer form. */
static char *export_with(const dg_grid *g, const dg_result *r, const dg_export_options *opt,
                         size_t *len)
{
    const dg_export_options o = *opt;
    sink s = {NULL, 0, 0, 0, 0};
    dg_status st = dg_export(g, r, &o, sink_write, &s, NULL);
    CHECKF(st == DG_OK, "format %d: %s", (int)o.format, dg_status_str(st));
    /* the buffer form gives the same bytes */
    size_t need = 0;
    CHECK(dg_export_buffer(g, r, &o, NULL, 0, &need, NULL) == DG_OK && need == s.len);
    char *buf = malloc(need + 1);
    size_t written = 0;
    CHECK(dg_export_buffer(g, r, &o, buf, need + 1, &written, NULL) == DG_OK);
    CHECK(written == need && s.data && memcmp(buf, s.data, need) == 0 && buf[need] == '\0');
    CHECK(s.max_chunk <= 4096);
    free(buf);
    *len = s.len;
    return s.data;
}

static char *export_to(const dg_grid *g, const dg_result *r, int32_t format, const dg_recipe *rc,
                       size_t *len)
{
    dg_export_options o;
    dg_export_defaults(&o);
    o.format = format;
    o.recipe = rc;
    return export_with(g, r, &o, len);
}

TEST(export_golden_fixed_map)
{
    dg_grid g;
    dg_result r;
    fixed_map(&g, &r);
    dg_recipe rc;
    CHECK(dg_recipe_init(&rc, "chain", 99, 12, 8) == DG_OK);
    const uint64_t want[3] = {0x65128f9f16490ce9ull, 0x7abc0094def06156ull, 0xcb14b534b7d42be0ull};
    for (int32_t f = DG_EXPORT_JSON; f <= DG_EXPORT_TMX; f++)
    {
        size_t len;
        char *text = export_to(&g, &r, f, &rc, &len);
        CHECK(strlen(text) == len);
        if (getenv("EXPORT_PRINT_GOLDEN"))
            printf("0x%016llxull\n", (unsigned long long)fnv_without_version(text, len));
        CHECK_EQ_U64(fnv_without_version(text, len), want[f]);
        /* names are escaped, invalid UTF-8 never passes through */
        CHECK(strstr(text, "\xff") == NULL);
        if (f == DG_EXPORT_TMX)
            CHECK(strstr(text, "name=\"orc &quot;chief&quot; &lt;&amp;&gt;\"") != NULL);
        else
            CHECK(strstr(text, "\"orc \\\"chief\\\" <&>\"") != NULL);
        free(text);
    }
}

/* The fixed map with what 0.9 adds: room labels (a role, a level-graph node),
 * corridor edges and spawns (a kind word, a footprint, a cost, a group). */
static void labelled_map(dg_grid *g, dg_result *r)
{
    fixed_map(g, r);
    static dg_room_label labels[2] = {{"start", "gate hall", 0}, {"boss", "crypt <&>", 2}};
    static int32_t edges[1] = {1};
    static dg_marker markers[5] = {
        {.pos = {2, 2}, .kind = DG_MARKER_ACTOR, .room = 0, .name = "orc \"chief\" <&>"},
        {.pos = {10, 2}, .kind = DG_MARKER_ITEM, .room = 1, .name = "caf\xc3\xa9 \xff"},
        {.pos = {6, 1}, .kind = DG_MARKER_ACTOR, .room = -1, .name = "ogre", .number = 1, .size = 2,
         .cost = 7, .type = "monster"},
        {.pos = {3, 3}, .kind = DG_MARKER_ITEM, .room = 0, .name = "gold", .number = 2, .cost = 1,
         .type = "item"},
        {.pos = {1, 1}, .kind = DG_MARKER_SPAWN, .room = 0, .number = 3, .size = 1, .type = "crate"}};
    r->labels = labels;
    r->label_count = 2;
    r->corridor_edges = edges;
    r->corridor_edge_count = 1;
    r->markers = markers;
    r->marker_count = 5;
}

/* EXPORT_DUMP_DIR set (tests/export_labels.sh): writes text there as NAME. */
static void dump(const char *name, const char *text, size_t len)
{
    const char *dir = getenv("EXPORT_DUMP_DIR");
    char path[4096];
    if (!dir || snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return;
    FILE *f = fopen(path, "wb");
    CHECKF(f && fwrite(text, 1, len, f) == len, "%s", path);
    if (f)
        fclose(f);
}

TEST(export_labelled_golden)
{
    static const char *const ext[3] = {"json", "tmj", "tmx"};
    dg_grid g;
    dg_result r;
    labelled_map(&g, &r);
    dg_recipe rc;
    CHECK(dg_recipe_init(&rc, "chain", 99, 12, 8) == DG_OK);
    const uint64_t want[3] = {0x09d2f67087f71031ull, 0xabd091f0612250e2ull, 0x9c07360543616dbbull};
    static const char *const has[3][6] = {
        {"\"shape\": \"rect\", \"role\": \"boss\", \"name\": \"crypt <&>\", \"node\": 2}",
         "\"to\": {\"kind\": \"room\", \"index\": 1}, \"edge\": 1}",
         "\"name\": \"ogre\", \"number\": 1, \"size\": 2, \"cost\": 7, \"type\": \"monster\"}",
         "\"name\": \"gold\", \"number\": 2, \"size\": 1, \"cost\": 1, \"type\": \"item\"}",
         "\"name\": \"\", \"number\": 3, \"size\": 1, \"cost\": 0, \"type\": \"crate\"}",
         "\"name\": \"orc \\\"chief\\\" <&>\"}"},
        {"{\"name\": \"role\", \"type\": \"string\", \"value\": \"start\"}, {\"name\": \"name\", "
         "\"type\": \"string\", \"value\": \"gate hall\"}, {\"name\": \"node\", \"type\": \"int\", \"value\": 0}",
         "{\"name\": \"edge\", \"type\": \"int\", \"value\": 1}",
         "\"name\": \"ogre\", \"type\": \"monster\", \"x\": 96, \"y\": 16, \"width\": 32, \"height\": 32",
         "\"name\": \"gold\", \"type\": \"item\", \"x\": 48, \"y\": 48, \"width\": 16, \"height\": 16",
         "\"name\": \"crate\", \"type\": \"crate\", \"x\": 16, \"y\": 16, \"width\": 16, \"height\": 16",
         "{\"name\": \"group\", \"type\": \"int\", \"value\": 1}, {\"name\": \"size\", \"type\": \"int\", "
         "\"value\": 2}, {\"name\": \"cost\", \"type\": \"int\", \"value\": 7}"},
        {"<property name=\"role\" value=\"boss\"/>\n    <property name=\"name\" value=\"crypt &lt;&amp;&gt;\"/>\n"
         "    <property name=\"node\" type=\"int\" value=\"2\"/>",
         "<property name=\"edge\" type=\"int\" value=\"1\"/>",
         "name=\"ogre\" type=\"monster\" x=\"96\" y=\"16\" width=\"32\" height=\"32\">",
         "name=\"gold\" type=\"item\" x=\"48\" y=\"48\" width=\"16\" height=\"16\">",
         "name=\"crate\" type=\"crate\" x=\"16\" y=\"16\" width=\"16\" height=\"16\">",
         "<property name=\"kind\" value=\"actor\"/>\n    <property name=\"group\" type=\"int\" value=\"1\"/>\n"
         "    <property name=\"size\" type=\"int\" value=\"2\"/>\n    <property name=\"cost\" type=\"int\" value=\"7\"/>"},
    };
    for (int32_t f = DG_EXPORT_JSON; f <= DG_EXPORT_TMX; f++)
    {
        size_t len;
        char *text = export_to(&g, &r, f, &rc, &len);
        if (getenv("EXPORT_PRINT_GOLDEN"))
            printf("0x%016llxull\n", (unsigned long long)fnv_without_version(text, len));
        CHECK_EQ_U64(fnv_without_version(text, len), want[f]);
        for (int k = 0; k < 6; k++)
            CHECKF(strstr(text, has[f][k]), "%s: %s", ext[f], has[f][k]);
        /* the markers that are no spawns keep their 0.8 form */
        CHECK(count_of(text, f == DG_EXPORT_TMX ? "name=\"size\"" : "\"size\"") == 3);
        char name[32];
        snprintf(name, sizeof name, "labelled.%s", ext[f]);
        dump(name, text, len);
        free(text);
    }
    /* labels that are not one per room, and edges not one per corridor, are not written */
    r.label_count = 1;
    r.corridor_edge_count = 0;
    size_t len;
    char *json = export_to(&g, &r, DG_EXPORT_JSON, NULL, &len);
    CHECK(json && !strstr(json, "\"role\"") && !strstr(json, "\"edge\"") && strstr(json, "\"cost\""));
    free(json);
}

/* Bad labels and kind words are refused before the first byte. */
TEST(export_labelled_bad_input)
{
    dg_grid g;
    dg_result r;
    labelled_map(&g, &r);
    dg_diag diag;
    sink s = {NULL, 0, 0, 0, 0};
    dg_result broken = r;
    broken.labels = NULL;
    CHECK(dg_export(&g, &broken, NULL, sink_write, &s, &diag) == DG_E_NULL);
    broken = r;
    broken.corridor_edges = NULL;
    CHECK(dg_export(&g, &broken, NULL, sink_write, &s, &diag) == DG_E_NULL);
    broken = r;
    broken.label_count = -1;
    CHECK(dg_export(&g, &broken, NULL, sink_write, &s, &diag) == DG_E_INVALID);
    dg_room_label labels[2] = {r.labels[0], r.labels[1]};
    memset(labels[1].role, 'x', sizeof labels[1].role);
    broken = r;
    broken.labels = labels;
    CHECK(dg_export(&g, &broken, NULL, sink_write, &s, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "room 1") && strstr(diag.message, "role"));
    dg_marker markers[5];
    memcpy(markers, r.markers, sizeof markers);
    memset(markers[4].type, 'x', sizeof markers[4].type);
    broken = r;
    broken.markers = markers;
    CHECK(dg_export(&g, &broken, NULL, sink_write, &s, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "marker 4") && strstr(diag.message, "type"));
    CHECK(s.calls == 0);
    /* the fixed map as 0.8 wrote it: no labels, no spawns, the same bytes (export_golden_fixed_map) */
    dg_result plain;
    fixed_map(&g, &plain);
    size_t len;
    char *json = export_to(&g, &plain, DG_EXPORT_JSON, NULL, &len);
    CHECK(json && !strstr(json, "\"role\"") && !strstr(json, "\"edge\"") && !strstr(json, "\"size\""));
    dump("plain.json", json, len);
    free(json);
}

/* Parses the comma-separated numbers after `start` until `end`; returns how many. */
static int64_t csv_numbers(const char *text, const char *start, const char *end,
                           const dg_grid *g, int *same)
{
    const char *p = strstr(text, start), *stop = p ? strstr(p, end) : NULL;
    int64_t n = 0;
    *same = p && stop;
    if (!*same)
        return -1;
    p += strlen(start);
    while (p < stop)
    {
        char *next;
        long v = strtol(p, &next, 10);
        if (next == p)
            break;
        if (n < (int64_t)g->width * g->height &&
            v != dg_grid_get(g, (int32_t)(n % g->width), (int32_t)(n / g->width)))
            *same = 0;
        n++;
        p = next;
        while (p < stop && (*p == ',' || *p == '\n' || *p == ' '))
            p++;
    }
    return n;
}

static int32_t stairs_in(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            n += dg_grid_get(g, x, y) == DG_TILE_STAIRS_UP || dg_grid_get(g, x, y) == DG_TILE_STAIRS_DOWN;
    return n;
}

/* Whether text[0..len) is UTF-8 of XML 1.0 characters only (#x9, #xA, #xD,
 * #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF): what an XML parser accepts. */
static int xml_chars_only(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;)
    {
        unsigned c = s[i];
        size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > len)
            return 0;
        uint32_t cp = n == 1 ? c : c & (0xFFu >> (n + 1));
        for (size_t k = 1; k < n; k++)
        {
            if ((s[i + k] & 0xC0u) != 0x80u)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        int shortest = n < 3 || (n == 3 && cp >= 0x800) || (n == 4 && cp >= 0x10000);
        int ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                 (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
        if (!shortest || !ok)
            return 0;
        i += n;
    }
    return 1;
}

/* How many markers the Tiled maps fold into the start and exit objects: a
 * start (exit) marker on the result's start (exit) cell, the first one each. */
static int32_t folded_markers(const dg_result *r)
{
    int32_t n = 0;
    for (int k = 0; k < 2; k++)
    {
        dg_point p = k ? r->exit : r->start;
        int32_t kind = k ? DG_MARKER_EXIT : DG_MARKER_START;
        int found = 0;
        for (int32_t i = 0; i < r->marker_count && p.x >= 0 && !found; i++)
            found = r->markers[i].kind == kind && r->markers[i].pos.x == p.x && r->markers[i].pos.y == p.y;
        n += found;
    }
    return n;
}

/* The Tiled checks a map must pass: CSV count and values, object ids and
 * nextobjectid, one object per room, corridor, door, stair, start, exit and
 * marker (less the markers folded into start and exit). */
static void check_tiled(const char *tmx, const char *tmj, const dg_grid *g, const dg_result *r)
{
    int same;
    int64_t cells = (int64_t)g->width * g->height;
    CHECK(csv_numbers(tmx, "<data encoding=\"csv\">\n", "</data>", g, &same) == cells && same);
    CHECK(csv_numbers(tmj, "\"data\": [\n", "]", g, &same) == cells && same);
    int32_t objects = stairs_in(g);
    if (r)
        objects += r->room_count + r->corridor_count + r->door_count + r->marker_count +
                   (r->start.x >= 0) + (r->exit.x >= 0) - folded_markers(r);
    char next[64];
    snprintf(next, sizeof next, "nextobjectid=\"%d\"", (int)objects + 1);
    CHECK(strstr(tmx, next) != NULL);
    snprintf(next, sizeof next, "\"nextobjectid\": %d", (int)objects + 1);
    CHECK(strstr(tmj, next) != NULL);
    CHECK((int32_t)count_of(tmx, "<object ") == objects);
    CHECK((int32_t)count_of(tmj, "\"rotation\": 0") == objects);
    for (int32_t id = 1; id <= objects; id++)
    {
        snprintf(next, sizeof next, "<object id=\"%d\" ", (int)id);
        CHECK(count_of(tmx, next) == 1);
    }
    CHECK(strstr(tmx, "orientation=\"orthogonal\"") && strstr(tmj, "\"orientation\": \"orthogonal\""));
    CHECK(strstr(tmx, "<tileset firstgid=\"1\"") && strstr(tmj, "\"firstgid\": 1"));
    CHECK(count_of(tmx, "opacity=\"1\" visible=\"1\"") == 2);
    CHECK(count_of(tmj, "\"opacity\": 1, \"visible\": true") == 2);
    CHECK(strstr(tmj, "\"type\": \"tilelayer\"") && strstr(tmj, "\"type\": \"objectgroup\""));
    CHECK(count_of(tmx, "type=\"room\"") == (size_t)(r ? r->room_count : 0));
    CHECK(count_of(tmx, "type=\"start\"") <= 1 + (size_t)(r ? r->marker_count : 0));
    CHECK(xml_chars_only(tmx, strlen(tmx)));
}

TEST(export_every_generator_structure)
{
    for (int32_t gi = 0; gi < dg_generator_count(); gi++)
    {
        dg_generator_info info;
        dg_generator_get(gi, &info);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        int32_t w, h;
        dg_prefab_set *set = recipe_sample_set(info.name, &w, &h);
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        for (uint64_t seed = 1; seed <= 2 && cells; seed++)
        {
            dg_recipe rc;
            dg_grid g;
            dg_result r;
            CHECK(dg_recipe_init(&rc, info.name, seed, w, h) == DG_OK);
            dg_grid_init(&g, cells, w, h, 0);
            dg_result_init(&r, NULL);
            CHECKF(dg_recipe_generate(&rc, &g, set, &r, NULL, NULL) == DG_OK, "%s", info.name);
            size_t lj, lm, lx;
            char *json = export_to(&g, &r, DG_EXPORT_JSON, &rc, &lj);
            char *tmj = export_to(&g, &r, DG_EXPORT_TMJ, &rc, &lm);
            char *tmx = export_to(&g, &r, DG_EXPORT_TMX, &rc, &lx);
            check_tiled(tmx, tmj, &g, &r);
            CHECK(count_of(json, "\n    [") == (size_t)h); /* one line per row */
            CHECK(count_of(json, "\"kind\": ") >= (size_t)r.room_count);
            /* every metric is exported (a new dg_metrics field must be added to the JSON) */
            const char *m = strstr(json, "\"metrics\": {");
            CHECK(m && count_of(m + 13, ": ") == offsetof(dg_metrics, spare) / sizeof(int32_t));
            char line[4096];
            CHECK(dg_recipe_print(&rc, line, sizeof line, NULL) == DG_OK);
            CHECK(strstr(json, line) && strstr(tmj, line) && strstr(tmx, line));
            /* without a result: tiles and stairs only */
            free(tmj);
            free(tmx);
            tmj = export_to(&g, NULL, DG_EXPORT_TMJ, NULL, &lm);
            tmx = export_to(&g, NULL, DG_EXPORT_TMX, NULL, &lx);
            check_tiled(tmx, tmj, &g, NULL);
            free(json);
            free(tmj);
            free(tmx);
            dg_result_free(&r);
        }
        free(cells);
        dg_prefab_set_free(set);
        if (test_failures())
            return;
    }
}

TEST(export_bad_input)
{
    dg_grid g;
    dg_result r;
    fixed_map(&g, &r);
    dg_export_options o;
    dg_export_defaults(&o);
    sink s = {NULL, 0, 0, 0, 0};
    dg_diag diag;
    CHECK(dg_export(NULL, &r, &o, sink_write, &s, &diag) == DG_E_NULL);
    CHECK(dg_export(&g, &r, &o, NULL, &s, &diag) == DG_E_NULL);
    o.format = 3;
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    dg_export_defaults(&o);
    o.format = DG_EXPORT_TMX;
    o.tile_width = 0;
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    o.tile_width = 257;
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    o.tile_width = 16;
    o.tileset_image = "";
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    o.tileset_image = NULL;
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    dg_export_defaults(&o);
    dg_recipe bad;
    memset(&bad, 0, sizeof bad);
    o.recipe = &bad;
    CHECK(dg_export(&g, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    o.recipe = NULL;
    dg_result broken = r;
    broken.door_count = -1;
    CHECK(dg_export(&g, &broken, &o, sink_write, &s, &diag) == DG_E_INVALID);
    broken = r;
    broken.rooms = NULL;
    CHECK(dg_export(&g, &broken, &o, sink_write, &s, &diag) == DG_E_NULL);
    dg_marker unterminated = r.markers[0];
    memset(unterminated.name, 'x', sizeof unterminated.name);
    broken = r;
    broken.markers = &unterminated;
    broken.marker_count = 1;
    CHECK(dg_export(&g, &broken, &o, sink_write, &s, &diag) == DG_E_INVALID);
    dg_grid bad_grid = g;
    bad_grid.stride = 3;
    CHECK(dg_export(&bad_grid, &r, &o, sink_write, &s, &diag) == DG_E_INVALID);
    CHECK(s.calls == 0); /* every error comes before the first byte */
    /* buffer: too small leaves it untouched and says the size */
    char small[64];
    size_t need = 0;
    memset(small, '@', sizeof small);
    CHECK(dg_export_buffer(&g, &r, NULL, small, sizeof small, &need, &diag) == DG_E_BUFFER);
    CHECK(need > sizeof small && small[0] == '@' && small[63] == '@');
    CHECK(dg_export_buffer(&g, &r, NULL, small, need, NULL, &diag) == DG_E_BUFFER); /* no room for the NUL */
    CHECK(dg_export_buffer(NULL, &r, NULL, NULL, 0, &need, &diag) == DG_E_NULL);
    dg_export_defaults(NULL);
}

TEST(export_tileset_swatches)
{
    enum { TW = 3, TH = 2 };
    static uint8_t px[16 * TW * 16 * TH * 4];
    CHECK(dg_export_tileset_rgba(NULL, TW, TH, px, sizeof px) == DG_OK);
    for (int v = 1; v < 256; v++)
    {
        int32_t index = v - 1, x = (index % 16) * TW + TW - 1, y = (index / 16) * TH + TH - 1;
        const uint8_t *p = px + ((size_t)y * 16 * TW + (size_t)x) * 4;
        uint32_t c = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        CHECKF(c == dg_tile_color((uint8_t)v), "tile %d", v);
    }
    CHECK(px[sizeof px - 1] == 0); /* the unused last swatch is transparent */
    uint32_t palette[256];
    for (int i = 0; i < 256; i++)
        palette[i] = 0x01020304u * (uint32_t)i;
    CHECK(dg_export_tileset_rgba(palette, TW, TH, px, sizeof px) == DG_OK);
    CHECK(px[0] == 1 && px[1] == 2 && px[2] == 3 && px[3] == 4);
    CHECK(dg_export_tileset_rgba(NULL, TW, TH, px, sizeof px - 1) == DG_E_BUFFER);
    CHECK(dg_export_tileset_rgba(NULL, 0, TH, px, sizeof px) == DG_E_INVALID);
    CHECK(dg_export_tileset_rgba(NULL, TW, 257, px, sizeof px) == DG_E_INVALID);
    CHECK(dg_export_tileset_rgba(NULL, TW, TH, NULL, sizeof px) == DG_E_NULL);
}

/* A caller's result may hold any int32 coordinates: the pixel arithmetic is
 * 64-bit (UBSan in the asan runner fails on any signed overflow), and the
 * numbers written are the exact ones. */
TEST(r4_export_extreme_coordinates)
{
    dg_grid g;
    dg_result r;
    fixed_map(&g, &r);
    const int32_t lo = INT32_MIN, hi = INT32_MAX;
    dg_room rooms[2] = {{{lo, lo, hi, hi}, DG_ROOM_NORMAL, lo, lo, lo, lo, lo},
                        {{hi, hi, hi, hi}, hi, hi, hi, hi, hi, hi}};
    dg_corridor corridors[2] = {{{lo, lo}, {hi, lo}, {hi, hi}, hi, {DG_REF_ROOM, lo}, {hi, hi}},
                                {{hi, hi}, {lo, hi}, {lo, lo}, lo, {lo, hi}, {DG_REF_CORRIDOR, lo}}};
    dg_door doors[1] = {{{hi, lo}, {DG_REF_ROOM, hi}, {lo, lo}}};
    dg_marker markers[2] = {{.pos = {lo, hi}, .kind = hi, .room = lo, .name = "far"},
                            {.pos = {hi, hi}, .kind = DG_MARKER_START, .room = hi, .name = "s"}};
    r.rooms = rooms, r.corridors = corridors, r.doors = doors, r.markers = markers;
    r.room_count = 2, r.corridor_count = 2, r.door_count = 1, r.marker_count = 2;
    r.start.x = hi, r.start.y = hi, r.start_room = lo;
    r.exit.x = hi, r.exit.y = lo, r.exit_room = hi;
    r.metrics.cells = lo, r.metrics.diameter = hi;
    dg_export_options o;
    dg_export_defaults(&o);
    o.tile_width = o.tile_height = 256; /* the largest factor */
    /* (INT32_MAX - INT32_MIN) * 256 = 1099511627520, and half a tile more for cell centres */
    static const char *const want[3][2] = {
        {"\"start\": [-2147483648, -2147483648], \"bend\": [2147483647, -2147483648]",
         "\"x\": -2147483648, \"y\": 2147483647, \"kind\": \"other\""},
        {"\"polyline\": [{\"x\": 0, \"y\": 0}, {\"x\": 1099511627520, \"y\": 0}, "
         "{\"x\": 1099511627520, \"y\": 1099511627520}]",
         "\"x\": -549755813888, \"y\": -549755813888, \"width\": 549755813632"},
        {"<polyline points=\"0,0 -1099511627520,0 -1099511627520,-1099511627520\"/>",
         "x=\"549755813760\" y=\"-549755813760\""},
    };
    for (int32_t f = DG_EXPORT_JSON; f <= DG_EXPORT_TMX; f++)
    {
        o.format = f;
        size_t len;
        char *text = export_with(&g, &r, &o, &len);
        CHECKF(text && strstr(text, want[f][0]), "format %d: corridor", (int)f);
        CHECKF(text && strstr(text, want[f][1]), "format %d: room/marker/exit", (int)f);
        free(text);
    }
}

/* Names and the tileset path are caller text: what XML cannot hold is replaced
 * (U+FFFE, U+FFFF by U+FFFD; control bytes and invalid UTF-8 by '?'), so every
 * .tmx parses; the JSON forms stay valid too. */
TEST(r4_export_xml_noncharacters)
{
    dg_grid g;
    dg_result r;
    fixed_map(&g, &r);
    dg_marker markers[3] = {
        {.pos = {2, 2}, .kind = DG_MARKER_ACTOR, .room = 0,
         .name = "a\xEF\xBF\xBE" "b\xEF\xBF\xBF" "c\x01\x1F\x7F"},
        {.pos = {3, 2}, .kind = DG_MARKER_ITEM, .room = 0,
         .name = "\xED\xA0\x80\xC0\xAF\xF4\x90\x80\x80\xEF\xBF"},
        {.pos = {4, 2}, .kind = DG_MARKER_ITEM, .room = 0,
         .name = "ok \xEF\xBF\xBD \xF4\x8F\xBF\xBF \xEE\x80\x80\t\n\r"},
    };
    r.markers = markers;
    r.marker_count = 3;
    dg_export_options o;
    dg_export_defaults(&o);
    o.tileset_image = "tiles\xEF\xBF\xBF\x02.png";
    for (int32_t f = DG_EXPORT_JSON; f <= DG_EXPORT_TMX; f++)
    {
        o.format = f;
        size_t len;
        char *text = export_with(&g, &r, &o, &len);
        if (!text)
            continue;
        CHECKF(f != DG_EXPORT_TMX || xml_chars_only(text, len), "format %d", (int)f);
        if (f == DG_EXPORT_TMX)
        {
            CHECK(strstr(text, "name=\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c??\x7F\"") != NULL);
            CHECK(strstr(text, "source=\"tiles\xEF\xBF\xBD?.png\"") != NULL);
            /* U+10FFFF and U+E000 are XML characters and pass through */
            CHECK(strstr(text, "name=\"ok \xEF\xBF\xBD \xF4\x8F\xBF\xBF \xEE\x80\x80???\"") != NULL);
        }
        free(text);
    }
}

/* Prefab maps put a start (exit) marker on the result's start (exit): the
 * Tiled maps write that place once, as the start (exit) object naming the
 * marker; other markers of those kinds are still written. */
TEST(r4_export_start_exit_once)
{
    int32_t w, h;
    dg_prefab_set *set = recipe_sample_set("prefab-full", &w, &h);
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    dg_recipe rc;
    dg_grid g;
    dg_result r;
    CHECK(cells && dg_recipe_init(&rc, "prefab-full", 1, w, h) == DG_OK);
    if (!cells)
        return;
    dg_grid_init(&g, cells, w, h, 0);
    dg_result_init(&r, NULL);
    CHECK(dg_recipe_generate(&rc, &g, set, &r, NULL, NULL) == DG_OK);
    CHECK(folded_markers(&r) == 2); /* the case this test is about */
    for (int32_t f = DG_EXPORT_TMJ; f <= DG_EXPORT_TMX; f++)
    {
        size_t len;
        char *text = export_to(&g, &r, f, NULL, &len);
        const char *start = f == DG_EXPORT_TMX ? "type=\"start\"" : "\"type\": \"start\"";
        const char *exit = f == DG_EXPORT_TMX ? "type=\"exit\"" : "\"type\": \"exit\"";
        const char *prop = f == DG_EXPORT_TMX ? "<property name=\"marker\"" : "{\"name\": \"marker\"";
        CHECKF(text && count_of(text, start) == 1 && count_of(text, exit) == 1, "format %d", (int)f);
        CHECKF(text && count_of(text, prop) == 2, "format %d", (int)f);
        free(text);
    }
    dg_result_free(&r);
    free(cells);
    dg_prefab_set_free(set);
    /* a start marker elsewhere is its own object */
    fixed_map(&g, &r);
    dg_marker markers[3] = {{.pos = {2, 1}, .kind = DG_MARKER_START, .room = 0, .name = "here"},
                            {.pos = {3, 1}, .kind = DG_MARKER_START, .room = 0, .name = "there"},
                            {.pos = {2, 1}, .kind = DG_MARKER_START, .room = 0, .name = "again"}};
    r.markers = markers;
    r.marker_count = 3;
    size_t len;
    char *tmx = export_to(&g, &r, DG_EXPORT_TMX, NULL, &len);
    CHECK(tmx && count_of(tmx, "type=\"start\"") == 3 && !strstr(tmx, "name=\"here\""));
    CHECK(tmx && strstr(tmx, "name=\"there\"") && strstr(tmx, "name=\"again\""));
    CHECK(tmx && strstr(tmx, "<property name=\"marker\" type=\"int\" value=\"0\"/>"));
    free(tmx);
}

/* Void looks the same everywhere: the Tiled maps' background (void is GID 0,
 * no tile) is the colour dg_render_rgba draws void cells in. */
TEST(r4_export_void_colour)
{
    dg_grid g;
    dg_result r;
    fixed_map(&g, &r);
    uint8_t px[12 * 8 * 4];
    CHECK(dg_render_rgba(&g, NULL, 1, px, sizeof px) == DG_OK);
    const uint8_t *v = px + (5 * 12 + 1) * 4; /* (1, 5) is void */
    CHECK(fixed_cells[5 * 12 + 1] == DG_TILE_VOID);
    char want[2][64];
    snprintf(want[0], sizeof want[0], "\"backgroundcolor\": \"#%02X%02X%02X\"", v[0], v[1], v[2]);
    snprintf(want[1], sizeof want[1], " backgroundcolor=\"#%02X%02X%02X\"", v[0], v[1], v[2]);
    CHECK(v[3] == 255); /* opaque in the PNG, as the Tiled background */
    for (int32_t f = DG_EXPORT_TMJ; f <= DG_EXPORT_TMX; f++)
    {
        size_t len;
        char *text = export_to(&g, &r, f, NULL, &len);
        CHECKF(text && strstr(text, want[f - 1]), "format %d", (int)f);
        free(text);
    }
}
