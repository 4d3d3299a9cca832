/* czk — Merkle inclusion (PoR) circuit, compiled once per LC variant (cs/lc.h).
 *
 * Follows rust-fil-proofs storage-proofs-core gadgets/por.rs (PoRCircuit,
 * SubPath::synthesize) and gadgets/insertion.rs (insert_2/4/8, pick), with
 * bellpepper's AllocatedBit (alloc, and, nor), AllocatedNum::inputize and
 * multipack::pack_into_inputs, constraint by constraint and in the same
 * variable order. See czk/merkle.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

typedef struct czk__mnum {
    czk_var var;
    czk_fr val;
} czk__mnum;

/* AllocatedBit::alloc: (1 - b) * b = 0 */
static czk_status czk__m_bit(czk_cs *cs, czk__mnum *out, int bit, int vals, const char *ns,
                             uint64_t idx) {
    czk__cs_ns_push(cs, ns, idx);
    out->val = bit ? CZK_FR_ONE : CZK_FR_ZERO;
    CZK_TRY(czk__cs_alloc(cs, &out->var, vals ? &out->val : NULL, "boolean", CZK_NOIDX));
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, CZK_VAR_ONE);
        czk_lc_sub_var(a, out->var);
        czk_lc_add_var(b, out->var);
        CZK_TRY(czk_enforce(cs, a, b, c, "boolean constraint", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    return CZK_OK;
}

/* AllocatedBit::and (a * b = c) / nor ((1 - a) * (1 - b) = c). */
static czk_status czk__m_andnor(czk_cs *cs, czk__mnum *out, const czk__mnum *x,
                                const czk__mnum *y, int nor, int vals) {
    czk__cs_ns_push(cs, nor ? "b0 nor b1" : "b0 and b1", CZK_NOIDX);
    if (vals) {
        int bx = czk_fr_is_one(&x->val), by = czk_fr_is_one(&y->val);
        out->val = (nor ? (!bx && !by) : (bx && by)) ? CZK_FR_ONE : CZK_FR_ZERO;
    }
    CZK_TRY(czk__cs_alloc(cs, &out->var, vals ? &out->val : NULL, nor ? "nor result" : "and result", CZK_NOIDX));
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        if (nor) {
            czk_lc_add_var(a, CZK_VAR_ONE);
            czk_lc_sub_var(a, x->var);
            czk_lc_add_var(b, CZK_VAR_ONE);
            czk_lc_sub_var(b, y->var);
        } else {
            czk_lc_add_var(a, x->var);
            czk_lc_add_var(b, y->var);
        }
        czk_lc_add_var(c, out->var);
        CZK_TRY(czk_enforce(cs, a, b, c, nor ? "nor constraint" : "and constraint", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    return CZK_OK;
}

/* insertion.rs pick: c = bit ? a : b, enforced as (b - a) * bit = (b - c). */
static czk_status czk__m_pick(czk_cs *cs, czk__mnum *out, const czk__mnum *bit,
                              const czk__mnum *a, const czk__mnum *b, const char *ns,
                              uint64_t idx, int vals) {
    czk__cs_ns_push(cs, ns, idx);
    czk__mnum r;
    if (vals) r.val = czk_fr_is_one(&bit->val) ? a->val : b->val;
    CZK_TRY(czk__cs_alloc(cs, &r.var, vals ? &r.val : NULL, "pick result", CZK_NOIDX));
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_var(la, b->var);
        czk_lc_sub_var(la, a->var);
        czk_lc_add_var(lb, bit->var);
        czk_lc_add_var(lc, b->var);
        czk_lc_sub_var(lc, r.var);
        CZK_TRY(czk_enforce(cs, la, lb, lc, "pick", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    *out = r;
    return CZK_OK;
}

#define PICK(dst, bit, a, b, name) CZK_TRY(czk__m_pick(cs, &(dst), (bit), (a), (b), name, CZK_NOIDX, vals))

/* insert(cur into sib at the position given by bits[0..log2 a)), out[a]. */
static czk_status czk__m_insert(czk_cs *cs, czk__mnum *out, const czk__mnum *cur,
                                const czk__mnum *bits, const czk__mnum *sib, unsigned arity,
                                int vals) {
    const czk__mnum *a = cur;
    if (arity == 2) {
        CZK_TRY(czk__m_pick(cs, &out[0], &bits[0], &sib[0], a, "binary insert 0", CZK_NOIDX, vals));
        CZK_TRY(czk__m_pick(cs, &out[1], &bits[0], a, &sib[0], "binary insert 1", CZK_NOIDX, vals));
        return CZK_OK;
    }
    const czk__mnum *b0 = &bits[0], *b1 = &bits[1];
    if (arity == 4) {
        const czk__mnum *b = &sib[0], *c = &sib[1], *d = &sib[2];
        czk__mnum t;
        PICK(t, b0, b, a, "p0_x0");
        PICK(out[0], b1, b, &t, "p0");
        PICK(t, b0, a, b, "p1_x0");
        PICK(out[1], b1, c, &t, "p1");
        PICK(t, b0, d, a, "p2_x1");
        PICK(out[2], b1, &t, c, "p2");
        PICK(t, b0, a, d, "p3_x1");
        PICK(out[3], b1, &t, d, "p3");
        return CZK_OK;
    }
    CZK_ASSERT(arity == 8);
    const czk__mnum *b2 = &bits[2];
    const czk__mnum *b = &sib[0], *c = &sib[1], *d = &sib[2], *e = &sib[3], *f = &sib[4], *g = &sib[5],
                           *h = &sib[6];
    czk__mnum nor01, and01, t, u;
    CZK_TRY(czk__m_andnor(cs, &nor01, b0, b1, 1, vals));
    CZK_TRY(czk__m_andnor(cs, &and01, b0, b1, 0, vals));
    PICK(t, &nor01, a, b, "p0_xx0");
    PICK(out[0], b2, b, &t, "p0");
    PICK(t, b0, a, b, "p1_x00");
    PICK(u, b1, c, &t, "p1_xx0");
    PICK(out[1], b2, c, &u, "p1");
    PICK(t, b0, d, a, "p2_x10");
    PICK(u, b1, &t, c, "p2_xx0");
    PICK(out[2], b2, d, &u, "p2");
    PICK(t, &and01, a, d, "p3_xx0");
    PICK(out[3], b2, e, &t, "p3");
    PICK(t, &nor01, a, f, "p4_xx1");
    PICK(out[4], b2, &t, e, "p4");
    PICK(t, b0, a, f, "p5_x01");
    PICK(u, b1, g, &t, "p5_xx1");
    PICK(out[5], b2, &u, f, "p5");
    PICK(t, b0, h, a, "p6_x11");
    PICK(u, b1, &t, g, "p6_xx1");
    PICK(out[6], b2, &u, g, "p6");
    PICK(t, &and01, a, h, "p7_xx1");
    PICK(out[7], b2, &t, h, "p7");
    return CZK_OK;
}
#undef PICK

/* filecoin-hashers Sha256Function::hash_multi_leaf_circuit: each child to 255
 * little-endian bits ("<j>_num_into_bits", AllocatedNum::to_bits_le: no range
 * check), padded with a constant zero to 256, the bits of every byte reversed,
 * concatenated, then hash_circuit (sha256 "hash", 254 bits packed "pack_le"). */
static czk_status czk__m_sha_node(czk_cs *cs, czk__mnum *out, const czk__mnum *pre,
                                  unsigned arity, int vals) {
    czk_bool bits[CZK_MERKLE_MAX_ARITY * 256], le[256];
    char name[32];
    for (unsigned j = 0; j < arity; j++) {
        czk_anum a;
        a.var = pre[j].var;
        a.value = vals ? pre[j].val : CZK_FR_ZERO;
        if (cs->wants_names) snprintf(name, sizeof name, "%u_num_into_bits", j);
        czk__cs_ns_push(cs, cs->wants_names ? name : "num_into_bits", CZK_NOIDX);
        czk_status st = czk_anum_to_bits_le(cs, le, &a);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        le[255] = czk_bool_const(0);
        for (unsigned i = 0; i < 256; i++) bits[j * 256 + i] = le[(i & ~7u) | (7 - (i & 7u))];
    }
    czk_anum h;
    CZK_TRY(czk_sha256_hash_bits(cs, &h, bits, (size_t)arity * 256));
    out->var = h.var;
    if (vals) out->val = h.value;
    return CZK_OK;
}

/* One SubPath (levels [l0, l0 + n) of the path), starting from *cur. */
static czk_status czk__m_subpath(czk_cs *cs, const czk_merkle_shape *s, czk__mnum *cur,
                                 size_t l0, size_t n, const czk_fr **sib_vals, uint64_t *index,
                                 czk__mnum *bits, size_t *nbits, int vals) {
    for (size_t i = 0; i < n; i++) {
        unsigned arity = czk_merkle_level_arity(s, l0 + i), lb = arity == 2 ? 1 : arity == 4 ? 2 : 3;
        czk__mnum sib[CZK_MERKLE_MAX_ARITY - 1], pre[CZK_MERKLE_MAX_ARITY];
        czk__cs_ns_push(cs, "merkle tree hash", i);
        czk__mnum *lbits = &bits[*nbits];
        for (unsigned j = 0; j < lb; j++)
            CZK_TRY(czk__m_bit(cs, &lbits[j], (int)((*index >> j) & 1), vals, "index bit", j));
        *index >>= lb;
        *nbits += lb;
        for (unsigned j = 0; j + 1 < arity; j++) {
            czk__cs_ns_push(cs, "path element", j);
            if (vals) sib[j].val = (*sib_vals)[j];
            CZK_TRY(czk__cs_alloc(cs, &sib[j].var, vals ? &sib[j].val : NULL, "num", CZK_NOIDX));
            czk__cs_ns_pop(cs);
        }
        if (vals) *sib_vals += arity - 1;
        CZK_TRY(czk__m_insert(cs, pre, cur, lbits, sib, arity, vals));
        czk_var pv[CZK_MERKLE_MAX_ARITY];
        czk_fr pval[CZK_MERKLE_MAX_ARITY];
        for (unsigned j = 0; j < arity; j++) {
            pv[j] = pre[j].var;
            if (vals) pval[j] = pre[j].val;
        }
        czk__cs_ns_push(cs, "computation of commitment hash", CZK_NOIDX);
        if (s->hasher == CZK_MERKLE_POSEIDON)
            CZK_TRY(czk_poseidon_circuit(cs, &cur->var, vals ? &cur->val : NULL, pv, vals ? pval : NULL, arity));
        else
            CZK_TRY(czk__m_sha_node(cs, cur, pre, arity, vals));
        czk__cs_ns_pop(cs);
        czk__cs_ns_pop(cs);
    }
    return CZK_OK;
}

czk_status czk_merkle_por_circuit(czk_cs *cs, const czk_merkle_shape *s, const czk_var *leaf_var,
                                  const czk_fr *leaf_val, const czk_fr *siblings, uint64_t index,
                                  const czk_var *root_var, const czk_fr *root_val, int private_root) {
    if (!cs) return czk_error(CZK_ERR_INVALID_ARG, "merkle circuit: NULL constraint system");
    CZK_TRY(czk_merkle_shape_check(s));
    const int vals = czk__cs_has_values(cs);
    if (vals && index >= czk_merkle_leaves(s))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle circuit: leaf index %llu >= %llu leaves",
                         (unsigned long long)index, (unsigned long long)czk_merkle_leaves(s));
    if (vals && (!siblings || (!leaf_var && !leaf_val) || (!root_var && !root_val)))
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "merkle circuit: %s value missing on the %s backend",
                         !siblings ? "path" : (!leaf_var && !leaf_val) ? "leaf" : "root",
                         czk_cs_backend_name(cs->backend));
    czk__mnum cur, root, bits[64];
    size_t nbits = 0;
    if (leaf_var) {
        cur.var = *leaf_var;
        if (vals) CZK_TRY(czk_cs_value(cs, &cur.val, cur.var));
    } else {
        czk__cs_ns_push(cs, "value", CZK_NOIDX);
        if (vals) cur.val = *leaf_val;
        CZK_TRY(czk__cs_alloc(cs, &cur.var, vals ? &cur.val : NULL, "num", CZK_NOIDX));
        czk__cs_ns_pop(cs);
    }
    const czk_fr *sib = siblings;
    uint64_t idx = vals ? index : 0;
    static const char *const part[3] = {"base", "sub", "top"};
    const size_t lens[3] = {s->base_height, s->sub_arity ? 1u : 0u, s->top_arity ? 1u : 0u};
    size_t l0 = 0;
    for (int k = 0; k < 3; k++) {
        czk__cs_ns_push(cs, part[k], CZK_NOIDX);
        CZK_TRY(czk__m_subpath(cs, s, &cur, l0, lens[k], &sib, &idx, bits, &nbits, vals));
        czk__cs_ns_pop(cs);
        l0 += lens[k];
    }

    /* multipack::pack_into_inputs: one input per 254 (Fr capacity) bits. */
    czk__cs_ns_push(cs, "path", CZK_NOIDX);
    for (size_t c0 = 0, chunk = 0; c0 < nbits; c0 += 254, chunk++) {
        size_t c1 = c0 + 254 < nbits ? c0 + 254 : nbits;
        czk_fr packed = CZK_FR_ZERO, coeff = CZK_FR_ONE;
        czk_lc *a = czk__cs_needs_constraints(cs) ? czk_lc_scratch(cs, 0) : NULL;
        for (size_t i = c0; i < c1; i++) {
            if (vals && czk_fr_is_one(&bits[i].val)) czk_fr_add(&packed, &packed, &coeff);
            if (a) czk_lc_add_term(a, &coeff, bits[i].var);
            czk_fr_dbl(&coeff, &coeff);
        }
        czk_var in;
        CZK_TRY(czk__cs_alloc_input(cs, &in, vals ? &packed : NULL, "input", chunk));
        if (a) {
            czk_lc *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
            czk_lc_add_var(b, CZK_VAR_ONE);
            czk_lc_add_var(c, in);
            CZK_TRY(czk_enforce(cs, a, b, c, "packing constraint", chunk));
        }
    }
    czk__cs_ns_pop(cs);

    if (root_var) {
        root.var = *root_var;
        if (vals) CZK_TRY(czk_cs_value(cs, &root.val, root.var));
    } else {
        czk__cs_ns_push(cs, "root_value", CZK_NOIDX);
        if (vals) root.val = *root_val;
        CZK_TRY(czk__cs_alloc(cs, &root.var, vals ? &root.val : NULL, "num", CZK_NOIDX));
        czk__cs_ns_pop(cs);
    }
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, cur.var);
        czk_lc_add_var(b, CZK_VAR_ONE);
        czk_lc_add_var(c, root.var);
        CZK_TRY(czk_enforce(cs, a, b, c, "enforce root is correct", CZK_NOIDX));
    }
    if (!private_root) {
        czk_var in;
        czk__cs_ns_push(cs, "root", CZK_NOIDX);
        CZK_TRY(czk__cs_alloc_input(cs, &in, vals ? &root.val : NULL, "input variable", CZK_NOIDX));
        if (czk__cs_needs_constraints(cs)) {
            czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
            czk_lc_add_var(a, in);
            czk_lc_add_var(b, CZK_VAR_ONE);
            czk_lc_add_var(c, root.var);
            CZK_TRY(czk_enforce(cs, a, b, c, "enforce input is correct", CZK_NOIDX));
        }
        czk__cs_ns_pop(cs);
    }
    return CZK_OK;
}

/* ---- inclusion with the caller's challenge bits (SnapDeals) ----------------------- */

static void czk__m_ns_height(czk_cs *cs, const char *what, size_t height) {
    char buf[96];
    if (cs->wants_names) snprintf(buf, sizeof buf, "merkle proof %s (height=%zu)", what, height);
    czk__cs_ns_push(cs, cs->wants_names ? buf : what, CZK_NOIDX);
}

czk_status czk_merkle_por_bits_circuit(czk_cs *cs, const czk_merkle_shape *s, const czk_bool *bits, size_t nbits,
                                       const czk_anum *leaf, const czk_anum *siblings, const czk_anum *root) {
    /* a path of no level (a partition tree of one partition) is the root equality alone */
    if (czk_merkle_levels(s) > 0) CZK_TRY(czk_merkle_shape_check(s));
    if (nbits != czk_merkle_index_bits(s))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle circuit: %zu challenge bits for a tree of %zu index bits", nbits,
                         czk_merkle_index_bits(s));
    const int vals = czk__cs_has_values(cs);
    czk__mnum cur = {leaf->var, vals ? leaf->value : CZK_FR_ZERO};
    const size_t levels = czk_merkle_levels(s);
    size_t b0 = 0, sib0 = 0;
    for (size_t l = 0; l < levels; l++) {
        unsigned arity = czk_merkle_level_arity(s, l), lb = arity == 2 ? 1 : arity == 4 ? 2 : 3;
        czk__mnum lbits[3], sib[CZK_MERKLE_MAX_ARITY - 1], pre[CZK_MERKLE_MAX_ARITY];
        for (unsigned j = 0; j < lb; j++) {
            const czk_bool *b = &bits[b0 + j];
            if (b->kind != CZK_BOOL_IS)
                return czk_error(CZK_ERR_INVALID_ARG, "merkle circuit: challenge bit %zu is not an allocated bit",
                                 b0 + j);
            lbits[j].var = b->var;
            lbits[j].val = vals && b->value ? CZK_FR_ONE : CZK_FR_ZERO;
        }
        b0 += lb;
        for (unsigned j = 0; j + 1 < arity; j++) {
            sib[j].var = siblings[sib0 + j].var;
            sib[j].val = vals ? siblings[sib0 + j].value : CZK_FR_ZERO;
        }
        sib0 += arity - 1;
        czk__m_ns_height(cs, "insert", l);
        czk_status st = czk__m_insert(cs, pre, &cur, lbits, sib, arity, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        czk__m_ns_height(cs, "hash", l);
        if (s->hasher == CZK_MERKLE_POSEIDON) {
            czk_var pv[CZK_MERKLE_MAX_ARITY];
            czk_fr pval[CZK_MERKLE_MAX_ARITY];
            for (unsigned j = 0; j < arity; j++) {
                pv[j] = pre[j].var;
                pval[j] = pre[j].val;
            }
            st = czk_poseidon_circuit(cs, &cur.var, vals ? &cur.val : NULL, pv, vals ? pval : NULL, arity);
        } else {
            st = czk__m_sha_node(cs, &cur, pre, arity, vals);
        }
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
    }
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, cur.var);
        czk_lc_add_var(b, CZK_VAR_ONE);
        czk_lc_add_var(c, root->var);
        CZK_TRY(czk_enforce(cs, a, b, c, "calculated root == provided root", CZK_NOIDX));
    }
    return CZK_OK;
}

czk_status czk_merkle_select_circuit(czk_cs *cs, czk_anum *out, const czk_anum *from, size_t n, const czk_bool *bits,
                                     size_t nbits) {
    if (nbits >= 16 || n != ((size_t)1 << nbits))
        return czk_error(CZK_ERR_INVALID_ARG, "select circuit: %zu elements for %zu bits", n, nbits);
    const int vals = czk__cs_has_values(cs);
    czk__mnum *st = malloc(n * sizeof *st);
    if (!st) return czk_error(CZK_ERR_NOMEM, "select circuit: %zu elements", n);
    for (size_t i = 0; i < n; i++) {
        st[i].var = from[i].var;
        st[i].val = vals ? from[i].value : CZK_FR_ZERO;
    }
    size_t half = n / 2;
    czk_status s = CZK_OK;
    char name[48];
    /* most significant bit first; new[j] = bit ? state[half + j] : state[j] */
    for (size_t i = 0; i < nbits && s == CZK_OK; i++, half /= 2) {
        const czk_bool *b = &bits[nbits - 1 - i];
        if (b->kind != CZK_BOOL_IS) {
            s = czk_error(CZK_ERR_INVALID_ARG, "select circuit: bit %zu is not an allocated bit", nbits - 1 - i);
            break;
        }
        czk__mnum bit = {b->var, vals && b->value ? CZK_FR_ONE : CZK_FR_ZERO};
        for (size_t j = 0; j < half && s == CZK_OK; j++) {
            if (cs->wants_names) snprintf(name, sizeof name, "pick %zu, %zu", i, j);
            czk__mnum r;
            s = czk__m_pick(cs, &r, &bit, &st[half + j], &st[j], cs->wants_names ? name : "pick", CZK_NOIDX, vals);
            st[j] = r;
        }
    }
    if (s == CZK_OK) {
        out->var = st[0].var;
        out->value = vals ? st[0].val : CZK_FR_ZERO;
    }
    free(st);
    return s;
}
