/* Threads: 8 threads at once parse the sample prefab sets, generate with every
 * generator, query and render the shared immutable worlds (one furnished from
 * a shared prefab set) and run their own explorers, and must get
 * exactly what one thread gets. `make tsan` runs these tests under
 * ThreadSanitizer (tests/hardening/tsan.sh), which also proves the library
 * has no data race on the shared objects. */
#include "hard.h"
#include "test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define SEEDS 4
#define MAX_RUNS 512

#define MAPS 3
#define TEXTS 5

typedef struct job {
    const hard_ctx *ctx;
    const char *const *texts; /* TEXTS prefab files, read once, parsed by every thread */
    const size_t *text_sizes;
    uint64_t parsed;
    const dg_grid *maps; /* MAPS shared grids every thread analyses at once */
    uint64_t analysis;
    int index;
    uint64_t runs[MAX_RUNS]; /* one hash per (generator, variant, seed) */
    int run_count;
    uint64_t world;          /* room queries, explorer walk */
} job;

static void generate_all(job *j)
{
    j->run_count = 0;
    for (const hard_gen *g = hard_gens; g->name; g++)
        for (int v = 0; v < g->variants; v++)
            for (int s = 0; s < SEEDS && j->run_count < MAX_RUNS; s++)
            {
                /* threads start at different seeds so they overlap in time differently */
                int seed = (s + j->index) % SEEDS;
                j->runs[j->run_count++] =
                    hard_run_hash(j->ctx, g, v, g->width, g->height, (uint64_t)seed) ^
                    (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
            }
}

/* Room queries over a square of every shared world, then a walk of an
 * explorer owned by this thread. */
static void query_worlds(job *j)
{
    uint64_t h = 0;
    for (int v = 0; v < HARD_WORLDS; v++)
    {
        const dg_world *w = j->ctx->worlds[v];
        for (int64_t y = -12; y <= 12; y++)
            for (int64_t x = -12; x <= 12; x++)
            {
                dg_world_room room;
                if (dg_world_room_info(w, x, y, &room) != DG_OK)
                    return;
                h = dg_hash_combine(h, room.seed ^ (uint64_t)room.doors ^
                                           (uint64_t)room.difficulty << 8);
            }
        dg_explorer *e = NULL;
        if (dg_explorer_create(w, NULL, &e) != DG_OK)
            return;
        int64_t x = 0, y = 0;
        for (int step = 0; step < 200; step++)
        {
            dg_enter_result out;
            if (dg_explorer_enter(e, x, y, &out) != DG_OK || out.revealed_count == 0)
                break;
            const dg_reveal *r = &out.revealed[(uint32_t)step % (uint32_t)out.revealed_count];
            x = r->x;
            y = r->y;
            h = dg_hash_combine(h, (uint64_t)out.explored);
        }
        h = dg_hash_combine(h, (uint64_t)dg_explorer_count(e));
        dg_explorer_free(e);
    }
    j->world = h;
}

/* Every analysis function on every shared map, with this thread's buffers. */
static void analyse_shared(job *j)
{
    uint64_t h = 0;
    for (int m = 0; m < MAPS; m++)
    {
        uint8_t *out = malloc(HARD_OP_OUT(&j->maps[m]));
        for (const hard_op *op = hard_ops; op->name && out; op++)
            for (uint64_t s = 0; s < 4; s++)
            {
                uint64_t seed = (s + (uint64_t)j->index) % 4; /* another order per thread */
                size_t used = 0;
                /* parts of out a call may leave unwritten (unused sizes slots) hash as zero */
                memset(out, 0, HARD_OP_OUT(&j->maps[m]));
                dg_status st = op->run(&j->maps[m], seed, NULL, out, &used);
                h += hard_op_hash(st, out, used) * (2 * seed + 1); /* order-free sum */
            }
        free(out);
    }
    j->analysis = h;
}

/* Parses every prefab text into this thread's own set and hashes what it holds. */
static void parse_texts(job *j)
{
    uint64_t h = 0;
    for (int t = 0; t < TEXTS && j->texts[t]; t++)
    {
        dg_prefab_set *set = NULL;
        dg_status st = dg_prefab_parse(j->texts[t], j->text_sizes[t], "t", NULL, NULL, NULL, &set,
                                       NULL);
        h = dg_hash_combine(h, (uint64_t)(uint32_t)st);
        for (int32_t i = 0; set && i < dg_prefab_count(set); i++)
        {
            dg_prefab_info info;
            if (dg_prefab_get_info(set, i, &info) != DG_OK)
                continue;
            int32_t v[8] = {info.width, info.height, info.modes, info.orientations,
                            info.distinct, info.weight, info.door_sides, info.door_class};
            for (int k = 0; k < 8; k++)
                h = dg_hash_combine(h, (uint64_t)(uint32_t)v[k]);
            for (int k = 0; k < DG_NAME_MAX && info.name[k]; k++)
                h = dg_hash_combine(h, (uint8_t)info.name[k]);
        }
        dg_prefab_set_free(set);
    }
    j->parsed = h;
}

static void *worker(void *arg)
{
    job *j = arg;
    parse_texts(j);
    generate_all(j);
    query_worlds(j);
    analyse_shared(j);
    return NULL;
}

/* Reads a whole file (malloc), or NULL. */
static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *size = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Same world answers and the same set of run hashes (threads ran them in other orders). */
static int same(job *a, job *b)
{
    if (a->run_count != b->run_count || a->world != b->world || a->analysis != b->analysis ||
        a->parsed != b->parsed)
        return 0;
    qsort(a->runs, (size_t)a->run_count, sizeof a->runs[0], by_value);
    qsort(b->runs, (size_t)b->run_count, sizeof b->runs[0], by_value);
    return memcmp(a->runs, b->runs, (size_t)a->run_count * sizeof a->runs[0]) == 0;
}

TEST(threads_share_immutable_objects_and_agree)
{
    hard_ctx ctx;
    CHECK(hard_ctx_open(&ctx) == DG_OK);
    job *alone = calloc(1, sizeof *alone);
    job *jobs = calloc(THREADS, sizeof *jobs);
    uint8_t *cells = malloc(MAPS * 80 * 50);
    dg_grid maps[MAPS];
    CHECK(alone && jobs && cells);
    for (int m = 0; m < MAPS && cells; m++)
    {
        CHECK(dg_grid_init(&maps[m], cells + m * 80 * 50, 80, 50, 0) == DG_OK);
        hard_sample_map(&ctx, m, 99, &maps[m]);
    }
    static const char *const files[TEXTS] = {
        "examples/prefabs/shaft.txt", "examples/prefabs/forest.txt", "examples/prefabs/factory.txt",
        "examples/prefabs/furnish.txt", "examples/prefabs/vaults.txt"};
    char *texts[TEXTS];
    size_t sizes[TEXTS];
    for (int t = 0; t < TEXTS; t++)
        CHECK((texts[t] = read_text(files[t], &sizes[t])) != NULL);
    if (alone && jobs && cells)
    {
        alone->ctx = &ctx;
        alone->maps = maps;
        alone->texts = (const char *const *)texts;
        alone->text_sizes = sizes;
        worker(alone);
        CHECK(alone->run_count > 0 && alone->world != 0);
        pthread_t t[THREADS];
        int started = 0;
        for (int i = 0; i < THREADS; i++)
        {
            jobs[i].ctx = &ctx;
            jobs[i].maps = maps;
            jobs[i].texts = (const char *const *)texts;
            jobs[i].text_sizes = sizes;
            jobs[i].index = i;
            if (pthread_create(&t[i], NULL, worker, &jobs[i]) == 0)
                started++;
            else
                break;
        }
        CHECK(started == THREADS);
        for (int i = 0; i < started; i++)
            pthread_join(t[i], NULL);
        for (int i = 0; i < started; i++)
            CHECKF(same(&jobs[i], alone), "thread %d disagrees with the single-threaded run", i);
    }
    free(alone);
    free(jobs);
    free(cells);
    for (int t = 0; t < TEXTS; t++)
        free(texts[t]);
    hard_ctx_close(&ctx);
}
