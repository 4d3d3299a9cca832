/* czk — SnapDeals (EmptySectorUpdate, storage-proofs-update): its shapes and
 * constants, public inputs, challenges, the partition circuit, its vanilla
 * partition proofs (bincode) and their native check, and a synthetic update
 * generator (docs/filecoin.md "SnapDeals", docs/formats.md "Vanilla proofs
 * as bincode").
 *
 * An update replaces a committed-capacity sector's data: the old replica
 * (tree R old, root under comm_r_old), the new data (tree D new, a binary
 * SHA-256 tree, root comm_d_new) and the new replica (tree R new, under
 * comm_r_new), where each new replica node is
 * leaf_r_new = leaf_r_old + leaf_d_new * rho and rho = PoseidonGR(phi, the h
 * high bits of the node index), phi = PoseidonGR(comm_d_new, comm_r_old).
 * A proof has `partitions` partitions of `challenges` challenges each; each
 * partition is one Groth16 proof of 192 bytes.
 *
 * Every 32-byte value of a vanilla proof (commitments, roots, leaves,
 * siblings, apex leaves) must be a canonical field element (< r,
 * little-endian) and is stored as a czk_fr (Montgomery form).
 */
#ifndef CZK_SNAP_H
#define CZK_SNAP_H

#include "czk/cs.h"
#include "czk/filecoin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_SNAP_HS 6              /* candidate h values the circuit selects from */
#define CZK_SNAP_PUBLIC_INPUTS 4   /* k_and_h_select, comm_r_old, comm_d_new, comm_r_new */
#define CZK_SNAP_UPDATE_PROOFS 5   /* registered update proofs 0 .. 4 */
#define CZK_SNAP_PROOF_CUSTOM (-1)

/* ---- shapes --------------------------------------------------------------- */

/* The constants storage-proofs-update derives from the sector's node count
 * (constants.rs): partitions 1 (<= 8KiB), 2 (<= 32KiB), 4 (<= 16MiB), else
 * 16; challenges 10 (<= 16MiB), else 86; apex leaves 8 (<= 8KiB), else 128;
 * hs [1; 6] (<= 32KiB), else [7, 8, 9, 10, 11, 12]; h = hs[3]. */
typedef struct czk_snap_shape {
    int update_proof;        /* registered update proof 0..4 (2KiB .. 64GiB), or CZK_SNAP_PROOF_CUSTOM */
    czk_fc_shape tree;       /* tree R old / new: nodes, arities, base height (tree.d_height: tree D's) */
    uint32_t challenge_bits; /* log2(nodes): bits of a challenge, tree D's height */
    uint32_t partitions, partition_bits;
    uint32_t challenges;     /* per partition */
    uint32_t apex_leaves, apex_bits;
    uint32_t hs[CZK_SNAP_HS];
    uint32_t h;              /* hs[3]: the number of high bits filecoin-proofs uses */
} czk_snap_shape;

/* The shape of registered update proof p (0 .. 4: StackedDrg2KiBV1 ..
 * StackedDrg64GiBV1; tree R as the sector's PoRep tree R_last). */
czk_status czk_snap_shape_of_proof(czk_snap_shape *s, int p) CZK_WUR;
/* The same by sector size in bytes (2KiB, 8MiB, 512MiB, 32GiB, 64GiB). */
czk_status czk_snap_shape_of(czk_snap_shape *s, uint64_t sector_size) CZK_WUR;
/* A custom shape: a power-of-two node count (32 .. 2^32), tree R of
 * base_arity, sub_arity, top_arity (as czk_fc_shape_custom), the constants
 * derived from the node count as above. CZK_ERR_INVALID_ARG when the
 * constants do not fit the tree (a challenge must have at least the largest
 * h of hs bits, and the apex leaves and partitions must fit tree D). */
czk_status czk_snap_shape_custom(czk_snap_shape *s, uint64_t nodes, uint32_t base_arity, uint32_t sub_arity,
                                 uint32_t top_arity) CZK_WUR;
/* A test shape: s with fewer challenges per partition (1 .. s->challenges),
 * every other constant kept. The circuit derives that many challenges (the
 * same digests, fewer of them), so every gadget of the sector's circuit runs
 * at a fraction of its size; it is no registered proof's
 * (CZK_SNAP_PROOF_CUSTOM: no v28 parameters). snap.json records it as the
 * registered update proof of the same size plus "challenges". */
czk_status czk_snap_shape_challenges(czk_snap_shape *s, uint32_t challenges) CZK_WUR;
/* "StackedDrg2KiBV1" .. "StackedDrg64GiBV1" (filecoin-proofs-api
 * RegisteredUpdateProof), "CzkCustom"; NULL outside. */
const char *czk_snap_proof_name(int p);
/* The inverse; CZK_ERR_INVALID_ARG naming the string otherwise. */
czk_status czk_snap_proof_from_name(int *p, const char *name) CZK_WUR;

/* ---- parameter files ------------------------------------------------------ */

/* The v28 parameter identity of update proof p's circuit,
 * "v28-empty-sector-update-merkletree-poseidon_hasher-...", NULL outside
 * 0 .. 4 (docs/filecoin-params.md). */
const char *czk_snap_param_id(int p);
/* dir/<id><ext> (ext ".params" or ".vk") for s; CZK_ERR_INVALID_ARG "no
 * known v28 name ...; pass --params" for a custom shape or a path too long. */
czk_status czk_snap_param_path(char *out, size_t cap, const char *dir, const czk_snap_shape *s,
                               const char *ext) CZK_WUR;

/* ---- public inputs and challenges ----------------------------------------- */

/* h_select = 1 << (the first index of h in s->hs); CZK_ERR_INVALID_ARG
 * when h is not one of them. */
czk_status czk_snap_h_select(uint64_t *out, const czk_snap_shape *s, uint32_t h) CZK_WUR;
/* The public inputs of partition k (without ONE), in the circuit's order:
 * k_and_h_select = k | (h_select << partition_bits), comm_r_old,
 * comm_d_new, comm_r_new. CZK_ERR_INVALID_ARG for k >= partitions or an h
 * not in hs. */
czk_status czk_snap_public_inputs(czk_fr out[CZK_SNAP_PUBLIC_INPUTS], const czk_snap_shape *s, uint32_t k,
                                  uint32_t h, const czk_fr *comm_r_old, const czk_fr *comm_d_new,
                                  const czk_fr *comm_r_new) CZK_WUR;

/* phi = PoseidonGR(comm_d_new, comm_r_old); rho = PoseidonGR(phi, high). */
void czk_snap_phi(czk_fr *out, const czk_fr *comm_d_new, const czk_fr *comm_r_old);
void czk_snap_rho(czk_fr *out, const czk_fr *phi, uint64_t high);
/* Digests per partition: ceil(challenges / floor(254 / (challenge_bits -
 * partition_bits))). */
uint32_t czk_snap_digests(const czk_snap_shape *s);
/* The s->challenges challenged nodes of partition k (challenges.rs): digest
 * j of the partition is PoseidonGR(comm_r_new, k * digests + j), read as 255
 * little-endian bits cut into chunks of challenge_bits - partition_bits
 * bits; a challenge is a chunk read little-endian with k's bits above it.
 * CZK_ERR_INVALID_ARG for k >= partitions. */
czk_status czk_snap_challenges(uint64_t *out, const czk_snap_shape *s, const czk_fr *comm_r_new,
                               uint32_t k) CZK_WUR;

/* ---- vanilla proofs --------------------------------------------------------- */

/* One challenge: its node's inclusion proofs in tree R old, tree D new
 * (binary SHA-256, challenge_bits levels) and tree R new. Each proof's
 * index is its leaf position (rebuilt from the path's per-level indices). */
typedef struct czk_snap_challenge_proof {
    czk_fc_merkle r_old, d_new, r_new;
} czk_snap_challenge_proof;

/* One PartitionProof: comm_c, this partition's apex leaves (the row of tree
 * D at height challenge_bits - partition_bits - apex_bits) and one proof per
 * challenge, in challenge order. */
typedef struct czk_snap_partition {
    czk_fr comm_c;
    czk_fr *apex_leaves;               /* shape.apex_leaves */
    czk_snap_challenge_proof *proofs;  /* shape.challenges */
} czk_snap_partition;

/* An update's vanilla proofs, with the public data they answer. */
typedef struct czk_snap_vanilla {
    czk_snap_shape shape;
    czk_fr comm_r_old, comm_d_new, comm_r_new;
    uint32_t h;                /* shape.h unless set otherwise (must be in shape.hs) */
    uint32_t n;                /* partition proofs: shape.partitions */
    czk_snap_partition *parts; /* n entries; parts[k] is partition k */
    void *arena;               /* every array above points into it */
    size_t arena_bytes;
} czk_snap_vanilla;

/* bincode bytes of one tree R MerkleProof (Single / Sub / Top by the
 * shape: 2,484 at 32GiB), of one tree D MerkleProof (Single, 1,516 at
 * 32GiB), and of one PartitionProof: 32 + 8 + 32 apex_leaves + 8 +
 * challenges x (2 tree R + tree D) = 561,768 at 32GiB. */
size_t czk_snap_tree_r_proof_bytes(const czk_snap_shape *s);
size_t czk_snap_tree_d_proof_bytes(const czk_snap_shape *s);
size_t czk_snap_partition_proof_bytes(const czk_snap_shape *s);
/* Bytes of storage czk_snap_partition_decode needs. */
size_t czk_snap_partition_storage_size(const czk_snap_shape *s);

/* Decode the PartitionProof of partition k in data[0..len) into *out, whose
 * arrays point into storage (storage_size >= czk_snap_partition_storage_size,
 * 8-byte aligned, the caller's). Checked: the apex leaf and challenge counts;
 * each Merkle proof's variant (tree R: the shape's Single / Sub / Top; tree
 * D: Single), path lengths, arity - 1 hashes per element, element indices <
 * arity; every 32-byte value canonical; nothing after the proof. Errors
 * (CZK_ERR_FORMAT, CZK_ERR_NOT_CANONICAL) name the partition, the challenge,
 * the field ("challenge 3, proof_r_old, base path element 2, hashes[5]")
 * and the byte offset. Hashes are not checked here (czk_snap_vanilla_check). */
czk_status czk_snap_partition_decode(czk_snap_partition *out, void *storage, size_t storage_size,
                                     const uint8_t *data, size_t len, const czk_snap_shape *s, uint32_t k) CZK_WUR;
/* Encode p as filecoin-proofs' bincode does into out[0..cap); *len =
 * czk_snap_partition_proof_bytes(s). CZK_ERR_INVALID_ARG when cap is too
 * small or an index does not fit its tree. Decoding the result gives p
 * back; re-encoding a decoded proof gives its bytes back. */
czk_status czk_snap_partition_encode(uint8_t *out, size_t cap, size_t *len, const czk_snap_partition *p,
                                     const czk_snap_shape *s) CZK_WUR;

/* Read the n partition proofs proofs[k][0..lens[k]) of an update of shape
 * s (n must be s->partitions: an update proof proves every partition) with
 * its three commitments (32 bytes each, canonical: CZK_ERR_NOT_CANONICAL
 * naming the one that is not). h = s->h. One arena holds everything; free
 * it with czk_snap_vanilla_free. On failure v is left empty. */
czk_status czk_snap_vanilla_read(czk_snap_vanilla *v, const czk_snap_shape *s, const uint8_t *const *proofs,
                                 const size_t *lens, uint32_t n, const uint8_t comm_r_old[32],
                                 const uint8_t comm_d_new[32], const uint8_t comm_r_new[32]) CZK_WUR;
/* Free v's arena (safe on a zeroed struct) and zero it. */
void czk_snap_vanilla_free(czk_snap_vanilla *v);

/* Check partition k of v natively, as the circuit will: comm_r_old =
 * Poseidon2(comm_c, root_r_old) and comm_r_new = Poseidon2(comm_c,
 * root_r_new) (the roots of challenge 0's proofs, which every challenge
 * must share); per challenge, its three indices equal the challenge the
 * commitments derive, tree D's root is comm_d_new, each path hashes to its
 * root, leaf_r_new = leaf_r_old + leaf_d_new * rho, tree D's path passes
 * through the apex leaf the challenge selects and continues along one
 * partition path common to every challenge, which joins the apex tree's
 * root to comm_d_new. CZK_ERR_VERIFY naming the partition, challenge and
 * what fails. */
czk_status czk_snap_partition_check(const czk_snap_vanilla *v, uint32_t k) CZK_WUR;
/* Every partition (in parallel); the first failure's message. */
czk_status czk_snap_vanilla_check(const czk_snap_vanilla *v) CZK_WUR;

/* ---- snap.json ---------------------------------------------------------------- */

/* The public data of an update beside its partition proofs, as
 * `czk-oracle vanilla-snap` and `czk gen-snap` write it (snap.json). */
typedef struct czk_snap_json {
    char proof[32];         /* registered_update_proof, "StackedDrg2KiBV1" .. */
    czk_snap_shape shape;   /* its production shape, or its test shape with "challenges" */
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    uint32_t partitions;    /* = shape.partitions */
} czk_snap_json;

/* Read snap.json at path into out: registered_update_proof (a known update
 * proof), comm_r_old, comm_r_new, comm_d_new (32 numbers 0..255 each, each a
 * canonical field element), partitions (the proof type's), and optionally
 * challenges (a test shape, czk_snap_shape_challenges); other keys are
 * ignored. Errors (CZK_ERR_IO, CZK_ERR_FORMAT, CZK_ERR_NOT_CANONICAL) name
 * the file, the key and what is wrong. */
czk_status czk_snap_json_read(czk_snap_json *out, const char *path) CZK_WUR;
/* m as snap.json text (those keys, sorted; challenges only for a test
 * shape); *out is malloc'd (free it). */
czk_status czk_snap_json_dump(char **out, const czk_snap_json *m) CZK_WUR;
/* m of v (a production shape, or one with fewer challenges): its proof name
 * and commitments. */
czk_status czk_snap_json_of(czk_snap_json *m, const czk_snap_vanilla *v) CZK_WUR;

/* ---- the circuit -------------------------------------------------------------- */

typedef struct czk_snap_counts {
    uint64_t inputs, aux, constraints; /* inputs include ONE; constraints exclude the input rows */
} czk_snap_counts;
/* The closed form (docs/filecoin.md "SnapDeals", Costs): 81,049,499
 * constraints for a 32GiB partition. */
void czk_snap_circuit_counts(czk_snap_counts *out, const czk_snap_shape *s);
/* The same from a real synthesis into the counting pass (constant memory). */
czk_status czk_snap_count(czk_snap_counts *out, const czk_snap_shape *s, czk_lc_kind lc) CZK_WUR;

/* Partition k's circuit (storage-proofs-update EmptySectorUpdateCircuit),
 * allocations and constraints in the reference's order, namespaces its
 * names. v may be NULL on a backend without values (SHAPE); otherwise its
 * shape must equal s (CZK_ERR_INVALID_ARG) and partition k must be
 * well-formed: every challenge's tree D path shares partition k's top
 * (CZK_ERR_INVALID_ARG naming the challenge otherwise). A vanilla proof
 * that is well-formed but wrong (another root, a bad path) yields an
 * unsatisfied witness, not an error. */
czk_status czk_snap_synthesize(czk_cs *cs, const czk_snap_shape *s, const czk_snap_vanilla *v, uint32_t k) CZK_WUR;

/* ---- a synthetic update (tests, benchmarks, czk gen-snap) ------------------- */

/* A consistent update of shape s from seed: a sector whose old replica and
 * new data repeat a pseudo-random tile of min(nodes, 512) nodes (the whole
 * sector up to 2^18 nodes, no repetition), the new replica encoded from
 * both with rho as filecoin-proofs encodes it, the three trees as real
 * whole trees, comm_c pseudo-random, and every partition's vanilla proof
 * of the challenges the commitments derive. Tree nodes are computed once
 * per distinct subtree, so a 32GiB update costs seconds, not the 2^30-leaf
 * trees. Free with czk_snap_vanilla_free. */
czk_status czk_snap_gen(czk_snap_vanilla *out, const czk_snap_shape *s, uint64_t seed) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
