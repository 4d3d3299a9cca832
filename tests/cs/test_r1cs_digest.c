/* R1CS and assignment digests (docs/r1cs-digest.md): a known answer computed
 * here from the spec with OpenSSL, invariance (term order, repeated terms,
 * zero terms), sensitivity (a coefficient, a swapped variable, a moved term:
 * the comparison names the constraint), the dump (round trip, malformed
 * files), and the sources agreeing (TEST, SHAPE, the digester with and
 * without names, on one thread or several) on Poseidon, random rows and a
 * PoRep partition. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "runner.h"

#define CZK_LCV vec /* builds its LCs with the vec variant (cs/lc.h) */
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

#include "czk/cs.h"
#include "czk/filecoin.h"
#include "czk/poseidon.h"
#include "czk/porep.h"

static int asan(void) { return getenv("CZK_TEST_ASAN") != NULL; }

/* ---- the spec, independently: byte strings and OpenSSL ------------------------- */

/* r, the BLS12-381 scalar field modulus 0x73eda753...00000001, little-endian bytes */
static void r_minus(uint8_t out[32], uint64_t k)
{
    static const char *r_be = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(r_be + 2 * (31 - i), "%2x", &v);
        out[i] = (uint8_t)v;
    }
    unsigned borrow = 0;
    for (int i = 0; i < 32; i++) {
        unsigned sub = (unsigned)((i < 8 ? (k >> (8 * i)) & 0xff : 0)) + borrow;
        borrow = out[i] < sub;
        out[i] = (uint8_t)(out[i] - sub);
    }
}

static void small_le(uint8_t out[32], uint64_t v)
{
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

typedef struct spec_term {
    uint64_t var; /* i or 2^63 | j */
    uint8_t coeff[32];
} spec_term;

typedef struct spec_buf {
    uint8_t b[4096];
    size_t n;
} spec_buf;

static void sb_put(spec_buf *s, const void *p, size_t n)
{
    memcpy(s->b + s->n, p, n);
    s->n += n;
}
static void sb_u32(spec_buf *s, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    sb_put(s, b, 4);
}
static void sb_u64(spec_buf *s, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    sb_put(s, b, 8);
}
static void sb_lc(spec_buf *s, const spec_term *t, uint32_t n)
{
    sb_u32(s, n);
    for (uint32_t i = 0; i < n; i++) {
        sb_u64(s, t[i].var);
        sb_put(s, t[i].coeff, 32);
    }
}
static void sha(uint8_t out[32], const void *p, size_t n)
{
    unsigned len = 0;
    CHECK(EVP_Digest(p, n, out, &len, EVP_sha256(), NULL) == 1 && len == 32);
}

#define AUX(j) (((uint64_t)1 << 63) | (uint64_t)(j))

/* ---- the known-answer circuit ----------------------------------------------------
 * ONE = input 0; aux x = 3, y = 5, w = 15; input pub = 15 (allocated after the
 * first constraint, so SHAPE's aux columns shift); constraints:
 *   0 "mul":   x * y = w
 *   1 "pub":   pub * ONE = w
 *   2 "lin":   (x + 7 y + 0 ONE) * ONE = 38 ONE     (a zero ONE term stays in the LC)
 *   3 "empty": () * () = ()
 *   4 "big":   (-1 w + 2^200 pub) * x = -2 y
 * Variants (flags) build the same matrix otherwise, or change it. */
enum {
    K_REORDER = 1, /* terms added in other orders, split into repeated terms, extra zero terms */
    K_COEFF = 2,   /* constraint 4: C = -3 y */
    K_SWAP = 4,    /* constraint 4: B = y */
    K_MOVE = 8,    /* constraint 2: the 7 y term in C instead of A (negated) */
    K_EXTRA = 16,  /* one more constraint at the end (x * x = x) */
};

static czk_status kat_circuit(czk_cs *cs, unsigned flags)
{
    czk_fr f[40], big, minus2, minus3, k7;
    for (int i = 0; i < 40; i++) czk_fr_from_u64(&f[i], (uint64_t)i);
    czk_fr two;
    const uint64_t e200[1] = {200};
    czk_fr_from_u64(&two, 2);
    czk_fr_pow(&big, &two, e200, 1); /* 2^200 */
    czk_fr_neg(&minus2, &f[2]);
    czk_fr_neg(&minus3, &f[3]);
    k7 = f[7];
    const int hv = cs->has_values;
    czk_var x, y, w, pub;
    czk_cs_ns_push(cs, "kat", CZK_NOIDX);
    CZK_TRY(czk_cs_alloc(cs, &x, hv ? &f[3] : NULL, "x", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &y, hv ? &f[5] : NULL, "y", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &w, hv ? &f[15] : NULL, "w", CZK_NOIDX));
    czk_lc_vec *a = czk_lc_scratch_vec(cs, 0), *b = czk_lc_scratch_vec(cs, 1), *c = czk_lc_scratch_vec(cs, 2);
    czk_lc_add_var_vec(a, x);
    czk_lc_add_var_vec(b, y);
    czk_lc_add_var_vec(c, w);
    CZK_TRY(czk_enforce_vec(cs, a, b, c, "mul", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc_input(cs, &pub, hv ? &f[15] : NULL, "pub", CZK_NOIDX));
    a = czk_lc_scratch_vec(cs, 0), b = czk_lc_scratch_vec(cs, 1), c = czk_lc_scratch_vec(cs, 2);
    czk_lc_add_var_vec(a, pub);
    czk_lc_add_var_vec(b, CZK_VAR_ONE);
    czk_lc_add_var_vec(c, w);
    CZK_TRY(czk_enforce_vec(cs, a, b, c, "pub", CZK_NOIDX));
    a = czk_lc_scratch_vec(cs, 0), b = czk_lc_scratch_vec(cs, 1), c = czk_lc_scratch_vec(cs, 2);
    if (flags & K_REORDER) {
        czk_lc_add_term_vec(a, &f[4], y); /* 4 y + 3 y = 7 y, y before x */
        czk_lc_add_var_vec(a, x);
        czk_lc_add_term_vec(a, &f[5], CZK_VAR_ONE);
        czk_lc_add_term_vec(a, &f[3], y);
        czk_lc_sub_term_vec(a, &f[5], CZK_VAR_ONE); /* ONE's coefficient 0 */
        czk_lc_add_var_vec(a, w);
        czk_lc_sub_var_vec(a, w); /* w's coefficient 0 */
    } else {
        czk_lc_add_var_vec(a, x);
        if (!(flags & K_MOVE)) czk_lc_add_term_vec(a, &k7, y);
        czk_lc_add_term_vec(a, &f[5], CZK_VAR_ONE);
        czk_lc_sub_term_vec(a, &f[5], CZK_VAR_ONE);
    }
    czk_lc_add_var_vec(b, CZK_VAR_ONE);
    czk_lc_add_term_vec(c, &f[38], CZK_VAR_ONE);
    if (flags & K_MOVE) czk_lc_sub_term_vec(c, &k7, y);
    CZK_TRY(czk_enforce_vec(cs, a, b, c, "lin", CZK_NOIDX));
    a = czk_lc_scratch_vec(cs, 0), b = czk_lc_scratch_vec(cs, 1), c = czk_lc_scratch_vec(cs, 2);
    if (flags & K_REORDER) { /* empty after cancelling */
        czk_lc_add_var_vec(b, x);
        czk_lc_sub_var_vec(b, x);
    }
    CZK_TRY(czk_enforce_vec(cs, a, b, c, "empty", CZK_NOIDX));
    a = czk_lc_scratch_vec(cs, 0), b = czk_lc_scratch_vec(cs, 1), c = czk_lc_scratch_vec(cs, 2);
    if (flags & K_REORDER) {
        czk_lc_push_unsorted_vec(a, &big, pub); /* unsorted batch, normalized */
        czk_lc_push_unsorted_vec(a, &CZK_FR_MINUS_ONE, w);
        czk_lc_push_unsorted_vec(a, &f[1], x);
        czk_lc_push_unsorted_vec(a, &CZK_FR_MINUS_ONE, x);
        czk_lc_normalize_vec(a);
    } else {
        czk_lc_sub_var_vec(a, w);
        czk_lc_add_term_vec(a, &big, pub);
    }
    czk_lc_add_var_vec(b, (flags & K_SWAP) ? y : x);
    czk_lc_add_term_vec(c, (flags & K_COEFF) ? &minus3 : &minus2, y);
    CZK_TRY(czk_enforce_vec(cs, a, b, c, "big", CZK_NOIDX));
    if (flags & K_EXTRA) {
        a = czk_lc_scratch_vec(cs, 0), b = czk_lc_scratch_vec(cs, 1), c = czk_lc_scratch_vec(cs, 2);
        czk_lc_add_var_vec(a, x);
        czk_lc_add_var_vec(b, x);
        czk_lc_add_var_vec(c, x);
        CZK_TRY(czk_enforce_vec(cs, a, b, c, "extra", CZK_NOIDX));
    }
    czk_cs_ns_pop(cs);
    return CZK_OK;
}

/* The expected digests of kat_circuit(0), from the spec. */
static void kat_expected(uint8_t r1cs[32], uint8_t asg[32], uint8_t h[5][32])
{
    /* variables: ONE 0, pub 1; x AUX(0), y AUX(1), w AUX(2) */
    spec_term one1 = {0, {0}}, pub1 = {1, {0}}, x1 = {AUX(0), {0}}, y1 = {AUX(1), {0}}, w1 = {AUX(2), {0}};
    small_le(one1.coeff, 1);
    small_le(pub1.coeff, 1);
    small_le(x1.coeff, 1);
    small_le(y1.coeff, 1);
    small_le(w1.coeff, 1);
    spec_term y7 = {AUX(1), {0}}, one38 = {0, {0}}, wm1 = {AUX(2), {0}}, pubbig = {1, {0}}, ym2 = {AUX(1), {0}};
    small_le(y7.coeff, 7);
    small_le(one38.coeff, 38);
    r_minus(wm1.coeff, 1);
    memset(pubbig.coeff, 0, 32);
    pubbig.coeff[25] = 1; /* 2^200 */
    r_minus(ym2.coeff, 2);
    spec_buf s;
    /* 0: x * y = w */
    s.n = 0;
    sb_lc(&s, &x1, 1);
    sb_lc(&s, &y1, 1);
    sb_lc(&s, &w1, 1);
    sha(h[0], s.b, s.n);
    /* 1: pub * ONE = w */
    s.n = 0;
    sb_lc(&s, &pub1, 1);
    sb_lc(&s, &one1, 1);
    sb_lc(&s, &w1, 1);
    sha(h[1], s.b, s.n);
    /* 2: (x + 7 y) * ONE = 38 ONE (the zero ONE term left out) */
    spec_term a2[2] = {x1, y7};
    s.n = 0;
    sb_lc(&s, a2, 2);
    sb_lc(&s, &one1, 1);
    sb_lc(&s, &one38, 1);
    sha(h[2], s.b, s.n);
    /* 3: () * () = () */
    s.n = 0;
    sb_lc(&s, NULL, 0);
    sb_lc(&s, NULL, 0);
    sb_lc(&s, NULL, 0);
    sha(h[3], s.b, s.n);
    /* 4: (2^200 pub - w) * x = -2 y: the input term first */
    spec_term a4[2] = {pubbig, wm1};
    s.n = 0;
    sb_lc(&s, a4, 2);
    sb_lc(&s, &x1, 1);
    sb_lc(&s, &ym2, 1);
    sha(h[4], s.b, s.n);
    s.n = 0;
    for (int i = 0; i < 5; i++) sb_put(&s, h[i], 32);
    sb_u64(&s, 2); /* n_inputs: ONE, pub */
    sb_u64(&s, 3); /* n_aux */
    sb_u64(&s, 5); /* m */
    sha(r1cs, s.b, s.n);
    /* assignment: [1, 15] || [3, 5, 15] || 2 || 3 */
    static const uint64_t vals[5] = {1, 15, 3, 5, 15};
    s.n = 0;
    for (int i = 0; i < 5; i++) {
        uint8_t b[32];
        small_le(b, vals[i]);
        sb_put(&s, b, 32);
    }
    sb_u64(&s, 2);
    sb_u64(&s, 3);
    sha(asg, s.b, s.n);
}

static czk_cs *kat_cs(czk_cs_backend backend, unsigned flags)
{
    czk_cs *cs = NULL;
    if (czk_cs_create(&cs, backend, CZK_LC_VEC, NULL) != CZK_OK) return NULL;
    if (kat_circuit(cs, flags) != CZK_OK) {
        czk_cs_destroy(cs);
        return NULL;
    }
    return cs;
}

static czk_r1cs_digest_opts dopts(const char *dump, const char *cmp, int threads, int names)
{
    czk_r1cs_digest_opts o = {dump, cmp, threads, names};
    return o;
}

CZK_TEST(r1cs_digest_known_answer)
{
    uint8_t want[32], want_asg[32], h[5][32];
    kat_expected(want, want_asg, h);
    czk_r1cs_digest_opts o = dopts(NULL, NULL, 1, 0);
    czk_r1cs_digest d;
    uint8_t asg[32];

    /* TEST backend; every row on its own */
    czk_cs *t = kat_cs(CZK_CS_TEST, 0);
    REQUIRE(t);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, t, 0, &o));
    CHECK_MEM(d.r1cs, want, 32);
    CHECK_EQ_U64(d.n_inputs, 2);
    CHECK_EQ_U64(d.n_aux, 3);
    CHECK_EQ_U64(d.n_constraints, 5);
    for (uint64_t i = 0; i < 5; i++) {
        czk_lc_view a, b, c;
        uint8_t hc[32];
        REQUIRE_OK(czk_cs_test_constraint(t, i, &a, &b, &c));
        REQUIRE_OK(czk_cs_r1cs_digest_row(hc, &a, &b, &c));
        CHECK_MSG(memcmp(hc, h[i], 32) == 0, "h_%llu differs from the spec's", (unsigned long long)i);
    }
    REQUIRE_OK(czk_cs_r1cs_digest_values(asg, t));
    CHECK_MEM(asg, want_asg, 32);
    /* finalize is a no-op on TEST: the flag changes nothing */
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, t, 1, &o));
    CHECK_MEM(d.r1cs, want, 32);
    czk_cs_destroy(t);

    /* SHAPE, before and after czk_cs_finalize (its input rows left out) */
    czk_cs *s = kat_cs(CZK_CS_SHAPE, 0);
    REQUIRE(s);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, s, 0, &o));
    CHECK_MEM(d.r1cs, want, 32);
    REQUIRE_OK(czk_cs_finalize(s));
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, s, 1, &o));
    CHECK_MEM(d.r1cs, want, 32);
    CHECK_EQ_U64(d.n_constraints, 5);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, s, 0, &o)); /* the input rows hashed too: another digest */
    CHECK(memcmp(d.r1cs, want, 32) != 0);
    CHECK_EQ_U64(d.n_constraints, 7);
    czk_cs_destroy(s);
    s = kat_cs(CZK_CS_SHAPE, 0);
    REQUIRE(s);
    CHECK(czk_cs_r1cs_digest(&d, NULL, s, 1, &o) == CZK_ERR_INVALID_ARG); /* not finalized */
    CHECK(strstr(czk_last_error(), "czk_cs_finalize") != NULL);
    czk_cs_destroy(s);

    /* PROVE and WITNESS keep no constraints */
    czk_cs *p = kat_cs(CZK_CS_PROVE, 0);
    REQUIRE(p);
    CHECK(czk_cs_r1cs_digest(&d, NULL, p, 0, &o) == CZK_ERR_INVALID_ARG);
    REQUIRE_OK(czk_cs_r1cs_digest_values(asg, p));
    CHECK_MEM(asg, want_asg, 32);
    czk_cs_destroy(p);

    /* the streaming digester: no values, PROVE values, WITNESS values, names */
    for (int mode = 0; mode < 4; mode++) {
        czk_cs *vals = NULL, *cs;
        czk_r1cs_digester *dg;
        if (mode == 1) REQUIRE_OK(czk_cs_create(&vals, CZK_CS_PROVE, CZK_LC_VEC, NULL));
        if (mode >= 2) REQUIRE_OK(czk_cs_create(&vals, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
        czk_r1cs_digest_opts od = dopts(NULL, NULL, 1, mode == 3);
        REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &cs, vals, CZK_LC_VEC, &od));
        CHECK_EQ_U64(cs->n_inputs, 1);
        CHECK_EQ_U64(cs->has_values, mode >= 1);
        REQUIRE_OK(kat_circuit(cs, 0));
        if (vals) { /* values readable through the digester's cs */
            czk_fr v, f15;
            czk_fr_from_u64(&f15, 15);
            REQUIRE_OK(czk_cs_value(cs, &v, czk_var_aux(2)));
            CHECK(czk_fr_eq(&v, &f15));
            REQUIRE_OK(czk_cs_value(cs, &v, czk_var_input(1)));
            CHECK(czk_fr_eq(&v, &f15));
        }
        REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, &d, NULL));
        CHECK_MSG(memcmp(d.r1cs, want, 32) == 0, "digester mode %d", mode);
        CHECK_EQ_U64(d.n_inputs, 2);
        CHECK_EQ_U64(d.n_aux, 3);
        CHECK_EQ_U64(d.n_constraints, 5);
        CHECK(czk_cs_r1cs_digester_finish(dg, &d, NULL) == CZK_ERR_INVALID_ARG);
        czk_cs_r1cs_digester_destroy(dg);
        if (vals) {
            REQUIRE_OK(czk_cs_r1cs_digest_values(asg, vals));
            CHECK_MEM(asg, want_asg, 32);
        }
        if (mode == 1) { /* the PROVE backend got every constraint: 5 rows */
            czk_cs_assignment as;
            REQUIRE_OK(czk_cs_prove_get(vals, &as));
            CHECK_EQ_U64(as.n_constraints, 5);
        }
        czk_cs_destroy(vals);
    }
    /* a values backend that is not fresh is refused */
    {
        czk_cs *vals = kat_cs(CZK_CS_WITNESS, 0), *cs;
        czk_r1cs_digester *dg;
        REQUIRE(vals);
        CHECK(czk_cs_r1cs_digester_create(&dg, &cs, vals, CZK_LC_VEC, NULL) == CZK_ERR_INVALID_ARG);
        czk_cs_destroy(vals);
    }
    /* the assignment function on the spec's values directly */
    czk_fr in[2], aux[3];
    czk_fr_from_u64(&in[0], 1);
    czk_fr_from_u64(&in[1], 15);
    czk_fr_from_u64(&aux[0], 3);
    czk_fr_from_u64(&aux[1], 5);
    czk_fr_from_u64(&aux[2], 15);
    czk_cs_r1cs_digest_assignment(asg, in, 2, aux, 3);
    CHECK_MEM(asg, want_asg, 32);
}

/* The same matrix built in other ways gives the same digest. */
CZK_TEST(r1cs_digest_invariance_circuit)
{
    uint8_t want[32], want_asg[32], h[5][32];
    kat_expected(want, want_asg, h);
    czk_r1cs_digest_opts o = dopts(NULL, NULL, 1, 0);
    for (int b = 0; b < 2; b++) {
        czk_cs *cs = kat_cs(b ? CZK_CS_SHAPE : CZK_CS_TEST, K_REORDER);
        REQUIRE(cs);
        czk_r1cs_digest d;
        REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, cs, 0, &o));
        CHECK_MSG(memcmp(d.r1cs, want, 32) == 0, "%s backend, reordered terms", b ? "SHAPE" : "TEST");
        czk_cs_destroy(cs);
    }
}

/* Random rows: shuffled, split into repeated terms, zero and cancelling terms
 * added: the same h_c; a changed coefficient, two swapped variables, a term
 * moved to another LC or from aux to input: another h_c. */
typedef struct rrow {
    czk_lc_term t[3][2][24];
    uint32_t n[3][2];
} rrow;

static void rrow_views(czk_lc_view v[3], rrow *r)
{
    for (int k = 0; k < 3; k++) {
        v[k].in = r->t[k][0];
        v[k].n_in = r->n[k][0];
        v[k].aux = r->t[k][1];
        v[k].n_aux = r->n[k][1];
    }
}

static void rrow_hash(uint8_t h[32], rrow *r)
{
    czk_lc_view v[3];
    rrow_views(v, r);
    CHECK_OK(czk_cs_r1cs_digest_row(h, &v[0], &v[1], &v[2]));
}

static void random_coeff(czk_fr *c, czk_rng *rng)
{
    switch (czk_rng_below(rng, 4)) {
    case 0: *c = CZK_FR_ONE; break;
    case 1: *c = CZK_FR_MINUS_ONE; break;
    case 2: czk_fr_from_u64(c, 1 + czk_rng_below(rng, 1000)); break;
    default: czk_fr_random(c, rng);
    }
    if (czk_fr_is_zero(c)) *c = CZK_FR_ONE;
}

CZK_TEST(r1cs_digest_invariance_and_sensitivity_rows)
{
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(300);
    for (size_t it = 0; it < iters; it++) {
        rrow base, p;
        memset(&base, 0, sizeof base);
        for (int k = 0; k < 3; k++)
            for (int part = 0; part < 2; part++) {
                uint32_t n = (uint32_t)czk_rng_below(rng, 6), idx = (uint32_t)czk_rng_below(rng, 3);
                for (uint32_t i = 0; i < n; i++) {
                    base.t[k][part][i].index = idx;
                    random_coeff(&base.t[k][part][i].coeff, rng);
                    idx += 1 + (uint32_t)czk_rng_below(rng, 4);
                }
                base.n[k][part] = n;
            }
        uint8_t h0[32], h1[32];
        rrow_hash(h0, &base);
        /* invariance */
        p = base;
        for (int k = 0; k < 3; k++)
            for (int part = 0; part < 2; part++) {
                czk_lc_term *t = p.t[k][part];
                uint32_t n = p.n[k][part];
                /* split some terms: c = c1 + (c - c1) */
                for (uint32_t i = 0, n0 = n; i < n0; i++)
                    if (czk_rng_below(rng, 2) && n < 20) {
                        czk_fr c1;
                        czk_fr_random(&c1, rng);
                        t[n] = t[i];
                        czk_fr_sub(&t[n].coeff, &t[i].coeff, &c1);
                        t[i].coeff = c1;
                        n++;
                    }
                /* a zero term and a cancelling pair on fresh indices */
                if (n < 21) {
                    t[n].index = 1000 + (uint32_t)czk_rng_below(rng, 50);
                    t[n].coeff = CZK_FR_ZERO;
                    n++;
                    czk_fr_random(&t[n].coeff, rng);
                    t[n].index = 2000;
                    t[n + 1].index = 2000;
                    czk_fr_neg(&t[n + 1].coeff, &t[n].coeff);
                    n += 2;
                }
                /* shuffle */
                for (uint32_t i = n; i > 1; i--) {
                    uint32_t j = (uint32_t)czk_rng_below(rng, i);
                    czk_lc_term x = t[i - 1];
                    t[i - 1] = t[j];
                    t[j] = x;
                }
                p.n[k][part] = n;
            }
        rrow_hash(h1, &p);
        CHECK_MSG(memcmp(h0, h1, 32) == 0, "iteration %zu: the same row built otherwise hashes differently", it);
        /* sensitivity: pick a non-empty part */
        int k = (int)czk_rng_below(rng, 3), part = (int)czk_rng_below(rng, 2);
        if (base.n[k][part] == 0) continue;
        uint32_t i = (uint32_t)czk_rng_below(rng, base.n[k][part]);
        p = base;
        czk_fr_add(&p.t[k][part][i].coeff, &p.t[k][part][i].coeff, &CZK_FR_ONE);
        if (!czk_fr_is_zero(&p.t[k][part][i].coeff)) {
            rrow_hash(h1, &p);
            CHECK_MSG(memcmp(h0, h1, 32) != 0, "iteration %zu: a changed coefficient went unnoticed", it);
        }
        if (base.n[k][part] >= 2) { /* swap the variables of two terms with different coefficients */
            p = base;
            czk_lc_term *t = p.t[k][part];
            if (!czk_fr_eq(&t[0].coeff, &t[1].coeff)) {
                uint32_t x = t[0].index;
                t[0].index = t[1].index;
                t[1].index = x;
                rrow_hash(h1, &p);
                CHECK_MSG(memcmp(h0, h1, 32) != 0, "iteration %zu: swapped variables went unnoticed", it);
            }
        }
        /* move the last term to the next LC (same part), or across parts */
        p = base;
        int k2 = (k + 1) % 3;
        if (p.n[k2][part] < 24) {
            czk_lc_term mv = p.t[k][part][--p.n[k][part]];
            int clash = 0;
            for (uint32_t j = 0; j < p.n[k2][part]; j++) clash |= p.t[k2][part][j].index == mv.index;
            if (!clash) {
                p.t[k2][part][p.n[k2][part]++] = mv;
                rrow_hash(h1, &p);
                CHECK_MSG(memcmp(h0, h1, 32) != 0, "iteration %zu: a term moved to another LC went unnoticed", it);
            }
        }
        p = base;
        if (p.n[k][1 - part] < 24) {
            czk_lc_term mv = p.t[k][part][--p.n[k][part]];
            int clash = 0;
            for (uint32_t j = 0; j < p.n[k][1 - part]; j++) clash |= p.t[k][1 - part][j].index == mv.index;
            if (!clash) {
                p.t[k][1 - part][p.n[k][1 - part]++] = mv;
                rrow_hash(h1, &p);
                CHECK_MSG(memcmp(h0, h1, 32) != 0, "iteration %zu: input/aux confusion went unnoticed", it);
            }
        }
    }
}

/* ---- dump files ------------------------------------------------------------------ */

static char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ & 7];
    snprintf(p, 512, "%s/%s", czk_test_tmpdir(), name);
    return p;
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void write_all(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

static int dir_has_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".tmp.")) found = 1;
    if (d) closedir(d);
    return found;
}

CZK_TEST(r1cs_digest_dump_round_trip)
{
    uint8_t want[32], want_asg[32], h[5][32];
    kat_expected(want, want_asg, h);
    const char *path = tmp_path("kat.dump");
    czk_cs *t = kat_cs(CZK_CS_TEST, 0);
    REQUIRE(t);
    czk_r1cs_digest d;
    czk_r1cs_digest_opts o = dopts(path, NULL, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, t, 0, &o));
    CHECK_MEM(d.r1cs, want, 32);
    CHECK(!dir_has_tmp(czk_test_tmpdir()));
    size_t n;
    uint8_t *f = read_all(path, &n);
    REQUIRE(f);
    CHECK_EQ_U64(n, 32 + 5 * 32);
    CHECK_MEM(f, "CZKR1CS1", 8);
    uint8_t cnt[24];
    memset(cnt, 0, sizeof cnt);
    cnt[0] = 2;
    cnt[8] = 3;
    cnt[16] = 5;
    CHECK_MEM(f + 8, cnt, 24);
    for (int i = 0; i < 5; i++) CHECK_MSG(memcmp(f + 32 + 32 * i, h[i], 32) == 0, "dump hash %d", i);
    /* the digest from the file alone: SHA-256(hashes || counts) */
    uint8_t buf[5 * 32 + 24], dd[32];
    memcpy(buf, f + 32, 5 * 32);
    memcpy(buf + 5 * 32, f + 8, 24);
    sha(dd, buf, sizeof buf);
    CHECK_MEM(dd, want, 32);
    free(f);

    /* compare with itself: identical; the digester and a parallel run too */
    czk_r1cs_diff df;
    memset(&df, 0, sizeof df);
    o = dopts(NULL, path, 2, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, &df, t, 0, &o));
    CHECK(df.identical);
    CHECK(df.first == -1);
    CHECK_EQ_U64(df.counts_differ, 0);
    CHECK_EQ_U64(df.ref_n_constraints, 5);
    czk_cs_r1cs_diff_clear(&df);
    czk_cs *cs;
    czk_r1cs_digester *dg;
    const char *path2 = tmp_path("kat2.dump");
    o = dopts(path2, path, 1, 1);
    REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &cs, NULL, CZK_LC_VEC, &o));
    REQUIRE_OK(kat_circuit(cs, K_REORDER));
    REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, &d, &df));
    czk_cs_r1cs_digester_destroy(dg);
    CHECK(df.identical);
    CHECK_MEM(d.r1cs, want, 32);
    czk_cs_r1cs_diff_clear(&df);
    size_t n1, n2;
    uint8_t *f1 = read_all(path, &n1), *f2 = read_all(path2, &n2);
    REQUIRE(f1 && f2);
    CHECK(n1 == n2 && memcmp(f1, f2, n1) == 0); /* the digester writes the same dump */
    free(f1);
    free(f2);
    /* an abandoned digester leaves neither the dump nor a temporary file */
    const char *path3 = tmp_path("abandoned.dump");
    o = dopts(path3, NULL, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &cs, NULL, CZK_LC_VEC, &o));
    REQUIRE_OK(kat_circuit(cs, 0));
    czk_cs_r1cs_digester_destroy(dg);
    struct stat st;
    CHECK(stat(path3, &st) != 0);
    CHECK(!dir_has_tmp(czk_test_tmpdir()));
    czk_cs_destroy(t);
}

/* Changed circuits: the comparison names the first differing constraint, its
 * terms and path; counts that differ are reported. */
CZK_TEST(r1cs_digest_sensitivity_compare)
{
    const char *ref = tmp_path("ref.dump");
    czk_cs *t = kat_cs(CZK_CS_TEST, 0);
    REQUIRE(t);
    czk_r1cs_digest d0, d;
    czk_r1cs_digest_opts o = dopts(ref, NULL, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d0, NULL, t, 0, &o));
    czk_cs_destroy(t);
    static const struct {
        unsigned flags;
        int64_t first;
        const char *path;
    } cases[] = {{K_COEFF, 4, "kat/big"}, {K_SWAP, 4, "kat/big"}, {K_MOVE, 2, "kat/lin"}, {K_MOVE | K_COEFF, 2, "kat/lin"}};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        for (int via = 0; via < 4; via++) { /* TEST, SHAPE, the digester with names, on 2 threads without */
            czk_r1cs_diff df;
            memset(&df, 0, sizeof df);
            o = via == 3 ? dopts(NULL, ref, 2, 0) : dopts(NULL, ref, 1, 1);
            czk_cs *cs = NULL;
            czk_r1cs_digester *dg = NULL;
            if (via < 2) {
                cs = kat_cs(via ? CZK_CS_SHAPE : CZK_CS_TEST, cases[ci].flags);
                REQUIRE(cs);
                REQUIRE_OK(czk_cs_r1cs_digest(&d, &df, cs, 0, &o));
            } else {
                czk_cs *dcs;
                REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &dcs, NULL, CZK_LC_VEC, &o));
                REQUIRE_OK(kat_circuit(dcs, cases[ci].flags));
                REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, &d, &df));
            }
            CHECK(memcmp(d.r1cs, d0.r1cs, 32) != 0);
            CHECK(!df.identical);
            CHECK_EQ_U64(df.counts_differ, 0);
            CHECK_MSG(df.first == cases[ci].first, "case %zu via %d: first %lld", ci, via, (long long)df.first);
            if (via == 0 || via == 2)
                CHECK_MSG(df.path && strcmp(df.path, cases[ci].path) == 0, "case %zu via %d: path %s", ci, via,
                          df.path ? df.path : "(null)");
            else
                CHECK(df.path == NULL); /* SHAPE and the digester without names keep no names */
            /* the captured terms hash to czk's h_c */
            uint8_t hc[32];
            CHECK_OK(czk_cs_r1cs_digest_row(hc, &df.lc[0], &df.lc[1], &df.lc[2]));
            CHECK_MEM(hc, df.h_ours, 32);
            CHECK(memcmp(df.h_ours, df.h_ref, 32) != 0);
            if (cases[ci].flags == K_COEFF) { /* C = -3 y: one aux term, coefficient -3 */
                czk_fr m3;
                czk_fr_from_u64(&m3, 3);
                czk_fr_neg(&m3, &m3);
                CHECK_EQ_U64(df.lc[2].n_in, 0);
                REQUIRE(df.lc[2].n_aux == 1);
                CHECK_EQ_U64(df.lc[2].aux[0].index, 1);
                CHECK(czk_fr_eq(&df.lc[2].aux[0].coeff, &m3));
            }
            czk_cs_r1cs_diff_clear(&df);
            czk_cs_r1cs_digester_destroy(dg);
            czk_cs_destroy(cs);
        }
    }
    /* one more constraint: the counts differ, the common prefix is equal */
    czk_cs *cs = kat_cs(CZK_CS_TEST, K_EXTRA);
    REQUIRE(cs);
    czk_r1cs_diff df;
    memset(&df, 0, sizeof df);
    o = dopts(NULL, ref, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, &df, cs, 0, &o));
    CHECK(!df.identical);
    CHECK_EQ_U64(df.counts_differ, CZK_R1CS_DIFF_CONSTRAINTS);
    CHECK(df.first == -1);
    CHECK_EQ_U64(df.ref_n_constraints, 5);
    CHECK_EQ_U64(d.n_constraints, 6);
    czk_cs_r1cs_diff_clear(&df);
    czk_cs_destroy(cs);
    /* a flipped bit in the dump's hash of constraint 3, then in its aux count */
    size_t n;
    uint8_t *f = read_all(ref, &n);
    REQUIRE(f);
    const char *bad = tmp_path("flipped.dump");
    f[32 + 3 * 32 + 17] ^= 0x10;
    write_all(bad, f, n);
    f[32 + 3 * 32 + 17] ^= 0x10;
    f[16] ^= 1;
    const char *badc = tmp_path("counts.dump");
    write_all(badc, f, n);
    free(f);
    cs = kat_cs(CZK_CS_TEST, 0);
    REQUIRE(cs);
    o = dopts(NULL, bad, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, &df, cs, 0, &o));
    CHECK(!df.identical && df.first == 3 && df.counts_differ == 0);
    CHECK(df.path && strcmp(df.path, "kat/empty") == 0);
    czk_cs_r1cs_diff_clear(&df);
    o = dopts(NULL, badc, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, &df, cs, 0, &o));
    CHECK(!df.identical && df.first == -1 && df.counts_differ == CZK_R1CS_DIFF_AUX);
    CHECK_EQ_U64(df.ref_n_aux, 2);
    czk_cs_r1cs_diff_clear(&df);
    czk_cs_destroy(cs);
}

/* Malformed dumps: an error naming the file (and the offset), never a crash;
 * a failed run leaves no dump of its own. */
CZK_TEST(r1cs_digest_malformed_dump)
{
    const char *ref = tmp_path("good.dump");
    czk_cs *t = kat_cs(CZK_CS_TEST, 0);
    REQUIRE(t);
    czk_r1cs_digest d;
    czk_r1cs_digest_opts o = dopts(ref, NULL, 1, 0);
    REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, t, 0, &o));
    size_t n;
    uint8_t *good = read_all(ref, &n);
    REQUIRE(good && n == 192);
    uint8_t big[256];
    memcpy(big, good, n);
    big[n] = 0;
    struct {
        const char *name;
        size_t len;
        int patch; /* 1: bad magic; 2: m = 2^40; 3: m = 2^59 + 1; 4: m = UINT64_MAX */
        const char *want;
    } cases[] = {
        {"empty.dump", 0, 0, "offset 0"},
        {"magic4.dump", 4, 0, "truncated at offset 4"},
        {"hdr20.dump", 20, 0, "truncated at offset 20"},
        {"hash.dump", 191, 0, "truncated at offset 191"},
        {"extra.dump", 193, 0, "at offset 192"},
        {"magic.dump", 192, 1, "offset 0: not an R1CS dump"},
        {"m40.dump", 192, 2, "truncated at offset 192"},
        {"m59.dump", 192, 3, "offset 24"},
        {"mmax.dump", 192, 4, "offset 24"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[256];
        memcpy(b, big, sizeof b);
        if (cases[i].patch == 1) memcpy(b, "CZKR1CS2", 8);
        if (cases[i].patch >= 2) {
            uint64_t m = cases[i].patch == 2   ? (uint64_t)1 << 40
                         : cases[i].patch == 3 ? ((uint64_t)1 << 59) + 1
                                               : UINT64_MAX;
            for (int k = 0; k < 8; k++) b[24 + k] = (uint8_t)(m >> (8 * k));
        }
        const char *p = tmp_path(cases[i].name);
        write_all(p, b, cases[i].len);
        for (int via = 0; via < 2; via++) {
            czk_r1cs_diff df;
            memset(&df, 0, sizeof df);
            const char *out = tmp_path("not-written.dump");
            o = dopts(out, p, 1, 0);
            czk_status st;
            if (via == 0) st = czk_cs_r1cs_digest(&d, &df, t, 0, &o);
            else {
                czk_r1cs_digester *dg = NULL;
                czk_cs *cs;
                st = czk_cs_r1cs_digester_create(&dg, &cs, NULL, CZK_LC_VEC, &o);
                CHECK(dg == NULL);
            }
            CHECK_MSG(st == CZK_ERR_FORMAT, "%s via %d: status %d", cases[i].name, via, (int)st);
            CHECK_MSG(strstr(czk_last_error(), p) != NULL && strstr(czk_last_error(), cases[i].want) != NULL,
                      "%s via %d: message '%s' lacks the path or '%s'", cases[i].name, via, czk_last_error(),
                      cases[i].want);
            struct stat st2;
            CHECK(stat(out, &st2) != 0);
            czk_cs_r1cs_diff_clear(&df);
        }
    }
    /* missing file, a directory */
    o = dopts(NULL, tmp_path("missing.dump"), 1, 0);
    CHECK(czk_cs_r1cs_digest(&d, NULL, t, 0, &o) == CZK_ERR_IO);
    CHECK(strstr(czk_last_error(), "missing.dump") != NULL);
    o = dopts(NULL, czk_test_tmpdir(), 1, 0);
    CHECK(czk_cs_r1cs_digest(&d, NULL, t, 0, &o) == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "not a regular file") != NULL);
    /* random truncations and bit flips: an error or a diff, never a crash */
    czk_rng *rng = czk_test_rng();
    const char *p = tmp_path("random.dump");
    for (size_t it = 0; it < czk_test_iters(100); it++) {
        uint8_t b[192];
        memcpy(b, good, sizeof b);
        size_t len = czk_rng_below(rng, 2) ? czk_rng_below(rng, 193) : 192;
        b[czk_rng_below(rng, 192)] ^= (uint8_t)(1u << czk_rng_below(rng, 8));
        write_all(p, b, len);
        czk_r1cs_diff df;
        memset(&df, 0, sizeof df);
        o = dopts(NULL, p, 1, 0);
        czk_status st = czk_cs_r1cs_digest(&d, &df, t, 0, &o);
        CHECK(st == CZK_OK || st == CZK_ERR_FORMAT);
        if (st == CZK_OK) CHECK(!df.identical); /* one bit was flipped */
        czk_cs_r1cs_diff_clear(&df);
    }
    free(good);
    czk_cs_destroy(t);
}

/* Poseidon: the TEST backend builds directly, the digester without names
 * replays the recorded template: the same R1CS (and assignment). */
CZK_TEST(r1cs_digest_poseidon_replay_equals_direct)
{
    czk_rng *rng = czk_test_rng();
    static const size_t arities[4] = {2, 4, 8, 11};
    for (int ai = 0; ai < 4; ai++) {
        size_t n = arities[ai];
        czk_fr val[11];
        for (size_t i = 0; i < n; i++) czk_fr_random(&val[i], rng);
        uint8_t r[3][32], asg[3][32];
        for (int mode = 0; mode < 3; mode++) { /* TEST; digester + PROVE; digester + WITNESS, names */
            czk_cs *cs = NULL, *vals = NULL, *dcs;
            czk_r1cs_digester *dg = NULL;
            if (mode == 0) {
                REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
                dcs = cs;
            } else {
                REQUIRE_OK(czk_cs_create(&vals, mode == 1 ? CZK_CS_PROVE : CZK_CS_WITNESS, CZK_LC_VEC, NULL));
                czk_r1cs_digest_opts o = dopts(NULL, NULL, 1, mode == 2);
                REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &dcs, vals, CZK_LC_VEC, &o));
            }
            czk_var in[11], out;
            czk_fr out_val;
            for (size_t i = 0; i < n; i++) REQUIRE_OK(czk_cs_alloc(dcs, &in[i], &val[i], "in", i));
            REQUIRE_OK(czk_poseidon_circuit_vec(dcs, &out, &out_val, in, val, n));
            czk_r1cs_digest d;
            if (mode == 0) {
                czk_r1cs_digest_opts o = dopts(NULL, NULL, 2, 0);
                REQUIRE_OK(czk_cs_r1cs_digest(&d, NULL, cs, 0, &o));
                REQUIRE_OK(czk_cs_r1cs_digest_values(asg[mode], cs));
                CHECK_OK(czk_cs_test_check(cs));
            } else {
                REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, &d, NULL));
                REQUIRE_OK(czk_cs_r1cs_digest_values(asg[mode], vals));
                if (mode == 1) {
                    REQUIRE_OK(czk_cs_finalize(vals));
                    CHECK_OK(czk_cs_prove_check(vals));
                }
            }
            CHECK_EQ_U64(d.n_constraints, czk_poseidon_circuit_constraints(n));
            memcpy(r[mode], d.r1cs, 32);
            czk_cs_r1cs_digester_destroy(dg);
            czk_cs_destroy(cs);
            czk_cs_destroy(vals);
        }
        CHECK_MSG(memcmp(r[0], r[1], 32) == 0, "arity %zu: the replayed R1CS differs from the direct one", n);
        CHECK_MSG(memcmp(r[0], r[2], 32) == 0, "arity %zu: the digester with names differs", n);
        CHECK_MEM(asg[0], asg[1], 32);
        CHECK_MEM(asg[0], asg[2], 32);
    }
}

/* A whole PoRep partition (the smallest shape, ~1.3M constraints): TEST
 * (names, direct paths), SHAPE after finalize (in parallel, several row
 * blocks) and the digester without names (the prover's paths, PROVE values)
 * agree on both digests; the PROVE backend fed by the digester is satisfied. */
CZK_TEST(r1cs_digest_porep_sources_agree)
{
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_custom(&s, 8, 2, 1, 1, 8, 0, 0));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    czk_r1cs_digest d[3];
    uint8_t asg[2][32];
    const char *dump = tmp_path("porep.dump");
    /* 0: the digester, PROVE values, dump */
    {
        czk_cs *vals, *cs;
        czk_r1cs_digester *dg;
        REQUIRE_OK(czk_cs_create(&vals, CZK_CS_PROVE, CZK_LC_VEC, &z));
        czk_r1cs_digest_opts o = dopts(dump, NULL, 1, 0);
        REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &cs, vals, CZK_LC_VEC, &o));
        REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, 0));
        REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, &d[0], NULL));
        czk_cs_r1cs_digester_destroy(dg);
        REQUIRE_OK(czk_cs_finalize(vals));
        CHECK_OK(czk_cs_prove_check(vals));
        REQUIRE_OK(czk_cs_r1cs_digest_values(asg[0], vals));
        czk_cs_destroy(vals);
    }
    CHECK_EQ_U64(d[0].n_inputs, z.n_inputs);
    CHECK_EQ_U64(d[0].n_aux, z.n_aux);
    CHECK_EQ_U64(d[0].n_constraints + z.n_inputs, z.n_constraints);
    /* 1: SHAPE, finalized, 2 threads */
    {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, &z));
        REQUIRE_OK(czk_porep_synthesize(cs, &s, NULL, 0));
        REQUIRE_OK(czk_cs_finalize(cs));
        czk_r1cs_diff df;
        memset(&df, 0, sizeof df);
        czk_r1cs_digest_opts o = dopts(NULL, dump, 2, 0);
        REQUIRE_OK(czk_cs_r1cs_digest(&d[1], &df, cs, 1, &o));
        CHECK(df.identical);
        czk_cs_r1cs_diff_clear(&df);
        czk_cs_destroy(cs);
    }
    CHECK_MEM(d[0].r1cs, d[1].r1cs, 32);
    /* 2: TEST (names; direct Poseidon), compared with the dump */
    if (!asan()) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, &z));
        REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, 0));
        czk_r1cs_diff df;
        memset(&df, 0, sizeof df);
        czk_r1cs_digest_opts o = dopts(NULL, dump, 2, 0);
        REQUIRE_OK(czk_cs_r1cs_digest(&d[2], &df, cs, 0, &o));
        CHECK_MSG(df.identical, "TEST vs the digester: first differing constraint %lld (%s)", (long long)df.first,
                  df.path ? df.path : "");
        czk_cs_r1cs_diff_clear(&df);
        REQUIRE_OK(czk_cs_r1cs_digest_values(asg[1], cs));
        CHECK_MEM(d[0].r1cs, d[2].r1cs, 32);
        CHECK_MEM(asg[0], asg[1], 32);
        czk_cs_destroy(cs);
    }
    czk_fc_c1_free(&c1);
}

/* ---- the digester on several threads ------------------------------------------------ */

#define PAR_ROWS 70000u  /* more than four batches of 2^14 rows */
#define PAR_WIDE0 40000u /* rows [PAR_WIDE0, PAR_WIDE0 + 800) have 400-term LCs: batches cut by terms */
#define PAR_IN 8u
#define PAR_AUX 5000u

/* Row r of a seeded random circuit: 0..3 terms per part (400 aux terms in A
 * of the wide rows), unsorted, with repeated indices and zero coefficients,
 * which the hashing threads put in canonical order. */
static void par_row(czk_lc_term *t, czk_lc_view v[3], czk_rng *rng, uint32_t r)
{
    for (int k = 0; k < 3; k++)
        for (int part = 0; part < 2; part++) {
            int wide = k == 0 && part == 1 && r >= PAR_WIDE0 && r < PAR_WIDE0 + 800;
            uint32_t n = wide ? 400 : (uint32_t)czk_rng_below(rng, 4), lim = part ? PAR_AUX : PAR_IN;
            for (uint32_t i = 0; i < n; i++) {
                t[i].index = (uint32_t)czk_rng_below(rng, lim);
                t[i].reserved_ = 0;
                if (czk_rng_below(rng, 16) == 0) t[i].coeff = CZK_FR_ZERO;
                else random_coeff(&t[i].coeff, rng);
            }
            if (part) {
                v[k].aux = t;
                v[k].n_aux = n;
            } else {
                v[k].in = t;
                v[k].n_in = n;
            }
            t += n;
        }
}

/* The seeded circuit through a digester with `threads` threads. */
static void par_digest(czk_r1cs_digest *d, czk_r1cs_diff *df, uint64_t seed, const char *dump, const char *cmp,
                       int threads)
{
    czk_cs *cs;
    czk_r1cs_digester *dg;
    czk_r1cs_digest_opts o = dopts(dump, cmp, threads, 0);
    REQUIRE_OK(czk_cs_r1cs_digester_create(&dg, &cs, NULL, CZK_LC_VEC, &o));
    czk_var x;
    for (uint32_t i = 1; i < PAR_IN; i++) REQUIRE_OK(czk_cs_alloc_input(cs, &x, NULL, "in", i));
    for (uint32_t i = 0; i < PAR_AUX; i++) REQUIRE_OK(czk_cs_alloc(cs, &x, NULL, "aux", i));
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    static czk_lc_term t[6 * 400];
    for (uint32_t r = 0; r < PAR_ROWS; r++) {
        czk_lc_view v[3];
        par_row(t, v, &rng, r);
        REQUIRE_OK(czk_cs_enforce(cs, &v[0], &v[1], &v[2], "row", r));
    }
    REQUIRE_OK(czk_cs_r1cs_digester_finish(dg, d, df));
    czk_cs_r1cs_digester_destroy(dg);
}

/* With threads > 1 the digester hashes batches of rows on several threads:
 * the digest, the dump and the comparison are the one-thread digester's over
 * many batches (cut by rows and by terms); a difference in a late batch and
 * in the last row is found at its index, with its terms. */
CZK_TEST(r1cs_digest_parallel_digester)
{
    uint64_t seed = czk_rng_u64(czk_test_rng());
    const char *dump1 = tmp_path("par1.dump"), *dump3 = tmp_path("parn.dump");
    czk_r1cs_digest d1, d;
    par_digest(&d1, NULL, seed, dump1, NULL, 1);
    CHECK_EQ_U64(d1.n_constraints, PAR_ROWS);
    CHECK_EQ_U64(d1.n_inputs, PAR_IN);
    const int most = asan() ? 2 : 3;
    for (int threads = 2; threads <= most; threads++) {
        czk_r1cs_diff df;
        memset(&df, 0, sizeof df);
        par_digest(&d, &df, seed, threads == most ? dump3 : NULL, dump1, threads);
        CHECK_MSG(df.identical, "%d threads: first differing constraint %lld", threads, (long long)df.first);
        CHECK_MEM(d.r1cs, d1.r1cs, 32);
        CHECK_EQ_U64(d.n_constraints, d1.n_constraints);
        CHECK_EQ_U64(d.n_aux, d1.n_aux);
        czk_cs_r1cs_diff_clear(&df);
    }
    size_t n1, n3;
    uint8_t *f = read_all(dump1, &n1), *f3 = read_all(dump3, &n3);
    REQUIRE(f && f3);
    CHECK(n1 == n3 && memcmp(f, f3, n1) == 0); /* the same dump, byte for byte */
    free(f3);
    /* one flipped bit in the dump's hash of a row in a late batch, then of the last row */
    const uint64_t rows[2] = {3 * 16384 + 77, PAR_ROWS - 1};
    for (int i = 0; i < 2; i++) {
        const char *bad = tmp_path("par-flipped.dump");
        f[32 + 32 * rows[i] + 5] ^= 0x40;
        write_all(bad, f, n1);
        f[32 + 32 * rows[i] + 5] ^= 0x40;
        czk_r1cs_diff df;
        memset(&df, 0, sizeof df);
        par_digest(&d, &df, seed, NULL, bad, 2);
        CHECK(!df.identical && df.counts_differ == 0);
        CHECK_MSG(df.first == (int64_t)rows[i], "first differing constraint %lld, wanted %llu", (long long)df.first,
                  (unsigned long long)rows[i]);
        CHECK_MEM(d.r1cs, d1.r1cs, 32);
        uint8_t hc[32];
        CHECK_OK(czk_cs_r1cs_digest_row(hc, &df.lc[0], &df.lc[1], &df.lc[2]));
        CHECK_MEM(hc, df.h_ours, 32);
        CHECK_MEM(df.h_ours, f + 32 + 32 * rows[i], 32);
        czk_cs_r1cs_diff_clear(&df);
    }
    free(f);
}
