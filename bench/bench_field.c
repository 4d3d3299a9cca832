/* czk bench field: latency and throughput of Fr / Fp operations per
 * implementation, each result checked against the portable path. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/field.h"
#include "ff/field_impl.h"

static const char usage[] =
    "usage: czk bench field [-i N] [--impl portable|adx|api|all] [--json] [--quiet]\n\n"
    "Time Fr (4 limbs) and Fp (6 limbs) mul, sqr, add, inv and inv_var, as a\n"
    "dependent chain (latency) and as 8 independent streams (throughput), for\n"
    "each implementation's own entry points (czk_fr_mul_portable, _adx ...;\n"
    "inversions run with that implementation selected) and for the public API\n"
    "(czk_fr_mul ... under the start-up selection; its add is inline asm on\n"
    "x86-64). Each timed run's result is checked against the portable\n"
    "implementation before a time is printed. Prints ns/op min / median / max.\n\n"
    "  -i, --iters N   samples per measurement (default 15)\n"
    "  --impl WHICH    portable, adx, api or all (default: all this CPU runs)\n";

enum { OPT_IMPL = CZK_OPT_FIRST_FREE, IMPL_API = 100 };

typedef struct opts {
    long long iters;
    int impl; /* -1 all, IMPL_API, or a czk_field_impl_kind */
} opts;

static int on_opt(void *ctx, int opt, const char *arg)
{
    opts *o = ctx;
    switch (opt) {
    case 'i':
        if (czk_cli_parse_int(arg, 1, 100000, &o->iters))
            return czk_cli_usage_error("bench field", usage, "--iters wants 1..100000, got '%s'",
                                       arg);
        return 0;
    case OPT_IMPL:
        if (strcmp(arg, "portable") == 0) o->impl = CZK_FIELD_PORTABLE;
        else if (strcmp(arg, "adx") == 0) o->impl = CZK_FIELD_ADX;
        else if (strcmp(arg, "api") == 0) o->impl = IMPL_API;
        else if (strcmp(arg, "all") == 0) o->impl = -1;
        else
            return czk_cli_usage_error("bench field", usage,
                                       "--impl wants portable|adx|api|all, got '%s'", arg);
        return 0;
    }
    return czk_cli_usage_error("bench field", usage, "unexpected option");
}

#define STREAMS 8

/* One kernel: runs `n` operations on state x[STREAMS] (with operands y) and
 * leaves the result in x. Latency kernels use x[0] only. */
typedef void (*kernel_fn)(void *x, const void *y, size_t n);

/* The hot operations a kernel calls: one implementation's entry points, or
 * the public dispatching API (czk_fr_mul ..., whose add/sub are inline). */
typedef struct hot_ops {
    void (*fr_mul)(czk_fr *, const czk_fr *, const czk_fr *);
    void (*fr_sqr)(czk_fr *, const czk_fr *);
    void (*fr_add)(czk_fr *, const czk_fr *, const czk_fr *);
    void (*fp_mul)(czk_fp *, const czk_fp *, const czk_fp *);
    void (*fp_sqr)(czk_fp *, const czk_fp *);
    void (*fp_add)(czk_fp *, const czk_fp *, const czk_fp *);
} hot_ops;

static const hot_ops OPS_PORTABLE = {czk_fr_mul_portable, czk_fr_sqr_portable, czk_fr_add_portable,
                                     czk_fp_mul_portable, czk_fp_sqr_portable, czk_fp_add_portable};
static const hot_ops OPS_ADX = {czk_fr_mul_adx, czk_fr_sqr_adx, czk_fr_add_adx,
                                czk_fp_mul_adx, czk_fp_sqr_adx, czk_fp_add_adx};
static const hot_ops OPS_API = {czk_fr_mul, czk_fr_sqr, czk_fr_add,
                                czk_fp_mul, czk_fp_sqr, czk_fp_add};
static const hot_ops *ops = &OPS_API;

#define FIELD_KERNELS(f, T)                                                             \
    static void f##_mul_lat(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i++) ops->f##_mul(&x[0], &x[0], &y[0]);               \
    }                                                                                   \
    static void f##_mul_thr(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i += STREAMS)                                         \
            for (int j = 0; j < STREAMS; j++) ops->f##_mul(&x[j], &x[j], &y[j]);        \
    }                                                                                   \
    static void f##_sqr_lat(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        for (size_t i = 0; i < n; i++) ops->f##_sqr(&x[0], &x[0]);                      \
    }                                                                                   \
    static void f##_sqr_thr(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        for (size_t i = 0; i < n; i += STREAMS)                                         \
            for (int j = 0; j < STREAMS; j++) ops->f##_sqr(&x[j], &x[j]);               \
    }                                                                                   \
    static void f##_add_lat(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i++) ops->f##_add(&x[0], &x[0], &y[0]);               \
    }                                                                                   \
    static void f##_add_thr(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i += STREAMS)                                         \
            for (int j = 0; j < STREAMS; j++) ops->f##_add(&x[j], &x[j], &y[j]);        \
    }                                                                                   \
    /* x <- x^-1 + y keeps the chain from cycling between two values; the    \
     * inversion's internal multiplications follow czk_field_select() */              \
    static void f##_inv_lat(void *xv, const void *yv, size_t n)                         \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i++) {                                                \
            czk_##f##_inv(&x[0], &x[0]);                                                \
            czk_##f##_add(&x[0], &x[0], &y[0]);                                         \
        }                                                                               \
    }                                                                                   \
    static void f##_inv_var_lat(void *xv, const void *yv, size_t n)                     \
    {                                                                                   \
        T *x = xv;                                                                      \
        const T *y = yv;                                                                \
        for (size_t i = 0; i < n; i++) {                                                \
            czk_##f##_inv_var(&x[0], &x[0]);                                            \
            czk_##f##_add(&x[0], &x[0], &y[0]);                                         \
        }                                                                               \
    }

FIELD_KERNELS(fr, czk_fr)
FIELD_KERNELS(fp, czk_fp)

typedef struct bench_case {
    const char *field, *op, *mode;
    kernel_fn fn;
    size_t elem; /* sizeof element */
    size_t n;    /* operations per sample */
} bench_case;

static const bench_case cases[] = {
    {"fr", "mul", "latency", fr_mul_lat, sizeof(czk_fr), 40000},
    {"fr", "mul", "throughput", fr_mul_thr, sizeof(czk_fr), 40000},
    {"fr", "sqr", "latency", fr_sqr_lat, sizeof(czk_fr), 40000},
    {"fr", "sqr", "throughput", fr_sqr_thr, sizeof(czk_fr), 40000},
    {"fr", "add", "latency", fr_add_lat, sizeof(czk_fr), 80000},
    {"fr", "add", "throughput", fr_add_thr, sizeof(czk_fr), 80000},
    {"fr", "inv", "latency", fr_inv_lat, sizeof(czk_fr), 200},
    {"fr", "inv_var", "latency", fr_inv_var_lat, sizeof(czk_fr), 400},
    {"fp", "mul", "latency", fp_mul_lat, sizeof(czk_fp), 20000},
    {"fp", "mul", "throughput", fp_mul_thr, sizeof(czk_fp), 20000},
    {"fp", "sqr", "latency", fp_sqr_lat, sizeof(czk_fp), 20000},
    {"fp", "sqr", "throughput", fp_sqr_thr, sizeof(czk_fp), 20000},
    {"fp", "add", "latency", fp_add_lat, sizeof(czk_fp), 80000},
    {"fp", "add", "throughput", fp_add_thr, sizeof(czk_fp), 80000},
    {"fp", "inv", "latency", fp_inv_lat, sizeof(czk_fp), 100},
    {"fp", "inv_var", "latency", fp_inv_var_lat, sizeof(czk_fp), 200},
};
#define NCASES (sizeof cases / sizeof cases[0])

static void seed_inputs(const bench_case *c, void *x, void *y)
{
    czk_rng rng;
    czk_rng_seed(&rng, 0x6669656c64ULL);
    for (int j = 0; j < STREAMS; j++) {
        if (c->elem == sizeof(czk_fr)) {
            czk_fr_random((czk_fr *)x + j, &rng);
            czk_fr_random((czk_fr *)y + j, &rng);
        } else {
            czk_fp_random((czk_fp *)x + j, &rng);
            czk_fp_random((czk_fp *)y + j, &rng);
        }
    }
}

/* The result of one sample's worth of work, computed with the portable path. */
static void reference(const bench_case *c, void *out)
{
    czk_fp y[STREAMS];
    czk_field_impl_kind saved = czk_field_impl();
    if (czk_field_select(CZK_FIELD_PORTABLE) != CZK_OK) abort();
    ops = &OPS_PORTABLE;
    seed_inputs(c, out, y);
    c->fn(out, y, c->n);
    if (czk_field_select(saved) != CZK_OK) abort();
}

int czk_bench_field_main(int argc, char **argv)
{
    opts o = {15, -1};
    static const struct option lopts[] = {
        {"iters", required_argument, 0, 'i'},
        {"impl", required_argument, 0, OPT_IMPL},
        {0, 0, 0, 0},
    };
    czk_cli_common com;
    int rc = czk_cli_parse(argc, argv, "bench field", usage, lopts, &o, on_opt, &com, NULL);
    if (rc != CZK_CLI_CONTINUE) return rc;
    czk_init();
    czk_field_impl_kind initial = czk_field_impl();
    int can_adx = czk_cpu_has_adx() && czk_cpu_has_bmi2();
    if (o.impl == CZK_FIELD_ADX && !can_adx) {
        fprintf(stderr, "czk bench field: this CPU lacks ADX/BMI2\n");
        return CZK_EXIT_FAIL;
    }
    /* variants: each implementation's entry points (inversions under that
     * selection), then the public API under the start-up selection */
    struct variant {
        const char *name;
        czk_field_impl_kind sel;
        const hot_ops *ops;
    } vars[3];
    int nvar = 0;
    if (o.impl == -1 || o.impl == CZK_FIELD_PORTABLE)
        vars[nvar++] = (struct variant){"portable", CZK_FIELD_PORTABLE, &OPS_PORTABLE};
    if ((o.impl == -1 && can_adx) || o.impl == CZK_FIELD_ADX)
        vars[nvar++] = (struct variant){"adx", CZK_FIELD_ADX, &OPS_ADX};
    if (o.impl == -1 || o.impl == IMPL_API)
        vars[nvar++] = (struct variant){"api", initial, &OPS_API};

    FILE *out = stdout;
    if (com.json) {
        fprintf(out, "{");
        czk_bench_print_config(out, 1, "bench", "field");
        fprintf(out, ",\"results\":[");
    } else {
        czk_bench_print_config(out, 0, "bench", "field");
        fprintf(out, "# ns/op over %lld samples; throughput = %d independent streams\n", o.iters,
                STREAMS);
        fprintf(out, "%-5s %-8s %-9s %-11s %10s %10s %10s\n", "field", "op", "impl", "mode", "min",
                "median", "max");
    }
    double *t = malloc(sizeof(double) * (size_t)o.iters);
    if (!t) return czk_cli_fail("bench field", CZK_ERR_NOMEM, "allocating samples");
    int first = 1, failed = 0;
    for (int vi = 0; vi < nvar && !failed; vi++) {
        const struct variant *v = &vars[vi];
        for (size_t ci = 0; ci < NCASES; ci++) {
            const bench_case *c = &cases[ci];
            czk_fp x[STREAMS], y[STREAMS], want[STREAMS];
            reference(c, want);
            if (czk_field_select(v->sel) != CZK_OK) {
                failed = 1;
                break;
            }
            ops = v->ops;
            seed_inputs(c, x, y);
            c->fn(x, y, c->n); /* warm-up, and the checked run */
            if (memcmp(x, want, c->elem * STREAMS) != 0) {
                fprintf(stderr, "czk bench field: %s %s %s (%s) disagrees with the portable path\n",
                        c->field, c->op, c->mode, v->name);
                failed = 1;
                break;
            }
            for (long long s = 0; s < o.iters; s++) {
                double t0 = czk_now();
                c->fn(x, y, c->n);
                t[s] = (czk_now() - t0) * 1e9 / (double)c->n;
            }
            czk_bench_stats st;
            czk_bench_stats_of(&st, t, (size_t)o.iters);
            if (com.json) {
                fprintf(out,
                        "%s{\"field\":\"%s\",\"op\":\"%s\",\"impl\":\"%s\",\"mode\":\"%s\","
                        "\"ops\":%zu,\"samples\":%lld,\"ns_min\":%.3f,\"ns_median\":%.3f,"
                        "\"ns_max\":%.3f}",
                        first ? "" : ",", c->field, c->op, v->name, c->mode,
                        c->n, o.iters, st.min, st.median, st.max);
            } else {
                fprintf(out, "%-5s %-8s %-9s %-11s %10.2f %10.2f %10.2f\n", c->field, c->op,
                        v->name, c->mode, st.min, st.median, st.max);
            }
            first = 0;
        }
    }
    free(t);
    if (czk_field_select(initial) != CZK_OK) failed = 1;
    if (com.json) fprintf(out, "],\"ok\":%s}\n", failed ? "false" : "true");
    return failed ? CZK_EXIT_FAIL : CZK_EXIT_OK;
}

CZK_BENCH(field, "Fr/Fp mul, sqr, add, inverse: latency and throughput per implementation",
          czk_bench_field_main)
