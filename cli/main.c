#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"

#define MAX_COMMANDS 128

typedef struct {
    const char *name, *summary;
    czk_cli_fn fn;
    int is_bench;
} command;

static command commands[MAX_COMMANDS];
static int ncommands;

void czk__cli_register(const char *name, const char *summary, czk_cli_fn fn, int is_bench)
{
    if (ncommands < MAX_COMMANDS) commands[ncommands++] = (command){name, summary, fn, is_bench};
}

static int cmp_cmd(const void *a, const void *b)
{
    return strcmp(((const command *)a)->name, ((const command *)b)->name);
}

static const command *find(const char *name, int is_bench)
{
    for (int i = 0; i < ncommands; i++)
        if (commands[i].is_bench == is_bench && !strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

static void list(FILE *f, int is_bench)
{
    for (int i = 0; i < ncommands; i++)
        if (commands[i].is_bench == is_bench)
            fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: czk <command> [options]\n\n"
               "czk is a Groth16 proving engine for BLS12-381.\n\ncommands:\n");
    list(f, 0);
    fprintf(f, "  %-12s %s\n", "bench", "run a benchmark (czk bench --help lists them)");
    fprintf(f, "\nEvery command accepts --help, --threads N, --json and --quiet.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
}

static int bench_main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: czk bench <what> [options]\n\nbenchmarks:\n");
        list(f, 1);
        fprintf(f, "\nczk bench <what> --help shows each benchmark's options. Every benchmark also\n"
                   "accepts --counters [default|topdown|l2|fills|ref|EVENTS]: hardware counters of its\n"
                   "measured region, simulated with valgrind where the CPU has none (src/perf/README.md).\n");
        return argc < 2 ? CZK_EXIT_USAGE : CZK_EXIT_OK;
    }
    const command *c = find(argv[1], 1);
    if (!c) {
        fprintf(stderr, "czk bench: unknown benchmark '%s'\n\nbenchmarks:\n", argv[1]);
        list(stderr, 1);
        return CZK_EXIT_USAGE;
    }
    czk_cli_counters po;
    int prc = czk_cli_counters_strip(&argc, argv, &po, argv[1]);
    if (prc) return prc;
    if (!po.active) return c->fn(argc - 1, argv + 1);
    return czk_cli_counters_run(c->fn, argc - 1, argv + 1, &po);
}

int main(int argc, char **argv)
{
    qsort(commands, (size_t)ncommands, sizeof commands[0], cmp_cmd);
    czk_init();
    if (argc < 2) {
        usage(stderr);
        return CZK_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return CZK_EXIT_OK;
    }
    if (!strcmp(name, "--version")) name = "version";
    if (!strcmp(name, "bench")) return bench_main(argc - 1, argv + 1);
    const command *c = find(name, 0);
    if (!c) {
        fprintf(stderr, "czk: unknown command '%s'\n\n", name);
        usage(stderr);
        return CZK_EXIT_USAGE;
    }
    return c->fn(argc - 1, argv + 1);
}
