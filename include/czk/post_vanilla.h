/* czk — WindowPoSt / WinningPoSt vanilla proofs: the bincode reader and
 * writer of FallbackPoStSectorProof, the challenges a proof must answer,
 * WinningPoSt's sector selection, and a native check of a proof against its
 * challenges (docs/formats.md "Vanilla proofs as bincode", docs/filecoin.md
 * "FallbackPoSt").
 *
 * Every 32-byte value of a proof (comm_r, comm_c, comm_r_last, roots, leaves,
 * siblings) must be a canonical field element (< r, little-endian) and is
 * stored as a czk_fr (Montgomery form), as in the C1 reader. The encoding
 * has no optional parts: given the tree shape and the number of inclusion
 * proofs its length is fixed (czk_post_sector_proof_bytes).
 */
#ifndef CZK_POST_VANILLA_H
#define CZK_POST_VANILLA_H

#include "czk/post.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sizes ---------------------------------------------------------------- */

/* bincode bytes of one tree R_last MerkleProof (variant index, root, leaf,
 * path(s)) of a tree of shape `tree`: 556 for 2KiB, 2,484 for 32GiB. */
size_t czk_post_merkle_proof_bytes(const czk_fc_shape *tree);
/* bincode bytes of a FallbackPoStSectorProof with n_inclusion inclusion
 * proofs: 8 + 32 + 8 + 8 + n_inclusion * merkle + 32 + 32 (24,960 for a
 * 32GiB WindowPoSt sector). */
size_t czk_post_sector_proof_bytes(const czk_fc_shape *tree, uint32_t n_inclusion);
/* Bytes of storage czk_post_sector_proof_decode needs: the inclusion array
 * and their siblings. */
size_t czk_post_sector_proof_storage_size(const czk_fc_shape *tree, uint32_t n_inclusion);

/* ---- one sector proof ------------------------------------------------------ */

/* Decode the FallbackPoStSectorProof in data[0..len) whose tree R_last has
 * shape `tree` and which must hold exactly n_inclusion inclusion proofs.
 * storage (storage_size >= czk_post_sector_proof_storage_size(tree,
 * n_inclusion) bytes, 8-byte aligned, owned by the caller) receives
 * out->inclusion and the siblings; out points into it. Every inclusion
 * proof's index is the leaf position rebuilt from its path elements (mixed
 * radix of the level arities, level 0 the least significant digit).
 *
 * Checked: the Vec of sector proofs has one element; the inclusion count;
 * the Merkle variant the shape requires (Single / Sub / Top); path lengths
 * and arity - 1 hashes per element; element indices < arity; 32-byte values
 * canonical; nothing after the proof. Errors (CZK_ERR_FORMAT,
 * CZK_ERR_NOT_CANONICAL) name the sector by `position` (its place in the
 * caller's list) and id, the field ("inclusion proof 3, base path element 1,
 * hashes") and the byte offset. Hashes are not checked here
 * (czk_post_vanilla_check). */
czk_status czk_post_sector_proof_decode(czk_post_sector_proof *out, void *storage, size_t storage_size,
                                        const uint8_t *data, size_t len, const czk_fc_shape *tree,
                                        uint32_t n_inclusion, uint32_t position) CZK_WUR;

/* Encode p exactly as filecoin-proofs' bincode does into out[0..cap);
 * *len = czk_post_sector_proof_bytes(tree, p->n_inclusion). CZK_ERR_INVALID_ARG
 * when cap is too small or an inclusion index does not fit the tree.
 * Decoding the result gives p back; re-encoding a decoded proof gives its
 * bytes back. */
czk_status czk_post_sector_proof_encode(uint8_t *out, size_t cap, size_t *len, const czk_post_sector_proof *p,
                                        const czk_fc_shape *tree) CZK_WUR;

/* ---- a partition's proofs ------------------------------------------------- */

/* Read the n vanilla sector proofs proofs[i][0..lens[i]) of one partition
 * (Window) or proof (Winning) of shape s into v (any contents; overwritten),
 * with the randomness, prover_id and partition index they answer. Each
 * proof must have s->sector_challenges inclusion proofs, and 1 <= n and
 * n * sector_challenges <= sectors * challenges (a Window partition holds at
 * most s->sectors sector proofs, a Winning proof one). randomness and
 * prover_id must be canonical field encodings (filecoin-proofs converts
 * both); CZK_ERR_NOT_CANONICAL otherwise. One arena holds everything; free
 * it with czk_post_vanilla_free. On failure v is left empty. */
czk_status czk_post_vanilla_read(czk_post_vanilla *v, const czk_post_shape *s, const uint8_t *const *proofs,
                                 const size_t *lens, uint32_t n, const uint8_t randomness[32],
                                 const uint8_t prover_id[32], uint32_t partition) CZK_WUR;
void czk_post_vanilla_free(czk_post_vanilla *v);

/* ---- challenges -------------------------------------------------------------- */

/* The challenge index hashed for challenge n of the sector at sector_index
 * (= partition * sector proofs per partition + position): V1_1:
 * sector_index * challenge_count + n; V1_2: n. */
uint64_t czk_post_challenge_index(czk_post_api api, uint64_t sector_index, uint32_t challenge_count, uint32_t n);
/* Leaf challenged by challenge_index in a sector of `nodes` leaves:
 * LE_u64(SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE)[0..8])
 * mod nodes (nodes >= 1). */
uint64_t czk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes);
/* The leaf inclusion proof n of sector proof i of v must prove. */
uint64_t czk_post_vanilla_challenge(const czk_post_vanilla *v, uint32_t i, uint32_t n);

/* WinningPoSt's sector choice: out[k] = LE_u64(SHA-256(prover_id ||
 * randomness || k u64 LE)[0..8]) mod sector_set_len for k < count (Filecoin
 * uses count 1). CZK_ERR_INVALID_ARG when sector_set_len is 0,
 * CZK_ERR_NOT_CANONICAL when randomness or prover_id is >= r (filecoin-proofs
 * refuses both). */
czk_status czk_post_winning_sectors(uint64_t *out, uint32_t count, const uint8_t randomness[32],
                                    const uint8_t prover_id[32], uint64_t sector_set_len) CZK_WUR;

/* Check v natively, as filecoin-proofs' verifier does: per sector proof
 * comm_r == Poseidon2(comm_c, comm_r_last) (Merkle tag), and per inclusion
 * proof its index equals the derived challenge, its root equals
 * comm_r_last, and its path hashes (Poseidon at each level's arity) from the
 * leaf to that root. (The vanilla verifier takes comm_r_last from the first
 * inclusion proof's root; this check uses the comm_r_last field, which is
 * what the circuit allocates, so a proof passes only if both agree.) CZK_ERR_VERIFY naming the sector (position and id) and
 * the challenge at the first failure. The comm_r of each sector is taken
 * from the proof; the caller compares it with the sector's on-chain comm_r. */
czk_status czk_post_vanilla_check(const czk_post_vanilla *v) CZK_WUR;

/* ---- post-KIND.json ---------------------------------------------------------- */

/* The data a vanilla proof file answers, as `czk-oracle vanilla-post` writes
 * it beside vanilla-KIND.bin (tests/filecoin/vectors/README.md). */
typedef struct czk_post_json {
    char proof[48];        /* registered_post_proof, e.g. "StackedDrgWindow2KiBV1_2" */
    czk_post_shape shape;  /* that proof type's production shape (czk_post_proof_shape) */
    uint8_t randomness[32];
    uint8_t prover_id[32];
    uint64_t miner_id;     /* the miner whose prover id this is (optional "miner_id" key) */
    int has_miner_id;      /* 1: miner_id was given (then prover_id = czk_fc_prover_id(miner_id)) */
    uint32_t n_sectors;
    uint64_t *sector_ids;  /* n_sectors, in proof order */
    uint8_t (*comm_r)[32]; /* n_sectors, little-endian field encodings */
    uint32_t n_challenges; /* n_sectors * shape.sector_challenges */
    uint64_t *challenges;  /* the leaves challenged, sector after sector */
} czk_post_json;

/* The shape of a registered PoSt proof type:
 * StackedDrg{Window,Winning}{2KiB,8MiB,512MiB,32GiB,64GiB}V1[_1|_2]. Window
 * V1 mixes the sector's position into the challenges (CZK_POST_API_V1_1);
 * V1_1 (filecoin-proofs-api's name for ApiVersion V1_2_0) and V1_2 do not.
 * CZK_ERR_INVALID_ARG naming the string for any other. */
czk_status czk_post_proof_shape(czk_post_shape *s, const char *proof) CZK_WUR;

/* Read post-KIND.json at path into out (any contents; overwritten). Required:
 * registered_post_proof (a known type), randomness and prover_id (32 numbers
 * 0..255 each), sector_ids (1..65,535 integers 0..2^63 - 1, the range of
 * JSON integers the reader takes), comm_r (as many 32-number arrays),
 * challenges (n_sectors * sector_challenges
 * non-negative integers, each < the sector's nodes); other keys are ignored.
 * Errors (CZK_ERR_IO, CZK_ERR_FORMAT) name the file, the JSON path and what
 * is wrong; out is then empty. Free with czk_post_json_free. */
czk_status czk_post_json_read(czk_post_json *out, const char *path) CZK_WUR;
void czk_post_json_free(czk_post_json *m);
/* m as post-KIND.json text (the keys czk_post_json_read takes, sorted; one
 * value per line); *out is malloc'd (free it). */
czk_status czk_post_json_dump(char **out, const czk_post_json *m) CZK_WUR;
/* The registered proof type of a production shape, the inverse of
 * czk_post_proof_shape ("StackedDrgWindow32GiBV1_2"); CZK_ERR_INVALID_ARG
 * for a custom or resized shape. */
czk_status czk_post_proof_name(char out[48], const czk_post_shape *s) CZK_WUR;

/* ---- a synthetic PoSt (czk gen-post) ---------------------------------------- */

/* A consistent PoSt of production shape s (any api), partition 0, from seed:
 * canonical randomness and prover id, ascending sector ids, the challenged
 * leaves derived from them exactly as filecoin-proofs does, and vanilla
 * proofs of those leaves (czk_post_gen_vanilla's sparse trees: a 32GiB
 * partition costs its paths only). Window: n (1..s->sectors) sectors, all
 * of the set (sector_set = n). Winning: n = 1, the sector the randomness
 * picks from a set of sector_set sectors (czk_post_winning_sectors). *v
 * (free with czk_post_gen_vanilla_free) and *m (czk_post_json_free) describe
 * the same proof: m is what czk_post_dir_json would read back. */
czk_status czk_post_gen(czk_post_vanilla *v, czk_post_json *m, const czk_post_shape *s, uint32_t n,
                        uint32_t sector_set, uint64_t seed) CZK_WUR;

/* What czk_post_gen_ex may fix instead of deriving it from the seed: the
 * randomness (canonical: byte 31 below 0x40, as Curio masks it) and the
 * miner id, e.g. for two partitions of one deadline (one randomness and
 * miner, other sectors). */
typedef struct czk_post_gen_opts {
    const uint8_t *randomness; /* 32 bytes, or NULL */
    int has_miner_id;
    uint64_t miner_id;
} czk_post_gen_opts;

/* czk_post_gen with the randomness and/or miner id of o (NULL: none fixed).
 * CZK_ERR_NOT_CANONICAL for randomness that is not a canonical Fr. */
czk_status czk_post_gen_ex(czk_post_vanilla *v, czk_post_json *m, const czk_post_shape *s, uint32_t n,
                           uint32_t sector_set, uint64_t seed, const czk_post_gen_opts *o) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
