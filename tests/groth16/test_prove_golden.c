/* Proof bytes pinned to golden values: SHA-256 over the 192-byte encodings
 * of proofs whose r, s come from a czk_rng with a fixed seed, for random
 * circuits (bellperson semantics: single proofs on 1 and 2 threads, and the
 * batched prover on the same stream) and for a circom circuit (snarkjs
 * semantics: czk_circom_prove on a zkey from the seeded insecure setup).
 * The constants were recorded from commit 60fe5ea's code, before the three
 * provers shared one proof assembly and one H step; any changed bit of any
 * proof fails here. The 2KiB PoRep partition is pinned the same way in
 * test_porep_groth16.c (Release only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "common/random_circuit.h"
#include "czk/circom.h"
#include "czk/czk.h"
#include "czk/groth16.h"
#include "czk/sha256.h"

static void hex32(char out[65], const uint8_t d[32])
{
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* SHA-256 of the encodings of n proofs, as hex. */
static void proofs_digest(char out[65], const czk_groth16_proof *pr, size_t n)
{
    czk_sha256_ctx c;
    czk_sha256_init(&c);
    for (size_t i = 0; i < n; i++) {
        uint8_t e[CZK_GROTH16_PROOF_BYTES];
        czk_groth16_proof_encode(e, &pr[i]);
        czk_sha256_update(&c, e, sizeof e);
    }
    uint8_t d[32];
    czk_sha256_final(&c, d);
    hex32(out, d);
}

static czk_status prove_batch(czk_groth16_proof *out, const czk_groth16_params *p,
                              const czk_cs_assignment *const *w, size_t n, int threads, czk_rng *rng)
{
    czk_groth16_prove_opts o = {0};
    o.threads = threads;
    o.rng = rng;
    return czk_groth16_prove_batch(out, p, w, n, &o);
}

/* ---- random circuits, bellperson semantics ------------------------------------ */

typedef struct rc_case {
    uint64_t shape_seed;
    size_t n_in, n_free, n_mul; /* constraints: n_mul + n_free + 1 + n_in */
    const char *digest;         /* of the NW proofs */
} rc_case;

#define NW 3

/* 50 constraints (m = 64), exactly 64 (no padding), 65 (m = 128), one
 * input only (ONE), and a larger one. */
static const rc_case RC[] = {
    {11, 3, 6, 40, 
     "ea63bc4335368cb07e19b725a58817444e32ffaef6c7ced5cba23e339569fa83"},
    {12, 3, 6, 54, 
     "d40af30d8d2577e1e6c3760f4cc0951fe0fe6d6d65fdb7dc87c70029d800e5b2"},
    {13, 3, 6, 55, 
     "fc5267da6903ddbbf2b73e721e1e500787cc366ad8d2f2dae6460cddd762a534"},
    {14, 0, 2, 5, 
     "c0de5f7404f0e10f4800ea1e9b4f14d7153901aaf87865ea262feed5d9011db1"},
    {15, 5, 12, 400, 
     "b3b8367e5e4ffe6b7c98bee2d397d6e5f5c9a1b6dfc768a488728a65dfbdc797"},
};

static czk_status rc_params(czk_groth16_params *p, const rc_case *c)
{
    czk_cs *cs = NULL;
    czk_fr *pub = malloc((c->n_in + 1) * sizeof *pub);
    czk_csr A = {0}, B = {0}, C = {0};
    czk_status s = pub ? czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL) : CZK_ERR_NOMEM;
    if (s == CZK_OK) s = czk_test_random_circuit(cs, c->shape_seed, 1, c->n_in, c->n_free, c->n_mul, pub);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    if (s == CZK_OK) s = czk_cs_shape_csr(cs, &A, &B, &C);
    if (s == CZK_OK) {
        czk_groth16_setup_opts o = {0};
        o.use_seed = 1;
        o.seed = c->shape_seed * 7 + 3;
        o.threads = 1;
        s = czk_groth16_setup(p, &A, &B, &C, cs->n_inputs, &o);
    }
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_cs_destroy(cs);
    free(pub);
    return s;
}

CZK_TEST(random_circuits_golden)
{
    for (size_t k = 0; k < sizeof RC / sizeof RC[0]; k++) {
        const rc_case *c = &RC[k];
        czk_groth16_params p;
        REQUIRE_OK(rc_params(&p, c));
        czk_groth16_pvk pvk;
        REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &p.vk));
        czk_cs *cs[NW];
        czk_cs_assignment w[NW];
        const czk_cs_assignment *wp[NW];
        czk_fr *pub = malloc(NW * (c->n_in + 1) * sizeof *pub);
        REQUIRE(pub);
        for (int i = 0; i < NW; i++) {
            REQUIRE_OK(czk_cs_create(&cs[i], CZK_CS_PROVE, CZK_LC_VEC, NULL));
            REQUIRE_OK(czk_test_random_circuit(cs[i], c->shape_seed, 40 + (uint64_t)i, c->n_in, c->n_free,
                                               c->n_mul, pub + (size_t)i * (c->n_in + 1)));
            REQUIRE_OK(czk_cs_finalize(cs[i]));
            REQUIRE_OK(czk_cs_prove_get(cs[i], &w[i]));
            wp[i] = &w[i];
        }
        czk_groth16_proof pr[NW];
        char d[65];
        const char *first = NULL;
        char first_buf[65];
        for (int threads = 1; threads <= 2; threads++) {
            czk_rng rng;
            czk_rng_seed(&rng, 0x601d0000u + (uint64_t)k);
            czk_groth16_prove_opts o = {0};
            o.threads = threads;
            o.rng = &rng;
            for (int i = 0; i < NW; i++) REQUIRE_OK(czk_groth16_prove(&pr[i], &p, wp[i], &o));
            proofs_digest(d, pr, NW);
            printf("  case %zu (%zu constraints), single, %d thread(s): %s\n", k, w[0].n_constraints, threads, d);
            CHECK_MSG(strcmp(d, c->digest) == 0, "case %zu single proofs on %d thread(s): %s, golden %s", k,
                      threads, d, c->digest);
            if (!first) snprintf(first_buf, sizeof first_buf, "%s", d), first = first_buf;
            for (int i = 0; i < NW; i++)
                CHECK_OK(czk_groth16_verify(&pvk, &pr[i], pub + (size_t)i * (c->n_in + 1), c->n_in));
        }
        for (int threads = 1; threads <= 2; threads++) {
            czk_rng rng;
            czk_rng_seed(&rng, 0x601d0000u + (uint64_t)k);
            REQUIRE_OK(prove_batch(pr, &p, wp, NW, threads, &rng));
            proofs_digest(d, pr, NW);
            printf("  case %zu, batch of %d, %d thread(s): %s\n", k, NW, threads, d);
            CHECK_MSG(strcmp(d, c->digest) == 0, "case %zu batch on %d thread(s): %s, golden %s", k, threads,
                      d, c->digest);
        }
        for (int i = 0; i < NW; i++) czk_cs_destroy(cs[i]);
        free(pub);
        czk_groth16_params_clear(&p);
    }
}

/* ---- a circom circuit, snarkjs semantics --------------------------------------- */

/* Wires: 0 = ONE, 1..2 outputs, 3..4 public inputs, 5..8 private inputs,
 * then one wire per multiplication. Constraint j < N_MUL:
 * (1..3 random terms) * (1..3 random terms) = z_j; then each output is
 * (z terms) * ONE = out, and one constraint with an empty B and C. Witness
 * inputs are drawn from 0, 1, -1 and random values, so the 0/1 pre-pass of
 * the MSMs sees every case. */
#define C_OUT 2
#define C_PUB 2
#define C_PRV 4
#define C_FIRST_Z (1 + C_OUT + C_PUB + C_PRV)
#define C_MUL 300
#define C_WIRES (C_FIRST_Z + C_MUL)
#define C_CONS (C_MUL + C_OUT + 1)

typedef struct c_term {
    uint32_t wire;
    czk_fr coef;
} c_term;

/* Terms of constraint j of matrix m (shape from the seeded srng). */
typedef struct c_circuit {
    uint32_t n[C_CONS][3];
    c_term t[C_CONS][3][3];
} c_circuit;

static void c_coef(czk_fr *c, czk_rng *srng)
{
    uint64_t k = czk_rng_below(srng, 4);
    if (k == 0)
        *c = CZK_FR_ONE;
    else if (k == 1)
        czk_fr_neg(c, &CZK_FR_ONE);
    else
        czk_fr_from_u64(c, czk_rng_below(srng, 1000) + 2);
}

static void c_shape(c_circuit *cc, uint64_t seed)
{
    czk_rng srng;
    czk_rng_seed(&srng, seed);
    memset(cc, 0, sizeof *cc);
    for (uint32_t j = 0; j < C_MUL; j++) {
        for (int m = 0; m < 2; m++) {
            cc->n[j][m] = 1 + (uint32_t)czk_rng_below(&srng, 3);
            for (uint32_t t = 0; t < cc->n[j][m]; t++) {
                /* a wire known before z_j: ONE, the inputs, earlier z */
                cc->t[j][m][t].wire = (uint32_t)czk_rng_below(&srng, C_FIRST_Z - C_OUT + j);
                if (cc->t[j][m][t].wire > 0) cc->t[j][m][t].wire += C_OUT;
                c_coef(&cc->t[j][m][t].coef, &srng);
            }
        }
        cc->n[j][2] = 1;
        cc->t[j][2][0].wire = C_FIRST_Z + j;
        cc->t[j][2][0].coef = CZK_FR_ONE;
    }
    for (uint32_t o = 0; o < C_OUT; o++) {
        uint32_t j = C_MUL + o;
        cc->n[j][0] = 2;
        for (int t = 0; t < 2; t++) {
            cc->t[j][0][t].wire = C_FIRST_Z + (uint32_t)czk_rng_below(&srng, C_MUL);
            c_coef(&cc->t[j][0][t].coef, &srng);
        }
        cc->n[j][1] = 1;
        cc->t[j][1][0].wire = 0;
        cc->t[j][1][0].coef = CZK_FR_ONE;
        cc->n[j][2] = 1;
        cc->t[j][2][0].wire = 1 + o;
        cc->t[j][2][0].coef = CZK_FR_ONE;
    }
    uint32_t j = C_MUL + C_OUT;
    cc->n[j][0] = 1;
    cc->t[j][0][0].wire = 1 + C_OUT;
    czk_fr_from_u64(&cc->t[j][0][0].coef, 5);
}

static czk_status c_r1cs(czk_circom_r1cs *r, const c_circuit *cc)
{
    memset(r, 0, sizeof *r);
    r->n_wires = C_WIRES;
    r->n_outputs = C_OUT;
    r->n_pub_inputs = C_PUB;
    r->n_prv_inputs = C_PRV;
    r->n_constraints = C_CONS;
    for (int m = 0; m < 3; m++) {
        r->start[m] = malloc((C_CONS + 1) * sizeof(uint64_t));
        r->wire[m] = malloc(C_CONS * 3 * sizeof(uint32_t));
        r->coef[m] = malloc(C_CONS * 3 * sizeof(czk_fr));
        if (!r->start[m] || !r->wire[m] || !r->coef[m]) {
            czk_circom_r1cs_clear(r);
            return czk_error(CZK_ERR_NOMEM, "test r1cs");
        }
        uint64_t k = 0;
        for (uint32_t j = 0; j < C_CONS; j++) {
            r->start[m][j] = k;
            for (uint32_t t = 0; t < cc->n[j][m]; t++, k++) {
                r->wire[m][k] = cc->t[j][m][t].wire;
                r->coef[m][k] = cc->t[j][m][t].coef;
            }
        }
        r->start[m][C_CONS] = k;
    }
    return CZK_OK;
}

static void c_lc(czk_fr *v, const c_circuit *cc, uint32_t j, int m, const czk_fr *w)
{
    *v = CZK_FR_ZERO;
    for (uint32_t t = 0; t < cc->n[j][m]; t++) {
        czk_fr p;
        czk_fr_mul(&p, &cc->t[j][m][t].coef, &w[cc->t[j][m][t].wire]);
        czk_fr_add(v, v, &p);
    }
}

static void c_witness(czk_fr *w, const c_circuit *cc, uint64_t seed)
{
    czk_rng vrng;
    czk_rng_seed(&vrng, seed);
    w[0] = CZK_FR_ONE;
    for (uint32_t i = 1 + C_OUT; i < C_FIRST_Z; i++) {
        uint64_t k = czk_rng_below(&vrng, 4);
        if (k == 0)
            w[i] = CZK_FR_ZERO;
        else if (k == 1)
            w[i] = CZK_FR_ONE;
        else if (k == 2)
            czk_fr_neg(&w[i], &CZK_FR_ONE);
        else
            czk_fr_random(&w[i], &vrng);
    }
    for (uint32_t j = 0; j < C_MUL; j++) {
        czk_fr a, b;
        c_lc(&a, cc, j, 0, w);
        c_lc(&b, cc, j, 1, w);
        czk_fr_mul(&w[C_FIRST_Z + j], &a, &b);
    }
    for (uint32_t o = 0; o < C_OUT; o++) c_lc(&w[1 + o], cc, C_MUL + o, 0, w);
}

static const char *const CIRCOM_DIGEST =
    "bc12de2319cea45c4b2348d6daea9e0b46212a16f96eab9fe089f46f3c25b54d";

CZK_TEST(circom_golden)
{
    c_circuit *cc = malloc(sizeof *cc);
    REQUIRE(cc);
    c_shape(cc, 0xc14c0);
    czk_circom_r1cs r;
    REQUIRE_OK(c_r1cs(&r, cc));
    char path[512];
    snprintf(path, sizeof path, "%s/golden.zkey", czk_test_tmpdir());
    czk_rng srng;
    czk_rng_seed(&srng, 0x2e7);
    REQUIRE_OK(czk_circom_zkey_setup_insecure(path, &r, &srng));
    czk_circom_zkey z;
    REQUIRE_OK(czk_circom_zkey_read(&z, path, 0));
    CHECK_EQ_U64(z.domain_size, 512);
    czk_circom_vk vk;
    czk_circom_zkey_vk(&vk, &z);
    czk_fr w[NW][C_WIRES];
    czk_groth16_proof pr[NW];
    char d[65];
    for (int threads = 1; threads <= 2; threads++) {
        czk_rng rng;
        czk_rng_seed(&rng, 0x601dc0);
        for (int i = 0; i < NW; i++) {
            c_witness(w[i], cc, 70 + (uint64_t)i);
            CHECK_OK(czk_circom_r1cs_check(&r, w[i], C_WIRES, NULL));
            REQUIRE_OK(czk_circom_prove(&pr[i], &z, w[i], C_WIRES, &rng, threads, NULL));
            CHECK_OK(czk_circom_verify(&vk, &pr[i], w[i] + 1, C_OUT + C_PUB));
        }
        proofs_digest(d, pr, NW);
        printf("  circom, %d thread(s): %s\n", threads, d);
        CHECK_MSG(strcmp(d, CIRCOM_DIGEST) == 0, "circom proofs on %d thread(s): %s, golden %s", threads, d,
                  CIRCOM_DIGEST);
    }
    czk_circom_zkey_clear(&z);
    czk_circom_r1cs_clear(&r);
    free(cc);
}
