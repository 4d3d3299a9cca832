#include "porep_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>

#include "bench.h"

static void setup_progress(void *ctx, const char *stage, double fraction)
{
    czk_progress_fraction(ctx, stage, fraction);
}

czk_status czk_porep_setup_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                  const uint64_t *seed, czk_progress *pg)
{
    czk_cs_sizes sizes;
    czk_status s = czk_porep_sizes(&sizes, shape);
    if (s != CZK_OK) memset(&sizes, 0, sizeof sizes);
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_DEFAULT, &sizes));
    czk_csr A = {0}, B = {0}, C = {0};
    if (pg) czk_progress_fraction(pg, "synthesizing shape", 0);
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
        o.progress = pg ? setup_progress : NULL;
        o.progress_ctx = pg;
        s = czk_groth16_setup(out, &A, &B, &C, n_inputs, &o);
    }
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    if (pg) czk_progress_done(pg);
    return s;
}

int czk_pce_mode_parse(czk_pce_mode *out, const char *s)
{
    if (!strcmp(s, "off")) *out = CZK_PCE_MODE_OFF;
    else if (!strcmp(s, "on")) *out = CZK_PCE_MODE_ON;
    else if (!strcmp(s, "auto")) *out = CZK_PCE_MODE_AUTO;
    else return -1;
    return 0;
}

static void pce_progress(void *ctx, const char *stage, double fraction)
{
    if (ctx) czk_progress_fraction(ctx, stage, fraction);
}

czk_status czk_porep_synth_open(czk_porep_synth *s, const czk_fc_shape *shape, czk_pce_mode mode,
                                czk_progress *pg)
{
    memset(s, 0, sizeof *s);
    if (mode == CZK_PCE_MODE_OFF || (mode == CZK_PCE_MODE_AUTO && !czk_pce_porep_is_cached(shape)))
        return CZK_OK;
    czk_status st = czk_pce_porep_get(&s->pce, shape, pce_progress, pg, NULL);
    if (pg) czk_progress_done(pg);
    if (st == CZK_OK) st = czk_pce_porep_work_create(&s->work, s->pce, shape);
    if (st != CZK_OK) czk_porep_synth_close(s);
    return st;
}

void czk_porep_synth_close(czk_porep_synth *s)
{
    if (s->work) czk_pce_porep_work_destroy(s->work);
    if (s->pce) czk_pce_destroy(s->pce);
    memset(s, 0, sizeof *s);
}

czk_status czk_porep_prove_partition(czk_groth16_proof *out, const czk_groth16_params *params,
                                     const czk_fc_c1 *c1, uint32_t k, czk_lc_kind lc,
                                     czk_porep_synth *synth, czk_porep_times *times)
{
    czk_groth16_prove_opts o = {0};
    czk_groth16_timings tm;
    o.timings = &tm;
    if (synth && synth->work) {
        czk_cs_assignment w;
        czk_pce_timings pt;
        double t0 = czk_bench_now();
        czk_status s = czk_pce_porep_synthesize(synth->work, c1, k, 0, &w, &pt);
        if (s == CZK_OK) s = czk_pce_check(&w, 0);
        double t1 = czk_bench_now();
        if (s != CZK_OK) return czk_error_context(s, "partition %u: PCE synthesis", k);
        s = czk_groth16_prove(out, params, &w, &o);
        if (s != CZK_OK) return czk_error_context(s, "partition %u", k);
        if (times) {
            memset(times, 0, sizeof *times);
            times->synth_s = t1 - t0;
            times->witness_s = pt.witness_s;
            times->eval_s = pt.eval_s;
            times->used_pce = 1;
            times->g = tm;
            times->constraints = w.n_constraints;
            times->aux = w.n_aux;
            times->inputs = w.n_input;
        }
        return CZK_OK;
    }
    czk_cs_sizes sizes;
    if (czk_porep_sizes(&sizes, &c1->shape) != CZK_OK) memset(&sizes, 0, sizeof sizes);
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_PROVE, lc, &sizes));
    double t0 = czk_bench_now();
    czk_status s = czk_porep_synthesize(cs, &c1->shape, c1, k);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    double t1 = czk_bench_now();
    czk_cs_assignment w;
    if (s == CZK_OK) s = czk_cs_prove_get(cs, &w);
    if (s == CZK_OK) s = czk_cs_prove_check(cs);
    if (s != CZK_OK) {
        s = czk_error_context(s, "partition %u: synthesis", k);
    } else {
        s = czk_groth16_prove(out, params, &w, &o);
        if (s != CZK_OK) s = czk_error_context(s, "partition %u", k);
        if (times) {
            memset(times, 0, sizeof *times);
            times->synth_s = t1 - t0;
            times->g = tm;
            times->constraints = w.n_constraints;
            times->aux = w.n_aux;
            times->inputs = w.n_input;
        }
    }
    czk_cs_destroy(cs);
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

static czk_status cache_dir(char *out, size_t n)
{
    const char *d = getenv("CZK_CACHE_DIR");
    if (d && *d) {
        snprintf(out, n, "%s", d);
    } else if ((d = getenv("XDG_CACHE_HOME")) && *d) {
        snprintf(out, n, "%s/czk", d);
    } else if ((d = getenv("HOME")) && *d) {
        snprintf(out, n, "%s/.cache/czk", d);
    } else {
        return czk_error(CZK_ERR_IO, "no cache directory: set CZK_CACHE_DIR or HOME");
    }
    /* mkdir -p */
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", out);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return czk_error(CZK_ERR_IO, "%s: %s", tmp, strerror(errno));
    return CZK_OK;
}

czk_status czk_porep_cached_params(czk_groth16_params *out, const czk_fc_shape *shape,
                                   czk_progress *pg, char path_out[512], int *generated)
{
    char dir[400], path[512];
    CZK_TRY(cache_dir(dir, sizeof dir));
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
        if (pg) czk_progress_fraction(pg, "reading cached parameters", 0);
        /* pinned: subgroup checks skipped when the sidecar recorded at
         * generation (or by an earlier full validation) matches the checksum */
        czk_status s = czk_groth16_params_read(out, path, CZK_GROTH16_CHECK_PINNED);
        if (pg) czk_progress_done(pg);
        if (s == CZK_OK) return CZK_OK;
        fprintf(stderr, "czk: cached parameters unusable (%s); generating new ones\n", czk_last_error());
    }
    CZK_TRY(czk_porep_setup_params(out, shape, NULL, pg));
    if (generated) *generated = 1;
    czk_status s = czk_groth16_params_write_pinned(path, out);
    if (s != CZK_OK) fprintf(stderr, "czk: could not cache parameters: %s\n", czk_last_error());
    return CZK_OK;
}
