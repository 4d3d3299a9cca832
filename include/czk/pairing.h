/* czk — the optimal ate pairing on BLS12-381 (verification only).
 *
 *   e(P, Q) = f_{x,Q}(P)^((p^12 - 1) / r),  x = -0xd201000000010000,
 *
 * P in G1, Q in G2 (affine, czk/ec.h), value in the order-r subgroup of
 * Fp12* (czk/tower.h). The Miller loop runs on homogeneous projective
 * coordinates of the twist (Costello, Lange, Naehrig, "Faster pairing
 * computations on curves with high-degree twists", PKC 2010) and multiplies
 * sparse lines; the final exponentiation uses the decomposition
 * 3 (p^4 - p^2 + 1)/r = (x-1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida,
 * Hayasaka, Teruya, ePrint 2020/875) with cyclotomic squarings. So the value
 * is f^(3 (p^12 - 1)/r), the cube of the textbook one: a non-degenerate
 * bilinear pairing all the same, and the value blst and zkcrypto's bls12_381
 * (bellperson's pairing) compute, so Gt elements agree with theirs.
 *
 * All functions are variable time: inputs are public (proofs, keys). Inputs
 * are not validated here: callers decode points with czk_g1/g2 decoders,
 * which check the curve and subgroup. A pair with an infinity contributes 1.
 */
#ifndef CZK_PAIRING_H
#define CZK_PAIRING_H

#include "czk/ec.h"
#include "czk/tower.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of line functions in the Miller loop (63 doublings + 5 additions). */
#define CZK_PAIRING_LINES 68

/* A G2 point with its Miller-loop line coefficients precomputed (reused when
 * the same Q is paired with many P, e.g. a verifying key). */
typedef struct czk_g2_prepared {
    czk_fp2 coeffs[CZK_PAIRING_LINES][3];
    uint64_t inf;
} czk_g2_prepared;

void czk_g2_prepare(czk_g2_prepared *r, const czk_g2_affine *q);

/* out = prod_i f_{x,Q_i}(P_i), before the final exponentiation. */
void czk_pairing_miller_loop(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q,
                             size_t n);
void czk_pairing_miller_loop_prepared(czk_fp12 *out, const czk_g1_affine *p,
                                      const czk_g2_prepared *q, size_t n);
/* out = f^(3 (p^12 - 1) / r). f must be non-zero. */
void czk_pairing_final_exp(czk_fp12 *out, const czk_fp12 *f);

/* out = e(P, Q). */
void czk_pairing(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q);
/* out = prod_i e(P_i, Q_i), one shared Miller loop and final exponentiation. */
void czk_pairing_multi(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q, size_t n);
/* 1 if prod_i e(P_i, Q_i) = 1, else 0. */
int czk_pairing_check(const czk_g1_affine *p, const czk_g2_affine *q, size_t n);
int czk_pairing_check_prepared(const czk_g1_affine *p, const czk_g2_prepared *q, size_t n);

#ifdef __cplusplus
}
#endif
#endif
