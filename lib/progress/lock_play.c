/* The chosen plan written into the map (tiles, markers, progress counts), and
 * the locked map played over the node graph by dg_solve's rules, so that
 * dg_lock_place reports what the solver would find. */
#include "progress/lock_state.h"

static dg_marker marker_at(const lock_placer *s, int32_t c, int32_t kind, const char *word,
                           int32_t n)
{
    dg_marker m;
    memset(&m, 0, sizeof m);
    m.pos = lock_grid_point(s, c);
    m.kind = kind;
    m.room = dgi_result_room_at(s->r, m.pos);
    size_t len = strlen(word); /* "word n" by hand: snprintf cost more than the rest */
    char digits[12];
    int32_t count = 0;
    for (uint32_t v = (uint32_t)n; count == 0 || v > 0; v /= 10) /* n is 1..DG_LOCKS_MAX */
        digits[count++] = (char)('0' + v % 10);
    memcpy(m.name, word, len);
    m.name[len] = ' ';
    while (count > 0)
        m.name[++len] = digits[--count];
    m.number = n;
    return m;
}

/* Writes tiles and markers; result has room for them already. */
void dgi_lock_commit(lock_placer *s, dg_result *r, dg_progress *pr)
{
    for (int32_t i = 0; i < s->placed; i++)
    {
        dg_marker key = marker_at(s, s->key_cell[i], DG_MARKER_KEY, "key", i + 1);
        dgi_result_add_marker(r, &key);
        for (int32_t j = 0; j < s->locked_count; j++)
            if (lock_number(s, s->locked[j]) == i + 1)
            {
                int32_t c = s->locked[j];
                dg_marker lock = marker_at(s, c, DG_MARKER_LOCK, "lock", i + 1);
                dgi_result_add_marker(r, &lock);
                dg_point p = lock_grid_point(s, c);
                DG_CELL(s->g, p.x, p.y) = DG_TILE_DOOR_LOCKED;
                s->tile[c] = DG_TILE_DOOR_LOCKED; /* the solver plays the framed copy */
                pr->locked_doors++;
            }
        pr->kinds[i] = i % s->p->kinds;
    }
    for (int32_t j = 0; j < s->secrets; j++)
    {
        dg_point q = lock_grid_point(s, s->secret[j]);
        DG_CELL(s->g, q.x, q.y) = DG_TILE_DOOR_SECRET;
        s->tile[s->secret[j]] = DG_TILE_DOOR_SECRET;
    }
    pr->secret_doors = s->secrets;
}

/* ---- playing the locked map -------------------------------------------- */

/* The locked map played over the node graph, by dg_solve's rules and in its
 * waves (solve.c), so it finds the same cells, keys and key order: a node is
 * whole (an area has no lock inside), so entering it reaches all its cells; a
 * locked gate touched without its key waits for it; a secret gate is wall.
 * lock_of[v] = lock number of a locked gate node; parent[] = the node a node
 * was first touched from. */
typedef struct node_play {
    int32_t *lock_of, *parent, *queue;
    uint8_t *state; /* 1 touched, 2 entered */
    int32_t tail, steps, picked, wave;
    int32_t held[DG_LOCKS_MAX + 1]; /* wave + 1 key N was picked up in, 0 if not held */
} node_play;

static void play_enter(const lock_placer *s, node_play *q, int32_t v)
{
    q->state[v] = 3;
    q->queue[q->tail++] = v;
    q->steps += s->size[v];
}

static void play_touch(const lock_placer *s, node_play *q, int32_t from, int32_t v)
{
    if (q->state[v] || s->tile[s->cell_of[v]] == DG_TILE_DOOR_SECRET)
        return;
    q->state[v] = 1;
    q->parent[v] = from;
    int32_t n = q->lock_of[v];
    if (n == 0 || (q->held[n] && q->held[n] <= q->wave)) /* held before this wave */
        play_enter(s, q, v);
}

/* Picks up the keys lying in node v. */
static void play_pick_up(const lock_placer *s, node_play *q, int32_t v)
{
    for (int32_t i = 0; i < s->placed; i++)
        if (s->node[s->key_cell[i]] == v && !q->held[i + 1])
        {
            q->held[i + 1] = q->wave + 1;
            q->picked++;
        }
}

/* Opens the waiting doors of the keys picked up in the wave just done;
 * returns 0 when that wave found no key. */
static int play_next_wave(const lock_placer *s, node_play *q)
{
    int found = 0;
    for (int32_t n = 1; n <= s->placed; n++)
        found |= q->held[n] == q->wave + 1;
    if (!found)
        return 0;
    q->wave++;
    for (int32_t j = 0; j < s->locked_count; j++)
    {
        int32_t u = s->node[s->locked[j]], n = q->lock_of[u];
        if (q->held[n] == q->wave && q->state[u] == 1)
            play_enter(s, q, u);
    }
    return 1;
}

/* The keys the way to the exit needs, in pickup order, as dg_solve lists them. */
static void play_order(const lock_placer *s, const node_play *q, dg_progress *pr)
{
    uint8_t need[DG_LOCKS_MAX + 1] = {0};
    int32_t stack[DG_LOCKS_MAX + 1], top = 0;
    stack[top++] = s->node[s->exit];
    while (top > 0)
        for (int32_t v = stack[--top];; v = q->parent[v])
        {
            int32_t n = q->lock_of[v];
            if (n > 0 && !need[n])
            {
                need[n] = 1;
                stack[top++] = s->node[s->key_cell[n - 1]];
            }
            if (q->parent[v] == v)
                break;
        }
    pr->order_count = 0;
    for (int32_t wave = 1; wave <= q->wave; wave++)
        for (int32_t n = 1; n <= s->placed; n++)
            if (need[n] && q->held[n] == wave)
                pr->order[pr->order_count++] = n;
}

/* Fills the solver's part of pr for the committed map (scratch: depth, disc,
 * parent, queue, iter are free by now). */
void dgi_lock_play_nodes(lock_placer *s, dg_progress *pr)
{
    node_play q;
    memset(&q, 0, sizeof q);
    q.lock_of = s->depth;
    q.parent = s->parent;
    q.queue = s->queue;
    q.state = (uint8_t *)s->iter;
    memset(q.state, 0, (size_t)s->nodes);
    int32_t number[DG_LOCKS_MAX * 8] = {0}; /* read before lock_of overwrites the depths */
    for (int32_t j = 0; j < s->locked_count; j++)
        number[j] = lock_number(s, s->locked[j]);
    for (int32_t v = 0; v < s->nodes; v++)
        q.lock_of[v] = 0;
    for (int32_t j = 0; j < s->locked_count; j++)
        q.lock_of[s->node[s->locked[j]]] = number[j];
    int32_t root = s->node[s->start];
    q.state[root] = 1;
    q.parent[root] = root;
    play_enter(s, &q, root);
    int32_t head = 0;
    do
        for (; head < q.tail; head++)
        {
            int32_t v = q.queue[head];
            play_pick_up(s, &q, v);
            for (int32_t i = s->link_first[v]; i < s->link_first[v + 1]; i++)
                play_touch(s, &q, v, s->link[i]);
        }
    while (play_next_wave(s, &q));
    pr->solvable = q.state[s->node[s->exit]] == 3;
    pr->keys_reached = q.picked;
    pr->steps = q.steps;
    pr->order_count = 0;
    if (pr->solvable)
        play_order(s, &q, pr);
}
