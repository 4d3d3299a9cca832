/* Multi-scalar-set MSM (czk_msm_*_var_multi): the tests of
 * msm_multi_tests_tmpl.h for G1 and for G2. */
#include "ec/group_tests.h"
#include "msm/msm_internal.h"
#include "msm_test_util.h"

static const char group_test_file[] = __FILE__;

#include "ec/group_g1.h"
#include "msm_multi_tests_tmpl.h"
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "msm_multi_tests_tmpl.h"
#include "ec/group_end.h"
