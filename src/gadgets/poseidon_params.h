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

/* The constraints of one hash of arity p->arity with one domain tag (the
 * Merkle tag; for arity 2 also the SnapDeals "gen randomness" tag), recorded
 * once from the direct synthesis (poseidon_circuit.c) and replayed by the
 * PROVE and SHAPE synthesis (poseidon_circuit_lcv.c). Variables are local ids: 0 = ONE,
 * 1..n = the inputs, n + 1 + k = the k-th variable the hash allocates. */
typedef struct czk__ptmpl {
    uint32_t n_alloc, n_cons;
    uint32_t *off;   /* 3 n_cons + 1: terms of (constraint r, side k) are off[3r+k] .. off[3r+k+1] */
    uint32_t *id;    /* local ids */
    czk_fr *coeff;
} czk__ptmpl;

/* The template for p with domain tag *tag, built on first use; NULL for a
 * tag without one or if it could not be built (then the direct path is
 * used). */
const czk__ptmpl *czk__poseidon_template(const czk__poseidon_params *p, const czk_fr *tag);

/* Internal to libczk and the czk program: hidden in libczk.so. */
#pragma GCC visibility push(hidden)
/* Reference: the plain permutation (add round constants, S-boxes, dense MDS in
 * every round), slow; kept to test czk_poseidon_hash_tag. */
czk_status czk_poseidon_hash_tag_ref(czk_fr *out, const czk_fr *tag, const czk_fr *in,
                                     size_t n) CZK_WUR;
#pragma GCC visibility pop

#endif
