/* czk — basic gadgets with bellpepper's exact R1CS: boolean, num, uint32,
 * multi-eq, SHA-256, and Filecoin's leaf hash and label derivation.
 *
 * Every gadget allocates variables and emits constraints in the same order,
 * with the same coefficients, as bellpepper(-core) 0.x / rust-fil-proofs, so
 * constraint counts (docs/filecoin.md#gadget-counts) and matrices match. Namespaces and names
 * follow bellpepper's (visible in the TEST backend only).
 *
 * Gadgets that build linear combinations are TEMPLATES (see czk/cs.h): in
 * template code call them by the generic names below (czk_bool_and ...); from
 * ordinary code call a variant explicitly (czk_bool_and_vec ...) or wrap the
 * whole synthesis with CZK_LC_DISPATCH. The value types (czk_bool, czk_u32,
 * czk_anum) are the same for every variant; czk_num and czk_multieq embed an LC
 * and are per variant.
 *
 * Values: gadgets compute witness values when czk_cs_has_values(cs); values of
 * constants are always known (constant folding depends on them). With the
 * WITNESS backend, LCs are not built at all.
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

/* ---- per-variant types ------------------------------------------------------ */

#define CZK__GADGET_TYPES(V, K)                                                         \
    typedef struct czk_num_##V {                                                        \
        czk_lc_##V lc;                                                                  \
        czk_fr value;                                                                   \
    } czk_num_##V;                                                                      \
    typedef struct czk_multieq_##V {                                                    \
        czk_cs *cs;                                                                     \
        uint64_t ops;                                                                   \
        uint32_t bits_used;                                                             \
        czk_lc_##V lhs, rhs;                                                            \
    } czk_multieq_##V;
CZK_LC_FOREACH(CZK__GADGET_TYPES)
#undef CZK__GADGET_TYPES

/* Generic (template) names. */
#define czk_num CZK_V(czk_num)
#define czk_multieq CZK_V(czk_multieq)
#define czk_lc_add_bool CZK_V(czk_lc_add_bool)
#define czk_bit_alloc CZK_V(czk_bit_alloc)
#define czk_bit_alloc_conditionally CZK_V(czk_bit_alloc_conditionally)
#define czk_bool_xor CZK_V(czk_bool_xor)
#define czk_bool_and CZK_V(czk_bool_and)
#define czk_bool_or CZK_V(czk_bool_or)
#define czk_bool_enforce_equal CZK_V(czk_bool_enforce_equal)
#define czk_bool_sha256_ch CZK_V(czk_bool_sha256_ch)
#define czk_bool_sha256_maj CZK_V(czk_bool_sha256_maj)
#define czk_bits_alloc_u64_le CZK_V(czk_bits_alloc_u64_le)
#define czk_bits_alloc_bytes_le CZK_V(czk_bits_alloc_bytes_le)
#define czk_bits_alloc_bytes_be CZK_V(czk_bits_alloc_bytes_be)
#define czk_bits_alloc_field_le CZK_V(czk_bits_alloc_field_le)
#define czk_bits_pack CZK_V(czk_bits_pack)
#define czk_bits_pack_into_inputs CZK_V(czk_bits_pack_into_inputs)
#define czk_u64_alloc CZK_V(czk_u64_alloc)
#define czk_anum_alloc CZK_V(czk_anum_alloc)
#define czk_anum_alloc_input CZK_V(czk_anum_alloc_input)
#define czk_anum_inputize CZK_V(czk_anum_inputize)
#define czk_anum_add CZK_V(czk_anum_add)
#define czk_anum_mul CZK_V(czk_anum_mul)
#define czk_anum_square CZK_V(czk_anum_square)
#define czk_anum_inverse CZK_V(czk_anum_inverse)
#define czk_anum_assert_nonzero CZK_V(czk_anum_assert_nonzero)
#define czk_anum_conditionally_reverse CZK_V(czk_anum_conditionally_reverse)
#define czk_anum_to_bits_le CZK_V(czk_anum_to_bits_le)
#define czk_anum_to_bits_le_strict CZK_V(czk_anum_to_bits_le_strict)
#define czk_num_init CZK_V(czk_num_init)
#define czk_num_free CZK_V(czk_num_free)
#define czk_num_from_anum CZK_V(czk_num_from_anum)
#define czk_num_add_bool_with_coeff CZK_V(czk_num_add_bool_with_coeff)
#define czk_num_add CZK_V(czk_num_add)
#define czk_num_scale CZK_V(czk_num_scale)
#define czk_multieq_init CZK_V(czk_multieq_init)
#define czk_multieq_enforce_equal CZK_V(czk_multieq_enforce_equal)
#define czk_multieq_finish CZK_V(czk_multieq_finish)
#define czk_u32_alloc CZK_V(czk_u32_alloc)
#define czk_u32_xor CZK_V(czk_u32_xor)
#define czk_u32_sha256_ch CZK_V(czk_u32_sha256_ch)
#define czk_u32_sha256_maj CZK_V(czk_u32_sha256_maj)
#define czk_u32_addmany CZK_V(czk_u32_addmany)
#define czk_sha256_compression CZK_V(czk_sha256_compression)
#define czk_sha256_block_no_padding CZK_V(czk_sha256_block_no_padding)
#define czk_sha256_gadget CZK_V(czk_sha256_gadget)
#define czk_sha256_hash_bits CZK_V(czk_sha256_hash_bits)
#define czk_sha256_hash_leaf_bits CZK_V(czk_sha256_hash_leaf_bits)
#define czk_sha256_hash2 CZK_V(czk_sha256_hash2)
#define czk_label_gadget CZK_V(czk_label_gadget)

/* Per-variant prototypes (czk/gadgets_protos.h documents each function). */
#define CZK__LCV vec
#include "czk/gadgets_protos.h"
#undef CZK__LCV
#define CZK__LCV inline1
#include "czk/gadgets_protos.h"
#undef CZK__LCV
#define CZK__LCV inline2
#include "czk/gadgets_protos.h"
#undef CZK__LCV
#define CZK__LCV inline4
#include "czk/gadgets_protos.h"
#undef CZK__LCV

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
