/* Internal interface of the EmptySectorUpdate circuit (snap.c, snap_lcv.c). */
#ifndef CZK_SNAP_INTERNAL_H
#define CZK_SNAP_INTERNAL_H

#include "cs/cs_internal.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/snap.h"

struct czk__par_circuit;

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

/* Most challenges per partition (86 from 32MiB up; 10 below). */
#define CZK__SNAP_MAX_CHALLENGES 86

/* What the common part leaves for the challenges: its variables (and, with
 * values, their values), read by every challenge. */
typedef struct snap_top {
    czk_bool khs_bits[64]; /* partition bits, then the h_select bits */
    czk_anum partition, comm_r_old, comm_d_new, comm_r_new, phi, comm_c, root_r_old, root_r_new;
    czk_anum apex[CZK__SNAP_MAX_APEX];
    czk_anum part_path[CZK__SNAP_MAX_BITS];
    czk_bool gen[CZK__SNAP_MAX_CHALLENGES * CZK__SNAP_MAX_BITS]; /* challenge c's random bits at c * (B - P) */
    czk_fr gr;                                                    /* PoseidonGR's tag */
} snap_top;

/* The partition as a common part (the public inputs, phi, the comm_r
 * checks, the apex PoR, the challenge digests: czk__snap_top) and one unit
 * per challenge of identical cost (czk__snap_unit): the sequential
 * synthesis (czk__snap_synth) runs them in order, the parallel backends
 * (circuits/par.h) split the challenges across threads. */
typedef struct czk__snap_par {
    snap_ctx x;
    snap_top t;
    czk_lc_kind lc;
} czk__snap_par;

/* The plan of partition k (v NULL: counts only) into *out, its state in *p. */
czk_status czk__snap_par_init(struct czk__par_circuit *out, czk__snap_par *p, const czk_snap_shape *s,
                              const czk_snap_vanilla *v, uint32_t k, czk_lc_kind lc) CZK_WUR;

/* Per LC variant (snap_lcv.c; snap.c chooses with CZK_LC_DISPATCH). */
#define czk__snap_top                                                                   \
    CZK_LCV_NAME(czk__snap_top_vec, czk__snap_top_inline1, czk__snap_top_inline2, czk__snap_top_inline4)
#define czk__snap_unit                                                                  \
    CZK_LCV_NAME(czk__snap_unit_vec, czk__snap_unit_inline1, czk__snap_unit_inline2, czk__snap_unit_inline4)
#define czk__snap_synth                                                                 \
    CZK_LCV_NAME(czk__snap_synth_vec, czk__snap_synth_inline1, czk__snap_synth_inline2, czk__snap_synth_inline4)
#define CZK__SNAP_PROTOS(v)                                                             \
    czk_status czk__snap_top_##v(czk_cs *cs, czk__snap_par *p) CZK_WUR;                 \
    czk_status czk__snap_unit_##v(czk_cs *cs, const czk__snap_par *p, uint32_t c) CZK_WUR; \
    czk_status czk__snap_synth_##v(czk_cs *cs, czk__snap_par *p) CZK_WUR;
CZK__SNAP_PROTOS(vec)
CZK__SNAP_PROTOS(inline1)
CZK__SNAP_PROTOS(inline2)
CZK__SNAP_PROTOS(inline4)
#undef CZK__SNAP_PROTOS

#endif
