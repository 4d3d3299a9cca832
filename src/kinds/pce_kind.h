/* What the generic code of src/kinds needs of a kind's shape, internal to
 * the library: the PCE cache key and file label, one partition's sizes, its
 * recording (synthesis without values) and the name of czk's own parameter
 * file for it. A kind describes its shape once (czk__kind_shape, the row's
 * shape_ops); the PCE drivers below, the setup and the parameter cache
 * (params.c) and the witness sources (sources.c) are written once over it.
 * The PCE cache, workspace and evaluation are src/pce's. */
#ifndef CZK_KINDS_PCE_KIND_H
#define CZK_KINDS_PCE_KIND_H

#include "czk/pce.h"
#include "kinds/sources.h"

typedef struct czk__kind_shape {
    const char *what; /* "post", "snap": errors */
    /* What the matrices depend on (the cache file's key), and a readable
     * part of the file name. */
    void (*key)(char out[CZK_PCE_KEY_MAX], const void *shape);
    void (*label)(char *out, size_t cap, const void *shape);
    /* One partition's sizes (input rows included), and its recording:
     * synthesis without values. */
    czk_status (*sizes)(czk_cs_sizes *out, const void *shape);
    czk_pce_synth_fn record;
    /* The file name of czk's cached parameters for the shape (what the
     * circuit depends on and czk's version: "porep-StackedDrg2KiBV1_1-czk0.1.0.params"). */
    void (*params_name)(char *out, size_t cap, const void *shape);
} czk__kind_shape;

#endif
