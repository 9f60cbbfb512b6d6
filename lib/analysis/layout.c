/* The layout figures of dg_survey_map (docs/quality.md): how rooms open,
 * how much rock is left unused, and how corridors run. Each is a pass or two
 * over a padded byte view of the tiles and the result's room rects, no
 * search, so the survey stays cheap enough to judge thousands of maps in the
 * tests. */
#include "analysis/analysis.h"

#define AT(v, x, y) DGI_VIEW(v, x, y)
#define OPEN(v, x, y) (AT(v, x, y) & DGI_V_OPEN)

size_t dgi_view_bytes(const dg_grid *g)
{
    return ((size_t)g->width + 2 * DGI_VIEW_PAD) * ((size_t)g->height + 2 * DGI_VIEW_PAD);
}

static void mark_room(dgi_view *v, const dg_room *room)
{
    dg_rect q = room->rect;
    uint8_t flags = room->kind == DG_ROOM_CAVE ? DGI_V_ROOM : DGI_V_ROOM | DGI_V_PLAIN_ROOM;
    int32_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
    int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)v->width);
    int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)v->height);
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
            AT(v, x, y) |= flags;
}

void dgi_view_fill(dgi_view *v, uint8_t *buf, const dg_grid *g, const dg_result *r)
{
    v->cells = buf;
    v->width = g->width;
    v->height = g->height;
    v->pitch = g->width + 2 * DGI_VIEW_PAD;
    memset(buf, 0, dgi_view_bytes(g));
    for (int32_t y = 0; y < g->height; y++)
    {
        const uint8_t *row = &DG_CELL(g, 0, y);
        uint8_t *out = &AT(v, 0, y);
        for (int32_t x = 0; x < g->width; x++)
            out[x] = (uint8_t)(dgi_passable_default[row[x]] | (row[x] == DG_TILE_CORRIDOR ? DGI_V_CORRIDOR : 0) |
                               (row[x] == DG_TILE_DOOR ? DGI_V_DOOR : 0) |
                               (row[x] == DG_TILE_VOID ? DGI_V_VOID : 0));
    }
    for (int32_t i = 0; r && i < r->room_count; i++)
        mark_room(v, &r->rooms[i]);
}

/* Another passage one or two closed cells away in direction (dx, dy), the
 * first of them (x + dx, y + dy) known to be closed. */
static int partner(const dgi_view *v, int32_t x, int32_t y, int dx, int dy)
{
    return OPEN(v, x + 2 * dx, y + 2 * dy) || OPEN(v, x + 3 * dx, y + 3 * dy);
}

static int open_neighbours(const dgi_view *v, int32_t x, int32_t y)
{
    return OPEN(v, x, y - 1) + OPEN(v, x + 1, y) + OPEN(v, x, y + 1) + OPEN(v, x - 1, y);
}

/* Cells from the dead end (x, y) along its passage to the first cell with
 * three or more open neighbours or inside a room rect (not a cave's). */
static int32_t dead_end_length(const dgi_view *v, int32_t x, int32_t y)
{
    int32_t len = 0, px = -1, py = -1, limit = v->width * v->height;
    while (len < limit && !(AT(v, x, y) & DGI_V_PLAIN_ROOM) && open_neighbours(v, x, y) <= 2)
    {
        int32_t nx = -1, ny = -1;
        len++;
        for (int d = 0; d < 4; d++)
        {
            int32_t cx = x + dgi_dir_dx[d], cy = y + dgi_dir_dy[d];
            if (OPEN(v, cx, cy) && (cx != px || cy != py))
                nx = cx, ny = cy;
        }
        if (nx < 0)
            break; /* the passage ends at another dead end */
        px = x, py = y, x = nx, y = ny;
    }
    return len;
}

/* The running state of the one pass over the cells, row by row. */
typedef struct layout_pass {
    int32_t *square;   /* per column: side of the largest empty square ending here */
    int32_t *straight; /* per column: one-wide vertical run outside rooms so far */
    int32_t *beside;   /* per column: one-wide vertical cells with a partner, in a row */
    int32_t side, thin, parallel, outside;
} layout_pass;

/* A run of one-wide cells with a partner ends: 3 or more count as parallel. */
static void end_beside(int32_t *run, layout_pass *p)
{
    p->parallel += *run >= 3 ? *run : 0;
    *run = 0;
}

/* The largest empty square, by the usual dynamic programme on sides. */
static void square_at(layout_pass *p, int32_t x, int open, int32_t *left, int32_t *diag)
{
    int32_t up = p->square[x];
    *left = p->square[x] = open ? 0 : 1 + DG_MIN(DG_MIN(up, *left), *diag);
    *diag = up;
    p->side = DG_MAX(p->side, *left);
}

/* One row: the square, one-wide runs along the row (local) and down the
 * columns (per-column state), dead ends and the cells outside rooms. */
static void layout_row(const dgi_view *v, int32_t y, layout_pass *p, dg_quality *q)
{
    int32_t left = 0, diag = 0, straight = 0, beside = 0;
    for (int32_t x = 0; x < v->width; x++)
    {
        uint8_t f = AT(v, x, y);
        square_at(p, x, f & DGI_V_OPEN, &left, &diag);
        if (!(f & DGI_V_OPEN))
        { /* rock ends every run (most cells: kept short) */
            if (beside)
                end_beside(&beside, p);
            if (p->beside[x])
                end_beside(&p->beside[x], p);
            straight = p->straight[x] = 0;
            continue;
        }
        int n = OPEN(v, x, y - 1), s = OPEN(v, x, y + 1), w = OPEN(v, x - 1, y), e = OPEN(v, x + 1, y);
        int across_row = !n && !s, across_col = !w && !e; /* one wide */
        p->outside += !(f & DGI_V_ROOM); /* here a cave's rect counts: its cells are the room */
        p->thin += across_row || across_col;
        if (n + s + w + e == 1)
            q->dead_end_max = DG_MAX(q->dead_end_max, dead_end_length(v, x, y));
        straight = across_row && !(f & DGI_V_PLAIN_ROOM) ? straight + 1 : 0;
        p->straight[x] = across_col && !(f & DGI_V_PLAIN_ROOM) ? p->straight[x] + 1 : 0;
        q->straight_max = DG_MAX(q->straight_max, DG_MAX(straight, p->straight[x]));
        if (across_row && (partner(v, x, y, 0, 1) || partner(v, x, y, 0, -1)))
            beside++;
        else
            end_beside(&beside, p);
        if (across_col && (partner(v, x, y, 1, 0) || partner(v, x, y, -1, 0)))
            p->beside[x]++;
        else
            end_beside(&p->beside[x], p);
    }
    end_beside(&beside, p);
}

/* Open cells outside the (clipped) rect 4-adjacent to its open cells,
 * counted as runs along each side: each run is one entrance. */
static int32_t entrances(const dgi_view *v, dg_rect q)
{
    int32_t count = 0;
    for (int side = 0; side < 4; side++)
    {
        int vertical = side >= 2; /* sides 0, 1: top, bottom; 2, 3: left, right */
        int32_t len = vertical ? q.h : q.w, run = 0;
        int ox = side == 2 ? -1 : side == 3 ? 1 : 0, oy = side == 0 ? -1 : side == 1 ? 1 : 0;
        for (int32_t i = 0; i < len; i++)
        {
            int32_t ix = vertical ? (side == 2 ? q.x : q.x + q.w - 1) : q.x + i;
            int32_t iy = vertical ? q.y + i : (side == 0 ? q.y : q.y + q.h - 1);
            int hit = OPEN(v, ix, iy) && OPEN(v, ix + ox, iy + oy);
            count += hit && !run;
            run = hit;
        }
    }
    return count;
}

static int has_closed_cell(const dgi_view *v, dg_rect q)
{
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x++)
            if (!OPEN(v, x, y))
                return 1;
    return 0;
}

static dg_rect clip(const dgi_view *v, dg_rect q)
{
    dg_rect c;
    int64_t x1 = DG_MIN((int64_t)q.x + q.w, (int64_t)v->width);
    int64_t y1 = DG_MIN((int64_t)q.y + q.h, (int64_t)v->height);
    c.x = DG_MAX(q.x, 0);
    c.y = DG_MAX(q.y, 0);
    c.w = x1 > c.x ? (int32_t)(x1 - c.x) : 0;
    c.h = y1 > c.y ? (int32_t)(y1 - c.y) : 0;
    return c;
}

static void room_figures(const dgi_view *v, const dg_result *r, dg_quality *q)
{
    int32_t single = 0, shaped = 0, rooms = r ? r->room_count : 0;
    for (int32_t i = 0; i < rooms; i++)
    {
        dg_rect c = clip(v, r->rooms[i].rect);
        single += entrances(v, c) == 1;
        shaped += has_closed_cell(v, c);
    }
    if (rooms > 0)
    {
        q->single_entrance_permille = (int32_t)((int64_t)single * 1000 / rooms);
        q->shaped_room_permille = (int32_t)((int64_t)shaped * 1000 / rooms);
        q->loops_per_room_permille = (int32_t)((int64_t)q->loops * 1000 / rooms);
    }
}

void dgi_survey_layout(const dgi_view *v, const dg_result *r, int32_t *columns, dg_quality *q)
{
    layout_pass p = {columns, columns + v->width, columns + 2 * v->width, 0, 0, 0, 0};
    for (int32_t i = 0; i < 3 * v->width; i++)
        columns[i] = 0;
    for (int32_t y = 0; y < v->height; y++)
        layout_row(v, y, &p, q);
    for (int32_t x = 0; x < v->width; x++)
        end_beside(&p.beside[x], &p);
    q->empty_square_permille = (int32_t)((int64_t)p.side * p.side * 1000 / ((int64_t)v->width * v->height));
    q->parallel_permille = p.thin ? (int32_t)((int64_t)p.parallel * 1000 / p.thin) : 0;
    room_figures(v, r, q);
    if (r && r->room_count > 0)
        q->corridor_per_room_permille = (int32_t)((int64_t)p.outside * 1000 / r->room_count);
}
