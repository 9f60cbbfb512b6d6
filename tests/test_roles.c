/* Room roles (dg_roles): over every generator's maps (some locked, with
 * secret doors) every constraint of every placed role holds, checked against
 * a reference that measures the rooms its own way; a rule is placed exactly
 * where an assignment in priority order has a room left for it (checked by
 * Hall's condition, not by searching paths as dg_roles does); shortfalls are
 * always reported; the same input gives the same roles; the text format and
 * the built-in table agree; golden pins. DG_ROLES_SEEDS=N (default 40) runs
 * the property test over N seeds per generator and prints the rates. */
#include "analysis/analysis.h" /* dgi_walk_default, dgi_walk_from */
#include "content/content.h"   /* dgi_room_facts_fill */
#include "hard.h"
#include "test.h"

#include <dungeon.h>
#include <stdlib.h>
#include <string.h>

typedef struct rgen {
    const char *name;
    const char *prefabs; /* file, or NULL */
    int32_t w, h;
} rgen;

static const rgen gens[] = {
    {"attach", NULL, 80, 50},  {"chain", NULL, 80, 50},   {"cave", NULL, 80, 50},
    {"bsp", NULL, 80, 50},     {"maze", NULL, 80, 50},    {"walk", NULL, 80, 50},
    {"scatter", NULL, 80, 50}, {"world", NULL, 80, 50},
    {"prefab-full", "examples/prefabs/shaft.txt", 52, 24},
    {"prefab-jigsaw", "examples/prefabs/forest.txt", 84, 50},
    {"prefab-islands", "examples/prefabs/factory.txt", 80, 50},
    {"prefab-mixed", "examples/prefabs/vaults.txt", 80, 50},
};
#define GENS ((int)(sizeof gens / sizeof gens[0]))

typedef struct rmap {
    uint8_t *cells;
    dg_grid g;
    dg_result r;
} rmap;

/* Generator g's map for seed; with locks, 2 locks and a share of secret doors. */
static int rmap_make(rmap *m, int g, const dg_prefab_set *set, uint64_t seed, int locks)
{
    m->cells = calloc((size_t)gens[g].w * (size_t)gens[g].h, 1);
    dg_grid_init(&m->g, m->cells, gens[g].w, gens[g].h, 0);
    dg_result_init(&m->r, NULL);
    dg_recipe rc;
    if (dg_recipe_init(&rc, gens[g].name, seed, gens[g].w, gens[g].h) != DG_OK ||
        dg_recipe_generate(&rc, &m->g, set, &m->r, NULL, NULL) != DG_OK)
        return 0;
    if (locks)
    {
        dg_lock_params lp;
        dg_lock_defaults(&lp);
        lp.secret_permille = 500;
        if (dg_lock_place(&m->g, &lp, seed, &m->r, NULL, NULL, NULL) != DG_OK)
            return 0;
    }
    return 1;
}

static void rmap_free(rmap *m)
{
    dg_result_free(&m->r);
    free(m->cells);
}

/* ---- the reference: each room measured cell by cell ------------------------ */
typedef struct ref_room {
    int32_t area, entrances, dist, rank, reach, route, lock, secret, shut, start, exit, key;
} ref_room;

static int is_room_tile(uint8_t t)
{
    return dg_tile_passable(t) && t != DG_TILE_DOOR && t != DG_TILE_DOOR_LOCKED &&
           t != DG_TILE_DOOR_SECRET && t != DG_TILE_CORRIDOR;
}

typedef struct shut_walk {
    const dg_grid *g;
    int lock, secret;
} shut_walk;

static int shut_step(const void *user, int32_t from, int32_t to, int dir)
{
    const shut_walk *s = user;
    (void)from, (void)dir;
    uint8_t t = s->g->cells[(to / s->g->width) * s->g->stride + to % s->g->width];
    if ((s->lock && t == DG_TILE_DOOR_LOCKED) || (s->secret && t == DG_TILE_DOOR_SECRET))
        return 0;
    return dg_tile_passable(t);
}

static int32_t *walk(const dg_grid *g, dg_point p, int lock, int secret)
{
    shut_walk s = {g, lock, secret};
    int ok = p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height &&
             shut_step(&s, 0, p.y * g->width + p.x, 0);
    return bfs_lattice(g->width, g->height, ok ? p.y * g->width + p.x : -1, shut_step, &s, NULL);
}

/* Openings of room k: cells of `open` that are marked, flooded 8-way by recursion-free scans. */
static int32_t ref_entrances(const dg_grid *g, const int32_t *owner, int32_t k, uint8_t *mark)
{
    int32_t w = g->width, h = g->height, n = w * h, groups = 0;
    memset(mark, 0, (size_t)(uint32_t)n);
    for (int32_t c = 0; c < n; c++)
    {
        if (owner[c] == k || !dg_tile_passable(g->cells[(c / w) * g->stride + c % w]))
            continue;
        int32_t x = c % w, y = c / w;
        int next = (x > 0 && owner[c - 1] == k) || (x < w - 1 && owner[c + 1] == k) ||
                   (y > 0 && owner[c - w] == k) || (y < h - 1 && owner[c + w] == k);
        mark[c] = (uint8_t)next;
    }
    for (int32_t c = 0; c < n; c++)
    {
        if (mark[c] != 1)
            continue;
        groups++;
        mark[c] = 2;
        for (int changed = 1; changed;) /* grow the group until it stops */
        {
            changed = 0;
            for (int32_t d = 0; d < n; d++)
            {
                if (mark[d] != 1)
                    continue;
                int32_t x = d % w, y = d / w;
                for (int32_t yy = y - 1; yy <= y + 1 && mark[d] == 1; yy++)
                    for (int32_t xx = x - 1; xx <= x + 1; xx++)
                        if (xx >= 0 && yy >= 0 && xx < w && yy < h && mark[yy * w + xx] == 2)
                        {
                            mark[d] = 2, changed = 1;
                            break;
                        }
            }
        }
        for (int32_t d = 0; d < n; d++)
            if (mark[d] == 2)
                mark[d] = 3;
    }
    return groups;
}

/* Cave rooms own the components of open cells no plain room owns: each the
 * smallest cave rect around the component's bounding box. */
static void own_caves_ref(const dg_grid *g, const dg_result *r, int32_t *owner)
{
    int32_t w = g->width, h = g->height, n = w * h;
    int32_t *comp = malloc((size_t)n * sizeof *comp), *stack = malloc((size_t)n * sizeof *stack);
    for (int32_t c = 0; c < n; c++)
        comp[c] = owner[c] < 0 && is_room_tile(g->cells[(c / w) * g->stride + c % w]) ? -1 : -2;
    for (int32_t c0 = 0; c0 < n; c0++)
    {
        if (comp[c0] != -1)
            continue;
        int32_t top = 0, count = 0, x0 = w, y0 = h, x1 = -1, y1 = -1;
        comp[c0] = c0;
        stack[top++] = c0;
        while (top)
        {
            int32_t c = stack[--top], x = c % w, y = c / w;
            count++;
            x0 = x < x0 ? x : x0, y0 = y < y0 ? y : y0, x1 = x > x1 ? x : x1, y1 = y > y1 ? y : y1;
            int32_t nb[4] = {y > 0 ? c - w : -1, x < w - 1 ? c + 1 : -1, y < h - 1 ? c + w : -1,
                             x > 0 ? c - 1 : -1};
            for (int d = 0; d < 4; d++)
                if (nb[d] >= 0 && comp[nb[d]] == -1)
                    comp[nb[d]] = c0, stack[top++] = nb[d];
        }
        int32_t best = -1;
        long long best_area = 0;
        for (int32_t k = 0; k < r->room_count; k++)
        {
            dg_rect q = r->rooms[k].rect;
            long long area = (long long)q.w * q.h;
            if (r->rooms[k].kind == DG_ROOM_CAVE && x0 >= q.x && y0 >= q.y && x1 < q.x + q.w &&
                y1 < q.y + q.h && (best < 0 || area < best_area))
                best = k, best_area = area;
        }
        for (int32_t c = 0; c < n; c++)
        {
            if (comp[c] != c0)
                continue;
            owner[c] = best;
            for (int32_t k = 0; k < r->room_count && best < 0; k++)
            {
                /* no cave holds the whole component: the cell's smallest cave */
                dg_rect q = r->rooms[k].rect;
                int32_t x = c % w, y = c / w;
                if (r->rooms[k].kind == DG_ROOM_CAVE && x >= q.x && y >= q.y && x < q.x + q.w &&
                    y < q.y + q.h &&
                    (owner[c] < 0 || (long long)q.w * q.h < (long long)r->rooms[owner[c]].rect.w *
                                                                r->rooms[owner[c]].rect.h))
                    owner[c] = k;
            }
        }
        (void)count;
    }
    free(comp);
    free(stack);
}

static ref_room *reference(const rmap *m)
{
    const dg_grid *g = &m->g;
    int32_t w = g->width, n = w * g->height, rooms = m->r.room_count;
    ref_room *f = calloc((size_t)rooms + 1, sizeof *f);
    int32_t *owner = malloc((size_t)n * sizeof *owner);
    uint8_t *mark = malloc((size_t)n);
    for (int32_t c = 0; c < n; c++)
    {
        owner[c] = -1;
        int32_t x = c % w, y = c / w;
        for (int32_t k = 0; k < rooms && owner[c] < 0; k++)
        {
            dg_rect q = m->r.rooms[k].rect;
            if (m->r.rooms[k].kind != DG_ROOM_CAVE && x >= q.x && y >= q.y && x < q.x + q.w &&
                y < q.y + q.h && is_room_tile(g->cells[y * g->stride + x]))
                owner[c] = k;
        }
    }
    own_caves_ref(g, &m->r, owner);
    int32_t *ds = walk(g, m->r.start, 0, 0), *de = walk(g, m->r.exit, 0, 0);
    int32_t *dl = walk(g, m->r.start, 1, 0), *dsec = walk(g, m->r.start, 0, 1);
    int32_t *dboth = walk(g, m->r.start, 1, 1);
    int32_t ex = m->r.exit.x >= 0 && m->r.exit.x < w && m->r.exit.y >= 0 && m->r.exit.y < g->height
                     ? ds[m->r.exit.y * w + m->r.exit.x] : -1;
    for (int32_t k = 0; k < rooms; k++)
        f[k].dist = -1, f[k].lock = f[k].secret = f[k].shut = 1;
    for (int32_t c = 0; c < n; c++)
    {
        int32_t k = owner[c];
        if (k < 0)
            continue;
        f[k].area++;
        if (ds[c] >= 0 && (f[k].dist < 0 || ds[c] < f[k].dist))
            f[k].dist = ds[c];
        f[k].route |= ex >= 0 && ds[c] >= 0 && de[c] >= 0 && ds[c] + de[c] == ex;
        f[k].lock &= dl[c] < 0;
        f[k].secret &= dsec[c] < 0;
        f[k].shut &= dboth[c] < 0;
    }
    int32_t reach = 0;
    for (int32_t k = 0; k < rooms; k++)
    {
        f[k].reach = f[k].dist >= 0;
        reach += f[k].reach;
        f[k].entrances = ref_entrances(g, owner, k, mark);
    }
    for (int32_t k = 0; k < rooms; k++)
    {
        int32_t le = 0;
        for (int32_t j = 0; j < rooms; j++)
            le += j != k && f[j].reach && f[j].dist <= f[k].dist;
        f[k].rank = reach > 1 ? le * 1000 / (reach - 1) : 0;
    }
    dg_point se[2] = {m->r.start, m->r.exit};
    int32_t fallback[2] = {m->r.start_room, m->r.exit_room};
    for (int i = 0; i < 2; i++)
    {
        dg_point p = se[i];
        int32_t k = p.x >= 0 && p.y >= 0 && p.x < w && p.y < g->height ? owner[p.y * w + p.x] : -1;
        k = k >= 0 ? k : fallback[i];
        if (k >= 0 && k < rooms)
            *(i ? &f[k].exit : &f[k].start) = 1;
    }
    for (int32_t i = 0; i < m->r.marker_count; i++)
    {
        dg_point p = m->r.markers[i].pos;
        if (m->r.markers[i].kind == DG_MARKER_KEY && owner[p.y * w + p.x] >= 0)
            f[owner[p.y * w + p.x]].key = 1;
    }
    free(ds), free(de), free(dl), free(dsec), free(dboth), free(owner), free(mark);
    return f;
}

/* 1 if room facts f meet every constraint of rule r. */
static int ref_meets(const dg_role_rule *r, const ref_room *f)
{
    int holds[4] = {1, f->start, f->exit, f->key};
    int behind[4] = {1, !f->shut, f->lock, f->secret};
    int route[3] = {1, f->route, !f->route};
    int dead[3] = {1, f->entrances == 1, f->entrances != 1};
    return f->reach && holds[r->holds] && behind[r->behind] && route[r->route] &&
           dead[r->dead_end] && f->rank >= r->rank_min && f->rank <= r->rank_max &&
           f->area >= r->area_min && f->area <= r->area_max &&
           f->entrances >= r->entrances_min && f->entrances <= r->entrances_max;
}

static dg_prefab_set *load_set(int g)
{
    dg_prefab_set *set = NULL;
    if (gens[g].prefabs)
        dg_prefab_load(gens[g].prefabs, NULL, NULL, NULL, &set, NULL);
    return set;
}

static int32_t rule_of(const dg_role_rule *rules, int32_t count, const char *role)
{
    for (int32_t j = 0; j < count; j++)
        if (strcmp(rules[j].name, role) == 0)
            return j;
    return -1;
}

/* 1 if rooms can hold want[j] rooms of every rule j at once (one role a
 * room): Hall's condition, every set of rules has at least as many rooms
 * meeting one of them as it wants (a reference that searches no paths). */
static int assignable(const uint32_t *meets, int32_t rooms, int32_t count, const int32_t *want)
{
    uint32_t used = 0;
    for (int32_t j = 0; j < count; j++)
        used |= (uint32_t)(want[j] > 0) << j;
    for (uint32_t t = used; t; t = (t - 1) & used) /* every subset of the rules wanting rooms */
    {
        int64_t need = 0, have = 0;
        for (int32_t j = 0; j < count; j++)
            need += (t >> j & 1u) ? want[j] : 0;
        for (int32_t k = 0; k < rooms; k++)
            have += (meets[k] & t) != 0;
        if (have < need)
            return 0;
    }
    return 1;
}

/* The rooms each rule gets in priority order (docs/content.md): rules in
 * table order one room at a time up to count_min, then one room for each rule
 * without one, each only if the rooms can still hold every room given before. */
static void priority_fill(const dg_role_rule *rules, int32_t count, const ref_room *f,
                          int32_t rooms, int32_t *want)
{
    uint32_t *meets = calloc((size_t)rooms + 1, sizeof *meets);
    for (int32_t k = 0; k < rooms; k++)
        for (int32_t j = 0; j < count; j++)
            meets[k] |= (uint32_t)ref_meets(&rules[j], &f[k]) << j;
    for (int32_t j = 0; j < count; j++)
        want[j] = 0;
    for (int32_t j = 0; j < count; j++)
        while (want[j] < rules[j].count_min && want[j] < rooms)
        {
            want[j]++;
            if (!assignable(meets, rooms, count, want))
            {
                want[j]--;
                break;
            }
        }
    for (int32_t j = 0; j < count; j++)
        if (want[j] == 0 && rules[j].count_max > 0)
        {
            want[j] = 1;
            want[j] = assignable(meets, rooms, count, want);
        }
    free(meets);
}

TEST(roles_constraints_hold_on_every_generator)
{
    const char *env = getenv("DG_ROLES_SEEDS");
    int seeds = env ? atoi(env) : 40;
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    CHECK(dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK);
    for (int g = 0; g < GENS; g++)
    {
        dg_prefab_set *set = load_set(g);
        int maps = 0, violations = 0, unreported = 0;
        int asked[DG_ROLES_MAX] = {0}, placed[DG_ROLES_MAX] = {0}, qualify[DG_ROLES_MAX] = {0};
        for (int s = 1; s <= seeds; s++)
        {
            rmap m;
            if (!rmap_make(&m, g, set, (uint64_t)s, s % 2 == 0))
            {
                rmap_free(&m);
                continue;
            }
            maps++;
            dg_role_report rep;
            dg_diag d;
            dg_status st = dg_roles(&m.g, rules, count, (uint64_t)s, &m.r, &rep, NULL, &d);
            CHECKF(st == DG_OK, "%s seed %d: %s", gens[g].name, s, d.message);
            if (st != DG_OK)
            {
                rmap_free(&m);
                continue;
            }
            ref_room *f = reference(&m);
            int32_t got[DG_ROLES_MAX] = {0};
            for (int32_t k = 0; k < m.r.room_count; k++)
            {
                int32_t j = rule_of(rules, count, m.r.labels[k].role);
                if (m.r.labels[k].role[0] == '\0')
                    continue;
                got[j >= 0 ? j : 0]++;
                if (j < 0 || !ref_meets(&rules[j], &f[k]))
                {
                    violations++;
                    CHECKF(0, "%s seed %d: room %d is %s against its rule", gens[g].name, s,
                           (int)k, m.r.labels[k].role);
                }
            }
            int32_t want[DG_ROLES_MAX];
            priority_fill(rules, count, f, m.r.room_count, want);
            for (int32_t j = 0; j < count; j++)
            {
                int any = 0;
                for (int32_t k = 0; k < m.r.room_count && !any; k++)
                    any = ref_meets(&rules[j], &f[k]);
                qualify[j] += any;
                asked[j] += want[j] > 0;
                placed[j] += want[j] > 0 && got[j] > 0;
                /* placed exactly where an assignment in priority order has room */
                CHECKF((got[j] > 0) == (want[j] > 0) && got[j] >= want[j],
                       "%s seed %d: %s placed %d, an assignment in priority order gives %d",
                       gens[g].name, s, rules[j].name, (int)got[j], (int)want[j]);
                CHECKF(got[j] == rep.placed[j] && got[j] <= rules[j].count_max,
                       "%s seed %d: %s placed %d, report %d", gens[g].name, s, rules[j].name,
                       (int)got[j], (int)rep.placed[j]);
                /* a rule short of its minimum (or of any room) is reported by name */
                int short_ = got[j] < rules[j].count_min || got[j] == 0;
                unreported += short_ != (rep.shortfall[j] != DG_ROLE_SHORT_NONE) ||
                              (short_ && !strstr(d.message, rules[j].name));
            }
            free(f);
            rmap_free(&m);
        }
        CHECKF(maps >= seeds * 9 / 10, "%s: %d of %d maps", gens[g].name, maps, seeds);
        CHECKF(unreported == 0, "%s: %d shortfalls misreported", gens[g].name, unreported);
        if (env)
        {
            printf("%-15s maps %4d violations %d |", gens[g].name, maps, violations);
            for (int32_t j = 0; j < count; j++)
                printf(" %s %d/%d/%d", rules[j].name, placed[j], asked[j], qualify[j]);
            printf("\n");
        }
        /* dg_lock_place hides a dead-end room on nearly every locked attach map */
        int32_t hidden = rule_of(rules, count, "secret");
        if (strcmp(gens[g].name, "attach") == 0)
            CHECKF(qualify[hidden] * 10 >= maps / 2 * 9, "attach: a room behind a secret door on %d of %d locked maps",
                   qualify[hidden], maps / 2);
        /* every rule placed in 95% of the maps where a room is free for it after
         * the rules before it (exactly all of them, checked map by map above) */
        for (int32_t j = 0; j < count; j++)
            CHECKF(placed[j] * 100 >= asked[j] * 95, "%s: %s placed in %d of %d maps that have a room for it",
                   gens[g].name, rules[j].name, placed[j], asked[j]);
        dg_prefab_set_free(set);
    }
}

/* FNV-1a of every room's role, in room order. */
static uint64_t labels_hash(const dg_result *r)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int32_t k = 0; k < r->label_count; k++)
        for (const char *p = r->labels[k].role;; p++)
        {
            h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
            if (!*p)
                break;
        }
    return h;
}

static uint64_t roles_hash(int g, const dg_prefab_set *set, uint64_t seed, int locks)
{
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    rmap m;
    uint64_t h = 0;
    if (dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK &&
        rmap_make(&m, g, set, seed, locks) &&
        dg_roles(&m.g, rules, count, seed, &m.r, NULL, NULL, NULL) == DG_OK)
        h = labels_hash(&m.r);
    rmap_free(&m);
    return h;
}

TEST(roles_deterministic)
{
    for (int g = 0; g < GENS; g++)
    {
        dg_prefab_set *set = load_set(g);
        for (uint64_t s = 1; s <= 3; s++)
        {
            uint64_t a = roles_hash(g, set, s, 1), b = roles_hash(g, set, s, 1);
            CHECKF(a != 0 && a == b, "%s seed %d: roles differ between two runs", gens[g].name,
                   (int)s);
        }
        dg_prefab_set_free(set);
    }
    /* another seed moves some role on some map */
    int moved = 0;
    for (uint64_t s = 1; s <= 8; s++)
    {
        rmap m;
        dg_role_rule rules[DG_ROLES_MAX];
        int32_t count = 0;
        dg_roles_builtin(rules, DG_ROLES_MAX, &count);
        CHECK(rmap_make(&m, 0, NULL, 7, 0));
        dg_result copy;
        dg_result_init(&copy, NULL);
        dg_roles(&m.g, rules, count, s, &m.r, NULL, NULL, NULL);
        uint64_t a = labels_hash(&m.r);
        for (int32_t k = 0; k < m.r.label_count; k++)
            m.r.labels[k].role[0] = '\0';
        dg_roles(&m.g, rules, count, s + 100, &m.r, NULL, NULL, NULL);
        moved += a != labels_hash(&m.r);
        dg_result_free(&copy);
        rmap_free(&m);
    }
    CHECK(moved > 0);
}

/* The labels of a few maps, pinned (they move only when dg_roles changes on purpose). */
TEST(roles_golden)
{
    static const struct {
        int gen;
        uint64_t seed;
        int locks;
        uint64_t hash;
    } pins[] = {
        {0, 1, 0, 0x9C022A0FB2CEEADAULL},
        {0, 2, 1, 0x6B4A6DE16EEC19A0ULL},
        {3, 1, 1, 0xF0171B2670F848B0ULL},
        {7, 1, 0, 0x05B493D86DC3880EULL},
        {2, 1, 1, 0xCE7A8A79C900095AULL},
        {11, 1, 1, 0xF95FA64337D964FEULL},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
    {
        dg_prefab_set *set = load_set(pins[i].gen);
        uint64_t h = roles_hash(pins[i].gen, set, pins[i].seed, pins[i].locks);
        if (getenv("DG_PRINT_PINS"))
            printf("        {%d, %d, %d, 0x%016llXULL},\n", pins[i].gen, (int)pins[i].seed,
                   pins[i].locks, (unsigned long long)h);
        CHECKF(h == pins[i].hash, "%s seed %d: labels hash 0x%016llx", gens[pins[i].gen].name,
               (int)pins[i].seed, (unsigned long long)h);
        dg_prefab_set_free(set);
    }
}

TEST(roles_default_file_is_the_builtin_table)
{
    dg_role_rule a[DG_ROLES_MAX], b[DG_ROLES_MAX];
    int32_t na = 0, nb = 0;
    dg_diag d;
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    CHECK(dg_roles_builtin(a, DG_ROLES_MAX, &na) == DG_OK);
    CHECKF(dg_roles_load("examples/roles/default.txt", b, DG_ROLES_MAX, &nb, &d) == DG_OK, "%s",
           d.message);
    CHECK(na == nb && na == 8);
    for (int32_t i = 0; i < na && i < nb; i++)
        CHECKF(memcmp(&a[i], &b[i], sizeof a[i]) == 0, "rule %d (%s) differs", (int)i, a[i].name);
    CHECK(dg_roles_check(a, na, &d) == DG_OK);
    /* too small a buffer: the length, nothing written */
    int32_t n = 0;
    memset(b, 0x5A, sizeof b);
    CHECK(dg_roles_builtin(b, 3, &n) == DG_E_BUFFER && n == 8 && (uint8_t)b[0].name[0] == 0x5A);
}

/* Each malformed table gets its status and "source:line:col: " prefix. */
TEST(roles_parse_errors)
{
    static const struct {
        const char *text;
        dg_status st;
        const char *where;
    } cases[] = {
        {"boss rank=900..1000\nboss count=2\n", DG_E_INVALID, "t:2:1: "},
        {"boss colour=red\n", DG_E_INVALID, "t:1:6: "},
        {"boss route=sideways\n", DG_E_INVALID, "t:1:12: "},
        {"boss rank=900..1200\n", DG_E_INVALID, "t:1:11: "},
        {"boss count=3..1\n", DG_E_INVALID, "t:1:12: "},
        {"boss area=x\n", DG_E_PARSE, "t:1:11: "},
        {"boss rank\n", DG_E_PARSE, "t:1:6: "},
        {"# c\n\nboss count=1 count=2\n", DG_E_PARSE, "t:3:14: "},
        {"count=1\n", DG_E_PARSE, "t:1:1: "},
        {"bo$s\n", DG_E_INVALID, "t:1:1: "},
        {"boss weight=-1\n", DG_E_INVALID, "t:1:13: "},
        {"boss count=99999999999\n", DG_E_INVALID, "t:1:12: "},
        {"boss holds=treasure\n", DG_E_INVALID, "t:1:12: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        dg_role_rule rules[4];
        int32_t n = 77;
        dg_diag d;
        memset(rules, 0x5A, sizeof rules);
        dg_status st = dg_roles_parse(cases[i].text, strlen(cases[i].text), "t", rules, 4, &n, &d);
        CHECKF(st == cases[i].st && strncmp(d.message, cases[i].where, strlen(cases[i].where)) == 0,
               "case %d: %d \"%s\"", (int)i, (int)st, d.message);
        CHECKF(n == 77 && (uint8_t)rules[0].name[0] == 0x5A, "case %d: output written", (int)i);
    }
    /* ranges with open ends, comments, CRLF and a table that fills the buffer */
    const char *ok = "hall area=20.. entrances=..2 # big\r\nnook rank=..300 require=yes\r\n";
    dg_role_rule rules[2];
    int32_t n = 0;
    CHECK(dg_roles_parse(ok, strlen(ok), "t", rules, 2, &n, NULL) == DG_OK && n == 2);
    CHECK(rules[0].area_min == 20 && rules[0].area_max == INT32_MAX && rules[0].entrances_min == 0 &&
          rules[0].entrances_max == 2);
    CHECK(rules[1].rank_min == 0 && rules[1].rank_max == 300 && rules[1].require == 1);
    CHECK(dg_roles_parse(ok, strlen(ok), "t", rules, 1, &n, NULL) == DG_E_BUFFER);
}

/* A hand-made map: start room, a room behind a secret door, one behind a
 * locked door (its key in a third room), a hub and dead ends. */
static const char *const hand_map[] = {
    "###################",
    "#.....#.....#.....#",
    "#.....#.....#.....#",
    "#.....L.....S.....#",
    "#.....#.....#.....#",
    "###+#+#############",
    "#...#...#...#######",
    "#...#...+...#######",
    "###################",
};

static void hand_make(rmap *m)
/* (the result's room array is the test's own, so it is never dg_result_free'd) */
{
    int32_t w = 19, h = 9;
    m->cells = calloc((size_t)w * h, 1);
    dg_grid_init(&m->g, m->cells, w, h, 0);
    dg_result_init(&m->r, NULL);
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
        {
            char c = hand_map[y][x];
            m->cells[y * w + x] = c == '#' ? DG_TILE_WALL : c == '+' ? DG_TILE_DOOR
                                  : c == 'L' ? DG_TILE_DOOR_LOCKED : c == 'S' ? DG_TILE_DOOR_SECRET
                                  : DG_TILE_FLOOR;
        }
}

/* The hand map's rooms go in through the result's arrays. */
static dg_room hand_rooms[] = {
    {{1, 1, 5, 4}, 0, -1, 0, -1, 20, 0}, {{7, 1, 5, 4}, 0, -1, 0, -1, 20, 0},
    {{13, 1, 5, 4}, 0, -1, 0, -1, 20, 0}, {{1, 6, 3, 2}, 0, -1, 0, -1, 6, 0},
    {{5, 6, 3, 2}, 0, -1, 0, -1, 6, 0},  {{9, 6, 3, 2}, 0, -1, 0, -1, 6, 0},
};

TEST(roles_behind_locks_and_secrets)
{
    rmap m;
    hand_make(&m);
    dg_result r = m.r;
    r.rooms = hand_rooms;
    r.room_count = 6;
    r.start = (dg_point){2, 6};
    r.exit = (dg_point){15, 2};
    dg_marker key = {{10, 7}, DG_MARKER_KEY, 5, "key 1", 1, 0, 0, ""};
    r.markers = &key;
    r.marker_count = 1;
    dg_role_rule rules[4];
    dg_role_rule_init(&rules[0], "vault");
    rules[0].behind = DG_BEHIND_LOCK;
    dg_role_rule_init(&rules[1], "hidden");
    rules[1].behind = DG_BEHIND_SECRET;
    dg_role_rule_init(&rules[2], "keyroom");
    rules[2].holds = DG_HOLDS_KEY;
    dg_role_rule_init(&rules[3], "none");
    rules[3].dead_end = DG_ROLE_YES, rules[3].behind = DG_BEHIND_OPEN, rules[3].rank_min = 900;
    dg_role_report rep;
    dg_diag d;
    CHECK(dg_roles(&m.g, rules, 4, 1, &r, &rep, NULL, &d) == DG_OK);
    CHECK(r.label_count == 6);
    if (r.label_count == 6)
    {
        CHECK(strcmp(r.labels[1].role, "vault") == 0);
        CHECK(strcmp(r.labels[2].role, "hidden") == 0);
        CHECK(strcmp(r.labels[5].role, "keyroom") == 0);
    }
    /* only room 2 (behind the lock and the secret) is ranked 900.. */
    CHECK(rep.placed[3] == 0 && rep.shortfall[3] == DG_ROLE_SHORT_BEHIND);
    CHECKF(d.status == DG_OK && strstr(d.message, "none 0 (behind)") != NULL, "%s", d.message);
    /* required: NOSPACE, the result untouched */
    rules[3].require = 1;
    for (int32_t k = 0; k < 6; k++)
        r.labels[k].role[0] = '\0';
    CHECK(dg_roles(&m.g, rules, 4, 1, &r, &rep, NULL, &d) == DG_E_NOSPACE);
    CHECK(strstr(d.message, "none") != NULL && r.labels[0].role[0] == '\0');
    /* roles set before are kept and count */
    rules[3].require = 0;
    snprintf(r.labels[1].role, DG_NAME_MAX, "vault");
    CHECK(dg_roles(&m.g, rules, 4, 1, &r, &rep, NULL, &d) == DG_OK);
    CHECK(strcmp(r.labels[1].role, "vault") == 0 && r.labels[0].role[0] == '\0');
    CHECK(rep.kept[0] == 1 && rep.placed[0] == 1);
    free(r.labels); /* the rooms are the test's: only the labels are the library's (malloc) */
    free(m.cells);
}

/* Every allocation that fails gives DG_E_NOMEM with the result as it was and
 * nothing leaked; a report is written only on success. */
TEST(roles_out_of_memory)
{
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    dg_roles_builtin(rules, DG_ROLES_MAX, &count);
    rmap m;
    CHECK(rmap_make(&m, 0, NULL, 5, 1));
    int ok = 0;
    for (int64_t k = 1; k <= 8 && !ok; k++)
    {
        hard_alloc h;
        hard_alloc_init(&h, k);
        dg_role_report rep;
        memset(&rep, 0x5A, sizeof rep);
        m.r.label_count = 0;
        dg_status st = dg_roles(&m.g, rules, count, 1, &m.r, &rep, &h.hooks, NULL);
        CHECKF(hard_alloc_clean(&h) && h.live == 0, "allocation %d: leaked", (int)k);
        if (st == DG_OK)
            ok = 1;
        else
            CHECKF(st == DG_E_NOMEM && m.r.label_count == 0 && ((uint8_t *)&rep)[0] == 0x5A,
                   "allocation %d: status %d, labels %d", (int)k, (int)st, (int)m.r.label_count);
    }
    CHECK(ok);
    rmap_free(&m);
}

/* dg_role_short_str: the word of each DG_ROLE_SHORT_*, distinct, never NULL. */
TEST(roles_short_str_names_every_reason)
{
    static const char *const want[] = {"none", "unreachable", "holds", "rank", "route",
                                       "dead_end", "behind", "area", "entrances", "taken", "few"};
    CHECK((int32_t)(sizeof want / sizeof want[0]) == DG_ROLE_SHORT_FEW + 1);
    for (int32_t i = DG_ROLE_SHORT_NONE; i <= DG_ROLE_SHORT_FEW; i++)
    {
        const char *w = dg_role_short_str(i);
        CHECKF(w && strcmp(w, want[i]) == 0, "%d: %s", (int)i, w ? w : "NULL");
        for (int32_t j = DG_ROLE_SHORT_NONE; w && j < i; j++)
            CHECK(strcmp(w, dg_role_short_str(j)) != 0);
    }
    const int32_t unknown[] = {-1, DG_ROLE_SHORT_FEW + 1, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    {
        const char *w = dg_role_short_str(unknown[i]);
        CHECK(w && strcmp(w, "unknown") == 0);
    }
}

/* The start's walk roles and population read (dgi_walk_default, eight
 * tiles at a time) gives dgi_walk_from's distances and count: random grids
 * of every tile value, 1..13 cells a side, the outer ring shut or not. */
TEST(roles_default_walk_matches_the_reference)
{
    uint8_t cells[13 * 13];
    int32_t a[13 * 13 * 4];
    uint64_t state = 0x726F6C6573ULL;
    for (int round = 0; round < 3000 && !test_failures(); round++)
    {
        int32_t w = 1 + (int32_t)(round % 13), h = 1 + (int32_t)(round / 13 % 13);
        dg_grid g;
        CHECK(dg_grid_init(&g, cells, w, h, 0) == DG_OK);
        for (int32_t i = 0; i < w * h; i++)
        {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t r = (uint32_t)(state >> 33);
            cells[i] = (uint8_t)(r % 4 == 0 ? r >> 8 : r % 4 == 1 ? DG_TILE_WALL : DG_TILE_FLOOR);
        }
        if (round % 2)
            for (int32_t i = 0; i < w * h; i++)
                if (i < w || i >= w * (h - 1) || i % w == 0 || i % w == w - 1)
                    cells[i] = DG_TILE_WALL;
        int32_t start = -1;
        for (int32_t i = 0; i < w * h && start < 0; i++)
            if (dg_tile_passable(cells[(i * 7 + round) % (w * h)]))
                start = (i * 7 + round) % (w * h);
        if (start < 0)
            continue;
        dg_point p = {start % w, start / w};
        dgi_move mv;
        dgi_move_basic(&mv, &g, NULL);
        int32_t n = w * h, ca = dgi_walk_from(&mv, p, a, a + n);
        int32_t cb = dgi_walk_default(&g, p, a + 2 * n, a + 3 * n);
        CHECKF(ca == cb && memcmp(a, a + 2 * n, (size_t)n * sizeof *a) == 0, "round %d, %dx%d",
               round, (int)w, (int)h);
    }
}

/* 1 if the rooms' facts measured the short way (rooms apart read off their
 * rects, a rect room's entrances counted round its ring) equal those
 * measured cell by cell with an owner map (DGI_FACTS_BY_CELLS). */
static int facts_agree(const dg_grid *g, const dg_result *r)
{
    const int32_t asked = DGI_RF_ROUTE | DGI_RF_LOCK | DGI_RF_SECRET | DGI_RF_SHUT;
    size_t bytes = (size_t)(r->room_count + 1) * sizeof(dgi_room_facts);
    dgi_room_facts *a = calloc(1, bytes), *b = calloc(1, bytes);
    int32_t ra = -1, rb = -2;
    int same = a && b && dgi_room_facts_fill(g, r, NULL, a, asked, &ra, NULL) == DG_OK &&
               dgi_room_facts_fill(g, r, NULL, b, asked | DGI_FACTS_BY_CELLS, &rb, NULL) == DG_OK &&
               ra == rb && memcmp(a, b, bytes) == 0;
    free(a);
    free(b);
    return same;
}

/* The two ways agree on every generator's maps, locked or not. */
TEST(roles_facts_fast_paths_match_cell_by_cell)
{
    for (int g = 0; g < GENS; g++)
    {
        dg_prefab_set *set = load_set(g);
        for (int s = 1; s <= 12; s++)
        {
            rmap m;
            if (rmap_make(&m, g, set, (uint64_t)s, s % 2 == 0))
                CHECKF(facts_agree(&m.g, &m.r), "%s seed %d", gens[g].name, s);
            rmap_free(&m);
        }
        dg_prefab_set_free(set);
    }
}

/* And on random grids with random rects: rooms on the grid's border, off
 * it in part, one cell wide, with walls and doors inside, meeting on walls
 * or on floor, a cave now and then. */
TEST(roles_facts_fast_paths_match_on_random_rooms)
{
    static const uint8_t tiles[] = {DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR,
                                    DG_TILE_WALL,  DG_TILE_DOOR,  DG_TILE_CORRIDOR,
                                    DG_TILE_DOOR_SECRET, DG_TILE_DOOR_LOCKED, DG_TILE_WATER};
    uint8_t cells[16 * 16];
    dg_room rooms[8];
    uint64_t state = 0x66616374ULL;
    for (int round = 0; round < 4000 && !test_failures(); round++)
    {
#define NEXT() (state = state * 6364136223846793005ULL + 1442695040888963407ULL, (uint32_t)(state >> 33))
        int32_t w = 1 + (int32_t)(NEXT() % 16), h = 1 + (int32_t)(NEXT() % 16);
        dg_grid g;
        CHECK(dg_grid_init(&g, cells, w, h, 0) == DG_OK);
        uint32_t sparse = NEXT() % 4; /* 0: mostly walls between the rooms */
        for (int32_t i = 0; i < w * h; i++)
            cells[i] = sparse ? tiles[NEXT() % sizeof tiles] : DG_TILE_WALL;
        dg_result r;
        memset(&r, 0, sizeof r);
        r.rooms = rooms;
        r.room_count = (int32_t)(NEXT() % 9);
        for (int32_t k = 0; k < r.room_count; k++)
        {
            dg_room *q = &rooms[k];
            memset(q, 0, sizeof *q);
            q->rect.x = (int32_t)(NEXT() % (uint32_t)(w + 2)) - 1;
            q->rect.y = (int32_t)(NEXT() % (uint32_t)(h + 2)) - 1;
            q->rect.w = 1 + (int32_t)(NEXT() % 6), q->rect.h = 1 + (int32_t)(NEXT() % 6);
            q->kind = NEXT() % 4 == 0 ? DG_ROOM_CAVE : DG_ROOM_NORMAL;
            for (int32_t y = DG_MAX(q->rect.y, 0); y < DG_MIN(q->rect.y + q->rect.h, h); y++)
                for (int32_t x = DG_MAX(q->rect.x, 0); x < DG_MIN(q->rect.x + q->rect.w, w); x++)
                    if (NEXT() % 8 != 0 || !sparse)
                        cells[y * w + x] = DG_TILE_FLOOR;
        }
        int32_t start = -1;
        for (int32_t i = 0, o = (int32_t)(NEXT() % (uint32_t)(w * h)); i < w * h && start < 0; i++)
            if (dg_tile_passable(cells[(i + o) % (w * h)]))
                start = (i + o) % (w * h);
        if (start < 0)
            continue;
        r.start = (dg_point){start % w, start / w};
        r.exit.x = (int32_t)(NEXT() % (uint32_t)w);
        r.exit.y = (int32_t)(NEXT() % (uint32_t)h);
        r.start_room = r.exit_room = -1;
        CHECKF(facts_agree(&g, &r), "round %d, %dx%d, %d rooms", round, (int)w, (int)h,
               (int)r.room_count);
#undef NEXT
    }
}
