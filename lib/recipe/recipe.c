/* Recipes: (major version, generator, seed, size, every parameter) as one text
 * line that regenerates the same map. See docs/recipes.md. */
#include "recipe/recipe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_SEED 1
#define DEFAULT_WIDTH 80
#define DEFAULT_HEIGHT 50
#define FIXED_KEYS 12 /* keys of every recipe, before the parameters */

/* Progression keys any recipe may carry (docs/recipes.md): dg_lock_place
 * settings and the floor of a stacked dungeon. They live at the end of
 * values[], after the longest parameter table; a flag slot says which groups
 * were given, so a recipe without them prints and runs as before. */
enum {
    SLOT_LOCKS = DGI_RECIPE_EXTRA_FIRST, SLOT_KEYS, SLOT_KINDS, SLOT_GATES, SLOT_SECRETS,
    SLOT_FLOORS, SLOT_FLOOR, SLOT_STAIRS, SLOT_DEPTH, SLOT_FLAGS
};
enum { FLAG_LOCKS = 1, FLAG_FLOORS = 2, FLAG_DEPTH = 4 };
#define EXTRA_KEYS 9
static const dg_param_desc extras[EXTRA_KEYS] = {
    {"locks", "locks placed after generation (dg_lock_place)", NULL, DG_PARAM_INT, 0, DG_LOCKS_MAX, 2, SLOT_LOCKS, 0},
    {"keys", "where keys go", "on-path|branch|dead-end", DG_PARAM_ENUM, 0, 2, DG_KEYS_BRANCH, SLOT_KEYS, 0},
    {"kinds", "key kinds", NULL, DG_PARAM_INT, 1, 8, 3, SLOT_KINDS, 0},
    {"gates", "most doors one lock closes", NULL, DG_PARAM_INT, 1, 8, 2, SLOT_GATES, 0},
    {"secrets", "permille of loop doors made secret; a quarter of it hides dead-end rooms", NULL, DG_PARAM_INT, 0, 1000, 0, SLOT_SECRETS, 0},
    {"floors", "floors of the stacked dungeon (dg_floor_generate)", NULL, DG_PARAM_INT, 1, DG_FLOORS_MAX, 1, SLOT_FLOORS, 0},
    {"floor", "the floor this recipe makes, 0 = top", NULL, DG_PARAM_INT, 0, DG_FLOORS_MAX - 1, 0, SLOT_FLOOR, 0},
    {"stairs", "stair pairs between neighbouring floors", NULL, DG_PARAM_INT, 1, DG_STAIRS_MAX, 1, SLOT_STAIRS, 0},
    {"depth", "the depth content is placed for (dg_populate)", NULL, DG_PARAM_INT, 0, 1000, 0, SLOT_DEPTH, 0},
};

/* The group flag of an extra key's slot. */
static int32_t extra_flag(int32_t slot)
{
    return slot < SLOT_FLOORS ? FLAG_LOCKS : slot < SLOT_DEPTH ? FLAG_FLOORS : FLAG_DEPTH;
}

static const dg_param_desc *extra_lookup(const char *key, size_t klen)
{
    for (int i = 0; i < EXTRA_KEYS; i++)
        if (strlen(extras[i].name) == klen && memcmp(extras[i].name, key, klen) == 0)
            return &extras[i];
    return NULL;
}

/* The group flag of an extra key, filling the group's defaults on first use. */
static void extra_group_on(dg_recipe *r, const dg_param_desc *e)
{
    int32_t flag = extra_flag(e->offset);
    if (r->values[SLOT_FLAGS] & flag)
        return;
    r->values[SLOT_FLAGS] |= flag;
    for (int i = 0; i < EXTRA_KEYS; i++)
        if (extra_flag(extras[i].offset) == flag)
            r->values[extras[i].offset] = extras[i].def;
}

int dgi_recipe_locks(const dg_recipe *r, dg_lock_params *locks)
{
    if (!(r->values[SLOT_FLAGS] & FLAG_LOCKS))
        return 0;
    dg_lock_defaults(locks);
    locks->locks = r->values[SLOT_LOCKS];
    locks->key_place = r->values[SLOT_KEYS];
    locks->kinds = r->values[SLOT_KINDS];
    locks->gate_max = r->values[SLOT_GATES];
    locks->secret_permille = r->values[SLOT_SECRETS];
    return 1;
}

int dgi_recipe_floor(const dg_recipe *r, int32_t *floor, int32_t *floors, int32_t *stairs)
{
    if (!(r->values[SLOT_FLAGS] & FLAG_FLOORS))
        return 0;
    *floors = r->values[SLOT_FLOORS];
    *floor = r->values[SLOT_FLOOR];
    *stairs = r->values[SLOT_STAIRS];
    return 1;
}

int dgi_recipe_depth(const dg_recipe *r, int32_t *depth)
{
    if (!(r->values[SLOT_FLAGS] & FLAG_DEPTH))
        return 0;
    *depth = r->values[SLOT_DEPTH];
    return 1;
}

/* 1 if the n bytes of a prefab file hint may go into a recipe line (and
 * unescaped into JSON and XML): letters, digits and . / _ - + only. */
static int hint_chars(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || (s[i] && strchr("./_-+", s[i]))))
            return 0;
    return 1;
}

static int hint_ok(const char *s, size_t n)
{
    return hint_chars(s, n) && n < DG_RECIPE_PREFABS_MAX;
}

/* The identities a recipe records: the prefab set, then its inputs. */
#define IDENTITIES (1 + DG_RECIPE_INPUTS)
static const char *const identity_names[IDENTITIES] = {"prefabs", "graph", "roles", "spawns"};

static const char *identity_file(const dg_recipe *r, int k)
{
    return k == 0 ? r->prefabs : r->inputs[k - 1].file;
}

static uint64_t identity_hash(const dg_recipe *r, int k)
{
    return k == 0 ? r->prefabs_hash : r->inputs[k - 1].hash;
}

static void identity_store(dg_recipe *r, int k, const uint64_t *hash, const char *file, size_t n)
{
    char *f = k == 0 ? r->prefabs : r->inputs[k - 1].file;
    if (hash)
        *(k == 0 ? &r->prefabs_hash : &r->inputs[k - 1].hash) = *hash;
    if (file)
    {
        char copy[DG_RECIPE_PREFABS_MAX] = {0}; /* file may be the recipe's own hint */
        memcpy(copy, file, n);
        memcpy(f, copy, sizeof copy);
    }
}

static int identities_ok(const dg_recipe *r)
{
    for (int k = 0; k < IDENTITIES; k++)
    {
        const char *f = identity_file(r, k);
        if (memchr(f, '\0', DG_RECIPE_PREFABS_MAX) == NULL || !hint_ok(f, strlen(f)))
            return 0;
    }
    return 1;
}

static const dgi_generator *recipe_gen(const dg_recipe *r)
{
    if (!r || memchr(r->generator, '\0', sizeof r->generator) == NULL || !identities_ok(r))
        return NULL;
    const dgi_generator *g = dgi_generator_lookup(r->generator);
    return g && g->param_count == r->param_count ? g : NULL;
}

dg_status dg_recipe_init(dg_recipe *recipe, const char *generator, uint64_t seed, int32_t width,
                         int32_t height)
{
    if (!recipe || !generator)
        return DG_E_NULL;
    const dgi_generator *g = dgi_generator_lookup(generator);
    if (!g)
        return DG_E_INVALID;
    /* the same size range dg_recipe_set and dg_recipe_parse accept */
    if (width < 1 || height < 1 || width > DG_GRID_MAX_DIM || height > DG_GRID_MAX_DIM)
        return DG_E_INVALID;
    /* the defaults come from the generator itself, through its table's offsets */
    _Alignas(max_align_t) unsigned char params[1024];
    if (g->params_size > sizeof params || g->param_count > DGI_RECIPE_EXTRA_FIRST)
        return DG_E_TOO_LARGE;
    g->defaults(params);
    memset(recipe, 0, sizeof *recipe);
    memcpy(recipe->generator, g->name, strlen(g->name) + 1);
    recipe->seed = seed;
    recipe->width = width;
    recipe->height = height;
    recipe->version = DG_OUTPUT_VERSION;
    recipe->param_count = g->param_count;
    for (int32_t i = 0; i < g->param_count; i++)
        memcpy(&recipe->values[i], params + g->params[i].offset, sizeof(int32_t));
    return DG_OK;
}

/* 1 if s[0..len) is one or more decimal digits. */
static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!(s[i] >= '0' && s[i] <= '9'))
            return 0;
    return len > 0;
}

/* Parses a seed: decimal (leading zeros are still decimal, never octal) or
 * 0x hex, the full unsigned 64-bit range; no sign, no blank. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    char buf[32];
    int hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    /* strtoull alone would take blanks, a sign or a second 0x */
    for (size_t i = hex ? 2 : 0; i < len; i++)
        if (!(s[i] >= '0' && s[i] <= '9') && !(hex && strchr("abcdefABCDEF", s[i]) && s[i]))
            return 0;
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf + (hex ? 2 : 0), &end, hex ? 16 : 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

/* A version part: digits only, no sign, no leading zero (so "0.03" and
 * "00.3" are not taken for 0.3). */
static int version_part(const char *s, size_t len, int64_t limit, int64_t *out)
{
    if (!all_digits(s, len) || (len > 1 && s[0] == '0') || len > 7)
        return 0;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++)
        v = v * 10 + (s[i] - '0');
    *out = v;
    return v < limit;
}

/* An output series as recipes write it: "M" (M >= 1) or "0.N" while the
 * major version is 0. 0 if malformed. */
static int parse_output_version(const char *s, size_t len, int32_t *out)
{
    const char *dot = memchr(s, '.', len);
    size_t major_len = dot ? (size_t)(dot - s) : len;
    int64_t major, minor = 0;
    if (!version_part(s, major_len, 1000001, &major) ||
        (dot && !version_part(dot + 1, len - major_len - 1, 1000, &minor)) || (major > 0 && dot))
        return 0;
    *out = (int32_t)(major * 1000 + minor);
    return 1;
}

/* The text of an output series as recipes write it ("0" for the 0.1 and
 * 0.2 recipes, which recorded only the major version), into buf. */
static const char *output_version_text(int32_t v, char *buf, size_t size)
{
    if (v > 0 && v < 1000)
        snprintf(buf, size, "0.%d", (int)v);
    else
        snprintf(buf, size, "%d", (int)(v / 1000));
    return buf;
}

/* DG_E_INVALID unless v is this library's output series. */
static dg_status check_output_version(int32_t v, int32_t line, int32_t column, dg_diag *diag)
{
    char theirs[24], ours[24];
    if (v == DG_OUTPUT_VERSION)
        return DG_OK;
    return dgi_fail_at(diag, DG_E_INVALID, line, column, "recipe is for libdungeon %s%s, this is %s: the map would differ",
                       output_version_text(v, theirs, sizeof theirs), v == 0 ? " (0.1 or 0.2)" : "",
                       output_version_text(DG_OUTPUT_VERSION, ours, sizeof ours));
}

static dg_status set_identity_hash(dg_recipe *r, int k, const char *value, size_t vlen,
                                   int32_t line, int32_t column, dg_diag *diag)
{
    uint64_t h;
    if (!parse_u64(value, vlen, &h) || h == 0)
        return dgi_fail_at(diag, DG_E_PARSE, line, column,
                           "%s_hash: '%.*s' is not a hash (0x and 16 hex digits)",
                           identity_names[k], (int)DG_MIN(vlen, 64), value);
    identity_store(r, k, &h, NULL, 0);
    return DG_OK;
}

static dg_status set_identity_file(dg_recipe *r, int k, const char *value, size_t vlen,
                                   int32_t line, int32_t column, dg_diag *diag)
{
    if (vlen == 0 || !hint_ok(value, vlen))
        return dgi_fail_at(diag, DG_E_PARSE, line, column,
                           "%s: '%.*s' must be a file name of 1..%d letters, digits, '.', '/', '_', '-' or '+'",
                           identity_names[k], (int)DG_MIN(vlen, 64), value,
                           DG_RECIPE_PREFABS_MAX - 1);
    identity_store(r, k, NULL, value, vlen);
    return DG_OK;
}

/* Sets key[0..klen) = value[0..vlen) in r; column locates the value for diag. */
static dg_status recipe_set(dg_recipe *r, const dgi_generator *g, const char *key, size_t klen,
                            const char *value, size_t vlen, int32_t column, dg_diag *diag)
{
    int32_t line = column ? 1 : 0;
    int64_t v;
    if (klen == 4 && memcmp(key, "seed", 4) == 0)
    {
        if (!parse_u64(value, vlen, &r->seed))
            return dgi_fail_at(diag, DG_E_PARSE, line, column,
                               "seed: '%.*s' is not an unsigned 64-bit number", (int)vlen, value);
        return DG_OK;
    }
    if (klen == 7 && memcmp(key, "version", 7) == 0)
    {
        int32_t version;
        if (!parse_output_version(value, vlen, &version))
            return dgi_fail_at(diag, DG_E_PARSE, line, column,
                               "version: '%.*s' is not a version (0.N while the major version is 0, else N)",
                               (int)vlen, value);
        dg_status st = check_output_version(version, line, column, diag);
        if (st == DG_OK)
            r->version = version;
        return st;
    }
    for (int k = 0; k < IDENTITIES; k++)
    {
        size_t nlen = strlen(identity_names[k]);
        if (klen < nlen || memcmp(key, identity_names[k], nlen) != 0)
            continue;
        if (klen == nlen + 5 && memcmp(key + nlen, "_hash", 5) == 0)
            return set_identity_hash(r, k, value, vlen, line, column, diag);
        if (klen == nlen)
            return set_identity_file(r, k, value, vlen, line, column, diag);
    }
    int is_w = klen == 5 && memcmp(key, "width", 5) == 0;
    int is_h = klen == 6 && memcmp(key, "height", 6) == 0;
    if (is_w || is_h)
    {
        if (!dgi_parse_i64(value, vlen, &v))
            return dgi_fail_at(diag, DG_E_PARSE, line, column, "%.*s: '%.*s' is not a whole number",
                               (int)klen, key, (int)vlen, value);
        if (v < 1 || v > DG_GRID_MAX_DIM)
            return dgi_fail_at(diag, DG_E_INVALID, line, column, "%.*s: %lld is out of range 1..%d",
                               (int)klen, key, (long long)v, DG_GRID_MAX_DIM);
        if (is_w)
            r->width = (int32_t)v;
        else if (is_h)
            r->height = (int32_t)v;
        return DG_OK;
    }
    const dg_param_desc *p = dgi_param_lookup(g, key, klen);
    const dg_param_desc *e = p ? NULL : extra_lookup(key, klen);
    if (e)
    {
        int32_t parsed;
        dg_status st = dgi_param_parse(e, value, vlen, &parsed, column, diag);
        if (st == DG_OK)
        {
            extra_group_on(r, e);
            r->values[e->offset] = parsed;
        }
        return st;
    }
    if (!p)
        return dgi_fail_at(diag, DG_E_PARSE, line, column ? column - (int32_t)klen - 1 : 0,
                           "generator '%s' has no parameter '%.*s'", g->name, (int)klen, key);
    return dgi_param_parse(p, value, vlen, &r->values[p - g->params], column, diag);
}

dg_status dg_recipe_set(dg_recipe *recipe, const char *key, const char *value, dg_diag *diag)
{
    if (!recipe || !key || !value)
        return dgi_fail(diag, DG_E_NULL, "recipe, key or value is NULL");
    const dgi_generator *g = recipe_gen(recipe);
    if (!g)
        return dgi_fail(diag, DG_E_INVALID, "the recipe names no registered generator");
    dg_recipe copy = *recipe;
    dg_status st = recipe_set(&copy, g, key, strlen(key), value, strlen(value), 0, diag);
    if (st == DG_OK)
        *recipe = copy;
    return st;
}

dg_status dg_recipe_get(const dg_recipe *recipe, const char *key, int32_t *value)
{
    const dgi_generator *g = recipe_gen(recipe);
    if (!key || !value)
        return DG_E_NULL;
    const dg_param_desc *p = g ? dgi_param_lookup(g, key, strlen(key)) : NULL;
    const dg_param_desc *e = g && !p ? extra_lookup(key, strlen(key)) : NULL;
    if (e)
    {
        int32_t flag = extra_flag(e->offset);
        *value = recipe->values[SLOT_FLAGS] & flag ? recipe->values[e->offset] : e->def;
        if (!(recipe->values[SLOT_FLAGS] & flag) && e->offset == SLOT_LOCKS)
            *value = 0; /* no lock keys: no locks */
        return DG_OK;
    }
    if (!p)
        return DG_E_INVALID;
    *value = recipe->values[p - g->params];
    return DG_OK;
}

static void emit_value(dgi_out *o, const dg_param_desc *p, int32_t v)
{
    if (p->type == DG_PARAM_ENUM && p->choices && v >= 0 && v <= p->max)
    {
        const char *c = p->choices;
        for (int32_t i = 0; i < v; i++)
            c += strcspn(c, "|") + 1;
        dgi_out_bytes(o, c, strcspn(c, "|"));
    }
    else
        dgi_out_i64(o, v);
}

/* " NAME=FILE NAME_hash=0x..." for what identity k records (nothing if none). */
static void emit_identity(dgi_out *o, const dg_recipe *r, int k)
{
    if (identity_file(r, k)[0])
    {
        dgi_out_char(o, ' ');
        dgi_out_str(o, identity_names[k]);
        dgi_out_char(o, '=');
        dgi_out_str(o, identity_file(r, k));
    }
    if (identity_hash(r, k))
    {
        char text[24];
        snprintf(text, sizeof text, "0x%016llx", (unsigned long long)identity_hash(r, k));
        dgi_out_char(o, ' ');
        dgi_out_str(o, identity_names[k]);
        dgi_out_str(o, "_hash=");
        dgi_out_str(o, text);
    }
}

void dgi_recipe_emit(const void *ctx, dgi_out *o)
{
    const dg_recipe *r = ctx;
    const dgi_generator *g = recipe_gen(r);
    dgi_out_str(o, g->name);
    dgi_out_str(o, " seed=");
    dgi_out_u64(o, r->seed);
    dgi_out_str(o, " width=");
    dgi_out_i64(o, r->width);
    dgi_out_str(o, " height=");
    dgi_out_i64(o, r->height);
    for (int32_t i = 0; i < g->param_count; i++)
    {
        dgi_out_char(o, ' ');
        dgi_out_str(o, g->params[i].name);
        dgi_out_char(o, '=');
        emit_value(o, &g->params[i], r->values[i]);
    }
    for (int i = 0; i < EXTRA_KEYS; i++)
        if (r->values[SLOT_FLAGS] & extra_flag(extras[i].offset))
        {
            dgi_out_char(o, ' ');
            dgi_out_str(o, extras[i].name);
            dgi_out_char(o, '=');
            emit_value(o, &extras[i], r->values[extras[i].offset]);
        }
    for (int k = 0; k < IDENTITIES; k++)
        emit_identity(o, r, k);
    char version[24];
    dgi_out_str(o, " version=");
    dgi_out_str(o, output_version_text(r->version, version, sizeof version));
}

dg_status dg_recipe_print(const dg_recipe *recipe, char *out, size_t out_size, size_t *written)
{
    if (!recipe)
        return DG_E_NULL;
    if (!recipe_gen(recipe))
        return DG_E_INVALID;
    return dgi_out_to_buffer(dgi_recipe_emit, recipe, out, out_size, written);
}

/* Recipe text stream (the text need not be NUL-terminated). */
typedef struct scan {
    const char *text;
    size_t len, pos;
} scan;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next blank-separated word: *start and length; 0 at the end. */
static size_t next_word(scan *s, size_t *start)
{
    while (s->pos < s->len && is_blank(s->text[s->pos]))
        s->pos++;
    *start = s->pos;
    while (s->pos < s->len && !is_blank(s->text[s->pos]))
        s->pos++;
    return s->pos - *start;
}

/* Words that are each in range but cannot go together: a recipe line that
 * could never make a map is refused when it is read, not when it runs.
 * floor_col and floors_col locate the words (0: not given). */
static dg_status check_relations(const dg_recipe *r, int32_t floor_col, int32_t floors_col,
                                 dg_diag *diag)
{
    if ((r->values[SLOT_FLAGS] & FLAG_FLOORS) && r->values[SLOT_FLOOR] >= r->values[SLOT_FLOORS])
        return dgi_fail_at(diag, DG_E_INVALID, 1, floor_col ? floor_col : floors_col,
                           "floor=%d is not below floors=%d%s: floors are numbered 0..floors-1, "
                           "so the recipe could never make a map",
                           (int)r->values[SLOT_FLOOR], (int)r->values[SLOT_FLOORS],
                           floors_col ? "" : " (the default)");
    return DG_OK;
}

dg_status dg_recipe_parse(const char *text, size_t length, dg_recipe *recipe, dg_diag *diag)
{
    if (!text || !recipe)
        return dgi_fail(diag, DG_E_NULL, "text or recipe is NULL");
    const char *nul = memchr(text, '\0', length);
    if (nul) /* C strings would silently drop what follows it */
        return dgi_fail_at(diag, DG_E_PARSE, 1, (int32_t)DG_MIN(nul - text + 1, INT32_MAX),
                           "a NUL byte inside the recipe text");
    scan s = {text, length, 0};
    size_t at, n = next_word(&s, &at);
    if (n == 0)
        return dgi_fail_at(diag, DG_E_PARSE, 1, 1, "empty recipe: expected a generator name");
    char name[DG_NAME_MAX];
    const dgi_generator *g = NULL;
    if (n < sizeof name)
    {
        memcpy(name, text + at, n);
        name[n] = '\0';
        g = memchr(name, '=', n) ? NULL : dgi_generator_lookup(name);
    }
    if (!g)
        return dgi_fail_at(diag, DG_E_PARSE, 1, (int32_t)at + 1,
                           "unknown generator '%.*s' (a recipe starts with a generator name)",
                           (int)DG_MIN(n, 64), text + at);
    dg_recipe r;
    dg_status st = dg_recipe_init(&r, g->name, DEFAULT_SEED, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    if (st != DG_OK)
        return dgi_fail(diag, st, "cannot make a recipe for '%s'", g->name);
    uint64_t seen[(DG_RECIPE_MAX_PARAMS + FIXED_KEYS + EXTRA_KEYS + 63) / 64] = {0};
    int32_t floor_col = 0, floors_col = 0; /* where floor= and floors= were */
    while ((n = next_word(&s, &at)) != 0)
    {
        const char *w = text + at, *eq = memchr(w, '=', n);
        int32_t col = (int32_t)at + 1;
        if (!eq || eq == w)
            return dgi_fail_at(diag, DG_E_PARSE, 1, col, "expected KEY=VALUE, got '%.*s'",
                               (int)DG_MIN(n, 64), w);
        size_t klen = (size_t)(eq - w);
        /* slot for the duplicate check: the fixed keys, then the table */
        static const char *const fixed[FIXED_KEYS] = {
            "seed", "width", "height", "version", "prefabs", "prefabs_hash", "graph",
            "graph_hash", "roles", "roles_hash", "spawns", "spawns_hash"};
        int32_t slot = -1;
        for (int32_t i = 0; i < FIXED_KEYS; i++)
            if (strlen(fixed[i]) == klen && memcmp(fixed[i], w, klen) == 0)
                slot = i;
        const dg_param_desc *p = slot < 0 ? dgi_param_lookup(g, w, klen) : NULL;
        const dg_param_desc *e = slot < 0 && !p ? extra_lookup(w, klen) : NULL;
        if (p)
            slot = FIXED_KEYS + (int32_t)(p - g->params);
        if (e)
            slot = FIXED_KEYS + DG_RECIPE_MAX_PARAMS + (int32_t)(e - extras);
        if (slot >= 0 && (seen[slot / 64] >> (slot % 64) & 1u))
            return dgi_fail_at(diag, DG_E_PARSE, 1, col, "'%.*s' is given twice", (int)klen, w);
        if (slot >= 0)
            seen[slot / 64] |= (uint64_t)1 << (slot % 64);
        if (e && e->offset == SLOT_FLOOR)
            floor_col = col;
        if (e && e->offset == SLOT_FLOORS)
            floors_col = col;
        st = recipe_set(&r, g, w, klen, eq + 1, n - klen - 1, col + (int32_t)klen + 1, diag);
        if (st != DG_OK)
            return st;
    }
    st = check_relations(&r, floor_col, floors_col, diag);
    if (st != DG_OK)
        return st;
    *recipe = r;
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_recipe_params(const dg_recipe *recipe, void *params, size_t params_size)
{
    if (!recipe)
        return DG_E_NULL;
    const dgi_generator *g = recipe_gen(recipe);
    if (!g)
        return DG_E_INVALID;
    dg_status st = dgi_params_check_size(g, recipe->generator, params, params_size, NULL);
    if (st != DG_OK)
        return st;
    g->defaults(params); /* fields outside the table (if any) get their defaults */
    for (int32_t i = 0; i < g->param_count; i++)
        memcpy((unsigned char *)params + g->params[i].offset, &recipe->values[i], sizeof(int32_t));
    return DG_OK;
}

dg_status dg_recipe_from_params(dg_recipe *recipe, const char *generator, const void *params,
                                size_t params_size, uint64_t seed, int32_t width, int32_t height,
                                dg_diag *diag)
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    const dgi_generator *g = dgi_generator_lookup(generator);
    dg_status st = dgi_params_check_size(g, generator, params, params_size, diag);
    if (st != DG_OK)
        return st;
    int32_t spare[DG_SPARE_SLOTS];
    memcpy(spare, (const unsigned char *)params + g->spare_offset,
           (size_t)g->spare_slots * sizeof *spare);
    if ((st = dgi_spare_check_n(spare, g->spare_slots, g->name, diag)) != DG_OK)
        return st;
    dg_recipe r;
    st = dg_recipe_init(&r, g->name, seed, width, height);
    if (st != DG_OK)
        return dgi_fail(diag, st, "cannot make a recipe for '%s'", g->name);
    for (int32_t i = 0; i < g->param_count; i++)
    {
        const dg_param_desc *p = &g->params[i];
        int32_t v;
        memcpy(&v, (const unsigned char *)params + p->offset, sizeof v);
        if (v < p->min || v > p->max)
            return dgi_fail(diag, DG_E_INVALID, "%s: %d is out of range %d..%d", p->name, (int)v,
                            (int)p->min, (int)p->max);
        r.values[i] = v;
    }
    *recipe = r;
    return DG_OK;
}

/* Records identity k: the hash, and the file as a hint. A path too long for
 * the hint keeps its base name: with the hash it still names the input
 * wherever the file lives, where a dropped hint would name nothing.
 * Characters a recipe cannot hold are refused. */
static dg_status record_identity(dg_recipe *recipe, int k, uint64_t hash, const char *file,
                                 dg_diag *diag)
{
    size_t n = file ? strlen(file) : 0;
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (n >= DG_RECIPE_PREFABS_MAX && slash && hint_chars(file, n) && slash[1])
    {
        file = slash + 1;
        n = strlen(file);
    }
    if (!hint_ok(file ? file : "", n))
        return dgi_fail(diag, DG_E_INVALID,
                        "%s file '%.64s' cannot be recorded: letters, digits, '.', '/', '_', "
                        "'-' or '+' only, and a base name of at most %d bytes",
                        k == 0 ? "prefab" : identity_names[k], file, DG_RECIPE_PREFABS_MAX - 1);
    identity_store(recipe, k, &hash, file ? file : "", n);
    return DG_OK;
}

dg_status dg_recipe_set_prefabs(dg_recipe *recipe, const dg_prefab_set *set, const char *file,
                                dg_diag *diag)
{
    if (!recipe || !set)
        return dgi_fail(diag, DG_E_NULL, "recipe or set is NULL");
    if (!recipe_gen(recipe))
        return dgi_fail(diag, DG_E_INVALID, "the recipe names no registered generator");
    return record_identity(recipe, 0, dg_prefab_set_hash(set), file, diag);
}

dg_status dg_recipe_set_input(dg_recipe *recipe, int32_t which, uint64_t hash, const char *file,
                              dg_diag *diag)
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    if (!recipe_gen(recipe))
        return dgi_fail(diag, DG_E_INVALID, "the recipe names no registered generator");
    if (which < 0 || which >= DG_RECIPE_INPUTS)
        return dgi_fail(diag, DG_E_INVALID, "input %d: DG_RECIPE_GRAPH, _ROLES or _SPAWNS (0..%d)",
                        (int)which, DG_RECIPE_INPUTS - 1);
    if (hash == 0)
        return dgi_fail(diag, DG_E_INVALID, "%s: a hash of 0 records nothing",
                        identity_names[which + 1]);
    return record_identity(recipe, which + 1, hash, file, diag);
}

/* A recipe that records a prefab set runs only with that set: another or
 * none would give another map. */
static dg_status check_prefabs(const dg_recipe *r, const dgi_generator *g,
                               const dg_prefab_set *prefabs, dg_diag *diag)
{
    const char *file = r->prefabs[0] ? r->prefabs : "(no file recorded)";
    if (r->prefabs_hash && !prefabs)
        return dgi_fail(diag, DG_E_INVALID,
                        "the recipe was made with the prefab set %s (prefabs_hash=0x%016llx): pass that set",
                        file, (unsigned long long)r->prefabs_hash);
    uint64_t have = r->prefabs_hash ? dg_prefab_set_hash(prefabs) : 0;
    if (have != r->prefabs_hash)
        return dgi_fail(diag, DG_E_INVALID,
                        "the prefab set (hash 0x%016llx) is not the recipe's %s (prefabs_hash=0x%016llx): the map would differ",
                        (unsigned long long)have, file, (unsigned long long)r->prefabs_hash);
    if (g->needs_prefabs && !prefabs)
        return dgi_fail(diag, DG_E_NULL, "generator '%s' needs a prefab set", g->name);
    return DG_OK;
}

/* Generator 'graph' runs only with a level graph, and with the recipe's one if
 * it records a graph_hash: another would give another map. */
static dg_status check_graph(const dg_recipe *r, const dgi_generator *g, const dg_graph *graph,
                             dg_diag *diag)
{
    if (!g->needs_graph)
        return DG_OK;
    if (!graph)
        return dgi_fail(diag, DG_E_NULL, "generator '%s' needs a level graph (dg_site.graph)",
                        g->name);
    const dg_recipe_input *want = &r->inputs[DG_RECIPE_GRAPH];
    uint64_t have = dg_graph_hash(graph);
    if (want->hash && have != want->hash)
        return dgi_fail(diag, DG_E_INVALID,
                        "the level graph (hash 0x%016llx) is not the recipe's %s (graph_hash=0x%016llx): the map would differ",
                        (unsigned long long)have, want->file[0] ? want->file : "(no file recorded)",
                        (unsigned long long)want->hash);
    return DG_OK;
}

dg_status dgi_recipe_run(const dg_recipe *recipe, dg_grid *grid, const dg_prefab_set *prefabs,
                         const dg_graph *graph, const dgi_mask *reserved, dg_result *result,
                         const dg_allocator *allocator, dg_diag *diag)
{
    if (!recipe)
        return dgi_fail(diag, DG_E_NULL, "recipe is NULL");
    const dgi_generator *g = recipe_gen(recipe);
    if (!g)
        return dgi_fail(diag, DG_E_INVALID, "the recipe names no registered generator");
    dg_status st = check_output_version(recipe->version, 0, 0, diag);
    if (st != DG_OK)
        return st;
    if (grid->width != recipe->width || grid->height != recipe->height)
        return dgi_fail(diag, DG_E_INVALID, "grid is %dx%d but the recipe is for %dx%d",
                        (int)grid->width, (int)grid->height, (int)recipe->width,
                        (int)recipe->height);
    st = check_prefabs(recipe, g, prefabs, diag);
    if (st == DG_OK)
        st = check_graph(recipe, g, graph, diag);
    if (st != DG_OK)
        return st;
    for (int32_t i = 0; i < g->param_count; i++)
        if (recipe->values[i] < g->params[i].min || recipe->values[i] > g->params[i].max)
            return dgi_fail(diag, DG_E_INVALID, "%s: %d is out of range %d..%d", g->params[i].name,
                            (int)recipe->values[i], (int)g->params[i].min, (int)g->params[i].max);
    _Alignas(max_align_t) unsigned char params[1024];
    st = dg_recipe_params(recipe, params, sizeof params);
    if (st != DG_OK)
        return dgi_fail(diag, st, "cannot fill the parameters of '%s'", g->name);
    if (g->needs_graph)
        return dgi_graph_run(grid, graph, params, recipe->seed, reserved, result, allocator, diag);
    return g->run(grid, params, recipe->seed, prefabs, reserved, result, allocator, diag);
}
