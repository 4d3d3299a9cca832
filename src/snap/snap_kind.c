/* SnapDeals as a proof kind (czk/snap_kind.h): the EmptySectorUpdate
 * partition circuit's sizes, synthesis and public inputs over an update's
 * vanilla proofs, the v28 parameter names, parameters and verification.
 * One job is an update: its partitions are the engine's tasks, pipelined
 * and batched like PoRep's; the witness source is full synthesis into the
 * PROVE backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/snap_kind.h"
#include "kinds/params.h"
#include "snap/snap_internal.h"

/* ---- circuit ------------------------------------------------------------------ */

static void shape_sizes(czk_cs_sizes *out, const czk_snap_shape *s)
{
    czk_snap_counts c;
    czk_snap_circuit_counts(&c, s);
    out->n_inputs = c.inputs;
    out->n_aux = c.aux;
    /* the engine's count includes the input constraints input_i * 0 = 0 */
    out->n_constraints = c.constraints + c.inputs;
}

static czk_status snap_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    const czk_snap_vanilla *v = data;
    if (k >= v->n) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a SnapDeals job of %u", k, v->n);
    shape_sizes(out, &v->shape);
    return CZK_OK;
}

static czk_status snap_synth(czk_cs *cs, const void *data, uint32_t k)
{
    const czk_snap_vanilla *v = data;
    return czk_snap_synthesize(cs, &v->shape, v, k);
}

static czk_status snap_inputs(czk_fr *out, size_t n, const void *data, uint32_t k)
{
    const czk_snap_vanilla *v = data;
    if (n != CZK_SNAP_PUBLIC_INPUTS)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, the SnapDeals circuit %d",
                         n + 1, CZK_SNAP_PUBLIC_INPUTS + 1);
    return czk_snap_public_inputs(out, &v->shape, k, v->h, &v->comm_r_old, &v->comm_d_new, &v->comm_r_new);
}

static const czk_engine_circuit snap_circuit = {"snap", snap_sizes, snap_synth, snap_inputs};

static uint32_t snap_partitions(const void *data)
{
    return ((const czk_snap_vanilla *)data)->n;
}

static int snap_pce_cached(const void *shape) { return czk_pce_snap_is_cached(shape); }

static czk_status snap_pce_get(czk_pce **out, const void *shape, czk_progress_fn progress, void *ctx)
{
    return czk_pce_snap_get(out, shape, progress, ctx, NULL);
}

/* Full synthesis (one partition per synthesis worker), the parallel
 * prover (--parallel: a partition's challenges on every thread) or PCE
 * (--pce on, or auto when the shape's matrices are cached). */
static czk_status snap_source_open(czk_witness_source *out, const void *data, const czk_source_opts *o)
{
    const czk__kind_sources k = {&czk__snap_plan, snap_synth, snap_pce_cached, snap_pce_get,
                                 "the SnapDeals circuit"};
    return czk__source_open(out, &k, &((const czk_snap_vanilla *)data)->shape, o);
}

/* ---- shapes ------------------------------------------------------------------------ */

static czk_status snap_shape_resolve(void **out, const czk_shape_spec *a)
{
    *out = NULL;
    if (a->layers || a->partitions || a->sectors || a->challenges)
        return czk_error(CZK_ERR_INVALID_ARG, "--layers, --partitions, --sectors and --challenges do not apply to "
                                              "snap: its constants follow from the node count");
    const int custom_tree = a->nodes || a->tree[0];
    if (a->sector_size && custom_tree)
        return czk_error(CZK_ERR_INVALID_ARG, "give either --sector-size or --nodes and --tree, not both");
    if (!a->sector_size && !custom_tree)
        return czk_error(CZK_ERR_INVALID_ARG, "snap needs --sector-size S (or --nodes N --tree B[,S[,T]])");
    if (custom_tree && (!a->nodes || !a->tree[0]))
        return czk_error(CZK_ERR_INVALID_ARG, "a custom snap shape needs --nodes and --tree");
    czk_snap_shape *s = malloc(sizeof *s);
    if (!s) return czk_error(CZK_ERR_NOMEM, "a SnapDeals shape");
    czk_status st = a->sector_size ? czk_snap_shape_of(s, a->sector_size)
                                   : czk_snap_shape_custom(s, a->nodes, a->tree[0], a->tree[1], a->tree[2]);
    if (st != CZK_OK) {
        free(s);
        return st;
    }
    *out = s;
    return CZK_OK;
}

static const void *snap_shape_of(const void *data) { return &((const czk_snap_vanilla *)data)->shape; }

static void snap_shape_name(char *out, size_t cap, const void *shape)
{
    const czk_snap_shape *s = shape;
    if (s->update_proof == CZK_SNAP_PROOF_CUSTOM)
        snprintf(out, cap, "snap (custom, %llu nodes)", (unsigned long long)s->tree.nodes);
    else
        snprintf(out, cap, "snap %s", czk_snap_proof_name(s->update_proof));
}

static czk_status snap_shape_sizes(czk_cs_sizes *out, const void *shape)
{
    shape_sizes(out, shape);
    return CZK_OK;
}

static czk_status snap_param_path(char *out, size_t cap, const char *dir, const void *shape, const char *ext)
{
    return czk_snap_param_path(out, cap, dir, shape, ext);
}

static czk_status snap_setup(czk_groth16_params *out, const void *shape, const uint64_t *seed, czk_progress_fn progress,
                             void *ctx)
{
    return czk_snap_setup_params(out, shape, seed, progress, ctx);
}

static czk_status snap_pce_build(czk_pce **out, const void *shape, czk_progress_fn progress, void *ctx)
{
    return czk_pce_snap_build(out, shape, progress, ctx);
}

static czk_status snap_pce_path(char *out, size_t cap, const void *shape) { return czk_pce_snap_path(out, cap, shape); }

const czk_proof_kind czk_kind_snap = {
    .name = "snap",
    .summary = "SnapDeals: every EmptySectorUpdate partition of an update's vanilla proofs",
    .circuit = &snap_circuit,
    .partitions = snap_partitions,
    .source_open = snap_source_open,
    .shape_resolve = snap_shape_resolve,
    .shape_of = snap_shape_of,
    .shape_name = snap_shape_name,
    .shape_sizes = snap_shape_sizes,
    .param_path = snap_param_path,
    .setup = snap_setup,
    .pce_build = snap_pce_build,
    .pce_get = snap_pce_get,
    .pce_path = snap_pce_path,
    .read = czk__snap_read,
    .read_public = czk__snap_read_public,
    .free_public = czk__snap_free_public,
    .public_shape = czk__snap_public_shape,
    .public_partitions = czk__snap_public_partitions,
    .public_name = czk__snap_public_name,
    .public_inputs = czk__snap_public_inputs,
    .wire_kind = 2,
    .circuit_prefix = "snap",
    .decode = czk__snap_decode,
    .free_data = czk__snap_free,
    .sector_size = czk__snap_sector_size,
};

/* ---- parameters ------------------------------------------------------------------- */

static czk_status shape_synth(czk_cs *cs, const void *shape, uint32_t k)
{
    return czk_snap_synthesize(cs, shape, NULL, k);
}

czk_status czk_snap_setup_params(czk_groth16_params *out, const czk_snap_shape *s, const uint64_t *seed,
                                 czk_progress_fn progress, void *ctx)
{
    czk_cs_sizes sizes;
    shape_sizes(&sizes, s);
    return czk__params_setup(out, "snap", &sizes, shape_synth, s, seed, progress, ctx);
}

static czk_status gen_params(czk_groth16_params *out, const void *s, czk_progress_fn progress, void *ctx)
{
    return czk_snap_setup_params(out, s, NULL, progress, ctx);
}

czk_status czk_snap_cached_params(czk_groth16_params *out, const czk_snap_shape *s, czk_progress_fn progress,
                                  void *ctx, char path_out[512], int *generated)
{
    char name[256];
    const czk_fc_shape *t = &s->tree;
    /* the circuit depends on the node count (the constants) and tree R */
    snprintf(name, sizeof name, "snap-n%llu-t%u.%u.%u-czk%s.params", (unsigned long long)t->nodes, t->base_arity,
             t->sub_arity, t->top_arity, CZK_VERSION_STRING);
    return czk__params_cached(out, name, gen_params, s, progress, ctx, path_out, generated);
}

/* ---- verification ------------------------------------------------------------------ */

czk_status czk_snap_verify_public(const czk_groth16_vk *vk, const czk_snap_public *pub,
                                  const czk_groth16_proof *proofs, uint32_t n)
{
    const czk_snap_shape *s = &pub->shape;
    if (vk->n_ic != CZK_SNAP_PUBLIC_INPUTS + 1)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, the SnapDeals circuit %d",
                         vk->n_ic, CZK_SNAP_PUBLIC_INPUTS + 1);
    if (n != s->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "%u proofs, a %s update has %u partitions", n,
                         czk_snap_proof_name(s->update_proof), s->partitions);
    czk_fr *in = malloc((size_t)n * CZK_SNAP_PUBLIC_INPUTS * sizeof *in);
    if (!in) return czk_error(CZK_ERR_NOMEM, "SnapDeals public inputs");
    czk_status st = CZK_OK;
    for (uint32_t k = 0; k < n && st == CZK_OK; k++)
        st = czk_snap_public_inputs(in + (size_t)k * CZK_SNAP_PUBLIC_INPUTS, s, k, pub->h, &pub->comm_r_old,
                                    &pub->comm_d_new, &pub->comm_r_new);
    czk_groth16_pvk pvk;
    if (st == CZK_OK) st = czk_groth16_pvk_prepare(&pvk, vk);
    if (st == CZK_OK) st = czk_groth16_verify_batch(&pvk, proofs, n, in, CZK_SNAP_PUBLIC_INPUTS, NULL);
    free(in);
    return st;
}

czk_status czk_snap_json_verify(const czk_groth16_vk *vk, const czk_snap_json *m, const czk_groth16_proof *proofs,
                                uint32_t n)
{
    czk_snap_public pub;
    memset(&pub, 0, sizeof pub);
    pub.shape = m->shape;
    pub.h = m->shape.h;
    if (czk_fr_from_bytes(&pub.comm_r_old, m->comm_r_old) != CZK_OK ||
        czk_fr_from_bytes(&pub.comm_d_new, m->comm_d_new) != CZK_OK ||
        czk_fr_from_bytes(&pub.comm_r_new, m->comm_r_new) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "SnapDeals: a commitment is not a field element");
    return czk_snap_verify_public(vk, &pub, proofs, n);
}
