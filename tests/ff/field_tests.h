/* Differential tests of one prime field against GMP, instantiated by
 * test_fr.c and test_fp.c. The including file defines
 *   T, FN(x), N, NBYTES, NBITS, PREFIX(x) (test name prefix), MODULUS_HEX,
 *   MODULUS_LIMBS, TEST_FILE (its own file name)
 * Montgomery-level operations are checked on raw representatives:
 * mul(a, b) must equal a b R^-1 mod m, whatever to/from conversion does. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "runner.h"

/* CZK_TEST with the including file's name (TEST_FILE), so that
 * `czk_tests --file test_fr` runs these. */
#define FIELD_TEST_Z(n)                                                                 \
    static void czk_test_##n(void);                                                     \
    __attribute__((constructor)) static void czk_test_reg_##n(void)                     \
    {                                                                                   \
        czk__test_register(TEST_FILE, #n, czk_test_##n);                                \
    }                                                                                   \
    static void czk_test_##n(void)
#define FIELD_TEST_Y(n) FIELD_TEST_Z(n)
#define FIELD_TEST(x) FIELD_TEST_Y(PREFIX(x))

typedef void (*mul_fn)(T *, const T *, const T *);
typedef void (*sqr_fn)(T *, const T *);

typedef struct impl_ops {
    czk_field_impl_kind kind;
    mul_fn mul, add, sub;
    sqr_fn sqr;
} impl_ops;

static const impl_ops IMPLS[2] = {
    {CZK_FIELD_PORTABLE, FN(mul_portable), FN(add_portable), FN(sub_portable), FN(sqr_portable)},
    {CZK_FIELD_ADX, FN(mul_adx), FN(add_adx), FN(sub_adx), FN(sqr_adx)},
};

/* Implementations this CPU runs: portable always, adx when supported. */
static int n_impls(void)
{
    czk_init();
    return czk_cpu_has_adx() && czk_cpu_has_bmi2() ? 2 : 1;
}

static size_t iters(size_t dflt)
{
    if (getenv("CZK_TEST_ASAN")) dflt = dflt / 8 + 1;
    return czk_test_iters(dflt);
}

static void mpz_of(mpz_t z, const uint64_t *l, size_t n) { mpz_import(z, n, -1, 8, 0, 0, l); }

static void limbs_of(uint64_t *l, size_t n, const mpz_t z)
{
    memset(l, 0, n * 8);
    size_t cnt = 0;
    if (mpz_sizeinbase(z, 2) > 64 * n) abort();
    mpz_export(l, &cnt, -1, 8, 0, 0, z);
}

typedef struct ctx {
    mpz_t m, R, Rinv, a, b, c, d;
} ctx;

static void ctx_init(ctx *x)
{
    mpz_inits(x->m, x->R, x->Rinv, x->a, x->b, x->c, x->d, NULL);
    mpz_of(x->m, MODULUS_LIMBS, N);
    mpz_set_ui(x->R, 1);
    mpz_mul_2exp(x->R, x->R, 64 * N);
    mpz_mod(x->R, x->R, x->m);
    mpz_invert(x->Rinv, x->R, x->m);
}

static void ctx_clear(ctx *x) { mpz_clears(x->m, x->R, x->Rinv, x->a, x->b, x->c, x->d, NULL); }

/* A raw value < m biased to edges: 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2,
 * 2^k, 2^k - 1, m - 2^k, long runs of ones and zeros, or uniform. */
static void edge_raw(uint64_t *out, const ctx *x, czk_rng *rng)
{
    mpz_t v;
    mpz_init(v);
    unsigned kind = (unsigned)czk_rng_below(rng, 14);
    unsigned k = (unsigned)czk_rng_below(rng, NBITS - 1);
    switch (kind) {
    case 0: mpz_set_ui(v, 0); break;
    case 1: mpz_set_ui(v, 1 + czk_rng_below(rng, 2)); break;
    case 2: mpz_sub_ui(v, x->m, 1 + czk_rng_below(rng, 3)); break;
    case 3:
        mpz_sub_ui(v, x->m, 1);
        mpz_fdiv_q_2exp(v, v, 1);
        mpz_add_ui(v, v, czk_rng_below(rng, 2));
        break;
    case 4: mpz_setbit(v, k); break;
    case 5:
        mpz_setbit(v, k);
        mpz_sub_ui(v, v, 1);
        break;
    case 6:
        mpz_set_ui(v, 0);
        mpz_setbit(v, k);
        mpz_sub(v, x->m, v);
        break;
    case 7:
    case 8: {
        /* runs of equal bits of random lengths */
        unsigned pos = 0, bit = (unsigned)czk_rng_below(rng, 2);
        while (pos < NBITS) {
            unsigned len = 1 + (unsigned)czk_rng_below(rng, 70);
            for (unsigned i = 0; i < len && pos < NBITS; i++, pos++)
                if (bit) mpz_setbit(v, pos);
            bit ^= 1;
        }
        mpz_mod(v, v, x->m);
        break;
    }
    case 9: mpz_set(v, x->R); break; /* Montgomery one */
    default: {
        uint64_t l[N];
        for (int i = 0; i < N; i++) l[i] = czk_rng_u64(rng);
        mpz_of(v, l, N);
        mpz_mod(v, v, x->m);
    }
    }
    limbs_of(out, N, v);
    mpz_clear(v);
}

static void edge_elem(T *e, const ctx *x) { edge_raw(e->l, x, czk_test_rng()); }

/* z = raw value of e */
static void mpz_raw(mpz_t z, const T *e) { mpz_of(z, e->l, N); }

static int raw_eq(const T *e, const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    mpz_raw(t, e);
    int eq = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return eq;
}

static void select_impl(czk_field_impl_kind k)
{
    if (czk_field_select(k) != CZK_OK) abort();
}

FIELD_TEST(mul_sqr_vs_gmp)
{
    ctx x;
    ctx_init(&x);
    size_t n = iters(20000);
    for (int ii = 0; ii < n_impls(); ii++) {
        const impl_ops *op = &IMPLS[ii];
        for (size_t it = 0; it < n; it++) {
            T a, b, c, s;
            edge_elem(&a, &x);
            edge_elem(&b, &x);
            mpz_raw(x.a, &a);
            mpz_raw(x.b, &b);
            mpz_mul(x.c, x.a, x.b);
            mpz_mul(x.c, x.c, x.Rinv);
            mpz_mod(x.c, x.c, x.m); /* a b R^-1 */
            op->mul(&c, &a, &b);
            CHECK_MSG(raw_eq(&c, x.c), "%s mul differs from GMP (iteration %zu)",
                      czk_field_impl_name(op->kind), it);
            mpz_mul(x.d, x.a, x.a);
            mpz_mul(x.d, x.d, x.Rinv);
            mpz_mod(x.d, x.d, x.m);
            op->sqr(&s, &a);
            CHECK_MSG(raw_eq(&s, x.d), "%s sqr differs from GMP (iteration %zu)",
                      czk_field_impl_name(op->kind), it);
            /* aliasing: r == a == b */
            s = a;
            op->mul(&s, &s, &s);
            CHECK(raw_eq(&s, x.d));
            s = a;
            op->sqr(&s, &s);
            CHECK(raw_eq(&s, x.d));
            if (czk_test_failures()) break;
        }
    }
    /* dispatched public entry points agree under both selections */
    czk_field_impl_kind saved = czk_field_impl();
    for (int ii = 0; ii < n_impls(); ii++) {
        select_impl(IMPLS[ii].kind);
        for (size_t it = 0; it < n / 10 + 1; it++) {
            T a, b, c, d;
            edge_elem(&a, &x);
            edge_elem(&b, &x);
            FN(mul)(&c, &a, &b);
            FN(mul_portable)(&d, &a, &b);
            CHECK(FN(eq)(&c, &d));
            FN(sqr)(&c, &a);
            FN(sqr_portable)(&d, &a);
            CHECK(FN(eq)(&c, &d));
        }
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(add_sub_neg_dbl_vs_gmp)
{
    ctx x;
    ctx_init(&x);
    size_t n = iters(20000);
    czk_field_impl_kind saved = czk_field_impl();
    for (int ii = 0; ii < n_impls(); ii++) {
        const impl_ops *op = &IMPLS[ii];
        select_impl(op->kind);
        for (size_t it = 0; it < n; it++) {
            T a, b, c;
            edge_elem(&a, &x);
            edge_elem(&b, &x);
            mpz_raw(x.a, &a);
            mpz_raw(x.b, &b);
            mpz_add(x.c, x.a, x.b);
            mpz_mod(x.c, x.c, x.m);
            op->add(&c, &a, &b);
            CHECK_MSG(raw_eq(&c, x.c), "%s add differs from GMP", czk_field_impl_name(op->kind));
            FN(add)(&c, &a, &b);
            CHECK(raw_eq(&c, x.c));
            mpz_sub(x.c, x.a, x.b);
            mpz_mod(x.c, x.c, x.m);
            op->sub(&c, &a, &b);
            CHECK_MSG(raw_eq(&c, x.c), "%s sub differs from GMP", czk_field_impl_name(op->kind));
            c = a;
            op->sub(&c, &c, &b);
            CHECK(raw_eq(&c, x.c));
            FN(sub)(&c, &a, &b);
            CHECK(raw_eq(&c, x.c));
            mpz_neg(x.c, x.a);
            mpz_mod(x.c, x.c, x.m);
            FN(neg)(&c, &a);
            CHECK(raw_eq(&c, x.c));
            mpz_mul_2exp(x.c, x.a, 1);
            mpz_mod(x.c, x.c, x.m);
            FN(dbl)(&c, &a);
            CHECK(raw_eq(&c, x.c));
            c = a;
            op->add(&c, &c, &c);
            CHECK(raw_eq(&c, x.c));
            if (czk_test_failures()) break;
        }
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(constants_and_conversions)
{
    ctx x;
    ctx_init(&x);
    mpz_set_str(x.a, MODULUS_HEX, 16);
    CHECK(mpz_cmp(x.a, x.m) == 0);
    CHECK(raw_eq(&PREFIX(CONST_ONE), x.R));
    CHECK(FN(is_one)(&PREFIX(CONST_ONE)));
    CHECK(FN(is_zero)(&PREFIX(CONST_ZERO)));
    CHECK(!FN(is_zero)(&PREFIX(CONST_ONE)));
    T a, b;
    FN(from_u64)(&a, 1);
    CHECK(FN(eq)(&a, &PREFIX(CONST_ONE)));
    FN(from_u64)(&a, 0);
    CHECK(FN(is_zero)(&a));
    /* from_u64: raw = v R mod m */
    for (int i = 0; i < 100; i++) {
        uint64_t v = czk_rng_u64(czk_test_rng()) >> (i % 64);
        FN(from_u64)(&a, v);
        mpz_set_ui(x.a, 0);
        mpz_import(x.a, 1, -1, 8, 0, 0, &v);
        mpz_mul(x.a, x.a, x.R);
        mpz_mod(x.a, x.a, x.m);
        CHECK(raw_eq(&a, x.a));
    }
    /* from_limbs / to_limbs round trip; raw = v R mod m */
    for (size_t it = 0; it < iters(2000); it++) {
        uint64_t v[N], w[N];
        edge_raw(v, &x, czk_test_rng());
        CHECK_OK(FN(from_limbs)(&a, v));
        mpz_of(x.a, v, N);
        mpz_mul(x.a, x.a, x.R);
        mpz_mod(x.a, x.a, x.m);
        CHECK(raw_eq(&a, x.a));
        FN(to_limbs)(w, &a);
        CHECK_MEM(v, w, sizeof v);
    }
    /* values >= m are rejected */
    uint64_t v[N];
    memcpy(v, MODULUS_LIMBS, sizeof v);
    CHECK(FN(from_limbs)(&a, v) == CZK_ERR_NOT_CANONICAL);
    CHECK(strstr(czk_last_error(), "modulus") != NULL);
    memset(v, 0xff, sizeof v);
    CHECK(FN(from_limbs)(&a, v) == CZK_ERR_NOT_CANONICAL);
    memcpy(v, MODULUS_LIMBS, sizeof v);
    v[0] -= 1;
    CHECK_OK(FN(from_limbs)(&a, v));
    FN(neg)(&b, &PREFIX(CONST_ONE));
    CHECK(FN(eq)(&a, &b));
    ctx_clear(&x);
}

FIELD_TEST(inverses)
{
    ctx x;
    ctx_init(&x);
    czk_field_impl_kind saved = czk_field_impl();
    size_t n = iters(300);
    for (int ii = 0; ii < n_impls(); ii++) {
        select_impl(IMPLS[ii].kind);
        T z = PREFIX(CONST_ZERO), r;
        FN(inv)(&r, &z);
        CHECK(FN(is_zero)(&r));
        FN(inv_var)(&r, &z);
        CHECK(FN(is_zero)(&r));
        for (size_t it = 0; it < n; it++) {
            T a, r1, r2, p;
            edge_elem(&a, &x);
            if (FN(is_zero)(&a)) continue;
            FN(inv)(&r1, &a);
            FN(inv_var)(&r2, &a);
            FN(mul)(&p, &r1, &a);
            CHECK_MSG(FN(is_one)(&p), "%s: inv(a) a != 1", czk_field_impl_name(IMPLS[ii].kind));
            FN(mul)(&p, &r2, &a);
            CHECK_MSG(FN(is_one)(&p), "%s: inv_var(a) a != 1", czk_field_impl_name(IMPLS[ii].kind));
            /* GMP: raw(a^-1) = R^2 / raw(a) */
            mpz_raw(x.a, &a);
            REQUIRE(mpz_invert(x.b, x.a, x.m));
            mpz_mul(x.b, x.b, x.R);
            mpz_mul(x.b, x.b, x.R);
            mpz_mod(x.b, x.b, x.m);
            CHECK(raw_eq(&r1, x.b));
            CHECK(raw_eq(&r2, x.b));
            /* aliasing */
            p = a;
            FN(inv_var)(&p, &p);
            CHECK(FN(eq)(&p, &r1));
            p = a;
            FN(inv)(&p, &p);
            CHECK(FN(eq)(&p, &r1));
            if (czk_test_failures()) break;
        }
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(batch_inverse)
{
    ctx x;
    ctx_init(&x);
    enum { MAXN = 70 };
    T in[MAXN], out[MAXN], scr[MAXN], want[MAXN];
    czk_field_impl_kind saved = czk_field_impl();
    static const size_t sizes[] = {0, 1, 2, 3, 17, 64, 70};
    for (int ii = 0; ii < n_impls(); ii++) {
        select_impl(IMPLS[ii].kind);
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            for (size_t i = 0; i < n; i++) {
                if (czk_rng_below(czk_test_rng(), 4) == 0) in[i] = PREFIX(CONST_ZERO);
                else FN(random)(&in[i], czk_test_rng());
                FN(inv_var)(&want[i], &in[i]);
            }
            if (n == 2) in[0] = in[1] = PREFIX(CONST_ZERO), want[0] = want[1] = in[0];
            FN(batch_inv)(out, in, n, scr);
            for (size_t i = 0; i < n; i++)
                CHECK_MSG(FN(eq)(&out[i], &want[i]), "batch_inv n=%zu element %zu", n, i);
            /* in place */
            FN(batch_inv)(in, in, n, scr);
            for (size_t i = 0; i < n; i++) CHECK(FN(eq)(&in[i], &want[i]));
        }
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(pow_vs_gmp)
{
    ctx x;
    ctx_init(&x);
    czk_field_impl_kind saved = czk_field_impl();
    for (int ii = 0; ii < n_impls(); ii++) {
        select_impl(IMPLS[ii].kind);
        for (size_t it = 0; it < iters(200); it++) {
            T a, r;
            uint64_t e[N + 1];
            size_t ne = 1 + (size_t)czk_rng_below(czk_test_rng(), N + 1);
            for (size_t i = 0; i < ne; i++) e[i] = czk_rng_u64(czk_test_rng());
            if (it % 7 == 0) memset(e, 0, ne * 8);
            if (it % 7 == 1) memset(e, 0xff, ne * 8);
            edge_elem(&a, &x);
            FN(pow)(&r, &a, e, ne);
            /* raw(a^e) = (raw(a) R^-1)^e R */
            mpz_raw(x.a, &a);
            mpz_mul(x.a, x.a, x.Rinv);
            mpz_of(x.b, e, ne);
            mpz_powm(x.c, x.a, x.b, x.m);
            mpz_mul(x.c, x.c, x.R);
            mpz_mod(x.c, x.c, x.m);
            CHECK_MSG(raw_eq(&r, x.c), "pow, %zu exponent limbs", ne);
            uint64_t e1 = e[0] >> czk_rng_below(czk_test_rng(), 64);
            FN(pow_u64)(&r, &a, e1);
            mpz_set_ui(x.b, 0);
            mpz_import(x.b, 1, -1, 8, 0, 0, &e1);
            mpz_powm(x.c, x.a, x.b, x.m);
            mpz_mul(x.c, x.c, x.R);
            mpz_mod(x.c, x.c, x.m);
            CHECK_MSG(raw_eq(&r, x.c), "pow_u64(%llu)", (unsigned long long)e1);
        }
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(sqrt_legendre)
{
    ctx x;
    ctx_init(&x);
    czk_field_impl_kind saved = czk_field_impl();
    for (int ii = 0; ii < n_impls(); ii++) {
        select_impl(IMPLS[ii].kind);
        T z = PREFIX(CONST_ZERO), r;
        CHECK(FN(legendre)(&z) == 0);
        CHECK(FN(sqrt)(&r, &z) == 1 && FN(is_zero)(&r));
        int seen[2] = {0, 0};
        for (size_t it = 0; it < iters(200); it++) {
            T a, s, sq;
            edge_elem(&a, &x);
            if (FN(is_zero)(&a)) continue;
            uint64_t v[N];
            FN(to_limbs)(v, &a);
            mpz_of(x.a, v, N);
            int want = mpz_legendre(x.a, x.m);
            int leg = FN(legendre)(&a);
            CHECK_MSG(leg == want, "legendre %d, GMP %d", leg, want);
            int ok = FN(sqrt)(&s, &a);
            CHECK(ok == (want == 1));
            if (ok) {
                FN(sqr)(&sq, &s);
                CHECK_MSG(FN(eq)(&sq, &a), "sqrt(a)^2 != a");
            } else {
                CHECK(FN(is_zero)(&s));
            }
            seen[ok]++;
            /* a^2 is always a square, with root +-a */
            FN(sqr)(&sq, &a);
            s = sq;
            CHECK(FN(sqrt)(&s, &s) == 1);
            T na;
            FN(neg)(&na, &a);
            CHECK(FN(eq)(&s, &a) || FN(eq)(&s, &na));
        }
        CHECK(seen[0] > 0 && seen[1] > 0);
    }
    select_impl(saved);
    ctx_clear(&x);
}

FIELD_TEST(hex_dec_round_trip)
{
    ctx x;
    ctx_init(&x);
    char hex[2 * NBYTES + 3], dec[130], gmp[200];
    for (size_t it = 0; it < iters(2000); it++) {
        T a, b;
        edge_elem(&a, &x);
        uint64_t v[N];
        FN(to_limbs)(v, &a);
        mpz_of(x.a, v, N);
        FN(to_hex)(hex, &a);
        CHECK(strlen(hex) == 2 * NBYTES + 2);
        gmp_snprintf(gmp, sizeof gmp, "0x%0*Zx", 2 * NBYTES, x.a);
        CHECK_MSG(strcmp(hex, gmp) == 0, "to_hex %s, GMP %s", hex, gmp);
        CHECK_OK(FN(from_hex)(&b, hex));
        CHECK(FN(eq)(&a, &b));
        CHECK_OK(FN(from_hex)(&b, hex + 2)); /* no prefix */
        CHECK(FN(eq)(&a, &b));
        gmp_snprintf(gmp, sizeof gmp, "0X%ZX", x.a); /* upper case, no leading zeros */
        CHECK_OK(FN(from_hex)(&b, gmp));
        CHECK(FN(eq)(&a, &b));
        FN(to_dec)(dec, &a);
        gmp_snprintf(gmp, sizeof gmp, "%Zd", x.a);
        CHECK_MSG(strcmp(dec, gmp) == 0, "to_dec %s, GMP %s", dec, gmp);
        CHECK_OK(FN(from_dec)(&b, dec));
        CHECK(FN(eq)(&a, &b));
        gmp_snprintf(gmp, sizeof gmp, "000%Zd", x.a);
        CHECK_OK(FN(from_dec)(&b, gmp));
        CHECK(FN(eq)(&a, &b));
    }
    T a;
    /* the modulus and above: not canonical */
    gmp_snprintf(gmp, sizeof gmp, "%Zd", x.m);
    CHECK(FN(from_dec)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    gmp_snprintf(gmp, sizeof gmp, "0x%Zx", x.m);
    CHECK(FN(from_hex)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    mpz_mul_2exp(x.b, x.m, 70);
    gmp_snprintf(gmp, sizeof gmp, "%Zd", x.b);
    CHECK(FN(from_dec)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    gmp_snprintf(gmp, sizeof gmp, "%Zx", x.b);
    CHECK(FN(from_hex)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    /* one hex digit or one decimal digit past the limb capacity */
    mpz_set_ui(x.b, 1);
    mpz_mul_2exp(x.b, x.b, 64 * N);
    mpz_add_ui(x.b, x.b, 1);
    gmp_snprintf(gmp, sizeof gmp, "%Zx", x.b);
    CHECK(FN(from_hex)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    gmp_snprintf(gmp, sizeof gmp, "%Zd", x.b);
    CHECK(FN(from_dec)(&a, gmp) == CZK_ERR_NOT_CANONICAL);
    mpz_sub_ui(x.b, x.m, 1);
    gmp_snprintf(gmp, sizeof gmp, "%Zd", x.b);
    CHECK_OK(FN(from_dec)(&a, gmp));
    /* malformed */
    CHECK(FN(from_hex)(&a, "") == CZK_ERR_FORMAT);
    CHECK(FN(from_hex)(&a, "0x") == CZK_ERR_FORMAT);
    CHECK(FN(from_hex)(&a, "0x12g4") == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "offset 4") != NULL);
    CHECK(FN(from_hex)(&a, "-1") == CZK_ERR_FORMAT);
    CHECK(FN(from_hex)(&a, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(FN(from_dec)(&a, "") == CZK_ERR_FORMAT);
    CHECK(FN(from_dec)(&a, "12 3") == CZK_ERR_FORMAT);
    CHECK(FN(from_dec)(&a, "-5") == CZK_ERR_FORMAT);
    CHECK(FN(from_dec)(&a, "0x10") == CZK_ERR_FORMAT);
    CHECK(FN(from_dec)(&a, NULL) == CZK_ERR_INVALID_ARG);
    CHECK_OK(FN(from_dec)(&a, "0"));
    CHECK(FN(is_zero)(&a));
    CHECK_OK(FN(from_hex)(&a, "0x0000001"));
    CHECK(FN(is_one)(&a));
    FN(to_dec)(dec, &a);
    CHECK(strcmp(dec, "1") == 0);
    FN(to_dec)(dec, &PREFIX(CONST_ZERO));
    CHECK(strcmp(dec, "0") == 0);
    ctx_clear(&x);
}

/* The byte encodings: round trips, agreement with GMP's export, rejection
 * of every value >= m. PREFIX(FROM_LE) etc. name the field's functions. */
FIELD_TEST(bytes)
{
    ctx x;
    ctx_init(&x);
    uint8_t le[NBYTES], be[NBYTES], g[NBYTES];
    for (size_t it = 0; it < iters(2000); it++) {
        T a, b;
        edge_elem(&a, &x);
        uint64_t v[N];
        FN(to_limbs)(v, &a);
        mpz_of(x.a, v, N);
        PREFIX(TO_LE)(le, &a);
        PREFIX(TO_BE)(be, &a);
        memset(g, 0, sizeof g);
        size_t cnt;
        size_t len = mpz_sgn(x.a) ? mpz_sizeinbase(x.a, 256) : 0;
        mpz_export(g + NBYTES - len, &cnt, 1, 1, 1, 0, x.a);
        CHECK_MEM(be, g, NBYTES);
        for (int i = 0; i < NBYTES; i++) CHECK(le[i] == be[NBYTES - 1 - i]);
        CHECK_OK(PREFIX(FROM_LE)(&b, le));
        CHECK(FN(eq)(&a, &b));
        CHECK_OK(PREFIX(FROM_BE)(&b, be));
        CHECK(FN(eq)(&a, &b));
    }
    /* m, m + small, m + 2^k, all ones: rejected in both byte orders */
    for (int it = 0; it < 200; it++) {
        T a;
        mpz_set(x.b, x.m);
        if (it == 1) mpz_add_ui(x.b, x.b, 1);
        else if (it == 2) {
            mpz_set_ui(x.b, 0);
            mpz_setbit(x.b, 8 * NBYTES);
            mpz_sub_ui(x.b, x.b, 1);
        } else if (it > 2) {
            mpz_set_ui(x.c, 0);
            mpz_setbit(x.c, (unsigned)czk_rng_below(czk_test_rng(), NBITS));
            mpz_add(x.b, x.b, x.c);
            if (mpz_sizeinbase(x.b, 2) > 8 * NBYTES) continue;
        }
        memset(be, 0, sizeof be);
        size_t cnt;
        mpz_export(be + NBYTES - mpz_sizeinbase(x.b, 256), &cnt, 1, 1, 1, 0, x.b);
        for (int i = 0; i < NBYTES; i++) le[i] = be[NBYTES - 1 - i];
        CHECK(PREFIX(FROM_BE)(&a, be) == CZK_ERR_NOT_CANONICAL);
        CHECK(PREFIX(FROM_LE)(&a, le) == CZK_ERR_NOT_CANONICAL);
    }
    ctx_clear(&x);
}

FIELD_TEST(random_in_range)
{
    ctx x;
    ctx_init(&x);
    int top = 0;
    T prev = PREFIX(CONST_ZERO);
    for (int it = 0; it < 2000; it++) {
        T a;
        FN(random)(&a, czk_test_rng());
        mpz_raw(x.a, &a);
        CHECK(mpz_cmp(x.a, x.m) < 0);
        CHECK(!FN(eq)(&a, &prev));
        prev = a;
        /* the top bit of the modulus is reached */
        top += mpz_tstbit(x.a, NBITS - 1);
    }
    CHECK(top > 100);
    ctx_clear(&x);
}

FIELD_TEST(impl_selection)
{
    czk_init();
    czk_field_impl_kind saved = czk_field_impl();
    CHECK(strcmp(czk_field_impl_name(CZK_FIELD_PORTABLE), "portable") == 0);
    CHECK(strcmp(czk_field_impl_name(CZK_FIELD_ADX), "adx") == 0);
    CHECK_OK(czk_field_select(CZK_FIELD_PORTABLE));
    CHECK(czk_field_impl() == CZK_FIELD_PORTABLE);
    if (czk_cpu_has_adx() && czk_cpu_has_bmi2()) {
        CHECK_OK(czk_field_select(CZK_FIELD_ADX));
        CHECK(czk_field_impl() == CZK_FIELD_ADX);
    } else {
        CHECK(czk_field_select(CZK_FIELD_ADX) == CZK_ERR_UNSUPPORTED);
    }
    CHECK(czk_field_select((czk_field_impl_kind)7) == CZK_ERR_INVALID_ARG);
    select_impl(saved);
}
