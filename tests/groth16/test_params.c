/* Parameter files: validation modes (full, pinned, curve), the checksum
 * sidecar, and bad points named by section, index and byte offset in every
 * mode. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/sha.h>

#include "../runner.h"
#include "czk/groth16.h"
#include "ec/ec_internal.h"

#define VK_FIXED (3 * 96 + 3 * 192)

typedef struct shape {
    size_t n_ic, n_h, n_l, n_a, n_b;
} shape;

static void g1_points(czk_g1_affine *out, size_t n, czk_rng *rng)
{
    if (!n) return;
    czk_g1_affine g;
    czk_g1_generator(&g);
    czk_g1_jac *j = malloc(n * sizeof *j);
    czk_fp *scratch = malloc(n * sizeof *scratch);
    czk_fr k;
    czk_fr_random(&k, rng);
    czk_g1_jac_from_affine(&j[0], &g);
    czk_g1_mul_var(&j[0], &j[0], &k);
    for (size_t i = 1; i < n; i++) czk_g1_jac_add_affine(&j[i], &j[i - 1], &g);
    czk_g1_jac_batch_to_affine(out, j, n, scratch);
    free(j);
    free(scratch);
}

static void g2_points(czk_g2_affine *out, size_t n, czk_rng *rng)
{
    if (!n) return;
    czk_g2_affine g;
    czk_g2_generator(&g);
    czk_g2_jac *j = malloc(n * sizeof *j);
    czk_fp2 *scratch = malloc(n * sizeof *scratch);
    czk_fr k;
    czk_fr_random(&k, rng);
    czk_g2_jac_from_affine(&j[0], &g);
    czk_g2_mul_var(&j[0], &j[0], &k);
    for (size_t i = 1; i < n; i++) czk_g2_jac_add_affine(&j[i], &j[i - 1], &g);
    czk_g2_jac_batch_to_affine(out, j, n, scratch);
    free(j);
    free(scratch);
}

/* Random subgroup points in bellperson's layout (not a real circuit's). */
static void make_params(czk_groth16_params *p, const shape *s, czk_rng *rng)
{
    memset(p, 0, sizeof *p);
    czk_g1_affine v1[3];
    czk_g2_affine v2[3];
    g1_points(v1, 3, rng);
    g2_points(v2, 3, rng);
    p->vk.alpha_g1 = v1[0], p->vk.beta_g1 = v1[1], p->vk.delta_g1 = v1[2];
    p->vk.beta_g2 = v2[0], p->vk.gamma_g2 = v2[1], p->vk.delta_g2 = v2[2];
    p->vk.n_ic = s->n_ic;
    p->vk.ic = malloc(s->n_ic * sizeof *p->vk.ic);
    g1_points(p->vk.ic, s->n_ic, rng);
    p->n_h = s->n_h, p->n_l = s->n_l, p->n_a = s->n_a, p->n_b_g1 = s->n_b, p->n_b_g2 = s->n_b;
    p->h = malloc((s->n_h + 1) * sizeof *p->h);
    p->l = malloc((s->n_l + 1) * sizeof *p->l);
    p->a = malloc((s->n_a + 1) * sizeof *p->a);
    p->b_g1 = malloc((s->n_b + 1) * sizeof *p->b_g1);
    p->b_g2 = malloc((s->n_b + 1) * sizeof *p->b_g2);
    g1_points(p->h, s->n_h, rng);
    g1_points(p->l, s->n_l, rng);
    g1_points(p->a, s->n_a, rng);
    g1_points(p->b_g1, s->n_b, rng);
    g2_points(p->b_g2, s->n_b, rng);
}

static int params_equal(const czk_groth16_params *x, const czk_groth16_params *y)
{
    if (x->n_h != y->n_h || x->n_l != y->n_l || x->n_a != y->n_a || x->n_b_g1 != y->n_b_g1 ||
        x->n_b_g2 != y->n_b_g2 || x->vk.n_ic != y->vk.n_ic)
        return 0;
    int ok = czk_g1_affine_eq(&x->vk.alpha_g1, &y->vk.alpha_g1) && czk_g2_affine_eq(&x->vk.delta_g2, &y->vk.delta_g2);
    for (size_t i = 0; i < x->vk.n_ic; i++) ok &= czk_g1_affine_eq(&x->vk.ic[i], &y->vk.ic[i]);
    for (size_t i = 0; i < x->n_h; i++) ok &= czk_g1_affine_eq(&x->h[i], &y->h[i]);
    for (size_t i = 0; i < x->n_l; i++) ok &= czk_g1_affine_eq(&x->l[i], &y->l[i]);
    for (size_t i = 0; i < x->n_a; i++) ok &= czk_g1_affine_eq(&x->a[i], &y->a[i]);
    for (size_t i = 0; i < x->n_b_g1; i++) ok &= czk_g1_affine_eq(&x->b_g1[i], &y->b_g1[i]);
    for (size_t i = 0; i < x->n_b_g2; i++) ok &= czk_g2_affine_eq(&x->b_g2[i], &y->b_g2[i]);
    return ok;
}

/* byte offsets of the sections' first points */
typedef struct offs {
    size_t ic, h, l, a, b_g1, b_g2, size;
} offs;

static offs layout(const shape *s)
{
    offs o;
    o.ic = VK_FIXED + 4;
    o.h = o.ic + s->n_ic * 96 + 4;
    o.l = o.h + s->n_h * 96 + 4;
    o.a = o.l + s->n_l * 96 + 4;
    o.b_g1 = o.a + s->n_a * 96 + 4;
    o.b_g2 = o.b_g1 + s->n_b * 96 + 4;
    o.size = o.b_g2 + s->n_b * 192;
    return o;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static int spit(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static struct timespec mtime_of(const char *path)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    stat(path, &st);
    return st.st_mtim;
}

static void set_mtime(const char *path, struct timespec t)
{
    struct timespec ts[2] = {t, t};
    utimensat(AT_FDCWD, path, ts, 0);
}

/* Rewrite the file's bytes, keeping its size and mtime (so that only the
 * checksum can tell). */
static int rewrite_keep_mtime(const char *path, const void *b, size_t n)
{
    struct timespec t = mtime_of(path);
    if (!spit(path, b, n)) return 0;
    set_mtime(path, t);
    return 1;
}

/* Rewrite with a different mtime (a stale sidecar). */
static int rewrite_new_mtime(const char *path, const void *b, size_t n)
{
    struct timespec t = mtime_of(path);
    if (!spit(path, b, n)) return 0;
    t.tv_sec += 7;
    set_mtime(path, t);
    return 1;
}

static czk_status read_mode(czk_groth16_params *p, const char *path, czk_groth16_check c, czk_groth16_read_info *info)
{
    czk_groth16_read_opts o = {c, 0, 0, NULL};
    return czk_groth16_params_read_ex(p, path, &o, info);
}

static void sidecar_of(char *out, size_t n, const char *path) { czk_groth16_params_sidecar_path(out, n, path); }

static const shape SMALL = {4, 15, 11, 6, 5};

static void put_g1(uint8_t *at, const czk_g1_affine *a) { czk_g1_serialize(at, a); }

/* a point on G1 outside the subgroup: random x until x^3 + 4 is a square */
static void g1_off_subgroup(czk_g1_affine *r, czk_rng *rng)
{
    czk_fp x, y2, four;
    czk_fp_from_u64(&four, 4);
    for (;;) {
        czk_fp_random(&x, rng);
        czk_fp_sqr(&y2, &x);
        czk_fp_mul(&y2, &y2, &x);
        czk_fp_add(&y2, &y2, &four);
        if (czk_fp_sqrt(&r->y, &y2)) break;
    }
    r->x = x;
    r->inf = 0;
}

static void g2_off_subgroup(czk_g2_affine *r, czk_rng *rng)
{
    czk_fp2 x, y2, b;
    czk_fp2_set_one(&b);
    czk_fp2_mul_by_nonresidue(&b, &b);
    czk_fp2_dbl(&b, &b);
    czk_fp2_dbl(&b, &b);
    for (;;) {
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&y2, &x);
        czk_fp2_mul(&y2, &y2, &x);
        czk_fp2_add(&y2, &y2, &b);
        if (czk_fp2_sqrt(&r->y, &y2)) break;
    }
    r->x = x;
    r->inf = 0;
}

static const czk_groth16_check ALL_MODES[3] = {CZK_GROTH16_CHECK_FULL, CZK_GROTH16_CHECK_PINNED,
                                               CZK_GROTH16_CHECK_CURVE};

CZK_TEST(params_pinned_lifecycle)
{
    czk_rng *rng = czk_test_rng();
    czk_groth16_params p;
    make_params(&p, &SMALL, rng);
    char path[600], sc[700], other[700];
    snprintf(path, sizeof path, "%s/pin.params", czk_test_tmpdir());
    sidecar_of(sc, sizeof sc, path);
    CHECK(strcmp(sc + strlen(sc) - 9, ".czkcheck") == 0);
    unlink(sc);
    REQUIRE_OK(czk_groth16_params_write(path, &p));

    czk_groth16_params q;
    czk_groth16_read_info info, info2;
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "no sidecar") != NULL, "why: %s", info.why);
    CHECK(info.recorded == 1);
    CHECK(params_equal(&p, &q));
    CHECK_EQ_U64(info.file_bytes, layout(&SMALL).size);
    czk_groth16_params_clear(&q);
    size_t n = 0;
    uint8_t *scb = slurp(sc, &n);
    REQUIRE(scb);
    scb[n] = 0;
    CHECK_MSG(strncmp((char *)scb, "czk-params-check 1\n", 19) == 0, "sidecar: %s", (char *)scb);
    free(scb);

    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED);
    CHECK(info2.why[0] == 0);
    CHECK(info2.recorded == 0);
    CHECK_MEM(info2.digest, info.digest, CZK_GROTH16_DIGEST_LEN);
    CHECK(params_equal(&p, &q));
    char line[800];
    czk_groth16_read_info_describe(line, sizeof line, &info2);
    CHECK_MSG(strstr(line, "pinned") != NULL, "%s", line);
    czk_groth16_params_clear(&q);

    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_CURVE, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_CURVE);
    CHECK(params_equal(&p, &q));
    czk_groth16_params_clear(&q);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_FULL, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_FULL && info2.recorded == 1);
    CHECK_MEM(info2.digest, info.digest, CZK_GROTH16_DIGEST_LEN);
    czk_groth16_read_info_describe(line, sizeof line, &info2);
    CHECK_MSG(strstr(line, "fully validated") != NULL, "%s", line);
    czk_groth16_params_clear(&q);

    /* no_record: nothing written; opts NULL means pinned */
    unlink(sc);
    czk_groth16_read_opts o = {CZK_GROTH16_CHECK_PINNED, 1, 1, NULL};
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, &o, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_FULL && info2.recorded == 0);
    CHECK(access(sc, F_OK) != 0);
    czk_groth16_params_clear(&q);
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, NULL, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_FULL && info2.recorded == 1);
    czk_groth16_params_clear(&q);
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, NULL, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED);
    czk_groth16_params_clear(&q);

    /* a sidecar elsewhere; an unwritable sidecar location is reported, not fatal */
    snprintf(other, sizeof other, "%s/elsewhere.czkcheck", czk_test_tmpdir());
    unlink(other);
    o = (czk_groth16_read_opts){CZK_GROTH16_CHECK_PINNED, 0, 0, other};
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, &o, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_FULL && info2.recorded == 1);
    CHECK(access(other, F_OK) == 0);
    czk_groth16_params_clear(&q);
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, &o, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED);
    czk_groth16_params_clear(&q);
    o.sidecar = "/nonexistent-dir-czk/x.czkcheck";
    REQUIRE_OK(czk_groth16_params_read_ex(&q, path, &o, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_FULL && info2.recorded == 0 && info2.record_error[0]);
    czk_groth16_params_clear(&q);

    /* write_pinned records the sidecar with the file: the first read is pinned,
     * and its checksum equals the one a full read computes */
    unlink(sc);
    REQUIRE_OK(czk_groth16_params_write_pinned(path, &p));
    REQUIRE(access(sc, F_OK) == 0);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED);
    CHECK_MEM(info2.digest, info.digest, CZK_GROTH16_DIGEST_LEN);
    CHECK(params_equal(&p, &q));
    czk_groth16_params_clear(&q);
    /* a plain write of the same bytes moves the mtime: the checksum still
     * matches the pin, so no subgroup checks, and the new mtime is recorded */
    {
        struct timespec t = mtime_of(path);
        REQUIRE_OK(czk_groth16_params_write(path, &p));
        t.tv_sec -= 5;
        set_mtime(path, t);
    }
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED && info2.recorded);
    CHECK_MSG(strstr(info2.why, "another mtime"), "why: %s", info2.why);
    CHECK(params_equal(&p, &q));
    czk_groth16_params_clear(&q);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info2));
    CHECK(info2.ran == CZK_GROTH16_CHECK_PINNED && !info2.recorded && !info2.why[0]);
    czk_groth16_params_clear(&q);

    /* names */
    czk_groth16_check c;
    CHECK_OK(czk_groth16_check_parse(&c, "pinned"));
    CHECK(c == CZK_GROTH16_CHECK_PINNED);
    CHECK_OK(czk_groth16_check_parse(&c, "curve"));
    CHECK(c == CZK_GROTH16_CHECK_CURVE);
    CHECK_OK(czk_groth16_check_parse(&c, "full"));
    CHECK(c == CZK_GROTH16_CHECK_FULL);
    CHECK(czk_groth16_check_parse(&c, "fast") == CZK_ERR_INVALID_ARG);
    o = (czk_groth16_read_opts){(czk_groth16_check)7, 0, 0, NULL};
    CHECK(czk_groth16_params_read_ex(&q, path, &o, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strcmp(czk_groth16_check_name(CZK_GROTH16_CHECK_PINNED), "pinned") == 0);
    czk_groth16_params_clear(&p);
}

/* Expect status s naming `what` (e.g. "section l, point 5 (byte offset 123)"). */
#define EXPECT_BAD(path, mode, st, what)                                                               \
    do {                                                                                               \
        czk_groth16_params q_;                                                                         \
        czk_groth16_read_info i_;                                                                      \
        czk_status s_ = read_mode(&q_, path, mode, &i_);                                               \
        CHECK_MSG(s_ == (st), "mode %s: status %d, want %d (%s)", czk_groth16_check_name(mode), s_, st, \
                  czk_last_error());                                                                   \
        CHECK_MSG(strstr(czk_last_error(), what) != NULL, "mode %s: message '%s' lacks '%s'",          \
                  czk_groth16_check_name(mode), czk_last_error(), what);                               \
        if (s_ == CZK_OK) czk_groth16_params_clear(&q_);                                               \
    } while (0)

CZK_TEST(params_bad_point_named_in_every_mode)
{
    czk_rng *rng = czk_test_rng();
    czk_groth16_params p;
    make_params(&p, &SMALL, rng);
    offs o = layout(&SMALL);
    char path[600], sc[700], what[200];
    snprintf(path, sizeof path, "%s/bad.params", czk_test_tmpdir());
    sidecar_of(sc, sizeof sc, path);
    unlink(sc);
    REQUIRE_OK(czk_groth16_params_write(path, &p));
    size_t n;
    uint8_t *good = slurp(path, &n);
    REQUIRE(good && n == o.size);
    uint8_t *b = malloc(n);
    czk_groth16_params q;
    czk_groth16_read_info info;
    /* record a sidecar for the good bytes: every later rewrite keeps size and
     * mtime, so the pinned read must find the change through the checksum */
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    REQUIRE(info.recorded);
    czk_groth16_params_clear(&q);

    /* off the curve: l[5] */
    memcpy(b, good, n);
    b[o.l + 5 * 96 + 50] ^= 0x10;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section l, point 5 (byte offset %zu)", o.l + 5 * 96);
    for (int m = 0; m < 3; m++) EXPECT_BAD(path, ALL_MODES[m], CZK_ERR_NOT_ON_CURVE, what);

    /* identity: a[2] */
    memcpy(b, good, n);
    memset(b + o.a + 2 * 96, 0, 96);
    b[o.a + 2 * 96] = 0x40;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section a, point 2 (byte offset %zu)", o.a + 2 * 96);
    for (int m = 0; m < 3; m++) EXPECT_BAD(path, ALL_MODES[m], CZK_ERR_IDENTITY, what);

    /* x >= p: b_g1[4] */
    memcpy(b, good, n);
    memset(b + o.b_g1 + 4 * 96, 0xff, 48);
    b[o.b_g1 + 4 * 96] = 0x1f;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section b_g1, point 4 (byte offset %zu)", o.b_g1 + 4 * 96);
    for (int m = 0; m < 3; m++) EXPECT_BAD(path, ALL_MODES[m], CZK_ERR_NOT_CANONICAL, what);

    /* on the curve, outside the subgroup: h[3]; size and mtime unchanged */
    czk_g1_affine bad1;
    g1_off_subgroup(&bad1, rng);
    REQUIRE(!czk_g1_affine_in_subgroup_ref(&bad1));
    memcpy(b, good, n);
    put_g1(b + o.h + 3 * 96, &bad1);
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section h, point 3 (byte offset %zu)", o.h + 3 * 96);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_FULL, CZK_ERR_NOT_IN_SUBGROUP, what);
    {
        czk_status s = read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info);
        CHECK(s == CZK_ERR_NOT_IN_SUBGROUP);
        CHECK_MSG(strstr(czk_last_error(), what), "%s", czk_last_error());
        CHECK_MSG(strstr(info.why, "does not match"), "why: %s", info.why);
    }
    /* the on-curve-only mode does not look at the subgroup (by contract) */
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_CURVE, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_CURVE);
    czk_groth16_params_clear(&q);
    /* the same corruption with a stale sidecar (mtime moved) */
    REQUIRE(rewrite_new_mtime(path, b, n));
    {
        czk_status s = read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info);
        CHECK(s == CZK_ERR_NOT_IN_SUBGROUP);
        CHECK_MSG(strstr(czk_last_error(), what), "%s", czk_last_error());
        CHECK_MSG(strstr(info.why, "stale"), "why: %s", info.why);
    }

    /* G2 outside the subgroup: b_g2[1] */
    czk_g2_affine bad2;
    g2_off_subgroup(&bad2, rng);
    REQUIRE(!czk_g2_affine_in_subgroup_ref(&bad2));
    memcpy(b, good, n);
    czk_g2_serialize(b + o.b_g2 + 192, &bad2);
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section b_g2, point 1 (byte offset %zu)", o.b_g2 + 192);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_FULL, CZK_ERR_NOT_IN_SUBGROUP, what);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_PINNED, CZK_ERR_NOT_IN_SUBGROUP, what);

    /* the verifying key: beta_g2 outside the subgroup, ic[1] off the curve */
    memcpy(b, good, n);
    czk_g2_serialize(b + 2 * 96, &bad2);
    REQUIRE(rewrite_keep_mtime(path, b, n));
    EXPECT_BAD(path, CZK_GROTH16_CHECK_FULL, CZK_ERR_NOT_IN_SUBGROUP, "vk.beta_g2 (byte offset 192)");
    EXPECT_BAD(path, CZK_GROTH16_CHECK_PINNED, CZK_ERR_NOT_IN_SUBGROUP, "vk.beta_g2 (byte offset 192)");
    memcpy(b, good, n);
    b[o.ic + 96 + 60] ^= 1;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section vk.ic, point 1 (byte offset %zu)", o.ic + 96);
    for (int m = 0; m < 3; m++) EXPECT_BAD(path, ALL_MODES[m], CZK_ERR_NOT_ON_CURVE, what);

    /* a decoding failure is reported before an earlier subgroup failure */
    memcpy(b, good, n);
    put_g1(b + o.h + 1 * 96, &bad1);
    b[o.a + 3 * 96 + 70] ^= 4;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section a, point 3 (byte offset %zu)", o.a + 3 * 96);
    for (int m = 0; m < 2; m++) EXPECT_BAD(path, ALL_MODES[m], CZK_ERR_NOT_ON_CURVE, what);

    /* the good bytes back (the mtime moved above): the checksum matches the
     * pin, pinned without subgroup checks, the new mtime recorded */
    REQUIRE(rewrite_keep_mtime(path, good, n));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED && info.recorded);
    czk_groth16_params_clear(&q);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    CHECK(params_equal(&p, &q));
    czk_groth16_params_clear(&q);
    free(b);
    free(good);
    czk_groth16_params_clear(&p);
}

CZK_TEST(params_stale_and_mismatched_sidecar)
{
    czk_rng *rng = czk_test_rng();
    czk_groth16_params pa, pb, q;
    make_params(&pa, &SMALL, rng);
    make_params(&pb, &SMALL, rng);
    char path[600], pathb[600], sc[700];
    snprintf(path, sizeof path, "%s/stale.params", czk_test_tmpdir());
    snprintf(pathb, sizeof pathb, "%s/stale_b.params", czk_test_tmpdir());
    sidecar_of(sc, sizeof sc, path);
    unlink(sc);
    REQUIRE_OK(czk_groth16_params_write(pathb, &pb));
    size_t na, nb;
    REQUIRE_OK(czk_groth16_params_write(path, &pa));
    uint8_t *ba = slurp(path, &na), *bb = slurp(pathb, &nb);
    REQUIRE(ba && bb && na == nb);
    czk_groth16_read_info info;
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    czk_groth16_params_clear(&q);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    czk_groth16_params_clear(&q);

    /* other valid contents, new mtime: stale, the checksum differs, validated
     * in full, re-recorded */
    REQUIRE(rewrite_new_mtime(path, bb, nb));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL && info.recorded);
    CHECK_MSG(strstr(info.why, "stale") && strstr(info.why, "checksum differs"), "why: %s", info.why);
    CHECK(params_equal(&pb, &q));
    czk_groth16_params_clear(&q);
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    CHECK(params_equal(&pb, &q));
    czk_groth16_params_clear(&q);

    /* another size (one more l point): stale, validated in full, re-recorded */
    {
        static const shape OTHER = {4, 15, 12, 6, 5};
        czk_groth16_params pc;
        make_params(&pc, &OTHER, rng);
        struct timespec t = mtime_of(path);
        REQUIRE_OK(czk_groth16_params_write(path, &pc));
        set_mtime(path, t); /* even under the recorded mtime */
        REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
        CHECK(info.ran == CZK_GROTH16_CHECK_FULL && info.recorded);
        CHECK_MSG(strstr(info.why, "stale (the file's size changed)"), "why: %s", info.why);
        CHECK(params_equal(&pc, &q));
        czk_groth16_params_clear(&q);
        czk_groth16_params_clear(&pc);
        REQUIRE(rewrite_new_mtime(path, bb, nb)); /* back to b's bytes: the next case's starting point */
        REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_FULL, &info));
        czk_groth16_params_clear(&q);
    }

    /* the first contents again under the recorded size and mtime: mismatch */
    REQUIRE(rewrite_keep_mtime(path, ba, na));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "does not match"), "why: %s", info.why);
    CHECK(params_equal(&pa, &q));
    czk_groth16_params_clear(&q);

    /* a tampered checksum in the sidecar */
    size_t sn;
    uint8_t *s = slurp(sc, &sn);
    REQUIRE(s);
    s[sn] = 0;
    char *h = strstr((char *)s, "sha256-blocks-32768 ");
    REQUIRE(h);
    h += strlen("sha256-blocks-32768 ");
    *h = *h == '0' ? '1' : '0';
    REQUIRE(spit(sc, s, sn));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "does not match"), "why: %s", info.why);
    czk_groth16_params_clear(&q);
    /* malformed and future-format sidecars */
    REQUIRE(spit(sc, "garbage\n", 8));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "malformed"), "why: %s", info.why);
    czk_groth16_params_clear(&q);
    free(s);
    s = slurp(sc, &sn);
    REQUIRE(s);
    s[sn] = 0;
    REQUIRE(strncmp((char *)s, "czk-params-check 1\n", 19) == 0);
    s[17] = '9';
    REQUIRE(spit(sc, s, sn));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK_MSG(strstr(info.why, "format 9"), "why: %s", info.why);
    czk_groth16_params_clear(&q);
    /* a sidecar copied from another file */
    char scb[700];
    sidecar_of(scb, sizeof scb, pathb);
    unlink(scb);
    REQUIRE_OK(read_mode(&q, pathb, CZK_GROTH16_CHECK_FULL, &info));
    czk_groth16_params_clear(&q);
    free(s);
    s = slurp(scb, &sn);
    REQUIRE(s);
    REQUIRE(spit(sc, s, sn));
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_FULL);
    CHECK(info.why[0] != 0);
    czk_groth16_params_clear(&q);
    free(s);
    free(ba);
    free(bb);
    czk_groth16_params_clear(&pa);
    czk_groth16_params_clear(&pb);
}

CZK_TEST(params_truncated_and_bad_lengths_rejected)
{
    czk_rng *rng = czk_test_rng();
    czk_groth16_params p, q;
    make_params(&p, &SMALL, rng);
    offs o = layout(&SMALL);
    char path[600], bad[600];
    snprintf(path, sizeof path, "%s/trunc.params", czk_test_tmpdir());
    snprintf(bad, sizeof bad, "%s/trunc_bad.params", czk_test_tmpdir());
    REQUIRE_OK(czk_groth16_params_write(path, &p));
    size_t n;
    uint8_t *good = slurp(path, &n);
    REQUIRE(good);
    size_t cuts[] = {0, 10, 96, VK_FIXED + 2, o.h - 2, o.h + 50, o.l - 1, o.b_g2 + 10, n - 1};
    for (int m = 0; m < 3; m++)
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
            /* a sidecar recorded for the whole file stays next to the cut one */
            REQUIRE(spit(bad, good, n));
            if (i == 0) {
                czk_groth16_read_info info;
                REQUIRE_OK(read_mode(&q, bad, CZK_GROTH16_CHECK_PINNED, &info));
                czk_groth16_params_clear(&q);
            }
            REQUIRE(spit(bad, good, cuts[i]));
            czk_status s = read_mode(&q, bad, ALL_MODES[m], NULL);
            CHECK_MSG(s == CZK_ERR_FORMAT, "mode %s, cut at %zu: status %d (%s)", czk_groth16_check_name(ALL_MODES[m]),
                      cuts[i], s, czk_last_error());
        }
    /* trailing bytes; a count larger than the file */
    uint8_t *b = malloc(n + 1);
    memcpy(b, good, n);
    b[n] = 0;
    REQUIRE(spit(bad, b, n + 1));
    CHECK(read_mode(&q, bad, CZK_GROTH16_CHECK_PINNED, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "trailing"), "%s", czk_last_error());
    memcpy(b, good, n);
    b[o.l - 4] = 0x7f;
    REQUIRE(spit(bad, b, n));
    CHECK(read_mode(&q, bad, CZK_GROTH16_CHECK_PINNED, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "section l: count"), "%s", czk_last_error());
    CHECK(read_mode(&q, "/nonexistent-czk/x.params", CZK_GROTH16_CHECK_PINNED, NULL) == CZK_ERR_IO);
    /* lengths inconsistent with bellperson's shape */
    struct {
        shape s;
        const char *what;
    } shapes[] = {{{4, 14, 11, 6, 5}, "section h: 14 points"},
                  {{4, 15, 11, 3, 5}, "section a: 3 points"}};
    for (int i = 0; i < 2; i++) {
        czk_groth16_params w;
        make_params(&w, &shapes[i].s, rng);
        REQUIRE_OK(czk_groth16_params_write(bad, &w));
        CHECK(read_mode(&q, bad, CZK_GROTH16_CHECK_FULL, NULL) == CZK_ERR_FORMAT);
        CHECK_MSG(strstr(czk_last_error(), shapes[i].what), "%s", czk_last_error());
        czk_groth16_params_clear(&w);
    }
    czk_groth16_params w;
    make_params(&w, &SMALL, rng);
    w.n_b_g2 = 4;
    REQUIRE_OK(czk_groth16_params_write(bad, &w));
    CHECK(read_mode(&q, bad, CZK_GROTH16_CHECK_PINNED, NULL) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(czk_last_error(), "b_g1 and b_g2"), "%s", czk_last_error());
    czk_groth16_params_clear(&w);
    free(b);
    free(good);
    czk_groth16_params_clear(&p);
}

/* A section spanning several read blocks (32768 points each): the first
 * failure in file order is reported, and the checksum covers every block. */
/* The sidecar checksum recomputed from the file bytes with OpenSSL's
 * one-shot SHA256 (czk uses the EVP interface):
 * SHA-256("czk-params-check/1" || u64 le size || SHA-256 of each block),
 * blocks = the vk, then each section cut every 32768 points (the first block
 * of a section includes its count). */
static void oracle_digest(uint8_t out[32], const uint8_t *f, size_t n, const shape *sh)
{
    offs o = layout(sh);
    size_t starts[5] = {o.h, o.l, o.a, o.b_g1, o.b_g2}, counts[5] = {sh->n_h, sh->n_l, sh->n_a, sh->n_b, sh->n_b};
    size_t nb = 1;
    for (int s = 0; s < 5; s++) nb += counts[s] ? (counts[s] + 32767) / 32768 : 1;
    uint8_t *msg = malloc(26 + 32 * nb), *m = msg;
    memcpy(m, "czk-params-check/1", 18), m += 18;
    for (int i = 0; i < 8; i++) *m++ = (uint8_t)((uint64_t)n >> (8 * i));
    SHA256(f, o.h - 4, m), m += 32;
    for (int s = 0; s < 5; s++) {
        size_t psz = s == 4 ? 192 : 96, first = 0;
        do {
            size_t k = counts[s] - first < 32768 ? counts[s] - first : 32768;
            size_t off = first ? starts[s] + first * psz : starts[s] - 4;
            SHA256(f + off, (first ? 0 : 4) + k * psz, m), m += 32;
            first += k;
        } while (first < counts[s]);
    }
    SHA256(msg, (size_t)(m - msg), out);
    free(msg);
}

CZK_TEST(params_multi_block)
{
    czk_rng *rng = czk_test_rng();
    shape sh = {3, 7, getenv("CZK_TEST_ASAN") ? 40 : 32768 + 1500, 4, 3};
    czk_groth16_params p, q;
    make_params(&p, &sh, rng);
    offs o = layout(&sh);
    char path[600], sc[700], what[200];
    snprintf(path, sizeof path, "%s/multi.params", czk_test_tmpdir());
    sidecar_of(sc, sizeof sc, path);
    unlink(sc);
    /* the writer's block checksums agree with the reader's */
    REQUIRE_OK(czk_groth16_params_write_pinned(path, &p));
    size_t n;
    uint8_t *good = slurp(path, &n);
    REQUIRE(good);
    czk_groth16_read_info info;
    REQUIRE_OK(read_mode(&q, path, CZK_GROTH16_CHECK_PINNED, &info));
    CHECK(info.ran == CZK_GROTH16_CHECK_PINNED);
    CHECK(params_equal(&p, &q));
    czk_groth16_params_clear(&q);
    uint8_t want[32];
    oracle_digest(want, good, n, &sh);
    CHECK_MEM(info.digest, want, 32);

    size_t late = sh.n_l - 7, early = sh.n_l > 32768 ? 32770 : 20;
    czk_g1_affine bad1;
    g1_off_subgroup(&bad1, rng);
    uint8_t *b = malloc(n);
    /* one byte flipped in the last block: the pinned read finds it by checksum */
    memcpy(b, good, n);
    put_g1(b + o.l + late * 96, &bad1);
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section l, point %zu (byte offset %zu)", late, o.l + late * 96);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_PINNED, CZK_ERR_NOT_IN_SUBGROUP, what);
    /* two subgroup failures: the earlier one */
    put_g1(b + o.l + early * 96, &bad1);
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section l, point %zu (byte offset %zu)", early, o.l + early * 96);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_FULL, CZK_ERR_NOT_IN_SUBGROUP, what);
    /* plus an off-curve point in a later section: decoding failures first */
    b[o.b_g2 + 192 + 100] ^= 2;
    REQUIRE(rewrite_keep_mtime(path, b, n));
    snprintf(what, sizeof what, "section b_g2, point 1 (byte offset %zu)", o.b_g2 + 192);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_PINNED, CZK_ERR_NOT_ON_CURVE, what);
    EXPECT_BAD(path, CZK_GROTH16_CHECK_CURVE, CZK_ERR_NOT_ON_CURVE, what);
    free(b);
    free(good);
    czk_groth16_params_clear(&p);
}
