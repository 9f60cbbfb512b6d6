/* The candidate edges of scattered rooms (scatter_state.h): each room's k
 * nearest rooms, found through a bucket grid over the room centres (a plain
 * scan for few rooms), each pair once, sorted shortest first, and the index
 * of each edge in listing order. */
#include "gen/scatter_state.h"

/* ---- candidate edges: the k nearest rooms through a bucket grid --------------------- */

void dgi_scatter_set_centres(scatter_ctx *s)
{
    for (int32_t i = 0; i < s->n; i++)
    {
        s->cx[i] = 2 * s->rooms[i].rect.x + s->rooms[i].rect.w;
        s->cy[i] = 2 * s->rooms[i].rect.y + s->rooms[i].rect.h;
    }
}

/* Inserts j into the sorted best list of i (by distance, then index). */
static inline void offer(const scatter_ctx *s, int32_t i, int32_t j, int32_t *best, int64_t *bd,
                         int32_t k, int32_t *count)
{
    int64_t d = dgi_scatter_dist2(s, i, j);
    int32_t c = *count;
    if (k <= 0)
        return;
    if (c == k && (d > bd[k - 1] || (d == bd[k - 1] && j > best[k - 1])))
        return;
    int32_t pos = c < k ? c : k - 1;
    while (pos > 0 && (bd[pos - 1] > d || (bd[pos - 1] == d && best[pos - 1] > j)))
    {
        best[pos] = best[pos - 1];
        bd[pos] = bd[pos - 1];
        pos--;
    }
    best[pos] = j;
    bd[pos] = d;
    if (c < k)
        *count = c + 1;
}

static void centre_bucket(const scatter_ctx *s, int32_t i, int32_t *bx, int32_t *by)
{
    *bx = s->cx[i] / (2 * s->bs);
    *by = s->cy[i] / (2 * s->bs);
}

/* The bucket grid: squares holding about two room centres each. The rooms
 * are renumbered bucket by bucket (row-major, placement order within a
 * bucket), so a bucket's rooms are one run head[b]..head[b + 1] - 1 and rooms
 * near each other are near in memory. */
dg_status dgi_scatter_build_buckets(scatter_ctx *s)
{
    int64_t per = (int64_t)s->w * s->h * 2 / DG_MAX(s->n, 1);
    int32_t side = 4;
    while ((int64_t)(side + 1) * (side + 1) <= per && side < 32768)
        side++;
    s->bs = side;
    s->bw = (s->w + side - 1) / side;
    s->bh = (s->h + side - 1) / side;
    size_t buckets = (size_t)s->bw * (size_t)s->bh;
    s->head = dgi_calloc(s->a, buckets + 1, sizeof *s->head);
    if (!s->head)
        return DG_E_NOMEM;
    s->bw_alloc = (int32_t)(buckets + 1);
    dg_room *old = (dg_room *)(void *)s->edges; /* the edge lists are free until built */
    memcpy(old, s->rooms, (size_t)s->n * sizeof *old);
    for (int32_t i = 0; i < s->n; i++)
    {
        int32_t bx, by;
        centre_bucket(s, i, &bx, &by);
        s->next[i] = by * s->bw + bx;
        s->head[s->next[i] + 1]++;
    }
    for (size_t b = 0; b < buckets; b++)
        s->head[b + 1] += s->head[b];
    for (int32_t i = 0; i < s->n; i++)
        s->rooms[s->head[s->next[i]]++] = old[i];
    for (size_t b = buckets; b > 0; b--) /* the fill moved each start to the next one's */
        s->head[b] = s->head[b - 1];
    s->head[0] = 0;
    dgi_scatter_set_centres(s);
    return DG_OK;
}

/* The k nearest rooms of room i into best (exact: rings of buckets grow until
 * no farther bucket can hold a nearer room). */
static int32_t nearest(const scatter_ctx *s, int32_t i, int32_t k, int32_t *best, int64_t *bd)
{
    int32_t count = 0;
    if (s->n <= SCATTER_BRUTE_ROOMS)
    {
        for (int32_t j = 0; j < s->n; j++)
            if (j != i)
                offer(s, i, j, best, bd, k, &count);
        return count;
    }
    int32_t cx, cy;
    centre_bucket(s, i, &cx, &cy);
    int32_t rings = DG_MAX(s->bw, s->bh);
    for (int32_t r = 0; r <= rings; r++)
    {
        for (int32_t by = cy - r; by <= cy + r; by++)
        {
            if (by < 0 || by >= s->bh)
                continue;
            int edge_row = by == cy - r || by == cy + r;
            for (int32_t bx = cx - r; bx <= cx + r; bx += edge_row ? 1 : 2 * r)
            {
                if (bx >= 0 && bx < s->bw)
                    for (int32_t j = s->head[by * s->bw + bx]; j < s->head[by * s->bw + bx + 1]; j++)
                        if (j != i)
                            offer(s, i, j, best, bd, k, &count);
                if (r == 0)
                    break;
            }
        }
        int64_t reach = 2 * (int64_t)s->bs * r + 1; /* nearest a centre beyond ring r can be */
        if (k > 0 && count == k && bd[k - 1] < reach * reach)
            break;
    }
    return count;
}

/* How edge keys are packed: a and b in rbits bits each under the distance
 * when the three fit in 64 bits (then keys are unique and one compare
 * orders them), else the distance alone with a and b as tie-breaks. */
static void set_key_bits(scatter_ctx *s)
{
    int64_t dx = 2 * (int64_t)s->w, dy = 2 * (int64_t)s->h;
    uint64_t dmax = (uint64_t)(dx * dx + dy * dy);
    int32_t rbits = 1, dbits = 1;
    while (rbits < 32 && ((int64_t)1 << rbits) < s->n)
        rbits++;
    while (dbits < 64 && (dmax >> dbits) != 0)
        dbits++;
    s->rbits = rbits;
    s->dshift = dbits + 2 * rbits <= 64 ? 2 * rbits : 0;
}

static uint64_t edge_key(const scatter_ctx *s, int64_t d, int32_t a, int32_t b)
{
    if (s->dshift == 0)
        return (uint64_t)d;
    return (uint64_t)d << s->dshift | (uint64_t)a << s->rbits | (uint64_t)b;
}

static int edge_before(const scatter_edge *x, const scatter_edge *y)
{
    if (x->key != y->key)
        return x->key < y->key;
    if (x->a != y->a)
        return x->a < y->a;
    return x->b < y->b;
}

/* Sorts e[0..n) by (distance, a, b): insertion sort on short runs, then
 * bottom-up merges through tmp (keys are unique, so the order is fixed). */
static void sort_edges(scatter_edge *e, scatter_edge *tmp, int32_t n)
{
    enum { RUN = 16 };
    for (int32_t lo = 0; lo < n; lo += RUN)
        for (int32_t i = lo + 1; i < DG_MIN(lo + RUN, n); i++)
        {
            scatter_edge x = e[i];
            int32_t j = i;
            for (; j > lo && edge_before(&x, &e[j - 1]); j--)
                e[j] = e[j - 1];
            e[j] = x;
        }
    scatter_edge *src = e, *dst = tmp;
    for (int32_t width = RUN; width < n; width *= 2)
    {
        for (int32_t lo = 0; lo < n; lo += 2 * width)
        {
            int32_t mid = DG_MIN(lo + width, n), hi = DG_MIN(lo + 2 * width, n), i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
            {
                int take_j = edge_before(&src[j], &src[i]); /* a select: the order is random */
                dst[k++] = *(take_j ? &src[j] : &src[i]);
                j += take_j;
                i += 1 - take_j;
            }
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        scatter_edge *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, (size_t)n * sizeof *e);
}

static int lists(const scatter_ctx *s, int32_t i, int32_t j)
{
    const int32_t *list = &s->knn[(size_t)i * (size_t)s->ks];
    for (int32_t t = 0; t < s->k && list[t] >= 0; t++)
        if (list[t] == j)
            return 1;
    return 0;
}

/* Sorts packed keys (unique: a and b are in them) with an LSD radix sort,
 * a byte a pass, through tmp; bytes every key shares are skipped. */
static void radix_sort_keys(scatter_edge *e, scatter_edge *tmp, int32_t n)
{
    static const int BYTES = 8;
    int32_t count[8][256];
    memset(count, 0, sizeof count);
    for (int32_t i = 0; i < n; i++)
        for (int d = 0; d < BYTES; d++)
            count[d][(e[i].key >> (8 * d)) & 255]++;
    scatter_edge *src = e, *dst = tmp;
    for (int d = 0; d < BYTES; d++)
    {
        if (count[d][(e[0].key >> (8 * d)) & 255] == n)
            continue; /* one value: the pass would not move anything */
        int32_t sum = 0;
        for (int v = 0; v < 256; v++)
        {
            int32_t c = count[d][v];
            count[d][v] = sum;
            sum += c;
        }
        for (int32_t i = 0; i < n; i++)
            dst[count[d][(src[i].key >> (8 * d)) & 255]++] = src[i];
        scatter_edge *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, (size_t)n * sizeof *e);
}

/* 1 if room i lists its candidate j as an edge: each pair once, from the
 * lower room when both list each other. */
static int lists_edge(const scatter_ctx *s, int32_t i, int32_t j)
{
    return j > i || !lists(s, j, i);
}

/* The sorted index of edge (a, b) (present; keys are the distance alone). */
static int32_t find_edge(const scatter_ctx *s, int32_t a, int32_t b)
{
    scatter_edge x = {(uint64_t)dgi_scatter_dist2(s, a, b), a, b};
    int32_t lo = 0, hi = s->ne;
    while (hi - lo > 1)
    {
        int32_t mid = lo + (hi - lo) / 2;
        if (edge_before(&x, &s->edges[mid]))
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

/* order[] from the sorted edges: when keys hold a and b, a carried the
 * listing index through the sort; else the listing is walked again. */
static void set_order(scatter_ctx *s)
{
    if (s->dshift != 0)
    {
        uint64_t mask = ((uint64_t)1 << s->rbits) - 1;
        for (int32_t i = 0; i < s->ne; i++)
        {
            scatter_edge *e = &s->edges[i];
            s->order[e->a] = i;
            e->a = (int32_t)((e->key >> s->rbits) & mask);
            e->b = (int32_t)(e->key & mask);
        }
        return;
    }
    int32_t at = 0;
    for (int32_t i = 0; i < s->n; i++)
    {
        const int32_t *list = &s->knn[(size_t)i * (size_t)s->ks];
        for (int32_t t = 0; t < s->k && list[t] >= 0; t++)
            if (lists_edge(s, i, list[t]))
                s->order[at++] = find_edge(s, DG_MIN(i, list[t]), DG_MAX(i, list[t]));
    }
}

/* Sorts the listed edges through a buffer of their own (freed at once: the
 * corridors are not yet made on the first pass). */
static dg_status sort_listed(scatter_ctx *s)
{
    enum { RADIX_MIN = 256 }; /* below it the merge sort is as quick */
    size_t bytes = (size_t)DG_MAX(s->ne, 1) * sizeof(scatter_edge);
    scatter_edge *tmp = dgi_alloc(s->a, bytes);
    if (!tmp)
        return DG_E_NOMEM;
    if (s->dshift != 0 && s->ne >= RADIX_MIN)
        radix_sort_keys(s->edges, tmp, s->ne);
    else
        sort_edges(s->edges, tmp, s->ne);
    dgi_free(s->a, tmp, bytes);
    return DG_OK;
}

/* Candidate edges: every room with its k nearest, each pair once (from the
 * lower room when both list each other), shortest first. */
dg_status dgi_scatter_build_edges(scatter_ctx *s, int32_t k)
{
    int32_t best[SCATTER_RETRY_K];
    int64_t bd[SCATTER_RETRY_K];
    s->k = k;
    s->ne = 0;
    set_key_bits(s);
    for (int32_t i = 0; i < s->n; i++)
    {
        int32_t c = nearest(s, i, k, best, bd), *list = &s->knn[(size_t)i * (size_t)s->ks];
        for (int32_t t = 0; t < k; t++)
            list[t] = t < c ? best[t] : -1;
        for (int32_t t = 0; t < c; t++)
        {
            int32_t j = best[t], a = DG_MIN(i, j), b = DG_MAX(i, j);
            if (!lists_edge(s, i, j))
                continue; /* listed from j already (its list is complete) */
            scatter_edge e = {edge_key(s, bd[t], a, b), s->dshift ? s->ne : a, b};
            s->edges[s->ne++] = e;
        }
    }
    dg_status st = sort_listed(s);
    if (st != DG_OK)
        return st;
    set_order(s);
    memset(s->tree, 0, (size_t)s->ne);
    return DG_OK;
}
