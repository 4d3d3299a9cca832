/* czk bench prove: per-stage times of proving one PoRep partition. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "progress.h"
#include "czk/porep_kind.h"
#include "shape_opts.h"

static const char usage[] =
    "usage: czk bench prove (--sector-size S | custom shape | --c1 FILE) [--params FILE]\n"
    "                       [--partition K] [-i ITER] [--lc vec|inline1|inline2|inline4]\n"
    "                       [--pce on|off|auto] [--seed N] [--threads N] [--json] [--quiet]\n\n"
    "Prove one partition ITER times (after one warm-up) and print min / median /\n"
    "max of each stage: synthesis, H (NTTs), the MSMs (h, l, a, b_g1, b_g2) and\n"
    "the total. Every proof is verified before its time is counted. Without\n"
    "--c1 a synthetic sector is generated; without --params they are taken from\n"
    "the cache (see czk demo) or generated.\n\n" CZK_SHAPE_USAGE;

enum { OPT_C1 = CZK_OPT_FIRST_FREE, OPT_PARAMS, OPT_PARTITION, OPT_LC, OPT_SEED, OPT_PCE };

typedef struct {
    czk_shape_args shape;
    const char *c1, *params;
    long long partition, iters, seed;
    czk_lc_kind lc;
    czk_pce_mode pce;
} args;

static int on_opt(void *ctx, int opt, const char *arg)
{
    args *a = ctx;
    int rc;
    if (czk_shape_option(&a->shape, opt, arg, "bench prove", usage, &rc)) return rc;
    switch (opt) {
    case OPT_C1: a->c1 = arg; return 0;
    case OPT_PARAMS: a->params = arg; return 0;
    case OPT_PARTITION:
        if (czk_cli_parse_int(arg, 0, 1000, &a->partition))
            return czk_cli_usage_error("bench prove", usage, "--partition wants a number, got '%s'", arg);
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 1000, &a->iters))
            return czk_cli_usage_error("bench prove", usage, "-i wants 1..1000, got '%s'", arg);
        return 0;
    case OPT_SEED:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &a->seed))
            return czk_cli_usage_error("bench prove", usage, "--seed wants a non-negative integer, got '%s'", arg);
        return 0;
    case OPT_PCE:
        if (czk_pce_mode_parse(&a->pce, arg))
            return czk_cli_usage_error("bench prove", usage, "--pce wants on, off or auto, got '%s'", arg);
        return 0;
    case OPT_LC:
        if (czk_lc_kind_parse(&a->lc, arg) != CZK_OK)
            return czk_cli_usage_error("bench prove", usage, "--lc wants vec, inline1, inline2 or inline4, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("bench prove", usage, "unexpected option");
}

enum { ST_SYNTH, ST_H, ST_MSM_H, ST_MSM_L, ST_MSM_A, ST_MSM_B1, ST_MSM_B2, ST_PROVE, ST_TOTAL, ST_N };
static const char *const st_names[ST_N] = {"synthesis", "H (NTTs)", "MSM h", "MSM l", "MSM a",
                                           "MSM b_g1", "MSM b_g2 (parallel)", "prove", "total"};
static const char *const st_keys[ST_N] = {"synth", "h", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "prove", "total"};

int czk_bench_prove_run(const czk_fc_shape *shape_in, const char *c1_path, const char *params_path,
                        long long partition, long long iters, long long seed, czk_lc_kind lc,
                        czk_pce_mode pce, const czk_cli_common *c, const char *cmd);

int czk_bench_prove_run(const czk_fc_shape *shape_in, const char *c1_path, const char *params_path,
                        long long partition, long long iters, long long seed, czk_lc_kind lc,
                        czk_pce_mode pce, const czk_cli_common *c, const char *cmd)
{
    czk_progress pg;
    czk_progress_init(&pg, czk_cli_progress_enabled(c));
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    czk_status s;
    if (c1_path) {
        s = czk_fc_c1_read(&c1, c1_path);
        if (s != CZK_OK) return czk_cli_fail(cmd, s, "reading the C1 file failed");
    } else {
        czk_progress_fraction(&pg, "generating sector", 0);
        s = czk_fc_gen_c1(&c1, shape_in, (uint64_t)seed, NULL, NULL);
        czk_progress_done(&pg);
        if (s != CZK_OK) return czk_cli_fail(cmd, s, "generating a synthetic sector failed");
    }
    if (partition >= (long long)c1.shape.partitions) {
        czk_fc_c1_free(&c1);
        return czk_cli_usage_error(cmd, usage, "--partition %lld: the sector has %u", partition, c1.shape.partitions);
    }
    czk_groth16_params p;
    char ppath[512] = "";
    int generated = 0;
    double t_setup = czk_now();
    if (params_path) {
        snprintf(ppath, sizeof ppath, "%s", params_path);
        s = czk_groth16_params_read(&p, params_path, CZK_GROTH16_CHECK_PINNED);
    } else {
        s = czk_kind_cached_params(&p, &czk_kind_porep, &c1.shape, czk_progress_cb, &pg, ppath, &generated);
    }
    t_setup = czk_now() - t_setup;
    if (s != CZK_OK) {
        czk_fc_c1_free(&c1);
        return czk_cli_fail(cmd, s, "parameters");
    }
    czk_groth16_vk *vk = &p.vk;
    size_t n_in = czk_porep_num_inputs(&c1.shape) - 1;
    czk_fr *inputs = malloc(n_in * sizeof *inputs);
    double *samples = malloc((size_t)(iters * ST_N) * sizeof(double));
    int code = CZK_EXIT_OK;
    czk_groth16_pvk pvk;
    czk_kind_times last = {0};
    czk_witness_source synth;
    memset(&synth, 0, sizeof synth);
    czk_source_opts so;
    memset(&so, 0, sizeof so);
    so.pce = pce;
    so.lc = lc;
    so.progress = czk_progress_cb;
    so.progress_ctx = &pg;
    if (!inputs || !samples) {
        code = czk_cli_fail(cmd, czk_error(CZK_ERR_NOMEM, "buffers"), "out of memory");
        goto out;
    }
    s = czk_porep_public_inputs(inputs, &c1, (uint32_t)partition);
    if (s == CZK_OK) s = czk_groth16_pvk_prepare(&pvk, vk);
    if (s != CZK_OK) {
        code = czk_cli_fail(cmd, s, "public inputs");
        goto out;
    }
    s = czk_kind_source_open(&synth, &czk_kind_porep, &c1, &so);
    if (s != CZK_OK) {
        code = czk_cli_fail(cmd, s, "pre-compiled constraint evaluation");
        goto out;
    }
    if (c->json) {
        printf("{");
        czk_bench_print_config(stdout, 1, "lc", czk_lc_kind_name(lc));
    } else if (!c->quiet) {
        czk_bench_print_config(stdout, 0, "lc", czk_lc_kind_name(lc));
        printf("# sector %s, partition %lld, params %s%s (%.1f s), synthesis %s\n",
               czk_fc_proof_name(c1.shape.proof), partition, ppath, generated ? " (generated now)" : "", t_setup,
               !strcmp(synth.ops->name, "pce") ? "PCE (witness + mat-vec)" : "full (PROVE backend)");
    }
    for (long long it = -1; it < iters; it++) { /* it = -1: warm-up */
        czk_groth16_proof pr;
        czk_kind_times t;
        double t0 = czk_now();
        s = czk_kind_prove_partition(&pr, &czk_kind_porep, &p, &c1, (uint32_t)partition, &synth, &t);
        double total = czk_now() - t0;
        if (s == CZK_OK) s = czk_groth16_verify(&pvk, &pr, inputs, n_in);
        if (s != CZK_OK) {
            code = czk_cli_fail(cmd, s, "proof failed or did not verify");
            goto out;
        }
        last = t;
        if (it < 0) continue;
        double *row = samples + it * ST_N;
        row[ST_SYNTH] = t.synth_s;
        row[ST_H] = t.g.h_s;
        row[ST_MSM_H] = t.g.msm_h_s;
        row[ST_MSM_L] = t.g.msm_l_s;
        row[ST_MSM_A] = t.g.msm_a_s;
        row[ST_MSM_B1] = t.g.msm_b_g1_s;
        row[ST_MSM_B2] = t.g.msm_b_g2_s;
        row[ST_PROVE] = t.g.total_s;
        row[ST_TOTAL] = total;
    }
    {
        czk_bench_stats st[ST_N];
        double *col = malloc((size_t)iters * sizeof(double));
        for (int k = 0; k < ST_N; k++) {
            for (long long it = 0; it < iters; it++) col[it] = samples[it * ST_N + k];
            czk_bench_stats_of(&st[k], col, (size_t)iters);
        }
        free(col);
        if (c->json) {
            printf(",\"sector\":\"%s\",\"partition\":%lld,\"constraints\":%llu,\"aux\":%llu,\"inputs\":%llu,"
                   "\"iterations\":%lld,\"verified\":true,\"stages\":{",
                   czk_fc_proof_name(c1.shape.proof), partition, (unsigned long long)last.constraints,
                   (unsigned long long)last.aux, (unsigned long long)last.inputs, iters);
            for (int k = 0; k < ST_N; k++)
                printf("%s\"%s\":{\"min\":%.6f,\"median\":%.6f,\"max\":%.6f}", k ? "," : "", st_keys[k],
                       st[k].min, st[k].median, st[k].max);
            printf("}}\n");
        } else if (!c->quiet) {
            printf("# %llu constraints, %llu aux, %llu inputs; %lld iterations, every proof verified\n",
                   (unsigned long long)last.constraints, (unsigned long long)last.aux,
                   (unsigned long long)last.inputs, iters);
            printf("%-22s %12s %12s %12s\n", "stage", "min", "median", "max");
            for (int k = 0; k < ST_N; k++) {
                char b1[32], b2[32], b3[32];
                printf("%-22s %12s %12s %12s\n", st_names[k], czk_bench_fmt_time(b1, st[k].min),
                       czk_bench_fmt_time(b2, st[k].median), czk_bench_fmt_time(b3, st[k].max));
            }
        }
    }
out:
    czk_witness_source_close(&synth);
    free(inputs);
    free(samples);
    czk_groth16_params_clear(&p);
    czk_fc_c1_free(&c1);
    return code;
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {CZK_SHAPE_OPTIONS,
                                         {"c1", required_argument, 0, OPT_C1},
                                         {"params", required_argument, 0, OPT_PARAMS},
                                         {"partition", required_argument, 0, OPT_PARTITION},
                                         {"iters", required_argument, 0, 'i'},
                                         {"lc", required_argument, 0, OPT_LC},
                                         {"seed", required_argument, 0, OPT_SEED},
                                         {"pce", required_argument, 0, OPT_PCE},
                                         {0, 0, 0, 0}};
    args a;
    memset(&a, 0, sizeof a);
    a.iters = 3;
    a.seed = 1;
    a.lc = CZK_LC_DEFAULT;
    a.pce = CZK_PCE_MODE_OFF;
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "bench prove", usage, opts, &a, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_fc_shape shape;
    memset(&shape, 0, sizeof shape);
    if (!a.c1) {
        rc = czk_shape_resolve(&shape, &a.shape, "bench prove", usage);
        if (rc) return rc;
    } else if (a.shape.have_size || a.shape.have_custom) {
        return czk_cli_usage_error("bench prove", usage, "--c1 already fixes the shape");
    }
    return czk_bench_prove_run(&shape, a.c1, a.params, a.partition, a.iters, a.seed, a.lc, a.pce, &c, "bench prove");
}

CZK_BENCH(prove, "per-stage times of proving a PoRep partition", run)
