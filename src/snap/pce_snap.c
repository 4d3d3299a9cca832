/* The EmptySectorUpdate circuit's parallel plan and PCE driver
 * (czk/snap_kind.h): the shape's cache key, its recording, witness-only
 * synthesis with the challenges across threads into a PCE workspace, and
 * the streamed comparison with the parallel PROVE synthesis. The cache, the
 * workspace and the evaluation are src/pce's. */
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
void czk_pce_snap_key(char out[CZK_PCE_KEY_MAX], const czk_snap_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    snprintf(out, CZK_PCE_KEY_MAX, "snap nodes=%llu tree=%u,%u,%u h=%u %s", (unsigned long long)t->nodes,
             t->base_arity, t->sub_arity, t->top_arity, t->base_height, CZK_PCE_SNAP_VERSION);
}

static czk_status snap_record(czk_cs *cs, const void *shape)
{
    return czk_snap_synthesize(cs, shape, NULL, 0);
}

static void snap_key(char out[CZK_PCE_KEY_MAX], const void *shape) { czk_pce_snap_key(out, shape); }

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

static const czk__kind_pce snap_pce = {"snap", snap_key, snap_label, snap_sizes, snap_record};

czk_status czk_pce_snap_build(czk_pce **out, const czk_snap_shape *s, czk_pce_progress_fn progress, void *ctx)
{
    return czk__kind_pce_build(out, &snap_pce, s, progress, ctx);
}

czk_status czk_pce_snap_path(char *out, size_t n, const czk_snap_shape *s)
{
    return czk__kind_pce_path(out, n, &snap_pce, s);
}

czk_status czk_pce_snap_get(czk_pce **out, const czk_snap_shape *s, czk_pce_progress_fn progress, void *ctx,
                            int *built)
{
    return czk__kind_pce_get(out, &snap_pce, s, progress, ctx, built);
}

int czk_pce_snap_is_cached(const czk_snap_shape *s) { return czk__kind_pce_is_cached(&snap_pce, s); }

czk_status czk_snap_pce_witness(czk_pce_work *w, const czk_snap_vanilla *v, uint32_t k, int threads)
{
    if (!v) return czk_error(CZK_ERR_INVALID_ARG, "snap PCE witness: NULL argument");
    return czk__kind_pce_witness(w, &snap_pce, &czk__snap_plan, &v->shape, v, k, threads);
}

czk_status czk_snap_pce_validate(const czk_pce_work *w, const czk_snap_vanilla *v, uint32_t k, int threads)
{
    return czk__kind_pce_validate(w, &czk__snap_plan, &v->shape, v, k, threads);
}
