/* snarkjs Groth16 .zkey reader (version 1, docs/circom.md) and its pinned
 * validation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "czk/czk.h"
#include "groth16/pin.h"
#include "io/io_internal.h"

void czk_circom_zkey_clear(czk_circom_zkey *z)
{
    free(z->ic);
    free(z->coef_matrix);
    free(z->coef_row);
    free(z->coef_signal);
    free(z->coef_value);
    free(z->a_density);
    free(z->b1_density);
    free(z->b2_density);
    free(z->a);
    free(z->b1);
    free(z->b2);
    free(z->c);
    free(z->h);
    memset(z, 0, sizeof *z);
}

void czk_circom_zkey_vk(czk_circom_vk *vk, const czk_circom_zkey *z)
{
    vk->n_public = z->n_public;
    vk->alpha1 = z->alpha1;
    vk->beta2 = z->beta2;
    vk->gamma2 = z->gamma2;
    vk->delta2 = z->delta2;
    vk->ic = z->ic;
}

static czk_status exact_len(const czk__cur *k, uint64_t want, const char *what)
{
    if (k->s->len != want)
        return czk__cur_err(k, CZK_ERR_FORMAT, k->s->off, "%s section is %llu bytes, expected %llu", what,
                            (unsigned long long)k->s->len, (unsigned long long)want);
    return CZK_OK;
}

/* Read n_vars points of a query and keep only the finite ones. */
#define DEFINE_SPARSE(G)                                                                          \
    static czk_status sparse_##G(czk__cur *k, size_t n, unsigned flags, const char *what,          \
                                 czk_##G##_affine **pts, size_t *npts, uint64_t **dens)           \
    {                                                                                             \
        czk_##G##_affine *all = malloc((n ? n : 1) * sizeof *all);                                \
        *dens = calloc((n + 63) / 64 + 1, sizeof(uint64_t));                                      \
        if (!all || !*dens) {                                                                     \
            free(all);                                                                            \
            return czk_error(CZK_ERR_NOMEM, "%s: %s: %zu points", k->c->name, what, n);           \
        }                                                                                         \
        czk_status s = czk__cur_##G##_lem(k, all, n, flags, what);                                \
        if (s != CZK_OK) {                                                                        \
            free(all);                                                                            \
            return s;                                                                             \
        }                                                                                         \
        size_t m = 0;                                                                             \
        for (size_t i = 0; i < n; i++)                                                            \
            if (!all[i].inf) {                                                                    \
                (*dens)[i / 64] |= 1ull << (i % 64);                                              \
                all[m++] = all[i];                                                                \
            }                                                                                     \
        czk_##G##_affine *shr = realloc(all, (m ? m : 1) * sizeof *all);                          \
        *pts = shr ? shr : all;                                                                   \
        *npts = m;                                                                                \
        return CZK_OK;                                                                            \
    }

DEFINE_SPARSE(g1)
DEFINE_SPARSE(g2)

static czk_status zkey_parse(czk_circom_zkey *z, const uint8_t *buf, size_t len, const char *name,
                             unsigned flags)
{
    czk__container c;
    CZK_TRY(czk__container_open(&c, buf, len, name, "zkey"));
    if (c.version != 1)
        return czk_error(CZK_ERR_UNSUPPORTED, "%s: byte 4: zkey version %u (only version 1 is supported)",
                         name, c.version);
    const czk__sect *s1, *s2, *s3, *s4, *s5, *s6, *s7, *s8, *s9;
    CZK_TRY(czk__container_find(&s1, &c, 1));
    czk__cur k;
    czk__cur_init(&k, &c, s1);
    uint32_t protocol;
    CZK_TRY(czk__cur_u32(&k, &protocol, "protocol"));
    if (protocol != 1)
        return czk__cur_err(&k, CZK_ERR_UNSUPPORTED, s1->off, "protocol %u is not Groth16 (1)%s", protocol,
                            protocol == 2 ? ": a PLONK zkey" : protocol == 10 ? ": an FFLONK zkey" : "");
    CZK_TRY(czk__container_find(&s2, &c, 2));
    CZK_TRY(czk__container_find(&s3, &c, 3));
    CZK_TRY(czk__container_find(&s4, &c, 4));
    CZK_TRY(czk__container_find(&s5, &c, 5));
    CZK_TRY(czk__container_find(&s6, &c, 6));
    CZK_TRY(czk__container_find(&s7, &c, 7));
    CZK_TRY(czk__container_find(&s8, &c, 8));
    CZK_TRY(czk__container_find(&s9, &c, 9));

    /* Section 2: the Groth16 header. */
    czk__cur_init(&k, &c, s2);
    uint32_t n8q, n8r;
    uint64_t off = k.sp.pos;
    CZK_TRY(czk__cur_u32(&k, &n8q, "n8q"));
    if (n8q != 48)
        return czk__cur_err(&k, CZK_ERR_UNSUPPORTED, off,
                            "base field size n8q = %u bytes%s; czk supports only BLS12-381 (n8q = 48)", n8q,
                            n8q == 32 ? " (BN254 / bn128)" : "");
    CZK_TRY(czk__cur_need(&k, 48, "q"));
    for (int i = 0; i < CZK_FP_LIMBS; i++)
        if (czk__rd64(buf + k.sp.pos + 8 * i) != CZK_FP_MODULUS[i])
            return czk__cur_err(&k, CZK_ERR_UNSUPPORTED, k.sp.pos, "base field prime is not BLS12-381's p");
    k.sp.pos += 48;
    off = k.sp.pos;
    CZK_TRY(czk__cur_u32(&k, &n8r, "n8r"));
    CZK_TRY(czk__cur_need(&k, 32, "r"));
    CZK_TRY(czk__check_prime_r(&k, n8r, off));
    k.sp.pos += 32;
    CZK_TRY(czk__cur_u32(&k, &z->n_vars, "nVars"));
    CZK_TRY(czk__cur_u32(&k, &z->n_public, "nPublic"));
    off = k.sp.pos;
    CZK_TRY(czk__cur_u32(&k, &z->domain_size, "domainSize"));
    if (z->domain_size < 2 || (z->domain_size & (z->domain_size - 1)) || z->domain_size > (1u << 28))
        return czk__cur_err(&k, CZK_ERR_FORMAT, off, "domainSize %u is not a power of two in 2..2^28",
                            z->domain_size);
    z->log_n = (unsigned)__builtin_ctz(z->domain_size);
    if (z->n_vars == 0 || (uint64_t)z->n_public + 1 > z->n_vars)
        return czk__cur_err(&k, CZK_ERR_FORMAT, off - 8, "nVars %u, nPublic %u: need nPublic + 1 <= nVars",
                            z->n_vars, z->n_public);
    CZK_TRY(czk__cur_g1_lem(&k, &z->alpha1, 1, flags, "alpha1"));
    CZK_TRY(czk__cur_g1_lem(&k, &z->beta1, 1, flags, "beta1"));
    CZK_TRY(czk__cur_g2_lem(&k, &z->beta2, 1, flags, "beta2"));
    CZK_TRY(czk__cur_g2_lem(&k, &z->gamma2, 1, flags, "gamma2"));
    CZK_TRY(czk__cur_g1_lem(&k, &z->delta1, 1, flags, "delta1"));
    CZK_TRY(czk__cur_g2_lem(&k, &z->delta2, 1, flags, "delta2"));
    if (czk__cur_left(&k) != 0)
        return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos, "%llu trailing bytes in the Groth16 header",
                            (unsigned long long)czk__cur_left(&k));
    if (z->alpha1.inf || z->beta1.inf || z->beta2.inf || z->gamma2.inf || z->delta1.inf || z->delta2.inf)
        return czk__cur_err(&k, CZK_ERR_IDENTITY, s2->off, "a verifying-key point is the point at infinity");

    size_t nv = z->n_vars, np1 = (size_t)z->n_public + 1, n = z->domain_size;

    /* Section 3: IC. */
    czk__cur_init(&k, &c, s3);
    CZK_TRY(exact_len(&k, (uint64_t)np1 * 96, "IC"));
    z->ic = malloc(np1 * sizeof *z->ic);
    if (!z->ic) return czk_error(CZK_ERR_NOMEM, "%s: IC", name);
    CZK_TRY(czk__cur_g1_lem(&k, z->ic, np1, flags, "IC"));

    /* Section 4: coefficients (value stored as coef * R^2 mod r, R = 2^256). */
    czk__cur_init(&k, &c, s4);
    uint32_t nc;
    CZK_TRY(czk__cur_u32(&k, &nc, "coefficient count"));
    CZK_TRY(exact_len(&k, 4 + (uint64_t)nc * 44, "coefficient"));
    z->n_coefs = nc;
    z->coef_matrix = malloc(nc ? nc : 1);
    z->coef_row = malloc((nc ? nc : 1) * sizeof(uint32_t));
    z->coef_signal = malloc((nc ? nc : 1) * sizeof(uint32_t));
    z->coef_value = malloc((nc ? nc : 1) * sizeof(czk_fr));
    if (!z->coef_matrix || !z->coef_row || !z->coef_signal || !z->coef_value)
        return czk_error(CZK_ERR_NOMEM, "%s: %u coefficients", name, nc);
    /* Montgomery product with the raw limb 1 divides by R: coef R^2 -> coef R,
     * the Montgomery form of the plain coefficient. */
    const czk_fr raw_one = {{1, 0, 0, 0}};
    for (uint32_t i = 0; i < nc; i++) {
        const uint8_t *p = buf + k.sp.pos + 44ull * i;
        uint32_t m = czk__rd32(p), row = czk__rd32(p + 4), sig = czk__rd32(p + 8);
        if (m > 1)
            return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos + 44ull * i, "coefficient %u: matrix %u (0 = A, 1 = B)",
                                i, m);
        if (row >= n)
            return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos + 44ull * i + 4,
                                "coefficient %u: row %u >= domainSize %u", i, row, z->domain_size);
        if (sig >= nv)
            return czk__cur_err(&k, CZK_ERR_FORMAT, k.sp.pos + 44ull * i + 8,
                                "coefficient %u: signal %u >= nVars %u", i, sig, z->n_vars);
        czk_fr v;
        for (int l = 0; l < 4; l++) v.l[l] = czk__rd64(p + 12 + 8 * l);
        int lt = 0;
        for (int l = 3; l >= 0; l--) {
            if (v.l[l] < CZK_FR_MODULUS[l]) { lt = 1; break; }
            if (v.l[l] > CZK_FR_MODULUS[l]) break;
        }
        if (!lt)
            return czk__cur_err(&k, CZK_ERR_NOT_CANONICAL, k.sp.pos + 44ull * i + 12, "coefficient %u: value >= r", i);
        czk_fr_mul(&z->coef_value[i], &v, &raw_one);
        z->coef_matrix[i] = (uint8_t)m;
        z->coef_row[i] = row;
        z->coef_signal[i] = sig;
    }

    /* Sections 5-9: the proving queries. */
    czk__cur_init(&k, &c, s5);
    CZK_TRY(exact_len(&k, (uint64_t)nv * 96, "A"));
    CZK_TRY(sparse_g1(&k, nv, flags, "A", &z->a, &z->n_a, &z->a_density));
    czk__cur_init(&k, &c, s6);
    CZK_TRY(exact_len(&k, (uint64_t)nv * 96, "B1"));
    CZK_TRY(sparse_g1(&k, nv, flags, "B1", &z->b1, &z->n_b1, &z->b1_density));
    czk__cur_init(&k, &c, s7);
    CZK_TRY(exact_len(&k, (uint64_t)nv * 192, "B2"));
    CZK_TRY(sparse_g2(&k, nv, flags, "B2", &z->b2, &z->n_b2, &z->b2_density));
    czk__cur_init(&k, &c, s8);
    CZK_TRY(exact_len(&k, (uint64_t)(nv - np1) * 96, "C"));
    z->c = malloc((nv - np1 ? nv - np1 : 1) * sizeof *z->c);
    if (!z->c) return czk_error(CZK_ERR_NOMEM, "%s: C", name);
    CZK_TRY(czk__cur_g1_lem(&k, z->c, nv - np1, flags, "C"));
    czk__cur_init(&k, &c, s9);
    CZK_TRY(exact_len(&k, (uint64_t)n * 96, "H"));
    z->h = malloc(n * sizeof *z->h);
    if (!z->h) return czk_error(CZK_ERR_NOMEM, "%s: H", name);
    CZK_TRY(czk__cur_g1_lem(&k, z->h, n, flags, "H"));
    return CZK_OK;
}

czk_status czk_circom_zkey_parse(czk_circom_zkey *z, const uint8_t *buf, size_t len, const char *name,
                                 unsigned flags)
{
    memset(z, 0, sizeof *z);
    czk_status s = zkey_parse(z, buf, len, name, flags);
    if (s != CZK_OK) czk_circom_zkey_clear(z);
    return s;
}

czk_status czk_circom_zkey_read(czk_circom_zkey *z, const char *path, unsigned flags)
{
    uint8_t *buf;
    size_t len;
    memset(z, 0, sizeof *z);
    CZK_TRY(czk__io_read_file(&buf, &len, path));
    czk_status s = czk_circom_zkey_parse(z, buf, len, path, flags);
    free(buf);
    return s;
}

czk_status czk_circom_zkey_match_r1cs(const czk_circom_zkey *z, const czk_circom_r1cs *r)
{
    if (z->n_vars != r->n_wires)
        return czk_error(CZK_ERR_INVALID_ARG, "zkey has %u signals but the r1cs has %u wires", z->n_vars,
                         r->n_wires);
    if (z->n_public != r->n_outputs + r->n_pub_inputs)
        return czk_error(CZK_ERR_INVALID_ARG, "zkey has %u public signals but the r1cs has %u outputs + %u public inputs",
                         z->n_public, r->n_outputs, r->n_pub_inputs);
    if ((uint64_t)r->n_constraints + z->n_public + 1 > z->domain_size)
        return czk_error(CZK_ERR_INVALID_ARG, "zkey domain %u is too small for %u constraints + %u publics + 1",
                         z->domain_size, r->n_constraints, z->n_public);
    size_t i = 0;
    for (uint32_t j = 0; j < r->n_constraints; j++)
        for (int m = 0; m < 2; m++)
            for (uint64_t t = r->start[m][j]; t < r->start[m][j + 1]; t++, i++) {
                if (i >= z->n_coefs || z->coef_matrix[i] != m || z->coef_row[i] != j ||
                    z->coef_signal[i] != r->wire[m][t] || !czk_fr_eq(&z->coef_value[i], &r->coef[m][t]))
                    return czk_error(CZK_ERR_INVALID_ARG,
                                     "zkey coefficient record %zu differs from the r1cs (constraint %u, %c term %llu): "
                                     "the zkey was not made for this r1cs",
                                     i, j, "AB"[m], (unsigned long long)(t - r->start[m][j]));
            }
    return CZK_OK;
}

/* ---- pinned validation (the .params sidecar scheme, src/groth16/pin.h) ---------------- */

#define ZKEY_PIN_BLOCK ((size_t)4 << 20)
static const czk__pin_format ZKEY_PIN = {"czk-zkey-check", 1, "sha256-blocks-4194304"};
#define ZKEY_PIN_DOMAIN "czk-zkey-check/1"

static int same_file_state(const struct stat *a, const struct stat *b)
{
    return a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec && a->st_ino == b->st_ino;
}

/* The whole file and its state before and after the read (equal, or an error). */
static czk_status read_stable(uint8_t **buf, size_t *len, struct stat *st, const char *path)
{
    struct stat st0, st1;
    if (stat(path, &st0) != 0) return czk_error(CZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    CZK_TRY(czk__io_read_file(buf, len, path));
    if (stat(path, &st1) != 0 || !same_file_state(&st0, &st1) || (uint64_t)*len != (uint64_t)st0.st_size) {
        free(*buf);
        *buf = NULL;
        return czk_error(CZK_ERR_IO, "%s: the file changed while it was being read", path);
    }
    *st = st0;
    return CZK_OK;
}

static void zkey_extra(char *out, size_t n, const czk_circom_zkey *z)
{
    snprintf(out, n,
             "validated full: canonical coordinates, on curve, in subgroup (every point), section lengths\n"
             "zkey nVars=%u nPublic=%u domainSize=%u coefficients=%zu\n",
             z->n_vars, z->n_public, z->domain_size, z->n_coefs);
}

czk_status czk_circom_zkey_read_ex(czk_circom_zkey *z, const char *path, const czk_groth16_read_opts *opts,
                                   czk_groth16_read_info *info)
{
    czk_groth16_read_opts o = {CZK_GROTH16_CHECK_PINNED, 0, 0, NULL};
    if (opts) o = *opts;
    memset(z, 0, sizeof *z);
    czk_groth16_read_info inf;
    memset(&inf, 0, sizeof inf);
    if (info) *info = inf;
    if (o.check != CZK_GROTH16_CHECK_FULL && o.check != CZK_GROTH16_CHECK_PINNED && o.check != CZK_GROTH16_CHECK_CURVE)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: unknown zkey check mode %d", path, (int)o.check);
    double t0 = czk_now();
    char scpath[4200];
    if (o.sidecar)
        snprintf(scpath, sizeof scpath, "%s", o.sidecar);
    else
        snprintf(scpath, sizeof scpath, "%s" CZK__PIN_SUFFIX, path);
    uint8_t *buf;
    size_t len;
    struct stat st;
    CZK_TRY(read_stable(&buf, &len, &st, path));
    inf.file_bytes = len;
    int hashed = 0, repin = 0; /* repin: pinned under a new mtime, to be recorded */
    unsigned flags = 0;
    if (o.check == CZK_GROTH16_CHECK_CURVE) {
        flags = CZK_CIRCOM_NO_SUBGROUP_CHECK;
        inf.ran = CZK_GROTH16_CHECK_CURVE;
    } else {
        inf.ran = CZK_GROTH16_CHECK_FULL;
        czk__pin pin;
        if (o.check == CZK_GROTH16_CHECK_PINNED && czk__pin_load(&pin, scpath, &ZKEY_PIN, inf.why, sizeof inf.why)) {
            int moved = czk__pin_moved(&pin, &st); /* same size, another mtime: the checksum decides */
            if (!czk__pin_fresh(&pin, &st) && !moved) {
                snprintf(inf.why, sizeof inf.why, "sidecar %.300s is stale (the file's size changed)", scpath);
            } else {
                czk__pin_digest_buf(inf.digest, ZKEY_PIN_DOMAIN, buf, len, ZKEY_PIN_BLOCK, o.threads);
                hashed = 1;
                if (memcmp(inf.digest, pin.digest, CZK__PIN_DIGEST) == 0) {
                    flags = CZK_CIRCOM_NO_SUBGROUP_CHECK;
                    inf.ran = CZK_GROTH16_CHECK_PINNED;
                    repin = moved;
                    if (moved)
                        snprintf(inf.why, sizeof inf.why,
                                 "sidecar %.300s had another mtime (the file was copied or touched); the checksum "
                                 "matched",
                                 scpath);
                } else if (moved) {
                    snprintf(inf.why, sizeof inf.why,
                             "sidecar %.300s is stale (the file's mtime changed) and the checksum differs: the "
                             "contents changed",
                             scpath);
                } else {
                    snprintf(inf.why, sizeof inf.why,
                             "sidecar %.300s does not match: the contents changed, size and mtime did not", scpath);
                }
            }
        }
    }
    double t1 = czk_now();
    czk_status s = czk_circom_zkey_parse(z, buf, len, path, flags);
    inf.decode_s = czk_now() - t1;
    if (s == CZK_OK && (inf.ran == CZK_GROTH16_CHECK_FULL || repin) && !o.no_record) {
        if (!hashed) czk__pin_digest_buf(inf.digest, ZKEY_PIN_DOMAIN, buf, len, ZKEY_PIN_BLOCK, o.threads);
        char extra[320];
        zkey_extra(extra, sizeof extra, z);
        if (czk__pin_write(scpath, &ZKEY_PIN, &st, inf.digest, extra) == CZK_OK)
            inf.recorded = 1;
        else
            snprintf(inf.record_error, sizeof inf.record_error, "%s", czk_last_error());
    }
    free(buf);
    inf.total_s = czk_now() - t0;
    if (info) *info = inf;
    return s;
}

czk_status czk_circom_zkey_pin(const char *path)
{
    uint8_t *buf;
    size_t len;
    struct stat st;
    CZK_TRY(read_stable(&buf, &len, &st, path));
    /* the header fields for the sidecar's note, without decoding the points */
    czk__container c;
    const czk__sect *s2 = NULL;
    czk_status s = czk__container_open(&c, buf, len, path, "zkey");
    if (s == CZK_OK) s = czk__container_find(&s2, &c, 2);
    if (s == CZK_OK && s2->len < 4 + 48 + 4 + 32 + 12)
        s = czk_error(CZK_ERR_FORMAT, "%s: Groth16 header section too short", path);
    if (s == CZK_OK) {
        czk_circom_zkey hz;
        memset(&hz, 0, sizeof hz);
        const uint8_t *h = buf + s2->off + 4 + 48 + 4 + 32;
        hz.n_vars = czk__rd32(h);
        hz.n_public = czk__rd32(h + 4);
        hz.domain_size = czk__rd32(h + 8);
        uint8_t digest[CZK__PIN_DIGEST];
        czk__pin_digest_buf(digest, ZKEY_PIN_DOMAIN, buf, len, ZKEY_PIN_BLOCK, 0);
        char extra[320];
        snprintf(extra, sizeof extra,
                 "written by czk: points multiples of the generators (in the subgroup)\n"
                 "zkey nVars=%u nPublic=%u domainSize=%u\n",
                 hz.n_vars, hz.n_public, hz.domain_size);
        char scpath[4200];
        snprintf(scpath, sizeof scpath, "%s" CZK__PIN_SUFFIX, path);
        s = czk__pin_write(scpath, &ZKEY_PIN, &st, digest, extra);
    }
    free(buf);
    return s;
}
