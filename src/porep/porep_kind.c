/* PoRep as a proof kind (czk/kind.h): the StackedDRG partition circuit's
 * sizes and public inputs, its v28 parameter names, and its three witness
 * sources (full synthesis, the parallel prover, PCE). Job data is a
 * const czk_fc_c1 *. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "porep/porep_internal.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "czk/porep_kind.h"
#include "circuits/porep_internal.h"
#include "kinds/sources.h"

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

/* ---- witness sources: the parallel prover and PCE (src/kinds/sources.c) ------------------ */

static czk_status porep_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                             czk_lc_kind lc)
{
    return czk__porep_par_init(c, ctx, shape, data, k, lc);
}

static const czk__kind_plan porep_par_plan = {"porep", porep_plan, sizeof(porep_par), sizeof(czk_fc_shape)};

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
    if (!pce) return czk__source_par_open(out, &porep_par_plan, &c1->shape, o->lc);
    czk_pce *p;
    czk_status r = czk_pce_porep_get(&p, &c1->shape, o->progress, o->progress_ctx, NULL);
    if (r != CZK_OK) return czk_error_context(r, "PCE of %s", czk_fc_proof_name(c1->shape.proof));
    return czk__source_pce_open(out, &porep_par_plan, &c1->shape, p);
}

const czk_proof_kind czk_kind_porep = {
    "porep", "StackedDRG proof of replication (SealCommitPhase2 of a C1 output)",
    &porep_circuit, porep_partitions, porep_param_path, porep_source_open,
    1, "porep", czk__porep_decode, czk__porep_free, czk__porep_sector_size, czk__porep_param_path_of_size,
};
