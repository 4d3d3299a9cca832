/* Internal to src/post: the FallbackPoSt circuit's parallel plan, shared by
 * its witness sources (post_kind.c) and its PCE driver (pce_post.c). */
#ifndef CZK_POST_POST_INTERNAL_H
#define CZK_POST_POST_INTERNAL_H

#include "kinds/sources.h"

/* Shape: a czk_post_shape; data: a const czk_post_vanilla * of that shape;
 * one partition (k = 0). */
extern const czk__kind_plan czk__post_plan;

#endif
