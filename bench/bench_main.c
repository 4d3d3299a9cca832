/* The `czk bench` command: the benchmark registry and its dispatch. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "counters.h"

#define MAX_BENCHES 64

typedef struct bench_entry {
    const char *name, *summary;
    czk_bench_fn fn;
} bench_entry;

static bench_entry benches[MAX_BENCHES];
static int nbenches;
static int sorted;

void czk__bench_register(const char *name, const char *summary, czk_bench_fn fn)
{
    if (nbenches < MAX_BENCHES) benches[nbenches++] = (bench_entry){name, summary, fn};
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const bench_entry *)a)->name, ((const bench_entry *)b)->name);
}

static void sort_once(void)
{
    if (sorted) return;
    qsort(benches, (size_t)nbenches, sizeof benches[0], cmp_entry);
    sorted = 1;
}

static void list(FILE *f)
{
    for (int i = 0; i < nbenches; i++) fprintf(f, "  %-12s %s\n", benches[i].name, benches[i].summary);
}

/* Offset of the closing brace of the first top-level JSON object in s, or
 * -1 (strings and their escapes skipped); *empty: the object has no member. */
static long first_object_end(const char *s, size_t n, int *empty)
{
    int depth = 0, str = 0, esc = 0, members = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (str) {
            if (esc) esc = 0;
            else if (c == '\\') esc = 1;
            else if (c == '"') str = 0;
            continue;
        }
        if (c == '"') {
            str = 1;
            members += depth == 1;
        } else if (c == '{') {
            depth++;
        } else if (c == '}' && depth > 0 && --depth == 0) {
            *empty = members == 0;
            return (long)i;
        }
    }
    return -1;
}

/* Run the benchmark with its stdout in a temporary file; then write that to
 * stdout with "process":{...} (the whole process, measured after the
 * benchmark returned and freed its memory) as the last member of its first
 * top-level JSON object. Output that holds no object passes unchanged. */
static int run_json(const bench_entry *b, int argc, char **argv, const czk_bench_counters *po)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    int keep = tmp ? dup(STDOUT_FILENO) : -1;
    if (keep < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (keep >= 0) close(keep);
        if (tmp) fclose(tmp);
        return po->active ? czk_bench_counters_run(b->fn, argc, argv, po) : b->fn(argc, argv);
    }
    int rc = po->active ? czk_bench_counters_run(b->fn, argc, argv, po) : b->fn(argc, argv);
    fflush(stdout);
    czk_bench_usage u;
    czk_bench_usage_get(&u);
    dup2(keep, STDOUT_FILENO);
    close(keep);
    long n = ftell(tmp);
    char *buf = n > 0 ? malloc((size_t)n) : NULL;
    if (n > 0 && buf && fseek(tmp, 0, SEEK_SET) == 0 && fread(buf, 1, (size_t)n, tmp) == (size_t)n) {
        int empty = 0;
        long end = first_object_end(buf, (size_t)n, &empty);
        if (end >= 0) {
            fwrite(buf, 1, (size_t)end, stdout);
            if (!empty) fputc(',', stdout);
            czk_bench_usage_print(stdout, 1, "process", &u);
            fwrite(buf + end, 1, (size_t)(n - end), stdout);
        } else {
            fwrite(buf, 1, (size_t)n, stdout);
        }
    } else if (n > 0) {
        fprintf(stderr, "czk bench %s: could not read back the benchmark's output\n", b->name);
        if (rc == 0) rc = CZK_EXIT_FAIL;
    }
    free(buf);
    fclose(tmp);
    fflush(stdout);
    return rc;
}

int czk_bench_main(int argc, char **argv)
{
    sort_once();
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: czk bench <what> [options]\n\nbenchmarks:\n");
        list(f);
        fprintf(f, "\nczk bench <what> --help shows each benchmark's options. Every benchmark also\n"
                   "accepts --counters [default|topdown|l2|fills|ref|EVENTS]: hardware counters of its\n"
                   "measured region, simulated with valgrind where the CPU has none (src/perf/README.md).\n");
        return argc < 2 ? CZK_EXIT_USAGE : CZK_EXIT_OK;
    }
    const bench_entry *b = NULL;
    for (int i = 0; i < nbenches && !b; i++)
        if (!strcmp(benches[i].name, argv[1])) b = &benches[i];
    if (!b) {
        fprintf(stderr, "czk bench: unknown benchmark '%s'\n\nbenchmarks:\n", argv[1]);
        list(stderr);
        return CZK_EXIT_USAGE;
    }
    czk_bench_counters po;
    int prc = czk_bench_counters_strip(&argc, argv, &po, argv[1]);
    if (prc) return prc;
    if (po.help) return po.active ? czk_bench_counters_run(b->fn, argc - 1, argv + 1, &po) : b->fn(argc - 1, argv + 1);
    if (po.json) return run_json(b, argc - 1, argv + 1, &po);
    int rc = po.active ? czk_bench_counters_run(b->fn, argc - 1, argv + 1, &po) : b->fn(argc - 1, argv + 1);
    if (rc != CZK_EXIT_USAGE) {
        czk_bench_usage u;
        czk_bench_usage_get(&u);
        fflush(stdout);
        czk_bench_usage_print(stdout, 0, "process", &u);
    }
    return rc;
}
