/* czk — Poseidon parameter tables (internal; generated data in poseidon_constants.c).
 *
 * Two equivalent descriptions of the same permutation per arity (docs/filecoin.md#poseidon):
 *  - the plain one: rc[(r_f + r_p) * t] round constants and the MDS matrix mds[t * t];
 *  - neptune's optimized one (Poseidon paper, appendix B), which the circuit follows so
 *    that its R1CS is Filecoin's: crc[r_f * t + r_p] compressed constants, pre_sparse[t*t],
 *    and per partial round a sparse matrix given by its first column w_hat[t] and its
 *    first row past the diagonal v_rest[t - 1] (the rest is the identity).
 * Matrices are row-major; the state is a row vector multiplied on the right
 * (s'[j] = sum_i s[i] * M[i][j]). All elements are czk_fr in Montgomery form.
 */
#ifndef CZK_GADGETS_POSEIDON_PARAMS_H
#define CZK_GADGETS_POSEIDON_PARAMS_H

#include "czk/field.h"

#define CZK__POSEIDON_NPARAMS 4
#define CZK__POSEIDON_MAX_T 12

typedef struct czk__poseidon_params {
    unsigned arity, t, r_f, r_p;
    czk_fr merkle_tag;       /* 2^arity - 1 */
    const czk_fr *rc;        /* (r_f + r_p) * t */
    const czk_fr *mds;       /* t * t */
    const czk_fr *crc;       /* r_f * t + r_p */
    const czk_fr *pre_sparse; /* t * t */
    const czk_fr *w_hat;     /* r_p * t */
    const czk_fr *v_rest;    /* r_p * (t - 1) */
} czk__poseidon_params;

/* Arities 2, 4, 8, 11 in that order. */
extern const czk__poseidon_params czk__poseidon_params_table[CZK__POSEIDON_NPARAMS];

/* The table entry for `arity`, or NULL when czk has no parameters for it. */
const czk__poseidon_params *czk__poseidon_params_get(unsigned arity);

#endif
