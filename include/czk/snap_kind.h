/* czk — SnapDeals as a proof kind (src/snap/): the kind czk_kind_snap
 * (czk/kind.h; job data a const czk_snap_vanilla *, one job = every
 * partition of an update), and the steps around proving: verification from
 * the public data, and the vanilla directory (snap.json +
 * snap-partition-K.bin). The circuit and the vanilla proofs are czk/snap.h. */
#ifndef CZK_SNAP_KIND_H
#define CZK_SNAP_KIND_H

#include "czk/groth16.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "czk/snap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The proof kind "snap": job data a const czk_snap_vanilla * (checked by
 * the caller, czk_snap_vanilla_check); partition k of the job is the
 * update's partition k, so a job of every partition yields the update proof
 * (partitions x 192 bytes, in order). Public inputs: czk_snap_public_inputs
 * of the vanilla's commitments and h, so a proof verifies only for the
 * commitments it was made for. */
extern const czk_proof_kind czk_kind_snap;

/* Parameters (czk_kind_setup, czk_kind_cached_params) and the PCE
 * matrices and workspace (czk_kind_pce_get, czk_kind_pce_witness) are every
 * kind's: czk/kind.h. Every partition of an update has the same R1CS. */

/* Bumped whenever the circuit or the PCE layout changes (cache key). */
#define CZK_PCE_SNAP_VERSION "czk-pce-snap-1"

/* What a verifier knows of an update: the shape, h, the three commitments. */
typedef struct czk_snap_public {
    czk_snap_shape shape;
    uint32_t h;
    czk_fr comm_r_old, comm_d_new, comm_r_new;
} czk_snap_public;

/* Verify n = shape.partitions proofs (proofs[k] of partition k) in one
 * batch: CZK_OK, CZK_ERR_VERIFY (not valid), CZK_ERR_INVALID_ARG (a vk of
 * another circuit: input count; n other than the partitions). */
czk_status czk_snap_verify_public(const czk_groth16_vk *vk, const czk_snap_public *pub,
                                  const czk_groth16_proof *proofs, uint32_t n) CZK_WUR;
/* The same with m's shape and commitments (h: the shape's). */
czk_status czk_snap_json_verify(const czk_groth16_vk *vk, const czk_snap_json *m, const czk_groth16_proof *proofs,
                                uint32_t n) CZK_WUR;

/* ---- a vanilla directory ------------------------------------------------------------- */

/* A directory as `czk-oracle vanilla-snap -o DIR` or `czk gen-snap -o DIR`
 * writes it: DIR/snap.json (czk_snap_json_read) and one
 * DIR/snap-partition-K.bin per partition (bincode PartitionProof). */

/* Read DIR/snap.json alone (what a verifier needs). */
czk_status czk_snap_dir_json(czk_snap_json *m, const char *dir) CZK_WUR;
/* Read both strictly: each .bin a regular file of exactly
 * czk_snap_partition_proof_bytes, decoded (czk_snap_vanilla_read with the
 * JSON's commitments), then czk_snap_vanilla_check. Errors name the file
 * and the field; v and m are then empty. Free v with czk_snap_vanilla_free. */
czk_status czk_snap_dir_read(czk_snap_vanilla *v, czk_snap_json *m, const char *dir) CZK_WUR;
/* Write v's partition proofs and its snap.json into DIR (created with its
 * parents if missing), each file atomically, the JSON last. v must be of a
 * production shape. *bytes (may be NULL): the files' sizes together. */
czk_status czk_snap_dir_write(const char *dir, const czk_snap_vanilla *v, uint64_t *bytes) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
