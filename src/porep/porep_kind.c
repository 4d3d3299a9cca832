/* PoRep as a proof kind (czk/kind.h): the StackedDRG partition circuit's
 * sizes and public inputs, its shapes and v28 parameter names, and its
 * parallel plan (the parallel prover and PCE's witness, src/kinds). Job data is a
 * const czk_fc_c1 *. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "porep/porep_internal.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "czk/porep_kind.h"
#include "circuits/porep_internal.h"
#include "kinds/pce_kind.h"

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

static const czk_engine_circuit porep_circuit = {"porep", porep_sizes, porep_synth, czk__porep_inputs};

/* ---- witness sources: the parallel prover and PCE (src/kinds/sources.c) ------------------ */

static czk_status porep_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                             czk_lc_kind lc)
{
    return czk__porep_par_init(c, ctx, shape, data, k, lc);
}

static const czk__kind_plan porep_par_plan = {"porep", porep_plan, sizeof(porep_par), sizeof(czk_fc_shape)};

/* ---- shapes ------------------------------------------------------------------------ */

static czk_status porep_shape_resolve(void **out, const czk_shape_spec *a)
{
    *out = NULL;
    if (a->sectors)
        return czk_error(CZK_ERR_INVALID_ARG, "--sectors is for the PoSt circuits (--circuit window-post|winning-post)");
    const int custom = a->layers || a->challenges || a->partitions || a->nodes || a->tree[0];
    if (a->sector_size && custom)
        return czk_error(CZK_ERR_INVALID_ARG, "give either --sector-size or a custom shape, not both");
    if (!a->sector_size && !custom)
        return czk_error(CZK_ERR_INVALID_ARG, "a shape is required: --sector-size S (or a custom shape)");
    if (!a->sector_size && (!a->layers || !a->challenges || !a->nodes || !a->tree[0]))
        return czk_error(CZK_ERR_INVALID_ARG, "a custom shape needs --layers, --challenges, --tree and --nodes");
    czk_fc_shape *s = malloc(sizeof *s);
    if (!s) return czk_error(CZK_ERR_NOMEM, "a PoRep shape");
    czk_status st = a->sector_size ? czk_fc_shape_of_size(s, a->sector_size)
                                   : czk_fc_shape_custom(s, a->nodes, a->layers, a->partitions ? a->partitions : 1,
                                                         a->challenges, a->tree[0], a->tree[1], a->tree[2]);
    if (st != CZK_OK) {
        free(s);
        return st;
    }
    *out = s;
    return CZK_OK;
}

static void porep_shape_name(char *out, size_t cap, const void *shape)
{
    snprintf(out, cap, "%s", czk_fc_proof_name(((const czk_fc_shape *)shape)->proof));
}

static czk_status porep_param_path(char *out, size_t cap, const char *dir, const void *shape, const char *ext)
{
    return czk_fc_param_path(out, cap, dir, ((const czk_fc_shape *)shape)->proof, ext);
}

/* ---- generation (czk demo, benchmarks) ---------------------------------------------- */

static czk_status porep_generate(void **out, const void *shape, uint64_t seed)
{
    *out = NULL;
    czk_fc_c1 *c1 = calloc(1, sizeof *c1);
    if (!c1) return czk_error(CZK_ERR_NOMEM, "a C1");
    czk_status st = czk_fc_gen_c1(c1, shape, seed, NULL, NULL);
    if (st != CZK_OK) {
        czk__porep_free(c1);
        return st;
    }
    *out = c1;
    return CZK_OK;
}

const czk_proof_kind czk_kind_porep = {
    .name = "porep",
    .summary = "StackedDRG proof of replication (SealCommitPhase2 of a C1 output)",
    .title = "PoRep",
    .circuit = &porep_circuit,
    .partitions = czk__porep_partitions,
    .plan = &porep_par_plan,
    .shape_ops = &czk__porep_shape_ops,
    .shape_resolve = porep_shape_resolve,
    .shape_of = czk__porep_shape_of,
    .shape_name = porep_shape_name,
    .param_path = porep_param_path,
    .read = czk__porep_read,
    .read_public = czk__porep_read,
    .free_public = czk__porep_free,
    .public_shape = czk__porep_shape_of,
    .public_partitions = czk__porep_partitions,
    .public_name = czk__porep_name,
    .public_inputs = czk__porep_inputs,
    .wire_kind = 1,
    .circuit_prefix = "porep",
    .decode = czk__porep_decode,
    .free_data = czk__porep_free,
    .sector_size = czk__porep_sector_size,
    .pick_flag = NULL,
    .pick_value = NULL,
    .input_flag = "--c1",
    .takes_partition = 1,
    .generate = porep_generate,
};
