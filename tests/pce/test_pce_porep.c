/* PCE recording backend and the PoRep driver: the recorded PCE, the
 * witness-only synthesis and the evaluation give exactly the PROVE backend's
 * assignment (input, aux, a, b, c, densities); the cache builds once and
 * rebuilds damaged files. */
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "runner.h"

#define CZK_LCV vec /* builds its LCs with the vec variant (cs/lc.h) */
#include "cs/lc_lcv.h"

#include "common/random_circuit.h"
#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/pce.h"
#include "pce/pce_internal.h"
#include "czk/porep.h"

static void check_assignment(const czk_cs_assignment *w, const czk_cs_assignment *r)
{
    CHECK_EQ_U64(w->n_input, r->n_input);
    CHECK_EQ_U64(w->n_aux, r->n_aux);
    CHECK_EQ_U64(w->n_constraints, r->n_constraints);
    if (w->n_input != r->n_input || w->n_aux != r->n_aux || w->n_constraints != r->n_constraints) return;
    size_t n = r->n_constraints, wa = (r->n_aux + 63) / 64, wi = (r->n_input + 63) / 64;
    CHECK_MSG(!memcmp(w->input, r->input, r->n_input * sizeof(czk_fr)), "input differs");
    CHECK_MSG(!memcmp(w->aux, r->aux, r->n_aux * sizeof(czk_fr)), "aux differs");
    CHECK_MSG(!memcmp(w->a, r->a, n * sizeof(czk_fr)), "a differs");
    CHECK_MSG(!memcmp(w->b, r->b, n * sizeof(czk_fr)), "b differs");
    CHECK_MSG(!memcmp(w->c, r->c, n * sizeof(czk_fr)), "c differs");
    CHECK_EQ_U64(w->a_aux_popcount, r->a_aux_popcount);
    CHECK_EQ_U64(w->b_input_popcount, r->b_input_popcount);
    CHECK_EQ_U64(w->b_aux_popcount, r->b_aux_popcount);
    CHECK_MSG(!memcmp(w->a_aux_density, r->a_aux_density, wa * 8), "A-aux density differs");
    CHECK_MSG(!memcmp(w->b_input_density, r->b_input_density, wi * 8), "B-input density differs");
    CHECK_MSG(!memcmp(w->b_aux_density, r->b_aux_density, wa * 8), "B-aux density differs");
}

/* The recorder gives the same PCE as compiling the SHAPE backend's CSR:
 * identical evaluation and densities against PROVE, identical files. */
CZK_TEST(recorder_equals_csr_compile)
{
    size_t big = getenv("CZK_TEST_ASAN") ? 2000 : 20000;
    size_t cases[][4] = {{1, 1, 0, 1}, {3, 10, 50, 500}, {4, 7, 100, big}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t *c = cases[i];
        czk_fr *pub = malloc((c[1] + 1) * sizeof *pub);
        czk_pce_recorder *rec;
        czk_cs *rcs;
        REQUIRE_OK(czk_pce_recorder_create(&rec, &rcs, CZK_LC_VEC, NULL));
        REQUIRE_OK(czk_test_random_circuit(rcs, c[0], 0, c[1], c[2], c[3], pub));
        czk_pce *p = NULL;
        REQUIRE_OK(czk_pce_recorder_finish(rec, &p, "rec"));
        czk_pce *again = NULL;
        CHECK(czk_pce_recorder_finish(rec, &again, "rec") == CZK_ERR_INVALID_ARG && again == NULL);
        czk_pce_recorder_destroy(rec);
        /* reference: SHAPE CSR -> from_csr */
        czk_cs *shape, *prove;
        czk_csr A = {0}, B = {0}, C = {0};
        REQUIRE_OK(czk_cs_create(&shape, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
        REQUIRE_OK(czk_test_random_circuit(shape, c[0], 0, c[1], c[2], c[3], pub));
        REQUIRE_OK(czk_cs_finalize(shape));
        REQUIRE_OK(czk_cs_shape_csr(shape, &A, &B, &C));
        czk_pce *q = NULL;
        REQUIRE_OK(czk_pce_from_csr(&q, &A, &B, &C, shape->n_inputs, "rec"));
        /* identical bytes on disk */
        char p1[600], p2[600];
        snprintf(p1, sizeof p1, "%s/rec%zu.pce", czk_test_tmpdir(), i);
        snprintf(p2, sizeof p2, "%s/csr%zu.pce", czk_test_tmpdir(), i);
        REQUIRE_OK(czk_pce_write(p, p1));
        REQUIRE_OK(czk_pce_write(q, p2));
        FILE *f1 = fopen(p1, "rb"), *f2 = fopen(p2, "rb");
        REQUIRE(f1 && f2);
        int same = 1, x, y;
        do {
            x = fgetc(f1), y = fgetc(f2);
            same &= x == y;
        } while (x != EOF && y != EOF);
        fclose(f1), fclose(f2);
        CHECK_MSG(same, "case %zu: recorder and CSR compile differ", i);
        /* against PROVE */
        REQUIRE_OK(czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, NULL));
        REQUIRE_OK(czk_test_random_circuit(prove, c[0], 1000 + i, c[1], c[2], c[3], pub));
        REQUIRE_OK(czk_cs_finalize(prove));
        czk_cs_assignment r, w;
        REQUIRE_OK(czk_cs_prove_get(prove, &r));
        czk_fr *abc = malloc(3 * r.n_constraints * sizeof *abc + 1);
        REQUIRE_OK(czk_pce_eval(p, abc, abc + r.n_constraints, abc + 2 * r.n_constraints, r.input, r.n_input, r.aux,
                                r.n_aux, 2));
        czk_pce_assignment(&w, p, r.input, r.aux, abc, abc + r.n_constraints, abc + 2 * r.n_constraints);
        check_assignment(&w, &r);
        free(abc);
        free(pub);
        czk_csr_clear(&A), czk_csr_clear(&B), czk_csr_clear(&C);
        czk_cs_destroy(shape);
        czk_cs_destroy(prove);
        czk_pce_destroy(p);
        czk_pce_destroy(q);
    }
}

/* Every power of two and its negative, small integers and a general value in
 * rows of various mixes: Horner and multiplied paths agree with PROVE. */
static czk_status synth_pow2(czk_cs *cs, uint64_t seed)
{
    czk_rng r;
    czk_rng_seed(&r, seed);
    enum { NX = 300 };
    czk_var x[NX];
    czk_fr xv[NX];
    for (int i = 0; i < NX; i++) {
        czk_fr_random(&xv[i], &r);
        CZK_TRY(czk_cs_alloc(cs, &x[i], cs->has_values ? &xv[i] : NULL, "x", (uint64_t)i));
    }
    czk_fr two;
    czk_fr_from_u64(&two, 2);
    for (int row = 0; row < 200; row++) {
        czk_lc_vec a, b, c;
        czk_lc_init_vec(&a), czk_lc_init_vec(&b), czk_lc_init_vec(&c);
        int nt = 1 + (int)czk_rng_below(&r, row % 7 == 0 ? 260 : 12);
        czk_fr sum = CZK_FR_ZERO;
        for (int t = 0; t < nt; t++) {
            int j = (int)czk_rng_below(&r, NX);
            czk_fr k;
            uint64_t kind = czk_rng_below(&r, 8);
            unsigned e = row % 7 == 0 ? (unsigned)t : (unsigned)czk_rng_below(&r, kind < 4 ? 8 : 256);
            czk_fr_pow_u64(&k, &two, e);
            if (kind & 1) czk_fr_neg(&k, &k);
            if (kind == 7) czk_fr_from_u64(&k, 3 + czk_rng_below(&r, 5));
            czk_lc_add_term_vec(&a, &k, x[j]);
            czk_fr t2;
            czk_fr_mul(&t2, &k, &xv[j]);
            czk_fr_add(&sum, &sum, &t2);
        }
        czk_var s;
        CZK_TRY(czk_cs_alloc(cs, &s, cs->has_values ? &sum : NULL, "s", (uint64_t)row));
        czk_lc_add_var_vec(&b, CZK_VAR_ONE);
        czk_lc_add_var_vec(&c, s);
        czk_status st = czk_enforce_vec(cs, &a, &b, &c, "row", (uint64_t)row);
        czk_lc_free_vec(&a), czk_lc_free_vec(&b), czk_lc_free_vec(&c);
        CZK_TRY(st);
    }
    return CZK_OK;
}

CZK_TEST(pow2_horner_bit_exact)
{
    for (uint64_t seed = 1; seed <= czk_test_iters(4); seed++) {
        czk_pce_recorder *rec;
        czk_cs *rcs;
        REQUIRE_OK(czk_pce_recorder_create(&rec, &rcs, CZK_LC_VEC, NULL));
        REQUIRE_OK(synth_pow2(rcs, seed));
        czk_pce *p;
        REQUIRE_OK(czk_pce_recorder_finish(rec, &p, "p2"));
        czk_pce_recorder_destroy(rec);
        czk_pce_info in;
        czk_pce_info_get(p, &in);
        CHECK(in.pow2[0] > in.unit[0] && in.pow2[0] < in.nnz[0]); /* both paths used */
        czk_cs *prove;
        REQUIRE_OK(czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, NULL));
        REQUIRE_OK(synth_pow2(prove, seed));
        REQUIRE_OK(czk_cs_finalize(prove));
        REQUIRE_OK(czk_cs_prove_check(prove));
        czk_cs_assignment r, w;
        REQUIRE_OK(czk_cs_prove_get(prove, &r));
        size_t n = r.n_constraints;
        czk_fr *abc = malloc(3 * n * sizeof *abc);
        REQUIRE_OK(czk_pce_eval(p, abc, abc + n, abc + 2 * n, r.input, r.n_input, r.aux, r.n_aux, 1));
        czk_pce_assignment(&w, p, r.input, r.aux, abc, abc + n, abc + 2 * n);
        check_assignment(&w, &r);
        /* a file round trip keeps the evaluation classes */
        char path[600];
        snprintf(path, sizeof path, "%s/p2.pce", czk_test_tmpdir());
        REQUIRE_OK(czk_pce_write(p, path));
        czk_pce *q;
        REQUIRE_OK(czk_pce_read(&q, path, "p2"));
        memset(abc, 0, 3 * n * sizeof *abc);
        REQUIRE_OK(czk_pce_eval(q, abc, abc + n, abc + 2 * n, r.input, r.n_input, r.aux, r.n_aux, 2));
        check_assignment(&w, &r);
        czk_pce_info iq;
        czk_pce_info_get(q, &iq);
        /* read back, its matrices are a mapping of the file (the largest one a part of it) */
        CHECK(in.mapped_bytes == 0 && iq.mapped_bytes > iq.max_matrix_bytes && iq.max_matrix_bytes > 0);
        CHECK(iq.eval_bytes > 0 && iq.eval_bytes <= iq.mapped_bytes);
        iq.mapped_bytes = iq.max_matrix_bytes = iq.eval_bytes = 0;
        CHECK(!memcmp(&in, &iq, sizeof in));
        free(abc);
        czk_cs_destroy(prove);
        czk_pce_destroy(p);
        czk_pce_destroy(q);
    }
}

/* PoRep partition: PCE (recorded, cached) + witness-only synthesis equals the
 * sequential PROVE backend. */
static void porep_case(const czk_fc_shape *shape, uint32_t k, int threads)
{
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    REQUIRE_OK(czk_fc_gen_c1(&c1, shape, 7, NULL, NULL));
    czk_pce *p = NULL;
    int built = -1;
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, shape, NULL, NULL, &built));
    CHECK(built == 1);
    czk_pce_porep_work *w;
    REQUIRE_OK(czk_pce_porep_work_create(&w, p, shape));
    czk_cs_assignment a;
    czk_pce_timings t;
    REQUIRE_OK(czk_pce_porep_synthesize(w, &c1, k, threads, &a, &t));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, shape));
    czk_cs *prove;
    REQUIRE_OK(czk_cs_create(&prove, CZK_CS_PROVE, CZK_LC_VEC, &z));
    REQUIRE_OK(czk_porep_synthesize(prove, shape, &c1, k));
    REQUIRE_OK(czk_cs_finalize(prove));
    czk_cs_assignment r;
    REQUIRE_OK(czk_cs_prove_get(prove, &r));
    check_assignment(&a, &r);
    czk_cs_destroy(prove);
    CHECK_OK(czk_pce_check(&a, threads));
    CHECK(czk_kind_pce_cached(&czk_kind_porep, shape));
    /* a wrong value is caught by the check, naming its row */
    czk_fr save = a.c[5];
    czk_fr_add((czk_fr *)&a.c[5], &save, &CZK_FR_ONE);
    CHECK(czk_pce_check(&a, threads) == CZK_ERR_UNSATISFIED &&
          strstr(czk_last_error(), "constraint 5 is not satisfied") != NULL);
    ((czk_fr *)a.c)[5] = save;
    /* second use: read from the cache, same result; a second synthesize reuses the workspace */
    czk_pce *q = NULL;
    REQUIRE_OK(czk_kind_pce_get(&q, &czk_kind_porep, shape, NULL, NULL, &built));
    CHECK(built == 0);
    czk_pce_info i1, i2;
    czk_pce_info_get(p, &i1);
    czk_pce_info_get(q, &i2);
    CHECK(i2.mapped_bytes > 0);
    /* the mapped file evaluated in windows of 2 blocks of rows, each
     * window's pages let go after it: the same a, b, c; what it holds at
     * once is less than its largest matrix */
    const uint64_t saved_window = czk__pce_eval_window;
    czk__pce_eval_window = 2 * CZK_PCE_BLOCK;
    czk_pce_info i3;
    czk_pce_info_get(q, &i3);
    CHECK(a.n_constraints > 4 * CZK_PCE_BLOCK);
    CHECK(i3.eval_bytes > 0 && i3.eval_bytes < i3.max_matrix_bytes);
    size_t n = a.n_constraints;
    czk_fr *abc = malloc(3 * n * sizeof *abc);
    REQUIRE(abc != NULL);
    CHECK_OK(czk_pce_eval(q, abc, abc + n, abc + 2 * n, a.input, a.n_input, a.aux, a.n_aux, threads));
    CHECK(!memcmp(abc, a.a, n * sizeof *abc) && !memcmp(abc + n, a.b, n * sizeof *abc) &&
          !memcmp(abc + 2 * n, a.c, n * sizeof *abc));
    memset(abc + n, 0, n * sizeof *abc); /* one matrix alone (the prover's fill) */
    CHECK_OK(czk_pce_eval(q, NULL, abc + n, NULL, a.input, a.n_input, a.aux, a.n_aux, threads));
    CHECK(!memcmp(abc + n, a.b, n * sizeof *abc));
    free(abc);
    czk__pce_eval_window = saved_window;
    i1.mapped_bytes = i2.mapped_bytes = i1.max_matrix_bytes = i2.max_matrix_bytes = i1.eval_bytes = i2.eval_bytes = 0;
    CHECK(!memcmp(&i1, &i2, sizeof i1));
    czk_pce_destroy(q);
    czk_pce_porep_work_destroy(w);
    czk_pce_destroy(p);
    czk_fc_c1_free(&c1);
}

static void use_tmp_cache(const char *sub)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/%s", czk_test_tmpdir(), sub);
    setenv("CZK_CACHE_DIR", dir, 1);
}

CZK_TEST(porep_2kib_bit_exact)
{
    if (getenv("CZK_TEST_ASAN")) {
        printf("  note: ASan: the 2KiB partition is left to the Release run (the custom shape covers ASan)\n");
        return;
    }
    use_tmp_cache("cache2k");
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_of_size(&s, 2048));
    porep_case(&s, 0, 2);
}

CZK_TEST(porep_custom_bit_exact)
{
    use_tmp_cache("cachecustom");
    czk_fc_shape s;
    /* 128 nodes, 2 layers, 2 partitions x 1 challenge, trees 8-8-2 */
    REQUIRE_OK(czk_fc_shape_custom(&s, 128, 2, 2, 1, 8, 8, 2));
    porep_case(&s, 1, 1);
}

CZK_TEST(porep_cache_rebuilds_damaged_and_checks_key)
{
    use_tmp_cache("cachedmg");
    czk_fc_shape s, s2;
    REQUIRE_OK(czk_fc_shape_custom(&s, 8, 2, 1, 2, 8, 0, 0));
    REQUIRE_OK(czk_fc_shape_custom(&s2, 8, 2, 1, 1, 8, 0, 0));
    char path[600], path2[600], k1[CZK_PCE_KEY_MAX], k2[CZK_PCE_KEY_MAX];
    REQUIRE_OK(czk_kind_pce_path(path, sizeof path, &czk_kind_porep, &s));
    REQUIRE_OK(czk_kind_pce_path(path2, sizeof path2, &czk_kind_porep, &s2));
    czk_kind_pce_key(k1, &czk_kind_porep, &s);
    czk_kind_pce_key(k2, &czk_kind_porep, &s2);
    CHECK(strcmp(path, path2) != 0 && strcmp(k1, k2) != 0);
    czk_pce *p;
    int built;
    CHECK(!czk_kind_pce_cached(&czk_kind_porep, &s));
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, &s, NULL, NULL, &built));
    CHECK(built == 1);
    czk_pce_destroy(p);
    /* damage one byte in the middle */
    FILE *f = fopen(path, "r+b");
    REQUIRE(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, n / 2, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, n / 2, SEEK_SET);
    fputc(ch ^ 1, f);
    fclose(f);
    REQUIRE(czk_pce_read(&p, path, k1) == CZK_ERR_FORMAT);
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, &s, NULL, NULL, &built));
    CHECK(built == 1);
    czk_pce_destroy(p);
    REQUIRE_OK(czk_pce_read(&p, path, k1));
    czk_pce_destroy(p);
    /* a file of another shape is refused under this key */
    REQUIRE(czk_pce_read(&p, path, k2) == CZK_ERR_FORMAT);
    /* a PCE of one shape does not fit the other's workspace */
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, &s, NULL, NULL, &built));
    czk_pce_porep_work *w = NULL;
    CHECK(czk_pce_porep_work_create(&w, p, &s2) == CZK_ERR_INVALID_ARG);
    czk_pce_destroy(p);
}

/* czk pce build / info and czk bench synth-only --pce on on a tiny custom
 * shape. */
CZK_TEST(cli_pce)
{
    const char *cli = czk_test_cli();
    if (!strchr(cli, '/') || getenv("CZK_TEST_ASAN")) {
        printf("  note: CZK_CLI not set (run through ctest) or ASan; skipped\n");
        return;
    }
    const char *dir = czk_test_tmpdir();
    const char *shape = "--nodes 8 --layers 2 --challenges 1 --tree 8";
    char out[8192];
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce build %s -o '%s/t.pce' --json", cli, shape, dir), 0);
    CHECK_MSG(strstr(out, "\"bytes_per_nnz\":"), "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce info '%s/t.pce' --json", cli, dir), 0);
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_custom(&s, 8, 2, 1, 1, 8, 0, 0));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    char want[128];
    snprintf(want, sizeof want, "\"rows\":%llu,", (unsigned long long)z.n_constraints);
    CHECK_MSG(strstr(out, want), "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out,
                              "CZK_CACHE_DIR='%s/c' '%s' bench synth-only %s -i 1 --pce on --validate --json", dir, cli,
                              shape),
                 0);
    CHECK_MSG(strstr(out, "\"validated\":true") && strstr(out, "\"pce_built\":true"), "%s", out);
    CHECK_MSG(strstr(out, want) && strstr(out, "\"partition\":0,") && strstr(out, "\"matvec_nnz_per_cpu_s\":"), "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "CZK_CACHE_DIR='%s/c' '%s' bench synth-only %s -i 1 --pce on --stream --json",
                              dir, cli, shape),
                 0);
    CHECK_MSG(strstr(out, "\"pce_built\":false") && strstr(out, "\"mode\":\"stream\""), "%s", out);
    /* the benchmark that was `czk pce bench` is synth-only's */
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce bench %s 2>&1", cli, shape), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce info /nonexistent/x.pce 2>&1", cli), 1);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce info 2>&1", cli), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce frob 2>&1", cli), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' pce build 2>&1", cli), 2);
}

/* A file whose checksum is right but whose row breaks the evaluation order
 * (general terms first, then +-2^e by non-increasing e) is refused. */
CZK_TEST(file_evaluation_order_checked)
{
    czk_pce_recorder *rec;
    czk_cs *cs;
    REQUIRE_OK(czk_pce_recorder_create(&rec, &cs, CZK_LC_VEC, NULL));
    czk_var x0, x1, sv;
    REQUIRE_OK(czk_cs_alloc(cs, &x0, NULL, "x0", CZK_NOIDX));
    REQUIRE_OK(czk_cs_alloc(cs, &x1, NULL, "x1", CZK_NOIDX));
    REQUIRE_OK(czk_cs_alloc(cs, &sv, NULL, "s", CZK_NOIDX));
    czk_lc_vec a, b, c;
    czk_lc_init_vec(&a), czk_lc_init_vec(&b), czk_lc_init_vec(&c);
    czk_fr three, two;
    czk_fr_from_u64(&three, 3);
    czk_fr_from_u64(&two, 2);
    czk_lc_add_term_vec(&a, &three, x0); /* general */
    czk_lc_add_term_vec(&a, &two, x1);   /* 2^1, Horner */
    czk_lc_add_var_vec(&b, CZK_VAR_ONE);
    czk_lc_add_var_vec(&c, sv);
    REQUIRE_OK(czk_enforce_vec(cs, &a, &b, &c, "r", CZK_NOIDX));
    czk_lc_free_vec(&a), czk_lc_free_vec(&b), czk_lc_free_vec(&c);
    czk_pce *p;
    REQUIRE_OK(czk_pce_recorder_finish(rec, &p, "order"));
    czk_pce_recorder_destroy(rec);
    czk_pce_info in;
    czk_pce_info_get(p, &in);
    REQUIRE(in.rows == 2 && in.nnz[0] == 3 && in.pow2[0] == 2); /* 2x1 and the input row's ONE */
    char path[600];
    snprintf(path, sizeof path, "%s/order.pce", czk_test_tmpdir());
    REQUIRE_OK(czk_pce_write(p, path));
    czk_pce_destroy(p);
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n);
    REQUIRE(buf && fread(buf, 1, n, f) == n);
    fclose(f);
    uint32_t hb;
    memcpy(&hb, buf + 12, 4); /* header_bytes */
    /* version 3: A's len, col, code arrays each start at a multiple of CZK__PCE_FILE_ALIGN */
    const size_t al = CZK__PCE_FILE_ALIGN;
#define ALIGN_UP(v) (((v) + al - 1) / al * al)
    size_t len_a = ALIGN_UP((size_t)hb), col_a = ALIGN_UP(len_a + in.rows * 2);
    size_t code_a = ALIGN_UP(col_a + in.nnz[0] * 4);
#undef ALIGN_UP
    REQUIRE(code_a + 4 < n);
    uint16_t c0, c1;
    memcpy(&c0, buf + code_a, 2);
    memcpy(&c1, buf + code_a + 2, 2);
    memcpy(buf + code_a, &c1, 2); /* the Horner term before the general one */
    memcpy(buf + code_a + 2, &c0, 2);
    uint64_t sum = czk__pce_file_sum(buf, n - 8, 1);
    memcpy(buf + n - 8, &sum, 8);
    f = fopen(path, "wb");
    REQUIRE(f && fwrite(buf, 1, n, f) == n);
    fclose(f);
    czk_pce *q = NULL;
    CHECK(czk_pce_read(&q, path, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "evaluation order") != NULL, "%s", czk_last_error());
    /* a column out of range (checksum right): refused, the non-zero named */
    memcpy(buf + code_a, &c0, 2);
    memcpy(buf + code_a + 2, &c1, 2);
    uint32_t col0, big = (uint32_t)in.cols;
    memcpy(&col0, buf + col_a + 4, 4);
    memcpy(buf + col_a + 4, &big, 4);
    sum = czk__pce_file_sum(buf, n - 8, 2);
    memcpy(buf + n - 8, &sum, 8);
    f = fopen(path, "wb");
    REQUIRE(f && fwrite(buf, 1, n, f) == n);
    fclose(f);
    CHECK(czk_pce_read(&q, path, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "non-zero 1: column or coefficient code out of range") != NULL, "%s",
              czk_last_error());
    /* a row length that breaks the count (checksum right): refused */
    memcpy(buf + col_a + 4, &col0, 4);
    uint16_t l0, l1;
    memcpy(&l0, buf + len_a, 2);
    l1 = (uint16_t)(l0 + 1);
    memcpy(buf + len_a, &l1, 2);
    sum = czk__pce_file_sum(buf, n - 8, 1);
    memcpy(buf + n - 8, &sum, 8);
    f = fopen(path, "wb");
    REQUIRE(f && fwrite(buf, 1, n, f) == n);
    fclose(f);
    CHECK(czk_pce_read(&q, path, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "matrix A") != NULL && strstr(czk_last_error(), "non-zero count") != NULL,
              "%s", czk_last_error());
    /* everything back (checksum recomputed again): accepted */
    memcpy(buf + len_a, &l0, 2);
    sum = czk__pce_file_sum(buf, n - 8, 1);
    memcpy(buf + n - 8, &sum, 8);
    f = fopen(path, "wb");
    REQUIRE(f && fwrite(buf, 1, n, f) == n);
    fclose(f);
    free(buf);
    CHECK_OK(czk_pce_read(&q, path, "order"));
    czk_pce_destroy(q);
}

/* The parallel witness-only synthesis (challenges on several threads, values
 * written in place) equals the sequential WITNESS backend bit for bit, for
 * any thread count (more threads than challenges included). */
CZK_TEST(porep_parallel_witness_equals_sequential)
{
    use_tmp_cache("cache2ch");
    czk_fc_shape s;
    /* 64 nodes, 2 layers, 1 partition x 2 challenges, trees 8-8-0 */
    REQUIRE_OK(czk_fc_shape_custom(&s, 64, 2, 1, 2, 8, 8, 0));
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, 11, NULL, NULL));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    czk_cs *seq;
    REQUIRE_OK(czk_cs_create(&seq, CZK_CS_WITNESS, CZK_LC_VEC, &z));
    REQUIRE_OK(czk_porep_synthesize(seq, &s, &c1, 0));
    const czk_fr *in0, *aux0;
    size_t ni0, na0;
    REQUIRE_OK(czk_cs_witness_get(seq, &in0, &ni0, &aux0, &na0));
    CHECK_EQ_U64(ni0, z.n_inputs);
    CHECK_EQ_U64(na0, z.n_aux);
    czk_pce *p = NULL;
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, &s, NULL, NULL, NULL));
    czk_pce_porep_work *w;
    REQUIRE_OK(czk_pce_porep_work_create(&w, p, &s));
    static const int th[] = {1, 2, 3};
    const size_t nth = getenv("CZK_TEST_ASAN") ? 2 : 3;
    for (size_t t = 0; t < nth; t++) {
        czk_pce_porep_work_set_threads(w, th[t]);
        const czk_fr *in, *aux;
        size_t ni, na;
        REQUIRE_OK(czk_pce_porep_witness(w, &c1, 0, &in, &ni, &aux, &na));
        CHECK_EQ_U64(ni, ni0);
        CHECK_EQ_U64(na, na0);
        if (ni != ni0 || na != na0) continue;
        CHECK_MSG(!memcmp(in, in0, ni * sizeof(czk_fr)), "input differs with %d threads", th[t]);
        size_t first = na;
        for (size_t i = 0; i < na && first == na; i++)
            if (memcmp(&aux[i], &aux0[i], sizeof(czk_fr))) first = i;
        CHECK_MSG(first == na, "aux %zu differs with %d threads", first, th[t]);
    }
    /* a wrong shape is refused, not overrun */
    czk_fc_c1 c2;
    memset(&c2, 0, sizeof c2);
    czk_fc_shape s2;
    REQUIRE_OK(czk_fc_shape_custom(&s2, 64, 2, 1, 3, 8, 8, 0));
    REQUIRE_OK(czk_fc_gen_c1(&c2, &s2, 11, NULL, NULL));
    const czk_fr *in, *aux;
    size_t ni, na;
    CHECK(czk_pce_porep_witness(w, &c2, 0, &in, &ni, &aux, &na) == CZK_ERR_INVALID_ARG);
    czk_fc_c1_free(&c2);
    czk_pce_porep_work_destroy(w);
    czk_pce_destroy(p);
    czk_cs_destroy(seq);
    czk_fc_c1_free(&c1);
}

/* czk_pce_porep_validate: full and streamed comparison with the PROVE
 * synthesis pass on a correct assignment and name the first wrong vector
 * and index otherwise. */
CZK_TEST(porep_validate_full_and_streamed)
{
    use_tmp_cache("cache2ch");
    czk_fc_shape s;
    /* 64 nodes, 2 layers, 1 partition x 2 challenges (streamed on one thread: two windows) */
    REQUIRE_OK(czk_fc_shape_custom(&s, 64, 2, 1, 2, 8, 8, 0));
    czk_fc_c1 c1;
    memset(&c1, 0, sizeof c1);
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, 3, NULL, NULL));
    czk_pce *p = NULL;
    REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_porep, &s, NULL, NULL, NULL));
    czk_pce_porep_work *w;
    REQUIRE_OK(czk_pce_porep_work_create(&w, p, &s));
    CHECK(czk_pce_porep_validate(w, &c1, 0, 2, 0) == CZK_ERR_INVALID_ARG); /* nothing held yet */
    czk_cs_assignment a;
    REQUIRE_OK(czk_pce_porep_synthesize(w, &c1, 0, 2, &a, NULL));
    CHECK_OK(czk_pce_porep_validate(w, &c1, 0, 2, 0));
    CHECK_OK(czk_pce_porep_validate(w, &c1, 0, 1, 1));
    CHECK(czk_pce_porep_validate_bytes(w, 1, 1) < czk_pce_porep_validate_bytes(w, 0, 1));
    /* a wrong c value: named by the full comparison */
    size_t r = a.n_constraints / 2;
    czk_fr save = a.c[r];
    czk_fr_add((czk_fr *)&a.c[r], &save, &CZK_FR_ONE);
    char want[64];
    snprintf(want, sizeof want, "PCE c[%zu] differs", r);
    CHECK(czk_pce_porep_validate(w, &c1, 0, 2, 0) == CZK_ERR_INTERNAL);
    CHECK_MSG(strstr(czk_last_error(), want) != NULL, "%s", czk_last_error());
    ((czk_fr *)a.c)[r] = save;
    /* a wrong witness value: the streamed comparison evaluates the PCE on it */
    size_t j = a.n_aux - 7;
    save = a.aux[j];
    czk_fr_add((czk_fr *)&a.aux[j], &save, &CZK_FR_ONE);
    CHECK(czk_pce_porep_validate(w, &c1, 0, 2, 1) == CZK_ERR_INTERNAL);
    CHECK_MSG(strstr(czk_last_error(), "differs from the PROVE synthesis") != NULL, "%s", czk_last_error());
    ((czk_fr *)a.aux)[j] = save;
    czk_pce_porep_work_destroy(w);
    czk_pce_destroy(p);
    czk_fc_c1_free(&c1);
}

/* czk bench synth-only --pce on|both|auto, --validate, --stream. */
CZK_TEST(cli_synth_only_pce)
{
    const char *cli = czk_test_cli();
    if (!strchr(cli, '/') || getenv("CZK_TEST_ASAN")) {
        printf("  note: CZK_CLI not set (run through ctest) or ASan; skipped\n");
        return;
    }
    const char *dir = czk_test_tmpdir();
    const char *shape = "--nodes 8 --layers 2 --challenges 1 --tree 8";
    char out[16384];
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "CZK_CACHE_DIR='%s/so' '%s' bench synth-only %s -i 1 --pce auto --json", dir,
                         cli, shape),
                 0);
    CHECK_MSG(strstr(out, "\"backend\":\"prove\"") && strstr(out, "\"ok\":true"), "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out,
                         "CZK_CACHE_DIR='%s/so' '%s' bench synth-only %s -i 1 --pce both --validate --json", dir, cli,
                         shape),
                 0);
    CHECK_MSG(strstr(out, "{\"off\":{") && strstr(out, ",\"on\":{") && strstr(out, "\"pce_built\":true") &&
                  strstr(out, "\"validated\":true") && strstr(out, "\"mode\":\"full\"") &&
                  strstr(out, "\"speedup_wall\":"),
              "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "CZK_CACHE_DIR='%s/so' '%s' bench synth-only %s -i 1 --pce auto --stream --validate",
                         dir, cli, shape),
                 0);
    CHECK_MSG(strstr(out, "pce on") && strstr(out, "mode: streamed") && strstr(out, "PCE read from the cache") &&
                  strstr(out, "validate (partition 0)") && strstr(out, "streamed: PROVE rows"),
              "%s", out);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' bench synth-only %s --validate 2>&1", cli, shape), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' bench synth-only %s --pce maybe 2>&1", cli, shape), 2);
}
