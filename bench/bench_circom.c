/* `czk bench circom`: czk's snarkjs-compatible prover on a circom circuit,
 * per stage in wall and CPU time (load, witness check, a/b, H transforms,
 * each MSM, total). Every proof is verified against the zkey's verifying key
 * before a time is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/circom.h"
#include "czk/czk.h"

static const char usage[] =
    "usage: czk bench circom --zkey K --wtns W [--r1cs R] [-i N] [--no-subgroup-check]\n"
    "                        [--make-zkey SEED] [--threads T] [--json]\n\n"
    "Time czk's Groth16 prover (snarkjs semantics) on a snarkjs .zkey and .wtns:\n"
    "loading (with point validation; wall and CPU), the witness check (--r1cs), then\n"
    "per prove stage (a/b sums, H transforms, the A, B1, B2, C and H MSMs, blinding,\n"
    "total) the wall and the process CPU time (all threads); -i N proofs (default 3)\n"
    "after one warm-up, min/median/max. Also how many A/B1/B2/C scalars were 0, +-1 or\n"
    "other. Each proof is verified before timing is shown.\n"
    "  --make-zkey SEED  first WRITE K from --r1cs with an INSECURE setup seeded by SEED\n"
    "                    (czk_circom_zkey_setup_insecure; for sizes whose snarkjs powers of\n"
    "                    tau take hours; snarkjs proves and verifies with it as usual)\n";

enum { OPT_ZKEY = CZK_OPT_FIRST_FREE, OPT_WTNS, OPT_R1CS, OPT_NOSUB, OPT_MAKE };

typedef struct bopts {
    const char *zkey, *wtns, *r1cs;
    long long iters, make_seed;
    int nosub, make;
} bopts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    bopts *o = ctx;
    switch (opt) {
    case OPT_ZKEY: o->zkey = arg; return 0;
    case OPT_WTNS: o->wtns = arg; return 0;
    case OPT_R1CS: o->r1cs = arg; return 0;
    case OPT_NOSUB: o->nosub = 1; return 0;
    case OPT_MAKE:
        if (czk_cli_parse_int(arg, 0, INT64_MAX, &o->make_seed))
            return czk_cli_usage_error("bench circom", usage, "--make-zkey wants a seed, got '%s'", arg);
        o->make = 1;
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 1000, &o->iters))
            return czk_cli_usage_error("bench circom", usage, "-i wants 1..1000, got '%s'", arg);
        return 0;
    default: return czk_cli_usage_error("bench circom", usage, "unexpected option");
    }
}

#define NSTAGE CZK_CIRCOM_NSTAGES

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"zkey", required_argument, 0, OPT_ZKEY}, {"wtns", required_argument, 0, OPT_WTNS},
        {"r1cs", required_argument, 0, OPT_R1CS}, {"iters", required_argument, 0, 'i'},
        {"no-subgroup-check", no_argument, 0, OPT_NOSUB}, {"make-zkey", required_argument, 0, OPT_MAKE},
        {0, 0, 0, 0},
    };
    bopts o = {.iters = 3};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "bench circom", usage, opts, &o, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&c);
    if (!o.zkey || !o.wtns) return czk_cli_usage_error("bench circom", usage, "--zkey and --wtns are required");
    czk_init();
    if (o.make) {
        if (!o.r1cs) return czk_cli_usage_error("bench circom", usage, "--make-zkey needs --r1cs");
        czk_circom_r1cs r;
        czk_status s = czk_circom_r1cs_read(&r, o.r1cs);
        if (s != CZK_OK) return czk_cli_fail("bench circom", s, "reading the r1cs");
        czk_rng mr;
        czk_rng_seed(&mr, (uint64_t)o.make_seed);
        double m0 = czk_now();
        s = czk_circom_zkey_setup_insecure(o.zkey, &r, &mr);
        czk_circom_r1cs_clear(&r);
        if (s != CZK_OK) return czk_cli_fail("bench circom", s, "insecure setup");
        if (!c.json) printf("# wrote %s with an INSECURE setup (seed %lld) in %.2f s\n", o.zkey, o.make_seed,
                            czk_now() - m0);
    }

    double t0 = czk_now(), c0 = czk_cpu_now();
    czk_circom_zkey z;
    czk_status s = czk_circom_zkey_read(&z, o.zkey, o.nosub ? CZK_CIRCOM_NO_SUBGROUP_CHECK : 0);
    if (s != CZK_OK) return czk_cli_fail("bench circom", s, "reading the zkey");
    double t1 = czk_now(), c1 = czk_cpu_now();
    czk_circom_wtns w;
    s = czk_circom_wtns_read(&w, o.wtns);
    if (s != CZK_OK) {
        czk_circom_zkey_clear(&z);
        return czk_cli_fail("bench circom", s, "reading the witness");
    }
    double t2w = czk_now(), t2 = t2w, t3 = t2;
    int status = CZK_EXIT_FAIL;
    double *v = NULL;
    if (o.r1cs) {
        czk_circom_r1cs r;
        s = czk_circom_r1cs_read(&r, o.r1cs);
        double tc = czk_now();
        if (s == CZK_OK) s = czk_circom_r1cs_check(&r, w.w, w.n, NULL);
        t3 = czk_now();
        t2 = tc;
        czk_circom_r1cs_clear(&r);
        if (s != CZK_OK) {
            czk_cli_fail("bench circom", s, "witness check");
            goto out;
        }
    }
    char extra[160];
    snprintf(extra, sizeof extra, "%s: %u signals, %u public, domain 2^%u", o.zkey, z.n_vars, z.n_public, z.log_n);
    czk_circom_vk vk;
    czk_circom_zkey_vk(&vk, &z);
    size_t it = (size_t)o.iters;
    v = malloc(sizeof(double) * 2 * NSTAGE * it);
    if (!v) goto out;
    czk_rng rng;
    czk_rng_seed(&rng, 0xc12c0);
    size_t cnt[3] = {0, 0, 0};
    for (size_t k = 0; k <= it; k++) {
        czk_groth16_proof pr;
        czk_circom_timings tm;
        s = czk_circom_prove(&pr, &z, w.w, w.n, &rng, c.threads, &tm);
        if (s == CZK_OK) s = czk_circom_verify(&vk, &pr, w.w + 1, z.n_public);
        if (s != CZK_OK) {
            fprintf(stderr, "czk bench circom: self-check FAILED (proof %zu): %s\n", k, czk_last_error());
            goto out;
        }
        if (k == 0) continue; /* warm-up */
        for (int i = 0; i < NSTAGE; i++) {
            v[(size_t)i * it + k - 1] = tm.wall[i];
            v[(size_t)(NSTAGE + i) * it + k - 1] = tm.cpu[i];
        }
        cnt[0] = tm.n_zero, cnt[1] = tm.n_one, cnt[2] = tm.n_rest;
    }
    if (c.json) {
        printf("{");
        czk_bench_print_config(stdout, 1, "circom", extra);
        printf(",\"subgroup_checks\":%s,\"load_zkey_s\":%.6g,\"load_zkey_cpu_s\":%.6g,\"load_wtns_s\":%.6g,"
               "\"witness_check_s\":%.6g,\"scalars_zero\":%zu,\"scalars_pm1\":%zu,\"scalars_other\":%zu,\"stages\":[",
               o.nosub ? "false" : "true", t1 - t0, c1 - c0, t2w - t1, o.r1cs ? t3 - t2 : 0.0, cnt[0], cnt[1],
               cnt[2]);
    } else {
        czk_bench_print_config(stdout, 0, "circom", extra);
        char b1[32], b2[32], b3[32];
        printf("load zkey    %10s wall %10s CPU (%s)\nload wtns    %10s wall\n", czk_bench_fmt_time(b1, t1 - t0),
               czk_bench_fmt_time(b3, c1 - c0), o.nosub ? "on-curve checks" : "on-curve + subgroup checks",
               czk_bench_fmt_time(b2, t2w - t1));
        if (o.r1cs) printf("witness check %9s (r1cs read excluded)\n", czk_bench_fmt_time(b3, t3 - t2));
        printf("A, B1, B2, C scalars: %zu zero (skipped), %zu +-1 (plain additions), %zu other (Pippenger)\n",
               cnt[0], cnt[1], cnt[2]);
        printf("%-14s %10s %10s %10s | %10s %10s %10s   (%zu proofs, each verified)\n", "stage", "wall min",
               "median", "max", "CPU min", "median", "max", it);
    }
    for (int i = 0; i < NSTAGE; i++) {
        czk_bench_stats sw, sc;
        czk_bench_stats_of(&sw, v + (size_t)i * it, it);
        czk_bench_stats_of(&sc, v + (size_t)(NSTAGE + i) * it, it);
        if (c.json)
            printf("%s{\"stage\":\"%s\",\"min_s\":%.6g,\"median_s\":%.6g,\"max_s\":%.6g,\"cpu_min_s\":%.6g,"
                   "\"cpu_median_s\":%.6g,\"cpu_max_s\":%.6g}",
                   i ? "," : "", czk_circom_stage_name(i), sw.min, sw.median, sw.max, sc.min, sc.median, sc.max);
        else {
            char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
            printf("%-14s %10s %10s %10s | %10s %10s %10s\n", czk_circom_stage_name(i), czk_bench_fmt_time(b1, sw.min),
                   czk_bench_fmt_time(b2, sw.median), czk_bench_fmt_time(b3, sw.max), czk_bench_fmt_time(b4, sc.min),
                   czk_bench_fmt_time(b5, sc.median), czk_bench_fmt_time(b6, sc.max));
        }
    }
    if (c.json) printf("],\"peak_rss\":%llu}\n", czk_bench_peak_rss());
    status = CZK_EXIT_OK;
out:
    free(v);
    czk_circom_wtns_clear(&w);
    czk_circom_zkey_clear(&z);
    return status;
}

CZK_BENCH(circom, "snarkjs-compatible Groth16 prover on a circom .zkey/.wtns, per stage", run)
