/* Labels, tree hashes and the native vanilla-proof check (storage-proofs-porep
 * stacked/vanilla: labeling_proof.rs, encoding_proof.rs, column_proof.rs,
 * hash.rs, params.rs Proof::verify; filecoin-hashers sha256.rs). */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "filecoin/internal.h"

void czk__fc_sha256(uint8_t out[32], const uint8_t *in, size_t len) { czk_sha256(out, in, len); }

/* fr32 bytes_into_fr_repr_safe: clear the top two bits so the value < 2^254 < r. */
static void digest_to_fr(czk_fr *out, uint8_t d[32])
{
    d[31] &= 0x3f;
    czk_status s = czk_fr_from_bytes(out, d);
    CZK_ASSERT(s == CZK_OK);
    (void)s;
}

void czk_fc_label(czk_fr *out, const czk_fr *replica_id, uint32_t layer, uint64_t node,
                  const czk_fr parents[CZK_FC_LABEL_PARENTS])
{
    uint8_t buf[64 + 32 * CZK_FC_LABEL_PARENTS], d[32];
    memset(buf, 0, 64);
    czk_fr_to_bytes(buf, replica_id);
    for (int i = 0; i < 4; i++) buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (int i = 0; i < CZK_FC_LABEL_PARENTS; i++) czk_fr_to_bytes(buf + 64 + 32 * i, &parents[i]);
    czk_sha256(d, buf, sizeof buf);
    digest_to_fr(out, d);
}

void czk_fc_label_parents(czk_fr out[CZK_FC_LABEL_PARENTS], uint32_t layer,
                          const czk_fr drg_labels[CZK_FC_DRG_DEGREE], const czk_fr exp_labels[CZK_FC_EXP_DEGREE])
{
    unsigned n = layer == 1 ? CZK_FC_DRG_DEGREE : CZK_FC_PARENTS;
    for (unsigned i = 0; i < CZK_FC_LABEL_PARENTS; i++) {
        unsigned j = i % n;
        out[i] = j < CZK_FC_DRG_DEGREE ? drg_labels[j] : exp_labels[j - CZK_FC_DRG_DEGREE];
    }
}

void czk_fc_sha_node(czk_fr *out, const czk_fr *left, const czk_fr *right)
{
    uint8_t buf[64], d[32];
    czk_fr_to_bytes(buf, left);
    czk_fr_to_bytes(buf + 32, right);
    czk_sha256(d, buf, sizeof buf);
    digest_to_fr(out, d);
}

czk_status czk_fc_column_hash(czk_fr *out, const czk_fr *rows, uint32_t layers)
{
    if (czk_poseidon_hash(out, rows, layers) != CZK_OK)
        return czk_error(CZK_ERR_UNSUPPORTED, "column hash: no Poseidon parameters for arity %u (layers)", layers);
    return CZK_OK;
}

czk_status czk__fc_tree_node(czk_fr *out, const czk_fr *children, uint32_t arity, int is_tree_d)
{
    if (is_tree_d) {
        CZK_ASSERT(arity == 2);
        czk_fc_sha_node(out, &children[0], &children[1]);
        return CZK_OK;
    }
    if (arity == 2) {
        czk_poseidon_hash2(out, &children[0], &children[1]);
        return CZK_OK;
    }
    return czk_poseidon_hash(out, children, arity);
}

czk_status czk_fc_merkle_root(czk_fr *root, const czk_fc_shape *s, int is_tree_d, const czk_fc_merkle *m)
{
    czk_fr cur = m->leaf, ch[16];
    const czk_fr *sib = m->siblings;
    uint64_t idx = m->index;
    uint32_t lv = czk__fc_levels(s, is_tree_d);
    for (uint32_t l = 0; l < lv; l++) {
        uint32_t ar = czk__fc_arity(s, is_tree_d, l), pos = (uint32_t)(idx % ar);
        idx /= ar;
        for (uint32_t j = 0, k = 0; j < ar; j++) ch[j] = j == pos ? cur : sib[k++];
        sib += ar - 1;
        CZK_TRY(czk__fc_tree_node(&cur, ch, ar, is_tree_d));
    }
    if (idx != 0)
        return czk_error(CZK_ERR_FORMAT, "merkle path: index %llu beyond the tree",
                         (unsigned long long)m->index);
    *root = cur;
    return CZK_OK;
}

static czk_status check_merkle(const czk_fc_shape *s, int is_tree_d, const czk_fc_merkle *m, const czk_fr *root,
                               uint64_t index, const char *what)
{
    czk_fr r;
    CZK_TRY(czk_fc_merkle_root(&r, s, is_tree_d, m));
    if (!czk_fr_eq(&r, &m->root)) return czk_error(CZK_ERR_VERIFY, "%s: path does not hash to its root", what);
    if (!czk_fr_eq(&m->root, root)) return czk_error(CZK_ERR_VERIFY, "%s: root differs from the commitment", what);
    if (m->index != index)
        return czk_error(CZK_ERR_VERIFY, "%s: proves node %llu, expected %llu", what, (unsigned long long)m->index,
                         (unsigned long long)index);
    return CZK_OK;
}

static czk_status check_column(const czk_fc_shape *s, const czk_fc_column_proof *c, const czk_fr *comm_c,
                               uint64_t node, const char *what)
{
    czk_fr h;
    if (c->index != node)
        return czk_error(CZK_ERR_VERIFY, "%s: column of node %u, expected %llu", what, c->index,
                         (unsigned long long)node);
    CZK_TRY(czk_fc_column_hash(&h, c->rows, s->layers));
    if (!czk_fr_eq(&h, &c->proof.leaf)) return czk_error(CZK_ERR_VERIFY, "%s: column hash != tree C leaf", what);
    return check_merkle(s, 0, &c->proof, comm_c, node, what);
}

czk_status czk_fc_verify_challenge(const czk_fc_c1 *c, uint32_t k, uint32_t i)
{
    const czk_fc_shape *s = &c->shape;
    const czk_fc_challenge_proof *p = czk_fc_c1_proof(c, k, i);
    char what[96];
    uint64_t node = czk__fc_c1_challenge(c, k * s->challenges + i);
    snprintf(what, sizeof what, "partition %u challenge %u (node %llu)", k, i, (unsigned long long)node);
    const czk_fr *comm_c = &p->c_x.proof.root, *comm_r_last = &p->comm_r_last.root;
    czk_fr t;
    czk_poseidon_hash2(&t, comm_c, comm_r_last);
    if (!czk_fr_eq(&t, &c->comm_r)) return czk_error(CZK_ERR_VERIFY, "%s: comm_r != Poseidon2(comm_c, comm_r_last)", what);
    uint32_t par[CZK_FC_PARENTS];
    czk_fc_parents(par, s, node);
    czk_status st = check_merkle(s, 1, &p->comm_d, &c->comm_d, node, "comm_d_proofs");
    if (st == CZK_OK) st = check_column(s, &p->c_x, comm_c, node, "c_x");
    char w2[32];
    for (int j = 0; st == CZK_OK && j < CZK_FC_DRG_DEGREE; j++) {
        snprintf(w2, sizeof w2, "drg_parents[%d]", j);
        st = check_column(s, &p->drg[j], comm_c, par[j], w2);
    }
    for (int j = 0; st == CZK_OK && j < CZK_FC_EXP_DEGREE; j++) {
        snprintf(w2, sizeof w2, "exp_parents[%d]", j);
        st = check_column(s, &p->exp[j], comm_c, par[CZK_FC_DRG_DEGREE + j], w2);
    }
    if (st == CZK_OK) st = check_merkle(s, 0, &p->comm_r_last, comm_r_last, node, "comm_r_last_proof");
    if (st != CZK_OK) return czk_error_context(st, "%s", what);
    for (uint32_t l = 1; l <= s->layers; l++) {
        czk_fr drg[CZK_FC_DRG_DEGREE], exp[CZK_FC_EXP_DEGREE], slots[CZK_FC_LABEL_PARENTS], lab;
        for (int j = 0; j < CZK_FC_DRG_DEGREE; j++) drg[j] = p->drg[j].rows[l - 1];
        for (int j = 0; j < CZK_FC_EXP_DEGREE; j++) exp[j] = p->exp[j].rows[l >= 2 ? l - 2 : 0];
        czk_fc_label_parents(slots, l, drg, exp);
        czk_fc_label(&lab, &c->replica_id, l, node, slots);
        if (!czk_fr_eq(&lab, &p->c_x.rows[l - 1]))
            return czk_error(CZK_ERR_VERIFY, "%s: label of layer %u != its column row", what, l);
        const czk_fc_labeling_proof *lp = &p->labeling[l - 1];
        if (lp->layer_index != l || lp->node != node || memcmp(lp->parents, slots, sizeof slots))
            return czk_error(CZK_ERR_VERIFY, "%s: labeling_proofs[%u] differs from the parent columns", what, l - 1);
    }
    const czk_fc_labeling_proof *ep = &p->encoding;
    if (ep->layer_index != s->layers || ep->node != node ||
        memcmp(ep->parents, p->labeling[s->layers - 1].parents, CZK_FC_LABEL_PARENTS * sizeof(czk_fr)))
        return czk_error(CZK_ERR_VERIFY, "%s: encoding_proof differs from the last labeling proof", what);
    czk_fr enc;
    czk_fr_add(&enc, &p->c_x.rows[s->layers - 1], &p->comm_d.leaf);
    if (!czk_fr_eq(&enc, &p->comm_r_last.leaf))
        return czk_error(CZK_ERR_VERIFY, "%s: encoded node != last label + data leaf", what);
    return CZK_OK;
}

size_t czk_fc_public_input_count(const czk_fc_shape *s) { return 3 + 18 * (size_t)s->challenges; }

czk_status czk_fc_public_inputs(czk_fr *out, const czk_fc_c1 *c, uint32_t k)
{
    const czk_fc_shape *s = &c->shape;
    if (k >= s->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "public inputs: partition %u of %u", k, s->partitions);
    size_t n = 0;
    out[n++] = c->replica_id;
    out[n++] = c->comm_d;
    out[n++] = c->comm_r;
    czk__fc_graph g;
    czk__fc_graph_init(&g, s);
    for (uint32_t i = 0; i < s->challenges; i++) {
        uint64_t ch = czk__fc_c1_challenge(c, k * s->challenges + i);
        uint32_t par[CZK_FC_PARENTS];
        czk__fc_drg_parents(par, &g, ch);
        czk__fc_exp_parents(par + CZK_FC_DRG_DEGREE, &g, ch);
        czk_fr_from_u64(&out[n++], ch);
        for (int j = 0; j < CZK_FC_PARENTS; j++) czk_fr_from_u64(&out[n++], par[j]);
        czk_fr_from_u64(&out[n++], ch);
        czk_fr_from_u64(&out[n++], ch);
        czk_fr_from_u64(&out[n++], ch);
    }
    CZK_ASSERT(n == czk_fc_public_input_count(s));
    return CZK_OK;
}
