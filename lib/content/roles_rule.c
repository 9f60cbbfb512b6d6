/* Role rules: the "any room" rule, the built-in table and the checks every
 * table passes before a map is touched (docs/content.md). */
#include "content/content.h"

#include <stdio.h>

#define WEIGHT_MAX 1000000

void dg_role_rule_init(dg_role_rule *rule, const char *name)
{
    if (!rule)
        return;
    memset(rule, 0, sizeof *rule);
    if (name)
    {
        size_t len = strlen(name);
        len = len < DG_NAME_MAX - 1 ? len : DG_NAME_MAX - 1;
        memcpy(rule->name, name, len);
    }
    rule->count_min = rule->count_max = 1;
    rule->weight = 1;
    rule->rank_min = 0;
    rule->rank_max = DG_ROLE_RANK_MAX;
    rule->area_min = 1;
    rule->area_max = INT32_MAX;
    rule->entrances_min = 0;
    rule->entrances_max = INT32_MAX;
}

/* The built-in table, in placement order (examples/roles/default.txt is the
 * same table as text; a test keeps them equal). */
static void builtin(dg_role_rule *t)
{
    dg_role_rule *r = t;
    dg_role_rule_init(r, "start");
    r->holds = DG_HOLDS_START;
    dg_role_rule_init(++r, "exit");
    r->holds = DG_HOLDS_EXIT;
    dg_role_rule_init(++r, "key");
    r->count_min = 0, r->count_max = DG_LOCKS_MAX, r->weight = 1000;
    r->holds = DG_HOLDS_KEY;
    dg_role_rule_init(++r, "boss");
    r->rank_min = 700, r->area_min = 16;
    dg_role_rule_init(++r, "secret");
    r->count_min = 0, r->weight = 100, r->behind = DG_BEHIND_SECRET;
    dg_role_rule_init(++r, "treasure");
    r->count_max = 2, r->weight = 10, r->rank_min = 300;
    r->route = DG_ROLE_NO, r->dead_end = DG_ROLE_YES;
    dg_role_rule_init(++r, "shop");
    r->count_min = 0, r->weight = 10, r->rank_min = 200, r->rank_max = 800;
    r->route = DG_ROLE_YES, r->dead_end = DG_ROLE_NO;
    r->area_min = 9;
    dg_role_rule_init(++r, "hub");
    r->count_min = 0, r->count_max = 2, r->weight = 5, r->entrances_min = 3;
}
#define BUILTIN_COUNT 8

dg_status dg_roles_builtin(dg_role_rule *rules, int32_t cap, int32_t *count)
{
    if (!count)
        return DG_E_NULL;
    if (!rules && cap > 0)
        return DG_E_NULL;
    *count = BUILTIN_COUNT;
    if (cap < BUILTIN_COUNT)
        return DG_E_BUFFER;
    builtin(rules);
    return DG_OK;
}

int dgi_role_name_ok(const char *name, size_t length)
{
    if (length == 0 || length >= DG_NAME_MAX)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (!dgi_name_char((uint8_t)name[i]))
            return 0;
    return 1;
}

static dg_status bad(dg_diag *diag, const char *where, int32_t i, const dg_role_rule *rule,
                     const char *what)
{
    char name[DG_NAME_MAX];
    size_t len = 0;
    while (len < DG_NAME_MAX - 1 && rule->name[len])
        len++;
    memcpy(name, rule->name, len);
    name[len] = '\0';
    return dgi_fail(diag, DG_E_INVALID, "%sroles: rule %d (\"%s\"): %s", where ? where : "",
                    (int)i, name, what);
}

static int range_ok(int32_t lo, int32_t hi, int32_t min, int32_t max)
{
    return lo >= min && hi <= max && lo <= hi;
}

dg_status dgi_role_rule_check(const dg_role_rule *r, int32_t i, const char *where, dg_diag *diag)
{
    size_t len = 0;
    while (len < DG_NAME_MAX && r->name[len])
        len++;
    if (!dgi_role_name_ok(r->name, len))
        return bad(diag, where, i, r, "name must be 1..31 letters, digits, '_', '-' or '.'");
    if (!range_ok(r->count_min, r->count_max, 0, INT32_MAX))
        return bad(diag, where, i, r, "count range must be 0 <= min <= max");
    if (r->weight < 0 || r->weight > WEIGHT_MAX)
        return bad(diag, where, i, r, "weight must be 0..1000000");
    if (!range_ok(r->rank_min, r->rank_max, 0, DG_ROLE_RANK_MAX))
        return bad(diag, where, i, r, "rank range must be 0 <= min <= max <= 1000");
    if (r->route < DG_ROLE_ANY || r->route > DG_ROLE_NO)
        return bad(diag, where, i, r, "route must be DG_ROLE_ANY, _YES or _NO");
    if (r->dead_end < DG_ROLE_ANY || r->dead_end > DG_ROLE_NO)
        return bad(diag, where, i, r, "dead_end must be DG_ROLE_ANY, _YES or _NO");
    if (r->behind < DG_BEHIND_ANY || r->behind > DG_BEHIND_SECRET)
        return bad(diag, where, i, r, "behind must be a DG_BEHIND_* value");
    if (!range_ok(r->area_min, r->area_max, 0, INT32_MAX))
        return bad(diag, where, i, r, "area range must be 0 <= min <= max");
    if (!range_ok(r->entrances_min, r->entrances_max, 0, INT32_MAX))
        return bad(diag, where, i, r, "entrances range must be 0 <= min <= max");
    if (r->holds < DG_HOLDS_ANY || r->holds > DG_HOLDS_KEY)
        return bad(diag, where, i, r, "holds must be a DG_HOLDS_* value");
    if (r->require != 0 && r->require != 1)
        return bad(diag, where, i, r, "require must be 0 or 1");
    for (int s = 0; s < DG_SPARE_SLOTS; s++)
        if (r->spare[s] != 0)
            return bad(diag, where, i, r, "spare slots must be 0");
    return DG_OK;
}

dg_status dg_roles_check(const dg_role_rule *rules, int32_t count, dg_diag *diag)
{
    if (count < 0 || count > DG_ROLES_MAX)
        return dgi_fail(diag, DG_E_INVALID, "roles: count %d outside 0..%d", (int)count,
                        DG_ROLES_MAX);
    if (!rules && count > 0)
        return dgi_fail(diag, DG_E_NULL, "roles: rules is NULL");
    for (int32_t i = 0; i < count; i++)
    {
        dg_status st = dgi_role_rule_check(&rules[i], i, NULL, diag);
        if (st != DG_OK)
            return st;
        for (int32_t j = 0; j < i; j++) /* the first letters differ for most pairs */
            if (rules[i].name[0] == rules[j].name[0] &&
                strncmp(rules[i].name, rules[j].name, DG_NAME_MAX) == 0)
                return bad(diag, NULL, i, &rules[i], "the name of an earlier rule");
    }
    dgi_diag_ok(diag);
    return DG_OK;
}

/* Bytes of a name up to its NUL, then every field in order: the table's
 * identity for recipes, independent of padding and of bytes after a NUL. */
static uint64_t mix_rule(uint64_t h, const dg_role_rule *r)
{
    size_t n = 0;
    while (n < DG_NAME_MAX && r->name[n])
        h = dgi_hash_combine(h, (uint8_t)r->name[n++]);
    const int32_t v[] = {r->count_min, r->count_max, r->weight, r->rank_min, r->rank_max,
                         r->route, r->dead_end, r->behind, r->area_min, r->area_max,
                         r->entrances_min, r->entrances_max, r->holds, r->require};
    h = dgi_hash_combine(h, n);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        h = dgi_hash_combine(h, (uint32_t)v[i]);
    return h;
}

uint64_t dg_roles_hash(const dg_role_rule *rules, int32_t count)
{
    if (!rules || count < 0 || count > DG_ROLES_MAX)
        return 0;
    uint64_t h = dgi_hash_combine(0x726F6C6573ULL, (uint32_t)count); /* "roles" */
    for (int32_t i = 0; i < count; i++)
        h = mix_rule(h, &rules[i]);
    return h ? h : 1;
}
