/* MSMs over circom witnesses: most values are 0 or 1 (bits, flags), so the
 * A, B1, B2 and C MSMs skip the zeros, add the bases of the ones (and
 * negated bases of -1) with batch-affine addition trees, and send only the
 * other scalars to Pippenger (czk_msm_g1_var / _g2_var). See
 * src/io/README.md "Prover" and circom_sum_tmpl.h for the addition trees. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/msm.h"
#include "czk/tower.h"
#include "io/io_internal.h"

#define SUM_G g1
#define SUM_FE czk_fp
#define SUM_FE_(op) czk_fp_##op
#define SUM_SET_ONE(r) (*(r) = CZK_FP_ONE)
#include "io/circom_sum_tmpl.h"
#undef SUM_G
#undef SUM_FE
#undef SUM_FE_
#undef SUM_SET_ONE

#define SUM_G g2
#define SUM_FE czk_fp2
#define SUM_FE_(op) czk_fp2_##op
#define SUM_SET_ONE(r) czk_fp2_set_one(r)
#include "io/circom_sum_tmpl.h"
#undef SUM_G
#undef SUM_FE
#undef SUM_FE_
#undef SUM_SET_ONE
