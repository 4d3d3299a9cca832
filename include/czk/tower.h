/* czk — the BLS12-381 extension tower used by G2 and the pairing.
 *
 *   Fp2  = Fp[u]  / (u^2 + 1)
 *   Fp6  = Fp2[v] / (v^3 - (u + 1))
 *   Fp12 = Fp6[w] / (w^2 - v)
 *
 * All coefficients in Montgomery form (see czk/field.h). Aliasing allowed.
 */
#ifndef CZK_TOWER_H
#define CZK_TOWER_H

#include "czk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_fp2 {
    czk_fp c0, c1; /* c0 + c1 * u */
} czk_fp2;

typedef struct czk_fp6 {
    czk_fp2 c0, c1, c2; /* c0 + c1 v + c2 v^2 */
} czk_fp6;

typedef struct czk_fp12 {
    czk_fp6 c0, c1; /* c0 + c1 w */
} czk_fp12;

void czk_fp2_add(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b);
void czk_fp2_sub(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b);
void czk_fp2_neg(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_dbl(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_mul(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b);
void czk_fp2_sqr(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_inv(czk_fp2 *r, const czk_fp2 *a); /* 0 -> 0 */
void czk_fp2_conj(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_mul_by_nonresidue(czk_fp2 *r, const czk_fp2 *a); /* * (u + 1) */
/* 1 and r = a square root of a if a is a square, else 0 (r = 0). Variable
 * time (used on public data: point decompression). */
int czk_fp2_sqrt(czk_fp2 *r, const czk_fp2 *a);
int czk_fp2_eq(const czk_fp2 *a, const czk_fp2 *b);
int czk_fp2_is_zero(const czk_fp2 *a);
void czk_fp2_set_one(czk_fp2 *r);
void czk_fp2_set_zero(czk_fp2 *r);
int czk_fp2_is_one(const czk_fp2 *a);
/* r = a * b for b in Fp. */
void czk_fp2_mul_fp(czk_fp2 *r, const czk_fp2 *a, const czk_fp *b);
/* Variable-time inverse (public data only); 0 -> 0. */
void czk_fp2_inv_var(czk_fp2 *r, const czk_fp2 *a);
/* r = a^e, e plain little-endian limbs; variable time in e. */
void czk_fp2_pow_var(czk_fp2 *r, const czk_fp2 *a, const uint64_t *e, size_t nlimbs);
/* Lexicographic order of docs/bls12-381.md (zcash encoding): 1 if c1 > (p-1)/2, or
 * c1 = 0 and c0 > (p-1)/2. */
int czk_fp2_is_lex_largest(const czk_fp2 *a);
/* Constant-time r = flag ? a : r (flag 0 or 1). */
void czk_fp2_cmov(czk_fp2 *r, const czk_fp2 *a, uint64_t flag);
void czk_fp2_random(czk_fp2 *r, czk_rng *rng);

/* ---- Fp6 ------------------------------------------------------------------ */

void czk_fp6_add(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);
void czk_fp6_sub(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);
void czk_fp6_neg(czk_fp6 *r, const czk_fp6 *a);
void czk_fp6_mul(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);
void czk_fp6_sqr(czk_fp6 *r, const czk_fp6 *a);
void czk_fp6_inv(czk_fp6 *r, const czk_fp6 *a); /* 0 -> 0 */
void czk_fp6_mul_by_nonresidue(czk_fp6 *r, const czk_fp6 *a); /* * v */
/* r = a * (b0 + b1 v) and r = a * (b1 v): the sparse factors of line functions. */
void czk_fp6_mul_by_01(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b0, const czk_fp2 *b1);
void czk_fp6_mul_by_1(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b1);
int czk_fp6_eq(const czk_fp6 *a, const czk_fp6 *b);
int czk_fp6_is_zero(const czk_fp6 *a);
void czk_fp6_set_zero(czk_fp6 *r);
void czk_fp6_set_one(czk_fp6 *r);

void czk_fp12_mul(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);
void czk_fp12_sqr(czk_fp12 *r, const czk_fp12 *a);
void czk_fp12_inv(czk_fp12 *r, const czk_fp12 *a);
void czk_fp12_conj(czk_fp12 *r, const czk_fp12 *a);
/* r = a^(p^k), k = 1, 2, 3 */
void czk_fp12_frobenius(czk_fp12 *r, const czk_fp12 *a, unsigned k);
int czk_fp12_eq(const czk_fp12 *a, const czk_fp12 *b);
int czk_fp12_is_one(const czk_fp12 *a);
void czk_fp12_set_one(czk_fp12 *r);
void czk_fp12_set_zero(czk_fp12 *r);
void czk_fp12_add(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);
void czk_fp12_sub(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);
/* r = a * (o0 + o1 v + o4 v w): the sparse shape of a Miller-loop line on
 * the M-type twist (coefficients of w^0, w^2 and w^3). */
void czk_fp12_mul_by_014(czk_fp12 *r, const czk_fp12 *a, const czk_fp2 *o0, const czk_fp2 *o1,
                         const czk_fp2 *o4);
/* Squaring in the cyclotomic subgroup G_{Phi_6(p^2)} (elements with
 * a^(p^4 - p^2 + 1) = 1, e.g. anything raised to (p^6 - 1)(p^2 + 1), as after
 * the easy part of the final exponentiation): Granger-Scott 2010, §3.1.
 * Gives a wrong result for a outside that subgroup. */
void czk_fp12_cyclotomic_sqr(czk_fp12 *r, const czk_fp12 *a);
/* r = a^e, e plain little-endian limbs; variable time in e (public exponents). */
void czk_fp12_pow_var(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, size_t nlimbs);
void czk_fp12_random(czk_fp12 *r, czk_rng *rng);

#ifdef __cplusplus
}
#endif
#endif
