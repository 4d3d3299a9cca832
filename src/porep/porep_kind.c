/* PoRep as a proof kind (czk/kind.h): the StackedDRG partition circuit's
 * sizes and public inputs, its v28 parameter names, and its three witness
 * sources (full synthesis, the parallel prover, PCE). Job data is a
 * const czk_fc_c1 *. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "czk/porep_kind.h"

/* ---- circuit ------------------------------------------------------------------ */

static czk_status porep_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    const czk_fc_c1 *c1 = data;
    if (k >= c1->shape.partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a sector with %u", k, c1->shape.partitions);
    return czk_porep_sizes(out, &c1->shape);
}

static czk_status porep_synth(czk_cs *cs, const void *data, uint32_t k)
{
    const czk_fc_c1 *c1 = data;
    return czk_porep_synthesize(cs, &c1->shape, c1, k);
}

static czk_status porep_inputs(czk_fr *out, size_t n, const void *data, uint32_t k)
{
    const czk_fc_c1 *c1 = data;
    size_t want = czk_porep_num_inputs(&c1->shape) - 1;
    if (n != want)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, this sector's circuit %zu",
                         n + 1, want + 1);
    return czk_porep_public_inputs(out, c1, k);
}

static const czk_engine_circuit porep_circuit = {"porep", porep_sizes, porep_synth, porep_inputs};

static uint32_t porep_partitions(const void *data) { return ((const czk_fc_c1 *)data)->shape.partitions; }

static czk_status porep_param_path(char *out, size_t cap, const char *dir, const void *data, const char *ext)
{
    const czk_fc_c1 *c1 = data;
    return czk_fc_param_path(out, cap, dir, c1->shape.proof, ext);
}

/* ---- witness source: the parallel prover ------------------------------------------- */

typedef struct shape_state {
    czk_fc_shape shape;
    czk_lc_kind lc;
    czk_pce *pce; /* the PCE source only */
} shape_state;

struct czk_witness {
    czk_porep_prover *pp;      /* parallel */
    czk_pce_porep_work *work;  /* PCE */
    czk_cs_assignment asg;     /* PCE: the last synthesis' assignment */
    int have;
};

static uint64_t par_bytes(const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)s;
    /* the final vectors, plus per-thread LC scratch */
    return czk_witness_cs_bytes(z) + (uint64_t)czk_threads() * (8u << 20);
}

static czk_status par_create(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)z;
    const shape_state *st = s->state;
    czk_witness *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "parallel prover instance");
    czk_status r = czk_porep_prover_create(&w->pp, &st->shape, st->lc);
    if (r != CZK_OK) {
        free(w);
        return r;
    }
    *out = w;
    return CZK_OK;
}

static czk_status par_synthesize(czk_witness *w, const void *data, uint32_t k, int threads)
{
    return czk_porep_prover_synthesize(w->pp, data, k, threads);
}

static czk_status par_check(czk_witness *w, int threads) { return czk_porep_prover_check(w->pp, threads); }

static czk_status par_get(czk_witness *w, czk_cs_assignment *out) { return czk_porep_prover_get(w->pp, out); }

static void wit_destroy(czk_witness *w)
{
    if (!w) return;
    if (w->pp) czk_porep_prover_destroy(w->pp);
    if (w->work) czk_pce_porep_work_destroy(w->work);
    free(w);
}

static void state_close(czk_witness_source *s)
{
    shape_state *st = s->state;
    if (st && st->pce) czk_pce_destroy(st->pce);
    free(st);
}

/* ---- witness source: PCE ----------------------------------------------------------- */

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
    const shape_state *st = s->state;
    czk_witness *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "PCE instance");
    czk_status r = czk_pce_porep_work_create(&w->work, st->pce, &st->shape);
    if (r != CZK_OK) {
        free(w);
        return r;
    }
    *out = w;
    return CZK_OK;
}

static czk_status pce_synthesize(czk_witness *w, const void *data, uint32_t k, int threads)
{
    czk_pce_timings t;
    w->have = 0;
    CZK_TRY(czk_pce_porep_synthesize(w->work, data, k, threads, &w->asg, &t));
    w->have = 1;
    return CZK_OK;
}

static czk_status pce_check(czk_witness *w, int threads)
{
    if (!w->have) return czk_error(CZK_ERR_INVALID_ARG, "PCE witness: nothing synthesized");
    return czk_pce_check(&w->asg, threads);
}

static czk_status pce_get(czk_witness *w, czk_cs_assignment *out)
{
    if (!w->have) return czk_error(CZK_ERR_INVALID_ARG, "PCE witness: nothing synthesized");
    *out = w->asg;
    return CZK_OK;
}

static const czk_witness_ops par_ops = {"parallel", 1, par_bytes, par_create, par_synthesize, par_check,
                                        par_get, wit_destroy, state_close};
static const czk_witness_ops pce_ops = {"pce", 1, pce_bytes, pce_create, pce_synthesize, pce_check,
                                        pce_get, wit_destroy, state_close};

/* ---- opening a source ----------------------------------------------------------------- */

static czk_status porep_source_open(czk_witness_source *out, const void *data, const czk_source_opts *o)
{
    const czk_fc_c1 *c1 = data;
    czk_source_opts def;
    if (!o) {
        memset(&def, 0, sizeof def);
        def.lc = CZK_LC_DEFAULT;
        o = &def;
    }
    memset(out, 0, sizeof *out);
    int pce = o->pce == CZK_PCE_MODE_ON || (o->pce == CZK_PCE_MODE_AUTO && czk_pce_porep_is_cached(&c1->shape));
    if (!pce && !o->parallel) return czk_witness_source_cs(out, porep_synth, o->lc);

    shape_state *st = calloc(1, sizeof *st);
    if (!st) return czk_error(CZK_ERR_NOMEM, "witness source");
    st->shape = c1->shape;
    st->lc = o->lc;
    out->state = st;
    if (!pce) {
        out->ops = &par_ops;
        return CZK_OK;
    }
    out->ops = &pce_ops;
    czk_status r = czk_pce_porep_get(&st->pce, &c1->shape, o->progress, o->progress_ctx, NULL);
    if (r != CZK_OK) {
        czk_witness_source_close(out);
        return czk_error_context(r, "PCE of %s", czk_fc_proof_name(c1->shape.proof));
    }
    czk_pce_info info;
    czk_pce_info_get(st->pce, &info);
    out->shared_bytes = info.bytes;
    return CZK_OK;
}

const czk_proof_kind czk_kind_porep = {
    "porep", "StackedDRG proof of replication (SealCommitPhase2 of a C1 output)",
    &porep_circuit, porep_partitions, porep_param_path, porep_source_open,
};
