/* PCE: a/b/c and densities equal the PROVE backend's bit for bit; files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define CZK_LCV vec /* builds its LCs with the vec variant (cs/lc.h) */
#include "cs/lc_lcv.h"

#include "common/random_circuit.h"
#include "czk/czk.h"
#include "czk/pce.h"
#include "pce/pce_internal.h"

typedef czk_status (*synth_fn)(czk_cs *cs, uint64_t value_seed, void *ctx);

/* Synthesize with SHAPE and PROVE, compile the PCE, evaluate with PROVE's
 * witness and compare everything. Returns the PCE (caller destroys). */
static czk_pce *check_equal(synth_fn fn, void *ctx, uint64_t value_seed, int threads)
{
    czk_cs *shape = NULL, *prove = NULL;
    czk_csr A = {0}, B = {0}, C = {0};
    czk_pce *p = NULL;
    czk_fr *a = NULL, *b = NULL, *c = NULL;
    if (czk_cs_create(&shape, CZK_CS_SHAPE, CZK_LC_VEC, NULL) != CZK_OK ||
        czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, NULL) != CZK_OK) {
        CHECK_MSG(0, "cs create: %s", czk_last_error());
        goto out;
    }
    CHECK_OK(fn(shape, 1, ctx));
    CHECK_OK(czk_cs_finalize(shape));
    CHECK_OK(czk_cs_shape_csr(shape, &A, &B, &C));
    CHECK_OK(fn(prove, value_seed, ctx));
    CHECK_OK(czk_cs_finalize(prove));
    czk_cs_assignment w;
    CHECK_OK(czk_cs_prove_get(prove, &w));
    if (czk_test_failures()) goto out;
    if (czk_pce_from_csr(&p, &A, &B, &C, shape->n_inputs, "test") != CZK_OK) {
        CHECK_MSG(0, "pce: %s", czk_last_error());
        goto out;
    }
    size_t n = w.n_constraints;
    a = malloc(n * sizeof *a), b = malloc(n * sizeof *b), c = malloc(n * sizeof *c);
    CHECK_OK(czk_pce_eval(p, a, b, c, w.input, w.n_input, w.aux, w.n_aux, threads));
    CHECK_MSG(!memcmp(a, w.a, n * sizeof *a), "a differs");
    CHECK_MSG(!memcmp(b, w.b, n * sizeof *b), "b differs");
    CHECK_MSG(!memcmp(c, w.c, n * sizeof *c), "c differs");
    czk_cs_assignment pw;
    czk_pce_assignment(&pw, p, w.input, w.aux, a, b, c);
    CHECK_EQ_U64(pw.n_constraints, w.n_constraints);
    CHECK_EQ_U64(pw.a_aux_popcount, w.a_aux_popcount);
    CHECK_EQ_U64(pw.b_input_popcount, w.b_input_popcount);
    CHECK_EQ_U64(pw.b_aux_popcount, w.b_aux_popcount);
    CHECK(!memcmp(pw.a_aux_density, w.a_aux_density, (w.n_aux + 63) / 64 * 8));
    CHECK(!memcmp(pw.b_input_density, w.b_input_density, (w.n_input + 63) / 64 * 8));
    CHECK(!memcmp(pw.b_aux_density, w.b_aux_density, (w.n_aux + 63) / 64 * 8));
    /* a wrong-size witness is refused */
    CHECK(czk_pce_eval(p, a, b, c, w.input, w.n_input, w.aux, w.n_aux - 1, threads) == CZK_ERR_INVALID_ARG);
out:
    free(a), free(b), free(c);
    czk_csr_clear(&A), czk_csr_clear(&B), czk_csr_clear(&C);
    czk_cs_destroy(shape);
    czk_cs_destroy(prove);
    return p;
}

typedef struct {
    uint64_t shape_seed;
    size_t n_in, n_free, n_mul;
} rc_args;

static czk_status synth_random(czk_cs *cs, uint64_t value_seed, void *ctx)
{
    rc_args *r = ctx;
    czk_fr *pub = malloc((r->n_in + 1) * sizeof *pub);
    czk_status s = czk_test_random_circuit(cs, r->shape_seed, value_seed, r->n_in, r->n_free, r->n_mul, pub);
    free(pub);
    return s;
}

CZK_TEST(random_circuits_bit_exact)
{
    size_t big = getenv("CZK_TEST_ASAN") ? 3000 : 20000;
    rc_args cases[] = {{1, 1, 0, 1}, {2, 3, 6, 40}, {3, 10, 50, 500}, {4, 7, 100, big}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int threads = 1; threads <= 2; threads++) {
            czk_pce *p = check_equal(synth_random, &cases[i], 77 + i, threads);
            REQUIRE(p);
            czk_pce_info info;
            czk_pce_info_get(p, &info);
            CHECK(info.nnz[0] > 0 && info.bytes > 0);
            czk_pce_destroy(p);
        }
    }
}

/* Zero coefficients (merged duplicates), a row longer than 65534 terms, and
 * more than 256 distinct coefficients. */
static czk_status synth_edges(czk_cs *cs, uint64_t value_seed, void *ctx)
{
    int many_distinct = ctx != NULL;
    czk_rng vr;
    czk_rng_seed(&vr, value_seed);
    size_t nx = getenv("CZK_TEST_ASAN") ? 70000 : 70000;
    czk_var *x = malloc(nx * sizeof *x);
    czk_fr *xv = malloc(nx * sizeof *xv);
    czk_status s = CZK_OK;
    czk_var in;
    czk_fr inv;
    czk_fr_random(&inv, &vr);
    s = czk_cs_alloc_input(cs, &in, &inv, "in", CZK_NOIDX);
    for (size_t i = 0; i < nx && s == CZK_OK; i++) {
        czk_fr_random(&xv[i], &vr);
        s = czk_cs_alloc(cs, &x[i], &xv[i], "x", i);
    }
    /* row 0: sum of all x_i * (i + 1) (long row, many distinct coefficients) = t */
    czk_lc_vec la, lb, lc;
    czk_lc_init_vec(&la), czk_lc_init_vec(&lb), czk_lc_init_vec(&lc);
    czk_fr sum = CZK_FR_ZERO;
    for (size_t i = 0; i < nx && s == CZK_OK; i++) {
        czk_fr k, t;
        czk_fr_from_u64(&k, many_distinct ? i + 1 : i % 1000 + 1);
        czk_lc_add_term_vec(&la, &k, x[i]);
        czk_fr_mul(&t, &k, &xv[i]);
        czk_fr_add(&sum, &sum, &t);
    }
    czk_var tv;
    if (s == CZK_OK) s = czk_cs_alloc(cs, &tv, &sum, "t", CZK_NOIDX);
    czk_lc_add_var_vec(&lb, CZK_VAR_ONE);
    czk_lc_add_var_vec(&lc, tv);
    if (s == CZK_OK) s = czk_enforce_vec(cs, &la, &lb, &lc, "long", CZK_NOIDX);
    /* row 1: (x0 + x1 - x1) * (in - in + x2) = x0 * x2, with zero coefficients */
    czk_lc_clear_vec(&la), czk_lc_clear_vec(&lb), czk_lc_clear_vec(&lc);
    czk_lc_add_var_vec(&la, x[0]);
    czk_lc_add_var_vec(&la, x[1]);
    czk_lc_sub_var_vec(&la, x[1]);
    czk_lc_add_var_vec(&lb, in);
    czk_lc_sub_var_vec(&lb, in);
    czk_lc_add_var_vec(&lb, x[2]);
    czk_fr p02;
    czk_fr_mul(&p02, &xv[0], &xv[2]);
    czk_var pv;
    if (s == CZK_OK) s = czk_cs_alloc(cs, &pv, &p02, "p", CZK_NOIDX);
    czk_lc_add_var_vec(&lc, pv);
    if (s == CZK_OK) s = czk_enforce_vec(cs, &la, &lb, &lc, "zeros", CZK_NOIDX);
    /* row 2: -x3 * -1 = x3 */
    czk_lc_clear_vec(&la), czk_lc_clear_vec(&lb), czk_lc_clear_vec(&lc);
    czk_lc_sub_var_vec(&la, x[3]);
    czk_lc_sub_var_vec(&lb, CZK_VAR_ONE);
    czk_lc_add_var_vec(&lc, x[3]);
    if (s == CZK_OK) s = czk_enforce_vec(cs, &la, &lb, &lc, "neg", CZK_NOIDX);
    czk_lc_free_vec(&la), czk_lc_free_vec(&lb), czk_lc_free_vec(&lc);
    free(x);
    free(xv);
    return s;
}

CZK_TEST(edges_bit_exact)
{
    czk_pce *p = check_equal(synth_edges, NULL, 5, 2);
    REQUIRE(p);
    czk_pce_info info;
    czk_pce_info_get(p, &info);
    CHECK(info.distinct[0] > 256);
    /* x1 and in cancel: the zero coefficients are dropped, x1 does not mark A */
    CHECK(info.nnz[0] == 70000 + 1 + 1 + 2); /* long row, x0 (x1's zero dropped), -x3, 2 input rows */
    czk_pce_destroy(p);
    /* more than 65535 distinct coefficients in one matrix: a clear refusal */
    int mode = 1;
    czk_cs *shape = NULL;
    czk_csr A = {0}, B = {0}, C = {0};
    REQUIRE_OK(czk_cs_create(&shape, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    REQUIRE_OK(synth_edges(shape, 1, &mode));
    REQUIRE_OK(czk_cs_finalize(shape));
    REQUIRE_OK(czk_cs_shape_csr(shape, &A, &B, &C));
    CHECK(czk_pce_from_csr(&p, &A, &B, &C, shape->n_inputs, "x") == CZK_ERR_UNSUPPORTED);
    CHECK(strstr(czk_last_error(), "distinct") != NULL);
    czk_csr_clear(&A), czk_csr_clear(&B), czk_csr_clear(&C);
    czk_cs_destroy(shape);
}

CZK_TEST(files_roundtrip_and_damage)
{
    rc_args r = {9, 4, 20, 300};
    czk_pce *p = check_equal(synth_random, &r, 3, 2);
    REQUIRE(p);
    char path[600], bad[600];
    snprintf(path, sizeof path, "%s/t.pce", czk_test_tmpdir());
    snprintf(bad, sizeof bad, "%s/bad.pce", czk_test_tmpdir());
    REQUIRE_OK(czk_pce_write(p, path));
    czk_pce *q = NULL;
    REQUIRE_OK(czk_pce_read(&q, path, "test"));
    czk_pce_info i1, i2;
    czk_pce_info_get(p, &i1);
    czk_pce_info_get(q, &i2);
    /* the file is mapped (its matrices one range each), the original in memory */
    CHECK(i1.mapped_bytes == 0 && i2.mapped_bytes > i2.max_matrix_bytes && i2.max_matrix_bytes > 0);
    i2.mapped_bytes = i2.max_matrix_bytes = i2.eval_bytes = 0;
    CHECK(!memcmp(&i1, &i2, sizeof i1));
    /* a PCE read from disk evaluates like the original */
    czk_cs *prove = NULL;
    REQUIRE_OK(czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    REQUIRE_OK(synth_random(prove, 3, &r));
    REQUIRE_OK(czk_cs_finalize(prove));
    czk_cs_assignment w;
    REQUIRE_OK(czk_cs_prove_get(prove, &w));
    czk_fr *a = malloc(w.n_constraints * sizeof *a);
    CHECK_OK(czk_pce_eval(q, a, NULL, NULL, w.input, w.n_input, w.aux, w.n_aux, 1));
    CHECK(!memcmp(a, w.a, w.n_constraints * sizeof *a));
    /* its pages dropped from the process (one matrix, then all): mapped back, the same values */
    czk__pce_drop_pages(q, 0);
    memset(a, 0, w.n_constraints * sizeof *a);
    CHECK_OK(czk_pce_eval(q, a, NULL, NULL, w.input, w.n_input, w.aux, w.n_aux, 1));
    CHECK(!memcmp(a, w.a, w.n_constraints * sizeof *a));
    czk__pce_drop_pages(q, -1);
    czk__pce_drop_pages(p, -1); /* a PCE in memory: nothing to drop */
    memset(a, 0, w.n_constraints * sizeof *a);
    CHECK_OK(czk_pce_eval(q, a, NULL, NULL, w.input, w.n_input, w.aux, w.n_aux, 1));
    CHECK(!memcmp(a, w.a, w.n_constraints * sizeof *a));
    memset(a, 0, w.n_constraints * sizeof *a);
    CHECK_OK(czk_pce_eval(p, a, NULL, NULL, w.input, w.n_input, w.aux, w.n_aux, 1));
    CHECK(!memcmp(a, w.a, w.n_constraints * sizeof *a));
    free(a);
    czk_cs_destroy(prove);
    czk_pce_destroy(q);
    /* wrong key */
    CHECK(czk_pce_read(&q, path, "other shape") == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "other shape") != NULL);
    /* damage: every single flipped byte position class is caught */
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    REQUIRE(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    size_t iters = czk_test_iters(40);
    for (size_t it = 0; it < iters; it++) {
        size_t pos = (size_t)czk_rng_below(czk_test_rng(), (uint64_t)n);
        buf[pos] ^= 0x20;
        f = fopen(bad, "wb");
        fwrite(buf, 1, (size_t)n, f);
        fclose(f);
        czk_status s = czk_pce_read(&q, bad, NULL);
        CHECK_MSG(s == CZK_ERR_FORMAT, "byte %zu flipped: status %d", pos, s);
        if (s == CZK_OK) czk_pce_destroy(q);
        buf[pos] ^= 0x20;
    }
    /* truncation */
    long cuts[] = {0, 7, 100, n / 2, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        f = fopen(bad, "wb");
        fwrite(buf, 1, (size_t)cuts[i], f);
        fclose(f);
        CHECK(czk_pce_read(&q, bad, NULL) == CZK_ERR_FORMAT);
    }
    CHECK(czk_pce_read(&q, "/nonexistent/x.pce", NULL) == CZK_ERR_IO);
    free(buf);
    czk_pce_destroy(p);
}

/* czk_pce_columns (the setup's column sums) equals the CSR's transpose
 * product, over row ranges that start inside a block and on 1 and 3
 * threads. */
CZK_TEST(columns_equal_csr_transpose)
{
    rc_args r = {5, 6, 30, getenv("CZK_TEST_ASAN") ? 1500 : 4000};
    czk_cs *shape = NULL;
    czk_csr M[3] = {{0}, {0}, {0}};
    REQUIRE_OK(czk_cs_create(&shape, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    REQUIRE_OK(synth_random(shape, 1, &r));
    REQUIRE_OK(czk_cs_finalize(shape));
    REQUIRE_OK(czk_cs_shape_csr(shape, &M[0], &M[1], &M[2]));
    czk_pce *p = NULL;
    REQUIRE_OK(czk_pce_from_csr(&p, &M[0], &M[1], &M[2], shape->n_inputs, "cols"));
    size_t rows = M[0].n_rows, cols = M[0].n_cols;
    czk_fr *lag = malloc(rows * sizeof *lag), *want = malloc(cols * sizeof *want), *got = malloc(cols * sizeof *got);
    REQUIRE(lag && want && got);
    for (size_t j = 0; j < rows; j++) czk_fr_random(&lag[j], czk_test_rng());
    for (int mi = 0; mi < 3; mi++) {
        memset(want, 0, cols * sizeof *want);
        for (size_t j = 0; j < rows; j++)
            for (uint64_t k = M[mi].row_ptr[j]; k < M[mi].row_ptr[j + 1]; k++) {
                czk_fr t;
                czk_fr_mul(&t, &M[mi].val[k], &lag[j]);
                czk_fr_add(&want[M[mi].col[k]], &want[M[mi].col[k]], &t);
            }
        for (int threads = 1; threads <= 3; threads += 2) {
            memset(got, 0, cols * sizeof *got);
            size_t cut = rows > 1500 ? 1500 : rows / 2; /* inside the second block of 1024 rows */
            CHECK_OK(czk_pce_columns(p, mi, got, lag, 0, cut, threads));
            CHECK_OK(czk_pce_columns(p, mi, got, lag + cut, cut, rows, threads));
            CHECK_MSG(!memcmp(got, want, cols * sizeof *got), "matrix %d, %d threads: column sums differ", mi, threads);
        }
    }
    CHECK(czk_pce_columns(p, 0, got, lag, 0, rows + 1, 1) == CZK_ERR_INVALID_ARG);
    free(lag), free(want), free(got);
    czk_pce_destroy(p);
    for (int i = 0; i < 3; i++) czk_csr_clear(&M[i]);
    czk_cs_destroy(shape);
}
