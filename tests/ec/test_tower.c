/* Fp2 / Fp6 / Fp12 against schoolbook references, Frobenius against
 * exponentiation by p^k (GMP computes p^k), cyclotomic squaring against
 * plain squaring. */
#include <gmp.h>
#include <stdlib.h>

#include "czk/tower.h"
#include "ff/tower_internal.h"
#include "runner.h"

static size_t iters(size_t d)
{
    size_t n = czk_test_iters(d);
    if (getenv("CZK_TEST_ASAN")) n = n / 5 + 1;
    return n;
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u */
static void fp2_mul_ref(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b)
{
    czk_fp t0, t1, t2, t3;
    czk_fp_mul(&t0, &a->c0, &b->c0);
    czk_fp_mul(&t1, &a->c1, &b->c1);
    czk_fp_mul(&t2, &a->c0, &b->c1);
    czk_fp_mul(&t3, &a->c1, &b->c0);
    czk_fp_sub(&r->c0, &t0, &t1);
    czk_fp_add(&r->c1, &t2, &t3);
}

/* schoolbook: sum a_i b_j v^(i+j), v^3 = xi */
static void fp6_mul_ref(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b)
{
    const czk_fp2 *ac[3] = {&a->c0, &a->c1, &a->c2}, *bc[3] = {&b->c0, &b->c1, &b->c2};
    czk_fp2 acc[5], t;
    for (int i = 0; i < 5; i++) czk_fp2_set_zero(&acc[i]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            fp2_mul_ref(&t, ac[i], bc[j]);
            czk_fp2_add(&acc[i + j], &acc[i + j], &t);
        }
    czk_fp2 xi;
    czk_fp2_set_one(&xi);
    xi.c1 = CZK_FP_ONE;
    fp2_mul_ref(&t, &acc[3], &xi);
    czk_fp2_add(&r->c0, &acc[0], &t);
    fp2_mul_ref(&t, &acc[4], &xi);
    czk_fp2_add(&r->c1, &acc[1], &t);
    r->c2 = acc[2];
}

/* (a0 + a1 w)(b0 + b1 w) = (a0 b0 + a1 b1 v) + (a0 b1 + a1 b0) w */
static void fp12_mul_ref(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b)
{
    czk_fp6 t0, t1, t2, t3, v;
    fp6_mul_ref(&t0, &a->c0, &b->c0);
    fp6_mul_ref(&t1, &a->c1, &b->c1);
    fp6_mul_ref(&t2, &a->c0, &b->c1);
    fp6_mul_ref(&t3, &a->c1, &b->c0);
    czk_fp6_set_zero(&v);
    czk_fp2_set_one(&v.c1);
    fp6_mul_ref(&t1, &t1, &v);
    czk_fp6_add(&r->c0, &t0, &t1);
    czk_fp6_add(&r->c1, &t2, &t3);
}

static void rand_fp6(czk_fp6 *r, czk_rng *rng)
{
    czk_fp2_random(&r->c0, rng);
    czk_fp2_random(&r->c1, rng);
    czk_fp2_random(&r->c2, rng);
}

CZK_TEST(fp2_arith)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(200);
    for (size_t it = 0; it < n; it++) {
        czk_fp2 a, b, c, r1, r2, t;
        czk_fp2_random(&a, rng);
        czk_fp2_random(&b, rng);
        czk_fp2_random(&c, rng);
        czk_fp2_mul(&r1, &a, &b);
        fp2_mul_ref(&r2, &a, &b);
        CHECK(czk_fp2_eq(&r1, &r2));
        czk_fp2_sqr(&r1, &a);
        fp2_mul_ref(&r2, &a, &a);
        CHECK(czk_fp2_eq(&r1, &r2));
        /* aliasing */
        r1 = a;
        czk_fp2_mul(&r1, &r1, &r1);
        CHECK(czk_fp2_eq(&r1, &r2));
        /* distributivity */
        czk_fp2_add(&t, &b, &c);
        czk_fp2_mul(&r1, &a, &t);
        czk_fp2_mul(&r2, &a, &b);
        czk_fp2_mul(&t, &a, &c);
        czk_fp2_add(&r2, &r2, &t);
        CHECK(czk_fp2_eq(&r1, &r2));
        /* inverse */
        czk_fp2_inv(&r1, &a);
        czk_fp2_mul(&r1, &r1, &a);
        CHECK(czk_fp2_is_one(&r1));
        czk_fp2_inv_var(&r2, &a);
        czk_fp2_inv(&r1, &a);
        CHECK(czk_fp2_eq(&r1, &r2));
        /* (1 + u) non-residue multiplication */
        czk_fp2 xi;
        czk_fp2_set_one(&xi);
        xi.c1 = CZK_FP_ONE;
        czk_fp2_mul_by_nonresidue(&r1, &a);
        czk_fp2_mul(&r2, &a, &xi);
        CHECK(czk_fp2_eq(&r1, &r2));
        /* conj(a) = a^p */
        czk_fp2_conj(&r1, &a);
        czk_fp2_pow_var(&r2, &a, CZK_FP_MODULUS, CZK_FP_LIMBS);
        if (it < 5) CHECK(czk_fp2_eq(&r1, &r2));
        /* sqrt of a square; xi * square is not a square */
        czk_fp2_sqr(&t, &a);
        CHECK(czk_fp2_sqrt(&r1, &t));
        czk_fp2_sqr(&r2, &r1);
        CHECK(czk_fp2_eq(&r2, &t));
        czk_fp2_mul(&t, &t, &xi);
        CHECK(!czk_fp2_sqrt(&r1, &t));
        CHECK(czk_fp2_is_zero(&r1));
        /* dbl, neg, sub */
        czk_fp2_dbl(&r1, &a);
        czk_fp2_add(&r2, &a, &a);
        CHECK(czk_fp2_eq(&r1, &r2));
        czk_fp2_neg(&r1, &a);
        czk_fp2_add(&r1, &r1, &a);
        CHECK(czk_fp2_is_zero(&r1));
        czk_fp2_sub(&r1, &a, &b);
        czk_fp2_add(&r1, &r1, &b);
        CHECK(czk_fp2_eq(&r1, &a));
        /* cmov, mul_fp */
        r1 = a;
        czk_fp2_cmov(&r1, &b, 0);
        CHECK(czk_fp2_eq(&r1, &a));
        czk_fp2_cmov(&r1, &b, 1);
        CHECK(czk_fp2_eq(&r1, &b));
        czk_fp2 bf = {b.c0, CZK_FP_ZERO};
        czk_fp2_mul_fp(&r1, &a, &b.c0);
        fp2_mul_ref(&r2, &a, &bf);
        CHECK(czk_fp2_eq(&r1, &r2));
    }
    /* sqrt of elements of Fp (a1 = 0), both residues and non-residues of Fp */
    for (uint64_t v = 1; v < 20; v++) {
        czk_fp2 a, r, s;
        czk_fp_from_u64(&a.c0, v);
        a.c1 = CZK_FP_ZERO;
        CHECK(czk_fp2_sqrt(&r, &a));
        czk_fp2_sqr(&s, &r);
        CHECK(czk_fp2_eq(&s, &a));
        czk_fp2_neg(&a, &a);
        CHECK(czk_fp2_sqrt(&r, &a));
        czk_fp2_sqr(&s, &r);
        CHECK(czk_fp2_eq(&s, &a));
    }
    czk_fp2 z, r;
    czk_fp2_set_zero(&z);
    CHECK(czk_fp2_sqrt(&r, &z) && czk_fp2_is_zero(&r));
    czk_fp2_inv(&r, &z);
    CHECK(czk_fp2_is_zero(&r));
    /* lexicographic order: c1 decides, then c0 */
    czk_fp2 a;
    czk_fp_from_u64(&a.c0, 1);
    czk_fp_neg(&a.c1, &a.c0); /* c1 = p - 1 > (p-1)/2 */
    CHECK(czk_fp2_is_lex_largest(&a));
    czk_fp_from_u64(&a.c1, 1);
    czk_fp_neg(&a.c0, &a.c1);
    CHECK(!czk_fp2_is_lex_largest(&a));
    a.c1 = CZK_FP_ZERO;
    CHECK(czk_fp2_is_lex_largest(&a));
}

CZK_TEST(fp6_arith)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(100);
    for (size_t it = 0; it < n; it++) {
        czk_fp6 a, b, r1, r2, t;
        rand_fp6(&a, rng);
        rand_fp6(&b, rng);
        czk_fp6_mul(&r1, &a, &b);
        fp6_mul_ref(&r2, &a, &b);
        CHECK(czk_fp6_eq(&r1, &r2));
        czk_fp6_sqr(&r1, &a);
        fp6_mul_ref(&r2, &a, &a);
        CHECK(czk_fp6_eq(&r1, &r2));
        czk_fp6_inv(&r1, &a);
        czk_fp6_mul(&r1, &r1, &a);
        czk_fp6_set_one(&t);
        CHECK(czk_fp6_eq(&r1, &t));
        /* times v */
        czk_fp6 v;
        czk_fp6_set_zero(&v);
        czk_fp2_set_one(&v.c1);
        czk_fp6_mul_by_nonresidue(&r1, &a);
        fp6_mul_ref(&r2, &a, &v);
        CHECK(czk_fp6_eq(&r1, &r2));
        /* sparse products */
        t = b;
        czk_fp2_set_zero(&t.c2);
        czk_fp6_mul_by_01(&r1, &a, &t.c0, &t.c1);
        fp6_mul_ref(&r2, &a, &t);
        CHECK(czk_fp6_eq(&r1, &r2));
        czk_fp2_set_zero(&t.c0);
        czk_fp6_mul_by_1(&r1, &a, &t.c1);
        fp6_mul_ref(&r2, &a, &t);
        CHECK(czk_fp6_eq(&r1, &r2));
        r1 = a;
        czk_fp6_mul_by_1(&r1, &r1, &t.c1);
        CHECK(czk_fp6_eq(&r1, &r2));
        czk_fp6_sub(&r1, &a, &b);
        czk_fp6_add(&r1, &r1, &b);
        CHECK(czk_fp6_eq(&r1, &a));
        czk_fp6_neg(&r1, &a);
        czk_fp6_add(&r1, &r1, &a);
        CHECK(czk_fp6_is_zero(&r1));
    }
}

/* p^k as plain limbs (at most 18) */
static size_t p_power_limbs(uint64_t *out, unsigned k)
{
    mpz_t p, e;
    mpz_inits(p, e, NULL);
    mpz_import(p, CZK_FP_LIMBS, -1, sizeof(uint64_t), 0, 0, CZK_FP_MODULUS);
    mpz_pow_ui(e, p, k);
    size_t cnt = 0;
    memset(out, 0, 18 * sizeof(uint64_t));
    mpz_export(out, &cnt, -1, sizeof(uint64_t), 0, 0, e);
    mpz_clears(p, e, NULL);
    return cnt;
}

CZK_TEST(fp12_arith)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(40);
    for (size_t it = 0; it < n; it++) {
        czk_fp12 a, b, r1, r2, one;
        czk_fp12_random(&a, rng);
        czk_fp12_random(&b, rng);
        czk_fp12_mul(&r1, &a, &b);
        fp12_mul_ref(&r2, &a, &b);
        CHECK(czk_fp12_eq(&r1, &r2));
        czk_fp12_sqr(&r1, &a);
        fp12_mul_ref(&r2, &a, &a);
        CHECK(czk_fp12_eq(&r1, &r2));
        r1 = a;
        czk_fp12_sqr(&r1, &r1);
        CHECK(czk_fp12_eq(&r1, &r2));
        czk_fp12_inv(&r1, &a);
        czk_fp12_mul(&r1, &r1, &a);
        CHECK(czk_fp12_is_one(&r1));
        czk_fp12_set_one(&one);
        CHECK(czk_fp12_eq(&r1, &one));
        /* sparse line product */
        czk_fp12 l;
        czk_fp12_set_zero(&l);
        czk_fp2_random(&l.c0.c0, rng);
        czk_fp2_random(&l.c0.c1, rng);
        czk_fp2_random(&l.c1.c1, rng);
        czk_fp12_mul_by_014(&r1, &a, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        fp12_mul_ref(&r2, &a, &l);
        CHECK(czk_fp12_eq(&r1, &r2));
        r1 = a;
        czk_fp12_mul_by_014(&r1, &r1, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        CHECK(czk_fp12_eq(&r1, &r2));
        /* conj = a^(p^6) on the Fp6 coefficients: (a0 + a1 w) -> (a0 - a1 w) */
        czk_fp12_conj(&r1, &a);
        czk_fp12_add(&r2, &r1, &a);
        CHECK(czk_fp6_is_zero(&r2.c1));
        czk_fp12_sub(&r2, &a, &b);
        czk_fp12_add(&r2, &r2, &b);
        CHECK(czk_fp12_eq(&r2, &a));
        CHECK(!czk_fp12_eq(&a, &b));
    }
}

CZK_TEST(fp12_frobenius_is_power_of_p)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(4);
    uint64_t e[18];
    for (size_t it = 0; it < n; it++) {
        czk_fp12 a, r1, r2, r3;
        czk_fp12_random(&a, rng);
        for (unsigned k = 1; k <= 3; k++) {
            size_t nl = p_power_limbs(e, k);
            czk_fp12_frobenius(&r1, &a, k);
            czk_fp12_pow_var(&r2, &a, e, nl);
            CHECK_MSG(czk_fp12_eq(&r1, &r2), "frobenius k=%u", k);
            r3 = a;
            czk_fp12_frobenius(&r3, &r3, k);
            CHECK(czk_fp12_eq(&r3, &r1));
        }
        /* frobenius^12 = identity, frobenius^6 = conjugation */
        r1 = a;
        for (int i = 0; i < 2; i++) czk_fp12_frobenius(&r1, &r1, 3);
        czk_fp12_conj(&r2, &a);
        CHECK(czk_fp12_eq(&r1, &r2));
        for (int i = 0; i < 2; i++) czk_fp12_frobenius(&r1, &r1, 3);
        CHECK(czk_fp12_eq(&r1, &a));
    }
    /* gamma_1[j]^6... the constants are powers of xi: gamma_1[1]^6 = xi^(p-1) */
    czk_fp2 g = *czk__fp12_frob_coeff(1, 1), g6, xi, xip;
    czk_fp2_sqr(&g6, &g);
    czk_fp2_mul(&g6, &g6, &g);
    czk_fp2_sqr(&g6, &g6);
    czk_fp2_set_one(&xi);
    xi.c1 = CZK_FP_ONE;
    czk_fp2_conj(&xip, &xi); /* xi^p */
    czk_fp2_inv(&xi, &xi);
    czk_fp2_mul(&xip, &xip, &xi);
    CHECK(czk_fp2_eq(&g6, &xip));
}

/* The cyclotomic subgroup: f^((p^6 - 1)(p^2 + 1)) */
static void to_cyclotomic(czk_fp12 *r, const czk_fp12 *f)
{
    czk_fp12 t, g;
    czk_fp12_inv(&t, f);
    czk_fp12_conj(&g, f);
    czk_fp12_mul(&g, &g, &t);
    czk_fp12_frobenius(&t, &g, 2);
    czk_fp12_mul(r, &g, &t);
}

CZK_TEST(fp12_cyclotomic_sqr)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(40);
    for (size_t it = 0; it < n; it++) {
        czk_fp12 f, g, r1, r2;
        czk_fp12_random(&f, rng);
        to_cyclotomic(&g, &f);
        czk_fp12_cyclotomic_sqr(&r1, &g);
        czk_fp12_sqr(&r2, &g);
        CHECK(czk_fp12_eq(&r1, &r2));
        /* unitary: g conj(g) = 1 */
        czk_fp12_conj(&r1, &g);
        czk_fp12_mul(&r1, &r1, &g);
        CHECK(czk_fp12_is_one(&r1));
        r1 = g;
        czk_fp12_cyclotomic_sqr(&r1, &r1);
        CHECK(czk_fp12_eq(&r1, &r2));
    }
}
