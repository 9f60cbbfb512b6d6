/* The attach generator's room shapes, drawn once growth and loops are done,
 * when every door of every room is known: a room takes a shape (gen/shape.c)
 * only if each of its doors still opens onto the shape's floor, so doors stay
 * on the outline. The door graph takes walking distance inside a feature to be
 * Manhattan distance: crosses, circles, octagons and chunky rooms keep that;
 * pillared halls and caverns do not, so they go only to rooms with a single
 * entrance other than the start's, where no walk passes through and the exit
 * search walks the room cell by cell (dgi_att_shaped_farthest). */
#include "gen/attach_state.h"

#define SHAPE_TRIES 8 /* draws per shaped room until one suits its doors */

/* The interior cell a door of feature f opens onto. */
static void door_inside(const att_feat *f, const att_door *d, int32_t *x, int32_t *y)
{
    *x = d->x < f->x ? f->x : d->x >= f->x + f->w ? f->x + f->w - 1 : d->x;
    *y = d->y < f->y ? f->y : d->y >= f->y + f->h ? f->y + f->h - 1 : d->y;
}

static int32_t next_door(const att_ctx *c, int32_t d, int32_t f)
{
    return c->doors[d].a == f ? c->doors[d].next_a : c->doors[d].next_b;
}

/* 1: every door of room fi opens onto the floor of s. */
static int doors_fit(const att_ctx *c, int32_t fi, const dgi_shape *s)
{
    const att_feat *f = &c->feats[fi];
    for (int32_t d = f->doors_head; d >= 0; d = next_door(c, d, fi))
    {
        int32_t x, y;
        door_inside(f, &c->doors[d], &x, &y);
        if (!dgi_shape_has(s, x - f->x, y - f->y))
            return 0;
    }
    return 1;
}

static int single_entrance(const att_ctx *c, int32_t fi)
{
    int32_t d = c->feats[fi].doors_head;
    return d >= 0 && next_door(c, d, fi) < 0;
}

/* Kinds room fi may take: the Manhattan ones, and the others where no walk
 * goes through (one entrance, not the start) and the room is small enough for
 * the exit search's cell by cell walk. */
static uint32_t kinds_for(const att_ctx *c, int32_t fi)
{
    const att_feat *f = &c->feats[fi];
    uint32_t kinds = (uint32_t)c->p->shapes;
    if (fi == c->start_feat || !single_entrance(c, fi) || f->w * f->h > ATT_WALK_CELLS)
        kinds &= ~(1u << DG_SHAPE_PILLARS | 1u << DG_SHAPE_CAVERN);
    return kinds;
}

/* 1 if one of the 8 neighbours of p is passable (s: the row stride). */
static inline int near_passable(const uint8_t *p, ptrdiff_t s)
{
    return att_passable(p[-s - 1]) | att_passable(p[-s]) | att_passable(p[-s + 1]) |
           att_passable(p[-1]) | att_passable(p[1]) | att_passable(p[s - 1]) |
           att_passable(p[s]) | att_passable(p[s + 1]);
}

static inline int32_t floor_around(const uint8_t *p, ptrdiff_t s)
{
    return att_passable(p[-s]) + att_passable(p[1]) + att_passable(p[s]) + att_passable(p[-1]);
}

/* Bit i: cell p[i] of 8 is passable. The scratch map holds only rock 0,
 * floor 1, corridor 2, wall 3, door 4 and ATT_EDGE 0xFF, so a cell is
 * passable when it is not 0 and its two low bits are not both set. */
_Static_assert(DG_TILE_VOID == 0 && DG_TILE_FLOOR == 1 && DG_TILE_CORRIDOR == 2 &&
                   DG_TILE_WALL == 3 && DG_TILE_DOOR == 4 && ATT_EDGE == 0xFF,
               "passable8 reads the scratch map's tile values");
static inline uint64_t passable8(const uint8_t *p)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, ones = 0x0101010101010101ull;
    uint64_t v = att_cells_le(p);
    uint64_t nonzero = (((v & low7) + low7) | v) & ~low7; /* 0x80 where the byte is not 0 */
    uint64_t wall_or_edge = (v & (v >> 1) & ones) << 7; /* 0x80 where bits 0 and 1 are set */
    return att_flags_to_bits(nonzero & ~wall_or_edge);
}

/* Bit i: the cell row[i - 2] is passable, for the n cells from row[-2] on
 * (8 <= n <= 64), eight at a time; the last word overlaps the one before it. */
static inline uint64_t passable_bits(const uint8_t *row, int32_t n)
{
    const uint8_t *p = row - 2;
    uint64_t bits = 0;
    for (int32_t i = 0; i < n - 8; i += 8)
        bits |= passable8(p + i) << i;
    return bits | passable8(p + n - 8) << (n - 8);
}

/* A floor cell with one way out (the tip of a circle's end row, a cavern's
 * spur) reads as a dead end: the cells beside it, across that way, become
 * floor too. Widens the tips of row y of the room (w x h, interior at top)
 * in order, each seeing what the ones before it opened. Returns the tips;
 * *added counts the cells widened. */
static int32_t widen_row(uint8_t *top, ptrdiff_t s, int32_t w, int32_t h, int32_t y,
                         int32_t *added)
{
    int32_t tips = 0;
    uint8_t *row = top + (ptrdiff_t)y * s;
    for (int32_t x = 0; x < w; x++)
    {
        uint8_t *p = row + x;
        if (*p != DG_TILE_FLOOR || floor_around(p, s) != 1)
            continue;
        tips++;
        int horizontal = att_passable(p[-1]) || att_passable(p[1]); /* its way out */
        ptrdiff_t across = horizontal ? s : 1;
        int32_t pos = horizontal ? y : x, len = horizontal ? h : w;
        for (int k = -1; k <= 1; k += 2)
        {
            uint8_t *q = p + across * k;
            if (pos + k >= 0 && pos + k < len && *q == DG_TILE_VOID)
            {
                *q = DG_TILE_FLOOR;
                (*added)++;
            }
        }
    }
    return tips;
}

/* Bits x + 2 of the interior cells x of a row that are passable with exactly
 * one passable neighbour (up, here and down: the rows' passable_bits). */
static inline uint64_t one_way_bits(uint64_t up, uint64_t here, uint64_t down, int32_t w)
{
    uint64_t a = up, b = down, l = here << 1, r = here >> 1;
    uint64_t two = (a & b) | (l & r) | ((a | b) & (l | r));
    uint64_t interior = (((uint64_t)1 << w) - 1) << 2; /* w <= 60 */
    return here & (a | b | l | r) & ~two & interior;
}

/* The tips of a room, round after round (TIP_ROUNDS at most, until a round
 * widens nothing). Returns the cells widened; *no_tips is 1 if the last round
 * found no tip at all (the room's cells do not change after the shape pass,
 * so the dead-end count can skip it). Rooms 4 to 60 wide skip, by the rows'
 * bits, every row where no cell can be a tip, which is most of them. */
#define TIP_ROUNDS 3
static int32_t widen_tips(const att_ctx *c, const att_feat *f, uint8_t *no_tips)
{
    const ptrdiff_t s = c->stride;
    uint8_t *const top = att_at(c, f->x, f->y);
    const int32_t w = f->w, h = f->h, n = w + 4;
    int32_t added = 0, widened = 1;
    *no_tips = 0;
    for (int round = 0; round < TIP_ROUNDS && widened; round++)
    {
        int32_t before = added, tips = 0;
        if (n < 8 || n > 64)
        {
            for (int32_t y = 0; y < h; y++)
                tips += widen_row(top, s, w, h, y, &added);
        }
        else
        {
            uint64_t up = passable_bits(top - s, n), here = passable_bits(top, n);
            for (int32_t y = 0; y < h; y++)
            {
                uint8_t *next = top + (ptrdiff_t)(y + 1) * s;
                uint64_t down = passable_bits(next, n);
                if (one_way_bits(up, here, down, w))
                {
                    int32_t was = added;
                    tips += widen_row(top, s, w, h, y, &added);
                    if (added != was) /* rows y and y + 1 may have changed */
                    {
                        here = passable_bits(next - s, n);
                        down = passable_bits(next, n);
                    }
                }
                up = here;
                here = down;
            }
        }
        widened = added != before;
        *no_tips = tips == 0;
    }
    return added;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Byte i of v is 0x80 where byte i of v is 0 (exact: no carries across bytes). */
static inline uint64_t zero_bytes(uint64_t v)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((v & low7) + low7) | v) & ~low7;
}

/* Byte i of the result is bit i of b (b < 256). */
static inline uint64_t bits_to_bytes(uint64_t b)
{
    b = (b | b << 28) & 0x0000000F0000000Full;
    b = (b | b << 14) & 0x0003000300030003ull;
    return (b | b << 7) & 0x0101010101010101ull;
}
#endif

/* Columns -1 .. w of row (w + 2 >= 6 cells): every solid cell becomes wall
 * where bit x + 2 of near is set, else rock; eight cells a word where the
 * machine is little-endian (the last word overlaps the one before it, which
 * changes nothing twice: the rule gives a cell it made the same tile again). */
static inline void rederive_row(uint8_t *row, int32_t w, uint64_t near)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const int32_t n = w + 2;
    const uint64_t ones = 0x0101010101010101ull;
    for (int32_t i = 0; i < n; i += 8)
    {
        int32_t at = n >= 8 ? DG_MIN(i, n - 8) : 0; /* the word's first column, from -1 */
        uint64_t lanes = n >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
        uint8_t *p = row - 1 + at;
        uint64_t v = att_cells_le(p);
        uint64_t not_solid = (v & 0xFCFCFCFCFCFCFCFCull) | ((v ^ (v >> 1)) & ones);
        uint64_t solid = ((zero_bytes(not_solid) >> 7) * 0xFF) & lanes; /* 0xFF: rock or wall */
        uint64_t walls = bits_to_bytes((near >> (at + 1)) & 0xFF) * DG_TILE_WALL;
        v = (v & ~solid) | (walls & solid);
        memcpy(p, &v, sizeof v);
    }
#else
    for (int32_t x = -1; x <= w; x++)
        if (att_solid(row[x]))
            row[x] = (near >> (x + 2)) & 1 ? DG_TILE_WALL : DG_TILE_VOID;
#endif
}

/* The room's box and its ring (interior at top, w x h, 8 <= w + 4 <= 64): every
 * solid cell becomes wall if one of its 8 neighbours is passable, else rock.
 * Solid cells never turn passable here, so the rows' bits are read once. */
static void rederive_walls_narrow(uint8_t *top, ptrdiff_t s, int32_t w, int32_t h)
{
    int32_t n = w + 4; /* columns -2 .. w + 1 */
    uint64_t above = passable_bits(top - 2 * s, n), here = passable_bits(top - s, n);
    for (int32_t y = -1; y <= h; y++)
    {
        uint64_t below = passable_bits(top + (ptrdiff_t)(y + 1) * s, n);
        uint64_t band = above | here | below;
        uint64_t near = band | band << 1 | band >> 1; /* bit i + 2: a neighbour of column i */
        rederive_row(top + (ptrdiff_t)y * s, w, near);
        above = here;
        here = below;
    }
}

/* Cuts room f to shape s (tips widened): the cells outside it, and the walls
 * left with nothing passable beside them, become wall where they touch floor,
 * rock where they do not. Returns its floor cells. */
static int32_t carve_shape(att_ctx *c, att_feat *f, const dgi_shape *sh)
{
    const ptrdiff_t s = c->stride;
    uint8_t *const top = att_at(c, f->x, f->y);
    const int32_t w = f->w, h = f->h;
    int32_t cut = 0;
    for (int32_t y = 0; y < h; y++)
    {
        uint8_t *row = top + (ptrdiff_t)y * s;
        if (sh->kind == DG_SHAPE_PILLARS)
        {
            for (int32_t x = 0; x < w; x++)
                if (!dgi_shape_has(sh, x, y))
                {
                    row[x] = DG_TILE_VOID;
                    cut++;
                }
            continue;
        }
        int32_t lo = 0, hi = w; /* a row's span, read once */
        dgi_shape_row(sh, y, &lo, &hi);
        lo = DG_MAX(0, DG_MIN(lo, w));
        hi = DG_MAX(lo, DG_MIN(hi, w));
        memset(row, DG_TILE_VOID, (size_t)lo);
        memset(row + hi, DG_TILE_VOID, (size_t)(w - hi));
        cut += lo + (w - hi);
    }
    int32_t widened = widen_tips(c, f, &f->no_tips);
    c->floor += widened - cut;
    int32_t cells = w * h - cut + widened;
    if (w + 4 >= 8 && w + 4 <= 64)
        rederive_walls_narrow(top, s, w, h);
    else
        for (int32_t y = -1; y <= h; y++)
        {
            uint8_t *row = top + (ptrdiff_t)y * s;
            for (int32_t x = -1; x <= w; x++)
            {
                uint8_t *p = row + x;
                if (att_solid(*p))
                    *p = near_passable(p, s) ? DG_TILE_WALL : DG_TILE_VOID;
            }
        }
    return cells;
}

/* Rooms too small for every kind (most of them: a side below 5) take a
 * chunky shape with this chance, if at least SMALL_SHAPE_CELLS large; else
 * three quarters of the rooms of a small map stayed plain rectangles. */
#define SMALL_SHAPE_PERMILLE 100
#define SMALL_SHAPE_CELLS 12

/* Cut corner k of s (NW, NE, SE, SW) no longer covers interior cell (x, y):
 * its rows stop short of a door on a side wall, its columns of one on the top
 * or bottom wall. */
static void clear_corner(dgi_shape *s, int k, int32_t x, int32_t y)
{
    int32_t nw = s->notch_w[k], nh = s->notch_h[k];
    int32_t from_x = k == 0 || k == 3 ? x : s->w - 1 - x; /* columns from the corner's side */
    int32_t from_y = k <= 1 ? y : s->h - 1 - y;
    if (from_x >= nw || from_y >= nh)
        return;
    if (x == 0 || x == s->w - 1)
        s->notch_h[k] = from_y;
    else
        s->notch_w[k] = from_x;
    if (s->notch_w[k] == 0 || s->notch_h[k] == 0)
        s->notch_w[k] = s->notch_h[k] = 0;
}

/* A chunky shape for small room fi whose corners keep clear of its doors, so
 * one draw fits; 1 if a corner is still cut. */
static int small_shape(const att_ctx *c, int32_t fi, dgi_shape *s, dg_rng *rng)
{
    const att_feat *f = &c->feats[fi];
    dgi_shape_chunky(s, f->w, f->h, rng);
    for (int32_t d = f->doors_head; d >= 0; d = next_door(c, d, fi))
    {
        int32_t x, y;
        door_inside(f, &c->doors[d], &x, &y);
        for (int k = 0; k < 4; k++)
            clear_corner(s, k, x - f->x, y - f->y);
    }
    int32_t cut = 0;
    for (int k = 0; k < 4; k++)
        cut += s->notch_w[k];
    return cut > 0;
}

/* One draw of a shape for room fi (a chunky one when small): 1 if it fits its doors. */
static int draw_shape(const att_ctx *c, int32_t fi, uint32_t kinds, int small, dgi_shape *s,
                      dg_rng *rng)
{
    const att_feat *f = &c->feats[fi];
    if (small)
        return small_shape(c, fi, s, rng);
    dgi_shape_pick(s, f->w, f->h, kinds, 1000, rng);
    return s->kind != DG_SHAPE_RECT && doors_fit(c, fi, s);
}

/* 1: room fi is too small for any kind but may take a small chunky shape. */
static int small_chunky(const att_ctx *c, int32_t fi, uint32_t kinds, dg_rng *rng)
{
    const att_feat *f = &c->feats[fi];
    if (f->w < 3 || f->h < 3 || f->w * f->h < SMALL_SHAPE_CELLS || !(kinds >> DG_SHAPE_CHUNKY & 1u))
        return 0;
    for (int32_t k = DG_SHAPE_RECT + 1; k < DGI_SHAPE_KINDS; k++)
        if ((kinds >> k & 1u) && dgi_shape_fits(k, f->w, f->h))
            return 0;
    return dgi_rng_below(rng, 1000) < SMALL_SHAPE_PERMILLE;
}

void dgi_att_shapes(att_ctx *c, uint64_t seed)
{
    dg_rng rng;
    dgi_rng_seed(&rng, seed, 0);
    for (int32_t fi = 0; fi < c->nfeat; fi++)
    {
        att_feat *f = &c->feats[fi];
        if (f->kind != ATT_ROOM)
            continue;
        f->cells = f->w * f->h;
        if (dgi_rng_below(&rng, 1000) >= (uint32_t)c->p->shape_share)
            continue;
        uint32_t kinds = kinds_for(c, fi);
        int small = small_chunky(c, fi, kinds, &rng);
        dgi_shape s;
        for (int t = 0; t < SHAPE_TRIES; t++)
        {
            if (!draw_shape(c, fi, kinds, small, &s, &rng))
            {
                if (s.kind == DG_SHAPE_RECT || small)
                    break; /* no kind fits the room, or its doors leave no corner */
                continue;
            }
            f->cells = carve_shape(c, f, &s);
            /* widened tips may give a small room all its cells back */
            f->shape = (uint8_t)(f->cells == f->w * f->h ? DG_SHAPE_RECT : s.kind);
            break;
        }
    }
}

/* ---- the exit in a room with a single entrance ------------------------------------ */

/* The farthest floor cell of room fi from its only door (at walking distance
 * dist from the start), by a walk cell by cell inside it; ties as the exit
 * search (the first in row-major order). Returns the distance. */
int32_t dgi_att_shaped_farthest(const att_ctx *c, int32_t fi, int32_t *fx, int32_t *fy)
{
    const att_feat *f = &c->feats[fi];
    const att_door *d = &c->doors[f->doors_head];
    int16_t dist[ATT_WALK_CELLS];
    int16_t queue[ATT_WALK_CELLS];
    int32_t n = f->w * f->h, head = 0, tail = 0, x, y;
    for (int32_t i = 0; i < n; i++)
        dist[i] = -1;
    door_inside(f, d, &x, &y);
    dist[(y - f->y) * f->w + (x - f->x)] = 1;
    queue[tail++] = (int16_t)((y - f->y) * f->w + (x - f->x));
    while (head < tail)
    {
        int32_t i = queue[head++], cx = i % f->w, cy = i / f->w;
        for (int dir = 0; dir < 4; dir++)
        {
            int32_t nx = cx + att_dx(dir), ny = cy + att_dy(dir), j = ny * f->w + nx;
            /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): j < n, all set above */
            if (nx < 0 || ny < 0 || nx >= f->w || ny >= f->h || dist[j] >= 0 ||
                *att_at(c, f->x + nx, f->y + ny) != DG_TILE_FLOOR)
                continue;
            dist[j] = (int16_t)(dist[i] + 1);
            queue[tail++] = (int16_t)j;
        }
    }
    int32_t best = -1;
    for (int32_t i = 0; i < n; i++)
        if (dist[i] > best)
        {
            best = dist[i];
            *fx = f->x + i % f->w;
            *fy = f->y + i / f->w;
        }
    return d->dist + best;
}
