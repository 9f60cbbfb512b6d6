/* Orientations: the group algebra (on real stamped grids), merging of
 * identical orientations, door sides and edge signatures per orientation,
 * and uniform choice among the distinct ones (chi-square). */
#include "test.h"
#include "prefab/prefab.h"

#include <stdlib.h>
#include <string.h>

/* Parses one prefab named p drawn as `rows` (each glyph a distinct user tile
 * when `distinct` is set) with an optional header line. */
static dg_prefab_set *one(const char *header, const char *rows, int distinct)
{
    char text[2048];
    size_t k = (size_t)snprintf(text, sizeof text, "prefabs 1\n");
    if (distinct)
    {
        k += (size_t)snprintf(text + k, sizeof text - k, "legend\n");
        for (char c = 'a'; c <= 'z'; c++)
            k += (size_t)snprintf(text + k, sizeof text - k, "  %c ground tile %d\n", c, 100 + c - 'a');
        k += (size_t)snprintf(text + k, sizeof text - k, "end\n");
    }
    snprintf(text + k, sizeof text - k, "prefab p\n%s\nmap\n%send\n", header ? header : "", rows);
    dg_prefab_set *set = NULL;
    dg_diag d;
    dg_status st = dg_prefab_parse(text, strlen(text), "o.pf", NULL, NULL, NULL, &set, &d);
    CHECKF(st == DG_OK, "%s", d.message);
    return set;
}

static void oriented_size(int32_t w, int32_t h, int32_t o, int32_t *ow, int32_t *oh)
{
    int swap = o == DG_ORIENT_ROT90 || o == DG_ORIENT_ROT270 || o == DG_ORIENT_TRANSPOSE ||
               o == DG_ORIENT_ANTI;
    *ow = swap ? h : w;
    *oh = swap ? w : h;
}

/* Stamps prefab 0 of set in o into cells (w x h after orientation). */
static void stamp(const dg_prefab_set *set, int32_t o, uint8_t *cells, int32_t *w, int32_t *h)
{
    dg_prefab_info in;
    dg_prefab_get_info(set, 0, &in);
    oriented_size(in.width, in.height, o, w, h);
    dg_grid g;
    dg_grid_init(&g, cells, *w, *h, 0);
    dg_grid_fill(&g, 0);
    CHECK(dg_prefab_stamp(set, 0, o, 1, &g, 0, 0, NULL, NULL) == DG_OK);
}

/* Rows text of a stamped grid of user tiles 100.. ('a'..). */
static void rows_of(const uint8_t *cells, int32_t w, int32_t h, char *out)
{
    for (int32_t y = 0; y < h; y++)
    {
        for (int32_t x = 0; x < w; x++)
            *out++ = (char)('a' + cells[y * w + x] - 100);
        *out++ = '\n';
    }
    *out = '\0';
}

TEST(prefab_orient_compose_is_the_d4_group)
{
    for (int32_t a = 0; a < 8; a++)
    {
        CHECK(dg_orient_compose(a, DG_ORIENT_IDENTITY) == a);
        CHECK(dg_orient_compose(DG_ORIENT_IDENTITY, a) == a);
        CHECK(dg_orient_compose(a, dg_orient_inverse(a)) == DG_ORIENT_IDENTITY);
        for (int32_t b = 0; b < 8; b++)
            for (int32_t c = 0; c < 8; c++) /* associative */
                CHECK(dg_orient_compose(dg_orient_compose(a, b), c) ==
                      dg_orient_compose(a, dg_orient_compose(b, c)));
    }
    int32_t r = DG_ORIENT_IDENTITY;
    for (int i = 1; i <= 4; i++)
    {
        r = dg_orient_compose(r, DG_ORIENT_ROT90);
        CHECK(r == (i == 4 ? DG_ORIENT_IDENTITY : i));
    }
    for (int32_t m = DG_ORIENT_MIRROR_X; m <= DG_ORIENT_ANTI; m++)
        CHECK(dg_orient_compose(m, m) == DG_ORIENT_IDENTITY);
    CHECK(dg_orient_compose(DG_ORIENT_MIRROR_X, DG_ORIENT_MIRROR_Y) == DG_ORIENT_ROT180);
    CHECK(dg_orient_compose(DG_ORIENT_TRANSPOSE, DG_ORIENT_ANTI) == DG_ORIENT_ROT180);
    CHECK(dg_orient_compose(8, 0) == -1 && dg_orient_compose(0, -1) == -1 && dg_orient_inverse(9) == -1);
}

TEST(prefab_orient_stamps_compose_like_the_group)
{
    /* An asymmetric 4x3 of distinct cells: stamping in a, reading the result
     * back as a prefab and stamping that in b equals stamping in a then b. */
    static const char rows[] = "abcd\nefgh\nijkl\n";
    dg_prefab_set *src = one(NULL, rows, 1);
    if (!src)
        return;
    for (int32_t a = 0; a < 8; a++)
    {
        uint8_t first[12], second[12], direct[12];
        int32_t w, h, w2, h2, w3, h3;
        char text[64];
        stamp(src, a, first, &w, &h);
        rows_of(first, w, h, text);
        dg_prefab_set *mid = one(NULL, text, 1);
        if (!mid)
            break;
        for (int32_t b = 0; b < 8; b++)
        {
            stamp(mid, b, second, &w2, &h2);
            stamp(src, dg_orient_compose(a, b), direct, &w3, &h3);
            CHECKF(w2 == w3 && h2 == h3 && memcmp(second, direct, 12) == 0, "a=%d b=%d", (int)a, (int)b);
        }
        dg_prefab_set_free(mid);
        /* every cell lands where dg_orient_point says */
        for (int32_t y = 0; y < 3; y++)
            for (int32_t x = 0; x < 4; x++)
            {
                dg_point q = dg_orient_point(a, 4, 3, (dg_point){x, y});
                CHECK(first[q.y * w + q.x] == 100 + y * 4 + x);
            }
    }
    /* four quarter turns, and two of each mirror, give the original back */
    uint8_t cells[12];
    int32_t w, h;
    char text[64];
    strcpy(text, rows);
    for (int i = 0; i < 4; i++)
    {
        dg_prefab_set *s = one(NULL, text, 1);
        stamp(s, DG_ORIENT_ROT90, cells, &w, &h);
        rows_of(cells, w, h, text);
        dg_prefab_set_free(s);
    }
    CHECK(strcmp(text, rows) == 0);
    for (int32_t m = DG_ORIENT_MIRROR_X; m <= DG_ORIENT_ANTI; m++)
    {
        strcpy(text, rows);
        for (int i = 0; i < 2; i++)
        {
            dg_prefab_set *s = one(NULL, text, 1);
            stamp(s, m, cells, &w, &h);
            rows_of(cells, w, h, text);
            dg_prefab_set_free(s);
        }
        CHECK(strcmp(text, rows) == 0);
    }
    dg_prefab_set_free(src);
}

/* Distinct orientation bits of a one-prefab set, and a check that exactly
 * that many different grids come out of the 8 stamps. */
static int32_t distinct_of(const char *header, const char *rows)
{
    dg_prefab_set *set = one(header, rows, 0);
    if (!set)
        return -1;
    dg_prefab_info in;
    dg_prefab_get_info(set, 0, &in);
    uint8_t images[8][64];
    int32_t sizes[8][2], n = 0;
    for (int32_t o = 0; o < 8; o++)
    {
        if (!(in.orientations & (1 << o)))
            continue;
        uint8_t cells[64];
        int32_t w, h, dup = 0;
        stamp(set, o, cells, &w, &h);
        for (int32_t k = 0; k < n && !dup; k++)
            dup = sizes[k][0] == w && sizes[k][1] == h && memcmp(images[k], cells, (size_t)(w * h)) == 0;
        CHECKF(dup == !(in.distinct & (1 << o)), "orientation %d merged=%d, image duplicate=%d",
               (int)o, !(in.distinct & (1 << o)), dup);
        if (!dup)
        {
            memcpy(images[n], cells, (size_t)(w * h));
            sizes[n][0] = w;
            sizes[n][1] = h;
            n++;
        }
    }
    dg_prefab_set_free(set);
    return in.distinct;
}

static int popcount8(int32_t m)
{
    int n = 0;
    for (int i = 0; i < 8; i++)
        n += (m >> i) & 1;
    return n;
}

TEST(prefab_orient_merges_symmetric_shapes)
{
    CHECK(distinct_of(NULL, "#.#\n...\n#.#\n") == 0x01);              /* all 8 the same */
    CHECK(distinct_of(NULL, "#.#\n#.#\n") == 0x03);                   /* r0, r90 */
    CHECK(popcount8(distinct_of(NULL, "###\n#.#\n...\n")) == 4);       /* one mirror axis */
    CHECK(distinct_of(NULL, ".#..\n...#\n#...\n..#.\n") == 0x11);      /* pinwheel: r0, h */
    CHECK(distinct_of(NULL, "##.\n...\n...\n") == 0xFF);               /* no symmetry */
    CHECK(popcount8(distinct_of(NULL, "##.\n#..\n...\n")) == 4);       /* a diagonal axis */
    CHECK(popcount8(distinct_of(NULL, "#..\n...\n..#\n")) == 2);       /* both diagonals */
    CHECK(distinct_of("  orient rot", "##.\n...\n...\n") == 0x0F);
    CHECK(distinct_of("  orient flip", "#.#\n#.#\n") == 0x01);
    CHECK(distinct_of("  orient h v", "##.\n...\n") == 0x30);
    CHECK(distinct_of("  orient none", "##.\n...\n") == 0x01);
}

/* Door sides of a stamped grid (door tiles on its border). */
static int32_t grid_sides(const uint8_t *c, int32_t w, int32_t h)
{
    int32_t s = 0;
    for (int32_t x = 0; x < w; x++)
    {
        s |= c[x] == DG_TILE_DOOR ? DG_SIDE_N : 0;
        s |= c[(h - 1) * w + x] == DG_TILE_DOOR ? DG_SIDE_S : 0;
    }
    for (int32_t y = 0; y < h; y++)
    {
        s |= c[y * w] == DG_TILE_DOOR ? DG_SIDE_W : 0;
        s |= c[y * w + w - 1] == DG_TILE_DOOR ? DG_SIDE_E : 0;
    }
    return s;
}

TEST(prefab_orient_door_sides_and_edges_move_with_the_grid)
{
    static const char rows[] = "#+###\n#...+\n#.#.#\n#...#\n##.##\n#####\n";
    dg_prefab_set *set = one(NULL, rows, 0);
    if (!set)
        return;
    dg_prefab_info in;
    dg_prefab_get_info(set, 0, &in);
    CHECK(in.door_sides == (DG_SIDE_N | DG_SIDE_E) && in.door_class == DG_DOORCLASS_CORNER);
    for (int32_t o = 0; o < 8; o++)
    {
        uint8_t c[64];
        int32_t w, h;
        stamp(set, o, c, &w, &h);
        CHECK(grid_sides(c, w, h) == dg_orient_sides(in.door_sides, o));
        CHECK(dg_door_class(dg_orient_sides(in.door_sides, o)) == DG_DOORCLASS_CORNER);
        for (int s = 0; s < 4; s++)
        {
            uint64_t sig, want = 0;
            int32_t len;
            CHECK(dg_prefab_edge(set, 0, o, 1 << s, &sig, &len) == DG_OK);
            CHECK(len == ((s % 2 == 0) ? w : h));
            for (int32_t i = 0; i < len; i++)
            {
                int32_t x = s == 1 ? w - 1 : s == 3 ? 0 : i, y = s == 0 ? 0 : s == 2 ? h - 1 : i;
                want |= (uint64_t)dg_tile_passable(c[y * w + x]) << i;
            }
            CHECKF(sig == want, "o=%d side=%d", (int)o, s);
        }
    }
    uint64_t sig;
    CHECK(dg_prefab_edge(set, 0, 0, 3, &sig, NULL) == DG_E_INVALID);
    CHECK(dg_prefab_edge(set, 1, 0, 1, &sig, NULL) == DG_E_INVALID);
    CHECK(dg_prefab_edge(NULL, 0, 0, 1, &sig, NULL) == DG_E_NULL);
    dg_prefab_set_free(set);
    /* a randomised border cell counts as open only if every outcome is */
    set = one("  pick ? = .:1 #:1\n  pick * = .:1 +:0", "#?*#\n#..#\n", 0);
    if (set)
    {
        CHECK(dg_prefab_edge(set, 0, 0, DG_SIDE_N, &sig, NULL) == DG_OK && sig == 0x4);
        dg_prefab_set_free(set);
    }
}

/* The side-mask formula of dgi_orient_sides against the side each identity
 * side N E S W moves to, per orientation, for every mask. */
TEST(prefab_orient_sides_match_the_side_table)
{
    static const uint8_t side_map[DG_ORIENT_COUNT][4] = {
        {0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2},
        {0, 3, 2, 1}, {2, 1, 0, 3}, {3, 2, 1, 0}, {1, 0, 3, 2},
    };
    for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
        for (int32_t m = 0; m < 16; m++)
        {
            int32_t want = 0;
            for (int s = 0; s < 4; s++)
                if (m & (1 << s))
                    want |= 1 << side_map[o][s];
            CHECKF(dgi_orient_sides(m, o) == want && dg_orient_sides(m, o) == want, "o=%d sides=%d",
                   (int)o, (int)m);
        }
}

/* Chi-square statistic (x1000) of counts against a uniform spread. */
static int64_t chi_x1000(const int64_t *obs, int n)
{
    int64_t total = 0, chi = 0;
    for (int i = 0; i < n; i++)
        total += obs[i];
    for (int i = 0; i < n; i++)
    {
        int64_t d = obs[i] * n - total;
        chi += d * d * 1000 / (total * n);
    }
    return chi;
}

TEST(prefab_orient_choice_is_uniform)
{
    /* dg_prefab_pick: no doors, no symmetry: 8 orientations; a pinwheel: 2 */
    static const char text[] = "prefabs 1\n"
                               "prefab odd\n  mode furnish\nmap\n##.\n...\n...\nend\n"
                               "prefab pin\n  mode island\nmap\n.#..\n...#\n#...\n..#.\nend\n"
                               "prefab bar\n  mode full\nmap\n##..\n....\nend\n";
    dg_prefab_set *set = NULL;
    CHECK(dg_prefab_parse(text, strlen(text), NULL, NULL, NULL, NULL, &set, NULL) == DG_OK);
    if (!set)
        return;
    int64_t odd[8] = {0}, pin[8] = {0}, full[8] = {0}, narrow[8] = {0};
    uint8_t cells[16];
    dg_grid g;
    for (uint64_t i = 0; i < 8000; i++)
    {
        int32_t index, o;
        CHECK(dg_prefab_pick(set, DG_PREFAB_FURNISH, 0, dg_hash64(i), &index, &o) == DG_OK);
        odd[o]++;
        CHECK(dg_prefab_pick(set, DG_PREFAB_ISLAND, 0, i, &index, &o) == DG_OK);
        pin[o]++;
        dg_result r;
        dg_result_init(&r, NULL);
        dg_grid_init(&g, cells, 4, 4, 0);
        CHECK(dg_prefab_full_generate(&g, set, NULL, i, &r, NULL, NULL) == DG_OK);
        full[r.rooms[0].orientation]++;
        dg_grid_init(&g, cells, 4, 2, 0); /* only the four that keep 4x2 fit */
        CHECK(dg_prefab_full_generate(&g, set, NULL, i, &r, NULL, NULL) == DG_OK);
        narrow[r.rooms[0].orientation]++;
        dg_result_free(&r);
    }
    /* 0.1% critical values: 24.32 (7 dof), 10.83 (1 dof), 16.27 (3 dof) */
    CHECKF(chi_x1000(odd, 8) < 24320, "odd chi2 %lld", (long long)chi_x1000(odd, 8));
    CHECK(pin[0] + pin[4] == 8000);
    int64_t pin2[2] = {pin[0], pin[4]};
    CHECKF(chi_x1000(pin2, 2) < 10830, "pin chi2 %lld", (long long)chi_x1000(pin2, 2));
    CHECKF(chi_x1000(full, 8) < 24320, "full chi2 %lld", (long long)chi_x1000(full, 8));
    int64_t keep[4] = {narrow[0], narrow[2], narrow[4], narrow[5]};
    CHECK(keep[0] + keep[1] + keep[2] + keep[3] == 8000);
    CHECKF(chi_x1000(keep, 4) < 16270, "narrow chi2 %lld", (long long)chi_x1000(keep, 4));
    dg_prefab_set_free(set);
}

/* dgi_orient_distinct against the plain rule on small random grids of two
 * glyphs (many symmetric): keep an allowed orientation unless the image of an
 * earlier kept one is identical. */
static int same_oriented(const uint8_t *g, int32_t w, int32_t h, int32_t a, int32_t b)
{
    dgi_xform ta, tb;
    dgi_xform_make(w, h, a, &ta);
    dgi_xform_make(w, h, b, &tb);
    if (ta.w != tb.w || ta.h != tb.h)
        return 0;
    for (int32_t y = 0; y < ta.h; y++)
        for (int32_t x = 0; x < ta.w; x++)
            if (g[ta.base + y * ta.step_y + x * ta.step_x] != g[tb.base + y * tb.step_y + x * tb.step_x])
                return 0;
    return 1;
}

TEST(orient_distinct_matches_plain_comparison)
{
    dg_rng rng;
    dg_rng_seed(&rng, 77, 1);
    uint8_t g[16];
    int mismatches = 0;
    for (int trial = 0; trial < 20000; trial++)
    {
        int32_t w = dg_rng_range(&rng, 1, 4), h = dg_rng_range(&rng, 1, 4);
        for (int32_t i = 0; i < w * h; i++)
            g[i] = (uint8_t)(dg_rng_chance(&rng, 300) ? 'a' : 'b');
        int32_t allowed = (int32_t)dg_rng_below(&rng, 256) | (trial % 3 == 0 ? 255 : 0);
        int32_t want = 0;
        for (int32_t o = 0; o < DG_ORIENT_COUNT; o++)
        {
            int dup = !(allowed & (1 << o));
            for (int32_t k = 0; k < o && !dup; k++)
                dup = (want & (1 << k)) && same_oriented(g, w, h, k, o);
            if (!dup)
                want |= 1 << o;
        }
        mismatches += dgi_orient_distinct(g, w, h, allowed) != want;
    }
    CHECKF(mismatches == 0, "%d of 20000 grids differ", mismatches);
}
