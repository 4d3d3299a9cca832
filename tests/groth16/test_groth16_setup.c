/* Groth16 setup's fixed-base multiplication (signed windows, batch-affine
 * additions: src/groth16/fixed_base.c) against czk_g1_mul_var /
 * czk_g2_mul_var, for window widths across the range and scalars at the
 * edges of the digit recoding: 0, 1, r - 1, (r -+ 1)/2 (where k is replaced by
 * r - k), all-ones and single windows, digits of exactly 2^(c-1) (no carry)
 * and 2^(c-1) + 1 (a carry through every window), long runs of ones and
 * zeros, equal and opposite scalars side by side. Under both field kernels
 * (the 8-lane IFMA batch and the scalar one). */
#include <stdlib.h>
#include <string.h>

#include "both_kernels.h"
#include "cs/cs_internal.h"
#include "runner.h"

#include "czk/czk.h"
#include "czk/groth16.h"
#include "groth16/fixed_base.h"

/* (r - 1) / 2, little-endian limbs */
static const uint64_t half_r[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL, 0x199cec0404d0ec02ULL,
                                   0x39f6d3a994cebea4ULL};

#define N_EDGE 40

/* k[0..N_EDGE): edge scalars, some for window c. */
static void edge_scalars(czk_fr *k, unsigned c)
{
    uint64_t l[4];
    czk_fr one;
    czk_fr_from_u64(&one, 1);
    size_t e = 0;
    czk_fr_from_u64(&k[e++], 0);
    k[e++] = one;
    czk_fr_from_u64(&k[e++], 2);
    czk_fr_neg(&k[e++], &one);                               /* r - 1 */
    czk_fr_sub(&k[e], &k[e - 1], &one), e++;                 /* r - 2 */
    czk_fr_from_limbs_reduce(&k[e++], half_r);               /* (r - 1) / 2: kept */
    czk_fr_add(&k[e], &k[e - 1], &one), e++;                 /* (r + 1) / 2: replaced by r - k */
    czk_fr_sub(&k[e], &k[e - 2], &one), e++;                 /* (r - 3) / 2 */
    czk_fr_from_u64(&k[e++], ((uint64_t)1 << c) - 1);        /* one full window */
    czk_fr_from_u64(&k[e++], (uint64_t)1 << (c - 1));        /* the largest digit */
    czk_fr_from_u64(&k[e++], ((uint64_t)1 << (c - 1)) + 1);  /* the smallest that carries */
    czk_fr_from_u64(&k[e++], (uint64_t)1 << c);              /* the second window alone */
    czk_fr_neg(&k[e], &k[e - 1]), e++;                       /* r - 2^c */
    for (int v = 0; v < 2; v++) { /* every window 2^(c-1) (no carry), or 2^(c-1) + 1 (carries) */
        memset(l, 0, sizeof l);
        for (unsigned pos = 0; pos + c <= 253; pos += c) {
            uint64_t d = ((uint64_t)1 << (c - 1)) + (uint64_t)v;
            for (unsigned b = 0; b < c; b++)
                if ((d >> b) & 1) l[(pos + b) / 64] |= (uint64_t)1 << ((pos + b) % 64);
        }
        czk_fr_from_limbs_reduce(&k[e++], l);
        czk_fr_neg(&k[e], &k[e - 1]), e++;
    }
    l[0] = l[1] = l[2] = ~(uint64_t)0, l[3] = ~(uint64_t)0 >> 2;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* 2^254 - 1: all ones */
    memset(l, 0, sizeof l);
    l[3] = (uint64_t)1 << 62;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* 2^254: the top bit alone */
    l[3] = ~(uint64_t)0 >> 2, l[2] = l[1] = l[0] = 0;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* a run of ones above 192 zeros */
    l[3] = 0, l[2] = 0, l[1] = ~(uint64_t)0, l[0] = ~(uint64_t)0;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* 128 ones, then zeros */
    l[0] = 0xffff0000ffff0000ULL, l[1] = 0x0000ffff0000ffffULL, l[2] = l[0], l[3] = 0x0fff0000ffff0000ULL;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* runs of 16 */
    l[0] = 0x5555555555555555ULL, l[1] = l[0], l[2] = l[0], l[3] = 0x1555555555555555ULL;
    czk_fr_from_limbs_reduce(&k[e++], l);                    /* alternating bits */
    k[e] = k[e - 1], e++;                                    /* equal scalars side by side */
    czk_fr_neg(&k[e], &k[e - 1]), e++;                       /* and opposite ones */
    while (e < N_EDGE) czk_fr_from_u64(&k[e], (uint64_t)e * 0x10001u), e++;
}

/* The check of one group: out[i] == k[i] G for every i, for each width
 * (0: the cost model's). ASan builds skip the wide tables (slow there). */
#define FIXED_TEST(grp, AFF, JAC, NPTS, ...)                                                                 \
    static void fixed_##grp##_body(void)                                                                     \
    {                                                                                                        \
        const int asan = getenv("CZK_TEST_ASAN") != NULL;                                                    \
        const unsigned widths[] = {__VA_ARGS__};                                                             \
        const size_t n = NPTS;                                                                               \
        czk_fr *k = malloc(n * sizeof *k);                                                                   \
        AFF *p = malloc(n * sizeof *p), *ref = malloc(n * sizeof *ref), g;                                   \
        REQUIRE(k && p && ref);                                                                              \
        czk_##grp##_generator(&g);                                                                           \
        JAC gj;                                                                                              \
        czk_##grp##_jac_from_affine(&gj, &g);                                                                \
        const size_t step = asan ? 29 : 1;                                                                   \
        for (size_t i = 0; i < n; i++) czk_fr_random(&k[i], czk_test_rng());                                 \
        int refs = 0; /* the uniform scalars' references made */                                             \
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {                                        \
            unsigned c = widths[w] ? widths[w] : 16;                                                         \
            if (asan && c > 8) continue;                                                                     \
            edge_scalars(k, c);                                                                              \
            for (size_t i = 0; i < n; i += (i < N_EDGE ? 1 : step)) {                                        \
                if (refs && i >= N_EDGE) break; /* the uniform ones: once */                                \
                JAC r;                                                                                       \
                czk_##grp##_mul_var(&r, &gj, &k[i]);                                                         \
                czk_##grp##_jac_to_affine(&ref[i], &r);                                                      \
            }                                                                                                \
            refs = 1;                                                                                        \
            memset(p, 0xa5, n * sizeof *p);                                                                  \
            REQUIRE_OK(czk_groth16_fixed_##grp##_var(p, k, n, widths[w], 2));                                \
            size_t bad = 0, first = n;                                                                       \
            for (size_t i = 0; i < n; i += (i < N_EDGE ? 1 : step))                                          \
                if (!czk_##grp##_affine_eq(&ref[i], &p[i])) bad++, first = first < i ? first : i;            \
            CHECK_MSG(bad == 0, "window %u: %zu points differ, the first k[%zu]", widths[w], bad, first);    \
            CHECK(p[0].inf == 1 && p[1].inf == 0);                                                           \
        }                                                                                                    \
        free(k), free(p), free(ref);                                                                         \
    }

/* 1100 points: a full chunk of 1024 and a short one. */
FIXED_TEST(g1, czk_g1_affine, czk_g1_jac, 1100, 0, 3, 7, 12, 16)
FIXED_TEST(g2, czk_g2_affine, czk_g2_jac, 1030, 0, 3, 10)

CZK_TEST(fixed_g1_matches_mul_var) { both_kernels(fixed_g1_body); }

CZK_TEST(fixed_g2_matches_mul_var) { both_kernels(fixed_g2_body); }

CZK_TEST(fixed_window_range)
{
    czk_g1_affine p[1];
    czk_fr k[1];
    czk_fr_from_u64(&k[0], 5);
    CHECK(czk_groth16_fixed_g1_var(p, k, 1, 2, 1) == CZK_ERR_INVALID_ARG);
    CHECK(czk_groth16_fixed_g1_var(p, k, 1, 23, 1) == CZK_ERR_INVALID_ARG);
    REQUIRE_OK(czk_groth16_fixed_g1_var(p, k, 1, 3, 1));
    czk_g1_affine g;
    czk_g1_jac j;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&j, &g);
    czk_g1_mul_var(&j, &j, &k[0]);
    czk_g1_affine r;
    czk_g1_jac_to_affine(&r, &j);
    CHECK(czk_g1_affine_eq(&r, &p[0]));
}

/* ---- the streamed setup ---------------------------------------------------------------- */

#include <sys/stat.h>

#include "common/random_circuit.h"

void czk__groth16_setup_stream_chunk(size_t n);

typedef struct csr3 {
    const czk_csr *m[3];
} csr3;

static czk_status csr_columns(void *ctx, int matrix, czk_fr *acc, const czk_fr *lag, size_t row0, size_t row1,
                              int threads)
{
    const czk_csr *m = ((const csr3 *)ctx)->m[matrix];
    (void)threads;
    for (uint64_t r = row0; r < row1; r++)
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            czk_fr t;
            czk_fr_mul(&t, &m->val[k], &lag[r - row0]);
            czk_fr_add(&acc[m->col[k]], &acc[m->col[k]], &t);
        }
    return CZK_OK;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n ? *n : 1);
    if (b && fread(b, 1, *n, f) != *n) free(b), b = NULL;
    fclose(f);
    return b;
}

/* czk_groth16_setup_write writes, section by section in chunks that do not
 * divide the sections (nor the 32768-point blocks of the checksum), the very
 * bytes czk_groth16_params_write writes for czk_groth16_setup with the same
 * seed, the same .vk, and a sidecar a pinned read accepts; a failure leaves
 * nothing at the path. */
CZK_TEST(streamed_setup_equals_in_memory)
{
    const int asan = getenv("CZK_TEST_ASAN") != NULL;
    czk_cs *cs = NULL;
    czk_fr pub[3];
    czk_csr A = {0}, B = {0}, C = {0};
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    /* more than 32768 rows: h spans two checksum blocks */
    REQUIRE_OK(czk_test_random_circuit(cs, 5, 1, 3, 9, asan ? 300 : 33000, pub));
    REQUIRE_OK(czk_cs_finalize(cs));
    REQUIRE_OK(czk_cs_shape_csr(cs, &A, &B, &C));
    size_t n_inputs = cs->n_inputs;
    czk_cs_destroy(cs);
    czk_groth16_setup_opts o = {0};
    o.use_seed = 1;
    o.seed = 99;
    czk_groth16_params p;
    REQUIRE_OK(czk_groth16_setup(&p, &A, &B, &C, n_inputs, &o));
    char ref[600], refvk[600], out[600], outvk[600];
    snprintf(ref, sizeof ref, "%s/ref.params", czk_test_tmpdir());
    snprintf(refvk, sizeof refvk, "%s/ref.vk", czk_test_tmpdir());
    snprintf(out, sizeof out, "%s/stream.params", czk_test_tmpdir());
    snprintf(outvk, sizeof outvk, "%s/stream.vk", czk_test_tmpdir());
    REQUIRE_OK(czk_groth16_params_write(ref, &p));
    REQUIRE_OK(czk_groth16_vk_write(refvk, &p.vk));
    czk_groth16_params_clear(&p);
    csr3 m = {{&A, &B, &C}};
    czk_groth16_setup_circuit c = {A.n_rows, A.n_cols, n_inputs, csr_columns, &m};
    czk__groth16_setup_stream_chunk(asan ? 100 : 7777);
    REQUIRE_OK(czk_groth16_setup_write(out, outvk, &c, &o));
    czk__groth16_setup_stream_chunk(0);
    size_t n1, n2, v1, v2;
    uint8_t *b1 = slurp(ref, &n1), *b2 = slurp(out, &n2), *k1 = slurp(refvk, &v1), *k2 = slurp(outvk, &v2);
    REQUIRE(b1 && b2 && k1 && k2);
    CHECK_EQ_U64(n1, n2);
    CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
    CHECK(v1 == v2 && memcmp(k1, k2, v1) == 0);
    free(b1), free(b2), free(k1), free(k2);
    /* the sidecar written with the file pins it */
    czk_groth16_read_opts ro = {CZK_GROTH16_CHECK_PINNED, 0, 1, NULL};
    czk_groth16_read_info info;
    REQUIRE_OK(czk_groth16_params_read_ex(&p, out, &ro, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    czk_groth16_params_clear(&p);
    /* an unwritable place: an error, and no file or temporary left */
    char bad[700];
    snprintf(bad, sizeof bad, "%s/no/such/dir.params", czk_test_tmpdir());
    CHECK(czk_groth16_setup_write(bad, outvk, &c, &o) == CZK_ERR_IO);
    struct stat st;
    CHECK(stat(bad, &st) != 0);
    czk_csr_clear(&A), czk_csr_clear(&B), czk_csr_clear(&C);
}

/* ---- the streamed setup killed (SIGKILL at CZK_FAULT's points) ------------------------- */

#include <dirent.h>

#include "common/fileio.h"

/* A small circuit's streamed setup into dir/stream.params and stream.vk. */
static czk_status small_streamed_setup(const char *dir, uint64_t seed)
{
    czk_cs *cs = NULL;
    czk_fr pub[3];
    czk_csr A = {0}, B = {0}, C = {0};
    czk_rng rng;
    czk_rng_seed(&rng, 7);
    CZK_TRY(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    czk_status s = czk_test_random_circuit(cs, 5, 1, 3, 9, 300, pub);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    if (s == CZK_OK) s = czk_cs_shape_csr(cs, &A, &B, &C);
    size_t n_inputs = cs->n_inputs;
    czk_cs_destroy(cs);
    char out[600], vk[600];
    snprintf(out, sizeof out, "%s/stream.params", dir);
    snprintf(vk, sizeof vk, "%s/stream.vk", dir);
    csr3 m = {{&A, &B, &C}};
    czk_groth16_setup_circuit c = {A.n_rows, A.n_cols, n_inputs, csr_columns, &m};
    czk_groth16_setup_opts o = {0};
    o.use_seed = 1;
    o.seed = seed;
    czk__groth16_setup_stream_chunk(100);
    if (s == CZK_OK) s = czk_groth16_setup_write(out, vk, &c, &o);
    czk__groth16_setup_stream_chunk(0);
    czk_csr_clear(&A), czk_csr_clear(&B), czk_csr_clear(&C);
    return s;
}

static int count_temps(const char *dir, long long *bytes)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        size_t bl;
        if (!czk__temp_name(e->d_name, &bl)) continue;
        char p[1200];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) == 0) *bytes = (long long)st.st_size;
        n++;
    }
    if (d) closedir(d);
    return n;
}

/* czk setup --stream writes a 32GiB .params (47 GB) through this writer.
 * A child czk_tests (this test with CZK_CRASH_DIR set) runs a small
 * streamed setup and is killed mid-write, at the commit (file complete, not
 * renamed) and just after the rename; what it leaves is checked, then a
 * setup here reclaims its temporary and completes the pair. */
CZK_TEST(streamed_setup_killed_then_rerun)
{
    const char *child = getenv("CZK_CRASH_DIR");
    if (child) { /* the child: killed inside this call by CZK_FAULT */
        CHECK_OK(small_streamed_setup(child, 2));
        return;
    }
    if (!czk__fault_built()) {
        printf("  streamed_setup_killed_then_rerun: no CZK_FAULT hooks in this build: not run\n");
        return;
    }
    char dir[600], params[700], vk[700], out[64];
    snprintf(dir, sizeof dir, "%s/crash", czk_test_tmpdir());
    snprintf(params, sizeof params, "%s/stream.params", dir);
    snprintf(vk, sizeof vk, "%s/stream.vk", dir);
    REQUIRE(mkdir(dir, 0755) == 0);
    REQUIRE_OK(small_streamed_setup(dir, 1)); /* an old, complete pair */
    size_t n0, v0;
    uint8_t *p0 = slurp(params, &n0), *k0 = slurp(vk, &v0);
    REQUIRE(p0 && k0 && n0 > 20000);
    static const char *const points[] = {"write:stream.params:20000", "commit:stream.params", "renamed:stream.params"};
    for (int i = 0; i < 3; i++) {
        czk_test_run(out, sizeof out,
                     "CZK_CRASH_DIR='%s' CZK_FAULT=%s '%s/czk_tests' --file test_groth16_setup "
                     "--test streamed_setup_killed_then_rerun >/dev/null 2>&1; echo $?",
                     dir, points[i], CZK_BINARY_DIR);
        CHECK_MSG(atoi(out) == 137, "%s: the child exited %s", points[i], out);
        long long tb = -1;
        int nt = count_temps(dir, &tb);
        size_t n1 = 0, v1 = 0;
        uint8_t *p1 = slurp(params, &n1), *k1 = slurp(vk, &v1);
        if (i < 2) { /* before the rename: one temporary, the old pair whole */
            CHECK_MSG(nt == 1 && tb == (i == 0 ? 20000 : (long long)n0), "%s: %d temporaries, %lld bytes",
                      points[i], nt, tb);
            CHECK(p1 && n1 == n0 && memcmp(p1, p0, n0) == 0);
            CHECK(k1 && v1 == v0 && memcmp(k1, k0, v0) == 0);
        } else { /* after: the new .params (seed 2), and no vk (the old one went before the rename) */
            CHECK_MSG(nt == 0, "%s: %d temporaries", points[i], nt);
            CHECK(p1 && n1 == n0 && memcmp(p1, p0, n0) != 0);
            CHECK(!k1);
        }
        free(p1), free(k1);
    }
    /* the second kill's run reclaimed the first's temporary: never two */
    REQUIRE_OK(small_streamed_setup(dir, 1));
    long long tb = -1;
    CHECK_EQ_U64(count_temps(dir, &tb), 0);
    size_t n2, v2;
    uint8_t *p2 = slurp(params, &n2), *k2 = slurp(vk, &v2);
    CHECK(p2 && n2 == n0 && memcmp(p2, p0, n0) == 0);
    CHECK(k2 && v2 == v0 && memcmp(k2, k0, v0) == 0);
    free(p0), free(k0), free(p2), free(k2);
}
