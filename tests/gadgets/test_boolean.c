/* Boolean gadgets: every combination of constant / IS / NOT operands against
 * the truth tables, bellpepper's constant folding (constraint counts), and
 * detection of a flipped witness. */
#include "runner.h"

#include "gadgets/gadgets_lc.h"

/* 0: const 0, 1: const 1, 2: IS(0), 3: IS(1), 4: NOT(1) = 0, 5: NOT(0) = 1 */
static czk_bool make_bool(czk_cs *cs, int k)
{
    czk_bool b = czk_bool_const(k & 1);
    if (k >= 2) {
        int bitv = k < 4 ? (k & 1) : !(k & 1);
        czk_status s = czk_bit_alloc_vec(cs, &b, bitv);
        CHECK_OK(s);
        if (k >= 4) b = czk_bool_not(b);
    }
    return b;
}

static int kval(int k) { return k & 1; }

static void flip_and_expect_unsat(czk_cs *cs, czk_var v, const char *what)
{
    czk_fr old, f;
    REQUIRE_OK(czk_cs_value(cs, &old, v));
    f = czk_fr_is_zero(&old) ? CZK_FR_ONE : CZK_FR_ZERO;
    REQUIRE_OK(czk_cs_test_set(cs, v, &f));
    CHECK_MSG(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED, "%s: flip not detected", what);
    REQUIRE_OK(czk_cs_test_set(cs, v, &old));
}

CZK_TEST(bit_alloc_constraint)
{
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_bool b;
    REQUIRE_OK(czk_bit_alloc_vec(cs, &b, 1));
    CHECK_EQ_U64(cs->n_constraints, 1);
    CHECK_OK(czk_cs_test_check(cs));
    REQUIRE_OK(czk_cs_test_set(cs, b.var, &CZK_FR_ZERO));
    CHECK_OK(czk_cs_test_check(cs));
    czk_fr two;
    czk_fr_from_u64(&two, 2);
    REQUIRE_OK(czk_cs_test_set(cs, b.var, &two));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    CHECK(strcmp(czk_cs_test_constraint_name(cs, 0), "boolean constraint") == 0);
    CHECK(strcmp(czk_cs_test_var_name(cs, b.var), "boolean") == 0);
    czk_cs_destroy(cs);
}

typedef czk_status (*binop)(czk_cs *, czk_bool *, const czk_bool *, const czk_bool *);

CZK_TEST(bool_xor_and_or_truth_tables)
{
    static const char *names[3] = {"xor", "and", "or"};
    binop ops[3] = {czk_bool_xor_vec, czk_bool_and_vec, czk_bool_or_vec};
    for (int op = 0; op < 3; op++)
        for (int ka = 0; ka < 6; ka++)
            for (int kb = 0; kb < 6; kb++) {
                czk_cs *cs;
                REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
                czk_bool a = make_bool(cs, ka), b = make_bool(cs, kb), r;
                uint64_t c0 = cs->n_constraints, v0 = cs->n_aux;
                REQUIRE_OK(ops[op](cs, &r, &a, &b));
                int va = kval(ka), vb = kval(kb);
                int want = op == 0 ? va ^ vb : op == 1 ? va & vb : va | vb;
                CHECK_MSG(r.value == want, "%s(%d,%d)", names[op], ka, kb);
                int both = ka >= 2 && kb >= 2;
                CHECK_MSG(cs->n_constraints - c0 == (uint64_t)both, "%s(%d,%d): %llu constraints", names[op], ka, kb,
                          (unsigned long long)(cs->n_constraints - c0));
                CHECK_OK(czk_cs_test_check(cs));
                if (cs->n_aux > v0) flip_and_expect_unsat(cs, r.var, names[op]);
                czk_cs_destroy(cs);
            }
}

typedef czk_status (*triop)(czk_cs *, czk_bool *, const czk_bool *, const czk_bool *, const czk_bool *);

CZK_TEST(bool_sha256_ch_maj_truth_tables)
{
    triop ops[2] = {czk_bool_sha256_ch_vec, czk_bool_sha256_maj_vec};
    for (int op = 0; op < 2; op++)
        for (int ka = 0; ka < 6; ka++)
            for (int kb = 0; kb < 6; kb++)
                for (int kc = 0; kc < 6; kc++) {
                    czk_cs *cs;
                    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
                    czk_bool a = make_bool(cs, ka), b = make_bool(cs, kb), c = make_bool(cs, kc), r;
                    uint64_t c0 = cs->n_constraints, v0 = cs->n_aux;
                    REQUIRE_OK(ops[op](cs, &r, &a, &b, &c));
                    int x = kval(ka), y = kval(kb), z = kval(kc);
                    int want = op == 0 ? (x & y) ^ ((1 - x) & z) : (x & y) ^ (x & z) ^ (y & z);
                    CHECK_MSG(r.value == want, "op %d (%d,%d,%d)", op, ka, kb, kc);
                    int nc = (ka >= 2) + (kb >= 2) + (kc >= 2);
                    uint64_t added = cs->n_constraints - c0;
                    if (nc == 3) CHECK_EQ_U64(added, op == 0 ? 1 : 2);
                    else CHECK(added <= 1);
                    if (nc == 0) CHECK_EQ_U64(added, 0);
                    CHECK_OK(czk_cs_test_check(cs));
                    if (cs->n_aux > v0 && r.kind != CZK_BOOL_CONST) flip_and_expect_unsat(cs, r.var, "ch/maj");
                    czk_cs_destroy(cs);
                }
}

CZK_TEST(bool_enforce_equal)
{
    for (int ka = 0; ka < 6; ka++)
        for (int kb = 0; kb < 6; kb++) {
            czk_cs *cs;
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
            czk_bool a = make_bool(cs, ka), b = make_bool(cs, kb);
            czk_status s = czk_bool_enforce_equal_vec(cs, &a, &b);
            int eq = kval(ka) == kval(kb);
            if (ka < 2 && kb < 2) CHECK(s == (eq ? CZK_OK : CZK_ERR_UNSATISFIED));
            else {
                CHECK_OK(s);
                CHECK_MSG((czk_cs_test_check(cs) == CZK_OK) == eq, "enforce_equal(%d,%d)", ka, kb);
            }
            czk_cs_destroy(cs);
        }
}

CZK_TEST(bits_alloc_and_pack)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    uint64_t v = czk_rng_u64(rng);
    czk_bool b64[64];
    REQUIRE_OK(czk_bits_alloc_u64_le_vec(cs, b64, v));
    for (int i = 0; i < 64; i++) CHECK(b64[i].value == ((v >> i) & 1));
    CHECK(strcmp(czk_cs_test_var_name(cs, b64[5].var), "bit 5/boolean") == 0);
    /* pack 254 random bits; compare with the integer they encode */
    czk_fr f;
    czk_fr_random(&f, rng);
    czk_bool fb[255];
    REQUIRE_OK(czk_bits_alloc_field_le_vec(cs, fb, &f));
    uint64_t l[4];
    czk_fr_to_limbs(l, &f);
    for (int i = 0; i < 255; i++) CHECK(fb[i].value == ((l[i / 64] >> (i % 64)) & 1));
    czk_anum packed;
    REQUIRE_OK(czk_bits_pack_vec(cs, &packed, fb, 255)); /* packs the first 254 */
    l[3] &= ~(1ull << 62);
    czk_fr want;
    czk_fr_from_limbs_reduce(&want, l);
    CHECK(czk_fr_eq(&packed.value, &want));
    CHECK_OK(czk_cs_test_check(cs));
    flip_and_expect_unsat(cs, fb[100].var, "pack input bit");
    czk_fr wrong;
    czk_fr_add(&wrong, &packed.value, &CZK_FR_ONE);
    REQUIRE_OK(czk_cs_test_set(cs, packed.var, &wrong));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    CHECK(strcmp(czk_cs_test_constraint_name(cs, (uint64_t)czk_cs_test_which_unsatisfied(cs)), "packing constraint") == 0);
    czk_cs_destroy(cs);
}
