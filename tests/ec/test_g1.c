/* G1 group law, scalar multiplication, XYZZ and subgroup tests. */
#include "ec/group_g1.h"
static const char group_test_file[] = __FILE__;
#include "curve_tests.h"
#include "ec/group_end.h"

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
