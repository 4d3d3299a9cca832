/* czk — Filecoin PoRep (StackedDRG) data: sector shapes, the C1 output
 * ("c1.json") data model, its reader and writer, challenge and parent
 * derivation, the label function, and a synthetic-sector generator.
 *
 * The formats and algorithms follow rust-fil-proofs (storage-proofs-porep
 * stacked/vanilla, storage-proofs-core merkle/proof.rs and drgraph.rs) and
 * rust-filecoin-proofs-api (SealCommitPhase1Output); src/filecoin/README.md
 * documents the JSON layout with sources.
 *
 * Every 32-byte "domain" value that is a field element (labels, tree nodes,
 * comm_r, comm_d, replica_id) is stored as a czk_fr (Montgomery form), so the
 * circuit consumes it directly; the reader rejects values >= r. Proofs of one
 * file live in one arena; no per-value allocation.
 */
#ifndef CZK_FILECOIN_H
#define CZK_FILECOIN_H

#include "czk/common.h"
#include "czk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_FC_NODE_BYTES 32
#define CZK_FC_DRG_DEGREE 6     /* base (DRG) parents, parent 0 = node - 1 */
#define CZK_FC_EXP_DEGREE 8     /* expander parents */
#define CZK_FC_PARENTS 14       /* DRG_DEGREE + EXP_DEGREE */
#define CZK_FC_LABEL_PARENTS 37 /* hashed parent slots per label */
#define CZK_FC_MAX_LAYERS 16
#define CZK_FC_MAX_LEVELS 64    /* Merkle path length bound */

/* ---- sector shapes --------------------------------------------------- */

/* The registered seal proofs czk knows, in rust-filecoin-proofs-api's order
 * (the value is the porep_id's registered-proof id). CZK_FC_PROOF_CUSTOM is
 * czk's own (tests), written as "CzkCustom" with a "czk_shape" object. */
typedef enum czk_fc_proof {
    CZK_FC_2KIB_V1 = 0, CZK_FC_8MIB_V1, CZK_FC_512MIB_V1, CZK_FC_32GIB_V1, CZK_FC_64GIB_V1,
    CZK_FC_2KIB_V1_1, CZK_FC_8MIB_V1_1, CZK_FC_512MIB_V1_1, CZK_FC_32GIB_V1_1, CZK_FC_64GIB_V1_1,
    CZK_FC_2KIB_V1_1_SYNTH, CZK_FC_8MIB_V1_1_SYNTH, CZK_FC_512MIB_V1_1_SYNTH,
    CZK_FC_32GIB_V1_1_SYNTH, CZK_FC_64GIB_V1_1_SYNTH,
    CZK_FC_2KIB_V1_2_NI, CZK_FC_8MIB_V1_2_NI, CZK_FC_512MIB_V1_2_NI, CZK_FC_32GIB_V1_2_NI,
    CZK_FC_64GIB_V1_2_NI,
    CZK_FC_PROOF_COUNT,
    CZK_FC_PROOF_CUSTOM = 100,
} czk_fc_proof;

typedef struct czk_fc_shape {
    czk_fc_proof proof;    /* registered proof (sets porep_id and API version) */
    uint64_t sector_size;  /* bytes */
    uint64_t nodes;        /* sector_size / 32 */
    uint32_t layers;       /* L */
    uint32_t partitions;
    uint32_t challenges;   /* per partition */
    /* Tree C / tree R_last (Poseidon): base trees of arity base_arity and
     * height base_height; sub_arity (0 = none) of them joined by a sub level,
     * top_arity (0 = none) sub trees joined by a top level. */
    uint32_t base_arity, sub_arity, top_arity;
    uint32_t base_height;
    uint32_t d_height;     /* tree D (binary SHA-256): log2(nodes) */
    int api_v1_1;          /* 1: API >= 1.1 (DRG predecessor is parent 0) */
} czk_fc_shape;

/* Shape of a registered proof. */
czk_status czk_fc_shape_of_proof(czk_fc_shape *s, czk_fc_proof p) CZK_WUR;
/* Shape of the current (V1_1) registered proof for a sector size in bytes
 * (2KiB, 8MiB, 512MiB, 32GiB, 64GiB). */
czk_status czk_fc_shape_of_size(czk_fc_shape *s, uint64_t sector_size) CZK_WUR;
/* A custom shape (tests): nodes = base^h * sub * top must hold (arities 2,
 * 4, 8), layers in {2, 4, 8, 11} (Poseidon arities of the column hash),
 * partitions/challenges >= 1. Graph as API 1.1 with
 * porep_id of the 2KiB V1_1 proof. */
czk_status czk_fc_shape_custom(czk_fc_shape *s, uint64_t nodes, uint32_t layers,
                               uint32_t partitions, uint32_t challenges, uint32_t base_arity,
                               uint32_t sub_arity, uint32_t top_arity) CZK_WUR;
/* rust-filecoin-proofs-api name ("StackedDrg32GiBV1_1"), "CzkCustom". */
const char *czk_fc_proof_name(czk_fc_proof p);
/* VanillaSealProof variant ("StackedDrg32GiBV1"), "CzkCustom". */
const char *czk_fc_proof_vanilla_key(czk_fc_proof p);
czk_status czk_fc_proof_from_name(czk_fc_proof *p, const char *name) CZK_WUR;
/* porep_id: registered-proof id u64 LE || nonce 0 u64 LE || 16 zero bytes. */
void czk_fc_porep_id(uint8_t out[32], czk_fc_proof p);

/* ---- Filecoin's parameter files ---------------------------------------- */

/* The v28 parameter identity of a registered seal proof's partition circuit:
 * the file stem that filecoin-proofs uses in its parameter cache,
 * "v28-stacked-proof-of-replication-...-<sha256 of the parameter set>"
 * (docs/filecoin-params.md). V1, V1_1 and V1_1 synthetic share one circuit
 * per sector size; NULL for custom shapes and NI-PoRep (no known file). */
const char *czk_fc_porep_param_id(czk_fc_proof p);
/* The parameter cache directory filecoin-proofs uses: $FIL_PROOFS_PARAMETER_CACHE,
 * else /var/tmp/filecoin-proof-parameters. */
const char *czk_fc_param_cache_dir(void);

/* The prover id of a miner as Curio and Lotus derive it: the miner id's
 * unsigned LEB128 varint, left-aligned in 32 zero bytes. */
void czk_fc_prover_id(uint8_t out[32], uint64_t miner_id);
/* dir/<id><ext> for the registered proof p (ext ".params" or ".vk") into out;
 * CZK_ERR_INVALID_ARG naming the proof when it has no v28 identity, or when
 * the path does not fit. */
czk_status czk_fc_param_path(char *out, size_t cap, const char *dir, czk_fc_proof p, const char *ext) CZK_WUR;
/* Number of levels (path elements) of a tree C / R_last inclusion path. */
uint32_t czk_fc_shape_tree_levels(const czk_fc_shape *s);
/* Arity of level i (0 = leaves' parents) of tree C / R_last. */
uint32_t czk_fc_shape_level_arity(const czk_fc_shape *s, uint32_t level);
/* Siblings in one tree C / R_last path: sum over levels of (arity - 1). */
uint32_t czk_fc_shape_tree_siblings(const czk_fc_shape *s);

/* ---- the C1 data model ------------------------------------------------ */

/* A Merkle inclusion proof. The tree's level arities come from the shape
 * (tree D: binary, d_height levels; tree C and R_last: the shape's levels).
 * siblings holds, level 0 first, the arity - 1 other children of each level
 * in order (the JSON "hashes"); the per-level position of the path node is
 * digit i of `index` in the mixed radix of the level arities. */
typedef struct czk_fc_merkle {
    uint64_t index; /* leaf position */
    czk_fr root;
    czk_fr leaf;
    czk_fr *siblings;
} czk_fc_merkle;

/* A column of tree C: the node's label in every layer (rows[0] = layer 1)
 * and its inclusion proof (leaf = Poseidon hash of the rows). */
typedef struct czk_fc_column_proof {
    uint32_t index;
    czk_fr *rows; /* layers */
    czk_fc_merkle proof;
} czk_fc_column_proof;

/* LabelingProof / EncodingProof: the 37 hashed parent labels of `node` in
 * layer `layer_index` (1-based). */
typedef struct czk_fc_labeling_proof {
    uint32_t layer_index;
    uint64_t node;
    czk_fr *parents; /* CZK_FC_LABEL_PARENTS */
} czk_fc_labeling_proof;

/* One challenge's vanilla proof (storage-proofs-porep stacked Proof). */
typedef struct czk_fc_challenge_proof {
    czk_fc_merkle comm_d;      /* tree D (SHA-256, binary) */
    czk_fc_merkle comm_r_last; /* tree R_last */
    czk_fc_column_proof c_x;
    czk_fc_column_proof drg[CZK_FC_DRG_DEGREE];
    czk_fc_column_proof exp[CZK_FC_EXP_DEGREE];
    czk_fc_labeling_proof *labeling; /* layers */
    czk_fc_labeling_proof encoding;
} czk_fc_challenge_proof;

typedef struct czk_fc_c1 {
    czk_fc_shape shape;
    czk_fr comm_r, comm_d, replica_id;
    uint8_t seed[32], ticket[32];
    /* shape.partitions x shape.challenges, partition-major */
    czk_fc_challenge_proof *proofs;
    /* lotus-bench envelope fields (has_envelope = 0: plain inner JSON) */
    int has_envelope;
    int64_t sector_num;
    /* storage: every array above points into arena */
    void *arena;
    size_t arena_bytes;
} czk_fc_c1;

/* Proof of challenge i in partition k. */
static inline czk_fc_challenge_proof *czk_fc_c1_proof(const czk_fc_c1 *c, uint32_t k, uint32_t i)
{
    return &c->proofs[(size_t)k * c->shape.challenges + i];
}

/* Allocate the proofs of `shape` (zeroed) in c (any contents; overwritten). */
czk_status czk_fc_c1_alloc(czk_fc_c1 *c, const czk_fc_shape *shape) CZK_WUR;
void czk_fc_c1_free(czk_fc_c1 *c);

/* Parse a C1 file: the lotus-bench envelope {"SectorNum","Phase1Out"
 * (base64),"SectorSize"} or the plain SealCommitPhase1Output JSON. Every
 * field is checked (types, 32-byte lengths, field elements < r, counts and
 * arities against the registered proof's shape, indices in range); errors
 * (CZK_ERR_FORMAT / CZK_ERR_NOT_CANONICAL / CZK_ERR_UNSUPPORTED / CZK_ERR_IO)
 * name the file and the JSON path of the bad field, e.g.
 * "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].index:
 * expected an integer". On success c owns its memory (czk_fc_c1_free). */
czk_status czk_fc_c1_read(czk_fc_c1 *c, const char *path) CZK_WUR;
/* Same, from memory (name is used in messages). */
czk_status czk_fc_c1_parse(czk_fc_c1 *c, const char *json, size_t len, const char *name) CZK_WUR;

/* Write c as JSON (the envelope when c->has_envelope) to path, atomically
 * (temporary file + rename). Reading the file back gives c exactly. */
czk_status czk_fc_c1_write(const czk_fc_c1 *c, const char *path) CZK_WUR;
/* The plain inner JSON into a malloc'ed buffer (*out, *len; NUL-terminated). */
czk_status czk_fc_c1_to_json(char **out, size_t *len, const czk_fc_c1 *c) CZK_WUR;

/* ---- PoRep functions --------------------------------------------------- */

/* Interactive PoRep challenges of partition k (storage-proofs-porep
 * challenges.rs): j = k * challenges + i; SHA-256(replica_id || seed ||
 * u32 LE j) as a little-endian integer, mod (nodes - 1), + 1. */
void czk_fc_challenges(uint64_t *out, const czk_fc_shape *s, const czk_fr *replica_id,
                       const uint8_t seed[32], uint32_t k);

/* Challenges of partition k of a C1, by its registered proof: interactive as
 * above, NI-PoRep as below, or for the _Feat_SyntheticPoRep proofs the synthetic-PoRep
 * selection (challenges.rs, mod synthetic: ChaCha20 streams keyed by keyed
 * Blake2b-256 of replica_id || comm_r and replica_id || seed; 2^18 synthetic
 * challenges, at most nodes). */
void czk_fc_c1_challenges(uint64_t *out, const czk_fc_c1 *c, uint32_t k);
int czk_fc_proof_is_synthetic(czk_fc_proof p);
/* NI-PoRep (_V1_2_Feat_NonInteractivePoRep, 13 / 126 partitions): challenge
 * j = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r
 * || j u32 LE) as LE integer mod (nodes - 1), + 1 (challenges.rs NiChallenges). */
int czk_fc_proof_is_ni(czk_fc_proof p);

/* The 14 parents of node (6 DRG from BucketSample with ChaCha8, 8 expander
 * from the Feistel permutation with Blake2b), exactly as rust-fil-proofs'
 * StackedBucketGraph computes them for the shape's porep_id. */
void czk_fc_parents(uint32_t out[CZK_FC_PARENTS], const czk_fc_shape *s, uint64_t node);

/* label = SHA-256(replica_id || layer u32 BE || node u64 BE || 20 zero bytes
 * || 37 parent labels), top two bits of byte 31 cleared (LabelingProof). */
void czk_fc_label(czk_fr *out, const czk_fr *replica_id, uint32_t layer, uint64_t node,
                  const czk_fr parents[CZK_FC_LABEL_PARENTS]);

/* The 37 hashed parent slots of `node` in `layer` from the labels of its
 * 14 parents (drg_labels: DRG parents in this layer; exp_labels: expander
 * parents in the previous layer). Layer 1: the 6 DRG labels cycled; later
 * layers: the 14 cycled. */
void czk_fc_label_parents(czk_fr out[CZK_FC_LABEL_PARENTS], uint32_t layer,
                          const czk_fr drg_labels[CZK_FC_DRG_DEGREE],
                          const czk_fr exp_labels[CZK_FC_EXP_DEGREE]);

/* Tree D node: SHA-256(left || right) with the top two bits cleared. */
void czk_fc_sha_node(czk_fr *out, const czk_fr *left, const czk_fr *right);

/* Column hash: Poseidon of the rows (arity = layers). */
czk_status czk_fc_column_hash(czk_fr *out, const czk_fr *rows, uint32_t layers) CZK_WUR;

/* Recompute a Merkle root from leaf, siblings and index (tree D when
 * is_tree_d, else tree C / R_last of shape s). */
czk_status czk_fc_merkle_root(czk_fr *root, const czk_fc_shape *s, int is_tree_d,
                              const czk_fc_merkle *m) CZK_WUR;

/* The public inputs of partition k's circuit in rust-fil-proofs' order
 * (StackedCompound::generate_public_inputs), without the leading ONE:
 * replica_id, comm_d, comm_r, then per challenge c: c (tree D leaf), its 6
 * DRG and 8 expander parents (tree C leaves), c, c (tree R_last leaf),
 * c (tree C leaf of c's column) -- 3 + 18 * challenges values. Challenges
 * (czk_fc_c1_challenges) and parents are derived from replica_id, seed (and
 * comm_r for synthetic PoRep), not read from the proofs. out needs
 * czk_fc_public_input_count(s) elements. */
size_t czk_fc_public_input_count(const czk_fc_shape *s);
czk_status czk_fc_public_inputs(czk_fr *out, const czk_fc_c1 *c, uint32_t k) CZK_WUR;

/* Check one challenge proof natively as the verifier does (roots, column
 * hashes, labels, encoding, parent indices); names the first failure. */
czk_status czk_fc_verify_challenge(const czk_fc_c1 *c, uint32_t k, uint32_t i) CZK_WUR;

/* ---- synthetic sectors -------------------------------------------------- */

typedef void (*czk_fc_progress_fn)(void *ctx, const char *stage, uint64_t done, uint64_t total);

/* Fill c (any contents; overwritten) with a consistent synthetic C1 for `shape`: real
 * challenges and parents, real labels, columns, encodings, Poseidon tree C /
 * R_last and SHA-256 tree D roots over sparse trees whose off-path nodes are
 * pseudo-random (from seed), comm_r = Poseidon2(comm_c, comm_r_last).
 * Memory is proportional to the number of challenged paths, not the sector.
 * Synthetic and NI PoRep shapes give CZK_ERR_UNSUPPORTED (their challenges
 * depend on comm_r). */
czk_status czk_fc_gen_c1(czk_fc_c1 *c, const czk_fc_shape *shape, uint64_t seed,
                         czk_fc_progress_fn progress, void *ctx) CZK_WUR;

/* ---- small codecs ------------------------------------------------------- */

/* Standard base64 (RFC 4648, with padding). encoded length = 4 * ceil(n/3). */
size_t czk_fc_base64_encode(char *out, const uint8_t *in, size_t n);
/* Decodes, ignoring ASCII whitespace; rejects other characters and bad
 * padding (CZK_ERR_FORMAT). out needs 3 * (len / 4) + 3 bytes. */
czk_status czk_fc_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t len) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
