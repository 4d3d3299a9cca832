/* Optimal ate pairing: final exponentiation against plain exponentiation by
 * 3 (p^12 - 1)/r (GMP), bilinearity, non-degeneracy, inverses, multi-pairing,
 * prepared G2 points, and a known value cross-checked with blst. */
#include <gmp.h>
#include <stdlib.h>

#include "czk/ec.h"
#include "czk/pairing.h"
#include "czk/tower.h"
#include "runner.h"

static size_t iters(size_t d)
{
    size_t n = czk_test_iters(d);
    if (getenv("CZK_TEST_ASAN")) n = n / 4 + 1;
    return n;
}

static void g1_mul(czk_g1_affine *r, const czk_g1_affine *p, const czk_fr *k)
{
    czk_g1_jac j;
    czk_g1_jac_from_affine(&j, p);
    czk_g1_mul_var(&j, &j, k);
    czk_g1_jac_to_affine(r, &j);
}

static void g2_mul(czk_g2_affine *r, const czk_g2_affine *q, const czk_fr *k)
{
    czk_g2_jac j;
    czk_g2_jac_from_affine(&j, q);
    czk_g2_mul_var(&j, &j, k);
    czk_g2_jac_to_affine(r, &j);
}

static void rand_g1(czk_g1_affine *r, czk_rng *rng)
{
    czk_g1_affine g;
    czk_fr k;
    czk_g1_generator(&g);
    czk_fr_random(&k, rng);
    g1_mul(r, &g, &k);
}

static void rand_g2(czk_g2_affine *r, czk_rng *rng)
{
    czk_g2_affine g;
    czk_fr k;
    czk_g2_generator(&g);
    czk_fr_random(&k, rng);
    g2_mul(r, &g, &k);
}

static void fp12_pow_fr(czk_fp12 *r, const czk_fp12 *a, const czk_fr *k)
{
    uint64_t l[CZK_FR_LIMBS];
    czk_fr_to_limbs(l, k);
    czk_fp12_pow_var(r, a, l, CZK_FR_LIMBS);
}

CZK_TEST(final_exp_matches_plain_power)
{
    czk_rng *rng = czk_test_rng();
    mpz_t p, r, e;
    mpz_inits(p, r, e, NULL);
    mpz_import(p, CZK_FP_LIMBS, -1, sizeof(uint64_t), 0, 0, CZK_FP_MODULUS);
    mpz_import(r, CZK_FR_LIMBS, -1, sizeof(uint64_t), 0, 0, CZK_FR_MODULUS);
    mpz_pow_ui(e, p, 12);
    mpz_sub_ui(e, e, 1);
    REQUIRE(mpz_divisible_p(e, r));
    mpz_divexact(e, e, r);
    mpz_mul_ui(e, e, 3); /* see czk/pairing.h: the ecosystem's e = f^(3 (p^12-1)/r) */
    uint64_t limbs[80];
    size_t cnt = 0;
    REQUIRE(mpz_sizeinbase(e, 2) <= 80 * 64);
    mpz_export(limbs, &cnt, -1, sizeof(uint64_t), 0, 0, e);
    mpz_clears(p, r, e, NULL);
    size_t n = iters(4);
    for (size_t it = 0; it < n; it++) {
        czk_fp12 f, r1, r2;
        czk_fp12_random(&f, rng);
        czk_pairing_final_exp(&r1, &f);
        czk_fp12_pow_var(&r2, &f, limbs, cnt);
        CHECK(czk_fp12_eq(&r1, &r2));
        CHECK(!czk_fp12_is_one(&r1));
    }
    /* on a Miller-loop output too */
    czk_g1_affine P;
    czk_g2_affine Q;
    rand_g1(&P, rng);
    rand_g2(&Q, rng);
    czk_fp12 f, r1, r2;
    czk_pairing_miller_loop(&f, &P, &Q, 1);
    czk_pairing_final_exp(&r1, &f);
    czk_fp12_pow_var(&r2, &f, limbs, cnt);
    CHECK(czk_fp12_eq(&r1, &r2));
}

CZK_TEST(bilinearity)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(8);
    czk_g1_affine g1;
    czk_g2_affine g2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    for (size_t it = 0; it < n; it++) {
        czk_g1_affine P, aP;
        czk_g2_affine Q, bQ, aQ;
        czk_fr a, b, ab;
        rand_g1(&P, rng);
        rand_g2(&Q, rng);
        czk_fr_random(&a, rng);
        czk_fr_random(&b, rng);
        czk_fr_mul(&ab, &a, &b);
        g1_mul(&aP, &P, &a);
        g2_mul(&bQ, &Q, &b);
        g2_mul(&aQ, &Q, &a);
        czk_fp12 e, eab, t;
        czk_pairing(&e, &P, &Q);
        czk_pairing(&eab, &aP, &bQ);
        fp12_pow_fr(&t, &e, &ab);
        CHECK(czk_fp12_eq(&eab, &t));
        /* e(aP, Q) = e(P, aQ) = e(P, Q)^a */
        czk_fp12 x, y;
        czk_pairing(&x, &aP, &Q);
        czk_pairing(&y, &P, &aQ);
        CHECK(czk_fp12_eq(&x, &y));
        fp12_pow_fr(&t, &e, &a);
        CHECK(czk_fp12_eq(&x, &t));
        /* e(P1 + P2, Q) = e(P1, Q) e(P2, Q) */
        czk_g1_affine P2, S;
        czk_g1_jac sj;
        rand_g1(&P2, rng);
        czk_g1_jac_from_affine(&sj, &P);
        czk_g1_jac_add_affine(&sj, &sj, &P2);
        czk_g1_jac_to_affine(&S, &sj);
        czk_pairing(&x, &S, &Q);
        czk_pairing(&y, &P2, &Q);
        czk_fp12_mul(&y, &y, &e);
        CHECK(czk_fp12_eq(&x, &y));
    }
}

CZK_TEST(non_degenerate_and_order_r)
{
    czk_g1_affine g1, inf1;
    czk_g2_affine g2, inf2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    czk_fp12 e, t;
    czk_pairing(&e, &g1, &g2);
    CHECK(!czk_fp12_is_one(&e));
    czk_fp12_pow_var(&t, &e, CZK_FR_MODULUS, CZK_FR_LIMBS);
    CHECK(czk_fp12_is_one(&t));
    /* unitary (in the cyclotomic subgroup) */
    czk_fp12_conj(&t, &e);
    czk_fp12_mul(&t, &t, &e);
    CHECK(czk_fp12_is_one(&t));
    /* pairs with infinity contribute 1 */
    czk_g1_affine_set_inf(&inf1);
    czk_g2_affine_set_inf(&inf2);
    czk_pairing(&t, &inf1, &g2);
    CHECK(czk_fp12_is_one(&t));
    czk_pairing(&t, &g1, &inf2);
    CHECK(czk_fp12_is_one(&t));
    CHECK(czk_pairing_check(&inf1, &g2, 1));
    CHECK(!czk_pairing_check(&g1, &g2, 1));
    CHECK(czk_pairing_check(NULL, NULL, 0));
}

/* e(G1, G2) for the standard generators: its 12 Fp coefficients in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 (this tower's layout), as
 * computed by blst (blst_miller_loop + blst_final_exp) outside this
 * repository. */
static const char *const E_G1_G2[12] = {
    "0x1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6",
    "0x089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f",
    "0x1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87",
    "0x193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f",
    "0x01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5",
    "0x018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6",
    "0x19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d",
    "0x06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a",
    "0x11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57",
    "0x03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2",
    "0x04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef",
    "0x0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631",
};

CZK_TEST(known_value_e_g1_g2)
{
    czk_g1_affine g1;
    czk_g2_affine g2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    czk_fp12 e;
    czk_pairing(&e, &g1, &g2);
    const czk_fp *c[12] = {&e.c0.c0.c0, &e.c0.c0.c1, &e.c0.c1.c0, &e.c0.c1.c1,
                           &e.c0.c2.c0, &e.c0.c2.c1, &e.c1.c0.c0, &e.c1.c0.c1,
                           &e.c1.c1.c0, &e.c1.c1.c1, &e.c1.c2.c0, &e.c1.c2.c1};
    for (int i = 0; i < 12; i++) {
        czk_fp want;
        REQUIRE_OK(czk_fp_from_hex(&want, E_G1_G2[i]));
        CHECK_MSG(czk_fp_eq(c[i], &want), "coefficient %d of e(G1, G2)", i);
    }
}

CZK_TEST(inverse_pairs_cancel)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(8);
    for (size_t it = 0; it < n; it++) {
        czk_g1_affine P[2];
        czk_g2_affine Q[2];
        rand_g1(&P[0], rng);
        rand_g2(&Q[0], rng);
        /* e(P, -Q) e(P, Q) = 1 */
        P[1] = P[0];
        czk_g2_affine_neg(&Q[1], &Q[0]);
        CHECK(czk_pairing_check(P, Q, 2));
        /* e(-P, Q) e(P, Q) = 1 */
        czk_g1_affine_neg(&P[1], &P[0]);
        Q[1] = Q[0];
        CHECK(czk_pairing_check(P, Q, 2));
        /* e(abG1, G2) e(-aG1, bG2) = 1: a Groth16-shaped check */
        czk_fr a, b, ab;
        czk_g1_affine g1;
        czk_g2_affine g2;
        czk_g1_generator(&g1);
        czk_g2_generator(&g2);
        czk_fr_random(&a, rng);
        czk_fr_random(&b, rng);
        czk_fr_mul(&ab, &a, &b);
        g1_mul(&P[0], &g1, &ab);
        Q[0] = g2;
        g1_mul(&P[1], &g1, &a);
        czk_g1_affine_neg(&P[1], &P[1]);
        g2_mul(&Q[1], &g2, &b);
        CHECK(czk_pairing_check(P, Q, 2));
        /* and a wrong one fails */
        g2_mul(&Q[1], &g2, &a);
        CHECK(!czk_pairing_check(P, Q, 2));
    }
}

CZK_TEST(multi_pairing_equals_product)
{
    czk_rng *rng = czk_test_rng();
    enum { N = 11 };
    czk_g1_affine P[N];
    czk_g2_affine Q[N];
    czk_g2_prepared *prep = malloc(N * sizeof(*prep));
    REQUIRE(prep != NULL);
    for (int i = 0; i < N; i++) {
        rand_g1(&P[i], rng);
        rand_g2(&Q[i], rng);
    }
    czk_g1_affine_set_inf(&P[3]);
    czk_g2_affine_set_inf(&Q[9]);
    czk_fp12 prod, e, multi, multi_prep, f;
    czk_fp12_set_one(&prod);
    for (int i = 0; i < N; i++) {
        czk_pairing(&e, &P[i], &Q[i]);
        czk_fp12_mul(&prod, &prod, &e);
        czk_g2_prepare(&prep[i], &Q[i]);
    }
    czk_pairing_multi(&multi, P, Q, N);
    CHECK(czk_fp12_eq(&multi, &prod));
    czk_pairing_miller_loop_prepared(&f, P, prep, N);
    czk_pairing_final_exp(&multi_prep, &f);
    CHECK(czk_fp12_eq(&multi_prep, &prod));
    /* sizes around the lock-step batch */
    for (size_t n = 1; n <= N; n += 4) {
        czk_fp12_set_one(&prod);
        for (size_t i = 0; i < n; i++) {
            czk_pairing(&e, &P[i], &Q[i]);
            czk_fp12_mul(&prod, &prod, &e);
        }
        czk_pairing_multi(&multi, P, Q, n);
        CHECK_MSG(czk_fp12_eq(&multi, &prod), "n = %zu", n);
    }
    /* prepared check: e(P, Q) e(-P, Q) */
    czk_g1_affine PP[2] = {P[0], P[0]};
    czk_g1_affine_neg(&PP[1], &P[0]);
    czk_g2_prepared *pq = malloc(2 * sizeof(*pq));
    REQUIRE(pq != NULL);
    czk_g2_prepare(&pq[0], &Q[0]);
    pq[1] = pq[0];
    CHECK(czk_pairing_check_prepared(PP, pq, 2));
    PP[1] = P[1];
    CHECK(!czk_pairing_check_prepared(PP, pq, 2));
    free(pq);
    free(prep);
}
