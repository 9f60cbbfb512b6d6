/* site_check: reserved cells kept, open cells never touching them, the map
 * still whole, the result clear of them, anchors joined, the same bytes twice. */
#include "site_check.h"

#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLER_TILE 0x77 /* what the caller drew in its reserved cells */

static void block(uint8_t *m, int32_t w, int32_t h, int32_t x0, int32_t y0, int32_t bw, int32_t bh)
{
    for (int32_t y = y0; y < y0 + bh; y++)
        for (int32_t x = x0; x < x0 + bw; x++)
            if (x >= 0 && y >= 0 && x < w && y < h)
                m[y * w + x] = 1;
}

void site_mask(uint8_t *m, int32_t w, int32_t h, int kind)
{
    memset(m, 0, (size_t)w * (size_t)h);
    switch (kind)
    {
    case 0: block(m, w, h, w * 2 / 5, h * 2 / 5, w / 5, h / 5); break;          /* centre */
    case 1: block(m, w, h, w / 3, 0, w / 4, h / 4); break;                      /* on the top edge */
    case 2:                                                                      /* corner L */
        block(m, w, h, w - w / 4, h - h / 3, w / 4, h / 3);
        block(m, w, h, w - w / 2, h - h / 8, w / 4, h / 8);
        break;
    case 3:                                                                      /* blobs */
        for (int i = 0; i < 6; i++)
            block(m, w, h, (i * 37 + 5) % (w - 4), (i * 23 + 3) % (h - 4), 3, 3);
        break;
    case 4:                                                                      /* a ring: walled-in area */
        block(m, w, h, w / 6, h / 6, w / 5, 1);
        block(m, w, h, w / 6, h / 6 + h / 4, w / 5, 1);
        block(m, w, h, w / 6, h / 6, 1, h / 4);
        block(m, w, h, w / 6 + w / 5 - 1, h / 6, 1, h / 4 + 1);
        break;
    default: block(m, w, h, w / 2, h / 5, 1, h * 3 / 5); break;                 /* a thin bar */
    }
}

typedef struct run {
    uint8_t *cells;
    dg_grid g;
    dg_result r;
    dg_status st;
    dg_diag d;
} run;

static void run_once(run *u, const site_case *c, const dg_prefab_set *set, const dg_site *site,
                     uint64_t seed)
{
    int32_t w = c->width, h = c->height;
    u->cells = malloc((size_t)w * (size_t)h);
    for (int32_t i = 0; i < w * h; i++)
        u->cells[i] = site->reserved && site->reserved[i] ? CALLER_TILE : (uint8_t)(i % 3);
    dg_grid_init(&u->g, u->cells, w, h, 0);
    dg_result_init(&u->r, NULL);
    dg_recipe rc;
    dg_recipe_init(&rc, c->generator, seed, w, h);
    if (c->params)
    {
        char text[512];
        snprintf(text, sizeof text, "%s seed=%llu width=%d height=%d %s", c->generator,
                 (unsigned long long)seed, (int)w, (int)h, c->params);
        u->st = dg_recipe_parse(text, strlen(text), &rc, &u->d);
        if (u->st != DG_OK) /* a misspelt word fails the case instead of running the defaults */
            return;
    }
    if (set)
        dg_recipe_set_prefabs(&rc, set, NULL, NULL);
    u->st = dg_recipe_generate_site(&rc, site, &u->g, set, &u->r, NULL, &u->d);
}

static void run_free(run *u)
{
    dg_result_free(&u->r);
    free(u->cells);
}

static int near_reserved(const uint8_t *m, int32_t w, int32_t h, int32_t x, int32_t y)
{
    for (int32_t yy = y - 1; yy <= y + 1; yy++)
        for (int32_t xx = x - 1; xx <= x + 1; xx++)
            if (xx >= 0 && yy >= 0 && xx < w && yy < h && m[yy * w + xx])
                return 1;
    return 0;
}

static int rect_clear(const uint8_t *m, int32_t w, dg_rect q)
{
    for (int32_t y = q.y; y < q.y + q.h; y++)
        for (int32_t x = q.x; x < q.x + q.w; x++)
            if (m[y * w + x])
                return 0;
    return 1;
}

typedef struct site_walk {
    const run *u;
    const uint8_t *reserved;
} site_walk;

static int open_step(const void *user, int32_t from, int32_t to, int dir)
{
    const site_walk *k = user;
    (void)from, (void)dir;
    return !k->reserved[to] && dg_tile_passable(k->u->cells[to]);
}

/* Open cells outside the reserved ones reached from the start (4-way). */
static int32_t reached(const run *u, const uint8_t *m, int32_t *open_out)
{
    int32_t w = u->g.width, h = u->g.height, n = w * h, open = 0, count = 0;
    for (int32_t i = 0; i < n; i++)
        open += !m[i] && dg_tile_passable(u->cells[i]);
    site_walk k = {u, m};
    free(bfs_lattice(w, h, u->r.start.y * w + u->r.start.x, open_step, &k, &count));
    *open_out = open;
    return count;
}

/* Every promise of one successful run; returns a reason or NULL. */
static const char *broken(const run *u, const site_case *c, const dg_site *site)
{
    const uint8_t *m = site->reserved;
    int32_t w = c->width, h = c->height;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
        {
            int32_t i = y * w + x;
            if (m[i] && u->cells[i] != CALLER_TILE)
                return "a reserved cell was written";
            if (!m[i] && dg_tile_passable(u->cells[i]) && near_reserved(m, w, h, x, y))
                return "an open cell touches a reserved cell";
        }
    const dg_result *r = &u->r;
    if (r->start.x < 0 || m[r->start.y * w + r->start.x] || !dg_tile_passable(u->cells[r->start.y * w + r->start.x]))
        return "the start is not an open cell outside the reserved ones";
    for (int32_t i = 0; i < r->room_count; i++)
        if (r->rooms[i].kind != DG_ROOM_CAVE && !rect_clear(m, w, r->rooms[i].rect))
            return "a room overlaps reserved cells";
    for (int32_t i = 0; i < r->door_count; i++)
        if (m[r->doors[i].pos.y * w + r->doors[i].pos.x])
            return "a door lies on a reserved cell";
    for (int32_t i = 0; i < r->marker_count; i++)
        if (m[r->markers[i].pos.y * w + r->markers[i].pos.x])
            return "a marker lies on a reserved cell";
    int32_t open, got = reached(u, m, &open);
    if (c->connected && got != open)
        return "open cells cut off from the start";
    for (int32_t k = 0; k < site->anchor_count; k++)
    {
        dg_point p = site->anchors[k];
        if (!dg_tile_passable(u->cells[p.y * w + p.x]))
            return "an anchor is not open";
    }
    if (site->anchor_count && (r->start.x != site->anchors[0].x || r->start.y != site->anchors[0].y))
        return "the first anchor is not the start";
    /* walled in (the reserved cells are the caller's; border=0 opens the edge) */
    int open_edge = c->params && strstr(c->params, "border=0");
    if (!open_edge && grid_open_to_void(&u->g, m))
        return "an open cell on the grid's edge or beside void";
    return NULL;
}

/* outside[i] = 1 for the cells joined to the grid's edge through unreserved
 * cells (4-way): a pocket walled in by reserved cells (mask 4's ring) can
 * never be joined to a start outside it. */
static void mark_outside(uint8_t *outside, const uint8_t *m, int32_t w, int32_t h)
{
    int32_t *queue = malloc((size_t)w * (size_t)h * sizeof *queue), tail = 0;
    memset(outside, 0, (size_t)w * (size_t)h);
    for (int32_t i = 0; i < w * h; i++)
    {
        int32_t x = i % w, y = i / w;
        if (!m[i] && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
        {
            outside[i] = 1;
            queue[tail++] = i;
        }
    }
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int32_t head = 0; head < tail; head++)
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = queue[head] % w + dx[d], ny = queue[head] / w + dy[d], n = ny * w + nx;
            if (nx >= 0 && ny >= 0 && nx < w && ny < h && !m[n] && !outside[n])
            {
                outside[n] = 1;
                queue[tail++] = n;
            }
        }
    free(queue);
}

/* Two anchors off the reserved cells and their ring, outside any walled-in
 * pocket, from the seed. */
static void pick_anchors(dg_site *site, const uint8_t *m, const uint8_t *outside, int32_t w,
                         int32_t h, uint64_t seed)
{
    dg_rng rng;
    dg_rng_seed(&rng, seed, 0xA2C);
    site->anchor_count = 0;
    for (int t = 0; t < 1000 && site->anchor_count < 2; t++)
    {
        int32_t x = dg_rng_range(&rng, 2, w - 3), y = dg_rng_range(&rng, 2, h - 3);
        if (!near_reserved(m, w, h, x, y) && outside[y * w + x] &&
            (x < w / 2) == (site->anchor_count == 0))
            site->anchors[site->anchor_count++] = (dg_point){x, y};
    }
}

int site_check(const site_case *c, int seeds)
{
    int32_t w = c->width, h = c->height;
    dg_prefab_set *set = NULL;
    if (c->prefabs && dg_prefab_load(c->prefabs, NULL, NULL, NULL, &set, NULL) != DG_OK)
    {
        CHECKF(0, "%s: cannot load %s", c->generator, c->prefabs);
        return 1;
    }
    uint8_t *mask = malloc((size_t)w * (size_t)h), *outside = malloc((size_t)w * (size_t)h);
    int failed = 0;
    for (int kind = 0; kind < SITE_MASKS; kind++)
    {
        site_mask(mask, w, h, kind);
        mark_outside(outside, mask, w, h);
        for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++)
        {
            dg_site site;
            dg_site_init(&site);
            site.reserved = mask;
            if (seed % 4 == 0)
                pick_anchors(&site, mask, outside, w, h, seed);
            run a, b;
            run_once(&a, c, set, &site, seed);
            run_once(&b, c, set, &site, seed);
            const char *why = a.st != DG_OK ? a.d.message : broken(&a, c, &site);
            if (!why && memcmp(a.cells, b.cells, (size_t)w * (size_t)h) != 0)
                why = "two runs differ";
            CHECKF(!why, "%s seed %llu mask %d: %s", c->generator, (unsigned long long)seed, kind,
                   why);
            failed += why != NULL;
            run_free(&a);
            run_free(&b);
            if (failed > 5)
                break;
        }
    }
    free(mask);
    free(outside);
    dg_prefab_set_free(set);
    return failed;
}
