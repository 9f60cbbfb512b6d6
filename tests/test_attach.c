/* Feature attachment generator: bad input, guard bytes, properties over many
 * seeds, policies, budgets, out of memory, golden outputs, map sizes. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define ATTACH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTACH_SANITIZED 1
#endif
#endif
#ifndef ATTACH_SANITIZED
#define ATTACH_SANITIZED 0
#endif
#ifdef __OPTIMIZE__
#define ATTACH_OPTIMIZED 1
#else
#define ATTACH_OPTIMIZED 0
#endif

/* ---- helpers ------------------------------------------------------------------ */

typedef struct attach_map {
    dg_grid grid;
    uint8_t *cells;
    dg_result result;
} attach_map;

static void map_open(attach_map *m, int32_t w, int32_t h)
{
    m->cells = malloc((size_t)w * (size_t)h);
    memset(m->cells, 0x5A, (size_t)w * (size_t)h);
    dg_grid_init(&m->grid, m->cells, w, h, 0);
    dg_result_init(&m->result, NULL);
}

static void map_close(attach_map *m)
{
    free(m->cells);
    dg_result_free(&m->result);
}

static int pass_at(const dg_grid *g, int32_t x, int32_t y)
{
    return dg_tile_passable(dg_grid_get(g, x, y));
}

static int pass_neighbours(const dg_grid *g, int32_t x, int32_t y)
{
    return pass_at(g, x, y - 1) + pass_at(g, x + 1, y) + pass_at(g, x, y + 1) + pass_at(g, x - 1, y);
}

/* A junction: passable with exactly two passable neighbours, opposite each other. */
static int is_junction(const dg_grid *g, int32_t x, int32_t y)
{
    if (!pass_at(g, x, y) || pass_neighbours(g, x, y) != 2)
        return 0;
    return (pass_at(g, x - 1, y) && pass_at(g, x + 1, y)) ||
           (pass_at(g, x, y - 1) && pass_at(g, x, y + 1));
}

static int ref_ok(const dg_result *r, dg_ref ref)
{
    return (ref.kind == DG_REF_ROOM && ref.index >= 0 && ref.index < r->room_count) ||
           (ref.kind == DG_REF_CORRIDOR && ref.index >= 0 && ref.index < r->corridor_count);
}

static int32_t budget_of(const dg_attach_params *p, const dg_grid *g)
{
    int64_t derived = (int64_t)g->width * g->height / 16;
    return p->max_features > 0 ? p->max_features : (int32_t)(derived > 0 ? derived : 1);
}

/* NULL if the output obeys every documented property, else the first problem. */
static const char *attach_problem(const dg_grid *g, const dg_result *r, const dg_attach_params *p)
{
    int32_t W = g->width, H = g->height;
    int32_t passable = 0, dead = 0, door_tiles = 0, passages = 0;
    uint8_t *covered = calloc((size_t)W * (size_t)H, 1);
    const char *why = NULL;
#define FAIL(msg)          \
    do {                   \
        why = msg;         \
        goto done;         \
    } while (0)
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            if (t != DG_TILE_VOID && t != DG_TILE_FLOOR && t != DG_TILE_CORRIDOR &&
                t != DG_TILE_WALL && t != DG_TILE_DOOR)
                FAIL("a tile the generator never writes");
            door_tiles += t == DG_TILE_DOOR;
            if (t == DG_TILE_WALL)
            {
                int near = 0;
                for (int j = -1; j <= 1; j++)
                    for (int i = -1; i <= 1; i++)
                        near |= pass_at(g, x + i, y + j);
                if (!near)
                    FAIL("a wall with no passable cell around it");
            }
            if (!dg_tile_passable(t))
                continue;
            passable++;
            if (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                FAIL("a passable cell on the map border");
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++)
                    if (dg_grid_get(g, x + i, y + j) == DG_TILE_VOID)
                        FAIL("a passable cell touching void (missing wall)");
            dead += pass_neighbours(g, x, y) == 1;
        }
    if (!grid_connected(g))
        FAIL("passable cells are not all connected");
    const dg_metrics *m = &r->metrics;
    if (m->cells != W * H || m->floor_cells != passable ||
        m->floor_permille != (int32_t)((int64_t)passable * 1000 / (W * H)))
        FAIL("cells / floor metrics disagree with the grid");
    if (m->dead_ends != dead)
        FAIL("dead_ends metric disagrees with the grid");
    if (m->regions != 1 || m->overlaps != 0)
        FAIL("regions / overlaps metric");
    if (m->rooms != r->room_count || m->corridors != r->corridor_count ||
        m->doors != r->door_count || m->doors != door_tiles)
        FAIL("counts disagree with the lists or the door tiles");
    if (m->placed != m->rooms + m->corridors || m->requested != budget_of(p, g) ||
        m->placed > m->requested)
        FAIL("placed / requested (feature budget not respected)");
    int64_t max_attempts = p->max_attempts > 0 ? p->max_attempts : (int64_t)m->requested * 50;
    if (m->attempts > max_attempts || m->failures > m->attempts || m->failures < 0)
        FAIL("attempts / failures");
    int32_t loop_max = p->loop_max > 0 ? p->loop_max : (r->room_count / 4 > 1 ? r->room_count / 4 : 1);
    if (m->loops < 0 || m->loops > loop_max || (p->loop_min_gain == 0 && m->loops != 0))
        FAIL("loops outside loop_max (0: one per 4 rooms)");
    if (m->stopped_early != 0 && m->stopped_early != 1)
        FAIL("stopped_early is not 0/1");
    if (r->room_count < 1)
        FAIL("no room");
    int32_t max_w = p->room_max_w < W - 2 ? p->room_max_w : W - 2;
    int32_t max_h = p->room_max_h < H - 2 ? p->room_max_h : H - 2;
    int64_t area = 0;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_room *q = &r->rooms[i];
        dg_rect b = q->rect;
        if (b.x < 1 || b.y < 1 || b.x + b.w > W - 1 || b.y + b.h > H - 1)
            FAIL("room (with its walls) outside the map");
        if (b.w < p->room_min_w || b.w > max_w || b.h < p->room_min_h || b.h > max_h)
            FAIL("room size outside its range");
        if (q->kind != DG_ROOM_NORMAL || q->prefab != -1 || (i == 0) != (q->parent == -1) ||
            q->parent >= i)
            FAIL("room kind / prefab / parent");
        if (q->shape < DG_SHAPE_RECT || q->shape > DG_SHAPE_CAVERN ||
            (q->shape == DG_SHAPE_RECT) != (q->cells == b.w * b.h))
            FAIL("room shape / cells");
        int32_t floor = 0;
        for (int32_t y = b.y; y < b.y + b.h; y++)
            for (int32_t x = b.x; x < b.x + b.w; x++)
            {
                uint8_t t = dg_grid_get(g, x, y);
                if ((t == DG_TILE_FLOOR && covered[y * W + x]++) ||
                    (t != DG_TILE_FLOOR && t != DG_TILE_WALL && t != DG_TILE_VOID))
                    FAIL("room cell covered twice, or neither floor nor a cut cell");
                if ((y == b.y + b.h / 2 || x == b.x + b.w / 2) && t != DG_TILE_FLOOR)
                    FAIL("a shape without its middle row and column");
                floor += t == DG_TILE_FLOOR;
            }
        if (floor != q->cells)
            FAIL("room cells disagree with its floor");
        for (int32_t y = b.y - 1; y <= b.y + b.h; y++)
            for (int32_t x = b.x - 1; x <= b.x + b.w; x++)
                if ((x < b.x || y < b.y || x >= b.x + b.w || y >= b.y + b.h) &&
                    pass_at(g, x, y) && !is_junction(g, x, y))
                    FAIL("an opening in a room's wall that is not a junction");
        area += q->cells;
    }
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        int32_t dx = (c->end.x > c->start.x) - (c->end.x < c->start.x);
        int32_t dy = (c->end.y > c->start.y) - (c->end.y < c->start.y);
        if ((dx && dy) || c->bend.x != c->end.x || c->bend.y != c->end.y)
            FAIL("corridor not straight");
        int32_t len = abs(c->end.x - c->start.x) + abs(c->end.y - c->start.y) + 1;
        /* a loop may open wall, rock, wall: a one-cell corridor joined at both ends */
        int passage = len == 1 && c->to.kind != DG_REF_NONE && passages++ < m->loops;
        if (c->length != len || len < 1 || (len > p->corridor_max && !passage) ||
            (p->dead_ends == DG_DEAD_ENDS_KEEP && len < p->corridor_min && !passage))
            FAIL("corridor length outside its range");
        if (!ref_ok(r, c->from) || (c->to.kind != DG_REF_NONE && !ref_ok(r, c->to)))
            FAIL("corridor from/to");
        for (int32_t k = 0; k < len; k++)
        {
            int32_t x = c->start.x + dx * k, y = c->start.y + dy * k;
            if (dg_grid_get(g, x, y) != DG_TILE_CORRIDOR || covered[y * W + x]++)
                FAIL("corridor cell not corridor, or covered twice");
        }
        area += len;
    }
    int32_t junctions = 0;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++)
            if (pass_at(g, x, y) && !covered[y * W + x])
            {
                if (!is_junction(g, x, y))
                    FAIL("a passable cell outside every feature that is not a junction");
                junctions++;
            }
    if (area + junctions != passable ||
        junctions != r->room_count + r->corridor_count - 1 + m->loops)
        FAIL("junctions != features - 1 + loops (not a tree plus loop openings)");
    for (int32_t i = 0; i < r->door_count; i++)
    {
        const dg_door *d = &r->doors[i];
        if (dg_grid_get(g, d->pos.x, d->pos.y) != DG_TILE_DOOR || !is_junction(g, d->pos.x, d->pos.y))
            FAIL("door not a door tile between two passable cells");
        if (!ref_ok(r, d->a) || !ref_ok(r, d->b))
            FAIL("door refs");
    }
    if (p->doors == DG_DOORS_ALL && door_tiles != junctions)
        FAIL("doors=all but a junction without a door");
    if (p->doors == DG_DOORS_NONE && door_tiles != 0)
        FAIL("doors=none but door tiles");
    if (r->start_room < 0 || r->start_room >= r->room_count)
        FAIL("start_room");
    dg_rect s0 = r->rooms[r->start_room].rect;
    if (r->start.x != s0.x + s0.w / 2 || r->start.y != s0.y + s0.h / 2)
        FAIL("start is not the centre of its room");
    {
        int32_t *dist = grid_walk_from(g, r->start, NULL);
        int32_t far = 0; /* the farthest room cell: where the exit goes */
        for (int32_t i = 0; i < r->room_count; i++)
        {
            dg_rect b = r->rooms[i].rect;
            for (int32_t y = b.y; y < b.y + b.h; y++)
                for (int32_t x = b.x; x < b.x + b.w; x++)
                    far = dist[y * W + x] > far ? dist[y * W + x] : far;
        }
        int32_t at_exit = dist[r->exit.y * W + r->exit.x];
        free(dist);
        if (at_exit != far)
            FAIL("exit is not the farthest room cell by walking");
        int32_t in_room = -1;
        for (int32_t i = 0; i < r->room_count; i++)
        {
            dg_rect b = r->rooms[i].rect;
            if (r->exit.x >= b.x && r->exit.y >= b.y && r->exit.x < b.x + b.w && r->exit.y < b.y + b.h)
                in_room = i;
        }
        if (r->exit_room != in_room || in_room < 0)
            FAIL("exit_room (the exit lies in a room)");
    }
done:
    free(covered);
    return why;
#undef FAIL
}

/* ---- parameters and bad input ---------------------------------------------------- */

TEST(attach_defaults_are_documented)
{
    dg_attach_params p;
    memset(&p, 0x77, sizeof p);
    dg_attach_defaults(&p);
    CHECK(p.room_min_w == 3 && p.room_max_w == 9 && p.room_min_h == 3 && p.room_max_h == 7);
    CHECK(p.corridor_min == 3 && p.corridor_max == 8);
    CHECK(p.max_features == 0 && p.room_after_corridor == 700 && p.target_floor == 270);
    CHECK(p.max_attempts == 0 && p.max_failures == 400 && p.growth == DG_GROWTH_UNIFORM);
    CHECK(p.loop_min_gain == 16 && p.loop_max == 0);
    CHECK(p.dead_ends == DG_DEAD_ENDS_ROOM && p.doors == DG_DOORS_ROOMS && p.dense == 0);
    CHECK(p.shape_share == 1000 && p.shapes == 126);
    dg_attach_defaults(NULL); /* harmless */
}

typedef struct bad_case {
    const char *name;
    size_t offset;
    int32_t value;
    dg_status want;
} bad_case;

#define BAD(field, v, st) {#field " = " #v, offsetof(dg_attach_params, field), v, st}

TEST(attach_rejects_each_bad_parameter_untouched)
{
    /* each parameter's min - 1 and max + 1: every_generator_rejects_each_parameter_out_of_range */
    static const bad_case cases[] = {
        BAD(room_min_w, -5, DG_E_INVALID),          BAD(room_max_h, -1, DG_E_INVALID),
        BAD(room_min_w, 10, DG_E_INVALID),          BAD(room_min_h, 8, DG_E_INVALID),
        BAD(room_max_w, INT32_MAX, DG_E_INVALID),   BAD(corridor_max, -3, DG_E_INVALID),
        BAD(corridor_min, 9, DG_E_INVALID),         BAD(corridor_max, INT32_MIN, DG_E_INVALID),
        BAD(max_failures, INT32_MIN, DG_E_INVALID), BAD(loop_min_gain, INT32_MAX, DG_E_INVALID),
        /* rooms that cannot fit a 40x20 map with their walls */
        BAD(room_min_w, 39, DG_E_INVALID), /* > room_max_w 9 */
    };
    guarded_grid gg;
    CHECK(guard_make(&gg, 40, 20, 3));
    memset(gg.grid.cells, 0x42, (size_t)gg.grid.stride * 20); /* a caller pattern */
    uint8_t *before = malloc(gg.size);
    memcpy(before, gg.buffer, gg.size);
    dg_result r;
    dg_result_init(&r, NULL);
    r.start.x = 1234; /* the result must be left alone too */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        dg_attach_params p;
        dg_attach_defaults(&p);
        memcpy((char *)&p + cases[i].offset, &cases[i].value, sizeof(int32_t));
        dg_diag d;
        memset(&d, 0, sizeof d);
        dg_status st = dg_attach_generate(&gg.grid, &p, 1, &r, NULL, &d);
        CHECKF(st == cases[i].want, "%s: status %d, want %d", cases[i].name, (int)st,
               (int)cases[i].want);
        CHECKF(d.status == st && d.message[0] != '\0', "%s: no diagnostic", cases[i].name);
        CHECKF(memcmp(before, gg.buffer, gg.size) == 0, "%s: grid changed", cases[i].name);
        CHECK(r.start.x == 1234 && r.room_count == 0);
    }
    free(before);
    guard_free(&gg);
    dg_result_free(&r);
}

TEST(attach_rejects_null_and_broken_grids)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    uint8_t cells[100];
    memset(cells, 7, sizeof cells);
    dg_grid g = {cells, 10, 10, 10};
    /* NULL grid, params or cells, height 0, stride < width:
     * every_generator_rejects_each_parameter_out_of_range */
    dg_grid bad = g;
    bad.width = 0;
    CHECK(dg_attach_generate(&bad, &p, 1, NULL, NULL, NULL) == DG_E_INVALID);
    bad = g;
    bad.height = -3;
    CHECK(dg_attach_generate(&bad, &p, 1, NULL, NULL, NULL) == DG_E_INVALID);
    bad = g;
    bad.width = bad.height = bad.stride = DG_GRID_MAX_DIM + 1;
    CHECK(dg_attach_generate(&bad, &p, 1, NULL, NULL, NULL) == DG_E_TOO_LARGE);
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 7);
}

TEST(attach_rejects_maps_too_small_for_a_room)
{
    dg_attach_params p;
    dg_attach_defaults(&p); /* smallest room 3x3: needs a 5x5 map */
    uint8_t cells[64];
    const int32_t sizes[][2] = {{4, 5}, {5, 4}, {1, 1}, {4, 16}, {16, 4}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        memset(cells, 9, sizeof cells);
        dg_grid g;
        CHECK(dg_grid_init(&g, cells, sizes[i][0], sizes[i][1], 0) == DG_OK);
        dg_diag d;
        CHECK(dg_attach_generate(&g, &p, 3, NULL, NULL, &d) == DG_E_TOO_SMALL);
        CHECK(strstr(d.message, "5x5") != NULL);
        for (size_t k = 0; k < sizeof cells; k++)
            CHECK(cells[k] == 9);
    }
    p.room_min_w = p.room_max_w = 20; /* a room wider than the map */
    dg_grid g;
    memset(cells, 9, sizeof cells);
    CHECK(dg_grid_init(&g, cells, 8, 8, 0) == DG_OK);
    CHECK(dg_attach_generate(&g, &p, 3, NULL, NULL, NULL) == DG_E_TOO_SMALL);
    CHECK(cells[0] == 9 && cells[63] == 9);
}

/* ---- out of memory --------------------------------------------------------------- */

typedef struct failing {
    int64_t calls, fail_at, live, bad_free;
} failing;

static void *failing_alloc(void *user, size_t size)
{
    failing *f = user;
    if (++f->calls == f->fail_at)
        return NULL;
    f->live++;
    size_t *p = malloc(size + sizeof(size_t) * 2);
    p[0] = size;
    return p + 2;
}

static void failing_free(void *user, void *ptr, size_t size)
{
    failing *f = user;
    size_t *p = (size_t *)ptr - 2;
    f->bad_free += p[0] != size;
    f->live--;
    free(p);
}

TEST(attach_out_of_memory_leaves_everything_untouched)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.loop_min_gain = 6; /* every pass allocates */
    p.loop_max = 20;
    p.dead_ends = DG_DEAD_ENDS_ROOM;
    int64_t total = 0;
    for (int64_t k = 1;; k++)
    {
        failing f = {0, k, 0, 0};
        dg_allocator a = {failing_alloc, failing_free, &f};
        guarded_grid gg;
        CHECK(guard_make(&gg, 300, 200, 5));
        memset(gg.grid.cells, 0x33, (size_t)gg.grid.stride * 200);
        uint8_t *before = malloc(gg.size);
        memcpy(before, gg.buffer, gg.size);
        dg_result r;
        dg_result_init(&r, &a); /* the result's lists come from the same allocator */
        dg_diag d;
        dg_status st = dg_attach_generate(&gg.grid, &p, 11, &r, &a, &d);
        if (st == DG_OK)
        {
            total = k - 1;
            CHECK(f.calls == k - 1); /* every allocation was exercised */
            dg_result_free(&r);
        }
        else
        {
            CHECKF(st == DG_E_NOMEM && d.status == DG_E_NOMEM, "alloc %lld: status %d",
                   (long long)k, (int)st);
            CHECKF(memcmp(before, gg.buffer, gg.size) == 0, "alloc %lld: grid changed",
                   (long long)k);
            CHECK(r.room_count == 0 && r.door_count == 0);
            dg_result_free(&r);
        }
        CHECKF(f.live == 0 && f.bad_free == 0, "alloc %lld: %lld leaked, %lld bad frees",
               (long long)k, (long long)f.live, (long long)f.bad_free);
        free(before);
        guard_free(&gg);
        if (st == DG_OK || k > 200 || test_failures())
            break;
    }
    CHECK(total >= 5); /* scratch, lists, loop pass and result were all failed once */
}

/* Peak of the bytes an allocator has handed out and not yet taken back. */
typedef struct peak_meter {
    size_t live, peak;
} peak_meter;

static void *metered_alloc(void *user, size_t size)
{
    peak_meter *m = user;
    m->live += size;
    m->peak = m->live > m->peak ? m->live : m->peak;
    return malloc(size);
}

static void metered_free(void *user, void *ptr, size_t size)
{
    peak_meter *m = user;
    if (ptr)
        m->live -= size;
    free(ptr);
}

TEST(attach_scratch_stays_under_four_bytes_a_cell)
{
    static const int32_t sizes[][3] = {{80, 25, 60}, {80, 50, 30}, {200, 200, 8}};
    dg_attach_params p;
    dg_attach_defaults(&p);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    {
        int32_t w = sizes[k][0], h = sizes[k][1];
        uint8_t *cells = malloc((size_t)w * (size_t)h);
        dg_grid g;
        CHECK(cells && dg_grid_init(&g, cells, w, h, 0) == DG_OK);
        for (int32_t seed = 1; cells && seed <= sizes[k][2]; seed++)
        {
            peak_meter m = {0, 0};
            dg_allocator a = {metered_alloc, metered_free, &m};
            CHECK(dg_attach_generate(&g, &p, (uint64_t)seed, NULL, &a, NULL) == DG_OK);
            CHECKF(m.live == 0 && m.peak <= 4 * (size_t)w * (size_t)h,
                   "%dx%d seed %d: peak %zu bytes of scratch, %zu left", (int)w, (int)h, (int)seed,
                   m.peak, m.live);
        }
        free(cells);
    }
}

/* ---- guard bytes ---------------------------------------------------------------- */

TEST(attach_writes_only_inside_odd_strides)
{
    const int32_t shapes[][3] = {{5, 5, 1}, {7, 5, 3}, {33, 17, 7}, {80, 25, 13}, {61, 47, 1},
                                 {19, 90, 5}, {128, 9, 31}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (uint64_t seed = 0; seed < 20; seed++)
        {
            guarded_grid gg;
            CHECK(guard_make(&gg, shapes[i][0], shapes[i][1], shapes[i][2]));
            dg_attach_params p;
            dg_attach_defaults(&p);
            p.loop_min_gain = 4;
            p.dead_ends = (int32_t)(seed % 3);
            p.growth = (int32_t)((seed / 3) % 3);
            dg_result r;
            dg_result_init(&r, NULL);
            CHECK(dg_attach_generate(&gg.grid, &p, seed, &r, NULL, NULL) == DG_OK);
            CHECKF(guard_intact(&gg), "%dx%d stride +%d seed %llu", (int)shapes[i][0],
                   (int)shapes[i][1], (int)shapes[i][2], (unsigned long long)seed);
            const char *why = attach_problem(&gg.grid, &r, &p);
            CHECKF(why == NULL, "%s", why);
            dg_result_free(&r);
            guard_free(&gg);
        }
}

/* ---- properties over many seeds ------------------------------------------------------ */

typedef struct param_set {
    const char *name;
    int32_t w, h;
    void (*tweak)(dg_attach_params *p);
} param_set;

static void tweak_defaults(dg_attach_params *p) { (void)p; }
static void tweak_linear(dg_attach_params *p)
{
    p->growth = DG_GROWTH_NEWEST;
    p->dead_ends = DG_DEAD_ENDS_PRUNE;
    p->doors = DG_DOORS_ROOMS;
}
static void tweak_bushy_loops(dg_attach_params *p)
{
    p->growth = DG_GROWTH_OLDEST;
    p->loop_min_gain = 8;
    p->loop_max = 30;
}
static void tweak_dead_end_rooms(dg_attach_params *p)
{
    p->dead_ends = DG_DEAD_ENDS_ROOM;
    p->doors = DG_DOORS_NONE;
    p->loop_min_gain = 3;
}
static void tweak_tiny_features(dg_attach_params *p)
{
    p->room_min_w = p->room_min_h = 1;
    p->room_max_w = 4;
    p->room_max_h = 2;
    p->corridor_min = 1;
    p->corridor_max = 3;
    p->room_after_corridor = 300;
    p->loop_min_gain = 2;
    p->loop_max = 1000;
}
static void tweak_budgets(dg_attach_params *p)
{
    p->max_features = 17;
    p->max_attempts = 40;
    p->max_failures = 5;
    p->target_floor = 300;
    p->room_max_w = 30; /* capped by the map */
}
static void tweak_big_rooms(dg_attach_params *p)
{
    p->room_min_w = 6;
    p->room_max_w = 16;
    p->room_min_h = 5;
    p->room_max_h = 11;
    p->corridor_min = 2;
    p->corridor_max = 14;
    p->room_after_corridor = 1000;
    p->dead_ends = DG_DEAD_ENDS_ROOM;
}

/* The 0.3 defaults: packed wall to wall, a tree, grown to 30% floor. */
static void tweak_dense(dg_attach_params *p)
{
    p->dense = 1;
    p->loop_min_gain = 0;
    p->target_floor = 300;
}

static const param_set sets[] = {
    {"defaults", 80, 25, tweak_defaults},        {"linear", 60, 40, tweak_linear},
    {"bushy+loops", 50, 50, tweak_bushy_loops},  {"dead-end rooms", 70, 30, tweak_dead_end_rooms},
    {"tiny features", 31, 19, tweak_tiny_features}, {"budgets", 45, 28, tweak_budgets},
    {"big rooms", 90, 60, tweak_big_rooms},        {"dense", 80, 25, tweak_dense},
};

TEST(attach_properties_hold_over_thousands_of_seeds)
{
    const int seeds = ATTACH_SANITIZED ? 290 : 400; /* per parameter set: >= 2,030 maps */
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
    {
        dg_attach_params p;
        dg_attach_defaults(&p);
        sets[s].tweak(&p);
        attach_map m;
        for (int seed = 0; seed < seeds && !test_failures(); seed++)
        {
            /* vary the shape a little so odd and even sizes are both covered */
            int32_t w = sets[s].w + seed % 3, h = sets[s].h + (seed / 3) % 2;
            map_open(&m, w, h);
            dg_status st = dg_attach_generate(&m.grid, &p, (uint64_t)seed * 7919u + s, &m.result,
                                              NULL, NULL);
            CHECKF(st == DG_OK, "%s seed %d: status %d", sets[s].name, seed, (int)st);
            const char *why = attach_problem(&m.grid, &m.result, &p);
            CHECKF(why == NULL, "%s seed %d (%dx%d): %s", sets[s].name, seed, (int)w, (int)h, why);
            map_close(&m);
        }
    }
}

TEST(attach_is_deterministic_and_reuses_results)
{
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.loop_min_gain = 5;
    attach_map a, b;
    map_open(&a, 90, 40);
    map_open(&b, 90, 40);
    for (uint64_t seed = 100; seed < 110; seed++)
    {
        CHECK(dg_attach_generate(&a.grid, &p, seed, &a.result, NULL, NULL) == DG_OK);
        CHECK(dg_attach_generate(&b.grid, &p, seed, NULL, NULL, NULL) == DG_OK);
        CHECK(memcmp(a.cells, b.cells, 90 * 40) == 0); /* the result does not change tiles */
        CHECK(dg_attach_generate(&b.grid, &p, seed, &b.result, NULL, NULL) == DG_OK);
        CHECK(a.result.room_count == b.result.room_count);
        CHECK(memcmp(a.result.rooms, b.result.rooms, sizeof(dg_room) * (size_t)a.result.room_count) == 0);
        CHECK(memcmp(&a.result.metrics, &b.result.metrics, sizeof a.result.metrics) == 0);
    }
    CHECK(dg_attach_generate(&b.grid, &p, 1, NULL, NULL, NULL) == DG_OK);
    CHECK(memcmp(a.cells, b.cells, 90 * 40) != 0); /* other seeds, other maps */
    map_close(&a);
    map_close(&b);
}

/* ---- budgets and limits ------------------------------------------------------------ */

TEST(attach_budgets_are_respected)
{
    attach_map m;
    map_open(&m, 120, 60);
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.max_features = 1;
    CHECK(dg_attach_generate(&m.grid, &p, 5, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.room_count == 1 && m.result.corridor_count == 0);
    CHECK(m.result.metrics.stopped_early == 1 && m.result.metrics.attempts == 0);
    p.dead_ends = DG_DEAD_ENDS_KEEP; /* pruning would take placed features back */
    for (int32_t budget = 2; budget < 40; budget += 7)
    {
        p.max_features = budget;
        CHECK(dg_attach_generate(&m.grid, &p, (uint64_t)budget, &m.result, NULL, NULL) == DG_OK);
        CHECK(m.result.metrics.placed == budget && m.result.metrics.stopped_early == 1);
        CHECK(attach_problem(&m.grid, &m.result, &p) == NULL);
    }
    dg_attach_defaults(&p);
    p.max_attempts = 12;
    CHECK(dg_attach_generate(&m.grid, &p, 5, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.attempts == 12 && m.result.metrics.stopped_early == 1);
    dg_attach_defaults(&p);
    p.max_failures = 1;
    CHECK(dg_attach_generate(&m.grid, &p, 5, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.stopped_early == 1 && m.result.metrics.failures >= 1);
    for (int32_t target = 50; target <= 250; target += 100) /* rock between pieces: ~30% at most */
    {
        dg_attach_defaults(&p);
        p.target_floor = target;
        p.shape_share = 0; /* shapes cut corners after growth met the target */
        CHECK(dg_attach_generate(&m.grid, &p, 9, &m.result, NULL, NULL) == DG_OK);
        CHECK(m.result.metrics.floor_permille >= target && m.result.metrics.stopped_early == 1);
        /* it stops soon after the target (rooms at fresh dead ends may add a little) */
        CHECKF(m.result.metrics.floor_permille < target + 100, "target %d: %d", (int)target,
               (int)m.result.metrics.floor_permille);
    }
    dg_attach_defaults(&p); /* no limit binds: the frontier runs out */
    p.target_floor = 0;
    CHECK(dg_attach_generate(&m.grid, &p, 9, &m.result, NULL, NULL) == DG_OK);
    CHECKF(m.result.metrics.stopped_early == 0 && m.result.metrics.floor_permille >= 200,
           "floor %d", (int)m.result.metrics.floor_permille);
    map_close(&m);
}

/* ---- policies ------------------------------------------------------------------------ */

static int32_t corridor_dead_ends(const dg_grid *g)
{
    int32_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            n += dg_grid_get(g, x, y) == DG_TILE_CORRIDOR && pass_neighbours(g, x, y) == 1;
    return n;
}

TEST(attach_dead_end_policies)
{
    attach_map m, prune;
    map_open(&m, 100, 50);
    map_open(&prune, 100, 50);
    int64_t kept = 0;
    int differ = 0;
    for (uint64_t seed = 0; seed < 40; seed++)
    {
        dg_attach_params p;
        dg_attach_defaults(&p);
        p.target_floor = seed % 2 ? 250 : 0; /* stopped early, or grown to the end */
        p.shape_share = 0;                   /* shapes cut corners after growth met the target */
        p.dead_ends = DG_DEAD_ENDS_KEEP;
        CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
        kept += corridor_dead_ends(&m.grid);
        for (int policy = DG_DEAD_ENDS_PRUNE; policy <= DG_DEAD_ENDS_ROOM; policy++)
        {
            attach_map *out = policy == DG_DEAD_ENDS_PRUNE ? &prune : &m;
            p.dead_ends = policy;
            CHECK(dg_attach_generate(&out->grid, &p, seed, &out->result, NULL, NULL) == DG_OK);
            CHECK(corridor_dead_ends(&out->grid) == 0);
            CHECK(out->result.metrics.dead_ends == 0); /* rooms are at least 3x3 */
            /* the target counts after pruning, unless the frontier ran out first */
            CHECK(out->result.metrics.floor_permille >= p.target_floor ||
                  out->result.metrics.stopped_early == 0);
            CHECK(attach_problem(&out->grid, &out->result, &p) == NULL);
            for (int32_t i = 0; i < out->result.corridor_count; i++) /* each leads somewhere */
                CHECK(out->result.corridors[i].to.kind != DG_REF_NONE);
        }
        differ += memcmp(m.cells, prune.cells, 100 * 50) != 0;
    }
    CHECK(kept > 40);  /* keep really keeps them */
    CHECK(differ > 5); /* the room policy's extra room attempts at corridor ends */
    map_close(&m);
    map_close(&prune);
}

TEST(attach_door_policies)
{
    attach_map m;
    map_open(&m, 80, 40);
    for (uint64_t seed = 0; seed < 30; seed++)
    {
        dg_attach_params p;
        dg_attach_defaults(&p);
        p.loop_min_gain = 4;
        p.doors = DG_DOORS_ROOMS;
        CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
        for (int32_t i = 0; i < m.result.door_count; i++)
        {
            dg_point d = m.result.doors[i].pos;
            int floor_side = dg_grid_get(&m.grid, d.x - 1, d.y) == DG_TILE_FLOOR ||
                             dg_grid_get(&m.grid, d.x + 1, d.y) == DG_TILE_FLOOR ||
                             dg_grid_get(&m.grid, d.x, d.y - 1) == DG_TILE_FLOOR ||
                             dg_grid_get(&m.grid, d.x, d.y + 1) == DG_TILE_FLOOR;
            CHECK(floor_side);
            CHECK(m.result.doors[i].a.kind == DG_REF_ROOM || m.result.doors[i].b.kind == DG_REF_ROOM);
        }
        CHECK(attach_problem(&m.grid, &m.result, &p) == NULL);
        p.doors = DG_DOORS_NONE;
        CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
        CHECK(m.result.door_count == 0 && m.result.metrics.doors == 0);
    }
    map_close(&m);
}

/* Closing the one loop of a map must make its two sides at least gain + 2 apart. */
TEST(attach_loops_only_where_they_save_the_walk)
{
    attach_map m;
    map_open(&m, 90, 45);
    int opened = 0;
    for (uint64_t seed = 0; seed < 40; seed++)
    {
        dg_attach_params p;
        dg_attach_defaults(&p);
        p.loop_min_gain = 12;
        p.loop_max = 1;
        CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
        CHECK(attach_problem(&m.grid, &m.result, &p) == NULL);
        if (m.result.metrics.loops == 0)
            continue;
        opened++;
        /* the loop door is the one whose removal keeps the map connected */
        int found = 0;
        for (int32_t i = 0; i < m.result.door_count && !found; i++)
        {
            dg_point d = m.result.doors[i].pos;
            dg_grid_set(&m.grid, d.x, d.y, DG_TILE_WALL);
            if (grid_connected(&m.grid))
            {
                found = 1;
                int horizontal = pass_at(&m.grid, d.x - 1, d.y);
                int32_t ax = horizontal ? d.x - 1 : d.x, ay = horizontal ? d.y : d.y - 1;
                int32_t bx = horizontal ? d.x + 1 : d.x, by = horizontal ? d.y : d.y + 1;
                int32_t *dist = grid_walk_from(&m.grid, (dg_point){ax, ay}, NULL);
                CHECKF(dist[by * 90 + bx] >= p.loop_min_gain + 2, "seed %llu: detour %d",
                       (unsigned long long)seed, (int)dist[by * 90 + bx]);
                free(dist);
            }
            dg_grid_set(&m.grid, d.x, d.y, DG_TILE_DOOR);
        }
        CHECK(found);
    }
    CHECK(opened > 30);
    map_close(&m);
}

/* An absurd gain cannot make the loop pass quadratic: its work bound ends it. */
TEST(attach_loop_pass_is_bounded)
{
    attach_map m;
    map_open(&m, 300, 200);
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.loop_min_gain = 100000;
    p.loop_max = 1000000;
    CHECK(dg_attach_generate(&m.grid, &p, 4, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.loops == 0);
    p.loop_min_gain = 30; /* an ordinary gain is not cut short on the same map */
    CHECK(dg_attach_generate(&m.grid, &p, 4, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.loops > 50 && attach_problem(&m.grid, &m.result, &p) == NULL);
    map_close(&m);
}

/* Newest-first growth makes long walks, oldest-first short bushy ones:
 * the walk from the first room to the farthest cell. */
TEST(attach_growth_bias_changes_the_shape)
{
    attach_map m;
    map_open(&m, 120, 80);
    int64_t walk[3] = {0, 0, 0};
    for (int growth = 0; growth < 3; growth++)
        for (uint64_t seed = 0; seed < 12; seed++)
        {
            dg_attach_params p;
            dg_attach_defaults(&p);
            p.growth = growth;
            p.target_floor = 250;
            p.loop_min_gain = 0; /* the trees growth makes, without shortcuts */
            CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
            dg_rect first = m.result.rooms[0].rect;
            dg_point centre = {first.x + first.w / 2, first.y + first.h / 2};
            int32_t *dist = grid_walk_from(&m.grid, centre, NULL), far = 0;
            for (int32_t i = 0; i < 120 * 80; i++)
                far = dist[i] > far ? dist[i] : far;
            walk[growth] += far;
            free(dist);
        }
    CHECKF(walk[DG_GROWTH_NEWEST] > walk[DG_GROWTH_UNIFORM] * 2, "newest %lld uniform %lld",
           (long long)walk[1], (long long)walk[0]);
    CHECKF(walk[DG_GROWTH_OLDEST] < walk[DG_GROWTH_UNIFORM], "oldest %lld uniform %lld",
           (long long)walk[2], (long long)walk[0]);
    map_close(&m);
}

/* ---- sizes ---------------------------------------------------------------------------- */

TEST(attach_smallest_maps)
{
    uint8_t cells[25];
    dg_grid g;
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.room_min_w = p.room_min_h = 3;
    dg_result r;
    dg_result_init(&r, NULL);
    CHECK(dg_grid_init(&g, cells, 5, 5, 0) == DG_OK);
    CHECK(dg_attach_generate(&g, &p, 1, &r, NULL, NULL) == DG_OK);
    CHECK(r.room_count == 1 && r.corridor_count == 0 && r.metrics.floor_cells == 9);
    CHECK(r.rooms[0].rect.x == 1 && r.rooms[0].rect.w == 3 && r.exit.x >= 1);
    CHECK(attach_problem(&g, &r, &p) == NULL);
    p.room_min_w = p.room_min_h = p.corridor_min = 1;
    CHECK(dg_grid_init(&g, cells, 3, 3, 0) == DG_OK);
    CHECK(dg_attach_generate(&g, &p, 1, &r, NULL, NULL) == DG_OK);
    CHECK(r.metrics.floor_cells == 1 && dg_grid_get(&g, 1, 1) == DG_TILE_FLOOR);
    CHECK(r.start.x == 1 && r.exit.x == 1 && r.metrics.dead_ends == 0);
    CHECK(attach_problem(&g, &r, &p) == NULL);
    for (int32_t w = 3; w <= 5; w++)
        for (int32_t h = 3; h <= 5; h++)
            for (uint64_t seed = 0; seed < 30; seed++)
            {
                CHECK(dg_grid_init(&g, cells, w, h, 0) == DG_OK);
                CHECK(dg_attach_generate(&g, &p, seed, &r, NULL, NULL) == DG_OK);
                CHECK(attach_problem(&g, &r, &p) == NULL);
            }
    dg_result_free(&r);
}

TEST(attach_large_map)
{
    int32_t side = ATTACH_SANITIZED || !ATTACH_OPTIMIZED ? 1024 : 4096; /* 4096 in the -O2 runner */
    attach_map m;
    map_open(&m, side, side);
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.target_floor = 0; /* grown until nothing fits */
    p.loop_min_gain = 20;
    p.loop_max = 50;
    p.dead_ends = DG_DEAD_ENDS_ROOM;
    CHECK(dg_attach_generate(&m.grid, &p, 2026, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.floor_permille >= 250 && m.result.metrics.loops == 50);
    CHECK(m.result.metrics.stopped_early == 0);
    const char *why = attach_problem(&m.grid, &m.result, &p);
    CHECKF(why == NULL, "%s", why);
    map_close(&m);
}

/* ---- the quality contract ------------------------------------------------------------ */

/* NULL if dg_survey_map finds the map shippable (docs/quality.md), else why. */
static const char *contract_problem(const attach_map *m, dg_quality *q)
{
    if (dg_survey_map(&m->grid, &m->result, q, NULL, NULL) != DG_OK)
        return "survey failed";
    if (q->border_open || q->unreachable || q->doorless_joins || q->dead_doors)
        return "open border, unreachable cell, doorless join or dead door";
    if (!q->start_in_room || !q->exit_in_room || q->start_is_exit)
        return "start or exit not in a room, or the same cell";
    if (q->exit_rank_permille > 100)
        return "exit not among the farthest tenth";
    if (q->parallel_cells)
        return "corridors side by side";
    return NULL;
}

TEST(attach_defaults_make_shippable_maps)
{
    const int32_t sizes[][2] = {{5, 5}, {80, 25}, {80, 50}, {200, 120}, {200, 200}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
        int seeds = sizes[i][0] >= 200 ? 12 : ATTACH_SANITIZED ? 100 : 300;
        int64_t loops = 0;
        for (int growth = DG_GROWTH_UNIFORM; growth <= DG_GROWTH_OLDEST; growth++)
            for (int seed = 0; seed < seeds && !test_failures(); seed++)
            {
                attach_map m;
                map_open(&m, sizes[i][0], sizes[i][1]);
                dg_attach_params p;
                dg_attach_defaults(&p);
                p.growth = growth;
                p.loop_min_gain = seed % 5 == 4 ? 0 : p.loop_min_gain; /* a tree, too */
                CHECK(dg_attach_generate(&m.grid, &p, (uint64_t)seed, &m.result, NULL, NULL) == DG_OK);
                dg_quality q;
                const char *why = contract_problem(&m, &q);
                CHECKF(why == NULL, "%dx%d growth %d seed %d: %s", (int)sizes[i][0],
                       (int)sizes[i][1], growth, seed, why);
                why = attach_problem(&m.grid, &m.result, &p);
                CHECKF(why == NULL, "%dx%d seed %d: %s", (int)sizes[i][0], (int)sizes[i][1], seed, why);
                CHECK(p.loop_min_gain > 0 || m.result.metrics.loops == 0);
                loops += m.result.metrics.loops;
                map_close(&m);
            }
        if (sizes[i][0] >= 80) /* loops by default: well over one a map */
            CHECKF(loops > 3 * seeds, "%dx%d: %lld loops", (int)sizes[i][0], (int)sizes[i][1],
                   (long long)loops);
    }
}

/* Floor in each ninth of the map, per mille of that ninth's cells. */
static int32_t emptiest_ninth(const dg_grid *g)
{
    int32_t least = 1000;
    for (int32_t by = 0; by < 3; by++)
        for (int32_t bx = 0; bx < 3; bx++)
        {
            int32_t x0 = g->width * bx / 3, x1 = g->width * (bx + 1) / 3;
            int32_t y0 = g->height * by / 3, y1 = g->height * (by + 1) / 3, open = 0;
            for (int32_t y = y0; y < y1; y++)
                for (int32_t x = x0; x < x1; x++)
                    open += dg_tile_passable(dg_grid_get(g, x, y));
            int32_t permille = (int32_t)((int64_t)open * 1000 / ((x1 - x0) * (y1 - y0)));
            least = permille < least ? permille : least;
        }
    return least;
}

TEST(attach_floor_spreads_over_the_map)
{
    const int32_t sizes[][2] = {{80, 50}, {200, 120}, {200, 200}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int growth = DG_GROWTH_UNIFORM; growth <= DG_GROWTH_NEWEST; growth++)
            for (uint64_t seed = 0; seed < 10; seed++)
            {
                attach_map m;
                map_open(&m, sizes[i][0], sizes[i][1]);
                dg_attach_params p;
                dg_attach_defaults(&p);
                p.growth = growth;
                CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
                int32_t least = emptiest_ninth(&m.grid);
                CHECKF(least >= 120, "%dx%d growth %d seed %llu: a ninth with %d permille floor",
                       (int)sizes[i][0], (int)sizes[i][1], growth, (unsigned long long)seed,
                       (int)least);
                map_close(&m);
            }
}

TEST(attach_dense_packs_wall_to_wall)
{
    int64_t floor[2] = {0, 0}, parallel[2] = {0, 0};
    for (int dense = 0; dense <= 1; dense++)
        for (uint64_t seed = 0; seed < 40; seed++)
        {
            attach_map m;
            map_open(&m, 80, 50);
            dg_attach_params p;
            dg_attach_defaults(&p);
            p.dense = dense;
            p.target_floor = 0; /* grown until nothing fits */
            CHECK(dg_attach_generate(&m.grid, &p, seed, &m.result, NULL, NULL) == DG_OK);
            const char *why = attach_problem(&m.grid, &m.result, &p);
            CHECKF(why == NULL, "dense %d seed %llu: %s", dense, (unsigned long long)seed, why);
            dg_quality q;
            CHECK(dg_survey_map(&m.grid, &m.result, &q, NULL, NULL) == DG_OK);
            floor[dense] += q.floor_permille;
            parallel[dense] += q.parallel_cells;
            map_close(&m);
        }
    CHECK(parallel[0] == 0 && parallel[1] > 0);    /* dense: corridors may run side by side */
    CHECK(floor[1] > floor[0] + 40 * 80);          /* and pack more than 8% more floor */
}

/* ---- golden outputs ---------------------------------------------------------------- */

static uint64_t result_digest(const dg_result *r)
{
    uint64_t h = 0xCBF29CE484222325ULL;
#define MIX(v) h = (h ^ (uint64_t)(uint32_t)(v)) * 0x100000001B3ULL
    for (int32_t i = 0; i < r->room_count; i++)
    {
        MIX(r->rooms[i].rect.x); MIX(r->rooms[i].rect.y); MIX(r->rooms[i].rect.w);
        MIX(r->rooms[i].rect.h); MIX(r->rooms[i].parent);
    }
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        MIX(c->start.x); MIX(c->start.y); MIX(c->end.x); MIX(c->end.y); MIX(c->length);
        MIX(c->from.kind); MIX(c->from.index); MIX(c->to.kind); MIX(c->to.index);
    }
    for (int32_t i = 0; i < r->door_count; i++)
    {
        MIX(r->doors[i].pos.x); MIX(r->doors[i].pos.y); MIX(r->doors[i].a.kind);
        MIX(r->doors[i].a.index); MIX(r->doors[i].b.kind); MIX(r->doors[i].b.index);
    }
    MIX(r->start.x); MIX(r->start.y); MIX(r->exit.x); MIX(r->exit.y); MIX(r->exit_room);
    const int32_t *m = &r->metrics.cells;
    for (size_t i = 0; i < offsetof(dg_metrics, spare) / sizeof(int32_t); i++)
        MIX(m[i]);
#undef MIX
    return h;
}

TEST(attach_golden_outputs)
{
    static const struct {
        int32_t w, h;
        uint64_t seed;
        void (*tweak)(dg_attach_params *p);
        uint64_t grid_hash, result_hash;
    } golden[] = {
        {80, 25, 1, tweak_defaults,
         0xb1b3b0ae7688ca1cULL, 0xfb7a837655352fc0ULL},
        {80, 50, 42, tweak_linear,
         0x7b57496f245f3e8fULL, 0xc9e6fcaaeac0e38dULL},
        {100, 60, 3, tweak_bushy_loops,
         0xb5fe37b9f304c00dULL, 0xd1131fad552e51d1ULL},
        {70, 30, 2026, tweak_dead_end_rooms,
         0x0dac43bd28982e5bULL, 0x3a19983bcf0ce9baULL},
        {31, 19, 7, tweak_tiny_features,
         0xc81044d3f95f3238ULL, 0x16d52a9e8de2866dULL},
        {200, 120, 99, tweak_big_rooms,
         0x315ad91a7b0ac286ULL, 0x5f4cdd328c319897ULL},
        {80, 25, 1, tweak_dense, /* exactly 0.3's defaults */
         0xaffe29b0f949ba85ULL, 0x8ac3c800f66522f3ULL},
    };
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++)
    {
        attach_map m;
        map_open(&m, golden[i].w, golden[i].h);
        dg_attach_params p;
        dg_attach_defaults(&p);
        golden[i].tweak(&p);
        CHECK(dg_attach_generate(&m.grid, &p, golden[i].seed, &m.result, NULL, NULL) == DG_OK);
        if (getenv("ATTACH_PRINT_GOLDEN"))
            printf("        0x%016llxULL, 0x%016llxULL\n", (unsigned long long)dg_grid_hash(&m.grid),
                   (unsigned long long)result_digest(&m.result));
        CHECK_EQ_U64(dg_grid_hash(&m.grid), golden[i].grid_hash);
        CHECK_EQ_U64(result_digest(&m.result), golden[i].result_hash);
        map_close(&m);
    }
}

/* A game's own globals named like the generator's old private functions: the
 * library's are dgi_att_* now, so the runner links and both work. */
int32_t att_dead_end_count(const void *game);
int32_t att_dead_end_count(const void *game) { return game ? 7 : 0; }
int att_loops(int n);
int att_loops(int n) { return n + 1; }
int att_grow(void);
int att_grow(void) { return 3; }

TEST(hyg_attach_game_may_define_att_names)
{
    CHECK(att_dead_end_count("game") == 7 && att_loops(1) == 2 && att_grow() == 3);
    attach_map m;
    map_open(&m, 80, 40);
    dg_attach_params p;
    dg_attach_defaults(&p);
    p.dead_ends = DG_DEAD_ENDS_KEEP;
    p.loop_min_gain = 4;
    CHECK(dg_attach_generate(&m.grid, &p, 5, &m.result, NULL, NULL) == DG_OK);
    CHECK(m.result.metrics.loops > 0 && m.result.metrics.dead_ends > 0);
    CHECK(attach_problem(&m.grid, &m.result, &p) == NULL);
    map_close(&m);
}
