/* Mixed generation: vaults stamped into a map another generator made, only
 * on open floor, doors onto open floor, never cutting the map apart. */
#include "analysis/analysis.h"
#include "prefab/prefab.h"

#define DGI_MIXED_POSITIONS_PER_CELL 16 /* the call's budget of positions, per grid cell */
#define DGI_MIXED_OUTCOMES 4 /* outcomes of a prefab with random glyphs tried before it is out */
#define DGI_MIXED_FIT_LISTS 8 /* prefab sizes whose fitting rooms are kept for the next vault */

/* The host rooms a prefab size fits (rooms_that_fit), kept while the call
 * lasts: the rooms never change, and most vaults repeat a size. */
typedef struct fit_list {
    int32_t w, h, allowed; /* the prefab's size and allowed orientations */
    int32_t n;             /* entries in fit and mask */
    int32_t *fit;          /* the rooms, in room order (or -1: the grid) */
    int32_t *mask;         /* per room: the orientations that fit it, and (<< 8) those that
                            * fit it less its outer ring (shrink) */
} fit_list;

typedef struct mixed {
    const dg_prefab_set *set;
    const dg_prefab_mixed_params *p;
    int32_t *rooms;      /* indices of the host rooms (not prefab rooms) */
    int32_t room_count;
    const int32_t *fit;  /* the host rooms big enough for the vault being placed (a fit_list's) */
    const int32_t *fit_mask;
    fit_list lists[DGI_MIXED_FIT_LISTS];
    int32_t next_list;   /* the list a new size takes when all are made */
    int64_t *weights;
    uint8_t *used;       /* 1: placed at least once */
    uint8_t *failed;     /* outcomes that fitted nowhere (a prefab is out after 1 or DGI_MIXED_OUTCOMES;
                          * one too big for the grid is out from the start) */
    int64_t attempts;    /* positions tried (reported saturated to int32) */
    int64_t budget;      /* positions the whole call may try (docs/prefabs.md) */
    uint8_t *occ;        /* 1 under a vault placed here, 3 reserved or next to a reserved cell */
    uint8_t *local_mark; /* still_connected: the cells of a box + ring, local indices */
    int32_t *local_stack;
    size_t local_size;   /* cells of the largest box + ring */
    uint8_t *mark;       /* choose_exit: room bits and cells reached (made after the vaults) */
    int32_t *stack;      /* choose_exit: the walk's queue, one per passable cell */
    size_t stack_size;
    int64_t start_cell;  /* the host's start (row-major index), -1 if none: vaults leave it free */
    uint64_t *busy;      /* a bit per cell no vault cell may take (not open floor, or under a
                          * vault or reserved), rows of busy_words words with a ring of set
                          * bits round the grid: row y + 1, bit x + 1 for cell (x, y); then
                          * plane_words on, the door bits in the same layout */
    size_t busy_words, plane_words, busy_size;
    uint64_t *frame;     /* per orientation, for the vault being placed: its frames (frame_of),
                          * its box grown by one, rows of frame_row_words(w) words */
    size_t frame_slot, frame_size; /* words per orientation; bytes of all 8 */
    uint32_t *edge;      /* per orientation (local_size apart): the frame cells off the vault
                          * beside a solid cell of it, as index << 3 | solid neighbours */
    int32_t edge_count[DG_ORIENT_COUNT];
    uint32_t frame_made; /* orientations whose frame is made for this vault */
    const dg_allocator *alloc;
    uint8_t *backup;
    size_t cells, backup_size;
    uint8_t buf[4096];
} mixed;

/* The vault being placed: its prefab and its resolved glyphs. */
typedef struct vault_try {
    int32_t index;
    const dgi_prefab *q;
    const uint8_t *glyphs;
    int ring;            /* 1: only positions a cell inside a room's edge (shrink) */
    int rescan;          /* 1: the scan with ring 1 found no position in any room, so the
                          * positions a cell inside a room's edge are known to fail */
} vault_try;

void dg_prefab_mixed_defaults(dg_prefab_mixed_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_prefab_mixed_table, p); /* the rows of core/params.c */
    /* not in the table (a pointer): tag stays NULL (no tag filter) */
}

static dg_status check_params(const dg_prefab_set *set,
                              const dg_prefab_mixed_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_mixed: set is NULL");
    dg_status st;
    if ((st = DGI_SPARE_CHECK(p->spare, "prefab_mixed params", diag)) != DG_OK)
        return st;
    if (p->mode != DG_PREFAB_FULL && p->mode != DG_PREFAB_JIGSAW && p->mode != DG_PREFAB_ISLAND &&
        p->mode != DG_PREFAB_FURNISH)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: mode %d is not one of 1 (full), 2 (jigsaw), 4 (island), 8 (furnish)", (int)p->mode);
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->count < 0 || p->count > 100000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: count %d must be 0..100000", (int)p->count);
    if (p->positions < 1 || p->positions > 100000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: positions %d must be 1..100000", (int)p->positions);
    if (p->in_rooms < 0 || p->in_rooms > 1 || p->unique < 0 || p->unique > 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: in_rooms and unique must be 0 or 1");
    if (p->floor_per_vault < 0 || p->floor_per_vault > 1000000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: floor_per_vault %d must be 0..1000000",
                        (int)p->floor_per_vault);
    return DG_OK;
}

/* The result's host rooms (the ones vaults are drawn in) must lie in the grid;
 * the sums are 64-bit as a caller's room may reach INT32_MAX. */
static dg_status check_rooms(const dg_grid *g, const dg_result *r, const dg_prefab_mixed_params *p,
                             dg_diag *diag)
{
    for (int32_t i = 0; r && p->in_rooms && i < r->room_count; i++)
    {
        dg_rect q = r->rooms[i].rect;
        if (r->rooms[i].kind == DG_ROOM_PREFAB || q.w <= 0 || q.h <= 0)
            continue;
        if (q.x < 0 || q.y < 0 || (int64_t)q.x + q.w > g->width || (int64_t)q.y + q.h > g->height)
            return dgi_fail(diag, DG_E_INVALID, "prefab_mixed: room %d (%d, %d, %dx%d) is not inside "
                            "the %dx%d grid", (int)i, (int)q.x, (int)q.y, (int)q.w, (int)q.h,
                            (int)g->width, (int)g->height);
    }
    return DG_OK;
}

static int open_floor(uint8_t tile)
{
    return dgi_passable_default[tile] && tile != DG_TILE_DOOR;
}

/* Words in a frame row of a vault w cells wide (its box grown by one). */
static size_t frame_row_words(int32_t w)
{
    return ((size_t)w + 2 + 63) / 64;
}

static void set_bit(uint64_t *row, int32_t b)
{
    row[b >> 6] |= (uint64_t)1 << (b & 63);
}

/* The 4-neighbours of frame cell (X, Y) (all inside the frame). */
static void set_around(uint64_t *f, size_t fw, int32_t X, int32_t Y)
{
    set_bit(f + (size_t)(Y - 1) * fw, X);
    set_bit(f + (size_t)Y * fw, X - 1);
    set_bit(f + (size_t)Y * fw, X + 1);
    set_bit(f + (size_t)(Y + 1) * fw, X);
}

static int bit_of(const uint64_t *row, int32_t b)
{
    return (int)(row[b >> 6] >> (b & 63) & 1);
}

/* m->edge for orientation o: the cells of frame `guard` (beside a solid
 * vault cell) that are not the vault's own (body, the first frame), with
 * how many solid vault cells they touch: the only cells whose dead-end
 * count a stamp changes. solid: 1 on the frame cells (row-major, w + 2 to a
 * row) that are solid cells of the vault, 0 on the rest and the ring. */
static void list_edge(mixed *m, int32_t o, const dgi_xform *t, const uint64_t *body, const uint64_t *guard,
                      const uint8_t *solid)
{
    size_t fw = frame_row_words(t->w);
    int32_t W = t->w + 2, H = t->h + 2, n = 0;
    uint32_t *e = m->edge + (size_t)o * m->local_size;
    for (int32_t Y = 0; Y < H; Y++)
        for (int32_t X = 0; X < W; X++)
        {
            int inside = X >= 1 && Y >= 1 && X <= t->w && Y <= t->h;
            if (!bit_of(guard + (size_t)Y * fw, X) || (inside && bit_of(body + (size_t)Y * fw, X)))
                continue;
            const uint8_t *c = solid + Y * W + X;
            uint32_t touching = (uint32_t)((Y > 0 ? c[-W] : 0) + (X > 0 ? c[-1] : 0) + (X + 1 < W ? c[1] : 0) +
                                           (Y + 1 < H ? c[W] : 0));
            e[n++] = (uint32_t)(Y * W + X) << 3 | touching;
        }
    m->edge_count[o] = n;
}

/* The frames of orientation o (turned as t) of the vault being placed, made
 * on first use, bit X + 1 of row Y + 1 standing for its cell (X, Y): first
 * the cells that must be free (its non-void cells, and the cell outside its
 * box a door on its border faces), then the cells where a host door would
 * touch a solid cell of the vault (that door would lead nowhere). */
static const uint64_t *frame_of(mixed *m, const vault_try *v, int32_t o, const dgi_xform *t)
{
    size_t fw = frame_row_words(t->w), rows = (size_t)t->h + 2;
    uint64_t *f = m->frame + (size_t)o * m->frame_slot, *guard = f + rows * fw;
    if (m->frame_made >> o & 1)
        return f;
    memset(f, 0, 2 * rows * fw * sizeof *f);
    uint8_t *solid = m->local_mark; /* scratch: still_connected is not under way */
    memset(solid, 0, (size_t)(t->w + 2) * rows);
    const dgi_glyph *lg = m->set->legends[v->q->legend].glyph;
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
        {
            const dgi_glyph *d = &lg[v->glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]];
            if (d->cls == DGI_CLASS_VOID)
                continue;
            set_bit(f + (size_t)(Y + 1) * fw, X + 1);
            if (!dgi_passable_default[d->tile])
            {
                set_around(guard, fw, X + 1, Y + 1);
                solid[(Y + 1) * (t->w + 2) + X + 1] = 1;
            }
            if (d->cls != DGI_CLASS_DOOR)
                continue;
            if (Y == 0)
                set_bit(f, X + 1);
            if (X == t->w - 1)
                set_bit(f + (size_t)(Y + 1) * fw, X + 2);
            if (Y == t->h - 1)
                set_bit(f + (size_t)(Y + 2) * fw, X + 1);
            if (X == 0)
                set_bit(f + (size_t)(Y + 1) * fw, 0);
        }
    list_edge(m, o, t, f, guard, solid);
    m->frame_made |= 1u << o;
    return f;
}

/* 64 bits of a bit row from bit p on. */
static uint64_t bits_at(const uint64_t *row, size_t p)
{
    size_t k = p >> 6;
    unsigned s = (unsigned)(p & 63);
    return s ? row[k] >> s | row[k + 1] << (64 - s) : row[k];
}

/* 1 if the vault's non-void cell covers the host's start. */
static int covers_start(const mixed *m, const dg_grid *g, const vault_try *v, const dgi_xform *t,
                        int32_t x, int32_t y)
{
    if (m->start_cell < 0)
        return 0;
    int32_t X = (int32_t)(m->start_cell % g->width) - x, Y = (int32_t)(m->start_cell / g->width) - y;
    if (X < 0 || Y < 0 || X >= t->w || Y >= t->h)
        return 0;
    const dgi_glyph *lg = m->set->legends[v->q->legend].glyph;
    return lg[v->glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].cls != DGI_CLASS_VOID;
}

/* Every non-void cell on open floor not under another vault, every border
 * door facing open floor outside the box, no host door beside a solid cell
 * of the vault (the start is covers_start's): the frames against the busy
 * and door bits, 64 cells at a time. */
static int fits(mixed *m, const vault_try *v, int32_t o, const dgi_xform *t, int32_t x, int32_t y)
{
    const uint64_t *f = frame_of(m, v, o, t);
    size_t fw = frame_row_words(t->w);
    for (int plane = 0; plane < 2; plane++)
        for (int32_t Y = 0; Y < t->h + 2; Y++, f += fw)
        {
            const uint64_t *row = m->busy + (size_t)plane * m->plane_words + (size_t)(y + Y) * m->busy_words;
            for (size_t k = 0; k < fw; k++)
                if (bits_at(row, (size_t)x + 64 * k) & f[k])
                    return 0;
        }
    return 1;
}

/* Bits of the positions x + i (i < 64) of row y where a frame meets its bit
 * plane, as far as `want` asks: one word per frame cell. */
static uint64_t clashes(const mixed *m, const uint64_t *f, size_t fw, int32_t frame_rows, int32_t x, int32_t y,
                        uint64_t want)
{
    uint64_t bad = 0;
    for (int plane = 0; plane < 2; plane++)
        for (int32_t Y = 0; Y < frame_rows && (bad & want) != want; Y++, f += fw)
        {
            const uint64_t *row = m->busy + (size_t)plane * m->plane_words + (size_t)(y + Y) * m->busy_words;
            for (size_t k = 0; k < fw; k++)
                for (uint64_t w = f[k]; w; w &= w - 1)
                    bad |= bits_at(row, (size_t)x + 64 * k + (size_t)dgi_lowest_bit64(w));
        }
    return bad;
}

/* OR of x >> j for j < n (n >= 1): bit p set if any of bits p .. p + n - 1
 * of x is, in log n steps. */
static uint64_t smear(uint64_t x, int32_t n)
{
    int32_t k = 1;
    for (; 2 * k <= n; k *= 2)
        x |= x >> k;
    return k == n ? x : x | x >> (n - k);
}

/* clashes for a frame one word wide when the positions asked and the frame
 * together span at most 64 cells: each frame row's runs of bits against one
 * window of its bit plane row, a run at a time instead of a bit at a time
 * (the bits of positions outside `want` may differ). */
static uint64_t clashes_narrow(const mixed *m, const uint64_t *f, int32_t frame_rows, int32_t x, int32_t y,
                               uint64_t want)
{
    uint64_t bad = 0;
    for (int plane = 0; plane < 2; plane++)
        for (int32_t Y = 0; Y < frame_rows && (bad & want) != want; Y++, f++)
        {
            if (!*f)
                continue;
            uint64_t win = bits_at(m->busy + (size_t)plane * m->plane_words + (size_t)(y + Y) * m->busy_words,
                                   (size_t)x);
            for (uint64_t w = *f; w;)
            {
                int32_t s = dgi_lowest_bit64(w), n = dgi_lowest_bit64(~(w >> s)); /* frame bits < 63 */
                bad |= smear(win >> s, n);
                w &= ~((((uint64_t)1 << n) - 1) << s);
            }
        }
    return bad;
}

/* The busy and door bits of the cells of box b, from the grid and occ. */
static void refresh_busy(mixed *m, const dg_grid *g, dg_rect b)
{
    for (int32_t y = b.y; y < b.y + b.h; y++)
    {
        uint64_t *row = m->busy + (size_t)(y + 1) * m->busy_words, *doors = row + m->plane_words;
        const uint8_t *occ = m->occ + (size_t)y * (size_t)g->width;
        for (int32_t x = b.x; x < b.x + b.w; x++)
        {
            size_t at = (size_t)x + 1;
            uint8_t tile = DG_CELL(g, x, y);
            uint64_t bit = (uint64_t)1 << (at & 63);
            uint64_t busy = (uint64_t)(!open_floor(tile) || occ[x]), door = (uint64_t)(tile == DG_TILE_DOOR);
            row[at >> 6] = (row[at >> 6] & ~bit) | (bit & (0 - busy));
            doors[at >> 6] = (doors[at >> 6] & ~bit) | (bit & (0 - door));
        }
    }
}

/* Bit 0 of each of the eight bytes of k, gathered into one byte. */
static uint64_t low_bits8(uint64_t k)
{
    return ((k & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

/* ORs the 8 bits `bits` into a bit row from bit b on. */
static inline void put_bits8(uint64_t *row, size_t b, uint64_t bits)
{
    row[b >> 6] |= bits << (b & 63);
    if ((b & 63) > 56)
        row[(b >> 6) + 1] |= bits >> (64 - (b & 63));
}

/* The busy and door bits of grid row y, 64 cells to a word, eight cells
 * gathered at a time; kind[tile] holds bit 0 busy, bit 1 door; occ only
 * counts if some cell is reserved. */
static void build_row(mixed *m, const dg_grid *g, int32_t y, const uint8_t *kind, int reserved)
{
    uint64_t *row = m->busy + (size_t)(y + 1) * m->busy_words, *doors = row + m->plane_words;
    const uint8_t *cell = &DG_CELL(g, 0, y), *occ = m->occ + (size_t)y * (size_t)g->width;
    size_t last = ((size_t)g->width + 1) >> 6;
    memset(row, 0, (last + 1) * sizeof *row);
    memset(doors, 0, (last + 1) * sizeof *doors);
    row[0] = 1; /* the ring left of the grid */
    int32_t x = 0;
    for (; x + 8 <= g->width; x += 8)
    {
        const uint8_t *c = cell + x;
        uint64_t k = (uint64_t)kind[c[0]] | (uint64_t)kind[c[1]] << 8 | (uint64_t)kind[c[2]] << 16 |
                     (uint64_t)kind[c[3]] << 24 | (uint64_t)kind[c[4]] << 32 | (uint64_t)kind[c[5]] << 40 |
                     (uint64_t)kind[c[6]] << 48 | (uint64_t)kind[c[7]] << 56;
        for (int i = 0; reserved && i < 8; i++)
            k |= (uint64_t)(occ[x + i] != 0) << (8 * i);
        put_bits8(row, (size_t)x + 1, low_bits8(k));
        put_bits8(doors, (size_t)x + 1, low_bits8(k >> 1));
    }
    for (; x < g->width; x++)
    {
        uint32_t k = kind[cell[x]] | (reserved && occ[x]);
        size_t b = (size_t)x + 1;
        row[b >> 6] |= (uint64_t)(k & 1) << (b & 63);
        doors[b >> 6] |= (uint64_t)(k >> 1) << (b & 63);
    }
    row[last] |= ~(uint64_t)0 << (((size_t)g->width + 1) & 63); /* the ring right of the grid */
}

/* The busy bits (a ring of busy cells round the grid) and the door bits of
 * the whole grid, after the reserved cells are taken. */
static dg_status make_busy(mixed *m, const dg_grid *g, int reserved)
{
    uint8_t kind[256];
    for (int tile = 0; tile < 256; tile++)
        kind[tile] = (uint8_t)((open_floor((uint8_t)tile) ? 0 : 1) | (tile == DG_TILE_DOOR) << 1);
    m->busy_words = ((size_t)g->width + 1) / 64 + 2;
    m->plane_words = m->busy_words * ((size_t)g->height + 2);
    m->busy_size = 2 * m->plane_words * sizeof *m->busy;
    m->busy = dgi_alloc(m->alloc, m->busy_size);
    if (!m->busy)
        return DG_E_NOMEM;
    memset(m->busy, 0xFF, m->busy_size / 2);
    memset(m->busy + m->plane_words, 0, m->busy_size / 2);
    for (int32_t y = 0; y < g->height; y++)
        build_row(m, g, y, kind, reserved);
    return DG_OK;
}

/* After a trial stamp in box b: are the passable cells that touch the vault
 * (its own and their 4-neighbours) connected inside the box grown by one? Then
 * any path that crossed the box can go around, so nothing was cut apart. */
static int still_connected(mixed *m, const dg_grid *g, dg_rect b)
{
    int32_t x0 = DG_MAX(0, b.x - 1), y0 = DG_MAX(0, b.y - 1);
    int32_t x1 = DG_MIN(g->width, b.x + b.w + 1), y1 = DG_MIN(g->height, b.y + b.h + 1);
    int32_t W = g->width, rw = x1 - x0, rh = y1 - y0, need = 0, top = 0, reached = 0;
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    uint8_t *mark = m->local_mark; /* the region's cells, row by row (local index) */
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
        {
            int32_t l = (y - y0) * rw + (x - x0);
            mark[l] = 0;
            if (!dgi_passable_default[DG_CELL(g, x, y)])
                continue;
            mark[l] = 1; /* passable, inside the region */
            int touches = m->occ[(size_t)y * (size_t)W + (size_t)x] == 2;
            for (int d = 0; d < 4 && !touches; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d];
                touches = nx >= 0 && ny >= 0 && nx < W && ny < g->height &&
                          m->occ[(size_t)ny * (size_t)W + (size_t)nx] == 2;
            }
            if (touches)
            {
                mark[l] = 2; /* must be reached */
                need++;
                if (top == 0)
                    m->local_stack[top++] = l;
            }
        }
    if (top)
    {
        mark[m->local_stack[0]] = 3;
        reached = 1;
    }
    while (top > 0)
    {
        int32_t c = m->local_stack[--top], x = c % rw, y = c / rw;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || nx >= rw || ny >= rh)
                continue;
            int32_t n = ny * rw + nx;
            if (mark[n] == 1 || mark[n] == 2)
            {
                reached += mark[n] == 2;
                mark[n] = 3;
                m->local_stack[top++] = n;
            }
        }
    }
    return need > 0 && reached == need; /* it must touch the map, and not cut it */
}

/* 1 if cell (x, y) is in the grid and blocks walking. */
static int solid_at(const dg_grid *g, int32_t x, int32_t y)
{
    return !dgi_passable_default[DG_CELL(g, x, y)];
}

/* 1 if exactly one of two diagonal solid cells belongs to the vault just
 * stamped (occ 2): a vault wall and a host wall meeting only at a corner. */
static int foreign_pair(const mixed *m, const dg_grid *g, int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    size_t W = (size_t)g->width;
    return (m->occ[(size_t)ay * W + (size_t)ax] == 2) != (m->occ[(size_t)by * W + (size_t)bx] == 2);
}

/* After a trial stamp in box b: 1 if some 2x2 window around it has solid
 * cells on one diagonal only, one of them the vault's and one not (it looks
 * like a leak in the wall). A vault's own design is its author's business. */
static int diagonal_joint(const mixed *m, const dg_grid *g, dg_rect b)
{
    int32_t x0 = DG_MAX(0, b.x - 1), y0 = DG_MAX(0, b.y - 1);
    int32_t x1 = DG_MIN(g->width - 1, b.x + b.w), y1 = DG_MIN(g->height - 1, b.y + b.h);
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
        {
            int a = solid_at(g, x, y), c = solid_at(g, x + 1, y);
            int d = solid_at(g, x, y + 1), e = solid_at(g, x + 1, y + 1);
            if (a && e && !c && !d && foreign_pair(m, g, x, y, x + 1, y + 1))
                return 1;
            if (c && d && !a && !e && foreign_pair(m, g, x + 1, y, x, y + 1))
                return 1;
        }
    return 0;
}

/* 1 if the walkable cell (x, y) has at most one walkable 4-neighbour: a
 * dead end, or a cell cut off all round. */
static int dead_end_at(const dg_grid *g, int32_t x, int32_t y)
{
    int32_t n = (x > 0 && !solid_at(g, x - 1, y)) + (x + 1 < g->width && !solid_at(g, x + 1, y)) +
                (y > 0 && !solid_at(g, x, y - 1)) + (y + 1 < g->height && !solid_at(g, x, y + 1));
    return n <= 1;
}

/* Dead ends (before any stamp) under the vault's own cells turned as t at
 * (x, y): they leave the count when it is stamped. */
static int32_t dead_ends_under(const mixed *m, const dg_grid *g, const vault_try *v, const dgi_xform *t,
                               int32_t x, int32_t y)
{
    const dgi_glyph *lg = m->set->legends[v->q->legend].glyph;
    int32_t n = 0;
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
            if (lg[v->glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].cls != DGI_CLASS_VOID)
                n += dead_end_at(g, x + X, y + Y);
    return n;
}

/* 1 if stamping the vault turned as t at (x, y) would add dead ends in its
 * box grown by one (its own cells left out), worked out before the stamp:
 * only the cells of m->edge lose walkable neighbours (its solid cells, all
 * open floor before), each becoming a dead end or not (never the reverse),
 * and the vault's own cells drop out of the count. */
static int adds_dead_end(const mixed *m, const dg_grid *g, const vault_try *v, int32_t o, const dgi_xform *t,
                         int32_t x, int32_t y)
{
    const uint32_t *e = m->edge + (size_t)o * m->local_size;
    int32_t added = 0, removed = -1, fw = t->w + 2;
    for (int32_t i = 0; i < m->edge_count[o]; i++)
    {
        int32_t at = (int32_t)(e[i] >> 3), cx = x - 1 + at % fw, cy = y - 1 + at / fw;
        if (cx < 0 || cy < 0 || cx >= g->width || cy >= g->height || solid_at(g, cx, cy))
            continue;
        int32_t n = (cx > 0 && !solid_at(g, cx - 1, cy)) + (cx + 1 < g->width && !solid_at(g, cx + 1, cy)) +
                    (cy > 0 && !solid_at(g, cx, cy - 1)) + (cy + 1 < g->height && !solid_at(g, cx, cy + 1));
        if (n <= 1 || n - (int32_t)(e[i] & 7) > 1)
            continue;
        if (removed < 0)
            removed = dead_ends_under(m, g, v, t, x, y);
        if (++added > removed)
            return 1;
    }
    return 0;
}

/* Marks the vault's footprint in occ with `value`. */
static void mark_footprint(mixed *m, const dg_grid *g, const dgi_prefab *q, const uint8_t *glyphs,
                           const dgi_xform *t, int32_t x, int32_t y, uint8_t value)
{
    const dgi_glyph *lg = m->set->legends[q->legend].glyph;
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
            if (lg[glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y]].cls != DGI_CLASS_VOID)
                m->occ[(size_t)(y + Y) * (size_t)g->width + (size_t)(x + X)] = value;
}

/* Stamps, checks what the stamp did to its surroundings (no corner-only
 * wall joints, nothing cut apart), and undoes it if a check fails. The
 * frames and adds_dead_end checked the rest before. */
static int try_at(mixed *m, dgi_gen *gen, int32_t index, int32_t o, const uint8_t *glyphs,
                  const dgi_xform *t, int32_t x, int32_t y)
{
    const dgi_prefab *q = &m->set->prefabs[index];
    dg_grid *g = &gen->g;
    dg_rect box = {x, y, t->w, t->h};
    for (int32_t Y = 0; Y < t->h; Y++)
        memcpy(m->backup + (size_t)Y * (size_t)t->w, &DG_CELL(g, x, y + Y), (size_t)t->w);
    dgi_prefab_write(m->set, q, glyphs, o, g, x, y, NULL);
    mark_footprint(m, g, q, glyphs, t, x, y, 2);
    int ok = !diagonal_joint(m, g, box) && still_connected(m, g, box);
    mark_footprint(m, g, q, glyphs, t, x, y, ok ? 1 : 0);
    if (!ok)
        for (int32_t Y = 0; Y < t->h; Y++)
            memcpy(&DG_CELL(g, x, y + Y), m->backup + (size_t)Y * (size_t)t->w, (size_t)t->w);
    return ok;
}

/* The area vault candidates are drawn in: host room k of m->fit, or the
 * grid; *mask the orientations that fit it. */
static dg_rect fit_area(const mixed *m, const dgi_gen *gen, int32_t k, int32_t *parent, int32_t *mask)
{
    *parent = m->fit[k];
    *mask = m->fit_mask[k];
    if (*parent < 0)
        return (dg_rect){0, 0, gen->g.width, gen->g.height};
    return gen->r.rooms[*parent].rect;
}

/* The orientations among `allowed` in which prefab q fits a w x h area: what
 * dgi_orient_fit answers, from the two sizes an orientation can give, as
 * rooms_that_fit asks it of every room for every vault. */
static int32_t orients_fitting(const dgi_prefab *q, int32_t allowed, int32_t w, int32_t h)
{
    int32_t swapped = 1 << DG_ORIENT_ROT90 | 1 << DG_ORIENT_ROT270 | 1 << DG_ORIENT_TRANSPOSE | 1 << DG_ORIENT_ANTI;
    int32_t fits = (q->width <= w && q->height <= h ? DG_ORIENT_MASK_ALL & ~swapped : 0) |
                   (q->height <= w && q->width <= h ? swapped : 0);
    return allowed & fits;
}

/* Fills list l with the host rooms big enough for prefab q in some allowed
 * orientation (or the grid, -1, when there are no host rooms). */
static void fill_fit_list(const mixed *m, const dgi_gen *gen, const dgi_prefab *q, int32_t allowed, fit_list *l)
{
    int32_t n = 0;
    if (m->room_count == 0)
    {
        l->fit[0] = -1;
        l->mask[0] = orients_fitting(q, allowed, gen->g.width, gen->g.height);
        n = l->mask[0] ? 1 : 0;
    }
    for (int32_t k = 0; k < m->room_count; k++)
    {
        dg_rect a = gen->r.rooms[m->rooms[k]].rect;
        int32_t mask = orients_fitting(q, allowed, a.w, a.h);
        if (!mask)
            continue;
        if (a.w >= 3 && a.h >= 3)
            mask |= orients_fitting(q, allowed, a.w - 2, a.h - 2) << 8;
        l->mask[n] = mask;
        l->fit[n++] = m->rooms[k];
    }
    l->w = q->width;
    l->h = q->height;
    l->allowed = allowed;
    l->n = n;
}

/* A fit list's block: its rooms, then their masks. */
static size_t fit_list_bytes(const mixed *m)
{
    return 2 * (size_t)DG_MAX(m->room_count, 1) * sizeof(int32_t);
}

/* Points m->fit and m->fit_mask at the host rooms that can hold prefab q
 * (fill_fit_list's, made once per prefab size); returns how many, or -1 out
 * of memory. */
static int32_t rooms_that_fit(mixed *m, const dgi_gen *gen, const dgi_prefab *q)
{
    int32_t allowed = q->distinct & m->p->orientations;
    fit_list *l = NULL;
    for (int32_t i = 0; i < DGI_MIXED_FIT_LISTS && !l; i++)
        if (m->lists[i].fit && m->lists[i].w == q->width && m->lists[i].h == q->height &&
            m->lists[i].allowed == allowed)
            l = &m->lists[i];
    if (!l)
    {
        l = &m->lists[m->next_list];
        m->next_list = (m->next_list + 1) % DGI_MIXED_FIT_LISTS;
        if (!l->fit && (l->fit = dgi_alloc(m->alloc, fit_list_bytes(m))) == NULL)
            return -1;
        l->mask = l->fit + DG_MAX(m->room_count, 1);
        fill_fit_list(m, gen, q, allowed, l);
    }
    m->fit = l->fit;
    m->fit_mask = l->mask;
    return l->n;
}

/* A position the frame cleared: tried, and placed if it holds. */
static dg_status try_fitting(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, const dgi_xform *t,
                             int32_t x, int32_t y, int32_t parent, int *placed)
{
    if (covers_start(m, &gen->g, v, t, x, y) || adds_dead_end(m, &gen->g, v, o, t, x, y) ||
        !try_at(m, gen, v->index, o, v->glyphs, t, x, y))
        return DG_OK;
    *placed = 1;
    dg_status st = dgi_gen_place(gen, v->index, o, v->glyphs, x, y, DG_ROOM_PREFAB, parent);
    refresh_busy(m, &gen->g, (dg_rect){x, y, t->w, t->h});
    return st;
}

/* One candidate position of orientation o (turned as t): counted, screened,
 * tried, and placed if it holds. */
static dg_status try_candidate(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, const dgi_xform *t,
                               int32_t x, int32_t y, int32_t parent, int *placed)
{
    m->attempts++;
    return fits(m, v, o, t, x, y) ? try_fitting(m, gen, v, o, t, x, y, parent, placed) : DG_OK;
}

/* A room's area less its outer ring, where a vault keeps a walkway round
 * it (a room's rect is its floor); *mask (as fit_area gave it) becomes the
 * orientations that fit it (rooms_that_fit worked them out); 0 if none does. */
static int shrink(dg_rect *a, int32_t *mask)
{
    if (a->w < 3 || a->h < 3)
        return 0;
    *a = (dg_rect){a->x + 1, a->y + 1, a->w - 2, a->h - 2};
    *mask >>= 8;
    return *mask != 0;
}

/* First pass: `positions` random draws, each in a random room that can hold
 * the prefab, in a random orientation that fits that room. */
static dg_status random_draws(mixed *m, dgi_gen *gen, const vault_try *v, int32_t nfit, dg_rng *rng,
                              int *placed)
{
    dg_status st = DG_OK;
    for (int32_t k = 0; k < m->p->positions && !*placed && st == DG_OK && m->attempts < m->budget; k++)
    {
        int32_t parent, mask;
        dg_rect a = fit_area(m, gen, (int32_t)dg_rng_below(rng, (uint32_t)nfit), &parent, &mask);
        if (v->ring ? !shrink(&a, &mask) : !(mask &= 0xFF))
            continue;
        int32_t o = dgi_orient_pick(mask, rng);
        dgi_xform t;
        dgi_xform_make(v->q->width, v->q->height, o, &t);
        int32_t x = a.x + (int32_t)dg_rng_below(rng, (uint32_t)(a.w - t.w + 1));
        int32_t y = a.y + (int32_t)dg_rng_below(rng, (uint32_t)(a.h - t.h + 1));
        st = try_candidate(m, gen, v, o, &t, x, y, parent, placed);
    }
    return st;
}

/* Bits of the positions cx .. cx + 63 of row y (of `rows` rows of `cols`
 * positions in a room) that lie a cell inside the room's edge: in a rescan,
 * positions the scan with a ring tried already. */
static uint64_t ring_tried(const vault_try *v, int32_t cols, int32_t rows, int32_t y, int32_t cx)
{
    if (!v->rescan || y < 1 || y > rows - 2)
        return 0;
    int32_t lo = DG_MAX(1, cx) - cx, hi = DG_MIN(cols - 2, cx + 63) - cx; /* inclusive, chunk bits */
    if (lo > hi)
        return 0;
    uint64_t upto = hi == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (hi + 1)) - 1;
    return upto & ~(((uint64_t)1 << lo) - 1);
}

/* Positions x0 .. x1 - 1 of row y of area a (cols positions a row, rows
 * rows), in order, each counted as a position tried (until the budget is
 * spent), 64 screened at once by frame f; the ones it clears are tried,
 * but for those a rescan knows to fail. */
static dg_status scan_run(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, const dgi_xform *t,
                          const uint64_t *f, dg_rect a, int32_t rows, int32_t y, int32_t x0, int32_t x1,
                          int32_t parent, int *placed)
{
    size_t fw = frame_row_words(t->w);
    dg_status st = DG_OK;
    for (int32_t cx = x0; cx < x1 && !*placed && st == DG_OK && m->attempts < m->budget; cx += 64)
    {
        int32_t len = DG_MIN(64, x1 - cx), counted = 0;
        uint64_t want = len == 64 ? ~(uint64_t)0 : ((uint64_t)1 << len) - 1;
        want &= ~ring_tried(v, a.w - t->w + 1, rows, y, cx);
        uint64_t bad = fw == 1 && len + t->w + 1 <= 64 ? clashes_narrow(m, f, t->h + 2, a.x + cx, a.y + y, want)
                                                        : clashes(m, f, fw, t->h + 2, a.x + cx, a.y + y, want);
        uint64_t good = ~bad & want;
        for (; good && !*placed && st == DG_OK; good &= good - 1)
        {
            int32_t i = dgi_lowest_bit64(good);
            m->attempts += i - counted; /* the positions the frame refused */
            if (m->attempts >= m->budget)
            {
                m->attempts = m->budget;
                return st;
            }
            m->attempts++;
            counted = i + 1;
            st = try_fitting(m, gen, v, o, t, a.x + cx + i, a.y + y, parent, placed);
        }
        if (!*placed && st == DG_OK)
            m->attempts = DG_MIN(m->budget, m->attempts + (len - counted));
    }
    return st;
}

/* Every position of one orientation in one area, row-major from a random
 * one on, wrapping to the area's first position. */
static dg_status scan_area(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, dg_rect a,
                           int32_t parent, dg_rng *rng, int *placed)
{
    dgi_xform t;
    dgi_xform_make(v->q->width, v->q->height, o, &t);
    int32_t cols = a.w - t.w + 1, rows = a.h - t.h + 1;
    int64_t n = (int64_t)cols * rows, first = (int64_t)dgi_below64(rng, (uint64_t)n);
    int32_t x0 = (int32_t)(first % cols), y0 = (int32_t)(first / cols);
    const uint64_t *f = frame_of(m, v, o, &t);
    dg_status st = scan_run(m, gen, v, o, &t, f, a, rows, y0, x0, cols, parent, placed);
    for (int32_t k = 1; k <= rows && !*placed && st == DG_OK && m->attempts < m->budget; k++)
        st = scan_run(m, gen, v, o, &t, f, a, rows, (y0 + k) % rows, 0, k == rows ? x0 : cols, parent, placed);
    return st;
}

/* Second pass: every position of every fitting room and orientation, from a
 * random room and orientation on, so a vault lands whenever it fits anywhere. */
static dg_status full_scan(mixed *m, dgi_gen *gen, const vault_try *v, int32_t nfit, dg_rng *rng,
                           int *placed)
{
    dg_status st = DG_OK;
    int32_t r0 = (int32_t)dg_rng_below(rng, (uint32_t)nfit), o0 = (int32_t)dg_rng_below(rng, DG_ORIENT_COUNT);
    for (int32_t k = 0; k < nfit && !*placed && st == DG_OK && m->attempts < m->budget; k++)
    {
        int32_t parent, mask;
        dg_rect a = fit_area(m, gen, (r0 + k) % nfit, &parent, &mask);
        if (v->ring ? !shrink(&a, &mask) : !(mask &= 0xFF))
            continue;
        for (int32_t j = 0; j < DG_ORIENT_COUNT && !*placed && st == DG_OK; j++)
            if (mask >> ((o0 + j) % DG_ORIENT_COUNT) & 1)
                st = scan_area(m, gen, v, (o0 + j) % DG_ORIENT_COUNT, a, parent, rng, placed);
    }
    return st;
}

/* The prefabs a vault may still be drawn from, in m->weights (those not yet
 * placed while there are any); 0 if none. */
static int32_t eligible(mixed *m)
{
    const dg_prefab_set *set = m->set;
    int32_t n = 0, fresh = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int ok = (q->modes & m->p->mode) && q->weight > 0 && dgi_has_tag(set, q, m->p->tag) &&
                 !((m->p->unique || q->unique) && m->used[i]) &&
                 m->failed[i] < (q->sub_count ? DGI_MIXED_OUTCOMES : 1);
        m->weights[i] = ok ? q->weight : 0;
        n += ok;
        fresh += ok && !m->used[i];
    }
    for (int32_t i = 0; fresh > 0 && i < set->count; i++)
        if (m->used[i])
            m->weights[i] = 0; /* a prefab repeats only once every other one was placed */
    return n;
}

/* One vault: a prefab by weight among the eligible ones, then random
 * positions and (in rooms) every position with a clear ring round it, then
 * every position. A prefab that fails everywhere is out (a
 * prefab with random glyphs after DGI_MIXED_OUTCOMES outcomes failed), as
 * vaults only ever take floor away. DG_E_NOSPACE: no prefab left. */
static dg_status place_vault(mixed *m, dgi_gen *gen, uint64_t seed, dg_rng *rng, int *placed)
{
    *placed = 0;
    if (eligible(m) == 0)
        return DG_E_NOSPACE;
    vault_try v;
    v.rescan = 0;
    v.index = dgi_weighted_pick(m->weights, m->set->count, rng);
    v.q = &m->set->prefabs[v.index];
    uint8_t *heap;
    dg_status st;
    v.glyphs = dgi_prefab_glyphs(m->set, v.q, seed, m->buf, sizeof m->buf, &heap, &st);
    if (!v.glyphs)
    {
        m->failed[v.index]++; /* an outcome its requires refuse counts as failed */
        return st == DG_E_LIMIT ? DG_OK : st;
    }
    m->frame_made = 0;
    int32_t nfit = rooms_that_fit(m, gen, v.q);
    if (nfit < 0)
    {
        dgi_prefab_glyphs_free(m->set, v.q, heap);
        return DG_E_NOMEM;
    }
    m->attempts += nfit == 0; /* too big for every room: that check is its one try */
    st = DG_OK;
    v.ring = m->room_count > 0; /* in rooms, a walkway round the vault first */
    if (nfit > 0)
        st = random_draws(m, gen, &v, nfit, rng, placed);
    if (nfit > 0 && st == DG_OK && !*placed && v.ring)
        st = full_scan(m, gen, &v, nfit, rng, placed);
    v.rescan = v.ring;
    v.ring = 0;
    if (nfit > 0 && st == DG_OK && !*placed)
        st = full_scan(m, gen, &v, nfit, rng, placed);
    if (*placed && st == DG_OK)
        m->used[v.index] = 1;
    else
        m->failed[v.index]++;
    dgi_prefab_glyphs_free(m->set, v.q, heap);
    return st == DG_E_LIMIT ? DG_OK : st;
}

/* The host's start stays the start: vaults leave its cell free, and
 * dgi_gen_end starts from it (the scratch result has no start of its own). */
static void keep_start(mixed *m, dgi_gen *gen, const dg_result *host)
{
    m->start_cell = -1;
    if (!host)
        return;
    dg_point s = host->start;
    if (s.x >= 0 && s.y >= 0 && s.x < gen->g.width && s.y < gen->g.height)
    {
        m->start_cell = (int64_t)s.y * gen->g.width + s.x;
        gen->r.start = s;
    }
}

static dg_status mixed_setup(mixed *m, const dgi_gen *gen, const dg_allocator *a)
{
    size_t n = (size_t)DG_MAX(m->set->count, 1);
    int32_t rooms = gen->r.room_count;
    m->cells = (size_t)gen->g.width * (size_t)gen->g.height;
    m->weights = dgi_alloc(a, n * sizeof *m->weights);
    m->used = dgi_calloc(a, n, 1);
    m->failed = dgi_calloc(a, n, 1);
    m->occ = dgi_calloc(a, m->cells, 1);
    for (int32_t i = 0; i < m->set->count && m->failed; i++)
    {
        const dgi_prefab *q = &m->set->prefabs[i];
        if (!dgi_orient_fit(q, q->distinct & m->p->orientations, gen->g.width, gen->g.height))
            m->failed[i] = DGI_MIXED_OUTCOMES;
        size_t side = (size_t)DG_MAX(q->width, q->height) + 2;
        m->backup_size = DG_MAX(m->backup_size, (size_t)q->width * (size_t)q->height);
        m->local_size = DG_MAX(m->local_size, side * side);
        m->frame_slot = DG_MAX(m->frame_slot, 2 * side * frame_row_words((int32_t)side - 2));
    }
    m->frame_size = DG_MAX(m->frame_slot, (size_t)1) * DG_ORIENT_COUNT * sizeof *m->frame;
    m->frame = dgi_alloc(a, m->frame_size);
    m->edge = dgi_alloc(a, m->local_size * DG_ORIENT_COUNT * sizeof *m->edge);
    m->backup = dgi_alloc(a, m->backup_size);
    m->local_mark = dgi_alloc(a, m->local_size);
    m->local_stack = dgi_alloc(a, m->local_size * sizeof *m->local_stack);
    m->rooms = dgi_alloc(a, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
    if (!m->weights || !m->used || !m->failed || !m->occ || !m->local_mark || !m->local_stack || !m->backup || !m->rooms ||
        !m->frame || !m->edge)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < rooms && m->p->in_rooms; i++)
        if (gen->r.rooms[i].kind != DG_ROOM_PREFAB && gen->r.rooms[i].rect.w > 0 && gen->r.rooms[i].rect.h > 0)
            m->rooms[m->room_count++] = i;
    return DG_OK;
}

static void free_occ(mixed *m, const dg_allocator *a)
{
    dgi_free(a, m->occ, m->occ ? m->cells : 0);
    m->occ = NULL;
}

static void free_exit_scratch(mixed *m, const dg_allocator *a)
{
    dgi_free(a, m->mark, m->mark ? m->cells : 0);
    dgi_free(a, m->stack, m->stack ? m->stack_size : 0);
    m->mark = NULL;
    m->stack = NULL;
}

static void free_busy(mixed *m, const dg_allocator *a)
{
    dgi_free(a, m->busy, m->busy ? m->busy_size : 0);
    m->busy = NULL;
}

static void mixed_free(mixed *m, const dg_allocator *a, int32_t rooms)
{
    size_t n = (size_t)DG_MAX(m->set->count, 1);
    dgi_free(a, m->weights, n * sizeof *m->weights);
    dgi_free(a, m->used, n);
    dgi_free(a, m->failed, n);
    free_occ(m, a);
    dgi_free(a, m->local_mark, m->local_size);
    dgi_free(a, m->local_stack, m->local_size * sizeof *m->local_stack);
    free_exit_scratch(m, a);
    dgi_free(a, m->backup, m->backup_size);
    free_busy(m, a);
    dgi_free(a, m->frame, m->frame ? m->frame_size : 0);
    dgi_free(a, m->edge, m->edge ? m->local_size * DG_ORIENT_COUNT * sizeof *m->edge : 0);
    dgi_free(a, m->rooms, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
    for (int32_t i = 0; i < DGI_MIXED_FIT_LISTS; i++)
        dgi_free(a, m->lists[i].fit, fit_list_bytes(m));
}

/* Reserved cells and their 8 neighbours are taken (occ 3), so no vault cell
 * and no vault door's way out lands on them. One pass over the cells. */
static void take_reserved(mixed *m, const dg_grid *g, const dgi_mask *reserved)
{
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++)
            if (dgi_mask_at(reserved, x, y))
                for (int32_t yy = DG_MAX(0, y - 1); yy <= DG_MIN(g->height - 1, y + 1); yy++)
                    for (int32_t xx = DG_MAX(0, x - 1); xx <= DG_MIN(g->width - 1, x + 1); xx++)
                        m->occ[(size_t)yy * (size_t)g->width + (size_t)xx] = 3;
}

/* Exit candidates found by walk_from: per tier (0: plain floor of a host
 * room under no vault, 1: any cell of any room), the farthest cell and how
 * many reached cells lie strictly farther. */
typedef struct exit_pick {
    int32_t cell[2];
    int32_t beyond[2];
    int32_t reached;
} exit_pick;

/* The tiers cell c qualifies for, as bits (m->mark: 1 host room off every
 * vault's box, 4 any room). */
static int tiers_of(const mixed *m, const dg_grid *g, int32_t c)
{
    int host = (m->mark[c] & 1) &&
               DG_CELL(g, c % g->width, c / g->width) == DG_TILE_FLOOR;
    return host | ((m->mark[c] & 4) ? 2 : 0);
}

/* Breadth-first walk (4-way) from cell s over the final grid, level by level,
 * reached cells marked with bit 2 of m->mark. The start itself is no candidate. */
static void walk_from(mixed *m, const dg_grid *g, int32_t s, exit_pick *e)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int32_t W = g->width, head = 0, tail = 0, level_of[2] = {-1, -1};
    e->cell[0] = e->cell[1] = -1;
    m->stack[tail++] = s;
    m->mark[s] |= 2;
    while (head < tail)
    {
        int32_t level_end = tail, found[2] = {0, 0};
        for (; head < level_end; head++)
        {
            int32_t c = m->stack[head], x = c % W, y = c / W, t = c == s ? 0 : tiers_of(m, g, c);
            for (int k = 0; k < 2; k++)
                if (t >> k & 1)
                {
                    e->cell[k] = c; /* a farther level replaces it; in a level, the last one */
                    found[k] = 1;
                }
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d], n = ny * W + nx;
                if (nx >= 0 && ny >= 0 && nx < W && ny < g->height && !(m->mark[n] & 2) &&
                    dgi_passable_default[DG_CELL(g, nx, ny)])
                {
                    m->mark[n] |= 2;
                    m->stack[tail++] = n;
                }
            }
        }
        for (int k = 0; k < 2; k++)
            if (found[k])
                level_of[k] = level_end; /* cells queued before it are no farther */
    }
    e->reached = tail;
    for (int k = 0; k < 2; k++)
        e->beyond[k] = tail - level_of[k];
}

/* 1 if the result has an exit marker (a vault's own exit, kept). */
static int has_exit_marker(const dg_result *r)
{
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == DG_MARKER_EXIT)
            return 1;
    return 0;
}

/* Bit 1 of m->mark on the cells of host rooms outside every vault's box,
 * bit 4 on those of every room (rects clipped to the grid: without in_rooms
 * they were not checked). Host rooms first, then the vaults clear bit 1. */
static void mark_rooms(mixed *m, const dg_grid *g, const dg_result *r)
{
    memset(m->mark, 0, m->cells);
    for (int pass = 0; pass < 2; pass++)
        for (int32_t k = 0; k < r->room_count; k++)
        {
            dg_rect q = r->rooms[k].rect;
            int vault = r->rooms[k].kind == DG_ROOM_PREFAB;
            if (vault != pass)
                continue;
            int64_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
            int64_t x1 = DG_MIN((int64_t)q.x + q.w, g->width), y1 = DG_MIN((int64_t)q.y + q.h, g->height);
            for (int64_t y = y0; y < y1; y++)
                for (int64_t x = x0; x < x1; x++)
                    m->mark[y * g->width + x] = (uint8_t)(vault ? 4 : m->mark[y * g->width + x] | 5);
        }
}

/* The exit again, now the vaults changed the walking distances (dgi_gen_end
 * took the farthest cell of all, which may be a corridor's or a vault's): the
 * farthest plain floor of a host room under no vault, if no more than a tenth
 * of the reached cells lie beyond it; else the farthest cell of any room under
 * the same rule; else dgi_gen_end's exit stays. Never the start. */
static dg_status choose_exit(mixed *m, const dg_grid *g, dg_result *r)
{
    dg_point s = r->start, e = r->exit;
    if (s.x < 0 || s.y < 0 || s.x >= g->width || s.y >= g->height ||
        !dgi_passable_default[DG_CELL(g, s.x, s.y)] || has_exit_marker(r))
        return DG_OK;
    m->stack_size = ((size_t)r->metrics.floor_cells + 1) * sizeof *m->stack; /* the walk queues each once */
    m->mark = dgi_alloc(m->alloc, m->cells);
    m->stack = dgi_alloc(m->alloc, m->stack_size);
    if (!m->mark || !m->stack)
        return DG_E_NOMEM;
    mark_rooms(m, g, r);
    int32_t si = s.y * g->width + s.x;
    if (e.x >= 0 && e.y >= 0 && e.x < g->width && e.y < g->height && (e.x != s.x || e.y != s.y) &&
        (tiers_of(m, g, e.y * g->width + e.x) & 1))
        return DG_OK; /* the farthest cell of all is host floor already */
    exit_pick pick;
    walk_from(m, g, si, &pick);
    for (int k = 0; k < 2; k++)
        if (pick.cell[k] >= 0 && (int64_t)pick.beyond[k] * 1000 <= (int64_t)pick.reached * 100)
        {
            r->exit.x = pick.cell[k] % g->width;
            r->exit.y = pick.cell[k] / g->width;
            r->exit_room = dgi_result_room_at(r, r->exit);
            return DG_OK;
        }
    return DG_OK;
}

/* Vaults to place: `count`, or one per `floor_per_vault` passable cells of
 * the host map if that is more, so a big map gets its share. The host
 * result's floor_cells counts them when it describes a grid of this size. */
static int32_t vaults_wanted(const dg_grid *g, const dg_result *host, const dg_prefab_mixed_params *p)
{
    int64_t cells = (int64_t)g->width * g->height, open = 0;
    if (p->floor_per_vault == 0 || cells / p->floor_per_vault <= p->count)
        return p->count; /* not even a map all floor would ask for more */
    if (host && host->metrics.cells == cells && host->metrics.floor_cells > 0)
        open = host->metrics.floor_cells;
    else
    {
        int64_t lane[4] = {0, 0, 0, 0}, i = 0; /* g is the scratch grid: stride = width */
        for (; i + 4 <= cells; i += 4)
        {
            lane[0] += dgi_passable_default[g->cells[i]];
            lane[1] += dgi_passable_default[g->cells[i + 1]];
            lane[2] += dgi_passable_default[g->cells[i + 2]];
            lane[3] += dgi_passable_default[g->cells[i + 3]];
        }
        for (; i < cells; i++)
            open += dgi_passable_default[g->cells[i]];
        open += lane[0] + lane[1] + lane[2] + lane[3];
    }
    return (int32_t)DG_MAX((int64_t)p->count, DG_MIN(open / p->floor_per_vault, 100000));
}

dg_status dg_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                   const dg_prefab_mixed_params *params, uint64_t seed,
                                   dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_prefab_mixed_generate(grid, set, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_prefab_mixed_generate(dg_grid *grid, const dg_prefab_set *set,
                                    const dg_prefab_mixed_params *params, uint64_t seed,
                                    const dgi_mask *reserved, dg_result *result,
                                    const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_mixed_params p;
    if (params)
        p = *params;
    else
        dg_prefab_mixed_defaults(&p);
    dg_status st = check_params(set, &p, diag);
    if (st == DG_OK)
        st = check_rooms(grid, result, &p, diag);
    if (st != DG_OK)
        return st;
    mixed *m = dgi_alloc(allocator, sizeof *m);
    if (!m)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_mixed: out of memory");
    memset(m, 0, offsetof(mixed, buf)); /* the glyph buffer needs no clearing */
    m->set = set;
    m->p = &p;
    m->alloc = allocator;
    dgi_gen gen;
    st = dgi_gen_begin(&gen, set, grid, result, allocator, 1, 0, 1);
    int32_t rooms = gen.r.room_count, start = result ? result->start_room : -1;
    if (st == DG_OK)
        st = mixed_setup(m, &gen, allocator);
    if (st == DG_OK && reserved)
        take_reserved(m, &gen.g, reserved);
    if (st == DG_OK)
        st = make_busy(m, &gen.g, reserved != NULL);
    keep_start(m, &gen, result);
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    int32_t placed = 0;
    gen.r.metrics.attempts = gen.r.metrics.failures = 0;
    int32_t want = vaults_wanted(&gen.g, result, &p);
    gen.r.metrics.requested = want;
    /* a count of positions bounds the call; every vault that fails takes a
     * prefab out (or one of its DGI_MIXED_OUTCOMES outcomes), so the loop ends */
    m->budget = DGI_MIXED_POSITIONS_PER_CELL * (int64_t)grid->width * grid->height;
    for (uint64_t v = 0; placed < want && st == DG_OK && m->attempts < m->budget; v++)
    {
        int ok = 0;
        st = place_vault(m, &gen, dgi_hash_combine(seed, v), &rng, &ok);
        if (st == DG_E_NOSPACE) /* no prefab left to try */
        {
            st = DG_OK;
            break;
        }
        placed += ok;
        gen.r.metrics.failures += !ok;
    }
    free_busy(m, allocator); /* before the result is finished: the peak stays low */
    gen.r.metrics.attempts = (int32_t)DG_MIN(m->attempts, INT32_MAX);
    gen.r.metrics.placed = placed;
    gen.r.metrics.stopped_early = placed < want;
    if (st != DG_OK)
        dgi_fail(diag, st, "prefab_mixed: out of memory");
    free_occ(m, allocator); /* the scratch stays low while the result is finished */
    if (st == DG_OK)
        st = dgi_gen_finish(&gen, start, diag);
    if (st == DG_OK && result && choose_exit(m, &gen.g, &gen.r) != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "prefab_mixed: out of memory");
    free_exit_scratch(m, allocator);
    st = dgi_gen_end(&gen, st, grid, result, start, diag);
    mixed_free(m, allocator, rooms);
    dgi_free(allocator, m, sizeof *m);
    return st;
}
