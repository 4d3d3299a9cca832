/* czk msm — G2 instantiation of the Pippenger kernel (msm_impl.h) over Fp2. */
#include "czk/msm.h"
#include "ff/field_impl.h"
#include "msm/msm_internal.h"

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2), with the variable-time Fp inversion. */
static void fp2_inv_var(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp t0, t1;
    czk_fp_sqr(&t0, &a->c0);
    czk_fp_sqr(&t1, &a->c1);
    czk_fp_add(&t0, &t0, &t1);
    czk_fp_inv_var(&t0, &t0);
    czk_fp_mul(&r->c0, &a->c0, &t0);
    czk_fp_mul(&t1, &a->c1, &t0);
    czk_fp_neg(&r->c1, &t1);
}

CZK_INLINE int fp2_is_zero(const czk_fp2 *a)
{
    uint64_t t = 0;
    for (int i = 0; i < CZK_FP_LIMBS; i++) t |= a->c0.l[i] | a->c1.l[i];
    return t == 0;
}

#define FE czk_fp2
#define FE_MUL czk_fp2_mul
#define FE_SQR czk_fp2_sqr
#define FE_ADD czk_fp2_add
#define FE_SUB czk_fp2_sub
#define FE_NEG czk_fp2_neg
#define FE_DBL czk_fp2_dbl
#define FE_INV fp2_inv_var
#define FE_IS_ZERO fp2_is_zero
#define FE_SET_ONE czk_fp2_set_one
#define FE_EQ(a, b) (memcmp((a), (b), sizeof(czk_fp2)) == 0)
#define AFF czk_g2_affine
#define JAC czk_g2_jac
#define XYZZ czk_g2_xyzz
#define G(x) czk_g2_##x
#define FN(x) x##_g2
#define CURVE "g2"
/* Fp2-multiplication units (3 Fp multiplications each); load: see msm_g1.c; inv: one
 * variable-time Fp inversion plus 4 Fp products, about 22 Fp2 products. */
#define COSTS                                                                           \
    {.madd = 11, .add = 15, .dbl = 10, .ba_add = 6.8, .inv = 120, .miss = 0.5, .load = 0.5,          \
     .xyzz_bytes = sizeof(czk_g2_xyzz), .aff_bytes = 2 * sizeof(czk_fp2),                \
     .fe_bytes = sizeof(czk_fp2), .entry_bytes = 16, .point_bytes = sizeof(czk_g2_affine)}

#include "msm/msm_impl.h"

void czk_msm_g2_plan(czk_msm_plan *plan, size_t nbases, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, 1, opts, costs_g2());
}

void czk_msm_g2_multi_plan(czk_msm_plan *plan, size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, nsets, opts, costs_g2());
}

size_t czk_msm_g2_scratch_size(size_t nbases, const czk_msm_opts *opts)
{
    return scratch_size_g2(nbases, 1, opts);
}

size_t czk_msm_g2_multi_scratch_size(size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    return scratch_size_g2(nbases, nsets, opts);
}

czk_status czk_msm_g2_var(czk_g2_jac *out, const czk_g2_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts)
{
    if (!out) return czk_error(CZK_ERR_INVALID_ARG, "czk_msm_g2_var: out is NULL");
    return msm_g2("czk_msm_g2_var", 0, out, 1, bases, nbases, &scalars, n, density, opts);
}

czk_status czk_msm_g2_var_multi(czk_g2_jac *out, size_t nsets, const czk_g2_affine *bases, size_t nbases,
                                const czk_fr *const *scalars, size_t n, const uint64_t *density,
                                const czk_msm_opts *opts)
{
    return msm_g2("czk_msm_g2_var_multi", 1, out, nsets, bases, nbases, scalars, n, density, opts);
}

czk_status czk_msm_g2_ref(czk_g2_jac *out, const czk_g2_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density)
{
    return ref_g2(out, bases, nbases, scalars, n, density);
}
