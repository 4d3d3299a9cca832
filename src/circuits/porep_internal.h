/* Internal interface of the PoRep circuit shared with the PCE (src/pce). */
#ifndef CZK_POREP_INTERNAL_H
#define CZK_POREP_INTERNAL_H

#include "cs/cs_internal.h"
#include "czk/porep.h"

/* Witness-only synthesis of partition k on `threads` threads (challenges
 * split across them, each writing its values in place): v->input and v->aux
 * must hold at least czk_porep_sizes' n_inputs / n_aux values (cap_input,
 * cap_aux); exactly those are written, equal bit for bit to the sequential
 * WITNESS backend's (czk_porep_synthesize). lc: LC storage of the gadgets
 * (no LC is built in witness mode). */
czk_status czk__porep_witness_par(czk__cs_values *v, const czk_fc_shape *shape, const czk_fc_c1 *c1, uint32_t k,
                                  czk_lc_kind lc, int threads) CZK_WUR;

/* The PROVE synthesis of partition k (the parallel prover's backend: bit
 * for bit czk_porep_prover_synthesize's result) with a, b, c held only for a
 * window of rows (threads x one challenge's rows): fn(ctx, row0, row1, a, b,
 * c) receives rows [row0, row1) in increasing order (the common part, then
 * `threads` challenges at a time, then the input constraints
 * (input_i) * 0 = 0). v receives input and aux as in czk__porep_witness_par;
 * dens[0..2] (A-aux, B-input, B-aux bitmaps, zeroed by the caller, one bit
 * per aux / input) receive the densities. An error from fn stops it. */
typedef czk_status (*czk__porep_rows_fn)(void *ctx, uint64_t row0, uint64_t row1, const czk_fr *a, const czk_fr *b,
                                         const czk_fr *c);
czk_status czk__porep_prove_stream(czk__cs_values *v, uint64_t *dens[3], const czk_fc_shape *shape,
                                   const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc, int threads,
                                   czk__porep_rows_fn fn, void *ctx) CZK_WUR;

#endif
