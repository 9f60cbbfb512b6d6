/* Golden outputs: a seed must mean the same dungeon on every compiler,
 * optimisation level and word size. For every generator of hard_gens[] (tests/
 * hard.c), every fixed parameter set and two grid sizes, 16 seeds are run and
 * their status, grid hash, structured-result hash and extra output hash are
 * folded into one pinned digest. `make determinism` builds this file alone
 * with gcc and clang at -O0/-O2/-O3 (and -m32) and checks that every build
 * pins the same values.
 *
 * If a pin fails, a code change altered a generator's output for a saved seed.
 * If that is deliberate, re-pin with
 *     DG_GOLDEN_PRINT=1 build/test-plain/runner golden_outputs
 * and add a line to the output changelog in docs/determinism.md. */
#include "hard.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct golden_pin {
    const char *gen;
    int variant;
    int size; /* 0: the entry's typical size, 1: GOLDEN_ODD_W x GOLDEN_ODD_H */
    uint64_t digest;
} golden_pin;

#define GOLDEN_ODD_W 37
#define GOLDEN_ODD_H 23

static const golden_pin pins[] = {
    {"attach", 0, 0, 0x1F80260F9759B0CFULL},
    {"attach", 0, 1, 0xA2F3E7F74478B9A0ULL},
    {"attach", 1, 0, 0xBE5F945739FC3170ULL},
    {"attach", 1, 1, 0x3023ABE8A7FE6C1EULL},
    {"attach", 2, 0, 0xBAA171D55E21FB53ULL},
    {"attach", 2, 1, 0x2EBE25B022656937ULL},
    {"attach", 3, 0, 0x0B7F950EBEF62C69ULL},
    {"attach", 3, 1, 0x1AB95412D761AB03ULL},
    {"chain", 0, 0, 0xF64FD8AB1AE61045ULL},
    {"chain", 0, 1, 0xEB2281B04F7366F2ULL},
    {"chain", 1, 0, 0xC7B79E7FF71CD8DBULL},
    {"chain", 1, 1, 0xFE52B662AC8D6E31ULL},
    {"chain", 2, 0, 0xAE9A832AAB31D70CULL},
    {"chain", 2, 1, 0x080BE29DC79E360BULL},
    {"chain", 3, 0, 0x82E096DEFF754852ULL},
    {"chain", 3, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-full", 0, 0, 0x14B275312AF30E8EULL},
    {"prefab-full", 0, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-full", 1, 0, 0x25019EA78985EFB7ULL},
    {"prefab-full", 1, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-jigsaw", 0, 0, 0xDFBA0BB8AF14E15FULL},
    {"prefab-jigsaw", 0, 1, 0x1F994BD268E8B839ULL},
    {"prefab-jigsaw", 1, 0, 0x6BF1B6EDBE0788CBULL},
    {"prefab-jigsaw", 1, 1, 0x655D27BE33985437ULL},
    {"prefab-jigsaw", 2, 0, 0x14015145783DE82CULL},
    {"prefab-jigsaw", 2, 1, 0x7471914DEE3846A6ULL},
    {"prefab-islands", 0, 0, 0xE06429219E327E01ULL},
    {"prefab-islands", 0, 1, 0x22FD4D619E76F7FAULL},
    {"prefab-islands", 1, 0, 0x205F431BFB26CE2DULL},
    {"prefab-islands", 1, 1, 0x5D0256EA54EDBC5BULL},
    {"prefab-islands", 2, 0, 0x379A95888020116DULL},
    {"prefab-islands", 2, 1, 0x1266E88B642A52CBULL},
    {"prefab-mixed", 0, 0, 0x790AB747BEB459A2ULL},
    {"prefab-mixed", 0, 1, 0x11082F4FCE2F2547ULL},
    {"prefab-mixed", 1, 0, 0x669EF88AB8AA8E66ULL},
    {"prefab-mixed", 1, 1, 0x422B2F4521F91512ULL},
    {"world", 0, 0, 0x2712D8AB434A599CULL},
    {"world", 0, 1, 0x282C1322EB9C5F3EULL},
    {"world", 1, 0, 0x78AADD2E82953632ULL},
    {"world", 1, 1, 0x18969D14C6F2AE38ULL},
    {"world", 2, 0, 0x6A78DF5D79A54B03ULL},
    {"world", 2, 1, 0x6FD2467863A0457BULL},
    {"world", 3, 0, 0x424855422A821C53ULL},
    {"world", 3, 1, 0x3D6EAF71E35E5488ULL},
    {"world", 4, 0, 0xE156EE7E764B1649ULL},
    {"world", 4, 1, 0xBC54CCEC977F7562ULL},
    {"cave", 0, 0, 0xAFB1822B90EA8CBEULL},
    {"cave", 0, 1, 0x9998A8FEBE93D3A9ULL},
    {"cave", 1, 0, 0x10057E2622EF2EA9ULL},
    {"cave", 1, 1, 0x955708A1CE23D978ULL},
    {"cave", 2, 0, 0xF154FFF96D96531FULL},
    {"cave", 2, 1, 0xE2EC0CDA88699742ULL},
    {"bsp", 0, 0, 0x221AE97AD05FEA79ULL},
    {"bsp", 0, 1, 0x7523C3BCBDEEAE81ULL},
    {"bsp", 1, 0, 0xFE6B8D28AF68FA64ULL},
    {"bsp", 1, 1, 0xCB847A5C3E5FDCE5ULL},
    {"bsp", 2, 0, 0x2B517AEAD195D25EULL},
    {"bsp", 2, 1, 0xDED82EE3D1C28719ULL},
    {"maze", 0, 0, 0xAF3835CE2EAAAA11ULL},
    {"maze", 0, 1, 0xD9423413CA068DD7ULL},
    {"maze", 1, 0, 0xC73060BC71A4F814ULL},
    {"maze", 1, 1, 0x93799A30067DA6A9ULL},
    {"maze", 2, 0, 0xA21E8B26C3B3C015ULL},
    {"maze", 2, 1, 0x70174E16995E25EFULL},
    {"walk", 0, 0, 0xF7D2E4BB1F309D9AULL},
    {"walk", 0, 1, 0x1CF33C61241066ADULL},
    {"walk", 1, 0, 0x91410C731208FE8DULL},
    {"walk", 1, 1, 0xF9388794F811F062ULL},
    {"walk", 2, 0, 0xAE73AECA102209CAULL},
    {"walk", 2, 1, 0xFCB103B653907E25ULL},
    {"scatter", 0, 0, 0x2B20626CF8944B65ULL},
    {"scatter", 0, 1, 0x6076C681E7DC2637ULL},
    {"scatter", 1, 0, 0x57D6DB7B3637FDC7ULL},
    {"scatter", 1, 1, 0x9D897697D21E3261ULL},
    {"scatter", 2, 0, 0xBCEAF12EEAF9E6C8ULL},
    {"scatter", 2, 1, 0xAD03E03BB797BF13ULL},
    /* graph: the sample graphs of tests/hard_graph.c, templates in sample 0 (re-pin when the layout changes) */
    {"graph", 0, 0, 0x849AE2B0172C7E45ULL},
    {"graph", 0, 1, 0x1ECF338914D71B4EULL},
    {"graph", 1, 0, 0x025FA3F8ACB28AC1ULL},
    {"graph", 1, 1, 0x0A265F6CF7747381ULL},
    {"graph", 2, 0, 0x1DE4FD57220A40FBULL},
    {"graph", 2, 1, 0xE48218DC0508EC78ULL},
    {"analysis.regions", 0, 0, 0xFB14C76AC64BB311ULL},
    {"analysis.regions", 0, 1, 0xE987758E3FF76AE4ULL},
    {"analysis.regions", 1, 0, 0x422A2D823EE136C7ULL},
    {"analysis.regions", 1, 1, 0x90E93A9139527CF9ULL},
    {"analysis.regions", 2, 0, 0xE918E20A24AFA803ULL},
    {"analysis.regions", 2, 1, 0x1BA1B20A4C18D802ULL},
    {"analysis.distance_map", 0, 0, 0xE5F3A11B837AC996ULL},
    {"analysis.distance_map", 0, 1, 0xECEC2C50D2EB1A95ULL},
    {"analysis.distance_map", 1, 0, 0x460B09FA22108B83ULL},
    {"analysis.distance_map", 1, 1, 0xAF7575DBE21E1147ULL},
    {"analysis.distance_map", 2, 0, 0xFEA393266FB19101ULL},
    {"analysis.distance_map", 2, 1, 0x89887CB0777117B3ULL},
    {"analysis.path_find", 0, 0, 0x3CF5E41CD6F48C6FULL},
    {"analysis.path_find", 0, 1, 0x3D30D0A68AD74217ULL},
    {"analysis.path_find", 1, 0, 0x6CEC01D79005F70FULL},
    {"analysis.path_find", 1, 1, 0x86C8D7B913E34BE2ULL},
    {"analysis.path_find", 2, 0, 0x99AAE1E51F0693C5ULL},
    {"analysis.path_find", 2, 1, 0xF124C73EE7B0E856ULL},
    {"analysis.fov", 0, 0, 0xC2FA61E5CC484554ULL},
    {"analysis.fov", 0, 1, 0xCCA98D777EDEF694ULL},
    {"analysis.fov", 1, 0, 0x9B2F10F596E45F71ULL},
    {"analysis.fov", 1, 1, 0x2BB3B9F886CF8C27ULL},
    {"analysis.fov", 2, 0, 0x99619459EEFED344ULL},
    {"analysis.fov", 2, 1, 0x80F6C5D124138950ULL},
    {"analysis.measure", 0, 0, 0x9B71DCAEC42A93BAULL},
    {"analysis.measure", 0, 1, 0x9B3971ACA612E9F5ULL},
    {"analysis.measure", 1, 0, 0x97CACACDA26F9D35ULL},
    {"analysis.measure", 1, 1, 0xEC60570FEEFD1C23ULL},
    {"analysis.measure", 2, 0, 0xE1FF3D48EEDD5C33ULL},
    {"analysis.measure", 2, 1, 0xD17B7B9284134291ULL},
    {"analysis.chokepoints", 0, 0, 0xF91A12BE79AA17EEULL},
    {"analysis.chokepoints", 0, 1, 0x5E9F36A5DEED06F3ULL},
    {"analysis.chokepoints", 1, 0, 0xCCA718DE5E535E75ULL},
    {"analysis.chokepoints", 1, 1, 0xD4E9D6DAB96E9BABULL},
    {"analysis.chokepoints", 2, 0, 0x367C6B22DD036C97ULL},
    {"analysis.chokepoints", 2, 1, 0x2E0EAA252A198C6EULL},
    {"analysis.place", 0, 0, 0x4BF4E49AE1547501ULL},
    {"analysis.place", 0, 1, 0xED52CF8133A0783FULL},
    {"analysis.place", 1, 0, 0x85B4C49F10DB7346ULL},
    {"analysis.place", 1, 1, 0xB46BECBBAF908232ULL},
    {"analysis.place", 2, 0, 0x4B514B99DF3076F8ULL},
    {"analysis.place", 2, 1, 0x6825DCA42C594373ULL},
    {"analysis.anchor", 0, 0, 0xF85309862752C537ULL},
    {"analysis.anchor", 0, 1, 0x50AE5C8E38302EF7ULL},
    {"analysis.anchor", 1, 0, 0x27B3C94EA7BE14BDULL},
    {"analysis.anchor", 1, 1, 0xD9EDA49986606933ULL},
    {"analysis.anchor", 2, 0, 0xEF05262922A24030ULL},
    {"analysis.anchor", 2, 1, 0x31E0E53B347A9F9FULL},
};

static const uint64_t golden_seeds[16] = {
    0, 1, 2, 3, 7, 42, 1000, 2026, 65535, 0xDEADBEEFULL, 0x123456789ULL, 1ULL << 32,
    1ULL << 63, 0x9E3779B97F4A7C15ULL, UINT64_MAX - 1, UINT64_MAX,
};

static uint64_t golden_digest(const hard_ctx *ctx, const hard_gen *gen, int variant, int size)
{
    int32_t w = size ? GOLDEN_ODD_W : gen->width, h = size ? GOLDEN_ODD_H : gen->height;
    uint64_t digest = 0;
    for (int i = 0; i < 16; i++)
        digest = dg_hash_combine(digest, hard_run_hash(ctx, gen, variant, w, h, golden_seeds[i]));
    return digest;
}

/* An analysis function over map kind `kind` (hard_sample_map) at either size. */
static uint64_t golden_op_digest(const hard_ctx *ctx, const hard_op *op, int kind, int size)
{
    int32_t w = size ? GOLDEN_ODD_W : 80, h = size ? GOLDEN_ODD_H : 50;
    uint8_t *cells = calloc((size_t)w * (size_t)h, 1);
    dg_grid map;
    uint64_t digest = 0;
    if (cells && dg_grid_init(&map, cells, w, h, 0) == DG_OK)
    {
        uint8_t *out = malloc(HARD_OP_OUT(&map));
        for (int i = 0; i < 8 && out; i++)
        {
            hard_sample_map(ctx, kind, golden_seeds[i], &map);
            memset(out, 0, HARD_OP_OUT(&map));
            size_t used = 0;
            dg_status st = op->run(&map, golden_seeds[i + 8], NULL, out, &used);
            digest = dg_hash_combine(digest, hard_op_hash(st, out, used));
        }
        free(out);
    }
    free(cells);
    return digest;
}

static const golden_pin *find_pin(const char *gen, int variant, int size)
{
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
        if (strcmp(pins[i].gen, gen) == 0 && pins[i].variant == variant && pins[i].size == size)
            return &pins[i];
    return NULL;
}

TEST(golden_outputs_are_pinned)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    int print = getenv("DG_GOLDEN_PRINT") != NULL;
    uint64_t all = 0;
    for (const hard_gen *g = hard_gens; g->name; g++)
        for (int v = 0; v < g->variants; v++)
            for (int size = 0; size < 2; size++)
            {
                uint64_t d = golden_digest(&ctx, g, v, size);
                all = dg_hash_combine(all, d);
                if (print)
                    printf("    {\"%s\", %d, %d, 0x%016llXULL},\n", g->name, v, size,
                           (unsigned long long)d);
                const golden_pin *pin = find_pin(g->name, v, size);
                CHECKF(pin != NULL, "%s variant %d size %d is not pinned (digest 0x%016llX)",
                       g->name, v, size, (unsigned long long)d);
                CHECKF(!pin || pin->digest == d,
                       "OUTPUT CHANGED: %s variant %d size %d: digest 0x%016llX, pinned 0x%016llX."
                       " Saved seeds now give other dungeons; if deliberate, re-pin (see the top"
                       " of tests/test_golden.c) and record it in docs/determinism.md",
                       g->name, v, size, (unsigned long long)d,
                       (unsigned long long)(pin ? pin->digest : 0));
            }
    char name[64];
    for (const hard_op *op = hard_ops; op->name; op++)
        for (int kind = 0; kind < 3; kind++)
            for (int size = 0; size < 2; size++)
            {
                snprintf(name, sizeof name, "analysis.%s", op->name);
                uint64_t d = golden_op_digest(&ctx, op, kind, size);
                all = dg_hash_combine(all, d);
                if (print)
                    printf("    {\"%s\", %d, %d, 0x%016llXULL},\n", name, kind, size,
                           (unsigned long long)d);
                const golden_pin *pin = find_pin(name, kind, size);
                CHECKF(pin != NULL, "%s map %d size %d is not pinned", name, kind, size);
                CHECKF(!pin || pin->digest == d,
                       "OUTPUT CHANGED: %s map %d size %d: digest 0x%016llX, pinned 0x%016llX;"
                       " if deliberate, re-pin and record it in docs/determinism.md",
                       name, kind, size, (unsigned long long)d,
                       (unsigned long long)(pin ? pin->digest : 0));
            }
    if (getenv("DG_GOLDEN_DIGEST"))
        printf("golden digest: %016llx\n", (unsigned long long)all);
    hard_ctx_close(&ctx);
}

TEST(golden_pins_name_existing_generators)
{
    /* a pin for a generator that is gone, or a variant that no longer exists */
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
    {
        int found = 0;
        if (strncmp(pins[i].gen, "analysis.", 9) == 0)
            for (const hard_op *op = hard_ops; op->name && !found; op++)
                found = strcmp(op->name, pins[i].gen + 9) == 0 && pins[i].variant < 3;
        else
        {
            const hard_gen *g = hard_find_gen(pins[i].gen);
            found = g && pins[i].variant < g->variants;
        }
        CHECKF(found, "stale pin %s variant %d", pins[i].gen, pins[i].variant);
    }
}
