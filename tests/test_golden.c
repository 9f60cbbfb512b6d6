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
    {"attach", 0, 0, 0xC85E29DD0A730D96ULL},
    {"attach", 0, 1, 0xA8BFECA19DF0059FULL},
    {"attach", 1, 0, 0x122ABD3BA8598014ULL},
    {"attach", 1, 1, 0xFE06B73035685E62ULL},
    {"attach", 2, 0, 0x1EBC3BA9EE2DC3C3ULL},
    {"attach", 2, 1, 0x1E0E862AA1A24E92ULL},
    {"attach", 3, 0, 0x0BD709507A7CD068ULL},
    {"attach", 3, 1, 0x10D31009980626C0ULL},
    {"chain", 0, 0, 0x6C9244F2584D1E23ULL},
    {"chain", 0, 1, 0x771CE1A922067EBDULL},
    {"chain", 1, 0, 0x3DD44D036EFF150EULL},
    {"chain", 1, 1, 0x6D8FFEDA6CE834E7ULL},
    {"chain", 2, 0, 0xEC43E11DBC630443ULL},
    {"chain", 2, 1, 0x9B1E4106B4EFC835ULL},
    {"chain", 3, 0, 0xBF53F77093243F08ULL},
    {"chain", 3, 1, 0xAD16742605FE5134ULL},
    {"prefab-full", 0, 0, 0x14B275312AF30E8EULL},
    {"prefab-full", 0, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-full", 1, 0, 0x25019EA78985EFB7ULL},
    {"prefab-full", 1, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-jigsaw", 0, 0, 0x8E78E9F9E826DAA2ULL},
    {"prefab-jigsaw", 0, 1, 0x11CD283B8DC4AF7BULL},
    {"prefab-jigsaw", 1, 0, 0xAE0D04F129C6123DULL},
    {"prefab-jigsaw", 1, 1, 0xECD20A084E0B7354ULL},
    {"prefab-jigsaw", 2, 0, 0x6ADC510FCF6CF4BBULL},
    {"prefab-jigsaw", 2, 1, 0xDA30EDD84BC8DDF0ULL},
    {"prefab-islands", 0, 0, 0x6AEA436214AB816FULL},
    {"prefab-islands", 0, 1, 0x47CC006F76119403ULL},
    {"prefab-islands", 1, 0, 0x8E9D72E9A2AE3BF4ULL},
    {"prefab-islands", 1, 1, 0x3FD791284DF2EF64ULL},
    {"prefab-islands", 2, 0, 0xBDE39B470FC30B7AULL},
    {"prefab-islands", 2, 1, 0xB1CE5BB7830B5102ULL},
    {"prefab-mixed", 0, 0, 0x5B2C10F82A7EE550ULL},
    {"prefab-mixed", 0, 1, 0x1501CCBE9F13C44EULL},
    {"prefab-mixed", 1, 0, 0xC38C39D4C98D3EEFULL},
    {"prefab-mixed", 1, 1, 0x6F9DDF09F48C0F5BULL},
    {"world", 0, 0, 0xA428009A4948B57EULL},
    {"world", 0, 1, 0x83562F137407351EULL},
    {"world", 1, 0, 0x5A736F184A505A09ULL},
    {"world", 1, 1, 0xF2EE91658CF3B48EULL},
    {"world", 2, 0, 0xB2D8F817013DEF24ULL},
    {"world", 2, 1, 0x35AC453219A10C9DULL},
    {"world", 3, 0, 0x663C17AD0FC6FD02ULL},
    {"world", 3, 1, 0xA4CECBF0B8729A49ULL},
    {"world", 4, 0, 0xFB9E9A5E8DDBF519ULL},
    {"world", 4, 1, 0x207B51D99DE99F5AULL},
    {"analysis.regions", 0, 0, 0x04B2B741D11F3452ULL},
    {"analysis.regions", 0, 1, 0xD00C86626EE27DB7ULL},
    {"analysis.regions", 1, 0, 0x422A2D823EE136C7ULL},
    {"analysis.regions", 1, 1, 0x90E93A9139527CF9ULL},
    {"analysis.regions", 2, 0, 0x22A280974FC1C18AULL},
    {"analysis.regions", 2, 1, 0x4E8F3538668BA335ULL},
    {"analysis.distance_map", 0, 0, 0x213981832D62CBB7ULL},
    {"analysis.distance_map", 0, 1, 0x756715C213810FB4ULL},
    {"analysis.distance_map", 1, 0, 0x60DD8A125A29B347ULL},
    {"analysis.distance_map", 1, 1, 0x7F3ADB3BCC78AD69ULL},
    {"analysis.distance_map", 2, 0, 0x4D4F8AF1C028CA5AULL},
    {"analysis.distance_map", 2, 1, 0xD309AD4D1CD75A20ULL},
    {"analysis.path_find", 0, 0, 0xCDD65E7B29EE63ADULL},
    {"analysis.path_find", 0, 1, 0x1A258071900D8E64ULL},
    {"analysis.path_find", 1, 0, 0x6CEC01D79005F70FULL},
    {"analysis.path_find", 1, 1, 0x86C8D7B913E34BE2ULL},
    {"analysis.path_find", 2, 0, 0x5F46B4B0ACEBD76DULL},
    {"analysis.path_find", 2, 1, 0x8EEFEA659B0D5E58ULL},
    {"analysis.fov", 0, 0, 0xD0EFF38CCD91B971ULL},
    {"analysis.fov", 0, 1, 0xFC901A66CF0FE525ULL},
    {"analysis.fov", 1, 0, 0x9B2F10F596E45F71ULL},
    {"analysis.fov", 1, 1, 0x2BB3B9F886CF8C27ULL},
    {"analysis.fov", 2, 0, 0x39AD5FAD83397000ULL},
    {"analysis.fov", 2, 1, 0xB7422800BB273E64ULL},
    {"analysis.measure", 0, 0, 0x6A1168A80EDB74AFULL},
    {"analysis.measure", 0, 1, 0x0294B7D5CFC27B53ULL},
    {"analysis.measure", 1, 0, 0x97CACACDA26F9D35ULL},
    {"analysis.measure", 1, 1, 0xEC60570FEEFD1C23ULL},
    {"analysis.measure", 2, 0, 0xEF66E5706CF106E8ULL},
    {"analysis.measure", 2, 1, 0x8C0ABAE071D2F18EULL},
    {"analysis.chokepoints", 0, 0, 0x50DFC3FC45BDCD60ULL},
    {"analysis.chokepoints", 0, 1, 0x64F63BAC240FABC9ULL},
    {"analysis.chokepoints", 1, 0, 0xCCA718DE5E535E75ULL},
    {"analysis.chokepoints", 1, 1, 0xD4E9D6DAB96E9BABULL},
    {"analysis.chokepoints", 2, 0, 0xF9662614C5FFFA22ULL},
    {"analysis.chokepoints", 2, 1, 0xBC1B84E0E605D525ULL},
    {"analysis.place", 0, 0, 0x7DFB33CE2E94917CULL},
    {"analysis.place", 0, 1, 0x7C236350BF821998ULL},
    {"analysis.place", 1, 0, 0x85B4C49F10DB7346ULL},
    {"analysis.place", 1, 1, 0xB46BECBBAF908232ULL},
    {"analysis.place", 2, 0, 0xB8F9940CF2A47E2AULL},
    {"analysis.place", 2, 1, 0x40228911602868CCULL},
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
