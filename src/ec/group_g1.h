/* czk ec — group descriptor of G1: y^2 = x^3 + 4 over Fp (see ec/group.h).
 * No include guard on the macros: ec/group_end.h undefines them. */
#include "ec/group.h"

#ifndef CZK_EC_GROUP_G1_H
#define CZK_EC_GROUP_G1_H

CZK_INLINE void czk__ec_fp_neg(czk_fp *r, const czk_fp *a) { czk__fp_sub(r, &CZK_FP_ZERO, a); }

CZK_INLINE int czk__ec_fp_is_zero(const czk_fp *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

CZK_INLINE int czk__ec_fp_eq(const czk_fp *a, const czk_fp *b) { return memcmp(a, b, sizeof *a) == 0; }

/* b = 4 */
CZK_INLINE void czk__ec_g1_set_b(czk_fp *r)
{
    czk__fp_dbl(r, &CZK_FP_ONE);
    czk__fp_dbl(r, r);
}

/* 3b a = 12 a = 8a + 4a */
CZK_INLINE void czk__ec_g1_mul_b3(czk_fp *r, const czk_fp *a)
{
    czk_fp t4, t8;
    czk__fp_dbl(&t4, a);
    czk__fp_dbl(&t4, &t4);
    czk__fp_dbl(&t8, &t4);
    czk__fp_add(r, &t8, &t4);
}

#endif

#define G_ID g1
#define G_STR "g1"
#define G_TITLE "G1"
#define G_B_STR "4"
#define G_COMPRESSED CZK_G1_COMPRESSED
#define G_UNCOMPRESSED CZK_G1_UNCOMPRESSED
#define G_FN(x) czk_g1_##x
#define G_MSM(x) czk_msm_g1_##x
#define G_LOCAL(x) x##_g1
#define AFF czk_g1_affine
#define JAC czk_g1_jac
#define XYZZ czk_g1_xyzz
#define FE czk_fp
#define FE_ADD czk__fp_add
#define FE_SUB czk__fp_sub
#define FE_DBL czk__fp_dbl
#define FE_NEG czk__ec_fp_neg
#define FE_MUL czk__fp_mul
#define FE_SQR czk__fp_sqr
#define FE_INV_VAR czk_fp_inv_var
#define FE_EQ czk__ec_fp_eq
#define FE_IS_ZERO czk__ec_fp_is_zero
#define FE_SET_ZERO(r) (*(r) = CZK_FP_ZERO)
#define FE_SET_ONE(r) (*(r) = CZK_FP_ONE)
#define FE_RANDOM czk_fp_random
#define FE_IS_LEX_LARGEST czk_fp_is_lex_largest
#define FE_SQRT czk_fp_sqrt
#define FE_SET_B czk__ec_g1_set_b
#define FE_MUL_B3 czk__ec_g1_mul_b3
