/* Mixed generation: vaults stamped into a map another generator made, only
 * on open floor, doors onto open floor, never cutting the map apart. */
#include "analysis/analysis.h"
#include "prefab/prefab.h"

#define DGI_MIXED_POSITIONS_PER_CELL 16 /* the call's budget of positions, per grid cell */
#define DGI_MIXED_OUTCOMES 4 /* outcomes of a prefab with random glyphs tried before it is out */

typedef struct mixed {
    const dg_prefab_set *set;
    const dg_prefab_mixed_params *p;
    int32_t *rooms;      /* indices of the host rooms (not prefab rooms) */
    int32_t room_count;
    int32_t *fit;        /* the host rooms big enough for the vault being placed */
    int64_t *weights;
    uint8_t *used;       /* 1: placed at least once */
    uint8_t *failed;     /* outcomes that fitted nowhere (a prefab is out after 1 or DGI_MIXED_OUTCOMES) */
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
    uint8_t *blocked;   /* sums of the cells no vault cell may take, (W+1) x (H+1), modulo 256;
                          * made when a vault first needs every position scanned */
    const dg_allocator *alloc;
    uint8_t *backup;
    size_t cells, backup_size, blocked_size;
    uint8_t buf[4096];
} mixed;

/* The vault being placed: its prefab and its resolved glyphs. */
typedef struct vault_try {
    int32_t index;
    const dgi_prefab *q;
    const uint8_t *glyphs;
    int32_t voids;       /* its void cells: the only ones that may lie on taken cells */
    int ring;            /* 1: only positions a cell inside a room's edge (shrink) */
} vault_try;

/* Boxes of at most this many cells are screened by the sums (exact modulo 256). */
#define DGI_MIXED_SCREEN_MAX 255 /* a byte per cell: vaults up to 15x15 */

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
    if ((st = dgi_spare_check(p->spare, "prefab_mixed params", diag)) != DG_OK)
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

/* Every non-void cell on open floor not under another vault, every border
 * door facing open floor outside the box. */
static int fits(const mixed *m, const dg_grid *g, const dgi_prefab *q, const uint8_t *glyphs,
                const dgi_xform *t, int32_t x, int32_t y)
{
    const dgi_glyph *lg = m->set->legends[q->legend].glyph;
    static const int32_t ox[4] = {0, 1, 0, -1}, oy[4] = {-1, 0, 1, 0};
    for (int32_t Y = 0; Y < t->h; Y++)
        for (int32_t X = 0; X < t->w; X++)
        {
            uint8_t glyph = glyphs[t->base + (int64_t)X * t->step_x + (int64_t)Y * t->step_y];
            const dgi_glyph *d = &lg[glyph];
            if (d->cls == DGI_CLASS_VOID)
                continue;
            int32_t cx = x + X, cy = y + Y;
            int64_t at = (int64_t)cy * g->width + cx;
            if (!open_floor(DG_CELL(g, cx, cy)) || m->occ[at] || at == m->start_cell)
                return 0;
            if (d->cls != DGI_CLASS_DOOR)
                continue;
            int faces[4] = {Y == 0, X == t->w - 1, Y == t->h - 1, X == 0};
            for (int s = 0; s < 4; s++)
            {
                int32_t nx = cx + ox[s], ny = cy + oy[s];
                if (faces[s] && (!open_floor(dg_grid_get(g, nx, ny)) ||
                                 m->occ[(size_t)ny * (size_t)g->width + (size_t)nx]))
                    return 0;
            }
        }
    return 1;
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

/* After a trial stamp in box b: 1 if a solid cell of the vault touches
 * (4-way) a door that is not the vault's own: that door would lead nowhere. */
static int blocks_a_door(const mixed *m, const dg_grid *g, dg_rect b)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    size_t W = (size_t)g->width;
    for (int32_t y = b.y; y < b.y + b.h; y++)
        for (int32_t x = b.x; x < b.x + b.w; x++)
        {
            if (m->occ[(size_t)y * W + (size_t)x] != 2 || !solid_at(g, x, y))
                continue;
            for (int d = 0; d < 4; d++)
            {
                int32_t nx = x + dx[d], ny = y + dy[d];
                if (nx >= 0 && ny >= 0 && nx < g->width && ny < g->height &&
                    DG_CELL(g, nx, ny) == DG_TILE_DOOR && m->occ[(size_t)ny * W + (size_t)nx] != 2)
                    return 1;
            }
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

/* Dead ends in box b grown by one, the cells of the vault just stamped
 * (occ 2) left out. Counted before and after a stamp: a vault may shorten a
 * dead end, never add one (a one-cell notch beside it that leads nowhere). */
static int32_t dead_ends_around(const mixed *m, const dg_grid *g, dg_rect b)
{
    int32_t x0 = DG_MAX(0, b.x - 1), y0 = DG_MAX(0, b.y - 1), n = 0;
    int32_t x1 = DG_MIN(g->width, b.x + b.w + 1), y1 = DG_MIN(g->height, b.y + b.h + 1);
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
            n += !solid_at(g, x, y) && m->occ[(size_t)y * (size_t)g->width + (size_t)x] != 2 &&
                 dead_end_at(g, x, y);
    return n;
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

/* Stamps, checks what the stamp did to its surroundings (doors still lead
 * somewhere, no corner-only wall joints, no new dead-end notches, nothing
 * cut apart), and undoes it if any check fails. */
static int try_at(mixed *m, dgi_gen *gen, int32_t index, int32_t o, const uint8_t *glyphs,
                  const dgi_xform *t, int32_t x, int32_t y)
{
    const dgi_prefab *q = &m->set->prefabs[index];
    dg_grid *g = &gen->g;
    if (!fits(m, g, q, glyphs, t, x, y))
        return 0;
    dg_rect box = {x, y, t->w, t->h};
    int32_t dead_ends = dead_ends_around(m, g, box);
    for (int32_t Y = 0; Y < t->h; Y++)
        memcpy(m->backup + (size_t)Y * (size_t)t->w, &DG_CELL(g, x, y + Y), (size_t)t->w);
    dgi_prefab_write(m->set, q, glyphs, o, g, x, y, NULL);
    mark_footprint(m, g, q, glyphs, t, x, y, 2);
    int ok = !blocks_a_door(m, g, box) && !diagonal_joint(m, g, box) &&
             dead_ends_around(m, g, box) <= dead_ends && still_connected(m, g, box);
    mark_footprint(m, g, q, glyphs, t, x, y, ok ? 1 : 0);
    if (!ok)
        for (int32_t Y = 0; Y < t->h; Y++)
            memcpy(&DG_CELL(g, x, y + Y), m->backup + (size_t)Y * (size_t)t->w, (size_t)t->w);
    return ok;
}

/* The area vault candidates are drawn in: host room k of m->fit, or the grid. */
static dg_rect fit_area(const mixed *m, const dgi_gen *gen, int32_t k, int32_t *parent)
{
    *parent = m->fit[k];
    if (*parent < 0)
        return (dg_rect){0, 0, gen->g.width, gen->g.height};
    return gen->r.rooms[*parent].rect;
}

/* Lists in m->fit the host rooms big enough for prefab q in some allowed
 * orientation (or the grid, -1, when there are no host rooms); returns how many. */
static int32_t rooms_that_fit(mixed *m, const dgi_gen *gen, const dgi_prefab *q)
{
    int32_t n = 0, allowed = q->distinct & m->p->orientations;
    if (m->room_count == 0)
    {
        m->fit[0] = -1;
        return dgi_orient_fit(q, allowed, gen->g.width, gen->g.height) ? 1 : 0;
    }
    for (int32_t k = 0; k < m->room_count; k++)
    {
        dg_rect a = gen->r.rooms[m->rooms[k]].rect;
        if (dgi_orient_fit(q, allowed, a.w, a.h))
            m->fit[n++] = m->rooms[k];
    }
    return n;
}

/* Summed counts of the cells a vault's non-void cell may not take (not open
 * floor, under a vault or reserved, the start), kept modulo 256. Taken cells
 * only ever become more as vaults land, so sums made once screen soundly. */
static dg_status build_blocked(mixed *m, const dg_grid *g)
{
    size_t W = (size_t)g->width + 1;
    m->blocked_size = W * ((size_t)g->height + 1) * sizeof *m->blocked;
    m->blocked = dgi_alloc(m->alloc, m->blocked_size);
    if (!m->blocked)
        return DG_E_NOMEM;
    memset(m->blocked, 0, W * sizeof *m->blocked);
    for (int32_t y = 0; y < g->height; y++)
    {
        uint8_t run = 0;
        const uint8_t *above = m->blocked + (size_t)y * W;
        uint8_t *row = m->blocked + (size_t)(y + 1) * W;
        row[0] = 0;
        for (int32_t x = 0; x < g->width; x++)
        {
            size_t at = (size_t)y * (size_t)g->width + (size_t)x;
            run = (uint8_t)(run + (!open_floor(DG_CELL(g, x, y)) || m->occ[at] || (int64_t)at == m->start_cell));
            row[x + 1] = (uint8_t)(above[x + 1] + run);
        }
    }
    return DG_OK;
}

/* Taken cells in box (x, y, w, h) by the sums (modulo 256). */
static uint8_t taken_in(const mixed *m, int32_t W, int32_t x, int32_t y, int32_t w, int32_t h)
{
    size_t s = (size_t)W + 1, x0 = (size_t)x, y0 = (size_t)y, x1 = x0 + (size_t)w, y1 = y0 + (size_t)h;
    return (uint8_t)(m->blocked[y1 * s + x1] - m->blocked[y0 * s + x1] - m->blocked[y1 * s + x0] +
                      m->blocked[y0 * s + x0]);
}

/* 0 if box (x, y, w, h) holds more taken cells than the vault has void
 * cells (once the sums are made). */
static int may_fit(const mixed *m, const dg_grid *g, const vault_try *v, int32_t x, int32_t y, int32_t w,
                   int32_t h)
{
    if (!m->blocked || (int64_t)w * h > DGI_MIXED_SCREEN_MAX)
        return 1;
    return taken_in(m, g->width, x, y, w, h) <= v->voids;
}

/* One candidate position of orientation o (turned as t): counted, screened,
 * tried, and placed if it holds. */
static dg_status try_candidate(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, const dgi_xform *t,
                               int32_t x, int32_t y, int32_t parent, int *placed)
{
    m->attempts++;
    if (!may_fit(m, &gen->g, v, x, y, t->w, t->h) || !try_at(m, gen, v->index, o, v->glyphs, t, x, y))
        return DG_OK;
    *placed = 1;
    return dgi_gen_place(gen, v->index, o, v->glyphs, x, y, DG_ROOM_PREFAB, parent);
}

/* A room's area less its outer ring, where a vault keeps a walkway round
 * it (a room's rect is its floor); *mask the orientations that fit it; 0 if
 * none does. */
static int shrink(dg_rect *a, const dgi_prefab *q, int32_t allowed, int32_t *mask)
{
    if (a->w < 3 || a->h < 3)
        return 0;
    dg_rect in = {a->x + 1, a->y + 1, a->w - 2, a->h - 2};
    *mask = dgi_orient_fit(q, allowed, in.w, in.h);
    *a = in;
    return *mask != 0;
}

/* First pass: `positions` random draws, each in a random room that can hold
 * the prefab, in a random orientation that fits that room. */
static dg_status random_draws(mixed *m, dgi_gen *gen, const vault_try *v, int32_t nfit, dg_rng *rng,
                              int *placed)
{
    dg_status st = DG_OK;
    int32_t allowed = v->q->distinct & m->p->orientations;
    for (int32_t k = 0; k < m->p->positions && !*placed && st == DG_OK && m->attempts < m->budget; k++)
    {
        int32_t parent;
        dg_rect a = fit_area(m, gen, (int32_t)dg_rng_below(rng, (uint32_t)nfit), &parent);
        int32_t mask = dgi_orient_fit(v->q, allowed, a.w, a.h);
        if (v->ring && !shrink(&a, v->q, allowed, &mask))
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

/* Every position of one orientation in one area, from a random one on. */
static dg_status scan_area(mixed *m, dgi_gen *gen, const vault_try *v, int32_t o, dg_rect a,
                           int32_t parent, dg_rng *rng, int *placed)
{
    dgi_xform t;
    dgi_xform_make(v->q->width, v->q->height, o, &t);
    int32_t cols = a.w - t.w + 1, rows = a.h - t.h + 1;
    int64_t n = (int64_t)cols * rows, first = (int64_t)dgi_below64(rng, (uint64_t)n);
    dg_status st = DG_OK;
    int32_t x = (int32_t)(first % cols), y = (int32_t)(first / cols);
    for (int64_t k = 0; k < n && !*placed && st == DG_OK && m->attempts < m->budget; k++)
    {
        st = try_candidate(m, gen, v, o, &t, a.x + x, a.y + y, parent, placed);
        if (++x == cols) /* row-major from `first` on, wrapping to the area's first position */
        {
            x = 0;
            y = y + 1 == rows ? 0 : y + 1;
        }
    }
    return st;
}

/* Second pass: every position of every fitting room and orientation, from a
 * random room and orientation on, so a vault lands whenever it fits anywhere. */
static dg_status full_scan(mixed *m, dgi_gen *gen, const vault_try *v, int32_t nfit, dg_rng *rng,
                           int *placed)
{
    dg_status st = DG_OK;
    int32_t allowed = v->q->distinct & m->p->orientations;
    int32_t r0 = (int32_t)dg_rng_below(rng, (uint32_t)nfit), o0 = (int32_t)dg_rng_below(rng, DG_ORIENT_COUNT);
    for (int32_t k = 0; k < nfit && !*placed && st == DG_OK && m->attempts < m->budget; k++)
    {
        int32_t parent;
        dg_rect a = fit_area(m, gen, (r0 + k) % nfit, &parent);
        int32_t mask = dgi_orient_fit(v->q, allowed, a.w, a.h);
        if (v->ring && !shrink(&a, v->q, allowed, &mask))
            continue;
        for (int32_t j = 0; j < DG_ORIENT_COUNT && !*placed && st == DG_OK; j++)
            if (mask >> ((o0 + j) % DG_ORIENT_COUNT) & 1)
                st = scan_area(m, gen, v, (o0 + j) % DG_ORIENT_COUNT, a, parent, rng, placed);
    }
    return st;
}

/* The prefabs a vault may still be drawn from, in m->weights (those not yet
 * placed while there are any); 0 if none. */
static int32_t eligible(mixed *m, const dgi_gen *gen)
{
    const dg_prefab_set *set = m->set;
    int32_t n = 0, fresh = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int ok = (q->modes & m->p->mode) && q->weight > 0 && dgi_has_tag(set, q, m->p->tag) &&
                 !((m->p->unique || q->unique) && m->used[i]) &&
                 m->failed[i] < (q->sub_count ? DGI_MIXED_OUTCOMES : 1) &&
                 dgi_orient_fit(q, q->distinct & m->p->orientations, gen->g.width, gen->g.height);
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
    if (eligible(m, gen) == 0)
        return DG_E_NOSPACE;
    vault_try v;
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
    v.voids = 0;
    const dgi_glyph *lg = m->set->legends[v.q->legend].glyph;
    for (int64_t i = 0; i < (int64_t)v.q->width * v.q->height; i++)
        v.voids += lg[v.glyphs[i]].cls == DGI_CLASS_VOID;
    int32_t nfit = rooms_that_fit(m, gen, v.q);
    m->attempts += nfit == 0; /* too big for every room: that check is its one try */
    st = DG_OK;
    v.ring = m->room_count > 0; /* in rooms, a walkway round the vault first */
    if (nfit > 0)
        st = random_draws(m, gen, &v, nfit, rng, placed);
    if (nfit > 0 && st == DG_OK && !*placed && v.ring)
        st = full_scan(m, gen, &v, nfit, rng, placed);
    v.ring = 0;
    if (nfit > 0 && st == DG_OK && !*placed && !m->blocked)
        st = build_blocked(m, &gen->g); /* the sums screen the scan of every position */
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
    for (int32_t i = 0; i < m->set->count; i++)
    {
        const dgi_prefab *q = &m->set->prefabs[i];
        size_t side = (size_t)DG_MAX(q->width, q->height) + 2;
        m->backup_size = DG_MAX(m->backup_size, (size_t)q->width * (size_t)q->height);
        m->local_size = DG_MAX(m->local_size, side * side);
    }
    m->backup = dgi_alloc(a, m->backup_size);
    m->local_mark = dgi_alloc(a, m->local_size);
    m->local_stack = dgi_alloc(a, m->local_size * sizeof *m->local_stack);
    m->rooms = dgi_alloc(a, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
    m->fit = dgi_alloc(a, (size_t)DG_MAX(rooms, 1) * sizeof *m->fit);
    if (!m->weights || !m->used || !m->failed || !m->occ || !m->local_mark || !m->local_stack || !m->backup || !m->rooms ||
        !m->fit)
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

static void free_blocked(mixed *m, const dg_allocator *a)
{
    dgi_free(a, m->blocked, m->blocked ? m->blocked_size : 0);
    m->blocked = NULL;
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
    free_blocked(m, a);
    dgi_free(a, m->rooms, (size_t)DG_MAX(rooms, 1) * sizeof *m->rooms);
    dgi_free(a, m->fit, (size_t)DG_MAX(rooms, 1) * sizeof *m->fit);
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
    free_blocked(m, allocator); /* before the result is finished: the peak stays low */
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
