/* Merkle inclusion circuit (Poseidon): docs/filecoin.md#gadget-counts counts for Filecoin's test
 * shapes (64 leaves per base tree), satisfiability for every leaf position
 * kind, tampered sibling / path bit / leaf / root rejected with a named
 * constraint, all LC variants identical. */
#include <stdlib.h>

#include "cs/cs_internal.h"
#include "czk/merkle.h"
#include "runner.h"

typedef struct shape_case {
    czk_merkle_shape s;
    uint64_t count_public, count_private;
    const char *label;
} shape_case;

static const shape_case CASES[] = {
    {{CZK_MERKLE_POSEIDON, 2, 6, 0, 0}, 1887, 1886, "2"},
    {{CZK_MERKLE_POSEIDON, 4, 3, 0, 0}, 1164, 1163, "4"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 0, 0}, 1063, 1062, "8"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 2, 0}, 1377, 1376, "8-2"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 8, 0}, 1593, 1592, "8-8"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 4, 2}, 1764, 1763, "8-4-2"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 8, 2}, 1907, 1906, "8-8-2"},
    {{CZK_MERKLE_POSEIDON, 8, 2, 2, 4}, 1764, 1763, "8-2-4"},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

typedef struct tree {
    czk_fr *leaves, root, sib[CZK_MERKLE_MAX_LEVELS * 7];
    uint64_t n;
} tree;

static int tree_make(tree *t, const czk_merkle_shape *s, czk_rng *rng) {
    t->n = czk_merkle_leaves(s);
    t->leaves = malloc(t->n * sizeof(czk_fr));
    if (!t->leaves) return 0;
    for (uint64_t i = 0; i < t->n; i++) czk_fr_random(&t->leaves[i], rng);
    return 1;
}

static czk_status synth(czk_cs *cs, const czk_merkle_shape *s, tree *t, uint64_t idx, int priv) {
    CZK_TRY(czk_merkle_tree_path(&t->root, t->sib, s, t->leaves, idx));
    czk_cs_ns_push(cs, "por", CZK_NOIDX);
    czk_status st = czk_merkle_por_circuit_any(cs, s, NULL, &t->leaves[idx], t->sib, idx, NULL, &t->root, priv);
    czk_cs_ns_pop(cs);
    return st;
}

CZK_TEST(merkle_circuit_counts) {
    czk_rng *rng = czk_test_rng();
    for (size_t k = 0; k < NCASES; k++) {
        const shape_case *c = &CASES[k];
        tree t;
        REQUIRE(tree_make(&t, &c->s, rng));
        const uint64_t idxs[3] = {0, t.n - 1, czk_rng_below(rng, t.n)};
        for (int priv = 0; priv < 2; priv++)
            for (int j = 0; j < 3; j++) {
                czk_cs *cs;
                REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
                REQUIRE_OK(synth(cs, &c->s, &t, idxs[j], priv));
                CHECK_MSG(cs->n_constraints == (priv ? c->count_private : c->count_public),
                          "shape %s %s root: %llu constraints", c->label, priv ? "private" : "public",
                          (unsigned long long)cs->n_constraints);
                CHECK_EQ_U64(cs->n_inputs, priv ? 2 : 3);
                CHECK_OK(czk_cs_test_check(cs));
                /* public inputs: packed index, root */
                czk_fr v, want;
                REQUIRE_OK(czk_cs_value(cs, &v, czk_var_input(1)));
                czk_fr_from_u64(&want, idxs[j]);
                CHECK_MSG(czk_fr_eq(&v, &want), "shape %s: packed index input", c->label);
                if (!priv) {
                    REQUIRE_OK(czk_cs_value(cs, &v, czk_var_input(2)));
                    CHECK(czk_fr_eq(&v, &t.root));
                }
                czk_cs_destroy(cs);
            }
        free(t.leaves);
    }
}

/* Exhaustive positions for the small single-level-type shapes (every insert case). */
CZK_TEST(merkle_circuit_all_positions) {
    czk_rng *rng = czk_test_rng();
    for (size_t k = 0; k < 3; k++) {
        const shape_case *c = &CASES[k];
        tree t;
        REQUIRE(tree_make(&t, &c->s, rng));
        size_t step = getenv("CZK_TEST_ASAN") ? 13 : 1;
        for (uint64_t idx = 0; idx < t.n; idx += step) {
            czk_cs *cs;
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
            REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
            CHECK_MSG(czk_cs_test_check(cs) == CZK_OK, "shape %s index %llu: %s", c->label, (unsigned long long)idx,
                      czk_last_error());
            czk_cs_destroy(cs);
        }
        free(t.leaves);
    }
}

static void expect_unsat(czk_cs *cs, const char *path, const char *label, const char *must_contain) {
    czk_var v;
    czk_fr old, bad;
    if (czk_cs_test_find_var(cs, &v, path) != CZK_OK) {
        CHECK_MSG(0, "%s: no variable '%s'", label, path);
        return;
    }
    if (czk_cs_value(cs, &old, v) != CZK_OK) return;
    /* booleans flip 0 <-> 1, other values move by one */
    if (czk_fr_is_zero(&old)) bad = CZK_FR_ONE;
    else if (czk_fr_is_one(&old) && strstr(path, "bit")) bad = CZK_FR_ZERO;
    else czk_fr_add(&bad, &old, &CZK_FR_ONE);
    CHECK(czk_cs_test_set(cs, v, &bad) == CZK_OK);
    CHECK_MSG(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED, "%s: altering '%s' left it satisfied", label, path);
    int64_t w = czk_cs_test_which_unsatisfied(cs);
    const char *name = w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : NULL;
    CHECK_MSG(name && strstr(name, must_contain), "%s: altering '%s' broke '%s', expected one naming '%s'", label,
              path, name ? name : "(none)", must_contain);
    CHECK(czk_cs_test_set(cs, v, &old) == CZK_OK);
    CHECK_OK(czk_cs_test_check(cs));
}

CZK_TEST(merkle_circuit_tamper) {
    czk_rng *rng = czk_test_rng();
    for (size_t k = 0; k < NCASES; k++) {
        const shape_case *c = &CASES[k];
        tree t;
        REQUIRE(tree_make(&t, &c->s, rng));
        uint64_t idx = czk_rng_below(rng, t.n);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
        REQUIRE_OK(czk_cs_test_check(cs));
        expect_unsat(cs, "por/value/num", c->label, "por/base/merkle tree hash 0/");
        expect_unsat(cs, "por/base/merkle tree hash 0/path element 0/num", c->label, "por/base/merkle tree hash 0/");
        expect_unsat(cs, "por/base/merkle tree hash 1/index bit 0/boolean", c->label, "por/base/merkle tree hash 1/");
        expect_unsat(cs, "por/root_value/num", c->label, "por/enforce root is correct");
        if (c->s.sub_arity)
            expect_unsat(cs, "por/sub/merkle tree hash 0/path element 0/num", c->label, "por/sub/merkle tree hash 0/");
        if (c->s.top_arity)
            expect_unsat(cs, "por/top/merkle tree hash 0/index bit 0/boolean", c->label, "por/top/merkle tree hash 0/");
        czk_cs_destroy(cs);

        /* A wrong path value given as the witness: unsatisfied at the root. */
        REQUIRE_OK(czk_merkle_tree_path(&t.root, t.sib, &c->s, t.leaves, idx));
        czk_fr_add(&t.sib[1], &t.sib[1], &CZK_FR_ONE);
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(czk_merkle_por_circuit_any(cs, &c->s, NULL, &t.leaves[idx], t.sib, idx, NULL, &t.root, 0));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        int64_t w = czk_cs_test_which_unsatisfied(cs);
        const char *name = w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : NULL;
        CHECK_MSG(name && strcmp(name, "enforce root is correct") == 0, "%s: wrong sibling broke '%s'", c->label,
                  name ? name : "(none)");
        czk_cs_destroy(cs);
        free(t.leaves);
    }
}

CZK_TEST(merkle_circuit_variants_backends) {
    czk_rng *rng = czk_test_rng();
    for (size_t k = 0; k < NCASES; k++) {
        const shape_case *c = &CASES[k];
        tree t;
        REQUIRE(tree_make(&t, &c->s, rng));
        uint64_t idx = czk_rng_below(rng, t.n);
        char h0[65] = {0}, h[65];
        for (int v = 0; v < CZK_LC_KIND_COUNT; v++) {
            czk_cs *cs;
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, (czk_lc_kind)v, NULL));
            REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
            CHECK_OK(czk_cs_test_check(cs));
            czk_cs_test_hash(cs, h);
            if (v == 0) memcpy(h0, h, sizeof h);
            CHECK_MSG(strcmp(h, h0) == 0, "shape %s: LC %s hash differs", c->label, czk_lc_kind_name((czk_lc_kind)v));
            uint32_t naux = cs->n_aux;
            czk_cs_destroy(cs);

            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, (czk_lc_kind)v, NULL));
            REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
            CHECK_EQ_U64(cs->n_constraints, c->count_public);
            CHECK_OK(czk_cs_prove_check(cs));
            czk_cs_destroy(cs);

            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, (czk_lc_kind)v, NULL));
            REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
            CHECK_EQ_U64(cs->n_aux, naux);
            CHECK_EQ_U64(cs->n_inputs, 3);
            czk_cs_destroy(cs);

            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, (czk_lc_kind)v, NULL));
            REQUIRE_OK(czk_merkle_por_circuit_any(cs, &c->s, NULL, NULL, NULL, 0, NULL, NULL, 0));
            CHECK_EQ_U64(cs->n_constraints, c->count_public);
            CHECK_EQ_U64(cs->n_aux, naux);
            czk_cs_destroy(cs);
        }
        free(t.leaves);
    }
}

/* Leaf and root given as existing variables (as the PoRep circuit does). */
CZK_TEST(merkle_circuit_existing_vars) {
    czk_rng *rng = czk_test_rng();
    const shape_case *c = &CASES[4];
    tree t;
    REQUIRE(tree_make(&t, &c->s, rng));
    uint64_t idx = czk_rng_below(rng, t.n);
    REQUIRE_OK(czk_merkle_tree_path(&t.root, t.sib, &c->s, t.leaves, idx));
    czk_cs *cs;
    czk_var leaf, root;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
    REQUIRE_OK(czk_cs_alloc(cs, &leaf, &t.leaves[idx], "leaf", CZK_NOIDX));
    REQUIRE_OK(czk_cs_alloc(cs, &root, &t.root, "root", CZK_NOIDX));
    uint32_t before = cs->n_aux;
    REQUIRE_OK(czk_merkle_por_circuit_any(cs, &c->s, &leaf, NULL, t.sib, idx, &root, NULL, 1));
    CHECK_EQ_U64(cs->n_constraints, c->count_private);
    CHECK_OK(czk_cs_test_check(cs));
    czk_cs *cs2;
    REQUIRE_OK(czk_cs_create(&cs2, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
    REQUIRE_OK(czk_merkle_por_circuit_any(cs2, &c->s, NULL, &t.leaves[idx], t.sib, idx, NULL, &t.root, 1));
    CHECK_EQ_U64(cs->n_aux - before, cs2->n_aux - 2);
    czk_cs_destroy(cs2);
    /* a leaf variable holding another value fails */
    czk_fr bad;
    czk_fr_add(&bad, &t.leaves[idx], &CZK_FR_ONE);
    REQUIRE_OK(czk_cs_test_set(cs, leaf, &bad));
    CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
    czk_cs_destroy(cs);
    free(t.leaves);
}

CZK_TEST(merkle_circuit_errors) {
    czk_cs *cs;
    czk_fr z = CZK_FR_ZERO, sib[12] = {{{0}}};
    czk_merkle_shape bad = {CZK_MERKLE_POSEIDON, 3, 2, 0, 0}, ok = {CZK_MERKLE_POSEIDON, 2, 2, 0, 0};
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
    CHECK(czk_merkle_por_circuit_any(cs, &bad, NULL, &z, sib, 0, NULL, &z, 0) == CZK_ERR_INVALID_ARG);
    CHECK(czk_merkle_por_circuit_any(cs, &ok, NULL, &z, sib, 4, NULL, &z, 0) == CZK_ERR_INVALID_ARG);
    CHECK(czk_merkle_por_circuit_any(cs, &ok, NULL, &z, NULL, 0, NULL, &z, 0) == CZK_ERR_MISSING_ASSIGNMENT);
    czk_cs_destroy(cs);
}

/* SHA-256 trees (tree D): docs/filecoin.md#gadget-counts counts with 64 leaves, satisfied with the
 * native (OpenSSL-checked) root, a wrong sibling named. */
CZK_TEST(merkle_circuit_sha256) {
    czk_rng *rng = czk_test_rng();
    static const shape_case SHA[3] = {
        {{CZK_MERKLE_SHA256, 2, 6, 0, 0}, 272295, 272294, "sha 2"},
        {{CZK_MERKLE_SHA256, 4, 3, 0, 0}, 216258, 216257, "sha 4"},
        {{CZK_MERKLE_SHA256, 8, 2, 0, 0}, 250987, 250986, "sha 8"},
    };
    int n = getenv("CZK_TEST_ASAN") ? 1 : 3;
    for (int k = 0; k < n; k++) {
        const shape_case *c = &SHA[k];
        tree t;
        REQUIRE(tree_make(&t, &c->s, rng));
        uint64_t idx = czk_rng_below(rng, t.n);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(synth(cs, &c->s, &t, idx, 0));
        CHECK_MSG(cs->n_constraints == c->count_public, "%s: %llu constraints", c->label,
                  (unsigned long long)cs->n_constraints);
        CHECK_EQ_U64(cs->n_inputs, 3);
        CHECK_OK(czk_cs_test_check(cs));
        expect_unsat(cs, "por/base/merkle tree hash 0/path element 0/num", c->label, "por/base/merkle tree hash 0/");
        expect_unsat(cs, "por/base/merkle tree hash 1/index bit 0/boolean", c->label, "por/base/merkle tree hash 1/");
        czk_cs_destroy(cs);
        if (k == 0) {
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_DEFAULT, NULL));
            REQUIRE_OK(synth(cs, &c->s, &t, idx, 1));
            czk_cs_destroy(cs);
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_DEFAULT, NULL));
            REQUIRE_OK(czk_merkle_por_circuit_any(cs, &c->s, NULL, NULL, NULL, 0, NULL, NULL, 1));
            CHECK_EQ_U64(cs->n_constraints, c->count_private);
            czk_cs_destroy(cs);
        }
        free(t.leaves);
    }
}
