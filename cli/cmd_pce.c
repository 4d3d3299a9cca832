/* czk pce: pre-compiled constraint evaluation of PoRep partitions and
 * FallbackPoSt (WindowPoSt / WinningPoSt) circuits: build the cache,
 * inspect a file. Its benchmark is `czk bench synth-only --pce on`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "progress.h"
#include "shape_opts.h"
#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/kind.h"

static const char usage[] =
    "usage: czk pce build [--circuit porep|window-post|winning-post|snap] (--sector-size S | CUSTOM SHAPE) [-o FILE]\n"
    "                     [--if-missing]\n"
    "       czk pce info FILE\n\n"
    "Pre-compiled constraint evaluation (PCE) of a partition circuit (PoRep by\n"
    "default; --circuit window-post / winning-post: the FallbackPoSt circuit, with\n"
    "--sectors N / --challenges C resizing a production shape, or --nodes N --tree\n"
    "B[,S[,T]] --sectors N --challenges C; --circuit snap: the EmptySectorUpdate\n"
    "circuit of --sector-size S or --nodes N --tree B[,S[,T]], one for every partition): its\n"
    "matrices A, B, C recorded once in a compact form (u32 column, u16 coefficient\n"
    "code; +-2^e evaluated by doublings), then per proof only the witness and\n"
    "a = A.w, b = B.w, c = C.w.\n\n"
    "  build      record the shape and write it to FILE or to the cache\n"
    "             ($CZK_CACHE_DIR, $XDG_CACHE_HOME/czk or ~/.cache/czk)\n"
    "  info       print a PCE file's counts, bytes per non-zero and key\n" CZK_SHAPE_USAGE
    "  -o FILE         output file (build)\n"
    "  --if-missing    build only when FILE (or the cache file) does not exist yet\n\n"
    "To time the witness and the mat-vec: czk bench synth-only --pce on (--validate,\n"
    "--stream; czk bench synth-only --help).\n";

#define CMD "pce"

typedef struct opts {
    czk_shape_args shape;
    const char *out, *circuit;
    int if_missing;
} opts;

enum { OPT_CIRCUIT = CZK_OPT_FIRST_FREE, OPT_IF_MISSING };

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    int rc;
    if (czk_shape_option(&o->shape, opt, arg, CMD, usage, &rc)) return rc;
    if (opt == 'o') {
        o->out = arg;
        return 0;
    }
    if (opt == OPT_IF_MISSING) {
        o->if_missing = 1;
        return 0;
    }
    if (opt == OPT_CIRCUIT) {
        o->circuit = arg;
        return 0;
    }
    return czk_cli_usage_error(CMD, usage, "unexpected option");
}

static void on_progress(void *ctx, const char *stage, double f)
{
    czk_progress_fraction(ctx, stage, f);
}

static void print_info(const czk_pce *p, int json, double build_s)
{
    czk_pce_info in;
    czk_pce_info_get(p, &in);
    uint64_t nnz = in.nnz[0] + in.nnz[1] + in.nnz[2];
    if (json) {
        printf("{\"key\":\"%s\",\"rows\":%llu,\"cols\":%llu,\"inputs\":%llu,\"nnz\":[%llu,%llu,%llu],"
               "\"distinct\":[%llu,%llu,%llu],\"unit\":[%llu,%llu,%llu],\"pow2\":[%llu,%llu,%llu],"
               "\"bytes\":%zu,\"bytes_per_nnz\":%.4f,\"a_aux_density\":%llu,\"b_input_density\":%llu,"
               "\"b_aux_density\":%llu,\"mapped_bytes\":%zu,\"eval_bytes\":%zu,\"build_s\":%.3f}\n",
               in.key, (unsigned long long)in.rows, (unsigned long long)in.cols, (unsigned long long)in.n_inputs,
               (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1], (unsigned long long)in.nnz[2],
               (unsigned long long)in.distinct[0], (unsigned long long)in.distinct[1],
               (unsigned long long)in.distinct[2], (unsigned long long)in.unit[0], (unsigned long long)in.unit[1],
               (unsigned long long)in.unit[2], (unsigned long long)in.pow2[0], (unsigned long long)in.pow2[1],
               (unsigned long long)in.pow2[2], in.bytes, in.bytes_per_nnz, (unsigned long long)in.a_aux_popcount,
               (unsigned long long)in.b_input_popcount, (unsigned long long)in.b_aux_popcount, in.mapped_bytes,
               in.eval_bytes, build_s);
        return;
    }
    printf("key        %s\n", in.key);
    printf("rows       %llu\ncolumns    %llu (%llu inputs incl. ONE)\n", (unsigned long long)in.rows,
           (unsigned long long)in.cols, (unsigned long long)in.n_inputs);
    static const char *const nm[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++)
        printf("%s          %llu non-zeros, %llu coefficient codes, %.1f%% +-1, %.1f%% without multiplication\n", nm[i],
               (unsigned long long)in.nnz[i], (unsigned long long)in.distinct[i],
               in.nnz[i] ? 100.0 * (double)in.unit[i] / (double)in.nnz[i] : 0,
               in.nnz[i] ? 100.0 * (double)in.pow2[i] / (double)in.nnz[i] : 0);
    printf("density    A-aux %llu, B-input %llu, B-aux %llu\n", (unsigned long long)in.a_aux_popcount,
           (unsigned long long)in.b_input_popcount, (unsigned long long)in.b_aux_popcount);
    printf("memory     %.3f GiB for %llu non-zeros: %.3f bytes per non-zero\n", (double)in.bytes / 1073741824.0,
           (unsigned long long)nnz, in.bytes_per_nnz);
    if (in.mapped_bytes)
        printf("mapped     %.3f GiB of the file; an evaluation holds %.3f GiB of it at once\n",
               (double)in.mapped_bytes / 1073741824.0, (double)in.eval_bytes / 1073741824.0);
    if (build_s > 0) printf("built in   %.2f s\n", build_s);
}

static int build_shape(const opts *o, const czk_cli_common *com, const czk_proof_kind *k, const void *shape);

static int cmd_build(const opts *o, const czk_cli_common *com)
{
    const czk_proof_kind *k = czk_proof_kind_find(o->circuit ? o->circuit : "porep");
    if (!k) {
        char names[128];
        czk_proof_kind_names(names, sizeof names);
        return czk_cli_usage_error(CMD, usage, "--circuit wants %s, got '%s'", names, o->circuit);
    }
    void *shape = NULL;
    if (czk_kind_shape_resolve(&shape, k, &o->shape, CMD, usage) != 0) return CZK_EXIT_USAGE;
    int rc = build_shape(o, com, k, shape);
    free(shape);
    return rc;
}

static int build_shape(const opts *o, const czk_cli_common *com, const czk_proof_kind *k, const void *shape)
{
    char path[600];
    czk_status s = CZK_OK;
    if (o->out) snprintf(path, sizeof path, "%s", o->out);
    else if ((s = czk_kind_pce_path(path, sizeof path, k, shape)) != CZK_OK) return czk_cli_fail(CMD, s, "cache path");
    struct stat st;
    if (o->if_missing && stat(path, &st) == 0 && st.st_size > 0) {
        /* already recorded: nothing rebuilt (its checks run when it is read) */
        if (com->json) printf("{\"path\":\"%s\",\"bytes\":%lld,\"built\":false}\n", path, (long long)st.st_size);
        else if (!com->quiet) printf("present    %s (%lld bytes): not rebuilt\n", path, (long long)st.st_size);
        return CZK_EXIT_OK;
    }
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(com));
    double t0 = czk_now();
    czk_pce *p;
    s = czk_kind_pce_build(&p, k, shape, on_progress, &pg);
    czk_progress_done(&pg);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "recording the circuit");
    double build_s = czk_now() - t0;
    s = czk_pce_write(p, path);
    if (s == CZK_OK) {
        print_info(p, com->json, build_s);
        if (!com->json && !com->quiet) printf("written    %s\n", path);
    }
    czk_pce_destroy(p);
    return s == CZK_OK ? CZK_EXIT_OK : czk_cli_fail(CMD, s, "writing the PCE");
}

static int cmd_info(const char *path, const czk_cli_common *com)
{
    czk_pce *p;
    czk_status s = czk_pce_read(&p, path, NULL);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "reading the PCE file");
    print_info(p, com->json, 0);
    czk_pce_destroy(p);
    return CZK_EXIT_OK;
}

static int run(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    static const struct option lopts[] = {
        CZK_SHAPE_OPTIONS,
        CZK_POST_SHAPE_OPTIONS,
        {"circuit", required_argument, 0, OPT_CIRCUIT},
        {"if-missing", no_argument, 0, OPT_IF_MISSING},
        {"output", required_argument, 0, 'o'},
        {0, 0, 0, 0},
    };
    czk_cli_common com;
    const char *sub = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    int first = 0;
    /* argv[0] stays the command name; the sub-command is skipped */
    char **av = argv;
    int ac = argc;
    if (sub) {
        av = argv + 1;
        ac = argc - 1;
    }
    /* options may follow positional arguments: parse each stretch after one
     * (the positional stands in for argv[0]) */
    const char *pos[4];
    int npos = 0;
    czk_cli_common acc;
    memset(&acc, 0, sizeof acc);
    for (;;) {
        int rc = czk_cli_parse(ac, av, CMD, usage, lopts, &o, on_opt, &com, &first);
        if (rc != CZK_CLI_CONTINUE) return rc;
        if (com.threads) acc.threads = com.threads;
        acc.json |= com.json;
        acc.quiet |= com.quiet;
        if (first >= ac) break;
        if (npos == 4) return czk_cli_usage_error(CMD, usage, "too many arguments ('%s')", av[first]);
        pos[npos++] = av[first];
        av += first;
        ac -= first;
    }
    com = acc;
    if (!sub) return czk_cli_usage_error(CMD, usage, "give a sub-command: build or info");
    czk_cli_apply_common(&com);
    czk_init();
    if (strcmp(sub, "build") == 0) {
        if (npos) return czk_cli_usage_error(CMD, usage, "build takes no positional argument ('%s')", pos[0]);
        return cmd_build(&o, &com);
    }
    if (strcmp(sub, "info") == 0) {
        if (npos != 1) return czk_cli_usage_error(CMD, usage, "info wants exactly one FILE");
        return cmd_info(pos[0], &com);
    }
    return czk_cli_usage_error(CMD, usage, "unknown sub-command '%s' (build, info)", sub);
}

CZK_CLI_COMMAND(pce, "pre-compiled constraint evaluation: build / info", run)
