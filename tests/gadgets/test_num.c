/* Number gadgets: arithmetic, inverse, conditional reversal, bit
 * decompositions (including the strict range check against r). */
#include "runner.h"

#include "gadgets/gadgets_lc.h"

static void bump_and_expect_unsat(czk_cs *cs, czk_var v, const char *cname)
{
    czk_fr old, f;
    REQUIRE_OK(czk_cs_value(cs, &old, v));
    czk_fr_add(&f, &old, &CZK_FR_ONE);
    REQUIRE_OK(czk_cs_test_set(cs, v, &f));
    int64_t r = czk_cs_test_which_unsatisfied(cs);
    CHECK_MSG(r >= 0, "%s: change not detected", cname);
    if (r >= 0) CHECK_MSG(strstr(czk_cs_test_constraint_name(cs, (uint64_t)r), cname) != NULL, "%s vs %s", cname,
                          czk_cs_test_constraint_name(cs, (uint64_t)r));
    REQUIRE_OK(czk_cs_test_set(cs, v, &old));
}

CZK_TEST(anum_arithmetic)
{
    czk_rng *rng = czk_test_rng();
    for (size_t it = 0; it < czk_test_iters(10); it++) {
        czk_fr x, y, t;
        czk_fr_random(&x, rng);
        czk_fr_random(&y, rng);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_INLINE2, NULL));
        czk_anum a, b, s, p, q, inv;
        REQUIRE_OK(czk_anum_alloc_inline2(cs, &a, &x));
        REQUIRE_OK(czk_anum_alloc_inline2(cs, &b, &y));
        REQUIRE_OK(czk_anum_add_inline2(cs, &s, &a, &b));
        REQUIRE_OK(czk_anum_mul_inline2(cs, &p, &a, &b));
        REQUIRE_OK(czk_anum_square_inline2(cs, &q, &a));
        REQUIRE_OK(czk_anum_inverse_inline2(cs, &inv, &a));
        REQUIRE_OK(czk_anum_assert_nonzero_inline2(cs, &b));
        REQUIRE_OK(czk_anum_inputize_inline2(cs, &s));
        CHECK_EQ_U64(cs->n_constraints, 6);
        CHECK_EQ_U64(cs->n_inputs, 2);
        czk_fr_add(&t, &x, &y);
        CHECK(czk_fr_eq(&s.value, &t));
        czk_fr_mul(&t, &x, &y);
        CHECK(czk_fr_eq(&p.value, &t));
        czk_fr_sqr(&t, &x);
        CHECK(czk_fr_eq(&q.value, &t));
        czk_fr_mul(&t, &x, &inv.value);
        CHECK(czk_fr_is_one(&t));
        CHECK_OK(czk_cs_test_check(cs));
        bump_and_expect_unsat(cs, s.var, "addition constraint");
        bump_and_expect_unsat(cs, p.var, "multiplication constraint");
        bump_and_expect_unsat(cs, q.var, "squaring constraint");
        bump_and_expect_unsat(cs, inv.var, "inverse constraint");
        bump_and_expect_unsat(cs, czk_var_input(1), "enforce input is correct");
        czk_cs_destroy(cs);
    }
}

CZK_TEST(anum_inverse_of_zero)
{
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    czk_anum z, inv;
    REQUIRE_OK(czk_anum_alloc_vec(cs, &z, &CZK_FR_ZERO));
    CHECK(czk_anum_inverse_vec(cs, &inv, &z) == CZK_ERR_DIV_BY_ZERO);
    CHECK(strstr(czk_last_error(), "zero") != NULL);
    CHECK(czk_anum_assert_nonzero_vec(cs, &z) == CZK_ERR_DIV_BY_ZERO);
    CHECK(czk_anum_alloc_vec(cs, &z, NULL) == CZK_ERR_MISSING_ASSIGNMENT);
    czk_cs_destroy(cs);
}

CZK_TEST(anum_conditionally_reverse)
{
    czk_rng *rng = czk_test_rng();
    for (int cond = 0; cond < 2; cond++) {
        czk_fr x, y;
        czk_fr_random(&x, rng);
        czk_fr_random(&y, rng);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        czk_anum a, b, c, d;
        czk_bool cb;
        REQUIRE_OK(czk_anum_alloc_vec(cs, &a, &x));
        REQUIRE_OK(czk_anum_alloc_vec(cs, &b, &y));
        REQUIRE_OK(czk_bit_alloc_vec(cs, &cb, cond));
        REQUIRE_OK(czk_anum_conditionally_reverse_vec(cs, &c, &d, &a, &b, &cb));
        CHECK(czk_fr_eq(&c.value, cond ? &y : &x));
        CHECK(czk_fr_eq(&d.value, cond ? &x : &y));
        CHECK_EQ_U64(cs->n_constraints, 3);
        CHECK_OK(czk_cs_test_check(cs));
        bump_and_expect_unsat(cs, c.var, "first conditional reversal");
        bump_and_expect_unsat(cs, d.var, "second conditional reversal");
        CHECK(strcmp(czk_cs_test_var_name(cs, c.var), "conditional reversal result 1/num") == 0);
        czk_cs_destroy(cs);
    }
}

static void check_bits(const czk_bool *bits, const czk_fr *v)
{
    uint64_t l[4];
    czk_fr_to_limbs(l, v);
    for (int i = 0; i < 255; i++) CHECK(bits[i].value == ((l[i / 64] >> (i % 64)) & 1));
}

/* Recompute every "and constraint" output from its inputs (in order), as a
 * prover would after choosing different bits. */
static void recompute_ands(czk_cs *cs)
{
    for (uint64_t i = 0; i < cs->n_constraints; i++) {
        const char *n = czk_cs_test_constraint_name(cs, i);
        size_t ln = strlen(n);
        if (ln < 14 || strcmp(n + ln - 14, "and constraint") != 0) continue;
        czk_lc_view a, b, c;
        REQUIRE_OK(czk_cs_test_constraint(cs, i, &a, &b, &c));
        REQUIRE(a.n_aux == 1 && b.n_aux == 1 && c.n_aux == 1);
        czk_fr va, vb, vc;
        REQUIRE_OK(czk_cs_value(cs, &va, czk_var_aux(a.aux[0].index)));
        REQUIRE_OK(czk_cs_value(cs, &vb, czk_var_aux(b.aux[0].index)));
        czk_fr_mul(&vc, &va, &vb);
        REQUIRE_OK(czk_cs_test_set(cs, czk_var_aux(c.aux[0].index), &vc));
    }
}

CZK_TEST(anum_to_bits_le_and_strict)
{
    czk_rng *rng = czk_test_rng();
    czk_fr vals[6];
    vals[0] = CZK_FR_ZERO;
    vals[1] = CZK_FR_ONE;
    czk_fr_neg(&vals[2], &CZK_FR_ONE); /* r - 1, the largest canonical value */
    for (int i = 3; i < 6; i++) czk_fr_random(&vals[i], rng);
    for (int i = 0; i < 6; i++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        czk_anum a;
        czk_bool bits[255], sb[255];
        REQUIRE_OK(czk_anum_alloc_vec(cs, &a, &vals[i]));
        REQUIRE_OK(czk_anum_to_bits_le_vec(cs, bits, &a));
        CHECK_EQ_U64(cs->n_constraints, 256);
        check_bits(bits, &vals[i]);
        REQUIRE_OK(czk_anum_to_bits_le_strict_vec(cs, sb, &a));
        check_bits(sb, &vals[i]);
        CHECK_OK(czk_cs_test_check(cs));
        czk_fr f = sb[3].value ? CZK_FR_ZERO : CZK_FR_ONE, old = sb[3].value ? CZK_FR_ONE : CZK_FR_ZERO;
        REQUIRE_OK(czk_cs_test_set(cs, sb[3].var, &f));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        REQUIRE_OK(czk_cs_test_set(cs, sb[3].var, &old));
        czk_cs_destroy(cs);
    }
    /* 5 + r has the same residue: the loose decomposition accepts its bits,
     * the strict one does not. */
    uint64_t l[4];
    unsigned __int128 acc = 5;
    for (int k = 0; k < 4; k++) {
        acc += CZK_FR_MODULUS[k];
        l[k] = (uint64_t)acc;
        acc >>= 64;
    }
    czk_fr five;
    czk_fr_from_u64(&five, 5);
    for (int strict = 0; strict < 2; strict++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        czk_anum a;
        czk_bool bits[255];
        REQUIRE_OK(czk_anum_alloc_vec(cs, &a, &five));
        if (strict) REQUIRE_OK(czk_anum_to_bits_le_strict_vec(cs, bits, &a));
        else REQUIRE_OK(czk_anum_to_bits_le_vec(cs, bits, &a));
        CHECK_OK(czk_cs_test_check(cs));
        for (int i = 0; i < 255; i++)
            REQUIRE_OK(czk_cs_test_set(cs, bits[i].var, (l[i / 64] >> (i % 64)) & 1 ? &CZK_FR_ONE : &CZK_FR_ZERO));
        recompute_ands(cs);
        if (strict) CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        else CHECK_OK(czk_cs_test_check(cs));
        czk_cs_destroy(cs);
    }
}

CZK_TEST(num_lc_ops)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    czk_fr x, k, t;
    czk_fr_random(&x, rng);
    czk_fr_random(&k, rng);
    czk_anum a;
    REQUIRE_OK(czk_anum_alloc_vec(cs, &a, &x));
    czk_num_vec n, m;
    czk_num_init_vec(&n);
    czk_num_init_vec(&m);
    czk_num_from_anum_vec(&n, &a);
    czk_bool one = czk_bool_const(1);
    czk_num_add_bool_with_coeff_vec(&m, &one, &k);
    czk_num_add_vec(&n, &m);
    czk_num_scale_vec(&n, &k);
    czk_fr_add(&t, &x, &k);
    czk_fr_mul(&t, &t, &k);
    CHECK(czk_fr_eq(&n.value, &t));
    /* the vec indexers are plain arrays */
    czk_lc_view v = {n.lc.in.p, n.lc.aux.p, n.lc.in.n, n.lc.aux.n};
    czk_fr ev;
    czk_fr in1 = CZK_FR_ONE;
    czk_lc_view_eval(&ev, &v, &in1, &x);
    CHECK(czk_fr_eq(&ev, &t));
    czk_num_free_vec(&n);
    czk_num_free_vec(&m);
    czk_cs_destroy(cs);
}
