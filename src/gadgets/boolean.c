/* Boolean gadgets, one instance per LC storage variant. */
#include "gadgets/gadgets_internal.h"

enum { CZK__BIT_XOR, CZK__BIT_AND, CZK__BIT_AND_NOT, CZK__BIT_NOR };

#define CZK_TMPL_FILE "gadgets/boolean_tmpl.h"
#include "czk/cs_instantiate.h"
