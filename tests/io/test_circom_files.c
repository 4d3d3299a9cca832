/* circom / snarkjs readers, prover and verifier on synthetic files built here
 * (no npm needed): a tiny circuit, its .r1cs/.wtns, and a Groth16 .zkey made
 * by a reference setup that follows docs/circom.md (Lagrange basis of the
 * nqr-5 roots, extra public rows, H on the odd coset of the 2n-th roots). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "czk/circom.h"
#include "czk/ntt.h"
#include "runner.h"

/* ---- byte buffer ----------------------------------------------------------- */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        CZK_ASSERT(b->p);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put32(buf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, t, 4);
}
static void put64(buf *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}
static void put_fr_plain(buf *b, const czk_fr *a)
{
    uint8_t t[32];
    czk_fr_to_bytes(t, a);
    put(b, t, 32);
}
static void put_limbs(buf *b, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++) put64(b, l[i]);
}
static void put_r(buf *b) { put_limbs(b, CZK_FR_MODULUS, 4); }
/* Section: type, u64 length, payload. */
static void put_sect(buf *b, uint32_t type, const buf *payload)
{
    put32(b, type);
    put64(b, payload->n);
    put(b, payload->p, payload->n);
}
static void put_g1(buf *b, const czk_g1_affine *p)
{
    if (p->inf) {
        uint8_t z[96] = {0};
        put(b, z, 96);
        return;
    }
    put_limbs(b, p->x.l, 6);
    put_limbs(b, p->y.l, 6);
}
static void put_g2(buf *b, const czk_g2_affine *p)
{
    if (p->inf) {
        uint8_t z[192] = {0};
        put(b, z, 192);
        return;
    }
    put_limbs(b, p->x.c0.l, 6);
    put_limbs(b, p->x.c1.l, 6);
    put_limbs(b, p->y.c0.l, 6);
    put_limbs(b, p->y.c1.l, 6);
}

/* ---- the circuit -------------------------------------------------------------
 * wires: 0 = 1, 1 = out (output), 2 = k (public input), 3 = x (private), 4 = y
 *   c0: x * x = y
 *   c1: (y + 2) * k = out
 *   c2: (x - 1) * 3 = 3x - 3      (coefficients r-1, r-3 exercise "negative" values)
 *   c3: (5 x) * (0 terms) = 0     (an empty LC)
 */
#define NW 5
#define NC 4
#define NPUB 2

typedef struct term {
    uint32_t wire;
    int64_t coef;
} term;
typedef struct lc {
    int n;
    term t[3];
} lc;
static const lc CIRCUIT[NC][3] = {
    {{1, {{3, 1}}}, {1, {{3, 1}}}, {1, {{4, 1}}}},
    {{2, {{4, 1}, {0, 2}}}, {1, {{2, 1}}}, {1, {{1, 1}}}},
    {{2, {{3, 1}, {0, -1}}}, {1, {{0, 3}}}, {2, {{3, 3}, {0, -3}}}},
    {{1, {{3, 5}}}, {0, {{0, 0}}}, {0, {{0, 0}}}},
};

static void coef_fr(czk_fr *r, int64_t c)
{
    czk_fr_from_u64(r, (uint64_t)(c < 0 ? -c : c));
    if (c < 0) czk_fr_neg(r, r);
}

static void witness(czk_fr w[NW], uint64_t x, uint64_t k)
{
    czk_fr two;
    w[0] = CZK_FR_ONE;
    czk_fr_from_u64(&w[3], x);
    czk_fr_from_u64(&w[2], k);
    czk_fr_mul(&w[4], &w[3], &w[3]);
    czk_fr_from_u64(&two, 2);
    czk_fr_add(&w[1], &w[4], &two);
    czk_fr_mul(&w[1], &w[1], &w[2]);
}

static void build_r1cs(buf *out)
{
    buf h = {0}, c = {0}, m = {0};
    put32(&h, 32);
    put_r(&h);
    put32(&h, NW);
    put32(&h, 1);  /* outputs */
    put32(&h, 1);  /* public inputs */
    put32(&h, 1);  /* private inputs */
    put64(&h, 7);  /* labels */
    put32(&h, NC);
    for (int j = 0; j < NC; j++)
        for (int mm = 0; mm < 3; mm++) {
            put32(&c, (uint32_t)CIRCUIT[j][mm].n);
            for (int t = 0; t < CIRCUIT[j][mm].n; t++) {
                czk_fr v;
                coef_fr(&v, CIRCUIT[j][mm].t[t].coef);
                put32(&c, CIRCUIT[j][mm].t[t].wire);
                put_fr_plain(&c, &v);
            }
        }
    for (uint64_t i = 0; i < NW; i++) put64(&m, i == 0 ? 0 : i + 1);
    out->n = 0;
    put(out, "r1cs", 4);
    put32(out, 1);
    put32(out, 3);
    put_sect(out, 2, &c); /* circom's order: 2, 1, 3 */
    put_sect(out, 1, &h);
    put_sect(out, 3, &m);
    free(h.p), free(c.p), free(m.p);
}

static void build_wtns(buf *out, const czk_fr *w, size_t n)
{
    buf h = {0}, d = {0};
    put32(&h, 32);
    put_r(&h);
    put32(&h, (uint32_t)n);
    for (size_t i = 0; i < n; i++) put_fr_plain(&d, &w[i]);
    out->n = 0;
    put(out, "wtns", 4);
    put32(out, 2);
    put32(out, 2);
    put_sect(out, 1, &h);
    put_sect(out, 2, &d);
    free(h.p), free(d.p);
}

/* L_j(tau) for the n-th roots w^j: (tau^n - 1) w^j / (n (tau - w^j)). */
static void lagrange(czk_fr *L, size_t n, unsigned logn, const czk_fr *tau)
{
    czk_fr w, wj = CZK_FR_ONE, tn, num, nf, den, t;
    REQUIRE_OK(czk_ntt_root_of_unity(&w, logn, CZK_NTT_ROOTS_NQR5));
    czk_fr_pow_u64(&tn, tau, n);
    czk_fr_sub(&num, &tn, &CZK_FR_ONE);
    czk_fr_from_u64(&nf, n);
    for (size_t j = 0; j < n; j++) {
        czk_fr_sub(&den, tau, &wj);
        czk_fr_mul(&den, &den, &nf);
        czk_fr_inv(&den, &den);
        czk_fr_mul(&t, &num, &wj);
        czk_fr_mul(&L[j], &t, &den);
        czk_fr_mul(&wj, &wj, &w);
    }
}

static void g1_of(czk_g1_affine *r, const czk_fr *k)
{
    czk_g1_affine g;
    czk_g1_jac j, o;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&j, &g);
    czk_g1_mul_ct(&o, &j, k);
    czk_g1_jac_to_affine(r, &o);
}
static void g2_of(czk_g2_affine *r, const czk_fr *k)
{
    czk_g2_affine g;
    czk_g2_jac j, o;
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&j, &g);
    czk_g2_mul_ct(&o, &j, k);
    czk_g2_jac_to_affine(r, &o);
}

/* A reference Groth16 setup with snarkjs' conventions (docs/circom.md). */
static void build_zkey(buf *out, czk_rng *rng)
{
    const unsigned logn = 3;
    const size_t n = 8;
    czk_fr tau, alpha, beta, delta, dinv;
    czk_fr_random(&tau, rng);
    czk_fr_random(&alpha, rng);
    czk_fr_random(&beta, rng);
    czk_fr_random(&delta, rng);
    czk_fr_inv(&dinv, &delta);
    czk_fr L[8], L2[16];
    lagrange(L, n, logn, &tau);
    lagrange(L2, 2 * n, logn + 1, &tau);
    czk_fr As[NW], Bs[NW], Cs[NW];
    memset(As, 0, sizeof As), memset(Bs, 0, sizeof Bs), memset(Cs, 0, sizeof Cs);
    for (int i = 0; i < NW; i++) As[i] = Bs[i] = Cs[i] = CZK_FR_ZERO;
    buf coefs = {0};
    uint32_t ncoef = 0;
    czk_fr Rv, v, t;
    REQUIRE_OK(czk_fr_from_hex(&Rv, "0x1824b159acc5056f998c4fefecbc4ff55884b7fa0003480200000001fffffffe"));
    for (int j = 0; j < NC; j++)
        for (int m = 0; m < 3; m++)
            for (int k = 0; k < CIRCUIT[j][m].n; k++) {
                const term *tm = &CIRCUIT[j][m].t[k];
                czk_fr *X = m == 0 ? As : m == 1 ? Bs : Cs;
                coef_fr(&v, tm->coef);
                czk_fr_mul(&t, &v, &L[j]);
                czk_fr_add(&X[tm->wire], &X[tm->wire], &t);
            }
    /* records: per constraint A then B terms, then the extra public rows */
    for (int j = 0; j < NC; j++)
        for (int m = 0; m < 2; m++)
            for (int k = 0; k < CIRCUIT[j][m].n; k++) {
                coef_fr(&v, CIRCUIT[j][m].t[k].coef);
                czk_fr_mul(&t, &v, &Rv); /* internal limbs = coef R^2 */
                put32(&coefs, (uint32_t)m);
                put32(&coefs, (uint32_t)j);
                put32(&coefs, CIRCUIT[j][m].t[k].wire);
                put_limbs(&coefs, t.l, 4);
                ncoef++;
            }
    for (uint32_t s = 0; s <= NPUB; s++) {
        czk_fr_add(&As[s], &As[s], &L[NC + s]);
        czk_fr_mul(&t, &CZK_FR_ONE, &Rv);
        put32(&coefs, 0);
        put32(&coefs, NC + s);
        put32(&coefs, s);
        put_limbs(&coefs, t.l, 4);
        ncoef++;
    }
    buf s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0}, s5 = {0}, s6 = {0}, s7 = {0}, s8 = {0}, s9 = {0}, s10 = {0};
    put32(&s1, 1);
    put32(&s2, 48);
    put_limbs(&s2, CZK_FP_MODULUS, 6);
    put32(&s2, 32);
    put_r(&s2);
    put32(&s2, NW);
    put32(&s2, NPUB);
    put32(&s2, (uint32_t)n);
    czk_g1_affine p1;
    czk_g2_affine p2;
    g1_of(&p1, &alpha), put_g1(&s2, &p1);
    g1_of(&p1, &beta), put_g1(&s2, &p1);
    g2_of(&p2, &beta), put_g2(&s2, &p2);
    g2_of(&p2, &CZK_FR_ONE), put_g2(&s2, &p2);
    g1_of(&p1, &delta), put_g1(&s2, &p1);
    g2_of(&p2, &delta), put_g2(&s2, &p2);
    for (int s = 0; s < NW; s++) {
        czk_fr x, y;
        czk_fr_mul(&x, &beta, &As[s]);
        czk_fr_mul(&y, &alpha, &Bs[s]);
        czk_fr_add(&x, &x, &y);
        czk_fr_add(&x, &x, &Cs[s]);
        if (s <= NPUB) {
            g1_of(&p1, &x), put_g1(&s3, &p1);
        } else {
            czk_fr_mul(&x, &x, &dinv);
            g1_of(&p1, &x), put_g1(&s8, &p1);
        }
        g1_of(&p1, &As[s]), put_g1(&s5, &p1);
        g1_of(&p1, &Bs[s]), put_g1(&s6, &p1);
        g2_of(&p2, &Bs[s]), put_g2(&s7, &p2);
    }
    put32(&s4, ncoef);
    put(&s4, coefs.p, coefs.n);
    for (size_t i = 0; i < n; i++) {
        czk_fr_mul(&t, &L2[2 * i + 1], &dinv);
        g1_of(&p1, &t), put_g1(&s9, &p1);
    }
    uint8_t hash[64] = {1, 2, 3};
    put(&s10, hash, 64);
    put32(&s10, 0);
    out->n = 0;
    put(out, "zkey", 4);
    put32(out, 1);
    put32(out, 10);
    /* not in numeric order, to exercise the table scan */
    put_sect(out, 1, &s1), put_sect(out, 2, &s2), put_sect(out, 4, &s4), put_sect(out, 3, &s3);
    put_sect(out, 5, &s5), put_sect(out, 6, &s6), put_sect(out, 7, &s7), put_sect(out, 8, &s8);
    put_sect(out, 10, &s10), put_sect(out, 9, &s9);
    free(s1.p), free(s2.p), free(s3.p), free(s4.p), free(s5.p), free(s6.p), free(s7.p), free(s8.p), free(s9.p),
        free(s10.p), free(coefs.p);
}

/* ---- tests ------------------------------------------------------------------- */

CZK_TEST(r1cs_parse_and_check)
{
    buf b = {0};
    build_r1cs(&b);
    czk_circom_r1cs r;
    REQUIRE_OK(czk_circom_r1cs_parse(&r, b.p, b.n, "t.r1cs"));
    CHECK_EQ_U64(r.n_wires, NW);
    CHECK_EQ_U64(r.n_constraints, NC);
    CHECK_EQ_U64(r.n_outputs, 1);
    CHECK_EQ_U64(r.start[0][NC], 6);
    CHECK_EQ_U64(r.start[1][NC], 3);
    CHECK_EQ_U64(r.start[2][NC], 4);
    CHECK_EQ_U64(r.wire_label[4], 5);
    czk_fr m1;
    coef_fr(&m1, -1);
    CHECK(czk_fr_eq(&r.coef[0][4], &m1));
    czk_fr w[NW];
    witness(w, 9, 4);
    CHECK_OK(czk_circom_r1cs_check(&r, w, NW, NULL));
    /* a wrong y breaks constraint 0 (and 1); the first is reported with names */
    czk_fr_add(&w[4], &w[4], &CZK_FR_ONE);
    const char *path = "sym";
    char full[512];
    snprintf(full, sizeof full, "%s/%s", czk_test_tmpdir(), path);
    FILE *f = fopen(full, "w");
    REQUIRE(f);
    fprintf(f, "1,1,0,main.out\n2,2,0,main.k\n3,3,0,main.x\n4,-1,0,main.gone\n5,4,0,main.y\n");
    fclose(f);
    czk_circom_sym sym;
    REQUIRE_OK(czk_circom_sym_read(&sym, full, NW));
    CHECK(czk_circom_r1cs_check(&r, w, NW, &sym) == CZK_ERR_UNSATISFIED);
    const char *e = czk_last_error();
    CHECK_MSG(strstr(e, "constraint 0 ") && strstr(e, "main.x") && strstr(e, "main.y"), "message: %s", e);
    czk_circom_sym_clear(&sym);
    witness(w, 9, 4);
    czk_fr_add(&w[1], &w[1], &CZK_FR_ONE);
    CHECK(czk_circom_r1cs_check(&r, w, NW, NULL) == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strstr(czk_last_error(), "constraint 1 "), "message: %s", czk_last_error());
    CHECK(czk_circom_r1cs_check(&r, w, NW - 1, NULL) == CZK_ERR_INVALID_ARG);
    czk_circom_r1cs_clear(&r);
    free(b.p);
}

CZK_TEST(wtns_parse)
{
    czk_fr w[NW];
    witness(w, 123456789, 77);
    buf b = {0};
    build_wtns(&b, w, NW);
    czk_circom_wtns x;
    REQUIRE_OK(czk_circom_wtns_parse(&x, b.p, b.n, "t.wtns"));
    REQUIRE(x.n == NW);
    for (int i = 0; i < NW; i++) CHECK(czk_fr_eq(&x.w[i], &w[i]));
    czk_circom_wtns_clear(&x);
    /* a value >= r */
    size_t off = 12 + 12 + 40 + 12 + 32 * 2;
    memset(b.p + off, 0xff, 32);
    CHECK(czk_circom_wtns_parse(&x, b.p, b.n, "t.wtns") == CZK_ERR_NOT_CANONICAL);
    CHECK_MSG(strstr(czk_last_error(), "witness value 2") && strstr(czk_last_error(), "t.wtns"), "%s",
              czk_last_error());
    free(b.p);
}

CZK_TEST(other_curves_rejected)
{
    buf b = {0};
    build_r1cs(&b);
    /* the header section starts after the constraint section: find it via the table */
    size_t pos = 12;
    uint64_t l2 = 0;
    memcpy(&l2, b.p + pos + 4, 8);
    size_t hdr = pos + 12 + (size_t)l2 + 12; /* payload of section 1 */
    static const uint8_t bn[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9,
                                   0x79, 0x48, 0xe8, 0x33, 0x28, 0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45,
                                   0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};
    memcpy(b.p + hdr + 4, bn, 32);
    czk_circom_r1cs r;
    CHECK(czk_circom_r1cs_parse(&r, b.p, b.n, "bn.r1cs") == CZK_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(czk_last_error(), "BN254"), "%s", czk_last_error());
    free(b.p);

    czk_rng *rng = czk_test_rng();
    buf z = {0};
    build_zkey(&z, rng);
    /* section 2 is the second section: n8q sits right after its header */
    memcpy(&l2, z.p + 12 + 4, 8);
    size_t s2 = 12 + 12 + (size_t)l2 + 12;
    z.p[s2] = 32;
    czk_circom_zkey k;
    CHECK(czk_circom_zkey_parse(&k, z.p, z.n, "bn.zkey", 0) == CZK_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(czk_last_error(), "n8q = 32") && strstr(czk_last_error(), "bn.zkey"), "%s", czk_last_error());
    free(z.p);
}

CZK_TEST(zkey_prove_verify)
{
    czk_rng *rng = czk_test_rng();
    buf z = {0}, rb = {0};
    build_zkey(&z, rng);
    build_r1cs(&rb);
    czk_circom_zkey k;
    REQUIRE_OK(czk_circom_zkey_parse(&k, z.p, z.n, "t.zkey", 0));
    CHECK_EQ_U64(k.n_vars, NW);
    CHECK_EQ_U64(k.n_public, NPUB);
    CHECK_EQ_U64(k.domain_size, 8);
    CHECK_EQ_U64(k.n_coefs, 9 + NPUB + 1);
    czk_circom_r1cs r;
    REQUIRE_OK(czk_circom_r1cs_parse(&r, rb.p, rb.n, "t.r1cs"));
    CHECK_OK(czk_circom_zkey_match_r1cs(&k, &r));
    czk_circom_vk vk;
    czk_circom_zkey_vk(&vk, &k);
    for (int it = 0; it < 3; it++) {
        czk_fr w[NW];
        witness(w, czk_rng_u64(rng), czk_rng_u64(rng) % 1000);
        czk_groth16_proof pr;
        REQUIRE_OK(czk_circom_prove(&pr, &k, w, NW, rng, 0, NULL));
        CHECK_OK(czk_circom_verify(&vk, &pr, w + 1, NPUB));
        czk_fr bad[NPUB] = {w[1], w[2]};
        czk_fr_add(&bad[1], &bad[1], &CZK_FR_ONE);
        CHECK(czk_circom_verify(&vk, &pr, bad, NPUB) == CZK_ERR_VERIFY);
        CHECK(czk_circom_verify(&vk, &pr, w + 1, NPUB - 1) == CZK_ERR_INVALID_ARG);
        czk_groth16_proof t = pr;
        czk_g1_affine_neg(&t.c, &t.c);
        CHECK(czk_circom_verify(&vk, &t, w + 1, NPUB) == CZK_ERR_VERIFY);
        /* an unsatisfying witness gives a proof that fails */
        czk_fr_add(&w[4], &w[4], &CZK_FR_ONE);
        REQUIRE_OK(czk_circom_prove(&pr, &k, w, NW, rng, 0, NULL));
        CHECK(czk_circom_verify(&vk, &pr, w + 1, NPUB) == CZK_ERR_VERIFY);
    }
    /* the JSON round trip */
    char pp[512], pu[512];
    snprintf(pp, sizeof pp, "%s/proof.json", czk_test_tmpdir());
    snprintf(pu, sizeof pu, "%s/public.json", czk_test_tmpdir());
    czk_fr w[NW];
    witness(w, 5, 6);
    czk_groth16_proof pr, back;
    REQUIRE_OK(czk_circom_prove(&pr, &k, w, NW, rng, 0, NULL));
    REQUIRE_OK(czk_circom_proof_write_json(pp, &pr));
    REQUIRE_OK(czk_circom_public_write_json(pu, w + 1, NPUB));
    REQUIRE_OK(czk_circom_proof_read_json(&back, pp));
    CHECK(czk_g1_affine_eq(&back.a, &pr.a) && czk_g2_affine_eq(&back.b, &pr.b) && czk_g1_affine_eq(&back.c, &pr.c));
    czk_fr *pub;
    size_t npub;
    REQUIRE_OK(czk_circom_public_read_json(&pub, &npub, pu));
    REQUIRE(npub == NPUB);
    CHECK_OK(czk_circom_verify(&vk, &back, pub, npub));
    free(pub);
    /* public values >= r are rejected by the reader */
    FILE *f = fopen(pu, "w");
    REQUIRE(f);
    fprintf(f, "[\"%s\", \"6\"]\n",
            "52435875175126190479447740508185965837690552500527637822603658699938581184513");
    fclose(f);
    CHECK(czk_circom_public_read_json(&pub, &npub, pu) == CZK_ERR_NOT_CANONICAL);
    /* a point off the curve is rejected by the proof reader */
    f = fopen(pp, "w");
    REQUIRE(f);
    fprintf(f, "{\"pi_a\":[\"1\",\"2\",\"1\"],\"pi_b\":[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"0\"]],"
               "\"pi_c\":[\"0\",\"1\",\"0\"],\"protocol\":\"groth16\",\"curve\":\"bls12381\"}");
    fclose(f);
    CHECK(czk_circom_proof_read_json(&back, pp) == CZK_ERR_NOT_ON_CURVE);
    czk_circom_r1cs_clear(&r);
    czk_circom_zkey_clear(&k);
    free(z.p), free(rb.p);
}

/* Truncations, bit flips, wrong magic, oversized counts: an error or a clean
 * parse, never a crash (ASan / UBSan catch out-of-bounds reads). */
CZK_TEST(corrupt_files)
{
    czk_rng *rng = czk_test_rng();
    buf z = {0}, rb = {0}, wb = {0};
    build_zkey(&z, rng);
    build_r1cs(&rb);
    czk_fr w[NW];
    witness(w, 3, 4);
    build_wtns(&wb, w, NW);
    const buf *files[3] = {&rb, &wb, &z};
    for (int fi = 0; fi < 3; fi++) {
        const buf *b = files[fi];
        uint8_t *c = malloc(b->n);
        REQUIRE(c);
        size_t step = fi == 2 ? 37 : 1;
        for (size_t len = 0; len < b->n; len += step) {
            memcpy(c, b->p, len);
            czk_status s;
            czk_circom_r1cs r;
            czk_circom_wtns x;
            czk_circom_zkey k;
            if (fi == 0) s = czk_circom_r1cs_parse(&r, c, len, "c.r1cs");
            else if (fi == 1) s = czk_circom_wtns_parse(&x, c, len, "c.wtns");
            else s = czk_circom_zkey_parse(&k, c, len, "c.zkey", CZK_CIRCOM_NO_SUBGROUP_CHECK);
            CHECK_MSG(s != CZK_OK, "file %d truncated to %zu bytes parsed", fi, len);
            CHECK(strstr(czk_last_error(), fi == 0 ? "c.r1cs" : fi == 1 ? "c.wtns" : "c.zkey") != NULL);
        }
        size_t flips = czk_test_iters(fi == 2 ? 300 : 600);
        if (getenv("CZK_TEST_ASAN")) flips /= 4;
        for (size_t it = 0; it < flips; it++) {
            memcpy(c, b->p, b->n);
            size_t pos = (size_t)czk_rng_below(rng, b->n);
            c[pos] ^= (uint8_t)(1u << czk_rng_below(rng, 8));
            czk_circom_r1cs r;
            czk_circom_wtns x;
            czk_circom_zkey k;
            czk_status s;
            if (fi == 0) {
                s = czk_circom_r1cs_parse(&r, c, b->n, "c.r1cs");
                if (s == CZK_OK) czk_circom_r1cs_clear(&r);
            } else if (fi == 1) {
                s = czk_circom_wtns_parse(&x, c, b->n, "c.wtns");
                if (s == CZK_OK) czk_circom_wtns_clear(&x);
            } else {
                s = czk_circom_zkey_parse(&k, c, b->n, "c.zkey", 0);
                /* a flip inside a point's coordinates must be caught */
                if (s == CZK_OK) czk_circom_zkey_clear(&k);
            }
            if (s != CZK_OK) CHECK(czk_last_error()[0] != 0);
        }
        /* wrong magic */
        memcpy(c, b->p, b->n);
        c[0] ^= 0x20;
        czk_circom_r1cs r;
        czk_circom_wtns x;
        czk_circom_zkey k;
        czk_status s = fi == 0   ? czk_circom_r1cs_parse(&r, c, b->n, "c")
                       : fi == 1 ? czk_circom_wtns_parse(&x, c, b->n, "c")
                                 : czk_circom_zkey_parse(&k, c, b->n, "c", 0);
        CHECK(s == CZK_ERR_FORMAT);
        CHECK(strstr(czk_last_error(), "magic") != NULL);
        /* bytes after the last section: rejected, naming the file and the offset */
        for (size_t extra = 1; extra <= 13; extra += 12) {
            uint8_t *l = malloc(b->n + extra);
            REQUIRE(l);
            memcpy(l, b->p, b->n);
            memset(l + b->n, 0, extra);
            s = fi == 0   ? czk_circom_r1cs_parse(&r, l, b->n + extra, "long.r1cs")
                : fi == 1 ? czk_circom_wtns_parse(&x, l, b->n + extra, "long.wtns")
                          : czk_circom_zkey_parse(&k, l, b->n + extra, "long.zkey", 0);
            CHECK(s == CZK_ERR_FORMAT);
            char want[64];
            snprintf(want, sizeof want, "byte %zu: %zu bytes after the last", b->n, extra);
            CHECK_MSG(strstr(czk_last_error(), want) && strstr(czk_last_error(), "long."), "%s", czk_last_error());
            free(l);
        }
        /* oversized section length in the first section header */
        memcpy(c, b->p, b->n);
        memset(c + 16, 0xff, 8);
        s = fi == 0 ? czk_circom_r1cs_parse(&r, c, b->n, "c")
            : fi == 1 ? czk_circom_wtns_parse(&x, c, b->n, "c")
                      : czk_circom_zkey_parse(&k, c, b->n, "c", 0);
        CHECK(s == CZK_ERR_FORMAT);
        free(c);
    }
    /* oversized nConstraints in the r1cs header; oversized nWitness in the wtns */
    {
        uint64_t l2;
        memcpy(&l2, rb.p + 16, 8);
        size_t hdr = 12 + 12 + (size_t)l2 + 12;
        uint8_t *c = malloc(rb.n);
        memcpy(c, rb.p, rb.n);
        memset(c + hdr + 4 + 32 + 24, 0xff, 4);
        czk_circom_r1cs r;
        CHECK(czk_circom_r1cs_parse(&r, c, rb.n, "big.r1cs") == CZK_ERR_FORMAT);
        CHECK_MSG(strstr(czk_last_error(), "nConstraints"), "%s", czk_last_error());
        free(c);
        c = malloc(wb.n);
        memcpy(c, wb.p, wb.n);
        memset(c + 12 + 12 + 4 + 32, 0xff, 4);
        czk_circom_wtns x;
        CHECK(czk_circom_wtns_parse(&x, c, wb.n, "big.wtns") == CZK_ERR_FORMAT);
        free(c);
    }
    /* a G1 point off the curve in the H section names the section and offset */
    {
        uint8_t *c = malloc(z.n);
        memcpy(c, z.p, z.n);
        size_t at = z.n - 96 + 5; /* last H point, x coordinate */
        c[at] ^= 1;
        czk_circom_zkey k;
        czk_status s = czk_circom_zkey_parse(&k, c, z.n, "h.zkey", 0);
        CHECK(s == CZK_ERR_NOT_ON_CURVE || s == CZK_ERR_NOT_CANONICAL);
        CHECK_MSG(strstr(czk_last_error(), "section 9") && strstr(czk_last_error(), "H point 7"), "%s",
                  czk_last_error());
        free(c);
    }
    free(z.p), free(rb.p), free(wb.p);
}

/* Payload offset of the section of a type in a container image. */
static size_t sect_payload(const buf *b, uint32_t type)
{
    size_t pos = 12;
    while (pos + 12 <= b->n) {
        uint32_t t;
        uint64_t l;
        memcpy(&t, b->p + pos, 4);
        memcpy(&l, b->p + pos + 4, 8);
        if (t == type) return pos + 12;
        pos += 12 + (size_t)l;
    }
    CZK_ASSERT(0);
    return 0;
}

/* Points on the curve but (with overwhelming probability) outside the
 * prime-order subgroup: y^2 = x^3 + 4 (G1), y^2 = x^3 + 4(1 + u) (G2) at
 * random x. */
static void g1_outside(czk_g1_affine *p, czk_rng *rng)
{
    czk_fp rhs, four;
    czk_fp_from_u64(&four, 4);
    do {
        czk_fp_random(&p->x, rng);
        czk_fp_sqr(&rhs, &p->x);
        czk_fp_mul(&rhs, &rhs, &p->x);
        czk_fp_add(&rhs, &rhs, &four);
    } while (!czk_fp_sqrt(&p->y, &rhs));
    p->inf = 0;
    CZK_ASSERT(czk_g1_affine_is_on_curve(p) && !czk_g1_affine_in_subgroup(p));
}
static void g2_outside(czk_g2_affine *p, czk_rng *rng)
{
    czk_fp2 rhs, b;
    czk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    do {
        czk_fp2_random(&p->x, rng);
        czk_fp2_sqr(&rhs, &p->x);
        czk_fp2_mul(&rhs, &rhs, &p->x);
        czk_fp2_add(&rhs, &rhs, &b);
    } while (!czk_fp2_sqrt(&p->y, &rhs));
    p->inf = 0;
    CZK_ASSERT(czk_g2_affine_is_on_curve(p) && !czk_g2_affine_in_subgroup(p));
}

/* A point on the curve outside the subgroup is refused (section, point index
 * named) unless CZK_CIRCOM_NO_SUBGROUP_CHECK; the lowest bad index wins. */
CZK_TEST(zkey_points_outside_subgroup)
{
    czk_rng *rng = czk_test_rng();
    buf z = {0};
    build_zkey(&z, rng);
    czk_g1_affine p1;
    czk_g2_affine p2;
    g1_outside(&p1, rng);
    g2_outside(&p2, rng);
    buf e1 = {0}, e2 = {0};
    put_g1(&e1, &p1);
    put_g2(&e2, &p2);
    struct {
        uint32_t sect;
        size_t idx, size;
        const buf *enc;
        const char *name;
    } cases[] = {{9, 7, 96, &e1, "H point 7"}, {9, 3, 96, &e1, "H point 3"}, {5, 4, 96, &e1, "A point 4"},
                 {7, 4, 192, &e2, "B2 point 4"}, {3, 1, 96, &e1, "IC point 1"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        buf t = {0};
        put(&t, z.p, z.n);
        memcpy(t.p + sect_payload(&t, cases[c].sect) + cases[c].idx * cases[c].size, cases[c].enc->p, cases[c].size);
        czk_circom_zkey k;
        CHECK(czk_circom_zkey_parse(&k, t.p, t.n, "sg.zkey", 0) == CZK_ERR_NOT_IN_SUBGROUP);
        CHECK_MSG(strstr(czk_last_error(), cases[c].name) && strstr(czk_last_error(), "subgroup"), "%s",
                  czk_last_error());
        CHECK_OK(czk_circom_zkey_parse(&k, t.p, t.n, "sg.zkey", CZK_CIRCOM_NO_SUBGROUP_CHECK));
        czk_circom_zkey_clear(&k);
        if (cases[c].sect == 9) {
            /* and a decoding error after it (last H point off the curve) does not hide it */
            t.p[t.n - 96 + 5] ^= 1;
            CHECK(czk_circom_zkey_parse(&k, t.p, t.n, "sg.zkey", 0) == CZK_ERR_NOT_IN_SUBGROUP ||
                  cases[c].idx == 7);
        }
        free(t.p);
    }
    free(z.p), free(e1.p), free(e2.p);
}

/* The insecure setup writes a zkey the reader accepts, that matches the r1cs
 * and whose proofs verify. */
CZK_TEST(insecure_setup_roundtrip)
{
    buf rb = {0};
    build_r1cs(&rb);
    czk_circom_r1cs r;
    REQUIRE_OK(czk_circom_r1cs_parse(&r, rb.p, rb.n, "t.r1cs"));
    char path[512];
    snprintf(path, sizeof path, "%s/setup.zkey", czk_test_tmpdir());
    REQUIRE_OK(czk_circom_zkey_setup_insecure(path, &r, czk_test_rng()));
    czk_circom_zkey k;
    REQUIRE_OK(czk_circom_zkey_read(&k, path, 0));
    CHECK_EQ_U64(k.domain_size, 8);
    CHECK_OK(czk_circom_zkey_match_r1cs(&k, &r));
    czk_circom_vk vk;
    czk_circom_zkey_vk(&vk, &k);
    czk_fr w[NW];
    witness(w, 31337, 42);
    czk_groth16_proof pr;
    REQUIRE_OK(czk_circom_prove(&pr, &k, w, NW, czk_test_rng(), 0, NULL));
    CHECK_OK(czk_circom_verify(&vk, &pr, w + 1, NPUB));
    w[2] = CZK_FR_ONE;
    CHECK(czk_circom_verify(&vk, &pr, w + 1, NPUB) == CZK_ERR_VERIFY);
    czk_circom_zkey_clear(&k);
    czk_circom_r1cs_clear(&r);
    free(rb.p);
}

static void write_bytes(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CZK_ASSERT(f && fwrite(p, 1, n, f) == n);
    fclose(f);
}

/* The zkey's pinned validation (the .params sidecar scheme): a first pinned
 * read validates in full and records the sidecar, the next skips the subgroup
 * checks (ran = PINNED, an observable, not a timing); a point replaced in
 * place by one outside the subgroup, size and mtime kept, is still caught by
 * the checksum; a touched file is stale; CURVE neither hashes nor records;
 * the insecure setup records the sidecar with the file. */
CZK_TEST(zkey_pinned_validation)
{
    czk_rng *rng = czk_test_rng();
    buf z = {0};
    build_zkey(&z, rng);
    char path[512], sc[600];
    snprintf(path, sizeof path, "%s/pin.zkey", czk_test_tmpdir());
    snprintf(sc, sizeof sc, "%s.czkcheck", path);
    write_bytes(path, z.p, z.n);
    czk_circom_zkey k;
    czk_groth16_read_info info;
    czk_groth16_read_opts o = {CZK_GROTH16_CHECK_PINNED, 0, 0, NULL};
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, &o, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL && info.recorded);
    CHECK_MSG(strstr(info.why, "no sidecar") != NULL, "%s", info.why);
    czk_circom_zkey_clear(&k);
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, NULL, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED && !info.recorded);
    czk_circom_zkey_clear(&k);

    /* CURVE: no checksum, no sidecar written */
    remove(sc);
    o.check = CZK_GROTH16_CHECK_CURVE;
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, &o, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_CURVE && !info.recorded);
    FILE *f = fopen(sc, "r");
    CHECK(f == NULL);
    if (f) fclose(f);
    czk_circom_zkey_clear(&k);
    /* FULL with no_record: validated, nothing written */
    o.check = CZK_GROTH16_CHECK_FULL;
    o.no_record = 1;
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, &o, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL && !info.recorded);
    czk_circom_zkey_clear(&k);
    o.no_record = 0;
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, &o, &info));
    CHECK(info.recorded);
    czk_circom_zkey_clear(&k);

    /* tampered in place: H point 3 replaced by a point outside the subgroup,
     * size and mtime restored; the pinned read finds it by checksum */
    struct stat st;
    REQUIRE(stat(path, &st) == 0);
    czk_g1_affine bad;
    g1_outside(&bad, rng);
    buf e = {0};
    put_g1(&e, &bad);
    buf t = {0};
    put(&t, z.p, z.n);
    memcpy(t.p + sect_payload(&t, 9) + 3 * 96, e.p, 96);
    write_bytes(path, t.p, t.n);
    struct timespec ts[2] = {st.st_atim, st.st_mtim};
    REQUIRE(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CHECK(czk_circom_zkey_read_ex(&k, path, NULL, &info) == CZK_ERR_NOT_IN_SUBGROUP);
    CHECK_MSG(strstr(czk_last_error(), "H point 3") != NULL, "%s", czk_last_error());
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "does not match") != NULL, "%s", info.why);
    /* the bad bytes under a new mtime: the checksum differs, a full check refuses them */
    write_bytes(path, t.p, t.n);
    CHECK(czk_circom_zkey_read_ex(&k, path, NULL, &info) == CZK_ERR_NOT_IN_SUBGROUP);
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL && !info.recorded);
    CHECK_MSG(strstr(info.why, "stale") && strstr(info.why, "checksum differs"), "%s", info.why);
    /* the original bytes back with a new mtime (a copy, a touch): the checksum
     * matches the pin, so no subgroup checks, and the new mtime is recorded */
    write_bytes(path, z.p, z.n);
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, NULL, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED && info.recorded);
    CHECK_MSG(strstr(info.why, "another mtime") != NULL, "%s", info.why);
    czk_circom_zkey_clear(&k);
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, NULL, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED && !info.recorded && !info.why[0]);
    czk_circom_zkey_clear(&k);
    /* a sidecar of another format is not used */
    write_bytes(sc, (const uint8_t *)"czk-params-check 1\nsize 1\n", 26);
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, path, NULL, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "malformed") != NULL, "%s", info.why);
    czk_circom_zkey_clear(&k);

    /* the insecure setup writes the sidecar with the file */
    buf rb = {0};
    build_r1cs(&rb);
    czk_circom_r1cs r;
    REQUIRE_OK(czk_circom_r1cs_parse(&r, rb.p, rb.n, "t.r1cs"));
    char sp[512];
    snprintf(sp, sizeof sp, "%s/setup-pin.zkey", czk_test_tmpdir());
    REQUIRE_OK(czk_circom_zkey_setup_insecure(sp, &r, rng));
    REQUIRE_OK(czk_circom_zkey_read_ex(&k, sp, NULL, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    czk_circom_zkey_clear(&k);
    /* and leaves nothing behind where it cannot write */
    snprintf(sp, sizeof sp, "%s/no/such/dir.zkey", czk_test_tmpdir());
    CHECK(czk_circom_zkey_setup_insecure(sp, &r, rng) == CZK_ERR_IO);
    czk_circom_r1cs_clear(&r);
    free(rb.p), free(z.p), free(e.p), free(t.p);
}
