/* Test runner: runs every registered test (or those whose name contains
 * argv[1]) and ends with "N passed, N failed". */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 1024

static struct {
    const char *name;
    const char *file;
    test_fn fn;
} tests[MAX_TESTS];
static int test_count;
static int current_failures;

void test_register(const char *name, const char *file, test_fn fn)
{
    if (test_count < MAX_TESTS)
    {
        tests[test_count].name = name;
        tests[test_count].file = file;
        tests[test_count].fn = fn;
        test_count++;
    }
}

void test_fail(const char *file, int line, const char *expr)
{
    if (current_failures < 10)
        fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, expr);
    current_failures++;
}

int test_failures(void)
{
    return current_failures;
}

static int by_file_then_name(const void *a, const void *b)
{
    const __typeof__(tests[0]) *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    qsort(tests, (size_t)test_count, sizeof tests[0], by_file_then_name);
    for (int i = 0; i < test_count; i++)
    {
        if (filter && !strstr(tests[i].name, filter))
            continue;
        current_failures = 0;
        tests[i].fn();
        if (current_failures)
        {
            fprintf(stderr, "FAIL %s (%s, %d failed checks)\n", tests[i].name, tests[i].file,
                    current_failures);
            failed++;
        }
        else
        {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
