/* czk params: the Filecoin parameter files czk looks for, by their v28
 * names, and which of them a parameter cache holds. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "czk/filecoin.h"
#include "czk/kind.h"

static const char usage[] =
    "usage: czk params [--param-cache DIR] [--json]\n\n"
    "List the Groth16 parameter files of every circuit czk proves (PoRep,\n"
    "WindowPoSt, WinningPoSt, SnapDeals; every production sector size) by the v28 names\n"
    "filecoin-proofs gives them, and whether DIR holds each .params and .vk\n"
    "(with their sizes) and a czk checksum sidecar (.params.czkcheck: the\n"
    "first read skips the full validation).\n\n"
    "  --param-cache DIR   the parameter cache (default: $FIL_PROOFS_PARAMETER_CACHE,\n"
    "                      else /var/tmp/filecoin-proof-parameters)\n\n"
    "Lines: KIND SIZE NAME .params-state .vk-state, where a state is the file's\n"
    "size in bytes or 'missing'. Exit 0 whatever is missing.\n";

enum { OPT_PARAM_CACHE = CZK_OPT_FIRST_FREE };

static int on_opt(void *ctx, int opt, const char *arg)
{
    const char **dir = ctx;
    if (opt == OPT_PARAM_CACHE) {
        *dir = arg;
        return 0;
    }
    return czk_cli_usage_error("params", usage, "unexpected option");
}

static const uint64_t sizes[5] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};

/* The file's size, or -1 when it is not a regular file. */
static long long file_size(const char *base, const char *ext)
{
    char path[1300];
    struct stat st;
    snprintf(path, sizeof path, "%s%s", base, ext);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    return (long long)st.st_size;
}

static void state(char *out, size_t n, long long size)
{
    if (size < 0) snprintf(out, n, "missing");
    else snprintf(out, n, "%lld", size);
}

static int run(int argc, char **argv)
{
    const char *dir = NULL;
    static const struct option lopts[] = {{"param-cache", required_argument, 0, OPT_PARAM_CACHE}, {0, 0, 0, 0}};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "params", usage, lopts, &dir, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (!dir) dir = czk_fc_param_cache_dir();
    if (c.json) printf("{\"param_cache\":\"%s\",\"files\":[", dir);
    int first = 1, present = 0, total = 0;
    const czk_proof_kind *k;
    for (size_t ki = 0; (k = czk_proof_kind_at(ki)) != NULL; ki++)
        for (int i = 0; i < 5; i++) {
            char base[1200];
            if (czk_kind_param_path_of_size(base, sizeof base, k, dir, sizes[i], "") != CZK_OK) {
                czk_error_clear();
                continue;
            }
            const char *name = k->name, *stem = base + strlen(dir) + 1;
            long long p = file_size(base, ".params"), v = file_size(base, ".vk");
            int side = file_size(base, ".params.czkcheck") >= 0;
            total++;
            present += p >= 0 && v >= 0;
            if (c.json) {
                printf("%s{\"kind\":\"%s\",\"sector_size\":%llu,\"name\":\"%s\",\"params_bytes\":%lld,"
                       "\"vk_bytes\":%lld,\"sidecar\":%s}",
                       first ? "" : ",", name, (unsigned long long)sizes[i], stem, p, v, side ? "true" : "false");
                first = 0;
                continue;
            }
            char ps[32], vs[32];
            state(ps, sizeof ps, p);
            state(vs, sizeof vs, v);
            printf("%s %llu %s %s %s%s\n", name, (unsigned long long)sizes[i], stem, ps, vs,
                   side ? " pinned" : "");
        }
    if (c.json) printf("],\"present\":%d,\"total\":%d}\n", present, total);
    else if (!c.quiet) fprintf(stderr, "czk params: %d of %d circuits have both files in %s\n", present, total, dir);
    return CZK_EXIT_OK;
}

CZK_CLI_COMMAND(params, "list Filecoin's parameter files by their v28 names and which a cache holds", run)
