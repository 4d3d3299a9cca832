#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"

#define MAX_COMMANDS 128

typedef struct {
    const char *name, *summary;
    czk_cli_fn fn;
} command;

static command commands[MAX_COMMANDS];
static int ncommands;

void czk__cli_register(const char *name, const char *summary, czk_cli_fn fn)
{
    if (ncommands < MAX_COMMANDS) commands[ncommands++] = (command){name, summary, fn};
}

static int cmp_cmd(const void *a, const void *b)
{
    return strcmp(((const command *)a)->name, ((const command *)b)->name);
}

static const command *find(const char *name)
{
    for (int i = 0; i < ncommands; i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

static void list(FILE *f)
{
    for (int i = 0; i < ncommands; i++) fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: czk <command> [options]\n\n"
               "czk is a Groth16 proving engine for BLS12-381.\n\ncommands:\n");
    list(f);
    fprintf(f, "  %-12s %s\n", "bench", "run a benchmark (czk bench --help lists them)");
    fprintf(f, "\nEvery command accepts --help, --threads N, --json and --quiet.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
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
    if (!strcmp(name, "bench")) return czk_bench_main(argc - 1, argv + 1);
    const command *c = find(name);
    if (!c) {
        fprintf(stderr, "czk: unknown command '%s'\n\n", name);
        usage(stderr);
        return CZK_EXIT_USAGE;
    }
    return c->fn(argc - 1, argv + 1);
}
