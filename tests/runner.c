/* The single test runner behind ctest. Usage:
 *   czk_tests [--file test_x] [--test NAME] [--list]
 */
#define _GNU_SOURCE
#include "runner.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "czk/czk.h"

#define MAX_TESTS 4096

typedef struct {
    const char *file; /* basename without .c */
    const char *name;
    czk_test_fn fn;
} test_entry;

static test_entry tests[MAX_TESTS];
static int ntests;
static int cur_failures;
static uint64_t run_seed;
static czk_rng cur_rng;
static char tmpdir[512];
static const test_entry *cur_test;

static const char *file_base(const char *path)
{
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    static char bufs[MAX_TESTS][64];
    static int nb;
    char *b = bufs[nb++ % MAX_TESTS];
    snprintf(b, 64, "%s", s);
    char *dot = strrchr(b, '.');
    if (dot) *dot = 0;
    return b;
}

void czk__test_register(const char *file, const char *name, czk_test_fn fn)
{
    if (ntests >= MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        abort();
    }
    tests[ntests].file = file_base(file);
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

void czk__test_fail(const char *file, int line, const char *fmt, ...)
{
    if (cur_failures < 20) {
        va_list ap;
        fprintf(stderr, "  FAIL %s:%d [%s] ", file, line, cur_test ? cur_test->name : "?");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
    cur_failures++;
}

const char *czk__test_last_error(void)
{
    return czk_last_error();
}

uint64_t czk_test_seed(void)
{
    return run_seed;
}

czk_rng *czk_test_rng(void)
{
    return &cur_rng;
}

size_t czk_test_iters(size_t dflt)
{
    const char *e = getenv("CZK_TEST_ITERS");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (*end == 0 && v > 0) return (size_t)v;
    }
    return dflt;
}

int czk_test_failures(void)
{
    return cur_failures;
}

const char *czk_test_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/czk-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            perror("mkdtemp");
            abort();
        }
    }
    return tmpdir;
}

const char *czk_test_cli(void)
{
    const char *e = getenv("CZK_CLI");
    return e && *e ? e : "czk";
}

int czk_test_run(char *out, size_t cap, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof cmd) return -1;
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint64_t name_hash(const char *a, const char *b)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const char *p = a; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    h = (h ^ '/') * 1099511628211ULL;
    for (const char *p = b; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    return h;
}

static void remove_tmpdir(void)
{
    if (!tmpdir[0]) return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "  warning: could not remove %s\n", tmpdir);
    tmpdir[0] = 0;
}

int main(int argc, char **argv)
{
    const char *file = NULL, *only = NULL;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--file") && i + 1 < argc)
            file = argv[++i];
        else if (!strcmp(argv[i], "--test") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else {
            fprintf(stderr, "usage: czk_tests [--file test_x] [--test NAME] [--list]\n");
            return 2;
        }
    }
    const char *se = getenv("CZK_TEST_SEED");
    if (se && *se)
        run_seed = strtoull(se, NULL, 0);
    else {
        if (czk_os_random(&run_seed, sizeof run_seed) != CZK_OK) run_seed = (uint64_t)time(NULL);
        run_seed &= 0xffffffffffffULL;
    }
    czk_init();
    if (list) {
        for (int i = 0; i < ntests; i++) printf("%s %s\n", tests[i].file, tests[i].name);
        return 0;
    }
    printf("czk tests: seed %llu (CZK_TEST_SEED=%llu reproduces), field impl %s\n",
           (unsigned long long)run_seed, (unsigned long long)run_seed,
           czk_field_impl_name(czk_field_impl()));
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (file && strcmp(tests[i].file, file) != 0) continue;
        if (only && strcmp(tests[i].name, only) != 0) continue;
        cur_test = &tests[i];
        cur_failures = 0;
        czk_rng_seed_stream(&cur_rng, run_seed, name_hash(tests[i].file, tests[i].name));
        czk_error_clear();
        double t0 = czk_now();
        tests[i].fn();
        double dt = czk_now() - t0;
        if (cur_failures == 0) {
            passed++;
            printf("  ok   %s/%s (%.2fs)\n", tests[i].file, tests[i].name, dt);
            remove_tmpdir();
        } else {
            failed++;
            printf("  FAIL %s/%s (%d failures, %.2fs; scratch kept: %s)\n", tests[i].file,
                   tests[i].name, cur_failures, dt, tmpdir[0] ? tmpdir : "-");
            tmpdir[0] = 0;
        }
        fflush(stdout);
    }
    if (passed + failed == 0) {
        fprintf(stderr, "no test matched\n");
        return 1;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
