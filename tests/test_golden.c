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
    {"attach", 0, 0, 0x17A5EFFDBC7066DDULL},
    {"attach", 0, 1, 0x3EB27D59ABC73324ULL},
    {"attach", 1, 0, 0x9ECC7717D864689BULL},
    {"attach", 1, 1, 0xC80F6DEDFD037F69ULL},
    {"attach", 2, 0, 0xCEB417D288875B40ULL},
    {"attach", 2, 1, 0x5FD3753AF4AA735CULL},
    {"attach", 3, 0, 0x7B9D671779AA3BD9ULL},
    {"attach", 3, 1, 0xADA7152188E55CF3ULL},
    {"chain", 0, 0, 0xEAB4C904A470675BULL},
    {"chain", 0, 1, 0x7BEE92388A27EE87ULL},
    {"chain", 1, 0, 0x943E673C00F2DD6FULL},
    {"chain", 1, 1, 0xF04C8BCC1354DA37ULL},
    {"chain", 2, 0, 0xD6EF68DF2287104DULL},
    {"chain", 2, 1, 0x8EC32B35F985F0D1ULL},
    {"chain", 3, 0, 0xBF53F77093243F08ULL},
    {"chain", 3, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-full", 0, 0, 0x14B275312AF30E8EULL},
    {"prefab-full", 0, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-full", 1, 0, 0x25019EA78985EFB7ULL},
    {"prefab-full", 1, 1, 0xE0088CB9A04C30B3ULL},
    {"prefab-jigsaw", 0, 0, 0x73760A3BA54278B4ULL},
    {"prefab-jigsaw", 0, 1, 0x6DECF8DF39FCF08CULL},
    {"prefab-jigsaw", 1, 0, 0xC44C3B3598141935ULL},
    {"prefab-jigsaw", 1, 1, 0x0EE4E98CC8E54AF6ULL},
    {"prefab-jigsaw", 2, 0, 0x5367914CA3F273F1ULL},
    {"prefab-jigsaw", 2, 1, 0x83843487281294A5ULL},
    {"prefab-islands", 0, 0, 0x1888A66816CEFFAFULL},
    {"prefab-islands", 0, 1, 0x22FD4D619E76F7FAULL},
    {"prefab-islands", 1, 0, 0x205F431BFB26CE2DULL},
    {"prefab-islands", 1, 1, 0x5D0256EA54EDBC5BULL},
    {"prefab-islands", 2, 0, 0xF067937E37C3AADBULL},
    {"prefab-islands", 2, 1, 0x1266E88B642A52CBULL},
    {"prefab-mixed", 0, 0, 0xEF177DECD3FFA5C7ULL},
    {"prefab-mixed", 0, 1, 0x4F7950431C1E0E1AULL},
    {"prefab-mixed", 1, 0, 0x615E4852F0F91A2DULL},
    {"prefab-mixed", 1, 1, 0xCCF6788E7E6CC8ECULL},
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
    {"cave", 0, 0, 0xEFA40A5A76122972ULL},
    {"cave", 0, 1, 0x1FFA126AF5899974ULL},
    {"cave", 1, 0, 0x9477DE7BB380CD8EULL},
    {"cave", 1, 1, 0xD0D61A2976112E35ULL},
    {"cave", 2, 0, 0xEFBF84AE09A9E751ULL},
    {"cave", 2, 1, 0xA9474C5E8CDE29D5ULL},
    {"bsp", 0, 0, 0x76259247BCD2C6FDULL},
    {"bsp", 0, 1, 0xC52300A169876C62ULL},
    {"bsp", 1, 0, 0x3C3FD3B9E9F3A9F5ULL},
    {"bsp", 1, 1, 0x8802B69E87D9A8ECULL},
    {"bsp", 2, 0, 0x4450C5DC0BCCB116ULL},
    {"bsp", 2, 1, 0xDED82EE3D1C28719ULL},
    {"maze", 0, 0, 0x0E100A1AA0EDF510ULL},
    {"maze", 0, 1, 0x54ABC021F80224BBULL},
    {"maze", 1, 0, 0xC73060BC71A4F814ULL},
    {"maze", 1, 1, 0x93799A30067DA6A9ULL},
    {"maze", 2, 0, 0x15717FBD532FFAACULL},
    {"maze", 2, 1, 0x683636D96FB0C35FULL},
    {"walk", 0, 0, 0xA81B40F413C5247DULL},
    {"walk", 0, 1, 0x0792028747A8CA4CULL},
    {"walk", 1, 0, 0xAAC71628C9D67E3DULL},
    {"walk", 1, 1, 0x49F856BD7ECBB6BCULL},
    {"walk", 2, 0, 0x929FBADC1A1F0D82ULL},
    {"walk", 2, 1, 0x2072DD0B2021524DULL},
    {"scatter", 0, 0, 0x3486D30E9FBC1331ULL},
    {"scatter", 0, 1, 0x57CFB6BB176D1A86ULL},
    {"scatter", 1, 0, 0x81B3CF5A610912E6ULL},
    {"scatter", 1, 1, 0x5C332AAC94701B8FULL},
    {"scatter", 2, 0, 0xBCEAF12EEAF9E6C8ULL},
    {"scatter", 2, 1, 0xAD03E03BB797BF13ULL},
    {"analysis.regions", 0, 0, 0xFB14C76AC64BB311ULL},
    {"analysis.regions", 0, 1, 0xE987758E3FF76AE4ULL},
    {"analysis.regions", 1, 0, 0x422A2D823EE136C7ULL},
    {"analysis.regions", 1, 1, 0x90E93A9139527CF9ULL},
    {"analysis.regions", 2, 0, 0xB394589A044E3A38ULL},
    {"analysis.regions", 2, 1, 0x8A992E5487987245ULL},
    {"analysis.distance_map", 0, 0, 0xE5F3A11B837AC996ULL},
    {"analysis.distance_map", 0, 1, 0xECEC2C50D2EB1A95ULL},
    {"analysis.distance_map", 1, 0, 0x460B09FA22108B83ULL},
    {"analysis.distance_map", 1, 1, 0xAF7575DBE21E1147ULL},
    {"analysis.distance_map", 2, 0, 0x881F8873B6D67A39ULL},
    {"analysis.distance_map", 2, 1, 0x89BC93A5236559C3ULL},
    {"analysis.path_find", 0, 0, 0x3CF5E41CD6F48C6FULL},
    {"analysis.path_find", 0, 1, 0x3D30D0A68AD74217ULL},
    {"analysis.path_find", 1, 0, 0x6CEC01D79005F70FULL},
    {"analysis.path_find", 1, 1, 0x86C8D7B913E34BE2ULL},
    {"analysis.path_find", 2, 0, 0xE9F9A6D3678A6447ULL},
    {"analysis.path_find", 2, 1, 0xCA7540EA9D8DA3CCULL},
    {"analysis.fov", 0, 0, 0xC2FA61E5CC484554ULL},
    {"analysis.fov", 0, 1, 0xCCA98D777EDEF694ULL},
    {"analysis.fov", 1, 0, 0x9B2F10F596E45F71ULL},
    {"analysis.fov", 1, 1, 0x2BB3B9F886CF8C27ULL},
    {"analysis.fov", 2, 0, 0x451DB76AF8018DAAULL},
    {"analysis.fov", 2, 1, 0xC24BAF5D85B26E70ULL},
    {"analysis.measure", 0, 0, 0x9B71DCAEC42A93BAULL},
    {"analysis.measure", 0, 1, 0x9B3971ACA612E9F5ULL},
    {"analysis.measure", 1, 0, 0x97CACACDA26F9D35ULL},
    {"analysis.measure", 1, 1, 0xEC60570FEEFD1C23ULL},
    {"analysis.measure", 2, 0, 0x5EFB8125A785FDC3ULL},
    {"analysis.measure", 2, 1, 0x1C9C00B316295071ULL},
    {"analysis.chokepoints", 0, 0, 0xF91A12BE79AA17EEULL},
    {"analysis.chokepoints", 0, 1, 0x5E9F36A5DEED06F3ULL},
    {"analysis.chokepoints", 1, 0, 0xCCA718DE5E535E75ULL},
    {"analysis.chokepoints", 1, 1, 0xD4E9D6DAB96E9BABULL},
    {"analysis.chokepoints", 2, 0, 0x0CC6669F42AB4DFEULL},
    {"analysis.chokepoints", 2, 1, 0xECC02BC17E99EDAEULL},
    {"analysis.place", 0, 0, 0x4BF4E49AE1547501ULL},
    {"analysis.place", 0, 1, 0xED52CF8133A0783FULL},
    {"analysis.place", 1, 0, 0x85B4C49F10DB7346ULL},
    {"analysis.place", 1, 1, 0xB46BECBBAF908232ULL},
    {"analysis.place", 2, 0, 0x5F79FA8DAF5C7EAEULL},
    {"analysis.place", 2, 1, 0x66FDDBD4AF05F016ULL},
    {"analysis.anchor", 0, 0, 0x0F72E5B07229715CULL},
    {"analysis.anchor", 0, 1, 0xD434E0069893002CULL},
    {"analysis.anchor", 1, 0, 0x27B3C94EA7BE14BDULL},
    {"analysis.anchor", 1, 1, 0xD9EDA49986606933ULL},
    {"analysis.anchor", 2, 0, 0x58D51EC5A465721EULL},
    {"analysis.anchor", 2, 1, 0xB821242CAED77E80ULL},
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
