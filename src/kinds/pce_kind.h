/* The PCE of any proof kind's shape, internal to the library: the cache
 * key and file, recording, load-or-build, and (over the kind's parallel
 * plan) witness-only synthesis into a workspace and its streamed comparison
 * with the PROVE synthesis. A kind describes its shape once
 * (czk__kind_pce); the cache, the workspace and the evaluation are
 * src/pce's. */
#ifndef CZK_KINDS_PCE_KIND_H
#define CZK_KINDS_PCE_KIND_H

#include "czk/pce.h"
#include "kinds/sources.h"

typedef struct czk__kind_pce {
    const char *what; /* "post", "snap": errors */
    /* What the matrices depend on (the cache file's key), and a readable
     * part of the file name. */
    void (*key)(char out[CZK_PCE_KEY_MAX], const void *shape);
    void (*label)(char *out, size_t cap, const void *shape);
    /* One partition's sizes (input rows included), and its recording:
     * synthesis without values. */
    czk_status (*sizes)(czk_cs_sizes *out, const void *shape);
    czk_pce_synth_fn record;
} czk__kind_pce;

czk_status czk__kind_pce_build(czk_pce **out, const czk__kind_pce *d, const void *shape, czk_pce_progress_fn progress,
                               void *ctx) CZK_WUR;
czk_status czk__kind_pce_path(char *out, size_t n, const czk__kind_pce *d, const void *shape) CZK_WUR;
czk_status czk__kind_pce_get(czk_pce **out, const czk__kind_pce *d, const void *shape, czk_pce_progress_fn progress,
                             void *ctx, int *built) CZK_WUR;
int czk__kind_pce_is_cached(const czk__kind_pce *d, const void *shape);

/* Partition k's witness (input and aux) of data (of shape) into w on
 * threads (<= 0: czk_threads()), after checking that w's PCE is shape's. */
czk_status czk__kind_pce_witness(czk_pce_work *w, const czk__kind_pce *d, const czk__kind_plan *plan,
                                 const void *shape, const void *data, uint32_t k, int threads) CZK_WUR;
/* w's a, b, c compared row by row with partition k's PROVE synthesis,
 * streamed (czk_pce_work_compare_stream). */
czk_status czk__kind_pce_validate(const czk_pce_work *w, const czk__kind_plan *plan, const void *shape,
                                  const void *data, uint32_t k, int threads) CZK_WUR;

#endif
