/* PoRep's verification and one partition outside the engine with its
 * stage timings (czk/porep_kind.h): what czk demo and the benchmarks share. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/porep_kind.h"
#include "common/fileio.h"
#include "groth16/groth16_internal.h"

czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, const czk_witness_source *src,
                                     czk_porep_times *times)
{
    czk_witness_source own;
    memset(&own, 0, sizeof own);
    if (!src) {
        CZK_TRY(czk_kind_source_open(&own, &czk_kind_porep, c1, NULL));
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
