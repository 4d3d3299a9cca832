/* The gadgets that build constraints, compiled once per LC variant (cs/lc.h):
 * their per-variant types, their generic names with the four compiled names
 * of each, and their prototypes (gadgets/gadgets_protos.h). Internal: the
 * library's circuits, its tests and its benchmarks include it; the public
 * entry points that synthesize (czk_poseidon_circuit_any, ...) choose the
 * variant from cs->lc_kind.
 *
 * A file compiled for one variant (CZK_LCV defined) sees that variant's
 * prototypes, through the generic names. A file compiled once sees all four,
 * by their compiled names (czk_bool_and_vec, ... czk_bool_and_inline4), for
 * CZK_LC_DISPATCH. */
#ifndef CZK_GADGETS_LC_H
#define CZK_GADGETS_LC_H

#include "cs/lc.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/poseidon.h"

/* ---- per-variant types ---------------------------------------------------- */

/* num: bellpepper's Num, an LC with its value. multieq: bellpepper's MultiEq,
 * equalities packed into as few constraints as fit. */
#define CZK__GADGET_TYPES(num, multieq, lc_t)                                           \
    typedef struct num {                                                                \
        lc_t lc;                                                                        \
        czk_fr value;                                                                   \
    } num;                                                                              \
    typedef struct multieq {                                                            \
        czk_cs *cs;                                                                     \
        uint64_t ops;                                                                   \
        uint32_t bits_used;                                                             \
        lc_t lhs, rhs;                                                                  \
    } multieq;
CZK__GADGET_TYPES(czk_num_vec, czk_multieq_vec, czk_lc_vec)
CZK__GADGET_TYPES(czk_num_inline1, czk_multieq_inline1, czk_lc_inline1)
CZK__GADGET_TYPES(czk_num_inline2, czk_multieq_inline2, czk_lc_inline2)
CZK__GADGET_TYPES(czk_num_inline4, czk_multieq_inline4, czk_lc_inline4)
#undef CZK__GADGET_TYPES

/* ---- generic names ---------------------------------------------------------- */

#define czk_num CZK_LCV_NAME(czk_num_vec, czk_num_inline1, czk_num_inline2, czk_num_inline4)
#define czk_multieq CZK_LCV_NAME(czk_multieq_vec, czk_multieq_inline1, czk_multieq_inline2, czk_multieq_inline4)
#define czk_lc_add_bool                                                                 \
    CZK_LCV_NAME(czk_lc_add_bool_vec, czk_lc_add_bool_inline1, czk_lc_add_bool_inline2, czk_lc_add_bool_inline4)
#define czk_bit_alloc                                                                   \
    CZK_LCV_NAME(czk_bit_alloc_vec, czk_bit_alloc_inline1, czk_bit_alloc_inline2, czk_bit_alloc_inline4)
#define czk_bit_alloc_conditionally                                                     \
    CZK_LCV_NAME(czk_bit_alloc_conditionally_vec, czk_bit_alloc_conditionally_inline1,                  \
                 czk_bit_alloc_conditionally_inline2, czk_bit_alloc_conditionally_inline4)
#define czk_bool_xor CZK_LCV_NAME(czk_bool_xor_vec, czk_bool_xor_inline1, czk_bool_xor_inline2, czk_bool_xor_inline4)
#define czk_bool_and CZK_LCV_NAME(czk_bool_and_vec, czk_bool_and_inline1, czk_bool_and_inline2, czk_bool_and_inline4)
#define czk_bool_or CZK_LCV_NAME(czk_bool_or_vec, czk_bool_or_inline1, czk_bool_or_inline2, czk_bool_or_inline4)
#define czk_bool_enforce_equal                                                          \
    CZK_LCV_NAME(czk_bool_enforce_equal_vec, czk_bool_enforce_equal_inline1,                            \
                 czk_bool_enforce_equal_inline2, czk_bool_enforce_equal_inline4)
#define czk_bool_sha256_ch                                                              \
    CZK_LCV_NAME(czk_bool_sha256_ch_vec, czk_bool_sha256_ch_inline1,                                    \
                 czk_bool_sha256_ch_inline2, czk_bool_sha256_ch_inline4)
#define czk_bool_sha256_maj                                                             \
    CZK_LCV_NAME(czk_bool_sha256_maj_vec, czk_bool_sha256_maj_inline1,                                  \
                 czk_bool_sha256_maj_inline2, czk_bool_sha256_maj_inline4)
#define czk_bits_alloc_u64_le                                                           \
    CZK_LCV_NAME(czk_bits_alloc_u64_le_vec, czk_bits_alloc_u64_le_inline1,                              \
                 czk_bits_alloc_u64_le_inline2, czk_bits_alloc_u64_le_inline4)
#define czk_bits_alloc_bytes_le                                                         \
    CZK_LCV_NAME(czk_bits_alloc_bytes_le_vec, czk_bits_alloc_bytes_le_inline1,                          \
                 czk_bits_alloc_bytes_le_inline2, czk_bits_alloc_bytes_le_inline4)
#define czk_bits_alloc_bytes_be                                                         \
    CZK_LCV_NAME(czk_bits_alloc_bytes_be_vec, czk_bits_alloc_bytes_be_inline1,                          \
                 czk_bits_alloc_bytes_be_inline2, czk_bits_alloc_bytes_be_inline4)
#define czk_bits_alloc_field_le                                                         \
    CZK_LCV_NAME(czk_bits_alloc_field_le_vec, czk_bits_alloc_field_le_inline1,                          \
                 czk_bits_alloc_field_le_inline2, czk_bits_alloc_field_le_inline4)
#define czk_bits_pack                                                                   \
    CZK_LCV_NAME(czk_bits_pack_vec, czk_bits_pack_inline1, czk_bits_pack_inline2, czk_bits_pack_inline4)
#define czk_bits_pack_into_inputs                                                       \
    CZK_LCV_NAME(czk_bits_pack_into_inputs_vec, czk_bits_pack_into_inputs_inline1,                      \
                 czk_bits_pack_into_inputs_inline2, czk_bits_pack_into_inputs_inline4)
#define czk_u64_alloc                                                                   \
    CZK_LCV_NAME(czk_u64_alloc_vec, czk_u64_alloc_inline1, czk_u64_alloc_inline2, czk_u64_alloc_inline4)
#define czk_anum_alloc                                                                  \
    CZK_LCV_NAME(czk_anum_alloc_vec, czk_anum_alloc_inline1, czk_anum_alloc_inline2, czk_anum_alloc_inline4)
#define czk_anum_alloc_input                                                            \
    CZK_LCV_NAME(czk_anum_alloc_input_vec, czk_anum_alloc_input_inline1,                                \
                 czk_anum_alloc_input_inline2, czk_anum_alloc_input_inline4)
#define czk_anum_inputize                                                               \
    CZK_LCV_NAME(czk_anum_inputize_vec, czk_anum_inputize_inline1, czk_anum_inputize_inline2, czk_anum_inputize_inline4)
#define czk_anum_add CZK_LCV_NAME(czk_anum_add_vec, czk_anum_add_inline1, czk_anum_add_inline2, czk_anum_add_inline4)
#define czk_anum_mul CZK_LCV_NAME(czk_anum_mul_vec, czk_anum_mul_inline1, czk_anum_mul_inline2, czk_anum_mul_inline4)
#define czk_anum_square                                                                 \
    CZK_LCV_NAME(czk_anum_square_vec, czk_anum_square_inline1, czk_anum_square_inline2, czk_anum_square_inline4)
#define czk_anum_inverse                                                                \
    CZK_LCV_NAME(czk_anum_inverse_vec, czk_anum_inverse_inline1, czk_anum_inverse_inline2, czk_anum_inverse_inline4)
#define czk_anum_assert_nonzero                                                         \
    CZK_LCV_NAME(czk_anum_assert_nonzero_vec, czk_anum_assert_nonzero_inline1,                          \
                 czk_anum_assert_nonzero_inline2, czk_anum_assert_nonzero_inline4)
#define czk_anum_conditionally_reverse                                                  \
    CZK_LCV_NAME(czk_anum_conditionally_reverse_vec, czk_anum_conditionally_reverse_inline1,            \
                 czk_anum_conditionally_reverse_inline2, czk_anum_conditionally_reverse_inline4)
#define czk_anum_to_bits_le                                                             \
    CZK_LCV_NAME(czk_anum_to_bits_le_vec, czk_anum_to_bits_le_inline1,                                  \
                 czk_anum_to_bits_le_inline2, czk_anum_to_bits_le_inline4)
#define czk_anum_to_bits_le_strict                                                      \
    CZK_LCV_NAME(czk_anum_to_bits_le_strict_vec, czk_anum_to_bits_le_strict_inline1,                    \
                 czk_anum_to_bits_le_strict_inline2, czk_anum_to_bits_le_strict_inline4)
#define czk_num_init CZK_LCV_NAME(czk_num_init_vec, czk_num_init_inline1, czk_num_init_inline2, czk_num_init_inline4)
#define czk_num_free CZK_LCV_NAME(czk_num_free_vec, czk_num_free_inline1, czk_num_free_inline2, czk_num_free_inline4)
#define czk_num_from_anum                                                               \
    CZK_LCV_NAME(czk_num_from_anum_vec, czk_num_from_anum_inline1, czk_num_from_anum_inline2, czk_num_from_anum_inline4)
#define czk_num_add_bool_with_coeff                                                     \
    CZK_LCV_NAME(czk_num_add_bool_with_coeff_vec, czk_num_add_bool_with_coeff_inline1,                  \
                 czk_num_add_bool_with_coeff_inline2, czk_num_add_bool_with_coeff_inline4)
#define czk_num_add CZK_LCV_NAME(czk_num_add_vec, czk_num_add_inline1, czk_num_add_inline2, czk_num_add_inline4)
#define czk_num_scale                                                                   \
    CZK_LCV_NAME(czk_num_scale_vec, czk_num_scale_inline1, czk_num_scale_inline2, czk_num_scale_inline4)
#define czk_multieq_init                                                                \
    CZK_LCV_NAME(czk_multieq_init_vec, czk_multieq_init_inline1, czk_multieq_init_inline2, czk_multieq_init_inline4)
#define czk_multieq_enforce_equal                                                       \
    CZK_LCV_NAME(czk_multieq_enforce_equal_vec, czk_multieq_enforce_equal_inline1,                      \
                 czk_multieq_enforce_equal_inline2, czk_multieq_enforce_equal_inline4)
#define czk_multieq_finish                                                              \
    CZK_LCV_NAME(czk_multieq_finish_vec, czk_multieq_finish_inline1,                                    \
                 czk_multieq_finish_inline2, czk_multieq_finish_inline4)
#define czk_u32_alloc                                                                   \
    CZK_LCV_NAME(czk_u32_alloc_vec, czk_u32_alloc_inline1, czk_u32_alloc_inline2, czk_u32_alloc_inline4)
#define czk_u32_xor CZK_LCV_NAME(czk_u32_xor_vec, czk_u32_xor_inline1, czk_u32_xor_inline2, czk_u32_xor_inline4)
#define czk_u32_sha256_ch                                                               \
    CZK_LCV_NAME(czk_u32_sha256_ch_vec, czk_u32_sha256_ch_inline1, czk_u32_sha256_ch_inline2, czk_u32_sha256_ch_inline4)
#define czk_u32_sha256_maj                                                              \
    CZK_LCV_NAME(czk_u32_sha256_maj_vec, czk_u32_sha256_maj_inline1,                                    \
                 czk_u32_sha256_maj_inline2, czk_u32_sha256_maj_inline4)
#define czk_u32_addmany                                                                 \
    CZK_LCV_NAME(czk_u32_addmany_vec, czk_u32_addmany_inline1, czk_u32_addmany_inline2, czk_u32_addmany_inline4)
#define czk_sha256_compression                                                          \
    CZK_LCV_NAME(czk_sha256_compression_vec, czk_sha256_compression_inline1,                            \
                 czk_sha256_compression_inline2, czk_sha256_compression_inline4)
#define czk_sha256_block_no_padding                                                     \
    CZK_LCV_NAME(czk_sha256_block_no_padding_vec, czk_sha256_block_no_padding_inline1,                  \
                 czk_sha256_block_no_padding_inline2, czk_sha256_block_no_padding_inline4)
#define czk_sha256_gadget                                                               \
    CZK_LCV_NAME(czk_sha256_gadget_vec, czk_sha256_gadget_inline1, czk_sha256_gadget_inline2, czk_sha256_gadget_inline4)
#define czk_sha256_hash_bits                                                            \
    CZK_LCV_NAME(czk_sha256_hash_bits_vec, czk_sha256_hash_bits_inline1,                                \
                 czk_sha256_hash_bits_inline2, czk_sha256_hash_bits_inline4)
#define czk_sha256_hash_leaf_bits                                                       \
    CZK_LCV_NAME(czk_sha256_hash_leaf_bits_vec, czk_sha256_hash_leaf_bits_inline1,                      \
                 czk_sha256_hash_leaf_bits_inline2, czk_sha256_hash_leaf_bits_inline4)
#define czk_sha256_hash2                                                                \
    CZK_LCV_NAME(czk_sha256_hash2_vec, czk_sha256_hash2_inline1, czk_sha256_hash2_inline2, czk_sha256_hash2_inline4)
#define czk_label_gadget                                                                \
    CZK_LCV_NAME(czk_label_gadget_vec, czk_label_gadget_inline1, czk_label_gadget_inline2, czk_label_gadget_inline4)
#define czk_poseidon_circuit                                                            \
    CZK_LCV_NAME(czk_poseidon_circuit_vec, czk_poseidon_circuit_inline1,                                \
                 czk_poseidon_circuit_inline2, czk_poseidon_circuit_inline4)
#define czk_poseidon_circuit_tag                                                        \
    CZK_LCV_NAME(czk_poseidon_circuit_tag_vec, czk_poseidon_circuit_tag_inline1,                        \
                 czk_poseidon_circuit_tag_inline2, czk_poseidon_circuit_tag_inline4)
#define czk_column_hash_circuit                                                         \
    CZK_LCV_NAME(czk_column_hash_circuit_vec, czk_column_hash_circuit_inline1,                          \
                 czk_column_hash_circuit_inline2, czk_column_hash_circuit_inline4)
#define czk_merkle_por_circuit                                                          \
    CZK_LCV_NAME(czk_merkle_por_circuit_vec, czk_merkle_por_circuit_inline1,                            \
                 czk_merkle_por_circuit_inline2, czk_merkle_por_circuit_inline4)
#define czk_merkle_por_bits_circuit                                                     \
    CZK_LCV_NAME(czk_merkle_por_bits_circuit_vec, czk_merkle_por_bits_circuit_inline1,                  \
                 czk_merkle_por_bits_circuit_inline2, czk_merkle_por_bits_circuit_inline4)
#define czk_merkle_select_circuit                                                       \
    CZK_LCV_NAME(czk_merkle_select_circuit_vec, czk_merkle_select_circuit_inline1,                      \
                 czk_merkle_select_circuit_inline2, czk_merkle_select_circuit_inline4)

/* ---- prototypes --------------------------------------------------------------- */

#ifdef CZK_LCV
#include "gadgets/gadgets_protos.h"
#else
#define CZK_LCV vec
#include "gadgets/gadgets_protos.h"
#undef CZK_LCV
#define CZK_LCV inline1
#include "gadgets/gadgets_protos.h"
#undef CZK_LCV
#define CZK_LCV inline2
#include "gadgets/gadgets_protos.h"
#undef CZK_LCV
#define CZK_LCV inline4
#include "gadgets/gadgets_protos.h"
#undef CZK_LCV
#endif

/* 2^i and -2^i in Montgomery form, 0 <= i < 256. */
static inline const czk_fr *czk__fr_pow2(unsigned i) { return &czk__pow2_table[i & 255]; }
static inline const czk_fr *czk__fr_pow2_neg(unsigned i) { return &czk__pow2_neg_table[i & 255]; }

#ifdef CZK_LCV
/* AllocatedNum::alloc(cs.namespace(|| ns), value): one variable in a
 * namespace of its own (the circuits allocate their commitments so); in
 * the variant files only. */
static inline czk_status czk__anum_alloc_ns(czk_cs *cs, czk_anum *out, const czk_fr *value, const char *ns)
{
    czk__cs_ns_push(cs, ns, CZK_NOIDX);
    czk_status s = czk_anum_alloc(cs, out, value);
    czk__cs_ns_pop(cs);
    return s;
}

/* a.inputize(cs.namespace(|| ns)) */
static inline czk_status czk__anum_inputize_ns(czk_cs *cs, const czk_anum *a, const char *ns)
{
    czk__cs_ns_push(cs, ns, CZK_NOIDX);
    czk_status s = czk_anum_inputize(cs, a);
    czk__cs_ns_pop(cs);
    return s;
}

/* comm_r = Poseidon2(comm_c, comm_r_last) with the Merkle tag, hashed in
 * namespace "H_comm_c_comm_r_last" and enforced as comm_r * 1 = h under
 * the annotation `enforce` (PoRep and PoSt name it differently). */
static inline czk_status czk__comm_r_check(czk_cs *cs, const czk_anum *comm_r, const czk_anum *comm_c,
                                           const czk_anum *comm_r_last, int vals, const char *enforce)
{
    czk_var in[2] = {comm_c->var, comm_r_last->var}, h;
    czk_fr inv[2] = {comm_c->value, comm_r_last->value}, hv;
    czk__cs_ns_push(cs, "H_comm_c_comm_r_last", CZK_NOIDX);
    czk_status s = czk_poseidon_circuit(cs, &h, &hv, in, vals ? inv : NULL, 2);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    if (!czk__cs_needs_constraints(cs)) return CZK_OK;
    czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, comm_r->var);
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(c, h);
    return czk_enforce(cs, a, b, c, enforce, CZK_NOIDX);
}
#endif

#endif
