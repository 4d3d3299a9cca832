/* czk test runner: registration, checks, seed and iteration control.
 *
 *   CZK_TEST(name) { CHECK(x == 1); CHECK_EQ_U64(a, b); ... }
 *
 * Every run prints its seed; CZK_TEST_SEED=N reproduces it. CZK_TEST_ITERS=N
 * scales randomized loops (czk_test_iters(default) returns N when set).
 * Each test gets its own RNG stream derived from the seed and its name, so
 * running one test alone reproduces the same inputs.
 */
#ifndef CZK_TEST_RUNNER_H
#define CZK_TEST_RUNNER_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "czk/rand.h"

typedef void (*czk_test_fn)(void);

void czk__test_register(const char *file, const char *name, czk_test_fn fn);
void czk__test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CZK_TEST(name)                                                                  \
    static void czk_test_##name(void);                                                  \
    __attribute__((constructor)) static void czk_test_reg_##name(void)                  \
    {                                                                                   \
        czk__test_register(__FILE__, #name, czk_test_##name);                           \
    }                                                                                   \
    static void czk_test_##name(void)

/* CHECK records a failure and continues; REQUIRE returns from the test. */
#define CHECK(c)                                                                        \
    do {                                                                                \
        if (!(c)) czk__test_fail(__FILE__, __LINE__, "CHECK(%s)", #c);                  \
    } while (0)
#define CHECK_MSG(c, ...)                                                               \
    do {                                                                                \
        if (!(c)) czk__test_fail(__FILE__, __LINE__, __VA_ARGS__);                      \
    } while (0)
#define REQUIRE(c)                                                                      \
    do {                                                                                \
        if (!(c)) {                                                                     \
            czk__test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #c);                      \
            return;                                                                     \
        }                                                                               \
    } while (0)
#define CHECK_EQ_U64(a, b)                                                              \
    do {                                                                                \
        unsigned long long czk__a = (unsigned long long)(a), czk__b = (unsigned long long)(b); \
        if (czk__a != czk__b)                                                           \
            czk__test_fail(__FILE__, __LINE__, "CHECK_EQ(%s, %s): %llu != %llu", #a, #b, czk__a, czk__b); \
    } while (0)
#define CHECK_MEM(a, b, n)                                                              \
    do {                                                                                \
        if (memcmp((a), (b), (n)) != 0)                                                 \
            czk__test_fail(__FILE__, __LINE__, "CHECK_MEM(%s, %s, %s) differ", #a, #b, #n); \
    } while (0)
/* Check that a czk_status expression is CZK_OK (prints czk_last_error()). */
#define CHECK_OK(e)                                                                     \
    do {                                                                                \
        int czk__s = (int)(e);                                                          \
        if (czk__s != 0)                                                                \
            czk__test_fail(__FILE__, __LINE__, "CHECK_OK(%s): status %d: %s", #e, czk__s, czk__test_last_error()); \
    } while (0)
#define REQUIRE_OK(e)                                                                   \
    do {                                                                                \
        int czk__s = (int)(e);                                                          \
        if (czk__s != 0) {                                                              \
            czk__test_fail(__FILE__, __LINE__, "REQUIRE_OK(%s): status %d: %s", #e, czk__s, czk__test_last_error()); \
            return;                                                                     \
        }                                                                               \
    } while (0)

const char *czk__test_last_error(void);

/* The run's seed, and this test's RNG (seeded from the seed and test name). */
uint64_t czk_test_seed(void);
czk_rng *czk_test_rng(void);
/* CZK_TEST_ITERS if set, else dflt. */
size_t czk_test_iters(size_t dflt);
/* Number of failures recorded in the current test so far. */
int czk_test_failures(void);
/* A scratch directory for the current test (created, removed after a pass). */
const char *czk_test_tmpdir(void);
/* Path of the czk executable (for CLI tests), from the environment CZK_CLI. */
const char *czk_test_cli(void);
/* Run a shell command built from fmt, capture up to cap-1 bytes of its stdout
 * into out (NUL-terminated); returns its exit code, -1 if it did not exit. */
int czk_test_run(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
