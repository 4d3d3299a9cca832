/* PoRep's prove / verify / parameter steps as a library (czk/porep.h):
 * what czk setup, prove, verify, demo and the benchmarks share. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/porep_kind.h"
#include "common/fileio.h"
#include "groth16/groth16_internal.h"
#include "kinds/params.h"

static czk_status shape_synth(czk_cs *cs, const void *shape, uint32_t k)
{
    return czk_porep_synthesize(cs, shape, NULL, k);
}

czk_status czk_porep_setup_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                  const uint64_t *seed, czk_progress_fn progress, void *ctx)
{
    czk_cs_sizes sizes;
    if (czk_porep_sizes(&sizes, shape) != CZK_OK) memset(&sizes, 0, sizeof sizes);
    return czk__params_setup(out, czk_fc_proof_name(shape->proof), &sizes, shape_synth, shape, seed, progress, ctx);
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

static czk_status gen_params(czk_groth16_params *out, const void *shape, czk_progress_fn progress, void *ctx)
{
    return czk_porep_setup_params(out, shape, NULL, progress, ctx);
}

czk_status czk_porep_cached_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                   czk_progress_fn progress, void *ctx, char path_out[512], int *generated)
{
    char name[256];
    if (shape->proof == CZK_FC_PROOF_CUSTOM)
        snprintf(name, sizeof name, "porep-custom-n%llu-l%u-c%u-t%u.%u.%u-czk%s.params",
                 (unsigned long long)shape->nodes, shape->layers, shape->challenges, shape->base_arity,
                 shape->sub_arity, shape->top_arity, CZK_VERSION_STRING);
    else
        snprintf(name, sizeof name, "porep-%s-czk%s.params", czk_fc_proof_name(shape->proof), CZK_VERSION_STRING);
    return czk__params_cached(out, name, gen_params, shape, progress, ctx, path_out, generated);
}
