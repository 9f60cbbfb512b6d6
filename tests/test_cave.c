/* Cave generator: properties over many seeds and parameter sets, what each
 * option does, golden hashes, bad input, smallest grids and allocation
 * failures. */
#include "core/core.h" /* dgi_popcount64: the chambers' line counts */
#include "hard.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const int32_t DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

typedef struct cave_case {
    const char *name;
    int32_t width, height;
    int seeds;
    dg_cave_params p;
} cave_case;

/* The parameter sets the properties run over. */
static int cave_cases(cave_case *cases)
{
    int n = 0;
    cave_case *c;
#define CASE(label, w, h, s) \
    c = &cases[n++], c->name = label, c->width = w, c->height = h, c->seeds = s, dg_cave_defaults(&c->p)
    CASE("defaults 80x25", 80, 25, 300);
    CASE("defaults 80x50", 80, 50, 150);
    CASE("defaults 200x120", 200, 120, 20);
    CASE("smallest 5x5", 5, 5, 300);
    CASE("odd 7x5", 7, 5, 200);
    CASE("odd 6x11", 6, 11, 200);
    CASE("odd 13x7", 13, 7, 200);
    CASE("odd 31x17", 31, 17, 200);
    CASE("no border, wide tunnels, many caves", 60, 40, 150);
    c->p.border = 0, c->p.tunnel_width = 3, c->p.min_region = 2;
    CASE("every region kept, thin tunnels", 70, 45, 150);
    c->p.min_region = 1, c->p.tunnel_width = 1, c->p.smoothing = 0;
    CASE("largest only", 80, 50, 100);
    c->p.connect = DG_CAVE_CONNECT_LARGEST;
    CASE("fill search", 90, 40, 100);
    c->p.target_open_permille = 350;
    CASE("raw noise", 50, 30, 100);
    c->p.iterations = 0, c->p.smoothing = 0, c->p.fill_permille = 500, c->p.min_region = 1;
    CASE("solid rock", 40, 20, 20);
    c->p.fill_permille = 1000;
#undef CASE
    return n;
}

static int is_open(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

/* Floor, wall exactly where rock touches floor (8-way), void elsewhere; the
 * outer ring closed with the border. */
static void check_tiles(const cave_case *k, const dg_grid *g)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            CHECK(t == DG_TILE_FLOOR || t == DG_TILE_WALL || t == DG_TILE_VOID);
            int ring = x == 0 || y == 0 || x == g->width - 1 || y == g->height - 1;
            if (k->p.border && ring)
                CHECK(t != DG_TILE_FLOOR);
            if (t == DG_TILE_FLOOR)
                continue;
            int near = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    near |= is_open(g, x + dx, y + dy);
            CHECKF(near == (t == DG_TILE_WALL), "%s: tile %d at %d,%d", k->name, t, (int)x, (int)y);
        }
}

static int rect_holds(dg_rect r, dg_point p)
{
    return p.x >= r.x && p.y >= r.y && p.x < r.x + r.w && p.y < r.y + r.h;
}

/* Chambers (docs/cave.md, Result): rects that never overlap, each tight
 * around its cells, which are exactly the floor cells of its rect; together
 * they hold every floor cell. */
static void check_rooms(const cave_case *k, const dg_grid *g, const dg_result *r)
{
    const dg_cave_params *p = &k->p;
    CHECK(r->room_count >= 1 && r->metrics.placed >= 1);
    CHECK(r->metrics.requested >= 0 && r->door_count == 0 && r->metrics.attempts == 0);
    if (p->connect == DG_CAVE_CONNECT_LARGEST)
        CHECK(r->metrics.placed == 1);
    CHECK(r->corridor_count == r->metrics.placed - 1); /* a spanning tree of tunnels */
    int64_t total = 0;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_room *q = &r->rooms[i];
        CHECK(q->kind == DG_ROOM_CAVE && q->parent == -1 && q->prefab == -1);
        CHECK(q->rect.x >= 0 && q->rect.y >= 0 && q->rect.x + q->rect.w <= g->width &&
              q->rect.y + q->rect.h <= g->height);
        int32_t floor = 0;
        for (int32_t y = q->rect.y; y < q->rect.y + q->rect.h; y++)
            for (int32_t x = q->rect.x; x < q->rect.x + q->rect.w; x++)
                floor += is_open(g, x, y);
        CHECKF(floor == q->cells, "%s: room %d has %d cells, its rect %d floor", k->name, (int)i,
               (int)q->cells, (int)floor);
        total += q->cells;
        /* the rect is tight: every side holds floor */
        int top = 0, bottom = 0, left = 0, right = 0;
        for (int32_t x = q->rect.x; x < q->rect.x + q->rect.w; x++)
            top |= is_open(g, x, q->rect.y), bottom |= is_open(g, x, q->rect.y + q->rect.h - 1);
        for (int32_t y = q->rect.y; y < q->rect.y + q->rect.h; y++)
            left |= is_open(g, q->rect.x, y), right |= is_open(g, q->rect.x + q->rect.w - 1, y);
        CHECK(top && bottom && left && right);
        for (int32_t j = 0; j < i; j++)
        {
            dg_rect a = r->rooms[j].rect, b = q->rect;
            CHECKF(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y,
                   "%s: rooms %d and %d overlap", k->name, (int)j, (int)i);
            CHECK(a.y < b.y || (a.y == b.y && a.x < b.x)); /* in row order of their corners */
        }
    }
    CHECK(total == r->metrics.floor_cells);
    CHECK(r->start_room >= 0 && r->start_room < r->room_count &&
          rect_holds(r->rooms[r->start_room].rect, r->start));
    CHECK(r->exit_room >= 0 && r->exit_room < r->room_count &&
          rect_holds(r->rooms[r->exit_room].rect, r->exit));
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *t = &r->corridors[i];
        CHECK(t->from.kind == DG_REF_ROOM && t->to.kind == DG_REF_ROOM);
        CHECK(t->from.index >= 0 && t->to.index >= 0 && t->from.index < r->room_count &&
              t->to.index < r->room_count);
        CHECK(t->bend.x == t->end.x && t->bend.y == t->end.y);
        CHECK(t->length == abs(t->end.x - t->start.x) + abs(t->end.y - t->start.y) + 1);
        CHECK(is_open(g, t->start.x, t->start.y) && is_open(g, t->end.x, t->end.y));
        CHECK(rect_holds(r->rooms[t->from.index].rect, t->start));
        CHECK(rect_holds(r->rooms[t->to.index].rect, t->end));
    }
}

/* The quality contract (docs/cave.md) and the exit: a farthest cell of the
 * caves by walking (no room cell is farther, counting only cells no tunnel
 * crosses: those inside a single rect and away from every tunnel line). */
static void check_contract(const cave_case *k, const dg_grid *g, const dg_result *r)
{
    dg_quality q;
    CHECK(dg_survey_map(g, r, &q, NULL, NULL) == DG_OK);
    CHECK(q.unreachable == 0 && q.start_in_room && q.exit_in_room && !q.start_is_exit);
    CHECK(q.doorless_joins == 0 && q.dead_doors == 0 && q.doors == 0);
    CHECKF(q.exit_rank_permille <= 100, "%s: exit rank %d", k->name, (int)q.exit_rank_permille);
    if (k->p.border)
        CHECK(q.border_open == 0);
    int32_t *dist = grid_walk_from(g, r->start, NULL);
    CHECK(dist[r->exit.y * g->width + r->exit.x] == q.route);
    free(dist);
}

static void check_map(const cave_case *k, const guarded_grid *gg, const dg_result *r,
                      int check_measure)
{
    const dg_grid *g = &gg->grid;
    CHECK(guard_intact(gg));
    const char *why = hard_validate(g, r);
    CHECKF(why == NULL, "%s: %s", k->name, why ? why : "");
    CHECK(grid_connected(g) && r->metrics.regions == 1);
    check_tiles(k, g);
    check_rooms(k, g, r);
    check_contract(k, g, r);
    if (check_measure)
    {
        dg_metrics m;
        CHECK(dg_measure(g, NULL, &m, NULL, NULL) == DG_OK);
        CHECKF(m.loops == r->metrics.loops && m.dead_ends == r->metrics.dead_ends &&
                   m.floor_cells == r->metrics.floor_cells && m.regions == 1,
               "%s: loops %d/%d dead ends %d/%d", k->name, (int)m.loops, (int)r->metrics.loops,
               (int)m.dead_ends, (int)r->metrics.dead_ends);
    }
}

TEST(cave_properties_over_many_seeds)
{
    cave_case cases[20];
    memset(cases, 0, sizeof cases);
    int n = cave_cases(cases), maps = 0;
    dg_result r;
    dg_result_init(&r, NULL);
    for (int k = 0; k < n && !test_failures(); k++)
    {
        guarded_grid gg;
        CHECK(guard_make(&gg, cases[k].width, cases[k].height, 3));
        int64_t caves = 0;
        for (int s = 0; s < cases[k].seeds && !test_failures(); s++, maps++)
        {
            dg_status st = dg_cave_generate(&gg.grid, &cases[k].p, (uint64_t)s * 7919u + 1, &r,
                                            NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: %s", cases[k].name, s, dg_status_str(st));
            check_map(&cases[k], &gg, &r, s % 4 == 0);
            caves += r.room_count;
        }
        if (cases[k].p.min_region <= 2 && cases[k].width >= 50)
            CHECKF(caves > 2 * cases[k].seeds, "%s: only %lld caves", cases[k].name,
                   (long long)caves);
        guard_free(&gg);
    }
    CHECK(maps >= 2000);
    dg_result_free(&r);
}

static uint64_t cave_hash(const dg_cave_params *p, int32_t w, int32_t h, uint64_t seed,
                          int32_t pad, uint64_t *result_hash)
{
    return gen_hash("cave", p, w, h, seed, pad, result_hash, 1);
}

TEST(cave_golden_hashes)
{
    static const uint64_t want[] = {
        0xd23ea583a0ff7035ULL, /* defaults 80x25 */
        0x8657d1550fcd8f8aULL, /* defaults 80x50 */
        0x105a87a58759931bULL, /* defaults 200x120 */
        0xf2bc51fcd90214c4ULL, /* smallest 5x5 */
        0x8508c94c2fb7835cULL, /* odd 7x5 */
        0xdad80ba195586ab8ULL, /* odd 6x11 */
        0xb6b0e6e6c9ef686aULL, /* odd 13x7 */
        0x3d762a7f63efe7ccULL, /* odd 31x17 */
        0xf176eb0b5ed775b9ULL, /* no border, wide tunnels, many caves */
        0xac693316ecb888a3ULL, /* every region kept, thin tunnels */
        0x11117b83037809e4ULL, /* largest only */
        0x2d043d0e8045b1d6ULL, /* fill search */
        0xb0b4650aafdbaa56ULL, /* raw noise */
        0xadb1929d67677e34ULL, /* solid rock */
    };
    cave_case cases[20];
    memset(cases, 0, sizeof cases);
    int n = cave_cases(cases);
    CHECK(n <= (int)(sizeof want / sizeof want[0]));
    for (int k = 0; k < n && k < (int)(sizeof want / sizeof want[0]); k++)
    {
        uint64_t got = cave_hash(&cases[k].p, cases[k].width, cases[k].height, 42, 0, NULL);
        if (getenv("DG_CAVE_PRINT_PINS"))
            printf("        0x%016llxULL, /* %s */\n", (unsigned long long)got, cases[k].name);
        CHECK_EQ_U64(got, want[k]);
    }
}

TEST(cave_is_deterministic_and_stride_blind)
{
    cave_case cases[20];
    memset(cases, 0, sizeof cases);
    int n = cave_cases(cases);
    for (int k = 0; k < n; k++)
    {
        const cave_case *c = &cases[k];
        const char *why = gen_deterministic("cave", &c->p, c->width, c->height,
                                            c->p.fill_permille < 1000 && c->width > 7);
        CHECKF(!why, "%s: %s", c->name, why);
    }
}

/* ---- what each option does ---------------------------------------------------------- */

typedef struct cave_run {
    dg_grid g;
    uint8_t *cells;
    dg_result r;
} cave_run;

static void run_open(cave_run *run, const dg_cave_params *p, int32_t w, int32_t h, uint64_t seed)
{
    run->cells = malloc((size_t)w * (size_t)h);
    dg_grid_init(&run->g, run->cells, w, h, 0);
    dg_result_init(&run->r, NULL);
    CHECK(dg_cave_generate(&run->g, p, seed, &run->r, NULL, NULL) == DG_OK);
}

static void run_close(cave_run *run)
{
    dg_result_free(&run->r);
    free(run->cells);
}

/* The open cells of rect b in 4-connected parts (inside the rect): the
 * cells outside the largest part. */
static int32_t cells_off_main_part(const dg_grid *g, dg_rect b)
{
    int32_t n = b.w * b.h, largest = 0, total = 0;
    int32_t *seen = calloc((size_t)n, sizeof *seen), *queue = malloc((size_t)n * sizeof *queue);
    for (int32_t i = 0; i < n; i++)
    {
        if (seen[i] || !is_open(g, b.x + i % b.w, b.y + i / b.w))
            continue;
        int32_t head = 0, tail = 0;
        seen[i] = 1, queue[tail++] = i;
        while (head < tail)
        {
            int32_t c = queue[head++], x = c % b.w, y = c / b.w;
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + DX[d], ny = y + DY[d], e = ny * b.w + nx;
                if (nx >= 0 && ny >= 0 && nx < b.w && ny < b.h && !seen[e] &&
                    is_open(g, b.x + nx, b.y + ny))
                    seen[e] = 1, queue[tail++] = e;
            }
        }
        total += tail;
        largest = tail > largest ? tail : largest;
    }
    free(seen);
    free(queue);
    return total - largest;
}

/* Chambers at the defaults: 30 to 300 cells, nearly every one a single
 * piece inside its rect, and rooms enough for the built-in roles (before
 * chambers one cave held start, exit and keys, and most roles were short). */
TEST(cave_chambers)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    dg_role_rule rules[DG_ROLES_MAX];
    int32_t count = 0;
    CHECK(dg_roles_builtin(rules, DG_ROLES_MAX, &count) == DG_OK);
    int64_t cells = 0, off = 0;
    int32_t rooms = 0, boss = 0, treasure = 0, maps = 0;
    for (uint64_t seed = 1; seed <= 40; seed++, maps++)
    {
        cave_run run;
        run_open(&run, &p, 80, 50, seed);
        CHECK(run.r.room_count >= 4);
        for (int32_t i = 0; i < run.r.room_count; i++)
        {
            const dg_room *q = &run.r.rooms[i];
            CHECKF(q->cells >= 30 && q->cells <= 300, "seed %d: a chamber of %d cells", (int)seed,
                   (int)q->cells);
            cells += q->cells;
            off += cells_off_main_part(&run.g, q->rect);
            rooms++;
        }
        dg_role_report rep;
        CHECK(dg_roles(&run.g, rules, count, seed, &run.r, &rep, NULL, NULL) == DG_OK);
        for (int32_t i = 0; i < run.r.room_count; i++)
        {
            boss += strcmp(run.r.labels[i].role, "boss") == 0;
            treasure += strcmp(run.r.labels[i].role, "treasure") == 0;
        }
        run_close(&run);
    }
    CHECKF(off * 100 <= cells * 3, "%lld of %lld chamber cells off their chamber's main part",
           (long long)off, (long long)cells);
    CHECK(rooms >= maps * 10);
    CHECKF(boss >= maps * 9 / 10 && treasure >= maps * 8 / 10, "boss in %d, treasure in %d of %d",
           (int)boss, (int)treasure, (int)maps);
}

/* Wider tunnels: the same caves, more floor; width 1 leaves every tunnel
 * cell on its line. */
TEST(cave_tunnel_width)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    p.min_region = 4;
    int wider = 0;
    for (uint64_t seed = 1; seed <= 30; seed++)
    {
        cave_run runs[3];
        for (int w = 1; w <= 3; w++)
        {
            p.tunnel_width = w;
            run_open(&runs[w - 1], &p, 100, 60, seed);
        }
        for (int w = 1; w < 3; w++)
        {
            CHECK(runs[w].r.metrics.placed == runs[0].r.metrics.placed);
            CHECK(runs[w].r.metrics.requested == runs[0].r.metrics.requested);
            CHECK(runs[w].r.metrics.floor_cells >= runs[w - 1].r.metrics.floor_cells);
            wider += runs[w].r.metrics.floor_cells > runs[w - 1].r.metrics.floor_cells;
        }
        for (int w = 0; w < 3; w++)
            run_close(&runs[w]);
    }
    CHECK(wider > 20);
}

/* Every cave has min_region cells or more; fewer caves as it grows; when
 * no region is that large the largest is still kept. */
TEST(cave_min_region)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    int64_t rooms[3] = {0, 0, 0};
    const int32_t mins[3] = {1, 24, 200};
    for (uint64_t seed = 1; seed <= 30; seed++)
        for (int k = 0; k < 3; k++)
        {
            p.min_region = mins[k];
            cave_run run;
            run_open(&run, &p, 120, 60, seed);
            rooms[k] += run.r.metrics.placed;
            run_close(&run);
        }
    CHECK(rooms[0] > rooms[1] && rooms[1] > rooms[2]);
    p.min_region = (int32_t)DG_GRID_MAX_CELLS; /* nothing that large: the largest alone */
    cave_run run;
    run_open(&run, &p, 80, 25, 3);
    CHECK(run.r.metrics.placed == 1 && run.r.corridor_count == 0 && run.r.metrics.requested >= 1);
    run_close(&run);
}

/* connect = largest: one cave, nothing else open, no tunnels. */
TEST(cave_connect_largest)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    p.connect = DG_CAVE_CONNECT_LARGEST;
    for (uint64_t seed = 1; seed <= 40; seed++)
    {
        cave_run run;
        run_open(&run, &p, 80, 50, seed);
        CHECK(run.r.metrics.placed == 1 && run.r.corridor_count == 0);
        run_close(&run);
    }
}

/* target_open_permille: the floor lands near the target whatever fill_permille says. */
TEST(cave_target_open)
{
    static const int32_t targets[] = {250, 400, 550};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
    {
        dg_cave_params p;
        dg_cave_defaults(&p);
        p.target_open_permille = targets[t];
        p.fill_permille = 700; /* far off: the search moves it */
        int64_t sum = 0;
        for (uint64_t seed = 1; seed <= 20; seed++)
        {
            cave_run run;
            run_open(&run, &p, 120, 60, seed);
            int32_t got = run.r.metrics.floor_permille;
            CHECKF(abs(got - targets[t]) <= 80, "target %d: floor %d", (int)targets[t], (int)got);
            sum += got;
            run_close(&run);
        }
        CHECKF(llabs(sum / 20 - targets[t]) <= 40, "target %d: mean floor %lld", (int)targets[t],
               (long long)(sum / 20));
    }
}

/* Open cells with three or four rock sides: smoothing shaves them. */
static int32_t bumps(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (is_open(g, x, y))
            {
                int open = 0;
                for (int d = 0; d < 4; d++)
                    open += is_open(g, x + DX[d], y + DY[d]);
                n += open <= 1;
            }
    return n;
}

TEST(cave_smoothing)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    p.iterations = 1; /* rough caves */
    int64_t rough = 0, smooth = 0;
    for (uint64_t seed = 1; seed <= 30; seed++)
    {
        cave_run a, b;
        p.smoothing = 0;
        run_open(&a, &p, 100, 60, seed);
        p.smoothing = 3;
        run_open(&b, &p, 100, 60, seed);
        rough += bumps(&a.g);
        smooth += bumps(&b.g);
        run_close(&a);
        run_close(&b);
    }
    CHECKF(smooth * 4 < rough, "bumps: %lld smoothed, %lld rough", (long long)smooth,
           (long long)rough);
}

/* The rule: no steps leave the noise; birth = survival = 0 opens everything;
 * all rock falls back to the centre cave. */
TEST(cave_rule_and_fill)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    p.birth = p.survival = 0;
    cave_run run;
    run_open(&run, &p, 30, 20, 1);
    CHECK(run.r.metrics.floor_cells == 28 * 18 && run.r.metrics.placed == 1);
    run_close(&run);
    dg_cave_defaults(&p);
    p.fill_permille = 0;
    p.border = 0;
    p.iterations = 0; /* the rule would erode the edges: outside counts as rock */
    run_open(&run, &p, 30, 20, 1);
    CHECK(run.r.metrics.floor_cells == 30 * 20);
    dg_quality q;
    CHECK(dg_survey_map(&run.g, &run.r, &q, NULL, NULL) == DG_OK && q.border_open > 0);
    run_close(&run);
    dg_cave_defaults(&p);
    p.fill_permille = 1000;
    run_open(&run, &p, 31, 21, 1);
    CHECK(run.r.metrics.floor_cells == 9 && run.r.room_count == 1);
    dg_rect c = run.r.rooms[0].rect;
    CHECK(c.x == 14 && c.y == 9 && c.w == 3 && c.h == 3);
    run_close(&run);
    /* more rock in the noise, fewer open cells in the caves (the same random
     * words at every fill) */
    dg_cave_defaults(&p);
    p.iterations = 0, p.smoothing = 0, p.min_region = 1, p.tunnel_width = 1;
    int32_t last = INT32_MAX;
    for (int32_t fill = 100; fill <= 500; fill += 100)
    {
        p.fill_permille = fill;
        run_open(&run, &p, 200, 100, 7);
        int32_t open = run.r.metrics.floor_cells; /* less the tunnels' cells between caves */
        for (int32_t i = 0; i < run.r.corridor_count; i++)
            open -= run.r.corridors[i].length > 2 ? run.r.corridors[i].length - 2 : 0;
        CHECK(open < last && abs(open - (1000 - fill) * 198 * 98 / 1000) < 400);
        last = open;
        run_close(&run);
    }
}

/* ---- bad input --------------------------------------------------------------------------- */

typedef struct cave_bad {
    const char *field; /* a word the message must contain */
    dg_status want;
    void (*apply)(dg_cave_params *p);
} cave_bad;

#define BAD(name, body) \
    static void bad_##name(dg_cave_params *p) { body; }
BAD(survival_neg, p->survival = INT32_MIN)
#undef BAD

TEST(cave_rejects_bad_parameters)
{
    /* each parameter's min - 1 and max + 1, NULL params and broken grids:
     * every_generator_rejects_each_parameter_out_of_range */
    static const cave_bad bad[] = {
        {"survival", DG_E_INVALID, bad_survival_neg},
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 80, 25, 1));
    dg_cave_params good;
    dg_cave_defaults(&good);
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_cave_generate(&gg.grid, &good, 1, &r, NULL, NULL) == DG_OK);
    uint64_t grid_before = dg_grid_hash(&gg.grid), result_before = hard_result_hash(&r);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
        dg_cave_params p = good;
        bad[i].apply(&p);
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_cave_generate(&gg.grid, &p, 2, &r, NULL, &d);
        CHECKF(st == bad[i].want, "case %d (%s): got %s", (int)i, bad[i].field, dg_status_str(st));
        CHECKF(d.status == st && strstr(d.message, bad[i].field) != NULL, "case %d: %s", (int)i,
               d.message);
        CHECK(dg_grid_hash(&gg.grid) == grid_before && hard_result_hash(&r) == result_before);
    }
    CHECK(guard_intact(&gg));
    guard_free(&gg);
    dg_result_free(&r);
}

/* 5x5 (3x3 inside the border) is the smallest grid at the defaults, 3x3
 * without the border; one cell less either way is DG_E_TOO_SMALL, grid and
 * result untouched. */
TEST(cave_smallest_grids)
{
    static const struct { int32_t w, h, border; dg_status want; } sizes[] = {
        {5, 5, 1, DG_OK},           {4, 5, 1, DG_E_TOO_SMALL}, {5, 4, 1, DG_E_TOO_SMALL},
        {3, 3, 0, DG_OK},           {2, 9, 0, DG_E_TOO_SMALL}, {9, 2, 0, DG_E_TOO_SMALL},
        {1, 1, 1, DG_E_TOO_SMALL},  {5, 40, 1, DG_OK},         {40, 5, 1, DG_OK},
    };
    dg_cave_params p;
    dg_cave_defaults(&p);
    dg_result r;
    dg_result_init(&r, NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        p.border = sizes[i].border;
        guarded_grid gg;
        CHECK(guard_make(&gg, sizes[i].w, sizes[i].h, 2));
        dg_grid_fill(&gg.grid, 0x77);
        for (uint64_t seed = 1; seed <= 50; seed++)
        {
            uint64_t before = dg_grid_hash(&gg.grid), rbefore = hard_result_hash(&r);
            dg_diag d;
            dg_status st = dg_cave_generate(&gg.grid, &p, seed, &r, NULL, &d);
            CHECKF(st == sizes[i].want, "%dx%d: %s", (int)sizes[i].w, (int)sizes[i].h,
                   dg_status_str(st));
            if (st != DG_OK)
            {
                CHECK(strstr(d.message, "smallest") != NULL);
                CHECK(dg_grid_hash(&gg.grid) == before && hard_result_hash(&r) == rbefore);
                break;
            }
            dg_quality q;
            CHECK(dg_survey_map(&gg.grid, &r, &q, NULL, NULL) == DG_OK);
            CHECK(q.unreachable == 0 && !q.start_is_exit && q.exit_in_room && q.start_in_room);
            CHECK(q.exit_rank_permille <= 100 && (q.border_open == 0 || !p.border));
        }
        CHECK(guard_intact(&gg));
        guard_free(&gg);
    }
    dg_result_free(&r);
}

/* Every allocation refused in turn: DG_E_NOMEM with grid and result as they
 * were and nothing leaked, until the call succeeds. */
TEST(cave_allocation_failures)
{
    dg_cave_params p;
    dg_cave_defaults(&p);
    p.min_region = 2; /* many caves: edges, tunnels */
    for (int64_t k = 1; k < 200; k++)
    {
        hard_alloc ha;
        hard_alloc_init(&ha, k);
        guarded_grid gg;
        CHECK(guard_make(&gg, 90, 40, 1));
        dg_grid_fill(&gg.grid, 0x33);
        dg_result r;
        dg_result_init(&r, &ha.hooks);
        uint64_t before = dg_grid_hash(&gg.grid), rbefore = hard_result_hash(&r);
        dg_status st = dg_cave_generate(&gg.grid, &p, 11, &r, &ha.hooks, NULL);
        if (st == DG_E_NOMEM)
            CHECK(dg_grid_hash(&gg.grid) == before && hard_result_hash(&r) == rbefore);
        else
            CHECK(st == DG_OK);
        dg_result_free(&r);
        CHECK(hard_alloc_clean(&ha) && guard_intact(&gg));
        guard_free(&gg);
        if (st == DG_OK)
        {
            CHECK(k > 3);
            break;
        }
    }
}

/* The connect pass keeps its first sweep in bands of rows, a few rows of the
 * area instead of a 4-byte value a cell (the old distance transform kept
 * three): a default map's peak scratch for the tiles stays under 4 bytes a
 * cell. */
TEST(cave_scratch_per_cell)
{
    hard_alloc ha;
    hard_alloc_init(&ha, 0);
    int32_t w = 600, h = 400;
    uint8_t *cells = malloc((size_t)w * (size_t)h);
    CHECK(cells != NULL);
    dg_grid g;
    CHECK(dg_grid_init(&g, cells, w, h, 0) == DG_OK);
    dg_cave_params p;
    dg_cave_defaults(&p);
    CHECK(dg_cave_generate(&g, &p, 5, NULL, &ha.hooks, NULL) == DG_OK);
    CHECK(ha.peak_bytes > 0 && ha.peak_bytes < 4 * (int64_t)w * h);
    CHECK(hard_alloc_clean(&ha));
    free(cells);
}

/* The popcount the chambers count lines with (one instruction where the
 * compiler offers it, bit-parallel sums elsewhere) against a bit by bit count. */
TEST(cave_popcount_counts_every_bit)
{
    uint64_t w = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < 2000; k++)
    {
        w ^= w << 13, w ^= w >> 7, w ^= w << 17;
        uint64_t v = k < 65 ? (k == 64 ? ~0ULL : (1ULL << k) - 1) : k % 3 ? w : w & (w >> 1);
        int32_t n = 0;
        for (int b = 0; b < 64; b++)
            n += (int32_t)(v >> b & 1);
        CHECKF(dgi_popcount64(v) == n, "word %016llx: %d, not %d", (unsigned long long)v,
               (int)dgi_popcount64(v), (int)n);
    }
}
