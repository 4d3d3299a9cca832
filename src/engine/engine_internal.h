/* Shared between the engine's files; not installed. */
#ifndef CZK_ENGINE_INTERNAL_H
#define CZK_ENGINE_INTERNAL_H

#include "czk/engine.h"

/* Bytes each task of a prover pass of up to `batch` tasks reserves: the
 * largest per-task share, over pass sizes k = 1..batch, of what a k-task
 * czk_engine_prove_batch allocates (h of each, b, c, twiddles, k-set G1
 * and G2 MSM scratch). batch = 1 is czk_engine_prove_bytes. */
uint64_t czk__engine_prove_bytes_batch(const czk_cs_sizes *s, const czk_groth16_params *p, int threads,
                                       int batch);

/* 1 if czk_engine_prove_batch runs one multi-scalar-set MSM per query for
 * these witnesses (n > 1 and equal density masks), 0 if one MSM per witness. */
int czk__engine_batch_is_multi(const czk_cs_assignment *const *w, size_t n);

#endif
