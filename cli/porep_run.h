/* PoRep + Groth16 steps shared by czk setup / prove / verify / demo and
 * czk bench prove. */
#ifndef CZK_CLI_POREP_RUN_H
#define CZK_CLI_POREP_RUN_H

#include "cli.h"
#include "progress.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/porep.h"

/* Synthesize the shape and generate parameters (seed: NULL = getrandom). */
czk_status czk_porep_setup_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                  const uint64_t *seed, czk_progress *pg) CZK_WUR;

typedef struct czk_porep_times {
    double synth_s;
    czk_groth16_timings g;
    uint64_t constraints, aux, inputs;
} czk_porep_times;

/* Prove partition k of c1 with params (which must match the shape). */
czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc,
                                     czk_porep_times *times) CZK_WUR;

/* Verify n_parts proofs (partitions 0..n_parts-1) against c1's public inputs. */
czk_status czk_porep_verify(const czk_groth16_vk *vk, const czk_fc_c1 *c1,
                            const czk_groth16_proof *proofs, uint32_t n_parts) CZK_WUR;


/* Parameters for `shape` from the on-disk cache ($CZK_CACHE_DIR, else
 * $XDG_CACHE_HOME/czk, else ~/.cache/czk), generating and caching them
 * (fresh toxic waste from getrandom) when absent or unreadable. path_out
 * (may be NULL) receives the file used; *generated says whether it was made
 * now. */
czk_status czk_porep_cached_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                   czk_progress *pg, char path_out[512], int *generated) CZK_WUR;
#endif
