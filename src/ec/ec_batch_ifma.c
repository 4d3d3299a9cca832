/* czk ec — batched affine additions, 8 lanes of AVX-512 IFMA (ec/ec_batch.h),
 * the template ec_batch_ifma_tmpl.h instantiated for G1 (Fp) and G2 (Fp2).
 * Compiled with -mavx512f -mavx512ifma where the compiler has them
 * (CMakeLists.txt); without them the functions abort (never called: the
 * dispatch flag czk__field_use_ifma stays 0). */
#include "ec/ec_batch.h"

#include <stdlib.h>

#include "czk/tower.h"
#include "ff/field_impl.h"
#include "ff/vec_ifma.h"

#ifdef CZK_HAVE_IFMA_KERNELS

CZK_INLINE void sfp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk__fp_mul(r, a, b); }

#define BATCH_NAME czk__g1_batch_add_ifma
#define BATCH_LANES lanes_g1
#define VFE czk__v8fp
#define SFE czk_fp
#define VFE_GATHER czk__v8fp_gather
#define VFE_SCATTER czk__v8fp_scatter
#define VFE_MUL czk__v8fp_mul
#define VFE_SQR czk__v8fp_sqr
#define VFE_SUB czk__v8fp_sub
#define VFE_SUB_LAZY czk__v8fp_sub_lazy
#define VFE_NEGSUB_LAZY czk__v8fp_negsub_lazy
#define VFE_BLEND czk__v8fp_blend
#define VFE_LOAD czk__v8fp_load
#define VFE_STORE czk__v8fp_store
#define VFE_SET1 czk__v8fp_set1
#define SFE_MUL sfp_mul
#define SFE_INV_VAR czk_fp_inv_var
#define SFE_SET_ONE(r) (*(r) = CZK_FP_ONE)
#define COORD ((long)sizeof(czk_fp))
#include "ec/ec_batch_ifma_tmpl.h"
#undef BATCH_NAME
#undef BATCH_LANES
#undef VFE
#undef SFE
#undef VFE_GATHER
#undef VFE_SCATTER
#undef VFE_MUL
#undef VFE_SQR
#undef VFE_SUB
#undef VFE_SUB_LAZY
#undef VFE_NEGSUB_LAZY
#undef VFE_BLEND
#undef VFE_LOAD
#undef VFE_STORE
#undef VFE_SET1
#undef SFE_MUL
#undef SFE_INV_VAR
#undef SFE_SET_ONE
#undef COORD

/* -a - b (Fp2 has no lazy form: its Karatsuba sums need reduced operands) */
CZK_INLINE void negsub_fp2(czk__v8fp2 *r, const czk__v8fp2 *a, const czk__v8fp2 *b)
{
    czk__v8fp2 s;
    czk__v8fp2_add(&s, a, b);
    czk__v8fp2_cneg(r, &s, 0xff);
}

#define BATCH_NAME czk__g2_batch_add_ifma
#define BATCH_LANES lanes_g2
#define VFE czk__v8fp2
#define SFE czk_fp2
#define VFE_GATHER czk__v8fp2_gather
#define VFE_SCATTER czk__v8fp2_scatter
#define VFE_MUL czk__v8fp2_mul
#define VFE_SQR czk__v8fp2_sqr
#define VFE_SUB czk__v8fp2_sub
#define VFE_SUB_LAZY czk__v8fp2_sub
#define VFE_NEGSUB_LAZY negsub_fp2
#define VFE_BLEND czk__v8fp2_blend
#define VFE_LOAD czk__v8fp2_load
#define VFE_STORE czk__v8fp2_store
#define VFE_SET1 czk__v8fp2_set1
#define SFE_MUL czk_fp2_mul
#define SFE_INV_VAR czk_fp2_inv_var
#define SFE_SET_ONE czk_fp2_set_one
#define COORD ((long)sizeof(czk_fp2))
#include "ec/ec_batch_ifma_tmpl.h"

#else

void czk__g1_batch_add_ifma(const uintptr_t *dst, const uintptr_t *src, const uint8_t *neg, size_t n, void *scratch)
{
    (void)dst, (void)src, (void)neg, (void)n, (void)scratch;
    abort();
}

void czk__g2_batch_add_ifma(const uintptr_t *dst, const uintptr_t *src, const uint8_t *neg, size_t n, void *scratch)
{
    (void)dst, (void)src, (void)neg, (void)n, (void)scratch;
    abort();
}

#endif
