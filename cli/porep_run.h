/* PoRep + Groth16 steps shared by czk setup / prove / verify / demo and
 * czk bench prove. */
#ifndef CZK_CLI_POREP_RUN_H
#define CZK_CLI_POREP_RUN_H

#include "cli.h"
#include "progress.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/pce.h"
#include "czk/porep.h"

/* Synthesize the shape and generate parameters (seed: NULL = getrandom). */
czk_status czk_porep_setup_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                  const uint64_t *seed, czk_progress *pg) CZK_WUR;

typedef struct czk_porep_times {
    double synth_s;            /* full synthesis, or PCE witness + mat-vec */
    double witness_s, eval_s;  /* the PCE split (0 without PCE) */
    int used_pce;
    czk_groth16_timings g;
    uint64_t constraints, aux, inputs;
} czk_porep_times;

/* --pce on|off|auto: "auto" uses the pre-compiled matrices when the shape's
 * PCE file is already cached, "on" loads or builds it. */
typedef enum czk_pce_mode { CZK_PCE_MODE_OFF = 0, CZK_PCE_MODE_ON, CZK_PCE_MODE_AUTO } czk_pce_mode;
int czk_pce_mode_parse(czk_pce_mode *out, const char *s); /* 0 ok, -1 bad */

/* How partitions are synthesized: full synthesis (PROVE backend) or PCE. */
typedef struct czk_porep_synth {
    czk_pce *pce;
    czk_pce_porep_work *work;
} czk_porep_synth;
czk_status czk_porep_synth_open(czk_porep_synth *s, const czk_fc_shape *shape, czk_pce_mode mode,
                                czk_progress *pg) CZK_WUR;
void czk_porep_synth_close(czk_porep_synth *s);

/* Prove partition k of c1 with params (which must match the shape). synth may
 * be NULL (full synthesis). */
czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc,
                                     czk_porep_synth *synth, czk_porep_times *times) CZK_WUR;

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
