/* dungeon: generate a map with any libdungeon generator and write it as ASCII,
 * PNG, libdungeon JSON or a Tiled map (.tmj / .tmx).
 *
 *   dungeon --gen attach --seed 42 --width 80 --height 50 --format png -o map.png
 *   dungeon --recipe "attach seed=42 width=80 height=50 growth=newest" -o map.tmx
 *
 * Generators, their parameters and recipes come from the library's registry
 * (dg_generator_*, dg_recipe_*), so a new generator or parameter needs no
 * change here. Exit codes: 0 success, 1 generation failed, 2 usage error,
 * 3 I/O error. See docs/tool.md and dungeon(1). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkdir */
#endif
#include <dungeon.h>
#include <stb_image_write.h>

#include "content.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#define make_dir(path) _mkdir(path)
#else
#define make_dir(path) mkdir(path, 0777)
#endif

#include "overlay.h"
#include "roles_overlay.h"
#include "survey.h"

enum { EXIT_GEN = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

/* ---- options ------------------------------------------------------------ */
#define MAX_PARAMS 64

typedef struct options {
    const char *gen;
    const char *recipe;     /* --recipe LINE */
    uint64_t seed;
    int32_t width, height;
    int seed_set, width_set, height_set;
    const char *params[MAX_PARAMS];
    int param_count;
    const char *prefabs;    /* prefab file for the prefab generators */
    const char *graph;      /* --graph FILE: the level graph of generator 'graph' */
    const char *format;     /* ascii | png | json | tmj | tmx | recipe; NULL: from -o */
    int32_t scale;          /* PNG pixels per cell */
    int32_t tile_size;      /* Tiled pixels per cell */
    const char *output;     /* file or "-" */
    int stats;              /* print the result summary to stderr */
    int legend, numbers, markers, grid_lines, no_tileset;
    int scale_set, tile_size_set;
    const char *tileset;    /* --tileset KIND: write that tileset PNG instead of a map */
    int art;                /* --style autotile: walls, doors and water drawn with the art tileset */
    int64_t survey;         /* --survey N: maps to measure, 0 = none */
    int locks_set;          /* --locks, --keys or --secrets given */
    dg_lock_params locks;   /* dg_lock_place settings */
    int32_t floors;         /* --floors N: a stacked dungeon of N floors, 0 = one map */
    dg_rect reserve[MAX_PARAMS]; /* --reserve X,Y,W,H: the caller's cells (drawn as tile 64) */
    int reserve_count;
    dg_site site;           /* --anchor X,Y and the reserved mask */
    int32_t stairs;         /* --stairs K: stair pairs between floors (default 1) */
    const char *roles;      /* --roles FILE|default */
    const char *spawns;     /* --spawns FILE */
    int32_t depth;          /* --depth N (depth_set) */
    int depth_set;
    const content *content; /* the loaded tables, applied after generation */
} options;

/* ---- usage ----------------------------------------------------------------- */
static void list_generators(FILE *f, int with_params)
{
    for (int32_t i = 0; i < dg_generator_count(); i++)
    {
        dg_generator_info info;
        dg_generator_get(i, &info);
        fprintf(f, "  %-16s %s%s\n", info.name, info.summary,
                info.needs_prefabs ? " (needs --prefabs)" : info.needs_graph ? " (needs --graph)" : "");
        if (!with_params)
            continue;
        fprintf(f, "  %-16s params:", "");
        int col = 26;
        for (int32_t k = 0; k < info.param_count; k++)
        {
            int len = (int)strlen(info.params[k].name) + 1;
            if (col + len > 79)
            {
                fprintf(f, "\n  %-16s        ", "");
                col = 26;
            }
            fprintf(f, " %s", info.params[k].name);
            col += len;
        }
        fprintf(f, "%s\n", info.param_count ? "" : " none");
    }
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dungeon --gen NAME [options]\n"
            "       dungeon --recipe \"NAME seed=N width=W height=H KEY=VALUE ...\" [options]\n"
            "\n"
            "Generate a dungeon with libdungeon and write it as ASCII, PNG, JSON or a Tiled map.\n"
            "\n"
            "  --gen NAME          generator (see below, or --list)\n"
            "  --recipe LINE       everything at once, as printed by --format recipe;\n"
            "                      --seed, --width, --height and --param override it\n"
            "  --seed N            64-bit seed, decimal (leading zeros too) or 0x hex (default 1)\n"
            "  --width W           map width in cells (default 80)\n"
            "  --height H          map height in cells (default 50); at most 2^28 cells in all\n"
            "  --param KEY=VALUE   set a generator parameter (repeatable; see --list-params)\n"
            "  --prefabs FILE      prefab file for the prefab generators and world furnishing\n"
            "                      (default with --recipe: the file the recipe names); a\n"
            "                      directory: the recipe's file by its base name in it\n"
            "  --graph FILE        level graph for generator 'graph' (docs/graph-format.md;\n"
            "                      default with --recipe: the file the recipe names); the\n"
            "                      recipe records its hash and file; its level line sets the\n"
            "                      options, --param room_distance=N (0..4) and\n"
            "                      max_attempts=N (0..4096, 0 = 256) override them\n"
            "  --format FMT        ascii, png, json, tmj, tmx or recipe (default: from the\n"
            "                      -o extension in any case, ascii for none; an unknown\n"
            "                      extension needs --format, a known one must agree)\n"
            "  -o, --output FILE   output file, - for stdout (default -); with --floors a\n"
            "                      directory (made if missing) or a .tmx/.tmj file\n"
            "  --scale N           PNG pixels per cell (default 8)\n"
            "  --legend            PNG: a strip naming the tile colours (and marker dots,\n"
            "                      room roles and spawn kinds)\n"
            "  --numbers           PNG: room numbers, as in the JSON and Tiled exports\n"
            "  --markers           PNG: dots for start, exit and markers, spawns over their\n"
            "                      footprint, rooms framed in their role's colour; ASCII:\n"
            "                      glyphs (@ start, X exit, a actor, $ item, ! trap, s spawn,\n"
            "                      k key, L lock, < > stairs, * other)\n"
            "  --grid              PNG: lines between cells\n"
            "  --roles FILE        give rooms roles from a role table (dg_roles,\n"
            "                      docs/content.md); default: the built-in table\n"
            "  --spawns FILE       place monsters and items from a spawn table (dg_populate,\n"
            "                      docs/spawn-format.md) after the roles\n"
            "  --depth N           the depth --spawns places content for (1..1000, default 1;\n"
            "                      with --floors, floor n gets depth N + n)\n");
    fprintf(f, /* two strings: C99 compilers need take only 4095 characters in one */
            "  --locks N           lock N gates on the way to the exit and place their keys\n"
            "                      (dg_lock_place, docs/progression.md; 0..16); fewer\n"
            "                      placed than asked is said on stderr, with the reason\n"
            "  --keys WHERE        where keys go: on-path, branch or dead-end (default branch)\n"
            "  --secrets PERMILLE  turn that share of the loop doors into secret doors\n"
            "  --floors N          N stacked floors (dg_floor_generate): -o DIR gets\n"
            "                      floor-0.EXT .. floor-(N-1).EXT (default png; --format\n"
            "                      picks another), -o FILE.tmx or .tmj one Tiled map (at\n"
            "                      most 2^26 cells of floors); the stairs of floor n land\n"
            "                      on floor n+1's; --seed is the dungeon's master seed\n"
            "  --stairs K          stair pairs between neighbouring floors (1..4, default 1)\n"
            "  --reserve X,Y,W,H   keep that rectangle as the caller's own (repeatable): the\n"
            "                      generator works around it (dg_site; drawn as tile 64)\n"
            "  --anchor X,Y        open that cell and join it to the map (repeatable, up to\n"
            "                      9); the first becomes the start\n"
            "  --style S           PNG: flat (one colour per tile, the default) or autotile\n"
            "                      (walls with their shapes, doors in frames, water shores)\n"
            "  --tile-size N       Tiled: pixels per cell (default 16)\n"
            "  --tileset KIND      write a tileset PNG (-o) instead of a map, tiles of\n"
            "                      --tile-size: cardinal (16), blob (47), corner (16) or\n"
            "                      art (the --style autotile set), docs/autotile.md\n"
            "  --no-tileset        Tiled: do not write the swatch tileset PNG beside the map\n"
            "  --stats             print the recipe, rooms, start, exit and metrics to stderr\n"
            "                      (PNG-only, ASCII- or Tiled-only options are refused for\n"
            "                      other formats; options other than --param are given once)\n"
            "  --survey N          measure N maps from consecutive seeds (from --seed) and\n"
            "                      print each quality figure's min, median, p95, max and\n"
            "                      mean, then PASS/FAIL per contract line (docs/quality.md);\n"
            "                      --format json for JSON; --locks etc. lock the maps\n"
            "  --list              list generators\n"
            "  --list-params NAME  list a generator's parameters: type, range, default, help\n"
            "  --version           print the library version\n"
            "  -h, --help          this text\n"
            "\n"
            "Generators:\n");
    list_generators(f, 1);
    fprintf(f, "\nA [bracket] in --list-params help is a condition beyond the range.\n"
               "Exit codes: 0 success, 1 generation failed, 2 usage error (a refused\n"
               "parameter value included), 3 I/O error.\n");
}

/* The value of a parameter as a recipe writes it (enum values by name). */
static void value_name(const dg_param_desc *p, int32_t v, char *buf, size_t size)
{
    if (p->type == DG_PARAM_ENUM && p->choices && v >= 0 && v <= p->max)
    {
        const char *c = p->choices;
        for (int32_t i = 0; i < v; i++)
            c += strcspn(c, "|") + 1;
        snprintf(buf, size, "%.*s", (int)strcspn(c, "|"), c);
    }
    else
        snprintf(buf, size, "%d", (int)v);
}

static int list_params(const char *name)
{
    int32_t count;
    const dg_param_desc *p = dg_generator_params(name, &count);
    if (!p)
    {
        fprintf(stderr, "dungeon: unknown generator '%s' (see --list)\n", name);
        return EXIT_USAGE;
    }
    printf("%-20s %-24s %-9s %s\n", "parameter", "values", "default", "meaning");
    for (int32_t i = 0; i < count; i++)
    {
        char range[64], def[32];
        if (p[i].type == DG_PARAM_ENUM)
            snprintf(range, sizeof range, "%s", p[i].choices);
        else if (p[i].type == DG_PARAM_BOOL)
            snprintf(range, sizeof range, "0|1");
        else
            snprintf(range, sizeof range, "%d..%d", (int)p[i].min, (int)p[i].max);
        value_name(&p[i], p[i].def, def, sizeof def);
        printf("%-20s %-24s %-9s %s\n", p[i].name, range, def, p[i].help);
    }
    return 0;
}

/* ---- argument parsing -------------------------------------------------- */
/* The one number parser of every option but --seed: decimal digits only (no
 * blank, sign or other base), lo..hi. */
static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t v = 0;
    if (!*s)
        return 0;
    for (; *s; s++)
    {
        if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (*s - '0');
    }
    if (v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* A seed as recipes read it (the library's parser: decimal, leading zeros
 * included, or 0x hex; no sign or blank). */
static int parse_seed(const char *s, uint64_t *out)
{
    dg_generator_info info;
    dg_recipe r;
    if (dg_generator_get(0, &info) != DG_OK || dg_recipe_init(&r, info.name, 1, 1, 1) != DG_OK ||
        dg_recipe_set(&r, "seed", s, NULL) != DG_OK)
        return 0;
    *out = r.seed;
    return 1;
}

/* Options that take a value; all but --param may be given once. */
static const char *const value_options[] = {
    "--gen", "--recipe", "--seed", "--width", "--height", "--param", "--prefabs", "--graph", "--format",
    "-o", "--output", "--scale", "--tile-size", "--list-params", "--survey",
    "--locks", "--keys", "--secrets", "--floors", "--stairs", "--reserve", "--anchor", "--style",
    "--tileset", "--roles", "--spawns", "--depth",
};
#define VALUE_OPTIONS (sizeof value_options / sizeof value_options[0])

/* Index of a in value_options, or -1. */
static int value_option(const char *a)
{
    for (size_t i = 0; i < VALUE_OPTIONS; i++)
        if (!strcmp(a, value_options[i]))
            return (int)i;
    return -1;
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

/* Options without a value; returns 1 if a matched. */
static int parse_flag(const char *a, options *o)
{
    static const struct { const char *name; size_t offset; } flags[] = {
        {"--stats", offsetof(options, stats)},       {"--legend", offsetof(options, legend)},
        {"--numbers", offsetof(options, numbers)},   {"--markers", offsetof(options, markers)},
        {"--grid", offsetof(options, grid_lines)},   {"--no-tileset", offsetof(options, no_tileset)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(a, flags[i].name))
        {
            *(int *)((char *)o + flags[i].offset) = 1;
            return 1;
        }
    return 0;
}

/* Whole-number options: --width, --height, --scale, --tile-size. */
static int parse_number_option(const char *a, const char *val, options *o)
{
    int64_t v, max = DG_GRID_MAX_DIM;
    int32_t *field = NULL;
    if (!strcmp(a, "--width"))
        field = &o->width, o->width_set = 1;
    else if (!strcmp(a, "--height"))
        field = &o->height, o->height_set = 1;
    else if (!strcmp(a, "--scale"))
        field = &o->scale, max = 64, o->scale_set = 1;
    else if (!strcmp(a, "--tile-size"))
        field = &o->tile_size, max = 256, o->tile_size_set = 1;
    else if (!strcmp(a, "--floors"))
        field = &o->floors, max = DG_FLOORS_MAX;
    else if (!strcmp(a, "--stairs"))
        field = &o->stairs, max = DG_STAIRS_MAX;
    else if (!strcmp(a, "--depth"))
        field = &o->depth, max = 1000, o->depth_set = 1;
    else
        return -1;
    if (!parse_i64(val, 1, max, &v))
    {
        fprintf(stderr, "dungeon: %s '%s' must be a whole number from 1 to %" PRId64 "\n", a, val, max);
        return EXIT_USAGE;
    }
    *field = (int32_t)v;
    return 0;
}

/* --locks, --keys, --secrets; returns -1 if a is none of them, else 0 or an exit code. */
static int parse_lock_option(const char *a, const char *val, options *o)
{
    static const char *const places[] = {"on-path", "branch", "dead-end"};
    int64_t v;
    if (strcmp(a, "--locks") && strcmp(a, "--keys") && strcmp(a, "--secrets"))
        return -1;
    if (!o->locks_set)
    {
        dg_lock_defaults(&o->locks);
        o->locks.locks = 0;
        o->locks_set = 1;
    }
    if (!strcmp(a, "--keys"))
    {
        for (int i = 0; i < 3; i++)
            if (!strcmp(val, places[i]))
            {
                o->locks.key_place = i;
                return 0;
            }
        fprintf(stderr, "dungeon: --keys '%s' must be on-path, branch or dead-end\n", val);
        return EXIT_USAGE;
    }
    int secrets = !strcmp(a, "--secrets");
    int64_t max = secrets ? 1000 : DG_LOCKS_MAX;
    if (!parse_i64(val, 0, max, &v))
    {
        fprintf(stderr, "dungeon: %s '%s' must be a whole number from 0 to %" PRId64 "\n", a, val, max);
        return EXIT_USAGE;
    }
    *(secrets ? &o->locks.secret_permille : &o->locks.locks) = (int32_t)v;
    return 0;
}

/* --reserve X,Y,W,H and --anchor X,Y, each number as parse_i64 reads it;
 * returns 0 or an exit code. Whether they lie inside the grid is checked
 * once the size is known (check_site). */
static int parse_site_option(const char *a, const char *val, options *o)
{
    int reserve = !strcmp(a, "--reserve");
    int want = reserve ? 4 : 2, n = 0, ok = 1;
    int64_t v[4];
    char part[24];
    for (const char *p = val; ok && n < want; n++)
    {
        size_t len = strcspn(p, ",");
        ok = len < sizeof part && (p[len] == ',') == (n + 1 < want);
        if (!ok)
            break;
        memcpy(part, p, len);
        part[len] = '\0';
        ok = parse_i64(part, n < 2 ? 0 : 1, DG_GRID_MAX_DIM, &v[n]);
        p += len + (p[len] == ',');
    }
    if (!ok)
    {
        fprintf(stderr, "dungeon: %s '%s' must be %s (whole numbers from 0, sizes from 1)\n", a,
                val, reserve ? "X,Y,W,H" : "X,Y");
        return EXIT_USAGE;
    }
    if (reserve ? o->reserve_count == MAX_PARAMS : o->site.anchor_count == DG_ANCHORS_MAX)
    {
        fprintf(stderr, "dungeon: too many %s options\n", a);
        return EXIT_USAGE;
    }
    if (reserve)
        o->reserve[o->reserve_count++] = (dg_rect){(int32_t)v[0], (int32_t)v[1], (int32_t)v[2], (int32_t)v[3]};
    else
        o->site.anchors[o->site.anchor_count++] = (dg_point){(int32_t)v[0], (int32_t)v[1]};
    return 0;
}

/* Returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, options *o)
{
    uint32_t given = 0; /* value options seen, by index in value_options */
    for (int i = 1; i < argc; i++)
    {
        const char *a = argv[i];
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
            list_generators(stdout, 0);
            return 0;
        }
        if (parse_flag(a, o))
            continue;
        int which = value_option(a);
        if (which < 0)
        {
            if (a[0] == '-')
                fprintf(stderr, "dungeon: unknown option '%s' (see --help)\n", a);
            else
                fprintf(stderr, "dungeon: unexpected argument '%s'\n", a);
            return EXIT_USAGE;
        }
        if (!need_value(argc, argv, i))
            return EXIT_USAGE;
        /* -o and --output are one option */
        int slot = which == value_option("--output") ? value_option("-o") : which;
        if ((given >> slot & 1u) && strcmp(a, "--param") && strcmp(a, "--reserve") &&
            strcmp(a, "--anchor"))
        {
            fprintf(stderr, "dungeon: %s is given twice\n", a);
            return EXIT_USAGE;
        }
        given |= 1u << slot;
        const char *val = argv[++i];
        int rc = parse_number_option(a, val, o);
        if (rc < 0)
            rc = parse_lock_option(a, val, o);
        if (rc > 0)
            return rc;
        if (rc == 0)
            continue;
        if (!strcmp(a, "--reserve") || !strcmp(a, "--anchor"))
            rc = parse_site_option(a, val, o);
        if (rc > 0)
            return rc;
        if (rc == 0)
            continue;
        if (!strcmp(a, "--list-params"))
            return list_params(val);
        else if (!strcmp(a, "--gen"))
            o->gen = val;
        else if (!strcmp(a, "--recipe"))
            o->recipe = val;
        else if (!strcmp(a, "--seed"))
        {
            if (!parse_seed(val, &o->seed))
            {
                fprintf(stderr, "dungeon: --seed '%s' is not an unsigned 64-bit number (decimal or 0x hex)\n", val);
                return EXIT_USAGE;
            }
            o->seed_set = 1;
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
        else if (!strcmp(a, "--graph"))
            o->graph = val;
        else if (!strcmp(a, "--roles"))
            o->roles = val;
        else if (!strcmp(a, "--spawns"))
            o->spawns = val;
        else if (!strcmp(a, "--survey"))
        {
            if (!parse_i64(val, 1, SURVEY_MAX, &o->survey))
            {
                fprintf(stderr, "dungeon: --survey '%s' must be a whole number from 1 to %d\n", val,
                        SURVEY_MAX);
                return EXIT_USAGE;
            }
        }
        else if (!strcmp(a, "--format"))
            o->format = val;
        else if (!strcmp(a, "--tileset"))
            o->tileset = val;
        else if (!strcmp(a, "--style"))
        {
            if (strcmp(val, "flat") && strcmp(val, "autotile"))
            {
                fprintf(stderr, "dungeon: --style '%s' is not flat or autotile\n", val);
                return EXIT_USAGE;
            }
            o->art = !strcmp(val, "autotile");
        }
        else /* -o, --output */
            o->output = val;
    }
    return -1;
}

/* --locks, --keys, --secrets go into the recipe, which then locks its map
 * whenever it runs (dg_recipe_generate). */
static void record_locks(const dg_lock_params *p, dg_recipe *r)
{
    static const char *const places[] = {"on-path", "branch", "dead-end"};
    char text[16];
    snprintf(text, sizeof text, "%d", (int)p->locks);
    dg_recipe_set(r, "locks", text, NULL);
    dg_recipe_set(r, "keys", places[p->key_place], NULL);
    snprintf(text, sizeof text, "%d", (int)p->secret_permille);
    dg_recipe_set(r, "secrets", text, NULL);
}

/* The recipe from --recipe or --gen, then --seed, --width, --height, --param,
 * --locks, --keys, --secrets. */
static int build_recipe(const options *o, dg_recipe *r)
{
    dg_diag diag = {0, 0, 0, ""};
    if (o->recipe)
    {
        if (dg_recipe_parse(o->recipe, strlen(o->recipe), r, &diag) != DG_OK)
        {
            fprintf(stderr, "dungeon: --recipe: column %d: %s\n  %s\n  %*s^\n", (int)diag.column,
                    diag.message, o->recipe, (int)(diag.column > 0 ? diag.column - 1 : 0), "");
            return EXIT_USAGE;
        }
        if (o->gen && strcmp(o->gen, r->generator))
        {
            fprintf(stderr, "dungeon: --gen %s contradicts the recipe's generator %s\n", o->gen,
                    r->generator);
            return EXIT_USAGE;
        }
    }
    else if (!o->gen)
    {
        fprintf(stderr, "dungeon: --gen NAME or --recipe LINE is required (see --list, --help)\n");
        return EXIT_USAGE;
    }
    else if (dg_recipe_init(r, o->gen, 1, 80, 50) != DG_OK)
    {
        fprintf(stderr, "dungeon: unknown generator '%s' (see --list)\n", o->gen);
        return EXIT_USAGE;
    }
    if (o->seed_set)
        r->seed = o->seed;
    if (o->width_set)
        r->width = o->width;
    if (o->height_set)
        r->height = o->height;
    for (int i = 0; i < o->param_count; i++)
    {
        const char *kv = o->params[i], *eq = strchr(kv, '=');
        char key[64];
        if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key)
        {
            fprintf(stderr, "dungeon: --param '%s' must be KEY=VALUE\n", kv);
            return EXIT_USAGE;
        }
        memcpy(key, kv, (size_t)(eq - kv));
        key[eq - kv] = '\0';
        if (dg_recipe_set(r, key, eq + 1, &diag) != DG_OK)
        {
            fprintf(stderr, "dungeon: --param %s: %s (see --list-params %s)\n", kv, diag.message,
                    r->generator);
            return EXIT_USAGE;
        }
    }
    if (o->locks_set)
        record_locks(&o->locks, r);
    if ((int64_t)r->width * r->height > DG_GRID_MAX_CELLS)
    {
        fprintf(stderr, "dungeon: a %dx%d map is %" PRId64 " cells; a grid holds at most %lld (2^28)\n",
                (int)r->width, (int)r->height, (int64_t)r->width * r->height, (long long)DG_GRID_MAX_CELLS);
        return EXIT_USAGE;
    }
    return 0;
}

/* ---- output ------------------------------------------------------------------ */
static FILE *open_out(const char *path)
{
    errno = 0;
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "wb");
    if (!f)
        fprintf(stderr, "dungeon: cannot write %s: %s\n", path, strerror(errno));
    errno = 0; /* close_out reports the first write error's reason */
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
        fprintf(stderr, "dungeon: cannot write %s: %s\n", path, errno ? strerror(errno) : "write error");
    return bad ? EXIT_IO : 0;
}

static int write_bytes(const char *data, size_t len, const char *path)
{
    FILE *f = open_out(path);
    if (!f)
        return EXIT_IO;
    fwrite(data, 1, len, f);
    return close_out(f, path);
}

/* ASCII glyph of a marker kind (--markers). */
static char marker_glyph(int32_t kind)
{
    static const char glyphs[] = "*a$!s@XkL<>";
    return kind >= 0 && kind < 11 ? glyphs[kind] : '*';
}

static void put_glyph(char *text, const dg_grid *g, dg_point p, char c)
{
    if (p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height)
        text[(size_t)p.y * ((size_t)g->width + 1) + (size_t)p.x] = c;
}

/* A marker's glyph on every cell of its footprint (a spawn's size x size). */
static void put_footprint(char *text, const dg_grid *g, const dg_marker *m)
{
    int32_t side = m->size > 1 && m->size <= DG_CREATURE_SIZE_MAX ? m->size : 1;
    if (m->pos.x < 0 || m->pos.y < 0 || m->pos.x >= g->width || m->pos.y >= g->height)
        return;
    for (int32_t dy = 0; dy < side; dy++)
        for (int32_t dx = 0; dx < side; dx++)
            put_glyph(text, g, (dg_point){m->pos.x + dx, m->pos.y + dy}, marker_glyph(m->kind));
}

static int write_ascii(const dg_grid *g, const dg_result *r, const options *o)
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
    if (o->markers)
    {
        for (int32_t i = 0; i < r->marker_count; i++)
            put_footprint(text, g, &r->markers[i]);
        put_glyph(text, g, r->exit, 'X');
        put_glyph(text, g, r->start, '@');
    }
    int rc = write_bytes(text, len, o->output);
    free(text);
    return rc;
}

static void png_to_file(void *ctx, void *data, int size)
{
    fwrite(data, 1, (size_t)size, (FILE *)ctx);
}

static int save_png(const uint8_t *px, int32_t w, int32_t h, const char *path)
{
    FILE *f = open_out(path);
    if (!f)
        return EXIT_IO;
    int ok = stbi_write_png_to_func(png_to_file, f, (int)w, (int)h, 4, px, (int)(w * 4));
    if (!ok)
        fprintf(stderr, "dungeon: PNG encoding failed\n");
    int rc = close_out(f, path);
    return ok ? rc : EXIT_IO;
}

static int write_png(const dg_grid *g, const dg_result *r, const options *o)
{
    int32_t scale = o->scale;
    int64_t w = (int64_t)g->width * scale, map_h = (int64_t)g->height * scale;
    enum { LEGEND_MAX = 270 + ROLE_LEGEND_MAX + SPAWN_LEGEND_MAX };
    legend_entry entries[LEGEND_MAX];
    int32_t xs[LEGEND_MAX], rows[LEGEND_MAX], n = 0, legend_rows = 0;
    if (o->legend)
    {
        n = legend_entries(g, r, o->markers, entries);
        n += content_legend_entries(r, o->markers, entries + n);
        legend_rows = legend_layout(entries, n, (int32_t)(w < INT32_MAX ? w : INT32_MAX), xs, rows);
    }
    int64_t h = map_h + (legend_rows ? legend_rows * LEGEND_ROW + 4 : 0);
    if (w > 65535 || h > 65535 || w * h > (1LL << 28))
    {
        fprintf(stderr, "dungeon: %" PRId64 "x%" PRId64 " pixels is too large for PNG; lower --scale\n", w, h);
        return EXIT_USAGE;
    }
    size_t size = (size_t)(w * h * 4);
    uint8_t *px = malloc(size);
    if (!px || (o->art ? dg_render_art_rgba(g, NULL, scale, px, size, NULL, NULL)
                       : dg_render_rgba(g, NULL, scale, px, size)) != DG_OK)
    {
        free(px);
        fprintf(stderr, "dungeon: out of memory\n");
        return EXIT_IO;
    }
    image im = {px, (int32_t)w, (int32_t)h};
    if (o->grid_lines && scale >= 3)
        draw_grid_lines(&im, (int32_t)map_h, scale);
    if (o->numbers)
        draw_room_numbers(&im, r, scale);
    if (o->markers) /* over the numbers: a marker may sit in a room's first cell */
        draw_markers(&im, r, scale);
    draw_room_content(&im, r, scale, o->markers);
    if (legend_rows)
        draw_legend(&im, (int32_t)map_h, entries, n, xs, rows);
    int rc = save_png(px, (int32_t)w, (int32_t)h, o->output);
    free(px);
    return rc;
}

/* The swatch tileset a Tiled map references (name), written beside the map. */
static int write_tileset(const options *o, const char *name)
{
    if (o->no_tileset)
        return 0;
    const char *slash = strrchr(o->output, '/');
    size_t dir = strcmp(o->output, "-") && slash ? (size_t)(slash - o->output) + 1 : 0;
    char *path = malloc(dir + strlen(name) + 1);
    int32_t side = DG_TILESET_COLUMNS * o->tile_size;
    size_t size = (size_t)side * (size_t)side * 4u;
    uint8_t *px = malloc(size);
    int rc = EXIT_IO;
    if (path && px && dg_export_tileset_rgba(NULL, o->tile_size, o->tile_size, px, size) == DG_OK)
    {
        memcpy(path, o->output, dir);
        strcpy(path + dir, name);
        rc = save_png(px, side, side, path);
    }
    if (rc == 0 && o->art) /* the art tileset of --style autotile: fits in the swatch buffer */
    {
        char art[64];
        snprintf(art, sizeof art, "dungeon-tiles-%d-art.png", (int)o->tile_size);
        char *art_path = malloc(dir + strlen(art) + 1);
        if (art_path && dg_art_tileset_rgba(NULL, o->tile_size, px, size, NULL) == DG_OK)
        {
            memcpy(art_path, o->output, dir);
            strcpy(art_path + dir, art);
            rc = save_png(px, DG_ART_COLUMNS * o->tile_size, DG_ART_ROWS * o->tile_size, art_path);
        }
        else
            rc = EXIT_IO;
        free(art_path);
    }
    if (!path || !px)
        fprintf(stderr, "dungeon: out of memory\n");
    free(px);
    free(path);
    return rc;
}

static int write_export(const dg_grid *g, const dg_result *r, const dg_recipe *rc, int32_t format,
                        const options *o)
{
    char tileset[64];
    dg_export_options opt;
    dg_export_defaults(&opt);
    opt.format = format;
    opt.recipe = rc;
    opt.tile_width = opt.tile_height = o->tile_size;
    opt.tileset_image = tileset;
    snprintf(tileset, sizeof tileset, "dungeon-tiles-%d.png", (int)o->tile_size);
    opt.terrain = o->art;
    size_t len = 0;
    dg_diag diag = {0, 0, 0, ""};
    dg_status st = dg_export_buffer(g, r, &opt, NULL, 0, &len, &diag);
    char *text = st == DG_OK ? malloc(len + 1) : NULL;
    if (text)
        st = dg_export_buffer(g, r, &opt, text, len + 1, NULL, &diag);
    if (st != DG_OK || !text)
    {
        fprintf(stderr, "dungeon: export failed: %s\n", text ? diag.message : "out of memory");
        free(text);
        return EXIT_IO;
    }
    int result = write_bytes(text, len, o->output);
    free(text);
    /* after the map, so that an unwritable -o is reported as such */
    if (result == 0 && format != DG_EXPORT_JSON)
        result = write_tileset(o, tileset);
    return result;
}

static int write_recipe(const dg_recipe *rc, const char *path)
{
    char line[4096];
    size_t len;
    if (dg_recipe_print(rc, line, sizeof line - 1, &len) != DG_OK)
        return EXIT_IO;
    line[len++] = '\n';
    return write_bytes(line, len, path);
}

static void print_stats(const dg_recipe *rc, const dg_result *r, uint64_t hash)
{
    const dg_metrics *m = &r->metrics;
    char line[4096];
    if (dg_recipe_print(rc, line, sizeof line, NULL) == DG_OK)
        fprintf(stderr, "recipe: %s\n", line);
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

/* ---- formats --------------------------------------------------------------------- */
enum { FMT_ASCII = -1, FMT_PNG = -2, FMT_RECIPE = -3 }; /* else DG_EXPORT_* */

static const char *format_name(int32_t format)
{
    return format == FMT_ASCII ? "ASCII" : format == FMT_PNG ? "PNG" : format == FMT_RECIPE ? "recipe"
         : format == DG_EXPORT_JSON ? "JSON" : "Tiled";
}

/* 1 if a and b are equal ignoring ASCII case. */
static int same_text_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

static const struct { const char *name; int32_t code; } formats[] = {
    {"ascii", FMT_ASCII}, {"txt", FMT_ASCII},       {"png", FMT_PNG},
    {"json", DG_EXPORT_JSON}, {"tmj", DG_EXPORT_TMJ}, {"tmx", DG_EXPORT_TMX},
    {"recipe", FMT_RECIPE},
};

/* The extension of path's last component ("" for none). */
static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* 1 and *code if name is a format name or extension (any case). */
static int lookup_format(const char *name, int32_t *code)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (same_text_nocase(formats[i].name, name))
        {
            *code = formats[i].code;
            return 1;
        }
    return 0;
}

/* The output format: --format, else the -o extension, else ASCII. An -o
 * extension that names another format than --format is refused (a .png
 * holding JSON helps nobody); a .txt may hold a recipe. */
static int format_code(const options *o, int32_t *code)
{
    const char *ext = strcmp(o->output, "-") ? extension(o->output) : "";
    int32_t from_ext = 0;
    int known_ext = lookup_format(ext, &from_ext);
    if (o->format)
    {
        if (!lookup_format(o->format, code))
        {
            fprintf(stderr, "dungeon: unknown format '%s' (ascii, png, json, tmj, tmx or recipe)\n",
                    o->format);
            return 0;
        }
        if (known_ext && from_ext != *code && !(*code == FMT_RECIPE && from_ext == FMT_ASCII))
        {
            fprintf(stderr, "dungeon: -o %s: the extension '.%s' contradicts --format %s "
                            "(make them agree)\n", o->output, ext, o->format);
            return 0;
        }
        return 1;
    }
    if (known_ext || !ext[0]) /* no extension (or standard output): ASCII */
    {
        *code = known_ext ? from_ext : FMT_ASCII;
        return 1;
    }
    fprintf(stderr, "dungeon: -o %s: unknown extension '.%s' (.txt, .png, .json, .tmj, .tmx, "
                    ".recipe, or give --format)\n", o->output, ext);
    return 0;
}

static int write_output(const dg_grid *g, const dg_result *r, const dg_recipe *rc, int32_t format,
                        const options *o)
{
    if (format == FMT_ASCII)
        return write_ascii(g, r, o);
    if (format == FMT_PNG)
        return write_png(g, r, o);
    return write_export(g, r, rc, format, o);
}

static void print_parse_error(void *user, const dg_diag *d)
{
    (void)user;
    fprintf(stderr, "dungeon: %s\n", d->message);
}

/* Reads and parses a prefab file with the library's loader (dg_prefab_load),
 * so the file is held to the library's limit (64 MiB, docs/prefab-format.md)
 * however it is given: /dev/zero stops there. Every parse error is printed
 * with its file:line:col. A first read here gives an unreadable file the
 * system's reason. */
static int parse_prefab_file(const char *path, dg_prefab_set **set)
{
    errno = 0;
    FILE *f = fopen(path, "rb");
    int err = f ? 0 : errno;
    if (f)
    {
        errno = 0;
        if (fgetc(f) == EOF && ferror(f))
            err = errno ? errno : EIO; /* a directory gives EISDIR */
        fclose(f);
    }
    if (err)
    {
        fprintf(stderr, "dungeon: cannot read %s: %s\n", path, strerror(err));
        return EXIT_IO;
    }
    dg_diag diag = {0, 0, 0, ""};
    dg_status st = dg_prefab_load(path, NULL, print_parse_error, NULL, set, &diag);
    if (st == DG_E_PARSE)
    {
        fprintf(stderr, "dungeon: %s has errors (listed above)\n", path);
        return EXIT_GEN;
    }
    if (st != DG_OK)
    {
        fprintf(stderr, "dungeon: %s\n", diag.message[0] ? diag.message : dg_status_str(st));
        /* too large or unreadable is the file's fault, like a missing one */
        return st == DG_E_TOO_LARGE || st == DG_E_INVALID ? EXIT_IO : EXIT_GEN;
    }
    return 0;
}

/* Records the set in the recipe, with the file as a hint if a recipe can
 * name it: the path as given when it fits (DG_RECIPE_PREFABS_MAX - 1 bytes),
 * else the library keeps its base name, which --prefabs DIR finds. */
static void record_prefabs(dg_recipe *rc, const dg_prefab_set *set, const char *path)
{
    if (dg_recipe_set_prefabs(rc, set, path, NULL) == DG_OK)
    {
        if (strcmp(rc->prefabs, path))
            fprintf(stderr, "dungeon: note: %s is over %d bytes: the recipe names it prefabs=%s "
                            "(with its hash); replaying it elsewhere needs --prefabs DIR\n",
                    path, DG_RECIPE_PREFABS_MAX - 1, rc->prefabs);
        return;
    }
    fprintf(stderr, "dungeon: warning: a recipe cannot name %s (letters, digits, '.', '/', '_', "
                    "'-' or '+' only, a base name of at most %d bytes): replaying it needs "
                    "--prefabs\n", path, DG_RECIPE_PREFABS_MAX - 1);
    dg_recipe_set_prefabs(rc, set, NULL, NULL);
}

static int is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* Loads the prefab set: --prefabs FILE, the recipe's file (its base name) in
 * --prefabs DIR, else the file the recipe names (relative to the working
 * directory). Required by the prefab generators, optional furnishing for
 * world. A recipe that records a set runs only with that set. */
static int load_prefabs(const options *o, dg_recipe *rc, dg_prefab_set **set)
{
    dg_generator_info info;
    dg_generator_get(dg_generator_find(rc->generator), &info);
    /* world furnishes with a set when given one; attach and chain use none */
    if (o->prefabs && !info.needs_prefabs && strcmp(rc->generator, "world") != 0)
    {
        fprintf(stderr, "dungeon: generator '%s' uses no prefabs: --prefabs is not for it\n",
                rc->generator);
        return EXIT_USAGE;
    }
    char joined[4096];
    const char *path = o->prefabs ? o->prefabs : rc->prefabs[0] ? rc->prefabs : NULL;
    if (o->prefabs && is_directory(o->prefabs))
    {
        const char *base = strrchr(rc->prefabs, '/');
        base = base ? base + 1 : rc->prefabs;
        if (!base[0])
        {
            fprintf(stderr, "dungeon: --prefabs %s is a directory: only a recipe that names its "
                            "prefab file looks it up there (else give the file)\n", o->prefabs);
            return EXIT_USAGE;
        }
        size_t dir = strlen(o->prefabs);
        while (dir > 1 && o->prefabs[dir - 1] == '/')
            dir--;
        snprintf(joined, sizeof joined, "%.*s/%s", (int)dir, o->prefabs, base);
        path = joined;
    }
    if (!path && rc->prefabs_hash)
    {
        fprintf(stderr, "dungeon: the recipe was made with a prefab set (prefabs_hash=0x%016" PRIx64
                        ") it does not name: give it with --prefabs FILE\n", rc->prefabs_hash);
        return EXIT_USAGE;
    }
    if (!path)
    {
        if (!info.needs_prefabs)
            return 0;
        fprintf(stderr, "dungeon: generator '%s' needs --prefabs FILE\n", rc->generator);
        return EXIT_USAGE;
    }
    int code = parse_prefab_file(path, set);
    if (code && !o->prefabs)
        fprintf(stderr, "dungeon: (the recipe names prefabs=%s, relative to the working directory; "
                        "--prefabs FILE or DIR gives its place)\n", path);
    if (code)
        return code;
    uint64_t hash = dg_prefab_set_hash(*set);
    if (rc->prefabs_hash && rc->prefabs_hash != hash)
    {
        fprintf(stderr, "dungeon: %s is not the prefab set the recipe was made with (its hash is "
                        "0x%016" PRIx64 ", the recipe's prefabs_hash=0x%016" PRIx64 "): the map would differ\n",
                path, hash, rc->prefabs_hash);
        return EXIT_USAGE;
    }
    if (!rc->prefabs_hash || o->prefabs)
        record_prefabs(rc, *set, path);
    return 0;
}

/* Options that only some formats use are refused for the others, not ignored. */
static int check_format_options(const options *o, int32_t format)
{
    static const struct { const char *name; size_t offset; int png, ascii, tiled; } only[] = {
        {"--legend", offsetof(options, legend), 1, 0, 0},
        {"--numbers", offsetof(options, numbers), 1, 0, 0},
        {"--grid", offsetof(options, grid_lines), 1, 0, 0},
        {"--scale", offsetof(options, scale_set), 1, 0, 0},
        {"--markers", offsetof(options, markers), 1, 1, 0},
        {"--tile-size", offsetof(options, tile_size_set), 0, 0, 1},
        {"--no-tileset", offsetof(options, no_tileset), 0, 0, 1},
        {"--style", offsetof(options, art), 1, 0, 1},
    };
    int tiled = format == DG_EXPORT_TMJ || format == DG_EXPORT_TMX;
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
    {
        int used = *(const int *)((const char *)o + only[i].offset);
        int applies = (only[i].png && format == FMT_PNG) || (only[i].ascii && format == FMT_ASCII) ||
                      (only[i].tiled && tiled);
        if (used && !applies)
        {
            fprintf(stderr, "dungeon: %s does not apply to %s output (it is for%s%s%s)\n", only[i].name,
                    format_name(format), only[i].png ? " PNG" : "", only[i].ascii ? " and ASCII" : "",
                    only[i].tiled ? " Tiled maps" : "");
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* The library's message without a leading "generator: " (or "generator_name: "),
 * which the tool prints itself. */
static const char *without_generator(const char *message, const char *gen)
{
    size_t i = 0;
    for (; gen[i] && message[i]; i++)
        if (message[i] != gen[i] && !(gen[i] == '-' && message[i] == '_'))
            return message;
    return !gen[i] && message[i] == ':' && message[i + 1] == ' ' ? message + i + 2 : message;
}

/* --stats for a recipe that locks its map: what dg_lock_place did, and the
 * solver's verdict. */
static void report_locks(const dg_recipe *rc, const dg_grid *g, const dg_result *r)
{
    int32_t locks = 0, secrets = 0, placed = 0, locked = 0, secret = 0;
    dg_recipe_get(rc, "locks", &locks);
    dg_recipe_get(rc, "secrets", &secrets);
    if (!locks && !secrets)
        return;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        int n = 0;
        if (r->markers[i].kind == DG_MARKER_LOCK && sscanf(r->markers[i].name, "lock %d", &n) == 1)
            placed = n > placed ? n : placed;
    }
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            locked += dg_grid_get(g, x, y) == DG_TILE_DOOR_LOCKED;
            secret += dg_grid_get(g, x, y) == DG_TILE_DOOR_SECRET;
        }
    dg_progress pr;
    memset(&pr, 0, sizeof pr);
    dg_solve(g, r, &pr, NULL, NULL);
    fprintf(stderr, "locks: %d of %d placed, %d locked doors, %d secret doors, %s, keys", (int)placed,
            (int)locks, (int)locked, (int)secret, pr.solvable ? "solvable" : "NOT solvable");
    for (int32_t i = 0; i < pr.order_count; i++)
        fprintf(stderr, " %d", (int)pr.order[i]);
    fprintf(stderr, "\n");
}

/* Fewer locks placed than --locks asked: not an error, but said on stderr,
 * with dg_lock_place's reason (diag, status DG_OK). */
static void note_short_locks(const dg_recipe *rc, const dg_result *r, const dg_diag *diag,
                             const char *where)
{
    int32_t locks = 0, placed = 0;
    dg_recipe_get(rc, "locks", &locks);
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == DG_MARKER_LOCK && r->markers[i].number > placed)
            placed = r->markers[i].number;
    if (placed >= locks)
        return;
    if (strstr(diag->message, "locks placed"))
        fprintf(stderr, "dungeon: %s%s\n", where, diag->message);
    else
        fprintf(stderr, "dungeon: %s%d of %d locks placed\n", where, (int)placed, (int)locks);
}

#define RESERVED_TILE DG_TILE_USER /* how the tool draws the caller's reserved cells */

/* --reserve: the mask (NULL when none) and tile 64 in the grid's reserved cells. */
static dg_status reserve_cells(const options *o, dg_grid *grid, uint8_t **mask)
{
    *mask = NULL;
    if (!o->reserve_count)
        return DG_OK;
    *mask = calloc((size_t)grid->width * (size_t)grid->height, 1);
    if (!*mask)
        return DG_E_NOMEM;
    for (int i = 0; i < o->reserve_count; i++)
    {
        dg_rect q = o->reserve[i];
        for (int32_t y = q.y; y < q.y + q.h && y < grid->height; y++)
            for (int32_t x = q.x; x < q.x + q.w && x < grid->width; x++)
            {
                (*mask)[(size_t)y * (size_t)grid->width + (size_t)x] = 1;
                dg_grid_set(grid, x, y, RESERVED_TILE);
            }
    }
    return DG_OK;
}

/* Runs the recipe into a fresh grid; prints --stats and writes the output. */
static int generate_and_write(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs,
                              int32_t format)
{
    uint8_t *cells = calloc((size_t)rc->width * (size_t)rc->height, 1);
    dg_grid grid;
    dg_result result;
    dg_diag diag = {0, 0, 0, ""};
    int code;
    dg_result_init(&result, NULL);
    dg_status st = cells ? dg_grid_init(&grid, cells, rc->width, rc->height, 0) : DG_E_NOMEM;
    uint8_t *mask = NULL;
    if (st == DG_OK && (o->reserve_count || o->site.anchor_count))
        st = reserve_cells(o, &grid, &mask);
    dg_site site = o->site;
    site.reserved = mask;
    if (st == DG_OK)
        st = dg_recipe_generate_site(rc, &site, &grid, prefabs, &result, NULL, &diag);
    free(mask);
    if (st == DG_OK && o->content &&
        (st = content_apply(o->content, &grid, rc->seed, 0, &result, "")) != DG_OK)
        code = EXIT_GEN;
    else if (st != DG_OK)
    {
        const char *why = without_generator(diag.message, rc->generator);
        fprintf(stderr, "dungeon: %s: %s%s%s\n", rc->generator, dg_status_str(st), why[0] ? ": " : "", why);
        /* a value the generator refuses is a usage error, like one out of range */
        code = st == DG_E_INVALID ? EXIT_USAGE : EXIT_GEN;
    }
    if (st == DG_OK)
    {
        note_short_locks(rc, &result, &diag, "");
        if (o->stats)
        {
            print_stats(rc, &result, dg_grid_hash(&grid));
            report_locks(rc, &grid, &result);
        }
        code = format == FMT_RECIPE ? write_recipe(rc, o->output) : write_output(&grid, &result, rc, format, o);
    }
    dg_result_free(&result);
    free(cells);
    return code;
}

static const char *format_extension(int32_t format)
{
    return format == FMT_PNG ? "png" : format == FMT_ASCII ? "txt" : format == DG_EXPORT_JSON ? "json"
         : format == DG_EXPORT_TMJ ? "tmj" : "tmx";
}

/* The recipe of one floor: the dungeon's, with floors, floor and stairs. */
static void floor_recipe(const options *o, const dg_recipe *rc, int32_t floor, dg_recipe *out)
{
    char text[3][16];
    snprintf(text[0], sizeof text[0], "%d", (int)o->floors);
    snprintf(text[1], sizeof text[1], "%d", (int)floor);
    snprintf(text[2], sizeof text[2], "%d", (int)(o->stairs ? o->stairs : 1));
    *out = *rc;
    dg_recipe_set(out, "floors", text[0], NULL);
    dg_recipe_set(out, "floor", text[1], NULL);
    dg_recipe_set(out, "stairs", text[2], NULL);
}

/* One floor of --floors into dir/floor-N.EXT, from its own recipe (which
 * records the floor, so the JSON and Tiled exports replay it alone). */
static int write_floor(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs,
                       int32_t format, int32_t floor, dg_grid *grid, const char *dir)
{
    dg_result result;
    dg_diag diag = {0, 0, 0, ""};
    dg_recipe fr;
    floor_recipe(o, rc, floor, &fr);
    dg_result_init(&result, NULL);
    dg_status st = dg_recipe_generate(&fr, grid, prefabs, &result, NULL, &diag);
    int code = 0;
    char where[32];
    snprintf(where, sizeof where, "floor %d: ", (int)floor);
    if (st != DG_OK)
    {
        fprintf(stderr, "dungeon: floor %d: %s: %s\n", (int)floor, dg_status_str(st), diag.message);
        code = st == DG_E_INVALID || st == DG_E_TOO_SMALL ? EXIT_USAGE : EXIT_GEN;
    }
    else if (o->content && content_apply(o->content, grid, dg_floor_seed(rc->seed, floor), floor,
                                         &result, where) != DG_OK)
        code = EXIT_GEN;
    else
    {
        char path[4096];
        note_short_locks(&fr, &result, &diag, where);
        snprintf(path, sizeof path, "%s/floor-%d.%s", dir, (int)floor, format_extension(format));
        options out = *o;
        out.output = path;
        if (o->stats)
        {
            fprintf(stderr, "floor %d of %d: generator seed %" PRIu64 "\n", (int)floor,
                    (int)o->floors, dg_floor_seed(rc->seed, floor));
            print_stats(&fr, &result, dg_grid_hash(grid));
            report_locks(&fr, grid, &result);
        }
        code = write_output(grid, &result, &fr, format, &out);
    }
    dg_result_free(&result);
    return code;
}

static void write_to_file(void *user, const char *data, size_t len)
{
    fwrite(data, 1, len, (FILE *)user);
}

/* Every floor into grids[0..n) and results[0..n); 0 or an exit code. */
static int generate_all_floors(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs,
                               dg_grid *grids, dg_result *results)
{
    for (int32_t f = 0; f < o->floors; f++)
    {
        dg_recipe fr;
        dg_diag diag = {0, 0, 0, ""};
        floor_recipe(o, rc, f, &fr);
        dg_status st = dg_recipe_generate(&fr, &grids[f], prefabs, &results[f], NULL, &diag);
        if (st != DG_OK)
        {
            fprintf(stderr, "dungeon: floor %d: %s: %s\n", (int)f, dg_status_str(st), diag.message);
            return st == DG_E_INVALID || st == DG_E_TOO_SMALL ? EXIT_USAGE : EXIT_GEN;
        }
        char where[32];
        snprintf(where, sizeof where, "floor %d: ", (int)f);
        if (o->content && content_apply(o->content, &grids[f], dg_floor_seed(rc->seed, f), f,
                                        &results[f], where) != DG_OK)
            return EXIT_GEN;
    }
    return 0;
}

/* --floors N -o FILE.tmx (or .tmj): one Tiled map, a pair of layers per
 * floor. dg_export_floors takes every floor at once, so they are all held:
 * at most FLOORS_TILED_CELLS_MAX cells in all (64 MiB of cells, plus each
 * floor's result; 64 floors of 1024x1024 or 16384 of 64x64). */
#define FLOORS_TILED_CELLS_MAX ((uint64_t)1 << 26)
static int write_floors_tiled(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs,
                              int32_t format)
{
    size_t cells = (size_t)rc->width * (size_t)rc->height;
    if ((uint64_t)o->floors * cells > FLOORS_TILED_CELLS_MAX)
    {
        fprintf(stderr, "dungeon: %d floors of %dx%d are %" PRIu64 " cells; one Tiled map of "
                        "floors holds at most %" PRIu64 " (2^26), as they are all kept in memory: "
                        "fewer or smaller floors, or -o DIR (a file per floor, one floor in memory)\n",
                (int)o->floors, (int)rc->width, (int)rc->height, (uint64_t)o->floors * cells,
                (uint64_t)FLOORS_TILED_CELLS_MAX);
        return EXIT_USAGE;
    }
    uint8_t *all = calloc((size_t)o->floors, cells);
    dg_grid *grids = calloc((size_t)o->floors, sizeof *grids);
    dg_result *results = calloc((size_t)o->floors, sizeof *results);
    int code = all && grids && results ? 0 : EXIT_GEN;
    if (code)
        fprintf(stderr, "dungeon: out of memory for %d floors\n", (int)o->floors);
    for (int32_t f = 0; !code && f < o->floors; f++)
    {
        dg_grid_init(&grids[f], all + (size_t)f * cells, rc->width, rc->height, 0);
        dg_result_init(&results[f], NULL);
    }
    if (!code)
        code = generate_all_floors(o, rc, prefabs, grids, results);
    dg_recipe first;
    floor_recipe(o, rc, 0, &first);
    char tileset[64];
    dg_export_options opt;
    dg_export_defaults(&opt);
    opt.format = format;
    opt.recipe = &first;
    opt.tile_width = opt.tile_height = o->tile_size;
    opt.tileset_image = tileset;
    snprintf(tileset, sizeof tileset, "dungeon-tiles-%d.png", (int)o->tile_size);
    opt.terrain = o->art;
    FILE *f = code ? NULL : open_out(o->output);
    if (!code && !f)
        code = EXIT_IO;
    if (f)
    {
        dg_diag diag = {0, 0, 0, ""};
        if (dg_export_floors(grids, results, o->floors, &opt, write_to_file, f, &diag) != DG_OK)
        {
            fprintf(stderr, "dungeon: export failed: %s\n", diag.message);
            code = EXIT_IO;
        }
        int io = close_out(f, o->output);
        code = code ? code : io;
    }
    if (!code)
        code = write_tileset(o, tileset);
    for (int32_t k = 0; results && k < o->floors; k++)
        dg_result_free(&results[k]);
    free(results);
    free(grids);
    free(all);
    return code;
}

/* --floors N: every floor of the dungeon into the directory -o names (made
 * if it is missing, its parent is not), or into one Tiled map when -o ends in
 * .tmx or .tmj. Standard output cannot take a file per floor, and a name like
 * floors.png is taken for a mistake, not for a directory to make. */
static int generate_floors(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs)
{
    static const char *const want = "with --floors, -o must be a directory (floor-0.EXT .. "
                                    "floor-(N-1).EXT, made if missing) or a .tmx or .tmj file "
                                    "(one Tiled map of every floor)";
    int32_t format = FMT_PNG, ext_format;
    const char *ext = extension(o->output);
    int tiled_file = same_text_nocase(ext, "tmx") || same_text_nocase(ext, "tmj");
    struct stat info;
    int exists = stat(o->output, &info) == 0;
    if (!strcmp(o->output, "-"))
    {
        fprintf(stderr, "dungeon: --floors writes a file per floor, not to standard output: %s\n", want);
        return EXIT_USAGE;
    }
    if (!tiled_file && exists && !S_ISDIR(info.st_mode))
    {
        fprintf(stderr, "dungeon: -o %s is a file: %s\n", o->output, want);
        return EXIT_USAGE;
    }
    if (!tiled_file && !exists && lookup_format(ext, &ext_format))
    {
        fprintf(stderr, "dungeon: -o %s: %s\n", o->output, want);
        return EXIT_USAGE;
    }
    if ((o->format || tiled_file) && !format_code(o, &format))
        return EXIT_USAGE;
    if (tiled_file)
        return check_format_options(o, format) ? EXIT_USAGE
                                               : write_floors_tiled(o, rc, prefabs, format);
    if (format == FMT_RECIPE)
    {
        fprintf(stderr, "dungeon: --floors writes maps, not recipes\n");
        return EXIT_USAGE;
    }
    int code = check_format_options(o, format);
    if (code)
        return code;
    errno = 0;
    if (!exists && make_dir(o->output) != 0)
    {
        fprintf(stderr, "dungeon: cannot make the directory %s: %s\n", o->output, strerror(errno));
        return EXIT_IO;
    }
    uint8_t *cells = calloc((size_t)rc->width * (size_t)rc->height, 1);
    dg_grid grid;
    if (!cells || dg_grid_init(&grid, cells, rc->width, rc->height, 0) != DG_OK)
    {
        fprintf(stderr, "dungeon: out of memory for a %dx%d floor\n", (int)rc->width, (int)rc->height);
        code = EXIT_GEN;
    }
    for (int32_t f = 0; !code && f < o->floors; f++)
        code = write_floor(o, rc, prefabs, format, f, &grid, o->output);
    free(cells);
    return code;
}

/* --survey: a table (ASCII, the default) or JSON, to -o. */
static int survey_to_output(const options *o, const dg_recipe *rc, const dg_prefab_set *prefabs,
                            int32_t format)
{
    if (format != FMT_ASCII && format != DG_EXPORT_JSON)
    {
        fprintf(stderr, "dungeon: --survey prints a table or JSON, not %s\n", format_name(format));
        return EXIT_USAGE;
    }
    if (o->stats || o->markers)
    {
        fprintf(stderr, "dungeon: --survey does not take %s\n", o->stats ? "--stats" : "--markers");
        return EXIT_USAGE;
    }
    FILE *f = open_out(o->output);
    if (!f)
        return EXIT_IO;
    int code = survey_run(rc, prefabs, o->site.graph, o->survey, format == DG_EXPORT_JSON, f) ? EXIT_GEN : 0;
    int io = close_out(f, o->output);
    return code ? code : io;
}

/* --reserve and --anchor lie inside the recipe's grid: a rectangle reaching
 * past an edge or an anchor outside would shape nothing. */
static int check_site(const options *o, const dg_recipe *rc)
{
    for (int i = 0; i < o->reserve_count; i++)
    {
        dg_rect q = o->reserve[i];
        if ((int64_t)q.x + q.w > rc->width || (int64_t)q.y + q.h > rc->height)
        {
            fprintf(stderr, "dungeon: --reserve %d,%d,%d,%d is not inside the %dx%d map (x+w at "
                            "most %d, y+h at most %d)\n", (int)q.x, (int)q.y, (int)q.w, (int)q.h,
                    (int)rc->width, (int)rc->height, (int)rc->width, (int)rc->height);
            return EXIT_USAGE;
        }
    }
    for (int32_t i = 0; i < o->site.anchor_count; i++)
    {
        dg_point p = o->site.anchors[i];
        if (p.x >= rc->width || p.y >= rc->height)
        {
            fprintf(stderr, "dungeon: --anchor %d,%d is outside the %dx%d map (x 0..%d, y 0..%d)\n",
                    (int)p.x, (int)p.y, (int)rc->width, (int)rc->height, (int)rc->width - 1,
                    (int)rc->height - 1);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Generates into a fresh grid and writes it; returns the exit code. */
/* --tileset KIND: the library's own tileset, the wall colour with a darker outline. */
static int write_autotile_tileset(const options *o)
{
    static const char *const kinds[] = {"cardinal", "blob", "corner", "art"};
    int32_t kind = 0, t = o->tile_size;
    while (kind < 4 && strcmp(o->tileset, kinds[kind]))
        kind++;
    if (kind == 4)
    {
        fprintf(stderr, "dungeon: --tileset '%s' is not cardinal, blob, corner or art\n", o->tileset);
        return EXIT_USAGE;
    }
    int32_t cols = kind == 3 ? DG_ART_COLUMNS : DG_AUTOTILE_TILESET_COLUMNS;
    int32_t rows = kind == 3 ? DG_ART_ROWS : kind == DG_AUTOTILE_BLOB ? 6 : 2;
    size_t size = (size_t)cols * (size_t)t * (size_t)rows * (size_t)t * 4u;
    uint8_t *px = malloc(size);
    uint32_t fill = dg_tile_color(DG_TILE_WALL), edge = 0xFFu;
    for (int s = 8; s < 32; s += 8)
        edge |= ((fill >> s & 0xFFu) * 3u / 5u) << s;
    dg_diag diag = {0, 0, 0, ""};
    dg_status st = !px ? DG_E_NOMEM
                   : kind == 3 ? dg_art_tileset_rgba(NULL, t, px, size, &diag)
                               : dg_autotile_tileset_rgba(kind, fill, edge, t, px, size, &diag);
    int rc = st == DG_OK ? save_png(px, cols * t, rows * t, o->output) : EXIT_IO;
    if (st != DG_OK)
        fprintf(stderr, "dungeon: tileset: %s\n", px ? diag.message : "out of memory");
    free(px);
    return rc;
}

static int run_recipe(const options *o, dg_recipe rc);

/* Loads the level graph of generator 'graph': --graph FILE, else the file the
 * recipe names (relative to the working directory). A recipe that records a
 * graph runs only with that graph; the recipe records the one loaded. */
static int load_graph(const options *o, dg_recipe *rc, dg_graph *graph)
{
    dg_generator_info info;
    dg_generator_get(dg_generator_find(rc->generator), &info);
    const dg_recipe_input *want = &rc->inputs[DG_RECIPE_GRAPH];
    if (o->graph && !info.needs_graph)
    {
        fprintf(stderr, "dungeon: generator '%s' lays out no level graph: --graph is for --gen graph\n",
                rc->generator);
        return EXIT_USAGE;
    }
    if (!info.needs_graph)
        return 0;
    const char *path = o->graph ? o->graph : want->file[0] ? want->file : NULL;
    if (!path)
    {
        fprintf(stderr, "dungeon: generator 'graph' needs --graph FILE (examples/graphs/)\n");
        return EXIT_USAGE;
    }
    dg_diag diag = {0, 0, 0, ""};
    dg_status st = dg_graph_load(path, NULL, graph, &diag);
    if (st != DG_OK)
    {
        fprintf(stderr, "dungeon: %s\n", diag.message);
        if (!o->graph)
            fprintf(stderr, "dungeon: (the recipe names graph=%s, relative to the working "
                            "directory; --graph FILE gives its place)\n", path);
        return st == DG_E_PARSE || st == DG_E_INVALID ? EXIT_GEN : EXIT_IO;
    }
    uint64_t hash = dg_graph_hash(graph);
    if (want->hash && want->hash != hash)
    {
        fprintf(stderr, "dungeon: %s is not the level graph the recipe was made with (its hash is "
                        "0x%016" PRIx64 ", the recipe's graph_hash=0x%016" PRIx64 "): the map would differ\n",
                path, hash, want->hash);
        return EXIT_USAGE;
    }
    if (dg_recipe_set_input(rc, DG_RECIPE_GRAPH, hash, path, NULL) != DG_OK)
    {
        fprintf(stderr, "dungeon: note: the recipe cannot name %s (letters, digits, ./_-+ only, "
                        "at most %d bytes): it records the graph's hash alone\n",
                path, DG_RECIPE_PREFABS_MAX - 1);
        dg_recipe_set_input(rc, DG_RECIPE_GRAPH, hash, NULL, NULL);
    }
    return 0;
}

/* run_recipe with the level graph (if the generator lays one out) in the site. */
static int run_with_graph(const options *o, dg_recipe rc)
{
    dg_graph graph;
    dg_graph_init(&graph);
    int code = load_graph(o, &rc, &graph);
    if (!code && graph.node_count && o->floors)
    {
        fprintf(stderr, "dungeon: --floors stacks generated floors: a level graph is one floor, "
                        "not with --floors\n");
        code = EXIT_USAGE;
    }
    options with = *o;
    with.site.graph = graph.node_count ? &graph : NULL;
    if (!code)
        code = run_recipe(&with, rc);
    dg_graph_free(&graph);
    return code;
}

/* The recipe, the level content it records or the options give, then the map(s). */
static int run(const options *o)
{
    if (o->tileset)
        return write_autotile_tileset(o);
    dg_recipe rc;
    content ct;
    int code = build_recipe(o, &rc);
    if (code)
        return code;
    code = content_load(&ct, &rc, o->roles, o->spawns, o->depth_set, o->depth);
    if (code)
    {
        content_free(&ct);
        return code;
    }
    options with = *o;
    with.content = ct.role_count || ct.spawns ? &ct : NULL;
    if (with.content && o->survey)
        code = (fprintf(stderr, "dungeon: --survey measures maps: not with --roles or --spawns\n"),
                EXIT_USAGE);
    else
        code = run_with_graph(&with, rc);
    content_free(&ct);
    return code;
}

static int run_recipe(const options *o, dg_recipe rc)
{
    int32_t format;
    int code;
    if ((o->reserve_count || o->site.anchor_count) && (o->floors || o->survey))
    {
        fprintf(stderr, "dungeon: --reserve and --anchor shape one map: not with %s\n",
                o->floors ? "--floors" : "--survey");
        return EXIT_USAGE;
    }
    if (o->survey && o->floors)
    {
        fprintf(stderr, "dungeon: --survey measures single maps: not with --floors\n");
        return EXIT_USAGE;
    }
    code = check_site(o, &rc);
    if (code)
        return code;
    if (o->stairs && !o->floors)
    {
        fprintf(stderr, "dungeon: --stairs needs --floors\n");
        return EXIT_USAGE;
    }
    if (o->floors && !o->survey)
    {
        dg_prefab_set *prefabs = NULL;
        code = load_prefabs(o, &rc, &prefabs);
        if (!code)
            code = generate_floors(o, &rc, prefabs);
        dg_prefab_set_free(prefabs);
        return code;
    }
    if (!format_code(o, &format))
        return EXIT_USAGE;
    code = check_format_options(o, format);
    if (code)
        return code;
    dg_prefab_set *prefabs = NULL;
    code = load_prefabs(o, &rc, &prefabs);
    if (code)
        return code;
    if (o->survey)
        code = survey_to_output(o, &rc, prefabs, format);
    else if (format == FMT_RECIPE && !o->stats) /* --stats generates the map to describe it */
        code = write_recipe(&rc, o->output);
    else
        code = generate_and_write(o, &rc, prefabs, format);
    dg_prefab_set_free(prefabs);
    return code;
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.width = 80;
    o.height = 50;
    o.scale = 8;
    o.tile_size = 16;
    o.output = "-";
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    return run(&o);
}
