/* One place for each fact: the registry's parameter tables (lib/core/params.c)
 * are the source of every default, range and help line. These tests check the
 * copies that remain words: every "(default ...)" in a params struct field
 * comment of include/dungeon.h must agree with the table, and every table
 * parameter's field comment must state its default. Then the room-count
 * ranges of chain and scatter, where a rooms_min given alone (rooms_max left
 * at its default, the limit) follows the area rule for the other end instead
 * of drawing up to a million rooms. */
#include "test.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading include/dungeon.h ---------------------------------------------- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    while (s)
    {
        size_t n = fread(s + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
        if (len + 1 == cap)
        {
            char *t = realloc(s, cap * 2);
            if (!t)
            {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

/* A number as the header writes one: decimal or hex, optional minus, an
 * optional integer suffix. 1 and *v if all of s[0..len) is one. */
static int parse_number(const char *s, size_t len, long long *v)
{
    char buf[40];
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!(isdigit((unsigned char)buf[0]) || (buf[0] == '-' && isdigit((unsigned char)buf[1]))))
        return 0;
    char *end;
    long long x = strtoll(buf, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    if (*end)
        return 0;
    *v = x;
    return 1;
}

/* The value of a DG_ constant: an enum entry "NAME = value" or a
 * "#define NAME value" in the header. 1 if found and numeric. */
static int header_constant(const char *h, const char *name, long long *v)
{
    size_t n = strlen(name);
    for (const char *p = strstr(h, name); p; p = strstr(p + 1, name))
    {
        if (p > h && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p + n;
        if (isalnum((unsigned char)*q) || *q == '_')
            continue;
        int is_define = p >= h + 8 && strncmp(p - 8, "#define ", 8) == 0;
        while (*q == ' ' || *q == '\t')
            q++;
        if (!is_define)
        {
            if (*q != '=')
                continue;
            q++;
        }
        size_t len = strcspn(q, ",}\n/");
        if (parse_number(q, len, v))
            return 1;
    }
    return 0;
}

/* One declaration of a params struct: its field names and the comment after
 * it (and any comment lines before it), whitespace collapsed. */
typedef struct decl {
    char names[4][40];
    int count;
    char comment[1024];
} decl;

static void append_comment(char *dst, size_t cap, const char *s, size_t len)
{
    size_t at = strlen(dst);
    for (size_t i = 0; i < len && at + 2 < cap; i++)
    {
        char c = s[i];
        if (c == '\n' || c == '\t')
            c = ' ';
        if (c == '*' && (i + 1 >= len || s[i + 1] == ' ' || s[i + 1] == '\n') &&
            (at == 0 || dst[at - 1] == ' '))
            continue; /* a continuation line's leading star */
        if (c == ' ' && (at == 0 || dst[at - 1] == ' '))
            continue;
        dst[at++] = c;
    }
    if (at && dst[at - 1] != ' ' && at + 1 < cap)
        dst[at++] = ' ';
    dst[at] = '\0';
}

/* The declarations of `typedef struct NAME {...} NAME;` in h, at most max. */
static int struct_decls(const char *h, const char *name, decl *out, int max)
{
    char open[96], close[96];
    snprintf(open, sizeof open, "typedef struct %s {", name);
    snprintf(close, sizeof close, "} %s;", name);
    const char *p = strstr(h, open), *end = strstr(h, close);
    if (!p || !end || end < p)
        return -1;
    p += strlen(open);
    int n = 0;
    char pending[1024] = "";
    while (p < end)
    {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end)
            break;
        if (p[0] == '/' && p[1] == '*')
        {
            const char *c = strstr(p + 2, "*/");
            if (!c || c > end)
                return -1;
            append_comment(pending, sizeof pending, p + 2, (size_t)(c - p - 2));
            p = c + 2;
            continue;
        }
        const char *semi = memchr(p, ';', (size_t)(end - p));
        if (!semi || n >= max)
            return -1;
        decl *d = &out[n++];
        memset(d, 0, sizeof *d);
        /* "type a, b[4]": names are the identifiers after the type, with
         * array bounds and pointer stars dropped */
        const char *q = p;
        while (q < semi && (isalnum((unsigned char)*q) || *q == '_'))
            q++; /* the type's first word */
        if (strncmp(p, "const ", 6) == 0 || strncmp(p, "struct ", 7) == 0)
        {
            while (q < semi && isspace((unsigned char)*q))
                q++;
            while (q < semi && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
        }
        while (q < semi && d->count < 4)
        {
            while (q < semi && (isspace((unsigned char)*q) || *q == '*' || *q == ','))
                q++;
            const char *s = q;
            while (q < semi && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            if (q > s && (size_t)(q - s) < sizeof d->names[0])
                memcpy(d->names[d->count++], s, (size_t)(q - s));
            while (q < semi && *q != ',')
                q++;
        }
        snprintf(d->comment, sizeof d->comment, "%s", pending);
        pending[0] = '\0';
        p = semi + 1;
        /* a comment that starts on the declaration's line is its own */
        const char *c = p;
        while (c < end && (*c == ' ' || *c == '\t'))
            c++;
        if (c[0] == '/' && c[1] == '*')
        {
            const char *e = strstr(c + 2, "*/");
            if (!e || e > end)
                return -1;
            append_comment(d->comment, sizeof d->comment, c + 2, (size_t)(e - c - 2));
            p = e + 2;
        }
    }
    return n;
}

/* The value a default's words name for parameter p, given the field's whole
 * comment: a number, a DG_ constant, a name among an enumeration's choices
 * ("growing tree" is growing_tree), or a word completing a "DG_PREFIX_*" the
 * comment mentions ("DG_GROWTH_* (default uniform)" is DG_GROWTH_UNIFORM). */
static int default_value(const char *h, const dg_param_desc *p, const char *comment,
                         const char *s, size_t len, long long *v)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    char word[64];
    if (len == 0 || len >= sizeof word)
        return 0;
    if (parse_number(s, len, v))
        return 1;
    memcpy(word, s, len);
    word[len] = '\0';
    if (strncmp(word, "DG_", 3) == 0)
        return header_constant(h, word, v);
    for (char *w = word; *w; w++)
        if (*w == ' ' || *w == '-')
            *w = '_';
    if (p->type == DG_PARAM_ENUM && p->choices)
    {
        long long index = 0;
        for (const char *c = p->choices; *c; index++)
        {
            size_t n = strcspn(c, "|");
            if (n == strlen(word) && strncmp(c, word, n) == 0)
            {
                *v = index;
                return 1;
            }
            c += n + (c[n] == '|');
        }
    }
    for (const char *star = strstr(comment, "_* "); star; star = strstr(star + 1, "_* "))
    {
        const char *b = star;
        while (b > comment && (isupper((unsigned char)b[-1]) || isdigit((unsigned char)b[-1]) || b[-1] == '_'))
            b--;
        char name[128];
        int n = snprintf(name, sizeof name, "%.*s_", (int)(star - b), b);
        for (const char *w = word; *w && n + 1 < (int)sizeof name; w++)
            name[n++] = (char)toupper((unsigned char)*w);
        name[n] = '\0';
        if (strncmp(name, "DG_", 3) == 0 && header_constant(h, name, v))
            return 1;
    }
    return 0;
}

/* Checks one table parameter against its declaration; 0 if they disagree
 * (and says why on stderr). */
static int check_param(const char *h, const char *gen, const dg_param_desc *p, const decl *d,
                       int position)
{
    const char *at = strstr(d->comment, "(default ");
    if (!at)
    {
        fprintf(stderr, "    include/dungeon.h: %s.%s: the field comment states no default "
                        "(the table's is %d)\n", gen, p->name, (int)p->def);
        return 0;
    }
    at += strlen("(default ");
    size_t len = 0;
    for (int depth = 0; at[len] && !(at[len] == ')' && depth == 0); len++)
        depth += at[len] == '(' ? 1 : at[len] == ')' ? -1 : 0;
    /* the value: up to the first ';' or ':' (what follows explains it); a pair
     * declaration "a, b" gives "lo..hi", "lo, hi", or one value for both */
    size_t cut = strcspn(at, ";:");
    if (cut < len)
        len = cut;
    const char *s = at;
    size_t n = len;
    if (d->count > 1)
    {
        const char *dots = strstr(at, "..");
        const char *comma = memchr(at, ',', len);
        const char *sep = dots && dots < at + len ? dots : comma;
        size_t seplen = sep == dots ? 2 : 1;
        if (sep)
        {
            if (position == 0)
                n = (size_t)(sep - at);
            else
                s = sep + seplen, n = len - (size_t)(sep + seplen - at);
        }
    }
    else
    {
        const char *comma = memchr(at, ',', len);
        if (comma)
            n = (size_t)(comma - at);
    }
    long long v;
    if (!default_value(h, p, d->comment, s, n, &v))
    {
        fprintf(stderr, "    include/dungeon.h: %s.%s: cannot read the default '%.*s' (the table's is %d)\n",
                gen, p->name, (int)len, at, (int)p->def);
        return 0;
    }
    if (v != p->def)
    {
        fprintf(stderr, "    include/dungeon.h: %s.%s: the comment says default %.*s (%lld), "
                        "the table %d\n", gen, p->name, (int)len, at, v, (int)p->def);
        return 0;
    }
    return 1;
}

TEST(params_header_defaults_agree_with_tables)
{
    char *h = read_text("include/dungeon.h");
    CHECK(h != NULL);
    if (!h)
        return;
    int checked = 0;
    for (int32_t g = 0; g < dg_generator_count(); g++)
    {
        dg_generator_info info;
        CHECK(dg_generator_get(g, &info) == DG_OK);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        char sname[64];
        int k = snprintf(sname, sizeof sname, "dg_%s_params", info.name);
        CHECK(k > 0 && k < (int)sizeof sname);
        for (char *c = sname; *c; c++)
            if (*c == '-')
                *c = '_';
        decl decls[48];
        int n = struct_decls(h, sname, decls, 48);
        CHECKF(n > 0, "include/dungeon.h: no readable typedef struct %s", sname);
        for (int32_t i = 0; i < info.param_count; i++)
        {
            const dg_param_desc *p = &info.params[i];
            const decl *d = NULL;
            int position = 0;
            for (int j = 0; j < n && !d; j++)
                for (int f = 0; f < decls[j].count; f++)
                    if (strcmp(decls[j].names[f], p->name) == 0)
                        d = &decls[j], position = f;
            CHECKF(d != NULL, "include/dungeon.h: %s has no field %s", sname, p->name);
            if (d)
            {
                CHECKF(check_param(h, info.name, p, d, position), "%s.%s", info.name, p->name);
                checked++;
            }
        }
    }
    CHECK(checked > 100); /* every table was read */
    free(h);
}

/* The parser itself, on made-up declarations: it must find a wrong default. */
TEST(params_header_parser_finds_wrong_defaults)
{
    const char *h =
        "#define DG_X_LIMIT 0x10\n"
        "enum { DG_X_MODE_A = 0, DG_X_MODE_B = 1 };\n"
        "typedef struct dg_x_params {\n"
        "    int32_t lo, hi;   /* a range (default 3..9) */\n"
        "    int32_t mode;     /* DG_X_MODE_* (default b) */\n"
        "    int32_t cap;      /* a cap, spanning\n"
        "                       * two lines (default DG_X_LIMIT, sixteen) */\n"
        "    int32_t quiet;    /* no default here */\n"
        "} dg_x_params;\n";
    decl d[8];
    CHECK(struct_decls(h, "dg_x_params", d, 8) == 4);
    CHECK(d[0].count == 2 && strcmp(d[0].names[1], "hi") == 0);
    dg_param_desc p = {"lo", "", NULL, DG_PARAM_INT, 0, 100, 3, 0, 0};
    CHECK(check_param(h, "x", &p, &d[0], 0));
    p.name = "hi", p.def = 9;
    CHECK(check_param(h, "x", &p, &d[0], 1));
    p.def = 8;
    fprintf(stderr, "    (a disagreement is expected on the next line)\n");
    CHECK(!check_param(h, "x", &p, &d[0], 1));
    p.name = "mode", p.def = 1;
    CHECK(check_param(h, "x", &p, &d[1], 0));
    p.name = "cap", p.def = 16;
    CHECK(check_param(h, "x", &p, &d[2], 0));
    p.name = "quiet", p.def = 0;
    fprintf(stderr, "    (a missing default is expected on the next line)\n");
    CHECK(!check_param(h, "x", &p, &d[3], 0));
}

/* ---- room counts: an end given alone follows the area rule ----------------------- */

static const dg_param_desc *find_param(const char *gen, const char *name)
{
    int32_t n;
    const dg_param_desc *t = dg_generator_params(gen, &n);
    for (int32_t i = 0; t && i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

/* The by-area high end for a w x h grid with a border: 8 per 1000 usable
 * cells, at least the low end, at least 2 (docs/chain.md, docs/scatter.md). */
static int32_t area_high(int32_t w, int32_t h)
{
    int64_t usable = (int64_t)(w - 2) * (h - 2);
    int64_t lo = usable * 6 / 1000 > 2 ? usable * 6 / 1000 : 2;
    int64_t hi = usable * 8 / 1000;
    return (int32_t)(hi > lo ? hi : lo);
}

/* rooms_max at its limit (the default) is "no maximum given", so the maps
 * made at the defaults are the ones made before; a maximum below the limit
 * is a real upper end, with or without rooms_min. */
TEST(params_rooms_max_default_is_none_given)
{
    const char *gens[] = {"chain", "scatter"};
    const int32_t limits[] = {DG_CHAIN_MAX_ROOMS, DG_SCATTER_MAX_ROOMS};
    for (int i = 0; i < 2; i++)
    {
        const dg_param_desc *mn = find_param(gens[i], "rooms_min");
        const dg_param_desc *mx = find_param(gens[i], "rooms_max");
        CHECK(mn && mx);
        if (mn && mx)
            CHECKF(mn->def == 0 && mx->def == limits[i] && mx->max == limits[i], "%s", gens[i]);
    }
    enum { W = 80, H = 50 };
    static uint8_t cells[W * H];
    dg_grid g;
    dg_grid_init(&g, cells, W, H, 0);
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 1; seed <= 6; seed++)
    {
        dg_chain_params p;
        dg_chain_defaults(&p);
        p.rooms_min = 20, p.rooms_max = 25;
        CHECK(dg_chain_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.requested >= 20 && r.metrics.requested <= 25);
        p.rooms_min = 40, p.rooms_max = 60; /* above the area's count, but asked for */
        CHECK(dg_chain_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.requested >= 40 && r.metrics.requested <= 60);
        dg_scatter_params q;
        dg_scatter_defaults(&q);
        q.rooms_min = 10, q.rooms_max = 12;
        CHECK(dg_scatter_generate(&g, &q, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.requested >= 10 && r.metrics.requested <= 12);
    }
    dg_result_free(&r);
}

/* issue 28 item 13: `dungeon --gen chain --param rooms_min=5` drew the count
 * from 5..1000000 (about 600000 overlapping rooms, one floor rectangle). */
TEST(params_chain_rooms_min_alone_follows_area)
{
    enum { W = 80, H = 25 };
    uint8_t cells[W * H];
    dg_grid g;
    dg_grid_init(&g, cells, W, H, 0);
    int32_t hi = area_high(W, H); /* 14 */
    for (uint64_t seed = 1; seed <= 8; seed++)
    {
        dg_chain_params p;
        dg_chain_defaults(&p);
        p.rooms_min = 5;
        dg_result r;
        dg_result_init(&r, NULL);
        CHECK(dg_chain_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECKF(r.metrics.requested >= 5 && r.metrics.requested <= hi, "seed %d: %d rooms asked",
               (int)seed, (int)r.metrics.requested);
        CHECK(r.metrics.floor_permille < 900);
        /* above the area's high end, the minimum itself is the count */
        p.rooms_min = hi + 10;
        CHECK(dg_chain_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.requested == hi + 10);
        /* the maximum alone caps the area's range */
        p.rooms_min = 0, p.rooms_max = 3;
        CHECK(dg_chain_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECK(r.metrics.requested >= 2 && r.metrics.requested <= 3);
        dg_result_free(&r);
    }
}

TEST(params_chain_rooms_min_alone_too_many_refused)
{
    enum { W = 80, H = 25 };
    uint8_t cells[W * H];
    memset(cells, 0x5A, sizeof cells);
    dg_grid g;
    dg_grid_init(&g, cells, W, H, 0);
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.rooms_min = 600000;
    dg_diag d;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECKF(strstr(d.message, "rooms_min") != NULL, "%s", d.message);
    CHECK(cells[0] == 0x5A && cells[W * H - 1] == 0x5A);
    p.rooms_min = 78 * 23 / 12 + 1; /* one more than the area holds at 4x3 */
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    p.rooms_min = 78 * 23 / 12;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_OK);
    /* both ends given: asked for, so made (overlapping rooms) */
    p.rooms_min = p.rooms_max = 400;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_OK);
    /* an inverted explicit range is still refused by its name */
    p.rooms_min = 20, p.rooms_max = 2;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "rooms range") != NULL);
    p.rooms_min = 0, p.rooms_max = -1;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    p.rooms_min = DG_CHAIN_MAX_ROOMS + 1, p.rooms_max = DG_CHAIN_MAX_ROOMS;
    CHECK(dg_chain_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
}

TEST(params_scatter_rooms_min_alone_follows_area)
{
    enum { W = 80, H = 50 };
    static uint8_t cells[W * H];
    dg_grid g;
    dg_grid_init(&g, cells, W, H, 0);
    int32_t hi = area_high(W, H);
    dg_scatter_params p;
    dg_scatter_defaults(&p);
    p.rooms_min = 5;
    dg_result r;
    dg_result_init(&r, NULL);
    for (uint64_t seed = 1; seed <= 6; seed++)
    {
        CHECK(dg_scatter_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
        CHECKF(r.metrics.requested >= 5 && r.metrics.requested <= hi, "seed %d: %d rooms asked",
               (int)seed, (int)r.metrics.requested);
    }
    dg_result_free(&r);
    dg_diag d;
    memset(cells, 0x5A, sizeof cells);
    p.rooms_min = 5000;
    CHECK(dg_scatter_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECKF(strstr(d.message, "rooms_min") != NULL, "%s", d.message);
    CHECK(cells[0] == 0x5A);
    p.rooms_min = 9, p.rooms_max = 8;
    CHECK(dg_scatter_generate(&g, &p, 1, NULL, NULL, &d) == DG_E_INVALID);
    CHECK(strstr(d.message, "rooms_min") != NULL);
}

/* The registry path (tool, recipes): rooms_min alone follows the area rule,
 * and an inverted range is refused naming both keys. */
TEST(params_recipe_rooms_min_alone)
{
    const char *gens[] = {"chain", "scatter"};
    for (int i = 0; i < 2; i++)
    {
        char text[128];
        snprintf(text, sizeof text, "%s seed=3 width=80 height=25 rooms_min=5", gens[i]);
        dg_recipe rec;
        dg_diag d;
        CHECK(dg_recipe_parse(text, strlen(text), &rec, &d) == DG_OK);
        uint8_t cells[80 * 25];
        dg_grid g;
        dg_grid_init(&g, cells, 80, 25, 0);
        dg_result r;
        dg_result_init(&r, NULL);
        CHECKF(dg_recipe_generate(&rec, &g, NULL, &r, NULL, &d) == DG_OK, "%s: %s", gens[i], d.message);
        CHECKF(r.metrics.requested >= 5 && r.metrics.requested <= area_high(80, 25), "%s: %d",
               gens[i], (int)r.metrics.requested);
        dg_result_free(&r);
        snprintf(text, sizeof text, "%s seed=3 width=80 height=25 rooms_min=6 rooms_max=5", gens[i]);
        CHECK(dg_recipe_parse(text, strlen(text), &rec, &d) == DG_OK);
        CHECK(dg_recipe_generate(&rec, &g, NULL, NULL, NULL, &d) == DG_E_INVALID);
        CHECKF(strstr(d.message, "rooms_min") != NULL, "%s", d.message);
    }
}
