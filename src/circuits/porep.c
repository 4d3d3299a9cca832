/* czk — the StackedDRG PoRep partition circuit (czk/porep.h): shape checks,
 * per-variant dispatch, exact sizes, public inputs, and a counting backend.
 * The synthesis itself is porep_lcv.c, compiled once per LC variant; the size
 * formula is derived in src/circuits/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/count.h"
#include "circuits/par.h"
#include "circuits/porep_internal.h"
#include "cs/cs_internal.h"
#include "ff/field_impl.h"
#include "gadgets/gadgets_lc.h"

/* ---- shapes --------------------------------------------------------------- */

static czk_status porep_shape_check(const czk_fc_shape *s)
{
    if (!s) return czk_error(CZK_ERR_INVALID_ARG, "porep: NULL shape");
    if (s->layers != 2 && s->layers != 4 && s->layers != 8 && s->layers != 11)
        return czk_error(CZK_ERR_UNSUPPORTED, "porep: %u layers (the column hash is Poseidon of arity 2, 4, 8 or 11)",
                         s->layers);
    if (s->challenges == 0 || s->partitions == 0)
        return czk_error(CZK_ERR_INVALID_ARG, "porep: shape has %u challenges and %u partitions", s->challenges,
                         s->partitions);
    if (s->d_height == 0 || s->d_height > 62)
        return czk_error(CZK_ERR_INVALID_ARG, "porep: tree D height %u out of range", s->d_height);
    return CZK_OK;
}

static czk_status porep_ctx_init(porep_ctx *x, const czk_fc_shape *s, const czk_fc_c1 *c1, uint32_t k)
{
    CZK_TRY(porep_shape_check(s));
    memset(x, 0, sizeof *x);
    x->c1 = c1;
    x->k = k;
    x->vals = c1 != NULL;
    x->layers = s->layers;
    x->challenges = s->challenges;
    x->tree_d.hasher = CZK_MERKLE_SHA256;
    x->tree_d.base_arity = 2;
    x->tree_d.base_height = s->d_height;
    x->tree_c.hasher = CZK_MERKLE_POSEIDON;
    x->tree_c.base_arity = s->base_arity;
    x->tree_c.base_height = s->base_height;
    x->tree_c.sub_arity = s->sub_arity;
    x->tree_c.top_arity = s->top_arity;
    x->tree_r = x->tree_c;
    CZK_TRY(czk_merkle_shape_check(&x->tree_d));
    CZK_TRY(czk_merkle_shape_check(&x->tree_c));
    if (c1) {
        const czk_fc_shape *t = &c1->shape;
        if (t->nodes != s->nodes || t->layers != s->layers || t->challenges != s->challenges ||
            t->partitions != s->partitions || t->base_arity != s->base_arity || t->sub_arity != s->sub_arity ||
            t->top_arity != s->top_arity || t->base_height != s->base_height || t->d_height != s->d_height)
            return czk_error(CZK_ERR_INVALID_ARG,
                             "porep: the C1 data (%s, %llu nodes, %u layers, %u x %u challenges) does not have the "
                             "circuit's shape (%llu nodes, %u layers, %u x %u challenges)",
                             czk_fc_proof_name(t->proof), (unsigned long long)t->nodes, t->layers, t->partitions,
                             t->challenges, (unsigned long long)s->nodes, s->layers, s->partitions, s->challenges);
        if (k >= s->partitions)
            return czk_error(CZK_ERR_INVALID_ARG, "porep: partition %u out of range (%u partitions)", k,
                             s->partitions);
        if (!c1->proofs) return czk_error(CZK_ERR_INVALID_ARG, "porep: the C1 data holds no proofs");
    }
    return CZK_OK;
}

size_t czk_porep_num_inputs(const czk_fc_shape *shape)
{
    return 4 + 18 * (size_t)shape->challenges;
}

/* ---- exact sizes (README.md "Counts") --------------------------------------- */

typedef struct porep_cost {
    uint64_t c, a, i; /* constraints, aux, inputs */
} porep_cost;

static void cost_add(porep_cost *t, const porep_cost *u, uint64_t times)
{
    t->c += u->c * times;
    t->a += u->a * times;
    t->i += u->i * times;
}

/* neptune poseidon_hash of arity n: constraints 4 (t R_F + R_P) - 3 - n;
 * every constraint allocates one variable except the linear output. */
static porep_cost cost_poseidon(unsigned n)
{
    porep_cost c = {czk_poseidon_circuit_constraints(n), 0, 0};
    c.a = c.c;
    return c;
}

/* SHA-256 tree-D node: two to_bits_le (255 bits + unpacking each), sha256 of
 * 512 bits (two blocks, the second constant padding), pack 254 bits. */
#define PO_SHA_NODE_C 45379u
#define PO_SHA_NODE_A 45331u

/* One PoR inclusion with existing leaf and root, private root. */
static porep_cost cost_por(const czk_merkle_shape *s)
{
    porep_cost t = {0, 0, 0};
    size_t levels = czk_merkle_levels(s), nbits = czk_merkle_index_bits(s);
    for (size_t l = 0; l < levels; l++) {
        unsigned a = czk_merkle_level_arity(s, l), lb = a == 2 ? 1 : a == 4 ? 2 : 3;
        unsigned ins = a == 2 ? 2 : a == 4 ? 8 : 22; /* insert_2/4/8: 2, 8, 20 picks (+ and, nor) */
        porep_cost lev = {lb + ins, lb + (a - 1) + ins, 0};
        if (s->hasher == CZK_MERKLE_POSEIDON) {
            porep_cost h = cost_poseidon(a);
            cost_add(&lev, &h, 1);
        } else {
            lev.c += PO_SHA_NODE_C;
            lev.a += PO_SHA_NODE_A;
        }
        cost_add(&t, &lev, 1);
    }
    uint64_t packs = (nbits + 253) / 254;
    t.c += packs + 1; /* packing constraints, root equality */
    t.i += packs;
    return t;
}

/* Filecoin label gadget as the PoRep circuit calls it: 64 allocated node
 * bits, and replica_id and each of the 37 parents as 255 allocated bits plus
 * the constant false of reverse_bit_numbering (the label figure 532,025 of
 * docs/filecoin.md#gadget-counts counts 9,728 allocated input bits and a
 * constant node; README.md "Counts"). */
#define PO_LABEL_C 522269u
#define PO_LABEL_A 521749u

/* The partition's common part (with ONE) and one challenge. */
static czk_status porep_cost_parts(porep_cost *top_out, porep_cost *ch_out, const czk_fc_shape *shape)
{
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, NULL, 0));
    const uint64_t L = shape->layers;
    porep_cost t = {0, 0, 1};        /* ONE */
    porep_cost bits = {256, 255, 0}; /* to_bits_le: 255 booleans + unpacking */
    porep_cost p2 = cost_poseidon(2), col = cost_poseidon((unsigned)L);
    porep_cost pd = cost_por(&x.tree_d), pc = cost_por(&x.tree_c);
    /* replica_id alloc + inputize + bits; comm_d, comm_r alloc + inputize;
     * comm_r_last, comm_c alloc; H(comm_c, comm_r_last); equality */
    porep_cost top = {1 + 256 + 1 + 1 + 1, 1 + 255 + 1 + 1 + 1 + 1, 3};
    cost_add(&t, &top, 1);
    cost_add(&t, &p2, 1);
    porep_cost ch = {0, 1, 0}; /* data_leaf */
    cost_add(&ch, &pd, 1);
    porep_cost column = {0, L, 0};
    cost_add(&column, &col, 1);
    cost_add(&column, &pc, 1);
    cost_add(&ch, &column, CZK_FC_PARENTS);
    porep_cost challenge = {64 + 1, 64, 1}; /* UInt64 bits, pack_into_input */
    cost_add(&ch, &challenge, 1);
    cost_add(&ch, &bits, CZK_FC_DRG_DEGREE + (L - 1) * CZK_FC_PARENTS);
    porep_cost label = {PO_LABEL_C, PO_LABEL_A, 0};
    cost_add(&ch, &label, L);
    porep_cost enc = {1, 1, 0};
    cost_add(&ch, &enc, 1);
    cost_add(&ch, &pc, 1); /* R_last has tree C's shape */
    cost_add(&ch, &col, 1);
    cost_add(&ch, &pc, 1);
    *top_out = t;
    *ch_out = ch;
    return CZK_OK;
}

static czk_status porep_cost_of(porep_cost *out, const czk_fc_shape *shape)
{
    porep_cost t, ch;
    CZK_TRY(porep_cost_parts(&t, &ch, shape));
    cost_add(&t, &ch, shape->challenges);
    *out = t;
    return CZK_OK;
}

czk_status czk_porep_sizes(czk_cs_sizes *out, const czk_fc_shape *shape)
{
    porep_cost t;
    CZK_TRY(porep_cost_of(&t, shape));
    out->n_inputs = t.i;
    out->n_aux = t.a;
    out->n_constraints = t.c + t.i; /* + the input constraints */
    return CZK_OK;
}

/* ---- synthesis ---------------------------------------------------------------- */

czk_status czk_porep_synthesize(czk_cs *cs, const czk_fc_shape *shape, const czk_fc_c1 *c1, uint32_t k)
{
    if (!cs) return czk_error(CZK_ERR_INVALID_ARG, "porep: NULL constraint system");
    if (czk__cs_has_values(cs) && !c1)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "porep: the %s backend needs the C1 data (c1 is NULL)",
                         czk_cs_backend_name(cs->backend));
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, czk__cs_has_values(cs) ? c1 : NULL, k));
    return CZK_LC_DISPATCH(cs->lc_kind, czk__porep_synth, (cs, &x));
}

czk_status czk_porep_public_inputs(czk_fr *out, const czk_fc_c1 *c1, uint32_t k)
{
    if (!c1 || !out) return czk_error(CZK_ERR_INVALID_ARG, "porep public inputs: NULL argument");
    if (k >= c1->shape.partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "porep public inputs: partition %u out of range (%u partitions)", k,
                         c1->shape.partitions);
    if (czk_fc_public_input_count(&c1->shape) + 1 != czk_porep_num_inputs(&c1->shape))
        return czk_error(CZK_ERR_INTERNAL, "porep public inputs: %zu inputs, the circuit has %zu",
                         czk_fc_public_input_count(&c1->shape), czk_porep_num_inputs(&c1->shape) - 1);
    return czk_fc_public_inputs(out, c1, k);
}

/* ---- counting pass --------------------------------------------------------------- */

czk_status czk_porep_count(czk_porep_counts *out, const czk_fc_shape *shape, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "porep count: LC kind %d", (int)lc);
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, NULL, 0));
    czk__count ci;
    czk_cs cs;
    CZK_TRY(czk__count_cs_init(&cs, &ci, lc));
    czk_status s = CZK_LC_DISPATCH(lc, czk__porep_synth, (&cs, &x));
    czk__count_cs_clear(&cs);
    CZK_TRY(s);
    memset(out, 0, sizeof *out);
    out->n_inputs = cs.n_inputs;
    out->n_aux = cs.n_aux;
    out->n_circuit_constraints = cs.n_constraints;
    /* bellperson's input constraints (input_i) * 0 = 0: one A term each */
    out->n_constraints = cs.n_constraints + cs.n_inputs;
    for (int m = 0; m < 3; m++) {
        out->terms[m] = ci.terms[m];
        out->nnz[m] = ci.nnz[m];
    }
    out->nnz[0] += cs.n_inputs;
    out->terms[0] += cs.n_inputs;
    return CZK_OK;
}

/* ---- parallel synthesis (par.h): the common part, then the challenges as units
 * of identical cost (czk_porep_sizes' per-challenge cost). */

static czk_status porep_par_top(czk_cs *cs, void *ctx)
{
    porep_par *p = ctx;
    return CZK_LC_DISPATCH(p->lc, czk__porep_top, (cs, &p->x, &p->cm));
}

static czk_status porep_par_unit(czk_cs *cs, void *ctx, uint32_t i)
{
    const porep_par *p = ctx;
    return CZK_LC_DISPATCH(p->lc, czk__porep_one_challenge, (cs, &p->x, &p->cm, i));
}

czk_status czk__porep_par_init(czk__par_circuit *out, porep_par *p, const czk_fc_shape *shape, const czk_fc_c1 *c1,
                                 uint32_t k, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "porep: LC kind %d", (int)lc);
    memset(p, 0, sizeof *p);
    CZK_TRY(porep_ctx_init(&p->x, shape, c1, k));
    p->lc = lc;
    porep_cost top, ch;
    CZK_TRY(porep_cost_parts(&top, &ch, shape));
    memset(out, 0, sizeof *out);
    out->top = (czk__par_cost){top.c, top.a, top.i};
    out->unit = (czk__par_cost){ch.c, ch.a, ch.i};
    out->units = shape->challenges;
    out->lc = lc;
    out->top_fn = porep_par_top;
    out->unit_fn = porep_par_unit;
    out->ctx = p;
    out->what = "porep";
    return CZK_OK;
}

struct czk_porep_prover {
    czk__par_prover *pp;
    czk_fc_shape shape;
    czk_lc_kind lc;
};

czk_status czk_porep_prover_create(czk_porep_prover **out, const czk_fc_shape *shape, czk_lc_kind lc)
{
    *out = NULL;
    porep_par pc;
    czk__par_circuit c;
    CZK_TRY(czk__porep_par_init(&c, &pc, shape, NULL, 0, lc));
    czk_porep_prover *p = calloc(1, sizeof *p);
    if (!p) return czk_error(CZK_ERR_NOMEM, "porep prover: out of memory");
    czk_status s = czk__par_prover_create(&p->pp, &c);
    if (s != CZK_OK) {
        free(p);
        return s;
    }
    p->shape = *shape;
    p->lc = lc;
    *out = p;
    return CZK_OK;
}

void czk_porep_prover_destroy(czk_porep_prover *p)
{
    if (!p) return;
    czk__par_prover_destroy(p->pp);
    free(p);
}

czk_status czk_porep_prover_synthesize(czk_porep_prover *p, const czk_fc_c1 *c1, uint32_t k, int threads)
{
    if (!p || !c1) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: NULL argument");
    porep_par pc;
    czk__par_circuit c;
    CZK_TRY(czk__porep_par_init(&c, &pc, &p->shape, c1, k, p->lc));
    return czk__par_prover_synthesize(p->pp, &c, threads);
}

czk_status czk_porep_prover_get(const czk_porep_prover *p, czk_cs_assignment *out)
{
    if (!p) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: NULL");
    return czk__par_prover_get(p->pp, out);
}

czk_status czk_porep_prover_check(const czk_porep_prover *p, int threads)
{
    if (!p) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: NULL");
    return czk__par_prover_check(p->pp, threads);
}

czk_status czk__porep_witness_par(czk__cs_values *v, const czk_fc_shape *shape, const czk_fc_c1 *c1, uint32_t k,
                                  czk_lc_kind lc, int threads)
{
    if (!v || !shape || !c1) return czk_error(CZK_ERR_INVALID_ARG, "porep witness: NULL argument");
    porep_par pc;
    czk__par_circuit c;
    CZK_TRY(czk__porep_par_init(&c, &pc, shape, c1, k, lc));
    return czk__par_witness(v, &c, threads);
}

czk_status czk__porep_prove_stream(czk__cs_values *v, uint64_t *dens[3], const czk_fc_shape *shape,
                                   const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc, int threads,
                                   czk__porep_rows_fn fn, void *ctx)
{
    if (!v || !dens || !shape || !c1 || !fn) return czk_error(CZK_ERR_INVALID_ARG, "porep prove stream: NULL argument");
    porep_par pc;
    czk__par_circuit c;
    CZK_TRY(czk__porep_par_init(&c, &pc, shape, c1, k, lc));
    return czk__par_prove_stream(v, dens, &c, threads, fn, ctx);
}
