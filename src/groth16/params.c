/* Groth16 parameter, verifying-key and proof encodings (bellperson layout). */
#define _GNU_SOURCE
#include "czk/groth16.h"

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bigmem.h"
#include "common/fileio.h"
#include "czk/czk.h"
#include "groth16/groth16_internal.h"
#include "groth16/pin.h"
#include <openssl/evp.h>

/* ---- small helpers ---------------------------------------------------------- */

static void put_u32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get_u32_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A point of the file: check FULL (subgroup too) or CURVE; trusted (a
 * streamed pass under a fresh pin) the encoding only. */
static czk_status g1_decode(czk_g1_affine *r, const uint8_t *in, czk_groth16_check check, int allow_identity,
                            int trusted)
{
    czk_status s = trusted                         ? czk_g1_deserialize_trusted(r, in)
                   : check == CZK_GROTH16_CHECK_FULL ? czk_g1_deserialize(r, in)
                                                     : czk_g1_deserialize_unchecked_subgroup(r, in);
    if (s != CZK_OK) return s;
    if (r->inf && !allow_identity) return czk_error(CZK_ERR_IDENTITY, "point at infinity");
    return CZK_OK;
}

static czk_status g2_decode(czk_g2_affine *r, const uint8_t *in, czk_groth16_check check, int allow_identity,
                            int trusted)
{
    czk_status s = trusted                         ? czk_g2_deserialize_trusted(r, in)
                   : check == CZK_GROTH16_CHECK_FULL ? czk_g2_deserialize(r, in)
                                                     : czk_g2_deserialize_unchecked_subgroup(r, in);
    if (s != CZK_OK) return s;
    if (r->inf && !allow_identity) return czk_error(CZK_ERR_IDENTITY, "point at infinity");
    return CZK_OK;
}

/* Decode n points of one section (G2 when g2, else G1) in parallel; on
 * failure, report the lowest bad index with the section name and file offset. */
static czk_status decode_section(void *out, int g2, const uint8_t *buf, size_t n,
                                 const char *section, size_t base_offset, czk_groth16_check check)
{
    size_t psz = g2 ? CZK_G2_UNCOMPRESSED : CZK_G1_UNCOMPRESSED;
    size_t bad = SIZE_MAX;
    czk_status bad_status = CZK_OK;
    char bad_msg[256] = "";
#pragma omp parallel for schedule(dynamic, 256)
    for (size_t i = 0; i < n; i++) {
        czk_status s = g2 ? g2_decode((czk_g2_affine *)out + i, buf + i * psz, check, 0, 0)
                          : g1_decode((czk_g1_affine *)out + i, buf + i * psz, check, 0, 0);
        if (s != CZK_OK) {
#pragma omp critical(czk_params_bad)
            if (i < bad) {
                bad = i;
                bad_status = s;
                snprintf(bad_msg, sizeof bad_msg, "%s", czk_last_error());
            }
        }
    }
    if (bad != SIZE_MAX)
        return czk_error(bad_status, "section %s, point %zu (byte offset %zu): %s", section, bad,
                         base_offset + bad * psz, bad_msg[0] ? bad_msg : czk_status_str(bad_status));
    return CZK_OK;
}

/* ---- verifying key ---------------------------------------------------------- */

#define VK_FIXED (3 * CZK_G1_UNCOMPRESSED + 3 * CZK_G2_UNCOMPRESSED)

void czk_groth16_vk_clear(czk_groth16_vk *vk)
{
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

size_t czk_groth16_vk_encoded_size(const czk_groth16_vk *vk)
{
    return VK_FIXED + 4 + vk->n_ic * CZK_G1_UNCOMPRESSED;
}

void czk_groth16_vk_encode(uint8_t *out, const czk_groth16_vk *vk)
{
    uint8_t *p = out;
    czk_g1_serialize(p, &vk->alpha_g1), p += CZK_G1_UNCOMPRESSED;
    czk_g1_serialize(p, &vk->beta_g1), p += CZK_G1_UNCOMPRESSED;
    czk_g2_serialize(p, &vk->beta_g2), p += CZK_G2_UNCOMPRESSED;
    czk_g2_serialize(p, &vk->gamma_g2), p += CZK_G2_UNCOMPRESSED;
    czk_g1_serialize(p, &vk->delta_g1), p += CZK_G1_UNCOMPRESSED;
    czk_g2_serialize(p, &vk->delta_g2), p += CZK_G2_UNCOMPRESSED;
    put_u32_be(p, (uint32_t)vk->n_ic), p += 4;
    for (size_t i = 0; i < vk->n_ic; i++, p += CZK_G1_UNCOMPRESSED) czk_g1_serialize(p, &vk->ic[i]);
}

static czk_status vk_decode_checked(czk_groth16_vk *vk, const uint8_t *buf, size_t len,
                                    size_t *used, czk_groth16_check check)
{
    memset(vk, 0, sizeof *vk);
    if (len < VK_FIXED + 4)
        return czk_error(CZK_ERR_FORMAT, "verifying key truncated: %zu bytes, need at least %d", len,
                         VK_FIXED + 4);
    const uint8_t *p = buf;
    struct {
        const char *name;
        int g2;
        void *dst;
    } fixed[6] = {{"vk.alpha_g1", 0, &vk->alpha_g1}, {"vk.beta_g1", 0, &vk->beta_g1},
                  {"vk.beta_g2", 1, &vk->beta_g2},   {"vk.gamma_g2", 1, &vk->gamma_g2},
                  {"vk.delta_g1", 0, &vk->delta_g1}, {"vk.delta_g2", 1, &vk->delta_g2}};
    for (int i = 0; i < 6; i++) {
        size_t off = (size_t)(p - buf);
        czk_status s = fixed[i].g2 ? g2_decode(fixed[i].dst, p, check, 0, 0)
                                   : g1_decode(fixed[i].dst, p, check, 0, 0);
        if (s != CZK_OK) return czk_error_context(s, "section %s (byte offset %zu)", fixed[i].name, off);
        p += fixed[i].g2 ? CZK_G2_UNCOMPRESSED : CZK_G1_UNCOMPRESSED;
    }
    uint32_t n_ic = get_u32_be(p);
    p += 4;
    size_t rest = len - (size_t)(p - buf);
    if (n_ic == 0 || (size_t)n_ic > rest / CZK_G1_UNCOMPRESSED)
        return czk_error(CZK_ERR_FORMAT, "section vk.ic: count %u does not fit the %zu remaining bytes",
                         n_ic, rest);
    vk->ic = malloc((size_t)n_ic * sizeof *vk->ic);
    if (!vk->ic) return czk_error(CZK_ERR_NOMEM, "verifying key: %u IC points", n_ic);
    vk->n_ic = n_ic;
    czk_status s = decode_section(vk->ic, 0, p, n_ic, "vk.ic", (size_t)(p - buf), check);
    if (s != CZK_OK) {
        czk_groth16_vk_clear(vk);
        return s;
    }
    p += (size_t)n_ic * CZK_G1_UNCOMPRESSED;
    *used = (size_t)(p - buf);
    return CZK_OK;
}

czk_status czk_groth16_vk_decode(czk_groth16_vk *vk, const uint8_t *buf, size_t len, size_t *used)
{
    size_t u = 0;
    czk_status s = vk_decode_checked(vk, buf, len, &u, CZK_GROTH16_CHECK_FULL);
    if (used) *used = u;
    return s;
}

/* ---- files ------------------------------------------------------------------- */

typedef struct mapped {
    const uint8_t *p;
    size_t len;
} mapped;

static czk_status map_file(mapped *m, const char *path)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return czk_error(CZK_ERR_IO, "%s: not a regular file", path);
    }
    m->len = (size_t)st.st_size;
    if (m->len == 0) {
        close(fd);
        return czk_error(CZK_ERR_FORMAT, "%s: empty file", path);
    }
    void *p = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return czk_error(CZK_ERR_IO, "%s: mmap: %s", path, strerror(errno));
    madvise(p, m->len, MADV_SEQUENTIAL);
    m->p = p;
    return CZK_OK;
}

static void unmap_file(mapped *m)
{
    if (m->p) munmap((void *)m->p, m->len);
    memset(m, 0, sizeof *m);
}

czk_status czk_groth16_vk_read(czk_groth16_vk *vk, const char *path)
{
    mapped m;
    memset(vk, 0, sizeof *vk);
    CZK_TRY(map_file(&m, path));
    size_t used = 0;
    czk_status s = vk_decode_checked(vk, m.p, m.len, &used, CZK_GROTH16_CHECK_FULL);
    if (s == CZK_OK && used != m.len) {
        czk_groth16_vk_clear(vk);
        s = czk_error(CZK_ERR_FORMAT, "%zu trailing bytes after the verifying key", m.len - used);
    }
    unmap_file(&m);
    if (s != CZK_OK) return czk_error_context(s, "%s", path);
    return CZK_OK;
}

czk_status czk_groth16_vk_write(const char *path, const czk_groth16_vk *vk)
{
    size_t n = czk_groth16_vk_encoded_size(vk);
    uint8_t *buf = malloc(n);
    if (!buf) return czk_error(CZK_ERR_NOMEM, "verifying key buffer");
    czk_groth16_vk_encode(buf, vk);
    const void *chunks[1] = {buf};
    czk_status s = czk__write_atomic(path, chunks, &n, 1);
    free(buf);
    return s;
}

void czk_groth16_params_clear(czk_groth16_params *p)
{
    czk_groth16_vk_clear(&p->vk);
    if (p->file) {
        free(p->file->path);
        free(p->file);
    }
    void (*release)(void *) = p->big_sections ? czk__big_free : free;
    release(p->h);
    release(p->l);
    release(p->a);
    release(p->b_g1);
    release(p->b_g2);
    memset(p, 0, sizeof *p);
}

/* ---- parameter files: layout, checksum sidecar, validation ------------------- */

/* A .params file is read with pread into per-thread buffers, one block of at
 * most BLOCK_POINTS points at a time: each block is hashed (SHA-256) and then
 * decoded from the same buffer, so the bytes that were checked are the bytes
 * that were hashed even if the file changes while it is read. The file's
 * checksum is SHA-256 over a domain string, the file size and the block
 * digests in file order (block 0 = the verifying key; each section's first
 * block starts with its u32 count). */
#define BLOCK_POINTS CZK__PARAMS_BLOCK_POINTS
#define SIDECAR_MAGIC "czk-params-check"
#define SIDECAR_VERSION 1
#define SIDECAR_HASH "sha256-blocks-32768"
#define DIGEST_LEN CZK_GROTH16_DIGEST_LEN
#define SIDECAR_SUFFIX ".czkcheck"
#define N_SECTIONS 5

static const char *const sec_names[N_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

typedef struct playout {
    size_t size;     /* file bytes */
    size_t vk_len;   /* the verifying key occupies [0, vk_len) */
    size_t count_off[N_SECTIONS];
    size_t n[N_SECTIONS];
} playout;

typedef struct pblock {
    int sec;       /* -1: the verifying key */
    size_t off, len;
    size_t first, n; /* points [first, first + n) of the section */
} pblock;

static size_t sec_psz(int sec) { return sec == 4 ? CZK_G2_UNCOMPRESSED : CZK_G1_UNCOMPRESSED; }

uint64_t czk__params_file_bytes(size_t n_ic, const size_t n[5])
{
    uint64_t b = VK_FIXED + 4 + (uint64_t)n_ic * CZK_G1_UNCOMPRESSED;
    for (int sec = 0; sec < N_SECTIONS; sec++) b += 4 + (uint64_t)n[sec] * sec_psz(sec);
    return b;
}

static czk_status pread_all(int fd, void *buf, size_t len, size_t off)
{
    uint8_t *q = buf;
    while (len) {
        ssize_t r = pread(fd, q, len, (off_t)off);
        if (r < 0) {
            if (errno == EINTR) continue;
            return czk_error(CZK_ERR_IO, "read at byte offset %zu: %s", off, strerror(errno));
        }
        if (r == 0)
            return czk_error(CZK_ERR_IO, "file ended at byte offset %zu while reading (changed while read?)",
                             off);
        q += r, off += (size_t)r, len -= (size_t)r;
    }
    return CZK_OK;
}

static int is_pow2(size_t v) { return v && !(v & (v - 1)); }

/* Section counts and offsets, checked against the file size and against each
 * other before anything is allocated. */
static czk_status layout_read(playout *L, int fd, size_t size)
{
    memset(L, 0, sizeof *L);
    L->size = size;
    if (size < VK_FIXED + 4)
        return czk_error(CZK_ERR_FORMAT, "verifying key truncated: %zu bytes, need at least %d", size,
                         VK_FIXED + 4);
    uint8_t b4[4];
    CZK_TRY(pread_all(fd, b4, 4, VK_FIXED));
    uint32_t n_ic = get_u32_be(b4);
    size_t rest = size - VK_FIXED - 4;
    if (n_ic == 0 || (size_t)n_ic > rest / CZK_G1_UNCOMPRESSED)
        return czk_error(CZK_ERR_FORMAT, "section vk.ic: count %u does not fit the %zu remaining bytes",
                         n_ic, rest);
    size_t off = VK_FIXED + 4 + (size_t)n_ic * CZK_G1_UNCOMPRESSED;
    L->vk_len = off;
    for (int sec = 0; sec < N_SECTIONS; sec++) {
        size_t psz = sec_psz(sec);
        if (size - off < 4)
            return czk_error(CZK_ERR_FORMAT, "section %s: truncated at byte offset %zu (no count)",
                             sec_names[sec], off);
        CZK_TRY(pread_all(fd, b4, 4, off));
        uint32_t n = get_u32_be(b4);
        L->count_off[sec] = off;
        off += 4;
        if ((size_t)n > (size - off) / psz)
            return czk_error(CZK_ERR_FORMAT,
                             "section %s: count %u needs %zu bytes but only %zu remain (byte offset %zu)",
                             sec_names[sec], n, (size_t)n * psz, size - off, off);
        L->n[sec] = n;
        off += (size_t)n * psz;
    }
    if (off != size) return czk_error(CZK_ERR_FORMAT, "%zu trailing bytes after section b_g2", size - off);
    /* bellperson's shape: h has m - 1 points (m a power of two), a starts with
     * every input (the input constraints make each input's A column non-zero),
     * b_g1 and b_g2 come from the same scalars */
    if (!is_pow2(L->n[0] + 1))
        return czk_error(CZK_ERR_FORMAT, "section h: %zu points, expected 2^k - 1 (byte offset %zu)", L->n[0],
                         L->count_off[0]);
    if (L->n[2] < n_ic)
        return czk_error(CZK_ERR_FORMAT, "section a: %zu points, fewer than the %u public inputs (byte offset %zu)",
                         L->n[2], n_ic, L->count_off[2]);
    if (L->n[3] != L->n[4])
        return czk_error(CZK_ERR_FORMAT, "sections b_g1 and b_g2 differ in length: %zu and %zu points",
                         L->n[3], L->n[4]);
    return CZK_OK;
}

static size_t layout_blocks(const playout *L, pblock *out)
{
    size_t nb = 0;
    if (out) out[nb] = (pblock){-1, 0, L->vk_len, 0, 0};
    nb++;
    for (int sec = 0; sec < N_SECTIONS; sec++) {
        size_t psz = sec_psz(sec), n = L->n[sec];
        size_t first = 0;
        do {
            size_t k = n - first < BLOCK_POINTS ? n - first : BLOCK_POINTS;
            if (out) {
                size_t off = first ? L->count_off[sec] + 4 + first * psz : L->count_off[sec];
                out[nb] = (pblock){sec, off, (first ? 0 : 4) + k * psz, first, k};
            }
            nb++;
            first += k;
        } while (first < n);
    }
    return nb;
}

static const czk__pin_format PIN_FORMAT = {SIDECAR_MAGIC, SIDECAR_VERSION, SIDECAR_HASH};

/* SHA-256 of one block: collision resistant, so that a crafted file cannot
 * take over the pin of a validated one (README: "Trust"). */
static void block_digest(uint8_t out[DIGEST_LEN], const uint8_t *d, size_t n) { czk__pin_sha256(out, d, n); }

/* root = SHA-256("czk-params-check/1" || u64 le size || block digests) */
static void root_digest(uint8_t out[DIGEST_LEN], size_t size, const uint8_t *leaves, size_t nb)
{
    czk__pin_root(out, SIDECAR_MAGIC "/1", (uint64_t)size, leaves, nb);
}

/* ---- sidecar --------------------------------------------------------------- */

typedef czk__pin sidecar;

static int sidecar_load(sidecar *sc, const char *scpath, char *why, size_t whylen)
{
    return czk__pin_load(sc, scpath, &PIN_FORMAT, why, whylen);
}

static czk_status sidecar_write(const char *scpath, const struct stat *st, const uint8_t digest[DIGEST_LEN],
                                const playout *L, size_t n_ic)
{
    char extra[512];
    snprintf(extra, sizeof extra,
             "validated full: flags, x < p, on curve, in subgroup, no identity, section lengths\n"
             "points ic=%zu h=%zu l=%zu a=%zu b_g1=%zu b_g2=%zu\n",
             n_ic, L->n[0], L->n[1], L->n[2], L->n[3], L->n[4]);
    return czk__pin_write(scpath, &PIN_FORMAT, st, digest, extra);
}

static void sidecar_path(char *out, size_t n, const char *path, const char *override)
{
    if (override)
        snprintf(out, n, "%s", override);
    else
        snprintf(out, n, "%s" SIDECAR_SUFFIX, path);
}

/* ---- validation --------------------------------------------------------------- */

const char *czk_groth16_check_name(czk_groth16_check c)
{
    switch (c) {
    case CZK_GROTH16_CHECK_FULL: return "full";
    case CZK_GROTH16_CHECK_CURVE: return "curve";
    case CZK_GROTH16_CHECK_PINNED: return "pinned";
    }
    return "unknown";
}

czk_status czk_groth16_check_parse(czk_groth16_check *out, const char *s)
{
    if (!strcmp(s, "full")) *out = CZK_GROTH16_CHECK_FULL;
    else if (!strcmp(s, "pinned")) *out = CZK_GROTH16_CHECK_PINNED;
    else if (!strcmp(s, "curve")) *out = CZK_GROTH16_CHECK_CURVE;
    else return czk_error(CZK_ERR_INVALID_ARG, "parameter check '%s': want full, pinned or curve", s);
    return CZK_OK;
}

/* Index of the first point of pts[0..n) outside the prime-order subgroup, or n. */
static size_t subgroup_first_bad(int g2, const void *pts, size_t n)
{
    if (g2) return czk_g2_affine_first_not_in_subgroup(pts, n);
    return czk_g1_affine_first_not_in_subgroup(pts, n);
}

static void *sec_array(czk_groth16_params *p, int sec)
{
    switch (sec) {
    case 0: return p->h;
    case 1: return p->l;
    case 2: return p->a;
    case 3: return p->b_g1;
    default: return p->b_g2;
    }
}

/* The verifying key's fixed points: subgroup membership (used when the
 * blocks were decoded with on-curve checks only). */
static czk_status vk_subgroup(const czk_groth16_vk *vk)
{
    struct {
        const char *name;
        int g2;
        const void *pt;
        size_t off;
    } f[6] = {{"vk.alpha_g1", 0, &vk->alpha_g1, 0},
              {"vk.beta_g1", 0, &vk->beta_g1, 96},
              {"vk.beta_g2", 1, &vk->beta_g2, 192},
              {"vk.gamma_g2", 1, &vk->gamma_g2, 384},
              {"vk.delta_g1", 0, &vk->delta_g1, 576},
              {"vk.delta_g2", 1, &vk->delta_g2, 672}};
    for (int i = 0; i < 6; i++)
        if (subgroup_first_bad(f[i].g2, f[i].pt, 1) == 0)
            return czk_error(CZK_ERR_NOT_IN_SUBGROUP,
                             "section %s (byte offset %zu): not in the prime-order subgroup", f[i].name, f[i].off);
    size_t bad = subgroup_first_bad(0, vk->ic, vk->n_ic);
    if (bad < vk->n_ic)
        return czk_error(CZK_ERR_NOT_IN_SUBGROUP,
                         "section vk.ic, point %zu (byte offset %zu): not in the prime-order subgroup", bad,
                         (size_t)VK_FIXED + 4 + bad * CZK_G1_UNCOMPRESSED);
    return CZK_OK;
}

typedef struct block_result {
    czk_status s;    /* CZK_OK, or the first failure of this block */
    int subgroup;    /* 1: the failure is a subgroup failure (reported after every decoding failure) */
    char msg[240];
} block_result;

/* Decode one block's points into p: on-curve checks, and the subgroup pass
 * when `full`; with `trusted` (a streamed pass under a fresh pin, whose
 * checksum is compared before the proof is used) the encodings only. */
static void block_decode(block_result *res, czk_groth16_params *p, const pblock *b, const uint8_t *buf,
                         const playout *L, int full, int trusted)
{
    res->s = CZK_OK;
    int g2 = b->sec == 4;
    size_t psz = sec_psz(b->sec), esz = g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
    const uint8_t *q = buf + (b->first ? 0 : 4);
    uint8_t *dst = (uint8_t *)sec_array(p, b->sec) + b->first * esz;
    size_t pts_off = L->count_off[b->sec] + 4;
    for (size_t i = 0; i < b->n; i++) {
        czk_status s = g2 ? g2_decode((czk_g2_affine *)(void *)(dst + i * esz), q + i * psz, CZK_GROTH16_CHECK_CURVE,
                                      0, trusted)
                          : g1_decode((czk_g1_affine *)(void *)(dst + i * esz), q + i * psz, CZK_GROTH16_CHECK_CURVE,
                                      0, trusted);
        if (s != CZK_OK) {
            size_t idx = b->first + i;
            res->s = s;
            res->subgroup = 0;
            snprintf(res->msg, sizeof res->msg, "section %s, point %zu (byte offset %zu): %s", sec_names[b->sec],
                     idx, pts_off + idx * psz, czk_last_error());
            return;
        }
    }
    if (!full) return;
    size_t bad = subgroup_first_bad(g2, dst, b->n);
    if (bad < b->n) {
        size_t idx = b->first + bad;
        res->s = CZK_ERR_NOT_IN_SUBGROUP;
        res->subgroup = 1;
        snprintf(res->msg, sizeof res->msg, "section %s, point %zu (byte offset %zu): not in the prime-order subgroup",
                 sec_names[b->sec], idx, pts_off + idx * psz);
    }
}

/* Subgroup pass over already decoded sections (after a checksum mismatch). */
static czk_status subgroup_all(const czk_groth16_params *p, const playout *L, int nt)
{
    CZK_TRY(vk_subgroup(&p->vk));
    for (int sec = 0; sec < N_SECTIONS; sec++) {
        int g2 = sec == 4;
        size_t esz = g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine), n = L->n[sec];
        const uint8_t *base = sec_array((czk_groth16_params *)p, sec);
        size_t nchunks = (n + 1023) / 1024, bad = SIZE_MAX;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
        for (size_t c = 0; c < nchunks; c++) {
            size_t first = c * 1024, k = n - first < 1024 ? n - first : 1024;
            if (first > __atomic_load_n(&bad, __ATOMIC_RELAXED)) continue;
            size_t j = subgroup_first_bad(g2, base + first * esz, k);
            if (j < k) {
#pragma omp critical(czk_params_subgroup)
                if (first + j < bad) bad = first + j;
            }
        }
        if (bad != SIZE_MAX)
            return czk_error(CZK_ERR_NOT_IN_SUBGROUP,
                             "section %s, point %zu (byte offset %zu): not in the prime-order subgroup",
                             sec_names[sec], bad, L->count_off[sec] + 4 + bad * sec_psz(sec));
    }
    return CZK_OK;
}

void czk_groth16_params_sidecar_path(char *out, size_t n, const char *path)
{
    sidecar_path(out, n, path, NULL);
}

/* fd's status into *st: a regular, non-empty file. */
static czk_status stat_regular(int fd, struct stat *st)
{
    if (fstat(fd, st) != 0) return czk_error(CZK_ERR_IO, "%s", strerror(errno));
    if (!S_ISREG(st->st_mode)) return czk_error(CZK_ERR_IO, "not a regular file");
    if (st->st_size == 0) return czk_error(CZK_ERR_FORMAT, "empty file");
    return CZK_OK;
}

/* 1 when fd still has the size and mtime of st0. */
static int stat_unchanged(int fd, const struct stat *st0)
{
    struct stat st1;
    return fstat(fd, &st1) == 0 && st1.st_size == st0->st_size && st1.st_mtim.tv_sec == st0->st_mtim.tv_sec &&
           st1.st_mtim.tv_nsec == st0->st_mtim.tv_nsec;
}

/* Write the sidecar of a validated file; the outcome in inf (recorded, or
 * record_error: a failed write does not fail the read). */
static void record_sidecar(czk_groth16_read_info *inf, const char *scpath, const struct stat *st, const playout *L,
                           size_t n_ic)
{
    czk_status ws = sidecar_write(scpath, st, inf->digest, L, n_ic);
    if (ws == CZK_OK)
        inf->recorded = 1;
    else
        snprintf(inf->record_error, sizeof inf->record_error, "%s", czk_last_error());
}

/* The sections of p sized from L, in big buffers (p->big_sections). */
static int alloc_sections(czk_groth16_params *p, const playout *L)
{
    size_t *counts[N_SECTIONS] = {&p->n_h, &p->n_l, &p->n_a, &p->n_b_g1, &p->n_b_g2};
    void **dsts[N_SECTIONS] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1,
                               (void **)&p->b_g2};
    p->big_sections = 1;
    for (int sec = 0; sec < N_SECTIONS; sec++) {
        size_t esz = sec == 4 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        *counts[sec] = L->n[sec];
        *dsts[sec] = czk__big_alloc((L->n[sec] ? L->n[sec] : 1) * esz);
        if (!*dsts[sec]) return 0;
    }
    return 1;
}

/* Blocks 1.. of the file read, hashed into leaves (hashing) and decoded
 * into p on nt threads, with subgroup checks when `full`. The failure
 * reported: an I/O or memory failure, else the lowest decoding failure,
 * else (full) the verifying key's subgroup check, else the lowest
 * subgroup failure. */
static czk_status read_points(czk_groth16_params *p, int fd, const playout *L, const pblock *blocks, size_t nb,
                              block_result *res, uint8_t *leaves, int hashing, int full, int nt)
{
    size_t max_len = 4 + (size_t)BLOCK_POINTS * CZK_G2_UNCOMPRESSED;
    size_t first_dec_fail = SIZE_MAX; /* lowest block with a decoding failure */
    int io_fail = 0;
    char io_msg[240] = "";
#pragma omp parallel num_threads(nt)
    {
        uint8_t *buf = malloc(max_len);
#pragma omp for schedule(dynamic, 1)
        for (size_t b = 1; b < nb; b++) {
            if (b > __atomic_load_n(&first_dec_fail, __ATOMIC_RELAXED) || __atomic_load_n(&io_fail, __ATOMIC_RELAXED))
                continue;
            if (!buf) {
                res[b].s = czk_error(CZK_ERR_NOMEM, "read buffer");
                snprintf(res[b].msg, sizeof res[b].msg, "read buffer of %zu bytes", max_len);
                __atomic_store_n(&io_fail, 1, __ATOMIC_RELAXED);
                continue;
            }
            czk_status rs = pread_all(fd, buf, blocks[b].len, blocks[b].off);
            if (rs != CZK_OK) {
                res[b].s = rs;
                snprintf(res[b].msg, sizeof res[b].msg, "%s", czk_last_error());
#pragma omp critical(czk_params_io)
                if (!io_msg[0]) snprintf(io_msg, sizeof io_msg, "%s", res[b].msg);
                __atomic_store_n(&io_fail, 1, __ATOMIC_RELAXED);
                continue;
            }
            if (hashing) block_digest(leaves + DIGEST_LEN * b, buf, blocks[b].len);
            block_decode(&res[b], p, &blocks[b], buf, L, full, 0);
            if (res[b].s != CZK_OK && !res[b].subgroup) {
#pragma omp critical(czk_params_bad)
                if (b < first_dec_fail) first_dec_fail = b;
            }
        }
        free(buf);
    }
    if (io_fail) {
        for (size_t b = 1; b < nb; b++)
            if (res[b].s == CZK_ERR_IO || res[b].s == CZK_ERR_NOMEM) return czk_error(res[b].s, "%s", res[b].msg);
    }
    /* decoding failures first, then subgroup failures, each at the lowest offset */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && full) CZK_TRY(vk_subgroup(&p->vk));
        for (size_t b = 1; b < nb; b++)
            if (res[b].s != CZK_OK && res[b].subgroup == pass) return czk_error(res[b].s, "%s", res[b].msg);
    }
    return CZK_OK;
}

/* After the points were read: which check ran (inf->ran, inf->why). With a
 * pin whose checksum does not match, the subgroup pass runs now; a full
 * check, or a pin found under a new mtime, is recorded in the sidecar
 * unless o->no_record. */
static czk_status settle_check(czk_groth16_read_info *inf, const czk_groth16_params *p, const playout *L,
                               const czk_groth16_read_opts *o, const char *scpath, const struct stat *st0,
                               const sidecar *sc, int try_pin, int moved, int nt)
{
    if (o->check == CZK_GROTH16_CHECK_CURVE) {
        inf->ran = CZK_GROTH16_CHECK_CURVE;
    } else if (try_pin && memcmp(inf->digest, sc->digest, DIGEST_LEN) == 0) {
        inf->ran = CZK_GROTH16_CHECK_PINNED;
        if (moved && !o->no_record) { /* the same bytes under a new mtime: record it */
            snprintf(inf->why, sizeof inf->why,
                     "sidecar %.300s had another mtime (the file was copied or touched); the checksum matched", scpath);
            record_sidecar(inf, scpath, st0, L, p->vk.n_ic);
        }
    } else {
        if (try_pin) {
            if (moved)
                snprintf(inf->why, sizeof inf->why,
                         "sidecar %.300s is stale (the file's mtime changed) and the checksum differs: the contents "
                         "changed",
                         scpath);
            else
                snprintf(inf->why, sizeof inf->why,
                         "sidecar %.300s does not match: the contents changed, size and mtime did not", scpath);
            double t1 = czk_now();
            czk_status s = subgroup_all(p, L, nt);
            inf->subgroup_s = czk_now() - t1;
            if (s != CZK_OK) return s;
        }
        inf->ran = CZK_GROTH16_CHECK_FULL;
        if (!o->no_record) record_sidecar(inf, scpath, st0, L, p->vk.n_ic);
    }
    return CZK_OK;
}

czk_status czk_groth16_params_read_ex(czk_groth16_params *p, const char *path, const czk_groth16_read_opts *opts,
                                      czk_groth16_read_info *info)
{
    czk_groth16_read_opts o = {CZK_GROTH16_CHECK_PINNED, 0, 0, NULL};
    if (opts) o = *opts;
    memset(p, 0, sizeof *p);
    if (info) memset(info, 0, sizeof *info);
    if (o.check != CZK_GROTH16_CHECK_FULL && o.check != CZK_GROTH16_CHECK_PINNED && o.check != CZK_GROTH16_CHECK_CURVE)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: unknown parameter check mode %d", path, (int)o.check);
    czk_groth16_read_info inf;
    memset(&inf, 0, sizeof inf);
    double t0 = czk_now();
    int nt = o.threads > 0 ? o.threads : czk_threads();
    if (nt < 1) nt = 1;
    char scpath[4200];
    sidecar_path(scpath, sizeof scpath, path, o.sidecar);

    czk_status s = CZK_OK;
    pblock *blocks = NULL;
    block_result *res = NULL;
    uint8_t *leaves = NULL, *vkbuf = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st0;
    s = stat_regular(fd, &st0);
    if (s != CZK_OK) goto fail;
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    playout L;
    s = layout_read(&L, fd, (size_t)st0.st_size);
    if (s != CZK_OK) goto fail;
    inf.file_bytes = L.size;

    int hashing = o.check != CZK_GROTH16_CHECK_CURVE;
    int full = o.check == CZK_GROTH16_CHECK_FULL;
    int try_pin = 0, moved = 0; /* moved: same size, another mtime; the checksum decides */
    sidecar sc;
    if (o.check == CZK_GROTH16_CHECK_PINNED) {
        if (sidecar_load(&sc, scpath, inf.why, sizeof inf.why)) {
            if (czk__pin_fresh(&sc, &st0))
                try_pin = 1;
            else if (czk__pin_moved(&sc, &st0))
                try_pin = moved = 1;
            else
                snprintf(inf.why, sizeof inf.why, "sidecar %.300s is stale (the file's size changed)", scpath);
        }
        full = !try_pin;
    }

    size_t nb = layout_blocks(&L, NULL);
    blocks = malloc(nb * sizeof *blocks);
    res = calloc(nb, sizeof *res);
    leaves = malloc(nb * DIGEST_LEN);
    vkbuf = malloc(L.vk_len);
    if (!blocks || !res || !leaves || !vkbuf || !alloc_sections(p, &L)) {
        s = czk_error(CZK_ERR_NOMEM, "%zu bytes of parameters", L.size);
        goto fail;
    }
    layout_blocks(&L, blocks);

    /* block 0: the verifying key */
    s = pread_all(fd, vkbuf, L.vk_len, 0);
    if (s != CZK_OK) goto fail;
    if (hashing) block_digest(leaves, vkbuf, L.vk_len);
    size_t used = 0;
    s = vk_decode_checked(&p->vk, vkbuf, L.vk_len, &used, CZK_GROTH16_CHECK_CURVE);
    if (s != CZK_OK) goto fail;

    s = read_points(p, fd, &L, blocks, nb, res, leaves, hashing, full, nt);
    if (s != CZK_OK) goto fail;
    if (!stat_unchanged(fd, &st0)) {
        s = czk_error(CZK_ERR_IO, "the file changed while it was being read");
        goto fail;
    }
    inf.decode_s = czk_now() - t0;
    if (hashing) root_digest(inf.digest, L.size, leaves, nb);
    s = settle_check(&inf, p, &L, &o, scpath, &st0, &sc, try_pin, moved, nt);
    if (s != CZK_OK) goto fail;
    close(fd);
    free(blocks);
    free(res);
    free(leaves);
    free(vkbuf);
    inf.total_s = czk_now() - t0;
    if (info) *info = inf;
    return CZK_OK;
fail:
    close(fd);
    free(blocks);
    free(res);
    free(leaves);
    free(vkbuf);
    czk_groth16_params_clear(p);
    if (info) *info = inf;
    return czk_error_context(s, "%s", path);
}

czk_status czk_groth16_params_read(czk_groth16_params *p, const char *path, czk_groth16_check check)
{
    czk_groth16_read_opts o = {check, 0, 0, NULL};
    return czk_groth16_params_read_ex(p, path, &o, NULL);
}

void czk_groth16_read_info_describe(char *out, size_t n, const czk_groth16_read_info *info)
{
    switch (info->ran) {
    case CZK_GROTH16_CHECK_PINNED:
        snprintf(out, n,
                 "parameters pinned: checksum matched the sidecar of an earlier full validation (%.2f s)%s%s%s%s%s",
                 info->total_s, info->why[0] ? "; " : "", info->why, info->recorded ? "; recorded the new mtime" : "",
                 info->record_error[0] ? "; could not update the sidecar: " : "", info->record_error);
        break;
    case CZK_GROTH16_CHECK_CURVE:
        snprintf(out, n, "parameters checked on curve only, no subgroup checks (%.2f s)", info->total_s);
        break;
    case CZK_GROTH16_CHECK_FULL:
        snprintf(out, n, "parameters fully validated (%.2f s)%s%s%s%s%s", info->total_s, info->why[0] ? "; " : "",
                 info->why, info->recorded ? "; recorded the sidecar" : "",
                 info->record_error[0] ? "; could not record the sidecar: " : "", info->record_error);
        break;
    }
}

static uint8_t *encode_g1_array(const czk_g1_affine *pts, size_t n, size_t *len)
{
    *len = 4 + n * CZK_G1_UNCOMPRESSED;
    uint8_t *buf = malloc(*len);
    if (!buf) return NULL;
    put_u32_be(buf, (uint32_t)n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) czk_g1_serialize(buf + 4 + i * CZK_G1_UNCOMPRESSED, &pts[i]);
    return buf;
}

static uint8_t *encode_g2_array(const czk_g2_affine *pts, size_t n, size_t *len)
{
    *len = 4 + n * CZK_G2_UNCOMPRESSED;
    uint8_t *buf = malloc(*len);
    if (!buf) return NULL;
    put_u32_be(buf, (uint32_t)n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) czk_g2_serialize(buf + 4 + i * CZK_G2_UNCOMPRESSED, &pts[i]);
    return buf;
}

/* path (its sidecar when pin), then the verifying key at vk_path (unless
 * NULL): an old vk goes just before the rename, so that a crash leaves the
 * pair incomplete rather than mixed. An old sidecar may stay: a read finds
 * that its checksum no longer matches (groth16/README.md). */
static czk_status params_write(const char *path, const char *vk_path, const czk_groth16_params *p, int pin)
{
    const void *chunks[6];
    size_t lens[6];
    uint8_t *bufs[6] = {0};
    czk_status s = CZK_OK;
    if (p->n_h > UINT32_MAX || p->n_l > UINT32_MAX || p->n_a > UINT32_MAX || p->n_b_g1 > UINT32_MAX ||
        p->n_b_g2 > UINT32_MAX || p->vk.n_ic > UINT32_MAX)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: a section has more than 2^32-1 points", path);
    lens[0] = czk_groth16_vk_encoded_size(&p->vk);
    bufs[0] = malloc(lens[0]);
    if (bufs[0]) czk_groth16_vk_encode(bufs[0], &p->vk);
    bufs[1] = encode_g1_array(p->h, p->n_h, &lens[1]);
    bufs[2] = encode_g1_array(p->l, p->n_l, &lens[2]);
    bufs[3] = encode_g1_array(p->a, p->n_a, &lens[3]);
    bufs[4] = encode_g1_array(p->b_g1, p->n_b_g1, &lens[4]);
    bufs[5] = encode_g2_array(p->b_g2, p->n_b_g2, &lens[5]);
    for (int i = 0; i < 6; i++) {
        if (!bufs[i]) {
            s = czk_error(CZK_ERR_NOMEM, "%s: encoding buffer", path);
            goto out;
        }
        chunks[i] = bufs[i];
    }
    char scpath[4200];
    sidecar_path(scpath, sizeof scpath, path, NULL);
    const char *retire[1] = {vk_path};
    s = czk__write_atomic_set(path, chunks, lens, 6, retire, vk_path ? 1 : 0);
    if (s != CZK_OK) goto out;
    if (!pin) goto vk;
    /* the checksum of the bytes just written, block by block as a read
     * computes it (the sections' buffers hold count + points) */
    playout L;
    memset(&L, 0, sizeof L);
    L.vk_len = lens[0];
    size_t off = lens[0];
    for (int sec = 0; sec < N_SECTIONS; sec++) {
        L.count_off[sec] = off;
        L.n[sec] = (lens[sec + 1] - 4) / sec_psz(sec);
        off += lens[sec + 1];
    }
    L.size = off;
    size_t nb = layout_blocks(&L, NULL);
    pblock *blocks = malloc(nb * sizeof *blocks);
    uint8_t *leaves = malloc(nb * DIGEST_LEN);
    if (!blocks || !leaves) {
        free(blocks);
        free(leaves);
        s = czk_error(CZK_ERR_NOMEM, "%s: checksum", path);
        goto out;
    }
    layout_blocks(&L, blocks);
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t b = 0; b < nb; b++) {
        const uint8_t *src = blocks[b].sec < 0 ? bufs[0]
                                               : bufs[blocks[b].sec + 1] + (blocks[b].off - L.count_off[blocks[b].sec]);
        block_digest(leaves + DIGEST_LEN * b, src, blocks[b].len);
    }
    uint8_t digest[DIGEST_LEN];
    root_digest(digest, L.size, leaves, nb);
    free(blocks);
    free(leaves);
    struct stat st;
    if (stat(path, &st) != 0) {
        s = czk_error(CZK_ERR_IO, "%s: %s", path, strerror(errno));
        goto out;
    }
    if (st.st_size == (off_t)L.size) s = sidecar_write(scpath, &st, digest, &L, p->vk.n_ic);
vk:
    if (s == CZK_OK && vk_path) s = czk_groth16_vk_write(vk_path, &p->vk);
out:
    for (int i = 0; i < 6; i++) free(bufs[i]);
    return s;
}

/* ---- streamed writing (groth16_internal.h) -------------------------------------------- */

struct czk__params_writer {
    czk__afile f;
    char path[4096];
    const char *vk_path; /* the caller's, until commit */
    uint8_t *vk;         /* its encoding (block 0 of the file) */
    size_t n_ic;
    playout L;         /* counts and offsets as the sections begin */
    int sec;           /* current section, -1 before the first */
    size_t done;       /* points of the current section written */
    size_t off;        /* bytes written */
    EVP_MD_CTX *blk;   /* the block being hashed */
    size_t blk_points; /* points in it */
    uint8_t *leaves;   /* block digests so far */
    size_t n_leaves, cap_leaves;
    uint8_t *enc;      /* encoding buffer */
    size_t enc_cap;
};

static czk_status pw_write(czk__params_writer *w, const uint8_t *p, size_t n)
{
    CZK_TRY(czk__afile_write(&w->f, p, n));
    w->off += n;
    return CZK_OK;
}

static czk_status pw_leaf(czk__params_writer *w)
{
    if (w->n_leaves == w->cap_leaves) {
        size_t nc = w->cap_leaves ? 2 * w->cap_leaves : 1024;
        uint8_t *q = realloc(w->leaves, nc * DIGEST_LEN);
        if (!q) return czk_error(CZK_ERR_NOMEM, "%s: block digests", w->path);
        w->leaves = q, w->cap_leaves = nc;
    }
    unsigned len = 0;
    if (!EVP_DigestFinal_ex(w->blk, w->leaves + w->n_leaves * DIGEST_LEN, &len) || len != DIGEST_LEN)
        return czk_error(CZK_ERR_INTERNAL, "%s: SHA-256", w->path);
    w->n_leaves++;
    if (!EVP_DigestInit_ex(w->blk, EVP_sha256(), NULL)) return czk_error(CZK_ERR_INTERNAL, "%s: SHA-256", w->path);
    w->blk_points = 0;
    return CZK_OK;
}

/* Write and hash bytes that belong to the current block. */
static czk_status pw_put(czk__params_writer *w, const uint8_t *p, size_t n)
{
    if (!EVP_DigestUpdate(w->blk, p, n)) return czk_error(CZK_ERR_INTERNAL, "%s: SHA-256", w->path);
    return pw_write(w, p, n);
}

czk_status czk__params_writer_open(czk__params_writer **out, const char *path, const char *vk_path,
                                   const czk_groth16_vk *vk, uint64_t need)
{
    *out = NULL;
    czk__params_writer *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "%s: writer", path);
    w->f.fd = -1;
    w->sec = -1;
    w->vk_path = vk_path;
    snprintf(w->path, sizeof w->path, "%s", path);
    w->blk = EVP_MD_CTX_new();
    size_t vl = czk_groth16_vk_encoded_size(vk);
    w->vk = malloc(vl);
    czk_status s = CZK_OK;
    if (!w->blk || !w->vk || !EVP_DigestInit_ex(w->blk, EVP_sha256(), NULL))
        s = czk_error(CZK_ERR_NOMEM, "%s: writer", path);
    if (s == CZK_OK) s = czk__afile_open(&w->f, path, need);
    if (s == CZK_OK) {
        czk_groth16_vk_encode(w->vk, vk);
        w->n_ic = vk->n_ic;
        w->L.vk_len = vl;
        s = pw_put(w, w->vk, vl); /* block 0: the verifying key */
        if (s == CZK_OK) s = pw_leaf(w);
    }
    if (s != CZK_OK) {
        czk__params_writer_abort(w);
        return s;
    }
    *out = w;
    return CZK_OK;
}

static czk_status pw_section_end(czk__params_writer *w)
{
    if (w->sec < 0) return CZK_OK;
    if (w->done != w->L.n[w->sec])
        return czk_error(CZK_ERR_INTERNAL, "%s: section %s has %zu of its %zu points", w->path, sec_names[w->sec],
                         w->done, w->L.n[w->sec]);
    /* the section's last block (its only one, count alone, when empty) */
    if (w->blk_points > 0 || w->L.n[w->sec] == 0) return pw_leaf(w);
    return CZK_OK;
}

czk_status czk__params_writer_section(czk__params_writer *w, int sec, size_t n)
{
    if (sec != w->sec + 1 || sec >= N_SECTIONS)
        return czk_error(CZK_ERR_INTERNAL, "%s: section %d out of order", w->path, sec);
    if (n > UINT32_MAX) return czk_error(CZK_ERR_INVALID_ARG, "%s: section %s: %zu points exceed 2^32-1", w->path,
                                         sec_names[sec], n);
    CZK_TRY(pw_section_end(w));
    w->sec = sec;
    w->done = 0;
    w->L.n[sec] = n;
    w->L.count_off[sec] = w->off;
    uint8_t b4[4];
    put_u32_be(b4, (uint32_t)n);
    return pw_put(w, b4, 4); /* the count opens the section's first block */
}

static czk_status pw_points(czk__params_writer *w, const void *pts, size_t n, int g2)
{
    if (w->sec < 0 || (w->sec == 4) != g2 || n > w->L.n[w->sec] - w->done)
        return czk_error(CZK_ERR_INTERNAL, "%s: points outside the current section", w->path);
    const size_t psz = g2 ? CZK_G2_UNCOMPRESSED : CZK_G1_UNCOMPRESSED;
    while (n) {
        /* up to the end of the current block */
        size_t k = BLOCK_POINTS - w->blk_points;
        if (k > n) k = n;
        if (w->enc_cap < k * psz) {
            free(w->enc);
            w->enc = malloc(k * psz);
            w->enc_cap = w->enc ? k * psz : 0;
            if (!w->enc) return czk_error(CZK_ERR_NOMEM, "%s: encoding buffer", w->path);
        }
        const czk_g1_affine *p1 = pts;
        const czk_g2_affine *p2 = pts;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < k; i++) {
            if (g2)
                czk_g2_serialize(w->enc + i * psz, &p2[i]);
            else
                czk_g1_serialize(w->enc + i * psz, &p1[i]);
        }
        CZK_TRY(pw_put(w, w->enc, k * psz));
        w->blk_points += k;
        w->done += k;
        if (w->blk_points == BLOCK_POINTS) CZK_TRY(pw_leaf(w));
        pts = g2 ? (const void *)(p2 + k) : (const void *)(p1 + k);
        n -= k;
    }
    return CZK_OK;
}

czk_status czk__params_writer_g1(czk__params_writer *w, const czk_g1_affine *pts, size_t n)
{
    return pw_points(w, pts, n, 0);
}

czk_status czk__params_writer_g2(czk__params_writer *w, const czk_g2_affine *pts, size_t n)
{
    return pw_points(w, pts, n, 1);
}

czk_status czk__params_writer_commit(czk__params_writer *w)
{
    czk_status s = w->sec == N_SECTIONS - 1 ? pw_section_end(w)
                                            : czk_error(CZK_ERR_INTERNAL, "%s: %d of 5 sections written", w->path,
                                                        w->sec + 1);
    w->L.size = w->off;
    if (s == CZK_OK && layout_blocks(&w->L, NULL) != w->n_leaves)
        s = czk_error(CZK_ERR_INTERNAL, "%s: %zu blocks hashed, the layout has %zu", w->path, w->n_leaves,
                      layout_blocks(&w->L, NULL));
    char scpath[4200];
    sidecar_path(scpath, sizeof scpath, w->path, NULL);
    /* an old verifying key goes first: a crash from here on leaves the pair
     * visibly incomplete (a stale sidecar is caught by its checksum) */
    const char *retire[1] = {w->vk_path};
    if (s == CZK_OK) s = czk__afile_commit(&w->f, retire, w->vk_path ? 1 : 0);
    if (s != CZK_OK) {
        czk__params_writer_abort(w);
        return s;
    }
    uint8_t digest[DIGEST_LEN];
    root_digest(digest, w->L.size, w->leaves, w->n_leaves);
    struct stat st;
    if (stat(w->path, &st) != 0)
        s = czk_error(CZK_ERR_IO, "%s: %s", w->path, strerror(errno));
    else if ((size_t)st.st_size == w->L.size)
        s = sidecar_write(scpath, &st, digest, &w->L, w->n_ic);
    if (s == CZK_OK && w->vk_path) {
        const void *chunk = w->vk;
        size_t vl = w->L.vk_len;
        s = czk__write_atomic(w->vk_path, &chunk, &vl, 1);
    }
    czk__params_writer_abort(w);
    return s;
}

void czk__params_writer_abort(czk__params_writer *w)
{
    if (!w) return;
    czk__afile_abort(&w->f);
    free(w->vk);
    EVP_MD_CTX_free(w->blk);
    free(w->leaves);
    free(w->enc);
    free(w);
}

czk_status czk_groth16_params_write(const char *path, const czk_groth16_params *p)
{
    return params_write(path, NULL, p, 0);
}

czk_status czk_groth16_params_write_pinned(const char *path, const czk_groth16_params *p)
{
    return params_write(path, NULL, p, 1);
}

czk_status czk_groth16_params_write_pair(const char *params_path, const char *vk_path, const czk_groth16_params *p)
{
    return params_write(params_path, vk_path, p, 1);
}

static size_t next_pow2(size_t n)
{
    size_t m = 1;
    while (m < n) m <<= 1;
    return m;
}

czk_status czk__groth16_counts_match(size_t n_ic, const size_t n[5], const czk_cs_assignment *w)
{
    if (n_ic != w->n_input)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu public inputs (with ONE), the circuit %zu", n_ic,
                         w->n_input);
    if (n[1] != w->n_aux)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu l points, the circuit %zu aux variables", n[1],
                         w->n_aux);
    size_t m = next_pow2(w->n_constraints);
    if (n[0] != m - 1)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "parameters have %zu h points, the circuit needs %zu (%zu constraints)", n[0], m - 1,
                         w->n_constraints);
    if (n[2] != w->n_input + w->a_aux_popcount)
        return czk_error(CZK_ERR_INVALID_ARG, "parameters have %zu a points, the circuit's density needs %zu", n[2],
                         w->n_input + w->a_aux_popcount);
    size_t nb = w->b_input_popcount + w->b_aux_popcount;
    if (n[3] != nb || n[4] != nb)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "parameters have %zu/%zu b points (G1/G2), the circuit's density needs %zu", n[3], n[4],
                         nb);
    return CZK_OK;
}

czk_status czk_groth16_params_match(const czk_groth16_params *p, const czk_cs_assignment *w)
{
    size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    return czk__groth16_counts_match(p->vk.n_ic, n, w);
}

/* ---- a .params file read section by section ---------------------------------- */

struct czk__params_stream {
    int fd;
    char *path;
    struct stat st0;
    playout L;
    pblock *blocks;
    size_t nb, next_block; /* blocks in file order; the next one to read */
    uint8_t *leaves;
    int nt, full, try_pin;
    sidecar sc;
    char scpath[4200];
    czk_groth16_check check;
    czk_groth16_read_info inf;
    czk_groth16_vk vk;
    double t0;
    uint8_t **bufs; /* one block buffer per thread */
};

czk_status czk__params_stream_open(czk__params_stream **out, const char *path, czk_groth16_check check, int threads)
{
    *out = NULL;
    if (check != CZK_GROTH16_CHECK_FULL && check != CZK_GROTH16_CHECK_PINNED && check != CZK_GROTH16_CHECK_CURVE)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: unknown parameter check mode %d", path, (int)check);
    czk__params_stream *S = calloc(1, sizeof *S);
    if (!S) return czk_error(CZK_ERR_NOMEM, "%s: parameter stream", path);
    S->t0 = czk_now();
    S->fd = -1;
    S->check = check;
    S->nt = threads > 0 ? threads : czk_threads();
    if (S->nt < 1) S->nt = 1;
    S->path = strdup(path);
    czk_status s = CZK_OK;
    uint8_t *vkbuf = NULL;
    if (!S->path) {
        s = czk_error(CZK_ERR_NOMEM, "path");
        goto fail;
    }
    sidecar_path(S->scpath, sizeof S->scpath, path, NULL);
    S->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (S->fd < 0) {
        s = czk_error(CZK_ERR_IO, "%s", strerror(errno));
        goto fail;
    }
    s = stat_regular(S->fd, &S->st0);
    if (s != CZK_OK) goto fail;
    posix_fadvise(S->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    s = layout_read(&S->L, S->fd, (size_t)S->st0.st_size);
    if (s != CZK_OK) goto fail;
    S->inf.file_bytes = S->L.size;
    S->full = check == CZK_GROTH16_CHECK_FULL;
    if (check == CZK_GROTH16_CHECK_PINNED) {
        if (sidecar_load(&S->sc, S->scpath, S->inf.why, sizeof S->inf.why)) {
            if (!czk__pin_fresh(&S->sc, &S->st0)) /* moved too: a late mismatch would void a whole proof */
                snprintf(S->inf.why, sizeof S->inf.why, "sidecar %.300s is stale (the file's size or mtime changed)",
                         S->scpath);
            else
                S->try_pin = 1;
        }
        S->full = !S->try_pin;
    }
    S->nb = layout_blocks(&S->L, NULL);
    S->blocks = malloc(S->nb * sizeof *S->blocks);
    S->leaves = malloc(S->nb * DIGEST_LEN);
    S->bufs = calloc((size_t)S->nt, sizeof *S->bufs);
    vkbuf = malloc(S->L.vk_len);
    if (!S->blocks || !S->leaves || !S->bufs || !vkbuf) {
        s = czk_error(CZK_ERR_NOMEM, "block tables of %zu blocks", S->nb);
        goto fail;
    }
    layout_blocks(&S->L, S->blocks);
    s = pread_all(S->fd, vkbuf, S->L.vk_len, 0);
    if (s != CZK_OK) goto fail;
    block_digest(S->leaves, vkbuf, S->L.vk_len);
    size_t used = 0;
    s = vk_decode_checked(&S->vk, vkbuf, S->L.vk_len, &used, CZK_GROTH16_CHECK_CURVE);
    if (s != CZK_OK) goto fail;
    if (S->full) {
        s = vk_subgroup(&S->vk);
        if (s != CZK_OK) goto fail;
    }
    S->next_block = 1;
    free(vkbuf);
    *out = S;
    return CZK_OK;
fail:
    free(vkbuf);
    czk__params_stream_close(S);
    return czk_error_context(s, "%s", path);
}

const czk_groth16_vk *czk__params_stream_vk(const czk__params_stream *S) { return &S->vk; }

void czk__params_stream_counts(const czk__params_stream *S, size_t n[5])
{
    for (int sec = 0; sec < N_SECTIONS; sec++) n[sec] = S->L.n[sec];
}

int czk__params_stream_full(const czk__params_stream *S) { return S->full; }

czk_status czk__params_stream_next(czk__params_stream *S, int sec, size_t first, void *dst, size_t k)
{
    if (sec < 0 || sec >= N_SECTIONS || first > S->L.n[sec] || k > S->L.n[sec] - first)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: section %d, points [%zu, +%zu) out of range", S->path, sec,
                         first, k);
    /* the blocks [b0, b1) that cover exactly these points, and the next to read */
    size_t b0 = S->next_block;
    if (b0 >= S->nb || S->blocks[b0].sec != sec || S->blocks[b0].first != first)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: section %s read out of order at point %zu", S->path,
                         sec_names[sec], first);
    size_t b1 = b0, got = 0;
    do {
        got += S->blocks[b1].n;
        b1++;
    } while (got < k && b1 < S->nb && S->blocks[b1].sec == sec);
    if (got != k)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: section %s, %zu points from %zu: not whole blocks of %d", S->path,
                         sec_names[sec], k, first, BLOCK_POINTS);
    /* what the kernel should fetch while these are decoded and used */
    if (b1 < S->nb) {
        size_t ahead = 0, e = b1;
        while (e < S->nb && ahead < ((size_t)256 << 20)) ahead += S->blocks[e++].len;
        posix_fadvise(S->fd, (off_t)S->blocks[b1].off, (off_t)ahead, POSIX_FADV_WILLNEED);
    }
    size_t max_len = 4 + (size_t)BLOCK_POINTS * CZK_G2_UNCOMPRESSED;
    size_t esz = sec == 4 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
    czk_groth16_params view;
    memset(&view, 0, sizeof view);
    /* block_decode writes point `first + i` of the section to its array: aim
     * the view so that `first` lands on dst */
    uint8_t *base = (uint8_t *)dst - first * esz;
    switch (sec) {
    case 0: view.h = (czk_g1_affine *)(void *)base; break;
    case 1: view.l = (czk_g1_affine *)(void *)base; break;
    case 2: view.a = (czk_g1_affine *)(void *)base; break;
    case 3: view.b_g1 = (czk_g1_affine *)(void *)base; break;
    default: view.b_g2 = (czk_g2_affine *)(void *)base; break;
    }
    size_t nblk = b1 - b0;
    block_result *res = calloc(nblk, sizeof *res);
    if (!res) return czk_error(CZK_ERR_NOMEM, "%s: %zu block results", S->path, nblk);
    int nomem = 0;
#pragma omp parallel num_threads(S->nt)
    {
        int t = omp_get_thread_num();
        if (!S->bufs[t]) S->bufs[t] = malloc(max_len);
        uint8_t *buf = S->bufs[t];
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < nblk; i++) {
            const pblock *b = &S->blocks[b0 + i];
            if (!buf) {
                res[i].s = CZK_ERR_NOMEM;
                snprintf(res[i].msg, sizeof res[i].msg, "read buffer of %zu bytes", max_len);
                __atomic_store_n(&nomem, 1, __ATOMIC_RELAXED);
                continue;
            }
            czk_status rs = pread_all(S->fd, buf, b->len, b->off);
            if (rs != CZK_OK) {
                res[i].s = rs;
                snprintf(res[i].msg, sizeof res[i].msg, "%s", czk_last_error());
                continue;
            }
            if (S->check != CZK_GROTH16_CHECK_CURVE) block_digest(S->leaves + DIGEST_LEN * (b0 + i), buf, b->len);
            block_decode(&res[i], &view, b, buf, &S->L, S->full, S->try_pin);
        }
    }
    (void)nomem;
    czk_status s = CZK_OK;
    for (size_t i = 0; i < nblk && s == CZK_OK; i++)
        if (res[i].s != CZK_OK) s = czk_error(res[i].s, "%s: %s", S->path, res[i].msg);
    free(res);
    if (s == CZK_OK) S->next_block = b1;
    return s;
}

czk_status czk__params_stream_finish(czk__params_stream *S, czk_groth16_read_info *info)
{
    if (S->next_block != S->nb)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: %zu of %zu blocks read", S->path, S->next_block, S->nb);
    if (!stat_unchanged(S->fd, &S->st0))
        return czk_error(CZK_ERR_IO, "%s: the file changed while it was being read", S->path);
    if (S->check != CZK_GROTH16_CHECK_CURVE) root_digest(S->inf.digest, S->L.size, S->leaves, S->nb);
    if (S->check == CZK_GROTH16_CHECK_CURVE) {
        S->inf.ran = CZK_GROTH16_CHECK_CURVE;
    } else if (S->try_pin) {
        /* the points were used with on-curve checks only, on the word of the
         * sidecar: bytes other than the validated ones void the result */
        if (memcmp(S->inf.digest, S->sc.digest, DIGEST_LEN) != 0)
            return czk_error(CZK_ERR_FORMAT,
                             "%s: the checksum differs from the one recorded in %s (the contents changed, size and "
                             "mtime did not); the points were not validated: remove the sidecar to validate them "
                             "in full",
                             S->path, S->scpath);
        S->inf.ran = CZK_GROTH16_CHECK_PINNED;
    } else {
        S->inf.ran = CZK_GROTH16_CHECK_FULL;
        record_sidecar(&S->inf, S->scpath, &S->st0, &S->L, S->vk.n_ic);
    }
    S->inf.total_s = czk_now() - S->t0;
    if (info) *info = S->inf;
    return CZK_OK;
}

void czk__params_stream_close(czk__params_stream *S)
{
    if (!S) return;
    if (S->fd >= 0) close(S->fd);
    if (S->bufs)
        for (int t = 0; t < S->nt; t++) free(S->bufs[t]);
    free(S->bufs);
    free(S->blocks);
    free(S->leaves);
    free(S->path);
    czk_groth16_vk_clear(&S->vk);
    free(S);
}

/* ---- proofs ------------------------------------------------------------------ */

void czk_groth16_proof_encode(uint8_t out[CZK_GROTH16_PROOF_BYTES], const czk_groth16_proof *pr)
{
    czk_g1_compress(out, &pr->a);
    czk_g2_compress(out + CZK_G1_COMPRESSED, &pr->b);
    czk_g1_compress(out + CZK_G1_COMPRESSED + CZK_G2_COMPRESSED, &pr->c);
}

czk_status czk_groth16_proof_decode(czk_groth16_proof *pr, const uint8_t in[CZK_GROTH16_PROOF_BYTES])
{
    czk_status s = czk_g1_decompress(&pr->a, in);
    if (s != CZK_OK) return czk_error_context(s, "proof element A (bytes 0..47)");
    s = czk_g2_decompress(&pr->b, in + CZK_G1_COMPRESSED);
    if (s != CZK_OK) return czk_error_context(s, "proof element B (bytes 48..143)");
    s = czk_g1_decompress(&pr->c, in + CZK_G1_COMPRESSED + CZK_G2_COMPRESSED);
    if (s != CZK_OK) return czk_error_context(s, "proof element C (bytes 144..191)");
    return CZK_OK;
}
