/* Anchors: cells a generated map must open and join to its start, the first
 * of them becoming the start itself (stairs that line up between floors). An
 * anchor in rock gets a small room, and a corridor to the nearest open cell
 * of the start's region; an anchor already open stays as it is. */
#include "internal.h"

typedef struct anchor_ctx {
    dg_grid *g;
    dg_result *rooms; /* rooms made for anchors, added to the caller's result at the end */
    const dg_result *source; /* the generator's result (rooms already there), or NULL */
    const dgi_mask *reserved; /* cells never written nor touched by open cells, or NULL */
    int32_t *label;  /* region per cell (-1 closed), row-major without stride */
    int32_t *from;   /* corridor search: the cell each cell was reached from, -2 unseen */
    int32_t *queue;
    int32_t main;    /* label of the start's region */
} anchor_ctx;

static const int32_t step_x[4] = {0, 1, 0, -1}, step_y[4] = {-1, 0, 1, 0};

static int is_rock(uint8_t t) { return t == DG_TILE_VOID || t == DG_TILE_WALL; }

static int inner(const dg_grid *g, int32_t x, int32_t y) /* not on the grid's edge */
{
    return x > 0 && y > 0 && x < g->width - 1 && y < g->height - 1;
}

static int32_t cell(const anchor_ctx *c, int32_t x, int32_t y) { return y * c->g->width + x; }

/* Where a cell lies against room interior q: 0 inside, 1 on the ring's
 * sides, 2 on a ring corner, 3 outside. */
static int ring_place(dg_rect q, int32_t x, int32_t y)
{
    int out_x = x < q.x || x >= q.x + q.w, out_y = y < q.y || y >= q.y + q.h;
    int far = x < q.x - 1 || x > q.x + q.w || y < q.y - 1 || y > q.y + q.h;
    return far ? 3 : out_x && out_y ? 2 : out_x || out_y ? 1 : 0;
}

/* A corridor cell on the ring's side becomes a door; two side by side would
 * be a row of doors (a corridor running along the room), refused. */
static int side_doors_apart(const anchor_ctx *c, dg_rect q, int32_t x, int32_t y)
{
    static const int32_t dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; d++)
        if (ring_place(q, x + dx[d], y + dy[d]) == 1 &&
            DG_CELL(c->g, x + dx[d], y + dy[d]) == DG_TILE_CORRIDOR)
            return 0;
    return 1;
}

/* A room interior q fits when it and its one-cell ring are inside the grid
 * and rock, so carving it merges with nothing; with `corridors`, corridor
 * cells may lie in it too (the room widens the corridor, which enters it
 * through doors on the ring's sides). */
static int room_fits(const anchor_ctx *c, dg_rect q, int corridors)
{
    if (q.x < 1 || q.y < 1 || q.x + q.w > c->g->width - 1 || q.y + q.h > c->g->height - 1)
        return 0;
    for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
        for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
        {
            uint8_t t = DG_CELL(c->g, x, y);
            int corridor = corridors && t == DG_TILE_CORRIDOR;
            if ((!is_rock(t) && !corridor) || dgi_mask_at(c->reserved, x, y))
                return 0;
            if (corridor && ring_place(q, x, y) == 1 && !side_doors_apart(c, q, x, y))
                return 0;
        }
    return 1;
}

/* The largest room up to 3x3 (2x2 when it widens a corridor) that holds p and
 * fits, p as central as it can be; the first in a fixed order, so the same map
 * gives the same room. */
static int pick_room(const anchor_ctx *c, dg_point p, int corridors, dg_rect *out)
{
    static const int32_t sizes[][2] = {{3, 3}, {3, 2}, {2, 3}, {2, 2}, {2, 1}, {1, 2}, {1, 1}};
    static const int32_t shifts[] = {1, 0, 2};
    const size_t count = corridors ? 4 : sizeof sizes / sizeof sizes[0];
    for (size_t s = 0; s < count; s++)
        for (int32_t i = 0; i < 3; i++)
            for (int32_t j = 0; j < 3; j++)
            {
                int32_t w = sizes[s][0], h = sizes[s][1], dx = shifts[i], dy = shifts[j];
                dg_rect q = {p.x - dx, p.y - dy, w, h};
                if (dx < w && dy < h && room_fits(c, q, corridors))
                {
                    *out = q;
                    return 1;
                }
            }
    return 0;
}

/* What the open 4-neighbours of (x, y) are: bit 1 the area being joined,
 * bit 2 the start's region, bit 4 anything else. */
static int touches(const anchor_ctx *c, int32_t x, int32_t y, int32_t area)
{
    int kinds = 0;
    for (int d = 0; d < 4; d++)
    {
        int32_t l = c->label[cell(c, x + step_x[d], y + step_y[d])];
        if (l >= 0)
            kinds |= l == area ? 1 : l == c->main ? 2 : 4;
    }
    return kinds;
}

/* Breadth-first through rock from the area's cells to a rock cell beside the
 * start's region; returns that cell or -1. A corridor never touches a third
 * area, and touches its own area only where it leaves it, so it merges with
 * nothing on its way. */
static int32_t search(anchor_ctx *c, int32_t area)
{
    const int32_t w = c->g->width, n = w * c->g->height;
    int32_t tail = 0;
    for (int32_t i = 0; i < n; i++)
    {
        c->from[i] = c->label[i] == area ? -1 : -2;
        if (c->label[i] == area)
            c->queue[tail++] = i;
    }
    for (int32_t head = 0; head < tail; head++)
    {
        int32_t at = c->queue[head], x = at % w, y = at / w;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + step_x[d], ny = y + step_y[d], next = ny * w + nx;
            if (!inner(c->g, nx, ny) || c->from[next] != -2 || !is_rock(DG_CELL(c->g, nx, ny)) ||
                dgi_mask_near(c->reserved, c->g, nx, ny))
                continue;
            int kinds = touches(c, nx, ny, area), leaving = c->label[at] == area;
            if ((kinds & 4) || ((kinds & 1) && !leaving))
                continue;
            c->from[next] = at;
            if (kinds & 2)
                return next;
            c->queue[tail++] = next;
        }
    }
    return -1;
}

static int touches_room_floor(const anchor_ctx *c, int32_t x, int32_t y)
{
    for (int d = 0; d < 4; d++)
        if (DG_CELL(c->g, x + step_x[d], y + step_y[d]) == DG_TILE_FLOOR)
            return 1;
    return 0;
}

/* Carves the corridor the search found, back from its end to the area: a
 * door where it meets room floor at either end, corridor elsewhere. */
static void carve_corridor(anchor_ctx *c, int32_t end, int32_t area)
{
    const int32_t w = c->g->width;
    for (int32_t at = end; at >= 0 && c->label[at] != area; at = c->from[at])
    {
        int32_t x = at % w, y = at / w;
        int ends = at == end || c->label[c->from[at]] == area;
        DG_CELL(c->g, x, y) = ends && touches_room_floor(c, x, y) ? DG_TILE_DOOR : DG_TILE_CORRIDOR;
    }
}

/* Region labels afresh; main becomes the label at `start` (or -1). */
static void relabel(anchor_ctx *c, dg_point start)
{
    dgi_label_regions(c->g, c->label, c->queue);
    c->main = start.x >= 0 ? c->label[cell(c, start.x, start.y)] : -1;
}

/* A room (or one cell where no room fits) around an anchor in rock. */
static dg_status carve_room(anchor_ctx *c, dg_rect q)
{
    for (int32_t y = q.y - 1; y <= q.y + q.h; y++)
        for (int32_t x = q.x - 1; x <= q.x + q.w; x++)
        {
            uint8_t *t = &DG_CELL(c->g, x, y);
            int place = ring_place(q, x, y);
            if (place == 0)
                *t = DG_TILE_FLOOR;
            else if (*t == DG_TILE_CORRIDOR)
                *t = place == 1 ? DG_TILE_DOOR : *t;
            else
                *t = DG_TILE_WALL;
        }
    dg_room room = {q, DG_ROOM_NORMAL, -1, 0, -1, q.w * q.h};
    return dgi_result_add_room(c->rooms, &room);
}

/* A room around an anchor in rock (or widening the corridor it lies on or
 * beside); one open cell where no room fits. */
static dg_status open_anchor(anchor_ctx *c, dg_point p)
{
    dg_rect q;
    if (is_rock(DG_CELL(c->g, p.x, p.y)) && pick_room(c, p, 0, &q))
        return carve_room(c, q);
    if (pick_room(c, p, 1, &q))
        return carve_room(c, q);
    if (is_rock(DG_CELL(c->g, p.x, p.y)))
        DG_CELL(c->g, p.x, p.y) = DG_TILE_FLOOR;
    return DG_OK;
}

static dg_status join_anchor(anchor_ctx *c, dg_point p, dg_point start, dg_diag *diag)
{
    uint8_t tile = DG_CELL(c->g, p.x, p.y);
    if (tile == DG_TILE_OBSTACLE || tile == DG_TILE_WATER) /* furniture or a pool gives way */
        DG_CELL(c->g, p.x, p.y) = DG_TILE_FLOOR;
    else if (!dg_tile_passable(tile) && !is_rock(tile))
        return dgi_fail(diag, DG_E_NOSPACE, "anchor (%d, %d) is on tile %d (%s), which stays",
                        (int)p.x, (int)p.y, (int)tile, dg_tile_name(tile));
    int in_room = dgi_result_room_at(c->rooms, p) >= 0 || (c->source && dgi_result_room_at(c->source, p) >= 0);
    if (is_rock(tile) || (tile == DG_TILE_CORRIDOR && !in_room))
    {
        dg_status st = open_anchor(c, p);
        if (st != DG_OK)
            return dgi_fail(diag, st, "out of memory for the anchor's room");
    }
    relabel(c, start.x >= 0 ? start : p);
    int32_t area = c->label[cell(c, p.x, p.y)];
    if (area == c->main)
        return DG_OK;
    int32_t end = search(c, area);
    if (end < 0)
        return dgi_fail(diag, DG_E_NOSPACE,
                        "anchor (%d, %d) cannot be joined to the start: no way through rock",
                        (int)p.x, (int)p.y);
    carve_corridor(c, end, area);
    return DG_OK;
}

static dg_status check_anchors(const dg_grid *g, const dg_point *anchors, int32_t count,
                               const dgi_mask *reserved, dg_diag *diag)
{
    if (count < 0 || count > DG_ANCHORS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "%d anchors: 0..%d are allowed", (int)count,
                        DG_ANCHORS_MAX);
    if (count > 0 && !anchors)
        return dgi_fail(diag, DG_E_NULL, "anchors is NULL");
    for (int32_t i = 0; i < count; i++)
        if (anchors[i].x < 0 || anchors[i].y < 0 || anchors[i].x >= g->width ||
            anchors[i].y >= g->height)
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is outside the %dx%d grid",
                            (int)i, (int)anchors[i].x, (int)anchors[i].y, (int)g->width,
                            (int)g->height);
    for (int32_t i = 0; i < count; i++)
        if (dgi_mask_at(reserved, anchors[i].x, anchors[i].y))
            return dgi_fail(diag, DG_E_INVALID, "anchor %d (%d, %d) is a reserved cell", (int)i,
                            (int)anchors[i].x, (int)anchors[i].y);
    return DG_OK;
}

/* The generator's start when it is an open cell, else none. */
static dg_point open_start(const dg_grid *g, const dg_result *r)
{
    dg_point none = {-1, -1};
    if (!r || r->start.x < 0 || r->start.y < 0 || r->start.x >= g->width || r->start.y >= g->height)
        return none;
    return dg_tile_passable(DG_CELL(g, r->start.x, r->start.y)) ? r->start : none;
}

/* Joins every anchor in turn to the start's region (to the first anchor's
 * when the map has no open start). */
static dg_status join_all(anchor_ctx *c, dg_point start, const dg_point *anchors, int32_t count,
                          dg_diag *diag)
{
    for (int32_t i = 0; i < count; i++)
    {
        dg_status st = join_anchor(c, anchors[i], start, diag);
        if (st != DG_OK)
            return st;
        if (start.x < 0)
            start = anchors[i];
    }
    return DG_OK;
}

static void copy_cells(dg_grid *to, const dg_grid *from)
{
    for (int32_t y = 0; y < from->height; y++)
        memcpy(&DG_CELL(to, 0, y), &DG_CELL(from, 0, y), (size_t)from->width);
}

/* The result after the anchors: the new rooms, the start on the first anchor,
 * the exit and metrics recomputed from there; as it was on DG_E_NOMEM. */
static dg_status finish_result(dg_result *r, const dg_grid *g, const dg_result *rooms,
                               dg_point start, const dg_allocator *a)
{
    dg_result before = *r;
    dg_status st = dgi_result_reserve(r, r->room_count + rooms->room_count, 0, 0, 0);
    for (int32_t i = 0; st == DG_OK && i < rooms->room_count; i++)
        st = dgi_result_add_room(r, &rooms->rooms[i]);
    r->exit_room = -1;
    if (st == DG_OK)
    {
        st = dgi_result_finish_at(r, g, start, -1, NULL, a);
        r->start_room = dgi_result_room_near(r, start); /* an alcove belongs to its room */
    }
    if (st == DG_OK)
        st = dgi_result_exit_in_room(r, g, a);
    if (st != DG_OK)
    {
        before.rooms = r->rooms; /* the arrays may have moved; their first entries are kept */
        memcpy(before.capacity_, r->capacity_, sizeof before.capacity_);
        *r = before;
    }
    return st;
}

dg_status dg_anchor_place(dg_grid *grid, dg_result *result, const dg_point *anchors,
                          int32_t count, const dg_allocator *allocator, dg_diag *diag)
{
    return dgi_anchor_place(grid, result, anchors, count, NULL, allocator, diag);
}

dg_status dgi_anchor_place(dg_grid *grid, dg_result *result, const dg_point *anchors,
                           int32_t count, const dgi_mask *reserved,
                           const dg_allocator *allocator, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st == DG_OK)
        st = check_anchors(grid, anchors, count, reserved, diag);
    if (st != DG_OK || count == 0)
        return st;
    const int32_t w = grid->width;
    const size_t n = (size_t)w * (size_t)grid->height, ints_size = 3 * n * sizeof(int32_t);
    uint8_t *cells = dgi_alloc(allocator, n);
    int32_t *ints = dgi_alloc(allocator, ints_size);
    dg_grid copy = {cells, w, grid->height, w};
    dg_result rooms;
    dg_result_init(&rooms, allocator);
    anchor_ctx c = {&copy, &rooms, result, reserved, ints, NULL, NULL, -1};
    if (!cells || !ints)
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory for %d anchors", (int)count);
    if (st == DG_OK)
    {
        c.from = ints + n;
        c.queue = ints + 2 * n;
        copy_cells(&copy, grid);
        st = join_all(&c, open_start(grid, result), anchors, count, diag);
    }
    if (st == DG_OK && result && finish_result(result, &copy, &rooms, anchors[0], allocator) != DG_OK)
        st = dgi_fail(diag, DG_E_NOMEM, "out of memory while measuring the map");
    if (st == DG_OK)
        copy_cells(grid, &copy);
    dgi_free(allocator, cells, n);
    dgi_free(allocator, ints, ints_size);
    dg_result_free(&rooms);
    return st;
}
