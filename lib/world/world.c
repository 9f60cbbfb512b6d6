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
#include "prefab/prefab.h"
#include "world/world.h"

#define CHANNEL_GAME 0x47414D45524F4F4DULL
#define CHANNEL_SHAPE 0x53484150452D5258ULL
#define DIFFICULTY_TABLE_MAX 4096

void dg_world_defaults(dg_world_params *params)
{
    if (!params)
        return;
    memset(params, 0, sizeof *params);
    DGI_PARAMS_FILL(dgi_world_table, params); /* the rows of core/params.c */
    /* not in the table: furnishing stays NULL (bare rooms), and the difficulty
     * curve (int64_t distances, arrays) is 2 points, (0, 1) and (500, 100) */
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

/* The SplitMix64 finaliser (dg_hash64 without its increment), inlined: room
 * hashes are the hot path of every query. A room's hash mixes its row into
 * the hash of its column, so rooms of one column share half the work. */
static inline uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline uint64_t column_hash(const dg_world *w, int64_t x)
{
    return mix64(w->key ^ (uint64_t)x);
}

static inline uint64_t room_hash(uint64_t column, int64_t y)
{
    return mix64(column ^ ((uint64_t)y * 0xD6E8FEB86659FD93ULL));
}

/* A roll of 16 hash bits r passes a permille p when (r * 1000) >> 16 < p,
 * that is when r < ceil(p * 65536 / 1000): the threshold kept in the world. */
static uint32_t threshold16(int32_t permille)
{
    return (uint32_t)(((uint64_t)permille * 65536u + 999u) / 1000u);
}

static inline int passes(uint64_t h, int shift, uint32_t threshold)
{
    return ((h >> shift) & 0xFFFFu) < threshold;
}

/* Sign class of a coordinate: 0 negative, 1 zero, 2 positive. */
static inline int sign3(int64_t v)
{
    return (v > 0) - (v < 0) + 1;
}

/* Parent door by [sign3 x][sign3 y][hash bit 0]: toward the origin, the hash
 * bit choosing when both axes are off zero. */
static const int8_t parent_by_sign[3][3][2] = {
    {{DG_SIDE_S, DG_SIDE_E}, {DG_SIDE_E, DG_SIDE_E}, {DG_SIDE_N, DG_SIDE_E}},
    {{DG_SIDE_S, DG_SIDE_S}, {0, 0}, {DG_SIDE_N, DG_SIDE_N}},
    {{DG_SIDE_S, DG_SIDE_W}, {DG_SIDE_W, DG_SIDE_W}, {DG_SIDE_N, DG_SIDE_W}},
};

static inline int32_t parent_side(int64_t x, int64_t y, uint64_t h)
{
    return parent_by_sign[sign3(x)][sign3(y)][h & 1u];
}

/* A room's code: the edges it claims (its parent door and its own east and
 * south loop edges) in bits 0..3, whether its dead-end fix roll passes in bit
 * 4, and which closed side the fix would open (0..2) in bits 5..6. sx, sy are
 * the sign classes of its coordinates; with_fix 0 leaves bits 4..6 clear
 * (the callers pass a constant, so the work is compiled away). */
static inline int32_t room_code(const dg_world *w, int sx, int sy, uint64_t h, int with_fix)
{
    int32_t code = parent_by_sign[sx][sy][h & 1u] | (int32_t)passes(h, 1, w->loop_below) << 1 |
                   (int32_t)passes(h, 17, w->loop_below) << 2;
    if (with_fix)
        code |= (int32_t)passes(h, 33, w->fix_below) << 4 | (int32_t)(((h >> 49) * 3u) >> 15) << 5;
    return code;
}

/* A room's doors from its own side mask and the masks of its N, E, S and W
 * neighbours, each contributing the bit of the side it shares with the room
 * (claims go in as codes: the bits above 3 are masked off). */
static inline int32_t gather(int32_t self, int32_t n, int32_t e, int32_t s, int32_t w)
{
    return (self & 15) | ((n >> 2) & DG_SIDE_N) | ((e >> 2) & DG_SIDE_E) |
           ((s << 2) & DG_SIDE_S) | ((w << 2) & DG_SIDE_W);
}

/* The side the dead-end fix opens for a room (by its code) with these base
 * doors, or 0: only for a room with one door, the chosen one of the three
 * others in N E S W order. Branch-free: it runs five times a query. */
static inline int32_t fix_side(int32_t code, int32_t base)
{
    static const int8_t closed[16][4] = {
        [DG_SIDE_N] = {DG_SIDE_E, DG_SIDE_S, DG_SIDE_W, 0},
        [DG_SIDE_E] = {DG_SIDE_N, DG_SIDE_S, DG_SIDE_W, 0},
        [DG_SIDE_S] = {DG_SIDE_N, DG_SIDE_E, DG_SIDE_W, 0},
        [DG_SIDE_W] = {DG_SIDE_N, DG_SIDE_E, DG_SIDE_S, 0},
    };
    return closed[base][(code >> 5) & 3] & -((code >> 4) & 1);
}

/* Doors of room (x, y); *hash gets its hash. The tree and loop edges need the
 * room and its four neighbours; the dead-end fix of a neighbour needs that
 * neighbour's own base doors, hence the eight rooms two steps away. */
static inline int32_t doors_near(const dg_world *w, int64_t x, int64_t y, uint64_t *hash,
                                 int with_fix)
{
    uint64_t col = column_hash(w, x), col_e = column_hash(w, x + 1), col_w = column_hash(w, x - 1);
    uint64_t h = room_hash(col, y);
    int sx = sign3(x), sy = sign3(y), sxe = sign3(x + 1), sxw = sign3(x - 1);
    int syn = sign3(y - 1), sys = sign3(y + 1);
    int32_t k = room_code(w, sx, sy, h, with_fix);
    int32_t kn = room_code(w, sx, syn, room_hash(col, y - 1), with_fix);
    int32_t ks = room_code(w, sx, sys, room_hash(col, y + 1), with_fix);
    int32_t ke = room_code(w, sxe, sy, room_hash(col_e, y), with_fix);
    int32_t kw = room_code(w, sxw, sy, room_hash(col_w, y), with_fix);
    int32_t base = gather(k, kn, ke, ks, kw);
    *hash = h;
    if (!with_fix)
        return base;
    uint64_t col_ee = column_hash(w, x + 2), col_ww = column_hash(w, x - 2);
    int32_t knn = room_code(w, sx, sign3(y - 2), room_hash(col, y - 2), 0);
    int32_t kss = room_code(w, sx, sign3(y + 2), room_hash(col, y + 2), 0);
    int32_t kee = room_code(w, sign3(x + 2), sy, room_hash(col_ee, y), 0);
    int32_t kww = room_code(w, sign3(x - 2), sy, room_hash(col_ww, y), 0);
    int32_t kne = room_code(w, sxe, syn, room_hash(col_e, y - 1), 0);
    int32_t kse = room_code(w, sxe, sys, room_hash(col_e, y + 1), 0);
    int32_t ksw = room_code(w, sxw, sys, room_hash(col_w, y + 1), 0);
    int32_t knw = room_code(w, sxw, syn, room_hash(col_w, y - 1), 0);
    int32_t fn = fix_side(kn, gather(kn, knn, kne, k, knw));
    int32_t fe = fix_side(ke, gather(ke, kne, kee, kse, k));
    int32_t fs = fix_side(ks, gather(ks, k, kse, kss, ksw));
    int32_t fw = fix_side(kw, gather(kw, knw, k, ksw, kww));
    return base | fix_side(k, base) | gather(0, fn, fe, fs, fw);
}

static int32_t doors_at(const dg_world *w, int64_t x, int64_t y, uint64_t *hash)
{
    return w->fix_below ? doors_near(w, x, y, hash, 1) : doors_near(w, x, y, hash, 0);
}

void dgi_world_door_block(const dg_world *w, int64_t x0, int64_t y0, int32_t cols, int32_t rows,
                          uint8_t *doors)
{
    enum { CODES = DGI_WORLD_BLOCK + 4, INNER = DGI_WORLD_BLOCK + 2 };
    uint8_t code[CODES * CODES], base[INNER * INNER], fix[INNER * INNER];
    if (cols < 1 || rows < 1) /* nothing to do; also tells the analyzer the loops run */
        return;
    int32_t cw = cols + 4, bw = cols + 2;
    for (int32_t i = 0; i < cw; i++)
    {
        uint64_t col = column_hash(w, x0 - 2 + i);
        int sx = sign3(x0 - 2 + i);
        for (int32_t j = 0; j < rows + 4; j++)
            code[j * cw + i] =
                (uint8_t)room_code(w, sx, sign3(y0 - 2 + j), room_hash(col, y0 - 2 + j), 1);
    }
    for (int32_t j = 0; j < rows + 2; j++)
        for (int32_t i = 0; i < bw; i++)
        {
            const uint8_t *c = &code[(j + 1) * cw + i + 1];
            int32_t b = gather(c[0], c[-cw], c[1], c[cw], c[-1]);
            base[j * bw + i] = (uint8_t)b;
            fix[j * bw + i] = (uint8_t)fix_side(c[0], b);
        }
    for (int32_t j = 0; j < rows; j++)
        for (int32_t i = 0; i < cols; i++)
        {
            int32_t at = (j + 1) * bw + i + 1;
            doors[j * cols + i] = (uint8_t)(base[at] | fix[at] |
                                            gather(0, fix[at - bw], fix[at + 1], fix[at + bw],
                                                   fix[at - 1]));
        }
}

int32_t dgi_world_doors(const dg_world *w, int64_t x, int64_t y)
{
    uint64_t h;
    return doors_at(w, x, y, &h);
}

/* ---- difficulty and furnishing --------------------------------------------- */

static int32_t curve_at(const dg_world_params *p, int64_t distance)
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

static int32_t difficulty_at(const dg_world *w, int64_t distance)
{
    const dg_world_params *p = &w->params;
    if (distance < w->difficulty_len)
        return w->difficulty[distance];
    if (distance >= p->curve_distance[p->curve_points - 1])
        return p->curve_level[p->curve_points - 1];
    return curve_at(p, distance);
}

/* One side of a varied room from 32 hash bits: the interior length n
 * (room_min..room_size - 1) and its first tile inside the cell, placed so
 * that the interior covers the cell's middle line, where the doors are, and
 * its walls stay inside the cell, the far one off the cell's last tile
 * (offsets 0..P-2): two neighbours' walls never touch, so no two doors
 * stand back to back. */
static void room_side(const dg_world *w, uint32_t bits, int32_t *start, int32_t *len)
{
    int32_t size = w->size - 1, lo_len = DG_MIN(w->params.room_min, size), mid = w->mid + 1;
    int32_t n = lo_len + (int32_t)(((bits & 0xFFFFu) * (uint32_t)(size - lo_len + 1)) >> 16);
    int32_t lo = DG_MAX(0, mid - n), hi = DG_MIN(mid - 1, size - n); /* west wall offsets */
    *len = n;
    *start = 1 + lo + (int32_t)(((bits >> 16) * (uint32_t)(hi - lo + 1)) >> 16);
}

/* The room's interior inside its cell: the whole cell for full rooms and for
 * furnished ones (the prefab is room-sized), else drawn from its own hash. */
static void shape_room(const dg_world *w, uint64_t h, dg_world_room *room)
{
    room->inner_x = room->inner_y = 1;
    room->inner_w = room->inner_h = w->size;
    if (w->params.room_min >= w->size || room->prefab >= 0)
        return;
    uint64_t s = mix64(h ^ CHANNEL_SHAPE);
    room_side(w, (uint32_t)s, &room->inner_x, &room->inner_w);
    room_side(w, (uint32_t)(s >> 32), &room->inner_y, &room->inner_h);
}

static void fill_room(const dg_world *w, int64_t x, int64_t y, uint64_t h, int32_t doors,
                      dg_world_room *room)
{
    memset(room, 0, sizeof *room);
    room->x = x;
    room->y = y;
    room->distance = (x < 0 ? -x : x) + (y < 0 ? -y : y);
    room->seed = mix64(h ^ CHANNEL_GAME);
    room->doors = doors;
    room->door_class = w->door_class[doors];
    room->parent = parent_side(x, y, h);
    room->difficulty = difficulty_at(w, room->distance);
    dgi_world_furnish(w, h, room);
    shape_room(w, h, room);
}

void dgi_world_room_with(const dg_world *w, int64_t x, int64_t y, int32_t doors,
                         dg_world_room *room)
{
    fill_room(w, x, y, room_hash(column_hash(w, x), y), doors, room);
}

dg_status dg_world_room_info(const dg_world *world, int64_t x, int64_t y, dg_world_room *room)
{
    if (!world || !room)
        return DG_E_NULL;
    if (!dgi_world_in_range(x, y))
        return DG_E_INVALID;
    uint64_t h;
    int32_t doors = doors_at(world, x, y, &h);
    fill_room(world, x, y, h, doors, room);
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
    if (DGI_SPARE_CHECK(p->spare, "world params", diag) != DG_OK)
        return DG_E_INVALID;
    if (p->room_size < DG_WORLD_ROOM_MIN || p->room_size > DG_WORLD_ROOM_MAX ||
        p->room_size % 2 == 0)
        return dgi_fail(diag, DG_E_INVALID, "room_size (%d) must be odd and in %d..%d",
                        (int)p->room_size, DG_WORLD_ROOM_MIN, DG_WORLD_ROOM_MAX);
    if (p->room_min < DG_WORLD_ROOM_MIN || p->room_min > p->room_size)
        return dgi_fail(diag, DG_E_INVALID, "room_min (%d) must be in %d..room_size (%d)",
                        (int)p->room_min, DG_WORLD_ROOM_MIN, (int)p->room_size);
    if (p->border != 0 && p->border != 1)
        return dgi_fail(diag, DG_E_INVALID, "border (%d) must be 0 or 1", (int)p->border);
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

/* The curve over the first distances, where games spend their time: a table
 * lookup instead of a 64-bit division per query. */
static dg_status tabulate_curve(dg_world *w)
{
    int64_t last = w->params.curve_distance[w->params.curve_points - 1];
    int32_t len = (int32_t)DG_MIN(last + 1, DIFFICULTY_TABLE_MAX);
    w->difficulty = dgi_alloc(&w->allocator, (size_t)len * sizeof(int32_t));
    if (!w->difficulty)
        return DG_E_NOMEM;
    w->difficulty_len = len;
    for (int32_t d = 0; d < len; d++)
        w->difficulty[d] = curve_at(&w->params, d);
    return DG_OK;
}

void dg_world_free(dg_world *world)
{
    if (!world)
        return;
    dg_allocator a = world->allocator;
    size_t slots = (size_t)world->slot_count;
    dgi_free(&a, world->difficulty, (size_t)world->difficulty_len * sizeof(int32_t));
    dgi_free(&a, world->first_slot, (size_t)DG_MAX(world->prefab_count, 1) * sizeof(int32_t));
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
    dg_world *w = dgi_calloc(allocator, 1, sizeof *w);
    if (!w)
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for the world");
    if (allocator)
        w->allocator = *allocator;
    w->params = *p;
    w->key = dgi_hash_combine(seed, 0x574F524C44ULL);
    w->size = p->room_size;
    w->period = p->room_size + (p->room_min < p->room_size ? 2 : 1); /* own walls or shared */
    w->mid = p->room_size / 2;
    w->loop_below = threshold16(p->loop_permille);
    w->fix_below = threshold16(p->dead_end_fix);
    w->furnish_below = threshold16(p->furnish_permille);
    for (int32_t m = 0; m < 16; m++)
        w->door_class[m] = dg_door_class(m);
    if (tabulate_curve(w) != DG_OK)
    {
        dg_world_free(w);
        return dgi_fail(diag, DG_E_NOMEM, "out of memory for the difficulty table");
    }
    st = p->furnishing ? dgi_world_build_atlas(w, diag) : DG_OK;
    if (st != DG_OK)
    {
        dg_world_free(w);
        return st;
    }
    *world = w;
    dgi_diag_ok(diag);
    return DG_OK;
}
