/* PoRep's prove / verify / parameter steps as a library (czk/porep.h):
 * what czk setup, prove, verify, demo and the benchmarks share. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/porep_kind.h"

static void report(czk_progress_fn fn, void *ctx, const char *stage, double fraction)
{
    if (fn) fn(ctx, stage, fraction);
}

czk_status czk_porep_setup_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                  const uint64_t *seed, czk_progress_fn progress, void *ctx)
{
    czk_cs_sizes sizes;
    czk_status s = czk_porep_sizes(&sizes, shape);
    if (s != CZK_OK) memset(&sizes, 0, sizeof sizes);
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_DEFAULT, &sizes));
    czk_csr A = {0}, B = {0}, C = {0};
    report(progress, ctx, "synthesizing shape", 0);
    s = czk_porep_synthesize(cs, shape, NULL, 0);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    if (s == CZK_OK) s = czk_cs_shape_csr(cs, &A, &B, &C);
    size_t n_inputs = cs->n_inputs;
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

czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, const czk_witness_source *src,
                                     czk_porep_times *times)
{
    czk_witness_source own;
    memset(&own, 0, sizeof own);
    if (!src) {
        CZK_TRY(czk_kind_porep.source_open(&own, c1, NULL));
        src = &own;
    }
    czk_cs_sizes sizes;
    czk_status s = czk_kind_porep.circuit->sizes(&sizes, c1, k);
    czk_witness *w = NULL;
    if (s == CZK_OK) s = src->ops->create(&w, src, &sizes);
    double t0 = czk_now(), t1 = t0;
    if (s == CZK_OK) s = src->ops->synthesize(w, c1, k, czk_threads());
    t1 = czk_now();
    if (s == CZK_OK) s = src->ops->check(w, czk_threads());
    czk_cs_assignment asg;
    if (s == CZK_OK) s = src->ops->get(w, &asg);
    if (s != CZK_OK) {
        s = czk_error_context(s, "partition %u: %s synthesis", k, src->ops->name);
    } else {
        czk_groth16_prove_opts o = {0};
        czk_groth16_timings tm;
        o.timings = &tm;
        s = czk_groth16_prove(out, params, &asg, &o);
        if (s != CZK_OK) s = czk_error_context(s, "partition %u", k);
        if (s == CZK_OK && times) {
            memset(times, 0, sizeof *times);
            times->synth_s = t1 - t0;
            times->source = src->ops->name;
            times->g = tm;
            times->constraints = asg.n_constraints;
            times->aux = asg.n_aux;
            times->inputs = asg.n_input;
        }
    }
    if (w) src->ops->destroy(w);
    czk_witness_source_close(&own);
    return s;
}

czk_status czk_porep_verify(const czk_groth16_vk *vk, const czk_fc_c1 *c1,
                            const czk_groth16_proof *proofs, uint32_t n_parts)
{
    size_t n = czk_porep_num_inputs(&c1->shape) - 1;
    czk_fr *inputs = malloc((size_t)n_parts * n * sizeof(czk_fr));
    if (!inputs) return czk_error(CZK_ERR_NOMEM, "public inputs");
    czk_status s = CZK_OK;
    for (uint32_t k = 0; k < n_parts && s == CZK_OK; k++) s = czk_porep_public_inputs(inputs + k * n, c1, k);
    czk_groth16_pvk pvk;
    if (s == CZK_OK) s = czk_groth16_pvk_prepare(&pvk, vk);
    if (s == CZK_OK) {
        if (vk->n_ic != n + 1)
            s = czk_error(CZK_ERR_INVALID_ARG,
                          "the verifying key has %zu public inputs, this sector's circuit %zu", vk->n_ic,
                          n + 1);
        else if (n_parts == 1)
            s = czk_groth16_verify(&pvk, proofs, inputs, n);
        else
            s = czk_groth16_verify_batch(&pvk, proofs, n_parts, inputs, n, NULL);
    }
    free(inputs);
    return s;
}

czk_status czk_porep_cached_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                   czk_progress_fn progress, void *ctx, char path_out[512], int *generated)
{
    char dir[400], path[512];
    CZK_TRY(czk_cache_dir(dir, sizeof dir));
    if (shape->proof == CZK_FC_PROOF_CUSTOM)
        snprintf(path, sizeof path, "%s/porep-custom-n%llu-l%u-c%u-t%u.%u.%u-czk%s.params", dir,
                 (unsigned long long)shape->nodes, shape->layers, shape->challenges, shape->base_arity,
                 shape->sub_arity, shape->top_arity, CZK_VERSION_STRING);
    else
        snprintf(path, sizeof path, "%s/porep-%s-czk%s.params", dir, czk_fc_proof_name(shape->proof),
                 CZK_VERSION_STRING);
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
    CZK_TRY(czk_porep_setup_params(out, shape, NULL, progress, ctx));
    if (generated) *generated = 1;
    czk_status s = czk_groth16_params_write_pinned(path, out);
    if (s != CZK_OK) fprintf(stderr, "czk: could not cache parameters: %s\n", czk_last_error());
    return CZK_OK;
}
