/* czk — the EmptySectorUpdate (SnapDeals) circuit (czk/snap.h): the
 * closed-form counts, the entry point of the synthesis (snap_lcv.c, per LC
 * variant) and a counting pass. Costs: docs/filecoin.md "SnapDeals". */
#include <stdlib.h>
#include <string.h>

#include "circuits/count.h"
#include "circuits/par.h"
#include "circuits/snap_internal.h"
#include "cs/lc.h"

/* ---- counts (docs/filecoin.md "SnapDeals", Costs) -------------------------------- */

#define SNAP_POSEIDON 311u   /* arity 2, either tag: one aux per constraint */
#define SNAP_SHA_NODE_C 45379u /* hash2 of two numbers: two 255-bit decompositions + SHA-256 of 512 bits */
#define SNAP_SHA_NODE_A 45331u
#define SNAP_DIGEST_C 568u   /* index, PoseidonGR, 255 bits, decomposition */
#define SNAP_DIGEST_A 567u
#define SNAP_HIGH 13u        /* per challenge: 6 x (pack, select) + the sum; as many aux */

/* A Poseidon PoR level without index bits: insert (arity 2 / 4 / 8: 2 / 8
 * / 22 constraints) + Poseidon; one aux per constraint. */
static uint64_t por_level(unsigned a)
{
    return a == 2 ? 2 + 311 : a == 4 ? 8 + 377 : 22 + 505;
}

/* One challenge's constraints and aux: its high bits, rho, the leaves and
 * leaf_r_new, the two tree R paths (siblings allocated, no bits), the apex
 * leaf selection and the tree D path to it. */
static void challenge_counts(uint64_t *c, uint64_t *a, const czk_snap_shape *s)
{
    const uint64_t AL = s->apex_leaves, T = s->challenge_bits - s->partition_bits - s->apex_bits;
    uint64_t pc = SNAP_HIGH + SNAP_POSEIDON + 2, pa = SNAP_HIGH + SNAP_POSEIDON + 2 + 2;
    uint32_t levels = czk_fc_shape_tree_levels(&s->tree);
    for (int t = 0; t < 2; t++) {
        for (uint32_t l = 0; l < levels; l++) {
            unsigned ar = czk_fc_shape_level_arity(&s->tree, l);
            pc += por_level(ar);
            pa += por_level(ar) + (ar - 1);
        }
        pc += 1;
    }
    pc += (AL - 1) + T * (2 + SNAP_SHA_NODE_C) + 1;
    pa += (AL - 1) + T + T * (2 + SNAP_SHA_NODE_A);
    *c = pc;
    *a = pa;
}

void czk_snap_circuit_counts(czk_snap_counts *out, const czk_snap_shape *s)
{
    const uint64_t P = s->partition_bits, AL = s->apex_leaves;
    const uint64_t D = czk_snap_digests(s), C = s->challenges;
    uint64_t c = 0, a = 0;
    /* k_and_h_select, its bits, the packed partition; the three commitments */
    c += 1 + (P + CZK_SNAP_HS) + 1 + 1;
    a += 1 + (P + CZK_SNAP_HS) + 1;
    c += 3;
    a += 3;
    /* phi; comm_c, the roots, apex leaves, partition path; two comm_r checks */
    c += SNAP_POSEIDON;
    a += SNAP_POSEIDON + 3 + AL + P;
    c += 2 * (SNAP_POSEIDON + 1);
    a += 2 * SNAP_POSEIDON;
    /* apex tree, partition path (SHA-256 levels: 2 picks + a node), root */
    c += (AL - 1) * SNAP_SHA_NODE_C + P * (2 + SNAP_SHA_NODE_C) + 1;
    a += (AL - 1) * SNAP_SHA_NODE_A + P * (2 + SNAP_SHA_NODE_A);
    /* challenge digests */
    c += D * SNAP_DIGEST_C;
    a += D * SNAP_DIGEST_A;
    uint64_t pc, pa;
    challenge_counts(&pc, &pa, s);
    c += C * pc;
    a += C * pa;
    out->inputs = 1 + CZK_SNAP_PUBLIC_INPUTS;
    out->aux = a;
    out->constraints = c;
}

/* ---- context ------------------------------------------------------------------------ */

static czk_status snap_ctx_init(snap_ctx *x, const czk_snap_shape *s, const czk_snap_vanilla *v, uint32_t k)
{
    if (!s) return czk_error(CZK_ERR_INVALID_ARG, "snap: NULL shape");
    if (k >= s->partitions) return czk_error(CZK_ERR_INVALID_ARG, "snap: partition %u of %u", k, s->partitions);
    if (s->apex_leaves > CZK__SNAP_MAX_APEX || s->challenge_bits >= CZK__SNAP_MAX_BITS ||
        s->challenge_bits < s->partition_bits + s->apex_bits || s->apex_leaves != (1u << s->apex_bits) ||
        s->partitions != (1u << s->partition_bits) || s->challenges < 1 || s->challenges > CZK__SNAP_MAX_CHALLENGES)
        return czk_error(CZK_ERR_INVALID_ARG, "snap: shape out of range (%u challenge bits, %u partitions, %u apex "
                                              "leaves)",
                         s->challenge_bits, s->partitions, s->apex_leaves);
    memset(x, 0, sizeof *x);
    x->s = s;
    x->k = k;
    x->tree_r.hasher = CZK_MERKLE_POSEIDON;
    x->tree_r.base_arity = s->tree.base_arity;
    x->tree_r.base_height = s->tree.base_height;
    x->tree_r.sub_arity = s->tree.sub_arity;
    x->tree_r.top_arity = s->tree.top_arity;
    CZK_TRY(czk_merkle_shape_check(&x->tree_r));
    if (czk_merkle_index_bits(&x->tree_r) != s->challenge_bits)
        return czk_error(CZK_ERR_INVALID_ARG, "snap: tree R %u,%u,%u of height %u has %zu index bits, a challenge %u",
                         s->tree.base_arity, s->tree.sub_arity, s->tree.top_arity, s->tree.base_height,
                         czk_merkle_index_bits(&x->tree_r), s->challenge_bits);
    x->tree_d_leaf.hasher = CZK_MERKLE_SHA256;
    x->tree_d_leaf.base_arity = 2;
    x->tree_d_leaf.base_height = s->challenge_bits - s->partition_bits - s->apex_bits;
    x->tree_d_part = x->tree_d_leaf;
    x->tree_d_part.base_height = s->partition_bits;
    if (!v) return CZK_OK;

    const czk_snap_shape *t = &v->shape;
    if (t->tree.nodes != s->tree.nodes || t->tree.base_arity != s->tree.base_arity ||
        t->tree.sub_arity != s->tree.sub_arity || t->tree.top_arity != s->tree.top_arity ||
        t->partitions != s->partitions || t->challenges != s->challenges || t->apex_leaves != s->apex_leaves)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "snap: the vanilla proofs (%llu nodes, %u partitions of %u challenges) do not have the "
                         "circuit's shape (%llu nodes, %u partitions of %u challenges)",
                         (unsigned long long)t->tree.nodes, t->partitions, t->challenges,
                         (unsigned long long)s->tree.nodes, s->partitions, s->challenges);
    if (k >= v->n || !v->parts)
        return czk_error(CZK_ERR_INVALID_ARG, "snap: no vanilla proof of partition %u (%u given)", k, v->n);
    const czk_snap_partition *p = &v->parts[k];
    if (!p->apex_leaves || !p->proofs) return czk_error(CZK_ERR_INVALID_ARG, "snap: partition %u is empty", k);
    uint64_t hsel;
    CZK_TRY(czk_snap_h_select(&hsel, s, v->h));
    x->k_and_h_select = (uint64_t)k | hsel << s->partition_bits;
    x->comm_r_old = v->comm_r_old;
    x->comm_d_new = v->comm_d_new;
    x->comm_r_new = v->comm_r_new;
    /* the reference asserts these before synthesis: one partition path
     * shared by every challenge, paths of the tree's length */
    const uint32_t top = s->challenge_bits - s->partition_bits;
    for (uint32_t c = 0; c < s->challenges; c++) {
        const czk_snap_challenge_proof *cp = &p->proofs[c];
        if (!cp->r_old.siblings || !cp->d_new.siblings || !cp->r_new.siblings)
            return czk_error(CZK_ERR_INVALID_ARG, "snap: partition %u challenge %u: a Merkle proof has no path", k, c);
        for (uint32_t i = 0; c && i < s->partition_bits; i++)
            if (!czk_fr_eq(&cp->d_new.siblings[top + i], &p->proofs[0].d_new.siblings[top + i]))
                return czk_error(CZK_ERR_INVALID_ARG,
                                 "snap: partition %u challenge %u: tree D path element %u differs from challenge 0's "
                                 "(every challenge shares the partition path)",
                                 k, c, top + i);
    }
    x->p = p;
    return CZK_OK;
}

/* ---- synthesis ----------------------------------------------------------------------- */

czk_status czk_snap_synthesize(czk_cs *cs, const czk_snap_shape *s, const czk_snap_vanilla *v, uint32_t k)
{
    if (!cs) return czk_error(CZK_ERR_INVALID_ARG, "snap: NULL constraint system");
    if (czk__cs_has_values(cs) && !v)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "snap: the %s backend needs the vanilla proofs (v is NULL)",
                         czk_cs_backend_name(cs->backend));
    czk__snap_par *p = malloc(sizeof *p);
    if (!p) return czk_error(CZK_ERR_NOMEM, "snap: synthesis state");
    czk_status st = snap_ctx_init(&p->x, s, czk__cs_has_values(cs) ? v : NULL, k);
    if (st == CZK_OK) st = CZK_LC_DISPATCH(cs->lc_kind, czk__snap_synth, (cs, p));
    free(p);
    return st;
}

/* ---- the parallel plan (circuits/par.h) ------------------------------------------- */

static czk_status par_top(czk_cs *cs, void *ctx)
{
    czk__snap_par *p = ctx;
    return CZK_LC_DISPATCH(p->lc, czk__snap_top, (cs, p));
}

static czk_status par_unit(czk_cs *cs, void *ctx, uint32_t i)
{
    const czk__snap_par *p = ctx;
    return CZK_LC_DISPATCH(p->lc, czk__snap_unit, (cs, p, i));
}

czk_status czk__snap_par_init(czk__par_circuit *out, czk__snap_par *p, const czk_snap_shape *s,
                              const czk_snap_vanilla *v, uint32_t k, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "snap: LC kind %d", (int)lc);
    if (s && s->challenges > CZK__SNAP_MAX_CHALLENGES)
        return czk_error(CZK_ERR_INVALID_ARG, "snap: %u challenges per partition (at most %d)", s->challenges,
                         CZK__SNAP_MAX_CHALLENGES);
    memset(p, 0, sizeof *p);
    CZK_TRY(snap_ctx_init(&p->x, s, v, k));
    p->lc = lc;
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, s);
    uint64_t uc, ua;
    challenge_counts(&uc, &ua, s);
    memset(out, 0, sizeof *out);
    out->top = (czk__par_cost){n.constraints - s->challenges * uc, n.aux - s->challenges * ua, n.inputs};
    out->unit = (czk__par_cost){uc, ua, 0};
    out->units = s->challenges;
    out->lc = lc;
    out->top_fn = par_top;
    out->unit_fn = par_unit;
    out->ctx = p;
    out->what = "snap";
    return CZK_OK;
}

/* ---- counting pass ------------------------------------------------------------------ */

czk_status czk_snap_count(czk_snap_counts *out, const czk_snap_shape *s, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "snap count: LC kind %d", (int)lc);
    czk__snap_par *p = malloc(sizeof *p);
    if (!p) return czk_error(CZK_ERR_NOMEM, "snap count: synthesis state");
    czk_status st = snap_ctx_init(&p->x, s, NULL, 0);
    if (st != CZK_OK) {
        free(p);
        return st;
    }
    czk__count ci;
    czk_cs cs;
    st = czk__count_cs_init(&cs, &ci, lc);
    if (st == CZK_OK) {
        st = CZK_LC_DISPATCH(lc, czk__snap_synth, (&cs, p));
        czk__count_cs_clear(&cs);
    }
    free(p);
    CZK_TRY(st);
    out->inputs = cs.n_inputs;
    out->aux = cs.n_aux;
    out->constraints = cs.n_constraints;
    return CZK_OK;
}
