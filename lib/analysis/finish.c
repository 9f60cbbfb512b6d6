/* Finishing a generator's result from its tiles: start and exit (the exit
 * farthest by walking), and the grid-derived metrics, in one pass over a
 * bordered passability mask. */
#include "analysis/analysis.h"

static int32_t lane_sum(uint64_t lanes) /* the eight byte lanes added up */
{
    const uint64_t even = 0x00FF00FF00FF00FFULL;
    uint64_t pairs = (lanes & even) + (lanes >> 8 & even); /* four 16-bit lanes */
    return (int32_t)((pairs * 0x0001000100010001ULL) >> 48);
}

/* Bit 7 of each byte lane set where the lane is not zero. */
static uint64_t nonzero_lanes(uint64_t v)
{
    return ((v & DGI_LANES(0x7F)) + DGI_LANES(0x7F)) | v;
}

/* The grid's passability under the 256-entry table pass (1 open, 0 closed)
 * with a one-cell border of 0 around it (and 0 up to size), so the passes
 * below need no bounds checks. */
static void build_mask(const dg_grid *g, const uint8_t *pass, uint8_t *mask, int32_t pw,
                       size_t size)
{
    const int32_t w = g->width, h = g->height;
    const int32_t lanes_end = pass == dgi_passable_default ? w - 7 : 0; /* other tables: per cell */
    memset(mask, 0, (size_t)pw);
    for (int32_t y = 0; y < h; y++)
    {
        uint8_t *row = mask + (size_t)(y + 1) * (size_t)pw + 1;
        const uint8_t *cells = &DG_CELL(g, 0, y);
        int32_t x = 0;
        row[-1] = 0;
        for (; x < lanes_end; x += 8)
        {
            uint64_t open = dgi_passable_lanes(dgi_load8(cells + x));
            memcpy(row + x, &open, sizeof open);
        }
        for (; x < w; x++)
            row[x] = pass[cells[x]] != 0;
        row[w] = 0;
    }
    size_t last = (size_t)(h + 1) * (size_t)pw;
    memset(mask + last, 0, size - last);
}


/* Per-lane tallies of eight cells: mask bytes are 0/1, so a lane's
 * neighbour sum is at most 4 and never carries into the next lane. */
typedef struct lane_tallies {
    uint64_t open, dead, edges, squares;
} lane_tallies;

static void count_word(const uint8_t *at, int32_t pw, lane_tallies *t)
{
    uint64_t here = dgi_load8(at), right = dgi_load8(at + 1), down = dgi_load8(at + pw);
    uint64_t sum = dgi_load8(at - pw) + down + dgi_load8(at - 1) + right;
    uint64_t across = here & right, along = here & down;
    t->open += here;
    t->dead += ~nonzero_lanes(sum ^ DGI_LANES(1)) >> 7 & here;
    t->edges += across + along;
    t->squares += across & along & dgi_load8(at + pw + 1);
}

/* The counts in steps of 32 cells, skipping steps of rock (a test per step
 * rather than per word is rarely mispredicted on either rock or rooms); the
 * tallies grow by at most 2 per lane a word, so they are summed every 64
 * words. The border columns are closed, so the interior rows can be scanned
 * as one run. */
static void count_cells(const uint8_t *mask, int32_t pw, int32_t ph, dgi_cell_counts *out)
{
    int32_t i = pw, end = (ph - 1) * pw;
    int64_t open = 0, dead = 0, edges = 0, squares = 0;
    while (i + 32 <= end)
    {
        lane_tallies t = {0, 0, 0, 0};
        for (int k = 0; k < 16 && i + 32 <= end; k++, i += 32)
        {
            const uint8_t *at = mask + i;
            if ((dgi_load8(at) | dgi_load8(at + 8) | dgi_load8(at + 16) | dgi_load8(at + 24)) == 0)
                continue;
            for (int j = 0; j < 32; j += 8)
                count_word(at + j, pw, &t);
        }
        open += lane_sum(t.open);
        dead += lane_sum(t.dead);
        edges += lane_sum(t.edges);
        squares += lane_sum(t.squares);
    }
    for (; i < end; i++)
    {
        int sum = mask[i - pw] + mask[i + 1] + mask[i + pw] + mask[i - 1];
        open += mask[i];
        dead += mask[i] & (sum == 1);
        edges += mask[i] & mask[i + 1];
        edges += mask[i] & mask[i + pw];
        squares += mask[i] & mask[i + 1] & mask[i + pw] & mask[i + pw + 1];
    }
    out->open = (int32_t)open;
    out->dead_ends = (int32_t)dead;
    out->edges = edges;
    out->squares = squares;
}

/* Breadth-first flood in N, E, S, W order (the order dgi_bfs uses, so the
 * last cell queued is dgi_bfs's farthest one). Reached cells are cleared in
 * mask. No branch depends on the map: every neighbour is written to the queue
 * and kept only if it was open (dgi_queue_open), so queue needs one entry
 * more than the region. Returns the cells reached. */
static int32_t flood(uint8_t *mask, int32_t *queue, int32_t pw, int32_t start)
{
    int32_t head = 0, tail = 1;
    mask[start] = 0;
    queue[0] = start;
    while (head < tail)
        tail = dgi_queue_open(mask, pw, queue[head++], queue, tail);
    return tail;
}

/* First index >= from whose mask byte is set, or `end`; eight bytes a step. */
static int32_t next_open(const uint8_t *mask, int32_t from, int32_t end)
{
    while (from + 8 <= end && dgi_load8(mask + from) == 0)
        from += 8;
    while (from < end && !mask[from])
        from++;
    return from;
}

static int open_at(const dg_grid *g, const uint8_t *mask, int32_t pw, dg_point p)
{
    return p.x >= 0 && p.y >= 0 && p.x < g->width && p.y < g->height &&
           mask[(p.y + 1) * pw + p.x + 1];
}

/* Padded index of the start cell: `first` if open, else the centre of room
 * start_room if open, else the first open cell in row order, or -1. */
static int32_t start_index(const dg_result *r, const dg_grid *g, const uint8_t *mask,
                           int32_t pw, dg_point first, int32_t start_room)
{
    dg_point centre = {-1, -1};
    if (start_room >= 0 && start_room < r->room_count)
    {
        dg_rect q = r->rooms[start_room].rect;
        int64_t cx = (int64_t)q.x + q.w / 2, cy = (int64_t)q.y + q.h / 2; /* a caller's room may be huge */
        if (cx >= 0 && cy >= 0 && cx < g->width && cy < g->height)
        {
            centre.x = (int32_t)cx;
            centre.y = (int32_t)cy;
        }
    }
    if (open_at(g, mask, pw, first))
        return (first.y + 1) * pw + first.x + 1;
    if (open_at(g, mask, pw, centre))
        return (centre.y + 1) * pw + centre.x + 1;
    int32_t end = (g->height + 1) * pw, i = next_open(mask, pw, end);
    return i < end ? i : -1;
}

static dg_point unpad(int32_t i, int32_t pw)
{
    dg_point p = {i % pw - 1, i / pw - 1};
    return p;
}

dg_status dgi_count_cells(const dg_grid *g, const uint8_t *passable, dgi_cell_counts *out,
                          const dg_allocator *a)
{
    int32_t pw = g->width + 2, ph = g->height + 2;
    size_t padded = (size_t)pw * (size_t)ph + 8;
    uint8_t *mask = dgi_alloc(a, padded);
    if (!mask)
        return DG_E_NOMEM;
    build_mask(g, passable ? passable : dgi_passable_default, mask, pw, padded);
    count_cells(mask, pw, ph, out);
    dgi_free(a, mask, padded);
    return DG_OK;
}

dg_status dgi_result_finish_at(dg_result *r, const dg_grid *g, dg_point start,
                               int32_t start_room, int32_t *loops, const dg_allocator *a)
{
    int32_t pw = g->width + 2, ph = g->height + 2;
    size_t padded = (size_t)pw * (size_t)ph + 8; /* the 2x2 count reads one byte past */
    uint8_t *mask = dgi_alloc(a, padded);
    if (!mask)
        return DG_E_NOMEM;
    build_mask(g, dgi_passable_default, mask, pw, padded);
    dgi_cell_counts counts;
    count_cells(mask, pw, ph, &counts);
    size_t queue_len = (size_t)counts.open + 1; /* a flood queues one cell more than it keeps */
    int32_t *queue = dgi_alloc(a, queue_len * sizeof *queue);
    if (!queue)
    {
        dgi_free(a, mask, padded);
        return DG_E_NOMEM;
    }
    dg_metrics *m = &r->metrics;
    m->cells = g->width * g->height;
    m->floor_cells = counts.open;
    m->floor_permille = (int32_t)((int64_t)m->floor_cells * 1000 / (int64_t)m->cells);
    m->rooms = r->room_count;
    m->corridors = r->corridor_count;
    m->doors = r->door_count;
    m->dead_ends = counts.dead_ends;
    m->regions = 0;
    int32_t s = start_index(r, g, mask, pw, start, start_room);
    if (s >= 0)
    {
        int32_t reached = flood(mask, queue, pw, s), end = (ph - 1) * pw;
        r->start = unpad(s, pw);
        r->exit = unpad(queue[reached - 1], pw);
        r->start_room = dgi_result_room_at(r, r->start);
        r->exit_room = dgi_result_room_at(r, r->exit);
        m->regions = 1;
        /* one more flood for each other region, until every open cell is reached */
        for (int32_t i = pw; reached < counts.open; m->regions++)
        {
            i = next_open(mask, i, end);
            reached += flood(mask, queue, pw, i);
        }
    }
    /* Euler: bounded faces of the planar cell graph are its open 2x2 squares
     * plus one per obstacle ringed by open cells (as dg_measure counts). */
    if (loops)
        *loops = (int32_t)(counts.edges - m->floor_cells + m->regions - counts.squares);
    dgi_free(a, queue, queue_len * sizeof *queue);
    dgi_free(a, mask, padded);
    return DG_OK;
}

dg_status dgi_result_finish(dg_result *r, const dg_grid *g, int32_t start_room,
                            const dg_allocator *a)
{
    dg_point none = {-1, -1};
    return dgi_result_finish_at(r, g, none, start_room, NULL, a);
}

dg_status dgi_result_exit_in_room(dg_result *r, const dg_grid *g, const dg_allocator *a)
{
    if (r->start.x < 0 || r->exit_room >= 0)
        return DG_OK;
    size_t n = (size_t)g->width * (size_t)g->height;
    int32_t *dist = dgi_alloc(a, n * sizeof *dist), *queue = dgi_alloc(a, n * sizeof *queue);
    dg_status st = dist && queue ? DG_OK : DG_E_NOMEM;
    if (st == DG_OK)
    {
        dgi_bfs(g, r->start.y * g->width + r->start.x, dist, queue);
        int32_t best = -1;
        for (int32_t i = 0; i < r->room_count; i++)
        {
            dg_rect q = r->rooms[i].rect;
            for (int32_t y = q.y; y < q.y + q.h; y++)
                for (int32_t x = q.x; x < q.x + q.w; x++)
                    if (dist[y * g->width + x] > best)
                    {
                        best = dist[y * g->width + x];
                        r->exit.x = x;
                        r->exit.y = y;
                        r->exit_room = i;
                    }
        }
    }
    dgi_free(a, dist, n * sizeof *dist);
    dgi_free(a, queue, n * sizeof *queue);
    return st;
}
