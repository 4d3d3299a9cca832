/* Internal helpers shared by the gadget templates. */
#ifndef CZK_GADGETS_INTERNAL_H
#define CZK_GADGETS_INTERNAL_H

#include "czk/gadgets.h"

/* 2^i and -2^i in Montgomery form, 0 <= i < 256 (tables built by
 * czk_cs_create, so valid wherever a czk_cs exists). */
static inline const czk_fr *czk__fr_pow2(unsigned i) { return &czk__pow2_table[i & 255]; }
static inline const czk_fr *czk__fr_pow2_neg(unsigned i) { return &czk__pow2_neg_table[i & 255]; }

#endif
