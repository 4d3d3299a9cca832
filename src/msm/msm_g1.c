/* czk msm — G1 instantiation of the Pippenger kernel (msm_impl.h) over Fp. */
#include "czk/msm.h"
#include "ff/field_impl.h"
#include "msm/msm_internal.h"

CZK_INLINE void fp_neg(czk_fp *r, const czk_fp *a) { czk__fp_sub(r, &CZK_FP_ZERO, a); }
CZK_INLINE int fp_is_zero(const czk_fp *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

#define FE czk_fp
#define FE_MUL czk__fp_mul
#define FE_SQR czk__fp_sqr
#define FE_ADD czk__fp_add
#define FE_SUB czk__fp_sub
#define FE_NEG fp_neg
#define FE_DBL(r, a) czk__fp_add((r), (a), (a))
#define FE_INV czk_fp_inv_var
#define FE_IS_ZERO fp_is_zero
#define FE_SET_ONE(r) (*(r) = CZK_FP_ONE)
#define FE_EQ(a, b) (memcmp((a), (b), sizeof(czk_fp)) == 0)
#define AFF czk_g1_affine
#define JAC czk_g1_jac
#define XYZZ czk_g1_xyzz
#define G(x) czk_g1_##x
#define FN(x) x##_g1
#define CURVE "g1"
/* Fp-multiplication units; load: streaming a base and reading its digit once
 * per task (shared by the sets of a multi MSM); inv: a variable-time Fp inversion (binary
 * extended GCD) measured at about 60 multiplications; miss: a bucket access
 * that misses L2. See README.md. */
#define COSTS                                                                           \
    {.madd = 11, .add = 15, .dbl = 10, .ba_add = 6.8, .inv = 350, .miss = 0.5, .load = 1.0,          \
     .xyzz_bytes = sizeof(czk_g1_xyzz), .aff_bytes = 2 * sizeof(czk_fp),                \
     .fe_bytes = sizeof(czk_fp), .entry_bytes = 16, .point_bytes = sizeof(czk_g1_affine)}

#include "msm/msm_impl.h"

void czk_msm_g1_plan(czk_msm_plan *plan, size_t nbases, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, 1, opts, costs_g1());
}

void czk_msm_g1_multi_plan(czk_msm_plan *plan, size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, nsets, opts, costs_g1());
}

size_t czk_msm_g1_scratch_size(size_t nbases, const czk_msm_opts *opts)
{
    return scratch_size_g1(nbases, 1, opts);
}

size_t czk_msm_g1_multi_scratch_size(size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    return scratch_size_g1(nbases, nsets, opts);
}

czk_status czk_msm_g1_var(czk_g1_jac *out, const czk_g1_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts)
{
    if (!out) return czk_error(CZK_ERR_INVALID_ARG, "czk_msm_g1_var: out is NULL");
    return msm_g1("czk_msm_g1_var", 0, out, 1, bases, nbases, &scalars, n, density, opts);
}

czk_status czk_msm_g1_var_multi(czk_g1_jac *out, size_t nsets, const czk_g1_affine *bases, size_t nbases,
                                const czk_fr *const *scalars, size_t n, const uint64_t *density,
                                const czk_msm_opts *opts)
{
    return msm_g1("czk_msm_g1_var_multi", 1, out, nsets, bases, nbases, scalars, n, density, opts);
}

czk_status czk_msm_g1_ref(czk_g1_jac *out, const czk_g1_affine *bases, size_t nbases,
                          const czk_fr *scalars, size_t n, const uint64_t *density)
{
    return ref_g1(out, bases, nbases, scalars, n, density);
}
