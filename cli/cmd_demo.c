#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: czk demo [--threads N] [--json] [--quiet]\n\n"
    "Run the most complete job czk can do on its embedded default. At this stage\n"
    "of the project that is the field arithmetic benchmark (czk bench field);\n"
    "the synthesize-prove-verify demo on a synthetic 2KiB PoRep sector replaces\n"
    "it when the Groth16 prover lands.\n";

int czk_bench_field_main(int argc, char **argv);

static int run(int argc, char **argv)
{
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "demo", usage, NULL, NULL, NULL, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    char *args[8];
    int n = 0;
    char threads[16];
    args[n++] = "field";
    if (c.threads) {
        snprintf(threads, sizeof threads, "%d", c.threads);
        args[n++] = "--threads";
        args[n++] = threads;
    }
    if (c.json) args[n++] = "--json";
    if (c.quiet) args[n++] = "--quiet";
    args[n] = NULL;
    return czk_bench_field_main(n, args);
}

CZK_CLI_COMMAND(demo, "run the embedded default job", run)
