/* czk — StackedDRG PoRep partition circuit, compiled once per LC variant
 * (cs/lc.h); porep.c chooses the variant. The synthesis follows rust-fil-proofs
 * storage-proofs-porep stacked/circuit/proof.rs (StackedCircuit::synthesize)
 * and params.rs (Proof::synthesize) allocation by allocation and constraint by
 * constraint; the names are bellpepper's namespaces. */
#include <stdarg.h>
#include <stdio.h>

#include "circuits/porep_internal.h"
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

/* Push a formatted namespace component (formatted only where names are kept). */
__attribute__((format(printf, 2, 3))) static void porep_ns_pushf(czk_cs *cs, const char *fmt, ...)
{
    if (!cs->wants_names) return;
    char buf[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    czk__cs_ns_push(cs, buf, CZK_NOIDX);
}

/* AllocatedNum::inputize(cs.namespace(|| ns)) */
/* to_bits_le (255 bits + "unpacking constraint") followed by
 * reverse_bit_numbering: padded with a constant false to 256 bits, then the
 * bits of every byte reversed. */
static czk_status porep_bits_reversed(czk_cs *cs, czk_bool out[256], czk_var var, const czk_fr *value)
{
    czk_bool le[256];
    czk_anum a;
    a.var = var;
    a.value = value ? *value : CZK_FR_ZERO;
    CZK_TRY(czk_anum_to_bits_le(cs, le, &a));
    le[255] = czk_bool_const(0);
    for (unsigned i = 0; i < 256; i++) out[i] = le[(i & ~7u) | (7u - (i & 7u))];
    return CZK_OK;
}

/* hash_single_column: Poseidon arity 2 or 11 (Filecoin); 4 and 8 layers
 * (czk's custom test shapes) hash with Poseidon of that arity, as the
 * generator's czk_fc_column_hash does. */
static czk_status porep_column_hash(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *rows,
                                    const czk_fr *row_val, uint32_t n)
{
    if (n == 2 || n == 11) return czk_column_hash_circuit(cs, out, out_val, rows, row_val, n);
    return czk_poseidon_circuit(cs, out, out_val, rows, row_val, n);
}

/* enforce_inclusion (params.rs): PoRCircuit::synthesize with the leaf and the
 * root as existing variables and a private root. */
static czk_status porep_inclusion(czk_cs *cs, const czk_merkle_shape *ms, czk_var leaf, czk_var root,
                                  const czk_fc_merkle *m)
{
    const int vals = czk__cs_has_values(cs);
    return czk_merkle_por_circuit(cs, ms, &leaf, NULL, vals ? m->siblings : NULL, vals ? m->index : 0, &root, NULL, 1);
}

/* Proof::synthesize for one challenge (namespace "challenge_i" pushed by the
 * caller). p == NULL: no values (SHAPE). */
static czk_status porep_challenge(czk_cs *cs, const porep_ctx *x, const czk_fc_challenge_proof *p,
                                  const czk_anum *comm_d, const czk_anum *comm_c,
                                  const czk_anum *comm_r_last, const czk_bool replica_bits[256])
{
    const int vals = x->vals;
    const uint32_t L = x->layers;
    czk_anum data_leaf;
    CZK_TRY(czk__anum_alloc_ns(cs, &data_leaf, vals ? &p->comm_d.leaf : NULL, "data_leaf"));
    czk__cs_ns_push(cs, "comm_d_inclusion", CZK_NOIDX);
    CZK_TRY(porep_inclusion(cs, &x->tree_d, data_leaf.var, comm_d->var, vals ? &p->comm_d : NULL));
    czk__cs_ns_pop(cs);

    /* columns of the 6 DRG then the 8 expander parents, hashed and proven in tree C */
    czk_var col[CZK_FC_PARENTS][CZK_FC_MAX_LAYERS];
    czk_fr colv[CZK_FC_PARENTS][CZK_FC_MAX_LAYERS];
    for (unsigned j = 0; j < CZK_FC_PARENTS; j++) {
        const char *kind = j < CZK_FC_DRG_DEGREE ? "drg" : "exp";
        const unsigned jj = j < CZK_FC_DRG_DEGREE ? j : j - CZK_FC_DRG_DEGREE;
        const czk_fc_column_proof *cp = !vals ? NULL : j < CZK_FC_DRG_DEGREE ? &p->drg[j] : &p->exp[jj];
        porep_ns_pushf(cs, "%s_parent_%u_num", kind, jj);
        czk__cs_ns_push(cs, "column", CZK_NOIDX);
        for (uint32_t r = 0; r < L; r++) {
            czk_anum a;
            porep_ns_pushf(cs, "column_num_row_%u", r);
            czk_status s = czk_anum_alloc(cs, &a, vals ? &cp->rows[r] : NULL);
            czk__cs_ns_pop(cs);
            CZK_TRY(s);
            col[j][r] = a.var;
            colv[j][r] = a.value;
        }
        czk__cs_ns_pop(cs);
        czk__cs_ns_pop(cs);
        czk_var h;
        czk_fr hv;
        porep_ns_pushf(cs, "%s_parent_%u_constraint", kind, jj);
        CZK_TRY(porep_column_hash(cs, &h, &hv, col[j], vals ? colv[j] : NULL, L));
        czk__cs_ns_pop(cs);
        porep_ns_pushf(cs, "%s_parent_%u_inclusion", kind, jj);
        CZK_TRY(porep_inclusion(cs, &x->tree_c, h, comm_c->var, vals ? &cp->proof : NULL));
        czk__cs_ns_pop(cs);
    }

    /* UInt64::alloc ("allocated bit i") and pack_into_input */
    czk_u64 node;
    node.value = vals ? p->labeling[0].node : 0;
    czk__cs_ns_push(cs, "challenge", CZK_NOIDX);
    for (unsigned i = 0; i < 64; i++) {
        czk__cs_ns_push(cs, "allocated bit", i);
        czk_status s = czk_bit_alloc(cs, &node.bits[i], (int)((node.value >> i) & 1));
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    czk__cs_ns_pop(cs);
    czk__cs_ns_push(cs, "challenge input", CZK_NOIDX);
    {
        czk_fr packed;
        czk_var in;
        czk_fr_from_u64(&packed, node.value);
        CZK_TRY(czk__cs_alloc_input(cs, &in, vals ? &packed : NULL, "input", 0));
        if (czk__cs_needs_constraints(cs)) {
            czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
            for (unsigned i = 0; i < 64; i++) czk_lc_add_bool(a, &node.bits[i], &czk__pow2_table[i]);
            czk_lc_add_var(b, CZK_VAR_ONE);
            czk_lc_add_var(c, in);
            CZK_TRY(czk_enforce(cs, a, b, c, "packing constraint", 0));
        }
    }
    czk__cs_ns_pop(cs);

    /* one label per layer */
    czk_var label[CZK_FC_MAX_LAYERS];
    czk_fr labelv[CZK_FC_MAX_LAYERS];
    czk_bool pbits[CZK_FC_PARENTS][256];
    for (uint32_t layer = 1; layer <= L; layer++) {
        porep_ns_pushf(cs, "labeling_%u", layer);
        unsigned n = 0;
        for (unsigned j = 0; j < CZK_FC_DRG_DEGREE; j++, n++) {
            porep_ns_pushf(cs, "drg_parent_%u_bits", n);
            czk_status s = porep_bits_reversed(cs, pbits[n], col[j][layer - 1], vals ? &colv[j][layer - 1] : NULL);
            czk__cs_ns_pop(cs);
            CZK_TRY(s);
        }
        if (layer > 1)
            for (unsigned j = CZK_FC_DRG_DEGREE; j < CZK_FC_PARENTS; j++, n++) {
                porep_ns_pushf(cs, "exp_parent_%u_bits", n);
                czk_status s =
                    porep_bits_reversed(cs, pbits[n], col[j][layer - 2], vals ? &colv[j][layer - 2] : NULL);
                czk__cs_ns_pop(cs);
                CZK_TRY(s);
            }
        /* layer 1: the 6 parents six times, then parent 0; later: 14, 14, first 9 */
        const czk_bool *expanded[CZK_LABEL_PARENTS];
        for (unsigned e = 0; e < CZK_LABEL_PARENTS; e++) expanded[e] = pbits[e % n];
        czk_u32 layer_num;
        czk_u32_constant(&layer_num, layer);
        czk_anum lab;
        czk__cs_ns_push(cs, "create_label", CZK_NOIDX);
        czk_status s = czk_label_gadget(cs, &lab, replica_bits, 256, expanded, 256, &layer_num, &node);
        czk__cs_ns_pop(cs);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
        label[layer - 1] = lab.var;
        labelv[layer - 1] = lab.value;
    }

    /* encode (constraint::add): encoded = key + data_leaf, proven in tree R_last */
    czk_anum enc;
    czk__cs_ns_push(cs, "encode_node", CZK_NOIDX);
    czk__cs_ns_push(cs, "encode_add", CZK_NOIDX);
    {
        czk_fr v;
        czk_fr_add(&v, &labelv[L - 1], &data_leaf.value);
        czk_status s = czk__anum_alloc_ns(cs, &enc, &v, "add_num");
        if (s == CZK_OK && czk__cs_needs_constraints(cs)) {
            czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
            czk_lc_add_var(a, label[L - 1]);
            czk_lc_add_var(a, data_leaf.var);
            czk_lc_add_var(b, CZK_VAR_ONE);
            czk_lc_add_var(c, enc.var);
            s = czk_enforce(cs, a, b, c, "sum constraint", CZK_NOIDX);
        }
        czk__cs_ns_pop(cs);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    czk__cs_ns_push(cs, "comm_r_last_data_inclusion", CZK_NOIDX);
    CZK_TRY(porep_inclusion(cs, &x->tree_r, enc.var, comm_r_last->var, vals ? &p->comm_r_last : NULL));
    czk__cs_ns_pop(cs);

    /* the challenged node's column (the labels just computed) in tree C */
    czk_var ch;
    czk_fr chv;
    czk__cs_ns_push(cs, "c_x_column_hash", CZK_NOIDX);
    CZK_TRY(porep_column_hash(cs, &ch, &chv, label, vals ? labelv : NULL, L));
    czk__cs_ns_pop(cs);
    czk__cs_ns_push(cs, "c_x_inclusion", CZK_NOIDX);
    CZK_TRY(porep_inclusion(cs, &x->tree_c, ch, comm_c->var, vals ? &p->c_x.proof : NULL));
    czk__cs_ns_pop(cs);
    return CZK_OK;
}

/* StackedCircuit::synthesize up to the challenges: replica_id (+ bits),
 * comm_d, comm_r, comm_r_last, comm_c, comm_r = H(comm_c || comm_r_last). */
czk_status czk__porep_top(czk_cs *cs, const porep_ctx *x, porep_common *cm)
{
    const int vals = x->vals;
    const czk_fc_c1 *c1 = x->c1;
    const czk_fc_challenge_proof *p0 = vals ? czk_fc_c1_proof(c1, x->k, 0) : NULL;

    CZK_TRY(czk__anum_alloc_ns(cs, &cm->replica_id, vals ? &c1->replica_id : NULL, "replica_id"));
    CZK_TRY(czk__anum_inputize_ns(cs, &cm->replica_id, "replica_id_input"));
    czk__cs_ns_push(cs, "replica_id_bits", CZK_NOIDX);
    czk_status s = porep_bits_reversed(cs, cm->replica_bits, cm->replica_id.var,
                                       vals ? &cm->replica_id.value : NULL);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    CZK_TRY(czk__anum_alloc_ns(cs, &cm->comm_d, vals ? &c1->comm_d : NULL, "comm_d"));
    CZK_TRY(czk__anum_inputize_ns(cs, &cm->comm_d, "comm_d_input"));
    CZK_TRY(czk__anum_alloc_ns(cs, &cm->comm_r, vals ? &c1->comm_r : NULL, "comm_r"));
    CZK_TRY(czk__anum_inputize_ns(cs, &cm->comm_r, "comm_r_input"));
    CZK_TRY(czk__anum_alloc_ns(cs, &cm->comm_r_last, vals ? &p0->comm_r_last.root : NULL, "comm_r_last"));
    CZK_TRY(czk__anum_alloc_ns(cs, &cm->comm_c, vals ? &p0->c_x.proof.root : NULL, "comm_c"));

    CZK_TRY(czk__comm_r_check(cs, &cm->comm_r, &cm->comm_c, &cm->comm_r_last, vals,
                              "enforce comm_r = H(comm_c || comm_r_last)"));
    return CZK_OK;
}

/* Challenge i (namespace "challenge_i"). */
czk_status czk__porep_one_challenge(czk_cs *cs, const porep_ctx *x, const porep_common *cm, uint32_t i)
{
    porep_ns_pushf(cs, "challenge_%u", i);
    czk_status s = porep_challenge(cs, x, x->vals ? czk_fc_c1_proof(x->c1, x->k, i) : NULL, &cm->comm_d,
                                   &cm->comm_c, &cm->comm_r_last, cm->replica_bits);
    czk__cs_ns_pop(cs);
    return s;
}

/* StackedCircuit::synthesize, sequentially. */
czk_status czk__porep_synth(czk_cs *cs, const porep_ctx *x)
{
    porep_common cm;
    CZK_TRY(czk__porep_top(cs, x, &cm));
    for (uint32_t i = 0; i < x->challenges; i++) CZK_TRY(czk__porep_one_challenge(cs, x, &cm, i));
    return CZK_OK;
}
