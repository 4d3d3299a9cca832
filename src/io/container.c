/* The binary container of circom / snarkjs files and LEM point decoding
 * (docs/circom.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"

czk_status czk__io_read_file(uint8_t **buf, size_t *len, const char *path)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return czk_error(CZK_ERR_IO, "%s: cannot seek: %s", path, strerror(errno));
    }
    long sz = ftell(f);
    if (sz < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return czk_error(CZK_ERR_IO, "%s: cannot determine its size", path);
    }
    uint8_t *b = malloc(sz > 0 ? (size_t)sz : 1);
    if (!b) {
        fclose(f);
        return czk_error(CZK_ERR_NOMEM, "%s: cannot allocate %ld bytes", path, sz);
    }
    if (sz > 0 && fread(b, 1, (size_t)sz, f) != (size_t)sz) {
        free(b);
        fclose(f);
        return czk_error(CZK_ERR_IO, "%s: short read", path);
    }
    fclose(f);
    *buf = b;
    *len = (size_t)sz;
    return CZK_OK;
}

czk_status czk__container_open(czk__container *c, const uint8_t *buf, size_t len, const char *name,
                               const char magic[4])
{
    memset(c, 0, sizeof *c);
    c->buf = buf;
    c->len = len;
    c->name = name;
    if (len < 12)
        return czk_error(CZK_ERR_FORMAT, "%s: %zu bytes, too short for a %.4s header (12 bytes)", name,
                         len, magic);
    if (memcmp(buf, magic, 4) != 0)
        return czk_error(CZK_ERR_FORMAT, "%s: byte 0: magic is not '%.4s' (not a .%.4s file)", name,
                         magic, magic);
    c->version = czk__rd32(buf + 4);
    uint32_t n = czk__rd32(buf + 8);
    if (n > CZK__IO_MAX_SECTIONS)
        return czk_error(CZK_ERR_FORMAT, "%s: byte 8: %u sections (at most %d expected)", name, n,
                         CZK__IO_MAX_SECTIONS);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (len - pos < 12)
            return czk_error(CZK_ERR_FORMAT, "%s: byte %llu: section header %u truncated (file is %zu bytes)",
                             name, (unsigned long long)pos, i, len);
        c->sect[i].type = czk__rd32(buf + pos);
        uint64_t sl = czk__rd64(buf + pos + 4);
        pos += 12;
        if (sl > len - pos)
            return czk_error(CZK_ERR_FORMAT,
                             "%s: byte %llu: section %u (type %u) claims %llu bytes but only %llu remain",
                             name, (unsigned long long)(pos - 8), i, c->sect[i].type,
                             (unsigned long long)sl, (unsigned long long)(len - pos));
        c->sect[i].off = pos;
        c->sect[i].len = sl;
        pos += sl;
    }
    if (pos != len)
        return czk_error(CZK_ERR_FORMAT, "%s: byte %llu: %llu bytes after the last of the %u sections (file is %zu bytes)",
                         name, (unsigned long long)pos, (unsigned long long)(len - pos), n, len);
    c->n_sect = n;
    return CZK_OK;
}

czk_status czk__container_find(const czk__sect **s, const czk__container *c, uint32_t type)
{
    *s = NULL;
    for (uint32_t i = 0; i < c->n_sect; i++) {
        if (c->sect[i].type != type) continue;
        if (*s)
            return czk_error(CZK_ERR_FORMAT, "%s: byte %llu: section type %u appears twice", c->name,
                             (unsigned long long)(c->sect[i].off - 12), type);
        *s = &c->sect[i];
    }
    if (!*s) return czk_error(CZK_ERR_FORMAT, "%s: section %u missing", c->name, type);
    return CZK_OK;
}

void czk__cur_init(czk__cur *k, const czk__container *c, const czk__sect *s)
{
    k->c = c;
    k->s = s;
    k->sp = (czk__span){c->buf, s->off, s->off + s->len};
}

czk_status czk__cur_err(const czk__cur *k, czk_status s, uint64_t off, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return czk_error(s, "%s: section %u at byte %llu: %s", k->c->name, k->s->type,
                     (unsigned long long)off, msg);
}

czk_status czk__cur_need(const czk__cur *k, uint64_t n, const char *what)
{
    if (czk__cur_left(k) < n)
        return czk__cur_err(k, CZK_ERR_FORMAT, k->sp.pos, "%s: needs %llu bytes, section has %llu left", what,
                            (unsigned long long)n, (unsigned long long)czk__cur_left(k));
    return CZK_OK;
}

czk_status czk__cur_u32(czk__cur *k, uint32_t *v, const char *what)
{
    CZK_TRY(czk__cur_need(k, 4, what));
    *v = czk__rd32(czk__span_take(&k->sp, 4));
    return CZK_OK;
}

czk_status czk__cur_u64(czk__cur *k, uint64_t *v, const char *what)
{
    CZK_TRY(czk__cur_need(k, 8, what));
    *v = czk__rd64(czk__span_take(&k->sp, 8));
    return CZK_OK;
}

/* BN254 scalar field r (LE bytes of 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001). */
static const uint8_t BN254_R_LE[32] = {
    0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
    0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};

czk_status czk__check_prime_r(const czk__cur *k, uint32_t n8, uint64_t off)
{
    if (n8 != 32)
        return czk__cur_err(k, CZK_ERR_UNSUPPORTED, off,
                            "scalar field size n8 = %u bytes; only BLS12-381 (n8 = 32) is supported", n8);
    const uint8_t *p = k->c->buf + off + 4;
    uint8_t r[32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) r[8 * i + j] = (uint8_t)(CZK_FR_MODULUS[i] >> (8 * j));
    if (memcmp(p, r, 32) == 0) return CZK_OK;
    if (memcmp(p, BN254_R_LE, 32) == 0)
        return czk__cur_err(k, CZK_ERR_UNSUPPORTED, off + 4,
                            "the prime is BN254's scalar field (bn128); czk supports only BLS12-381 "
                            "(compile with circom --prime bls12381 / use a bls12381 ptau)");
    return czk__cur_err(k, CZK_ERR_UNSUPPORTED, off + 4,
                        "the prime is not BLS12-381's scalar field r; only BLS12-381 is supported");
}

czk_status czk__cur_fr_plain(czk__cur *k, czk_fr *r, const char *what)
{
    CZK_TRY(czk__cur_need(k, 32, what));
    if (czk_fr_from_bytes(r, k->sp.buf + k->sp.pos) != CZK_OK)
        return czk__cur_err(k, CZK_ERR_NOT_CANONICAL, k->sp.pos, "%s: value >= r", what);
    k->sp.pos += 32;
    return CZK_OK;
}

/* Montgomery LE bytes -> czk_fp whose internal limbs are those bytes (czk's
 * Fp Montgomery radix is 2^384 = 2^(8 n8q), the same as snarkjs'). */
static int fp_lem(czk_fp *r, const uint8_t *p)
{
    for (int i = 0; i < CZK_FP_LIMBS; i++) r->l[i] = czk__rd64(p + 8 * i);
    for (int i = CZK_FP_LIMBS - 1; i >= 0; i--) {
        if (r->l[i] < CZK_FP_MODULUS[i]) return 1;
        if (r->l[i] > CZK_FP_MODULUS[i]) return 0;
    }
    return 0;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

/* 0 ok, 1 not canonical, 2 not on curve (the subgroup: per block, below) */
static int g1_lem(czk_g1_affine *r, const uint8_t *p)
{
    if (all_zero(p, 96)) {
        czk_g1_affine_set_inf(r);
        return 0;
    }
    r->inf = 0;
    if (!fp_lem(&r->x, p) || !fp_lem(&r->y, p + 48)) return 1;
    if (!czk_g1_affine_is_on_curve(r)) return 2;
    return 0;
}

static int g2_lem(czk_g2_affine *r, const uint8_t *p)
{
    if (all_zero(p, 192)) {
        czk_g2_affine_set_inf(r);
        return 0;
    }
    r->inf = 0;
    if (!fp_lem(&r->x.c0, p) || !fp_lem(&r->x.c1, p + 48) || !fp_lem(&r->y.c0, p + 96) ||
        !fp_lem(&r->y.c1, p + 144))
        return 1;
    if (!czk_g2_affine_is_on_curve(r)) return 2;
    return 0;
}

static czk_status point_err(const czk__cur *k, int code, uint64_t off, const char *what, size_t i)
{
    static const czk_status st[4] = {CZK_OK, CZK_ERR_NOT_CANONICAL, CZK_ERR_NOT_ON_CURVE,
                                     CZK_ERR_NOT_IN_SUBGROUP};
    static const char *msg[4] = {"", "coordinate >= p", "not on the curve", "not in the prime-order subgroup"};
    return czk__cur_err(k, st[code], off, "%s point %zu: %s", what, i, msg[code]);
}

/* Subgroup test of a block: index of the first point outside, n if none. */
static size_t g1_first_bad(const czk_g1_affine *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!a[i].inf && !czk_g1_affine_in_subgroup(&a[i])) return i;
    return n;
}
static size_t g2_first_bad(const czk_g2_affine *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!a[i].inf && !czk_g2_affine_in_subgroup(&a[i])) return i;
    return n;
}

#define LEM_BLOCK 32
#define DEFINE_LEM_READER(G, SZ)                                                                \
    czk_status czk__cur_##G##_lem(czk__cur *k, czk_##G##_affine *out, size_t n, unsigned flags, \
                                  const char *what)                                             \
    {                                                                                           \
        if (n > czk__cur_left(k) / (SZ))                                                        \
            return czk__cur_err(k, CZK_ERR_FORMAT, k->sp.pos,                                      \
                                "%s: %zu points of %d bytes do not fit in the %llu bytes left", \
                                what, n, (SZ), (unsigned long long)czk__cur_left(k));           \
        const uint8_t *base = k->sp.buf + k->sp.pos;                                               \
        size_t bad = (size_t)-1;                                                                \
        int code = 0, sub = !(flags & CZK_CIRCOM_NO_SUBGROUP_CHECK);                            \
        int64_t nblk = (int64_t)((n + LEM_BLOCK - 1) / LEM_BLOCK);                              \
        _Pragma("omp parallel for schedule(dynamic, 2) if (n >= 256)")                          \
        for (int64_t bk = 0; bk < nblk; bk++) {                                                 \
            size_t lo = (size_t)bk * LEM_BLOCK, hi = lo + LEM_BLOCK < n ? lo + LEM_BLOCK : n;   \
            size_t first = (size_t)-1;                                                          \
            int e = 0;                                                                          \
            for (size_t i = lo; i < hi && first == (size_t)-1; i++) {                           \
                e = G##_lem(&out[i], base + i * (SZ));                                          \
                if (e) first = i;                                                               \
            }                                                                                   \
            if (sub) {                                                                          \
                size_t end = first == (size_t)-1 ? hi : first;                                  \
                size_t j = lo + G##_first_bad(out + lo, end - lo);                              \
                if (j < end) first = j, e = 3;                                                  \
            }                                                                                   \
            if (first != (size_t)-1) {                                                          \
                _Pragma("omp critical(czk_io_lem)")                                             \
                if (first < bad) { bad = first; code = e; }                                     \
            }                                                                                   \
        }                                                                                       \
        if (bad != (size_t)-1) return point_err(k, code, k->sp.pos + bad * (SZ), what, bad);       \
        k->sp.pos += (uint64_t)n * (SZ);                                                           \
        return CZK_OK;                                                                          \
    }

DEFINE_LEM_READER(g1, 96)
DEFINE_LEM_READER(g2, 192)
