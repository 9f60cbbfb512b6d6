/* Shared machinery of the hardening tests and fuzz targets (see hard.h). */
#include "hard.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- shared objects ---------------------------------------------------------------- */
dg_status hard_ctx_open(hard_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->ready = 1;
    return DG_OK;
}

void hard_ctx_close(hard_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
}

/* ---- the generator table --------------------------------------------------------------- */
const hard_gen hard_gens[] = {
    {NULL, 0, NULL, NULL, 0, 0},
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
        if (q.w < 1 || q.h < 1 || q.x < 0 || q.y < 0 || (int64_t)q.x + q.w > g->width ||
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
