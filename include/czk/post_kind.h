/* czk — WindowPoSt and WinningPoSt as proof kinds (src/post/): the kinds
 * czk_kind_window_post and czk_kind_winning_post (czk/kind.h; job data a
 * const czk_post_vanilla *, one partition per job), and the steps around
 * proving: verification and the vanilla directory. The circuit is
 * czk/post.h; the vanilla proofs czk/post_vanilla.h. */
#ifndef CZK_POST_KIND_H
#define CZK_POST_KIND_H

#include "czk/groth16.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "czk/post.h"
#include "czk/post_vanilla.h"

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

/* Parameters (czk_kind_setup, czk_kind_cached_params) and the PCE
 * matrices and workspace (czk_kind_pce_get, czk_kind_pce_witness) are every
 * kind's: czk/kind.h. */

/* Bumped whenever the circuit or the PCE layout changes (cache key). */
#define CZK_PCE_POST_VERSION "czk-pce-post-1"

/* What czk_kind_pce_validate allocates for w's PCE, for a shape s job on
 * threads (0: czk_threads()): the rows of `threads` sectors at once. */
size_t czk_post_pce_validate_bytes(const czk_pce_work *w, const czk_post_shape *s, int threads);

/* What a verifier knows of one partition (Window) or proof (Winning):
 * the challenge randomness, the partition index, and per sector its id and
 * on-chain comm_r, in proof order. */
typedef struct czk_post_public {
    czk_post_shape shape;
    uint8_t randomness[32];
    uint32_t partition;
    uint32_t n;                 /* sectors: 1 .. czk_post_vanilla_sectors(&shape) */
    const uint64_t *sector_ids; /* n entries */
    const czk_fr *comm_r;       /* n entries */
} czk_post_public;

/* The circuit's public inputs (without ONE) of pub: each sector's comm_r
 * and the leaves its challenges derive (czk_post_challenge_index,
 * czk_post_leaf_challenge); n must be czk_post_public_input_count. */
czk_status czk_post_public_derive(czk_fr *out, size_t n, const czk_post_public *pub) CZK_WUR;
/* The same for v's partition, from its randomness, partition, sector ids
 * and comm_r fields. */
czk_status czk_post_vanilla_public_inputs(czk_fr *out, size_t n, const czk_post_vanilla *v) CZK_WUR;

/* Verify one proof against pub's public inputs: CZK_OK, CZK_ERR_VERIFY
 * when it does not verify, CZK_ERR_INVALID_ARG when vk is not a key of
 * this circuit (input count) or pub is malformed. */
czk_status czk_post_verify_public(const czk_groth16_vk *vk, const czk_post_public *pub,
                                  const czk_groth16_proof *proof) CZK_WUR;
/* czk_post_verify_public with v's data (czk_post_vanilla_public_inputs). */
czk_status czk_post_verify(const czk_groth16_vk *vk, const czk_post_vanilla *v,
                           const czk_groth16_proof *proof) CZK_WUR;

/* ---- a vanilla directory ------------------------------------------------------ */

/* A directory as `czk-oracle vanilla-post --kind KIND -o DIR` writes it
 * (KIND window or winning): DIR/post-KIND.json (czk_post_json_read: the
 * proof type, randomness, prover id, sector ids, comm_r, challenges) and
 * DIR/vanilla-KIND.bin (the sectors' FallbackPoStSectorProofs in bincode,
 * one after another, each of czk_post_sector_proof_bytes). It holds one
 * partition, partition 0. */

/* Read DIR/post-KIND.json alone (what a verifier needs); CZK_ERR_FORMAT
 * when its proof type is not of kind k. Free m with czk_post_json_free. */
czk_status czk_post_dir_json(czk_post_json *m, czk_post_kind k, const char *dir) CZK_WUR;

/* Read both files strictly: the .bin must be a regular file of exactly
 * n_sectors x czk_post_sector_proof_bytes, decoded by czk_post_vanilla_read
 * (partition 0); each proof must be of the JSON's sector id and comm_r and
 * prove the JSON's challenged leaves; then czk_post_vanilla_check (the
 * challenges the randomness derives, the paths, comm_r). Errors
 * (CZK_ERR_IO, CZK_ERR_FORMAT, CZK_ERR_NOT_CANONICAL, CZK_ERR_VERIFY) name
 * the file and the field; v and m are then empty. Free v with
 * czk_post_vanilla_free, m with czk_post_json_free. (Shared with czk bench
 * synth-only --vanilla.) */
czk_status czk_post_dir_read(czk_post_vanilla *v, czk_post_json *m, czk_post_kind k, const char *dir) CZK_WUR;

/* Write DIR/vanilla-KIND.bin (v's n sector proofs, bincode) and
 * DIR/post-KIND.json (m), KIND from v's shape, each atomically, the JSON
 * last (a reader never sees a JSON without its proofs); DIR and its parents
 * are created if missing. v and m must describe the same proofs (ids,
 * comm_r and leaves compared: CZK_ERR_INVALID_ARG otherwise). *bytes (may be
 * NULL): the two files' sizes together. */
czk_status czk_post_dir_write(const char *dir, const czk_post_vanilla *v, const czk_post_json *m,
                              uint64_t *bytes) CZK_WUR;

/* Verify one proof against m's public data (comm_r from the JSON, the
 * challenges derived from its randomness, partition 0), as
 * czk_post_verify_public. */
czk_status czk_post_json_verify(const czk_groth16_vk *vk, const czk_post_json *m,
                                const czk_groth16_proof *proof) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
