/* Internal interface of the PoRep circuit shared with the PCE (src/pce). */
#ifndef CZK_POREP_INTERNAL_H
#define CZK_POREP_INTERNAL_H

#include "circuits/par.h"
#include "cs/cs_internal.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/porep.h"

/* What the synthesis of one partition reads (porep.c fills it). */
typedef struct porep_ctx {
    const czk_fc_c1 *c1; /* NULL without values */
    uint32_t k;          /* partition */
    int vals;
    uint32_t layers, challenges;
    czk_merkle_shape tree_d, tree_c, tree_r;
} porep_ctx;

/* The partition's variables every challenge uses. */
typedef struct porep_common {
    czk_anum replica_id, comm_d, comm_r, comm_r_last, comm_c;
    czk_bool replica_bits[256];
} porep_common;

/* The synthesis, per LC variant (porep_lcv.c; porep.c chooses the variant
 * with CZK_LC_DISPATCH). top: StackedCircuit::synthesize up to the
 * challenges (fills *cm); one_challenge: challenge i; synth: top, then every
 * challenge in order. */
#define czk__porep_top                                                                  \
    CZK_LCV_NAME(czk__porep_top_vec, czk__porep_top_inline1, czk__porep_top_inline2, czk__porep_top_inline4)
#define czk__porep_one_challenge                                                        \
    CZK_LCV_NAME(czk__porep_one_challenge_vec, czk__porep_one_challenge_inline1,                        \
                 czk__porep_one_challenge_inline2, czk__porep_one_challenge_inline4)
#define czk__porep_synth                                                                \
    CZK_LCV_NAME(czk__porep_synth_vec, czk__porep_synth_inline1, czk__porep_synth_inline2, czk__porep_synth_inline4)

#define CZK__POREP_PROTOS(top, one_challenge, synth)                                    \
    czk_status top(czk_cs *cs, const porep_ctx *x, porep_common *cm) CZK_WUR;           \
    czk_status one_challenge(czk_cs *cs, const porep_ctx *x, const porep_common *cm, uint32_t i) CZK_WUR; \
    czk_status synth(czk_cs *cs, const porep_ctx *x) CZK_WUR;
CZK__POREP_PROTOS(czk__porep_top_vec, czk__porep_one_challenge_vec, czk__porep_synth_vec)
CZK__POREP_PROTOS(czk__porep_top_inline1, czk__porep_one_challenge_inline1, czk__porep_synth_inline1)
CZK__POREP_PROTOS(czk__porep_top_inline2, czk__porep_one_challenge_inline2, czk__porep_synth_inline2)
CZK__POREP_PROTOS(czk__porep_top_inline4, czk__porep_one_challenge_inline4, czk__porep_synth_inline4)
#undef CZK__POREP_PROTOS

/* The parallel plan (circuits/par.h) of partition k: the common part, then
 * the challenges as units of identical cost. p holds the plan's state; c1
 * NULL: counts only. */
typedef struct porep_par {
    porep_ctx x;
    porep_common cm;
    czk_lc_kind lc;
} porep_par;
czk_status czk__porep_par_init(czk__par_circuit *out, porep_par *p, const czk_fc_shape *shape, const czk_fc_c1 *c1,
                               uint32_t k, czk_lc_kind lc) CZK_WUR;

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
