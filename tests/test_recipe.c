/* Parameter tables, recipes (print/parse round trips for every parameter of
 * every generator, clear errors) and the generator registry. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* The sample prefab set and map size each registered generator is tested
 * with (examples/prefabs/, read from the repository root): NULL and 64 x 48
 * for generators that need none. world is furnished to get markers. */
dg_prefab_set *recipe_sample_set(const char *generator, int32_t *width, int32_t *height);
dg_prefab_set *recipe_sample_set(const char *generator, int32_t *width, int32_t *height)
{
    static const struct { const char *gen, *file; int32_t w, h; } samples[] = {
        {"prefab-full", "shaft.txt", 56, 26},     {"prefab-jigsaw", "forest.txt", 84, 50},
        {"prefab-islands", "factory.txt", 80, 50}, {"prefab-mixed", "vaults.txt", 80, 50},
        {"world", "furnish.txt", 64, 48},
    };
    *width = 64;
    *height = 48;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        if (strcmp(samples[i].gen, generator) == 0)
        {
            char path[128];
            dg_prefab_set *set = NULL;
            snprintf(path, sizeof path, "examples/prefabs/%s", samples[i].file);
            CHECKF(dg_prefab_load(path, NULL, NULL, NULL, &set, NULL) == DG_OK, "load %s", path);
            *width = samples[i].w;
            *height = samples[i].h;
            return set;
        }
    return NULL;
}

static void value_text(const dg_param_desc *p, int32_t v, int by_name, char *buf, size_t size)
{
    if (by_name && p->type == DG_PARAM_ENUM)
    {
        const char *c = p->choices;
        for (int32_t i = 0; i < v; i++)
            c += strcspn(c, "|") + 1;
        snprintf(buf, size, "%.*s", (int)strcspn(c, "|"), c);
    }
    else if (by_name && p->type == DG_PARAM_BOOL)
        snprintf(buf, size, "%s", v ? "true" : "false");
    else
        snprintf(buf, size, "%d", (int)v);
}

TEST(recipe_tables_match_generator_defaults)
{
    CHECK(dg_generator_count() >= 1);
    for (int32_t gi = 0; gi < dg_generator_count(); gi++)
    {
        dg_generator_info info;
        CHECK(dg_generator_get(gi, &info) == DG_OK);
        CHECK(dg_generator_find(info.name) == gi);
        CHECK(info.summary && info.summary[0]);
        CHECK(info.param_count >= !info.needs_graph && info.param_count <= DG_RECIPE_MAX_PARAMS);
        CHECK(info.params_size > 0 && info.params_size <= 1024);
        int32_t count;
        CHECK(dg_generator_params(info.name, &count) == info.params && count == info.param_count);
        _Alignas(max_align_t) unsigned char params[1024];
        CHECK(dg_params_defaults(info.name, params, sizeof params) == DG_OK);
        for (int32_t i = 0; i < info.param_count; i++)
        {
            const dg_param_desc *p = &info.params[i];
            int32_t v;
            CHECKF(p->offset >= 0 && p->offset % 4 == 0 &&
                       p->offset + 4 <= info.params_size, "%s.%s offset", info.name, p->name);
            memcpy(&v, params + p->offset, sizeof v);
            CHECKF(v == p->def, "%s.%s: table default %d, generator default %d", info.name,
                   p->name, (int)p->def, (int)v);
            CHECKF(p->min <= p->def && p->def <= p->max, "%s.%s default in range", info.name, p->name);
            CHECK(p->help && p->help[0] && strchr(p->help, '\n') == NULL);
            CHECK(p->type >= DG_PARAM_INT && p->type <= DG_PARAM_ENUM);
            if (p->type == DG_PARAM_BOOL)
                CHECK(p->min == 0 && p->max == 1);
            if (p->type == DG_PARAM_ENUM)
            {
                int32_t names = 1;
                for (const char *c = p->choices; *c; c++)
                    names += *c == '|';
                CHECKF(p->min == 0 && p->max == names - 1, "%s.%s choices", info.name, p->name);
            }
            for (int32_t j = 0; j < i; j++)
            {
                CHECK(strcmp(info.params[j].name, p->name) != 0);
                CHECK(info.params[j].offset != p->offset);
            }
            static const char *const reserved[] = {"seed", "width", "height", "version"};
            for (int k = 0; k < 4; k++)
                CHECK(strcmp(p->name, reserved[k]) != 0);
        }
    }
    CHECK(dg_generator_get(-1, NULL) == DG_E_NULL);
    dg_generator_info info;
    CHECK(dg_generator_get(dg_generator_count(), &info) == DG_E_INVALID);
    CHECK(dg_generator_find("no-such") == -1 && dg_generator_find(NULL) == -1);
    int32_t count = 7;
    CHECK(dg_generator_params("no-such", &count) == NULL && count == 0);
}

/* Every value class of every parameter survives print -> parse -> print. */
TEST(recipe_round_trip_every_parameter)
{
    for (int32_t gi = 0; gi < dg_generator_count(); gi++)
    {
        dg_generator_info info;
        dg_generator_get(gi, &info);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        for (int32_t i = 0; i < info.param_count; i++)
        {
            const dg_param_desc *p = &info.params[i];
            int32_t values[4] = {p->min, p->max, p->def, p->min + (p->max - p->min) / 3};
            for (int k = 0; k < 8; k++)
            {
                dg_recipe r, back;
                char text[32], line[4096], again[4096];
                dg_diag diag;
                CHECK(dg_recipe_init(&r, info.name, 0xFFFFFFFFFFFFFFFFull - (uint64_t)k, 7 + k, 9) == DG_OK);
                value_text(p, values[k % 4], k >= 4, text, sizeof text);
                CHECKF(dg_recipe_set(&r, p->name, text, &diag) == DG_OK, "%s %s=%s: %s", info.name,
                       p->name, text, diag.message);
                int32_t got;
                CHECK(dg_recipe_get(&r, p->name, &got) == DG_OK && got == values[k % 4]);
                size_t len;
                CHECK(dg_recipe_print(&r, line, sizeof line, &len) == DG_OK && len == strlen(line));
                memset(&back, 0x5A, sizeof back);
                CHECKF(dg_recipe_parse(line, len, &back, &diag) == DG_OK, "%s: %s", line, diag.message);
                CHECK(back.seed == r.seed && back.width == r.width && back.height == r.height);
                CHECK(back.version == DG_OUTPUT_VERSION && back.param_count == r.param_count);
                CHECK(strcmp(back.generator, r.generator) == 0);
                CHECK(memcmp(back.values, r.values, sizeof(int32_t) * (size_t)r.param_count) == 0);
                CHECK(dg_recipe_print(&back, again, sizeof again, NULL) == DG_OK && strcmp(line, again) == 0);
                /* and through the params struct */
                _Alignas(max_align_t) unsigned char params[1024];
                dg_recipe from;
                CHECK(dg_recipe_params(&r, params, sizeof params) == DG_OK);
                CHECK(dg_recipe_from_params(&from, info.name, params, sizeof params, r.seed, r.width,
                                            r.height, NULL) == DG_OK);
                CHECK(memcmp(from.values, r.values, sizeof(int32_t) * (size_t)r.param_count) == 0);
                if (test_failures())
                    return;
            }
        }
    }
}

/* Saving a dungeon is saving its recipe: the parsed line regenerates the same
 * bytes and the same structured result, for every registered generator. */
TEST(recipe_regenerates_same_map)
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
        for (uint64_t seed = 1; seed <= 3 && cells; seed++)
        {
            dg_recipe r, back;
            dg_grid g;
            dg_result res;
            char line[4096];
            CHECK(dg_recipe_init(&r, info.name, seed * 7919, w, h) == DG_OK);
            dg_grid_init(&g, cells, w, h, 0);
            dg_result_init(&res, NULL);
            dg_status st = dg_recipe_generate(&r, &g, set, &res, NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", info.name, (int)seed, dg_status_str(st));
            uint64_t first = dg_grid_hash(&g);
            int32_t rooms = res.room_count, markers = res.marker_count;
            dg_point exit = res.exit;
            CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
            CHECK(dg_recipe_parse(line, strlen(line), &back, NULL) == DG_OK);
            memset(cells, 0xEE, (size_t)w * (size_t)h);
            CHECK(dg_recipe_generate(&back, &g, set, &res, NULL, NULL) == DG_OK);
            CHECK_EQ_U64(dg_grid_hash(&g), first);
            CHECK(res.room_count == rooms && res.marker_count == markers);
            CHECK(res.exit.x == exit.x && res.exit.y == exit.y);
            dg_result_free(&res);
        }
        if (info.needs_prefabs)
        {
            dg_recipe r;
            dg_grid g;
            dg_diag diag;
            CHECK(dg_recipe_init(&r, info.name, 1, w, h) == DG_OK);
            dg_grid_init(&g, cells, w, h, 0);
            CHECK(dg_recipe_generate(&r, &g, NULL, NULL, NULL, &diag) == DG_E_NULL);
            CHECK(strstr(diag.message, "prefab") != NULL);
        }
        free(cells);
        dg_prefab_set_free(set);
    }
}

TEST(recipe_chain_matches_direct_call)
{
    dg_recipe r;
    const char *line = "chain seed=42 width=60 height=40 overlap=forbid loop_chance=300 start=first";
    CHECK(dg_recipe_parse(line, strlen(line), &r, NULL) == DG_OK);
    dg_chain_params p;
    dg_chain_defaults(&p);
    p.overlap = DG_CHAIN_OVERLAP_FORBID;
    p.loop_chance = 300;
    p.start = DG_CHAIN_START_FIRST;
    static uint8_t a[60 * 40], b[60 * 40];
    dg_grid ga, gb;
    dg_grid_init(&ga, a, 60, 40, 0);
    dg_grid_init(&gb, b, 60, 40, 0);
    CHECK(dg_chain_generate(&ga, &p, 42, NULL, NULL, NULL) == DG_OK);
    CHECK(dg_recipe_generate(&r, &gb, NULL, NULL, NULL, NULL) == DG_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    dg_chain_params q;
    CHECK(dg_recipe_params(&r, &q, sizeof q) == DG_OK && memcmp(&p, &q, sizeof p) == 0);
}

/* Expects parse failure with status, the column of `at` (its first occurrence
 * in text, just after it if it ends with '=', or 1 if NULL) and a message
 * containing needle; *r untouched. */
static void parse_fails(const char *text, dg_status want, const char *at, const char *needle)
{
    dg_recipe r;
    dg_diag diag;
    int32_t column = 1;
    const char *p = at ? strstr(text, at) : NULL;
    if (p)
        column = (int32_t)(p - text) + 1 + (at[strlen(at) - 1] == '=' ? (int32_t)strlen(at) : 0);
    memset(&r, 0x77, sizeof r);
    dg_status st = dg_recipe_parse(text, strlen(text), &r, &diag);
    CHECKF(st == want, "'%s': got %s", text, dg_status_str(st));
    CHECKF(diag.status == want && diag.line == 1 && diag.column == column,
           "'%s': line %d column %d, want column %d (%s)", text, (int)diag.line,
           (int)diag.column, (int)column, diag.message);
    CHECKF(strstr(diag.message, needle) != NULL, "'%s': message '%s' lacks '%s'", text,
           diag.message, needle);
    unsigned char untouched[sizeof r];
    memset(untouched, 0x77, sizeof untouched);
    CHECK(memcmp(&r, untouched, sizeof r) == 0);
}

TEST(recipe_parse_errors_name_the_column)
{
    parse_fails("", DG_E_PARSE, NULL, "empty");
    parse_fails("   \t ", DG_E_PARSE, NULL, "empty");
    parse_fails("nosuch seed=1", DG_E_PARSE, NULL, "unknown generator 'nosuch'");
    parse_fails("seed=1 chain", DG_E_PARSE, NULL, "unknown generator");
    parse_fails("chain seed=1 bogus=3", DG_E_PARSE, "bogus", "no parameter 'bogus'");
    parse_fails("chain width=12x", DG_E_PARSE, "12x", "not a whole number");
    parse_fails("chain width=0", DG_E_INVALID, "0", "out of range");
    parse_fails("chain  height=40000", DG_E_INVALID, "40000", "out of range");
    parse_fails("chain seed=-1", DG_E_PARSE, "-1", "unsigned");
    parse_fails("chain seed=18446744073709551616", DG_E_PARSE, "1844", "unsigned");
    parse_fails("chain room_min_w=", DG_E_PARSE, "room_min_w=", "not a whole number");
    parse_fails("chain room_min_w=99999999999", DG_E_INVALID, "999", "out of range");
    parse_fails("chain room_min_w=99999999999999999999", DG_E_PARSE, "999", "not a whole number");
    parse_fails("chain room_min_w=0", DG_E_INVALID, "0", "out of range");
    parse_fails("chain overlap=sideways", DG_E_PARSE, "sideways", "allow|forbid");
    parse_fails("chain overlap=2", DG_E_INVALID, "2", "out of range");
    parse_fails("chain border=maybe", DG_E_PARSE, "maybe", "not a whole number");
    parse_fails("chain seed=1 seed=2", DG_E_PARSE, "seed=2", "twice");
    parse_fails("chain overlap=allow overlap=forbid", DG_E_PARSE, "overlap=forbid", "twice");
    parse_fails("chain room_min_w", DG_E_PARSE, "room_min_w", "KEY=VALUE");
    parse_fails("chain =3", DG_E_PARSE, "=3", "KEY=VALUE");
    parse_fails("chain version=99", DG_E_INVALID, "99", "libdungeon 99, this is");
    /* 0.1 and 0.2 recipes say version=0: their maps may differ from 0.3's */
    parse_fails("chain version=0", DG_E_INVALID, "0", "0.1 or 0.2");
    parse_fails("chain version=0.2", DG_E_INVALID, "0.2", "libdungeon 0.2, this is");
    parse_fails("chain version=1.2", DG_E_PARSE, "1.2", "not a version");
    parse_fails("chain version=0.", DG_E_PARSE, "0.", "not a version");
    parse_fails("chain version=v1", DG_E_PARSE, "v1", "not a version");
    parse_fails("chain version=-0.3", DG_E_PARSE, "-0.3", "not a version");
    parse_fails("chain version=0.+3", DG_E_PARSE, "0.+3", "not a version");
}

TEST(recipe_parse_accepts_forms)
{
    dg_recipe r;
    const char *text = "\n  chain\tseed=0x10   width=20\r\nheight=10 overlap=1 start=first border=false \n";
    CHECK(dg_recipe_parse(text, strlen(text), &r, NULL) == DG_OK);
    int32_t v;
    CHECK(r.seed == 16 && r.width == 20 && r.height == 10);
    CHECK(dg_recipe_get(&r, "overlap", &v) == DG_OK && v == DG_CHAIN_OVERLAP_FORBID);
    CHECK(dg_recipe_get(&r, "start", &v) == DG_OK && v == DG_CHAIN_START_FIRST);
    CHECK(dg_recipe_get(&r, "border", &v) == DG_OK && v == 0);
    CHECK(dg_recipe_get(&r, "seed", &v) == DG_E_INVALID);
    /* keys left out keep their defaults; the text need not be NUL-terminated */
    const char buf[] = {'c', 'h', 'a', 'i', 'n', ' ', 's', 'e', 'e', 'd', '=', '9', '9'};
    CHECK(dg_recipe_parse(buf, 12, &r, NULL) == DG_OK && r.seed == 9);
    CHECK(r.width == 80 && r.height == 50 && r.version == DG_OUTPUT_VERSION);
    /* this library's own series is accepted, in the form it prints */
    char own[64];
    snprintf(own, sizeof own, "chain version=%d.%d", DG_VERSION_MAJOR, DG_VERSION_MINOR);
    CHECKF(DG_VERSION_MAJOR > 0 || dg_recipe_parse(own, strlen(own), &r, NULL) == DG_OK, "%s", own);
    CHECK(dg_recipe_parse(buf, 5, &r, NULL) == DG_OK && r.seed == 1);
    CHECK(dg_recipe_parse(buf, 4, &r, NULL) == DG_E_PARSE);
}

TEST(recipe_bad_input)
{
    dg_recipe r;
    dg_diag diag;
    char line[16];
    size_t len = 0;
    CHECK(dg_recipe_init(NULL, "chain", 1, 10, 10) == DG_E_NULL);
    CHECK(dg_recipe_init(&r, NULL, 1, 10, 10) == DG_E_NULL);
    CHECK(dg_recipe_init(&r, "nosuch", 1, 10, 10) == DG_E_INVALID);
    CHECK(dg_recipe_parse(NULL, 3, &r, &diag) == DG_E_NULL);
    CHECK(dg_recipe_parse("chain", 5, NULL, &diag) == DG_E_NULL);
    CHECK(dg_recipe_init(&r, "chain", 1, 10, 10) == DG_OK);
    /* print: two-call pattern, nothing written when too small */
    CHECK(dg_recipe_print(&r, NULL, 0, &len) == DG_OK && len > 100);
    memset(line, '@', sizeof line);
    CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_E_BUFFER);
    CHECK(line[0] == '@' && line[15] == '@');
    CHECK(dg_recipe_print(NULL, line, sizeof line, NULL) == DG_E_NULL);
    /* set: untouched on error */
    dg_recipe copy = r;
    CHECK(dg_recipe_set(&r, "room_max_w", "-4", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set(&r, "nope", "4", &diag) == DG_E_PARSE && strstr(diag.message, "nope"));
    CHECK(dg_recipe_set(&r, "seed", "abc", &diag) == DG_E_PARSE);
    CHECK(dg_recipe_set(&r, NULL, "1", &diag) == DG_E_NULL);
    CHECK(memcmp(&r, &copy, sizeof r) == 0);
    /* a corrupted recipe is refused, not trusted */
    dg_recipe broken = r;
    memset(broken.generator, 'x', sizeof broken.generator);
    CHECK(dg_recipe_print(&broken, line, sizeof line, NULL) == DG_E_INVALID);
    broken = r;
    broken.param_count = 3;
    CHECK(dg_recipe_set(&broken, "seed", "1", &diag) == DG_E_INVALID);
    broken = r;
    broken.values[0] = -5;
    static uint8_t cells[10 * 10];
    dg_grid g;
    dg_grid_init(&g, cells, 10, 10, 0);
    memset(cells, 0xAB, sizeof cells);
    CHECK(dg_recipe_generate(&broken, &g, NULL, NULL, NULL, &diag) == DG_E_INVALID);
    broken = r;
    broken.version = DG_OUTPUT_VERSION + 1;
    CHECK(dg_recipe_generate(&broken, &g, NULL, NULL, NULL, &diag) == DG_E_INVALID);
    dg_grid small;
    dg_grid_init(&small, cells, 9, 10, 0);
    CHECK(dg_recipe_generate(&r, &small, NULL, NULL, NULL, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "9x10") != NULL);
    CHECK(dg_recipe_generate(NULL, &g, NULL, NULL, NULL, &diag) == DG_E_NULL);
    CHECK(dg_recipe_generate(&r, NULL, NULL, NULL, NULL, &diag) == DG_E_NULL);
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 0xAB);
}

TEST(recipe_params_set_and_sizes)
{
    dg_chain_params p, before;
    dg_diag diag;
    CHECK(dg_params_defaults("chain", &p, sizeof p) == DG_OK);
    before = p;
    CHECK(dg_params_set("chain", &p, sizeof p, "loop_chance", "300", &diag) == DG_OK && p.loop_chance == 300);
    CHECK(dg_params_set("chain", &p, sizeof p, "on_stuck", "stop", &diag) == DG_OK);
    CHECK(p.on_stuck == DG_CHAIN_STUCK_STOP);
    CHECK(dg_params_set("chain", &p, sizeof p, "border", "false", &diag) == DG_OK && p.border == 0);
    p = before;
    CHECK(dg_params_set("chain", &p, sizeof p, "loop_chance", "x", &diag) == DG_E_PARSE);
    CHECK(diag.column == 0 && strstr(diag.message, "loop_chance"));
    CHECK(dg_params_set("chain", &p, sizeof p, "loop_chance", "", &diag) == DG_E_PARSE);
    CHECK(dg_params_set("chain", &p, sizeof p, "room_min_h", "2147483648", &diag) == DG_E_INVALID);
    CHECK(dg_params_set("chain", &p, sizeof p, "seed", "1", &diag) == DG_E_PARSE);
    CHECK(dg_params_set("chain", &p, sizeof p - 1, "loop_chance", "3", &diag) == DG_E_BUFFER);
    CHECK(dg_params_set("nosuch", &p, sizeof p, "loop_chance", "3", &diag) == DG_E_INVALID);
    CHECK(dg_params_set("chain", NULL, sizeof p, "loop_chance", "3", &diag) == DG_E_NULL);
    CHECK(dg_params_set("chain", &p, sizeof p, NULL, "3", &diag) == DG_E_NULL);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK(dg_params_defaults("chain", &p, 3) == DG_E_BUFFER);
    CHECK(dg_recipe_params(NULL, &p, sizeof p) == DG_E_NULL);
    dg_recipe r;
    p.room_min_w = -1;
    CHECK(dg_recipe_from_params(&r, "chain", &p, sizeof p, 1, 10, 10, &diag) == DG_E_INVALID);
    CHECK(strstr(diag.message, "room_min_w") != NULL);
}

/* An allocator that refuses the fail_at-th allocation and counts live blocks. */
typedef struct failing {
    int64_t calls, fail_at, live;
} failing;

static void *failing_alloc(void *user, size_t size)
{
    failing *f = user;
    if (++f->calls == f->fail_at)
        return NULL;
    f->live++;
    return malloc(size);
}

static void failing_free(void *user, void *ptr, size_t size)
{
    failing *f = user;
    (void)size;
    if (ptr)
        f->live--;
    free(ptr);
}

/* Out of memory at every allocation in turn, through the registry: never a
 * crash or a leak; the world leaves grid and result as they were. */
TEST(recipe_generate_out_of_memory)
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
        dg_recipe r;
        CHECK(cells && dg_recipe_init(&r, info.name, 5, w, h) == DG_OK);
        for (int64_t k = 1; cells && k < 400; k++)
        {
            failing f = {0, k, 0};
            dg_allocator a = {failing_alloc, failing_free, &f};
            dg_grid g;
            dg_result res;
            dg_grid_init(&g, cells, w, h, 0);
            memset(cells, 0x5A, (size_t)w * (size_t)h);
            dg_result_init(&res, &a);
            dg_status st = dg_recipe_generate(&r, &g, set, &res, &a, NULL);
            CHECKF(st == DG_OK || st == DG_E_NOMEM, "%s fail at %d: %s", info.name, (int)k,
                   dg_status_str(st));
            if (st != DG_OK && strcmp(info.name, "world") == 0)
            {
                int untouched = res.room_count == 0 && res.rooms == NULL;
                for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
                    untouched &= cells[i] == 0x5A;
                CHECKF(untouched, "world fail at %d touched the grid or result", (int)k);
            }
            dg_result_free(&res);
            CHECKF(f.live == 0, "%s fail at %d: %d blocks leaked", info.name, (int)k, (int)f.live);
            if (st == DG_OK || test_failures())
                break;
        }
        free(cells);
        dg_prefab_set_free(set);
    }
}

/* Generates recipe r on a fresh w x h grid: the status, diag filled. */
static dg_status r2_try(const dg_recipe *r, const dg_prefab_set *set, dg_diag *diag)
{
    uint8_t *cells = malloc((size_t)r->width * (size_t)r->height);
    dg_grid g;
    dg_result res;
    dg_result_init(&res, NULL);
    dg_status st = DG_E_NOMEM;
    if (cells && dg_grid_init(&g, cells, r->width, r->height, 0) == DG_OK)
        st = dg_recipe_generate(r, &g, set, &res, NULL, diag);
    dg_result_free(&res);
    free(cells);
    return st;
}

/* The listed range is the accepted one: each parameter's min and max
 * generate (others at defaults, the sample grid) unless its help names the
 * condition in [brackets]; min-1 and max+1 are refused by name. */
TEST(r2_listed_ranges_are_accepted)
{
    for (int32_t gi = 0; gi < dg_generator_count(); gi++)
    {
        dg_generator_info info;
        dg_generator_get(gi, &info);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        int32_t w, h;
        dg_prefab_set *set = recipe_sample_set(info.name, &w, &h);
        for (int32_t i = 0; i < info.param_count; i++)
        {
            const dg_param_desc *p = &info.params[i];
            int32_t ends[2] = {p->min, p->max};
            for (int k = 0; k < 2; k++)
            {
                dg_recipe r;
                dg_diag diag;
                char text[32];
                CHECK(dg_recipe_init(&r, info.name, 3, w, h) == DG_OK);
                snprintf(text, sizeof text, "%d", (int)ends[k]);
                CHECK(dg_recipe_set(&r, p->name, text, &diag) == DG_OK);
                dg_status st = r2_try(&r, set, &diag);
                CHECKF(st != DG_E_INVALID || strchr(p->help, '['), "%s %s=%d refused: %s", info.name,
                       p->name, (int)ends[k], diag.message);
                CHECKF(st != DG_E_INVALID || strstr(diag.message, p->name), "%s", diag.message);
                int64_t out = k ? (int64_t)p->max + 1 : (int64_t)p->min - 1;
                snprintf(text, sizeof text, "%lld", (long long)out);
                if (out >= INT32_MIN && out <= INT32_MAX)
                {
                    CHECK(dg_recipe_set(&r, p->name, text, &diag) == DG_E_INVALID);
                    CHECKF(strstr(diag.message, p->name) != NULL, "%s", diag.message);
                }
            }
        }
        dg_prefab_set_free(set);
    }
}

/* Small ranges, every value: one refused between min and max (a set such as
 * prefab-mixed's mode, or odd sizes) is named in the help, and the refusal
 * names the parameter. */
TEST(r2_small_ranges_every_value)
{
    for (int32_t gi = 0; gi < dg_generator_count(); gi++)
    {
        dg_generator_info info;
        dg_generator_get(gi, &info);
        if (info.needs_graph) /* runs with a level graph only: tests/test_graph_tool.c */
            continue;
        int32_t w, h;
        dg_prefab_set *set = recipe_sample_set(info.name, &w, &h);
        for (int32_t i = 0; i < info.param_count; i++)
        {
            const dg_param_desc *p = &info.params[i];
            for (int32_t v = p->min; (int64_t)p->max - p->min <= 130 && v <= p->max; v++)
            {
                dg_recipe r;
                dg_diag diag;
                CHECK(dg_recipe_init(&r, info.name, 3, w, h) == DG_OK);
                r.values[i] = v;
                dg_status st = r2_try(&r, set, &diag);
                CHECKF(st != DG_E_INVALID || (strchr(p->help, '[') && strstr(diag.message, p->name)),
                       "%s %s=%d refused: %s", info.name, p->name, (int)v, diag.message);
            }
        }
        dg_prefab_set_free(set);
    }
}

/* Seeds are decimal even with leading zeros (never octal), or 0x hex; no sign
 * or blank anywhere. */
TEST(r2_seed_leading_zero_is_decimal)
{
    dg_recipe r;
    const char *t = "chain seed=010";
    CHECK(dg_recipe_parse(t, strlen(t), &r, NULL) == DG_OK && r.seed == 10);
    t = "chain seed=08";
    CHECK(dg_recipe_parse(t, strlen(t), &r, NULL) == DG_OK && r.seed == 8);
    t = "chain seed=0X1f";
    CHECK(dg_recipe_parse(t, strlen(t), &r, NULL) == DG_OK && r.seed == 31);
    CHECK(dg_recipe_set(&r, "seed", "0009", NULL) == DG_OK && r.seed == 9);
    parse_fails("chain seed=+1", DG_E_PARSE, "+1", "unsigned");
    parse_fails("chain seed=0x", DG_E_PARSE, "0x", "unsigned");
    parse_fails("chain seed=0x-1", DG_E_PARSE, "0x-1", "unsigned");
    parse_fails("chain seed=0x0x5", DG_E_PARSE, "0x0x5", "unsigned");
    parse_fails("chain seed=0x+5", DG_E_PARSE, "0x+5", "unsigned");
    dg_recipe before = r;
    CHECK(dg_recipe_set(&r, "seed", " 1", NULL) == DG_E_PARSE);
    CHECK(dg_recipe_set(&r, "seed", " -1", NULL) == DG_E_PARSE);
    CHECK(dg_recipe_set(&r, "seed", "-1", NULL) == DG_E_PARSE);
    CHECK(dg_recipe_set(&r, "seed", "1 ", NULL) == DG_E_PARSE);
    CHECK(dg_recipe_set(&r, "seed", "0x 1", NULL) == DG_E_PARSE);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
}

TEST(r2_recipe_nul_inside_length)
{
    const char text[] = "chain seed=5\0 width=20";
    dg_recipe r;
    dg_diag diag;
    memset(&r, 0x77, sizeof r);
    CHECK(dg_recipe_parse(text, sizeof text - 1, &r, &diag) == DG_E_PARSE);
    CHECK(diag.line == 1 && diag.column == 13 && strstr(diag.message, "NUL"));
    CHECK(((unsigned char *)&r)[0] == 0x77);
    /* the NUL just past length is not inside it */
    CHECK(dg_recipe_parse(text, 12, &r, NULL) == DG_OK && r.seed == 5);
}

TEST(r2_version_leading_zero_rejected)
{
    parse_fails("chain version=0.03", DG_E_PARSE, "0.03", "not a version");
    parse_fails("chain version=00.3", DG_E_PARSE, "00.3", "not a version");
    parse_fails("chain version=01", DG_E_PARSE, "01", "not a version");
    parse_fails("chain version=.3", DG_E_PARSE, ".3", "not a version");
    parse_fails("chain version=0.3.1", DG_E_PARSE, "0.3.1", "not a version");
    char own[64];
    snprintf(own, sizeof own, "chain version=%d.%d", DG_VERSION_MAJOR, DG_VERSION_MINOR);
    dg_recipe r;
    CHECKF(DG_VERSION_MAJOR > 0 || dg_recipe_parse(own, strlen(own), &r, NULL) == DG_OK, "%s", own);
}

static dg_prefab_set *r2_parse_set(const char *text)
{
    dg_prefab_set *set = NULL;
    dg_diag diag;
    CHECKF(dg_prefab_parse(text, strlen(text), "r2", NULL, NULL, NULL, &set, &diag) == DG_OK, "%s",
           diag.message);
    return set;
}

/* The hash sees the prefabs, not the file's comments, blank lines or layout. */
TEST(r2_prefab_set_hash_is_content)
{
    const char *a = "prefabs 1\nprefab room\n  mode furnish\nmap\n#+#\n#.#\n###\nend\n";
    const char *b = "; a comment\nprefabs 1\n\n\nprefab room   ; same room\n  mode   furnish\nmap\n#+#\n#.#\n###\nend\n";
    const char *c = "prefabs 1\nprefab room\n  mode furnish\nmap\n#+#\n#^#\n###\nend\n";
    const char *d = "prefabs 1\nprefab rooms\n  mode furnish\nmap\n#+#\n#.#\n###\nend\n";
    dg_prefab_set *sa = r2_parse_set(a), *sb = r2_parse_set(b), *sc = r2_parse_set(c), *sd = r2_parse_set(d);
    CHECK(sa && sb && sc && sd);
    uint64_t ha = dg_prefab_set_hash(sa);
    CHECK(ha != 0 && ha == dg_prefab_set_hash(sb));
    CHECK(ha != dg_prefab_set_hash(sc) && ha != dg_prefab_set_hash(sd));
    CHECK(dg_prefab_set_hash(NULL) == 0);
    /* the same file loaded twice (other addresses) */
    int32_t w, h;
    dg_prefab_set *f1 = recipe_sample_set("world", &w, &h), *f2 = recipe_sample_set("world", &w, &h);
    CHECK(dg_prefab_set_hash(f1) == dg_prefab_set_hash(f2) && dg_prefab_set_hash(f1) != ha);
    dg_prefab_set_free(f1);
    dg_prefab_set_free(f2);
    dg_prefab_set_free(sa);
    dg_prefab_set_free(sb);
    dg_prefab_set_free(sc);
    dg_prefab_set_free(sd);
}

/* A recipe records its prefab set; replaying it with another set or none
 * fails (grid untouched) instead of giving another map. */
TEST(r2_recipe_records_prefab_set)
{
    static const char *const gens[] = {"world", "prefab-mixed"};
    for (int k = 0; k < 2; k++)
    {
        int32_t w, h, w2, h2;
        dg_prefab_set *set = recipe_sample_set(gens[k], &w, &h);
        dg_prefab_set *other = recipe_sample_set("prefab-full", &w2, &h2);
        dg_recipe r, back;
        dg_diag diag;
        char line[4096];
        CHECK(dg_recipe_init(&r, gens[k], 11, w, h) == DG_OK);
        CHECK(dg_recipe_set_prefabs(&r, set, "examples/prefabs/x.txt", &diag) == DG_OK);
        CHECK(r.prefabs_hash == dg_prefab_set_hash(set) && strcmp(r.prefabs, "examples/prefabs/x.txt") == 0);
        CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
        CHECKF(strstr(line, " prefabs=examples/prefabs/x.txt prefabs_hash=0x") != NULL, "%s", line);
        CHECK(dg_recipe_parse(line, strlen(line), &back, &diag) == DG_OK);
        CHECK(memcmp(&back, &r, sizeof r) == 0);
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        dg_grid g;
        CHECK(cells && dg_grid_init(&g, cells, w, h, 0) == DG_OK);
        memset(cells, 0xAB, (size_t)w * (size_t)h);
        CHECK(dg_recipe_generate(&back, &g, other, NULL, NULL, &diag) == DG_E_INVALID);
        CHECKF(strstr(diag.message, "not the recipe's examples/prefabs/x.txt"), "%s", diag.message);
        CHECK(dg_recipe_generate(&back, &g, NULL, NULL, NULL, &diag) == DG_E_INVALID);
        CHECKF(strstr(diag.message, "made with the prefab set examples/prefabs/x.txt"), "%s", diag.message);
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            CHECK(cells[i] == 0xAB);
        CHECK(dg_recipe_generate(&back, &g, set, NULL, NULL, &diag) == DG_OK);
        free(cells);
        dg_prefab_set_free(set);
        dg_prefab_set_free(other);
    }
}

TEST(r2_recipe_prefab_keys_errors)
{
    parse_fails("world prefabs=a zz", DG_E_PARSE, "zz", "KEY=VALUE");
    parse_fails("world prefabs=", DG_E_PARSE, "prefabs=", "must be a file name");
    parse_fails("world prefabs=a\"b", DG_E_PARSE, "a\"b", "must be a file name");
    parse_fails("world prefabs=a<b", DG_E_PARSE, "a<b", "must be a file name");
    parse_fails("world prefabs=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", DG_E_PARSE,
                "aaa", "must be a file name");
    parse_fails("world prefabs_hash=0", DG_E_PARSE, "0", "hash");
    parse_fails("world prefabs_hash=-1", DG_E_PARSE, "-1", "hash");
    parse_fails("world prefabs=a prefabs=b", DG_E_PARSE, "prefabs=b", "twice");
    parse_fails("world prefabs_hash=1 prefabs_hash=2", DG_E_PARSE, "prefabs_hash=2", "twice");
    dg_recipe r, before;
    dg_diag diag;
    int32_t w, h;
    dg_prefab_set *set = recipe_sample_set("world", &w, &h);
    CHECK(dg_recipe_init(&r, "world", 1, w, h) == DG_OK);
    before = r;
    CHECK(dg_recipe_set_prefabs(&r, set, "my maps/f.txt", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set_prefabs(&r, NULL, "f.txt", &diag) == DG_E_NULL);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    CHECK(dg_recipe_set_prefabs(&r, set, NULL, &diag) == DG_OK && r.prefabs[0] == 0 && r.prefabs_hash);
    CHECK(dg_recipe_set(&r, "prefabs", "f.txt", &diag) == DG_OK && strcmp(r.prefabs, "f.txt") == 0);
    /* a corrupted hint is refused, not printed */
    memset(r.prefabs, 'x', sizeof r.prefabs);
    char line[16];
    CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_E_INVALID);
    dg_prefab_set_free(set);
}

/* The level graph, role and spawn tables a level was made with are recorded
 * like a prefab set (file hint and hash), each printed after the prefab set,
 * and the depth content is placed for is a progression key. */
TEST(recipe_inputs_are_recorded_and_round_trip)
{
    dg_recipe r, back, before;
    dg_diag diag;
    char line[4096];
    CHECK(dg_recipe_init(&r, "attach", 5, 80, 50) == DG_OK);
    before = r;
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_ROLES, 0, "x.txt", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set_input(&r, 3, 1, "x.txt", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set_input(&r, -1, 1, "x.txt", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_SPAWNS, 7, "a b.txt", &diag) == DG_E_INVALID);
    CHECK(dg_recipe_set_input(NULL, DG_RECIPE_SPAWNS, 7, "a.txt", &diag) == DG_E_NULL);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_GRAPH, 0x1234, "examples/graphs/hub.txt", &diag) == DG_OK);
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_ROLES, 0xABCDEF0123456789ULL, "default", &diag) == DG_OK);
    CHECK(dg_recipe_set_input(&r, DG_RECIPE_SPAWNS, 99, NULL, &diag) == DG_OK);
    CHECK(dg_recipe_set(&r, "depth", "4", &diag) == DG_OK);
    CHECK(dg_recipe_print(&r, line, sizeof line, NULL) == DG_OK);
    CHECKF(strstr(line, " depth=4 graph=examples/graphs/hub.txt graph_hash=0x0000000000001234 "
                        "roles=default roles_hash=0xabcdef0123456789 spawns_hash=0x0000000000000063 "
                        "version=") != NULL, "%s", line);
    CHECK(dg_recipe_parse(line, strlen(line), &back, &diag) == DG_OK);
    CHECK(memcmp(&back, &r, sizeof r) == 0);
    int32_t depth = -1;
    CHECK(dg_recipe_get(&back, "depth", &depth) == DG_OK);
    CHECKF(depth == 4, "depth read back as %d", (int)depth);
    CHECK(dg_recipe_get(&before, "depth", &depth) == DG_OK);
    CHECKF(depth == 0, "an unset depth reads as %d", (int)depth);
    /* recording a recipe's own hint again keeps it */
    CHECK(dg_recipe_set_input(&back, DG_RECIPE_GRAPH, 0x1234, back.inputs[DG_RECIPE_GRAPH].file,
                              &diag) == DG_OK);
    CHECK(memcmp(&back, &r, sizeof r) == 0);
    /* a recipe without them prints as before */
    CHECK(dg_recipe_print(&before, line, sizeof line, NULL) == DG_OK);
    CHECKF(!strstr(line, "graph") && !strstr(line, "roles") && !strstr(line, "depth"), "%s", line);
    parse_fails("attach graph=a graph=b", DG_E_PARSE, "graph=b", "twice");
    parse_fails("attach spawns_hash=0", DG_E_PARSE, "0", "hash");
    parse_fails("attach roles=a<b", DG_E_PARSE, "a<b", "must be a file name");
    parse_fails("attach depth=1001", DG_E_INVALID, "1001", "");
}
