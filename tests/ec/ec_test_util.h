/* Helpers for the ec tests: cofactors computed from x with GMP. */
#ifndef CZK_TESTS_EC_UTIL_H
#define CZK_TESTS_EC_UTIL_H

#include <gmp.h>
#include <stdint.h>

#include "czk/field.h"
#include <string.h>

/* x = -0xd201000000010000 */
static inline void ec_test_bls_x(mpz_t x)
{
    mpz_init_set_str(x, "d201000000010000", 16);
    mpz_neg(x, x);
}

static inline void ec_test_export(uint64_t *out, size_t *n, const mpz_t v)
{
    size_t cnt = 0;
    memset(out, 0, 16 * sizeof(uint64_t));
    mpz_export(out, &cnt, -1, sizeof(uint64_t), 0, 0, v);
    *n = cnt;
}

/* h1 = (x - 1)^2 / 3 */
static inline void ec_test_cofactor_g1(uint64_t *out, size_t *n)
{
    mpz_t x, h;
    ec_test_bls_x(x);
    mpz_init(h);
    mpz_sub_ui(h, x, 1);
    mpz_mul(h, h, h);
    mpz_divexact_ui(h, h, 3);
    ec_test_export(out, n, h);
    mpz_clears(x, h, NULL);
}

/* h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 */
static inline void ec_test_cofactor_g2(uint64_t *out, size_t *n)
{
    static const long c[9] = {13, -4, -4, 6, -4, 0, 5, -4, 1}; /* c[i] x^i */
    mpz_t x, h, t;
    ec_test_bls_x(x);
    mpz_inits(h, t, NULL);
    for (int i = 8; i >= 0; i--) { /* Horner */
        mpz_mul(h, h, x);
        mpz_set_si(t, c[i]);
        mpz_add(h, h, t);
    }
    mpz_divexact_ui(h, h, 9);
    ec_test_export(out, n, h);
    mpz_clears(x, h, t, NULL);
}

#endif
