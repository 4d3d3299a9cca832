/* czk bench setup: the Groth16 setup's fixed-base multiplication
 * (src/groth16/fixed_base.c), table and points timed apart, every run's
 * points checked on a sample against czk_g1_mul_var / czk_g2_mul_var. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/ec.h"
#include "czk/field.h"
#include "groth16/fixed_base.h"

static const char usage[] =
    "usage: czk bench setup [--curve g1|g2] [--size N ...] [-i N] [--window C]\n"
    "                       [--threads T] [--json] [--quiet]\n\n"
    "Time the fixed-base multiplication of czk setup: building the window table\n"
    "of the generator, then N uniformly random scalars times the generator (the\n"
    "first ones 0, 1, r - 1 and scalars with all-ones or single windows). After\n"
    "each run 256 of the points (the edge scalars and a spread sample) are\n"
    "compared with czk_g1_mul_var / czk_g2_mul_var before a time is printed.\n"
    "Prints min / median / max wall seconds of the points, their CPU seconds,\n"
    "points/s, nanoseconds of CPU per point, the table's window, size and time.\n\n"
    "  --curve g1|g2     group (default g1)\n"
    "  --size N          points, e.g. 2^20, 1M (repeatable; default 2^20)\n"
    "  -i, --iters N     timed repetitions after one warm-up (default 3)\n"
    "  --window C        force the window 1..22 (default: the setup's cost model)\n";

enum { OPT_CURVE = CZK_OPT_FIRST_FREE, OPT_SIZE, OPT_WINDOW };

#define MAX_SIZES 16
#define SAMPLE 256
#define N_EDGE 12

typedef struct opts {
    int g2;
    long long iters, window;
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
        else return czk_cli_usage_error("bench setup", usage, "--curve wants g1 or g2, got '%s'", arg);
        return 0;
    case OPT_SIZE:
        if (czk_cli_parse_size(arg, &v) || v < N_EDGE || v > (1ull << 28))
            return czk_cli_usage_error("bench setup", usage, "--size wants %d..2^28, got '%s'", N_EDGE, arg);
        if (o->nsizes == MAX_SIZES)
            return czk_cli_usage_error("bench setup", usage, "at most %d --size options", MAX_SIZES);
        o->sizes[o->nsizes++] = (size_t)v;
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 1000, &o->iters))
            return czk_cli_usage_error("bench setup", usage, "--iters wants 1..1000, got '%s'", arg);
        return 0;
    case OPT_WINDOW:
        if (czk_cli_parse_int(arg, 1, CZK__FB_MAX_WINDOW, &o->window))
            return czk_cli_usage_error("bench setup", usage, "--window wants 1..%d, got '%s'", CZK__FB_MAX_WINDOW,
                                       arg);
        return 0;
    }
    return czk_cli_usage_error("bench setup", usage, "unexpected option");
}

/* Random scalars, the first N_EDGE of them edge cases for window c. */
static void make_scalars(czk_fr *k, size_t n, unsigned c, int nt)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (size_t lo = 0; lo < n; lo += 4096) {
        czk_rng r;
        czk_rng_seed_stream(&r, 0x5e7u + n, lo);
        for (size_t i = lo; i < lo + 4096 && i < n; i++) czk_fr_random(&k[i], &r);
    }
    uint64_t l[4] = {0};
    czk_fr_from_u64(&k[0], 0);
    czk_fr_from_u64(&k[1], 1);
    czk_fr_neg(&k[2], &k[1]);                         /* r - 1 */
    czk_fr_from_u64(&k[3], ((uint64_t)1 << c) - 1);   /* one full window */
    l[0] = l[1] = l[2] = ~(uint64_t)0, l[3] = ~(uint64_t)0 >> 2;
    czk_fr_from_limbs_reduce(&k[4], l);               /* 2^254 - 1: every window all ones */
    memset(l, 0, sizeof l);
    l[3] = (uint64_t)1 << 62;
    czk_fr_from_limbs_reduce(&k[5], l);               /* 2^254: the top window alone */
    czk_fr_sub(&k[6], &k[5], &k[1]);                  /* 2^254 - 1 again, by subtraction */
    k[7] = k[8];                                      /* equal scalars side by side */
    czk_fr_add(&k[9], &k[2], &k[2]);                  /* r - 2 */
    l[3] = 0, l[0] = (uint64_t)1 << (c % 64);
    czk_fr_from_limbs_reduce(&k[10], l);              /* 2^c: the second window alone */
    czk_fr_neg(&k[11], &k[10]);                       /* r - 2^c */
}

/* Compare the sample of points with czk_*_mul_var; 1 if all agree. */
static int check(const void *out, const czk_fr *k, size_t n, int g2)
{
    int ok = 1;
#pragma omp parallel for schedule(dynamic, 8) reduction(& : ok)
    for (size_t s = 0; s < SAMPLE; s++) {
        size_t i = s < N_EDGE ? s : N_EDGE + (s - N_EDGE) * ((n - N_EDGE) / (SAMPLE - N_EDGE));
        if (i >= n) continue;
        if (g2) {
            czk_g2_affine g, r;
            czk_g2_jac j;
            czk_g2_generator(&g);
            czk_g2_jac_from_affine(&j, &g);
            czk_g2_mul_var(&j, &j, &k[i]);
            czk_g2_jac_to_affine(&r, &j);
            ok &= czk_g2_affine_eq(&r, (const czk_g2_affine *)out + i);
        } else {
            czk_g1_affine g, r;
            czk_g1_jac j;
            czk_g1_generator(&g);
            czk_g1_jac_from_affine(&j, &g);
            czk_g1_mul_var(&j, &j, &k[i]);
            czk_g1_jac_to_affine(&r, &j);
            ok &= czk_g1_affine_eq(&r, (const czk_g1_affine *)out + i);
        }
    }
    return ok;
}

static int run(int argc, char **argv)
{
    opts o = {.iters = 3};
    static const struct option lopts[] = {{"curve", required_argument, NULL, OPT_CURVE},
                                          {"size", required_argument, NULL, OPT_SIZE},
                                          {"iters", required_argument, NULL, 'i'},
                                          {"window", required_argument, NULL, OPT_WINDOW},
                                          {0, 0, 0, 0}};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "bench setup", usage, lopts, &o, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_cli_apply_common(&c);
    czk_init();
    if (o.nsizes == 0) o.sizes[o.nsizes++] = (size_t)1 << 20;
    const int nt = czk_threads();
    const char *curve = o.g2 ? "g2" : "g1";
    char extra[96];
    snprintf(extra, sizeof extra, "%s, window %s", curve, o.window ? "forced" : "cost model");
    if (c.json) {
        printf("{");
        czk_bench_print_config(stdout, 1, "setup", extra);
        printf(",\"results\":[");
    } else {
        czk_bench_print_config(stdout, 0, "setup", extra);
        printf("%-9s %3s %10s %10s %10s %10s %12s %8s %6s %9s %10s\n", "size", "thr", "min", "median", "max", "cpu",
               "points/s", "cpu ns/pt", "window", "table MiB", "table s");
    }
    int status = CZK_EXIT_OK;
    for (int si = 0; si < o.nsizes; si++) {
        size_t n = o.sizes[si];
        unsigned w = o.window ? (unsigned)o.window : czk__fb_window(n, o.g2, (size_t)1 << 30);
        size_t psz = o.g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        void *out = malloc(n * psz);
        czk_fr *k = malloc(n * sizeof *k);
        double *v = malloc(3 * (size_t)o.iters * sizeof *v);
        if (!out || !k || !v) {
            free(out), free(k), free(v);
            fprintf(stderr, "czk bench setup: out of memory for %zu points\n", n);
            return CZK_EXIT_FAIL;
        }
        make_scalars(k, n, w, nt);
        double *tw = v, *tc = v + o.iters, *tt = v + 2 * o.iters;
        int ok = 1;
        czk_status st = CZK_OK;
        for (long long it = 0; it <= o.iters && ok && st == CZK_OK; it++) {
            czk__fb_table tb;
            czk_g1_affine g1;
            czk_g2_affine g2;
            czk_g1_generator(&g1);
            czk_g2_generator(&g2);
            memset(out, 0xa5, n * psz);
            double t0 = czk_now();
            st = o.g2 ? czk__fb_g2_table(&tb, &g2, w, nt) : czk__fb_g1_table(&tb, &g1, w, nt);
            if (st != CZK_OK) break;
            double t1 = czk_now(), c1 = czk_cpu_now();
            st = o.g2 ? czk__fb_g2_mul(out, k, n, &tb, nt, NULL) : czk__fb_g1_mul(out, k, n, &tb, nt, NULL);
            double t2 = czk_now(), c2 = czk_cpu_now();
            czk__fb_table_free(&tb);
            if (st != CZK_OK) break;
            ok = check(out, k, n, o.g2);
            if (it > 0) tw[it - 1] = t2 - t1, tc[it - 1] = c2 - c1, tt[it - 1] = t1 - t0;
        }
        if (st != CZK_OK) {
            free(out), free(k), free(v);
            return czk_cli_fail("bench setup", st, "fixed-base multiplication");
        }
        char sz[24];
        if ((n & (n - 1)) == 0) snprintf(sz, sizeof sz, "2^%d", __builtin_ctzll(n));
        else snprintf(sz, sizeof sz, "%zu", n);
        if (!ok) {
            fprintf(stderr, "czk bench setup: self-check FAILED for %s %s points (k G != czk_%s_mul_var)\n", curve,
                    sz, curve);
            status = CZK_EXIT_FAIL;
        } else {
            czk_bench_stats sw, sc, stt;
            czk_bench_stats_of(&sw, tw, (size_t)o.iters);
            czk_bench_stats_of(&sc, tc, (size_t)o.iters);
            czk_bench_stats_of(&stt, tt, (size_t)o.iters);
            double mib = (double)czk__fb_table_bytes(w, o.g2) / 1048576.0;
            if (c.json) {
                printf("%s{\"curve\":\"%s\",\"size\":%zu,\"threads\":%d,\"min_s\":%.6g,\"median_s\":%.6g,"
                       "\"max_s\":%.6g,\"cpu_median_s\":%.6g,\"points_per_s\":%.6g,\"cpu_ns_per_point\":%.6g,"
                       "\"window\":%u,\"table_mib\":%.1f,\"table_median_s\":%.6g}",
                       si ? "," : "", curve, n, nt, sw.min, sw.median, sw.max, sc.median, (double)n / sw.median,
                       sc.median / (double)n * 1e9, w, mib, stt.median);
            } else {
                char b1[32], b2[32], b3[32], b4[32], b5[32];
                printf("%-9s %3d %10s %10s %10s %10s %12.4g %8.0f %6u %9.1f %10s\n", sz, nt,
                       czk_bench_fmt_time(b1, sw.min), czk_bench_fmt_time(b2, sw.median),
                       czk_bench_fmt_time(b3, sw.max), czk_bench_fmt_time(b4, sc.median), (double)n / sw.median,
                       sc.median / (double)n * 1e9, w, mib, czk_bench_fmt_time(b5, stt.median));
            }
        }
        fflush(stdout);
        free(out), free(k), free(v);
    }
    if (c.json) printf("],\"peak_rss\":%llu}\n", czk_bench_peak_rss());
    return status;
}

CZK_BENCH(setup, "Groth16 setup's fixed-base multiplication on G1 / G2, checked against mul_var", run)
