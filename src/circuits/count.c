/* The circuits' counting constraint system (circuits/count.h). */
#include <string.h>

#include "circuits/count.h"

static czk_status cnt_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)value, (void)name, (void)idx;
    if (cs->n_aux >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "more than 2^31 aux variables");
    *out = czk_var_aux(cs->n_aux++);
    return CZK_OK;
}

static czk_status cnt_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)value, (void)name, (void)idx;
    if (cs->n_inputs >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "more than 2^31 inputs");
    *out = czk_var_input(cs->n_inputs++);
    return CZK_OK;
}

static inline int fr_nonzero(const czk_fr *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) != 0;
}

static void cnt_view(czk__count *c, int m, const czk_lc_view *v)
{
    uint64_t nz = 0;
    for (uint32_t i = 0; i < v->n_in; i++) nz += (uint64_t)fr_nonzero(&v->in[i].coeff);
    for (uint32_t i = 0; i < v->n_aux; i++) nz += (uint64_t)fr_nonzero(&v->aux[i].coeff);
    c->terms[m] += (uint64_t)v->n_in + v->n_aux;
    c->nnz[m] += nz;
}

static czk_status cnt_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                              const char *name, uint64_t idx)
{
    (void)name, (void)idx;
    czk__count *ci = cs->impl;
    cnt_view(ci, 0, a);
    cnt_view(ci, 1, b);
    cnt_view(ci, 2, c);
    cs->n_constraints++;
    return CZK_OK;
}

void czk__cs_ns_push_none(czk_cs *cs, const char *name, uint64_t idx)
{
    (void)cs, (void)name, (void)idx;
}

void czk__cs_ns_pop_none(czk_cs *cs)
{
    (void)cs;
}

static const czk_cs_ops count_ops = {cnt_alloc, cnt_alloc_input, cnt_enforce, czk__cs_ns_push_none,
                                     czk__cs_ns_pop_none};

czk_status czk__cs_tables_init(void)
{
    czk_cs *cs;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_cs_destroy(cs);
    return CZK_OK;
}

czk_status czk__count_cs_init(czk_cs *cs, czk__count *c, czk_lc_kind lc)
{
    memset(cs, 0, sizeof *cs);
    memset(c, 0, sizeof *c);
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "counting pass: LC kind %d", (int)lc);
    CZK_TRY(czk__cs_tables_init());
    cs->ops = &count_ops;
    cs->backend = CZK_CS_SHAPE;
    cs->lc_kind = lc;
    cs->needs_constraints = 1;
    cs->impl = c;
    cs->lc_scratch = czk__lc_scratch_create(lc);
    if (!cs->lc_scratch) return czk_error(CZK_ERR_NOMEM, "counting pass: out of memory");
    czk_var one;
    czk_status s = czk__cs_alloc_input(cs, &one, NULL, "ONE", CZK_NOIDX);
    if (s != CZK_OK) czk__count_cs_clear(cs);
    return s;
}

void czk__count_cs_clear(czk_cs *cs)
{
    if (cs->lc_scratch) czk__lc_scratch_destroy(cs->lc_kind, cs->lc_scratch);
    cs->lc_scratch = NULL;
}
