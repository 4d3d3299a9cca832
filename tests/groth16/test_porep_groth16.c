/* Groth16 on the PoRep circuit end to end: seeded setup from the SHAPE
 * backend, proof from the PROVE backend and a synthetic C1, verification
 * with the public inputs the verifier derives from the C1 data
 * (czk_porep_public_inputs). Release only: the smallest custom shape is
 * already 1.34M constraints (every challenge costs two label gadgets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/porep.h"
#include "czk/porep_kind.h"
#include "czk/sha256.h"

static czk_status setup_for(czk_groth16_params *p, const czk_fc_shape *shape, uint64_t seed)
{
    return czk_kind_setup(p, &czk_kind_porep, shape, &seed, NULL, NULL);
}

static czk_status prove_for(czk_groth16_proof *pr, const czk_groth16_params *p, const czk_fc_c1 *c1,
                            czk_rng *rng)
{
    czk_cs_sizes sizes;
    CZK_TRY(czk_porep_sizes(&sizes, &c1->shape));
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_DEFAULT, &sizes));
    czk_status s = czk_porep_synthesize(cs, &c1->shape, c1, 0);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    czk_cs_assignment w;
    if (s == CZK_OK) s = czk_cs_prove_get(cs, &w);
    if (s == CZK_OK) s = czk_groth16_params_match(p, &w);
    if (s == CZK_OK) {
        czk_groth16_prove_opts o = {0};
        o.rng = rng;
        s = czk_groth16_prove(pr, p, &w, &o);
    }
    czk_cs_destroy(cs);
    return s;
}

/* Proofs for two C1s of one shape: each verifies with its own inputs only;
 * a changed input and a changed proof are rejected. The first proof's r, s
 * come from a fixed seed: its bytes hash to `golden` (SHA-256 of the
 * 192-byte encoding, recorded from commit 60fe5ea's code, before the
 * provers shared one proof assembly). */
static void run_shape(const czk_fc_shape *shape, const char *golden)
{
    czk_groth16_params p;
    REQUIRE_OK(setup_for(&p, shape, 5));
    czk_fc_c1 c1a, c1b;
    REQUIRE_OK(czk_fc_gen_c1(&c1a, shape, 1, NULL, NULL));
    REQUIRE_OK(czk_fc_gen_c1(&c1b, shape, 2, NULL, NULL));
    size_t n = czk_porep_num_inputs(shape) - 1;
    CHECK_EQ_U64(p.vk.n_ic, n + 1);
    czk_fr *in_a = malloc(n * sizeof *in_a), *in_b = malloc(n * sizeof *in_b);
    REQUIRE(in_a && in_b);
    REQUIRE_OK(czk_porep_public_inputs(in_a, &c1a, 0));
    REQUIRE_OK(czk_porep_public_inputs(in_b, &c1b, 0));
    CHECK(memcmp(in_a, in_b, n * sizeof *in_a) != 0);

    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &p.vk));
    czk_groth16_proof pa, pb;
    czk_rng fixed;
    czk_rng_seed(&fixed, 0x601d2c);
    REQUIRE_OK(prove_for(&pa, &p, &c1a, &fixed));
    CHECK_OK(czk_groth16_verify(&pvk, &pa, in_a, n));
    {
        uint8_t e[CZK_GROTH16_PROOF_BYTES], d[CZK_SHA256_DIGEST];
        char hex[2 * CZK_SHA256_DIGEST + 1];
        czk_groth16_proof_encode(e, &pa);
        czk_sha256(d, e, sizeof e);
        for (int i = 0; i < CZK_SHA256_DIGEST; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
        printf("  proof digest: %s\n", hex);
        CHECK_MSG(strcmp(hex, golden) == 0, "proof digest %s, golden %s", hex, golden);
    }
    CHECK(czk_groth16_verify(&pvk, &pa, in_b, n) == CZK_ERR_VERIFY);
    REQUIRE_OK(prove_for(&pb, &p, &c1b, czk_test_rng()));
    CHECK_OK(czk_groth16_verify(&pvk, &pb, in_b, n));
    CHECK(czk_groth16_verify(&pvk, &pb, in_a, n) == CZK_ERR_VERIFY);

    /* each public input matters */
    for (size_t i = 0; i < n; i += (n > 8 ? n / 8 : 1)) {
        czk_fr keep = in_a[i];
        czk_fr_add(&in_a[i], &in_a[i], &CZK_FR_ONE);
        CHECK_MSG(czk_groth16_verify(&pvk, &pa, in_a, n) == CZK_ERR_VERIFY, "input %zu changed", i);
        in_a[i] = keep;
    }
    CHECK(czk_groth16_verify(&pvk, &pa, in_a, n - 1) == CZK_ERR_INVALID_ARG);

    /* round trip through the 192-byte encoding; a flipped bit never verifies */
    uint8_t enc[CZK_GROTH16_PROOF_BYTES];
    czk_groth16_proof_encode(enc, &pa);
    czk_groth16_proof dec;
    REQUIRE_OK(czk_groth16_proof_decode(&dec, enc));
    CHECK_OK(czk_groth16_verify(&pvk, &dec, in_a, n));
    for (int bit = 5; bit < CZK_GROTH16_PROOF_BYTES * 8; bit += 97) {
        enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        czk_status s = czk_groth16_proof_decode(&dec, enc);
        if (s == CZK_OK) s = czk_groth16_verify(&pvk, &dec, in_a, n);
        CHECK_MSG(s != CZK_OK, "bit %d flipped still verifies", bit);
        enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    /* batch of the two proofs */
    czk_groth16_proof both[2] = {pa, pb};
    czk_fr *rows = malloc(2 * n * sizeof *rows);
    REQUIRE(rows);
    memcpy(rows, in_a, n * sizeof *rows);
    memcpy(rows + n, in_b, n * sizeof *rows);
    CHECK_OK(czk_groth16_verify_batch(&pvk, both, 2, rows, n, czk_test_rng()));
    memcpy(rows + n, in_a, n * sizeof *rows);
    CHECK(czk_groth16_verify_batch(&pvk, both, 2, rows, n, czk_test_rng()) == CZK_ERR_VERIFY);

    free(rows);
    free(in_a);
    free(in_b);
    czk_fc_c1_free(&c1a);
    czk_fc_c1_free(&c1b);
    czk_groth16_params_clear(&p);
}

CZK_TEST(porep_custom_prove_verify)
{
    if (getenv("CZK_TEST_ASAN")) {
        printf("  (skipped under ASan: 1.34M-constraint setup)\n");
        return;
    }
    czk_fc_shape shape;
    REQUIRE_OK(czk_fc_shape_custom(&shape, 64, 2, 1, 1, 8, 0, 0));
    run_shape(&shape, "b3e6d61cdcbb81e5bd536062da975fa2705f8c5bbc40ffe4e1a605a6af697c5f");
}

CZK_TEST(porep_2kib_prove_verify)
{
    if (getenv("CZK_TEST_ASAN")) {
        printf("  (skipped under ASan: the 2KiB partition)\n");
        return;
    }
    czk_fc_shape shape;
    REQUIRE_OK(czk_fc_shape_of_size(&shape, 2048));
    run_shape(&shape, "ed202ebcecb0f6237a889b55404d96c55e486ee1ffe5619e8275e530088d9baf");
}
