/* Constraint system: creation, dispatch to backends, shared helpers. */
#include <pthread.h>
#include <stdio.h>
#include <strings.h>

#include "common/bigmem.h"
#include "cs/cs_internal.h"
#include "cs/lc.h"

/* r - R: -1 in Montgomery form (R = 2^256 mod r, docs/bls12-381.md). */
const czk_fr CZK_FR_MINUS_ONE = {{0xfffffffd00000003ull, 0xfb38ec08fffb13fcull, 0x99ad88181ce5880full,
                                  0x5bc8f5f97cd877d8ull}};

/* Powers of two (and their negatives) for the gadgets' bit packing. */
czk_fr czk__pow2_table[256], czk__pow2_neg_table[256];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static void pow2_init(void)
{
    czk__pow2_table[0] = CZK_FR_ONE;
    for (unsigned i = 1; i < 256; i++) czk_fr_dbl(&czk__pow2_table[i], &czk__pow2_table[i - 1]);
    for (unsigned i = 0; i < 256; i++) czk_fr_neg(&czk__pow2_neg_table[i], &czk__pow2_table[i]);
}

/* Filled at load time too, so code that builds LCs before (or without) a
 * czk_cs_create never sees an empty table. */
__attribute__((constructor)) static void pow2_at_load(void)
{
    pthread_once(&pow2_once, pow2_init);
}

static const char *const lc_names[CZK_LC_KIND_COUNT] = {"vec", "inline1", "inline2", "inline4"};
static const char *const backend_names[CZK_CS_BACKEND_COUNT] = {"prove", "shape", "test", "witness"};

const char *czk_lc_kind_name(czk_lc_kind k)
{
    return (unsigned)k < CZK_LC_KIND_COUNT ? lc_names[k] : "?";
}

czk_status czk_lc_kind_parse(czk_lc_kind *out, const char *s)
{
    for (unsigned i = 0; s && i < CZK_LC_KIND_COUNT; i++)
        if (strcasecmp(s, lc_names[i]) == 0) {
            *out = (czk_lc_kind)i;
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG, "unknown LC storage '%s' (vec, inline1, inline2, inline4)",
                     s ? s : "(null)");
}

const char *czk_cs_backend_name(czk_cs_backend b)
{
    return (unsigned)b < CZK_CS_BACKEND_COUNT ? backend_names[b] : "?";
}

czk_status czk_cs_backend_parse(czk_cs_backend *out, const char *s)
{
    for (unsigned i = 0; s && i < CZK_CS_BACKEND_COUNT; i++)
        if (strcasecmp(s, backend_names[i]) == 0) {
            *out = (czk_cs_backend)i;
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG, "unknown constraint-system backend '%s' (prove, shape, test, witness)",
                     s ? s : "(null)");
}

czk_status czk__cs_reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return CZK_OK;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    if (nc > SIZE_MAX / elem) return czk_error(CZK_ERR_NOMEM, "constraint system: %zu elements too many", nc);
    void *q = realloc(*p, nc * elem);
    if (!q) return czk_error(CZK_ERR_NOMEM, "constraint system: cannot grow to %zu elements of %zu bytes", nc, elem);
    *p = q;
    *cap = nc;
    return CZK_OK;
}

czk_status czk__cs_reserve_big(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return CZK_OK;
    size_t nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    if (nc > SIZE_MAX / elem) return czk_error(CZK_ERR_NOMEM, "constraint system: %zu elements too many", nc);
    void *q = czk__big_realloc(*p, nc * elem);
    if (!q) return czk_error(CZK_ERR_NOMEM, "constraint system: cannot grow to %zu elements of %zu bytes", nc, elem);
    *p = q;
    *cap = nc;
    return CZK_OK;
}

czk_status czk__cs_values_init(czk__cs_values *v, const czk_cs_sizes *sizes)
{
    memset(v, 0, sizeof(*v));
    if (sizes) {
        CZK_TRY(czk__cs_reserve_big((void **)&v->input, &v->cap_input, sizes->n_inputs, sizeof(czk_fr)));
        CZK_TRY(czk__cs_reserve_big((void **)&v->aux, &v->cap_aux, sizes->n_aux, sizeof(czk_fr)));
    }
    CZK_TRY(czk__cs_reserve_big((void **)&v->input, &v->cap_input, 1, sizeof(czk_fr)));
    return CZK_OK;
}

void czk__cs_values_clear(czk__cs_values *v)
{
    czk__big_free(v->input);
    czk__big_free(v->aux);
    memset(v, 0, sizeof(*v));
}

size_t czk__lc_size(czk_lc_kind k)
{
    switch (k) {
    case CZK_LC_INLINE1: return sizeof(czk_lc_inline1);
    case CZK_LC_INLINE2: return sizeof(czk_lc_inline2);
    case CZK_LC_INLINE4: return sizeof(czk_lc_inline4);
    default: return sizeof(czk_lc_vec);
    }
}

void *czk__lc_scratch_create(czk_lc_kind k) { return calloc(CZK_CS_SCRATCH, czk__lc_size(k)); }

void czk__lc_scratch_destroy(czk_lc_kind k, void *lcs)
{
    if (!lcs) return;
    CZK_LC_DISPATCH(k, czk__lc_free_n, (lcs, CZK_CS_SCRATCH));
    free(lcs);
}

static czk_status alloc_one(czk_cs *cs)
{
    czk_var one;
    CZK_TRY(czk__cs_alloc_input(cs, &one, &CZK_FR_ONE, "ONE", CZK_NOIDX));
    if (one != CZK_VAR_ONE) return czk_error(CZK_ERR_INTERNAL, "ONE allocated as %#x", one);
    return CZK_OK;
}

czk_status czk_cs_create(czk_cs **out, czk_cs_backend backend, czk_lc_kind lc, const czk_cs_sizes *sizes)
{
    *out = NULL;
    if ((unsigned)backend >= CZK_CS_BACKEND_COUNT)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_create: backend %d out of range", (int)backend);
    if ((unsigned)lc >= CZK_LC_KIND_COUNT)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_create: LC kind %d out of range", (int)lc);
    pthread_once(&pow2_once, pow2_init);
    czk_cs *cs = calloc(1, sizeof(*cs));
    if (!cs) return czk_error(CZK_ERR_NOMEM, "czk_cs_create: out of memory");
    cs->backend = backend;
    cs->lc_kind = lc;
    cs->lc_scratch = czk__lc_scratch_create(lc);
    czk_status s = cs->lc_scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "czk_cs_create: out of memory");
    if (s == CZK_OK) {
        switch (backend) {
        case CZK_CS_PROVE: s = czk__cs_prove_create(cs, sizes); break;
        case CZK_CS_SHAPE: s = czk__cs_shape_create(cs, sizes); break;
        case CZK_CS_TEST: s = czk__cs_test_create(cs, sizes); break;
        default: s = czk__cs_witness_create(cs, sizes); break;
        }
    }
    if (s == CZK_OK) s = alloc_one(cs);
    if (s != CZK_OK) {
        czk_cs_destroy(cs);
        return s;
    }
    *out = cs;
    return CZK_OK;
}

void czk_cs_destroy(czk_cs *cs)
{
    if (!cs) return;
    if (cs->impl) {
        switch (cs->backend) {
        case CZK_CS_PROVE: czk__cs_prove_destroy(cs); break;
        case CZK_CS_SHAPE: czk__cs_shape_destroy(cs); break;
        case CZK_CS_TEST: czk__cs_test_destroy(cs); break;
        default: czk__cs_witness_destroy(cs); break;
        }
    }
    czk__lc_scratch_destroy(cs->lc_kind, cs->lc_scratch);
    free(cs);
}

void czk_cs_reset(czk_cs *cs)
{
    switch (cs->backend) {
    case CZK_CS_PROVE: czk__cs_prove_reset(cs); break;
    case CZK_CS_SHAPE: czk__cs_shape_reset(cs); break;
    case CZK_CS_TEST: czk__cs_test_reset(cs); break;
    default: czk__cs_witness_reset(cs); break;
    }
    cs->n_inputs = 0;
    cs->n_aux = 0;
    cs->n_constraints = 0;
    czk_status s = alloc_one(cs);
    CZK_ASSERT(s == CZK_OK);
    (void)s;
}

czk_status czk_cs_finalize(czk_cs *cs)
{
    switch (cs->backend) {
    case CZK_CS_PROVE: return czk__cs_prove_finalize(cs);
    case CZK_CS_SHAPE: return czk__cs_shape_finalize(cs);
    default: return CZK_OK;
    }
}

czk_status czk_cs_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                          const char *name, uint64_t idx)
{
    return czk__cs_enforce(cs, a, b, c, name, idx);
}

czk_status czk_cs_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    return czk__cs_alloc(cs, out, value, name, idx);
}

czk_status czk_cs_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    return czk__cs_alloc_input(cs, out, value, name, idx);
}

void czk_cs_ns_push(czk_cs *cs, const char *name, uint64_t idx) { czk__cs_ns_push(cs, name, idx); }
void czk_cs_ns_pop(czk_cs *cs) { czk__cs_ns_pop(cs); }
int czk_cs_has_values(const czk_cs *cs) { return czk__cs_has_values(cs); }
int czk_cs_needs_constraints(const czk_cs *cs) { return czk__cs_needs_constraints(cs); }

void czk_cs_counts(const czk_cs *cs, czk_cs_sizes *out)
{
    out->n_inputs = cs->n_inputs;
    out->n_aux = cs->n_aux;
    out->n_constraints = cs->n_constraints;
}

czk_status czk_cs_value(const czk_cs *cs, czk_fr *out, czk_var v)
{
    const czk__cs_values *vals = czk__cs_values_of(cs);
    if (!vals)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_value: the %s backend keeps no values",
                         czk_cs_backend_name(cs->backend));
    uint32_t i = czk_var_index(v);
    if (czk_var_is_input(v)) {
        if (i >= cs->n_inputs) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_value: no input %u", i);
        *out = vals->input[i];
    } else {
        if (i >= cs->n_aux) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_value: no aux variable %u", i);
        *out = vals->aux[i];
    }
    return CZK_OK;
}

void czk_lc_view_eval(czk_fr *out, const czk_lc_view *lc, const czk_fr *input, const czk_fr *aux)
{
    czk_fr acc = CZK_FR_ZERO, t;
    for (uint32_t i = 0; i < lc->n_in; i++) {
        const czk_lc_term *e = &lc->in[i];
        if (czk__fr_is_zero(&e->coeff)) continue;
        if (czk__fr_is_one(&e->coeff)) czk_fr_add(&acc, &acc, &input[e->index]);
        else {
            czk_fr_mul(&t, &input[e->index], &e->coeff);
            czk_fr_add(&acc, &acc, &t);
        }
    }
    for (uint32_t i = 0; i < lc->n_aux; i++) {
        const czk_lc_term *e = &lc->aux[i];
        if (czk__fr_is_zero(&e->coeff)) continue;
        if (czk__fr_is_one(&e->coeff)) czk_fr_add(&acc, &acc, &aux[e->index]);
        else {
            czk_fr_mul(&t, &aux[e->index], &e->coeff);
            czk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

/* PROVE, TEST and WITNESS keep a czk__cs_values as the first member of impl. */
const czk__cs_values *czk__cs_values_of(const czk_cs *cs)
{
    if (cs->backend == CZK_CS_SHAPE || !cs->impl) return NULL;
    return (const czk__cs_values *)cs->impl;
}
