/* Group-law tests shared by test_g1.c and test_g2.c.
 *
 * The including file defines FE, AFF, JAC, XYZZ, P(name) (czk_g1_##name ...),
 * FE_EQ, FE_RANDOM(r, rng), FE_SQRT, FE_SQR, FE_MUL, FE_ADD, FE_B(r) (the curve
 * constant), T(name) (test-name prefix), COFACTOR(limbs, &n) (the cofactor
 * as plain limbs, from GMP) and curve_test_file (its own __FILE__).
 */
#include <stdlib.h>

#include "czk/ec.h"
#include "runner.h"

/* CZK_TEST registering under the including file's name (so that
 * `--file test_g1` selects these tests), with T(name) expanded first. */
#define CTEST2(name)                                                                    \
    static void czk_test_##name(void);                                                  \
    __attribute__((constructor)) static void czk_test_reg_##name(void)                  \
    {                                                                                   \
        czk__test_register(curve_test_file, #name, czk_test_##name);                    \
    }                                                                                   \
    static void czk_test_##name(void)
#define CTEST(n) CTEST2(n)

static size_t iters(size_t d)
{
    size_t n = czk_test_iters(d);
    if (getenv("CZK_TEST_ASAN")) n = n / 5 + 1;
    return n;
}

static void rand_fr(czk_fr *k, czk_rng *rng) { czk_fr_random(k, rng); }

/* A random subgroup point [k] G (Jacobian, Z != 1 in general). */
static void rand_point(JAC *r, czk_rng *rng)
{
    AFF g;
    JAC gj;
    czk_fr k;
    P(generator)(&g);
    P(jac_from_affine)(&gj, &g);
    rand_fr(&k, rng);
    P(mul_var)(r, &gj, &k);
}

/* A point on the curve found by trying random x until x^3 + b is a square,
 * without cofactor clearing (almost surely outside the subgroup). */
static void rand_curve_point(AFF *r, czk_rng *rng)
{
    FE x, y2, b;
    FE_B(&b);
    for (;;) {
        FE_RANDOM(&x, rng);
        FE_SQR(&y2, &x);
        FE_MUL(&y2, &y2, &x);
        FE_ADD(&y2, &y2, &b);
        if (FE_SQRT(&r->y, &y2)) break;
    }
    r->x = x;
    r->inf = 0;
}

/* Slow reference multiplication: binary double-and-add over the bits of k. */
static void mul_ref(JAC *r, const JAC *a, const uint64_t *k, size_t n)
{
    JAC acc;
    P(jac_set_inf)(&acc);
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            P(jac_dbl)(&acc, &acc);
            if ((k[i] >> b) & 1) P(jac_add)(&acc, &acc, a);
        }
    *r = acc;
}

CTEST(T(generator_on_curve_and_in_subgroup))
{
    AFF g;
    P(generator)(&g);
    CHECK(!g.inf);
    CHECK(P(affine_is_on_curve)(&g));
    CHECK(P(affine_in_subgroup)(&g));
    CHECK(P(affine_in_subgroup_ref)(&g));
    AFF bad = g;
    FE_ADD(&bad.y, &bad.y, &bad.x);
    CHECK(!P(affine_is_on_curve)(&bad));
}

CTEST(T(group_laws))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(100);
    for (size_t it = 0; it < n; it++) {
        JAC a, b, c, t1, t2, inf, na;
        rand_point(&a, rng);
        rand_point(&b, rng);
        rand_point(&c, rng);
        /* associativity and commutativity */
        P(jac_add)(&t1, &a, &b);
        P(jac_add)(&t1, &t1, &c);
        P(jac_add)(&t2, &b, &c);
        P(jac_add)(&t2, &a, &t2);
        CHECK(P(jac_eq)(&t1, &t2));
        P(jac_add)(&t1, &a, &b);
        P(jac_add)(&t2, &b, &a);
        CHECK(P(jac_eq)(&t1, &t2));
        CHECK(!P(jac_eq)(&a, &b));
        /* a + (-a) = inf, a + inf = a, inf + a = a */
        P(jac_neg)(&na, &a);
        P(jac_add)(&t1, &a, &na);
        CHECK(P(jac_is_inf)(&t1));
        P(jac_set_inf)(&inf);
        P(jac_add)(&t1, &a, &inf);
        CHECK(P(jac_eq)(&t1, &a));
        P(jac_add)(&t1, &inf, &a);
        CHECK(P(jac_eq)(&t1, &a));
        /* dbl = add self, also with a different Z for the same point */
        AFF aa;
        JAC a1;
        P(jac_to_affine)(&aa, &a);
        P(jac_from_affine)(&a1, &aa);
        P(jac_dbl)(&t1, &a);
        P(jac_add)(&t2, &a, &a);
        CHECK(P(jac_eq)(&t1, &t2));
        P(jac_add)(&t2, &a, &a1);
        CHECK(P(jac_eq)(&t1, &t2));
        CHECK(P(jac_eq)(&a, &a1));
        /* mixed addition: generic, doubling, inverse and infinity cases */
        AFF ba, nab;
        P(jac_to_affine)(&ba, &b);
        P(jac_add_affine)(&t1, &a, &ba);
        P(jac_add)(&t2, &a, &b);
        CHECK(P(jac_eq)(&t1, &t2));
        P(jac_add_affine)(&t1, &a, &aa);
        P(jac_dbl)(&t2, &a);
        CHECK(P(jac_eq)(&t1, &t2));
        P(affine_neg)(&nab, &aa);
        P(jac_add_affine)(&t1, &a, &nab);
        CHECK(P(jac_is_inf)(&t1));
        P(jac_add_affine)(&t1, &inf, &ba);
        CHECK(P(jac_eq)(&t1, &b));
        AFF ainf;
        P(affine_set_inf)(&ainf);
        P(jac_add_affine)(&t1, &a, &ainf);
        CHECK(P(jac_eq)(&t1, &a));
        /* results stay on the curve */
        AFF r;
        P(jac_add)(&t1, &a, &b);
        P(jac_to_affine)(&r, &t1);
        CHECK(P(affine_is_on_curve)(&r));
        CHECK(P(affine_in_subgroup)(&r));
        CHECK(P(affine_eq)(&r, &r));
        CHECK(!P(affine_eq)(&r, &ainf));
    }
    JAC inf, t;
    P(jac_set_inf)(&inf);
    P(jac_dbl)(&t, &inf);
    CHECK(P(jac_is_inf)(&t));
    P(jac_add)(&t, &inf, &inf);
    CHECK(P(jac_is_inf)(&t));
}

CTEST(T(scalar_mul))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(40);
    JAC p, q, t1, t2, t3;
    czk_fr a, b, s;
    for (size_t it = 0; it < n; it++) {
        rand_point(&p, rng);
        rand_fr(&a, rng);
        rand_fr(&b, rng);
        /* ct = var = reference */
        P(mul_ct)(&t1, &p, &a);
        P(mul_var)(&t2, &p, &a);
        uint64_t al[CZK_FR_LIMBS];
        czk_fr_to_limbs(al, &a);
        mul_ref(&t3, &p, al, CZK_FR_LIMBS);
        CHECK(P(jac_eq)(&t1, &t2));
        CHECK(P(jac_eq)(&t2, &t3));
        /* [a]P + [b]P = [a + b]P, [a]([b]P) = [ab]P */
        P(mul_var)(&t1, &p, &a);
        P(mul_var)(&t2, &p, &b);
        P(jac_add)(&t1, &t1, &t2);
        czk_fr_add(&s, &a, &b);
        P(mul_ct)(&t2, &p, &s);
        CHECK(P(jac_eq)(&t1, &t2));
        P(mul_ct)(&q, &p, &b);
        P(mul_ct)(&t1, &q, &a);
        czk_fr_mul(&s, &a, &b);
        P(mul_var)(&t2, &p, &s);
        CHECK(P(jac_eq)(&t1, &t2));
        /* [r] P = inf */
        P(mul_limbs_var)(&t1, &p, CZK_FR_MODULUS, CZK_FR_LIMBS);
        CHECK(P(jac_is_inf)(&t1));
        /* random 8-limb scalars against the reference */
        uint64_t k8[8];
        for (int i = 0; i < 8; i++) k8[i] = czk_rng_u64(rng);
        k8[7] >>= (it % 64);
        P(mul_limbs_var)(&t1, &p, k8, 8);
        mul_ref(&t2, &p, k8, 8);
        CHECK(P(jac_eq)(&t1, &t2));
    }
    /* edge scalars: 0, 1, 2, r - 1, 2^k, long runs of ones */
    rand_point(&p, rng);
    czk_fr_from_u64(&a, 0);
    P(mul_ct)(&t1, &p, &a);
    CHECK(P(jac_is_inf)(&t1));
    P(mul_var)(&t1, &p, &a);
    CHECK(P(jac_is_inf)(&t1));
    czk_fr_from_u64(&a, 1);
    P(mul_ct)(&t1, &p, &a);
    CHECK(P(jac_eq)(&t1, &p));
    P(mul_var)(&t1, &p, &a);
    CHECK(P(jac_eq)(&t1, &p));
    czk_fr_from_u64(&a, 2);
    P(mul_ct)(&t1, &p, &a);
    P(jac_dbl)(&t2, &p);
    CHECK(P(jac_eq)(&t1, &t2));
    czk_fr_neg(&a, &CZK_FR_ONE);
    P(mul_ct)(&t1, &p, &a);
    P(jac_neg)(&t2, &p);
    CHECK(P(jac_eq)(&t1, &t2));
    P(mul_var)(&t1, &p, &a);
    CHECK(P(jac_eq)(&t1, &t2));
    uint64_t runs[][4] = {{~0ULL, 0, 0, 0},
                          {0, ~0ULL, ~0ULL, 0},
                          {0x8000000000000000ULL, 0, 0, 0x4000000000000000ULL},
                          {0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, 0xf0f0f0f0f0f0f0f0ULL, 0x0fULL}};
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        czk_fr k;
        REQUIRE_OK(czk_fr_from_limbs(&k, runs[i]));
        P(mul_ct)(&t1, &p, &k);
        P(mul_var)(&t2, &p, &k);
        mul_ref(&t3, &p, runs[i], 4);
        CHECK(P(jac_eq)(&t1, &t3));
        CHECK(P(jac_eq)(&t2, &t3));
    }
    /* infinity input */
    JAC inf;
    P(jac_set_inf)(&inf);
    rand_fr(&a, rng);
    P(mul_ct)(&t1, &inf, &a);
    CHECK(P(jac_is_inf)(&t1));
    P(mul_var)(&t1, &inf, &a);
    CHECK(P(jac_is_inf)(&t1));
}

CTEST(T(batch_to_affine))
{
    czk_rng *rng = czk_test_rng();
    enum { N = 17 };
    JAC pts[N];
    AFF out[N], one;
    FE scratch[N];
    for (int i = 0; i < N; i++) {
        if (i % 5 == 2)
            P(jac_set_inf)(&pts[i]);
        else
            rand_point(&pts[i], rng);
    }
    P(jac_batch_to_affine)(out, pts, N, scratch);
    for (int i = 0; i < N; i++) {
        P(jac_to_affine)(&one, &pts[i]);
        CHECK(P(affine_eq)(&out[i], &one));
        CHECK(out[i].inf == (uint64_t)(i % 5 == 2));
        if (!out[i].inf) CHECK(P(affine_is_on_curve)(&out[i]));
    }
    /* in place */
    JAC copy[N];
    memcpy(copy, pts, sizeof(pts));
    P(jac_batch_to_affine)((AFF *)copy, copy, N, scratch);
    for (int i = 0; i < N; i++) CHECK(P(affine_eq)(&((AFF *)copy)[i], &out[i]));
    P(jac_batch_to_affine)(out, pts, 0, scratch);
}

CTEST(T(xyzz))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(60);
    for (size_t it = 0; it < n; it++) {
        JAC a, b, j1, j2;
        XYZZ xa, xb, x1, inf;
        AFF aa, ba, na;
        rand_point(&a, rng);
        rand_point(&b, rng);
        P(jac_to_affine)(&aa, &a);
        P(jac_to_affine)(&ba, &b);
        P(xyzz_from_jac)(&xa, &a);
        P(xyzz_from_jac)(&xb, &b);
        P(xyzz_to_jac)(&j1, &xa);
        CHECK(P(jac_eq)(&j1, &a));
        /* add, add_affine, dbl */
        P(xyzz_add)(&x1, &xa, &xb);
        P(xyzz_to_jac)(&j1, &x1);
        P(jac_add)(&j2, &a, &b);
        CHECK(P(jac_eq)(&j1, &j2));
        P(xyzz_add_affine)(&x1, &xa, &ba);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &j2));
        P(xyzz_dbl)(&x1, &xa);
        P(xyzz_to_jac)(&j1, &x1);
        P(jac_dbl)(&j2, &a);
        CHECK(P(jac_eq)(&j1, &j2));
        /* special cases: P + P, P + (-P), inf + P, P + inf */
        P(xyzz_add_affine)(&x1, &xa, &aa);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &j2));
        XYZZ xa2;
        P(xyzz_set_inf)(&xa2);
        P(xyzz_add_affine)(&xa2, &xa2, &aa); /* same point, Z = 1 */
        P(xyzz_add)(&x1, &xa, &xa2);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &j2));
        P(affine_neg)(&na, &aa);
        P(xyzz_add_affine)(&x1, &xa, &na);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_is_inf)(&j1));
        P(xyzz_set_inf)(&xa2);
        P(xyzz_add_affine)(&xa2, &xa2, &na);
        P(xyzz_add)(&x1, &xa, &xa2);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_is_inf)(&j1));
        P(xyzz_set_inf)(&inf);
        P(xyzz_add)(&x1, &inf, &xb);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &b));
        P(xyzz_add)(&x1, &xb, &inf);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &b));
        AFF ainf;
        P(affine_set_inf)(&ainf);
        P(xyzz_add_affine)(&x1, &xb, &ainf);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_eq)(&j1, &b));
        P(xyzz_dbl)(&x1, &inf);
        P(xyzz_to_jac)(&j1, &x1);
        CHECK(P(jac_is_inf)(&j1));
        /* a bucket: sum of many affine points equals the Jacobian sum */
        XYZZ acc;
        JAC jacc;
        P(xyzz_set_inf)(&acc);
        P(jac_set_inf)(&jacc);
        for (int i = 0; i < 8; i++) {
            const AFF *pt = (i % 3 == 0) ? &aa : &ba;
            P(xyzz_add_affine)(&acc, &acc, pt);
            P(jac_add_affine)(&jacc, &jacc, pt);
        }
        P(xyzz_to_jac)(&j1, &acc);
        CHECK(P(jac_eq)(&j1, &jacc));
    }
}

CTEST(T(subgroup_check_matches_r_multiplication))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(24);
    uint64_t h[16];
    size_t hn = 0;
    COFACTOR(h, &hn);
    int outside = 0;
    for (size_t it = 0; it < n; it++) {
        AFF c, s;
        JAC cj, sj;
        rand_curve_point(&c, rng);
        REQUIRE(P(affine_is_on_curve)(&c));
        int fast = P(affine_in_subgroup)(&c), ref = P(affine_in_subgroup_ref)(&c);
        CHECK_EQ_U64(fast, ref);
        outside += !ref;
        /* cofactor clearing lands in the subgroup */
        P(jac_from_affine)(&cj, &c);
        P(mul_limbs_var)(&sj, &cj, h, hn);
        P(jac_to_affine)(&s, &sj);
        CHECK(P(affine_in_subgroup)(&s));
        CHECK(P(affine_in_subgroup_ref)(&s));
        /* [r] c has order dividing h: outside unless infinity */
        P(mul_limbs_var)(&sj, &cj, CZK_FR_MODULUS, CZK_FR_LIMBS);
        P(jac_to_affine)(&s, &sj);
        CHECK_EQ_U64(P(affine_in_subgroup)(&s), P(affine_in_subgroup_ref)(&s));
        CHECK_EQ_U64(P(affine_in_subgroup)(&s), s.inf);
        /* subgroup point + small-order point */
        JAC g;
        rand_point(&g, rng);
        P(jac_add)(&g, &g, &sj);
        P(jac_to_affine)(&s, &g);
        CHECK_EQ_U64(P(affine_in_subgroup)(&s), P(affine_in_subgroup_ref)(&s));
        CHECK(!P(affine_in_subgroup)(&s));
    }
    CHECK(outside == (int)n);
    AFF inf;
    P(affine_set_inf)(&inf);
    CHECK(P(affine_in_subgroup)(&inf));
    CHECK(P(affine_is_on_curve)(&inf));
}
