/* Fp: differential tests against GMP (field_tests.h) and Fp-only functions. */
#include "czk/field.h"
#include "ff/field_impl.h"

#define T czk_fp
#define FN(x) czk_fp_##x
#define N CZK_FP_LIMBS
#define NBYTES CZK_FP_BYTES
#define NBITS 381
#define PREFIX(x) fp_##x
#define TEST_FILE "test_fp.c"
#define MODULUS_LIMBS CZK_FP_MODULUS
#define MODULUS_HEX                                                                     \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#define fp_CONST_ONE CZK_FP_ONE
#define fp_CONST_ZERO CZK_FP_ZERO
#define fp_TO_LE czk_fp_to_bytes_le
#define fp_TO_BE czk_fp_to_bytes
#define fp_FROM_LE czk_fp_from_bytes_le
#define fp_FROM_BE czk_fp_from_bytes
#include "field_tests.h"

CZK_TEST(fp_is_lex_largest_vs_gmp)
{
    ctx x;
    ctx_init(&x);
    mpz_sub_ui(x.d, x.m, 1);
    mpz_fdiv_q_2exp(x.d, x.d, 1); /* (p-1)/2 */
    for (size_t it = 0; it < iters(2000); it++) {
        czk_fp a;
        uint64_t v[6];
        edge_raw(v, &x, czk_test_rng());
        REQUIRE_OK(czk_fp_from_limbs(&a, v));
        mpz_of(x.a, v, 6);
        CHECK(czk_fp_is_lex_largest(&a) == (mpz_cmp(x.a, x.d) > 0));
    }
    czk_fp a;
    REQUIRE_OK(czk_fp_from_limbs(&a, (uint64_t[6]){0}));
    CHECK(!czk_fp_is_lex_largest(&a));
    ctx_clear(&x);
}

/* The G1 generator of docs/bls12-381.md satisfies y^2 = x^3 + 4. */
CZK_TEST(fp_g1_generator_on_curve)
{
    czk_fp x, y, l, r, four;
    REQUIRE_OK(czk_fp_from_hex(&x, "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"));
    REQUIRE_OK(czk_fp_from_hex(&y, "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"));
    czk_fp_sqr(&l, &y);
    czk_fp_sqr(&r, &x);
    czk_fp_mul(&r, &r, &x);
    czk_fp_from_u64(&four, 4);
    czk_fp_add(&r, &r, &four);
    CHECK(czk_fp_eq(&l, &r));
    czk_fp s;
    CHECK(czk_fp_sqrt(&s, &r) == 1);
    czk_fp ny;
    czk_fp_neg(&ny, &y);
    CHECK(czk_fp_eq(&s, &y) || czk_fp_eq(&s, &ny));
    /* y's encoding begins 08b3f4 (big-endian) */
    uint8_t be[48];
    czk_fp_to_bytes(be, &y);
    CHECK(be[0] == 0x08 && be[1] == 0xb3 && be[2] == 0xf4);
}
