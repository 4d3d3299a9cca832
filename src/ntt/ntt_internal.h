/* czk ntt — internal: what the tests reach beyond czk/ntt.h. */
#ifndef CZK_NTT_INTERNAL_H
#define CZK_NTT_INTERNAL_H

#include "czk/ntt.h"

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)

/* Naive O(n^2) DFT, kept for tests: out_i = sum_j in_j w^(ij), any n >= 1
 * (out must not alias in). */
void czk_ntt_dft_ref(czk_fr *out, const czk_fr *in, size_t n, const czk_fr *w);

#pragma GCC visibility pop

#endif
