/* The prover with the parameters streamed from disk (czk_groth16_prove_stream)
 * against the in-memory prover: the same r, s give the same proof bit for
 * bit, with sections split over several chunks, on 1 and 2 threads, with
 * a, b, c from the witness or from a fill function; the validation modes
 * (pinned, no sidecar: full and recorded); and every refusal: a changed
 * file under a fresh-looking sidecar, a bad point, a truncated file,
 * parameters of another circuit, a fill error. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "common/random_circuit.h"
#include "czk/czk.h"
#include "czk/groth16.h"

#define N_IN 3
#define N_FREE 6
/* m = 2^16: h, l, a, b each more than one 32768-point chunk; under the
 * sanitizers (CZK_TEST_ASAN) a smaller circuit whose a and b fit one */
static int sanitized(void) { return getenv("CZK_TEST_ASAN") != NULL; }
#define N_MUL (sanitized() ? 36000 : 52000)

typedef struct circ {
    czk_cs *cs;
    czk_cs_assignment w;
    czk_fr pub[N_IN];
} circ;

static int circ_make(circ *c, uint64_t shape_seed, uint64_t value_seed)
{
    memset(c, 0, sizeof *c);
    if (czk_cs_create(&c->cs, CZK_CS_PROVE, CZK_LC_VEC, NULL) != CZK_OK) return 0;
    if (czk_test_random_circuit(c->cs, shape_seed, value_seed, N_IN, N_FREE, N_MUL, c->pub) != CZK_OK) return 0;
    if (czk_cs_finalize(c->cs) != CZK_OK) return 0;
    return czk_cs_prove_get(c->cs, &c->w) == CZK_OK;
}

static int params_make(czk_groth16_params *p, uint64_t shape_seed)
{
    czk_cs *cs = NULL;
    czk_fr pub[N_IN];
    czk_csr A = {0}, B = {0}, C = {0};
    int ok = czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL) == CZK_OK &&
             czk_test_random_circuit(cs, shape_seed, 1, N_IN, N_FREE, N_MUL, pub) == CZK_OK &&
             czk_cs_finalize(cs) == CZK_OK && czk_cs_shape_csr(cs, &A, &B, &C) == CZK_OK;
    if (ok) {
        czk_groth16_setup_opts o = {0};
        o.use_seed = 1;
        o.seed = shape_seed * 5 + 1;
        ok = czk_groth16_setup(p, &A, &B, &C, cs->n_inputs, &o) == CZK_OK;
    }
    if (!ok) fprintf(stderr, "  params_make: %s\n", czk_last_error());
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_cs_destroy(cs);
    return ok;
}

static int proofs_eq(const czk_groth16_proof *x, const czk_groth16_proof *y)
{
    return czk_g1_affine_eq(&x->a, &y->a) && czk_g2_affine_eq(&x->b, &y->b) && czk_g1_affine_eq(&x->c, &y->c);
}

static czk_status fill_copy(void *ctx, int which, czk_fr *out, size_t m)
{
    const czk_cs_assignment *w = ctx;
    const czk_fr *v = which == 0 ? w->a : which == 1 ? w->b : w->c;
    memcpy(out, v, w->n_constraints * sizeof *out);
    memset(out + w->n_constraints, 0, (m - w->n_constraints) * sizeof *out);
    return CZK_OK;
}

static czk_status fill_fail(void *ctx, int which, czk_fr *out, size_t m)
{
    if (which == 1) return czk_error(CZK_ERR_IO, "planted: matrix B unavailable");
    return fill_copy(ctx, which, out, m);
}

static czk_status stream_prove(czk_groth16_proof *pr, czk_groth16_vk *vk, const char *path, const circ *c,
                               uint64_t seed, int threads, czk_ntt_fill_fn fill, czk_groth16_read_info *info,
                               czk_groth16_stream_stats *stats)
{
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    czk_groth16_stream_opts o = {0};
    o.threads = threads;
    o.rng = &rng;
    o.check = CZK_GROTH16_CHECK_PINNED;
    o.chunk_points = 32768;
    o.fill = fill;
    o.fill_ctx = (void *)&c->w;
    o.info = info;
    o.stats = stats;
    return czk_groth16_prove_stream(pr, vk, path, &c->w, &o);
}

static int rewrite_at(const char *path, size_t off, const void *bytes, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    int fd = open(path, O_WRONLY);
    if (fd < 0) return 0;
    int ok = pwrite(fd, bytes, n, (off_t)off) == (ssize_t)n;
    struct timespec ts[2] = {st.st_atim, st.st_mtim}; /* keep size and mtime: the sidecar looks fresh */
    ok &= futimens(fd, ts) == 0;
    close(fd);
    return ok;
}

CZK_TEST(prove_stream_equals_in_memory)
{
    czk_groth16_params p;
    REQUIRE(params_make(&p, 21));
    circ c;
    REQUIRE(circ_make(&c, 21, 77));
    CHECK_MSG(p.n_h > 32768 && p.n_l > 32768 && (sanitized() || (p.n_a > 32768 && p.n_b_g1 > 32768)),
              "sections of one chunk: h %zu, l %zu, a %zu, b %zu", p.n_h, p.n_l, p.n_a, p.n_b_g1);
    char path[600], sc[700];
    snprintf(path, sizeof path, "%s/stream.params", czk_test_tmpdir());
    czk_groth16_params_sidecar_path(sc, sizeof sc, path);
    REQUIRE_OK(czk_groth16_params_write_pinned(path, &p));

    czk_groth16_pvk pvk;
    REQUIRE_OK(czk_groth16_pvk_prepare(&pvk, &p.vk));
    czk_groth16_proof ref, pr;
    czk_rng rng;
    czk_rng_seed(&rng, 4242);
    czk_groth16_prove_opts po = {0};
    po.rng = &rng;
    REQUIRE_OK(czk_groth16_prove(&ref, &p, &c.w, &po));
    REQUIRE_OK(czk_groth16_verify(&pvk, &ref, c.pub, N_IN));

    /* under the sanitizers (CZK_TEST_ASAN) one of the four combinations */
    for (int threads = sanitized() ? 2 : 1; threads <= 2; threads++)
        for (int f = sanitized(); f < 2; f++) {
            czk_groth16_read_info info;
            czk_groth16_stream_stats stats;
            czk_groth16_vk vk;
            REQUIRE_OK(stream_prove(&pr, &vk, path, &c, 4242, threads, f ? fill_copy : NULL, &info, &stats));
            CHECK_MSG(proofs_eq(&pr, &ref), "%d threads, fill %d: the streamed proof differs", threads, f);
            CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
            CHECK_EQ_U64(stats.chunk_points_g1, 32768);
            uint64_t pts_bytes = (uint64_t)(p.n_h + p.n_l + p.n_a + p.n_b_g1) * 96 + (uint64_t)p.n_b_g2 * 192;
            CHECK_EQ_U64(stats.bytes_read, pts_bytes);
            CHECK_EQ_U64(vk.n_ic, p.vk.n_ic);
            CHECK(czk_g1_affine_eq(&vk.alpha_g1, &p.vk.alpha_g1) && czk_g2_affine_eq(&vk.delta_g2, &p.vk.delta_g2));
            czk_groth16_vk_clear(&vk);
        }
    /* another r, s: another proof, which verifies */
    REQUIRE_OK(stream_prove(&pr, NULL, path, &c, 99, 2, NULL, NULL, NULL));
    CHECK(!proofs_eq(&pr, &ref));
    CHECK_OK(czk_groth16_verify(&pvk, &pr, c.pub, N_IN));
    /* default chunking (one chunk per section here) gives the same proof */
    if (!sanitized()) {
        czk_rng r2;
        czk_rng_seed(&r2, 4242);
        czk_groth16_stream_opts o = {0};
        o.rng = &r2;
        o.check = CZK_GROTH16_CHECK_PINNED;
        REQUIRE_OK(czk_groth16_prove_stream(&pr, NULL, path, &c.w, &o));
        CHECK(proofs_eq(&pr, &ref));
    }

    /* no sidecar: every point checked in full as it is read, then recorded */
    REQUIRE(unlink(sc) == 0);
    czk_groth16_read_info info;
    REQUIRE_OK(stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, &info, NULL));
    CHECK(proofs_eq(&pr, &ref));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL && info.recorded);
    CHECK(access(sc, F_OK) == 0);
    if (!sanitized()) {
        REQUIRE_OK(stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, &info, NULL));
        CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    }

    /* a fill function's error stops the proof with its status */
    czk_status s = stream_prove(&pr, NULL, path, &c, 1, 2, fill_fail, NULL, NULL);
    CHECK(s == CZK_ERR_IO);
    CHECK(strstr(czk_last_error(), "matrix B") != NULL);

    /* the witness of another circuit (more constraints' worth of aux) */
    circ other;
    memset(&other, 0, sizeof other);
    REQUIRE_OK(czk_cs_create(&other.cs, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_test_random_circuit(other.cs, 22, 5, N_IN, N_FREE + 1, 100, other.pub));
    REQUIRE_OK(czk_cs_finalize(other.cs));
    REQUIRE_OK(czk_cs_prove_get(other.cs, &other.w));
    s = stream_prove(&pr, NULL, path, &other, 1, 2, NULL, NULL, NULL);
    CHECK(s == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "stream.params") != NULL);
    czk_cs_destroy(other.cs);

    /* two valid l points swapped, size and mtime kept: the sidecar looks
     * fresh, the checksum does not match, no proof */
    size_t l_off = 3 * 96 + 3 * 192 + 4 + (N_IN + 1) * 96 + 4 + p.n_h * 96 + 4;
    uint8_t pt0[96], pt1[96];
    czk_g1_serialize(pt0, &p.l[33000]);
    czk_g1_serialize(pt1, &p.l[33001]);
    REQUIRE(rewrite_at(path, l_off + 33000 * 96, pt1, 96) && rewrite_at(path, l_off + 33001 * 96, pt0, 96));
    s = stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, NULL, NULL);
    CHECK(s == CZK_ERR_FORMAT);
    CHECK(strstr(czk_last_error(), "checksum") != NULL);
    REQUIRE(rewrite_at(path, l_off + 33000 * 96, pt0, 96) && rewrite_at(path, l_off + 33001 * 96, pt1, 96));
    if (!sanitized()) { /* restored: accepted again */
        REQUIRE_OK(stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, NULL, NULL));
        CHECK(proofs_eq(&pr, &ref));
    }

    /* a point off the curve under a sidecar that looks fresh: the pinned
     * pass decodes encodings only (no curve check), so the checksum refuses
     * the proof; without the sidecar the full check names the point with its
     * section, index and offset */
    uint8_t junk[96];
    memcpy(junk, pt0, 96);
    junk[95] ^= 1;
    REQUIRE(rewrite_at(path, l_off + 33000 * 96, junk, 96));
    s = stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, NULL, NULL);
    CHECK(s == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "checksum differs") != NULL, "%s", czk_last_error());
    REQUIRE(unlink(sc) == 0);
    s = stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, NULL, NULL);
    CHECK(s == CZK_ERR_NOT_ON_CURVE);
    CHECK_MSG(strstr(czk_last_error(), "section l, point 33000") != NULL, "%s", czk_last_error());
    CHECK(access(sc, F_OK) != 0); /* nothing recorded for a bad file */

    /* truncated: refused before any work */
    REQUIRE(truncate(path, (off_t)(l_off + 100)) == 0);
    s = stream_prove(&pr, NULL, path, &c, 4242, 2, NULL, NULL, NULL);
    CHECK(s == CZK_ERR_FORMAT);
    CHECK(stream_prove(&pr, NULL, "/nonexistent/x.params", &c, 1, 1, NULL, NULL, NULL) == CZK_ERR_IO);

    unlink(path);
    unlink(sc);
    czk_cs_destroy(c.cs);
    czk_groth16_params_clear(&p);
}
