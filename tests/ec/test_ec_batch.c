/* Batched affine additions with AVX-512 IFMA (src/ec/ec_batch.h) for G1 and
 * G2 against the scalar group law; skipped without IFMA. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "ec/ec_batch.h"
#include "ec/group_tests.h"

static const char group_test_file[] = __FILE__;

#include "ec/group_g1.h"
#include "ec_batch_tests_tmpl.h"
#include "ec/group_end.h"

#include "ec/group_g2.h"
#include "ec_batch_tests_tmpl.h"
#include "ec/group_end.h"
