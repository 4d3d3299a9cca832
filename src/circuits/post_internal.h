/* Internal interface of the FallbackPoSt circuit (post.c, post_lcv.c). */
#ifndef CZK_POST_INTERNAL_H
#define CZK_POST_INTERNAL_H

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
 * with CZK_LC_DISPATCH). */
#define czk__post_synth                                                                 \
    CZK_LCV_NAME(czk__post_synth_vec, czk__post_synth_inline1, czk__post_synth_inline2, czk__post_synth_inline4)
czk_status czk__post_synth_vec(czk_cs *cs, const post_ctx *x) CZK_WUR;
czk_status czk__post_synth_inline1(czk_cs *cs, const post_ctx *x) CZK_WUR;
czk_status czk__post_synth_inline2(czk_cs *cs, const post_ctx *x) CZK_WUR;
czk_status czk__post_synth_inline4(czk_cs *cs, const post_ctx *x) CZK_WUR;

#endif
