/* czk — the EmptySectorUpdate (SnapDeals) partition circuit, compiled once
 * per LC variant (cs/lc.h); snap.c chooses the variant. The order of
 * allocations and constraints is storage-proofs-update's
 * EmptySectorUpdateCircuit::synthesize and its gadgets (apex_por,
 * gen_challenge_bits, get_challenge_high_bits, label_r_new); the names are
 * its bellpepper namespaces (docs/filecoin.md "SnapDeals"). */
#include <stdio.h>
#include <stdlib.h>

#include "circuits/snap_internal.h"
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

/* a namespace whose name is formatted only when names are kept */
#define SNAP_NS(cs, ...)                                                                \
    do {                                                                                \
        char ns_[96];                                                                   \
        if ((cs)->wants_names) snprintf(ns_, sizeof ns_, __VA_ARGS__);                  \
        czk__cs_ns_push((cs), (cs)->wants_names ? ns_ : "", CZK_NOIDX);                  \
    } while (0)

static czk_status alloc_num(czk_cs *cs, czk_anum *out, const czk_fr *value, int vals)
{
    return czk_anum_alloc(cs, out, vals ? value : NULL);
}

/* lc * 1 = c (the reference's equalities and decompositions) */
static czk_status enforce_lc_eq(czk_cs *cs, czk_lc *lc, czk_var c, const char *name)
{
    czk_lc *b = czk_lc_scratch(cs, 1), *lcc = czk_lc_scratch(cs, 2);
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(lcc, c);
    return czk_enforce(cs, lc, b, lcc, name, CZK_NOIDX);
}

static czk_status enforce_eq(czk_cs *cs, czk_var a, czk_var c, const char *name)
{
    if (!czk__cs_needs_constraints(cs)) return CZK_OK;
    czk_lc *la = czk_lc_scratch(cs, 0);
    czk_lc_add_var(la, a);
    return enforce_lc_eq(cs, la, c, name);
}

/* Poseidon of (a, b): Merkle tag (tag NULL) or PoseidonGR's */
static czk_status hash2(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b, const czk_fr *tag, int vals)
{
    czk_var in[2] = {a->var, b->var};
    czk_fr iv[2] = {a->value, b->value};
    CZK_TRY(czk_poseidon_circuit_tag(cs, &out->var, vals ? &out->value : NULL, in, vals ? iv : NULL, 2, tag));
    if (!vals) out->value = CZK_FR_ZERO;
    return CZK_OK;
}

/* gadgets.rs allocated_num_to_allocated_bits: 255 bits ("bit i") and
 * sum 2^i bit_i * 1 = num ("binary decomp") */
static czk_status num_to_bits(czk_cs *cs, czk_bool out[255], const czk_anum *num)
{
    CZK_TRY(czk_bits_alloc_field_le(cs, out, &num->value));
    if (!czk__cs_needs_constraints(cs)) return CZK_OK;
    czk_lc *a = czk_lc_scratch(cs, 0);
    for (unsigned i = 0; i < 255; i++) czk_lc_add_term(a, czk__fr_pow2(i), out[i].var);
    return enforce_lc_eq(cs, a, num->var, "binary decomp");
}

/* The public k_and_h_select, its bits (partition bits, then the h_select
 * bits) and the packed partition index. */
static czk_status k_and_h_select(czk_cs *cs, const snap_ctx *x, czk_bool *bits, czk_anum *partition, int vals)
{
    const uint32_t nb = x->s->partition_bits + CZK_SNAP_HS;
    czk_fr khs_val;
    czk_fr_from_u64(&khs_val, x->k_and_h_select);
    czk_anum khs;
    CZK_TRY(czk__anum_alloc_ns(cs, &khs, vals ? &khs_val : NULL, "k_and_h_select"));
    CZK_TRY(czk__anum_inputize_ns(cs, &khs, "k_and_h_select (public input)"));
    for (uint32_t i = 0; i < nb; i++) {
        SNAP_NS(cs, "k_and_h_select_bit_%u", i);
        czk_status st = czk_bit_alloc(cs, &bits[i], vals ? (int)((x->k_and_h_select >> i) & 1) : 0);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
    }
    if (czk__cs_needs_constraints(cs)) {
        czk_lc *a = czk_lc_scratch(cs, 0);
        for (uint32_t i = 0; i < nb; i++) czk_lc_add_term(a, czk__fr_pow2(i), bits[i].var);
        CZK_TRY(enforce_lc_eq(cs, a, khs.var, "k_and_h_select binary decomp"));
    }
    czk__cs_ns_push(cs, "pack partition bits", CZK_NOIDX);
    czk_status st = czk_bits_pack(cs, partition, bits, x->s->partition_bits);
    czk__cs_ns_pop(cs);
    return st;
}

/* gadgets.rs apex_por: the apex tree over the partition's apex leaves
 * (SHA-256 hash2 per node, row by row), then the partition path from its
 * root to comm_d_new along the partition bits. */
static czk_status apex_por(czk_cs *cs, const snap_ctx *x, const czk_anum *leaves, const czk_bool *partition_bits,
                           const czk_anum *partition_path, const czk_anum *comm_d_new)
{
    const uint32_t n = x->s->apex_leaves;
    czk_anum row[CZK__SNAP_MAX_APEX];
    for (uint32_t i = 0; i < n; i++) row[i] = leaves[i];
    for (uint32_t r = 0, w = n; w > 1; r++, w /= 2)
        for (uint32_t i = 0; i < w / 2; i++) {
            SNAP_NS(cs, "apex_tree generation hash (tree_row=%u, siblings=%u)", r, i);
            czk_status st = czk_sha256_hash2(cs, &row[i], &row[2 * i], &row[2 * i + 1]);
            czk__cs_ns_pop(cs);
            CZK_TRY(st);
        }
    czk__cs_ns_push(cs, "partition-tree por", CZK_NOIDX);
    czk_status st = czk_merkle_por_bits_circuit(cs, &x->tree_d_part, partition_bits, x->s->partition_bits, &row[0],
                                                partition_path, comm_d_new);
    czk__cs_ns_pop(cs);
    return st;
}

/* gadgets.rs gen_challenge_bits: per digest j, digest_index = k * digests
 * + j, digest = PoseidonGR(comm_r_new, digest_index), its 255 bits; the
 * challenges' random bits are consecutive chunks of each digest's bits. */
static czk_status gen_challenge_bits(czk_cs *cs, const snap_ctx *x, czk_bool *out, const czk_anum *comm_r_new,
                                     const czk_anum *partition, const czk_fr *gr, int vals)
{
    const uint32_t bits = x->s->challenge_bits - x->s->partition_bits, per = 254 / bits;
    const uint32_t digests = czk_snap_digests(x->s);
    czk_fr dpp;
    czk_fr_from_u64(&dpp, digests);
    uint32_t c = 0;
    for (uint32_t j = 0; j < digests; j++) {
        czk_anum di, digest;
        czk_fr dv;
        czk_fr_from_u64(&dv, (uint64_t)x->k * digests + j);
        SNAP_NS(cs, "digest_index_%u", j);
        czk_status st = alloc_num(cs, &di, &dv, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        if (czk__cs_needs_constraints(cs)) {
            /* (digests * k + j * ONE) * 1 = digest_index */
            czk_fr jf;
            czk_fr_from_u64(&jf, j);
            czk_lc *a = czk_lc_scratch(cs, 0);
            czk_lc_add_term(a, &dpp, partition->var);
            czk_lc_add_term(a, &jf, CZK_VAR_ONE);
            char name[80];
            if (cs->wants_names) snprintf(name, sizeof name, "digest_index_%u == k * digests_per_partition + %u", j, j);
            CZK_TRY(enforce_lc_eq(cs, a, di.var, cs->wants_names ? name : "digest_index"));
        }
        SNAP_NS(cs, "digest_%u", j);
        st = hash2(cs, &digest, comm_r_new, &di, gr, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        czk_bool db[255];
        SNAP_NS(cs, "digest_%u_bits", j);
        st = num_to_bits(cs, db, &digest);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        for (uint32_t i = 0; i < per && c < x->s->challenges; i++, c++)
            for (uint32_t t = 0; t < bits; t++) out[(size_t)c * bits + t] = db[i * bits + t];
    }
    return CZK_OK;
}

/* gadgets.rs get_challenge_high_bits: for each h of hs the h high bits of
 * the challenge packed, times its h_select bit; their sum. */
static czk_status challenge_high(czk_cs *cs, const snap_ctx *x, czk_anum *out, const czk_bool *c_bits,
                                 const czk_bool *h_select_bits, int vals)
{
    const uint32_t nb = x->s->challenge_bits;
    czk_anum hz[CZK_SNAP_HS];
    czk_fr sum = CZK_FR_ZERO;
    for (uint32_t k = 0; k < CZK_SNAP_HS; k++) {
        const uint32_t h = x->s->hs[k];
        czk_anum high;
        SNAP_NS(cs, "c_high (h=%u, k=%u)", h, k);
        czk_status st = czk_bits_pack(cs, &high, &c_bits[nb - h], h);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        czk_fr v = vals && h_select_bits[k].value ? high.value : CZK_FR_ZERO;
        SNAP_NS(cs, "c_high_or_zero (h=%u, k=%u)", h, k);
        st = alloc_num(cs, &hz[k], &v, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
        if (vals) czk_fr_add(&sum, &sum, &v);
        if (czk__cs_needs_constraints(cs)) {
            czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
            czk_lc_add_var(a, high.var);
            czk_lc_add_var(b, h_select_bits[k].var);
            czk_lc_add_var(c, hz[k].var);
            char name[80];
            if (cs->wants_names)
                snprintf(name, sizeof name, "c_high_or_zero == c_high * h_select_bit (h=%u, k=%u)", h, k);
            CZK_TRY(czk_enforce(cs, a, b, c, cs->wants_names ? name : "c_high_or_zero", CZK_NOIDX));
        }
    }
    czk__cs_ns_push(cs, "c_high_selected", CZK_NOIDX);
    czk_status st = alloc_num(cs, out, &sum, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    if (!czk__cs_needs_constraints(cs)) return CZK_OK;
    czk_lc *a = czk_lc_scratch(cs, 0);
    for (uint32_t k = 0; k < CZK_SNAP_HS; k++) czk_lc_add_var(a, hz[k].var);
    return enforce_lc_eq(cs, a, out->var, "c_high_selected == dot(c_highs, h_select_bits)");
}

/* gadgets.rs label_r_new: leaf_r_new = leaf_r_old + leaf_d_new * rho */
static czk_status label_r_new(czk_cs *cs, czk_anum *out, const czk_anum *r_old, const czk_anum *d_new,
                              const czk_anum *rho, int vals)
{
    czk_anum prod;
    czk__cs_ns_push(cs, "label_d_new * rho", CZK_NOIDX);
    czk_status st = czk_anum_mul(cs, &prod, d_new, rho);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    czk_fr v;
    czk_fr_add(&v, &r_old->value, &prod.value);
    czk__cs_ns_push(cs, "label_r_new", CZK_NOIDX);
    st = alloc_num(cs, out, &v, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    if (!czk__cs_needs_constraints(cs)) return CZK_OK;
    czk_lc *a = czk_lc_scratch(cs, 0);
    czk_lc_add_var(a, r_old->var);
    czk_lc_add_var(a, prod.var);
    return enforce_lc_eq(cs, a, out->var, "label_r_new == label_r_old + label_d_new * rho");
}

/* One tree R path's siblings, level by level ("path_<name> sibling (c_index,
 * tree_row, sibling_index)"). */
static czk_status alloc_path_r(czk_cs *cs, const snap_ctx *x, czk_anum *out, const czk_fc_merkle *m, uint32_t c,
                               const char *name, int vals)
{
    const size_t levels = czk_merkle_levels(&x->tree_r);
    size_t o = 0;
    for (size_t l = 0; l < levels; l++) {
        unsigned a = czk_merkle_level_arity(&x->tree_r, l);
        for (unsigned j = 0; j + 1 < a; j++, o++) {
            SNAP_NS(cs, "path_%s sibling (c_index=%u, tree_row=%zu, sibling_index=%u)", name, c, l, j);
            czk_status st = alloc_num(cs, &out[o], vals ? &m->siblings[o] : NULL, vals);
            czk__cs_ns_pop(cs);
            CZK_TRY(st);
        }
    }
    return CZK_OK;
}

/* Challenge c of the partition (a unit: writes nothing of p). */
czk_status czk__snap_unit(czk_cs *cs, const czk__snap_par *p, uint32_t c)
{
    const snap_ctx *x = &p->x;
    const snap_top *pt = &p->t;
    const czk_fr *gr = &pt->gr;
    const int vals = x->p != NULL;
    const czk_snap_shape *s = x->s;
    const uint32_t nb = s->challenge_bits, pb = s->partition_bits, rb = nb - pb;
    const uint32_t to_apex = nb - pb - s->apex_bits;
    const czk_snap_challenge_proof *cp = vals ? &x->p->proofs[c] : NULL;
    czk_bool c_bits[CZK__SNAP_MAX_BITS];
    for (uint32_t i = 0; i < rb; i++) c_bits[i] = pt->gen[(size_t)c * rb + i];
    for (uint32_t i = 0; i < pb; i++) c_bits[rb + i] = pt->khs_bits[i];

    czk_anum c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new, apex_leaf;
    SNAP_NS(cs, "get_challenge_high_bits (c_index=%u)", c);
    czk_status st = challenge_high(cs, x, &c_high, c_bits, &pt->khs_bits[pb], vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    SNAP_NS(cs, "rho (c_index=%u)", c);
    st = hash2(cs, &rho, &pt->phi, &c_high, gr, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);

    SNAP_NS(cs, "leaf_r_old (c_index=%u)", c);
    st = alloc_num(cs, &leaf_r_old, vals ? &cp->r_old.leaf : NULL, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    SNAP_NS(cs, "leaf_d_new (c_index=%u)", c);
    st = alloc_num(cs, &leaf_d_new, vals ? &cp->d_new.leaf : NULL, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    SNAP_NS(cs, "leaf_r_new (c_index=%u)", c);
    st = label_r_new(cs, &leaf_r_new, &leaf_r_old, &leaf_d_new, &rho, vals);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);

    czk_anum path[CZK_MERKLE_MAX_LEVELS * (CZK_MERKLE_MAX_ARITY - 1)];
    CZK_TRY(alloc_path_r(cs, x, path, vals ? &cp->r_old : NULL, c, "r_old", vals));
    SNAP_NS(cs, "por tree_r_old (c_index=%u)", c);
    st = czk_merkle_por_bits_circuit(cs, &x->tree_r, c_bits, nb, &leaf_r_old, path, &pt->root_r_old);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    CZK_TRY(alloc_path_r(cs, x, path, vals ? &cp->r_new : NULL, c, "r_new", vals));
    SNAP_NS(cs, "por tree_r_new (c_index=%u)", c);
    st = czk_merkle_por_bits_circuit(cs, &x->tree_r, c_bits, nb, &leaf_r_new, path, &pt->root_r_new);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);

    SNAP_NS(cs, "select_apex_leaf (c_index=%u)", c);
    st = czk_merkle_select_circuit(cs, &apex_leaf, pt->apex, s->apex_leaves, &c_bits[to_apex], s->apex_bits);
    czk__cs_ns_pop(cs);
    CZK_TRY(st);
    for (uint32_t r = 0; r < to_apex; r++) {
        SNAP_NS(cs, "path_to_apex_leaf sibling (c_index=%u, tree_row=%u)", c, r);
        st = alloc_num(cs, &path[r], vals ? &cp->d_new.siblings[r] : NULL, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
    }
    SNAP_NS(cs, "por to_apex_leaf (c_index=%u)", c);
    st = czk_merkle_por_bits_circuit(cs, &x->tree_d_leaf, c_bits, to_apex, &leaf_d_new, path, &apex_leaf);
    czk__cs_ns_pop(cs);
    return st;
}

/* The common part: public inputs, phi, the private commitments and apex
 * leaves, the comm_r checks, the apex PoR, the challenge digests; fills
 * p->t for the challenges. */
czk_status czk__snap_top(czk_cs *cs, czk__snap_par *p)
{
    const snap_ctx *x = &p->x;
    snap_top *pt = &p->t;
    const czk_snap_shape *s = x->s;
    const int vals = x->p != NULL;
    const uint32_t rb = s->challenge_bits - s->partition_bits;
    czk_status st = CZK_OK;
    czk_poseidon_gr_tag(&pt->gr);
#define NS_TRY(name, e)                                                                 \
    do {                                                                                \
        czk__cs_ns_push(cs, name, CZK_NOIDX);                                            \
        st = (e);                                                                       \
        czk__cs_ns_pop(cs);                                                              \
        CZK_TRY(st);                                                                    \
    } while (0)

    /* public inputs */
    CZK_TRY(k_and_h_select(cs, x, pt->khs_bits, &pt->partition, vals));
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->comm_r_old, vals ? &x->comm_r_old : NULL, "comm_r_old"));
    CZK_TRY(czk__anum_inputize_ns(cs, &pt->comm_r_old, "comm_r_old_input"));
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->comm_d_new, vals ? &x->comm_d_new : NULL, "comm_d_new"));
    CZK_TRY(czk__anum_inputize_ns(cs, &pt->comm_d_new, "comm_d_new_input"));
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->comm_r_new, vals ? &x->comm_r_new : NULL, "comm_r_new"));
    CZK_TRY(czk__anum_inputize_ns(cs, &pt->comm_r_new, "comm_r_new_input"));
    /* phi = PoseidonGR(comm_d_new, comm_r_old) */
    NS_TRY("phi", hash2(cs, &pt->phi, &pt->comm_d_new, &pt->comm_r_old, &pt->gr, vals));

    /* private inputs: comm_c, the roots, the apex leaves, the partition path */
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->comm_c, vals ? &x->p->comm_c : NULL, "comm_c"));
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->root_r_old, vals ? &x->p->proofs[0].r_old.root : NULL, "root_r_old"));
    CZK_TRY(czk__anum_alloc_ns(cs, &pt->root_r_new, vals ? &x->p->proofs[0].r_new.root : NULL, "root_r_new"));
    for (uint32_t i = 0; i < s->apex_leaves; i++) {
        SNAP_NS(cs, "apex_leaf_%u", i);
        st = alloc_num(cs, &pt->apex[i], vals ? &x->p->apex_leaves[i] : NULL, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
    }
    for (uint32_t i = 0; i < s->partition_bits; i++) {
        SNAP_NS(cs, "partition_path_sibling_%u", i);
        st = alloc_num(cs, &pt->part_path[i], vals ? &x->p->proofs[0].d_new.siblings[rb + i] : NULL, vals);
        czk__cs_ns_pop(cs);
        CZK_TRY(st);
    }

    /* comm_r_old = Poseidon2(comm_c, root_r_old), comm_r_new likewise */
    czk_anum calc;
    NS_TRY("comm_r_old_calc", hash2(cs, &calc, &pt->comm_c, &pt->root_r_old, NULL, vals));
    CZK_TRY(enforce_eq(cs, calc.var, pt->comm_r_old.var, "enforce comm_r_old_calc == comm_r_old"));
    NS_TRY("comm_r_new_calc", hash2(cs, &calc, &pt->comm_c, &pt->root_r_new, NULL, vals));
    CZK_TRY(enforce_eq(cs, calc.var, pt->comm_r_new.var, "enforce comm_r_new_calc == comm_r_new"));
    NS_TRY("apex_gadget", apex_por(cs, x, pt->apex, pt->khs_bits, pt->part_path, &pt->comm_d_new));
    NS_TRY("gen_challenge_bits", gen_challenge_bits(cs, x, pt->gen, &pt->comm_r_new, &pt->partition, &pt->gr, vals));
#undef NS_TRY
    return CZK_OK;
}

czk_status czk__snap_synth(czk_cs *cs, czk__snap_par *p)
{
    CZK_TRY(czk__snap_top(cs, p));
    for (uint32_t c = 0; c < p->x.s->challenges; c++) CZK_TRY(czk__snap_unit(cs, p, c));
    return CZK_OK;
}
