/* The parallel and PCE witness sources of any kind with a parallel plan
 * (sources.h). */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "kinds/sources.h"
#include "pce/pce_internal.h"

typedef struct src_state {
    const czk__kind_plan *plan;
    void *shape; /* plan->shape_size bytes */
    czk_lc_kind lc;
    czk_pce *pce; /* the PCE source only */
} src_state;

struct czk_witness {
    const src_state *st;
    void *ctx;                /* plan->ctx_size bytes */
    czk__par_prover *pp;      /* parallel */
    czk_pce_work *work;       /* PCE */
    czk_cs_assignment asg;    /* PCE: the last synthesis' assignment */
    int have;                 /* 0 nothing, 1 a full assignment, 2 the witness only (PCE) */
};

static void state_close(czk_witness_source *s)
{
    src_state *st = s->state;
    if (!st) return;
    czk_pce_destroy(st->pce);
    free(st->shape);
    free(st);
    s->state = NULL;
}

static void wit_destroy(czk_witness *w)
{
    if (!w) return;
    czk__par_prover_destroy(w->pp);
    czk_pce_work_destroy(w->work);
    free(w->ctx);
    free(w);
}

static czk_witness *wit_new(const czk_witness_source *s)
{
    const src_state *st = s->state;
    czk_witness *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->st = st;
    w->ctx = calloc(1, st->plan->ctx_size);
    if (!w->ctx) {
        free(w);
        return NULL;
    }
    return w;
}

/* ---- parallel --------------------------------------------------------------------------- */

static uint64_t par_bytes(const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)s;
    /* the final vectors, plus per-thread LC scratch */
    return czk_witness_cs_bytes(z) + (uint64_t)czk_threads() * (8u << 20);
}

static czk_status par_create(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)z;
    const src_state *st = s->state;
    czk_witness *w = wit_new(s);
    if (!w) return czk_error(CZK_ERR_NOMEM, "%s parallel prover instance", st->plan->what);
    czk__par_circuit c;
    czk_status r = st->plan->plan(&c, w->ctx, st->shape, NULL, 0, st->lc);
    if (r == CZK_OK) r = czk__par_prover_create(&w->pp, &c);
    if (r != CZK_OK) {
        wit_destroy(w);
        return r;
    }
    *out = w;
    return CZK_OK;
}

static czk_status par_synthesize(czk_witness *w, const void *data, uint32_t k, int threads)
{
    czk__par_circuit c;
    CZK_TRY(w->st->plan->plan(&c, w->ctx, w->st->shape, data, k, w->st->lc));
    return czk__par_prover_synthesize(w->pp, &c, threads);
}

static czk_status par_check(czk_witness *w, int threads) { return czk__par_prover_check(w->pp, threads); }

static czk_status par_get(czk_witness *w, czk_cs_assignment *out) { return czk__par_prover_get(w->pp, out); }

static const czk_witness_ops par_ops = {"parallel", 1, par_bytes, par_create, par_synthesize, par_check,
                                        par_get, wit_destroy, state_close, NULL, NULL, NULL};

/* ---- PCE --------------------------------------------------------------------------------- */

static uint64_t pce_bytes(const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)s;
    /* input, aux and a/b/c as the PROVE backend's, without its densities
     * (the PCE holds them once): the same bound serves */
    return czk_witness_cs_bytes(z);
}

static czk_status pce_create(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)z;
    const src_state *st = s->state;
    czk_witness *w = wit_new(s);
    if (!w) return czk_error(CZK_ERR_NOMEM, "%s PCE instance", st->plan->what);
    czk_status r = czk_pce_work_create(&w->work, st->pce);
    if (r != CZK_OK) {
        wit_destroy(w);
        return r;
    }
    *out = w;
    return CZK_OK;
}

static czk_status pce_synthesize(czk_witness *w, const void *data, uint32_t k, int threads)
{
    w->have = 0;
    czk__par_circuit c;
    CZK_TRY(w->st->plan->plan(&c, w->ctx, w->st->shape, data, k, w->st->lc));
    CZK_TRY(czk__par_witness(&w->work->v, &c, threads));
    czk_status st = czk_pce_work_eval(w->work, threads, &w->asg);
    czk__pce_drop_pages(w->st->pce, -1);
    CZK_TRY(st);
    w->have = 1;
    return CZK_OK;
}

static czk_status pce_synthesize_witness(czk_witness *w, const void *data, uint32_t k, int threads)
{
    w->have = 0;
    czk__par_circuit c;
    CZK_TRY(w->st->plan->plan(&c, w->ctx, w->st->shape, data, k, w->st->lc));
    CZK_TRY(czk__par_witness(&w->work->v, &c, threads));
    czk_pce_assignment(&w->asg, w->st->pce, w->work->v.input, w->work->v.aux, NULL, NULL, NULL);
    w->have = 2;
    return CZK_OK;
}

static czk_status pce_fill(czk_witness *w, int which, czk_fr *out, size_t m, int threads)
{
    if (w->have != 2) return czk_error(CZK_ERR_INVALID_ARG, "PCE witness: no witness-only synthesis to evaluate");
    const czk_pce *p = w->st->pce;
    size_t rows = (size_t)czk_pce_rows(p);
    if (which < 0 || which > 2 || m < rows)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE fill: matrix %d into %zu values (%zu rows)", which, m, rows);
    czk_status st = czk_pce_eval(p, which == 0 ? out : NULL, which == 1 ? out : NULL, which == 2 ? out : NULL,
                                 w->asg.input, w->asg.n_input, w->asg.aux, w->asg.n_aux, threads);
    czk__pce_drop_pages(p, which); /* one matrix of a mapped PCE in memory at a time */
    CZK_TRY(st);
    memset(out + rows, 0, (m - rows) * sizeof *out);
    return CZK_OK;
}

/* a * b = c on every row of a witness-only synthesis, the rows evaluated in
 * windows (3 x 2^20 values at a time). */
static czk_status pce_check_rows(czk_witness *w, int threads)
{
    const czk_pce *p = w->st->pce;
    uint64_t rows = czk_pce_rows(p), win = (uint64_t)1 << 20;
    win -= win % CZK_PCE_BLOCK;
    czk_fr *abc = malloc(3 * (size_t)win * sizeof(czk_fr));
    if (!abc) return czk_error(CZK_ERR_NOMEM, "PCE check: windows of %llu rows", (unsigned long long)win);
    czk_status st = CZK_OK;
    for (uint64_t r0 = 0; r0 < rows && st == CZK_OK; r0 += win) {
        uint64_t r1 = rows - r0 < win ? rows : r0 + win;
        czk_fr *a = abc, *b = abc + win, *c = abc + 2 * win;
        st = czk_pce_eval_range(p, a, b, c, r0, r1, w->asg.input, w->asg.n_input, w->asg.aux, w->asg.n_aux, threads);
        czk__pce_drop_rows(p, -1, r0, r1); /* a mapped PCE: one window of its rows in memory at a time */
        if (st != CZK_OK) break;
        st = czk__pce_check_rows(a, b, c, r1 - r0, r0, threads);
    }
    free(abc);
    czk__pce_drop_pages(p, -1);
    return st;
}

static czk_status pce_check(czk_witness *w, int threads)
{
    if (!w->have) return czk_error(CZK_ERR_INVALID_ARG, "PCE witness: nothing synthesized");
    if (w->have == 2) return pce_check_rows(w, threads);
    return czk_pce_check(&w->asg, threads);
}

static czk_status pce_get(czk_witness *w, czk_cs_assignment *out)
{
    if (!w->have) return czk_error(CZK_ERR_INVALID_ARG, "PCE witness: nothing synthesized");
    *out = w->asg;
    return CZK_OK;
}

/* After synthesize_witness: input and aux (the densities are the PCE's),
 * the check's three windows of rows, and a margin for the plan's
 * per-thread LC buffers. */
static uint64_t pce_witness_only_bytes(const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)s;
    return ((uint64_t)z->n_inputs + z->n_aux) * sizeof(czk_fr) + 3 * ((uint64_t)1 << 20) * sizeof(czk_fr) +
           (uint64_t)czk_threads() * (8u << 20) + (1u << 20);
}

static const czk_witness_ops pce_ops = {"pce",         1,           pce_bytes,     pce_create,
                                        pce_synthesize, pce_check,  pce_get,       wit_destroy,
                                        state_close,   pce_synthesize_witness, pce_fill, pce_witness_only_bytes};

/* ---- opening ------------------------------------------------------------------------------ */

static czk_status state_open(czk_witness_source *out, const czk__kind_plan *plan, const void *shape, czk_lc_kind lc)
{
    memset(out, 0, sizeof *out);
    src_state *st = calloc(1, sizeof *st);
    if (st) st->shape = malloc(plan->shape_size);
    if (!st || !st->shape) {
        free(st);
        return czk_error(CZK_ERR_NOMEM, "%s witness source", plan->what);
    }
    memcpy(st->shape, shape, plan->shape_size);
    st->plan = plan;
    st->lc = lc;
    out->state = st;
    return CZK_OK;
}

czk_status czk__source_par_open(czk_witness_source *out, const czk__kind_plan *plan, const void *shape, czk_lc_kind lc)
{
    CZK_TRY(state_open(out, plan, shape, lc));
    out->ops = &par_ops;
    return CZK_OK;
}

czk_status czk__source_pce_open(czk_witness_source *out, const czk__kind_plan *plan, const void *shape, czk_pce *pce)
{
    czk_status r = state_open(out, plan, shape, CZK_LC_DEFAULT);
    if (r != CZK_OK) {
        czk_pce_destroy(pce);
        return r;
    }
    src_state *st = out->state;
    st->pce = pce;
    out->ops = &pce_ops;
    /* the matrices must be the plan's */
    void *ctx = calloc(1, plan->ctx_size);
    czk__par_circuit c;
    r = ctx ? plan->plan(&c, ctx, shape, NULL, 0, CZK_LC_DEFAULT)
            : czk_error(CZK_ERR_NOMEM, "%s witness source", plan->what);
    if (r == CZK_OK && (czk__par_inputs(&c) != pce->n_inputs ||
                        czk__par_inputs(&c) + czk__par_aux(&c) != pce->cols || czk__par_rows(&c) != pce->rows))
        r = czk_error(CZK_ERR_INVALID_ARG, "PCE '%s' (%llu x %llu) does not match the %s circuit (%llu x %llu)",
                      pce->key, (unsigned long long)pce->rows, (unsigned long long)pce->cols, plan->what,
                      (unsigned long long)czk__par_rows(&c),
                      (unsigned long long)(czk__par_inputs(&c) + czk__par_aux(&c)));
    free(ctx);
    if (r != CZK_OK) {
        czk_witness_source_close(out);
        return r;
    }
    czk_pce_info info;
    czk_pce_info_get(pce, &info);
    /* a mapped PCE file is page cache the kernel may reclaim (it reads it
     * back): charged as the memory it holds at once, the tables and one
     * window of rows (an evaluation drops each window's pages after it),
     * and what is not mapped */
    out->shared_bytes = info.mapped_bytes ? info.bytes - info.mapped_bytes + info.eval_bytes : info.bytes;
    if (info.mapped_bytes > info.bytes) out->shared_bytes = info.eval_bytes + (1u << 20);
    return CZK_OK;
}

czk_status czk_kind_source_open(czk_witness_source *out, const czk_proof_kind *k, const void *data,
                                const czk_source_opts *o)
{
    memset(out, 0, sizeof *out);
    czk_source_opts def;
    if (!o) {
        memset(&def, 0, sizeof def);
        def.lc = CZK_LC_DEFAULT;
        o = &def;
    }
    /* the data must be the kind's (a PoSt row refuses the other PoSt kind's
     * vanilla) before anything is built for its shape */
    czk_cs_sizes z;
    CZK_TRY(k->circuit->sizes(&z, data, 0));
    const void *shape = k->shape_of(data);
    int pce = o->pce == CZK_PCE_MODE_ON || (o->pce == CZK_PCE_MODE_AUTO && czk_kind_pce_cached(k, shape));
    if (!pce && !o->parallel) return czk_witness_source_cs(out, k->circuit->synthesize, o->lc);
    if (!pce) return czk__source_par_open(out, k->plan, shape, o->lc);
    czk_pce *p;
    czk_status r = czk_kind_pce_get(&p, k, shape, o->progress, o->progress_ctx, NULL);
    if (r != CZK_OK) {
        char name[96];
        k->shape_name(name, sizeof name, shape);
        return czk_error_context(r, "PCE of %s", name);
    }
    return czk__source_pce_open(out, k->plan, shape, p);
}
