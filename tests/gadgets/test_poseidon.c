/* Native Poseidon: parameters re-derived at run time (Grain LFSR, Cauchy MDS),
 * known answers of docs/filecoin.md#poseidon, optimized == plain permutation. */
#include <stdlib.h>

#include "czk/poseidon.h"
#include "gadgets/poseidon_params.h"
#include "runner.h"

static const size_t ARITIES[4] = {2, 4, 8, 11};

static int fr_eq_hex(const czk_fr *a, const char *hex) {
    czk_fr b;
    if (czk_fr_from_hex(&b, hex) != CZK_OK) return 0;
    return czk_fr_eq(a, &b);
}

/* Grain LFSR of the Poseidon paper (appendix F) in the parameterisation of
 * docs/filecoin.md#poseidon, written independently of tools/gen_poseidon.py. */
typedef struct grain {
    uint8_t s[80];
} grain;

static unsigned grain_step(grain *g) {
    unsigned nb = g->s[62] ^ g->s[51] ^ g->s[38] ^ g->s[23] ^ g->s[13] ^ g->s[0];
    memmove(g->s, g->s + 1, 79);
    g->s[79] = (uint8_t)nb;
    return nb;
}

static void grain_init(grain *g, unsigned t, unsigned r_f, unsigned r_p) {
    unsigned pos = 0;
    const struct {
        unsigned bits, value;
    } fields[7] = {{2, 1}, {4, 1}, {12, 255}, {12, t}, {10, r_f}, {10, r_p}, {30, (1u << 30) - 1}};
    for (int f = 0; f < 7; f++)
        for (int i = (int)fields[f].bits - 1; i >= 0; i--) g->s[pos++] = (fields[f].value >> i) & 1;
    for (int i = 0; i < 160; i++) grain_step(g);
}

static unsigned grain_bit(grain *g) {
    for (;;) {
        unsigned b0 = grain_step(g), b1 = grain_step(g);
        if (b0) return b1;
    }
}

/* Next accepted constant as plain little-endian limbs. */
static void grain_next(grain *g, uint64_t v[4]) {
    for (;;) {
        memset(v, 0, 4 * sizeof(uint64_t));
        for (int i = 254; i >= 0; i--)
            if (grain_bit(g)) v[i / 64] |= 1ULL << (i % 64);
        int lt = 0;
        for (int i = 3; i >= 0; i--)
            if (v[i] != CZK_FR_MODULUS[i]) {
                lt = v[i] < CZK_FR_MODULUS[i];
                break;
            }
        if (lt) return;
    }
}

CZK_TEST(poseidon_round_constants_rederived) {
    for (int a = 0; a < 4; a++) {
        size_t arity = ARITIES[a];
        unsigned t = (unsigned)arity + 1, r_f = czk_poseidon_full_rounds(arity),
                 r_p = czk_poseidon_partial_rounds(arity);
        CHECK_EQ_U64(r_f, 8);
        CHECK_EQ_U64(r_p, arity == 2 ? 55 : arity == 4 ? 56 : 57);
        grain g;
        grain_init(&g, t, r_f, r_p);
        size_t n = (size_t)(r_f + r_p) * t, bad = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t want[4], got[4];
            czk_fr c;
            grain_next(&g, want);
            REQUIRE_OK(czk_poseidon_round_constant(&c, arity, i));
            czk_fr_to_limbs(got, &c);
            if (memcmp(want, got, sizeof want) != 0) bad++;
        }
        CHECK_MSG(bad == 0, "arity %zu: %zu of %zu round constants differ from the Grain LFSR", arity, bad, n);
        czk_fr c;
        CHECK(czk_poseidon_round_constant(&c, arity, n) == CZK_ERR_INVALID_ARG);
    }
    czk_fr c0;
    REQUIRE_OK(czk_poseidon_round_constant(&c0, 8, 0));
    CHECK(fr_eq_hex(&c0, "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
}

CZK_TEST(poseidon_mds_is_cauchy) {
    for (int a = 0; a < 4; a++) {
        size_t t = ARITIES[a] + 1;
        for (size_t i = 0; i < t; i++)
            for (size_t j = 0; j < t; j++) {
                czk_fr m, d, prod;
                REQUIRE_OK(czk_poseidon_mds_entry(&m, ARITIES[a], i, j));
                czk_fr_from_u64(&d, i + t + j);
                czk_fr_mul(&prod, &m, &d);
                CHECK_MSG(czk_fr_is_one(&prod), "arity %zu: M[%zu][%zu] * (i + t + j) != 1", ARITIES[a], i, j);
            }
    }
    czk_fr m;
    CHECK(czk_poseidon_mds_entry(&m, 2, 3, 0) == CZK_ERR_INVALID_ARG);
}

CZK_TEST(poseidon_known_answers) {
    static const char *const want[4] = {
        "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff",
        "0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d",
        "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6",
        "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163",
    };
    for (int a = 0; a < 4; a++) {
        czk_fr in[CZK_POSEIDON_MAX_ARITY], out, tag, ref;
        for (size_t i = 0; i < ARITIES[a]; i++) czk_fr_from_u64(&in[i], i);
        REQUIRE_OK(czk_poseidon_hash(&out, in, ARITIES[a]));
        CHECK_MSG(fr_eq_hex(&out, want[a]), "arity %zu known answer", ARITIES[a]);
        czk_fr_from_u64(&tag, (1ULL << ARITIES[a]) - 1);
        REQUIRE_OK(czk_poseidon_hash_tag_ref(&ref, &tag, in, ARITIES[a]));
        CHECK_MSG(fr_eq_hex(&ref, want[a]), "arity %zu known answer (plain permutation)", ARITIES[a]);
    }
    czk_fr one, zero, h10, h01, root;
    czk_fr_from_u64(&one, 1);
    czk_fr_from_u64(&zero, 0);
    czk_poseidon_hash2(&h10, &one, &zero);
    CHECK(fr_eq_hex(&h10, "0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e"));
    czk_poseidon_hash2(&h01, &zero, &one);
    czk_poseidon_hash2(&root, &h10, &h01);
    CHECK(fr_eq_hex(&root, "0x1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671"));
}

CZK_TEST(poseidon_optimized_equals_plain) {
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 5 : 50);
    for (size_t it = 0; it < iters; it++)
        for (int a = 0; a < 4; a++) {
            czk_fr in[CZK_POSEIDON_MAX_ARITY], tag, x, y;
            for (size_t i = 0; i < ARITIES[a]; i++) {
                czk_fr_random(&in[i], rng);
                if (czk_rng_below(rng, 8) == 0) czk_fr_neg(&in[i], &CZK_FR_ONE); /* edge: -1 */
                if (czk_rng_below(rng, 8) == 0) in[i] = CZK_FR_ZERO;
            }
            czk_fr_random(&tag, rng);
            REQUIRE_OK(czk_poseidon_hash_tag(&x, &tag, in, ARITIES[a]));
            REQUIRE_OK(czk_poseidon_hash_tag_ref(&y, &tag, in, ARITIES[a]));
            CHECK_MSG(czk_fr_eq(&x, &y), "arity %zu iteration %zu: optimized != plain", ARITIES[a], it);
            if (ARITIES[a] == 2) {
                czk_fr z;
                czk_poseidon_hash2(&z, &in[0], &in[1]);
                REQUIRE_OK(czk_poseidon_hash(&x, in, 2));
                CHECK(czk_fr_eq(&x, &z));
            }
        }
}

CZK_TEST(poseidon_unsupported_arity) {
    czk_fr in[16] = {{{0}}}, out;
    static const size_t bad[5] = {0, 1, 3, 12, 16};
    for (int i = 0; i < 5; i++) {
        CHECK(czk_poseidon_arity_supported(bad[i]) == 0);
        CHECK(czk_poseidon_hash(&out, in, bad[i]) == CZK_ERR_UNSUPPORTED);
        CHECK(strstr(czk_last_error(), "arity") != NULL);
    }
    CHECK(czk_poseidon_arity_supported(11) == 1);
    CHECK(czk_poseidon_hash(&out, in, (size_t)-1) == CZK_ERR_UNSUPPORTED);
}

/* The checked-in tables are exactly what tools/gen_poseidon.py writes (run when
 * python3 is installed; the generator itself asserts the values of docs/filecoin.md#poseidon). */
CZK_TEST(poseidon_tables_match_generator) {
    if (system("python3 -c 'import sys' >/dev/null 2>&1") != 0) {
        printf("    (python3 not found: generator comparison skipped)\n");
        return;
    }
    char out[1024], cmd[3072];
    snprintf(out, sizeof out, "%s/poseidon_constants.c", czk_test_tmpdir());
    snprintf(cmd, sizeof cmd, "python3 '%s/tools/gen_poseidon.py' '%s' >/dev/null", CZK_SOURCE_DIR, out);
    REQUIRE(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s/src/gadgets/poseidon_constants.c'", out, CZK_SOURCE_DIR);
    CHECK_MSG(system(cmd) == 0, "src/gadgets/poseidon_constants.c differs from tools/gen_poseidon.py output");
}
