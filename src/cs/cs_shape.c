/* SHAPE backend: records A, B, C. Terms are kept with tagged variables
 * (input / aux) until czk_cs_shape_csr, because inputs allocated after some
 * constraints shift every aux column ([inputs | aux]). */
#include "cs/cs_internal.h"

typedef struct shape_mat {
    czk_lc_term *t; /* index = tagged czk_var */
    size_t n, cap;
    uint64_t *row; /* row[r] = start of row r; n_rows + 1 entries */
    size_t cap_row;
} shape_mat;

typedef struct shape_impl {
    shape_mat m[3];
    int finalized;
} shape_impl;

static czk_status s_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    if (cs->n_aux >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "more than 2^31 aux variables");
    *out = czk_var_aux(cs->n_aux++);
    return CZK_OK;
}

static czk_status s_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    shape_impl *s = cs->impl;
    if (s->finalized) return czk_error(CZK_ERR_INVALID_ARG, "alloc_input after finalize");
    *out = czk_var_input(cs->n_inputs++);
    return CZK_OK;
}

static czk_status push_row(shape_mat *m, size_t r, const czk_lc_view *v)
{
    size_t need = m->n + v->n_in + v->n_aux;
    if (CZK_UNLIKELY(need > m->cap || !m->t)) CZK_TRY(czk__cs_reserve((void **)&m->t, &m->cap, need, sizeof(czk_lc_term)));
    if (CZK_UNLIKELY(r + 2 > m->cap_row))
        CZK_TRY(czk__cs_reserve((void **)&m->row, &m->cap_row, r + 2, sizeof(uint64_t)));
    czk_lc_term *d = m->t + m->n;
    for (uint32_t i = 0; i < v->n_in; i++) {
        d[i] = v->in[i];
        d[i].index = czk_var_input(v->in[i].index);
    }
    d += v->n_in;
    if (v->n_aux) memcpy(d, v->aux, (size_t)v->n_aux * sizeof(czk_lc_term));
    m->n = need;
    m->row[r + 1] = need;
    return CZK_OK;
}

static int valid_view(const czk_cs *cs, const czk_lc_view *v)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < v->n_in; i++) bad |= v->in[i].index >= cs->n_inputs;
    for (uint32_t i = 0; i < v->n_aux; i++) bad |= v->aux[i].index >= cs->n_aux;
    return !bad;
}

static czk_status s_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    shape_impl *s = cs->impl;
    size_t r = cs->n_constraints;
    if (CZK_UNLIKELY(!valid_view(cs, a) || !valid_view(cs, b) || !valid_view(cs, c)))
        return czk_error(CZK_ERR_INVALID_ARG, "constraint %zu (%s): refers to an unallocated variable", r,
                         name ? name : "");
    CZK_TRY(push_row(&s->m[0], r, a));
    CZK_TRY(push_row(&s->m[1], r, b));
    CZK_TRY(push_row(&s->m[2], r, c));
    cs->n_constraints = r + 1;
    return CZK_OK;
}

static void s_ns_push(czk_cs *cs, const char *name, uint64_t idx) {}
static void s_ns_pop(czk_cs *cs) {}

static const czk_cs_ops shape_ops = {s_alloc, s_alloc_input, s_enforce, s_ns_push, s_ns_pop};

czk_status czk__cs_shape_create(czk_cs *cs, const czk_cs_sizes *sizes)
{
    shape_impl *s = calloc(1, sizeof(*s));
    if (!s) return czk_error(CZK_ERR_NOMEM, "shape backend: out of memory");
    cs->impl = s;
    cs->ops = &shape_ops;
    cs->has_values = 0;
    cs->needs_constraints = 1;
    cs->wants_names = 0;
    size_t rows = sizes ? sizes->n_constraints + sizes->n_inputs : 0;
    for (int k = 0; k < 3; k++) {
        CZK_TRY(czk__cs_reserve((void **)&s->m[k].row, &s->m[k].cap_row, rows + 1, sizeof(uint64_t)));
        s->m[k].row[0] = 0;
    }
    return CZK_OK;
}

void czk__cs_shape_destroy(czk_cs *cs)
{
    shape_impl *s = cs->impl;
    for (int k = 0; k < 3; k++) {
        free(s->m[k].t);
        free(s->m[k].row);
    }
    free(s);
    cs->impl = NULL;
}

void czk__cs_shape_reset(czk_cs *cs)
{
    shape_impl *s = cs->impl;
    for (int k = 0; k < 3; k++) s->m[k].n = 0;
    s->finalized = 0;
}

czk_status czk__cs_shape_finalize(czk_cs *cs)
{
    shape_impl *s = cs->impl;
    if (s->finalized) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_finalize called twice");
    czk_lc_term t = {0, 0, CZK_FR_ONE};
    czk_lc_view a = {&t, NULL, 1, 0}, z = {NULL, NULL, 0, 0};
    for (uint32_t i = 0; i < cs->n_inputs; i++) {
        t.index = i;
        CZK_TRY(s_enforce(cs, &a, &z, &z, NULL, CZK_NOIDX));
    }
    s->finalized = 1;
    return CZK_OK;
}

void czk_csr_clear(czk_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof(*m));
}

static czk_status build(czk_csr *out, const shape_mat *m, uint64_t rows, uint32_t n_inputs, uint64_t n_cols)
{
    memset(out, 0, sizeof(*out));
    out->n_rows = rows;
    out->n_cols = n_cols;
    out->nnz = m->n;
    out->row_ptr = malloc((rows + 1) * sizeof(uint64_t));
    out->col = malloc((m->n ? m->n : 1) * sizeof(uint32_t));
    out->val = malloc((m->n ? m->n : 1) * sizeof(czk_fr));
    if (!out->row_ptr || !out->col || !out->val) {
        czk_csr_clear(out);
        return czk_error(CZK_ERR_NOMEM, "shape: cannot allocate a CSR matrix of %zu terms", m->n);
    }
    memcpy(out->row_ptr, m->row, (rows + 1) * sizeof(uint64_t));
    for (size_t i = 0; i < m->n; i++) {
        czk_var v = m->t[i].index;
        out->col[i] = czk_var_is_input(v) ? czk_var_index(v) : n_inputs + v;
        out->val[i] = m->t[i].coeff;
    }
    return CZK_OK;
}

czk_status czk_cs_shape_csr(const czk_cs *cs, czk_csr *a, czk_csr *b, czk_csr *c)
{
    if (cs->backend != CZK_CS_SHAPE)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_shape_csr on a %s backend", czk_cs_backend_name(cs->backend));
    const shape_impl *s = cs->impl;
    uint64_t n_cols = (uint64_t)cs->n_inputs + cs->n_aux;
    if (n_cols > UINT32_MAX) return czk_error(CZK_ERR_UNSUPPORTED, "shape: %llu columns exceed 32 bits",
                                              (unsigned long long)n_cols);
    czk_csr *outs[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        czk_status st = build(outs[k], &s->m[k], cs->n_constraints, cs->n_inputs, n_cols);
        if (st != CZK_OK) {
            for (int j = 0; j < k; j++) czk_csr_clear(outs[j]);
            return st;
        }
    }
    return CZK_OK;
}
