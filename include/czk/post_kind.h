/* czk — WindowPoSt and WinningPoSt as proof kinds (src/post/): the kinds
 * czk_kind_window_post and czk_kind_winning_post (czk/kind.h; job data a
 * const czk_post_vanilla *, one partition per job), and the steps around
 * proving: parameters (made by setup, or cached) and verification. The
 * circuit is czk/post.h; the vanilla proofs czk/post_vanilla.h. */
#ifndef CZK_POST_KIND_H
#define CZK_POST_KIND_H

#include "czk/groth16.h"
#include "czk/kind.h"
#include "czk/post.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The proof kinds "window-post" and "winning-post". A job proves one
 * partition (Window) or one proof (Winning): the vanilla's own; its index
 * is in the vanilla (czk_post_vanilla.partition) and the job's partition
 * is always 0. The vanilla's shape must be of the kind's czk_post_kind.
 * Public inputs: each sector's comm_r from the vanilla and each challenge
 * derived from its randomness, sector id and partition (not the proven
 * index), so a proof of leaves other than the challenged ones does not
 * verify. */
extern const czk_proof_kind czk_kind_window_post;
extern const czk_proof_kind czk_kind_winning_post;
/* The kind proving vanillas of kind k. */
const czk_proof_kind *czk_post_proof_kind(czk_post_kind k);

/* Synthesize shape s and generate its parameters (seed: NULL = getrandom).
 * Progress goes to (progress, ctx). */
czk_status czk_post_setup_params(czk_groth16_params *out, const czk_post_shape *s, const uint64_t *seed,
                                 czk_progress_fn progress, void *ctx) CZK_WUR;

/* Parameters for s from czk's cache directory (as czk_porep_cached_params:
 * $CZK_CACHE_DIR, else $XDG_CACHE_HOME/czk, else ~/.cache/czk), generated
 * and cached when absent or unreadable. path_out (may be NULL) receives
 * the file; *generated says whether it was made now. */
czk_status czk_post_cached_params(czk_groth16_params *out, const czk_post_shape *s, czk_progress_fn progress,
                                  void *ctx, char path_out[512], int *generated) CZK_WUR;

/* Public inputs of v's partition as a verifier derives them (n must be
 * czk_post_public_input_count(&v->shape)). */
czk_status czk_post_vanilla_public_inputs(czk_fr *out, size_t n, const czk_post_vanilla *v) CZK_WUR;

/* Verify one proof of v's partition against its public inputs:
 * CZK_OK, CZK_ERR_VERIFY when it does not verify, CZK_ERR_INVALID_ARG when
 * vk is not a key of this circuit (input count). */
czk_status czk_post_verify(const czk_groth16_vk *vk, const czk_post_vanilla *v,
                           const czk_groth16_proof *proof) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
