/* czk — Merkle inclusion proofs as Filecoin builds them (rust-fil-proofs
 * storage-proofs-core: merkle/, gadgets/por.rs, gadgets/insertion.rs).
 *
 * SHAPES. A tree is `base_arity`-ary (2, 4 or 8) of height `base_height`;
 * a compound tree joins sub_arity such base trees under one node ("sub-tree",
 * e.g. 32GiB sectors: 8-8), and optionally top_arity sub-trees under a root
 * ("top-tree", e.g. 64GiB: 8-8-2). sub_arity / top_arity 0 = absent; a top
 * needs a sub. Leaves of base tree k are k * L .. (k + 1) * L - 1 (L leaves per
 * base tree), so a leaf index read little-endian is the concatenation of the
 * per-level positions: log2(base_arity) bits per base level, then
 * log2(sub_arity) bits, then log2(top_arity) bits.
 *
 * PATHS. Level l (0 = next to the leaf) has arity a_l and a_l - 1 siblings, the
 * other children of the node in order; the node's own child is inserted at its
 * position p_l: preimage = siblings[0..p_l) || cur || siblings[p_l..). Paths are
 * stored as the concatenation of every level's siblings.
 *
 * HASHERS. Poseidon (czk/poseidon.h, Merkle tag 2^arity - 1) or SHA-256 of the
 * children's 32-byte little-endian encodings with the top two bits of the last
 * digest byte cleared (so the node fits Fr).
 */
#ifndef CZK_MERKLE_H
#define CZK_MERKLE_H

#include "czk/common.h"
#include "czk/cs.h"
#include "czk/field.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_MERKLE_MAX_LEVELS 64
#define CZK_MERKLE_MAX_ARITY 8

typedef enum czk_merkle_hasher {
    CZK_MERKLE_POSEIDON = 0,
    CZK_MERKLE_SHA256 = 1,
} czk_merkle_hasher;

typedef struct czk_merkle_shape {
    czk_merkle_hasher hasher;
    unsigned base_arity;  /* 2, 4, 8 */
    unsigned base_height; /* levels of each base tree */
    unsigned sub_arity;   /* 0 or 2, 4, 8 */
    unsigned top_arity;   /* 0 or 2, 4, 8 (needs sub_arity) */
} czk_merkle_shape;

/* CZK_OK if the shape is one czk handles (arities as above, at most
 * CZK_MERKLE_MAX_LEVELS levels, at most 63 index bits); CZK_ERR_INVALID_ARG
 * naming the bad field otherwise. SHA-256 trees: base only. */
czk_status czk_merkle_shape_check(const czk_merkle_shape *s) CZK_WUR;
/* For a valid shape: number of levels of a path, arity of level l, number of
 * index bits, total siblings in a path, number of leaves. */
size_t czk_merkle_levels(const czk_merkle_shape *s);
unsigned czk_merkle_level_arity(const czk_merkle_shape *s, size_t level);
size_t czk_merkle_index_bits(const czk_merkle_shape *s);
size_t czk_merkle_path_len(const czk_merkle_shape *s);
uint64_t czk_merkle_leaves(const czk_merkle_shape *s);

/* Hash one node of arity n (2, 4, 8) with the shape's hasher. */
czk_status czk_merkle_hash_node(czk_fr *out, czk_merkle_hasher h, const czk_fr *children,
                                size_t n) CZK_WUR;

/* Root computed from `leaf`, the path siblings (czk_merkle_path_len(s)
 * elements) and the leaf index. CZK_ERR_INVALID_ARG if index >= leaves. */
czk_status czk_merkle_root_from_path(czk_fr *root, const czk_merkle_shape *s, const czk_fr *leaf,
                                     const czk_fr *siblings, uint64_t index) CZK_WUR;

/* Build the whole tree over leaves[czk_merkle_leaves(s)] and return its root
 * and, when siblings != NULL, the path of leaf `index`. Allocates scratch for
 * the tree (meant for tests and small trees). */
czk_status czk_merkle_tree_path(czk_fr *root, czk_fr *siblings, const czk_merkle_shape *s,
                                const czk_fr *leaves, uint64_t index) CZK_WUR;

/* ---- circuit ------------------------------------------------------------------
 * czk_merkle_por_circuit_any: the R1CS of rust-fil-proofs' PoRCircuit::synthesize
 * (storage-proofs-core gadgets/por.rs) for a tree of shape s:
 *   leaf    leaf_var != NULL: that existing variable; else allocated ("value")
 *           holding *leaf_val;
 *   path    per level (namespaces "base"/"sub"/"top", then "merkle tree hash i"):
 *           log2(arity) index bits allocated as booleans (LSB first), the
 *           arity - 1 siblings allocated, the current node inserted at the
 *           bits' position (gadgets/insertion.rs: insert_2/4/8, built from
 *           "pick": (b - a) * bit = (b - c)), then hashed;
 *   inputs  all index bits packed into public inputs (one per 254 bits);
 *   root    root_var != NULL: that variable, else allocated ("root_value")
 *           holding *root_val; computed root * 1 = root; when !private_root
 *           the root is also made a public input.
 * siblings: czk_merkle_path_len(s) values (the path, level by level); leaf_val,
 * siblings, root_val may be NULL on a backend without values (SHAPE). When
 * leaf_var / root_var are given, their values are read from cs.
 * Constraints with 64 leaves per base tree (Filecoin's test shapes), root public:
 * Poseidon 2: 1,887, 4: 1,164, 8: 1,063, 8-2: 1,377, 8-8: 1,593, 8-4-2: 1,764,
 * 8-8-2: 1,907; a private root has one fewer.
 * SHA-256 trees (base only; filecoin-hashers Sha256Function::hash_multi_leaf_circuit
 * per level): 272,295 / 216,258 / 250,987 for arity 2 / 4 / 8 with 64 leaves. */
czk_status czk_merkle_por_circuit_any(czk_cs *cs, const czk_merkle_shape *s, const czk_var *leaf_var,
                                      const czk_fr *leaf_val, const czk_fr *siblings, uint64_t index,
                                      const czk_var *root_var, const czk_fr *root_val,
                                      int private_root) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
