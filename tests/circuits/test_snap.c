/* The EmptySectorUpdate (SnapDeals) partition circuit: the constants of
 * every production shape, the closed-form counts against real synthesis
 * (the reference's asserted 32GiB count and gadget counts literally),
 * satisfaction by generated updates with the verifier's public inputs,
 * named failures of altered witnesses, every LC variant and backend, bad
 * input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "czk/czk.h"
#include "czk/snap.h"

static int asan(void)
{
    return getenv("CZK_TEST_ASAN") != NULL;
}

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

/* Per production size: the constants of storage-proofs-update constants.rs
 * and the circuit's counts (constraints without the input rows). 32GiB's
 * 81,049,499 is the figure the reference asserts. */
static const struct {
    uint64_t size;
    uint32_t partitions, challenges, apex, h, hs0, digests;
    uint64_t constraints;
} production[] = {
    {2 * KIB, 1, 10, 8, 1, 1, 1, 0},
    {8 * MIB, 4, 10, 128, 10, 7, 1, 0},
    {512 * MIB, 16, 86, 128, 10, 7, 8, 0},
    {32 * GIB, 16, 86, 128, 10, 7, 10, 81049499},
    {64 * GIB, 16, 86, 128, 10, 7, 10, 0},
};
#define N_PRODUCTION (sizeof production / sizeof production[0])

CZK_TEST(snap_production_shapes)
{
    for (size_t i = 0; i < N_PRODUCTION; i++) {
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_of(&s, production[i].size));
        CHECK_EQ_U64(s.update_proof, i);
        CHECK_EQ_U64(s.tree.nodes, production[i].size / 32);
        CHECK_EQ_U64(s.partitions, production[i].partitions);
        CHECK_EQ_U64(s.challenges, production[i].challenges);
        CHECK_EQ_U64(s.apex_leaves, production[i].apex);
        CHECK_EQ_U64(s.h, production[i].h);
        CHECK_EQ_U64(s.hs[0], production[i].hs0);
        CHECK_EQ_U64(czk_snap_digests(&s), production[i].digests);
        czk_snap_counts c;
        czk_snap_circuit_counts(&c, &s);
        CHECK_EQ_U64(c.inputs, 5);
        printf("  %s: %llu inputs, %llu aux, %llu constraints\n", czk_snap_proof_name(s.update_proof),
               (unsigned long long)c.inputs, (unsigned long long)c.aux, (unsigned long long)c.constraints);
        if (production[i].constraints) CHECK_EQ_U64(c.constraints, production[i].constraints);
    }
}

CZK_TEST(snap_counts_by_synthesis)
{
    for (size_t i = 0; i < N_PRODUCTION; i++) {
        if (production[i].size >= 32 * GIB && asan()) continue;
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_of(&s, production[i].size));
        czk_snap_counts want, got;
        czk_snap_circuit_counts(&want, &s);
        double t0 = czk_now();
        REQUIRE_OK(czk_snap_count(&got, &s, CZK_LC_VEC));
        printf("  %s counted by synthesis in %.1f s\n", czk_snap_proof_name(s.update_proof), czk_now() - t0);
        CHECK_EQ_U64(got.constraints, want.constraints);
        CHECK_EQ_U64(got.aux, want.aux);
        CHECK_EQ_U64(got.inputs, want.inputs);
    }
}

/* A generated update of shape s satisfies every partition's circuit (TEST
 * backend), with the verifier's public inputs as the circuit's inputs. */
static void check_generated(const czk_snap_shape *s, uint64_t seed, int all_partitions)
{
    czk_snap_vanilla v;
    double t0 = czk_now();
    REQUIRE_OK(czk_snap_gen(&v, s, seed));
    double t1 = czk_now();
    CHECK_OK(czk_snap_vanilla_check(&v));
    printf("  %s (%llu nodes): generated in %.2f s, checked in %.2f s\n", czk_snap_proof_name(s->update_proof),
           (unsigned long long)s->tree.nodes, t1 - t0, czk_now() - t1);
    for (uint32_t k = 0; k < s->partitions; k += all_partitions ? 1 : s->partitions - 1) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(czk_snap_synthesize(cs, s, &v, k));
        CHECK_OK(czk_cs_test_check(cs));
        if (czk_cs_test_check(cs) != CZK_OK) {
            int64_t w = czk_cs_test_which_unsatisfied(cs);
            printf("  unsatisfied: %s\n", w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : "?");
        }
        czk_snap_counts want;
        czk_snap_circuit_counts(&want, s);
        CHECK_EQ_U64(cs->n_constraints, want.constraints);
        CHECK_EQ_U64(cs->n_aux, want.aux);
        REQUIRE(cs->n_inputs == 5);
        czk_fr pub[4], got;
        REQUIRE_OK(czk_snap_public_inputs(pub, s, k, s->h, &v.comm_r_old, &v.comm_d_new, &v.comm_r_new));
        for (uint32_t i = 0; i < 4; i++) {
            REQUIRE_OK(czk_cs_value(cs, &got, czk_var_input(i + 1)));
            CHECK_MSG(czk_fr_eq(&got, &pub[i]), "partition %u: public input %u differs from the verifier's", k, i);
        }
        czk_cs_destroy(cs);
        if (s->partitions == 1) break;
    }
    czk_snap_vanilla_free(&v);
}

CZK_TEST(snap_generated_satisfied)
{
    czk_snap_shape s;
    REQUIRE_OK(czk_snap_shape_of(&s, 2 * KIB));
    check_generated(&s, 1, 1);
}

/* Larger shapes through the PROVE backend (a * b = c on every row): 8MiB
 * (4 partitions, 10M constraints) and the reference's small test sizes
 * 1KiB .. 32KiB in their tree shapes (constants.rs validate_tree_r_shape). */
static void check_generated_prove(const czk_snap_shape *s, uint64_t seed)
{
    czk_snap_vanilla v;
    double t0 = czk_now();
    REQUIRE_OK(czk_snap_gen(&v, s, seed));
    double t1 = czk_now();
    CHECK_OK(czk_snap_vanilla_check(&v));
    printf("  %llu nodes (%u partitions): generated in %.2f s, checked in %.2f s\n", (unsigned long long)s->tree.nodes,
           s->partitions, t1 - t0, czk_now() - t1);
    uint32_t ks[2] = {0, s->partitions - 1};
    for (int i = 0; i < (s->partitions > 1 ? 2 : 1); i++) {
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(czk_snap_synthesize(cs, s, &v, ks[i]));
        CHECK_OK(czk_cs_prove_check(cs));
        czk_cs_destroy(cs);
    }
    czk_snap_vanilla_free(&v);
}

CZK_TEST(snap_generated_satisfied_sizes)
{
    static const struct {
        uint64_t nodes;
        uint32_t base, sub, top;
    } custom[] = {{32, 8, 4, 0}, {128, 8, 2, 0}, {256, 8, 4, 0}, {512, 8, 8, 0}, {1024, 8, 8, 2}};
    for (size_t i = 0; i < sizeof custom / sizeof custom[0]; i++) {
        if (asan() && custom[i].nodes > 256) continue;
        czk_snap_shape s;
        REQUIRE_OK(czk_snap_shape_custom(&s, custom[i].nodes, custom[i].base, custom[i].sub, custom[i].top));
        check_generated_prove(&s, 10 + i);
    }
    if (asan()) return;
    czk_snap_shape s;
    REQUIRE_OK(czk_snap_shape_of(&s, 8 * MIB));
    check_generated_prove(&s, 3);
}
