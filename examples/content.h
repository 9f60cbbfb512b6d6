/* The dungeon tool's level content (included by dungeon.c): --roles, --spawns
 * and --depth. The tables are loaded once, recorded in the recipe (a file hint
 * and a hash, docs/recipes.md) and applied to every map after generation and
 * locks: dg_roles_populate (or either alone). A recipe that records a table is replayed
 * with that table only: the file it names, or the one given, if its hash agrees. */
#ifndef DUNGEON_CONTENT_H
#define DUNGEON_CONTENT_H

#include <dungeon.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct content {
    dg_role_rule roles[DG_ROLES_MAX];
    int32_t role_count;             /* 0: no roles */
    dg_spawn_table *spawns;         /* NULL: no population */
    int32_t depth;                  /* dg_populate's depth */
} content;

/* Prints a parse error where it is found, and notes that it was said. */
static void content_spawn_error(void *user, const dg_diag *d)
{
    *(int *)user = 1;
    fprintf(stderr, "dungeon: %s\n", d->message);
}

/* The role table: "default" is the built-in one. 0 or an exit code (2). */
static int content_load_roles(content *c, const char *path)
{
    dg_diag diag = {0, 0, 0, ""};
    dg_status st = strcmp(path, "default") == 0
                       ? dg_roles_builtin(c->roles, DG_ROLES_MAX, &c->role_count)
                       : dg_roles_load(path, c->roles, DG_ROLES_MAX, &c->role_count, &diag);
    if (st == DG_OK && c->role_count > 0)
        return 0;
    fprintf(stderr, "dungeon: --roles %s: %s\n", path, st ? diag.message : "the table has no role");
    return 2;
}

static int content_load_spawns(content *c, const char *path)
{
    dg_diag diag = {0, 0, 0, ""};
    int said = 0;
    if (dg_spawn_load(path, NULL, content_spawn_error, &said, &c->spawns, &diag) == DG_OK)
        return 0;
    if (!said) /* the file could not be read (parse errors were printed as found) */
        fprintf(stderr, "dungeon: --spawns %s: %s\n", path, diag.message);
    return 2;
}

/* The file of input `which` that a recipe names, or NULL. */
static const char *content_recorded(const dg_recipe *rc, int32_t which)
{
    return rc->inputs[which].hash && rc->inputs[which].file[0] ? rc->inputs[which].file : NULL;
}

/* Records (or, for a recipe that has one, checks) the identity of a table. */
static int content_identity(dg_recipe *rc, int32_t which, uint64_t hash, const char *path,
                            const char *option)
{
    uint64_t want = rc->inputs[which].hash;
    if (want && want != hash)
    {
        fprintf(stderr, "dungeon: %s %s (hash 0x%016" PRIx64 ") is not the recipe's %s (hash "
                        "0x%016" PRIx64 "): the level would differ\n", option, path, hash,
                rc->inputs[which].file[0] ? rc->inputs[which].file : "table", want);
        return 2;
    }
    dg_diag diag = {0, 0, 0, ""};
    if (dg_recipe_set_input(rc, which, hash, path, &diag) != DG_OK &&
        dg_recipe_set_input(rc, which, hash, NULL, &diag) != DG_OK)
    {
        fprintf(stderr, "dungeon: %s: %s\n", option, diag.message);
        return 2;
    }
    return 0;
}

/* Loads what --roles, --spawns and --depth give, else what the recipe
 * records; records each in the recipe. 0 or an exit code. */
static int content_load(content *c, dg_recipe *rc, const char *roles, const char *spawns,
                        int depth_set, int32_t depth)
{
    memset(c, 0, sizeof *c);
    int code = 0;
    roles = roles ? roles : content_recorded(rc, DG_RECIPE_ROLES);
    spawns = spawns ? spawns : content_recorded(rc, DG_RECIPE_SPAWNS);
    if (!roles && rc->inputs[DG_RECIPE_ROLES].hash)
        return fprintf(stderr, "dungeon: the recipe records a role table it does not name: "
                               "give it with --roles FILE\n"), 2;
    if (!spawns && rc->inputs[DG_RECIPE_SPAWNS].hash)
        return fprintf(stderr, "dungeon: the recipe records a spawn table it does not name: "
                               "give it with --spawns FILE\n"), 2;
    if (roles && !(code = content_load_roles(c, roles)))
        code = content_identity(rc, DG_RECIPE_ROLES, dg_roles_hash(c->roles, c->role_count),
                                roles, "--roles");
    if (!code && spawns && !(code = content_load_spawns(c, spawns)))
        code = content_identity(rc, DG_RECIPE_SPAWNS, dg_spawn_table_hash(c->spawns), spawns,
                                "--spawns");
    if (!code && depth_set && !c->spawns)
        code = (fprintf(stderr, "dungeon: --depth is the depth --spawns places content for: "
                                "give --spawns too\n"), 2);
    char text[16];
    snprintf(text, sizeof text, "%d", (int)depth);
    if (!code && depth_set)
        dg_recipe_set(rc, "depth", text, NULL);
    if (!code && dg_recipe_get(rc, "depth", &c->depth) != DG_OK)
        c->depth = 0;
    if (!code && c->spawns && c->depth == 0)
    {
        dg_populate_params p;
        dg_populate_defaults(&p);
        c->depth = p.depth;
    }
    return code;
}

static void content_free(content *c)
{
    dg_spawn_table_free(c->spawns);
    c->spawns = NULL;
}

/* The roles that fell short, from the report: "boss 0 (rank), ...". */
static void content_print_short(const content *c, const dg_role_report *rep, const char *where)
{
    if (rep->short_count == 0)
        return;
    fprintf(stderr, "dungeon: %sroles short:", where);
    for (int32_t j = 0, n = 0; j < rep->rules && j < c->role_count; j++)
    {
        int32_t why = rep->shortfall[j];
        if (why == DG_ROLE_SHORT_NONE)
            continue;
        fprintf(stderr, "%s %s %d (%s)", n++ ? "," : "", c->roles[j].name, (int)rep->placed[j],
                dg_role_short_str(why));
    }
    fprintf(stderr, "\n");
}

/* Roles and population on a generated map, in one call when both are asked
 * (dg_roles_populate measures the map once); the roles that fell short go to
 * stderr prefixed by where. DG_OK or the failing call's status. */
static dg_status content_apply(const content *c, const dg_grid *grid, uint64_t seed,
                               int32_t depth_offset, dg_result *result, const char *where)
{
    dg_diag diag = {0, 0, 0, ""};
    dg_role_report rep;
    memset(&rep, 0, sizeof rep);
    dg_populate_params p;
    dg_populate_defaults(&p);
    p.depth = c->depth + depth_offset;
    dg_status st = DG_OK;
    if (c->role_count && c->spawns)
        st = dg_roles_populate(grid, c->roles, c->role_count, c->spawns, &p, seed, result, &rep,
                               NULL, NULL, &diag);
    else if (c->role_count)
        st = dg_roles(grid, c->roles, c->role_count, seed, result, &rep, NULL, &diag);
    else if (c->spawns)
        st = dg_populate(grid, c->spawns, &p, seed, result, NULL, NULL, &diag);
    if (rep.rules && st != DG_E_NOSPACE) /* NOSPACE: the message below names them */
        content_print_short(c, &rep, where);
    if (st != DG_OK)
        fprintf(stderr, "dungeon: %s%s: %s\n", where, dg_status_str(st), diag.message);
    return st;
}

#endif
