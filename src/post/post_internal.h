/* Internal to src/post: the FallbackPoSt circuit's parallel plan, shared by
 * its witness sources (post_kind.c) and its PCE driver (pce_post.c); the
 * request decoding the registry entries take from post_request.c. */
#ifndef CZK_POST_POST_INTERNAL_H
#define CZK_POST_POST_INTERNAL_H

#include "kinds/sources.h"

/* Shape: a czk_post_shape; data: a const czk_post_vanilla * of that shape;
 * one partition (k = 0). */
extern const czk__kind_plan czk__post_plan;

/* A WindowPoSt / WinningPoSt request (one bincode vanilla proof per sector,
 * the randomness, the miner id) into a czk_post_vanilla, checked natively. */
czk_status czk__window_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
czk_status czk__winning_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
void czk__post_free(void *data);
uint64_t czk__post_sector_size(const void *data);

#endif
