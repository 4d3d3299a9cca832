/* Group-law tests written once over the group descriptor (src/ec/group.h),
 * included by test_g1.c and test_g2.c after ec/group_g1.h / ec/group_g2.h.
 * The including file defines group_test_file (its own __FILE__); the
 * cofactor comes from ec_test_cofactor_g1 / _g2 (GMP, ec_test_util.h). */
#include <stdlib.h>

#include "czk/ec.h"
#include "ec/group_tests.h"
#include "ec_test_util.h"

/* g1_<name> / g2_<name> */
#define T(name) G_CAT(G_ID, G_CAT(_, name))

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
    G_FN(generator)(&g);
    G_FN(jac_from_affine)(&gj, &g);
    rand_fr(&k, rng);
    G_FN(mul_var)(r, &gj, &k);
}

/* A point on the curve found by trying random x until x^3 + b is a square,
 * without cofactor clearing (almost surely outside the subgroup). */
static void rand_curve_point(AFF *r, czk_rng *rng)
{
    FE x, y2, b;
    FE_SET_B(&b);
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
    G_FN(jac_set_inf)(&acc);
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            G_FN(jac_dbl)(&acc, &acc);
            if ((k[i] >> b) & 1) G_FN(jac_add)(&acc, &acc, a);
        }
    *r = acc;
}

GROUP_TEST(T(generator_on_curve_and_in_subgroup))
{
    AFF g;
    G_FN(generator)(&g);
    CHECK(!g.inf);
    CHECK(G_FN(affine_is_on_curve)(&g));
    CHECK(G_FN(affine_in_subgroup)(&g));
    CHECK(G_FN(affine_in_subgroup_ref)(&g));
    AFF bad = g;
    FE_ADD(&bad.y, &bad.y, &bad.x);
    CHECK(!G_FN(affine_is_on_curve)(&bad));
}

GROUP_TEST(T(group_laws))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(100);
    for (size_t it = 0; it < n; it++) {
        JAC a, b, c, t1, t2, inf, na;
        rand_point(&a, rng);
        rand_point(&b, rng);
        rand_point(&c, rng);
        /* associativity and commutativity */
        G_FN(jac_add)(&t1, &a, &b);
        G_FN(jac_add)(&t1, &t1, &c);
        G_FN(jac_add)(&t2, &b, &c);
        G_FN(jac_add)(&t2, &a, &t2);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        G_FN(jac_add)(&t1, &a, &b);
        G_FN(jac_add)(&t2, &b, &a);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        CHECK(!G_FN(jac_eq)(&a, &b));
        /* a + (-a) = inf, a + inf = a, inf + a = a */
        G_FN(jac_neg)(&na, &a);
        G_FN(jac_add)(&t1, &a, &na);
        CHECK(G_FN(jac_is_inf)(&t1));
        G_FN(jac_set_inf)(&inf);
        G_FN(jac_add)(&t1, &a, &inf);
        CHECK(G_FN(jac_eq)(&t1, &a));
        G_FN(jac_add)(&t1, &inf, &a);
        CHECK(G_FN(jac_eq)(&t1, &a));
        /* dbl = add self, also with a different Z for the same point */
        AFF aa;
        JAC a1;
        G_FN(jac_to_affine)(&aa, &a);
        G_FN(jac_from_affine)(&a1, &aa);
        G_FN(jac_dbl)(&t1, &a);
        G_FN(jac_add)(&t2, &a, &a);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        G_FN(jac_add)(&t2, &a, &a1);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        CHECK(G_FN(jac_eq)(&a, &a1));
        /* mixed addition: generic, doubling, inverse and infinity cases */
        AFF ba, nab;
        G_FN(jac_to_affine)(&ba, &b);
        G_FN(jac_add_affine)(&t1, &a, &ba);
        G_FN(jac_add)(&t2, &a, &b);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        G_FN(jac_add_affine)(&t1, &a, &aa);
        G_FN(jac_dbl)(&t2, &a);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        G_FN(affine_neg)(&nab, &aa);
        G_FN(jac_add_affine)(&t1, &a, &nab);
        CHECK(G_FN(jac_is_inf)(&t1));
        G_FN(jac_add_affine)(&t1, &inf, &ba);
        CHECK(G_FN(jac_eq)(&t1, &b));
        AFF ainf;
        G_FN(affine_set_inf)(&ainf);
        G_FN(jac_add_affine)(&t1, &a, &ainf);
        CHECK(G_FN(jac_eq)(&t1, &a));
        /* results stay on the curve */
        AFF r;
        G_FN(jac_add)(&t1, &a, &b);
        G_FN(jac_to_affine)(&r, &t1);
        CHECK(G_FN(affine_is_on_curve)(&r));
        CHECK(G_FN(affine_in_subgroup)(&r));
        CHECK(G_FN(affine_eq)(&r, &r));
        CHECK(!G_FN(affine_eq)(&r, &ainf));
    }
    JAC inf, t;
    G_FN(jac_set_inf)(&inf);
    G_FN(jac_dbl)(&t, &inf);
    CHECK(G_FN(jac_is_inf)(&t));
    G_FN(jac_add)(&t, &inf, &inf);
    CHECK(G_FN(jac_is_inf)(&t));
}

GROUP_TEST(T(scalar_mul))
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
        G_FN(mul_ct)(&t1, &p, &a);
        G_FN(mul_var)(&t2, &p, &a);
        uint64_t al[CZK_FR_LIMBS];
        czk_fr_to_limbs(al, &a);
        mul_ref(&t3, &p, al, CZK_FR_LIMBS);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        CHECK(G_FN(jac_eq)(&t2, &t3));
        /* [a]P + [b]P = [a + b]P, [a]([b]P) = [ab]P */
        G_FN(mul_var)(&t1, &p, &a);
        G_FN(mul_var)(&t2, &p, &b);
        G_FN(jac_add)(&t1, &t1, &t2);
        czk_fr_add(&s, &a, &b);
        G_FN(mul_ct)(&t2, &p, &s);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        G_FN(mul_ct)(&q, &p, &b);
        G_FN(mul_ct)(&t1, &q, &a);
        czk_fr_mul(&s, &a, &b);
        G_FN(mul_var)(&t2, &p, &s);
        CHECK(G_FN(jac_eq)(&t1, &t2));
        /* [r] P = inf */
        G_FN(mul_limbs_var)(&t1, &p, CZK_FR_MODULUS, CZK_FR_LIMBS);
        CHECK(G_FN(jac_is_inf)(&t1));
        /* random 8-limb scalars against the reference */
        uint64_t k8[8];
        for (int i = 0; i < 8; i++) k8[i] = czk_rng_u64(rng);
        k8[7] >>= (it % 64);
        G_FN(mul_limbs_var)(&t1, &p, k8, 8);
        mul_ref(&t2, &p, k8, 8);
        CHECK(G_FN(jac_eq)(&t1, &t2));
    }
    /* edge scalars: 0, 1, 2, r - 1, 2^k, long runs of ones */
    rand_point(&p, rng);
    czk_fr_from_u64(&a, 0);
    G_FN(mul_ct)(&t1, &p, &a);
    CHECK(G_FN(jac_is_inf)(&t1));
    G_FN(mul_var)(&t1, &p, &a);
    CHECK(G_FN(jac_is_inf)(&t1));
    czk_fr_from_u64(&a, 1);
    G_FN(mul_ct)(&t1, &p, &a);
    CHECK(G_FN(jac_eq)(&t1, &p));
    G_FN(mul_var)(&t1, &p, &a);
    CHECK(G_FN(jac_eq)(&t1, &p));
    czk_fr_from_u64(&a, 2);
    G_FN(mul_ct)(&t1, &p, &a);
    G_FN(jac_dbl)(&t2, &p);
    CHECK(G_FN(jac_eq)(&t1, &t2));
    czk_fr_neg(&a, &CZK_FR_ONE);
    G_FN(mul_ct)(&t1, &p, &a);
    G_FN(jac_neg)(&t2, &p);
    CHECK(G_FN(jac_eq)(&t1, &t2));
    G_FN(mul_var)(&t1, &p, &a);
    CHECK(G_FN(jac_eq)(&t1, &t2));
    uint64_t runs[][4] = {{~0ULL, 0, 0, 0},
                          {0, ~0ULL, ~0ULL, 0},
                          {0x8000000000000000ULL, 0, 0, 0x4000000000000000ULL},
                          {0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, 0xf0f0f0f0f0f0f0f0ULL, 0x0fULL}};
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        czk_fr k;
        REQUIRE_OK(czk_fr_from_limbs(&k, runs[i]));
        G_FN(mul_ct)(&t1, &p, &k);
        G_FN(mul_var)(&t2, &p, &k);
        mul_ref(&t3, &p, runs[i], 4);
        CHECK(G_FN(jac_eq)(&t1, &t3));
        CHECK(G_FN(jac_eq)(&t2, &t3));
    }
    /* infinity input */
    JAC inf;
    G_FN(jac_set_inf)(&inf);
    rand_fr(&a, rng);
    G_FN(mul_ct)(&t1, &inf, &a);
    CHECK(G_FN(jac_is_inf)(&t1));
    G_FN(mul_var)(&t1, &inf, &a);
    CHECK(G_FN(jac_is_inf)(&t1));
}

GROUP_TEST(T(batch_to_affine))
{
    czk_rng *rng = czk_test_rng();
    enum { N = 17 };
    JAC pts[N];
    AFF out[N], one;
    FE scratch[N];
    for (int i = 0; i < N; i++) {
        if (i % 5 == 2)
            G_FN(jac_set_inf)(&pts[i]);
        else
            rand_point(&pts[i], rng);
    }
    G_FN(jac_batch_to_affine)(out, pts, N, scratch);
    for (int i = 0; i < N; i++) {
        G_FN(jac_to_affine)(&one, &pts[i]);
        CHECK(G_FN(affine_eq)(&out[i], &one));
        CHECK(out[i].inf == (uint64_t)(i % 5 == 2));
        if (!out[i].inf) CHECK(G_FN(affine_is_on_curve)(&out[i]));
    }
    /* in place */
    JAC copy[N];
    memcpy(copy, pts, sizeof(pts));
    G_FN(jac_batch_to_affine)((AFF *)copy, copy, N, scratch);
    for (int i = 0; i < N; i++) CHECK(G_FN(affine_eq)(&((AFF *)copy)[i], &out[i]));
    G_FN(jac_batch_to_affine)(out, pts, 0, scratch);
}

GROUP_TEST(T(xyzz))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(60);
    for (size_t it = 0; it < n; it++) {
        JAC a, b, j1, j2;
        XYZZ xa, xb, x1, inf;
        AFF aa, ba, na;
        rand_point(&a, rng);
        rand_point(&b, rng);
        G_FN(jac_to_affine)(&aa, &a);
        G_FN(jac_to_affine)(&ba, &b);
        G_FN(xyzz_from_jac)(&xa, &a);
        G_FN(xyzz_from_jac)(&xb, &b);
        G_FN(xyzz_to_jac)(&j1, &xa);
        CHECK(G_FN(jac_eq)(&j1, &a));
        /* add, add_affine, dbl */
        G_FN(xyzz_add)(&x1, &xa, &xb);
        G_FN(xyzz_to_jac)(&j1, &x1);
        G_FN(jac_add)(&j2, &a, &b);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        G_FN(xyzz_add_affine)(&x1, &xa, &ba);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        G_FN(xyzz_dbl)(&x1, &xa);
        G_FN(xyzz_to_jac)(&j1, &x1);
        G_FN(jac_dbl)(&j2, &a);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        /* special cases: P + P, P + (-P), inf + P, P + inf */
        G_FN(xyzz_add_affine)(&x1, &xa, &aa);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        XYZZ xa2;
        G_FN(xyzz_set_inf)(&xa2);
        G_FN(xyzz_add_affine)(&xa2, &xa2, &aa); /* same point, Z = 1 */
        G_FN(xyzz_add)(&x1, &xa, &xa2);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        G_FN(affine_neg)(&na, &aa);
        G_FN(xyzz_add_affine)(&x1, &xa, &na);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_is_inf)(&j1));
        G_FN(xyzz_set_inf)(&xa2);
        G_FN(xyzz_add_affine)(&xa2, &xa2, &na);
        G_FN(xyzz_add)(&x1, &xa, &xa2);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_is_inf)(&j1));
        G_FN(xyzz_set_inf)(&inf);
        G_FN(xyzz_add)(&x1, &inf, &xb);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &b));
        G_FN(xyzz_add)(&x1, &xb, &inf);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &b));
        AFF ainf;
        G_FN(affine_set_inf)(&ainf);
        G_FN(xyzz_add_affine)(&x1, &xb, &ainf);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &b));
        G_FN(xyzz_dbl)(&x1, &inf);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_is_inf)(&j1));
        /* one infinity, ZZ = 0: set_inf writes zeros (zeroed memory is
         * infinity), and X, Y are ignored */
        XYZZ zero, odd;
        memset(&zero, 0, sizeof zero);
        CHECK_MEM(&inf, &zero, sizeof zero);
        G_FN(xyzz_from_jac)(&odd, &b);
        memset(&odd.zz, 0, sizeof odd.zz);
        memset(&odd.zzz, 0, sizeof odd.zzz);
        G_FN(xyzz_to_jac)(&j1, &odd);
        CHECK(G_FN(jac_is_inf)(&j1));
        G_FN(xyzz_add)(&x1, &odd, &xa);
        G_FN(xyzz_add)(&x1, &x1, &odd);
        G_FN(xyzz_add_affine)(&x1, &x1, &ba);
        G_FN(xyzz_to_jac)(&j1, &x1);
        G_FN(jac_add)(&j2, &a, &b);
        CHECK(G_FN(jac_eq)(&j1, &j2));
        G_FN(xyzz_add_affine)(&x1, &odd, &ba);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_eq)(&j1, &b));
        G_FN(xyzz_dbl)(&x1, &odd);
        G_FN(xyzz_to_jac)(&j1, &x1);
        CHECK(G_FN(jac_is_inf)(&j1));
        /* the sum of P and -P is infinity whatever the path */
        G_FN(xyzz_add_affine)(&x1, &xa, &na);
        CHECK(FE_IS_ZERO(&x1.zz) && FE_IS_ZERO(&x1.zzz));
        /* a bucket: sum of many affine points equals the Jacobian sum */
        XYZZ acc;
        JAC jacc;
        G_FN(xyzz_set_inf)(&acc);
        G_FN(jac_set_inf)(&jacc);
        for (int i = 0; i < 8; i++) {
            const AFF *pt = (i % 3 == 0) ? &aa : &ba;
            G_FN(xyzz_add_affine)(&acc, &acc, pt);
            G_FN(jac_add_affine)(&jacc, &jacc, pt);
        }
        G_FN(xyzz_to_jac)(&j1, &acc);
        CHECK(G_FN(jac_eq)(&j1, &jacc));
    }
}

GROUP_TEST(T(subgroup_check_matches_r_multiplication))
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(24);
    uint64_t h[16];
    size_t hn = 0;
    G_LOCAL(ec_test_cofactor)(h, &hn);
    int outside = 0;
    for (size_t it = 0; it < n; it++) {
        AFF c, s;
        JAC cj, sj;
        rand_curve_point(&c, rng);
        REQUIRE(G_FN(affine_is_on_curve)(&c));
        int fast = G_FN(affine_in_subgroup)(&c), ref = G_FN(affine_in_subgroup_ref)(&c);
        CHECK_EQ_U64(fast, ref);
        outside += !ref;
        /* cofactor clearing lands in the subgroup */
        G_FN(jac_from_affine)(&cj, &c);
        G_FN(mul_limbs_var)(&sj, &cj, h, hn);
        G_FN(jac_to_affine)(&s, &sj);
        CHECK(G_FN(affine_in_subgroup)(&s));
        CHECK(G_FN(affine_in_subgroup_ref)(&s));
        /* [r] c has order dividing h: outside unless infinity */
        G_FN(mul_limbs_var)(&sj, &cj, CZK_FR_MODULUS, CZK_FR_LIMBS);
        G_FN(jac_to_affine)(&s, &sj);
        CHECK_EQ_U64(G_FN(affine_in_subgroup)(&s), G_FN(affine_in_subgroup_ref)(&s));
        CHECK_EQ_U64(G_FN(affine_in_subgroup)(&s), s.inf);
        /* subgroup point + small-order point */
        JAC g;
        rand_point(&g, rng);
        G_FN(jac_add)(&g, &g, &sj);
        G_FN(jac_to_affine)(&s, &g);
        CHECK_EQ_U64(G_FN(affine_in_subgroup)(&s), G_FN(affine_in_subgroup_ref)(&s));
        CHECK(!G_FN(affine_in_subgroup)(&s));
    }
    CHECK(outside == (int)n);
    AFF inf;
    G_FN(affine_set_inf)(&inf);
    CHECK(G_FN(affine_in_subgroup)(&inf));
    CHECK(G_FN(affine_is_on_curve)(&inf));
}

/* A small prime dividing the cofactor: 3 | h1, 13 | h2. */
#define SMALL_ORDER (sizeof(FE) == sizeof(czk_fp) ? 3u : 13u)

/* T of order SMALL_ORDER: T = [m] Q for a random curve point Q, m = r h with
 * every factor SMALL_ORDER removed (T lies in the SMALL_ORDER-Sylow
 * subgroup; retried while T = O), then multiplied by SMALL_ORDER while that
 * is not O (the Sylow subgroup of G2 is not cyclic: [r h / 13] Q = O). */
static void small_order_point(AFF *t, czk_rng *rng)
{
    uint64_t h[16], e[16], ell = SMALL_ORDER;
    size_t nh = 0, ne = 0;
    G_LOCAL(ec_test_cofactor)(h, &nh);
    mpz_t m, rz;
    mpz_inits(m, rz, NULL);
    mpz_import(m, nh, -1, sizeof(uint64_t), 0, 0, h);
    CHECK(mpz_divisible_ui_p(m, SMALL_ORDER));
    while (mpz_divisible_ui_p(m, SMALL_ORDER)) mpz_divexact_ui(m, m, SMALL_ORDER);
    mpz_import(rz, CZK_FR_LIMBS, -1, sizeof(uint64_t), 0, 0, CZK_FR_MODULUS);
    mpz_mul(m, m, rz);
    ec_test_export(e, &ne, m);
    mpz_clears(m, rz, NULL);
    JAC j, k;
    do {
        AFF q;
        rand_curve_point(&q, rng);
        G_FN(jac_from_affine)(&j, &q);
        G_FN(mul_limbs_var)(&j, &j, e, ne);
    } while (G_FN(jac_is_inf)(&j));
    for (;;) {
        G_FN(mul_limbs_var)(&k, &j, &ell, 1);
        if (G_FN(jac_is_inf)(&k)) break;
        j = k;
    }
    G_FN(jac_to_affine)(t, &j);
}

/* first_not_in_subgroup on arrays mixing subgroup points, infinity, random
 * curve points and subgroup points plus a point of small order, from every
 * fifth offset, against the [r] P = O reference. */
GROUP_TEST(T(first_not_in_subgroup_matches_ref))
{
    czk_rng *rng = czk_test_rng();
    AFF ts;
    JAC tj;
    small_order_point(&ts, rng);
    uint64_t ell = SMALL_ORDER;
    G_FN(jac_from_affine)(&tj, &ts);
    G_FN(mul_limbs_var)(&tj, &tj, &ell, 1);
    CHECK(G_FN(jac_is_inf)(&tj));
    CHECK(G_FN(affine_is_on_curve)(&ts));
    CHECK(!G_FN(affine_in_subgroup_ref)(&ts));
    CHECK(!G_FN(affine_in_subgroup)(&ts));
    enum { N = 23 };
    AFF a[N];
    size_t n = iters(12);
    for (size_t it = 0; it < n; it++) {
        size_t expect = N;
        for (size_t i = 0; i < N; i++) {
            uint64_t kind = czk_rng_below(rng, 10);
            if (kind == 0) {
                G_FN(affine_set_inf)(&a[i]);
            } else if (kind == 1 && it % 3 == 0) {
                rand_curve_point(&a[i], rng);
            } else if (kind == 2 && it % 3 == 1) {
                JAC j;
                rand_point(&j, rng);
                G_FN(jac_add_affine)(&j, &j, &ts);
                G_FN(jac_to_affine)(&a[i], &j);
            } else {
                JAC j;
                rand_point(&j, rng);
                G_FN(jac_to_affine)(&a[i], &j);
            }
            int in = G_FN(affine_in_subgroup_ref)(&a[i]);
            CHECK_EQ_U64((uint64_t)G_FN(affine_in_subgroup)(&a[i]), (uint64_t)in);
            if (!in && expect == N) expect = i;
        }
        for (size_t from = 0; from < N; from += 5) {
            size_t want = N - from;
            for (size_t i = from; i < N; i++)
                if (!G_FN(affine_in_subgroup_ref)(&a[i])) {
                    want = i - from;
                    break;
                }
            CHECK_EQ_U64(G_FN(affine_first_not_in_subgroup)(a + from, N - from), want);
        }
        CHECK_EQ_U64(G_FN(affine_first_not_in_subgroup)(a, N), expect);
    }
    CHECK_EQ_U64(G_FN(affine_first_not_in_subgroup)(a, 0), 0);
    CHECK_EQ_U64(G_FN(affine_first_not_in_subgroup)(&ts, 1), 0);
}

#undef T
#undef SMALL_ORDER
