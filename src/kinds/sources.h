/* Witness sources any proof kind can open over its parallel plan
 * (circuits/par.h), internal to the library:
 *   parallel  the PROVE assignment synthesized on the engine's threads
 *             (units split across them), bit for bit the sequential one;
 *   pce       witness-only synthesis on those threads, then a, b, c = A.w,
 *             B.w, C.w over the shape's pre-compiled matrices.
 * A kind describes its plan once (czk__kind_plan); the sources keep a copy
 * of the kind's shape and call plan() per partition. */
#ifndef CZK_KINDS_SOURCES_H
#define CZK_KINDS_SOURCES_H

#include "circuits/par.h"
#include "czk/pce.h"
#include "czk/kind.h"
#include "czk/witness.h"

typedef struct czk__kind_plan {
    const char *what; /* "porep", "post": errors */
    /* Fill *c for partition k of data (data NULL: counts only, nothing is
     * synthesized from it), with LC storage lc; ctx: ctx_size bytes of the
     * caller's for the plan's state (c->ctx points into it). */
    czk_status (*plan)(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                       czk_lc_kind lc);
    size_t ctx_size, shape_size;
} czk__kind_plan;

/* The parallel source over plan for shape (copied). */
czk_status czk__source_par_open(czk_witness_source *out, const czk__kind_plan *plan, const void *shape,
                                czk_lc_kind lc) CZK_WUR;
/* The PCE source over plan for shape (copied) and pce (taken over: the
 * source destroys it; its bytes are the source's shared_bytes). The PCE
 * must have the plan's counts (CZK_ERR_INVALID_ARG otherwise; pce is then
 * destroyed too). */
czk_status czk__source_pce_open(czk_witness_source *out, const czk__kind_plan *plan, const void *shape,
                                czk_pce *pce) CZK_WUR;

#endif
