/* MSMs over circom witnesses: most values are 0 or 1 (bits, flags), so the
 * A, B1, B2 and C MSMs skip the zeros, add the bases of the ones (and
 * negated bases of -1) with batch-affine addition trees, and send only the
 * other scalars to Pippenger (czk_msm_g1_var / _g2_var). See
 * src/io/README.md "Prover" and circom_sum_tmpl.h for the addition trees. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/msm.h"
#include "io/io_internal.h"

#include "ec/group_g1.h"
#include "io/circom_sum_tmpl.h"
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "io/circom_sum_tmpl.h"
#include "ec/group_end.h"
