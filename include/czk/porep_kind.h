/* czk — PoRep as a library module (src/porep/): the proof kind
 * czk_kind_porep (czk/kind.h: czk_kind_prove proves a sector's partitions
 * through the engine). The circuit itself is czk/porep.h. */
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

/* Verification (czk_kind_verify_data) and one partition outside the engine
 * with its stage timings (czk_kind_prove_partition) are every kind's too. */

#ifdef __cplusplus
}
#endif
#endif
