/* czk ec — internals shared by src/ec and src/pairing. */
#ifndef CZK_EC_INTERNAL_H
#define CZK_EC_INTERNAL_H

#include "czk/ec.h"

/* |x| for the BLS parameter x = -0xd201000000010000. */
#define CZK_BLS_X_ABS 0xd201000000010000ULL

/* One-time set-up of the curve constants (generators, b, endomorphism
 * coefficients); idempotent and thread-safe. */
void czk__g1_init(void);
void czk__g2_init(void);

/* phi(x, y) = (beta x, y), beta a cube root of unity; acts as [-x^2] on G1. */
void czk__g1_endo(czk_g1_jac *r, const czk_g1_jac *a);
/* psi = twist^-1 o Frobenius o twist: psi(x, y) = (conj(x) / xi^((p-1)/3),
 * conj(y) / xi^((p-1)/2)); acts as [p] = [x] on G2. */
void czk__g2_psi(czk_g2_jac *r, const czk_g2_jac *a);
/* b' = 4(u + 1), the G2 curve constant. */
const czk_fp2 *czk__g2_b(void);

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)
/* Reference subgroup tests, kept for tests: [r] P = infinity (slow). */
int czk_g1_affine_in_subgroup_ref(const czk_g1_affine *a);
int czk_g2_affine_in_subgroup_ref(const czk_g2_affine *a);
#pragma GCC visibility pop

#endif
