/* Groth16 end to end on small circuits: setup, prove, verify, files, and
 * every kind of rejection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "czk/czk.h"
#include "czk/groth16.h"
#include "common/random_circuit.h"

typedef struct {
    czk_groth16_params params;
    size_t n_in;
} fixture;

static int make_params(fixture *f, uint64_t shape_seed, size_t n_in, size_t n_free, size_t n_mul)
{
    czk_cs *cs = NULL;
    czk_fr *pub = malloc((n_in + 1) * sizeof *pub);
    czk_csr A = {0}, B = {0}, C = {0};
    int ok = 0;
    if (czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL) != CZK_OK) goto out;
    if (czk_test_random_circuit(cs, shape_seed, 1, n_in, n_free, n_mul, pub) != CZK_OK) goto out;
    if (czk_cs_finalize(cs) != CZK_OK) goto out;
    if (czk_cs_shape_csr(cs, &A, &B, &C) != CZK_OK) goto out;
    czk_groth16_setup_opts o = {0};
    o.use_seed = 1;
    o.seed = shape_seed * 7 + 3;
    if (czk_groth16_setup(&f->params, &A, &B, &C, cs->n_inputs, &o) != CZK_OK) goto out;
    f->n_in = n_in;
    ok = 1;
out:
    if (!ok) fprintf(stderr, "  make_params: %s\n", czk_last_error());
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_cs_destroy(cs);
    free(pub);
    return ok;
}

static czk_status prove_one(czk_groth16_proof *pr, czk_fr *pub, const fixture *f, uint64_t shape_seed,
                            uint64_t value_seed, size_t n_free, size_t n_mul, int threads)
{
    czk_cs *cs = NULL;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    czk_status s = czk_test_random_circuit(cs, shape_seed, value_seed, f->n_in, n_free, n_mul, pub);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    czk_cs_assignment w;
    if (s == CZK_OK) s = czk_cs_prove_get(cs, &w);
    if (s == CZK_OK) {
        czk_groth16_prove_opts o = {0};
        o.threads = threads;
        o.rng = czk_test_rng();
        s = czk_groth16_prove(pr, &f->params, &w, &o);
    }
    czk_cs_destroy(cs);
    return s;
}

#define N_IN 3
#define N_FREE 6
#define N_MUL 40

CZK_TEST(prove_verify_small)
{
    fixture f = {0};
    REQUIRE(make_params(&f, 11, N_IN, N_FREE, N_MUL));
    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &f.params.vk));
    czk_fr pub[N_IN], pub2[N_IN];
    czk_groth16_proof pr, pr2;
    for (int threads = 1; threads <= 2; threads++) {
        REQUIRE_OK(prove_one(&pr, pub, &f, 11, 100 + threads, N_FREE, N_MUL, threads));
        CHECK_OK(czk_groth16_verify(&pvk, &pr, pub, N_IN));
    }
    /* a second witness: its proof verifies with its inputs, not with the first's */
    REQUIRE_OK(prove_one(&pr2, pub2, &f, 11, 999, N_FREE, N_MUL, 0));
    CHECK_OK(czk_groth16_verify(&pvk, &pr2, pub2, N_IN));
    CHECK(czk_groth16_verify(&pvk, &pr2, pub, N_IN) == CZK_ERR_VERIFY);
    CHECK(czk_groth16_verify(&pvk, &pr, pub2, N_IN) == CZK_ERR_VERIFY);
    /* one public input changed */
    czk_fr bad[N_IN];
    memcpy(bad, pub, sizeof bad);
    czk_fr_add(&bad[1], &bad[1], &CZK_FR_ONE);
    CHECK(czk_groth16_verify(&pvk, &pr, bad, N_IN) == CZK_ERR_VERIFY);
    /* wrong number of inputs */
    CHECK(czk_groth16_verify(&pvk, &pr, pub, N_IN - 1) == CZK_ERR_INVALID_ARG);
    /* proof elements swapped / replaced */
    czk_groth16_proof t = pr;
    t.c = pr2.c;
    CHECK(czk_groth16_verify(&pvk, &t, pub, N_IN) == CZK_ERR_VERIFY);
    /* a fresh proof of the same statement differs (new r, s) but verifies */
    czk_groth16_proof pr3;
    czk_fr pub3[N_IN];
    REQUIRE_OK(prove_one(&pr3, pub3, &f, 11, 101, N_FREE, N_MUL, 1));
    CHECK(!czk_g1_affine_eq(&pr3.a, &pr.a) || !czk_g1_affine_eq(&pr3.c, &pr.c));
    CHECK_OK(czk_groth16_verify(&pvk, &pr3, pub3, N_IN));
    czk_groth16_params_clear(&f.params);
}

CZK_TEST(wrong_vk_rejected)
{
    fixture f1 = {0}, f2 = {0};
    REQUIRE(make_params(&f1, 21, N_IN, N_FREE, N_MUL));
    REQUIRE(make_params(&f2, 21 + 1000, N_IN, N_FREE, N_MUL)); /* other circuit, other toxic waste */
    czk_fr pub[N_IN];
    czk_groth16_proof pr;
    REQUIRE_OK(prove_one(&pr, pub, &f1, 21, 5, N_FREE, N_MUL, 0));
    czk_groth16_pvk pvk1, pvk2;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk1, &f1.params.vk));
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk2, &f2.params.vk));
    CHECK_OK(czk_groth16_verify(&pvk1, &pr, pub, N_IN));
    CHECK(czk_groth16_verify(&pvk2, &pr, pub, N_IN) == CZK_ERR_VERIFY);
    czk_groth16_params_clear(&f1.params);
    czk_groth16_params_clear(&f2.params);
}

CZK_TEST(proof_encoding_and_bit_flips)
{
    fixture f = {0};
    REQUIRE(make_params(&f, 31, N_IN, N_FREE, N_MUL));
    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &f.params.vk));
    czk_fr pub[N_IN];
    czk_groth16_proof pr, back;
    REQUIRE_OK(prove_one(&pr, pub, &f, 31, 7, N_FREE, N_MUL, 0));
    uint8_t enc[CZK_GROTH16_PROOF_BYTES];
    czk_groth16_proof_encode(enc, &pr);
    REQUIRE_OK(czk_groth16_proof_decode(&back, enc));
    CHECK(czk_g1_affine_eq(&back.a, &pr.a) && czk_g2_affine_eq(&back.b, &pr.b) &&
          czk_g1_affine_eq(&back.c, &pr.c));
    CHECK_OK(czk_groth16_verify(&pvk, &back, pub, N_IN));
    /* every single-bit flip is rejected, by the decoder or by the verifier */
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 12 : 48);
    for (size_t it = 0; it < iters; it++) {
        size_t bit = it < 24 ? it * 8 + 3 : (size_t)czk_rng_below(czk_test_rng(), CZK_GROTH16_PROOF_BYTES * 8);
        uint8_t e2[CZK_GROTH16_PROOF_BYTES];
        memcpy(e2, enc, sizeof e2);
        e2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        czk_groth16_proof q;
        czk_status s = czk_groth16_proof_decode(&q, e2);
        if (s == CZK_OK) s = czk_groth16_verify(&pvk, &q, pub, N_IN);
        CHECK_MSG(s != CZK_OK, "bit %zu flipped and the proof still verifies", bit);
    }
    czk_groth16_params_clear(&f.params);
}

CZK_TEST(batch_verify)
{
    fixture f = {0};
    REQUIRE(make_params(&f, 41, N_IN, N_FREE, N_MUL));
    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &f.params.vk));
    enum { NP = 4 };
    czk_groth16_proof prs[NP];
    czk_fr pubs[NP * N_IN];
    for (int j = 0; j < NP; j++) REQUIRE_OK(prove_one(&prs[j], pubs + j * N_IN, &f, 41, 50 + j, N_FREE, N_MUL, 0));
    CHECK_OK(czk_groth16_verify_batch(&pvk, prs, NP, pubs, N_IN, czk_test_rng()));
    CHECK_OK(czk_groth16_verify_batch(&pvk, prs, NP, pubs, N_IN, NULL));
    /* one wrong input in one proof fails the batch */
    czk_fr_add(&pubs[2 * N_IN + 1], &pubs[2 * N_IN + 1], &CZK_FR_ONE);
    CHECK(czk_groth16_verify_batch(&pvk, prs, NP, pubs, N_IN, czk_test_rng()) == CZK_ERR_VERIFY);
    czk_fr_sub(&pubs[2 * N_IN + 1], &pubs[2 * N_IN + 1], &CZK_FR_ONE);
    /* two proofs' C swapped fails */
    czk_g1_affine c = prs[0].c;
    prs[0].c = prs[1].c;
    prs[1].c = c;
    CHECK(czk_groth16_verify_batch(&pvk, prs, NP, pubs, N_IN, czk_test_rng()) == CZK_ERR_VERIFY);
    czk_groth16_params_clear(&f.params);
}

static int write_file(const char *path, const uint8_t *buf, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) return 0;
    int ok = fwrite(buf, 1, n, fp) == n;
    return fclose(fp) == 0 && ok;
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)len);
    if (buf && fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    *n = (size_t)len;
    return buf;
}

CZK_TEST(params_files)
{
    fixture f = {0};
    REQUIRE(make_params(&f, 51, N_IN, N_FREE, N_MUL));
    char path[600], vkpath[600], bad[600];
    snprintf(path, sizeof path, "%s/t.params", czk_test_tmpdir());
    snprintf(vkpath, sizeof vkpath, "%s/t.vk", czk_test_tmpdir());
    snprintf(bad, sizeof bad, "%s/bad.params", czk_test_tmpdir());
    REQUIRE_OK(czk_groth16_params_write(path, &f.params));
    REQUIRE_OK(czk_groth16_vk_write(vkpath, &f.params.vk));
    czk_groth16_params p2;
    REQUIRE_OK(czk_groth16_params_read(&p2, path, CZK_GROTH16_CHECK_FULL));
    CHECK_EQ_U64(p2.n_h, f.params.n_h);
    CHECK_EQ_U64(p2.n_l, f.params.n_l);
    CHECK_EQ_U64(p2.n_a, f.params.n_a);
    CHECK_EQ_U64(p2.n_b_g1, f.params.n_b_g1);
    CHECK_EQ_U64(p2.n_b_g2, f.params.n_b_g2);
    CHECK_EQ_U64(p2.vk.n_ic, N_IN + 1);
    for (size_t i = 0; i < p2.n_l; i++) CHECK(czk_g1_affine_eq(&p2.l[i], &f.params.l[i]));
    for (size_t i = 0; i < p2.n_b_g2; i++) CHECK(czk_g2_affine_eq(&p2.b_g2[i], &f.params.b_g2[i]));
    /* the file's layout: vk fixed part, ic, then five counted sections */
    size_t n;
    uint8_t *buf = read_file(path, &n);
    REQUIRE(buf);
    size_t expect = 3 * 96 + 3 * 192 + 4 + (N_IN + 1) * 96 + 4 + f.params.n_h * 96 + 4 +
                    f.params.n_l * 96 + 4 + f.params.n_a * 96 + 4 + f.params.n_b_g1 * 96 + 4 +
                    f.params.n_b_g2 * 192;
    CHECK_EQ_U64(n, expect);
    /* a proof made with the re-read parameters verifies with the re-read vk */
    czk_groth16_vk vk;
    REQUIRE_OK(czk_groth16_vk_read(&vk, vkpath));
    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &vk));
    fixture f2 = {p2, N_IN};
    czk_fr pub[N_IN];
    czk_groth16_proof pr;
    REQUIRE_OK(prove_one(&pr, pub, &f2, 51, 3, N_FREE, N_MUL, 0));
    CHECK_OK(czk_groth16_verify(&pvk, &pr, pub, N_IN));

    /* a corrupted point in section l is named with its index */
    size_t l_off = 3 * 96 + 3 * 192 + 4 + (N_IN + 1) * 96 + 4 + f.params.n_h * 96 + 4;
    size_t idx = 5;
    uint8_t *b2 = malloc(n);
    memcpy(b2, buf, n);
    b2[l_off + idx * 96 + 50] ^= 0x10; /* y changes: off the curve */
    REQUIRE(write_file(bad, b2, n));
    czk_groth16_params p3;
    czk_status s = czk_groth16_params_read(&p3, bad, CZK_GROTH16_CHECK_FULL);
    CHECK(s == CZK_ERR_NOT_ON_CURVE);
    CHECK_MSG(strstr(czk_last_error(), "section l, point 5") != NULL, "message: %s", czk_last_error());
    /* identity point in section a */
    memcpy(b2, buf, n);
    size_t a_off = l_off + f.params.n_l * 96 + 4;
    memset(b2 + a_off + 2 * 96, 0, 96);
    b2[a_off + 2 * 96] = 0x40;
    REQUIRE(write_file(bad, b2, n));
    s = czk_groth16_params_read(&p3, bad, CZK_GROTH16_CHECK_FULL);
    CHECK(s == CZK_ERR_IDENTITY);
    CHECK_MSG(strstr(czk_last_error(), "section a, point 2") != NULL, "message: %s", czk_last_error());
    /* truncated anywhere: an error, never a crash */
    size_t cuts[] = {0, 10, 96, 3 * 96 + 3 * 192 + 2, l_off - 1, l_off + 1, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        REQUIRE(write_file(bad, buf, cuts[i]));
        s = czk_groth16_params_read(&p3, bad, CZK_GROTH16_CHECK_FULL);
        CHECK_MSG(s == CZK_ERR_FORMAT || s == CZK_ERR_IO, "cut at %zu: status %d", cuts[i], s);
    }
    /* trailing garbage */
    memcpy(b2, buf, n);
    REQUIRE(write_file(bad, b2, n));
    FILE *fp = fopen(bad, "ab");
    fputc(0, fp);
    fclose(fp);
    CHECK(czk_groth16_params_read(&p3, bad, CZK_GROTH16_CHECK_FULL) == CZK_ERR_FORMAT);
    /* a count larger than the file */
    memcpy(b2, buf, n);
    b2[l_off - 4] = 0x7f;
    REQUIRE(write_file(bad, b2, n));
    CHECK(czk_groth16_params_read(&p3, bad, CZK_GROTH16_CHECK_FULL) == CZK_ERR_FORMAT);
    /* a missing file */
    CHECK(czk_groth16_params_read(&p3, "/nonexistent/x.params", CZK_GROTH16_CHECK_FULL) == CZK_ERR_IO);
    free(b2);
    free(buf);
    czk_groth16_vk_clear(&vk);
    czk_groth16_params_clear(&p2);
    czk_groth16_params_clear(&f.params);
}

CZK_TEST(params_mismatch_rejected)
{
    fixture f = {0};
    REQUIRE(make_params(&f, 61, N_IN, N_FREE, N_MUL));
    czk_fr pub[N_IN];
    czk_groth16_proof pr;
    /* a circuit of another size cannot be proven with these parameters */
    CHECK(prove_one(&pr, pub, &f, 61, 1, N_FREE, N_MUL + 1, 0) == CZK_ERR_INVALID_ARG);
    czk_groth16_params_clear(&f.params);
}
