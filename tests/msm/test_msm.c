/* MSM: the Booth digits and the cost model, then the tests of
 * msm_tests_tmpl.h for G1 and for G2: Pippenger (both bucket kernels, every
 * window size, 1..many threads, density masks) against the closed form for
 * bases i*G, against the naive sum of scalar multiplications, and on edge
 * inputs (n = 0 and 1, zero scalars, r - 1, infinity, duplicate, negated and
 * all-equal bases, sparse and all-equal digits). */
#include <gmp.h>
#include <math.h>

#include "ec/group_tests.h"
#include "msm/msm_internal.h"
#include "msm_test_util.h"

static const char group_test_file[] = __FILE__;

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

/* Large MSMs keep their buckets near the cache: a thread's bucket array at
 * the chosen window stays within 4x its L3 share (CZK__MSM_L3_SHARE), under
 * both kernels, for 1 and 2 threads. Without the model's term for buckets
 * past that share it chose c = 19-20 here (24-96 MiB of buckets a thread),
 * measured 1.6x slower for G1 than c = 16 (src/msm/README.md). */
CZK_TEST_BOTH_KERNELS(msm_plan_buckets_near_cache)
{
    for (int T = 1; T <= 2; T++) {
        for (unsigned lg = 22; lg <= 26; lg += 2) {
            czk_msm_opts o = opts_of(T, 0, CZK_MSM_AUTO);
            czk_msm_plan p1, p2;
            czk_msm_g1_plan(&p1, (size_t)1 << lg, &o);
            czk_msm_g2_plan(&p2, (size_t)1 << lg, &o);
            double b1 = ldexp((double)sizeof(czk_g1_affine), (int)p1.window - 1);
            double b2 = ldexp((double)sizeof(czk_g2_affine), (int)p2.window - 1);
            CHECK_MSG(b1 <= 4 * CZK__MSM_L3_SHARE, "G1, 2^%u points, %d threads: c = %u, %.0f MiB of buckets", lg, T,
                      p1.window, b1 / 1048576);
            CHECK_MSG(b2 <= 4 * CZK__MSM_L3_SHARE, "G2, 2^%u points, %d threads: c = %u, %.0f MiB of buckets", lg, T,
                      p2.window, b2 / 1048576);
        }
    }
}

/* ---- every test for G1 and G2 ------------------------------------------------ */

#include "ec/group_g1.h"
#include "msm_tests_tmpl.h"
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "msm_tests_tmpl.h"
#include "ec/group_end.h"
