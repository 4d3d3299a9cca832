/* Tests that run their body twice: with the scalar field kernels (the 8-lane
 * AVX-512 IFMA kernels off), then, where the CPU and the build have them,
 * with the IFMA kernels on (czk_field_ifma_select). The selection is
 * restored and a failure names the kernel it happened under. */
#ifndef CZK_TESTS_BOTH_KERNELS_H
#define CZK_TESTS_BOTH_KERNELS_H

#include "czk/field.h"
#include "runner.h"

static inline void both_kernels(void (*body)(void))
{
    int was = czk_field_ifma();
    for (int on = 0; on <= 1; on++) {
        if (czk_field_ifma_select(on) != CZK_OK) break;
        int before = czk_test_failures();
        body();
        if (czk_test_failures() != before)
            czk__test_fail(__FILE__, __LINE__, "  (the failures above ran with the IFMA kernels %s)",
                           on ? "on" : "off");
    }
    if (czk_field_ifma_select(was) != CZK_OK) czk__test_fail(__FILE__, __LINE__, "cannot restore the IFMA selection");
}

/* CZK_TEST(name) whose body runs under both kernels. */
#define CZK_TEST_BOTH_KERNELS(name)                                                      \
    static void name##_body(void);                                                      \
    CZK_TEST(name) { both_kernels(name##_body); }                                       \
    static void name##_body(void)

#endif
