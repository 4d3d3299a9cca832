/* czk pce: pre-compiled constraint evaluation of PoRep partitions (build the
 * cache, inspect a file, measure witness + evaluation). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "cli.h"
#include "progress.h"
#include "shape_opts.h"
#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/porep.h"

static const char usage[] =
    "usage: czk pce build (--sector-size S | CUSTOM SHAPE) [-o FILE]\n"
    "       czk pce info FILE\n"
    "       czk pce bench (--sector-size S | CUSTOM SHAPE) [--partition K] [--seed N] [-i N]\n"
    "                     [--validate] [--one-buffer]\n\n"
    "Pre-compiled constraint evaluation (PCE) of the PoRep partition circuit: its\n"
    "matrices A, B, C recorded once in a compact form (u32 column, u16 coefficient\n"
    "code; +-2^e evaluated by doublings), then per proof only the witness and\n"
    "a = A.w, b = B.w, c = C.w.\n\n"
    "  build      record the shape and write it to FILE or to the cache\n"
    "             ($CZK_CACHE_DIR, $XDG_CACHE_HOME/czk or ~/.cache/czk)\n"
    "  info       print a PCE file's counts, bytes per non-zero and key\n"
    "  bench      load (or build) the cached PCE, synthesize the witness of a\n"
    "             generated sector's partition and evaluate a, b, c; times, peak RSS\n" CZK_SHAPE_USAGE
    "  -o FILE         output file (build)\n"
    "  --partition K   partition (bench, default 0)\n"
    "  --seed N        sector generator seed (bench, default 1)\n"
    "  -i, --iters N   timed iterations (bench, default 2)\n"
    "  --validate      compare input, aux, a, b, c and densities with the parallel\n"
    "                  PROVE synthesis (needs memory for both)\n"
    "  --one-buffer    stream a, b, c through 3 x 2^20-row buffers (checking a*b = c\n"
    "                  outside the timed evaluation): a 32GiB partition in ~9 GiB\n";

#define CMD "pce"

enum { OPT_PARTITION = CZK_OPT_FIRST_FREE, OPT_SEED, OPT_VALIDATE, OPT_ONE_BUFFER };

typedef struct opts {
    czk_shape_args shape;
    const char *out;
    long long partition, iters;
    unsigned long long seed;
    int validate, one_buffer;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    int rc;
    long long v;
    if (czk_shape_option(&o->shape, opt, arg, CMD, usage, &rc)) return rc;
    switch (opt) {
    case 'o': o->out = arg; return 0;
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &o->partition))
            return czk_cli_usage_error(CMD, usage, "--partition wants 0..1000, got '%s'", arg);
        return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &v))
            return czk_cli_usage_error(CMD, usage, "--seed wants a non-negative integer, got '%s'", arg);
        o->seed = (unsigned long long)v;
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 1000, &o->iters))
            return czk_cli_usage_error(CMD, usage, "--iters wants 1..1000, got '%s'", arg);
        return 0;
    case OPT_VALIDATE: o->validate = 1; return 0;
    case OPT_ONE_BUFFER: o->one_buffer = 1; return 0;
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
               "\"b_aux_density\":%llu,\"build_s\":%.3f}\n",
               in.key, (unsigned long long)in.rows, (unsigned long long)in.cols, (unsigned long long)in.n_inputs,
               (unsigned long long)in.nnz[0], (unsigned long long)in.nnz[1], (unsigned long long)in.nnz[2],
               (unsigned long long)in.distinct[0], (unsigned long long)in.distinct[1],
               (unsigned long long)in.distinct[2], (unsigned long long)in.unit[0], (unsigned long long)in.unit[1],
               (unsigned long long)in.unit[2], (unsigned long long)in.pow2[0], (unsigned long long)in.pow2[1],
               (unsigned long long)in.pow2[2], in.bytes, in.bytes_per_nnz, (unsigned long long)in.a_aux_popcount,
               (unsigned long long)in.b_input_popcount, (unsigned long long)in.b_aux_popcount, build_s);
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
    if (build_s > 0) printf("built in   %.2f s\n", build_s);
}

static int resolve_shape(czk_fc_shape *s, const opts *o)
{
    if (!o->shape.have_size && !o->shape.have_custom)
        return czk_cli_usage_error(CMD, usage, "give --sector-size S or a custom shape");
    return czk_shape_resolve(s, &o->shape, CMD, usage) != 0 ? CZK_EXIT_USAGE : 0;
}

static int cmd_build(const opts *o, const czk_cli_common *com)
{
    czk_fc_shape shape;
    int rc = resolve_shape(&shape, o);
    if (rc) return rc;
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(com));
    double t0 = czk_now();
    czk_pce *p;
    czk_status s = czk_pce_porep_build(&p, &shape, on_progress, &pg);
    czk_progress_done(&pg);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "recording the circuit");
    double build_s = czk_now() - t0;
    char path[600];
    if (o->out) snprintf(path, sizeof path, "%s", o->out);
    else if ((s = czk_pce_cache_path(path, sizeof path, &shape)) != CZK_OK) {
        czk_pce_destroy(p);
        return czk_cli_fail(CMD, s, "cache path");
    }
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

static int fr_vec_eq(const czk_fr *x, const czk_fr *y, size_t n)
{
    return n == 0 || memcmp(x, y, n * sizeof *x) == 0;
}

/* Compare the PCE assignment with the parallel PROVE synthesis. */
static czk_status validate(const czk_cs_assignment *w, const czk_fc_shape *shape, const czk_fc_c1 *c1, uint32_t k)
{
    czk_porep_prover *pr;
    CZK_TRY(czk_porep_prover_create(&pr, shape, CZK_LC_DEFAULT));
    czk_status s = czk_porep_prover_synthesize(pr, c1, k, czk_threads());
    czk_cs_assignment r;
    if (s == CZK_OK) s = czk_porep_prover_get(pr, &r);
    if (s == CZK_OK) {
        const char *bad = NULL;
        size_t wa = (r.n_aux + 63) / 64, wi = (r.n_input + 63) / 64;
        if (r.n_input != w->n_input || r.n_aux != w->n_aux || r.n_constraints != w->n_constraints) bad = "sizes";
        else if (!fr_vec_eq(r.input, w->input, r.n_input)) bad = "input";
        else if (!fr_vec_eq(r.aux, w->aux, r.n_aux)) bad = "aux";
        else if (!fr_vec_eq(r.a, w->a, r.n_constraints)) bad = "a";
        else if (!fr_vec_eq(r.b, w->b, r.n_constraints)) bad = "b";
        else if (!fr_vec_eq(r.c, w->c, r.n_constraints)) bad = "c";
        else if (r.a_aux_popcount != w->a_aux_popcount || memcmp(r.a_aux_density, w->a_aux_density, wa * 8))
            bad = "A-aux density";
        else if (r.b_input_popcount != w->b_input_popcount || memcmp(r.b_input_density, w->b_input_density, wi * 8))
            bad = "B-input density";
        else if (r.b_aux_popcount != w->b_aux_popcount || memcmp(r.b_aux_density, w->b_aux_density, wa * 8))
            bad = "B-aux density";
        if (bad) s = czk_error(CZK_ERR_INTERNAL, "partition %u: PCE %s differs from the PROVE synthesis", k, bad);
    }
    czk_porep_prover_destroy(pr);
    return s;
}

static int cmd_bench(const opts *o, const czk_cli_common *com)
{
    czk_fc_shape shape;
    int rc = resolve_shape(&shape, o);
    if (rc) return rc;
    if ((uint64_t)o->partition >= shape.partitions)
        return czk_cli_usage_error(CMD, usage, "--partition %lld: the sector has %u partitions", o->partition,
                                   shape.partitions);
    if (o->validate && o->one_buffer) return czk_cli_usage_error(CMD, usage, "--validate needs a, b and c: drop --one-buffer");
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(com));
    double t0 = czk_now();
    czk_pce *p;
    int built = 0;
    czk_status s = czk_pce_porep_get(&p, &shape, on_progress, &pg, &built);
    czk_progress_done(&pg);
    if (s != CZK_OK) return czk_cli_fail(CMD, s, "loading the PCE");
    double load_s = czk_now() - t0;
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    s = czk_fc_gen_c1(&c1, &shape, o->seed, NULL, NULL);
    if (s != CZK_OK) {
        czk_pce_destroy(p);
        return czk_cli_fail(CMD, s, "generating a synthetic sector");
    }
    czk_pce_info in;
    czk_pce_info_get(p, &in);
    czk_pce_porep_work *w = NULL;
    s = czk_pce_porep_work_create(&w, p, &shape);
    uint32_t k = (uint32_t)o->partition;
    double best_w = 1e30, best_e = 1e30, best_t = 1e30, best_cw = 1e30, best_ce = 1e30;
    czk_fr *one = NULL;
    if (!com->json)
        printf("# %s partition %u: %llu rows, %llu cols, %.3f bytes/nnz (%.2f GiB), PCE %s in %.2f s\n",
               czk_fc_proof_name(shape.proof), k, (unsigned long long)in.rows, (unsigned long long)in.cols,
               in.bytes_per_nnz, (double)in.bytes / 1073741824.0, built ? "built" : "read", load_s);
    for (long long it = 0; it < o->iters && s == CZK_OK; it++) {
        czk_pce_timings t = {0, 0, 0, 0};
        double ta = czk_now(), ca = czk_cpu_now();
        czk_cs_assignment asg;
        if (o->one_buffer) {
            const czk_fr *inp, *aux;
            size_t ni, na;
            s = czk_pce_porep_witness(w, &c1, k, &inp, &ni, &aux, &na);
            double tb = czk_now();
            double cb = czk_cpu_now();
            t.witness_s = tb - ta;
            t.witness_cpu_s = cb - ca;
            /* a, b, c streamed through three chunks of CHUNK rows */
            const uint64_t CHUNK = 1024 * CZK_PCE_BLOCK;
            if (s == CZK_OK && !one && !(one = malloc(3 * CHUNK * sizeof *one)))
                s = czk_error(CZK_ERR_NOMEM, "chunk buffers");
            for (uint64_t r0 = 0; s == CZK_OK && r0 < in.rows; r0 += CHUNK) {
                uint64_t r1 = r0 + CHUNK < in.rows ? r0 + CHUNK : in.rows;
                double te = czk_now(), ce = czk_cpu_now();
                s = czk_pce_eval_range(p, one, one + CHUNK, one + 2 * CHUNK, r0, r1, inp, ni, aux, na, 0);
                t.eval_s += czk_now() - te;
                t.eval_cpu_s += czk_cpu_now() - ce;
                /* a*b = c on the chunk: the evaluation is consumed and checked */
                for (uint64_t r = 0; s == CZK_OK && r < r1 - r0; r++) {
                    czk_fr ab;
                    czk_fr_mul(&ab, &one[r], &one[CHUNK + r]);
                    if (!czk_fr_eq(&ab, &one[2 * CHUNK + r]))
                        s = czk_error(CZK_ERR_UNSATISFIED, "row %llu: a*b != c", (unsigned long long)(r0 + r));
                }
            }
            (void)tb;
        } else {
            s = czk_pce_porep_synthesize(w, &c1, k, 0, &asg, &t);
            if (s == CZK_OK && o->validate && it == 0) {
                double tv = czk_now();
                s = validate(&asg, &shape, &c1, k);
                if (s == CZK_OK && !com->json)
                    printf("# validate: input, aux, a, b, c and densities equal the PROVE synthesis (%.2f s)\n",
                           czk_now() - tv);
            }
        }
        double tot = t.witness_s + t.eval_s;
        if (s != CZK_OK) break;
        if (t.witness_s < best_w) best_w = t.witness_s;
        if (t.eval_s < best_e) best_e = t.eval_s;
        if (tot < best_t) best_t = tot;
        if (t.witness_cpu_s < best_cw) best_cw = t.witness_cpu_s;
        if (t.eval_cpu_s < best_ce) best_ce = t.eval_cpu_s;
        if (!com->json)
            printf("iter %lld: wall %.3f s = witness %.3f s + mat-vec %.3f s; cpu witness %.3f s, mat-vec %.3f s "
                   "(%.1f M nnz per cpu-s)\n",
                   it, tot, t.witness_s, t.eval_s, t.witness_cpu_s, t.eval_cpu_s,
                   (double)(in.nnz[0] + in.nnz[1] + in.nnz[2]) / t.eval_cpu_s * 1e-6);
    }
    if (s == CZK_OK) {
        if (com->json)
            printf("{\"proof\":\"%s\",\"partition\":%u,\"rows\":%llu,\"nnz\":%llu,\"bytes_per_nnz\":%.4f,"
                   "\"pce_bytes\":%zu,\"pce_built\":%s,\"load_s\":%.3f,\"best_wall_s\":%.4f,\"best_witness_s\":%.4f,"
                   "\"best_matvec_s\":%.4f,\"best_witness_cpu_s\":%.4f,\"best_matvec_cpu_s\":%.4f,\"validated\":%s,\"peak_rss\":%llu}\n",
                   czk_fc_proof_name(shape.proof), k, (unsigned long long)in.rows,
                   (unsigned long long)(in.nnz[0] + in.nnz[1] + in.nnz[2]), in.bytes_per_nnz, in.bytes,
                   built ? "true" : "false", load_s, best_t, best_w, best_e, best_cw, best_ce, o->validate ? "true" : "false",
                   czk_bench_peak_rss());
        else
            printf("best: wall %.3f s (witness %.3f s, mat-vec %.3f s); cpu witness %.3f s, mat-vec %.3f s; "
                   "peak RSS %.2f GiB\n",
                   best_t, best_w, best_e, best_cw, best_ce, (double)czk_bench_peak_rss() / 1073741824.0);
    }
    free(one);
    czk_pce_porep_work_destroy(w);
    czk_fc_c1_free(&c1);
    czk_pce_destroy(p);
    return s == CZK_OK ? CZK_EXIT_OK : czk_cli_fail(CMD, s, "bench");
}

static int run(int argc, char **argv)
{
    opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.iters = 2;
    static const struct option lopts[] = {
        CZK_SHAPE_OPTIONS,
        {"output", required_argument, 0, 'o'},
        {"partition", required_argument, 0, OPT_PARTITION},
        {"seed", required_argument, 0, OPT_SEED},
        {"iters", required_argument, 0, 'i'},
        {"validate", no_argument, 0, OPT_VALIDATE},
        {"one-buffer", no_argument, 0, OPT_ONE_BUFFER},
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
    if (!sub) return czk_cli_usage_error(CMD, usage, "give a sub-command: build, info or bench");
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
    if (strcmp(sub, "bench") == 0) {
        if (npos) return czk_cli_usage_error(CMD, usage, "bench takes no positional argument ('%s')", pos[0]);
        return cmd_bench(&o, &com);
    }
    return czk_cli_usage_error(CMD, usage, "unknown sub-command '%s' (build, info, bench)", sub);
}

CZK_CLI_COMMAND(pce, "pre-compiled constraint evaluation: build / info / bench", run)
