/* czk — the StackedDRG PoRep partition circuit (czk/porep.h): shape checks,
 * per-variant dispatch, exact sizes, public inputs, and a counting backend.
 * The synthesis itself is porep_lcv.c, compiled once per LC variant; the size
 * formula is derived in src/circuits/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/count.h"
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
    if (czk_cs_has_values(cs) && !c1)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "porep: the %s backend needs the C1 data (c1 is NULL)",
                         czk_cs_backend_name(cs->backend));
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, czk_cs_has_values(cs) ? c1 : NULL, k));
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

static inline int fr_nonzero(const czk_fr *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) != 0;
}

/* ---- parallel PROVE synthesis of one partition ----------------------------------
 * Every challenge allocates the same numbers of aux variables, inputs and
 * constraints (czk_porep_sizes' per-challenge cost), so challenge i's
 * variables and rows start at known offsets: top + i * per-challenge. Each
 * thread synthesizes whole challenges through a constraint system whose
 * counters start at those offsets and whose backend writes values, a/b/c
 * evaluations and density bits straight into the partition's vectors. The
 * result is bit for bit the sequential PROVE backend's (tested), with no
 * merge step. The evaluation and density rules are the PROVE backend's
 * (docs/groth16.md; src/cs/cs_prove.c). */

typedef struct par_shared {
    czk__cs_values v; /* first: czk_cs_value reads the values through it */
    czk_fr *a, *b, *c; /* rows [row0, row0 + row_cap) */
    uint64_t row0, row_cap;
    uint64_t *a_aux, *b_in, *b_aux;
} par_shared;

struct czk_porep_prover {
    par_shared sh;
    czk_fc_shape shape;
    czk_lc_kind lc;
    porep_cost top, ch;
    uint64_t n_inputs, n_aux, n_rows; /* n_rows includes the input constraints */
    size_t words_aux, words_in;
    size_t pop_a_aux, pop_b_in, pop_b_aux;
    int done;
};

/* Allocation writes the value in place; cs->impl starts with the partition's
 * czk__cs_values (par_shared here, the bare values in the witness-only path). */
static czk_status par_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)idx;
    czk__cs_values *v = cs->impl;
    uint32_t i = cs->n_aux;
    if (CZK_UNLIKELY(!value))
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of aux variable %u (%s): no value", i, name ? name : "");
    if (CZK_UNLIKELY(i >= v->cap_aux))
        return czk_error(CZK_ERR_INTERNAL, "porep partition: aux variable %u beyond the partition's %zu", i,
                         v->cap_aux);
    v->aux[i] = *value;
    cs->n_aux = i + 1;
    *out = czk_var_aux(i);
    return CZK_OK;
}

static czk_status par_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)idx;
    czk__cs_values *v = cs->impl;
    uint32_t i = cs->n_inputs;
    if (!value) return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of input %u (%s): no value", i, name ? name : "");
    if (i >= v->cap_input)
        return czk_error(CZK_ERR_INTERNAL, "porep partition: input %u beyond the partition's %zu", i, v->cap_input);
    v->input[i] = *value;
    cs->n_inputs = i + 1;
    *out = czk_var_input(i);
    return CZK_OK;
}

/* Neighbouring challenges share bitmap words at their boundaries, and the
 * common variables' bits: set bits atomically (read first: mostly set). */
static inline void par_mark(uint64_t *bm, uint32_t i)
{
    uint64_t m = (uint64_t)1 << (i & 63);
    if (!(__atomic_load_n(&bm[i >> 6], __ATOMIC_RELAXED) & m)) __atomic_fetch_or(&bm[i >> 6], m, __ATOMIC_RELAXED);
}

static inline int par_eval(czk_fr *acc, const czk_lc_term *t, uint32_t n, const czk_fr *vals, uint32_t nvals,
                           uint64_t *bm)
{
    czk_fr tmp;
    for (uint32_t k = 0; k < n; k++) {
        const czk_lc_term *e = &t[k];
        if (CZK_UNLIKELY(e->index >= nvals)) return 0;
        if (!fr_nonzero(&e->coeff)) continue;
        const czk_fr *v = &vals[e->index];
        uint64_t hi = v->l[1] | v->l[2] | v->l[3];
        if ((v->l[0] == 0 && hi == 0) || czk_fr_is_one(v)) {
            /* value 0 or 1: add coeff & mask */
            uint64_t m = (uint64_t)0 - (uint64_t)(v->l[0] != 0);
            tmp.l[0] = e->coeff.l[0] & m;
            tmp.l[1] = e->coeff.l[1] & m;
            tmp.l[2] = e->coeff.l[2] & m;
            tmp.l[3] = e->coeff.l[3] & m;
            czk__fr_add(acc, acc, &tmp);
        } else if (czk_fr_is_one(&e->coeff)) {
            czk__fr_add(acc, acc, v);
        } else if (czk_fr_eq(&e->coeff, &CZK_FR_MINUS_ONE)) {
            czk__fr_sub(acc, acc, v);
        } else {
            czk__fr_mul(&tmp, v, &e->coeff);
            czk__fr_add(acc, acc, &tmp);
        }
        if (bm) par_mark(bm, e->index);
    }
    return 1;
}

static czk_status par_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                              const char *name, uint64_t idx)
{
    (void)idx;
    par_shared *p = cs->impl;
    uint64_t r = cs->n_constraints;
    const czk_fr *in = p->v.input, *aux = p->v.aux;
    uint32_t ni = cs->n_inputs, na = cs->n_aux;
    czk_fr va = CZK_FR_ZERO, vb = CZK_FR_ZERO, vc = CZK_FR_ZERO;
    int ok = par_eval(&va, a->in, a->n_in, in, ni, NULL) & par_eval(&va, a->aux, a->n_aux, aux, na, p->a_aux) &
             par_eval(&vb, b->in, b->n_in, in, ni, p->b_in) & par_eval(&vb, b->aux, b->n_aux, aux, na, p->b_aux) &
             par_eval(&vc, c->in, c->n_in, in, ni, NULL) & par_eval(&vc, c->aux, c->n_aux, aux, na, NULL);
    if (CZK_UNLIKELY(!ok))
        return czk_error(CZK_ERR_INVALID_ARG, "constraint %llu (%s): refers to an unallocated variable",
                         (unsigned long long)r, name ? name : "");
    if (CZK_UNLIKELY(r - p->row0 >= p->row_cap))
        return czk_error(CZK_ERR_INTERNAL, "porep prover: constraint %llu outside the rows [%llu, %llu) held",
                         (unsigned long long)r, (unsigned long long)p->row0, (unsigned long long)(p->row0 + p->row_cap));
    p->a[r - p->row0] = va;
    p->b[r - p->row0] = vb;
    p->c[r - p->row0] = vc;
    cs->n_constraints = r + 1;
    return CZK_OK;
}

static const czk_cs_ops par_ops = {par_alloc, par_alloc_input, par_enforce, czk__cs_ns_push_none, czk__cs_ns_pop_none};

czk_status czk_porep_prover_create(czk_porep_prover **out, const czk_fc_shape *shape, czk_lc_kind lc)
{
    *out = NULL;
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: LC kind %d", (int)lc);
    CZK_TRY(czk__cs_tables_init());
    czk_porep_prover *p = calloc(1, sizeof *p);
    if (!p) return czk_error(CZK_ERR_NOMEM, "porep prover: out of memory");
    czk_status s = porep_cost_parts(&p->top, &p->ch, shape);
    if (s != CZK_OK) {
        free(p);
        return s;
    }
    p->shape = *shape;
    p->lc = lc;
    p->n_inputs = p->top.i + p->ch.i * shape->challenges;
    p->n_aux = p->top.a + p->ch.a * shape->challenges;
    p->n_rows = p->top.c + p->ch.c * shape->challenges + p->n_inputs;
    p->words_aux = (size_t)(p->n_aux + 63) / 64;
    p->words_in = (size_t)(p->n_inputs + 63) / 64;
    par_shared *h = &p->sh;
    h->v.input = malloc((size_t)p->n_inputs * sizeof(czk_fr));
    h->v.aux = malloc((size_t)p->n_aux * sizeof(czk_fr));
    h->v.cap_input = (size_t)p->n_inputs;
    h->v.cap_aux = (size_t)p->n_aux;
    h->a = malloc((size_t)p->n_rows * sizeof(czk_fr));
    h->b = malloc((size_t)p->n_rows * sizeof(czk_fr));
    h->c = malloc((size_t)p->n_rows * sizeof(czk_fr));
    h->a_aux = calloc(p->words_aux, sizeof(uint64_t));
    h->b_aux = calloc(p->words_aux, sizeof(uint64_t));
    h->b_in = calloc(p->words_in, sizeof(uint64_t));
    h->row0 = 0;
    h->row_cap = p->n_rows;
    if (!h->v.input || !h->v.aux || !h->a || !h->b || !h->c || !h->a_aux || !h->b_aux || !h->b_in) {
        czk_porep_prover_destroy(p);
        return czk_error(CZK_ERR_NOMEM, "porep prover: cannot allocate the vectors of %llu constraints",
                         (unsigned long long)(p->top.c + p->ch.c * shape->challenges));
    }
    /* touch every page now (in parallel), not during the first synthesis */
    const size_t chunk = (size_t)1 << 20;
    const size_t nr = (size_t)p->n_rows, na = (size_t)p->n_aux;
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t off = 0; off < nr; off += chunk) {
        size_t m = nr - off < chunk ? nr - off : chunk;
        memset(h->a + off, 0, m * sizeof(czk_fr));
        memset(h->b + off, 0, m * sizeof(czk_fr));
        memset(h->c + off, 0, m * sizeof(czk_fr));
        if (off < na) memset(h->v.aux + off, 0, (na - off < chunk ? na - off : chunk) * sizeof(czk_fr));
    }
    for (size_t off = nr; off < na; off += chunk)
        memset(h->v.aux + off, 0, (na - off < chunk ? na - off : chunk) * sizeof(czk_fr));
    *out = p;
    return CZK_OK;
}

void czk_porep_prover_destroy(czk_porep_prover *p)
{
    if (!p) return;
    free(p->sh.v.input);
    free(p->sh.v.aux);
    free(p->sh.a);
    free(p->sh.b);
    free(p->sh.c);
    free(p->sh.a_aux);
    free(p->sh.b_aux);
    free(p->sh.b_in);
    free(p);
}

static void par_cs_init(czk_cs *cs, par_shared *sh, czk_lc_kind lc, void *scratch)
{
    memset(cs, 0, sizeof *cs);
    cs->ops = &par_ops;
    cs->backend = CZK_CS_PROVE;
    cs->lc_kind = lc;
    cs->has_values = 1;
    cs->needs_constraints = 1;
    cs->impl = sh;
    cs->lc_scratch = scratch;
}

static czk_status par_expect(const czk_cs *cs, uint64_t c, uint64_t a, uint64_t i, const char *what, uint32_t ch)
{
    if (cs->n_constraints == c && cs->n_aux == a && cs->n_inputs == i) return CZK_OK;
    return czk_error(CZK_ERR_INTERNAL,
                     "porep prover: %s %u ended at constraint %llu, aux %u, input %u; expected %llu, %llu, %llu", what,
                     ch, (unsigned long long)cs->n_constraints, cs->n_aux, cs->n_inputs, (unsigned long long)c,
                     (unsigned long long)a, (unsigned long long)i);
}

static size_t popcount_words(const uint64_t *w, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++) t += (size_t)__builtin_popcountll(w[i]);
    return t;
}

czk_status czk_porep_prover_synthesize(czk_porep_prover *p, const czk_fc_c1 *c1, uint32_t k, int threads)
{
    if (!p || !c1) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: NULL argument");
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, &p->shape, c1, k));
    par_shared *h = &p->sh;
    memset(h->a_aux, 0, p->words_aux * sizeof(uint64_t));
    memset(h->b_aux, 0, p->words_aux * sizeof(uint64_t));
    memset(h->b_in, 0, p->words_in * sizeof(uint64_t));
    p->done = 0;

    porep_common cm;
    czk_status st;
    {
        void *scratch = czk__lc_scratch_create(p->lc);
        if (!scratch) return czk_error(CZK_ERR_NOMEM, "porep prover: out of memory");
        czk_cs cs;
        par_cs_init(&cs, &p->sh, p->lc, scratch);
        h->v.input[0] = CZK_FR_ONE;
        cs.n_inputs = 1;
        st = CZK_LC_DISPATCH(p->lc, czk__porep_top, (&cs, &x, &cm));
        if (st == CZK_OK) st = par_expect(&cs, p->top.c, p->top.a, p->top.i, "the common part", 0);
        czk__lc_scratch_destroy(p->lc, scratch);
        CZK_TRY(st);
    }

    const uint32_t n = x.challenges;
    if (threads < 1) threads = 1;
    if ((uint32_t)threads > n) threads = (int)n;
    czk_status first_err = CZK_OK;
    char msg[512] = "";
#pragma omp parallel num_threads(threads)
    {
        void *scratch = czk__lc_scratch_create(p->lc);
        czk_status ts = scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "porep prover: out of memory");
#pragma omp for schedule(dynamic, 1)
        for (uint32_t i = 0; i < n; i++) {
            if (ts != CZK_OK || __atomic_load_n(&first_err, __ATOMIC_RELAXED) != CZK_OK) continue;
            czk_cs cs;
            par_cs_init(&cs, &p->sh, p->lc, scratch);
            cs.n_constraints = p->top.c + (uint64_t)i * p->ch.c;
            cs.n_aux = (uint32_t)(p->top.a + (uint64_t)i * p->ch.a);
            cs.n_inputs = (uint32_t)(p->top.i + (uint64_t)i * p->ch.i);
            ts = CZK_LC_DISPATCH(p->lc, czk__porep_one_challenge, (&cs, &x, &cm, i));
            if (ts == CZK_OK)
                ts = par_expect(&cs, p->top.c + (uint64_t)(i + 1) * p->ch.c,
                                p->top.a + (uint64_t)(i + 1) * p->ch.a, p->top.i + (uint64_t)(i + 1) * p->ch.i,
                                "challenge", i);
        }
        if (ts != CZK_OK) {
#pragma omp critical(czk_porep_prover_err)
            if (first_err == CZK_OK) {
                first_err = ts;
                snprintf(msg, sizeof msg, "%s", czk_last_error());
            }
        }
        czk__lc_scratch_destroy(p->lc, scratch);
    }
    if (first_err != CZK_OK) return czk_error(first_err, "%s", msg);

    /* bellperson's input constraints (input_i) * 0 = 0 */
    const uint64_t r0 = p->n_rows - p->n_inputs;
    for (uint64_t i = 0; i < p->n_inputs; i++) {
        h->a[r0 + i] = h->v.input[i];
        h->b[r0 + i] = CZK_FR_ZERO;
        h->c[r0 + i] = CZK_FR_ZERO;
    }
    p->pop_a_aux = popcount_words(h->a_aux, p->words_aux);
    p->pop_b_aux = popcount_words(h->b_aux, p->words_aux);
    p->pop_b_in = popcount_words(h->b_in, p->words_in);
    p->done = 1;
    return CZK_OK;
}

czk_status czk_porep_prover_get(const czk_porep_prover *p, czk_cs_assignment *out)
{
    if (!p || !p->done) return czk_error(CZK_ERR_INVALID_ARG, "porep prover: nothing synthesized");
    const par_shared *h = &p->sh;
    out->input = h->v.input;
    out->n_input = (size_t)p->n_inputs;
    out->aux = h->v.aux;
    out->n_aux = (size_t)p->n_aux;
    out->a = h->a;
    out->b = h->b;
    out->c = h->c;
    out->n_constraints = (size_t)p->n_rows;
    out->a_aux_density = h->a_aux;
    out->a_aux_popcount = p->pop_a_aux;
    out->b_input_density = h->b_in;
    out->b_input_popcount = p->pop_b_in;
    out->b_aux_density = h->b_aux;
    out->b_aux_popcount = p->pop_b_aux;
    return CZK_OK;
}

czk_status czk_porep_prover_check(const czk_porep_prover *p, int threads)
{
    czk_cs_assignment a;
    CZK_TRY(czk_porep_prover_get(p, &a));
    int64_t bad = -1;
    if (threads < 1) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : bad)
    for (int64_t r = 0; r < (int64_t)a.n_constraints; r++) {
        czk_fr t;
        czk_fr_mul(&t, &a.a[r], &a.b[r]);
        if (!czk_fr_eq(&t, &a.c[r]) && bad < 0) bad = r;
    }
    if (bad >= 0) return czk_error(CZK_ERR_UNSATISFIED, "porep prover: row %lld: a * b != c", (long long)bad);
    return CZK_OK;
}

/* ---- parallel witness-only synthesis of one partition ----------------------------
 * As the parallel prover above, with WITNESS semantics: each thread
 * synthesizes whole challenges through a constraint system whose aux and
 * input counters start at the challenge's offsets and whose alloc writes the
 * value in place; no LC is built and nothing is evaluated. The vectors equal
 * the sequential WITNESS backend's bit for bit (tests/pce/test_pce_porep.c). */

static czk_status pw_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                             const char *name, uint64_t idx)
{
    (void)a, (void)b, (void)c, (void)name, (void)idx;
    cs->n_constraints++;
    return CZK_OK;
}

static const czk_cs_ops pw_ops = {par_alloc, par_alloc_input, pw_enforce, czk__cs_ns_push_none, czk__cs_ns_pop_none};

static void pw_cs_init(czk_cs *cs, czk__cs_values *v, czk_lc_kind lc, void *scratch)
{
    memset(cs, 0, sizeof *cs);
    cs->ops = &pw_ops;
    cs->backend = CZK_CS_WITNESS;
    cs->lc_kind = lc;
    cs->has_values = 1;
    cs->needs_constraints = 0;
    cs->impl = v;
    cs->lc_scratch = scratch;
}

static czk_status pw_expect(const czk_cs *cs, uint64_t a, uint64_t i, const char *what, uint32_t ch)
{
    if (cs->n_aux == a && cs->n_inputs == i) return CZK_OK;
    return czk_error(CZK_ERR_INTERNAL, "porep witness: %s %u ended at aux %u, input %u; expected %llu, %llu", what, ch,
                     cs->n_aux, cs->n_inputs, (unsigned long long)a, (unsigned long long)i);
}

czk_status czk__porep_witness_par(czk__cs_values *v, const czk_fc_shape *shape, const czk_fc_c1 *c1, uint32_t k,
                                  czk_lc_kind lc, int threads)
{
    if (!v || !shape || !c1) return czk_error(CZK_ERR_INVALID_ARG, "porep witness: NULL argument");
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "porep witness: LC kind %d", (int)lc);
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, c1, k));
    CZK_TRY(czk__cs_tables_init());
    porep_cost top, ch;
    CZK_TRY(porep_cost_parts(&top, &ch, shape));
    const uint32_t n = x.challenges;
    if (v->cap_input < top.i + ch.i * n || v->cap_aux < top.a + ch.a * n)
        return czk_error(CZK_ERR_INVALID_ARG, "porep witness: vectors of %zu inputs, %zu aux; the partition has %llu, %llu",
                         v->cap_input, v->cap_aux, (unsigned long long)(top.i + ch.i * n),
                         (unsigned long long)(top.a + ch.a * n));
    porep_common cm;
    {
        void *scratch = czk__lc_scratch_create(lc);
        if (!scratch) return czk_error(CZK_ERR_NOMEM, "porep witness: out of memory");
        czk_cs cs;
        pw_cs_init(&cs, v, lc, scratch);
        v->input[0] = CZK_FR_ONE;
        cs.n_inputs = 1;
        czk_status st = CZK_LC_DISPATCH(lc, czk__porep_top, (&cs, &x, &cm));
        if (st == CZK_OK) st = pw_expect(&cs, top.a, top.i, "the common part", 0);
        czk__lc_scratch_destroy(lc, scratch);
        CZK_TRY(st);
    }
    if (threads < 1) threads = 1;
    if ((uint32_t)threads > n) threads = (int)n;
    czk_status first_err = CZK_OK;
    char msg[512] = "";
#pragma omp parallel num_threads(threads)
    {
        void *scratch = czk__lc_scratch_create(lc);
        czk_status ts = scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "porep witness: out of memory");
#pragma omp for schedule(dynamic, 1)
        for (uint32_t i = 0; i < n; i++) {
            if (ts != CZK_OK || __atomic_load_n(&first_err, __ATOMIC_RELAXED) != CZK_OK) continue;
            czk_cs cs;
            pw_cs_init(&cs, v, lc, scratch);
            cs.n_aux = (uint32_t)(top.a + (uint64_t)i * ch.a);
            cs.n_inputs = (uint32_t)(top.i + (uint64_t)i * ch.i);
            ts = CZK_LC_DISPATCH(lc, czk__porep_one_challenge, (&cs, &x, &cm, i));
            if (ts == CZK_OK)
                ts = pw_expect(&cs, top.a + (uint64_t)(i + 1) * ch.a, top.i + (uint64_t)(i + 1) * ch.i, "challenge", i);
        }
        if (ts != CZK_OK) {
#pragma omp critical(czk_porep_witness_err)
            if (first_err == CZK_OK) {
                first_err = ts;
                snprintf(msg, sizeof msg, "%s", czk_last_error());
            }
        }
        czk__lc_scratch_destroy(lc, scratch);
    }
    if (first_err != CZK_OK) return czk_error(first_err, "%s", msg);
    return CZK_OK;
}

/* ---- PROVE synthesis streamed by row windows -------------------------------------
 * The parallel prover's backend with a/b/c held only for a window of rows:
 * the common part, then `threads` challenges at a time (their rows are
 * consecutive), then the input constraints, each window handed to fn. */
czk_status czk__porep_prove_stream(czk__cs_values *v, uint64_t *dens[3], const czk_fc_shape *shape,
                                   const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc, int threads,
                                   czk__porep_rows_fn fn, void *ctx)
{
    if (!v || !dens || !shape || !c1 || !fn) return czk_error(CZK_ERR_INVALID_ARG, "porep prove stream: NULL argument");
    if ((unsigned)lc >= CZK_LC_KIND_COUNT)
        return czk_error(CZK_ERR_INVALID_ARG, "porep prove stream: LC kind %d", (int)lc);
    porep_ctx x;
    CZK_TRY(porep_ctx_init(&x, shape, c1, k));
    CZK_TRY(czk__cs_tables_init());
    porep_cost top, ch;
    CZK_TRY(porep_cost_parts(&top, &ch, shape));
    const uint32_t n = x.challenges;
    const uint64_t n_in = top.i + ch.i * n, n_aux = top.a + ch.a * n, rows_end = top.c + ch.c * n;
    if (v->cap_input < n_in || v->cap_aux < n_aux)
        return czk_error(CZK_ERR_INVALID_ARG, "porep prove stream: vectors of %zu inputs, %zu aux; the partition has %llu, %llu",
                         v->cap_input, v->cap_aux, (unsigned long long)n_in, (unsigned long long)n_aux);
    if (threads < 1) threads = 1;
    if ((uint32_t)threads > n) threads = (int)n;
    uint64_t win = ch.c * (uint64_t)threads;
    if (win < top.c) win = top.c;
    if (win < n_in) win = n_in;
    par_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.v = *v;
    sh.a_aux = dens[0];
    sh.b_in = dens[1];
    sh.b_aux = dens[2];
    sh.row_cap = win;
    sh.a = malloc((size_t)win * sizeof(czk_fr));
    sh.b = malloc((size_t)win * sizeof(czk_fr));
    sh.c = malloc((size_t)win * sizeof(czk_fr));
    czk_status st = CZK_OK;
    porep_common cm;
    if (!sh.a || !sh.b || !sh.c) st = czk_error(CZK_ERR_NOMEM, "porep prove stream: a, b, c windows of %llu rows",
                                                (unsigned long long)win);
    if (st == CZK_OK) {
        void *scratch = czk__lc_scratch_create(lc);
        if (!scratch) st = czk_error(CZK_ERR_NOMEM, "porep prove stream: out of memory");
        else {
            czk_cs cs;
            par_cs_init(&cs, &sh, lc, scratch);
            sh.v.input[0] = CZK_FR_ONE;
            cs.n_inputs = 1;
            st = CZK_LC_DISPATCH(lc, czk__porep_top, (&cs, &x, &cm));
            if (st == CZK_OK) st = par_expect(&cs, top.c, top.a, top.i, "the common part", 0);
            czk__lc_scratch_destroy(lc, scratch);
        }
    }
    if (st == CZK_OK) st = fn(ctx, 0, top.c, sh.a, sh.b, sh.c);
    for (uint32_t i0 = 0; i0 < n && st == CZK_OK; i0 += (uint32_t)threads) {
        const uint32_t m = n - i0 < (uint32_t)threads ? n - i0 : (uint32_t)threads;
        sh.row0 = top.c + (uint64_t)i0 * ch.c;
        czk_status first_err = CZK_OK;
        char msg[512] = "";
#pragma omp parallel num_threads(m)
        {
            void *scratch = czk__lc_scratch_create(lc);
            czk_status ts = scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "porep prove stream: out of memory");
#pragma omp for schedule(static, 1)
            for (uint32_t j = 0; j < m; j++) {
                const uint32_t i = i0 + j;
                if (ts != CZK_OK) continue;
                czk_cs cs;
                par_cs_init(&cs, &sh, lc, scratch);
                cs.n_constraints = top.c + (uint64_t)i * ch.c;
                cs.n_aux = (uint32_t)(top.a + (uint64_t)i * ch.a);
                cs.n_inputs = (uint32_t)(top.i + (uint64_t)i * ch.i);
                ts = CZK_LC_DISPATCH(lc, czk__porep_one_challenge, (&cs, &x, &cm, i));
                if (ts == CZK_OK)
                    ts = par_expect(&cs, top.c + (uint64_t)(i + 1) * ch.c, top.a + (uint64_t)(i + 1) * ch.a,
                                    top.i + (uint64_t)(i + 1) * ch.i, "challenge", i);
            }
            if (ts != CZK_OK) {
#pragma omp critical(czk_porep_stream_err)
                if (first_err == CZK_OK) {
                    first_err = ts;
                    snprintf(msg, sizeof msg, "%s", czk_last_error());
                }
            }
            czk__lc_scratch_destroy(lc, scratch);
        }
        if (first_err != CZK_OK) st = czk_error(first_err, "%s", msg);
        else st = fn(ctx, sh.row0, sh.row0 + (uint64_t)m * ch.c, sh.a, sh.b, sh.c);
    }
    if (st == CZK_OK) {
        /* bellperson's input constraints (input_i) * 0 = 0 */
        for (uint64_t i = 0; i < n_in; i++) {
            sh.a[i] = sh.v.input[i];
            sh.b[i] = CZK_FR_ZERO;
            sh.c[i] = CZK_FR_ZERO;
        }
        st = fn(ctx, rows_end, rows_end + n_in, sh.a, sh.b, sh.c);
    }
    free(sh.a);
    free(sh.b);
    free(sh.c);
    return st;
}
