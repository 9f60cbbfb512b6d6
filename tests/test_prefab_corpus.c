/* Replays the prefab fuzz corpus (tests/fuzz/corpus/prefab/) through the fuzz
 * target's own checks, as a regular test: each file from an exact-size heap
 * buffer (so ASan catches a read past it), whole and cut at 16 lengths. */
#define _POSIX_C_SOURCE 200809L
#define FUZZ_PREFAB_NO_ENTRY
#include "fuzz/fuzz_prefab.c"

#include <dirent.h>

#define CORPUS "tests/fuzz/corpus/prefab"

/* Reads a whole file into *data (malloc); returns its size or -1. */
static long read_all(const char *path, uint8_t **data)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long cap = 1 << 16, n = 0;
    uint8_t *buf = malloc((size_t)cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, (size_t)(cap - n), f)) > 0)
    {
        n += (long)got;
        if (n == cap)
        {
            uint8_t *bigger = realloc(buf, (size_t)cap * 2);
            if (!bigger)
                break;
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    *data = buf;
    return buf ? n : -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(prefab_fuzz_corpus_replays_clean)
{
    DIR *dir = opendir(CORPUS);
    CHECKF(dir != NULL, "cannot open %s (tests run from the repository root)", CORPUS);
    if (!dir)
        return;
    char *names[256];
    int count = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL && count < 256;)
        if (e->d_name[0] != '.')
            names[count++] = strdup(e->d_name);
    closedir(dir);
    qsort(names, (size_t)count, sizeof names[0], by_name);
    CHECK(count >= 20);
    for (int i = 0; i < count; i++)
    {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CORPUS, names[i]);
        uint8_t *data = NULL;
        long n = read_all(path, &data);
        CHECKF(n >= 0, "cannot read %s", path);
        for (int cut = 0; n >= 0 && cut <= 16; cut++)
        {
            size_t len = cut == 16 ? (size_t)n : (size_t)n * (size_t)cut / 16;
            uint8_t *exact = malloc(len ? len : 1);
            memcpy(exact, data, len);
            const char *bad = fuzz_prefab_run(exact, len);
            CHECKF(bad == NULL, "%s (first %zu bytes): %s", names[i], len, bad);
            free(exact);
        }
        free(data);
        free(names[i]);
    }
}
