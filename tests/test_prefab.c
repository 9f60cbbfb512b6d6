/* Prefab core: parsing (valid and broken input, exact line:col of every
 * error), queries, substitutions, stamping and the door-layout pick. */
#include "hard.h"
#include "test.h"
#include "prefab/prefab.h"

#include <stdlib.h>
#include <string.h>

static const char sample[] =
    "prefabs 1\n"
    "; a comment\n"
    "legend\n"
    "  g actor goblin\n"
    "  @ marker pc_start kind start\n"
    "  T wall tree\n"
    "end\n"
    "\n"
    "prefab shrine_n\n"
    "  mode furnish\n"
    "  tags crypt small\n"
    "  orient all              ; drawn with its door north\n"
    "  pick ? = .:3 ^:1\n"
    "  require g 0-1\n"
    "map\n"
    "##+##\n"
    "#.?.#\n"
    "#?g?#\n"
    "#.?.#\n"
    "#####\n"
    "end\n"
    "\n"
    "prefab grove_07\n"
    "  mode jigsaw island\n"
    "  weight 3\n"
    "  orient flip\n"
    "  count * = 1:@ rest:.\n"
    "map\n"
    ".T*TT..\n"
    "T.T.*TT\n"
    "T...T.T\n"
    "TT..T*T\n"
    ".T_TT..\n"
    "end\n";

/* Parses a NUL-terminated text from an exact-size heap copy (no NUL). */
static dg_status parse_exact(const char *text, size_t n, dg_prefab_set **set, dg_diag *diag,
                             dg_diag_fn fn, void *user)
{
    char *copy = malloc(n ? n : 1);
    memcpy(copy, text, n);
    dg_status st = dg_prefab_parse(copy, n, "t.pf", NULL, fn, user, set, diag);
    free(copy);
    return st;
}

static dg_prefab_set *parse_ok(const char *text)
{
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = parse_exact(text, strlen(text), &set, &d, NULL, NULL);
    CHECKF(st == DG_OK, "parse: %s", d.message);
    return set;
}

typedef struct errors {
    int n;
    dg_diag d[DG_PREFAB_MAX_ERRORS + 1];
} errors;

static void collect(void *user, const dg_diag *d)
{
    errors *e = user;
    if (e->n <= DG_PREFAB_MAX_ERRORS)
        e->d[e->n] = *d;
    e->n++;
}

/* Parses text expecting errors; fills *e. */
static void parse_errors(const char *text, errors *e)
{
    dg_prefab_set *set = (dg_prefab_set *)&set;
    dg_diag d;
    memset(e, 0, sizeof *e);
    dg_status st = parse_exact(text, strlen(text), &set, &d, collect, e);
    CHECK(st == DG_E_PARSE);
    CHECK(set == NULL);
    CHECK(e->n > 0 && d.line == e->d[0].line && d.column == e->d[0].column);
    CHECK(strcmp(d.message, e->d[0].message) == 0);
}

/* 1 if some error is at line:col and its message contains `what`. */
static int has_error(const errors *e, int line, int col, const char *what)
{
    char where[32];
    snprintf(where, sizeof where, "t.pf:%d:%d: ", line, col);
    for (int i = 0; i < e->n && i <= DG_PREFAB_MAX_ERRORS; i++)
        if (e->d[i].line == line && e->d[i].column == col && strstr(e->d[i].message, what) &&
            strncmp(e->d[i].message, where, strlen(where)) == 0)
            return 1;
    return 0;
}

static void dump_errors(const errors *e)
{
    for (int i = 0; i < e->n && i <= DG_PREFAB_MAX_ERRORS; i++)
        fprintf(stderr, "    %s\n", e->d[i].message);
}

TEST(prefab_parse_sample)
{
    dg_prefab_set *set = parse_ok(sample);
    if (!set)
        return;
    CHECK(dg_prefab_count(set) == 2);
    CHECK(dg_prefab_find(set, "shrine_n") == 0);
    CHECK(dg_prefab_find(set, "grove_07") == 1);
    CHECK(dg_prefab_find(set, "grove_7") == -1);
    CHECK(dg_prefab_find(set, "") == -1);
    dg_prefab_info in;
    CHECK(dg_prefab_get_info(set, 0, &in) == DG_OK);
    CHECK(strcmp(in.name, "shrine_n") == 0 && in.width == 5 && in.height == 5);
    CHECK(in.modes == DG_PREFAB_FURNISH && in.orientations == DG_ORIENT_MASK_ALL);
    CHECK(in.distinct == 0x0F); /* mirror-symmetric: 4 distinct of 8 */
    CHECK(in.weight == 10 && in.door_sides == DG_SIDE_N && in.door_class == DG_DOORCLASS_ONE);
    CHECK(in.tag_count == 2 && in.line == 9 && in.margin == 1 && in.unique == 0);
    CHECK(strcmp(dg_prefab_tag(set, 0, 1), "small") == 0 && dg_prefab_tag(set, 0, 2) == NULL);
    CHECK(dg_prefab_has_tag(set, 0, "crypt") && !dg_prefab_has_tag(set, 0, "grove"));
    CHECK(dg_prefab_has_tag(set, 1, NULL) && dg_prefab_has_tag(set, 1, ""));
    CHECK(dg_prefab_get_info(set, 1, &in) == DG_OK);
    CHECK(in.width == 7 && in.height == 5 && in.weight == 3);
    CHECK(in.modes == (DG_PREFAB_JIGSAW | DG_PREFAB_ISLAND));
    CHECK(in.orientations == 0x35 && in.distinct == 0x35 && in.door_sides == 0);
    CHECK(dg_prefab_get_info(set, 2, &in) == DG_E_INVALID);
    CHECK(dg_prefab_get_info(set, -1, &in) == DG_E_INVALID);
    CHECK(dg_prefab_get_info(NULL, 0, &in) == DG_E_NULL);
    dg_prefab_set_free(set);
}

TEST(prefab_parse_crlf_bom_and_no_final_newline_agree)
{
    size_t n = strlen(sample);
    char *crlf = malloc(2 * n + 4);
    size_t k = 0;
    memcpy(crlf, "\xEF\xBB\xBF", 3);
    k = 3;
    for (size_t i = 0; i < n; i++)
    {
        if (sample[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = sample[i];
    }
    dg_prefab_set *a = parse_ok(sample), *b = NULL, *c = NULL;
    dg_diag d;
    CHECKF(parse_exact(crlf, k - 2, &b, &d, NULL, NULL) == DG_OK, "%s", d.message); /* no final CRLF */
    CHECKF(parse_exact(sample, n - 1, &c, &d, NULL, NULL) == DG_OK, "%s", d.message);
    free(crlf);
    uint8_t cells[3][12 * 8];
    for (int s = 0; s < 3 && a && b && c; s++)
    {
        dg_prefab_set *set = s == 0 ? a : s == 1 ? b : c;
        dg_grid g;
        dg_grid_init(&g, cells[s], 12, 8, 0);
        dg_grid_fill(&g, DG_TILE_VOID);
        CHECK(dg_prefab_stamp(set, 0, DG_ORIENT_ROT90, 5, &g, 0, 0, NULL, NULL) == DG_OK);
        CHECK(dg_prefab_stamp(set, 1, DG_ORIENT_MIRROR_Y, 5, &g, 5, 3, NULL, NULL) == DG_OK);
    }
    CHECK(memcmp(cells[0], cells[1], sizeof cells[0]) == 0);
    CHECK(memcmp(cells[0], cells[2], sizeof cells[0]) == 0);
    dg_prefab_set_free(a);
    dg_prefab_set_free(b);
    dg_prefab_set_free(c);
}

TEST(prefab_parse_reports_every_error_with_line_and_column)
{
    static const char text[] =
        "prefabs 1\n"                        /* 1 */
        "legend\n"                           /* 2 */
        "  g actor goblin\n"                 /* 3 */
        "  Q bogus\n"                        /* 4: unknown class */
        "  gg wall\n"                        /* 5: glyph of two characters */
        "end\n"                              /* 6 */
        "prefab a\n"                         /* 7 */
        "  mode full wat\n"                  /* 8: unknown mode */
        "  orient rot90\n"                   /* 9: unknown orientation */
        "  frob 3\n"                         /* 10: unknown key */
        "  pick ? = .:3 +:1\n"               /* 11: adds a door */
        "  weight -2\n"                      /* 12: bad number */
        "map\n"                              /* 13 */
        "##+#\n"                             /* 14 */
        "#..#\n"                             /* 15 */
        "#.Z\n"                              /* 16: unknown glyph, ragged */
        "#\tQ#\n"                            /* 17: tab, unknown glyph */
        "end\n"                              /* 18 */
        "prefab b\n"                         /* 19 */
        "  size 4x3\n"                       /* 20: size mismatch */
        "map\n"                              /* 21 */
        "+..#\n"                             /* 22: door on a corner */
        "#.\xC3\xA9\n"                       /* 23: non-ASCII bytes */
        "end\n"                              /* 24 */
        "prefab a\n"                         /* 25: duplicate name */
        "  count * = 5:. rest:#\n"           /* 26: more cells than exist */
        "  require g 1\n"                    /* 27: never holds */
        "map\n"                              /* 28 */
        "#*#\n"                              /* 29 */
        "prefab c\n"                         /* 30: 'a' had no end */
        "map\n"                              /* 31 */
        "...\n"                              /* 32 */
        "..";                                /* 33: ragged, then EOF inside the map */
    errors e;
    parse_errors(text, &e);
    CHECK(has_error(&e, 4, 5, "unknown class 'bogus'"));
    CHECK(has_error(&e, 5, 3, "one printable character"));
    CHECK(has_error(&e, 8, 13, "unknown mode 'wat'"));
    CHECK(has_error(&e, 9, 10, "unknown orientation 'rot90'"));
    CHECK(has_error(&e, 10, 3, "unknown key 'frob'"));
    CHECK(has_error(&e, 11, 16, "add door glyph '+'"));
    CHECK(has_error(&e, 12, 10, "weight must be a number"));
    CHECK(has_error(&e, 16, 3, "glyph 'Z' is not in the legend (prefab 'a')"));
    CHECK(has_error(&e, 16, 4, "row is 3 cells wide, expected 4 (first row at line 14)"));
    CHECK(has_error(&e, 17, 2, "tab in a row"));
    CHECK(has_error(&e, 17, 3, "glyph 'Q' is not in the legend"));
    CHECK(has_error(&e, 20, 8, "size says 4x3 but the map is 4x2"));
    CHECK(has_error(&e, 22, 1, "door on a corner"));
    CHECK(has_error(&e, 23, 3, "non-ASCII byte 0xC3"));
    CHECK(has_error(&e, 23, 4, "non-ASCII byte 0xA9"));
    CHECK(has_error(&e, 25, 8, "duplicate prefab name 'a' (first at line 7)"));
    CHECK(has_error(&e, 25, 1, "prefab 'a' has no 'end' after its map"));
    CHECK(has_error(&e, 33, 3, "row is 2 cells wide, expected 3"));
    CHECK(has_error(&e, 30, 1, "prefab 'c' has no 'end' after its map"));
    CHECK(e.n == 19);
    if (test_failures())
        dump_errors(&e);
}

TEST(prefab_parse_header_errors)
{
    errors e;
    parse_errors("; no magic\nprefab x\nmap\n.\nend\n", &e);
    CHECK(has_error(&e, 2, 1, "expected 'prefabs 1'"));
    CHECK(e.n == 1);
    parse_errors("prefabs 2\n", &e);
    CHECK(has_error(&e, 1, 9, "unsupported format version"));
    parse_errors("", &e);
    CHECK(has_error(&e, 1, 1, "expected 'prefabs 1'"));
    parse_errors("prefabs 1\nlegend\n. ground\nprefab x\nmap\n.\nend\n", &e);
    CHECK(has_error(&e, 2, 1, "legend is not closed by 'end'"));
    CHECK(e.n == 1);
    parse_errors("prefabs 1\nprefab x\n  unique\n  unique\n  edge sideways\nmap\n.\nend\nmap\n", &e);
    CHECK(has_error(&e, 4, 3, "'unique' is given twice"));
    CHECK(has_error(&e, 5, 8, "edge must be touch or avoid"));
    CHECK(has_error(&e, 9, 1, "'map' outside a prefab"));
    parse_errors("prefabs 1\nprefab x\n  mode full\nprefab y\nmap\n.\nend\nprefab z\n", &e);
    CHECK(has_error(&e, 2, 1, "prefab 'x' has no 'map'"));
    CHECK(has_error(&e, 8, 1, "prefab 'z' has no 'map'"));
    parse_errors("prefabs 1\nprefab bad/name\nmap\n.\nend\nprefab\nmap\n.\nend\n", &e);
    CHECK(has_error(&e, 2, 11, "invalid character in prefab name"));
    CHECK(has_error(&e, 6, 7, "expected 'prefab NAME'"));
    parse_errors("prefabs 1\nprefab x\nmap\nend\nprefab y\nmap\n. .\n\nend\n", &e);
    CHECK(has_error(&e, 4, 1, "has no rows"));
    CHECK(has_error(&e, 7, 2, "space in a row"));
    CHECK(has_error(&e, 8, 1, "empty row"));
    parse_errors("prefabs 1\nprefab x\n  pick ? = ;\n  pick-once ? = .:0\n  count ? = x:.\nmap\n?\nend\n", &e);
    CHECK(has_error(&e, 3, 11, "no choices after '='"));
    CHECK(has_error(&e, 4, 17, "weights add up to 0"));
    CHECK(has_error(&e, 5, 13, "expected N:G or rest:G"));
    parse_errors("prefabs 1\nprefab x\n  pick ? = Z:1\n  count * = 1:g\n  exits N\nmap\n?*\n*.\nend\n", &e);
    CHECK(has_error(&e, 3, 12, "substitution result 'Z' is not in the legend"));
    CHECK(has_error(&e, 4, 9, "count leaves some '*' cells"));
    CHECK(has_error(&e, 4, 15, "substitution result 'g'"));
    CHECK(has_error(&e, 5, 9, "exits do not match"));
    parse_errors("prefabs 1\nprefab x\n  require goblin 1\n  pick + = .\nmap\n+.\nend\n", &e);
    CHECK(has_error(&e, 3, 11, "require can never hold: the map has 0 to 0"));
    CHECK(has_error(&e, 4, 8, "door glyph '+' cannot be substituted"));
    parse_errors("prefabs 1\nlegend\n  x wall on ground\n  y trap kind boss\n  z door tile 300\nend\n", &e);
    CHECK(has_error(&e, 3, 10, "unexpected 'on' in a wall legend entry"));
    CHECK(has_error(&e, 4, 15, "unknown marker kind 'boss'"));
    CHECK(has_error(&e, 5, 15, "tile must be 0..255"));
    parse_errors("prefabs 1\ngroup big 3-1\nfoo\nprefab x\n  tags a\xFF\nmap\n.\nend\n", &e);
    CHECK(has_error(&e, 2, 11, "count must be N, N-M or N+"));
    CHECK(has_error(&e, 3, 1, "unknown keyword 'foo'"));
    CHECK(has_error(&e, 5, 9, "non-ASCII byte 0xFF outside a comment"));
    if (test_failures())
        dump_errors(&e);
}

TEST(prefab_parse_limits)
{
    size_t side = DG_PREFAB_MAX_SIDE;
    size_t cap = (side + 2) * 4 + 64;
    char *text = malloc(cap);
    /* widest legal row, then one cell too wide */
    for (int extra = 0; extra < 2; extra++)
    {
        size_t k = (size_t)sprintf(text, "prefabs 1\nprefab w\nmap\n");
        memset(text + k, '.', side + (size_t)extra);
        k += side + (size_t)extra;
        k += (size_t)sprintf(text + k, "\nend\n");
        dg_prefab_set *set = NULL;
        errors e;
        memset(&e, 0, sizeof e);
        dg_status st = parse_exact(text, k, &set, NULL, collect, &e);
        CHECK(st == (extra ? DG_E_PARSE : DG_OK));
        if (extra)
            CHECK(has_error(&e, 4, (int)side + 1, "row is wider than 1024 cells"));
        dg_prefab_set_free(set);
    }
    free(text);
    /* tallest legal map, then one row more */
    cap = 64 + 2 * (side + 1);
    text = malloc(cap);
    for (int extra = 0; extra < 2; extra++)
    {
        size_t k = (size_t)sprintf(text, "prefabs 1\nprefab t\nmap\n");
        for (size_t r = 0; r < side + (size_t)extra; r++)
        {
            text[k++] = '#';
            text[k++] = '\n';
        }
        k += (size_t)sprintf(text + k, "end\n");
        dg_prefab_set *set = NULL;
        errors e;
        memset(&e, 0, sizeof e);
        CHECK(parse_exact(text, k, &set, NULL, collect, &e) == (extra ? DG_E_PARSE : DG_OK));
        if (extra)
            CHECK(has_error(&e, 4 + (int)side, 1, "map is taller than 1024 rows"));
        dg_prefab_set_free(set);
    }
    free(text);
    /* the error limit: one call per error up to DG_PREFAB_MAX_ERRORS */
    char many[4096];
    size_t k = (size_t)sprintf(many, "prefabs 1\n");
    for (int i = 0; i < 200; i++)
        k += (size_t)sprintf(many + k, "oops\n");
    errors e;
    memset(&e, 0, sizeof e);
    dg_prefab_set *set = NULL;
    CHECK(parse_exact(many, k, &set, NULL, collect, &e) == DG_E_PARSE);
    CHECK(e.n == DG_PREFAB_MAX_ERRORS);
}

TEST(prefab_parse_every_prefix_is_safe)
{
    /* Truncated input: every prefix parses from an exact-size buffer (ASan
     * catches a read past it) to OK or a parse error, never anything else. */
    size_t n = strlen(sample);
    int ok = 0;
    for (size_t len = 0; len <= n; len++)
    {
        dg_prefab_set *set = NULL;
        dg_status st = parse_exact(sample, len, &set, NULL, NULL, NULL);
        CHECK(st == DG_OK || st == DG_E_PARSE);
        CHECK((st == DG_OK) == (set != NULL));
        ok += st == DG_OK;
        dg_prefab_set_free(set);
    }
    CHECK(ok >= 2); /* the whole text, and without its final newline */
}

TEST(prefab_parse_bad_arguments)
{
    dg_prefab_set *set = (dg_prefab_set *)&set;
    dg_diag d;
    CHECK(dg_prefab_parse("x", 1, NULL, NULL, NULL, NULL, NULL, &d) == DG_E_NULL);
    CHECK(dg_prefab_parse(NULL, 3, NULL, NULL, NULL, NULL, &set, &d) == DG_E_NULL);
    CHECK(set == NULL);
    CHECK(dg_prefab_parse(NULL, 0, NULL, NULL, NULL, NULL, &set, &d) == DG_E_PARSE);
    CHECK(strstr(d.message, "<input>:1:1:") == d.message);
    CHECK(dg_prefab_load("/nonexistent/file.pf", NULL, NULL, NULL, &set, &d) == DG_E_INVALID);
    CHECK(set == NULL && strstr(d.message, "cannot open"));
    CHECK(dg_prefab_load(NULL, NULL, NULL, NULL, &set, &d) == DG_E_NULL);
    CHECK(dg_prefab_count(NULL) == 0 && dg_prefab_find(NULL, "x") == -1);
    dg_prefab_set_free(NULL);
}

TEST(prefab_parse_out_of_memory_leaks_nothing)
{
    /* Count the allocations of a good parse, then refuse each one in turn. */
    hard_alloc h;
    hard_alloc_init(&h, 0);
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_parse(sample, strlen(sample), NULL, &h.hooks, NULL, NULL, &set, NULL) == DG_OK);
    dg_prefab_set_free(set);
    int64_t calls = h.calls, nomem = 0;
    CHECK(calls > 5 && hard_alloc_clean(&h));
    for (int64_t k = 1; k <= calls; k++)
    {
        hard_alloc_init(&h, k);
        dg_diag d;
        set = NULL;
        dg_status st = dg_prefab_parse(sample, strlen(sample), NULL, &h.hooks, NULL, NULL, &set, &d);
        CHECK(st == DG_OK || st == DG_E_NOMEM);
        if (st == DG_E_NOMEM)
            CHECK(set == NULL && strstr(d.message, "out of memory"));
        nomem += st == DG_E_NOMEM;
        dg_prefab_set_free(set);
        CHECK(hard_alloc_clean(&h));
    }
    CHECK(nomem >= calls - 1); /* only the up-front cell buffer may be refused harmlessly */
}

/* ---- stamping ---------------------------------------------------------------------- */

TEST(prefab_stamp_clips_keeps_void_and_guards)
{
    dg_prefab_set *set = parse_ok(sample);
    if (!set)
        return;
    guarded_grid gg;
    CHECK(guard_make(&gg, 9, 6, 5));
    dg_grid_fill(&gg.grid, DG_TILE_WATER);
    dg_result r;
    dg_result_init(&r, NULL);
    /* grove_07 at (3, 1) in identity: 6 x 5 cells visible */
    CHECK(dg_prefab_stamp(set, 1, DG_ORIENT_IDENTITY, 9, &gg.grid, 3, 1, &r, NULL) == DG_OK);
    CHECK(guard_intact(&gg));
    CHECK(dg_grid_get(&gg.grid, 2, 2) == DG_TILE_WATER);
    CHECK(dg_grid_get(&gg.grid, 3, 2) == DG_TILE_WALL);  /* T */
    CHECK(dg_grid_get(&gg.grid, 5, 5) == DG_TILE_WATER); /* '_' void keeps what was there */
    CHECK(dg_grid_get(&gg.grid, 3, 5) == DG_TILE_FLOOR);
    /* one '@' among the three '*' cells, but only the visible ones are reported */
    CHECK(r.marker_count <= 1);
    for (int32_t i = 0; i < r.marker_count; i++)
        CHECK(r.markers[i].kind == DG_MARKER_START && strcmp(r.markers[i].name, "pc_start") == 0 &&
              r.markers[i].pos.x < 9 && r.markers[i].pos.y < 6 && r.markers[i].room == -1);
    /* negative offsets clip the other way */
    CHECK(dg_prefab_stamp(set, 0, DG_ORIENT_IDENTITY, 9, &gg.grid, -4, -2, &r, NULL) == DG_OK);
    CHECK(dg_grid_get(&gg.grid, 0, 0) == DG_TILE_WALL && dg_grid_get(&gg.grid, 0, 2) == DG_TILE_WALL);
    CHECK(dg_grid_get(&gg.grid, 1, 0) == DG_TILE_WATER);
    CHECK(guard_intact(&gg));
    /* nothing inside, bad orientation, bad index: grid untouched */
    uint64_t before = dg_grid_hash(&gg.grid);
    dg_diag d;
    CHECK(dg_prefab_stamp(set, 0, 0, 9, &gg.grid, 9, 0, &r, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "outside the grid") != NULL);
    CHECK(dg_prefab_stamp(set, 0, 0, 9, &gg.grid, -5, 0, &r, &d) == DG_E_INVALID);
    CHECK(dg_prefab_stamp(set, 0, 0, 9, &gg.grid, INT32_MAX, INT32_MAX, &r, &d) == DG_E_INVALID);
    CHECK(dg_prefab_stamp(set, 0, 0, 9, &gg.grid, INT32_MIN, 0, &r, &d) == DG_E_INVALID);
    CHECK(dg_prefab_stamp(set, 1, DG_ORIENT_ROT90, 9, &gg.grid, 0, 0, &r, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "not allowed") != NULL);
    CHECK(dg_prefab_stamp(set, 0, 8, 9, &gg.grid, 0, 0, &r, &d) == DG_E_INVALID);
    CHECK(dg_prefab_stamp(set, 2, 0, 9, &gg.grid, 0, 0, &r, &d) == DG_E_INVALID);
    CHECK(dg_prefab_stamp(NULL, 0, 0, 9, &gg.grid, 0, 0, &r, &d) == DG_E_NULL);
    CHECK(dg_prefab_stamp(set, 0, 0, 9, NULL, 0, 0, &r, &d) == DG_E_NULL);
    CHECK(dg_grid_hash(&gg.grid) == before);
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

TEST(prefab_stamp_markers_follow_orientation)
{
    static const char text[] = "prefabs 1\nlegend\n  a actor archer\n  b marker box kind item\nend\n"
                               "prefab m\nmap\na..\n..b\n##.\n#..\nend\n";
    dg_prefab_set *set = parse_ok(text);
    if (!set)
        return;
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
    {
        uint8_t cells[8 * 8];
        dg_grid g;
        dg_grid_init(&g, cells, 8, 8, 0);
        dg_grid_fill(&g, DG_TILE_VOID);
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_prefab_stamp(set, 0, o, 1, &g, 2, 1, &r, NULL) == DG_OK);
        CHECK(r.marker_count == 2);
        dg_point pa = dg_orient_point(o, 3, 4, (dg_point){0, 0});
        dg_point pb = dg_orient_point(o, 3, 4, (dg_point){2, 1});
        dg_point pw = dg_orient_point(o, 3, 4, (dg_point){0, 2});
        int found = 0;
        for (int32_t i = 0; i < r.marker_count; i++)
        {
            const dg_marker *m = &r.markers[i];
            if (strcmp(m->name, "archer") == 0)
                found += m->kind == DG_MARKER_ACTOR && m->pos.x == 2 + pa.x && m->pos.y == 1 + pa.y;
            else
                found += m->kind == DG_MARKER_ITEM && m->pos.x == 2 + pb.x && m->pos.y == 1 + pb.y;
        }
        CHECKF(found == 2, "orientation %d", (int)o);
        CHECK(dg_grid_get(&g, 2 + pw.x, 1 + pw.y) == DG_TILE_WALL);
        CHECK(dg_grid_get(&g, 2 + pa.x, 1 + pa.y) == DG_TILE_FLOOR);
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

TEST(prefab_legend_tiles_names_and_on)
{
    static const char text[] =
        "prefabs 1\nlegend\n  > marker exit kind exit tile stairs_down\n  ~ wall water tile 70\n"
        "  h trap pit on ground\nend\nprefab l\n  legend\n    . ground tile corridor\n  end\n"
        "map\n>~h.\nend\nprefab m\nmap\n>.\nend\n";
    dg_prefab_set *set = parse_ok(text);
    if (!set)
        return;
    uint8_t cells[6];
    dg_grid g;
    dg_grid_init(&g, cells, 6, 1, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_prefab_stamp(set, 0, 0, 1, &g, 0, 0, &r, NULL) == DG_OK);
    CHECK(cells[0] == DG_TILE_STAIRS_DOWN && cells[1] == 70 && cells[2] == DG_TILE_FLOOR);
    CHECK(cells[3] == DG_TILE_CORRIDOR);
    CHECK(r.marker_count == 2 && r.markers[0].kind == DG_MARKER_EXIT && r.markers[1].kind == DG_MARKER_TRAP);
    CHECK(strcmp(r.markers[1].name, "pit") == 0);
    /* the per-prefab legend does not leak into the next prefab */
    CHECK(dg_prefab_stamp(set, 1, 0, 1, &g, 4, 0, NULL, NULL) == DG_OK);
    CHECK(cells[5] == DG_TILE_FLOOR);
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

/* Counts glyph tiles of one stamp. */
static void stamp_counts(dg_prefab_set *set, int32_t index, uint64_t seed, dg_result *r,
                         int32_t counts[256], dg_status *st)
{
    uint8_t cells[16 * 16];
    dg_grid g;
    dg_prefab_info in;
    dg_prefab_get_info(set, index, &in);
    dg_grid_init(&g, cells, in.width, in.height, 0);
    dg_grid_fill(&g, DG_TILE_VOID);
    dg_result_free(r);
    *st = dg_prefab_stamp(set, index, 0, seed, &g, 0, 0, r, NULL);
    memset(counts, 0, 256 * sizeof *counts);
    for (int32_t i = 0; i < in.width * in.height; i++)
        counts[cells[i]]++;
}

TEST(prefab_substitutions_follow_their_rules)
{
    static const char text[] =
        "prefabs 1\nlegend\n  g actor goblin\n  o actor orc\n  w wall\nend\n"
        "prefab exact\n  count * = 2:g 1:o rest:.\nmap\n****\n****\nend\n"
        "prefab once\n  pick-once ? = .:1 w:1\nmap\n????\n????\nend\n"
        "prefab weighted\n  pick ? = .:3 w:1\nmap\n????????\n????????\nend\n"
        "prefab req\n  pick ? = g:1 .:3\n  require goblin 1\nmap\n????\nend\n"
        "prefab chain\n  pick ? = *:1\n  count * = 1:o rest:g\nmap\n??..\nend\n";
    dg_prefab_set *set = parse_ok(text);
    if (!set)
        return;
    dg_result r;
    dg_result_init(&r, NULL);
    int32_t counts[256], seen_at[8] = {0};
    int64_t walls = 0, limit_hits = 0, once_mixed = 0;
    dg_status st;
    for (uint64_t seed = 0; seed < 400; seed++)
    {
        stamp_counts(set, 0, seed, &r, counts, &st);
        CHECK(st == DG_OK && counts[DG_TILE_FLOOR] == 8 && r.marker_count == 3);
        int goblins = 0;
        for (int32_t i = 0; i < r.marker_count; i++)
        {
            goblins += strcmp(r.markers[i].name, "goblin") == 0;
            seen_at[r.markers[i].pos.y * 4 + r.markers[i].pos.x]++;
        }
        CHECK(goblins == 2);
        stamp_counts(set, 1, seed, &r, counts, &st);
        CHECK(st == DG_OK && (counts[DG_TILE_FLOOR] == 8 || counts[DG_TILE_WALL] == 8));
        once_mixed += counts[DG_TILE_WALL] == 8;
        stamp_counts(set, 2, seed, &r, counts, &st);
        walls += counts[DG_TILE_WALL];
        stamp_counts(set, 3, seed, &r, counts, &st);
        CHECK(st == DG_OK || st == DG_E_LIMIT);
        if (st == DG_OK)
            CHECK(r.marker_count == 1);
        limit_hits += st == DG_E_LIMIT;
        stamp_counts(set, 4, seed, &r, counts, &st);
        CHECK(st == DG_OK && r.marker_count == 2);
    }
    for (int i = 0; i < 8; i++) /* every '*' cell is chosen about 3/8 of the time */
        CHECKF(seen_at[i] > 100 && seen_at[i] < 200, "cell %d chosen %d times", i, seen_at[i]);
    CHECK(once_mixed > 150 && once_mixed < 250);
    CHECKF(walls > 400 * 16 / 4 - 250 && walls < 400 * 16 / 4 + 250, "walls %lld", (long long)walls);
    CHECK(limit_hits <= 2);
    dg_result_free(&r);
    dg_prefab_set_free(set);
}

TEST(prefab_stamp_is_deterministic_golden)
{
    dg_prefab_set *set = parse_ok(sample);
    if (!set)
        return;
    uint8_t cells[20 * 16];
    dg_grid g;
    dg_grid_init(&g, cells, 20, 16, 0);
    dg_grid_fill(&g, DG_TILE_VOID);
    static const int32_t grove_orient[4] = {DG_ORIENT_IDENTITY, DG_ORIENT_MIRROR_X,
                                            DG_ORIENT_ROT180, DG_ORIENT_MIRROR_Y};
    for (int32_t o = 0; o < 4; o++)
    {
        CHECK(dg_prefab_stamp(set, 0, o, 100 + (uint64_t)o, &g, o * 5, 0, NULL, NULL) == DG_OK);
        CHECK(dg_prefab_stamp(set, 1, grove_orient[o], 200 + (uint64_t)o, &g, (o % 2) * 7,
                              6 + (o / 2) * 5, NULL, NULL) == DG_OK);
    }
    char text[21 * 16 + 1];
    dg_render_ascii(&g, NULL, text, sizeof text, NULL);
    if (getenv("DG_SHOW"))
        fputs(text, stderr);
    CHECK_EQ_U64(dg_grid_hash(&g), 0xdf6863dc2f9f5c09ULL);
    dg_prefab_set_free(set);
}

/* ---- door-layout pick -------------------------------------------------------------- */

static const char furnish[] =
    "prefabs 1\n"
    "prefab one\n  mode furnish\nmap\n##+##\n#...#\n#.#.#\n#...#\n#####\nend\n"
    "prefab one_b\n  mode furnish\n  weight 30\nmap\n##+##\n#..##\n#...#\n#...#\n#####\nend\n"
    "prefab straight\n  mode furnish\nmap\n##+##\n#...#\n#.#.#\n#...#\n##+##\nend\n"
    "prefab corner\n  mode furnish\nmap\n##+##\n#...#\n#...+\n#...#\n#####\nend\n"
    "prefab three\n  mode furnish\n  orient rot\nmap\n##+##\n#...#\n+...+\n#...#\n#####\nend\n"
    "prefab four\n  mode furnish island\nmap\n##+##\n#...#\n+...+\n#...#\n##+##\nend\n"
    "prefab other\n  mode island\nmap\n##+##\n#...#\n#####\nend\n";

TEST(prefab_pick_matches_door_sides)
{
    dg_prefab_set *set = parse_ok(furnish);
    if (!set)
        return;
    for (int32_t sides = 0; sides < 16; sides++)
    {
        int64_t hits[8] = {0};
        for (uint64_t h = 0; h < 300; h++)
        {
            int32_t index = -1, o = -1;
            dg_status st = dg_prefab_pick(set, DG_PREFAB_FURNISH, sides, dg_hash64(h), &index, &o);
            if (sides == 0)
            {
                CHECK(st == DG_E_NOSPACE);
                continue;
            }
            CHECK(st == DG_OK);
            dg_prefab_info in;
            CHECK(dg_prefab_get_info(set, index, &in) == DG_OK);
            CHECK(in.modes & DG_PREFAB_FURNISH);
            CHECK(dg_orient_sides(in.door_sides, o) == sides);
            CHECK(in.distinct & (1 << o));
            CHECK(dg_door_class(sides) == in.door_class);
            hits[index]++;
        }
        if (dg_door_class(sides) == DG_DOORCLASS_ONE)
            CHECKF(hits[1] > 3 * hits[0] - 80 && hits[1] < 3 * hits[0] + 80, "weights %lld %lld",
                   (long long)hits[0], (long long)hits[1]);
    }
    /* pure function of the hash; invalid arguments */
    int32_t i1, o1, i2, o2;
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, 5, 77, &i1, &o1) == DG_OK);
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, 5, 77, &i2, &o2) == DG_OK);
    CHECK(i1 == i2 && o1 == o2 && i1 == 2);
    CHECK(dg_prefab_pick(set, DG_PREFAB_ISLAND, 15, 1, &i1, &o1) == DG_OK && i1 == 5);
    CHECK(dg_prefab_pick(set, DG_PREFAB_JIGSAW, 1, 1, &i1, &o1) == DG_E_NOSPACE);
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH | DG_PREFAB_ISLAND, 1, 1, &i1, &o1) == DG_E_INVALID);
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, 16, 1, &i1, &o1) == DG_E_INVALID);
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, -1, 1, &i1, &o1) == DG_E_INVALID);
    CHECK(dg_prefab_pick(NULL, DG_PREFAB_FURNISH, 1, 1, &i1, &o1) == DG_E_NULL);
    CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, 1, 1, NULL, &o1) == DG_E_NULL);
    /* three is allowed only rotations: W+E+S needs r180 */
    for (uint64_t h = 0; h < 50; h++)
    {
        CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, DG_SIDE_E | DG_SIDE_S | DG_SIDE_W, h, &i1, &o1) == DG_OK);
        CHECK(i1 == 4 && o1 == DG_ORIENT_ROT180);
    }
    /* size filter */
    CHECK(dg_prefab_pick_fit(set, DG_PREFAB_ISLAND, DG_SIDE_N, 5, 3, 3, &i1, &o1) == DG_OK);
    CHECK(i1 == 6 && (o1 == DG_ORIENT_IDENTITY || o1 == DG_ORIENT_MIRROR_X));
    CHECK(dg_prefab_pick_fit(set, DG_PREFAB_ISLAND, DG_SIDE_E, 5, 3, 3, &i1, &o1) == DG_E_NOSPACE);
    CHECK(dg_prefab_pick_fit(set, DG_PREFAB_ISLAND, DG_SIDE_E, 3, 5, 3, &i1, &o1) == DG_OK);
    dg_prefab_set_free(set);
}

TEST(prefab_door_class_table)
{
    CHECK(dg_door_class(0) == DG_DOORCLASS_NONE);
    CHECK(dg_door_class(DG_SIDE_W) == DG_DOORCLASS_ONE);
    CHECK(dg_door_class(DG_SIDE_N | DG_SIDE_S) == DG_DOORCLASS_STRAIGHT);
    CHECK(dg_door_class(DG_SIDE_E | DG_SIDE_W) == DG_DOORCLASS_STRAIGHT);
    CHECK(dg_door_class(DG_SIDE_N | DG_SIDE_E) == DG_DOORCLASS_CORNER);
    CHECK(dg_door_class(DG_SIDE_S | DG_SIDE_W) == DG_DOORCLASS_CORNER);
    CHECK(dg_door_class(15 & ~DG_SIDE_E) == DG_DOORCLASS_THREE);
    CHECK(dg_door_class(15) == DG_DOORCLASS_FOUR);
}

/* Reference for a prefab's `solid`: '.' always passable, '?' (picked '.'
 * or '#') sometimes, '#' never. 1 if every '?' touches a '.' and the '.'
 * cells are one 4-connected region, 2 if there is no '.', else 0. */
static int32_t reference_solid(const char *g, int32_t w, int32_t h, int32_t *stack, uint8_t *seen)
{
    int32_t n = w * h, open = 0, first = -1, top = 0, reached = 0;
    for (int32_t i = 0; i < n; i++)
    {
        int32_t x = i % w;
        int touches = (i >= w && g[i - w] == '.') || (i + w < n && g[i + w] == '.') ||
                      (x > 0 && g[i - 1] == '.') || (x + 1 < w && g[i + 1] == '.');
        if (g[i] == '?' && !touches)
            return 0;
        open += g[i] == '.';
        first = first < 0 && g[i] == '.' ? i : first;
        seen[i] = 0;
    }
    if (first < 0)
        return 2;
    seen[first] = 1;
    stack[top++] = first;
    while (top > 0)
    {
        int32_t c = stack[--top], x = c % w;
        int32_t next[4] = {c >= w ? c - w : -1, c + w < n ? c + w : -1, x > 0 ? c - 1 : -1, x + 1 < w ? c + 1 : -1};
        reached++;
        for (int d = 0; d < 4; d++)
            if (next[d] >= 0 && !seen[next[d]] && g[next[d]] == '.')
            {
                seen[next[d]] = 1;
                stack[top++] = next[d];
            }
    }
    return reached == open;
}

/* The load-time solidity (row masks up to 64x64, a flood fill above) agrees
 * with a plain flood fill on random shapes of every size up to 70x70. */
TEST(prefab_solid_matches_a_flood_fill)
{
    enum { MAX = 70, SHAPES = 400 };
    char *text = malloc(SHAPES * (MAX + 1) * MAX + SHAPES * 64 + 64), grid[MAX * MAX];
    int32_t *stack = malloc(MAX * MAX * sizeof *stack), want[SHAPES];
    uint8_t seen[MAX * MAX];
    if (!text || !stack)
        goto done;
    dg_rng rng;
    dg_rng_seed(&rng, 99, 0);
    size_t k = (size_t)sprintf(text, "prefabs 1\n");
    for (int s = 0; s < SHAPES; s++)
    {
        int32_t w = 1 + (int32_t)dg_rng_below(&rng, MAX), h = 1 + (int32_t)dg_rng_below(&rng, MAX);
        uint32_t walls = dg_rng_below(&rng, 60); /* percent */
        for (int32_t i = 0; i < w * h; i++)
        {
            uint32_t r = dg_rng_below(&rng, 100);
            grid[i] = r < walls ? '#' : r < walls + 4 ? '?' : '.';
        }
        grid[0] = '?'; /* the pick needs a cell */
        want[s] = reference_solid(grid, w, h, stack, seen);
        k += (size_t)sprintf(text + k, "prefab s%d\n  pick ? = .:1 #:1\nmap\n", s);
        for (int32_t y = 0; y < h; y++)
        {
            memcpy(text + k, grid + y * w, (size_t)w);
            k += (size_t)w;
            text[k++] = '\n';
        }
        k += (size_t)sprintf(text + k, "end\n");
    }
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = dg_prefab_parse(text, k, "solid", NULL, NULL, NULL, &set, &d);
    CHECKF(st == DG_OK, "%s", d.message);
    for (int s = 0; st == DG_OK && s < SHAPES; s++)
        CHECKF(set->prefabs[s].solid == want[s], "shape %d: solid %d, flood fill %d", s,
               (int)set->prefabs[s].solid, (int)want[s]);
    dg_prefab_set_free(set);
done:
    free(text);
    free(stack);
}

/* ---- r1p: tile range, repeated legend keys, count bounds, void islands,
 * the file size limit, the wide bounded draw -------------------------------- */

TEST(r1p_legend_tile_in_reserved_range_is_rejected)
{
    static const char *const bad[] = {"12", "20", "63"};
    for (int i = 0; i < 3; i++)
    {
        char text[160];
        snprintf(text, sizeof text, "prefabs 1\nlegend\n  M wall machine tile %s\nend\nprefab m\nmap\nM#\nend\n",
                 bad[i]);
        errors e;
        parse_errors(text, &e);
        CHECKF(has_error(&e, 3, 23, "reserved"), "tile %s", bad[i]);
    }
    static const char *const good[] = {"0", "11", "64", "255", "water"};
    for (int i = 0; i < 5; i++)
    {
        char text[160];
        snprintf(text, sizeof text, "prefabs 1\nlegend\n  M wall machine tile %s\nend\nprefab m\nmap\nM#\nend\n",
                 good[i]);
        dg_prefab_set_free(parse_ok(text));
    }
}

TEST(r1p_legend_key_given_twice_is_rejected)
{
    errors e;
    parse_errors("prefabs 1\n"
                 "legend\n"
                 "  a marker box tile 3 tile 4\n"
                 "  b actor orc on ground on wall\n"
                 "  c trap pit kind item kind exit\n"
                 "  d trap pit on wall tile 3 kind item\n" /* each once: fine */
                 "end\n",
                 &e);
    CHECK(e.n == 3);
    CHECK(has_error(&e, 3, 23, "'tile' is given twice in this legend entry"));
    CHECK(has_error(&e, 4, 25, "'on' is given twice in this legend entry"));
    CHECK(has_error(&e, 5, 24, "'kind' is given twice in this legend entry"));
    if (e.n != 3)
        dump_errors(&e);
}

/* A 4-cell map of x, `pick x = x x` doubled `lines` times, then x becomes b
 * or '.', and b is required 0-1 times. */
static char *doubling_picks(int lines)
{
    char *text = malloc(4096);
    size_t k = (size_t)sprintf(text, "prefabs 1\nlegend\n  b marker box\nend\nprefab p\n  orient none\n");
    for (int i = 0; i < lines; i++)
        k += (size_t)sprintf(text + k, "  pick x = x x\n");
    sprintf(text + k, "  pick x = b .\n  require b 0-1\nmap\nxx\nxx\nend\n");
    return text;
}

TEST(r1p_chained_picks_do_not_overflow_the_count_bound)
{
    /* 4 * 2^29 cells is 2^31: a 32-bit bound went negative and the file was
     * rejected ("the map has 0 to -2147483648 such cells") */
    char *text = doubling_picks(29);
    dg_prefab_set *set = parse_ok(text);
    if (set)
        CHECK(set->reqs[0].always == 0);
    dg_prefab_set_free(set);
    free(text);
}

TEST(r1p_chained_picks_keep_the_require_checked)
{
    /* 4 * 2^30 wrapped to 0: the require looked always true and was skipped,
     * so stamps returned OK with up to 4 b cells */
    char *text = doubling_picks(30);
    dg_prefab_set *set = parse_ok(text);
    int ok = 0;
    for (uint64_t seed = 0; set && seed < 64; seed++)
    {
        uint8_t cells[4] = {0, 0, 0, 0};
        dg_grid g = {cells, 2, 2, 2};
        dg_result r; /* b is a marker: one per b cell */
        dg_result_init(&r, NULL);
        dg_status st = dg_prefab_stamp(set, 0, DG_ORIENT_IDENTITY, seed, &g, 0, 0, &r, NULL);
        CHECK(st == DG_OK || st == DG_E_LIMIT);
        ok += st == DG_OK;
        CHECKF(st != DG_OK || r.marker_count <= 1, "seed %d: %d b cells, require b 0-1", (int)seed,
               (int)r.marker_count);
        dg_result_free(&r);
    }
    CHECK(set == NULL || ok > 0);
    dg_prefab_set_free(set);
    free(text);
}

TEST(r1p_all_void_island_prefab_is_rejected_at_load)
{
    errors e;
    parse_errors("prefabs 1\n"
                 "prefab ghost\n"       /* every mode by default, island among them */
                 "map\n"
                 "__\n"
                 "end\n"
                 "prefab ghost2\n"
                 "  mode island\n"
                 "  legend\n"
                 "    ~ void\n"
                 "  end\n"
                 "  pick ? = _ ~\n"     /* void in every outcome */
                 "map\n"
                 "?_\n"
                 "end\n",
                 &e);
    CHECK(e.n == 2);
    CHECK(has_error(&e, 2, 1, "prefab 'ghost' is void in every cell, so it cannot be an island"));
    CHECK(has_error(&e, 6, 1, "prefab 'ghost2' is void in every cell"));
    /* without island, or with a cell that may be solid, it loads */
    dg_prefab_set_free(parse_ok("prefabs 1\nprefab a\n  mode full jigsaw\nmap\n__\nend\n"
                                "prefab b\n  mode island\n  pick ? = _ .\nmap\n?_\nend\n"));
}

TEST(r1p_islands_skip_an_empty_outcome)
{
    /* One cell that is void or floor by a coin flip, placed as many times as
     * fit. An all-void outcome fits anywhere: it was placed (a room with no
     * cell) and kept the loop going; now it is a try without a place. */
    dg_prefab_set *set = parse_ok("prefabs 1\nprefab coin\n  mode island\n  margin 0\n"
                                  "  pick ? = _ .\nmap\n?\nend\n");
    dg_prefab_group group = {NULL, 0, -1, 0};
    dg_prefab_islands_params p;
    dg_prefab_islands_defaults(&p);
    p.groups = &group;
    p.group_count = 1;
    p.fill = DG_TILE_WALL;
    p.connected = 0;
    p.max_failures = 8;
    p.positions = 4;
    for (uint64_t seed = 0; set && seed < 8; seed++)
    {
        uint8_t cells[12 * 10];
        dg_grid g = {cells, 12, 10, 12};
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_prefab_islands_generate(&g, set, &p, seed, &r, NULL, NULL) == DG_OK);
        int32_t floor = 0;
        for (int i = 0; i < 12 * 10; i++)
            floor += cells[i] == DG_TILE_FLOOR;
        CHECKF(r.room_count == floor && floor > 0, "seed %d: %d rooms, %d floor cells", (int)seed,
               (int)r.room_count, (int)floor);
        CHECK(r.room_count <= 12 * 10);
        dg_result_free(&r);
    }
    dg_prefab_set_free(set);
}

/* An allocator that refuses (and remembers) any block over the file limit. */
typedef struct capped {
    size_t largest;
    int refused;
} capped;

static void *capped_alloc(void *user, size_t size)
{
    capped *c = user;
    c->largest = size > c->largest ? size : c->largest;
    if (size > DGI_PREFAB_FILE_MAX)
    {
        c->refused = 1;
        return NULL;
    }
    return malloc(size);
}

static void capped_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

TEST(r1p_load_stops_at_the_file_limit)
{
    FILE *probe = fopen("/dev/zero", "rb");
    if (!probe)
        return; /* no endless stream here */
    fclose(probe);
    capped c = {0, 0};
    dg_allocator a = {capped_alloc, capped_free, &c};
    dg_prefab_set *set = (dg_prefab_set *)&c;
    dg_diag d;
    CHECK(dg_prefab_load("/dev/zero", &a, NULL, NULL, &set, &d) == DG_E_TOO_LARGE);
    CHECK(set == NULL);
    CHECK(d.status == DG_E_TOO_LARGE);
    CHECKF(strstr(d.message, "/dev/zero: file over 64 MiB") != NULL, "%s", d.message);
    CHECK(!c.refused && c.largest == DGI_PREFAB_FILE_MAX);
}

TEST(r1p_below64_wide_draws_the_high_half_first)
{
    dg_rng a, b;
    dgi_rng_seed(&a, 42, 7);
    dgi_rng_seed(&b, 42, 7);
    uint64_t bound = (1ULL << 40) + 12345;
    for (int i = 0; i < 100; i++)
    {
        uint64_t v = dgi_below64(&a, bound), want;
        do
        {
            uint64_t high = dgi_rng_next(&b);
            want = ((high << 32) | dgi_rng_next(&b)) & ((1ULL << 41) - 1);
        } while (want >= bound);
        CHECK_EQ_U64(v, want);
    }
}

/* ---- parse results pinned over mutated example files -------------------------- */

/* Folds what parsing says about an input: every reported diagnostic, the
 * status, the first diagnostic and the set's hash. */
typedef struct parse_fold {
    uint64_t h;
} parse_fold;

static void fold_u64(parse_fold *f, uint64_t v)
{
    f->h = (f->h ^ v) * 0x100000001B3ULL;
}

static void fold_diag(parse_fold *f, const dg_diag *d)
{
    fold_u64(f, (uint64_t)(uint32_t)d->status);
    fold_u64(f, (uint64_t)(uint32_t)d->line << 32 | (uint32_t)d->column);
    for (const char *c = d->message; *c; c++)
        fold_u64(f, (uint8_t)*c);
}

static void fold_on_error(void *user, const dg_diag *d)
{
    fold_diag(user, d);
}

static void fold_parse(parse_fold *f, const char *text, size_t len)
{
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = dg_prefab_parse(text, len, "m", NULL, fold_on_error, f, &set, &d);
    fold_u64(f, (uint64_t)(uint32_t)st);
    fold_diag(f, &d);
    fold_u64(f, dg_prefab_set_hash(set));
    dg_prefab_set_free(set);
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Mutation k of text into out: a cut (k % 4 == 0) or one to three bytes
 * replaced, from a pool of the format's own characters or any byte. */
static size_t mutate(const char *text, size_t len, uint64_t *x, int k, char *out)
{
    static const char pool[] = " \t\n\r;#.+^_@?*=:x-019amelpvbrtA\x80\xff\x01\x7f";
    memcpy(out, text, len);
    if (k % 4 == 0)
        return (size_t)(xorshift(x) % (len + 1));
    for (int j = 0, flips = 1 + (int)(xorshift(x) % 3); j < flips; j++)
    {
        uint64_t r = xorshift(x);
        out[(r >> 8) % len] = k % 4 == 1 ? (char)(r >> 40) : pool[(r >> 40) % (sizeof pool - 1)];
    }
    return len;
}

/* Every example file whole and in 400 mutations (cuts and replaced bytes
 * from a fixed seed): each status, diagnostic (text, line, column) and set
 * hash folded into one value, pinned from the parser as it was before it was
 * made faster, so any change in what the parser says shows up here (an edit
 * of an example file moves the pin too: re-pin it with the parser unchanged). */
TEST(prefab_parse_mutated_examples_pinned)
{
    static const char *const files[] = {"factory.txt", "forest.txt", "furnish.txt", "shaft.txt",
                                        "vaults.txt"};
    static char text[1 << 16], out[1 << 16];
    parse_fold f = {0xCBF29CE484222325ULL};
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 5; i++)
    {
        char path[128];
        snprintf(path, sizeof path, "examples/prefabs/%s", files[i]);
        FILE *fp = fopen(path, "rb");
        CHECKF(fp != NULL, "cannot open %s (run from the repository root)", path);
        if (!fp)
            return;
        size_t len = fread(text, 1, sizeof text, fp);
        fclose(fp);
        CHECK(len > 0 && len < sizeof text);
        fold_parse(&f, text, len);
        for (int k = 0; k < 400; k++)
            fold_parse(&f, out, mutate(text, len, &x, k, out));
    }
    CHECK_EQ_U64(f.h, 0xea099812d8859352ULL);
}
