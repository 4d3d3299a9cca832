/* The EmptySectorUpdate circuit for the generic code of src/kinds: its
 * parallel plan (a partition's challenges across threads: the parallel
 * prover and PCE's witness) and its shape (the PCE cache key and recording,
 * sizes, czk's parameter file name). The drivers over them are src/kinds';
 * the PCE cache, workspace and evaluation src/pce's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/snap_internal.h"
#include "czk/czk.h"
#include "czk/snap_kind.h"
#include "kinds/pce_kind.h"
#include "pce/pce_internal.h"
#include "snap/snap_internal.h"

static czk_status snap_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                            czk_lc_kind lc)
{
    return czk__snap_par_init(c, ctx, shape, data, k, lc);
}

const czk__kind_plan czk__snap_plan = {"snap", snap_plan, sizeof(czk__snap_par), sizeof(czk_snap_shape)};

/* Every partition of an update has the same R1CS (the partition index is a
 * public input's value): one PCE per shape. The constants follow from the
 * node count; the tree R arities are part of the key. */
static void pce_key(char out[CZK_PCE_KEY_MAX], const czk_snap_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    snprintf(out, CZK_PCE_KEY_MAX, "snap nodes=%llu tree=%u,%u,%u h=%u %s", (unsigned long long)t->nodes,
             t->base_arity, t->sub_arity, t->top_arity, t->base_height, CZK_PCE_SNAP_VERSION);
}

static czk_status snap_record(czk_cs *cs, const void *shape)
{
    return czk_snap_synthesize(cs, shape, NULL, 0);
}

static void snap_key(char out[CZK_PCE_KEY_MAX], const void *shape) { pce_key(out, shape); }

static void snap_label(char *out, size_t cap, const void *shape)
{
    const czk_fc_shape *t = &((const czk_snap_shape *)shape)->tree;
    snprintf(out, cap, "snap-%llu-t%u.%u.%u", (unsigned long long)t->sector_size, t->base_arity, t->sub_arity,
             t->top_arity);
}

static czk_status snap_sizes(czk_cs_sizes *out, const void *shape)
{
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, shape);
    *out = (czk_cs_sizes){n.inputs, n.aux, n.constraints + n.inputs};
    return CZK_OK;
}

/* czk's cached parameters: the circuit depends on the node count (the
 * constants) and tree R */
static void snap_params_name(char *out, size_t cap, const void *shape)
{
    const czk_fc_shape *t = &((const czk_snap_shape *)shape)->tree;
    snprintf(out, cap, "snap-n%llu-t%u.%u.%u-czk%s.params", (unsigned long long)t->nodes, t->base_arity, t->sub_arity,
             t->top_arity, CZK_VERSION_STRING);
}

const czk__kind_shape czk__snap_shape_ops = {"snap", snap_key, snap_label, snap_sizes, snap_record, snap_params_name};
