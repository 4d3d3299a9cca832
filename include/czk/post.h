/* czk — WindowPoSt and WinningPoSt: the FallbackPoSt circuit, its shapes,
 * its vanilla proofs (bincode) and the challenges they must answer
 * (docs/filecoin.md "FallbackPoSt", docs/formats.md "Vanilla proofs as
 * bincode").
 *
 * Both proof kinds share one circuit. A circuit "sector" is a list of
 * challenges answered in one tree R_last: a WindowPoSt partition has
 * `sectors` real sectors of `challenges` (10) each; a WinningPoSt proof has
 * one real sector whose 66 challenges the circuit treats as 66 one-challenge
 * sectors (the same comm_c / comm_r_last / comm_r repeated).
 */
#ifndef CZK_POST_H
#define CZK_POST_H

#include "czk/cs.h"
#include "czk/filecoin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum czk_post_kind { CZK_POST_WINDOW = 0, CZK_POST_WINNING = 1 } czk_post_kind;

/* Most circuit sectors / challenges per sector a custom shape may have (the
 * production shapes: 2,349 x 10 and 66 x 1). */
#define CZK_POST_MAX_SECTORS 100000u
#define CZK_POST_MAX_CHALLENGES 1000u

/* The challenge derivation of the registered PoSt proof's API version:
 * V1_0_0 / V1_1_0 mix the sector's position into the challenge index,
 * V1_2_0 (the WindowPoSt "V1_2" proofs, and every WinningPoSt) does not
 * for WindowPoSt (docs/filecoin.md "Challenges"). */
typedef enum czk_post_api { CZK_POST_API_V1_1 = 0, CZK_POST_API_V1_2 = 1 } czk_post_api;

typedef struct czk_post_shape {
    czk_post_kind kind;
    czk_post_api api;
    /* The sectors' tree R_last: nodes, base/sub/top arities and base height
     * as in PoRep (tree.proof is the V1_1 seal proof of that size, or
     * CZK_FC_PROOF_CUSTOM). */
    czk_fc_shape tree;
    uint32_t sectors;           /* circuit sectors per partition (Window 2 / 2,349 / 2,300; Winning 66) */
    uint32_t challenges;        /* challenges per circuit sector (Window 10; Winning 1) */
    uint32_t sector_challenges; /* inclusion proofs per vanilla sector proof (Window 10; Winning 66) */
} czk_post_shape;

/* The production shape of kind k for a sector size (2KiB, 8MiB, 512MiB,
 * 32GiB, 64GiB; api V1_2 for Window). */
czk_status czk_post_shape_of(czk_post_shape *s, czk_post_kind k, uint64_t sector_size) CZK_WUR;
/* A custom shape (tests, experiments): a tree of `nodes` leaves with the
 * given arities (as czk_fc_shape_custom), `sectors` circuit sectors of
 * `challenges` challenges. */
czk_status czk_post_shape_custom(czk_post_shape *s, czk_post_kind k, uint64_t nodes, uint32_t base_arity,
                                 uint32_t sub_arity, uint32_t top_arity, uint32_t sectors,
                                 uint32_t challenges) CZK_WUR;
/* "window-post" / "winning-post". */
const char *czk_post_kind_name(czk_post_kind k);
/* "window" / "window-post" and "winning" / "winning-post"; CZK_ERR_INVALID_ARG
 * naming s otherwise. */
czk_status czk_post_kind_parse(czk_post_kind *out, const char *s) CZK_WUR;

/* ---- parameter files ------------------------------------------------------ */

/* The v28 parameter identity (file stem) filecoin-proofs gives the circuit
 * of kind k for sector_size bytes, "v28-proof-of-spacetime-fallback-...",
 * or NULL where czk knows none (a size other than 2KiB, 8MiB, 512MiB, 32GiB,
 * 64GiB; docs/filecoin-params.md). */
const char *czk_post_param_id(czk_post_kind k, uint64_t sector_size);
/* dir/<id><ext> (ext ".params" or ".vk") for the production shape s into
 * out; CZK_ERR_INVALID_ARG "no known v28 name for ...; pass --params" for a
 * custom shape or a size without a known id, or when the path does not fit. */
czk_status czk_post_param_path(char *out, size_t cap, const char *dir, const czk_post_shape *s,
                               const char *ext) CZK_WUR;

/* ---- vanilla proofs ------------------------------------------------------ */

/* One FallbackPoStSectorProof: the sector, its commitments and one tree
 * R_last inclusion proof per challenge, in challenge order. */
typedef struct czk_post_sector_proof {
    uint64_t sector_id;
    czk_fr comm_r, comm_c, comm_r_last;
    uint32_t n_inclusion;
    czk_fc_merkle *inclusion; /* leaf, index, root (= comm_r_last) and siblings */
} czk_post_sector_proof;

/* The proofs of one partition (Window) or one proof (Winning), with the
 * data the public inputs are derived from. */
typedef struct czk_post_vanilla {
    czk_post_shape shape;
    uint8_t randomness[32];
    uint8_t prover_id[32];
    uint32_t partition;            /* WindowPoSt partition index (0 for Winning) */
    uint32_t n;                    /* sector proofs (before padding) */
    czk_post_sector_proof *proofs; /* n entries */
    void *arena;                   /* every array above points into it */
    size_t arena_bytes;
} czk_post_vanilla;

/* ---- the circuit --------------------------------------------------------- */

/* Counts of one partition circuit of shape s (public inputs include the
 * constant one). */
typedef struct czk_post_counts {
    uint64_t inputs, aux, constraints;
} czk_post_counts;
/* The closed form from the per-part costs (docs/filecoin.md "FallbackPoSt",
 * Costs); constraints exclude bellperson's input constraints (input_i) * 0 =
 * 0. s must be a shape czk_post_shape_of / czk_post_shape_custom made. */
void czk_post_circuit_counts(czk_post_counts *out, const czk_post_shape *s);
/* The same counts from a real synthesis (every LC built, nothing kept but
 * the counts; constant memory): the evidence that the closed form holds. */
czk_status czk_post_count(czk_post_counts *out, const czk_post_shape *s, czk_lc_kind lc) CZK_WUR;

/* Vanilla sector proofs of a full partition: s->sectors (Window), 1 (Winning). */
uint32_t czk_post_vanilla_sectors(const czk_post_shape *s);

/* The partition circuit (storage-proofs-post FallbackPoStCircuit): circuit
 * sectors in order, namespace "outer namespace/sector_i"; per sector comm_r_last, comm_c,
 * comm_r allocated, comm_r made public ("comm_r_input"), comm_r =
 * Poseidon2(comm_c, comm_r_last) ("H_comm_c_comm_r_last",
 * "enforce_comm_c_comm_r_last_hash_comm_r"), then per challenge j
 * ("challenge_inclusion_j") the PoR of a private leaf to comm_r_last with its
 * packed index bits as one public input. Circuit sector i, challenge j takes
 * inclusion proof g % sector_challenges of vanilla sector g /
 * sector_challenges (g = i * challenges + j); a short partition (v->n below
 * czk_post_vanilla_sectors) repeats its last vanilla sector. v may be NULL
 * on a backend without values (SHAPE); otherwise v->shape must equal s and
 * every proof hold s->sector_challenges inclusion proofs with paths
 * (CZK_ERR_INVALID_ARG naming the sector and proof otherwise). */
czk_status czk_post_synthesize(czk_cs *cs, const czk_post_shape *s, const czk_post_vanilla *v) CZK_WUR;

/* Public inputs of the partition, without the leading ONE:
 * czk_post_public_input_count(s) = sectors x (1 + challenges) values; per
 * circuit sector its comm_r, then each challenge's leaf index as a field
 * element, in the circuit's input order, with the padding and the Winning
 * split of czk_post_synthesize (a short partition repeats its last sector's
 * inputs, as FallbackPoStCompound::generate_public_inputs does). comm_r: the n (1..czk_post_vanilla_sectors)
 * vanilla sectors' comm_r; leaves: n x sector_challenges challenged leaves
 * (sector-major), as the verifier derives them. */
size_t czk_post_public_input_count(const czk_post_shape *s);
czk_status czk_post_public_inputs(czk_fr *out, const czk_post_shape *s, const czk_fr *comm_r, uint32_t n,
                                  const uint64_t *leaves) CZK_WUR;

/* ---- synthetic vanilla proofs (tests, benchmarks) ------------------------- */

/* Fill *out with a consistent full partition of shape s: per vanilla sector
 * (sector_id = its index) a pseudo-random comm_c, pseudo-random leaves and
 * siblings, comm_r_last computed natively level by level with the tree's
 * arities (the sector's challenged leaves share one sparse tree, so all of
 * its paths reach that root), comm_r = Poseidon2(comm_c, comm_r_last).
 * leaves: czk_post_vanilla_sectors(s) x sector_challenges leaf indices
 * (< nodes, sector-major; repeats allowed), or NULL for pseudo-random ones.
 * Only the paths' nodes are built (never a whole 32GiB tree). All storage is
 * one arena: free it with czk_post_gen_vanilla_free. Deterministic in seed. */
czk_status czk_post_gen_vanilla(czk_post_vanilla *out, const czk_post_shape *s, uint64_t seed,
                                const uint64_t *leaves) CZK_WUR;
/* Free a vanilla whose storage is its arena (the generator's; safe on a
 * zeroed struct) and zero it. */
void czk_post_gen_vanilla_free(czk_post_vanilla *v);

#ifdef __cplusplus
}
#endif
#endif
