/* Internal interface of the FallbackPoSt circuit (post.c, post_lcv.c). */
#ifndef CZK_POST_INTERNAL_H
#define CZK_POST_INTERNAL_H

#include "circuits/par.h"
#include "cs/cs_internal.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"
#include "czk/post.h"

/* What the synthesis of one partition reads (post.c fills it). */
typedef struct post_ctx {
    const czk_post_vanilla *v; /* NULL without values */
    uint32_t sectors, challenges, sector_challenges;
    czk_merkle_shape tree; /* tree R_last */
} post_ctx;

/* Circuit sector i, challenge j answers global challenge g = i * challenges
 * + j of the partition: vanilla sector g / sector_challenges (the last one
 * when the partition is short), inclusion proof g % sector_challenges. */
static inline uint32_t czk__post_vanilla_sector(const post_ctx *x, uint32_t n, uint32_t i, uint32_t j)
{
    uint64_t g = (uint64_t)i * x->challenges + j, k = g / x->sector_challenges;
    return k < n ? (uint32_t)k : n - 1;
}
static inline uint32_t czk__post_inclusion(const post_ctx *x, uint32_t i, uint32_t j)
{
    return (uint32_t)(((uint64_t)i * x->challenges + j) % x->sector_challenges);
}

/* FallbackPoStCircuit::synthesize per LC variant (post_lcv.c; post.c chooses
 * with CZK_LC_DISPATCH); sector: circuit sector i alone (its namespace
 * "sector_i" included), the unit of the parallel synthesis. */
#define czk__post_synth                                                                 \
    CZK_LCV_NAME(czk__post_synth_vec, czk__post_synth_inline1, czk__post_synth_inline2, czk__post_synth_inline4)
#define czk__post_sector                                                                \
    CZK_LCV_NAME(czk__post_sector_vec, czk__post_sector_inline1, czk__post_sector_inline2, czk__post_sector_inline4)
#define CZK__POST_PROTOS(synth, sector)                                                 \
    czk_status synth(czk_cs *cs, const post_ctx *x) CZK_WUR;                            \
    czk_status sector(czk_cs *cs, const post_ctx *x, uint32_t i) CZK_WUR;
CZK__POST_PROTOS(czk__post_synth_vec, czk__post_sector_vec)
CZK__POST_PROTOS(czk__post_synth_inline1, czk__post_sector_inline1)
CZK__POST_PROTOS(czk__post_synth_inline2, czk__post_sector_inline2)
CZK__POST_PROTOS(czk__post_synth_inline4, czk__post_sector_inline4)
#undef CZK__POST_PROTOS

/* The parallel plan (circuits/par.h) of one partition: ONE, then the
 * circuit sectors as units of identical cost. p holds the plan's state;
 * v NULL: counts only. */
typedef struct czk__post_par {
    post_ctx x;
    czk_lc_kind lc;
} czk__post_par;
czk_status czk__post_par_init(czk__par_circuit *out, czk__post_par *p, const czk_post_shape *s,
                              const czk_post_vanilla *v, czk_lc_kind lc) CZK_WUR;

#endif
