/* NTT tests: against the O(n^2) DFT, Horner evaluation, slow polynomial
 * arithmetic for the Groth16 / snarkjs H steps, and GMP for the roots. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/ntt.h"
#include "ntt/ntt_internal.h"
#include "both_kernels.h"
#include "runner.h"

static int asan(void) { return getenv("CZK_TEST_ASAN") != NULL; }

static czk_fr *fr_alloc(size_t n)
{
    czk_fr *p = malloc((n ? n : 1) * sizeof(czk_fr));
    if (!p) abort();
    return p;
}

/* Random elements biased to edges: 0, 1, -1 and runs of equal values. */
static void fill_random(czk_fr *a, size_t n, czk_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t sel = czk_rng_below(rng, 16);
        if (sel == 0) a[i] = CZK_FR_ZERO;
        else if (sel == 1) a[i] = CZK_FR_ONE;
        else if (sel == 2) czk_fr_neg(&a[i], &CZK_FR_ONE);
        else if (sel == 3 && i > 0) a[i] = a[i - 1];
        else czk_fr_random(&a[i], rng);
    }
}

/* P(x) = sum_j p_j x^j by Horner. */
static void horner(czk_fr *r, const czk_fr *p, size_t n, const czk_fr *x)
{
    czk_fr acc = CZK_FR_ZERO;
    for (size_t j = n; j-- > 0;) {
        czk_fr_mul(&acc, &acc, x);
        czk_fr_add(&acc, &acc, &p[j]);
    }
    *r = acc;
}

static int vec_eq(const czk_fr *a, const czk_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!czk_fr_eq(&a[i], &b[i])) return 0;
    return 1;
}

static size_t rev(size_t x, unsigned k)
{
    size_t r = 0;
    for (unsigned i = 0; i < k; i++) r |= ((x >> i) & 1) << (k - 1 - i);
    return r;
}

static void permute_ref(czk_fr *out, const czk_fr *in, unsigned k)
{
    for (size_t i = 0; i < ((size_t)1 << k); i++) out[rev(i, k)] = in[i];
}

static void pow2(czk_fr *r, const czk_fr *a, unsigned e)
{
    *r = *a;
    for (unsigned i = 0; i < e; i++) czk_fr_sqr(r, r);
}

static void fr_to_mpz(mpz_t z, const czk_fr *a)
{
    uint64_t l[4];
    czk_fr_to_limbs(l, a);
    mpz_import(z, 4, -1, sizeof(uint64_t), 0, 0, l);
}

CZK_TEST(ntt_roots_gen7)
{
    czk_fr w, e;
    REQUIRE_OK(czk_ntt_root_of_unity(&w, 32, CZK_NTT_ROOTS_GEN7));
    REQUIRE_OK(czk_fr_from_hex(&e, "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
    CHECK(czk_fr_eq(&w, &e));
    REQUIRE_OK(czk_ntt_root_of_unity(&w, 27, CZK_NTT_ROOTS_GEN7));
    REQUIRE_OK(czk_fr_from_hex(&e, "0x23397a9300f8f98bece8ea224f31d25db94f1101b1d7a628e2d0a7869f0319ed"));
    CHECK(czk_fr_eq(&w, &e));
    CHECK(czk_ntt_root_of_unity(&w, 33, CZK_NTT_ROOTS_GEN7) == CZK_ERR_INVALID_ARG);
    CHECK(czk_ntt_root_of_unity(&w, 3, (czk_ntt_roots)7) == CZK_ERR_INVALID_ARG);
}

/* snarkjs roots: 5 is the smallest non-residue, r - 1 = 2^32 t with t odd,
 * omega_(2^32) = 5^t is a primitive 2^32-th root, and each smaller root is
 * the square of the next. */
CZK_TEST(ntt_roots_nqr5)
{
    czk_fr x, w, m1, t;
    for (uint64_t v = 2; v <= 5; v++) {
        czk_fr_from_u64(&x, v);
        CHECK_MSG(czk_fr_legendre(&x) == (v == 5 ? -1 : 1), "legendre(%llu)", (unsigned long long)v);
    }
    /* GMP: (r - 1) / 2^32 is odd, and 5^((r-1)/2^32) mod r equals our root */
    mpz_t r, tt, five, g;
    mpz_inits(r, tt, five, g, NULL);
    mpz_set_str(r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    mpz_sub_ui(tt, r, 1);
    CHECK(mpz_scan1(tt, 0) == 32);
    mpz_tdiv_q_2exp(tt, tt, 32);
    mpz_set_ui(five, 5);
    mpz_powm(five, five, tt, r);
    REQUIRE_OK(czk_ntt_root_of_unity(&w, 32, CZK_NTT_ROOTS_NQR5));
    fr_to_mpz(g, &w);
    CHECK(mpz_cmp(g, five) == 0);
    mpz_clears(r, tt, five, g, NULL);

    czk_fr_neg(&m1, &CZK_FR_ONE);
    pow2(&t, &w, 31);
    CHECK(czk_fr_eq(&t, &m1)); /* w^(2^31) = -1: order exactly 2^32 */
    pow2(&t, &w, 32);
    CHECK(czk_fr_is_one(&t));
    for (unsigned k = 0; k <= 32; k++) {
        czk_fr wk, w7;
        REQUIRE_OK(czk_ntt_root_of_unity(&wk, k, CZK_NTT_ROOTS_NQR5));
        pow2(&t, &w, 32 - k);
        CHECK_MSG(czk_fr_eq(&t, &wk), "nqr5 root 2^%u", k);
        if (k >= 1) {
            pow2(&t, &wk, k - 1);
            CHECK_MSG(czk_fr_eq(&t, &m1), "nqr5 root 2^%u not primitive", k);
        }
        REQUIRE_OK(czk_ntt_root_of_unity(&w7, k, CZK_NTT_ROOTS_GEN7));
        if (k >= 3) CHECK_MSG(!czk_fr_eq(&w7, &wk), "families agree at 2^%u", k);
    }
}

/* Every entry point against the O(n^2) DFT for n = 2^k <= 2^10, both root
 * families, radix-2 and radix-4 blocks, block sizes that make top passes. */
CZK_TEST_BOTH_KERNELS(ntt_vs_dft)
{
    czk_rng *rng = czk_test_rng();
    unsigned kmax = asan() ? 9 : 10;
    for (int fam = 0; fam < 2; fam++) {
        for (unsigned k = 0; k <= kmax; k++) {
            size_t n = (size_t)1 << k;
            czk_ntt_domain *d;
            REQUIRE_OK(czk_ntt_domain_create(&d, k, (czk_ntt_roots)fam));
            czk_fr w, wi, ni, *x = fr_alloc(n), *ref = fr_alloc(n), *iref = fr_alloc(n), *y = fr_alloc(n),
                              *ref_br = fr_alloc(n), *x_br = fr_alloc(n);
            czk_ntt_domain_omega(&w, &wi, &ni, d);
            fill_random(x, n, rng);
            czk_ntt_dft_ref(ref, x, n, &w);
            czk_ntt_dft_ref(iref, x, n, &wi);
            for (size_t i = 0; i < n; i++) czk_fr_mul(&iref[i], &iref[i], &ni);
            permute_ref(ref_br, ref, k);
            permute_ref(x_br, x, k);
            /* Horner at the roots: an independent check of the reference itself */
            for (size_t t = 0; t < 3 && n > 0; t++) {
                size_t i = czk_rng_below(rng, n);
                czk_fr wp, v;
                czk_fr_pow_u64(&wp, &w, i);
                horner(&v, x, n, &wp);
                CHECK(czk_fr_eq(&v, &ref[i]));
            }
            /* (block log, pass levels): several passes, one pass, one block */
            unsigned blogs[4][2] = {{4, 1}, {4, 2}, {5, 7}, {13, 7}};
            for (int bi = 0; bi < 4; bi++) {
                for (int r4 = 0; r4 < 2; r4++) {
                    czk_ntt_domain_set_block_log(d, blogs[bi][0]);
                    czk_ntt_domain_set_pass_max(d, blogs[bi][1]);
                    czk_ntt_domain_set_radix4(d, r4);
                    int ok = 1;
                    memcpy(y, x, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_forward(d, y, n));
                    ok &= vec_eq(y, ref, n);
                    memcpy(y, x, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_inverse(d, y, n));
                    ok &= vec_eq(y, iref, n);
                    memcpy(y, x, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_forward_dif(d, y, n));
                    ok &= vec_eq(y, ref_br, n);
                    memcpy(y, x_br, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_forward_dit(d, y, n));
                    ok &= vec_eq(y, ref, n);
                    memcpy(y, x_br, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_inverse_dit(d, y, n));
                    ok &= vec_eq(y, iref, n);
                    memcpy(y, x, n * sizeof *y);
                    REQUIRE_OK(czk_ntt_inverse_dif(d, y, n));
                    permute_ref(x_br, iref, k); /* reuse as scratch: iref bit-reversed */
                    ok &= vec_eq(y, x_br, n);
                    permute_ref(x_br, x, k);
                    CHECK_MSG(ok, "family %d k %u block_log %u pass %u radix4 %d", fam, k, blogs[bi][0], blogs[bi][1], r4);
                }
            }
            free(x), free(ref), free(iref), free(y), free(ref_br), free(x_br);
            czk_ntt_domain_destroy(d);
        }
    }
}

/* inverse(forward(x)) = x at 2^16, 2^18, 2^20 (2^12..2^15 under ASan), forward checked by Horner at random
 * roots, and 1, 2 and 3 threads give identical bits. */
CZK_TEST_BOTH_KERNELS(ntt_roundtrip_large)
{
    czk_rng *rng = czk_test_rng();
    unsigned klo = asan() ? 12 : 16, khi = asan() ? 15 : 20;
    for (unsigned k = klo; k <= khi; k += asan() ? 1 : 2) {
        size_t n = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, (k / 2) & 1 ? CZK_NTT_ROOTS_NQR5 : CZK_NTT_ROOTS_GEN7));
        CHECK(czk_ntt_domain_memory(d) >= (n - 1) * sizeof(czk_fr));
        czk_fr w, *x = fr_alloc(n), *y = fr_alloc(n), *z = fr_alloc(n);
        czk_ntt_domain_omega(&w, NULL, NULL, d);
        fill_random(x, n, rng);
        memcpy(y, x, n * sizeof *y);
        czk_ntt_domain_set_threads(d, 1);
        REQUIRE_OK(czk_ntt_forward(d, y, n));
        for (int t = 0; t < 4; t++) {
            size_t i = t == 0 ? 0 : t == 1 ? n - 1 : czk_rng_below(rng, n);
            czk_fr wp, v;
            czk_fr_pow_u64(&wp, &w, i);
            horner(&v, x, n, &wp);
            CHECK_MSG(czk_fr_eq(&v, &y[i]), "k %u: X_%zu differs from Horner", k, i);
        }
        for (int th = 2; th <= 3; th++) {
            memcpy(z, x, n * sizeof *z);
            czk_ntt_domain_set_threads(d, th);
            REQUIRE_OK(czk_ntt_forward(d, z, n));
            CHECK_MSG(vec_eq(y, z, n), "k %u: %d threads differ from 1", k, th);
        }
        /* several top passes (block 2^4, 3 levels per pass) */
        memcpy(z, x, n * sizeof *z);
        czk_ntt_domain_set_block_log(d, 4);
        czk_ntt_domain_set_pass_max(d, k == klo ? 3 : 7);
        REQUIRE_OK(czk_ntt_forward(d, z, n));
        CHECK_MSG(vec_eq(y, z, n), "k %u: small blocks / several passes differ", k);
        czk_ntt_domain_set_block_log(d, 14);
        czk_ntt_domain_set_pass_max(d, 7);
        czk_ntt_domain_set_threads(d, 0);
        REQUIRE_OK(czk_ntt_inverse(d, y, n));
        CHECK_MSG(vec_eq(x, y, n), "k %u: inverse(forward(x)) != x", k);
        /* no-permutation pair: forward_dif then inverse_dit */
        REQUIRE_OK(czk_ntt_forward_dif(d, y, n));
        REQUIRE_OK(czk_ntt_inverse_dit(d, y, n));
        CHECK_MSG(vec_eq(x, y, n), "k %u: inverse_dit(forward_dif(x)) != x", k);
        czk_ntt_domain_set_radix4(d, 0);
        REQUIRE_OK(czk_ntt_inverse_dif(d, y, n));
        REQUIRE_OK(czk_ntt_forward_dit(d, y, n));
        CHECK_MSG(vec_eq(x, y, n), "k %u: forward_dit(inverse_dif(x)) != x (radix-2)", k);
        free(x), free(y), free(z);
        czk_ntt_domain_destroy(d);
    }
}

/* Coset transforms: coset_forward(x)[i] = X(s omega^i) by Horner; the inverse
 * restores x; default shift is 7. */
CZK_TEST_BOTH_KERNELS(ntt_coset)
{
    czk_rng *rng = czk_test_rng();
    unsigned ks[] = {0, 1, 3, 8, 12, 15};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        if (asan() && k > 12) continue;
        size_t n = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
        czk_fr w, s, *x = fr_alloc(n), *y = fr_alloc(n);
        czk_ntt_domain_omega(&w, NULL, NULL, d);
        for (int variant = 0; variant < 2; variant++) {
            if (variant == 0) czk_fr_from_u64(&s, 7);
            else czk_fr_random(&s, rng);
            fill_random(x, n, rng);
            memcpy(y, x, n * sizeof *y);
            REQUIRE_OK(czk_ntt_coset_forward(d, y, n, variant == 0 ? NULL : &s));
            for (int t = 0; t < 4; t++) {
                size_t i = czk_rng_below(rng, n);
                czk_fr pt, v;
                czk_fr_pow_u64(&pt, &w, i);
                czk_fr_mul(&pt, &pt, &s);
                horner(&v, x, n, &pt);
                CHECK_MSG(czk_fr_eq(&v, &y[i]), "k %u variant %d: coset value %zu", k, variant, i);
            }
            REQUIRE_OK(czk_ntt_coset_inverse(d, y, n, variant == 0 ? NULL : &s));
            CHECK_MSG(vec_eq(x, y, n), "k %u variant %d: coset round trip", k, variant);
        }
        czk_fr zero = CZK_FR_ZERO;
        CHECK(czk_ntt_coset_forward(d, y, n, &zero) == CZK_ERR_INVALID_ARG);
        free(x), free(y);
        czk_ntt_domain_destroy(d);
    }
}

/* Groth16 H from a polynomial identity: A, B random of degree < m, c the
 * values of A B mod (x^m - 1) on the domain (= a_i b_i). Then A B - C =
 * Q (x^m - 1) with Q_j = (A B)_(j+m), j <= m - 2, by schoolbook product. */
CZK_TEST_BOTH_KERNELS(ntt_groth16_h_identity)
{
    czk_rng *rng = czk_test_rng();
    unsigned kmax = asan() ? 6 : 9;
    for (unsigned k = 0; k <= kmax; k++) {
        size_t m = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
        czk_ntt_domain_set_block_log(d, 4);
        czk_fr w, *A = fr_alloc(m), *B = fr_alloc(m), *P = fr_alloc(2 * m), *a = fr_alloc(m),
                  *b = fr_alloc(m), *c = fr_alloc(m), t;
        czk_ntt_domain_omega(&w, NULL, NULL, d);
        fill_random(A, m, rng);
        fill_random(B, m, rng);
        for (size_t i = 0; i < 2 * m; i++) P[i] = CZK_FR_ZERO;
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++) {
                czk_fr_mul(&t, &A[i], &B[j]);
                czk_fr_add(&P[i + j], &P[i + j], &t);
            }
        czk_ntt_dft_ref(a, A, m, &w);
        czk_ntt_dft_ref(b, B, m, &w);
        for (size_t i = 0; i < m; i++) czk_fr_mul(&c[i], &a[i], &b[i]);
        REQUIRE_OK(czk_ntt_groth16_h(d, a, b, c, m));
        int ok = 1;
        for (size_t j = 0; j + 1 < m; j++) ok &= czk_fr_eq(&a[j], &P[j + m]);
        ok &= czk_fr_is_zero(&a[m - 1]);
        CHECK_MSG(ok, "m = 2^%u: h differs from the quotient (AB - C)/(x^m - 1)", k);
        free(A), free(B), free(P), free(a), free(b), free(c);
        czk_ntt_domain_destroy(d);
    }
}

/* Groth16 H on arbitrary (unsatisfied) a, b, c against the docs/groth16.md steps
 * done slowly: interpolate by the O(n^2) inverse DFT, evaluate on the coset
 * g omega^i by Horner, divide by g^m - 1, interpolate on the coset. */
CZK_TEST_BOTH_KERNELS(ntt_groth16_h_slow)
{
    czk_rng *rng = czk_test_rng();
    unsigned ks[] = {1, 4, 7, 10};
    for (size_t ki = 0; ki < 4; ki++) {
        unsigned k = ks[ki];
        if (asan() && k > 7) continue;
        size_t m = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
        czk_fr w, wi, ni, g, gi, z, *v[3], *coef = fr_alloc(m), *ev[3], *h = fr_alloc(m), *e = fr_alloc(m);
        czk_ntt_domain_omega(&w, &wi, &ni, d);
        czk_fr_from_u64(&g, 7);
        czk_fr_inv(&gi, &g);
        for (int j = 0; j < 3; j++) {
            v[j] = fr_alloc(m);
            ev[j] = fr_alloc(m);
            fill_random(v[j], m, rng);
            czk_ntt_dft_ref(coef, v[j], m, &wi);
            for (size_t i = 0; i < m; i++) czk_fr_mul(&coef[i], &coef[i], &ni);
            for (size_t i = 0; i < m; i++) {
                czk_fr pt;
                czk_fr_pow_u64(&pt, &w, i);
                czk_fr_mul(&pt, &pt, &g);
                horner(&ev[j][i], coef, m, &pt);
            }
        }
        czk_fr_pow_u64(&z, &g, m);
        czk_fr_sub(&z, &z, &CZK_FR_ONE);
        czk_fr_inv(&z, &z);
        for (size_t i = 0; i < m; i++) {
            czk_fr_mul(&e[i], &ev[0][i], &ev[1][i]);
            czk_fr_sub(&e[i], &e[i], &ev[2][i]);
            czk_fr_mul(&e[i], &e[i], &z);
        }
        czk_ntt_dft_ref(h, e, m, &wi);
        czk_fr gp = ni;
        for (size_t i = 0; i < m; i++) {
            czk_fr_mul(&h[i], &h[i], &gp);
            czk_fr_mul(&gp, &gp, &gi);
        }
        for (int th = 1; th <= 2; th++) {
            czk_fr *a = fr_alloc(m), *b = fr_alloc(m), *c = fr_alloc(m);
            memcpy(a, v[0], m * sizeof *a);
            memcpy(b, v[1], m * sizeof *b);
            memcpy(c, v[2], m * sizeof *c);
            czk_ntt_domain_set_threads(d, th);
            REQUIRE_OK(czk_ntt_groth16_h(d, a, b, c, m));
            CHECK_MSG(vec_eq(a, h, m), "m = 2^%u threads %d: h differs from the slow computation", k, th);
            free(a), free(b), free(c);
        }
        for (int j = 0; j < 3; j++) free(v[j]), free(ev[j]);
        free(coef), free(h), free(e);
        czk_ntt_domain_destroy(d);
    }
}

/* snarkjs H (docs/circom.md): values at the odd coset omega_2n^(2i+1) of the
 * interpolants, h_i = a'_i b'_i - c'_i; checked by Horner. */
CZK_TEST_BOTH_KERNELS(ntt_snarkjs_h)
{
    czk_rng *rng = czk_test_rng();
    unsigned ks[] = {0, 2, 5, 9};
    for (size_t ki = 0; ki < 4; ki++) {
        unsigned k = ks[ki];
        size_t n = (size_t)1 << k;
        czk_ntt_domain *d, *d7;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_NQR5));
        REQUIRE_OK(czk_ntt_domain_create(&d7, k, CZK_NTT_ROOTS_GEN7));
        czk_fr wi, ni, w2, *v[3], *coef[3], *a = fr_alloc(n), *b = fr_alloc(n), *c = fr_alloc(n);
        czk_ntt_domain_omega(NULL, &wi, &ni, d);
        REQUIRE_OK(czk_ntt_root_of_unity(&w2, k + 1, CZK_NTT_ROOTS_NQR5));
        for (int j = 0; j < 3; j++) {
            v[j] = fr_alloc(n);
            coef[j] = fr_alloc(n);
            fill_random(v[j], n, rng);
            czk_ntt_dft_ref(coef[j], v[j], n, &wi);
            for (size_t i = 0; i < n; i++) czk_fr_mul(&coef[j][i], &coef[j][i], &ni);
        }
        memcpy(a, v[0], n * sizeof *a);
        memcpy(b, v[1], n * sizeof *b);
        memcpy(c, v[2], n * sizeof *c);
        REQUIRE_OK(czk_ntt_snarkjs_h(d, a, b, c, n));
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            czk_fr pt, ea, eb, ec;
            czk_fr_pow_u64(&pt, &w2, 2 * i + 1);
            horner(&ea, coef[0], n, &pt);
            horner(&eb, coef[1], n, &pt);
            horner(&ec, coef[2], n, &pt);
            czk_fr_mul(&ea, &ea, &eb);
            czk_fr_sub(&ea, &ea, &ec);
            ok &= czk_fr_eq(&ea, &a[i]);
        }
        CHECK_MSG(ok, "n = 2^%u: snarkjs h differs from Horner on the odd coset", k);
        CHECK(czk_ntt_snarkjs_h(d7, a, b, c, n) == CZK_ERR_INVALID_ARG);
        for (int j = 0; j < 3; j++) free(v[j]), free(coef[j]);
        free(a), free(b), free(c);
        czk_ntt_domain_destroy(d);
        czk_ntt_domain_destroy(d7);
    }
}

CZK_TEST(ntt_bitreverse)
{
    czk_rng *rng = czk_test_rng();
    for (unsigned k = 0; k <= 16; k++) {
        size_t n = (size_t)1 << k;
        czk_fr *x = fr_alloc(n), *y = fr_alloc(n), *r = fr_alloc(n);
        fill_random(x, n, rng);
        memcpy(y, x, n * sizeof *y);
        permute_ref(r, x, k);
        REQUIRE_OK(czk_ntt_bitreverse(y, n, 2));
        CHECK_MSG(vec_eq(y, r, n), "bitreverse 2^%u", k);
        free(x), free(y), free(r);
    }
    czk_fr t[3];
    CHECK(czk_ntt_bitreverse(t, 3, 1) == CZK_ERR_INVALID_ARG);
    CHECK(czk_ntt_bitreverse(t, 0, 1) == CZK_ERR_INVALID_ARG);
}

CZK_TEST(ntt_distribute_powers)
{
    czk_rng *rng = czk_test_rng();
    size_t n = 5000;
    czk_fr s, c, *x = fr_alloc(n), *y = fr_alloc(n);
    czk_fr_random(&s, rng);
    czk_fr_random(&c, rng);
    fill_random(x, n, rng);
    memcpy(y, x, n * sizeof *y);
    czk_ntt_distribute_powers(y, n, &s, &c, 2);
    int ok = 1;
    czk_fr p = c;
    for (size_t i = 0; i < n; i++) {
        czk_fr e;
        czk_fr_mul(&e, &x[i], &p);
        ok &= czk_fr_eq(&e, &y[i]);
        czk_fr_mul(&p, &p, &s);
    }
    CHECK(ok);
    free(x), free(y);
}

CZK_TEST(ntt_bad_args)
{
    czk_ntt_domain *d = (czk_ntt_domain *)1;
    CHECK(czk_ntt_domain_create(&d, 33, CZK_NTT_ROOTS_GEN7) == CZK_ERR_INVALID_ARG);
    CHECK(d == NULL);
    CHECK(czk_ntt_domain_create(&d, 3, (czk_ntt_roots)9) == CZK_ERR_INVALID_ARG);
    REQUIRE_OK(czk_ntt_domain_create(&d, 4, CZK_NTT_ROOTS_GEN7));
    czk_fr x[32];
    for (int i = 0; i < 32; i++) x[i] = CZK_FR_ONE;
    CHECK(czk_ntt_forward(d, x, 8) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "8 elements") != NULL && strstr(czk_last_error(), "16") != NULL);
    CHECK(czk_ntt_inverse(d, NULL, 16) == CZK_ERR_INVALID_ARG);
    CHECK(czk_ntt_forward(NULL, x, 16) == CZK_ERR_INVALID_ARG);
    CHECK(czk_ntt_groth16_h(d, x, x + 16, NULL, 16) == CZK_ERR_INVALID_ARG);
    CHECK(czk_ntt_domain_size(d) == 16 && czk_ntt_domain_log_size(d) == 4);
    czk_ntt_domain_destroy(d);
    czk_ntt_domain_destroy(NULL);
}

/* The ADX and portable instantiations of the kernels agree bit for bit. */
CZK_TEST_BOTH_KERNELS(ntt_impls_agree)
{
    if (!czk_cpu_has_adx() || !czk_cpu_has_bmi2()) return;
    czk_rng *rng = czk_test_rng();
    czk_field_impl_kind saved = czk_field_impl();
    unsigned k = asan() ? 10 : 13;
    size_t n = (size_t)1 << k;
    czk_ntt_domain *d;
    REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
    czk_ntt_domain_set_block_log(d, 8);
    czk_fr *x = fr_alloc(n), *y = fr_alloc(n), *z = fr_alloc(n);
    fill_random(x, n, rng);
    memcpy(y, x, n * sizeof *y);
    memcpy(z, x, n * sizeof *z);
    REQUIRE_OK(czk_field_select(CZK_FIELD_PORTABLE));
    CHECK_OK(czk_ntt_forward(d, y, n));
    CHECK_OK(czk_field_select(CZK_FIELD_ADX));
    CHECK_OK(czk_ntt_forward(d, z, n));
    CHECK(vec_eq(y, z, n));
    CHECK_OK(czk_ntt_inverse_dif(d, z, n));
    CHECK_OK(czk_field_select(CZK_FIELD_PORTABLE));
    CHECK_OK(czk_ntt_inverse_dif(d, y, n));
    CHECK(vec_eq(y, z, n));
    CHECK_OK(czk_field_select(saved));
    free(x), free(y), free(z);
    czk_ntt_domain_destroy(d);
}

/* The two-vector H step against the three-vector one, bit for bit, on
 * random (unsatisfied) a, b, c, sizes through the IFMA threshold, 1 and 2
 * threads; a fill error stops it with that status. */
typedef struct hfill_ctx {
    const czk_fr *v[3];
    int order[3], calls, fail_at;
} hfill_ctx;

static czk_status hfill(void *ctx, int which, czk_fr *out, size_t m)
{
    hfill_ctx *h = ctx;
    if (h->calls < 3) h->order[h->calls] = which;
    if (h->calls++ == h->fail_at) return czk_error(CZK_ERR_IO, "planted fill failure");
    memcpy(out, h->v[which], m * sizeof *out);
    return CZK_OK;
}

CZK_TEST_BOTH_KERNELS(ntt_groth16_h_fill)
{
    czk_rng *rng = czk_test_rng();
    unsigned ks[] = {0, 1, 5, 11, 12, 16};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        if (asan() && k > 12) continue;
        size_t m = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
        czk_fr *v[3], *a = fr_alloc(m), *b = fr_alloc(m), *c = fr_alloc(m), *h = fr_alloc(m), *t = fr_alloc(m);
        for (int i = 0; i < 3; i++) {
            v[i] = fr_alloc(m);
            fill_random(v[i], m, rng);
        }
        for (int th = 1; th <= 2; th++) {
            czk_ntt_domain_set_threads(d, th);
            memcpy(a, v[0], m * sizeof *a);
            memcpy(b, v[1], m * sizeof *b);
            memcpy(c, v[2], m * sizeof *c);
            REQUIRE_OK(czk_ntt_groth16_h(d, a, b, c, m));
            hfill_ctx hc = {{v[0], v[1], v[2]}, {-1, -1, -1}, 0, -1};
            REQUIRE_OK(czk_ntt_groth16_h_fill(d, h, t, m, hfill, &hc));
            CHECK_MSG(vec_eq(a, h, m), "m = 2^%u, %d threads: h_fill differs from h", k, th);
            CHECK(hc.calls == 3 && hc.order[0] == 0 && hc.order[1] == 1 && hc.order[2] == 2);
        }
        for (int at = 0; at < 3; at++) {
            hfill_ctx hc = {{v[0], v[1], v[2]}, {-1, -1, -1}, 0, at};
            CHECK(czk_ntt_groth16_h_fill(d, h, t, m, hfill, &hc) == CZK_ERR_IO);
            CHECK(hc.calls == at + 1);
        }
        CHECK(czk_ntt_groth16_h_fill(d, h, t, m, NULL, NULL) == CZK_ERR_INVALID_ARG);
        for (int i = 0; i < 3; i++) free(v[i]);
        free(a), free(b), free(c), free(h), free(t);
        czk_ntt_domain_destroy(d);
    }
}

/* Groth16 H at larger m: A, B random coefficients, a = DFT(A), b = DFT(B),
 * c = a b (so C = A B mod (x^m - 1), its coefficients by the inverse NTT).
 * Then h (x^m - 1) = A B - C at random points x (Horner), 1 and 2 threads
 * agree, and h_(m-1) = 0. */
CZK_TEST_BOTH_KERNELS(ntt_groth16_h_large)
{
    czk_rng *rng = czk_test_rng();
    unsigned k = asan() ? 12 : 16;
    size_t m = (size_t)1 << k;
    czk_ntt_domain *d;
    REQUIRE_OK(czk_ntt_domain_create(&d, k, CZK_NTT_ROOTS_GEN7));
    czk_fr *A = fr_alloc(m), *B = fr_alloc(m), *C = fr_alloc(m), *a = fr_alloc(m), *b = fr_alloc(m),
           *c = fr_alloc(m), *h1 = fr_alloc(m);
    fill_random(A, m, rng);
    fill_random(B, m, rng);
    for (int th = 1; th <= 2; th++) {
        czk_ntt_domain_set_threads(d, th);
        memcpy(a, A, m * sizeof *a);
        memcpy(b, B, m * sizeof *b);
        REQUIRE_OK(czk_ntt_forward(d, a, m));
        REQUIRE_OK(czk_ntt_forward(d, b, m));
        for (size_t i = 0; i < m; i++) czk_fr_mul(&c[i], &a[i], &b[i]);
        memcpy(C, c, m * sizeof *C);
        REQUIRE_OK(czk_ntt_inverse(d, C, m));
        REQUIRE_OK(czk_ntt_groth16_h(d, a, b, c, m));
        if (th == 1) {
            memcpy(h1, a, m * sizeof *h1);
            continue;
        }
        CHECK_MSG(vec_eq(h1, a, m), "h differs between 1 and 2 threads");
    }
    CHECK(czk_fr_is_zero(&h1[m - 1]));
    for (int t = 0; t < 3; t++) {
        czk_fr x, ea, eb, ec, eh, z;
        czk_fr_random(&x, rng);
        horner(&ea, A, m, &x);
        horner(&eb, B, m, &x);
        horner(&ec, C, m, &x);
        horner(&eh, h1, m, &x);
        czk_fr_pow_u64(&z, &x, m);
        czk_fr_sub(&z, &z, &CZK_FR_ONE);
        czk_fr_mul(&eh, &eh, &z);
        czk_fr_mul(&ea, &ea, &eb);
        czk_fr_sub(&ea, &ea, &ec);
        CHECK_MSG(czk_fr_eq(&ea, &eh), "h(x)(x^m - 1) != A(x)B(x) - C(x) at a random x");
    }
    free(A), free(B), free(C), free(a), free(b), free(c), free(h1);
    czk_ntt_domain_destroy(d);
}

/* The IFMA butterflies (ntt_ifma.c) and the scalar ones agree bit for bit on
 * every entry point, both directions and orders, and on both H steps (whose
 * coset and final scalings the IFMA path fuses into its blocks), at sizes
 * from 2^4 to 2^18 and block / pass splits that give one block, several
 * blocks and several passes. Skipped without IFMA. */
CZK_TEST(ntt_ifma_agrees)
{
    int was = czk_field_ifma();
    if (czk_field_ifma_select(1) != CZK_OK) {
        printf("  (skipped: no IFMA kernels on this CPU or build)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    static const unsigned ks[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18};
    static const unsigned splits[3][2] = {{14, 7}, {4, 3}, {6, 2}};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        if (asan() && k > 14) break;
        size_t n = (size_t)1 << k;
        czk_ntt_domain *d;
        REQUIRE_OK(czk_ntt_domain_create(&d, k, ki & 1 ? CZK_NTT_ROOTS_NQR5 : CZK_NTT_ROOTS_GEN7));
        czk_fr *x = fr_alloc(n), *y = fr_alloc(n), *z = fr_alloc(n);
        fill_random(x, n, rng);
        for (int sp = 0; sp < 3; sp++) {
            czk_ntt_domain_set_block_log(d, splits[sp][0]);
            czk_ntt_domain_set_pass_max(d, splits[sp][1]);
            czk_ntt_domain_set_threads(d, 1 + sp % 2);
            for (int f = 0; f < 4; f++) {
                czk_status (*fn[4])(const czk_ntt_domain *, czk_fr *, size_t) = {
                    czk_ntt_forward_dif, czk_ntt_inverse_dif, czk_ntt_forward_dit, czk_ntt_inverse_dit};
                memcpy(y, x, n * sizeof *y);
                memcpy(z, x, n * sizeof *z);
                CHECK_OK(czk_field_ifma_select(0));
                CHECK_OK(fn[f](d, y, n));
                CHECK_OK(czk_field_ifma_select(1));
                CHECK_OK(fn[f](d, z, n));
                CHECK_MSG(vec_eq(y, z, n), "k %u split %d entry %d: IFMA and scalar differ", k, sp, f);
            }
            /* the H steps: the coset scaling fused into the blocks, the pointwise step, the final scaling */
            for (int hs = 0; hs < 2; hs++) {
                if (hs == 1 && (czk_ntt_domain_family(d) != CZK_NTT_ROOTS_NQR5 || k >= 32)) continue;
                czk_fr *hb[2][3];
                for (int v = 0; v < 2; v++) {
                    for (int w = 0; w < 3; w++) {
                        hb[v][w] = fr_alloc(n);
                        memcpy(hb[v][w], w == 0 ? x : w == 1 ? y : z, n * sizeof(czk_fr));
                    }
                }
                for (int w = 0; w < 3; w++) {
                    fill_random(hb[0][w], n, rng);
                    memcpy(hb[1][w], hb[0][w], n * sizeof(czk_fr));
                }
                for (int v = 0; v < 2; v++) {
                    CHECK_OK(czk_field_ifma_select(v));
                    if (hs == 0) CHECK_OK(czk_ntt_groth16_h(d, hb[v][0], hb[v][1], hb[v][2], n));
                    else CHECK_OK(czk_ntt_snarkjs_h(d, hb[v][0], hb[v][1], hb[v][2], n));
                }
                CHECK_MSG(vec_eq(hb[0][0], hb[1][0], n), "k %u split %d %s H: IFMA and scalar differ", k, sp,
                          hs ? "snarkjs" : "groth16");
                for (int v = 0; v < 2; v++)
                    for (int w = 0; w < 3; w++) free(hb[v][w]);
            }
        }
        free(x), free(y), free(z);
        czk_ntt_domain_destroy(d);
    }
    CHECK_OK(czk_field_ifma_select(was));
}
