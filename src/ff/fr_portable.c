/* Fr hot operations, portable unsigned __int128 implementation. */
/* SLP vectorization turns the limb selects into 16-byte loads of limbs just
 * stored one by one (a store-forwarding stall per element); scalar is faster. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

#include "czk/field.h"
#include "ff/field_impl.h"
#include "ff/field_constants.h"
#include "ff/limbs.h"

static const uint64_t M[4] = CZK__FR_M;

void czk_fr_mul_portable(czk_fr *r, const czk_fr *a, const czk_fr *b)
{
    czk__mont_mul(r->l, a->l, b->l, M, CZK__FR_INV, 4);
}

void czk_fr_sqr_portable(czk_fr *r, const czk_fr *a)
{
    czk__mont_sqr(r->l, a->l, M, CZK__FR_INV, 4);
}

void czk_fr_add_portable(czk_fr *r, const czk_fr *a, const czk_fr *b)
{
    czk__mod_add(r->l, a->l, b->l, M, 4);
}

void czk_fr_sub_portable(czk_fr *r, const czk_fr *a, const czk_fr *b)
{
    czk__mod_sub(r->l, a->l, b->l, M, 4);
}
