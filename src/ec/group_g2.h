/* czk ec — group descriptor of G2: y^2 = x^3 + 4(u + 1) over Fp2, the M-type
 * sextic twist (see ec/group.h). No include guard on the macros:
 * ec/group_end.h undefines them. */
#include "ec/group.h"

#ifndef CZK_EC_GROUP_G2_H
#define CZK_EC_GROUP_G2_H

CZK_INLINE int czk__ec_fp2_is_zero(const czk_fp2 *a)
{
    uint64_t t = 0;
    for (int i = 0; i < CZK_FP_LIMBS; i++) t |= a->c0.l[i] | a->c1.l[i];
    return t == 0;
}

/* Limb by limb, inline: a memcmp of 96 bytes is a libc call per scheduled
 * bucket addition of the MSM (3.7% of a streamed G2 pass, perf). */
CZK_INLINE int czk__ec_fp2_eq(const czk_fp2 *a, const czk_fp2 *b)
{
    uint64_t t = 0;
    for (int i = 0; i < CZK_FP_LIMBS; i++) t |= (a->c0.l[i] ^ b->c0.l[i]) | (a->c1.l[i] ^ b->c1.l[i]);
    return t == 0;
}

/* b' = 4(u + 1) */
CZK_INLINE void czk__ec_g2_set_b(czk_fp2 *r)
{
    czk_fp2_set_one(r);
    czk_fp2_mul_by_nonresidue(r, r);
    czk_fp2_dbl(r, r);
    czk_fp2_dbl(r, r);
}

/* 3b' a = 12(u + 1) a */
CZK_INLINE void czk__ec_g2_mul_b3(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp2 t4, t8;
    czk_fp2_mul_by_nonresidue(&t4, a);
    czk_fp2_dbl(&t4, &t4);
    czk_fp2_dbl(&t4, &t4);
    czk_fp2_dbl(&t8, &t4);
    czk_fp2_add(r, &t8, &t4);
}

#endif

#define G_ID g2
#define G_STR "g2"
#define G_TITLE "G2"
#define G_B_STR "4(u + 1)"
#define G_COMPRESSED CZK_G2_COMPRESSED
#define G_UNCOMPRESSED CZK_G2_UNCOMPRESSED
#define G_FN(x) czk_g2_##x
#define G_MSM(x) czk_msm_g2_##x
#define G_LOCAL(x) x##_g2
#define AFF czk_g2_affine
#define JAC czk_g2_jac
#define XYZZ czk_g2_xyzz
#define FE czk_fp2
#define FE_ADD czk_fp2_add
#define FE_SUB czk_fp2_sub
#define FE_DBL czk_fp2_dbl
#define FE_NEG czk_fp2_neg
#define FE_MUL czk_fp2_mul
#define FE_SQR czk_fp2_sqr
#define FE_INV_VAR czk_fp2_inv_var
#define FE_EQ czk__ec_fp2_eq
#define FE_IS_ZERO czk__ec_fp2_is_zero
#define FE_SET_ZERO czk_fp2_set_zero
#define FE_SET_ONE czk_fp2_set_one
#define FE_RANDOM czk_fp2_random
#define FE_IS_LEX_LARGEST czk_fp2_is_lex_largest
#define FE_SQRT czk_fp2_sqrt
#define FE_SET_B czk__ec_g2_set_b
#define FE_MUL_B3 czk__ec_g2_mul_b3
