/* czk — compile a template once per LC storage variant.
 *
 *     #define CZK_TMPL_FILE "gadgets/foo_tmpl.h"
 *     #include "czk/cs_instantiate.h"
 *
 * includes CZK_TMPL_FILE four times with CZK__LCV = vec, inline1, inline2,
 * inline4 (and CZK__LC_KIND = the matching czk_lc_kind), then undefines
 * CZK_TMPL_FILE. See czk/cs.h. No include guard on purpose. */
#ifndef CZK_TMPL_FILE
#error "define CZK_TMPL_FILE before including czk/cs_instantiate.h"
#endif
#include "czk/cs.h"

#define CZK__LCV vec
#define CZK__LC_KIND CZK_LC_VEC
#include CZK_TMPL_FILE
#undef CZK__LCV
#undef CZK__LC_KIND

#define CZK__LCV inline1
#define CZK__LC_KIND CZK_LC_INLINE1
#include CZK_TMPL_FILE
#undef CZK__LCV
#undef CZK__LC_KIND

#define CZK__LCV inline2
#define CZK__LC_KIND CZK_LC_INLINE2
#include CZK_TMPL_FILE
#undef CZK__LCV
#undef CZK__LC_KIND

#define CZK__LCV inline4
#define CZK__LC_KIND CZK_LC_INLINE4
#include CZK_TMPL_FILE
#undef CZK__LCV
#undef CZK__LC_KIND

#undef CZK_TMPL_FILE
