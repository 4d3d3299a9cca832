/* czk — the value types of the gadgets with bellpepper's exact R1CS
 * (boolean, num, uint32, multi-eq, SHA-256, Filecoin's leaf hash and label
 * derivation), their constant helpers, and their native twins.
 *
 * Every gadget allocates variables and emits constraints in the same order,
 * with the same coefficients, as bellpepper(-core) 0.x / rust-fil-proofs, so
 * constraint counts and matrices match. The gadgets themselves build linear
 * combinations and are compiled once per LC storage variant inside the
 * library (src/gadgets/); circuits reach them through the public entry points
 * that take a czk_cs (czk/poseidon.h, czk/merkle.h, czk/porep.h), which use
 * the variant of the cs's LC kind. The value types below are the same for every
 * variant.
 */
#ifndef CZK_GADGETS_H
#define CZK_GADGETS_H

#include "czk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- value types (variant independent) ------------------------------------ */

typedef enum czk_bool_kind {
    CZK_BOOL_CONST = 0, /* Boolean::Constant(value) */
    CZK_BOOL_IS = 1,    /* Boolean::Is(bit): value = bit */
    CZK_BOOL_NOT = 2,   /* Boolean::Not(bit): value = !bit */
} czk_bool_kind;

/* bellpepper's Boolean. `value` is the Boolean's own value (for NOT it is the
 * negation of the allocated bit); meaningful for constants always, for
 * allocated bits when the CS has values. */
typedef struct czk_bool {
    czk_var var;
    uint8_t kind;
    uint8_t value;
} czk_bool;

static inline czk_bool czk_bool_const(int v)
{
    czk_bool b = {0, CZK_BOOL_CONST, (uint8_t)(v != 0)};
    return b;
}
static inline czk_bool czk_bool_not(czk_bool b)
{
    if (b.kind == CZK_BOOL_IS) b.kind = CZK_BOOL_NOT;
    else if (b.kind == CZK_BOOL_NOT) b.kind = CZK_BOOL_IS;
    b.value ^= 1;
    return b;
}
static inline int czk_bool_is_const(const czk_bool *b) { return b->kind == CZK_BOOL_CONST; }
/* Value of the underlying allocated bit (IS or NOT). */
static inline int czk_bool_bit_value(const czk_bool *b) { return b->kind == CZK_BOOL_NOT ? !b->value : b->value; }

/* bellpepper's AllocatedNum. */
typedef struct czk_anum {
    czk_var var;
    czk_fr value;
} czk_anum;

/* UInt32: bits least significant first (bellpepper's order). */
typedef struct czk_u32 {
    czk_bool bits[32];
    uint32_t value;
} czk_u32;

/* rust-fil-proofs' UInt64 (only what the label gadget needs). */
typedef struct czk_u64 {
    czk_bool bits[64];
    uint64_t value;
} czk_u64;

void czk_u32_constant(czk_u32 *out, uint32_t v);
void czk_u64_constant(czk_u64 *out, uint64_t v);
/* rotr / shr as bellpepper (bits move; shr fills constant false). */
void czk_u32_rotr(czk_u32 *out, const czk_u32 *a, unsigned by);
void czk_u32_shr(czk_u32 *out, const czk_u32 *a, unsigned by);
/* Big-endian bit order (most significant first), 32 / 64 booleans. */
void czk_u32_into_bits_be(czk_bool out[32], const czk_u32 *a);
void czk_u32_from_bits_be(czk_u32 *out, const czk_bool bits[32]);
void czk_u64_to_bits_be(czk_bool out[64], const czk_u64 *a);

#define CZK_LABEL_PARENTS 37

/* ---- native twins ------------------------------------------------------------ */

/* Filecoin's trim: clear the top two bits of byte 31 (the digest then is a
 * little-endian integer < 2^254 < r). */
static inline void czk_sha256_trim_to_fr32(uint8_t d[32]) { d[31] &= 0x3f; }
/* sha256(left32 || right32), trimmed: Filecoin's Sha256 Merkle node / leaf
 * hash (hash_leaf_bits_circuit / hash2_circuit's twin). */
void czk_sha256_node_native(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);
/* Filecoin label: sha256(replica_id || layer u32 BE || node u64 BE || 20 zero
 * bytes || parents[0..37] (32 bytes each)), trimmed. */
void czk_label_native(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                  const uint8_t parents[37][32]);


#ifdef __cplusplus
}
#endif
#endif
