/* G2 group law, scalar multiplication, XYZZ and subgroup tests. */
#include "ec/group_g2.h"
static const char group_test_file[] = __FILE__;
#include "curve_tests.h"
#include "ec/group_end.h"
