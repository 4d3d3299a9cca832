/* Fixed-base multiplication, 8 points at a time with AVX-512 IFMA: the
 * template fixed_base_ifma_tmpl.h for G1 (Fp) and G2 (Fp2). Compiled with
 * -mavx512f -mavx512ifma where the compiler has them (CMakeLists.txt);
 * without them the functions abort (never called: fixed_base.c calls them
 * only when czk__field_use_ifma is set). */
#include "groth16/fixed_base.h"

#include <stdlib.h>
#include <string.h>

#include "czk/tower.h"
#include "ff/field_impl.h"
#include "ff/vec_ifma.h"

#ifdef CZK_HAVE_IFMA_KERNELS

/* The table addresses of the 8 digits at d (entry |d| - 1 of row, entries
 * of `entry` bytes) and their masks: non-zero, negative. */
static inline __attribute__((always_inline)) __m512i fbv_addr(const int32_t *d, const char *row, long entry,
                                                              __mmask8 *nz, __mmask8 *ng)
{
    __m512i v = _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)d));
    *nz = _mm512_test_epi64_mask(v, v);
    *ng = _mm512_cmplt_epi64_mask(v, _mm512_setzero_si512());
    __m512i a = _mm512_abs_epi64(v);
    return _mm512_add_epi64(_mm512_set1_epi64((long long)(uintptr_t)(row - entry)),
                            _mm512_mul_epu32(a, _mm512_set1_epi64((long long)entry)));
}

CZK_INLINE void sfp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b) { czk__fp_mul(r, a, b); }

#define FBV_CHUNK czk__fb_g1_chunk_ifma
#define FBV_SCRATCH czk__fb_g1_chunk_ifma_scratch
#define AFFT czk_g1_affine
#define VFE czk__v8fp
#define SFE czk_fp
#define VFE_GATHER czk__v8fp_gather
#define VFE_MUL czk__v8fp_mul
#define VFE_SQR czk__v8fp_sqr
#define VFE_SUB czk__v8fp_sub
#define VFE_SUB_LAZY czk__v8fp_sub_lazy
#define VFE_CNEG czk__v8fp_cneg
#define VFE_BLEND czk__v8fp_blend
#define VFE_LOAD czk__v8fp_load
#define VFE_STORE czk__v8fp_store
#define VFE_SET1 czk__v8fp_set1
#define SFE_MUL sfp_mul
#define SFE_INV_VAR czk_fp_inv_var
#define SFE_SET_ONE(r) (*(r) = CZK_FP_ONE)
#define COORD ((long)sizeof(czk_fp))
#define ENTRY (2 * (long)sizeof(czk_fp))
#include "groth16/fixed_base_ifma_tmpl.h"
#undef FBV_CHUNK
#undef FBV_SCRATCH
#undef AFFT
#undef VFE
#undef SFE
#undef VFE_GATHER
#undef VFE_MUL
#undef VFE_SQR
#undef VFE_SUB
#undef VFE_SUB_LAZY
#undef VFE_CNEG
#undef VFE_BLEND
#undef VFE_LOAD
#undef VFE_STORE
#undef VFE_SET1
#undef SFE_MUL
#undef SFE_INV_VAR
#undef SFE_SET_ONE
#undef COORD
#undef ENTRY

/* Fp2 has no lazy difference (its Karatsuba sums need reduced operands). */
#define FBV_CHUNK czk__fb_g2_chunk_ifma
#define FBV_SCRATCH czk__fb_g2_chunk_ifma_scratch
#define AFFT czk_g2_affine
#define VFE czk__v8fp2
#define SFE czk_fp2
#define VFE_GATHER czk__v8fp2_gather
#define VFE_MUL czk__v8fp2_mul
#define VFE_SQR czk__v8fp2_sqr
#define VFE_SUB czk__v8fp2_sub
#define VFE_SUB_LAZY czk__v8fp2_sub
#define VFE_CNEG czk__v8fp2_cneg
#define VFE_BLEND czk__v8fp2_blend
#define VFE_LOAD czk__v8fp2_load
#define VFE_STORE czk__v8fp2_store
#define VFE_SET1 czk__v8fp2_set1
#define SFE_MUL czk_fp2_mul
#define SFE_INV_VAR czk_fp2_inv_var
#define SFE_SET_ONE czk_fp2_set_one
#define COORD ((long)sizeof(czk_fp2))
#define ENTRY (2 * (long)sizeof(czk_fp2))
#include "groth16/fixed_base_ifma_tmpl.h"

#else

size_t czk__fb_g1_chunk_ifma_scratch(size_t n) { return n; }
size_t czk__fb_g2_chunk_ifma_scratch(size_t n) { return n; }

void czk__fb_g1_chunk_ifma(czk_g1_affine *out, const int32_t *dig, size_t stride, const uint8_t *flip, size_t n,
                           const czk__fb_table *tb, void *scratch)
{
    (void)out, (void)dig, (void)stride, (void)flip, (void)n, (void)tb, (void)scratch;
    abort();
}

void czk__fb_g2_chunk_ifma(czk_g2_affine *out, const int32_t *dig, size_t stride, const uint8_t *flip, size_t n,
                           const czk__fb_table *tb, void *scratch)
{
    (void)out, (void)dig, (void)stride, (void)flip, (void)n, (void)tb, (void)scratch;
    abort();
}

#endif
