/* The infinite world: rooms as pure functions of (seed, x, y).
 *
 * One 64-bit hash per room decides everything about its topology:
 *   bit 0        parent choice when two neighbours are closer to the origin
 *   bits 1..16   loop roll of the edge to the east neighbour
 *   bits 17..32  loop roll of the edge to the south neighbour
 *   bits 33..48  dead-end fix roll
 *   bits 49..63  which closed side the dead-end fix opens
 * A roll r of 16 bits is the permille (r * 1000) >> 16, compared with the
 * parameter. A door between two rooms exists if either is the other's parent,
 * if the edge's loop roll says so, or if either room is a dead end of that
 * graph whose fix opens that side. Each rule is computed the same from both
 * rooms, so doors are symmetric. */
#include "internal.h"

#define CHANNEL_FURNISH 0x4655524E49534821ULL
#define CHANNEL_GAME 0x47414D45524F4F4DULL
#define FURNISH_ATTEMPTS 4

enum { ALL_SIDES = DG_SIDE_N | DG_SIDE_E | DG_SIDE_S | DG_SIDE_W };

void dg_world_defaults(dg_world_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    params->room_size = 9;
    params->loop_permille = 100;
    params->dead_end_fix = 0;
    params->furnishing = NULL;
    params->furnish_permille = 1000;
    params->variants = 8;
    params->curve_points = 2;
    params->curve_distance[0] = 0;
    params->curve_level[0] = 1;
    params->curve_distance[1] = 500;
    params->curve_level[1] = 100;
}

int dgi_world_in_range(int64_t x, int64_t y)
{
    return x >= -DG_WORLD_COORD_MAX && x <= DG_WORLD_COORD_MAX && y >= -DG_WORLD_COORD_MAX &&
           y <= DG_WORLD_COORD_MAX;
}

int64_t dgi_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* ---- topology ------------------------------------------------------------ */

static uint64_t room_hash(const dg_world *w, int64_t x, int64_t y)
{
    uint64_t hx = dg_hash64(w->key ^ (uint64_t)x);
    return dg_hash64(hx ^ ((uint64_t)y * 0xD6E8FEB86659FD93ULL));
}

static int32_t roll16(uint64_t h, int shift)
{
    return (int32_t)((((h >> shift) & 0xFFFFu) * 1000u) >> 16);
}

static int32_t parent_side(int64_t x, int64_t y, uint64_t h)
{
    int32_t across = x > 0 ? DG_SIDE_W : x < 0 ? DG_SIDE_E : 0;
    int32_t down = y > 0 ? DG_SIDE_N : y < 0 ? DG_SIDE_S : 0;
    if (across && down)
        return (h & 1u) ? across : down;
    return across | down;
}

/* Hashes of a room and its neighbours, indexed by HERE, N, E, S, W. */
enum { HERE = 0, AT_N = 1, AT_E = 2, AT_S = 3, AT_W = 4 };

static void cross_hashes(const dg_world *w, int64_t x, int64_t y, uint64_t h[5])
{
    h[HERE] = room_hash(w, x, y);
    h[AT_N] = room_hash(w, x, y - 1);
    h[AT_E] = room_hash(w, x + 1, y);
    h[AT_S] = room_hash(w, x, y + 1);
    h[AT_W] = room_hash(w, x - 1, y);
}

/* Doors from the tree and the loop rolls alone. */
static int32_t base_doors(const dg_world *w, int64_t x, int64_t y, const uint64_t h[5])
{
    int32_t loop = w->params.loop_permille;
    int32_t m = parent_side(x, y, h[HERE]);
    if (parent_side(x, y - 1, h[AT_N]) == DG_SIDE_S || roll16(h[AT_N], 17) < loop)
        m |= DG_SIDE_N;
    if (parent_side(x + 1, y, h[AT_E]) == DG_SIDE_W || roll16(h[HERE], 1) < loop)
        m |= DG_SIDE_E;
    if (parent_side(x, y + 1, h[AT_S]) == DG_SIDE_N || roll16(h[HERE], 17) < loop)
        m |= DG_SIDE_S;
    if (parent_side(x - 1, y, h[AT_W]) == DG_SIDE_E || roll16(h[AT_W], 1) < loop)
        m |= DG_SIDE_W;
    return m;
}

/* The side a dead end (one base door) opens, or 0: one of its three closed
 * sides, in N E S W order, by the top 15 bits of its hash. */
static int32_t fix_side(const dg_world *w, uint64_t h, int32_t base)
{
    if ((base & (base - 1)) != 0 || roll16(h, 33) >= w->params.dead_end_fix)
        return 0;
    int32_t pick = (int32_t)(((h >> 49) * 3u) >> 15);
    for (int32_t side = DG_SIDE_N; side <= DG_SIDE_W; side <<= 1)
        if (!(base & side) && pick-- == 0)
            return side;
    return 0;
}

static int32_t opposite(int32_t side)
{
    return side <= DG_SIDE_E ? side << 2 : side >> 2;
}

static void step(int32_t side, int64_t *x, int64_t *y)
{
    *x += side == DG_SIDE_E ? 1 : side == DG_SIDE_W ? -1 : 0;
    *y += side == DG_SIDE_S ? 1 : side == DG_SIDE_N ? -1 : 0;
}

/* 1 if the neighbour behind `side` (whose hash is hn) is a dead end whose
 * fix opens the door back toward us. */
static int neighbour_fixes_toward(const dg_world *w, int64_t x, int64_t y, int32_t side,
                                  uint64_t hn)
{
    if (roll16(hn, 33) >= w->params.dead_end_fix)
        return 0;
    step(side, &x, &y);
    uint64_t h[5];
    cross_hashes(w, x, y, h);
    return fix_side(w, hn, base_doors(w, x, y, h)) == opposite(side);
}

static int32_t doors_from_hashes(const dg_world *w, int64_t x, int64_t y, const uint64_t h[5])
{
    int32_t base = base_doors(w, x, y, h);
    if (w->params.dead_end_fix <= 0)
        return base;
    int32_t doors = base | fix_side(w, h[HERE], base);
    for (int32_t i = 0, side = DG_SIDE_N; i < 4; i++, side <<= 1)
        if (!(doors & side) && neighbour_fixes_toward(w, x, y, side, h[AT_N + i]))
            doors |= side;
    return doors;
}

int32_t dgi_world_doors(const dg_world *w, int64_t x, int64_t y)
{
    uint64_t h[5];
    cross_hashes(w, x, y, h);
    return doors_from_hashes(w, x, y, h);
}

/* ---- difficulty and furnishing --------------------------------------------- */

static int32_t difficulty_at(const dg_world_params *p, int64_t distance)
{
    for (int32_t i = 1; i < p->curve_points; i++)
        if (distance < p->curve_distance[i])
        {
            int64_t d0 = p->curve_distance[i - 1], l0 = p->curve_level[i - 1];
            int64_t span = p->curve_distance[i] - d0, rise = p->curve_level[i] - l0;
            return (int32_t)(l0 + (distance - d0) * rise / span);
        }
    return p->curve_level[p->curve_points - 1];
}

static void furnish(const dg_world *w, uint64_t h, dg_world_room *room)
{
    (void)w;
    (void)h;
    room->prefab = -1;
    room->orientation = 0;
    room->variant = 0;
    room->marker_count = 0;
}

void dgi_world_room(const dg_world *w, int64_t x, int64_t y, dg_world_room *room)
{
    uint64_t h[5];
    cross_hashes(w, x, y, h);
    room->x = x;
    room->y = y;
    room->distance = (x < 0 ? -x : x) + (y < 0 ? -y : y);
    room->seed = dg_hash64(h[HERE] ^ CHANNEL_GAME);
    room->doors = doors_from_hashes(w, x, y, h);
    room->door_class = w->door_class[room->doors];
    room->parent = parent_side(x, y, h[HERE]);
    room->difficulty = difficulty_at(&w->params, room->distance);
    furnish(w, h[HERE], room);
}

dg_status dg_world_room_info(const dg_world *world, int64_t x, int64_t y, dg_world_room *room)
{
    if (!world || !room)
        return DG_E_NULL;
    if (!dgi_world_in_range(x, y))
        return DG_E_INVALID;
    dgi_world_room(world, x, y, room);
    return DG_OK;
}

int32_t dg_world_period(const dg_world *world)
{
    return world ? world->period : 0;
}

dg_status dg_world_room_of_tile(const dg_world *world, int64_t tx, int64_t ty, int64_t *x,
                                int64_t *y)
{
    if (!world || !x || !y)
        return DG_E_NULL;
    *x = dgi_floor_div(tx, world->period);
    *y = dgi_floor_div(ty, world->period);
    return DG_OK;
}

/* ---- creation ------------------------------------------------------------------ */

static dg_status check_permille(const char *name, int32_t v, dg_diag *diag)
{
    if (v < 0 || v > 1000)
        return dgi_fail(diag, DG_E_INVALID, "%s (%d) must be a permille in 0..1000", name, (int)v);
    return DG_OK;
}

static dg_status check_curve(const dg_world_params *p, dg_diag *diag)
{
    if (p->curve_points < 1 || p->curve_points > DG_WORLD_CURVE_MAX)
        return dgi_fail(diag, DG_E_INVALID, "curve_points (%d) must be in 1..%d",
                        (int)p->curve_points, DG_WORLD_CURVE_MAX);
    if (p->curve_distance[0] != 0)
        return dgi_fail(diag, DG_E_INVALID, "curve_distance[0] must be 0");
    for (int32_t i = 1; i < p->curve_points; i++)
        if (p->curve_distance[i] <= p->curve_distance[i - 1] || p->curve_distance[i] > INT32_MAX)
            return dgi_fail(diag, DG_E_INVALID,
                            "curve_distance[%d] must be greater than curve_distance[%d] and "
                            "at most %d",
                            (int)i, (int)(i - 1), INT32_MAX);
    return DG_OK;
}

static dg_status check_params(const dg_world_params *p, dg_diag *diag)
{
    if (p->room_size < DG_WORLD_ROOM_MIN || p->room_size > DG_WORLD_ROOM_MAX ||
        p->room_size % 2 == 0)
        return dgi_fail(diag, DG_E_INVALID, "room_size (%d) must be odd and in %d..%d",
                        (int)p->room_size, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX);
    dg_status st = check_permille("loop_permille", p->loop_permille, diag);
    if (st == DG_OK)
        st = check_permille("dead_end_fix", p->dead_end_fix, diag);
    if (st == DG_OK)
        st = check_permille("furnish_permille", p->furnish_permille, diag);
    if (st != DG_OK)
        return st;
    if (p->variants < 1 || p->variants > DG_WORLD_VARIANTS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "variants (%d) must be in 1..%d", (int)p->variants,
                        DG_WORLD_VARIANTS_MAX);
    return check_curve(p, diag);
}

static int32_t class_of(int32_t sides)
{
    int32_t n = 0;
    for (int32_t s = sides; s; s &= s - 1)
        n++;
    if (n == 2)
        return (sides == (DG_SIDE_N | DG_SIDE_S) || sides == (DG_SIDE_E | DG_SIDE_W))
                   ? DG_DOORCLASS_STRAIGHT
                   : DG_DOORCLASS_CORNER;
    static const int32_t by_count[5] = {DG_DOORCLASS_NONE, DG_DOORCLASS_ONE, 0,
                                        DG_DOORCLASS_THREE, DG_DOORCLASS_FOUR};
    return by_count[n];
}

void dg_world_free(dg_world *world)
{
    if (!world)
        return;
    dg_allocator a = world->allocator;
    size_t slots = (size_t)world->slot_count;
    dgi_free(&a, world->first_slot, (size_t)world->prefab_count * sizeof(int32_t));
    dgi_free(&a, world->slot_ok, slots);
    dgi_free(&a, world->cells, slots * (size_t)world->size * (size_t)world->size);
    dgi_free(&a, world->marker_start, (slots + 1) * sizeof(int32_t));
    dgi_free(&a, world->markers, (size_t)world->marker_total * sizeof(dgi_furnish_marker));
    dgi_free(&a, world, sizeof *world);
}

dg_status dg_world_create(const dg_world_params *params, uint64_t seed,
                          const dg_allocator *allocator, dg_world **world, dg_diag *diag)
{
    if (!world)
        return dgi_fail(diag, DG_E_NULL, "world output pointer is NULL");
    dg_world_params defaults;
    dg_world_defaults(&defaults);
    const dg_world_params *p = params ? params : &defaults;
    dg_status st = check_params(p, diag);
    if (st != DG_OK)
        return st;
    if (p->furnishing)
        return dgi_fail(diag, DG_E_INVALID, "furnishing is not available yet");
    dg_world *w = dgi_calloc(allocator, 1, sizeof *w);
    if (!w)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for the world");
    if (allocator)
        w->allocator = *allocator;
    w->params = *p;
    w->key = dg_hash_combine(seed, 0x574F524C44ULL);
    w->size = p->room_size;
    w->period = p->room_size + 1;
    w->mid = p->room_size / 2;
    for (int32_t m = 0; m < 16; m++)
        w->door_class[m] = class_of(m);
    *world = w;
    dgi_diag_ok(diag);
    return DG_OK;
}
