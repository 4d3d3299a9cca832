/* czk_g1/g2_affine_first_not_in_subgroup against the [r]P = O reference, on
 * arrays mixing subgroup points, infinity, random curve points and subgroup
 * points plus a small-order component. */
#include <stdlib.h>

#include "../runner.h"
#include "czk/ec.h"
#include "ec_test_util.h"

static size_t n_iters(size_t d)
{
    size_t n = czk_test_iters(d);
    if (getenv("CZK_TEST_ASAN") && n > 2) n /= 3;
    return n;
}

static void g1_rand_sub(czk_g1_affine *r, czk_rng *rng)
{
    czk_g1_affine g;
    czk_g1_jac j;
    czk_fr k;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&j, &g);
    czk_fr_random(&k, rng);
    czk_g1_mul_var(&j, &j, &k);
    czk_g1_jac_to_affine(r, &j);
}

static void g1_rand_curve(czk_g1_affine *r, czk_rng *rng)
{
    czk_fp x, y2, four;
    czk_fp_from_u64(&four, 4);
    for (;;) {
        czk_fp_random(&x, rng);
        czk_fp_sqr(&y2, &x);
        czk_fp_mul(&y2, &y2, &x);
        czk_fp_add(&y2, &y2, &four);
        if (czk_fp_sqrt(&r->y, &y2)) break;
    }
    r->x = x;
    r->inf = 0;
}

/* T of order 3: [r h1 / 3] Q for a random curve point Q (retried until T != O) */
static void g1_order3(czk_g1_affine *t, czk_rng *rng)
{
    uint64_t h[16], r3[16];
    size_t nh = 0, nr = 0;
    ec_test_g1_cofactor(h, &nh);
    mpz_t hz, rz;
    mpz_inits(hz, rz, NULL);
    mpz_import(hz, nh, -1, sizeof(uint64_t), 0, 0, h);
    mpz_divexact_ui(hz, hz, 3);
    mpz_set_str(rz, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    mpz_mul(hz, hz, rz);
    ec_test_export(r3, &nr, hz);
    mpz_clears(hz, rz, NULL);
    for (;;) {
        czk_g1_affine q;
        czk_g1_jac j;
        g1_rand_curve(&q, rng);
        czk_g1_jac_from_affine(&j, &q);
        czk_g1_mul_limbs_var(&j, &j, r3, nr);
        if (czk_g1_jac_is_inf(&j)) continue;
        czk_g1_jac_to_affine(t, &j);
        return;
    }
}

static void g2_rand_sub(czk_g2_affine *r, czk_rng *rng)
{
    czk_g2_affine g;
    czk_g2_jac j;
    czk_fr k;
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&j, &g);
    czk_fr_random(&k, rng);
    czk_g2_mul_var(&j, &j, &k);
    czk_g2_jac_to_affine(r, &j);
}

static void g2_rand_curve(czk_g2_affine *r, czk_rng *rng)
{
    czk_fp2 x, y2, b;
    czk_fp2_set_one(&b);
    czk_fp2_mul_by_nonresidue(&b, &b);
    czk_fp2_dbl(&b, &b);
    czk_fp2_dbl(&b, &b);
    for (;;) {
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&y2, &x);
        czk_fp2_mul(&y2, &y2, &x);
        czk_fp2_add(&y2, &y2, &b);
        if (czk_fp2_sqrt(&r->y, &y2)) break;
    }
    r->x = x;
    r->inf = 0;
}

CZK_TEST(g1_first_not_in_subgroup_matches_ref)
{
    czk_rng *rng = czk_test_rng();
    czk_g1_affine t3;
    g1_order3(&t3, rng);
    CHECK(czk_g1_affine_is_on_curve(&t3));
    CHECK(!czk_g1_affine_in_subgroup_ref(&t3));
    CHECK(!czk_g1_affine_in_subgroup(&t3));
    enum { N = 23 };
    czk_g1_affine a[N];
    size_t iters = n_iters(12);
    for (size_t it = 0; it < iters; it++) {
        size_t expect = N;
        for (size_t i = 0; i < N; i++) {
            uint64_t kind = czk_rng_below(rng, 10);
            if (kind == 0) {
                czk_g1_affine_set_inf(&a[i]);
            } else if (kind == 1 && it % 3 == 0) {
                g1_rand_curve(&a[i], rng);
            } else if (kind == 2 && it % 3 == 1) {
                czk_g1_affine s;
                czk_g1_jac j;
                g1_rand_sub(&s, rng);
                czk_g1_jac_from_affine(&j, &s);
                czk_g1_jac_add_affine(&j, &j, &t3);
                czk_g1_jac_to_affine(&a[i], &j);
            } else {
                g1_rand_sub(&a[i], rng);
            }
            int in = czk_g1_affine_in_subgroup_ref(&a[i]);
            CHECK_EQ_U64((uint64_t)czk_g1_affine_in_subgroup(&a[i]), (uint64_t)in);
            if (!in && expect == N) expect = i;
        }
        for (size_t from = 0; from < N; from += 5) {
            size_t want = N - from;
            for (size_t i = from; i < N; i++)
                if (!czk_g1_affine_in_subgroup_ref(&a[i])) {
                    want = i - from;
                    break;
                }
            CHECK_EQ_U64(czk_g1_affine_first_not_in_subgroup(a + from, N - from), want);
        }
        CHECK_EQ_U64(czk_g1_affine_first_not_in_subgroup(a, N), expect);
    }
    CHECK_EQ_U64(czk_g1_affine_first_not_in_subgroup(a, 0), 0);
    czk_g1_affine one = t3;
    CHECK_EQ_U64(czk_g1_affine_first_not_in_subgroup(&one, 1), 0);
}

CZK_TEST(g2_first_not_in_subgroup_matches_ref)
{
    czk_rng *rng = czk_test_rng();
    enum { N = 13 };
    czk_g2_affine a[N];
    size_t iters = n_iters(8);
    for (size_t it = 0; it < iters; it++) {
        size_t expect = N;
        for (size_t i = 0; i < N; i++) {
            uint64_t kind = czk_rng_below(rng, 8);
            if (kind == 0)
                czk_g2_affine_set_inf(&a[i]);
            else if (kind == 1 && it % 2 == 0)
                g2_rand_curve(&a[i], rng);
            else
                g2_rand_sub(&a[i], rng);
            int in = czk_g2_affine_in_subgroup_ref(&a[i]);
            CHECK_EQ_U64((uint64_t)czk_g2_affine_in_subgroup(&a[i]), (uint64_t)in);
            if (!in && expect == N) expect = i;
        }
        CHECK_EQ_U64(czk_g2_affine_first_not_in_subgroup(a, N), expect);
    }
    CHECK_EQ_U64(czk_g2_affine_first_not_in_subgroup(a, 0), 0);
}
