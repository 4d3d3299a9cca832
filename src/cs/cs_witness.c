/* WITNESS backend: values only; enforce does nothing (and gadgets, seeing
 * needs_constraints == 0, do not build the LCs). */
#include "cs/cs_internal.h"

typedef struct witness_impl {
    czk__cs_values v;
} witness_impl;

static czk_status w_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    witness_impl *w = cs->impl;
    uint32_t i = cs->n_aux;
    if (CZK_UNLIKELY(!value))
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of aux variable %u (%s): no value", i,
                         name ? name : "");
    if (CZK_UNLIKELY(i >= w->v.cap_aux)) {
        if (i >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "more than 2^31 aux variables");
        CZK_TRY(czk__cs_reserve_big((void **)&w->v.aux, &w->v.cap_aux, (size_t)i + 1, sizeof(czk_fr)));
    }
    w->v.aux[i] = *value;
    cs->n_aux = i + 1;
    *out = czk_var_aux(i);
    return CZK_OK;
}

static czk_status w_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name,
                                uint64_t idx)
{
    witness_impl *w = cs->impl;
    uint32_t i = cs->n_inputs;
    if (!value)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of input %u (%s): no value", i, name ? name : "");
    CZK_TRY(czk__cs_reserve_big((void **)&w->v.input, &w->v.cap_input, (size_t)i + 1, sizeof(czk_fr)));
    w->v.input[i] = *value;
    cs->n_inputs = i + 1;
    *out = czk_var_input(i);
    return CZK_OK;
}

static czk_status w_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    cs->n_constraints++;
    return CZK_OK;
}

static void w_ns_push(czk_cs *cs, const char *name, uint64_t idx) {}
static void w_ns_pop(czk_cs *cs) {}

static const czk_cs_ops witness_ops = {w_alloc, w_alloc_input, w_enforce, w_ns_push, w_ns_pop};

czk_status czk__cs_witness_create(czk_cs *cs, const czk_cs_sizes *sizes)
{
    witness_impl *w = calloc(1, sizeof(*w));
    if (!w) return czk_error(CZK_ERR_NOMEM, "witness backend: out of memory");
    cs->impl = w;
    cs->ops = &witness_ops;
    cs->has_values = 1;
    cs->needs_constraints = 0;
    cs->wants_names = 0;
    return czk__cs_values_init(&w->v, sizes);
}

void czk__cs_witness_destroy(czk_cs *cs)
{
    witness_impl *w = cs->impl;
    czk__cs_values_clear(&w->v);
    free(w);
    cs->impl = NULL;
}

void czk__cs_witness_reset(czk_cs *cs) {}

czk_status czk_cs_witness_get(const czk_cs *cs, const czk_fr **input, size_t *n_input, const czk_fr **aux,
                              size_t *n_aux)
{
    const czk__cs_values *v = czk__cs_values_of(cs);
    if (!v) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_witness_get: the shape backend keeps no values");
    *input = v->input;
    *n_input = cs->n_inputs;
    *aux = v->aux;
    *n_aux = cs->n_aux;
    return CZK_OK;
}
