/* czk ff — tower constants shared with src/ec and src/pairing (internal).
 *
 * gamma_k[j] = xi^(j (p^k - 1) / 6), xi = u + 1, the factor by which the
 * p^k-power Frobenius scales the coefficient of w^j in Fp12 (w^6 = xi). They
 * are computed once from p (no pasted constants) on first use; the tests
 * check frobenius(a) == a^(p^k).
 */
#ifndef CZK_FF_TOWER_INTERNAL_H
#define CZK_FF_TOWER_INTERNAL_H

#include "czk/tower.h"

/* gamma_k[j] for k = 1, 2, 3 and j = 0..5 (gamma_2 lies in Fp). */
const czk_fp2 *czk__fp12_frob_coeff(unsigned k, unsigned j);

/* out = in / d for a plain n-limb integer and a small divisor; returns the remainder. */
uint64_t czk__limbs_div_small(uint64_t *out, const uint64_t *in, size_t n, uint64_t d);

#endif
