/* PCE recording backend: a czk_cs whose enforce appends compact rows. */
#include <stdlib.h>
#include <string.h>

#include "cs/lc.h"
#include "czk/pce.h"
#include "pce/pce_internal.h"

#define INPUT_TAG 0x80000000u

struct czk_pce_recorder {
    czk_cs cs;
    czk__pmb *m[3];
    uint32_t *col;
    const czk_fr **cf;
    size_t cap;
    int finished;
    czk_pce_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_total;
};

void czk_pce_recorder_set_progress(czk_pce_recorder *r, czk_pce_progress_fn fn, void *ctx, uint64_t total_rows)
{
    r->progress = fn;
    r->progress_ctx = ctx;
    r->progress_total = total_rows;
}

static czk_status r_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)value, (void)name, (void)idx;
    if (cs->n_aux >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "PCE recorder: more than 2^31 aux variables");
    *out = czk_var_aux(cs->n_aux++);
    return CZK_OK;
}

static czk_status r_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)value, (void)name, (void)idx;
    czk_pce_recorder *r = cs->impl;
    if (r->finished) return czk_error(CZK_ERR_INVALID_ARG, "PCE recorder: alloc_input after finish");
    if (cs->n_inputs >= CZK_VAR_MAX_INDEX) return czk_error(CZK_ERR_UNSUPPORTED, "PCE recorder: too many inputs");
    *out = czk_var_input(cs->n_inputs++);
    return CZK_OK;
}

static czk_status r_view(czk_pce_recorder *r, int mi, const czk_lc_view *v, uint64_t row)
{
    size_t n = (size_t)v->n_in + v->n_aux;
    if (n > r->cap) {
        size_t nc = r->cap ? r->cap : 64;
        while (nc < n) nc *= 2;
        uint32_t *c = realloc(r->col, nc * sizeof *c);
        if (c) r->col = c;
        const czk_fr **f = realloc(r->cf, nc * sizeof *f);
        if (f) r->cf = f;
        if (!c || !f) return czk_error(CZK_ERR_NOMEM, "PCE recorder: row of %zu terms", n);
        r->cap = nc;
    }
    for (uint32_t i = 0; i < v->n_in; i++) {
        if (CZK_UNLIKELY(v->in[i].index >= r->cs.n_inputs)) goto bad;
        r->col[i] = v->in[i].index | INPUT_TAG;
        r->cf[i] = &v->in[i].coeff;
    }
    for (uint32_t i = 0; i < v->n_aux; i++) {
        if (CZK_UNLIKELY(v->aux[i].index >= r->cs.n_aux)) goto bad;
        r->col[v->n_in + i] = v->aux[i].index;
        r->cf[v->n_in + i] = &v->aux[i].coeff;
    }
    return czk__pmb_row(r->m[mi], r->col, r->cf, (uint32_t)n);
bad:
    return czk_error(CZK_ERR_INVALID_ARG, "PCE recorder: constraint %llu refers to an unallocated variable",
                     (unsigned long long)row);
}

static czk_status r_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    (void)name, (void)idx;
    czk_pce_recorder *r = cs->impl;
    if (r->finished) return czk_error(CZK_ERR_INVALID_ARG, "PCE recorder: enforce after finish");
    uint64_t row = cs->n_constraints;
    CZK_TRY(r_view(r, 0, a, row));
    CZK_TRY(r_view(r, 1, b, row));
    CZK_TRY(r_view(r, 2, c, row));
    cs->n_constraints = row + 1;
    if (CZK_UNLIKELY((row & 0xfffff) == 0) && r->progress && r->progress_total)
        r->progress(r->progress_ctx, "recording the circuit shape",
                    0.9 * (double)row / (double)r->progress_total);
    return CZK_OK;
}

static void r_ns_push(czk_cs *cs, const char *name, uint64_t idx)
{
    (void)cs, (void)name, (void)idx;
}
static void r_ns_pop(czk_cs *cs)
{
    (void)cs;
}

static const czk_cs_ops rec_ops = {r_alloc, r_alloc_input, r_enforce, r_ns_push, r_ns_pop};

void czk_pce_recorder_destroy(czk_pce_recorder *r)
{
    if (!r) return;
    for (int i = 0; i < 3; i++) czk__pmb_destroy(r->m[i]);
    czk__lc_scratch_destroy(r->cs.lc_kind, r->cs.lc_scratch);
    free(r->col);
    free(r->cf);
    free(r);
}

czk_status czk_pce_recorder_create(czk_pce_recorder **out, czk_cs **cs, czk_lc_kind lc, const czk_cs_sizes *sizes)
{
    *out = NULL;
    *cs = NULL;
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "PCE recorder: LC kind %d", (int)lc);
    /* czk__pow2_table (gadget coefficients) is filled by the first czk_cs_create */
    czk_cs *tmp;
    CZK_TRY(czk_cs_create(&tmp, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_cs_destroy(tmp);
    czk_pce_recorder *r = calloc(1, sizeof *r);
    if (!r) return czk_error(CZK_ERR_NOMEM, "PCE recorder");
    r->cs.ops = &rec_ops;
    r->cs.backend = CZK_CS_SHAPE; /* no values, constraints wanted, no names */
    r->cs.lc_kind = lc;
    r->cs.needs_constraints = 1;
    r->cs.impl = r;
    r->cs.lc_scratch = czk__lc_scratch_create(lc);
    uint64_t rows = sizes ? sizes->n_constraints + sizes->n_inputs : 0;
    static const char *const names[3] = {"A", "B", "C"};
    czk_status st = r->cs.lc_scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "PCE recorder");
    for (int i = 0; i < 3 && st == CZK_OK; i++) st = czk__pmb_create(&r->m[i], names[i], rows);
    czk_var one;
    if (st == CZK_OK) st = czk__cs_alloc_input(&r->cs, &one, NULL, "ONE", CZK_NOIDX);
    if (st != CZK_OK) {
        czk_pce_recorder_destroy(r);
        return st;
    }
    *out = r;
    *cs = &r->cs;
    return CZK_OK;
}

czk_status czk_pce_recorder_finish(czk_pce_recorder *r, czk_pce **out, const char *key)
{
    *out = NULL;
    if (r->finished) return czk_error(CZK_ERR_INVALID_ARG, "PCE recorder: finished twice");
    uint64_t n_in = r->cs.n_inputs, cols = n_in + r->cs.n_aux;
    if (cols > UINT32_MAX)
        return czk_error(CZK_ERR_UNSUPPORTED, "PCE: %llu columns exceed 2^32", (unsigned long long)cols);
    /* bellperson's input constraints (input_i) * 0 = 0 */
    czk_lc_term t = {0, 0, CZK_FR_ONE};
    czk_lc_view a = {&t, NULL, 1, 0}, z = {NULL, NULL, 0, 0};
    for (uint32_t i = 0; i < n_in; i++) {
        t.index = i;
        CZK_TRY(r_enforce(&r->cs, &a, &z, &z, NULL, CZK_NOIDX));
    }
    r->finished = 1;
    czk__pmat m[3];
    memset(m, 0, sizeof m);
    uint64_t rows = 0;
    czk_status st = CZK_OK;
    for (int i = 0; i < 3 && st == CZK_OK; i++) {
        st = czk__pmb_finish(r->m[i], &m[i], &rows);
        czk__pmb_destroy(r->m[i]);
        r->m[i] = NULL;
    }
    if (st != CZK_OK) {
        for (int i = 0; i < 3; i++) czk__pmat_free(&m[i]);
        return st;
    }
    /* columns over [inputs | aux] */
    for (int i = 0; i < 3; i++) {
        uint32_t *c = m[i].col;
        const uint64_t nnz = m[i].nnz;
        const uint32_t base = (uint32_t)n_in;
#pragma omp parallel for schedule(static)
        for (uint64_t k = 0; k < nnz; k++) c[k] = (c[k] & INPUT_TAG) ? (c[k] & ~INPUT_TAG) : c[k] + base;
    }
    return czk__pce_assemble(out, m, rows, cols, n_in, key);
}
