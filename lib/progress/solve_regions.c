/* dg_solve's fast path: the solver's search (solve.c) over regions and locked
 * doors instead of cells, with the same waves, keys, steps and key order.
 * solve.c calls down into this file; nothing here calls back up. */
#include "analysis/analysis.h"
#include "progress/progress.h"

/* Lock or key number N from a marker named "lock N" / "key N", else 0. Reads
 * no further than the name's array, NUL or not (a caller's marker may lack it). */
int32_t dgi_progress_number(const dg_marker *m, const char *word)
{
    size_t len = strlen(word), i = len + 1;
    if (i >= sizeof m->name || strncmp(m->name, word, len) != 0 || m->name[len] != ' ')
        return 0;
    int32_t n = 0;
    for (; i < sizeof m->name && m->name[i] >= '0' && m->name[i] <= '9' && n <= DG_LOCKS_MAX; i++)
        n = n * 10 + (m->name[i] - '0');
    return i < sizeof m->name && m->name[i] == '\0' && n >= 1 && n <= DG_LOCKS_MAX ? n : 0;
}


/* ---- the fast path: the same search over regions and locked doors --------
 *
 * The open cells (passable, not a locked or secret door) are cut into row
 * runs, and the runs that touch (4-way) into regions by a union-find; each
 * locked door cell is a node of its own (one with no lock marker never opens).
 * Entering a region reaches all its cells, so the waves, the keys picked up
 * and the cells reached are those of the cell search. `order` reads only the
 * lock numbers on the cell search's parent chains (from the exit, then from
 * the keys those locks need); the node graph gives them where every chain the
 * cell search could have built agrees (chain_locks), and where it cannot tell,
 * or the scratch is too small, the cell search above decides. */

enum { N_TOUCHED = 1, N_ENTERED = 2, N_DOOR = 4 };

typedef struct region_graph {
    const dg_grid *g;
    int32_t runs, cap;
    int32_t *row_first;        /* runs of row y: [row_first[y], row_first[y + 1]) */
    int32_t *x0, *x1;          /* a run's cells [x0, x1) */
    int32_t *root;             /* union-find, then each run's node (its root run) */
    int32_t *size;             /* cells of a node */
    uint32_t *bits;            /* keys in a node (low 16 bits), a door's locks (high 16) */
    uint8_t *state, *wave;     /* N_*; the wave a node was entered in */
    int32_t *queue;            /* the search's queue */
    uint32_t *known;           /* then (the same memory) chain_locks' sure answers */
    int32_t *adj_first, *adj;  /* a region's doors: adj[adj_first[v]..adj_first[v + 1]) */
    int32_t *doors, (*nb)[4];  /* door runs, and each door's neighbour nodes (-1: none) */
    int32_t door_count, tail, steps, picked, waves;
    int32_t held[DG_LOCKS_MAX + 1];     /* wave + 1 key N was picked up in, 0 if not held */
    int32_t key_node[DG_LOCKS_MAX + 1]; /* node of key N's copy of that wave, -1: none */
    uint32_t key_split;                 /* keys with copies in two nodes of that wave */
} region_graph;

/* count elements of size bytes off *at, int32 aligned; NULL when out of room. */
static void *carve(uint8_t **at, const uint8_t *end, size_t count, size_t size)
{
    size_t bytes = (count * size + 3u) & ~(size_t)3u;
    if ((size_t)(end - *at) < bytes)
        return NULL;
    void *p = *at;
    *at += bytes;
    return p;
}

static void uf_join(int32_t *root, int32_t a, int32_t b)
{
    a = dgi_uf_find(root, a);
    b = dgi_uf_find(root, b);
    if (a != b)
        root[a > b ? a : b] = a < b ? a : b;
}

/* Appends run [x0, x1) (a door when door); 0 when out of room. */
static int add_run(region_graph *s, int32_t x0, int32_t x1, int door)
{
    if (s->runs == s->cap)
        return 0;
    int32_t k = s->runs++;
    s->x0[k] = x0;
    s->x1[k] = x1;
    s->root[k] = k;
    s->state[k] = door ? N_DOOR : 0;
    return 1;
}

/* Joins the open runs from run `first` on (one row) to the open runs
 * prev..first - 1 of the row above that share a column with them. */
static void join_rows(region_graph *s, int32_t prev, int32_t first)
{
    int32_t p = prev;
    for (int32_t k = first; k < s->runs; k++)
    {
        if (s->state[k] & N_DOOR)
            continue;
        while (p < first && s->x1[p] <= s->x0[k])
            p++;
        for (int32_t q = p; q < first && s->x0[q] < s->x1[k]; q++)
            if (!(s->state[q] & N_DOOR))
            {
                if (s->root[k] == k) /* k is new: its root is q's, the smaller */
                    s->root[k] = dgi_uf_find(s->root, q);
                else
                    uf_join(s->root, q, k);
            }
    }
}

#define BYTES8(b) ((uint64_t)(b) * UINT64_C(0x0101010101010101))

/* Eight tiles from p, the first in the low byte on any machine. */
static uint64_t load8(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

/* The classes of eight tiles as two bytes of bits (bit i: tile i): open
 * into *open, locked doors into *door. When tiles 0..7 have the library's
 * classes (wide: 0 and 3 shut, the rest open), eight such tiles are read as
 * one word. */
static void class_byte(const uint8_t *at, const uint8_t cls[256], int wide, uint64_t *open,
                       uint64_t *door)
{
    uint64_t w = load8(at);
    if (wide && !(w & BYTES8(0xf8)))
    {
        uint64_t on = ((w >> 2) | ((w >> 1) ^ w)) & BYTES8(1); /* tile 4..7, or 1 or 2 */
        *open = (on * UINT64_C(0x0102040810204080)) >> 56;
        *door = 0;
        return;
    }
    *open = *door = 0;
    for (int i = 0; i < 8; i++)
    {
        *open |= (uint64_t)(cls[at[i]] == 1) << i;
        *door |= (uint64_t)(cls[at[i]] == 2) << i;
    }
}

/* Bit x % 64 of word x / 64: cell x of the row is open (open[]) or a locked
 * door (door[]); bits past the width are 0. */
static void row_bits(const uint8_t *row, int32_t width, const uint8_t cls[256], int wide,
                     uint64_t *open, uint64_t *door)
{
    for (int32_t k = 0, x = 0; x < width; k++)
    {
        int32_t stop = width - x < 64 ? width : x + 64;
        uint64_t o = 0, d = 0, ob, db;
        for (int i = 0; x + 8 <= stop; x += 8, i += 8)
        {
            class_byte(row + x, cls, wide, &ob, &db);
            o |= ob << i;
            d |= db << i;
        }
        for (int i = x % 64; x < stop; x++, i++)
        {
            o |= (uint64_t)(cls[row[x]] == 1) << i;
            d |= (uint64_t)(cls[row[x]] == 2) << i;
        }
        open[k] = o;
        door[k] = d;
    }
}

/* Appends the row's locked doors left of x as runs of one cell (doors[] is
 * the row's door bits, cleared as they go); 0 when out of room. */
static int add_doors_before(region_graph *s, uint64_t *doors, int32_t words, int32_t x,
                            int32_t *word)
{
    for (int32_t k = *word; k < words && k * 64 < x; *word = ++k)
        while (doors[k])
        {
            int32_t at = k * 64 + dgi_lowest_bit64(doors[k]);
            if (at >= x)
                return 1;
            doors[k] &= doors[k] - 1;
            if (!add_run(s, at, at + 1, 1))
                return 0;
        }
    return 1;
}

/* The row's runs, left to right, from its bits; 0 when out of room. */
static int add_row_runs(region_graph *s, uint64_t *open, uint64_t *door, int32_t width)
{
    int32_t words = (width + 63) / 64, start = -1, word = words; /* doors before word are out */
    for (int32_t k = 0; k < words && word == words; k++)
        word = door[k] ? k : words;
    for (int32_t k = 0; k < words; k++)
    {
        uint64_t m = open[k];
        for (;;)
        {
            uint64_t edge = start < 0 ? m : ~m; /* the next start, else the next end */
            if (!edge)
                break;
            int32_t at = dgi_lowest_bit64(edge);
            if (start < 0)
                start = k * 64 + at;
            else
            {
                if (!add_doors_before(s, door, words, start, &word) || !add_run(s, start, k * 64 + at, 0))
                    return 0;
                start = -1;
            }
            m = start < 0 ? m & (~UINT64_C(0) << at) : m | ~(~UINT64_C(0) << at);
        }
    }
    if (start >= 0 && (!add_doors_before(s, door, words, start, &word) || !add_run(s, start, width, 0)))
        return 0;
    return add_doors_before(s, door, words, width, &word);
}

/* Cuts every row into runs of open cells and single locked doors; 0 when the
 * scratch cannot hold them. cls[t]: 0 shut, 1 open, 2 locked door. bits has
 * room for two rows of bits. */
static int scan_runs(region_graph *s, const uint8_t cls[256], uint64_t *bits)
{
    const dg_grid *g = s->g;
    static const uint8_t usual[8] = {0, 1, 1, 0, 1, 1, 1, 1};
    int wide = memcmp(cls, usual, sizeof usual) == 0;
    uint64_t *door = bits + ((size_t)g->width + 63) / 64;
    for (int32_t y = 0; y < g->height; y++)
    {
        s->row_first[y] = s->runs;
        row_bits(g->cells + (size_t)y * (size_t)g->stride, g->width, cls, wide, bits, door);
        if (!add_row_runs(s, bits, door, g->width))
            return 0;
        if (y > 0)
            join_rows(s, s->row_first[y - 1], s->row_first[y]);
    }
    s->row_first[g->height] = s->runs;
    return 1;
}

/* The node of cell (x, y), or -1 for a shut cell or one off the grid. */
static int32_t node_at(const region_graph *s, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= s->g->width || y >= s->g->height)
        return -1;
    int32_t lo = s->row_first[y], hi = s->row_first[y + 1];
    if (lo == hi || s->x0[lo] > x)
        return -1;
    while (hi - lo > 1) /* the last run with x0 <= x */
    {
        int32_t mid = lo + (hi - lo) / 2;
        if (s->x0[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return x < s->x1[lo] ? s->root[lo] : -1;
}

/* A door's four neighbour nodes (-1: shut); y is its row. */
static void door_neighbours(region_graph *s, int32_t d, int32_t y)
{
    int32_t x = s->x0[s->doors[d]];
    s->nb[d][0] = node_at(s, x, y - 1);
    s->nb[d][1] = node_at(s, x + 1, y);
    s->nb[d][2] = node_at(s, x, y + 1);
    s->nb[d][3] = node_at(s, x - 1, y);
}

/* Each region's doors, adj[adj_first[v]..adj_first[v + 1]) (a door once per
 * side it touches the region on). */
static void list_region_doors(region_graph *s)
{
    memset(s->adj_first, 0, ((size_t)s->runs + 1) * sizeof *s->adj_first);
    for (int32_t d = 0; d < s->door_count; d++)
        for (int i = 0; i < 4; i++)
            if (s->nb[d][i] >= 0 && !(s->state[s->nb[d][i]] & N_DOOR))
                s->adj_first[s->nb[d][i] + 1]++;
    for (int32_t k = 0; k < s->runs; k++)
        s->adj_first[k + 1] += s->adj_first[k];
    int32_t total = s->adj_first[s->runs];
    for (int32_t d = 0; d < s->door_count; d++) /* adj_first[v + 1] counts down to v's start */
        for (int i = 0; i < 4; i++)
            if (s->nb[d][i] >= 0 && !(s->state[s->nb[d][i]] & N_DOOR))
                s->adj[--s->adj_first[s->nb[d][i] + 1]] = s->doors[d];
    for (int32_t k = 0; k < s->runs; k++)
        s->adj_first[k] = s->adj_first[k + 1];
    s->adj_first[s->runs] = total;
}

/* Settles nodes (each run to its root, sizes), lists the doors with their
 * neighbours and each region's doors; 0 when out of scratch. */
static int link_nodes(region_graph *s, uint8_t **at, const uint8_t *end)
{
    for (int32_t k = 0; k < s->runs; k++)
    {
        int32_t v = s->root[k] = dgi_uf_find(s->root, k);
        if (v == k)
            s->size[k] = 0;
        s->size[v] += s->x1[k] - s->x0[k];
        s->door_count += (s->state[k] & N_DOOR) != 0;
    }
    s->doors = carve(at, end, (size_t)s->door_count, sizeof *s->doors);
    s->nb = carve(at, end, (size_t)s->door_count, sizeof *s->nb);
    s->adj_first = carve(at, end, (size_t)s->runs + 1, sizeof *s->adj_first);
    s->adj = carve(at, end, (size_t)s->door_count * 4, sizeof *s->adj);
    if (!s->doors || !s->nb || !s->adj_first || !s->adj)
        return 0;
    int32_t d = 0;
    for (int32_t y = 0; y < s->g->height; y++)
        for (int32_t k = s->row_first[y]; k < s->row_first[y + 1]; k++)
            if (s->state[k] & N_DOOR)
            {
                s->doors[d] = k;
                door_neighbours(s, d++, y);
            }
    list_region_doors(s);
    return 1;
}

/* Keys onto their nodes, lock numbers onto their locked doors. */
static void lay_node_marks(region_graph *s, const dg_result *r)
{
    for (int32_t k = 0; k < s->runs; k++)
        s->bits[k] = 0;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        int lock = m->kind == DG_MARKER_LOCK;
        int32_t n = m->kind == DG_MARKER_KEY ? dgi_progress_number(m, "key")
                    : lock                   ? dgi_progress_number(m, "lock")
                                             : 0;
        int32_t v = n ? node_at(s, m->pos.x, m->pos.y) : -1;
        if (v >= 0 && (!lock || (s->state[v] & N_DOOR)))
            s->bits[v] |= 1u << (n - 1 + (lock ? 16 : 0));
    }
}

static void node_enter(region_graph *s, int32_t v)
{
    s->state[v] |= N_TOUCHED | N_ENTERED;
    s->wave[v] = (uint8_t)s->waves;
    s->queue[s->tail++] = v;
    s->steps += s->size[v];
}

/* 1 if door v has a lock and the keys of all its locks are in have. */
static int node_opens(const region_graph *s, int32_t v, uint32_t have)
{
    uint32_t locks = s->bits[v] >> 16;
    return locks != 0 && (locks & ~have) == 0;
}

static void node_touch(region_graph *s, int32_t v, uint32_t have)
{
    if (v < 0 || (s->state[v] & N_TOUCHED))
        return;
    s->state[v] |= N_TOUCHED;
    if (!(s->state[v] & N_DOOR) || node_opens(s, v, have))
        node_enter(s, v);
}

/* The door index of door run v. */
static int32_t door_index(const region_graph *s, int32_t v)
{
    int32_t lo = 0, hi = s->door_count;
    while (hi - lo > 1)
    {
        int32_t mid = lo + (hi - lo) / 2;
        if (s->doors[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The waves of solve.c over nodes: keys found in a wave open their doors
 * when it is done. */
static void node_flood(region_graph *s, int32_t start)
{
    uint32_t have = 0, taken = 0, found = 0;
    int32_t head = 0;
    node_enter(s, start);
    for (;;)
    {
        for (; head < s->tail; head++)
        {
            int32_t v = s->queue[head];
            uint32_t fresh = s->bits[v] & 0xffffu & ~taken;
            for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
                if (fresh >> (n - 1) & 1u)
                    s->held[n] = s->waves + 1, s->picked++;
            taken |= fresh;
            found |= fresh;
            if (s->state[v] & N_DOOR)
                for (int i = 0, d = door_index(s, v); i < 4; i++)
                    node_touch(s, s->nb[d][i], have);
            else
                for (int32_t i = s->adj_first[v]; i < s->adj_first[v + 1]; i++)
                    node_touch(s, s->adj[i], have);
        }
        if (!found)
            break;
        s->waves++;
        have = taken;
        found = 0;
        for (int32_t d = 0; d < s->door_count; d++)
        {
            int32_t v = s->doors[d];
            if ((s->state[v] & (N_TOUCHED | N_ENTERED)) == N_TOUCHED && node_opens(s, v, have))
                node_enter(s, v);
        }
    }
}

/* Where each held key's first copy lies: the one node of its wave holding
 * it (several: key_split). */
static void find_key_nodes(region_graph *s, const dg_result *r)
{
    for (int32_t n = 0; n <= DG_LOCKS_MAX; n++)
        s->key_node[n] = -1;
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        const dg_marker *m = &r->markers[i];
        int32_t n = m->kind == DG_MARKER_KEY ? dgi_progress_number(m, "key") : 0;
        int32_t v = n ? node_at(s, m->pos.x, m->pos.y) : -1;
        if (v < 0 || !(s->state[v] & N_ENTERED) || s->wave[v] + 1 != s->held[n])
            continue;
        if (s->key_node[n] >= 0 && s->key_node[n] != v)
            s->key_split |= 1u << (n - 1);
        s->key_node[n] = v;
    }
}

/* A node's chain locks: the lock numbers on the cell search's parent chains
 * from its cells to the start (all that `order` reads of a chain). A region's
 * chains leave it by the doors of its own wave beside it, a door's by its
 * neighbours of their earliest wave, less the regions only it let in (their
 * cells came after it); where these ways disagree, or a way leads back into a
 * node on the chain being read, the cell search decides (CHAIN_UNSURE). Work
 * is bounded by `budget` calls and the chain's depth. */
#define CHAIN_UNSURE UINT32_MAX
enum { N_VISIT = 8, N_KNOWN = 16, CHAIN_DEPTH = 256 };

static uint32_t chain_locks(region_graph *s, int32_t v, int32_t start, int32_t depth,
                            int32_t *budget);

/* The one value of chain_locks over the ways out (count of them), else CHAIN_UNSURE. */
/* NOLINTNEXTLINE(misc-no-recursion): with chain_locks, at most CHAIN_DEPTH deep */
static uint32_t agree(region_graph *s, const int32_t *way, int32_t count, int32_t start,
                      int32_t depth, int32_t *budget)
{
    uint32_t locks = CHAIN_UNSURE;
    for (int32_t i = 0; i < count; i++)
    {
        uint32_t l = chain_locks(s, way[i], start, depth + 1, budget);
        if (l == CHAIN_UNSURE || (locks != CHAIN_UNSURE && l != locks))
            return CHAIN_UNSURE;
        locks = l;
    }
    return locks;
}

/* The doors region v was entered by: the entered doors beside it of its wave. */
static int32_t region_ways(const region_graph *s, int32_t v, int32_t *way, int32_t room)
{
    int32_t count = 0;
    for (int32_t i = s->adj_first[v]; i < s->adj_first[v + 1]; i++)
    {
        int32_t u = s->adj[i];
        if (!(s->state[u] & N_ENTERED) || s->wave[u] != s->wave[v])
            continue;
        if (count == room)
            return -1;
        way[count++] = u;
    }
    return count;
}

/* 1 if door d (entered) is the only door region v was entered by. */
static int only_way_in(const region_graph *s, int32_t v, int32_t d, int32_t start)
{
    if (v == start || s->wave[d] != s->wave[v])
        return 0;
    for (int32_t i = s->adj_first[v]; i < s->adj_first[v + 1]; i++)
    {
        int32_t u = s->adj[i];
        if (u != d && (s->state[u] & N_ENTERED) && s->wave[u] == s->wave[v])
            return 0;
    }
    return 1;
}

/* The nodes door v may have been first touched from. */
static int32_t door_ways(const region_graph *s, int32_t v, int32_t start, int32_t *way)
{
    const int32_t *nb = s->nb[door_index(s, v)];
    int32_t first = 256, count = 0;
    for (int i = 0; i < 4; i++)
        if (nb[i] >= 0 && (s->state[nb[i]] & N_ENTERED) && s->wave[nb[i]] < first)
            first = s->wave[nb[i]];
    for (int i = 0; i < 4; i++)
    {
        int32_t u = nb[i];
        if (u >= 0 && (s->state[u] & N_ENTERED) && s->wave[u] == first &&
            ((s->state[u] & N_DOOR) || !only_way_in(s, u, v, start)))
            way[count++] = u;
    }
    return count;
}

/* NOLINTNEXTLINE(misc-no-recursion): with agree, at most CHAIN_DEPTH deep */
static uint32_t chain_locks(region_graph *s, int32_t v, int32_t start, int32_t depth,
                            int32_t *budget)
{
    if (v == start)
        return 0;
    if (s->state[v] & N_KNOWN) /* a sure answer holds whichever chain asks */
        return s->known[v];
    if ((s->state[v] & N_VISIT) || depth > CHAIN_DEPTH || --*budget < 0)
        return CHAIN_UNSURE;
    int32_t way[8];
    int door = (s->state[v] & N_DOOR) != 0;
    int32_t count = door ? door_ways(s, v, start, way) : region_ways(s, v, way, 8);
    if (count <= 0)
        return CHAIN_UNSURE;
    s->state[v] |= N_VISIT;
    uint32_t locks = agree(s, way, count, start, depth, budget);
    s->state[v] &= (uint8_t)~N_VISIT;
    if (locks == CHAIN_UNSURE)
        return locks;
    s->state[v] |= N_KNOWN;
    return s->known[v] = door ? locks | s->bits[v] >> 16 : locks;
}

/* The keys the exit needs (mark_needed over nodes) into need[]; 0 where a
 * chain is not sure. */
static int mark_needed_nodes(region_graph *s, int32_t exit, int32_t start, uint8_t need[])
{
    int32_t budget = 4 * s->runs + 64;
    uint32_t want = chain_locks(s, exit, start, 0, &budget), done = 0;
    while (want != CHAIN_UNSURE && (want & ~done))
    {
        int32_t n = 1;
        while (!((want & ~done) >> (n - 1) & 1u))
            n++;
        done |= 1u << (n - 1);
        need[n] = 1;
        if (s->key_split >> (n - 1) & 1u)
            return 0;
        uint32_t more = chain_locks(s, s->key_node[n], start, 0, &budget);
        want = more == CHAIN_UNSURE ? more : want | more;
    }
    return want != CHAIN_UNSURE;
}

int dgi_solve_regions(const dg_grid *g, const dg_result *r, void *block, size_t bytes,
                         dg_progress *p)
{
    region_graph s;
    memset(&s, 0, sizeof s);
    s.g = g;
    uint8_t *at = block, *end = at + bytes;
    size_t skip = (8 - (uintptr_t)at % 8) % 8; /* the bit rows are 8-byte words */
    if (skip > bytes)
        return 0;
    at += skip;
    uint64_t *bits = carve(&at, end, 2 * (((size_t)g->width + 63) / 64), sizeof *bits);
    size_t cap = bytes / 40; /* 30 bytes a run, 4 more for its doors, the rest for the doors */
    s.cap = (int32_t)(cap < INT32_MAX ? cap : INT32_MAX);
    s.row_first = carve(&at, end, (size_t)g->height + 1, sizeof *s.row_first);
    s.x0 = carve(&at, end, cap, sizeof *s.x0);
    s.x1 = carve(&at, end, cap, sizeof *s.x1);
    s.root = carve(&at, end, cap, sizeof *s.root);
    s.size = carve(&at, end, cap, sizeof *s.size);
    s.bits = carve(&at, end, cap, sizeof *s.bits);
    s.queue = carve(&at, end, cap, sizeof *s.queue);
    s.state = carve(&at, end, cap, 1);
    s.wave = carve(&at, end, cap, 1);
    uint8_t cls[256];
    for (int t = 0; t < 256; t++)
        cls[t] = t == DG_TILE_DOOR_LOCKED ? 2 : t != DG_TILE_DOOR_SECRET && dgi_passable_default[t];
    if (!bits || !s.row_first || !s.x0 || !s.x1 || !s.root || !s.size || !s.bits || !s.queue ||
        !s.state || !s.wave || !scan_runs(&s, cls, bits) || !link_nodes(&s, &at, end))
        return 0;
    lay_node_marks(&s, r);
    int32_t start = node_at(&s, r->start.x, r->start.y), exit = node_at(&s, r->exit.x, r->exit.y);
    node_flood(&s, start);
    find_key_nodes(&s, r);
    s.known = (uint32_t *)s.queue; /* the queue is done with */
    uint8_t need[DG_LOCKS_MAX + 1] = {0};
    int solvable = exit >= 0 && (s.state[exit] & N_ENTERED);
    if (solvable && !mark_needed_nodes(&s, exit, start, need))
        return 0;
    p->solvable = solvable;
    p->keys_reached = s.picked;
    p->steps = s.steps;
    p->order_count = 0;
    for (int32_t wave = 1; wave <= s.waves; wave++)
        for (int32_t n = 1; n <= DG_LOCKS_MAX; n++)
            if (need[n] && s.held[n] == wave)
                p->order[p->order_count++] = n;
    return 1;
}
