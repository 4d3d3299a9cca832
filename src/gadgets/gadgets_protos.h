/* The gadgets' prototypes for the LC variant CZK_LCV, written with the
 * generic names (gadgets/gadgets_lc.h includes this once, or once per
 * variant). No include guard on purpose.
 *
 * All gadgets work inside the caller's current namespace and push the
 * sub-namespaces bellpepper's gadget pushes; namespaces and names follow
 * bellpepper's (visible in the TEST backend only). czk_status results: OK,
 * NOMEM, MISSING_ASSIGNMENT, DIV_BY_ZERO, UNSATISFIED (constant mismatch).
 *
 * Values: gadgets compute witness values when czk__cs_has_values(cs); values
 * of constants are always known (constant folding depends on them). With the
 * WITNESS backend, LCs are not built at all. */

/* ---- boolean (bellpepper-core gadgets/boolean.rs) ---- */

/* lc = lc + &b.lc(ONE, coeff): constant true adds (coeff, ONE), IS adds
 * (coeff, bit), NOT adds (coeff, ONE) - (coeff, bit). */
void czk_lc_add_bool(czk_lc *lc, const czk_bool *b, const czk_fr *coeff);
/* AllocatedBit::alloc: variable "boolean", constraint "boolean constraint"
 * (1 - b) * b = 0. *out = IS(bit). */
czk_status czk_bit_alloc(czk_cs *cs, czk_bool *out, int value) CZK_WUR;
/* AllocatedBit::alloc_conditionally: (1 - must_be_false - b) * b = 0;
 * must_be_false must be IS. */
czk_status czk_bit_alloc_conditionally(czk_cs *cs, czk_bool *out, int value,
                                       const czk_bool *must_be_false) CZK_WUR;
/* Boolean::xor / and / or (constant folding and IS/NOT dispatch as bellpepper;
 * allocates at most one bit and one constraint). */
czk_status czk_bool_xor(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b) CZK_WUR;
czk_status czk_bool_and(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b) CZK_WUR;
czk_status czk_bool_or(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b) CZK_WUR;
/* Boolean::enforce_equal; two different constants give CZK_ERR_UNSATISFIED. */
czk_status czk_bool_enforce_equal(czk_cs *cs, const czk_bool *a, const czk_bool *b) CZK_WUR;
/* Boolean::sha256_ch (a & b) ^ (!a & c) and sha256_maj (a&b) ^ (a&c) ^ (b&c). */
czk_status czk_bool_sha256_ch(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b,
                              const czk_bool *c) CZK_WUR;
czk_status czk_bool_sha256_maj(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b,
                               const czk_bool *c) CZK_WUR;
/* u64_into_boolean_vec_le: 64 allocated bits, namespaces "bit i". */
czk_status czk_bits_alloc_u64_le(czk_cs *cs, czk_bool out[64], uint64_t v) CZK_WUR;
/* rust-fil-proofs bytes_into_boolean_vec (bits of each byte least significant
 * first) / bytes_into_boolean_vec_be (most significant first): 8 * nbytes
 * allocated bits, namespaces "bit i". bytes may be NULL without values. */
czk_status czk_bits_alloc_bytes_le(czk_cs *cs, czk_bool *out, const uint8_t *bytes, size_t nbytes) CZK_WUR;
czk_status czk_bits_alloc_bytes_be(czk_cs *cs, czk_bool *out, const uint8_t *bytes, size_t nbytes) CZK_WUR;
/* field_into_allocated_bits_le: 255 allocated bits of v, least significant
 * first, namespaces "bit i" (no range check). */
czk_status czk_bits_alloc_field_le(czk_cs *cs, czk_bool out[255], const czk_fr *v) CZK_WUR;
/* multipack::pack_bits: the first min(n, 254) bits as a number, little-endian
 * (allocates "input/num", constraint "packing constraint"). */
czk_status czk_bits_pack(czk_cs *cs, czk_anum *out, const czk_bool *bits, size_t n) CZK_WUR;

/* multipack::pack_into_inputs: bits in chunks of 254, each packed into a new
 * public input ("input i", "packing constraint i"). */
czk_status czk_bits_pack_into_inputs(czk_cs *cs, const czk_bool *bits, size_t n) CZK_WUR;

/* ---- num (bellpepper-core gadgets/num.rs) ---- */

/* AllocatedNum::alloc ("num") / alloc_input ("input num"). value may be NULL
 * without values. */
czk_status czk_anum_alloc(czk_cs *cs, czk_anum *out, const czk_fr *value) CZK_WUR;
czk_status czk_anum_alloc_input(czk_cs *cs, czk_anum *out, const czk_fr *value) CZK_WUR;
/* AllocatedNum::inputize: new input x' and x' * 1 = x. */
czk_status czk_anum_inputize(czk_cs *cs, const czk_anum *a) CZK_WUR;
/* (a + b) * 1 = sum; a * b = product; a * a = square. */
czk_status czk_anum_add(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b) CZK_WUR;
czk_status czk_anum_mul(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b) CZK_WUR;
czk_status czk_anum_square(czk_cs *cs, czk_anum *out, const czk_anum *a) CZK_WUR;
/* out = a^-1 with a * out = 1 ("inverse", "inverse constraint");
 * CZK_ERR_DIV_BY_ZERO for a = 0. */
czk_status czk_anum_inverse(czk_cs *cs, czk_anum *out, const czk_anum *a) CZK_WUR;
/* AllocatedNum::assert_nonzero ("ephemeral inverse"). */
czk_status czk_anum_assert_nonzero(czk_cs *cs, const czk_anum *a) CZK_WUR;
/* AllocatedNum::conditionally_reverse: (c, d) = cond ? (b, a) : (a, b). */
czk_status czk_anum_conditionally_reverse(czk_cs *cs, czk_anum *c, czk_anum *d, const czk_anum *a,
                                          const czk_anum *b, const czk_bool *cond) CZK_WUR;
/* AllocatedNum::to_bits_le: 255 bits (no range check) + "unpacking constraint". */
czk_status czk_anum_to_bits_le(czk_cs *cs, czk_bool out[255], const czk_anum *a) CZK_WUR;
/* AllocatedNum::to_bits_le_strict: 255 bits proven < r (bellpepper's run
 * decomposition of r - 1), + "unpacking constraint". */
czk_status czk_anum_to_bits_le_strict(czk_cs *cs, czk_bool out[255], const czk_anum *a) CZK_WUR;

/* Num: an LC with a value. init = Num::zero(); free releases the LC. */
void czk_num_init(czk_num *n);
void czk_num_free(czk_num *n);
/* n = Num::from(a) (n initialized). */
void czk_num_from_anum(czk_num *n, const czk_anum *a);
/* Num::add_bool_with_coeff; Num::add; Num::scale. */
void czk_num_add_bool_with_coeff(czk_num *n, const czk_bool *b, const czk_fr *coeff);
void czk_num_add(czk_num *n, const czk_num *o);
void czk_num_scale(czk_num *n, const czk_fr *k);

/* ---- multi-eq (bellpepper gadgets/multieq.rs) ---- */

/* Packs equalities lhs_i = rhs_i (each < 2^num_bits) into one constraint
 * "multieq k": (sum 2^off_i lhs_i) * 1 = sum 2^off_i rhs_i, flushed before
 * 254 bits would be exceeded and by finish (which also frees the LCs). */
void czk_multieq_init(czk_multieq *me, czk_cs *cs);
czk_status czk_multieq_enforce_equal(czk_multieq *me, uint32_t num_bits, const czk_lc *lhs,
                                     const czk_lc *rhs) CZK_WUR;
czk_status czk_multieq_finish(czk_multieq *me) CZK_WUR;

/* ---- uint32 (bellpepper gadgets/uint32.rs) ---- */

/* 32 allocated bits, namespaces "allocated bit i". */
czk_status czk_u32_alloc(czk_cs *cs, czk_u32 *out, uint32_t v) CZK_WUR;
czk_status czk_u32_xor(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b) CZK_WUR;
czk_status czk_u32_sha256_ch(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b,
                             const czk_u32 *c) CZK_WUR;
czk_status czk_u32_sha256_maj(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b,
                              const czk_u32 *c) CZK_WUR;
/* UInt32::addmany: sum of 2..10 operands mod 2^32; all-constant operands fold
 * to a constant; otherwise allocates the result bits ("result bit i", as many
 * as the bit length of n * (2^32 - 1)) and registers the equality in me. */
czk_status czk_u32_addmany(czk_cs *cs, czk_multieq *me, czk_u32 *out, const czk_u32 *ops, size_t n) CZK_WUR;

/* rust-fil-proofs UInt64::alloc: 64 allocated bits ("allocated bit i");
 * pack into public inputs with czk_bits_pack_into_inputs(cs, u->bits, 64). */
czk_status czk_u64_alloc(czk_cs *cs, czk_u64 *out, uint64_t v) CZK_WUR;

/* ---- SHA-256 (bellpepper gadgets/sha256.rs) ---- */

/* sha256_compression_function: 512 input bits (big-endian words), state iv
 * -> out (out may not alias iv). Uses its own MultiEq. */
czk_status czk_sha256_compression(czk_cs *cs, czk_u32 out[8], const czk_bool in[512],
                                  const czk_u32 iv[8]) CZK_WUR;
/* sha256_block_no_padding: compression of one block from the standard IV;
 * 256 output bits, big-endian. */
czk_status czk_sha256_block_no_padding(czk_cs *cs, czk_bool out[256], const czk_bool in[512]) CZK_WUR;
/* sha256(): full hash with constant padding of nbits (a multiple of 8) input
 * bits, namespaces "block i"; 256 output bits, big-endian. */
czk_status czk_sha256_gadget(czk_cs *cs, czk_bool out[256], const czk_bool *in, size_t nbits) CZK_WUR;
/* rust-fil-proofs Sha256Function::hash_circuit: sha256 ("hash"), bits of each
 * output byte reversed, first 254 packed ("pack_le"). */
czk_status czk_sha256_hash_bits(czk_cs *cs, czk_anum *out, const czk_bool *bits, size_t nbits) CZK_WUR;
/* hash_leaf_bits_circuit: each side padded to whole bytes and bit-reversed per
 * byte, then hash_circuit. */
czk_status czk_sha256_hash_leaf_bits(czk_cs *cs, czk_anum *out, const czk_bool *left, size_t nleft,
                                     const czk_bool *right, size_t nright) CZK_WUR;
/* hash2_circuit: to_bits_le of both ("a_bits", "b_bits"), then as above. */
czk_status czk_sha256_hash2(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b) CZK_WUR;

/* ---- Filecoin label (rust-fil-proofs stacked/circuit/create_label.rs) ---- */

/* create_label_circuit: sha256 over replica_id (32..256 bits, zero-padded to
 * 256) || layer (32 bits BE) || node (64 bits BE) || zero pad to 512 bits ||
 * each of the 37 parents (parent_bits <= 256 bits each, zero-padded to 256),
 * then reverse_bit_numbering and pack the first 254 bits ("result_num"). */
czk_status czk_label_gadget(czk_cs *cs, czk_anum *out, const czk_bool *replica_id, size_t n_replica_id,
                            const czk_bool *const parents[CZK_LABEL_PARENTS], size_t parent_bits,
                            const czk_u32 *layer, const czk_u64 *node) CZK_WUR;

/* ---- Poseidon, column hash, Merkle inclusion (czk/poseidon.h, czk/merkle.h:
 * the _any entry points document them and dispatch to these) ---- */

czk_status czk_poseidon_circuit(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *in, const czk_fr *in_val,
                                size_t n) CZK_WUR;
/* The same circuit with the domain tag *tag as state[0] (NULL: the Merkle
 * tag); only the constants of the first round's LCs differ. */
czk_status czk_poseidon_circuit_tag(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *in,
                                    const czk_fr *in_val, size_t n, const czk_fr *tag) CZK_WUR;
czk_status czk_column_hash_circuit(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *rows,
                                   const czk_fr *row_val, size_t n) CZK_WUR;
czk_status czk_merkle_por_circuit(czk_cs *cs, const czk_merkle_shape *s, const czk_var *leaf_var,
                                  const czk_fr *leaf_val, const czk_fr *siblings, uint64_t index,
                                  const czk_var *root_var, const czk_fr *root_val, int private_root) CZK_WUR;
/* storage-proofs-core por_no_challenge_input: the inclusion of `leaf` under
 * `root` (both allocated) along the path whose siblings the caller has
 * allocated (czk_merkle_path_len(s), level by level), the per-level
 * positions taken from the caller's allocated bits (little-endian,
 * czk_merkle_index_bits(s) of them, each CZK_BOOL_IS). Per level l:
 * "merkle proof insert (height=l)" (insert_2/4/8 on the bits) and "merkle
 * proof hash (height=l)" (Poseidon, Merkle tag; or SHA-256 of the children's
 * 255-bit decompositions); then "calculated root == provided root". No
 * allocation of bits or siblings, no public input: an arity-8 level is 527
 * constraints, arity 4 385, arity 2 313, a SHA-256 binary level 45,381, plus
 * one for the root. */
czk_status czk_merkle_por_bits_circuit(czk_cs *cs, const czk_merkle_shape *s, const czk_bool *bits, size_t nbits,
                                       const czk_anum *leaf, const czk_anum *siblings, const czk_anum *root) CZK_WUR;
/* storage-proofs-core insertion::select: from[index] for the index given by
 * the allocated bits (little-endian; n = 2^nbits), consumed most significant
 * first with n - 1 picks ("pick i, j"). */
czk_status czk_merkle_select_circuit(czk_cs *cs, czk_anum *out, const czk_anum *from, size_t n, const czk_bool *bits,
                                     size_t nbits) CZK_WUR;
