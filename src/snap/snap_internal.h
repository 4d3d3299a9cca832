/* Internal to src/snap: the EmptySectorUpdate circuit's parallel plan,
 * shared by its witness sources (snap_kind.c) and its PCE driver
 * (pce_snap.c). */
#ifndef CZK_SNAP_SNAP_INTERNAL_H
#define CZK_SNAP_SNAP_INTERNAL_H

#include "kinds/sources.h"

/* Shape: a czk_snap_shape; data: a const czk_snap_vanilla * of that shape;
 * partition k of the update (the common part, then one unit per
 * challenge). */
extern const czk__kind_plan czk__snap_plan;

/* A SnapDeals request (one bincode PartitionProof per partition, the three
 * commitments) into a czk_snap_vanilla, checked natively (snap_request.c). */
czk_status czk__snap_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
void czk__snap_free(void *data);
uint64_t czk__snap_sector_size(const void *data);

#endif
