/* The spawn-table format (docs/spawn-format.md): entries, defaults, the
 * content hash, and every error with its exact line and column. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static dg_status parse(const char *text, dg_spawn_table **t, dg_diag *d)
{
    return dg_spawn_parse(text, strlen(text), "t", NULL, NULL, NULL, t, d);
}

TEST(spawn_parse_entries_and_defaults)
{
    static const char text[] = "\xEF\xBB\xBFspawns 1\r\n"
                               "# a comment\n"
                               "rat monster\n"
                               "  ogre   monster weight 3 cost 9 depth 6.. group 1..2 size 2 "
                               "rooms normal,boss # trailing\n"
                               "gold item depth 2 group 3\n";
    dg_spawn_table *t = NULL;
    dg_diag d;
    CHECK(parse(text, &t, &d) == DG_OK);
    CHECK(dg_spawn_count(t) == 3);
    dg_spawn_entry e;
    CHECK(dg_spawn_get(t, 0, &e) == DG_OK);
    CHECK(strcmp(e.name, "rat") == 0 && strcmp(e.kind, "monster") == 0);
    CHECK(e.weight == 10 && e.cost == 1 && e.depth_min == 0 && e.depth_max == -1);
    CHECK(e.group_min == 1 && e.group_max == 1 && e.size == 1 && e.room_count == 0 && e.line == 3);
    CHECK(dg_spawn_get(t, dg_spawn_find(t, "ogre"), &e) == DG_OK);
    CHECK(e.weight == 3 && e.cost == 9 && e.depth_min == 6 && e.depth_max == -1);
    CHECK(e.group_min == 1 && e.group_max == 2 && e.size == 2 && e.room_count == 2);
    CHECK(strcmp(e.rooms[0], "normal") == 0 && strcmp(e.rooms[1], "boss") == 0);
    CHECK(dg_spawn_get(t, 2, &e) == DG_OK);
    CHECK(e.depth_min == 2 && e.depth_max == 2 && e.group_min == 3 && e.group_max == 3);
    CHECK(dg_spawn_get(t, 3, &e) == DG_E_INVALID && dg_spawn_get(NULL, 0, &e) == DG_E_NULL);
    CHECK(dg_spawn_find(t, "troll") == -1 && dg_spawn_find(NULL, "rat") == -1);
    dg_spawn_table_free(t);
    dg_spawn_table_free(NULL);
    CHECK(dg_spawn_count(NULL) == 0 && dg_spawn_table_hash(NULL) == 0);
}

TEST(spawn_hash_follows_content_not_layout)
{
    static const char *const same[] = {
        "spawns 1\nrat monster weight 5\ngold item\n",
        "# header\nspawns 1\n\n  rat   monster\tweight 5   # five\ngold item weight 10\n",
    };
    static const char *const other[] = {
        "spawns 1\nrat monster weight 6\ngold item\n",
        "spawns 1\ngold item\nrat monster weight 5\n",
        "spawns 1\nrat monster weight 5 rooms any\ngold item\n",
    };
    dg_spawn_table *t = NULL;
    CHECK(parse(same[0], &t, NULL) == DG_OK);
    uint64_t h = dg_spawn_table_hash(t);
    CHECK(h != 0);
    dg_spawn_table_free(t);
    CHECK(parse(same[1], &t, NULL) == DG_OK);
    CHECK_EQ_U64(dg_spawn_table_hash(t), h);
    dg_spawn_table_free(t);
    for (int i = 0; i < 3; i++)
    {
        CHECK(parse(other[i], &t, NULL) == DG_OK);
        CHECK(dg_spawn_table_hash(t) != h);
        dg_spawn_table_free(t);
    }
    CHECK(parse("spawns 1\n", &t, NULL) == DG_OK); /* an empty table is a table */
    CHECK(dg_spawn_count(t) == 0 && dg_spawn_table_hash(t) != 0);
    dg_spawn_table_free(t);
}

/* Each input and the exact first message it gets. */
static const struct {
    const char *text, *message;
} bad[] = {
    {"", "t:1:1: expected 'spawns 1' as the first line"},
    {"rat monster\n", "t:1:1: expected 'spawns 1' as the first line"},
    {"spawns 2\n", "t:1:8: unsupported format version (expected 'spawns 1')"},
    {"spawns\n", "t:1:7: unsupported format version (expected 'spawns 1')"},
    {"spawns 1\nrat\n", "t:2:4: an entry needs a name and a kind"},
    {"spawns 1\nrat monster weight\n", "t:2:19: 'weight' needs a value"},
    {"spawns 1\nrat monster weight 0\n", "t:2:20: weight '0' is not a number in 1..1000000"},
    {"spawns 1\nrat monster cost -1\n", "t:2:18: cost '-1' is not a number in 0..100000"},
    {"spawns 1\nrat monster size 5\n", "t:2:18: size '5' is not a number in 1..4"},
    {"spawns 1\nrat monster depth 5..3\n", "t:2:19: depth range 5..3 is inverted"},
    {"spawns 1\nrat monster depth 3.\n",
     "t:2:19: depth '3.' is not a range (expected N, N..M or N..)"},
    {"spawns 1\nrat monster group 2..\n", "t:2:19: group '2..' is not a range (expected N, N..M)"},
    {"spawns 1\nrat monster group 0..2\n", "t:2:19: group '0..2' is outside 1..64"},
    {"spawns 1\nrat monster speed 3\n",
     "t:2:13: unknown key 'speed' (expected weight, cost, depth, group, size or rooms)"},
    {"spawns 1\nrat monster cost 1 cost 2\n", "t:2:20: 'cost' given twice"},
    {"spawns 1\nrat monster\n\nrat item\n", "t:4:1: duplicate entry 'rat' (first on line 2)"},
    {"spawns 1\nrat monster rooms boss,,shop\n", "t:2:24: empty room word in 'boss,,shop'"},
    {"spawns 1\nrat monster rooms a,b,c,d,e,f,g,h,i\n", "t:2:35: more than 8 room words"},
    {"spawns 1\nrat mon\x01ster\n", "t:2:8: control byte 0x01"},
    {"spawns 1\nan-entry-name-of-more-than-31-bytes monster\n",
     "t:2:1: name 'an-entry-name-of-more-than-31-bytes' is longer than 31 bytes"},
    {"spawns 1\nrat monster depth 1234567890\n",
     "t:2:19: depth '1234567890' is not a range (expected N, N..M or N..)"},
    {"spawns 1\nrat monster depth 100001\n", "t:2:19: depth '100001' is outside 0..100000"},
};

TEST(spawn_parse_errors_exact)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_spawn_table *t = (dg_spawn_table *)&bad[i]; /* must become NULL */
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = parse(bad[i].text, &t, &d);
        CHECKF(st == DG_E_PARSE && t == NULL, "case %d: status %d", (int)i, (int)st);
        CHECKF(strcmp(d.message, bad[i].message) == 0, "case %d: got \"%s\"", (int)i, d.message);
        CHECK(d.status == DG_E_PARSE && d.line >= 1 && d.column >= 1);
    }
}

static void count_error(void *user, const dg_diag *d)
{
    int *n = user;
    (*n)++;
    CHECK(d->status == DG_E_PARSE && strncmp(d->message, "many:", 5) == 0);
}

TEST(spawn_parse_reports_every_error_up_to_the_limit)
{
    static const char text[] = "spawns 1\nrat monster\nbat monster size 9\nrat item weight 0\nok item\n";
    dg_spawn_table *t = NULL;
    int n = 0;
    dg_diag d;
    CHECK(dg_spawn_parse(text, sizeof text - 1, "many", NULL, count_error, &n, &t, &d) == DG_E_PARSE);
    CHECK(n == 3 && t == NULL && d.line == 3);
    char big[200 * 24];
    size_t len = 0;
    len += (size_t)snprintf(big + len, sizeof big - len, "spawns 1\n");
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(big + len, sizeof big - len, "e%d monster size 0\n", i);
    n = 0;
    CHECK(dg_spawn_parse(big, len, "many", NULL, count_error, &n, &t, &d) == DG_E_PARSE);
    CHECK(n == DG_SPAWN_MAX_ERRORS);
}

/* Every prefix of a valid table parses or fails cleanly; the buffer need not
 * end in NUL or a newline. */
TEST(spawn_parse_truncated_input)
{
    static const char text[] = "spawns 1\nogre monster weight 3 cost 9 depth 6..12 group 1..2 "
                               "size 2 rooms normal,boss\ngold item\n";
    for (size_t n = 0; n <= sizeof text - 1; n++)
    {
        dg_spawn_table *t = NULL;
        dg_diag d;
        dg_status st = dg_spawn_parse(text, n, "t", NULL, NULL, NULL, &t, &d);
        CHECK((st == DG_OK) == (t != NULL));
        CHECK(st == DG_OK || st == DG_E_PARSE);
        dg_spawn_table_free(t);
    }
}

TEST(spawn_load_examples_and_missing_file)
{
    static const char *const files[] = {"examples/spawns/dungeon.txt", "examples/spawns/factory.txt"};
    for (int i = 0; i < 2; i++)
    {
        dg_spawn_table *t = NULL;
        dg_diag d;
        CHECKF(dg_spawn_load(files[i], NULL, NULL, NULL, &t, &d) == DG_OK, "%s", d.message);
        CHECK(dg_spawn_count(t) >= 10);
        dg_spawn_table_free(t);
    }
    dg_spawn_table *t = NULL;
    dg_diag d;
    CHECK(dg_spawn_load("no/such/file.txt", NULL, NULL, NULL, &t, &d) == DG_E_INVALID);
    CHECK(t == NULL && strstr(d.message, "cannot open") != NULL);
    CHECK(dg_spawn_load(NULL, NULL, NULL, NULL, &t, &d) == DG_E_NULL);
    CHECK(dg_spawn_parse(NULL, 3, "t", NULL, NULL, NULL, &t, &d) == DG_E_NULL);
    CHECK(dg_spawn_parse("spawns 1\n", 9, "t", NULL, NULL, NULL, NULL, &d) == DG_E_NULL);
}

typedef struct failing {
    int32_t n, calls;
} failing;
static void *fail_alloc(void *user, size_t size)
{
    failing *f = user;
    return ++f->calls >= f->n ? NULL : malloc(size);
}
static void fail_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

/* Out of memory at every allocation in turn: DG_E_NOMEM and no table, never a crash. */
TEST(spawn_parse_out_of_memory)
{
    static const char text[] = "spawns 1\na monster\nb monster\nc item\nd item\ne npc\n";
    int ok = 0;
    for (int32_t n = 1; n <= 16 && !ok; n++)
    {
        failing f = {n, 0};
        dg_allocator a = {fail_alloc, fail_free, &f};
        dg_spawn_table *t = NULL;
        dg_diag d;
        dg_status st = dg_spawn_parse(text, sizeof text - 1, "t", &a, NULL, NULL, &t, &d);
        CHECK(st == DG_OK || (st == DG_E_NOMEM && t == NULL && d.status == DG_E_NOMEM));
        ok = st == DG_OK && dg_spawn_count(t) == 5;
        dg_spawn_table_free(t);
    }
    CHECK(ok);
}
