/* Internal helpers shared by the files of src/filecoin. */
#ifndef CZK_FILECOIN_INTERNAL_H
#define CZK_FILECOIN_INTERNAL_H

#include "czk/filecoin.h"

/* Point p's arrays into storage (czk_snap_partition_storage_size(s) bytes,
 * 8-byte aligned): the apex leaves, the challenge proofs, their siblings
 * (snap_vanilla.c; the reader and the generator share the layout). */
struct czk_snap_partition;
struct czk_snap_shape;
void czk__snap_partition_layout(struct czk_snap_partition *p, void *storage, const struct czk_snap_shape *s);

/* Field-element slots of one challenge proof in the arena. */
size_t czk__fc_challenge_values(const czk_fc_shape *s);

/* Per-level position of a path node: digit `level` of index in the mixed
 * radix of the tree's level arities (tree D: all 2). */
static inline uint32_t czk__fc_level_digit(const czk_fc_shape *s, int is_tree_d, uint64_t index,
                                           uint32_t level)
{
    for (uint32_t l = 0; l < level; l++) index /= is_tree_d ? 2 : czk_fc_shape_level_arity(s, l);
    return (uint32_t)(index % (is_tree_d ? 2 : czk_fc_shape_level_arity(s, level)));
}

static inline uint32_t czk__fc_levels(const czk_fc_shape *s, int is_tree_d)
{
    return is_tree_d ? s->d_height : czk_fc_shape_tree_levels(s);
}

static inline uint32_t czk__fc_arity(const czk_fc_shape *s, int is_tree_d, uint32_t level)
{
    return is_tree_d ? 2 : czk_fc_shape_level_arity(s, level);
}

typedef struct czk__fc_graph {
    uint32_t drg_key[7];
    uint64_t feistel_keys[4];
    uint64_t left_mask, right_mask;
    unsigned half_bits;
    uint64_t nodes;
    int api_v1_1;
} czk__fc_graph;

void czk__fc_graph_init(czk__fc_graph *g, const czk_fc_shape *s);
void czk__fc_drg_parents(uint32_t out[CZK_FC_DRG_DEGREE], const czk__fc_graph *g, uint64_t node);
void czk__fc_exp_parents(uint32_t out[CZK_FC_EXP_DEGREE], const czk__fc_graph *g, uint64_t node);

/* Blake2b-512 of at most 128 bytes (RFC 7693). */
void czk__fc_blake2b512(uint8_t out[64], const uint8_t *in, size_t len);
/* SHA-256 (FIPS 180-4) through the project's native implementation. */
void czk__fc_sha256(uint8_t out[32], const uint8_t *in, size_t len);

/* Challenge number j = k * challenges + i of the interactive PoRep. */
uint64_t czk__fc_challenge(const czk_fc_shape *s, const czk_fr *replica_id, const uint8_t seed[32], uint32_t j);
/* One tree node from its children (tree D: SHA-256 pair; else Poseidon). */
czk_status czk__fc_tree_node(czk_fr *out, const czk_fr *children, uint32_t arity, int is_tree_d);

/* Keyed Blake2b (RFC 7693), outlen 1..64, keylen 0..64, any input length. */
void czk__fc_blake2b(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *in,
                     size_t len);
/* Synthetic PoRep: synthetic challenge i, and PoRep challenge j (its synthetic
 * index in *synth_index when non-NULL) with num_synth synthetic challenges. */
uint64_t czk__fc_synth_nth(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32], uint64_t i);
uint64_t czk__fc_synth_challenge(uint64_t nodes, uint64_t num_synth, const uint8_t replica_id[32],
                                 const uint8_t comm_r[32], const uint8_t seed[32], uint32_t j, uint64_t *synth_index);
/* Challenge j of a C1: interactive or synthetic by its registered proof. */
uint64_t czk__fc_c1_challenge(const czk_fc_c1 *c, uint32_t j);

/* ---- the generators' sparse trees (gen.c) ----------------------------------
 * Pseudo-random values: SHA-256(key || tag u32 || level u32 || index u64),
 * truncated to 254 bits, as a field element. */
typedef struct czk__fc_prf {
    uint8_t key[32];
} czk__fc_prf;
void czk__fc_prf_fr(czk_fr *out, const czk__fc_prf *p, uint32_t tag, uint32_t level, uint64_t index);

/* A sparse Merkle tree of shape s (tree D or tree C / R_last): per level the
 * sorted indices of the nodes that exist (the leaves given and their
 * ancestors) and their values; every other node is czk__fc_prf_fr(tag,
 * level, index). */
typedef struct czk__fc_sparse_tree {
    uint32_t levels; /* path length; level `levels` is the root */
    int is_tree_d;
    uint32_t tag;
    uint64_t *idx[CZK_FC_MAX_LEVELS + 1];
    czk_fr *val[CZK_FC_MAX_LEVELS + 1];
    size_t n[CZK_FC_MAX_LEVELS + 1];
} czk__fc_sparse_tree;

/* leaves: n sorted unique indices, vals their values (both malloc'ed;
 * ownership passes to t, also on error: czk__fc_tree_free t either way). */
czk_status czk__fc_tree_build(czk__fc_sparse_tree *t, const czk_fc_shape *s, int is_tree_d, uint32_t tag,
                              uint64_t *leaves, czk_fr *vals, size_t n, const czk__fc_prf *p) CZK_WUR;
void czk__fc_tree_free(czk__fc_sparse_tree *t);
/* Node (level, index): its value if it exists, else the pseudo-random one. */
void czk__fc_tree_get(czk_fr *out, const czk__fc_sparse_tree *t, const czk__fc_prf *p, uint32_t level,
                      uint64_t index);
/* The path of `leaf` into m (m->siblings must hold the shape's siblings):
 * index, root, leaf value, siblings level by level. */
void czk__fc_tree_proof(czk_fc_merkle *m, const czk__fc_sparse_tree *t, const czk_fc_shape *s,
                        const czk__fc_prf *p, uint64_t leaf);

#endif
