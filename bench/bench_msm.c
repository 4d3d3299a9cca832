/* czk bench msm: Pippenger MSM on G1 / G2, self-checked against the closed
 * form for bases i*G (the result must be (sum_i i s_i) G). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/ec.h"
#include "czk/msm.h"

static const char usage[] =
    "usage: czk bench msm [--curve g1|g2] [--size N ...] [-i N] [--window C]\n"
    "                     [--algo auto|xyzz|affine] [--multi K] [--threads T] [--json] [--quiet]\n\n"
    "Time czk_msm_g1_var / czk_msm_g2_var on bases i*G (i = 1..N) with uniformly\n"
    "random scalars. Each run's result is checked against (sum_i i s_i) G, computed\n"
    "in Fr, before a time is printed. Prints min / median / max seconds, points/s,\n"
    "and the plan the cost model chose (window c, point chunks, kernel).\n\n"
    "  --curve g1|g2     group (default g1)\n"
    "  --size N          number of points, e.g. 2^16, 65536, 1M (repeatable; default 2^16)\n"
    "  -i, --iters N     timed repetitions after one warm-up (default 3)\n"
    "  --window C        force the window size 1..20 (default: cost model)\n"
    "  --algo A          bucket kernel: auto (cost model), xyzz or affine (batch-affine)\n"
    "  --multi K         also time czk_msm_*_var_multi with K scalar sets (1..16) against\n"
    "                    K single calls in the same iteration; all K results are checked\n\n"
    "Times are wall seconds; the cpu column is the median process CPU seconds (all\n"
    "threads), steadier than wall time on a shared machine.\n";

enum { OPT_CURVE = CZK_OPT_FIRST_FREE, OPT_SIZE, OPT_WINDOW, OPT_ALGO, OPT_MULTI };

#define MAX_SIZES 16

typedef struct opts {
    int g2;
    long long iters, window, multi;
    czk_msm_algo algo;
    size_t sizes[MAX_SIZES];
    int nsizes;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    unsigned long long v;
    switch (opt) {
    case OPT_CURVE:
        if (strcmp(arg, "g1") == 0) o->g2 = 0;
        else if (strcmp(arg, "g2") == 0) o->g2 = 1;
        else return czk_cli_usage_error("bench msm", usage, "--curve wants g1 or g2, got '%s'", arg);
        return 0;
    case OPT_SIZE:
        if (czk_cli_parse_size(arg, &v) || v < 1 || v > (1ull << 28))
            return czk_cli_usage_error("bench msm", usage, "--size wants 1..2^28, got '%s'", arg);
        if (o->nsizes == MAX_SIZES)
            return czk_cli_usage_error("bench msm", usage, "at most %d --size options", MAX_SIZES);
        o->sizes[o->nsizes++] = (size_t)v;
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 1000, &o->iters))
            return czk_cli_usage_error("bench msm", usage, "--iters wants 1..1000, got '%s'", arg);
        return 0;
    case OPT_WINDOW:
        if (czk_cli_parse_int(arg, 1, CZK_MSM_MAX_WINDOW, &o->window))
            return czk_cli_usage_error("bench msm", usage, "--window wants 1..%d, got '%s'", CZK_MSM_MAX_WINDOW,
                                       arg);
        return 0;
    case OPT_MULTI:
        if (czk_cli_parse_int(arg, 1, 16, &o->multi))
            return czk_cli_usage_error("bench msm", usage, "--multi wants 1..16, got '%s'", arg);
        return 0;
    case OPT_ALGO:
        if (strcmp(arg, "auto") == 0) o->algo = CZK_MSM_AUTO;
        else if (strcmp(arg, "xyzz") == 0) o->algo = CZK_MSM_XYZZ;
        else if (strcmp(arg, "affine") == 0) o->algo = CZK_MSM_BATCH_AFFINE;
        else return czk_cli_usage_error("bench msm", usage, "--algo wants auto|xyzz|affine, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("bench msm", usage, "unexpected option");
}

#define CHUNK 4096

/* bases[i] = (i + 1) G, built in parallel chunks (chunk start by a scalar
 * multiplication, then additions, then one batched conversion per chunk). */
static int make_bases(void *bases, size_t n, int g2, int nt)
{
    int ok = 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) reduction(& : ok)
    for (size_t lo = 0; lo < n; lo += CHUNK) {
        size_t hi = lo + CHUNK < n ? lo + CHUNK : n, m = hi - lo;
        uint64_t k = (uint64_t)lo;
        if (!g2) {
            czk_g1_affine g;
            czk_g1_jac gj, acc, *j = malloc(m * sizeof *j);
            czk_fp *scr = malloc(m * sizeof *scr);
            if (!j || !scr) {
                free(j), free(scr);
                ok = 0;
                continue;
            }
            czk_g1_generator(&g);
            czk_g1_jac_from_affine(&gj, &g);
            czk_g1_mul_limbs_var(&acc, &gj, &k, 1);
            for (size_t i = 0; i < m; i++) {
                czk_g1_jac_add_affine(&acc, &acc, &g);
                j[i] = acc;
            }
            czk_g1_jac_batch_to_affine((czk_g1_affine *)bases + lo, j, m, scr);
            free(j), free(scr);
        } else {
            czk_g2_affine g;
            czk_g2_jac gj, acc, *j = malloc(m * sizeof *j);
            czk_fp2 *scr = malloc(m * sizeof *scr);
            if (!j || !scr) {
                free(j), free(scr);
                ok = 0;
                continue;
            }
            czk_g2_generator(&g);
            czk_g2_jac_from_affine(&gj, &g);
            czk_g2_mul_limbs_var(&acc, &gj, &k, 1);
            for (size_t i = 0; i < m; i++) {
                czk_g2_jac_add_affine(&acc, &acc, &g);
                j[i] = acc;
            }
            czk_g2_jac_batch_to_affine((czk_g2_affine *)bases + lo, j, m, scr);
            free(j), free(scr);
        }
    }
    return ok;
}

/* Random scalars and their closed form sum_i (i + 1) s_i. */
static void make_scalars(czk_fr *s, czk_fr *closed, size_t n, uint64_t seed, int nt)
{
    czk_fr acc = CZK_FR_ZERO;
#pragma omp parallel num_threads(nt)
    {
        czk_fr part = CZK_FR_ZERO, t, k;
#pragma omp for schedule(static)
        for (size_t lo = 0; lo < n; lo += CHUNK) {
            czk_rng r;
            czk_rng_seed_stream(&r, seed, lo);
            for (size_t i = lo; i < lo + CHUNK && i < n; i++) {
                czk_fr_random(&s[i], &r);
                czk_fr_from_u64(&k, (uint64_t)i + 1);
                czk_fr_mul(&t, &s[i], &k);
                czk_fr_add(&part, &part, &t);
            }
        }
#pragma omp critical
        czk_fr_add(&acc, &acc, &part);
    }
    *closed = acc;
}

/* One MSM over the first nsets scalar vectors (nsets == 0: a single
 * czk_msm_*_var call on set 0; nsets >= 1: czk_msm_*_var_multi), each
 * result checked against its closed form (sum_i (i + 1) s_i) G. */
static czk_status msm_once(int g2, int *ok, const void *bases, size_t n, czk_fr *const *s, const czk_fr *closed,
                           size_t nsets, const czk_msm_opts *mo, double *wall, double *cpu)
{
    size_t k = nsets ? nsets : 1;
    czk_g1_jac r1[16], w1, g1j;
    czk_g2_jac r2[16], w2, g2j;
    czk_status st;
    double t0 = czk_now(), c0 = czk_cpu_now();
    if (nsets == 0) {
        st = g2 ? czk_msm_g2_var(r2, bases, n, s[0], n, NULL, mo) : czk_msm_g1_var(r1, bases, n, s[0], n, NULL, mo);
    } else {
        st = g2 ? czk_msm_g2_var_multi(r2, nsets, bases, n, (const czk_fr *const *)s, n, NULL, mo)
                : czk_msm_g1_var_multi(r1, nsets, bases, n, (const czk_fr *const *)s, n, NULL, mo);
    }
    *wall = czk_now() - t0;
    *cpu = czk_cpu_now() - c0;
    if (st != CZK_OK) return st;
    for (size_t t = 0; t < k; t++) {
        if (g2) {
            czk_g2_affine g;
            czk_g2_generator(&g);
            czk_g2_jac_from_affine(&g2j, &g);
            czk_g2_mul_var(&w2, &g2j, &closed[t]);
            *ok &= czk_g2_jac_eq(&r2[t], &w2);
        } else {
            czk_g1_affine g;
            czk_g1_generator(&g);
            czk_g1_jac_from_affine(&g1j, &g);
            czk_g1_mul_var(&w1, &g1j, &closed[t]);
            *ok &= czk_g1_jac_eq(&r1[t], &w1);
        }
    }
    return CZK_OK;
}

static const char *algo_str(czk_msm_algo a)
{
    return a == CZK_MSM_XYZZ ? "xyzz" : a == CZK_MSM_BATCH_AFFINE ? "affine" : "auto";
}

/* One result row. */
static void print_row(int json, int first, const char *curve, const char *label, size_t n, const char *sz,
                      const czk_msm_plan *plan, double *times, double *cpus, size_t iters)
{
    czk_bench_stats st, sc;
    czk_bench_stats_of(&st, times, iters);
    czk_bench_stats_of(&sc, cpus, iters);
    if (json) {
        printf("%s{\"curve\":\"%s\",\"what\":\"%s\",\"size\":%zu,\"sets\":%u,\"threads\":%d,\"min_s\":%.6g,"
               "\"median_s\":%.6g,\"max_s\":%.6g,\"cpu_median_s\":%.6g,\"points_per_s\":%.6g,\"window\":%u,"
               "\"windows\":%u,\"chunks\":%u,\"algo\":\"%s\",\"batch\":%u,\"lanes\":%u,\"scratch_bytes\":%zu}",
               first ? "" : ",", curve, label, n, plan->sets, plan->threads, st.min, st.median, st.max, sc.median,
               (double)n / st.median, plan->window, plan->windows, plan->chunks, algo_str(plan->algo), plan->batch,
               plan->lanes, plan->scratch);
    } else {
        char b1[32], b2[32], b3[32], b4[32];
        printf("%-9s %-10s %3d %10s %10s %10s %10s %12.4g %6u %6u %6s %7u\n", sz, label, plan->threads,
               czk_bench_fmt_time(b1, st.min), czk_bench_fmt_time(b2, st.median), czk_bench_fmt_time(b3, st.max),
               czk_bench_fmt_time(b4, sc.median), (double)n / st.median, plan->window, plan->chunks,
               algo_str(plan->algo), plan->batch);
    }
}

static int run(int argc, char **argv)
{
    opts o = {.iters = 3};
    static const struct option lopts[] = {{"curve", required_argument, NULL, OPT_CURVE},
                                          {"size", required_argument, NULL, OPT_SIZE},
                                          {"iters", required_argument, NULL, 'i'},
                                          {"window", required_argument, NULL, OPT_WINDOW},
                                          {"algo", required_argument, NULL, OPT_ALGO},
                                          {"multi", required_argument, NULL, OPT_MULTI},
                                          {0, 0, 0, 0}};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "bench msm", usage, lopts, &o, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&c);
    czk_init();
    if (o.nsizes == 0) o.sizes[o.nsizes++] = (size_t)1 << 16;
    int nt = czk_threads();
    const char *curve = o.g2 ? "g2" : "g1";
    char extra[96];
    snprintf(extra, sizeof extra, "%s, algo %s, window %s", curve, algo_str(o.algo),
             o.window ? "forced" : "cost model");
    if (c.json) {
        printf("{");
        czk_bench_print_config(stdout, 1, "msm", extra);
        printf(",\"results\":[");
    } else {
        czk_bench_print_config(stdout, 0, "msm", extra);
        printf("%-9s %-10s %3s %10s %10s %10s %10s %12s %6s %6s %6s %7s\n", "size", "what", "thr", "min", "median",
               "max", "cpu", "points/s", "window", "chunks", "algo", "batch");
    }
    int status = CZK_EXIT_OK, first = 1;
    size_t K = (size_t)o.multi;
    for (int si = 0; si < o.nsizes; si++) {
        size_t n = o.sizes[si], ks = K ? K : 1;
        size_t psz = o.g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        void *bases = malloc(n * psz);
        czk_fr *s[16] = {0}, closed[16];
        int have = 1;
        for (size_t t = 0; t < ks; t++) have &= (s[t] = malloc(n * sizeof **s)) != NULL;
        size_t nt_times = (size_t)o.iters + 1;
        double *times = malloc(sizeof(double) * 4 * nt_times);
        czk_msm_opts mo = {.threads = nt, .window = (unsigned)o.window, .algo = o.algo};
        czk_msm_plan plan, mplan;
        if (o.g2) czk_msm_g2_plan(&plan, n, &mo);
        else czk_msm_g1_plan(&plan, n, &mo);
        mplan = plan;
        if (K && o.g2) czk_msm_g2_multi_plan(&mplan, n, K, &mo);
        else if (K) czk_msm_g1_multi_plan(&mplan, n, K, &mo);
        size_t ssz = plan.scratch > mplan.scratch ? plan.scratch : mplan.scratch;
        void *scratch = aligned_alloc(64, (ssz + 63) & ~(size_t)63);
        if (!bases || !have || !times || !scratch || !make_bases(bases, n, o.g2, nt)) {
            free(bases), free(times), free(scratch);
            for (size_t t = 0; t < ks; t++) free(s[t]);
            fprintf(stderr, "czk bench msm: out of memory for %zu points\n", n);
            return CZK_EXIT_FAIL;
        }
        mo.scratch = scratch;
        mo.scratch_size = ssz;
        for (size_t t = 0; t < ks; t++) make_scalars(s[t], &closed[t], n, 0x6d736d + n + 0x10000 * t, nt);
        /* times: single wall, single cpu, multi wall, multi cpu (K single calls summed) */
        double *tw = times, *tc = times + nt_times, *mw = times + 2 * nt_times, *mc = times + 3 * nt_times;
        int ok = 1;
        for (long long it = 0; it <= o.iters && ok; it++) {
            czk_status st = CZK_OK;
            double w = 0, cp = 0, sw = 0, sc = 0;
            for (size_t t = 0; t < ks && st == CZK_OK; t++) {
                czk_fr *one[1] = {s[t]};
                st = msm_once(o.g2, &ok, bases, n, one, &closed[t], 0, &mo, &w, &cp);
                sw += w, sc += cp;
            }
            if (st == CZK_OK && K) st = msm_once(o.g2, &ok, bases, n, s, closed, K, &mo, &w, &cp);
            if (st != CZK_OK) {
                free(bases), free(times), free(scratch);
                for (size_t t = 0; t < ks; t++) free(s[t]);
                return czk_cli_fail("bench msm", st, "msm");
            }
            if (it > 0) {
                tw[it - 1] = sw, tc[it - 1] = sc;
                mw[it - 1] = w, mc[it - 1] = cp;
            }
        }
        char sz[24];
        if ((n & (n - 1)) == 0) snprintf(sz, sizeof sz, "2^%d", __builtin_ctzll(n));
        else snprintf(sz, sizeof sz, "%zu", n);
        if (!ok) {
            fprintf(stderr, "czk bench msm: self-check FAILED for %s %s points (result != (sum i s_i) G)\n", curve,
                    sz);
            status = CZK_EXIT_FAIL;
        } else {
            char lab[32];
            if (K) snprintf(lab, sizeof lab, "%zux single", K);
            else snprintf(lab, sizeof lab, "single");
            print_row(c.json, first, curve, lab, n, sz, &plan, tw, tc, (size_t)o.iters);
            first = 0;
            if (K) {
                czk_bench_stats a, b;
                snprintf(lab, sizeof lab, "multi %zu", K);
                print_row(c.json, 0, curve, lab, n, sz, &mplan, mw, mc, (size_t)o.iters);
                czk_bench_stats_of(&a, tc, (size_t)o.iters);
                czk_bench_stats_of(&b, mc, (size_t)o.iters);
                if (!c.json)
                    printf("%-9s %zu single calls / one multi call: %.2fx CPU (median)\n", sz, K,
                           a.median / b.median);
            }
        }
        fflush(stdout);
        free(bases), free(times), free(scratch);
        for (size_t t = 0; t < ks; t++) free(s[t]);
    }
    if (c.json) printf("],\"peak_rss\":%llu}\n", czk_bench_peak_rss());
    return status;
}

CZK_BENCH(msm, "Pippenger MSM on G1 / G2, self-checked against a closed form", run)
