/* Tests written once over the group descriptor (src/ec/group.h) and
 * included by a test file per group: GROUP_TEST(name) is CZK_TEST with the
 * name macro-expanded first and registered under the including file's name
 * (group_test_file, which that file defines as __FILE__), so that
 * `--file test_x` selects them. */
#ifndef CZK_TESTS_GROUP_TESTS_H
#define CZK_TESTS_GROUP_TESTS_H

#include "runner.h"

#define GROUP_TEST_(name)                                                               \
    static void czk_test_##name(void);                                                  \
    __attribute__((constructor)) static void czk_test_reg_##name(void)                  \
    {                                                                                   \
        czk__test_register(group_test_file, #name, czk_test_##name);                    \
    }                                                                                   \
    static void czk_test_##name(void)
#define GROUP_TEST(name) GROUP_TEST_(name)

#endif
