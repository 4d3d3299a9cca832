/* czk msm — the Pippenger kernel (msm_impl.h) instantiated for G1 over Fp and
 * G2 over Fp2. The costs are in multiplications of the coordinate field
 * (README.md "Cost model"): inv, a variable-time inversion; load, reading a
 * base and its digits once more per task (shared by the sets of a multi MSM);
 * with the IFMA kernels, ba_ifma, one batch-affine addition 8 at a time (the
 * offer loop included), and inv_ifma, a flush's inversion plus the Montgomery
 * trick over its 8 lanes (21 multiplications); far and far_ifma, the extra
 * cost of a bucket access per doubling of a thread's buckets past its L3
 * share (fitted to window sweeps at 2^21-2^24 points, README.md). */
#include "czk/msm.h"
#include "msm/msm_internal.h"

/* G1: czk_fp_inv_var (Pornin's binary GCD) measured at about 105 Fp
 * multiplications; a base read about 1; an IFMA addition about 3.5. */
#include "ec/group_g1.h"
#define MSM_COST_INV 105
#define MSM_COST_INV_IFMA 130
#define MSM_COST_BA_IFMA 3.5
#define MSM_COST_LOAD 1.0
#define MSM_COST_FAR 0.45
#define MSM_COST_FAR_IFMA 1.2
#define MSM_BATCH_IFMA czk__g1_batch_add_ifma
#include "msm/msm_impl.h"
#undef MSM_COST_INV
#undef MSM_COST_INV_IFMA
#undef MSM_COST_BA_IFMA
#undef MSM_COST_LOAD
#undef MSM_COST_FAR
#undef MSM_COST_FAR_IFMA
#undef MSM_BATCH_IFMA
#include "ec/group_end.h"

/* G2: one Fp inversion plus 4 Fp products, about 40 Fp2 multiplications
 * (3 Fp products each); a base read about 0.5; an IFMA addition about 4.5. */
#include "ec/group_g2.h"
#define MSM_COST_INV 40
#define MSM_COST_INV_IFMA 47
#define MSM_COST_BA_IFMA 4.5
#define MSM_COST_LOAD 0.5
#define MSM_COST_FAR 0.45
#define MSM_COST_FAR_IFMA 0.37
#define MSM_BATCH_IFMA czk__g2_batch_add_ifma
#include "msm/msm_impl.h"
#undef MSM_COST_INV
#undef MSM_COST_INV_IFMA
#undef MSM_COST_BA_IFMA
#undef MSM_COST_LOAD
#undef MSM_COST_FAR
#undef MSM_COST_FAR_IFMA
#undef MSM_BATCH_IFMA
#include "ec/group_end.h"
