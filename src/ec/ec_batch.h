/* czk ec — internal: batched affine additions with AVX-512 IFMA (8 at once).
 *
 *   for i < n:  *dst[i] = *dst[i] + (neg[i] ? -*src[i] : *src[i])
 *
 * dst[i] and src[i] are byte addresses of affine points stored as x then y
 * (czk_fp each for G1, czk_fp2 for G2; Montgomery form, fully reduced): the
 * first two fields of czk_g1_affine / czk_g2_affine, or a bare {x, y}. The
 * caller guarantees what the chord rule needs: both points finite,
 * x(dst[i]) != x(src[i]), the dst[i] pairwise distinct, and no src[i] equal
 * to any dst[j] (the points are read in one pass and written in a later
 * one). The n denominators x_src - x_dst share one inversion (Montgomery's
 * trick, Montgomery 1987 §10.3.1), each of 8 lanes keeping its own chain of
 * prefix products; the formulas are those of ec_formulas_tmpl.h's
 * aff_add_inv: l = (y2 - y1) / (x2 - x1), x3 = l^2 - x1 - x2,
 * y3 = l (x1 - x3) - y1. The results equal the scalar formulas' bit for bit
 * (affine coordinates are unique).
 *
 * scratch: czk__g?_batch_add_scratch(n) bytes, 64-byte aligned.
 * Only call when czk__field_use_ifma is set (ff/field_impl.h).
 */
#ifndef CZK_EC_BATCH_H
#define CZK_EC_BATCH_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of scratch: one 8-lane prefix product (512 B for G1, 1 KiB for G2) per 8 additions. */
#define CZK__G1_BATCH_GROUP_BYTES 512
#define CZK__G2_BATCH_GROUP_BYTES 1024

static inline size_t czk__g1_batch_add_scratch(size_t n) { return (n + 7) / 8 * CZK__G1_BATCH_GROUP_BYTES; }
static inline size_t czk__g2_batch_add_scratch(size_t n) { return (n + 7) / 8 * CZK__G2_BATCH_GROUP_BYTES; }

void czk__g1_batch_add_ifma(const uintptr_t *dst, const uintptr_t *src, const uint8_t *neg, size_t n, void *scratch);
void czk__g2_batch_add_ifma(const uintptr_t *dst, const uintptr_t *src, const uint8_t *neg, size_t n, void *scratch);

#endif
