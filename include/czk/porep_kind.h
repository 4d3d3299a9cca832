/* czk — PoRep as a library module (src/porep/): the proof kind
 * czk_kind_porep (czk/kind.h: czk_kind_prove proves a sector's partitions
 * through the engine), verification, and one partition outside the engine
 * with per-stage timings. The circuit itself is czk/porep.h. */
#ifndef CZK_POREP_KIND_H
#define CZK_POREP_KIND_H

#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/kind.h"
#include "czk/porep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters (czk_kind_setup, czk_kind_cached_params) and the PCE
 * matrices (czk_kind_pce_get) are every kind's: czk/kind.h. */

/* Verify proofs of partitions 0 .. n_parts-1 against c1's public inputs
 * (one batch verification for several). */
czk_status czk_porep_verify(const czk_groth16_vk *vk, const czk_fc_c1 *c1, const czk_groth16_proof *proofs,
                            uint32_t n_parts) CZK_WUR;

typedef struct czk_porep_times {
    double synth_s;     /* the witness (its a*b = c check runs after, untimed) */
    const char *source; /* which witness source ran */
    czk_groth16_timings g;
    uint64_t constraints, aux, inputs;
} czk_porep_times;

/* One partition, outside the engine, with the prover's per-stage timings
 * (what czk bench prove reports): src's witness (NULL: full synthesis),
 * checked, then czk_groth16_prove. Not verified. */
czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, const czk_witness_source *src,
                                     czk_porep_times *times) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
