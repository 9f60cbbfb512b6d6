/* What parsing yields, pinned: each example file's set hash, and a digest of
 * every field of the parsed set (the derived ones too: door sides, distinct
 * orientations, edge signatures, passable glyph sets, solidity, random cells,
 * require counts, pick tables) together with every diagnostic, over the
 * example files, the prefab fuzz corpus and mutated example files. A faster
 * parser must keep all of it byte for byte. */
#define _POSIX_C_SOURCE 200809L
#include "prefab/prefab.h"
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

typedef struct digest {
    uint64_t h;
} digest;

static void put(digest *d, uint64_t v)
{
    d->h = (d->h ^ v) * 0x100000001B3ULL;
    d->h ^= d->h >> 29;
}

static void put_bytes(digest *d, const void *p, size_t n)
{
    const uint8_t *b = p;
    put(d, (uint64_t)n);
    for (size_t i = 0; i < n; i++)
        put(d, b[i]);
}

static void put_name(digest *d, const char *s)
{
    put_bytes(d, s, strlen(s));
}

static void put_prefab(digest *d, const dgi_prefab *p)
{
    put_name(d, p->name);
    const int64_t fields[] = {p->width, p->height, (int64_t)p->cells, p->legend, p->modes,
                              p->orientations, p->distinct, p->weight, p->margin, p->edge_avoid,
                              p->unique, p->door_sides, p->tag_first, p->tag_count, p->sub_first,
                              p->sub_count, p->req_first, p->req_count, p->checked_reqs,
                              p->has_void, p->has_markers, p->random_first, p->random_count,
                              p->solid, p->line};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        put(d, (uint64_t)fields[i]);
    for (int w = 0; w < 4; w++)
        put(d, (uint64_t)p->certain[w] << 32 | p->maybe[w]);
    for (int o = 0; o < DG_ORIENT_COUNT; o++)
        for (int s = 0; s < 4; s++)
            put(d, p->edge[o][s]);
}

static void put_tables(digest *d, const dg_prefab_set *s)
{
    for (int32_t i = 0; i < s->legend_count; i++)
        for (int c = 0; c < 128; c++)
        {
            const dgi_glyph *g = &s->legends[i].glyph[c];
            put(d, (uint64_t)g->cls | (uint64_t)g->tile << 8 | (uint64_t)g->passable << 16 |
                       (uint64_t)g->marker << 24 | (uint64_t)(uint32_t)g->name << 32);
        }
    for (int32_t i = 0; i < s->sub_count; i++)
    {
        const dgi_sub *u = &s->subs[i];
        const int64_t f[] = {u->kind, u->glyph, u->rest, u->rest_column, u->first, u->count,
                             u->total, u->line, u->column};
        put_bytes(d, f, sizeof f);
    }
    for (int32_t i = 0; i < s->choice_count; i++)
    {
        const dgi_choice *c = &s->choices[i];
        const int64_t f[] = {c->glyph, c->amount, c->line, c->column};
        put_bytes(d, f, sizeof f);
    }
    for (int32_t i = 0; i < s->req_count; i++)
    {
        const dgi_require *r = &s->reqs[i];
        const int64_t f[] = {r->glyph, r->always, r->glyphs[0], r->glyphs[1], r->glyphs[2],
                             r->glyphs[3], r->min, r->max, r->line, r->column, r->fixed};
        put_bytes(d, f, sizeof f);
        put_name(d, r->name);
    }
}

static void put_lists(digest *d, const dg_prefab_set *s)
{
    for (int32_t i = 0; i < s->tag_count; i++)
        put_name(d, s->tags[i].name);
    for (int32_t i = 0; i < s->glyph_name_count; i++)
        put_name(d, s->glyph_names[i].name);
    for (int32_t i = 0; i < s->group_count; i++)
    {
        put_name(d, s->groups[i].tag);
        put(d, (uint64_t)(uint32_t)s->groups[i].min << 32 | (uint32_t)s->groups[i].max);
        put(d, (uint64_t)s->groups[i].start);
    }
    for (int32_t i = 0; i < s->name_cap; i++)
        put(d, (uint64_t)(uint32_t)s->names[i]);
    for (int32_t i = 0; i < s->pick_total; i++)
    {
        put(d, (uint64_t)(uint32_t)s->picks[i].prefab << 32 | (uint32_t)s->picks[i].orients);
        put(d, (uint64_t)s->picks[i].cumulative);
    }
    for (int m = 0; m < 4; m++)
        for (int k = 0; k < 16; k++)
            put(d, (uint64_t)(uint32_t)s->pick_first[m][k] << 32 | (uint32_t)s->pick_count[m][k]);
    put(d, (uint64_t)s->random_total);
    put(d, (uint64_t)s->random_most);
    for (size_t i = 0; i < s->random_total; i++)
        put(d, (uint64_t)(uint32_t)s->random_cells[i] << 8 | s->random_stored[i]);
}

/* Every field of a parsed set (NULL: a marker only). */
static void put_set(digest *d, const dg_prefab_set *s)
{
    if (!s)
    {
        put(d, 0x6E6F6E65);
        return;
    }
    put(d, dg_prefab_set_hash(s));
    put(d, (uint64_t)s->count);
    for (int32_t i = 0; i < s->count; i++)
        put_prefab(d, &s->prefabs[i]);
    put_bytes(d, s->cells, s->cells_len);
    put_tables(d, s);
    put_lists(d, s);
}

static void put_diag(digest *d, const dg_diag *g)
{
    put(d, (uint64_t)(uint32_t)g->status);
    put(d, (uint64_t)(uint32_t)g->line << 32 | (uint32_t)g->column);
    put_name(d, g->message);
}

static void on_error(void *user, const dg_diag *g)
{
    put_diag(user, g);
}

static void put_parse(digest *d, const char *text, size_t len)
{
    dg_prefab_set *set = NULL;
    dg_diag g;
    dg_status st = dg_prefab_parse(text, len, "pin", NULL, on_error, d, &set, &g);
    put(d, (uint64_t)(uint32_t)st);
    put_diag(d, &g);
    put_set(d, set);
    dg_prefab_set_free(set);
}

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    *len = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    return buf;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Digest of parsing every file of dir (in name order); the number of files in *count. */
static uint64_t digest_dir(const char *dir, int *count)
{
    digest d = {0xCBF29CE484222325ULL};
    char *names[1024];
    int n = 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL && n < 1024;)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(dp);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++)
    {
        char path[512];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = read_whole(path, &len);
        if (text)
            put_parse(&d, text, len);
        free(text);
        free(names[i]);
    }
    *count = n;
    return d.h;
}

TEST(prefab_example_set_hashes_pinned)
{
    static const struct {
        const char *file;
        uint64_t hash;
    } pins[] = {
        {"factory.txt", 0xe110ca97eb908730ULL},
        {"forest.txt", 0x31e181b8cc158c75ULL},
        {"furnish.txt", 0x2b7b7ae995f71c9bULL},
        {"shaft.txt", 0x1a7ec64db0b4e3c4ULL},
        {"vaults.txt", 0xa0e943f591f5c8dcULL},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
    {
        char path[128];
        dg_prefab_set *set = NULL;
        dg_diag d;
        snprintf(path, sizeof path, "examples/prefabs/%s", pins[i].file);
        CHECKF(dg_prefab_load(path, NULL, NULL, NULL, &set, &d) == DG_OK, "%s", d.message);
        CHECKF(dg_prefab_set_hash(set) == pins[i].hash, "%s: 0x%016" PRIx64, pins[i].file,
               dg_prefab_set_hash(set));
        dg_prefab_set_free(set);
    }
}

/* The prefab text corpora (the prefab_* generator corpora hold parameters,
 * not prefab text). A file added to a corpus moves its pin: re-pin it with
 * the parser unchanged. */
TEST(prefab_parse_digest_pinned)
{
    static const struct {
        const char *dir;
        int files;
        uint64_t digest;
    } pins[] = {
        {"examples/prefabs", 5, 0x18c30d54395dc6afULL},
        {"tests/fuzz/corpus/prefab", 28, 0xeab10a6fe41ee765ULL},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
    {
        int files = 0;
        uint64_t h = digest_dir(pins[i].dir, &files);
        CHECKF(files == pins[i].files, "%s: %d files (run from the repository root)", pins[i].dir,
               files);
        CHECKF(h == pins[i].digest, "%s: 0x%016" PRIx64, pins[i].dir, h);
    }
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Each example file in 300 variants: one to four bytes replaced, mostly by
 * map glyphs (about half still parse, with other doors, shapes and
 * symmetries), else by any of the format's characters, or cut short. */
TEST(prefab_parse_mutated_digest_pinned)
{
    static const char *const files[] = {"factory.txt", "forest.txt", "furnish.txt", "shaft.txt",
                                        "vaults.txt"};
    static const char pool[] = ".#+^_\n ;@?*=:x-0123456789abcdeglmnoprstuvAENSW\r\t";
    digest d = {0xCBF29CE484222325ULL};
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (int i = 0; i < 5; i++)
    {
        char path[128];
        size_t len = 0;
        snprintf(path, sizeof path, "examples/prefabs/%s", files[i]);
        char *text = read_whole(path, &len), *out = malloc(len + 1);
        CHECKF(text && out && len > 0, "cannot read %s (run from the repository root)", path);
        for (int k = 0; text && out && len > 0 && k < 300; k++)
        {
            size_t n = len;
            memcpy(out, text, len);
            if (k % 5 == 4)
                n = (size_t)(xorshift(&x) % len);
            else
                for (int j = 0, flips = 1 + (int)(xorshift(&x) % 4); j < flips; j++)
                {
                    uint64_t r = xorshift(&x);
                    size_t from = k % 5 < 3 ? 5 : sizeof pool - 1; /* mostly map glyphs */
                    out[(r >> 8) % len] = pool[(r >> 40) % from];
                }
            put_parse(&d, out, n);
        }
        free(text);
        free(out);
    }
    CHECK_EQ_U64(d.h, 0x19c0659e499f1c4bULL);
}
