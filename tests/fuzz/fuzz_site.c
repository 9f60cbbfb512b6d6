/* Fuzz target: dg_recipe_generate_site with locks and secrets around reserved
 * cells. The input is a generator (attach, chain, cave, bsp, maze, walk,
 * scatter, world), a size (16..63 x 16..47), a seed, an allocation to refuse,
 * the lock words (locks, keys, kinds, gates, secrets), up to three reserved
 * rectangles filled with arbitrary tiles (doors, locked and secret doors,
 * caller tiles), and up to three anchors anywhere (on, beside or far from the
 * reserved cells). Whatever the bytes: a documented status; on error the grid
 * (and its canaries) untouched; on success the reserved cells byte-identical,
 * no open cell touching one (even diagonally), no marker on one, every anchor
 * open with the first as the start, a solvable map when locks were asked, and
 * the same bytes from a second run. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_site: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static const char *const gens[] = {"attach", "chain", "cave", "bsp", "maze", "walk", "scatter", "world"};
static const uint8_t vault_tiles[8] = {DG_TILE_WALL,        DG_TILE_FLOOR,       DG_TILE_DOOR,
                                       DG_TILE_DOOR_LOCKED, DG_TILE_DOOR_SECRET, DG_TILE_CORRIDOR,
                                       DG_TILE_USER,        DG_TILE_WALL};

typedef struct site_case {
    int32_t w, h, pad;
    uint64_t seed;
    int64_t fail_at;
    dg_recipe rc;
    dg_site site;
    uint8_t *mask, *tiles;
} site_case;

typedef struct site_outcome {
    dg_status st;
    uint64_t grid_hash, result_hash;
} site_outcome;

static int near_reserved(const site_case *c, int32_t x, int32_t y)
{
    for (int32_t yy = y - 1; yy <= y + 1; yy++)
        for (int32_t xx = x - 1; xx <= x + 1; xx++)
            if (xx >= 0 && yy >= 0 && xx < c->w && yy < c->h && c->mask[yy * c->w + xx])
                return 1;
    return 0;
}

static void check_success(const site_case *c, const dg_grid *g, const dg_result *r, int locks)
{
    for (int32_t y = 0; y < c->h; y++)
        for (int32_t x = 0; x < c->w; x++)
        {
            uint8_t t = dg_grid_get(g, x, y);
            if (c->mask[y * c->w + x] && t != c->tiles[y * c->w + x])
                fail("a reserved cell changed", NULL);
            if (!c->mask[y * c->w + x] && dg_tile_passable(t) && near_reserved(c, x, y))
                fail("an open cell touches a reserved cell", NULL);
        }
    for (int32_t i = 0; i < r->marker_count; i++)
    {
        dg_point p = r->markers[i].pos;
        if (p.x < 0 || p.y < 0 || p.x >= c->w || p.y >= c->h || c->mask[p.y * c->w + p.x])
            fail("a marker off the grid or on a reserved cell", r->markers[i].name);
    }
    for (int32_t k = 0; k < c->site.anchor_count; k++)
        if (!dg_tile_passable(dg_grid_get(g, c->site.anchors[k].x, c->site.anchors[k].y)))
            fail("an anchor is not open", NULL);
    if (c->site.anchor_count &&
        (r->start.x != c->site.anchors[0].x || r->start.y != c->site.anchors[0].y))
        fail("the first anchor is not the start", NULL);
    if (locks)
    {
        dg_progress pr;
        if (dg_solve(g, r, &pr, NULL, NULL) != DG_OK || !pr.solvable)
            fail("a site with locks is not solvable", NULL);
    }
}

static site_outcome run_case(const site_case *c, int32_t pad, int locks)
{
    guarded_grid gg;
    if (!guard_make(&gg, c->w, c->h, pad))
        fail("out of memory in the harness", NULL);
    for (int32_t y = 0; y < c->h; y++)
        for (int32_t x = 0; x < c->w; x++)
            dg_grid_set(&gg.grid, x, y, c->tiles[y * c->w + x]);
    uint64_t before = dg_grid_hash(&gg.grid);
    hard_alloc ha;
    hard_alloc_init(&ha, c->fail_at);
    dg_result r;
    dg_result_init(&r, &ha.hooks);
    dg_diag d;
    memset(&d, 0, sizeof d);
    site_outcome o;
    o.st = dg_recipe_generate_site(&c->rc, &c->site, &gg.grid, NULL, &r, &ha.hooks, &d);
    if (!hard_status_known(o.st))
        fail("undocumented status", d.message);
    if (!guard_intact(&gg))
        fail("wrote outside the grid", NULL);
    if (o.st != DG_OK && dg_grid_hash(&gg.grid) != before)
        fail("changed the grid on error", d.message);
    if (o.st != DG_OK && strstr(d.message, "locked already"))
        fail("a reserved locked door counted as locked already", d.message);
    if (o.st == DG_E_NOMEM && ha.failed == 0)
        fail("DG_E_NOMEM without a failed allocation", NULL);
    if (o.st == DG_OK)
        check_success(c, &gg.grid, &r, locks);
    o.grid_hash = dg_grid_hash(&gg.grid);
    o.result_hash = o.st == DG_OK ? hard_result_hash(&r) : 0;
    dg_result_free(&r);
    if (!hard_alloc_clean(&ha))
        fail("leaked or mismatched free", NULL);
    guard_free(&gg);
    return o;
}

static void set_word(dg_recipe *rc, const char *key, int32_t value)
{
    char text[16];
    snprintf(text, sizeof text, "%d", (int)value);
    if (dg_recipe_set(rc, key, text, NULL) != DG_OK)
        fail("harness: a recipe word was refused", key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hard_input in = {data, size, 0};
    site_case c;
    memset(&c, 0, sizeof c);
    const char *gen = gens[hard_u8(&in) % 8];
    c.w = 16 + hard_u8(&in) % 48;
    c.h = 16 + hard_u8(&in) % 32;
    c.pad = hard_u8(&in) % 8;
    c.seed = hard_u64(&in);
    uint8_t f = hard_u8(&in);
    c.fail_at = f >= 232 ? 1 + (f - 232) % 12 : 0;
    dg_recipe_init(&c.rc, gen, c.seed, c.w, c.h);
    int32_t locks = hard_u8(&in) % 7;
    set_word(&c.rc, "locks", locks);
    static const char *const keys[3] = {"on-path", "branch", "dead-end"};
    if (dg_recipe_set(&c.rc, "keys", keys[hard_u8(&in) % 3], NULL) != DG_OK)
        fail("harness: keys refused", NULL);
    set_word(&c.rc, "kinds", 1 + hard_u8(&in) % 8);
    set_word(&c.rc, "gates", 1 + hard_u8(&in) % 8);
    uint8_t s = hard_u8(&in);
    set_word(&c.rc, "secrets", s >= 128 ? 1000 : s * 7);
    size_t n = (size_t)c.w * (size_t)c.h;
    c.mask = calloc(n, 1);
    c.tiles = malloc(n);
    if (!c.mask || !c.tiles)
        fail("harness: out of memory", NULL);
    uint8_t fill = hard_u8(&in);
    memset(c.tiles, fill >= 200 ? fill : DG_TILE_VOID, n);
    for (int rects = hard_u8(&in) % 4; rects > 0; rects--)
    {
        int32_t rx = hard_u8(&in) % c.w, ry = hard_u8(&in) % c.h;
        int32_t rw = 1 + hard_u8(&in) % 14, rh = 1 + hard_u8(&in) % 10;
        uint8_t style = hard_u8(&in);
        for (int32_t y = ry; y < ry + rh && y < c.h; y++)
            for (int32_t x = rx; x < rx + rw && x < c.w; x++)
            {
                int edge = x == rx || y == ry || x == rx + rw - 1 || y == ry + rh - 1;
                c.mask[y * c.w + x] = 1;
                c.tiles[y * c.w + x] = style % 4 ? (edge ? DG_TILE_WALL : DG_TILE_FLOOR)
                                                 : vault_tiles[(x * 7 + y * 3 + style) % 8];
            }
        int32_t mx = rx + rw / 2 < c.w ? rx + rw / 2 : c.w - 1;
        int32_t by = ry + rh - 1 < c.h ? ry + rh - 1 : c.h - 1;
        if (style % 4 == 1 && rw >= 3 && rh >= 3) /* doors in its walls, one locked */
        {
            c.tiles[ry * c.w + mx] = DG_TILE_DOOR;
            c.tiles[by * c.w + mx] = DG_TILE_DOOR_LOCKED;
        }
    }
    c.site.reserved = c.mask;
    c.site.anchor_count = hard_u8(&in) % 4;
    for (int32_t k = 0; k < c.site.anchor_count; k++)
    {
        int32_t x = hard_u8(&in) % c.w, y = hard_u8(&in) % c.h;
        c.site.anchors[k] = (dg_point){x, y};
    }
    site_outcome a = run_case(&c, c.pad, locks > 0), b = run_case(&c, (c.pad + 3) % 8, locks > 0);
    if (c.fail_at == 0 && (a.st != b.st || a.grid_hash != b.grid_hash || a.result_hash != b.result_hash))
        fail("not deterministic (same input, other stride)", NULL);
    free(c.mask);
    free(c.tiles);
    return 0;
}
