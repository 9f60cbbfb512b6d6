/* Shared machinery of the hardening tests and fuzz targets (see hard.h). */
#include "hard.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define HARD_CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

/* ---- counting allocator ------------------------------------------------------ */
/* Each block carries a header with its size and a cookie, so a free with the
 * wrong size or of a block this allocator did not hand out is counted. */
#define HARD_COOKIE 0x48415244u /* "HARD" */
typedef union hard_header {
    struct {
        size_t size;
        uint32_t cookie;
    } h;
    max_align_t align;
} hard_header;

static void *hard_alloc_fn(void *user, size_t size)
{
    hard_alloc *h = user;
    h->calls++;
    if (h->fail_at > 0 && (h->calls == h->fail_at || (h->fail_after && h->calls > h->fail_at)))
    {
        h->failed++;
        return NULL;
    }
    if (size > SIZE_MAX - sizeof(hard_header))
        return NULL;
    hard_header *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->h.size = size;
    b->h.cookie = HARD_COOKIE;
    h->live++;
    h->live_bytes += (int64_t)size;
    if (h->live_bytes > h->peak_bytes)
        h->peak_bytes = h->live_bytes;
    /* fresh memory is garbage, never zero by luck */
    memset(b + 1, 0xCD, size);
    return b + 1;
}

static void hard_free_fn(void *user, void *ptr, size_t size)
{
    hard_alloc *h = user;
    if (!ptr)
        return;
    hard_header *b = (hard_header *)ptr - 1;
    if (b->h.cookie != HARD_COOKIE || b->h.size != size)
    {
        h->bad_frees++;
        return; /* leak it rather than corrupt the heap; the count says why */
    }
    b->h.cookie = 0;
    h->live--;
    h->live_bytes -= (int64_t)size;
    free(b);
}

void hard_alloc_init(hard_alloc *h, int64_t fail_at)
{
    memset(h, 0, sizeof *h);
    h->hooks.alloc = hard_alloc_fn;
    h->hooks.free = hard_free_fn;
    h->hooks.user = h;
    h->fail_at = fail_at;
}

int hard_alloc_clean(const hard_alloc *h)
{
    return h->live == 0 && h->live_bytes == 0 && h->bad_frees == 0;
}

/* ---- fuzz bytes ---------------------------------------------------------------- */
uint8_t hard_u8(hard_input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

uint32_t hard_u32(hard_input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)hard_u8(in) << (8 * i);
    return v;
}

uint64_t hard_u64(hard_input *in)
{
    uint64_t lo = hard_u32(in);
    return lo | (uint64_t)hard_u32(in) << 32;
}

int32_t hard_param(hard_input *in, int32_t lo, int32_t hi)
{
    uint8_t sel = hard_u8(in);
    if (sel < 224) /* the common case: a valid value */
    {
        uint32_t span = (uint32_t)((int64_t)hi - lo + 1);
        uint32_t v = (uint32_t)hard_u8(in) | (uint32_t)hard_u8(in) << 8;
        return (int32_t)((int64_t)lo + (span ? v % span : 0));
    }
    switch (sel & 7)
    {
    case 0: return 0;
    case 1: return -1;
    case 2: return lo == INT32_MIN ? lo : lo - 1;
    case 3: return hi == INT32_MAX ? hi : hi + 1;
    case 4: return INT32_MIN;
    case 5: return INT32_MAX;
    case 6: return INT32_MAX / 2 + 1;
    default: return (int32_t)hard_u32(in);
    }
}

/* A fill tile: a library tile or a caller's (>= DG_TILE_USER), now and then an
 * invalid value (-1, 256) so validation is reached; never the reserved 10..63,
 * which the validator would (rightly) flag in the output. */
static int32_t hard_tile(hard_input *in)
{
    uint8_t v = hard_u8(in);
    if (v == 255)
        return hard_u8(in) & 1 ? -1 : 256;
    return v < 128 ? v % DG_TILE_COUNT : DG_TILE_USER + v % 128;
}

/* ---- world: windows of shared worlds ---------------------------------------------- */
static void world_variant(dg_world_params *p, int variant)
{
    dg_world_defaults(p);
    switch (variant)
    {
    case 1: p->room_size = 3; p->loop_permille = 0; break;
    case 2: p->room_size = 15; p->loop_permille = 300; p->dead_end_fix = 1000; break;
    case 3: p->room_size = 125; p->loop_permille = 1000; break;
    default: break;
    }
}

/* Variant 4 of the world is furnished from the sample furnishing set. */
static void world_variant_ctx(dg_world_params *p, int variant, const hard_ctx *ctx)
{
    world_variant(p, variant);
    if (variant == 4)
    {
        p->furnishing = ctx->sets[HARD_SET_FURNISH];
        p->dead_end_fix = 500;
    }
}

static uint64_t world_markers_hash(const dg_world_marker *m, int32_t n)
{
    uint64_t h = (uint64_t)n;
    for (int32_t i = 0; i < n; i++)
    {
        h = dg_hash_combine(h, (uint64_t)m[i].x);
        h = dg_hash_combine(h, (uint64_t)m[i].y);
        h = dg_hash_combine(h, (uint64_t)m[i].room_x ^ ((uint64_t)m[i].room_y << 1));
        h = dg_hash_combine(h, (uint64_t)(uint32_t)m[i].kind << 32 | (uint32_t)m[i].difficulty);
        for (int k = 0; k < DG_NAME_MAX && m[i].name[k]; k++)
            h = dg_hash_combine(h, (uint8_t)m[i].name[k]);
    }
    return h;
}

/* Renders the window at (tx, ty) with its markers; *extra gets their hash. */
static dg_status world_window(const dg_world *w, int64_t tx, int64_t ty, dg_grid *grid,
                              dg_diag *diag, uint64_t *extra)
{
    int32_t count = 0;
    dg_status st = dg_world_render(w, tx, ty, grid, NULL, 0, &count, diag);
    if (st != DG_OK || !extra)
        return st;
    dg_world_marker *m = malloc((size_t)(count ? count : 1) * sizeof *m);
    if (!m)
        return DG_E_NOMEM;
    st = dg_world_render(w, tx, ty, grid, m, count, &count, diag);
    *extra = world_markers_hash(m, count);
    free(m);
    return st;
}

static dg_status world_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                           dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                           uint64_t *extra)
{
    (void)result;
    (void)alloc;
    const dg_world *w = ctx->worlds[variant];
    int64_t p = dg_world_period(w);
    uint64_t h = dg_hash64(seed);
    int64_t tx = (int64_t)(h % 4001) - 2000, ty = (int64_t)((h >> 24) % 4001) - 2000;
    if (seed % 4 == 3) /* near the far corner of the range */
    {
        tx = (DG_WORLD_COORD_MAX + 1) * p - grid->width - (int64_t)(h % 7);
        ty = -DG_WORLD_COORD_MAX * p + (int64_t)((h >> 8) % 5);
    }
    if (extra)
        *extra = 0;
    return world_window(w, tx, ty, grid, diag, extra);
}

static int64_t fuzz_coord(hard_input *in, int64_t period)
{
    uint8_t how = hard_u8(in);
    int64_t edge = DG_WORLD_COORD_MAX * period;
    int64_t small = (int64_t)(int16_t)(hard_u8(in) | hard_u8(in) << 8);
    switch (how % 4)
    {
    case 0: return (int64_t)hard_u64(in); /* anything, mostly out of range */
    case 1: return edge - small;          /* around the far edge */
    case 2: return -edge + small;
    default: return small;
    }
}

/* Door symmetry and distance of room (x, y) against its east and south neighbours. */
static const char *world_room_invariants(const dg_world *w, int64_t x, int64_t y)
{
    dg_world_room a, e, s;
    if (dg_world_room_info(w, x, y, &a) != DG_OK)
        return NULL;
    int64_t ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    if (a.distance != ax + ay || a.x != x || a.y != y)
        return "room distance is not |x| + |y|";
    if ((x != 0 || y != 0) && (a.parent == 0 || !(a.doors & a.parent)))
        return "room without a door toward its parent";
    if (dg_world_room_info(w, x + 1, y, &e) == DG_OK &&
        !!(a.doors & DG_SIDE_E) != !!(e.doors & DG_SIDE_W))
        return "east/west doors not symmetric";
    if (dg_world_room_info(w, x, y + 1, &s) == DG_OK &&
        !!(a.doors & DG_SIDE_S) != !!(s.doors & DG_SIDE_N))
        return "south/north doors not symmetric";
    return NULL;
}

static dg_status world_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            hard_fuzz_out *out)
{
    (void)result;
    dg_world_params p;
    dg_world_defaults(&p);
    p.room_size = hard_param(in, 1, 41);
    p.loop_permille = hard_param(in, 0, 1000);
    p.dead_end_fix = hard_param(in, 0, 1000);
    p.furnish_permille = hard_param(in, 0, 1000);
    p.variants = hard_param(in, 1, 8);
    p.room_min = hard_param(in, 1, 41);
    p.border = hard_param(in, 0, 1);
    if (hard_u8(in) & 1)
        p.furnishing = ctx->sets[HARD_SET_FURNISH];
    if (hard_u8(in) & 1)
    {
        p.curve_points = hard_param(in, 0, DG_WORLD_CURVE_MAX);
        for (int i = 0; i < DG_WORLD_CURVE_MAX; i++)
        {
            p.curve_distance[i] = hard_u8(in) & 1 ? (int64_t)hard_u64(in) : 100 * i;
            p.curve_level[i] = hard_param(in, -1000, 1000);
        }
    }
    dg_world *w = NULL;
    dg_status st = dg_world_create(&p, seed, alloc, &w, diag);
    if (st != DG_OK)
    {
        if (w)
            out->violation = "world pointer set on error";
        return st;
    }
    int64_t period = dg_world_period(w);
    int64_t tx = fuzz_coord(in, period), ty = fuzz_coord(in, period);
    int32_t cap = hard_u8(in) % 16;
    dg_world_marker m[16];
    int32_t count = -1;
    st = dg_world_render(w, tx, ty, grid, hard_u8(in) & 1 ? m : NULL, cap, &count, diag);
    if (st == DG_OK && (count < 0 || count > DG_GRID_MAX_CELLS))
        out->violation = "marker count not set";
    for (int i = 0; i < 3 && !out->violation; i++)
        out->violation = world_room_invariants(w, fuzz_coord(in, 1), fuzz_coord(in, 1));
    dg_world_free(w);
    return st;
}

/* ---- chain ------------------------------------------------------------------------ */
static void chain_variant(dg_chain_params *p, int variant)
{
    dg_chain_defaults(p);
    switch (variant)
    {
    case 1:
        p->overlap = DG_CHAIN_OVERLAP_FORBID;
        p->on_stuck = DG_CHAIN_STUCK_STOP;
        p->start = DG_CHAIN_START_FIRST;
        break;
    case 2: p->branch_chance = 300; p->loop_chance = 400; p->border = 0; break;
    case 3:
        p->rooms_min = 40, p->rooms_max = 80;
        p->room_min_w = p->room_min_h = 1, p->room_max_w = p->room_max_h = 4;
        p->corridor_min = 1, p->corridor_max = 3;
        p->overlap = DG_CHAIN_OVERLAP_FORBID;
        p->max_tries = 5;
        break;
    default: break;
    }
}

static dg_status chain_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                           dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                           uint64_t *extra)
{
    (void)ctx;
    dg_chain_params p;
    chain_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_chain_generate(grid, &p, seed, result, alloc, diag);
}

static dg_status chain_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            hard_fuzz_out *out)
{
    (void)ctx;
    dg_chain_params p;
    chain_variant(&p, hard_u8(in) % 4);
    p.rooms_min = hard_param(in, 1, 60);
    p.rooms_max = hard_param(in, 1, 120);
    p.room_min_w = hard_param(in, 1, 12);
    p.room_max_w = hard_param(in, 1, 30);
    p.room_min_h = hard_param(in, 1, 12);
    p.room_max_h = hard_param(in, 1, 30);
    p.corridor_min = hard_param(in, 0, 10);
    p.corridor_max = hard_param(in, 0, 40);
    p.overlap = hard_param(in, 0, 1);
    p.max_tries = hard_param(in, 1, 40);
    p.on_stuck = hard_param(in, 0, 1);
    p.branch_chance = hard_param(in, 0, 1000);
    p.loop_chance = hard_param(in, 0, 1000);
    p.loop_reach = hard_param(in, 0, 60);
    p.start = hard_param(in, 0, 1);
    p.border = hard_param(in, 0, 1);
    /* docs/chain.md: attempts <= rooms_max * (t * (max_tries + 1) + 18) */
    int64_t tries = HARD_CLAMP(p.max_tries, 1, 1000), rooms = HARD_CLAMP(p.rooms_max, 0, 1000000);
    int64_t t = p.overlap == DG_CHAIN_OVERLAP_FORBID ? tries : 1;
    out->work_bound = rooms * (t * (tries + 1) + 18); /* used only when the call succeeds */
    return dg_chain_generate(grid, &p, seed, result, alloc, diag);
}

/* ---- attach --------------------------------------------------------------------------- */
static void attach_variant(dg_attach_params *p, int variant)
{
    dg_attach_defaults(p);
    switch (variant)
    {
    case 1:
        p->growth = DG_GROWTH_NEWEST, p->loop_min_gain = 10, p->loop_max = 20;
        p->dead_ends = DG_DEAD_ENDS_PRUNE, p->doors = DG_DOORS_ALL;
        break;
    case 2:
        p->growth = DG_GROWTH_OLDEST, p->dead_ends = DG_DEAD_ENDS_KEEP;
        p->doors = DG_DOORS_NONE, p->target_floor = 350;
        break;
    case 3:
        p->room_min_w = p->room_min_h = 1, p->room_max_w = p->room_max_h = 3;
        p->corridor_min = 1, p->corridor_max = 2, p->max_features = 400;
        p->room_after_corridor = 1000, p->max_attempts = 3000, p->max_failures = 0;
        break;
    default: break;
    }
}

static dg_status attach_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            uint64_t *extra)
{
    (void)ctx;
    dg_attach_params p;
    attach_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_attach_generate(grid, &p, seed, result, alloc, diag);
}

static dg_status attach_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                             dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                             hard_fuzz_out *out)
{
    (void)ctx;
    dg_attach_params p;
    attach_variant(&p, hard_u8(in) % 4);
    p.room_min_w = hard_param(in, 1, 12);
    p.room_max_w = hard_param(in, 1, 30);
    p.room_min_h = hard_param(in, 1, 12);
    p.room_max_h = hard_param(in, 1, 30);
    p.corridor_min = hard_param(in, 1, 10);
    p.corridor_max = hard_param(in, 1, 40);
    p.max_features = hard_param(in, 0, 2000);
    p.room_after_corridor = hard_param(in, 0, 1000);
    p.target_floor = hard_param(in, 0, 1000);
    p.max_attempts = hard_param(in, 0, 20000);
    p.max_failures = hard_param(in, 0, 1000);
    p.growth = hard_param(in, 0, 2);
    p.loop_min_gain = hard_param(in, 0, 40);
    p.loop_max = hard_param(in, 0, 40);
    p.dead_ends = hard_param(in, 0, 2);
    p.doors = hard_param(in, 0, 2);
    p.dense = hard_param(in, 0, 1);
    /* the header: metrics.attempts never exceeds max_attempts (0: 50 per budgeted feature) */
    int64_t budget = p.max_features > 0 ? p.max_features
                                        : (int64_t)grid->width * grid->height / 16;
    out->work_bound = p.max_attempts > 0 ? p.max_attempts : 50 * budget;
    return dg_attach_generate(grid, &p, seed, result, alloc, diag);
}

/* ---- prefab generators over the sample sets ---------------------------------------------- */
static dg_status full_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                          dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                          uint64_t *extra)
{
    dg_prefab_full_params p;
    dg_prefab_full_defaults(&p);
    if (variant == 1)
    {
        p.keep = 1;
        p.orientations = 1 << DG_ORIENT_ROT90 | 1 << DG_ORIENT_MIRROR_X;
    }
    if (extra)
        *extra = 0;
    return dg_prefab_full_generate(grid, ctx->sets[HARD_SET_SHAFT], &p, seed, result, alloc, diag);
}

static dg_status full_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                           dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                           hard_fuzz_out *out)
{
    (void)out;
    dg_prefab_full_params p;
    dg_prefab_full_defaults(&p);
    static const char *const names[4] = {NULL, "shaft", "nothing", ""};
    p.name = names[hard_u8(in) % 4];
    p.tag = hard_u8(in) & 1 ? "shaft" : NULL;
    p.orientations = hard_param(in, 0, 255);
    p.keep = hard_param(in, 0, 1);
    p.fill = hard_tile(in);
    p.border = hard_param(in, 0, 1);
    return dg_prefab_full_generate(grid, ctx->sets[hard_u8(in) % HARD_SETS], &p, seed, result,
                                   alloc, diag);
}

static void jigsaw_variant(dg_prefab_jigsaw_params *p, int variant)
{
    dg_prefab_jigsaw_defaults(p);
    if (variant == 1)
        p->seams = DG_SEAM_ANY, p->unique = 0, p->connected = 0;
    if (variant == 2)
        p->seams = DG_SEAM_OPEN, p->orientations = 1 << DG_ORIENT_IDENTITY | 1 << DG_ORIENT_ROT180;
}

static dg_status jigsaw_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            uint64_t *extra)
{
    dg_prefab_jigsaw_params p;
    jigsaw_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_prefab_jigsaw_generate(grid, ctx->sets[HARD_SET_FOREST], &p, seed, result, alloc,
                                     diag);
}

static dg_status jigsaw_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                             dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                             hard_fuzz_out *out)
{
    (void)out;
    dg_prefab_jigsaw_params p;
    jigsaw_variant(&p, hard_u8(in) % 3);
    p.tag = hard_u8(in) & 1 ? "forest" : NULL;
    p.block_w = hard_param(in, 0, 12);
    p.block_h = hard_param(in, 0, 12);
    p.orientations = hard_param(in, 0, 255);
    p.unique = hard_param(in, 0, 1);
    p.seams = hard_param(in, 0, 2);
    p.connected = hard_param(in, 0, 1);
    p.max_tries = hard_param(in, 1, 8);
    p.fill = hard_tile(in);
    p.border = hard_param(in, 0, 1);
    return dg_prefab_jigsaw_generate(grid, ctx->sets[hard_u8(in) % HARD_SETS], &p, seed, result,
                                     alloc, diag);
}

static void islands_variant(dg_prefab_islands_params *p, int variant)
{
    dg_prefab_islands_defaults(p);
    if (variant == 1)
        p->keep = 1, p->margin = 0;
    if (variant == 2)
        p->margin = 3, p->positions = 10, p->connected = 0;
}

static dg_status islands_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                             dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                             uint64_t *extra)
{
    dg_prefab_islands_params p;
    islands_variant(&p, variant);
    if (extra)
        *extra = 0;
    return dg_prefab_islands_generate(grid, ctx->sets[HARD_SET_FACTORY], &p, seed, result, alloc,
                                      diag);
}

static dg_status islands_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                              dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                              hard_fuzz_out *out)
{
    (void)out;
    dg_prefab_islands_params p;
    islands_variant(&p, hard_u8(in) % 3);
    dg_prefab_group groups[3] = {{"start", 1, 1, 1}, {"store", 0, 4, 0}, {"workshop", 1, -1, 0}};
    int32_t n = hard_u8(in) % 4;
    for (int32_t i = 0; i < n; i++)
    {
        groups[i].min = hard_param(in, 0, 5);
        groups[i].max = hard_param(in, -1, 8);
    }
    p.groups = n ? groups : NULL;
    /* a count past the array would be the harness's own overflow, not the library's */
    p.group_count = n ? hard_param(in, 0, n) : 0;
    if (p.group_count > n)
        p.group_count = n;
    p.orientations = hard_param(in, 0, 255);
    p.margin = hard_param(in, -1, 6);
    p.positions = hard_param(in, 1, 40);
    p.max_failures = hard_param(in, 1, 30);
    p.keep = hard_param(in, 0, 1);
    p.fill = hard_tile(in);
    p.connected = hard_param(in, 0, 1);
    p.max_tries = hard_param(in, 1, 6);
    p.border = hard_param(in, 0, 1);
    return dg_prefab_islands_generate(grid, ctx->sets[hard_u8(in) % HARD_SETS], &p, seed, result,
                                      alloc, diag);
}

/* Mixed: vaults stamped into a chain map. The chain map is drawn without the
 * allocator under test; on error the grid must still hold it. */
static dg_status mixed_on_chain(const hard_ctx *ctx, const dg_prefab_mixed_params *p,
                                const dg_prefab_set *set, dg_grid *grid, uint64_t seed,
                                dg_result *result, const dg_allocator *alloc, dg_diag *diag)
{
    dg_chain_params cp;
    chain_variant(&cp, (int)(seed % 3));
    dg_result base;
    dg_result_init(&base, NULL);
    /* the base rooms go into result (through its allocator, which may fail) */
    dg_status st = dg_chain_generate(grid, &cp, seed, result ? result : &base, NULL, NULL);
    dg_result_free(&base);
    if (st == DG_E_NOMEM)
        return st;
    if (st != DG_OK)
    {
        /* no room for a chain: vaults go onto a plain floor */
        dg_grid_fill(grid, DG_TILE_FLOOR);
        if (result)
            dg_result_free(result);
    }
    uint64_t before = dg_grid_hash(grid);
    (void)ctx;
    st = dg_prefab_mixed_generate(grid, set, p, seed, result, alloc, diag);
    if (st != DG_OK && dg_grid_hash(grid) != before)
        return HARD_E_CHANGED;
    return st;
}

static dg_status mixed_run(const hard_ctx *ctx, int variant, dg_grid *grid, uint64_t seed,
                           dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                           uint64_t *extra)
{
    dg_prefab_mixed_params p;
    dg_prefab_mixed_defaults(&p);
    if (variant == 1)
        p.in_rooms = 0, p.unique = 0, p.count = 8;
    if (extra)
        *extra = 0;
    return mixed_on_chain(ctx, &p, ctx->sets[HARD_SET_VAULTS], grid, seed, result, alloc, diag);
}

static dg_status mixed_fuzz(const hard_ctx *ctx, hard_input *in, dg_grid *grid, uint64_t seed,
                            dg_result *result, const dg_allocator *alloc, dg_diag *diag,
                            hard_fuzz_out *out)
{
    (void)out;
    dg_prefab_mixed_params p;
    dg_prefab_mixed_defaults(&p);
    p.tag = hard_u8(in) & 1 ? "vault" : NULL;
    p.mode = hard_param(in, 0, 15);
    p.count = hard_param(in, 0, 12);
    p.orientations = hard_param(in, 0, 255);
    p.positions = hard_param(in, 1, 300);
    p.in_rooms = hard_param(in, 0, 1);
    p.unique = hard_param(in, 0, 1);
    return mixed_on_chain(ctx, &p, ctx->sets[hard_u8(in) % HARD_SETS], grid, seed, result, alloc,
                          diag);
}

/* ---- shared objects ------------------------------------------------------------------ */
static const char *const set_files[HARD_SETS] = {
    "examples/prefabs/shaft.txt", "examples/prefabs/forest.txt", "examples/prefabs/factory.txt",
    "examples/prefabs/furnish.txt", "examples/prefabs/vaults.txt"};

dg_status hard_ctx_open(hard_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    for (int i = 0; i < HARD_SETS; i++)
    {
        dg_status st = dg_prefab_load(set_files[i], NULL, NULL, NULL, &ctx->sets[i], NULL);
        if (st != DG_OK)
        {
            hard_ctx_close(ctx);
            return st;
        }
    }
    for (int v = 0; v < HARD_WORLDS; v++)
    {
        dg_world_params p;
        world_variant_ctx(&p, v, ctx);
        dg_status st = dg_world_create(&p, 0xD06 + (uint64_t)v, NULL, &ctx->worlds[v], NULL);
        if (st != DG_OK)
        {
            hard_ctx_close(ctx);
            return st;
        }
    }
    ctx->ready = 1;
    return DG_OK;
}

void hard_ctx_close(hard_ctx *ctx)
{
    for (int v = 0; v < HARD_WORLDS; v++)
        dg_world_free(ctx->worlds[v]);
    for (int i = 0; i < HARD_SETS; i++)
        dg_prefab_set_free(ctx->sets[i]);
    memset(ctx, 0, sizeof *ctx);
}

/* ---- the generator table --------------------------------------------------------------- */
const dg_prefab_set *hard_gen_set(const hard_ctx *ctx, const char *name)
{
    static const char *const users[HARD_SETS] = {"prefab-full", "prefab-jigsaw", "prefab-islands",
                                                 "world", "prefab-mixed"};
    for (int i = 0; ctx && i < HARD_SETS; i++)
        if (strcmp(name, users[i]) == 0)
            return i == HARD_SET_FURNISH ? NULL : ctx->sets[i];
    return NULL;
}

/* ---- one call of a generator's own function with a registry-laid-out params struct --- */
dg_status hard_gen_call(const hard_ctx *ctx, const char *name, dg_grid *grid, const void *params,
                        uint64_t seed, dg_result *result, const dg_allocator *alloc, dg_diag *diag)
{
    if (strcmp(name, "world") == 0)
    {
        dg_world *w = NULL;
        dg_status st = dg_world_create(params, seed, alloc, &w, diag);
        if (st == DG_OK)
            st = world_window(w, -(grid ? grid->width : 0) / 2, -(grid ? grid->height : 0) / 2,
                              grid, diag, NULL);
        dg_world_free(w);
        return st;
    }
#define HARD_CALL(gen, fn) \
    if (strcmp(name, gen) == 0) \
        return fn(grid, params, seed, result, alloc, diag);
#define HARD_CALL_SET(gen, fn, set) \
    if (strcmp(name, gen) == 0) \
        return fn(grid, hard_gen_set(ctx, gen), params, seed, result, alloc, diag);
    HARD_CALL("attach", dg_attach_generate)
    HARD_CALL("chain", dg_chain_generate)
    HARD_CALL("cave", dg_cave_generate)
    HARD_CALL("bsp", dg_bsp_generate)
    HARD_CALL("maze", dg_maze_generate)
    HARD_CALL("walk", dg_walk_generate)
    HARD_CALL("scatter", dg_scatter_generate)
    if (strcmp(name, "graph") == 0) /* its input is a level graph, not params */
        return hard_graph_call(grid, seed, result, alloc, diag);
    HARD_CALL_SET("prefab-full", dg_prefab_full_generate, HARD_SET_SHAFT)
    HARD_CALL_SET("prefab-jigsaw", dg_prefab_jigsaw_generate, HARD_SET_FOREST)
    HARD_CALL_SET("prefab-islands", dg_prefab_islands_generate, HARD_SET_FACTORY)
    HARD_CALL_SET("prefab-mixed", dg_prefab_mixed_generate, HARD_SET_VAULTS)
#undef HARD_CALL
#undef HARD_CALL_SET
    return DG_E_INVALID; /* not a generator this file knows: a new one needs a line here */
}

const hard_gen hard_gens[] = {
    {"attach", 4, 1, attach_run, attach_fuzz, 80, 50, 0},
    {"chain", 4, 1, chain_run, chain_fuzz, 80, 50, 0},
    {"prefab-full", 2, 1, full_run, full_fuzz, 52, 24, 0},
    {"prefab-jigsaw", 3, 1, jigsaw_run, jigsaw_fuzz, 63, 45, 0},
    {"prefab-islands", 3, 1, islands_run, islands_fuzz, 70, 45, 0},
    {"prefab-mixed", 2, 1, mixed_run, mixed_fuzz, 80, 50, 1},
    {"world", HARD_WORLDS, 0, world_run, world_fuzz, 61, 47, 0},
    {"cave", 3, 1, hard_cave_run, hard_cave_fuzz, 80, 50, 0},
    {"bsp", 3, 1, hard_bsp_run, hard_bsp_fuzz, 80, 50, 0},
    {"maze", 3, 1, hard_maze_run, hard_maze_fuzz, 80, 50, 0},
    {"walk", 3, 1, hard_walk_run, hard_walk_fuzz, 80, 50, 0},
    {"scatter", 3, 1, hard_scatter_run, hard_scatter_fuzz, 80, 50, 0},
    {"graph", 3, 1, hard_graph_run, hard_graph_fuzz, 80, 50, 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, 0},
};

int hard_gen_count(void)
{
    int n = 0;
    while (hard_gens[n].name)
        n++;
    return n;
}

const hard_gen *hard_find_gen(const char *name)
{
    for (const hard_gen *g = hard_gens; g->name; g++)
        if (strcmp(g->name, name) == 0)
            return g;
    return NULL;
}

uint64_t hard_run_hash(const hard_ctx *ctx, const hard_gen *gen, int variant, int32_t w,
                       int32_t h, uint64_t seed)
{
    uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
    dg_grid grid;
    if (!cells || dg_grid_init(&grid, cells, w, h, 0) != DG_OK)
    {
        free(cells);
        return 0;
    }
    dg_result result;
    dg_result_init(&result, NULL);
    uint64_t extra = 0;
    dg_status st = gen->run(ctx, variant, &grid, seed, &result, NULL, NULL, &extra);
    uint64_t hash = dg_hash_combine((uint64_t)(uint32_t)st, dg_grid_hash(&grid));
    if (gen->has_result)
        hash = dg_hash_combine(hash, hard_result_hash(&result));
    hash = dg_hash_combine(hash, extra);
    dg_result_free(&result);
    free(cells);
    return hash;
}

/* ---- analysis operations ------------------------------------------------------------ */
/* The k-th passable cell (row-major, k taken modulo their number), or (0, 0). */
static dg_point some_passable(const dg_grid *g, uint64_t k)
{
    int64_t n = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            n += dg_tile_passable(dg_grid_get(g, x, y));
    dg_point p = {0, 0};
    if (n == 0)
        return p;
    int64_t want = (int64_t)(k % (uint64_t)n);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dg_tile_passable(dg_grid_get(g, x, y)) && want-- == 0)
            {
                p.x = x;
                p.y = y;
                return p;
            }
    return p;
}

/* The int32 outputs of an analysis call as little-endian bytes (a no-op on
 * little-endian machines), so hard_op_hash is the same on every byte order;
 * only after DG_OK, as outputs are untouched otherwise. */
static dg_status le32(dg_status st, uint8_t *out, size_t bytes)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; st == DG_OK && i + 4 <= bytes; i += 4)
    {
        uint8_t t = out[i];
        out[i] = out[i + 3], out[i + 3] = t;
        t = out[i + 1];
        out[i + 1] = out[i + 2], out[i + 2] = t;
    }
#else
    (void)out, (void)bytes;
#endif
    return st;
}

static size_t cells_of(const dg_grid *g)
{
    return (size_t)g->width * (size_t)g->height;
}

/* 8-way walking with per-tile costs and Euclid-like weights. */
static void costly_walk(dg_move *walk, uint16_t *cost)
{
    dg_move_defaults(walk);
    for (int t = 0; t < 256; t++)
        cost[t] = (uint16_t)(1 + t % 5);
    walk->cost = cost;
    walk->neighbours = 8;
    walk->straight_weight = 2;
    walk->diagonal_weight = 3;
}

static dg_status op_regions(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                            size_t *used)
{
    (void)a;
    dg_move walk;
    dg_move_defaults(&walk);
    walk.neighbours = seed & 1 ? 8 : 4;
    size_t n = cells_of(g);
    int32_t *labels = (int32_t *)out, *sizes = labels + n, *count = sizes + 16;
    *used = (n + 18) * sizeof(int32_t);
    return le32(dg_regions(g, &walk, labels, n, sizes, 16, count, count + 1, NULL), out, *used);
}

static dg_status op_distance(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                             size_t *used)
{
    dg_path_workspace *ws = NULL;
    dg_status st = dg_path_workspace_create(g->width, g->height, a, &ws);
    if (st != DG_OK)
        return st;
    dg_move walk;
    uint16_t cost[256];
    costly_walk(&walk, cost);
    dg_point src[3] = {some_passable(g, seed), some_passable(g, seed * 7 + 1),
                       some_passable(g, seed * 13 + 5)};
    size_t n = cells_of(g);
    dg_distance_info *info = (dg_distance_info *)out;
    int32_t *dist = (int32_t *)(info + 1);
    *used = sizeof *info + n * sizeof(int32_t);
    st = dg_distance_map(g, seed & 1 ? &walk : NULL, src, 1 + (int32_t)(seed % 3),
                         (int32_t)(seed % 4) * 9, dist, n, ws, info, NULL);
    dg_path_workspace_free(ws);
    return le32(st, out, *used);
}

static dg_status op_path(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                         size_t *used)
{
    dg_path_workspace *ws = NULL;
    dg_status st = dg_path_workspace_create(g->width, g->height, a, &ws);
    if (st != DG_OK)
        return st;
    dg_move walk;
    uint16_t cost[256];
    costly_walk(&walk, cost);
    int32_t *len = (int32_t *)out;
    dg_point *path = (dg_point *)(len + 2);
    int32_t cap = (int32_t)((HARD_OP_OUT(g) - 8) / sizeof *path);
    st = dg_path_find(g, seed & 1 ? &walk : NULL, some_passable(g, seed),
                      some_passable(g, seed * 31 + 3), ws, path, cap, len, len + 1, NULL);
    *used = 8 + (st == DG_OK ? (size_t)len[0] * sizeof *path : 0);
    dg_path_workspace_free(ws);
    return le32(st, out, *used);
}

static dg_status op_fov(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                        size_t *used)
{
    static const int32_t radii[4] = {0, 1, 8, 200};
    size_t n = cells_of(g);
    *used = n;
    dg_point origin = some_passable(g, seed);
    dg_status st = dg_fov(g, NULL, origin, radii[seed % 4], out, n, a, NULL);
    if (st != DG_OK)
        return st;
    /* dg_fov leaves cells outside its bounds as they were; blank them so the
     * output is a function of the call alone (test_guard checks they were not written) */
    dg_rect b = dg_fov_bounds(g, origin, radii[seed % 4]);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (x < b.x || y < b.y || x >= b.x + b.w || y >= b.y + b.h)
                out[(size_t)y * (size_t)g->width + (size_t)x] = 0;
    return DG_OK;
}

static dg_status op_measure(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                            size_t *used)
{
    (void)seed;
    /* the output is the named fields: the spare slots (docs/abi.md) are not pinned */
    dg_metrics m;
    *used = offsetof(dg_metrics, spare);
    dg_status st = dg_measure(g, NULL, &m, a, NULL);
    if (st == DG_OK)
        memcpy(out, &m, *used);
    return le32(st, out, *used);
}

static dg_status op_chokepoints(const dg_grid *g, uint64_t seed, const dg_allocator *a,
                                uint8_t *out, size_t *used)
{
    (void)seed;
    size_t n = cells_of(g);
    int32_t *count = (int32_t *)out;
    *used = 4 + n;
    return le32(dg_chokepoints(g, NULL, out + 4, n, count, a, NULL), out, 4);
}

static dg_status op_place(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                          size_t *used)
{
    dg_place_params p;
    dg_place_defaults(&p);
    p.spawn_count = (int32_t)(seed % 6);
    p.spawn_min_distance = (int32_t)(seed % 5);
    if (seed & 1)
        p.arrival = some_passable(g, seed / 3);
    dg_placement *pl = (dg_placement *)out;
    dg_point *spawns = (dg_point *)(pl + 1);
    *used = sizeof *pl + (size_t)p.spawn_count * sizeof *spawns;
    return le32(dg_place(g, &p, seed, NULL, pl, spawns, p.spawn_count, a, NULL), out, *used);
}

/* Anchors on a copy of the map, which goes to out on success (outputs are
 * written only then): one open cell, one anywhere, one near a corner. */
static dg_status op_anchor(const dg_grid *g, uint64_t seed, const dg_allocator *a, uint8_t *out,
                           size_t *used)
{
    uint8_t *cells = malloc(cells_of(g));
    if (!cells)
        return DG_E_NOMEM;
    dg_grid copy = {cells, g->width, g->height, g->width};
    for (int32_t y = 0; y < g->height; y++)
        memcpy(cells + (size_t)y * (size_t)g->width, g->cells + (size_t)y * (size_t)g->stride,
               (size_t)g->width);
    *used = cells_of(g);
    dg_point at[3] = {some_passable(g, seed),
                      {(int32_t)(seed % (uint64_t)g->width), (int32_t)(seed / 7 % (uint64_t)g->height)},
                      {g->width / 5, g->height - 1 - g->height / 5}};
    dg_status st = dg_anchor_place(&copy, at, 3, NULL, a, NULL);
    if (st == DG_OK)
        memcpy(out, cells, cells_of(g));
    free(cells);
    return st;
}

const hard_op hard_ops[] = {
    {"regions", op_regions},
    {"distance_map", op_distance},
    {"path_find", op_path},
    {"fov", op_fov},
    {"measure", op_measure},
    {"chokepoints", op_chokepoints},
    {"place", op_place},
    {"anchor", op_anchor},
    {NULL, NULL},
};

uint64_t hard_op_hash(dg_status st, const uint8_t *out, size_t used)
{
    uint64_t h = (uint64_t)(uint32_t)st;
    if (st != DG_OK)
        return h;
    for (size_t i = 0; i < used; i += 8)
    {
        uint64_t v = 0; /* little-endian, whatever the machine's order */
        for (size_t k = 0; k < 8 && i + k < used; k++)
            v |= (uint64_t)out[i + k] << (8 * k);
        h = dg_hash_combine(h, v);
    }
    return h;
}

void hard_sample_map(const hard_ctx *ctx, int kind, uint64_t seed, dg_grid *g)
{
    const hard_gen *first = &hard_gens[0];
    if (kind == 0 || (kind == 2 && !first->name))
    {
        (void)world_run(ctx, (int)(seed % HARD_WORLDS), g, seed, NULL, NULL, NULL, NULL);
        return;
    }
    if (kind == 2)
    {
        dg_grid_fill(g, DG_TILE_VOID);
        (void)first->run(ctx, 0, g, seed, NULL, NULL, NULL, NULL);
        return;
    }
    static const uint8_t tiles[8] = {DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_FLOOR, DG_TILE_CORRIDOR,
                                     DG_TILE_WALL,  DG_TILE_DOOR,  DG_TILE_WATER, DG_TILE_WALL};
    dg_rng rng;
    dg_rng_seed(&rng, seed, 77);
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            (void)dg_grid_set(g, x, y, tiles[dg_rng_below(&rng, 8)]);
}

/* ---- validation and hashing ------------------------------------------------------------- */
int hard_status_known(dg_status st)
{
    return st <= DG_OK && st >= DG_E_LIMIT;
}

static int inside(const dg_grid *g, dg_point p)
{
    return p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height;
}

static int point_none(dg_point p)
{
    return p.x == -1 && p.y == -1;
}

static const char *validate_lists(const dg_grid *g, const dg_result *r)
{
    if (r->room_count < 0 || r->corridor_count < 0 || r->door_count < 0 || r->marker_count < 0)
        return "negative list count";
    if ((r->room_count && !r->rooms) || (r->corridor_count && !r->corridors) ||
        (r->door_count && !r->doors) || (r->marker_count && !r->markers))
        return "list count without array";
    for (int32_t i = 0; i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        /* an empty rectangle is allowed (a world room clipped away by the window) */
        if (q.w < 0 || q.h < 0 || q.x < 0 || q.y < 0 || (int64_t)q.x + q.w > g->width ||
            (int64_t)q.y + q.h > g->height)
            return "room rectangle outside the grid";
        if (r->rooms[i].parent < -1 || r->rooms[i].parent >= r->room_count)
            return "room parent index out of range";
    }
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        if (!inside(g, c->start) || !inside(g, c->bend) || !inside(g, c->end))
            return "corridor point outside the grid";
        if (c->length < 0)
            return "negative corridor length";
    }
    for (int32_t i = 0; i < r->door_count; i++)
        if (!inside(g, r->doors[i].pos))
            return "door outside the grid";
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        if (!inside(g, r->markers[i].pos))
            return "marker outside the grid";
        if (!memchr(r->markers[i].name, 0, DG_NAME_MAX))
            return "marker name not NUL-terminated";
    }
    return NULL;
}

static const char *validate_ends(const dg_grid *g, const dg_result *r)
{
    if (!point_none(r->start) &&
        (!inside(g, r->start) || !dg_tile_passable(dg_grid_get(g, r->start.x, r->start.y))))
        return "start is not a passable cell";
    if (!point_none(r->exit) &&
        (!inside(g, r->exit) || !dg_tile_passable(dg_grid_get(g, r->exit.x, r->exit.y))))
        return "exit is not a passable cell";
    if (r->start_room < -1 || r->start_room >= r->room_count || r->exit_room < -1 ||
        r->exit_room >= r->room_count)
        return "start/exit room index out of range";
    return NULL;
}

static const char *validate_metrics(const dg_grid *g, const dg_result *r)
{
    const dg_metrics *m = &r->metrics;
    int32_t floor = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            floor += dg_tile_passable(dg_grid_get(g, x, y));
    if (m->cells != g->width * g->height)
        return "metrics.cells is not width * height";
    if (m->floor_cells != floor)
        return "metrics.floor_cells does not match the grid";
    if (m->floor_permille < 0 || m->floor_permille > 1000)
        return "metrics.floor_permille out of 0..1000";
    if (m->rooms != r->room_count || m->corridors != r->corridor_count || m->doors != r->door_count)
        return "metrics counts differ from the lists";
    if (m->regions < 0 || m->dead_ends < 0 || m->loops < 0 || m->attempts < 0 || m->failures < 0)
        return "negative metric";
    if ((floor > 0) != (m->regions > 0))
        return "metrics.regions inconsistent with floor";
    return NULL;
}

const char *hard_validate(const dg_grid *g, const dg_result *r)
{
    if (dg_grid_check(g) != DG_OK)
        return "grid no longer valid";
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            if (t >= DG_TILE_COUNT && t < DG_TILE_USER)
                return "tile value in the reserved range";
        }
    if (!r)
        return NULL;
    const char *why = validate_lists(g, r);
    if (!why)
        why = validate_ends(g, r);
    if (!why)
        why = validate_metrics(g, r);
    return why;
}

static uint64_t mix_i32s(uint64_t h, const int32_t *v, int n)
{
    for (int i = 0; i < n; i++)
        h = dg_hash_combine(h, (uint64_t)(uint32_t)v[i]);
    return h;
}

uint64_t hard_result_hash(const dg_result *r)
{
    uint64_t h = 0x6C6962647567ULL;
    for (int32_t i = 0; i < r->room_count; i++)
    {
        const dg_room *q = &r->rooms[i];
        int32_t v[8] = {q->rect.x, q->rect.y, q->rect.w, q->rect.h,
                        q->kind, q->prefab, q->orientation, q->parent};
        h = mix_i32s(h, v, 8);
    }
    for (int32_t i = 0; i < r->corridor_count; i++)
    {
        const dg_corridor *c = &r->corridors[i];
        int32_t v[11] = {c->start.x, c->start.y, c->bend.x, c->bend.y, c->end.x, c->end.y,
                         c->length, c->from.kind, c->from.index, c->to.kind, c->to.index};
        h = mix_i32s(h, v, 11);
    }
    for (int32_t i = 0; i < r->door_count; i++)
    {
        const dg_door *d = &r->doors[i];
        int32_t v[6] = {d->pos.x, d->pos.y, d->a.kind, d->a.index, d->b.kind, d->b.index};
        h = mix_i32s(h, v, 6);
    }
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        int32_t v[4] = {m->pos.x, m->pos.y, m->kind, m->room};
        h = mix_i32s(h, v, 4);
        for (int k = 0; k < DG_NAME_MAX && m->name[k]; k++)
            h = dg_hash_combine(h, (uint8_t)m->name[k]);
    }
    int32_t ends[10] = {r->room_count, r->corridor_count, r->door_count, r->marker_count,
                        r->start.x, r->start.y, r->exit.x, r->exit.y, r->start_room, r->exit_room};
    h = mix_i32s(h, ends, 10);
    const dg_metrics *m = &r->metrics;
    int32_t mv[15] = {m->cells, m->floor_cells, m->floor_permille, m->rooms, m->corridors,
                      m->doors, m->dead_ends, m->loops, m->regions, m->attempts,
                      m->failures, m->stopped_early, m->requested, m->placed, m->overlaps};
    return mix_i32s(h, mv, 15);
}
