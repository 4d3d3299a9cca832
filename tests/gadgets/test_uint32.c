/* UInt32 gadgets: rotations/shifts, xor, ch/maj, addmany with MultiEq
 * batching and constant folding. */
#include "runner.h"

#include "gadgets/gadgets_lc.h"

static uint32_t u32_of_bits(const czk_u32 *u)
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) v |= (uint32_t)u->bits[i].value << i;
    return v;
}

CZK_TEST(u32_rotr_shr_bits)
{
    czk_rng *rng = czk_test_rng();
    for (int it = 0; it < 100; it++) {
        uint32_t v = (uint32_t)czk_rng_u64(rng);
        unsigned by = (unsigned)czk_rng_below(rng, 40);
        czk_u32 a, r, s;
        czk_u32_constant(&a, v);
        czk_u32_rotr(&r, &a, by);
        czk_u32_shr(&s, &a, by);
        by %= 32;
        uint32_t rv = by ? (v >> by) | (v << (32 - by)) : v;
        CHECK_EQ_U64(r.value, rv);
        CHECK_EQ_U64(u32_of_bits(&r), rv);
        CHECK_EQ_U64(s.value, v >> by);
        CHECK_EQ_U64(u32_of_bits(&s), v >> by);
        czk_bool be[32];
        czk_u32_into_bits_be(be, &a);
        czk_u32 back;
        czk_u32_from_bits_be(&back, be);
        CHECK_EQ_U64(back.value, v);
        CHECK(be[0].value == (v >> 31));
    }
}

CZK_TEST(u32_xor_ch_maj)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_INLINE4, NULL));
    uint32_t x = (uint32_t)czk_rng_u64(rng), y = (uint32_t)czk_rng_u64(rng), z = (uint32_t)czk_rng_u64(rng);
    czk_u32 a, b, c, r;
    REQUIRE_OK(czk_u32_alloc_inline4(cs, &a, x));
    REQUIRE_OK(czk_u32_alloc_inline4(cs, &b, y));
    czk_u32_constant(&c, z); /* mixed constant and allocated operands */
    uint64_t n0 = cs->n_constraints;
    REQUIRE_OK(czk_u32_xor_inline4(cs, &r, &a, &b));
    CHECK_EQ_U64(cs->n_constraints - n0, 32);
    CHECK_EQ_U64(r.value, x ^ y);
    CHECK_EQ_U64(u32_of_bits(&r), x ^ y);
    REQUIRE_OK(czk_u32_xor_inline4(cs, &r, &a, &c));
    CHECK_EQ_U64(u32_of_bits(&r), x ^ z);
    REQUIRE_OK(czk_u32_sha256_ch_inline4(cs, &r, &a, &b, &c));
    CHECK_EQ_U64(u32_of_bits(&r), (x & y) ^ (~x & z));
    REQUIRE_OK(czk_u32_sha256_maj_inline4(cs, &r, &a, &b, &c));
    CHECK_EQ_U64(u32_of_bits(&r), (x & y) ^ (x & z) ^ (y & z));
    CHECK_OK(czk_cs_test_check(cs));
    czk_cs_destroy(cs);
}

CZK_TEST(u32_addmany_multieq)
{
    czk_rng *rng = czk_test_rng();
    for (size_t it = 0; it < czk_test_iters(20); it++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        czk_multieq_vec me;
        czk_multieq_init_vec(&me, cs);
        size_t n = 2 + (size_t)czk_rng_below(rng, 9);
        czk_u32 ops[10], r;
        uint32_t sum = 0;
        int any_alloc = 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t v = (uint32_t)czk_rng_u64(rng);
            sum += v;
            if (czk_rng_below(rng, 2)) {
                REQUIRE_OK(czk_u32_alloc_vec(cs, &ops[k], v));
                any_alloc = 1;
            } else {
                czk_u32_constant(&ops[k], v);
            }
        }
        uint64_t n0 = cs->n_constraints;
        REQUIRE_OK(czk_u32_addmany_vec(cs, &me, &r, ops, n));
        REQUIRE_OK(czk_multieq_finish_vec(&me));
        CHECK_EQ_U64(r.value, sum);
        CHECK_EQ_U64(u32_of_bits(&r), sum);
        unsigned bits = 0;
        for (uint64_t mv = (uint64_t)n * 0xffffffffull; mv; mv >>= 1) bits++;
        CHECK_EQ_U64(cs->n_constraints - n0, any_alloc ? bits + 1 : 0);
        CHECK_OK(czk_cs_test_check(cs));
        if (any_alloc) {
            czk_fr f = r.bits[7].value ? CZK_FR_ZERO : CZK_FR_ONE;
            REQUIRE_OK(czk_cs_test_set(cs, r.bits[7].var, &f));
            CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
            CHECK(strstr(czk_last_error(), "multieq 0") != NULL);
        } else {
            for (int i = 0; i < 32; i++) CHECK(r.bits[i].kind == CZK_BOOL_CONST);
        }
        czk_cs_destroy(cs);
    }
}

/* MultiEq packs 33-bit equalities 7 to a constraint (7 * 33 = 231 < 254). */
CZK_TEST(multieq_batching)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_INLINE1, NULL));
    czk_multieq_inline1 me;
    czk_multieq_init_inline1(&me, cs);
    czk_u32 ops[2], r;
    REQUIRE_OK(czk_u32_alloc_inline1(cs, &ops[0], (uint32_t)czk_rng_u64(rng)));
    REQUIRE_OK(czk_u32_alloc_inline1(cs, &ops[1], (uint32_t)czk_rng_u64(rng)));
    uint64_t n0 = cs->n_constraints;
    for (int i = 0; i < 10; i++) REQUIRE_OK(czk_u32_addmany_inline1(cs, &me, &r, ops, 2));
    CHECK_EQ_U64(cs->n_constraints - n0, 10 * 33 + 1); /* first flush while adding the 8th */
    REQUIRE_OK(czk_multieq_finish_inline1(&me));
    CHECK_EQ_U64(cs->n_constraints - n0, 10 * 33 + 2);
    CHECK_OK(czk_cs_test_check(cs));
    CHECK_EQ_U64(me.ops, 2);
    czk_cs_destroy(cs);
    czk_u32 bad[1];
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_multieq_vec m2;
    czk_multieq_init_vec(&m2, cs);
    czk_u32_constant(&bad[0], 1);
    CHECK(czk_u32_addmany_vec(cs, &m2, &r, bad, 1) == CZK_ERR_INVALID_ARG);
    REQUIRE_OK(czk_multieq_finish_vec(&m2));
    czk_cs_destroy(cs);
}

/* UInt64::alloc + pack_into_input, as the PoRep circuit exposes a challenge. */
CZK_TEST(u64_alloc_pack_into_inputs)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    uint64_t v = czk_rng_u64(rng);
    czk_u64 u;
    REQUIRE_OK(czk_u64_alloc_vec(cs, &u, v));
    REQUIRE_OK(czk_bits_pack_into_inputs_vec(cs, u.bits, 64));
    CHECK_EQ_U64(cs->n_inputs, 2);
    CHECK_EQ_U64(cs->n_constraints, 65);
    czk_fr in, want;
    REQUIRE_OK(czk_cs_value(cs, &in, czk_var_input(1)));
    czk_fr_from_u64(&want, v);
    CHECK(czk_fr_eq(&in, &want));
    CHECK_OK(czk_cs_test_check(cs));
    CHECK(strcmp(czk_cs_test_constraint_name(cs, 64), "packing constraint 0") == 0);
    czk_fr bad;
    czk_fr_add(&bad, &in, &CZK_FR_ONE);
    REQUIRE_OK(czk_cs_test_set(cs, czk_var_input(1), &bad));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    czk_bool be[64];
    czk_u64_to_bits_be(be, &u);
    CHECK(be[63].value == (v & 1));
    /* 300 bits: two inputs */
    czk_bool many[300];
    for (int i = 0; i < 300; i++) many[i] = czk_bool_const(i % 3 == 0);
    REQUIRE_OK(czk_bits_pack_into_inputs_vec(cs, many, 300));
    CHECK_EQ_U64(cs->n_inputs, 4);
    czk_cs_destroy(cs);
}
