/* czk ff — internal: implementation dispatch for the hot field operations.
 *
 * czk__field_use_adx is written once by czk_field_init()/czk_field_select()
 * and only read afterwards, so the branch in these inline dispatchers is
 * perfectly predicted. Modules with hot loops (msm, ntt, tower, ec) include
 * this header and call czk__fr_mul() etc. instead of the public czk_fr_mul(),
 * which saves one call level; the result is the same.
 */
#ifndef CZK_FF_FIELD_IMPL_H
#define CZK_FF_FIELD_IMPL_H

#include "czk/field.h"

extern int czk__field_use_adx;

#define CZK__FIELD_DISPATCH3(f, op)                                                     \
    CZK_INLINE void czk__##f##_##op(czk_##f *r, const czk_##f *a, const czk_##f *b)     \
    {                                                                                   \
        if (CZK_LIKELY(czk__field_use_adx)) czk_##f##_##op##_adx(r, a, b);              \
        else czk_##f##_##op##_portable(r, a, b);                                        \
    }
#define CZK__FIELD_DISPATCH2(f, op)                                                     \
    CZK_INLINE void czk__##f##_##op(czk_##f *r, const czk_##f *a)                       \
    {                                                                                   \
        if (CZK_LIKELY(czk__field_use_adx)) czk_##f##_##op##_adx(r, a);                 \
        else czk_##f##_##op##_portable(r, a);                                           \
    }

CZK__FIELD_DISPATCH3(fr, mul)
CZK__FIELD_DISPATCH3(fr, add)
CZK__FIELD_DISPATCH3(fr, sub)
CZK__FIELD_DISPATCH2(fr, sqr)
CZK__FIELD_DISPATCH3(fp, mul)
CZK__FIELD_DISPATCH3(fp, add)
CZK__FIELD_DISPATCH3(fp, sub)
CZK__FIELD_DISPATCH2(fp, sqr)

#endif
