/* Point encodings (docs/bls12-381.md): generators, round trips, and every class of
 * malformed input rejected with its status. */
#include <stdlib.h>

#include "czk/ec.h"
#include "ec/ec_internal.h"
#include "runner.h"

static size_t iters(size_t d)
{
    size_t n = czk_test_iters(d);
    if (getenv("CZK_TEST_ASAN")) n = n / 5 + 1;
    return n;
}

static void hex_to_bytes(uint8_t *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void rand_g1(czk_g1_affine *r, czk_rng *rng)
{
    czk_g1_affine g;
    czk_g1_jac j;
    czk_fr k;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&j, &g);
    czk_fr_random(&k, rng);
    czk_g1_mul_var(&j, &j, &k);
    czk_g1_jac_to_affine(r, &j);
}

static void rand_g2(czk_g2_affine *r, czk_rng *rng)
{
    czk_g2_affine g;
    czk_g2_jac j;
    czk_fr k;
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&j, &g);
    czk_fr_random(&k, rng);
    czk_g2_mul_var(&j, &j, &k);
    czk_g2_jac_to_affine(r, &j);
}

/* On-curve points outside the subgroup: random x until x^3 + b is a square. */
static void rand_g1_outside(czk_g1_affine *r, czk_rng *rng)
{
    czk_fp b, y2;
    czk_fp_from_u64(&b, 4);
    do {
        czk_fp_random(&r->x, rng);
        czk_fp_sqr(&y2, &r->x);
        czk_fp_mul(&y2, &y2, &r->x);
        czk_fp_add(&y2, &y2, &b);
    } while (!czk_fp_sqrt(&r->y, &y2));
    r->inf = 0;
}

static void rand_g2_outside(czk_g2_affine *r, czk_rng *rng)
{
    czk_fp2 b, y2;
    czk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    do {
        czk_fp2_random(&r->x, rng);
        czk_fp2_sqr(&y2, &r->x);
        czk_fp2_mul(&y2, &y2, &r->x);
        czk_fp2_add(&y2, &y2, &b);
    } while (!czk_fp2_sqrt(&r->y, &y2));
    r->inf = 0;
}

#define EXPECT_STATUS(expr, st)                                                         \
    do {                                                                                \
        czk_status czk__got = (expr);                                                   \
        CHECK_MSG(czk__got == (st), "%s: got %d (%s), want %d", #expr, (int)czk__got,   \
                  czk_last_error(), (int)(st));                                         \
        if (czk__got != CZK_OK) CHECK(czk_last_error()[0] != 0);                       \
    } while (0)

static const char G1_GEN_COMPRESSED[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G1_GEN_UNCOMPRESSED[] =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char G2_GEN_COMPRESSED[] =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
static const char G2_GEN_UNCOMPRESSED[] =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

CZK_TEST(generator_encodings)
{
    czk_g1_affine g1, d1;
    czk_g2_affine g2, d2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    uint8_t c1[CZK_G1_COMPRESSED], u1[CZK_G1_UNCOMPRESSED], c2[CZK_G2_COMPRESSED],
        u2[CZK_G2_UNCOMPRESSED], want[CZK_G2_UNCOMPRESSED];
    czk_g1_compress(c1, &g1);
    hex_to_bytes(want, G1_GEN_COMPRESSED, CZK_G1_COMPRESSED);
    CHECK_MEM(c1, want, CZK_G1_COMPRESSED);
    CHECK(c1[0] == 0x97 && c1[1] == 0xf1 && c1[2] == 0xd3 && c1[3] == 0xa7);
    czk_g1_serialize(u1, &g1);
    hex_to_bytes(want, G1_GEN_UNCOMPRESSED, CZK_G1_UNCOMPRESSED);
    CHECK_MEM(u1, want, CZK_G1_UNCOMPRESSED);
    czk_g2_compress(c2, &g2);
    hex_to_bytes(want, G2_GEN_COMPRESSED, CZK_G2_COMPRESSED);
    CHECK_MEM(c2, want, CZK_G2_COMPRESSED);
    CHECK(c2[0] == 0x93 && c2[1] == 0xe0 && c2[2] == 0x2b && c2[3] == 0x60);
    czk_g2_serialize(u2, &g2);
    hex_to_bytes(want, G2_GEN_UNCOMPRESSED, CZK_G2_UNCOMPRESSED);
    CHECK_MEM(u2, want, CZK_G2_UNCOMPRESSED);
    CHECK_OK(czk_g1_decompress(&d1, c1));
    CHECK(czk_g1_affine_eq(&d1, &g1));
    CHECK_OK(czk_g1_deserialize(&d1, u1));
    CHECK(czk_g1_affine_eq(&d1, &g1));
    CHECK_OK(czk_g2_decompress(&d2, c2));
    CHECK(czk_g2_affine_eq(&d2, &g2));
    CHECK_OK(czk_g2_deserialize(&d2, u2));
    CHECK(czk_g2_affine_eq(&d2, &g2));
}

CZK_TEST(round_trips)
{
    czk_rng *rng = czk_test_rng();
    size_t n = iters(100);
    int sort_seen[2][2] = {{0, 0}, {0, 0}};
    for (size_t it = 0; it < n; it++) {
        czk_g1_affine p, d;
        czk_g2_affine q, e;
        uint8_t c1[CZK_G1_COMPRESSED], u1[CZK_G1_UNCOMPRESSED], c2[CZK_G2_COMPRESSED],
            u2[CZK_G2_UNCOMPRESSED];
        rand_g1(&p, rng);
        rand_g2(&q, rng);
        czk_g1_compress(c1, &p);
        czk_g1_serialize(u1, &p);
        CHECK((c1[0] & 0xc0) == 0x80 && (u1[0] & 0xe0) == 0);
        CHECK(memcmp(c1 + 1, u1 + 1, CZK_G1_COMPRESSED - 1) == 0);
        sort_seen[0][(c1[0] >> 5) & 1] = 1;
        REQUIRE_OK(czk_g1_decompress(&d, c1));
        CHECK(czk_g1_affine_eq(&d, &p));
        REQUIRE_OK(czk_g1_deserialize(&d, u1));
        CHECK(czk_g1_affine_eq(&d, &p));
        REQUIRE_OK(czk_g1_deserialize_unchecked_subgroup(&d, u1));
        CHECK(czk_g1_affine_eq(&d, &p));
        REQUIRE_OK(czk_g1_deserialize_trusted(&d, u1));
        CHECK(czk_g1_affine_eq(&d, &p));
        czk_g2_compress(c2, &q);
        czk_g2_serialize(u2, &q);
        CHECK((c2[0] & 0xc0) == 0x80 && (u2[0] & 0xe0) == 0);
        sort_seen[1][(c2[0] >> 5) & 1] = 1;
        REQUIRE_OK(czk_g2_decompress(&e, c2));
        CHECK(czk_g2_affine_eq(&e, &q));
        REQUIRE_OK(czk_g2_deserialize(&e, u2));
        CHECK(czk_g2_affine_eq(&e, &q));
        REQUIRE_OK(czk_g2_deserialize_unchecked_subgroup(&e, u2));
        CHECK(czk_g2_affine_eq(&e, &q));
        REQUIRE_OK(czk_g2_deserialize_trusted(&e, u2));
        CHECK(czk_g2_affine_eq(&e, &q));
        /* flipping the sort flag decodes the negation */
        c1[0] ^= 0x20;
        REQUIRE_OK(czk_g1_decompress(&d, c1));
        czk_g1_affine_neg(&p, &p);
        CHECK(czk_g1_affine_eq(&d, &p));
        c2[0] ^= 0x20;
        REQUIRE_OK(czk_g2_decompress(&e, c2));
        czk_g2_affine_neg(&q, &q);
        CHECK(czk_g2_affine_eq(&e, &q));
    }
    if (n >= 20) CHECK(sort_seen[0][0] && sort_seen[0][1] && sort_seen[1][0] && sort_seen[1][1]);
    /* infinity */
    czk_g1_affine i1, d1;
    czk_g2_affine i2, d2;
    uint8_t buf[CZK_G2_UNCOMPRESSED], want[CZK_G2_UNCOMPRESSED];
    czk_g1_affine_set_inf(&i1);
    czk_g2_affine_set_inf(&i2);
    memset(want, 0, sizeof(want));
    czk_g1_compress(buf, &i1);
    want[0] = 0xc0;
    CHECK_MEM(buf, want, CZK_G1_COMPRESSED);
    REQUIRE_OK(czk_g1_decompress(&d1, buf));
    CHECK(d1.inf);
    czk_g2_compress(buf, &i2);
    CHECK_MEM(buf, want, CZK_G2_COMPRESSED);
    REQUIRE_OK(czk_g2_decompress(&d2, buf));
    CHECK(d2.inf);
    want[0] = 0x40;
    czk_g1_serialize(buf, &i1);
    CHECK_MEM(buf, want, CZK_G1_UNCOMPRESSED);
    REQUIRE_OK(czk_g1_deserialize(&d1, buf));
    CHECK(d1.inf);
    czk_g2_serialize(buf, &i2);
    CHECK_MEM(buf, want, CZK_G2_UNCOMPRESSED);
    REQUIRE_OK(czk_g2_deserialize(&d2, buf));
    CHECK(d2.inf);
}

/* p as 48 big-endian bytes */
static void p_bytes(uint8_t out[CZK_FP_BYTES])
{
    for (int i = 0; i < CZK_FP_LIMBS; i++)
        for (int b = 0; b < 8; b++)
            out[CZK_FP_BYTES - 1 - (8 * i + b)] = (uint8_t)(CZK_FP_MODULUS[i] >> (8 * b));
}

/* Big-endian 48-byte x + k (k small, no overflow past 48 bytes). */
static void add_small(uint8_t x[CZK_FP_BYTES], unsigned k)
{
    unsigned c = k;
    for (int i = CZK_FP_BYTES - 1; i >= 0 && c; i--) {
        c += x[i];
        x[i] = (uint8_t)c;
        c >>= 8;
    }
}

CZK_TEST(g1_malformed)
{
    czk_rng *rng = czk_test_rng();
    czk_g1_affine p, d;
    uint8_t c[CZK_G1_COMPRESSED], u[CZK_G1_UNCOMPRESSED], t[CZK_G1_UNCOMPRESSED];
    rand_g1(&p, rng);
    czk_g1_compress(c, &p);
    czk_g1_serialize(u, &p);
    /* compression flag mismatch */
    memcpy(t, c, sizeof(c));
    t[0] &= 0x7f;
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    memcpy(t, u, sizeof(u));
    t[0] |= 0x80;
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    /* sort flag on an uncompressed point */
    memcpy(t, u, sizeof(u));
    t[0] |= 0x20;
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    EXPECT_STATUS(czk_g1_deserialize_unchecked_subgroup(&d, t), CZK_ERR_FORMAT);
    EXPECT_STATUS(czk_g1_deserialize_trusted(&d, t), CZK_ERR_FORMAT);
    /* infinity with other bits */
    memset(t, 0, sizeof(t));
    t[0] = 0xe0; /* compressed infinity with sort */
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    t[0] = 0xc0;
    t[CZK_G1_COMPRESSED - 1] = 1;
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    t[CZK_G1_COMPRESSED - 1] = 0;
    t[0] = 0xc1;
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    memset(t, 0, sizeof(t));
    t[0] = 0x60; /* uncompressed infinity with sort */
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    t[0] = 0x40;
    t[CZK_G1_UNCOMPRESSED - 1] = 0x80;
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    t[CZK_G1_UNCOMPRESSED - 1] = 0;
    t[50] = 1;
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    memcpy(t, u, sizeof(u));
    t[0] |= 0x40; /* infinity flag on a finite point's bytes */
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_FORMAT);
    memcpy(t, c, sizeof(c));
    t[0] |= 0x40;
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    /* all-zero bytes: not infinity (flag missing), x = 0 gives y^2 = 4: on the
     * curve, but (0, +-2) has order 3, so it is outside the subgroup */
    memset(t, 0, sizeof(t));
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_FORMAT);
    t[0] = 0x80;
    EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_NOT_IN_SUBGROUP);
    /* x >= p: p, p + 1, 2^381 - 1 */
    uint8_t pb[CZK_FP_BYTES];
    p_bytes(pb);
    for (int k = 0; k < 3; k++) {
        memcpy(t, pb, CZK_FP_BYTES);
        if (k == 1) add_small(t, 1);
        if (k == 2) {
            memset(t, 0xff, CZK_FP_BYTES);
            t[0] = 0x1f;
        }
        t[0] |= 0x80;
        EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_NOT_CANONICAL);
        t[0] |= 0x20;
        EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_NOT_CANONICAL);
        t[0] &= 0x1f;
        memcpy(t + CZK_FP_BYTES, u + CZK_FP_BYTES, CZK_FP_BYTES);
        EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_NOT_CANONICAL);
        /* y >= p */
        memcpy(t, u, CZK_FP_BYTES);
        memcpy(t + CZK_FP_BYTES, pb, CZK_FP_BYTES);
        if (k == 1) add_small(t + CZK_FP_BYTES, 1);
        EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_NOT_CANONICAL);
    }
    /* y + p: the same point with a non-canonical y */
    memcpy(t, u, sizeof(u));
    {
        unsigned carry = 0;
        for (int i = CZK_FP_BYTES - 1; i >= 0; i--) {
            carry += (unsigned)t[CZK_FP_BYTES + i] + pb[i];
            t[CZK_FP_BYTES + i] = (uint8_t)carry;
            carry >>= 8;
        }
        if (carry == 0 && (t[CZK_FP_BYTES] & 0xe0) == 0)
            EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_NOT_CANONICAL);
    }
    /* not on the curve: x with x^3 + 4 a non-square; (x, y + 1) */
    int found = 0;
    for (int tries = 0; tries < 64 && !found; tries++) {
        czk_fp x, y2, b, y;
        czk_fp_random(&x, rng);
        czk_fp_sqr(&y2, &x);
        czk_fp_mul(&y2, &y2, &x);
        czk_fp_from_u64(&b, 4);
        czk_fp_add(&y2, &y2, &b);
        if (czk_fp_sqrt(&y, &y2)) continue;
        found = 1;
        czk_fp_to_bytes(t, &x);
        t[0] |= 0x80;
        EXPECT_STATUS(czk_g1_decompress(&d, t), CZK_ERR_NOT_ON_CURVE);
    }
    CHECK(found);
    memcpy(t, u, sizeof(u));
    t[CZK_G1_UNCOMPRESSED - 1] ^= 1;
    EXPECT_STATUS(czk_g1_deserialize(&d, t), CZK_ERR_NOT_ON_CURVE);
    EXPECT_STATUS(czk_g1_deserialize_unchecked_subgroup(&d, t), CZK_ERR_NOT_ON_CURVE);
    /* the trusted decoder checks the encoding only: it returns the bytes'
     * coordinates, off the curve, and still rejects x >= p */
    REQUIRE_OK(czk_g1_deserialize_trusted(&d, t));
    CHECK(!d.inf && !czk_g1_affine_is_on_curve(&d));
    {
        uint8_t big[CZK_G1_UNCOMPRESSED];
        memcpy(big, u, sizeof big);
        memset(big, 0xff, CZK_G1_COMPRESSED);
        big[0] = 0x1f; /* no flags, x = 2^381 - 1 > p */
        EXPECT_STATUS(czk_g1_deserialize_trusted(&d, big), CZK_ERR_NOT_CANONICAL);
    }
    /* not in the subgroup */
    size_t n = iters(16);
    for (size_t it = 0; it < n; it++) {
        czk_g1_affine o;
        rand_g1_outside(&o, rng);
        REQUIRE(!czk_g1_affine_in_subgroup_ref(&o));
        czk_g1_compress(c, &o);
        czk_g1_serialize(u, &o);
        EXPECT_STATUS(czk_g1_decompress(&d, c), CZK_ERR_NOT_IN_SUBGROUP);
        EXPECT_STATUS(czk_g1_deserialize(&d, u), CZK_ERR_NOT_IN_SUBGROUP);
        EXPECT_STATUS(czk_g1_deserialize_unchecked_subgroup(&d, u), CZK_OK);
        CHECK(czk_g1_affine_eq(&d, &o));
    }
    /* random bytes never crash and never decode to a point off the curve or
     * outside the subgroup */
    size_t nr = iters(2000);
    for (size_t it = 0; it < nr; it++) {
        czk_rng_bytes(rng, t, sizeof(t));
        if (it % 2) t[0] = (uint8_t)((t[0] & 0x1f) | 0x80);
        if (czk_g1_decompress(&d, t) == CZK_OK)
            CHECK(czk_g1_affine_is_on_curve(&d) && czk_g1_affine_in_subgroup_ref(&d));
        if (czk_g1_deserialize(&d, t) == CZK_OK)
            CHECK(czk_g1_affine_is_on_curve(&d) && czk_g1_affine_in_subgroup_ref(&d));
    }
}

CZK_TEST(g2_malformed)
{
    czk_rng *rng = czk_test_rng();
    czk_g2_affine q, d;
    uint8_t c[CZK_G2_COMPRESSED], u[CZK_G2_UNCOMPRESSED], t[CZK_G2_UNCOMPRESSED];
    rand_g2(&q, rng);
    czk_g2_compress(c, &q);
    czk_g2_serialize(u, &q);
    memcpy(t, c, sizeof(c));
    t[0] &= 0x7f;
    EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_FORMAT);
    memcpy(t, u, sizeof(u));
    t[0] |= 0x80;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_FORMAT);
    memcpy(t, u, sizeof(u));
    t[0] |= 0x20;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_FORMAT);
    memset(t, 0, sizeof(t));
    t[0] = 0xe0;
    EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_FORMAT);
    t[0] = 0xc0;
    t[CZK_FP_BYTES] = 1; /* a non-zero byte in x.c0 */
    EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_FORMAT);
    memset(t, 0, sizeof(t));
    t[0] = 0x60;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_FORMAT);
    t[0] = 0x40;
    t[CZK_G2_UNCOMPRESSED - 1] = 1;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_FORMAT);
    memcpy(t, c, sizeof(c));
    t[0] |= 0x40;
    EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_FORMAT);
    /* a coordinate >= p, named by its part: y.c0 (bytes 144..191), every decoder */
    memcpy(t, u, sizeof(u));
    memset(t + 3 * CZK_FP_BYTES, 0xff, CZK_FP_BYTES);
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_NOT_CANONICAL);
    CHECK_MSG(strstr(czk_last_error(), "coordinate y.c0 (bytes 144..191)") != NULL, "%s", czk_last_error());
    EXPECT_STATUS(czk_g2_deserialize_trusted(&d, t), CZK_ERR_NOT_CANONICAL);
    /* the trusted decoder does not check the curve */
    memcpy(t, u, sizeof(u));
    t[CZK_G2_UNCOMPRESSED - 1] ^= 1;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_NOT_ON_CURVE);
    REQUIRE_OK(czk_g2_deserialize_trusted(&d, t));
    CHECK(!d.inf && !czk_g2_affine_is_on_curve(&d));
    memset(t, 0, sizeof(t));
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_NOT_ON_CURVE); /* (0, 0) */
    /* each of the four coordinates >= p */
    uint8_t pb[CZK_FP_BYTES];
    p_bytes(pb);
    for (int coord = 0; coord < 4; coord++) {
        memcpy(t, u, sizeof(u));
        memcpy(t + coord * CZK_FP_BYTES, pb, CZK_FP_BYTES);
        EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_NOT_CANONICAL);
        if (coord < 2) {
            memcpy(t, c, sizeof(c));
            memcpy(t + coord * CZK_FP_BYTES, pb, CZK_FP_BYTES);
            t[0] |= 0x80;
            EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_NOT_CANONICAL);
        }
    }
    /* not on the curve */
    int found = 0;
    for (int tries = 0; tries < 64 && !found; tries++) {
        czk_fp2 x, y2, b, y;
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&y2, &x);
        czk_fp2_mul(&y2, &y2, &x);
        czk_fp_from_u64(&b.c0, 4);
        b.c1 = b.c0;
        czk_fp2_add(&y2, &y2, &b);
        if (czk_fp2_sqrt(&y, &y2)) continue;
        found = 1;
        czk_fp_to_bytes(t, &x.c1);
        czk_fp_to_bytes(t + CZK_FP_BYTES, &x.c0);
        t[0] |= 0x80;
        EXPECT_STATUS(czk_g2_decompress(&d, t), CZK_ERR_NOT_ON_CURVE);
    }
    CHECK(found);
    memcpy(t, u, sizeof(u));
    t[CZK_G2_UNCOMPRESSED - 1] ^= 1;
    EXPECT_STATUS(czk_g2_deserialize(&d, t), CZK_ERR_NOT_ON_CURVE);
    /* not in the subgroup */
    size_t n = iters(10);
    for (size_t it = 0; it < n; it++) {
        czk_g2_affine o;
        rand_g2_outside(&o, rng);
        REQUIRE(!czk_g2_affine_in_subgroup_ref(&o));
        czk_g2_compress(c, &o);
        czk_g2_serialize(u, &o);
        EXPECT_STATUS(czk_g2_decompress(&d, c), CZK_ERR_NOT_IN_SUBGROUP);
        EXPECT_STATUS(czk_g2_deserialize(&d, u), CZK_ERR_NOT_IN_SUBGROUP);
        EXPECT_STATUS(czk_g2_deserialize_unchecked_subgroup(&d, u), CZK_OK);
        CHECK(czk_g2_affine_eq(&d, &o));
    }
    size_t nr = iters(1000);
    for (size_t it = 0; it < nr; it++) {
        czk_rng_bytes(rng, t, sizeof(t));
        if (it % 2) t[0] = (uint8_t)((t[0] & 0x1f) | 0x80);
        if (czk_g2_decompress(&d, t) == CZK_OK)
            CHECK(czk_g2_affine_is_on_curve(&d) && czk_g2_affine_in_subgroup_ref(&d));
        if (czk_g2_deserialize(&d, t) == CZK_OK)
            CHECK(czk_g2_affine_is_on_curve(&d) && czk_g2_affine_in_subgroup_ref(&d));
    }
}

/* Compressed [k] G for small k, as blst (blst_p1/p2_mult + _compress)
 * encodes them, computed outside this repository; k = 2 has the sort flag
 * set on both curves, k = 3 has it clear. */
static const struct {
    unsigned k;
    const char *hex;
} G1_MULTIPLES[] = {
    {2, "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"},
    {3, "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b96d2c0c9024e5224"},
    {4, "ac9b60d5afcbd5663a8a44b7c5a02f19e9a77ab0a35bd65809bb5c67ec582c897feb04decc694b13e08587f3ff9b5b60"},
    {5, "b0e7791fb972fe014159aa33a98622da3cdc98ff707965e536d8636b5fcc5ac7a91a8c46e59a00dca575af0f18fb13dc"},
    {6, "a6e82f6da4520f85c5d27d8f329eccfa05944fd1096b20734c894966d12a9e2a9a9744529d7212d33883113a0cadb909"},
    {7, "b928f3beb93519eecf0145da903b40a4c97dca00b21f12ac0df3be9116ef2ef27b2ae6bcd4c5bc2d54ef5a70627efcb7"},
};
static const struct {
    unsigned k;
    const char *hex;
} G2_MULTIPLES[] = {
    {2, "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
        "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"},
    {3, "89380275bbc8e5dcea7dc4dd7e0550ff2ac480905396eda55062650f8d251c96eb480673937cc6d9d6a44aaa56ca66dc"
        "122915c824a0857e2ee414a3dccb23ae691ae54329781315a0c75df1c04d6d7a50a030fc866f09d516020ef82324afae"},
    {4, "870227d3f13684fdb7ce31b8065ba3acb35f7bde6fe2ddfefa359f8b35d08a9ab9537b43e24f4ffb720b5a0bda2a82f2"
        "0e7a30979a8853a077454eb63b8dcee75f106221b262886bb8e01b0abb043368da82f60899cc1412e33e4120195fc557"},
    {5, "80fb837804dba8213329db46608b6c121d973363c1234a86dd183baff112709cf97096c5e9a1a770ee9d7dc641a894d6"
        "0411a5de6730ffece671a9f21d65028cc0f1102378de124562cb1ff49db6f004fcd14d683024b0548eff3d1468df2688"},
    {6, "83f4b4e761936d90fd5f55f99087138a07a69755ad4a46e4dd1c2cfe6d11371e1cc033111a0595e3bba98d0f538db451"
        "19e384121b7d70927c49e6d044fd8517c36bc6ed2813a8956dd64f049869e8a77f7e46930240e6984abe26fa6a89658f"},
    {7, "8d0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8"
        "049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c"},
};

CZK_TEST(known_multiples)
{
    czk_g1_affine g1, p, d1;
    czk_g2_affine g2, q, d2;
    czk_g1_generator(&g1);
    czk_g2_generator(&g2);
    uint8_t want[CZK_G2_COMPRESSED], got[CZK_G2_COMPRESSED];
    for (size_t i = 0; i < sizeof(G1_MULTIPLES) / sizeof(G1_MULTIPLES[0]); i++) {
        czk_fr k;
        czk_g1_jac j;
        czk_fr_from_u64(&k, G1_MULTIPLES[i].k);
        czk_g1_jac_from_affine(&j, &g1);
        czk_g1_mul_ct(&j, &j, &k);
        czk_g1_jac_to_affine(&p, &j);
        czk_g1_compress(got, &p);
        hex_to_bytes(want, G1_MULTIPLES[i].hex, CZK_G1_COMPRESSED);
        CHECK_MSG(memcmp(got, want, CZK_G1_COMPRESSED) == 0, "G1 [%u] G", G1_MULTIPLES[i].k);
        CHECK_OK(czk_g1_decompress(&d1, want));
        CHECK(czk_g1_affine_eq(&d1, &p));
    }
    for (size_t i = 0; i < sizeof(G2_MULTIPLES) / sizeof(G2_MULTIPLES[0]); i++) {
        czk_fr k;
        czk_g2_jac j;
        czk_fr_from_u64(&k, G2_MULTIPLES[i].k);
        czk_g2_jac_from_affine(&j, &g2);
        czk_g2_mul_ct(&j, &j, &k);
        czk_g2_jac_to_affine(&q, &j);
        czk_g2_compress(got, &q);
        hex_to_bytes(want, G2_MULTIPLES[i].hex, CZK_G2_COMPRESSED);
        CHECK_MSG(memcmp(got, want, CZK_G2_COMPRESSED) == 0, "G2 [%u] G", G2_MULTIPLES[i].k);
        CHECK_OK(czk_g2_decompress(&d2, want));
        CHECK(czk_g2_affine_eq(&d2, &q));
    }
}
