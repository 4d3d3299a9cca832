/* The circom prover's MSMs over mostly-0/1 scalars (src/io/circom_msm.c):
 * batch-affine addition trees and the 0/1/-1 pre-pass, against
 * czk_msm_g1_ref / czk_msm_g2_ref, with scalars biased to 0, 1, -1 and
 * bases that repeat, cancel and sit at infinity (doubling and P + (-P)
 * inside the trees), with and without density masks, on 1 and 2 threads. */
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "czk/msm.h"
#include "czk/tower.h"
#include "msm/msm_internal.h"
#include "runner.h"

/* n bases: a chain P_i = P_(i-1) + Q from a random Q, then some entries
 * replaced by earlier ones (equal), their negations (opposite) and infinity. */
#define DEFINE_BASES(G)                                                                              \
    static czk_##G##_affine *bases_##G(size_t n, czk_rng *rng)                                       \
    {                                                                                                \
        czk_##G##_affine *b = malloc(n * sizeof *b), gen;                                            \
        CZK_ASSERT(b);                                                                               \
        czk_##G##_generator(&gen);                                                                   \
        czk_##G##_jac q, acc;                                                                        \
        czk_fr k;                                                                                    \
        czk_fr_random(&k, rng);                                                                      \
        czk_##G##_jac_from_affine(&acc, &gen);                                                       \
        czk_##G##_mul_var(&q, &acc, &k);                                                             \
        acc = q;                                                                                     \
        for (size_t i = 0; i < n; i++) {                                                             \
            czk_##G##_jac_to_affine(&b[i], &acc);                                                    \
            czk_##G##_jac_add(&acc, &acc, &q);                                                       \
        }                                                                                            \
        for (size_t i = 2; i < n; i++) {                                                             \
            uint64_t r = czk_rng_below(rng, 100);                                                    \
            size_t j = (size_t)czk_rng_below(rng, i);                                                \
            if (r < 10) b[i] = b[j];                                                                 \
            else if (r < 18) czk_##G##_affine_neg(&b[i], &b[j]);                                     \
            else if (r < 22) czk_##G##_affine_set_inf(&b[i]);                                        \
        }                                                                                            \
        return b;                                                                                    \
    }
DEFINE_BASES(g1)
DEFINE_BASES(g2)

/* Scalars: 45% 0, 5% -1, other_pct% small or uniform, the rest 1. */
static void scalars(czk_fr *s, size_t n, czk_rng *rng, int other_pct)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = czk_rng_below(rng, 100);
        if (r < 45) s[i] = CZK_FR_ZERO;
        else if (r < 50) czk_fr_neg(&s[i], &CZK_FR_ONE);
        else if (r < 50 + (uint64_t)other_pct / 2) czk_fr_from_u64(&s[i], 2 + czk_rng_below(rng, 1000));
        else if (r < 50 + (uint64_t)other_pct) czk_fr_random(&s[i], rng);
        else s[i] = CZK_FR_ONE;
    }
}

CZK_TEST(msm01_g1_matches_ref)
{
    czk_rng *rng = czk_test_rng();
    size_t n = getenv("CZK_TEST_ASAN") ? 700 : 3000;
    czk_g1_affine *b = bases_g1(n, rng), *cb = malloc(n * sizeof *cb);
    czk_fr *s = malloc(n * sizeof *s);
    uint64_t *dens = calloc((n + 63) / 64, sizeof *dens);
    REQUIRE(b && cb && s && dens);
    for (int round = 0; round < 4; round++) {
        scalars(s, n, rng, round == 0 ? 0 : 8);
        czk_g1_jac want, got;
        size_t cnt[3] = {0, 0, 0};
        /* dense */
        REQUIRE_OK(czk_msm_g1_ref(&want, b, n, s, n, NULL));
        for (int t = 1; t <= 2; t++) {
            REQUIRE_OK(czk__circom_msm01_g1(&got, b, n, s, n, NULL, t, cnt));
            CHECK_MSG(czk_g1_jac_eq(&got, &want), "round %d, %d threads", round, t);
        }
        CHECK_EQ_U64(cnt[0] + cnt[1] + cnt[2], 2 * n);
        CHECK(cnt[1] > n / 2);
        if (round == 0) CHECK_EQ_U64(cnt[2], 0);
        /* density: the bases of clear bits are left out */
        size_t m = 0;
        memset(dens, 0, (n + 63) / 64 * sizeof *dens);
        for (size_t i = 0; i < n; i++)
            if (czk_rng_below(rng, 10) < 7) {
                dens[i / 64] |= 1ull << (i % 64);
                cb[m++] = b[i];
            }
        REQUIRE_OK(czk_msm_g1_ref(&want, cb, m, s, n, dens));
        REQUIRE_OK(czk__circom_msm01_g1(&got, cb, m, s, n, dens, 2, NULL));
        CHECK_MSG(czk_g1_jac_eq(&got, &want), "round %d, density", round);
        /* nbases not matching the density */
        CHECK(czk__circom_msm01_g1(&got, cb, m - 1, s, n, dens, 2, NULL) == CZK_ERR_INVALID_ARG);
        CHECK(czk_g1_jac_is_inf(&got));
        CHECK(czk__circom_msm01_g1(&got, cb, m + 1, s, n, dens, 2, NULL) == CZK_ERR_INVALID_ARG);
        CHECK(czk__circom_msm01_g1(&got, b, n - 1, s, n, NULL, 2, NULL) == CZK_ERR_INVALID_ARG);
    }
    free(b), free(cb), free(s), free(dens);
}

CZK_TEST(msm01_g2_matches_ref)
{
    czk_rng *rng = czk_test_rng();
    size_t n = getenv("CZK_TEST_ASAN") ? 400 : 1200;
    czk_g2_affine *b = bases_g2(n, rng);
    czk_fr *s = malloc(n * sizeof *s);
    REQUIRE(b && s);
    for (int round = 0; round < 2; round++) {
        scalars(s, n, rng, round * 5);
        czk_g2_jac want, got;
        REQUIRE_OK(czk_msm_g2_ref(&want, b, n, s, n, NULL));
        for (int t = 1; t <= 2; t++) {
            REQUIRE_OK(czk__circom_msm01_g2(&got, b, n, s, n, NULL, t, NULL));
            CHECK_MSG(czk_g2_jac_eq(&got, &want), "round %d, %d threads", round, t);
        }
    }
    free(b), free(s);
}

/* The addition trees alone: all points equal (doublings at every level),
 * pairs that cancel, a lone point, nothing; sizes around the cut-over to
 * Jacobian additions (24) and the chunking over threads (2048 a chunk). */
CZK_TEST(sum_trees_edge_cases)
{
    czk_rng *rng = czk_test_rng();
    size_t n = 9000;
    czk_g1_affine *b = bases_g1(8, rng);
    uint32_t *idx = malloc(n * sizeof *idx);
    REQUIRE(b && idx);
    czk_g1_affine p = b[1];
    czk_g1_jac pj, want, got;
    czk_g1_jac_from_affine(&pj, &p);
    size_t sizes[] = {0, 1, 2, 3, 24, 25, 49, 256, 511, 1000, 4096, 4097, 9000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t m = sizes[k];
        for (size_t i = 0; i < m; i++) idx[i] = 1;
        czk_fr mf;
        czk_fr_from_u64(&mf, m);
        czk_g1_mul_var(&want, &pj, &mf);
        for (int t = 1; t <= 2; t++) {
            REQUIRE_OK(czk__circom_sum_g1(&got, b, idx, m, t));
            CHECK_MSG(czk_g1_jac_eq(&got, &want), "%zu equal points, %d threads", m, t);
        }
        /* alternating P, -P: infinity (plus P when m is odd) */
        for (size_t i = 0; i < m; i++) idx[i] = 1 | (i % 2 ? CZK__SUM_SIGN : 0);
        REQUIRE_OK(czk__circom_sum_g1(&got, b, idx, m, 2));
        if (m % 2) CHECK_MSG(czk_g1_jac_eq(&got, &pj), "%zu alternating", m);
        else CHECK_MSG(czk_g1_jac_is_inf(&got), "%zu alternating", m);
    }
    /* a mix of all the bases (one of them may be infinity), signed */
    czk_g1_jac_set_inf(&want);
    for (size_t i = 0; i < n; i++) {
        uint32_t j = (uint32_t)czk_rng_below(rng, 8), neg = czk_rng_below(rng, 2) ? CZK__SUM_SIGN : 0;
        idx[i] = j | neg;
        czk_g1_affine q = b[j];
        if (neg && !q.inf) czk_g1_affine_neg(&q, &q);
        if (!q.inf) czk_g1_jac_add_affine(&want, &want, &q);
    }
    REQUIRE_OK(czk__circom_sum_g1(&got, b, idx, n, 2));
    CHECK(czk_g1_jac_eq(&got, &want));
    free(b), free(idx);
}
