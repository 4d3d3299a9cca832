/* The evaluation of one linear combination's terms against the witness, as
 * bellperson's prover evaluates A, B and C (docs/groth16.md "Densities"):
 * shared by the PROVE backend (cs_prove.c) and the parallel prover
 * (src/circuits/par.c), which differ only in how a density bit is set. */
#ifndef CZK_CS_EVAL_H
#define CZK_CS_EVAL_H

#include "cs/cs_internal.h"
#include "ff/field_impl.h"

/* Set bit i of bm: plainly with a popcount (one writer), or atomically
 * without one (threads share the bitmap's words; counted afterwards). */
static inline void czk__dens_mark(uint64_t *bm, size_t *pop, uint32_t i, int atomic)
{
    uint64_t m = (uint64_t)1 << (i & 63);
    if (atomic) {
        if (!(__atomic_load_n(&bm[i >> 6], __ATOMIC_RELAXED) & m)) __atomic_fetch_or(&bm[i >> 6], m, __ATOMIC_RELAXED);
        return;
    }
    uint64_t w = bm[i >> 6];
    if (!(w & m)) {
        bm[i >> 6] = w | m;
        (*pop)++;
    }
}

/* acc += sum coeff * value over the n terms; a term with a non-zero
 * coefficient marks its variable's bit in bm (bm NULL: no density). 0 when a
 * term refers to a variable not yet allocated (index >= nvals). */
static inline int czk__lc_eval(czk_fr *acc, const czk_lc_term *t, uint32_t n, const czk_fr *vals, uint32_t nvals,
                               uint64_t *bm, size_t *pop, int atomic)
{
    czk_fr tmp;
    for (uint32_t k = 0; k < n; k++) {
        const czk_lc_term *e = &t[k];
        if (CZK_UNLIKELY(e->index >= nvals)) return 0;
        if (czk__fr_is_zero(&e->coeff)) continue;
        const czk_fr *v = &vals[e->index];
        /* exact shortcuts. Values 0 and 1 (every witness value of a bit-heavy
         * circuit such as SHA-256) add coeff & mask without a data-dependent
         * branch; otherwise +-1 coefficients add / subtract, and only general
         * pairs multiply. */
        uint64_t vz = v->l[1] | v->l[2] | v->l[3];
        if (CZK_LIKELY((v->l[0] == 0 && vz == 0) || czk__fr_is_one(v))) {
            uint64_t m = (uint64_t)0 - (uint64_t)(v->l[0] != 0);
            tmp.l[0] = e->coeff.l[0] & m;
            tmp.l[1] = e->coeff.l[1] & m;
            tmp.l[2] = e->coeff.l[2] & m;
            tmp.l[3] = e->coeff.l[3] & m;
            czk__fr_add(acc, acc, &tmp);
        } else if (czk__fr_is_one(&e->coeff)) {
            czk__fr_add(acc, acc, v);
        } else if (czk__fr_is_minus_one(&e->coeff)) {
            czk__fr_sub(acc, acc, v);
        } else {
            czk__fr_mul(&tmp, v, &e->coeff);
            czk__fr_add(acc, acc, &tmp);
        }
        if (bm) czk__dens_mark(bm, pop, e->index, atomic);
    }
    return 1;
}

#endif
