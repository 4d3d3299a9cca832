/* The `czk bench` command: the benchmark registry and its dispatch. */
#include <stdlib.h>
#include <string.h>

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
    if (!po.active) return b->fn(argc - 1, argv + 1);
    return czk_bench_counters_run(b->fn, argc - 1, argv + 1, &po);
}
