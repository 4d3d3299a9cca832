/* Groth16 setup's fixed-base multiplication (batch-affine windows, src/groth16/setup.c)
 * against czk_g1_mul_var / czk_g2_mul_var for every window width class,
 * including the edge scalars 0, 1, r - 1 and single-window scalars. */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/groth16.h"

czk_status czk_groth16_fixed_g1_var(czk_g1_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads);
czk_status czk_groth16_fixed_g2_var(czk_g2_affine *out, const czk_fr *k, size_t n, unsigned c,
                                    int threads);

static void edge_scalars(czk_fr *k, size_t n)
{
    czk_rng *rng = czk_test_rng();
    for (size_t i = 0; i < n; i++) czk_fr_random(&k[i], rng);
    czk_fr_from_u64(&k[0], 0);
    czk_fr_from_u64(&k[1], 1);
    czk_fr_neg(&k[2], &k[1]); /* r - 1 */
    czk_fr_from_u64(&k[3], 0xffff);
    czk_fr_from_u64(&k[4], (uint64_t)1 << 63);
    k[5] = k[6]; /* equal scalars in one chunk */
    uint64_t l[4] = {0, 0, 0, (uint64_t)1 << 62};
    czk_fr_from_limbs_reduce(&k[7], l);
}

CZK_TEST(fixed_g1_matches_mul_var)
{
    const int asan = getenv("CZK_TEST_ASAN") != NULL;
    const unsigned widths[] = {0, 1, 2, 5, 8, 13, 16};
    size_t n = 1100; /* spans two chunks */
    czk_fr *k = malloc(n * sizeof *k);
    czk_g1_affine *p = malloc(n * sizeof *p);
    REQUIRE(k && p);
    edge_scalars(k, n);
    czk_g1_affine g;
    czk_g1_generator(&g);
    czk_g1_jac gj;
    czk_g1_jac_from_affine(&gj, &g);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        if (asan && widths[w] > 8) continue;
        memset(p, 0xa5, n * sizeof *p);
        REQUIRE_OK(czk_groth16_fixed_g1_var(p, k, n, widths[w], 2));
        size_t bad = 0, step = asan ? 37 : 1;
        for (size_t i = 0; i < n; i += (i < 8 ? 1 : step)) {
            czk_g1_jac r;
            czk_g1_affine ra;
            czk_g1_mul_var(&r, &gj, &k[i]);
            czk_g1_jac_to_affine(&ra, &r);
            bad += !czk_g1_affine_eq(&ra, &p[i]);
        }
        CHECK_MSG(bad == 0, "window %u: %zu points differ", widths[w], bad);
    }
    CHECK(p[0].inf == 1);
    CHECK(czk_groth16_fixed_g1_var(p, k, 1, 17, 1) == CZK_ERR_INVALID_ARG);
    free(k);
    free(p);
}

CZK_TEST(fixed_g2_matches_mul_var)
{
    const int asan = getenv("CZK_TEST_ASAN") != NULL;
    const unsigned widths[] = {0, 3, 8, 11};
    size_t n = 1030;
    czk_fr *k = malloc(n * sizeof *k);
    czk_g2_affine *p = malloc(n * sizeof *p);
    REQUIRE(k && p);
    edge_scalars(k, n);
    czk_g2_affine g;
    czk_g2_generator(&g);
    czk_g2_jac gj;
    czk_g2_jac_from_affine(&gj, &g);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        if (asan && widths[w] > 8) continue;
        REQUIRE_OK(czk_groth16_fixed_g2_var(p, k, n, widths[w], 2));
        size_t bad = 0, step = asan ? 97 : 7;
        for (size_t i = 0; i < n; i += (i < 8 ? 1 : step)) {
            czk_g2_jac r;
            czk_g2_affine ra;
            czk_g2_mul_var(&r, &gj, &k[i]);
            czk_g2_jac_to_affine(&ra, &r);
            bad += !czk_g2_affine_eq(&ra, &p[i]);
        }
        CHECK_MSG(bad == 0, "window %u: %zu points differ", widths[w], bad);
    }
    CHECK(p[0].inf == 1);
    free(k);
    free(p);
}
