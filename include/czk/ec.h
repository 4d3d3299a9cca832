/* czk — the BLS12-381 groups G1 (over Fp) and G2 (over Fp2).
 *
 *   G1: y^2 = x^3 + 4          G2: y^2 = x^3 + 4(u + 1)
 *
 * Representations:
 *   affine   (x, y) plus an explicit infinity flag;
 *   jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3, infinity when Z = 0;
 *   xyzz     (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, infinity when ZZ = 0
 *            (X, Y ignored); *_xyzz_set_inf writes all-zero coordinates, so
 *            zeroed memory holds infinities (the bucket representation of the MSM).
 * Coordinates in Montgomery form. Aliasing allowed everywhere.
 *
 * (This header is the contract between src/ec, src/msm and src/pairing;
 * the implementation lives in src/ec/.)
 */
#ifndef CZK_EC_H
#define CZK_EC_H

#include "czk/field.h"
#include "czk/tower.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_g1_affine {
    czk_fp x, y;
    uint64_t inf; /* 1 = point at infinity (x, y ignored) */
} czk_g1_affine;

typedef struct czk_g1_jac {
    czk_fp x, y, z;
} czk_g1_jac;

typedef struct czk_g1_xyzz {
    czk_fp x, y, zz, zzz;
} czk_g1_xyzz;

typedef struct czk_g2_affine {
    czk_fp2 x, y;
    uint64_t inf;
} czk_g2_affine;

typedef struct czk_g2_jac {
    czk_fp2 x, y, z;
} czk_g2_jac;

typedef struct czk_g2_xyzz {
    czk_fp2 x, y, zz, zzz;
} czk_g2_xyzz;

#define CZK_G1_COMPRESSED 48
#define CZK_G1_UNCOMPRESSED 96
#define CZK_G2_COMPRESSED 96
#define CZK_G2_UNCOMPRESSED 192

/* ---- constants ----------------------------------------------------------- */

/* The generators of docs/bls12-381.md. */
void czk_g1_generator(czk_g1_affine *r);
void czk_g2_generator(czk_g2_affine *r);

/* ---- G1 ------------------------------------------------------------------ */

void czk_g1_jac_set_inf(czk_g1_jac *r);
int czk_g1_jac_is_inf(const czk_g1_jac *a);
void czk_g1_jac_from_affine(czk_g1_jac *r, const czk_g1_affine *a);
/* One inversion; variable time (public points only). */
void czk_g1_jac_to_affine(czk_g1_affine *r, const czk_g1_jac *a);
/* n conversions sharing one inversion (Montgomery's trick). scratch: n czk_fp.
 * r may be the same memory as a (in-place); variable time. */
void czk_g1_jac_batch_to_affine(czk_g1_affine *r, const czk_g1_jac *a, size_t n, czk_fp *scratch);
/* Complete: handles a == b, a == -b and infinities. */
void czk_g1_jac_add(czk_g1_jac *r, const czk_g1_jac *a, const czk_g1_jac *b);
void czk_g1_jac_add_affine(czk_g1_jac *r, const czk_g1_jac *a, const czk_g1_affine *b);
void czk_g1_jac_dbl(czk_g1_jac *r, const czk_g1_jac *a);
void czk_g1_jac_neg(czk_g1_jac *r, const czk_g1_jac *a);
void czk_g1_affine_neg(czk_g1_affine *r, const czk_g1_affine *a);
int czk_g1_jac_eq(const czk_g1_jac *a, const czk_g1_jac *b);
int czk_g1_affine_eq(const czk_g1_affine *a, const czk_g1_affine *b);
/* Scalar multiplication by an Fr element (Montgomery form, as stored).
 * _ct: constant time for secret scalars (fixed 4-bit windows, constant-time
 * table lookup, complete projective formulas); _var: signed 5-bit windows,
 * public scalars only. */
void czk_g1_mul_ct(czk_g1_jac *r, const czk_g1_jac *a, const czk_fr *k);
void czk_g1_mul_var(czk_g1_jac *r, const czk_g1_jac *a, const czk_fr *k);
/* Multiplication by a plain little-endian integer of nlimbs <= 16 limbs
 * (variable time). */
void czk_g1_mul_limbs_var(czk_g1_jac *r, const czk_g1_jac *a, const uint64_t *k, size_t nlimbs);
int czk_g1_affine_is_on_curve(const czk_g1_affine *a);
/* Prime-order subgroup membership (endomorphism test); infinity is in it. */
int czk_g1_affine_in_subgroup(const czk_g1_affine *a);
/* The same test on a[0..n): the index of the first point outside the
 * subgroup, n when all are in it (several points in lockstep; variable time,
 * public points only). */
size_t czk_g1_affine_first_not_in_subgroup(const czk_g1_affine *a, size_t n);
/* XYZZ (the MSM bucket representation) */
void czk_g1_xyzz_set_inf(czk_g1_xyzz *r);
void czk_g1_xyzz_add_affine(czk_g1_xyzz *r, const czk_g1_xyzz *a, const czk_g1_affine *b);
void czk_g1_xyzz_add(czk_g1_xyzz *r, const czk_g1_xyzz *a, const czk_g1_xyzz *b);
void czk_g1_xyzz_dbl(czk_g1_xyzz *r, const czk_g1_xyzz *a);
void czk_g1_xyzz_to_jac(czk_g1_jac *r, const czk_g1_xyzz *a);
void czk_g1_xyzz_from_jac(czk_g1_xyzz *r, const czk_g1_jac *a);
void czk_g1_affine_set_inf(czk_g1_affine *r);

/* Encodings (docs/bls12-381.md). Decoders validate everything: flags, x < p, on
 * curve, in subgroup (unless the _unchecked_subgroup variant is used by a
 * caller that checks later), canonical infinity. The _trusted variants check
 * the encoding only (flags, coordinates below p, canonical infinity), not the
 * curve: for bytes whose full validation is on record and whose checksum
 * the caller compares before it uses any result (streamed parameters). */
void czk_g1_compress(uint8_t out[CZK_G1_COMPRESSED], const czk_g1_affine *a);
void czk_g1_serialize(uint8_t out[CZK_G1_UNCOMPRESSED], const czk_g1_affine *a);
czk_status czk_g1_decompress(czk_g1_affine *r, const uint8_t in[CZK_G1_COMPRESSED]) CZK_WUR;
czk_status czk_g1_deserialize(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED]) CZK_WUR;
czk_status czk_g1_deserialize_unchecked_subgroup(czk_g1_affine *r,
                                                 const uint8_t in[CZK_G1_UNCOMPRESSED]) CZK_WUR;
czk_status czk_g1_deserialize_trusted(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED]) CZK_WUR;

/* ---- G2 (same operations over Fp2) ---------------------------------------- */

void czk_g2_jac_set_inf(czk_g2_jac *r);
int czk_g2_jac_is_inf(const czk_g2_jac *a);
void czk_g2_jac_from_affine(czk_g2_jac *r, const czk_g2_affine *a);
void czk_g2_jac_to_affine(czk_g2_affine *r, const czk_g2_jac *a);
void czk_g2_jac_batch_to_affine(czk_g2_affine *r, const czk_g2_jac *a, size_t n, czk_fp2 *scratch);
void czk_g2_jac_add(czk_g2_jac *r, const czk_g2_jac *a, const czk_g2_jac *b);
void czk_g2_jac_add_affine(czk_g2_jac *r, const czk_g2_jac *a, const czk_g2_affine *b);
void czk_g2_jac_dbl(czk_g2_jac *r, const czk_g2_jac *a);
void czk_g2_jac_neg(czk_g2_jac *r, const czk_g2_jac *a);
void czk_g2_affine_neg(czk_g2_affine *r, const czk_g2_affine *a);
int czk_g2_jac_eq(const czk_g2_jac *a, const czk_g2_jac *b);
int czk_g2_affine_eq(const czk_g2_affine *a, const czk_g2_affine *b);
void czk_g2_mul_ct(czk_g2_jac *r, const czk_g2_jac *a, const czk_fr *k);
void czk_g2_mul_var(czk_g2_jac *r, const czk_g2_jac *a, const czk_fr *k);
void czk_g2_mul_limbs_var(czk_g2_jac *r, const czk_g2_jac *a, const uint64_t *k, size_t nlimbs);
int czk_g2_affine_is_on_curve(const czk_g2_affine *a);
int czk_g2_affine_in_subgroup(const czk_g2_affine *a);
size_t czk_g2_affine_first_not_in_subgroup(const czk_g2_affine *a, size_t n);
void czk_g2_xyzz_set_inf(czk_g2_xyzz *r);
void czk_g2_xyzz_add_affine(czk_g2_xyzz *r, const czk_g2_xyzz *a, const czk_g2_affine *b);
void czk_g2_xyzz_add(czk_g2_xyzz *r, const czk_g2_xyzz *a, const czk_g2_xyzz *b);
void czk_g2_xyzz_dbl(czk_g2_xyzz *r, const czk_g2_xyzz *a);
void czk_g2_xyzz_to_jac(czk_g2_jac *r, const czk_g2_xyzz *a);
void czk_g2_xyzz_from_jac(czk_g2_xyzz *r, const czk_g2_jac *a);
void czk_g2_affine_set_inf(czk_g2_affine *r);
void czk_g2_compress(uint8_t out[CZK_G2_COMPRESSED], const czk_g2_affine *a);
void czk_g2_serialize(uint8_t out[CZK_G2_UNCOMPRESSED], const czk_g2_affine *a);
czk_status czk_g2_decompress(czk_g2_affine *r, const uint8_t in[CZK_G2_COMPRESSED]) CZK_WUR;
czk_status czk_g2_deserialize(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED]) CZK_WUR;
czk_status czk_g2_deserialize_unchecked_subgroup(czk_g2_affine *r,
                                                 const uint8_t in[CZK_G2_UNCOMPRESSED]) CZK_WUR;
czk_status czk_g2_deserialize_trusted(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED]) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
