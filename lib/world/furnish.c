/* Furnishing the infinite world's rooms from a prefab set.
 *
 * At creation every usable furnish prefab (drawn as a whole room, walls
 * included) is stamped in each allowed orientation and `variants` times
 * (its randomised glyphs resolved from different seeds) into a scratch room
 * whose border the world then redraws with its own walls and doors. A stamp
 * is kept only if the tile inside each door is passable and every door
 * reaches every other door through passable tiles: that is the only check a
 * room ever needs, so queries and rendering just copy the kept interiors. */
#include "prefab/prefab.h"
#include "world/world.h"

#define FURNISH_ATTEMPTS 4
#define CHANNEL_FURNISH 0x4655524E49534821ULL

/* Scratch for stamping one room: the grid, a BFS queue and a result. */
typedef struct stamp_scratch {
    dg_grid grid;
    int32_t *queue;
    uint8_t *seen;
    dg_result result;
} stamp_scratch;

static uint64_t name_hash(const char *name)
{
    uint64_t h = 14695981039346656037ULL;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 1099511628211ULL;
    return h;
}

/* The cell of the middle of `side` on the border of an n x n room. */
static int32_t door_cell(int32_t n, int32_t side)
{
    int32_t mid = n / 2;
    switch (side)
    {
    case DG_SIDE_N: return mid;
    case DG_SIDE_E: return mid * n + n - 1;
    case DG_SIDE_S: return (n - 1) * n + mid;
    default: return mid * n;
    }
}

/* Redraws the border: walls, and doors in the middle of the sides. */
static void draw_border(dg_grid *g, int32_t sides)
{
    int32_t n = g->width;
    for (int32_t i = 0; i < n; i++)
    {
        g->cells[i] = g->cells[(n - 1) * n + i] = DG_TILE_WALL;
        g->cells[i * n] = g->cells[i * n + n - 1] = DG_TILE_WALL;
    }
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
        if (sides & side)
            g->cells[door_cell(n, side)] = DG_TILE_DOOR;
}

/* 1 if, from the first door, the tile inside every door is reachable through
 * passable tiles. (Markers may be out of reach on purpose: a potion in the
 * middle of a pool.) */
static int keeps_the_way(stamp_scratch *s, int32_t sides)
{
    const dg_grid *g = &s->grid;
    int32_t n = g->width, head = 0, tail = 0;
    memset(s->seen, 0, (size_t)n * (size_t)n);
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W && tail == 0; side <<= 1)
        if (sides & side)
        {
            s->queue[tail++] = door_cell(n, side);
            s->seen[s->queue[0]] = 1;
        }
    while (head < tail)
    {
        int32_t c = s->queue[head++], x = c % n, y = c / n;
        const int32_t next[4] = {y > 0 ? c - n : -1, x < n - 1 ? c + 1 : -1,
                                 y < n - 1 ? c + n : -1, x > 0 ? c - 1 : -1};
        for (int k = 0; k < 4; k++)
            if (next[k] >= 0 && !s->seen[next[k]] && dg_tile_passable(g->cells[next[k]]))
            {
                s->seen[next[k]] = 1;
                s->queue[tail++] = next[k];
            }
    }
    const int32_t inward[4] = {n, -1, -n, 1}; /* from the N, E, S, W door into the room */
    for (int32_t k = 0, side = DG_SIDE_N; k < 4; k++, side <<= 1)
        if ((sides & side) && !s->seen[door_cell(n, side) + inward[k]])
            return 0;
    return 1;
}

/* Keeps the interior and the interior markers of the stamp in `slot`. */
static dg_status keep_slot(dg_world *w, stamp_scratch *s, int32_t slot, int32_t *marker_cap)
{
    int32_t size = w->size, n = size + 2;
    uint8_t *dst = w->cells + (size_t)slot * (size_t)size * (size_t)size;
    for (int32_t y = 0; y < size; y++)
        memcpy(dst + (size_t)y * (size_t)size, s->grid.cells + (size_t)(y + 1) * (size_t)n + 1,
               (size_t)size);
    for (int32_t i = 0; i < s->result.marker_count; i++)
    {
        const dg_marker *m = &s->result.markers[i];
        if (m->pos.x < 1 || m->pos.y < 1 || m->pos.x > size || m->pos.y > size)
            continue;
        if (dgi_grow(&w->allocator, (void **)&w->markers, marker_cap, w->marker_total + 1,
                     sizeof *w->markers) != DG_OK)
            return DG_E_NOMEM;
        dgi_furnish_marker *o = &w->markers[w->marker_total++];
        o->x = m->pos.x - 1;
        o->y = m->pos.y - 1;
        o->kind = m->kind;
        memcpy(o->name, m->name, sizeof o->name);
    }
    w->slot_ok[slot] = 1;
    return DG_OK;
}

/* Stamps prefab `index` in orientation o, variant v, into slot. */
static dg_status stamp_slot(dg_world *w, stamp_scratch *s, const dg_prefab_info *info,
                            int32_t index, int32_t o, int32_t v, int32_t slot, int32_t *marker_cap)
{
    int32_t n = w->size + 2;
    memset(s->grid.cells, DG_TILE_FLOOR, (size_t)n * (size_t)n);
    s->result.marker_count = 0;
    uint64_t seed = dgi_hash_combine(dgi_hash_combine(w->key, name_hash(info->name)),
                                    (uint64_t)o * DG_WORLD_VARIANTS_MAX + (uint64_t)v);
    dg_status st = dg_prefab_stamp(w->params.furnishing, index, o, seed, &s->grid, 0, 0,
                                   &s->result, NULL);
    if (st == DG_E_NOMEM)
        return st;
    int32_t sides = dg_orient_sides(info->door_sides, o);
    draw_border(&s->grid, sides);
    if (st != DG_OK || sides == 0 || !keeps_the_way(s, sides))
        return DG_OK; /* the slot stays unusable: rooms pick again or stay bare */
    return keep_slot(w, s, slot, marker_cap);
}

/* Slots for every furnish prefab of the room's size; first_slot -1 for the rest. */
static int32_t assign_slots(dg_world *w)
{
    int32_t slots = 0, n = w->size + 2;
    for (int32_t i = 0; i < w->prefab_count; i++)
    {
        dg_prefab_info info;
        w->first_slot[i] = -1;
        if (dg_prefab_get_info(w->params.furnishing, i, &info) != DG_OK ||
            !(info.modes & DG_PREFAB_FURNISH) || info.width != n || info.height != n)
            continue;
        w->first_slot[i] = slots;
        slots += DG_ORIENT_COUNT * w->params.variants;
    }
    return slots;
}

static dg_status stamp_every_slot(dg_world *w, stamp_scratch *s, int32_t *marker_cap)
{
    int32_t variants = w->params.variants;
    for (int32_t i = 0; i < w->prefab_count; i++)
    {
        dg_prefab_info info;
        if (w->first_slot[i] < 0 || dg_prefab_get_info(w->params.furnishing, i, &info) != DG_OK)
            continue;
        for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
            for (int32_t v = 0; v < variants; v++)
            {
                int32_t slot = w->first_slot[i] + o * variants + v;
                w->marker_start[slot] = w->marker_total;
                dg_status st = (info.distinct & (1 << o))
                                   ? stamp_slot(w, s, &info, i, o, v, slot, marker_cap)
                                   : DG_OK;
                if (st != DG_OK)
                    return st;
            }
    }
    w->marker_start[w->slot_count] = w->marker_total;
    return DG_OK;
}

/* Stamps every slot, then trims the marker list to its length (the size
 * dg_world_free releases). */
static dg_status stamp_all(dg_world *w, stamp_scratch *s)
{
    int32_t cap = 0;
    size_t elem = sizeof *w->markers;
    dg_status st = stamp_every_slot(w, s, &cap);
    dgi_furnish_marker *fit = NULL;
    if (st == DG_OK && cap > w->marker_total)
    {
        fit = dgi_alloc(&w->allocator, (size_t)w->marker_total * elem);
        if (fit)
            memcpy(fit, w->markers, (size_t)w->marker_total * elem);
        else
            st = DG_E_NOMEM;
    }
    if (st == DG_OK && cap == w->marker_total)
        return DG_OK;
    dgi_free(&w->allocator, w->markers, (size_t)cap * elem);
    w->markers = fit;
    if (st != DG_OK)
        w->marker_total = 0;
    return st;
}

dg_status dgi_world_build_atlas(dg_world *w, dg_diag *diag)
{
    const dg_allocator *a = &w->allocator;
    int32_t n = w->size + 2;
    w->prefab_count = dg_prefab_count(w->params.furnishing);
    w->first_slot = dgi_alloc(a, (size_t)DG_MAX(w->prefab_count, 1) * sizeof(int32_t));
    if (!w->first_slot)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for the furnishing table");
    w->slot_count = assign_slots(w);
    if (w->slot_count == 0)
        return dgi_fail(diag, DG_E_INVALID,
                        "the furnishing set has no furnish prefab of %dx%d (room_size %d plus "
                        "walls)",
                        (int)n, (int)n, (int)w->size);
    size_t slots = (size_t)w->slot_count, area = (size_t)w->size * (size_t)w->size;
    w->slot_ok = dgi_calloc(a, slots, 1);
    w->cells = dgi_calloc(a, slots, area);
    w->marker_start = dgi_calloc(a, slots + 1, sizeof(int32_t));
    stamp_scratch s;
    memset(&s, 0, sizeof s);
    uint8_t *cells = dgi_alloc(a, (size_t)n * (size_t)n);
    s.queue = dgi_alloc(a, (size_t)n * (size_t)n * sizeof(int32_t));
    s.seen = dgi_alloc(a, (size_t)n * (size_t)n);
    dg_result_init(&s.result, a);
    dg_status st = DG_E_NOMEM;
    if (w->slot_ok && w->cells && w->marker_start && cells && s.queue && s.seen &&
        dg_grid_init(&s.grid, cells, n, n, n) == DG_OK)
        st = stamp_all(w, &s);
    dg_result_free(&s.result);
    dgi_free(a, s.seen, (size_t)n * (size_t)n);
    dgi_free(a, s.queue, (size_t)n * (size_t)n * sizeof(int32_t));
    dgi_free(a, cells, (size_t)n * (size_t)n);
    if (st != DG_OK)
        return dgi_fail(diag, st, "out of memory while stamping the furnishings");
    return DG_OK;
}

void dgi_world_furnish(const dg_world *w, uint64_t room_hash, dg_world_room *room)
{
    room->prefab = -1;
    room->orientation = 0;
    room->variant = 0;
    room->marker_count = 0;
    if (!w->params.furnishing)
        return;
    uint64_t hf = dgi_hash64(room_hash ^ CHANNEL_FURNISH);
    if ((hf & 0xFFFFu) >= w->furnish_below)
        return;
    int32_t variants = w->params.variants;
    for (uint64_t attempt = 0; attempt < FURNISH_ATTEMPTS; attempt++)
    {
        uint64_t pick_hash = dgi_hash64(hf + attempt);
        int32_t index, orient;
        if (dg_prefab_pick(w->params.furnishing, DG_PREFAB_FURNISH, room->doors, pick_hash,
                           &index, &orient) != DG_OK)
            return;
        if (index < 0 || index >= w->prefab_count || w->first_slot[index] < 0)
            continue;
        int32_t variant = (int32_t)(((pick_hash >> 32) * (uint64_t)variants) >> 32);
        int32_t slot = w->first_slot[index] + orient * variants + variant;
        if (!w->slot_ok[slot])
            continue;
        room->prefab = index;
        room->orientation = orient;
        room->variant = variant;
        room->marker_count = w->marker_start[slot + 1] - w->marker_start[slot];
        return;
    }
}
