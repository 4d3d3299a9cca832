/* Fr: differential tests against GMP (field_tests.h) and the scalar-field
 * facts of docs/bls12-381.md. */
#include "czk/field.h"
#include "ff/field_impl.h"

#define T czk_fr
#define FN(x) czk_fr_##x
#define N CZK_FR_LIMBS
#define NBYTES CZK_FR_BYTES
#define NBITS 255
#define PREFIX(x) fr_##x
#define TEST_FILE "test_fr.c"
#define MODULUS_LIMBS CZK_FR_MODULUS
#define MODULUS_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define fr_CONST_ONE CZK_FR_ONE
#define fr_CONST_ZERO CZK_FR_ZERO
#define fr_TO_LE czk_fr_to_bytes
#define fr_TO_BE czk_fr_to_bytes_be
#define fr_FROM_LE czk_fr_from_bytes
#define fr_FROM_BE czk_fr_from_bytes_be
#include "field_tests.h"

static void fr_of_hex(czk_fr *r, const char *hex)
{
    if (czk_fr_from_hex(r, hex) != CZK_OK) abort();
}

CZK_TEST(fr_roots_of_unity)
{
    czk_fr w, winv, t, one = CZK_FR_ONE, mone, p;
    czk_fr_neg(&mone, &one);
    REQUIRE_OK(czk_fr_root_of_unity(&w, 32));
    fr_of_hex(&t, "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    CHECK(czk_fr_eq(&w, &t));
    fr_of_hex(&winv, "0x0538a6f66e19c653ed4f2f74a35d01686f67d4a2b566f8330fb4d6e13cf19a78");
    czk_fr_mul(&p, &w, &winv);
    CHECK(czk_fr_is_one(&p));
    czk_fr_inv(&p, &w);
    CHECK(czk_fr_eq(&p, &winv));
    /* w = 7^((r-1)/2^32) */
    uint64_t e[4];
    memcpy(e, CZK_FR_MODULUS, sizeof e);
    e[0] -= 1;
    for (int i = 0; i < 3; i++) e[i] = e[i + 1]; /* >> 64 would lose bits: shift by 32 twice */
    memcpy(e, CZK_FR_MODULUS, sizeof e);
    e[0] -= 1;
    for (int i = 0; i < 4; i++) e[i] = (e[i] >> 32) | (i < 3 ? e[i + 1] << 32 : 0);
    czk_fr g;
    czk_fr_coset_gen(&g);
    czk_fr_from_u64(&t, 7);
    CHECK(czk_fr_eq(&g, &t));
    CHECK(czk_fr_legendre(&g) == -1);
    czk_fr_pow(&t, &g, e, 4);
    CHECK(czk_fr_eq(&t, &w));
    /* w^(2^31) = -1, w^(2^32) = 1 */
    t = w;
    for (int i = 0; i < 31; i++) czk_fr_sqr(&t, &t);
    CHECK(czk_fr_eq(&t, &mone));
    czk_fr_sqr(&t, &t);
    CHECK(czk_fr_is_one(&t));
    /* k = 27 from docs/bls12-381.md#roots-of-unity; each root is primitive of its order */
    REQUIRE_OK(czk_fr_root_of_unity(&t, 27));
    fr_of_hex(&p, "0x23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed");
    CHECK(czk_fr_eq(&t, &p));
    for (unsigned k = 0; k <= 32; k++) {
        REQUIRE_OK(czk_fr_root_of_unity(&t, k));
        for (unsigned i = 0; k > 0 && i + 1 < k; i++) czk_fr_sqr(&t, &t);
        if (k == 0) CHECK(czk_fr_is_one(&t));
        else CHECK_MSG(czk_fr_eq(&t, &mone), "root of order 2^%u: power 2^(k-1) is not -1", k);
    }
    CHECK(czk_fr_root_of_unity(&t, 33) == CZK_ERR_INVALID_ARG);
    CHECK(czk_fr_root_of_unity(&t, 1000) == CZK_ERR_INVALID_ARG);
}

CZK_TEST(fr_from_limbs_reduce_vs_gmp)
{
    ctx x;
    ctx_init(&x);
    for (size_t it = 0; it < iters(2000); it++) {
        uint64_t v[4];
        for (int i = 0; i < 4; i++) v[i] = czk_rng_u64(czk_test_rng());
        if (it == 0) memset(v, 0xff, sizeof v);
        if (it == 1) memcpy(v, CZK_FR_MODULUS, sizeof v);
        if (it % 5 == 2) v[3] |= 0xe000000000000000ULL;
        czk_fr a;
        czk_fr_from_limbs_reduce(&a, v);
        mpz_of(x.a, v, 4);
        mpz_mod(x.a, x.a, x.m);
        uint64_t w[4];
        czk_fr_to_limbs(w, &a);
        CHECK(raw_eq((const czk_fr *)w, x.a));
    }
    ctx_clear(&x);
}

/* CZK_FIELD_IMPL=portable forces the portable path at start-up (checked
 * through `czk version --json`, a fresh process). */
CZK_TEST(field_impl_env_forces_portable)
{
    const char *cli = czk_test_cli();
    if (!strchr(cli, '/')) {
        printf("  note: CZK_CLI not set (run through ctest); skipped\n");
        return;
    }
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "CZK_FIELD_IMPL=portable '%s' version --json", cli);
    FILE *p = popen(cmd, "r");
    REQUIRE(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    CHECK(pclose(p) == 0);
    CHECK_MSG(strstr(out, "\"field_impl\":\"portable\"") != NULL, "output: %s", out);
    if (czk_cpu_has_adx() && czk_cpu_has_bmi2()) {
        snprintf(cmd, sizeof cmd, "env -u CZK_FIELD_IMPL '%s' version --json", cli);
        p = popen(cmd, "r");
        REQUIRE(p != NULL);
        n = fread(out, 1, sizeof out - 1, p);
        out[n] = 0;
        CHECK(pclose(p) == 0);
        CHECK_MSG(strstr(out, "\"field_impl\":\"adx\"") != NULL, "output: %s", out);
    }
}
