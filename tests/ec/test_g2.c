/* G2 group law, scalar multiplication, XYZZ and subgroup tests. */
#include "czk/tower.h"
#include "ec_test_util.h"

static void g2_b(czk_fp2 *r)
{
    czk_fp_from_u64(&r->c0, 4);
    r->c1 = r->c0;
}

#define FE czk_fp2
#define AFF czk_g2_affine
#define JAC czk_g2_jac
#define XYZZ czk_g2_xyzz
#define P(name) czk_g2_##name
#define T(name) g2_##name
#define FE_EQ czk_fp2_eq
#define FE_RANDOM czk_fp2_random
#define FE_SQRT czk_fp2_sqrt
#define FE_SQR czk_fp2_sqr
#define FE_MUL czk_fp2_mul
#define FE_ADD czk_fp2_add
#define FE_B g2_b
static const char curve_test_file[] = __FILE__;
#define COFACTOR ec_test_g2_cofactor
#include "curve_tests.h"
