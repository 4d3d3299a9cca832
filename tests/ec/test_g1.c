/* G1 group law, scalar multiplication, XYZZ and subgroup tests. */
#include "ec_test_util.h"

static void g1_b(czk_fp *r) { czk_fp_from_u64(r, 4); }

#define FE czk_fp
#define AFF czk_g1_affine
#define JAC czk_g1_jac
#define XYZZ czk_g1_xyzz
#define P(name) czk_g1_##name
#define T(name) g1_##name
#define FE_EQ czk_fp_eq
#define FE_RANDOM czk_fp_random
#define FE_SQRT czk_fp_sqrt
#define FE_SQR czk_fp_sqr
#define FE_MUL czk_fp_mul
#define FE_ADD czk_fp_add
#define FE_B g1_b
static const char curve_test_file[] = __FILE__;
#define COFACTOR ec_test_g1_cofactor
#include "curve_tests.h"

/* The endomorphism test uses beta with phi = [-x^2]; the other cube root of
 * unity acts as [x^2 - 1]. Both are eigenvalues: lambda^2 + lambda + 1 = 0 mod r. */
CZK_TEST(g1_endomorphism_eigenvalue)
{
    czk_rng *rng = czk_test_rng();
    czk_g1_jac p, a;
    rand_point(&p, rng);
    uint64_t x2[2];
    unsigned __int128 s = (unsigned __int128)0xd201000000010000ULL * 0xd201000000010000ULL;
    x2[0] = (uint64_t)s;
    x2[1] = (uint64_t)(s >> 64);
    czk_g1_mul_limbs_var(&a, &p, x2, 2);
    czk_g1_jac_neg(&a, &a);
    czk_g1_affine pa, ba;
    czk_g1_jac_to_affine(&pa, &p);
    czk_g1_jac_to_affine(&ba, &a);
    /* [-x^2] P has the same y and x scaled by a cube root of unity */
    CHECK(czk_fp_eq(&pa.y, &ba.y));
    czk_fp ratio, inv, cube;
    czk_fp_inv(&inv, &pa.x);
    czk_fp_mul(&ratio, &ba.x, &inv);
    czk_fp_sqr(&cube, &ratio);
    czk_fp_mul(&cube, &cube, &ratio);
    CHECK(czk_fp_is_one(&cube));
    CHECK(!czk_fp_is_one(&ratio));
}
