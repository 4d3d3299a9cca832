/* The FallbackPoSt circuit's parallel plan and PCE driver (czk/post_kind.h):
 * the shape's cache key, its recording, witness-only synthesis across
 * sectors into a PCE workspace, and the streamed comparison with the
 * parallel PROVE synthesis. The cache, the workspace and the evaluation are
 * src/pce's. */
#include <stdio.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "circuits/post_internal.h"
#include "pce/pce_internal.h"
#include "post/post_internal.h"

static czk_status post_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                            czk_lc_kind lc)
{
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt job (it proves one, 0)", k);
    return czk__post_par_init(c, ctx, shape, data, lc);
}

const czk__kind_plan czk__post_plan = {"post", post_plan, sizeof(czk__post_par), sizeof(czk_post_shape)};

/* The circuit depends on the tree and the sector x challenge layout only:
 * WindowPoSt and WinningPoSt of one layout (and both API versions) share
 * their matrices. */
void czk_pce_post_key(char out[CZK_PCE_KEY_MAX], const czk_post_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    snprintf(out, CZK_PCE_KEY_MAX, "post nodes=%llu tree=%u,%u,%u h=%u sectors=%u challenges=%u %s",
             (unsigned long long)t->nodes, t->base_arity, t->sub_arity, t->top_arity, t->base_height, s->sectors,
             s->challenges, CZK_PCE_POST_VERSION);
}

static czk_status post_record(czk_cs *cs, const void *shape)
{
    return czk_post_synthesize(cs, shape, NULL);
}

czk_status czk_pce_post_build(czk_pce **out, const czk_post_shape *s, czk_pce_progress_fn progress, void *ctx)
{
    *out = NULL;
    czk_post_counts n;
    czk_post_circuit_counts(&n, s);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    char key[CZK_PCE_KEY_MAX];
    czk_pce_post_key(key, s);
    return czk_pce_record(out, &z, post_record, s, key, progress, ctx);
}

czk_status czk_pce_post_path(char *out, size_t n, const czk_post_shape *s)
{
    char key[CZK_PCE_KEY_MAX], label[96];
    czk_pce_post_key(key, s);
    snprintf(label, sizeof label, "post-%llu-S%u-C%u", (unsigned long long)s->tree.sector_size, s->sectors,
             s->challenges);
    return czk_pce_cache_file(out, n, key, label);
}

static czk_status post_build(czk_pce **out, void *ctx, czk_pce_progress_fn progress, void *pctx)
{
    return czk_pce_post_build(out, ctx, progress, pctx);
}

czk_status czk_pce_post_get(czk_pce **out, const czk_post_shape *s, czk_pce_progress_fn progress, void *ctx,
                            int *built)
{
    char path[600], key[CZK_PCE_KEY_MAX];
    CZK_TRY(czk_pce_post_path(path, sizeof path, s));
    czk_pce_post_key(key, s);
    czk_post_shape sh = *s;
    return czk_pce_cache_get(out, path, key, post_build, &sh, progress, ctx, built);
}

int czk_pce_post_is_cached(const czk_post_shape *s)
{
    char path[600];
    return czk_pce_post_path(path, sizeof path, s) == CZK_OK && czk_pce_cache_has(path);
}

czk_status czk_post_pce_witness(czk_pce_work *w, const czk_post_vanilla *v, int threads)
{
    if (!w || !v) return czk_error(CZK_ERR_INVALID_ARG, "post PCE witness: NULL argument");
    char key[CZK_PCE_KEY_MAX];
    czk_pce_post_key(key, &v->shape);
    if (strcmp(key, w->p->key))
        return czk_error(CZK_ERR_INVALID_ARG, "post PCE witness: the PCE is '%s', the vanilla proofs' circuit '%s'",
                         w->p->key, key);
    czk__post_par pp;
    czk__par_circuit c;
    CZK_TRY(czk__post_par_init(&c, &pp, &v->shape, v, CZK_LC_DEFAULT));
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    return czk__par_witness(&w->v, &c, threads);
}

typedef struct post_stream {
    const czk_post_vanilla *v;
    int threads;
} post_stream;

static czk_status post_stream_fn(void *ctx, czk_fr *input, size_t n_input, czk_fr *aux, size_t n_aux,
                                 uint64_t *dens[3], czk_pce_rows_fn rows, void *rows_ctx)
{
    const post_stream *s = ctx;
    czk__cs_values vals = {input, aux, n_input, n_aux};
    czk__post_par pp;
    czk__par_circuit c;
    CZK_TRY(czk__post_par_init(&c, &pp, &s->v->shape, s->v, CZK_LC_DEFAULT));
    return czk__par_prove_stream(&vals, dens, &c, s->threads, rows, rows_ctx);
}

czk_status czk_post_pce_validate(const czk_pce_work *w, const czk_post_vanilla *v, int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    post_stream ps = {v, threads};
    return czk_pce_work_compare_stream(w, post_stream_fn, &ps, 0, threads);
}

size_t czk_post_pce_validate_bytes(const czk_pce_work *w, const czk_post_shape *s, int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    czk_post_shape one = *s;
    one.sectors = 1;
    czk_post_counts n;
    czk_post_circuit_counts(&n, &one);
    uint64_t units = (uint64_t)threads < s->sectors ? (uint64_t)threads : s->sectors;
    /* the stream's window: `threads` sectors' rows, or the input rows */
    uint64_t window = n.constraints * units, inputs = 1 + (uint64_t)s->sectors * (n.inputs - 1);
    if (window < inputs) window = inputs;
    return czk_pce_work_compare_stream_bytes(w, window);
}
