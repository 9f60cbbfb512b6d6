/* Room shapes (lib/gen/shape.c): every kind at every size it accepts keeps
 * the middle row and column, is 4-connected, counts its cells, agrees with
 * its row spans, and walks in Manhattan distance where it says it does. */
#include "test.h"
#include "gen/gen.h"

#include <string.h>

enum { SIDE_MAX = 16 };

/* Walking distances from (sx, sy) inside the shape; -1 where unreachable. */
static void shape_bfs(const dgi_shape *s, int32_t sx, int32_t sy, int32_t *dist)
{
    int32_t queue[SIDE_MAX * SIDE_MAX], head = 0, tail = 0;
    static const int32_t dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    for (int32_t i = 0; i < s->w * s->h; i++)
        dist[i] = -1;
    dist[sy * s->w + sx] = 0;
    queue[tail++] = sy * s->w + sx;
    while (head < tail)
    {
        int32_t c = queue[head++], x = c % s->w, y = c / s->w;
        for (int d = 0; d < 4; d++)
        {
            int32_t nx = x + dx[d], ny = y + dy[d];
            if (!dgi_shape_has(s, nx, ny) || dist[ny * s->w + nx] >= 0)
                continue;
            dist[ny * s->w + nx] = dist[c] + 1;
            queue[tail++] = ny * s->w + nx;
        }
    }
}

static int32_t iabs(int32_t v) { return v < 0 ? -v : v; }

/* Checks one drawn shape; returns the number of broken promises. */
static int shape_broken(const dgi_shape *s)
{
    int32_t dist[SIDE_MAX * SIDE_MAX], cells = 0, bad = 0;
    for (int32_t y = 0; y < s->h; y++)
    {
        int32_t lo, hi;
        dgi_shape_row(s, y, &lo, &hi);
        bad += !(0 <= lo && lo < hi && hi <= s->w);
        for (int32_t x = 0; x < s->w; x++)
        {
            int has = dgi_shape_has(s, x, y);
            cells += has;
            bad += has && (x < lo || x >= hi);
            bad += s->kind != DG_SHAPE_PILLARS && has != (x >= lo && x < hi);
        }
        bad += !dgi_shape_has(s, s->w / 2, y);
    }
    for (int32_t x = 0; x < s->w; x++)
        bad += !dgi_shape_has(s, x, s->h / 2);
    bad += cells != dgi_shape_cells(s);
    bad += dgi_shape_has(s, -1, 0) + dgi_shape_has(s, 0, s->h);
    for (int32_t sy = 0; sy < s->h; sy++)
        for (int32_t sx = 0; sx < s->w; sx++)
        {
            if (!dgi_shape_has(s, sx, sy))
                continue;
            shape_bfs(s, sx, sy, dist);
            for (int32_t i = 0; i < s->w * s->h; i++)
            {
                int32_t x = i % s->w, y = i / s->w;
                if (!dgi_shape_has(s, x, y))
                    continue;
                bad += dist[i] < 0;
                bad += dgi_shape_manhattan(s) && dist[i] != iabs(x - sx) + iabs(y - sy);
            }
            if (sx + sy > 0 && s->w * s->h > 64)
                return bad; /* connectivity from one cell is enough for the big ones */
        }
    return bad;
}

TEST(shape_every_kind_keeps_its_promises)
{
    dg_rng rng;
    dgi_rng_seed(&rng, 2026, 7);
    int32_t drawn[DGI_SHAPE_KINDS] = {0};
    for (int32_t kind = DG_SHAPE_RECT; kind < DGI_SHAPE_KINDS; kind++)
        for (int32_t h = 1; h <= SIDE_MAX; h++)
            for (int32_t w = 1; w <= SIDE_MAX; w++)
                for (int rep = 0; rep < 3; rep++)
                {
                    dgi_shape s;
                    dgi_shape_pick(&s, w, h, 1u << kind, 1000, &rng);
                    int fits = kind == DG_SHAPE_RECT || dgi_shape_fits(kind, w, h);
                    CHECK(s.kind == (fits ? kind : DG_SHAPE_RECT));
                    CHECKF(shape_broken(&s) == 0, "kind %d %dx%d", (int)s.kind, (int)w, (int)h);
                    drawn[s.kind]++;
                }
    for (int32_t kind = DG_SHAPE_RECT; kind < DGI_SHAPE_KINDS; kind++)
        CHECK(drawn[kind] > 0);
}

TEST(shape_share_and_shapes_look_different)
{
    dg_rng rng;
    dgi_rng_seed(&rng, 1, 2);
    int32_t shaped = 0;
    for (int i = 0; i < 1000; i++)
    {
        dgi_shape s;
        dgi_shape_pick(&s, 12, 9, ~0u, 300, &rng);
        shaped += s.kind != DG_SHAPE_RECT;
        CHECK(s.kind == DG_SHAPE_RECT || dgi_shape_cells(&s) < 12 * 9);
    }
    CHECK(shaped > 240 && shaped < 360); /* 300 permille, drawn */
    dgi_shape none;
    dgi_shape_pick(&none, 12, 9, ~0u, 0, &rng);
    CHECK(none.kind == DG_SHAPE_RECT && dgi_shape_cells(&none) == 108);
}
