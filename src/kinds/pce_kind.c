/* The PCE of any proof kind's shape (czk/kind.h, kinds/pce_kind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "kinds/pce_kind.h"
#include "pce/pce_internal.h"

czk_status czk_kind_shape_sizes(czk_cs_sizes *out, const czk_proof_kind *k, const void *shape)
{
    return k->shape_ops->sizes(out, shape);
}

czk_status czk_kind_pce_build(czk_pce **out, const czk_proof_kind *k, const void *shape, czk_progress_fn progress,
                              void *ctx)
{
    const czk__kind_shape *d = k->shape_ops;
    *out = NULL;
    czk_cs_sizes z;
    CZK_TRY(d->sizes(&z, shape));
    char key[CZK_PCE_KEY_MAX];
    d->key(key, shape);
    return czk_pce_record(out, &z, d->record, shape, key, progress, ctx);
}

czk_status czk_kind_pce_path(char *out, size_t n, const czk_proof_kind *k, const void *shape)
{
    char key[CZK_PCE_KEY_MAX], label[128];
    k->shape_ops->key(key, shape);
    k->shape_ops->label(label, sizeof label, shape);
    return czk_pce_cache_file(out, n, key, label);
}

typedef struct build_ctx {
    const czk_proof_kind *k;
    const void *shape;
} build_ctx;

static czk_status build(czk_pce **out, void *ctx, czk_pce_progress_fn progress, void *pctx)
{
    const build_ctx *b = ctx;
    return czk_kind_pce_build(out, b->k, b->shape, progress, pctx);
}

czk_status czk_kind_pce_get(czk_pce **out, const czk_proof_kind *k, const void *shape, czk_progress_fn progress,
                            void *ctx, int *built)
{
    char path[600], key[CZK_PCE_KEY_MAX];
    CZK_TRY(czk_kind_pce_path(path, sizeof path, k, shape));
    k->shape_ops->key(key, shape);
    build_ctx b = {k, shape};
    return czk_pce_cache_get(out, path, key, build, &b, progress, ctx, built);
}

void czk_kind_pce_key(char *out, const czk_proof_kind *k, const void *shape) { k->shape_ops->key(out, shape); }

int czk_kind_pce_cached(const czk_proof_kind *k, const void *shape)
{
    char path[600];
    return czk_kind_pce_path(path, sizeof path, k, shape) == CZK_OK && czk_pce_cache_has(path);
}

static int threads_or_default(int threads)
{
    if (threads > 0) return threads;
    return czk_threads() > 0 ? czk_threads() : 1;
}

czk_status czk_kind_pce_witness(czk_pce_work *w, const czk_proof_kind *kind, const void *data, uint32_t k,
                                int threads)
{
    const czk__kind_shape *d = kind->shape_ops;
    const czk__kind_plan *plan = kind->plan;
    if (!w || !data) return czk_error(CZK_ERR_INVALID_ARG, "%s PCE witness: NULL argument", d->what);
    const void *shape = kind->shape_of(data);
    char key[CZK_PCE_KEY_MAX];
    d->key(key, shape);
    if (strcmp(key, w->p->key))
        return czk_error(CZK_ERR_INVALID_ARG, "%s PCE witness: the PCE is '%s', the job's circuit '%s'", d->what,
                         w->p->key, key);
    void *ctx = malloc(plan->ctx_size);
    if (!ctx) return czk_error(CZK_ERR_NOMEM, "%s PCE witness: plan", d->what);
    czk__par_circuit c;
    czk_status st = plan->plan(&c, ctx, shape, data, k, CZK_LC_DEFAULT);
    if (st == CZK_OK) st = czk__par_witness(&w->v, &c, threads_or_default(threads));
    free(ctx);
    return st;
}

typedef struct stream_ctx {
    const czk__kind_plan *plan;
    const void *shape, *data;
    uint32_t k;
    int threads;
} stream_ctx;

static czk_status stream_fn(void *ctx, czk_fr *input, size_t n_input, czk_fr *aux, size_t n_aux, uint64_t *dens[3],
                            czk_pce_rows_fn rows, void *rows_ctx)
{
    const stream_ctx *s = ctx;
    czk__cs_values vals = {input, aux, n_input, n_aux};
    void *pctx = malloc(s->plan->ctx_size);
    if (!pctx) return czk_error(CZK_ERR_NOMEM, "%s PCE validation: plan", s->plan->what);
    czk__par_circuit c;
    czk_status st = s->plan->plan(&c, pctx, s->shape, s->data, s->k, CZK_LC_DEFAULT);
    if (st == CZK_OK) st = czk__par_prove_stream(&vals, dens, &c, s->threads, rows, rows_ctx);
    free(pctx);
    return st;
}

czk_status czk_kind_pce_validate(const czk_pce_work *w, const czk_proof_kind *kind, const void *data, uint32_t k,
                                 int threads)
{
    if (!w || !data) return czk_error(CZK_ERR_INVALID_ARG, "%s PCE validation: NULL argument", kind->name);
    stream_ctx s = {kind->plan, kind->shape_of(data), data, k, threads_or_default(threads)};
    return czk_pce_work_compare_stream(w, stream_fn, &s, 0, s.threads);
}
