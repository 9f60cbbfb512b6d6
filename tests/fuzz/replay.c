/* Runs a fuzz target without libFuzzer (any compiler): feeds it every file
 * named on the command line (directories: every file inside, in name order),
 * then `-random=N` pseudo-random inputs from a fixed seed. A crash, a failed
 * check (abort) or an input running longer than REPLAY_TIMEOUT seconds (a
 * hang detector only: work is bounded by counts, so no input comes near it) ends
 * the process; otherwise it prints "1 passed, 0 failed". */
#define _POSIX_C_SOURCE 200809L
#include "dungeon.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REPLAY_TIMEOUT 600
#define REPLAY_MAX_INPUT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_input(const uint8_t *data, size_t size)
{
    alarm(REPLAY_TIMEOUT); /* a hang is a failure: SIGALRM ends the process */
    LLVMFuzzerTestOneInput(data, size);
    alarm(0);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
    {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_MAX_INPUT);
    size_t n = buf ? fread(buf, 1, REPLAY_MAX_INPUT, f) : 0;
    fclose(f);
    if (!buf)
        return -1;
    /* an exact-size copy, so reading past the input is caught by ASan */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact)
    {
        memcpy(exact, buf, n);
        run_input(exact, n);
    }
    free(exact);
    free(buf);
    return exact ? 1 : -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return run_file(path);
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
    {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap)
        {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (names[count])
            snprintf(names[count++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (count > 1)
        qsort(names, count, sizeof *names, by_name);
    int done = 0;
    for (size_t i = 0; i < count; i++)
    {
        int r = run_file(names[i]);
        done = (done < 0 || r < 0) ? -1 : done + r;
        free(names[i]);
    }
    free(names);
    return done;
}

int main(int argc, char **argv)
{
    long files = 0, random_inputs = 0;
    for (int i = 1; i < argc; i++)
    {
        if (strncmp(argv[i], "-random=", 8) == 0)
        {
            random_inputs = strtol(argv[i] + 8, NULL, 10);
            continue;
        }
        int r = run_dir(argv[i]);
        if (r < 0)
        {
            printf("0 passed, 1 failed\n");
            return 1;
        }
        files += r;
    }
    dg_rng rng;
    dg_rng_seed(&rng, 0x5EED, 0);
    for (long k = 0; k < random_inputs; k++)
    {
        size_t n = dg_rng_below(&rng, 513);
        uint8_t *buf = malloc(n ? n : 1); /* exact size: over-reads are caught */
        if (!buf)
            return 1;
        for (size_t j = 0; j < n; j++)
            buf[j] = (uint8_t)dg_rng_next(&rng);
        run_input(buf, n);
        free(buf);
    }
    printf("replayed %ld corpus files and %ld random inputs\n", files, random_inputs);
    printf("1 passed, 0 failed\n");
    return 0;
}
