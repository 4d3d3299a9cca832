/* Internal interface of the EmptySectorUpdate circuit (snap.c, snap_lcv.c). */
#ifndef CZK_SNAP_INTERNAL_H
#define CZK_SNAP_INTERNAL_H

#include "cs/cs_internal.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/snap.h"

/* Most apex leaves and challenge bits a shape has (128 and 32). */
#define CZK__SNAP_MAX_APEX 128
#define CZK__SNAP_MAX_BITS 40

/* What the synthesis of partition k reads (snap.c fills it). */
typedef struct snap_ctx {
    const czk_snap_shape *s;
    const czk_snap_partition *p; /* partition k's proofs; NULL without values */
    uint32_t k;
    uint64_t k_and_h_select;     /* with values */
    czk_fr comm_r_old, comm_d_new, comm_r_new; /* with values */
    czk_merkle_shape tree_r;     /* tree R old / new (Poseidon) */
    czk_merkle_shape tree_d_leaf; /* tree D from a leaf to its apex leaf (SHA-256, binary) */
    czk_merkle_shape tree_d_part; /* the partition tree: apex root to comm_d_new (SHA-256, binary) */
} snap_ctx;

/* EmptySectorUpdateCircuit::synthesize per LC variant (snap_lcv.c; snap.c
 * chooses with CZK_LC_DISPATCH). */
#define czk__snap_synth                                                                 \
    CZK_LCV_NAME(czk__snap_synth_vec, czk__snap_synth_inline1, czk__snap_synth_inline2, czk__snap_synth_inline4)
czk_status czk__snap_synth_vec(czk_cs *cs, const snap_ctx *x) CZK_WUR;
czk_status czk__snap_synth_inline1(czk_cs *cs, const snap_ctx *x) CZK_WUR;
czk_status czk__snap_synth_inline2(czk_cs *cs, const snap_ctx *x) CZK_WUR;
czk_status czk__snap_synth_inline4(czk_cs *cs, const snap_ctx *x) CZK_WUR;

#endif
