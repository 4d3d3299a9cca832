/* MSM: Pippenger (both bucket kernels, every window size, 1..many threads,
 * density masks) against the closed form for bases i*G, against the naive
 * sum of scalar multiplications, and on edge inputs (zero scalars, r - 1,
 * infinity, duplicate and negated bases, sparse and all-equal digits). */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/msm.h"
#include "msm/msm_internal.h"
#include "runner.h"

static int asan(void) { return getenv("CZK_TEST_ASAN") != NULL; }

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

/* ---- inputs ---------------------------------------------------------------- */

/* out[i] = (i + 1) G. */
static void g1_multiples(czk_g1_affine *out, size_t n)
{
    czk_g1_affine g;
    czk_g1_generator(&g);
    czk_g1_jac *j = xmalloc(n * sizeof *j);
    czk_fp *scr = xmalloc(n * sizeof *scr);
    czk_g1_jac acc;
    czk_g1_jac_set_inf(&acc);
    for (size_t i = 0; i < n; i++) {
        czk_g1_jac_add_affine(&acc, &acc, &g);
        j[i] = acc;
    }
    czk_g1_jac_batch_to_affine(out, j, n, scr);
    free(j);
    free(scr);
}

static void g2_multiples(czk_g2_affine *out, size_t n)
{
    czk_g2_affine g;
    czk_g2_generator(&g);
    czk_g2_jac *j = xmalloc(n * sizeof *j);
    czk_fp2 *scr = xmalloc(n * sizeof *scr);
    czk_g2_jac acc;
    czk_g2_jac_set_inf(&acc);
    for (size_t i = 0; i < n; i++) {
        czk_g2_jac_add_affine(&acc, &acc, &g);
        j[i] = acc;
    }
    czk_g2_jac_batch_to_affine(out, j, n, scr);
    free(j);
    free(scr);
}

/* Random scalars biased to edges: 0, 1, 2, r - 1, r - 2, small, one bit set,
 * long runs of ones, and uniform. */
static void edge_scalar(czk_fr *s, czk_rng *rng)
{
    uint64_t v[4] = {0, 0, 0, 0};
    switch (czk_rng_below(rng, 10)) {
    case 0: *s = CZK_FR_ZERO; return;
    case 1: *s = CZK_FR_ONE; return;
    case 2: czk_fr_from_u64(s, czk_rng_below(rng, 1000)); return;
    case 3: czk_fr_from_u64(s, 1 + czk_rng_below(rng, 3)); czk_fr_neg(s, s); return; /* r-1.. r-3 */
    case 4: {
        unsigned bit = (unsigned)czk_rng_below(rng, 255);
        v[bit / 64] = 1ull << (bit % 64);
        czk_fr_from_limbs_reduce(s, v);
        return;
    }
    case 5: { /* a run of ones */
        unsigned lo = (unsigned)czk_rng_below(rng, 254), len = 1 + (unsigned)czk_rng_below(rng, 255 - lo);
        for (unsigned b = lo; b < lo + len; b++) v[b / 64] |= 1ull << (b % 64);
        czk_fr_from_limbs_reduce(s, v);
        return;
    }
    default: czk_fr_random(s, rng); return;
    }
}

static void random_scalars(czk_fr *s, size_t n, czk_rng *rng, int edges)
{
    for (size_t i = 0; i < n; i++) {
        if (edges) edge_scalar(&s[i], rng);
        else czk_fr_random(&s[i], rng);
    }
}

/* sum_i s_i (i + 1) in Fr: the discrete log of the MSM over g*_multiples. */
static void closed_form_scalar(czk_fr *r, const czk_fr *s, size_t n, const uint64_t *density)
{
    czk_fr acc = CZK_FR_ZERO, t, k;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        czk_fr_from_u64(&k, (uint64_t)(j + 1));
        j++;
        czk_fr_mul(&t, &s[i], &k);
        czk_fr_add(&acc, &acc, &t);
    }
    *r = acc;
}

static void g1_closed_form(czk_g1_jac *r, const czk_fr *s, size_t n, const uint64_t *density)
{
    czk_fr k;
    czk_g1_affine g;
    czk_g1_jac gj;
    closed_form_scalar(&k, s, n, density);
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&gj, &g);
    czk_g1_mul_var(r, &gj, &k);
}

static void g2_closed_form(czk_g2_jac *r, const czk_fr *s, size_t n, const uint64_t *density)
{
    czk_fr k;
    czk_g2_affine g;
    czk_g2_jac gj;
    closed_form_scalar(&k, s, n, density);
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&gj, &g);
    czk_g2_mul_var(r, &gj, &k);
}

static czk_msm_opts opts_of(int threads, unsigned window, czk_msm_algo algo)
{
    czk_msm_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.window = window;
    o.algo = algo;
    return o;
}

static const char *algo_name(czk_msm_algo a)
{
    return a == CZK_MSM_XYZZ ? "xyzz" : a == CZK_MSM_BATCH_AFFINE ? "batch-affine" : "auto";
}

/* Run the G1 MSM with these options and compare with `want`. */
static void check_g1(const czk_g1_jac *want, const czk_g1_affine *bases, size_t nbases, const czk_fr *s,
                     size_t n, const uint64_t *density, czk_msm_opts o, const char *what)
{
    czk_g1_jac got;
    czk_status st = czk_msm_g1_var(&got, bases, nbases, s, n, density, &o);
    CHECK_MSG(st == CZK_OK, "%s: n=%zu threads=%d c=%u %s: status %d (%s)", what, n, o.threads, o.window,
              algo_name(o.algo), (int)st, czk_last_error());
    if (st == CZK_OK)
        CHECK_MSG(czk_g1_jac_eq(&got, want), "%s: n=%zu threads=%d c=%u %s: wrong sum", what, n, o.threads,
                  o.window, algo_name(o.algo));
}

static void check_g2(const czk_g2_jac *want, const czk_g2_affine *bases, size_t nbases, const czk_fr *s,
                     size_t n, const uint64_t *density, czk_msm_opts o, const char *what)
{
    czk_g2_jac got;
    czk_status st = czk_msm_g2_var(&got, bases, nbases, s, n, density, &o);
    CHECK_MSG(st == CZK_OK, "%s: n=%zu threads=%d c=%u %s: status %d (%s)", what, n, o.threads, o.window,
              algo_name(o.algo), (int)st, czk_last_error());
    if (st == CZK_OK)
        CHECK_MSG(czk_g2_jac_eq(&got, want), "%s: n=%zu threads=%d c=%u %s: wrong sum", what, n, o.threads,
                  o.window, algo_name(o.algo));
}

/* ---- digits and plan --------------------------------------------------------- */

/* Folded scalars k' = min(k, r - k) < 2^254 with their flag, and
 * sum_j d_j 2^(j c) == k' for the Booth digits, |d_j| <= 2^(c-1), every c. */
CZK_TEST(msm_booth_digits_reconstruct)
{
    czk_rng *rng = czk_test_rng();
    mpz_t k, acc, r, kp;
    mpz_inits(k, acc, r, kp, NULL);
    mpz_import(r, 4, -1, 8, 0, 0, CZK_FR_MODULUS);
    size_t iters = czk_test_iters(asan() ? 20 : 200);
    for (size_t it = 0; it < iters; it++) {
        czk_fr s;
        edge_scalar(&s, rng);
        if (it == 0) czk_fr_neg(&s, &CZK_FR_ONE); /* r - 1 */
        if (it == 1) czk_fr_from_u64(&s, 0);
        uint64_t raw[4];
        czk_fr_to_limbs(raw, &s);
        mpz_import(k, 4, -1, 8, 0, 0, raw);
        czk__msm_scalar ks;
        czk__msm_prepare_scalars(&ks, 1, &s, 1, NULL, 0, 1);
        int neg = czk__msm_scalar_neg(&ks);
        uint64_t mag[4] = {ks.l[0], ks.l[1], ks.l[2], ks.l[3] & ~CZK__MSM_NEG_BIT};
        mpz_import(kp, 4, -1, 8, 0, 0, mag);
        CHECK_MSG(mpz_sizeinbase(kp, 2) <= 254 || mpz_sgn(kp) == 0, "folded scalar %zu has %zu bits", it,
                  mpz_sizeinbase(kp, 2));
        if (neg) mpz_sub(kp, r, kp);
        CHECK_MSG(mpz_cmp(kp, k) == 0, "folding scalar %zu lost its value", it);
        for (unsigned c = 1; c <= CZK_MSM_MAX_WINDOW; c++) {
            unsigned W = czk__msm_windows(c);
            CHECK(W * c >= 255 && (W - 1) * c < 255);
            mpz_set_ui(acc, 0);
            for (unsigned j = W; j-- > 0;) {
                int d = czk__msm_booth_digit(&ks, j, c);
                CHECK_MSG(d <= (1 << (c - 1)) && d >= -(1 << (c - 1)), "c=%u j=%u d=%d", c, j, d);
                mpz_mul_2exp(acc, acc, c);
                if (d >= 0) mpz_add_ui(acc, acc, (unsigned long)d);
                else mpz_sub_ui(acc, acc, (unsigned long)-d);
            }
            if (neg) mpz_sub(acc, r, acc);
            CHECK_MSG(mpz_cmp(acc, k) == 0, "Booth digits of scalar %zu do not reconstruct it for c=%u", it, c);
        }
    }
    mpz_clears(k, acc, r, kp, NULL);
}

/* The window comes from the cost model: it grows with the size, forced
 * windows and algorithms are honoured, and the scratch size matches the plan. */
CZK_TEST(msm_plan_cost_model)
{
    czk_msm_plan a, b, c;
    czk_msm_opts o = opts_of(2, 0, CZK_MSM_AUTO);
    czk_msm_g1_plan(&a, 1u << 10, &o);
    czk_msm_g1_plan(&b, 1u << 20, &o);
    CHECK(a.window >= 1 && a.window <= CZK_MSM_MAX_WINDOW);
    CHECK_MSG(b.window > a.window, "window for 2^20 (%u) should exceed window for 2^10 (%u)", b.window,
              a.window);
    CHECK(a.windows == czk__msm_windows(a.window));
    CHECK(a.algo == CZK_MSM_XYZZ || a.algo == CZK_MSM_BATCH_AFFINE);
    CHECK(a.threads >= 1 && a.threads <= 2);
    CHECK_EQ_U64(czk_msm_g1_scratch_size(1u << 10, &o), a.scratch);
    o = opts_of(3, 7, CZK_MSM_BATCH_AFFINE);
    czk_msm_g2_plan(&c, 5000, &o);
    CHECK_EQ_U64(c.window, 7);
    CHECK(c.algo == CZK_MSM_BATCH_AFFINE);
    CHECK(c.batch >= 16);
    CHECK(c.threads == 3);
    /* More threads: the model never picks a plan with fewer tasks than threads when points allow. */
    o = opts_of(64, 0, CZK_MSM_AUTO);
    czk_msm_g1_plan(&c, 1u << 16, &o);
    CHECK_MSG(c.windows * c.chunks >= 32, "64 threads: %u windows x %u chunks", c.windows, c.chunks);
}

/* ---- G1 ------------------------------------------------------------------------ */

/* Every size 1..64 (auto plan, both kernels, 1 and 2 threads), then larger. */
CZK_TEST(msm_g1_closed_form_sizes)
{
    czk_rng *rng = czk_test_rng();
    size_t nmax = 4096;
    czk_g1_affine *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s = xmalloc(nmax * sizeof *s);
    g1_multiples(bases, nmax);
    czk_g1_jac want;
    size_t small = asan() ? 16 : 64;
    for (size_t n = 1; n <= small; n++) {
        random_scalars(s, n, rng, 1);
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, opts_of(1, 0, CZK_MSM_AUTO), "sizes");
        check_g1(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_XYZZ), "sizes");
        check_g1(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_BATCH_AFFINE), "sizes");
    }
    static const size_t big[] = {65, 100, 127, 128, 129, 1000, 1023, 1024, 2047, 4096};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        size_t n = big[i];
        if (asan() && n > 1024) break;
        random_scalars(s, n, rng, i & 1);
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, opts_of(0, 0, CZK_MSM_AUTO), "sizes");
        check_g1(&want, bases, n, s, n, NULL, opts_of(1, 0, CZK_MSM_XYZZ), "sizes");
        check_g1(&want, bases, n, s, n, NULL, opts_of(3, 0, CZK_MSM_BATCH_AFFINE), "sizes");
    }
    free(bases);
    free(s);
}

/* Random bases (not multiples of one another in a pattern) against the naive sum. */
CZK_TEST(msm_g1_vs_ref)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 40 : 300;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases), g;
    czk_g1_jac *jb = xmalloc(n * sizeof *jb), gj, want;
    czk_fp *scr = xmalloc(n * sizeof *scr);
    czk_fr *s = xmalloc(n * sizeof *s), k;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        czk_fr_random(&k, rng);
        czk_g1_mul_var(&jb[i], &gj, &k);
    }
    czk_g1_jac_batch_to_affine(bases, jb, n, scr);
    static const size_t sizes[] = {1, 2, 3, 5, 17, 64, 100, 300};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i] <= n; i++) {
        size_t m = sizes[i];
        random_scalars(s, m, rng, 1);
        REQUIRE_OK(czk_msm_g1_ref(&want, bases, m, s, m, NULL));
        for (int a = CZK_MSM_AUTO; a <= CZK_MSM_BATCH_AFFINE; a++)
            check_g1(&want, bases, m, s, m, NULL, opts_of(2, 0, (czk_msm_algo)a), "vs ref");
    }
    free(bases);
    free(jb);
    free(scr);
    free(s);
}

/* Every window size 1..CZK_MSM_MAX_WINDOW with both kernels. */
CZK_TEST(msm_g1_every_window)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 40 : 200;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    g1_multiples(bases, n);
    czk_g1_jac want;
    random_scalars(s, n, rng, 1);
    g1_closed_form(&want, s, n, NULL);
    unsigned cmax = asan() ? 14 : CZK_MSM_MAX_WINDOW;
    for (unsigned c = 1; c <= cmax; c++) {
        size_t m = c <= 16 ? n : 24; /* wide windows: few points, mostly empty buckets */
        czk_g1_jac w2 = want;
        if (m != n) g1_closed_form(&w2, s, m, NULL);
        check_g1(&w2, bases, m, s, m, NULL, opts_of(c <= 16 ? 2 : 1, c, CZK_MSM_XYZZ), "window");
        check_g1(&w2, bases, m, s, m, NULL, opts_of(c <= 16 ? 2 : 1, c, CZK_MSM_BATCH_AFFINE), "window");
    }
    free(bases);
    free(s);
}

/* The result does not depend on the thread count (1, 2, 3, 7, 16) or on how
 * the points are split. */
CZK_TEST(msm_g1_threads)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 300 : 3000;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    g1_multiples(bases, n);
    random_scalars(s, n, rng, 0);
    czk_g1_jac want;
    g1_closed_form(&want, s, n, NULL);
    static const int th[] = {1, 2, 3, 7, 16};
    for (size_t i = 0; i < sizeof th / sizeof th[0]; i++) {
        check_g1(&want, bases, n, s, n, NULL, opts_of(th[i], 0, CZK_MSM_XYZZ), "threads");
        check_g1(&want, bases, n, s, n, NULL, opts_of(th[i], 0, CZK_MSM_BATCH_AFFINE), "threads");
        check_g1(&want, bases, n, s, n, NULL, opts_of(th[i], 9, CZK_MSM_AUTO), "threads");
    }
    free(bases);
    free(s);
}

/* Zero scalars, r - 1 everywhere (every point in the same buckets: batch
 * conflicts and bucket doublings), all-equal scalars, and a single non-zero. */
CZK_TEST(msm_g1_edge_scalars)
{
    size_t n = asan() ? 100 : 1000;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s), mone;
    g1_multiples(bases, n);
    czk_g1_jac want, got;
    czk_fr_neg(&mone, &CZK_FR_ONE);
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        czk_msm_opts o = opts_of(2, 0, (czk_msm_algo)a);
        for (size_t i = 0; i < n; i++) s[i] = CZK_FR_ZERO;
        REQUIRE_OK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o));
        CHECK_MSG(czk_g1_jac_is_inf(&got), "%s: zero scalars give infinity", algo_name(o.algo));
        s[n / 2] = CZK_FR_ONE;
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, o, "single one");
        for (size_t i = 0; i < n; i++) s[i] = mone;
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, o, "all r-1");
        for (size_t i = 0; i < n; i++) czk_fr_from_u64(&s[i], 5);
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, o, "all 5");
        for (size_t i = 0; i < n; i++) s[i] = i % 2 ? CZK_FR_ONE : CZK_FR_ZERO;
        g1_closed_form(&want, s, n, NULL);
        check_g1(&want, bases, n, s, n, NULL, o, "booleans");
    }
    free(bases);
    free(s);
}

/* Infinity bases contribute nothing; duplicate bases double in one bucket;
 * P and -P with the same scalar cancel in one bucket. Checked against the
 * naive reference. */
CZK_TEST(msm_g1_infinity_duplicate_negated)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 64 : 400;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    czk_fr *dl = xmalloc(n * sizeof *dl); /* discrete log of each base */
    g1_multiples(bases, n);
    random_scalars(s, n, rng, 0);
    for (size_t i = 0; i < n; i++) czk_fr_from_u64(&dl[i], i + 1);
    for (size_t i = 0; i + 3 < n; i += 4) {
        bases[i + 1] = bases[i]; /* duplicate, same scalar */
        dl[i + 1] = dl[i];
        s[i + 1] = s[i];
        czk_g1_affine_neg(&bases[i + 2], &bases[i]); /* negated, same scalar: cancels */
        czk_fr_neg(&dl[i + 2], &dl[i]);
        s[i + 2] = s[i];
        if (i % 8 == 0) {
            bases[i + 3].inf = 1; /* infinity */
            dl[i + 3] = CZK_FR_ZERO;
        }
    }
    czk_g1_jac want, ref;
    REQUIRE_OK(czk_msm_g1_ref(&ref, bases, n, s, n, NULL));
    czk_fr k = CZK_FR_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        czk_fr_mul(&t, &s[i], &dl[i]);
        czk_fr_add(&k, &k, &t);
    }
    {
        czk_g1_affine g;
        czk_g1_jac gj;
        czk_g1_generator(&g);
        czk_g1_jac_from_affine(&gj, &g);
        czk_g1_mul_var(&want, &gj, &k);
    }
    CHECK_MSG(czk_g1_jac_eq(&ref, &want), "reference disagrees with the closed form");
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++)
        for (unsigned c = 1; c <= 12; c += 3)
            check_g1(&ref, bases, n, s, n, NULL, opts_of(2, c, (czk_msm_algo)a), "dup/neg/inf");
    /* All bases infinity. */
    for (size_t i = 0; i < n; i++) bases[i].inf = 1;
    czk_g1_jac got;
    czk_msm_opts o = opts_of(2, 0, CZK_MSM_BATCH_AFFINE);
    REQUIRE_OK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o));
    CHECK(czk_g1_jac_is_inf(&got));
    free(bases);
    free(s);
    free(dl);
}

/* Density masks: bases hold only the set-bit entries; against the closed
 * form, the reference, and the same MSM on explicitly compacted scalars. */
CZK_TEST(msm_g1_density)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 200 : 2000;
    size_t nw = (n + 63) / 64;
    uint64_t *dens = xmalloc(nw * sizeof *dens);
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s), *cs = xmalloc(n * sizeof *cs);
    g1_multiples(bases, n);
    random_scalars(s, n, rng, 1);
    static const unsigned pct[] = {0, 3, 50, 97, 100};
    for (size_t q = 0; q < sizeof pct / sizeof pct[0]; q++) {
        memset(dens, 0, nw * sizeof *dens);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (czk_rng_below(rng, 100) < pct[q]) {
                dens[i / 64] |= 1ull << (i % 64);
                cs[m++] = s[i];
            }
        }
        dens[nw - 1] |= n % 64 ? ~0ull << (n % 64) : 0; /* bits past n are ignored */
        czk_g1_jac want, ref;
        g1_closed_form(&want, s, n, dens);
        check_g1(&want, bases, m, s, n, dens, opts_of(2, 0, CZK_MSM_AUTO), "density");
        check_g1(&want, bases, m, s, n, dens, opts_of(3, 0, CZK_MSM_XYZZ), "density");
        check_g1(&want, bases, m, s, n, dens, opts_of(1, 0, CZK_MSM_BATCH_AFFINE), "density");
        check_g1(&want, bases, m, cs, m, NULL, opts_of(2, 0, CZK_MSM_AUTO), "compacted");
        if (m <= 300) {
            REQUIRE_OK(czk_msm_g1_ref(&ref, bases, m, s, n, dens));
            CHECK(czk_g1_jac_eq(&ref, &want));
        }
        /* popcount mismatch is an error naming the counts */
        czk_g1_jac got;
        czk_msm_opts o = opts_of(1, 0, CZK_MSM_AUTO);
        czk_status st = czk_msm_g1_var(&got, bases, m + 1, s, n, dens, &o);
        CHECK(st == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "density") != NULL);
    }
    free(dens);
    free(bases);
    free(s);
    free(cs);
}

/* Caller scratch (no allocation), too-small or misaligned scratch, bad arguments. */
CZK_TEST(msm_g1_scratch_and_errors)
{
    czk_rng *rng = czk_test_rng();
    size_t n = 500;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    g1_multiples(bases, n);
    random_scalars(s, n, rng, 0);
    czk_g1_jac want, got;
    g1_closed_form(&want, s, n, NULL);
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        czk_msm_opts o = opts_of(2, 0, (czk_msm_algo)a);
        size_t sz = czk_msm_g1_scratch_size(n, &o);
        void *mem = aligned_alloc(64, (sz + 64 + 63) & ~(size_t)63);
        REQUIRE(mem);
        memset(mem, 0xa5, sz);
        o.scratch = mem;
        o.scratch_size = sz;
        check_g1(&want, bases, n, s, n, NULL, o, "caller scratch");
        o.scratch_size = sz - 1;
        CHECK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "scratch") != NULL);
        o.scratch = (char *)mem + 8;
        o.scratch_size = sz;
        CHECK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(czk_g1_jac_is_inf(&got));
        free(mem);
    }
    czk_msm_opts o = opts_of(1, CZK_MSM_MAX_WINDOW + 1, CZK_MSM_AUTO);
    CHECK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "window") != NULL);
    o = opts_of(1, 0, (czk_msm_algo)7);
    CHECK(czk_msm_g1_var(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
    CHECK(czk_msm_g1_var(NULL, bases, n, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_msm_g1_var(&got, NULL, n, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_msm_g1_var(&got, bases, n, NULL, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_msm_g1_var(&got, bases, n - 1, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nbases") != NULL);
    CHECK(czk_msm_g1_ref(&got, bases, n - 1, s, n, NULL) == CZK_ERR_INVALID_ARG);
    /* empty MSM */
    CHECK_OK(czk_msm_g1_var(&got, NULL, 0, NULL, 0, NULL, NULL));
    CHECK(czk_g1_jac_is_inf(&got));
    /* opts NULL: defaults */
    CHECK_OK(czk_msm_g1_var(&got, bases, n, s, n, NULL, NULL));
    CHECK(czk_g1_jac_eq(&got, &want));
    free(bases);
    free(s);
}

/* ---- G2 ------------------------------------------------------------------------ */

CZK_TEST(msm_g2_closed_form)
{
    czk_rng *rng = czk_test_rng();
    size_t nmax = asan() ? 200 : 1024;
    czk_g2_affine *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s = xmalloc(nmax * sizeof *s);
    g2_multiples(bases, nmax);
    czk_g2_jac want;
    size_t small = asan() ? 8 : 24;
    for (size_t n = 1; n <= small; n++) {
        random_scalars(s, n, rng, 1);
        g2_closed_form(&want, s, n, NULL);
        check_g2(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_XYZZ), "g2 sizes");
        check_g2(&want, bases, n, s, n, NULL, opts_of(1, 0, CZK_MSM_BATCH_AFFINE), "g2 sizes");
    }
    static const size_t big[] = {100, 333, 1024};
    for (size_t i = 0; i < 3 && big[i] <= nmax; i++) {
        size_t n = big[i];
        random_scalars(s, n, rng, 1);
        g2_closed_form(&want, s, n, NULL);
        check_g2(&want, bases, n, s, n, NULL, opts_of(0, 0, CZK_MSM_AUTO), "g2 sizes");
        check_g2(&want, bases, n, s, n, NULL, opts_of(3, 0, CZK_MSM_XYZZ), "g2 sizes");
        check_g2(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_BATCH_AFFINE), "g2 sizes");
    }
    /* every window size on a small input */
    size_t n = 40;
    random_scalars(s, n, rng, 1);
    g2_closed_form(&want, s, n, NULL);
    for (unsigned c = 1; c <= (asan() ? 10u : 16u); c++) {
        check_g2(&want, bases, n, s, n, NULL, opts_of(2, c, CZK_MSM_XYZZ), "g2 window");
        check_g2(&want, bases, n, s, n, NULL, opts_of(2, c, CZK_MSM_BATCH_AFFINE), "g2 window");
    }
    free(bases);
    free(s);
}

CZK_TEST(msm_g2_edges_density_ref)
{
    czk_rng *rng = czk_test_rng();
    size_t n = asan() ? 40 : 160;
    czk_g2_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s), mone;
    g2_multiples(bases, n);
    czk_fr_neg(&mone, &CZK_FR_ONE);
    czk_g2_jac want, ref;
    for (size_t i = 0; i < n; i++) s[i] = mone;
    g2_closed_form(&want, s, n, NULL);
    check_g2(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_BATCH_AFFINE), "g2 all r-1");
    check_g2(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_XYZZ), "g2 all r-1");
    /* duplicates, negations, infinity, against the reference */
    random_scalars(s, n, rng, 1);
    for (size_t i = 0; i + 3 < n; i += 4) {
        bases[i + 1] = bases[i];
        s[i + 1] = s[i];
        czk_g2_affine_neg(&bases[i + 2], &bases[i]);
        s[i + 2] = s[i];
        bases[i + 3].inf = 1;
    }
    REQUIRE_OK(czk_msm_g2_ref(&ref, bases, n, s, n, NULL));
    check_g2(&ref, bases, n, s, n, NULL, opts_of(2, 4, CZK_MSM_BATCH_AFFINE), "g2 dup/neg/inf");
    check_g2(&ref, bases, n, s, n, NULL, opts_of(2, 4, CZK_MSM_XYZZ), "g2 dup/neg/inf");
    /* density */
    g2_multiples(bases, n);
    uint64_t dens[(160 + 63) / 64] = {0};
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (czk_rng_below(rng, 3) == 0) {
            dens[i / 64] |= 1ull << (i % 64);
            m++;
        }
    g2_closed_form(&want, s, n, dens);
    REQUIRE_OK(czk_msm_g2_ref(&ref, bases, m, s, n, dens));
    CHECK(czk_g2_jac_eq(&ref, &want));
    check_g2(&want, bases, m, s, n, dens, opts_of(2, 0, CZK_MSM_AUTO), "g2 density");
    check_g2(&want, bases, m, s, n, dens, opts_of(1, 0, CZK_MSM_BATCH_AFFINE), "g2 density");
    czk_g2_jac got;
    CHECK(czk_msm_g2_var(&got, bases, m + 1, s, n, dens, NULL) == CZK_ERR_INVALID_ARG);
    free(bases);
    free(s);
}

/* Small scalars (|k| <= 12) over bases drawn from {P, -P, 2P, Q, infinity}:
 * bucket and lane running sums meet equal points (doublings), opposite points
 * (cancellation) and infinity all the time. Against the naive reference. */
CZK_TEST(msm_special_sums_small_scalars)
{
    czk_rng *rng = czk_test_rng();
    czk_g1_affine pool1[5];
    czk_g2_affine pool2[5];
    g1_multiples(pool1, 2); /* G, 2G */
    g2_multiples(pool2, 2);
    czk_g1_affine_neg(&pool1[2], &pool1[0]);
    czk_g2_affine_neg(&pool2[2], &pool2[0]);
    {
        czk_g1_affine g[7];
        czk_g2_affine h[7];
        g1_multiples(g, 7);
        g2_multiples(h, 7);
        pool1[3] = g[6];
        pool2[3] = h[6];
    }
    pool1[4] = pool1[0];
    pool1[4].inf = 1;
    pool2[4] = pool2[0];
    pool2[4].inf = 1;
    enum { N = 48 };
    czk_g1_affine b1[N];
    czk_g2_affine b2[N];
    czk_fr s[N];
    size_t rounds = czk_test_iters(asan() ? 4 : 30);
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < N; i++) {
            size_t k = czk_rng_below(rng, 5);
            b1[i] = pool1[k];
            b2[i] = pool2[k];
            uint64_t v = czk_rng_below(rng, 13);
            czk_fr_from_u64(&s[i], v);
            if (czk_rng_below(rng, 2)) czk_fr_neg(&s[i], &s[i]);
        }
        size_t n = 2 + (size_t)czk_rng_below(rng, N - 1);
        czk_g1_jac ref1;
        czk_g2_jac ref2;
        REQUIRE_OK(czk_msm_g1_ref(&ref1, b1, n, s, n, NULL));
        REQUIRE_OK(czk_msm_g2_ref(&ref2, b2, n, s, n, NULL));
        static const unsigned cs[] = {1, 3, 6, 10};
        for (size_t ci = 0; ci < 4; ci++) {
            for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
                check_g1(&ref1, b1, n, s, n, NULL, opts_of(1, cs[ci], (czk_msm_algo)a), "small scalars");
                if (r % 5 == 0) check_g2(&ref2, b2, n, s, n, NULL, opts_of(1, cs[ci], (czk_msm_algo)a), "small scalars g2");
            }
        }
    }
    /* the batch-affine bucket sum runs in lanes at these windows */
    czk_msm_plan plan;
    czk_msm_opts o = opts_of(1, 10, CZK_MSM_BATCH_AFFINE);
    czk_msm_g1_plan(&plan, N, &o);
    CHECK_MSG(plan.lanes >= 8, "c=10: %u lanes", plan.lanes);
    o.window = 6;
    czk_msm_g2_plan(&plan, N, &o);
    CHECK_MSG(plan.lanes >= 8, "g2 c=6: %u lanes", plan.lanes);
}
