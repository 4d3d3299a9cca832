/* Internal to src/snap: the EmptySectorUpdate circuit's parallel plan
 * and its shape for src/kinds' generic code (pce_snap.c), which the registry
 * entry (snap_kind.c) carries. */
#ifndef CZK_SNAP_SNAP_INTERNAL_H
#define CZK_SNAP_SNAP_INTERNAL_H

#include "kinds/pce_kind.h"

/* Shape: a czk_snap_shape; data: a const czk_snap_vanilla * of that shape;
 * partition k of the update (the common part, then one unit per
 * challenge). */
extern const czk__kind_plan czk__snap_plan;
/* The shape for the generic code (pce_snap.c): PCE key and recording, sizes,
 * czk's parameter file name. */
extern const czk__kind_shape czk__snap_shape_ops;

/* A SnapDeals request (one bincode PartitionProof per partition, the three
 * commitments) into a czk_snap_vanilla, checked natively (snap_request.c). */
czk_status czk__snap_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
void czk__snap_free(void *data);
uint64_t czk__snap_sector_size(const void *data);

/* snap_dir.c: a vanilla directory as job data (a czk_snap_vanilla) and its
 * snap.json as public data (a czk_snap_json). */
czk_status czk__snap_read(void **data, const char *dir) CZK_WUR;
czk_status czk__snap_read_public(void **pub, const char *dir) CZK_WUR;
void czk__snap_free_public(void *pub);
const void *czk__snap_public_shape(const void *pub);
uint32_t czk__snap_public_partitions(const void *pub);
const char *czk__snap_public_name(const void *pub);
czk_status czk__snap_public_inputs(czk_fr *out, size_t n, const void *pub, uint32_t k) CZK_WUR;

#endif
