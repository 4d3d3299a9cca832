/* Number gadgets, one instance per LC storage variant; shared tables. */
#include "gadgets/gadgets_internal.h"

#define CZK_TMPL_FILE "gadgets/num_tmpl.h"
#include "czk/cs_instantiate.h"
