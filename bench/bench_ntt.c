/* czk bench ntt: forward NTT (or coset NTT) over Fr, against the time its
 * multiplications alone take at the Fr multiplication rate measured in the
 * same run. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/ntt.h"
#include "czk/perf.h"

static const char usage[] =
    "usage: czk bench ntt [--size N]... [-i N] [--threads T] [--coset | --h] [--radix2]\n"
    "                     [--block-log B] [--family gen7|nqr5] [--json] [--quiet]\n\n"
    "Time the in-place forward NTT (natural order in and out) of --size elements\n"
    "(a power of two: 2^16, 65536, 64K; repeatable; default 2^16 and 2^20). Each\n"
    "timed run starts from the same random input; afterwards the result is checked\n"
    "against Horner evaluation at a few roots and by an inverse round trip, before\n"
    "a time is printed. Prints min / median / max seconds, elements/s, and the\n"
    "\"mul bound\": n/2 log2 n Fr multiplications at the czk_fr_mul throughput\n"
    "measured on T threads right before each timed run, and the median over the\n"
    "runs of (run time / its bound); cpu-r is the same ratio in process CPU time\n"
    "(robust when other processes share the cores).\n\n"
    "  --size N        transform size, a power of two up to 2^30 (repeatable)\n"
    "  -i, --iters N   timed repetitions per size (default 5; 1 warm-up run first)\n"
    "  --coset         time the coset NTT (shift 7: a_i *= 7^i, then forward)\n"
    "  --h             time bellperson's whole H step (czk_ntt_groth16_h: 7 NTTs on\n"
    "                  a, b, c = a*b); the bound is 7 n/2 log2 n multiplications;\n"
    "                  checked by h(x)(x^n - 1) = A(x)B(x) - C(x) at a random x\n"
    "  --radix2        one level at a time inside cache blocks (default: two)\n"
    "  --block-log B   log2 of the in-cache block (default 14)\n"
    "  --family F      gen7 (bellperson roots, default) or nqr5 (snarkjs roots)\n";

enum { OPT_SIZE = CZK_OPT_FIRST_FREE, OPT_COSET, OPT_H, OPT_RADIX2, OPT_BLOCK, OPT_FAMILY };

#define MAX_SIZES 16

typedef struct opts {
    unsigned logs[MAX_SIZES];
    int nsizes;
    long long iters;
    int coset, h, radix2;
    long long block_log;
    czk_ntt_roots family;
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    unsigned long long v;
    switch (opt) {
    case OPT_SIZE:
        if (czk_cli_parse_size(arg, &v) || v == 0 || (v & (v - 1)) || v > (1ULL << 30))
            return czk_cli_usage_error("bench ntt", usage, "--size wants a power of two <= 2^30, got '%s'", arg);
        if (o->nsizes == MAX_SIZES)
            return czk_cli_usage_error("bench ntt", usage, "at most %d --size options", MAX_SIZES);
        o->logs[o->nsizes++] = (unsigned)__builtin_ctzll(v);
        return 0;
    case 'i':
        if (czk_cli_parse_int(arg, 1, 10000, &o->iters))
            return czk_cli_usage_error("bench ntt", usage, "--iters wants 1..10000, got '%s'", arg);
        return 0;
    case OPT_COSET: o->coset = 1; return 0;
    case OPT_H: o->h = 1; return 0;
    case OPT_RADIX2: o->radix2 = 1; return 0;
    case OPT_BLOCK:
        if (czk_cli_parse_int(arg, 4, 20, &o->block_log))
            return czk_cli_usage_error("bench ntt", usage, "--block-log wants 4..20, got '%s'", arg);
        return 0;
    case OPT_FAMILY:
        if (strcmp(arg, "gen7") == 0) o->family = CZK_NTT_ROOTS_GEN7;
        else if (strcmp(arg, "nqr5") == 0) o->family = CZK_NTT_ROOTS_NQR5;
        else return czk_cli_usage_error("bench ntt", usage, "--family wants gen7|nqr5, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("bench ntt", usage, "unexpected option");
}

#define MUL_STREAMS 8
#define MUL_OPS 200000
#define MUL_REPS 3

/* Returns the wall-clock rate; *cpu_rate gets multiplications per second of
 * process CPU time (insensitive to other processes taking the cores). */
static double measure_mul_rate(int nt, int *ok, double *cpu_rate)
{
    double vc[MUL_REPS];
    double v[MUL_REPS];
    czk_fr expect[MUL_STREAMS];
    int good = 1;
    for (int rep = 0; rep < MUL_REPS; rep++) {
        double t0 = 0, t1 = 0, c0 = 0, c1 = 0;
#pragma omp parallel num_threads(nt)
        {
            czk_rng rng;
            czk_rng_seed(&rng, 99);
            czk_fr x[MUL_STREAMS], y[MUL_STREAMS];
            for (int j = 0; j < MUL_STREAMS; j++) {
                czk_fr_random(&x[j], &rng);
                czk_fr_random(&y[j], &rng);
            }
#pragma omp barrier
#pragma omp master
            {
                c0 = czk_cpu_now();
                t0 = czk_now();
            }
            for (size_t i = 0; i < MUL_OPS; i += MUL_STREAMS)
                for (int j = 0; j < MUL_STREAMS; j++) czk_fr_mul(&x[j], &x[j], &y[j]);
#pragma omp barrier
#pragma omp master
            {
                t1 = czk_now();
                c1 = czk_cpu_now();
                if (rep == 0) memcpy(expect, x, sizeof x);
                else if (memcmp(expect, x, sizeof x) != 0) good = 0;
            }
        }
        v[rep] = (double)MUL_OPS * nt / (t1 - t0);
        vc[rep] = (double)MUL_OPS * nt / (c1 - c0);
    }
    /* the chain x_j * y_j^(ops/streams) recomputed with pow */
    czk_rng rng;
    czk_rng_seed(&rng, 99);
    for (int j = 0; j < MUL_STREAMS; j++) {
        czk_fr x, y, p;
        czk_fr_random(&x, &rng);
        czk_fr_random(&y, &rng);
        czk_fr_pow_u64(&p, &y, MUL_OPS / MUL_STREAMS);
        czk_fr_mul(&x, &x, &p);
        if (!czk_fr_eq(&x, &expect[j])) good = 0;
    }
    *ok = good;
    czk_bench_stats s;
    czk_bench_stats_of(&s, vc, MUL_REPS);
    if (cpu_rate) *cpu_rate = s.median;
    czk_bench_stats_of(&s, v, MUL_REPS);
    return s.median;
}

static void fill_random_par(czk_fr *x, size_t n, uint64_t seed, int nt)
{
#pragma omp parallel for schedule(static) num_threads(nt)
    for (size_t i = 0; i < n; i += 4096) {
        czk_rng r2;
        czk_rng_seed_stream(&r2, seed, i);
        for (size_t j = i; j < i + 4096 && j < n; j++) czk_fr_random(&x[j], &r2);
    }
}

/* P(x) by Horner. */
static void horner(czk_fr *r, const czk_fr *p, size_t n, const czk_fr *x)
{
    czk_fr acc = CZK_FR_ZERO;
    for (size_t j = n; j-- > 0;) {
        czk_fr_mul(&acc, &acc, x);
        czk_fr_add(&acc, &acc, &p[j]);
    }
    *r = acc;
}

/* Time czk_ntt_groth16_h on a = DFT(A), b = DFT(B), c = a b; check
 * h(x)(x^n - 1) = A(x)B(x) - C(x) at a random x (C = DFT^-1(c)). Returns 1
 * if the check passed, 0 if it failed, -1 on an error (message recorded). */
static int time_h(const czk_ntt_domain *d, unsigned k, int nt, long long iters, double *times, double *rates,
                  double *ratios, double *cratios, int *mul_ok)
{
    size_t n = (size_t)1 << k, bytes = n * sizeof(czk_fr);
    double muls = 7.0 * (double)n / 2 * k;
    czk_fr *v[7];
    int res = -1;
    for (int i = 0; i < 7; i++) v[i] = aligned_alloc(64, bytes);
    for (int i = 0; i < 7; i++)
        if (!v[i]) {
            czk_error(CZK_ERR_NOMEM, "bench ntt --h: 7 vectors of 2^%u elements", k);
            goto out;
        }
    czk_fr *A = v[0], *B = v[1], *ea = v[2], *eb = v[3], *a = v[4], *b = v[5], *c = v[6];
    fill_random_par(A, n, 0x41 + k, nt);
    fill_random_par(B, n, 0x42 + k, nt);
    memcpy(ea, A, bytes);
    memcpy(eb, B, bytes);
    if (czk_ntt_forward(d, ea, n) != CZK_OK || czk_ntt_forward(d, eb, n) != CZK_OK) goto out;
    for (long long it = 0; it <= iters; it++) {
        memcpy(a, ea, bytes);
        memcpy(b, eb, bytes);
        for (size_t i = 0; i < n; i++) czk_fr_mul(&c[i], &a[i], &b[i]);
        int rok;
        double crate, rate = measure_mul_rate(nt, &rok, &crate);
        *mul_ok &= rok;
        if (it > 0) czk_perf_begin();
        double c0 = czk_cpu_now(), t0 = czk_now();
        czk_status st = czk_ntt_groth16_h(d, a, b, c, n);
        double t1 = czk_now(), c1 = czk_cpu_now();
        if (it > 0) czk_perf_end();
        if (st != CZK_OK) goto out;
        if (it > 0) {
            times[it - 1] = t1 - t0;
            rates[it - 1] = rate;
            ratios[it - 1] = (t1 - t0) / (muls / rate);
            cratios[it - 1] = (c1 - c0) / (muls / crate);
        }
    }
    /* C = DFT^-1(ea eb) into b; check at a random point */
    for (size_t i = 0; i < n; i++) czk_fr_mul(&b[i], &ea[i], &eb[i]);
    if (czk_ntt_inverse(d, b, n) != CZK_OK) goto out;
    czk_rng rng;
    czk_rng_seed(&rng, 0x48 + k);
    czk_fr x, xa, xb, xc, xh, z;
    czk_fr_random(&x, &rng);
    horner(&xa, A, n, &x);
    horner(&xb, B, n, &x);
    horner(&xc, b, n, &x);
    horner(&xh, a, n, &x);
    czk_fr_pow_u64(&z, &x, n);
    czk_fr_sub(&z, &z, &CZK_FR_ONE);
    czk_fr_mul(&xh, &xh, &z);
    czk_fr_mul(&xa, &xa, &xb);
    czk_fr_sub(&xa, &xa, &xc);
    res = czk_fr_eq(&xa, &xh) && czk_fr_is_zero(&a[n - 1]);
out:
    for (int i = 0; i < 7; i++) free(v[i]);
    return res;
}

static int run(int argc, char **argv)
{
    opts o = {.iters = 5, .block_log = 14, .family = CZK_NTT_ROOTS_GEN7};
    static const struct option lopts[] = {
        {"size", required_argument, NULL, OPT_SIZE},   {"iters", required_argument, NULL, 'i'},
        {"coset", no_argument, NULL, OPT_COSET},       {"h", no_argument, NULL, OPT_H},
        {"radix2", no_argument, NULL, OPT_RADIX2},
        {"block-log", required_argument, NULL, OPT_BLOCK}, {"family", required_argument, NULL, OPT_FAMILY},
        {0, 0, 0, 0}};
    czk_cli_common c;
    int rc = czk_cli_parse(argc, argv, "bench ntt", usage, lopts, &o, on_opt, &c, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    if (o.coset && o.h) return czk_cli_usage_error("bench ntt", usage, "--coset and --h exclude each other");
    czk_cli_apply_common(&c);
    czk_init();
    if (o.nsizes == 0) {
        o.logs[0] = 16;
        o.logs[1] = 20;
        o.nsizes = 2;
    }
    int nt = czk_threads();
    char extra[96];
    snprintf(extra, sizeof extra, "%s, %s, block 2^%lld, roots %s", o.h ? "groth16 H step" : o.coset ? "coset forward" : "forward",
             o.radix2 ? "radix-2" : "radix-4 blocks", o.block_log, o.family ? "nqr5" : "gen7");

    int mul_ok;
    double mul_rate = measure_mul_rate(nt, &mul_ok, NULL);
    if (!mul_ok) {
        fprintf(stderr, "czk bench ntt: Fr multiplication self-check failed\n");
        return CZK_EXIT_FAIL;
    }
    if (c.json) {
        printf("{");
        czk_bench_print_config(stdout, 1, "ntt", extra);
        printf(",\"fr_mul_per_s\":%.6g,\"results\":[", mul_rate);
    } else {
        czk_bench_print_config(stdout, 0, "ntt", extra);
        printf("# czk_fr_mul throughput on %d thread(s): %.3g mul/s (%.2f ns per mul per thread)\n", nt,
               mul_rate, 1e9 * nt / mul_rate);
        printf("%-6s %3s %10s %10s %10s %12s %10s %6s %6s %9s\n", "size", "thr", "min", "median", "max", "elem/s",
               "mul bound", "ratio", "cpu-r", "twiddles");
    }
    int status = CZK_EXIT_OK;
    for (int si = 0; si < o.nsizes; si++) {
        unsigned k = o.logs[si];
        size_t n = (size_t)1 << k;
        czk_ntt_domain *d;
        czk_status st = czk_ntt_domain_create(&d, k, o.family);
        if (st != CZK_OK) return czk_cli_fail("bench ntt", st, "creating the domain");
        czk_ntt_domain_set_block_log(d, (unsigned)o.block_log);
        czk_ntt_domain_set_radix4(d, !o.radix2);
        czk_fr *x = aligned_alloc(64, n * sizeof(czk_fr)), *y = aligned_alloc(64, n * sizeof(czk_fr));
        if (!x || !y) {
            free(x), free(y), czk_ntt_domain_destroy(d);
            fprintf(stderr, "czk bench ntt: out of memory for 2 x 2^%u elements\n", k);
            return CZK_EXIT_FAIL;
        }
        czk_rng rng;
        czk_rng_seed(&rng, 0x6e7474 + k);
        if (!o.h) fill_random_par(x, n, 0x6e7474 + k, nt);
        double muls = (o.h ? 7.0 : 1.0) * (double)n / 2 * k;
        double *times = malloc(sizeof(double) * (size_t)(o.iters + 1) * 4), *ratios = times + o.iters + 1,
               *rates = ratios + o.iters + 1, *cratios = rates + o.iters + 1;
        int ok = 1;
        if (o.h) {
            int r = time_h(d, k, nt, o.iters, times, rates, ratios, cratios, &mul_ok);
            if (r < 0) {
                free(x), free(y), free(times), czk_ntt_domain_destroy(d);
                return czk_cli_fail("bench ntt", CZK_ERR_NOMEM, "H step");
            }
            ok = r;
        }
        for (long long it = 0; it <= o.iters && !o.h; it++) {
            memcpy(y, x, n * sizeof(czk_fr));
            /* the mul rate right before each run: the ratio stays meaningful
             * when other work shares the machine */
            int rok;
            double crate, rate = measure_mul_rate(nt, &rok, &crate);
            mul_ok &= rok;
            if (it > 0) czk_perf_begin();
            double c0 = czk_cpu_now(), t0 = czk_now();
            st = o.coset ? czk_ntt_coset_forward(d, y, n, NULL) : czk_ntt_forward(d, y, n);
            double t1 = czk_now(), c1 = czk_cpu_now();
            if (it > 0) czk_perf_end();
            if (st != CZK_OK) {
                free(x), free(y), free(times), czk_ntt_domain_destroy(d);
                return czk_cli_fail("bench ntt", st, "forward NTT");
            }
            if (it > 0) {
                times[it - 1] = t1 - t0;
                rates[it - 1] = rate;
                ratios[it - 1] = (t1 - t0) / (muls / rate);
                cratios[it - 1] = (c1 - c0) / (muls / crate);
            }
        }
        /* self-check: Horner at 3 points (0, n-1 and one more), then the round trip */
        czk_fr w, s7, pt;
        czk_ntt_domain_omega(&w, NULL, NULL, d);
        czk_fr_coset_gen(&s7);
        size_t idx[3] = {0, n - 1, (size_t)czk_rng_below(&rng, n)};
        for (int t = 0; t < 3 && !o.h; t++) {
            czk_fr acc = CZK_FR_ZERO;
            czk_fr_pow_u64(&pt, &w, idx[t]);
            if (o.coset) czk_fr_mul(&pt, &pt, &s7);
            for (size_t j = n; j-- > 0;) {
                czk_fr_mul(&acc, &acc, &pt);
                czk_fr_add(&acc, &acc, &x[j]);
            }
            ok &= czk_fr_eq(&acc, &y[idx[t]]);
        }
        if (!o.h) {
            st = o.coset ? czk_ntt_coset_inverse(d, y, n, NULL) : czk_ntt_inverse(d, y, n);
            ok &= st == CZK_OK && memcmp(x, y, n * sizeof(czk_fr)) == 0;
        }
        ok &= mul_ok;
        czk_bench_stats s, sr, sq, sc;
        czk_bench_stats_of(&sc, cratios, (size_t)o.iters);
        czk_bench_stats_of(&s, times, (size_t)o.iters);
        czk_bench_stats_of(&sr, ratios, (size_t)o.iters);
        czk_bench_stats_of(&sq, rates, (size_t)o.iters);
        double bound = muls / sq.median;
        size_t mem = czk_ntt_domain_memory(d);
        if (!ok) {
            fprintf(stderr, "czk bench ntt: self-check FAILED at 2^%u (Horner / round trip)\n", k);
            status = CZK_EXIT_FAIL;
        } else if (c.json) {
            printf("%s{\"log_size\":%u,\"threads\":%d,\"min_s\":%.6g,\"median_s\":%.6g,\"max_s\":%.6g,"
                   "\"elements_per_s\":%.6g,\"mul_bound_s\":%.6g,\"ratio\":%.4g,\"cpu_ratio\":%.4g,\"twiddle_bytes\":%zu,"
                   "\"op\":\"%s\",\"radix4\":%s,\"block_log\":%lld}",
                   si ? "," : "", k, nt, s.min, s.median, s.max, (double)n / s.median, bound, sr.median, sc.median,
                   mem, o.h ? "groth16_h" : o.coset ? "coset_forward" : "forward", o.radix2 ? "false" : "true", o.block_log);
        } else {
            char b1[32], b2[32], b3[32], b4[32], sz[16];
            snprintf(sz, sizeof sz, "2^%u", k);
            printf("%-6s %3d %10s %10s %10s %12.4g %10s %6.2f %6.2f %6.0f MiB\n", sz, nt, czk_bench_fmt_time(b1, s.min),
                   czk_bench_fmt_time(b2, s.median), czk_bench_fmt_time(b3, s.max), (double)n / s.median,
                   czk_bench_fmt_time(b4, bound), sr.median, sc.median, (double)mem / 1048576.0);
        }
        fflush(stdout);
        free(x), free(y), free(times);
        czk_ntt_domain_destroy(d);
    }
    if (c.json) printf("],\"peak_rss\":%llu}\n", czk_bench_peak_rss());
    return status;
}

CZK_BENCH(ntt, "forward / coset NTT over Fr against its multiplication bound", run)
