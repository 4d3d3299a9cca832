/* The EmptySectorUpdate circuit's parallel plan and PCE driver
 * (czk/snap_kind.h): the shape's cache key, its recording, witness-only
 * synthesis with the challenges across threads into a PCE workspace, and
 * the streamed comparison with the parallel PROVE synthesis. The cache, the
 * workspace and the evaluation are src/pce's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/snap_internal.h"
#include "czk/czk.h"
#include "czk/snap_kind.h"
#include "pce/pce_internal.h"
#include "snap/snap_internal.h"

static czk_status snap_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                            czk_lc_kind lc)
{
    return czk__snap_par_init(c, ctx, shape, data, k, lc);
}

const czk__kind_plan czk__snap_plan = {"snap", snap_plan, sizeof(czk__snap_par), sizeof(czk_snap_shape)};

/* Every partition of an update has the same R1CS (the partition index is a
 * public input's value): one PCE per shape. The constants follow from the
 * node count; the tree R arities are part of the key. */
void czk_pce_snap_key(char out[CZK_PCE_KEY_MAX], const czk_snap_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    snprintf(out, CZK_PCE_KEY_MAX, "snap nodes=%llu tree=%u,%u,%u h=%u %s", (unsigned long long)t->nodes,
             t->base_arity, t->sub_arity, t->top_arity, t->base_height, CZK_PCE_SNAP_VERSION);
}

static czk_status snap_record(czk_cs *cs, const void *shape)
{
    return czk_snap_synthesize(cs, shape, NULL, 0);
}

czk_status czk_pce_snap_build(czk_pce **out, const czk_snap_shape *s, czk_pce_progress_fn progress, void *ctx)
{
    *out = NULL;
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, s);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    char key[CZK_PCE_KEY_MAX];
    czk_pce_snap_key(key, s);
    return czk_pce_record(out, &z, snap_record, s, key, progress, ctx);
}

czk_status czk_pce_snap_path(char *out, size_t n, const czk_snap_shape *s)
{
    char key[CZK_PCE_KEY_MAX], label[96];
    czk_pce_snap_key(key, s);
    snprintf(label, sizeof label, "snap-%llu-t%u.%u.%u", (unsigned long long)s->tree.sector_size, s->tree.base_arity,
             s->tree.sub_arity, s->tree.top_arity);
    return czk_pce_cache_file(out, n, key, label);
}

static czk_status snap_build(czk_pce **out, void *ctx, czk_pce_progress_fn progress, void *pctx)
{
    return czk_pce_snap_build(out, ctx, progress, pctx);
}

czk_status czk_pce_snap_get(czk_pce **out, const czk_snap_shape *s, czk_pce_progress_fn progress, void *ctx,
                            int *built)
{
    char path[600], key[CZK_PCE_KEY_MAX];
    CZK_TRY(czk_pce_snap_path(path, sizeof path, s));
    czk_pce_snap_key(key, s);
    czk_snap_shape sh = *s;
    return czk_pce_cache_get(out, path, key, snap_build, &sh, progress, ctx, built);
}

int czk_pce_snap_is_cached(const czk_snap_shape *s)
{
    char path[600];
    return czk_pce_snap_path(path, sizeof path, s) == CZK_OK && czk_pce_cache_has(path);
}

czk_status czk_snap_pce_witness(czk_pce_work *w, const czk_snap_vanilla *v, uint32_t k, int threads)
{
    if (!w || !v) return czk_error(CZK_ERR_INVALID_ARG, "snap PCE witness: NULL argument");
    char key[CZK_PCE_KEY_MAX];
    czk_pce_snap_key(key, &v->shape);
    if (strcmp(key, w->p->key))
        return czk_error(CZK_ERR_INVALID_ARG, "snap PCE witness: the PCE is '%s', the update's circuit '%s'",
                         w->p->key, key);
    czk__snap_par *pp = malloc(sizeof *pp);
    if (!pp) return czk_error(CZK_ERR_NOMEM, "snap PCE witness: plan");
    czk__par_circuit c;
    czk_status st = czk__snap_par_init(&c, pp, &v->shape, v, k, CZK_LC_DEFAULT);
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    if (st == CZK_OK) st = czk__par_witness(&w->v, &c, threads);
    free(pp);
    return st;
}

typedef struct snap_stream {
    const czk_snap_vanilla *v;
    uint32_t k;
    int threads;
} snap_stream;

static czk_status snap_stream_fn(void *ctx, czk_fr *input, size_t n_input, czk_fr *aux, size_t n_aux,
                                 uint64_t *dens[3], czk_pce_rows_fn rows, void *rows_ctx)
{
    const snap_stream *s = ctx;
    czk__cs_values vals = {input, aux, n_input, n_aux};
    czk__snap_par *pp = malloc(sizeof *pp);
    if (!pp) return czk_error(CZK_ERR_NOMEM, "snap PCE validation: plan");
    czk__par_circuit c;
    czk_status st = czk__snap_par_init(&c, pp, &s->v->shape, s->v, s->k, CZK_LC_DEFAULT);
    if (st == CZK_OK) st = czk__par_prove_stream(&vals, dens, &c, s->threads, rows, rows_ctx);
    free(pp);
    return st;
}

czk_status czk_snap_pce_validate(const czk_pce_work *w, const czk_snap_vanilla *v, uint32_t k, int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    snap_stream ss = {v, k, threads};
    return czk_pce_work_compare_stream(w, snap_stream_fn, &ss, 0, threads);
}
