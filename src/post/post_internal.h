/* Internal to src/post: the FallbackPoSt circuit's parallel plan and shape
 * for src/kinds' generic code (pce_post.c), and the request decoding and
 * vanilla directories (post_request.c, post_dir.c) the registry entries
 * (post_kind.c) carry. */
#ifndef CZK_POST_POST_INTERNAL_H
#define CZK_POST_POST_INTERNAL_H

#include "kinds/pce_kind.h"

/* Shape: a czk_post_shape; data: a const czk_post_vanilla * of that shape;
 * one partition (k = 0). */
extern const czk__kind_plan czk__post_plan;
/* The shape for the generic code (pce_post.c): PCE key and recording, sizes,
 * czk's parameter file name. */
extern const czk__kind_shape czk__post_shape_ops;

/* A WindowPoSt / WinningPoSt request (one bincode vanilla proof per sector,
 * the randomness, the miner id) into a czk_post_vanilla, checked natively. */
czk_status czk__window_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
czk_status czk__winning_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
void czk__post_free(void *data);
uint64_t czk__post_sector_size(const void *data);

/* post_dir.c: a vanilla directory as job data (a czk_post_vanilla) and its
 * post-KIND.json as public data (a czk_post_json). */
czk_status czk__window_read(void **data, const char *dir) CZK_WUR;
czk_status czk__winning_read(void **data, const char *dir) CZK_WUR;
czk_status czk__window_read_public(void **pub, const char *dir) CZK_WUR;
czk_status czk__winning_read_public(void **pub, const char *dir) CZK_WUR;
void czk__post_free_public(void *pub);
const void *czk__post_public_shape(const void *pub);
uint32_t czk__post_public_partitions(const void *pub);
const char *czk__post_public_name(const void *pub);
czk_status czk__post_public_inputs(czk_fr *out, size_t n, const void *pub, uint32_t k) CZK_WUR;

#endif
