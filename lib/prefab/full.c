/* What the prefab generators share (scratch grid and result, placing a prefab
 * with its room, doors and markers), and the full-size generator. */
#include "analysis/analysis.h"
#include "prefab/prefab.h"

#include <stdlib.h>


/* ---- scratch ------------------------------------------------------------------ */

static const dg_allocator *result_alloc(const dg_result *r)
{
    return r && r->allocator.alloc ? &r->allocator : NULL;
}

static dg_status copy_result(dg_result *to, const dg_result *from)
{
    dg_status st = DG_OK;
    for (int32_t i = 0; i < from->room_count && st == DG_OK; i++)
        st = dgi_result_add_room(to, &from->rooms[i]);
    for (int32_t i = 0; i < from->corridor_count && st == DG_OK; i++)
        st = dgi_result_add_corridor(to, &from->corridors[i]);
    for (int32_t i = 0; i < from->door_count && st == DG_OK; i++)
        st = dgi_result_add_door(to, &from->doors[i]);
    for (int32_t i = 0; i < from->marker_count && st == DG_OK; i++)
        st = dgi_result_add_marker(to, &from->markers[i]);
    to->metrics = from->metrics;
    return st;
}

dg_status dgi_gen_begin(dgi_gen *gen, const dg_prefab_set *set, const dg_grid *grid,
                        const dg_result *result, const dg_allocator *a, int keep, int want_pass,
                        int keep_result)
{
    size_t n = (size_t)grid->width * (size_t)grid->height;
    memset(gen, 0, sizeof *gen);
    gen->set = set;
    gen->alloc = a;
    gen->record = result != NULL;
    dg_result_init(&gen->r, result ? result_alloc(result) : a);
    gen->mem_size = want_pass ? 2 * n : n;
    gen->mem = dgi_alloc(a, gen->mem_size);
    if (!gen->mem)
        return DG_E_NOMEM;
    dg_grid_init(&gen->g, gen->mem, grid->width, grid->height, 0);
    if (want_pass)
        dg_grid_init(&gen->pass, gen->mem + n, grid->width, grid->height, 0);
    if (keep)
        for (int32_t y = 0; y < grid->height; y++)
        {
            const uint8_t *src = &DG_CELL(grid, 0, y);
            memcpy(&DG_CELL(&gen->g, 0, y), src, (size_t)grid->width);
            if (want_pass)
                for (int32_t x = 0; x < grid->width; x++)
                    DG_CELL(&gen->pass, x, y) = dg_tile_passable(src[x]) ? DG_TILE_FLOOR : DG_TILE_WALL;
        }
    if (keep_result && result)
        return copy_result(&gen->r, result);
    return DG_OK;
}

void dgi_gen_fill(dgi_gen *gen, uint8_t tile, int passable)
{
    size_t n = (size_t)gen->g.width * (size_t)gen->g.height;
    memset(gen->g.cells, tile, n);
    if (gen->pass.cells)
        memset(gen->pass.cells, passable ? DG_TILE_FLOOR : DG_TILE_WALL, n);
}

static const dg_marker *first_marker(const dg_result *r, int32_t kind)
{
    for (int32_t i = 0; i < r->marker_count; i++)
        if (r->markers[i].kind == kind)
            return &r->markers[i];
    return NULL;
}

/* The result's start, exit and metrics: a `start` marker on an open cell is the
 * start, else the start the generator put in the scratch result (if open);
 * the exit is then the farthest cell from it, unless an `exit` marker fixes
 * it. */
static dg_status finish_result(dgi_gen *gen, int32_t start_room)
{
    dg_result *r = &gen->r;
    const dg_marker *s = first_marker(r, DG_MARKER_START), *e = first_marker(r, DG_MARKER_EXIT);
    dg_point start = s ? s->pos : r->start; /* r->start is (-1, -1) unless the generator chose */
    dg_status st = dgi_result_finish_at(r, &gen->g, start, start_room, NULL, gen->alloc);
    if (st == DG_OK && e)
    {
        r->exit = e->pos;
        r->exit_room = dgi_result_room_at(r, r->exit);
    }
    return st;
}

dg_status dgi_gen_finish(dgi_gen *gen, int32_t start_room, dg_diag *diag)
{
    dg_status st = DG_OK;
    if (gen->mem && gen->record && !gen->finished)
    {
        st = finish_result(gen, start_room);
        if (st != DG_OK)
            dgi_fail(diag, st, "prefab generator: out of memory");
    }
    gen->finished = 1;
    return st;
}

dg_status dgi_gen_end(dgi_gen *gen, dg_status st, dg_grid *grid, dg_result *result,
                      int32_t start_room, dg_diag *diag)
{
    if (st == DG_OK)
        st = dgi_gen_finish(gen, start_room, diag);
    if (st == DG_OK)
    {
        for (int32_t y = 0; y < grid->height; y++)
            if (!gen->reserved)
                memcpy(&DG_CELL(grid, 0, y), &DG_CELL(&gen->g, 0, y), (size_t)grid->width);
            else
                for (int32_t x = 0; x < grid->width; x++)
                    if (!dgi_mask_at(gen->reserved, x, y))
                        DG_CELL(grid, x, y) = DG_CELL(&gen->g, x, y);
        if (result)
        {
            dg_result_free(result);
            *result = gen->r;
        }
        else
            dg_result_free(&gen->r);
        dgi_diag_ok(diag);
    }
    else
        dg_result_free(&gen->r);
    dgi_free(gen->alloc, gen->mem, gen->mem_size);
    gen->mem = NULL;
    return st;
}

/* ---- placing ------------------------------------------------------------------------ */

/* Door cells on the border of the oriented prefab, as rooms' doors. */
static dg_status add_doors(dgi_gen *gen, const dgi_prefab *p, const uint8_t *g, int32_t o,
                           int32_t x, int32_t y, int32_t room)
{
    if (!p->door_sides) /* door glyphs are never substituted: no border door, no door */
        return DG_OK;
    const dgi_glyph *lg = gen->set->legends[p->legend].glyph;
    dgi_xform t;
    dgi_xform_make(p->width, p->height, o, &t);
    for (int32_t Y = 0; Y < t.h; Y++)
    {
        int edge_row = Y == 0 || Y == t.h - 1;
        for (int32_t X = 0; X < t.w; X += (edge_row || X == t.w - 1) ? 1 : t.w - 1)
        {
            if (lg[g[t.base + (int64_t)X * t.step_x + (int64_t)Y * t.step_y]].cls != DGI_CLASS_DOOR)
                continue;
            dg_door d;
            d.pos.x = x + X;
            d.pos.y = y + Y;
            d.a.kind = DG_REF_ROOM;
            d.a.index = room;
            d.b.kind = DG_REF_NONE;
            d.b.index = -1;
            if (d.pos.x >= 0 && d.pos.y >= 0 && d.pos.x < gen->g.width && d.pos.y < gen->g.height)
            {
                dg_status st = dgi_result_add_door(&gen->r, &d);
                if (st != DG_OK)
                    return st;
            }
        }
    }
    return DG_OK;
}

dg_status dgi_gen_place(dgi_gen *gen, int32_t index, int32_t o, const uint8_t *g, int32_t x,
                        int32_t y, int32_t kind, int32_t parent)
{
    const dgi_prefab *p = &gen->set->prefabs[index];
    if (!gen->record)
    {
        dgi_prefab_write(gen->set, p, g, o, &gen->g, x, y, gen->pass.cells ? &gen->pass : NULL);
        return DG_OK;
    }
    dg_room room;
    room.rect.x = x;
    room.rect.y = y;
    room.rect.w = dgi_orient_swaps(o) ? p->height : p->width;
    room.rect.h = dgi_orient_swaps(o) ? p->width : p->height;
    room.kind = kind;
    room.prefab = index;
    room.orientation = o;
    room.parent = parent;
    room.cells = 0; /* the whole stamped box */
    room.shape = DG_SHAPE_PREFAB;
    dg_status st = dgi_result_add_room(&gen->r, &room);
    int32_t ri = gen->r.room_count - 1;
    if (st == DG_OK)
        st = add_doors(gen, p, g, o, x, y, ri);
    if (st == DG_OK)
        st = dgi_prefab_add_markers(gen->set, p, g, o, x, y, &gen->g, &gen->r, ri);
    if (st == DG_OK)
        dgi_prefab_write(gen->set, p, g, o, &gen->g, x, y, gen->pass.cells ? &gen->pass : NULL);
    return st;
}

/* ---- closing a border ---------------------------------------------------------------- */

static int open_cell(const dgi_gen *gen, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && x < gen->g.width && y < gen->g.height &&
           (dgi_passable_default[DG_CELL(&gen->g, x, y)] ||
            (gen->pass.cells && DG_CELL(&gen->pass, x, y) == DG_TILE_FLOOR));
}

static void set_cell(dgi_gen *gen, int32_t x, int32_t y, uint8_t tile)
{
    DG_CELL(&gen->g, x, y) = tile;
    if (gen->pass.cells)
        DG_CELL(&gen->pass, x, y) = dg_tile_passable(tile) ? DG_TILE_FLOOR : DG_TILE_WALL;
}

/* Calls fn on every cell of the ring of q (a rect inside the grid). */
static void each_ring_cell(dgi_gen *gen, dg_rect q, void (*fn)(dgi_gen *, int32_t, int32_t))
{
    if (q.w <= 0 || q.h <= 0)
        return;
    for (int32_t x = q.x; x < q.x + q.w; x++)
    {
        fn(gen, x, q.y);
        if (q.h > 1)
            fn(gen, x, q.y + q.h - 1);
    }
    for (int32_t y = q.y + 1; y < q.y + q.h - 1; y++)
    {
        fn(gen, q.x, y);
        if (q.w > 1)
            fn(gen, q.x + q.w - 1, y);
    }
}

static void wall_if_open(dgi_gen *gen, int32_t x, int32_t y)
{
    if (open_cell(gen, x, y))
        set_cell(gen, x, y, DG_TILE_WALL);
}

/* A door tile without open cells on two opposite sides leads nowhere: a
 * dead end (one open neighbour at most) becomes wall, a bend becomes floor,
 * so no walk is cut. */
static void mend_door(dgi_gen *gen, int32_t x, int32_t y)
{
    if (DG_CELL(&gen->g, x, y) != DG_TILE_DOOR)
        return;
    int n = open_cell(gen, x, y - 1), s = open_cell(gen, x, y + 1);
    int w = open_cell(gen, x - 1, y), e = open_cell(gen, x + 1, y);
    if ((n && s) || (w && e))
        return;
    set_cell(gen, x, y, n + s + w + e <= 1 ? DG_TILE_WALL : DG_TILE_FLOOR);
}

/* Within one cell of the ring of q? */
static int near_ring(dg_rect q, dg_point p)
{
    int inside = p.x >= q.x && p.y >= q.y && p.x < q.x + q.w && p.y < q.y + q.h;
    int deep = p.x >= q.x + 2 && p.y >= q.y + 2 && p.x < q.x + q.w - 2 && p.y < q.y + q.h - 2;
    return inside && !deep;
}

/* Drops the result's doors and markers that closing turned to wall (or a
 * door to floor). */
static void drop_closed(dgi_gen *gen, dg_rect q)
{
    dg_result *r = &gen->r;
    int32_t n = 0;
    for (int32_t i = 0; i < r->door_count; i++)
    {
        uint8_t t = DG_CELL(&gen->g, r->doors[i].pos.x, r->doors[i].pos.y);
        if (!near_ring(q, r->doors[i].pos) || (t != DG_TILE_WALL && t != DG_TILE_FLOOR))
            r->doors[n++] = r->doors[i];
    }
    r->door_count = n;
    n = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
        if (!near_ring(q, r->markers[i].pos) ||
            DG_CELL(&gen->g, r->markers[i].pos.x, r->markers[i].pos.y) != DG_TILE_WALL)
            r->markers[n++] = r->markers[i];
    r->marker_count = n;
}

void dgi_gen_close(dgi_gen *gen, dg_rect q)
{
    each_ring_cell(gen, q, wall_if_open);
    dg_rect inner = {q.x + 1, q.y + 1, q.w - 2, q.h - 2};
    each_ring_cell(gen, inner, mend_door);
    if (gen->record)
        drop_closed(gen, q);
}

/* Calls fn on the cells of the ring of q that lie in the grid. */
static void each_ring_cell_in(dgi_gen *gen, dg_rect q, void (*fn)(dgi_gen *, int32_t, int32_t))
{
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x += (y == q.y || y == q.y + q.h - 1) ? 1 : q.w - 1)
            if (x >= 0 && y >= 0 && x < gen->g.width && y < gen->g.height)
                fn(gen, x, y);
}

void dgi_gen_close_outside(dgi_gen *gen, dg_rect q)
{
    dg_rect r1 = {q.x - 1, q.y - 1, q.w + 2, q.h + 2}, r2 = {q.x - 2, q.y - 2, q.w + 4, q.h + 4};
    each_ring_cell_in(gen, r1, wall_if_open);
    each_ring_cell_in(gen, r2, mend_door);
    if (gen->record)
        drop_closed(gen, r2);
}

void dgi_gen_seal(dgi_gen *gen, const dgi_mask *m)
{
    for (int32_t y = 0; y < gen->g.height; y++)
        for (int32_t x = 0; x < gen->g.width; x++)
        {
            if (dgi_mask_at(m, x, y))
                set_cell(gen, x, y, DG_TILE_VOID);
            else if (open_cell(gen, x, y) && dgi_mask_near(m, &gen->g, x, y))
                set_cell(gen, x, y, DG_TILE_WALL);
        }
}

size_t dgi_gen_connected_scratch(int32_t w, int32_t h)
{
    return ((size_t)h * (size_t)(w / 2 + 1) + 6 * ((size_t)w / 2 + 1)) * sizeof(int32_t);
}

/* Joins each run of cur (n runs: start, end, label) to every run of prev
 * (prev_n runs) it overlaps, by union-find over parent; returns the joins
 * made (regions = runs - joins). */
int32_t dgi_join_runs(int32_t *parent, const int32_t *prev, int32_t prev_n, const int32_t *cur, int32_t n)
{
    int32_t joins = 0;
    for (int32_t a = 0, b = 0; a < prev_n && b < n;)
    {
        if (prev[3 * a] < cur[3 * b + 1] && cur[3 * b] < prev[3 * a + 1])
        {
            int32_t ra = dgi_uf_find(parent, prev[3 * a + 2]), rb = dgi_uf_find(parent, cur[3 * b + 2]);
            if (ra != rb) /* the older run stays the root: trees stay shallow */
            {
                parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
                joins++;
            }
        }
        if (prev[3 * a + 1] < cur[3 * b + 1])
            a++;
        else
            b++;
    }
    return joins;
}

/* Runs of passable cells row by row; runs that overlap a run of the row above
 * are joined (union-find). Regions = runs - joins. */
int dgi_gen_connected(dgi_gen *gen, int32_t *scratch)
{
    const dg_grid *g = &gen->pass;
    int32_t w = g->width, h = g->height, per_row = w / 2 + 1, runs = 0, joins = 0;
    int32_t *parent = scratch, *prev = scratch + (size_t)h * (size_t)per_row, *cur = prev + 3 * per_row;
    int32_t prev_n = 0;
    for (int32_t y = 0; y < h; y++)
    {
        const uint8_t *row = &DG_CELL(g, 0, y);
        int32_t n = 0;
        for (int32_t x = 0; x < w;)
        {
            while (x < w && row[x] != DG_TILE_FLOOR)
                x++;
            if (x == w)
                break;
            int32_t start = x;
            while (x < w && row[x] == DG_TILE_FLOOR)
                x++;
            parent[runs] = runs;
            cur[3 * n] = start;
            cur[3 * n + 1] = x;
            cur[3 * n + 2] = runs++;
            n++;
        }
        joins += dgi_join_runs(parent, prev, prev_n, cur, n);
        int32_t *t = prev;
        prev = cur;
        cur = t;
        prev_n = n;
    }
    return runs - joins <= 1;
}

#define ROWS_MAX 64

/* The passable cells of row bits `seeds` grown along the runs of `cells`. */
static uint64_t spread_in_row(uint64_t seeds, uint64_t cells)
{
    uint64_t r = seeds & cells, before;
    do
    {
        before = r;
        r |= ((r << 1) | (r >> 1)) & cells;
    } while (r != before);
    return r;
}

/* Bit 0 of each of the eight bytes of k, gathered into one byte. */
static uint64_t low_bits8(uint64_t k)
{
    return ((k & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

/* Row bit masks of map g (at most ROWS_MAX a side): its always-passable
 * cells and those only sometimes passable. The map is read as one run of
 * cells, eight at a time, into flat bit strings, then cut into rows. */
static void passable_rows(const dgi_prefab *p, const uint8_t *g, uint64_t *certain, uint64_t *only_maybe)
{
    uint64_t flat_c[ROWS_MAX + 1], flat_m[ROWS_MAX + 1];
    /* bit 0: always passable, bit 1: sometimes; a table for every byte, so
     * the map's bytes index it as they are */
    uint8_t kind[256] = {0};
    int32_t w = p->width, h = p->height;
    size_t n = (size_t)w * (size_t)h;
    uint64_t row_mask = w == 64 ? ~0ULL : (1ULL << w) - 1;
    for (int word = 0; word < 4; word++) /* only the few passable glyphs */
        for (uint32_t b = p->certain[word] | p->maybe[word]; b; b &= b - 1)
        {
            uint8_t c = (uint8_t)(word * 32 + dgi_lowest_bit64(b));
            kind[c] = (uint8_t)(dgi_glyph_in(p->certain, c) | dgi_glyph_in(p->maybe, c) << 1);
        }
    for (size_t i = 0; i < n; i += 8) /* eight kinds as bytes, gathered by a multiply */
    {
        uint64_t k = 0;
        if (i + 8 <= n)
            k = (uint64_t)kind[g[i]] | (uint64_t)kind[g[i + 1]] << 8 |
                (uint64_t)kind[g[i + 2]] << 16 | (uint64_t)kind[g[i + 3]] << 24 |
                (uint64_t)kind[g[i + 4]] << 32 | (uint64_t)kind[g[i + 5]] << 40 |
                (uint64_t)kind[g[i + 6]] << 48 | (uint64_t)kind[g[i + 7]] << 56;
        else
            for (size_t j = i; j < n; j++)
                k |= (uint64_t)kind[g[j]] << (8 * (j - i));
        uint64_t keep = (i & 63) ? ~0ULL : 0; /* a word's first byte starts it afresh */
        flat_c[i >> 6] = (flat_c[i >> 6] & keep) | low_bits8(k) << (i & 63);
        flat_m[i >> 6] = (flat_m[i >> 6] & keep) | low_bits8(k >> 1) << (i & 63);
    }
    for (int32_t y = 0; y < h; y++)
    {
        size_t at = (size_t)y * (size_t)w, word = at >> 6, shift = at & 63;
        /* cppcheck-suppress uninitvar ; a map has a cell, so the loop above wrote every word */
        uint64_t c = flat_c[word] >> shift, m = flat_m[word] >> shift;
        if (shift + (size_t)w > 64) /* the row runs on into the next word */
        {
            c |= flat_c[word + 1] << (64 - shift);
            m |= flat_m[word + 1] << (64 - shift);
        }
        certain[y] = c & row_mask;
        only_maybe[y] = m & row_mask & ~c;
    }
}

/* Solidity (see dgi_solid_build) from the row masks of a map h rows high. */
static int solid_rows(int32_t h, const uint64_t *certain, const uint64_t *only_maybe)
{
    uint64_t reach[ROWS_MAX];
    int32_t first = -1;
    for (int32_t y = 0; y < h; y++)
    {
        reach[y] = 0;
        first = first < 0 && certain[y] ? y : first;
    }
    for (int32_t y = 0; y < h; y++) /* a sometimes-passable cell needs an always-passable neighbour */
    {
        uint64_t next_to = (certain[y] << 1) | (certain[y] >> 1) | (y > 0 ? certain[y - 1] : 0) |
                           (y + 1 < h ? certain[y + 1] : 0);
        if (only_maybe[y] & ~next_to)
            return 0;
    }
    if (first < 0)
        return 2;
    reach[first] = certain[first] & (~certain[first] + 1); /* its lowest cell */
    /* Sweeps down, up, down... until every cell is reached or a sweep changes
     * nothing (then no other sweep would). */
    for (int32_t sweep = 0, changed = 1; changed; sweep++)
    {
        int32_t full = 0;
        changed = 0;
        for (int32_t k = 0; k < h; k++)
        {
            int32_t y = sweep & 1 ? h - 1 - k : k;
            uint64_t seeds = reach[y] | (y > 0 ? reach[y - 1] : 0) | (y + 1 < h ? reach[y + 1] : 0);
            uint64_t r = spread_in_row(seeds, certain[y]);
            changed |= r != reach[y];
            full += r == certain[y];
            reach[y] = r;
        }
        if (full == h)
            return 1;
    }
    return 0;
}

/* Solidity of p (see dgi_solid_build) by a flood fill, for prefabs over
 * ROWS_MAX cells a side; stack and seen hold width*height entries. */
static int solid_flood(const dgi_prefab *p, const uint8_t *g, int32_t *stack, uint8_t *seen)
{
    int32_t w = p->width, n = p->width * p->height, first = -1, certain = 0, top = 0, reached = 0;
    for (int32_t i = 0; i < n; i++)
    {
        seen[i] = 0;
        if (!dgi_glyph_in(p->certain, g[i]))
        {
            if (!dgi_glyph_in(p->maybe, g[i]))
                continue;
            int32_t x = i % w; /* a sometimes-passable cell needs an always-passable neighbour */
            if (!((i >= w && dgi_glyph_in(p->certain, g[i - w])) || (i + w < n && dgi_glyph_in(p->certain, g[i + w])) ||
                  (x > 0 && dgi_glyph_in(p->certain, g[i - 1])) || (x + 1 < w && dgi_glyph_in(p->certain, g[i + 1]))))
                return 0;
            continue;
        }
        certain++;
        first = first < 0 ? i : first;
    }
    if (first < 0)
        return 2;
    seen[first] = 1;
    stack[top++] = first;
    while (top > 0)
    {
        int32_t c = stack[--top], x = c % w;
        int32_t next[4] = {c >= w ? c - w : -1, c + w < n ? c + w : -1, x > 0 ? c - 1 : -1, x + 1 < w ? c + 1 : -1};
        reached++;
        for (int d = 0; d < 4; d++)
            if (next[d] >= 0 && !seen[next[d]] && dgi_glyph_in(p->certain, g[next[d]]))
            {
                seen[next[d]] = 1;
                stack[top++] = next[d];
            }
    }
    return reached == certain;
}

void dgi_map_index(dgi_prefab *p, const uint8_t *g, const uint8_t *passable)
{
    uint64_t certain[ROWS_MAX], only_maybe[ROWS_MAX];
    /* solidity reads the whole map, edges only its border: the rows serve
     * both when both are asked; dgi_solid_build floods larger maps */
    if (!(p->modes & (DG_PREFAB_ISLAND | DG_PREFAB_JIGSAW)) || p->width > ROWS_MAX || p->height > ROWS_MAX)
    {
        dgi_edges_compute(p, g, passable);
        return;
    }
    passable_rows(p, g, certain, only_maybe);
    dgi_edges_from_rows(p, certain);
    p->solid = solid_rows(p->height, certain, only_maybe);
}

dg_status dgi_solid_build(dg_prefab_set *set)
{
    size_t most = 0;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *p = &set->prefabs[i];
        if (p->width > ROWS_MAX || p->height > ROWS_MAX)
            most = DG_MAX(most, (size_t)p->width * (size_t)p->height);
    }
    size_t size = most * (sizeof(int32_t) + 1);
    uint8_t *scratch = most ? dgi_alloc(dgi_set_alloc(set), size) : NULL;
    if (most && !scratch)
        return DG_E_NOMEM;
    for (int32_t i = 0; i < set->count; i++)
    {
        dgi_prefab *p = &set->prefabs[i];
        const uint8_t *g = set->cells + p->cells;
        if (p->width <= ROWS_MAX && p->height <= ROWS_MAX) /* dgi_map_index did it */
            continue;
        if (!(p->modes & (DG_PREFAB_ISLAND | DG_PREFAB_JIGSAW))) /* only those generators ask */
            p->solid = 0;
        else if (scratch) /* always, as most > 0 */
            p->solid = solid_flood(p, g, (int32_t *)scratch, scratch + most * sizeof(int32_t));
    }
    dgi_free(dgi_set_alloc(set), scratch, size);
    return DG_OK;
}

int32_t dgi_weighted_pick(const int64_t *weights, int32_t n, dg_rng *rng)
{
    int64_t total = 0;
    for (int32_t i = 0; i < n; i++)
        total += weights[i];
    if (total <= 0)
        return -1;
    int64_t r = (int64_t)dgi_below64(rng, (uint64_t)total);
    for (int32_t i = 0; i < n; i++)
    {
        if (r < weights[i])
            return i;
        r -= weights[i];
    }
    return -1;
}

/* ---- full-size generator -------------------------------------------------------------- */

void dg_prefab_full_defaults(dg_prefab_full_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    DGI_PARAMS_FILL(dgi_prefab_full_table, p); /* the rows of core/params.c */
    /* not in the table (pointers): name and tag stay NULL (any prefab, no tag filter) */
}

static dg_status full_check(const dg_prefab_set *set,
                            const dg_prefab_full_params *p, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_full: set is NULL");
    dg_status st;
    if ((st = DGI_SPARE_CHECK(p->spare, "prefab_full params", diag)) != DG_OK)
        return st;
    if ((p->orientations & DG_ORIENT_MASK_ALL) == 0 || (p->orientations & ~DG_ORIENT_MASK_ALL))
        return dgi_fail(diag, DG_E_INVALID, "prefab_full: orientations 0x%X must be a non-empty "
                        "set of the 8 orientation bits", (unsigned)p->orientations);
    if (p->keep != 0 && p->keep != 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_full: keep must be 0 or 1");
    if (p->border != 0 && p->border != 1)
        return dgi_fail(diag, DG_E_INVALID, "prefab_full: border must be 0 or 1");
    if (p->fill < 0 || p->fill > 255)
        return dgi_fail(diag, DG_E_INVALID, "prefab_full: fill %d is not a tile (0..255)", (int)p->fill);
    if (p->cover < 0 || p->cover > 1000)
        return dgi_fail(diag, DG_E_INVALID, "prefab_full: cover %d must be 0..1000 (permille)", (int)p->cover);
    return DG_OK;
}

/* 1 if prefab q covers at least `cover` permille of the grid (always with
 * keep: the cells around it are the caller's map, not empty fill). */
static int covers(const dgi_prefab *q, const dg_grid *grid, const dg_prefab_full_params *p)
{
    return p->keep || (int64_t)q->width * q->height * 1000 >= (int64_t)p->cover * grid->width * grid->height;
}

/* DG_E_NOSPACE when prefabs fit the grid but none covers enough of it: the
 * message names the largest that fits and the grids it would fill. */
static dg_status too_little(const dg_grid *grid, const dg_prefab_set *set, const dg_prefab_full_params *p,
                            dg_diag *diag)
{
    const dgi_prefab *best = NULL;
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int ok = (p->name ? !strcmp(q->name, p->name) : (q->modes & DG_PREFAB_FULL) && dgi_has_tag(set, q, p->tag)) &&
                 dgi_orient_fit(q, q->distinct & p->orientations, grid->width, grid->height);
        if (ok && (!best || (int64_t)q->width * q->height > (int64_t)best->width * best->height))
            best = q;
    }
    if (!best)
        return DG_OK;
    int64_t area = (int64_t)best->width * best->height, cells = (int64_t)grid->width * grid->height;
    return dgi_fail(diag, DG_E_NOSPACE, "prefab_full: the largest prefab that fits the %dx%d grid, '%s' "
                    "(%dx%d), covers %d permille of it, under cover %d: use a grid of at most %lld cells, "
                    "keep = 1 around a generated map, or a lower cover", (int)grid->width, (int)grid->height,
                    best->name, (int)best->width, (int)best->height, (int)(area * 1000 / cells), (int)p->cover,
                    (long long)(p->cover ? area * 1000 / p->cover : cells));
}

/* Chooses the prefab (by name or weighted among mode-full candidates) and its
 * orientation among the distinct allowed ones that fit the grid. */
static dg_status full_choose(const dg_grid *grid, const dg_prefab_set *set,
                             const dg_prefab_full_params *p, dg_rng *rng, int32_t *index,
                             int32_t *o, const dg_allocator *a, dg_diag *diag)
{
    if (p->name)
    {
        *index = dg_prefab_find(set, p->name);
        if (*index < 0)
            return dgi_fail(diag, DG_E_INVALID, "prefab_full: no prefab named '%.40s'", p->name);
        const dgi_prefab *q = &set->prefabs[*index];
        int32_t mask = dgi_orient_fit(q, q->distinct & p->orientations, grid->width, grid->height);
        if (!mask)
            return dgi_fail(diag, DG_E_TOO_SMALL, "prefab_full: '%s' (%dx%d) does not fit a %dx%d "
                            "grid in any allowed orientation", q->name, (int)q->width,
                            (int)q->height, (int)grid->width, (int)grid->height);
        if (!covers(q, grid, p))
            return too_little(grid, set, p, diag);
        *o = dgi_orient_pick(mask, rng);
        return DG_OK;
    }
    int64_t *w = dgi_alloc(a, (size_t)DG_MAX(set->count, 1) * sizeof *w);
    if (!w)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_full: out of memory");
    for (int32_t i = 0; i < set->count; i++)
    {
        const dgi_prefab *q = &set->prefabs[i];
        int ok = (q->modes & DG_PREFAB_FULL) && dgi_has_tag(set, q, p->tag) && covers(q, grid, p) &&
                 dgi_orient_fit(q, q->distinct & p->orientations, grid->width, grid->height);
        w[i] = ok ? q->weight : 0;
    }
    *index = dgi_weighted_pick(w, set->count, rng);
    dgi_free(a, w, (size_t)DG_MAX(set->count, 1) * sizeof *w);
    if (*index < 0 && too_little(grid, set, p, diag) != DG_OK)
        return DG_E_NOSPACE;
    if (*index < 0)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_full: no `mode full` prefab%s%.40s fits a %dx%d grid",
                        p->tag ? " tagged " : "", p->tag ? p->tag : "", (int)grid->width,
                        (int)grid->height);
    const dgi_prefab *q = &set->prefabs[*index];
    *o = dgi_orient_pick(dgi_orient_fit(q, q->distinct & p->orientations, grid->width, grid->height), rng);
    return DG_OK;
}

/* The place of a w x h prefab nearest the grid's centre (first in row order
 * among equals) whose box and the ring around it hold no reserved cell; 0 if none. */
static int full_place(const int32_t *sums, const dg_grid *grid, int32_t w, int32_t h, dg_point *at)
{
    int64_t best = -1;
    for (int32_t y = 0; y + h <= grid->height; y++)
        for (int32_t x = 0; x + w <= grid->width; x++)
        {
            dg_rect ring = {x - 1, y - 1, w + 2, h + 2};
            int64_t d = (int64_t)abs(2 * x + w - grid->width) + abs(2 * y + h - grid->height);
            if ((best < 0 || d < best) && dgi_mask_count(sums, grid->width, grid->height, ring) == 0)
            {
                best = d;
                at->x = x;
                at->y = y;
            }
        }
    return best >= 0;
}

/* Where the prefab goes: centred, or with reserved cells the nearest clear
 * place for orientation *o, else for the other allowed ones in turn. */
static dg_status full_where(const dg_grid *grid, const dgi_prefab *q, int32_t fit,
                            const dgi_mask *m, int32_t *o, dg_point *at, const dg_allocator *a,
                            dg_diag *diag)
{
    int32_t w = dgi_orient_swaps(*o) ? q->height : q->width, h = dgi_orient_swaps(*o) ? q->width : q->height;
    at->x = (grid->width - w) / 2;
    at->y = (grid->height - h) / 2;
    if (!m)
        return DG_OK;
    size_t n = ((size_t)grid->width + 1) * ((size_t)grid->height + 1);
    int32_t *sums = dgi_alloc(a, n * sizeof *sums);
    if (!sums)
        return dgi_fail(diag, DG_E_NOMEM, "prefab_full: out of memory");
    dgi_mask_sums(m, grid->width, grid->height, sums);
    int found = 0;
    for (int32_t k = 0; k < 8 && !found; k++)
    {
        int32_t t = (*o + k) % 8;
        if (!(fit & (1 << t)))
            continue;
        w = dgi_orient_swaps(t) ? q->height : q->width;
        h = dgi_orient_swaps(t) ? q->width : q->height;
        found = full_place(sums, grid, w, h, at);
        *o = found ? t : *o;
    }
    dgi_free(a, sums, n * sizeof *sums);
    if (!found)
        return dgi_fail(diag, DG_E_NOSPACE, "prefab_full: '%s' (%dx%d) finds no place in the %dx%d "
                        "grid that keeps off the reserved cells and their ring", q->name,
                        (int)q->width, (int)q->height, (int)grid->width, (int)grid->height);
    return DG_OK;
}

dg_status dg_prefab_full_generate(dg_grid *grid, const dg_prefab_set *set,
                                  const dg_prefab_full_params *params, uint64_t seed,
                                  dg_result *result, const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    return st != DG_OK ? st : dgi_prefab_full_generate(grid, set, params, seed, NULL, result, allocator, diag);
}

dg_status dgi_prefab_full_generate(dg_grid *grid, const dg_prefab_set *set,
                                   const dg_prefab_full_params *params, uint64_t seed,
                                   const dgi_mask *reserved, dg_result *result,
                                   const dg_allocator *allocator, dg_diag *diag)
{
    dg_prefab_full_params p;
    if (params)
        p = *params;
    else
        dg_prefab_full_defaults(&p);
    dg_status st = full_check(set, &p, diag);
    if (st != DG_OK)
        return st;
    dg_rng rng;
    dgi_rng_seed(&rng, seed, DGI_STREAM_LAYOUT);
    int32_t index = -1, o = 0;
    st = full_choose(grid, set, &p, &rng, &index, &o, allocator, diag);
    if (st != DG_OK)
        return st;
    const dgi_prefab *q = &set->prefabs[index];
    dg_point at;
    int32_t fit = dgi_orient_fit(q, q->distinct & p.orientations, grid->width, grid->height);
    st = full_where(grid, q, fit, reserved, &o, &at, allocator, diag);
    if (st != DG_OK)
        return st;
    uint8_t buf[4096], *heap;
    const uint8_t *g = dgi_prefab_glyphs(set, q, dgi_hash_combine(seed, 1), buf, sizeof buf, &heap, &st);
    if (!g)
        return dgi_fail(diag, st, st == DG_E_NOMEM ? "prefab_full: out of memory"
                                                   : "prefab_full: no outcome of '%s' meets its require counts",
                        q->name);
    dgi_gen gen;
    st = dgi_gen_begin(&gen, set, grid, result, allocator, p.keep, 0, 0);
    if (st == DG_OK)
    {
        gen.reserved = reserved;
        if (!p.keep)
            dgi_gen_fill(&gen, (uint8_t)p.fill, 0);
        st = dgi_gen_place(&gen, index, o, g, at.x, at.y, DG_ROOM_PREFAB, -1);
        dg_rect whole = {0, 0, grid->width, grid->height};
        if (st == DG_OK && p.border)
            dgi_gen_close(&gen, whole);
        if (st == DG_OK && reserved)
            dgi_gen_seal(&gen, reserved);
        gen.r.metrics.attempts = gen.r.metrics.requested = gen.r.metrics.placed = 1;
    }
    if (st != DG_OK)
        dgi_fail(diag, st, "prefab_full: out of memory");
    dgi_prefab_glyphs_free(set, q, heap);
    return dgi_gen_end(&gen, st, grid, result, 0, diag);
}
