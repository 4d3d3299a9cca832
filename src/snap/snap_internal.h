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

#endif
