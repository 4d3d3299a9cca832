/* Setup, czk's parameter cache and the streamed setup of any proof kind
 * (czk/kind.h), over the kind's shape_ops (kinds/pce_kind.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "czk/czk.h"
#include "kinds/pce_kind.h"
#include "groth16/groth16_internal.h"
#include "common/fileio.h"
#include "czk/pce.h"

static void report(czk_progress_fn fn, void *ctx, const char *stage, double fraction)
{
    if (fn) fn(ctx, stage, fraction);
}

czk_status czk_kind_setup(czk_groth16_params *out, const czk_proof_kind *k, const void *shape, const uint64_t *seed,
                          czk_progress_fn progress, void *ctx)
{
    czk_cs_sizes sizes;
    if (k->shape_ops->sizes(&sizes, shape) != CZK_OK) memset(&sizes, 0, sizeof sizes);
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_DEFAULT, &sizes));
    czk_csr A = {0}, B = {0}, C = {0};
    report(progress, ctx, "synthesizing shape", 0);
    czk_status s = k->shape_ops->record(cs, shape);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    if (s == CZK_OK) s = czk_cs_shape_csr(cs, &A, &B, &C);
    if (s != CZK_OK) {
        char what[96];
        k->shape_name(what, sizeof what, shape);
        s = czk_error_context(s, "setup of %s: synthesizing the shape", what);
    }
    czk_cs_sizes counts;
    czk_cs_counts(cs, &counts);
    size_t n_inputs = counts.n_inputs;
    czk_cs_destroy(cs);
    if (s == CZK_OK) {
        czk_groth16_setup_opts o = {0};
        if (seed) {
            o.use_seed = 1;
            o.seed = *seed;
        }
        o.progress = progress;
        o.progress_ctx = ctx;
        s = czk_groth16_setup(out, &A, &B, &C, n_inputs, &o);
    }
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    report(progress, ctx, "setup", 1);
    return s;
}

czk_status czk_kind_cached_params(czk_groth16_params *out, const czk_proof_kind *k, const void *shape,
                                  czk_progress_fn progress, void *ctx, char path_out[512], int *generated)
{
    char dir[400], name[256], path[512];
    CZK_TRY(czk_cache_dir(dir, sizeof dir));
    k->shape_ops->params_name(name, sizeof name, shape);
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path)
        return czk_error(CZK_ERR_INVALID_ARG, "cached parameter path %s/%s is too long", dir, name);
    if (path_out) snprintf(path_out, 512, "%s", path);
    if (generated) *generated = 0;
    if (access(path, R_OK) == 0) {
        report(progress, ctx, "reading cached parameters", 0);
        /* pinned: subgroup checks skipped when the sidecar recorded at
         * generation (or by an earlier full validation) matches the checksum */
        czk_status s = czk_groth16_params_read(out, path, CZK_GROTH16_CHECK_PINNED);
        report(progress, ctx, "reading cached parameters", 1);
        if (s == CZK_OK) return CZK_OK;
        fprintf(stderr, "czk: cached parameters unusable (%s); generating new ones\n", czk_last_error());
    }
    CZK_TRY(czk_kind_setup(out, k, shape, NULL, progress, ctx));
    if (generated) *generated = 1;
    czk_status s = czk_groth16_params_write_pinned(path, out);
    if (s != CZK_OK) fprintf(stderr, "czk: could not cache parameters: %s\n", czk_last_error());
    return CZK_OK;
}

/* ---- the streamed setup of any kind, from its PCE matrices ------------------------ */

static czk_status pce_columns(void *ctx, int matrix, czk_fr *acc, const czk_fr *lag, size_t row0, size_t row1,
                              int threads)
{
    return czk_pce_columns(ctx, matrix, acc, lag, row0, row1, threads);
}

czk_status czk_kind_setup_write(const char *params_path, const char *vk_path, const czk_proof_kind *k,
                                const void *shape, const uint64_t *seed, czk_progress_fn progress, void *ctx)
{
    czk_pce *pce = NULL;
    CZK_TRY(czk_kind_pce_get(&pce, k, shape, progress, ctx, NULL));
    czk_pce_info in;
    czk_pce_info_get(pce, &in);
    /* the file's size, known before the hours of work: h has m - 1 points
     * (m the domain), l one per aux variable, a every input and the aux
     * variables A uses, b the variables B uses (in G1 and in G2) */
    size_t m = 1;
    while (m < in.rows) m <<= 1;
    const size_t nb = (size_t)(in.b_input_popcount + in.b_aux_popcount);
    const size_t n[5] = {m - 1, (size_t)(in.cols - in.n_inputs), (size_t)(in.n_inputs + in.a_aux_popcount), nb, nb};
    czk_status st = czk__space_check(params_path, czk__params_file_bytes((size_t)in.n_inputs, n));
    if (st == CZK_OK) {
        czk_groth16_setup_circuit c = {(size_t)in.rows, (size_t)in.cols, (size_t)in.n_inputs, pce_columns, pce};
        czk_groth16_setup_opts o;
        memset(&o, 0, sizeof o);
        o.use_seed = seed != NULL;
        o.seed = seed ? *seed : 0;
        o.progress = progress;
        o.progress_ctx = ctx;
        st = czk_groth16_setup_write(params_path, vk_path, &c, &o);
    }
    czk_pce_destroy(pce);
    return st;
}
