/* Constraint system: LC semantics per storage variant, every backend on a
 * small circuit with known a/b/c, densities and CSR, errors, recycling. */
#include <stdlib.h>

#include "runner.h"

#define CZK_LCV vec /* the LC operations of lc_pool_recycles */
#include "cs/cs_lcv.h"
#include "cs/lc_lcv.h"
#include "czk/cs.h"

static czk_status small(czk_cs *cs) { return CZK_LC_DISPATCH(cs->lc_kind, small_circuit, (cs)); }

CZK_TEST(lc_semantics_all_variants)
{
    czk_rng *rng = czk_test_rng();
    czk_cs *cs; /* czk_cs_create fills the power-of-two tables */
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_cs_destroy(cs);
    CHECK(czk_fr_is_one(&czk__pow2_table[0]));
    size_t iters = czk_test_iters(20);
    for (size_t it = 0; it < iters; it++) {
        lc_random_ops_vec(rng);
        lc_random_ops_inline1(rng);
        lc_random_ops_inline2(rng);
        lc_random_ops_inline4(rng);
        lc_bulk_ops_vec(rng);
        lc_bulk_ops_inline1(rng);
        lc_bulk_ops_inline2(rng);
        lc_bulk_ops_inline4(rng);
    }
}

CZK_TEST(lc_pool_recycles)
{
    czk_cs *cs; /* czk_cs_create fills the power-of-two tables */
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_cs_destroy(cs);
    czk_lc_pool_trim();
    czk_lc_pool_stats a, b;
    czk_lc_pool_stats_get(&a);
    for (int round = 0; round < 3; round++) {
        czk_lc_vec l;
        czk_lc_init_vec(&l);
        for (uint32_t i = 0; i < 100; i++) czk_lc_add_var_vec(&l, czk_var_aux(i));
        czk_lc_free_vec(&l);
    }
    czk_lc_pool_stats_get(&b);
    /* growth 4 -> 8 -> ... -> 128 once (6 buffers), then reused */
    CHECK_EQ_U64(b.mallocs - a.mallocs, 6);
    CHECK_EQ_U64(b.reuses - a.reuses, 12);
    CHECK(czk_lc_pool_trim() > 0);
}

CZK_TEST(lc_kind_and_backend_names)
{
    czk_lc_kind k;
    czk_cs_backend b;
    for (int i = 0; i < CZK_LC_KIND_COUNT; i++) {
        CHECK_OK(czk_lc_kind_parse(&k, czk_lc_kind_name((czk_lc_kind)i)));
        CHECK(k == (czk_lc_kind)i);
    }
    for (int i = 0; i < CZK_CS_BACKEND_COUNT; i++) {
        CHECK_OK(czk_cs_backend_parse(&b, czk_cs_backend_name((czk_cs_backend)i)));
        CHECK(b == (czk_cs_backend)i);
    }
    CHECK(czk_lc_kind_parse(&k, "inline3") == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "inline3") != NULL);
    czk_fr m;
    czk_fr_neg(&m, &CZK_FR_ONE);
    CHECK(czk_fr_eq(&m, &CZK_FR_MINUS_ONE));
}

static int fr_is(const czk_fr *a, uint64_t v)
{
    czk_fr t;
    czk_fr_from_u64(&t, v);
    return czk_fr_eq(a, &t);
}

static int bit(const uint64_t *bm, size_t i) { return (int)(bm[i / 64] >> (i % 64)) & 1; }

CZK_TEST(prove_backend_abc_and_densities)
{
    for (int kind = 0; kind < CZK_LC_KIND_COUNT; kind++) {
        czk_cs *cs;
        czk_cs_sizes sz = {2, 5, 4};
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, (czk_lc_kind)kind, kind & 1 ? &sz : NULL));
        REQUIRE_OK(small(cs));
        REQUIRE_OK(czk_cs_finalize(cs));
        CHECK(czk_cs_finalize(cs) == CZK_ERR_INVALID_ARG);
        CHECK_OK(czk_cs_prove_check(cs));
        czk_cs_assignment as;
        REQUIRE_OK(czk_cs_prove_get(cs, &as));
        CHECK_EQ_U64(as.n_input, 2);
        CHECK_EQ_U64(as.n_aux, 5);
        REQUIRE(as.n_constraints == 6);
        static const uint64_t ea[6] = {3, 15, 3, 8, 1, 15}, eb[6] = {5, 1, 1, 5, 0, 0}, ec[6] = {15, 15, 3, 40, 0, 0};
        for (int i = 0; i < 6; i++) {
            CHECK_MSG(fr_is(&as.a[i], ea[i]), "a[%d] (kind %d)", i, kind);
            CHECK_MSG(fr_is(&as.b[i], eb[i]), "b[%d]", i);
            CHECK_MSG(fr_is(&as.c[i], ec[i]), "c[%d]", i);
        }
        /* A-aux: x (aux 0) and t (aux 3, from c3; its zero term in c2 does not count) */
        CHECK_EQ_U64(as.a_aux_popcount, 2);
        CHECK(bit(as.a_aux_density, 0) && bit(as.a_aux_density, 3) && !bit(as.a_aux_density, 1));
        CHECK_EQ_U64(as.b_input_popcount, 1);
        CHECK(bit(as.b_input_density, 0) && !bit(as.b_input_density, 1));
        CHECK_EQ_U64(as.b_aux_popcount, 1);
        CHECK(bit(as.b_aux_density, 1) && !bit(as.b_aux_density, 0));
        /* reuse after reset: same result, no new LC buffers */
        czk_cs_reset(cs);
        czk_lc_pool_stats st0, st1;
        czk_lc_pool_stats_get(&st0);
        REQUIRE_OK(small(cs));
        REQUIRE_OK(czk_cs_finalize(cs));
        czk_lc_pool_stats_get(&st1);
        CHECK_EQ_U64(st1.mallocs - st0.mallocs, 0);
        REQUIRE_OK(czk_cs_prove_get(cs, &as));
        CHECK_EQ_U64(as.n_constraints, 6);
        CHECK_EQ_U64(as.a_aux_popcount, 2);
        CHECK(fr_is(&as.c[3], 40));
        czk_cs_destroy(cs);
    }
}

CZK_TEST(shape_backend_csr_interleaved_inputs)
{
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_INLINE2, NULL));
    REQUIRE_OK(small(cs));
    REQUIRE_OK(czk_cs_finalize(cs));
    czk_csr A, B, C;
    REQUIRE_OK(czk_cs_shape_csr(cs, &A, &B, &C));
    CHECK_EQ_U64(A.n_rows, 6);
    CHECK_EQ_U64(A.n_cols, 7);
    /* columns: ONE 0, pub 1, x 2, y 3, w 4, t 5, u 6 */
    static const uint64_t arow[7] = {0, 1, 2, 4, 5, 6, 7};
    static const uint32_t acol[7] = {2, 1, 2, 5, 5, 0, 1};
    REQUIRE(A.nnz == 7);
    for (int i = 0; i < 7; i++) {
        CHECK_EQ_U64(A.row_ptr[i], arow[i]);
        CHECK_EQ_U64(A.col[i], acol[i]);
    }
    CHECK(czk_fr_is_zero(&A.val[3])); /* t's cancelled term kept with coefficient 0 */
    CHECK(czk_fr_is_one(&A.val[2]));
    static const uint32_t bcol[5] = {3, 0, 0, 2, 3}; /* c3: x (0 coeff) then y */
    REQUIRE(B.nnz == 5);
    for (int i = 0; i < 5; i++) CHECK_EQ_U64(B.col[i], bcol[i]);
    CHECK(czk_fr_is_zero(&B.val[3]));
    CHECK_EQ_U64(C.nnz, 4);
    CHECK_EQ_U64(C.col[3], 6);
    CHECK_EQ_U64(C.row_ptr[6], 4);
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_fr v;
    CHECK(czk_cs_value(cs, &v, CZK_VAR_ONE) == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
}

CZK_TEST(test_backend_names_hash_and_unsatisfied)
{
    char h[CZK_LC_KIND_COUNT][65];
    for (int kind = 0; kind < CZK_LC_KIND_COUNT; kind++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, (czk_lc_kind)kind, NULL));
        REQUIRE_OK(small(cs));
        CHECK_OK(czk_cs_test_check(cs));
        czk_cs_test_hash(cs, h[kind]);
        CHECK(strcmp(czk_cs_test_constraint_name(cs, 3), "ns/c 3") == 0);
        CHECK(strcmp(czk_cs_test_var_name(cs, czk_var_input(1)), "ns/pub") == 0);
        czk_var u;
        REQUIRE_OK(czk_cs_test_find_var(cs, &u, "ns/u"));
        CHECK_EQ_U64(u, czk_var_aux(4));
        czk_fr bad;
        czk_fr_from_u64(&bad, 41);
        REQUIRE_OK(czk_cs_test_set(cs, u, &bad));
        CHECK(czk_cs_test_which_unsatisfied(cs) == 3);
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        CHECK(strstr(czk_last_error(), "'ns/c 3'") != NULL);
        czk_cs_destroy(cs);
    }
    for (int kind = 1; kind < CZK_LC_KIND_COUNT; kind++) CHECK(strcmp(h[0], h[kind]) == 0);
    /* a different system hashes differently */
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    REQUIRE_OK(small(cs));
    czk_var extra;
    REQUIRE_OK(czk_cs_alloc(cs, &extra, &CZK_FR_ONE, "extra", CZK_NOIDX));
    char h2[65];
    czk_cs_test_hash(cs, h2);
    CHECK(strcmp(h[0], h2) != 0);
    czk_cs_destroy(cs);
}

CZK_TEST(witness_backend_values_match_prove)
{
    czk_cs *w, *p;
    REQUIRE_OK(czk_cs_create(&w, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_cs_create(&p, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    REQUIRE_OK(small(w));
    REQUIRE_OK(small(p));
    const czk_fr *in, *aux;
    size_t ni, na;
    czk_cs_assignment as;
    REQUIRE_OK(czk_cs_witness_get(w, &in, &ni, &aux, &na));
    REQUIRE_OK(czk_cs_prove_get(p, &as));
    CHECK_EQ_U64(ni, as.n_input);
    REQUIRE(na == as.n_aux);
    CHECK_MEM(aux, as.aux, na * sizeof(czk_fr));
    CHECK_MEM(in, as.input, ni * sizeof(czk_fr));
    czk_cs_destroy(w);
    czk_cs_destroy(p);
}

CZK_TEST(cs_errors)
{
    czk_cs *cs;
    czk_var v;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    CHECK(czk_cs_alloc(cs, &v, NULL, "missing", 7) == CZK_ERR_MISSING_ASSIGNMENT);
    CHECK(strstr(czk_last_error(), "missing") != NULL);
    /* a constraint naming an unallocated variable */
    czk_lc_term t = {9, 0, CZK_FR_ONE};
    czk_lc_view a = {NULL, &t, 0, 1}, z = {NULL, NULL, 0, 0};
    CHECK(czk_cs_enforce(cs, &a, &z, &z, "bad", CZK_NOIDX) == CZK_ERR_INVALID_ARG);
    /* an unsatisfied constraint: 1 * 1 = 0 */
    czk_lc_term one = {0, 0, CZK_FR_ONE};
    czk_lc_view o = {&one, NULL, 1, 0};
    REQUIRE_OK(czk_cs_enforce(cs, &o, &o, &z, "one is zero", CZK_NOIDX));
    CHECK(czk_cs_prove_check(cs) == CZK_ERR_UNSATISFIED);
    CHECK(czk_cs_test_check(cs) == CZK_ERR_INVALID_ARG);
    czk_csr A, B, C;
    CHECK(czk_cs_shape_csr(cs, &A, &B, &C) == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    CHECK(czk_cs_enforce(cs, &a, &z, &z, "bad", CZK_NOIDX) == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
    CHECK(czk_cs_create(&cs, (czk_cs_backend)9, CZK_LC_VEC, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(cs == NULL);
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
    CHECK(czk_cs_alloc_input(cs, &v, NULL, "in", CZK_NOIDX) == CZK_ERR_MISSING_ASSIGNMENT);
    CHECK(czk_cs_test_set(cs, czk_var_aux(5), &CZK_FR_ONE) == CZK_ERR_INVALID_ARG);
    CHECK(czk_cs_test_find_var(cs, &v, "nope") == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
}
