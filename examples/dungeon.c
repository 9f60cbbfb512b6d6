/* dungeon: generate a map with any libdungeon generator and write it as ASCII or PNG.
 *
 *   dungeon --gen attach --seed 42 --width 80 --height 50 --format png -o map.png
 *
 * Exit codes: 0 success, 1 generation failed, 2 usage error, 3 I/O error. */
#include <dungeon.h>
#include <stb_image_write.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_GEN = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

/* ---- options ------------------------------------------------------------ */
#define MAX_PARAMS 64

typedef struct options {
    const char *gen;
    uint64_t seed;
    int32_t width, height;
    const char *params[MAX_PARAMS];
    int param_count;
    const char *prefabs;    /* prefab file for the prefab generators */
    const char *format;     /* ascii | png */
    int32_t scale;          /* PNG pixels per cell */
    const char *output;     /* file or "-" */
    int stats;              /* print the result summary to stderr */
} options;

/* Context a generator's run function may need beyond its parameters. */
typedef struct tool_ctx {
    const options *opt; /* e.g. opt->prefabs, the --prefabs path */
} tool_ctx;

/* ---- generator table --------------------------------------------------- */
/* Every parameter is an int32_t field of the generator's params struct. */
typedef struct param_def {
    const char *name;
    size_t offset;
    const char *help;
} param_def;
#define PARAM(type, field, help) {#field, offsetof(type, field), help}

typedef dg_status (*gen_run)(dg_grid *grid, const void *params, const tool_ctx *ctx,
                             uint64_t seed, dg_result *result, dg_diag *diag);

typedef struct gen_def {
    const char *name;
    const char *summary;
    const param_def *params; /* NULL-terminated */
    size_t params_size;
    void (*defaults)(void *params);
    gen_run run;
    int needs_prefabs;
} gen_def;

/* attach */
static const param_def attach_params[] = {
    PARAM(dg_attach_params, room_min_w, "room interior width, minimum"),
    PARAM(dg_attach_params, room_max_w, "room interior width, maximum"),
    PARAM(dg_attach_params, room_min_h, "room interior height, minimum"),
    PARAM(dg_attach_params, room_max_h, "room interior height, maximum"),
    PARAM(dg_attach_params, corridor_min, "corridor length, minimum"),
    PARAM(dg_attach_params, corridor_max, "corridor length, maximum"),
    PARAM(dg_attach_params, max_features, "rooms + corridors budget (0 = by area)"),
    PARAM(dg_attach_params, room_after_corridor, "permille chance of a room after a corridor"),
    PARAM(dg_attach_params, target_floor, "stop at this floor permille (0 = off)"),
    PARAM(dg_attach_params, max_attempts, "total placement attempts (0 = automatic)"),
    PARAM(dg_attach_params, max_failures, "consecutive failures before stopping"),
    PARAM(dg_attach_params, growth, "0 uniform, 1 newest-first, 2 oldest-first"),
    PARAM(dg_attach_params, loop_min_gain, "open loops that save at least N steps (0 = off)"),
    PARAM(dg_attach_params, loop_max, "maximum loops opened"),
    PARAM(dg_attach_params, dead_ends, "0 keep, 1 prune, 2 room at the end"),
    PARAM(dg_attach_params, doors, "0 all junctions, 1 room junctions, 2 none"),
    {NULL, 0, NULL},
};
static void attach_defaults(void *p) { dg_attach_defaults(p); }
static dg_status attach_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                            dg_result *r, dg_diag *d)
{
    (void)c;
    return dg_attach_generate(g, p, seed, r, NULL, d);
}

/* chain */
static const param_def chain_params[] = {
    PARAM(dg_chain_params, rooms_min, "rooms asked for, minimum"),
    PARAM(dg_chain_params, rooms_max, "rooms asked for, maximum"),
    PARAM(dg_chain_params, room_min_w, "room interior width, minimum"),
    PARAM(dg_chain_params, room_max_w, "room interior width, maximum"),
    PARAM(dg_chain_params, room_min_h, "room interior height, minimum"),
    PARAM(dg_chain_params, room_max_h, "room interior height, maximum"),
    PARAM(dg_chain_params, corridor_min, "corridor length, minimum"),
    PARAM(dg_chain_params, corridor_max, "corridor length, maximum"),
    PARAM(dg_chain_params, overlap, "0 rooms may overlap, 1 forbid overlap"),
    PARAM(dg_chain_params, max_tries, "draws per room (forbid) / rooms tried when stuck"),
    PARAM(dg_chain_params, on_stuck, "0 stop, 1 branch from earlier rooms"),
    PARAM(dg_chain_params, branch_chance, "permille chance to leave a random earlier room"),
    PARAM(dg_chain_params, loop_chance, "permille chance per room of a loop corridor"),
    PARAM(dg_chain_params, loop_reach, "longest loop corridor (0 = 2 * corridor_max)"),
    PARAM(dg_chain_params, start, "0 middle room, 1 first room"),
    PARAM(dg_chain_params, border, "1 wall frame around the map, 0 none"),
    {NULL, 0, NULL},
};
static void chain_defaults(void *p) { dg_chain_defaults(p); }
static dg_status chain_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                           dg_result *r, dg_diag *d)
{
    (void)c;
    return dg_chain_generate(g, p, seed, r, NULL, d);
}

/* prefab-full, prefab-jigsaw, prefab-islands, prefab-mixed: read --prefabs FILE */
static void print_parse_error(void *user, const dg_diag *d)
{
    (void)user;
    fprintf(stderr, "dungeon: %s\n", d->message);
}

static dg_status load_prefabs(const tool_ctx *c, dg_prefab_set **set, dg_diag *d)
{
    dg_status st = dg_prefab_load(c->opt->prefabs, NULL, print_parse_error, NULL, set, d);
    if (st == DG_E_PARSE)
        snprintf(d->message, sizeof d->message, "%s has errors (listed above)", c->opt->prefabs);
    return st;
}

static const param_def prefab_full_params[] = {
    PARAM(dg_prefab_full_params, orientations, "allowed orientation bits (255 = all)"),
    PARAM(dg_prefab_full_params, keep, "0 fill the map first, 1 keep cells under void glyphs"),
    PARAM(dg_prefab_full_params, fill, "tile around the prefab and under void (0 = void)"),
    {NULL, 0, NULL},
};
static void prefab_full_defaults(void *p) { dg_prefab_full_defaults(p); }
static dg_status prefab_full_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                                 dg_result *r, dg_diag *d)
{
    dg_prefab_set *set;
    dg_status st = load_prefabs(c, &set, d);
    if (st == DG_OK)
        st = dg_prefab_full_generate(g, set, p, seed, r, NULL, d);
    dg_prefab_set_free(set);
    return st;
}

static const param_def prefab_jigsaw_params[] = {
    PARAM(dg_prefab_jigsaw_params, block_w, "block width (0 = size of the first candidate)"),
    PARAM(dg_prefab_jigsaw_params, block_h, "block height (0 = size of the first candidate)"),
    PARAM(dg_prefab_jigsaw_params, orientations, "allowed orientation bits (255 = all)"),
    PARAM(dg_prefab_jigsaw_params, unique, "1 each prefab at most once"),
    PARAM(dg_prefab_jigsaw_params, seams, "0 match edge signatures, 1 shared open cell, 2 any"),
    PARAM(dg_prefab_jigsaw_params, connected, "1 redo the map until every passable cell is connected"),
    PARAM(dg_prefab_jigsaw_params, max_tries, "maps tried from derived seeds"),
    PARAM(dg_prefab_jigsaw_params, fill, "tile outside the whole blocks (0 = void)"),
    {NULL, 0, NULL},
};
static void prefab_jigsaw_defaults(void *p) { dg_prefab_jigsaw_defaults(p); }
static dg_status prefab_jigsaw_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                                   dg_result *r, dg_diag *d)
{
    dg_prefab_set *set;
    dg_status st = load_prefabs(c, &set, d);
    if (st == DG_OK)
        st = dg_prefab_jigsaw_generate(g, set, p, seed, r, NULL, d);
    dg_prefab_set_free(set);
    return st;
}

static const param_def prefab_islands_params[] = {
    PARAM(dg_prefab_islands_params, orientations, "allowed orientation bits (255 = all)"),
    PARAM(dg_prefab_islands_params, margin, "free cells between buildings (-1 = each prefab's own)"),
    PARAM(dg_prefab_islands_params, positions, "random positions tried per building"),
    PARAM(dg_prefab_islands_params, max_failures, "buildings in a row without a place before a group stops"),
    PARAM(dg_prefab_islands_params, keep, "0 fill the map with ground first, 1 keep it"),
    PARAM(dg_prefab_islands_params, fill, "ground tile (1 = floor)"),
    PARAM(dg_prefab_islands_params, connected, "1 redo the map until every passable cell is connected"),
    PARAM(dg_prefab_islands_params, max_tries, "maps tried from derived seeds"),
    {NULL, 0, NULL},
};
static void prefab_islands_defaults(void *p) { dg_prefab_islands_defaults(p); }
static dg_status prefab_islands_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                                    dg_result *r, dg_diag *d)
{
    dg_prefab_set *set;
    dg_status st = load_prefabs(c, &set, d);
    if (st == DG_OK)
        st = dg_prefab_islands_generate(g, set, p, seed, r, NULL, d);
    dg_prefab_set_free(set);
    return st;
}

/* prefab-mixed: the attach generator (defaults), then vaults in its rooms. */
static const param_def prefab_mixed_params[] = {
    PARAM(dg_prefab_mixed_params, count, "vaults to place, at most"),
    PARAM(dg_prefab_mixed_params, mode, "mode bit of the vaults (1 full, 2 jigsaw, 4 island, 8 furnish)"),
    PARAM(dg_prefab_mixed_params, orientations, "allowed orientation bits (255 = all)"),
    PARAM(dg_prefab_mixed_params, positions, "positions tried per vault"),
    PARAM(dg_prefab_mixed_params, in_rooms, "1 only inside the attach generator's rooms"),
    PARAM(dg_prefab_mixed_params, unique, "1 each prefab at most once"),
    {NULL, 0, NULL},
};
static void prefab_mixed_defaults(void *p) { dg_prefab_mixed_defaults(p); }
static dg_status prefab_mixed_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                                  dg_result *r, dg_diag *d)
{
    dg_prefab_set *set;
    dg_attach_params host;
    dg_attach_defaults(&host);
    dg_status st = load_prefabs(c, &set, d);
    if (st == DG_OK)
        st = dg_attach_generate(g, &host, seed, r, NULL, d);
    if (st == DG_OK)
        st = dg_prefab_mixed_generate(g, set, p, seed, r, NULL, d);
    dg_prefab_set_free(set);
    return st;
}

/* world: the window of the infinite world centred on room (0, 0); --prefabs
 * (optional) furnishes its rooms */
static const param_def world_params[] = {
    PARAM(dg_world_params, room_size, "room interior size, odd (3..125)"),
    PARAM(dg_world_params, loop_permille, "permille chance of a door outside the tree"),
    PARAM(dg_world_params, dead_end_fix, "permille chance a dead end opens a second door"),
    PARAM(dg_world_params, furnish_permille, "permille chance a room is furnished (--prefabs)"),
    PARAM(dg_world_params, variants, "randomised stamps per prefab and orientation"),
    {NULL, 0, NULL},
};
static void world_defaults(void *p) { dg_world_defaults(p); }
static dg_status world_run(dg_grid *g, const void *p, const tool_ctx *c, uint64_t seed,
                           dg_result *r, dg_diag *d)
{
    (void)r;
    dg_world_params wp = *(const dg_world_params *)p;
    dg_prefab_set *set = NULL;
    dg_world *w = NULL;
    dg_status st = c->opt->prefabs ? load_prefabs(c, &set, d) : DG_OK;
    wp.furnishing = set;
    if (st == DG_OK)
        st = dg_world_create(&wp, seed, NULL, &w, d);
    int32_t centre = dg_world_period(w) / 2; /* the middle tile of room (0, 0) */
    if (st == DG_OK)
        st = dg_world_render(w, centre - g->width / 2, centre - g->height / 2, g, NULL, 0, NULL, d);
    dg_world_free(w);
    dg_prefab_set_free(set);
    return st;
}

static const gen_def generators[] = {
    {"attach", "rooms and corridors attached outward from a central room", attach_params,
     sizeof(dg_attach_params), attach_defaults, attach_run, 0},
    {"chain", "a chain of rooms joined by corridors, overlapping on purpose", chain_params,
     sizeof(dg_chain_params), chain_defaults, chain_run, 0},
    {"prefab-full", "one hand-drawn prefab is the whole map (centred)", prefab_full_params,
     sizeof(dg_prefab_full_params), prefab_full_defaults, prefab_full_run, 1},
    {"prefab-jigsaw", "equal blocks, each a prefab flipped or rotated to fit", prefab_jigsaw_params,
     sizeof(dg_prefab_jigsaw_params), prefab_jigsaw_defaults, prefab_jigsaw_run, 1},
    {"prefab-islands", "prefab buildings at free spots, by group counts", prefab_islands_params,
     sizeof(dg_prefab_islands_params), prefab_islands_defaults, prefab_islands_run, 1},
    {"prefab-mixed", "attach map with prefab vaults stamped into its rooms", prefab_mixed_params,
     sizeof(dg_prefab_mixed_params), prefab_mixed_defaults, prefab_mixed_run, 1},
    {"world", "a window of the infinite world around room (0, 0)", world_params,
     sizeof(dg_world_params), world_defaults, world_run, 0},
};
#define GEN_COUNT (sizeof generators / sizeof generators[0])

static const gen_def *find_gen(const char *name)
{
    for (size_t i = 0; i < GEN_COUNT; i++)
        if (strcmp(generators[i].name, name) == 0)
            return &generators[i];
    return NULL;
}

/* ---- usage ----------------------------------------------------------------- */
static void usage(FILE *f)
{
    fprintf(f,
            "usage: dungeon --gen NAME [options]\n"
            "\n"
            "Generate a dungeon with libdungeon and write it as ASCII text or PNG.\n"
            "\n"
            "  --gen NAME          generator (see --list)\n"
            "  --seed N            64-bit seed (default 1)\n"
            "  --width W           map width in cells (default 80)\n"
            "  --height H          map height in cells (default 50)\n"
            "  --param KEY=VALUE   set a generator parameter (repeatable; see --list-params)\n"
            "  --prefabs FILE      prefab file for the prefab generators\n"
            "  --format ascii|png  output format (default ascii)\n"
            "  --scale N           PNG pixels per cell (default 8)\n"
            "  -o FILE             output file, - for stdout (default -)\n"
            "  --stats             print rooms, start, exit and metrics to stderr\n"
            "  --list              list generators\n"
            "  --list-params NAME  list a generator's parameters with defaults\n"
            "  --version           print the library version\n"
            "  --help              this text\n"
            "\n"
            "Exit codes: 0 success, 1 generation failed, 2 usage error, 3 I/O error.\n");
}

static void list_generators(void)
{
    for (size_t i = 0; i < GEN_COUNT; i++)
        printf("%-16s %s\n", generators[i].name, generators[i].summary);
}

static int list_params(const char *name)
{
    const gen_def *g = find_gen(name);
    if (!g)
    {
        fprintf(stderr, "dungeon: unknown generator '%s' (see --list)\n", name);
        return EXIT_USAGE;
    }
    _Alignas(max_align_t) unsigned char buf[1024];
    g->defaults(buf);
    for (const param_def *p = g->params; p->name; p++)
    {
        int32_t v;
        memcpy(&v, buf + p->offset, sizeof v);
        printf("%-20s %8" PRId32 "  %s\n", p->name, v, p->help);
    }
    return 0;
}

/* ---- argument parsing -------------------------------------------------- */
static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end)
        return 0;
    *out = v;
    return 1;
}

static int need_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc)
    {
        fprintf(stderr, "dungeon: %s needs a value\n", argv[i]);
        return 0;
    }
    return 1;
}

/* Returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++)
    {
        const char *a = argv[i];
        int64_t v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
        {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--version"))
        {
            printf("dungeon (libdungeon) %s\n", dg_version());
            return 0;
        }
        if (!strcmp(a, "--list"))
        {
            list_generators();
            return 0;
        }
        if (!strcmp(a, "--stats"))
        {
            o->stats = 1;
            continue;
        }
        if (a[0] != '-' || !need_value(argc, argv, i))
        {
            if (a[0] != '-')
                fprintf(stderr, "dungeon: unexpected argument '%s'\n", a);
            return EXIT_USAGE;
        }
        const char *val = argv[++i];
        if (!strcmp(a, "--list-params"))
            return list_params(val);
        else if (!strcmp(a, "--gen"))
            o->gen = val;
        else if (!strcmp(a, "--seed"))
        {
            if (!parse_u64(val, &o->seed))
            {
                fprintf(stderr, "dungeon: --seed '%s' is not an unsigned 64-bit number\n", val);
                return EXIT_USAGE;
            }
        }
        else if (!strcmp(a, "--width") || !strcmp(a, "--height") || !strcmp(a, "--scale"))
        {
            int64_t max = !strcmp(a, "--scale") ? 64 : DG_GRID_MAX_DIM;
            if (!parse_i64(val, 1, max, &v))
            {
                fprintf(stderr, "dungeon: %s '%s' must be a whole number from 1 to %" PRId64 "\n",
                        a, val, max);
                return EXIT_USAGE;
            }
            if (!strcmp(a, "--width"))
                o->width = (int32_t)v;
            else if (!strcmp(a, "--height"))
                o->height = (int32_t)v;
            else
                o->scale = (int32_t)v;
        }
        else if (!strcmp(a, "--param"))
        {
            if (o->param_count == MAX_PARAMS)
            {
                fprintf(stderr, "dungeon: more than %d --param options\n", MAX_PARAMS);
                return EXIT_USAGE;
            }
            o->params[o->param_count++] = val;
        }
        else if (!strcmp(a, "--prefabs"))
            o->prefabs = val;
        else if (!strcmp(a, "--format"))
            o->format = val;
        else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            o->output = val;
        else
        {
            fprintf(stderr, "dungeon: unknown option '%s' (see --help)\n", a);
            return EXIT_USAGE;
        }
    }
    return -1;
}

static int apply_params(const gen_def *g, const options *o, unsigned char *buf)
{
    g->defaults(buf);
    for (int i = 0; i < o->param_count; i++)
    {
        const char *kv = o->params[i], *eq = strchr(kv, '=');
        if (!eq)
        {
            fprintf(stderr, "dungeon: --param '%s' must be KEY=VALUE\n", kv);
            return 0;
        }
        const param_def *p = g->params;
        while (p->name && (strlen(p->name) != (size_t)(eq - kv) || strncmp(p->name, kv, (size_t)(eq - kv))))
            p++;
        int64_t v;
        if (!p->name)
        {
            fprintf(stderr, "dungeon: generator '%s' has no parameter '%.*s' (see --list-params %s)\n",
                    g->name, (int)(eq - kv), kv, g->name);
            return 0;
        }
        if (!parse_i64(eq + 1, INT32_MIN, INT32_MAX, &v))
        {
            fprintf(stderr, "dungeon: parameter %s: '%s' is not a 32-bit integer\n", p->name, eq + 1);
            return 0;
        }
        int32_t v32 = (int32_t)v;
        memcpy(buf + p->offset, &v32, sizeof v32);
    }
    return 1;
}

/* ---- output ------------------------------------------------------------------ */
static FILE *open_out(const char *path)
{
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "wb");
    if (!f)
        fprintf(stderr, "dungeon: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        bad |= fflush(f) != 0;
    if (bad)
        fprintf(stderr, "dungeon: error writing %s\n", path);
    return bad ? EXIT_IO : 0;
}

static int write_ascii(const dg_grid *g, const char *path)
{
    size_t size = ((size_t)g->width + 1) * (size_t)g->height + 1;
    char *text = malloc(size);
    size_t len = 0;
    if (!text || dg_render_ascii(g, NULL, text, size, &len) != DG_OK)
    {
        free(text);
        fprintf(stderr, "dungeon: out of memory\n");
        return EXIT_IO;
    }
    FILE *f = open_out(path);
    if (!f)
    {
        free(text);
        return EXIT_IO;
    }
    fwrite(text, 1, len, f);
    free(text);
    return close_out(f, path);
}

static void png_to_file(void *ctx, void *data, int size)
{
    fwrite(data, 1, (size_t)size, (FILE *)ctx);
}

static int write_png(const dg_grid *g, int32_t scale, const char *path)
{
    int64_t w = (int64_t)g->width * scale, h = (int64_t)g->height * scale;
    if (w > 65535 || h > 65535 || w * h > (1LL << 28))
    {
        fprintf(stderr, "dungeon: %" PRId64 "x%" PRId64 " pixels is too large for PNG; lower --scale\n", w, h);
        return EXIT_USAGE;
    }
    size_t size = (size_t)(w * h * 4);
    uint8_t *px = malloc(size);
    if (!px || dg_render_rgba(g, NULL, scale, px, size) != DG_OK)
    {
        free(px);
        fprintf(stderr, "dungeon: out of memory\n");
        return EXIT_IO;
    }
    FILE *f = open_out(path);
    int ok = f && stbi_write_png_to_func(png_to_file, f, (int)w, (int)h, 4, px, (int)(w * 4));
    free(px);
    if (!f)
        return EXIT_IO;
    if (!ok)
        fprintf(stderr, "dungeon: PNG encoding failed\n");
    int rc = close_out(f, path);
    return ok ? rc : EXIT_IO;
}

static void print_stats(const dg_result *r, uint64_t hash)
{
    const dg_metrics *m = &r->metrics;
    fprintf(stderr, "rooms %d, corridors %d, doors %d, markers %d\n", (int)r->room_count,
            (int)r->corridor_count, (int)r->door_count, (int)r->marker_count);
    fprintf(stderr, "start (%d,%d) room %d, exit (%d,%d) room %d\n", (int)r->start.x,
            (int)r->start.y, (int)r->start_room, (int)r->exit.x, (int)r->exit.y, (int)r->exit_room);
    fprintf(stderr,
            "floor %d cells (%d.%d%%), regions %d, dead ends %d, loops %d, attempts %d, "
            "failures %d, placed %d of %d, overlaps %d%s\n",
            (int)m->floor_cells, (int)(m->floor_permille / 10), (int)(m->floor_permille % 10),
            (int)m->regions, (int)m->dead_ends, (int)m->loops, (int)m->attempts, (int)m->failures,
            (int)m->placed, (int)m->requested, (int)m->overlaps,
            m->stopped_early ? ", stopped early" : "");
    fprintf(stderr, "grid hash %016" PRIx64 "\n", hash);
}

/* Generates into a fresh grid and writes it; returns the exit code. */
static int run(const options *o)
{
    const gen_def *g = find_gen(o->gen);
    if (!g)
    {
        fprintf(stderr, "dungeon: unknown generator '%s' (see --list)\n", o->gen);
        return EXIT_USAGE;
    }
    int png = !strcmp(o->format, "png");
    if (!png && strcmp(o->format, "ascii"))
    {
        fprintf(stderr, "dungeon: unknown format '%s' (ascii or png)\n", o->format);
        return EXIT_USAGE;
    }
    _Alignas(max_align_t) unsigned char params[1024];
    if (g->params_size > sizeof params || !apply_params(g, o, params))
        return EXIT_USAGE;
    tool_ctx ctx = {o};
    if (g->needs_prefabs && !o->prefabs)
    {
        fprintf(stderr, "dungeon: generator '%s' needs --prefabs FILE\n", g->name);
        return EXIT_USAGE;
    }
    uint8_t *cells = calloc((size_t)o->width * (size_t)o->height, 1);
    dg_grid grid;
    dg_result result;
    dg_diag diag = {0, 0, 0, ""};
    dg_result_init(&result, NULL);
    int rc = 0;
    if (!cells || dg_grid_init(&grid, cells, o->width, o->height, 0) != DG_OK)
    {
        fprintf(stderr, "dungeon: cannot make a %dx%d grid\n", (int)o->width, (int)o->height);
        rc = EXIT_GEN;
    }
    else
    {
        dg_status st = g->run(&grid, params, &ctx, o->seed, &result, &diag);
        if (st != DG_OK)
        {
            fprintf(stderr, "dungeon: %s: %s%s%s\n", g->name, dg_status_str(st),
                    diag.message[0] ? ": " : "", diag.message);
            rc = EXIT_GEN;
        }
        else
        {
            if (o->stats)
                print_stats(&result, dg_grid_hash(&grid));
            rc = png ? write_png(&grid, o->scale, o->output) : write_ascii(&grid, o->output);
        }
    }
    dg_result_free(&result);
    free(cells);
    return rc;
}

int main(int argc, char **argv)
{
    options o = {NULL, 1, 80, 50, {NULL}, 0, NULL, "ascii", 8, "-", 0};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (!o.gen)
    {
        fprintf(stderr, "dungeon: --gen NAME is required (see --list, --help)\n");
        return EXIT_USAGE;
    }
    return run(&o);
}
