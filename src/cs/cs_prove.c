/* PROVE backend: the assignment bellperson's prover builds (docs/groth16.md).
 *
 * alloc / alloc_input append values; every aux variable adds one bit to the
 * A-aux and B-aux density bitmaps, every input one bit to B-input. enforce
 * evaluates a = <A,w> (marking A-aux bits of aux terms with a non-zero
 * coefficient), b = <B,w> (marking B-input and B-aux bits), c = <C,w> (no
 * density). finalize appends (input_i) * 0 = 0 for every input. */
#include "common/bigmem.h"
#include "cs/cs_eval.h"

typedef struct prove_impl {
    czk__cs_values v;
    czk_fr *a, *b, *c;
    size_t cap_a, cap_b, cap_c;
    uint64_t *a_aux, *b_in, *b_aux; /* bitmaps */
    size_t cap_a_aux, cap_b_in, cap_b_aux; /* in words */
    size_t pop_a_aux, pop_b_in, pop_b_aux;
    int finalized;
} prove_impl;

static czk_status grow_bits(uint64_t **bm, size_t *cap_words, size_t nbits)
{
    size_t words = (nbits + 63) / 64;
    if (words <= *cap_words) return CZK_OK;
    /* the grown words of a big buffer read as zero */
    return czk__cs_reserve_big((void **)bm, cap_words, words, sizeof(uint64_t));
}

static czk_status p_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    prove_impl *p = cs->impl;
    uint32_t i = cs->n_aux;
    if (CZK_UNLIKELY(!value))
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of aux variable %u (%s): no value", i,
                         name ? name : "");
    if (CZK_UNLIKELY(i >= p->v.cap_aux)) {
        if (i >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "more than 2^31 aux variables");
        CZK_TRY(czk__cs_reserve_big((void **)&p->v.aux, &p->v.cap_aux, (size_t)i + 1, sizeof(czk_fr)));
    }
    if (CZK_UNLIKELY(i >= p->cap_a_aux * 64)) {
        CZK_TRY(grow_bits(&p->a_aux, &p->cap_a_aux, p->v.cap_aux));
        CZK_TRY(grow_bits(&p->b_aux, &p->cap_b_aux, p->v.cap_aux));
    }
    p->v.aux[i] = *value;
    cs->n_aux = i + 1;
    *out = czk_var_aux(i);
    return CZK_OK;
}

static czk_status p_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                                uint64_t idx)
{
    prove_impl *p = cs->impl;
    uint32_t i = cs->n_inputs;
    if (!value)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of input %u (%s): no value", i, name ? name : "");
    if (p->finalized) return czk_error(CZK_ERR_INVALID_ARG, "alloc_input after finalize");
    CZK_TRY(czk__cs_reserve_big((void **)&p->v.input, &p->v.cap_input, (size_t)i + 1, sizeof(czk_fr)));
    CZK_TRY(grow_bits(&p->b_in, &p->cap_b_in, (size_t)i + 1));
    p->v.input[i] = *value;
    cs->n_inputs = i + 1;
    *out = czk_var_input(i);
    return CZK_OK;
}

/* acc = sum coeff * value; density marks per docs/groth16.md (cs_eval.h). */
static inline int eval_terms(czk_fr *acc, const czk_lc_term *t, uint32_t n, const czk_fr *vals, uint32_t nvals,
                             uint64_t *bm, size_t *pop)
{
    return czk__lc_eval(acc, t, n, vals, nvals, bm, pop, 0);
}

static czk_status p_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    prove_impl *p = cs->impl;
    size_t r = cs->n_constraints;
    if (CZK_UNLIKELY(r >= p->cap_a)) {
        CZK_TRY(czk__cs_reserve_big((void **)&p->a, &p->cap_a, r + 1, sizeof(czk_fr)));
        CZK_TRY(czk__cs_reserve_big((void **)&p->b, &p->cap_b, r + 1, sizeof(czk_fr)));
        CZK_TRY(czk__cs_reserve_big((void **)&p->c, &p->cap_c, r + 1, sizeof(czk_fr)));
    }
    const czk_fr *in = p->v.input, *aux = p->v.aux;
    uint32_t ni = cs->n_inputs, na = cs->n_aux;
    czk_fr va = CZK_FR_ZERO, vb = CZK_FR_ZERO, vc = CZK_FR_ZERO;
    int ok = eval_terms(&va, a->in, a->n_in, in, ni, NULL, NULL) &
             eval_terms(&va, a->aux, a->n_aux, aux, na, p->a_aux, &p->pop_a_aux) &
             eval_terms(&vb, b->in, b->n_in, in, ni, p->b_in, &p->pop_b_in) &
             eval_terms(&vb, b->aux, b->n_aux, aux, na, p->b_aux, &p->pop_b_aux) &
             eval_terms(&vc, c->in, c->n_in, in, ni, NULL, NULL) &
             eval_terms(&vc, c->aux, c->n_aux, aux, na, NULL, NULL);
    if (CZK_UNLIKELY(!ok))
        return czk_error(CZK_ERR_INVALID_ARG, "constraint %zu (%s): refers to an unallocated variable", r,
                         name ? name : "");
    p->a[r] = va;
    p->b[r] = vb;
    p->c[r] = vc;
    cs->n_constraints = r + 1;
    return CZK_OK;
}

static void p_ns_push(czk_cs *cs, const char *name, uint64_t idx) {}
static void p_ns_pop(czk_cs *cs) {}

static const czk_cs_ops prove_ops = {p_alloc, p_alloc_input, p_enforce, p_ns_push, p_ns_pop};

czk_status czk__cs_prove_create(czk_cs *cs, const czk_cs_sizes *sizes)
{
    prove_impl *p = calloc(1, sizeof(*p));
    if (!p) return czk_error(CZK_ERR_NOMEM, "prove backend: out of memory");
    cs->impl = p;
    cs->ops = &prove_ops;
    cs->has_values = 1;
    cs->needs_constraints = 1;
    cs->wants_names = 0;
    CZK_TRY(czk__cs_values_init(&p->v, sizes));
    if (sizes) {
        size_t nc = sizes->n_constraints + sizes->n_inputs;
        if (nc) {
            CZK_TRY(czk__cs_reserve_big((void **)&p->a, &p->cap_a, nc, sizeof(czk_fr)));
            CZK_TRY(czk__cs_reserve_big((void **)&p->b, &p->cap_b, nc, sizeof(czk_fr)));
            CZK_TRY(czk__cs_reserve_big((void **)&p->c, &p->cap_c, nc, sizeof(czk_fr)));
        }
    }
    CZK_TRY(grow_bits(&p->a_aux, &p->cap_a_aux, p->v.cap_aux));
    CZK_TRY(grow_bits(&p->b_aux, &p->cap_b_aux, p->v.cap_aux));
    CZK_TRY(grow_bits(&p->b_in, &p->cap_b_in, p->v.cap_input));
    return CZK_OK;
}

void czk__cs_prove_destroy(czk_cs *cs)
{
    prove_impl *p = cs->impl;
    czk__cs_values_clear(&p->v);
    czk__big_free(p->a);
    czk__big_free(p->b);
    czk__big_free(p->c);
    czk__big_free(p->a_aux);
    czk__big_free(p->b_in);
    czk__big_free(p->b_aux);
    free(p);
    cs->impl = NULL;
}

void czk__cs_prove_reset(czk_cs *cs)
{
    prove_impl *p = cs->impl;
    if (p->a_aux) memset(p->a_aux, 0, p->cap_a_aux * sizeof(uint64_t));
    if (p->b_aux) memset(p->b_aux, 0, p->cap_b_aux * sizeof(uint64_t));
    if (p->b_in) memset(p->b_in, 0, p->cap_b_in * sizeof(uint64_t));
    p->pop_a_aux = p->pop_b_in = p->pop_b_aux = 0;
    p->finalized = 0;
}

czk_status czk__cs_prove_finalize(czk_cs *cs)
{
    prove_impl *p = cs->impl;
    if (p->finalized) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_finalize called twice");
    size_t n = cs->n_constraints, ni = cs->n_inputs;
    CZK_TRY(czk__cs_reserve_big((void **)&p->a, &p->cap_a, n + ni, sizeof(czk_fr)));
    CZK_TRY(czk__cs_reserve_big((void **)&p->b, &p->cap_b, n + ni, sizeof(czk_fr)));
    CZK_TRY(czk__cs_reserve_big((void **)&p->c, &p->cap_c, n + ni, sizeof(czk_fr)));
    for (size_t i = 0; i < ni; i++) {
        p->a[n + i] = p->v.input[i];
        p->b[n + i] = CZK_FR_ZERO;
        p->c[n + i] = CZK_FR_ZERO;
    }
    cs->n_constraints = n + ni;
    p->finalized = 1;
    return CZK_OK;
}

czk_status czk_cs_prove_get(const czk_cs *cs, czk_cs_assignment *out)
{
    if (cs->backend != CZK_CS_PROVE)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_prove_get on a %s backend", czk_cs_backend_name(cs->backend));
    const prove_impl *p = cs->impl;
    out->input = p->v.input;
    out->n_input = cs->n_inputs;
    out->aux = p->v.aux;
    out->n_aux = cs->n_aux;
    out->a = p->a;
    out->b = p->b;
    out->c = p->c;
    out->n_constraints = cs->n_constraints;
    out->a_aux_density = p->a_aux;
    out->a_aux_popcount = p->pop_a_aux;
    out->b_input_density = p->b_in;
    out->b_input_popcount = p->pop_b_in;
    out->b_aux_density = p->b_aux;
    out->b_aux_popcount = p->pop_b_aux;
    return CZK_OK;
}

czk_status czk_cs_prove_check(const czk_cs *cs)
{
    if (cs->backend != CZK_CS_PROVE)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_prove_check on a %s backend", czk_cs_backend_name(cs->backend));
    const prove_impl *p = cs->impl;
    czk_fr t;
    for (size_t i = 0; i < cs->n_constraints; i++) {
        czk_fr_mul(&t, &p->a[i], &p->b[i]);
        if (!czk_fr_eq(&t, &p->c[i]))
            return czk_error(CZK_ERR_UNSATISFIED, "constraint %zu is not satisfied (a*b != c)", i);
    }
    return CZK_OK;
}

