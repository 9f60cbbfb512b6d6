/* dg_roles: roles for the rooms of any generated map (docs/content.md).
 * Every room gets a bit per rule it qualifies for (roles_facts.c measures the
 * map); rules then take rooms in priority order (each up to its count_min in
 * table order, then a first room for the others), each picking among its free
 * candidates one that the fewest later rules still need, or, when all are
 * taken, moving the rules that hold them on to other rooms (an augmenting
 * path, as in bipartite matching); the rooms left go by weight to rules below
 * their count_max. Work: O(cells + rooms * rules) for the facts and masks,
 * O(rooms) per placement, O(rooms^2) per augmenting search. */
#include "content/content.h"

#include <stdio.h>

#define ROLE_STREAM 0x726F6C6573ULL /* "roles": the placement's own random stream */

/* 1 if room facts f meet rule r. */
static int qualifies(const dg_role_rule *r, const dgi_room_facts *f)
{
    static const int32_t behind_flag[4] = {0, DGI_RF_SHUT, DGI_RF_LOCK, DGI_RF_SECRET};
    static const int32_t holds_flag[4] = {0, DGI_RF_START, DGI_RF_EXIT, DGI_RF_KEY};
    if (!(f->flags & DGI_RF_REACHABLE))
        return 0;
    if (r->holds && !(f->flags & holds_flag[r->holds]))
        return 0;
    if (f->rank < r->rank_min || f->rank > r->rank_max)
        return 0;
    if (r->route && ((f->flags & DGI_RF_ROUTE) != 0) != (r->route == DG_ROLE_YES))
        return 0;
    if (r->dead_end && (f->entrances == 1) != (r->dead_end == DG_ROLE_YES))
        return 0;
    if (r->behind == DG_BEHIND_OPEN ? (f->flags & DGI_RF_SHUT) != 0
                                     : r->behind && !(f->flags & behind_flag[r->behind]))
        return 0;
    if (f->area < r->area_min || f->area > r->area_max)
        return 0;
    return f->entrances >= r->entrances_min && f->entrances <= r->entrances_max;
}

/* Why no room qualifies for r: the first constraint (in the order of
 * DG_ROLE_SHORT_*) after which no room is left. */
static int32_t first_failing(const dg_role_rule *r, const dgi_room_facts *f, int32_t rooms)
{
    dg_role_rule probe;
    dg_role_rule_init(&probe, "probe");
    int32_t stage = DG_ROLE_SHORT_ROOMS;
    for (; stage <= DG_ROLE_SHORT_ENTRANCES; stage++)
    {
        switch (stage)
        {
        case DG_ROLE_SHORT_HOLDS: probe.holds = r->holds; break;
        case DG_ROLE_SHORT_RANK: probe.rank_min = r->rank_min, probe.rank_max = r->rank_max; break;
        case DG_ROLE_SHORT_ROUTE: probe.route = r->route; break;
        case DG_ROLE_SHORT_DEAD_END: probe.dead_end = r->dead_end; break;
        case DG_ROLE_SHORT_BEHIND: probe.behind = r->behind; break;
        case DG_ROLE_SHORT_AREA: probe.area_min = r->area_min, probe.area_max = r->area_max; break;
        case DG_ROLE_SHORT_ENTRANCES:
            probe.entrances_min = r->entrances_min, probe.entrances_max = r->entrances_max;
            break;
        default: probe.area_min = 0; break;
        }
        int32_t left = 0;
        for (int32_t k = 0; k < rooms && !left; k++)
            left = qualifies(&probe, &f[k]);
        if (!left)
            return stage;
    }
    return DG_ROLE_SHORT_TAKEN;
}

/* The facts some rule reads beyond those every rule does: the route and
 * each kind of gate (a flood of the map each). */
static int32_t facts_asked(const dg_role_rule *rules, int32_t count)
{
    static const int32_t behind_flag[4] = {0, DGI_RF_SHUT, DGI_RF_LOCK, DGI_RF_SECRET};
    int32_t asked = 0;
    for (int32_t j = 0; j < count; j++)
        asked |= behind_flag[rules[j].behind] | (rules[j].route ? DGI_RF_ROUTE : 0);
    return asked;
}

typedef struct role_state {
    const dg_role_rule *rules;
    int32_t count, rooms;
    uint32_t *mask;     /* per room: the rules it qualifies for */
    int32_t *role;      /* per room: its rule, -1 free, < -1 kept (-3 - rule, -2 no rule) */
    int32_t *from;      /* per room: the room before it on an alternating search (augment) */
    int32_t free_for[DG_ROLES_MAX]; /* free rooms qualifying per rule */
    dg_role_report rep;
    dg_rng rng;
} role_state;

static void take(role_state *s, int32_t k, int32_t rule)
{
    s->role[k] = rule;
    for (int32_t j = 0; j < s->count; j++)
        s->free_for[j] -= (s->mask[k] >> j) & 1u;
    if (rule >= 0)
        s->rep.placed[rule]++;
}

/* A free candidate room of rule j that the fewest rules in `first` and then
 * in `then` also want, drawn uniformly among the ties; -1 if none. */
static int32_t pick(role_state *s, int32_t j, uint32_t first, uint32_t then)
{
    int32_t best = INT32_MAX, ties = 0, chosen = -1;
    for (int32_t k = 0; k < s->rooms; k++)
    {
        if (s->role[k] != -1 || !((s->mask[k] >> j) & 1u))
            continue;
        int32_t c = 64 * dgi_popcount64(s->mask[k] & first) + dgi_popcount64(s->mask[k] & then);
        if (c < best)
            best = c, ties = 0;
        if (c == best && dgi_rng_below(&s->rng, (uint32_t)++ties) == 0)
            chosen = k; /* reservoir draw: each tie equally likely */
    }
    return chosen;
}

/* Every candidate of rule j is taken: a breadth-first search over the rooms
 * the rules in them could move to (an alternating path of bipartite
 * matching, rooms in array order), then each rule on the path moves one room
 * on and j takes the first. Kept roles never move. Returns 1 if j got a room
 * (only the free room at the path's end changes hands), else 0. O(rooms^2). */
static int augment(role_state *s, int32_t j, int32_t *queue)
{
    int32_t head = 0, tail = 0, end = -1;
    for (int32_t k = 0; k < s->rooms; k++)
    {
        s->from[k] = -2; /* unseen */
        if (s->role[k] >= 0 && ((s->mask[k] >> j) & 1u))
            s->from[k] = -1, queue[tail++] = k;
    }
    while (head < tail && end < 0)
    {
        int32_t k = queue[head++], i = s->role[k];
        for (int32_t t = 0; t < s->rooms && end < 0; t++)
        {
            if (s->from[t] != -2 || !((s->mask[t] >> i) & 1u) || s->role[t] < -1)
                continue;
            s->from[t] = k;
            if (s->role[t] == -1)
                end = t;
            else
                queue[tail++] = t;
        }
    }
    if (end < 0)
        return 0;
    int32_t k = s->from[end];
    take(s, end, s->role[k]);
    s->rep.placed[s->role[k]]--; /* the rule moved: still one room */
    for (; s->from[k] >= 0; k = s->from[k])
        s->role[k] = s->role[s->from[k]];
    s->role[k] = j;
    s->rep.placed[j]++;
    return 1;
}

/* Rules other than j still short of their count_min (after j only: min) or
 * of their count_max with a free candidate left. */
static uint32_t still_wanted(const role_state *s, int32_t j, int min)
{
    uint32_t want = 0;
    for (int32_t i = min ? j + 1 : 0; i < s->count; i++)
        if (i != j && (min ? s->rep.placed[i] < s->rules[i].count_min
                           : s->rep.placed[i] < s->rules[i].count_max && s->free_for[i] > 0))
            want |= 1u << i;
    return want;
}

/* One more room for rule j: a free candidate if there is one, else by moving
 * the rules that hold j's candidates on (augment). 0 if no assignment of the
 * rooms placed so far leaves j one more. */
static int place_one(role_state *s, int32_t j, int32_t *queue)
{
    if (s->free_for[j] > 0)
    {
        take(s, pick(s, j, still_wanted(s, j, 1), still_wanted(s, j, 0)), j);
        return 1;
    }
    return augment(s, j, queue);
}

/* In priority order: each rule up to its count_min (table order), then a
 * first room for each rule that has none and may have one. A rule misses
 * only when no assignment keeps every room placed before it and gives it one. */
static void place_priority(role_state *s, int32_t *queue)
{
    for (int32_t j = 0; j < s->count; j++)
        while (s->rep.placed[j] < s->rules[j].count_min && place_one(s, j, queue))
            ;
    for (int32_t j = 0; j < s->count; j++)
        if (s->rep.placed[j] == 0 && s->rules[j].count_max > 0)
            place_one(s, j, queue);
}

/* The rooms left, one at a time, to a rule drawn by weight among those below
 * count_max with a free candidate. */
static void place_extras(role_state *s)
{
    for (;;)
    {
        uint64_t total = 0;
        for (int32_t j = 0; j < s->count; j++)
            if (s->rep.placed[j] < s->rules[j].count_max && s->free_for[j] > 0)
                total += (uint64_t)s->rules[j].weight;
        if (total == 0)
            return;
        uint32_t t = dgi_rng_below(&s->rng, (uint32_t)total); /* <= 32 * 10^6 */
        int32_t j = 0;
        for (;; j++)
        {
            if (s->rep.placed[j] >= s->rules[j].count_max || s->free_for[j] <= 0)
                continue;
            if (t < (uint32_t)s->rules[j].weight)
                break;
            t -= (uint32_t)s->rules[j].weight;
        }
        take(s, pick(s, j, 0, still_wanted(s, j, 0)), j);
    }
}

/* Roles set before the call: their rooms are taken for good, and count toward the rule of that name. */
static void keep_roles(role_state *s, const dg_result *r)
{
    if (r->label_count != r->room_count)
        return;
    for (int32_t k = 0; k < s->rooms; k++)
    {
        const char *role = r->labels[k].role;
        if (!role[0])
            continue;
        int32_t rule = -2;
        for (int32_t j = 0; j < s->count && rule == -2; j++)
            if (strncmp(role, s->rules[j].name, DG_NAME_MAX) == 0)
                rule = j;
        take(s, k, rule);
        if (rule >= 0)
            s->rep.kept[rule]++, s->role[k] = -3 - rule;
    }
}

const char *dg_role_short_str(int32_t reason)
{
    static const char *const words[] = {"none", "unreachable", "holds", "rank", "route",
                                        "dead_end", "behind", "area", "entrances", "taken",
                                        "few"};
    return reason >= 0 && reason <= DG_ROLE_SHORT_FEW ? words[reason] : "unknown";
}

/* Shortfalls into the report and one message naming each role short. Returns
 * 1 if a rule with require fell below its count_min. */
static int report_shortfalls(role_state *s, const dgi_room_facts *f, dg_diag *diag)
{
    int required = 0, n = 0;
    char msg[DG_DIAG_MESSAGE_MAX];
    msg[0] = '\0';
    for (int32_t j = 0; j < s->count; j++)
    {
        const dg_role_rule *r = &s->rules[j];
        int32_t placed = s->rep.placed[j];
        if (placed >= r->count_min && (placed > 0 || r->count_max == 0))
            continue;
        int32_t why = s->rep.qualified[j] == 0 ? first_failing(r, f, s->rooms)
                      : placed > 0 && s->rep.qualified[j] < r->count_min ? DG_ROLE_SHORT_FEW
                                                                          : DG_ROLE_SHORT_TAKEN;
        s->rep.shortfall[j] = why;
        s->rep.short_count++;
        required |= r->require && placed < r->count_min;
        size_t len = strlen(msg);
        if (diag) /* the message only: nobody reads it without a diag */
            snprintf(msg + len, sizeof msg - len, "%s%s %d (%s)", n ? ", " : "", r->name,
                     (int)placed, dg_role_short_str(why));
        n++;
    }
    if (n)
        dgi_fail(diag, required ? DG_E_NOSPACE : DG_OK, "roles short: %s", msg);
    else
        dgi_diag_ok(diag);
    return required;
}

static dg_status check_input(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                             const dg_result *result, dg_diag *diag)
{
    if (!grid || !result)
        return dgi_fail(diag, DG_E_NULL, "roles: %s is NULL", grid ? "result" : "grid");
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    st = dg_roles_check(rules, count, diag);
    if (st != DG_OK)
        return st;
    if (result->room_count < 0 || (result->room_count > 0 && !result->rooms))
        return dgi_fail(diag, DG_E_INVALID, "roles: result has no room array");
    if (result->marker_count < 0 || (result->marker_count > 0 && !result->markers))
        return dgi_fail(diag, DG_E_INVALID, "roles: result has no marker array");
    if (result->label_count != 0 &&
        (result->label_count != result->room_count || !result->labels))
        return dgi_fail(diag, DG_E_INVALID, "roles: result has %d labels for %d rooms",
                        (int)result->label_count, (int)result->room_count);
    dg_point p = result->start;
    if (p.x < 0 || p.y < 0 || p.x >= grid->width || p.y >= grid->height ||
        !dg_tile_passable(DG_CELL(grid, p.x, p.y)))
        return dgi_fail(diag, DG_E_INVALID, "roles: the result's start is not a passable cell");
    return DG_OK;
}

/* The rules' names into the labels of the rooms given one now. */
static dg_status write_labels(const role_state *s, dg_result *result)
{
    dg_status st = dgi_result_label_rooms(result);
    if (st != DG_OK)
        return st;
    for (int32_t k = 0; k < s->rooms; k++)
        if (s->role[k] >= 0 && !result->labels[k].role[0])
            memcpy(result->labels[k].role, s->rules[s->role[k]].name, DG_NAME_MAX);
    return DG_OK;
}

dg_status dg_roles(const dg_grid *grid, const dg_role_rule *rules, int32_t count, uint64_t seed,
                   dg_result *result, dg_role_report *report, const dg_allocator *allocator,
                   dg_diag *diag)
{
    return dgi_roles_run(grid, rules, count, seed, result, report, NULL, NULL, allocator, diag);
}

dg_status dgi_roles_run(const dg_grid *grid, const dg_role_rule *rules, int32_t count,
                        uint64_t seed, dg_result *result, dg_role_report *report,
                        const int32_t *walk, int32_t *room_dist, const dg_allocator *allocator,
                        dg_diag *diag)
{
    dg_status st = check_input(grid, rules, count, result, diag);
    if (st != DG_OK)
        return st;
    role_state s;
    memset(&s, 0, sizeof s);
    s.rules = rules, s.count = count, s.rooms = result->room_count;
    size_t rooms = (size_t)s.rooms + 1;
    /* one block: the facts, then per room its mask, role, from and queue entry */
    size_t per_room = sizeof(dgi_room_facts) + sizeof *s.mask + 3 * sizeof *s.role;
    dgi_room_facts *f = dgi_calloc(allocator, rooms, per_room);
    if (f)
    {
        s.mask = (uint32_t *)(f + rooms);
        s.role = (int32_t *)(s.mask + rooms); /* role, from, queue */
    }
    int32_t reachable = 0;
    st = f ? dgi_room_facts_fill(grid, result, walk, f, facts_asked(rules, count), &reachable,
                                   allocator)
             : DG_E_NOMEM;
    if (st == DG_OK)
    {
        for (int32_t k = 0; room_dist && k < s.rooms; k++)
            room_dist[k] = f[k].flags & DGI_RF_WHOLE ? f[k].distance : DGI_DIST_UNKNOWN;
        dgi_rng_seed(&s.rng, seed, ROLE_STREAM);
        s.rep.rules = count, s.rep.rooms = s.rooms, s.rep.reachable = reachable;
        for (int32_t k = 0; k < s.rooms; k++)
        {
            s.role[k] = -1;
            for (int32_t j = 0; j < count; j++)
                if (qualifies(&rules[j], &f[k]))
                    s.mask[k] |= 1u << j, s.rep.qualified[j]++, s.free_for[j]++;
        }
        keep_roles(&s, result);
        s.from = s.role + rooms;
        place_priority(&s, s.role + 2 * rooms);
        place_extras(&s);
        if (report_shortfalls(&s, f, diag))
            st = DG_E_NOSPACE;
        else
            st = write_labels(&s, result);
        if (st == DG_E_NOMEM)
            dgi_fail(diag, st, "roles: out of memory");
    }
    else
    {
        dgi_fail(diag, DG_E_NOMEM, "roles: out of memory");
    }
    if ((st == DG_OK || st == DG_E_NOSPACE) && report)
        *report = s.rep;
    dgi_free(allocator, f, rooms * per_room);
    return st;
}
