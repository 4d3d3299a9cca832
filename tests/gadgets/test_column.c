/* Filecoin column hash: native == circuit, 598 / 311 constraints, tampering named. */
#include "cs/cs_internal.h"
#include "czk/poseidon.h"
#include "runner.h"

CZK_TEST(column_hash_circuit) {
    czk_rng *rng = czk_test_rng();
    static const size_t NS[2] = {2, 11};
    static const uint64_t COUNTS[2] = {311, 598};
    for (int k = 0; k < 2; k++) {
        size_t n = NS[k];
        czk_fr rows[11], want, got;
        czk_var in[11], out;
        for (size_t i = 0; i < n; i++) czk_fr_random(&rows[i], rng);
        REQUIRE_OK(czk_column_hash(&want, rows, n));
        REQUIRE_OK(czk_poseidon_hash(&got, rows, n));
        CHECK(czk_fr_eq(&want, &got));
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        for (size_t i = 0; i < n; i++) REQUIRE_OK(czk_cs_alloc(cs, &in[i], &rows[i], "row", i));
        czk_cs_ns_push(cs, "column", CZK_NOIDX);
        REQUIRE_OK(czk_column_hash_circuit_any(cs, &out, &got, in, rows, n));
        czk_cs_ns_pop(cs);
        CHECK_EQ_U64(cs->n_constraints, COUNTS[k]);
        CHECK_OK(czk_cs_test_check(cs));
        CHECK(czk_fr_eq(&got, &want));
        /* alter one row: the first S-box of that row fails */
        czk_fr bad;
        czk_fr_add(&bad, &rows[n - 1], &CZK_FR_ONE);
        REQUIRE_OK(czk_cs_test_set(cs, in[n - 1], &bad));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        int64_t w = czk_cs_test_which_unsatisfied(cs);
        const char *name = w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : NULL;
        CHECK_MSG(name && strstr(name, "column/first round/quintic s-box") != NULL, "altered row broke '%s'",
                  name ? name : "(none)");
        czk_cs_destroy(cs);
    }
    czk_fr rows[4] = {{{0}}}, out;
    CHECK(czk_column_hash(&out, rows, 4) == CZK_ERR_UNSUPPORTED);
    CHECK(strstr(czk_last_error(), "column") != NULL);
}
