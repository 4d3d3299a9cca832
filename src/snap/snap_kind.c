/* SnapDeals as a proof kind (czk/snap_kind.h): the EmptySectorUpdate
 * partition circuit's sizes, synthesis and public inputs over an update's
 * vanilla proofs, the shapes and v28 parameter names, and verification.
 * One job is an update: its partitions are the engine's tasks, pipelined
 * and batched like PoRep's. The parallel plan and the shape for src/kinds'
 * generic code (witness sources, PCE, setup) are pce_snap.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/snap_kind.h"
#include "kinds/pce_kind.h"
#include "snap/snap_internal.h"

/* ---- circuit ------------------------------------------------------------------ */

static czk_status snap_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    const czk_snap_vanilla *v = data;
    if (k >= v->n) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a SnapDeals job of %u", k, v->n);
    return czk__snap_shape_ops.sizes(out, &v->shape);
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

static czk_status snap_param_path(char *out, size_t cap, const char *dir, const void *shape, const char *ext)
{
    return czk_snap_param_path(out, cap, dir, shape, ext);
}

/* ---- generation (czk demo, benchmarks) ---------------------------------------------- */

static czk_status snap_generate(void **out, const void *shape, uint64_t seed)
{
    *out = NULL;
    czk_snap_vanilla *v = calloc(1, sizeof *v);
    if (!v) return czk_error(CZK_ERR_NOMEM, "an update");
    czk_status st = czk_snap_gen(v, shape, seed);
    if (st == CZK_OK) st = czk_snap_vanilla_check(v);
    if (st != CZK_OK) {
        czk__snap_free(v);
        return st;
    }
    *out = v;
    return CZK_OK;
}

const czk_proof_kind czk_kind_snap = {
    .name = "snap",
    .summary = "SnapDeals: every EmptySectorUpdate partition of an update's vanilla proofs",
    .title = "SnapDeals",
    .circuit = &snap_circuit,
    .partitions = snap_partitions,
    .plan = &czk__snap_plan,
    .shape_ops = &czk__snap_shape_ops,
    .shape_resolve = snap_shape_resolve,
    .shape_of = snap_shape_of,
    .shape_name = snap_shape_name,
    .param_path = snap_param_path,
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
    .pick_flag = "--snap",
    .pick_value = NULL,
    .input_flag = "--vanilla",
    .takes_partition = 0,
    .generate = snap_generate,
};

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
