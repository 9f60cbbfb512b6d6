/* Benchmark runner: runs every BENCH (or those whose name contains argv[1]);
 * argv[2] narrows a bench that reads bench_subject (`bench peers walk`). */
#define _POSIX_C_SOURCE 200112L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_BENCHES 128

static struct {
    const char *name;
    bench_fn fn;
} benches[MAX_BENCHES];
static int bench_count;

void bench_register(const char *name, bench_fn fn)
{
    if (bench_count < MAX_BENCHES)
    {
        benches[bench_count].name = name;
        benches[bench_count].fn = fn;
        bench_count++;
    }
}

int64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}


int64_t bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static char repo_root[512]; /* "" (the working directory) or "DIR/../../" */

/* The binary's folder (build/bench): from /proc/self/exe where the system has
 * it, so a bench found through PATH or started from another folder still finds
 * examples/; else from argv[0]. */
static int binary_dir(const char *argv0, char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n > 0 && (size_t)n < size - 1)
        out[n] = 0;
    else
        snprintf(out, size, "%s", argv0);
    char *slash = strrchr(out, '/');
    if (!slash)
        return 0;
    *slash = 0;
    return 1;
}

void bench_find_root(const char *argv0)
{
    char dir[400];
    FILE *f = fopen("examples/prefabs/vaults.txt", "r");
    repo_root[0] = 0;
    if (f)
        fclose(f);
    else if (binary_dir(argv0, dir, sizeof dir))
        snprintf(repo_root, sizeof repo_root, "%s/../../", dir);
}

const char *bench_path(char *out, size_t size, const char *file)
{
    snprintf(out, size, "%s%s", repo_root, file);
    return out;
}

static void *count_alloc(void *user, size_t size)
{
    bench_mem *m = user;
    m->allocs++;
    m->live += (int64_t)size;
    if (m->live > m->peak)
        m->peak = m->live;
    return malloc(size);
}

static void count_free(void *user, void *ptr, size_t size)
{
    bench_mem *m = user;
    m->live -= (int64_t)size;
    free(ptr);
}

dg_allocator bench_allocator(bench_mem *mem)
{
    dg_allocator a = {count_alloc, count_free, mem};
    return a;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void print_time(int64_t ns)
{
    if (ns < 10000)
        printf(" %9.2f us", (double)ns / 1000.0);
    else if (ns < 10000000)
        printf(" %9.1f us", (double)ns / 1000.0);
    else
        printf(" %9.2f ms", (double)ns / 1e6);
}

void bench_run(const char *name, const char *size, int64_t cells, int reps, int64_t ops_per_rep,
               bench_op op, void *ctx, bench_mem *mem)
{
    if (reps < 1)
        reps = 1;
    if (ops_per_rep < 1)
        ops_per_rep = 1;
    int64_t *t = malloc((size_t)reps * sizeof *t);
    if (!t)
        return;
    op(ctx, 0); /* warm-up */
    if (mem)
        memset(mem, 0, sizeof *mem);
    int64_t i = 1;
    for (int r = 0; r < reps; r++)
    {
        int64_t t0 = bench_now_ns();
        for (int64_t k = 0; k < ops_per_rep; k++)
            op(ctx, i++);
        t[r] = (bench_now_ns() - t0) / ops_per_rep;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_i64);
    int64_t median = t[reps / 2], min = t[0];
    printf("%-28s %-10s", name, size);
    print_time(median);
    print_time(min);
    if (cells > 0 && median > 0)
        printf(" %9.1f Mcells/s", (double)cells * 1000.0 / (double)median);
    else
        printf(" %18s", "");
    if (mem)
    {
        int64_t ops = (int64_t)reps * ops_per_rep;
        printf(" %9.1f KiB peak %6.1f allocs/op", (double)mem->peak / 1024.0,
               (double)mem->allocs / (double)ops);
    }
    printf("\n");
    fflush(stdout);
    free(t);
}

const char *bench_subject;

static int usage(void)
{
    printf("usage: bench [NAME [SUBJECT]]\n"
           "  runs every benchmark whose name contains NAME (all without it), one row\n"
           "  per case: median and min time, throughput, scratch memory; SUBJECT\n"
           "  narrows a bench that reads it (`bench peers walk`; `bench graph worst`:\n"
           "  the level-graph layouts' median, p99 and worst over seeds 1..1000;\n"
           "  `bench graph families`: the share of the family graphs laid out, seeds\n"
           "  0 and 1 (`families2`: 2 and 3); `bench graph text:chords:17:1:0`: one\n"
           "  family graph in the text format).\n"
           "benchmarks:");
    for (int i = 0; i < bench_count; i++)
        printf(" %s", benches[i].name);
    printf("\n");
    bench_once_usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    bench_find_root(argv[0]);
    if (argc > 1 && strcmp(argv[1], "--once") == 0)
        return bench_once(argc, argv);
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage();
    const char *filter = argc > 1 ? argv[1] : NULL;
    bench_subject = argc > 2 ? argv[2] : NULL;
    if (!bench_subject || strncmp(bench_subject, "text:", 5) != 0) /* a text: subject prints a file */
        printf("%-28s %-10s %12s %12s %18s %s\n", "benchmark", "size", "median", "min",
               "throughput", "scratch memory");
    for (int i = 0; i < bench_count; i++)
        if (!filter || strstr(benches[i].name, filter))
            benches[i].fn();
    return 0;
}
