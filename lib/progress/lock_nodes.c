/* The node graph of dg_lock_place (lock.c): the open cells cut into nodes
 * (each gate cell one, each connected stretch of the other cells one), their
 * links, the core of the ways from the start to the exit and the depth of
 * every node; and the bounded walk near a cell that the depths and the cuts
 * both take. */
#include "progress/lock_state.h"

/* Secret doors count as wall until found; locked doors do not occur here. */
static int open_at(const lock_placer *s, int32_t c)
{
    uint8_t t = s->tile[c];
    return dgi_passable_default[t] && t != DG_TILE_DOOR_SECRET;
}

/* Open, inside the border, and open on both sides along `along`. */
static int crossable(const lock_placer *s, int32_t c, int32_t along)
{
    return open_at(s, c) && open_at(s, c - along) && open_at(s, c + along) && !lock_on_ring(s, c);
}

/* A passage at most two cells wide crossing c along `along` (its width runs
 * along `across`): every open cell of the run is crossable and walls end it. */
static int passage(const lock_placer *s, int32_t c, int32_t along, int32_t across)
{
    if (!crossable(s, c, along))
        return 0;
    int32_t lo = c, hi = c;
    if (open_at(s, c - across))
        lo = c - across;
    else if (open_at(s, c + across))
        hi = c + across;
    if (lo != c && !crossable(s, lo, along))
        return 0;
    if (hi != c && !crossable(s, hi, along))
        return 0;
    return !open_at(s, lo - across) && !open_at(s, hi + across);
}

/* A pinch: c's open 4-neighbours fall apart without c (two 4-neighbours
 * side by side join through the cell between them), as on a bend of a
 * one-wide passage or a staircase tunnel, where no straight passage is. */
static int pinch_at(const lock_placer *s, int32_t c)
{
    const int32_t side[4] = {-s->pw, 1, s->pw, -1};
    int open[4], parts = 0;
    for (int k = 0; k < 4; k++)
        open[k] = open_at(s, c + side[k]);
    for (int k = 0; k < 4; k++) /* a part starts where the one before does not join it */
    {
        int before = (k + 3) & 3;
        parts += open[k] && !(open[before] && open_at(s, c + side[k] + side[before]));
    }
    return parts >= 2; /* a ring joined all round counts 0 starts: one part */
}

/* A cell a door fits in: a passage one or two cells wide, or a pinch. */
static int narrow_at(const lock_placer *s, int32_t c)
{
    return passage(s, c, s->pw, 1) || passage(s, c, 1, s->pw) ||
           (!lock_on_ring(s, c) && pinch_at(s, c));
}

/* LOCK_F_OPEN on the open cells, LOCK_F_GATE besides on a door (or, narrow set, a
 * narrow passage too) other than the start, the exit and a site's anchors
 * (no lock or secret door lands on one). */
void dgi_lock_mark_cells(lock_placer *s, int narrow)
{
    uint8_t mark[256];
    for (int t = 0; t < 256; t++)
        mark[t] = dgi_passable_default[t] && t != DG_TILE_DOOR_SECRET ? LOCK_F_OPEN : 0;
    mark[DG_TILE_DOOR] |= LOCK_F_GATE;
    uint8_t *flag = s->flag; /* locals: a byte store could alias the struct */
    const uint8_t *tile = s->tile;
    for (int32_t c = 0, n = s->n; c < n; c++)
        flag[c] = mark[tile[c]];
    for (int32_t c = 0; c < s->n && narrow; c++)
        if (s->flag[c] == LOCK_F_OPEN && narrow_at(s, c))
            s->flag[c] |= LOCK_F_GATE;
    s->flag[s->start] &= (uint8_t)~LOCK_F_GATE;
    s->flag[s->exit] &= (uint8_t)~LOCK_F_GATE;
    for (int32_t i = 0; s->site && i < s->site->anchor_count; i++)
    {
        dg_point a = s->site->anchors[i];
        s->flag[(a.y + 1) * s->pw + a.x + 1] &= (uint8_t)~LOCK_F_GATE;
    }
    for (int32_t j = 0; j < s->locked_count && s->cut_mode; j++)
        s->flag[s->locked[j]] |= LOCK_F_GATE | LOCK_F_LOCK;
}

void dgi_lock_mark_rooms(lock_placer *s)
{
    for (int32_t i = 0; i < s->r->room_count; i++)
    {
        dg_rect q = s->r->rooms[i].rect;
        int64_t x0 = DG_MAX(q.x, 0), y0 = DG_MAX(q.y, 0);
        int64_t x1 = DG_MIN((int64_t)q.x + q.w, s->w), y1 = DG_MIN((int64_t)q.y + q.h, s->h);
        for (int64_t y = y0; y < y1; y++)
        {
            uint8_t *row = s->flag + (y + 1) * s->pw + 1;
            for (int64_t x = x0; x < x1; x++)
                row[x] |= LOCK_F_ROOM;
        }
    }
}

/* The runs of the rows, in cell order: each gate cell is a run of its own,
 * each stretch of area cells in a row one run, cells first[r] to end[r] - 1;
 * up[] is a union-find over the runs whose root is a set's first run. */
typedef struct runs {
    int32_t *first, *end, *up;
    int32_t count;
} runs;

static int32_t run_root(int32_t *up, int32_t r)
{
    while (up[r] != r)
        r = up[r] = up[up[r]];
    return r;
}

static void run_join(int32_t *up, int32_t a, int32_t b)
{
    a = run_root(up, a);
    b = run_root(up, b);
    up[DG_MAX(a, b)] = DG_MIN(a, b);
}

/* Lists the runs of the row starting at cell `row`; an area run joins the
 * area runs of the row above (runs above..above_end) that touch it. */
static void row_runs(const lock_placer *s, runs *rs, int32_t row, int32_t above, int32_t above_end)
{
    const uint8_t *flag = s->flag;
    for (int32_t c = row + 1, end = row + 1 + s->w, j = above; c < end; c++)
    {
        if (!(flag[c] & LOCK_F_OPEN))
            continue;
        int32_t r = rs->count++, first = c;
        rs->up[r] = r;
        rs->first[r] = c;
        if (!(flag[c] & LOCK_F_GATE))
            /* the frame ends a run */
            while ((flag[c + 1] & (LOCK_F_OPEN | LOCK_F_GATE)) == LOCK_F_OPEN)
                c++;
        rs->end[r] = c + 1;
        if (flag[first] & LOCK_F_GATE)
            continue;
        while (j < above_end && rs->end[j] + s->pw <= first)
            j++;
        for (int32_t k = j; k < above_end && rs->first[k] + s->pw <= c; k++)
            if (!(flag[rs->first[k]] & LOCK_F_GATE))
                run_join(rs->up, r, k);
    }
}

/* Numbers the nodes: one per gate cell, one per connected stretch of the
 * rest, in the order of their first cell row by row (a set's first run). */
void dgi_lock_label_nodes(lock_placer *s, int narrow)
{
    dgi_lock_mark_cells(s, narrow);
    runs rs = {s->run_first, s->run_end, s->aux, 0};
    for (int32_t y = 1, above = 0; y <= s->h; y++)
    {
        int32_t here = rs.count;
        row_runs(s, &rs, y * s->pw, above, here);
        above = here;
    }
    int32_t *node_of_run = s->run_node;
    s->runs = rs.count;
    s->nodes = 0;
    int32_t *node = s->node, filled = 0; /* runs come in cell order: fill the gaps as we go */
    for (int32_t r = 0; r < rs.count; r++)
    {
        while (filled < rs.first[r])
            node[filled++] = -1; /* closed */
        filled = rs.end[r];
        int32_t root = run_root(rs.up, r), v = root == r ? s->nodes++ : node_of_run[root];
        if (root == r)
        {
            s->cell_of[v] = rs.first[r];
            s->size[v] = 0;
        }
        node_of_run[r] = v;
        for (int32_t c = rs.first[r]; c < rs.end[r]; c++)
            node[c] = v;
        s->size[v] += rs.end[r] - rs.first[r];
    }
    while (filled < s->n)
        node[filled++] = -1;
}

/* The node graph. Two areas never touch (they would be one), so every edge
 * has a gate at one end and the gates' four neighbours give them all: a gate
 * lists its neighbours, an area the gates beside it (in gate order). */
void dgi_lock_link_nodes(lock_placer *s)
{
    int32_t *count = s->link_first, *fill = s->iter;
    memset(count, 0, ((size_t)s->nodes + 1) * sizeof *count);
    for (int32_t v = 0; v < s->nodes; v++)
        for (int k = 0, gate = lock_gate_node(s, v); k < 4 && gate; k++)
        {
            int32_t u = s->node[lock_step(s, s->cell_of[v], k)];
            if (u < 0)
                continue;
            count[v + 1]++;
            count[u + 1] += !lock_gate_node(s, u);
        }
    for (int32_t v = 0; v < s->nodes; v++)
        count[v + 1] += count[v];
    for (int32_t v = 0; v < s->nodes; v++)
        fill[v] = s->link_first[v];
    for (int32_t v = 0; v < s->nodes; v++)
        for (int k = 0, gate = lock_gate_node(s, v); k < 4 && gate; k++)
        {
            int32_t u = s->node[lock_step(s, s->cell_of[v], k)];
            if (u < 0)
                continue;
            s->link[fill[v]++] = u;
            if (!lock_gate_node(s, u))
                s->link[fill[u]++] = v;
        }
}

/* Depth-first search over nodes from the start's node (iterative): disc,
 * low and the tree parent of each node; pre lists the nodes in visit order. */
static int32_t search_blocks(lock_placer *s, int32_t *pre)
{
    int32_t *stack = s->aux, top = 0, time = 0, root = s->node[s->start];
    for (int32_t i = 0; i < s->nodes; i++)
        s->disc[i] = -1;
    s->disc[root] = s->low[root] = time;
    pre[time++] = root;
    s->parent[root] = -1;
    s->iter[root] = s->link_first[root];
    stack[top++] = root;
    while (top > 0)
    {
        int32_t v = stack[top - 1];
        if (s->iter[v] < s->link_first[v + 1])
        {
            int32_t u = s->link[s->iter[v]++];
            if (u == s->parent[v])
                continue;
            if (s->disc[u] >= 0)
            {
                s->low[v] = DG_MIN(s->low[v], s->disc[u]);
                continue;
            }
            s->parent[u] = v;
            s->disc[u] = s->low[u] = time;
            pre[time++] = u;
            s->iter[u] = s->link_first[u];
            stack[top++] = u;
            continue;
        }
        top--;
        if (s->parent[v] >= 0)
            s->low[s->parent[v]] = DG_MIN(s->low[s->parent[v]], s->low[v]);
    }
    return time;
}

/* core[v] = 1 for the nodes that lie on some way from the start to the exit:
 * the tree path, and the nodes sharing a block with it. What hangs off the
 * core at one node can never offer another way around a lock. */
void dgi_lock_find_core(lock_placer *s, uint8_t *core)
{
    int32_t *pre = s->queue, seen = search_blocks(s, pre), root = s->node[s->start];
    for (int32_t i = 0; i < s->nodes; i++)
        core[i] = 0;
    if (s->disc[s->node[s->exit]] < 0)
        return; /* the exit is out of reach: no way, no core */
    for (int32_t v = s->node[s->exit], child = -1; v >= 0; child = v, v = s->parent[v])
    {
        core[v] = 2; /* the tree path */
        int gate = s->flag[s->cell_of[v]] & LOCK_F_GATE;
        if (gate && child >= 0 && v != root && s->low[child] >= s->disc[v])
            core[v] = 3; /* a gate every way from the start to the exit crosses */
    }
    for (int32_t k = 1; k < seen; k++)
    {
        int32_t u = pre[k], p = s->parent[u];
        if (!core[u])
            core[u] = (uint8_t)(core[p] && p != root && s->low[u] < s->disc[p]);
    }
}

/* Depths over the core from the start's node; every other node takes the
 * depth of the core node it hangs from. */
void dgi_lock_depth_nodes(lock_placer *s)
{
    const uint8_t *core = s->core;
    for (int32_t i = 0; i < s->nodes; i++)
        s->depth[i] = -1;
    int32_t from = s->node[s->start];
    s->max_depth = 0;
    if (s->disc[s->node[s->exit]] < 0)
        return; /* the exit is out of reach: plan() stops */
    for (int pass = 0; pass < 2; pass++)
    {
        int32_t head = 0, tail = 0;
        if (pass == 0)
        {
            s->depth[from] = 0;
            s->queue[tail++] = from;
        }
        else
            for (int32_t i = 0; i < s->nodes; i++)
                if (s->depth[i] >= 0)
                    s->queue[tail++] = i;
        while (head < tail)
        {
            int32_t x = s->queue[head++], d = s->depth[x];
            if (pass == 0)
                s->max_depth = d;
            for (int32_t i = s->link_first[x]; i < s->link_first[x + 1]; i++)
            {
                int32_t y = s->link[i];
                if (s->depth[y] < 0 && (pass == 1 || core[y]))
                {
                    s->depth[y] = pass == 0 ? d + 1 : d;
                    s->queue[tail++] = y;
                }
            }
        }
    }
}

/* The node graph of plan(), its core and depths: built once per kind of
 * gate and kept across plans (only the marks of the last plan are taken off;
 * the plans write neither core nor depth). */
void dgi_lock_build_nodes(lock_placer *s, int narrow)
{
    if (s->labelled == narrow)
    {
        for (int32_t c = 0, n = s->n; c < n; c++)
            s->flag[c] &= LOCK_F_OPEN | LOCK_F_GATE | LOCK_F_ROOM;
        return;
    }
    dgi_lock_label_nodes(s, narrow);
    dgi_lock_mark_rooms(s);
    dgi_lock_link_nodes(s);
    dgi_lock_find_core(s, s->core);
    dgi_lock_depth_nodes(s);
    s->labelled = narrow;
}

/* The open cells fewer than LOCK_KEY_CLEAR steps from cell `from` (itself first)
 * into q[]; returns how many. */
int32_t dgi_lock_walk_near(lock_placer *s, int32_t from, int32_t q[LOCK_NEAR_CELLS])
{
    const int32_t off[4] = LOCK_STEP_OFFSETS(s);
    int32_t steps[LOCK_NEAR_CELLS], tail = 0;
    s->flag[from] |= LOCK_F_NEAR;
    q[tail] = from, steps[tail++] = 0;
    for (int32_t head = 0; head < tail && steps[head] + 1 < LOCK_KEY_CLEAR; head++)
        for (int k = 0; k < 4; k++) /* steps only grow along the queue */
        {
            int32_t u = q[head] + off[k];
            if ((s->flag[u] & (LOCK_F_OPEN | LOCK_F_NEAR)) != LOCK_F_OPEN)
                continue;
            s->flag[u] |= LOCK_F_NEAR;
            q[tail] = u, steps[tail++] = steps[head] + 1;
        }
    for (int32_t i = 0; i < tail; i++)
        s->flag[q[i]] &= (uint8_t)~LOCK_F_NEAR;
    return tail;
}
